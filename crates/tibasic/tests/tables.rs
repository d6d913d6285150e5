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
    // ▼ moves the cursor down the rows; from the sixth row it scrolls the table a row.
    keys(&mut calc, &[Key::Down; 5]);
    assert_eq!(column(&calc, 0)[1..3], ["0", "1"]);
    assert_eq!(glass(&calc)[7], "X=5");
    keys(&mut calc, &[Key::Down]);
    assert_eq!(column(&calc, 0)[1..3], ["1", "2"]);
    assert_eq!(glass(&calc)[7], "X=6");
    // ▲ back to the top row, then two more scroll back past TblMin.
    keys(&mut calc, &[Key::Up; 7]);
    assert_eq!(column(&calc, 0)[1..3], ["⁻1", "0"]);
    assert_eq!(glass(&calc)[7], "X=⁻1");
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

/// The TABLE screen's cursor (the TI-82 Guidebook's chapter on tables): the cell under it in
/// inverse video and written out on the bottom line; ◄ ► go between X and the functions, and
/// past the last column bring in the next selected function.
#[test]
fn the_table_cursor_moves_between_cells_and_functions() {
    let src = "\"X+1\"->{Y1}\n\"X+2\"->{Y2}\n\"1/X\"->{Y3}";
    let mut calc: Calc = calc_with_sources(&[("T", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Graph]);
    // On the first X: its cell inverted (the cell's last character, column 4).
    assert!(inverted(&calc, 1, 4) && !inverted(&calc, 1, 9));
    keys(&mut calc, &[Key::Right, Key::Down]);
    assert!(inverted(&calc, 2, 9) && !inverted(&calc, 1, 4));
    assert_eq!(glass(&calc)[7], "Y₁=2");
    keys(&mut calc, &[Key::Right]);
    assert_eq!(glass(&calc)[7], "Y₂=3");
    // Past the last column: Y₃ comes in, Y₁ goes.
    keys(&mut calc, &[Key::Right]);
    assert_eq!(column(&calc, 1)[..3], ["Y₂", "2", "3"]);
    assert_eq!(column(&calc, 2)[..3], ["Y₃", "ERROR", "1"]);
    assert_eq!(glass(&calc)[7], "Y₃=1");
    // ► again: no fourth function, nothing moves; ◄ ◄ back to Y₁, ◄ to X.
    keys(&mut calc, &[Key::Right]);
    assert_eq!(column(&calc, 2)[0], "Y₃");
    keys(&mut calc, &[Key::Left, Key::Left]);
    assert_eq!(column(&calc, 1)[0], "Y₁");
    assert_eq!(glass(&calc)[7], "Y₁=2");
    keys(&mut calc, &[Key::Left]);
    assert_eq!(glass(&calc)[7], "X=1");
}

/// IndpntAsk: X values typed into the X column go into TblInput at the cursor's row (ENTER
/// moves on a row), the functions computed beside them; DEL takes a value out.
#[test]
fn x_values_are_typed_into_an_indpntask_table() {
    let src = "\"X²\"->{Y1}\nIndpntAsk\nClrTable";
    let mut calc: Calc = calc_with_sources(&[("T", src), ("R", "TblInput->L6")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Graph]);
    assert_eq!(column(&calc, 0)[..2], ["X", ""]);
    keys(&mut calc, &[Key::K3]);
    assert_eq!(glass(&calc)[7].trim_end_matches('█'), "X=3");
    keys(
        &mut calc,
        &[Key::Enter, Key::Neg, Key::K2, Key::Enter, Key::K1, Key::K0],
    );
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(column(&calc, 0)[..5], ["X", "3", "⁻2", "10", ""]);
    assert_eq!(column(&calc, 1)[..5], ["Y₁", "9", "4", "100", ""]);
    // ▲ ▲ to ⁻2, typed over with 5: the row's value changes in place.
    keys(&mut calc, &[Key::Up, Key::Up, Key::K5, Key::Enter]);
    assert_eq!(column(&calc, 0)[..4], ["X", "3", "5", "10"]);
    assert_eq!(column(&calc, 1)[2], "25");
    // DEL on 3 takes it out.
    keys(&mut calc, &[Key::Up, Key::Up, Key::Del]);
    assert_eq!(column(&calc, 0)[..4], ["X", "5", "10", ""]);
    keys(&mut calc, &[Key::Second, Key::Mode]);
    start_program(&mut calc, "R").unwrap();
    calc.run_for(500 * 6_000);
    let l6 = tibasic::firmware::read_list(calc.ram(), 6).unwrap();
    assert_eq!(
        l6.iter().map(|r| r.to_f64()).collect::<Vec<_>>(),
        [5.0, 10.0]
    );
}

/// DependAsk: a function's cells stay blank until ENTER on one asks for its value.
#[test]
fn dependask_shows_a_value_when_asked_for() {
    let src = "\"X²\"->{Y1}\nDependAsk\n2->TblMin";
    let mut calc: Calc = calc_with_sources(&[("T", src), ("D", "DispTable")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Graph]);
    assert_eq!(column(&calc, 0)[..3], ["X", "2", "3"]);
    assert_eq!(column(&calc, 1)[..3], ["Y₁", "", ""]);
    keys(&mut calc, &[Key::Right, Key::Down]);
    assert_eq!(glass(&calc)[7], "Y₁=");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(column(&calc, 1)[..4], ["Y₁", "", "9", ""]);
    assert_eq!(glass(&calc)[7], "Y₁=9");
    // The value stays with its row as the table scrolls.
    keys(&mut calc, &[Key::Down; 5]);
    assert_eq!(column(&calc, 0)[1], "3");
    assert_eq!(column(&calc, 1)[1], "9");
    // A program's DispTable shows the functions' cells blank too (nothing to ask with).
    keys(&mut calc, &[Key::Clear]);
    start_program(&mut calc, "D").unwrap();
    calc.run_for(1_000 * 6_000);
    assert_eq!(column(&calc, 0)[..3], ["X", "2", "3"]);
    assert_eq!(column(&calc, 1)[..3], ["Y₁", "", ""]);
}

/// A save state keeps the TABLE screen's cursor, the function columns, what is typed and
/// the cells asked for.
#[test]
fn a_save_state_keeps_the_table_cursor() {
    let src = "\"X+1\"->{Y1}\n\"X+2\"->{Y2}\n\"X+3\"->{Y3}\nDependAsk";
    let mut calc: Calc = calc_with_sources(&[("T", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Second, Key::Graph]);
    keys(
        &mut calc,
        &[Key::Right, Key::Right, Key::Right, Key::Down, Key::Enter],
    );
    let mut copy = Calc::new(BasicFirmware::new());
    copy.restore_bytes(std::path::Path::new("table.state"), &calc.state_bytes())
        .expect("a good state loads");
    assert_eq!(glass(&copy), glass(&calc));
    assert_eq!(glass(&copy)[7], "Y₃=4");
    keys(&mut copy, &[Key::Left]);
    keys(&mut calc, &[Key::Left]);
    assert_eq!(glass(&copy), glass(&calc));
    assert_eq!(glass(&copy)[7], "Y₂=");
}
