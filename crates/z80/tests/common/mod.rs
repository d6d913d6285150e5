//! A test bus shared by the hand-written core tests: 64 KiB of RAM, a log of every access
//! with the T-state its machine cycle starts, settable /INT, /NMI and interrupt data byte.

#![allow(dead_code)]

use std::collections::HashMap;
use ti82_z80::{Bus, Cpu};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Fetch,
    Read,
    Write,
    In,
    Out,
    /// Interrupt acknowledge (the data-bus byte read).
    Ack,
    /// Internal T-states (logged only with `log_internal`; `value` holds their number).
    Internal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub kind: Kind,
    pub addr: u16,
    pub value: u8,
    pub t: u64,
}

pub struct TestBus {
    pub mem: Vec<u8>,
    pub log: Vec<Access>,
    /// Values returned by `IN` per full 16-bit port; other ports read `in_default`.
    pub ports: HashMap<u16, u8>,
    pub in_default: u8,
    /// /INT is asserted from this T-state on (None: never).
    pub int_from: Option<u64>,
    /// An /NMI falling edge at this T-state, reported once.
    pub nmi_at: Option<u64>,
    /// Byte on the data bus during interrupt acknowledge.
    pub data_bus: u8,
    /// Number of refresh cycles seen (one per M1 cycle).
    pub refreshes: u64,
    pub logging: bool,
    pub log_internal: bool,
}

impl Default for TestBus {
    fn default() -> Self {
        Self::new()
    }
}

impl TestBus {
    pub fn new() -> Self {
        TestBus {
            mem: vec![0; 0x10000],
            log: Vec::new(),
            ports: HashMap::new(),
            in_default: 0xFF,
            int_from: None,
            nmi_at: None,
            data_bus: 0xFF,
            refreshes: 0,
            logging: true,
            log_internal: false,
        }
    }

    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }

    fn rec(&mut self, kind: Kind, addr: u16, value: u8, t: u64) {
        if self.logging {
            self.log.push(Access {
                kind,
                addr,
                value,
                t,
            });
        }
    }

    /// The logged accesses other than opcode fetches, as (kind, addr, value, t).
    pub fn data_accesses(&self) -> Vec<(Kind, u16, u8, u64)> {
        self.log
            .iter()
            .filter(|a| a.kind != Kind::Fetch)
            .map(|a| (a.kind, a.addr, a.value, a.t))
            .collect()
    }

    /// (kind, t) of every logged access, fetches included.
    pub fn timeline(&self) -> Vec<(Kind, u64)> {
        self.log.iter().map(|a| (a.kind, a.t)).collect()
    }
}

impl Bus for TestBus {
    fn fetch(&mut self, addr: u16, t: u64) -> u8 {
        let v = self.mem[addr as usize];
        self.rec(Kind::Fetch, addr, v, t);
        v
    }
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        let v = self.mem[addr as usize];
        self.rec(Kind::Read, addr, v, t);
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.mem[addr as usize] = value;
        self.rec(Kind::Write, addr, value, t);
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        let v = *self.ports.get(&port).unwrap_or(&self.in_default);
        self.rec(Kind::In, port, v, t);
        v
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.rec(Kind::Out, port, value, t);
    }
    fn internal(&mut self, addr: u16, n: u32, t: u64) {
        if self.log_internal {
            self.rec(Kind::Internal, addr, n as u8, t);
        }
    }
    fn refresh(&mut self, _addr: u16, _t: u64) {
        self.refreshes += 1;
    }
    fn int_line(&mut self, t: u64) -> bool {
        self.int_from.is_some_and(|from| t >= from)
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        let v = self.data_bus;
        self.rec(Kind::Ack, 0, v, t);
        v
    }
    fn nmi_edge(&mut self, t: u64) -> bool {
        match self.nmi_at {
            Some(at) if t >= at => {
                self.nmi_at = None;
                true
            }
            _ => false,
        }
    }
    fn next_event(&mut self, t: u64) -> u64 {
        let mut next = u64::MAX;
        if let Some(from) = self.int_from {
            if from >= t {
                next = next.min(from);
            }
        }
        if let Some(at) = self.nmi_at {
            next = next.min(at.max(t));
        }
        next
    }
}

/// A CPU at PC 0 with T = 0 and every register zero (F too), SP at F000h.
pub fn cpu() -> Cpu {
    let mut c = Cpu::new();
    c.regs = [0; 8];
    c.af_alt = 0;
    c.bc_alt = 0;
    c.de_alt = 0;
    c.hl_alt = 0;
    c.ix = 0;
    c.iy = 0;
    c.sp = 0xF000;
    c.set_t(0);
    c
}

/// Runs the single instruction `code` (placed at 0) after `setup`; returns the CPU, the bus
/// and the T-states `step` reported.
pub fn exec(code: &[u8], setup: impl FnOnce(&mut Cpu, &mut TestBus)) -> (Cpu, TestBus, u32) {
    let mut c = cpu();
    let mut bus = TestBus::new();
    bus.load(0, code);
    setup(&mut c, &mut bus);
    let t = c.step(&mut bus);
    (c, bus, t)
}

/// Steps `n` instructions from PC 0 and returns the total T-states.
pub fn exec_n(
    code: &[u8],
    n: usize,
    setup: impl FnOnce(&mut Cpu, &mut TestBus),
) -> (Cpu, TestBus, u32) {
    let mut c = cpu();
    let mut bus = TestBus::new();
    bus.load(0, code);
    setup(&mut c, &mut bus);
    let mut t = 0;
    for _ in 0..n {
        t += c.step(&mut bus);
    }
    (c, bus, t)
}

/// Slots in [`Cpu::regs`].
#[allow(unused_imports)]
pub use ti82_z80::reg::{A, B, C, D, E, F, H, L};
