//! The entry line of the home screen and of a program's `Input`/`Prompt`: tokens with a cursor
//! on one of them, overwrite by default and insert after 2nd INS, moving a token at a time
//! along the line and a screen row (16 cells) at a time up and down; wrapped at the screen's
//! edge. And the ENTRY storage that 2nd ENTRY recalls. Texts, keys and what is uncertain:
//! `docs/calculator.md`, "The home screen's entry line".

use crate::os::string_codes;
use crate::screen::{COLS, ROWS};

use super::editor::{next, prev, snap};

/// Bytes of tokens the ENTRY storage keeps: earlier entries are dropped while the entries
/// together take more (the TI-83 Guidebook's 128 bytes, taken for the TI-82 [I]).
pub const ENTRY_STORAGE: usize = 128;

/// The cursor glyphs of the large font (spec §8.4): solid block, 2nd arrow, ALPHA `A`, each
/// also underlined (insert mode), and the checkerboard of a full line.
pub const CURSOR_BLOCK: u8 = 0xD9;
pub const CURSOR_SECOND: u8 = 0xDA;
pub const CURSOR_ALPHA: u8 = 0xDB;
pub const CURSOR_INSERT: u8 = 0xDD;
pub const CURSOR_SECOND_INSERT: u8 = 0xDE;
pub const CURSOR_ALPHA_INSERT: u8 = 0xDF;
pub const CURSOR_FULL: u8 = 0xE1;

/// An entry line being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryLine {
    /// The tokens.
    pub tokens: Vec<u8>,
    /// The cursor: the byte offset of the token it is on (the length at the end).
    pub pos: usize,
    /// Insert rather than overwrite (2nd INS, until the cursor moves or 2nd INS again).
    pub insert: bool,
}

impl EntryLine {
    /// Writes the line into a save state (tokens, cursor, insert mode).
    pub fn save(&self, w: &mut ti82_machine::state::StateWriter) {
        w.bytes(&self.tokens);
        w.u32(self.pos as u32);
        w.bool(self.insert);
    }

    /// Reads what [`Self::save`] wrote: at most `limit` bytes, the cursor on a token.
    pub fn load(
        r: &mut ti82_machine::state::StateReader,
        limit: usize,
    ) -> Result<EntryLine, ti82_machine::state::StateError> {
        let e = EntryLine {
            tokens: r.bytes()?.to_vec(),
            pos: r.u32()? as usize,
            insert: r.bool()?,
        };
        if e.tokens.len() > limit || !e.valid() {
            return Err(ti82_machine::state::StateError::Corrupt(
                "a line being typed",
            ));
        }
        Ok(e)
    }

    /// A line holding `tokens`, the cursor after them.
    pub fn with(tokens: &[u8]) -> EntryLine {
        EntryLine {
            tokens: tokens.to_vec(),
            pos: tokens.len(),
            insert: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Empties the line (CLEAR).
    pub fn clear(&mut self) {
        *self = EntryLine::default();
    }

    /// Whether a cursor position is where [`Self::load`] may put it: inside the line, on a
    /// token's first byte.
    pub fn valid(&self) -> bool {
        self.pos <= self.tokens.len() && snap(&self.tokens, self.pos) == self.pos
    }

    /// Types `token` (one token, or several pasted from a menu) at the cursor: in insert mode
    /// or at the end of the line it goes in before the cursor, else it replaces the token
    /// under the cursor. Nothing is typed when the line would pass `limit` bytes; returns
    /// whether it was.
    pub fn type_token(&mut self, token: &[u8], limit: usize) -> bool {
        let end = if self.insert || self.pos >= self.tokens.len() {
            self.pos
        } else {
            next(&self.tokens, self.pos)
        };
        if self.tokens.len() - (end - self.pos) + token.len() > limit {
            return false;
        }
        self.tokens.splice(self.pos..end, token.iter().copied());
        self.pos += token.len();
        true
    }

    /// DEL: deletes the token under the cursor (nothing at the end of the line).
    pub fn delete(&mut self) {
        if self.pos < self.tokens.len() {
            let end = next(&self.tokens, self.pos);
            self.tokens.drain(self.pos..end);
        }
    }

    /// ◄: one token back.
    pub fn left(&mut self) {
        self.pos = prev(&self.tokens, self.pos);
        self.insert = false;
    }

    /// ►: one token on (the cursor stops after the last).
    pub fn right(&mut self) {
        if self.pos < self.tokens.len() {
            self.pos = next(&self.tokens, self.pos);
        }
        self.insert = false;
    }

    /// 2nd ◄ and 2nd ►: to the line's start or end.
    pub fn to_start(&mut self) {
        self.pos = 0;
        self.insert = false;
    }

    pub fn to_end(&mut self) {
        self.pos = self.tokens.len();
        self.insert = false;
    }

    /// ▲ (`up`) or ▼: one screen row (16 cells) back or on, to the token covering that cell;
    /// from the first row ▲ goes to the start, from the last ▼ to the end.
    pub fn row(&mut self, up: bool) {
        let at = self.cursor_cells();
        let target = if up {
            at.checked_sub(COLS)
        } else {
            Some(at + COLS)
        };
        self.pos = match target {
            None => 0,
            Some(t) => self.token_at_cell(t),
        };
        self.insert = false;
    }

    /// The token covering cell `t` of the line (the end past the last cell).
    fn token_at_cell(&self, t: usize) -> usize {
        let mut i = 0;
        let mut cell = 0;
        while i < self.tokens.len() {
            let n = next(&self.tokens, i);
            let w = string_codes(&self.tokens[i..n]).len();
            if t < cell + w {
                return i;
            }
            cell += w;
            i = n;
        }
        self.tokens.len()
    }

    /// The display characters of the line.
    pub fn codes(&self) -> Vec<u8> {
        string_codes(&self.tokens)
    }

    /// Cells before the cursor.
    pub fn cursor_cells(&self) -> usize {
        string_codes(&self.tokens[..self.pos]).len()
    }
}

/// Where an entry line starting at (`row`, `col`) of the home screen shows: `hidden` rows of
/// it are above the screen (a line longer than the screen shows the 8 rows that hold the
/// cursor), and the cursor's row and column on the screen. `len` is the line's cells, `cur`
/// the cells before the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hidden: usize,
    pub cursor: (usize, usize),
}

pub fn layout(row: usize, col: usize, cur: usize) -> Layout {
    let at = row * COLS + col + cur;
    let hidden = (at / COLS).saturating_sub(ROWS - 1);
    Layout {
        hidden,
        cursor: (at / COLS - hidden, at % COLS),
    }
}

/// Screen rows a line of `len` cells with the cursor after `cur` cells takes from column
/// `col` (the cursor's own cell counts: a full row puts the cursor on the next).
pub fn rows_needed(col: usize, len: usize, cur: usize) -> usize {
    (col + len.max(cur + 1)).div_ceil(COLS)
}

/// The ENTRY storage: the last entries, newest first, as many as fit in [`ENTRY_STORAGE`]
/// bytes (the newest is kept even when it alone is longer), and which one the next 2nd ENTRY
/// recalls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryStack {
    pub entries: Vec<Vec<u8>>,
    pub recall: usize,
}

impl EntryStack {
    /// ENTER: `tokens` becomes the newest entry; the next 2nd ENTRY recalls it.
    pub fn push(&mut self, tokens: &[u8]) {
        self.entries.insert(0, tokens.to_vec());
        let mut total = 0;
        let keep = self
            .entries
            .iter()
            .take_while(|e| {
                total += e.len();
                total <= ENTRY_STORAGE
            })
            .count()
            .max(1);
        self.entries.truncate(keep);
        self.recall = 0;
    }

    /// The newest entry (ENTER on an empty line runs it again).
    pub fn last(&self) -> Option<&[u8]> {
        self.entries.first().map(|e| e.as_slice())
    }

    /// 2nd ENTRY: the next older entry, back to the newest after the oldest.
    pub fn recall(&mut self) -> Option<Vec<u8>> {
        if self.entries.is_empty() {
            return None;
        }
        let i = self.recall % self.entries.len();
        self.recall = (i + 1) % self.entries.len();
        Some(self.entries[i].clone())
    }

    /// Whether the storage keeps its own rules (for a loaded state).
    pub fn valid(&self) -> bool {
        let total: usize = self.entries.iter().map(|e| e.len()).sum();
        (self.entries.len() <= 1 || total <= ENTRY_STORAGE)
            && self.entries.iter().all(|e| e.len() <= 1024)
            && self.recall <= self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_keeps_what_fits_in_128_bytes() {
        let mut s = EntryStack::default();
        for i in 0..20u8 {
            s.push(&[b'0' + i % 10; 10]);
        }
        assert_eq!(s.entries.len(), 12);
        s.push(&[b'1'; 200]);
        assert_eq!(s.entries.len(), 1, "a long entry is kept alone");
    }

    #[test]
    fn layout_keeps_the_cursor_on_the_screen() {
        assert_eq!(layout(7, 0, 3).cursor, (7, 3));
        assert_eq!(
            layout(0, 0, 16 * 9 + 2),
            Layout {
                hidden: 2,
                cursor: (7, 2)
            }
        );
        assert_eq!(rows_needed(0, 16, 16), 2);
        assert_eq!(rows_needed(3, 10, 2), 1);
    }
}
