//! The front ends save the calculator's state when a signal ends them (SIGTERM from `kill`,
//! SIGINT from Ctrl+C in the terminal that started the window), as when the window is closed.
//! The window test needs a display (CI runs it under Xvfb); the terminal UI's runs on a
//! pseudo-terminal made by `script`. Without them each says so and passes.

#[path = "frontend_rom.rs"]
mod rom;

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
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
    let pid = child.id();
    let status = signal_and_wait(&mut child, pid, signal);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "{signal}: {status}: {err}");
    assert_state_saved(&dir, &err);
    assert!(err.contains("state saved"), "{err}");
}

/// Sends SIG`signal` to `pid` and waits (at most 30 s) for `child` to end.
fn signal_and_wait(child: &mut Child, pid: u32, signal: &str) -> ExitStatus {
    let kill = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(kill.success());
    let t0 = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "no exit after SIG{signal}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The built-in calculator's state was saved in `dir`, and it is one the next start restores.
fn assert_state_saved(dir: &Path, err: &str) {
    let state = dir.join("builtin.state");
    assert!(state.exists(), "no {} ({err})", state.display());
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
    let status = signal_and_wait(&mut child, ti82[0], "TERM");
    assert!(status.success(), "{status}");
    assert_state_saved(&dir, "");
}

/// A headless run ended by SIGTERM stops its wait early and still writes every output: the
/// glass (`--print-screen`) and the state (`--save-state`).
#[test]
fn a_headless_run_ended_by_sigterm_writes_its_outputs() {
    let dir = rom::temp_dir("shutdown-headless");
    let state = dir.join("end.state");
    // A Z80 program that never rests (the synthetic ROM of frontend_rom.rs polls the keypad):
    // an idle built-in calculator would get through the hour's wait in milliseconds.
    let rom = rom::write_rom(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args(["run", "--headless", "--no-send", "--rom"])
        .arg(&rom)
        .args(["--wait-ms", "3600000", "--print-screen", "--save-state"])
        .arg(&state)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "ended by itself");
    let pid = child.id();
    let status = signal_and_wait(&mut child, pid, "TERM");
    let out = child.wait_with_output().unwrap();
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(status.success(), "{status}: {err}");
    assert_eq!(stdout.lines().count(), 8, "{stdout}");
    let mut calc = ti82_machine::Calc::from_rom(rom::rom());
    calc.load_state(&state).expect("the written state loads");
    // Stopped early: far less than the hour asked for.
    let s = calc.now() / 6_000_000;
    assert!((1..3_600).contains(&s), "{s} emulated s");
}
