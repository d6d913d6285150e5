//! The built-in runtime as a `Calc` firmware: the home screen, the PRGM menu, running
//! programs that draw through the T6A04 and read the keypad matrix, save states.

use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, read_list, BasicFirmware};
use tibasic::real::Real;

const MS: u64 = 6_000;

fn calc_with(programs: &[(&str, &str)]) -> Calc {
    let mut calc = calc_with_sources(programs).unwrap();
    calc.run_for(50 * MS);
    calc
}

fn tap(calc: &mut Calc, k: Key) {
    calc.press(k);
    calc.run_for(60 * MS);
    calc.release(k);
    calc.run_for(60 * MS);
}

fn text(calc: &Calc) -> Vec<String> {
    let shadow = &calc.ram()[0x8F..0x8F + 128];
    shadow
        .chunks(16)
        .map(|row| tibasic::font::decode(row).trim_end().to_string())
        .collect()
}

fn fw(calc: &Calc) -> &BasicFirmware {
    BasicFirmware::of(calc).expect("runtime firmware")
}

fn program_source(name: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../programs/");
    std::fs::read_to_string(format!("{root}{name}.txt")).expect("program source")
}

#[test]
fn home_screen_evaluates_typed_entries() {
    let mut calc = calc_with(&[]);
    for k in [Key::K2, Key::Add, Key::K2, Key::Enter] {
        tap(&mut calc, k);
    }
    let t = text(&calc);
    assert_eq!(t[0], "2+2");
    assert_eq!(t[1], "               4");
    // The LCD shows it too: the glass is not blank.
    assert!(calc.lcd().bits.iter().any(|&b| b));
}

#[test]
fn a_program_runs_from_the_prgm_menu_and_says_done() {
    let mut calc = calc_with(&[("HELLO", "ClrHome\nDisp \"HELLO\",6*7\n{1,2,3}->L1")]);
    tap(&mut calc, Key::Prgm);
    tap(&mut calc, Key::K1);
    let t = text(&calc);
    assert_eq!(t[0], "prgmHELLO");
    tap(&mut calc, Key::Enter);
    calc.run_for(500 * MS);
    let t = text(&calc);
    assert_eq!(t[0], "HELLO");
    assert_eq!(t[1], "              42");
    assert_eq!(t[2], "            Done");
    let l1 = read_list(calc.ram(), 1).expect("L1 exists");
    assert_eq!(
        l1,
        vec![Real::from_i64(1), Real::from_i64(2), Real::from_i64(3)]
    );
}

#[test]
fn getkey_reads_the_keypad_matrix() {
    let mut calc = calc_with(&[("KEYS", "0->K\nRepeat K\ngetKey->K\nEnd\nK->A")]);
    tibasic_run(&mut calc, "KEYS");
    calc.run_for(300 * MS);
    tap(&mut calc, Key::Enter);
    calc.run_for(300 * MS);
    let a = read_real(&calc, b'A');
    assert_eq!(a, 105.0, "ENTER is getKey 105");
}

#[test]
fn on_breaks_a_running_program() {
    let mut calc = calc_with(&[("LOOP", "Lbl A\nGoto A")]);
    tibasic_run(&mut calc, "LOOP");
    calc.run_for(300 * MS);
    calc.set_on(true);
    calc.run_for(60 * MS);
    calc.set_on(false);
    calc.run_for(60 * MS);
    let err = fw(&calc).last_error().expect("an error screen");
    assert_eq!(err.kind.ti_name(), "BREAK");
}

#[test]
fn manboard_draws_and_stores_the_board() {
    let mut calc = calc_with(&[("MANBOARD", &program_source("MANBOARD"))]);
    tibasic_run(&mut calc, "MANBOARD");
    calc.run_for(20_000 * MS);
    assert_eq!(text(&calc).iter().filter(|l| l.contains("Done")).count(), 1);
    // Pic1 holds the board: 63 rows of the graph screen.
    let name = tifiles::var::VarName::from_bytes(&[0x60, 0]);
    let pic = match tifiles::vat::read(calc.ram(), tifiles::var::VarType::Picture, &name) {
        Ok(Some(v)) => match v.data {
            tifiles::var::VarData::Picture(p) => p,
            _ => panic!("Pic1 is not a picture"),
        },
        other => panic!("Pic1 missing: {other:?}"),
    };
    let art: String = pic
        .chunks(12)
        .map(|row| {
            let mut line: String = (0..96)
                .map(|c| {
                    if row[c / 8] & (0x80 >> (c % 8)) != 0 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect();
            line.push('\n');
            line
        })
        .collect();
    golden("manboard-pic1.txt", &art);
}

#[test]
fn mancala_main_menu_and_a_first_move() {
    let mut calc = calc_with(&[
        ("MANBOARD", &program_source("MANBOARD")),
        ("MANCALA", &program_source("MANCALA")),
    ]);
    tibasic_run(&mut calc, "MANBOARD");
    calc.run_for(20_000 * MS);
    tibasic_run(&mut calc, "MANCALA");
    calc.run_for(2_000 * MS);
    let lcd = calc.lcd().to_text();
    assert!(lcd.contains('#'));
    // 1:PLAY, then play hole 1 of player 1 with the default 4 rocks.
    tap(&mut calc, Key::K1);
    calc.run_for(5_000 * MS);
    let l1 = read_list(calc.ram(), 1).expect("board in L1");
    assert_eq!(l1.len(), 16);
    assert_eq!(l1[0], Real::from_i64(4));
    tap(&mut calc, Key::Enter);
    calc.run_for(5_000 * MS);
    let l1: Vec<i64> = read_list(calc.ram(), 1)
        .expect("board in L1")
        .iter()
        .map(|r| r.to_i64_exact().unwrap())
        .collect();
    assert_eq!(&l1[..14], &[0, 5, 5, 5, 5, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
    assert_eq!(l1[14], 2, "player 2 to move");
    assert_eq!(l1[15], 1, "one move played");
}

#[test]
fn save_state_round_trips_mid_program() {
    let mut calc = calc_with(&[("COUNT", "0->A\nWhile A<5000\nA+1->A\nEnd")]);
    tibasic_run(&mut calc, "COUNT");
    calc.run_for(500 * MS);
    let mid = calc.state_bytes();
    let mut other = Calc::new(BasicFirmware::new());
    other
        .restore_bytes(std::path::Path::new("mid.state"), &mid)
        .expect("state loads");
    calc.run_for(3_000 * MS);
    other.run_for(3_000 * MS);
    assert_eq!(calc.ram(), other.ram());
    assert_eq!(calc.lcd(), other.lcd());
    assert_eq!(calc.state_bytes(), other.state_bytes());
}

fn tibasic_run(calc: &mut Calc, name: &str) {
    tibasic::firmware::start_program(calc, name).expect("program installed");
}

fn read_real(calc: &Calc, var: u8) -> f64 {
    let name = tifiles::var::VarName::from_bytes(&[var]);
    match tifiles::vat::read(calc.ram(), tifiles::var::VarType::Real, &name) {
        Ok(Some(v)) => match v.data {
            tifiles::var::VarData::Real(f) => f.to_f64(),
            _ => f64::NAN,
        },
        _ => f64::NAN,
    }
}

/// Compares `actual` with a golden file under `tests/golden/` (`BLESS=1` rewrites it).
fn golden(name: &str, actual: &str) {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing golden file {path}: run with BLESS=1"));
    assert!(
        expected == actual,
        "{name} differs from the golden file (BLESS=1 re-records it):\n{actual}"
    );
}

#[test]
fn get_with_no_cable_gives_up_and_leaves_the_list() {
    let mut calc = calc_with(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]);
    tibasic_run(&mut calc, "PULL");
    calc.run_for(1_000 * MS);
    // Still waiting for an answer after a second: the link time-out is two seconds.
    assert!(!text(&calc).iter().any(|l| l.ends_with("Done")));
    calc.run_for(2_000 * MS);
    let t = text(&calc);
    assert!(t.iter().any(|l| l.ends_with("9")), "{t:?}");
    assert!(t.iter().any(|l| l.ends_with("Done")), "{t:?}");
    assert_eq!(read_list(calc.ram(), 1), Some(vec![Real::from_i64(9)]));
}
