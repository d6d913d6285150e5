//! The keypad matrix (spec §6) and the key names printed on the calculator.

/// A key of the matrix, named as printed on the TI-82. ON is not in the matrix (§6.5): it is
/// handled by [`crate::Calc::set_on`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Down,
    Left,
    Right,
    Up,
    Enter,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Clear,
    Neg,
    K3,
    K6,
    K9,
    RParen,
    Tan,
    Vars,
    Dot,
    K2,
    K5,
    K8,
    LParen,
    Cos,
    Prgm,
    Stat,
    K0,
    K1,
    K4,
    K7,
    Comma,
    Sin,
    Matrx,
    XTTheta,
    Sto,
    Ln,
    Log,
    Square,
    Inverse,
    Math,
    Alpha,
    Graph,
    Trace,
    Zoom,
    Window,
    YEquals,
    Second,
    Mode,
    Del,
}

/// (key, group, data bit, printed name, ASCII aliases). Spec §6.2/§6.3.
const TABLE: [(Key, u8, u8, &str, &[&str]); 49] = [
    (Key::Down, 0, 0, "DOWN", &["↓"]),
    (Key::Left, 0, 1, "LEFT", &["←"]),
    (Key::Right, 0, 2, "RIGHT", &["→"]),
    (Key::Up, 0, 3, "UP", &["↑"]),
    (Key::Enter, 1, 0, "ENTER", &[]),
    (Key::Add, 1, 1, "+", &[]),
    (Key::Sub, 1, 2, "−", &["-"]),
    (Key::Mul, 1, 3, "×", &["*"]),
    (Key::Div, 1, 4, "÷", &["/"]),
    (Key::Pow, 1, 5, "^", &[]),
    (Key::Clear, 1, 6, "CLEAR", &[]),
    (Key::Neg, 2, 0, "(−)", &["(-)", "NEG"]),
    (Key::K3, 2, 1, "3", &[]),
    (Key::K6, 2, 2, "6", &[]),
    (Key::K9, 2, 3, "9", &[]),
    (Key::RParen, 2, 4, ")", &[]),
    (Key::Tan, 2, 5, "TAN", &[]),
    (Key::Vars, 2, 6, "VARS", &[]),
    (Key::Dot, 3, 0, ".", &[]),
    (Key::K2, 3, 1, "2", &[]),
    (Key::K5, 3, 2, "5", &[]),
    (Key::K8, 3, 3, "8", &[]),
    (Key::LParen, 3, 4, "(", &[]),
    (Key::Cos, 3, 5, "COS", &[]),
    (Key::Prgm, 3, 6, "PRGM", &[]),
    (Key::Stat, 3, 7, "STAT", &[]),
    (Key::K0, 4, 0, "0", &[]),
    (Key::K1, 4, 1, "1", &[]),
    (Key::K4, 4, 2, "4", &[]),
    (Key::K7, 4, 3, "7", &[]),
    (Key::Comma, 4, 4, ",", &[]),
    (Key::Sin, 4, 5, "SIN", &[]),
    (Key::Matrx, 4, 6, "MATRX", &["MATRIX"]),
    (
        Key::XTTheta,
        4,
        7,
        "X,T,θ",
        &["X,T,THETA", "XT0", "XTTHETA"],
    ),
    (Key::Sto, 5, 1, "STO▸", &["STO>", "STO", "STO->"]),
    (Key::Ln, 5, 2, "LN", &[]),
    (Key::Log, 5, 3, "LOG", &[]),
    (Key::Square, 5, 4, "x²", &["X^2", "X2", "SQUARE"]),
    (Key::Inverse, 5, 5, "x⁻¹", &["X^-1", "X-1", "INVERSE"]),
    (Key::Math, 5, 6, "MATH", &[]),
    (Key::Alpha, 5, 7, "ALPHA", &[]),
    (Key::Graph, 6, 0, "GRAPH", &[]),
    (Key::Trace, 6, 1, "TRACE", &[]),
    (Key::Zoom, 6, 2, "ZOOM", &[]),
    (Key::Window, 6, 3, "WINDOW", &[]),
    (Key::YEquals, 6, 4, "Y=", &["Y"]),
    (Key::Second, 6, 5, "2nd", &["2ND", "SECOND"]),
    (Key::Mode, 6, 6, "MODE", &[]),
    (Key::Del, 6, 7, "DEL", &[]),
];

impl Key {
    /// Every matrix key, in scan-code order.
    pub fn all() -> impl Iterator<Item = Key> {
        TABLE.iter().map(|e| e.0)
    }

    fn entry(self) -> &'static (Key, u8, u8, &'static str, &'static [&'static str]) {
        // The table is in enum order.
        &TABLE[self as usize]
    }

    /// Group (the port-01h bit written 0 to select it).
    pub fn group(self) -> u8 {
        self.entry().1
    }

    /// Data bit read back as 0 while the key is down.
    pub fn bit(self) -> u8 {
        self.entry().2
    }

    /// Raw scan code 8 × group + bit + 1 (§6.3).
    pub fn scan_code(self) -> u8 {
        8 * self.group() + self.bit() + 1
    }

    /// The name printed on the key.
    pub fn name(self) -> &'static str {
        self.entry().3
    }

    /// Looks a key up by its printed name or an ASCII alias, case-insensitively.
    pub fn from_name(name: &str) -> Option<Key> {
        let n = name.trim();
        TABLE
            .iter()
            .find(|e| e.3.eq_ignore_ascii_case(n) || e.4.iter().any(|a| a.eq_ignore_ascii_case(n)))
            .map(|e| e.0)
    }
}

/// The pressed-key matrix and the last group mask written to port 01h.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keypad {
    /// Pressed keys per group: bit n set = the key on data line n is down.
    pub(crate) down: [u8; 8],
    pub(crate) mask: u8,
    /// Model the diode-less matrix: keys at three corners of a rectangle make the fourth
    /// appear (§4.5, TilEm). On by default.
    pub(crate) ghosting: bool,
}

impl Default for Keypad {
    fn default() -> Self {
        Self::new()
    }
}

impl Keypad {
    pub fn new() -> Self {
        Keypad {
            down: [0; 8],
            mask: 0xFF,
            ghosting: true,
        }
    }

    pub fn set_ghosting(&mut self, on: bool) {
        self.ghosting = on;
    }

    pub fn set(&mut self, key: Key, down: bool) {
        let g = key.group() as usize & 7;
        let b = 1u8 << (key.bit() & 7);
        if down {
            self.down[g] |= b;
        } else {
            self.down[g] &= !b;
        }
    }

    pub fn is_down(&self, key: Key) -> bool {
        self.down[key.group() as usize & 7] & (1 << (key.bit() & 7)) != 0
    }

    pub fn release_all(&mut self) {
        self.down = [0; 8];
    }

    /// Port 01h write: the active-low group mask.
    pub fn select(&mut self, mask: u8) {
        self.mask = mask;
    }

    pub fn mask(&self) -> u8 {
        self.mask
    }

    /// Port 01h read (§4.5): selected groups are driven low; a down key connects its group
    /// to its data line, and several selected groups AND together.
    pub fn read(&self) -> u8 {
        let mut groups = !self.mask; // selected (driven) group lines
        let mut data = 0u8;
        loop {
            let mut d = data;
            for g in 0..8 {
                if groups & (1 << g) != 0 {
                    d |= self.down[g];
                }
            }
            if !self.ghosting || d == data {
                data = d;
                break;
            }
            data = d;
            // A low data line pulls every group line that has a down key on it.
            for g in 0..8 {
                if self.down[g] & data != 0 {
                    groups |= 1 << g;
                }
            }
        }
        !data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_in_enum_order_and_names_round_trip() {
        for (i, e) in TABLE.iter().enumerate() {
            assert_eq!(e.0 as usize, i);
            assert_eq!(Key::from_name(e.3), Some(e.0));
        }
        assert_eq!(Key::from_name("enter"), Some(Key::Enter));
        assert_eq!(Key::from_name("2ND"), Some(Key::Second));
        assert_eq!(Key::from_name("sto>"), Some(Key::Sto));
        assert_eq!(Key::from_name("nope"), None);
        assert_eq!(Key::Enter.scan_code(), 0x09);
        assert_eq!(Key::Del.scan_code(), 0x38);
    }

    #[test]
    fn matrix_and_ghosting() {
        let mut k = Keypad::new();
        k.set(Key::Enter, true); // g1 b0
        k.set(Key::K2, true); // g3 b1
        k.select(0xFD);
        assert_eq!(k.read(), 0xFE);
        k.select(0xF5); // g1 and g3
        assert_eq!(k.read(), 0xFC);
        // Ghost: Enter (g1,b0), + (g1,b1), 2 (g3,b1) down -> "." (g3,b0) appears.
        k.set(Key::Add, true);
        k.select(0xF7);
        assert_eq!(k.read(), 0xFC);
        k.set_ghosting(false);
        assert_eq!(k.read(), 0xFD);
        k.select(0xFF);
        assert_eq!(k.read(), 0xFF);
    }
}
