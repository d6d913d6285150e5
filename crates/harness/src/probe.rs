//! The `L1` probe: the Mancala board (and whose turn it is, when the program keeps it) read
//! out of a calculator's RAM through the VAT, whichever firmware runs (spec §7.4).

use tifiles::float::TiFloat;
use tifiles::vat;

/// `L1` as a board: 14 slots (layout in `docs/mancala-programs.md`) and, if `L1` has a 15th
/// element, the player to move (0 once the game is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardProbe {
    pub board: Vec<u8>,
    pub turn: Option<u8>,
}

fn small(f: TiFloat) -> Option<u8> {
    f.to_i64().and_then(|v| u8::try_from(v).ok())
}

/// Reads `L1` from a 32 KiB RAM slice. `None` if it does not exist or is not a board (fewer
/// than 14 elements, or an element that is not a whole number of rocks).
pub fn read_board(ram: &[u8]) -> Option<BoardProbe> {
    let l1 = vat::read_list(ram, 1).ok()??;
    if l1.len() < 14 {
        return None;
    }
    let board = l1[..14]
        .iter()
        .map(|&f| small(f))
        .collect::<Option<Vec<u8>>>()?;
    let turn = l1.get(14).and_then(|&f| small(f));
    Some(BoardProbe { board, turn })
}

/// `L1(16)`, the number of moves played, when `L1` has a 16th element that is a whole number
/// (MANCALA keeps -1 there on a calculator still connecting).
pub fn read_moves(ram: &[u8]) -> Option<i64> {
    let l1 = vat::read_list(ram, 1).ok()??;
    l1.get(15).and_then(|f| f.to_i64())
}

/// `L1`'s data bytes as they sit in RAM (size word and elements), without decoding them:
/// two equal readings hold the same board, so a harness waiting for `L1` to change or to stay
/// still compares these.
pub fn board_bytes(ram: &[u8]) -> Option<&[u8]> {
    let name = tifiles::var::VarName::list(1)?;
    let e = vat::find(ram, tifiles::var::VarType::List, &name).ok()??;
    vat::data_bytes(ram, &e).ok()
}
