//! Determinism and save states: the whole machine to a file and back, bit-identical runs,
//! and clear errors that change nothing.

mod common;
use common::*;
use std::path::PathBuf;
use ti82_machine::{Calc, Key, StateError};

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// The bench workload with inputs at fixed times: keys, ON.
fn scripted(c: &mut Calc, steps: u32) {
    for i in 0..steps {
        match i % 7 {
            0 => c.press(Key::K5),
            2 => c.release(Key::K5),
            3 => c.set_on(true),
            5 => c.set_on(false),
            _ => {}
        }
        c.run_for(123_457);
    }
}

#[test]
fn same_program_and_inputs_same_machine() {
    let mut a = calc("bench");
    let mut b = calc("bench");
    scripted(&mut a, 40);
    scripted(&mut b, 40);
    assert_eq!(fnv(a.ram()), fnv(b.ram()));
    assert_eq!(a.lcd(), b.lcd());
    assert_eq!(a.state_bytes(), b.state_bytes());
    // The workload really ran: timer interrupts counted, the LCD drawn.
    let ticks = u16::from_le_bytes([a.ram()[0], a.ram()[1]]);
    assert!(ticks > 70, "{ticks}"); // ~97 Hz for 0.82 s
    assert!(a.lcd().bits.iter().any(|&b| b));
}

#[test]
fn save_load_run_is_bit_identical() {
    let path = tmp("bench.ti82state");
    let mut a = calc("bench");
    scripted(&mut a, 10);
    a.save_state(&path).unwrap();
    scripted(&mut a, 10);

    let mut b = calc("bench");
    b.load_state(&path).unwrap();
    scripted(&mut b, 10);
    assert_eq!(a.state_bytes(), b.state_bytes());
    assert_eq!(a.lcd(), b.lcd());
    assert_eq!(a.cpu(), b.cpu());
    assert!(!tmp("bench.ti82state.tmp").exists());
}

#[test]
fn bad_state_files_give_clear_errors_and_change_nothing() {
    let path = tmp("good.ti82state");
    let mut a = calc("bench");
    scripted(&mut a, 3);
    a.save_state(&path).unwrap();
    let good = std::fs::read(&path).unwrap();

    let mut c = calc("bench");
    scripted(&mut c, 2);
    let before = c.state_bytes();
    let try_load = |c: &mut Calc, name: &str, bytes: &[u8]| -> StateError {
        let p = tmp(name);
        std::fs::write(&p, bytes).unwrap();
        let e = c.load_state(&p).unwrap_err();
        assert!(e.to_string().len() > 10);
        e
    };

    let mut corrupt = good.clone();
    corrupt[5000] ^= 0x40;
    let e = try_load(&mut c, "corrupt.ti82state", &corrupt);
    assert!(matches!(e, StateError::Checksum { .. }), "{e}");
    assert!(e.to_string().contains("corrupt.ti82state"));

    let e = try_load(&mut c, "short.ti82state", &good[..good.len() / 2]);
    assert!(matches!(e, StateError::Truncated { .. }), "{e}");

    let mut other = good.clone();
    other[8] = 99;
    let n = other.len();
    let sum = ti82_machine::state::fnv1a(&other[..n - 8]);
    other[n - 8..].copy_from_slice(&sum.to_le_bytes());
    let e = try_load(&mut c, "other.ti82state", &other);
    assert!(matches!(e, StateError::Version { found: 99, .. }), "{e}");

    let e = try_load(&mut c, "magic.ti82state", b"hello world, not a state");
    assert!(matches!(e, StateError::BadMagic { .. }), "{e}");

    let e = c.load_state(tmp("missing.ti82state")).unwrap_err();
    assert!(matches!(e, StateError::Io { .. }), "{e}");

    // A state from another ROM.
    let mut other_rom = calc("idle");
    let e = other_rom.restore_bytes(&path, &good).unwrap_err();
    assert!(matches!(e, StateError::RomMismatch), "{e}");

    assert_eq!(c.state_bytes(), before);
}

#[test]
fn garbage_payloads_never_panic() {
    let mut c = calc("bench");
    let good = c.state_bytes();
    // Re-seal truncated and bit-flipped payloads with a valid envelope: the parser must
    // reject them without panicking.
    let payload = &good[20..good.len() - 8];
    let mut x: u32 = 12345;
    let mut loaded = 0;
    for i in 0..300 {
        let mut p = payload.to_vec();
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let at = x as usize % p.len();
        if i % 2 == 0 {
            p.truncate(at);
        } else {
            p[at] ^= 1 << (x >> 28 & 7);
        }
        let f = ti82_machine::state::envelope(&p);
        // Whatever loads must also run: keys, ON, the timer, the LCD, with the CPU, the
        // interrupt controller and the counters as the state left them.
        let mut fresh = calc("bench");
        if fresh
            .restore_bytes(std::path::Path::new("fuzz"), &f)
            .is_ok()
        {
            loaded += 1;
            scripted(&mut fresh, 6);
        }
        let _ = c.restore_bytes(std::path::Path::new("fuzz"), &f);
    }
    assert!(loaded > 50, "only {loaded} of the mutated states loaded");
}

#[test]
fn counters_near_their_limit_are_refused() {
    // The LCD's busy-violation counter, the timer tick count and the unknown-port counter
    // grow by one per event: a state holding u64::MAX in one would overflow on the next.
    let c = calc("bench");
    let good = c.state_bytes();
    let payload = &good[20..good.len() - 8];
    // Each counter is the last u64 of a run of fields; find them by writing markers.
    let mut marked = calc("bench");
    let hw = marked.hardware_mut();
    hw.lcd.busy_violations = 0x0102_0304_0506_0708;
    hw.irq.timer_ticks = 0x1112_1314_1516_1718;
    hw.unknown_port_accesses = 0x2122_2324_2526_2728;
    let m = marked.state_bytes();
    let mp = &m[20..m.len() - 8];
    assert_eq!(mp.len(), payload.len());
    for marker in [
        0x0102_0304_0506_0708u64,
        0x1112_1314_1516_1718,
        0x2122_2324_2526_2728,
    ] {
        let at = mp
            .windows(8)
            .position(|w| w == marker.to_le_bytes())
            .expect("marker");
        let mut p = mp.to_vec();
        p[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        let f = ti82_machine::state::envelope(&p);
        let mut victim = calc("bench");
        let e = victim
            .restore_bytes(std::path::Path::new("counter"), &f)
            .unwrap_err();
        assert!(matches!(e, StateError::Corrupt(_)), "{e}");
    }
}
