//! Turning the glass into pixels and text: scaled RGB for the window and PNGs, Unicode
//! braille or half blocks for the terminal, and the home screen's text shadow.

use std::path::Path;

use anyhow::{Context, Result};
use ti82_machine::Screen;

pub const LCD_W: usize = 96;
pub const LCD_H: usize = 64;

/// The glass with no pixel dark (0x00RRGGBB).
pub const LCD_BG: u32 = 0x00a7_b59b;
/// A fully dark pixel.
pub const LCD_INK: u32 = 0x0020_2a22;

/// Mixes `bg` towards `ink` by `shade` / 255.
pub fn mix(bg: u32, ink: u32, shade: u8) -> u32 {
    let s = u32::from(shade);
    let ch = |sh: u32| {
        let a = (bg >> sh) & 0xFF;
        let b = (ink >> sh) & 0xFF;
        ((a * (255 - s) + b * s) / 255) << sh
    };
    ch(16) | ch(8) | ch(0)
}

/// The colour of each LCD pixel (96 × 64, row-major), contrast and ghosting included.
pub fn lcd_colors(screen: &Screen) -> Vec<u32> {
    screen
        .shades
        .iter()
        .map(|&s| mix(LCD_BG, LCD_INK, s))
        .collect()
}

/// Draws the LCD into `buf` (`buf_w` wide) at (`x0`, `y0`), each pixel a `scale` square.
pub fn blit_lcd(
    buf: &mut [u32],
    buf_w: usize,
    x0: usize,
    y0: usize,
    scale: usize,
    screen: &Screen,
) {
    let colors = lcd_colors(screen);
    for y in 0..LCD_H * scale {
        let row = y0 + y;
        let start = row * buf_w + x0;
        let Some(dst) = buf.get_mut(start..start + LCD_W * scale) else {
            continue;
        };
        let src = &colors[(y / scale) * LCD_W..][..LCD_W];
        for (x, px) in dst.iter_mut().enumerate() {
            *px = src[x / scale];
        }
    }
}

/// The LCD scaled up by `scale` (crisp pixels, no smoothing).
pub fn lcd_image(screen: &Screen, scale: usize) -> (Vec<u32>, usize, usize) {
    let scale = scale.max(1);
    let (w, h) = (LCD_W * scale, LCD_H * scale);
    let mut buf = vec![0; w * h];
    blit_lcd(&mut buf, w, 0, 0, scale, screen);
    (buf, w, h)
}

/// Writes 0x00RRGGBB pixels as an RGB PNG.
pub fn write_png(path: &Path, pixels: &[u32], w: usize, h: usize) -> Result<()> {
    let bytes = png_bytes(pixels, w, h)?;
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write PNG", path.display()))
}

/// Encodes 0x00RRGGBB pixels as an RGB PNG in memory.
pub fn png_bytes(pixels: &[u32], w: usize, h: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        let mut wr = enc.write_header().context("PNG header")?;
        let data: Vec<u8> = pixels
            .iter()
            .flat_map(|p| [(p >> 16) as u8, (p >> 8) as u8, *p as u8])
            .collect();
        wr.write_image_data(&data).context("PNG data")?;
    }
    Ok(out)
}

/// Reads a PNG back as 0x00RRGGBB pixels (for tests and golden comparisons).
pub fn read_png(path: &Path) -> Result<(Vec<u32>, usize, usize)> {
    let f =
        std::fs::File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let dec = png::Decoder::new(std::io::BufReader::new(f));
    let mut r = dec
        .read_info()
        .with_context(|| format!("{}: not a PNG", path.display()))?;
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r
        .next_frame(&mut buf)
        .with_context(|| format!("{}: bad PNG data", path.display()))?;
    let (w, h) = (info.width as usize, info.height as usize);
    let px = match info.color_type {
        png::ColorType::Rgb => buf[..w * h * 3]
            .chunks(3)
            .map(|c| u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]))
            .collect(),
        png::ColorType::Rgba => buf[..w * h * 4]
            .chunks(4)
            .map(|c| u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]))
            .collect(),
        other => anyhow::bail!("{}: unsupported PNG colour type {other:?}", path.display()),
    };
    Ok((px, w, h))
}

/// The LCD as Unicode braille: 48 columns × 16 lines, each character 2 × 4 pixels.
pub fn braille(screen: &Screen) -> Vec<String> {
    // Dot bits of a braille cell: (dx, dy) → bit.
    const BITS: [[u32; 2]; 4] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];
    (0..LCD_H / 4)
        .map(|cy| {
            (0..LCD_W / 2)
                .map(|cx| {
                    let mut v = 0;
                    for (dy, row) in BITS.iter().enumerate() {
                        for (dx, bit) in row.iter().enumerate() {
                            if screen.pixel(cx * 2 + dx, cy * 4 + dy) {
                                v |= bit;
                            }
                        }
                    }
                    char::from_u32(0x2800 + v).unwrap_or(' ')
                })
                .collect()
        })
        .collect()
}

/// The LCD as half blocks: 96 columns × 32 lines, each character one pixel wide, two tall.
pub fn half_blocks(screen: &Screen) -> Vec<String> {
    (0..LCD_H / 2)
        .map(|cy| {
            (0..LCD_W)
                .map(
                    |x| match (screen.pixel(x, cy * 2), screen.pixel(x, cy * 2 + 1)) {
                        (false, false) => ' ',
                        (true, false) => '▀',
                        (false, true) => '▄',
                        (true, true) => '█',
                    },
                )
                .collect()
        })
        .collect()
}

/// Address of the home screen's text shadow (8 × 16 character codes, spec §8.8).
pub const TEXT_SHADOW: usize = 0x808F;

/// The home screen as 8 lines of 16 cells, read from the text shadow in `ram` (the 32 KiB
/// at 8000h). Code 00 prints as a space; each cell through `tibasic::font::str_for`
/// (undefined codes as U+FFFD); trailing spaces are kept.
pub fn text_shadow(ram: &[u8]) -> Vec<String> {
    let start = TEXT_SHADOW - 0x8000;
    let Some(shadow) = ram.get(start..start + 128) else {
        return vec![" ".repeat(16); 8];
    };
    shadow
        .chunks(16)
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    0 => " ",
                    c => tibasic::font::str_for(c),
                })
                .collect()
        })
        .collect()
}
