//! The PRGM menu with as many programs as memory holds: TI-82 labels past ten items
//! (`1`-`9`, `0`, then `A`-`Z` and `θ`: TI-82 menus continue with letters past ten items, the
//! STAT CALC menu's "option B", source in docs/tibasic.md), no label past those (undocumented,
//! our decision), and no overflow however many programs there are.

use ti82_machine::{Calc, Key};
use tibasic::firmware::{install, menu_label, program_names, program_var, tap, BasicFirmware};

const MS: u64 = 6_000;

fn text(calc: &Calc) -> Vec<String> {
    tibasic::screen::shadow(calc.ram())
        .chunks(tibasic::screen::COLS)
        .map(|row| tibasic::font::decode(row).trim_end().to_string())
        .collect()
}

/// A calculator holding as many one-statement programs as memory allows (names `P0`, `P1`...).
fn full_calc() -> (Calc, Vec<Vec<u8>>) {
    let mut calc = Calc::new(BasicFirmware::new());
    let mut n = 0;
    loop {
        let v = program_var(&format!("P{n}"), vec![0x31]).expect("name");
        if install(calc.ram_mut(), &[v]).is_err() || n >= 5000 {
            break;
        }
        n += 1;
    }
    calc.run_for(50 * MS);
    let names = program_names(calc.ram());
    (calc, names)
}

#[test]
fn labels_continue_with_letters_then_theta_then_none() {
    let labels: String = (0..37)
        .map(|i| tibasic::font::decode(&[menu_label(i).expect("labelled")]))
        .collect();
    assert_eq!(labels, "1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZθ");
    assert_eq!(menu_label(37), None);
    assert_eq!(menu_label(usize::MAX), None);
}

#[test]
fn a_full_memory_of_programs_scrolls_and_picks_by_letter() {
    let (mut calc, names) = full_calc();
    assert!(names.len() > 300, "only {} programs fit", names.len());
    tap(&mut calc, Key::Prgm);
    // Scroll through every item and wrap around (as the TI-82 menus do) without a panic.
    for _ in 0..names.len() + 3 {
        calc.press(Key::Down);
        calc.run_for(10 * MS);
        calc.release(Key::Down);
        calc.run_for(10 * MS);
    }
    tap(&mut calc, Key::Clear);
    // ALPHA B picks the twelfth program (labelled `B:`).
    tap(&mut calc, Key::Prgm);
    tap(&mut calc, Key::Alpha);
    tap(&mut calc, Key::Matrx);
    let want = format!("prgm{}", String::from_utf8_lossy(&names[11]));
    assert!(
        text(&calc).iter().any(|l| l == &want),
        "{:?} should show {want}",
        text(&calc)
    );
    // 0 picks the tenth.
    tap(&mut calc, Key::Clear);
    tap(&mut calc, Key::Prgm);
    tap(&mut calc, Key::K0);
    let want = format!("prgm{}", String::from_utf8_lossy(&names[9]));
    assert!(text(&calc).iter().any(|l| l == &want), "{:?}", text(&calc));
}
