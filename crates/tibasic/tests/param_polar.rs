//! Parametric and polar graphs (MODE Par, Pol): the TI-82 Guidebook's definitions — a
//! parametric pair is traced from Tmin to Tmax in steps of Tstep, a polar function from θmin
//! to θmax in steps of θstep at (r cos θ, r sin θ) — placed on pixels by the spec's rule
//! (§6.2). Expected points worked out here in f64 on the standard window (Tmax = θmax = 2π,
//! steps π/24: 49 points).

mod common;
use common::*;

use std::collections::BTreeSet;

type Pixels = BTreeSet<(i64, i64)>;

/// The pixels of a circle of radius `r` sampled at 49 angles k·π/24.
fn circle(r: f64) -> Pixels {
    (0..49)
        .map(|k| {
            let t = k as f64 * std::f64::consts::PI / 24.0;
            let (x, y) = (r * t.cos(), r * t.sin());
            (
                ((10.0 - y) / (20.0 / 62.0)).round() as i64,
                ((x + 10.0) / (20.0 / 94.0)).round() as i64,
            )
        })
        .collect()
}

#[test]
fn a_parametric_circle() {
    let calc = run_program(
        "Param\nAxesOff\nDot\nZStandard\n\"4.5cos T\"->X₁ᴛ\n\"4.5sin T\"->Y₁ᴛ\nDispGraph",
    );
    assert_eq!(graph_pixels(&calc), circle(4.5));
}

#[test]
fn a_polar_circle() {
    let calc = run_program("Polar\nAxesOff\nDot\nZStandard\n\"4\"->r₁\nDispGraph");
    assert_eq!(graph_pixels(&calc), circle(4.0));
}

#[test]
fn parametric_and_polar_variables_evaluate_at_t_and_theta() {
    let calc = run_program("3->T\n\"T²\"->X₁ᴛ\nX₁ᴛ->A\n2->θ\n\"θ+1\"->r₂\nr₂->B");
    assert_eq!(
        (real_var(&calc, b'A'), real_var(&calc, b'B')),
        (Some(9.0), Some(3.0))
    );
}

/// Seq mode (Time): Uₙ = 2Uₙ₋₁ from UₙStart = 1 at nStart = 0 is 2^𝑛, plotted at (𝑛, Uₙ)
/// for 𝑛 = nMin…nMax (the TI-82 Guidebook's sequence graphing), on a window of X 0…10 and
/// Y 0…62 (row 62 − Uₙ, column 9.4𝑛 rounded).
#[test]
fn a_sequence_is_plotted_term_by_term() {
    let calc = run_program("Seq\nAxesOff\nDot\n0->Xmin\n10->Xmax\n0->Ymin\n62->Ymax\n0->nStart\n0->nMin\n10->nMax\n1->UnStart\n\"2Uₙ₋₁\"->Uₙ\nDispGraph");
    let want: Pixels = (0..=10)
        .map(|n| (62 - 2i64.pow(n as u32), (9.4 * n as f64).round() as i64))
        .filter(|&(r, _)| (0..63).contains(&r))
        .collect();
    assert_eq!(graph_pixels(&calc), want);
}

/// Seq mode, Web format: the line y = x and the sequence's rule y = f(x) with Uₙ₋₁ = x,
/// across the window's columns (here Uₙ = Uₙ₋₁/2 + 1.3, in Dot mode).
#[test]
fn a_web_graph_draws_the_rule_and_the_diagonal() {
    let calc = run_program("Seq\nWeb\nAxesOff\nDot\nZStandard\n\"Uₙ₋₁/2+1.3\"->Uₙ\nDispGraph");
    let (dx, dy) = (20.0 / 94.0, 20.0 / 62.0);
    let row = |y: f64| ((10.0 - y) / dy).round() as i64;
    let mut want = Pixels::new();
    for c in 0..95 {
        let x = -10.0 + c as f64 * dx;
        want.insert((row(x), c));
        let r = row(x / 2.0 + 1.3);
        if (0..63).contains(&r) {
            want.insert((r, c));
        }
    }
    want.retain(|&(r, _)| (0..63).contains(&r));
    assert_eq!(graph_pixels(&calc), want);
}
