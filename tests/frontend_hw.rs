//! `--hw NAME`: another TI-82 model's behaviour where the hardware is unknown reaches the
//! machine's `Config` (the choices themselves are tested in crates/machine/tests/hw_choices.rs).

#[path = "frontend_rom.rs"]
mod rom;

use clap::Parser;
use ti82::app::Machine;
use ti82::cli::{Cli, Command};
use ti82::session::FirmwareChoice;
use ti82_machine::HwChoice;

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("ti82").chain(args.iter().copied()))
}

#[test]
fn every_choice_parses_and_unknown_ones_are_refused() {
    for (choice, name, _) in HwChoice::ALL {
        let c = parse(&["--hw", name]).unwrap();
        assert_eq!(c.machine.hw, vec![choice]);
    }
    let c = parse(&[
        "run",
        "--headless",
        "--hw",
        "lcd-drop-busy",
        "--hw",
        "on-release",
    ])
    .unwrap();
    let Some(Command::Run(r)) = c.command else {
        panic!("not run")
    };
    assert_eq!(
        r.machine.hw,
        vec![HwChoice::LcdDropBusy, HwChoice::OnRelease]
    );
    let e = parse(&["--hw", "lcd-slow"]).unwrap_err().to_string();
    assert!(e.contains("lcd-slow") && e.contains("lcd-drop-busy"), "{e}");
}

#[test]
fn choices_reach_the_machine_config() {
    let dir = rom::temp_dir("hw");
    let setup = rom::setup(&dir, FirmwareChoice::Rom(rom::write_rom(&dir)));
    let c = parse(&["--fresh", "--hw", "lcd-drop-busy", "--hw", "lcd-busy-50"]).unwrap();
    let m = Machine::start(&setup, &c.machine, false).unwrap();
    let config = m.calc.hardware().config();
    assert!(config.lcd_drop_when_busy);
    assert_eq!(config.lcd_busy_t, 50);
    let m = Machine::start(&setup, &parse(&["--fresh"]).unwrap().machine, false).unwrap();
    assert!(!m.calc.hardware().config().lcd_drop_when_busy);
    assert_eq!(m.calc.hardware().config().lcd_busy_t, 60);
}
