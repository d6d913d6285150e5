//! The Z80 side of the debugger (docs/debugger.md): instruction breakpoints (an address, or
//! page:address in the banked ROM window), single instructions, stepping over `CALL`/`RST`
//! and out to the return address, pause, and data breakpoints on memory writes and on port
//! reads and writes.
//!
//! [`crate::RomFirmware`] looks at it once per run slice: with no debugger attached the CPU
//! runs its own loop untouched. With one, it runs instruction by instruction, testing the PC
//! against a bitmap of breakpoint addresses; data breakpoints put a watching bus around the
//! hardware only while some are set.

use z80::{Bus, Cpu};

use crate::hw::Hardware;

/// How execution goes on after a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Z80Step {
    #[default]
    Run,
    /// Stop before the first instruction.
    Entry,
    /// One instruction (or interrupt acceptance, or HALT cycle).
    Instruction,
    /// Until the PC reaches `ret` with SP back at or above `sp` (a `CALL`/`RST` run whole).
    Over { ret: u16, sp: u16 },
    /// Until a return leaves SP above `sp` (back in the caller).
    Out { sp: u16 },
}

/// Why the CPU stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Z80Stop {
    Entry,
    Step,
    Pause,
    Breakpoint(u16),
    /// A watched memory byte was written.
    Memory {
        addr: u16,
        value: u8,
    },
    /// A watched port was read or written.
    Port {
        port: u8,
        write: bool,
        value: u8,
    },
}

/// The debugger's state inside the Z80 firmware.
#[derive(Clone, Debug)]
pub struct Z80Debug {
    /// One bit per CPU address.
    bits: Vec<u64>,
    /// Breakpoints on page:address (the address in 4000h-7FFFh, the ROM page switched in).
    pub paged: Vec<(u8, u16)>,
    /// Memory ranges (start, length) whose writes stop.
    pub mem_watch: Vec<(u16, u16)>,
    /// Ports whose reads and writes stop.
    pub port_watch: Vec<u8>,
    pub mode: Z80Step,
    pub pause: bool,
    pub stopped: Option<Z80Stop>,
    resumed: bool,
}

impl Default for Z80Debug {
    fn default() -> Self {
        Z80Debug {
            bits: vec![0; 1024],
            paged: Vec::new(),
            mem_watch: Vec::new(),
            port_watch: Vec::new(),
            mode: Z80Step::Run,
            pause: false,
            stopped: None,
            resumed: false,
        }
    }
}

impl Z80Debug {
    /// Replaces the address breakpoints.
    pub fn set_breakpoints(&mut self, addrs: &[u16]) {
        self.bits.fill(0);
        for &a in addrs {
            self.bits[usize::from(a >> 6)] |= 1 << (a & 63);
        }
    }

    fn is_break(&self, pc: u16, page: u8) -> bool {
        self.bits[usize::from(pc >> 6)] & (1 << (pc & 63)) != 0
            || (!self.paged.is_empty()
                && (0x4000..0x8000).contains(&pc)
                && self.paged.iter().any(|&(p, a)| p == page && a == pc))
    }

    /// Goes on from a stop in `mode`.
    pub fn resume(&mut self, mode: Z80Step) {
        self.mode = mode;
        self.stopped = None;
        self.pause = false;
        self.resumed = true;
    }
}

/// The hardware as a bus that records accesses to watched places.
struct Watching<'a> {
    hw: &'a mut Hardware,
    mem: &'a [(u16, u16)],
    ports: &'a [u8],
    hit: Option<Z80Stop>,
}

impl Bus for Watching<'_> {
    fn fetch(&mut self, addr: u16, t: u64) -> u8 {
        self.hw.fetch(addr, t)
    }
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        self.hw.read(addr, t)
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        if self.hit.is_none()
            && self
                .mem
                .iter()
                .any(|&(s, n)| addr.wrapping_sub(s) < n.max(1))
        {
            self.hit = Some(Z80Stop::Memory { addr, value });
        }
        self.hw.write(addr, value, t)
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        let value = self.hw.port_in(port, t);
        if self.hit.is_none() && self.ports.contains(&(port as u8)) {
            self.hit = Some(Z80Stop::Port {
                port: port as u8,
                write: false,
                value,
            });
        }
        value
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        if self.hit.is_none() && self.ports.contains(&(port as u8)) {
            self.hit = Some(Z80Stop::Port {
                port: port as u8,
                write: true,
                value,
            });
        }
        self.hw.port_out(port, value, t)
    }
    fn internal(&mut self, addr: u16, n: u32, t: u64) {
        self.hw.internal(addr, n, t)
    }
    fn refresh(&mut self, addr: u16, t: u64) {
        self.hw.refresh(addr, t)
    }
    fn int_line(&mut self, t: u64) -> bool {
        self.hw.int_line(t)
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        self.hw.int_ack(t)
    }
    fn nmi_edge(&mut self, t: u64) -> bool {
        self.hw.nmi_edge(t)
    }
    fn next_event(&mut self, t: u64) -> u64 {
        self.hw.next_event(t)
    }
}

/// Whether the opcode at `pc` is a return (`RET`, `RET cc`, `RETI`, `RETN`).
fn is_return(hw: &Hardware, pc: u16) -> bool {
    let op = hw.mem.cpu_read(pc);
    op == 0xC9
        || op & 0xC7 == 0xC0
        || (op == 0xED && matches!(hw.mem.cpu_read(pc.wrapping_add(1)) & 0xC7, 0x45))
}

/// Runs `cpu` on `hw` until `until` or a stop, one instruction at a time.
pub(crate) fn run(cpu: &mut Cpu, hw: &mut Hardware, d: &mut Z80Debug, until: u64) {
    hw.mem.set_lazy_view(false);
    while cpu.t() < until && d.stopped.is_none() {
        let pc = cpu.pc;
        let page = (hw.mem.bank_page(1) & 0xFF) as u8;
        if std::mem::take(&mut d.resumed) {
            // The instruction stopped at runs first.
        } else if d.pause {
            d.stopped = Some(Z80Stop::Pause);
            break;
        } else if d.mode == Z80Step::Entry {
            d.stopped = Some(Z80Stop::Entry);
            break;
        } else if d.is_break(pc, page) {
            d.stopped = Some(Z80Stop::Breakpoint(pc));
            break;
        } else if let Z80Step::Over { ret, sp } = d.mode {
            if pc == ret && cpu.sp >= sp {
                d.stopped = Some(Z80Stop::Step);
                break;
            }
        }
        let returning = matches!(d.mode, Z80Step::Out { .. }) && is_return(hw, pc);
        if d.mem_watch.is_empty() && d.port_watch.is_empty() {
            cpu.step(hw);
        } else {
            let mut w = Watching {
                hw,
                mem: &d.mem_watch,
                ports: &d.port_watch,
                hit: None,
            };
            cpu.step(&mut w);
            if let Some(hit) = w.hit {
                d.stopped = Some(hit);
            }
        }
        match d.mode {
            Z80Step::Instruction if d.stopped.is_none() => d.stopped = Some(Z80Stop::Step),
            Z80Step::Out { sp } if returning && cpu.sp > sp && d.stopped.is_none() => {
                d.stopped = Some(Z80Stop::Step)
            }
            _ => {}
        }
    }
    hw.now = cpu.t().max(hw.now);
    hw.halted = cpu.halted();
}

/// Where a step over the instruction at `pc` stops: after it, when it is a `CALL` or an
/// `RST` (run whole), else `None` (one instruction).
pub fn step_over_target(hw: &Hardware, pc: u16) -> Option<u16> {
    let op = hw.mem.cpu_read(pc);
    match op {
        0xCD => Some(pc.wrapping_add(3)),
        _ if op & 0xC7 == 0xC4 => Some(pc.wrapping_add(3)),
        _ if op & 0xC7 == 0xC7 => Some(pc.wrapping_add(1)),
        _ => None,
    }
}
