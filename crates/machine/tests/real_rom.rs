//! Tests with a real TI-82 ROM image, which the project never ships: set `TI82_ROM` to the
//! path of your own dump and run `cargo test -p ti82-machine -- --ignored`. Without it these
//! tests print that they were skipped.

use ti82_machine::{Calc, Key, RomImage, CLOCK_HZ};

/// RAM offset of the home screen text shadow (8000h + 8Fh, spec ti82-software.md).
const TEXT_SHADOW: usize = 0x8F;

fn rom() -> Option<RomImage> {
    match std::env::var_os("TI82_ROM") {
        None => {
            eprintln!(
                "skipped: TI82_ROM is not set (point it at a TI-82 ROM image to run this test)"
            );
            None
        }
        Some(p) => Some(RomImage::load(&p).unwrap_or_else(|e| panic!("{e}"))),
    }
}

fn secs(c: &mut Calc, s: f64) {
    c.run_for((s * CLOCK_HZ as f64) as u64);
}

/// Cold boot as in spec §2.6/§8.5: run 1 s, hold ON 0.5 s, release, run 1 s.
fn boot(rom: RomImage) -> Calc {
    let mut c = Calc::from_rom(rom);
    secs(&mut c, 1.0);
    c.set_on(true);
    secs(&mut c, 0.5);
    c.set_on(false);
    secs(&mut c, 1.0);
    c
}

fn tap(c: &mut Calc, k: Key) {
    c.press(k);
    secs(c, 0.1);
    c.release(k);
    secs(c, 0.15);
}

fn shadow_row(c: &Calc, row: usize) -> Vec<u8> {
    c.ram()[TEXT_SHADOW + 16 * row..][..16].to_vec()
}

#[test]
#[ignore = "needs TI82_ROM"]
fn boot_to_home_and_compute_2_plus_2() {
    let Some(rom) = rom() else { return };
    let mut c = boot(rom);
    assert!(
        c.lcd().bits.iter().any(|&b| b),
        "nothing on the screen after boot"
    );
    tap(&mut c, Key::Clear);
    for k in [Key::K2, Key::Add, Key::K2, Key::Enter] {
        tap(&mut c, k);
    }
    secs(&mut c, 0.5);
    let rows: Vec<Vec<u8>> = (0..8).map(|r| shadow_row(&c, r)).collect();
    let typed = rows.iter().position(|r| r.windows(3).any(|w| w == b"2+2"));
    let typed = typed.unwrap_or_else(|| panic!("2+2 not on the home screen: {rows:02X?}"));
    assert_eq!(
        rows[typed + 1][15],
        b'4',
        "answer row: {:02X?}",
        rows[typed + 1]
    );
}

#[test]
#[ignore = "needs TI82_ROM"]
fn power_off_and_on_with_on() {
    let Some(rom) = rom() else { return };
    let mut c = boot(rom);
    // 2nd, ON: power off.
    c.press(Key::Second);
    secs(&mut c, 0.1);
    c.release(Key::Second);
    secs(&mut c, 0.1);
    c.set_on(true);
    secs(&mut c, 0.2);
    c.set_on(false);
    secs(&mut c, 1.0);
    assert!(c.hardware().powered_down(), "2nd+ON did not power off");
    assert!(c.lcd().bits.iter().all(|&b| !b));
    c.set_on(true);
    secs(&mut c, 0.3);
    c.set_on(false);
    secs(&mut c, 1.0);
    assert!(!c.hardware().powered_down(), "ON did not power back on");
    assert!(c.lcd().bits.iter().any(|&b| b));
}
