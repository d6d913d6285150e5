//! Graphing X²-2 and tracing it from the keypad, as the TI-82 Guidebook's first graphing
//! example does: Y= to the editor, the function typed into `Y₁`, GRAPH, then TRACE and the
//! arrows. The expectations follow the graphing rule of the spec (§6.2: column c is X =
//! Xmin + c·ΔX, row (Ymax − Y)/ΔY rounded) on the standard window.

mod common;
use common::*;

use ti82_machine::{Calc, Key};
use tibasic::firmware::calc_with_sources;

const DX: f64 = 20.0 / 94.0;
const DY: f64 = 20.0 / 62.0;

fn lit(calc: &Calc, r: i64, c: i64) -> bool {
    tibasic::screen::pixel_test(tibasic::screen::plot(calc.ram()), r, c)
}

#[test]
fn graph_and_trace_x_squared_minus_two_from_the_y_editor() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::YEquals]);
    let g = glass(&calc);
    assert!(g[0].starts_with("Y₁="), "{g:?}");
    assert!(g[7].starts_with("Y₈="), "{g:?}");
    keys(&mut calc, &[Key::XTTheta, Key::Square, Key::Sub, Key::K2]);
    assert!(glass(&calc)[0].starts_with("Y₁=X²-2"), "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Enter]);
    // Stored and selected: the `=` is in inverse video.
    assert!(inverted(&calc, 0, 2));
    keys(&mut calc, &[Key::Graph]);
    // Every column whose point is on the screen has it lit (connected mode adds the lines
    // between them).
    for c in 0..95i64 {
        let x = -10.0 + c as f64 * DX;
        let r = ((10.0 - (x * x - 2.0)) / DY).round() as i64;
        if (0..63).contains(&r) {
            assert!(lit(&calc, r, c), "column {c}, row {r}");
        }
    }
    // The axes (on by default): row 31 and column 47.
    assert!(lit(&calc, 31, 3) && lit(&calc, 5, 47));
    // TRACE: the middle column, X = 0, Y = -2.
    keys(&mut calc, &[Key::Trace]);
    let g = glass(&calc);
    assert!(g[0].starts_with("Y₁=X²-2"), "{g:?}");
    assert_eq!(g[7], "X=0     Y=⁻2");
    // ► ►: two columns on, X = 2ΔX = 0.4255…, Y = X²-2 = -1.8189…; the variables X and Y
    // hold the point.
    keys(&mut calc, &[Key::Right, Key::Right]);
    assert_eq!(glass(&calc)[7], "X=.42553Y=⁻1.818");
    let x = 2.0 * DX;
    assert!((real_var(&calc, b'X').unwrap() - x).abs() < 1e-12);
    assert!((real_var(&calc, b'Y').unwrap() - (x * x - 2.0)).abs() < 1e-12);
    // CLEAR leaves the graph for the home screen.
    keys(&mut calc, &[Key::Clear]);
    assert!(!glass(&calc)[7].starts_with("X="));
}

#[test]
fn the_equals_sign_selects_and_deselects() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(
        &mut calc,
        &[Key::YEquals, Key::XTTheta, Key::Enter, Key::Up],
    );
    assert!(inverted(&calc, 0, 2));
    // ◄ from the start onto `=`, ENTER deselects: GRAPH draws nothing but the axes.
    keys(&mut calc, &[Key::Left, Key::Enter]);
    assert!(!inverted(&calc, 0, 2));
    keys(&mut calc, &[Key::Graph]);
    // y = X would light (31 - 3, 47 + ...) off the axes: column 60 stays dark but for the
    // x axis at row 31.
    let plot = tibasic::screen::plot(calc.ram());
    let lit_in_60: Vec<i64> = (0..63)
        .filter(|&r| tibasic::screen::pixel_test(plot, r, 60))
        .collect();
    assert!(
        lit_in_60.iter().all(|&r| (30..=32).contains(&r)),
        "{lit_in_60:?}"
    );
}

/// ZOOM (the TI-82 Guidebook's ZOOM menu: `1:ZBox` … `9:ZoomStat`, MEMORY `1:ZPrevious`
/// `2:ZoomSto` `3:ZoomRcl`): chosen on the home screen a zoom is done at once and the graph
/// shown.
#[test]
fn the_zoom_menu_zooms_at_once() {
    let mut calc = calc_with_sources(&[("W", "Xmin->A")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Zoom]);
    let g = glass(&calc);
    assert_eq!(
        g[..5],
        [
            "ZOOM MEMORY",
            "1:ZBox",
            "2:Zoom In",
            "3:Zoom Out",
            "4:ZDecimal"
        ]
    );
    keys(&mut calc, &[Key::K4]);
    // The graph with the axes through its middle: ZDecimal's window is ±4.7 by ±3.1.
    assert!(lit(&calc, 31, 10) && lit(&calc, 10, 47));
    keys(&mut calc, &[Key::Clear]);
    tibasic::firmware::start_program(&mut calc, "W").unwrap();
    calc.run_for(500 * 6_000);
    assert_eq!(real_var(&calc, b'A'), Some(-4.7));
    // 2:Zoom In puts a cursor on the graph (its middle: the point (0,0)); ENTER zooms in by
    // XFact = YFact = 4 about it and the graph stays.
    keys(&mut calc, &[Key::Clear, Key::Zoom, Key::K2, Key::Enter]);
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear]);
    tibasic::firmware::start_program(&mut calc, "W").unwrap();
    calc.run_for(500 * 6_000);
    assert_eq!(real_var(&calc, b'A'), Some(-1.175));
}

fn window_after(src: &str, ks: &[Key]) -> Vec<f64> {
    let mut calc =
        calc_with_sources(&[("Z", src), ("W", "{Xmin,Xmax,Xscl,Ymin,Ymax}->L6")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "Z").unwrap();
    calc.run_for(1_000 * 6_000);
    keys(&mut calc, ks);
    calc.run_for(1_000 * 6_000);
    assert!(!tibasic::firmware::BasicFirmware::of(&calc)
        .unwrap()
        .program_active());
    tibasic::firmware::start_program(&mut calc, "W").unwrap();
    calc.run_for(1_000 * 6_000);
    tibasic::firmware::read_list(calc.ram(), 6)
        .unwrap()
        .iter()
        .map(|r| (r.to_f64() * 1e9).round() / 1e9)
        .collect()
}

/// The zooms with the graph cursor in programs (the cursor starts at the graph's middle,
/// column 47 and row 31: the point (0,0) of the standard window).
#[test]
fn cursor_zooms_in_programs() {
    // Zoom Out by XFact = YFact = 4 about (0,0): ±40.
    assert_eq!(
        window_after("ZStandard\nZoom Out", &[Key::Enter]),
        [-40.0, 40.0, 1.0, -40.0, 40.0]
    );
    // ZInteger: ΔX = ΔY = 1 about the point, scales 10.
    assert_eq!(
        window_after("ZStandard\nZInteger", &[Key::Enter]),
        [-47.0, 47.0, 10.0, -31.0, 31.0]
    );
    // ZBox: a corner 10 columns left and 5 rows up of the middle, ENTER; the other 10 right
    // and 5 down, ENTER: X ±10·20/94, Y ±5·20/62.
    let mut ks = vec![Key::Left; 10];
    ks.extend([Key::Up; 5]);
    ks.push(Key::Enter);
    ks.extend([Key::Right; 20]);
    ks.extend([Key::Down; 10]);
    ks.push(Key::Enter);
    let w = window_after("ZStandard\nZBox", &ks);
    let x = (200.0f64 / 94.0 * 1e9).round() / 1e9;
    let y = (100.0f64 / 62.0 * 1e9).round() / 1e9;
    assert_eq!(w, [-x, x, 1.0, -y, y]);
    // Trace in a program waits on the graph until ENTER.
    let w = window_after("ZStandard\n\"X\"->{Y1}\nTrace", &[Key::Right, Key::Enter]);
    assert_eq!(w, [-10.0, 10.0, 1.0, -10.0, 10.0]);
}

/// WINDOW (function mode: Xmin Xmax Xscl Ymin Ymax Yscl, the Guidebook's WINDOW screen): a
/// value typed over a line is stored on ENTER, and ΔX follows (spec §6.2).
#[test]
fn the_window_screen_sets_the_window() {
    let mut calc = calc_with_sources(&[("W", "{Xmax,DeltaX}->L6")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Window]);
    let g = glass(&calc);
    assert_eq!(g[0], "WINDOW FORMAT");
    // (The cursor covers the first character of the line's value.)
    assert!(g[1].starts_with("Xmin=") && g[1].ends_with("10"), "{g:?}");
    assert_eq!(
        g[2..7],
        ["Xmax=10", "Xscl=1", "Ymin=⁻10", "Ymax=10", "Yscl=1"]
    );
    keys(&mut calc, &[Key::Down, Key::K3, Key::Mul, Key::K6, Key::K4]);
    assert!(
        glass(&calc)[2].starts_with("Xmax=3*64"),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter]);
    assert!(
        glass(&calc)[2].starts_with("Xmax=192"),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Second, Key::Mode]);
    tibasic::firmware::start_program(&mut calc, "W").unwrap();
    calc.run_for(500 * 6_000);
    let l6: Vec<f64> = tibasic::firmware::read_list(calc.ram(), 6)
        .unwrap()
        .iter()
        .map(|r| r.to_f64())
        .collect();
    assert_eq!(l6[0], 192.0);
    assert!((l6[1] - 202.0 / 94.0).abs() < 1e-12);
}

/// The window as a program reads it after `ks` on a graph of Y₁=X traced from the keypad.
fn traced_window(ks: &[Key], shown: impl FnOnce(&Calc)) -> Vec<f64> {
    let mut calc = calc_with_sources(&[("W", "{Xmin,Xmax,Ymin,Ymax}->L6")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(
        &mut calc,
        &[Key::YEquals, Key::XTTheta, Key::Enter, Key::Trace],
    );
    keys(&mut calc, ks);
    shown(&calc);
    keys(&mut calc, &[Key::Clear]);
    tibasic::firmware::start_program(&mut calc, "W").unwrap();
    calc.run_for(1_000 * 6_000);
    tibasic::firmware::read_list(calc.ram(), 6)
        .unwrap()
        .iter()
        .map(|r| r.to_f64())
        .collect()
}

/// TRACE past the screen's right edge pans the window: the point the cursor moves to (one
/// ΔX past Xmax) comes to the middle column and the graph is drawn for the new window [I:
/// how far the TI-82 pans is not documented here].
#[test]
fn trace_past_the_edge_pans_the_window() {
    // From the middle column, 47 ► reach column 94 (X = 10); the 48th pans.
    let x = 10.0 + DX;
    let w = traced_window(&[Key::Right; 48], |calc| {
        assert_eq!(glass(calc)[7], "X=10.212Y=10.212");
        // The graph is Y=X over the new window: column 40 is X = x - 7ΔX, row (10 - X)/ΔY.
        let r = ((10.0 - (x - 7.0 * DX)) / DY).round() as i64;
        assert!(lit(calc, r, 40), "row {r}");
        // The old graph's point in that column (X = -10 + 40ΔX, row 36) is gone.
        assert!(!lit(calc, 36, 40));
    });
    assert!((w[0] - (x - 47.0 * DX)).abs() < 1e-9, "{w:?}");
    assert!((w[1] - (x + 47.0 * DX)).abs() < 1e-9, "{w:?}");
    assert_eq!(&w[2..], [-10.0, 10.0]);
}

/// ENTER while tracing (QuickZoom, the TI-82 Guidebook's chapter 3): the window is centred on
/// the cursor's point, its width and height kept.
#[test]
fn enter_while_tracing_centres_the_window_on_the_point() {
    let mut ks = vec![Key::Right; 10];
    ks.push(Key::Enter);
    // The cursor stays on the point, now in the middle column.
    let w = traced_window(&ks, |calc| assert_eq!(glass(calc)[7], "X=2.1276Y=2.1276"));
    let p = 10.0 * DX;
    let want = [p - 10.0, p + 10.0, p - 10.0, p + 10.0];
    for (got, want) in w.iter().zip(want) {
        assert!((got - want).abs() < 1e-9, "{w:?}");
    }
}

/// GRAPH's free-moving cursor (the TI-82 Guidebook's chapter 3): an arrow brings a cross
/// into the middle of the graph and moves it a pixel; the bottom line shows the point there,
/// X = Xmin + col·ΔX and Y = Ymax − row·ΔY (spec §6.2).
#[test]
fn the_arrows_move_a_free_cursor_over_the_graph() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Graph]);
    let before: Vec<bool> = (0..63).map(|r| lit(&calc, r, 48)).collect();
    keys(&mut calc, &[Key::Right]);
    // Column 48: X = 20/94 = .21276…; row 31: Y = 0.
    assert_eq!(glass(&calc)[7], "X=.21276Y=0");
    keys(&mut calc, &[Key::Up]);
    // Row 30: Y = 10 − 30·20/62 = .32258…
    assert_eq!(glass(&calc)[7], "X=.21276Y=.32258");
    // The cross is drawn over the graph on the glass (its middle pixel flipped), not into it.
    let glass_px = |r: usize, c: usize| calc.lcd().pixel(c, r);
    assert_ne!(glass_px(30, 48), before[30]);
    assert_eq!(lit(&calc, 30, 48), before[30]);
    // It stops at the edges.
    keys(&mut calc, &[Key::Up; 40]);
    assert!(glass(&calc)[7].ends_with("Y=10"), "{:?}", glass(&calc));
    // GRAPH takes it away; CLEAR goes home.
    keys(&mut calc, &[Key::Graph]);
    assert!(!glass(&calc)[7].starts_with("X="));
    keys(&mut calc, &[Key::Left, Key::Clear]);
    assert!(!glass(&calc)[7].starts_with("X="));
}

/// The Y= editor follows the graphing mode (the TI-82 Guidebook's Y= editor in each mode):
/// Par lists the pairs `X₁ᴛ` `Y₁ᴛ`…, Pol `r₁`…`r₆`, Seq `Uₙ` `Vₙ`; what is typed there is the
/// equation programs and graphs use, and a pair is selected by its X part.
#[test]
fn the_y_editor_lists_the_graphing_modes_equations() {
    let mut calc = calc_with_sources(&[("P", "Param"), ("Q", "Polar"), ("S", "Seq")]).unwrap();
    calc.run_for(100 * 6_000);
    let eq = |calc: &Calc, k: u8| tibasic::os::equation_in(calc.ram(), k).unwrap_or_default();
    tibasic::firmware::start_program(&mut calc, "P").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::YEquals]);
    let g = glass(&calc);
    assert!(
        g[0].starts_with("X₁ᴛ=") && g[1].starts_with("Y₁ᴛ=") && g[7].starts_with("Y₄ᴛ="),
        "{g:?}"
    );
    // X₁ᴛ = T (the X,T,θ key types T in Par mode), Y₁ᴛ = T².
    keys(
        &mut calc,
        &[
            Key::XTTheta,
            Key::Enter,
            Key::XTTheta,
            Key::Square,
            Key::Enter,
        ],
    );
    assert_eq!(eq(&calc, 0x20).0, [b'T']);
    assert_eq!(eq(&calc, 0x21).0, [b'T', 0x0D]);
    // Both lines' `=` show the pair's selection, which is X₁ᴛ's flag.
    assert!(eq(&calc, 0x20).1);
    assert!(inverted(&calc, 0, 3) && inverted(&calc, 1, 3));
    // ▼ past the eighth line scrolls to X₆ᴛ, Y₆ᴛ.
    keys(&mut calc, &[Key::Down; 9]);
    assert!(glass(&calc)[7].starts_with("Y₆ᴛ="), "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Second, Key::Mode]);
    tibasic::firmware::start_program(&mut calc, "Q").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::YEquals]);
    let g = glass(&calc);
    assert!(
        g[0].starts_with("r₁=") && g[5].starts_with("r₆=") && g[6].is_empty(),
        "{g:?}"
    );
    // X,T,θ types θ in Pol mode.
    keys(&mut calc, &[Key::XTTheta, Key::Enter]);
    assert_eq!(eq(&calc, 0x40).0, [0x5B]);
    keys(&mut calc, &[Key::Second, Key::Mode]);
    tibasic::firmware::start_program(&mut calc, "S").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::YEquals]);
    let g = glass(&calc);
    assert!(
        g[0].starts_with("Un=") && g[1].starts_with("Vn=") && g[2].is_empty(),
        "{g:?}"
    );
    // …and 𝑛 in Seq mode.
    keys(&mut calc, &[Key::XTTheta, Key::Enter]);
    assert_eq!(eq(&calc, 0x80).0, [0x62, 0x21]);
}

/// The token menus open over the lines typed on the graphing screens and the list editor
/// (the TI-82 Guidebook: a menu item is pasted at the cursor wherever one types): the chosen
/// token goes into that screen's line and the screen comes back.
#[test]
fn menus_type_into_the_graphing_screens_and_the_list_editor() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    // Y=: MATH ► (NUM) 4 is `int `; then X.
    keys(&mut calc, &[Key::YEquals, Key::Math]);
    assert_eq!(glass(&calc)[0], "MATH NUM HYP PRB");
    keys(&mut calc, &[Key::Right, Key::K4, Key::XTTheta]);
    assert!(
        glass(&calc)[0].starts_with("Y₁=int X"),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter]);
    let y1 = tibasic::os::equation_in(calc.ram(), 0x10).unwrap();
    assert_eq!(y1.0, [0xB1, b'X']);
    // WINDOW: 2, MATH 3 (³): Xmin = 8.
    keys(&mut calc, &[Key::Window, Key::K2, Key::Math, Key::K3]);
    assert!(glass(&calc)[1].starts_with("Xmin=2³"), "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(glass(&calc)[1], "Xmin=8", "{:?}", glass(&calc));
    // The list editor: 2, MATH 3 on L₁'s first element: 8.
    // (2nd QUIT with nothing typed keeps the line's value.)
    keys(
        &mut calc,
        &[
            Key::Second,
            Key::Mode,
            Key::Stat,
            Key::K1,
            Key::K2,
            Key::Math,
            Key::K3,
        ],
    );
    assert!(
        glass(&calc)[7].starts_with("L₁(1)=2³"),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter]);
    let l1 = tibasic::firmware::read_list(calc.ram(), 1).unwrap();
    assert_eq!(l1.iter().map(|r| r.to_f64()).collect::<Vec<_>>(), [8.0]);
    // CLEAR in a menu goes back to its screen, the line as it was.
    keys(&mut calc, &[Key::K5, Key::Math, Key::Clear]);
    assert!(glass(&calc)[7].starts_with("L₁(2)=5"), "{:?}", glass(&calc));
}

/// The graphing keys work from each graphing screen, as they do on the calculator: Y=,
/// WINDOW, GRAPH, TRACE, MODE, 2nd TblSet, 2nd TABLE; what is typed is stored first.
#[test]
fn the_graphing_keys_switch_between_the_graphing_screens() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::YEquals, Key::XTTheta, Key::Window]);
    // Leaving Y= stored Y₁ = X.
    assert_eq!(
        tibasic::os::equation_in(calc.ram(), 0x10).unwrap().0,
        [b'X']
    );
    assert_eq!(glass(&calc)[0], "WINDOW FORMAT");
    // A value typed on WINDOW is stored when 2nd TABLE leaves it.
    keys(&mut calc, &[Key::Neg, Key::K5, Key::Second, Key::Graph]);
    assert_eq!(column(&calc, 0)[0], "X");
    keys(&mut calc, &[Key::Window, Key::Down]);
    assert_eq!(glass(&calc)[1], "Xmin=⁻5");
    keys(&mut calc, &[Key::Second, Key::Window]);
    assert_eq!(glass(&calc)[0], "TABLE SETUP");
    keys(&mut calc, &[Key::Trace]);
    assert!(glass(&calc)[7].starts_with("X="), "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Mode]);
    assert!(glass(&calc)[0].starts_with("Normal"), "{:?}", glass(&calc));
    keys(
        &mut calc,
        &[Key::Second, Key::Mode, Key::Graph, Key::YEquals],
    );
    // The editor on Y₁ (the cursor blinks over its first token).
    assert!(glass(&calc)[1].starts_with("Y₂="), "{:?}", glass(&calc));
    assert_eq!(
        tibasic::os::equation_in(calc.ram(), 0x10).unwrap().0,
        [b'X']
    );
}

/// WINDOW in Seq mode lists the sequence's start values and index range before the window
/// proper (the TI-82 Guidebook's sequence WINDOW: UₙStart, VₙStart, nStart, nMin, nMax),
/// and what is typed there is what a sequence graph starts from.
#[test]
fn the_seq_window_lists_the_start_values() {
    let mut calc = calc_with_sources(&[("S", "Seq"), ("R", "UnStart->A\nnMax->B")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "S").unwrap();
    calc.run_for(500 * 6_000);
    keys(&mut calc, &[Key::Clear, Key::Window]);
    let g = glass(&calc);
    assert!(g[1].starts_with("UnStart="), "{g:?}");
    assert_eq!(
        g[2..6],
        ["VnStart=0", "nStart=0", "nMin=0", "nMax=10"],
        "{g:?}"
    );
    keys(
        &mut calc,
        &[Key::K3, Key::Enter, Key::Down, Key::Down, Key::Down],
    );
    keys(
        &mut calc,
        &[Key::K2, Key::K0, Key::Enter, Key::Second, Key::Mode],
    );
    tibasic::firmware::start_program(&mut calc, "R").unwrap();
    calc.run_for(500 * 6_000);
    assert_eq!(
        (real_var(&calc, b'A'), real_var(&calc, b'B')),
        (Some(3.0), Some(20.0))
    );
}

/// ZOOM › MEMORY › `4:SetFactors…` (the TI-82 Guidebook's ZOOM FACTORS screen): XFact and
/// YFact, 4 after a reset, typed over as on WINDOW; Zoom In and Zoom Out use them.
#[test]
fn set_factors_sets_the_zoom_factors() {
    let mut calc = calc_with_sources(&[("R", "XFact->A\nYFact->B")]).unwrap();
    calc.run_for(100 * 6_000);
    keys(&mut calc, &[Key::Zoom, Key::Right]);
    assert_eq!(glass(&calc)[4], "4:SetFactors…", "{:?}", glass(&calc));
    keys(&mut calc, &[Key::K4]);
    let g = glass(&calc);
    assert_eq!(g[0], "ZOOM FACTORS");
    assert_eq!(g[2], "YFact=4");
    keys(
        &mut calc,
        &[
            Key::K2,
            Key::Enter,
            Key::K5,
            Key::Enter,
            Key::Second,
            Key::Mode,
        ],
    );
    tibasic::firmware::start_program(&mut calc, "R").unwrap();
    calc.run_for(500 * 6_000);
    assert_eq!(
        (real_var(&calc, b'A'), real_var(&calc, b'B')),
        (Some(2.0), Some(5.0))
    );
}

/// A bare `Input` (the TI-82 Guidebook: the graph with the free-moving cursor; ENTER stores
/// the cursor's coordinates in X and Y and the program goes on).
#[test]
fn a_bare_input_reads_a_point_from_the_graph() {
    let mut calc = calc_with_sources(&[("P", "ZStandard\nInput\nX->A\nY->B")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "P").unwrap();
    calc.run_for(1_000 * 6_000);
    // From the middle (row 31, column 47): three columns right, two rows up.
    keys(
        &mut calc,
        &[
            Key::Right,
            Key::Right,
            Key::Right,
            Key::Up,
            Key::Up,
            Key::Enter,
        ],
    );
    calc.run_for(500 * 6_000);
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{:?}", fw.last_error());
    let (a, b) = (
        real_var(&calc, b'A').unwrap(),
        real_var(&calc, b'B').unwrap(),
    );
    assert!((a - (-10.0 + 50.0 * DX)).abs() < 1e-12, "{a}");
    assert!((b - (10.0 - 29.0 * DY)).abs() < 1e-12, "{b}");
}

/// The graphing screens as the glass shows them with `Y₁=X` on the standard window (the
/// classification the tests below use).
fn screen_name(calc: &Calc) -> &'static str {
    let g = glass(calc);
    let axes = (0..63).all(|r| calc.lcd().pixel(47, r)) && (0..95).all(|c| calc.lcd().pixel(c, 31));
    match () {
        _ if g[1].starts_with("Y₂=") => "Y=",
        _ if g[0] == "WINDOW FORMAT" && g[1].starts_with("Xmin=") => "WINDOW",
        _ if g[0] == "WINDOW FORMAT" && g[1] == "RectGC PolarGC" => "FORMAT",
        _ if g[0] == "ZOOM MEMORY" => "ZOOM",
        _ if g[0] == "ZOOM FACTORS" => "ZOOM FACTORS",
        _ if g[0] == "Y₁=X" && g[7] == "X=0     Y=0" => "TRACE",
        _ if g[0].starts_with(" X") && g[7].starts_with("X=") => "TABLE",
        _ if g[0] == "TABLE SETUP" => "TABLE SETUP",
        _ if g[0] == "STAT PLOTS" => "STAT PLOTS",
        _ if g[0] == "Plot1" => "Plot1",
        _ if g[0] == "Normal Sci Eng" => "MODE",
        // The graph: both axes whole, nothing written over them.
        _ if axes => "GRAPH",
        _ => "?",
    }
}

/// The graphing keys (the keyboard's top row and their second functions) and the screen each
/// opens; `None`: 2nd CALC, whose CALCULATE menu is not built yet and which leaves the screen
/// as it is (`docs/calculator.md`, "The graphing keys").
const GRAPHING_KEYS: [(bool, Key, Option<&str>); 10] = [
    (false, Key::YEquals, Some("Y=")),
    (false, Key::Window, Some("WINDOW")),
    (false, Key::Zoom, Some("ZOOM")),
    (false, Key::Trace, Some("TRACE")),
    (false, Key::Graph, Some("GRAPH")),
    (true, Key::YEquals, Some("STAT PLOTS")),
    (true, Key::Window, Some("TABLE SETUP")),
    (true, Key::Zoom, Some("FORMAT")),
    (true, Key::Trace, None),
    (true, Key::Graph, Some("TABLE")),
];

/// Every graphing key pressed on the screen `reach` opens (named `name`, from the home
/// screen with `Y₁=X`): each opens its screen, and 2nd CALC leaves the screen as it is. On
/// the TI-82 every graphing key works from every graphing screen and from the home screen
/// (`docs/calculator.md`, "The graphing keys").
fn graphing_keys_from(reach: &[Key], name: &str) {
    for (second, k, opens) in GRAPHING_KEYS {
        let mut calc = calc_with_sources(&[("P", "\"X\"->{Y1}")]).unwrap();
        calc.run_for(100 * 6_000);
        tibasic::firmware::start_program(&mut calc, "P").unwrap();
        calc.run_for(500 * 6_000);
        keys(&mut calc, &[Key::Clear]);
        keys(&mut calc, reach);
        let before = without_cursor(&glass(&calc));
        if name != "home" {
            assert_eq!(screen_name(&calc), name, "{before:?}");
        }
        if second {
            keys(&mut calc, &[Key::Second]);
        }
        keys(&mut calc, &[k]);
        let what = format!("{}{k:?} on {name}", if second { "2nd " } else { "" });
        match opens {
            Some(screen) => assert_eq!(screen_name(&calc), screen, "{what}: {:?}", glass(&calc)),
            None => assert_eq!(without_cursor(&glass(&calc)), before, "{what}"),
        }
    }
}

#[test]
fn the_graphing_keys_work_on_the_home_screen() {
    graphing_keys_from(&[], "home");
}

#[test]
fn the_graphing_keys_work_on_the_y_editor() {
    graphing_keys_from(&[Key::YEquals], "Y=");
}

#[test]
fn the_graphing_keys_work_on_window() {
    graphing_keys_from(&[Key::Window], "WINDOW");
}

#[test]
fn the_graphing_keys_work_on_the_zoom_menu() {
    // Over the Y= editor (and from the home screen: the menu is the same).
    graphing_keys_from(&[Key::YEquals, Key::Zoom], "ZOOM");
    graphing_keys_from(&[Key::Zoom], "ZOOM");
}

#[test]
fn the_graphing_keys_work_on_zoom_factors() {
    graphing_keys_from(&[Key::Zoom, Key::Right, Key::K4], "ZOOM FACTORS");
}

#[test]
fn the_graphing_keys_work_on_trace() {
    graphing_keys_from(&[Key::Trace], "TRACE");
}

#[test]
fn the_graphing_keys_work_on_the_graph() {
    graphing_keys_from(&[Key::Graph], "GRAPH");
    // With the free-moving cursor on it (moved back to the middle: the axes whole again
    // once the cursor's cross is gone).
    graphing_keys_from(&[Key::Graph, Key::Left, Key::Right, Key::Graph], "GRAPH");
}

#[test]
fn the_graphing_keys_work_on_the_free_cursor() {
    // The free cursor's bottom line hides the axes: checked by what the keys open.
    for (second, k, opens) in GRAPHING_KEYS {
        let mut calc = calc_with_sources(&[("P", "\"X\"->{Y1}")]).unwrap();
        calc.run_for(100 * 6_000);
        tibasic::firmware::start_program(&mut calc, "P").unwrap();
        calc.run_for(500 * 6_000);
        keys(&mut calc, &[Key::Clear, Key::Graph, Key::Left]);
        assert!(
            glass(&calc)[7].starts_with("X=⁻.2127"),
            "{:?}",
            glass(&calc)
        );
        let before = glass(&calc);
        if second {
            keys(&mut calc, &[Key::Second]);
        }
        keys(&mut calc, &[k]);
        match opens {
            Some(screen) => assert_eq!(screen_name(&calc), screen, "{k:?}"),
            None => assert_eq!(glass(&calc), before),
        }
    }
}

#[test]
fn the_graphing_keys_work_on_the_table() {
    graphing_keys_from(&[Key::Second, Key::Graph], "TABLE");
}

#[test]
fn the_graphing_keys_work_on_table_setup() {
    graphing_keys_from(&[Key::Second, Key::Window], "TABLE SETUP");
}

#[test]
fn the_graphing_keys_work_on_format() {
    graphing_keys_from(&[Key::Second, Key::Zoom], "FORMAT");
    // Reached from WINDOW's tab as well.
    graphing_keys_from(&[Key::Window, Key::Right], "FORMAT");
}

#[test]
fn the_graphing_keys_work_on_stat_plot() {
    graphing_keys_from(&[Key::Second, Key::YEquals], "STAT PLOTS");
    graphing_keys_from(&[Key::Second, Key::YEquals, Key::K1], "Plot1");
}

#[test]
fn the_graphing_keys_work_on_mode() {
    graphing_keys_from(&[Key::Mode], "MODE");
}

/// The key script: ZOOM on the Y= editor opens the ZOOM menu (what is typed is
/// stored first) and `6:ZStandard` graphs; CLEAR in the menu goes back to the editor, what
/// was typed kept.
#[test]
fn zoom_on_the_y_editor_stores_the_function_and_zooms() {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    keys(
        &mut calc,
        &[Key::YEquals, Key::Sin, Key::XTTheta, Key::Zoom],
    );
    assert_eq!(glass(&calc)[0], "ZOOM MEMORY");
    assert_eq!(
        tibasic::os::equation_in(calc.ram(), 0x10).unwrap().0,
        [0xC2, b'X'],
        "Y₁=sin X stored"
    );
    keys(&mut calc, &[Key::K6]);
    // ZStandard's window, the graph shown: the axes in the middle.
    assert!((0..63).all(|r| calc.lcd().pixel(47, r)));
    keys(&mut calc, &[Key::YEquals]);
    assert_eq!(glass(&calc)[0], "Y₁=█in X", "{:?}", glass(&calc));
    keys(&mut calc, &[Key::Right, Key::Right, Key::Zoom, Key::Clear]);
    let g = glass(&calc);
    assert!(g[0].starts_with("Y₁=sin X"), "{g:?}");
    assert!(g[1].starts_with("Y₂="), "{g:?}");
}
