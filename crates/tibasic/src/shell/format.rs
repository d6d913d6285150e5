//! The FORMAT screen (WINDOW ► FORMAT): the `WINDOW FORMAT` tabs, then five lines of graph
//! settings, the current one of each in inverse video and a blinking cursor on one option, as
//! on the MODE screen; ENTER makes the option under the cursor the line's setting. Lines and
//! their order: the TI-82 Guidebook's FORMAT screen (`docs/calculator.md`, "WINDOW and
//! FORMAT"). The settings are the ones programs set with `RectGC`, `CoordOff`, `GridOn`...
//! ([`crate::os::Modes`]).

use ti82_machine::Key;

use crate::font;
use crate::os::Modes;
use crate::screen::SCREEN_BYTES;
use crate::shell::graphing::{draw_cursor, Trace};

/// The screen's setting lines and their options, top to bottom (text lines 1-5).
pub const FORMAT_LINES: [[&str; 2]; 5] = [
    ["RectGC", "PolarGC"],
    ["CoordOn", "CoordOff"],
    ["GridOff", "GridOn"],
    ["AxesOn", "AxesOff"],
    ["LabelOff", "LabelOn"],
];

/// The cursor: `row` 0 is the tab line (on `FORMAT`), 1-5 the setting lines; `col` the
/// option (0 or 1) on a setting line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatCursor {
    pub row: usize,
    pub col: usize,
}

/// What a key on the FORMAT screen asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatAction {
    None,
    /// A setting changed.
    Changed,
    /// ◄ on the tab line: back to the WINDOW tab.
    Window,
    /// GRAPH.
    Graph,
    /// TRACE.
    Trace,
    /// Back to the home screen.
    Quit,
}

impl FormatCursor {
    /// The screen as ► from WINDOW opens it: the cursor on the `FORMAT` tab [I].
    pub fn open() -> FormatCursor {
        FormatCursor { row: 0, col: 0 }
    }

    /// One key (`second`: after 2nd).
    pub fn key(&mut self, k: Key, second: bool, m: &mut Modes) -> FormatAction {
        if second {
            return match k {
                Key::Mode => FormatAction::Quit,
                _ => FormatAction::None,
            };
        }
        let n = FORMAT_LINES.len() + 1;
        match k {
            // ▲ ▼ move to the other line's setting, wrapping as MODE does.
            Key::Up | Key::Down => {
                self.row = if k == Key::Up {
                    (self.row + n - 1) % n
                } else {
                    (self.row + 1) % n
                };
                self.col = if self.row == 0 {
                    0
                } else {
                    selected(m, self.row - 1)
                };
            }
            Key::Left if self.row == 0 => return FormatAction::Window,
            Key::Left => self.col = 0,
            Key::Right if self.row > 0 => self.col = 1,
            Key::Enter if self.row > 0 => {
                apply(m, self.row - 1, self.col);
                return FormatAction::Changed;
            }
            Key::Graph => return FormatAction::Graph,
            Key::Trace => return FormatAction::Trace,
            Key::Clear => return FormatAction::Quit,
            _ => {}
        }
        FormatAction::None
    }

    /// Whether the cursor points at an option that exists (for a loaded save state).
    pub fn valid(&self) -> bool {
        self.row <= FORMAT_LINES.len() && self.col < 2 && (self.row > 0 || self.col == 0)
    }

    /// Draws the screen: the `FORMAT` tab and the settings inverted, the cursor's option (or
    /// tab) inverted the other way while `blink` is on.
    pub fn draw(&self, m: &Modes, blink: bool, img: &mut [u8; SCREEN_BYTES]) {
        let x = font::draw_large(img, 0, 0, &super::codes("WINDOW"));
        font::draw_large_with(
            img,
            0,
            x + 6,
            &super::codes("FORMAT"),
            !(blink && self.row == 0),
        );
        for (line, options) in FORMAT_LINES.iter().enumerate() {
            let set = selected(m, line);
            let mut x = 0;
            for (col, text) in options.iter().enumerate() {
                let mut inverse = col == set;
                if blink && self.row == line + 1 && self.col == col {
                    inverse = !inverse;
                }
                x = font::draw_large_with(img, 8 * (line + 1), x, &super::codes(text), inverse);
                x += 6;
            }
        }
    }
}

/// The option setting line `line` (0-4) has now.
pub fn selected(m: &Modes, line: usize) -> usize {
    usize::from(match line {
        0 => m.polar_gc,
        1 => m.coord_off,
        2 => m.grid,
        3 => !m.axes,
        _ => m.labels,
    })
}

/// Makes option `col` line `line`'s setting.
pub fn apply(m: &mut Modes, line: usize, col: usize) {
    let second = col == 1;
    match line {
        0 => m.polar_gc = second,
        1 => m.coord_off = second,
        2 => m.grid = second,
        3 => m.axes = !second,
        _ => m.labels = second,
    }
}

/// TRACE as the FORMAT settings show it: with `CoordOff` the bottom line keeps the graph
/// (and the cursor) instead of the coordinates; with `PolarGC` it shows `R=` and `θ=` (the
/// angle in the angle mode) instead of `X=` and `Y=`.
pub fn draw_trace(t: &Trace, m: &Modes, plot: &[u8], img: &mut [u8; SCREEN_BYTES]) {
    t.draw(m.format(), img);
    let bottom = 56 * 12;
    if m.coord_off {
        let mut under = [0u8; SCREEN_BYTES];
        under.copy_from_slice(&plot[..SCREEN_BYTES]);
        if let Some(r) = t.row {
            draw_cursor(&mut under, r, t.column, None);
        }
        img[bottom..].copy_from_slice(&under[bottom..]);
    } else if m.polar_gc {
        // The point's R and θ as `R►Pr(` and `R►Pθ(` give them.
        let mut line = super::codes("R=");
        let of = |tok| {
            t.y.and_then(|y| crate::conv::polar(tok, t.x, y, m.degrees).ok())
                .map(|v| number(v, m))
        };
        line.extend(of(0x1B).unwrap_or_default());
        line.resize(8, b' ');
        line.extend(super::codes("θ="));
        line.extend(of(0x1C).unwrap_or_default());
        line.resize(16, b' ');
        font::draw_large(img, 56, 0, &line[..16]);
    }
}

/// A coordinate as the trace writes it: the number in the display modes, cut to 6
/// characters [I].
fn number(v: crate::real::Real, m: &Modes) -> Vec<u8> {
    let codes = super::codes(&crate::display::real_text(v, m.format()));
    codes[..codes.len().min(6)].to_vec()
}
