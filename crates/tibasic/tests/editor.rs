//! Writing, running and editing a program entirely from the keypad on the built-in runtime:
//! PRGM NEW (the name typed ALPHA-locked), typing with the PRGM CTL and I/O menus, 2nd QUIT,
//! running it from PRGM EXEC, an error, `1:Goto` into the editor at the failing statement,
//! fixing it, running again; overwrite and insert; a save state taken in the editor.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program};
use tifiles::var::{VarName, VarType};

fn program(calc: &Calc, name: &str) -> Option<Vec<u8>> {
    let n = VarName::program(name).unwrap();
    match tifiles::vat::read(calc.ram(), VarType::Program, &n)
        .unwrap()?
        .data
    {
        tifiles::VarData::Program(t) => Some(t),
        _ => None,
    }
}

fn tokens(src: &str) -> Vec<u8> {
    tifiles::tokenize_source(src).unwrap()
}

/// PRGM ► (I/O) 3: `Disp `.
const DISP: [Key; 3] = [Key::Prgm, Key::Right, Key::K3];
const QUIT: [Key; 2] = [Key::Second, Key::Mode];

/// The glass in the second half of the cursor's blink (half a second after the last key),
/// when the cell under the cursor shows its character.
fn text(calc: &mut Calc) -> Vec<String> {
    calc.run_for(450 * 6_000);
    glass(calc)
}

#[test]
fn write_a_program_from_the_keypad_and_run_it() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Prgm, Key::Left]);
    assert_eq!(text(&mut calc)[..2], ["EXEC EDIT NEW", "1:Create New"]);
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(text(&mut calc)[0], "PROGRAM:Ⓐ");
    // H and I, ALPHA-locked (the keys under ^ and x²).
    keys(&mut calc, &[Key::Pow, Key::Square]);
    assert_eq!(text(&mut calc)[0], "PROGRAM:HIⒶ");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(text(&mut calc)[..2], ["PROGRAM:HI", ":"]);
    // Disp 42, ENTER, Disp 6*7, ENTER, While 0 / End from PRGM CTL (5, 7).
    keys(&mut calc, &DISP);
    keys(&mut calc, &[Key::K4, Key::K2, Key::Enter]);
    keys(&mut calc, &DISP);
    keys(&mut calc, &[Key::K6, Key::Mul, Key::K7]);
    assert_eq!(
        text(&mut calc)[..3],
        ["PROGRAM:HI", ":Disp 42", ":Disp 6*7"]
    );
    keys(&mut calc, &[Key::Enter, Key::Prgm, Key::K5, Key::K0]);
    keys(&mut calc, &[Key::Enter, Key::Prgm, Key::K7]);
    assert_eq!(text(&mut calc)[3..5], [":While 0", ":End"]);
    keys(&mut calc, &QUIT);
    assert_eq!(
        program(&calc, "HI"),
        Some(tokens("Disp 42\nDisp 6*7\nWhile 0\nEnd"))
    );
    // Run it from PRGM EXEC.
    start_program(&mut calc, "HI").unwrap();
    calc.run_for(300 * 6_000);
    let g = text(&mut calc);
    let answers: Vec<&str> = g.iter().map(|l| l.trim()).filter(|l| *l == "42").collect();
    assert_eq!(answers.len(), 2, "{g:?}");
}

#[test]
fn an_error_goes_to_the_statement_and_the_fix_runs() {
    let src = "Disp 1\nDisp 1/0\nDisp 3";
    let mut calc = calc_with_sources(&[("BAD", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "BAD").unwrap();
    calc.run_for(300 * 6_000);
    assert_eq!(
        text(&mut calc)[..3],
        ["ERR:DIVIDE BY 0", "1:Goto", "2:Quit"]
    );
    keys(&mut calc, &[Key::K1]);
    // The cursor (the home screen's block, in the first half of its blink) is on the failing
    // statement's first token; half a second later the token shows.
    assert_eq!(glass(&calc)[2], ":█isp 1/0");
    let g = text(&mut calc);
    assert_eq!(g[..4], ["PROGRAM:BAD", ":Disp 1", ":Disp 1/0", ":Disp 3"]);
    // CLEAR the line, type Disp 2, 2nd QUIT, run again: 1, 2, 3.
    keys(&mut calc, &[Key::Clear]);
    keys(&mut calc, &DISP);
    keys(&mut calc, &[Key::K2]);
    keys(&mut calc, &QUIT);
    assert_eq!(
        program(&calc, "BAD"),
        Some(tokens("Disp 1\nDisp 2\nDisp 3"))
    );
    start_program(&mut calc, "BAD").unwrap();
    calc.run_for(300 * 6_000);
    let g = glass(&calc);
    let shown: Vec<&str> = g
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    // (The entry cursor waits on the line below `Done`.)
    assert!(shown.ends_with(&["1", "2", "3", "Done", "█"]), "{g:?}");
}

#[test]
fn overwrite_insert_delete_and_lines() {
    let mut calc = calc_with_sources(&[("ED", "Disp 123")]).unwrap();
    calc.run_for(100 * 6_000);
    // PRGM ► (EDIT) 1.
    keys(&mut calc, &[Key::Prgm, Key::Right, Key::K1]);
    assert_eq!(text(&mut calc)[..2], ["PROGRAM:ED", ":Disp 123"]);
    // ► past `Disp `, 9 overwrites 1; 2nd INS, 8 goes in before 2; DEL deletes the 2.
    keys(&mut calc, &[Key::Right, Key::K9]);
    assert_eq!(text(&mut calc)[1], ":Disp 923");
    keys(&mut calc, &[Key::Second, Key::Del, Key::K8]);
    // The insert cursor (an underline, the home screen's) blinks on the 2.
    assert_eq!(glass(&calc)[1], ":Disp 98_3");
    assert_eq!(text(&mut calc)[1], ":Disp 9823");
    keys(&mut calc, &[Key::Del]);
    // Still inserting (the cursor has not moved): the 3 under it.
    assert_eq!(glass(&calc)[1], ":Disp 98_");
    assert_eq!(text(&mut calc)[1], ":Disp 983");
    keys(&mut calc, &[Key::Right]);
    assert_eq!(text(&mut calc)[1], ":Disp 983");
    // ENTER opens a line below; DEL on it removes it again; a long line wraps.
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(text(&mut calc)[2], ":");
    keys(&mut calc, &[Key::Del]);
    assert_eq!(text(&mut calc)[2], "");
    keys(&mut calc, &[Key::Enter]);
    keys(&mut calc, &DISP);
    for _ in 0..12 {
        keys(&mut calc, &[Key::K7]);
    }
    let g = text(&mut calc);
    assert_eq!(g[2..4], [":Disp 7777777777", "77"]);
    // A save state taken in the editor comes back to it.
    let state = calc.state_bytes();
    let mut back = calc_with_sources(&[]).unwrap();
    back.restore_bytes(std::path::Path::new("edit.state"), &state)
        .unwrap();
    back.run_for(20 * 6_000);
    assert_eq!(text(&mut back)[..3], text(&mut calc)[..3]);
    keys(&mut back, &QUIT);
    assert_eq!(
        program(&back, "ED"),
        Some(tokens("Disp 983\nDisp 777777777777"))
    );
}

#[test]
fn a_protected_program_runs_but_is_not_listed_for_editing() {
    let mut calc = calc_with_sources(&[("OPEN", "Disp 1")]).unwrap();
    let locked = tifiles::Variable {
        name: VarName::program("LOCKED").unwrap(),
        data: tifiles::VarData::ProtectedProgram(tokens("Disp 1/0")),
    };
    tifiles::vat::store(calc.ram_mut(), &locked).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Prgm]);
    assert_eq!(text(&mut calc)[1..3], ["1:LOCKED", "2:OPEN"]);
    keys(&mut calc, &[Key::Right]);
    assert_eq!(text(&mut calc)[1..3], ["1:OPEN", ""]);
    keys(&mut calc, &[Key::Clear, Key::Clear]);
    // Its error's Goto does not open it.
    start_program(&mut calc, "LOCKED").unwrap();
    calc.run_for(300 * 6_000);
    assert_eq!(text(&mut calc)[0], "ERR:DIVIDE BY 0");
    keys(&mut calc, &[Key::K1]);
    assert!(
        !text(&mut calc)[0].starts_with("PROGRAM:"),
        "{:?}",
        text(&mut calc)
    );
}

#[test]
fn prgm_new_with_a_protected_programs_name_does_not_open_it() {
    let mut calc = calc_with_sources(&[]).unwrap();
    let locked = tifiles::Variable {
        name: VarName::program("HI").unwrap(),
        data: tifiles::VarData::ProtectedProgram(tokens("Disp 1")),
    };
    tifiles::vat::store(calc.ram_mut(), &locked).unwrap();
    calc.run_for(100 * 6_000);
    // PRGM ◄ 1:Create New, H I (ALPHA-locked), ENTER.
    keys(&mut calc, &[Key::Prgm, Key::Left, Key::Enter]);
    keys(&mut calc, &[Key::Pow, Key::Square, Key::Enter]);
    assert!(
        !text(&mut calc)[0].starts_with("PROGRAM:"),
        "the edit lock holds: {:?}",
        text(&mut calc)
    );
    // Whatever the keys do now, the program keeps its protection and its statements.
    keys(&mut calc, &[Key::K5]);
    keys(&mut calc, &QUIT);
    let n = VarName::program("HI").unwrap();
    let ram = calc.ram();
    assert_eq!(tifiles::vat::read(ram, VarType::Program, &n).unwrap(), None);
    assert_eq!(
        tifiles::vat::read(ram, VarType::ProtectedProgram, &n)
            .unwrap()
            .map(|v| v.data),
        Some(tifiles::VarData::ProtectedProgram(tokens("Disp 1")))
    );
}

#[test]
fn prgm_new_left_with_second_quit_or_clear_creates_nothing() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    for leave in [&QUIT[..], &[Key::Clear][..]] {
        keys(&mut calc, &[Key::Prgm, Key::Left, Key::Enter]);
        keys(&mut calc, &[Key::Pow, Key::Square]);
        assert_eq!(text(&mut calc)[0], "PROGRAM:HIⒶ");
        keys(&mut calc, leave);
        assert!(
            !text(&mut calc)[0].starts_with("PROGRAM:"),
            "{leave:?} leaves the name entry: {:?}",
            text(&mut calc)
        );
        assert_eq!(program(&calc, "HI"), None, "{leave:?}");
    }
}

#[test]
fn second_a_lock_types_letters_until_alpha() {
    // 2nd A-LOCK in the editor as on the home screen (the Guidebook: ALPHA stays on until
    // ALPHA is pressed again): MATH MATRX PRGM type A B C; after ALPHA, 1 types 1.
    let mut calc = calc_with_sources(&[("ED", "")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Prgm, Key::Right, Key::K1]);
    keys(
        &mut calc,
        &[Key::Second, Key::Alpha, Key::Math, Key::Matrx, Key::Prgm],
    );
    keys(&mut calc, &[Key::Alpha, Key::K1]);
    assert_eq!(text(&mut calc)[1], ":ABC1");
    keys(&mut calc, &QUIT);
    assert_eq!(program(&calc, "ED"), Some(tokens("ABC1")));
}

/// PRGM ► EXEC in the program editor lists the programs (the TI-82 Guidebook: choosing one
/// pastes `prgm` and its name, to call it as a subroutine); the call runs.
#[test]
fn prgm_exec_in_the_editor_types_a_program_call() {
    let mut calc = calc_with_sources(&[("SUB", "Disp 7"), ("TOP", "Disp 1")]).unwrap();
    calc.run_for(100 * 6_000);
    // PRGM ► EDIT, TOP is the second program (alphabetical: SUB, TOP).
    keys(&mut calc, &[Key::Prgm, Key::Right, Key::K2]);
    assert_eq!(text(&mut calc)[..2], ["PROGRAM:TOP", ":Disp 1"]);
    keys(&mut calc, &[Key::Down, Key::Enter, Key::Prgm, Key::Left]);
    assert_eq!(text(&mut calc)[..4], ["CTL I/O EXEC", "1:SUB", "2:TOP", ""]);
    keys(&mut calc, &[Key::K1]);
    assert_eq!(text(&mut calc)[2], ":prgmSUB");
    keys(&mut calc, &QUIT);
    assert_eq!(program(&calc, "TOP"), Some(tokens("Disp 1\nprgmSUB")));
    start_program(&mut calc, "TOP").unwrap();
    calc.run_for(300 * 6_000);
    let g = text(&mut calc);
    assert!(g.iter().any(|l| l.trim() == "7"), "{g:?}");
}
