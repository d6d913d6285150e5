//! `tibasic::display`: numbers as the calculator writes them in every MODE setting.
//!
//! Sources: the TI-82 Guidebook's MODE chapter (also the TI-83 Guidebook, chapter 1, "Setting
//! Modes", which gives the same rules and the examples 12345.67, 1.234567ᴇ4 and 12.34567ᴇ3),
//! spec §8.6 (raised minus, `ᴇ`, no leading zero, no plus sign nor leading zero in exponents).
//! Cases marked [U] are choices where no source says what the TI-82 shows.

use tibasic::display::{matrix_lines, real_text, Notation, NumFormat};
use tibasic::real::Real;

fn r(s: &str) -> Real {
    Real::parse(s).unwrap()
}

fn show(x: &str, notation: Notation, fix: Option<u8>) -> String {
    real_text(r(x), NumFormat { notation, fix })
}

use Notation::{Eng, Normal, Sci};

#[test]
fn the_guidebook_examples() {
    // "Normal ... 12345.67", "Sci ... 1.234567E4", "Eng ... 12.34567E3".
    assert_eq!(show("12345.67", Normal, None), "12345.67");
    assert_eq!(show("12345.67", Sci, None), "1.234567ᴇ4");
    assert_eq!(show("12345.67", Eng, None), "12.34567ᴇ3");
}

#[test]
fn normal_float_ten_digits_and_the_switch_to_scientific() {
    // Up to 10 digits; a result that needs more, or below .001, is scientific.
    assert_eq!(show("9865327418", Normal, None), "9865327418");
    assert_eq!(show("98653274184", Normal, None), "9.865327418ᴇ10");
    assert_eq!(show(".0028975", Normal, None), ".0028975");
    assert_eq!(show(".0002897", Normal, None), "2.897ᴇ⁻4");
    assert_eq!(show("-.5", Normal, None), "⁻.5");
    assert_eq!(show("0", Normal, None), "0");
    // 1/3 shows 10 digits, no leading zero (spec §8.6).
    let third = Real::ONE.div(r("3")).unwrap();
    assert_eq!(real_text(third, NumFormat::FLOAT), ".3333333333");
    // Rounding to 10 digits can reach 1ᴇ10.
    assert_eq!(show("9999999999.6", Normal, None), "1ᴇ10");
}

#[test]
fn fix_pads_and_rounds_in_every_notation() {
    // "Fix ... displays the selected number of digits (0 through 9) to the right of the
    // decimal", "The decimal setting applies to Normal, Sci, and Eng notation modes".
    assert_eq!(show("1", Normal, Some(2)), "1.00");
    assert_eq!(show("3.14159", Normal, Some(3)), "3.142");
    assert_eq!(show("2.5", Normal, Some(0)), "3");
    assert_eq!(show("-2.5", Normal, Some(0)), "⁻3");
    assert_eq!(show(".5", Normal, Some(2)), ".50");
    assert_eq!(show("12345", Sci, Some(2)), "1.23ᴇ4");
    assert_eq!(show("1", Sci, Some(2)), "1.00ᴇ0");
    assert_eq!(show("12345", Eng, Some(2)), "12.35ᴇ3");
    // Never more than 10 digits: Fix 9 of 314.159265358979 keeps 7 decimals.
    assert_eq!(show("314.159265358979", Normal, Some(9)), "314.1592654");
    // Below .001 Normal Fix is scientific too.
    assert_eq!(show(".0005", Normal, Some(2)), "5.00ᴇ⁻4");
    // [U] zero in Fix 2.
    assert_eq!(show("0", Normal, Some(2)), "0.00");
}

#[test]
fn sci_and_eng_float() {
    assert_eq!(show("1", Sci, None), "1ᴇ0");
    assert_eq!(show(".01", Sci, None), "1ᴇ⁻2");
    assert_eq!(show(".01", Eng, None), "10ᴇ⁻3");
    assert_eq!(show("-123456", Eng, None), "⁻123.456ᴇ3");
    assert_eq!(show("1E99", Eng, None), "1ᴇ99");
    assert_eq!(show("1.2345678912E-99", Sci, None), "1.234567891ᴇ⁻99");
    // Rounding carries into the next power of ten (and the next Eng group).
    assert_eq!(show("999.99999999999", Eng, None), "1ᴇ3");
    assert_eq!(show("999.6", Eng, Some(0)), "1ᴇ3");
    // [U] zero in Sci.
    assert_eq!(show("0", Sci, None), "0ᴇ0");
}

#[test]
fn matrix_rows_with_brackets() {
    let m = [r("1"), r("-2"), r("30"), r("4")];
    assert_eq!(
        matrix_lines(2, 2, &m, NumFormat::FLOAT),
        vec!["[[1  ⁻2]".to_string(), " [30 4 ]]".to_string()]
    );
}
