//! The board: `2H + 2` slots in the TI-82 program's `L1` order.
//!
//! Slots are numbered from 1 as the calculator's list `L1` is: slots `1..=H` are player 1's houses
//! in sowing order, slot `H + 1` player 1's store, slots `H + 2..=2H + 1` player 2's houses in
//! sowing order and slot `2H + 2` player 2's store. House slot `i` faces slot `2H + 2 - i`
//! (for the TI-82's six houses: `i` faces `14 - i`).

use std::fmt;

use thiserror::Error;

use crate::rules::{MAX_HOUSES, MAX_ROCKS};

/// The most slots a board can have.
pub const MAX_SLOTS: usize = 2 * MAX_HOUSES as usize + 2;

/// One of the two players. Player 1 moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player 1: the bottom row, the store on the right.
    One,
    /// Player 2: the top row, the store on the left.
    Two,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player 1, 1 for player 2.
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// 1 or 2.
    pub fn number(self) -> u8 {
        self.index() as u8 + 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// A board that cannot be built from the numbers given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The slot count is not `2H + 2` for `H` in `1..=MAX_HOUSES`.
    #[error("{0} slots: a board has 2H+2 slots for 1 to {MAX_HOUSES} houses a side")]
    Slots(usize),
    /// More rocks than a board holds.
    #[error("{0} rocks on the board: at most {MAX_ROCKS}")]
    TooManyRocks(u32),
    /// The two picture rows do not have the same length.
    #[error("picture rows of {top} and {bottom} numbers: both must be houses + 1 long")]
    Rows {
        /// Numbers in the top row.
        top: usize,
        /// Numbers in the bottom row.
        bottom: usize,
    },
}

/// Rocks in every slot of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    houses: u8,
    /// 0-based: `pits[slot - 1]`; slots past `2H + 2` stay zero.
    pits: [u8; MAX_SLOTS],
}

impl Board {
    /// The starting board: `seeds` in every house, empty stores.
    pub fn initial(houses: u8, seeds: u8) -> Result<Board, BoardError> {
        let h = usize::from(houses);
        let mut slots = vec![seeds; 2 * h + 2];
        slots[h] = 0;
        slots[2 * h + 1] = 0;
        Board::from_slots(&slots)
    }

    /// The starting board for sizes [`Rules`](crate::Rules) has already checked (at most
    /// [`MAX_HOUSES`] houses and [`MAX_ROCKS`] rocks).
    pub(crate) fn filled(houses: u8, seeds: u8) -> Board {
        let h = usize::from(houses.min(MAX_HOUSES));
        let mut pits = [0; MAX_SLOTS];
        pits[..h].fill(seeds);
        pits[h + 1..2 * h + 1].fill(seeds);
        Board {
            houses: h as u8,
            pits,
        }
    }

    /// A board from its slots in `L1` order (`slots[0]` is slot 1).
    pub fn from_slots(slots: &[u8]) -> Result<Board, BoardError> {
        let n = slots.len();
        if n < 4 || n & 1 == 1 || n > MAX_SLOTS {
            return Err(BoardError::Slots(n));
        }
        let total: u32 = slots.iter().map(|&x| u32::from(x)).sum();
        if total > u32::from(MAX_ROCKS) {
            return Err(BoardError::TooManyRocks(total));
        }
        let mut pits = [0; MAX_SLOTS];
        pits[..n].copy_from_slice(slots);
        Ok(Board {
            houses: (n / 2 - 1) as u8,
            pits,
        })
    }

    /// A board from the two rows of the manual's pictures: `top` is player 2's store followed by
    /// player 2's houses from left to right; `bottom` is player 1's houses from left to right
    /// followed by player 1's store.
    pub fn from_picture(top: &[u8], bottom: &[u8]) -> Result<Board, BoardError> {
        if top.len() != bottom.len() {
            return Err(BoardError::Rows {
                top: top.len(),
                bottom: bottom.len(),
            });
        }
        let mut slots: Vec<u8> = bottom.to_vec();
        slots.extend(top.iter().rev());
        Board::from_slots(&slots)
    }

    /// Houses a side.
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// All slots in `L1` order (`slots()[0]` is slot 1).
    pub fn slots(&self) -> &[u8] {
        &self.pits[..2 * usize::from(self.houses) + 2]
    }

    pub(crate) fn pits_mut(&mut self) -> &mut [u8] {
        let n = 2 * usize::from(self.houses) + 2;
        &mut self.pits[..n]
    }

    /// Rocks in a slot (1-based, as `L1`), or `None` past the board.
    pub fn slot(&self, slot: usize) -> Option<u8> {
        slot.checked_sub(1)
            .and_then(|i| self.slots().get(i).copied())
    }

    /// The slot (1-based) of a player's store.
    pub fn store_slot(&self, player: Player) -> usize {
        store_index(self.houses, player) + 1
    }

    /// The slot (1-based) of a player's house `house` (1-based, in sowing order), or `None` when
    /// there is no such house.
    pub fn house_slot(&self, player: Player, house: u8) -> Option<usize> {
        (1..=self.houses)
            .contains(&house)
            .then(|| first_house_index(self.houses, player) + usize::from(house))
    }

    /// Who owns a slot and whether it is a store: `(player, None)` for a store,
    /// `(player, Some(house))` for a house; `None` past the board.
    pub fn slot_owner(&self, slot: usize) -> Option<(Player, Option<u8>)> {
        let h = usize::from(self.houses);
        match slot {
            s if (1..=h).contains(&s) => Some((Player::One, Some(s as u8))),
            s if s == h + 1 => Some((Player::One, None)),
            s if (h + 2..=2 * h + 1).contains(&s) => Some((Player::Two, Some((s - h - 1) as u8))),
            s if s == 2 * h + 2 => Some((Player::Two, None)),
            _ => None,
        }
    }

    /// The slot facing a house slot (`2H + 2 - slot`), or `None` for a store or past the board.
    pub fn opposite_slot(&self, slot: usize) -> Option<usize> {
        match self.slot_owner(slot) {
            Some((_, Some(_))) => Some(2 * usize::from(self.houses) + 2 - slot),
            _ => None,
        }
    }

    /// Rocks in a player's store.
    pub fn store(&self, player: Player) -> u8 {
        self.pits[store_index(self.houses, player)]
    }

    /// Rocks in a player's house (1-based, in sowing order), or `None` when there is no such house.
    pub fn house(&self, player: Player, house: u8) -> Option<u8> {
        self.house_slot(player, house).and_then(|s| self.slot(s))
    }

    /// A player's houses in sowing order.
    pub fn row(&self, player: Player) -> &[u8] {
        let start = first_house_index(self.houses, player);
        &self.pits[start..start + usize::from(self.houses)]
    }

    /// Rocks in a player's houses.
    pub fn row_total(&self, player: Player) -> u16 {
        self.row(player).iter().map(|&x| u16::from(x)).sum()
    }

    /// Rocks still in play: in the houses of both rows.
    pub fn in_play(&self) -> u16 {
        self.row_total(Player::One) + self.row_total(Player::Two)
    }

    /// Every rock on the board, stores included.
    pub fn total(&self) -> u16 {
        self.slots().iter().map(|&x| u16::from(x)).sum()
    }

    /// The board as the manual draws it, two lines:
    /// `|2 2 2 3 1 5 1  |` over `|  3 2 4 3 0 8 1|` (player 2's store top left, player 1's store
    /// bottom right). Numbers wider than one digit widen every column.
    pub fn picture(&self) -> String {
        let width = self
            .slots()
            .iter()
            .map(|x| x.to_string().len())
            .max()
            .unwrap_or(1);
        let cell = |x: u8| format!("{x:>width$}");
        let blank = " ".repeat(width);
        let mut top: Vec<String> = vec![cell(self.store(Player::Two))];
        top.extend(self.row(Player::Two).iter().rev().map(|&x| cell(x)));
        top.push(blank.clone());
        let mut bottom = vec![blank];
        bottom.extend(self.row(Player::One).iter().map(|&x| cell(x)));
        bottom.push(cell(self.store(Player::One)));
        format!("|{}|\n|{}|", top.join(" "), bottom.join(" "))
    }
}

/// `{4,4,4,0,4,4,4,0}`: the slots as a calculator list.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.slots().iter().map(|x| x.to_string()).collect();
        write!(f, "{{{}}}", parts.join(","))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board{self}")
    }
}

/// 0-based index of a player's store.
pub(crate) fn store_index(houses: u8, player: Player) -> usize {
    let h = usize::from(houses);
    match player {
        Player::One => h,
        Player::Two => 2 * h + 1,
    }
}

/// 0-based index of a player's first house (house `k`, 1-based, is at this plus `k - 1`, so its
/// 1-based slot is this plus `k`).
pub(crate) fn first_house_index(houses: u8, player: Player) -> usize {
    match player {
        Player::One => 0,
        Player::Two => usize::from(houses) + 1,
    }
}
