//! `cargo xtask bench-z80`: our core against the published `z80` crate (v2, the "peer") on a
//! suite of workloads, each core in a binary of its own.
//!
//! Workloads (`z80work.rs` has the images and the result checks):
//!
//! * `mix`: `tests/z80/bench.asm`, CRC-32s (bitwise and table-driven), a prime sieve, block
//!   moves and searches, recursion, IX/IY-indexed and CB/DDCB operations; 64 KiB flat RAM.
//! * `exerciser`: `tests/z80/exercise.asm`, every opcode of every page (unprefixed, CB, ED,
//!   DD, FD, DDCB, FDCB; undocumented ones and block instructions included) on pseudo-random
//!   states, the results folded into a CRC-32, as the classic instruction exercisers do.
//! * `tios`: `tests/z80/tios.asm` on the whole TI-82 machine crate (`Hardware`: paging, LCD,
//!   keypad, timer): IM 1 timer interrupts with a keypad scan in the handler, LCD column
//!   writes and read-back, ROM paging, BCD arithmetic, VAT-style searches and block moves.
//!
//! Each core runs in its own binary (`bench-z80-ours`, `bench-z80-peer`, built here in
//! release), so neither core's code changes the other's layout: with both in one binary the
//! peer's speed moved by 10-20 % with our code beside it. Rounds alternate ours/peer per
//! workload so a disturbance on a busy machine hits both; every run of a workload, of either
//! core, must end in the same end state (memory, PC/SP/IX/IY, instruction and T-state counts:
//! a digest of them is compared) and with its results right (checked against values computed
//! here, where the program computes something independent of the core).
//!
//! Output: one line per workload with the median emulated MHz of each core, their ratio, and
//! the ratios of single rounds (one round's pair of runs): their median with its 95 %
//! confidence interval and their lowest and highest (how much the host's load moved the
//! figures during the run). Then the worst workload by the paired median, with its interval
//! and what the interval says about the goal of 1.5 ([`verdict`]), and, last,
//! `ratio ours/peer (worst workload): R` (from the medians of MHz, as before).
//!
//! The interval is the distribution-free one for a median (ranks from the binomial
//! distribution with p = 1/2, [`median_interval`]): it assumes only that rounds are
//! independent, not that the host's noise is normal, which it is not here (single rounds of
//! one run range over ±30 %). An interval that straddles the goal means this run cannot tell.
//!
//! `--instructions` counts host instructions instead (each core's run of each workload under
//! valgrind's callgrind, only the run itself: `--toggle-collect` on the binaries' `run_flat`
//! and `run_machine`), with fewer passes ([`instruction_loops`]): stable to the instruction on
//! any host, where the wall-clock ratios move with the load. It prints one line per workload
//! and, last, `host-instruction ratio peer/ours (worst workload): R`.
//!
//! Knobs: `BENCH_Z80_ROUNDS` (runs per core and workload, default [`DEFAULT_ROUNDS`]),
//! `BENCH_Z80_WORKLOADS` (comma-separated subset), `BENCH_Z80_LOOPS` (passes, for every
//! chosen workload; defaults in `z80work.rs`), `BENCH_Z80_PEER_BIN` (a binary to run in the
//! peer's place: an earlier build's `bench-z80-ours`, copied aside, compares two builds of our
//! core under the same alternation, end-state check and interval; an A/A run, this build against
//! a copy of itself, shows the noise floor). For callgrind, run a binary directly:
//! `target/release/bench-z80-ours exerciser 1`.

use anyhow::{bail, ensure, Context, Result};
use std::path::PathBuf;
use std::process::Command;

use crate::work;

pub const DEFAULT_ROUNDS: usize = 15;

/// The goal of issue 17: ours at least 1.5 times the peer's speed on every workload.
pub const GOAL: f64 = 1.5;

/// One run as a benchmark binary reported it.
#[derive(Debug, PartialEq)]
struct Reported {
    secs: f64,
    t_states: u64,
    instructions: u64,
    digest: String,
    summary: String,
}

impl Reported {
    fn parse(line: &str) -> Option<Reported> {
        let mut f = line.trim().splitn(6, ' ');
        if f.next()? != "ok" {
            return None;
        }
        Some(Reported {
            secs: f.next()?.parse().ok()?,
            t_states: f.next()?.parse().ok()?,
            instructions: f.next()?.parse().ok()?,
            digest: f.next()?.to_string(),
            summary: f.next().unwrap_or("").to_string(),
        })
    }

    fn mhz(&self) -> f64 {
        self.t_states as f64 / self.secs / 1e6
    }

    /// A binary's `ok ...` line as a report, or an error naming the run.
    fn from_output(core: &str, workload: &str, stdout: &str) -> Result<Reported> {
        Reported::parse(stdout)
            .with_context(|| format!("{core} on {workload}: unexpected output {stdout:?}"))
    }

    /// Fails unless `self` ended in the same state as `other` (T-states, instructions and
    /// the end-state digest); `what` says which two runs these are.
    fn ensure_same_end(&self, other: &Reported, what: &str) -> Result<()> {
        ensure!(
            (self.t_states, self.instructions, &self.digest)
                == (other.t_states, other.instructions, &other.digest),
            "{what} ended in different states (T-states {} vs {}, instructions {} vs {}, \
             digest {} vs {}); BENCH_Z80_DUMP=FILE on the binaries writes the memory",
            self.t_states,
            other.t_states,
            self.instructions,
            other.instructions,
            self.digest,
            other.digest
        );
        Ok(())
    }
}

pub(crate) fn env_number<T: std::str::FromStr>(name: &str, default: T) -> Result<T> {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .ok()
            .with_context(|| format!("{name}={v} is not a valid number")),
        Err(_) => Ok(default),
    }
}

pub fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The ratios ours/peer of each round's two runs (runs paired by round).
fn round_ratios(ours: &[f64], peer: &[f64]) -> Vec<f64> {
    ours.iter().zip(peer).map(|(o, p)| o / p).collect()
}

/// What a benchmark reports about the per-round ratios of one comparison: their median, lowest
/// and highest, and the median's 95 % interval (`None` below 6 rounds). Shared by `bench-z80`
/// and `bench-machine`.
#[derive(Debug, PartialEq)]
pub struct RoundStats {
    pub median: f64,
    pub low: f64,
    pub high: f64,
    pub interval: Option<Interval>,
}

impl RoundStats {
    pub fn of(ratios: &[f64]) -> RoundStats {
        let (low, high) = ratios
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                (lo.min(r), hi.max(r))
            });
        RoundStats {
            median: median(ratios),
            low,
            high,
            interval: median_interval(ratios),
        }
    }

    /// `median M [95 % interval A-B (ranks k and n+1-k of n)], range L-H; verdict`, with
    /// `digits` decimals, or without the interval and verdict when there are too few rounds.
    pub fn describe(&self, rounds: usize, goal: f64, digits: usize) -> String {
        let (m, lo, hi) = (self.median, self.low, self.high);
        match self.interval {
            Some((a, b, k)) => format!(
                "median {m:.digits$}, 95 % interval {a:.digits$}-{b:.digits$} (ranks {k} and {} of {rounds}), range {lo:.digits$}-{hi:.digits$}; {}",
                rounds + 1 - k,
                verdict(goal, a, b)
            ),
            None => format!(
                "median {m:.digits$}, range {lo:.digits$}-{hi:.digits$}; too few rounds for an interval (6 or more)"
            ),
        }
    }
}

/// A confidence interval: its low and high end, and the rank `k` they were taken at.
pub type Interval = (f64, f64, usize);

/// The distribution-free 95 % confidence interval of the median of `v` (textbook order
/// statistics: the `k`-th smallest and `k`-th largest value, `k` the largest rank with
/// P(Binomial(n, 1/2) < k) <= 2.5 %). Returns the interval's ends and `k`, or `None` when `v`
/// is too short for any interval at that level (fewer than 6 values).
pub fn median_interval(v: &[f64]) -> Option<Interval> {
    let n = v.len();
    // P(B <= j) for B ~ Binomial(n, 1/2), built up term by term: C(n, j) / 2^n.
    let mut term = 0.5f64.powi(n as i32);
    let mut below = 0.0;
    let mut k = 0;
    for j in 0..n {
        below += term;
        if below > 0.025 {
            break;
        }
        k = j + 1;
        term *= (n - j) as f64 / (j + 1) as f64;
    }
    if k == 0 {
        return None;
    }
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    Some((v[k - 1], v[n - k], k))
}

/// What an interval `(low, high)` of a ratio says about the goal that it reach `goal`.
pub fn verdict(goal: f64, low: f64, high: f64) -> String {
    if low >= goal {
        format!("goal {goal:.2} met: the whole interval is at or above it")
    } else if high < goal {
        format!("goal {goal:.2} missed: the whole interval is below it")
    } else {
        format!("goal {goal:.2} not resolved: the interval straddles it (more rounds or a quieter host)")
    }
}

/// Passes per workload: `BENCH_Z80_LOOPS` if set, else `default`.
fn loops_for(default: u16) -> Result<u16> {
    let loops: u16 = env_number("BENCH_Z80_LOOPS", default)?;
    ensure!(loops > 0, "BENCH_Z80_LOOPS must be positive");
    Ok(loops)
}

/// Keeps the lowest ratio seen and its workload.
fn keep_worst(worst: &mut Option<(f64, String)>, ratio: f64, workload: &str) {
    if worst.as_ref().is_none_or(|(r, _)| ratio < *r) {
        *worst = Some((ratio, workload.to_string()));
    }
}

/// One core's benchmark binary in the folder [`build`] returned, or for the peer the binary
/// `BENCH_Z80_PEER_BIN` names.
fn binary(dir: &std::path::Path, core: &str) -> PathBuf {
    if core == "peer" {
        if let Some(p) = std::env::var_os("BENCH_Z80_PEER_BIN") {
            return PathBuf::from(p);
        }
    }
    dir.join(format!("bench-z80-{core}{}", std::env::consts::EXE_SUFFIX))
}

/// Builds the two benchmark binaries (release) and returns the folder they are in.
fn build() -> Result<PathBuf> {
    build_binaries(&["bench-z80-ours", "bench-z80-peer"])
}

/// Builds xtask's binaries `bins` (release) and returns the folder they are in.
pub fn build_binaries(bins: &[&str]) -> Result<PathBuf> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--quiet", "--release", "--package", "xtask"])
        .args(bins.iter().flat_map(|b| ["--bin", b]))
        .status()
        .context("running cargo build for the benchmark binaries")?;
    ensure!(status.success(), "building the benchmark binaries failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::asm::workspace_root().join("target"));
    Ok(target.join("release"))
}

fn run_binary(dir: &std::path::Path, core: &str, workload: &str, loops: u16) -> Result<Reported> {
    let stdout = run_report(
        &binary(dir, core),
        &[workload, &loops.to_string()],
        &format!("{core} on {workload}"),
    )?;
    Reported::from_output(core, workload, &stdout)
}

/// Runs a benchmark binary and returns what it printed; a failure names `what` and carries
/// the binary's own message. Shared by `bench-z80` and `bench-machine`.
pub fn run_report(exe: &std::path::Path, args: &[&str], what: &str) -> Result<String> {
    let out = Command::new(exe)
        .args(args)
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        bail!(
            "{what}: {}{}",
            String::from_utf8_lossy(&out.stderr).trim(),
            stdout.trim()
        );
    }
    Ok(stdout)
}

/// The workloads `BENCH_Z80_WORKLOADS` chooses (all by default).
fn chosen_workloads() -> Result<Vec<String>> {
    let chosen: Vec<String> = match std::env::var("BENCH_Z80_WORKLOADS") {
        Ok(v) => v.split(',').map(|s| s.trim().to_string()).collect(),
        Err(_) => work::WORKLOADS.iter().map(|s| s.to_string()).collect(),
    };
    for w in &chosen {
        ensure!(
            work::WORKLOADS.contains(&w.as_str()),
            "BENCH_Z80_WORKLOADS: unknown workload {w}; known: {:?}",
            work::WORKLOADS
        );
    }
    Ok(chosen)
}

/// Passes per workload under callgrind (about 50 times slower than a native run): 20 of mix,
/// 1 of the exerciser, 100 of tios, as `docs/performance.md` has measured since the suite began.
pub fn instruction_loops(workload: &str) -> u16 {
    match workload {
        "mix" => 20,
        "exerciser" => 1,
        _ => 100,
    }
}

/// The count callgrind prints last on stderr (`==PID== Collected : 86951796`).
fn collected_instructions(stderr: &str) -> Option<u64> {
    stderr.lines().rev().find_map(|l| {
        l.split_once("Collected :")
            .map(|(_, n)| n.trim().parse().ok())
    })?
}

/// Runs `program args` under callgrind, collecting only inside the functions `toggles` names
/// (`--toggle-collect` patterns), with `env` set. Returns the instructions collected and the
/// program's stdout; `what` names the run in errors. Shared by `bench-z80 --instructions` and
/// `bench-machine --instructions`.
pub fn callgrind_count(
    program: &std::path::Path,
    args: &[&str],
    toggles: &[&str],
    env: &[(&str, &str)],
    what: &str,
) -> Result<(u64, String)> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .args(toggles.iter().map(|t| format!("--toggle-collect={t}")))
        .arg(program)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .context(
            "running valgrind (install it, e.g. `apt-get install valgrind`, for --instructions)",
        )?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    ensure!(
        out.status.success(),
        "{what} under callgrind: {}{}",
        stderr.trim(),
        stdout.trim()
    );
    let n = collected_instructions(&stderr)
        .with_context(|| format!("{what}: no instruction count from callgrind"))?;
    ensure!(
        n > 0,
        "{what}: callgrind counted nothing in {toggles:?} (inlined?)"
    );
    Ok((n, stdout))
}

/// Host instructions of one run of `workload` on `core` under callgrind, and what it reported.
fn count_instructions(
    dir: &std::path::Path,
    core: &str,
    workload: &str,
    loops: u16,
) -> Result<(u64, Reported)> {
    let what = format!("{core} on {workload}");
    let (n, stdout) = callgrind_count(
        &binary(dir, core),
        &[workload, &loops.to_string()],
        &["*::run_flat", "*::run_machine"],
        &[],
        &what,
    )?;
    Ok((n, Reported::from_output(core, workload, &stdout)?))
}

/// How each core is driven (the child binaries inherit `BENCH_Z80_OURS_STEP`).
fn drivers() -> &'static str {
    if std::env::var_os("BENCH_Z80_OURS_STEP").is_some() {
        "ours runs through step (BENCH_Z80_OURS_STEP), one call per instruction, as the peer does"
    } else {
        "ours runs through its run loop (Cpu::run_until_halt), the peer through step, its only way to run (BENCH_Z80_OURS_STEP=1: ours through step too)"
    }
}

/// `cargo xtask bench-z80 --instructions`: host instructions of each core per workload.
pub fn run_instructions() -> Result<()> {
    let chosen = chosen_workloads()?;
    let dir = build()?;
    println!("bench-z80 --instructions: host instructions under callgrind, one run per core and workload, each core in its own binary");
    println!("{}", drivers());
    let mut worst: Option<(f64, String)> = None;
    for w in &chosen {
        let loops = loops_for(instruction_loops(w))?;
        let (ours, a) = count_instructions(&dir, "ours", w, loops)?;
        let (peer, b) = count_instructions(&dir, "peer", w, loops)?;
        a.ensure_same_end(&b, &format!("{w}: the two cores"))?;
        let ratio = peer as f64 / ours as f64;
        println!(
            "{w}: passes {loops}, {} Z80 instructions; host instructions ours {:.2} M, peer {:.2} M; same end state; ratio peer/ours: {ratio:.3}",
            a.instructions,
            ours as f64 / 1e6,
            peer as f64 / 1e6
        );
        keep_worst(&mut worst, ratio, w);
    }
    if let Some((r, w)) = worst {
        println!("host-instruction ratio peer/ours (worst workload): {r:.3}  ({w})");
    }
    Ok(())
}

pub fn run() -> Result<()> {
    let rounds: usize = env_number("BENCH_Z80_ROUNDS", DEFAULT_ROUNDS)?;
    ensure!(rounds > 0, "BENCH_Z80_ROUNDS must be positive");
    let chosen = chosen_workloads()?;
    let dir = build()?;
    println!("bench-z80: {rounds} rounds per core and workload, alternating, each core in its own binary");
    println!("{}", drivers());
    if std::env::var_os("BENCH_Z80_PEER_BIN").is_some() {
        let peer_bin = binary(&dir, "peer");
        ensure!(
            peer_bin.is_file(),
            "BENCH_Z80_PEER_BIN={}: no such file",
            peer_bin.display()
        );
        println!(
            "peer: {} (BENCH_Z80_PEER_BIN), in place of the z80 crate",
            peer_bin.display()
        );
    }
    let mut worst: Option<(f64, String)> = None;
    // The worst workload by the paired median.
    let mut worst_paired: Option<(RoundStats, String)> = None;
    for w in &chosen {
        let loops = loops_for(work::default_loops(w))?;
        let mut reference: Option<Reported> = None;
        let (mut ours, mut peer) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            // Alternate which core goes first, too.
            let order = if round % 2 == 0 {
                ["ours", "peer"]
            } else {
                ["peer", "ours"]
            };
            for core in order {
                let r = run_binary(&dir, core, w, loops)?;
                match &reference {
                    None => println!(
                        "{w}: {loops} passes, {} instructions, {} T-states; {}",
                        r.instructions, r.t_states, r.summary
                    ),
                    Some(first) => {
                        r.ensure_same_end(first, &format!("{w}: {core} and the first run"))?
                    }
                }
                if core == "ours" { &mut ours } else { &mut peer }.push(r.mhz());
                reference.get_or_insert(r);
            }
        }
        let ratio = median(&ours) / median(&peer);
        let stats = RoundStats::of(&round_ratios(&ours, &peer));
        let shown = match stats.interval {
            Some((lo, hi, _)) => format!(" [95 % interval {lo:.2}-{hi:.2}]"),
            None => String::new(),
        };
        println!(
            "{w}: ours {:.1} MHz, peer {:.1} MHz (medians); same end state every run; ratio ours/peer: {ratio:.2} (single rounds: median {:.2}{shown}, range {:.2}-{:.2})",
            median(&ours),
            median(&peer),
            stats.median,
            stats.low,
            stats.high
        );
        keep_worst(&mut worst, ratio, w);
        if worst_paired
            .as_ref()
            .is_none_or(|(s, _)| stats.median < s.median)
        {
            worst_paired = Some((stats, w.clone()));
        }
    }
    if let Some((stats, w)) = worst_paired {
        println!(
            "single rounds, worst workload ({w}): {}",
            stats.describe(rounds, GOAL, 2)
        );
    }
    if let Some((r, w)) = worst {
        println!("ratio ours/peer (worst workload): {r:.2}  ({w})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{z80_ours, z80_peer};

    #[test]
    fn both_cores_agree_on_short_runs_of_every_workload() {
        for (w, loops) in [("mix", 2), ("exerciser", 1), ("tios", 20)] {
            let (_, b) = z80_peer::run(w, loops);
            work::check(w, b.checked_memory(w), loops).unwrap();
            // Ours as the benchmark drives it (its run loop unless BENCH_Z80_OURS_STEP is set)
            // and through `step`: the same end state as the peer.
            let ours = [
                (z80_ours::Driver::from_env(), z80_ours::run(w, loops).1),
                (
                    z80_ours::Driver::Step,
                    z80_ours::run_driven(w, loops, z80_ours::Driver::Step).1,
                ),
            ];
            for (driver, a) in ours {
                work::check(w, a.checked_memory(w), loops).unwrap();
                assert_eq!(
                    (a.t_states, a.instructions),
                    (b.t_states, b.instructions),
                    "{w} {driver:?}"
                );
                assert_eq!(a.digest(), b.digest(), "{w} {driver:?}");
            }
        }
    }

    #[test]
    fn the_reference_values_are_right() {
        assert_eq!(work::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(work::primes_below(2048), 309);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        // Rounds pair the two cores' runs: 2/1, 3/4 and 3/2.
        let stats = RoundStats::of(&round_ratios(&[2.0, 3.0, 3.0], &[1.0, 4.0, 2.0]));
        assert_eq!(
            (stats.median, stats.low, stats.high, stats.interval),
            (1.5, 0.75, 2.0, None)
        );
    }

    #[test]
    fn median_intervals_use_the_tabulated_ranks() {
        // Ranks of the 95 % distribution-free interval for a median as tabulated in
        // nonparametric statistics texts (e.g. Conover, Practical Nonparametric Statistics,
        // table of binomial confidence limits for quantiles; Hollander and Wolfe): n = 6: 1
        // and 6; 8: 1 and 8; 9: 2 and 8; 10: 2 and 9; 15: 4 and 12; 18: 5 and 14; 20: 6 and 15
        // (8 and 18 are where a 90 % interval would take narrower ranks).
        for (n, k) in [(6, 1), (8, 1), (9, 2), (10, 2), (15, 4), (18, 5), (20, 6)] {
            // Values 1..=n shuffled: the interval is the k-th smallest and k-th largest.
            let v: Vec<f64> = (0..n).map(|i| ((i * 7) % n + 1) as f64).collect();
            assert_eq!(
                median_interval(&v),
                Some((k as f64, (n + 1 - k) as f64, k)),
                "n = {n}"
            );
        }
        assert_eq!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), None);
        assert!(verdict(GOAL, 1.5, 1.7).starts_with("goal 1.50 met"));
        assert!(verdict(GOAL, 1.3, 1.49).starts_with("goal 1.50 missed"));
        assert!(verdict(GOAL, 1.45, 1.55).starts_with("goal 1.50 not resolved"));
        // The line both benchmarks print: 15 rounds take ranks 4 and 12.
        let v: Vec<f64> = (1..=15).map(|i| 1.0 + f64::from(i) / 100.0).collect();
        assert_eq!(
            RoundStats::of(&v).describe(15, GOAL, 2),
            "median 1.08, 95 % interval 1.04-1.12 (ranks 4 and 12 of 15), range 1.01-1.15; \
             goal 1.50 missed: the whole interval is below it"
        );
    }

    #[test]
    fn runs_in_different_end_states_are_refused() {
        let run = |t_states, digest: &str| Reported {
            secs: 1.0,
            t_states,
            instructions: 3,
            digest: digest.into(),
            summary: String::new(),
        };
        assert!(run(10, "ab").ensure_same_end(&run(10, "ab"), "x").is_ok());
        let err = run(10, "ab").ensure_same_end(&run(11, "ab"), "mix: ours and peer");
        assert!(format!("{:#}", err.unwrap_err())
            .contains("mix: ours and peer ended in different states (T-states 10 vs 11"));
        assert!(run(10, "ab").ensure_same_end(&run(10, "ac"), "x").is_err());
    }

    #[test]
    fn callgrind_counts_are_read_from_its_summary() {
        let stderr = "==1== Callgrind, a call-graph generating cache profiler\n==1== \n\
                      ==1== Events    : Ir\n==1== Collected : 86951796\n==1== \n\
                      ==1== I   refs:      86,951,796\n";
        assert_eq!(collected_instructions(stderr), Some(86_951_796));
        assert_eq!(collected_instructions("==1== no summary\n"), None);
    }

    #[test]
    fn report_lines_round_trip() {
        let end = work::EndState {
            t_states: 10,
            instructions: 3,
            regs: [0; 4],
            memory: vec![1, 2],
        };
        let r = Reported::parse(&work::report(0.5, &end, "a b")).unwrap();
        assert_eq!(
            (r.t_states, r.instructions, r.summary.as_str()),
            (10, 3, "a b")
        );
        assert_eq!(r.digest, format!("{:016x}", end.digest()));
        assert!(Reported::parse("error").is_none());
    }
}
