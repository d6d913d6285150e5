//! Parametric and polar graphs (MODE Par, Pol): the TI-82 Guidebook's definitions — a
//! parametric pair is traced from Tmin to Tmax in steps of Tstep, a polar function from θmin
//! to θmax in steps of θstep at (r cos θ, r sin θ) — placed on pixels by the spec's rule
//! (§6.2). Expected points worked out here in f64 on the standard window (Tmax = θmax = 2π,
//! steps π/24: 49 points).

use std::collections::BTreeSet;

use ti82_machine::Calc;
use tibasic::firmware::{calc_with_sources, start_program, BasicFirmware};

type Pixels = BTreeSet<(i64, i64)>;

fn run(src: &str) -> Calc {
    let mut calc: Calc = calc_with_sources(&[("P", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "P").unwrap();
    calc.run_for(20_000 * 6_000);
    let fw = BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{src}: {:?}", fw.last_error());
    calc
}

fn pixels(calc: &Calc) -> Pixels {
    let plot = tibasic::screen::plot(calc.ram());
    let mut out = Pixels::new();
    for r in 0..63 {
        for c in 0..95 {
            if tibasic::screen::pixel_test(plot, r, c) {
                out.insert((r, c));
            }
        }
    }
    out
}

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
    let calc =
        run("Param\nAxesOff\nDot\nZStandard\n\"4.5cos T\"->X₁ᴛ\n\"4.5sin T\"->Y₁ᴛ\nDispGraph");
    assert_eq!(pixels(&calc), circle(4.5));
}

#[test]
fn a_polar_circle() {
    let calc = run("Polar\nAxesOff\nDot\nZStandard\n\"4\"->r₁\nDispGraph");
    assert_eq!(pixels(&calc), circle(4.0));
}

#[test]
fn parametric_and_polar_variables_evaluate_at_t_and_theta() {
    let calc = run("3->T\n\"T²\"->X₁ᴛ\nX₁ᴛ->A\n2->θ\n\"θ+1\"->r₂\nr₂->B");
    let real = |v: u8| {
        let name = tifiles::var::VarName::from_bytes(&[v]);
        match tifiles::vat::read(calc.ram(), tifiles::var::VarType::Real, &name) {
            Ok(Some(tifiles::var::Variable {
                data: tifiles::var::VarData::Real(f),
                ..
            })) => f.to_f64(),
            _ => f64::NAN,
        }
    };
    assert_eq!((real(b'A'), real(b'B')), (9.0, 3.0));
}

/// Seq mode (Time): Uₙ = 2Uₙ₋₁ from UₙStart = 1 at nStart = 0 is 2^𝑛, plotted at (𝑛, Uₙ)
/// for 𝑛 = nMin…nMax (the TI-82 Guidebook's sequence graphing), on a window of X 0…10 and
/// Y 0…62 (row 62 − Uₙ, column 9.4𝑛 rounded).
#[test]
fn a_sequence_is_plotted_term_by_term() {
    let calc = run("Seq\nAxesOff\nDot\n0->Xmin\n10->Xmax\n0->Ymin\n62->Ymax\n0->nStart\n0->nMin\n10->nMax\n1->UnStart\n\"2Uₙ₋₁\"->Uₙ\nDispGraph");
    let want: Pixels = (0..=10)
        .map(|n| (62 - 2i64.pow(n as u32), (9.4 * n as f64).round() as i64))
        .filter(|&(r, _)| (0..63).contains(&r))
        .collect();
    assert_eq!(pixels(&calc), want);
}

/// Seq mode, Web format: the line y = x and the sequence's rule y = f(x) with Uₙ₋₁ = x,
/// across the window's columns (here Uₙ = Uₙ₋₁/2 + 1.3, in Dot mode).
#[test]
fn a_web_graph_draws_the_rule_and_the_diagonal() {
    let calc = run("Seq\nWeb\nAxesOff\nDot\nZStandard\n\"Uₙ₋₁/2+1.3\"->Uₙ\nDispGraph");
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
    assert_eq!(pixels(&calc), want);
}
