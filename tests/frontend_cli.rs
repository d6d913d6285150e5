//! The command line parses as documented.

use clap::Parser;
use ti82::cli::{Cli, Command};
use ti82::pacing::Speed;

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("ti82").chain(args.iter().copied()))
}

#[test]
fn window_options() {
    let c = parse(&[
        "--rom", "a.rom", "--load", "X.82p", "Y.82g", "--run", "MANCALA", "--speed", "2",
        "--scale", "3", "--fresh",
    ])
    .unwrap();
    assert!(c.command.is_none());
    assert_eq!(
        c.machine.rom.as_deref(),
        Some(std::path::Path::new("a.rom"))
    );
    assert_eq!(c.machine.load.len(), 2);
    assert_eq!(c.machine.run.as_deref(), Some("MANCALA"));
    assert_eq!(c.machine.speed, Some(Speed::Times(2.0)));
    assert_eq!(c.ui.scale, Some(3));
    assert!(c.machine.fresh);
    let c = parse(&[
        "--no-rom", "--tui", "--speed", "turbo", "--link", "listen", "5000",
    ])
    .unwrap();
    assert!(c.machine.no_rom && c.ui.tui);
    assert_eq!(c.machine.speed, Some(Speed::Turbo));
    assert_eq!(c.machine.link, vec!["listen", "5000"]);
    let c = parse(&["--pair", "--link-log", "l.txt", "--wav", "w.wav"]).unwrap();
    assert!(c.ui.pair);
    assert!(c.machine.link_log.is_some() && c.machine.wav.is_some());
}

#[test]
fn headless_run() {
    let c = parse(&[
        "run",
        "--headless",
        "--rom",
        "r.rom",
        "--load",
        "A.82p",
        "--keys",
        "PRGM 1 ENTER",
        "--wait-ms",
        "200",
        "--screenshot",
        "o.png",
        "--print-lcd",
        "--print-text",
    ])
    .unwrap();
    let Some(Command::Run(r)) = c.command else {
        panic!("not run")
    };
    assert!(r.headless && r.print_lcd && r.print_text);
    assert_eq!(r.keys.as_deref(), Some("PRGM 1 ENTER"));
    assert_eq!(r.wait_ms, 200);
    assert_eq!(r.machine.load.len(), 1);
}

#[test]
fn usage_errors() {
    assert!(parse(&["--rom", "a", "--no-rom"]).is_err());
    assert!(parse(&["--speed", "fast"]).is_err());
    assert!(parse(&["--speed", "0"]).is_err());
    assert!(parse(&["--scale", "0"]).is_err());
    // One `--link` value names the bot (`bot[:LEVEL]`): `listen` alone parses and is refused
    // when the cable is made.
    let c = parse(&["--link", "listen"]).unwrap();
    assert!(ti82::botlink::bot_level(&c.machine.link).is_err());
    // Three values are for the relay (`relay HOST:PORT ROOM`); `listen` takes one address.
    assert!(parse(&["--link", "listen", "5000", "extra", "more"]).is_err());
    let c = parse(&["--link", "listen", "5000", "extra"]).unwrap();
    assert!(ti82::netcable::link_config(&c.machine).is_err());
    assert!(parse(&["run", "--wait-ms", "x"]).is_err());
    assert!(parse(&["frobnicate"]).is_err());
    // The key script and the outputs are for headless runs: said at once, not ignored.
    assert!(parse(&["run", "--keys", "2 + 2 ENTER", "--print-text"]).is_err());
    assert!(parse(&["run", "--print-lcd"]).is_err());
    assert!(parse(&["run", "--headless", "--keys", "2", "--print-lcd"]).is_ok());
    // --mancala asks for the game, --run for another program: not both.
    assert!(parse(&["--mancala", "--run", "X"]).is_err());
    assert!(parse(&["--mancala"]).unwrap().machine.mancala);
}
