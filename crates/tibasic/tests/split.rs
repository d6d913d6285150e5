//! Split mode (MODE's last line, `Split`/`FullScreen`): the graph in the top half of the
//! screen, the home screen in the bottom half. The geometry is decided [U] (no TI-82 figure
//! here; the TI-83's horizontal split is the model): graph rows 0-30, so ΔY = (Ymax − Ymin)/30
//! (spec §6.2's rule with 31 rows), a blank row 31, and four home-screen rows below, those
//! around the home screen's cursor.

mod common;
use common::*;

use ti82_machine::Calc;

/// The glass's pixel at (row, column).
fn px(calc: &Calc, r: usize, c: usize) -> bool {
    calc.lcd().pixel(c, r)
}

#[test]
fn split_gives_the_graph_thirty_one_rows() {
    let calc = run_program("Split\nZStandard\nΔY->A\nFullScreen\nΔY->B");
    let (a, b) = (
        real_var(&calc, b'A').unwrap(),
        real_var(&calc, b'B').unwrap(),
    );
    assert!((a - 20.0 / 30.0).abs() < 1e-12, "{a}");
    assert!((b - 20.0 / 62.0).abs() < 1e-12, "{b}");
}

#[test]
fn the_graph_takes_the_top_half_and_the_home_screen_the_bottom() {
    let calc = run_program("Split\nZStandard\nAxesOn\nClrHome\nDisp \"HELLO\"\nDispGraph\nPause");
    // The x axis (Y = 0) on row (10 − 0)/ΔY = 15; the y axis (X = 0) in column 47 over the
    // graph's rows 0-30; row 31 blank.
    assert!((0..95).all(|c| px(&calc, 15, c)), "x axis on row 15");
    assert!((0..31).all(|r| px(&calc, r, 47)), "y axis down to row 30");
    assert!((0..95).all(|c| !px(&calc, 31, c)), "row 31 blank");
    // The home screen's first rows below: HELLO on text row 4 of the glass.
    assert_eq!(glass(&calc)[4], "HELLO");
}

#[test]
fn a_pixel_row_past_the_split_graph_is_a_domain_error() {
    let mut calc = tibasic::firmware::calc_with_sources(&[("P", "Split\nPxl-On(40,1)")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "P").unwrap();
    calc.run_for(2_000 * 6_000);
    assert_eq!(glass(&calc)[0], "ERR:DOMAIN");
}

#[test]
fn the_bottom_half_follows_the_home_screens_cursor() {
    let calc = run_program("Split\nClrHome\nDisp \"A\",\"B\",\"C\",\"D\",\"E\",\"F\"\nPause");
    // Six lines written: the cursor is on home row 6, so rows 3-6 show (D E F and the
    // cursor's row).
    assert_eq!(glass(&calc)[4..7], ["D", "E", "F"]);
}
