//! `DrawF`, `DrawInv`, `Shade(` and `Tangent(` against the graphing rule of the spec
//! (ti82-software.md §6.2): pixel column c stands for X = Xmin + c·ΔX, a point's row is
//! (Ymax − Y)/ΔY rounded, ΔX = (Xmax − Xmin)/94, ΔY = (Ymax − Ymin)/62, 95 × 63 plotting
//! positions. Each expectation is that rule worked out here in f64 for the standard window
//! (ZStandard: −10…10 both ways), independently of the runtime's decimal arithmetic (the
//! functions are chosen so that no point falls on a half-pixel tie).

mod common;
use common::*;

use std::collections::BTreeSet;

use ti82_machine::Calc;
use tibasic::firmware::{calc_with_sources, start_program};

type Pixels = BTreeSet<(i64, i64)>;

const DX: f64 = 20.0 / 94.0;
const DY: f64 = 20.0 / 62.0;

fn x_of(c: i64) -> f64 {
    -10.0 + c as f64 * DX
}

fn row_of(y: f64) -> i64 {
    ((10.0 - y) / DY).round() as i64
}

fn col_of(x: f64) -> i64 {
    ((x + 10.0) / DX).round() as i64
}

fn on_screen(p: &(i64, i64)) -> bool {
    (0..63).contains(&p.0) && (0..95).contains(&p.1)
}

/// Runs `src` (after AxesOff, ZStandard, ClrDraw) and returns the lit graph pixels.
fn drawn(src: &str) -> Pixels {
    let program = format!("AxesOff\nZStandard\nClrDraw\n{src}");
    let mut calc: Calc = calc_with_sources(&[("G", &program)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "G").unwrap();
    calc.run_for(20_000 * 6_000);
    assert!(
        tibasic::firmware::BasicFirmware::of(&calc)
            .unwrap()
            .last_error()
            .is_none(),
        "{src}: {:?}",
        tibasic::firmware::BasicFirmware::of(&calc)
            .unwrap()
            .last_error()
    );
    graph_pixels(&calc)
}

#[test]
fn drawf_x_lights_one_pixel_per_column_on_the_diagonal() {
    // y = X: the row drops by less than one a column, so the joining lines add nothing.
    let want: Pixels = (0..95).map(|c| (row_of(x_of(c)), c)).collect();
    assert_eq!(drawn("DrawF X"), want);
}

#[test]
fn drawf_in_dot_mode_plots_the_points_on_the_screen() {
    let want: Pixels = (0..95)
        .map(|c| (row_of(x_of(c) * x_of(c) - 3.3), c))
        .filter(on_screen)
        .collect();
    assert_eq!(drawn("Dot\nDrawF X²-3.3"), want);
}

#[test]
fn columns_without_a_value_are_skipped_and_break_the_curve() {
    // √X has no value left of 0: nothing there; at c = 47, X = 0 exactly.
    let want: Pixels = (47..95)
        .map(|c| (row_of(x_of(c).max(0.0).sqrt() * 3.0), c))
        .collect();
    assert_eq!(drawn("Dot\nDrawF 3√(X)"), want);
    // 1/X at X = 0 (column 47) divides by zero: connected, the curve is broken there, so
    // nothing is drawn in column 47.
    let p = drawn("DrawF 1/X");
    assert!(p.iter().all(|&(_, c)| c != 47), "{p:?}");
    assert!(p.contains(&(row_of(1.0 / x_of(48)), 48)));
}

#[test]
fn drawinv_plots_x_against_the_value() {
    // DrawInv X²-5.3: each column's X gives the point (X²-5.3, X).
    let want: Pixels = (0..95)
        .map(|c| {
            let x = x_of(c);
            (row_of(x), col_of(x * x - 5.3))
        })
        .filter(on_screen)
        .collect();
    assert_eq!(drawn("Dot\nDrawInv X²-5.3"), want);
}

#[test]
fn shade_fills_between_the_curves_in_the_columns_asked() {
    // Between y = 0 and y = 4: rows 19 (4 → 18.6) to 31, every column.
    let want: Pixels = (0..95)
        .flat_map(|c| (row_of(4.0)..=row_of(0.0)).map(move |r| (r, c)))
        .collect();
    assert_eq!(drawn("Shade(0,4"), want);
    // From X = -1 to 1 (columns 43-51), vertical lines every second column (pattern 1,
    // patres 2).
    let want: Pixels = (0..95)
        .filter(|&c| (-1.0..=1.0).contains(&x_of(c)) && c % 2 == 0)
        .flat_map(|c| (row_of(4.0)..=row_of(0.0)).map(move |r| (r, c)))
        .collect();
    assert_eq!(drawn("Shade(0,4,~1,1,1,2"), want);
    // Where the lower curve is above the upper one, nothing.
    assert!(drawn("Shade(4,0").is_empty());
}

#[test]
fn tangent_draws_the_line_through_the_point_with_its_slope() {
    // Tangent(X², 1): y = 2X − 1.
    let p = drawn("Tangent(X²,1");
    for &(r, c) in &p {
        assert!((r - row_of(2.0 * x_of(c) - 1.0)).abs() <= 1, "({r},{c})");
    }
    for c in 0..95 {
        let r = row_of(2.0 * x_of(c) - 1.0);
        if (0..63).contains(&r) {
            assert!(p.iter().any(|&(_, pc)| pc == c), "column {c} empty");
        }
    }
    // X keeps its value.
    let mut calc = calc_with_sources(&[("T", "7->X\nDrawF X\nX->A")]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "T").unwrap();
    calc.run_for(5_000 * 6_000);
    let a = tifiles::vat::read(
        calc.ram(),
        tifiles::var::VarType::Real,
        &tifiles::var::VarName::from_bytes(b"A"),
    )
    .unwrap()
    .map(|v| match v.data {
        tifiles::var::VarData::Real(f) => f.to_f64(),
        _ => f64::NAN,
    });
    assert_eq!(a, Some(7.0));
}
