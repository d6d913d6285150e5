//! The MATH and ANGLE menus' conversions: `►Frac`, `►DMS` (display forms), `R►Pr(`, `R►Pθ(`,
//! `P►Rx(`, `P►Ry(` and degrees-minutes-seconds entry.
//!
//! Sources: TI-82 Guidebook, MATH MATH and ANGLE menus (the TI-83 Guidebook's chapter 2 has the
//! same entries): `►Frac` shows a result as a fraction, `►DMS` as degrees°minutes'seconds",
//! both only as the last thing on a line and only for display (the value, and Ans, stay
//! decimal); `R►Pr(x,y)` = √(x²+y²), `R►Pθ(x,y)` is the angle of (x,y), `P►Rx(r,θ)` = r cos θ,
//! `P►Ry(r,θ)` = r sin θ, angles in the current angle mode; `D°M'S"` entry is degrees. Spec
//! §8.6: ►DMS writes `°`, `'`, `"`; ►Frac writes `/`.

use crate::display::{real_text, NumFormat};
use crate::eval::math;
use crate::real::Real;
use crate::value::ErrorKind;

/// The largest denominator `►Frac` writes. [U: no source found for the TI-82's bound; beyond
/// it the number is shown as a decimal, as the Guidebooks say for "cannot be simplified".]
pub const MAX_DENOMINATOR: i128 = 9999;

/// How a `Disp`ed or answered value is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    #[default]
    Decimal,
    Frac,
    Dms,
}

/// `x` as `p/q` (`⁻p/q` when negative) if a fraction with a denominator up to
/// [`MAX_DENOMINATOR`] equals it to 12 significant digits (the last two of the 14 stored are
/// rounding noise: 1/3 is stored .33333333333333).
pub fn frac_text(x: Real) -> Option<String> {
    if x.is_zero() || x.is_integer() {
        return None;
    }
    let e = x.exponent();
    // Below 1/10⁵ no four-digit denominator comes within 12 digits.
    if e < -5 {
        return None;
    }
    // x = a / b exactly.
    let mant = i128::from(x.mantissa());
    let (a, b) = if e >= 13 {
        return None;
    } else {
        (mant, 10i128.pow((13 - e) as u32))
    };
    let (mut num, mut den) = (a, b);
    let (mut h1, mut h2, mut k1, mut k2) = (1i128, 0i128, 0i128, 1i128);
    loop {
        let q = num / den;
        let (h, k) = (q * h1 + h2, q * k1 + k2);
        if k > MAX_DENOMINATOR {
            return None;
        }
        let residual = (h * b - k * a).abs() as f64;
        if residual <= a as f64 * k as f64 * 1e-12 {
            let sign = if x.is_negative() { "\u{207B}" } else { "" };
            return Some(format!("{sign}{h}/{k}"));
        }
        let r = num - q * den;
        if r == 0 {
            return None;
        }
        (num, den) = (den, r);
        (h2, h1, k2, k1) = (h1, h, k1, k);
    }
}

/// `x` as degrees°minutes'seconds": whole degrees and minutes, seconds in format `f`.
pub fn dms_text(x: Real, f: NumFormat) -> Result<String, ErrorKind> {
    let sixty = Real::from_i64(60);
    let a = x.abs();
    let d = a.ipart();
    let m_all = a.sub(d).and_then(|r| r.mul(sixty)).map_err(math)?;
    let m = m_all.ipart();
    let s = m_all.sub(m).and_then(|r| r.mul(sixty)).map_err(math)?;
    // Seconds are written as the display rounds them (10 digits); 59.99999999999 seconds
    // becomes a whole minute more.
    let mut s = s.round(8);
    let (mut d, mut m) = (d, m);
    if s >= sixty {
        s = s.sub(sixty).map_err(math)?;
        m = m.add(Real::ONE).map_err(math)?;
    }
    if m >= sixty {
        m = m.sub(sixty).map_err(math)?;
        d = d.add(Real::ONE).map_err(math)?;
    }
    let sign = if x.is_negative() { "\u{207B}" } else { "" };
    Ok(format!(
        "{sign}{}°{}'{}\"",
        real_text(d, NumFormat::FLOAT),
        real_text(m, NumFormat::FLOAT),
        real_text(s, f)
    ))
}

/// `D°M'S"` entry: the angle in degrees.
pub fn dms_value(d: Real, m: Real, s: Real) -> Result<Real, ErrorKind> {
    let m = m.div(Real::from_i64(60)).map_err(math)?;
    let s = s.div(Real::from_i64(3600)).map_err(math)?;
    d.add(m).and_then(|v| v.add(s)).map_err(math)
}

/// The angle of the point (x, y), in (−π, π] (or (−180, 180] in degrees). [U: (0,0) gives 0,
/// as the TI-83 family does.]
pub fn angle(x: Real, y: Real, deg: bool) -> Result<Real, ErrorKind> {
    let half = if deg {
        Real::from_i64(90)
    } else {
        Real::PI.div(Real::from_i64(2)).map_err(math)?
    };
    let full = half.add(half).map_err(math)?;
    if x.is_zero() {
        return Ok(if y.is_zero() {
            Real::ZERO
        } else if y.is_negative() {
            half.neg()
        } else {
            half
        });
    }
    let t = y.div(x).and_then(|q| q.atan(deg)).map_err(math)?;
    if !x.is_negative() {
        Ok(t)
    } else if y.is_negative() {
        t.sub(full).map_err(math)
    } else {
        t.add(full).map_err(math)
    }
}

/// `R►Pr(` (token 1B), `R►Pθ(` (1C), `P►Rx(` (1D), `P►Ry(` (1E) of two reals.
pub fn polar(tok: u8, a: Real, b: Real, deg: bool) -> Result<Real, ErrorKind> {
    match tok {
        0x1B => a
            .mul(a)
            .and_then(|x| b.mul(b).and_then(|y| x.add(y)))
            .and_then(|s| s.sqrt())
            .map_err(math),
        0x1C => angle(a, b, deg),
        0x1D => b.cos(deg).and_then(|c| a.mul(c)).map_err(math),
        _ => b.sin(deg).and_then(|s| a.mul(s)).map_err(math),
    }
}
