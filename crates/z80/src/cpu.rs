//! The Z80 register file and instruction engine.
//!
//! Timing convention: `self.t()` is the T-state at which the next machine cycle begins. Each
//! access helper calls the bus with the current `t`, then advances `t` by that cycle's length,
//! so every access happens at its own T-state inside the instruction.

use crate::Bus;

/// Flag bits of F.
pub mod flags {
    pub const C: u8 = 0x01;
    pub const N: u8 = 0x02;
    pub const PV: u8 = 0x04;
    pub const X: u8 = 0x08;
    pub const H: u8 = 0x10;
    pub const Y: u8 = 0x20;
    pub const Z: u8 = 0x40;
    pub const S: u8 = 0x80;
}
use flags::*;

const XY: u8 = X | Y;

/// Expands to a 256-arm `match` on `$op` whose arm `n` calls `$self.$f::<n, ...>(...)`, so
/// every opcode's body is compiled with the opcode as a constant: the register, ALU and
/// condition sub-decodes fold away and one jump table dispatches each instruction.
macro_rules! dispatch {
    ($op:expr, $self:ident . $f:ident :: <[$($g:tt)*]> ($($a:expr),*)) => {
        dispatch!(@arms $op, $self, $f, [$($g)*], ($($a),*);
            0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F
            0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F
            0x20 0x21 0x22 0x23 0x24 0x25 0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F
            0x30 0x31 0x32 0x33 0x34 0x35 0x36 0x37 0x38 0x39 0x3A 0x3B 0x3C 0x3D 0x3E 0x3F
            0x40 0x41 0x42 0x43 0x44 0x45 0x46 0x47 0x48 0x49 0x4A 0x4B 0x4C 0x4D 0x4E 0x4F
            0x50 0x51 0x52 0x53 0x54 0x55 0x56 0x57 0x58 0x59 0x5A 0x5B 0x5C 0x5D 0x5E 0x5F
            0x60 0x61 0x62 0x63 0x64 0x65 0x66 0x67 0x68 0x69 0x6A 0x6B 0x6C 0x6D 0x6E 0x6F
            0x70 0x71 0x72 0x73 0x74 0x75 0x76 0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D 0x7E 0x7F
            0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87 0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F
            0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98 0x99 0x9A 0x9B 0x9C 0x9D 0x9E 0x9F
            0xA0 0xA1 0xA2 0xA3 0xA4 0xA5 0xA6 0xA7 0xA8 0xA9 0xAA 0xAB 0xAC 0xAD 0xAE 0xAF
            0xB0 0xB1 0xB2 0xB3 0xB4 0xB5 0xB6 0xB7 0xB8 0xB9 0xBA 0xBB 0xBC 0xBD 0xBE 0xBF
            0xC0 0xC1 0xC2 0xC3 0xC4 0xC5 0xC6 0xC7 0xC8 0xC9 0xCA 0xCB 0xCC 0xCD 0xCE 0xCF
            0xD0 0xD1 0xD2 0xD3 0xD4 0xD5 0xD6 0xD7 0xD8 0xD9 0xDA 0xDB 0xDC 0xDD 0xDE 0xDF
            0xE0 0xE1 0xE2 0xE3 0xE4 0xE5 0xE6 0xE7 0xE8 0xE9 0xEA 0xEB 0xEC 0xED 0xEE 0xEF
            0xF0 0xF1 0xF2 0xF3 0xF4 0xF5 0xF6 0xF7 0xF8 0xF9 0xFA 0xFB 0xFC 0xFD 0xFE 0xFF)
    };
    (@arms $op:expr, $self:ident, $f:ident, $gs:tt, $args:tt; $($n:literal)*) => {
        match $op {
            $( $n => dispatch!(@call $self, $f, $n, $gs, $args), )*
        }
    };
    (@call $self:ident, $f:ident, $n:literal, [$($g:tt)*], ($($a:expr),*)) => {
        $self.$f::<$n, $($g)*>($($a),*)
    };
}

/// Index of each 8-bit register in [`Cpu::regs`]. Each pair is stored low byte first (C B,
/// E D, L H, F A), as the host is little-endian, so reading a pair is one 16-bit load and no
/// byte swap; [`reg_slot`] maps an opcode's register field to its slot.
pub const C_: usize = 0;
pub const B: usize = 1;
pub const E: usize = 2;
pub const D: usize = 3;
pub const L: usize = 4;
pub const H_: usize = 5;
pub const F: usize = 6;
pub const A: usize = 7;

/// The slot in [`Cpu::regs`] of the register an opcode's 3-bit field names (0 B, 1 C, 2 D,
/// 3 E, 4 H, 5 L, 7 A; 6, the `(HL)` operand, gives F's slot).
#[inline(always)]
pub const fn reg_slot(field: u8) -> usize {
    const SLOTS: [usize; 8] = [B, C_, D, E, H_, L, F, A];
    SLOTS[(field & 7) as usize]
}

const fn build_sz53(parity: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let v = i as u8;
        let mut f = v & (S | XY);
        if v == 0 {
            f |= Z;
        }
        if parity && v.count_ones() & 1 == 0 {
            f |= PV;
        }
        t[i] = f;
        i += 1;
    }
    t
}

/// S, Z, X and Y of a result.
static SZ53: [u8; 256] = build_sz53(false);
/// S, Z, X, Y and even parity of a result.
static SZ53P: [u8; 256] = build_sz53(true);

/// Flags of INC r (all but C) by result: S, Z, X, Y; H when the low nibble wrapped to 0;
/// P/V on the overflow 7Fh -> 80h.
static INC_FLAGS: [u8; 256] = build_inc_dec(false);
/// Flags of DEC r (all but C) by result: S, Z, X, Y, N; H when the low nibble wrapped to
/// Fh; P/V on the overflow 80h -> 7Fh.
static DEC_FLAGS: [u8; 256] = build_inc_dec(true);

const fn build_inc_dec(dec: bool) -> [u8; 256] {
    let mut t = build_sz53(false);
    let mut i = 0;
    while i < 256 {
        let res = i as u8;
        if dec {
            t[i] |= N;
            if res == 0x7F {
                t[i] |= PV;
            }
            if res & 0x0F == 0x0F {
                t[i] |= H;
            }
        } else {
            if res == 0x80 {
                t[i] |= PV;
            }
            if res & 0x0F == 0 {
                t[i] |= H;
            }
        }
        i += 1;
    }
    t
}

#[inline(always)]
fn parity_even(v: u8) -> bool {
    v.count_ones() & 1 == 0
}

/// Which register pair stands where the instruction set says HL: HL itself, or IX/IY after a
/// DD/FD prefix.
const HL: u8 = 0;
const IX: u8 = 1;
const IY: u8 = 2;

/// The CPU state. Every field is architectural state, except that R is kept as a free-running
/// M1 counter plus its bit 7 (read it with [`Cpu::r`], write it with [`Cpu::set_r`]), and that
/// counter shares one word with the T-state count (read it with [`Cpu::t`], set it with
/// [`Cpu::set_t`]): an M1 cycle is one add to that word, on the hottest path of the core.
#[derive(Clone, Debug)]
pub struct Cpu {
    /// The 8-bit registers, each pair low byte first: C, B, E, D, L, H, F, A (index with the
    /// constants [`B`], [`A`], ..., or with [`reg_slot`] from an opcode's register field).
    pub regs: [u8; 8],
    pub af_alt: u16,
    pub bc_alt: u16,
    pub de_alt: u16,
    pub hl_alt: u16,
    pub ix: u16,
    pub iy: u16,
    pub sp: u16,
    pub pc: u16,
    pub i: u8,
    /// Time and R's counter in one word, so that an M1 cycle is one add: the T-states since
    /// power-on in bits 0-55 (read with [`Cpu::t`]), the M1 cycles since creation, modulo 256,
    /// in bits 56-63 (R's low 7 bits are that count plus `r_base`).
    tm: u64,
    /// What R's low 7 bits were when the M1 count was 0 (modulo 128): set by [`Cpu::set_r`].
    r_base: u8,
    /// R's bit 7: whatever was last loaded (only bit 7 of this field counts).
    r7: u8,
    /// MEMPTR, the hidden register whose high byte leaks into BIT n,(HL)'s flags.
    pub wz: u16,
    /// The Q latch as last written (see [`Cpu::q`]): it counts only while no M1 cycle has
    /// run since `q_stamp`, so an instruction that leaves the flags alone costs nothing to
    /// clear it.
    q: u8,
    /// `tm` when `q` was written.
    q_stamp: u64,
    pub iff1: bool,
    pub iff2: bool,
    pub im: u8,
    /// The rare states `step` must look at before an instruction, one bit each (`SPECIAL_*`):
    /// a pending DD/FD prefix, the EI shadow, the LD A,I/R flag, HALT. Zero on almost every
    /// instruction, so `step` tests one byte instead of four fields. Read and written
    /// through [`Cpu::prefix`], [`Cpu::ei`], [`Cpu::p`], [`Cpu::halted`] and their setters.
    special: u8,
}

/// The T-state count wraps here: [`Cpu::t`] is 56 bits, the top byte of the word that holds it
/// being R's counter. 2^56 T-states are 380 years of a 6 MHz Z80, or more than a year of
/// emulation at thousands of emulated MHz.
pub const T_LIMIT: u64 = 1 << 56;
/// `Cpu::tm`'s T-state field.
const T_MASK: u64 = T_LIMIT - 1;
/// One M1 cycle in `Cpu::tm`'s counter field, just above the T-states.
const M1_ONE: u64 = T_LIMIT;
/// `tm` minus a Q stamp is below this exactly when the stamp's M1 count is the current one:
/// the counter field is only 8 bits, but 256 M1 cycles take at least 1024 T-states.
const Q_WINDOW: u64 = 1024;

/// A DD prefix whose instruction has not been fetched yet.
const SPECIAL_DD: u8 = 0x01;
/// An FD prefix whose instruction has not been fetched yet.
const SPECIAL_FD: u8 = 0x02;
const SPECIAL_PREFIX: u8 = SPECIAL_DD | SPECIAL_FD;
/// The last instruction was EI: no maskable interrupt before the next one completes.
const SPECIAL_EI: u8 = 0x04;
/// The last instruction was LD A,I or LD A,R (an interrupt accepted now clears P/V).
const SPECIAL_P: u8 = 0x08;
/// Executing HALT: PC already points past the HALT opcode.
const SPECIAL_HALT: u8 = 0x10;

impl PartialEq for Cpu {
    /// Architectural equality: R compares by value, whatever its counter's junk bit 7 holds.
    fn eq(&self, o: &Self) -> bool {
        self.regs == o.regs
            && (self.af_alt, self.bc_alt, self.de_alt, self.hl_alt)
                == (o.af_alt, o.bc_alt, o.de_alt, o.hl_alt)
            && (self.ix, self.iy, self.sp, self.pc, self.wz) == (o.ix, o.iy, o.sp, o.pc, o.wz)
            && (self.i, self.r(), self.q(), self.im) == (o.i, o.r(), o.q(), o.im)
            && (self.special, self.iff1, self.iff2) == (o.special, o.iff1, o.iff2)
            && self.t() == o.t()
    }
}

impl Eq for Cpu {}

impl Default for Cpu {
    fn default() -> Self {
        Self::new()
    }
}

macro_rules! pair {
    ($get:ident, $set:ident, $hi:expr, $lo:expr) => {
        #[inline(always)]
        pub fn $get(&self) -> u16 {
            u16::from_le_bytes([self.regs[$lo], self.regs[$hi]])
        }
        /// One 16-bit store, not two byte stores: a later 16-bit read of the pair (INC rr,
        /// PUSH, EXX) then takes its value straight from the store, where after two byte
        /// stores it waits for both to reach the cache (about 12 cycles on the host measured
        /// in `docs/performance.md`, eleventh session).
        #[inline(always)]
        pub fn $set(&mut self, v: u16) {
            const { assert!($hi == $lo + 1) };
            self.regs[$lo..$lo + 2].copy_from_slice(&v.to_le_bytes());
        }
    };
}

impl Cpu {
    /// Power-on state: PC, I, R and the interrupt state cleared, AF and SP all ones.
    pub fn new() -> Self {
        let mut cpu = Cpu {
            regs: [0xFF; 8],
            af_alt: 0xFFFF,
            bc_alt: 0xFFFF,
            de_alt: 0xFFFF,
            hl_alt: 0xFFFF,
            ix: 0xFFFF,
            iy: 0xFFFF,
            sp: 0xFFFF,
            pc: 0,
            i: 0,
            tm: 0,
            r_base: 0,
            r7: 0,
            wz: 0,
            q: 0,
            q_stamp: 0,
            iff1: false,
            iff2: false,
            im: 0,
            special: 0,
        };
        cpu.reset();
        cpu
    }

    /// The /RESET line: PC, I, R, IM and the interrupt flip-flops cleared; time is kept.
    pub fn reset(&mut self) {
        self.pc = 0;
        self.i = 0;
        self.set_r(0);
        self.im = 0;
        self.iff1 = false;
        self.iff2 = false;
        self.special = 0;
        self.set_q(0);
        self.set_af(0xFFFF);
        self.sp = 0xFFFF;
    }

    /// Executing HALT (PC already points past the HALT opcode).
    #[inline(always)]
    pub fn halted(&self) -> bool {
        self.special & SPECIAL_HALT != 0
    }

    #[inline(always)]
    pub fn set_halted(&mut self, v: bool) {
        self.set_special(SPECIAL_HALT, v);
    }

    /// A DD or FD prefix whose instruction has not been fetched yet (0 when none).
    #[inline(always)]
    pub fn prefix(&self) -> u8 {
        match self.special & SPECIAL_PREFIX {
            SPECIAL_DD => 0xDD,
            SPECIAL_FD => 0xFD,
            _ => 0,
        }
    }

    /// Sets the pending prefix: 0xDD or 0xFD, anything else clears it.
    #[inline(always)]
    pub fn set_prefix(&mut self, v: u8) {
        let bits = match v {
            0xDD => SPECIAL_DD,
            0xFD => SPECIAL_FD,
            _ => 0,
        };
        self.special = (self.special & !SPECIAL_PREFIX) | bits;
    }

    /// The last instruction was EI: no maskable interrupt before the next one completes.
    #[inline(always)]
    pub fn ei(&self) -> bool {
        self.special & SPECIAL_EI != 0
    }

    #[inline(always)]
    pub fn set_ei(&mut self, v: bool) {
        self.set_special(SPECIAL_EI, v);
    }

    /// The last instruction was LD A,I or LD A,R (an interrupt accepted now clears P/V).
    #[inline(always)]
    pub fn p(&self) -> bool {
        self.special & SPECIAL_P != 0
    }

    #[inline(always)]
    pub fn set_p(&mut self, v: bool) {
        self.set_special(SPECIAL_P, v);
    }

    #[inline(always)]
    fn set_special(&mut self, bit: u8, v: bool) {
        if v {
            self.special |= bit;
        } else {
            self.special &= !bit;
        }
    }

    pair!(bc, set_bc, B, C_);
    pair!(de, set_de, D, E);
    pair!(hl, set_hl, H_, L);
    pair!(af, set_af, A, F);

    #[inline(always)]
    pub fn a(&self) -> u8 {
        self.regs[A]
    }
    #[inline(always)]
    pub fn f(&self) -> u8 {
        self.regs[F]
    }
    /// The Q latch: F as written by the last instruction if it wrote the flags, else 0 (SCF
    /// and CCF take X and Y from it). Between instructions only.
    #[inline(always)]
    pub fn q(&self) -> u8 {
        q_at(self.q, self.q_stamp, self.tm)
    }

    /// Sets the Q latch as if the last instruction had written it.
    #[inline(always)]
    pub fn set_q(&mut self, v: u8) {
        self.q = v;
        self.q_stamp = self.tm;
    }

    /// The R register: 7-bit M1 counter, bit 7 as last loaded.
    #[inline(always)]
    pub fn r(&self) -> u8 {
        r_at(self.r7, self.r_base, m1_count(self.tm))
    }

    /// Loads R (LD R,A does this; so do save states and test harnesses).
    #[inline(always)]
    pub fn set_r(&mut self, v: u8) {
        self.r_base = v.wrapping_sub(m1_count(self.tm));
        self.r7 = v;
    }

    /// T-states since power-on (56 bits, wrapping).
    #[inline(always)]
    pub fn t(&self) -> u64 {
        self.tm & T_MASK
    }

    /// Sets the T-state count (between instructions), keeping R and the Q latch.
    pub fn set_t(&mut self, t: u64) {
        let q = self.q();
        self.tm = (self.tm & !T_MASK) | (t & T_MASK);
        self.set_q(q);
    }

    /// The engine's view of this CPU (see [`Core`]).
    #[inline(always)]
    fn core(&mut self) -> Core<'_> {
        Core::new(self, self.pc, self.tm)
    }

    /// Runs until `self.t() >= until`, instruction by instruction. A halted CPU skips straight to
    /// the bus's next event (or `until`), counting the M1 cycles it would have run.
    pub fn run<BUS: Bus>(&mut self, bus: &mut BUS, until: u64) {
        let mut core = self.core();
        core.run_loop::<false, false, BUS>(bus, until, u64::MAX);
        core.finish();
    }

    /// Runs what up to `max` calls of [`Cpu::step`] would run, stopping early once the CPU is
    /// halted (a halted CPU runs no step here, where `step` would run its HALT cycles).
    /// Returns the steps run. Faster than calling `step` in a loop: PC, the clock, A and F
    /// stay in host registers from one instruction to the next.
    pub fn run_until_halt<BUS: Bus>(&mut self, bus: &mut BUS, max: u64) -> u64 {
        let mut core = self.core();
        let n = core.run_loop::<true, true, BUS>(bus, u64::MAX, max);
        core.finish();
        n
    }

    /// Executes one instruction (a whole prefix chain), or accepts a pending interrupt, or
    /// runs one M1 cycle of HALT. Returns the T-states it took.
    #[inline(always)]
    pub fn step<BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        let mut core = self.core();
        let t = core.step(bus);
        core.finish();
        t
    }
}

/// The Q latch's value at clock word `tm`, written as `q` when the word was `stamp`.
#[inline(always)]
fn q_at(q: u8, stamp: u64, tm: u64) -> u8 {
    if tm.wrapping_sub(stamp) < Q_WINDOW {
        q
    } else {
        0
    }
}

/// R when the M1 count is `count`.
#[inline(always)]
fn r_at(r7: u8, r_base: u8, count: u8) -> u8 {
    (r7 & 0x80) | (count.wrapping_add(r_base) & 0x7F)
}

/// The M1 count (modulo 256) held in a clock word.
#[inline(always)]
fn m1_count(tm: u64) -> u8 {
    (tm >> 56) as u8
}

/// The engine: a [`Cpu`] with its PC, clock word, A and F taken out into locals, so that a
/// run of instructions keeps them in host registers; every other register stays in the `Cpu`
/// (through `Deref`). Carried through memory, each made an instruction that reads it wait
/// for the previous one's store to reach its load (see `docs/performance.md`, ninth and
/// eleventh sessions). Code run out of line gets the `Cpu` and the values as arguments
/// ([`outlined`]), so a `Core`'s own address never escapes and the compiler can keep it in
/// registers.
struct Core<'a> {
    pc: u16,
    tm: u64,
    /// A and F, which nearly every instruction reads or writes (see [`Core::reg`]).
    a: u8,
    f: u8,
    cpu: &'a mut Cpu,
}

impl std::ops::Deref for Core<'_> {
    type Target = Cpu;
    #[inline(always)]
    fn deref(&self) -> &Cpu {
        self.cpu
    }
}

impl std::ops::DerefMut for Core<'_> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Cpu {
        self.cpu
    }
}

/// A rare path that [`outlined`] runs out of the run loop. One type per job, so that each
/// instance of `outlined` holds its own job's code and nothing else.
trait OutOfLine {
    /// Runs the job (`op` is the ED page's opcode); `false` only when `step_special` ran no
    /// step.
    fn run<BUS: Bus>(k: &mut Core<'_>, bus: &mut BUS, op: u8) -> bool;
}

macro_rules! out_of_line {
    ($($name:ident: |$k:ident, $bus:ident, $op:ident| $body:expr;)*) => {
        $(
            struct $name;
            impl OutOfLine for $name {
                #[inline(always)]
                fn run<BUS: Bus>($k: &mut Core<'_>, $bus: &mut BUS, $op: u8) -> bool {
                    let _ = $op;
                    $body
                }
            }
        )*
    };
}

out_of_line! {
    OutNmi: |k, bus, op| { k.accept_nmi(bus); true };
    OutInt: |k, bus, op| { k.accept_int(bus); true };
    OutSpecial: |k, bus, op| k.step_special(bus);
    OutCb: |k, bus, op| { k.exec_cb(bus); true };
    OutDd: |k, bus, op| { k.exec_prefixed::<IX, BUS>(bus); true };
    OutFd: |k, bus, op| { k.exec_prefixed::<IY, BUS>(bus); true };
    OutDdCb: |k, bus, op| { k.exec_index_cb::<IX, BUS>(bus); true };
    OutFdCb: |k, bus, op| { k.exec_index_cb::<IY, BUS>(bus); true };
    OutEd: |k, bus, op| { k.exec_ed_op(bus, op); true };
}

/// Runs `J` out of line on a `Core` made from `cpu`, the clock word `tm`, PC and the job's
/// opcode (`pc_op`, bits 0-15 and 16-23), A and F. Returns the clock word, and PC in bits
/// 0-15 with the job's answer in bit 16: two scalars, which come back in host registers. A
/// and F go in as arguments but come back through `cpu.regs`: packing them into the returned
/// word put a chain of shifts on F between one CB-page instruction and the next (`RR L`
/// twice as slow).
#[inline(never)]
fn outlined<J: OutOfLine, BUS: Bus>(
    cpu: &mut Cpu,
    bus: &mut BUS,
    tm: u64,
    pc_op: u32,
    a: u8,
    f: u8,
) -> (u64, u32) {
    let mut k = Core {
        pc: pc_op as u16,
        tm,
        a,
        f,
        cpu,
    };
    let done = J::run(&mut k, bus, (pc_op >> 16) as u8);
    k.store_af();
    (k.tm, k.pc as u32 | (done as u32) << 16)
}

impl<'a> Core<'a> {
    /// `cpu` with PC, the clock word, A and F taken out.
    #[inline(always)]
    fn new(cpu: &'a mut Cpu, pc: u16, tm: u64) -> Self {
        Core {
            pc,
            tm,
            a: cpu.regs[A],
            f: cpu.regs[F],
            cpu,
        }
    }

    /// A and F back into the `Cpu`.
    #[inline(always)]
    fn store_af(&mut self) {
        self.cpu.regs[A] = self.a;
        self.cpu.regs[F] = self.f;
    }

    /// The 8-bit register in slot `slot` of [`Cpu::regs`]: A and F from the engine's own
    /// copies, the others from the `Cpu`. Every access to `regs` from the engine goes through
    /// here or [`Core::set_reg`].
    #[inline(always)]
    fn reg(&self, slot: usize) -> u8 {
        match slot {
            A => self.a,
            F => self.f,
            _ => self.cpu.regs[slot],
        }
    }

    #[inline(always)]
    fn set_reg(&mut self, slot: usize, v: u8) {
        match slot {
            A => self.a = v,
            F => self.f = v,
            _ => self.cpu.regs[slot] = v,
        }
    }

    #[inline(always)]
    fn a(&self) -> u8 {
        self.a
    }

    #[inline(always)]
    fn f(&self) -> u8 {
        self.f
    }

    #[inline(always)]
    fn set_a(&mut self, v: u8) {
        self.a = v;
    }

    #[inline(always)]
    fn af(&self) -> u16 {
        u16::from_le_bytes([self.f, self.a])
    }

    #[inline(always)]
    fn set_af(&mut self, v: u16) {
        [self.f, self.a] = v.to_le_bytes();
    }

    /// Writes F as an instruction's flag result (and so the Q latch).
    #[inline(always)]
    fn set_flags(&mut self, v: u8) {
        self.f = v;
        self.q = v;
        self.q_stamp = self.tm;
    }

    /// PC, the clock, A and F back into the `Cpu`.
    #[inline(always)]
    fn finish(mut self) {
        self.cpu.pc = self.pc;
        self.cpu.tm = self.tm;
        self.store_af();
    }

    /// Runs `J` out of line (see [`outlined`]); returns its answer.
    #[inline(always)]
    fn call_outlined<J: OutOfLine, BUS: Bus>(&mut self, bus: &mut BUS, op: u8) -> bool {
        let pc_op = self.pc as u32 | (op as u32) << 16;
        let (tm, pc) = outlined::<J, BUS>(self.cpu, bus, self.tm, pc_op, self.a, self.f);
        self.tm = tm;
        self.pc = pc as u16;
        // The job left A and F in the `Cpu` (see `outlined`).
        (self.a, self.f) = (self.cpu.regs[A], self.cpu.regs[F]);
        pc >> 16 != 0
    }

    /// The Q latch as the instruction now executing found it: its own M1 cycles (one, or
    /// two after a DD/FD prefix) came after the last instruction's flags were written.
    #[inline(always)]
    fn q_before<const X_: u8>(&self) -> u8 {
        let own = if X_ == HL { 1 } else { 2 };
        let since = self.tm.wrapping_sub(self.q_stamp);
        if since.wrapping_sub(own * M1_ONE) < Q_WINDOW {
            self.q
        } else {
            0
        }
    }

    /// Forgets the Q latch: the next instruction sees 0 (an accepted interrupt).
    #[inline(always)]
    fn clear_q(&mut self) {
        self.q = 0;
        self.q_stamp = self.tm;
    }

    // ---------------------------------------------------------------- bus cycles

    /// R (see [`Cpu::r`]).
    #[inline(always)]
    fn r(&self) -> u8 {
        self.r_after(self.m1_count())
    }

    /// R as it reads when the M1 count is `count`.
    #[inline(always)]
    fn r_after(&self, count: u8) -> u8 {
        r_at(self.r7, self.r_base, count)
    }

    /// Loads R (LD R,A).
    #[inline(always)]
    fn set_r(&mut self, v: u8) {
        self.r_base = v.wrapping_sub(self.m1_count());
        self.r7 = v;
    }

    #[inline(always)]
    fn m1_count(&self) -> u8 {
        m1_count(self.tm)
    }

    #[inline(always)]
    fn inc_r(&mut self) {
        self.tm = self.tm.wrapping_add(M1_ONE);
    }

    /// T-states since power-on (see [`Cpu::t`]).
    #[inline(always)]
    fn t(&self) -> u64 {
        self.tm & T_MASK
    }

    /// `n` T-states pass.
    #[inline(always)]
    fn tick(&mut self, n: u64) {
        self.tm = self.tm.wrapping_add(n);
    }

    /// An M1 cycle: opcode fetch (2 T-states) then refresh (2 T-states).
    #[inline(always)]
    fn fetch_op<BUS: Bus>(&mut self, bus: &mut BUS) -> u8 {
        let op = self.fetch_bus(bus);
        self.m1_done();
        op
    }

    /// The bus half of an M1 cycle (opcode read, refresh address); [`Core::m1_done`] then
    /// accounts for it. Split so that the opcode tables can do the accounting inside each
    /// opcode's body, where the compiler merges it with the body's own PC and T-state
    /// updates instead of storing PC and T once before the dispatch and again after.
    #[inline(always)]
    fn fetch_bus<BUS: Bus>(&mut self, bus: &mut BUS) -> u8 {
        let op = bus.fetch(self.pc, self.t());
        bus.refresh(u16::from_be_bytes([self.i, self.r()]), self.t() + 2);
        op
    }

    /// PC past the opcode, R counted, the M1 cycle's 4 T-states.
    #[inline(always)]
    fn m1_done(&mut self) {
        self.pc = self.pc.wrapping_add(1);
        self.inc_r();
        self.tick(4);
    }

    #[inline(always)]
    fn read<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16) -> u8 {
        let v = bus.read(addr, self.t());
        self.tick(3);
        v
    }

    #[inline(always)]
    fn write<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16, v: u8) {
        bus.write(addr, v, self.t());
        self.tick(3);
    }

    #[inline(always)]
    fn idle<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16, n: u32) {
        bus.internal(addr, n, self.t());
        self.tick(n as u64);
    }

    #[inline(always)]
    fn ir(&self) -> u16 {
        u16::from_be_bytes([self.i, self.r()])
    }

    /// The refresh address of the last M1 cycle (R before its increment), which stays on the
    /// address bus during the internal T-states that follow an opcode fetch.
    #[inline(always)]
    fn ir_last(&self) -> u16 {
        u16::from_be_bytes([self.i, self.r_after(self.m1_count().wrapping_sub(1))])
    }

    #[inline(always)]
    fn imm8<BUS: Bus>(&mut self, bus: &mut BUS) -> u8 {
        let v = self.read(bus, self.pc);
        self.pc = self.pc.wrapping_add(1);
        v
    }

    #[inline(always)]
    fn imm16<BUS: Bus>(&mut self, bus: &mut BUS) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    fn read16<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16) -> u16 {
        let lo = self.read(bus, addr);
        let hi = self.read(bus, addr.wrapping_add(1));
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    fn write16<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.write(bus, addr, lo);
        self.write(bus, addr.wrapping_add(1), hi);
    }

    #[inline(always)]
    fn push<BUS: Bus>(&mut self, bus: &mut BUS, v: u16) {
        // SP is read once and written once: written before each bus write, it was read back
        // after it, and each such store-then-load costs an instruction's worth of latency.
        let [lo, hi] = v.to_le_bytes();
        let sp = self.sp;
        self.write(bus, sp.wrapping_sub(1), hi);
        self.write(bus, sp.wrapping_sub(2), lo);
        self.sp = sp.wrapping_sub(2);
    }

    #[inline(always)]
    fn pop<BUS: Bus>(&mut self, bus: &mut BUS) -> u16 {
        let sp = self.sp;
        let lo = self.read(bus, sp);
        let hi = self.read(bus, sp.wrapping_add(1));
        self.sp = sp.wrapping_add(2);
        u16::from_le_bytes([lo, hi])
    }

    #[inline(always)]
    fn port_in<BUS: Bus>(&mut self, bus: &mut BUS, port: u16) -> u8 {
        let v = bus.port_in(port, self.t());
        self.tick(4);
        v
    }

    #[inline(always)]
    fn port_out<BUS: Bus>(&mut self, bus: &mut BUS, port: u16, v: u8) {
        bus.port_out(port, v, self.t());
        self.tick(4);
    }

    // ---------------------------------------------------------------- HL / IX / IY

    #[inline(always)]
    fn xy<const X_: u8>(&self) -> u16 {
        match X_ {
            HL => self.hl(),
            IX => self.ix,
            _ => self.iy,
        }
    }

    #[inline(always)]
    fn set_xy<const X_: u8>(&mut self, v: u16) {
        match X_ {
            HL => self.set_hl(v),
            IX => self.ix = v,
            _ => self.iy = v,
        }
    }

    /// Register `i` (opcode encoding, never 6) with H and L standing for IXH/IXL or IYH/IYL.
    #[inline(always)]
    fn get<const X_: u8>(&self, i: u8) -> u8 {
        let i = reg_slot(i);
        if X_ != HL && (i == H_ || i == L) {
            let [hi, lo] = self.xy::<X_>().to_be_bytes();
            if i == H_ {
                hi
            } else {
                lo
            }
        } else {
            self.reg(i)
        }
    }

    #[inline(always)]
    fn put<const X_: u8>(&mut self, i: u8, v: u8) {
        let i = reg_slot(i);
        if X_ != HL && (i == H_ || i == L) {
            let [mut hi, mut lo] = self.xy::<X_>().to_be_bytes();
            if i == H_ {
                hi = v
            } else {
                lo = v
            }
            self.set_xy::<X_>(u16::from_be_bytes([hi, lo]));
        } else {
            self.set_reg(i, v);
        }
    }

    /// The address an `(HL)` operand names: HL, or IX+d / IY+d with the displacement read and
    /// `idle` internal T-states spent on the displacement's address (5 for most
    /// instructions, 2 for `LD (IX+d),n`, which reads its operand first).
    #[inline(always)]
    fn mem_operand<const X_: u8, BUS: Bus>(&mut self, bus: &mut BUS, idle: u32) -> u16 {
        if X_ == HL {
            self.hl()
        } else {
            let d = self.imm8(bus) as i8;
            let addr = self.xy::<X_>().wrapping_add(d as u16);
            self.wz = addr;
            if idle > 0 {
                self.idle(bus, self.pc.wrapping_sub(1), idle);
            }
            addr
        }
    }

    // ---------------------------------------------------------------- ALU

    #[inline(always)]
    fn add8(&mut self, v: u8, carry: u8) {
        let a = self.a();
        let r = a as u16 + v as u16 + carry as u16;
        let res = r as u8;
        let f = SZ53[res as usize]
            | ((a ^ v ^ res) & H)
            | (((!(a ^ v) & (a ^ res)) >> 5) & PV)
            | (r >> 8) as u8;
        self.set_a(res);
        self.set_flags(f);
    }

    #[inline(always)]
    fn sub8_flags(&self, v: u8, carry: u8) -> (u8, u8) {
        let a = self.a();
        let r = (a as u16).wrapping_sub(v as u16).wrapping_sub(carry as u16);
        let res = r as u8;
        let f = SZ53[res as usize]
            | N
            | ((a ^ v ^ res) & H)
            | ((((a ^ v) & (a ^ res)) >> 5) & PV)
            | ((r >> 8) as u8 & C);
        (res, f)
    }

    #[inline(always)]
    fn alu(&mut self, op: u8, v: u8) {
        match op & 7 {
            0 => self.add8(v, 0),
            1 => self.add8(v, self.f() & C),
            2 => {
                let (res, f) = self.sub8_flags(v, 0);
                self.set_a(res);
                self.set_flags(f);
            }
            3 => {
                let (res, f) = self.sub8_flags(v, self.f() & C);
                self.set_a(res);
                self.set_flags(f);
            }
            4 => {
                let res = self.a() & v;
                self.set_a(res);
                self.set_flags(SZ53P[res as usize] | H);
            }
            5 => {
                let res = self.a() ^ v;
                self.set_a(res);
                self.set_flags(SZ53P[res as usize]);
            }
            6 => {
                let res = self.a() | v;
                self.set_a(res);
                self.set_flags(SZ53P[res as usize]);
            }
            _ => {
                // CP: X and Y come from the operand, not the result.
                let (_, f) = self.sub8_flags(v, 0);
                self.set_flags((f & !XY) | (v & XY));
            }
        }
    }

    #[inline(always)]
    fn inc8(&mut self, v: u8) -> u8 {
        let res = v.wrapping_add(1);
        self.set_flags((self.f() & C) | INC_FLAGS[res as usize]);
        res
    }

    #[inline(always)]
    fn dec8(&mut self, v: u8) -> u8 {
        let res = v.wrapping_sub(1);
        self.set_flags((self.f() & C) | DEC_FLAGS[res as usize]);
        res
    }

    #[inline(always)]
    fn add16(&mut self, a: u16, v: u16) -> u16 {
        let r = a as u32 + v as u32;
        let res = r as u16;
        let f = (self.f() & (S | Z | PV))
            | ((res >> 8) as u8 & XY)
            | (((a ^ v ^ res) >> 8) as u8 & H)
            | (r >> 16) as u8;
        self.set_flags(f);
        self.wz = a.wrapping_add(1);
        res
    }

    #[inline(always)]
    fn adc16(&mut self, v: u16) {
        let a = self.hl();
        let r = a as u32 + v as u32 + (self.f() & C) as u32;
        let res = r as u16;
        let mut f = ((res >> 8) as u8 & (S | XY))
            | (((a ^ v ^ res) >> 8) as u8 & H)
            | (((!(a ^ v) & (a ^ res)) >> 13) as u8 & PV)
            | (r >> 16) as u8;
        if res == 0 {
            f |= Z;
        }
        self.set_flags(f);
        self.wz = a.wrapping_add(1);
        self.set_hl(res);
    }

    #[inline(always)]
    fn sbc16(&mut self, v: u16) {
        let a = self.hl();
        let r = (a as u32)
            .wrapping_sub(v as u32)
            .wrapping_sub((self.f() & C) as u32);
        let res = r as u16;
        let mut f = ((res >> 8) as u8 & (S | XY))
            | N
            | (((a ^ v ^ res) >> 8) as u8 & H)
            | ((((a ^ v) & (a ^ res)) >> 13) as u8 & PV)
            | ((r >> 16) as u8 & C);
        if res == 0 {
            f |= Z;
        }
        self.set_flags(f);
        self.wz = a.wrapping_add(1);
        self.set_hl(res);
    }

    /// The CB-prefixed rotates and shifts (RLC RRC RL RR SLA SRA SLL SRL), by opcode bits 3-5.
    #[inline(always)]
    fn rot(&mut self, kind: u8, v: u8) -> u8 {
        let cin = self.f() & C;
        let (res, c) = match kind & 7 {
            0 => (v.rotate_left(1), v >> 7),
            1 => (v.rotate_right(1), v & 1),
            2 => ((v << 1) | cin, v >> 7),
            3 => ((v >> 1) | (cin << 7), v & 1),
            4 => (v << 1, v >> 7),
            5 => ((v >> 1) | (v & 0x80), v & 1),
            6 => ((v << 1) | 1, v >> 7),
            _ => (v >> 1, v & 1),
        };
        self.set_flags(SZ53P[res as usize] | c);
        res
    }

    /// BIT n: Z and P/V from the tested bit, S from bit 7, X and Y from `xy_src`.
    #[inline(always)]
    fn bit(&mut self, n: u8, v: u8, xy_src: u8) {
        let set = v & (1 << n);
        let mut f = (self.f() & C) | H | (xy_src & XY);
        if set == 0 {
            f |= Z | PV;
        }
        if n == 7 && set != 0 {
            f |= S;
        }
        self.set_flags(f);
    }

    #[inline(always)]
    fn daa(&mut self) {
        let a = self.a();
        let f = self.f();
        let mut diff = 0u8;
        let mut carry = f & C;
        let lo = a & 0x0F;
        if f & H != 0 || lo > 9 {
            diff |= 0x06;
        }
        if carry != 0 || a > 0x99 {
            diff |= 0x60;
            carry = C;
        }
        let (res, half) = if f & N != 0 {
            (a.wrapping_sub(diff), f & H != 0 && lo < 6)
        } else {
            (a.wrapping_add(diff), lo > 9)
        };
        self.set_a(res);
        self.set_flags(SZ53P[res as usize] | (f & N) | if half { H } else { 0 } | carry);
    }

    #[inline(always)]
    fn cond(&self, cc: u8) -> bool {
        let f = self.f();
        match cc & 7 {
            0 => f & Z == 0,
            1 => f & Z != 0,
            2 => f & C == 0,
            3 => f & C != 0,
            4 => f & PV == 0,
            5 => f & PV != 0,
            6 => f & S == 0,
            _ => f & S != 0,
        }
    }

    // ---------------------------------------------------------------- running

    /// The loop behind [`Cpu::run`] and [`Cpu::run_until_halt`]: steps while the clock is
    /// below `until` and fewer than `max` steps ran. With `HALT_STOPS` it stops at HALT;
    /// otherwise a halted CPU skips straight to the bus's next event (or `until`), counting
    /// the M1 cycles it would have run. Returns the steps run (a skip counts as none) when
    /// `COUNTED`; without it `max` is ignored and nothing is counted: `Cpu::run`'s loop has
    /// no use for the count, and keeping it cost the machine's loop a counter spilled to the
    /// stack and reloaded every instruction (see `docs/performance.md`, eleventh session).
    #[inline(always)]
    fn run_loop<const HALT_STOPS: bool, const COUNTED: bool, BUS: Bus>(
        &mut self,
        bus: &mut BUS,
        until: u64,
        max: u64,
    ) -> u64 {
        // Counted down: one decrement and branch per instruction (none when not `COUNTED`:
        // `left` then never moves and the test folds away).
        let mut left = if COUNTED { max } else { u64::MAX };
        while left != 0 && self.t() < until {
            if self.special == 0 {
                // As in `step`.
                if bus.nmi_edge(self.t()) {
                    self.call_outlined::<OutNmi, BUS>(bus, 0);
                    left -= COUNTED as u64;
                    continue;
                }
                if self.iff1 && bus.int_line(self.t()) {
                    self.call_outlined::<OutInt, BUS>(bus, 0);
                    left -= COUNTED as u64;
                    continue;
                }
            } else {
                if self.halted() {
                    if HALT_STOPS {
                        break;
                    }
                    if !self.interrupt_due(bus) {
                        let target = bus.next_event(self.t()).min(until);
                        let m = target.saturating_sub(self.t()).div_ceil(4).max(1);
                        // At least one M1 passes, so the Q latch lapses by itself.
                        self.tick(m.wrapping_mul(4 + M1_ONE));
                        self.special &= !(SPECIAL_EI | SPECIAL_P);
                        continue;
                    }
                }
                if self.call_outlined::<OutSpecial, BUS>(bus, 0) {
                    left -= COUNTED as u64;
                    continue;
                }
            }
            let op = self.fetch_bus(bus);
            self.exec::<HL, true, BUS>(bus, op);
            left -= COUNTED as u64;
        }
        if COUNTED {
            max - left
        } else {
            0
        }
    }

    #[inline(always)]
    fn interrupt_due<BUS: Bus>(&mut self, bus: &mut BUS) -> bool {
        // Checking has no side effects except for NMI, so peek at the INT level only.
        !self.ei() && self.iff1 && bus.int_line(self.t())
    }

    /// Executes one instruction (a whole prefix chain), or accepts a pending interrupt, or
    /// runs one M1 cycle of HALT. Returns the T-states it took.
    #[inline(always)]
    fn step<BUS: Bus>(&mut self, bus: &mut BUS) -> u32 {
        let t0 = self.t();
        if self.special == 0 {
            // NMI is taken after any instruction; /INT when IFF1 is set.
            if bus.nmi_edge(self.t()) {
                self.call_outlined::<OutNmi, BUS>(bus, 0);
                return self.t().wrapping_sub(t0) as u32;
            }
            if self.iff1 && bus.int_line(self.t()) {
                self.call_outlined::<OutInt, BUS>(bus, 0);
                return self.t().wrapping_sub(t0) as u32;
            }
        } else if self.call_outlined::<OutSpecial, BUS>(bus, 0) {
            return self.t().wrapping_sub(t0) as u32;
        }
        let op = self.fetch_bus(bus);
        self.exec::<HL, true, BUS>(bus, op);
        self.t().wrapping_sub(t0) as u32
    }

    /// `step` when one of the special states is set: runs a pending prefix's instruction,
    /// accepts an interrupt, or runs one M1 cycle of HALT (and returns `true`), or clears the
    /// EI shadow and the LD A,I/R flag and returns `false` for `step` to fetch an instruction
    /// as usual.
    #[inline(always)]
    fn step_special<BUS: Bus>(&mut self, bus: &mut BUS) -> bool {
        // Itself out of line: the pages and the interrupts it may run are each compiled once
        // (their own `outlined` jobs), not again inside this one.
        let prefix = self.special & SPECIAL_PREFIX;
        if prefix != 0 {
            self.special &= !SPECIAL_PREFIX;
            if prefix == SPECIAL_DD {
                self.call_outlined::<OutDd, BUS>(bus, 0);
            } else {
                self.call_outlined::<OutFd, BUS>(bus, 0);
            }
            return true;
        }
        // NMI is taken after any instruction; the EI shadow only holds off /INT.
        if bus.nmi_edge(self.t()) {
            self.call_outlined::<OutNmi, BUS>(bus, 0);
            return true;
        }
        if !self.ei() && self.iff1 && bus.int_line(self.t()) {
            self.call_outlined::<OutInt, BUS>(bus, 0);
            return true;
        }
        self.special &= !(SPECIAL_EI | SPECIAL_P);
        if self.halted() {
            // HALT runs NOPs: the fetched byte is ignored and PC does not move (its M1 lets
            // the Q latch lapse).
            bus.fetch(self.pc, self.t());
            bus.refresh(self.ir(), self.t() + 2);
            self.inc_r();
            self.tick(4);
            return true;
        }
        false
    }

    fn leave_interrupted_state(&mut self) {
        if self.p() {
            // LD A,I / LD A,R followed by an accepted interrupt: P/V reads as 0 (NMOS).
            self.f &= !PV;
        }
        self.special &= !(SPECIAL_HALT | SPECIAL_P);
        self.clear_q();
    }

    fn accept_nmi<BUS: Bus>(&mut self, bus: &mut BUS) {
        self.leave_interrupted_state();
        // A 5 T-state M1 whose opcode is ignored, then PC pushed.
        bus.fetch(self.pc, self.t());
        bus.refresh(self.ir(), self.t() + 2);
        self.inc_r();
        self.tick(4);
        self.idle(bus, self.ir_last(), 1);
        self.iff1 = false;
        self.push(bus, self.pc);
        self.pc = 0x0066;
        self.wz = 0x0066;
    }

    fn accept_int<BUS: Bus>(&mut self, bus: &mut BUS) {
        self.leave_interrupted_state();
        self.iff1 = false;
        self.iff2 = false;
        // Interrupt acknowledge: an M1 with two automatic wait states (6 T-states for the
        // cycle proper) during which the device puts a byte on the bus.
        let data = bus.int_ack(self.t());
        bus.refresh(self.ir(), self.t() + 4);
        self.inc_r();
        self.tick(6);
        match self.im {
            2 => {
                self.idle(bus, self.ir_last(), 1);
                self.push(bus, self.pc);
                let vector = u16::from_be_bytes([self.i, data]);
                self.pc = self.read16(bus, vector);
                self.wz = self.pc;
            }
            1 => {
                self.idle(bus, self.ir_last(), 1);
                self.push(bus, self.pc);
                self.pc = 0x0038;
                self.wz = 0x0038;
            }
            _ => {
                // IM 0: the byte on the bus is executed as an opcode (a TI-82's floating bus
                // gives FFh = RST 38h). Operands of longer instructions are read from PC.
                self.exec::<HL, false, BUS>(bus, data);
            }
        }
    }

    // ---------------------------------------------------------------- decoding

    /// The unprefixed table, or the DD/FD table when `X_` is IX/IY.
    #[inline(always)]
    /// `FETCHED`: `op` came from [`Core::fetch_bus`] and its M1 cycle is still to be
    /// accounted (false for IM 0, whose opcode comes from the interrupt acknowledge).
    fn exec<const X_: u8, const FETCHED: bool, BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        // Both tables dispatch on a constant opcode: the DD/FD bodies are as cheap as the
        // unprefixed ones (they live in `exec_prefixed`, out of `step`'s way).
        dispatch!(op, self.exec_op::<[X_, FETCHED, BUS]>(bus))
    }

    /// One unprefixed opcode, known at compile time.
    #[inline(always)]
    fn exec_op<const OP: u8, const X_: u8, const FETCHED: bool, BUS: Bus>(
        &mut self,
        bus: &mut BUS,
    ) {
        if FETCHED {
            self.m1_done();
        }
        self.exec_body::<X_, BUS>(bus, OP)
    }

    /// Every opcode's body. Inlined into each constant-opcode instance (`exec_op`) only in
    /// builds without debug assertions: the test profile (opt-level 1) would otherwise copy
    /// the whole table into every instance before folding it, which took minutes and
    /// gigabytes per test binary. The same holds for `exec_prefixed`, `exec_cb_body` and
    /// `exec_ed_op`. The conformance suites and the benches run the release build, which
    /// inlines all four.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn exec_body<const X_: u8, BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        match op {
            0x00 => {}
            // LD rr,nn
            0x01 | 0x11 | 0x21 | 0x31 => {
                let v = self.imm16(bus);
                self.set_rr::<X_>(op >> 4, v);
            }
            // LD (BC),A / LD (DE),A
            0x02 | 0x12 => {
                let addr = if op == 0x02 { self.bc() } else { self.de() };
                let a = self.a();
                self.write(bus, addr, a);
                self.wz = u16::from_be_bytes([a, addr.wrapping_add(1) as u8]);
            }
            // INC rr / DEC rr
            0x03 | 0x13 | 0x23 | 0x33 | 0x0B | 0x1B | 0x2B | 0x3B => {
                self.idle(bus, self.ir_last(), 2);
                let k = (op >> 4) & 3;
                let v = self.get_rr::<X_>(k);
                let v = if op & 0x08 == 0 {
                    v.wrapping_add(1)
                } else {
                    v.wrapping_sub(1)
                };
                self.set_rr::<X_>(k, v);
            }
            // INC r / DEC r / LD r,n (not (HL))
            0x04 | 0x0C | 0x14 | 0x1C | 0x24 | 0x2C | 0x3C => {
                let r = op >> 3;
                let v = self.get::<X_>(r);
                let v = self.inc8(v);
                self.put::<X_>(r, v);
            }
            0x05 | 0x0D | 0x15 | 0x1D | 0x25 | 0x2D | 0x3D => {
                let r = op >> 3;
                let v = self.get::<X_>(r);
                let v = self.dec8(v);
                self.put::<X_>(r, v);
            }
            0x06 | 0x0E | 0x16 | 0x1E | 0x26 | 0x2E | 0x3E => {
                let v = self.imm8(bus);
                self.put::<X_>(op >> 3, v);
            }
            0x07 => {
                let a = self.a().rotate_left(1);
                self.set_a(a);
                self.set_flags((self.f() & (S | Z | PV)) | (a & (XY | C)));
            }
            0x0F => {
                let a = self.a().rotate_right(1);
                self.set_a(a);
                self.set_flags((self.f() & (S | Z | PV)) | (a & XY) | (a >> 7));
            }
            0x17 => {
                let old = self.a();
                let a = (old << 1) | (self.f() & C);
                self.set_a(a);
                self.set_flags((self.f() & (S | Z | PV)) | (a & XY) | (old >> 7));
            }
            0x1F => {
                let old = self.a();
                let a = (old >> 1) | ((self.f() & C) << 7);
                self.set_a(a);
                self.set_flags((self.f() & (S | Z | PV)) | (a & XY) | (old & 1));
            }
            0x08 => {
                let af = self.af();
                let v = self.af_alt;
                self.set_af(v);
                self.af_alt = af;
            }
            // ADD HL,rr
            0x09 | 0x19 | 0x29 | 0x39 => {
                self.idle(bus, self.ir_last(), 7);
                let v = self.get_rr::<X_>((op >> 4) & 3);
                let res = self.add16(self.xy::<X_>(), v);
                self.set_xy::<X_>(res);
            }
            0x0A | 0x1A => {
                let addr = if op == 0x0A { self.bc() } else { self.de() };
                let v = self.read(bus, addr);
                self.set_a(v);
                self.wz = addr.wrapping_add(1);
            }
            // DJNZ
            0x10 => {
                self.idle(bus, self.ir_last(), 1);
                let d = self.imm8(bus) as i8;
                let b = self.reg(B).wrapping_sub(1);
                self.set_reg(B, b);
                if b != 0 {
                    self.jr_taken(bus, d);
                }
            }
            0x18 => {
                let d = self.imm8(bus) as i8;
                self.jr_taken(bus, d);
            }
            0x20 | 0x28 | 0x30 | 0x38 => {
                let d = self.imm8(bus) as i8;
                if self.cond((op >> 3) & 3) {
                    self.jr_taken(bus, d);
                }
            }
            // LD (nn),HL
            0x22 => {
                let addr = self.imm16(bus);
                self.write16(bus, addr, self.xy::<X_>());
                self.wz = addr.wrapping_add(1);
            }
            0x2A => {
                let addr = self.imm16(bus);
                let v = self.read16(bus, addr);
                self.set_xy::<X_>(v);
                self.wz = addr.wrapping_add(1);
            }
            0x27 => self.daa(),
            0x2F => {
                let a = !self.a();
                self.set_a(a);
                self.set_flags((self.f() & (S | Z | PV | C)) | H | N | (a & XY));
            }
            0x32 => {
                let addr = self.imm16(bus);
                let a = self.a();
                self.write(bus, addr, a);
                self.wz = u16::from_be_bytes([a, addr.wrapping_add(1) as u8]);
            }
            0x3A => {
                let addr = self.imm16(bus);
                let v = self.read(bus, addr);
                self.set_a(v);
                self.wz = addr.wrapping_add(1);
            }
            // SCF / CCF: X and Y are (Q xor F) or A, the NMOS Q-latch behaviour.
            0x37 => {
                let f = self.f();
                let xy = ((self.q_before::<X_>() ^ f) | self.a()) & XY;
                self.set_flags((f & (S | Z | PV)) | C | xy);
            }
            0x3F => {
                let f = self.f();
                let xy = ((self.q_before::<X_>() ^ f) | self.a()) & XY;
                self.set_flags(((f & (S | Z | PV)) | ((f & C) << 4) | xy | (f & C)) ^ C);
            }
            // INC (HL) / DEC (HL) / LD (HL),n
            0x34 | 0x35 => {
                let addr = self.mem_operand::<X_, BUS>(bus, 5);
                let v = self.read(bus, addr);
                self.idle(bus, addr, 1);
                let v = if op == 0x34 {
                    self.inc8(v)
                } else {
                    self.dec8(v)
                };
                self.write(bus, addr, v);
            }
            0x36 => {
                let addr = if X_ == HL {
                    self.hl()
                } else {
                    let d = self.imm8(bus) as i8;
                    let a = self.xy::<X_>().wrapping_add(d as u16);
                    self.wz = a;
                    a
                };
                let n = self.imm8(bus);
                if X_ != HL {
                    self.idle(bus, self.pc.wrapping_sub(1), 2);
                }
                self.write(bus, addr, n);
            }
            0x76 => self.special |= SPECIAL_HALT,
            // LD r,(HL)
            0x46 | 0x4E | 0x56 | 0x5E | 0x66 | 0x6E | 0x7E => {
                let addr = self.mem_operand::<X_, BUS>(bus, 5);
                let v = self.read(bus, addr);
                self.set_reg(reg_slot(op >> 3), v);
            }
            // LD (HL),r
            0x70..=0x77 => {
                let addr = self.mem_operand::<X_, BUS>(bus, 5);
                self.write(bus, addr, self.reg(reg_slot(op)));
            }
            0x40..=0x7F => {
                let v = self.get::<X_>(op);
                self.put::<X_>(op >> 3, v);
            }
            // ALU A,(HL)
            0x86 | 0x8E | 0x96 | 0x9E | 0xA6 | 0xAE | 0xB6 | 0xBE => {
                let addr = self.mem_operand::<X_, BUS>(bus, 5);
                let v = self.read(bus, addr);
                self.alu(op >> 3, v);
            }
            0x80..=0xBF => {
                let v = self.get::<X_>(op);
                self.alu(op >> 3, v);
            }
            // RET cc
            0xC0 | 0xC8 | 0xD0 | 0xD8 | 0xE0 | 0xE8 | 0xF0 | 0xF8 => {
                self.idle(bus, self.ir_last(), 1);
                if self.cond(op >> 3) {
                    self.pc = self.pop(bus);
                    self.wz = self.pc;
                }
            }
            // POP rr
            0xC1 | 0xD1 | 0xE1 | 0xF1 => {
                let v = self.pop(bus);
                self.set_rr2::<X_>((op >> 4) & 3, v);
            }
            // JP cc,nn
            0xC2 | 0xCA | 0xD2 | 0xDA | 0xE2 | 0xEA | 0xF2 | 0xFA => {
                let nn = self.imm16(bus);
                self.wz = nn;
                if self.cond(op >> 3) {
                    self.pc = nn;
                }
            }
            0xC3 => {
                let nn = self.imm16(bus);
                self.wz = nn;
                self.pc = nn;
            }
            // CALL cc,nn
            0xC4 | 0xCC | 0xD4 | 0xDC | 0xE4 | 0xEC | 0xF4 | 0xFC => {
                let nn = self.imm16(bus);
                self.wz = nn;
                if self.cond(op >> 3) {
                    self.idle(bus, self.pc.wrapping_sub(1), 1);
                    self.push(bus, self.pc);
                    self.pc = nn;
                }
            }
            // PUSH rr
            0xC5 | 0xD5 | 0xE5 | 0xF5 => {
                self.idle(bus, self.ir_last(), 1);
                let v = self.get_rr2::<X_>((op >> 4) & 3);
                self.push(bus, v);
            }
            // ALU A,n
            0xC6 | 0xCE | 0xD6 | 0xDE | 0xE6 | 0xEE | 0xF6 | 0xFE => {
                let v = self.imm8(bus);
                self.alu(op >> 3, v);
            }
            // RST
            0xC7 | 0xCF | 0xD7 | 0xDF | 0xE7 | 0xEF | 0xF7 | 0xFF => {
                self.idle(bus, self.ir_last(), 1);
                self.push(bus, self.pc);
                self.pc = (op & 0x38) as u16;
                self.wz = self.pc;
            }
            0xC9 => {
                self.pc = self.pop(bus);
                self.wz = self.pc;
            }
            0xCB => {
                if X_ == HL {
                    self.call_outlined::<OutCb, BUS>(bus, 0);
                } else {
                    // Through `outlined` like every other page: a plain call would take the
                    // `Core`'s address and keep the whole DD/FD page's PC, clock, A and F in
                    // memory.
                    if X_ == IX {
                        self.call_outlined::<OutDdCb, BUS>(bus, 0);
                    } else {
                        self.call_outlined::<OutFdCb, BUS>(bus, 0);
                    }
                }
            }
            0xCD => {
                let nn = self.imm16(bus);
                self.wz = nn;
                self.idle(bus, self.pc.wrapping_sub(1), 1);
                self.push(bus, self.pc);
                self.pc = nn;
            }
            0xD3 => {
                let n = self.imm8(bus);
                let a = self.a();
                let port = u16::from_be_bytes([a, n]);
                self.port_out(bus, port, a);
                self.wz = u16::from_be_bytes([a, n.wrapping_add(1)]);
            }
            0xDB => {
                let n = self.imm8(bus);
                let port = u16::from_be_bytes([self.a(), n]);
                let v = self.port_in(bus, port);
                self.set_a(v);
                self.wz = port.wrapping_add(1);
            }
            0xD9 => {
                let (bc, de, hl) = (self.bc(), self.de(), self.hl());
                let v = self.bc_alt;
                self.set_bc(v);
                let v = self.de_alt;
                self.set_de(v);
                let v = self.hl_alt;
                self.set_hl(v);
                self.bc_alt = bc;
                self.de_alt = de;
                self.hl_alt = hl;
            }
            0xDD => {
                self.call_outlined::<OutDd, BUS>(bus, 0);
            }
            0xFD => {
                self.call_outlined::<OutFd, BUS>(bus, 0);
            }
            0xE3 => {
                let sp = self.sp;
                let v = self.read16(bus, sp);
                self.idle(bus, sp.wrapping_add(1), 1);
                let [lo, hi] = self.xy::<X_>().to_le_bytes();
                self.write(bus, sp.wrapping_add(1), hi);
                self.write(bus, sp, lo);
                self.idle(bus, sp, 2);
                self.set_xy::<X_>(v);
                self.wz = v;
            }
            0xE9 => self.pc = self.xy::<X_>(),
            0xEB => {
                let de = self.de();
                let hl = self.hl();
                self.set_de(hl);
                self.set_hl(de);
            }
            0xED => {
                if X_ == HL {
                    // LDIR, LDDR and CPIR repeat once per step: their iterations run here,
                    // without the call into the rest of the ED page.
                    let op = self.fetch_bus(bus);
                    match op {
                        0xB0 => {
                            self.m1_done();
                            self.block_ld(bus, 0xB0)
                        }
                        0xB8 => {
                            self.m1_done();
                            self.block_ld(bus, 0xB8)
                        }
                        0xB1 => {
                            self.m1_done();
                            self.block_cp(bus, 0xB1)
                        }
                        _ => {
                            self.m1_done();
                            self.call_outlined::<OutEd, BUS>(bus, op);
                        }
                    }
                } else {
                    self.exec_ed(bus);
                }
            }
            0xF3 => {
                self.iff1 = false;
                self.iff2 = false;
            }
            0xF9 => {
                self.idle(bus, self.ir_last(), 2);
                self.sp = self.xy::<X_>();
            }
            0xFB => {
                self.iff1 = true;
                self.iff2 = true;
                self.special |= SPECIAL_EI;
            }
        }
    }

    /// After DD or FD. A further prefix ends this step with the new prefix pending (the
    /// last one wins), so a run of prefixes can never hold `step` forever; no interrupt is
    /// accepted between a prefix and its instruction.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn exec_prefixed<const X_: u8, BUS: Bus>(&mut self, bus: &mut BUS) {
        let op = self.fetch_bus(bus);
        match op {
            0xDD => {
                self.m1_done();
                self.special |= SPECIAL_DD;
            }
            0xFD => {
                self.m1_done();
                self.special |= SPECIAL_FD;
            }
            _ => self.exec::<X_, true, BUS>(bus, op),
        }
    }

    #[inline(always)]
    fn jr_taken<BUS: Bus>(&mut self, bus: &mut BUS, d: i8) {
        self.idle(bus, self.pc.wrapping_sub(1), 5);
        self.pc = self.pc.wrapping_add(d as u16);
        self.wz = self.pc;
    }

    /// Register pair by opcode bits 4-5 with SP in slot 3.
    #[inline(always)]
    fn get_rr<const X_: u8>(&self, k: u8) -> u16 {
        match k & 3 {
            0 => self.bc(),
            1 => self.de(),
            2 => self.xy::<X_>(),
            _ => self.sp,
        }
    }

    #[inline(always)]
    fn set_rr<const X_: u8>(&mut self, k: u8, v: u16) {
        match k & 3 {
            0 => self.set_bc(v),
            1 => self.set_de(v),
            2 => self.set_xy::<X_>(v),
            _ => self.sp = v,
        }
    }

    /// Register pair by opcode bits 4-5 with AF in slot 3 (PUSH/POP).
    #[inline(always)]
    fn get_rr2<const X_: u8>(&self, k: u8) -> u16 {
        if k & 3 == 3 {
            self.af()
        } else {
            self.get_rr::<X_>(k)
        }
    }

    #[inline(always)]
    fn set_rr2<const X_: u8>(&mut self, k: u8, v: u16) {
        if k & 3 == 3 {
            self.set_af(v)
        } else {
            self.set_rr::<X_>(k, v)
        }
    }

    /// The CB page, dispatched on a constant opcode like the unprefixed table (the rotate
    /// kind, bit number and register fold away). Out of line: inlined into `step`, it made
    /// the bench's mix workload 14 % slower by wall clock though it ran fewer instructions.
    #[inline(always)]
    fn exec_cb<BUS: Bus>(&mut self, bus: &mut BUS) {
        let op = self.fetch_op(bus);
        dispatch!(op, self.exec_cb_op::<[BUS]>(bus))
    }

    #[inline(always)]
    fn exec_cb_op<const OP: u8, BUS: Bus>(&mut self, bus: &mut BUS) {
        self.exec_cb_body(bus, OP)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn exec_cb_body<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        let r = op & 7;
        let n = (op >> 3) & 7;
        if r == 6 {
            let addr = self.hl();
            let v = self.read(bus, addr);
            self.idle(bus, addr, 1);
            match op >> 6 {
                0 => {
                    let res = self.rot(n, v);
                    self.write(bus, addr, res);
                }
                1 => {
                    let w = (self.wz >> 8) as u8;
                    self.bit(n, v, w);
                }
                2 => self.write(bus, addr, v & !(1 << n)),
                _ => self.write(bus, addr, v | (1 << n)),
            }
        } else {
            let v = self.reg(reg_slot(r));
            match op >> 6 {
                0 => {
                    let res = self.rot(n, v);
                    self.set_reg(reg_slot(r), res)
                }
                1 => self.bit(n, v, v),
                2 => self.set_reg(reg_slot(r), v & !(1 << n)),
                _ => self.set_reg(reg_slot(r), v | (1 << n)),
            }
        }
    }

    /// DDCB d op / FDCB d op: the operation byte is read without an M1 (R is not bumped), the
    /// result lands in memory and, for the undocumented register forms, in a register too.
    #[inline(always)]
    fn exec_index_cb<const X_: u8, BUS: Bus>(&mut self, bus: &mut BUS) {
        let d = self.imm8(bus) as i8;
        let addr = self.xy::<X_>().wrapping_add(d as u16);
        self.wz = addr;
        let op = self.imm8(bus);
        self.idle(bus, self.pc.wrapping_sub(1), 2);
        let v = self.read(bus, addr);
        self.idle(bus, addr, 1);
        let n = (op >> 3) & 7;
        let res = match op >> 6 {
            0 => self.rot(n, v),
            1 => {
                self.bit(n, v, (addr >> 8) as u8);
                return;
            }
            2 => v & !(1 << n),
            _ => v | (1 << n),
        };
        self.write(bus, addr, res);
        let r = op & 7;
        if r != 6 {
            self.set_reg(reg_slot(r), res);
        }
    }

    /// The ED page after a DD/FD prefix (which has no effect on it).
    #[inline(always)]
    fn exec_ed<BUS: Bus>(&mut self, bus: &mut BUS) {
        let op = self.fetch_op(bus);
        self.call_outlined::<OutEd, BUS>(bus, op);
    }

    /// The ED page, its second opcode `op` already fetched.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn exec_ed_op<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        match op {
            // IN r,(C) / IN (C)
            0x40 | 0x48 | 0x50 | 0x58 | 0x60 | 0x68 | 0x70 | 0x78 => {
                let bc = self.bc();
                let v = self.port_in(bus, bc);
                self.wz = bc.wrapping_add(1);
                let r = (op >> 3) & 7;
                if r != 6 {
                    self.set_reg(reg_slot(r), v);
                }
                self.set_flags((self.f() & C) | SZ53P[v as usize]);
            }
            // OUT (C),r / OUT (C),0
            0x41 | 0x49 | 0x51 | 0x59 | 0x61 | 0x69 | 0x71 | 0x79 => {
                let bc = self.bc();
                let r = (op >> 3) & 7;
                let v = if r == 6 { 0 } else { self.reg(reg_slot(r)) };
                self.port_out(bus, bc, v);
                self.wz = bc.wrapping_add(1);
            }
            0x42 | 0x52 | 0x62 | 0x72 => {
                self.idle(bus, self.ir_last(), 7);
                let v = self.get_rr::<HL>((op >> 4) & 3);
                self.sbc16(v);
            }
            0x4A | 0x5A | 0x6A | 0x7A => {
                self.idle(bus, self.ir_last(), 7);
                let v = self.get_rr::<HL>((op >> 4) & 3);
                self.adc16(v);
            }
            // LD (nn),rr
            0x43 | 0x53 | 0x63 | 0x73 => {
                let addr = self.imm16(bus);
                let v = self.get_rr::<HL>((op >> 4) & 3);
                self.write16(bus, addr, v);
                self.wz = addr.wrapping_add(1);
            }
            0x4B | 0x5B | 0x6B | 0x7B => {
                let addr = self.imm16(bus);
                let v = self.read16(bus, addr);
                self.set_rr::<HL>((op >> 4) & 3, v);
                self.wz = addr.wrapping_add(1);
            }
            // NEG
            0x44 | 0x4C | 0x54 | 0x5C | 0x64 | 0x6C | 0x74 | 0x7C => {
                let a = self.a();
                self.set_a(0);
                let (res, f) = self.sub8_flags(a, 0);
                self.set_a(res);
                self.set_flags(f);
            }
            // RETN / RETI (all forms copy IFF2 to IFF1)
            0x45 | 0x4D | 0x55 | 0x5D | 0x65 | 0x6D | 0x75 | 0x7D => {
                self.iff1 = self.iff2;
                self.pc = self.pop(bus);
                self.wz = self.pc;
            }
            0x46 | 0x4E | 0x66 | 0x6E => self.im = 0,
            0x56 | 0x76 => self.im = 1,
            0x5E | 0x7E => self.im = 2,
            0x47 => {
                self.idle(bus, self.ir_last(), 1);
                self.i = self.a();
            }
            0x4F => {
                self.idle(bus, self.ir_last(), 1);
                self.set_r(self.a());
            }
            0x57 | 0x5F => {
                self.idle(bus, self.ir_last(), 1);
                let v = if op == 0x57 { self.i } else { self.r() };
                self.set_a(v);
                let pv = if self.iff2 { PV } else { 0 };
                self.set_flags((self.f() & C) | SZ53[v as usize] | pv);
                self.special |= SPECIAL_P;
            }
            // RRD / RLD
            0x67 | 0x6F => {
                let addr = self.hl();
                let v = self.read(bus, addr);
                self.idle(bus, addr, 4);
                let a = self.a();
                let (mem, na) = if op == 0x67 {
                    ((a << 4) | (v >> 4), (a & 0xF0) | (v & 0x0F))
                } else {
                    ((v << 4) | (a & 0x0F), (a & 0xF0) | (v >> 4))
                };
                self.write(bus, addr, mem);
                self.set_a(na);
                self.set_flags((self.f() & C) | SZ53P[na as usize]);
                self.wz = addr.wrapping_add(1);
            }
            0xA0 | 0xA8 | 0xB0 | 0xB8 => self.block_ld(bus, op),
            0xA1 | 0xA9 | 0xB1 | 0xB9 => self.block_cp(bus, op),
            0xA2 | 0xAA | 0xB2 | 0xBA => self.block_in(bus, op),
            0xA3 | 0xAB | 0xB3 | 0xBB => self.block_out(bus, op),
            // Everything else in the ED page is an 8 T-state NOP.
            _ => {}
        }
    }

    /// The repeat step shared by the block instructions: five more T-states, PC back onto the
    /// instruction, and (NMOS) X/Y copied from the high byte of that PC.
    #[inline(always)]
    fn block_repeat<BUS: Bus>(&mut self, bus: &mut BUS, addr: u16) {
        self.idle(bus, addr, 5);
        self.pc = self.pc.wrapping_sub(2);
        self.wz = self.pc.wrapping_add(1);
        let f = (self.f() & !XY) | ((self.pc >> 8) as u8 & XY);
        self.set_flags(f);
    }

    #[inline(always)]
    fn block_ld<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        let (hl, de) = (self.hl(), self.de());
        let v = self.read(bus, hl);
        self.write(bus, de, v);
        self.idle(bus, de, 2);
        let step = if op & 0x08 == 0 { 1u16 } else { 0xFFFF };
        self.set_hl(hl.wrapping_add(step));
        self.set_de(de.wrapping_add(step));
        let bc = self.bc().wrapping_sub(1);
        self.set_bc(bc);
        let n = v.wrapping_add(self.a());
        let mut f = (self.f() & (S | Z | C)) | (n & X) | ((n << 4) & Y);
        if bc != 0 {
            f |= PV;
        }
        self.set_flags(f);
        if op & 0x10 != 0 && bc != 0 {
            self.block_repeat(bus, de);
        }
    }

    #[inline(always)]
    fn block_cp<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        let hl = self.hl();
        let v = self.read(bus, hl);
        self.idle(bus, hl, 5);
        let a = self.a();
        let res = a.wrapping_sub(v);
        let half = (a ^ v ^ res) & H;
        let n = res.wrapping_sub(if half != 0 { 1 } else { 0 });
        let step = if op & 0x08 == 0 { 1u16 } else { 0xFFFF };
        self.set_hl(hl.wrapping_add(step));
        self.wz = self.wz.wrapping_add(step);
        let bc = self.bc().wrapping_sub(1);
        self.set_bc(bc);
        let mut f =
            (self.f() & C) | N | (SZ53[res as usize] & (S | Z)) | half | (n & X) | ((n << 4) & Y);
        if bc != 0 {
            f |= PV;
        }
        self.set_flags(f);
        if op & 0x10 != 0 && bc != 0 && res != 0 {
            self.block_repeat(bus, hl);
        }
    }

    /// Flags of INI/IND/OUTI/OUTD from the byte moved and `k`, the 9-bit sum the
    /// undocumented flags come from.
    #[inline(always)]
    fn block_io_flags(&mut self, v: u8, k: u16) {
        let b = self.reg(B);
        let mut f = SZ53[b as usize];
        if v & 0x80 != 0 {
            f |= N;
        }
        if k > 0xFF {
            f |= H | C;
        }
        if parity_even((k as u8 & 7) ^ b) {
            f |= PV;
        }
        self.set_flags(f);
    }

    /// The repeat of INIR/INDR/OTIR/OTDR also rewrites H and P/V (NMOS behaviour found by
    /// running the silicon): they come from B as the next iteration would see it.
    /// `addr` is what the last bus cycle left on the address bus (the memory address written
    /// by INxR, the port of OTxR), which stays there through the five extra T-states.
    fn block_io_repeat<BUS: Bus>(&mut self, bus: &mut BUS, v: u8, addr: u16) {
        self.block_repeat(bus, addr);
        let b = self.reg(B);
        let mut f = self.f();
        let flip_pv = |x: u8| if parity_even(x & 7) { 0 } else { PV };
        if f & C != 0 {
            f &= !H;
            if v & 0x80 != 0 {
                f ^= flip_pv(b.wrapping_sub(1));
                if b & 0x0F == 0 {
                    f |= H;
                }
            } else {
                f ^= flip_pv(b.wrapping_add(1));
                if b & 0x0F == 0x0F {
                    f |= H;
                }
            }
        } else {
            f ^= flip_pv(b);
        }
        self.set_flags(f);
    }

    fn block_in<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        self.idle(bus, self.ir_last(), 1);
        let bc = self.bc();
        let v = self.port_in(bus, bc);
        let hl = self.hl();
        self.write(bus, hl, v);
        let dec = op & 0x08 != 0;
        self.wz = if dec {
            bc.wrapping_sub(1)
        } else {
            bc.wrapping_add(1)
        };
        self.set_reg(B, self.reg(B).wrapping_sub(1));
        self.set_hl(if dec {
            hl.wrapping_sub(1)
        } else {
            hl.wrapping_add(1)
        });
        let c = if dec {
            self.reg(C_).wrapping_sub(1)
        } else {
            self.reg(C_).wrapping_add(1)
        };
        self.block_io_flags(v, v as u16 + c as u16);
        if op & 0x10 != 0 && self.reg(B) != 0 {
            self.block_io_repeat(bus, v, hl);
        }
    }

    fn block_out<BUS: Bus>(&mut self, bus: &mut BUS, op: u8) {
        self.idle(bus, self.ir_last(), 1);
        let hl = self.hl();
        let v = self.read(bus, hl);
        self.set_reg(B, self.reg(B).wrapping_sub(1));
        let bc = self.bc();
        self.port_out(bus, bc, v);
        let dec = op & 0x08 != 0;
        self.wz = if dec {
            bc.wrapping_sub(1)
        } else {
            bc.wrapping_add(1)
        };
        let hl = if dec {
            hl.wrapping_sub(1)
        } else {
            hl.wrapping_add(1)
        };
        self.set_hl(hl);
        self.block_io_flags(v, v as u16 + (hl as u8) as u16);
        if op & 0x10 != 0 && self.reg(B) != 0 {
            self.block_io_repeat(bus, v, bc);
        }
    }
}
