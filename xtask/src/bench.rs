//! `cargo xtask bench-z80`: our core against the published `z80` crate (v2) on one workload.
//!
//! The workload is `tests/z80/bench.asm` (assembled into `bench.bin`, embedded below): CRC-32
//! (bitwise and table-driven), a prime sieve, LDIR/LDDR/CPIR, 16-bit arithmetic, recursive
//! calls, IX/IY-indexed and CB/DDCB operations, looped so one run is about 10^9 T-states, then
//! HALT. Both cores run the same 64 KiB image on a flat RAM bus (ports read FFh) with a plain
//! `step` loop until HALT. Rounds alternate (ours, peer, ours, peer, ...) so a noisy machine
//! hurts both alike; every run must end in the same memory image, registers and T-state
//! count, and the program's results are checked against Rust computations of the same
//! values, so both cores provably did the same work.
//!
//! The last line is `ratio ours/peer: R`, the ratio of the median emulated MHz.
//!
//! Environment knobs (for profiling, e.g. under callgrind): `BENCH_Z80_LOOPS` (passes of the
//! program's main loop, default [`DEFAULT_LOOPS`]), `BENCH_Z80_ROUNDS` (runs per core,
//! default [`DEFAULT_ROUNDS`]) and `BENCH_Z80_ONLY` (`ours` or `peer`: run one core only).

use anyhow::{bail, ensure, Context, Result};
use std::time::Instant;
use z80::Cpu;

use crate::cpm::FlatBus;

/// The assembled workload (`cargo xtask test-roms` rebuilds it from bench.asm).
const IMAGE: &[u8] = include_bytes!("../../tests/z80/bench.bin");
/// Address of the pass count word (`LOOPS` in bench.asm).
const LOOPS_ADDR: usize = 0x0003;
/// About 10^9 T-states in all (each pass is about 1.04 million).
pub const DEFAULT_LOOPS: u16 = 960;
pub const DEFAULT_ROUNDS: usize = 5;

// Addresses from bench.asm.
const BUF: usize = 0x9000;
const BUFLEN: usize = 1024;
const RESULTS: usize = 0x7F00;
const CRC: usize = RESULTS;
const BITCRC: usize = RESULTS + 4;
const PRIMES: usize = RESULTS + 12;
const FIB: usize = RESULTS + 14;
const DONE: usize = RESULTS + 20;

type Memory = Box<[u8; 0x10000]>;
/// Runs one core on a memory image until HALT.
type Runner = fn(Memory) -> Run;

fn memory(loops: u16) -> Memory {
    let mut mem: Memory = vec![0u8; 0x10000]
        .into_boxed_slice()
        .try_into()
        .expect("64 KiB");
    mem[..IMAGE.len()].copy_from_slice(IMAGE);
    mem[LOOPS_ADDR..LOOPS_ADDR + 2].copy_from_slice(&loops.to_le_bytes());
    mem
}

/// Flat RAM for the peer (its trait's default ports read FFh).
struct PeerBus {
    mem: Memory,
}

impl peer_z80::Z80_io for PeerBus {
    #[inline(always)]
    fn read_byte(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
}

/// The end state of one run.
struct Run {
    secs: f64,
    t_states: u64,
    instructions: u64,
    mem: Memory,
    regs: [u16; 4],
}

impl Run {
    fn mhz(&self) -> f64 {
        self.t_states as f64 / self.secs / 1e6
    }
}

#[inline(never)]
fn run_ours(mem: Memory) -> Run {
    let mut bus = FlatBus { mem };
    let mut cpu = Cpu::new();
    let mut instructions = 0u64;
    let start = Instant::now();
    while !cpu.halted {
        cpu.step(&mut bus);
        instructions += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    Run {
        secs,
        t_states: cpu.t,
        instructions,
        mem: bus.mem,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
    }
}

#[inline(never)]
fn run_peer(mem: Memory) -> Run {
    let mut bus = PeerBus { mem };
    let mut cpu = peer_z80::Z80::new();
    cpu.init();
    let mut t_states = 0u64;
    let mut instructions = 0u64;
    let start = Instant::now();
    while !cpu.halted {
        t_states += cpu.step(&mut bus) as u64;
        instructions += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    Run {
        secs,
        t_states,
        instructions,
        mem: bus.mem,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
    }
}

/// CRC-32 (IEEE, reflected), bit by bit like the Z80 program.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn primes_below(n: usize) -> u16 {
    let mut composite = vec![false; n];
    let mut count = 0;
    for p in 2..n {
        if !composite[p] {
            count += 1;
            for m in (2 * p..n).step_by(p) {
                composite[m] = true;
            }
        }
    }
    count
}

fn word(mem: &[u8], addr: usize) -> u16 {
    u16::from_le_bytes([mem[addr], mem[addr + 1]])
}

fn dword(mem: &[u8], addr: usize) -> u32 {
    u32::from_le_bytes(mem[addr..addr + 4].try_into().unwrap())
}

/// Checks that `run` finished the workload with the right results.
fn check_results(core: &str, run: &Run) -> Result<()> {
    let mem = &run.mem[..];
    ensure!(
        mem[DONE] == 0xA5,
        "{core}: the workload did not finish (HALT at {:04X}h)",
        run.regs[0].wrapping_sub(1)
    );
    let want = crc32(&mem[BUF..BUF + BUFLEN]);
    ensure!(
        dword(mem, CRC) == want,
        "{core}: table CRC-32 {:08X}, expected {want:08X}",
        dword(mem, CRC)
    );
    let want = crc32(&mem[BUF..BUF + 256]);
    ensure!(
        dword(mem, BITCRC) == want,
        "{core}: bitwise CRC-32 {:08X}, expected {want:08X}",
        dword(mem, BITCRC)
    );
    let want = primes_below(2048);
    ensure!(
        word(mem, PRIMES) == want,
        "{core}: {} primes below 2048, expected {want}",
        word(mem, PRIMES)
    );
    ensure!(
        word(mem, FIB) == 377,
        "{core}: fib(14) = {}, expected 377",
        word(mem, FIB)
    );
    Ok(())
}

/// Checks that two runs ended in the same state.
fn check_same(what: &str, a: &Run, b: &Run) -> Result<()> {
    if let Some(addr) = (0..0x10000).find(|&i| a.mem[i] != b.mem[i]) {
        bail!(
            "{what}: memory differs first at {addr:04X}h ({:02X} vs {:02X})",
            a.mem[addr],
            b.mem[addr]
        );
    }
    ensure!(
        a.regs == b.regs,
        "{what}: PC/SP/IX/IY differ: {:04X?} vs {:04X?}",
        a.regs,
        b.regs
    );
    ensure!(
        a.t_states == b.t_states,
        "{what}: T-states differ: {} vs {}",
        a.t_states,
        b.t_states
    );
    ensure!(
        a.instructions == b.instructions,
        "{what}: instruction counts differ: {} vs {}",
        a.instructions,
        b.instructions
    );
    Ok(())
}

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> Result<T> {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .ok()
            .with_context(|| format!("{name}={v} is not a valid number")),
        Err(_) => Ok(default),
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn run() -> Result<()> {
    let loops: u16 = env_number("BENCH_Z80_LOOPS", DEFAULT_LOOPS)?;
    let rounds: usize = env_number("BENCH_Z80_ROUNDS", DEFAULT_ROUNDS)?;
    ensure!(
        loops > 0 && rounds > 0,
        "BENCH_Z80_LOOPS and BENCH_Z80_ROUNDS must be positive"
    );
    let only = std::env::var("BENCH_Z80_ONLY").unwrap_or_default();
    let (do_ours, do_peer) = match only.as_str() {
        "" => (true, true),
        "ours" => (true, false),
        "peer" => (false, true),
        other => bail!("BENCH_Z80_ONLY={other}: expected `ours` or `peer`"),
    };
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; run `cargo xtask bench-z80` (release) for real figures");
    }
    println!(
        "bench-z80: tests/z80/bench.bin, {loops} passes, {rounds} rounds per core, alternating"
    );

    let mut reference: Option<Run> = None;
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let cores: [(&str, bool, Runner); 2] =
            [("ours", do_ours, run_ours), ("peer", do_peer, run_peer)];
        for (name, enabled, runner) in cores {
            if !enabled {
                continue;
            }
            let run = runner(memory(loops));
            check_results(name, &run)?;
            match &reference {
                None => {
                    println!(
                        "each run: {} instructions, {} T-states; results check out",
                        run.instructions, run.t_states
                    );
                }
                Some(r) => check_same(&format!("{name} round {round}"), r, &run)?,
            }
            println!(
                "round {round}  {name}  {:8.1} MHz  ({:.3} s)",
                run.mhz(),
                run.secs
            );
            if name == "ours" { &mut ours } else { &mut peer }.push(run.mhz());
            reference.get_or_insert(run);
        }
    }
    let best = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    for (name, v) in [("ours", &ours), ("peer", &peer)] {
        if !v.is_empty() {
            println!(
                "{name}: best {:.1} MHz, median {:.1} MHz",
                best(v),
                median(v)
            );
        }
    }
    if do_ours && do_peer {
        println!("both cores ended in the same memory, registers and T-state count");
        // On a busy machine the best rounds are the least disturbed ones.
        println!("ratio of the best rounds: {:.2}", best(&ours) / best(&peer));
        println!("ratio ours/peer: {:.2}", median(&ours) / median(&peer));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_cores_agree_on_a_short_run() {
        let a = run_ours(memory(2));
        let b = run_peer(memory(2));
        check_results("ours", &a).unwrap();
        check_results("peer", &b).unwrap();
        check_same("ours vs peer", &a, &b).unwrap();
    }

    #[test]
    fn the_reference_values_are_right() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(primes_below(2048), 309);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    }
}
