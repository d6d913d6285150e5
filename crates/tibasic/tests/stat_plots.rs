//! Stat plots against the graphing rule of the spec (§6.2: a point (X, Y) is at column
//! (X − Xmin)/ΔX and row (Ymax − Y)/ΔY, rounded) and the TI-82 Guidebook's descriptions:
//! a scatter plot marks each point, an xyLine also joins them in order, a histogram's bars
//! are Xscl wide from Xmin and as tall as their counts, a box plot spans Q1-Q3 with the
//! median inside and whiskers to the extremes. The window is the "pixel" one (X 0…94,
//! Y −62…0, so a point (c, −r) is pixel row r, column c).

mod common;
use common::*;

use std::collections::BTreeSet;

use ti82_machine::Calc;

type Pixels = BTreeSet<(i64, i64)>;

fn run(src: &str) -> Calc {
    run_program(&format!(
        "AxesOff\nFnOff \n0->Xmin\n94->Xmax\n~62->Ymin\n0->Ymax\n{src}"
    ))
}

#[test]
fn scatter_plots_mark_each_point() {
    // Points (10,-20) and (50,-40) with the · mark: exactly those pixels.
    let calc = run("{10,50}->L1\n{~20,~40}->L2\nPlot1(Scatter,L1,L2,·)\nDispGraph");
    assert_eq!(graph_pixels(&calc), Pixels::from([(20, 10), (40, 50)]));
    // The + mark: each point and its four neighbours.
    let calc = run("{10}->L1\n{~20}->L2\nPlot1(Scatter,L1,L2,crossplot)\nDispGraph");
    assert_eq!(
        graph_pixels(&calc),
        Pixels::from([(20, 10), (19, 10), (21, 10), (20, 9), (20, 11)])
    );
    // The □ mark (the default): the eight pixels around the point.
    let calc = run("{10}->L1\n{~20}->L2\nPlot1(Scatter,L1,L2)\nDispGraph");
    let p = graph_pixels(&calc);
    assert_eq!(p.len(), 8);
    assert!(!p.contains(&(20, 10)));
    // PlotsOff turns it off: the next graph has nothing.
    let calc = run("{10}->L1\n{~20}->L2\nPlot1(Scatter,L1,L2)\nPlotsOff \nDispGraph");
    assert!(graph_pixels(&calc).is_empty());
}

#[test]
fn an_xyline_joins_the_points_in_order() {
    let calc = run("{10,20,30}->L1\n{~10,~10,~30}->L2\nPlot2(xyLine,L1,L2,·)\nDispGraph");
    let p = graph_pixels(&calc);
    // The horizontal run from (10,10) to (20,10), then down to (30,30).
    for c in 10..=20 {
        assert!(p.contains(&(10, c)), "({c})");
    }
    assert!(p.contains(&(30, 30)));
    assert!(p
        .iter()
        .all(|&(r, c)| (10..=30).contains(&c) && (10..=30).contains(&r)));
}

#[test]
fn histogram_bars_are_xscl_wide_and_as_tall_as_their_counts() {
    // Xscl 10: the values 12, 15, 15 fall in [10,20) (3 high), 31 in [30,40) (1 high).
    // Y from 0 to 62 so counts show.
    let calc = run("0->Ymin\n6.2->Ymax\n10->Xscl\n{12,15,31}->L1\n{1,2,1}->L2\nPlot1(Histogram,L1,L2)\nDispGraph");
    let p = graph_pixels(&calc);
    // Row of y = 3: (6.2 − 3)/0.1 = 32; of y = 1: 52; y = 0: 62.
    for c in 10..=20 {
        assert!(p.contains(&(32, c)), "top of the first bar at column {c}");
    }
    for r in 32..=62 {
        assert!(
            p.contains(&(r, 10)) && p.contains(&(r, 20)),
            "sides at row {r}"
        );
    }
    for c in 30..=40 {
        assert!(p.contains(&(52, c)));
    }
    // Nothing between the bars above the axis row.
    assert!((21..30).all(|c| !p.contains(&(50, c))));
}

#[test]
fn a_boxplot_spans_the_quartiles() {
    // 10 20 30 40 50 60 70: Q1 20, Med 40, Q3 60 (the medians of the halves).
    let calc = run("{10,20,30,40,50,60,70}->L1\nPlot1(Boxplot,L1,1)\nDispGraph");
    let p = graph_pixels(&calc);
    for c in [20, 40, 60] {
        assert!(
            p.contains(&(2, c)) && p.contains(&(8, c)),
            "box edge at {c}"
        );
    }
    // Whiskers from 10 to 20 and from 60 to 70 on the middle row.
    assert!(p.contains(&(5, 10)) && p.contains(&(5, 70)));
    assert!(!p.contains(&(5, 9)) && !p.contains(&(5, 71)));
}

#[test]
fn zoomstat_fits_the_window_to_the_data() {
    let calc =
        run("{2,12}->L1\n{5,25}->L2\nPlot1(Scatter,L1,L2)\nZoomStat\n{Xmin,Xmax,Ymin,Ymax}->L6");
    let l6: Vec<f64> = tibasic::firmware::read_list(calc.ram(), 6)
        .unwrap()
        .iter()
        .map(|r| r.to_f64())
        .collect();
    // A tenth of each range added on both sides.
    assert_eq!(l6, [1.0, 13.0, 3.0, 27.0]);
}
