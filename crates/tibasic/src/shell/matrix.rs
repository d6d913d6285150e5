//! The matrix editor (MATRX ► EDIT, then a matrix): its dimensions on the top line, typed and
//! confirmed with ENTER, then its elements, three columns and six rows at a time, the cursor
//! moving cell by cell and the view scrolling with it; a value typed on the bottom line after
//! the element's name is evaluated on ENTER. The matrix itself lives in the VAT (the firmware
//! stores every change), so this screen keeps only where the user is. Texts, keys and what is
//! uncertain: `docs/calculator.md`, "MATRX EDIT".

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;

use crate::display::NumFormat;
use crate::font;
use crate::os::number_codes;
use crate::screen::SCREEN_BYTES;
use crate::shell::entry::EntryLine;
use crate::value::Matrix;

/// The largest dimension (rows or columns) of a TI-82 matrix.
pub const DIM_MAX: usize = 99;
/// Element rows and columns on the screen at once, and each column's width in cells [I].
const VIEW_ROWS: usize = 6;
const VIEW_COLS: usize = 3;
const CELL: usize = 5;
/// The longest value typed for an element, in bytes of tokens [I].
pub const VALUE_MAX: usize = 64;

/// Where the editor's cursor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The number of rows (0) or columns (1) on the top line.
    Dim(u8),
    /// An element, 0-based row and column.
    Element(usize, usize),
}

/// What the firmware should do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatrixAction {
    None,
    /// 2nd QUIT or CLEAR: the home screen.
    Quit,
    /// New dimensions confirmed: resize the matrix (kept elements stay, new ones are 0).
    Resize(usize, usize),
    /// A value typed for element (row, column): evaluate these tokens and store it.
    Store(usize, usize, Vec<u8>),
}

/// The editor of matrix `[A]`..`[E]` (`name` 0-4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixEditor {
    pub name: u8,
    /// The dimensions shown: the matrix's, or those being typed.
    pub rows: usize,
    pub cols: usize,
    pub field: Field,
    /// Digits typed for the dimension under the cursor (empty: none yet).
    pub digits: Vec<u8>,
    /// A value being typed for the element under the cursor.
    pub value: Option<EntryLine>,
    /// The first element row and column in view.
    pub top: usize,
    pub left: usize,
}

impl MatrixEditor {
    /// Opens matrix `name` whose dimensions are `dims` (None: not defined yet, shown 1×1 until
    /// dimensions are confirmed [I]); the cursor on the number of rows.
    pub fn open(name: u8, dims: Option<(usize, usize)>) -> MatrixEditor {
        let (rows, cols) = dims.unwrap_or((1, 1));
        MatrixEditor {
            name: name.min(4),
            rows,
            cols,
            field: Field::Dim(0),
            digits: Vec::new(),
            value: None,
            top: 0,
            left: 0,
        }
    }

    /// The matrix's name as the calculator spells it (`[A]`).
    pub fn title(&self) -> String {
        format!("[{}]", char::from(b'A' + self.name))
    }

    /// The element's name on the bottom line, before its value [I].
    fn element_label(&self, r: usize, c: usize) -> String {
        format!("{}({},{})=", self.title(), r + 1, c + 1)
    }

    /// Whether the editor's fields point inside the matrix (for a loaded save state).
    pub fn valid(&self) -> bool {
        let dims_ok = (1..=DIM_MAX).contains(&self.rows) && (1..=DIM_MAX).contains(&self.cols);
        let field_ok = match self.field {
            Field::Dim(f) => f < 2,
            Field::Element(r, c) => r < self.rows && c < self.cols,
        };
        dims_ok
            && field_ok
            && self.name < 5
            && self.digits.len() <= 2
            && self.digits.iter().all(u8::is_ascii_digit)
            && self.top < self.rows
            && self.left < self.cols
            && self.value.as_ref().is_none_or(|v| {
                v.valid() && v.tokens.len() <= VALUE_MAX && matches!(self.field, Field::Element(..))
            })
    }

    /// Whether the cursor is on an element (where a menu may type into its value).
    pub fn on_element(&self) -> bool {
        matches!(self.field, Field::Element(..))
    }

    /// A token a menu chose, typed into the element's value (a new value if none is typed).
    pub fn type_value(&mut self, token: &[u8]) {
        if self.on_element() {
            self.value
                .get_or_insert_with(EntryLine::default)
                .type_token(token, VALUE_MAX);
        }
    }

    /// A key on the dimensions line or with no value being typed (`second`: after 2nd; `typed`:
    /// the token the key types, if any, with its modifier applied).
    pub fn key(&mut self, k: Key, second: bool, typed: Option<&[u8]>) -> MatrixAction {
        if second && k == Key::Mode {
            return MatrixAction::Quit;
        }
        match self.field {
            Field::Dim(f) => self.key_dims(k, f),
            Field::Element(r, c) => self.key_element(k, r, c, typed),
        }
    }

    fn key_dims(&mut self, k: Key, f: u8) -> MatrixAction {
        if let Some(d) = super::digit_char(k) {
            if self.digits.len() < 2 {
                self.digits.push(d);
            }
            return MatrixAction::None;
        }
        match k {
            Key::Clear => MatrixAction::Quit,
            Key::Del => {
                self.digits.pop();
                MatrixAction::None
            }
            Key::Left | Key::Right => {
                self.take_digits(f);
                self.field = Field::Dim(1 - f);
                MatrixAction::None
            }
            // ENTER (or ▼) confirms the number: rows, then columns, then on to the elements
            // with the matrix resized.
            Key::Enter | Key::Down => {
                self.take_digits(f);
                if f == 0 {
                    self.field = Field::Dim(1);
                    MatrixAction::None
                } else {
                    self.field = Field::Element(0, 0);
                    self.top = 0;
                    self.left = 0;
                    MatrixAction::Resize(self.rows, self.cols)
                }
            }
            _ => MatrixAction::None,
        }
    }

    /// The typed number into dimension `f`: 1 to 99, anything else keeps the old one [I].
    fn take_digits(&mut self, f: u8) {
        let n = std::str::from_utf8(&self.digits)
            .ok()
            .and_then(|s| s.parse::<usize>().ok());
        self.digits.clear();
        if let Some(n @ 1..=DIM_MAX) = n {
            if f == 0 {
                self.rows = n;
            } else {
                self.cols = n;
            }
        }
    }

    fn key_element(&mut self, k: Key, r: usize, c: usize, typed: Option<&[u8]>) -> MatrixAction {
        if let Some(value) = &mut self.value {
            // Typing a value: the line's own keys, ENTER stores it and moves on.
            match k {
                Key::Enter => {
                    let tokens = std::mem::take(&mut value.tokens);
                    self.value = None;
                    self.advance(r, c);
                    return MatrixAction::Store(r, c, tokens);
                }
                Key::Clear => value.clear(),
                _ => {}
            }
            return MatrixAction::None;
        }
        if let Some(t) = typed {
            let mut line = EntryLine::default();
            line.type_token(t, VALUE_MAX);
            self.value = Some(line);
            return MatrixAction::None;
        }
        match k {
            Key::Clear => return MatrixAction::Quit,
            Key::Enter => self.advance(r, c),
            // ► and ◄ go on to the next row's first element and back to the previous row's
            // last [I]; ▲ from the first row goes up to the dimensions.
            Key::Right => self.advance(r, c),
            Key::Left => {
                if c > 0 {
                    self.field = Field::Element(r, c - 1);
                } else if r > 0 {
                    self.field = Field::Element(r - 1, self.cols - 1);
                }
            }
            Key::Up => {
                self.field = if r > 0 {
                    Field::Element(r - 1, c)
                } else {
                    Field::Dim(1)
                };
            }
            Key::Down if r + 1 < self.rows => self.field = Field::Element(r + 1, c),
            _ => {}
        }
        self.scroll();
        MatrixAction::None
    }

    /// The cursor to the element after (r, c), row by row; it stays on the last.
    fn advance(&mut self, r: usize, c: usize) {
        if c + 1 < self.cols {
            self.field = Field::Element(r, c + 1);
        } else if r + 1 < self.rows {
            self.field = Field::Element(r + 1, 0);
        }
        self.scroll();
    }

    /// Keeps the cursor's element in view.
    fn scroll(&mut self) {
        if let Field::Element(r, c) = self.field {
            if r < self.top {
                self.top = r;
            } else if r >= self.top + VIEW_ROWS {
                self.top = r + 1 - VIEW_ROWS;
            }
            if c < self.left {
                self.left = c;
            } else if c >= self.left + VIEW_COLS {
                self.left = c + 1 - VIEW_COLS;
            }
        }
    }

    /// The screen: `MATRIX[A] 2 ×3` on the top line (the dimension under the cursor in inverse
    /// video), the elements in view (`[` before the first column, each value right-aligned in
    /// five cells, cut with `…`; the cursor's element in inverse video), and the bottom line:
    /// the element's name and value, or the value being typed with `cursor` after it.
    pub fn draw(
        &self,
        stored: Option<&Matrix>,
        f: NumFormat,
        cursor: u8,
        img: &mut [u8; SCREEN_BYTES],
    ) {
        let codes = |s: &str| super::codes(s);
        let mut col = 0;
        let title = codes(&format!("MATRIX{}", self.title()));
        font::draw_large(img, 0, 0, &title);
        col += title.len();
        for (i, n) in [self.rows, self.cols].into_iter().enumerate() {
            let editing = self.field == Field::Dim(i as u8);
            let text = if editing && !self.digits.is_empty() {
                self.digits.clone()
            } else {
                n.to_string().into_bytes()
            };
            col += 1;
            font::draw_large_with(img, 0, col * 6, &text, editing);
            col += text.len();
            if i == 0 {
                font::draw_large(img, 0, (col + 1) * 6, &codes("×"));
                col += 1;
            }
        }
        let Some(m) = stored.filter(|m| m.data.len() == m.rows * m.cols) else {
            return;
        };
        for vr in 0..VIEW_ROWS.min(m.rows.saturating_sub(self.top)) {
            let r = self.top + vr;
            let y = (vr + 1) * 8;
            if self.left == 0 {
                font::draw_large(img, y, 0, &codes("["));
            }
            for vc in 0..VIEW_COLS.min(m.cols.saturating_sub(self.left)) {
                let c = self.left + vc;
                let mut text = number_codes(m.data[r * m.cols + c], f);
                if text.len() > CELL {
                    text.truncate(CELL - 1);
                    text.push(font::code_for('…').unwrap_or(b'.'));
                }
                let x = (1 + vc * CELL + CELL - text.len()) * 6;
                font::draw_large_with(img, y, x, &text, self.field == Field::Element(r, c));
            }
        }
        if let Field::Element(r, c) = self.field {
            let mut line = codes(&self.element_label(r, c));
            match &self.value {
                Some(v) => {
                    // The cursor on the cell of its token (after the last at the end).
                    let at = line.len() + v.cursor_cells();
                    line.extend(v.codes());
                    if at < line.len() {
                        line[at] = cursor;
                    } else {
                        line.push(cursor);
                    }
                }
                None => {
                    if let Some(x) = m.data.get(r * m.cols + c) {
                        line.extend(number_codes(*x, f));
                    }
                }
            }
            // A long line shows its end [I].
            let shown = &line[line.len().saturating_sub(16)..];
            font::draw_large(img, 56, 0, shown);
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.name);
        w.u32(self.rows as u32);
        w.u32(self.cols as u32);
        match self.field {
            Field::Dim(f) => {
                w.u8(f);
                w.u32(0);
                w.u32(0);
            }
            Field::Element(r, c) => {
                w.u8(2);
                w.u32(r as u32);
                w.u32(c as u32);
            }
        }
        w.bytes(&self.digits);
        match &self.value {
            Some(v) => {
                w.bool(true);
                v.save(w);
            }
            None => w.bool(false),
        }
        w.u32(self.top as u32);
        w.u32(self.left as u32);
    }

    /// Restores what [`Self::save`] wrote, checked.
    pub fn load(r: &mut StateReader) -> Result<MatrixEditor, StateError> {
        let name = r.u8()?;
        let rows = r.u32()? as usize;
        let cols = r.u32()? as usize;
        let (f, er, ec) = (r.u8()?, r.u32()? as usize, r.u32()? as usize);
        let field = match f {
            0 | 1 => Field::Dim(f),
            2 => Field::Element(er, ec),
            _ => return Err(StateError::Corrupt("matrix editor field")),
        };
        let digits = r.bytes()?.to_vec();
        let value = if r.bool()? {
            Some(EntryLine::load(r, 0xFFFF)?)
        } else {
            None
        };
        let e = MatrixEditor {
            name,
            rows,
            cols,
            field,
            digits,
            value,
            top: r.u32()? as usize,
            left: r.u32()? as usize,
        };
        if !e.valid() {
            return Err(StateError::Corrupt("matrix editor"));
        }
        Ok(e)
    }
}
