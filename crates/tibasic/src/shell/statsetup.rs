//! STAT › CALC › `3:SetUp…`: which lists `1-Var Stats` (Xlist, Freq) and `2-Var Stats` and
//! the regressions (Xlist, Ylist, Freq) use when none are named (the TI-82 Guidebook,
//! chapter 7). The TI-82 lists every choice on a line; six list names of two characters do
//! not fit beside a label in 16 columns, so here each line shows its one setting, changed
//! with ◄ ►, the cursor's in inverse video [I].

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;

use crate::font;
use crate::screen::SCREEN_BYTES;
use crate::stats::StatSetup;

/// The SetUp screen's cursor: the line (0 Xlist, 1 Freq of 1-Var Stats; 2 Xlist, 3 Ylist,
/// 4 Freq of 2-Var Stats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetUpCursor {
    pub line: usize,
}

/// What a key asks of the firmware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetUpAction {
    Stay,
    Quit,
}

/// The screen rows of each line (the titles take rows 0 and 3).
const ROWS: [usize; 5] = [1, 2, 4, 5, 6];
const LABELS: [&str; 5] = ["Xlist:", "Freq:", "Xlist:", "Ylist:", "Freq:"];

/// The characters of a setting: `L₁`-`L₆`, or `1` for no frequency list.
fn choice_codes(value: u8, freq: bool) -> Vec<u8> {
    let list = if freq {
        match value {
            0 => return super::codes("1"),
            v => v - 1,
        }
    } else {
        value
    };
    super::codes(&format!(
        "L{}",
        ['₁', '₂', '₃', '₄', '₅', '₆'][usize::from(list % 6)]
    ))
}

impl SetUpCursor {
    pub fn draw(&self, setup: &StatSetup, img: &mut [u8; SCREEN_BYTES]) {
        font::draw_large(img, 0, 0, &super::codes("1-Var Stats"));
        font::draw_large(img, 24, 0, &super::codes("2-Var Stats"));
        let mut s = *setup;
        for (line, (&row, label)) in ROWS.iter().zip(LABELS).enumerate() {
            let x = font::draw_large(img, row * 8, 0, &super::codes(label));
            let value = *s.slot(line);
            let codes = choice_codes(value, StatSetup::is_freq(line));
            font::draw_large_with(img, row * 8, x, &codes, line == self.line);
        }
    }

    /// ▲ ▼ move between the lines, ◄ ► step the line's setting through its choices
    /// (wrapping), ENTER goes to the next line, CLEAR leaves.
    pub fn key(&mut self, k: Key, setup: &mut StatSetup) -> SetUpAction {
        match k {
            Key::Up => self.line = self.line.saturating_sub(1),
            Key::Down | Key::Enter => self.line = (self.line + 1).min(4),
            Key::Left | Key::Right => {
                let n = if StatSetup::is_freq(self.line) { 7 } else { 6 };
                let slot = setup.slot(self.line);
                *slot = if k == Key::Right {
                    (*slot + 1) % n
                } else {
                    (*slot + n - 1) % n
                };
            }
            Key::Clear => return SetUpAction::Quit,
            _ => {}
        }
        SetUpAction::Stay
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.line as u8);
    }

    pub fn load(r: &mut StateReader) -> Result<SetUpCursor, StateError> {
        let line = usize::from(r.u8()?);
        if line > 4 {
            return Err(StateError::Corrupt("SetUp screen"));
        }
        Ok(SetUpCursor { line })
    }
}
