//! The peer core's side of `cargo xtask bench-z80`: one run of a workload.
//! Used by the `bench-z80-peer` binary (one core per binary) and by xtask's tests.

use crate::work::{self, EndState};
use peer_z80::{Z80_io, Z80};
use std::cell::RefCell;
use std::time::Instant;
use ti82_machine::{Config, Hardware, Memory, PagingModel};

/// 64 KiB of RAM; the trait's default ports read FFh.
struct FlatBus {
    mem: Box<[u8; 0x10000]>,
}

impl Z80_io for FlatBus {
    #[inline(always)]
    fn read_byte(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
}

#[inline(never)]
fn run_flat(image: &[u8], loops: u16) -> (f64, EndState) {
    let mut bus = FlatBus {
        mem: work::flat_memory(image, loops),
    };
    let mut cpu = Z80::new();
    cpu.init();
    let (mut t_states, mut instructions) = (0u64, 0u64);
    let start = Instant::now();
    while !cpu.halted {
        t_states += cpu.step(&mut bus) as u64;
        instructions += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let end = EndState {
        t_states,
        instructions,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
        memory: bus.mem.to_vec(),
    };
    (secs, end)
}

/// The TI-82 machine behind the peer's trait: the same `Hardware` as ours, with the memory
/// held apart (the trait reads through `&self`) and ports 02h/04h bit 0 remapping it; the
/// other ports go to `Hardware` at the instruction's start time (the peer has no per-access
/// time; the workload keeps its accesses far enough apart for that not to matter).
struct PeerMachine {
    mem: Memory,
    hw: RefCell<Hardware>,
    t: u64,
}

impl Z80_io for PeerMachine {
    #[inline(always)]
    fn read_byte(&self, addr: u16) -> u8 {
        self.mem.cpu_read(addr)
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.mem.write(addr, value)
    }
    fn port_in(&self, port: u16) -> u8 {
        match port as u8 {
            0x02 => self.mem.port2(),
            p => self.hw.borrow_mut().read_port(p, self.t),
        }
    }
    fn port_out(&mut self, port: u16, value: u8) {
        match port as u8 {
            0x02 => self.mem.write_port2(value),
            p => {
                if p == 0x04 {
                    self.mem.set_alt_map(value & 1 != 0);
                }
                self.hw.get_mut().write_port(p, value, self.t)
            }
        }
    }
}

/// The machine run: the peer stepped to the final HALT with interrupts off. The peer takes
/// interrupts only when asserted before a step and checks them after the next instruction, so
/// the IM 1 acceptance is done here at the instruction boundary, as the Z80 (and our core)
/// does: 13 T-states, R bumped, PC pushed, 0038h; not right after EI.
#[inline(never)]
fn run_machine(loops: u16) -> (f64, EndState) {
    let config = Config {
        paging: PagingModel::Ti83,
        ..Config::default()
    };
    let mut mem = Memory::new(config.paging);
    mem.load_rom(&work::tios_rom(loops));
    let mut io = PeerMachine {
        mem,
        hw: RefCell::new(Hardware::new(config)),
        t: 0,
    };
    let mut cpu = Z80::new();
    cpu.init();
    let (mut t, mut instructions) = (0u64, 0u64);
    let mut after_ei = false;
    let start = Instant::now();
    // Until the final HALT with interrupts off.
    while !cpu.halted || cpu.iff1 {
        if !after_ei && cpu.iff1 && io.hw.get_mut().irq_line(t) {
            cpu.halted = false;
            cpu.iff1 = false;
            cpu.iff2 = false;
            cpu.r = (cpu.r & 0x80) | (cpu.r.wrapping_add(1) & 0x7F);
            let [lo, hi] = cpu.pc.to_le_bytes();
            cpu.sp = cpu.sp.wrapping_sub(1);
            io.write_byte(cpu.sp, hi);
            cpu.sp = cpu.sp.wrapping_sub(1);
            io.write_byte(cpu.sp, lo);
            cpu.pc = 0x0038;
            cpu.mem_ptr = 0x0038;
            t += 13;
            instructions += 1;
            continue;
        }
        after_ei = !cpu.halted && io.read_byte(cpu.pc) == 0xFB;
        io.t = t;
        t += cpu.step(&mut io) as u64;
        instructions += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let hw = io.hw.get_mut();
    hw.now = t;
    let mut memory = io.mem.ram().to_vec();
    memory.extend_from_slice(hw.lcd.display_ram());
    memory.extend_from_slice(&[
        io.mem.port2(),
        hw.port0(),
        hw.port4(),
        hw.lcd.x(),
        hw.lcd.y(),
    ]);
    memory.extend_from_slice(&hw.irq.timer_ticks.to_le_bytes());
    let end = EndState {
        t_states: t,
        instructions,
        regs: [cpu.pc, cpu.sp, cpu.ix, cpu.iy],
        memory,
    };
    (secs, end)
}

/// One run of `workload` with `loops` passes: host seconds and the end state.
pub fn run(workload: &str, loops: u16) -> (f64, EndState) {
    match workload {
        "mix" => run_flat(work::MIX, loops),
        "exerciser" => run_flat(work::EXERCISE, loops),
        _ => run_machine(loops),
    }
}
