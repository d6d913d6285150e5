//! The MEMORY screens from the keypad (2nd MEM): Check RAM's figures against the sizes the
//! spec gives for each variable (ti82-software.md §3: a list is 2 + 9n bytes of data, a real 9,
//! a program 2 + its tokens; a VAT entry 6 bytes, a program's 4 + its name, §7.3), Delete, and
//! Reset with its confirmation.

mod common;
use common::*;

use ti82_machine::Key;
use tibasic::firmware::{calc_with_sources, program_names, start_program};
use tifiles::var::{VarName, VarType};

const MEM: [Key; 2] = [Key::Second, Key::Add];

/// The number at the right of a Check RAM line that starts with `label`.
fn figure(lines: &[String], label: &str) -> usize {
    let l = lines
        .iter()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} line in {lines:?}"));
    l.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn check_ram_counts_what_each_variable_takes() {
    let mut calc = calc_with_sources(&[("AB", "{1,2,3}->L1\n5->X")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &MEM);
    assert_eq!(
        glass(&calc)[..4],
        ["MEMORY", "1:Check RAM…", "2:Delete…", "3:Reset…"]
    );
    keys(&mut calc, &[Key::K1]);
    let before = glass(&calc);
    assert_eq!(figure(&before, "List"), 0);
    assert_eq!(figure(&before, "Real"), 0);
    // The program AB: its tokens, their 2-byte length, and a 4 + 2 byte VAT entry.
    let tokens = tifiles::tokenize_source("{1,2,3}->L1\n5->X").unwrap().len();
    assert_eq!(figure(&before, "Prgm"), tokens + 2 + 4 + 2);
    let free = figure(&before, "MEM FREE");
    keys(&mut calc, &[Key::Clear]);
    start_program(&mut calc, "AB").unwrap();
    calc.run_for(300 * 6_000);
    keys(&mut calc, &[Key::Clear]);
    keys(&mut calc, &MEM);
    keys(&mut calc, &[Key::K1]);
    let after = glass(&calc);
    // L1: 2 + 3×9 bytes and a 6-byte entry; X: 9 and 6. (Ans, the OS's own, is not counted.)
    assert_eq!(figure(&after, "List"), 2 + 27 + 6);
    assert_eq!(figure(&after, "Real"), 9 + 6);
    let ans = 9 + 6;
    assert_eq!(figure(&after, "MEM FREE"), free - 35 - 15 - ans);
    for label in ["Matrix", "Y-Vars", "Pic", "GDB"] {
        assert_eq!(figure(&after, label), 0);
    }
}

#[test]
fn delete_removes_the_variable_under_the_cursor() {
    let mut calc =
        calc_with_sources(&[("ONE", "Disp 1"), ("TWO", "Disp 2"), ("ZZ", "Disp 3")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &MEM);
    keys(&mut calc, &[Key::K2]);
    let g = glass(&calc);
    assert_eq!(g[0], "DELETE FROM…");
    assert_eq!(
        &g[1..8],
        [
            "1:All…",
            "2:Real…",
            "3:List…",
            "4:Matrix…",
            "5:Y-Vars…",
            "6:Prgm…",
            "7:Pic…"
        ]
    );
    keys(&mut calc, &[Key::K6]);
    let g = glass(&calc);
    assert!(g[0].starts_with("➤ONE"), "{g:?}");
    assert!(g[1].starts_with(" TWO"), "{g:?}");
    // ONE: `Disp 1` is 2 tokens + 2 length bytes, entry 4 + 3.
    assert!(g[0].ends_with(" 11"), "{g:?}");
    keys(&mut calc, &[Key::Down, Key::Enter]);
    assert_eq!(program_names(calc.ram()), [b"ONE".to_vec(), b"ZZ".to_vec()]);
    let g = glass(&calc);
    assert!(g[1].starts_with("➤ZZ"), "{g:?}");
    // 2nd QUIT, and the deleted program is gone from PRGM too.
    keys(&mut calc, &[Key::Second, Key::Mode]);
    let name = VarName::program("TWO").unwrap();
    assert!(tifiles::vat::read(calc.ram(), VarType::Program, &name)
        .unwrap()
        .is_none());
}

#[test]
fn reset_asks_then_clears_the_memory() {
    let mut calc = calc_with_sources(&[("KEEP", "Disp 1")]).unwrap();
    calc.run_for(100 * 6_000);
    // Fix 2 from the MODE screen.
    keys(&mut calc, &MODE_FIX_2);
    keys(&mut calc, &[Key::Clear]);
    keys(&mut calc, &MEM);
    keys(&mut calc, &[Key::K3]);
    let g = glass(&calc);
    assert_eq!(&g[..3], ["RESET MEMORY", "1:No", "2:Reset"]);
    // 1:No goes back to the menu, nothing lost.
    keys(&mut calc, &[Key::K1]);
    assert_eq!(glass(&calc)[0], "MEMORY");
    assert_eq!(program_names(calc.ram()), [b"KEEP".to_vec()]);
    keys(&mut calc, &[Key::K3, Key::K2]);
    assert_eq!(glass(&calc)[0], "Mem cleared");
    assert!(program_names(calc.ram()).is_empty());
    // The settings are back to their defaults: 1/3 in Float.
    keys(&mut calc, &[Key::K1, Key::Div, Key::K3, Key::Enter]);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.ends_with(".3333333333")), "{g:?}");
}

#[test]
fn reset_after_minutes_of_use_stays_on_with_the_default_contrast() {
    let mut calc = calc_with_sources(&[]).unwrap();
    // Eight minutes on, a key every four, the contrast stepped up once.
    calc.run_for(240_000 * 6_000);
    keys(&mut calc, &[Key::Second, Key::Up]);
    calc.run_for(240_000 * 6_000);
    assert_eq!(calc.hardware().lcd.contrast(), 0x37);
    keys(&mut calc, &MEM);
    keys(&mut calc, &[Key::K3, Key::K2]);
    calc.run_for(100 * 6_000);
    assert!(
        calc.hardware().lcd.display_on(),
        "Reset is a key press: the idle count starts again"
    );
    assert_eq!(glass(&calc)[0], "Mem cleared");
    // The setting in RAM is back to its default: the LCD shows it (command F6h).
    assert_eq!(calc.ram()[0x0008], 0x1E);
    assert_eq!(calc.hardware().lcd.contrast(), 0x36);
}
