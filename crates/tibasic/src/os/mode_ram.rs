//! Where the TI-OS keeps the MODE, FORMAT and TBLSET settings in system RAM: bits of its
//! flag bytes (the block the IY register points at, 8528h, spec software §7.2) and the Fix
//! digit count in `fmtDigits`. Both lie in the first section of a memory backup (8528h-8D23h,
//! spec §7.6), so a backup carries them. The whole layout is the one table [`MODE_BITS`]
//! (plus [`FMT_DIGITS`]); `docs/calculator.md` ("MODE settings in RAM") gives the sources and
//! marks the uncertain rows.
//!
//! The runtime works on [`Modes`]; the firmware writes them here whenever they change and
//! reads them back when RAM is replaced (a backup restored or received).

use super::Modes;
use crate::display::Notation;

/// The OS flag bytes: `IY` on the TI-82 (spec §7.2).
pub const FLAGS: u16 = 0x8528;
/// `fmtDigits`: the Fix setting, 0-9, or FFh for Float.
pub const FMT_DIGITS: u16 = 0x8C9A;
/// `fmtDigits` in Float mode.
pub const FLOAT_DIGITS: u8 = 0xFF;

/// One setting kept as one bit: its name (the TI include files' name for the bit), the flag
/// byte's offset from [`FLAGS`], the bit, and what a set bit means for [`Modes`].
pub struct ModeBit {
    pub name: &'static str,
    pub offset: u8,
    pub bit: u8,
    pub get: fn(&Modes) -> bool,
    pub set: fn(&mut Modes, bool),
}

const fn bit(
    name: &'static str,
    offset: u8,
    bit: u8,
    get: fn(&Modes) -> bool,
    set: fn(&mut Modes, bool),
) -> ModeBit {
    ModeBit {
        name,
        offset,
        bit,
        get,
        set,
    }
}

/// The layout. Offsets: trigFlags 00h, grfModeFlags 02h, grfDBFlags 04h, fmtFlags 0Ah,
/// tblFlags 13h, sGrFlags 14h.
pub const MODE_BITS: [ModeBit; 16] = [
    bit("trigDeg", 0x00, 2, |m| m.degrees, |m, v| m.degrees = v),
    bit(
        "grfFuncM",
        0x02,
        4,
        |m| m.graph == 0,
        |m, v| set_graph(m, v, 0),
    ),
    bit(
        "grfPolarM",
        0x02,
        5,
        |m| m.graph == 2,
        |m, v| set_graph(m, v, 2),
    ),
    bit(
        "grfParamM",
        0x02,
        6,
        |m| m.graph == 1,
        |m, v| set_graph(m, v, 1),
    ),
    bit(
        "grfRecurM",
        0x02,
        7,
        |m| m.graph == 3,
        |m, v| set_graph(m, v, 3),
    ),
    bit("grfDot", 0x04, 0, |m| m.dot, |m, v| m.dot = v),
    bit("grfSimul", 0x04, 1, |m| m.simul, |m, v| m.simul = v),
    bit("grfGrid", 0x04, 2, |m| m.grid, |m, v| m.grid = v),
    bit("grfPolar", 0x04, 3, |m| m.polar_gc, |m, v| m.polar_gc = v),
    bit(
        "grfNoCoord",
        0x04,
        4,
        |m| m.coord_off,
        |m, v| m.coord_off = v,
    ),
    bit("grfNoAxis", 0x04, 5, |m| !m.axes, |m, v| m.axes = !v),
    bit("grfLabel", 0x04, 6, |m| m.labels, |m, v| m.labels = v),
    bit(
        "fmtExponent",
        0x0A,
        0,
        |m| m.notation == Notation::Sci,
        |m, v| set_notation(m, v, Notation::Sci),
    ),
    bit(
        "fmtEng",
        0x0A,
        1,
        |m| m.notation == Notation::Eng,
        |m, v| set_notation(m, v, Notation::Eng),
    ),
    bit(
        "autoFill",
        0x13,
        4,
        |m| m.indpnt_ask,
        |m, v| m.indpnt_ask = v,
    ),
    bit(
        "autoCalc",
        0x13,
        5,
        |m| m.depend_ask,
        |m, v| m.depend_ask = v,
    ),
];

/// `grfSplit`: Split rather than FullScreen (sGrFlags, IY+14h bit 0).
pub const SPLIT_BIT: ModeBit = bit("grfSplit", 0x14, 0, |m| m.split, |m, v| m.split = v);

fn set_graph(m: &mut Modes, on: bool, mode: u8) {
    if on {
        m.graph = mode;
    }
}

fn set_notation(m: &mut Modes, on: bool, n: Notation) {
    // Eng is read after Sci in the table, so a byte with both bits reads as Eng.
    if on {
        m.notation = n;
    }
}

fn all_bits() -> impl Iterator<Item = &'static ModeBit> {
    MODE_BITS.iter().chain(std::iter::once(&SPLIT_BIT))
}

fn index(addr: u16) -> usize {
    crate::screen::off(addr)
}

/// Writes `m` into RAM (the 32 KB from 8000h), leaving every other bit of the flag bytes as
/// it was.
pub fn write(ram: &mut [u8], m: &Modes) {
    for b in all_bits() {
        let i = index(FLAGS + u16::from(b.offset));
        let mask = 1u8 << b.bit;
        if (b.get)(m) {
            ram[i] |= mask;
        } else {
            ram[i] &= !mask;
        }
    }
    ram[index(FMT_DIGITS)] = m.fix.unwrap_or(FLOAT_DIGITS);
}

/// The settings RAM holds, on top of `base` (the settings RAM does not hold: Web). A graph
/// mode byte with no mode bit set reads as Func, a `fmtDigits` above 9 as Float.
pub fn read(ram: &[u8], base: &Modes) -> Modes {
    let mut m = base.clone();
    m.graph = 0;
    m.notation = Notation::Normal;
    for b in all_bits() {
        let set = ram[index(FLAGS + u16::from(b.offset))] & (1 << b.bit) != 0;
        (b.set)(&mut m, set);
    }
    let digits = ram[index(FMT_DIGITS)];
    m.fix = (digits <= 9).then_some(digits);
    m
}

/// The RAM bytes the layout uses (the flag bytes and `fmtDigits`), to tell whether something
/// other than [`write`] changed them.
pub fn snapshot(ram: &[u8]) -> [u8; 7] {
    let mut out = [0; 7];
    for (o, off) in out.iter_mut().zip([0x00u8, 0x02, 0x04, 0x0A, 0x13, 0x14]) {
        *o = ram[index(FLAGS + u16::from(off))];
    }
    out[6] = ram[index(FMT_DIGITS)];
    out
}
