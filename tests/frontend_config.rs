//! The config file, the remembered ROM, and saved states (restore, corrupt set-aside).

#[path = "frontend_rom.rs"]
mod rom;

use std::path::Path;

use ti82::app::{Machine, Setup};
use ti82::cli::MachineArgs;
use ti82::config::{ConfigFile, Paths};
use ti82::keymap::Binding;
use ti82::script::Button;
use ti82::session::{restore_state, save_state, FirmwareChoice, Restored};
use ti82_machine::Key;

#[test]
fn config_parses_and_overrides_keys() {
    let text = r#"
rom = "my.rom"
scale = 3
speed = "2"
[keys]
F12 = "none"
Home = "ON"
q = "quit"
[chars]
"!" = "2nd MATH ENTER"
"#;
    let c = ConfigFile::parse(Path::new("c.toml"), text).unwrap();
    assert_eq!(c.scale, Some(3));
    let km = c.keymap(Path::new("c.toml")).unwrap();
    assert_eq!(km.binding("F12"), None);
    assert_eq!(km.binding("Home"), Some(Binding::Button(Button::On)));
    assert_eq!(km.binding("Q").map(|b| b.describe()), Some("quit".into()));
    assert_eq!(km.char_steps('!').map(|s| s.len()), Some(3));
    assert_eq!(
        km.binding("Enter"),
        Some(Binding::Button(Button::Key(Key::Enter)))
    );
}

#[test]
fn config_errors_name_the_file() {
    let e = ConfigFile::parse(Path::new("c.toml"), "scale = \"big\"").unwrap_err();
    assert!(format!("{e:#}").contains("c.toml"), "{e:#}");
    let e = ConfigFile::parse(Path::new("c.toml"), "colour = 1").unwrap_err();
    assert!(format!("{e:#}").contains("colour"), "{e:#}");
    let c = ConfigFile::parse(Path::new("c.toml"), "[keys]\nHyper = \"ENTER\"").unwrap();
    let e = c.keymap(Path::new("c.toml")).unwrap_err();
    assert!(e.to_string().contains("Hyper"), "{e}");
    let c = ConfigFile::parse(Path::new("c.toml"), "[keys]\nF2 = \"FROB\"").unwrap();
    assert!(c.keymap(Path::new("c.toml")).is_err());
    let c = ConfigFile::parse(Path::new("c.toml"), "[chars]\n\"ab\" = \"ENTER\"").unwrap();
    assert!(c.keymap(Path::new("c.toml")).is_err());
}

#[test]
fn rom_is_remembered_only_interactively() {
    let dir = rom::temp_dir("remember");
    let rom_path = rom::write_rom(&dir);
    let paths = Paths::in_dir(&dir);
    let args = MachineArgs {
        rom: Some(rom_path.clone()),
        ..MachineArgs::default()
    };
    Setup::with_paths(paths.clone(), &args, false).unwrap();
    assert!(!paths.config_file.exists());
    let s = Setup::with_paths(paths.clone(), &args, true).unwrap();
    assert!(matches!(s.choice, FirmwareChoice::Rom(_)));
    let saved = ConfigFile::load(&paths.config_file).unwrap();
    assert_eq!(saved.rom, Some(std::fs::canonicalize(&rom_path).unwrap()));
    // Next time without --rom: the remembered one.
    let s = Setup::with_paths(paths.clone(), &MachineArgs::default(), true).unwrap();
    assert!(matches!(s.choice, FirmwareChoice::Rom(_)));
}

#[test]
fn no_rom_forgets_the_remembered_rom() {
    let dir = rom::temp_dir("forget");
    let rom_path = rom::write_rom(&dir);
    let paths = Paths::in_dir(&dir);
    std::fs::write(&paths.config_file, "scale = 2\nspeed = \"turbo\"\n").unwrap();
    let with_rom = MachineArgs {
        rom: Some(rom_path),
        ..MachineArgs::default()
    };
    Setup::with_paths(paths.clone(), &with_rom, true).unwrap();
    assert!(ConfigFile::load(&paths.config_file).unwrap().rom.is_some());
    let no = MachineArgs {
        no_rom: true,
        ..MachineArgs::default()
    };
    // A headless run (not interactive) with --no-rom uses the built-in runtime and leaves the
    // config alone.
    let s = Setup::with_paths(paths.clone(), &no, false).unwrap();
    assert_eq!(s.choice, FirmwareChoice::Builtin);
    assert!(ConfigFile::load(&paths.config_file).unwrap().rom.is_some());
    // Interactive --no-rom: built-in now, and the ROM is forgotten (the rest kept).
    let s = Setup::with_paths(paths.clone(), &no, true).unwrap();
    assert_eq!(s.choice, FirmwareChoice::Builtin);
    assert!(
        s.notes
            .iter()
            .any(|n| n.contains("forgot the remembered ROM")),
        "{:?}",
        s.notes
    );
    let saved = ConfigFile::load(&paths.config_file).unwrap();
    assert_eq!(saved.rom, None);
    assert_eq!(saved.scale, Some(2));
    assert_eq!(saved.speed.as_deref(), Some("turbo"));
    // The next plain start: the built-in runtime, nothing to forget.
    let s = Setup::with_paths(paths.clone(), &MachineArgs::default(), true).unwrap();
    assert_eq!(s.choice, FirmwareChoice::Builtin);
    let s = Setup::with_paths(paths, &no, true).unwrap();
    assert!(s.notes.is_empty(), "{:?}", s.notes);
}

#[test]
fn the_command_line_beats_the_config_file() {
    use clap::Parser;
    use ti82::cli::Cli;
    use ti82::pacing::Speed;
    let dir = rom::temp_dir("precedence");
    let paths = Paths::in_dir(&dir);
    std::fs::write(&paths.config_file, "scale = 2\nspeed = \"turbo\"\n").unwrap();
    let parse = |args: &[&str]| {
        Cli::try_parse_from(std::iter::once("ti82").chain(args.iter().copied())).unwrap()
    };
    // Not given: the config file's.
    let cli = parse(&[]);
    let s = Setup::with_paths(paths.clone(), &cli.machine, true).unwrap();
    assert_eq!(s.speed(&cli.machine).unwrap(), Speed::Turbo);
    assert_eq!(s.scale(cli.ui.scale, 4), 2);
    // Given, even as the default value: the command line's.
    let cli = parse(&["--speed", "real", "--scale", "4"]);
    let s = Setup::with_paths(paths.clone(), &cli.machine, true).unwrap();
    assert_eq!(s.speed(&cli.machine).unwrap(), Speed::Real);
    assert_eq!(s.scale(cli.ui.scale, 3), 4);
    let cli = parse(&["--speed", "2"]);
    assert_eq!(s.speed(&cli.machine).unwrap(), Speed::Times(2.0));
    // Neither: real speed, the default scale.
    let empty = Setup::with_paths(
        Paths::in_dir(&rom::temp_dir("precedence-none")),
        &parse(&[]).machine,
        true,
    )
    .unwrap();
    assert_eq!(empty.speed(&parse(&[]).machine).unwrap(), Speed::Real);
    assert_eq!(empty.scale(None, 3), 3);
    // A bad speed in the config is an error naming the file, unless the command line decides.
    std::fs::write(&paths.config_file, "speed = \"fast\"\n").unwrap();
    let s = Setup::with_paths(paths.clone(), &parse(&[]).machine, true).unwrap();
    let e = s.speed(&parse(&[]).machine).unwrap_err();
    assert!(e.to_string().contains("config.toml"), "{e}");
    assert_eq!(
        s.speed(&parse(&["--speed", "turbo"]).machine).unwrap(),
        Speed::Turbo
    );
}

#[test]
fn state_round_trip_and_corrupt_set_aside() {
    let dir = rom::temp_dir("state");
    let path = dir.join("rom-x.state");
    let mut a = rom::calc();
    a.run_for(200_000);
    save_state(&a, &path).unwrap();
    let mut b = rom::calc();
    assert_eq!(restore_state(&mut b, &path).unwrap(), Restored::Restored);
    assert_eq!(b.now(), a.now());
    assert_eq!(b.lcd(), a.lcd());

    // Missing: fresh, nothing moved.
    let mut c = rom::calc();
    assert_eq!(
        restore_state(&mut c, &dir.join("none.state")).unwrap(),
        Restored::Fresh
    );

    // Corrupt: set aside under a new name, never lost; twice gives two names.
    for n in 1..=2 {
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0xFF;
        std::fs::write(&path, &bytes).unwrap();
        let mut d = rom::calc();
        let r = restore_state(&mut d, &path).unwrap();
        let Restored::SetAside { moved_to, reason } = &r else {
            panic!("{r:?}")
        };
        assert!(reason.contains("checksum"), "{reason}");
        assert_eq!(moved_to, &dir.join(format!("rom-x.state.corrupt-{n}")));
        assert_eq!(std::fs::read(moved_to).unwrap(), bytes);
        assert!(!path.exists());
        assert!(r.message(&path).unwrap().contains("kept it as"));
        assert_eq!(d.now(), 0, "the calculator is untouched");
        save_state(&a, &path).unwrap();
    }
}

#[test]
fn machine_start_restores_and_saves() {
    let dir = rom::temp_dir("machine");
    let rom_path = rom::write_rom(&dir);
    let setup = rom::setup(&dir, FirmwareChoice::Rom(rom_path));
    let args = MachineArgs::default();
    let mut m = Machine::start(&setup, &args, true).unwrap();
    m.advance(123_456).unwrap();
    let t = m.calc.now();
    let msgs = m.finish().unwrap();
    assert!(
        msgs.iter().any(|s| s.starts_with("state saved")),
        "{msgs:?}"
    );
    let m = Machine::start(&setup, &args, true).unwrap();
    assert_eq!(m.calc.now(), t);
    assert!(m.messages.iter().any(|s| s.contains("restored")));
    let fresh = MachineArgs {
        fresh: true,
        ..MachineArgs::default()
    };
    let m = Machine::start(&setup, &fresh, true).unwrap();
    assert_eq!(m.calc.now(), 0);
    // A garbage state file is set aside with a message and the machine starts clean.
    let state = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "state"))
        .unwrap()
        .path();
    std::fs::write(&state, b"garbage").unwrap();
    let m = Machine::start(&setup, &args, true).unwrap();
    assert_eq!(m.calc.now(), 0);
    assert!(
        m.messages.iter().any(|s| s.contains("kept it as")),
        "{:?}",
        m.messages
    );
}
