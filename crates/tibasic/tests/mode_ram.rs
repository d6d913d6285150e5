//! The MODE, FORMAT and TBLSET settings in system RAM where the TI-OS keeps them (the flag
//! bytes at IY = 8528h and `fmtDigits` at 8C9Ah; docs/calculator.md, "MODE settings in RAM"),
//! so a memory backup carries them. The expected bits are written from the TI-82 symbol
//! table of TilEm (`data/symbols/ti82.sym`: `flags` 8528h, `trigDeg` bit 2 of IY+00h, the
//! graph modes bits 4-7 of IY+02h, `grfDBFlags` IY+04h, `grfSplit` bit 0 of IY+14h,
//! `fmtDigits` 8C9Ah) and, where that file is silent, the TI-83's include file layout that
//! the TI-83 OS kept from the TI-82's (`grfDot`..`grfLabel` bits 0-6 of IY+04h, `fmtFlags`
//! IY+0Ah, `tblFlags` IY+13h) [U].

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::{backup, calc_with_sources, restore_backup, start_program};
use tibasic::shell::mode::cell;

const IY: usize = 0x0528; // 8528h in the 32 KB of RAM from 8000h
const FMT_DIGITS: usize = 0x0C9A;

fn flag(calc: &Calc, offset: usize, bit: u8) -> bool {
    calc.ram()[IY + offset] & (1 << bit) != 0
}

fn run(calc: &mut Calc, name: &str) {
    start_program(calc, name).unwrap();
    calc.run_for(300 * 6_000);
}

#[test]
fn mode_commands_set_the_documented_flag_bits() {
    let mut calc = calc_with_sources(&[
        ("DEG", "Degree"),
        ("RAD", "Radian"),
        (
            "MANY",
            "Fix 2\nSci\nParam\nDot\nSimul\nSplit\nGridOn\nAxesOff\nLabelOn\nPolarGC\nCoordOff",
        ),
        (
            "BACK",
            "Float\nEng\nPolar\nConnected\nSequential\nFullScreen\nGridOff\nAxesOn\nLabelOff\nRectGC\nCoordOn",
        ),
    ])
    .unwrap();
    calc.run_for(100 * 6_000);
    // A fresh calculator: Radian, Func, Float, Normal, Connected, Sequential, FullScreen,
    // axes on.
    assert!(!flag(&calc, 0x00, 2));
    assert_eq!(calc.ram()[IY + 0x02] & 0xF0, 0x10, "grfFuncM only");
    assert_eq!(calc.ram()[IY + 0x04] & 0x7F, 0x00);
    assert_eq!(calc.ram()[IY + 0x0A] & 0x03, 0x00);
    assert_eq!(calc.ram()[FMT_DIGITS], 0xFF, "Float");

    run(&mut calc, "DEG");
    assert!(flag(&calc, 0x00, 2), "trigDeg after Degree");
    run(&mut calc, "RAD");
    assert!(!flag(&calc, 0x00, 2), "trigDeg cleared by Radian");

    run(&mut calc, "MANY");
    assert_eq!(calc.ram()[FMT_DIGITS], 2, "Fix 2");
    assert_eq!(calc.ram()[IY + 0x0A] & 0x03, 0x01, "fmtExponent: Sci");
    assert_eq!(calc.ram()[IY + 0x02] & 0xF0, 0x40, "grfParamM only");
    // grfDot 0, grfSimul 1, grfGrid 2, grfPolar 3, grfNoCoord 4, grfNoAxis 5, grfLabel 6.
    assert_eq!(calc.ram()[IY + 0x04] & 0x7F, 0x7F);
    assert!(flag(&calc, 0x14, 0), "grfSplit");

    run(&mut calc, "BACK");
    assert_eq!(calc.ram()[FMT_DIGITS], 0xFF);
    assert_eq!(calc.ram()[IY + 0x0A] & 0x03, 0x02, "fmtEng: Eng");
    assert_eq!(calc.ram()[IY + 0x02] & 0xF0, 0x20, "grfPolarM only");
    assert_eq!(calc.ram()[IY + 0x04] & 0x7F, 0x00);
    assert!(!flag(&calc, 0x14, 0));
}

#[test]
fn other_bits_of_the_flag_bytes_are_left_alone() {
    let mut calc = calc_with_sources(&[("DEG", "Degree")]).unwrap();
    calc.run_for(100 * 6_000);
    // trigFlags also holds the OS's key-scan bits (kbdSCR 3, kbdKeyPress 4: ti82.sym).
    calc.ram_mut()[IY] |= 0x18;
    let b = backup(&mut calc).unwrap();
    restore_backup(&mut calc, &b).unwrap();
    run(&mut calc, "DEG");
    assert_eq!(calc.ram()[IY] & 0x1C, 0x1C);
}

/// A backup as a TI-82 with Degree and Fix 2 set would write it: the bits set by hand at the
/// documented places (not by the runtime's writer) in a fresh calculator's backup.
#[test]
fn a_backup_with_degree_and_fix_2_in_its_flags_restores_them() {
    let mut source = calc_with_sources(&[]).unwrap();
    source.run_for(100 * 6_000);
    let mut b = backup(&mut source).unwrap();
    // Section 1 starts at 8528h (spec 7.6): IY+0 is its first byte.
    b.section1[0] |= 1 << 2; // trigDeg
    b.section1[0x0C9A - 0x0528] = 2; // fmtDigits
    b.section1[0x04] |= 1; // grfDot
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    restore_backup(&mut calc, &b).unwrap();
    keys(
        &mut calc,
        &[Key::Clear, Key::Sin, Key::K9, Key::K0, Key::Enter],
    );
    keys(&mut calc, &[Key::K1, Key::Div, Key::K3, Key::Enter]);
    let g = glass(&calc);
    assert!(g.iter().any(|l| l.ends_with("1.00")), "{g:?}");
    assert!(g.iter().any(|l| l.ends_with(".33")), "{g:?}");
    // The MODE screen shows them.
    keys(&mut calc, &[Key::Mode]);
    let g = glass(&calc);
    assert_eq!(g[4], "Connected Dot");
    assert!(inverted(&calc, 2, cell(2, 1)), "Degree shown set: {g:?}");
    assert!(inverted(&calc, 4, cell(4, 1)), "Dot shown set: {g:?}");
}

/// Settings chosen on the MODE screen are in the backup's first section and come back in a
/// fresh calculator.
#[test]
fn the_settings_travel_with_a_backup_written_from_the_mode_screen() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    // MODE: ▼ ► ► ► ENTER (Fix 2), ▼ ► ENTER (Degree), ▼ ▼ ► ENTER (Dot), CLEAR.
    keys(
        &mut calc,
        &[
            Key::Mode,
            Key::Down,
            Key::Right,
            Key::Right,
            Key::Right,
            Key::Enter,
        ],
    );
    keys(&mut calc, &[Key::Down, Key::Right, Key::Enter]);
    keys(
        &mut calc,
        &[Key::Down, Key::Down, Key::Right, Key::Enter, Key::Clear],
    );
    let b = backup(&mut calc).unwrap();
    assert_eq!(b.section1[0] & 0x04, 0x04, "trigDeg");
    assert_eq!(b.section1[0x0C9A - 0x0528], 2, "fmtDigits");
    assert_eq!(b.section1[0x04] & 0x01, 0x01, "grfDot");
    let mut fresh = calc_with_sources(&[]).unwrap();
    fresh.run_for(100 * 6_000);
    restore_backup(&mut fresh, &b).unwrap();
    keys(
        &mut fresh,
        &[Key::Clear, Key::Sin, Key::K9, Key::K0, Key::Enter],
    );
    keys(&mut fresh, &[Key::K1, Key::Div, Key::K3, Key::Enter]);
    let g = glass(&fresh);
    assert!(g.iter().any(|l| l.ends_with("1.00")), "{g:?}");
    assert!(g.iter().any(|l| l.ends_with(".33")), "{g:?}");
}

/// A state saved before the settings were kept in RAM (format 8 and older: the flag bytes
/// zero) takes its settings from the state and writes them to RAM on its first run.
#[test]
fn an_older_state_writes_its_settings_to_ram() {
    let mut calc = calc_with_sources(&[("DEG", "Degree\nFix 3")]).unwrap();
    calc.run_for(100 * 6_000);
    run(&mut calc, "DEG");
    // RAM as an older runtime left it.
    calc.ram_mut()[IY] = 0;
    calc.ram_mut()[FMT_DIGITS] = 0;
    let state = calc.state_bytes();
    let mut back = calc_with_sources(&[]).unwrap();
    back.restore_bytes(std::path::Path::new("old.state"), &state)
        .unwrap();
    back.run_for(20 * 6_000);
    assert!(flag(&back, 0x00, 2), "trigDeg from the state's Degree");
    assert_eq!(back.ram()[FMT_DIGITS], 3);
}
