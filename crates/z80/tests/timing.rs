//! T-state counts and the T-state at which each bus access of an instruction starts, from
//! the machine-cycle tables of the Zilog Z80 CPU User Manual (UM0080): an opcode fetch is 4
//! T-states, a memory read or write 3, an I/O cycle 4; internal cycles lengthen the M-cycle
//! they belong to. Also the refresh register R.

mod common;

use common::*;
use Kind::*;

/// Runs one instruction and returns (kind, t) of every bus access and the T-states taken.
fn timeline(
    code: &[u8],
    setup: impl FnOnce(&mut ti82_z80::Cpu, &mut TestBus),
) -> (Vec<(Kind, u64)>, u32) {
    let (_, b, t) = exec(code, setup);
    (b.timeline(), t)
}

#[test]
fn access_times_unprefixed() {
    // OUT (n),A: M1 (4), operand read (3), I/O write at T=7 (4 with its wait state).
    assert_eq!(
        timeline(&[0xD3, 0x10], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Out, 7)], 11)
    );
    assert_eq!(
        timeline(&[0xDB, 0x10], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (In, 7)], 11)
    );
    // LD (nn),A writes at T=10; LD A,(nn) reads at T=10.
    assert_eq!(
        timeline(&[0x32, 0x00, 0x80], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Read, 7), (Write, 10)], 13)
    );
    assert_eq!(
        timeline(&[0x3A, 0x00, 0x80], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Read, 7), (Read, 10)], 13)
    );
    assert_eq!(
        timeline(&[0x22, 0x00, 0x80], |_, _| {}),
        (
            vec![(Fetch, 0), (Read, 4), (Read, 7), (Write, 10), (Write, 13)],
            16
        )
    );
    // PUSH: the M1 is 5 T-states, then two writes.
    assert_eq!(
        timeline(&[0xC5], |_, _| {}),
        (vec![(Fetch, 0), (Write, 5), (Write, 8)], 11)
    );
    assert_eq!(
        timeline(&[0xC1], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Read, 7)], 10)
    );
    // CALL: the second operand read is 4 T-states (3+1), the pushes at 11 and 14.
    assert_eq!(
        timeline(&[0xCD, 0x00, 0x40], |_, _| {}),
        (
            vec![(Fetch, 0), (Read, 4), (Read, 7), (Write, 11), (Write, 14)],
            17
        )
    );
    assert_eq!(
        timeline(&[0xC4, 0x00, 0x40], |c, _| c.regs[F] = ti82_z80::flags::Z),
        (vec![(Fetch, 0), (Read, 4), (Read, 7)], 10)
    );
    assert_eq!(
        timeline(&[0xFF], |_, _| {}),
        (vec![(Fetch, 0), (Write, 5), (Write, 8)], 11)
    );
    assert_eq!(
        timeline(&[0xC9], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Read, 7)], 10)
    );
    assert_eq!(
        timeline(&[0xC0], |_, _| {}),
        (vec![(Fetch, 0), (Read, 5), (Read, 8)], 11)
    );
    // EX (SP),HL: reads at 4 and 7 (the second 4 T-states), writes at 11 and 14 (the second
    // 5 T-states).
    assert_eq!(
        timeline(&[0xE3], |_, _| {}),
        (
            vec![(Fetch, 0), (Read, 4), (Read, 7), (Write, 11), (Write, 14)],
            19
        )
    );
    // INC (HL): read 4 T-states, write at 8.
    assert_eq!(
        timeline(&[0x34], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4), (Write, 8)], 11)
    );
    assert_eq!(
        timeline(&[0x18, 0x00], |_, _| {}),
        (vec![(Fetch, 0), (Read, 4)], 12)
    );
    // DJNZ: the M1 is 5 T-states.
    assert_eq!(
        timeline(&[0x10, 0x00], |c, _| c.regs[B] = 2),
        (vec![(Fetch, 0), (Read, 5)], 13)
    );
}

#[test]
fn access_times_prefixed() {
    // LD A,(IX+d): displacement at 8, five internal T-states, read at 16.
    assert_eq!(
        timeline(&[0xDD, 0x7E, 0x01], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Read, 16)], 19)
    );
    // LD (IX+d),n: d at 8, n at 11 (5 T-states), write at 16.
    assert_eq!(
        timeline(&[0xDD, 0x36, 0x01, 0x02], |_, _| {}),
        (
            vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Read, 11), (Write, 16)],
            19
        )
    );
    assert_eq!(
        timeline(&[0xFD, 0x34, 0x01], |_, _| {}),
        (
            vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Read, 16), (Write, 20)],
            23
        )
    );
    // DDCB: the operation byte is a plain read at 11, not an M1.
    assert_eq!(
        timeline(&[0xDD, 0xCB, 0x01, 0xC6], |_, _| {}),
        (
            vec![
                (Fetch, 0),
                (Fetch, 4),
                (Read, 8),
                (Read, 11),
                (Read, 16),
                (Write, 20)
            ],
            23
        )
    );
    assert_eq!(
        timeline(&[0xFD, 0xCB, 0x01, 0x46], |_, _| {}),
        (
            vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Read, 11), (Read, 16)],
            20
        )
    );
    assert_eq!(
        timeline(&[0xCB, 0xC6], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Write, 12)], 15)
    );
    assert_eq!(
        timeline(&[0xCB, 0x46], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8)], 12)
    );
    assert_eq!(
        timeline(&[0xDD, 0xE3], |_, _| {}),
        (
            vec![
                (Fetch, 0),
                (Fetch, 4),
                (Read, 8),
                (Read, 11),
                (Write, 15),
                (Write, 18)
            ],
            23
        )
    );
    // ED: IN r,(C) / OUT (C),r at T=8.
    assert_eq!(
        timeline(&[0xED, 0x78], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (In, 8)], 12)
    );
    assert_eq!(
        timeline(&[0xED, 0x79], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (Out, 8)], 12)
    );
    assert_eq!(
        timeline(&[0xED, 0x43, 0x00, 0x80], |_, _| {}),
        (
            vec![
                (Fetch, 0),
                (Fetch, 4),
                (Read, 8),
                (Read, 11),
                (Write, 14),
                (Write, 17)
            ],
            20
        )
    );
    // LDIR (repeating): read at 8, write at 11 (5 T-states), then 5 more.
    assert_eq!(
        timeline(&[0xED, 0xB0], |c, _| c.set_bc(2)),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Write, 11)], 21)
    );
    assert_eq!(
        timeline(&[0xED, 0xA1], |c, _| c.set_bc(2)),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8)], 16)
    );
    // INI: the second M1 is 5 T-states, port read at 9, memory write at 13.
    assert_eq!(
        timeline(&[0xED, 0xA2], |c, _| c.set_bc(0x0200)),
        (vec![(Fetch, 0), (Fetch, 4), (In, 9), (Write, 13)], 16)
    );
    // OUTI: memory read at 9, port write at 12.
    assert_eq!(
        timeline(&[0xED, 0xA3], |c, _| c.set_bc(0x0200)),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 9), (Out, 12)], 16)
    );
    // RLD: read at 8 (7 T-states with the internal ones), write at 15.
    assert_eq!(
        timeline(&[0xED, 0x6F], |_, _| {}),
        (vec![(Fetch, 0), (Fetch, 4), (Read, 8), (Write, 15)], 18)
    );
}

#[test]
fn t_states_table() {
    // (bytes, T-states) with every register 0 and F = 0 (so NZ, NC, PO, P hold).
    let table: &[(&[u8], u32)] = &[
        (&[0x00], 4),
        (&[0x01, 0, 0], 10),
        (&[0x02], 7),
        (&[0x03], 6),
        (&[0x04], 4),
        (&[0x06, 0], 7),
        (&[0x07], 4),
        (&[0x08], 4),
        (&[0x09], 11),
        (&[0x10, 0], 13),
        (&[0x18, 0], 12),
        (&[0x20, 0], 12),
        (&[0x28, 0], 7),
        (&[0x22, 0, 0], 16),
        (&[0x27], 4),
        (&[0x2A, 0, 0], 16),
        (&[0x32, 0, 0], 13),
        (&[0x34], 11),
        (&[0x36, 0], 10),
        (&[0x37], 4),
        (&[0x3A, 0, 0], 13),
        (&[0x46], 7),
        (&[0x70], 7),
        (&[0x76], 4),
        (&[0x86], 7),
        (&[0xC0], 11),
        (&[0xC8], 5),
        (&[0xC1], 10),
        (&[0xC2, 0, 0], 10),
        (&[0xC3, 0, 0], 10),
        (&[0xC4, 0, 0], 17),
        (&[0xCC, 0, 0], 10),
        (&[0xC5], 11),
        (&[0xC6, 0], 7),
        (&[0xC7], 11),
        (&[0xC9], 10),
        (&[0xCD, 0, 0], 17),
        (&[0xD3, 0], 11),
        (&[0xD9], 4),
        (&[0xDB, 0], 11),
        (&[0xE3], 19),
        (&[0xE9], 4),
        (&[0xEB], 4),
        (&[0xF3], 4),
        (&[0xF9], 6),
        (&[0xFB], 4),
        (&[0xCB, 0x00], 8),
        (&[0xCB, 0x06], 15),
        (&[0xCB, 0x46], 12),
        (&[0xCB, 0x86], 15),
        (&[0xCB, 0xC6], 15),
        (&[0xDD, 0x09], 15),
        (&[0xDD, 0x21, 0, 0], 14),
        (&[0xDD, 0x22, 0, 0], 20),
        (&[0xDD, 0x23], 10),
        (&[0xDD, 0x24], 8),
        (&[0xDD, 0x26, 0], 11),
        (&[0xDD, 0x2A, 0, 0], 20),
        (&[0xDD, 0x34, 0], 23),
        (&[0xDD, 0x36, 0, 0], 19),
        (&[0xDD, 0x46, 0], 19),
        (&[0xDD, 0x70, 0], 19),
        (&[0xDD, 0x86, 0], 19),
        (&[0xDD, 0xE1], 14),
        (&[0xDD, 0xE3], 23),
        (&[0xDD, 0xE5], 15),
        (&[0xDD, 0xE9], 8),
        (&[0xDD, 0xF9], 10),
        (&[0xDD, 0xCB, 0, 0x06], 23),
        (&[0xDD, 0xCB, 0, 0x46], 20),
        (&[0xFD, 0xCB, 0, 0xC6], 23),
        (&[0xFD, 0xCB, 0, 0x80], 23),
        (&[0xED, 0x40], 12),
        (&[0xED, 0x41], 12),
        (&[0xED, 0x42], 15),
        (&[0xED, 0x43, 0, 0], 20),
        (&[0xED, 0x44], 8),
        (&[0xED, 0x45], 14),
        (&[0xED, 0x46], 8),
        (&[0xED, 0x47], 9),
        (&[0xED, 0x4A], 15),
        (&[0xED, 0x4B, 0, 0], 20),
        (&[0xED, 0x4D], 14),
        (&[0xED, 0x57], 9),
        (&[0xED, 0x5F], 9),
        (&[0xED, 0x67], 18),
        (&[0xED, 0x6F], 18),
        (&[0xED, 0xA0], 16),
        (&[0xED, 0xA1], 16),
        (&[0xED, 0xA2], 16),
        (&[0xED, 0xA3], 16),
        (&[0xED, 0xB0], 21),
        (&[0xED, 0xB1], 21),
        (&[0xED, 0xB8], 21),
        (&[0xED, 0x00], 8),
    ];
    for &(bytes, t) in table {
        let (_, _, got) = exec(bytes, |_, _| {});
        assert_eq!(got, t, "{bytes:02X?}");
    }
    // The repeat ends: 16 T-states (BC = 1 becomes 0; B = 1 becomes 0).
    for code in [
        [0xED, 0xB0],
        [0xED, 0xB1],
        [0xED, 0xB2],
        [0xED, 0xB3],
        [0xED, 0xBA],
    ] {
        // Block I/O counts in B, the others in BC.
        let bc = if code[1] & 2 != 0 { 0x0100 } else { 0x0001 };
        let (_, _, got) = exec(&code, |c, _| c.set_bc(bc));
        assert_eq!(got, 16, "{code:02X?}");
    }
}

#[test]
fn every_access_inside_its_instruction() {
    // Through every unprefixed and prefixed opcode: the accesses are in time order, start at
    // or after the instruction's first T-state and before its last.
    let mut prefixes: Vec<Vec<u8>> = vec![vec![]];
    for p in [0xCB, 0xED, 0xDD, 0xFD] {
        prefixes.push(vec![p]);
    }
    prefixes.push(vec![0xDD, 0xCB, 0x05]);
    prefixes.push(vec![0xFD, 0xCB, 0xFB]);
    for pre in &prefixes {
        for op in 0..=255u8 {
            let mut code = pre.clone();
            code.push(op);
            code.extend_from_slice(&[0x12, 0x34]);
            let (c, b, t) = exec(&code, |c, _| {
                c.set_t(1000);
                c.set_bc(0x0102);
            });
            if c.prefix() != 0 {
                continue;
            }
            let times: Vec<u64> = b.log.iter().map(|a| a.t).collect();
            assert!(
                times.windows(2).all(|w| w[0] < w[1]),
                "{code:02X?}: {times:?}"
            );
            assert!(
                times.iter().all(|&x| (1000..1000 + t as u64).contains(&x)),
                "{code:02X?}"
            );
            assert!((4..=23).contains(&t), "{code:02X?}: {t}");
            assert_eq!(c.t(), 1000 + t as u64);
        }
    }
}

#[test]
fn cycles_tile_every_instruction() {
    // With the internal T-states logged too, the machine cycles of every instruction follow
    // each other with no gap or overlap: fetch 4, read/write 3, I/O 4, internal n.
    let mut prefixes: Vec<Vec<u8>> = vec![vec![], vec![0xCB], vec![0xED], vec![0xDD], vec![0xFD]];
    prefixes.push(vec![0xDD, 0xCB, 0x05]);
    prefixes.push(vec![0xFD, 0xCB, 0xFB]);
    for pre in &prefixes {
        for op in 0..=255u8 {
            for taken in [false, true] {
                let mut code = pre.clone();
                code.push(op);
                code.extend_from_slice(&[0x12, 0x34]);
                let (c, b, t) = exec(&code, |c, b| {
                    b.log_internal = true;
                    c.set_t(500);
                    c.set_bc(0x0202);
                    // Conditions true or false, repeats repeating or not.
                    c.regs[F] = if taken { 0x00 } else { 0xFF };
                    c.regs[B] = if taken { 2 } else { 1 };
                });
                if c.prefix() != 0 {
                    continue;
                }
                let mut cursor = 500;
                for a in &b.log {
                    assert_eq!(a.t, cursor, "{code:02X?} {:?}", b.log);
                    cursor += match a.kind {
                        Fetch => 4,
                        Read | Write => 3,
                        In | Out => 4,
                        Internal => a.value as u64,
                        Ack => unreachable!(),
                    };
                }
                assert_eq!(cursor, 500 + t as u64, "{code:02X?} {:?}", b.log);
            }
        }
    }
}

// ------------------------------------------------------------------ the refresh register

#[test]
fn r_counts_m1_cycles() {
    let (c, _, _) = exec_n(&[0x00, 0x00, 0x00], 3, |_, _| {});
    assert_eq!(c.r(), 3);
    // Two M1 cycles for every prefixed instruction: CB, ED, DD, FD, DDCB (whose operation
    // byte is read with an ordinary read cycle).
    for code in [
        &[0xCB, 0x00][..],
        &[0xED, 0x44],
        &[0xED, 0x00],
        &[0xDD, 0x21, 0, 0],
        &[0xFD, 0x09],
        &[0xDD, 0xCB, 0x00, 0x06],
        &[0xFD, 0xCB, 0x00, 0x46],
        &[0xDD, 0x00],
    ] {
        let (c, _, _) = exec(code, |_, _| {});
        assert_eq!(c.r(), 2, "{code:02X?}");
    }
    // A repeating block instruction re-fetches both opcode bytes each time round.
    let (c, _, _) = exec_n(&[0xED, 0xB0], 3, |c, _| c.set_bc(3));
    assert_eq!(c.r(), 6);
    // Only the low 7 bits count; bit 7 stays as loaded.
    let (c, _, _) = exec(&[0x00], |c, _| c.set_r(0xFF));
    assert_eq!(c.r(), 0x80);
    let (c, _, _) = exec(&[0x00], |c, _| c.set_r(0x7F));
    assert_eq!(c.r(), 0x00);
    // LD R,A; NOP; LD A,R: R=FFh, then 80h, then +2 by LD A,R's own fetches.
    let (c, _, _) = exec_n(&[0xED, 0x4F, 0x00, 0xED, 0x5F], 3, |c, _| c.regs[A] = 0xFF);
    assert_eq!((c.regs[A], c.r()), (0x82, 0x82));
}

#[test]
fn refresh_per_m1() {
    // One refresh cycle per M1: the bus sees as many as R counts.
    let code = [0xDD, 0x21, 0x00, 0x00, 0xCB, 0x00, 0xED, 0xB0, 0x00];
    let (c, b, _) = exec_n(&code, 4, |c, _| c.set_bc(1));
    assert_eq!((b.refreshes, c.r()), (7, 7));
}
