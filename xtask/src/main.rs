//! `cargo xtask ...`: the project's chores. Each command lives in its own module.

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

mod asm;
mod bench;
mod bench_basic;
mod bench_conformance;
mod bench_debugger;
mod bench_idle;
mod bench_idle_window;
mod bench_link;
mod bench_machine;
mod bench_solver;
mod calibrate;
mod cpm;
mod fuse;
mod fuzz;
mod machine_parts;
mod modules;
mod programs;
mod suite;
#[path = "z80work.rs"]
mod work;
#[cfg(test)]
mod z80_ours;
#[cfg(test)]
mod z80_peer;

#[derive(Parser)]
#[command(name = "xtask", about = "Project chores for the ti82 emulator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every SingleStepTests Z80 JSON file in DIR against the core.
    Z80Suite {
        dir: PathBuf,
        /// Also compare the per-T-state bus trace and report the match rate.
        #[arg(long)]
        bus: bool,
    },
    /// Run Fuse's tests.in against tests.expected in DIR.
    Fuse { dir: PathBuf },
    /// Run a CP/M .COM program on the core (BDOS 2 and 9), printing its output.
    Cpm { file: PathBuf },
    /// Benchmark the core against the published `z80` crate on a suite of workloads.
    BenchZ80 {
        /// Count host instructions under callgrind (valgrind) instead of timing the runs: a
        /// figure the host's load cannot move.
        #[arg(long)]
        instructions: bool,
    },
    /// Benchmark the built-in TI-BASIC runtime against real-TI-82 time.
    BenchBasic,
    /// Verified MANCALA games per second, HUMAN VS HUMAN and CALC VS CALC, on every core.
    BenchConformance,
    /// Time the published real-calculator programs on the runtime and compare (worst ratio
    /// last); `--write` regenerates the calibration section of docs/tibasic.md.
    Calibrate {
        #[arg(long)]
        write: bool,
    },
    /// Benchmark the whole TI-82 machine against the bare core on the same workload.
    BenchMachine {
        /// Count host instructions of each part under callgrind (valgrind) instead of timing
        /// rounds: a figure the host's load cannot move.
        #[arg(long)]
        instructions: bool,
    },
    /// CALC VS CALC between two processes over the network cable at several link delays.
    BenchLink,
    /// CPU time of idle calculators at real speed: alone, linked directly, through a relay.
    BenchIdleLink,
    /// What an attached debugger costs: TI-BASIC and Z80 speed against detached.
    BenchDebugger,
    /// The module graph of every crate, read from the sources: its cycles (docs/layout.md).
    Modules {
        /// Fail when a cycle remains.
        #[arg(long)]
        check: bool,
        /// Also list the files over 800 lines.
        #[arg(long)]
        files: bool,
    },
    /// CPU time of the window at rest (MANCALA's main menu, real speed).
    BenchIdleWindow,
    /// Benchmark the exact MANCALA solver: nodes per second and the largest board solved.
    BenchSolver {
        /// Rule sets to solve (`kalah-standard:6x4`, `ti82:5`, ...); default: a run of six
        /// boards up to Kalah(4,6) that takes well under a minute.
        boards: Vec<String>,
        /// Transposition table size: 2^BITS entries of 16 bytes.
        #[arg(long)]
        table_bits: Option<u8>,
        /// Give up on a board after this many nodes.
        #[arg(long, default_value_t = 1_000_000_000)]
        max_nodes: u64,
    },
    /// Reassemble the project's Z80 test and benchmark programs (needs z80asm).
    TestRoms {
        /// Only check that the committed bytes match their sources; write nothing.
        #[arg(long)]
        check: bool,
    },
    /// Fuzz every boundary where outside data enters (or one TARGET) for --time seconds
    /// each, every target in its own process; findings are saved under xtask/fuzz/crashes.
    Fuzz {
        /// One target (default: all); `--list` names them.
        target: Option<String>,
        /// Seconds per target.
        #[arg(long, default_value_t = 60)]
        time: u64,
        /// Seed of the deterministic mutation.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The fuzzer: libFuzzer (coverage-guided, instrumented build) or the built-in
        /// mutation loop.
        #[arg(long, value_enum, default_value_t = fuzz::Engine::Libfuzzer)]
        engine: fuzz::Engine,
        /// List the targets and what each covers.
        #[arg(long)]
        list: bool,
        /// Internal: run one target in this process.
        #[arg(long, hide = true)]
        child: bool,
        /// Internal: write each input to this file before running it.
        #[arg(long, hide = true)]
        record: Option<PathBuf>,
    },
    /// Tokenize programs/MANBOARD.txt and programs/MANCALA.txt into their .82p files.
    BuildPrograms {
        /// Only check that the committed .82p files match a fresh build; write nothing.
        #[arg(long)]
        check: bool,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Z80Suite { dir, bus } => suite::run(&dir, bus),
        Command::Fuse { dir } => fuse::run(&dir),
        Command::Cpm { file } => cpm::run(&file),
        Command::BenchZ80 { instructions } => {
            if instructions {
                bench::run_instructions()
            } else {
                bench::run()
            }
        }
        Command::BenchMachine { instructions } => {
            if instructions {
                bench_machine::run_instructions()
            } else {
                bench_machine::run()
            }
        }
        Command::BenchBasic => bench_basic::run(),
        Command::BenchConformance => bench_conformance::run(),
        Command::Calibrate { write } => calibrate::run(write),
        Command::BenchLink => bench_link::run(),
        Command::BenchIdleLink => bench_idle::run(),
        Command::BenchDebugger => bench_debugger::run(),
        Command::Modules { check, files } => modules::run(check, files),
        Command::BenchIdleWindow => bench_idle_window::run(),
        Command::BenchSolver {
            boards,
            table_bits,
            max_nodes,
        } => bench_solver::run(&boards, table_bits, max_nodes),
        Command::TestRoms { check } => asm::run(check),
        Command::BuildPrograms { check } => programs::run(check),
        Command::Fuzz {
            target,
            time,
            seed,
            engine,
            list,
            child,
            record,
        } => {
            if list {
                for t in fuzz::targets() {
                    println!("{:<14} {}", t.name, t.covers);
                }
                Ok(())
            } else if child {
                fuzz::child(target.as_deref().unwrap_or(""), time, seed, record)
            } else {
                fuzz::run(target.as_deref(), time, seed, engine)
            }
        }
    }
}
