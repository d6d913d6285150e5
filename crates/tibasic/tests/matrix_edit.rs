//! MATRX ► EDIT and the matrix editor, key by key: the EDIT list with each matrix's
//! dimensions, dimensions typed and confirmed with ENTER (rows, then columns), elements typed
//! and evaluated on ENTER with the cursor moving on, the view scrolling over rows and columns,
//! and the edits in the VAT where the home screen and programs find them. The TI-82
//! Guidebook's matrix chapter says what the editor does (dimensions, then elements; resizing
//! keeps the elements that fit, new ones are 0); the screen's layout is our own [I]
//! (docs/calculator.md, "MATRX EDIT").

mod common;
use common::*;

use std::path::Path;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program, BasicFirmware};

const MS: u64 = 6_000;

fn calc() -> Calc {
    let mut calc =
        calc_with_sources(&[("SETA", "[[1,2,3][4,5,6]]→[A]"), ("SHOWB", "Disp det [B]")]).unwrap();
    calc.run_for(100 * MS);
    calc
}

/// Matrix `k` (0-4) from the VAT: rows of reals.
fn matrix(calc: &Calc, k: u8) -> Option<Vec<Vec<f64>>> {
    let name = tifiles::var::VarName::from_bytes(&[0x5C, k]);
    match tifiles::vat::read(calc.ram(), tifiles::var::VarType::Matrix, &name) {
        Ok(Some(v)) => match v.data {
            tifiles::var::VarData::Matrix(m) => Some(
                m.data
                    .chunks(usize::from(m.cols))
                    .map(|row| row.iter().map(|f| f.to_f64()).collect())
                    .collect(),
            ),
            _ => None,
        },
        _ => None,
    }
}

fn digit(d: u8) -> Key {
    [
        Key::K0,
        Key::K1,
        Key::K2,
        Key::K3,
        Key::K4,
        Key::K5,
        Key::K6,
        Key::K7,
        Key::K8,
        Key::K9,
    ][usize::from(d)]
}

#[test]
fn edit_lists_the_matrices_with_their_dimensions() {
    let mut calc = calc();
    start_program(&mut calc, "SETA").unwrap();
    calc.run_for(300 * MS);
    // MATRX ◄: from NAMES back round to EDIT.
    keys(&mut calc, &[Key::Matrx, Key::Left]);
    let g = glass(&calc);
    assert_eq!(
        &g[..6],
        [
            "NAMES MATH EDIT",
            "1:[A] 2×3",
            "2:[B]",
            "3:[C]",
            "4:[D]",
            "5:[E]"
        ]
    );
    // 1 opens [A]'s editor on its dimensions.
    keys(&mut calc, &[Key::K1]);
    let g = glass(&calc);
    assert_eq!(g[0], "MATRIX[A] 2 ×3");
    assert_eq!(&g[1..3], ["[    1    2    3", "[    4    5    6"]);
}

#[test]
fn a_new_matrix_typed_from_the_keypad_is_what_the_home_screen_and_programs_see() {
    let mut calc = calc();
    // MATRX ◄ 2: [B], not defined yet.
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K2]);
    assert_eq!(glass(&calc)[0], "MATRIX[B] 1 ×1");
    // 2 ENTER 2 ENTER: a 2×2 matrix of zeros, the cursor on its first element.
    keys(&mut calc, &[Key::K2, Key::Enter, Key::K2, Key::Enter]);
    assert_eq!(matrix(&calc, 1), Some(vec![vec![0.0, 0.0], vec![0.0, 0.0]]));
    let g = glass(&calc);
    assert_eq!(g[0], "MATRIX[B] 2 ×2");
    assert_eq!(g[7], "[B](1,1)=0");
    // 1 ENTER 2 ENTER 3 ENTER, then 2*2 (evaluated) ENTER: the cursor moves on by rows.
    keys(
        &mut calc,
        &[Key::K1, Key::Enter, Key::K2, Key::Enter, Key::K3],
    );
    assert_eq!(glass(&calc)[7], "[B](2,1)=3█");
    // The value is an entry line: ◄ puts the cursor on the 3, 2nd INS 1 goes in before it
    // (the glass reads the insert cursor as `_`), DEL deletes the 3, ► ends inserting.
    keys(&mut calc, &[Key::Left, Key::Second, Key::Del, Key::K1]);
    assert_eq!(glass(&calc)[7], "[B](2,1)=1_");
    keys(&mut calc, &[Key::Del, Key::Right, Key::K3]);
    assert_eq!(glass(&calc)[7], "[B](2,1)=13█");
    // 2nd ◄ to the start, DEL: 3 again.
    keys(&mut calc, &[Key::Second, Key::Left, Key::Del]);
    assert_eq!(glass(&calc)[7], "[B](2,1)=█");
    keys(
        &mut calc,
        &[Key::Enter, Key::K2, Key::Mul, Key::K2, Key::Enter],
    );
    assert_eq!(matrix(&calc, 1), Some(vec![vec![1.0, 2.0], vec![3.0, 4.0]]));
    assert_eq!(&glass(&calc)[1..3], ["[    1    2", "[    3    4"]);
    // 2nd QUIT; MATRX 2 ([B]) ENTER on the home screen shows it.
    keys(
        &mut calc,
        &[Key::Second, Key::Mode, Key::Matrx, Key::K2, Key::Enter],
    );
    let g = glass(&calc);
    assert_eq!(&g[..3], ["[B]", "[[1 2]", " [3 4]]"], "{g:?}");
    // And a program reads it: det [B] = 1·4 − 2·3.
    start_program(&mut calc, "SHOWB").unwrap();
    calc.run_for(300 * MS);
    assert!(
        glass(&calc).iter().any(|l| l.trim() == "⁻2"),
        "{:?}",
        glass(&calc)
    );
}

#[test]
fn resizing_keeps_the_elements_that_fit_and_adds_zeros() {
    // [A] is 2×3; 3 ENTER 2 ENTER makes it 3×2.
    let mut calc = calc();
    start_program(&mut calc, "SETA").unwrap();
    calc.run_for(300 * MS);
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K1]);
    keys(&mut calc, &[Key::K3, Key::Enter, Key::K2, Key::Enter]);
    assert_eq!(
        matrix(&calc, 0),
        Some(vec![vec![1.0, 2.0], vec![4.0, 5.0], vec![0.0, 0.0]])
    );
    // ▲ from the first row goes back to the dimensions; ENTER ENTER keeps them.
    keys(&mut calc, &[Key::Up]);
    assert!(glass(&calc)[7].is_empty());
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(glass(&calc)[7], "[A](1,1)=1");
    // ENTER with nothing typed moves on, the element unchanged.
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(glass(&calc)[7], "[A](1,2)=2");
}

#[test]
fn the_view_scrolls_over_rows_and_columns() {
    // An 8×5 [C]: ► wraps to the next row; ▼ and ► to (8,5) scroll the view to rows 3-8
    // and columns 3-5.
    let mut calc = calc();
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K3]);
    keys(&mut calc, &[Key::K8, Key::Enter, Key::K5, Key::Enter]);
    keys(&mut calc, &[Key::K7, Key::Enter]);
    for _ in 0..4 {
        keys(&mut calc, &[Key::Right]);
    }
    assert_eq!(
        glass(&calc)[7],
        "[C](2,1)=0",
        "► past the last column: next row"
    );
    for _ in 0..6 {
        keys(&mut calc, &[Key::Down]);
    }
    for _ in 0..4 {
        keys(&mut calc, &[Key::Right]);
    }
    keys(&mut calc, &[Key::K9, Key::Enter]);
    let g = glass(&calc);
    assert_eq!(g[7], "[C](8,5)=9", "the last element: the cursor stays");
    // Rows 3-8 in view, columns 3-5 (no `[`: the first column is out of view).
    assert_eq!(g[1], "     0    0    0");
    assert_eq!(g[6], "     0    0    9");
    let m = matrix(&calc, 2).unwrap();
    assert_eq!((m.len(), m[0].len()), (8, 5));
    assert_eq!((m[0][0], m[7][4]), (7.0, 9.0));
    // Back up and left: the view follows to row 1, column 1.
    for _ in 0..7 {
        keys(&mut calc, &[Key::Up]);
    }
    for _ in 0..4 {
        keys(&mut calc, &[Key::Left]);
    }
    let g = glass(&calc);
    assert_eq!(g[7], "[C](1,1)=7");
    assert_eq!(g[1], "[    7    0    0");
}

#[test]
fn a_matrix_that_does_not_fit_is_err_memory() {
    // 99×99 reals take 88 209 bytes: more than the TI-82's RAM.
    let mut calc = calc();
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K4]);
    keys(
        &mut calc,
        &[Key::K9, Key::K9, Key::Enter, Key::K9, Key::K9, Key::Enter],
    );
    assert_eq!(glass(&calc)[0], "ERR:MEMORY");
    assert_eq!(matrix(&calc, 3), None);
    // A dimension past 99 cannot be typed: a third digit is not taken.
    keys(&mut calc, &[Key::K2]);
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K4]);
    keys(
        &mut calc,
        &[Key::K1, Key::K2, Key::K3, Key::Enter, Key::K1, Key::Enter],
    );
    assert_eq!(matrix(&calc, 3).map(|m| m.len()), Some(12));
}

#[test]
fn a_value_that_is_not_a_number_is_an_error_and_keeps_the_element() {
    let mut calc = calc();
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K5]);
    keys(&mut calc, &[Key::K1, Key::Enter, Key::K1, Key::Enter]);
    // {1,2} is a list: ERR:DATA TYPE; [E] stays [[0]].
    keys(
        &mut calc,
        &[
            Key::Second,
            Key::LParen,
            Key::K1,
            Key::Comma,
            Key::K2,
            Key::Enter,
        ],
    );
    assert_eq!(glass(&calc)[0], "ERR:DATA TYPE");
    assert_eq!(matrix(&calc, 4), Some(vec![vec![0.0]]));
}

#[test]
fn a_save_state_taken_while_typing_an_element_comes_back_to_it() {
    let mut calc = calc();
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K2]);
    keys(
        &mut calc,
        &[Key::K1, Key::Enter, Key::K2, Key::Enter, Key::K4, digit(2)],
    );
    let mut copy = Calc::new(BasicFirmware::new());
    copy.restore_bytes(Path::new("matrix.state"), &calc.state_bytes())
        .expect("a good state loads");
    assert_eq!(glass(&copy), glass(&calc));
    keys(&mut copy, &[Key::Enter, Key::K5, Key::Enter]);
    assert_eq!(matrix(&copy, 1), Some(vec![vec![42.0, 5.0]]));
}

#[test]
fn the_menus_type_into_an_elements_value() {
    // On an element, MATH ► 4 types `int ` into the value; ⁻2.5 ENTER stores int ⁻2.5 = ⁻3.
    let mut calc = calc();
    keys(&mut calc, &[Key::Matrx, Key::Left, Key::K1]);
    keys(&mut calc, &[Key::K1, Key::Enter, Key::K2, Key::Enter]);
    keys(&mut calc, &[Key::Math, Key::Right]);
    assert!(
        glass(&calc)[0].starts_with("MATH NUM"),
        "{:?}",
        glass(&calc)
    );
    // A save state taken with the menu open comes back to it, the editor under it.
    let mut copy = Calc::new(BasicFirmware::new());
    copy.restore_bytes(Path::new("menu.state"), &calc.state_bytes())
        .expect("a good state loads");
    keys(&mut copy, &[Key::K4]);
    assert_eq!(glass(&copy)[7], "[A](1,1)=int █");
    keys(
        &mut copy,
        &[Key::Neg, Key::K2, Key::Dot, Key::K5, Key::Enter],
    );
    assert_eq!(matrix(&copy, 0), Some(vec![vec![-3.0, 0.0]]));
    // CLEAR closes a menu typing nothing; MATRX ► ► (EDIT) 2 only closes it here.
    keys(&mut copy, &[Key::Math, Key::Clear]);
    assert_eq!(glass(&copy)[7], "[A](1,2)=0");
    keys(&mut copy, &[Key::Matrx, Key::Left, Key::K2]);
    assert_eq!(glass(&copy)[0], "MATRIX[A] 1 ×2");
}

/// A matrix answer, and `Disp` of one, pads every column to its widest element, the last
/// column too, so the closing brackets line up (docs/calculator.md, "Matrices on the home
/// screen"): the issue's `[[1,2][3,4]]⁻¹`, typed on the home screen, is
/// `[[⁻2  1  ]` over ` [1.5 ⁻.5]]`; the same for `*row(`, `*row+(` and `Disp [A]`.
#[test]
fn matrix_answers_pad_every_column() {
    let mut calc = calc_with_sources(&[(
        "ROWS",
        "ClrHome\n[[1,2][3,4]]→[A]\nDisp *row(10,[A],1)\nDisp *row+(10,[A],1,2)\n[[1,⁻2][30,4]]→[A]\nDisp [A]",
    )])
    .unwrap();
    calc.run_for(100 * MS);
    let (lb, rb) = (Key::Mul, Key::Sub);
    keys(
        &mut calc,
        &[
            Key::Second,
            lb,
            Key::Second,
            lb,
            Key::K1,
            Key::Comma,
            Key::K2,
        ],
    );
    keys(
        &mut calc,
        &[
            Key::Second,
            rb,
            Key::Second,
            lb,
            Key::K3,
            Key::Comma,
            Key::K4,
        ],
    );
    keys(
        &mut calc,
        &[Key::Second, rb, Key::Second, rb, Key::Inverse, Key::Enter],
    );
    let g = glass(&calc);
    assert_eq!(g[0], "[[1,2][3,4]]⁻¹", "{g:?}");
    assert_eq!(&g[1..3], ["[[⁻2  1  ]", " [1.5 ⁻.5]]"], "{g:?}");
    start_program(&mut calc, "ROWS").unwrap();
    calc.run_for(500 * MS);
    let g = glass(&calc);
    // *row(10,[A],1) = [[10,20][3,4]]; *row+(10,[A],1,2) = [[1,2][13,24]] (row 2 plus 10
    // times row 1, the Guidebook's matrix chapter).
    assert_eq!(
        &g[..6],
        [
            "[[10 20]",
            " [3  4 ]]",
            "[[1  2 ]",
            " [13 24]]",
            "[[1  ⁻2]",
            " [30 4 ]]"
        ],
        "{g:?}"
    );
}
