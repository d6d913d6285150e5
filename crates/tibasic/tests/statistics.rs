//! Statistics against published data and exact fits (issue: statistics on the built-in
//! runtime). Expectations:
//! - Anscombe's quartet, data set I (F. J. Anscombe, "Graphs in Statistical Analysis", The
//!   American Statistician 27 (1973) 17-21): x̄ = 9.0, Σ(x-x̄)² = 110.0 (so Sx² = 11), ȳ =
//!   7.50, the line y = 3.00 + 0.500x, R² = 0.667. Its digits past the paper's are the same
//!   textbook formulas worked in 40-digit decimal arithmetic outside this project.
//! - Fits of data made from a known curve, which least squares must give back exactly (to
//!   the 10 digits shown).
//! - The median and quartiles as the TI calculators define them (the medians of the points
//!   below and above the median), and the median-median line from its definition.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::display::{real_text, NumFormat};
use tibasic::firmware::calc_with_sources;
use tibasic::real::Real;
use tibasic::stats::{self, Calc as Cmd, Results};

fn reals(v: &[f64]) -> Vec<Real> {
    v.iter().map(|&x| Real::from_f64(x).unwrap()).collect()
}

/// A result as the calculator shows it (10 digits, Float).
fn shown(r: &Results, k: u8) -> String {
    let v = r
        .vars
        .iter()
        .find(|(v, _)| *v == k)
        .expect("variable set")
        .1;
    real_text(v, NumFormat::FLOAT)
}

fn value(r: &Results, k: u8) -> f64 {
    r.vars.iter().find(|(v, _)| *v == k).unwrap().1.to_f64()
}

const ANSCOMBE_X: [f64; 11] = [10., 8., 13., 9., 11., 14., 6., 4., 12., 7., 5.];
const ANSCOMBE_Y1: [f64; 11] = [
    8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68,
];

#[test]
fn one_var_stats_of_anscombe_x() {
    let r = stats::one_var(reals(&ANSCOMBE_X), None).unwrap();
    assert_eq!(r.title, "1-Var Stats");
    assert_eq!(shown(&r, stats::MEAN_X), "9");
    assert_eq!(shown(&r, stats::SUM_X), "99");
    // Sx² = Σ(x-x̄)²/(n-1) = 110/10.
    assert_eq!(shown(&r, stats::SX), "3.31662479");
    assert_eq!(shown(&r, stats::SIGMA_X), "3.16227766");
    assert_eq!(shown(&r, stats::N), "11");
    // Sorted 4..14: the median 9; below it 4-8 (Q1 6), above it 10-14 (Q3 12).
    assert_eq!(
        [stats::MIN_X, stats::Q1, stats::MED, stats::Q3, stats::MAX_X].map(|k| shown(&r, k)),
        ["4", "6", "9", "12", "14"]
    );
    // The order the calculator lists them in.
    let order: Vec<u8> = r.vars.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        order,
        [0x03, 0x04, 0x05, 0x06, 0x07, 0x02, 0x08, 0x14, 0x13, 0x15, 0x09]
    );
}

#[test]
fn frequencies_count_each_point_that_many_times() {
    // {1,2,3} with frequencies {2,1,1} is the data 1 1 2 3.
    let r = stats::one_var(reals(&[1., 2., 3.]), Some(reals(&[2., 1., 1.]))).unwrap();
    assert_eq!(
        [stats::N, stats::MEAN_X, stats::Q1, stats::MED, stats::Q3].map(|k| shown(&r, k)),
        ["4", "1.75", "1", "1.5", "2.5"]
    );
    // A fractional or negative frequency is a domain error; lists of different lengths a
    // dimension mismatch; all frequencies 0, no data.
    use tibasic::value::ErrorKind;
    let e = |x: &[f64], f: &[f64]| stats::one_var(reals(x), Some(reals(f))).unwrap_err();
    assert_eq!(e(&[1., 2.], &[1., 0.5]), ErrorKind::Domain);
    assert_eq!(e(&[1., 2.], &[1., -1.]), ErrorKind::Domain);
    assert_eq!(e(&[1., 2.], &[1.]), ErrorKind::DimMismatch);
    assert_eq!(e(&[1., 2.], &[0., 0.]), ErrorKind::Stat);
}

#[test]
fn linreg_of_anscombe_set_one_is_the_published_line() {
    let r = stats::regression(Cmd::LinABx, reals(&ANSCOMBE_X), reals(&ANSCOMBE_Y1), None).unwrap();
    assert_eq!(r.form, Some("y=a+bx"));
    // Published: y = 3.00 + 0.500x, R² = 0.667.
    assert!((value(&r, stats::A) - 3.00).abs() < 0.005);
    assert!((value(&r, stats::B) - 0.500).abs() < 0.0005);
    assert!((value(&r, stats::R).powi(2) - 0.667).abs() < 0.0005);
    // To the 10 digits shown.
    assert_eq!(shown(&r, stats::A), "3.000090909");
    assert_eq!(shown(&r, stats::B), ".5000909091");
    assert_eq!(shown(&r, stats::R), ".8164205163");
    // LinReg(ax+b) names them the other way round.
    let r = stats::regression(Cmd::LinAxB, reals(&ANSCOMBE_X), reals(&ANSCOMBE_Y1), None).unwrap();
    assert_eq!(shown(&r, stats::A), ".5000909091");
    assert_eq!(shown(&r, stats::B), "3.000090909");
}

#[test]
fn two_var_stats_of_anscombe_set_one() {
    let r = stats::two_var(reals(&ANSCOMBE_X), reals(&ANSCOMBE_Y1), None).unwrap();
    assert_eq!(shown(&r, stats::MEAN_Y), "7.500909091");
    assert_eq!(shown(&r, stats::SUM_Y), "82.51");
    assert_eq!(shown(&r, stats::SUM_Y2), "660.1727");
    assert_eq!(shown(&r, stats::SUM_XY), "797.6");
    assert_eq!(shown(&r, stats::SY), "2.031568136");
    assert_eq!(
        [stats::MIN_X, stats::MAX_X, stats::MIN_Y, stats::MAX_Y].map(|k| shown(&r, k)),
        ["4", "14", "4.26", "10.84"]
    );
}

#[test]
fn polynomial_exponential_power_and_log_fits_give_back_their_curves() {
    let x: Vec<f64> = (0..7).map(f64::from).collect();
    let quad: Vec<f64> = x.iter().map(|x| 2. * x * x - 3. * x + 1.).collect();
    let r = stats::regression(Cmd::Quad, reals(&x), reals(&quad), None).unwrap();
    assert_eq!(
        [stats::A, stats::B, stats::C].map(|k| shown(&r, k)),
        ["2", "-3", "1"].map(minus)
    );
    // A coefficient that is 0 comes back as 14-digit rounding leaves it (below 1E-9; the
    // calculator shows such residues as they are, e.g. 5.7E-12).
    let close = |r: &Results, want: &[f64]| {
        let got: Vec<f64> = [stats::A, stats::B, stats::C, stats::D, stats::E][..want.len()]
            .iter()
            .map(|&k| value(r, k))
            .collect();
        let ok = got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-9);
        assert!(ok, "{got:?} against {want:?}");
    };
    let cubic: Vec<f64> = x.iter().map(|x| x * x * x - 2. * x + 4.).collect();
    let r = stats::regression(Cmd::Cubic, reals(&x), reals(&cubic), None).unwrap();
    close(&r, &[1., 0., -2., 4.]);
    let quart: Vec<f64> = x.iter().map(|x| x.powi(4) - x * x + 1.).collect();
    let r = stats::regression(Cmd::Quart, reals(&x), reals(&quart), None).unwrap();
    close(&r, &[1., 0., -1., 0., 1.]);
    let x: Vec<f64> = (1..6).map(f64::from).collect();
    let exp: Vec<f64> = x.iter().map(|x| 3. * 2f64.powf(*x)).collect();
    let r = stats::regression(Cmd::Exp, reals(&x), reals(&exp), None).unwrap();
    assert_eq!(
        [stats::A, stats::B, stats::R].map(|k| shown(&r, k)),
        ["3", "2", "1"]
    );
    let pwr: Vec<f64> = x.iter().map(|x| 5. * x * x).collect();
    let r = stats::regression(Cmd::Pwr, reals(&x), reals(&pwr), None).unwrap();
    assert_eq!(
        [stats::A, stats::B, stats::R].map(|k| shown(&r, k)),
        ["5", "2", "1"]
    );
    let ln: Vec<Real> = reals(&x)
        .into_iter()
        .map(|v| {
            let l = v.ln().unwrap();
            Real::from_i64(2)
                .add(Real::from_i64(3).mul(l).unwrap())
                .unwrap()
        })
        .collect();
    let r = stats::regression(Cmd::Ln, reals(&x), ln, None).unwrap();
    assert_eq!(
        [stats::A, stats::B, stats::R].map(|k| shown(&r, k)),
        ["2", "3", "1"]
    );
    // Too few distinct x for the degree; a logarithm of 0.
    use tibasic::value::ErrorKind;
    let e = stats::regression(Cmd::Quad, reals(&[1., 1., 2.]), reals(&[1., 2., 3.]), None);
    assert_eq!(e.unwrap_err(), ErrorKind::Stat);
    let e = stats::regression(Cmd::Ln, reals(&[0., 1., 2.]), reals(&[1., 2., 3.]), None);
    assert_eq!(e.unwrap_err(), ErrorKind::Domain);
}

/// The calculator's minus sign (`⁻`) for a test's plain `-`.
fn minus(s: &str) -> String {
    s.replace('-', "⁻")
}

#[test]
fn the_median_median_line_from_its_summary_points() {
    // Three groups of three: summary points (2,3) (5,6) (8,9); slope (9-3)/(8-2) = 1,
    // intercept ((3+6+9) - 1·(2+5+8))/3 = 1.
    let x: Vec<f64> = (1..10).map(f64::from).collect();
    let y = [2., 4., 3., 5., 7., 6., 8., 10., 9.];
    let r = stats::regression(Cmd::MedMed, reals(&x), reals(&y), None).unwrap();
    assert_eq!(r.form, Some("y=ax+b"));
    assert_eq!([stats::A, stats::B].map(|k| shown(&r, k)), ["1", "1"]);
    assert_eq!(
        [
            stats::X1,
            stats::Y1,
            stats::X2,
            stats::Y2,
            stats::X3,
            stats::Y3
        ]
        .map(|k| shown(&r, k)),
        ["2", "3", "5", "6", "8", "9"]
    );
    // Ten points: groups of 3, 4, 3 (n = 3k+1).
    let x: Vec<f64> = (1..11).map(f64::from).collect();
    let r = stats::regression(Cmd::MedMed, reals(&x), reals(&x), None).unwrap();
    assert_eq!(
        [stats::X1, stats::X2, stats::X3].map(|k| shown(&r, k)),
        ["2", "5.5", "9"]
    );
    assert_eq!([stats::A, stats::B].map(|k| shown(&r, k)), ["1", "0"]);
}

/// A statistics session from the keypad, as the Guidebook walks through one: the data typed
/// into the list editor, STAT ► CALC `1:1-Var Stats`, ENTER; the results on the home screen
/// and in the statistics variables programs read (VARS › Statistics).
#[test]
fn a_statistics_session_from_stat_edit() {
    let mut calc = calc_with_sources(&[("M", "x̄->M\nMed->D")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Stat, Key::K1]);
    for v in [Key::K4, Key::K8, Key::K6, Key::K2, Key::K5] {
        keys(&mut calc, &[v, Key::Enter]);
    }
    keys(
        &mut calc,
        &[Key::Second, Key::Mode, Key::Stat, Key::Right, Key::K1],
    );
    assert!(
        glass(&calc)[0].starts_with("1-Var Stats"),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter]);
    calc.run_for(2000 * 6_000);
    // {4,8,6,2,5}: x̄ = 5, Σx = 25, Σx² = 145, Sx = √(20/4), σx = √(20/5) = 2; sorted
    // 2 4 5 6 8: minX = 2, Q1 = 3, Med = 5, Q3 = 7, maxX = 8. The results screen: the title,
    // six results indented one column, `↓` before the last while more follow, the cursor's
    // row below [I].
    assert_eq!(
        glass(&calc)[..7],
        [
            "1-Var Stats",
            " x̄=5",
            " Σx=25",
            " Σx²=145",
            " Sx=2.236067977",
            " σx=2",
            "↓n=5"
        ]
    );
    // ▼ scrolls one result at a time, `↑` on the first row once one went by; at the end
    // ▼ does nothing more.
    keys(&mut calc, &[Key::Down]);
    assert_eq!(glass(&calc)[1], "↑Σx=25");
    assert_eq!(glass(&calc)[6], "↓minX=2");
    // Eleven results, six at a time: four more steps reach maxX, and ▼ stops there.
    for _ in 0..8 {
        keys(&mut calc, &[Key::Down]);
    }
    assert_eq!(
        glass(&calc)[..7],
        [
            "1-Var Stats",
            "↑n=5",
            " minX=2",
            " Q₁=3",
            " Med=5",
            " Q₃=7",
            " maxX=8"
        ]
    );
    keys(&mut calc, &[Key::Up]);
    assert_eq!(glass(&calc)[1], "↑σx=2");
    // Any other key leaves the results where they are and starts an entry.
    keys(&mut calc, &[Key::K7]);
    assert_eq!(glass(&calc)[1], "↑σx=2");
    assert!(glass(&calc)[7].starts_with('7'), "{:?}", glass(&calc));
    tibasic::firmware::start_program(&mut calc, "M").unwrap();
    calc.run_for(500 * 6_000);
    let real = |v: u8| real_var(&calc, v).unwrap_or(f64::NAN);
    assert_eq!((real(b'M'), real(b'D')), (5.0, 5.0));
}

/// RegEQ: the last regression's equation, evaluated at X (y = 2x + 3 from three exact points;
/// y = 3·2^x from ExpReg).
#[test]
fn regeq_is_the_fitted_equation() {
    let src = "{1,2,3}->L1\n{5,7,9}->L2\nLinReg(ax+b)\n10->X\nRegEQ->A\n{1,2,3}->L3\n{6,12,24}->L4\nExpReg L3,L4\n4->X\nRegEQ->B\n1-Var Stats L3\nRegEQ->C";
    let mut calc = calc_with_sources(&[("R", src)]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "R").unwrap();
    calc.run_for(5_000 * 6_000);
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{:?}", fw.last_error());
    let real = |v: u8| real_var(&calc, v).unwrap_or(f64::NAN);
    assert_eq!(real(b'A'), 23.0);
    assert!((real(b'B') - 48.0).abs() < 1e-9);
    // 1-Var Stats has no equation: RegEQ stays the last regression's.
    assert!((real(b'C') - 48.0).abs() < 1e-9);
}

/// STAT ► CALC `3:SetUp…` chooses the lists a statistics command without lists uses (the
/// TI-82 Guidebook, chapter 7: Xlist and Freq for 1-Var Stats; Xlist, Ylist and Freq for
/// 2-Var Stats and the regressions).
#[test]
fn setup_chooses_the_lists_of_a_command_without_lists() {
    let src = "{1,2,3}->L1\n{10,20,30}->L2\n{2,2,4}->L3\n{1,1,3}->L4";
    let mut calc = calc_with_sources(&[
        ("D", src),
        ("S", "1-Var Stats\nx̄->M\nn->N\nLinReg(ax+b)\na->A\nb->B"),
    ])
    .unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "D").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Stat, Key::Right, Key::K3]);
    assert_eq!(
        glass(&calc)[..7],
        [
            "1-Var Stats",
            "Xlist:L₁",
            "Freq:1",
            "2-Var Stats",
            "Xlist:L₁",
            "Ylist:L₂",
            "Freq:1"
        ]
    );
    // The cursor's setting is in inverse video: 1-Var Stats' Xlist first.
    assert!(inverted(&calc, 1, 6), "Xlist's L₁ is the cursor's");
    // 1-Var Stats: Xlist L₂ (►), Freq L₄ (▼, ◄ wraps 1 → L₆, ◄ ◄ → L₄).
    keys(
        &mut calc,
        &[Key::Right, Key::Down, Key::Left, Key::Left, Key::Left],
    );
    // 2-Var Stats: Xlist L₃ (▼, ► ►), Ylist L₁ (▼, ◄), Freq 1.
    keys(
        &mut calc,
        &[Key::Down, Key::Right, Key::Right, Key::Down, Key::Left],
    );
    assert_eq!(
        glass(&calc)[..7],
        [
            "1-Var Stats",
            "Xlist:L₂",
            "Freq:L₄",
            "2-Var Stats",
            "Xlist:L₃",
            "Ylist:L₁",
            "Freq:1"
        ]
    );
    keys(&mut calc, &[Key::Second, Key::Mode]);
    tibasic::firmware::start_program(&mut calc, "S").unwrap();
    calc.run_for(5_000 * 6_000);
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{:?}", fw.last_error());
    let real = |v: u8| real_var(&calc, v).unwrap_or(f64::NAN);
    // {10,20,30} with frequencies {1,1,3}: n = 5, x̄ = (10+20+90)/5 = 24.
    assert_eq!((real(b'N'), real(b'M')), (5.0, 24.0));
    // Points (2,1), (2,2), (4,3): the least-squares line through them is y = .75x + 0.
    // (In 14 digits a comes out as .74999999999999, shown as .75 in 10.)
    assert!((real(b'A') - 0.75).abs() < 1e-12 && real(b'B').abs() < 1e-12);
}

/// A save state keeps the SetUp… lists, the SetUp screen and the results still to scroll.
#[test]
fn a_save_state_keeps_setup_and_the_results_to_scroll() {
    let restored = |calc: &Calc| {
        let mut copy = Calc::new(tibasic::firmware::BasicFirmware::new());
        copy.restore_bytes(std::path::Path::new("stats.state"), &calc.state_bytes())
            .expect("a good state loads");
        assert_eq!(glass(&copy), glass(calc));
        copy
    };
    let mut calc = calc_with_sources(&[("D", "{1,2,3,4}->L2")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "D").unwrap();
    calc.run_for(500 * 6_000);
    keys(
        &mut calc,
        &[Key::Stat, Key::Right, Key::K3, Key::Right, Key::Down],
    );
    let mut copy = restored(&calc);
    // The cursor is on Freq in the copy too: ► makes it L₁.
    keys(&mut copy, &[Key::Right]);
    assert_eq!(glass(&copy)[2], "Freq:L₁");
    keys(&mut calc, &[Key::Clear]);
    keys(&mut calc, &[Key::Stat, Key::Right, Key::K1, Key::Enter]);
    calc.run_for(2000 * 6_000);
    // Xlist L₂: n = 4, x̄ = 2.5.
    assert_eq!(glass(&calc)[1], " x̄=2.5");
    let mut copy = restored(&calc);
    keys(&mut copy, &[Key::Down]);
    keys(&mut calc, &[Key::Down]);
    assert_eq!(glass(&copy), glass(&calc));
    assert_eq!(glass(&copy)[1], "↑Σx=10");
}

/// VARS › Statistics › EQ › RegEQ chosen in the Y= editor pastes the regression equation
/// itself into Y₁ (as a TI-82 class handout describes: the equation "is transferred to Y=
/// without typing"), so it stays after the next regression.
#[test]
fn regeq_from_vars_pastes_the_equation_into_the_y_editor() {
    let src = "{1,2,3}->L1\n{5,7,9}->L2\nLinReg(ax+b)";
    let mut calc = calc_with_sources(&[("R", src)]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "R").unwrap();
    calc.run_for(2_000 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::YEquals, Key::Vars, Key::K5]);
    assert!(glass(&calc)[0].contains("EQ"), "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Right, Key::Right, Key::K1, Key::Enter]);
    let y1 = tibasic::os::equation_in(calc.ram(), 0x10).unwrap().0;
    assert_eq!(y1, tifiles::tokens::tokenize_source("2X+3").unwrap());
}
