//! Instruction results, flags and T-state counts, group by group, written by hand from the
//! Zilog Z80 CPU User Manual (UM0080) and Sean Young's "The Undocumented Z80 Documented"
//! (v0.91). Flag bytes are spelled S Z Y H X P/V N C = 80 40 20 10 08 04 02 01.

mod common;

use common::*;
use ti82_z80::flags;

// ------------------------------------------------------------------ 8-bit loads

#[test]
fn ld_r_r_and_immediates() {
    let (c, _, t) = exec(&[0x41], |c, _| {
        c.regs[C] = 0x5A;
        c.regs[F] = 0xFF;
    });
    assert_eq!((c.regs[B], c.regs[F], c.pc, t), (0x5A, 0xFF, 1, 4));

    let (c, _, t) = exec(&[0x1E, 0x9C], |_, _| {});
    assert_eq!((c.regs[E], c.pc, t), (0x9C, 2, 7));

    let (c, _, t) = exec(&[0x7E], |c, b| {
        c.set_hl(0x8000);
        b.mem[0x8000] = 0x33;
    });
    assert_eq!((c.regs[A], t), (0x33, 7));

    let (_, b, t) = exec(&[0x77], |c, _| {
        c.set_hl(0x8000);
        c.regs[A] = 0x29;
    });
    assert_eq!((b.mem[0x8000], t), (0x29, 7));

    let (_, b, t) = exec(&[0x36, 0x28], |c, _| c.set_hl(0x4444));
    assert_eq!((b.mem[0x4444], t), (0x28, 10));
}

#[test]
fn ld_indexed() {
    // UM0080 LD r,(IX+d) example: IX=25AFh, d=19h, (25C8h)=39h.
    let (c, _, t) = exec(&[0xDD, 0x46, 0x19], |c, b| {
        c.ix = 0x25AF;
        b.mem[0x25C8] = 0x39;
    });
    assert_eq!((c.regs[B], c.pc, t), (0x39, 3, 19));

    // Negative displacement, IY.
    let (_, b, t) = exec(&[0xFD, 0x71, 0xFE], |c, _| {
        c.iy = 0x1000;
        c.regs[C] = 0x77;
    });
    assert_eq!((b.mem[0x0FFE], t), (0x77, 19));

    let (c, b, t) = exec(&[0xDD, 0x36, 0x05, 0x5A], |c, _| c.ix = 0x219A);
    assert_eq!((b.mem[0x219F], c.pc, t), (0x5A, 4, 19));

    // LD H,(IX+d) loads the real H, not IXH (Young 4.1); IX is untouched.
    let (c, _, _) = exec(&[0xDD, 0x66, 0x00], |c, b| {
        c.ix = 0x4000;
        b.mem[0x4000] = 0x12;
    });
    assert_eq!((c.regs[H], c.ix), (0x12, 0x4000));

    // LD (IX+d),L stores the real L.
    let (_, b, _) = exec(&[0xDD, 0x75, 0x01], |c, _| {
        c.ix = 0x4000;
        c.set_hl(0xABCD);
    });
    assert_eq!(b.mem[0x4001], 0xCD);
}

#[test]
fn ld_accumulator_memory() {
    let (c, _, t) = exec(&[0x0A], |c, b| {
        c.set_bc(0x4747);
        b.mem[0x4747] = 0x12;
    });
    assert_eq!((c.regs[A], t, c.wz), (0x12, 7, 0x4748));

    let (c, b, t) = exec(&[0x12], |c, _| {
        c.set_de(0x1128);
        c.regs[A] = 0x97;
    });
    // MEMPTR after LD (DE),A: A in the high byte, (DE+1) low byte in the low byte.
    assert_eq!((b.mem[0x1128], t, c.wz), (0x97, 7, 0x9729));

    let (c, _, t) = exec(&[0x3A, 0x32, 0x88], |_, b| b.mem[0x8832] = 0x04);
    assert_eq!((c.regs[A], c.pc, t), (0x04, 3, 13));

    let (_, b, t) = exec(&[0x32, 0x41, 0x31], |c, _| c.regs[A] = 0xD7);
    assert_eq!((b.mem[0x3141], t), (0xD7, 13));
}

#[test]
fn ld_a_i_and_r() {
    // LD A,I: S and Z from I, H = N = 0, P/V = IFF2, C kept. 9 T-states.
    let (c, _, t) = exec(&[0xED, 0x57], |c, _| {
        c.i = 0x80;
        c.iff2 = true;
        c.regs[F] = 0x01;
    });
    assert_eq!((c.regs[A], c.regs[F], t), (0x80, 0x85, 9));

    let (c, _, _) = exec(&[0xED, 0x57], |c, _| {
        c.i = 0x00;
        c.iff2 = false;
        c.regs[F] = 0xFF;
    });
    assert_eq!((c.regs[A], c.regs[F]), (0x00, 0x41));

    // LD A,R sees R after both M1 cycles of the instruction have bumped it.
    let (c, _, t) = exec(&[0xED, 0x5F], |c, _| c.set_r(0x05));
    assert_eq!((c.regs[A], t), (0x07, 9));

    let (c, _, t) = exec(&[0xED, 0x47], |c, _| c.regs[A] = 0x3C);
    assert_eq!((c.i, t), (0x3C, 9));
    let (c, _, t) = exec(&[0xED, 0x4F], |c, _| c.regs[A] = 0xB3);
    assert_eq!((c.r(), t), (0xB3, 9));
}

// ------------------------------------------------------------------ 16-bit loads

#[test]
fn ld_16() {
    let (c, _, t) = exec(&[0x21, 0x00, 0x50], |_, _| {});
    assert_eq!((c.hl(), t), (0x5000, 10));

    let (c, _, t) = exec(&[0xDD, 0x21, 0xA2, 0x45], |_, _| {});
    assert_eq!((c.ix, c.pc, t), (0x45A2, 4, 14));

    let (c, _, t) = exec(&[0x2A, 0x45, 0x45], |_, b| b.load(0x4545, &[0x37, 0xA1]));
    assert_eq!((c.hl(), t, c.wz), (0xA137, 16, 0x4546));

    let (c, _, t) = exec(&[0xED, 0x4B, 0x30, 0x21], |_, b| {
        b.load(0x2130, &[0x65, 0x78])
    });
    assert_eq!((c.bc(), c.pc, t), (0x7865, 4, 20));

    let (c, _, t) = exec(&[0xDD, 0x2A, 0x66, 0x66], |_, b| {
        b.load(0x6666, &[0x92, 0xDA])
    });
    assert_eq!((c.ix, t), (0xDA92, 20));

    let (_, b, t) = exec(&[0x22, 0x29, 0xB2], |c, _| c.set_hl(0x483A));
    assert_eq!((b.mem[0xB229], b.mem[0xB22A], t), (0x3A, 0x48, 16));

    let (_, b, t) = exec(&[0xED, 0x53, 0x00, 0x10], |c, _| c.set_de(0x1234));
    assert_eq!((b.mem[0x1000], b.mem[0x1001], t), (0x34, 0x12, 20));

    let (_, b, t) = exec(&[0xFD, 0x22, 0x00, 0x10], |c, _| c.iy = 0xBEEF);
    assert_eq!((b.mem[0x1000], b.mem[0x1001], t), (0xEF, 0xBE, 20));

    let (c, _, t) = exec(&[0xF9], |c, _| c.set_hl(0x442E));
    assert_eq!((c.sp, t), (0x442E, 6));
    let (c, _, t) = exec(&[0xDD, 0xF9], |c, _| c.ix = 0x98DA);
    assert_eq!((c.sp, t), (0x98DA, 10));
}

#[test]
fn push_pop() {
    let (c, b, t) = exec(&[0xC5], |c, _| c.set_bc(0x2233));
    assert_eq!(
        (c.sp, b.mem[0xEFFF], b.mem[0xEFFE], t),
        (0xEFFE, 0x22, 0x33, 11)
    );

    let (c, b, t) = exec(&[0xDD, 0xE5], |c, _| c.ix = 0x2233);
    assert_eq!(
        (c.sp, b.mem[0xEFFF], b.mem[0xEFFE], t),
        (0xEFFE, 0x22, 0x33, 15)
    );

    let (c, _, t) = exec(&[0xE1], |c, b| {
        c.sp = 0x1000;
        b.load(0x1000, &[0x55, 0x33]);
    });
    assert_eq!((c.hl(), c.sp, t), (0x3355, 0x1002, 10));

    let (c, _, t) = exec(&[0xFD, 0xE1], |c, b| {
        c.sp = 0x1000;
        b.load(0x1000, &[0x55, 0x33]);
    });
    assert_eq!((c.iy, t), (0x3355, 14));

    // POP AF: F is whatever was on the stack, all 8 bits.
    let (c, _, _) = exec(&[0xF1], |c, b| {
        c.sp = 0x1000;
        b.load(0x1000, &[0xD7, 0x3C]);
    });
    assert_eq!((c.regs[A], c.regs[F]), (0x3C, 0xD7));
}

// ------------------------------------------------------------------ exchange, block transfer, search

#[test]
fn exchanges() {
    let (c, _, t) = exec(&[0xEB], |c, _| {
        c.set_de(0x2822);
        c.set_hl(0x499A);
    });
    assert_eq!((c.de(), c.hl(), t), (0x499A, 0x2822, 4));

    let (c, _, t) = exec(&[0x08], |c, _| {
        c.set_af(0x9900);
        c.af_alt = 0x5944;
    });
    assert_eq!((c.af(), c.af_alt, t), (0x5944, 0x9900, 4));

    let (c, _, t) = exec(&[0xD9], |c, _| {
        c.set_bc(0x445A);
        c.set_de(0x3DA2);
        c.set_hl(0x8859);
        c.bc_alt = 0x0988;
        c.de_alt = 0x9300;
        c.hl_alt = 0x00E7;
    });
    assert_eq!(
        (c.bc(), c.de(), c.hl(), c.bc_alt, c.de_alt, c.hl_alt, t),
        (0x0988, 0x9300, 0x00E7, 0x445A, 0x3DA2, 0x8859, 4)
    );

    // UM0080 EX (SP),HL example.
    let (c, b, t) = exec(&[0xE3], |c, b| {
        c.set_hl(0x7012);
        c.sp = 0x8856;
        b.load(0x8856, &[0x11, 0x22]);
    });
    assert_eq!(
        (c.hl(), b.mem[0x8856], b.mem[0x8857], c.sp, t, c.wz),
        (0x2211, 0x12, 0x70, 0x8856, 19, 0x2211)
    );

    let (c, b, t) = exec(&[0xDD, 0xE3], |c, b| {
        c.ix = 0x3988;
        c.sp = 0x0100;
        b.load(0x0100, &[0x90, 0x48]);
    });
    assert_eq!(
        (c.ix, b.mem[0x0100], b.mem[0x0101], t),
        (0x4890, 0x88, 0x39, 23)
    );

    // EX DE,HL ignores a DD prefix (Young 4.1): the prefix costs 4 T-states, nothing more.
    let (c, _, t) = exec(&[0xDD, 0xEB], |c, _| {
        c.set_de(0x1111);
        c.set_hl(0x2222);
        c.ix = 0x3333;
    });
    assert_eq!((c.de(), c.hl(), c.ix, t), (0x2222, 0x1111, 0x3333, 8));
}

#[test]
fn ldi_ldd() {
    // LDI: P/V = BC != 0, H = N = 0; X = bit 3 and Y = bit 1 of (byte + A) (Young 4.2).
    let (c, b, t) = exec(&[0xED, 0xA0], |c, b| {
        c.set_hl(0x1111);
        c.set_de(0x2222);
        c.set_bc(0x0007);
        b.mem[0x1111] = 0x88;
        b.mem[0x2222] = 0x66;
    });
    assert_eq!(
        (b.mem[0x2222], c.hl(), c.de(), c.bc(), c.regs[F], t),
        (0x88, 0x1112, 0x2223, 0x0006, 0x0C, 16)
    );

    // Y from bit 1: byte 0x00 + A 0x02 = 0x02. BC reaching 0 clears P/V; S, Z, C kept.
    let (c, b, t) = exec(&[0xED, 0xA8], |c, b| {
        c.regs[A] = 0x02;
        c.regs[F] = 0xC1;
        c.set_hl(0x1111);
        c.set_de(0x2222);
        c.set_bc(0x0001);
        b.mem[0x1111] = 0x00;
        b.mem[0x2222] = 0x66;
    });
    assert_eq!(
        (b.mem[0x2222], c.hl(), c.de(), c.bc(), c.regs[F], t),
        (0x00, 0x1110, 0x2221, 0x0000, 0xE1, 16)
    );
}

#[test]
fn ldir() {
    // UM0080 LDIR example; 21 T-states per repeat, 16 for the last.
    let (c, b, t) = exec_n(&[0xED, 0xB0], 3, |c, b| {
        c.set_hl(0x1111);
        c.set_de(0x2222);
        c.set_bc(0x0003);
        b.load(0x1111, &[0x88, 0x36, 0xA5]);
        b.load(0x2222, &[0x66, 0x59, 0xC5]);
    });
    assert_eq!(&b.mem[0x2222..0x2225], &[0x88, 0x36, 0xA5]);
    assert_eq!(
        (c.hl(), c.de(), c.bc(), c.pc, t),
        (0x1114, 0x2225, 0, 2, 58)
    );
    assert_eq!(c.regs[F] & (flags::PV | flags::H | flags::N), 0);

    // One repeating iteration leaves PC on the instruction and MEMPTR at PC+1.
    let (c, _, t) = exec(&[0xED, 0xB0], |c, _| {
        c.set_bc(0x0002);
        c.set_hl(0x1000);
        c.set_de(0x2000);
    });
    assert_eq!((c.pc, c.bc(), c.wz, t), (0, 1, 1, 21));
    assert_ne!(c.regs[F] & flags::PV, 0);
}

#[test]
fn cpi_cpir() {
    let (c, _, t) = exec(&[0xED, 0xA1], |c, b| {
        c.set_hl(0x1111);
        c.regs[A] = 0x3B;
        c.set_bc(0x0001);
        b.mem[0x1111] = 0x3B;
    });
    assert_eq!((c.hl(), c.bc(), c.regs[F], t), (0x1112, 0, 0x42, 16));

    // UM0080 CPIR example: found at the third byte, BC left at 4.
    let (c, _, t) = exec_n(&[0xED, 0xB1], 3, |c, b| {
        c.set_hl(0x1111);
        c.regs[A] = 0xF3;
        c.set_bc(0x0007);
        b.load(0x1111, &[0x52, 0x00, 0xF3]);
    });
    assert_eq!(
        (c.hl(), c.bc(), c.pc, c.regs[F], t),
        (0x1114, 4, 2, 0x46, 58)
    );

    // CPD: A - (HL) with borrow from bit 4 sets H; then X/Y come from A - (HL) - H.
    // A=10h, (HL)=01h: 0Fh, H; n = 0Eh: X (bit 3) set, Y (bit 1) set.
    let (c, _, _) = exec(&[0xED, 0xA9], |c, b| {
        c.set_hl(0x2000);
        c.regs[A] = 0x10;
        c.set_bc(0x0005);
        b.mem[0x2000] = 0x01;
    });
    assert_eq!((c.hl(), c.bc(), c.regs[F]), (0x1FFF, 4, 0x3E));
}

// ------------------------------------------------------------------ 8-bit arithmetic and logic

/// Runs `code` with A and F preset and returns (A, F, T-states).
fn alu(
    code: &[u8],
    a: u8,
    f: u8,
    setup: impl FnOnce(&mut ti82_z80::Cpu, &mut TestBus),
) -> (u8, u8, u32) {
    let (c, _, t) = exec(code, |c, b| {
        c.regs[A] = a;
        c.regs[F] = f;
        setup(c, b);
    });
    (c.regs[A], c.regs[F], t)
}

#[test]
fn add_adc() {
    assert_eq!(
        alu(&[0x83], 0x44, 0, |c, _| c.regs[E] = 0x11),
        (0x55, 0x00, 4)
    );
    // Signed overflow 7Fh+1: S, H, P/V.
    assert_eq!(alu(&[0xC6, 0x7F], 0x01, 0, |_, _| {}), (0x80, 0x94, 7));
    // FFh+1 = 0: Z, H, C.
    assert_eq!(
        alu(&[0x86], 0xFF, 0, |c, b| {
            c.set_hl(0x9000);
            b.mem[0x9000] = 0x01;
        }),
        (0x00, 0x51, 7)
    );
    assert_eq!(
        alu(&[0xDD, 0x86, 0x05], 0x11, 0, |c, b| {
            c.ix = 0x1000;
            b.mem[0x1005] = 0x22;
        }),
        (0x33, 0x20, 19)
    );
    // UM0080 ADC A,(HL): 16h + 10h + carry = 27h.
    assert_eq!(
        alu(&[0x8E], 0x16, flags::C, |c, b| {
            c.set_hl(0x6666);
            b.mem[0x6666] = 0x10;
        }),
        (0x27, 0x20, 7)
    );
    // ADC with the carry making the half carry: 0Fh + 0 + 1.
    assert_eq!(
        alu(&[0xCE, 0x00], 0x0F, flags::C, |_, _| {}),
        (0x10, 0x10, 7)
    );
}

#[test]
fn sub_sbc_cp() {
    assert_eq!(
        alu(&[0x92], 0x29, 0, |c, _| c.regs[D] = 0x11),
        (0x18, 0x0A, 4)
    );
    assert_eq!(
        alu(&[0x9E], 0x16, flags::C, |c, b| {
            c.set_hl(0x3433);
            b.mem[0x3433] = 0x05;
        }),
        (0x10, 0x02, 7)
    );
    // 80h - 1 = 7Fh: overflow, half borrow, N, X and Y from the result.
    assert_eq!(alu(&[0xD6, 0x01], 0x80, 0, |_, _| {}), (0x7F, 0x3E, 7));
    // 0 - 1 with carry in: FEh, borrow.
    assert_eq!(
        alu(&[0xDE, 0x01], 0x00, flags::C, |_, _| {}),
        (0xFE, 0xBB, 7)
    );
    // CP leaves A; X and Y come from the operand, not the result (Young 4.1).
    assert_eq!(
        alu(&[0xBE], 0x63, 0, |c, b| {
            c.set_hl(0x6000);
            b.mem[0x6000] = 0x60;
        }),
        (0x63, 0x22, 7)
    );
    assert_eq!(alu(&[0xFE, 0x28], 0x00, 0, |_, _| {}), (0x00, 0xBB, 7));
    assert_eq!(alu(&[0xBF], 0x5A, 0, |_, _| {}), (0x5A, 0x4A, 4));
}

#[test]
fn logic() {
    assert_eq!(
        alu(&[0xA0], 0xC3, 0xFF, |c, _| c.regs[B] = 0x7B),
        (0x43, 0x10, 4)
    );
    assert_eq!(
        alu(&[0xB4], 0x12, 0xFF, |c, _| c.regs[H] = 0x48),
        (0x5A, 0x0C, 4)
    );
    assert_eq!(alu(&[0xEE, 0x96], 0x96, 0xFF, |_, _| {}), (0x00, 0x44, 7));
    assert_eq!(alu(&[0xE6, 0xF0], 0x8F, 0, |_, _| {}), (0x80, 0x90, 7));
    assert_eq!(
        alu(&[0xFD, 0xB6, 0xFF], 0x01, 0, |c, b| {
            c.iy = 0x2001;
            b.mem[0x2000] = 0x20;
        }),
        (0x21, 0x24, 19)
    );
}

#[test]
fn inc_dec_8() {
    // INC keeps C.
    let (c, _, t) = exec(&[0x14], |c, _| {
        c.regs[D] = 0x28;
        c.regs[F] = flags::C;
    });
    assert_eq!((c.regs[D], c.regs[F], t), (0x29, 0x29, 4));
    assert_eq!(alu(&[0x3C], 0x7F, 0, |_, _| {}), (0x80, 0x94, 4));
    assert_eq!(alu(&[0x3C], 0xFF, 0, |_, _| {}), (0x00, 0x50, 4));
    let (c, _, _) = exec(&[0x05], |c, _| c.regs[B] = 0x80);
    assert_eq!((c.regs[B], c.regs[F]), (0x7F, 0x3E));
    let (_, b, t) = exec(&[0x35], |c, b| {
        c.set_hl(0x3000);
        b.mem[0x3000] = 0x01;
    });
    assert_eq!((b.mem[0x3000], t), (0x00, 11));
    let (c, b, t) = exec(&[0xDD, 0x34, 0x10], |c, b| {
        c.ix = 0x2020;
        b.mem[0x2030] = 0x34;
    });
    assert_eq!((b.mem[0x2030], c.regs[F], t), (0x35, 0x20, 23));
}

// ------------------------------------------------------------------ general purpose

#[test]
fn daa() {
    // 15h + 27h = 3Ch, DAA gives BCD 42h: H from the low-digit adjust, parity even.
    let (c, _, t) = exec_n(&[0xC6, 0x27, 0x27], 2, |c, _| c.regs[A] = 0x15);
    assert_eq!((c.regs[A], c.regs[F], t), (0x42, 0x14, 11));
    // 42h - 15h = 2Dh, DAA gives 27h; N kept.
    let (c, _, _) = exec_n(&[0xD6, 0x15, 0x27], 2, |c, _| c.regs[A] = 0x42);
    assert_eq!((c.regs[A], c.regs[F]), (0x27, 0x26));
    // 99h + 1 = 9Ah, DAA gives 00h with carry.
    let (c, _, _) = exec_n(&[0xC6, 0x01, 0x27], 2, |c, _| c.regs[A] = 0x99);
    assert_eq!((c.regs[A], c.regs[F]), (0x00, 0x55));
}

#[test]
fn cpl_neg() {
    // CPL: H and N set, X/Y from the result, the rest kept.
    assert_eq!(alu(&[0x2F], 0xB4, 0xC5, |_, _| {}), (0x4B, 0xDF, 4));
    // NEG (UM0080: 98h -> 68h).
    assert_eq!(alu(&[0xED, 0x44], 0x98, 0, |_, _| {}), (0x68, 0x3B, 8));
    assert_eq!(alu(&[0xED, 0x44], 0x80, 0, |_, _| {}), (0x80, 0x87, 8));
    assert_eq!(alu(&[0xED, 0x44], 0x00, 0xFF, |_, _| {}), (0x00, 0x42, 8));
    // The undocumented NEG duplicates (Young 3.3).
    for op in [0x4C, 0x54, 0x5C, 0x64, 0x6C, 0x74, 0x7C] {
        assert_eq!(
            alu(&[0xED, op], 0x98, 0, |_, _| {}),
            (0x68, 0x3B, 8),
            "ED {op:02X}"
        );
    }
}

#[test]
fn scf_ccf() {
    assert_eq!(alu(&[0x37], 0x00, 0xC4, |_, _| {}), (0x00, 0xC5, 4));
    // CCF: H takes the old carry.
    assert_eq!(alu(&[0x3F], 0x00, 0x01, |_, _| {}), (0x00, 0x10, 4));
    assert_eq!(alu(&[0x3F], 0x00, 0x10, |_, _| {}), (0x00, 0x01, 4));
    // X/Y from A when the previous instruction did not touch F (Q = 0).
    assert_eq!(alu(&[0x37], 0x28, 0x00, |_, _| {}), (0x28, 0x29, 4));
}

#[test]
fn scf_q_latch() {
    // NMOS Z80: SCF/CCF take X/Y from (Q xor F) | A, Q being F if the previous instruction
    // changed the flags, else 0 (Patrik Rak's 2018 measurements, the basis of the `q` field
    // in the SingleStepTests data). After CP 28h with A=0, F=BBh (X, Y set) and Q=F: SCF
    // clears X/Y.
    let (c, _, _) = exec_n(&[0xFE, 0x28, 0x37], 2, |_, _| {});
    assert_eq!(c.regs[F], 0x81);
    // With a NOP between, Q=0: X/Y are copied from F.
    let (c, _, _) = exec_n(&[0xFE, 0x28, 0x00, 0x37], 3, |_, _| {});
    assert_eq!(c.regs[F], 0xA9);
    // Same for CCF: after CP, H = old C (1), C flipped to 0, X/Y from A (0).
    let (c, _, _) = exec_n(&[0xFE, 0x28, 0x3F], 2, |_, _| {});
    assert_eq!(c.regs[F], 0x90);
    let (c, _, _) = exec_n(&[0xFE, 0x28, 0x00, 0x3F], 3, |_, _| {});
    assert_eq!(c.regs[F], 0xB8);
}

#[test]
fn scf_q_latch_over_long_and_timed_gaps() {
    // The core keeps the M1 count modulo 256 beside the T-states; the latch must still lapse
    // after any number of instructions that leave F alone, 256 and 257 included (the count
    // comes round to the same value), and after a HALT that runs them in one skip.
    for nops in [1usize, 255, 256, 257, 511, 512, 1000] {
        let mut code = vec![0xFE, 0x28];
        code.extend(std::iter::repeat_n(0x00, nops));
        code.push(0x37);
        let (c, _, _) = exec_n(&code, nops + 2, |_, _| {});
        assert_eq!(c.regs[F], 0xA9, "CP, {nops} NOPs, SCF: Q = 0, X/Y from F");
    }
    // Time set between instructions is not an instruction: the latch stays (a machine that
    // moves the core's clock forward, as a power-off does, must not change SCF).
    let mut c = cpu();
    let mut b = TestBus::new();
    b.load(0, &[0xFE, 0x28, 0x37]);
    c.step(&mut b);
    c.set_t(c.t() + 100_000);
    c.step(&mut b);
    assert_eq!(c.regs[F], 0x81, "CP, clock moved, SCF: Q = F, X/Y from A");
    assert_eq!(c.t(), 100_000 + 7 + 4);
}

#[test]
fn r_counts_past_the_counter_wrap() {
    // R's low 7 bits count every M1 (UM0080, "Memory Refresh Register"); bit 7 stays as
    // loaded. 300 NOPs, then LD A,R (two M1s): 5 + 302 = 307 = 33h modulo 128, bit 7 from 85h.
    let mut code = vec![0x00; 300];
    code.extend([0xED, 0x5F]);
    let (c, _, _) = exec_n(&code, 301, |c, _| c.set_r(0x85));
    assert_eq!(c.regs[A], 0x80 | ((5 + 302) & 0x7F) as u8);
    assert_eq!(c.t(), 300 * 4 + 9);
}

// ------------------------------------------------------------------ 16-bit arithmetic

#[test]
fn add_16() {
    let (c, _, t) = exec(&[0x19], |c, _| {
        c.set_hl(0x4242);
        c.set_de(0x1111);
    });
    assert_eq!((c.hl(), c.regs[F], t, c.wz), (0x5353, 0x00, 11, 0x4243));
    // S, Z and P/V are kept; C out of bit 15.
    let (c, _, _) = exec(&[0x29], |c, _| {
        c.set_hl(0x8000);
        c.regs[F] = 0xC4;
    });
    assert_eq!((c.hl(), c.regs[F]), (0x0000, 0xC5));
    // H out of bit 11; X/Y from the result's high byte.
    let (c, _, _) = exec(&[0x09], |c, _| {
        c.set_hl(0x0FFF);
        c.set_bc(0x2801 - 0x0FFF);
    });
    assert_eq!((c.hl(), c.regs[F]), (0x2801, 0x38));
    let (c, _, t) = exec(&[0xDD, 0x39], |c, _| {
        c.ix = 0x1000;
        c.sp = 0x0234;
    });
    assert_eq!((c.ix, t), (0x1234, 15));
    let (c, _, t) = exec(&[0xFD, 0x29], |c, _| c.iy = 0x0101);
    assert_eq!((c.iy, t), (0x0202, 15));
}

#[test]
fn adc_sbc_16() {
    let (c, _, t) = exec(&[0xED, 0x5A], |c, _| {
        c.set_hl(0x7FFF);
        c.set_de(0x0000);
        c.regs[F] = flags::C;
    });
    assert_eq!((c.hl(), c.regs[F], t), (0x8000, 0x94, 15));
    let (c, _, t) = exec(&[0xED, 0x52], |c, _| {
        c.set_hl(0x0000);
        c.set_de(0x0001);
    });
    assert_eq!((c.hl(), c.regs[F], t), (0xFFFF, 0xBB, 15));
    // SBC HL,HL without carry: zero.
    let (c, _, _) = exec(&[0xED, 0x62], |c, _| c.set_hl(0x1234));
    assert_eq!((c.hl(), c.regs[F]), (0x0000, 0x42));
    // UM0080 SBC HL,DE: 9999h - 1111h - 1 = 8887h.
    let (c, _, _) = exec(&[0xED, 0x52], |c, _| {
        c.set_hl(0x9999);
        c.set_de(0x1111);
        c.regs[F] = flags::C;
    });
    assert_eq!((c.hl(), c.regs[F]), (0x8887, 0x8A));
}

#[test]
fn inc_dec_16() {
    let (c, _, t) = exec(&[0x03], |c, _| {
        c.set_bc(0xFFFF);
        c.regs[F] = 0x00;
    });
    assert_eq!((c.bc(), c.regs[F], t), (0x0000, 0x00, 6));
    let (c, _, t) = exec(&[0x3B], |c, _| c.sp = 0x0000);
    assert_eq!((c.sp, t), (0xFFFF, 6));
    let (c, _, t) = exec(&[0xDD, 0x23], |c, _| c.ix = 0x3300);
    assert_eq!((c.ix, t), (0x3301, 10));
    let (c, _, t) = exec(&[0xFD, 0x2B], |c, _| c.iy = 0x7649);
    assert_eq!((c.iy, t), (0x7648, 10));
}

// ------------------------------------------------------------------ rotates and shifts

#[test]
fn accumulator_rotates() {
    // S, Z, P/V kept; H = N = 0; X/Y from the new A.
    assert_eq!(alu(&[0x07], 0x88, 0xC4, |_, _| {}), (0x11, 0xC5, 4));
    assert_eq!(alu(&[0x0F], 0x11, 0x00, |_, _| {}), (0x88, 0x09, 4));
    assert_eq!(alu(&[0x17], 0x76, flags::C, |_, _| {}), (0xED, 0x28, 4));
    assert_eq!(alu(&[0x1F], 0xE1, 0x00, |_, _| {}), (0x70, 0x21, 4));
}

#[test]
fn cb_rotates_shifts() {
    let (c, _, t) = exec(&[0xCB, 0x05], |c, _| c.regs[L] = 0x88);
    assert_eq!((c.regs[L], c.regs[F], t), (0x11, 0x05, 8));
    let (c, b, t) = exec(&[0xCB, 0x06], |c, b| {
        c.set_hl(0x2828);
        b.mem[0x2828] = 0x88;
    });
    assert_eq!((b.mem[0x2828], c.regs[F], t), (0x11, 0x05, 15));
    let (c, _, _) = exec(&[0xCB, 0x12], |c, _| c.regs[D] = 0x8F);
    assert_eq!((c.regs[D], c.regs[F]), (0x1E, 0x0D));
    let (c, _, _) = exec(&[0xCB, 0x1B], |c, _| {
        c.regs[E] = 0xDD;
        c.regs[F] = flags::C;
    });
    assert_eq!((c.regs[E], c.regs[F]), (0xEE, 0xAD));
    let (c, _, _) = exec(&[0xCB, 0x25], |c, _| c.regs[L] = 0xB1);
    assert_eq!((c.regs[L], c.regs[F]), (0x62, 0x21));
    let (c, _, _) = exec(&[0xCB, 0x38], |c, _| c.regs[B] = 0x8F);
    assert_eq!((c.regs[B], c.regs[F]), (0x47, 0x05));
    // SRA keeps bit 7; UM0080 example (IX+3) = B8h -> DCh, 23 T-states.
    let (c, b, t) = exec(&[0xDD, 0xCB, 0x03, 0x2E], |c, b| {
        c.ix = 0x1000;
        b.mem[0x1003] = 0xB8;
    });
    assert_eq!((b.mem[0x1003], c.regs[F], t), (0xDC, 0x88, 23));
}

#[test]
fn rld_rrd() {
    // UM0080 examples.
    let (c, b, t) = exec(&[0xED, 0x6F], |c, b| {
        c.set_hl(0x5000);
        c.regs[A] = 0x7A;
        b.mem[0x5000] = 0x31;
    });
    assert_eq!(
        (c.regs[A], b.mem[0x5000], c.regs[F], t, c.wz),
        (0x73, 0x1A, 0x20, 18, 0x5001)
    );
    let (c, b, t) = exec(&[0xED, 0x67], |c, b| {
        c.set_hl(0x5000);
        c.regs[A] = 0x84;
        b.mem[0x5000] = 0x20;
    });
    assert_eq!(
        (c.regs[A], b.mem[0x5000], c.regs[F], t),
        (0x80, 0x42, 0x80, 18)
    );
}

// ------------------------------------------------------------------ bit set, reset and test

#[test]
fn bit_test() {
    let (c, _, t) = exec(&[0xCB, 0x50], |c, _| c.regs[B] = 0x04);
    assert_eq!((c.regs[F], t), (0x10, 8));
    // Bit clear: Z and P/V; C kept.
    let (c, _, _) = exec(&[0xCB, 0x50], |c, _| {
        c.regs[B] = 0x00;
        c.regs[F] = flags::C;
    });
    assert_eq!(c.regs[F], 0x55);
    // BIT 7 set: S. X/Y from the register for BIT n,r (Young 4.1).
    let (c, _, _) = exec(&[0xCB, 0x7F], |c, _| c.regs[A] = 0x80);
    assert_eq!(c.regs[F], 0x90);
    let (c, _, _) = exec(&[0xCB, 0x5F], |c, _| c.regs[A] = 0x28);
    assert_eq!(c.regs[F], 0x38);
}

#[test]
fn bit_hl_uses_memptr() {
    // BIT n,(HL) takes X and Y from the high byte of MEMPTR (Young 4.1, "memptr").
    let (c, _, t) = exec(&[0xCB, 0x46], |c, b| {
        c.set_hl(0x8000);
        b.mem[0x8000] = 0x01;
        c.wz = 0x2800;
    });
    assert_eq!((c.regs[F], t), (0x38, 12));
    // MEMPTR set by a preceding LD A,(nn) (to nn+1 = 2801h).
    let (c, _, t) = exec_n(&[0x3A, 0x00, 0x28, 0xCB, 0x46], 2, |c, b| {
        c.set_hl(0x8000);
        b.mem[0x8000] = 0x00;
    });
    assert_eq!((c.regs[F], t), (0x7C, 25));
    // BIT n,(IX+d): X/Y from the high byte of IX+d.
    let (c, _, t) = exec(&[0xDD, 0xCB, 0x10, 0x4E], |c, _| c.ix = 0x27F8);
    assert_eq!((c.regs[F], c.wz, t), (0x7C, 0x2808, 20));
}

#[test]
fn set_res() {
    let (c, _, t) = exec(&[0xCB, 0xE0], |c, _| {
        c.regs[B] = 0x00;
        c.regs[F] = 0x5A;
    });
    assert_eq!((c.regs[B], c.regs[F], t), (0x10, 0x5A, 8));
    let (_, b, t) = exec(&[0xCB, 0xC6], |c, b| {
        c.set_hl(0x3000);
        b.mem[0x3000] = 0x80;
    });
    assert_eq!((b.mem[0x3000], t), (0x81, 15));
    let (_, b, t) = exec(&[0xFD, 0xCB, 0x03, 0xB6], |c, b| {
        c.iy = 0x4000;
        b.mem[0x4003] = 0xFF;
    });
    assert_eq!((b.mem[0x4003], t), (0xBF, 23));
    let (c, _, _) = exec(&[0xCB, 0x87], |c, _| c.regs[A] = 0xFF);
    assert_eq!(c.regs[A], 0xFE);
}

// ------------------------------------------------------------------ jumps

#[test]
fn jumps() {
    let (c, _, t) = exec(&[0xC3, 0x34, 0x12], |_, _| {});
    assert_eq!((c.pc, t, c.wz), (0x1234, 10, 0x1234));
    // JP cc takes 10 T-states whether or not it jumps.
    let (c, _, t) = exec(&[0xCA, 0x34, 0x12], |_, _| {});
    assert_eq!((c.pc, t, c.wz), (0x0003, 10, 0x1234));
    let (c, _, t) = exec(&[0xF2, 0x34, 0x12], |_, _| {});
    assert_eq!((c.pc, t), (0x1234, 10));
    let (c, _, t) = exec(&[0xEA, 0x34, 0x12], |c, _| c.regs[F] = flags::PV);
    assert_eq!((c.pc, t), (0x1234, 10));

    let (c, _, t) = exec(&[0x18, 0x03], |_, _| {});
    assert_eq!((c.pc, t, c.wz), (0x0005, 12, 0x0005));
    let (c, _, t) = exec(&[0x18, 0xFE], |_, _| {});
    assert_eq!((c.pc, t), (0x0000, 12));
    let (c, _, t) = exec(&[0x20, 0x10], |c, _| c.regs[F] = flags::Z);
    assert_eq!((c.pc, t), (0x0002, 7));
    let (c, _, t) = exec(&[0x38, 0x10], |c, _| c.regs[F] = flags::C);
    assert_eq!((c.pc, t), (0x0012, 12));

    // DJNZ: 13 T-states when it jumps, 8 when B reaches zero.
    let (c, _, t) = exec(&[0x10, 0xFE], |c, _| c.regs[B] = 2);
    assert_eq!((c.pc, c.regs[B], t), (0x0000, 1, 13));
    let (c, _, t) = exec(&[0x10, 0xFE], |c, _| c.regs[B] = 1);
    assert_eq!((c.pc, c.regs[B], t), (0x0002, 0, 8));
    // B=0 wraps to FFh and jumps.
    let (c, _, _) = exec(&[0x10, 0x05], |c, _| c.regs[B] = 0);
    assert_eq!((c.pc, c.regs[B]), (0x0007, 0xFF));

    let (c, _, t) = exec(&[0xE9], |c, _| c.set_hl(0x4800));
    assert_eq!((c.pc, t), (0x4800, 4));
    let (c, _, t) = exec(&[0xDD, 0xE9], |c, _| c.ix = 0x4801);
    assert_eq!((c.pc, t), (0x4801, 8));
    let (c, _, t) = exec(&[0xFD, 0xE9], |c, _| c.iy = 0x4802);
    assert_eq!((c.pc, t), (0x4802, 8));
}

// ------------------------------------------------------------------ calls and returns

#[test]
fn calls_returns() {
    let (c, b, t) = exec(&[0xCD, 0x35, 0x35], |_, _| {});
    assert_eq!(
        (c.pc, c.sp, b.mem[0xEFFF], b.mem[0xEFFE], t),
        (0x3535, 0xEFFE, 0x00, 0x03, 17)
    );
    // CALL cc not taken: 10 T-states, nothing pushed.
    let (c, _, t) = exec(&[0xCC, 0x35, 0x35], |_, _| {});
    assert_eq!((c.pc, c.sp, t), (0x0003, 0xF000, 10));
    let (c, _, t) = exec(&[0xDC, 0x35, 0x35], |c, _| c.regs[F] = flags::C);
    assert_eq!((c.pc, c.sp, t), (0x3535, 0xEFFE, 17));

    let stack = |c: &mut ti82_z80::Cpu, b: &mut TestBus| {
        c.sp = 0x2000;
        b.load(0x2000, &[0x18, 0xB5]);
    };
    let (c, _, t) = exec(&[0xC9], stack);
    assert_eq!((c.pc, c.sp, t), (0xB518, 0x2002, 10));
    let (c, _, t) = exec(&[0xC0], stack);
    assert_eq!((c.pc, c.sp, t), (0xB518, 0x2002, 11));
    let (c, _, t) = exec(&[0xC8], stack);
    assert_eq!((c.pc, c.sp, t), (0x0001, 0x2000, 5));
    let (c, _, t) = exec(&[0xF8], |c, b| {
        stack(c, b);
        c.regs[F] = flags::S;
    });
    assert_eq!((c.pc, t), (0xB518, 11));

    let (c, b, t) = exec(&[0xDF], |_, _| {});
    assert_eq!(
        (c.pc, b.mem[0xEFFE], b.mem[0xEFFF], t),
        (0x0018, 0x01, 0x00, 11)
    );

    // RETI and RETN (and its duplicates) copy IFF2 into IFF1: 14 T-states.
    for op in [0x45, 0x4D, 0x55, 0x5D, 0x65, 0x6D, 0x75, 0x7D] {
        let (c, _, t) = exec(&[0xED, op], |c, b| {
            stack(c, b);
            c.iff1 = false;
            c.iff2 = true;
        });
        assert_eq!(
            (c.pc, c.sp, c.iff1, t),
            (0xB518, 0x2002, true, 14),
            "ED {op:02X}"
        );
    }
}

// ------------------------------------------------------------------ input and output

#[test]
fn in_out_immediate() {
    // IN A,(n): port address A<<8 | n; flags untouched; 11 T-states.
    let (c, b, t) = exec(&[0xDB, 0x01], |c, b| {
        c.regs[A] = 0x23;
        c.regs[F] = 0xFF;
        b.ports.insert(0x2301, 0x7B);
    });
    assert_eq!((c.regs[A], c.regs[F], t, c.wz), (0x7B, 0xFF, 11, 0x2302));
    assert_eq!(
        b.data_accesses(),
        vec![(Kind::Read, 1, 0x01, 4), (Kind::In, 0x2301, 0x7B, 7)]
    );

    let (_, b, t) = exec(&[0xD3, 0x10], |c, _| c.regs[A] = 0x5E);
    assert_eq!(t, 11);
    assert_eq!(b.data_accesses()[1], (Kind::Out, 0x5E10, 0x5E, 7));
}

#[test]
fn in_out_c() {
    // IN r,(C): S Z P from the byte, H = N = 0, C kept; 12 T-states.
    let (c, b, t) = exec(&[0xED, 0x40], |c, b| {
        c.set_bc(0x1007);
        c.regs[F] = flags::C;
        b.ports.insert(0x1007, 0x80);
    });
    assert_eq!((c.regs[B], c.regs[F], t), (0x80, 0x81, 12));
    assert_eq!(b.data_accesses(), vec![(Kind::In, 0x1007, 0x80, 8)]);
    let (c, _, _) = exec(&[0xED, 0x78], |c, b| {
        c.set_bc(0x1007);
        c.regs[F] = 0xFF;
        b.ports.insert(0x1007, 0x00);
    });
    assert_eq!((c.regs[A], c.regs[F]), (0x00, 0x45));
    // IN F,(C) (ED 70): flags only, no register written (Young 3.3).
    let (c, _, t) = exec(&[0xED, 0x70], |c, b| {
        c.set_bc(0x1007);
        c.set_hl(0x1234);
        b.ports.insert(0x1007, 0x28);
    });
    assert_eq!((c.regs[F], c.hl(), c.regs[A], t), (0x2C, 0x1234, 0x00, 12));

    let (_, b, t) = exec(&[0xED, 0x51], |c, _| {
        c.set_bc(0x2040);
        c.regs[D] = 0x99;
    });
    assert_eq!(
        (b.data_accesses(), t),
        (vec![(Kind::Out, 0x2040, 0x99, 8)], 12)
    );
}

#[test]
fn block_io() {
    // INI: B is decremented after the port read (port uses the old B).
    let (c, b, t) = exec(&[0xED, 0xA2], |c, b| {
        c.set_hl(0x1000);
        c.set_bc(0x0310);
        b.ports.insert(0x0310, 0x7B);
    });
    assert_eq!(
        (b.mem[0x1000], c.hl(), c.bc(), c.regs[F], t),
        (0x7B, 0x1001, 0x0210, 0x04, 16)
    );
    // OUTI: B is decremented before the port write (UM0080).
    let (c, b, t) = exec(&[0xED, 0xA3], |c, b| {
        c.set_hl(0x1000);
        c.set_bc(0x0207);
        b.mem[0x1000] = 0x59;
    });
    assert_eq!((c.hl(), c.bc(), c.regs[F], t), (0x1001, 0x0107, 0x04, 16));
    assert_eq!(b.data_accesses()[1], (Kind::Out, 0x0107, 0x59, 12));
    // OTIR over two bytes: 21 + 16 T-states, Z at the end.
    let (c, b, t) = exec_n(&[0xED, 0xB3], 2, |c, b| {
        c.set_hl(0x1000);
        c.set_bc(0x0207);
        b.load(0x1000, &[0x01, 0x02]);
    });
    let outs: Vec<_> = b
        .data_accesses()
        .into_iter()
        .filter(|a| a.0 == Kind::Out)
        .collect();
    assert_eq!(
        outs,
        vec![(Kind::Out, 0x0107, 0x01, 12), (Kind::Out, 0x0007, 0x02, 33)]
    );
    assert_eq!((c.regs[B], c.pc, t), (0, 2, 37));
    assert_ne!(c.regs[F] & flags::Z, 0);
    // IND with the carry case: value + (C-1) > FFh sets H and C.
    let (c, _, _) = exec(&[0xED, 0xAA], |c, b| {
        c.set_hl(0x1000);
        c.set_bc(0x0181);
        b.ports.insert(0x0181, 0x90);
    });
    // B=0: Z; N from bit 7 of the byte; k = 90h + 80h = 110h: H, C; P = parity(0 ^ 0) even.
    assert_eq!((c.hl(), c.regs[B], c.regs[F]), (0x0FFF, 0, 0x57));
}

// ------------------------------------------------------------------ undocumented

#[test]
fn index_halves() {
    let (c, _, t) = exec(&[0xDD, 0x26, 0x12], |c, _| c.ix = 0xFFFF);
    assert_eq!((c.ix, t), (0x12FF, 11));
    let (c, _, t) = exec(&[0xDD, 0x85], |c, _| {
        c.ix = 0x0033;
        c.regs[A] = 0x11;
    });
    assert_eq!((c.regs[A], t), (0x44, 8));
    let (c, _, t) = exec(&[0xFD, 0x2C], |c, _| c.iy = 0x10FF);
    assert_eq!((c.iy, c.regs[F], t), (0x1000, 0x50, 8));
    let (c, _, _) = exec(&[0xDD, 0x6C], |c, _| c.ix = 0xAB00);
    assert_eq!(c.ix, 0xABAB);
    let (c, _, _) = exec(&[0xFD, 0x67], |c, _| {
        c.iy = 0x0000;
        c.regs[A] = 0x77;
        c.set_hl(0x0000);
    });
    assert_eq!((c.iy, c.hl()), (0x7700, 0x0000));
    let (c, _, _) = exec(&[0xDD, 0x7D], |c, _| c.ix = 0x1234);
    assert_eq!(c.regs[A], 0x34);
}

#[test]
fn sll() {
    // SLL shifts left and puts 1 into bit 0 (Young 3.2).
    let (c, _, t) = exec(&[0xCB, 0x30], |c, _| c.regs[B] = 0x80);
    assert_eq!((c.regs[B], c.regs[F], t), (0x01, 0x01, 8));
    let (c, _, _) = exec(&[0xCB, 0x37], |c, _| c.regs[A] = 0x45);
    assert_eq!((c.regs[A], c.regs[F]), (0x8B, 0x8C));
    let (_, b, t) = exec(&[0xCB, 0x36], |c, b| {
        c.set_hl(0x4000);
        b.mem[0x4000] = 0x00;
    });
    assert_eq!((b.mem[0x4000], t), (0x01, 15));
}

#[test]
fn index_cb_register_forms() {
    // DDCB d 00 = RLC (IX+d),B: the result goes to memory and to B (Young 3.5).
    let (c, b, t) = exec(&[0xDD, 0xCB, 0x05, 0x00], |c, b| {
        c.ix = 0x1000;
        b.mem[0x1005] = 0x81;
    });
    assert_eq!(
        (b.mem[0x1005], c.regs[B], c.regs[F] & flags::C, t),
        (0x03, 0x03, 1, 23)
    );
    // FDCB d C7 = SET 0,(IY+d),A.
    let (c, b, t) = exec(&[0xFD, 0xCB, 0xFD, 0xC7], |c, b| {
        c.iy = 0x2003;
        b.mem[0x2000] = 0x40;
    });
    assert_eq!((b.mem[0x2000], c.regs[A], t), (0x41, 0x41, 23));
    // RES 7,(IX+1),L.
    let (c, b, _) = exec(&[0xDD, 0xCB, 0x01, 0xBD], |c, b| {
        c.ix = 0x3000;
        c.set_hl(0x0000);
        b.mem[0x3001] = 0xFF;
    });
    assert_eq!((b.mem[0x3001], c.regs[L], c.regs[H]), (0x7F, 0x7F, 0));
    // SLL (IX+d),H writes the real H, not IXH.
    let (c, b, _) = exec(&[0xDD, 0xCB, 0x00, 0x34], |c, b| {
        c.ix = 0x3000;
        b.mem[0x3000] = 0x10;
    });
    assert_eq!((b.mem[0x3000], c.regs[H], c.ix), (0x21, 0x21, 0x3000));
    // BIT forms with a register field are plain BIT: no register written (20 T-states).
    let (c, _, t) = exec(&[0xDD, 0xCB, 0x00, 0x40], |c, b| {
        c.ix = 0x3000;
        c.regs[B] = 0x99;
        b.mem[0x3000] = 0x01;
    });
    assert_eq!((c.regs[B], c.regs[F] & flags::Z, t), (0x99, 0, 20));
}

#[test]
fn out_c_zero_and_ed_holes() {
    // ED 71 = OUT (C),0 on an NMOS Z80 (Young 3.3).
    let (_, b, t) = exec(&[0xED, 0x71], |c, _| {
        c.set_bc(0x1234);
        c.regs[F] = 0xFF;
    });
    assert_eq!(
        (b.data_accesses(), t),
        (vec![(Kind::Out, 0x1234, 0x00, 8)], 12)
    );
    // Undefined ED opcodes are 8 T-state no-ops: nothing but PC, R and T move.
    for op in [0x00u8, 0x3F, 0x77, 0x7F, 0x80, 0xA4, 0xBF, 0xC0, 0xFF] {
        let before = cpu();
        let (c, b, t) = exec(&[0xED, op], |_, _| {});
        assert_eq!(t, 8, "ED {op:02X}");
        assert_eq!(
            (c.pc, c.r(), c.regs, c.sp),
            (2, 2, before.regs, before.sp),
            "ED {op:02X}"
        );
        assert!(b.data_accesses().is_empty());
    }
    // IM duplicates (Young 3.3: ED 4E/6E act as IM 0 on NMOS parts).
    for (op, mode) in [
        (0x46, 0),
        (0x4E, 0),
        (0x66, 0),
        (0x6E, 0),
        (0x56, 1),
        (0x76, 1),
        (0x5E, 2),
        (0x7E, 2),
    ] {
        let (c, _, t) = exec(&[0xED, op], |c, _| c.im = 3);
        assert_eq!((c.im, t), (mode, 8), "ED {op:02X}");
    }
}

#[test]
fn prefix_without_hl_is_a_nop() {
    // DD before an instruction that does not use HL just costs 4 T-states and one R step.
    let (c, _, t) = exec(&[0xDD, 0x04], |c, _| c.regs[B] = 0x41);
    assert_eq!((c.regs[B], c.pc, c.r(), t), (0x42, 2, 2, 8));
    // DD ED: the ED instruction runs unchanged (HL, not IX).
    let (c, _, t) = exec(&[0xDD, 0xED, 0x6A], |c, _| {
        c.set_hl(0x0101);
        c.ix = 0x5000;
    });
    assert_eq!((c.hl(), c.ix, t), (0x0202, 0x5000, 19));
}

#[test]
fn halt_instruction() {
    let (c, _, t) = exec(&[0x76], |_, _| {});
    assert_eq!((c.halted(), c.pc, t), (true, 1, 4));
    // A halted CPU runs 4 T-state NOP cycles without moving PC.
    let (c, _, t) = exec_n(&[0x76, 0x3C], 4, |_, _| {});
    assert_eq!((c.halted(), c.pc, c.regs[A], c.r(), t), (true, 1, 0, 4, 16));
}

#[test]
fn di_ei_im() {
    let (c, _, t) = exec(&[0xFB], |_, _| {});
    assert_eq!((c.iff1, c.iff2, t), (true, true, 4));
    let (c, _, t) = exec(&[0xF3], |c, _| {
        c.iff1 = true;
        c.iff2 = true;
    });
    assert_eq!((c.iff1, c.iff2, t), (false, false, 4));
}
