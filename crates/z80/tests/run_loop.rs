//! `Cpu::run_until_halt` and `Cpu::run` keep PC and the clock in host registers between
//! instructions; `Cpu::step` does one instruction at a time. These tests check that the run
//! loops do exactly what repeated `step` calls do: the same bus accesses at the same T-states,
//! the same interrupts taken, and the same CPU state after every chunk, on random programs that
//! use every page (CB, DD, FD, ED, DDCB), EI/DI, HALT, IM 0/1/2, and a bus that raises /INT
//! and /NMI on its own schedule.

use ti82_z80::{Bus, Cpu};

/// A deterministic bus: random memory, ports answering a hash of port and time, /INT held
/// low during some windows of time, an /NMI edge every few thousand T-states, and a log of
/// every access with its T-state.
#[derive(Clone)]
struct ChaosBus {
    mem: Vec<u8>,
    log: Vec<(u8, u16, u8, u64)>,
    next_nmi: u64,
    nmi_period: u64,
    int_period: u64,
}

impl ChaosBus {
    fn new(seed: u64) -> Self {
        let mut x = seed | 1;
        let mut mem = vec![0u8; 0x10000];
        for b in mem.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = (x >> 24) as u8;
            // Fewer HALTs, so that most steps run instructions.
            if *b == 0x76 && x & 15 != 0 {
                *b = 0;
            }
        }
        ChaosBus {
            mem,
            log: Vec::new(),
            next_nmi: 5_003 + seed % 977,
            nmi_period: 9_001 + seed % 1_013,
            int_period: 1_201 + seed % 307,
        }
    }
}

impl Bus for ChaosBus {
    fn fetch(&mut self, addr: u16, t: u64) -> u8 {
        let v = self.mem[addr as usize];
        self.log.push((0, addr, v, t));
        v
    }
    fn read(&mut self, addr: u16, t: u64) -> u8 {
        let v = self.mem[addr as usize];
        self.log.push((1, addr, v, t));
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.mem[addr as usize] = value;
        self.log.push((2, addr, value, t));
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        let v = (port as u64 ^ t)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .to_be_bytes()[0];
        self.log.push((3, port, v, t));
        v
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.log.push((4, port, value, t));
    }
    fn internal(&mut self, addr: u16, n: u32, t: u64) {
        self.log.push((5, addr, n as u8, t));
    }
    fn refresh(&mut self, addr: u16, t: u64) {
        self.log.push((6, addr, 0, t));
    }
    fn int_line(&mut self, t: u64) -> bool {
        // Low for the first eighth of every period.
        t % self.int_period < self.int_period / 8
    }
    fn int_ack(&mut self, t: u64) -> u8 {
        // Mostly RST 38h (IM 0), sometimes another opcode byte or IM 2 vector.
        let v = if t.is_multiple_of(3) {
            0xFF
        } else {
            (t >> 3) as u8
        };
        self.log.push((7, 0, v, t));
        v
    }
    fn nmi_edge(&mut self, t: u64) -> bool {
        if t >= self.next_nmi {
            self.next_nmi = t + self.nmi_period;
            true
        } else {
            false
        }
    }
    fn next_event(&mut self, t: u64) -> u64 {
        let p = self.int_period;
        let next_int = if t % p < p / 8 { t } else { (t / p + 1) * p };
        next_int.min(self.next_nmi.max(t))
    }
}

/// A CPU at a random point of a random program, interrupts enabled in a random mode.
fn start(seed: u64) -> (Cpu, ChaosBus) {
    let bus = ChaosBus::new(seed);
    let mut cpu = Cpu::new();
    cpu.pc = (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 48) as u16;
    cpu.sp = 0xF000;
    cpu.i = (seed >> 8) as u8;
    cpu.im = (seed % 3) as u8;
    cpu.iff1 = !seed.is_multiple_of(4);
    cpu.iff2 = cpu.iff1;
    (cpu, bus)
}

/// `steps` calls of `step`.
fn by_steps(cpu: &mut Cpu, bus: &mut ChaosBus, steps: u64) {
    for _ in 0..steps {
        cpu.step(bus);
    }
}

/// The same `steps` steps through `run_until_halt` in chunks of varying size; at a HALT it
/// stops early, and `step` runs the halted CPU's cycle (or the interrupt that wakes it).
/// Returns how many times it stopped at a HALT.
fn by_run_until_halt(cpu: &mut Cpu, bus: &mut ChaosBus, steps: u64, seed: u64) -> u32 {
    let mut done = 0;
    let mut halts = 0;
    let mut k = seed;
    while done < steps {
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let chunk = (1 + (k >> 58)).min(steps - done);
        let n = cpu.run_until_halt(bus, chunk);
        assert!(n <= chunk);
        done += n;
        if n < chunk {
            assert!(cpu.halted(), "run_until_halt stopped early without HALT");
            cpu.step(bus);
            done += 1;
            halts += 1;
        }
    }
    halts
}

#[test]
fn run_until_halt_does_what_step_does() {
    let mut halts = 0;
    let mut interrupts = 0;
    for seed in 1..=300u64 {
        let (mut a, mut bus_a) = start(seed);
        let (mut b, mut bus_b) = start(seed);
        let steps = 2_000;
        by_steps(&mut a, &mut bus_a, steps);
        halts += by_run_until_halt(&mut b, &mut bus_b, steps, seed);
        assert_eq!(a, b, "seed {seed}: CPU state differs");
        assert!(
            bus_a.log == bus_b.log,
            "seed {seed}: bus accesses differ (first at {:?})",
            bus_a.log.iter().zip(&bus_b.log).position(|(x, y)| x != y)
        );
        assert!(bus_a.mem == bus_b.mem, "seed {seed}: memory differs");
        interrupts += bus_a.log.iter().filter(|e| e.0 == 7).count();
    }
    // The random programs really did halt and take interrupts (otherwise this proves little).
    assert!(halts > 10, "only {halts} stops at HALT");
    assert!(
        interrupts > 100,
        "only {interrupts} interrupts acknowledged"
    );
}

#[test]
fn run_ends_where_step_ends() {
    // `run` to a time budget against `step` until the same time, where no HALT skips time
    // (the skip is checked in interrupts.rs): the same state and the same accesses.
    for seed in 1..=200u64 {
        let (mut a, mut bus_a) = start(seed);
        let (mut b, mut bus_b) = start(seed);
        let mut until = 0;
        let mut k = seed;
        for _ in 0..20 {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            until += 1 + (k >> 54);
            while a.t() < until && !a.halted() {
                a.step(&mut bus_a);
            }
            if a.halted() {
                break;
            }
            b.run(&mut bus_b, until);
            assert_eq!(a, b, "seed {seed}: CPU state differs at {until}");
        }
        if !a.halted() {
            assert!(bus_a.log == bus_b.log, "seed {seed}: bus accesses differ");
        }
    }
}
