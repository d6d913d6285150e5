//! `cargo xtask bench-machine`: the whole TI-82 machine against the bare core on the same
//! workload, plus the cost of an idle (halted) calculator.
//!
//! Workload: `crates/machine/tests/roms/bench.bin` (source beside it): the timer interrupt on
//! at the classic OS rate, a 64-byte LCD column every pass, a 128-byte LDIR and some
//! arithmetic. The bare core runs the same bytes on a flat 64 KiB RAM bus whose ports read
//! 00h and ignore writes (the program never polls a port). Two flat buses are measured:
//!
//! * `flat+timer`: the same ~97 Hz timer interrupt (a counter and an acknowledge on any port
//!   03h write), so the core executes exactly the machine's instruction stream, handler
//!   included. This is the like-for-like baseline: the last line's ratio uses it.
//! * `flat`: no interrupt line at all (the core's `int_line` check compiles away), the upper
//!   bound of the bare core; its ratio is printed too.
//!
//! Idle: `idle.bin`, HALT with a short timer handler, 60 emulated seconds.
//!
//! Run with `--release` for meaningful figures (`cargo xtask` builds xtask in the dev
//! profile unless the alias says otherwise; dependencies are optimised either way).

use std::time::Instant;

use anyhow::{ensure, Result};
use ti82_machine::{Calc, RomFirmware, RomImage, CLOCK_HZ};
use z80::{Bus, Cpu};

const BENCH: &[u8] = include_bytes!("../../crates/machine/tests/roms/bench.bin");
const IDLE: &[u8] = include_bytes!("../../crates/machine/tests/roms/idle.bin");

/// Emulated seconds per measurement round; rounds alternate machine and core, and the best
/// round of each counts (robust against other work on the host).
const SECONDS: u64 = 2;
const ROUNDS: usize = 15;

struct FlatBus {
    mem: Box<[u8; 0x10000]>,
}

/// The flat bus plus the classic timer at port 04h = 16h: level-triggered, acknowledged by
/// any write to port 03h.
struct TimerBus {
    flat: FlatBus,
    next_tick: u64,
    pending: bool,
}

const PERIOD: u64 = 15 * 4130;

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
    fn port_out(&mut self, port: u16, _value: u8, _t: u64) {
        if port as u8 == 3 {
            self.pending = false;
        }
    }
    #[inline(always)]
    fn int_line(&mut self, t: u64) -> bool {
        if t >= self.next_tick {
            self.next_tick += PERIOD * ((t - self.next_tick) / PERIOD + 1);
            self.pending = true;
        }
        self.pending
    }
}

impl Bus for FlatBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: u64) {
        // Keep the program's ROM half read-only, as on the machine.
        if addr >= 0x8000 {
            self.mem[addr as usize] = value;
        }
    }
    #[inline(always)]
    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        0
    }
    #[inline(always)]
    fn port_out(&mut self, _port: u16, _value: u8, _t: u64) {}
}

fn machine_mhz() -> (f64, u64) {
    let mut calc = Calc::new(RomFirmware::new(RomImage::from_program(BENCH)));
    let start = Instant::now();
    for _ in 0..SECONDS * 60 {
        calc.run_frame();
    }
    let secs = start.elapsed().as_secs_f64();
    let ticks = u64::from(u16::from_le_bytes([calc.ram()[0], calc.ram()[1]]));
    (calc.now() as f64 / secs / 1e6, ticks)
}

fn flat() -> FlatBus {
    let mut bus = FlatBus {
        mem: Box::new([0; 0x10000]),
    };
    bus.mem[..BENCH.len()].copy_from_slice(BENCH);
    bus
}

fn core_mhz<B: Bus>(mut bus: B) -> f64 {
    let mut cpu = Cpu::new();
    let start = Instant::now();
    let frame = CLOCK_HZ / 60;
    for i in 1..=SECONDS * 60 {
        cpu.run(&mut bus, i * frame);
    }
    let secs = start.elapsed().as_secs_f64();
    cpu.t as f64 / secs / 1e6
}

pub fn run() -> Result<()> {
    println!(
        "workload: crates/machine/tests/roms/bench.asm, {SECONDS} emulated seconds per round, best of {ROUNDS} alternating rounds"
    );
    let mut machine: f64 = 0.0;
    let mut core: f64 = 0.0;
    let mut bare: f64 = 0.0;
    let mut ticks = 0;
    for _ in 0..ROUNDS {
        let (m, t) = machine_mhz();
        machine = machine.max(m);
        ticks = t;
        core = core.max(core_mhz(TimerBus {
            flat: flat(),
            next_tick: PERIOD,
            pending: false,
        }));
        bare = bare.max(core_mhz(flat()));
    }
    ensure!(
        ticks > 0,
        "the timer interrupt never fired in the machine run"
    );
    println!(
        "machine: {machine:.1} emulated MHz ({:.1}x real time), {ticks} timer interrupts",
        machine / 6.0
    );
    println!(
        "bare core, flat+timer bus (same instruction stream): {core:.1} emulated MHz ({:.1}x real time)",
        core / 6.0
    );
    println!(
        "bare core, flat bus without interrupts: {bare:.1} emulated MHz ({:.1}x real time); machine/that: {:.3}",
        bare / 6.0,
        machine / bare
    );

    let mut idle = Calc::new(RomFirmware::new(RomImage::from_program(IDLE)));
    let start = Instant::now();
    idle.run_for(60 * CLOCK_HZ);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let idle_ticks = u16::from_le_bytes([idle.ram()[0], idle.ram()[1]]);
    println!(
        "idle: 60 emulated seconds at HALT in {ms:.2} ms host time ({idle_ticks} timer interrupts)"
    );
    println!("machine/core ratio: {:.3}", machine / core);
    Ok(())
}
