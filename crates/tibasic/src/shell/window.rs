//! The WINDOW screen: the window variables of the graphing mode, one a line (`Xmin=-10`),
//! a value typed over the one under the cursor and stored on ENTER or ▼/▲. Function mode
//! lists Xmin Xmax Xscl Ymin Ymax Yscl; Par mode puts Tmin Tmax Tstep first, Pol mode θmin
//! θmax θstep (the TI-82 Guidebook's WINDOW screens). The FORMAT tab is not built.

use ti82_machine::state::{StateError, StateReader, StateWriter};

use super::entry::EntryLine;
use crate::display::{real_text, NumFormat};
use crate::font;
use crate::real::Real;
use crate::screen::SCREEN_BYTES;

/// The variables (window token second bytes) for graphing mode `graph` (0 Func, 1 Par,
/// 2 Pol, 3 Seq: nMin nMax and the X/Y range [I]).
pub fn variables(graph: u8) -> &'static [u8] {
    match graph {
        1 => &[0x0E, 0x0F, 0x22, 0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03],
        2 => &[0x10, 0x11, 0x23, 0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03],
        3 => &[
            0x04, 0x05, 0x1F, 0x1B, 0x1D, 0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03,
        ],
        _ => &[0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03],
    }
}

/// ZOOM › MEMORY › `4:SetFactors…`: the same kind of screen over XFact and YFact, the
/// factors Zoom In and Zoom Out use (the TI-82 Guidebook's ZOOM FACTORS screen).
pub const FACTORS: [u8; 2] = [0x28, 0x29];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowEditor {
    /// The variables listed, and their values when last read.
    pub vars: Vec<u8>,
    pub values: Vec<Real>,
    /// The line the cursor is on, the first line shown.
    pub line: usize,
    pub top: usize,
    /// A value being typed over the line's.
    pub entry: Option<EntryLine>,
}

impl WindowEditor {
    pub fn new(vars: &[u8], values: Vec<Real>) -> WindowEditor {
        WindowEditor {
            vars: vars.to_vec(),
            values,
            line: 0,
            top: 0,
            entry: None,
        }
    }

    /// Moves to line `i`, keeping it among the seven shown.
    pub fn go_to(&mut self, i: usize) {
        self.line = i.min(self.vars.len().saturating_sub(1));
        self.entry = None;
        if self.line < self.top {
            self.top = self.line;
        } else if self.line >= self.top + 7 {
            self.top = self.line + 1 - 7;
        }
    }

    /// Whether this is the ZOOM FACTORS screen rather than WINDOW.
    pub fn is_factors(&self) -> bool {
        self.vars == FACTORS
    }

    pub fn draw(&self, f: NumFormat, cursor: Option<u8>, img: &mut [u8; SCREEN_BYTES]) {
        if self.is_factors() {
            font::draw_large(img, 0, 0, &super::codes("ZOOM FACTORS"));
        } else {
            let x = font::draw_large_with(img, 0, 0, &super::codes("WINDOW"), true);
            font::draw_large(img, 0, x + 6, &super::codes("FORMAT"));
        }
        for (row, i) in (self.top..self.vars.len()).take(7).enumerate() {
            let y = 8 * (row + 1);
            let mut line = crate::os::string_codes(&[crate::token::PREFIX_WINDOW, self.vars[i]]);
            line.push(b'=');
            let start = line.len();
            match (&self.entry, i == self.line) {
                (Some(e), true) => line.extend(e.codes()),
                _ => line.extend(super::codes(&real_text(self.values[i], f))),
            }
            font::draw_large(img, y, 0, &line[..line.len().min(16)]);
            if i == self.line {
                if let Some(g) = cursor {
                    let at = match &self.entry {
                        Some(e) => start + e.cursor_cells(),
                        None => start,
                    };
                    if at < 16 {
                        font::draw_large(img, y, 6 * at, &[g]);
                    }
                }
            }
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.bytes(&self.vars);
        for v in &self.values {
            crate::interp::put_real(w, *v);
        }
        w.u8(self.line as u8);
        w.u8(self.top as u8);
        match &self.entry {
            Some(e) => {
                w.bool(true);
                e.save(w);
            }
            None => w.bool(false),
        }
    }

    pub fn load(r: &mut StateReader) -> Result<WindowEditor, StateError> {
        let corrupt = || StateError::Corrupt("WINDOW screen");
        let vars = r.bytes()?.to_vec();
        // (Before UₙStart, VₙStart and nStart were listed, Seq mode's screen began at nMin.)
        let legacy_seq = vars.as_slice() == &variables(3)[3..];
        let known = legacy_seq || vars == FACTORS || (0..4).any(|g| variables(g) == vars);
        if !known {
            return Err(corrupt());
        }
        let mut values = Vec::with_capacity(vars.len());
        for _ in 0..vars.len() {
            values.push(crate::interp::get_real(r)?);
        }
        let (line, top) = (usize::from(r.u8()?), usize::from(r.u8()?));
        let entry = if r.bool()? {
            Some(EntryLine::load(r, 100)?)
        } else {
            None
        };
        if line >= vars.len() || top > line || line >= top + 7 {
            return Err(corrupt());
        }
        Ok(WindowEditor {
            vars,
            values,
            line,
            top,
            entry,
        })
    }
}
