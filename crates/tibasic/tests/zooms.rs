//! The zooms that need no cursor and the window variables without a RAM address. Expected
//! windows: ZTrig is X ±47π/24 (so ΔX = π/24) with Xscl π/2 and Y ±4, ZDecimal makes ΔX = ΔY
//! = 0.1 (X ±4.7, Y ±3.1), ZSquare widens the narrower axis about its centre until ΔX = ΔY
//! (the TI-82 Guidebook's zoom descriptions); ΔX = (Xmax − Xmin)/94 and ΔY = (Ymax −
//! Ymin)/62 (spec §6.2). Values compared as the calculator shows them (10 digits).

use ti82_machine::Calc;
use tibasic::display::{real_text, NumFormat};
use tibasic::firmware::{calc_with_sources, start_program};

/// Runs `src` and returns L6 as the calculator shows its elements.
fn run(src: &str) -> Vec<String> {
    let mut calc: Calc = calc_with_sources(&[("Z", src)]).unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "Z").unwrap();
    calc.run_for(20_000 * 6_000);
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{src}: {:?}", fw.last_error());
    tibasic::firmware::read_list(calc.ram(), 6)
        .unwrap_or_default()
        .into_iter()
        .map(|r| real_text(r, NumFormat::FLOAT).replace('⁻', "-"))
        .collect()
}

const WINDOW: &str = "{Xmin,Xmax,Xscl,Ymin,Ymax,Yscl,DeltaX,DeltaY}->L6";

#[test]
fn ztrig_and_zdecimal_set_their_windows() {
    assert_eq!(
        run(&format!("ZTrig\n{WINDOW}")),
        [
            "-6.152285613",
            "6.152285613",
            "1.570796327",
            "-4",
            "4",
            "1",
            ".1308996939",
            ".1290322581"
        ]
    );
    assert_eq!(
        run(&format!("ZDecimal\n{WINDOW}")),
        ["-4.7", "4.7", "1", "-3.1", "3.1", "1", ".1", ".1"]
    );
}

#[test]
fn zsquare_makes_the_pixels_square_about_the_centre() {
    // From ZStandard: ΔY = 20/62 is the larger; X becomes ±47·20/62.
    let w = run(&format!("ZStandard\nZSquare\n{WINDOW}"));
    assert_eq!(
        w[..6],
        ["-15.16129032", "15.16129032", "1", "-10", "10", "1"]
    );
    assert_eq!(w[6], w[7]);
    // A flat window (ΔX = 20/94 > ΔY = 1/62): X is kept, Y grows about its centre 0.5 to
    // ±31·20/94.
    let w = run(&format!("0->Ymin\n1->Ymax\nZSquare\n{WINDOW}"));
    assert_eq!(w[..2], ["-10", "10"]);
    assert_eq!(w[3..5], ["-6.095744681", "7.095744681"]);
}

#[test]
fn zprevious_zoomsto_and_zoomrcl_remember_windows() {
    assert_eq!(
        run(&format!("ZDecimal\nZTrig\nZPrevious\n{WINDOW}"))[..2],
        ["-4.7", "4.7"]
    );
    // ZoomSto keeps the window in ZXmin…ZYscl; ZoomRcl brings it back.
    let w = run(&format!(
        "ZDecimal\nZoomSto\nZStandard\nZoomRcl\n{WINDOW}\naugment(L6,{{ZXmin,ZYmax}})->L6"
    ));
    assert_eq!(w[..2], ["-4.7", "4.7"]);
    assert_eq!(w[8..], ["-4.7", "3.1"]);
}

#[test]
fn the_other_window_variables_have_their_defaults_and_store() {
    assert_eq!(
        run("{Tmin,Tmax,Tstep,thetaMax,TblMin,DeltaTbl,XFact,YFact,nMax}->L6"),
        [
            "0",
            "6.283185307",
            ".1308996939",
            "6.283185307",
            "0",
            "1",
            "4",
            "4",
            "10"
        ]
    );
    assert_eq!(
        run("5->Tmin\n.5->DeltaTbl\n2->XFact\n{Tmin,DeltaTbl,XFact}->L6"),
        ["5", ".5", "2"]
    );
}

/// The window variables kept outside RAM, the zoom memory and the statistics variables are
/// in the save state.
#[test]
fn they_survive_a_save_state() {
    let mut calc: Calc = calc_with_sources(&[
        ("S", "5->Tmin\nZDecimal\nZTrig\n1-Var Stats {2,4,9}"),
        ("R", "ZPrevious\n{Tmin,Xmax,x̄,maxX}->L6"),
    ])
    .unwrap();
    calc.run_for(100 * 6_000);
    start_program(&mut calc, "S").unwrap();
    calc.run_for(5_000 * 6_000);
    let state = calc.state_bytes();
    let mut back: Calc = calc_with_sources(&[]).unwrap();
    back.restore_bytes(std::path::Path::new("z.state"), &state)
        .unwrap();
    start_program(&mut back, "R").unwrap();
    back.run_for(5_000 * 6_000);
    let l6: Vec<String> = tibasic::firmware::read_list(back.ram(), 6)
        .unwrap_or_default()
        .into_iter()
        .map(|r| real_text(r, NumFormat::FLOAT))
        .collect();
    assert_eq!(l6, ["5", "4.7", "5", "9"]);
}
