//! Tests of the TI-82 fonts and character set (`tibasic::font`).
//!
//! The golden sheets `golden/font-large.txt` and `golden/font-small.txt` show every glyph as
//! text art (`#` ink, `.` blank); `golden/font-samples.txt` shows sample strings drawn into an
//! LCD buffer. Run with `BLESS=1` to rewrite them after changing a glyph, then look at them.

use std::fmt::Write as _;
use std::path::PathBuf;

use tibasic::font::{
    char_for, code_for, decode, draw_large, draw_large_with, draw_small, encode, large_glyph,
    large_is_defined, small_glyph, small_text_width, small_width, str_for, LCD_BYTES,
    LCD_ROW_BYTES,
};

/// The small-font advance of every code, from the spec's character table (`small_width`);
/// 0 where the small font has nothing.
const SMALL_WIDTHS: [u8; 256] = [
    0, 5, 5, 5, 5, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 5, // 00
    4, 5, 4, 4, 5, 5, 4, 5, 6, 5, 4, 4, 5, 6, 3, 3, // 10
    1, 2, 4, 6, 6, 4, 5, 2, 3, 3, 6, 4, 3, 4, 2, 4, // 20
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, // 30
    6, 4, 4, 4, 4, 4, 4, 5, 4, 2, 4, 5, 4, 6, 5, 4, // 40
    4, 5, 4, 4, 4, 4, 4, 6, 4, 4, 4, 4, 4, 3, 4, 4, // 50
    3, 4, 4, 4, 4, 4, 3, 4, 4, 2, 4, 4, 3, 6, 4, 4, // 60
    4, 4, 4, 3, 3, 4, 4, 6, 4, 4, 5, 4, 2, 4, 5, 4, // 70
    4, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // 80
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, // 90
    2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // A0
    4, 4, 4, 4, 5, 5, 3, 3, 4, 4, 2, 5, 4, 5, 6, 4, // B0
    4, 3, 4, 5, 6, 5, 5, 5, 5, 6, 6, 4, 4, 4, 4, 4, // C0
    3, 4, 3, 4, 4, 4, 0, 6, 3, 6, 5, 6, 5, 6, 5, 6, // D0
    5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // E0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // F0
];

/// Compares `text` with the golden file `name`, or rewrites the file when `BLESS` is set.
fn golden(name: &str, text: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1 to create it)", path.display()));
    if expected != text {
        let line = expected.lines().zip(text.lines()).position(|(a, b)| a != b);
        panic!(
            "{name} differs from the golden file (first differing line: {:?}); run with BLESS=1 \
             to update it",
            line.map(|l| l + 1)
        );
    }
}

/// Row `bits` of a glyph `width` pixels wide as text art (bit `5 - x` is column `x`).
fn row_art(bits: u8, width: usize) -> String {
    (0..width)
        .map(|x| if bits >> (5 - x) & 1 == 1 { '#' } else { '.' })
        .collect()
}

/// A rectangle of an LCD buffer as text art.
fn lcd_art(buf: &[u8; LCD_BYTES], x0: usize, y0: usize, w: usize, h: usize) -> String {
    let mut out = String::new();
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            let on = buf[y * LCD_ROW_BYTES + x / 8] & (0x80 >> (x % 8)) != 0;
            out.push(if on { '#' } else { '.' });
        }
        out.push('\n');
    }
    out
}

#[test]
fn large_sheet_matches_golden() {
    let mut out = String::from(
        "TI-82 large font (our drawing): every code as its 6x8 cell, 8 codes to a line.\n",
    );
    for base in (0..256usize).step_by(8) {
        out.push('\n');
        for code in base..base + 8 {
            let _ = write!(out, "{code:02X} {:<4}", char_label(code as u8));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        let glyphs: Vec<[u8; 8]> = (base..base + 8).map(|c| large_glyph(c as u8)).collect();
        for r in 0..8 {
            let row: Vec<String> = glyphs.iter().map(|g| row_art(g[r], 6)).collect();
            out.push_str(&row.join("  "));
            out.push('\n');
        }
    }
    golden("font-large.txt", &out);
}

#[test]
fn small_sheet_matches_golden() {
    let mut out = String::from(
        "TI-82 small font (our drawing): every code that has a small glyph, with its advance.\n",
    );
    let codes: Vec<u8> = (0..=255u8).filter(|&c| small_glyph(c).is_some()).collect();
    for chunk in codes.chunks(10) {
        out.push('\n');
        let glyphs: Vec<_> = chunk.iter().map(|&c| small_glyph(c).unwrap()).collect();
        let cell = 7;
        let mut head = String::new();
        for (&code, g) in chunk.iter().zip(&glyphs) {
            let _ = write!(head, "{:<cell$}", format!("{code:02X}:{}", g.width));
        }
        out.push_str(head.trim_end());
        out.push('\n');
        for r in 0..6 {
            let mut line = String::new();
            for g in &glyphs {
                let _ = write!(line, "{:<cell$}", row_art(g.rows[r], usize::from(g.width)));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    golden("font-small.txt", &out);
}

/// A short printable label for a code in the sheet headers.
fn char_label(code: u8) -> String {
    match code {
        0x00 | 0xD6 | 0xE2..=0xFF => String::new(),
        0x20 => "sp".into(),
        _ => str_for(code).to_string(),
    }
}

#[test]
fn small_widths_match_the_chart() {
    for code in 0..=255u8 {
        let expected = SMALL_WIDTHS[usize::from(code)];
        assert_eq!(small_width(code), expected, "width of {code:02X}");
        match small_glyph(code) {
            Some(g) => assert_eq!(g.width, expected, "glyph width of {code:02X}"),
            None => assert_eq!(expected, 0, "{code:02X} should have a small glyph"),
        }
    }
    // The TI-82's own widths, which differ from the TI-83's.
    for (ch, w) in [
        ('I', 2),
        ('K', 5),
        ('M', 6),
        ('N', 5),
        ('Q', 5),
        ('W', 6),
        (' ', 1),
    ] {
        assert_eq!(small_width(ch as u8), w, "{ch}");
    }
}

#[test]
fn small_glyphs_stay_in_their_boxes() {
    for code in 0..=255u8 {
        let Some(g) = small_glyph(code) else { continue };
        let w = usize::from(g.width);
        assert!((1..=6).contains(&w), "{code:02X}");
        let outside = (1u8 << (6 - w)) - 1;
        for (r, &bits) in g.rows.iter().enumerate() {
            assert_eq!(
                bits & outside,
                0,
                "{code:02X} row {r} has ink past its width"
            );
            assert_eq!(bits & 0xC0, 0, "{code:02X} row {r}");
        }
        let icon = (0xD9..=0xE0).contains(&code);
        // Row 0 is blank except in Ñ, ñ and the plot icons.
        if !(icon || code == 0xB4 || code == 0xB5) {
            assert_eq!(g.rows[0], 0, "{code:02X} has ink in row 0");
        }
        // The last column is blank except in a few glyphs that touch what follows.
        let touches = icon || matches!(code, 0x07 | 0x0E | 0x1E | 0x1F);
        let last = 1u8 << (6 - w);
        let last_ink = g.rows.iter().any(|&bits| bits & last != 0);
        if w > 1 {
            assert_eq!(last_ink, touches, "{code:02X}: ink in last column");
        }
        // Every glyph except the blanks has some ink.
        let blank = matches!(code, 0x06 | 0x20);
        assert_eq!(
            g.rows.iter().all(|&bits| bits == 0),
            blank,
            "{code:02X} ink"
        );
    }
}

#[test]
fn small_accented_vowels_are_plain_letters() {
    let plain = b"AaEeIiOoUu";
    for code in 0x8Au8..=0xB1 {
        let base = plain[usize::from((code - 0x8A) / 4)];
        assert_eq!(small_glyph(code), small_glyph(base), "{code:02X}");
    }
    // Ç ç Ñ ñ have their own glyphs.
    assert_ne!(small_glyph(0xB2), small_glyph(b'C'));
    assert_ne!(small_glyph(0xB4), small_glyph(b'N'));
}

#[test]
fn large_glyphs_keep_column_0_and_row_7_blank() {
    for code in 0..=255u8 {
        let g = large_glyph(code);
        assert_eq!(g[7], 0, "{code:02X} has ink in row 7");
        for (r, &bits) in g.iter().enumerate() {
            assert_eq!(
                bits & !0x1F,
                0,
                "{code:02X} row {r} has ink outside columns 1-5"
            );
        }
    }
}

#[test]
fn large_glyphs_are_distinct_where_they_should_be() {
    let placeholder = large_glyph(0xFF);
    for code in 0..=255u8 {
        let g = large_glyph(code);
        let defined = large_is_defined(code);
        assert_eq!(
            defined,
            !matches!(code, 0x00 | 0xD6 | 0xE2..=0xFF),
            "{code:02X}"
        );
        if defined {
            assert_ne!(g, placeholder, "{code:02X} draws the placeholder");
            assert_eq!(g.iter().all(|&b| b == 0), code == 0x20, "{code:02X} ink");
        } else {
            assert_eq!(g, placeholder, "{code:02X}");
        }
    }
    // Codes that are the same character twice (token and TI-85 unit forms).
    assert_eq!(large_glyph(0x12), large_glyph(0xD3));
    assert_eq!(large_glyph(0x14), large_glyph(0xD4));
    assert_eq!(large_glyph(0x0E), large_glyph(0xD5));
    // Every other defined code has a glyph of its own.
    let mut seen = std::collections::HashMap::new();
    for code in (0..=255u8).filter(|&c| large_is_defined(c) && !matches!(c, 0xD3..=0xD5)) {
        if let Some(other) = seen.insert(large_glyph(code), code) {
            // The insert-cursor underline is the underscore.
            assert_eq!(
                (other, code),
                (0x5F, 0xDD),
                "{other:02X} and {code:02X} look the same"
            );
        }
    }
}

#[test]
fn large_features() {
    let g = |c: u8| large_glyph(c);
    let ink = |c: u8| -> u32 { g(c).iter().map(|b| b.count_ones()).sum() };
    // The slashed zero differs from O.
    assert_ne!(g(b'0'), g(b'O'));
    // The negative sign is shorter and higher than the minus.
    let row_of = |c: u8| g(c).iter().position(|&b| b != 0).unwrap();
    assert!(g(0x1A)[row_of(0x1A)].count_ones() < g(b'-')[row_of(b'-')].count_ones());
    assert!(row_of(0x1A) < row_of(b'-'));
    // The exponent E is lower and smaller than the letter E.
    assert!(row_of(0x1B) > row_of(b'E'));
    assert!(ink(0x1B) < ink(b'E'));
    // Subscript digits sit lower than digits.
    for d in 0..10u8 {
        assert!(row_of(0x80 + d) > row_of(b'0' + d), "subscript {d}");
    }
    // Cursors: solid block, checkerboard, inverted forms are mostly ink.
    assert_eq!(g(0xD9)[..7], [0x1F; 7]);
    assert_eq!(ink(0xE1), 18);
    for c in [0x7F, 0xDA, 0xDB, 0xDC] {
        assert!(ink(c) > 20, "{c:02X} should be inverted");
    }
    // The underline cursors have their line in row 6.
    for c in 0xDD..=0xE0 {
        assert_eq!(g(c)[6], 0x1F, "{c:02X}");
    }
}

#[test]
fn samples_match_golden() {
    let mut out = String::new();
    // Text( on the graph screen.
    let mut buf = [0u8; LCD_BYTES];
    let small: [(&str, usize); 4] = [
        ("PLAYER 1", 29),
        ("⁻1.5ᴇ⁻3", 26),
        ("MANCALA: WIN!", 0),
        ("Quick brown fox, 2×3≠6 π θ", 0),
    ];
    for (i, &(text, width)) in small.iter().enumerate() {
        let codes = encode(text).unwrap();
        let end = draw_small(&mut buf, 1 + 7 * i, 1, &codes);
        assert_eq!(end, 1 + small_text_width(&codes), "{text}");
        if width != 0 {
            assert_eq!(end - 1, width, "{text}");
        }
    }
    out.push_str("draw_small at rows 1, 8, 15, 22 (column 1):\n");
    out.push_str(&lcd_art(&buf, 0, 0, 96, 29));
    // The home screen.
    let mut buf = [0u8; LCD_BYTES];
    let rows = ["PLAYER 1", "⁻1.5ᴇ⁻3", "2→X:X²-1", "L₁(3) ≥ 0"];
    for (r, text) in rows.iter().enumerate() {
        let end = draw_large(&mut buf, 8 * r, 0, &encode(text).unwrap());
        assert_eq!(
            end,
            6 * text.chars().filter(|&c| c != '\u{304}').count(),
            "{text}"
        );
    }
    draw_large_with(&mut buf, 32, 0, &encode("DRAW").unwrap(), true);
    out.push_str("\ndraw_large, home-screen rows 0-4 (row 4 inverted):\n");
    out.push_str(&lcd_art(&buf, 0, 0, 60, 40));
    golden("font-samples.txt", &out);
}

#[test]
fn small_sample_player_1() {
    let mut buf = [0u8; LCD_BYTES];
    let end = draw_small(&mut buf, 0, 0, &encode("PLAYER 1").unwrap());
    assert_eq!(end, 29);
    let art = lcd_art(&buf, 0, 0, 30, 6);
    assert_eq!(
        art,
        "..............................\n\
         ##..#....#..#.#.###.##....#...\n\
         #.#.#...#.#.#.#.#...#.#..##...\n\
         ##..#...###..#..##..##....#...\n\
         #...#...#.#..#..#...#.#...#...\n\
         #...###.#.#..#..###.#.#..###..\n"
    );
}

#[test]
fn large_sample_negative_exponent() {
    let mut buf = [0u8; LCD_BYTES];
    let codes = encode("⁻1.5ᴇ⁻3").unwrap();
    assert_eq!(codes, [0x1A, 0x31, 0x2E, 0x35, 0x1B, 0x1A, 0x33]);
    assert_eq!(draw_large(&mut buf, 8, 6, &codes), 6 + 42);
    let art = lcd_art(&buf, 6, 8, 42, 8);
    assert_eq!(
        art,
        ".........#.........#####.............#####\n\
         ........##.........#....................#.\n\
         ..###....#.........####..####...###....#..\n\
         .........#.............#.#..............#.\n\
         .........#.............#.###.............#\n\
         .........#....##...#...#.#...........#...#\n\
         ........###...##....###..####.........###.\n\
         ..........................................\n"
    );
}

#[test]
fn drawing_overwrites_and_clips() {
    let mut buf = [0xFFu8; LCD_BYTES];
    // A space in the large font clears its whole cell.
    draw_large(&mut buf, 0, 0, b" ");
    assert_eq!(lcd_art(&buf, 0, 0, 7, 8), "......#\n".repeat(8));
    // Every code can be drawn anywhere without panicking, even past the edges.
    let all: Vec<u8> = (0..=255u8).collect();
    for (row, col) in [
        (0, 0),
        (60, 90),
        (63, 95),
        (100, 200),
        (usize::MAX / 2, 3),
        (usize::MAX, usize::MAX - 3),
    ] {
        draw_large(&mut buf, row, col, &all);
        draw_small(&mut buf, row, col, &all);
    }
    // Clipping: a glyph at the right edge keeps its visible part only.
    let mut buf = [0u8; LCD_BYTES];
    let end = draw_small(&mut buf, 0, 94, b"W");
    assert_eq!(end, 100);
    assert_eq!(
        lcd_art(&buf, 92, 0, 4, 6),
        "....\n..#.\n..#.\n..#.\n..#.\n...#\n"
    );
}

#[test]
fn characters_round_trip() {
    for code in 0..=255u8 {
        let s = str_for(code);
        let ch = char_for(code);
        assert!(s.starts_with(ch), "{code:02X}");
        if matches!(code, 0xE2..=0xFF) {
            assert_eq!(s, "\u{FFFD}");
            continue;
        }
        // Every defined code comes back from its text, except the TI-85 unit duplicates.
        let back = encode(s).unwrap();
        let expected = match code {
            0xD3 => 0x12,
            0xD4 => 0x14,
            0xD5 => 0x0E,
            _ => code,
        };
        assert_eq!(back, [expected], "{code:02X} {s}");
        if s.chars().count() == 1 {
            assert_eq!(code_for(ch), Some(expected), "{code:02X} {s}");
        }
    }
    assert_eq!(code_for('\u{FFFD}'), None);
    assert_eq!(code_for('['), Some(0xC1));
    assert_eq!(code_for('θ'), Some(0x5B));
    assert_eq!(code_for('⏨'), Some(0x1D));
    assert_eq!(code_for('$'), None);
    assert_eq!(char_for(0x11), '⁻');
}

#[test]
fn encode_uses_longest_match() {
    assert_eq!(encode("X⁻¹").unwrap(), [0x58, 0x11]);
    assert_eq!(encode("⁻1").unwrap(), [0x1A, 0x31]);
    assert_eq!(encode("₁₀^(").unwrap(), [0x1D, 0x5E, 0x28]);
    assert_eq!(encode("₁").unwrap(), [0x81]);
    assert_eq!(encode("L₁").unwrap(), [0x4C, 0x81]);
    assert_eq!(encode("X₁ᴛ").unwrap(), [0x58, 0x81, 0x0D]);
    assert_eq!(encode("x̄").unwrap(), [0xCB]);
    assert_eq!(encode("x").unwrap(), [0x78]);
    assert_eq!(encode("R►Pθ(").unwrap(), [0x52, 0x05, 0x50, 0x5B, 0x28]);
    assert_eq!(encode("[A]").unwrap(), [0xC1, 0x41, 0x5D]);
    assert_eq!(encode("³√(").unwrap(), [0x0E, 0x10, 0x28]);
    assert_eq!(encode("2→X"), Ok(vec![0x32, 0x1C, 0x58]));
    assert_eq!(encode("a€b"), Err('€'));
    assert_eq!(encode(""), Ok(vec![]));
    assert_eq!(
        decode(&[0x1A, 0x31, 0x2E, 0x35, 0x1B, 0x1A, 0x33]),
        "⁻1.5ᴇ⁻3"
    );
    assert_eq!(decode(&[0x58, 0x11, 0xCB]), "X⁻¹x̄");
}
