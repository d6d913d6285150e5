//! A memory backup (`--load FILE.82b`) into a calculator running a ROM goes over the link as
//! from a computer (`ti82::romload::send_backup`, spec 1.7.4): the keys into LINK RECEIVE,
//! the backup's header, `1` (Continue) on the `WARNING-Backup` screen, the three sections, the
//! keys that leave. Without a TI ROM the receiver is the built-in runtime's LINK RECEIVE on the
//! same wires; with `TI82_ROM` set, one more test sends a backup of a real TI-OS's memory into
//! a second real calculator.

#[path = "frontend_rom.rs"]
mod rom;

use ti82::app::Machine;
use ti82::cli::MachineArgs;
use ti82::romload::{self, TI82_KEYS};
use ti82::session::{self, FirmwareChoice};
use ti82_machine::{Calc, Key, RomImage};

fn glass(calc: &Calc) -> Vec<String> {
    let screen = calc.lcd();
    tibasic::glass::read(|x, y| screen.pixel(x, y))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn ms(n: u64) -> u64 {
    ti82::script::ms_to_t(n)
}

/// The backup of a built-in calculator holding two programs, with Degree and Fix 2 set.
fn source_backup() -> (tifiles::Backup, Vec<Vec<u8>>) {
    let mut src = tibasic::firmware::calc_with_sources(&[
        ("MANY", "Disp 2"),
        ("MORE", "Disp 3"),
        ("SET", "Degree\nFix 2"),
    ])
    .unwrap();
    src.run_for(ms(100));
    tibasic::firmware::start_program(&mut src, "SET").unwrap();
    src.run_for(ms(300));
    let names = tibasic::firmware::program_names(src.ram());
    (tibasic::firmware::backup(&mut src).unwrap(), names)
}

#[test]
fn a_backup_goes_into_link_receive_with_its_warning_confirmed() {
    let (b, names) = source_backup();
    let mut calc = tibasic::firmware::calc_with_sources(&[("OLD", "Disp 1")]).unwrap();
    calc.run_for(ms(300));
    let start = calc.now();
    romload::send_backup(&mut calc, &b, &TI82_KEYS).unwrap_or_else(|e| panic!("{e:#}"));
    // The memory is the backup's: OLD is gone, the three programs are there, byte for byte.
    assert_eq!(tibasic::firmware::program_names(calc.ram()), names);
    for n in ["MANY", "MORE"] {
        let name = tifiles::var::VarName::program(n).unwrap();
        let got = tifiles::vat::read(calc.ram(), tifiles::var::VarType::Program, &name)
            .unwrap()
            .expect("program received");
        assert_eq!(got.name, name);
    }
    // Back at the home screen, in the backup's modes: sin 90 in degrees, Fix 2.
    assert!(
        glass(&calc).iter().all(|l| matches!(l.trim(), "" | "█")),
        "{:?}",
        glass(&calc)
    );
    for k in [Key::Sin, Key::K9, Key::K0, Key::Enter] {
        tibasic::firmware::tap(&mut calc, k);
    }
    assert!(
        glass(&calc).iter().any(|l| l.ends_with("1.00")),
        "{:?}",
        glass(&calc)
    );
    // 1.8 KB at the link's bit rate plus the keys: a few emulated seconds.
    let took = calc.now() - start;
    assert!(took < ms(10_000), "{} ms", took / ms(1));
}

#[test]
fn a_calculator_answered_quit_keeps_its_memory_and_the_loader_says_so() {
    let (b, _) = source_backup();
    let mut calc = tibasic::firmware::calc_with_sources(&[("OLD", "Disp 1")]).unwrap();
    calc.run_for(ms(300));
    let before = calc.ram().to_vec();
    // 2:Quit on the warning: the calculator refuses the backup (EXIT, spec 1.7.1).
    let e = romload::send_backup_answering(&mut calc, &b, &TI82_KEYS, "2").unwrap_err();
    let msg = format!("{e:#}");
    assert!(
        msg.contains("the calculator did not take the backup on the link: the peer refused"),
        "{msg}"
    );
    assert_eq!(
        tibasic::firmware::program_names(calc.ram()),
        [b"OLD".to_vec()]
    );
    assert_eq!(
        tifiles::vat::entries(calc.ram()).unwrap(),
        tifiles::vat::entries(&before).unwrap()
    );
}

#[test]
fn the_front_end_sends_a_loaded_backup_to_a_rom_calculator() {
    let dir = rom::temp_dir("backup-rom");
    let (b, _) = source_backup();
    let file = dir.join("mem.82b");
    tifiles::TiFile::backup("", b).write(&file).unwrap();
    let args = MachineArgs {
        load: vec![file.clone()],
        ..MachineArgs::default()
    };
    // An image that is not a TI-OS cannot be driven to its LINK RECEIVE: refused by name.
    let plain = dir.join("proto.rom");
    let proto = include_bytes!("../crates/machine/tests/roms/linkproto.bin");
    std::fs::write(&plain, RomImage::from_program(proto).bytes()).unwrap();
    let setup = rom::setup(&dir, FirmwareChoice::Rom(plain));
    let e = format!("{:#}", Machine::start(&setup, &args, false).err().unwrap());
    assert!(
        e.contains("mem.82b") && e.contains("no TI-OS version text"),
        "{e}"
    );
    // The Z80 link peer with the version text takes only 11-byte variable headers: the
    // backup's 9-byte header goes out on the link and is not taken; the error names the file.
    let mut img = RomImage::from_program(proto);
    img.bytes_mut()[0x4000..0x4000 + 15].copy_from_slice(b"Self Test?19.0\0");
    let path = dir.join("proto19.rom");
    std::fs::write(&path, img.bytes()).unwrap();
    let setup = rom::setup(&dir, FirmwareChoice::Rom(path));
    let e = format!("{:#}", Machine::start(&setup, &args, false).err().unwrap());
    assert!(
        e.contains("mem.82b: sending the backup to the calculator")
            && e.contains("did not take the backup"),
        "{e}"
    );
    // The built-in runtime restores it directly (no link): the same memory.
    let setup = rom::setup(&dir, FirmwareChoice::Builtin);
    let m = Machine::start(&setup, &args, false).unwrap();
    assert_eq!(
        tibasic::firmware::program_names(m.calc.ram()),
        [b"MANY".to_vec(), b"MORE".to_vec(), b"SET".to_vec()]
    );
}

/// A real TI-OS's memory as a backup: a ROM calculator given MANBOARD and MANCALA.
fn real_os_backup(choice: &FirmwareChoice) -> tifiles::Backup {
    let made = session::make_calc(choice).unwrap();
    let mut a = made.calc;
    romload::send_programs(&mut a, made.os.as_deref(), choice, false)
        .unwrap_or_else(|e| panic!("{e:#}"));
    tifiles::vat::backup_from_ram(a.ram()).unwrap()
}

/// With a real TI-82 ROM (`TI82_ROM`): calculator A boots and receives MANBOARD and MANCALA;
/// its memory, as a backup, goes into calculator B through LINK RECEIVE and WARNING-Backup;
/// B's VAT then holds both programs byte for byte. Without it, says so and passes.
#[test]
fn real_rom_receives_a_backup() {
    let Some(path) = std::env::var_os("TI82_ROM") else {
        eprintln!("skipped: TI82_ROM is not set (point it at a TI-82 ROM image to run this test)");
        return;
    };
    let choice = FirmwareChoice::Rom(path.into());
    let b = real_os_backup(&choice);
    let mut calc = session::make_calc(&choice).unwrap().calc;
    romload::play_keys(&mut calc, TI82_KEYS.boot).unwrap();
    romload::send_backup(&mut calc, &b, &TI82_KEYS).unwrap_or_else(|e| panic!("{e:#}"));
    for v in &romload::programs().unwrap() {
        let got = tifiles::vat::read(calc.ram(), v.var_type(), &v.name).unwrap();
        assert_eq!(got.as_ref(), Some(v), "{}", v.display_name());
    }
}

/// A backup of a real TI-OS's memory (with `TI82_ROM` set: the ROM calculator given MANBOARD
/// and MANCALA, its memory taken as a backup as LINK SEND would send it) restores into the
/// built-in runtime, and its programs run: MANCALA starts and waits in its menu without an
/// error. Without a ROM, says so and passes.
#[test]
fn a_real_os_backup_restores_into_the_builtin_runtime_and_runs() {
    let Some(path) = std::env::var_os("TI82_ROM") else {
        eprintln!("skipped: TI82_ROM is not set (point it at a TI-82 ROM image to run this test)");
        return;
    };
    let b = real_os_backup(&FirmwareChoice::Rom(path.into()));
    let mut calc = tibasic::firmware::calc_with_sources(&[]).unwrap();
    calc.run_for(ms(100));
    tibasic::firmware::restore_backup(&mut calc, &b).unwrap();
    for v in &romload::programs().unwrap() {
        let got = tifiles::vat::read(calc.ram(), v.var_type(), &v.name).unwrap();
        assert_eq!(got.as_ref(), Some(v), "{}", v.display_name());
    }
    tibasic::firmware::start_program(&mut calc, "MANCALA").unwrap();
    calc.run_for(ms(5_000));
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{:?}", fw.last_error());
    assert!(fw.program_active(), "MANCALA waits in its menu");
}

/// A user's own TI-82 backup file (`TI82_BACKUP`, never shipped with the project) restores
/// into the built-in runtime, and each of its programs starts and runs for two emulated
/// seconds without an error that would mean the runtime lacks something (ERR:SYNTAX from a
/// token it cannot parse, ERR:UNSUPPORTED); the programs' own errors (a variable they expect
/// undefined, say) are theirs. Without it, says so and passes.
#[test]
fn a_users_backup_file_restores_and_its_programs_run() {
    let Some(path) = std::env::var_os("TI82_BACKUP") else {
        eprintln!(
            "skipped: TI82_BACKUP is not set (point it at a TI-82 .82b backup to run this test)"
        );
        return;
    };
    let path = std::path::PathBuf::from(path);
    let file = tifiles::TiFile::read(&path, Default::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tifiles::Content::Backup(b) = file.content else {
        panic!("{}: not a backup", path.display());
    };
    let fresh = || {
        let mut calc = tibasic::firmware::calc_with_sources(&[]).unwrap();
        calc.run_for(ms(100));
        tibasic::firmware::restore_backup(&mut calc, &b).unwrap();
        calc
    };
    let names = tibasic::firmware::program_names(fresh().ram());
    eprintln!("{}: {} programs", path.display(), names.len());
    for name in names {
        let name = String::from_utf8_lossy(&name).into_owned();
        let mut calc = fresh();
        tibasic::firmware::start_program(&mut calc, &name).unwrap();
        calc.run_for(ms(2_000));
        let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
        if let Some(e) = fw.last_error() {
            let kind = e.kind.to_string();
            assert!(
                !kind.contains("SYNTAX") && !kind.contains("UNSUPPORTED"),
                "{name}: {kind}"
            );
        }
    }
}
