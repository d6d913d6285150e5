//! Every command shown in `README.md` and `docs/*.md` is run (or skipped by a rule written
//! here and in docs/frontend.md, "Commands in the docs"), and its shown output is checked, so
//! a doc that drifts from the binary fails.
//!
//! What is read: fenced blocks whose info string is `sh`. One command a line (`\` continues a
//! line); `#` starts a comment. In a comment, every backquoted ``TEXT`` after the word
//! `prints` is output the command must show: some line of its output (stdout or stderr),
//! spaces trimmed, must match TEXT, where `...` in TEXT stands for anything.
//!
//! The rules, in order:
//! 1. A block preceded by `<!-- docs-test: not run: REASON -->` is skipped; the reason must
//!    be given. `<!-- docs-test: synopsis -->`: a usage summary; every `--option` on a
//!    `ti82 ...` line must be in that command's `--help`.
//! 2. README's first block is the set-up: exactly `cargo run --release` and
//!    `cargo test --workspace`. It is not run (the window; this very suite) but `ti82 --help`
//!    must work.
//! 3. `cargo xtask ...`: CI runs the xtasks itself (suites need the data in `../shared`,
//!    benchmarks and calibrations take minutes); skipped.
//! 4. Other cargo commands (`cargo test`, `cargo bench`, `cargo build`, `cargo run -p ...` or
//!    `--example`): CI runs them; skipped.
//! 5. `ti82 ...` or `cargo run --release -- ...`: the `ti82` binary of this build.
//!    - Network: `--link` with anything but `bot[:LEVEL]` (`listen`, `connect`, ...),
//!      `--code`, `--relay`, `ti82 relay`: they need a peer over TCP (and fixed ports);
//!      skipped here, covered by `frontend_netlink` and `frontend_link`.
//!    - Interactive (no subcommand, or `run` without `--headless`): they open a window; the
//!      options are checked to parse (`--help` appended), not run.
//!    - Anything else runs, in a scratch folder holding a copy of `programs/` (files a
//!      command writes are there for the next one of the same doc), with `TI82_HOME` in that
//!      folder, and must exit 0 within 10 minutes. `[...]` (optional parts) are dropped.
//! 6. System set-up (`apt-get`, `sudo`, `brew`, `git`, `cd`, `export`, `rustup`): not run.
//! 7. Anything else fails: teach this file a rule.
//!
//! Environment assignments in front of a command (`BLESS=1 cargo test ...`) are ignored for
//! the classification.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(600);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fenced `sh` block: its file, first line (1-based) and marker.
#[derive(Debug)]
struct Block {
    file: String,
    line: usize,
    marker: Option<String>,
    /// (line number, command text with continuations joined, comment).
    commands: Vec<(usize, String, String)>,
}

/// The `<!-- docs-test: ... -->` text right above a fence (blank lines skipped).
fn marker_above(lines: &[&str], fence: usize) -> Option<String> {
    let mut i = fence;
    while i > 0 {
        i -= 1;
        let l = lines[i].trim();
        if l.is_empty() {
            continue;
        }
        return l
            .strip_prefix("<!-- docs-test:")
            .and_then(|r| r.strip_suffix("-->"))
            .map(|r| r.trim().to_string());
    }
    None
}

/// Splits off a trailing `# comment` (a `#` starting a word outside quotes).
fn split_comment(line: &str) -> (String, String) {
    let mut quote = None;
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev_space => {
                return (
                    line[..i].trim().to_string(),
                    line[i + 1..].trim().to_string(),
                )
            }
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    (line.trim().to_string(), String::new())
}

fn blocks_of(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let name = file
        .strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let is_sh = t
            .strip_prefix("```")
            .and_then(|info| info.split_whitespace().next())
            == Some("sh");
        if !is_sh {
            i += 1;
            continue;
        }
        let mut block = Block {
            file: name.clone(),
            line: i + 1,
            marker: marker_above(&lines, i),
            commands: Vec::new(),
        };
        i += 1;
        let mut pending: Option<(usize, String)> = None;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            let (cmd, comment) = split_comment(lines[i]);
            let (start, mut text) = pending.take().unwrap_or((i + 1, String::new()));
            if let Some(head) = cmd.strip_suffix('\\') {
                text.push_str(head);
                text.push(' ');
                pending = Some((start, text));
            } else {
                text.push_str(&cmd);
                if !text.trim().is_empty() {
                    block
                        .commands
                        .push((start, text.trim().to_string(), comment));
                }
            }
            i += 1;
        }
        out.push(block);
        i += 1;
    }
    out
}

/// Shell-like words: white space separates, `"..."` and `'...'` quote.
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in cmd.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Drops `[...]` groups (optional parts of a usage line), nested ones included.
fn drop_optional(words: Vec<String>) -> Vec<String> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    for w in words {
        let opens = w.matches('[').count() as i32;
        let closes = w.matches(']').count() as i32;
        if depth == 0 && opens == 0 {
            out.push(w);
        }
        depth += opens - closes;
    }
    out
}

/// What a command is, by the rules above.
#[derive(Debug, PartialEq)]
enum Kind {
    Skip(&'static str),
    /// `ti82` with these arguments, interactive (parse only) or run.
    Ti82 {
        args: Vec<String>,
        interactive: bool,
    },
    Unknown,
}

fn classify(cmd: &str) -> Kind {
    let mut w = words(cmd);
    while w
        .first()
        .is_some_and(|x| x.contains('=') && !x.starts_with('-'))
    {
        w.remove(0);
    }
    let args: Vec<String> = match w.first().map(String::as_str) {
        Some("ti82") => w[1..].to_vec(),
        Some("cargo") => match w.get(1).map(String::as_str) {
            Some("xtask") => return Kind::Skip("cargo xtask: CI runs the xtasks itself"),
            Some("run") if w.get(2).map(String::as_str) == Some("--release") => {
                match w.get(3).map(String::as_str) {
                    None => Vec::new(),
                    Some("--") => w[4..].to_vec(),
                    Some(_) => return Kind::Skip("cargo on other packages: CI runs them"),
                }
            }
            Some("test" | "bench" | "build" | "run" | "clippy" | "fmt" | "doc") => {
                return Kind::Skip("cargo's own commands: CI runs them")
            }
            _ => return Kind::Unknown,
        },
        Some("apt-get" | "apt" | "sudo" | "brew" | "git" | "cd" | "export" | "rustup") => {
            return Kind::Skip("system set-up: not run, it changes the machine")
        }
        _ => return Kind::Unknown,
    };
    let args = drop_optional(args);
    let network = args.first().map(String::as_str) == Some("relay")
        || args.iter().any(|a| a == "--code" || a == "--relay")
        || args
            .windows(2)
            .any(|p| p[0] == "--link" && !p[1].starts_with("bot"));
    if network {
        return Kind::Skip(
            "network: needs a TCP peer; covered by frontend_netlink and frontend_link",
        );
    }
    let sub = args.first().map(String::as_str);
    let interactive = match sub {
        None => true,
        Some(s) if s.starts_with('-') => true,
        Some("run") => !args.iter().any(|a| a == "--headless"),
        _ => false,
    };
    Kind::Ti82 { args, interactive }
}

/// `...` in `want` matches anything; the rest must match `line` (trimmed) in order.
fn matches(line: &str, want: &str) -> bool {
    let line = line.trim();
    let parts: Vec<&str> = want.trim().split("...").map(str::trim).collect();
    let mut rest = line;
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(p) else {
                return false;
            };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.trim_end().ends_with(p);
        } else {
            let Some(at) = rest.find(p) else { return false };
            rest = &rest[at + p.len()..];
        }
    }
    rest.trim().is_empty()
}

/// The texts a comment says the command prints: every backquoted text after the word
/// `prints`.
fn shown_outputs(comment: &str) -> Vec<String> {
    let Some(at) = comment.find("prints ") else {
        return Vec::new();
    };
    comment[at..]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

fn ti82() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ti82"))
}

/// Runs `args` in `dir` with a time limit; (success, stdout + stderr).
fn run_in(dir: &Path, args: &[String]) -> (bool, String) {
    let mut child = ti82()
        .args(args)
        .current_dir(dir)
        .env("TI82_HOME", dir.join("home"))
        .env_remove("DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return (false, format!("killed after {} s", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn help_of(sub: &[String]) -> String {
    let out = ti82().args(sub).arg("--help").output().unwrap();
    assert!(out.status.success(), "ti82 {} --help failed", sub.join(" "));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A usage summary: every `--option` of a `ti82 SUB ...` line (and its indented
/// continuation lines) is in `ti82 SUB --help`.
fn check_synopsis(b: &Block, failures: &mut Vec<String>) {
    let text = std::fs::read_to_string(root().join(&b.file)).unwrap();
    let body: Vec<&str> = text
        .lines()
        .skip(b.line)
        .take_while(|l| !l.trim_start().starts_with("```"))
        .collect();
    let mut current: Option<(Vec<String>, String)> = None;
    let mut checked = 0;
    for l in body {
        if let Some(rest) = l.trim_start().strip_prefix("ti82") {
            let sub: Vec<String> = rest
                .split_whitespace()
                .take_while(|w| {
                    w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')
                })
                .map(String::from)
                .collect();
            let help = help_of(&sub);
            current = Some((sub, help));
        }
        let Some((sub, help)) = &current else {
            continue;
        };
        for opt in l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if opt.starts_with("--") && opt.len() > 2 {
                checked += 1;
                if !help.contains(opt) {
                    failures.push(format!(
                        "{}:{}: synopsis shows {opt}, which `ti82 {} --help` does not know",
                        b.file,
                        b.line,
                        sub.join(" ")
                    ));
                }
            }
        }
    }
    assert!(
        checked > 0,
        "{}:{}: a synopsis without options",
        b.file,
        b.line
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ti82-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("programs")).unwrap();
    for e in std::fs::read_dir(root().join("programs"))
        .unwrap()
        .flatten()
    {
        std::fs::copy(e.path(), d.join("programs").join(e.file_name())).unwrap();
    }
    d
}

fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn readme_opens_with_the_two_set_up_commands() {
    let blocks = blocks_of(&root().join("README.md"));
    let first: Vec<&str> = blocks[0].commands.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(first, ["cargo run --release", "cargo test --workspace"]);
    assert!(
        blocks[0].line < 10,
        "the set-up block opens the README (line {})",
        blocks[0].line
    );
    help_of(&[]);
}

#[test]
fn the_rules_classify_as_documented() {
    let skip = |c: &str| matches!(classify(c), Kind::Skip(_));
    assert!(skip("cargo xtask fuzz tokens"));
    assert!(skip("cargo xtask bench-link"));
    assert!(skip("BLESS=1 cargo test -p ti82 --test mancala_screens"));
    assert!(skip("cargo bench -p ti82-z80"));
    assert!(skip(
        "cargo run --release -p mancala --example kalah_table -- 4 4"
    ));
    assert!(skip("ti82 relay 0.0.0.0:7000"));
    assert!(skip("cargo run --release -- relay 7000"));
    assert!(skip("ti82 --link listen 5000 --code fox"));
    assert!(skip(
        "ti82 run --headless --no-rom --link connect 5000 --play-cvc first"
    ));
    assert!(skip("ti82 --link relay example.org:7000"));
    assert!(skip("apt-get install -y xvfb"));
    assert!(!skip("ti82 run --headless --link bot:easy --keys ENTER"));
    assert_eq!(classify("make all"), Kind::Unknown);
    assert_eq!(
        classify("cargo run --release -- detokenize A.82p [--unicode]"),
        Kind::Ti82 {
            args: vec!["detokenize".into(), "A.82p".into()],
            interactive: false
        }
    );
    assert_eq!(
        classify("ti82 --link bot --speed turbo"),
        Kind::Ti82 {
            args: vec![
                "--link".into(),
                "bot".into(),
                "--speed".into(),
                "turbo".into()
            ],
            interactive: true
        }
    );
    assert_eq!(
        classify(r#"ti82 run --headless --keys "2 + 2 ENTER""#),
        Kind::Ti82 {
            args: vec![
                "run".into(),
                "--headless".into(),
                "--keys".into(),
                "2 + 2 ENTER".into()
            ],
            interactive: false
        }
    );
    assert_eq!(split_comment("a b   # prints `x`").1, "prints `x`");
    assert_eq!(split_comment(r##"a "#b" c"##).1, "");
    assert_eq!(
        shown_outputs("the last line prints `value: W 8 best: 2`"),
        ["value: W 8 best: 2"]
    );
    assert_eq!(shown_outputs("`x` prints `2+2`, then `4`"), ["2+2", "4"]);
    assert!(shown_outputs("see `docs/link.md`").is_empty());
    assert!(matches("  value: W 8 best: 2 ", "value: W 8 best: 2"));
    assert!(!matches("value: W 8 best: 3", "value: W 8 best: 2"));
    assert!(matches(
        "102 games, 0 divergences, 10 games/s",
        "102 games, ... games/s"
    ));
    assert!(!matches("               4", "14"));
}

#[test]
fn every_command_in_the_docs_works_as_shown() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in doc_files() {
        let blocks = blocks_of(&file);
        if blocks.is_empty() {
            continue;
        }
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = scratch(&stem);
        for (bi, b) in blocks.iter().enumerate() {
            match b.marker.as_deref() {
                Some("synopsis") => {
                    check_synopsis(b, &mut failures);
                    continue;
                }
                Some(m) => {
                    let reason = m.strip_prefix("not run:").map(str::trim).unwrap_or("");
                    if reason.is_empty() {
                        failures.push(format!(
                            "{}:{}: unknown marker {m:?} (use `not run: REASON` or `synopsis`)",
                            b.file, b.line
                        ));
                    } else {
                        eprintln!("{}:{}: not run: {reason}", b.file, b.line);
                    }
                    continue;
                }
                None => {}
            }
            if b.file == "README.md" && bi == 0 {
                continue; // the set-up block: readme_opens_with_the_two_set_up_commands
            }
            for (line, cmd, comment) in &b.commands {
                let at = format!("{}:{line}", b.file);
                match classify(cmd) {
                    Kind::Skip(why) => eprintln!("{at}: skipped ({why}): {cmd}"),
                    Kind::Unknown => failures.push(format!(
                        "{at}: no rule for `{cmd}` (tests/docs_commands.rs lists the rules)"
                    )),
                    Kind::Ti82 {
                        mut args,
                        interactive: true,
                    } => {
                        args.push("--help".into());
                        let (ok, out) = run_in(&dir, &args);
                        if !ok {
                            failures.push(format!("{at}: `{cmd}` does not parse:\n{out}"));
                        }
                    }
                    Kind::Ti82 { args, .. } => {
                        let t = Instant::now();
                        let (ok, out) = run_in(&dir, &args);
                        ran += 1;
                        eprintln!("{at}: ran in {:.1} s: {cmd}", t.elapsed().as_secs_f64());
                        if !ok {
                            failures.push(format!("{at}: `{cmd}` failed:\n{out}"));
                            continue;
                        }
                        for want in shown_outputs(comment) {
                            if !out.lines().any(|l| matches(l, &want)) {
                                failures.push(format!(
                                    "{at}: `{cmd}` should print `{want}`; it printed:\n{out}"
                                ));
                            }
                        }
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 5, "only {ran} commands ran");
}
