//! Z80 disassembler: every documented and undocumented opcode, one instruction at a time.
//!
//! Conventions:
//!
//! * Lower-case Zilog mnemonics; numbers in hex as `$12` / `$1234` (upper-case digits).
//!   Index displacements are signed hex: `(ix+$05)`, `(iy-$03)`.
//! * Relative jumps (`jr`, `djnz`) show their absolute target address.
//! * Undocumented forms use the names from Sean Young's "The Undocumented Z80 Documented":
//!   `sll`, `ixh`/`ixl`/`iyh`/`iyl`, `in f,(c)`, `out (c),0`, and the DDCB/FDCB forms that
//!   also copy the result into a register: `rlc (ix+$05),b`, `set 0,(iy-$03),a`. The ED
//!   duplicates print as what they do (`neg`, `retn`, `im 0`, `im 1`, `im 2`).
//! * `nop*` is a no-op that is not a `nop` opcode. It has two forms:
//!   - 2 bytes, `ED xx` with no instruction there (an 8 T-state no-op);
//!   - 1 byte, a `DD`/`FD` prefix that changes nothing: the next byte is another prefix
//!     (`DD`, `FD`, `ED`) or an instruction that does not involve HL, H, L or (HL). The
//!     instruction after it disassembles on its own, so `DD 00` is `nop*` then `nop`.
//! * Addresses wrap at 64 KiB; no byte sequence makes the disassembler panic.

use core::fmt::Write;

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The mnemonic and operands, e.g. `ld ($8000),a`.
    pub text: String,
    /// Length in bytes, 1 to 4.
    pub len: u8,
}

impl core::fmt::Display for Instruction {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Disassembles the instruction at `addr`, reading its bytes through `read` (which is only
/// called for the addresses the instruction occupies, wrapping at FFFFh).
pub fn disassemble(read: impl FnMut(u16) -> u8, addr: u16) -> Instruction {
    let mut d = Decoder {
        read,
        addr,
        pos: 0,
        idx: Idx::Hl,
        used_idx: false,
    };
    let text = d.top();
    Instruction { text, len: d.pos }
}

/// Disassembles the instruction at the start of `bytes` (at address 0 for relative jumps);
/// bytes past the end of the slice read as 0.
pub fn disassemble_bytes(bytes: &[u8]) -> Instruction {
    disassemble(|a| bytes.get(a as usize).copied().unwrap_or(0), 0)
}

/// Disassembles `bytes` as if placed at `addr`; bytes past the end of the slice read as 0.
pub fn disassemble_at(bytes: &[u8], addr: u16) -> Instruction {
    disassemble(
        |a| {
            bytes
                .get(a.wrapping_sub(addr) as usize)
                .copied()
                .unwrap_or(0)
        },
        addr,
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Idx {
    Hl,
    Ix,
    Iy,
}

const CC: [&str; 8] = ["nz", "z", "nc", "c", "po", "pe", "p", "m"];
const ALU: [&str; 8] = [
    "add a,", "adc a,", "sub ", "sbc a,", "and ", "xor ", "or ", "cp ",
];
const ROT: [&str; 8] = ["rlc", "rrc", "rl", "rr", "sla", "sra", "sll", "srl"];
const REG: [&str; 8] = ["b", "c", "d", "e", "h", "l", "(hl)", "a"];
const BLOCK: [[&str; 4]; 4] = [
    ["ldi", "cpi", "ini", "outi"],
    ["ldd", "cpd", "ind", "outd"],
    ["ldir", "cpir", "inir", "otir"],
    ["lddr", "cpdr", "indr", "otdr"],
];

struct Decoder<F: FnMut(u16) -> u8> {
    read: F,
    addr: u16,
    /// Bytes consumed so far.
    pos: u8,
    /// What stands for HL in the instruction being decoded.
    idx: Idx,
    /// The instruction actually used the index register the prefix selected.
    used_idx: bool,
}

impl<F: FnMut(u16) -> u8> Decoder<F> {
    fn peek(&mut self) -> u8 {
        (self.read)(self.addr.wrapping_add(self.pos as u16))
    }

    fn byte(&mut self) -> u8 {
        let b = self.peek();
        self.pos += 1;
        b
    }

    fn n(&mut self) -> String {
        format!("${:02X}", self.byte())
    }

    fn nn(&mut self) -> String {
        let lo = self.byte();
        let hi = self.byte();
        format!("${:04X}", u16::from_le_bytes([lo, hi]))
    }

    /// A relative jump's displacement, shown as the absolute target.
    fn rel(&mut self) -> String {
        let d = self.byte() as i8;
        let target = self
            .addr
            .wrapping_add(self.pos as u16)
            .wrapping_add(d as u16);
        format!("${target:04X}")
    }

    fn hl(&mut self) -> &'static str {
        match self.idx {
            Idx::Hl => "hl",
            Idx::Ix => {
                self.used_idx = true;
                "ix"
            }
            Idx::Iy => {
                self.used_idx = true;
                "iy"
            }
        }
    }

    /// `(hl)`, or `(ix+d)` with its displacement read now.
    fn mem(&mut self) -> String {
        match self.idx {
            Idx::Hl => "(hl)".to_string(),
            _ => {
                let name = self.hl();
                let d = self.byte();
                index_operand(name, d)
            }
        }
    }

    /// 8-bit register `i` (opcode encoding); H and L become the index halves.
    fn r(&mut self, i: u8) -> String {
        match (i & 7, self.idx) {
            (6, _) => self.mem(),
            (4, Idx::Ix) | (5, Idx::Ix) | (4, Idx::Iy) | (5, Idx::Iy) => {
                self.used_idx = true;
                let base = if self.idx == Idx::Ix { "ix" } else { "iy" };
                let half = if i & 7 == 4 { "h" } else { "l" };
                format!("{base}{half}")
            }
            (i, _) => REG[i as usize].to_string(),
        }
    }

    fn rp(&mut self, p: u8) -> String {
        match p & 3 {
            0 => "bc".into(),
            1 => "de".into(),
            2 => self.hl().into(),
            _ => "sp".into(),
        }
    }

    fn rp2(&mut self, p: u8) -> String {
        if p & 3 == 3 {
            "af".into()
        } else {
            self.rp(p)
        }
    }

    fn top(&mut self) -> String {
        let op = self.byte();
        match op {
            0xCB => self.cb(),
            0xED => self.ed(),
            0xDD | 0xFD => {
                self.idx = if op == 0xDD { Idx::Ix } else { Idx::Iy };
                let next = self.peek();
                match next {
                    0xDD | 0xFD | 0xED => "nop*".into(),
                    0xCB => {
                        self.pos += 1;
                        self.index_cb()
                    }
                    _ => {
                        self.pos += 1;
                        let text = self.main(next);
                        if self.used_idx {
                            text
                        } else {
                            // The prefix does nothing: it is an instruction of its own.
                            self.pos = 1;
                            "nop*".into()
                        }
                    }
                }
            }
            _ => self.main(op),
        }
    }

    /// The unprefixed opcode table, with HL standing for IX/IY when `idx` says so.
    fn main(&mut self, op: u8) -> String {
        let x = op >> 6;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let p = y >> 1;
        let q = y & 1;
        match x {
            0 => match z {
                0 => match y {
                    0 => "nop".into(),
                    1 => "ex af,af'".into(),
                    2 => format!("djnz {}", self.rel()),
                    3 => format!("jr {}", self.rel()),
                    _ => format!("jr {},{}", CC[(y - 4) as usize], self.rel()),
                },
                1 => {
                    if q == 0 {
                        let rp = self.rp(p);
                        format!("ld {rp},{}", self.nn())
                    } else {
                        let hl = self.hl();
                        format!("add {hl},{}", self.rp(p))
                    }
                }
                2 => match (q, p) {
                    (0, 0) => "ld (bc),a".into(),
                    (0, 1) => "ld (de),a".into(),
                    (0, 2) => {
                        let hl = self.hl();
                        format!("ld ({}),{hl}", self.nn())
                    }
                    (0, _) => format!("ld ({}),a", self.nn()),
                    (_, 0) => "ld a,(bc)".into(),
                    (_, 1) => "ld a,(de)".into(),
                    (_, 2) => {
                        let hl = self.hl();
                        format!("ld {hl},({})", self.nn())
                    }
                    (_, _) => format!("ld a,({})", self.nn()),
                },
                3 => {
                    let m = if q == 0 { "inc" } else { "dec" };
                    format!("{m} {}", self.rp(p))
                }
                4 => format!("inc {}", self.r(y)),
                5 => format!("dec {}", self.r(y)),
                6 => {
                    let r = self.r(y);
                    format!("ld {r},{}", self.n())
                }
                _ => ["rlca", "rrca", "rla", "rra", "daa", "cpl", "scf", "ccf"][y as usize].into(),
            },
            1 => {
                if y == 6 && z == 6 {
                    "halt".into()
                } else if y == 6 {
                    // ld (ix+d),r: the register is the real H or L.
                    let m = self.mem();
                    format!("ld {m},{}", REG[z as usize])
                } else if z == 6 {
                    let m = self.mem();
                    format!("ld {},{m}", REG[y as usize])
                } else {
                    let dst = self.r(y);
                    format!("ld {dst},{}", self.r(z))
                }
            }
            2 => format!("{}{}", ALU[y as usize], self.r(z)),
            _ => match z {
                0 => format!("ret {}", CC[y as usize]),
                1 => match (q, p) {
                    (0, _) => format!("pop {}", self.rp2(p)),
                    (_, 0) => "ret".into(),
                    (_, 1) => "exx".into(),
                    (_, 2) => format!("jp ({})", self.hl()),
                    (_, _) => format!("ld sp,{}", self.hl()),
                },
                2 => format!("jp {},{}", CC[y as usize], self.nn()),
                3 => match y {
                    0 => format!("jp {}", self.nn()),
                    // Only reached for CB after a prefix that `top` did not claim: never.
                    1 => "nop*".into(),
                    2 => format!("out ({}),a", self.n()),
                    3 => format!("in a,({})", self.n()),
                    4 => format!("ex (sp),{}", self.hl()),
                    // EX DE,HL ignores DD/FD (Young, section 4.1).
                    5 => "ex de,hl".into(),
                    6 => "di".into(),
                    _ => "ei".into(),
                },
                4 => format!("call {},{}", CC[y as usize], self.nn()),
                5 => match (q, p) {
                    (0, _) => format!("push {}", self.rp2(p)),
                    (_, 0) => format!("call {}", self.nn()),
                    // Prefixes after a prefix are claimed by `top`; not reached.
                    _ => "nop*".into(),
                },
                6 => format!("{}{}", ALU[y as usize], self.n()),
                _ => format!("rst ${:02X}", y * 8),
            },
        }
    }

    fn cb(&mut self) -> String {
        let op = self.byte();
        let y = (op >> 3) & 7;
        let r = REG[(op & 7) as usize];
        match op >> 6 {
            0 => format!("{} {r}", ROT[y as usize]),
            1 => format!("bit {y},{r}"),
            2 => format!("res {y},{r}"),
            _ => format!("set {y},{r}"),
        }
    }

    /// DDCB d op / FDCB d op. Every register field other than 6 is the undocumented form
    /// that also stores the result in that register (BIT just tests, whatever the field).
    fn index_cb(&mut self) -> String {
        self.used_idx = true;
        let d = self.byte();
        let op = self.byte();
        let name = if self.idx == Idx::Ix { "ix" } else { "iy" };
        let m = index_operand(name, d);
        let y = (op >> 3) & 7;
        let z = op & 7;
        let suffix = if z == 6 {
            String::new()
        } else {
            format!(",{}", REG[z as usize])
        };
        match op >> 6 {
            0 => format!("{} {m}{suffix}", ROT[y as usize]),
            1 => format!("bit {y},{m}"),
            2 => format!("res {y},{m}{suffix}"),
            _ => format!("set {y},{m}{suffix}"),
        }
    }

    fn ed(&mut self) -> String {
        let op = self.byte();
        let x = op >> 6;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let p = y >> 1;
        match x {
            1 => match z {
                0 if y == 6 => "in f,(c)".into(),
                0 => format!("in {},(c)", REG[y as usize]),
                1 if y == 6 => "out (c),0".into(),
                1 => format!("out (c),{}", REG[y as usize]),
                2 => {
                    let m = if y & 1 == 0 { "sbc" } else { "adc" };
                    format!("{m} hl,{}", self.rp(p))
                }
                3 => {
                    let rp = self.rp(p);
                    let nn = self.nn();
                    if y & 1 == 0 {
                        format!("ld ({nn}),{rp}")
                    } else {
                        format!("ld {rp},({nn})")
                    }
                }
                4 => "neg".into(),
                5 => if y == 1 { "reti" } else { "retn" }.into(),
                // NMOS: ED 4E/6E set mode 0 (Young, section 3.3).
                6 => format!("im {}", [0, 0, 1, 2][(y & 3) as usize]),
                _ => [
                    "ld i,a", "ld r,a", "ld a,i", "ld a,r", "rrd", "rld", "nop*", "nop*",
                ][y as usize]
                    .into(),
            },
            2 if z <= 3 && y >= 4 => BLOCK[(y - 4) as usize][z as usize].into(),
            _ => "nop*".into(),
        }
    }
}

fn index_operand(name: &str, d: u8) -> String {
    let d = d as i8;
    let sign = if d < 0 { '-' } else { '+' };
    let mut s = String::with_capacity(10);
    let _ = write!(s, "({name}{sign}${:02X})", d.unsigned_abs());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bytes: &[u8], text: &str, len: u8) {
        let ins = disassemble_bytes(bytes);
        assert_eq!(
            (ins.text.as_str(), ins.len),
            (text, len),
            "bytes {bytes:02X?}"
        );
    }

    #[test]
    fn unprefixed() {
        let table: &[(&[u8], &str, u8)] = &[
            (&[0x00], "nop", 1),
            (&[0x01, 0x34, 0x12], "ld bc,$1234", 3),
            (&[0x02], "ld (bc),a", 1),
            (&[0x03], "inc bc", 1),
            (&[0x04], "inc b", 1),
            (&[0x05], "dec b", 1),
            (&[0x06, 0xAB], "ld b,$AB", 2),
            (&[0x07], "rlca", 1),
            (&[0x08], "ex af,af'", 1),
            (&[0x09], "add hl,bc", 1),
            (&[0x0A], "ld a,(bc)", 1),
            (&[0x0B], "dec bc", 1),
            (&[0x0F], "rrca", 1),
            (&[0x10, 0xFE], "djnz $0000", 2),
            (&[0x17], "rla", 1),
            (&[0x18, 0x05], "jr $0007", 2),
            (&[0x1F], "rra", 1),
            (&[0x20, 0x80], "jr nz,$FF82", 2),
            (&[0x28, 0x00], "jr z,$0002", 2),
            (&[0x30, 0x7F], "jr nc,$0081", 2),
            (&[0x38, 0xFF], "jr c,$0001", 2),
            (&[0x22, 0x00, 0x80], "ld ($8000),hl", 3),
            (&[0x27], "daa", 1),
            (&[0x2A, 0x01, 0x80], "ld hl,($8001)", 3),
            (&[0x2F], "cpl", 1),
            (&[0x31, 0xFF, 0xFF], "ld sp,$FFFF", 3),
            (&[0x32, 0x00, 0x80], "ld ($8000),a", 3),
            (&[0x34], "inc (hl)", 1),
            (&[0x35], "dec (hl)", 1),
            (&[0x36, 0x12], "ld (hl),$12", 2),
            (&[0x37], "scf", 1),
            (&[0x39], "add hl,sp", 1),
            (&[0x3A, 0x34, 0x12], "ld a,($1234)", 3),
            (&[0x3F], "ccf", 1),
            (&[0x40], "ld b,b", 1),
            (&[0x66], "ld h,(hl)", 1),
            (&[0x75], "ld (hl),l", 1),
            (&[0x76], "halt", 1),
            (&[0x7F], "ld a,a", 1),
            (&[0x80], "add a,b", 1),
            (&[0x8E], "adc a,(hl)", 1),
            (&[0x92], "sub d", 1),
            (&[0x9B], "sbc a,e", 1),
            (&[0xA4], "and h", 1),
            (&[0xAD], "xor l", 1),
            (&[0xB7], "or a", 1),
            (&[0xBE], "cp (hl)", 1),
            (&[0xC0], "ret nz", 1),
            (&[0xC1], "pop bc", 1),
            (&[0xC2, 0x34, 0x12], "jp nz,$1234", 3),
            (&[0xC3, 0x00, 0x00], "jp $0000", 3),
            (&[0xC4, 0x00, 0x40], "call nz,$4000", 3),
            (&[0xC5], "push bc", 1),
            (&[0xC6, 0x01], "add a,$01", 2),
            (&[0xC7], "rst $00", 1),
            (&[0xC9], "ret", 1),
            (&[0xCD, 0x34, 0x12], "call $1234", 3),
            (&[0xCE, 0xFF], "adc a,$FF", 2),
            (&[0xD3, 0x10], "out ($10),a", 2),
            (&[0xD6, 0x02], "sub $02", 2),
            (&[0xD9], "exx", 1),
            (&[0xDB, 0x01], "in a,($01)", 2),
            (&[0xDE, 0x03], "sbc a,$03", 2),
            (&[0xE3], "ex (sp),hl", 1),
            (&[0xE6, 0x0F], "and $0F", 2),
            (&[0xE8], "ret pe", 1),
            (&[0xE9], "jp (hl)", 1),
            (&[0xEA, 0, 0], "jp pe,$0000", 3),
            (&[0xEB], "ex de,hl", 1),
            (&[0xEE, 0x80], "xor $80", 2),
            (&[0xF1], "pop af", 1),
            (&[0xF3], "di", 1),
            (&[0xF5], "push af", 1),
            (&[0xF6, 0x01], "or $01", 2),
            (&[0xF9], "ld sp,hl", 1),
            (&[0xFA, 0x00, 0x90], "jp m,$9000", 3),
            (&[0xFB], "ei", 1),
            (&[0xFC, 0x00, 0x90], "call m,$9000", 3),
            (&[0xFE, 0x3A], "cp $3A", 2),
            (&[0xFF], "rst $38", 1),
        ];
        for &(bytes, text, len) in table {
            check(bytes, text, len);
        }
    }

    #[test]
    fn cb_page() {
        let table: &[(&[u8], &str)] = &[
            (&[0xCB, 0x00], "rlc b"),
            (&[0xCB, 0x09], "rrc c"),
            (&[0xCB, 0x12], "rl d"),
            (&[0xCB, 0x1B], "rr e"),
            (&[0xCB, 0x24], "sla h"),
            (&[0xCB, 0x2D], "sra l"),
            (&[0xCB, 0x36], "sll (hl)"),
            (&[0xCB, 0x37], "sll a"),
            (&[0xCB, 0x3F], "srl a"),
            (&[0xCB, 0x46], "bit 0,(hl)"),
            (&[0xCB, 0x7F], "bit 7,a"),
            (&[0xCB, 0x88], "res 1,b"),
            (&[0xCB, 0xBE], "res 7,(hl)"),
            (&[0xCB, 0xC7], "set 0,a"),
            (&[0xCB, 0xFE], "set 7,(hl)"),
        ];
        for &(bytes, text) in table {
            check(bytes, text, 2);
        }
    }

    #[test]
    fn ed_page() {
        let table: &[(&[u8], &str, u8)] = &[
            (&[0xED, 0x40], "in b,(c)", 2),
            (&[0xED, 0x70], "in f,(c)", 2),
            (&[0xED, 0x78], "in a,(c)", 2),
            (&[0xED, 0x41], "out (c),b", 2),
            (&[0xED, 0x71], "out (c),0", 2),
            (&[0xED, 0x79], "out (c),a", 2),
            (&[0xED, 0x42], "sbc hl,bc", 2),
            (&[0xED, 0x6A], "adc hl,hl", 2),
            (&[0xED, 0x7A], "adc hl,sp", 2),
            (&[0xED, 0x43, 0x34, 0x12], "ld ($1234),bc", 4),
            (&[0xED, 0x63, 0x34, 0x12], "ld ($1234),hl", 4),
            (&[0xED, 0x7B, 0x00, 0xF0], "ld sp,($F000)", 4),
            (&[0xED, 0x44], "neg", 2),
            (&[0xED, 0x4C], "neg", 2),
            (&[0xED, 0x7C], "neg", 2),
            (&[0xED, 0x45], "retn", 2),
            (&[0xED, 0x4D], "reti", 2),
            (&[0xED, 0x5D], "retn", 2),
            (&[0xED, 0x46], "im 0", 2),
            (&[0xED, 0x4E], "im 0", 2),
            (&[0xED, 0x56], "im 1", 2),
            (&[0xED, 0x5E], "im 2", 2),
            (&[0xED, 0x66], "im 0", 2),
            (&[0xED, 0x76], "im 1", 2),
            (&[0xED, 0x7E], "im 2", 2),
            (&[0xED, 0x47], "ld i,a", 2),
            (&[0xED, 0x4F], "ld r,a", 2),
            (&[0xED, 0x57], "ld a,i", 2),
            (&[0xED, 0x5F], "ld a,r", 2),
            (&[0xED, 0x67], "rrd", 2),
            (&[0xED, 0x6F], "rld", 2),
            (&[0xED, 0x77], "nop*", 2),
            (&[0xED, 0x7F], "nop*", 2),
            (&[0xED, 0xA0], "ldi", 2),
            (&[0xED, 0xA9], "cpd", 2),
            (&[0xED, 0xB2], "inir", 2),
            (&[0xED, 0xBB], "otdr", 2),
            (&[0xED, 0xA3], "outi", 2),
            (&[0xED, 0xB3], "otir", 2),
            (&[0xED, 0xA4], "nop*", 2),
            (&[0xED, 0x00], "nop*", 2),
            (&[0xED, 0x3F], "nop*", 2),
            (&[0xED, 0x80], "nop*", 2),
            (&[0xED, 0xC0], "nop*", 2),
            (&[0xED, 0xED], "nop*", 2),
            (&[0xED, 0xFF], "nop*", 2),
        ];
        for &(bytes, text, len) in table {
            check(bytes, text, len);
        }
    }

    #[test]
    fn index_prefixes() {
        let table: &[(&[u8], &str, u8)] = &[
            (&[0xDD, 0x21, 0x34, 0x12], "ld ix,$1234", 4),
            (&[0xFD, 0x21, 0x34, 0x12], "ld iy,$1234", 4),
            (&[0xDD, 0x09], "add ix,bc", 2),
            (&[0xDD, 0x29], "add ix,ix", 2),
            (&[0xFD, 0x39], "add iy,sp", 2),
            (&[0xDD, 0x22, 0x00, 0x80], "ld ($8000),ix", 4),
            (&[0xFD, 0x2A, 0x00, 0x80], "ld iy,($8000)", 4),
            (&[0xDD, 0x23], "inc ix", 2),
            (&[0xFD, 0x2B], "dec iy", 2),
            (&[0xDD, 0x24], "inc ixh", 2),
            (&[0xDD, 0x2D], "dec ixl", 2),
            (&[0xFD, 0x26, 0x55], "ld iyh,$55", 3),
            (&[0xFD, 0x2E, 0x55], "ld iyl,$55", 3),
            (&[0xDD, 0x34, 0x05], "inc (ix+$05)", 3),
            (&[0xFD, 0x35, 0xFD], "dec (iy-$03)", 3),
            (&[0xDD, 0x36, 0x80, 0x12], "ld (ix-$80),$12", 4),
            (&[0xDD, 0x36, 0x7F, 0x12], "ld (ix+$7F),$12", 4),
            (&[0xDD, 0x46, 0x00], "ld b,(ix+$00)", 3),
            (&[0xDD, 0x66, 0x01], "ld h,(ix+$01)", 3),
            (&[0xFD, 0x6E, 0x01], "ld l,(iy+$01)", 3),
            (&[0xDD, 0x74, 0x02], "ld (ix+$02),h", 3),
            (&[0xFD, 0x77, 0xFF], "ld (iy-$01),a", 3),
            (&[0xDD, 0x44], "ld b,ixh", 2),
            (&[0xDD, 0x65], "ld ixh,ixl", 2),
            (&[0xFD, 0x6F], "ld iyl,a", 2),
            (&[0xDD, 0x84], "add a,ixh", 2),
            (&[0xFD, 0xBD], "cp iyl", 2),
            (&[0xDD, 0x96, 0x10], "sub (ix+$10)", 3),
            (&[0xDD, 0xE1], "pop ix", 2),
            (&[0xFD, 0xE5], "push iy", 2),
            (&[0xDD, 0xE3], "ex (sp),ix", 2),
            (&[0xDD, 0xE9], "jp (ix)", 2),
            (&[0xFD, 0xF9], "ld sp,iy", 2),
            (&[0xDD, 0x76], "nop*", 1),
            // Prefixes that do nothing are one-byte instructions of their own.
            (&[0xDD, 0x00], "nop*", 1),
            (&[0xDD, 0x78], "nop*", 1),
            (&[0xFD, 0xEB], "nop*", 1),
            (&[0xDD, 0xD9], "nop*", 1),
            (&[0xDD, 0xC3, 0x00, 0x00], "nop*", 1),
            (&[0xDD, 0xDD, 0x21, 0x00], "nop*", 1),
            (&[0xDD, 0xFD, 0x21, 0x00], "nop*", 1),
            (&[0xFD, 0xED, 0x44], "nop*", 1),
        ];
        for &(bytes, text, len) in table {
            check(bytes, text, len);
        }
    }

    #[test]
    fn index_cb() {
        let table: &[(&[u8], &str)] = &[
            (&[0xDD, 0xCB, 0x05, 0x06], "rlc (ix+$05)"),
            (&[0xDD, 0xCB, 0x05, 0x00], "rlc (ix+$05),b"),
            (&[0xFD, 0xCB, 0xFE, 0x0F], "rrc (iy-$02),a"),
            (&[0xDD, 0xCB, 0x00, 0x36], "sll (ix+$00)"),
            (&[0xDD, 0xCB, 0x00, 0x34], "sll (ix+$00),h"),
            (&[0xDD, 0xCB, 0x00, 0x3E], "srl (ix+$00)"),
            (&[0xDD, 0xCB, 0x10, 0x46], "bit 0,(ix+$10)"),
            (&[0xDD, 0xCB, 0x10, 0x40], "bit 0,(ix+$10)"),
            (&[0xFD, 0xCB, 0x10, 0x7F], "bit 7,(iy+$10)"),
            (&[0xDD, 0xCB, 0x01, 0x86], "res 0,(ix+$01)"),
            (&[0xDD, 0xCB, 0x01, 0xBD], "res 7,(ix+$01),l"),
            (&[0xFD, 0xCB, 0xFD, 0xC7], "set 0,(iy-$03),a"),
            (&[0xFD, 0xCB, 0xFD, 0xFE], "set 7,(iy-$03)"),
        ];
        for &(bytes, text) in table {
            check(bytes, text, 4);
        }
    }

    #[test]
    fn addresses_wrap() {
        // A jump at FFFEh lands past the top of memory; operands wrap to address 0.
        let mem = |a: u16| match a {
            0xFFFE => 0x18,
            0xFFFF => 0x03,
            0x0000 => 0x34,
            0x0001 => 0x12,
            _ => 0,
        };
        assert_eq!(disassemble(mem, 0xFFFE).text, "jr $0003");
        let ins = disassemble(mem, 0xFFFF);
        assert_eq!((ins.text.as_str(), ins.len), ("inc bc", 1));
        let mem = |a: u16| match a {
            0xFFFF => 0xC3,
            0x0000 => 0x34,
            0x0001 => 0x12,
            _ => 0,
        };
        assert_eq!(disassemble(mem, 0xFFFF).text, "jp $1234");
        assert_eq!(disassemble_at(&[0x10, 0xFE], 0x9000).text, "djnz $9000");
        assert_eq!(disassemble_at(&[0x18, 0x80], 0x0010).text, "jr $FF92");
        assert_eq!(disassemble_bytes(&[0xED, 0xB0]).to_string(), "ldir");
    }

    #[test]
    fn reads_only_the_instruction() {
        let mut seen = Vec::new();
        let bytes = [0xDD, 0x36, 0x05, 0x12, 0x99];
        let ins = disassemble(
            |a| {
                seen.push(a);
                bytes[a as usize - 0x100]
            },
            0x100,
        );
        assert_eq!(ins.text, "ld (ix+$05),$12");
        assert!(seen.iter().all(|&a| (0x100..0x104).contains(&a)));
    }

    /// Every first byte and second byte, with a spread of values after them, and every
    /// DDCB/FDCB/ED pair: never panics, always 1 to 4 bytes, never empty text.
    #[test]
    fn every_sequence_decodes() {
        let tails = [0x00u8, 0x01, 0x7F, 0x80, 0xCB, 0xDD, 0xED, 0xFF];
        let ok = |bytes: &[u8]| {
            let ins = disassemble_bytes(bytes);
            assert!((1..=4).contains(&ins.len), "{bytes:02X?} -> {ins:?}");
            assert!(!ins.text.is_empty());
        };
        for b0 in 0..=255u8 {
            for b1 in 0..=255u8 {
                for &b2 in &tails {
                    for &b3 in &tails {
                        ok(&[b0, b1, b2, b3]);
                    }
                }
            }
        }
        for prefix in [0xDDu8, 0xFD] {
            for b2 in 0..=255u8 {
                for b3 in 0..=255u8 {
                    let ins = disassemble_bytes(&[prefix, 0xCB, b2, b3]);
                    assert_eq!(ins.len, 4);
                }
            }
        }
        for b1 in 0..=255u8 {
            for b2 in 0..=255u8 {
                ok(&[0xED, b1, b2, 0]);
            }
        }
        // Short slices read zeros.
        assert_eq!(disassemble_bytes(&[]).text, "nop");
        assert_eq!(disassemble_bytes(&[0xC3]).text, "jp $0000");
    }

    /// The length table, checked independently: the number of bytes each opcode takes from
    /// the well-known layout (prefix + opcode + displacement + immediate).
    #[test]
    fn lengths_follow_operands() {
        for op in 0..=255u8 {
            let ins = disassemble_bytes(&[op, 0, 0, 0]);
            let has_nn = ins.text.contains("$0000")
                && !ins.text.starts_with("jr")
                && !ins.text.starts_with("djnz");
            let expect = match op {
                0xCB | 0xED => 2,
                0xDD | 0xFD => 1,
                _ if ins.text.starts_with("rst") => 1,
                _ if has_nn => 3,
                _ if ins.text.contains("$00") || ins.text.contains("$0002") => 2,
                _ => 1,
            };
            assert_eq!(ins.len, expect, "{op:02X} {}", ins.text);
        }
    }
}
