//! `cargo xtask bench-link`: CALC VS CALC between two `ti82` processes over the network cable
//! on 127.0.0.1, with `--link-delay` on both sides.
//!
//! - turbo: one whole game (the same seeds every time) at 0, 25, 50 and 150 ms one-way; wall
//!   time and moves;
//! - real speed at 150 ms one-way (300 ms round trip): how far each calculator's emulated
//!   clock fell behind the wall clock over the game (`BENCH_LINK_REAL=0` skips it: a game at
//!   real speed takes minutes);
//! - last line: `CALC VS CALC at 100 ms RTT: W s wall, slowdown Rx` (R = wall at 50 ms one-way
//!   / wall at 0).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

struct Game {
    wall: f64,
    moves: u64,
    /// (player, emulated s, wall s, % behind) per side.
    clocks: Vec<String>,
}

/// The `ti82` binary to measure: this workspace's release build, or the one named by
/// `TI82_BENCH_BINARY` (another build, such as an older commit's, to compare against).
pub fn ti82_binary() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("TI82_BENCH_BINARY") {
        let p = PathBuf::from(p);
        if !p.exists() {
            bail!("TI82_BENCH_BINARY: {} not found", p.display());
        }
        return Ok(p);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let st = Command::new(cargo)
        .args(["build", "--quiet", "--release", "--bin", "ti82"])
        .status()
        .context("cargo build")?;
    if !st.success() {
        bail!("building ti82 failed");
    }
    let exe = std::env::current_exe()?;
    let bin = exe
        .parent()
        .context("xtask location")?
        .join(format!("ti82{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        bail!("{} not found", bin.display());
    }
    Ok(bin)
}

pub fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn game(bin: &PathBuf, delay: u64, speed: &str) -> Result<Game> {
    let home = std::env::temp_dir().join(format!("ti82-bench-link-{}", std::process::id()));
    std::fs::create_dir_all(&home)?;
    let port = free_port()?.to_string();
    let d = delay.to_string();
    let side = |mode: &str, who: &str, seed: &str, rocks: &str| {
        Command::new(bin)
            .env("TI82_HOME", &home)
            .args(["run", "--headless", "--no-rom", "--speed", speed])
            .args(["--link", mode, &port, "--link-delay", &d])
            .args(["--play-cvc", who, "--seed", seed, "--rocks", rocks])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    };
    let start = Instant::now();
    let second = side("listen", "second", "7", "6")?;
    std::thread::sleep(std::time::Duration::from_millis(100));
    let first = side("connect", "first", "8", "3")?;
    let f = first.wait_with_output()?;
    let s = second.wait_with_output()?;
    let wall = start.elapsed().as_secs_f64();
    let mut moves = Vec::new();
    let mut clocks = Vec::new();
    for (who, o) in [("first", &f), ("second", &s)] {
        let out = String::from_utf8_lossy(&o.stdout);
        if !o.status.success() {
            bail!(
                "{who} side failed at {delay} ms: {out}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        let line = out
            .lines()
            .find(|l| l.starts_with("moves verified: "))
            .context("no summary line")?;
        let n: u64 = line
            .trim_start_matches("moves verified: ")
            .split(',')
            .next()
            .and_then(|n| n.parse().ok())
            .context("bad summary line")?;
        moves.push(n);
        if let Some(c) = out.lines().find(|l| l.starts_with("clock: ")) {
            clocks.push(format!("{who}: {}", c.trim_start_matches("clock: ")));
        }
    }
    if moves[0] != moves[1] {
        bail!("the two sides verified {} and {} moves", moves[0], moves[1]);
    }
    Ok(Game {
        wall,
        moves: moves[0],
        clocks,
    })
}

pub fn run() -> Result<()> {
    let bin = ti82_binary()?;
    println!("CALC VS CALC between two processes on 127.0.0.1, --link-delay on both sides");
    let mut walls = Vec::new();
    for delay in [0u64, 25, 50, 150] {
        let g = game(&bin, delay, "turbo")?;
        println!(
            "turbo, {delay:>3} ms one-way ({:>3} ms RTT): {:6.2} s wall, {} moves, {:.0} ms a move",
            2 * delay,
            g.wall,
            g.moves,
            g.wall * 1000.0 / g.moves.max(1) as f64
        );
        walls.push((delay, g.wall));
    }
    if std::env::var("BENCH_LINK_REAL").as_deref() != Ok("0") {
        let g = game(&bin, 150, "real")?;
        println!(
            "real speed, 150 ms one-way (300 ms RTT): {:.1} s wall, {} moves",
            g.wall, g.moves
        );
        for c in &g.clocks {
            println!("  {c}");
        }
    }
    let w0 = walls[0].1;
    let w50 = walls.iter().find(|w| w.0 == 50).map_or(0.0, |w| w.1);
    println!(
        "CALC VS CALC at 100 ms RTT: {w50:.1} s wall, slowdown {:.1}x",
        w50 / w0.max(1e-9)
    );
    Ok(())
}
