//! The keypad's menus that type tokens (MATH, TEST, ANGLE, MATRX, LIST) from the home screen
//! and from a program's `Input`: their tabs and items on the glass, scrolling, choosing by
//! number and by ENTER, and the typed entry computing as the calculator does.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program};
use tibasic::shell::catalog::{label, CATALOGS};

fn fresh() -> Calc {
    let mut calc = calc_with_sources(&[("ASK", "Input A\nDisp A*2")]).unwrap();
    calc.run_for(100 * 6_000);
    calc
}

#[test]
fn every_item_is_a_known_token_with_a_glyph_for_each_character() {
    for c in CATALOGS {
        for (tab, items) in c.tabs {
            for t in *items {
                let text = label(t);
                assert!(!text.is_empty(), "{} {tab}: {t:02X?}", c.name);
                if let tibasic::shell::catalog::Item::Token(bytes) = t {
                    // One token of the table, exactly.
                    let spelled =
                        tifiles::tokens::detokenize(bytes, tifiles::tokens::Spelling::Display);
                    assert_eq!(
                        tifiles::tokenize_source(&spelled).ok().as_deref(),
                        Some(*bytes),
                        "{} {tab}: {spelled:?}",
                        c.name
                    );
                }
                assert!(
                    tibasic::font::encode(&text).is_ok(),
                    "{} {tab}: {text:?} cannot be drawn",
                    c.name
                );
            }
        }
    }
}

#[test]
fn the_math_menu_its_tabs_and_items() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Math]);
    let g = glass(&calc);
    assert_eq!(g[0], "MATH NUM HYP PRB");
    assert_eq!(
        &g[1..8],
        [
            "1:►Frac",
            "2:►Dec",
            "3:³",
            "4:³√",
            "5:ˣ√",
            "6:fMin(",
            "7:fMax("
        ]
    );
    // ▲ from the first item wraps to the last, and the list scrolls to it.
    keys(&mut calc, &[Key::Up]);
    assert_eq!(glass(&calc)[7], "0:solve(");
    keys(&mut calc, &[Key::Right]);
    assert_eq!(
        &glass(&calc)[1..7],
        ["1:round(", "2:iPart", "3:fPart", "4:int", "5:min(", "6:max("]
    );
    keys(&mut calc, &[Key::Left, Key::Left]);
    assert_eq!(&glass(&calc)[1..5], ["1:rand", "2:nPr", "3:nCr", "4:!"]);
    // CLEAR closes it, typing nothing: the home screen shows only the entry cursor.
    keys(&mut calc, &[Key::Clear]);
    let g = glass(&calc);
    assert!(g[0] == "█" && g[1..].iter().all(|l| l.is_empty()), "{g:?}");
}

#[test]
fn menus_type_tokens_that_compute() {
    let mut calc = fresh();
    // MATH ► 4 (int) then -2.5 ENTER: int -2.5 = -3.
    keys(&mut calc, &[Key::Math, Key::Right, Key::K4]);
    keys(
        &mut calc,
        &[Key::Neg, Key::K2, Key::Dot, Key::K5, Key::Enter],
    );
    // The entry line shows the tokens as typed (before the screen fills and scrolls).
    assert_eq!(glass(&calc)[0], "int ⁻2.5");
    // 2nd TEST ► 4 (not), then 0: not 0 = 1.
    keys(
        &mut calc,
        &[
            Key::Second,
            Key::Math,
            Key::Right,
            Key::K4,
            Key::K0,
            Key::Enter,
        ],
    );
    // 3 2nd TEST 3 (>) 2: 1.
    keys(
        &mut calc,
        &[
            Key::K3,
            Key::Second,
            Key::Math,
            Key::K3,
            Key::K2,
            Key::Enter,
        ],
    );
    // 5 MATH ► ► ► (PRB) ▼ ▼ ENTER (nCr) 2: 10.
    keys(
        &mut calc,
        &[
            Key::K5,
            Key::Math,
            Key::Left,
            Key::Down,
            Key::Down,
            Key::Enter,
        ],
    );
    keys(&mut calc, &[Key::K2, Key::Enter]);
    let g = glass(&calc);
    let answers: Vec<&str> = g
        .iter()
        .filter(|l| l.starts_with(' '))
        .map(|l| l.trim())
        .collect();
    assert_eq!(answers, ["⁻3", "1", "1", "10"], "{g:?}");
    // The entry lines show the tokens as typed; the cursor waits on the blank bottom row.
    assert_eq!(g[7], "█", "{g:?}");
    assert!(g.contains(&"not 0".to_string()), "{g:?}");
    assert!(g.contains(&"5 nCr 2".to_string()), "{g:?}");
}

#[test]
fn abs_det_and_angle_from_the_keys() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Clear]);
    // 2nd ABS -4 ENTER: 4.
    keys(
        &mut calc,
        &[Key::Second, Key::Inverse, Key::Neg, Key::K4, Key::Enter],
    );
    let g = glass(&calc);
    assert_eq!(&g[..2], ["abs ⁻4", "               4"], "{g:?}");
    // MATRX ► 1 (det) MATRX 1 ([A]) after storing [A]: here an identity 3 matrix.
    keys(
        &mut calc,
        &[Key::Matrx, Key::Right, Key::K5, Key::K3, Key::Sto],
    );
    keys(&mut calc, &[Key::Matrx, Key::K1, Key::Enter]);
    keys(
        &mut calc,
        &[
            Key::Matrx,
            Key::Right,
            Key::K1,
            Key::Matrx,
            Key::K1,
            Key::Enter,
        ],
    );
    // Eight rows of entries and answers: the screen scrolls up once more for the cursor's
    // blank line, taking `abs ⁻4` off the top.
    let g = glass(&calc);
    assert_eq!(g[0].trim(), "4", "{g:?}");
    assert_eq!(g[1], "identity 3→[A]", "{g:?}");
    assert!(g.contains(&"det [A]".to_string()), "{g:?}");
    assert_eq!(g[6].trim(), "1", "{g:?}");
    assert_eq!(g[7], "█", "{g:?}");
    // 2nd LIST ► 5 (sum) {1,2,3}: 6.
    keys(&mut calc, &[Key::Clear]);
    keys(&mut calc, &[Key::Second, Key::Stat, Key::Right, Key::K5]);
    keys(
        &mut calc,
        &[Key::Second, Key::LParen, Key::K1, Key::Comma, Key::K2],
    );
    keys(
        &mut calc,
        &[Key::Comma, Key::K3, Key::Second, Key::RParen, Key::Enter],
    );
    let g = glass(&calc);
    assert_eq!(g[0], "sum {1,2,3}", "{g:?}");
    assert_eq!(g[1].trim(), "6", "{g:?}");
    // 2nd ANGLE: the degree mark and ►DMS.
    keys(&mut calc, &[Key::Second, Key::Matrx]);
    assert_eq!(&glass(&calc)[..4], ["ANGLE", "1:°", "2:'", "3:ʳ"]);
    keys(&mut calc, &[Key::Clear]);
}

#[test]
fn a_menu_types_into_a_programs_input() {
    let mut calc = fresh();
    start_program(&mut calc, "ASK").unwrap();
    calc.run_for(200 * 6_000);
    // At the `?` prompt: MATH ► 6 (max() 3,7) ENTER: A = 7, shows 14.
    keys(&mut calc, &[Key::Math, Key::Right, Key::K6]);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l == "?max(█"), "{g:?}");
    keys(
        &mut calc,
        &[Key::K3, Key::Comma, Key::K7, Key::RParen, Key::Enter],
    );
    calc.run_for(200 * 6_000);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.trim() == "14"), "{g:?}");
}

#[test]
fn the_draw_menu_types_drawing_commands() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Second, Key::Prgm]);
    let g = glass(&calc);
    assert_eq!(g[0], "DRAW POINTS STO");
    assert_eq!(
        &g[1..5],
        ["1:ClrDraw", "2:Line(", "3:Horizontal", "4:Vertical"]
    );
    keys(&mut calc, &[Key::Right]);
    assert_eq!(&glass(&calc)[1..3], ["1:Pt-On(", "2:Pt-Off("]);
    keys(&mut calc, &[Key::Right]);
    assert_eq!(
        &glass(&calc)[1..5],
        ["1:StorePic", "2:RecallPic", "3:StoreGDB", "4:RecallGDB"]
    );
    // ◄ ◄ back to DRAW, 1: ClrDraw typed on the entry line.
    keys(&mut calc, &[Key::Left, Key::Left, Key::K1]);
    assert_eq!(glass(&calc)[0], "ClrDraw█");
}

#[test]
fn vars_opens_its_submenus_and_types_their_variables() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Vars]);
    let g = glass(&calc);
    assert_eq!(g[0], "VARS");
    assert_eq!(
        &g[1..7],
        [
            "1:Window…",
            "2:Zoom…",
            "3:GDB…",
            "4:Picture…",
            "5:Statistics…",
            "6:Table…"
        ]
    );
    keys(&mut calc, &[Key::K1]);
    let g = glass(&calc);
    assert_eq!(g[0], "X/Y T/θ U/V");
    assert_eq!(&g[1..4], ["1:Xmin", "2:Xmax", "3:Xscl"]);
    // Xmin ENTER: the standard window's ⁻10.
    keys(&mut calc, &[Key::K1, Key::Enter]);
    let g = glass(&calc);
    assert_eq!(g[0], "Xmin");
    assert_eq!(g[1].trim(), "⁻10");
    // 2nd Y-VARS 4 (On/Off…) 1: FnOn typed.
    keys(&mut calc, &[Key::Second, Key::Vars]);
    assert_eq!(
        &glass(&calc)[..5],
        [
            "Y-VARS",
            "1:Function…",
            "2:Parametric…",
            "3:Polar…",
            "4:On/Off…"
        ]
    );
    keys(&mut calc, &[Key::K4, Key::K1]);
    assert_eq!(glass(&calc)[2], "FnOn █");
}

/// Menus are named, not numbered: every submenu an item opens, and every menu a key opens,
/// exists, and no two menus share a name.
#[test]
fn every_menu_named_is_there_once() {
    use tibasic::shell::catalog::{CatalogCursor, Item};
    for (i, c) in CATALOGS.iter().enumerate() {
        assert_eq!(
            CatalogCursor::open_named(c.name).map(|c| c.menu),
            Some(i),
            "{}",
            c.name
        );
        for (_, items) in c.tabs {
            for item in *items {
                if let Item::Menu(label, name) = item {
                    assert!(
                        CatalogCursor::open_named(name).is_some(),
                        "{label} opens {name}"
                    );
                }
            }
        }
    }
    for name in [
        "MATH", "TEST", "ANGLE", "MATRX", "LIST", "DRAW", "VARS", "Y-VARS", "PRGM",
    ] {
        assert!(CatalogCursor::open_named(name).is_some(), "{name}");
    }
}

/// Items past `0:` are picked with ALPHA and their letter (the TI-82 Guidebook: `A:`, `B:`
/// are chosen by pressing the letter): STAT ► CALC's `A:ExpReg` and `B:PwrReg`.
#[test]
fn alpha_and_a_letter_pick_the_items_past_zero() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Stat, Key::Right, Key::Alpha, Key::Math]);
    assert!(glass(&calc)[0].starts_with("ExpReg"), "{:?}", glass(&calc));
    keys(
        &mut calc,
        &[Key::Clear, Key::Stat, Key::Right, Key::Alpha, Key::Matrx],
    );
    assert!(glass(&calc)[0].starts_with("PwrReg"), "{:?}", glass(&calc));
    // A letter with no item does nothing: the menu stays.
    keys(
        &mut calc,
        &[Key::Clear, Key::Stat, Key::Right, Key::Alpha, Key::Prgm],
    );
    assert_eq!(glass(&calc)[0], "EDIT CALC");
}
