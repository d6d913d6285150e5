//! Reading the keypad the way the OS does: scanning the matrix through port 01h (spec §6.2),
//! latching each new press as a raw scan code at `kbdScanCode` (8000h), repeating the arrows
//! and DEL while held, and turning scan codes into TI-BASIC `getKey` codes (spec §6.4).

use ti82_machine::{Hardware, Key};

/// T-states between two keypad scans (the OS scans from its timer interrupt).
pub const SCAN_PERIOD: u64 = 6_000_000 / 100;
/// A held arrow or DEL starts repeating after this long, then repeats at `REPEAT_PERIOD`.
pub const REPEAT_DELAY: u64 = 6_000_000 * 45 / 100;
pub const REPEAT_PERIOD: u64 = 6_000_000 * 8 / 100;
/// Port I/O time of one full scan (7 groups × OUT + IN, with settling).
pub const SCAN_COST: u64 = 7 * 40;

/// The `getKey` code of a key (spec §6.4).
pub fn getkey_code(k: Key) -> u8 {
    use Key::*;
    match k {
        YEquals => 11,
        Window => 12,
        Zoom => 13,
        Trace => 14,
        Graph => 15,
        Second => 21,
        Mode => 22,
        Del => 23,
        Left => 24,
        Up => 25,
        Right => 26,
        Alpha => 31,
        XTTheta => 32,
        Stat => 33,
        Down => 34,
        Math => 41,
        Matrx => 42,
        Prgm => 43,
        Vars => 44,
        Clear => 45,
        Inverse => 51,
        Sin => 52,
        Cos => 53,
        Tan => 54,
        Pow => 55,
        Square => 61,
        Comma => 62,
        LParen => 63,
        RParen => 64,
        Div => 65,
        Log => 71,
        K7 => 72,
        K8 => 73,
        K9 => 74,
        Mul => 75,
        Ln => 81,
        K4 => 82,
        K5 => 83,
        K6 => 84,
        Sub => 85,
        Sto => 91,
        K1 => 92,
        K2 => 93,
        K3 => 94,
        Add => 95,
        K0 => 102,
        Dot => 103,
        Neg => 104,
        Enter => 105,
    }
}

/// The key with raw scan code `code` (8 × group + bit + 1), if any.
pub fn key_for_scan_code(code: u8) -> Option<Key> {
    Key::all().find(|k| k.scan_code() == code)
}

fn repeats(k: Key) -> bool {
    matches!(k, Key::Left | Key::Right | Key::Up | Key::Down | Key::Del)
}

/// The scanner's memory between scans (part of the firmware state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scanner {
    /// Pressed bits per group at the last scan.
    pub down: [u8; 7],
    /// The held key that may repeat, and when it next repeats.
    pub held: Option<(u8, u64)>,
    /// ON was down at the last look (port 03h bit 3).
    pub on_down: bool,
}

impl Scanner {
    /// Scans the matrix at `hw.now`, latching a new press (or a repeat) into `kbdScanCode`.
    /// Returns whether ON went down since the last scan.
    pub fn scan(&mut self, hw: &mut Hardware) -> bool {
        let t = hw.now;
        let mut now_down = [0u8; 7];
        for (g, slot) in now_down.iter_mut().enumerate() {
            hw.write_port(0x01, !(1u8 << g), t + g as u64 * 40);
            *slot = !hw.read_port(0x01, t + g as u64 * 40 + 20);
        }
        hw.write_port(0x01, 0xFF, t + SCAN_COST);
        hw.now = t + SCAN_COST;
        let mut latched = None;
        for (g, (&new, &old)) in now_down.iter().zip(self.down.iter()).enumerate() {
            let pressed = new & !old;
            if pressed != 0 && latched.is_none() {
                let bit = pressed.trailing_zeros() as u8;
                latched = Some(8 * g as u8 + bit + 1);
            }
        }
        self.down = now_down;
        if let Some(code) = latched {
            self.held = key_for_scan_code(code)
                .filter(|k| repeats(*k))
                .map(|_| (code, t + REPEAT_DELAY));
        } else if let Some((code, next)) = self.held {
            let g = usize::from((code - 1) / 8);
            let bit = (code - 1) % 8;
            if g < 7 && now_down[g] & (1 << bit) != 0 {
                if t >= next {
                    latched = Some(code);
                    self.held = Some((code, next + REPEAT_PERIOD));
                }
            } else {
                self.held = None;
            }
        }
        if let Some(code) = latched {
            hw.mem.ram_mut()[crate::screen::off(crate::screen::KBD_SCAN_CODE)] = code;
        }
        // ON is not in the matrix: port 03h bit 3 reads 0 while it is held (spec §6.5).
        let on = hw.read_port(0x03, hw.now) & 0x08 == 0;
        let on_pressed = on && !self.on_down;
        self.on_down = on;
        on_pressed
    }
}

/// Takes the latched key (the OS's `GetKey` routine): its `Key`, clearing the latch.
pub fn take_key(hw: &mut Hardware) -> Option<Key> {
    let ram = hw.mem.ram_mut();
    let i = crate::screen::off(crate::screen::KBD_SCAN_CODE);
    let code = ram[i];
    ram[i] = 0;
    key_for_scan_code(code)
}
