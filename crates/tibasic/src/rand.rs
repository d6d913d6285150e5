//! `rand` and `n→rand`: L'Ecuyer's combined multiplicative generator (Communications of the
//! ACM 31(6), 1988, the portable two-generator combination with m₁ = 2147483563, a₁ = 40014,
//! m₂ = 2147483399, a₂ = 40692), the generator of the whole TI-8x family.
//!
//! The TI-82 evidence: a TI-82 owner found in 1998 (the calc-ti mailing list, "random-number
//! generator on TI-82") that after seeding with N the first `rand` is 1 − fPart(N·.2544392277).
//! With the seeding below, the first number is fPart(N·(a₁² − a₂)/(m₁ − 1)) =
//! fPart(N·.7455607723…) = 1 − fPart(N·.2544392277…), so the TI-82 seeds and steps exactly as
//! the TI-83 family is documented to (seeds 12345 and 67890 after a reset and after `0→rand`;
//! otherwise s₁ = 40014·N mod m₁, s₂ = N mod m₂ for N = |iPart N|). The number returned is
//! z/(m₁ − 1) with z = s₁ − s₂ (plus m₁ − 1 when not positive), divided in the 14-digit
//! decimal arithmetic. [U: the last of the 14 digits of the TI's own division are not
//! confirmed; the 10 shown digits are.]

use crate::real::Real;

const M1: i64 = 2_147_483_563;
const M2: i64 = 2_147_483_399;
const A1: i64 = 40_014;
const A2: i64 = 40_692;
/// The seeds after a reset and after `0→rand`.
pub const RESET: (i64, i64) = (12_345, 67_890);

/// The seeds `n→rand` sets.
pub fn seeds(n: Real) -> (i64, i64) {
    let n = n.ipart().abs();
    if n.is_zero() {
        return RESET;
    }
    let s1 = mul_mod(A1, mod_of(n, M1), M1);
    let s2 = mod_of(n, M2);
    (s1, s2)
}

/// `n mod m` for a non-negative integer real (exactly, even past 14 digits: n = c·10^k).
fn mod_of(n: Real, m: i64) -> i64 {
    let mant = n.mantissa() as i128;
    let e = n.exponent() - 13;
    let m128 = m as i128;
    if e >= 0 {
        let mut p = 1i128;
        for _ in 0..e {
            p = p * 10 % m128;
        }
        (mant % m128 * p % m128) as i64
    } else {
        let int = mant / 10i128.pow((-e).min(30) as u32);
        (int % m128) as i64
    }
}

fn mul_mod(a: i64, b: i64, m: i64) -> i64 {
    (a as i128 * b as i128 % m as i128) as i64
}

/// One step from the seeds in RAM (out-of-range or non-integer seeds count as a reset): the
/// new seeds and the number in (0, 1).
pub fn next(seeds: (Option<i64>, Option<i64>)) -> ((i64, i64), Real) {
    let s1 = seeds.0.filter(|s| (1..M1).contains(s));
    let s2 = seeds.1.filter(|s| (1..M2).contains(s));
    let (s1, s2) = match (s1, s2) {
        (Some(a), Some(b)) => (a, b),
        _ => RESET,
    };
    let s1 = mul_mod(A1, s1, M1);
    let s2 = mul_mod(A2, s2, M2);
    let mut z = s1 - s2;
    if z < 1 {
        z += M1 - 1;
    }
    let r = Real::from_i64(z)
        .div(Real::from_i64(M1 - 1))
        .unwrap_or(Real::ZERO);
    ((s1, s2), r)
}
