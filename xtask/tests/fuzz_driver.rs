//! The fuzz driver catches what kills a target and saves the input that did it: a panic
//! (caught in the child), an abort and a stack overflow (the child dies; the parent replays
//! the seed with every input recorded first).

use std::process::Command;

fn finds(mode: &str) {
    let dir = std::env::temp_dir().join(format!("xtask-fuzz-driver-{}-{mode}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["fuzz", "selftest", "--time", "1"])
        .env("XTASK_FUZZ_SELFTEST", mode)
        .env("XTASK_FUZZ_CRASHES", &dir)
        .output()
        .expect("xtask runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{mode}: a finding must fail the run");
    assert!(stdout.contains("FINDING"), "{mode}: {stdout}\n{stderr}");
    let saved: Vec<_> = std::fs::read_dir(dir.join("selftest"))
        .expect("a crash folder")
        .flatten()
        .map(|e| std::fs::read(e.path()).unwrap())
        .collect();
    assert_eq!(saved, vec![mode.as_bytes().to_vec()], "{mode}: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
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
        .args(["fuzz", "selftest", "--time", "1"])
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
