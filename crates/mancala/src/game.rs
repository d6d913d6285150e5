//! Positions and moves: who is to move on which board, what a move does.

use std::fmt;

use thiserror::Error;

use crate::board::{first_house_index, store_index, Board, BoardError, Player};
use crate::rules::{CaptureTrigger, EndRule, Rules, SweepRule};

/// A move or a position that the rules do not allow.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The board itself is malformed.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The board's size does not match the rules.
    #[error("the board has {board} houses a side but the rules have {rules}")]
    HousesMismatch {
        /// Houses on the board.
        board: u8,
        /// Houses in the rules.
        rules: u8,
    },
    /// The game is over; nobody moves.
    #[error("the game is over")]
    GameOver,
    /// A house number outside `1..=houses`.
    #[error("there is no house {house}: houses are 1 to {houses}")]
    NoSuchHouse {
        /// The house asked for.
        house: u8,
        /// Houses a side.
        houses: u8,
    },
    /// A house with no rock in it.
    #[error("house {house} is empty")]
    EmptyHouse {
        /// The house asked for.
        house: u8,
    },
    /// A slot that is not one of the mover's houses.
    #[error("slot {slot} is not one of {player}'s houses")]
    NotMoversSlot {
        /// The slot asked for (1-based, as `L1`).
        slot: usize,
        /// The player to move.
        player: Player,
    },
}

/// How a finished game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// One player has more rocks in their store.
    Win {
        /// Who won.
        winner: Player,
        /// By how many rocks.
        margin: u8,
    },
    /// Both stores hold the same number.
    Draw,
}

/// The end of a game: what the sweep moved, the final stores and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Rocks the sweep added to each store (index 0 player 1, 1 player 2).
    pub swept: [u8; 2],
    /// Final stores (index 0 player 1, 1 player 2).
    pub scores: [u8; 2],
    /// Who won, or a draw.
    pub result: GameResult,
}

/// One capture during a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaptureEvent {
    /// The mover's house (1-based, sowing order) the capturing rock landed in.
    pub house: u8,
    /// Its slot (1-based, as `L1`).
    pub slot: usize,
    /// The opponent's house facing it (1-based, the opponent's sowing order).
    pub opposite_house: u8,
    /// Its slot.
    pub opposite_slot: usize,
    /// Rocks taken from the opposite house.
    pub taken: u8,
    /// Whether the capturing rock went to the store too.
    pub with_own_rock: bool,
    /// Whether the capturing rock was the last one sown.
    pub last_rock: bool,
}

impl CaptureEvent {
    /// Rocks that went to the store.
    pub fn total(&self) -> u8 {
        self.taken + u8::from(self.with_own_rock)
    }
}

/// Everything one move did, for a running commentary and for checking another implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// Who moved.
    pub player: Player,
    /// The house played (1-based, the mover's sowing order).
    pub house: u8,
    /// Its slot (1-based, as `L1`).
    pub slot: usize,
    /// Rocks lifted and sown.
    pub rocks: u8,
    /// The slot the last rock landed in.
    pub last_slot: usize,
    /// Captures, in the order they happened (only those that moved a rock).
    pub captures: Vec<CaptureEvent>,
    /// The mover moves again.
    pub free_turn: bool,
    /// Set when the move ended the game.
    pub end: Option<GameEnd>,
    /// The board after the move (after the sweep when the game ended).
    pub board: Board,
    /// Who moves next; `None` when the game is over.
    pub next: Option<Player>,
}

/// A board, the rules it is played under and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    board: Board,
    to_move: Player,
}

/// What [`Position::apply`] reports.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Applied {
    pub rocks: u8,
    pub last_index: usize,
    pub free_turn: bool,
    pub end: Option<GameEnd>,
}

impl Position {
    /// The starting position: the rules' rocks in every house, player 1 to move.
    pub fn new(rules: Rules) -> Position {
        let board = Board::filled(rules.houses(), rules.seeds());
        Position {
            rules,
            board,
            to_move: Player::One,
        }
    }

    /// Any board under any rules with `to_move` to play. A board with an empty row may be over
    /// already (see [`Position::is_over`]).
    pub fn from_board(rules: Rules, board: Board, to_move: Player) -> Result<Position, GameError> {
        if board.houses() != rules.houses() {
            return Err(GameError::HousesMismatch {
                board: board.houses(),
                rules: rules.houses(),
            });
        }
        Ok(Position {
            rules,
            board,
            to_move,
        })
    }

    /// A board given as `L1` slots.
    pub fn from_slots(rules: Rules, slots: &[u8], to_move: Player) -> Result<Position, GameError> {
        Position::from_board(rules, Board::from_slots(slots)?, to_move)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player to move. Once the game is over this is the player who did not make the last
    /// move (so a finished position still says who ended it: `to_move().other()`).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Whether the game is over under the rules' end rule.
    pub fn is_over(&self) -> bool {
        match self.rules.end {
            EndRule::EitherRow => {
                self.board.row_total(Player::One) == 0 || self.board.row_total(Player::Two) == 0
            }
            EndRule::MoverEmpty => self.board.row_total(self.to_move) == 0,
        }
    }

    /// The houses (1-based, sowing order) the player to move may play; empty when the game is
    /// over.
    pub fn legal_moves(&self) -> Vec<u8> {
        if self.is_over() {
            return Vec::new();
        }
        (1..=self.rules.houses())
            .filter(|&k| self.board.row(self.to_move)[usize::from(k) - 1] > 0)
            .collect()
    }

    /// Whether `house` is a legal move.
    pub fn is_legal(&self, house: u8) -> bool {
        self.check(house).is_ok()
    }

    /// When the game is over: the end it comes to (the sweep applied to a copy of the board;
    /// the last move is taken to be the other player's).
    pub fn result(&self) -> Option<GameEnd> {
        if !self.is_over() {
            return None;
        }
        let mut board = self.board;
        Some(finish(&mut board, self.rules.sweep, self.to_move.other()))
    }

    /// Plays `house` (1-based, the mover's sowing order).
    pub fn play(&mut self, house: u8) -> Result<MoveOutcome, GameError> {
        self.check(house)?;
        let player = self.to_move;
        let slot = first_house_index(self.rules.houses(), player) + usize::from(house);
        let mut captures = Vec::new();
        let applied = self.apply(house, &mut |c| captures.push(c));
        Ok(MoveOutcome {
            player,
            house,
            slot,
            rocks: applied.rocks,
            last_slot: applied.last_index + 1,
            captures,
            free_turn: applied.free_turn,
            end: applied.end,
            board: self.board,
            next: applied.end.is_none().then_some(self.to_move),
        })
    }

    /// Plays the house in `slot` (1-based, as `L1`), which must be one of the mover's.
    pub fn play_slot(&mut self, slot: usize) -> Result<MoveOutcome, GameError> {
        match self.board.slot_owner(slot) {
            Some((owner, Some(house))) if owner == self.to_move => self.play(house),
            _ => Err(GameError::NotMoversSlot {
                slot,
                player: self.to_move,
            }),
        }
    }

    fn check(&self, house: u8) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        match self.board.house(self.to_move, house) {
            None => Err(GameError::NoSuchHouse {
                house,
                houses: self.rules.houses(),
            }),
            Some(0) => Err(GameError::EmptyHouse { house }),
            Some(_) => Ok(()),
        }
    }

    /// Plays a legal move (the caller has checked it), reporting captures to `on_capture`.
    pub(crate) fn apply(
        &mut self,
        house: u8,
        on_capture: &mut impl FnMut(CaptureEvent),
    ) -> Applied {
        let houses = self.rules.houses();
        let h = usize::from(houses);
        let n = 2 * h + 2;
        let mover = self.to_move;
        let own_store = store_index(houses, mover);
        let opp_store = store_index(houses, mover.other());
        let first = first_house_index(houses, mover);
        let start = first + usize::from(house) - 1;
        let capture = self.rules.capture;
        let pits = self.board.pits_mut();
        let rocks = pits[start];
        pits[start] = 0;
        let mut i = start;
        for left in (0..rocks).rev() {
            i = if i + 1 == n { 0 } else { i + 1 };
            if i == opp_store {
                i = if i + 1 == n { 0 } else { i + 1 };
            }
            let was_empty = pits[i] == 0;
            pits[i] += 1;
            if !was_empty || i < first || i >= first + h {
                continue;
            }
            let triggered = match capture.trigger {
                CaptureTrigger::EveryDrop => true,
                CaptureTrigger::LastRock => left == 0,
                CaptureTrigger::Never => false,
            };
            if !triggered {
                continue;
            }
            let opp = 2 * h - i;
            let taken = pits[opp];
            if taken == 0 && capture.needs_opposite {
                continue;
            }
            let own = u8::from(capture.takes_capturing_rock);
            pits[opp] = 0;
            pits[i] -= own;
            pits[own_store] += taken + own;
            if taken + own > 0 {
                on_capture(CaptureEvent {
                    house: (i - first + 1) as u8,
                    slot: i + 1,
                    opposite_house: (opp - first_house_index(houses, mover.other()) + 1) as u8,
                    opposite_slot: opp + 1,
                    taken,
                    with_own_rock: capture.takes_capturing_rock,
                    last_rock: left == 0,
                });
            }
        }
        let free = self.rules.free_turn && i == own_store;
        let next = if free { mover } else { mover.other() };
        let over = match self.rules.end {
            EndRule::EitherRow => {
                self.board.row_total(Player::One) == 0 || self.board.row_total(Player::Two) == 0
            }
            EndRule::MoverEmpty => self.board.row_total(next) == 0,
        };
        let end = if over {
            self.to_move = mover.other();
            Some(finish(&mut self.board, self.rules.sweep, mover))
        } else {
            self.to_move = next;
            None
        };
        Applied {
            rocks,
            last_index: i,
            free_turn: free && !over,
            end,
        }
    }
}

/// Sweeps the houses into the stores and scores the game. `last_mover` made the final move.
fn finish(board: &mut Board, sweep: SweepRule, last_mover: Player) -> GameEnd {
    let mut swept = [0u8; 2];
    for p in [Player::One, Player::Two] {
        let taker = match sweep {
            SweepRule::Owner => p,
            SweepRule::Mover => last_mover,
        };
        let rocks = board.row_total(p) as u8;
        let houses = board.houses();
        let start = first_house_index(houses, p);
        let pits = board.pits_mut();
        pits[start..start + usize::from(houses)].fill(0);
        pits[store_index(houses, taker)] += rocks;
        swept[taker.index()] += rocks;
    }
    let scores = [board.store(Player::One), board.store(Player::Two)];
    let result = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => GameResult::Win {
            winner: Player::One,
            margin: scores[0] - scores[1],
        },
        std::cmp::Ordering::Less => GameResult::Win {
            winner: Player::Two,
            margin: scores[1] - scores[0],
        },
        std::cmp::Ordering::Equal => GameResult::Draw,
    };
    GameEnd {
        swept,
        scores,
        result,
    }
}

/// Given the rules, a board, the player to move and the house they play: the move's full outcome
/// (the next board and who moves next are `outcome.board` and `outcome.next`).
pub fn predict(
    rules: Rules,
    board: &Board,
    mover: Player,
    house: u8,
) -> Result<MoveOutcome, GameError> {
    Position::from_board(rules, *board, mover)?.play(house)
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner, margin } => write!(f, "{winner} wins by {margin}"),
            GameResult::Draw => f.write_str("draw"),
        }
    }
}

/// One line of commentary, e.g. `player 1 plays hole 4 (3 rocks); captures 5 from player 2's
/// hole 2; free turn; score 7-2`.
impl fmt::Display for MoveOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rocks = if self.rocks == 1 { "rock" } else { "rocks" };
        write!(
            f,
            "{} plays hole {} ({} {})",
            self.player, self.house, self.rocks, rocks
        )?;
        for c in &self.captures {
            write!(
                f,
                "; captures {} from {}'s hole {}",
                c.taken,
                self.player.other(),
                c.opposite_house
            )?;
            if c.with_own_rock {
                f.write_str(" with the capturing rock")?;
            }
        }
        if self.free_turn {
            f.write_str("; free turn")?;
        }
        write!(
            f,
            "; score {}-{}",
            self.board.store(Player::One),
            self.board.store(Player::Two)
        )?;
        if let Some(end) = &self.end {
            write!(f, "; game over: {}", end.result)?;
        }
        Ok(())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.board.picture())?;
        if self.is_over() {
            f.write_str("game over")
        } else {
            write!(f, "{} to move", self.to_move)
        }
    }
}

// Search helpers shared by the engine, the endgame tables and the solver (here, below all
// three, so none of them imports another for them).

/// The store difference for `player`.
pub(crate) fn store_diff(pos: &Position, player: Player) -> i32 {
    let b = pos.board();
    i32::from(b.store(player)) - i32::from(b.store(player.other()))
}

/// Plays `house` on a copy; returns the child, the mover's gain and whether the game ended.
pub(crate) fn child(pos: &Position, house: u8) -> (Position, i32, bool) {
    let mover = pos.to_move();
    let before = store_diff(pos, mover);
    let mut next = *pos;
    let applied = next.apply(house, &mut |_| {});
    (
        next,
        store_diff(&next, mover) - before,
        applied.end.is_some(),
    )
}
