//! `cargo xtask bench-idle-link`: what idle calculators cost the host at real speed, read
//! from each process's CPU time (`/proc/PID/stat`, user + system) over the same wall window.
//!
//! - two calculators linked directly (`--link listen` / `--link connect`, with a code);
//! - two calculators linked through `ti82 relay`, and the relay itself.
//!
//! Each sits at the home screen, `--speed real`, for the whole window (after a few settling
//! seconds). A headless calculator with no cable is not held to real speed at all (it runs
//! its wait as fast as it can), so it is no reference here. Last line: `linked idle at real speed: worst X % of a core (goal under 5 %)`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::bench_link::{free_port, ti82_binary};

/// Wall seconds measured (`BENCH_IDLE_SECONDS` changes it).
const DEFAULT_WINDOW_S: u64 = 10;
/// Seconds left to start up and connect before the window opens.
const SETTLE_S: u64 = 3;

/// CPU time (user + system) a process has used so far.
pub fn cpu_time(pid: u32) -> Result<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("reading /proc/{pid}/stat"))?;
    let close = stat.rfind(')').context("odd /proc stat")?;
    let f: Vec<&str> = stat[close + 2..].split(' ').collect();
    let ticks: u64 = f
        .get(11)
        .zip(f.get(12))
        .and_then(|(u, s)| Some(u.parse::<u64>().ok()? + s.parse::<u64>().ok()?))
        .context("odd /proc stat")?;
    Ok(Duration::from_micros(ticks * 1_000_000 / clock_ticks()))
}

fn clock_ticks() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100)
}

struct Run {
    home: PathBuf,
    bin: PathBuf,
    window: u64,
}

impl Run {
    fn calc(&self, link: &[&str]) -> Result<Child> {
        let wait_ms = ((SETTLE_S + self.window + 2) * 1000).to_string();
        Command::new(&self.bin)
            .env("TI82_HOME", &self.home)
            .args([
                "run",
                "--headless",
                "--no-rom",
                "--fresh",
                "--speed",
                "real",
            ])
            .args(link)
            .args(["--wait-ms", &wait_ms])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting ti82")
    }
}

/// CPU used by each process over the window, in percent of one core.
fn measure(children: &[(&str, &Child)], window: u64) -> Result<Vec<(String, f64)>> {
    std::thread::sleep(Duration::from_secs(SETTLE_S));
    let before: Vec<Duration> = children
        .iter()
        .map(|(_, c)| cpu_time(c.id()))
        .collect::<Result<_>>()?;
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs(window));
    let wall = start.elapsed().as_secs_f64();
    let mut out = Vec::new();
    for ((name, c), b) in children.iter().zip(before) {
        let used = cpu_time(c.id())? - b;
        out.push((name.to_string(), used.as_secs_f64() / wall * 100.0));
    }
    Ok(out)
}

fn finish(children: Vec<Child>) -> Result<()> {
    for mut c in children {
        let _ = c.kill();
        let _ = c.wait();
    }
    Ok(())
}

fn wait_port(port: u16) -> Result<()> {
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(10) {
            bail!("nothing listens on {port}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

fn print(kind: &str, figures: &[(String, f64)]) {
    let parts: Vec<String> = figures
        .iter()
        .map(|(n, p)| format!("{n} {p:.2} %"))
        .collect();
    println!("{kind:<28} {}", parts.join(", "));
}

pub fn run() -> Result<()> {
    let window = std::env::var("BENCH_IDLE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_WINDOW_S);
    let home = std::env::temp_dir().join(format!("ti82-bench-idle-{}", std::process::id()));
    std::fs::create_dir_all(&home)?;
    let r = Run {
        home: home.clone(),
        bin: ti82_binary()?,
        window,
    };
    println!(
        "idle calculators at real speed (home screen), CPU time over {window} s of wall time, % of one core"
    );
    let mut worst = 0f64;
    // Linked directly.
    let port = free_port()?.to_string();
    let listener = r.calc(&["--link", "listen", &port, "--code", "IDLE"])?;
    wait_port(port.parse()?)?;
    let connector = r.calc(&["--link", "connect", &port, "--code", "IDLE"])?;
    let f = measure(
        &[("listener", &listener), ("connector", &connector)],
        window,
    )?;
    finish(vec![listener, connector])?;
    print("linked directly:", &f);
    worst = f.iter().fold(worst, |w, (_, p)| w.max(*p));
    // Through a relay.
    let port = free_port()?.to_string();
    let relay = Command::new(&r.bin)
        .env("TI82_HOME", &r.home)
        .args(["relay", "--listen", &port])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting the relay")?;
    wait_port(port.parse()?)?;
    let a = r.calc(&["--link", "relay", &port, "5-idle-bench"])?;
    let b = r.calc(&["--link", "relay", &port, "5-idle-bench"])?;
    let f = measure(
        &[("player A", &a), ("player B", &b), ("relay", &relay)],
        window,
    )?;
    finish(vec![a, b, relay])?;
    print("linked through a relay:", &f);
    worst = f.iter().fold(worst, |w, (_, p)| w.max(*p));
    let _ = std::fs::remove_dir_all(&home);
    println!(
        "linked idle at real speed: worst {worst:.2} % of a core (goal under 5 %): {}",
        if worst < 5.0 { "met" } else { "missed" }
    );
    Ok(())
}
