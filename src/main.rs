//! The `ti82` binary. Exit codes: 0 ok, 1 bad input or a failed check, 2 usage (clap).

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use ti82::app::{Machine, Setup};
use ti82::cli::{Cli, Command, ConformanceArgs, MachineArgs, MancalaCommand, RunArgs, UiArgs};
use ti82::headless::Headless;
use ti82::{gui, have_display, tui, DEFAULT_SCALE};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Run(args)) if args.headless => headless(&args),
        Some(Command::Run(args)) => interactive(&args.machine, &args.ui),
        Some(Command::Conformance(args)) => conformance(&args),
        Some(Command::Files(cmd)) => ti82::files_cmd::run(&cmd, &mut std::io::stdout().lock()),
        Some(Command::Mancala(MancalaCommand::Solve(args))) => {
            ti82::solve::run(&args, &mut std::io::stdout().lock())
        }
        Some(Command::Relay(args)) => ti82::netcable::relay(&args.listen),
        Some(Command::Dap) => ti82::dap::run(std::io::stdin(), std::io::stdout().lock()),
        Some(Command::Debug(a)) => ti82::debug_cli::run(
            a.program,
            &a.load,
            a.rom,
            &mut std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
        ),
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
    // `--play-cvc` plays MANCALA, so it asks for it as `--mancala` does.
    let mut machine = args.machine.clone();
    machine.mancala |= args.play_cvc.is_some();
    let mut m = Machine::start_scripted(&setup, &machine, false, args.keys.is_some())?;
    // A signal ends the run early; the outputs are still written.
    ti82::shutdown::install()?;
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
        print_screen: args.print_screen,
        play_cvc: args
            .play_cvc
            .as_deref()
            .map(|who| ti82_harness::CvcOptions {
                first: who == "first",
                rocks: args.rocks,
                seed: args.seed,
            }),
        speed: match setup.speed(&args.machine)? {
            ti82::pacing::Speed::Real => Some(1.0),
            ti82::pacing::Speed::Times(f) => Some(f),
            ti82::pacing::Speed::Turbo => None,
        },
        save_state: args.save_state.clone(),
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

/// The window whenever one can open, else the terminal (`--tui` asks for the terminal).
fn interactive(machine: &MachineArgs, ui: &UiArgs) -> Result<()> {
    if ui.pair && !machine.link.is_empty() {
        anyhow::bail!(
            "--pair joins its two calculators with their own cable, so it takes no --link \
             (for a cable to another process or the bot, run one calculator with --link)"
        );
    }
    let setup = Setup::new(machine, true)?;
    // Signals stop the loop, which saves the calculator's state, instead of killing it.
    ti82::shutdown::install()?;
    if !ui.tui && have_display() {
        match gui::run(&setup, machine, ui) {
            Err(e) if !ui.pair && e.downcast_ref::<gui::NoWindow>().is_some() => {
                eprintln!("ti82: {e:#}; using the terminal (--tui asks for it directly)");
            }
            other => return other,
        }
    }
    if ui.pair {
        anyhow::bail!(
            "--pair needs two windows and no display is available (DISPLAY is not set): \
             start it in a desktop session, or run two processes joined by --link"
        );
    }
    tui::run(&setup, machine, ui)
}

fn conformance(args: &ConformanceArgs) -> Result<()> {
    let programs = if args.program.is_empty() {
        ti82_harness::builtin_programs()?
    } else {
        let mut vars = Vec::new();
        for p in &args.program {
            vars.extend(ti82_harness::load_file(p)?);
        }
        vars
    };
    // The calculators: the built-in runtime with the programs in its memory, or the user's ROM
    // booted and sent the programs over the link (`romload`), as a computer would.
    let make = |programs: &[tifiles::Variable]| -> Result<ti82_machine::Calc> {
        match &args.rom {
            None => Ok(ti82_harness::builtin_calc(programs)?),
            Some(rom) => ti82::romload::rom_calc_with(rom, programs),
        }
    };
    // The first calculator is made here, so a bad ROM fails before any game, with its name.
    let first = std::sync::Mutex::new(Some(make(&programs)?));
    let maker = || {
        if let Some(calc) = first.lock().ok().and_then(|mut f| f.take()) {
            return Ok(calc);
        }
        make(&programs).map_err(|e| ti82_harness::HarnessError::Setup(format!("{e:#}")))
    };
    let jobs = args
        .jobs
        .map_or_else(ti82_harness::default_jobs, |n| n as usize);
    let start = std::time::Instant::now();
    let mut summary = ti82_harness::run_games_on(&maker, args.games, args.seed, args.rocks, jobs)?;
    if args.cvc > 0 {
        let cvc = ti82_harness::run_cvc_games_on(
            &maker,
            args.cvc,
            args.seed,
            ti82_harness::CVC_LATENCY,
            jobs,
        )?;
        println!(
            "CALC VS CALC: {} games, {} moves verified, {} divergences",
            cvc.games,
            cvc.moves,
            cvc.divergences.len()
        );
        summary.games += cvc.games;
        summary.moves += cvc.moves;
        summary.divergences.extend(cvc.divergences);
    }
    let secs = start.elapsed().as_secs_f64();
    for d in &summary.divergences {
        println!("{d}");
    }
    println!(
        "{} games, {} moves verified, {} divergences, {:.0} games/s",
        summary.games,
        summary.moves,
        summary.divergences.len(),
        summary.games as f64 / secs.max(1e-9)
    );
    if !summary.divergences.is_empty() {
        anyhow::bail!("{} divergences", summary.divergences.len());
    }
    Ok(())
}
