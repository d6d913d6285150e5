//! The coverage-guided engine: libFuzzer (through `libfuzzer-sys`, the rust-fuzz project's
//! binding that cargo-fuzz uses) over the same targets, seeds and finding folders as the
//! mutation engine.
//!
//! `build` compiles `xtask/src/bin/fuzz-libfuzzer.rs` once for all targets with LLVM's
//! SanitizerCoverage (8-bit edge counters, the PC table and comparison tracing: libFuzzer's
//! feedback), in the `fuzz` profile (release speed, plus overflow checks and debug
//! assertions a fuzzer should trip). No sanitizer: those need a nightly compiler. `--target`
//! is passed explicitly so the instrumentation flags reach the project's code but not the
//! build scripts and proc macros, which run on the host uninstrumented (cargo-fuzz does the
//! same).
//!
//! `run_target` starts the binary on one target: a working corpus under
//! `target/libfuzzer/corpus/TARGET/` (kept between runs, so coverage accumulates; the
//! target's seeds are written into it first), read-only seed folders `xtask/fuzz/corpus/
//! TARGET/` and `xtask/fuzz/crashes/TARGET/`, and libFuzzer's artifacts (a panic, which
//! libfuzzer-sys turns into an abort; a stack overflow; a timeout; running out of memory)
//! moved into `xtask/fuzz/crashes/TARGET/`, where `cargo test -p xtask` replays them.
//!
//! libFuzzer's signal handlers run on the faulting thread's stack, so a stack overflow kills
//! it without an artifact. Then the run is replayed: the same seed from a copy of the working
//! corpus as it was at the start (libFuzzer is deterministic for a seed, a corpus and a
//! deterministic target), with every input written to a file before it runs; the input
//! that kills the replay is the finding.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::{dir, files_in, root, save_crash, Outcome, Target};

/// SanitizerCoverage options, as cargo-fuzz passes them for `--sanitizer none`.
const COVERAGE_FLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
];

/// One input may run this long before libFuzzer calls it a hang (the slowest targets run a
/// few emulated seconds of a calculator per input, well under a second of host time).
const INPUT_TIMEOUT_S: u64 = 30;

fn host_triple() -> Result<String> {
    let out = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .context("running rustc -vV")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .context("rustc -vV printed no host triple")
}

/// The instrumented build's target folder.
fn build_dir() -> PathBuf {
    root().join("target").join("libfuzzer")
}

/// Working corpora, artifacts and logs (tests of the driver use a folder of their own).
fn work_dir() -> PathBuf {
    std::env::var_os("XTASK_FUZZ_WORK").map_or_else(build_dir, PathBuf::from)
}

/// Builds the instrumented target binary and returns its path.
pub(super) fn build() -> Result<PathBuf> {
    let host = host_triple()?;
    let target_dir = build_dir();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("building the libFuzzer targets (instrumented, profile `fuzz`)...");
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--profile",
            "fuzz",
            "--package",
            "xtask",
            "--bin",
            "fuzz-libfuzzer",
            "--features",
            "libfuzzer",
            "--target",
            &host,
            "--target-dir",
        ])
        .arg(&target_dir)
        .env("RUSTFLAGS", COVERAGE_FLAGS.join(" "))
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .current_dir(root())
        .status()
        .context("running cargo build for the libFuzzer targets")?;
    if !status.success() {
        bail!("building the libFuzzer targets failed ({status}); a C++ compiler is needed for libFuzzer itself");
    }
    Ok(target_dir.join(host).join("fuzz").join("fuzz-libfuzzer"))
}

/// What libFuzzer's final statistics and status lines say.
#[derive(Debug, Default, PartialEq)]
pub struct Stats {
    pub execs: u64,
    /// Edges covered (`cov:` of the last status line).
    pub coverage: Option<u64>,
    /// Inputs added to the working corpus in this run.
    pub new_units: Option<u64>,
}

pub fn parse_stats(log: &str) -> Stats {
    let mut s = Stats::default();
    for line in log.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("stat::number_of_executed_units:") => {
                s.execs = words.next().and_then(|n| n.parse().ok()).unwrap_or(0)
            }
            Some("stat::new_units_added:") => {
                s.new_units = words.next().and_then(|n| n.parse().ok())
            }
            Some(w) if w.starts_with('#') => {
                let mut it = line.split_whitespace();
                while let Some(w) = it.next() {
                    if w == "cov:" {
                        if let Some(n) = it.next().and_then(|n| n.parse().ok()) {
                            s.coverage = Some(n);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    s
}

fn write_seeds(t: &Target, corpus: &Path) -> Result<()> {
    std::fs::create_dir_all(corpus)
        .with_context(|| format!("{}: cannot create", corpus.display()))?;
    for s in (t.seeds)() {
        let p = corpus.join(format!("seed-{:016x}", ti82_machine::state::fnv1a(&s)));
        if !p.exists() {
            std::fs::write(&p, &s).with_context(|| format!("{}: cannot write", p.display()))?;
        }
    }
    Ok(())
}

/// A fresh copy of `from` in `to` (hard links where the file system allows).
fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).with_context(|| format!("{}: cannot create", to.display()))?;
    for (p, bytes) in files_in(from) {
        let dest = to.join(p.file_name().unwrap_or_default());
        if std::fs::hard_link(&p, &dest).is_err() {
            std::fs::write(&dest, bytes)
                .with_context(|| format!("{}: cannot write", dest.display()))?;
        }
    }
    Ok(())
}

struct Launch<'a> {
    bin: &'a Path,
    target: &'a Target,
    secs: u64,
    seed: u64,
    corpus: &'a Path,
    artifacts: &'a Path,
    log: &'a Path,
    record: Option<&'a Path>,
}

/// Runs libFuzzer once; `None` if it had to be killed.
fn launch(l: &Launch) -> Result<Option<std::process::ExitStatus>> {
    let t = l.target;
    let _ = std::fs::remove_dir_all(l.artifacts);
    std::fs::create_dir_all(l.artifacts)
        .with_context(|| format!("{}: cannot create", l.artifacts.display()))?;
    let log = std::fs::File::create(l.log)
        .with_context(|| format!("{}: cannot create", l.log.display()))?;
    let mut cmd = Command::new(l.bin);
    if let Some(r) = l.record {
        cmd.env("TI82_FUZZ_RECORD", r);
    }
    let (secs, seed, corpus, artifacts) = (l.secs, l.seed, l.corpus, l.artifacts);
    cmd.env("TI82_FUZZ_TARGET", t.name)
        .arg(corpus)
        .args(
            [dir("corpus", t.name), dir("crashes", t.name)]
                .into_iter()
                .filter(|d| d.is_dir()),
        )
        .arg(format!("-max_total_time={secs}"))
        // libFuzzer's seed is 32 bits and 0 means "from the clock".
        .arg(format!("-seed={}", (seed % u32::MAX as u64).max(1)))
        .arg(format!("-max_len={}", t.max_len))
        .arg(format!("-timeout={INPUT_TIMEOUT_S}"))
        .arg("-rss_limit_mb=2048")
        .arg("-report_slow_units=1000000")
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .stdout(Stdio::null())
        .stderr(log);
    let mut child = cmd
        .spawn()
        .with_context(|| format!("{}: cannot start", l.bin.display()))?;
    // libFuzzer stops itself; this only guards against the engine itself hanging.
    let deadline = Instant::now() + Duration::from_secs(secs + INPUT_TIMEOUT_S + 120);
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(Some(s));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Moves libFuzzer's artifacts into the crash folder; the first one saved.
fn collect(t: &Target, artifacts: &Path) -> Result<Option<PathBuf>> {
    let mut finding = None;
    for (p, bytes) in files_in(artifacts) {
        let saved = save_crash(t.name, &bytes)?;
        let _ = std::fs::remove_file(&p);
        finding.get_or_insert(saved);
    }
    Ok(finding)
}

/// Runs one target for `secs` seconds; artifacts become findings in the crash folder.
pub(super) fn run_target(bin: &Path, t: &Target, secs: u64, seed: u64) -> Result<Outcome> {
    let work = work_dir();
    let corpus = work.join("corpus").join(t.name);
    write_seeds(t, &corpus)?;
    let start = work.join("start").join(t.name);
    copy_dir(&corpus, &start)?;
    let artifacts = work.join("artifacts").join(t.name);
    let log_path = work.join(format!("{}.log", t.name));
    let mut l = Launch {
        bin,
        target: t,
        secs,
        seed,
        corpus: &corpus,
        artifacts: &artifacts,
        log: &log_path,
        record: None,
    };
    let status = launch(&l)?;
    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
    let stats = parse_stats(&text);
    let mut finding = collect(t, &artifacts)?;
    match (status, &finding) {
        (Some(s), None) if s.success() => {}
        (_, Some(_)) => eprintln!("{}: {}", t.name, super::crash_report(&text, 8)),
        (s, None) => {
            let how = s.map_or("killed after hanging".to_string(), |s| s.to_string());
            eprintln!(
                "{}: libFuzzer died without an artifact ({how}); replaying to save the input\n{}",
                t.name,
                super::crash_report(&text, 8)
            );
            let replay = work.join("replay").join(t.name);
            copy_dir(&start, &replay)?;
            let last = work.join(format!("{}.last", t.name));
            let _ = std::fs::remove_file(&last);
            let replay_log = work.join(format!("{}.replay.log", t.name));
            l.secs = secs + 30;
            l.corpus = &replay;
            l.log = &replay_log;
            l.record = Some(&last);
            let again = launch(&l)?;
            finding = collect(t, &artifacts)?;
            if finding.is_none() && !again.is_some_and(|s| s.success()) {
                if let Ok(input) = std::fs::read(&last) {
                    finding = Some(save_crash(t.name, &input)?);
                }
            }
            if finding.is_none() {
                bail!(
                    "{}: libFuzzer died ({how}) and the replay did not repeat it; logs: {} and {}",
                    t.name,
                    log_path.display(),
                    replay_log.display()
                );
            }
        }
    }
    Ok(Outcome {
        execs: stats.execs,
        finding,
        coverage: stats.coverage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_statistics_are_read() {
        let log = "INFO: Seed: 1\n#2\tINITED cov: 120 ft: 130 corp: 1/1b exec/s: 0 rss: 30Mb\n\
                   #4096\tpulse  cov: 150 ft: 190 corp: 5/20b lim: 43 exec/s: 2048 rss: 31Mb\n\
                   #9000\tDONE   cov: 161 ft: 200 corp: 7/30b lim: 90 exec/s: 3000 rss: 31Mb\n\
                   stat::number_of_executed_units: 9000\n\
                   stat::average_exec_per_sec:     3000\n\
                   stat::new_units_added:          6\n";
        assert_eq!(
            parse_stats(log),
            Stats {
                execs: 9000,
                coverage: Some(161),
                new_units: Some(6)
            }
        );
    }
}
