//! TRACE in the Par, Pol and Seq graphing modes (the TI-82 Guidebook's chapters on
//! parametric, polar and sequence graphing): the cursor steps T from Tmin by Tstep, θ from
//! θmin by θstep, 𝑛 from nMin by 1; the parameter shows above the bottom line and the point
//! on it. In the Web format each ► draws the next segment of the web. Expected values are
//! worked out here from the definitions on the standard window (Tstep = θstep = π/24).

mod common;
use common::*;

use ti82_machine::{Calc, Key};

const DX: f64 = 20.0 / 94.0;
const DY: f64 = 20.0 / 62.0;

fn traced(src: &str) -> Calc {
    let mut calc = run_program(src);
    keys(&mut calc, &[Key::Clear, Key::Trace]);
    calc
}

fn lit(calc: &Calc, r: i64, c: i64) -> bool {
    tibasic::screen::pixel_test(tibasic::screen::plot(calc.ram()), r, c)
}

#[test]
fn trace_steps_t_along_a_parametric_pair() {
    let mut calc = traced("Param\nZStandard\n\"4.5cos T\"->X₁ᴛ\n\"4.5sin T\"->Y₁ᴛ");
    let g = glass(&calc);
    assert_eq!(g[0], "X₁ᴛ=4.5cos T");
    assert_eq!(g[6..8], ["T=0", "X=4.5   Y=0"]);
    // Eight steps: T = 8π/24 = π/3, (4.5 cos T, 4.5 sin T) = (2.25, 3.8971…).
    keys(&mut calc, &[Key::Right; 8]);
    assert_eq!(glass(&calc)[6..8], ["T=1.0471", "X=2.25  Y=3.8971"]);
    assert!((real_var(&calc, b'T').unwrap() - std::f64::consts::FRAC_PI_3).abs() < 1e-12);
    assert!((real_var(&calc, b'X').unwrap() - 2.25).abs() < 1e-12);
    // ◄ steps back; it stops at Tmin.
    keys(&mut calc, &[Key::Left; 10]);
    assert_eq!(glass(&calc)[6], "T=0");
}

#[test]
fn trace_steps_theta_along_a_polar_function() {
    let mut calc = traced("Polar\nZStandard\n\"4\"->r₁\n\"2\"->r₂");
    assert_eq!(glass(&calc)[0], "r₁=4");
    // Six steps: θ = π/4, (4 cos θ, 4 sin θ) = (2.8284…, 2.8284…).
    keys(&mut calc, &[Key::Right; 6]);
    assert_eq!(glass(&calc)[6..8], ["θ=.78539", "X=2.8284Y=2.8284"]);
    // ▼ goes to r₂ at the same θ.
    keys(&mut calc, &[Key::Down]);
    assert_eq!(glass(&calc)[0], "r₂=2");
    assert_eq!(glass(&calc)[7], "X=1.4142Y=1.4142");
}

#[test]
fn trace_steps_n_along_a_sequence() {
    let mut calc =
        traced("Seq\nZStandard\n0->nStart\n0->nMin\n10->nMax\n1->UnStart\n\"2Uₙ₋₁\"->Uₙ");
    assert_eq!(glass(&calc)[6..8], ["n=0", "X=0     Y=1"]);
    keys(&mut calc, &[Key::Right; 3]);
    assert_eq!(glass(&calc)[6..8], ["n=3", "X=3     Y=8"]);
}

/// The Web format: from (u₀, 0) a vertical segment to the rule at (u₀, u₁), then a
/// horizontal one to y = x at (u₁, u₁), drawn into the graph as ► goes (Uₙ = Uₙ₋₁/2 + 1.3
/// from 8: u₁ = 5.3).
#[test]
fn trace_draws_the_web() {
    let mut calc =
        traced("Seq\nWeb\nAxesOff\nZStandard\n0->nStart\n0->nMin\n8->UnStart\n\"Uₙ₋₁/2+1.3\"->Uₙ");
    let col = |x: f64| ((x + 10.0) / DX).round() as i64;
    let row = |y: f64| ((10.0 - y) / DY).round() as i64;
    assert_eq!(glass(&calc)[7], "X=8     Y=0");
    // Halfway up the first segment (column of x = 8, between the rows of 0 and 5.3).
    let (c8, r0, r53) = (col(8.0), row(0.0), row(5.3));
    let mid_up = ((r0 + r53) / 2, c8);
    assert!(!lit(&calc, mid_up.0, mid_up.1));
    keys(&mut calc, &[Key::Right]);
    assert_eq!(glass(&calc)[6..8], ["n=1", "X=8     Y=5.3"]);
    assert!(lit(&calc, mid_up.0, mid_up.1));
    let mid_across = (r53, (c8 + col(5.3)) / 2);
    assert!(!lit(&calc, mid_across.0, mid_across.1));
    keys(&mut calc, &[Key::Right]);
    assert_eq!(glass(&calc)[7], "X=5.3   Y=5.3");
    assert!(lit(&calc, mid_across.0, mid_across.1));
}

/// TRACE goes through a Scatter plot's points one at a time (the TI-82 Guidebook: the trace
/// cursor moves from point to point of a stat plot), after the selected functions: ▼ from
/// Y₁ goes to the plot, whose lists are on the top line.
#[test]
fn trace_steps_through_a_scatter_plots_points() {
    let mut calc =
        traced("{1,2,3}->L1\n{4,5,6}->L2\nPlot1(Scatter,L1,L2,·)\nZStandard\n\"X\"->{Y1}");
    assert_eq!(glass(&calc)[0], "Y₁=X");
    keys(&mut calc, &[Key::Down]);
    let g = glass(&calc);
    assert_eq!(g[0], "P1:L₁,L₂");
    assert_eq!(g[7], "X=1     Y=4");
    keys(&mut calc, &[Key::Right, Key::Right]);
    assert_eq!(glass(&calc)[7], "X=3     Y=6");
    // No fourth point: ► stays on the last.
    keys(&mut calc, &[Key::Right]);
    assert_eq!(glass(&calc)[7], "X=3     Y=6");
    assert_eq!(
        (real_var(&calc, b'X'), real_var(&calc, b'Y')),
        (Some(3.0), Some(6.0))
    );
    // ▼ wraps back to Y₁.
    keys(&mut calc, &[Key::Down]);
    assert_eq!(glass(&calc)[0], "Y₁=X");
}
