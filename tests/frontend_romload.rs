//! The `--rom` loader (`ti82::romload`): MANBOARD and MANCALA go into a ROM calculator over
//! the link, as from a computer. Without a TI ROM the "ROM" is the machine crate's Z80 link
//! protocol program (`crates/machine/tests/roms/linkproto.asm`), which ignores the keys, is
//! always in LINK RECEIVE and keeps what it receives in RAM at known addresses. With
//! `TI82_ROM` set, one more test boots the real TI-OS and checks its VAT.

#[path = "frontend_rom.rs"]
mod rom;

use ti82::app::Machine;
use ti82::cli::MachineArgs;
use ti82::romload::{self, Loaded, HINT, TI82_KEYS};
use ti82::script;
use ti82::session::{self, FirmwareChoice};
use ti82_machine::{Calc, RomImage};
use tifiles::Variable;

const PROTO: &[u8] = include_bytes!("../crates/machine/tests/roms/linkproto.bin");

/// RAM offsets (address − 8000h) of what `linkproto.asm` reports.
const NVARS: usize = 0x0800;
const ERRS: usize = 0x0801;
const DONE: usize = 0x0807;
const TAB: usize = 0x0900;

/// The variables the Z80 program holds: (11-byte header, data).
fn held(calc: &Calc) -> Vec<(Vec<u8>, Vec<u8>)> {
    let ram = calc.ram();
    (0..usize::from(ram[NVARS]))
        .map(|i| {
            let e = &ram[TAB + 16 * i..][..16];
            let size = usize::from(u16::from_le_bytes([e[0], e[1]]));
            let addr = usize::from(u16::from_le_bytes([e[11], e[12]]));
            (e[..11].to_vec(), ram[addr - 0x8000..][..size].to_vec())
        })
        .collect()
}

/// The VAR header (spec 1.5) and data of a variable.
fn expected(v: &Variable) -> (Vec<u8>, Vec<u8>) {
    let data = v.data.to_bytes();
    let mut h = (data.len() as u16).to_le_bytes().to_vec();
    h.push(v.var_type().to_byte());
    h.extend(v.name.bytes());
    h.resize(11, 0);
    (h, data)
}

fn names(vars: &[Variable]) -> Vec<String> {
    vars.iter().map(|v| v.display_name()).collect()
}

#[test]
fn loader_sends_manboard_and_mancala_to_a_z80_receiver() {
    let mut calc = Calc::from_rom(RomImage::from_program(PROTO));
    let vars = romload::programs().unwrap();
    assert_eq!(names(&vars), ["MANBOARD", "MANCALA"]);
    assert!(romload::missing(&calc, &vars));
    let r = romload::load_programs(&mut calc, &vars, &TI82_KEYS).unwrap();
    assert_eq!(r, Loaded::Sent(HINT.to_string()));
    assert!(HINT.contains("press PRGM to run MANCALA"));
    // Byte-exact: the headers and the tokens of both programs, in order, one transfer.
    let got = held(&calc);
    assert_eq!(got, vars.iter().map(expected).collect::<Vec<_>>());
    assert!(got[1].1.len() > 1000, "MANCALA is the big one");
    let ram = calc.ram();
    assert_eq!((ram[DONE], ram[ERRS]), (1, 0));
}

#[test]
fn loader_skips_programs_already_in_the_vat() {
    // A calculator whose RAM (say, restored from a saved state) holds both programs.
    let mut calc = Calc::from_rom(RomImage::from_program(PROTO));
    let vars = romload::programs().unwrap();
    tifiles::vat::init_empty(calc.ram_mut()).unwrap();
    tibasic::firmware::install(calc.ram_mut(), &vars).unwrap();
    assert!(!romload::missing(&calc, &vars));
    let r = romload::load_programs(&mut calc, &vars, &TI82_KEYS).unwrap();
    assert_eq!(r, Loaded::AlreadyThere);
    assert_eq!(calc.now(), 0, "nothing ran");
    // One of the two missing is enough to send.
    let mut calc = Calc::from_rom(RomImage::from_program(PROTO));
    tifiles::vat::init_empty(calc.ram_mut()).unwrap();
    tibasic::firmware::install(calc.ram_mut(), &vars[..1]).unwrap();
    assert!(romload::missing(&calc, &vars));
}

#[test]
fn loader_names_a_calculator_that_does_not_answer() {
    // The front-end test ROM draws a ramp and never touches the link port.
    let mut calc = rom::calc();
    let vars = romload::programs().unwrap();
    let e = romload::load_programs(&mut calc, &vars, &TI82_KEYS).unwrap_err();
    let msg = format!("{e:#}");
    assert!(
        msg.contains("the calculator did not answer on the link"),
        "{msg}"
    );
    // Both lines are released afterwards.
    use ti82_machine::LinkEndpoint;
    assert_eq!(calc.link().lines(), 3);
}

/// Messages that hold only the image's own note (no version text: the generation comes from
/// port 04h), as every synthetic ROM here has it.
fn only_the_image_note(messages: &[String]) {
    let note = "no OS version text after";
    assert!(messages.iter().all(|s| s.contains(note)), "{messages:?}");
}

#[test]
fn machine_start_sends_only_to_a_ti_os_image() {
    // An image without the OS's version text is left alone, with a note; --no-send says only
    // what the image itself lacks.
    let dir = rom::temp_dir("romload");
    let path = dir.join("proto.rom");
    std::fs::write(&path, RomImage::from_program(PROTO).bytes()).unwrap();
    let setup = rom::setup(&dir, FirmwareChoice::Rom(path));
    let m = Machine::start(&setup, &MachineArgs::default(), false).unwrap();
    // Not a TI-OS: not turned on, nothing sent.
    assert_eq!(m.calc.now(), 0);
    assert!(
        m.messages
            .iter()
            .any(|s| s.contains("no TI-OS version text")),
        "{:?}",
        m.messages
    );
    let quiet = MachineArgs {
        no_send: true,
        ..MachineArgs::default()
    };
    let m = Machine::start(&setup, &quiet, false).unwrap();
    only_the_image_note(&m.messages);
    // The built-in runtime has the programs in its VAT already: nothing to send, no note.
    let mut calc = Calc::from_rom(RomImage::from_program(PROTO));
    let msg = romload::send_programs(&mut calc, None, &FirmwareChoice::Builtin, false).unwrap();
    assert_eq!(msg, None);
}

/// The Z80 protocol program with the OS's version text in an unused page, so the front end
/// takes it for a TI-OS image (classic hardware).
fn proto_with_version(dir: &std::path::Path) -> std::path::PathBuf {
    let mut img = RomImage::from_program(PROTO);
    img.bytes_mut()[0x4000..0x4000 + 15].copy_from_slice(b"Self Test?19.0\0");
    let path = dir.join("proto19.rom");
    std::fs::write(&path, img.bytes()).unwrap();
    path
}

#[test]
fn machine_start_sends_the_programs_to_a_rom_calculator() {
    let dir = rom::temp_dir("romload-start");
    let path = proto_with_version(&dir);
    let setup = rom::setup(&dir, FirmwareChoice::Rom(path.clone()));
    let m = Machine::start(&setup, &MachineArgs::default(), false).unwrap();
    assert!(m.messages.iter().any(|s| s == HINT), "{:?}", m.messages);
    let vars = romload::programs().unwrap();
    assert_eq!(held(&m.calc), vars.iter().map(expected).collect::<Vec<_>>());

    // The binary: a headless run says what it did; --no-send does not send.
    for (extra, sent) in [(None, true), (Some("--no-send"), false)] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ti82"))
            .env("TI82_HOME", &dir)
            .args(["run", "--headless", "--wait-ms", "0", "--rom"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(err.contains(HINT), sent, "{err}");
    }
}

#[test]
fn a_fresh_rom_calculator_is_turned_on_even_with_no_send() {
    // crates/machine/tests/roms/onkey.asm: turns the display on, waits for the ON interrupt
    // and for ON's release, then powers off (display off, HALT).
    let dir = rom::temp_dir("romload-on");
    let path = dir.join("onkey.rom");
    let onkey = include_bytes!("../crates/machine/tests/roms/onkey.bin");
    let mut img = RomImage::from_program(onkey);
    // A TI-OS image to the front end (the version text in an unused page), so without
    // --no-send the loader would send the programs.
    img.bytes_mut()[0x4000..0x4000 + 15].copy_from_slice(b"Self Test?19.0\0");
    std::fs::write(&path, img.bytes()).unwrap();
    let setup = rom::setup(&dir, FirmwareChoice::Rom(path));
    let quiet = MachineArgs {
        no_send: true,
        ..MachineArgs::default()
    };
    let mut untouched = Calc::from_rom(img.clone());
    untouched.run_for(script::ms_to_t(2_500));
    assert!(
        untouched.hardware().lcd.display_on(),
        "no ON press: still on"
    );
    let m = Machine::start(&setup, &quiet, false).unwrap();
    // HALTED 2000ms HOLD ON WAIT 500 RELEASE ON READY 2000ms: the program halts at once
    // (found at the first 10 ms look), ON is held 500 ms, and the program powers off, which is
    // not waiting for a key, so READY runs to its bound (to the end of an instruction).
    let t = m.calc.now();
    assert!(
        (script::ms_to_t(2_510)..script::ms_to_t(2_511)).contains(&t),
        "{t}"
    );
    assert!(
        !m.calc.hardware().lcd.display_on(),
        "ON pressed and released: the program powered off"
    );
    // Powered down (HALT, interrupts on, power bit clear) is not waiting for a key.
    assert!(m.calc.hardware().powered_down());
    assert!(!ti82::script::Until::KeyWait.holds(&m.calc));
    only_the_image_note(&m.messages);
    // A restored calculator is not turned on again.
    let persist = Machine::start(&setup, &quiet, true).unwrap();
    let t = persist.calc.now();
    persist.finish().unwrap();
    let again = Machine::start(&setup, &quiet, true).unwrap();
    assert_eq!(again.calc.now(), t);
}

/// The boot keys wait on the calculator, not on the clock: a ROM that rests in HALT with its
/// timer interrupt on (`idle.asm`) gets ON at the first look (10 ms) and is ready as soon as
/// ON is released.
#[test]
fn the_boot_keys_follow_the_calculator_not_the_clock() {
    let idle = RomImage::from_program(include_bytes!("../crates/machine/tests/roms/idle.bin"));
    let mut calc = Calc::from_rom(idle);
    romload::play_keys(&mut calc, TI82_KEYS.boot).unwrap();
    let t = calc.now();
    // 10 ms to the first look, ON held 500 ms, the tap's release, READY at its first look.
    assert!(
        (script::ms_to_t(510)..script::ms_to_t(530)).contains(&t),
        "{} ms",
        t / script::ms_to_t(1)
    );
}

/// The loader's keys and transfer into the built-in runtime, whose LINK menu follows the
/// spec's key sequence (1.7.1): MANBOARD and MANCALA arrive byte-exact and the calculator
/// ends at its home screen.
#[test]
fn the_loader_keys_work_on_the_built_in_link_menu() {
    let vars = romload::programs().unwrap();
    for fresh in [true, false] {
        let mut calc = tibasic::firmware::calc_with_sources(&[]).unwrap();
        if !fresh {
            calc.run_for(script::ms_to_t(300));
        }
        let start = calc.now();
        let r = romload::load_programs(&mut calc, &vars, &TI82_KEYS).unwrap();
        assert_eq!(r, Loaded::Sent(HINT.to_string()));
        for v in &vars {
            let got = tifiles::vat::read(calc.ram(), v.var_type(), &v.name).unwrap();
            assert_eq!(got.as_ref(), Some(v), "{}", v.display_name());
        }
        let screen = calc.lcd();
        let glass = tibasic::glass::read(|x, y| screen.pixel(x, y));
        // (The home screen's entry cursor may be in the first cell, in either half of its
        // blink.)
        assert!(
            glass.iter().all(|l| matches!(l.trim(), "" | "█")),
            "{glass:?}"
        );
        // The transfer (2.2 KB at the TI's bit rate) dominates; no fixed waits add to it
        // (docs/frontend.md: "under 3 emulated seconds").
        let ms = (calc.now() - start) / script::ms_to_t(1);
        assert!(ms < 3_000, "{ms} ms");
        eprintln!("loaded in {ms} emulated ms (fresh: {fresh})");
    }
}

/// With a real TI-82 ROM (`TI82_ROM`): boot, LINK RECEIVE, send, leave; the VAT then holds
/// both programs. Without it, says so and passes.
#[test]
fn real_rom_receives_manboard_and_mancala() {
    let Some(path) = std::env::var_os("TI82_ROM") else {
        eprintln!("skipped: TI82_ROM is not set (point it at a TI-82 ROM image to run this test)");
        return;
    };
    let choice = FirmwareChoice::Rom(path.into());
    let made = session::make_calc(&choice).unwrap();
    let mut calc = made.calc;
    let msg = romload::send_programs(&mut calc, made.os.as_deref(), &choice, false)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(msg.as_deref(), Some(HINT));
    let vars = romload::programs().unwrap();
    assert!(!romload::missing(&calc, &vars));
    // The programs in the VAT are the ones sent, byte for byte.
    for v in &vars {
        let got = tifiles::vat::read(calc.ram(), v.var_type(), &v.name).unwrap();
        assert_eq!(got.as_ref(), Some(v), "{}", v.display_name());
    }
}

/// `ti82 conformance --rom`: an image that is not a TI-OS is refused before any game, naming
/// the file; one with the version text gets the programs over the link, and the harness then
/// finds no MANBOARD in a VAT (the Z80 stand-in keeps what it receives elsewhere): a clear
/// error, never a hang.
#[test]
fn conformance_on_a_rom_names_what_is_wrong() {
    let dir = rom::temp_dir("romload-conformance");
    let plain = dir.join("proto.rom");
    std::fs::write(&plain, RomImage::from_program(PROTO).bytes()).unwrap();
    let run = |path: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ti82"))
            .env("TI82_HOME", &dir)
            .args(["conformance", "--games", "1", "--rom"])
            .arg(path)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&plain);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("proto.rom"), "{err}");
    assert!(err.contains("no TI-OS version text"), "{err}");

    let versioned = proto_with_version(&dir);
    let (code, err) = run(&versioned);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("program MANBOARD is not in the calculator's memory"),
        "{err}"
    );
}

/// With a real TI-82 ROM (`TI82_ROM`): HUMAN VS HUMAN and CALC VS CALC conformance games on
/// the real TI-OS. Without it, says so and passes.
#[test]
fn real_rom_conformance() {
    let Some(path) = std::env::var_os("TI82_ROM") else {
        eprintln!("skipped: TI82_ROM is not set (point it at a TI-82 ROM image to run this test)");
        return;
    };
    let dir = rom::temp_dir("romload-real-conformance");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args([
            "conformance",
            "--games",
            "3",
            "--seed",
            "1",
            "--cvc",
            "1",
            "--rom",
        ])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("4 games,"), "{text}");
    assert!(text.contains(" 0 divergences"), "{text}");
}
