//! Recordings: the LCD as an animated GIF, the link port's two lines as a WAV, and the link
//! traffic as a text log.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ti82_machine::{LinkLog, Screen, CLOCK_HZ};

use crate::render::{mix, LCD_BG, LCD_H, LCD_INK, LCD_W};

/// Shades in the GIF palette.
const GIF_SHADES: usize = 16;

/// Records LCD frames into an animated GIF. Identical frames are merged (their delay adds up),
/// so a still screen costs nothing. Times are emulated T-states.
pub struct GifRecorder {
    path: PathBuf,
    enc: gif::Encoder<BufWriter<File>>,
    scale: usize,
    last: Option<(Vec<u8>, u64)>,
    pub frames: usize,
}

impl GifRecorder {
    pub fn create(path: &Path, scale: usize) -> Result<GifRecorder> {
        let scale = scale.clamp(1, 8);
        let f = File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let mut palette = Vec::with_capacity(GIF_SHADES * 3);
        for i in 0..GIF_SHADES {
            let c = mix(LCD_BG, LCD_INK, (i * 255 / (GIF_SHADES - 1)) as u8);
            palette.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8]);
        }
        let (w, h) = ((LCD_W * scale) as u16, (LCD_H * scale) as u16);
        let mut enc = gif::Encoder::new(BufWriter::new(f), w, h, &palette)
            .with_context(|| format!("{}: cannot start GIF", path.display()))?;
        enc.set_repeat(gif::Repeat::Infinite)
            .with_context(|| format!("{}: GIF", path.display()))?;
        Ok(GifRecorder {
            path: path.to_path_buf(),
            enc,
            scale,
            last: None,
            frames: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn indexed(&self, screen: &Screen) -> Vec<u8> {
        let s = self.scale;
        let mut out = Vec::with_capacity(LCD_W * LCD_H * s * s);
        for y in 0..LCD_H * s {
            for x in 0..LCD_W * s {
                let shade = screen.shades[(y / s) * LCD_W + x / s] as usize;
                out.push((shade * (GIF_SHADES - 1) / 255) as u8);
            }
        }
        out
    }

    /// Adds the screen as it is at emulated time `t`.
    pub fn push(&mut self, screen: &Screen, t: u64) -> Result<()> {
        let px = self.indexed(screen);
        if let Some((prev, _)) = &self.last {
            if *prev == px {
                return Ok(());
            }
        }
        self.flush_until(t)?;
        self.last = Some((px, t));
        Ok(())
    }

    fn flush_until(&mut self, t: u64) -> Result<()> {
        if let Some((px, start)) = self.last.take() {
            // GIF delays are in 1/100 s; at least 2 (many viewers treat 0 and 1 as "fast").
            let delay = (t.saturating_sub(start) * 100 / CLOCK_HZ).clamp(2, 65_535) as u16;
            let (w, h) = ((LCD_W * self.scale) as u16, (LCD_H * self.scale) as u16);
            let mut frame = gif::Frame::from_indexed_pixels(w, h, px, None);
            frame.delay = delay;
            self.enc
                .write_frame(&frame)
                .with_context(|| format!("{}: cannot write GIF frame", self.path.display()))?;
            self.frames += 1;
        }
        Ok(())
    }

    /// Writes the last frame and closes the file.
    pub fn finish(mut self, t: u64) -> Result<PathBuf> {
        self.flush_until(t)?;
        let path = self.path.clone();
        let mut w = self.enc.into_inner().context("GIF")?;
        w.flush()
            .with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(path)
    }
}

/// Records the link port's two lines as a stereo WAV: left = tip, right = ring, high = +,
/// low = − (the lines as a scope would show them).
pub struct WavRecorder {
    path: PathBuf,
    w: hound::WavWriter<BufWriter<File>>,
    rate: u64,
    /// Next sample index.
    sample: u64,
    /// Line levels now (bit 0 tip, bit 1 ring).
    levels: u8,
    /// Events of the link log already consumed.
    pub cursor: usize,
    start_t: u64,
}

pub const WAV_RATE: u32 = 48_000;

impl WavRecorder {
    pub fn create(path: &Path, start_t: u64, levels: u8) -> Result<WavRecorder> {
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: WAV_RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let w = hound::WavWriter::create(path, spec)
            .with_context(|| format!("{}: cannot create WAV", path.display()))?;
        Ok(WavRecorder {
            path: path.to_path_buf(),
            w,
            rate: u64::from(WAV_RATE),
            sample: 0,
            levels,
            cursor: 0,
            start_t,
        })
    }

    fn sample_t(&self, i: u64) -> u64 {
        self.start_t + i * CLOCK_HZ / self.rate
    }

    fn emit_until(&mut self, t: u64) -> Result<()> {
        const AMP: i16 = 12_000;
        while self.sample_t(self.sample) < t {
            let l = if self.levels & 1 != 0 { AMP } else { -AMP };
            let r = if self.levels & 2 != 0 { AMP } else { -AMP };
            self.w
                .write_sample(l)
                .and_then(|_| self.w.write_sample(r))
                .with_context(|| format!("{}: cannot write WAV", self.path.display()))?;
            self.sample += 1;
        }
        Ok(())
    }

    /// Takes the link log's new events (all of `events` from [`Self::cursor`] on) and writes
    /// samples up to emulated time `now`.
    pub fn feed(&mut self, events: &[(u64, u8)], now: u64) -> Result<()> {
        for &(t, lv) in events.get(self.cursor..).unwrap_or(&[]) {
            if t >= self.start_t {
                self.emit_until(t)?;
            }
            self.levels = lv & 3;
        }
        self.cursor = events.len();
        self.emit_until(now)
    }

    pub fn finish(self) -> Result<PathBuf> {
        let path = self.path.clone();
        self.w
            .finalize()
            .with_context(|| format!("{}: cannot finish WAV", path.display()))?;
        Ok(path)
    }
}

/// The link traffic as text: every byte decoded from the line changes (lines `B start_t
/// end_t start_ms value`), then the packets they make (lines `P ...`, decoded by
/// `crates/tilink`).
pub fn link_log_text(events: &[(u64, u8)]) -> String {
    let bytes = LinkLog::default().decode(events);
    let mut s = String::from(
        "# ti82 link log (times in T-states, 6 000 000 per emulated second)\n\
         # bytes: B start_t end_t start_ms value\n",
    );
    for b in &bytes {
        s.push_str(&format!(
            "B {} {} {:.3} {:02X}\n",
            b.start,
            b.end,
            b.start as f64 * 1000.0 / CLOCK_HZ as f64,
            b.value
        ));
    }
    let packets = tilink::log::packets_from_levels(events);
    s.push_str("# packets: P T-state, T length, who, machine ID, packet, [bytes]\n");
    for p in &packets {
        s.push_str("P ");
        s.push_str(&p.to_line());
        s.push('\n');
    }
    s.push_str(&format!(
        "# {} line changes, {} bytes, {} packets\n",
        events.len(),
        bytes.len(),
        packets.len()
    ));
    s
}

/// Writes [`link_log_text`] to `path`.
pub fn write_link_log(path: &Path, events: &[(u64, u8)]) -> Result<()> {
    std::fs::write(path, link_log_text(events))
        .with_context(|| format!("{}: cannot write the link log", path.display()))
}
