//! The token table of `docs/tibasic.md` ("Every TI-82 token") checked against the runtime:
//! every token is run in a few statement shapes (alone, with one to five arguments, after a
//! number, between two numbers) on the real `Os`, and it is supported unless one of them
//! stops with ERR:UNSUPPORTED. A row's status must say so: `yes`, or `no`, or `partial (…)`
//! for a token that works in some forms and stops with ERR:UNSUPPORTED in another (the row
//! says which). `BLESS=1 cargo test -p tibasic --test support_table` rewrites the status
//! column from the runtime (notes and `partial` statements are kept).

use std::path::PathBuf;

use ti82_machine::{Config, Hardware};
use tibasic::interp::{Interp, Status};
use tibasic::os::{Os, OsState};
use tibasic::value::ErrorKind;

fn doc() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/tibasic.md")
}

const YES: &str = "yes";
const NO: &str = "no (ERR:UNSUPPORTED names it)";

/// Runs `program` on a fresh calculator: true if it stops with ERR:UNSUPPORTED.
fn unsupported(program: &[u8]) -> bool {
    let mut hw = Hardware::new(Config::default());
    let ram = hw.mem.ram_mut();
    ram.fill(0);
    tifiles::vat::init_empty(ram).unwrap();
    tibasic::screen::clear_home(ram);
    let mut st = OsState::default();
    let mut os = Os {
        hw: &mut hw,
        st: &mut st,
    };
    let mut interp = Interp::new();
    interp.start_bytes(b"", program);
    for _ in 0..500 {
        match interp.step(&mut os) {
            Status::Running => {}
            Status::Error(e) => return matches!(e.kind, ErrorKind::Unsupported(_)),
            _ => return false,
        }
    }
    false
}

/// The statement shapes a token is tried in.
fn probes(token: &[u8]) -> Vec<Vec<u8>> {
    const ONE: u8 = 0x31;
    const COMMA: u8 = 0x2B;
    let mut out = vec![token.to_vec()];
    for n in 1..=5 {
        let mut p = token.to_vec();
        for i in 0..n {
            if i > 0 {
                p.push(COMMA);
            }
            p.push(ONE);
        }
        out.push(p);
    }
    let mut after = vec![ONE];
    after.extend_from_slice(token);
    out.push(after.clone());
    after.push(ONE);
    out.push(after);
    out
}

fn is_supported(token: &[u8]) -> bool {
    !probes(token).iter().any(|p| unsupported(p))
}

/// The token bytes of a table row (`| `5E 10` | Y₁ | status | notes |`).
fn row_token(line: &str) -> Option<Vec<u8>> {
    let cell = line.strip_prefix("| `")?;
    let hex = &cell[..cell.find('`')?];
    hex.split(' ')
        .map(|h| u8::from_str_radix(h, 16).ok())
        .collect()
}

#[test]
fn the_token_table_says_what_the_runtime_does() {
    let path = doc();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut wrong = Vec::new();
    let mut rows = 0;
    let mut no_rows = 0;
    for line in text.lines() {
        let Some(token) = row_token(line) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        rows += 1;
        let cells: Vec<&str> = line.split(" | ").collect();
        assert!(cells.len() >= 4, "a token row with four cells: {line}");
        let supported = is_supported(&token);
        let want = if supported { YES } else { NO };
        if !supported {
            no_rows += 1;
        }
        let status = cells[2].trim();
        let partial = status.starts_with("partial") && !supported;
        if status.starts_with("yes") != supported && !partial {
            wrong.push(format!("{} is {want} in the runtime: {line}", cells[0]));
        }
        let mut fixed: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        if !partial {
            fixed[2] = want.to_string();
        } else {
            no_rows -= 1;
        }
        out.push_str(&fixed.join(" | "));
        out.push('\n');
    }
    assert!(
        rows > 300,
        "the token table was not found in {}",
        path.display()
    );
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, out).unwrap();
        eprintln!("{rows} token rows, {no_rows} not supported");
        return;
    }
    assert!(
        wrong.is_empty(),
        "docs/tibasic.md disagrees with the runtime (BLESS=1 rewrites the status column):\n{}",
        wrong.join("\n")
    );
}
