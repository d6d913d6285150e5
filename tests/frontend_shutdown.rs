//! The window front end saves the calculator's state when a signal ends it (SIGTERM from
//! `kill`, SIGINT from Ctrl+C in the terminal that started it), as when its window is closed.
//! Needs a display (CI runs it under Xvfb); without DISPLAY it says so and passes.

#[path = "frontend_rom.rs"]
mod rom;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ends_with_state_saved(signal: &str) {
    let dir = rom::temp_dir(&format!("shutdown-{signal}"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let the window open and MANBOARD start.
    std::thread::sleep(Duration::from_millis(2500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the window front end ended by itself"
    );
    let kill = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(kill.success());
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "no exit after {signal}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "{signal}: {status}: {err}");
    let state = dir.join("builtin.state");
    assert!(state.exists(), "{signal}: no {} ({err})", state.display());
    assert!(err.contains("state saved"), "{err}");
    // And it is a state the next start restores.
    let mut calc = ti82_machine::Calc::new(tibasic::firmware::BasicFirmware::new());
    calc.load_state(&state).expect("the saved state loads");
}

fn have_display() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
}

#[test]
fn sigterm_and_sigint_save_the_state() {
    if !have_display() {
        eprintln!("skipped: no DISPLAY (run under Xvfb to test the window)");
        return;
    }
    ends_with_state_saved("TERM");
    ends_with_state_saved("INT");
}
