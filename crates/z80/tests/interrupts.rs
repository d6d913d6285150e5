//! Interrupts, NMI, HALT, the EI shadow, the LD A,I/R quirk, prefix chains, `run`'s HALT
//! skip-ahead, and random byte soup. Timings from the Zilog Z80 CPU User Manual (UM0080,
//! "Interrupt Response") and Sean Young's "The Undocumented Z80 Documented" (section 5).

mod common;

use common::*;
use ti82_z80::{flags, Bus, Cpu};
use Kind::*;

/// A CPU with interrupts enabled in `im`, PC at `pc`, and /INT asserted from T=0.
fn with_int(im: u8, pc: u16) -> (Cpu, TestBus) {
    let mut c = cpu();
    c.iff1 = true;
    c.iff2 = true;
    c.im = im;
    c.pc = pc;
    let mut b = TestBus::new();
    b.int_from = Some(0);
    (c, b)
}

#[test]
fn im1() {
    let (mut c, mut b) = with_int(1, 0x1234);
    let t = c.step(&mut b);
    // 13 T-states: a 6 T-state acknowledge M1 (two wait states) + 1, then the push.
    assert_eq!((c.pc, c.sp, t), (0x0038, 0xEFFE, 13));
    assert_eq!((b.mem[0xEFFF], b.mem[0xEFFE]), (0x12, 0x34));
    assert_eq!((c.iff1, c.iff2, c.r(), c.wz), (false, false, 1, 0x0038));
    assert_eq!(b.timeline(), vec![(Ack, 0), (Write, 7), (Write, 10)]);
    // IFF1 is now clear: the still-asserted line is ignored.
    b.mem[0x38] = 0x00;
    assert_eq!(c.step(&mut b), 4);
    assert_eq!(c.pc, 0x0039);
}

#[test]
fn im2() {
    let (mut c, mut b) = with_int(2, 0x1234);
    c.i = 0x80;
    b.data_bus = 0x20;
    b.load(0x8020, &[0x78, 0x56]);
    let t = c.step(&mut b);
    // 19 T-states: acknowledge (6) + 1, push (6), vector read (6).
    assert_eq!((c.pc, t), (0x5678, 19));
    assert_eq!((b.mem[0xEFFF], b.mem[0xEFFE]), (0x12, 0x34));
    assert_eq!(
        b.data_accesses(),
        vec![
            (Ack, 0, 0x20, 0),
            (Write, 0xEFFF, 0x12, 7),
            (Write, 0xEFFE, 0x34, 10),
            (Read, 0x8020, 0x78, 13),
            (Read, 0x8021, 0x56, 16)
        ]
    );
    // The TI-82 case: a floating bus (FFh) with an odd vector address.
    let (mut c, mut b) = with_int(2, 0x0000);
    c.i = 0x99;
    b.load(0x99FF, &[0x9A, 0x9A]);
    c.step(&mut b);
    assert_eq!(c.pc, 0x9A9A);
}

#[test]
fn im0_executes_the_bus_byte() {
    // FFh on the bus is RST 38h: 13 T-states (6 for the acknowledge, 7 for RST's rest).
    let (mut c, mut b) = with_int(0, 0x1234);
    let t = c.step(&mut b);
    assert_eq!((c.pc, c.sp, t), (0x0038, 0xEFFE, 13));
    assert_eq!((b.mem[0xEFFF], b.mem[0xEFFE], c.r()), (0x12, 0x34, 1));
    assert_eq!(b.timeline(), vec![(Ack, 0), (Write, 7), (Write, 10)]);
    // Another RST.
    let (mut c, mut b) = with_int(0, 0x1234);
    b.data_bus = 0xD7;
    assert_eq!(c.step(&mut b), 13);
    assert_eq!(c.pc, 0x0010);
}

#[test]
fn nmi() {
    let mut c = cpu();
    let mut b = TestBus::new();
    c.iff1 = true;
    c.iff2 = true;
    c.pc = 0x4321;
    b.nmi_at = Some(0);
    b.load(0x0066, &[0xED, 0x45]);
    let t = c.step(&mut b);
    // 11 T-states: a 5 T-state M1 whose opcode is discarded, then the push.
    assert_eq!((c.pc, t, c.r()), (0x0066, 11, 1));
    assert_eq!((c.iff1, c.iff2), (false, true));
    assert_eq!((b.mem[0xEFFF], b.mem[0xEFFE]), (0x43, 0x21));
    assert_eq!(b.timeline(), vec![(Fetch, 0), (Write, 5), (Write, 8)]);
    // RETN restores IFF1 from IFF2.
    assert_eq!(c.step(&mut b), 14);
    assert_eq!((c.pc, c.iff1, c.iff2), (0x4321, true, true));

    // NMI is accepted with interrupts disabled, and beats a pending /INT.
    let (mut c, mut b) = with_int(1, 0x1000);
    c.iff1 = false;
    c.iff2 = false;
    b.nmi_at = Some(0);
    c.step(&mut b);
    assert_eq!((c.pc, c.iff2), (0x0066, false));
    let (mut c, mut b) = with_int(1, 0x1000);
    b.nmi_at = Some(0);
    c.step(&mut b);
    assert_eq!(c.pc, 0x0066);

    // The EI shadow holds off /INT only: an NMI right after EI is taken (as in MAME's core).
    let mut c = cpu();
    let mut b = TestBus::new();
    b.load(0, &[0xFB, 0x00]);
    assert_eq!(c.step(&mut b), 4);
    assert!(c.ei());
    b.nmi_at = Some(0);
    assert_eq!(c.step(&mut b), 11);
    assert_eq!((c.pc, b.mem[0xEFFE]), (0x0066, 0x01));
}

#[test]
fn interrupt_cycles_tile() {
    // Acknowledge 6 T-states (an M1 with two wait states), NMI's M1 4 + 1 internal, then
    // the internal T-state and the pushes: no gaps, no overlaps.
    let len = |a: &Access| match a.kind {
        Ack => 6,
        Fetch | In | Out => 4,
        Read | Write => 3,
        Internal => a.value as u64,
    };
    for (im, nmi, total) in [
        (0u8, false, 13u64),
        (1, false, 13),
        (2, false, 19),
        (1, true, 11),
    ] {
        let (mut c, mut b) = with_int(im, 0x1234);
        b.log_internal = true;
        if nmi {
            b.nmi_at = Some(0);
        }
        assert_eq!(c.step(&mut b) as u64, total);
        let mut cursor = 0;
        for a in &b.log {
            assert_eq!(a.t, cursor, "im {im} nmi {nmi}: {:?}", b.log);
            cursor += len(a);
        }
        assert_eq!(cursor, total);
    }
}

#[test]
fn ei_shadow() {
    // EI; NOP; NOP with /INT asserted throughout and interrupts initially disabled.
    let mut c = cpu();
    let mut b = TestBus::new();
    c.im = 1;
    b.int_from = Some(0);
    b.load(0, &[0xFB, 0x00, 0x00]);
    assert_eq!(c.step(&mut b), 4); // EI
    assert_eq!(c.step(&mut b), 4); // NOP: no interrupt right after EI
    assert_eq!(c.pc, 2);
    assert_eq!(c.step(&mut b), 13); // now the interrupt
    assert_eq!(c.pc, 0x38);
    assert_eq!((b.mem[0xEFFF], b.mem[0xEFFE]), (0x00, 0x02));

    // A run of EIs keeps interrupts off until the first non-EI instruction has run.
    let mut c = cpu();
    let mut b = TestBus::new();
    c.im = 1;
    b.int_from = Some(0);
    b.load(0, &[0xFB, 0xFB, 0xFB, 0x00]);
    for pc in 1..=4 {
        c.step(&mut b);
        assert_eq!(c.pc, pc);
    }
    c.step(&mut b);
    assert_eq!(c.pc, 0x38);

    // DI: never accepted.
    let mut c = cpu();
    let mut b = TestBus::new();
    c.im = 1;
    c.iff1 = true;
    b.int_from = Some(5);
    b.load(0, &[0xF3, 0x00, 0x00, 0x00]);
    for _ in 0..4 {
        c.step(&mut b);
    }
    assert_eq!(c.pc, 4);
}

#[test]
fn ld_a_i_interrupt_quirk() {
    // NMOS: an interrupt accepted right after LD A,I / LD A,R reads P/V as 0 although IFF2
    // was 1 (Young 5.3). /INT rises after the instruction has started.
    for op in [0x57u8, 0x5F] {
        let (mut c, mut b) = with_int(1, 0);
        b.int_from = Some(1);
        c.i = 0x40;
        b.load(0, &[0xED, op]);
        b.load(0x38, &[0x00]);
        c.step(&mut b);
        assert_ne!(c.regs[F] & flags::PV, 0);
        c.step(&mut b);
        assert_eq!(c.pc, 0x38);
        assert_eq!(c.regs[F] & flags::PV, 0, "ED {op:02X}");
    }
    // Without the interrupt, P/V keeps IFF2.
    let (mut c, mut b) = with_int(1, 0);
    b.int_from = None;
    b.load(0, &[0xED, 0x57, 0x00]);
    c.step(&mut b);
    c.step(&mut b);
    assert_ne!(c.regs[F] & flags::PV, 0);
    // With another instruction in between, the interrupt leaves P/V alone.
    let (mut c, mut b) = with_int(1, 0);
    b.int_from = Some(10);
    b.load(0, &[0xED, 0x57, 0x00]);
    c.step(&mut b);
    c.step(&mut b);
    c.step(&mut b);
    assert_eq!(c.pc, 0x38);
    assert_ne!(c.regs[F] & flags::PV, 0);
}

#[test]
fn halt_and_interrupt() {
    let (mut c, mut b) = with_int(1, 0x0100);
    b.int_from = None;
    b.load(0x0100, &[0x76, 0x3C]);
    assert_eq!(c.step(&mut b), 4);
    assert!(c.halted());
    assert_eq!(c.pc, 0x0101);
    // HALT cycles: 4 T-states each, one R step each, PC stays past the HALT.
    for _ in 0..5 {
        assert_eq!(c.step(&mut b), 4);
    }
    assert_eq!((c.pc, c.r(), c.t(), c.regs[A]), (0x0101, 6, 24, 0));
    b.int_from = Some(24);
    assert_eq!(c.step(&mut b), 13);
    // The return address is the instruction after HALT.
    assert_eq!(
        (c.pc, c.halted(), b.mem[0xEFFF], b.mem[0xEFFE]),
        (0x38, false, 0x01, 0x01)
    );

    // NMI ends HALT too.
    let mut c = cpu();
    let mut b = TestBus::new();
    b.load(0x0200, &[0x76]);
    c.pc = 0x0200;
    c.step(&mut b);
    b.nmi_at = Some(30);
    let mut n = 0;
    while c.halted() {
        c.step(&mut b);
        n += 1;
    }
    // HALT cycles start at 4, 8, ..., 28; the NMI is taken at T=32.
    assert_eq!((n, c.pc, c.t(), b.mem[0xEFFE]), (8, 0x66, 43, 0x01));

    // HALT with interrupts disabled and nothing pending: still halted after many steps.
    let mut c = cpu();
    let mut b = TestBus::new();
    b.mem[0] = 0x76;
    for _ in 0..100 {
        c.step(&mut b);
    }
    assert_eq!((c.halted(), c.pc, c.t()), (true, 1, 400));
}

#[test]
fn run_skips_halt_to_the_budget() {
    // Halted with nothing to wake it: `run` jumps to the first M1 boundary at or past
    // `until`, with R counting the M1 cycles it skipped.
    for (until, t, r) in [
        (1000u64, 1000u64, 250u8),
        (1001, 1004, 251),
        (1003, 1004, 251),
    ] {
        let mut c = cpu();
        let mut b = TestBus::new();
        b.mem[0] = 0x76;
        c.run(&mut b, until);
        assert_eq!(
            (c.t(), c.r() & 0x7F, c.pc, c.halted()),
            (t, r & 0x7F, 1, true),
            "until {until}"
        );
        // Only the HALT opcode itself was fetched.
        assert_eq!(b.log.len(), 1);
    }
}

/// A 200 Hz timer at 6 MHz: /INT rises every 30,000 T-states and stays up until
/// acknowledged. Counts opcode fetches.
struct Timer {
    mem: Vec<u8>,
    next: u64,
    period: u64,
    fetches: u64,
}

impl Bus for Timer {
    fn fetch(&mut self, addr: u16, _t: u64) -> u8 {
        self.fetches += 1;
        self.mem[addr as usize]
    }
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem[addr as usize]
    }
    fn write(&mut self, addr: u16, v: u8, _t: u64) {
        self.mem[addr as usize] = v;
    }
    fn port_in(&mut self, _port: u16, _t: u64) -> u8 {
        0xFF
    }
    fn port_out(&mut self, _port: u16, _v: u8, _t: u64) {}
    fn int_line(&mut self, t: u64) -> bool {
        t >= self.next
    }
    fn int_ack(&mut self, _t: u64) -> u8 {
        self.next += self.period;
        0xFF
    }
    fn next_event(&mut self, _t: u64) -> u64 {
        self.next
    }
}

fn timer_machine() -> (Cpu, Timer) {
    let mut mem = vec![0u8; 0x10000];
    // 0000: IM 1; EI; loop: HALT; JR loop
    mem[..6].copy_from_slice(&[0xED, 0x56, 0xFB, 0x76, 0x18, 0xFD]);
    // 0038: INC DE; EI; RET
    mem[0x38..0x3B].copy_from_slice(&[0x13, 0xFB, 0xC9]);
    let mut c = cpu();
    c.set_de(0);
    (
        c,
        Timer {
            mem,
            next: 30_000,
            period: 30_000,
            fetches: 0,
        },
    )
}

#[test]
fn run_halt_skip_matches_stepping() {
    // One emulated second, by `run` (skipping HALT) and by single steps: identical.
    let until = 6_000_000;
    let (mut fast, mut fb) = timer_machine();
    fast.run(&mut fb, until);
    let (mut slow, mut sb) = timer_machine();
    while slow.t() < until {
        slow.step(&mut sb);
    }
    assert_eq!(fast, slow);
    assert_eq!(fb.mem, sb.mem);
    assert_eq!(fast.de(), 199);
    assert!(fb.fetches < 10 * 200, "{} fetches", fb.fetches);
    assert!(sb.fetches > 1_000_000);
}

#[test]
fn sixty_seconds_of_halt() {
    let until = 60 * 6_000_000;
    let (mut c, mut b) = timer_machine();
    c.run(&mut b, until);
    // Interrupts at 30,000 k for k = 1..11,999 were taken; the one at exactly `until` is
    // not (run stops once T >= until, in the HALT).
    assert_eq!(c.de(), 11_999);
    assert!(c.halted());
    assert!((until..until + 4).contains(&c.t()), "t = {}", c.t());
    assert_eq!(c.pc, 4);
    // A handful of fetches per interrupt, not 90 million HALT cycles.
    assert!(b.fetches < 6 * 12_000, "{} fetches", b.fetches);
    // R counts every M1 cycle, skipped HALT cycles included. T = 4 per M1 plus the
    // non-M1 T-states of each interrupt round: acknowledge +9 (13 = one 4 T-state M1
    // equivalent + 9), INC DE +2, RET +6, JR +8 (EI and HALT are bare M1s).
    let extra = 11_999 * (9 + 2 + 6 + 8);
    assert_eq!((c.t() - extra) % 4, 0);
    let m1 = (c.t() - extra) / 4;
    assert_eq!(c.r() as u64, m1 % 128);
    // The 12,000th interrupt is pending, not yet acknowledged.
    assert_eq!(b.next, until);
}

// ------------------------------------------------------------------ prefix chains

#[test]
fn prefix_chain_last_wins() {
    let mut c = cpu();
    let mut b = TestBus::new();
    let mut code = vec![0xDD; 999];
    code.push(0xFD);
    code.extend_from_slice(&[0x21, 0x34, 0x12]);
    b.load(0x1000, &code);
    c.pc = 0x1000;
    c.iff1 = true;
    c.im = 1;
    // The first step runs two prefixes and leaves the third pending: it returns.
    assert_eq!(c.step(&mut b), 8);
    assert_eq!((c.pc, c.prefix()), (0x1002, 0xDD));
    // /INT goes up in the middle of the chain.
    b.int_from = Some(0);
    let mut total = 8;
    while c.pc < 0x1000 + 1003 {
        let t = c.step(&mut b);
        // 4 per prefix; the final step is LD IY,nn's opcode fetch and operands.
        assert!(t == 4 || t == 10, "step took {t}");
        total += t;
        // No interrupt is accepted between a prefix and its instruction.
        assert_ne!(c.pc, 0x38);
    }
    assert_eq!((c.iy, c.ix, c.prefix()), (0x1234, 0x0000, 0));
    // 1000 prefixes at 4 T-states + LD IY,nn's remaining 10.
    assert_eq!(total, 4 * 1000 + 10);
    // R: one per prefix and one for the 21h opcode.
    assert_eq!(c.r(), (1001 % 128) as u8);
    // Now the pending interrupt is taken.
    c.step(&mut b);
    assert_eq!(c.pc, 0x38);
}

#[test]
fn memory_full_of_prefixes() {
    let mut c = cpu();
    let mut b = TestBus::new();
    b.logging = false;
    for (i, m) in b.mem.iter_mut().enumerate() {
        *m = if i % 3 == 0 { 0xFD } else { 0xDD };
    }
    let mut t = 0u64;
    for _ in 0..200_000 {
        let dt = c.step(&mut b);
        assert!(dt == 4 || dt == 8);
        t += dt as u64;
    }
    assert_eq!(c.t(), t);
    // Every step ends with a prefix pending; PC has wrapped round memory.
    assert_ne!(c.prefix(), 0);
    assert_eq!(t, 4 * (200_000 + 1));
}

// ------------------------------------------------------------------ random byte soup

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

#[test]
fn random_byte_soup() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut c = cpu();
    let mut b = TestBus::new();
    for m in b.mem.iter_mut() {
        *m = rng.next() as u8;
    }
    let mut halted_steps = 0;
    let (mut acks, mut nmis, mut halts) = (0, 0, 0);
    for i in 0..3_000_000u32 {
        if i & 0x3_FFFF == 0 {
            // New registers from time to time.
            for r in c.regs.iter_mut() {
                *r = rng.next() as u8;
            }
            c.ix = rng.next() as u16;
            c.iy = rng.next() as u16;
            c.sp = rng.next() as u16;
            c.im = (rng.next() % 3) as u8;
            c.i = rng.next() as u8;
        }
        let roll = rng.next();
        if roll & 0x3F == 0 {
            b.int_from = if b.int_from.is_some() { None } else { Some(0) };
            b.data_bus = (roll >> 8) as u8;
            // Random code rarely runs EI: enable interrupts from outside now and then.
            if roll & 0x100 != 0 && c.prefix() == 0 {
                c.iff1 = true;
                c.iff2 = true;
            }
        }
        if c.halted() {
            halted_steps += 1;
            if halted_steps > 50 {
                b.nmi_at = Some(0);
                halts += 1;
                halted_steps = 0;
            }
        }
        b.log.clear();
        let (t0, r0, ref0) = (c.t(), c.r(), b.refreshes);
        let nmi_pending = b.nmi_at.is_some();
        let dt = c.step(&mut b);
        assert_eq!(c.t(), t0 + dt as u64);
        if b.log.first().is_some_and(|a| a.kind == Ack) {
            acks += 1;
        }
        if nmi_pending && b.nmi_at.is_none() {
            assert_eq!(c.pc, 0x66);
            nmis += 1;
        }
        // The longest step: IM 0 executing a DD-prefixed 23 T-state instruction (6 + 19).
        assert!((4..=25).contains(&dt), "step {i}: {dt} T-states");
        assert!(b.log.windows(2).all(|w| w[0].t < w[1].t), "step {i}");
        assert!(b.log.iter().all(|a| a.t >= t0 && a.t < c.t()));
        let loaded_r = b.log.windows(2).any(|w| {
            w[0].kind == Fetch && w[0].value == 0xED && w[1].kind == Fetch && w[1].value == 0x4F
        });
        if !loaded_r {
            let m1 = (b.refreshes - ref0) as u8;
            assert_eq!(c.r() & 0x7F, r0.wrapping_add(m1) & 0x7F, "step {i}");
            assert_eq!(c.r() & 0x80, r0 & 0x80);
        }
    }
    // The soup really exercised interrupts, NMIs and HALT.
    assert!(
        acks > 1000 && nmis > 100 && halts > 100,
        "{acks} {nmis} {halts}"
    );
}
