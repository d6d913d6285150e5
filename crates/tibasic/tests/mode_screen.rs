//! The MODE screen from the keypad: its lines, the settings shown in inverse video, ENTER
//! changing what the home screen and programs compute and display, and programs' mode
//! commands showing on it. Lines and order: the TI-82's (docs/calculator.md, "MODE").

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program};
use tibasic::shell::mode::{cell, MODE_LINES};

/// The option of each line shown as set (inverted), skipping the line `skip` (where the
/// cursor blinks).
fn shown_settings(calc: &Calc, skip: usize) -> Vec<Option<&'static str>> {
    MODE_LINES
        .iter()
        .enumerate()
        .map(|(row, line)| {
            if row == skip {
                return None;
            }
            let set: Vec<&str> = line
                .iter()
                .enumerate()
                .filter(|(col, _)| inverted(calc, row, cell(row, *col)))
                .map(|(_, t)| *t)
                .collect();
            assert_eq!(set.len(), 1, "line {row}: {set:?}");
            Some(set[0])
        })
        .collect()
}

#[test]
fn the_mode_screen_shows_and_changes_the_settings() {
    let mut calc = calc_with_sources(&[("PI", "Disp π")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Mode]);
    assert_eq!(
        glass(&calc)[..7],
        [
            "Normal Sci Eng",
            "Float 0123456789",
            "Radian Degree",
            "Func Par Pol Seq",
            "Connected Dot",
            "Sequential Simul",
            "FullScreen Split"
        ]
    );
    assert_eq!(
        shown_settings(&calc, 0)[1..],
        [
            Some("Float"),
            Some("Radian"),
            Some("Func"),
            Some("Connected"),
            Some("Sequential"),
            Some("FullScreen")
        ]
    );
    // ▼ to the Float line, ► ► ► to 2, ENTER: Fix 2. ▼ ► ENTER: Degree. CLEAR: home.
    keys(
        &mut calc,
        &[Key::Down, Key::Right, Key::Right, Key::Right, Key::Enter],
    );
    keys(&mut calc, &[Key::Down, Key::Right, Key::Enter]);
    let shown = shown_settings(&calc, 2);
    assert_eq!(shown[1], Some("2"));
    keys(&mut calc, &[Key::Up]);
    assert_eq!(shown_settings(&calc, 1)[2], Some("Degree"));
    keys(&mut calc, &[Key::Clear]);
    // 1/3 shows with two decimals; sin 90 is 1 in degrees.
    keys(&mut calc, &[Key::K1, Key::Div, Key::K3, Key::Enter]);
    // (The TI-82's sin takes no parenthesis: `sin 90`.)
    keys(&mut calc, &[Key::Sin, Key::K9, Key::K0, Key::Enter]);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.ends_with(".33")), "{g:?}");
    assert!(g.iter().any(|l| l.ends_with("1.00")), "{g:?}");
    // A program computes and displays in the same modes.
    start_program(&mut calc, "PI").unwrap();
    calc.run_for(300 * 6_000);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.ends_with("3.14")), "{g:?}");
}

#[test]
fn mode_commands_in_programs_show_on_the_mode_screen() {
    let src = "Sci\nFix 5\nDegree\nParam\nDot\nSimul\nSplit";
    let mut calc = calc_with_sources(&[("SET", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "SET").unwrap();
    calc.run_for(300 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Mode]);
    // The cursor blinks on line 0; every other line shows the program's settings.
    assert_eq!(
        shown_settings(&calc, 0)[1..],
        [
            Some("5"),
            Some("Degree"),
            Some("Par"),
            Some("Dot"),
            Some("Simul"),
            Some("Split")
        ]
    );
    // The cursor on line 0 opens on the setting, Sci: moving it off and back, ENTER on Eng.
    keys(&mut calc, &[Key::Right, Key::Enter, Key::Down]);
    assert_eq!(shown_settings(&calc, 1)[0], Some("Eng"));
    // 2nd QUIT leaves; a save state taken on the MODE screen comes back to it.
    keys(&mut calc, &[Key::Up]);
    let state = calc.state_bytes();
    let mut back = calc_with_sources(&[]).unwrap();
    back.restore_bytes(std::path::Path::new("mode.state"), &state)
        .unwrap();
    back.run_for(20 * 6_000);
    assert_eq!(glass(&back)[0], "Normal Sci Eng");
    assert_eq!(shown_settings(&back, 0)[1], Some("5"));
    keys(&mut back, &[Key::Second, Key::Mode]);
    assert!(glass(&back)[..7].iter().all(|l| !l.contains("Normal")));
}
