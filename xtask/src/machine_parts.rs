//! The parts `cargo xtask bench-machine` times: one round of the whole TI-82 machine, and one
//! of the bare core on a flat bus with and without the machine's timer, on the same program.
//! Shared by xtask and the two benchmark binaries (`bench-machine-calc` runs the machine,
//! `bench-machine-core` the bare core), so that neither side's code changes the other's
//! layout: in one binary, a print statement elsewhere moved the core's speed by a third.

#![allow(dead_code)]

use std::time::Instant;

use ti82_machine::{Calc, RomFirmware, RomImage, CLOCK_HZ, FRAME_T};
use z80::{Bus, Cpu, FlatBus};

/// `crates/machine/tests/roms/bench.asm`: the timer on, an LCD column every pass, a block copy
/// and some arithmetic.
pub const BENCH: &[u8] = include_bytes!("../../crates/machine/tests/roms/bench.bin");

/// Emulated seconds per measurement round.
pub const SECONDS: u64 = 2;

/// What one round of a part reports: host seconds of the timed part, the T-states it ran, a
/// digest of the end state (RAM 8000h-FFFFh and the CPU), and the timer interrupts counted in
/// RAM by the program's handler.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub secs: f64,
    pub t_states: u64,
    pub digest: u64,
    pub ticks: u64,
}

impl Round {
    pub fn mhz(&self) -> f64 {
        self.t_states as f64 / self.secs / 1e6
    }

    /// The line a binary prints: `ok SECS T DIGEST TICKS`.
    pub fn line(&self) -> String {
        format!(
            "ok {} {} {:016x} {}",
            self.secs, self.t_states, self.digest, self.ticks
        )
    }

    pub fn parse(line: &str) -> Option<Round> {
        let mut f = line.split_whitespace();
        if f.next()? != "ok" {
            return None;
        }
        Some(Round {
            secs: f.next()?.parse().ok()?,
            t_states: f.next()?.parse().ok()?,
            digest: u64::from_str_radix(f.next()?, 16).ok()?,
            ticks: f.next()?.parse().ok()?,
        })
    }
}

/// The state files' FNV-1a over the RAM and the CPU's registers as `Debug` prints them.
fn digest(ram: &[u8], cpu: &Cpu) -> u64 {
    ti82_machine::state::fnv1a(&[ram, format!("{cpu:?}").as_bytes()].concat())
}

fn ticks_in(ram: &[u8]) -> u64 {
    u64::from(u16::from_le_bytes([ram[0], ram[1]]))
}

/// One round of the machine.
pub fn machine_round() -> Round {
    let mut calc = Calc::new(RomFirmware::new(RomImage::from_program(BENCH)));
    let start = Instant::now();
    run_machine(&mut calc);
    let secs = start.elapsed().as_secs_f64();
    let cpu = calc.cpu().cloned().unwrap_or_default();
    Round {
        secs,
        t_states: calc.now(),
        digest: digest(calc.ram(), &cpu),
        ticks: ticks_in(calc.ram()),
    }
}

fn core_round<B: Bus>(mut bus: B, run: fn(&mut Cpu, &mut B), ram: fn(&B) -> &[u8]) -> Round {
    let mut cpu = Cpu::new();
    cpu.i = 0xFF; // as the machine powers on (spec §3.3)
    let start = Instant::now();
    run(&mut cpu, &mut bus);
    let secs = start.elapsed().as_secs_f64();
    Round {
        secs,
        t_states: cpu.t(),
        digest: digest(ram(&bus), &cpu),
        ticks: ticks_in(ram(&bus)),
    }
}

/// One round of the bare core on the flat bus with the machine's timer.
pub fn timer_core_round() -> Round {
    let bus = TimerBus {
        flat: flat(),
        next_tick: PERIOD,
        pending: false,
        enabled: true,
    };
    core_round(bus, run_timer_core, |b| &b.flat.0.mem[0x8000..])
}

/// One round of the bare core on the flat bus without interrupts.
pub fn bare_core_round() -> Round {
    core_round(flat(), run_bare_core, |b| &b.0.mem[0x8000..])
}

/// A benchmark binary's `main`: `BIN PART [ROUNDS]` runs ROUNDS rounds of PART (2 by default:
/// the first warms the caches and the allocator up) and prints the last one's line. `part`
/// runs one round of a part this binary holds, `None` for a part it does not.
pub fn main_with(part: fn(&str) -> Option<Round>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("");
    let rounds: u32 = match args.get(1).map(|s| s.parse()) {
        None => 2,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("ROUNDS must be a positive number");
            std::process::exit(2)
        }
    };
    let mut last = None;
    for _ in 0..rounds {
        match part(name) {
            Some(r) => last = Some(r),
            None => {
                eprintln!("usage: PART [ROUNDS]; this binary has no part {name:?}");
                std::process::exit(2)
            }
        }
    }
    if let Some(r) = last {
        println!("{}", r.line());
    }
}

/// The core's flat bus with the program's ROM half (0000h-7FFFh) read-only, as on the machine.
pub struct RomBus(pub FlatBus);

/// The flat bus plus the classic timer at port 04h = 16h: level-triggered, acknowledged by
/// any write to port 03h.
pub struct TimerBus {
    pub flat: RomBus,
    next_tick: u64,
    pending: bool,
    /// Port 03h bit 1 (the machine powers on with it set, spec §3.3 decision).
    enabled: bool,
}

pub const PERIOD: u64 = 15 * 4130;

impl Bus for TimerBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.flat.read(addr, t)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.flat.write(addr, value, t)
    }
    #[inline(always)]
    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        0
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        if port as u8 == 3 {
            self.sync(t);
            self.enabled = value & 2 != 0;
            if !self.enabled {
                self.pending = false;
            }
        }
    }
    #[inline(always)]
    fn int_line(&mut self, t: u64) -> bool {
        self.sync(t);
        self.pending
    }
}

impl TimerBus {
    /// Ticks up to `t`; a tick latches only while the timer is enabled (spec §2.4).
    #[inline(always)]
    fn sync(&mut self, t: u64) {
        if t >= self.next_tick {
            self.next_tick += PERIOD * ((t - self.next_tick) / PERIOD + 1);
            self.pending |= self.enabled;
        }
    }
}

impl Bus for RomBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.0.read(addr, t)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        if addr >= 0x8000 {
            self.0.write(addr, value, t)
        }
    }
    #[inline(always)]
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.0.port_in(port, t)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.0.port_out(port, value, t)
    }
}

/// The flat bus as the machine looks at power-on: the 16 KiB ROM page 0 (the program, FFh
/// after it, as `RomImage::from_program` fills it) at 0000h and again at 4000h (spec §3.3:
/// page 0 is mapped there until port 02h is written), zeroed RAM from 8000h.
pub fn flat() -> RomBus {
    let rom = RomImage::from_program(BENCH);
    let page0 = &rom.bytes()[..0x4000];
    let mut bus = FlatBus::with_image(page0);
    bus.mem[0x4000..0x8000].copy_from_slice(page0);
    RomBus(bus)
}

// The timed part of each round is a function of its own, out of line, so that
// `--instructions` can count it alone (callgrind's `--toggle-collect`), without the set-up.

/// The machine's timed part: frames to the same absolute T-states as the core's (`run_frame`
/// would add each frame's overshoot to the next one's end).
#[inline(never)]
pub fn run_machine(calc: &mut Calc) {
    for i in 1..=SECONDS * 60 {
        calc.run_for((i * FRAME_T).saturating_sub(calc.now()));
    }
}

/// The bare core's timed part, on any bus.
#[inline(always)]
fn run_core<B: Bus>(cpu: &mut Cpu, bus: &mut B) {
    let frame = CLOCK_HZ / 60;
    for i in 1..=SECONDS * 60 {
        cpu.run(bus, i * frame);
    }
}

#[inline(never)]
pub fn run_timer_core(cpu: &mut Cpu, bus: &mut TimerBus) {
    run_core(cpu, bus)
}

#[inline(never)]
pub fn run_bare_core(cpu: &mut Cpu, bus: &mut RomBus) {
    run_core(cpu, bus)
}
