//! The TI-82's two fonts, drawn for this project, and its character set (spec §8).
//!
//! The calculator writes all text in one 8-bit character set and draws it with two fonts:
//!
//! - the **large font** (home screen, menus, editors): fixed 6×8 cells. Ink stays inside cell
//!   columns 1–5 and rows 0–6, so neighbouring cells never touch. [`large_glyph`] gives a cell,
//!   [`draw_large`] writes a run of cells into an LCD buffer.
//! - the **small font** (graph screen, `Text(`): glyphs 6 rows tall with advances of 1–6 pixels.
//!   Row 0 is blank except in Ñ, ñ and the plot icons. [`small_glyph`] gives a glyph,
//!   [`draw_small`] writes a run of glyphs.
//!
//! The glyphs are our own drawing, made to look like the calculator's from the descriptions in
//! the spec (slashed large `0`, small-capital `ᴇ`, short raised negative sign, subscript digits
//! low in the cell, the cursor glyphs `D9`–`E1`, the TI-82's own small widths for I K M N Q W…).
//! No bitmap was taken from a ROM, an emulator or a font file. The small-font advance widths
//! are the TI-82's own (the reference chart's widths, `SMALL_WIDTHS` in the tests).
//!
//! # Bit layout
//!
//! A glyph row is a byte whose bit `5 - x` is the pixel in column `x` (bit 5 = leftmost pixel,
//! 1 = ink). A large row covers the whole 6-pixel cell, so bit 5 (cell column 0) is always 0. A
//! small row uses bits `5` down to `6 - width`.
//!
//! The LCD buffers are 96×64 pixels, 12 bytes per row, row 0 at the top; in each byte the most
//! significant bit is the leftmost pixel, as in the T6A04's 8-bit mode.
//!
//! # Codes without a glyph
//!
//! In the large font, `00` (string end), `D6` (newline) and the undefined codes `E2`–`FF` draw
//! a hollow box, the placeholder of the reference chart. The small font has nothing for `00`,
//! `D6` and `E1`–`FF`: [`small_glyph`] returns `None` and [`draw_small`] skips them. The accented
//! vowels `8A`–`B1` are their plain letters in the small font, as on the calculator.
//!
//! # Characters
//!
//! [`str_for`] gives the Unicode text of a code as listed in the spec's character table (a few
//! cells take two code points: `⁻¹`, `₁₀`, `x̄` and three cursors), [`char_for`] a single
//! character, [`code_for`] the code of a character, and [`encode`] / [`decode`] convert whole
//! strings (longest match first, spec §8.7).
//!
//! # Source format of the glyphs
//!
//! The glyphs are kept below as text pictures and turned into tables at compile time. A block
//! starts with a line `@XX` (the hex code of its first glyph; the rest of that line is a
//! comment), followed by the glyph rows (7 for the large font, 6 for the small font). Each row
//! holds the block's glyphs side by side, separated by one space; `#` is ink, `.` is blank. A
//! large-font picture is 5×7: cell columns 1–5 and rows 0–6 (column 0 and row 7 are always
//! blank). In the small font a glyph's width in the picture is its advance.

/// Width of a large-font cell in pixels.
pub const LARGE_WIDTH: usize = 6;
/// Height of a large-font cell in pixels.
pub const LARGE_HEIGHT: usize = 8;
/// Height of a small-font glyph in pixels.
pub const SMALL_HEIGHT: usize = 6;
/// Width of the LCD in pixels.
pub const LCD_WIDTH: usize = 96;
/// Height of the LCD in pixels.
pub const LCD_HEIGHT: usize = 64;
/// Bytes per LCD pixel row (8 pixels per byte, most significant bit leftmost).
pub const LCD_ROW_BYTES: usize = LCD_WIDTH / 8;
/// Bytes in an LCD buffer.
pub const LCD_BYTES: usize = LCD_ROW_BYTES * LCD_HEIGHT;

/// A small-font glyph: its advance and its pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallGlyph {
    /// How far the pen moves right after this glyph, in pixels (1–6). The glyph's pixels lie
    /// within this width.
    pub width: u8,
    /// Rows 0–5, top first; bit `5 - x` is the pixel in column `x`.
    pub rows: [u8; SMALL_HEIGHT],
}

/// The large-font cell of `code`: rows 0–7 of the 6×8 cell, top first; bit `5 - x` is the
/// pixel in column `x`. Column 0 and row 7 are always blank. Codes without a character draw a
/// hollow box.
pub fn large_glyph(code: u8) -> [u8; LARGE_HEIGHT] {
    let idx = usize::from(code);
    let src = if LARGE.defined[idx] {
        &LARGE.rows[idx]
    } else {
        &PLACEHOLDER
    };
    let mut out = [0u8; LARGE_HEIGHT];
    out[..7].copy_from_slice(src);
    out
}

/// Whether `code` has a character of its own in the large font (not the placeholder box).
pub fn large_is_defined(code: u8) -> bool {
    let idx = usize::from(code);
    LARGE.defined[idx] && code != 0x00 && code != 0xD6
}

/// The small-font glyph of `code`, or `None` where the small font has nothing (`00`, `D6`,
/// `E1`–`FF`).
pub fn small_glyph(code: u8) -> Option<SmallGlyph> {
    let idx = usize::from(small_source(code));
    let width = SMALL.widths[idx];
    (width != 0).then(|| SmallGlyph {
        width,
        rows: SMALL.rows[idx],
    })
}

/// The small-font advance of `code` in pixels (0 where the small font has nothing).
pub fn small_width(code: u8) -> u8 {
    SMALL.widths[usize::from(small_source(code))]
}

/// The width in pixels of a run of codes in the small font.
pub fn small_text_width(codes: &[u8]) -> usize {
    codes.iter().map(|&c| usize::from(small_width(c))).sum()
}

/// The code whose small glyph stands for `code`: the accented vowels `8A`–`B1` use their plain
/// letters.
fn small_source(code: u8) -> u8 {
    const PLAIN: [u8; 10] = *b"AaEeIiOoUu";
    match code {
        0x8A..=0xB1 => PLAIN[usize::from((code - 0x8A) / 4)],
        _ => code,
    }
}

/// Sets or clears the pixel at (`x`, `y`); pixels off the screen are ignored.
fn put_pixel(buf: &mut [u8; LCD_BYTES], x: usize, y: usize, ink: bool) {
    if x < LCD_WIDTH && y < LCD_HEIGHT {
        let byte = &mut buf[y * LCD_ROW_BYTES + x / 8];
        let mask = 0x80u8 >> (x % 8);
        if ink {
            *byte |= mask;
        } else {
            *byte &= !mask;
        }
    }
}

/// Writes a `width`×`rows.len()` glyph with its top-left corner at (`x`, `y`), overwriting the
/// pixels under it (blank glyph pixels clear the screen). `inverse` swaps ink and blank.
fn put_glyph(
    buf: &mut [u8; LCD_BYTES],
    y: usize,
    x: usize,
    width: usize,
    rows: &[u8],
    inverse: bool,
) {
    for (dy, &bits) in rows.iter().enumerate() {
        for dx in 0..width {
            let ink = (bits >> (5 - dx)) & 1 == 1;
            put_pixel(
                buf,
                x.saturating_add(dx),
                y.saturating_add(dy),
                ink != inverse,
            );
        }
    }
}

/// Draws `codes` in the large font, the first 6×8 cell with its top-left corner at pixel row
/// `row`, column `col`, and returns the column after the last cell (`col + 6 * codes.len()`, saturating).
/// Whole cells are written, background included, as on the home screen; pixels past the screen
/// edges are dropped. Home-screen cell (r, c) is at `row = 8 * r`, `col = 6 * c`.
pub fn draw_large(buf: &mut [u8; LCD_BYTES], row: usize, col: usize, codes: &[u8]) -> usize {
    draw_large_with(buf, row, col, codes, false)
}

/// Like [`draw_large`], with every pixel of the cells inverted when `inverse` is set (the way
/// the OS highlights menu titles and selected items).
pub fn draw_large_with(
    buf: &mut [u8; LCD_BYTES],
    row: usize,
    col: usize,
    codes: &[u8],
    inverse: bool,
) -> usize {
    let mut x = col;
    for &code in codes {
        put_glyph(buf, row, x, LARGE_WIDTH, &large_glyph(code), inverse);
        x = x.saturating_add(LARGE_WIDTH);
    }
    x
}

/// Draws `codes` in the small font like `Text(row,col,…)`: the first glyph's top-left corner
/// at pixel row `row`, column `col`, the pen moving right by each glyph's width. Each glyph
/// overwrites its `width`×6 box, background included; codes without a small glyph are skipped
/// and pixels past the screen edges are dropped. Returns the pen column after the last glyph
/// (`col` plus [`small_text_width`]).
pub fn draw_small(buf: &mut [u8; LCD_BYTES], row: usize, col: usize, codes: &[u8]) -> usize {
    let mut x = col;
    for &code in codes {
        if let Some(glyph) = small_glyph(code) {
            let width = usize::from(glyph.width);
            put_glyph(buf, row, x, width, &glyph.rows, false);
            x = x.saturating_add(width);
        }
    }
    x
}

/// The Unicode text of `code` from the spec's character table: one code point for most codes,
/// two for `11` (⁻¹), `1D` (₁₀), `CB` (x̄) and the underlined cursors `DE`–`E0`. `00` is `␀`,
/// `D6` is `␊` and the undefined codes `E2`–`FF` are U+FFFD.
pub fn str_for(code: u8) -> &'static str {
    UNICODE[usize::from(code)]
}

/// One character for `code`: the first code point of [`str_for`]. Where a cell takes two code
/// points this loses the second (`11` gives `⁻`, `1D` `₁`, `CB` `x`), so use [`str_for`] when
/// the exact text matters.
pub fn char_for(code: u8) -> char {
    str_for(code).chars().next().unwrap_or('\u{FFFD}')
}

/// The code of a single character, or `None` if no code shows it alone. Where two codes show
/// the same character the token one wins (² → `12`, ³ → `0E`, ° → `14`); `[` is `C1`, θ is
/// `5B`, and `⏨` (U+23E8) is accepted for `1D`. U+FFFD has no code.
pub fn code_for(ch: char) -> Option<u8> {
    if ch == '\u{FFFD}' {
        return None;
    }
    if ch == '\u{23E8}' {
        return Some(0x1D);
    }
    let mut utf8 = [0u8; 4];
    let s: &str = ch.encode_utf8(&mut utf8);
    (0..=255u8).find(|&code| UNICODE[usize::from(code)] == s)
}

/// Converts text to codes, matching the longest table entry first (so `⁻¹`, `₁₀` and `x̄` become
/// one code each, spec §8.7). Fails with the first character that has no code.
pub fn encode(text: &str) -> Result<Vec<u8>, char> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        let multi = MULTI
            .iter()
            .find(|&&code| rest.starts_with(UNICODE[usize::from(code)]));
        if let Some(&code) = multi {
            out.push(code);
            rest = &rest[UNICODE[usize::from(code)].len()..];
        } else {
            out.push(code_for(ch).ok_or(ch)?);
            rest = &rest[ch.len_utf8()..];
        }
    }
    Ok(out)
}

/// Converts codes to text through [`str_for`].
pub fn decode(codes: &[u8]) -> String {
    codes.iter().map(|&c| str_for(c)).collect()
}

/// The codes whose text is more than one code point, tried first by [`encode`].
const MULTI: [u8; 6] = [0x11, 0x1D, 0xCB, 0xDE, 0xDF, 0xE0];

/// The large-font placeholder for codes without a character: a hollow box.
const PLACEHOLDER: [u8; 7] = [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F];

/// Large-font rows parsed from [`LARGE_ART`].
struct LargeTable {
    rows: [[u8; 7]; 256],
    defined: [bool; 256],
}

/// Small-font widths (0 = no glyph) and rows parsed from [`SMALL_ART`].
struct SmallTable {
    widths: [u8; 256],
    rows: [[u8; SMALL_HEIGHT]; 256],
}

const LARGE: LargeTable = parse_large(LARGE_ART);
const SMALL: SmallTable = parse_small(SMALL_ART);

/// The value of a hex digit (0 for anything else).
const fn hex_digit(b: u8) -> usize {
    match b {
        b'0'..=b'9' => (b - b'0') as usize,
        b'A'..=b'F' => (b - b'A' + 10) as usize,
        b'a'..=b'f' => (b - b'a' + 10) as usize,
        _ => 0,
    }
}

/// The index just past the end of the line that contains `i`.
const fn next_line(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i + 1
}

/// Parses the large-font pictures: after each `@XX` line, 7 rows of 5-pixel glyphs.
const fn parse_large(art: &str) -> LargeTable {
    let b = art.as_bytes();
    let mut t = LargeTable {
        rows: [[0; 7]; 256],
        defined: [false; 256],
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'@' || i + 2 >= b.len() {
            i = next_line(b, i);
            continue;
        }
        let base = hex_digit(b[i + 1]) * 16 + hex_digit(b[i + 2]);
        i = next_line(b, i);
        let mut r = 0;
        while r < 7 && i < b.len() {
            let mut pos = 0;
            while i < b.len() && b[i] != b'\n' {
                let code = base + pos / 6;
                let x = pos % 6;
                if code < 256 && x < 5 {
                    t.defined[code] = true;
                    if b[i] == b'#' {
                        t.rows[code][r] |= 1 << (4 - x);
                    }
                }
                pos += 1;
                i += 1;
            }
            i += 1;
            r += 1;
        }
    }
    t
}

/// Parses the small-font pictures: after each `@XX` line, 6 rows of glyphs separated by
/// spaces; a glyph's width on the first row is its advance.
const fn parse_small(art: &str) -> SmallTable {
    let b = art.as_bytes();
    let mut t = SmallTable {
        widths: [0; 256],
        rows: [[0; SMALL_HEIGHT]; 256],
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'@' || i + 2 >= b.len() {
            i = next_line(b, i);
            continue;
        }
        let base = hex_digit(b[i + 1]) * 16 + hex_digit(b[i + 2]);
        i = next_line(b, i);
        let mut r = 0;
        while r < SMALL_HEIGHT && i < b.len() {
            let mut code = base;
            let mut x = 0;
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b' ' {
                    code += 1;
                    x = 0;
                } else {
                    if code < 256 && x < 6 {
                        if r == 0 {
                            t.widths[code] = x as u8 + 1;
                        }
                        if b[i] == b'#' {
                            t.rows[code][r] |= 1 << (5 - x);
                        }
                    }
                    x += 1;
                }
                i += 1;
            }
            i += 1;
            r += 1;
        }
    }
    t
}

/// The large font: 5×7 pictures of the codes `00`–`E1` (see "Source format" above).
const LARGE_ART: &str = r#"
@00 ␀ 𝐛 𝐨 𝐝 𝐡 ► ⬆ ⬇
##### ##... ..... ...## ##... #.... ..#.. .###.
#...# ##... ..... ...## ##... ##... .###. .###.
#...# ####. .###. .#### ####. ###.. ##### .###.
#...# ##.## ##.## ##.## ##.## ####. .###. .###.
#...# ##.## ##.## ##.## ##.## ###.. .###. #####
#...# ##.## ##.## ##.## ##.## ##... .###. .###.
##### ####. .###. .#### ##.## #.... .###. ..#..
@08 ∫ × □ ﹢ · ᴛ ³ 𝐅
...#. ..... ..... ..... ..... ..... ##... #####
..#.# #...# ##### ..... ..... ..... ..#.. ##...
..#.. .#.#. #...# ..#.. ..... ..... .#... ##...
..#.. ..#.. #...# .###. ..#.. .###. ..#.. ####.
..#.. .#.#. #...# ..#.. ..... ..#.. ##... ##...
#.#.. #...# ##### ..... ..... ..#.. ..... ##...
.#... ..... ..... ..... ..... ..#.. ..... ##...
@10 √ ⁻¹ ² ∠ ° ʳ ᵀ ≤
..### ...#. ##... ..... .#... #.##. ###.. ....#
..#.. ..##. ..#.. ..... #.#.. ##... .#... ..##.
..#.. ##.#. .#... ....# .#... #.... .#... ##...
..#.. ...#. #.... ...#. ..... #.... .#... ..##.
#.#.. ...#. ###.. ..#.. ..... ..... ..... ....#
.##.. ..... ..... .#... ..... ..... ..... .....
..#.. ..... ..... ##### ..... ..... ..... #####
@18 ≠ ≥ ⁻ ᴇ → ₁₀ ↑ ↓
....# #.... ..... ..... ..... ..... ..#.. ..#..
...#. .##.. ..... ..... ..#.. ..... .###. ..#..
##### ...## .###. ####. ...#. #..#. #.#.# ..#..
..#.. .##.. ..... #.... ##### #.#.# ..#.. ..#..
##### #.... ..... ###.. ...#. #.#.# ..#.. #.#.#
.#... ..... ..... #.... ..#.. #.#.# ..#.. .###.
#.... ##### ..... ####. ..... #..#. ..#.. ..#..
@20 sp ! " # ⁴ % & '
..... ..#.. .#.#. .#.#. #.#.. ##... .##.. ..#..
..... ..#.. .#.#. .#.#. #.#.. ##..# #..#. ..#..
..... ..#.. .#.#. ##### ###.. ...#. #.#.. .#...
..... ..#.. ..... .#.#. ..#.. ..#.. .#... .....
..... ..#.. ..... ##### ..#.. .#... #.#.# .....
..... ..... ..... .#.#. ..... #..## #..#. .....
..... ..#.. ..... .#.#. ..... ...## .##.# .....
@28 ( ) * + , - . /
...#. .#... ..... ..... ..... ..... ..... .....
..#.. ..#.. ..#.. ..#.. ..... ..... ..... ....#
.#... ...#. #.#.# ..#.. ..... ..... ..... ...#.
.#... ...#. .###. ##### ..... ##### ..... ..#..
.#... ...#. #.#.# ..#.. .##.. ..... ..... .#...
..#.. ..#.. ..#.. ..#.. ..#.. ..... .##.. #....
...#. .#... ..... ..... .#... ..... .##.. .....
@30 0 1 2 3 4 5 6 7
.###. ..#.. .###. ##### ...#. ##### ..##. #####
#...# .##.. #...# ...#. ..##. #.... .#... ....#
#..## ..#.. ....# ..#.. .#.#. ####. #.... ...#.
#.#.# ..#.. ...#. ...#. #..#. ....# ####. ..#..
##..# ..#.. ..#.. ....# ##### ....# #...# .#...
#...# ..#.. .#... #...# ...#. #...# #...# .#...
.###. .###. ##### .###. ...#. .###. .###. .#...
@38 8 9 : ; < = > ?
.###. .###. ..... ..... ...#. ..... .#... .###.
#...# #...# .##.. .##.. ..#.. ..... ..#.. #...#
#...# #...# .##.. .##.. .#... ##### ...#. ....#
.###. .#### ..... ..... #.... ..... ....# ...#.
#...# ....# .##.. .##.. .#... ##### ...#. ..#..
#...# ...#. .##.. ..#.. ..#.. ..... ..#.. .....
.###. .##.. ..... .#... ...#. ..... .#... ..#..
@40 @ A B C D E F G
.###. .###. ####. .###. ###.. ##### ##### .###.
#...# #...# #...# #...# #..#. #.... #.... #...#
#.### #...# #...# #.... #...# #.... #.... #....
#.#.# ##### ####. #.... #...# ####. ####. #.###
#.##. #...# #...# #.... #...# #.... #.... #...#
#.... #...# #...# #...# #..#. #.... #.... #...#
.#### #...# ####. .###. ###.. ##### #.... .####
@48 H I J K L M N O
#...# .###. ..### #...# #.... #...# #...# .###.
#...# ..#.. ...#. #..#. #.... ##.## #...# #...#
#...# ..#.. ...#. #.#.. #.... #.#.# ##..# #...#
##### ..#.. ...#. ##... #.... #.#.# #.#.# #...#
#...# ..#.. ...#. #.#.. #.... #...# #..## #...#
#...# ..#.. #..#. #..#. #.... #...# #...# #...#
#...# .###. .##.. #...# ##### #...# #...# .###.
@50 P Q R S T U V W
####. .###. ####. .#### ##### #...# #...# #...#
#...# #...# #...# #.... ..#.. #...# #...# #...#
#...# #...# #...# #.... ..#.. #...# #...# #...#
####. #...# ####. .###. ..#.. #...# #...# #.#.#
#.... #.#.# #.#.. ....# ..#.. #...# .#.#. #.#.#
#.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.#
#.... .##.# #...# ####. ..#.. .###. ..#.. .#.#.
@58 X Y Z θ \ ] ^ _
#...# #...# ##### .###. ..... .###. ..#.. .....
#...# #...# ....# #...# #.... ...#. .#.#. .....
.#.#. .#.#. ...#. #...# .#... ...#. #...# .....
..#.. ..#.. ..#.. ##### ..#.. ...#. ..... .....
.#.#. ..#.. .#... #...# ...#. ...#. ..... .....
#...# ..#.. #.... #...# ....# ...#. ..... .....
#...# ..#.. ##### .###. ..... .###. ..... #####
@60 ` a b c d e f g
..#.. ..... #.... ..... ....# ..... ..##. .....
..#.. ..... #.... ..... ....# ..... .#..# .....
...#. .###. #.##. .###. .##.# .###. .#... .####
..... ....# ##..# #.... #..## #...# ###.. #...#
..... .#### #...# #.... #...# ##### .#... .####
..... #...# #...# #...# #...# #.... .#... ....#
..... .#### ####. .###. .#### .###. .#... .###.
@68 h i j k l m n o
#.... ..#.. ...#. #.... .##.. ..... ..... .....
#.... ..... ..... #.... ..#.. ..... ..... .....
#.##. .##.. ..##. #..#. ..#.. ##.#. #.##. .###.
##..# ..#.. ...#. #.#.. ..#.. #.#.# ##..# #...#
#...# ..#.. ...#. ##... ..#.. #.#.# #...# #...#
#...# ..#.. #..#. #.#.. ..#.. #...# #...# #...#
#...# .###. .##.. #..#. .###. #...# #...# .###.
@70 p q r s t u v w
..... ..... ..... ..... .#... ..... ..... .....
..... ..... ..... ..... .#... ..... ..... .....
####. .##.# #.##. .###. ###.. #...# #...# #...#
#...# #..## ##..# #.... .#... #...# #...# #...#
####. .#### #.... .###. .#... #...# #...# #.#.#
#.... ....# #.... ....# .#..# #..## .#.#. #.#.#
#.... ....# #.... ####. ..##. .##.# ..#.. .#.#.
@78 x y z { | } ~ ⊜
..... ..... ..... ...#. ..#.. .#... ..... #####
..... ..... ..... ..#.. ..#.. ..#.. ..... #####
#...# #...# ##### ..#.. ..#.. ..#.. .##.# #...#
.#.#. #...# ...#. .#... ..#.. ...#. #..#. #####
..#.. .#### ..#.. ..#.. ..#.. ..#.. ..... #...#
.#.#. ....# .#... ..#.. ..#.. ..#.. ..... #####
#...# .###. ##### ...#. ..#.. .#... ..... #####
@80 ₀ ₁ ₂ ₃ ₄ ₅ ₆ ₇
..... ..... ..... ..... ..... ..... ..... .....
..... ..... ..... ..... ..... ..... ..... .....
.#... .#... ##... ##... #.#.. ###.. .##.. ###..
#.#.. ##... ..#.. ..#.. #.#.. #.... #.... ..#..
#.#.. .#... .#... .#... ###.. ##... ##... .#...
#.#.. .#... #.... ..#.. ..#.. ..#.. #.#.. .#...
.#... ###.. ###.. ##... ..#.. ##... .#... .#...
@88 ₈ ₉ Á À Â Ä á à
..... ..... ...#. .#... ..#.. .#.#. ...#. .#...
..... ..... ..#.. ..#.. .#.#. ..... ..#.. ..#..
.#... .#... .###. .###. .###. .###. ..... .....
#.#.. #.#.. #...# #...# #...# #...# .###. .###.
.#... .##.. ##### ##### ##### ##### #...# #...#
#.#.. ..#.. #...# #...# #...# #...# #..## #..##
.#... ##... #...# #...# #...# #...# .##.# .##.#
@90 â ä É È Ê Ë é è
..#.. .#.#. ...#. .#... ..#.. .#.#. ...#. .#...
.#.#. ..... ..#.. ..#.. .#.#. ..... ..#.. ..#..
..... ..... ##### ##### ##### ##### ..... .....
.###. .###. #.... #.... #.... #.... .###. .###.
#...# #...# ####. ####. ####. ####. ##### #####
#..## #..## #.... #.... #.... #.... #.... #....
.##.# .##.# ##### ##### ##### ##### .###. .###.
@98 ê ë Í Ì Î Ï í ì
..#.. .#.#. ...#. .#... ..#.. .#.#. ...#. .#...
.#.#. ..... ..#.. ..#.. .#.#. ..... ..#.. ..#..
..... ..... .###. .###. .###. .###. ..... .....
.###. .###. ..#.. ..#.. ..#.. ..#.. .##.. .##..
##### ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
#.... #.... ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
.###. .###. .###. .###. .###. .###. .###. .###.
@A0 î ï Ó Ò Ô Ö ó ò
..#.. .#.#. ...#. .#... ..#.. .#.#. ...#. .#...
.#.#. ..... ..#.. ..#.. .#.#. ..... ..#.. ..#..
..... ..... .###. .###. .###. .###. ..... .....
.##.. .##.. #...# #...# #...# #...# .###. .###.
..#.. ..#.. #...# #...# #...# #...# #...# #...#
..#.. ..#.. #...# #...# #...# #...# #...# #...#
.###. .###. .###. .###. .###. .###. .###. .###.
@A8 ô ö Ú Ù Û Ü ú ù
..#.. .#.#. ...#. .#... ..#.. .#.#. ...#. .#...
.#.#. ..... ..#.. ..#.. .#.#. ..... ..#.. ..#..
..... ..... #...# #...# #...# #...# ..... .....
.###. .###. #...# #...# #...# #...# #...# #...#
#...# #...# #...# #...# #...# #...# #...# #...#
#...# #...# #...# #...# #...# #...# #..## #..##
.###. .###. .###. .###. .###. .###. .##.# .##.#
@B0 û ü Ç ç Ñ ñ ´ ˋ
..#.. .#.#. .###. ..... .##.# .##.# ...#. .#...
.#.#. ..... #...# ..... #..#. #..#. ..#.. ..#..
..... ..... #.... .#### #...# ..... ..... .....
#...# #...# #.... #.... ##..# #.##. ..... .....
#...# #...# #...# #.... #.#.# ##..# ..... .....
#..## #..## .###. .#### #..## #...# ..... .....
.##.# .##.# .##.. .##.. #...# #...# ..... .....
@B8 ¨ ¿ ¡ α β γ Δ δ
.#.#. ..#.. ..#.. ..... .##.. ..... ..#.. .###.
..... ..... ..... ..... #..#. ..... ..#.. .#...
..... ..#.. ..#.. .##.# ###.. #...# .#.#. ..#..
..... .#... ..#.. #..#. #..#. .#.#. .#.#. .###.
..... #.... ..#.. #..#. #..#. ..#.. #...# #...#
..... #...# ..#.. #..#. ###.. .#.#. #...# #...#
..... .###. ..#.. .##.# #.... ..#.. ##### .###.
@C0 ε [ λ μ π ρ Σ σ
..... .###. #.... ..... ..... ..... ##### .....
..... .#... .#... ..... ..... ..... #.... .....
.###. .#... ..#.. #...# ##### .###. .#... .####
#.... .#... ..#.. #...# .#.#. #...# ..#.. #..#.
.##.. .#... .#.#. #..## .#.#. #...# .#... #...#
#.... .#... #...# ###.# .#.#. ####. #.... #...#
.###. .###. #...# #.... .#.#. #.... ##### .###.
@C8 τ φ Ω x̄ ȳ ˣ … ◀
..... ..#.. .###. ##### ##### #.#.. ..... ....#
..... ..#.. #...# ..... ..... .#... ..... ...##
##### .###. #...# #...# #...# #.#.. ..... ..###
..#.. #.#.# #...# .#.#. #...# ..... ..... .####
..#.. #.#.# .#.#. ..#.. .#### ..... ..... ..###
..#.. .###. .#.#. .#.#. ....# ..... ..... ...##
...## ..#.. ##.## #...# .###. ..... #.#.# ....#
@D0 ▪ ∕ ‐ ² ° ³ ␊ 𝑛
..... ....# ..... ##... .#... ##... ##### .....
..... ....# ..... ..#.. #.#.. ..#.. #...# .....
.###. ...#. ..... .#... .#... .#... #...# .#.##
.###. ..#.. .###. #.... ..... ..#.. #...# .##.#
.###. .#... ..... ###.. ..... ##... #...# .#..#
..... #.... ..... ..... ..... ..... #...# #..#.
..... #.... ..... ..... ..... ..... ##### #..#.
@D8 ➤ █ ⇧ Ⓐ ⓐ ▁ ⇧̲ A̲
..... ##### ##.## ##### ##### ..... ..#.. .###.
..#.. ##### #...# ##.## ##### ..... .###. #...#
####. ##### ..... #.#.# ##..# ..... #.#.# #####
##### ##### ##.## #...# #.#.# ..... ..#.. #...#
####. ##### ##.## #.#.# #.#.# ..... ..#.. #...#
..#.. ##### ##.## #.#.# ##..# ..... ..... .....
..... ##### ##### ##### ##### ##### ##### #####
@E0 a̲ ▒
..... #.#.#
.###. .#.#.
#...# #.#.#
#..## .#.#.
.##.# #.#.#
..... .#.#.
##### #.#.#"#;

/// The small font: every code with a small glyph except the accented vowels `8A`–`B1`
/// (see "Source format" above). The plot icons `D9`–`E0` are four 11-pixel pictures cut
/// into a 6-pixel left half and a 5-pixel right half.
const SMALL_ART: &str = r#"
@01 𝐛 𝐨 𝐝 𝐡 ► ⬆ ⬇ ∫ × □ ﹢ ·
..... ..... ..... ..... .... .... ..... .... .... .... .... ....
##... ..... ..##. ##... #... .... .###. .##. .... .... .... ....
###.. .##.. .###. ###.. ##.. .... .###. .#.. #.#. ###. .#.. ....
##.#. ##.#. #.##. ##.#. ###. .... ##### .#.. .#.. #.#. ###. .#..
##.#. ##.#. #.##. ##.#. ##.. .... .###. .#.. #.#. ###. .#.. ....
###.. .##.. .###. ##.#. #... .... ..#.. ##.. .... .... .... ....
@0D ᴛ ³ 𝐅 √ ⁻¹ ² ∠ ° ʳ ᵀ ≤
.... .... ..... .... ..... .... .... ..... ..... .... .....
.... .### ####. .##. ..##. ##.. .... .##.. #.##. ###. ..##.
.... ..## ##... .#.. ##.#. .#.. ..#. #..#. ##... .#.. ##...
###. .### ###.. .#.. ...#. .##. .#.. .##.. #.... .#.. ..##.
.#.. .... ##... ##.. ..... .... #... ..... ..... .... .....
.#.. .... ##... .#.. ..... .... ###. ..... ..... .... ####.
@18 ≠ ≥ ⁻ ᴇ → ₁₀ ↑ ↓ sp ! " #
...... ..... .... .... ..... ...... ... ... . .. .... ......
....#. ##... .... .... ..... ...... .#. .#. . #. #.#. .#.#..
#####. ..##. ###. ###. ..#.. #.###. ### .#. . #. #.#. #####.
..#... ##... .... ##.. ####. #.#.#. .#. .#. . #. .... .#.#..
#####. ..... .... #... ..#.. #.#.#. .#. ### . .. .... #####.
#..... ####. .... ###. ..... #.###. .#. .#. . #. .... .#.#..
@24 ⁴ % & ' ( ) * + , - . / 0
...... .... ..... .. ... ... ...... .... ... .... .. .... ....
.####. #.#. .#... #. .#. #.. ..#... .... ... .... .. ..#. ###.
#.#... ..#. #.#.. #. #.. .#. #.#.#. .#.. ... .... .. ..#. #.#.
.###.. .#.. .#.#. .. #.. .#. .###.. ###. ... ###. .. .#.. #.#.
..#.#. #... #.#.. .. #.. .#. #.#.#. .#.. .#. .... .. #... #.#.
####.. #.#. .#.#. .. .#. #.. ..#... .... #.. .... #. #... ###.
@31 1 2 3 4 5 6 7 8 9 : ; < =
.... .... .... .... .... .... .... .... .... .. ... .... ....
.#.. ###. ###. #.#. ###. ###. ###. ###. ###. .. ... ..#. ....
##.. ..#. ..#. #.#. #... #... ..#. #.#. #.#. #. .#. .#.. ###.
.#.. ###. .##. ###. ###. ###. ..#. ###. ###. .. ... #... ....
.#.. #... ..#. ..#. ..#. #.#. .#.. #.#. ..#. #. .#. .#.. ###.
###. ###. ###. ..#. ###. ###. .#.. ###. ###. .. #.. ..#. ....
@3E > ? @ A B C D E F G H I
.... .... ...... .... .... .... .... .... .... ..... .... ..
#... ##.. .###.. .#.. ##.. .##. ##.. ###. ###. .##.. #.#. #.
.#.. ..#. #.###. #.#. #.#. #... #.#. #... #... #.... #.#. #.
..#. .#.. #.#.#. ###. ##.. #... #.#. ##.. ##.. #.##. ###. #.
.#.. .... #.###. #.#. #.#. #... #.#. #... #... #..#. #.#. #.
#... .#.. .##... #.#. ##.. .##. ##.. ###. #... .###. #.#. #.
@4A J K L M N O P Q R S T U
.... ..... .... ...... ..... .... .... ..... .... .... .... ....
..#. #..#. #... #...#. #..#. .#.. ##.. .##.. ##.. .##. ###. #.#.
..#. #.#.. #... ##.##. ##.#. #.#. #.#. #..#. #.#. #... .#.. #.#.
..#. ##... #... #.#.#. #.##. #.#. ##.. #..#. ##.. .#.. .#.. #.#.
#.#. #.#.. #... #...#. #..#. #.#. #... #.#.. #.#. ..#. .#.. #.#.
.#.. #..#. ###. #...#. #..#. .#.. #... .#.#. #.#. ##.. .#.. ###.
@56 V W X Y Z θ \ ] ^ _ ` a b
.... ...... .... .... .... .... .... ... .... .... ... .... ....
#.#. #...#. #.#. #.#. ###. .#.. #... ##. .#.. .... #.. .... #...
#.#. #...#. #.#. #.#. ..#. #.#. #... .#. #.#. .... .#. .##. #...
#.#. #.#.#. .#.. .#.. .#.. ###. .#.. .#. .... .... ... #.#. ##..
#.#. #.#.#. #.#. .#.. #... #.#. ..#. .#. .... .... ... #.#. #.#.
.#.. .#.#.. #.#. .#.. ###. .#.. ..#. ##. .... ###. ... .##. ##..
@63 c d e f g h i j k l m n o
.... .... .... ... .... .... .. .... .... ... ...... .... ....
.... ..#. .... .#. .... #... #. ..#. #... #.. ...... .... ....
.##. ..#. .#.. #.. .##. #... .. .... #... #.. ##.#.. ##.. .#..
#... .##. #.#. ##. #.#. ##.. #. ..#. #.#. #.. #.#.#. #.#. #.#.
#... #.#. ##.. #.. .##. #.#. #. #.#. ##.. #.. #.#.#. #.#. #.#.
.##. .##. .##. #.. ##.. #.#. #. .#.. #.#. .#. #.#.#. #.#. .#..
@70 p q r s t u v w x y z { |
.... .... .... ... ... .... .... ...... .... .... ..... .... ..
.... .... .... ... #.. .... .... ...... .... .... ..... .##. #.
##.. .##. #.#. ##. ##. #.#. #.#. #...#. #.#. #.#. ####. .#.. #.
#.#. #.#. ##.. #.. #.. #.#. #.#. #.#.#. .#.. #.#. ..#.. #... #.
##.. .##. #... .#. #.. #.#. #.#. #.#.#. .#.. .##. .#... .#.. #.
#... ..#. #... ##. .#. .##. .#.. .#.#.. #.#. ##.. ####. .##. #.
@7D } ~ ⊜ ₀ ₁ ₂ ₃ ₄ ₅ ₆ ₇ ₈ ₉
.... ..... .... .... ... .... .... .... .... .... .... .... ....
##.. ..... ###. .... ... .... .... .... .... .... .... .... ....
.#.. .#.#. .... ###. .#. ##.. ###. #.#. ###. #... ###. ###. ###.
..#. #.#.. ###. #.#. ##. ..#. .##. ###. ##.. ###. ..#. .#.. #.#.
.#.. ..... .... #.#. .#. .#.. ..#. ..#. ..#. #.#. .#.. #.#. ###.
##.. ..... ###. ###. .#. ###. ###. ..#. ##.. ###. .#.. ###. ..#.
@B2 Ç ç Ñ ñ ´ ˋ ¨ ¿ ¡ α β γ
.... .... .#.#. .#.#. ... ... .... .... .. ..... .... .....
.##. .... #.#.. #.#.. .#. #.. #.#. .#.. .. ..... .#.. .....
#... .##. #..#. ###.. #.. .#. .... .... #. .#.#. #.#. #..#.
#... #... ##.#. #..#. ... ... .... .#.. .. #.#.. ##.. #..#.
.##. .##. #.##. #..#. ... ... .... #... #. #.#.. #.#. .##..
.#.. .#.. #..#. #..#. ... ... .... .##. #. .#.#. ##.. .#...
@BE Δ δ ε [ λ μ π ρ Σ σ τ
...... .... .... ... .... ..... ...... ..... ..... ..... .....
..#... .##. .... ##. #... ..... ...... ..... ####. ..... .....
.#.#.. #... .##. #.. .#.. #..#. #####. .##.. #.... .###. ####.
.#.#.. .#.. ##.. #.. .#.. #..#. .#.#.. #..#. .#... #.#.. .#...
#...#. #.#. #... #.. #.#. ####. .#.#.. ###.. #.... #.#.. .#...
#####. .#.. .##. ##. #.#. #.... .#.#.. #.... ####. .#... ..#..
@C9 φ Ω x̄ ȳ ˣ … ◀ ▪ ∕ ‐ ² °
...... ...... .... .... .... .... .... ... .... ... .... ....
..#... .###.. ###. ###. #.#. .... ..#. ... ..#. ... ##.. .#..
.###.. #...#. .... .... .#.. .... .##. ... ..#. ... .#.. #.#.
#.#.#. #...#. #.#. #.#. #.#. .... ###. ##. .#.. ##. .##. .#..
.###.. .#.#.. .#.. .#.. .... .... .##. ##. .#.. ... .... ....
..#... ##.##. #.#. .#.. .... #.#. ..#. ... #... ... .... ....
@D5 ³
....
###.
.##.
###.
....
....
@D7 𝑛 ➤ █ ⇧ Ⓐ ⓐ ▁ ⇧̲ A̲ a̲
...... ... ...... ..... ...... ....# ...... ..... ....## ##...
...... ##. .....# ...#. ...... ...#. ...### ###.. ....#. .#...
.###.. #.. .#.... ..... ..#... ..#.. #..#.# ..#.# #####. .#...
.#..#. ##. ...#.. ....# .#.#.. .#... ####.# ..### #...#. .####
#..#.. #.. ...... .#... #...#. #.... #..#.# ..#.# #...#. .#..#
#..#.. ##. #....# ..... .....# ..... ...### ###.. #...#. .#..#"#;

/// The `unicode` column of the spec's character table (`ti82-charset.tsv`), code by code.
#[rustfmt::skip]
const UNICODE: [&str; 256] = [
    "␀", "𝐛", "𝐨", "𝐝", "𝐡", "►", "⬆", "⬇", // 00
    "∫", "×", "□", "﹢", "·", "ᴛ", "³", "𝐅", // 08
    "√", "⁻¹", "²", "∠", "°", "ʳ", "ᵀ", "≤", // 10
    "≠", "≥", "⁻", "ᴇ", "→", "₁₀", "↑", "↓", // 18
    " ", "!", "\"", "#", "⁴", "%", "&", "'", // 20
    "(", ")", "*", "+", ",", "-", ".", "/", // 28
    "0", "1", "2", "3", "4", "5", "6", "7", // 30
    "8", "9", ":", ";", "<", "=", ">", "?", // 38
    "@", "A", "B", "C", "D", "E", "F", "G", // 40
    "H", "I", "J", "K", "L", "M", "N", "O", // 48
    "P", "Q", "R", "S", "T", "U", "V", "W", // 50
    "X", "Y", "Z", "θ", "\\", "]", "^", "_", // 58
    "`", "a", "b", "c", "d", "e", "f", "g", // 60
    "h", "i", "j", "k", "l", "m", "n", "o", // 68
    "p", "q", "r", "s", "t", "u", "v", "w", // 70
    "x", "y", "z", "{", "|", "}", "~", "⊜", // 78
    "₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", // 80
    "₈", "₉", "Á", "À", "Â", "Ä", "á", "à", // 88
    "â", "ä", "É", "È", "Ê", "Ë", "é", "è", // 90
    "ê", "ë", "Í", "Ì", "Î", "Ï", "í", "ì", // 98
    "î", "ï", "Ó", "Ò", "Ô", "Ö", "ó", "ò", // A0
    "ô", "ö", "Ú", "Ù", "Û", "Ü", "ú", "ù", // A8
    "û", "ü", "Ç", "ç", "Ñ", "ñ", "´", "ˋ", // B0
    "¨", "¿", "¡", "α", "β", "γ", "Δ", "δ", // B8
    "ε", "[", "λ", "μ", "π", "ρ", "Σ", "σ", // C0
    "τ", "φ", "Ω", "x\u{304}", "ȳ", "ˣ", "…", "◀", // C8
    "▪", "∕", "‐", "²", "°", "³", "␊", "𝑛", // D0
    "➤", "█", "⇧", "Ⓐ", "ⓐ", "▁", "⇧\u{332}", "A\u{332}", // D8
    "a\u{332}", "▒", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", // E0
    "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", // E8
    "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", // F0
    "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", // F8
];
