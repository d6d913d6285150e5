//! MANCALA: the rules of the TI-82 game and its relatives, a game engine and an exact solver.
//!
//! Pure Rust, no I/O and no unseeded randomness.
//!
//! * [`Rules`]: a rule set as data, with presets for the TI-82 program ([`Rules::ti82`]), the
//!   Softdisk KALAH text ([`Rules::kalah`]), Py-Mancala ([`Rules::py_mancala`]) and Kalah as the
//!   literature solves it ([`Rules::kalah_standard`]), and switches for a command line.
//! * [`Board`] and [`Position`]: the board in the TI-82 program's `L1` slot order, and moves with a
//!   full [`MoveOutcome`] (sowing, captures, free turn, game end).
//! * [`Engine`]: alpha-beta search with iterative deepening, a transposition table and levels.
//! * [`solve`]: the exact game-theoretic value of a position.
//!
//! `docs/rules.md` and `docs/solver.md` describe the rules and the search.

mod board;
mod engine;
mod game;
mod rng;
mod rules;
mod solver;

pub use board::{Board, BoardError, Player, MAX_SLOTS};
pub use engine::{Choice, Engine, EngineOptions, Level};
pub use game::{predict, CaptureEvent, GameEnd, GameError, GameResult, MoveOutcome, Position};
pub use rng::XorShift;
pub use rules::{
    CaptureRule, CaptureTrigger, EndRule, Rules, RulesError, SweepRule, MAX_HOUSES, MAX_ROCKS,
};
pub use solver::{brute_force, result_of, solve, Solution, Solver, Value};
