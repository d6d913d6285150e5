//! The home screen's entry line, key by key, as the TI-82 Guidebook's chapter 1 ("Entering
//! and editing": the cursor table, ◄ ► ▲ ▼, INS, DEL, CLEAR, 2nd ENTRY, 2nd A-LOCK) describes
//! it. Where only the TI-83 Guidebook's chapter 1 says it (the same chapter, with 2nd ◄ ►, the
//! 128-byte ENTRY storage, ▲ on the first row going to the start) the test says [83]; our own
//! decisions are [I] (docs/calculator.md, "The home screen's entry line").

mod common;
use common::*;

use std::path::Path;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, start_program, BasicFirmware};

const MS: u64 = 6_000;

fn fresh() -> Calc {
    let mut calc = calc_with_sources(&[("ASK", "Input A\nDisp A")]).unwrap();
    calc.run_for(100 * MS);
    calc
}

/// The home screen's text as the OS keeps it (the 8×16 text shadow at 808Fh, spec §7.2):
/// the characters, never the cursor.
fn text(calc: &Calc) -> Vec<String> {
    calc.ram()[0x8F..0x8F + 128]
        .chunks(16)
        .map(|row| tibasic::font::decode(row).trim_end().to_string())
        .collect()
}

/// The text of the entry line's first row (the home cursor's row at 800Ch marks where the
/// line starts while it is typed).
fn entry_line(calc: &Calc) -> String {
    text(calc)[usize::from(calc.ram()[0x0C]).min(7)].clone()
}

/// Keys for the digits of `s`.
fn digits(s: &str) -> Vec<Key> {
    s.chars()
        .map(|c| match c {
            '0' => Key::K0,
            '1' => Key::K1,
            '2' => Key::K2,
            '3' => Key::K3,
            '4' => Key::K4,
            '5' => Key::K5,
            '6' => Key::K6,
            '7' => Key::K7,
            '8' => Key::K8,
            '9' => Key::K9,
            '+' => Key::Add,
            '-' => Key::Sub,
            _ => panic!("no key for {c}"),
        })
        .collect()
}

/// The last answer on the glass (a right-aligned line), trimmed.
fn answer(calc: &Calc) -> String {
    glass(calc)
        .iter()
        .rev()
        .find(|l| l.starts_with(' '))
        .map(|l| l.trim().to_string())
        .unwrap_or_default()
}

#[test]
fn insert_before_the_cursor_with_second_ins() {
    // The brief's Guidebook example: 1+2, ◄ ◄ (onto +), 2nd INS, 5: "15+2"; ENTER: 17.
    let mut calc = fresh();
    keys(&mut calc, &digits("1+2"));
    keys(
        &mut calc,
        &[Key::Left, Key::Left, Key::Second, Key::Del, Key::K5],
    );
    assert_eq!(text(&calc)[0], "15+2");
    // Still inserting: the underline cursor sits on the + (the Guidebook's insert cursor;
    // its glyph is the underscore's, so the glass reads `_`).
    assert_eq!(glass(&calc)[0], "15_2");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(glass(&calc)[1], "              17");
}

#[test]
fn typing_overwrites_the_whole_token_under_the_cursor() {
    // `sin ` (the TI-82's sin takes no parenthesis) is one token of four cells: one ◄ from
    // the end is on the 0, the next on the whole `sin `.
    let mut calc = fresh();
    keys(&mut calc, &[Key::Sin, Key::K0, Key::Left]);
    assert_eq!(glass(&calc)[0], "sin █");
    keys(&mut calc, &[Key::Left]);
    assert_eq!(glass(&calc)[0], "█in 0");
    // Typing over it replaces the token (the Guidebook: typing overwrites at the cursor).
    keys(&mut calc, &[Key::K5]);
    assert_eq!(text(&calc)[0], "50");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(answer(&calc), "50");
    // Overwrite in the middle: 1+2 ◄ 7 is 1+7.
    keys(&mut calc, &digits("1+2"));
    keys(&mut calc, &[Key::Left, Key::K7, Key::Enter]);
    assert_eq!(answer(&calc), "8");
}

#[test]
fn del_deletes_under_the_cursor_and_clear_empties_the_line() {
    let mut calc = fresh();
    // 12+3 ◄ ◄ DEL: the + goes, 123.
    keys(&mut calc, &digits("12+3"));
    keys(&mut calc, &[Key::Left, Key::Left, Key::Del]);
    assert_eq!(text(&calc)[0], "123");
    // DEL at the end of the line deletes nothing.
    keys(&mut calc, &[Key::Right, Key::Right, Key::Del, Key::Enter]);
    assert_eq!(answer(&calc), "123");
    // CLEAR on a line with text empties the line; on an empty line, the screen.
    keys(&mut calc, &digits("45"));
    keys(&mut calc, &[Key::Clear]);
    assert_eq!(&text(&calc)[..3], ["123", "             123", ""]);
    keys(&mut calc, &[Key::Clear]);
    assert!(text(&calc).iter().all(|l| l.is_empty()));
}

#[test]
fn up_and_down_move_a_screen_row_along_a_long_entry() {
    // 1+1+...+1 (eleven ones, 21 cells) wraps onto a second row.
    let mut calc = fresh();
    let sum = "1+".repeat(10) + "1";
    keys(&mut calc, &digits(&sum));
    assert_eq!(&text(&calc)[..2], ["1+1+1+1+1+1+1+1+", "1+1+1"]);
    // ▲: 16 cells back, from cell 21 to cell 5 (the third +); - overwrites it.
    keys(&mut calc, &[Key::Up, Key::Sub]);
    assert_eq!(text(&calc)[0], "1+1+1-1+1+1+1+1+");
    // ▼: 16 cells on, past the end: the end; 0 appends, the last 1 becomes 10.
    keys(&mut calc, &[Key::Down, Key::K0]);
    assert_eq!(text(&calc)[1], "1+1+10");
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(answer(&calc), "18");
    // [83] ▲ on the first row goes to the start, 2nd ► to the end, 2nd ◄ to the start.
    keys(&mut calc, &digits("2+3"));
    keys(&mut calc, &[Key::Up, Key::K4]);
    assert_eq!(entry_line(&calc), "4+3");
    keys(&mut calc, &[Key::Second, Key::Right, Key::K5]);
    keys(&mut calc, &[Key::Second, Key::Left, Key::K6, Key::Enter]);
    assert_eq!(text(&calc)[3], "6+35");
    assert_eq!(answer(&calc), "41");
}

#[test]
fn a_long_entry_wraps_and_scrolls_the_screen() {
    // Four entries and answers fill the eight rows; the cursor's line scrolls the screen.
    let mut calc = fresh();
    for d in ["1", "2", "3", "4"] {
        keys(&mut calc, &digits(d));
        keys(&mut calc, &[Key::Enter]);
    }
    assert_eq!(text(&calc)[0], "               1");
    assert_eq!(glass(&calc)[7], "█");
    // Twenty digits take two rows: the screen scrolls once more for the second.
    keys(&mut calc, &digits("12345678901234567890"));
    let t = text(&calc);
    assert_eq!(t[0], "2");
    assert_eq!(&t[6..], ["1234567890123456", "7890"]);
    assert_eq!(glass(&calc)[7], "7890█");
    keys(&mut calc, &[Key::Enter]);
    // The answer goes below the entry's last row.
    assert_eq!(text(&calc)[5], "7890");
    assert_eq!(answer(&calc), "1.23456789ᴇ19");
}

#[test]
fn second_entry_recalls_earlier_entries_each_press_further_back() {
    let mut calc = fresh();
    for e in ["1+1", "2+2", "3+3"] {
        keys(&mut calc, &digits(e));
        keys(&mut calc, &[Key::Enter]);
    }
    let recall = [Key::Second, Key::Enter];
    keys(&mut calc, &recall);
    assert_eq!(entry_line(&calc), "3+3");
    keys(&mut calc, &recall);
    assert_eq!(entry_line(&calc), "2+2");
    keys(&mut calc, &recall);
    assert_eq!(entry_line(&calc), "1+1");
    // Past the oldest: the newest again [I].
    keys(&mut calc, &recall);
    assert_eq!(entry_line(&calc), "3+3");
    // A recalled entry is edited like a typed one: 3+3 ◄ 5 is 3+5.
    keys(&mut calc, &[Key::Left, Key::K5, Key::Enter]);
    assert_eq!(answer(&calc), "8");
    // ENTER on an empty line runs the last entry again.
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(answer(&calc), "8");
    assert_eq!(text(&calc).iter().filter(|l| *l == "3+5").count(), 2);
}

#[test]
fn entry_storage_keeps_what_fits_in_128_bytes() {
    // [83] ENTRY keeps as many entries as fit in 128 bytes: fourteen entries of ten bytes
    // (ten digits), of which the newest twelve (120 bytes) are kept.
    let mut calc = fresh();
    for k in 1..=14 {
        keys(&mut calc, &digits(&format!("10000000{k:02}")));
        keys(&mut calc, &[Key::Enter]);
    }
    let recall = [Key::Second, Key::Enter];
    for _ in 0..12 {
        keys(&mut calc, &recall);
    }
    assert_eq!(
        text(&calc)[7],
        "1000000003",
        "the twelfth back is the third entered"
    );
    keys(&mut calc, &recall);
    assert_eq!(
        text(&calc)[7],
        "1000000014",
        "the second and first are gone"
    );
}

#[test]
fn the_cursor_shows_the_pending_key_and_blinks() {
    // The Guidebook's cursor table: a solid block to type over, an underline to insert,
    // the 2nd arrow and the ALPHA A after those keys (underlined while inserting); the
    // cursor blinks with the character under it.
    let mut calc = fresh();
    keys(&mut calc, &[Key::K1]);
    assert_eq!(glass(&calc)[0], "1█");
    keys(&mut calc, &[Key::Second]);
    assert_eq!(glass(&calc)[0], "1⇧");
    keys(&mut calc, &[Key::Del]);
    assert_eq!(
        glass(&calc)[0],
        "1_",
        "2nd INS: the insert cursor (read as `_`)"
    );
    keys(&mut calc, &[Key::Alpha]);
    assert_eq!(glass(&calc)[0], "1A\u{332}", "ALPHA while inserting");
    keys(&mut calc, &[Key::Math]);
    assert_eq!(glass(&calc)[0], "1A_", "ALPHA MATH typed A");
    keys(&mut calc, &[Key::Alpha]);
    assert_eq!(glass(&calc)[0], "1AA\u{332}");
    keys(&mut calc, &[Key::Alpha]);
    assert_eq!(glass(&calc)[0], "1A_", "ALPHA again cancels ALPHA");
    // Half a second later the cursor is off, then on again [I].
    calc.run_for(500 * MS);
    assert_eq!(glass(&calc)[0], "1A");
    calc.run_for(500 * MS);
    assert_eq!(glass(&calc)[0], "1A_");
    // The cursor moving ends insert mode.
    keys(&mut calc, &[Key::Left]);
    assert_eq!(glass(&calc)[0], "1█");
}

#[test]
fn alpha_lock_stays_until_alpha_is_pressed_again() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Second, Key::Alpha]);
    assert_eq!(glass(&calc)[0], "Ⓐ");
    // A-LOCK: MATH, MATRX, PRGM type A, B, C (their ALPHA letters), the lock staying.
    keys(&mut calc, &[Key::Math, Key::Matrx, Key::Prgm]);
    assert_eq!(glass(&calc)[0], "ABCⒶ");
    // ◄ moves and the lock stays [I]; the letter overwrites.
    keys(&mut calc, &[Key::Left, Key::Math]);
    assert_eq!(glass(&calc)[0], "ABAⒶ");
    // ALPHA ends the lock: MATH opens the MATH menu again.
    keys(&mut calc, &[Key::Alpha]);
    assert_eq!(glass(&calc)[0], "ABA█");
    keys(&mut calc, &[Key::Math]);
    assert!(glass(&calc)[0].starts_with("MATH"), "{:?}", glass(&calc));
}

#[test]
fn a_programs_input_line_edits_the_same_way() {
    let mut calc = fresh();
    start_program(&mut calc, "ASK").unwrap();
    calc.run_for(200 * MS);
    keys(&mut calc, &digits("1+2"));
    keys(
        &mut calc,
        &[Key::Left, Key::Left, Key::Second, Key::Del, Key::K5],
    );
    let g = glass(&calc);
    assert!(g.iter().any(|l| l == "?15_2"), "{g:?}");
    keys(&mut calc, &[Key::Enter]);
    calc.run_for(200 * MS);
    assert!(
        glass(&calc).iter().any(|l| l.trim() == "17"),
        "{:?}",
        glass(&calc)
    );
}

#[test]
fn a_save_state_keeps_the_line_its_cursor_and_the_entry_storage() {
    let mut calc = fresh();
    for e in ["1+1", "2+2"] {
        keys(&mut calc, &digits(e));
        keys(&mut calc, &[Key::Enter]);
    }
    keys(&mut calc, &digits("789"));
    keys(&mut calc, &[Key::Left, Key::Left, Key::Second, Key::Del]);
    let mut copy = Calc::new(BasicFirmware::new());
    copy.restore_bytes(Path::new("entry.state"), &calc.state_bytes())
        .expect("a good state loads");
    assert_eq!(glass(&copy), glass(&calc));
    keys(&mut copy, &[Key::K5, Key::Enter]);
    assert_eq!(answer(&copy), "7589");
    keys(
        &mut copy,
        &[Key::Second, Key::Enter, Key::Second, Key::Enter],
    );
    assert_eq!(entry_line(&copy), "2+2");
}

#[test]
fn a_full_line_shows_the_checkerboard_and_takes_no_more() {
    // The Guidebook's full cursor: a checkerboard when no more can be typed (an `Input`
    // answer takes 100 bytes [I]).
    let mut calc = fresh();
    start_program(&mut calc, "ASK").unwrap();
    calc.run_for(200 * MS);
    keys(&mut calc, &digits(&"1".repeat(100)));
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.ends_with('▒')), "{g:?}");
    let before = text(&calc);
    keys(&mut calc, &[Key::K2]);
    assert_eq!(text(&calc), before, "nothing more is typed");
    // DEL makes room: the block cursor again.
    keys(&mut calc, &[Key::Left, Key::Del]);
    assert!(
        glass(&calc).iter().any(|l| l.ends_with('█')),
        "{:?}",
        glass(&calc)
    );
}

#[test]
fn an_entry_longer_than_the_screen_shows_the_rows_that_hold_the_cursor() {
    // 150 digits take ten rows: the screen shows the last eight, the cursor's [I]; 2nd ◄
    // goes to the start and the first rows show again.
    let mut calc = fresh();
    let digits_text: String = (0..150)
        .map(|i| char::from(b'0' + (i % 10) as u8))
        .collect();
    keys(&mut calc, &digits(&digits_text));
    let t = text(&calc);
    assert_eq!(t[0], digits_text[32..48]);
    assert_eq!(t[7], digits_text[144..]);
    keys(&mut calc, &[Key::Second, Key::Left]);
    let t = text(&calc);
    assert_eq!(t[0], digits_text[..16]);
    assert_eq!(glass(&calc)[0], format!("█{}", &digits_text[1..16]));
}
