//! The command line (clap).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::pacing::Speed;

#[derive(Debug, Parser)]
#[command(
    name = "ti82",
    version,
    about = "A TI-82 graphing calculator emulator",
    long_about = "A TI-82 graphing calculator emulator.\n\n\
        Without a command it opens a window (or, with no display or with --tui, draws in the \
        terminal). Keys: F1 shows the key map; docs/frontend.md has it all.\n\n\
        Exit codes: 0 ok, 1 bad input or a failed check, 2 usage."
)]
pub struct Cli {
    #[command(flatten)]
    pub machine: MachineArgs,
    #[command(flatten)]
    pub ui: UiArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a calculator: `--headless` for scripts and CI, else the interactive front end.
    Run(Box<RunArgs>),
    /// Play random MANCALA games through the keypad and check every move against the rules.
    Conformance(ConformanceArgs),
    #[command(flatten)]
    Files(crate::files_cmd::FilesCommand),
    /// MANCALA tools: `mancala solve` (the exact value of the opening position).
    #[command(subcommand)]
    Mancala(MancalaCommand),
    /// Debug TI-BASIC programs from an editor: the Debug Adapter Protocol on standard input
    /// and output (docs/debugger.md).
    Dap,
    /// The debugger in a terminal, with gdb-like commands read from standard input (break
    /// LINE, run, step, next, finish, print EXPR, bt, info, x ADDR, disas, watch, quit).
    Debug(DebugArgs),
    /// Pair two `--link relay HOST:PORT ROOM-SECRET` clients that name the same room (the
    /// relay sees the room, never the secret).
    Relay(RelayArgs),
}

/// `ti82 debug`.
#[derive(Debug, Clone, Args)]
pub struct DebugArgs {
    /// The program to debug: a `.txt` source or a `.82p`/`.82g` file.
    pub program: Option<PathBuf>,
    /// More program files (called with `prgm`).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub load: Vec<PathBuf>,
    /// Debug Z80 code instead: a ROM dump or a raw program image.
    #[arg(long, value_name = "FILE")]
    pub rom: Option<PathBuf>,
}

/// `ti82 relay`.
#[derive(Debug, Clone, Args)]
pub struct RelayArgs {
    /// Address to listen on (a bare port means 127.0.0.1; 0.0.0.0:PORT for the internet).
    #[arg(long, value_name = "ADDR")]
    pub listen: String,
}

#[derive(Debug, Subcommand)]
pub enum MancalaCommand {
    /// Solve the opening position exactly; the last line reads `value: W 10 best: 3`.
    Solve(SolveArgs),
}

/// `ti82 mancala solve`: a rule set (a preset and switches) and limits.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// Rule set: `ti82`, `kalah`, `kalah-standard`, `py-mancala` (docs/rules.md), optionally
    /// with `:N` rocks (`ti82:3`).
    #[arg(long, value_name = "NAME", default_value = "ti82")]
    pub rules: String,
    /// Houses a side (1 to 12).
    #[arg(long, value_name = "H")]
    pub houses: Option<u8>,
    /// Rocks per house at the start.
    #[arg(long, value_name = "S")]
    pub seeds: Option<u8>,
    /// Which capture: `empty` (an empty facing house still captures) or `nonempty`.
    #[arg(long, value_name = "empty|nonempty")]
    pub capture: Option<String>,
    /// Which drops capture: `every-drop`, `last-rock` or `never`.
    #[arg(long, value_name = "WHICH")]
    pub capture_on: Option<String>,
    /// Where the capturing rock goes: `store` or `stays`.
    #[arg(long, value_name = "store|stays")]
    pub capture_rock: Option<String>,
    /// When the game ends: `either-row` or `mover-empty`.
    #[arg(long, value_name = "either-row|mover-empty")]
    pub end: Option<String>,
    /// Who gets the rocks left at the end: `owner` or `mover`.
    #[arg(long, value_name = "owner|mover")]
    pub sweep: Option<String>,
    /// Free turn when the last rock lands in the own store: `on` or `off`.
    #[arg(long, value_name = "on|off")]
    pub free_turn: Option<String>,
    /// Give up after this many nodes (the time limit: about a million nodes a second).
    #[arg(long, value_name = "N", default_value_t = 300_000_000)]
    pub max_nodes: u64,
    /// The transposition table holds 2^BITS entries of 16 bytes (the memory limit; 16 to 28).
    #[arg(long, value_name = "BITS", default_value_t = 22,
          value_parser = clap::value_parser!(u8).range(16..=28))]
    pub table_bits: u8,
}

#[derive(Debug, Clone, Args)]
pub struct ConformanceArgs {
    /// Your TI-82 ROM image: each calculator boots it and receives the programs over the link
    /// (untested on a real ROM here; see docs/frontend.md).
    #[arg(long, value_name = "FILE")]
    pub rom: Option<PathBuf>,
    /// MANBOARD and MANCALA from a file (.82p .82g .uue) instead of our own programs.
    #[arg(long, value_name = "FILE")]
    pub program: Vec<PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed for the moves (and the rocks per hole when --rocks is not given).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rocks per hole (3 to 8); random per game when not given.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=8))]
    pub rocks: Option<u8>,
    /// Then play this many CALC VS CALC games on two linked calculators (both verify every
    /// move; who goes first alternates, rocks per hole are random per calculator).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub cvc: u64,
    /// Threads to play on (default: one per core). Games are played in fixed batches, each on
    /// calculators of its own, so the results are the same whatever this number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
}

/// What calculator to run and what is plugged into it.
#[derive(Debug, Clone, Default, Args)]
pub struct MachineArgs {
    /// TI-82 ROM image (128 KiB). Remembered in the config file for next time.
    #[arg(long, value_name = "FILE", conflicts_with = "no_rom")]
    pub rom: Option<PathBuf>,
    /// Use the built-in runtime, and forget the remembered ROM (the config file's `rom`).
    #[arg(long)]
    pub no_rom: bool,
    /// Variables to load (.82p .82g .82l ... or their UUE text).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub load: Vec<PathBuf>,
    /// With a ROM: do not send MANBOARD and MANCALA over the link at start.
    #[arg(long)]
    pub no_send: bool,
    /// Run this program once started (then MANCALA does not start by itself).
    #[arg(long, value_name = "NAME", conflicts_with = "mancala")]
    pub run: Option<String>,
    /// Start MANBOARD and MANCALA on a fresh calculator even with --keys (they start by
    /// themselves when neither --run nor --keys is given).
    #[arg(long)]
    pub mancala: bool,
    /// Emulation speed: real, a factor (2, 0.5), or turbo [default: the config file's
    /// `speed`, else real].
    #[arg(long, value_name = "SPEED")]
    pub speed: Option<Speed>,
    /// Start clean: do not restore the saved state.
    #[arg(long)]
    pub fresh: bool,
    /// A link cable: `listen ADDR` or `connect ADDR` over TCP (a bare port means 127.0.0.1),
    /// `relay HOST:PORT ROOM-SECRET` through `ti82 relay` (both players give the same code;
    /// the relay sees only ROOM), or `bot[:LEVEL]`, the computer opponent (easy, medium,
    /// hard, perfect; default hard).
    #[arg(long, num_args = 1..=3, value_names = ["listen|connect|relay|bot[:LEVEL]", "ADDR", "ROOM-SECRET"])]
    pub link: Vec<String>,
    /// Session code for `--link listen|connect`: both sides must give the same one. It never
    /// crosses the network (a PAKE proves both know it, and the link is encrypted).
    #[arg(long, value_name = "WORD")]
    pub code: Option<String>,
    /// Delay everything this side sends over `--link` by MS milliseconds (plus up to JITTER).
    #[arg(long, value_name = "MS[:JITTER]")]
    pub link_delay: Option<String>,
    /// Write the decoded link traffic to FILE at exit.
    #[arg(long, value_name = "FILE")]
    pub link_log: Option<PathBuf>,
    /// Write the link lines' every change to FILE at exit (for `ti82 link-log`).
    #[arg(long, value_name = "FILE")]
    pub link_trace: Option<PathBuf>,
    /// Record the link port's two lines as audio (stereo WAV: tip left, ring right).
    #[arg(long, value_name = "FILE")]
    pub wav: Option<PathBuf>,
    /// Another TI-82 model's behaviour where the hardware is unknown (repeatable): port2-f8,
    /// port14-battery, lcd-6bit-left-pixels, lcd-busy-50, lcd-drop-busy, on-release,
    /// timer-fixed, link-agnostic (docs/hardware.md).
    #[arg(long, value_name = "CHOICE")]
    pub hw: Vec<ti82_machine::HwChoice>,
}

/// How the interactive front end looks.
#[derive(Debug, Clone, Default, Args)]
pub struct UiArgs {
    /// Screen pixels per LCD pixel.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    pub scale: Option<u32>,
    /// Use the terminal even when a display is available.
    #[arg(long)]
    pub tui: bool,
    /// In the terminal, draw with half blocks (1×2 pixels a cell) instead of braille (2×4).
    #[arg(long)]
    pub blocks: bool,
    /// Two calculators in one process, two windows, joined by a cable.
    #[arg(long)]
    pub pair: bool,
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub machine: MachineArgs,
    #[command(flatten)]
    pub ui: UiArgs,
    /// No window, no terminal UI: run the key script, then print or save the results.
    #[arg(long)]
    pub headless: bool,
    /// Key script (see docs/frontend.md), e.g. "PRGM 1 ENTER WAIT 500 RIGHT*3": keys by their
    /// printed names, second functions by theirs (QUIT, STAT PLOT, TEST, ANS, ENTRY, L1, π, {,
    /// ...), "TEXT" in quotes as the keys that type it.
    #[arg(long, value_name = "SCRIPT", requires = "headless")]
    pub keys: Option<String>,
    /// Emulated milliseconds to run after the key script.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub wait_ms: u64,
    /// Save the LCD as a PNG at the end.
    #[arg(long, value_name = "FILE", requires = "headless")]
    pub screenshot: Option<PathBuf>,
    /// Record the LCD as an animated GIF while running.
    #[arg(long, value_name = "FILE", requires = "headless")]
    pub gif: Option<PathBuf>,
    /// Write the calculator's state to FILE at the end (atomically). SIGTERM or Ctrl+C ends the
    /// run early and still writes every output.
    #[arg(long, value_name = "FILE", requires = "headless")]
    pub save_state: Option<PathBuf>,
    /// Print the 96×64 LCD as text art (`#` dark, `.` light).
    #[arg(long, requires = "headless")]
    pub print_lcd: bool,
    /// Print the home screen's 8 lines of 16 characters (from the text shadow in RAM).
    #[arg(long, requires = "headless")]
    pub print_text: bool,
    /// Print the glass read back as text: 8 lines of 16 large-font cells, whatever drew them,
    /// on either firmware (cells that are not a glyph of the built-in font print as `?`).
    #[arg(long)]
    pub print_screen: bool,
    /// Play one side of a MANCALA CALC VS CALC game over `--link` (WHO'S FIRST? ME or
    /// OPPONENT), every move verified; prints `moves verified: N, divergences: D, result: R`.
    #[arg(long, value_name = "first|second", value_parser = ["first", "second"],
          requires = "link", requires = "headless")]
    pub play_cvc: Option<String>,
    /// With --play-cvc: seed of this side's moves.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "play_cvc")]
    pub seed: u64,
    /// With --play-cvc: rocks per hole set on this calculator (the first player's count).
    #[arg(long, value_name = "K", default_value_t = 4, requires = "play_cvc",
          value_parser = clap::value_parser!(u8).range(3..=8))]
    pub rocks: u8,
}
