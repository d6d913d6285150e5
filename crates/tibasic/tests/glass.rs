//! `tibasic::glass`: the glass read back as 8 lines of 16 large-font cells.

use tibasic::font::{self, LCD_BYTES};
use tibasic::glass;

fn dark(buf: &[u8; LCD_BYTES]) -> impl Fn(usize, usize) -> bool + '_ {
    |x, y| buf[y * 12 + x / 8] & (0x80 >> (x % 8)) != 0
}

#[test]
fn text_drawn_in_the_large_font_reads_back() {
    let mut buf = [0u8; LCD_BYTES];
    font::draw_large(&mut buf, 0, 0, &font::encode("ERR:SYNTAX").unwrap());
    font::draw_large(&mut buf, 8, 0, &font::encode("⁻1.5ᴇ⁻3 θ→").unwrap());
    // Inverted cells (a menu's title, the selected item) read as their characters.
    font::draw_large_with(&mut buf, 16, 0, b"1", true);
    font::draw_large(&mut buf, 16, 6, b":Goto");
    let lines = glass::read(dark(&buf));
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0], "ERR:SYNTAX      ");
    assert_eq!(lines[1], "⁻1.5ᴇ⁻3 θ→      ");
    assert_eq!(lines[2], "1:Goto          ");
    assert!(lines[3..].iter().all(|l| l == "                "));
}

#[test]
fn cells_that_are_no_glyph_read_as_question_marks() {
    let mut buf = [0u8; LCD_BYTES];
    // One pixel in cell (0, 0)'s column 0, which no glyph inks (the font keeps a blank column
    // between cells); a full dark cell at (7, 15).
    buf[3 * 12] = 0x80;
    for y in 56..64 {
        buf[y * 12 + 11] |= 0x3F;
    }
    let lines = glass::read(dark(&buf));
    assert_eq!(lines[0], "?               ");
    // An all-dark cell is an inverted space.
    assert_eq!(lines[7], "                ");
}
