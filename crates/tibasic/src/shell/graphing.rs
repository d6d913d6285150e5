//! The graphing screens: the Y= editor (`Y₁=` … `Y₀=` in function mode, the parametric,
//! polar or sequence equations in the others, one a line, the `=` in inverse video while the
//! equation is selected), and the graph with its
//! TRACE cursor (the function's expression on the top line, `X=` and `Y=` on the bottom
//! one). What the TI-82 Guidebook describes and what is decided: `docs/calculator.md`,
//! "Y=, GRAPH and TRACE".

use ti82_machine::state::{StateError, StateReader, StateWriter};

use super::entry::EntryLine;
use crate::display::{real_text, NumFormat};
use crate::font;
use crate::real::Real;
use crate::screen::SCREEN_BYTES;

/// `Y₁`…`Y₀`: the token second bytes, in the editor's order.
pub const FUNCTIONS: usize = 10;
/// The longest expression the Y= editor takes, in tokens' bytes.
pub const EXPRESSION_MAX: usize = 200;
/// Lines the editor shows at once.
const SHOWN: usize = 8;

/// The second byte of function `i`'s token (`Y₁` is 10h … `Y₀` 19h).
pub fn function_token(i: usize) -> u8 {
    0x10 + i.min(FUNCTIONS - 1) as u8
}

/// The equations the Y= editor lists in graphing mode `mode` (MODE's fourth line), as
/// token second bytes: Func `Y₁`…`Y₀`, Par the pairs `X₁ᴛ` `Y₁ᴛ` … `X₆ᴛ` `Y₆ᴛ`, Pol `r₁`…`r₆`,
/// Seq `Uₙ` `Vₙ` (the TI-82 Guidebook's Y= editor in each mode).
pub fn editor_equations(mode: u8) -> Vec<u8> {
    match mode {
        1 => (0x20..=0x2B).collect(),
        2 => (0x40..=0x45).collect(),
        3 => vec![0x80, 0x81],
        _ => (0..FUNCTIONS).map(function_token).collect(),
    }
}

/// Most equations the editor lists in any mode (Par's twelve).
pub const MOST_EQUATIONS: usize = 12;

/// The equation whose selected flag the `=` of equation `k` shows and sets: a parametric
/// pair is selected by its X part [I].
pub fn selection_key(k: u8) -> u8 {
    if (0x20..=0x2B).contains(&k) {
        k & !1
    } else {
        k
    }
}

/// One line of the Y= editor: the equation's token second byte, its expression and whether
/// it is selected.
pub type EditorLine = (u8, Vec<u8>, bool);

/// The Y= editor: which function the cursor is in, the line being edited, and whether the
/// cursor is on the `=` (where ENTER selects or deselects the function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YEditor {
    pub function: usize,
    pub line: EntryLine,
    pub on_equals: bool,
    /// The first function shown.
    pub top: usize,
}

impl YEditor {
    /// The editor on `Y₁`, the cursor at the start of its expression.
    pub fn open(tokens: &[u8]) -> YEditor {
        let mut line = EntryLine::with(tokens);
        line.to_start();
        YEditor {
            function: 0,
            line,
            on_equals: false,
            top: 0,
        }
    }

    /// Moves to line `i` of `lines`, keeping it on the screen.
    pub fn go_to(&mut self, i: usize, lines: &[EditorLine]) {
        self.function = i.min(lines.len().saturating_sub(1));
        let tokens = lines.get(self.function).map_or(&[][..], |l| &l.1[..]);
        self.line = EntryLine::with(tokens);
        self.line.to_start();
        self.on_equals = false;
        if self.function < self.top {
            self.top = self.function;
        } else if self.function >= self.top + SHOWN {
            self.top = self.function + 1 - SHOWN;
        }
    }

    /// The screen: each function's `Yₙ=` and expression (cut at the screen's edge [I]); the
    /// cursor's glyph at its place when `cursor` is given.
    pub fn draw(&self, lines: &[EditorLine], cursor: Option<u8>, img: &mut [u8; SCREEN_BYTES]) {
        for row in 0..SHOWN {
            let i = self.top + row;
            let Some((k, tokens, selected)) = lines.get(i) else {
                break;
            };
            let name = crate::os::string_codes(&[crate::token::PREFIX_EQUATION, *k]);
            let y = row * 8;
            let x = font::draw_large(img, y, 0, &name);
            let x = font::draw_large_with(img, y, x, b"=", *selected);
            let codes = if i == self.function {
                self.line.codes()
            } else {
                crate::os::string_codes(tokens)
            };
            let room = (96 - x) / 6;
            font::draw_large(img, y, x, &codes[..codes.len().min(room)]);
            if i == self.function {
                if let Some(g) = cursor {
                    let at = if self.on_equals {
                        x - 6
                    } else {
                        x + 6 * self.line.cursor_cells().min(room.saturating_sub(1))
                    };
                    font::draw_large(img, y, at, &[g]);
                }
            }
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.function as u8);
        self.line.save(w);
        w.bool(self.on_equals);
        w.u8(self.top as u8);
    }

    pub fn load(r: &mut StateReader) -> Result<YEditor, StateError> {
        let function = usize::from(r.u8()?);
        let line = EntryLine::load(r, 200)?;
        let on_equals = r.bool()?;
        let top = usize::from(r.u8()?);
        let ok = function < MOST_EQUATIONS && top + SHOWN > function && top <= function;
        if !ok {
            return Err(StateError::Corrupt("Y= editor"));
        }
        Ok(YEditor {
            function,
            line,
            on_equals,
            top,
        })
    }
}

/// The TRACE cursor: the function traced, the pixel column, and the point's coordinates as
/// last computed (`y` `None` where the function has no value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub function: usize,
    pub column: i64,
    pub x: Real,
    pub y: Option<Real>,
    /// The point's pixel row (`None` without a value).
    pub row: Option<i64>,
    /// The expression, for the top line.
    pub tokens: Vec<u8>,
}

impl Trace {
    /// Draws the expression on the top line, the coordinates on the bottom one and a
    /// cross-shaped cursor at the point (`row` on the screen, if it is).
    pub fn draw(&self, f: NumFormat, img: &mut [u8; SCREEN_BYTES]) {
        let row = self.row;
        let mut top = crate::os::string_codes(&[
            crate::token::PREFIX_EQUATION,
            function_token(self.function),
        ]);
        top.push(b'=');
        top.extend(crate::os::string_codes(&self.tokens));
        draw_row(img, 0, &top);
        draw_coordinates(img, self.x, self.y, f);
        if let Some(r) = row {
            draw_cursor(img, r, self.column, None);
        }
    }
}

/// The free graph cursor: a cross inverted at (`row`, `col`), and ZBox's box from its first
/// corner.
pub fn draw_cursor(img: &mut [u8; SCREEN_BYTES], row: i64, col: i64, corner: Option<(i64, i64)>) {
    let mut flip = |r: i64, c: i64| {
        if (0..63).contains(&r) && (0..95).contains(&c) {
            img[r as usize * 12 + c as usize / 8] ^= 0x80 >> (c % 8);
        }
    };
    if let Some((r0, c0)) = corner {
        let (top, bottom) = (r0.min(row), r0.max(row));
        let (left, right) = (c0.min(col), c0.max(col));
        for c in left..=right {
            flip(top, c);
            if bottom != top {
                flip(bottom, c);
            }
        }
        for r in top + 1..bottom {
            flip(r, left);
            if right != left {
                flip(r, right);
            }
        }
    }
    for (dr, dc) in [
        (0, 0),
        (-1, 0),
        (1, 0),
        (0, -1),
        (0, 1),
        (-2, 0),
        (2, 0),
        (0, -2),
        (0, 2),
    ] {
        flip(row + dr, col + dc);
    }
}

/// The bottom line: `X=` and `Y=` (`Y=` alone where there is no value), each number cut to
/// six characters [I].
fn draw_coordinates(img: &mut [u8; SCREEN_BYTES], x: Real, y: Option<Real>, f: NumFormat) {
    let mut bottom = coordinate("X=", x, f);
    bottom.resize(8, b' ');
    match y {
        Some(y) => bottom.extend(coordinate("Y=", y, f)),
        None => bottom.extend(b"Y="),
    }
    draw_row(img, 7, &bottom);
}

/// A whole text row over the graph: the characters, cut at the screen's edge, and blanks to
/// its end, so no graph shows between them [I].
fn draw_row(img: &mut [u8; SCREEN_BYTES], row: usize, codes: &[u8]) {
    let mut line = codes[..codes.len().min(16)].to_vec();
    line.resize(16, b' ');
    font::draw_large(img, row * 8, 0, &line);
}

/// The free-moving cursor of GRAPH's arrows (the TI-82 Guidebook's chapter 3): a pixel and
/// the point there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeCursor {
    pub row: i64,
    pub col: i64,
    pub x: Real,
    pub y: Real,
}

impl FreeCursor {
    /// At the graph's middle pixel (row 31, column 47); the point is set when it moves.
    pub fn middle() -> FreeCursor {
        FreeCursor {
            row: 31,
            col: 47,
            x: Real::ZERO,
            y: Real::ZERO,
        }
    }

    /// The cross at its pixel and the point's coordinates on the bottom line.
    pub fn draw(&self, f: NumFormat, img: &mut [u8; SCREEN_BYTES]) {
        draw_cursor(img, self.row, self.col, None);
        draw_coordinates(img, self.x, Some(self.y), f);
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.row as u8);
        w.u8(self.col as u8);
        crate::interp::put_real(w, self.x);
        crate::interp::put_real(w, self.y);
    }

    pub fn load(r: &mut StateReader) -> Result<FreeCursor, StateError> {
        let (row, col) = (i64::from(r.u8()?), i64::from(r.u8()?));
        let (x, y) = (crate::interp::get_real(r)?, crate::interp::get_real(r)?);
        if row > 62 || col > 94 {
            return Err(StateError::Corrupt("graph cursor"));
        }
        Ok(FreeCursor { row, col, x, y })
    }
}

/// TRACE in the Par, Pol and Seq modes: the equation traced (token second byte: a pair's X
/// part, rₙ, Uₙ or Vₙ), the step, and the point as last computed (`crate::os::ModePoint`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeTrace {
    pub equation: u8,
    pub step: i64,
    pub param: Real,
    pub point: Option<(Real, Real)>,
    pub pixel: Option<(i64, i64)>,
    /// The expression, for the top line.
    pub tokens: Vec<u8>,
}

impl ModeTrace {
    /// The equation and its expression on the top line, the parameter (`T=`, `θ=`, `n=`) on
    /// the row above the bottom one, the point's `X=` `Y=` on the bottom one [I], and the
    /// cross at the point.
    pub fn draw(&self, f: NumFormat, img: &mut [u8; SCREEN_BYTES]) {
        let plot = crate::os::plot_of(self.equation);
        let mut top = match plot {
            // A stat plot: `P1:` and its lists (`tokens`) [I].
            Some(n) => super::codes(&format!("P{}:", n + 1)),
            None => {
                let mut t =
                    crate::os::string_codes(&[crate::token::PREFIX_EQUATION, self.equation]);
                t.push(b'=');
                t
            }
        };
        top.extend(crate::os::string_codes(&self.tokens));
        draw_row(img, 0, &top);
        let label = match self.equation {
            0x20..=0x2B => "T=",
            0x40..=0x45 => "θ=",
            _ => "n=",
        };
        if plot.is_none() {
            draw_row(img, 6, &coordinate(label, self.param, f));
        }
        match self.point {
            Some((x, y)) => draw_coordinates(img, x, Some(y), f),
            None => draw_row(img, 7, b"X=      Y="),
        }
        if let Some((r, c)) = self.pixel {
            draw_cursor(img, r, c, None);
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.equation);
        w.u32(self.step as u32);
        crate::interp::put_real(w, self.param);
        match self.point {
            Some((x, y)) => {
                w.bool(true);
                crate::interp::put_real(w, x);
                crate::interp::put_real(w, y);
            }
            None => w.bool(false),
        }
        match self.pixel {
            Some((r, c)) => {
                w.bool(true);
                w.u32(r.clamp(-1_000_000, 1_000_000) as i32 as u32);
                w.u32(c.clamp(-1_000_000, 1_000_000) as i32 as u32);
            }
            None => w.bool(false),
        }
        w.bytes(&self.tokens);
    }

    pub fn load(r: &mut StateReader) -> Result<ModeTrace, StateError> {
        let real = crate::interp::get_real;
        let equation = r.u8()?;
        let step = i64::from(r.u32()?);
        let param = real(r)?;
        let point = if r.bool()? {
            Some((real(r)?, real(r)?))
        } else {
            None
        };
        let pixel = if r.bool()? {
            Some((i64::from(r.u32()? as i32), i64::from(r.u32()? as i32)))
        } else {
            None
        };
        let tokens = r.bytes()?.to_vec();
        let known = matches!(equation, 0x20..=0x2B | 0x40..=0x45 | 0x80 | 0x81 | 0xF1..=0xF3);
        if !known || step > 10_000 || tokens.len() > 0xFFFF {
            return Err(StateError::Corrupt("TRACE cursor"));
        }
        Ok(ModeTrace {
            equation,
            step,
            param,
            point,
            pixel,
            tokens,
        })
    }
}

/// `X=` and a number cut to 6 characters [I] (the bottom line holds both coordinates).
fn coordinate(label: &str, v: Real, f: NumFormat) -> Vec<u8> {
    let mut out = super::codes(label);
    let text = super::codes(&real_text(v, f));
    out.extend_from_slice(&text[..text.len().min(6)]);
    out
}

impl Trace {
    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.function as u8);
        w.u32(self.column as u32);
        crate::interp::put_real(w, self.x);
        match self.y {
            Some(y) => {
                w.bool(true);
                crate::interp::put_real(w, y);
            }
            None => w.bool(false),
        }
        w.u32(
            self.row
                .map_or(u32::MAX, |r| r.clamp(-1_000_000, 1_000_000) as i32 as u32),
        );
        w.bytes(&self.tokens);
    }

    pub fn load(r: &mut StateReader) -> Result<Trace, StateError> {
        let corrupt = || StateError::Corrupt("TRACE cursor");
        let real = crate::interp::get_real;
        let function = usize::from(r.u8()?);
        let column = i64::from(r.u32()?);
        let x = real(r)?;
        let y = if r.bool()? { Some(real(r)?) } else { None };
        let row = match r.u32()? {
            u32::MAX => None,
            v => Some(i64::from(v as i32)),
        };
        let tokens = r.bytes()?.to_vec();
        if function >= FUNCTIONS || column > 94 || tokens.len() > 0xFFFF {
            return Err(corrupt());
        }
        Ok(Trace {
            function,
            column,
            x,
            y,
            row,
            tokens,
        })
    }
}
