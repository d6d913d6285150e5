//! A tiny synthetic ROM for the front-end tests, assembled here from Z80 bytes (no TI ROM is
//! needed or used). Other `frontend_*` tests include this file with `#[path]`.
//!
//! The program: 8-bit mode, X (row) auto-increment, display on, contrast 56; then for each of
//! the 12 byte columns writes rows 0..63 with the value 64 − row (a binary ramp); writes "HI"
//! at the start of the home screen's text shadow (808Fh); then loops forever selecting keypad
//! group 1 and storing 'E' at 80A0h (text shadow row 1, column 1) while ENTER is down, '-'
//! when it is up.
#![allow(dead_code)]

use ti82::app::{Machine, Setup};
use ti82::cli::MachineArgs;
use ti82::config::{ConfigFile, Paths};
use ti82::session::FirmwareChoice;
use ti82_machine::{Calc, RomImage};

/// The program bytes.
pub fn program() -> Vec<u8> {
    let mut c: Vec<u8> = vec![0xF3]; // di
    for cmd in [0x01u8, 0x05, 0x03, 0xF8] {
        c.extend([0x3E, cmd, 0xD3, 0x10]); // ld a,cmd ; out (10h),a
    }
    c.extend([0x0E, 0x20]); // ld c,20h
    let col = c.len();
    c.extend([0x79, 0xD3, 0x10, 0x3E, 0x80, 0xD3, 0x10, 0x06, 0x40]); // column, row 0, b=64
    let row = c.len();
    c.extend([0x78, 0xD3, 0x11, 0x10]); // ld a,b ; out (11h),a ; djnz row
    c.push((row as i32 - (c.len() as i32 + 1)) as u8);
    c.extend([0x0C, 0x79, 0xFE, 0x2C, 0x20]); // inc c ; ld a,c ; cp 2Ch ; jr nz,col
    c.push((col as i32 - (c.len() as i32 + 1)) as u8);
    c.extend([0x21, 0x8F, 0x80, 0x36, b'H', 0x23, 0x36, b'I']); // "HI" at 808Fh
    let lp = c.len();
    c.extend([
        0x3E, 0xFD, 0xD3, 0x01, // select group 1
        0xDB, 0x01, 0xE6, 0x01, // in a,(01h) ; and 1
        0x3E, b'E', 0x28, 0x02, // ld a,'E' ; jr z,store
        0x3E, b'-', // ld a,'-'
        0x32, 0xA0, 0x80, // store: ld (80A0h),a
        0x18, // jr loop
    ]);
    c.push((lp as i32 - (c.len() as i32 + 1)) as u8);
    c
}

pub fn rom() -> RomImage {
    RomImage::from_program(&program())
}

pub fn calc() -> Calc {
    Calc::from_rom(rom())
}

/// The LCD text art the program draws.
pub fn expected_lcd() -> String {
    let mut s = String::new();
    for y in 0..64 {
        let v = 64 - y as u8;
        for x in 0..96 {
            s.push(if v & (0x80 >> (x % 8)) != 0 { '#' } else { '.' });
        }
        s.push('\n');
    }
    s
}

/// Writes the ROM to `dir/test.rom` and returns the path.
pub fn write_rom(dir: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join("test.rom");
    std::fs::write(&p, rom().bytes()).unwrap();
    p
}

/// A fresh, empty temporary folder for one test.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ti82-frontend-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A front-end setup keeping its files in `dir` (default config and key map) for `choice`.
pub fn setup(dir: &std::path::Path, choice: FirmwareChoice) -> Setup {
    Setup {
        paths: Paths::in_dir(dir),
        config: ConfigFile::default(),
        keymap: Default::default(),
        choice,
        notes: Vec::new(),
    }
}

/// A front-end machine around `calc` with the default arguments and no state file.
pub fn machine(calc: Calc) -> Machine {
    Machine::with_calc(
        calc,
        "test".into(),
        None,
        &MachineArgs::default(),
        Vec::new(),
    )
    .unwrap()
}
