//! Programs that nest or chain thousands deep: the parser's limits turn them into `ERR:MEMORY`
//! at the statement (as the TI-82 runs out of operator-stack RAM, spec §7.1) instead of
//! overflowing the host's stack in the parser, the evaluator or the tree's `Drop`; the same
//! holds when such a program is recompiled from a save state.

use ti82_machine::{Calc, Key};
use tibasic::ast::Stmt;
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tibasic::parse::{compile, MAX_NESTING, MAX_OPERATORS};
use tibasic::token::*;
use tibasic::value::ErrorKind;

const MS: u64 = 6_000;
/// Token bytes of a program that fills most of the TI-82's user memory (about 28K free).
const FULL: usize = 27_000;
/// As deep as such a program can nest with one-byte tokens.
const DEEP: usize = FULL;

/// `prefix` as often as fits in a program filling memory, then `tail`.
fn fill(prefix: &[u8], tail: &[u8]) -> Vec<u8> {
    repeat(prefix, FULL / prefix.len(), tail)
}

fn repeat(prefix: &[u8], n: usize, tail: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(prefix.len() * n + tail.len());
    for _ in 0..n {
        v.extend_from_slice(prefix);
    }
    v.extend_from_slice(tail);
    v
}

/// One-statement programs that each hit one recursion point of the parser or one chain.
fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let one = [DIGIT_0 + 1];
    let mut sum = fill(&[DIGIT_0 + 1, PLUS], &one);
    sum.extend_from_slice(&[STORE, LETTER_A]);
    vec![
        ("parentheses", repeat(&[LPAREN], DEEP, &one)),
        ("lists", repeat(&[LBRACE], DEEP, &one)),
        ("negations", repeat(&[NEGATE], DEEP, &one)),
        ("prefix functions", repeat(&[INT], DEEP, &one)),
        ("postfix chain", repeat(&one, 1, &[FACTORIAL; DEEP - 1])),
        ("sum", sum),
        ("implied products", repeat(&[LETTER_A], DEEP, &[])),
        ("list elements", fill(&[PREFIX_LIST, 0, LPAREN], &one)),
        ("powers", fill(&[DIGIT_0 + 2, POWER, NEGATE], &one)),
    ]
}

#[test]
fn deep_statements_compile_to_a_memory_error() {
    for (what, prog) in hostile() {
        let lines = compile(&prog);
        assert_eq!(lines.len(), 1, "{what}");
        assert!(lines[0].stmt == Stmt::TooDeep, "{what}");
    }
}

#[test]
fn statements_just_inside_the_limits_still_compile() {
    let n = MAX_NESTING as usize - 1;
    let mut parens = repeat(&[LPAREN], n, &[DIGIT_0 + 7]);
    parens.extend(std::iter::repeat_n(RPAREN, n));
    assert!(matches!(compile(&parens)[0].stmt, Stmt::Expr(_)));
    let sum = repeat(
        &[DIGIT_0 + 1, PLUS],
        MAX_OPERATORS as usize - 1,
        &[DIGIT_0 + 1],
    );
    assert!(matches!(compile(&sum)[0].stmt, Stmt::Expr(_)));
    let too_many = repeat(
        &[DIGIT_0 + 1, PLUS],
        MAX_OPERATORS as usize + 1,
        &[DIGIT_0 + 1],
    );
    assert!(compile(&too_many)[0].stmt == Stmt::TooDeep);
}

fn calc_with(name: &str, tokens: Vec<u8>) -> Calc {
    let mut calc = Calc::new(BasicFirmware::new());
    install(calc.ram_mut(), &[program_var(name, tokens).expect("name")]).expect("fits");
    calc.run_for(50 * MS);
    calc
}

fn fw(calc: &Calc) -> &BasicFirmware {
    BasicFirmware::of(calc).expect("runtime firmware")
}

fn error_of(calc: &Calc) -> Option<ErrorKind> {
    fw(calc).last_error().map(|e| e.kind.clone())
}

#[test]
fn running_a_deep_program_shows_err_memory() {
    for (what, prog) in hostile() {
        let mut calc = calc_with("DEEP", prog);
        start_program(&mut calc, "DEEP").expect("installed");
        calc.run_for(500 * MS);
        assert_eq!(error_of(&calc), Some(ErrorKind::Memory), "{what}");
    }
}

#[test]
fn the_largest_allowed_expression_evaluates_on_a_small_stack() {
    // Nesting and operators both at their limits, evaluated on a thread with a quarter of the
    // default test stack: the bound leaves a wide margin.
    let n = MAX_NESTING as usize - 1;
    let mut prog = repeat(&[LPAREN], n, &[]);
    prog.extend(repeat(
        &[DIGIT_0 + 1, PLUS],
        MAX_OPERATORS as usize - 1,
        &[DIGIT_0 + 1],
    ));
    prog.extend(std::iter::repeat_n(RPAREN, n));
    prog.extend_from_slice(&[STORE, LETTER_A]);
    let done = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let mut calc = calc_with("BIG", prog);
            start_program(&mut calc, "BIG").expect("installed");
            calc.run_for(500 * MS);
            let err = error_of(&calc);
            drop(calc);
            err
        })
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(done, None);
}

#[test]
fn a_deep_program_restored_from_a_save_state_still_fails_cleanly() {
    // Pause first, so the state is saved with the deep statement still to come; loading it
    // recompiles the program's source.
    let mut prog = vec![PAUSE, NEWLINE];
    prog.extend(repeat(&[LPAREN], DEEP - 100, &[DIGIT_0 + 1]));
    let mut calc = calc_with("DEEP", prog);
    start_program(&mut calc, "DEEP").expect("installed");
    calc.run_for(200 * MS);
    let state = calc.state_bytes();
    let mut other = Calc::new(BasicFirmware::new());
    other
        .restore_bytes(std::path::Path::new("deep.state"), &state)
        .expect("state loads");
    other.press(Key::Enter);
    other.run_for(60 * MS);
    other.release(Key::Enter);
    other.run_for(200 * MS);
    assert_eq!(error_of(&other), Some(ErrorKind::Memory));
}

#[test]
fn the_mancala_programs_are_far_inside_the_limits() {
    // No statement of MANBOARD or MANCALA comes near the limits: none is cut off, and the
    // longest has fewer bytes (so fewer operators) than half the operator limit.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../programs/");
    for name in ["MANBOARD.txt", "MANCALA.txt"] {
        let src = std::fs::read_to_string(format!("{root}{name}")).expect("program source");
        let bytes = tifiles::tokens::tokenize_source(&src).expect("tokenizes");
        let lines = compile(&bytes);
        assert!(lines.len() > 20);
        assert!(
            lines.iter().all(|l| l.stmt != Stmt::TooDeep),
            "{name} hits a limit"
        );
        // The longest statement has far fewer bytes than half the operator limit.
        let mut starts: Vec<usize> = lines.iter().map(|l| l.offset as usize).collect();
        starts.push(bytes.len());
        let longest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        assert!(
            longest < MAX_OPERATORS as usize / 2,
            "{name}: {longest} bytes"
        );
    }
}
