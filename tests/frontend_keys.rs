//! Window key input as presses and releases in emulated time (`script::KeyHolds`), counted on
//! the calculator's keypad port by our Z80 program `tests/roms/keyrepeat.asm`: it samples
//! RIGHT about once per emulated ms and counts the press and the repeats an OS with the
//! built-in runtime's repeat timing (450 ms, then every 80 ms) would make.
//!
//! The host frames are simulated: wall times are given (60 Hz), each frame runs a budget as
//! the window does (turbo: up to ten emulated seconds, `pacing`), no wall clock is read.

use std::time::{Duration, Instant};

use ti82::app::Machine;
use ti82::cli::MachineArgs;
use ti82::pacing::Speed;
use ti82::script::{Button, HUMAN_PRESS_MS};
use ti82_machine::{Calc, Key, RomImage, CLOCK_HZ};

const KEYREPEAT: &[u8] = include_bytes!("roms/keyrepeat.bin");
const RIGHT: Button = Button::Key(Key::Right);
/// One 60 Hz host frame.
const FRAME: Duration = Duration::from_micros(16_667);
/// The most one turbo budget runs (`Pacer::budget_for`'s clamp).
const TURBO_BUDGET: u64 = CLOCK_HZ * 10;

fn machine() -> Machine {
    let calc = Calc::from_rom(RomImage::from_program(KEYREPEAT));
    Machine::with_calc(
        calc,
        "keys".into(),
        None,
        &MachineArgs::default(),
        Vec::new(),
    )
    .unwrap()
}

/// (samples with RIGHT down ≈ ms held, key events = the press and its repeats).
fn counts(m: &Machine) -> (u16, u16) {
    let r = m.calc.ram();
    (
        u16::from_le_bytes([r[0], r[1]]),
        u16::from_le_bytes([r[2], r[3]]),
    )
}

/// Holds RIGHT on the host for `frames` host frames, then lets go and runs one more frame;
/// each frame runs `budget` T-states at `speed`'s hold factor.
fn hold_for_frames(frames: u32, budget: u64, speed: Speed) -> (u16, u16) {
    let mut m = machine();
    m.advance(CLOCK_HZ / 100).unwrap(); // the program is sampling
    let t0 = Instant::now();
    for f in 0..=frames {
        let want: &[Button] = if f < frames { &[RIGHT] } else { &[] };
        let wall = t0 + FRAME * f;
        m.holds.update(&mut m.calc, want, wall, speed.hold_factor());
        m.advance(budget).unwrap();
    }
    assert!(m.holds.down().is_empty(), "released at the end");
    counts(&m)
}

#[test]
fn the_program_counts_repeats_of_a_long_press() {
    // The behaviour before: the key down for a whole turbo frame, ten emulated seconds.
    let mut m = machine();
    m.advance(CLOCK_HZ / 100).unwrap();
    m.calc.set_key(Key::Right, true);
    m.advance(TURBO_BUDGET).unwrap();
    m.calc.set_key(Key::Right, false);
    m.advance(CLOCK_HZ / 10).unwrap();
    let (down, events) = counts(&m);
    assert!((9_900..=10_100).contains(&down), "{down}");
    // 1 press + (10 000 − 450) / 80 repeats.
    assert!((118..=122).contains(&events), "{events}");
}

#[test]
fn one_host_frame_in_turbo_is_one_human_press() {
    let (down, events) = hold_for_frames(1, TURBO_BUDGET, Speed::Turbo);
    assert_eq!(events, 1, "no repeat");
    // HUMAN_PRESS_MS (100) of the program's ~1 ms samples.
    let want = HUMAN_PRESS_MS as u16;
    assert!((want - 2..=want + 2).contains(&down), "{down}");
}

#[test]
fn a_held_key_in_turbo_lasts_its_wall_time_and_repeats_as_at_real_speed() {
    // One wall second (60 frames) held: about one emulated second down in turbo as at real
    // speed (a frame's budget = its wall time), so the same repeats: 1 + (1000 − 450) / 80.
    let (down_turbo, events_turbo) = hold_for_frames(60, TURBO_BUDGET, Speed::Turbo);
    let real_budget = (FRAME.as_secs_f64() * CLOCK_HZ as f64) as u64;
    let (down_real, events_real) = hold_for_frames(60, real_budget, Speed::Real);
    for (down, events) in [(down_turbo, events_turbo), (down_real, events_real)] {
        assert!((990..=1_040).contains(&down), "{down}");
        assert!((7..=8).contains(&events), "{events}");
    }
    assert!(events_turbo.abs_diff(events_real) <= 1);
    // At 2× a wall second is two emulated seconds.
    let (down2, _) = hold_for_frames(60, 2 * real_budget, Speed::Times(2.0));
    assert!((1_980..=2_080).contains(&down2), "{down2}");
}

#[test]
fn a_tap_shorter_than_a_human_press_is_lengthened() {
    // Real speed, frames of 1 ms of wall time: the host lets go after 2 ms, the calculator
    // still sees a 100 ms press.
    let mut m = machine();
    m.advance(CLOCK_HZ / 100).unwrap();
    let t0 = Instant::now();
    let ms = CLOCK_HZ / 1000;
    for f in 0..200u32 {
        let want: &[Button] = if f < 2 { &[RIGHT] } else { &[] };
        m.holds.update(
            &mut m.calc,
            want,
            t0 + Duration::from_millis(u64::from(f)),
            1.0,
        );
        m.advance(ms).unwrap();
    }
    let (down, events) = counts(&m);
    assert_eq!(events, 1);
    assert!((98..=102).contains(&down), "{down}");
}
