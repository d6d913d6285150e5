//! The Toshiba T6A04 LCD driver (spec §5).
//!
//! Toshiba's names: X = **row** (0 – 63), Y = **column** (one data word wide), Z = first
//! displayed RAM row. Display RAM is 64 rows of 120 bits; the glass shows the left 96.

/// Glass width in pixels.
pub const WIDTH: usize = 96;
/// Glass height in pixels.
pub const HEIGHT: usize = 64;
const ROW_BYTES: usize = 15;

/// T-states an access keeps the driver busy by default. §5.6: the documented minimum is 10 µs
/// (60 T-states at 6 MHz); TilEm uses 50. [U] We report busy for 60 T-states (the other value
/// is `Config::lcd_busy_t`).
pub const BUSY_T: u64 = 60;

/// The T6A04 state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lcd {
    /// 64 rows × 15 bytes; bit 7 of byte 0 is the leftmost pixel.
    pub(crate) ram: Vec<u8>,
    pub(crate) word8: bool,
    pub(crate) on: bool,
    /// Auto-step applies to Y (column) when true, X (row) when false.
    pub(crate) step_y: bool,
    pub(crate) inc: bool,
    pub(crate) x: u8,
    /// Column counter as set (0 – 31); folded to the column range at access time.
    pub(crate) y: u8,
    pub(crate) z: u8,
    pub(crate) contrast: u8,
    pub(crate) latch: u8,
    pub(crate) busy_until: u64,
    pub(crate) opa1: u8,
    pub(crate) opa2: u8,
    pub(crate) test_mode: bool,
    /// Drop accesses made while busy (TilEm's behaviour, §5.6). Off by default.
    pub(crate) drop_when_busy: bool,
    /// Accesses made while busy (whether dropped or not): a diagnostic.
    pub busy_violations: u64,
    /// T-states an access keeps the driver busy.
    pub(crate) busy_t: u64,
    /// 6-bit reads carry the two pixels left of the cell in bits 7:6 (TilEm, MAME; §5.5).
    pub(crate) left_pixels: bool,
}

impl Default for Lcd {
    fn default() -> Self {
        Self::new()
    }
}

impl Lcd {
    /// Power-on reset state (§5.8): display off, 8-bit words, Y auto-increment, X = Y = Z = 0.
    pub fn new() -> Self {
        Lcd {
            ram: vec![0; HEIGHT * ROW_BYTES],
            word8: true,
            on: false,
            step_y: true,
            inc: true,
            x: 0,
            y: 0,
            z: 0,
            // §5.8 [U]: the datasheet says 0, TilEm and Wabbitemu 32. We take 32.
            contrast: 32,
            latch: 0,
            busy_until: 0,
            opa1: 0,
            opa2: 0,
            test_mode: false,
            drop_when_busy: false,
            busy_violations: 0,
            busy_t: BUSY_T,
            left_pixels: false,
        }
    }

    pub fn set_drop_when_busy(&mut self, on: bool) {
        self.drop_when_busy = on;
    }

    /// How long an access keeps the driver busy (§5.6).
    pub fn set_busy_t(&mut self, t: u64) {
        self.busy_t = t;
    }

    /// Whether 6-bit reads carry the two pixels left of the cell in bits 7:6 (§5.5 [U]).
    pub fn set_6bit_left_pixels(&mut self, on: bool) {
        self.left_pixels = on;
    }

    pub fn display_on(&self) -> bool {
        self.on
    }
    pub fn contrast(&self) -> u8 {
        self.contrast
    }
    pub fn z(&self) -> u8 {
        self.z
    }
    pub fn x(&self) -> u8 {
        self.x
    }
    pub fn y(&self) -> u8 {
        self.y
    }
    pub fn word8(&self) -> bool {
        self.word8
    }
    pub fn test_mode(&self) -> bool {
        self.test_mode
    }
    /// Op-amp settings (OPA1, OPA2): no visible effect.
    pub fn op_amps(&self) -> (u8, u8) {
        (self.opa1, self.opa2)
    }
    /// The 120-bit display RAM rows (15 bytes each).
    pub fn display_ram(&self) -> &[u8] {
        &self.ram
    }

    fn columns(&self) -> u8 {
        // §5.1/§5.5 [U]: 15 columns in 8-bit mode, 20 in 6-bit mode (TilEm).
        if self.word8 {
            15
        } else {
            20
        }
    }

    /// True (and counted) when an access at `t` comes while the driver is busy; the caller
    /// then drops it if so configured.
    #[inline]
    fn busy_drop(&mut self, t: u64) -> bool {
        if t < self.busy_until {
            self.busy_violations += 1;
            self.drop_when_busy
        } else {
            false
        }
    }

    /// Status byte (port 10h read, §5.4). Does not make the driver busy.
    pub fn status(&self, t: u64) -> u8 {
        let mut s = 0;
        if t < self.busy_until {
            s |= 0x80;
        }
        if self.word8 {
            s |= 0x40;
        }
        if self.on {
            s |= 0x20;
        }
        if self.step_y {
            s |= 0x02;
        }
        if self.inc {
            s |= 0x01;
        }
        s
    }

    /// Command write (port 10h, §5.3), decoded from the top bits down.
    pub fn command(&mut self, v: u8, t: u64) {
        if self.busy_drop(t) {
            return;
        }
        self.busy_until = t + self.busy_t;
        match v {
            0xC0..=0xFF => self.contrast = v & 0x3F,
            0x80..=0xBF => self.x = v & 0x3F,
            0x40..=0x7F => self.z = v & 0x3F,
            0x20..=0x3F => self.y = v & 0x1F,
            // Test mode group: 18h leaves, 1Ch–1Fh enter, 19h–1Bh undocumented (ignored).
            0x18 => self.test_mode = false,
            0x1C..=0x1F => self.test_mode = true,
            0x19..=0x1B => {}
            0x10..=0x17 => self.opa1 = v & 3,
            0x08..=0x0F => self.opa2 = v & 3,
            0x04..=0x07 => {
                self.step_y = v & 2 != 0;
                self.inc = v & 1 != 0;
            }
            0x02 | 0x03 => self.on = v & 1 != 0,
            _ => self.word8 = v & 1 != 0,
        }
    }

    fn fold_y(&mut self) -> u8 {
        // §5.5 [U]: a column beyond the last folds to column 0 at access time (TilEm).
        if self.y >= self.columns() {
            self.y = 0;
        }
        self.y
    }

    #[inline]
    fn step(&mut self) {
        if self.step_y {
            let n = self.columns();
            self.y = if self.inc {
                if self.y + 1 >= n {
                    0
                } else {
                    self.y + 1
                }
            } else if self.y == 0 {
                n - 1
            } else {
                self.y - 1
            };
        } else if self.inc {
            self.x = (self.x + 1) & 63;
        } else {
            self.x = self.x.wrapping_sub(1) & 63;
        }
    }

    fn cell(&self, x: u8, y: u8) -> u8 {
        let row = &self.ram[(x as usize & 63) * ROW_BYTES..][..ROW_BYTES];
        if self.word8 {
            row[(y as usize).min(ROW_BYTES - 1)]
        } else {
            let bit = y as usize * 6; // 0..114
            let mut v = 0u8;
            if self.left_pixels && !bit.is_multiple_of(8) {
                // The two pixels before the cell, in its byte (0 on a byte boundary).
                for (i, b) in [bit - 2, bit - 1].into_iter().enumerate() {
                    if row[b >> 3] & (0x80 >> (b & 7)) != 0 {
                        v |= 0x80 >> i;
                    }
                }
            }
            for i in 0..6 {
                let b = bit + i;
                if b < 120 && row[b >> 3] & (0x80 >> (b & 7)) != 0 {
                    v |= 0x20 >> i;
                }
            }
            v
        }
    }

    fn set_cell(&mut self, x: u8, y: u8, v: u8) {
        let word8 = self.word8;
        let row = &mut self.ram[(x as usize & 63) * ROW_BYTES..][..ROW_BYTES];
        if word8 {
            row[(y as usize).min(ROW_BYTES - 1)] = v;
        } else {
            let bit = y as usize * 6;
            for i in 0..6 {
                let b = bit + i;
                if b < 120 {
                    let m = 0x80 >> (b & 7);
                    if v & (0x20 >> i) != 0 {
                        row[b >> 3] |= m;
                    } else {
                        row[b >> 3] &= !m;
                    }
                }
            }
        }
    }

    /// Data write (port 11h): store at (X, Y), then step (§5.5).
    #[inline]
    pub fn write_data(&mut self, v: u8, t: u64) {
        if self.busy_drop(t) {
            return;
        }
        self.busy_until = t + self.busy_t;
        if self.word8 && usize::from(self.y) < ROW_BYTES {
            // The usual case: an 8-bit word in a column that needs no folding, one store.
            self.ram[usize::from(self.x & 63) * ROW_BYTES + usize::from(self.y)] = v;
        } else {
            let y = self.fold_y();
            self.set_cell(self.x, y, v);
        }
        self.step();
    }

    /// Data read (port 11h): return the latch, reload it from (X, Y), step. The first read
    /// after an address change is therefore a dummy (§5.5). In 6-bit mode bits 7:6 read 0 [U]
    /// (or the two pixels to the left, see [`Lcd::set_6bit_left_pixels`]).
    pub fn read_data(&mut self, t: u64) -> u8 {
        if self.busy_drop(t) {
            return 0;
        }
        self.busy_until = t + self.busy_t;
        let out = self.latch;
        let y = self.fold_y();
        self.latch = self.cell(self.x, y);
        self.step();
        out
    }

    /// Whether glass pixel (`col`, `row`) is dark in display RAM (Z scroll applied), ignoring
    /// display on/off and contrast.
    #[inline]
    pub fn pixel(&self, col: usize, row: usize) -> bool {
        let r = (row + self.z as usize) & 63;
        let c = col.min(WIDTH - 1);
        self.ram[r * ROW_BYTES + (c >> 3)] & (0x80 >> (c & 7)) != 0
    }
}
