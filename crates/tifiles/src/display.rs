//! How the calculator writes a real on the screen, in every MODE setting: one formatter for
//! the home screen, `Disp`, `Output(`, `Text(`, lists and matrices.
//!
//! The rules, from the TI-82 Guidebook's MODE chapter (the TI-83 Guidebook repeats them word
//! for word) and spec §8.6:
//! - **Normal** writes digits on both sides of the point; a result that cannot be written in 10
//!   digits, or whose absolute value is below .001, is written in scientific notation instead.
//! - **Sci** writes one digit before the point and the power of ten after `ᴇ` (`1.2345ᴇ4`).
//! - **Eng** writes one to three digits before the point and an exponent that is a multiple of
//!   three (`12.345ᴇ3`).
//! - **Float** shows up to 10 significant digits and drops trailing zeros; **Fix n** shows
//!   exactly n digits after the point (rounded half away from zero, padded with zeros), in all
//!   three notations, but never more than 10 digits in all.
//! - Negative numbers and exponents use the raised minus `⁻`, the exponent mark is `ᴇ` with no
//!   plus sign and no leading zero, and numbers between −1 and 1 have no leading zero (`.5`).
//!
//! Where the books are silent we chose, and `docs/tibasic.md` says so [U]: zero in Fix n is
//! `0.00…` (with its zero before the point) and in Sci/Eng `0ᴇ0`; Normal Float keeps the
//! existing rule that a number below 1 uses at most 10 digit places after the point
//! (`.0012345679`).

use crate::real::Real;

/// Normal, Sci or Eng (the first line of the MODE screen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    #[default]
    Normal,
    Sci,
    Eng,
}

/// The display settings a number is written with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NumFormat {
    pub notation: Notation,
    /// `Fix n` (None = Float).
    pub fix: Option<u8>,
}

impl NumFormat {
    /// Normal Float, the power-on setting.
    pub const FLOAT: NumFormat = NumFormat {
        notation: Notation::Normal,
        fix: None,
    };
}

/// Digits shown at most.
const SHOWN: i32 = 10;
const MINUS: char = '\u{207B}';
const EXP: char = '\u{1D07}';

/// A rounded decimal: `digits[i]` is the digit of 10^(`exp` − i); empty means zero.
struct Dec {
    digits: Vec<u8>,
    exp: i32,
}

/// `r`'s digits rounded (half away from zero) to `n` significant digits. A carry adds a
/// digit in front (9.99 → 10.0, exponent one higher); `n` ≤ 0 keeps only what rounds up.
fn round_sig(r: Real, n: i32) -> Dec {
    let all = r.digits();
    let e = r.exponent();
    if r.is_zero() || n < 0 {
        return Dec {
            digits: Vec::new(),
            exp: e,
        };
    }
    if n == 0 {
        // Only a first digit of 5 or more survives, as one unit of the next place up.
        let digits = if all[0] >= 5 { vec![1] } else { Vec::new() };
        return Dec { digits, exp: e + 1 };
    }
    let n = n.min(14) as usize;
    let mut d: Vec<u8> = all[..n].to_vec();
    let mut exp = e;
    if n < 14 && all[n] >= 5 {
        let mut i = n;
        loop {
            if i == 0 {
                // 9.99 → 10.0: every digit is 0 now; one more in front, one fewer behind.
                d.insert(0, 1);
                d.pop();
                exp += 1;
                break;
            }
            i -= 1;
            if d[i] == 9 {
                d[i] = 0;
            } else {
                d[i] += 1;
                break;
            }
        }
    }
    while d.last() == Some(&0) {
        d.pop();
    }
    Dec { digits: d, exp }
}

fn digit_at(d: &Dec, place: i32) -> char {
    // The digit of 10^place.
    let i = d.exp - place;
    let v = if i >= 0 {
        d.digits.get(i as usize).copied().unwrap_or(0)
    } else {
        0
    };
    (b'0' + v) as char
}

/// Positional digits with `decimals` digits after the point (no leading zero before it).
fn positional(d: &Dec, decimals: i32, out: &mut String) {
    if d.exp >= 0 {
        for place in (0..=d.exp).rev() {
            out.push(digit_at(d, place));
        }
    }
    if decimals > 0 {
        out.push('.');
        for place in 1..=decimals {
            out.push(digit_at(d, -place));
        }
    }
}

fn exponent(e: i32, out: &mut String) {
    out.push(EXP);
    if e < 0 {
        out.push(MINUS);
    }
    out.push_str(&e.unsigned_abs().to_string());
}

/// The significant digits after the first `lead` ones (trailing zeros already dropped).
fn float_decimals(d: &Dec, lead: i32) -> i32 {
    (d.digits.len() as i32 - lead).max(0)
}

/// Sci (`step` 1) or Eng (`step` 3) notation.
fn scientific(r: Real, fix: Option<u8>, step: i32, out: &mut String) {
    if r.is_zero() {
        out.push('0');
        if let Some(f) = fix.filter(|&f| f > 0) {
            out.push('.');
            out.extend(std::iter::repeat_n('0', f as usize));
        }
        exponent(0, out);
        return;
    }
    // Rounding can carry into a new power of ten (9.999ᴇ2 → 1.000ᴇ3), which for Eng moves
    // the point: round, and once more from the rounded value's exponent if that happened.
    let mut e = r.exponent();
    let mut d;
    loop {
        let e_shown = e.div_euclid(step) * step;
        let lead = e - e_shown + 1;
        let decimals = match fix {
            Some(f) => (f as i32).min(SHOWN - lead),
            None => SHOWN - lead,
        };
        d = round_sig(r, lead + decimals);
        if d.exp != e {
            e = d.exp;
            continue;
        }
        let decimals = match fix {
            Some(_) => decimals,
            None => float_decimals(&d, lead),
        };
        // Mantissa digits at places lead-1 .. 0 (relative), shown as d.exp - e_shown.
        let shifted = Dec {
            digits: d.digits.clone(),
            exp: lead - 1,
        };
        positional_lead(&shifted, decimals, out);
        exponent(e_shown, out);
        return;
    }
}

/// Like [`positional`] but the integer part is at least one digit (a mantissa).
fn positional_lead(d: &Dec, decimals: i32, out: &mut String) {
    for place in (0..=d.exp.max(0)).rev() {
        out.push(digit_at(d, place));
    }
    if decimals > 0 {
        out.push('.');
        for place in 1..=decimals {
            out.push(digit_at(d, -place));
        }
    }
}

/// `r` as the calculator writes it with format `f` (Unicode: `⁻`, `ᴇ`).
pub fn real_text(r: Real, f: NumFormat) -> String {
    let mut out = String::new();
    if r.is_negative() && !r.is_zero() {
        out.push(MINUS);
    }
    let r = r.abs();
    match f.notation {
        Notation::Sci => scientific(r, f.fix, 1, &mut out),
        Notation::Eng => scientific(r, f.fix, 3, &mut out),
        Notation::Normal => normal(r, f.fix, &mut out),
    }
    out
}

fn normal(r: Real, fix: Option<u8>, out: &mut String) {
    if r.is_zero() {
        out.push('0');
        if let Some(f) = fix.filter(|&f| f > 0) {
            out.push('.');
            out.extend(std::iter::repeat_n('0', f as usize));
        }
        return;
    }
    let e = r.exponent();
    // Below .001 or past 10 digits: scientific.
    if !(-3..SHOWN).contains(&e) {
        return scientific(r, fix, 1, out);
    }
    let int_len = (e + 1).max(0);
    let decimals = match fix {
        Some(f) => (f as i32).min(SHOWN - int_len),
        // Float: 10 digit places in all, the zeros after the point included.
        None => SHOWN - int_len,
    };
    let d = round_sig(r, e + 1 + decimals);
    if d.exp >= SHOWN {
        // 9999999999.7 rounds to 10 digits' worth: scientific.
        return scientific(r, fix, 1, out);
    }
    if d.digits.is_empty() {
        // Rounded away entirely (Fix): zeros.
        out.push('0');
        if decimals > 0 {
            out.push('.');
            out.extend(std::iter::repeat_n('0', decimals as usize));
        }
        return;
    }
    if fix.is_none() && d.exp < -3 {
        return scientific(r, fix, 1, out);
    }
    let decimals = match fix {
        Some(_) => decimals,
        None => float_decimals(&d, d.exp + 1),
    };
    positional(&d, decimals, out);
}

/// The lines `Disp` writes for a matrix: `[[` before the first row, ` [` before the others,
/// `]]` after the last; elements separated by a space and every column, the last one too,
/// padded on the right to its widest element, so the closing brackets line up
/// (`[[⁻2  1  ]` over ` [1.5 ⁻.5]]`; `docs/calculator.md`, "Matrices on the home screen").
pub fn matrix_lines(rows: usize, cols: usize, data: &[Real], f: NumFormat) -> Vec<String> {
    let texts: Vec<String> = data.iter().map(|&x| real_text(x, f)).collect();
    let width = |c: usize| {
        (0..rows)
            .map(|r| texts[r * cols + c].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..cols).map(width).collect();
    (0..rows)
        .map(|r| {
            let mut s = String::from(if r == 0 { "[[" } else { " [" });
            for c in 0..cols {
                if c > 0 {
                    s.push(' ');
                }
                let t = &texts[r * cols + c];
                s.push_str(t);
                s.extend(std::iter::repeat_n(' ', widths[c] - t.chars().count()));
            }
            s.push(']');
            if r + 1 == rows {
                s.push(']');
            }
            s
        })
        .collect()
}
