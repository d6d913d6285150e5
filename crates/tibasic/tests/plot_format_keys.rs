//! 2nd STAT PLOT and WINDOW ► FORMAT from the keypad, as the TI-82 Guidebook describes them:
//! the STAT PLOTS menu (`1:Plot1…` `2:Plot2…` `3:Plot3…` with their summaries, `4:PlotsOff`
//! `5:PlotsOn`), a plot's editor (On/Off, the type, the lists, the mark, ◄ ► along a line,
//! ENTER sets, ▲ ▼ change line), and the FORMAT lines `RectGC PolarGC`, `CoordOn CoordOff`,
//! `GridOff GridOn`, `AxesOn AxesOff`, `LabelOff LabelOn`. Where each point is drawn follows
//! the graphing rule of the spec (§6.2: column (X − Xmin)/ΔX, row (Ymax − Y)/ΔY, rounded);
//! the "pixel" window (X 0…94, Y −62…0) puts a point (c, −r) at row r, column c.

mod common;
use common::*;

use std::collections::BTreeSet;

use ti82_machine::{Calc, Key};
use tibasic::firmware::calc_with_sources;

type Pixels = BTreeSet<(i64, i64)>;

const PIXEL_WINDOW: &str = "0->Xmin\n94->Xmax\n~62->Ymin\n0->Ymax\n";

fn fresh() -> Calc {
    let mut calc = calc_with_sources(&[]).unwrap();
    calc.run_for(100 * 6_000);
    calc
}

fn lit(calc: &Calc, r: i64, c: i64) -> bool {
    tibasic::screen::pixel_test(tibasic::screen::plot(calc.ram()), r, c)
}

/// The plot editor: Plot1 turned on, Scatter, Xlist L1, Ylist L2, the `·` mark, all chosen
/// with the keys from a plot a program defined otherwise (an xyLine of L3 and L4 with `+`),
/// then GRAPH: exactly the two points' pixels (the `·` mark is the point itself).
#[test]
fn the_plot_editor_defines_a_scatter_plot_that_graph_draws() {
    let mut calc = run_program(&format!(
        "AxesOff\n{PIXEL_WINDOW}{{10,50}}->L1\n{{~20,~40}}->L2\n{{1,2}}->L3\n{{3,4}}->L4\n\
         Plot1(xyLine,L3,L4,crossplot)\nPlotsOff \nClrHome"
    ));
    keys(&mut calc, &[Key::Second, Key::YEquals]);
    let g = glass(&calc);
    assert_eq!(g[0], "STAT PLOTS");
    assert_eq!(g[1], "1:Plot1…Off");
    // The summary: the xyLine icon, then the lists and the mark the program set.
    assert!(g[2].ends_with("L₃ L₄ ﹢"), "{g:?}");
    assert_eq!(g[3], "2:Plot2…Off");
    assert_eq!(g[5], "3:Plot3…Off");
    assert_eq!(g[7], "4:PlotsOff");
    keys(&mut calc, &[Key::Enter]);
    let g = glass(&calc);
    assert_eq!(g[0], "Plot1");
    assert_eq!(g[1], "On Off");
    assert!(g[2].starts_with("Type:"), "{g:?}");
    assert_eq!(g[3], "Xl:L₁L₂L₃L₄L₅L₆");
    assert_eq!(g[4], "Yl:L₁L₂L₃L₄L₅L₆");
    assert_eq!(g[5], "Mark:□ ﹢ ·");
    // On; Scatter (the first icon); L1 (two to the left of L3); L2 (two left of L4); ·.
    keys(
        &mut calc,
        &[
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Left,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Left,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Right,
            Key::Enter,
        ],
    );
    // The settings in inverse video (the cursor blinks on the Mark line).
    assert!(inverted(&calc, 1, 0) && !inverted(&calc, 1, 3), "On");
    assert!(inverted(&calc, 2, 5) && !inverted(&calc, 2, 8), "Scatter");
    assert!(inverted(&calc, 3, 3) && !inverted(&calc, 3, 7), "Xlist L1");
    assert!(inverted(&calc, 4, 5) && !inverted(&calc, 4, 9), "Ylist L2");
    keys(&mut calc, &[Key::Up]);
    assert!(inverted(&calc, 5, 9) && !inverted(&calc, 5, 7), "mark ·");
    keys(&mut calc, &[Key::Graph]);
    assert_eq!(graph_pixels(&calc), Pixels::from([(20, 10), (40, 50)]));
    // The menu sums the plot up as set.
    keys(&mut calc, &[Key::Clear, Key::Second, Key::YEquals]);
    let g = glass(&calc);
    assert_eq!(g[1], "1:Plot1…On");
    assert!(g[2].ends_with("L₁ L₂ ·"), "{g:?}");
}

/// `4:PlotsOff` and `5:PlotsOn` type their tokens on the home screen; ENTER runs them.
#[test]
fn plots_off_and_on_from_the_menu() {
    let mut calc = run_program(&format!(
        "AxesOff\n{PIXEL_WINDOW}{{10}}->L1\n{{~20}}->L2\nPlot1(Scatter,L1,L2,·)\nClrHome"
    ));
    keys(&mut calc, &[Key::Graph]);
    assert_eq!(graph_pixels(&calc), Pixels::from([(20, 10)]));
    keys(&mut calc, &[Key::Clear, Key::Second, Key::YEquals, Key::K4]);
    assert!(
        glass(&calc).iter().any(|l| l.starts_with("PlotsOff")),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter, Key::Graph]);
    assert!(graph_pixels(&calc).is_empty());
    // PlotsOn is the fifth item: the list scrolls to it.
    keys(&mut calc, &[Key::Clear, Key::Second, Key::YEquals]);
    keys(&mut calc, &[Key::Down; 4]);
    assert_eq!(glass(&calc)[7], "5:PlotsOn");
    keys(&mut calc, &[Key::Enter]);
    assert!(
        glass(&calc).iter().any(|l| l.starts_with("PlotsOn")),
        "{:?}",
        glass(&calc)
    );
    keys(&mut calc, &[Key::Enter, Key::Graph]);
    assert_eq!(graph_pixels(&calc), Pixels::from([(20, 10)]));
}

/// For a histogram the editor's fourth line is the frequency (`1` or a list) and there is
/// no Mark line; the bars follow Xscl (the TI-82 Guidebook's histogram).
#[test]
fn a_histogram_from_the_editor_has_a_frequency_line() {
    let mut calc = run_program(&format!(
        "AxesOff\n{PIXEL_WINDOW}0->Ymin\n6.2->Ymax\n10->Xscl\n{{12,15,31}}->L1\nClrHome"
    ));
    // Plot2: On, the fourth type (Histogram).
    keys(
        &mut calc,
        &[
            Key::Second,
            Key::YEquals,
            Key::K2,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Right,
            Key::Right,
            Key::Right,
            Key::Enter,
        ],
    );
    let g = glass(&calc);
    assert_eq!(g[0], "Plot2");
    assert_eq!(g[4], "Fq:1L₁L₂L₃L₄L₅L₆");
    assert_eq!(g[5], "");
    assert!(inverted(&calc, 4, 3), "frequency 1");
    keys(&mut calc, &[Key::Graph]);
    let p = graph_pixels(&calc);
    // Bars [10,20) two high (row (6.2 − 2)/0.1 = 42), [30,40) one high (row 52).
    for c in 10..=20 {
        assert!(p.contains(&(42, c)), "first bar's top at {c}");
    }
    for c in 30..=40 {
        assert!(p.contains(&(52, c)), "second bar's top at {c}");
    }
}

/// 2nd STAT PLOT over a program's `Input` (as in the program editor) is the PLOTS TYPE
/// MARK menu: choosing an item types its token.
#[test]
fn the_token_menu_types_plot_commands_types_and_marks() {
    let mut calc = calc_with_sources(&[("ASK", "Input A")]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "ASK").unwrap();
    calc.run_for(300 * 6_000);
    keys(&mut calc, &[Key::Second, Key::YEquals]);
    let g = glass(&calc);
    assert_eq!(
        g[..6],
        [
            "PLOTS TYPE MARK",
            "1:Plot1(",
            "2:Plot2(",
            "3:Plot3(",
            "4:PlotsOff",
            "5:PlotsOn"
        ]
    );
    keys(&mut calc, &[Key::Right]);
    assert_eq!(
        glass(&calc)[1..5],
        ["1:Scatter", "2:xyLine", "3:Boxplot", "4:Histogram"]
    );
    keys(&mut calc, &[Key::K2]);
    assert!(
        glass(&calc).iter().any(|l| l.contains("xyLine")),
        "{:?}",
        glass(&calc)
    );
}

/// WINDOW ► opens FORMAT: its five lines in the TI-82's order, the defaults (RectGC,
/// CoordOn, GridOff, AxesOn, LabelOff) in inverse video; ◄ on the tab line goes back.
#[test]
fn format_shows_its_lines_and_goes_back_to_window() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Window]);
    assert_eq!(glass(&calc)[0], "WINDOW FORMAT");
    keys(&mut calc, &[Key::Right]);
    let g = glass(&calc);
    assert_eq!(
        g[..6],
        [
            "WINDOW FORMAT",
            "RectGC PolarGC",
            "CoordOn CoordOff",
            "GridOff GridOn",
            "AxesOn AxesOff",
            "LabelOff LabelOn"
        ]
    );
    for (row, second) in [(1, 7), (2, 8), (3, 8), (4, 7), (5, 9)] {
        assert!(inverted(&calc, row, 0), "line {row}'s first option");
        assert!(!inverted(&calc, row, second), "line {row}'s second option");
    }
    assert!(!inverted(&calc, 0, 0), "the WINDOW tab is not the open one");
    keys(&mut calc, &[Key::Left]);
    assert!(glass(&calc)[1].starts_with("Xmin="), "{:?}", glass(&calc));
    // 2nd QUIT from FORMAT goes home.
    keys(&mut calc, &[Key::Right, Key::Second, Key::Mode]);
    assert!(!glass(&calc).iter().any(|l| l.contains("RectGC")));
}

/// FORMAT GridOn: a dot at every (k·Xscl, j·Yscl) of the window; AxesOff: no axes. On
/// the pixel window with Xscl = Yscl = 10 the dots are at rows 0, 10, …, 60 and columns
/// 0, 10, …, 90 (y = 0, −10, …, −60; x = 0, 10, …, 90), and nothing else is drawn.
#[test]
fn format_grid_on_and_axes_off_change_the_graph() {
    let mut calc = run_program(&format!("{PIXEL_WINDOW}10->Xscl\n10->Yscl\nClrHome"));
    keys(&mut calc, &[Key::Graph]);
    // The axes (on by default) through (0, 0): row 0 and column 0.
    assert!(lit(&calc, 0, 50) && lit(&calc, 30, 0));
    keys(&mut calc, &[Key::Clear, Key::Window, Key::Right]);
    keys(
        &mut calc,
        &[Key::Down, Key::Down, Key::Down, Key::Right, Key::Enter],
    );
    keys(&mut calc, &[Key::Down, Key::Right, Key::Enter, Key::Up]);
    // GridOn and AxesOff now in inverse video (the cursor blinks on the Grid line).
    assert!(inverted(&calc, 4, 7) && !inverted(&calc, 4, 0));
    keys(&mut calc, &[Key::Graph]);
    let grid: Pixels = (0..=6)
        .flat_map(|r| (0..=9).map(move |c| (10 * r, 10 * c)))
        .collect();
    assert_eq!(graph_pixels(&calc), grid);
}

/// The settings are the ones programs set: `GridOn` and `PolarGC` from a program show on
/// FORMAT.
#[test]
fn format_shows_what_programs_set() {
    let mut calc = run_program("GridOn\nPolarGC\nClrHome");
    keys(&mut calc, &[Key::Window, Key::Right]);
    assert!(inverted(&calc, 1, 7) && !inverted(&calc, 1, 0), "PolarGC");
    assert!(inverted(&calc, 3, 8) && !inverted(&calc, 3, 0), "GridOn");
}

/// FORMAT AxesOff alone: the standard window's graph (no function) is empty.
#[test]
fn format_axes_off_leaves_an_empty_graph() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Graph]);
    assert!(lit(&calc, 31, 3) && lit(&calc, 5, 47), "the axes");
    keys(&mut calc, &[Key::Clear, Key::Window, Key::Right]);
    keys(&mut calc, &[Key::Down; 4]);
    keys(&mut calc, &[Key::Right, Key::Enter, Key::Graph]);
    assert!(graph_pixels(&calc).is_empty());
}

/// FORMAT LabelOn: `X` and `Y` written by the ends of the axes (beside the top of the Y
/// axis, above the right end of the X axis [I]): the graph gains pixels there and only
/// there.
#[test]
fn format_label_on_writes_the_axis_labels() {
    let mut calc = fresh();
    keys(&mut calc, &[Key::Graph]);
    let plain = graph_pixels(&calc);
    keys(&mut calc, &[Key::Clear, Key::Window, Key::Right]);
    keys(&mut calc, &[Key::Up, Key::Right, Key::Enter, Key::Graph]);
    let labelled = graph_pixels(&calc);
    assert!(labelled.is_superset(&plain));
    let extra: Vec<_> = labelled.difference(&plain).copied().collect();
    let near_y = |&(r, c): &(i64, i64)| r < 7 && (48..56).contains(&c);
    let near_x = |&(r, c): &(i64, i64)| (23..30).contains(&r) && c >= 88;
    assert!(
        extra.iter().any(near_y) && extra.iter().any(near_x),
        "{extra:?}"
    );
    assert!(extra.iter().all(|p| near_y(p) || near_x(p)), "{extra:?}");
}

/// Y₁ = X² − 2 typed in the Y= editor (as in `graph_keys.rs`), then TRACE at X = 0.
fn tracing_x_squared_minus_two(format_keys: &[Key]) -> Calc {
    let mut calc = fresh();
    keys(
        &mut calc,
        &[
            Key::YEquals,
            Key::XTTheta,
            Key::Square,
            Key::Sub,
            Key::K2,
            Key::Enter,
            Key::Second,
            Key::Mode,
            Key::Window,
            Key::Right,
        ],
    );
    keys(&mut calc, format_keys);
    keys(&mut calc, &[Key::Trace]);
    calc
}

/// CoordOn (the default) shows the trace's X= Y=; CoordOff leaves the graph on the bottom
/// line, the expression still on top.
#[test]
fn format_coord_off_hides_the_trace_coordinates() {
    let calc = tracing_x_squared_minus_two(&[]);
    assert_eq!(glass(&calc)[7], "X=0     Y=⁻2");
    let calc = tracing_x_squared_minus_two(&[Key::Down, Key::Down, Key::Right, Key::Enter]);
    let g = glass(&calc);
    assert!(g[0].starts_with("Y₁=X²-2"), "{g:?}");
    assert!(!g[7].contains("X=") && !g[7].contains("Y="), "{g:?}");
    // The bottom line shows the graph itself.
    let plot = tibasic::screen::plot(calc.ram());
    for r in 56..63 {
        for c in 0..95 {
            assert_eq!(
                calc.lcd().pixel(c, r),
                tibasic::screen::pixel_test(plot, r as i64, c as i64),
                "({r}, {c})"
            );
        }
    }
}

/// PolarGC: TRACE shows the point as R= and θ= (as `R►Pr(` and `R►Pθ(` give them): at
/// (0, −2), R = 2 and θ = −π/2 = −1.570796… (radians, the default), cut to 6 characters.
#[test]
fn format_polar_gc_shows_polar_trace_coordinates() {
    let calc = tracing_x_squared_minus_two(&[Key::Down, Key::Right, Key::Enter]);
    assert_eq!(glass(&calc)[7], "R=2     θ=⁻1.570");
}

/// A save state taken on each new screen comes back to it, and its keys go on from there.
#[test]
fn save_states_keep_the_stat_plot_and_format_screens() {
    let restore = |calc: &Calc| {
        let state = calc.state_bytes();
        let mut back = fresh();
        back.restore_bytes(std::path::Path::new("screen.state"), &state)
            .unwrap();
        assert_eq!(glass(&back), glass(calc));
        back
    };
    // The STAT PLOTS menu with the third plot selected: ENTER opens Plot3.
    let mut calc = fresh();
    keys(
        &mut calc,
        &[Key::Second, Key::YEquals, Key::Down, Key::Down],
    );
    let mut back = restore(&calc);
    keys(&mut back, &[Key::Enter]);
    assert_eq!(glass(&back)[0], "Plot3");
    // Plot3's editor with the cursor on On: ENTER turns it on.
    keys(&mut back, &[Key::Left]);
    let mut again = restore(&back);
    keys(&mut again, &[Key::Enter, Key::Second, Key::YEquals]);
    assert_eq!(glass(&again)[5], "3:Plot3…On");
    // FORMAT with the cursor on GridOn: ENTER sets it. (On the standard window the grid
    // dot (1, 1) is at column 4.7·11 = 51.7 → 52, row 3.1·9 = 27.9 → 28.)
    let mut calc = fresh();
    keys(&mut calc, &[Key::Graph]);
    assert!(!lit(&calc, 28, 52));
    keys(&mut calc, &[Key::Clear, Key::Window, Key::Right]);
    keys(&mut calc, &[Key::Down, Key::Down, Key::Down, Key::Right]);
    let mut back = restore(&calc);
    keys(&mut back, &[Key::Enter, Key::Graph]);
    assert!(lit(&back, 28, 52));
}

/// In the program editor 2nd STAT PLOT types `Plot1(`, `Scatter` and `·`: a program written
/// so from the keypad (`Plot1(Scatter,L₁,L₂,·`, `DispGraph`) draws the plot when run.
#[test]
fn a_plot_command_written_with_the_menu_in_the_program_editor_runs() {
    let mut calc = calc_with_sources(&[(
        "S",
        &format!("AxesOff\n{PIXEL_WINDOW}{{10,50}}->L1\n{{~20,~40}}->L2"),
    )])
    .unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "S").unwrap();
    calc.run_for(2_000 * 6_000);
    // PRGM NEW, the name P (ALPHA-locked: the key under 8), ENTER.
    keys(
        &mut calc,
        &[Key::Clear, Key::Prgm, Key::Left, Key::Enter, Key::K8],
    );
    keys(&mut calc, &[Key::Enter]);
    assert_eq!(glass(&calc)[0], "PROGRAM:P");
    let stat_plot = [Key::Second, Key::YEquals];
    keys(&mut calc, &stat_plot);
    assert_eq!(glass(&calc)[0], "PLOTS TYPE MARK");
    keys(&mut calc, &[Key::K1]);
    keys(&mut calc, &stat_plot);
    keys(&mut calc, &[Key::Right, Key::K1, Key::Comma]);
    keys(
        &mut calc,
        &[Key::Second, Key::K1, Key::Comma, Key::Second, Key::K2],
    );
    keys(&mut calc, &[Key::Comma]);
    keys(&mut calc, &stat_plot);
    keys(&mut calc, &[Key::Left, Key::K3]);
    assert_eq!(glass(&calc)[1], ":Plot1(Scatter,L");
    // (The editor's cursor blinks after the ·.)
    assert_eq!(glass(&calc)[2], "₁,L₂,·█");
    // ENTER, PRGM ► I/O 4: DispGraph; 2nd QUIT; run it.
    keys(&mut calc, &[Key::Enter, Key::Prgm, Key::Right, Key::K4]);
    keys(&mut calc, &[Key::Second, Key::Mode]);
    tibasic::firmware::start_program(&mut calc, "P").unwrap();
    calc.run_for(2_000 * 6_000);
    assert_eq!(graph_pixels(&calc), Pixels::from([(20, 10), (40, 50)]));
}
