//! The function-mode Y-variables `Y₁`-`Y₀` from programs: stored from a quoted expression,
//! evaluated at the current X, selected by storing and by `FnOn`/`FnOff`, and graphed by
//! `DispGraph` column by column (ti82-software.md §6.2: column c is X = Xmin + c·ΔX, row
//! (Ymax − Y)/ΔY rounded). The graph is drawn again, losing the drawings made on it, when it
//! is shown or drawn on after a Y-variable, the window or a graphing mode changed.

mod common;
use common::*;

use std::collections::BTreeSet;

use ti82_machine::Calc;
use tibasic::firmware::{calc_with_sources, start_program, BasicFirmware};

type Pixels = BTreeSet<(i64, i64)>;

fn run(src: &str) -> Calc {
    let mut calc: Calc = calc_with_sources(&[("Y", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "Y").unwrap();
    calc.run_for(20_000 * 6_000);
    calc
}

fn error(calc: &Calc) -> Option<String> {
    BasicFirmware::of(calc)
        .unwrap()
        .last_error()
        .map(|e| e.kind.ti_name().to_string())
}

#[test]
fn a_stored_function_is_evaluated_at_x() {
    let calc = run("\"X²-2\"->{Y1}\n3->X\n{Y1}->A\n\"2Y₂\"->{Y1}\n\"X+1\"->{Y2}\n{Y1}->B");
    assert_eq!(error(&calc), None);
    assert_eq!(real_var(&calc, b'A'), Some(7.0));
    assert_eq!(real_var(&calc, b'B'), Some(8.0));
}

/// The program: a Y-variable's ASCII spelling inside a string names the Y-variable,
/// as it does outside one (one spelling rule, `docs/calculator.md`, "Strings hold tokens"):
/// `"2{Y1}"→{Y2}` stores 2Y₁, so with Y₁ = X+1 and X = 3, `Disp Y₂` shows 8; the display
/// spelling and the letters written apart (`L\1`) are read as before.
#[test]
fn a_y_variable_spelled_in_ascii_inside_a_string_is_the_y_variable() {
    let calc = run(
        "ClrHome\n\"X+1\"->{Y1}\n\"2{Y1}\"->{Y2}\n3->X\nDisp {Y2}\n{Y2}->A\n\"2Y₁\"->{Y3}\n{Y3}->B\nDisp \"L1 L\\1\"",
    );
    assert_eq!(error(&calc), None);
    assert_eq!(
        tibasic::os::equation_in(calc.ram(), 0x11).unwrap().0,
        [b'2', 0x5E, 0x10]
    );
    assert_eq!(real_var(&calc, b'A'), Some(8.0));
    assert_eq!(real_var(&calc, b'B'), Some(8.0));
    let g = glass(&calc);
    assert_eq!(g[0].trim(), "8", "{g:?}");
    // `L1` in a string is the list token (shown `L₁`), `L\1` the letters.
    assert_eq!(g[1], "L₁ L1", "{g:?}");
}

#[test]
fn errors_of_y_variables() {
    // Never stored; a number is not a function; a function using itself.
    assert_eq!(error(&run("{Y3}->A")).as_deref(), Some("UNDEFINED"));
    assert_eq!(error(&run("5->{Y1}")).as_deref(), Some("DATA TYPE"));
    assert_eq!(
        error(&run("\"Y₁+1\"->{Y1}\n{Y1}")).as_deref(),
        Some("MEMORY")
    );
}

#[test]
fn dispgraph_graphs_the_selected_functions() {
    const DX: f64 = 20.0 / 94.0;
    const DY: f64 = 20.0 / 62.0;
    let want: Pixels = (0..95)
        .map(|c| {
            let x = -10.0 + c as f64 * DX;
            (((10.0 - (x * x / 3.0 - 2.3)) / DY).round() as i64, c)
        })
        .filter(|p| (0..63).contains(&p.0))
        .collect();
    let calc = run("AxesOff\nDot\nZStandard\n\"X²/3-2.3\"->{Y1}\nDispGraph");
    assert_eq!(error(&calc), None);
    assert_eq!(graph_pixels(&calc), want);
    // FnOff 1 deselects it: the next look at the graph draws nothing.
    let calc = run("AxesOff\nDot\nZStandard\n\"X²/3-2.3\"->{Y1}\nFnOff 1\nDispGraph");
    assert!(graph_pixels(&calc).is_empty());
    // FnOn 1 selects it again.
    let calc = run("AxesOff\nDot\nZStandard\n\"X²/3-2.3\"->{Y1}\nFnOff \nFnOn 1\nDispGraph");
    assert_eq!(graph_pixels(&calc), want);
}

#[test]
fn a_change_to_the_window_redraws_the_graph_before_the_next_drawing() {
    // Pt-On after the window changed: the graph is drawn again first, so the earlier point
    // is gone. Without a change the drawings stay.
    let calc =
        run("AxesOff\nFnOff \nZStandard\nClrDraw\nPt-On(0,0)\n5->Xmax\nPt-On(1,1)\nDispGraph");
    let p = graph_pixels(&calc);
    assert_eq!(p.len(), 1, "{p:?}");
    let calc = run("AxesOff\nFnOff \nZStandard\nClrDraw\nPt-On(0,0)\nPt-On(1,1)\nDispGraph");
    assert_eq!(graph_pixels(&calc).len(), 2);
}
