//! The `ti82` binary. Exit codes: 0 ok, 1 bad input or a failed check, 2 usage (clap).

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use ti82::app::{Machine, Setup};
use ti82::cli::{Cli, Command, MachineArgs, RunArgs, UiArgs};
use ti82::headless::Headless;
use ti82::{gui, have_display, tui, DEFAULT_SCALE};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Run(args)) if args.headless => headless(&args),
        Some(Command::Run(args)) => interactive(&args.machine, &args.ui),
        None => interactive(&cli.machine, &cli.ui),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ti82: error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn headless(args: &RunArgs) -> Result<()> {
    let setup = Setup::new(&args.machine, false)?;
    let mut m = Machine::start(&setup, &args.machine, false)?;
    for msg in m.messages.drain(..) {
        eprintln!("ti82: {msg}");
    }
    let h = Headless {
        keys: args.keys.clone(),
        wait_ms: args.wait_ms,
        screenshot: args.screenshot.clone(),
        scale: args.ui.scale.unwrap_or(DEFAULT_SCALE),
        gif: args.gif.clone(),
        print_lcd: args.print_lcd,
        print_text: args.print_text,
    };
    let mut out = std::io::stdout().lock();
    let result = h.run(&mut m, &mut out);
    for msg in m.messages.drain(..) {
        eprintln!("ti82: {msg}");
    }
    result?;
    for msg in m.finish()? {
        eprintln!("ti82: {msg}");
    }
    Ok(())
}

fn interactive(machine: &MachineArgs, ui: &UiArgs) -> Result<()> {
    let setup = Setup::new(machine, true)?;
    if ui.tui || !have_display() {
        if ui.pair {
            anyhow::bail!("--pair needs a display (two windows)");
        }
        return tui::run(&setup, machine, ui);
    }
    gui::run(&setup, machine, ui)
}
