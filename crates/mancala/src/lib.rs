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
//!
//! ```
//! use mancala::{Board, Engine, Level, Player, Position, Rules};
//!
//! // The TI-82 manual's example: player 1 plays the fourth hole and captures on a rock that is
//! // not the last (the manual prints the store as 2; the rules make it 7).
//! let board = Board::from_picture(&[2, 2, 2, 3, 1, 5, 1], &[3, 2, 4, 3, 0, 8, 1])?;
//! let mut pos = Position::from_board(Rules::ti82(4)?, board, Player::One)?;
//! let outcome = pos.play(4)?;
//! assert_eq!(
//!     outcome.to_string(),
//!     "player 1 plays hole 4 (3 rocks); captures 5 from player 2's hole 2; free turn; score 7-2"
//! );
//! assert_eq!(outcome.board.slots(), &[3, 2, 4, 0, 1, 9, 7, 1, 0, 1, 3, 2, 2, 2]);
//!
//! // An engine move, and an exact solve of a small Kalah board.
//! let choice = Engine::with_level(Level::Medium, 1).choose(&pos)?;
//! assert!(pos.is_legal(choice.house));
//! let kalah = Position::new(Rules::kalah_standard(3, 3)?);
//! assert_eq!(mancala::solve(&kalah).value().to_string(), "win by 2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod endgame;
mod engine;
mod explain;
mod game;
mod rng;
mod rules;
mod solver;

pub use board::{Board, BoardError, Player, MAX_SLOTS};
pub use endgame::{EndgameTable, Lookup};
pub use engine::{Choice, Engine, EngineOptions, Level, DEFAULT_ENDGAME_BYTES};
pub use explain::{explain, Explained, MAX_EXPLAINED_MOVES};
pub use game::{predict, CaptureEvent, GameEnd, GameError, GameResult, MoveOutcome, Position};
pub use rng::XorShift;
pub use rules::{
    CaptureRule, CaptureTrigger, EndRule, Rules, RulesError, SweepRule, MAX_HOUSES, MAX_ROCKS,
};
pub use solver::{brute_force, solve, Solution, Solver, Value};
