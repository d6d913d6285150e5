//! Power and contrast on the built-in runtime: 2nd OFF and ON (spec hardware §8 step 6: the
//! display off, ON wakes it with the screen as it was), the automatic power-down after about
//! five idle minutes (not while a program runs), a calculator that is off not answering the
//! link, and 2nd ▲/▼ stepping the T6A04 contrast command (spec hardware §5.3, §5.7).

mod common;
use common::*;

use ti82_machine::cable;
use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, read_list, start_program};
use tibasic::real::Real;

const MS: u64 = 6_000;

fn press_on(calc: &mut Calc) {
    calc.set_on(true);
    calc.run_for(60 * MS);
    calc.set_on(false);
    calc.run_for(60 * MS);
}

#[test]
fn second_off_and_on_keep_the_screen() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * MS);
    keys(&mut calc, &[Key::K2, Key::Add, Key::K2, Key::Enter]);
    let before = glass(&calc);
    assert_eq!(before[1].trim(), "4");
    keys(&mut calc, &[Key::Second]);
    press_on(&mut calc);
    assert!(
        !calc.hardware().lcd.display_on(),
        "2nd OFF turns the display off"
    );
    // Keys do nothing while off.
    keys(&mut calc, &[Key::K7, Key::Enter]);
    press_on(&mut calc);
    assert!(calc.hardware().lcd.display_on());
    assert_eq!(glass(&calc), before, "the screen as it was");
    keys(&mut calc, &[Key::K5, Key::Enter]);
    assert_eq!(glass(&calc)[3].trim(), "5");
}

#[test]
fn the_automatic_power_down_counts_idle_time_only() {
    let mut calc = calc_with_sources(&[("LOOP", "Lbl A\nGoto A")]).unwrap();
    calc.run_for(100 * MS);
    // Four idle minutes: still on; a fifth: off.
    calc.run_for(240_000 * MS);
    assert!(calc.hardware().lcd.display_on());
    keys(&mut calc, &[Key::K1]);
    calc.run_for(240_000 * MS);
    assert!(calc.hardware().lcd.display_on(), "a key restarts the count");
    calc.run_for(70_000 * MS);
    assert!(!calc.hardware().lcd.display_on(), "five idle minutes: off");
    press_on(&mut calc);
    assert!(calc.hardware().lcd.display_on());
    // A running program keeps it on.
    keys(&mut calc, &[Key::Clear]);
    start_program(&mut calc, "LOOP").unwrap();
    calc.run_for(600_000 * MS);
    assert!(
        calc.hardware().lcd.display_on(),
        "a running program is not idle"
    );
}

#[test]
fn a_calculator_that_is_off_does_not_answer_get() {
    let a = calc_with_sources(&[("HOLD", "{1,2,3}->L1")]).unwrap();
    let b = calc_with_sources(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]).unwrap();
    let (mut a, mut b) = cable::connect(a, b, cable::DEFAULT_LATENCY);
    let run = |a: &mut cable::Linked, b: &mut cable::Linked, ms: u64| {
        cable::run_pair(a, b, ms * MS);
    };
    run(&mut a, &mut b, 100);
    start_program(&mut a, "HOLD").unwrap();
    run(&mut a, &mut b, 300);
    // A: 2nd OFF.
    a.press(Key::Second);
    run(&mut a, &mut b, 60);
    a.release(Key::Second);
    run(&mut a, &mut b, 60);
    a.set_on(true);
    run(&mut a, &mut b, 60);
    a.set_on(false);
    run(&mut a, &mut b, 60);
    assert!(!a.hardware().lcd.display_on());
    start_program(&mut b, "PULL").unwrap();
    run(&mut a, &mut b, 4_000);
    assert_eq!(read_list(b.ram(), 1), Some(vec![Real::from_i64(9)]));
    // Turned on, A answers.
    a.set_on(true);
    run(&mut a, &mut b, 60);
    a.set_on(false);
    run(&mut a, &mut b, 60);
    start_program(&mut b, "PULL").unwrap();
    run(&mut a, &mut b, 2_000);
    assert_eq!(
        read_list(b.ram(), 1),
        Some(vec![
            Real::from_i64(1),
            Real::from_i64(2),
            Real::from_i64(3)
        ])
    );
}

#[test]
fn contrast_keys_step_the_t6a04_command() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * MS);
    // The reset setting gives the command F6h (bits 5:0 = 36h).
    assert_eq!(calc.hardware().lcd.contrast(), 0x36);
    for _ in 0..3 {
        keys(&mut calc, &[Key::Second, Key::Up]);
    }
    assert_eq!(calc.hardware().lcd.contrast(), 0x37, "the top of the range");
    assert_eq!(calc.ram()[0x0008], 0x1F);
    // The setting's digit shows in the top-right corner for a moment.
    assert!(glass(&calc)[0].ends_with('9'), "{:?}", glass(&calc));
    calc.run_for(1_200 * MS);
    assert!(!glass(&calc)[0].ends_with('9'), "{:?}", glass(&calc));
    for _ in 0..10 {
        keys(&mut calc, &[Key::Second, Key::Down]);
    }
    assert_eq!(calc.hardware().lcd.contrast(), 0x37 - 10);
    assert_eq!(calc.ram()[0x0008], 0x1F - 10);
    // 2nd ▲/▼ typed nothing on the home screen: its text (the shadow at 808Fh) is blank;
    // the glass has the cursor and the contrast digit.
    assert!(
        calc.ram()[0x8F..0x8F + 16].iter().all(|&c| c == b' '),
        "{:?}",
        glass(&calc)
    );
}

/// A copy of `calc` made through its save state (as a front end restores one at start-up).
fn restored(calc: &Calc) -> Calc {
    let mut copy = calc_with_sources(&[]).unwrap();
    copy.restore_bytes(std::path::Path::new("power.state"), &calc.state_bytes())
        .expect("a good state loads");
    copy
}

#[test]
fn a_save_state_keeps_the_idle_count_and_the_power() {
    // Eight minutes on, the last key four minutes ago: a restored copy stays on for one more
    // idle minute, then powers down like the original.
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(240_000 * MS);
    keys(&mut calc, &[Key::K1]);
    calc.run_for(240_000 * MS);
    assert!(calc.hardware().lcd.display_on());
    let mut copy = restored(&calc);
    copy.run_for(100 * MS);
    assert!(
        copy.hardware().lcd.display_on(),
        "four idle minutes before the save: still on after the load"
    );
    let before = glass(&copy);
    copy.run_for(70_000 * MS);
    assert!(!copy.hardware().lcd.display_on(), "five idle minutes: off");
    // Saved while off: the copy is off too, and ON wakes it with the screen as it was.
    let mut off = restored(&copy);
    off.run_for(100 * MS);
    assert!(!off.hardware().lcd.display_on());
    keys(&mut off, &[Key::K7]);
    press_on(&mut off);
    assert!(off.hardware().lcd.display_on());
    // (The entry cursor blinks: the text under it is compared.)
    assert_eq!(
        without_cursor(&glass(&off)),
        without_cursor(&before),
        "the screen as it was, the 7 lost"
    );
}
