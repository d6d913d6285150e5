//! Tables of function values: `DispTable` in a program and the TABLE screen (2nd TABLE),
//! rows X = TblMin + i·ΔTbl (the TI-82 Guidebook's table set-up, IndpntAuto), with the
//! selected functions' values beside X.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program, BasicFirmware};

#[test]
fn disptable_shows_the_table_until_enter() {
    let src = "\"X²\"->{Y1}\n~1->TblMin\n.5->DeltaTbl\nClrTable\nDispTable\n7->A";
    let mut calc: Calc = calc_with_sources(&[("T", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(2_000 * 6_000);
    assert_eq!(column(&calc, 0), ["X", "⁻1", "⁻.5", "0", ".5", "1", "1.5"]);
    assert_eq!(
        column(&calc, 1),
        ["Y₁", "1", ".25", "0", ".25", "1", "2.25"]
    );
    assert_eq!(glass(&calc)[7], "X=⁻1");
    keys(&mut calc, &[Key::Enter]);
    calc.run_for(500 * 6_000);
    assert!(!BasicFirmware::of(&calc).unwrap().program_active());
}

#[test]
fn the_table_screen_scrolls_by_the_step() {
    let mut calc: Calc = calc_with_sources(&[("T", "\"2X\"->{Y1}\n\"1/X\"->{Y2}")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Graph]);
    // TblMin 0 and ΔTbl 1 by default; 1/X has no value at 0.
    assert_eq!(column(&calc, 0), ["X", "0", "1", "2", "3", "4", "5"]);
    assert_eq!(column(&calc, 1), ["Y₁", "0", "2", "4", "6", "8", "10"]);
    assert_eq!(column(&calc, 2)[..3], ["Y₂", "ERROR", "1"]);
    keys(&mut calc, &[Key::Down]);
    assert_eq!(column(&calc, 0)[1..3], ["1", "2"]);
    keys(&mut calc, &[Key::Up, Key::Up]);
    assert_eq!(column(&calc, 0)[1..3], ["⁻1", "0"]);
    keys(&mut calc, &[Key::Clear]);
    assert_ne!(column(&calc, 0)[0], "X");
}

/// IndpntAsk: the table's X values are TblInput's (the values a user asked for), in order;
/// ClrTable empties them.
#[test]
fn an_indpntask_table_shows_tblinput() {
    let src = "\"X²\"->{Y1}\nIndpntAsk\n{3,~2,10}->TblInput\nDispTable\nTblInput->L5\nClrTable\nTblInput->L6";
    let mut calc: Calc = calc_with_sources(&[("T", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(2_000 * 6_000);
    assert_eq!(column(&calc, 0)[..5], ["X", "3", "⁻2", "10", ""]);
    assert_eq!(column(&calc, 1)[..5], ["Y₁", "9", "4", "100", ""]);
    keys(&mut calc, &[Key::Enter]);
    calc.run_for(500 * 6_000);
    let l5 = tibasic::firmware::read_list(calc.ram(), 5).unwrap();
    assert_eq!(
        l5.iter().map(|r| r.to_f64()).collect::<Vec<_>>(),
        [3.0, -2.0, 10.0]
    );
    assert_eq!(tibasic::firmware::read_list(calc.ram(), 6), Some(vec![]));
}

/// TABLE SETUP (2nd TblSet): TblMin and ΔTbl typed, Indpnt set to Ask with ► ENTER; the
/// table then follows them.
#[test]
fn table_setup_sets_the_table() {
    let mut calc: Calc = calc_with_sources(&[("T", "\"X+1\"->{Y1}")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Window]);
    let g = glass(&calc);
    assert_eq!(g[0], "TABLE SETUP");
    assert_eq!(g[3..5], ["Indpnt:Auto Ask", "Depend:Auto Ask"]);
    // TblMin = 5, ΔTbl = 0.5.
    keys(
        &mut calc,
        &[Key::K5, Key::Enter, Key::Dot, Key::K5, Key::Enter],
    );
    assert_eq!(g_line(&calc, 1), "TblMin=5");
    assert_eq!(g_line(&calc, 2), "ΔTbl=.5");
    keys(
        &mut calc,
        &[Key::Second, Key::Mode, Key::Second, Key::Graph],
    );
    assert_eq!(column(&calc, 0)[1..4], ["5", "5.5", "6"]);
    assert_eq!(column(&calc, 1)[1..4], ["6", "6.5", "7"]);
    // Indpnt: Ask (▼ to its line, ► ENTER): the inverse moves to Ask.
    keys(
        &mut calc,
        &[Key::Clear, Key::Second, Key::Window, Key::Down, Key::Down],
    );
    keys(&mut calc, &[Key::Right, Key::Enter]);
    assert!(inverted(&calc, 3, 12) && !inverted(&calc, 3, 7));
}

fn g_line(calc: &Calc, row: usize) -> String {
    glass(calc)[row].trim_end_matches('█').to_string()
}
