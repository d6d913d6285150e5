//! The statistics list editor (STAT › EDIT › `1:Edit…`): the lists L1-L6 side by side, three
//! columns at a time, one element a row, the element under the cursor in inverse video and
//! written out in full on the bottom line (`L1(3)=2.5`). Typing a value replaces that line
//! with what is typed; ENTER stores it in the element (one past the end appends), DEL removes
//! the element, 2nd INS inserts a 0 before it, and on a list's name CLEAR ENTER clears the
//! list. What the TI-82 Guidebook describes and what is decided here: `docs/calculator.md`,
//! "STAT".

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;

use crate::display::{real_text, NumFormat};
use crate::font;
use crate::real::Real;
use crate::screen::SCREEN_BYTES;

use super::codes;

/// The lists the editor shows (L1-L6; index 0 is L1).
pub const LISTS: u8 = 6;
/// Columns on the screen at once.
const SHOWN: u8 = 3;
/// Element rows on the screen (text rows 1-6; row 0 has the names, row 7 the entry line).
const ROWS: usize = 6;
/// The token of `L1`-`L6` (`5D`, then the list's number from 0).
const LIST_TOKEN: u8 = 0x5D;
/// A list holds at most 99 elements (spec 3.3).
pub const MAX_ELEMENTS: usize = crate::value::MAX_LIST;
use super::COLUMN_PX;

/// The cursor and what is being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListEditor {
    /// The list under the cursor (0 = L1).
    pub list: u8,
    /// The first list shown (the columns scroll to keep the cursor's in view).
    pub left: u8,
    /// The element under the cursor, from 1; 0 is the list's name at the top.
    pub row: usize,
    /// The first element shown.
    pub top: usize,
    /// The tokens typed on the bottom line, while a value is being typed.
    pub entry: Option<Vec<u8>>,
}

/// What a key asks the firmware to do (it owns the lists and evaluates what was typed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListAction {
    None,
    /// Store the value of these tokens as element `row` of `list` (one past the end
    /// appends), then move down.
    Store {
        list: u8,
        row: usize,
        tokens: Vec<u8>,
    },
    /// Remove element `row` of `list`.
    Delete {
        list: u8,
        row: usize,
    },
    /// Insert a 0 before element `row` of `list`.
    Insert {
        list: u8,
        row: usize,
    },
    /// Make `list` empty.
    Clear {
        list: u8,
    },
    /// Back to the home screen.
    Quit,
}

impl Default for ListEditor {
    fn default() -> Self {
        Self::new()
    }
}

impl ListEditor {
    /// The editor as `1:Edit…` opens it: on L1's first element.
    pub fn new() -> ListEditor {
        ListEditor {
            list: 0,
            left: 0,
            row: 1,
            top: 1,
            entry: None,
        }
    }

    /// The last row the cursor may reach in a list of `len` elements: one past the end
    /// (where typing appends) while the list has room.
    fn last_row(len: usize) -> usize {
        if len < MAX_ELEMENTS {
            len + 1
        } else {
            len
        }
    }

    /// Keeps the cursor inside the list of `len` elements and on the screen.
    pub fn clamp(&mut self, len: usize) {
        self.list = self.list.min(LISTS - 1);
        self.row = self.row.min(Self::last_row(len));
        self.left = self.left.min(LISTS - SHOWN);
        if self.list < self.left {
            self.left = self.list;
        } else if self.list >= self.left + SHOWN {
            self.left = self.list + 1 - SHOWN;
        }
        self.top = self.top.clamp(1, Self::last_row(len).max(1));
        if self.row >= 1 && self.row < self.top {
            self.top = self.row;
        } else if self.row >= self.top + ROWS {
            self.top = self.row + 1 - ROWS;
        }
    }

    /// One key. `lens` are the six lists' lengths; `typed` is the token a key types (with
    /// 2nd/ALPHA already applied), if any; `second` whether 2nd was pending.
    /// A token typed (by a key or from a menu): on an element it starts or goes on with a
    /// new value (up to 100 bytes); on a list's name it does nothing.
    pub fn type_token(&mut self, t: &[u8]) {
        if self.row == 0 {
            return;
        }
        let entry = self.entry.get_or_insert_with(Vec::new);
        if entry.len() + t.len() <= 100 {
            entry.extend_from_slice(t);
        }
    }

    pub fn key(
        &mut self,
        k: Key,
        second: bool,
        typed: Option<&[u8]>,
        lens: &[usize; LISTS as usize],
    ) -> ListAction {
        let len = lens[usize::from(self.list.min(LISTS - 1))];
        self.clamp(len);
        if second && k == Key::Mode {
            return ListAction::Quit;
        }
        if second && k == Key::Del {
            // 2nd INS: a 0 before the element (not on the name, not past a full list).
            self.entry = None;
            if self.row >= 1 && self.row <= len && len < MAX_ELEMENTS {
                return ListAction::Insert {
                    list: self.list,
                    row: self.row,
                };
            }
            return ListAction::None;
        }
        match k {
            Key::Enter => {
                let (list, row) = (self.list, self.row);
                match self.entry.take() {
                    // CLEAR ENTER on the name: the list becomes empty.
                    Some(t) if row == 0 && t.is_empty() => return ListAction::Clear { list },
                    Some(t) if row >= 1 && !t.is_empty() => {
                        return ListAction::Store {
                            list,
                            row,
                            tokens: t,
                        }
                    }
                    _ => self.move_down(len),
                }
            }
            Key::Clear => self.entry = Some(Vec::new()),
            Key::Del => match &mut self.entry {
                Some(t) => t.truncate(super::editor::prev(t, t.len())),
                None if self.row >= 1 && self.row <= len => {
                    return ListAction::Delete {
                        list: self.list,
                        row: self.row,
                    }
                }
                None => {}
            },
            Key::Up => {
                self.entry = None;
                self.row = self.row.saturating_sub(1);
            }
            Key::Down => {
                self.entry = None;
                self.move_down(len);
            }
            Key::Left | Key::Right => {
                self.entry = None;
                let next = if k == Key::Left {
                    self.list.checked_sub(1)
                } else {
                    Some(self.list + 1).filter(|&l| l < LISTS)
                };
                if let Some(l) = next {
                    self.list = l;
                    self.clamp(lens[usize::from(l)]);
                }
            }
            _ => {
                if let Some(t) = typed {
                    self.type_token(t);
                }
            }
        }
        self.clamp(len);
        ListAction::None
    }

    fn move_down(&mut self, len: usize) {
        self.row = (self.row + 1).min(Self::last_row(len));
    }

    /// After a value was stored: the cursor moves to the next element.
    pub fn stored(&mut self, len: usize) {
        self.entry = None;
        self.move_down(len);
        self.clamp(len);
    }

    /// The screen: the names on top, six elements a column, the bottom line.
    pub fn draw(
        &self,
        lists: &[Vec<Real>; LISTS as usize],
        f: NumFormat,
        img: &mut [u8; SCREEN_BYTES],
    ) {
        for c in 0..SHOWN {
            let l = self.left + c;
            let x = usize::from(c) * COLUMN_PX;
            let on_name = l == self.list && self.row == 0;
            // The name over its column, from its second cell (about centred) [I].
            font::draw_large_with(img, 0, x + 6, &list_name(l), on_name);
            let items = &lists[usize::from(l)];
            for r in 0..ROWS {
                let i = self.top + r;
                let y = 8 * (r + 1);
                let text = items.get(i - 1).map_or(String::new(), |v| real_text(*v, f));
                let selected = l == self.list && i == self.row;
                // Right-aligned in the column; the cursor's cell inverted across the column.
                font::draw_large_with(img, y, x, &super::column_cell(&text), selected);
            }
        }
        super::column_rules(img);
        let line = self.bottom_line(lists, f);
        font::draw_large(img, 56, 0, &line[..line.len().min(16)]);
    }

    /// `L1(3)=value` for an element, `L1=` and the typed value while typing, `L1={…` on the
    /// name: the list itself, cut at the screen's edge.
    fn bottom_line(&self, lists: &[Vec<Real>; LISTS as usize], f: NumFormat) -> Vec<u8> {
        let l = usize::from(self.list.min(LISTS - 1));
        let items = &lists[l];
        let mut line = list_name(l as u8);
        if self.row >= 1 {
            line.extend(codes(&format!("({})", self.row)));
        }
        line.push(b'=');
        match &self.entry {
            Some(t) => {
                // The end of a long entry, so the cursor stays in view.
                let typed = crate::os::string_codes(t);
                let room = 15usize.saturating_sub(line.len());
                line.extend_from_slice(&typed[typed.len().saturating_sub(room)..]);
            }
            None if self.row == 0 => {
                let text: Vec<String> = items.iter().map(|v| real_text(*v, f)).collect();
                line.extend(codes(&format!("{{{}", text.join(","))));
            }
            None => {
                if let Some(v) = items.get(self.row - 1) {
                    line.extend(codes(&real_text(*v, f)));
                }
            }
        }
        line
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.list);
        w.u8(self.left);
        w.u32(self.row as u32);
        w.u32(self.top as u32);
        match &self.entry {
            Some(t) => {
                w.bool(true);
                w.bytes(t);
            }
            None => w.bool(false),
        }
    }

    /// Restores what [`Self::save`] wrote, every field checked.
    pub fn load(r: &mut StateReader) -> Result<ListEditor, StateError> {
        let (list, left) = (r.u8()?, r.u8()?);
        let (row, top) = (r.u32()? as usize, r.u32()? as usize);
        let entry = if r.bool()? {
            Some(r.bytes()?.to_vec())
        } else {
            None
        };
        let ok = list < LISTS
            && left <= LISTS - SHOWN
            && list >= left
            && list < left + SHOWN
            && row <= MAX_ELEMENTS
            && (1..=MAX_ELEMENTS).contains(&top)
            && entry.as_ref().is_none_or(|t| t.len() <= 100);
        if !ok {
            return Err(StateError::Corrupt("list editor"));
        }
        Ok(ListEditor {
            list,
            left,
            row,
            top,
            entry,
        })
    }
}

/// A list's name as its token shows it (`L₁`).
fn list_name(l: u8) -> Vec<u8> {
    crate::os::string_codes(&[LIST_TOKEN, l])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reload(bytes: &[u8]) -> Result<ListEditor, StateError> {
        ListEditor::load(&mut StateReader::new(bytes))
    }

    #[test]
    fn a_saved_editor_loads_back_and_a_damaged_one_is_refused() {
        let ed = ListEditor {
            list: 4,
            left: 3,
            row: 12,
            top: 7,
            entry: Some(vec![0x31, 0x70]),
        };
        let mut w = StateWriter::default();
        ed.save(&mut w);
        let bytes = w.0;
        assert_eq!(reload(&bytes).ok(), Some(ed));
        // L7 does not exist; L5 outside the columns L1-L3; no element 0 at the top.
        for (at, value) in [(0, 6u8), (1, 0), (6, 0)] {
            let mut bad = bytes.clone();
            bad[at] = value;
            assert!(reload(&bad).is_err(), "byte {at} = {value}");
        }
    }

    #[test]
    fn the_cursor_stops_at_the_ends() {
        let mut ed = ListEditor::new();
        let lens = [3, 0, 0, 0, 0, 99];
        for _ in 0..10 {
            ed.key(Key::Down, false, None, &lens);
        }
        // One past the last of three elements.
        assert_eq!(ed.row, 4);
        for _ in 0..10 {
            ed.key(Key::Right, false, None, &lens);
        }
        // L6 is full: no row past its 99th element, and L2-L5 (empty) clamped the row to 1.
        assert_eq!((ed.list, ed.left, ed.row), (5, 3, 1));
        for _ in 0..200 {
            ed.key(Key::Down, false, None, &lens);
        }
        assert_eq!(ed.row, 99);
        assert_eq!(ed.top, 94);
        // 2nd INS in a full list does nothing.
        assert_eq!(ed.key(Key::Del, true, None, &lens), ListAction::None);
    }
}
