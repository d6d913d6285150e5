//! `cargo xtask bench-idle-window`: what the window costs at rest. `ti82` opens its window
//! (on the display in `DISPLAY`, else on a virtual X server this command starts), runs
//! MANBOARD and MANCALA to the main menu at real speed, and then waits there; the process's
//! CPU time (`/proc/PID/stat`) is read over a window of wall time once the menu is up.
//! Last line: `idle window: X % of a core (goal under 1 %)`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::bench_idle::cpu_time;
use crate::bench_link::ti82_binary;

/// Wall seconds measured (`BENCH_IDLE_SECONDS` changes it).
const DEFAULT_WINDOW_S: u64 = 20;
/// Seconds for MANBOARD and MANCALA to reach the main menu at real speed (`BENCH_IDLE_SETTLE`).
const DEFAULT_SETTLE_S: u64 = 30;

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn env_secs(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

pub fn run() -> Result<()> {
    let window = env_secs("BENCH_IDLE_SECONDS", DEFAULT_WINDOW_S);
    let settle = env_secs("BENCH_IDLE_SETTLE", DEFAULT_SETTLE_S);
    let bin = ti82_binary()?;
    let mut _xvfb = None;
    let display = match std::env::var("DISPLAY") {
        Ok(d) if !d.is_empty() => d,
        _ => {
            let d = format!(":{}", 90 + std::process::id() % 9);
            let x = Command::new("Xvfb")
                .args([
                    d.as_str(),
                    "-screen",
                    "0",
                    "1024x768x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .context("no DISPLAY, and Xvfb (Debian package xvfb) could not start")?;
            _xvfb = Some(Kill(x));
            std::thread::sleep(Duration::from_secs(1));
            d
        }
    };
    let home = std::env::temp_dir().join(format!("ti82-bench-window-{}", std::process::id()));
    std::fs::create_dir_all(&home)?;
    let child = Command::new(&bin)
        .env("DISPLAY", &display)
        .env("TI82_HOME", &home)
        .args(["--fresh", "--no-rom", "--speed", "real"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting ti82")?;
    let child = Kill(child);
    let pid = child.0.id();
    println!("the window at MANCALA's main menu, real speed, display {display}");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(settle) {
        std::thread::sleep(Duration::from_millis(200));
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            bail!("ti82 ended before the measurement (no window could open?)");
        }
    }
    let before = cpu_time(pid)?;
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(window));
    let used = cpu_time(pid)? - before;
    let pct = used.as_secs_f64() / t0.elapsed().as_secs_f64() * 100.0;
    drop(child);
    let _ = std::fs::remove_dir_all(&home);
    println!(
        "CPU time {:.3} s over {:.1} s of wall time",
        used.as_secs_f64(),
        t0.elapsed().as_secs_f64()
    );
    println!(
        "idle window: {pct:.2} % of a core (goal under 1 %): {}",
        if pct < 1.0 { "met" } else { "missed" }
    );
    Ok(())
}
