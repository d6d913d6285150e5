//! The fuzz driver catches what kills a target and saves the input that did it: a panic
//! (caught in the child), an abort and a stack overflow (the child dies; the parent replays
//! the seed with every input recorded first). The same for the libFuzzer engine (ignored by
//! default: they build the instrumented binary, minutes; CI runs them with `--ignored`), and
//! that engine's coverage feedback reaches a finding blind mutation does not.

use std::process::Command;

fn finds(mode: &str) {
    finds_with("mutate", mode, 1);
}

/// Runs the self-test target with `engine` from the seed `mode` for `secs` seconds, its
/// findings and working files in a folder of its own; the run's output and what it saved.
fn selftest_run(engine: &str, mode: &str, secs: u32) -> (std::process::Output, Vec<Vec<u8>>) {
    let dir = std::env::temp_dir().join(format!(
        "xtask-fuzz-driver-{}-{engine}-{mode}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["fuzz", "selftest", "--engine", engine, "--time"])
        .arg(secs.to_string())
        .env("XTASK_FUZZ_SELFTEST", mode)
        .env("XTASK_FUZZ_WORK", dir.join("work"))
        .env("XTASK_FUZZ_CRASHES", &dir)
        .output()
        .expect("xtask runs");
    let saved = std::fs::read_dir(dir.join("selftest"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| std::fs::read(e.path()).unwrap())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (out, saved)
}

fn finds_with(engine: &str, mode: &str, secs: u32) {
    let (out, saved) = selftest_run(engine, mode, secs);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{mode}: a finding must fail the run");
    assert!(stdout.contains("FINDING"), "{mode}: {stdout}\n{stderr}");
    assert_eq!(saved, vec![mode.as_bytes().to_vec()], "{mode}: {stderr}");
}

#[test]
fn a_panic_is_caught_and_its_input_saved() {
    finds("panic");
}

#[test]
fn an_abort_is_replayed_and_its_input_saved() {
    finds("abort");
}

#[test]
fn a_stack_overflow_is_replayed_and_its_input_saved() {
    finds("overflow");
}

#[test]
fn a_clean_run_reports_its_executions() {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["fuzz", "selftest", "--engine", "mutate", "--time", "1"])
        .env("XTASK_FUZZ_SELFTEST", "fine")
        .output()
        .expect("xtask runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("selftest"))
        .expect("a result line");
    let execs: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(execs > 1000, "{line}");
    assert!(line.ends_with("clean"), "{line}");
}

#[test]
#[ignore = "builds the instrumented libFuzzer binary (minutes); CI runs it"]
fn libfuzzer_saves_the_input_of_a_panic() {
    finds_with("libfuzzer", "panic", 5);
}

#[test]
#[ignore = "builds the instrumented libFuzzer binary (minutes); CI runs it"]
fn libfuzzer_saves_the_input_of_an_abort() {
    finds_with("libfuzzer", "abort", 5);
}

/// libFuzzer's handlers cannot run on an overflowed stack; the replay saves the input.
#[test]
#[ignore = "builds the instrumented libFuzzer binary (minutes); CI runs it"]
fn libfuzzer_replays_a_stack_overflow_and_saves_its_input() {
    finds_with("libfuzzer", "overflow", 5);
}

/// Coverage feedback: from the one seed `fine`, libFuzzer's comparison tracing reaches the
/// selftest's `panic`/`abort`/`overflow` branches, which the blind mutation loop does not in
/// its run above (`a_clean_run_reports_its_executions`: five exact bytes out of 2^40).
#[test]
#[ignore = "builds the instrumented libFuzzer binary (minutes); CI runs it"]
fn libfuzzer_coverage_feedback_reaches_a_guarded_branch() {
    let (out, saved) = selftest_run("libfuzzer", "fine", 60);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("FINDING"), "{stdout}\n{stderr}");
    assert!(
        saved
            .iter()
            .any(|s| [&b"panic"[..], b"abort", b"overflow"].contains(&s.as_slice())),
        "{saved:?}"
    );
}
