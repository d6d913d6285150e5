//! The window's picture, drawn by us: the LCD in its bezel, the status line and a TI-82
//! keypad with the labels as printed (2nd functions in blue, ALPHA letters in grey), and the
//! help overlay. Pure drawing into a pixel buffer, so it is testable without a display.
//!
//! Text uses the calculator's own small font from `tibasic::font` (our drawing of it).

use ti82_machine::{Key, Screen};

use crate::keymap::key_labels;
use crate::render::{blit_lcd, LCD_H, LCD_W};
use crate::script::Button;

const BODY: u32 = 0x0026_2a31;
const BEZEL: u32 = 0x0045_4b55;
const KEY_DARK: u32 = 0x0036_3a42;
const KEY_LIGHT: u32 = 0x0062_6873;
const KEY_SECOND: u32 = 0x0036_7fc9;
const KEY_ALPHA: u32 = 0x0080_868f;
const KEY_DOWN: u32 = 0x00b8_c0cc;
const TEXT: u32 = 0x00f0_f0f0;
const SECOND_TEXT: u32 = 0x0058_a6f0;
const ALPHA_TEXT: u32 = 0x00c4_c8ce;
const STATUS_TEXT: u32 = 0x00a0_e0a0;

/// Keypad rows as printed; the arrow cluster sits to the right of rows 2 and 3.
const ROWS: [&[&str]; 10] = [
    &["Y=", "WINDOW", "ZOOM", "TRACE", "GRAPH"],
    &["2nd", "MODE", "DEL"],
    &["ALPHA", "X,T,θ", "STAT"],
    &["MATH", "MATRX", "PRGM", "VARS", "CLEAR"],
    &["x⁻¹", "SIN", "COS", "TAN", "^"],
    &["x²", ",", "(", ")", "÷"],
    &["LOG", "7", "8", "9", "×"],
    &["LN", "4", "5", "6", "−"],
    &["STO▸", "1", "2", "3", "+"],
    &["ON", "0", ".", "(−)", "ENTER"],
];

/// A key's place on the skin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRect {
    pub button: Button,
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

impl KeyRect {
    pub fn contains(&self, px: usize, py: usize) -> bool {
        px >= self.x && px < self.x + self.w && py >= self.y && py < self.y + self.h
    }
}

/// Where a point of a resized window falls on the skin: minifb's `AspectRatioStretch` draws
/// the skin as large as fits, its shape kept, centred (bars on the two other sides). `None`
/// on the bars.
pub fn window_to_skin(
    layout: &Layout,
    window: (usize, usize),
    at: (f32, f32),
) -> Option<(usize, usize)> {
    let (ww, wh) = (window.0.max(1) as f32, window.1.max(1) as f32);
    let (lw, lh) = (layout.width as f32, layout.height as f32);
    let s = (ww / lw).min(wh / lh);
    let (ox, oy) = ((ww - lw * s) / 2.0, (wh - lh * s) / 2.0);
    let (x, y) = ((at.0 - ox) / s, (at.1 - oy) / s);
    (x >= 0.0 && y >= 0.0 && x < lw && y < lh).then_some((x as usize, y as usize))
}

/// Sizes and places of everything on the skin for an LCD scale.
#[derive(Clone, Debug)]
pub struct Layout {
    pub scale: usize,
    /// Font scale for labels.
    pub fs: usize,
    pub width: usize,
    pub height: usize,
    /// The LCD's top-left corner.
    pub lcd_x: usize,
    pub lcd_y: usize,
    pub status_y: usize,
    pub keys: Vec<KeyRect>,
    pub keypad_y: usize,
}

impl Layout {
    pub fn new(scale: usize) -> Layout {
        let scale = scale.clamp(1, 16);
        let fs = (scale / 2).max(1);
        let bezel = 4 * scale.max(2);
        let margin = 6 * fs;
        let width = LCD_W * scale + 2 * (bezel + margin);
        let lcd_x = margin + bezel;
        let lcd_y = margin + bezel;
        let status_y = lcd_y + LCD_H * scale + bezel + 3 * fs;
        let keypad_y = status_y + (8 * (STATUS_LINES - 1) + 10) * fs;
        let pad = 6 * fs;
        let cell_w = (width - 2 * pad) / 5;
        let label_h = 8 * fs;
        let key_h = 11 * fs;
        let row_h = label_h + key_h + 3 * fs;
        let key_w = cell_w - 4 * fs;
        let mut keys = Vec::new();
        for (r, row) in ROWS.iter().enumerate() {
            let y = keypad_y + r * row_h + label_h;
            for (c, name) in row.iter().enumerate() {
                let Some(button) = Button::from_name(name) else {
                    continue;
                };
                keys.push(KeyRect {
                    button,
                    x: pad + c * cell_w + 2 * fs,
                    y,
                    w: key_w,
                    h: key_h,
                });
            }
        }
        // The arrow cluster: columns 3–4 of rows 1–2.
        let ax = pad + 3 * cell_w;
        let ay = keypad_y + row_h + label_h / 2;
        let aw = (2 * cell_w) / 3;
        let ah = (2 * row_h - label_h) / 3;
        for (key, cx, cy) in [
            (Key::Up, 1, 0),
            (Key::Left, 0, 1),
            (Key::Right, 2, 1),
            (Key::Down, 1, 2),
        ] {
            keys.push(KeyRect {
                button: Button::Key(key),
                x: ax + cx * aw + fs,
                y: ay + cy * ah + fs,
                w: aw - 2 * fs,
                h: ah - 2 * fs,
            });
        }
        let height = keypad_y + ROWS.len() * row_h + pad;
        Layout {
            scale,
            fs,
            width,
            height,
            lcd_x,
            lcd_y,
            status_y,
            keys,
            keypad_y,
        }
    }

    /// The key under a point.
    pub fn key_at(&self, x: usize, y: usize) -> Option<Button> {
        self.keys
            .iter()
            .find(|k| k.contains(x, y))
            .map(|k| k.button)
    }
}

fn fill(buf: &mut [u32], bw: usize, x: usize, y: usize, w: usize, h: usize, c: u32) {
    for row in y..y + h {
        if let Some(line) = buf.get_mut(row * bw + x..row * bw + (x + w).min(bw)) {
            line.fill(c);
        }
    }
}

/// The calculator character codes for a label (characters the font lacks get a stand-in).
fn codes(text: &str) -> Vec<u8> {
    if let Ok(c) = tibasic::font::encode(text) {
        return c;
    }
    let mut out = Vec::new();
    for ch in text.chars() {
        let mut b = [0u8; 4];
        let s: &str = match ch {
            '▸' => "→",
            '×' => "*",
            '÷' => "/",
            '−' => "-",
            '␣' => "_",
            '←' => "<",
            _ => ch.encode_utf8(&mut b),
        };
        match tibasic::font::encode(s) {
            Ok(c) => out.extend(c),
            Err(_) => out.push(b'?'),
        }
    }
    out
}

/// Width in pixels of `text` in the small font at scale `fs`.
pub fn text_width(text: &str, fs: usize) -> usize {
    tibasic::font::small_text_width(&codes(text)) * fs
}

/// Draws `text` with its top-left at (`x`, `y`); returns the width drawn.
pub fn draw_text(
    buf: &mut [u32],
    bw: usize,
    x: usize,
    y: usize,
    text: &str,
    color: u32,
    fs: usize,
) -> usize {
    let mut pen = x;
    for code in codes(text) {
        let Some(g) = tibasic::font::small_glyph(code) else {
            continue;
        };
        for (gy, row) in g.rows.iter().enumerate() {
            for gx in 0..usize::from(g.width) {
                if row & (1 << (5 - gx)) != 0 {
                    let px = pen + gx * fs;
                    let py = y + gy * fs;
                    if px + fs <= bw {
                        fill(buf, bw, px, py, fs, fs, color);
                    }
                }
            }
        }
        pen += usize::from(g.width) * fs;
    }
    pen - x
}

/// Lines of text the window has under the screen for the status line.
pub const STATUS_LINES: usize = 4;

/// Splits a status line into lines that `fits`: whole ` | ` parts where they fit, a part too
/// long for a line at its spaces (a word longer than a line stays whole).
pub fn wrap_status(text: &str, fits: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in text.split(" | ") {
        let candidate = if line.is_empty() {
            part.to_string()
        } else {
            format!("{line} | {part}")
        };
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            out.push(std::mem::take(&mut line));
        }
        for word in part.split(' ') {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if fits(&candidate) || line.is_empty() {
                line = candidate;
            } else {
                out.push(std::mem::replace(&mut line, word.to_string()));
            }
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// Splits `text` at spaces into lines at most `width` pixels wide (a longer word stays whole).
fn wrap(text: &str, width: usize, fs: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, fs) > width && !line.is_empty() {
            out.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = candidate;
        }
    }
    out.push(line);
    out
}

fn key_color(b: Button) -> u32 {
    match b {
        Button::Key(Key::Second) => KEY_SECOND,
        Button::Key(Key::Alpha) => KEY_ALPHA,
        Button::Key(
            Key::K0
            | Key::K1
            | Key::K2
            | Key::K3
            | Key::K4
            | Key::K5
            | Key::K6
            | Key::K7
            | Key::K8
            | Key::K9
            | Key::Dot
            | Key::Neg,
        ) => KEY_LIGHT,
        _ => KEY_DARK,
    }
}

/// What the skin shows besides the LCD.
pub struct Overlay<'a> {
    pub status: &'a str,
    pub down: &'a [Button],
    /// Help lines to draw over the keypad.
    pub help: Option<&'a [String]>,
}

/// Draws the whole skin into `buf` (`layout.width` × `layout.height`).
pub fn draw(buf: &mut [u32], layout: &Layout, screen: &Screen, ov: &Overlay) {
    let bw = layout.width;
    let fs = layout.fs;
    buf.fill(BODY);
    let bezel = layout.lcd_x - 6 * fs;
    fill(
        buf,
        bw,
        6 * fs,
        6 * fs,
        LCD_W * layout.scale + 2 * (layout.lcd_x - 6 * fs),
        LCD_H * layout.scale + 2 * bezel.min(layout.lcd_y - 6 * fs),
        BEZEL,
    );
    blit_lcd(buf, bw, layout.lcd_x, layout.lcd_y, layout.scale, screen);
    // The status line, wrapped at its ` | ` parts onto up to STATUS_LINES lines, cut to the width.
    let room = bw - 12 * fs;
    let lines = wrap_status(ov.status, &|t: &str| text_width(t, fs) <= room);
    for (i, line) in lines.iter().take(STATUS_LINES).enumerate() {
        let mut status = String::new();
        for ch in line.chars() {
            status.push(ch);
            if text_width(&status, fs) > room {
                status.pop();
                break;
            }
        }
        let y = layout.status_y + 8 * fs * i;
        draw_text(buf, bw, 6 * fs, y, &status, STATUS_TEXT, fs);
    }
    for k in &layout.keys {
        let pressed = ov.down.contains(&k.button);
        let color = if pressed {
            KEY_DOWN
        } else {
            key_color(k.button)
        };
        fill(buf, bw, k.x, k.y, k.w, k.h, color);
        let name = k.button.name();
        let label = match k.button {
            Button::Key(Key::Up) => "↑",
            Button::Key(Key::Down) => "↓",
            Button::Key(Key::Left) => "<",
            Button::Key(Key::Right) => ">",
            _ => name,
        };
        let tw = text_width(label, fs);
        let tx = k.x + k.w.saturating_sub(tw) / 2;
        let ty = k.y + k.h.saturating_sub(6 * fs) / 2;
        draw_text(buf, bw, tx, ty, label, TEXT, fs);
        let (second, alpha) = key_labels(name);
        let ly = k.y.saturating_sub(7 * fs);
        if !second.is_empty() {
            draw_text(buf, bw, k.x, ly, second, SECOND_TEXT, fs);
        }
        if !alpha.is_empty() {
            let aw = text_width(alpha, fs);
            draw_text(
                buf,
                bw,
                k.x + k.w.saturating_sub(aw),
                ly,
                alpha,
                ALPHA_TEXT,
                fs,
            );
        }
    }
    if let Some(lines) = ov.help {
        let y0 = layout.keypad_y;
        fill(buf, bw, 0, y0, bw, layout.height - y0, 0x0010_1216);
        let mut y = y0 + 4 * fs;
        for line in help_rows(layout, lines) {
            if y + 7 * fs > layout.height {
                break;
            }
            draw_text(buf, bw, 4 * fs, y, &line, TEXT, fs);
            y += 8 * fs;
        }
    }
}

/// The help overlay's rows: `lines` wrapped to the window's width.
pub fn help_rows(layout: &Layout, lines: &[String]) -> Vec<String> {
    let fs = layout.fs;
    lines
        .iter()
        .flat_map(|l| wrap(l, layout.width - 8 * fs, fs))
        .collect()
}

/// How many help rows the keypad area shows (the rest is cut).
pub fn help_capacity(layout: &Layout) -> usize {
    let fs = layout.fs;
    (layout.height - layout.keypad_y - 4 * fs + fs) / (8 * fs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_wraps_at_its_parts() {
        let fits = |t: &str| t.chars().count() <= 20;
        assert_eq!(
            wrap_status("real 1.00x | link: none | P1 plays 3 | score 1-0", &fits),
            ["real 1.00x", "link: none", "P1 plays 3", "score 1-0"].map(String::from)
        );
        let fits = |t: &str| t.chars().count() <= 12;
        assert_eq!(
            wrap_status("P1 plays 3: captures 5 | score 5-0", &fits),
            ["P1 plays 3:", "captures 5", "score 5-0"].map(String::from)
        );
        let fits = |t: &str| t.chars().count() <= 30;
        assert_eq!(
            wrap_status("real 1.00x | link: none | P1 plays 3 | score 1-0", &fits),
            ["real 1.00x | link: none", "P1 plays 3 | score 1-0"].map(String::from)
        );
        assert_eq!(wrap_status("short", &fits), ["short"]);
    }

    #[test]
    fn a_long_status_takes_more_lines() {
        let calc = ti82_machine::Calc::new(tibasic::firmware::BasicFirmware::new());
        let screen = calc.lcd();
        let l = Layout::new(4);
        let band = |status: &str, line: usize| {
            let mut buf = vec![0u32; l.width * l.height];
            let ov = Overlay {
                status,
                down: &[],
                help: None,
            };
            draw(&mut buf, &l, &screen, &ov);
            let y0 = l.status_y + 8 * l.fs * line;
            buf[y0 * l.width..(y0 + 6 * l.fs) * l.width]
                .iter()
                .filter(|&&p| p == STATUS_TEXT)
                .count()
        };
        let short = "real 1.00x | link: none";
        let long = "real 1.00x | link: none | MISMATCH after move 17: expected \
                    {0,5,5,5,5,4,10,4,4,4,4,4,4,10} turn 2 (P1 plays 1), \
                    L1 {0,5,5,5,4,5,10,4,4,4,4,4,4,10} turn 2 | F1 help";
        let fits = |t: &str| text_width(t, l.fs) <= l.width - 12 * l.fs;
        // A mismatch at scale 4: speed and link, then the commentary on three lines.
        assert_eq!(
            wrap_status(long, &fits).len(),
            4,
            "{:?}",
            wrap_status(long, &fits)
        );
        assert!(band(short, 0) > 0);
        assert_eq!(band(short, 1), 0);
        assert!((1..STATUS_LINES).all(|line| band(long, line) > 0));
        assert!(l.status_y + (8 * (STATUS_LINES - 1) + 6) * l.fs <= l.keypad_y);
    }

    #[test]
    fn every_key_is_on_the_skin_once() {
        let l = Layout::new(4);
        assert_eq!(l.keys.len(), 50);
        for k in Key::all() {
            assert_eq!(
                l.keys.iter().filter(|r| r.button == Button::Key(k)).count(),
                1,
                "{k:?}"
            );
        }
        for k in &l.keys {
            assert!(k.x + k.w <= l.width && k.y + k.h <= l.height, "{k:?}");
            assert_eq!(l.key_at(k.x + k.w / 2, k.y + k.h / 2), Some(k.button));
        }
    }
}
