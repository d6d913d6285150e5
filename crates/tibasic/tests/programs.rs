//! The team's TI-BASIC test programs, one file per language group (`tests/programs/*.txt`),
//! each with an expectation file (`*.expect`): a script of keys, then the golden home screen
//! (the 8×16 text shadow), the graph buffer and the glass as text art, the variables read back
//! from the VAT in emulated RAM, and the error screens seen on the way.
//!
//! A program file holds one or more programs, each starting with a line `@NAME`; the
//! programs are tokenized here, at test time, and installed into a fresh calculator on the
//! built-in runtime. The expectation file starts with its header (kept as written):
//!
//! ```text
//! # comments
//! script: run:NAME 1 2 ENTER wait:500 on
//! check: home graph lcd
//! ```
//!
//! Script steps: `run:NAME` starts a program from the PRGM menu, `wait:MS` runs that many
//! emulated milliseconds, `on` taps ON, `snap` records the home screen (text shadow) there and
//! `shot` the glass (LCD text art), `look` the glass read back as text (8 lines of 16 large-font
//! characters, `?` for a cell that is no glyph), anything else is a key name (`ENTER`, `2nd`, `7`,
//! `ALPHA`...) tapped with human pacing. After the script the calculator runs until the program
//! has finished (at most a minute of emulated time). `check:` lists the screens recorded besides
//! the home screen (`graph`: the graph buffer at 88B8h, `lcd`: what the glass shows, `screen`:
//! the glass read back as text).
//!
//! `BLESS=1 cargo test -p tibasic --test programs` rewrites everything after the header.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ti82_machine::{Calc, Key};
use tibasic::firmware::{install, program_var, start_program, tap, BasicFirmware, KEY_HOLD_T};
use tifiles::float::{FloatStyle, TiFloat};
use tifiles::var::VarData;

const MS: u64 = 6_000;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// The programs of a `.txt` file: (name, source).
fn programs(text: &str, file: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('@') {
            out.push((name.trim().to_string(), String::new()));
        } else {
            let (_, src) = out
                .last_mut()
                .unwrap_or_else(|| panic!("{}: the first line must be @NAME", file.display()));
            src.push_str(line);
            src.push('\n');
        }
    }
    out
}

fn fw(calc: &Calc) -> &BasicFirmware {
    BasicFirmware::of(calc).expect("the built-in runtime")
}

/// Runs one step of a script; `snaps` collects the screens `snap` and `shot` record.
fn step(calc: &mut Calc, s: &str, errors: &mut Vec<String>, snaps: &mut String) {
    if s == "snap" {
        let n = snaps.matches("== snap").count() + 1;
        writeln!(snaps, "== snap {n}: home ==\n{}", home_text(calc.ram())).unwrap();
    } else if s == "look" {
        let n = snaps.matches("== snap").count() + 1;
        writeln!(snaps, "== snap {n}: screen ==\n{}", screen_text(calc)).unwrap();
    } else if s == "shot" {
        let n = snaps.matches("== snap").count() + 1;
        writeln!(snaps, "== snap {n}: lcd ==\n{}", calc.lcd().to_text()).unwrap();
    } else if let Some(name) = s.strip_prefix("run:") {
        start_program(calc, name).unwrap();
    } else if let Some(ms) = s.strip_prefix("wait:") {
        calc.run_for(ms.parse::<u64>().expect("wait:MS") * MS);
    } else if s == "on" {
        calc.set_on(true);
        calc.run_for(KEY_HOLD_T);
        calc.set_on(false);
        calc.run_for(KEY_HOLD_T);
    } else {
        let k = Key::from_name(s).unwrap_or_else(|| panic!("unknown key {s:?} in a script"));
        tap(calc, k);
    }
    note_error(calc, errors);
}

/// Records the error screen when one is up (once per error).
fn note_error(calc: &Calc, errors: &mut Vec<String>) {
    let f = fw(calc);
    if let tibasic::interp::Status::Error(err) = f.status() {
        let name = String::from_utf8_lossy(&err.program).to_string();
        let line = format!("ERR:{} in prgm{name} at {}", err.kind.ti_name(), err.offset);
        if errors.last() != Some(&line) {
            errors.push(line);
        }
    }
}

/// A real as stored (all 14 digits, positional where it fits) and as the calculator shows it.
fn exact(f: TiFloat) -> String {
    if f.is_zero() {
        return "0".into();
    }
    let d = f.digits();
    let sig = d.iter().rposition(|&x| x != 0).map_or(1, |p| p + 1);
    let digits: String = d[..sig].iter().map(|&x| (b'0' + x) as char).collect();
    let e = f.exponent();
    let mut s = String::new();
    if f.is_negative() {
        s.push('-');
    }
    if (0..14).contains(&e) {
        let int_len = e as usize + 1;
        if digits.len() <= int_len {
            s.push_str(&digits);
            s.extend(std::iter::repeat_n('0', int_len - digits.len()));
        } else {
            s.push_str(&digits[..int_len]);
            s.push('.');
            s.push_str(&digits[int_len..]);
        }
    } else if (-5..0).contains(&e) {
        s.push('.');
        s.extend(std::iter::repeat_n('0', (-e - 1) as usize));
        s.push_str(&digits);
    } else {
        s.push_str(&digits[..1]);
        if digits.len() > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        write!(s, "E{e}").unwrap();
    }
    s
}

fn real_line(f: TiFloat) -> String {
    let stored = exact(f);
    let shown = f.format(FloatStyle::CALC);
    if shown == stored {
        stored
    } else {
        format!("{stored}  (shows {shown})")
    }
}

fn list_text(l: &[TiFloat]) -> String {
    let items: Vec<String> = l.iter().map(|&f| exact(f)).collect();
    format!("{{{}}}", items.join(","))
}

/// The user variables in the VAT, one line each.
fn vars(ram: &[u8]) -> String {
    let mut lines = Vec::new();
    for e in tifiles::vat::entries(ram).expect("a sound VAT") {
        let ty = e.var_type();
        if ty.is_program() || e.is_internal() {
            continue;
        }
        let v = tifiles::vat::read_value(ram, &e).expect("readable variable");
        let name = v.display_name();
        let value = match &v.data {
            VarData::Real(f) => real_line(*f),
            VarData::List(l) => list_text(l),
            VarData::Matrix(m) => {
                let rows: Vec<String> = m
                    .data
                    .chunks(m.cols.max(1) as usize)
                    .map(|r| {
                        let items: Vec<String> = r.iter().map(|&f| exact(f)).collect();
                        format!("[{}]", items.join(","))
                    })
                    .collect();
                format!("[{}]", rows.join(""))
            }
            VarData::Picture(p) => {
                let on: u32 = p.iter().map(|b| b.count_ones()).sum();
                format!("picture, {on} pixels on")
            }
            VarData::Gdb(_) => "graph database".to_string(),
            other => format!("{:?}", other.var_type()),
        };
        lines.push(format!("{name}={value}"));
    }
    lines.sort();
    lines.join("\n")
}

fn art(bits: &[u8]) -> String {
    let mut s = String::new();
    for row in bits.chunks(12) {
        for &b in row {
            for i in (0..8).rev() {
                s.push(if b >> i & 1 == 1 { '#' } else { '.' });
            }
        }
        s.push('\n');
    }
    s
}

/// The glass read back as 8 lines of 16 large-font characters (`?` for a cell that is no
/// glyph): what the user sees, whatever drew it.
fn screen_text(calc: &Calc) -> String {
    let screen = calc.lcd();
    let mut s = String::new();
    for line in tibasic::glass::read(|x, y| screen.pixel(x, y)) {
        writeln!(s, "|{line}|").unwrap();
    }
    s
}

fn home_text(ram: &[u8]) -> String {
    let shadow = &ram[0x8F..0x8F + 128];
    let mut s = String::new();
    for row in shadow.chunks(16) {
        writeln!(s, "|{}|", tibasic::font::decode(row)).unwrap();
    }
    s
}

/// Runs a group: returns the header and the recorded part of its expectation file.
fn run_group(name: &str) -> (String, String) {
    let txt = dir().join(format!("{name}.txt"));
    let exp = dir().join(format!("{name}.expect"));
    let source = std::fs::read_to_string(&txt).unwrap();
    let expect = std::fs::read_to_string(&exp).unwrap_or_default();
    let header: String = expect
        .lines()
        .take_while(|l| !l.starts_with("== "))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut script = Vec::new();
    let mut checks = Vec::new();
    for l in header.lines() {
        if let Some(s) = l.strip_prefix("script:") {
            script.extend(s.split_whitespace().map(str::to_string));
        } else if let Some(c) = l.strip_prefix("check:") {
            checks.extend(c.split_whitespace().map(str::to_string));
        }
    }
    assert!(!script.is_empty(), "{}: no script: line", exp.display());

    let mut calc = Calc::new(BasicFirmware::new());
    let vars_in: Vec<_> = programs(&source, &txt)
        .into_iter()
        .map(|(n, src)| {
            let tokens = tifiles::tokens::tokenize_source(&src)
                .unwrap_or_else(|e| panic!("{}: prgm{n}: {e}", txt.display()));
            program_var(&n, tokens).unwrap_or_else(|| panic!("bad program name {n}"))
        })
        .collect();
    install(calc.ram_mut(), &vars_in).expect("programs fit");
    calc.run_for(50 * MS);
    let mut errors = Vec::new();
    let mut snaps = String::new();
    for s in &script {
        step(&mut calc, s, &mut errors, &mut snaps);
    }
    for _ in 0..600 {
        if !fw(&calc).program_active() {
            break;
        }
        calc.run_for(100 * MS);
        note_error(&calc, &mut errors);
    }
    assert!(
        !fw(&calc).program_active(),
        "{name}: a program still runs or waits after the script"
    );

    let ram = calc.ram();
    let mut out = snaps;
    writeln!(out, "== home ==\n{}", home_text(ram)).unwrap();
    if checks.iter().any(|c| c == "graph") {
        writeln!(out, "== graph ==\n{}", art(tibasic::screen::plot(ram))).unwrap();
    }
    if checks.iter().any(|c| c == "screen") {
        writeln!(out, "== screen ==\n{}", screen_text(&calc)).unwrap();
    }
    if checks.iter().any(|c| c == "lcd") {
        writeln!(out, "== lcd ==\n{}", calc.lcd().to_text()).unwrap();
    }
    writeln!(out, "== vars ==\n{}\n", vars(ram)).unwrap();
    write!(out, "== errors ==\n{}", errors.join("\n")).unwrap();
    if !errors.is_empty() {
        out.push('\n');
    }
    (header, out)
}

fn check(name: &str) {
    let (header, got) = run_group(name);
    let path = dir().join(format!("{name}.expect"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, format!("{header}{got}")).expect("write the expectation file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    let want = &expected[header.len()..];
    if want != got {
        // Show the first differing line to make the failure readable.
        let diff = want
            .lines()
            .zip(got.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| {
                format!(
                    "first difference at recorded line {}:\n  expected {a}\n  got      {b}",
                    i + 1
                )
            })
            .unwrap_or_else(|| "the recorded parts differ in length".into());
        panic!(
            "{name}: the run differs from {} (BLESS=1 re-records after checking by eye)\n{diff}\n\n{got}",
            path.display()
        );
    }
}

/// Every program file has its expectation file and a test below.
#[test]
fn every_group_is_tested() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "txt" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    assert_eq!(names, GROUPS);
}

const GROUPS: [&str; 17] = [
    "axes", "calculus", "compare", "control", "conv", "domain", "errors", "getkey", "graph",
    "home", "link", "lists", "math", "matrix", "modes", "rand", "reals",
];

#[test]
fn group_compare() {
    check("compare");
}

#[test]
fn group_domain() {
    check("domain");
}

#[test]
fn group_calculus() {
    check("calculus");
}

#[test]
fn group_matrix() {
    check("matrix");
}

#[test]
fn group_rand() {
    check("rand");
}

#[test]
fn group_conv() {
    check("conv");
}

#[test]
fn group_modes() {
    check("modes");
}

#[test]
fn group_control() {
    check("control");
}

#[test]
fn group_errors() {
    check("errors");
}

#[test]
fn group_getkey() {
    check("getkey");
}

#[test]
fn group_graph() {
    check("graph");
}

#[test]
fn group_home() {
    check("home");
}

#[test]
fn group_link() {
    check("link");
}

#[test]
fn group_lists() {
    check("lists");
}

#[test]
fn group_math() {
    check("math");
}

#[test]
fn group_reals() {
    check("reals");
}

#[test]
fn group_axes() {
    check("axes");
}
