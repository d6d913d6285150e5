//! STAT and its list editor from the keypad (TI-82 Guidebook, chapter 7 "Statistics": the
//! STAT EDIT menu `1:Edit… 2:SortA( 3:SortD( 4:ClrList`, the CALC menu, and the list
//! editor: a value typed and entered goes into the element under the cursor, below the last
//! element it adds one, DEL deletes the element, 2nd INS inserts one, CLEAR ENTER on a list's
//! name clears the list). What programs then read comes from the VAT (spec 3.3: a list's
//! elements), so the editor and a program see the same lists.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program};

fn list(calc: &Calc, n: u8) -> Option<Vec<f64>> {
    tifiles::vat::read_list(calc.ram(), n)
        .unwrap()
        .map(|l| l.iter().map(|f| f.to_f64()).collect())
}

/// Whether the element cell at text row `row` of column `c` is inverted (the cursor).
fn cursor_at(calc: &Calc, c: usize, row: usize) -> bool {
    calc.lcd().pixel(c * 32 + 5, row * 8 + 7)
}

/// A calculator on the home screen with one program, `S`, that reads L1 and L2.
fn fresh() -> Calc {
    let mut calc = calc_with_sources(&[("S", "sum L1+L2(1)->S")]).unwrap();
    calc.run_for(100 * 6_000);
    calc
}

fn editor() -> Calc {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Stat, Key::K1]);
    calc
}

#[test]
fn stat_shows_edit_and_calc() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Stat]);
    let g = glass(&calc);
    assert_eq!(
        g[..5],
        ["EDIT CALC", "1:Edit…", "2:SortA(", "3:SortD(", "4:ClrList"]
    );
    keys(&mut calc, &[Key::Right]);
    let g = glass(&calc);
    assert_eq!(
        g[..4],
        ["EDIT CALC", "1:1-Var Stats", "2:2-Var Stats", "3:SetUp…"]
    );
    // A CALC item types its token on the home screen.
    keys(&mut calc, &[Key::K2]);
    assert!(
        glass(&calc)[0].starts_with("2-Var Stats"),
        "{:?}",
        glass(&calc)
    );
    // 3:SetUp… opens its screen (tests/statistics.rs); CLEAR goes home.
    keys(&mut calc, &[Key::Clear, Key::Stat, Key::Right, Key::K3]);
    assert_eq!(glass(&calc)[0], "1-Var Stats", "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Clear]);
    // EDIT's 4:ClrList types its token too.
    keys(&mut calc, &[Key::Clear, Key::Stat, Key::K4]);
    assert!(glass(&calc)[0].starts_with("ClrList"), "{:?}", glass(&calc));
}

#[test]
fn values_typed_in_the_editor_are_the_lists_programs_read() {
    let mut calc = editor();
    let names: Vec<String> = (0..3).map(|c| column(&calc, c)[0].clone()).collect();
    assert_eq!(names, ["L₁", "L₂", "L₃"]);
    assert_eq!(glass(&calc)[7], "L₁(1)=");
    assert!(cursor_at(&calc, 0, 1));
    keys(&mut calc, &[Key::K5, Key::Enter, Key::K3, Key::Enter]);
    // An expression is evaluated as on the home screen: 2×4.
    keys(&mut calc, &[Key::K2, Key::Mul, Key::K4]);
    assert_eq!(glass(&calc)[7], "L₁(3)=2*4");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(list(&calc, 1), Some(vec![5.0, 3.0, 8.0]));
    assert_eq!(column(&calc, 0)[..5], ["L₁", "5", "3", "8", ""]);
    // The cursor went below the last element: L1(4), nothing there yet.
    assert_eq!(glass(&calc)[7], "L₁(4)=");
    assert!(cursor_at(&calc, 0, 4));
    // ► to L2, one value.
    keys(&mut calc, &[Key::Right, Key::K7, Key::Enter]);
    assert_eq!(list(&calc, 2), Some(vec![7.0]));
    // ◄ keeps the row (L2's second), ▲ onto L1(1); once more onto the name, which shows the
    // whole list.
    keys(&mut calc, &[Key::Left]);
    assert_eq!(glass(&calc)[7], "L₁(2)=3");
    keys(&mut calc, &[Key::Up]);
    assert_eq!(glass(&calc)[7], "L₁(1)=5");
    keys(&mut calc, &[Key::Up]);
    assert_eq!(glass(&calc)[7], "L₁={5,3,8");
    // A program reads what was typed.
    keys(&mut calc, &[Key::Second, Key::Mode]);
    start_program(&mut calc, "S").unwrap();
    calc.run_for(300 * 6_000);
    assert_eq!(real_var(&calc, b'S'), Some(5.0 + 3.0 + 8.0 + 7.0));
}

#[test]
fn del_ins_and_clear_enter_change_the_list() {
    let mut calc = editor();
    for k in [Key::K1, Key::K2, Key::K3, Key::K4] {
        keys(&mut calc, &[k, Key::Enter]);
    }
    assert_eq!(list(&calc, 1), Some(vec![1.0, 2.0, 3.0, 4.0]));
    // ▲ ▲ ▲ onto the 2; DEL removes it, the cursor stays on what moved up.
    keys(&mut calc, &[Key::Up, Key::Up, Key::Up, Key::Del]);
    assert_eq!(list(&calc, 1), Some(vec![1.0, 3.0, 4.0]));
    assert_eq!(glass(&calc)[7], "L₁(2)=3");
    // 2nd INS: a 0 before the element under the cursor.
    keys(&mut calc, &[Key::Second, Key::Del]);
    assert_eq!(list(&calc, 1), Some(vec![1.0, 0.0, 3.0, 4.0]));
    // Typing then DEL takes back the last token typed; CLEAR empties the line; ENTER with
    // nothing typed changes nothing.
    keys(&mut calc, &[Key::K9, Key::K8, Key::Del]);
    assert_eq!(glass(&calc)[7], "L₁(2)=9");
    keys(&mut calc, &[Key::Clear]);
    assert_eq!(glass(&calc)[7], "L₁(2)=");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(list(&calc, 1), Some(vec![1.0, 0.0, 3.0, 4.0]));
    // On the name, CLEAR ENTER clears the list.
    keys(
        &mut calc,
        &[Key::Up, Key::Up, Key::Up, Key::Clear, Key::Enter],
    );
    assert_eq!(list(&calc, 1), Some(vec![]));
    assert_eq!(column(&calc, 0)[1], "");
}

#[test]
fn the_rows_and_the_columns_scroll() {
    let mut calc = editor();
    // Nine elements: six rows show, the cursor's kept in view.
    for _ in 0..9 {
        keys(&mut calc, &[Key::K7, Key::Enter]);
    }
    assert_eq!(list(&calc, 1).map(|l| l.len()), Some(9));
    assert_eq!(glass(&calc)[7], "L₁(10)=");
    assert!(cursor_at(&calc, 0, 6));
    assert_eq!(column(&calc, 0)[1..6], ["7", "7", "7", "7", "7"]);
    // ► ► ► to L4: the columns scroll, L2 L3 L4 shown.
    keys(&mut calc, &[Key::Right, Key::Right, Key::Right]);
    let names: Vec<String> = (0..3).map(|c| column(&calc, c)[0].clone()).collect();
    assert_eq!(names, ["L₂", "L₃", "L₄"]);
    // Past L6 the cursor stops.
    keys(&mut calc, &[Key::Right, Key::Right, Key::Right]);
    let names: Vec<String> = (0..3).map(|c| column(&calc, c)[0].clone()).collect();
    assert_eq!(names, ["L₄", "L₅", "L₆"]);
    assert!(glass(&calc)[7].starts_with("L₆("));
}

#[test]
fn numbers_follow_the_mode_and_wide_ones_are_cut() {
    let mut calc = fresh();
    keys(&mut calc, &MODE_FIX_2);
    keys(&mut calc, &[Key::Clear, Key::Stat, Key::K1]);
    keys(&mut calc, &[Key::K1, Key::Div, Key::K3, Key::Enter]);
    keys(
        &mut calc,
        &[
            Key::K1,
            Key::K2,
            Key::K3,
            Key::K4,
            Key::K5,
            Key::K6,
            Key::Enter,
        ],
    );
    // 1/3 in Fix 2 is .33 (Guidebook: Fix applies to every number shown); 123456 does not
    // fit the five-character column and is cut [I]; the bottom line shows it whole.
    assert_eq!(column(&calc, 0)[1..3], [".33", "1234…"]);
    keys(&mut calc, &[Key::Up]);
    assert_eq!(glass(&calc)[7], "L₁(2)=123456.00");
}

#[test]
fn a_bad_entry_is_an_error_and_a_list_value_a_data_type_error() {
    let mut calc = editor();
    keys(&mut calc, &[Key::Add, Key::Enter]);
    assert_eq!(glass(&calc)[0], "ERR:SYNTAX");
    keys(&mut calc, &[Key::K2, Key::Stat, Key::K1]);
    // {1 typed (2nd { is 2nd ( on the TI-82).
    keys(&mut calc, &[Key::Second, Key::LParen, Key::K1, Key::Enter]);
    assert_eq!(glass(&calc)[0], "ERR:DATA TYPE");
    assert_eq!(list(&calc, 1), None);
}

#[test]
fn lists_made_by_a_program_show_and_sorta_from_stat_sorts_them() {
    let mut calc = calc_with_sources(&[("P", "{3,1,2}->L4")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "P").unwrap();
    calc.run_for(300 * 6_000);
    keys(&mut calc, &[Key::Clear]);
    // STAT 2 types SortA(; 2nd 4 is L4.
    keys(
        &mut calc,
        &[
            Key::Stat,
            Key::K2,
            Key::Second,
            Key::K4,
            Key::RParen,
            Key::Enter,
        ],
    );
    calc.run_for(300 * 6_000);
    assert_eq!(list(&calc, 4), Some(vec![1.0, 2.0, 3.0]));
    keys(
        &mut calc,
        &[Key::Stat, Key::K1, Key::Right, Key::Right, Key::Right],
    );
    assert_eq!(column(&calc, 2)[..4], ["L₄", "1", "2", "3"]);
}

#[test]
fn the_editor_survives_a_save_state() {
    let mut calc = editor();
    keys(&mut calc, &[Key::K4, Key::Enter, Key::Right, Key::K6]);
    let before = glass(&calc);
    let state = calc.state_bytes();
    let mut back = fresh();
    back.restore_bytes(std::path::Path::new("stat.state"), &state)
        .unwrap();
    assert_eq!(glass(&back), before);
    keys(&mut back, &[Key::Enter]);
    assert_eq!(list(&back, 2), Some(vec![6.0]));
}
