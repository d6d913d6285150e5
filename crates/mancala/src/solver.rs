//! The exact solver: the game-theoretic value of a position, and a brute force to check it.

use std::fmt;

use crate::board::Player;
use crate::engine::{Searcher, DEFAULT_ENDGAME_BYTES, EXACT, SOLVE_DEPTHS};
use crate::game::Position;
use crate::game::{child, store_diff};

/// A game-theoretic value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins by this many rocks with perfect play.
    Win(u8),
    /// Perfect play draws.
    Draw,
    /// The player to move loses by this many rocks against perfect play.
    Loss(u8),
}

impl Value {
    /// The value of a final margin (mover's store minus the opponent's).
    pub fn from_margin(margin: i32) -> Value {
        let m = margin.unsigned_abs().min(255) as u8;
        match margin {
            0 => Value::Draw,
            x if x > 0 => Value::Win(m),
            _ => Value::Loss(m),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(m) => write!(f, "win by {m}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(m) => write!(f, "loss by {m}"),
        }
    }
}

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The player to move.
    pub player: Player,
    /// Final store difference (the player to move's minus the opponent's) with perfect play.
    pub margin: i32,
    /// A move that reaches it (one of them when several do); `None` when the game is over.
    pub best: Option<u8>,
    /// Search nodes visited.
    pub nodes: u64,
}

impl Solution {
    /// The value for the player to move.
    pub fn value(&self) -> Value {
        Value::from_margin(self.margin)
    }

    /// The margin from player 1's side (player 1's store minus player 2's).
    pub fn margin_for_player_one(&self) -> i32 {
        match self.player {
            Player::One => self.margin,
            Player::Two => -self.margin,
        }
    }
}

/// An exact solver with its own transposition table, reusable across positions of one rule set.
pub struct Solver {
    searcher: Searcher,
    budget: u64,
}

impl Solver {
    /// A solver with a table of `2^table_bits` entries (16 bytes each; clamped to 4..=30) and a
    /// node budget (`None`: no limit; solving is exponential, so keep boards small).
    pub fn new(table_bits: u8, budget: Option<u64>) -> Solver {
        Solver {
            searcher: Searcher::new(table_bits).with_endgame(DEFAULT_ENDGAME_BYTES),
            budget: budget.unwrap_or(u64::MAX),
        }
    }

    /// Uses an endgame database of at most `bytes` (0: none; the default is
    /// [`DEFAULT_ENDGAME_BYTES`]).
    pub fn with_endgame(mut self, bytes: u64) -> Solver {
        self.searcher = self.searcher.with_endgame(bytes);
        self
    }

    /// Endgame database entries computed so far (they are not counted as nodes).
    pub fn endgame_computed(&self) -> u64 {
        self.searcher.endgame_computed()
    }

    /// The exact value of `pos`, or `None` when the node budget ran out first.
    pub fn solve(&mut self, pos: &Position) -> Option<Solution> {
        let player = pos.to_move();
        if let Some(end) = pos.result() {
            let margin = i32::from(end.scores[player.index()])
                - i32::from(end.scores[player.other().index()]);
            return Some(Solution {
                player,
                margin,
                best: None,
                nodes: 0,
            });
        }
        self.searcher.begin(pos.rules(), self.budget);
        let (house, found, _) = self.searcher.deepen(pos, SOLVE_DEPTHS)?;
        if found.horizon {
            return None;
        }
        let value = found.value;
        Some(Solution {
            player,
            margin: store_diff(pos, player) + value,
            best: Some(house),
            nodes: self.searcher.nodes,
        })
    }

    /// The exact final margin (for the player to move) of every legal move of `pos`, in house
    /// order, or `None` when the node budget ran out.
    pub fn solve_moves(&mut self, pos: &Position) -> Option<Vec<(u8, i32)>> {
        self.searcher.begin(pos.rules(), self.budget);
        let base = store_diff(pos, pos.to_move());
        let scores = self.searcher.score_moves(pos, EXACT);
        if self.searcher.aborted {
            return None;
        }
        Some(
            scores
                .into_iter()
                .map(|(h, f)| (h, base + f.value))
                .collect(),
        )
    }
}

/// Solves `pos` exactly with a 2^20-entry table and no node limit (exponential: small boards).
pub fn solve(pos: &Position) -> Solution {
    let mut solver = Solver::new(20, None);
    // Without a budget the search always finishes, so the fallback is never used.
    solver.solve(pos).unwrap_or(Solution {
        player: pos.to_move(),
        margin: 0,
        best: None,
        nodes: 0,
    })
}

/// Plain minimax over every line with no table and no pruning: the final margin for the player to
/// move, or `None` after `max_nodes` positions. Only for checking the solver on tiny boards.
pub fn brute_force(pos: &Position, max_nodes: u64) -> Option<i32> {
    fn future(pos: &Position, nodes: &mut u64, max: u64) -> Option<i32> {
        *nodes += 1;
        if *nodes > max {
            return None;
        }
        let mut best: Option<i32> = None;
        for house in pos.legal_moves() {
            let (next, gain, over) = child(pos, house);
            let v = if over {
                gain
            } else if next.to_move() == pos.to_move() {
                gain + future(&next, nodes, max)?
            } else {
                gain - future(&next, nodes, max)?
            };
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        Some(best.unwrap_or(0))
    }
    if let Some(end) = pos.result() {
        let p = pos.to_move();
        return Some(i32::from(end.scores[p.index()]) - i32::from(end.scores[p.other().index()]));
    }
    let mut nodes = 0;
    Some(store_diff(pos, pos.to_move()) + future(pos, &mut nodes, max_nodes)?)
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} to move: {}", self.player, self.value())?;
        if let Some(h) = self.best {
            write!(f, ", best move hole {h}")?;
        }
        Ok(())
    }
}
