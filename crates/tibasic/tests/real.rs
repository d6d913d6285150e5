//! Hand-written expectations for TI-82 reals: what the calculator stores (14 digits) for
//! typical calculations, the 9-byte format, parsing, errors, and seeded property tests.

use tibasic::real::{AngleMode, InvalidBcd, MathError, Real};

use AngleMode::{Degree as Deg, Radian as Rad};

fn r(s: &str) -> Real {
    Real::parse(s).unwrap_or_else(|| panic!("bad literal {s:?}"))
}

/// (negative, mantissa, exponent) of a result.
fn parts(x: Result<Real, MathError>) -> (bool, u64, i32) {
    let x = x.unwrap();
    (x.is_negative(), x.mantissa(), x.exponent())
}

fn ok(x: Result<Real, MathError>) -> Real {
    x.unwrap()
}

// ---------------------------------------------------------------- the classic examples

#[test]
fn one_third() {
    let third = ok(Real::ONE.div(r("3")));
    assert_eq!(parts(Ok(third)), (false, 33_333_333_333_333, -1));
    assert_eq!(third.digits(), [3; 14]);
    assert_eq!(
        third.to_bcd(),
        [0x00, 0x7F, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33]
    );
}

#[test]
fn one_third_times_three_is_not_one() {
    let x = ok(ok(Real::ONE.div(r("3"))).mul(r("3")));
    assert_eq!(parts(Ok(x)), (false, 99_999_999_999_999, -1));
    assert_ne!(x, Real::ONE);
    assert!(x < Real::ONE);
    // ... but it shows as 1 at 10 digits.
    assert_eq!(x.round(9), Real::ONE);
    assert_eq!(parts(x.sub(Real::ONE)), (true, 10_000_000_000_000, -14));
}

#[test]
fn two_thirds_rounds_up() {
    assert_eq!(parts(r("2").div(r("3"))), (false, 66_666_666_666_667, -1));
    assert_eq!(parts(r("-2").div(r("3"))), (true, 66_666_666_666_667, -1));
}

#[test]
fn sevenths() {
    let s = ok(Real::ONE.div(r("7")));
    assert_eq!(parts(Ok(s)), (false, 14_285_714_285_714, -1));
    assert_eq!(parts(s.mul(r("7"))), (false, 99_999_999_999_998, -1));
    assert_eq!(parts(r("22").div(r("7"))), (false, 31_428_571_428_571, 0));
}

#[test]
fn decimal_fractions_are_exact() {
    assert_eq!(ok(r(".1").add(r(".2"))), r(".3"));
    assert_eq!(ok(r("1").sub(r(".9"))), r(".1"));
    assert_eq!(ok(r(".1").mul(r("3"))), r(".3"));
    assert_eq!(ok(r("4.35").mul(r("100"))), r("435"));
    assert_eq!(ok(r("1.1").square()), r("1.21"));
}

#[test]
fn sqrt_two() {
    let s = ok(r("2").sqrt());
    assert_eq!(parts(Ok(s)), (false, 14_142_135_623_731, 0));
    assert_eq!(ok(s.square()), r("2"));
    assert_eq!(ok(r("4").sqrt()), r("2"));
    assert_eq!(ok(r("1E-4").sqrt()), r(".01"));
    assert_eq!(ok(r("1E99").sqrt()), r("3.1622776601684E49"));
    assert_eq!(ok(r("0").sqrt()), Real::ZERO);
    assert_eq!(r("-1").sqrt(), Err(MathError::Domain));
}

#[test]
fn integers_are_exact_to_14_digits() {
    assert_eq!(ok(r("99999999999999").add(Real::ONE)), r("1E14"));
    assert_eq!(
        ok(r("12345678901234").add(r("1"))),
        Real::from_i64(12_345_678_901_235)
    );
    assert_eq!(
        ok(Real::from_i64(9_999_999).mul(Real::from_i64(9_999_999))),
        Real::from_i64(99_999_980_000_001)
    );
    // A 15th digit is rounded away (half away from zero).
    assert_eq!(ok(r("99999999999999").add(r("99999999999999"))), r("2E14"));
    assert_eq!(
        ok(r("99999999999999").add(r("99999999999994"))),
        r("1.9999999999999E14")
    );
    // An exact tie rounds away from zero.
    assert_eq!(ok(r("99999999999999").add(r("99999999999996"))), r("2E14"));
    assert_eq!(ok(r("-12345678901234").sub(r(".5"))), r("-12345678901235"));
    assert_eq!(Real::from_i64(123_456_789_012_345), r("1.2345678901235E14"));
    assert_eq!(
        Real::from_i64(-123_456_789_012_345),
        r("-1.2345678901235E14")
    );
    assert_eq!(Real::from_i64(i64::MAX), r("9.2233720368548E18"));
    assert_eq!(Real::from_i64(i64::MIN), r("-9.2233720368548E18"));
}

// ---------------------------------------------------------------- range

#[test]
fn overflow_and_underflow() {
    assert_eq!(r("1E99").mul(r("10")), Err(MathError::Overflow));
    assert_eq!(r("-1E99").mul(r("10")), Err(MathError::Overflow));
    assert_eq!(
        r("9.9999999999999E99").add(r("1E86")),
        Err(MathError::Overflow)
    );
    assert_eq!(r("1E50").square(), Err(MathError::Overflow));
    assert_eq!(r("1E99").div(r(".1")), Err(MathError::Overflow));
    assert_eq!(
        ok(r("9.9999999999999E99").add(r("1E84"))),
        r("9.9999999999999E99")
    );
    assert_eq!(ok(r("1E-99").div(r("10"))), Real::ZERO);
    assert_eq!(ok(r("1E-50").square()), Real::ZERO);
    assert_eq!(ok(r("1E-49").mul(r("1E-50"))), r("1E-99"));
    assert_eq!(r("1").div(Real::ZERO), Err(MathError::DivideByZero));
    assert_eq!(Real::ZERO.div(Real::ZERO), Err(MathError::DivideByZero));
    assert_eq!(Real::ZERO.recip(), Err(MathError::DivideByZero));
}

#[test]
fn no_negative_zero() {
    let z = -Real::ZERO;
    assert_eq!(z, Real::ZERO);
    assert!(!z.is_negative());
    assert_eq!(Real::ZERO.neg(), Real::ZERO);
    let d = ok(r("-2.5").add(r("2.5")));
    assert!(!d.is_negative() && d.is_zero());
    assert_eq!(d.to_bcd(), [0, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(ok(r("-3").mul(Real::ZERO)), Real::ZERO);
    assert_eq!(ok(Real::ZERO.div(r("-3"))), Real::ZERO);
    assert_eq!(
        Real::from_bcd([0x80, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        Ok(Real::ZERO)
    );
    assert_eq!(r("-0"), Real::ZERO);
    assert_eq!(r("-1E-200"), Real::ZERO);
    assert_eq!(r("-.4").round(0), Real::ZERO);
    assert!(!r("-.4").round(0).is_negative());
    assert_eq!(r("-.5").ipart(), Real::ZERO);
}

// ---------------------------------------------------------------- integer parts, rounding

#[test]
fn int_ipart_fpart() {
    assert_eq!(ok(r("-2.5").int()), r("-3"));
    assert_eq!(r("-2.5").ipart(), r("-2"));
    assert_eq!(r("-2.5").fpart(), r("-.5"));
    assert_eq!(ok(r("2.5").int()), r("2"));
    assert_eq!(r("2.5").ipart(), r("2"));
    assert_eq!(r("2.5").fpart(), r(".5"));
    assert_eq!(ok(r("-3").int()), r("-3"));
    assert_eq!(r("-3").fpart(), Real::ZERO);
    assert_eq!(ok(r("-1E-50").int()), r("-1"));
    assert_eq!(ok(r("1E-50").int()), Real::ZERO);
    assert_eq!(r(".99999999999999").ipart(), Real::ZERO);
    assert_eq!(r("1E20").fpart(), Real::ZERO);
    assert_eq!(ok(r("1E20").int()), r("1E20"));
    assert_eq!(r("123.45678901234").fpart(), r(".45678901234"));
    assert_eq!(ok(r("-123.45678901234").int()), r("-124"));
    assert_eq!(ok(r("-9.9999999999999E13").int()), r("-9.9999999999999E13"));
    assert_eq!(ok(r("-9999999999999.9").int()), r("-1E13"));
}

#[test]
fn round_half_away_from_zero() {
    assert_eq!(r("2.5").round(0), r("3"));
    assert_eq!(r("-2.5").round(0), r("-3"));
    assert_eq!(r("1.23456").round(2), r("1.23"));
    assert_eq!(r("1.235").round(2), r("1.24"));
    assert_eq!(r("-1.235").round(2), r("-1.24"));
    assert_eq!(Real::PI.round(9), r("3.141592654"));
    assert_eq!(Real::PI.round(0), r("3"));
    assert_eq!(r(".00000000049").round(9), Real::ZERO);
    assert_eq!(r(".0000000005").round(9), r("1E-9"));
    assert_eq!(r(".5").round(0), r("1"));
    assert_eq!(r("9.9999999999999").round(3), r("10"));
    assert_eq!(r("1E50").round(2), r("1E50"));
    assert_eq!(r("12345.678").round(9), r("12345.678"));
    assert_eq!(r("2.5").round(200), r("2.5"));
}

// ---------------------------------------------------------------- comparisons

#[test]
fn ordering() {
    let sorted = [
        "-1E99",
        "-5",
        "-2.5",
        "-1",
        "-.5",
        "-1E-99",
        "0",
        "1E-99",
        "1E-5",
        ".5",
        ".99999999999999",
        "1",
        "1.0000000000001",
        "2",
        "10",
        "1E99",
    ];
    let v: Vec<Real> = sorted.iter().map(|s| r(s)).collect();
    for i in 0..v.len() {
        for j in 0..v.len() {
            assert_eq!(v[i].cmp(&v[j]), i.cmp(&j), "{} vs {}", sorted[i], sorted[j]);
        }
    }
    assert_eq!(r("1.0"), Real::ONE);
    assert_eq!(r("10E-1"), Real::ONE);
    assert_eq!(r(".1E1"), Real::ONE);
    assert_eq!(r("-2").max(r("-3")), r("-2"));
}

// ---------------------------------------------------------------- conversions

#[test]
fn integer_conversions() {
    assert_eq!(r("3").to_i64_exact(), Some(3));
    assert_eq!(r("-7").to_i64_exact(), Some(-7));
    assert_eq!(Real::ZERO.to_i64_exact(), Some(0));
    assert_eq!(r("2.5").to_i64_exact(), None);
    assert_eq!(r("1E-5").to_i64_exact(), None);
    assert_eq!(r("1E18").to_i64_exact(), Some(1_000_000_000_000_000_000));
    assert_eq!(r("1E19").to_i64_exact(), None);
    assert_eq!(r("-9E18").to_i64_exact(), Some(-9_000_000_000_000_000_000));
    assert_eq!(r("1E99").to_i64_exact(), None);
    assert_eq!(Real::from_i64(-42), r("-42"));
    assert!(r("1E20").is_integer());
    assert!(!r("1.5").is_integer());
    assert_eq!(Real::from_bool(true), Real::ONE);
    assert_eq!(Real::from_bool(false), Real::ZERO);
}

#[test]
fn bcd_spec_examples() {
    let cases: [(&str, [u8; 9]); 6] = [
        ("1", [0x00, 0x80, 0x10, 0, 0, 0, 0, 0, 0]),
        ("-2", [0x80, 0x80, 0x20, 0, 0, 0, 0, 0, 0]),
        ("12", [0x00, 0x81, 0x12, 0, 0, 0, 0, 0, 0]),
        (".5", [0x00, 0x7F, 0x50, 0, 0, 0, 0, 0, 0]),
        ("0", [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        (
            "3.1415926535898",
            [0x00, 0x80, 0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x98],
        ),
    ];
    for (text, bytes) in cases {
        assert_eq!(r(text).to_bcd(), bytes, "{text}");
        assert_eq!(Real::from_bcd(bytes), Ok(r(text)), "{text}");
    }
    assert_eq!(Real::PI.to_bcd(), cases[5].1);
    assert_eq!(
        r("-1.2345678901234E-99").to_bcd(),
        [0x80, 0x1D, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34]
    );
    assert_eq!(
        r("9.9999999999999E99").to_bcd(),
        [0x00, 0xE3, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99]
    );
}

#[test]
fn bcd_decoding_edge_cases() {
    // OS flag bits other than the sign are ignored.
    assert_eq!(
        Real::from_bcd([0x40, 0x80, 0x10, 0, 0, 0, 0, 0, 0]),
        Ok(Real::ONE)
    );
    assert_eq!(
        Real::from_bcd([0xC0, 0x80, 0x10, 0, 0, 0, 0, 0, 0]),
        Ok(-Real::ONE)
    );
    // Bad digits.
    assert_eq!(
        Real::from_bcd([0, 0x80, 0x1A, 0, 0, 0, 0, 0, 0]),
        Err(InvalidBcd)
    );
    assert_eq!(
        Real::from_bcd([0, 0x80, 0x10, 0, 0, 0, 0, 0, 0xF0]),
        Err(InvalidBcd)
    );
    // Exponent 1E100 and up is not a real; unnormalised mantissas are normalised.
    assert_eq!(
        Real::from_bcd([0, 0xE4, 0x10, 0, 0, 0, 0, 0, 0]),
        Err(InvalidBcd)
    );
    assert_eq!(
        Real::from_bcd([0, 0x81, 0x01, 0x20, 0, 0, 0, 0, 0]),
        Ok(r("1.2"))
    );
    assert_eq!(
        Real::from_bcd([0, 0x00, 0x10, 0, 0, 0, 0, 0, 0]),
        Ok(Real::ZERO)
    );
}

#[test]
fn parsing() {
    assert_eq!(r("-2.5"), -r("2.5"));
    assert_eq!(r("⁻2.5"), -r("2.5"));
    assert_eq!(r("~2.5"), -r("2.5"));
    assert_eq!(r("1E-5"), ok(Real::ONE.div(r("100000"))));
    assert_eq!(r("1ᴇ⁻5"), r("1E-5"));
    assert_eq!(r("1e+5"), r("100000"));
    assert_eq!(r("ᴇ3"), r("1000"));
    assert_eq!(r("E3"), r("1000"));
    assert_eq!(r(".5"), ok(Real::ONE.div(r("2"))));
    assert_eq!(r("5."), r("5"));
    assert_eq!(r("007"), r("7"));
    assert_eq!(r("0.000"), Real::ZERO);
    assert_eq!(r("1E-100"), Real::ZERO);
    assert_eq!(r("1E99"), ok(Real::new(false, 1, 99)));
    assert_eq!(r("0.000123E2"), r(".0123"));
    assert_eq!(r("123456789012345678901234567890"), r("1.2345678901235E29"));
    assert_eq!(r(".333333333333333333"), ok(Real::ONE.div(r("3"))));
    assert_eq!(r(".666666666666666666"), ok(r("2").div(r("3"))));
    assert_eq!(r("1.00000000000005"), r("1.0000000000001"));
    assert_eq!(r("1.00000000000004999"), Real::ONE);
    for bad in [
        "",
        ".",
        "-",
        "E",
        "1E",
        "1E-",
        "1.2.3",
        "12a",
        "a",
        "1E5.5",
        "--1",
        ".E3",
        "1 2",
        "1E100",
        "-1E100",
        "1E999999999999",
    ] {
        assert_eq!(Real::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn f64_helpers() {
    assert_eq!(Real::from_f64(0.1), Ok(r(".1")));
    assert_eq!(Real::from_f64(1.0 / 3.0), Ok(ok(Real::ONE.div(r("3")))));
    assert_eq!(Real::from_f64(-2.5), Ok(r("-2.5")));
    assert_eq!(Real::from_f64(-0.0), Ok(Real::ZERO));
    assert_eq!(Real::from_f64(1e-200), Ok(Real::ZERO));
    assert_eq!(Real::from_f64(1e100), Err(MathError::Overflow));
    assert_eq!(Real::from_f64(f64::INFINITY), Err(MathError::Overflow));
    assert_eq!(Real::from_f64(f64::NAN), Err(MathError::Domain));
    assert_eq!(
        Real::from_f64(123_456_789_012_345.0),
        Ok(r("1.2345678901235E14"))
    );
    assert_eq!(r(".1").to_f64(), 0.1);
    assert_eq!(r("-2.5E-7").to_f64(), -2.5e-7);
    assert_eq!(Real::ZERO.to_f64(), 0.0);
    assert_eq!(r("9.9999999999999E99").to_f64(), 9.9999999999999e99);
}

#[test]
fn accessors() {
    let x = r("-1.2345678901234E-5");
    assert!(x.is_negative());
    assert_eq!(x.mantissa(), 12_345_678_901_234);
    assert_eq!(x.exponent(), -5);
    assert_eq!(x.digits(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4]);
    assert_eq!(x.abs(), r("1.2345678901234E-5"));
    assert_eq!(Real::ZERO.digits(), [0; 14]);
    assert_eq!(Real::ZERO.exponent(), 0);
    assert_eq!(ok(Real::new(true, 25, -1)), r("-2.5"));
    assert_eq!(ok(Real::new(false, 0, 500)), Real::ZERO);
    assert_eq!(Real::new(false, 1, 100), Err(MathError::Overflow));
    assert_eq!(Real::E, r("2.718281828459"));
}

// ---------------------------------------------------------------- functions

#[test]
fn exact_special_values() {
    for mode in [Rad, Deg] {
        assert_eq!(Real::ZERO.sin(mode), Ok(Real::ZERO));
        assert_eq!(Real::ZERO.cos(mode), Ok(Real::ONE));
        assert_eq!(Real::ZERO.tan(mode), Ok(Real::ZERO));
        assert_eq!(Real::ZERO.asin(mode), Ok(Real::ZERO));
        assert_eq!(Real::ZERO.atan(mode), Ok(Real::ZERO));
    }
    assert_eq!(r("90").cos(Deg), Ok(Real::ZERO));
    assert_eq!(r("90").sin(Deg), Ok(Real::ONE));
    assert_eq!(r("30").sin(Deg), Ok(r(".5")));
    assert_eq!(r("60").cos(Deg), Ok(r(".5")));
    assert_eq!(r("45").tan(Deg), Ok(Real::ONE));
    assert_eq!(r("-45").tan(Deg), Ok(-Real::ONE));
    assert_eq!(r("135").tan(Deg), Ok(-Real::ONE));
    assert_eq!(r("180").sin(Deg), Ok(Real::ZERO));
    assert_eq!(r("180").cos(Deg), Ok(-Real::ONE));
    assert_eq!(r("270").sin(Deg), Ok(-Real::ONE));
    assert_eq!(r("-720").sin(Deg), Ok(Real::ZERO));
    assert_eq!(r("3600030").sin(Deg), Ok(r(".5")));
    assert_eq!(r("90").tan(Deg), Err(MathError::Domain));
    assert_eq!(r("-270").tan(Deg), Err(MathError::Domain));
    assert_eq!(r(".5").asin(Deg), Ok(r("30")));
    assert_eq!(r(".5").acos(Deg), Ok(r("60")));
    assert_eq!(Real::ONE.atan(Deg), Ok(r("45")));
    assert_eq!(Real::ONE.asin(Deg), Ok(r("90")));
    assert_eq!(r("-1").acos(Deg), Ok(r("180")));
    assert_eq!(Real::ONE.acos(Rad), Ok(Real::ZERO));
    assert_eq!(r("-1").acos(Rad), Ok(Real::PI));
    assert_eq!(Real::ONE.ln(), Ok(Real::ZERO));
    assert_eq!(r("100").log10(), Ok(r("2")));
    assert_eq!(r("1E-5").log10(), Ok(r("-5")));
    assert_eq!(Real::ONE.log10(), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.exp(), Ok(Real::ONE));
    assert_eq!(Real::ONE.exp(), Ok(Real::E));
    // The stored e is a little below e.
    assert_eq!(Real::E.ln(), Ok(r(".99999999999998")));
    assert_eq!(r("13").pow10(), Ok(r("1E13")));
    assert_eq!(r("-3").pow10(), Ok(r(".001")));
    assert_eq!(r("2").log10().and_then(Real::pow10), Ok(r("2")));
    assert_eq!(r("27").cbrt(), Ok(r("3")));
    assert_eq!(r("-27").cbrt(), Ok(r("-3")));
    assert_eq!(r("16").xroot(r("4")), Ok(r("2")));
    assert_eq!(r("-32").xroot(r("5")), Ok(r("-2")));
    assert_eq!(Real::ZERO.sinh(), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.cosh(), Ok(Real::ONE));
    assert_eq!(Real::ZERO.tanh(), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.asinh(), Ok(Real::ZERO));
    assert_eq!(Real::ONE.acosh(), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.atanh(), Ok(Real::ZERO));
}

#[test]
fn known_values() {
    let cases: [(Result<Real, MathError>, &str); 20] = [
        (r("1").sin(Rad), ".8414709848079"),
        (r("2").ln(), ".69314718055995"),
        (r("2").log10(), ".30102999566398"),
        (r(".5").pow10(), "3.1622776601684"),
        (r("2").pow(r(".5")), "1.4142135623731"),
        (r("3").pow(r(".5")), "1.7320508075689"),
        (Real::ONE.atan(Rad), ".78539816339745"),
        (Real::ONE.asin(Rad), "1.5707963267949"),
        (r("230").exp(), "7.7220184999838E99"),
        (Real::ONE.sinh(), "1.1752011936438"),
        (r(".5").tanh(), ".46211715726001"),
        (Real::PI.square(), "9.8696044010894"),
        (r(".5").factorial(), ".88622692545276"),
        (r("-.5").factorial(), "1.7724538509055"),
        (r("1.5").factorial(), "1.3293403881791"),
        (r("69").factorial(), "1.7112245242814E98"),
        (r("100").ncr(r("50")), "1.0089134454556E29"),
        (r("1E10").sin(Rad), "-.48750602508751"),
        // sin and cos of the stored π (3.1415926535898), not of the true π.
        (Real::PI.sin(Rad), "-6.7615373566167E-15"),
        (r("18.849555921539").sin(Rad), "2.405692241397E-13"),
    ];
    for (i, (got, want)) in cases.into_iter().enumerate() {
        assert_eq!(got, Ok(r(want)), "case {i}: {want}");
    }
    assert_eq!(Real::PI.cos(Rad), Ok(-Real::ONE));
    assert_eq!(r(".78539816339745").tan(Rad), Ok(Real::ONE));
}

#[test]
fn powers() {
    assert_eq!(r("2").pow(r("10")), Ok(r("1024")));
    assert_eq!(r("10").pow(r("13")), Ok(r("1E13")));
    assert_eq!(r("10").pow(r("-13")), Ok(r("1E-13")));
    assert_eq!(r("2").pow(r("-1")), Ok(r(".5")));
    assert_eq!(r("-2").pow(r("3")), Ok(r("-8")));
    assert_eq!(r("-2").pow(r("2")), Ok(r("4")));
    assert_eq!(r("2").pow(r("46")), Ok(r("70368744177664")));
    assert_eq!(r("3").pow(r("29")), Ok(r("68630377364883")));
    assert_eq!(r("7").pow(r("100")), Ok(r("3.2344765096248E84")));
    assert_eq!(r("-7").pow(r("101")), Ok(r("-2.2641335567373E85")));
    assert_eq!(r("1.5").pow(r("2")), Ok(r("2.25")));
    assert_eq!(r(".5").pow(r("40")), Ok(r("9.0949470177293E-13")));
    assert_eq!(r("-1").pow(r("1E20")), Ok(Real::ONE));
    assert_eq!(Real::ONE.pow(r("1E99")), Ok(Real::ONE));
    assert_eq!(r("10").pow(r("100")), Err(MathError::Overflow));
    assert_eq!(r("10").pow(r("-100")), Ok(Real::ZERO));
    assert_eq!(r("2").pow(r("1E99")), Err(MathError::Overflow));
    assert_eq!(r("1E50").pow(r("2.5")), Err(MathError::Overflow));
    assert_eq!(r("4").pow(r(".5")), Ok(r("2")));
    assert_eq!(r("8").pow(ok(Real::ONE.div(r("3")))), Ok(r("2")));
    assert_eq!(Real::ZERO.pow(r("2")), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.pow(r(".5")), Ok(Real::ZERO));
    assert_eq!(Real::ZERO.pow(Real::ZERO), Err(MathError::Domain));
    assert_eq!(Real::ZERO.pow(r("-1")), Err(MathError::DivideByZero));
    assert_eq!(Real::ZERO.pow(r("-.5")), Err(MathError::Domain));
    assert_eq!(
        r("-8").pow(ok(Real::ONE.div(r("3")))),
        Err(MathError::Domain)
    );
    assert_eq!(r("5").pow(Real::ZERO), Ok(Real::ONE));
    assert_eq!(r("-8").xroot(r("2")), Err(MathError::Domain));
    assert_eq!(r("8").xroot(Real::ZERO), Err(MathError::DivideByZero));
    assert_eq!(r("1000").pow10(), Err(MathError::Overflow));
    assert_eq!(r("-1000").pow10(), Ok(Real::ZERO));
    assert_eq!(r("99.5").pow10(), Ok(r("3.1622776601684E99")));
    assert_eq!(r("100").pow10(), Err(MathError::Overflow));
    assert_eq!(r("231").exp(), Err(MathError::Overflow));
    assert_eq!(r("-240").exp(), Ok(Real::ZERO));
}

#[test]
fn domain_errors() {
    let d = Err(MathError::Domain);
    assert_eq!(Real::ZERO.ln(), d);
    assert_eq!(r("-1").ln(), d);
    assert_eq!(Real::ZERO.log10(), d);
    assert_eq!(r("-10").log10(), d);
    assert_eq!(r("1.0000000000001").asin(Rad), d);
    assert_eq!(r("-1.1").acos(Deg), d);
    assert_eq!(r("2").asin(Deg), d);
    assert_eq!(Real::ONE.atanh(), d);
    assert_eq!(r("-1").atanh(), d);
    assert_eq!(r(".5").acosh(), d);
    assert_eq!(r("-1").factorial(), d);
    assert_eq!(r("1.3").factorial(), d);
    assert_eq!(r("-1.5").factorial(), d);
    assert_eq!(r("70").factorial(), Err(MathError::Overflow));
    assert_eq!(r("1E50").factorial(), Err(MathError::Overflow));
    assert_eq!(r("1E11").sin(Rad), d);
    assert_eq!(r("-1E11").cos(Deg), d);
    assert!(r("9.9999999999999E10").sin(Rad).is_ok());
    assert_eq!(r("2.5").ncr(Real::ONE), d);
    assert_eq!(r("-1").ncr(Real::ZERO), d);
    assert_eq!(r("5").npr(r("-1")), d);
    assert_eq!(r("500").sinh(), Err(MathError::Overflow));
    assert_eq!(r("-500").cosh(), Err(MathError::Overflow));
    assert_eq!(r("500").tanh(), Ok(Real::ONE));
    assert_eq!(r("-500").tanh(), Ok(-Real::ONE));
}

#[test]
fn factorials_and_combinations() {
    assert_eq!(Real::ZERO.factorial(), Ok(Real::ONE));
    assert_eq!(r("5").factorial(), Ok(r("120")));
    assert_eq!(r("17").factorial(), Ok(r("3.5568742809600E14")));
    assert_eq!(r("69.5").factorial(), Ok(r("1.4291588283032E99")));
    assert_eq!(r("5").npr(r("2")), Ok(r("20")));
    assert_eq!(r("5").ncr(r("2")), Ok(r("10")));
    assert_eq!(r("52").ncr(r("5")), Ok(r("2598960")));
    assert_eq!(r("5").ncr(r("7")), Ok(Real::ZERO));
    assert_eq!(r("5").npr(r("7")), Ok(Real::ZERO));
    assert_eq!(r("5").ncr(Real::ZERO), Ok(Real::ONE));
    assert_eq!(r("5").npr(Real::ZERO), Ok(Real::ONE));
    assert_eq!(r("10").npr(r("10")), Ok(r("3628800")));
    assert_eq!(r("1E13").ncr(r("1")), Ok(r("1E13")));
    assert_eq!(r("1E13").ncr(r("9999999999999")), Ok(r("1E13")));
    assert_eq!(r("1000").ncr(r("500")), Err(MathError::Overflow));
    assert_eq!(r("1E50").npr(r("1E49")), Err(MathError::Overflow));
    assert_eq!(r("1E13").ncr(r("5E12")), Err(MathError::Overflow));
}

#[test]
fn angle_conversions() {
    assert_eq!(r("180").deg_to_rad(), Ok(Real::PI));
    assert_eq!(Real::PI.rad_to_deg(), Ok(r("180.00000000000")));
    assert_eq!(r("45").deg_to_rad(), Ok(r(".78539816339745")));
    assert_eq!(AngleMode::from(true), Deg);
    assert_eq!(AngleMode::from(false), Rad);
    // Trig functions accept the mode as a bool (true = degrees) too.
    assert_eq!(r("30").sin(true), Ok(r(".5")));
}

// ---------------------------------------------------------------- properties

/// Seeded xorshift64* generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A random real with an exponent in `lo..=hi` (sometimes zero or a short mantissa).
    fn real(&mut self, lo: i32, hi: i32) -> Real {
        if self.below(50) == 0 {
            return Real::ZERO;
        }
        let mut m = 10_000_000_000_000 + self.below(90_000_000_000_000);
        if self.below(4) == 0 {
            // Few significant digits, like typed numbers.
            let keep = 10u64.pow(self.below(13) as u32 + 1);
            m = m / keep * keep;
        }
        let e = lo + self.below((hi - lo + 1) as u64) as i32;
        let neg = self.below(2) == 0;
        Real::new(neg, m, e - 13).unwrap()
    }
}

#[test]
fn bcd_and_f64_round_trips() {
    let mut g = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let x = g.real(-99, 99);
        let b = x.to_bcd();
        assert_eq!(Real::from_bcd(b), Ok(x), "{x:?} {b:02X?}");
        assert_eq!(b[0] & 0x7F, 0);
        assert!((0x1D..=0xE3).contains(&b[1]));
        assert_eq!(Real::from_f64(x.to_f64()), Ok(x), "{x:?}");
        let text = format!(
            "{}{}E{}",
            if x.is_negative() { "-" } else { "" },
            x.mantissa(),
            x.exponent() - 13
        );
        assert_eq!(Real::parse(&text), Some(x), "{text}");
    }
}

/// |x − y| ≤ tol·scale.
fn close(x: Real, y: Real, scale: Real, tol: &str) -> bool {
    let d = x.sub(y).unwrap().abs();
    d <= scale.abs().mul(r(tol)).unwrap()
}

#[test]
fn algebraic_identities() {
    let mut g = Rng(12345);
    for _ in 0..20_000 {
        let a = g.real(-40, 40);
        let b = g.real(-40, 40);
        let sum = a.add(b).unwrap();
        assert_eq!(b.add(a), Ok(sum));
        assert_eq!(a.mul(b), b.mul(a));
        assert_eq!(a.sub(b), b.sub(a).map(|x| -x));
        assert_eq!(
            sum.sub(b)
                .map(|x| close(x, a, a.abs().max(b.abs()), "2E-13")),
            Ok(true)
        );
        assert_eq!(a < b, a.sub(b).unwrap().is_negative(), "{a:?} {b:?}");
        assert_eq!(a == b, a.sub(b).unwrap().is_zero());
        if !b.is_zero() {
            let q = a.mul(b).unwrap().div(b).unwrap();
            assert!(close(q, a, a, "2E-13"), "{a:?} {b:?} {q:?}");
            let q = a.div(b).unwrap().mul(b).unwrap();
            assert!(close(q, a, a, "2E-13"), "{a:?} {b:?} {q:?}");
        }
        let s = a.abs().sqrt().unwrap();
        assert!(close(s.square().unwrap(), a.abs(), a, "2E-13"));
        assert_eq!(a.ipart().add(a.fpart()), Ok(a));
        let i = a.int().unwrap();
        assert!(i <= a && a.sub(i).unwrap() <= Real::ONE && i.is_integer());
        assert_eq!(-(-a), a);
    }
}

#[test]
fn small_integers_are_exact() {
    let mut g = Rng(777);
    for _ in 0..20_000 {
        let x = g.below(20_000_000) as i64 - 10_000_000;
        let y = g.below(20_000_000) as i64 - 10_000_000;
        let (rx, ry) = (Real::from_i64(x), Real::from_i64(y));
        assert_eq!(rx.add(ry), Ok(Real::from_i64(x + y)));
        assert_eq!(rx.sub(ry), Ok(Real::from_i64(x - y)));
        assert_eq!(rx.mul(ry), Ok(Real::from_i64(x * y)));
        assert_eq!(rx.cmp(&ry), x.cmp(&y));
        assert_eq!(rx.to_i64_exact(), Some(x));
        if y != 0 && x % y == 0 {
            assert_eq!(rx.div(ry), Ok(Real::from_i64(x / y)));
        }
        if y > 0 {
            let p = ry.mul(ry).unwrap();
            assert_eq!(p.sqrt(), Ok(ry));
            assert_eq!(ry.pow(r("2")), Ok(p));
        }
    }
}

#[test]
fn functions_never_panic() {
    let mut g = Rng(4242);
    for _ in 0..3_000 {
        let a = g.real(-99, 99);
        let b = if g.below(3) == 0 {
            Real::from_i64(g.below(200) as i64 - 100)
        } else {
            g.real(-99, 99)
        };
        for mode in [Rad, Deg] {
            let _ = (a.sin(mode), a.cos(mode), a.tan(mode));
            let _ = (a.asin(mode), a.acos(mode), a.atan(mode));
        }
        let _ = (
            a.sinh(),
            a.cosh(),
            a.tanh(),
            a.asinh(),
            a.acosh(),
            a.atanh(),
        );
        let _ = (a.exp(), a.ln(), a.log10(), a.pow10(), a.sqrt(), a.cbrt());
        let _ = (a.pow(b), a.xroot(b), a.npr(b), a.ncr(b), a.factorial());
        let _ = (a.int(), a.round(g.below(12) as u8), a.recip(), a.cube());
        let _ = (a.deg_to_rad(), a.rad_to_deg());
    }
    // Small counts for nPr/nCr run to completion.
    for n in 0..80 {
        for k in 0..=n {
            let (n, k) = (Real::from_i64(n), Real::from_i64(k));
            assert!(n.ncr(k).is_ok());
            let _ = n.npr(k);
        }
    }
}

#[test]
fn arbitrary_bytes_and_text() {
    let mut g = Rng(99);
    for _ in 0..20_000 {
        let mut b = [0u8; 9];
        for x in b.iter_mut() {
            *x = g.next() as u8;
        }
        if g.below(2) == 0 {
            // Mostly valid digits.
            for x in b[2..].iter_mut() {
                *x = (*x % 10) << 4 | (*x / 10 % 10);
            }
        }
        if let Ok(x) = Real::from_bcd(b) {
            assert_eq!(Real::from_bcd(x.to_bcd()), Ok(x));
        }
        let alphabet = ['0', '1', '5', '9', '.', 'E', 'ᴇ', '-', '⁻', '+', 'x', ' '];
        let len = g.below(12) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[g.below(alphabet.len() as u64) as usize])
            .collect();
        if let Some(x) = Real::parse(&text) {
            let canon = format!(
                "{}{}E{}",
                if x.is_negative() { "-" } else { "" },
                x.mantissa(),
                x.exponent() - 13
            );
            assert_eq!(Real::parse(&canon), Some(x), "{text:?}");
        }
    }
}
