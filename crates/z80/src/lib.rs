//! A cycle-exact NMOS Z80 core.
//!
//! * Every documented and undocumented instruction, flags exact (bits 3 and 5, the Q latch
//!   of SCF/CCF, MEMPTR), R, IFF1/IFF2, the EI shadow, the LD A,I/R interrupt quirk.
//! * Time passes inside bus accesses: every access is made through [`Bus`] at the T-state its
//!   machine cycle begins, so a port read sees the machine exactly as it is at that moment.
//! * No dependencies, no globals, no allocation while running, no panics on any byte sequence.
//! * [`Cpu::step`] runs one instruction; [`Cpu::run`] (to a T-state) and
//!   [`Cpu::run_until_halt`] run many and do exactly what repeated `step` calls would, faster:
//!   they keep PC, the clock, A and F in host registers between instructions.

#![forbid(unsafe_code)]

mod bus;
mod cpu;
pub mod disasm;
mod flat;

pub use bus::Bus;
pub use cpu::{flags, Cpu, T_LIMIT};
pub use flat::FlatBus;

/// The slots of the 8-bit registers in [`Cpu::regs`] (each pair low byte first), and
/// [`reg::slot`], which maps an opcode's 3-bit register field to its slot.
pub mod reg {
    pub use crate::cpu::{reg_slot as slot, A, B, C_ as C, D, E, F, H_ as H, L};
}
