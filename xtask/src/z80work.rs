//! The workloads of `cargo xtask bench-z80`, shared by the two benchmark binaries (one per
//! core, so neither core's code changes the other's layout): images, pass counts, result
//! checks and the end-state digest. Nothing here names a core.

#![allow(dead_code)]

/// The workloads, in the order they are reported.
pub const WORKLOADS: [&str; 3] = ["mix", "exerciser", "tios"];

/// `tests/z80/bench.asm`: the mixed program (CRC-32s, sieve, block moves, calls, IX/IY).
pub const MIX: &[u8] = include_bytes!("../../tests/z80/bench.bin");
/// `tests/z80/exercise.asm`: every opcode group on pseudo-random states, CRC-32 of results.
pub const EXERCISE: &[u8] = include_bytes!("../../tests/z80/exercise.bin");
/// `tests/z80/tios.asm`: the TI-OS-like program run on the whole machine.
pub const TIOS: &[u8] = include_bytes!("../../tests/z80/tios.bin");

/// Address of the pass-count word in each program.
pub const LOOPS_ADDR: usize = 0x0003;

/// Default passes: about 10^9 T-states (mix), 5·10^8 (exerciser), 4.5·10^8 (tios).
pub fn default_loops(workload: &str) -> u16 {
    match workload {
        "mix" => 960,
        "exerciser" => 8,
        _ => 1000,
    }
}

/// A 64 KiB flat memory with `image` at 0000h and the pass count patched in.
pub fn flat_memory(image: &[u8], loops: u16) -> Box<[u8; 0x10000]> {
    let mut mem: Box<[u8; 0x10000]> = vec![0u8; 0x10000]
        .into_boxed_slice()
        .try_into()
        .expect("64 KiB");
    mem[..image.len()].copy_from_slice(image);
    mem[LOOPS_ADDR..LOOPS_ADDR + 2].copy_from_slice(&loops.to_le_bytes());
    mem
}

/// The 128 KiB ROM image of the tios workload: the program in page 0, pages 1-7 filled with
/// a pattern the program sums ([`rom_page_byte`]).
pub fn tios_rom(loops: u16) -> Vec<u8> {
    let mut rom = vec![0u8; 0x20000];
    rom[..TIOS.len()].copy_from_slice(TIOS);
    rom[LOOPS_ADDR..LOOPS_ADDR + 2].copy_from_slice(&loops.to_le_bytes());
    for (i, b) in rom.iter_mut().enumerate().skip(0x4000) {
        *b = rom_page_byte(i);
    }
    rom
}

fn rom_page_byte(offset: usize) -> u8 {
    (offset as u32).wrapping_mul(2_654_435_761).rotate_left(7) as u8
}

/// How one run ended: what both cores must agree on.
pub struct EndState {
    pub t_states: u64,
    pub instructions: u64,
    /// PC, SP, IX, IY.
    pub regs: [u16; 4],
    /// Memory (and for the machine: LCD RAM and port registers) as bytes.
    pub memory: Vec<u8>,
}

impl EndState {
    /// A 64-bit FNV-1a digest of everything that must match.
    pub fn digest(&self) -> u64 {
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        };
        for b in self.t_states.to_le_bytes() {
            eat(b)
        }
        for b in self.instructions.to_le_bytes() {
            eat(b)
        }
        for r in self.regs {
            for b in r.to_le_bytes() {
                eat(b)
            }
        }
        for &b in &self.memory {
            eat(b)
        }
        h
    }
}

fn word(mem: &[u8], addr: usize) -> u16 {
    u16::from_le_bytes([mem[addr], mem[addr + 1]])
}

fn dword(mem: &[u8], addr: usize) -> u32 {
    u32::from_le_bytes(mem[addr..addr + 4].try_into().expect("4 bytes"))
}

/// CRC-32 (IEEE, reflected), bit by bit like the Z80 programs.
pub fn crc32(data: &[u8]) -> u32 {
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

pub fn primes_below(n: usize) -> u16 {
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

/// Checks a finished run's results against values computed here, independently of the Z80
/// program. `memory` is the 64 KiB flat memory (mix, exerciser) or, for tios, the 32 KiB of
/// RAM at 8000h. Returns a one-line summary.
pub fn check(workload: &str, memory: &[u8], loops: u16) -> Result<String, String> {
    match workload {
        "mix" => {
            const BUF: usize = 0x9000;
            const R: usize = 0x7F00;
            if memory[R + 20] != 0xA5 {
                return Err("mix: the workload did not finish".into());
            }
            let want = crc32(&memory[BUF..BUF + 1024]);
            if dword(memory, R) != want {
                return Err(format!(
                    "mix: table CRC-32 {:08X}, expected {want:08X}",
                    dword(memory, R)
                ));
            }
            let want = crc32(&memory[BUF..BUF + 256]);
            if dword(memory, R + 4) != want {
                return Err(format!(
                    "mix: bitwise CRC-32 {:08X}, expected {want:08X}",
                    dword(memory, R + 4)
                ));
            }
            if word(memory, R + 12) != primes_below(2048) || word(memory, R + 14) != 377 {
                return Err("mix: primes or fib(14) wrong".into());
            }
            Ok(format!("CRC-32 {want:08X}, 309 primes, fib(14) = 377"))
        }
        "exerciser" => {
            if memory[0x7F04] != 0xA5 {
                return Err("exerciser: the workload did not finish".into());
            }
            // The exerciser's CRC has no independent value: it is what both cores must
            // agree on (compared through the end-state digest).
            Ok(format!(
                "CRC-32 of all results {:08X}",
                dword(memory, 0x7F00)
            ))
        }
        _ => {
            // RAM offset = address - 8000h.
            if memory[10] != 0xA5 {
                return Err("tios: the workload did not finish".into());
            }
            let ticks = word(memory, 0);
            if ticks == 0 {
                return Err("tios: no timer interrupt was taken".into());
            }
            let (wsum, rsum) = (word(memory, 4), word(memory, 6));
            if wsum != rsum {
                return Err(format!(
                    "tios: LCD column written with sum {wsum}, read back {rsum}"
                ));
            }
            if word(memory, 8) != 32 * loops {
                return Err(format!(
                    "tios: {} names found, expected {}",
                    word(memory, 8),
                    32 * loops
                ));
            }
            // The last pass's window of the ROM pages: offset SEED - 1 (SEED counts passes).
            let seed = (loops.wrapping_sub(1) & 0xFF) as usize;
            let want = (1..8usize)
                .flat_map(|p| {
                    (0..256).map(move |i| rom_page_byte(p * 0x4000 + ((seed + i) & 0x3FFF)))
                })
                .fold(0u16, |s, b| s.wrapping_add(u16::from(b)));
            if word(memory, 2) != want {
                return Err(format!(
                    "tios: ROM page sum {}, expected {want}",
                    word(memory, 2)
                ));
            }
            Ok(format!(
                "{ticks} timer interrupts, LCD read-back and ROM page sums right"
            ))
        }
    }
}

/// The line a benchmark binary prints for one run.
pub fn report(secs: f64, end: &EndState, summary: &str) -> String {
    format!(
        "ok {secs:.6} {} {} {:016x} {summary}",
        end.t_states,
        end.instructions,
        end.digest()
    )
}

/// Parses `WORKLOAD [LOOPS]` from the command line.
pub fn args() -> Result<(String, u16), String> {
    let mut a = std::env::args().skip(1);
    let workload = a.next().ok_or("usage: WORKLOAD [LOOPS]")?;
    if !WORKLOADS.contains(&workload.as_str()) {
        return Err(format!("unknown workload {workload}; known: {WORKLOADS:?}"));
    }
    let loops = match a.next() {
        Some(v) => v.parse().map_err(|_| format!("bad pass count {v}"))?,
        None => default_loops(&workload),
    };
    Ok((workload, loops))
}

/// The benchmark binaries' `main`: `WORKLOAD [LOOPS]` in, one `ok ...` line out (exit code 1
/// when the results are wrong, 2 on bad arguments). `BENCH_Z80_DUMP=FILE` also writes the end
/// state's memory to FILE, for finding where two cores differ.
pub fn main_with(core: &str, run: fn(&str, u16) -> (f64, EndState)) {
    let (workload, loops) = args().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let (secs, end) = run(&workload, loops);
    if let Some(path) = std::env::var_os("BENCH_Z80_DUMP") {
        if let Err(e) = std::fs::write(&path, &end.memory) {
            eprintln!("{}: {e}", std::path::Path::new(&path).display());
        }
    }
    match check(&workload, end.checked_memory(&workload), loops) {
        Ok(summary) => println!("{}", report(secs, &end, &summary)),
        Err(e) => {
            eprintln!("{core}: {e}");
            std::process::exit(1)
        }
    }
}

impl EndState {
    /// The part of the memory [`check`] reads: all of it, or the machine's 32 KiB of RAM.
    pub fn checked_memory(&self, workload: &str) -> &[u8] {
        if workload == "tios" {
            &self.memory[..0x8000]
        } else {
            &self.memory[..]
        }
    }
}
