//! Our core's side of `cargo xtask bench-z80`: one run of a workload.
//! Used by the `bench-z80-ours` binary (one core per binary) and by xtask's tests.

use crate::work::{self, EndState};
use std::time::Instant;
use ti82_machine::{Config, Hardware, PagingModel};
use z80::{Cpu, FlatBus};

#[inline(never)]
fn run_flat(image: &[u8], loops: u16) -> (f64, EndState) {
    let mut bus = FlatBus {
        mem: work::flat_memory(image, loops),
    };
    let mut cpu = Cpu::new();
    let start = Instant::now();
    // What `while !cpu.halted() { cpu.step(..) }` runs, through the core's run loop.
    let instructions = cpu.run_until_halt(&mut bus, u64::MAX);
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
fn run_machine(loops: u16) -> (f64, EndState) {
    let mut hw = Hardware::new(Config {
        paging: PagingModel::Ti83,
        ..Config::default()
    });
    hw.mem.load_rom(&work::tios_rom(loops));
    let mut cpu = Cpu::new();
    let mut instructions = 0u64;
    let start = Instant::now();
    // Until the final HALT with interrupts off: the run loop stops at each HALT, and `step`
    // runs the halted CPU's cycles until the timer interrupt wakes it.
    loop {
        instructions += cpu.run_until_halt(&mut hw, u64::MAX);
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

/// One run of `workload` with `loops` passes: host seconds and the end state.
pub fn run(workload: &str, loops: u16) -> (f64, EndState) {
    match workload {
        "mix" => run_flat(work::MIX, loops),
        "exerciser" => run_flat(work::EXERCISE, loops),
        _ => run_machine(loops),
    }
}
