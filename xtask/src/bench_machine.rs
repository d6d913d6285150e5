//! `cargo xtask bench-machine`: the whole TI-82 machine against the bare core on the same
//! workload, plus the cost of an idle (halted) calculator.
//!
//! Workload: `crates/machine/tests/roms/bench.bin` (our own program, source beside it): the timer interrupt on
//! at the classic OS rate, a 64-byte LCD column every pass, a 128-byte LDIR and some
//! arithmetic. The bare core runs the same bytes on the core's flat 64 KiB bus (`z80::FlatBus`,
//! ports read FFh and ignore writes; the program never polls a port) with 0000h-7FFFh
//! read-only, as the machine's ROM is. Two flat buses are measured:
//!
//! * `flat+timer`: the same ~97 Hz timer interrupt with the machine's port-03h semantics
//!   (bit 1 enables the timer; a tick sets the pending flag only while enabled; writing the
//!   bit 0 clears it), so the core executes exactly the machine's instruction stream, handler
//!   included. This is the like-for-like baseline: the last line's ratio uses it, and every
//!   round checks that machine and core ended in the same state (RAM 8000h-FFFFh, registers,
//!   T-states).
//! * `flat`: no interrupt line at all (the core's `int_line` check compiles away), the upper
//!   bound of the bare core; its ratio is printed too.
//!
//! Idle: `idle.bin`, HALT with a short timer handler, 60 emulated seconds.
//!
//! Run with `--release` for meaningful figures (`cargo xtask` builds xtask in the dev
//! profile unless the alias says otherwise; dependencies are optimised either way).

use std::time::Instant;

use anyhow::{ensure, Result};
use ti82_machine::{Calc, RomFirmware, RomImage, CLOCK_HZ, FRAME_T};
use z80::{Bus, Cpu, FlatBus};

const BENCH: &[u8] = include_bytes!("../../crates/machine/tests/roms/bench.bin");
const IDLE: &[u8] = include_bytes!("../../crates/machine/tests/roms/idle.bin");

/// Emulated seconds per measurement round; rounds alternate machine and core, and the best
/// round of each counts (robust against other work on the host).
const SECONDS: u64 = 2;
const ROUNDS: usize = 15;

/// The core's flat bus with the program's ROM half (0000h-7FFFh) read-only, as on the machine.
struct RomBus(FlatBus);

/// The flat bus plus the classic timer at port 04h = 16h: level-triggered, acknowledged by
/// any write to port 03h.
struct TimerBus {
    flat: RomBus,
    next_tick: u64,
    pending: bool,
    /// Port 03h bit 1 (the machine powers on with it set, spec §3.3 decision).
    enabled: bool,
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

/// What machine and core must agree on at the end of a round: RAM 8000h-FFFFh, the CPU.
type End = (Vec<u8>, Cpu);

fn machine_mhz() -> (f64, u64, End) {
    let mut calc = Calc::new(RomFirmware::new(RomImage::from_program(BENCH)));
    let start = Instant::now();
    // Frames to the same absolute T-states as the core's (`run_frame` would add each
    // frame's overshoot to the next one's end).
    for i in 1..=SECONDS * 60 {
        calc.run_for((i * FRAME_T).saturating_sub(calc.now()));
    }
    let secs = start.elapsed().as_secs_f64();
    let ticks = u64::from(u16::from_le_bytes([calc.ram()[0], calc.ram()[1]]));
    let cpu = calc.cpu().expect("a Z80 firmware").clone();
    (
        calc.now() as f64 / secs / 1e6,
        ticks,
        (calc.ram().to_vec(), cpu),
    )
}

/// The flat bus as the machine looks at power-on: the 16 KiB ROM page 0 (the program, FFh
/// after it, as `RomImage::from_program` fills it) at 0000h and again at 4000h (spec §3.3:
/// page 0 is mapped there until port 02h is written), zeroed RAM from 8000h.
fn flat() -> RomBus {
    let rom = RomImage::from_program(BENCH);
    let page0 = &rom.bytes()[..0x4000];
    let mut bus = FlatBus::with_image(page0);
    bus.mem[0x4000..0x8000].copy_from_slice(page0);
    RomBus(bus)
}

fn core_mhz<B: Bus>(mut bus: B) -> (f64, Cpu, B) {
    let mut cpu = Cpu::new();
    cpu.i = 0xFF; // as the machine powers on (spec §3.3)
    let start = Instant::now();
    let frame = CLOCK_HZ / 60;
    for i in 1..=SECONDS * 60 {
        cpu.run(&mut bus, i * frame);
    }
    let secs = start.elapsed().as_secs_f64();
    (cpu.t() as f64 / secs / 1e6, cpu, bus)
}

pub fn run() -> Result<()> {
    println!(
        "workload: crates/machine/tests/roms/bench.asm, {SECONDS} emulated seconds per round, best of {ROUNDS} alternating rounds"
    );
    let mut machine: f64 = 0.0;
    let mut core: f64 = 0.0;
    let mut bare: f64 = 0.0;
    let mut ticks = 0;
    for round in 1..=ROUNDS {
        let (m, t, (ram, mcpu)) = machine_mhz();
        machine = machine.max(m);
        ticks = t;
        let (c, ccpu, bus) = core_mhz(TimerBus {
            flat: flat(),
            next_tick: PERIOD,
            pending: false,
            enabled: true,
        });
        core = core.max(c);
        ensure!(
            bus.flat.0.mem[0x8000..] == ram[..],
            "round {round}: machine and core ended with different RAM (first at {:04X}h; CPUs {mcpu:?} {ccpu:?})",
            0x8000 + (0..0x8000).find(|&i| bus.flat.0.mem[0x8000 + i] != ram[i]).unwrap_or(0)
        );
        ensure!(
            mcpu == ccpu,
            "round {round}: machine and core ended in different CPU states:\n{mcpu:?}\n{ccpu:?}"
        );
        bare = bare.max(core_mhz(flat()).0);
    }
    println!("machine and core (flat+timer) ended in the same state every round (RAM, registers, T-states)");
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
