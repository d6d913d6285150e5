//! Two `ti82 --headless` processes joined by the TCP cable on 127.0.0.1 play a MANCALA CALC VS
//! CALC game to its end, each verifying every move on its own calculator (`--play-cvc`).

#[path = "frontend_rom.rs"]
mod rom;

use std::net::TcpListener;
use std::process::{Command, Stdio};

/// The `moves verified: N, divergences: D, result: R` line and the `board: [...]` line.
fn summary(out: &str) -> (u64, u64, String, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("moves verified: "))
        .unwrap_or_else(|| panic!("no summary line in {out:?}"));
    let mut parts = line.split(", ");
    let num = |p: Option<&str>| -> u64 {
        p.and_then(|p| p.rsplit(": ").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("bad summary line {line:?}"))
    };
    let moves = num(parts.next());
    let divergences = num(parts.next());
    let result = parts
        .next()
        .and_then(|p| p.strip_prefix("result: "))
        .unwrap_or_else(|| panic!("bad summary line {line:?}"))
        .to_string();
    let board = out
        .lines()
        .find_map(|l| l.strip_prefix("board: "))
        .unwrap_or_else(|| panic!("no board line in {out:?}"))
        .to_string();
    (moves, divergences, result, board)
}

#[test]
fn two_processes_play_calc_vs_calc() {
    let dir = rom::temp_dir("cvc-tcp");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let spawn = |mode: &str, who: &str, seed: &str, rocks: &str| {
        Command::new(env!("CARGO_BIN_EXE_ti82"))
            .env("TI82_HOME", &dir)
            .args(["run", "--headless", "--no-rom", "--speed", "turbo"])
            .args(["--link", mode, &port])
            .args(["--play-cvc", who, "--seed", seed, "--rocks", rocks])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // The second player listens, the first connects; the first player's 3 rocks count.
    let second = spawn("listen", "second", "7", "6");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let first = spawn("connect", "first", "8", "3");
    let f = first.wait_with_output().unwrap();
    let s = second.wait_with_output().unwrap();
    let fo = String::from_utf8_lossy(&f.stdout).to_string();
    let so = String::from_utf8_lossy(&s.stdout).to_string();
    assert!(
        f.status.success(),
        "first: {fo}\n{}",
        String::from_utf8_lossy(&f.stderr)
    );
    assert!(
        s.status.success(),
        "second: {so}\n{}",
        String::from_utf8_lossy(&s.stderr)
    );
    let (fm, fd, fr, fb) = summary(&fo);
    let (sm, sd, sr, sb) = summary(&so);
    assert_eq!((fd, sd), (0, 0));
    assert!(fm > 10, "{fo}");
    assert_eq!(fm, sm, "both verified every move of the same game");
    assert_eq!(fb, sb, "the same final board");
    assert!(fo.contains("player 1, rocks per hole 3"), "{fo}");
    assert!(so.contains("player 2, rocks per hole 3"), "{so}");
    let other = match fr.as_str() {
        "win" => "lose",
        "lose" => "win",
        _ => "tie",
    };
    assert_eq!(sr, other);
}
