//! Reading the glass back as text: the 96×64 LCD cut into the home screen's 8 lines of 16
//! large-font cells (6×8 pixels each, spec §8), every cell matched against this runtime's large
//! font ([`crate::font`]). Whatever drew the pixels (home screen, error screen, menu, `Output(`,
//! a ROM), a cell that is exactly one of our glyphs, normal or inverted (menu titles and the
//! selected item are inverted), reads as its character; a blank cell reads as a space; anything
//! else reads as `?`.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::font::{self, LARGE_HEIGHT, LARGE_WIDTH};

/// Lines of large-font text on the glass.
pub const LINES: usize = 8;
/// Cells per line.
pub const CELLS: usize = 16;

/// A cell's 48 pixels as a key: one byte per row, bit `5 - x` for column `x` (the font's layout).
type CellBits = [u8; LARGE_HEIGHT];

fn table() -> &'static HashMap<CellBits, &'static str> {
    static TABLE: OnceLock<HashMap<CellBits, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        // Printable ASCII first, so a glyph shared by two codes reads as the plain character.
        let order = (0x20u8..=0x7E).chain((0x01u8..=0x1F).chain(0x7Fu8..=0xFF));
        for code in order {
            if !font::large_is_defined(code) {
                continue;
            }
            let g = font::large_glyph(code);
            let text = font::str_for(code);
            t.entry(g).or_insert(text);
            let mut inv = g;
            inv.iter_mut().for_each(|r| *r = !*r & 0x3F);
            t.entry(inv).or_insert(text);
        }
        t
    })
}

/// The text of the glass whose pixel at column `x`, row `y` is `dark(x, y)`: 8 lines of 16
/// cells, unknown cells as `?`.
pub fn read(dark: impl Fn(usize, usize) -> bool) -> Vec<String> {
    read_strip(dark, 0, CELLS)
}

/// Like [`read`], for a strip of `cells` cells whose first starts at pixel column `x0`
/// (screens whose text is not on the home screen's grid, such as the list editor's columns).
pub fn read_strip(dark: impl Fn(usize, usize) -> bool, x0: usize, cells: usize) -> Vec<String> {
    let t = table();
    (0..LINES)
        .map(|line| {
            (0..cells)
                .map(|cell| {
                    let mut bits: CellBits = [0; LARGE_HEIGHT];
                    for (dy, row) in bits.iter_mut().enumerate() {
                        for dx in 0..LARGE_WIDTH {
                            if dark(x0 + cell * LARGE_WIDTH + dx, line * LARGE_HEIGHT + dy) {
                                *row |= 0x20 >> dx;
                            }
                        }
                    }
                    t.get(&bits).copied().unwrap_or("?")
                })
                .collect()
        })
        .collect()
}
