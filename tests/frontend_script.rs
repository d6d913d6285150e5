//! The key-script parser.

use ti82::script::{parse, Button, Step};
use ti82_machine::Key;

fn k(key: Key) -> Button {
    Button::Key(key)
}

#[test]
fn names_repeats_waits_holds() {
    let s = parse("PRGM 1 ENTER  WAIT 500\nRIGHT*3 # comment ENTER\n2nd x² sto> (-) ON hold alpha release ALPHA").unwrap();
    assert_eq!(
        s,
        vec![
            Step::Tap(k(Key::Prgm)),
            Step::Tap(k(Key::K1)),
            Step::Tap(k(Key::Enter)),
            Step::Wait(500),
            Step::Tap(k(Key::Right)),
            Step::Tap(k(Key::Right)),
            Step::Tap(k(Key::Right)),
            Step::Tap(k(Key::Second)),
            Step::Tap(k(Key::Square)),
            Step::Tap(k(Key::Sto)),
            Step::Tap(k(Key::Neg)),
            Step::Tap(Button::On),
            Step::Hold(k(Key::Alpha)),
            Step::Release(k(Key::Alpha)),
        ]
    );
}

#[test]
fn operators_and_their_repeats() {
    let s = parse("* **3 - / + X,T,θ , ,*2 WAIT 5ms").unwrap();
    assert!(parse("*2").is_err(), "a repeat needs a key");
    assert_eq!(
        s,
        vec![
            Step::Tap(k(Key::Mul)),
            Step::Tap(k(Key::Mul)),
            Step::Tap(k(Key::Mul)),
            Step::Tap(k(Key::Mul)),
            Step::Tap(k(Key::Sub)),
            Step::Tap(k(Key::Div)),
            Step::Tap(k(Key::Add)),
            Step::Tap(k(Key::XTTheta)),
            Step::Tap(k(Key::Comma)),
            Step::Tap(k(Key::Comma)),
            Step::Tap(k(Key::Comma)),
            Step::Wait(5),
        ]
    );
    assert_eq!(parse("  \n # nothing\n").unwrap(), vec![]);
}

#[test]
fn errors_name_line_and_column() {
    let e = parse("ENTER\n  CLEAR FROB").unwrap_err();
    assert_eq!((e.line, e.column), (2, 9));
    assert!(e.to_string().contains("FROB"), "{e}");
    let e = parse("WAIT").unwrap_err();
    assert!(e.message.contains("WAIT needs"), "{e}");
    let e = parse("WAIT soon").unwrap_err();
    assert!(e.message.contains("milliseconds"), "{e}");
    let e = parse("HOLD NOPE").unwrap_err();
    assert!(e.message.contains("NOPE"), "{e}");
    assert!(parse("RIGHT*99999999").is_err());
    assert!(parse("WAIT 99999999999").is_err());
    assert!(parse("FROB*3").unwrap_err().message.contains("FROB"));
}

#[path = "frontend_rom.rs"]
mod rom;

/// `--run NAME` on a ROM: the keys that pick the program from the alphabetical PRGM EXEC list.
#[test]
fn run_program_keys_follow_the_vat() {
    let mut c = rom::calc();
    tifiles::vat::init_empty(c.ram_mut()).unwrap();
    for name in ["ZETA", "ALPHA", "MANCALA"] {
        let v = tifiles::Variable::program(name, vec![0x2A]).unwrap();
        tifiles::vat::store(c.ram_mut(), &v).unwrap();
    }
    let steps = ti82::script::run_program_keys(&c, "mancala").unwrap();
    let tap = |k| Step::Tap(Button::Key(k));
    assert_eq!(
        steps,
        vec![
            tap(Key::Clear),
            tap(Key::Prgm),
            tap(Key::Down),
            tap(Key::Enter),
            tap(Key::Enter)
        ]
    );
    let e = ti82::script::run_program_keys(&c, "NOPE").unwrap_err();
    assert!(e.to_string().contains("ALPHA, MANCALA, ZETA"), "{e}");
}

/// The first script, on the built-in runtime: a second function by its printed name
/// (`2nd QUIT`, `ANS`) is its key pair, and a quoted string types its text (ALPHA before
/// the letters): Y₁ = X+1 typed on Y=, QUIT home, `5*2` then `1+Ans` is 11.
#[test]
fn second_functions_and_strings_drive_the_calculator() {
    let mut calc = tibasic::firmware::calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    let steps = parse("Y= \"X+1\" 2nd QUIT \"5*2\" ENTER \"1+\" ANS ENTER").unwrap();
    let mut player = ti82::script::Player::default();
    player.push(&steps);
    player.run(&mut calc).unwrap();
    calc.run_for(100 * 6_000);
    assert_eq!(
        tibasic::os::equation_in(calc.ram(), 0x10).unwrap().0,
        [b'X', 0x70, b'1']
    );
    let screen = calc.lcd();
    let glass: Vec<String> = tibasic::glass::read(|x, y| screen.pixel(x, y))
        .into_iter()
        .map(|l| l.trim().to_string())
        .collect();
    assert_eq!(&glass[..4], ["5*2", "10", "1+Ans", "11"], "{glass:?}");
}
