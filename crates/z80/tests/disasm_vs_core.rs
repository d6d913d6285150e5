//! The disassembler's instruction lengths agree with how far the core moves PC, for every
//! opcode of every page (control transfers that leave the instruction aside).

mod common;

use common::*;
use ti82_z80::disasm::{disassemble, disassemble_bytes};

const ORG: u16 = 0x8000;

#[test]
fn lengths_match_the_core() {
    let mut pages: Vec<Vec<u8>> = vec![vec![], vec![0xCB], vec![0xED], vec![0xDD], vec![0xFD]];
    pages.push(vec![0xDD, 0xCB, 0x00]);
    pages.push(vec![0xFD, 0xCB, 0x00]);
    let mut compared = 0;
    for page in &pages {
        for op in 0..=255u8 {
            let mut code = page.clone();
            code.push(op);
            code.extend_from_slice(&[0x00, 0x00, 0x00]);
            let mut c = cpu();
            let mut b = TestBus::new();
            b.load(ORG, &code);
            c.pc = ORG;
            c.step(&mut b);
            if c.prefix() != 0 {
                // DD DD / FD DD ...: the core stops with a prefix pending.
                continue;
            }
            // Sum the lengths of the `nop*` prefixes the disassembler splits off and the
            // instruction after them: the core runs all of that in one step.
            let mut at = ORG;
            let mut len = 0u16;
            let mut text;
            loop {
                let ins = disassemble(|a| b_mem(&code, a), at);
                len += ins.len as u16;
                at = at.wrapping_add(ins.len as u16);
                text = ins.text;
                if !(text == "nop*" && ins.len == 1) {
                    break;
                }
            }
            let moved = c.pc.wrapping_sub(ORG);
            if (1..=6).contains(&moved) {
                assert_eq!(moved, len, "{code:02X?} '{text}'");
                compared += 1;
            } else {
                let control = ["jp ", "call ", "ret", "rst ", "jr ", "djnz "];
                assert!(
                    moved == 0 && is_repeat(&text) || control.iter().any(|m| text.starts_with(m)),
                    "{code:02X?} '{text}' moved PC by {moved:04X}"
                );
            }
        }
    }
    assert!(compared > 1500, "only {compared} compared");
}

fn b_mem(code: &[u8], a: u16) -> u8 {
    code.get(a.wrapping_sub(ORG) as usize).copied().unwrap_or(0)
}

fn is_repeat(text: &str) -> bool {
    [
        "ldir", "lddr", "cpir", "cpdr", "inir", "indr", "otir", "otdr",
    ]
    .contains(&text)
}

#[test]
fn texts_of_a_small_program() {
    // A routine as the TI-82 ROM might have it, disassembled in sequence.
    let code = [
        0xF3, // di
        0x31, 0x00, 0x90, // ld sp,$9000
        0xED, 0x56, // im 1
        0xDD, 0x21, 0x00, 0x80, // ld ix,$8000
        0xDD, 0x7E, 0xFF, // ld a,(ix-$01)
        0xFE, 0x0A, // cp $0A
        0x38, 0xF7, // jr c,$0008
        0xD3, 0x01, // out ($01),a
        0xFB, // ei
        0x76, // halt
        0xC9, // ret
    ];
    let expect = [
        "di",
        "ld sp,$9000",
        "im 1",
        "ld ix,$8000",
        "ld a,(ix-$01)",
        "cp $0A",
        "jr c,$0008",
        "out ($01),a",
        "ei",
        "halt",
        "ret",
    ];
    let mut at = 0usize;
    for want in expect {
        let ins = disassemble_bytes(&code[at..]);
        // disassemble_bytes works at address 0; use `disassemble` for the real address.
        let ins_here = disassemble(|a| code.get(a as usize).copied().unwrap_or(0), at as u16);
        assert_eq!(ins.len, ins_here.len);
        assert_eq!(ins_here.text, want);
        at += ins.len as usize;
    }
    assert_eq!(at, code.len());
}
