//! The program editor (PRGM EDIT, PRGM NEW, ERR `1:Goto`): the program's statements one a
//! line, each shown after a `:` and wrapped at the screen's 16 columns, a cursor on a token,
//! overwrite by default and insert after 2nd INS. Leaving with 2nd QUIT keeps the program in
//! the VAT. Texts, keys and what is uncertain: `docs/calculator.md`, "The program editor".

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;

use crate::font;
use crate::os::string_codes;
use crate::screen::SCREEN_BYTES;
use crate::token::NEWLINE;

/// Characters a program name may have (spec §3.9): 1 to 8, a letter or θ first.
pub const NAME_MAX: usize = 8;

/// The largest program the editor builds (the TI-82's RAM could not hold more).
pub const PROGRAM_MAX: usize = 28_000;

/// Text rows the editor shows below its title.
const ROWS: usize = 7;
const COLS: usize = 16;

/// What the editor asks the firmware to do after a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorAction {
    None,
    /// 2nd QUIT: keep the program and go to the home screen.
    Quit,
    /// PRGM NEW's name was typed: open (or create) that program.
    Named,
    /// PRGM NEW's name entry left with CLEAR or 2nd QUIT: nothing created.
    Cancel,
}

/// The editor's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editor {
    /// The program's name (characters).
    pub name: Vec<u8>,
    /// Typing the name of a new program (PRGM NEW), before the editing starts.
    pub naming: bool,
    /// The statements, tokens without the newline.
    pub lines: Vec<Vec<u8>>,
    /// The cursor: a line, and the byte offset of a token in it (at most its length).
    pub line: usize,
    pub pos: usize,
    /// Insert rather than overwrite (2nd INS, until the cursor moves).
    pub insert: bool,
    /// The first text row shown (of all the lines' rows).
    pub top: usize,
}

impl Editor {
    /// Editing program `name` whose tokens are `tokens`, the cursor at byte `offset`.
    pub fn open(name: &[u8], tokens: &[u8], offset: usize) -> Editor {
        let mut lines: Vec<Vec<u8>> = split_lines(tokens);
        if lines.is_empty() {
            lines.push(Vec::new());
        }
        let mut e = Editor {
            name: name.to_vec(),
            naming: false,
            lines,
            line: 0,
            pos: 0,
            insert: false,
            top: 0,
        };
        // The line holding `offset`, the cursor at the first token at or after it.
        let mut start = 0;
        for (i, l) in e.lines.iter().enumerate() {
            if offset <= start + l.len() {
                e.line = i;
                e.pos = snap(l, offset - start);
                break;
            }
            start += l.len() + 1;
            e.line = i;
            e.pos = l.len();
        }
        e.scroll();
        e
    }

    /// PRGM NEW: an empty editor asking for the name.
    pub fn new_program() -> Editor {
        Editor {
            name: Vec::new(),
            naming: true,
            lines: vec![Vec::new()],
            line: 0,
            pos: 0,
            insert: false,
            top: 0,
        }
    }

    /// The program's tokens, the lines joined with newlines.
    pub fn tokens(&self) -> Vec<u8> {
        self.lines.join(&[NEWLINE][..])
    }

    /// The byte offset of the cursor in [`Self::tokens`].
    pub fn offset(&self) -> usize {
        self.lines[..self.line]
            .iter()
            .map(|l| l.len() + 1)
            .sum::<usize>()
            + self.pos
    }

    /// Types `token` at the cursor: inserted in insert mode or at the end of a line, else in
    /// place of the token under the cursor.
    pub fn type_token(&mut self, token: &[u8]) {
        if self.naming {
            // Names are characters: letters, digits and θ (a letter or θ first).
            if let [c] = token {
                let ok = super::program_name_char(*c, self.name.is_empty());
                if ok && self.name.len() < NAME_MAX {
                    self.name.push(*c);
                }
            }
            return;
        }
        if self.tokens().len() + token.len() > PROGRAM_MAX {
            return;
        }
        let line = &mut self.lines[self.line];
        if !self.insert && self.pos < line.len() {
            let end = next(line, self.pos);
            line.splice(self.pos..end, token.iter().copied());
        } else {
            line.splice(self.pos..self.pos, token.iter().copied());
        }
        self.pos += token.len();
        self.scroll();
    }

    /// One key that is not a typing key (`second`: after 2nd).
    pub fn key(&mut self, k: Key, second: bool) -> EditorAction {
        if self.naming {
            return match (second, k) {
                (true, Key::Mode) | (_, Key::Clear) => EditorAction::Cancel,
                (_, Key::Enter) if !self.name.is_empty() => EditorAction::Named,
                (_, Key::Del) => {
                    self.name.pop();
                    EditorAction::None
                }
                _ => EditorAction::None,
            };
        }
        if second {
            match k {
                Key::Mode => return EditorAction::Quit,
                Key::Del => self.insert = true,
                _ => {}
            }
            return EditorAction::None;
        }
        let moves = matches!(k, Key::Left | Key::Right | Key::Up | Key::Down);
        match k {
            Key::Left => {
                if self.pos > 0 {
                    self.pos = prev(&self.lines[self.line], self.pos);
                } else if self.line > 0 {
                    self.line -= 1;
                    self.pos = self.lines[self.line].len();
                }
            }
            Key::Right => {
                let len = self.lines[self.line].len();
                if self.pos < len {
                    self.pos = next(&self.lines[self.line], self.pos);
                } else if self.line + 1 < self.lines.len() {
                    self.line += 1;
                    self.pos = 0;
                }
            }
            Key::Up if self.line > 0 => {
                self.line -= 1;
                self.pos = snap(&self.lines[self.line], self.pos);
            }
            Key::Down if self.line + 1 < self.lines.len() => {
                self.line += 1;
                self.pos = snap(&self.lines[self.line], self.pos);
            }
            // ENTER opens a new, empty line below the cursor's.
            Key::Enter => {
                self.lines.insert(self.line + 1, Vec::new());
                self.line += 1;
                self.pos = 0;
            }
            Key::Del => {
                let line = &mut self.lines[self.line];
                if self.pos < line.len() {
                    let end = next(line, self.pos);
                    line.drain(self.pos..end);
                } else if line.is_empty() && self.lines.len() > 1 {
                    // DEL on an empty line removes it.
                    self.lines.remove(self.line);
                    self.line = self.line.min(self.lines.len() - 1);
                    self.pos = 0;
                }
            }
            Key::Clear => {
                self.lines[self.line].clear();
                self.pos = 0;
            }
            _ => {}
        }
        if moves {
            self.insert = false;
        }
        self.scroll();
        EditorAction::None
    }

    /// Text rows of each line (the `:` and the tokens, 16 cells a row).
    fn line_rows(&self, l: &[u8]) -> usize {
        (1 + string_codes(l).len()) / COLS + 1
    }

    /// The cursor's text row and column among all the lines' rows.
    fn cursor_cell(&self) -> (usize, usize) {
        let row0: usize = self.lines[..self.line]
            .iter()
            .map(|l| self.line_rows(l))
            .sum();
        let before = 1 + string_codes(&self.lines[self.line][..self.pos]).len();
        (row0 + before / COLS, before % COLS)
    }

    /// Keeps the cursor's row on the screen.
    fn scroll(&mut self) {
        let (row, _) = self.cursor_cell();
        if row < self.top {
            self.top = row;
        } else if row >= self.top + ROWS {
            self.top = row + 1 - ROWS;
        }
    }

    /// The editor; the cursor's `glyph` (the home screen's shapes: block, 2nd arrow, ALPHA,
    /// underlined while inserting) over its cell in the first half of its blink, nothing
    /// there (the cell's character shows) in the second.
    pub fn draw(&self, glyph: Option<u8>, img: &mut [u8; SCREEN_BYTES]) {
        let mut title = font::encode("PROGRAM:").unwrap_or_default();
        title.extend(string_codes(&self.name));
        if self.naming {
            font::draw_large(img, 0, 0, &title);
            // The ALPHA cursor after the name being typed.
            let cur = font::encode("Ⓐ").unwrap_or_default();
            font::draw_large(img, 0, 6 * title.len().min(15), &cur);
            return;
        }
        font::draw_large(img, 0, 0, &title[..title.len().min(COLS)]);
        // Every line's cells, wrapped; then the rows in view.
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for l in &self.lines {
            let mut cells = vec![b':'];
            cells.extend(string_codes(l));
            for chunk in cells.chunks(COLS) {
                rows.push(chunk.to_vec());
            }
            if cells.len() % COLS == 0 {
                rows.push(Vec::new());
            }
        }
        for (i, r) in rows.iter().enumerate().skip(self.top).take(ROWS) {
            font::draw_large(img, (i - self.top + 1) * 8, 0, r);
        }
        let (row, col) = self.cursor_cell();
        if let (Some(g), true) = (glyph, row >= self.top && row < self.top + ROWS) {
            font::draw_large(img, (row - self.top + 1) * 8, col * 6, &[g]);
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.bytes(&self.name);
        w.bool(self.naming);
        w.bytes(&self.tokens());
        w.u32(self.offset() as u32);
        w.bool(self.insert);
    }

    /// Restores what [`Self::save`] wrote, the name and sizes checked.
    pub fn load(r: &mut StateReader) -> Result<Editor, StateError> {
        let name = r.bytes()?.to_vec();
        let naming = r.bool()?;
        let tokens = r.bytes()?.to_vec();
        let offset = r.u32()? as usize;
        let insert = r.bool()?;
        if name.len() > NAME_MAX || tokens.len() > PROGRAM_MAX || offset > tokens.len() {
            return Err(StateError::Corrupt("program editor"));
        }
        let mut e = Editor::open(&name, &tokens, offset);
        e.naming = naming;
        e.insert = insert;
        Ok(e)
    }
}

/// The lines of a program (its statements between newlines).
fn split_lines(tokens: &[u8]) -> Vec<Vec<u8>> {
    let mut lines = vec![Vec::new()];
    let mut i = 0;
    while i < tokens.len() {
        let n = token_len(tokens, i);
        if tokens[i] == NEWLINE {
            lines.push(Vec::new());
        } else if let Some(l) = lines.last_mut() {
            l.extend_from_slice(&tokens[i..i + n]);
        }
        i += n;
    }
    lines
}

/// The length of the token at `i` (two bytes after a prefix byte).
pub(crate) fn token_len(line: &[u8], i: usize) -> usize {
    if crate::token::is_prefix(line[i]) && i + 1 < line.len() {
        2
    } else {
        1
    }
}

/// The offset of the token after the one at `pos`.
pub(crate) fn next(line: &[u8], pos: usize) -> usize {
    (pos + token_len(line, pos)).min(line.len())
}

/// The offset of the token before `pos`.
pub(crate) fn prev(line: &[u8], pos: usize) -> usize {
    let mut i = 0;
    let mut last = 0;
    while i < pos {
        last = i;
        i += token_len(line, i);
    }
    last
}

/// The start of the token at or before `pos` (clamped to the line).
pub(crate) fn snap(line: &[u8], pos: usize) -> usize {
    let pos = pos.min(line.len());
    let mut i = 0;
    while i < pos {
        let n = token_len(line, i);
        if i + n > pos {
            break;
        }
        i += n;
    }
    i
}
