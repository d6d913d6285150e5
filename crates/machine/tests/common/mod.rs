//! Shared helpers: load an assembled test program from `tests/roms/NAME.bin` and run it as the
//! ROM of a `Calc` with the test ports on.
#![allow(dead_code)]

use std::path::PathBuf;
use ti82_machine::{Calc, Config, RomFirmware, RomImage};

pub fn rom_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/roms")
        .join(format!("{name}.bin"))
}

pub fn program(name: &str) -> Vec<u8> {
    let p = rom_path(name);
    std::fs::read(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask test-roms`)", p.display()))
}

/// A 128 KiB image: the program at 0000h, marker A0h+n at offset 3FF0h of every page n.
pub fn image(name: &str) -> RomImage {
    let mut rom = RomImage::from_program(&program(name));
    for n in 0..8 {
        rom.bytes_mut()[n * 0x4000 + 0x3FF0] = 0xA0 + n as u8;
    }
    rom
}

pub fn test_config() -> Config {
    Config {
        test_ports: true,
        ..Config::default()
    }
}

pub fn calc_with(name: &str, config: Config) -> Calc {
    Calc::with_config(RomFirmware::new(image(name)), config)
}

pub fn calc(name: &str) -> Calc {
    calc_with(name, test_config())
}

/// Runs to the test exit (at most `secs` emulated seconds) and asserts it passed.
pub fn run_pass(c: &mut Calc, secs: u64) {
    let code = c.run_until_exit(secs * 6_000_000);
    assert_eq!(
        code,
        Some(0),
        "test program failed (None = never exited); output {:02X?}",
        c.test_output()
    );
}

pub fn fnv(data: &[u8]) -> u64 {
    ti82_machine::state::fnv1a(data)
}

/// Compares `text` with `tests/golden/NAME.txt`; `BLESS=1` rewrites the file.
pub fn golden(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.txt"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record it with BLESS=1 cargo test)",
            path.display()
        )
    });
    assert!(
        want == text,
        "screen differs from {}:\n{text}",
        path.display()
    );
}
