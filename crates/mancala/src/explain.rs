//! Which moves explain a board seen elsewhere: the board list of a linked calculator pulled
//! after its player's turn, or a program's `L1` that jumped by several moves. Used by the
//! conformance driver, the link bot and the front end's commentary.

use crate::board::{Board, Player};
use crate::game::{MoveOutcome, Position};

/// What [`explain`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explained {
    /// The legal moves (in order) that lead to the target.
    Found(Vec<MoveOutcome>),
    /// No sequence of that length does; the nearest one tried (fewest rocks out of place, and
    /// one more for the wrong player to move), if any was.
    NotFound { nearest: Option<Vec<MoveOutcome>> },
    /// The move budget ran out first.
    OutOfBudget,
}

/// The longest sequence [`explain`] searches. The move count comes from outside (a program's
/// `L1(16)`, a peer's board): a bigger one is explained by nothing, before anything is
/// allocated or searched (the search recurses once per move). One player's turn on a
/// TI-82 board holds at most 96 rocks, so 255 moves is beyond any turn or short jump.
pub const MAX_EXPLAINED_MOVES: usize = 255;

/// Searches the legal sequences of exactly `moves` moves from `pos` for one that leaves the
/// board `slots` (in `L1` order) with `next` to move (`None`: the game over). With `one_turn`,
/// every move but the last must give a free turn: the moves of one player's turn. Stores never
/// lose rocks, so a line whose store passes the target's is not followed further. Tries at most
/// `budget` moves.
pub fn explain(
    pos: &Position,
    slots: &[u8],
    next: Option<Player>,
    moves: usize,
    one_turn: bool,
    budget: u64,
) -> Explained {
    let Ok(target) = Board::from_slots(slots) else {
        return Explained::NotFound { nearest: None };
    };
    if moves == 0 || moves > MAX_EXPLAINED_MOVES || target.houses() != pos.rules().houses() {
        return Explained::NotFound { nearest: None };
    }
    let mut walk = Walk {
        target,
        next,
        one_turn,
        budget,
        path: Vec::with_capacity(moves),
        nearest: None,
        found: false,
    };
    walk.go(pos, moves);
    if walk.found {
        Explained::Found(walk.path)
    } else if walk.budget == 0 {
        Explained::OutOfBudget
    } else {
        Explained::NotFound {
            nearest: walk.nearest.map(|(_, m)| m),
        }
    }
}

struct Walk {
    target: Board,
    next: Option<Player>,
    one_turn: bool,
    budget: u64,
    path: Vec<MoveOutcome>,
    nearest: Option<(u32, Vec<MoveOutcome>)>,
    found: bool,
}

impl Walk {
    fn go(&mut self, pos: &Position, left: usize) {
        let mover = pos.to_move();
        for house in pos.legal_moves() {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            let mut after = *pos;
            let Ok(out) = after.play(house) else {
                continue;
            };
            let overshoot = [Player::One, Player::Two]
                .iter()
                .any(|&p| out.board.store(p) > self.target.store(p));
            let continues = out.next == Some(mover) || (!self.one_turn && out.next.is_some());
            self.path.push(out);
            if left == 1 {
                self.leaf();
            } else if continues && !overshoot {
                self.go(&after, left - 1);
            }
            if self.found {
                return;
            }
            self.path.pop();
        }
    }

    fn leaf(&mut self) {
        let Some(last) = self.path.last() else {
            return;
        };
        let rocks: u32 = last
            .board
            .slots()
            .iter()
            .zip(self.target.slots())
            .map(|(&a, &b)| u32::from(a.abs_diff(b)))
            .sum();
        let distance = rocks + u32::from(last.next != self.next);
        if distance == 0 {
            self.found = true;
        } else if !matches!(&self.nearest, Some((best, _)) if *best <= distance) {
            self.nearest = Some((distance, self.path.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn houses(e: &Explained) -> Option<Vec<u8>> {
        match e {
            Explained::Found(m) => Some(m.iter().map(|o| o.house).collect()),
            _ => None,
        }
    }

    #[test]
    fn a_move_count_past_the_bound_is_refused_before_any_allocation() {
        let pos = Position::new(Rules::ti82(4).unwrap());
        let slots = pos.board().slots().to_vec();
        for moves in [MAX_EXPLAINED_MOVES + 1, 10_000_000_000_000, usize::MAX] {
            let e = explain(&pos, &slots, Some(Player::One), moves, false, u64::MAX);
            assert!(
                matches!(e, Explained::NotFound { nearest: None }),
                "{moves}"
            );
        }
    }

    #[test]
    fn a_free_turn_chain_and_its_refusals() {
        let pos = Position::new(Rules::ti82(4).unwrap());
        // Hole 3 with 4 rocks ends in the store: a free turn; then hole 1.
        let mut p = pos;
        p.play(3).unwrap();
        p.play(1).unwrap();
        let slots = p.board().slots().to_vec();
        let found = explain(&pos, &slots, Some(Player::Two), 2, true, 10_000);
        assert_eq!(houses(&found), Some(vec![3, 1]));
        // The wrong number of moves, or the wrong player to move, explains nothing.
        for (n, next) in [(1, Some(Player::Two)), (3, Some(Player::Two)), (2, None)] {
            let e = explain(&pos, &slots, next, n, true, 10_000);
            assert!(
                matches!(e, Explained::NotFound { .. }),
                "{n} {next:?}: {e:?}"
            );
        }
        // A rock conjured into a store: not found, and the nearest line is one rock away.
        let mut bad = slots.clone();
        bad[6] += 1;
        match explain(&pos, &bad, Some(Player::Two), 2, true, 10_000) {
            Explained::NotFound { nearest: Some(m) } => {
                assert_eq!(m.last().unwrap().board.slots(), &slots[..])
            }
            e => panic!("{e:?}"),
        }
        // A budget of one move cannot get there.
        assert_eq!(
            explain(&pos, &slots, Some(Player::Two), 2, true, 1),
            Explained::OutOfBudget
        );
    }

    #[test]
    fn moves_of_both_players_unless_one_turn() {
        let pos = Position::new(Rules::ti82(4).unwrap());
        let mut p = pos;
        p.play(1).unwrap(); // player 1, no free turn
        p.play(1).unwrap(); // player 2
        let slots = p.board().slots().to_vec();
        let e = explain(&pos, &slots, Some(p.to_move()), 2, false, 10_000);
        assert_eq!(houses(&e), Some(vec![1, 1]));
        let e = explain(&pos, &slots, Some(p.to_move()), 2, true, 10_000);
        assert!(matches!(e, Explained::NotFound { .. }), "{e:?}");
    }
}
