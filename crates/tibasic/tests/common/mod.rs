//! What the keypad tests share: the glass read back as text, and keys tapped as a quick
//! human does (60 ms down, 60 ms up).
#![allow(dead_code)]

use ti82_machine::{Calc, Key};

/// The glass read back as text, one string per line, trailing blanks cut.
pub fn glass(calc: &Calc) -> Vec<String> {
    let screen = calc.lcd();
    tibasic::glass::read(|x, y| screen.pixel(x, y))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Taps `ks` one after the other.
pub fn keys(calc: &mut Calc, ks: &[Key]) {
    for &k in ks {
        tibasic::firmware::tap(calc, k);
    }
}

/// Whether the text cell at `row`, `cell` is in inverse video (its bottom-right pixel, blank
/// in every glyph of the large font, is dark).
pub fn inverted(calc: &Calc, row: usize, cell: usize) -> bool {
    calc.lcd().pixel(cell * 6 + 5, row * 8 + 7)
}
