//! The table screen (`DispTable`, TABLE): `X` and up to two functions in columns like the
//! list editor's, six rows. On the TABLE screen a cursor sits on a cell (the TI-82
//! Guidebook's chapter on tables): the bottom line writes out the cell's value, X values are
//! typed into the X column with IndpntAsk, and with DependAsk a function's cell stays blank
//! until ENTER asks for it.

use ti82_machine::state::{StateError, StateReader, StateWriter};

use super::entry::EntryLine;
use crate::display::{real_text, NumFormat};
use crate::font;
use crate::screen::SCREEN_BYTES;
use crate::table::{TableData, FUNCTION_COLUMNS, ROWS};

use super::{codes, column_cell as cell, column_rules, COLUMN_PX};

/// A value typed into the X column: as long as a window value may be.
pub const X_ENTRY_MAX: usize = 100;

/// `DispTable`'s table (no cursor); with `depend_ask`, the functions' cells blank.
pub fn draw(t: &TableData, f: NumFormat, depend_ask: bool, img: &mut [u8; SCREEN_BYTES]) {
    draw_cells(t, f, &|_, _| depend_ask, None, img);
    if let Some(x) = t.xs.first() {
        let mut line = codes("X=");
        line.extend(codes(&real_text(*x, f)));
        font::draw_large(img, 56, 0, &line[..line.len().min(16)]);
    }
}

/// The headers, the rules and the cells (`hidden(row, column)` leaves a function's cell
/// blank); the cell at `cursor` (screen row, column) in inverse video.
fn draw_cells(
    t: &TableData,
    f: NumFormat,
    hidden: &dyn Fn(usize, usize) -> bool,
    cursor: Option<(usize, usize)>,
    img: &mut [u8; SCREEN_BYTES],
) {
    let mut headers = vec![codes("X")];
    for k in &t.functions {
        headers.push(crate::os::string_codes(&[
            crate::token::PREFIX_EQUATION,
            *k,
        ]));
    }
    for (c, h) in headers.iter().enumerate() {
        font::draw_large(img, 0, c * COLUMN_PX + 6, h);
    }
    column_rules(img);
    for r in 0..ROWS {
        let y = 8 * (r + 1);
        for c in 0..=t.functions.len() {
            let text = match (t.xs.get(r), c) {
                (Some(x), 0) => real_text(*x, f),
                (Some(_), _) if hidden(r, c) => String::new(),
                (Some(_), _) => match t.ys[r][c - 1] {
                    Some(v) => real_text(v, f),
                    None => "ERROR".to_string(),
                },
                (None, _) => String::new(),
            };
            let inverse = cursor == Some((r, c));
            font::draw_large_with(img, y, c * COLUMN_PX, &cell(&text), inverse);
        }
    }
}

/// The TABLE screen: the table and its cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableScreen {
    pub data: TableData,
    /// The cursor's screen row (0-5) and column (0 X, 1-2 a function).
    pub row: usize,
    pub col: usize,
    /// The first selected function shown (► past the last column brings in the next).
    pub fn_first: usize,
    /// A value being typed into the X column (IndpntAsk).
    pub entry: Option<EntryLine>,
    /// DependAsk: the cells asked for with ENTER (table row, function's token byte).
    pub asked: Vec<(i64, u8)>,
}

impl TableScreen {
    pub fn new(data: TableData) -> TableScreen {
        TableScreen {
            data,
            row: 0,
            col: 0,
            fn_first: 0,
            entry: None,
            asked: Vec::new(),
        }
    }

    /// Whether a function's cell at screen row `r`, column `c` is blank (DependAsk, not
    /// asked for).
    fn hidden(&self, depend_ask: bool, r: usize, c: usize) -> bool {
        let Some(&k) = self.data.functions.get(c.wrapping_sub(1)) else {
            return false;
        };
        depend_ask && !self.asked.contains(&(self.data.first + r as i64, k))
    }

    /// Asks for the cell under the cursor (DependAsk's ENTER).
    pub fn ask(&mut self) {
        if let Some(&k) = self.data.functions.get(self.col.wrapping_sub(1)) {
            let at = (self.data.first + self.row as i64, k);
            if !self.asked.contains(&at) && self.asked.len() < 1000 {
                self.asked.push(at);
            }
        }
    }

    pub fn draw(
        &self,
        f: NumFormat,
        depend_ask: bool,
        glyph: Option<u8>,
        img: &mut [u8; SCREEN_BYTES],
    ) {
        let hidden = |r: usize, c: usize| self.hidden(depend_ask, r, c);
        draw_cells(&self.data, f, &hidden, Some((self.row, self.col)), img);
        // The bottom line: the cell's name and its value in full, or what is typed.
        let mut line = match self.col {
            0 => codes("X="),
            c => {
                let k = self.data.functions.get(c - 1).copied().unwrap_or(0x10);
                let mut l = crate::os::string_codes(&[crate::token::PREFIX_EQUATION, k]);
                l.push(b'=');
                l
            }
        };
        let start = line.len();
        if let Some(e) = &self.entry {
            line.extend(e.codes());
        } else if let Some(x) = self.data.xs.get(self.row) {
            let text = match self.col {
                0 => Some(real_text(*x, f)),
                _ if self.hidden(depend_ask, self.row, self.col) => None,
                c => Some(match self.data.ys[self.row].get(c - 1).copied().flatten() {
                    Some(v) => real_text(v, f),
                    None => "ERROR".to_string(),
                }),
            };
            if let Some(t) = text {
                line.extend(codes(&t));
            }
        }
        font::draw_large(img, 56, 0, &line[..line.len().min(16)]);
        if let (Some(e), Some(g)) = (&self.entry, glyph) {
            let at = start + e.cursor_cells();
            if at < 16 {
                font::draw_large(img, 56, 6 * at, &[g]);
            }
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        self.data.save(w);
        w.u8(self.row as u8);
        w.u8(self.col as u8);
        w.u8(self.fn_first as u8);
        match &self.entry {
            Some(e) => {
                w.bool(true);
                e.save(w);
            }
            None => w.bool(false),
        }
        w.u32(self.asked.len() as u32);
        for (r, k) in &self.asked {
            w.u64(*r as u64);
            w.u8(*k);
        }
    }

    pub fn load(r: &mut StateReader) -> Result<TableScreen, StateError> {
        let corrupt = || StateError::Corrupt("TABLE screen");
        let mut t = TableScreen::new(TableData::load(r)?);
        t.row = usize::from(r.u8()?);
        t.col = usize::from(r.u8()?);
        t.fn_first = usize::from(r.u8()?);
        if r.bool()? {
            t.entry = Some(EntryLine::load(r, X_ENTRY_MAX)?);
        }
        let n = r.u32()? as usize;
        if t.row >= ROWS || t.col > FUNCTION_COLUMNS || t.fn_first >= 10 || n > 1000 {
            return Err(corrupt());
        }
        for _ in 0..n {
            let row = r.u64()? as i64;
            let k = r.u8()?;
            if !(0x10..=0x19).contains(&k) {
                return Err(corrupt());
            }
            t.asked.push((row, k));
        }
        Ok(t)
    }
}
