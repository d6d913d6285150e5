//! The only way the core meets the world.
//!
//! Every method receives `t`, the T-state (counted from the CPU's creation) at which the
//! machine cycle of that access *begins* (its T1). Within the cycle the standard Z80 timing
//! applies: an opcode fetch (M1) is 4 T-states with the data sampled at the end of T2 and the
//! refresh address on the bus in T3/T4; a memory read or write is 3 T-states; an I/O cycle is
//! 4 T-states (one automatic wait state). A machine whose devices care about the exact
//! sample point adds the fixed offset itself.
//!
//! All methods are meant to be `#[inline]` in the implementing machine so the generic core
//! monomorphises into straight-line code with no dynamic dispatch.

/// The Z80's view of the machine around it.
pub trait Bus {
    /// Opcode fetch (M1 cycle) at `addr`. Defaults to a plain memory read.
    #[inline(always)]
    fn fetch(&mut self, addr: u16, t: u64) -> u8 {
        self.read(addr, t)
    }

    /// Memory read cycle.
    fn read(&mut self, addr: u16, t: u64) -> u8;

    /// Memory write cycle.
    fn write(&mut self, addr: u16, value: u8, t: u64);

    /// I/O read cycle (`IN`). `port` is the full 16-bit address the Z80 puts on the bus.
    fn port_in(&mut self, port: u16, t: u64) -> u8;

    /// I/O write cycle (`OUT`).
    fn port_out(&mut self, port: u16, value: u8, t: u64);

    /// `n` internal T-states with `addr` left on the address bus (no MREQ/IORQ). Only
    /// tracing buses care; the default does nothing and compiles away. `addr` is what an
    /// NMOS Z80 really shows there (checked against SingleStepTests' bus traces): right after
    /// an opcode fetch the refresh address `I<<8 | R` of that fetch, otherwise mostly the
    /// address of the access before.
    #[inline(always)]
    fn internal(&mut self, _addr: u16, _n: u32, _t: u64) {}

    /// Refresh half of an M1 cycle: `addr` is `I<<8 | R` (R before its increment... see
    /// [`crate::Cpu`]): emitted for tracing buses only.
    #[inline(always)]
    fn refresh(&mut self, _addr: u16, _t: u64) {}

    /// Level of the maskable interrupt line (/INT) at time `t`. Sampled at the end of every
    /// instruction while IFF1 is set.
    #[inline(always)]
    fn int_line(&mut self, _t: u64) -> bool {
        false
    }

    /// The byte the interrupting device puts on the data bus during the interrupt
    /// acknowledge cycle (used by IM 0 and IM 2). A TI-82 has nothing there, so the bus
    /// floats to FFh.
    #[inline(always)]
    fn int_ack(&mut self, _t: u64) -> u8 {
        0xFF
    }

    /// Edge-triggered /NMI: return `true` once per falling edge that happened at or before `t`.
    #[inline(always)]
    fn nmi_edge(&mut self, _t: u64) -> bool {
        false
    }

    /// The earliest time at or after `t` at which `int_line` or `nmi_edge` could change its
    /// answer. A halted CPU skips straight to it, so an idle machine costs almost nothing.
    /// `u64::MAX` means "never by itself" (the run budget then bounds the skip).
    #[inline(always)]
    fn next_event(&mut self, _t: u64) -> u64 {
        u64::MAX
    }
}
