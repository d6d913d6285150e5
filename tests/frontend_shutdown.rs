//! The front ends save the calculator's state when a signal ends them (SIGTERM from `kill`,
//! SIGINT from Ctrl+C in the terminal that started the window), as when the window is closed.
//! The window test needs a display (CI runs it under Xvfb); the terminal UI's runs on a
//! pseudo-terminal made by `script`. Without them each says so and passes.

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

/// The child processes of `pid` (Linux `/proc`).
fn children(pid: u32) -> Vec<u32> {
    let path = format!("/proc/{pid}/task/{pid}/children");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect()
}

#[test]
fn the_terminal_front_end_saves_the_state_on_sigterm() {
    // `script` gives the terminal UI a pseudo-terminal to draw on.
    let Ok(status) = Command::new("script").arg("--version").output() else {
        eprintln!("skipped: no `script` to run the terminal UI on a pseudo-terminal");
        return;
    };
    if !status.status.success() || !std::path::Path::new("/proc/self/task").exists() {
        eprintln!("skipped: no `script` or /proc");
        return;
    }
    let dir = rom::temp_dir("shutdown-tui");
    let cmd = format!("exec {} --tui", env!("CARGO_BIN_EXE_ti82"));
    let mut child = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("TI82_HOME", &dir)
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let ti82 = children(child.id());
    assert_eq!(ti82.len(), 1, "the terminal UI is not running under script");
    let kill = Command::new("kill")
        .arg("-TERM")
        .arg(ti82[0].to_string())
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
            "no exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    let state = dir.join("builtin.state");
    assert!(state.exists(), "no {}", state.display());
    let mut calc = ti82_machine::Calc::new(tibasic::firmware::BasicFirmware::new());
    calc.load_state(&state).expect("the saved state loads");
}
