//! Our core's side of `cargo xtask bench-z80`: one run of a workload.
//! Used by the `bench-z80-ours` binary (one core per binary) and by xtask's tests.

use crate::work::{self, EndState};
use std::time::Instant;
use ti82_machine::{Config, Hardware, PagingModel};
use z80::{Cpu, FlatBus};

/// How the workload drives our core: its run loop (`Cpu::run_until_halt`, what `Cpu::run`
/// and so the TI-82 machine use), or one `Cpu::step` call per instruction, as the peer,
/// which has only `step`, is driven (`BENCH_Z80_OURS_STEP=1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    RunLoop,
    Step,
}

impl Driver {
    /// `Step` when `BENCH_Z80_OURS_STEP` is set, else `RunLoop`.
    pub fn from_env() -> Self {
        if std::env::var_os("BENCH_Z80_OURS_STEP").is_some() {
            Driver::Step
        } else {
            Driver::RunLoop
        }
    }
}

/// Steps until the CPU is halted; returns the steps run.
fn until_halt<B: z80::Bus>(cpu: &mut Cpu, bus: &mut B, driver: Driver) -> u64 {
    match driver {
        Driver::RunLoop => cpu.run_until_halt(bus, u64::MAX),
        Driver::Step => {
            let mut n = 0;
            while !cpu.halted() {
                cpu.step(bus);
                n += 1;
            }
            n
        }
    }
}

#[inline(never)]
fn run_flat(image: &[u8], loops: u16, driver: Driver) -> (f64, EndState) {
    let mut bus = FlatBus {
        mem: work::flat_memory(image, loops),
    };
    let mut cpu = Cpu::new();
    let start = Instant::now();
    let instructions = until_halt(&mut cpu, &mut bus, driver);
    let secs = start.elapsed().as_secs_f64();
    let end = EndState {
        t_states: cpu.t(),
        instructions,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
        memory: bus.mem.to_vec(),
    };
    (secs, end)
}

/// The whole machine: the core on `Hardware`, stepped to the final HALT with interrupts off.
#[inline(never)]
fn run_machine(loops: u16, driver: Driver) -> (f64, EndState) {
    let mut hw = Hardware::new(Config {
        paging: PagingModel::Ti83,
        ..Config::default()
    });
    hw.mem.load_rom(&work::tios_rom(loops));
    let mut cpu = Cpu::new();
    let mut instructions = 0u64;
    let start = Instant::now();
    // Until the final HALT with interrupts off: each HALT stops `until_halt`, and `step`
    // runs the halted CPU's cycles until the timer interrupt wakes it.
    loop {
        instructions += until_halt(&mut cpu, &mut hw, driver);
        if !cpu.iff1 {
            break;
        }
        cpu.step(&mut hw);
        instructions += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    hw.now = cpu.t();
    let end = EndState {
        t_states: cpu.t(),
        instructions,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
        memory: machine_memory(&hw),
    };
    (secs, end)
}

/// RAM, LCD RAM, the port registers and the timer tick count.
fn machine_memory(hw: &Hardware) -> Vec<u8> {
    let mut m = hw.mem.ram().to_vec();
    m.extend_from_slice(hw.lcd.display_ram());
    m.extend_from_slice(&[
        hw.mem.port2(),
        hw.port0(),
        hw.port4(),
        hw.lcd.x(),
        hw.lcd.y(),
    ]);
    m.extend_from_slice(&hw.irq.timer_ticks.to_le_bytes());
    m
}

/// One run of `workload` with `loops` passes, driven as `BENCH_Z80_OURS_STEP` says: host
/// seconds and the end state.
pub fn run(workload: &str, loops: u16) -> (f64, EndState) {
    run_driven(workload, loops, Driver::from_env())
}

/// One run of `workload` with `loops` passes, driven by `driver`.
pub fn run_driven(workload: &str, loops: u16, driver: Driver) -> (f64, EndState) {
    match workload {
        "mix" => run_flat(work::MIX, loops, driver),
        "exerciser" => run_flat(work::EXERCISE, loops, driver),
        _ => run_machine(loops, driver),
    }
}
