//! The MODE screen: seven lines of settings, the current one of each line in inverse video,
//! a blinking cursor on one option; ENTER makes the option under the cursor the line's
//! setting. The settings are the ones programs use (`Normal`/`Sci`/`Eng`, `Float`/`Fix`,
//! `Radian`/`Degree`, ...: [`crate::os::Modes`]). Lines and their order: the TI-82's (see
//! `docs/calculator.md`, "MODE").

use ti82_machine::Key;

use crate::display::Notation;
use crate::font;
use crate::os::Modes;
use crate::screen::SCREEN_BYTES;

/// The screen's lines and their options, top to bottom.
pub const MODE_LINES: [&[&str]; 7] = [
    &["Normal", "Sci", "Eng"],
    &["Float", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
    &["Radian", "Degree"],
    &["Func", "Par", "Pol", "Seq"],
    &["Connected", "Dot"],
    &["Sequential", "Simul"],
    &["FullScreen", "Split"],
];

/// The cursor: a line and an option on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeCursor {
    pub row: usize,
    pub col: usize,
}

/// What a key on the MODE screen asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeAction {
    None,
    /// The settings changed.
    Changed,
    /// Back to the home screen.
    Quit,
}

impl ModeCursor {
    /// The screen as MODE opens it: the cursor on the first line's setting.
    pub fn open(m: &Modes) -> ModeCursor {
        ModeCursor {
            row: 0,
            col: selected(m, 0),
        }
    }

    /// One key (`second`: after 2nd).
    pub fn key(&mut self, k: Key, second: bool, m: &mut Modes) -> ModeAction {
        if second && k == Key::Mode {
            return ModeAction::Quit;
        }
        let n = MODE_LINES.len();
        match k {
            // Up and down move to the other line's setting, wrapping top to bottom.
            Key::Up => {
                self.row = (self.row + n - 1) % n;
                self.col = selected(m, self.row);
            }
            Key::Down => {
                self.row = (self.row + 1) % n;
                self.col = selected(m, self.row);
            }
            Key::Left => self.col = self.col.saturating_sub(1),
            Key::Right => self.col = (self.col + 1).min(MODE_LINES[self.row].len() - 1),
            Key::Enter => {
                apply(m, self.row, self.col);
                return ModeAction::Changed;
            }
            Key::Clear => return ModeAction::Quit,
            _ => {}
        }
        ModeAction::None
    }

    /// Whether the cursor points at an option that exists (for a loaded save state).
    pub fn valid(&self) -> bool {
        MODE_LINES
            .get(self.row)
            .is_some_and(|line| self.col < line.len())
    }

    /// Draws the screen: settings inverted, the cursor's option inverted the other way while
    /// `blink` is on.
    pub fn draw(&self, m: &Modes, blink: bool, img: &mut [u8; SCREEN_BYTES]) {
        for (row, line) in MODE_LINES.iter().enumerate() {
            let set = selected(m, row);
            for (col, text) in line.iter().enumerate() {
                let mut inverse = col == set;
                if blink && row == self.row && col == self.col {
                    inverse = !inverse;
                }
                let codes = font::encode(text).unwrap_or_default();
                font::draw_large_with(img, row * 8, 6 * cell(row, col), &codes, inverse);
            }
        }
    }
}

/// The first text cell of option `col` on line `row`: options one space apart, except the
/// Fix digits, which follow `Float ` without spaces.
pub fn cell(row: usize, col: usize) -> usize {
    if row == 1 && col > 0 {
        return 5 + col;
    }
    MODE_LINES[row][..col].iter().map(|t| t.len() + 1).sum()
}

/// The option line `row` has now.
pub fn selected(m: &Modes, row: usize) -> usize {
    match row {
        0 => match m.notation {
            Notation::Normal => 0,
            Notation::Sci => 1,
            Notation::Eng => 2,
        },
        1 => m.fix.map_or(0, |d| usize::from(d) + 1),
        2 => usize::from(m.degrees),
        3 => usize::from(m.graph.min(3)),
        4 => usize::from(m.dot),
        5 => usize::from(m.simul),
        _ => usize::from(m.split),
    }
}

/// Makes option `col` line `row`'s setting.
pub fn apply(m: &mut Modes, row: usize, col: usize) {
    match row {
        0 => {
            m.notation = match col {
                1 => Notation::Sci,
                2 => Notation::Eng,
                _ => Notation::Normal,
            }
        }
        1 => m.fix = col.checked_sub(1).map(|d| d.min(9) as u8),
        2 => m.degrees = col == 1,
        3 => m.graph = col.min(3) as u8,
        4 => m.dot = col == 1,
        5 => m.simul = col == 1,
        _ => m.split = col == 1,
    }
}
