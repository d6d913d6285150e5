//! The two screens as the TI-82 OS keeps them in RAM (spec §7.2, §8.4): the home screen's
//! 8×16 text shadow and cursor, and the 96×64 graph buffer `plotSScreen`. Keeping them in the
//! OS's places means `--print-text`, save states and the probes see the same bytes whichever
//! firmware runs.

use crate::font;

pub const RAM_BASE: u16 = 0x8000;
pub const KBD_SCAN_CODE: u16 = 0x8000;
pub const CUR_ROW: u16 = 0x800C;
pub const CUR_COL: u16 = 0x800D;
pub const TEXT_SHADOW: u16 = 0x808F;
pub const PEN_COL: u16 = 0x8215;
pub const PEN_ROW: u16 = 0x8216;
pub const PLOT_SCREEN: u16 = 0x88B8;
pub const ROWS: usize = 8;
pub const COLS: usize = 16;
/// The graph area: 95 columns × 63 rows (spec §6.2).
pub const GRAPH_COLS: i64 = 95;
pub const GRAPH_ROWS: i64 = 63;
pub const SCREEN_BYTES: usize = 768;

#[inline]
pub fn off(addr: u16) -> usize {
    usize::from(addr.wrapping_sub(RAM_BASE)) & 0x7FFF
}

// ---------------------------------------------------------------- home screen

pub fn shadow(ram: &[u8]) -> &[u8] {
    &ram[off(TEXT_SHADOW)..off(TEXT_SHADOW) + ROWS * COLS]
}

pub fn cursor(ram: &[u8]) -> (usize, usize) {
    (
        usize::from(ram[off(CUR_ROW)]).min(ROWS - 1),
        usize::from(ram[off(CUR_COL)]).min(COLS - 1),
    )
}

pub fn set_cursor(ram: &mut [u8], row: usize, col: usize) {
    ram[off(CUR_ROW)] = row.min(ROWS - 1) as u8;
    ram[off(CUR_COL)] = col.min(COLS - 1) as u8;
}

pub fn put(ram: &mut [u8], row: usize, col: usize, code: u8) {
    if row < ROWS && col < COLS {
        ram[off(TEXT_SHADOW) + row * COLS + col] = code;
    }
}

pub fn clear_home(ram: &mut [u8]) {
    let s = off(TEXT_SHADOW);
    ram[s..s + ROWS * COLS].fill(b' ');
    set_cursor(ram, 0, 0);
}

pub fn clear_row(ram: &mut [u8], row: usize) {
    if row < ROWS {
        let s = off(TEXT_SHADOW) + row * COLS;
        ram[s..s + COLS].fill(b' ');
    }
}

/// Scrolls the home screen up one line; the last line becomes blank.
pub fn scroll(ram: &mut [u8]) {
    let s = off(TEXT_SHADOW);
    ram.copy_within(s + COLS..s + ROWS * COLS, s);
    ram[s + (ROWS - 1) * COLS..s + ROWS * COLS].fill(b' ');
}

/// Writes `codes` from (`row`, `col`), continuing on the next rows, without scrolling
/// (`Output(`). Returns the position after the last character.
pub fn write_at(ram: &mut [u8], row: usize, col: usize, codes: &[u8]) -> (usize, usize) {
    let mut pos = row * COLS + col;
    for &c in codes {
        if pos >= ROWS * COLS {
            break;
        }
        ram[off(TEXT_SHADOW) + pos] = c;
        pos += 1;
    }
    (pos / COLS, pos % COLS)
}

/// Fits `codes` into one 16-character line: longer text ends in `…` (code CE, the TI's
/// ellipsis) when `ellipsis`, else it is cut.
pub fn fit_line(codes: &[u8], ellipsis: bool) -> Vec<u8> {
    if codes.len() <= COLS {
        return codes.to_vec();
    }
    let mut v = codes[..COLS].to_vec();
    if ellipsis {
        v[COLS - 1] = font::code_for('…').unwrap_or(b'.');
    }
    v
}

// ---------------------------------------------------------------- graph buffer

pub fn plot(ram: &[u8]) -> &[u8] {
    &ram[off(PLOT_SCREEN)..off(PLOT_SCREEN) + SCREEN_BYTES]
}

pub fn plot_mut(ram: &mut [u8]) -> &mut [u8] {
    &mut ram[off(PLOT_SCREEN)..off(PLOT_SCREEN) + SCREEN_BYTES]
}

/// How a pixel is changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    On,
    Off,
    Change,
}

/// Sets pixel (`row`, `col`) of the graph buffer; outside the 95×63 graph area nothing happens.
pub fn pixel(buf: &mut [u8], row: i64, col: i64, ink: Ink) {
    if !(0..GRAPH_ROWS).contains(&row) || !(0..GRAPH_COLS).contains(&col) {
        return;
    }
    let i = row as usize * 12 + (col as usize >> 3);
    let m = 0x80u8 >> (col & 7);
    match ink {
        Ink::On => buf[i] |= m,
        Ink::Off => buf[i] &= !m,
        Ink::Change => buf[i] ^= m,
    }
}

pub fn pixel_test(buf: &[u8], row: i64, col: i64) -> bool {
    if !(0..64).contains(&row) || !(0..96).contains(&col) {
        return false;
    }
    buf[row as usize * 12 + (col as usize >> 3)] & (0x80 >> (col & 7)) != 0
}

/// A straight line between two pixels (Bresenham), clipped to the graph area.
pub fn line(buf: &mut [u8], (r0, c0): (i64, i64), (r1, c1): (i64, i64), ink: Ink) -> u32 {
    // Far-off endpoints (window coordinates far outside) are clamped first so the loop
    // stays short; the visible part keeps its slope closely enough for a 95x63 screen.
    let clamp = |v: i64| v.clamp(-2000, 2000);
    let (mut r, mut c) = (clamp(r0), clamp(c0));
    let (r1, c1) = (clamp(r1), clamp(c1));
    let dc = (c1 - c).abs();
    let dr = -(r1 - r).abs();
    let sc = if c < c1 { 1 } else { -1 };
    let sr = if r < r1 { 1 } else { -1 };
    let mut err = dc + dr;
    let mut n = 0u32;
    loop {
        pixel(buf, r, c, ink);
        n += 1;
        if r == r1 && c == c1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dr {
            err += dr;
            c += sc;
        }
        if e2 <= dc {
            err += dc;
            r += sr;
        }
    }
    n
}

/// An ellipse with pixel radii `rx`, `ry` around (`row`, `col`) (a circle in window units),
/// by the midpoint algorithm.
pub fn ellipse(buf: &mut [u8], row: i64, col: i64, rx: i64, ry: i64) -> u32 {
    let (rx, ry) = (rx.clamp(0, 4000), ry.clamp(0, 4000));
    let mut n = 0u32;
    let mut plot4 = |buf: &mut [u8], x: i64, y: i64| {
        pixel(buf, row + y, col + x, Ink::On);
        pixel(buf, row + y, col - x, Ink::On);
        pixel(buf, row - y, col + x, Ink::On);
        pixel(buf, row - y, col - x, Ink::On);
        n += 4;
    };
    if rx == 0 || ry == 0 {
        line(buf, (row - ry, col - rx), (row + ry, col + rx), Ink::On);
        return 1;
    }
    let (a2, b2) = (rx * rx, ry * ry);
    let (mut x, mut y) = (0i64, ry);
    let mut d = b2 - a2 * ry + a2 / 4;
    while b2 * x <= a2 * y {
        plot4(buf, x, y);
        x += 1;
        if d < 0 {
            d += b2 * (2 * x + 1);
        } else {
            y -= 1;
            d += b2 * (2 * x + 1) - 2 * a2 * y;
        }
    }
    let (mut x, mut y) = (rx, 0i64);
    let mut d = a2 - b2 * rx + b2 / 4;
    while a2 * y <= b2 * x {
        plot4(buf, x, y);
        y += 1;
        if d < 0 {
            d += a2 * (2 * y + 1);
        } else {
            x -= 1;
            d += a2 * (2 * y + 1) - 2 * b2 * x;
        }
    }
    n
}

/// Draws small-font text with its top-left corner at (`row`, `col`) into the graph buffer.
/// Returns the column after the text.
pub fn text(buf: &mut [u8], row: i64, col: i64, codes: &[u8]) -> i64 {
    let mut img = [0u8; SCREEN_BYTES];
    img.copy_from_slice(&buf[..SCREEN_BYTES]);
    let end = font::draw_small(
        &mut img,
        row.clamp(0, 63) as usize,
        col.clamp(0, 95) as usize,
        codes,
    );
    buf[..SCREEN_BYTES].copy_from_slice(&img);
    end as i64
}

/// Renders the home screen (the text shadow) into a 96×64 image.
pub fn render_home(ram: &[u8], out: &mut [u8; SCREEN_BYTES]) {
    out.fill(0);
    let s = shadow(ram);
    for row in 0..ROWS {
        font::draw_large(out, row * 8, 0, &s[row * COLS..(row + 1) * COLS]);
    }
}
