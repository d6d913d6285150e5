//! TABLE SETUP (2nd TblSet): TblMin and ΔTbl typed as on the WINDOW screen, and the
//! Indpnt and Depend lines (Auto or Ask) chosen with ◄ ► and ENTER, the setting in inverse
//! video (the TI-82 Guidebook's TABLE SETUP screen).

use ti82_machine::state::{StateError, StateReader, StateWriter};

use super::entry::EntryLine;
use crate::display::{real_text, NumFormat};
use crate::font;
use crate::real::Real;
use crate::screen::SCREEN_BYTES;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TblSet {
    /// TblMin and ΔTbl when last read.
    pub values: [Real; 2],
    /// Indpnt and Depend: Ask (true) or Auto.
    pub ask: [bool; 2],
    /// The line: 0 TblMin, 1 ΔTbl, 2 Indpnt, 3 Depend; on 2-3 the option under the cursor
    /// (false Auto, true Ask).
    pub line: usize,
    pub option: bool,
    pub entry: Option<EntryLine>,
}

impl TblSet {
    pub fn new(values: [Real; 2], ask: [bool; 2]) -> TblSet {
        TblSet {
            values,
            ask,
            line: 0,
            option: false,
            entry: None,
        }
    }

    pub fn draw(&self, f: NumFormat, cursor: Option<u8>, img: &mut [u8; SCREEN_BYTES]) {
        font::draw_large(img, 0, 0, &super::codes("TABLE SETUP"));
        for i in 0..2 {
            let mut line = super::codes(if i == 0 { "TblMin=" } else { "ΔTbl=" });
            let start = line.len();
            match (&self.entry, self.line == i) {
                (Some(e), true) => line.extend(e.codes()),
                _ => line.extend(super::codes(&real_text(self.values[i], f))),
            }
            font::draw_large(img, 8 * (i + 1), 0, &line[..line.len().min(16)]);
            if self.line == i {
                if let Some(g) = cursor {
                    let at = start + self.entry.as_ref().map_or(0, |e| e.cursor_cells());
                    if at < 16 {
                        font::draw_large(img, 8 * (i + 1), 6 * at, &[g]);
                    }
                }
            }
        }
        for i in 0..2 {
            let y = 8 * (i + 3);
            let x = font::draw_large(
                img,
                y,
                0,
                &super::codes(if i == 0 { "Indpnt:" } else { "Depend:" }),
            );
            let x = font::draw_large_with(img, y, x, &super::codes("Auto"), !self.ask[i]);
            font::draw_large_with(img, y, x + 6, &super::codes("Ask"), self.ask[i]);
        }
        // The option cursor: an underline under the option it is on.
        if self.line >= 2 {
            let y = 8 * (self.line + 1) + 7;
            let (from, len) = if self.option { (7 + 5, 3) } else { (7, 4) };
            for px in 6 * from..6 * (from + len) {
                img[y * 12 + px / 8] |= 0x80 >> (px % 8);
            }
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        for v in &self.values {
            crate::interp::put_real(w, *v);
        }
        w.bool(self.ask[0]);
        w.bool(self.ask[1]);
        w.u8(self.line as u8);
        w.bool(self.option);
        match &self.entry {
            Some(e) => {
                w.bool(true);
                e.save(w);
            }
            None => w.bool(false),
        }
    }

    pub fn load(r: &mut StateReader) -> Result<TblSet, StateError> {
        let corrupt = || StateError::Corrupt("TABLE SETUP screen");
        let mut values = [Real::ZERO; 2];
        for v in values.iter_mut() {
            *v = crate::interp::get_real(r)?;
        }
        let ask = [r.bool()?, r.bool()?];
        let line = usize::from(r.u8()?);
        let option = r.bool()?;
        let entry = if r.bool()? {
            if line >= 2 {
                return Err(corrupt());
            }
            Some(EntryLine::load(r, 100)?)
        } else {
            None
        };
        if line > 3 {
            return Err(corrupt());
        }
        Ok(TblSet {
            values,
            ask,
            line,
            option,
            entry,
        })
    }
}
