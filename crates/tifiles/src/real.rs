//! TI-82 real numbers: 14-digit decimal floating point, as stored in the 9-byte variable format
//! (spec §3.2) and computed by the calculator.
//!
//! A [`Real`] is a sign, a 14-digit mantissa `d₁.d₂…d₁₄` (first digit non-zero unless the value
//! is zero) and a decimal exponent in −99…99. There is no negative zero. Results that reach
//! 1ᴇ100 are [`MathError::Overflow`]; results below 1ᴇ−99 become 0.
//!
//! # Arithmetic
//!
//! `+ - * /`, `√` and the rounding helpers are exact decimal operations followed by one rounding
//! to 14 significant digits, half away from zero. Every operation rounds its own result, so
//! `1/3*3` is `.99999999999999` (shown as `1` at 10 digits) and `2/3` is `.66666666666667`.
//!
//! Transcendental functions (`e^`, `ln`, trig, hyperbolic, real powers) are computed in an
//! internal 19-digit decimal floating point with careful argument reduction (π/2 is known to 60
//! digits for radian reduction, degree arguments are reduced modulo 90 exactly), then rounded to
//! 14 digits. Exact special values come out exact: `sin 0`, `cos 90°`, `sin 30°`, `tan 45°`,
//! `ln 1`, `log 100`, `√4`, `2^10`, `10^13`.
//!
//! # Where the TI-82's exact behaviour is uncertain, and what this module does
//!
//! - Whether the calculator keeps guard digits *between* the operations of one expression is
//!   not documented; here every operation rounds to 14 digits (so `1/3*3-1` is ⁻1ᴇ⁻14).
//! - *Inside* an operation the calculator works with guard digits. For `+ - * /` and `√` this
//!   module returns the correctly rounded result; for transcendental functions the calculator's
//!   own routines are not correctly rounded, so its last digit may differ from ours. Our real
//!   powers (`x^y` with non-integer y, or integer |y| > 64) carry about 17 correct digits
//!   before rounding: roughly 1 random case in 10⁵ is off by one in the 14th digit.
//! - Rounding is half away from zero (`2/3` → `…67`, `round(2.5)` → 3, `round(⁻2.5)` → ⁻3).
//! - Trig arguments with |x| ≥ 1ᴇ11 (in either angle mode) are a domain error; a forum report
//!   says the TI-8x calculators refuse arguments "beyond 1ᴇ11". `sin π` gives the sine of the
//!   stored 14-digit π (⁻6.7615373566167ᴇ⁻15), which may differ from the calculator's.
//! - `0^0` is a domain error and `0^n` for negative integer n is a division by zero; a negative
//!   base needs an integer exponent (`ˣ√` accepts odd integer roots of negatives).
//! - `x!` accepts integers 0…69 and half-integers −.5…69.5 (Γ(x+1)); anything else non-integral
//!   or negative is a domain error, integers above 69 overflow.
//! - `nPr`/`nCr` need non-negative integers (domain error otherwise) and give 0 when r > n.
//! - `round(x,d)` treats d > 9 as 9 (callers check the calculator's 0…9 range first).
//! - BCD decoding ignores every flag bit except the sign (bit 7), including the type nibble;
//!   it normalises a mantissa with leading zeros and rejects exponents of 100 and more.

// `is_multiple_of` is newer than the workspace's minimum Rust version (1.80).
#![allow(clippy::manual_is_multiple_of)]

use std::cmp::Ordering;
use std::fmt;

/// A calculator math error (the TI-82's `ERR:` screens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathError {
    /// `ERR:OVERFLOW`: the result is 1ᴇ100 or more in magnitude.
    Overflow,
    /// `ERR:DIVIDE BY 0`.
    DivideByZero,
    /// `ERR:DOMAIN`: the argument is outside the function's domain.
    Domain,
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MathError::Overflow => "ERR:OVERFLOW",
            MathError::DivideByZero => "ERR:DIVIDE BY 0",
            MathError::Domain => "ERR:DOMAIN",
        })
    }
}

impl std::error::Error for MathError {}

/// A 9-byte real that is not a valid TI-82 real: a mantissa nibble above 9, or an exponent
/// of 1ᴇ100 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidBcd;

impl fmt::Display for InvalidBcd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid 9-byte real")
    }
}

impl std::error::Error for InvalidBcd {}

/// The angle mode (`Radian` / `Degree` on the MODE screen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AngleMode {
    #[default]
    Radian,
    Degree,
}

impl From<bool> for AngleMode {
    /// `true` means degree mode.
    fn from(degrees: bool) -> AngleMode {
        if degrees {
            AngleMode::Degree
        } else {
            AngleMode::Radian
        }
    }
}

/// Results of [`Real`] operations.
pub type MathResult = Result<Real, MathError>;

/// A TI-82 real number (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Real {
    neg: bool,
    /// Exponent of the leading digit, −99…99 (0 for zero).
    exp: i16,
    /// 14-digit mantissa in [10¹³, 10¹⁴), or 0.
    mant: u64,
}

const M_MIN: u64 = 10_000_000_000_000;
const M_END: u128 = 100_000_000_000_000;

/// Powers of ten that fit a `u128` (10⁰ … 10³⁸).
const POW10: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

fn p10(n: i64) -> u128 {
    POW10[n.clamp(0, 38) as usize]
}

/// Number of decimal digits of `c` (0 for 0).
pub(crate) fn ndigits(c: u128) -> i64 {
    c.checked_ilog10().map_or(0, |d| d as i64 + 1)
}

/// Floor of the square root.
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = (n as f64).sqrt() as u128;
    for _ in 0..4 {
        if x == 0 {
            x = 1;
        }
        x = (x + n / x) / 2;
    }
    loop {
        match x.checked_mul(x) {
            Some(s) if s <= n => break,
            _ => x -= 1,
        }
    }
    while (x + 1).checked_mul(x + 1).is_some_and(|s| s <= n) {
        x += 1;
    }
    x
}

impl fmt::Debug for Real {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mant == 0 {
            return f.write_str("Real(0)");
        }
        let d = self.mant.to_string();
        let (a, b) = d.split_at(1.min(d.len()));
        write!(
            f,
            "Real({}{}.{}e{})",
            if self.neg { "-" } else { "" },
            a,
            b,
            self.exp
        )
    }
}

impl PartialOrd for Real {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Real {
    fn cmp(&self, other: &Self) -> Ordering {
        let (s, o) = (self.signum_i(), other.signum_i());
        if s != o {
            return s.cmp(&o);
        }
        let mag = (self.exp, self.mant).cmp(&(other.exp, other.mant));
        if s < 0 {
            mag.reverse()
        } else {
            mag
        }
    }
}

impl std::ops::Neg for Real {
    type Output = Real;
    /// Negation never fails (and `-0` is `0`).
    fn neg(self) -> Real {
        if self.mant == 0 {
            self
        } else {
            Real {
                neg: !self.neg,
                ..self
            }
        }
    }
}

impl Real {
    /// 0.
    pub const ZERO: Real = Real {
        neg: false,
        exp: 0,
        mant: 0,
    };
    /// 1.
    pub const ONE: Real = Real {
        neg: false,
        exp: 0,
        mant: M_MIN,
    };
    /// π as the TI-82 stores it: 3.1415926535898.
    pub const PI: Real = Real {
        neg: false,
        exp: 0,
        mant: 31_415_926_535_898,
    };
    /// e as the TI-82 stores it: 2.718281828459.
    pub const E: Real = Real {
        neg: false,
        exp: 0,
        mant: 27_182_818_284_590,
    };

    /// Rounds ±`c`·10^`e` to 14 digits (half away from zero).
    pub(crate) fn from_parts(neg: bool, c: u128, e: i64) -> MathResult {
        if c == 0 {
            return Ok(Real::ZERO);
        }
        let d = ndigits(c);
        let (mut m, mut e) = if d > 14 {
            let q = c / p10(d - 15);
            let mut m = q / 10;
            if q % 10 >= 5 {
                m += 1;
            }
            (m, e.saturating_add(d - 14))
        } else {
            (c * p10(14 - d), e.saturating_sub(14 - d))
        };
        if m == M_END {
            m = M_MIN as u128;
            e = e.saturating_add(1);
        }
        let lead = e.saturating_add(13);
        if lead > 99 {
            return Err(MathError::Overflow);
        }
        if lead < -99 {
            return Ok(Real::ZERO);
        }
        Ok(Real {
            neg,
            exp: lead as i16,
            mant: m as u64,
        })
    }

    /// ±`coefficient`·10^`exp10`, rounded to 14 digits.
    pub fn new(negative: bool, coefficient: u64, exp10: i32) -> MathResult {
        Real::from_parts(negative, coefficient as u128, exp10 as i64)
    }

    /// An integer (rounded to 14 digits if it has more).
    pub fn from_i64(n: i64) -> Real {
        Real::from_parts(n < 0, n.unsigned_abs() as u128, 0).unwrap_or(Real::ZERO)
    }

    /// 1 for true, 0 for false (the value of a comparison).
    pub fn from_bool(b: bool) -> Real {
        if b {
            Real::ONE
        } else {
            Real::ZERO
        }
    }

    /// The value as an `i64` if it is an integer in range.
    pub fn to_i64_exact(self) -> Option<i64> {
        if self.mant == 0 {
            return Some(0);
        }
        if self.exp < 0 || self.exp > 18 {
            return None;
        }
        let m = self.mant as i128;
        let v = if self.exp < 13 {
            let s = p10(13 - self.exp as i64) as i128;
            if m % s != 0 {
                return None;
            }
            m / s
        } else {
            m * p10(self.exp as i64 - 13) as i128
        };
        i64::try_from(if self.neg { -v } else { v }).ok()
    }

    /// Decodes the 9-byte TI-82 real (spec §3.2). Only the sign bit of the flags byte is used.
    /// Unnormalised mantissas are normalised; a value below 1ᴇ−99 gives 0.
    pub fn from_bcd(bytes: [u8; 9]) -> Result<Real, InvalidBcd> {
        let mut c: u128 = 0;
        for &b in &bytes[2..] {
            let (hi, lo) = (b >> 4, b & 15);
            if hi > 9 || lo > 9 {
                return Err(InvalidBcd);
            }
            c = c * 100 + (hi * 10 + lo) as u128;
        }
        let e = bytes[1] as i64 - 0x80;
        Real::from_parts(bytes[0] & 0x80 != 0, c, e - 13).map_err(|_| InvalidBcd)
    }

    /// Encodes as the 9-byte TI-82 real: flags `00`/`80`, exponent biased by `0x80`, 7 BCD bytes.
    pub fn to_bcd(self) -> [u8; 9] {
        let mut out = [0u8; 9];
        out[0] = if self.neg { 0x80 } else { 0 };
        out[1] = (0x80 + self.exp) as u8;
        let d = self.digits();
        for i in 0..7 {
            out[2 + i] = (d[2 * i] << 4) | d[2 * i + 1];
        }
        out
    }

    /// Parses decimal text as typed on the calculator: an optional leading `-`, `⁻` or `~`,
    /// digits with at most one `.`, then optionally `E`/`e`/`ᴇ`, an optional sign and exponent
    /// digits. A bare `ᴇ3` means 1ᴇ3. Extra digits are rounded. `None` for malformed text or
    /// a value that overflows.
    pub fn parse(text: &str) -> Option<Real> {
        let (neg, coef, exp10) = Real::scan(text)?;
        Real::from_parts(neg, coef, exp10).ok()
    }

    /// The syntax step of [`Real::parse`]: ±`coefficient`·10^`exp10` before rounding to 14
    /// digits, or `None` for malformed text.
    pub(crate) fn scan(text: &str) -> Option<(bool, u128, i64)> {
        let is_minus = |c: char| matches!(c, '-' | '⁻' | '~' | '\u{2212}');
        let mut chars = text.trim().chars().peekable();
        let neg = chars.next_if(|&c| is_minus(c)).is_some();
        let mut coef: u128 = 0;
        let mut sig = 0;
        let mut scale: i64 = 0;
        let mut mantissa_digits = 0;
        let mut point = false;
        while let Some(&c) = chars.peek() {
            if let Some(d) = c.to_digit(10) {
                mantissa_digits += 1;
                if coef == 0 && d == 0 {
                    if point {
                        scale -= 1;
                    }
                } else if sig < 16 {
                    coef = coef * 10 + d as u128;
                    sig += 1;
                    if point {
                        scale -= 1;
                    }
                } else if !point {
                    scale += 1;
                }
            } else if c == '.' && !point {
                point = true;
            } else {
                break;
            }
            chars.next();
        }
        let mut exp: i64 = 0;
        if chars.next_if(|&c| matches!(c, 'E' | 'e' | 'ᴇ')).is_some() {
            if mantissa_digits == 0 {
                if point {
                    return None;
                }
                coef = 1;
                mantissa_digits = 1;
            }
            let eneg = match chars.next_if(|&c| is_minus(c) || c == '+') {
                Some(c) => is_minus(c),
                None => false,
            };
            let mut edigits = 0;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                exp = (exp * 10 + d as i64).min(1_000_000);
                edigits += 1;
                chars.next();
            }
            if edigits == 0 {
                return None;
            }
            if eneg {
                exp = -exp;
            }
        }
        if mantissa_digits == 0 || chars.next().is_some() {
            return None;
        }
        Some((neg, coef, scale + exp))
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        let v: f64 = format!("{}e{}", self.mant, self.exp as i32 - 13)
            .parse()
            .unwrap_or(0.0);
        if self.neg {
            -v
        } else {
            v
        }
    }

    /// An `f64` rounded to 14 significant digits. NaN is a domain error, infinities and
    /// magnitudes from 1ᴇ100 overflow, magnitudes below 1ᴇ−99 give 0.
    pub fn from_f64(v: f64) -> MathResult {
        if v.is_nan() {
            return Err(MathError::Domain);
        }
        if v.is_infinite() {
            return Err(MathError::Overflow);
        }
        if v == 0.0 {
            return Ok(Real::ZERO);
        }
        // 41 significant digits of the exact binary value, then one rounding to 14 digits.
        Real::parse(&format!("{:.40e}", v)).ok_or(MathError::Overflow)
    }

    /// True for a negative number.
    pub fn is_negative(self) -> bool {
        self.neg
    }

    /// True for 0.
    pub fn is_zero(self) -> bool {
        self.mant == 0
    }

    /// True for a whole number.
    pub fn is_integer(self) -> bool {
        self.mant == 0
            || self.exp >= 13
            || (self.exp >= 0 && self.mant as u128 % p10(13 - self.exp as i64) == 0)
    }

    /// The 14-digit mantissa as an integer in [10¹³, 10¹⁴) (0 for zero):
    /// the value is ±mantissa·10^(exponent−13).
    pub fn mantissa(self) -> u64 {
        self.mant
    }

    /// The decimal exponent of the leading digit, −99…99 (0 for zero).
    pub fn exponent(self) -> i32 {
        self.exp as i32
    }

    /// The 14 mantissa digits, most significant first (all 0 for zero).
    pub fn digits(self) -> [u8; 14] {
        let mut d = [0u8; 14];
        let mut m = self.mant;
        for slot in d.iter_mut().rev() {
            *slot = (m % 10) as u8;
            m /= 10;
        }
        d
    }

    fn signum_i(self) -> i8 {
        if self.mant == 0 {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    /// Negation (`-0` is `0`).
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Real {
        -self
    }

    /// Absolute value.
    pub fn abs(self) -> Real {
        Real { neg: false, ..self }
    }

    // ------------------------------------------------------------------ basic arithmetic

    /// `self + other`.
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, other: Real) -> MathResult {
        if self.mant == 0 {
            return Ok(other);
        }
        if other.mant == 0 {
            return Ok(self);
        }
        let (a, b) = if (self.exp, self.mant) >= (other.exp, other.mant) {
            (self, other)
        } else {
            (other, self)
        };
        let d = (a.exp - b.exp) as i64;
        if d > 20 {
            return Ok(a);
        }
        let ca = a.mant as u128 * p10(d);
        let cb = b.mant as u128;
        let c = if a.neg == b.neg { ca + cb } else { ca - cb };
        Real::from_parts(a.neg, c, b.exp as i64 - 13)
    }

    /// `self - other`.
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: Real) -> MathResult {
        self.add(-other)
    }

    /// `self * other`.
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, other: Real) -> MathResult {
        if self.mant == 0 || other.mant == 0 {
            return Ok(Real::ZERO);
        }
        Real::from_parts(
            self.neg != other.neg,
            self.mant as u128 * other.mant as u128,
            self.exp as i64 + other.exp as i64 - 26,
        )
    }

    /// `self / other`; dividing by 0 is [`MathError::DivideByZero`].
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, other: Real) -> MathResult {
        if other.mant == 0 {
            return Err(MathError::DivideByZero);
        }
        if self.mant == 0 {
            return Ok(Real::ZERO);
        }
        // 16 extra digits: the quotient has at least 16 digits, all exact (floor), so rounding
        // on the first dropped digit is exact.
        let q = self.mant as u128 * p10(16) / other.mant as u128;
        Real::from_parts(
            self.neg != other.neg,
            q,
            self.exp as i64 - other.exp as i64 - 16,
        )
    }

    /// `x⁻¹`.
    pub fn recip(self) -> MathResult {
        Real::ONE.div(self)
    }

    /// `x²`.
    pub fn square(self) -> MathResult {
        self.mul(self)
    }

    /// `x³`.
    pub fn cube(self) -> MathResult {
        self.mul(self)?.mul(self)
    }

    /// `√x`, correctly rounded; negative arguments are a domain error.
    pub fn sqrt(self) -> MathResult {
        if self.mant == 0 {
            return Ok(Real::ZERO);
        }
        if self.neg {
            return Err(MathError::Domain);
        }
        let q = self.exp as i64 - 13;
        let s = if (q - 18).rem_euclid(2) == 0 { 18 } else { 19 };
        let r = isqrt(self.mant as u128 * p10(s));
        Real::from_parts(false, r, (q - s) / 2)
    }

    // ------------------------------------------------------------------ integer parts

    /// `iPart x`: truncation toward zero.
    pub fn ipart(self) -> Real {
        if self.exp >= 13 || self.mant == 0 {
            return self;
        }
        if self.exp < 0 {
            return Real::ZERO;
        }
        let s = p10(13 - self.exp as i64) as u64;
        let m = self.mant / s * s;
        Real { mant: m, ..self }
    }

    /// `fPart x`: `x − iPart x` (same sign as x), exact.
    pub fn fpart(self) -> Real {
        // Dropping the integer digits is exact.
        self.sub(self.ipart()).unwrap_or(Real::ZERO)
    }

    /// `int x`: the greatest integer ≤ x (`int ⁻2.5` = ⁻3).
    pub fn int(self) -> MathResult {
        let t = self.ipart();
        if self.neg && t != self {
            t.sub(Real::ONE)
        } else {
            Ok(t)
        }
    }

    /// `round(x,d)`: rounds to `d` digits after the point, half away from zero. `d` above 9
    /// counts as 9 (the calculator's limit; check the range before calling).
    pub fn round(self, d: u8) -> Real {
        let d = d.min(9) as i64;
        let q = self.exp as i64 - 13;
        if self.mant == 0 || q >= -d {
            return self;
        }
        let drop = -d - q;
        if drop > 14 {
            return Real::ZERO;
        }
        let m = self.mant as u128;
        let mut c = m / p10(drop);
        if (m / p10(drop - 1)) % 10 >= 5 {
            c += 1;
        }
        // Cannot overflow: only numbers below 10¹⁴ have digits after the point.
        Real::from_parts(self.neg, c, -d).unwrap_or(self)
    }

    fn frac_is_half(self) -> bool {
        let f = self.fpart().abs();
        f.exp == -1 && f.mant == 5 * M_MIN
    }

    /// True for an even integer.
    fn is_even(self) -> bool {
        if !self.is_integer() {
            return false;
        }
        if self.exp >= 14 || self.mant == 0 {
            return true;
        }
        let units = self.mant as u128 / p10(13 - self.exp as i64);
        units % 2 == 0
    }

    // ------------------------------------------------------------------ powers and logs

    /// `x^y`. Integer exponents are exact whenever the result fits 14 digits; a negative base
    /// needs an integer exponent; `0^0` is a domain error, `0^−n` a division by zero.
    pub fn pow(self, y: Real) -> MathResult {
        if y.is_integer() {
            if self.mant == 0 {
                return match y.signum_i() {
                    1 => Ok(Real::ZERO),
                    0 => Err(MathError::Domain),
                    _ => Err(MathError::DivideByZero),
                };
            }
            if y.mant == 0 {
                return Ok(Real::ONE);
            }
            if let Some(n) = y.to_i64_exact().filter(|n| n.unsigned_abs() <= 64) {
                let mut acc = Ext::ONE;
                let mut base = Ext::from_real(self);
                let mut k = n.unsigned_abs();
                while k > 0 {
                    if k & 1 == 1 {
                        acc = acc.mul(base);
                    }
                    base = base.mul(base);
                    k >>= 1;
                }
                if n < 0 {
                    return Ext::ONE.div(acc).to_real();
                }
                return acc.to_real();
            }
            let t = Ext::from_real(y).mul(ln_ext(Ext::from_real(self.abs())));
            let mut r = exp_ext(t);
            if self.neg && !y.is_even() {
                r = r.neg();
            }
            return r.to_real();
        }
        if self.mant == 0 {
            return if y.neg {
                Err(MathError::Domain)
            } else {
                Ok(Real::ZERO)
            };
        }
        if self.neg {
            return Err(MathError::Domain);
        }
        exp_ext(Ext::from_real(y).mul(ln_ext(Ext::from_real(self)))).to_real()
    }

    /// `n ˣ√ x` (called on x): the n-th root. A negative x needs an odd integer n.
    pub fn xroot(self, n: Real) -> MathResult {
        if n.mant == 0 {
            return Err(MathError::DivideByZero);
        }
        if self.mant == 0 {
            return if n.neg {
                Err(MathError::DivideByZero)
            } else {
                Ok(Real::ZERO)
            };
        }
        if self.neg && (!n.is_integer() || n.is_even()) {
            return Err(MathError::Domain);
        }
        let t = ln_ext(Ext::from_real(self.abs())).div(Ext::from_real(n));
        let r = exp_ext(t);
        if self.neg {
            r.neg().to_real()
        } else {
            r.to_real()
        }
    }

    /// `³√x`.
    pub fn cbrt(self) -> MathResult {
        self.xroot(Real::from_i64(3))
    }

    /// `e^x`.
    pub fn exp(self) -> MathResult {
        exp_ext(Ext::from_real(self)).to_real()
    }

    /// `10^x`; exact for integer x.
    pub fn pow10(self) -> MathResult {
        if self.is_integer() {
            return match self.to_i64_exact() {
                Some(n) if n.abs() < 1000 => Real::from_parts(false, 1, n),
                _ if self.neg => Ok(Real::ZERO),
                _ => Err(MathError::Overflow),
            };
        }
        if self.exp >= 3 {
            return if self.neg {
                Ok(Real::ZERO)
            } else {
                Err(MathError::Overflow)
            };
        }
        // x = k + f with f exact (no rounding: f has fewer digits than x).
        let k = if self.exp < 0 {
            Real::ZERO
        } else {
            self.int()?
        };
        let f = self.sub(k)?;
        let mut r = exp_ext(Ext::from_real(f).mul(LN10));
        r.e += k.to_i64_exact().unwrap_or(0);
        r.to_real()
    }

    /// `ln x`; x ≤ 0 is a domain error.
    pub fn ln(self) -> MathResult {
        if self.neg || self.mant == 0 {
            return Err(MathError::Domain);
        }
        ln_ext(Ext::from_real(self)).to_real()
    }

    /// `log x` (base 10), exact for powers of ten; x ≤ 0 is a domain error.
    pub fn log10(self) -> MathResult {
        if self.neg || self.mant == 0 {
            return Err(MathError::Domain);
        }
        if self.mant == M_MIN {
            return Ok(Real::from_i64(self.exp as i64));
        }
        ln_ext(Ext::from_real(self)).mul(INV_LN10).to_real()
    }

    // ------------------------------------------------------------------ trigonometry

    /// Reduces an angle to `quadrant·π/2 + r` with |r| ≲ π/4, r in radians.
    fn reduce(self, mode: AngleMode) -> Result<(i64, Ext), MathError> {
        if self.exp >= 11 {
            return Err(MathError::Domain);
        }
        let x = self.mant as i128 * if self.neg { -1 } else { 1 };
        let q = self.exp as i64 - 13;
        match mode {
            AngleMode::Radian => {
                if self.exp < -1 || (self.exp == -1 && self.mant <= 78_539_816_339_744) {
                    return Ok((0, Ext::from_real(self)));
                }
                // x in units of 1e-20; q + 20 is in 6..=18.
                let xs = x * p10(q + 20) as i128;
                let half = PI2_A / 2;
                let k = (xs + if xs < 0 { -half } else { half }) / PI2_A;
                let t1 = xs - k * PI2_A;
                let r38 = t1 * p10(18) as i128 - k * PI2_B / 100 - k * PI2_C / p10(22) as i128;
                Ok((k.rem_euclid(4) as i64, Ext::from_i128(r38, -38)))
            }
            AngleMode::Degree => {
                if self.exp < 1 || (self.exp == 1 && self.mant < 45 * M_MIN / 10) {
                    return Ok((0, Ext::from_real(self).mul(PI_180)));
                }
                // x in units of 1e-13; q + 13 is in 1..=10.
                let xs = x * p10(q + 13) as i128;
                let ninety = 90 * p10(13) as i128;
                let k = (xs + if xs < 0 { -ninety / 2 } else { ninety / 2 }) / ninety;
                let r = xs - k * ninety;
                Ok((k.rem_euclid(4) as i64, Ext::from_i128(r, -13).mul(PI_180)))
            }
        }
    }

    fn sin_cos(self, mode: AngleMode) -> Result<(Ext, Ext), MathError> {
        let (q, r) = self.reduce(mode)?;
        let (s, c) = (sin_series(r), cos_series(r));
        Ok(match q {
            0 => (s, c),
            1 => (c, s.neg()),
            2 => (s.neg(), c.neg()),
            _ => (c.neg(), s),
        })
    }

    /// `sin x`.
    pub fn sin(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        self.sin_cos(mode)?.0.to_real()
    }

    /// `cos x`.
    pub fn cos(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        self.sin_cos(mode)?.1.to_real()
    }

    /// `tan x`; an odd multiple of 90° is a domain error.
    pub fn tan(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        let (s, c) = self.sin_cos(mode)?;
        if c.m == 0 {
            return Err(MathError::Domain);
        }
        s.div(c).to_real()
    }

    fn angle_out(r: Ext, mode: AngleMode) -> MathResult {
        match mode {
            AngleMode::Radian => r.to_real(),
            AngleMode::Degree => r.mul(D180_PI).to_real(),
        }
    }

    fn quarter_turn(neg: bool, mode: AngleMode) -> MathResult {
        let v = match mode {
            AngleMode::Radian => PI_2.to_real()?,
            AngleMode::Degree => Real::from_i64(90),
        };
        Ok(if neg { -v } else { v })
    }

    /// `sin⁻¹ x`, |x| ≤ 1.
    pub fn asin(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        match (self.exp, self.mant) {
            (_, 0) => return Ok(Real::ZERO),
            (e, _) if e < 0 => {}
            (0, M_MIN) => return Real::quarter_turn(self.neg, mode),
            _ => return Err(MathError::Domain),
        }
        let x = Ext::from_real(self);
        let d = Ext::ONE.sub(x).mul(Ext::ONE.add(x)).sqrt();
        Real::angle_out(atan_ext(x.div(d)), mode)
    }

    /// `cos⁻¹ x`, |x| ≤ 1.
    pub fn acos(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        if self.exp > 0 || (self.exp == 0 && self.mant > M_MIN) {
            return Err(MathError::Domain);
        }
        if self.neg && self.exp == 0 {
            return match mode {
                AngleMode::Radian => PI_EXT.to_real(),
                AngleMode::Degree => Ok(Real::from_i64(180)),
            };
        }
        let x = Ext::from_real(self);
        let t = Ext::ONE.sub(x).div(Ext::ONE.add(x)).sqrt();
        Real::angle_out(atan_ext(t).mul(Ext::int(2)), mode)
    }

    /// `tan⁻¹ x`.
    pub fn atan(self, mode: impl Into<AngleMode>) -> MathResult {
        let mode = mode.into();
        if self.mant == M_MIN && self.exp == 0 && mode == AngleMode::Degree {
            return Ok(if self.neg {
                -Real::from_i64(45)
            } else {
                Real::from_i64(45)
            });
        }
        Real::angle_out(atan_ext(Ext::from_real(self)), mode)
    }

    /// `x°` in radian mode: degrees to radians.
    pub fn deg_to_rad(self) -> MathResult {
        Ext::from_real(self).mul(PI_180).to_real()
    }

    /// `xʳ` in degree mode: radians to degrees.
    pub fn rad_to_deg(self) -> MathResult {
        Ext::from_real(self).mul(D180_PI).to_real()
    }

    // ------------------------------------------------------------------ hyperbolic

    /// `sinh x`.
    pub fn sinh(self) -> MathResult {
        let x = Ext::from_real(self);
        if self.exp < 0 {
            return sinh_series(x).to_real();
        }
        let (a, b) = (exp_ext(x), exp_ext(x.neg()));
        a.sub(b).div(Ext::int(2)).to_real()
    }

    /// `cosh x`.
    pub fn cosh(self) -> MathResult {
        let x = Ext::from_real(self);
        let (a, b) = (exp_ext(x), exp_ext(x.neg()));
        a.add(b).div(Ext::int(2)).to_real()
    }

    /// `tanh x`.
    pub fn tanh(self) -> MathResult {
        let x = Ext::from_real(self);
        if self.exp < 0 {
            let s = sinh_series(x);
            let c = Ext::ONE.add(s.mul(s)).sqrt();
            return s.div(c).to_real();
        }
        if self.exp >= 2 {
            return Ok(if self.neg { -Real::ONE } else { Real::ONE });
        }
        let e2 = exp_ext(x.mul(Ext::int(2)));
        e2.sub(Ext::ONE).div(e2.add(Ext::ONE)).to_real()
    }

    /// `sinh⁻¹ x`.
    pub fn asinh(self) -> MathResult {
        let a = Ext::from_real(self.abs());
        let a2 = a.mul(a);
        let u = a.add(a2.div(Ext::ONE.add(Ext::ONE.add(a2).sqrt())));
        let r = ln1p_ext(u);
        if self.neg {
            r.neg().to_real()
        } else {
            r.to_real()
        }
    }

    /// `cosh⁻¹ x`, x ≥ 1.
    pub fn acosh(self) -> MathResult {
        if self < Real::ONE {
            return Err(MathError::Domain);
        }
        let d = Ext::from_real(self).sub(Ext::ONE);
        let u = d.add(d.mul(d.add(Ext::int(2))).sqrt());
        ln1p_ext(u).to_real()
    }

    /// `tanh⁻¹ x`, |x| < 1.
    pub fn atanh(self) -> MathResult {
        if self.mant == 0 {
            return Ok(Real::ZERO);
        }
        if self.exp >= 0 {
            return Err(MathError::Domain);
        }
        let x = Ext::from_real(self);
        let (p, m) = (Ext::ONE.add(x), Ext::ONE.sub(x));
        let l = if self.exp < -1 || self.mant < 5 * M_MIN {
            ln1p_ext(x.mul(Ext::int(2)).div(m))
        } else {
            // Near ±1: 1 ± x are exact, so the quotient keeps full precision.
            ln_ext(p.div(m))
        };
        l.div(Ext::int(2)).to_real()
    }

    // ------------------------------------------------------------------ probability

    /// `x!` for integers 0…69 and half-integers −.5…69.5 (Γ(x+1)).
    pub fn factorial(self) -> MathResult {
        if self.is_integer() {
            if self.neg {
                return Err(MathError::Domain);
            }
            let n = match self.to_i64_exact() {
                Some(n) if n <= 69 => n,
                _ => return Err(MathError::Overflow),
            };
            let mut p = Ext::ONE;
            for i in 2..=n {
                p = p.mul(Ext::int(i));
            }
            return p.to_real();
        }
        if !self.frac_is_half() || self < Real::new(true, 5, -1)? {
            return Err(MathError::Domain);
        }
        if self.exp >= 2 {
            return Err(MathError::Overflow);
        }
        // x = k + .5: Γ(k + 1.5) = √π·(.5)(1.5)…(k+.5).
        let k = self.ipart().to_i64_exact().unwrap_or(0);
        let mut p = SQRT_PI;
        if !self.neg {
            for i in 0..=k {
                p = p.mul(Ext::new(false, (10 * i + 5) as u128, -1));
            }
        }
        p.to_real()
    }

    fn check_count(self) -> Result<(), MathError> {
        if self.neg || !self.is_integer() {
            Err(MathError::Domain)
        } else {
            Ok(())
        }
    }

    /// `n nPr r` (called on n): n!/(n−r)!.
    pub fn npr(self, r: Real) -> MathResult {
        self.check_count()?;
        r.check_count()?;
        if r > self {
            return Ok(Real::ZERO);
        }
        let n = Ext::from_real(self);
        let steps = r.to_i64_exact().unwrap_or(i64::MAX);
        let mut p = Ext::ONE;
        for i in 0..steps {
            p = p.mul(n.sub(Ext::int(i)));
            if p.e > 100 {
                return Err(MathError::Overflow);
            }
        }
        p.to_real()
    }

    /// `n nCr r` (called on n): n!/(r!(n−r)!).
    pub fn ncr(self, r: Real) -> MathResult {
        self.check_count()?;
        r.check_count()?;
        if r > self {
            return Ok(Real::ZERO);
        }
        let r = r.min(self.sub(r)?);
        let n = Ext::from_real(self);
        let r_ext = Ext::from_real(r);
        let steps = r.to_i64_exact().unwrap_or(i64::MAX);
        let mut p = Ext::ONE;
        for i in 1..=steps {
            let f = n.sub(r_ext).add(Ext::int(i));
            p = p.mul(f).div(Ext::int(i));
            if p.e > 100 {
                return Err(MathError::Overflow);
            }
        }
        p.to_real()
    }
}

// ---------------------------------------------------------------------- 19-digit internals

/// π/2 in pieces for radian reduction: A·10⁻²⁰ + B·10⁻⁴⁰ + C·10⁻⁶⁰.
const PI2_A: i128 = 157_079_632_679_489_661_923;
const PI2_B: i128 = 13_216_916_397_514_420_985;
const PI2_C: i128 = 84_699_687_552_910_487_472;

/// Internal decimal float: value = ±m·10^e, m in [10¹⁸, 10¹⁹) or 0.
#[derive(Clone, Copy, Debug)]
struct Ext {
    neg: bool,
    m: u64,
    e: i64,
}

const X_MIN: u64 = 1_000_000_000_000_000_000;
const X_END: u128 = 10_000_000_000_000_000_000;

const fn ext(m: u64, e: i64) -> Ext {
    Ext { neg: false, m, e }
}

const PI_EXT: Ext = ext(3_141_592_653_589_793_238, -18);
const PI_2: Ext = ext(1_570_796_326_794_896_619, -18);
const LN10: Ext = ext(2_302_585_092_994_045_684, -18);
const LN10_HI: Ext = ext(2_302_585_092_994_045_000, -18);
const LN10_LO: Ext = ext(6_840_179_914_546_843_642, -34);
const INV_LN10: Ext = ext(4_342_944_819_032_518_277, -19);
const LN2: Ext = ext(6_931_471_805_599_453_094, -19);
const PI_180: Ext = ext(1_745_329_251_994_329_577, -20);
const D180_PI: Ext = ext(5_729_577_951_308_232_088, -17);
const SQRT_PI: Ext = ext(1_772_453_850_905_516_027, -18);

impl Ext {
    const ZERO: Ext = ext(0, 0);
    const ONE: Ext = ext(X_MIN, -18);

    /// Rounds ±c·10^e to 19 digits.
    fn new(neg: bool, c: u128, e: i64) -> Ext {
        if c == 0 {
            return Ext::ZERO;
        }
        let d = ndigits(c);
        let (mut m, mut e) = if d > 19 {
            let q = c / p10(d - 20);
            let mut m = q / 10;
            if q % 10 >= 5 {
                m += 1;
            }
            (m, e + d - 19)
        } else {
            (c * p10(19 - d), e - (19 - d))
        };
        if m == X_END {
            m = X_MIN as u128;
            e += 1;
        }
        Ext {
            neg,
            m: m as u64,
            e,
        }
    }

    fn int(n: i64) -> Ext {
        Ext::new(n < 0, n.unsigned_abs() as u128, 0)
    }

    fn from_i128(c: i128, e: i64) -> Ext {
        Ext::new(c < 0, c.unsigned_abs(), e)
    }

    fn from_real(x: Real) -> Ext {
        Ext::new(x.neg, x.mant as u128, x.exp as i64 - 13)
    }

    fn to_real(self) -> MathResult {
        Real::from_parts(self.neg, self.m as u128, self.e)
    }

    fn neg(self) -> Ext {
        if self.m == 0 {
            self
        } else {
            Ext {
                neg: !self.neg,
                ..self
            }
        }
    }

    fn abs(self) -> Ext {
        Ext { neg: false, ..self }
    }

    /// Decimal exponent of the leading digit.
    fn lead(self) -> i64 {
        self.e + 18
    }

    fn add(self, o: Ext) -> Ext {
        if self.m == 0 {
            return o;
        }
        if o.m == 0 {
            return self;
        }
        let (a, b) = if (self.e, self.m) >= (o.e, o.m) {
            (self, o)
        } else {
            (o, self)
        };
        let d = a.e - b.e;
        if d > 19 {
            return a;
        }
        let ca = a.m as u128 * p10(d);
        let cb = b.m as u128;
        if a.neg == b.neg {
            Ext::new(a.neg, ca + cb, b.e)
        } else {
            Ext::new(a.neg, ca - cb, b.e)
        }
    }

    fn sub(self, o: Ext) -> Ext {
        self.add(o.neg())
    }

    fn mul(self, o: Ext) -> Ext {
        if self.m == 0 || o.m == 0 {
            return Ext::ZERO;
        }
        Ext::new(
            self.neg != o.neg,
            self.m as u128 * o.m as u128,
            self.e + o.e,
        )
    }

    /// Division, correctly rounded; dividing by zero gives zero (callers check first).
    fn div(self, o: Ext) -> Ext {
        if self.m == 0 || o.m == 0 {
            return Ext::ZERO;
        }
        let num = self.m as u128 * p10(19);
        let den = o.m as u128;
        let mut q = num / den;
        if 2 * (num % den) >= den {
            q += 1;
        }
        Ext::new(self.neg != o.neg, q, self.e - o.e - 19)
    }

    /// Square root of |self|, correctly rounded.
    fn sqrt(self) -> Ext {
        if self.m == 0 {
            return Ext::ZERO;
        }
        let s = if self.e.rem_euclid(2) == 0 { 18 } else { 19 };
        let n = self.m as u128 * p10(s);
        let mut r = isqrt(n);
        if n - r * r > r {
            r += 1;
        }
        Ext::new(false, r, (self.e - s) / 2)
    }

    /// Floor as an integer, for |self| < 10¹⁷.
    fn floor_i64(self) -> i64 {
        if self.m == 0 {
            return 0;
        }
        let m = self.m as u128;
        let (q, exact) = if self.e >= 0 {
            (m * p10(self.e.min(19)), true)
        } else if self.e < -19 {
            (0, false)
        } else {
            let s = p10(-self.e);
            (m / s, m % s == 0)
        };
        let q = q.min(i64::MAX as u128 / 2) as i64;
        if self.neg {
            -q - i64::from(!exact)
        } else {
            q
        }
    }

    /// True if `self` is below 10⁻²¹ of `sum` (a series can stop).
    fn negligible(self, sum: Ext) -> bool {
        self.m == 0 || self.e + 21 < sum.e
    }
}

/// `first` plus the terms after it, term i made from term i−1 by `next(term, i)` for
/// i = 1…`max`, stopping at the first negligible term.
fn series(first: Ext, max: i64, mut next: impl FnMut(Ext, i64) -> Ext) -> Ext {
    let mut term = first;
    let mut sum = first;
    for i in 1..=max {
        term = next(term, i);
        if term.negligible(sum) {
            break;
        }
        sum = sum.add(term);
    }
    sum
}

/// Σ rⁿ/n!, for small |r|.
fn exp_series(r: Ext) -> Ext {
    series(Ext::ONE, 99, |t, n| t.mul(r).div(Ext::int(n)))
}

/// eᵗ. Huge arguments give a value that overflows in [`Ext::to_real`]; very negative ones 0.
fn exp_ext(t: Ext) -> Ext {
    if t.m == 0 {
        return Ext::ONE;
    }
    if t.lead() >= 4 {
        return if t.neg { Ext::ZERO } else { ext(X_MIN, 1000) };
    }
    let k = t.mul(INV_LN10).floor_i64();
    let kk = Ext::int(k);
    let r = t.sub(kk.mul(LN10_HI)).sub(kk.mul(LN10_LO));
    let mut v = exp_series(r);
    v.e += k;
    v
}

/// Σ z²ⁿ⁺¹/(2n+1), with alternating signs if `alt` (atanh or atan series).
fn odd_series(z: Ext, alt: bool) -> Ext {
    let z2 = z.mul(z);
    let mut pow = z;
    let mut sum = z;
    for n in 1..200 {
        pow = pow.mul(z2);
        if alt {
            pow = pow.neg();
        }
        let t = pow.div(Ext::int(2 * n + 1));
        if t.negligible(sum) {
            break;
        }
        sum = sum.add(t);
    }
    sum
}

/// ln(1+u), u > −1, accurate for small u.
fn ln1p_ext(u: Ext) -> Ext {
    if u.m == 0 {
        return Ext::ZERO;
    }
    let small = if u.neg {
        u.lead() < -1 || (u.lead() == -1 && u.m <= X_MIN / 10 * 25)
    } else {
        u.lead() < -1 || (u.lead() == -1 && u.m <= 5 * X_MIN)
    };
    if small {
        ln1p_small(u)
    } else {
        ln_ext(Ext::ONE.add(u))
    }
}

/// ln(1+u) = 2·atanh(u/(2+u)) for u in about [−.25, .5].
fn ln1p_small(u: Ext) -> Ext {
    let z = u.div(Ext::int(2).add(u));
    odd_series(z, false).mul(Ext::int(2))
}

/// ln y for y > 0.
fn ln_ext(y: Ext) -> Ext {
    let y = y.abs();
    if y.m == 0 {
        return Ext::ZERO;
    }
    let lead = y.lead();
    // y in [0.75, 1.5): no reduction, so results near 0 keep their precision.
    if (lead == -1 && y.m >= X_MIN / 10 * 75) || (lead == 0 && y.m < 15 * X_MIN / 10) {
        return ln1p_small(y.sub(Ext::ONE));
    }
    let m = ext(y.m, -18);
    let j = match y.m {
        v if v < 15 * X_MIN / 10 => 0,
        v if v < 3 * X_MIN => 1,
        v if v < 6 * X_MIN => 2,
        _ => 3,
    };
    let w = m.div(Ext::int(1 << j));
    Ext::int(lead)
        .mul(LN10)
        .add(Ext::int(j).mul(LN2))
        .add(ln1p_small(w.sub(Ext::ONE)))
}

/// Σ (−1)ⁱ r²ⁱ⁺¹/(2i+1)!.
fn sin_series(r: Ext) -> Ext {
    let r2 = r.mul(r);
    series(r, 30, |t, i| {
        t.mul(r2).div(Ext::int(2 * i * (2 * i + 1))).neg()
    })
}

/// Σ (−1)ⁱ r²ⁱ/(2i)!.
fn cos_series(r: Ext) -> Ext {
    let r2 = r.mul(r);
    series(Ext::ONE, 30, |t, i| {
        t.mul(r2).div(Ext::int((2 * i - 1) * (2 * i))).neg()
    })
}

/// sinh for |x| < 1: Σ x²ⁱ⁺¹/(2i+1)!.
fn sinh_series(x: Ext) -> Ext {
    let x2 = x.mul(x);
    series(x, 30, |t, i| t.mul(x2).div(Ext::int(2 * i * (2 * i + 1))))
}

/// atan x in radians.
fn atan_ext(x: Ext) -> Ext {
    if x.m == 0 {
        return Ext::ZERO;
    }
    let a = x.abs();
    let inv = a.lead() >= 0 && (a.lead() > 0 || a.m > X_MIN);
    let mut z = if inv { Ext::ONE.div(a) } else { a };
    // Two argument halvings: atan z = 2·atan(z / (1 + √(1+z²))), leaving |z| ≤ tan(π/16).
    for _ in 0..2 {
        z = z.div(Ext::ONE.add(Ext::ONE.add(z.mul(z)).sqrt()));
    }
    let mut r = odd_series(z, true).mul(Ext::int(4));
    if inv {
        r = PI_2.sub(r);
    }
    if x.neg {
        r.neg()
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Real {
        Real::parse(s).unwrap()
    }

    #[test]
    fn constants_are_normalised() {
        for c in [
            PI_EXT, PI_2, LN10, LN10_HI, LN10_LO, INV_LN10, LN2, PI_180, D180_PI, SQRT_PI,
        ] {
            assert!((X_MIN..=X_END as u64 - 1).contains(&c.m), "{c:?}");
        }
        assert_eq!(PI_EXT.to_real().unwrap(), Real::PI);
        assert_eq!(LN10_HI.add(LN10_LO).m, LN10.m);
    }

    #[test]
    fn ext_basics() {
        let third = Ext::ONE.div(Ext::int(3));
        assert_eq!(third.m, 3_333_333_333_333_333_333);
        assert_eq!(Ext::int(2).sqrt().m, 1_414_213_562_373_095_049);
        assert_eq!(Ext::int(-7).floor_i64(), -7);
        assert_eq!(Ext::from_real(r("-2.5")).floor_i64(), -3);
        assert_eq!(Ext::from_real(r("2.5")).floor_i64(), 2);
        assert_eq!(exp_ext(Ext::ONE).to_real().unwrap(), Real::E);
        assert_eq!(ln_ext(Ext::int(10)).m, LN10.m);
    }

    #[test]
    fn isqrt_edges() {
        for n in [
            0u128,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            u64::MAX as u128,
            10u128.pow(38),
        ] {
            let s = isqrt(n);
            assert!(s * s <= n && (s + 1) * (s + 1) > n, "{n}");
        }
    }
}
