//! The TI-82 real number: 9 bytes of sign/flags, biased exponent and 14 BCD digits
//! (spec 3.2). The type keeps the raw bytes, so OS flag bits and even malformed
//! values survive a read/write round trip unchanged.

use std::fmt;

use crate::display::{self, NumFormat};
use crate::real::Real;

/// Errors from building or parsing a [`TiFloat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FloatError {
    #[error("not a number: {0:?}")]
    Syntax(String),
    #[error("overflow: exponent {0} is outside -99..=99")]
    Overflow(i64),
    #[error("a BCD digit must be 0..=9, got {0}")]
    BadDigit(u8),
    #[error("not a finite number")]
    NotFinite,
    #[error("a real needs 9 bytes, got {0}")]
    Length(usize),
}

/// A TI-82 real number, stored exactly as the calculator stores it.
///
/// Value = (−1)^sign × d₁.d₂…d₁₄ × 10^(exponent). Byte 0 holds the sign (bit 7)
/// and OS flag bits (bits 6–4) which reading ignores but which are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TiFloat([u8; 9]);

/// Smallest and largest decimal exponent of a valid real (spec 3.2).
pub const MIN_EXP: i32 = -99;
/// See [`MIN_EXP`].
pub const MAX_EXP: i32 = 99;

/// How [`TiFloat::format`] writes the minus sign and the exponent mark (spec 8.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatStyle {
    /// Sign of a negative number or exponent: `⁻` on the calculator.
    pub minus: &'static str,
    /// Exponent mark: `ᴇ` on the calculator.
    pub exp: &'static str,
}

impl FloatStyle {
    /// As the calculator shows it: `⁻1.5ᴇ⁻12`.
    pub const CALC: FloatStyle = FloatStyle {
        minus: "\u{207B}",
        exp: "\u{1D07}",
    };
    /// Plain ASCII: `-1.5E-12`.
    pub const ASCII: FloatStyle = FloatStyle {
        minus: "-",
        exp: "E",
    };
    /// The ASCII token spellings of `ti82-tokens.tsv`: `~1.5|E~12` (tokenizes back).
    pub const TOKENS: FloatStyle = FloatStyle {
        minus: "~",
        exp: "|E",
    };
}

impl TiFloat {
    /// Zero: `00 80 00…`.
    pub const ZERO: TiFloat = TiFloat([0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    /// One: `00 80 10 00…`.
    pub const ONE: TiFloat = TiFloat([0x00, 0x80, 0x10, 0, 0, 0, 0, 0, 0]);

    /// Wrap 9 raw bytes (no validation; see [`TiFloat::is_valid`]).
    pub const fn from_bytes(bytes: [u8; 9]) -> TiFloat {
        TiFloat(bytes)
    }

    /// Read 9 bytes from the start of a slice.
    pub fn from_slice(bytes: &[u8]) -> Result<TiFloat, FloatError> {
        let b: [u8; 9] = bytes
            .get(..9)
            .and_then(|s| s.try_into().ok())
            .ok_or(FloatError::Length(bytes.len()))?;
        Ok(TiFloat(b))
    }

    /// The 9 raw bytes.
    pub const fn to_bytes(self) -> [u8; 9] {
        self.0
    }

    /// Raw flag byte (sign bit 7, OS flags, type nibble).
    pub const fn flags(self) -> u8 {
        self.0[0]
    }

    /// The same value with other flag bits (e.g. `0x40` as in the window reals).
    pub const fn with_flags(self, flags: u8) -> TiFloat {
        let mut b = self.0;
        b[0] = flags;
        TiFloat(b)
    }

    /// Sign bit (bit 7 only; spec 3.2 says to ignore bits 6–4 when reading).
    pub const fn is_negative(self) -> bool {
        self.0[0] & 0x80 != 0
    }

    /// Unbiased decimal exponent (`byte1 - 0x80`).
    pub const fn exponent(self) -> i32 {
        self.0[1] as i32 - 0x80
    }

    /// The 14 mantissa digits, most significant first (values above 9 are possible
    /// in malformed data; they are returned as stored).
    pub fn digits(self) -> [u8; 14] {
        let mut d = [0u8; 14];
        for (i, b) in self.0[2..].iter().enumerate() {
            d[2 * i] = b >> 4;
            d[2 * i + 1] = b & 0x0F;
        }
        d
    }

    /// True when all mantissa digits are zero (whatever the exponent).
    pub fn is_zero(self) -> bool {
        self.0[2..].iter().all(|&b| b == 0)
    }

    /// True for a well-formed real: BCD digits, exponent in range, normalised
    /// (first digit non-zero, or the canonical zero `xx 80 00…`).
    pub fn is_valid(self) -> bool {
        let d = self.digits();
        if d.iter().any(|&x| x > 9) {
            return false;
        }
        if self.is_zero() {
            return self.0[1] == 0x80;
        }
        d[0] != 0 && (MIN_EXP..=MAX_EXP).contains(&self.exponent())
    }

    /// Build from sign, exponent of the first digit and up to 14 digits.
    /// The digits are normalised (leading zeros shifted out, the exponent lowered);
    /// all-zero digits give [`TiFloat::ZERO`]. Underflow below 10^-99 gives zero.
    pub fn from_parts(negative: bool, exponent: i32, digits: &[u8]) -> Result<TiFloat, FloatError> {
        if let Some(&bad) = digits.iter().find(|&&d| d > 9) {
            return Err(FloatError::BadDigit(bad));
        }
        let Some(first) = digits.iter().position(|&d| d != 0) else {
            return Ok(TiFloat::ZERO);
        };
        let exponent = i64::from(exponent) - first as i64;
        let mut d = [0u8; 14];
        for (slot, &x) in d.iter_mut().zip(&digits[first..]) {
            *slot = x;
        }
        if exponent < i64::from(MIN_EXP) {
            return Ok(TiFloat::ZERO);
        }
        if exponent > i64::from(MAX_EXP) {
            return Err(FloatError::Overflow(exponent));
        }
        let mut b = [0u8; 9];
        b[0] = if negative { 0x80 } else { 0 };
        b[1] = (exponent + 0x80) as u8;
        for i in 0..7 {
            b[2 + i] = (d[2 * i] << 4) | d[2 * i + 1];
        }
        Ok(TiFloat(b))
    }

    /// A whole number as a float (exact up to 14 digits, rounded half away from zero
    /// beyond), through [`Real`], the one 14-digit implementation.
    pub fn from_i64(v: i64) -> TiFloat {
        TiFloat(Real::from_i64(v).to_bcd())
    }

    /// The value as an `f64` (helper; not exact for every 14-digit value). Malformed data
    /// reads as its digits taken as they are.
    pub fn to_f64(self) -> f64 {
        if let Ok(r) = Real::from_bcd(self.0) {
            return r.to_f64();
        }
        let mut m = 0f64;
        for d in self.digits() {
            m = m * 10.0 + f64::from(d);
        }
        let v = m * 10f64.powi(self.exponent() - 13);
        if self.is_negative() {
            -v
        } else {
            v
        }
    }

    /// Nearest real to an `f64`, rounded to 14 digits (through [`Real`]).
    pub fn from_f64(v: f64) -> Result<TiFloat, FloatError> {
        if !v.is_finite() {
            return Err(FloatError::NotFinite);
        }
        Real::from_f64(v)
            .map(|r| TiFloat(r.to_bcd()))
            .map_err(|_| FloatError::Overflow(100))
    }

    /// Integer value if this is a whole number that fits an `i64`.
    pub fn to_i64(self) -> Option<i64> {
        if self.is_zero() {
            return Some(0);
        }
        let e = self.exponent();
        if !(0..=13).contains(&e) {
            return None;
        }
        let d = self.digits();
        if d[(e as usize + 1)..].iter().any(|&x| x != 0) {
            return None;
        }
        let mut v: i64 = 0;
        for &x in &d[..=e as usize] {
            v = v * 10 + i64::from(x.min(9));
        }
        Some(if self.is_negative() { -v } else { v })
    }

    /// Text as the calculator shows it in Float mode (spec 8.6): 10 significant
    /// digits, no leading zero, trailing zeros dropped, scientific from 1ᴇ10 up
    /// and below 1ᴇ⁻3. The runtime's one formatter ([`crate::display`]) writes it; `style`
    /// only chooses the negative sign and exponent mark.
    pub fn format(self, style: FloatStyle) -> String {
        if self.is_zero() {
            return "0".into();
        }
        match Real::from_bcd(self.0) {
            Ok(r) => display::real_text(r, NumFormat::FLOAT)
                .replace('\u{207B}', style.minus)
                .replace('\u{1D07}', style.exp),
            // Malformed BCD: show the raw bytes rather than a made-up value.
            Err(_) => format!("<bad real {}>", hex(&self.0)),
        }
    }

    /// Exact decimal text of all 14 digits (`-3.1415926535898E0` style, ASCII),
    /// which parses back to the same value.
    pub fn to_exact_string(self) -> String {
        let d = self.digits();
        let mut s = String::new();
        if self.is_negative() {
            s.push('-');
        }
        if self.is_zero() {
            return "0".into();
        }
        let sig = d.iter().rposition(|&x| x != 0).map_or(1, |p| p + 1);
        s.push(char::from_digit(u32::from(d[0]), 16).unwrap_or('?'));
        if sig > 1 {
            s.push('.');
            for &x in &d[1..sig] {
                s.push(char::from_digit(u32::from(x), 16).unwrap_or('?'));
            }
        }
        s.push_str(&format!("E{}", self.exponent()));
        s
    }
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses decimal text with [`Real::parse`]'s syntax (optional sign `-`, `~` or `⁻`, digits
/// with an optional point, optional exponent `E`, `e` or `ᴇ` with optional sign), plus the
/// token spelling `|E` of the exponent mark. More than 14 digits are rounded half away from
/// zero; below 1ᴇ⁻99 is zero.
impl std::str::FromStr for TiFloat {
    type Err = FloatError;

    fn from_str(text: &str) -> Result<TiFloat, FloatError> {
        let (neg, coef, exp10) = Real::scan(&text.replace("|E", "E"))
            .ok_or_else(|| FloatError::Syntax(text.chars().take(64).collect()))?;
        Real::from_parts(neg, coef, exp10)
            .map(|r| TiFloat(r.to_bcd()))
            // Rounding up may carry into one more digit: an overflow is at 10^100 or above.
            .map_err(|_| FloatError::Overflow((exp10 + crate::real::ndigits(coef) - 1).max(100)))
    }
}

impl fmt::Display for TiFloat {
    /// Calculator form (`⁻1.5ᴇ12`); `{:#}` gives plain ASCII (`-1.5E12`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let style = if f.alternate() {
            FloatStyle::ASCII
        } else {
            FloatStyle::CALC
        };
        f.write_str(&self.format(style))
    }
}

impl fmt::Debug for TiFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TiFloat({} [{}])", self.to_exact_string(), hex(&self.0))
    }
}

impl Default for TiFloat {
    fn default() -> TiFloat {
        TiFloat::ZERO
    }
}

impl From<i32> for TiFloat {
    fn from(v: i32) -> TiFloat {
        TiFloat::from_i64(i64::from(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> TiFloat {
        s.parse().unwrap()
    }

    #[test]
    fn spec_examples() {
        assert_eq!(f("1").to_bytes(), [0, 0x80, 0x10, 0, 0, 0, 0, 0, 0]);
        assert_eq!(f("-2").to_bytes(), [0x80, 0x80, 0x20, 0, 0, 0, 0, 0, 0]);
        assert_eq!(f("12").to_bytes(), [0, 0x81, 0x12, 0, 0, 0, 0, 0, 0]);
        assert_eq!(f("0.5").to_bytes(), [0, 0x7F, 0x50, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            f("3.1415926535898").to_bytes(),
            [0, 0x80, 0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x98]
        );
        assert_eq!(f("0"), TiFloat::ZERO);
        assert_eq!(f("-0.000"), TiFloat::ZERO);
        assert_eq!(f("~2"), f("-2"));
        assert_eq!(f("\u{207B}2\u{1D07}\u{207B}5"), f("-2e-5"));
    }

    #[test]
    fn rounding_in_parse() {
        assert_eq!(f("0.333333333333333333"), f("0.33333333333333"));
        assert_eq!(f("0.666666666666666666"), f("0.66666666666667"));
        assert_eq!(f("99999999999999.5"), f("1e14"));
        assert_eq!(f("1e-100"), TiFloat::ZERO);
        assert!("1e100".parse::<TiFloat>().is_err());
        assert!("9.99999999999999e99".parse::<TiFloat>().is_err());
        assert!("".parse::<TiFloat>().is_err());
        assert!("1..2".parse::<TiFloat>().is_err());
        assert_eq!("1e250".parse::<TiFloat>(), Err(FloatError::Overflow(250)));
        assert_eq!(
            "9.99999999999999e99".parse::<TiFloat>(),
            Err(FloatError::Overflow(100))
        );
        assert_eq!(
            "1.2.3".parse::<TiFloat>(),
            Err(FloatError::Syntax("1.2.3".into()))
        );
        assert_eq!(f("~1.5|E~12"), f("-1.5e-12"));
    }

    #[test]
    fn display() {
        let c = |s: &str| f(s).format(FloatStyle::ASCII);
        assert_eq!(c("1"), "1");
        assert_eq!(c("-2"), "-2");
        assert_eq!(c("0.5"), ".5");
        assert_eq!(c("-0.5"), "-.5");
        assert_eq!(c("0.33333333333333"), ".3333333333");
        assert_eq!(c("2.7182818284590"), "2.718281828");
        assert_eq!(c("1e10"), "1E10");
        assert_eq!(c("9999999999"), "9999999999");
        assert_eq!(c("9999999999.6"), "1E10");
        assert_eq!(c("1.5e12"), "1.5E12");
        assert_eq!(c("2e-5"), "2E-5");
        assert_eq!(c("0.001"), ".001");
        assert_eq!(c("0.0009"), "9E-4");
        assert_eq!(c("0.0012345678912"), ".0012345679");
        assert_eq!(c("-1.2345678912345e-99"), "-1.234567891E-99");
        assert_eq!(c("123.45"), "123.45");
        assert_eq!(f("-1.5e-12").to_string(), "\u{207B}1.5\u{1D07}\u{207B}12");
        assert_eq!(f("-1.2345678912345e-99").to_string().chars().count(), 16);
    }

    #[test]
    fn integers() {
        assert_eq!(TiFloat::from_i64(0), TiFloat::ZERO);
        assert_eq!(TiFloat::from_i64(12), f("12"));
        assert_eq!(TiFloat::from_i64(-48), f("-48"));
        assert_eq!(f("48").to_i64(), Some(48));
        assert_eq!(f("4.5").to_i64(), None);
        assert_eq!(f("0.5").to_f64(), 0.5);
        assert_eq!(TiFloat::from_f64(0.1).unwrap(), f("0.1"));
    }
}
