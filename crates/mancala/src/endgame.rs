//! Endgame databases: the exact future gain of every position with few rocks left in the houses.
//!
//! A position's future gain (how many more rocks the player to move will bank than the opponent,
//! `docs/solver.md`) depends only on the houses and on who is to move, so a table indexed by the
//! houses and the side to move holds it for every position with at most `max_rocks` rocks in play,
//! whatever the stores hold. Entries are filled on demand by plain negamax with the table as memo:
//! every move either banks a rock (in play drops) or moves the mover's rocks strictly nearer its
//! own store, so no position repeats and the recursion ends. The table is allocated zeroed (0 means
//! "not known yet"), so the pages the search never touches cost nothing.
//!
//! Houses are ranked in the combinatorial number system: positions with fewer rocks in play come
//! first, then the tuples of equal total in lexicographic order.

use crate::board::Player;
use crate::game::{child, Position};
use crate::rules::Rules;

/// Entries are stored as `value + OFFSET`, never 0 (values are within ±`MAX_TABLE_ROCKS`).
const OFFSET: i32 = 128;

/// The largest table allowed (bytes).
const MAX_TABLE_BYTES: usize = 1 << 30;

/// The most rocks in play a table may cover (values must fit the byte encoding).
pub const MAX_TABLE_ROCKS: u8 = 100;

/// The exact future gain of the positions with at most `max_rocks` rocks in the houses, for one
/// rule set.
pub struct EndgameTable {
    rules: Rules,
    max_rocks: u8,
    /// Houses on the board (both rows).
    slots: usize,
    /// `tuples[k][r]`: how many ways `r` rocks lie in `k` houses, for `k <= slots + 1`.
    tuples: Vec<Vec<u64>>,
    values: Vec<u8>,
    /// Entries computed so far.
    pub computed: u64,
}

impl EndgameTable {
    /// The number of positions (houses and side to move) with at most `max_rocks` rocks in play
    /// on a board of `houses` a side; `None` if it does not fit a `usize`.
    pub fn positions(houses: u8, max_rocks: u8) -> Option<u64> {
        let slots = 2 * u64::from(houses);
        // Tuples of `slots` houses with total <= max_rocks: C(max_rocks + slots, slots).
        let mut c: u128 = 1;
        for i in 1..=slots {
            c = c * u128::from(u64::from(max_rocks) + i) / u128::from(i);
            if c > u128::from(u64::MAX / 2) {
                return None;
            }
        }
        u64::try_from(c * 2).ok()
    }

    /// The largest `max_rocks` whose table has at most `max_entries` entries (one byte each).
    pub fn rocks_within(houses: u8, max_entries: u64) -> u8 {
        let mut k = 0;
        while k < MAX_TABLE_ROCKS {
            match Self::positions(houses, k + 1) {
                Some(n) if n <= max_entries => k += 1,
                _ => break,
            }
        }
        k
    }

    /// A table for `rules` covering positions with at most `max_rocks` rocks in play (no more
    /// than the game has), or `None` when it would take more than 1 GiB.
    pub fn new(rules: Rules, max_rocks: u8) -> Option<EndgameTable> {
        let all = 2 * u16::from(rules.houses()) * u16::from(rules.seeds());
        let max_rocks = max_rocks.min(MAX_TABLE_ROCKS).min(all.min(255) as u8);
        let slots = 2 * usize::from(rules.houses());
        let len = usize::try_from(Self::positions(rules.houses(), max_rocks)?).ok()?;
        let r = usize::from(max_rocks);
        let mut tuples = vec![vec![0u64; r + 1]; slots + 2];
        tuples[0][0] = 1;
        for k in 1..slots + 2 {
            for total in 0..=r {
                // The last house holds 0..=total rocks.
                tuples[k][total] = (0..=total).map(|x| tuples[k - 1][total - x]).sum();
            }
        }
        if len > MAX_TABLE_BYTES {
            return None;
        }
        // Zeroed allocation: pages the search never touches are never written.
        let values = vec![0u8; len];
        Some(EndgameTable {
            rules,
            max_rocks,
            slots,
            tuples,
            values,
            computed: 0,
        })
    }

    /// The rule set the table is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The most rocks in play a position may have to be in the table.
    pub fn max_rocks(&self) -> u8 {
        self.max_rocks
    }

    /// Entry index of `pos` (which must have at most `max_rocks` rocks in play).
    fn index(&self, pos: &Position, total: usize) -> usize {
        let board = pos.board();
        let p1 = board.row(Player::One);
        let p2 = board.row(Player::Two);
        // Tuples with a smaller total come first.
        let mut idx = if total == 0 {
            0
        } else {
            self.tuples[self.slots + 1][total - 1]
        };
        let mut left = total;
        for (i, &h) in p1.iter().chain(p2).enumerate().take(self.slots - 1) {
            let h = usize::from(h);
            // Tuples whose house i holds fewer than h rocks (the rest spread over the later
            // houses): a difference of prefix sums.
            let k = self.slots - i - 1;
            idx += self.tuples[k + 1][left] - self.tuples[k + 1][left - h];
            left -= h;
        }
        (idx as usize) * 2 + usize::from(pos.to_move().number() - 1)
    }

    /// The exact future gain for the player to move, if `pos` has at most `max_rocks` rocks in
    /// play and follows the table's rules.
    pub fn value(&mut self, pos: &Position) -> Option<i32> {
        match self.value_within(pos, u64::MAX) {
            Lookup::Value(v) => Some(v),
            Lookup::NotCovered | Lookup::OverBudget => None,
        }
    }

    /// Like [`EndgameTable::value`], computing at most `budget` new entries; the entries finished
    /// before the budget ran out stay in the table.
    pub fn value_within(&mut self, pos: &Position, budget: u64) -> Lookup {
        if pos.rules() != &self.rules {
            return Lookup::NotCovered;
        }
        let total = in_play(pos);
        if total > usize::from(self.max_rocks) {
            return Lookup::NotCovered;
        }
        let stop = self.computed.saturating_add(budget);
        match self.lookup(pos, total, stop) {
            Some(v) => Lookup::Value(v),
            None => Lookup::OverBudget,
        }
    }

    fn lookup(&mut self, pos: &Position, total: usize, stop: u64) -> Option<i32> {
        let idx = self.index(pos, total);
        let known = self.values[idx];
        if known != 0 {
            return Some(i32::from(known) - OFFSET);
        }
        if self.computed >= stop {
            return None;
        }
        let mut best: Option<i32> = None;
        if !pos.is_over() {
            for house in 1..=self.rules.houses() {
                if pos.board().row(pos.to_move())[usize::from(house) - 1] == 0 {
                    continue;
                }
                let (next, gain, over) = child(pos, house);
                let v = if over {
                    gain
                } else {
                    let rest = self.lookup(&next, in_play(&next), stop)?;
                    if next.to_move() == pos.to_move() {
                        gain + rest
                    } else {
                        gain - rest
                    }
                };
                best = Some(best.map_or(v, |b: i32| b.max(v)));
            }
        }
        let v = best.unwrap_or(0);
        self.values[idx] = (v + OFFSET) as u8;
        self.computed += 1;
        Some(v)
    }
}

/// What [`EndgameTable::value_within`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The exact future gain for the player to move.
    Value(i32),
    /// Too many rocks in play, or other rules.
    NotCovered,
    /// Computing it needed more entries than the budget allowed.
    OverBudget,
}

fn in_play(pos: &Position) -> usize {
    usize::from(pos.board().in_play())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift;
    use crate::solver::brute_force;

    #[test]
    fn sizes() {
        // 12 houses, at most 12 rocks: C(24, 12) tuples, two sides.
        assert_eq!(EndgameTable::positions(6, 12), Some(2 * 2_704_156));
        assert_eq!(EndgameTable::positions(1, 0), Some(2));
        assert_eq!(EndgameTable::rocks_within(6, 16 << 20), 13);
    }

    #[test]
    fn ranks_are_a_bijection_on_a_small_board() {
        let rules = Rules::kalah_standard(2, 3).unwrap();
        let t = EndgameTable::new(rules, 5).unwrap();
        let mut seen = vec![false; t.values.len()];
        for a in 0..=5u8 {
            for b in 0..=5 - a {
                for c in 0..=5 - a - b {
                    for d in 0..=5 - a - b - c {
                        for side in [Player::One, Player::Two] {
                            let pos =
                                Position::from_slots(rules, &[a, b, 0, c, d, 0], side).unwrap();
                            let i = t.index(&pos, usize::from(a + b + c + d));
                            assert!(!seen[i], "index {i} twice");
                            seen[i] = true;
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every index used");
    }

    #[test]
    fn values_match_brute_force() {
        let mut rng = XorShift::new(7);
        for rules in [
            Rules::ti82(3).unwrap(),
            Rules::kalah(3).unwrap(),
            Rules::py_mancala(),
            Rules::kalah_standard(3, 3).unwrap(),
        ] {
            let mut table = EndgameTable::new(rules, 7).unwrap();
            let mut checked = 0;
            for _ in 0..200 {
                // Random play until at most 9 rocks are in play.
                let mut pos = Position::new(rules);
                while !pos.is_over() {
                    let b = pos.board();
                    let left = b.in_play();
                    if left <= 7 && rng.below(3) == 0 {
                        break;
                    }
                    let moves = pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]).unwrap();
                }
                if pos.is_over() {
                    continue;
                }
                let Some(v) = table.value(&pos) else {
                    continue;
                };
                let margin = brute_force(&pos, 20_000_000).expect("small enough");
                let stores = crate::game::store_diff(&pos, pos.to_move());
                assert_eq!(stores + v, margin, "{rules:?} {:?}", pos.board().slots());
                checked += 1;
            }
            assert!(checked > 30, "{checked} positions checked for {rules:?}");
        }
    }
}
