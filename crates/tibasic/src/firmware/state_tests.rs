//! Save states of the built-in runtime that break an invariant: each is refused by `load`
//! before anything changes (the calculator keeps running what it ran), instead of panicking
//! later (`% 0`, an index past its items, a time that overflows).

use std::path::Path;

use ti82_machine::state::{StateError, StateWriter};
use ti82_machine::{Calc, Key};

use super::*;

const MS: u64 = 6_000;

fn calc_running(src: &str) -> Calc {
    let mut calc = Calc::new(BasicFirmware::new());
    let tokens = tifiles::tokens::tokenize_source(src).expect("source");
    install(calc.ram_mut(), &[program_var("T", tokens).expect("name")]).expect("fits");
    calc.run_for(50 * MS);
    start_program(&mut calc, "T").expect("installed");
    calc.run_for(300 * MS);
    calc
}

fn fw_mut(calc: &mut Calc) -> &mut BasicFirmware {
    calc.firmware_mut()
        .as_any_mut()
        .downcast_mut::<BasicFirmware>()
        .expect("runtime")
}

/// Breaks the firmware of a copy of `calc` with `poke`, saves it, and loads that state into a
/// calculator running something else: the load must fail with `Corrupt` and change nothing.
fn refused(calc: &Calc, what: &str, poke: impl FnOnce(&mut BasicFirmware)) {
    let mut broken = calc.clone_state_for_test();
    poke(fw_mut(&mut broken));
    let bytes = broken.state_bytes();
    let mut victim = calc_running("Disp 1\nPause");
    let before = victim.state_bytes();
    let e = victim
        .restore_bytes(Path::new("bad.state"), &bytes)
        .expect_err(what);
    assert!(matches!(e, StateError::Corrupt(_)), "{what}: {e}");
    assert_eq!(victim.state_bytes(), before, "{what}: half restored");
    // And it still runs.
    victim.press(Key::Enter);
    victim.run_for(200 * MS);
}

trait CloneForTest {
    fn clone_state_for_test(&self) -> Calc;
}

impl CloneForTest for Calc {
    fn clone_state_for_test(&self) -> Calc {
        let mut c = Calc::new(BasicFirmware::new());
        c.restore_bytes(Path::new("copy.state"), &self.state_bytes())
            .expect("a good state loads");
        c
    }
}

#[test]
fn prompt_position_past_its_variables_is_refused() {
    let calc = calc_running("Prompt A,B");
    assert!(matches!(
        fw_of(&calc).interp.status(),
        Status::Waiting(Wait::Input(_))
    ));
    refused(&calc, "input_idx 2 of 2", |f| f.input_idx = 2);
    refused(&calc, "input_idx huge", |f| f.input_idx = u32::MAX as usize);
}

#[test]
fn menu_selection_past_its_items_is_refused() {
    let calc = calc_running("Menu(\"M\",\"A\",A,\"B\",B\nLbl A\nLbl B");
    assert!(matches!(
        fw_of(&calc).interp.status(),
        Status::Waiting(Wait::Menu { .. })
    ));
    refused(&calc, "menu_sel 2 of 2", |f| f.menu_sel = 2);
}

#[test]
fn times_and_keys_that_would_overflow_are_refused() {
    let calc = calc_running("Pause");
    refused(&calc, "next_scan", |f| f.next_scan = u64::MAX);
    refused(&calc, "statements", |f| f.statements = u64::MAX);
    refused(&calc, "held key code", |f| f.scanner.held = Some((200, 0)));
    refused(&calc, "held key time", |f| {
        f.scanner.held = Some((1, u64::MAX))
    });
}

#[test]
fn entry_cursors_and_storage_that_break_their_rules_are_refused() {
    let calc = calc_running("Pause");
    refused(&calc, "cursor past the line", |f| {
        f.entry = EntryLine::with(b"12");
        f.entry.pos = 3;
    });
    refused(&calc, "cursor inside a two-byte token", |f| {
        f.entry = EntryLine::with(&[PREFIX_LIST, 0]);
        f.entry.pos = 1;
    });
    refused(&calc, "ENTRY storage over 128 bytes", |f| {
        f.history.entries = vec![vec![b'1'; 100], vec![b'2'; 100]];
    });
    refused(&calc, "recall past the entries", |f| f.history.recall = 5);
    refused(&calc, "blink past its period", |f| f.blink = 200);
}

#[test]
fn matrix_editors_pointing_outside_their_matrix_are_refused() {
    use crate::shell::matrix::{Field, MatrixEditor};
    let calc = calc_running("Pause");
    let editor = |field| {
        let mut m = MatrixEditor::open(0, Some((2, 3)));
        m.field = field;
        m
    };
    refused(&calc, "element past the rows", |f| {
        f.shell = Shell::Matrix(editor(Field::Element(2, 0)))
    });
    refused(&calc, "view past the rows", |f| {
        let mut m = editor(Field::Dim(0));
        m.top = 2;
        f.shell = Shell::Matrix(m)
    });
    refused(
        &calc,
        "a menu over a matrix editor that is not there",
        |f| {
            f.shell = Shell::Catalog {
                cur: CatalogCursor::open(0),
                from: CatalogFrom::Matrix,
            }
        },
    );
    refused(&calc, "100 rows", |f| {
        f.shell = Shell::Matrix(MatrixEditor::open(0, Some((100, 1))))
    });
}

fn fw_of(calc: &Calc) -> &BasicFirmware {
    BasicFirmware::of(calc).expect("runtime")
}

/// The interpreter's part, written by hand: a `Menu(` wait with no items (the firmware would
/// take a selection `% 0`), a `Prompt` with none, a store to list 200.
#[test]
fn interpreter_states_with_impossible_waits_are_refused() {
    let frame = |w: &mut StateWriter| {
        w.u32(1);
        w.bytes(b"T");
        w.bytes(&[PAUSE]);
        w.u32(0);
        w.u32(0);
    };
    let mut menu = StateWriter::default();
    frame(&mut menu);
    menu.u8(2); // waiting
    menu.u8(1); // Menu(
    menu.u8(3); // title: a string
    menu.bytes(b"M");
    menu.u32(0); // no items
    let mut prompt = StateWriter::default();
    frame(&mut prompt);
    prompt.u8(2);
    prompt.u8(2); // Input/Prompt
    prompt.u32(0);
    let mut list = StateWriter::default();
    frame(&mut list);
    list.u8(2);
    list.u8(4); // Get(
    list.u8(1); // a list...
    list.u8(200); // ...number 201
    let mut orphan = StateWriter::default();
    orphan.u32(0); // no frame...
    orphan.u8(1); // ...but running
    for (what, w) in [
        ("menu", menu),
        ("prompt", prompt),
        ("list", list),
        ("orphan", orphan),
    ] {
        let mut r = ti82_machine::state::StateReader::new(&w.0);
        assert!(
            matches!(Interp::load(&mut r), Err(StateError::Corrupt(_))),
            "{what}"
        );
    }
}

/// A LINK transfer screen (or a question about an arriving variable) with no transfer behind
/// it would wait for ever, ON and 2nd QUIT doing nothing; a transfer under another screen, or
/// of the other direction, is as broken.
#[test]
fn link_screens_without_their_transfer_are_refused() {
    let mut calc = calc_running("Disp 1");
    for k in [
        Key::Clear,
        Key::Second,
        Key::XTTheta,
        Key::Right,
        Key::Enter,
    ] {
        tap(&mut calc, k);
    }
    assert!(matches!(
        fw_of(&calc).shell,
        Shell::Link(LinkScreen::Transfer {
            phase: Phase::Waiting,
            ..
        })
    ));
    refused(&calc, "Waiting without a receiver", |f| f.transfer = None);
    refused(&calc, "a question without a receiver", |f| {
        f.transfer = None;
        f.shell = Shell::Link(LinkScreen::BackupWarning { sel: 0 });
    });
    refused(&calc, "a receiver under the Done screen", |f| {
        f.shell = Shell::Link(LinkScreen::Transfer {
            phase: Phase::Done,
            lines: Vec::new(),
        });
    });
    refused(&calc, "a receiver under Transmitting", |f| {
        f.shell = Shell::Link(LinkScreen::Transfer {
            phase: Phase::Transmitting,
            lines: Vec::new(),
        });
    });
}

#[test]
fn setup_lists_and_results_out_of_range_are_refused() {
    let calc = calc_running("Disp 1\nPause");
    refused(&calc, "SetUp… Ylist past L₆", |f| {
        f.st.stat_setup.two[1] = 6
    });
    refused(&calc, "SetUp… Freq past L₆", |f| {
        f.st.stat_setup.one[1] = 7
    });
    refused(&calc, "results scrolled past their end", |f| {
        f.st.results_view = Some(crate::stats::ResultsView {
            title: b"1-Var Stats".to_vec(),
            lines: vec![b"n=1".to_vec()],
            top: 2,
        })
    });
}

/// 2nd STAT PLOT (menu and editor) and FORMAT come back from a save state as they were,
/// with the FORMAT settings of version 9 (PolarGC, CoordOff); their cursors pointing past
/// their options are refused.
#[test]
fn stat_plot_and_format_screens_round_trip_and_bad_cursors_are_refused() {
    use crate::shell::format::FormatCursor;
    use crate::shell::statplot::StatPlotScreen;
    let calc = calc_running("Pause");
    for shell in [
        Shell::StatPlot(StatPlotScreen::Menu { sel: 4 }),
        Shell::StatPlot(StatPlotScreen::Editor {
            plot: 2,
            row: 3,
            col: 5,
        }),
        Shell::Format(FormatCursor { row: 5, col: 1 }),
    ] {
        let mut c = calc.clone_state_for_test();
        fw_mut(&mut c).shell = shell.clone();
        fw_mut(&mut c).st.modes.polar_gc = true;
        fw_mut(&mut c).st.modes.coord_off = true;
        let back = c.clone_state_for_test();
        assert_eq!(fw_of(&back).shell, shell);
        assert!(fw_of(&back).st.modes.polar_gc && fw_of(&back).st.modes.coord_off);
    }
    refused(&calc, "FORMAT line 6", |f| {
        f.shell = Shell::Format(FormatCursor { row: 6, col: 0 })
    });
    refused(&calc, "an option on FORMAT's tab line", |f| {
        f.shell = Shell::Format(FormatCursor { row: 0, col: 1 })
    });
    refused(&calc, "STAT PLOTS item 6", |f| {
        f.shell = Shell::StatPlot(StatPlotScreen::Menu { sel: 5 })
    });
    refused(&calc, "a seventh list", |f| {
        f.shell = Shell::StatPlot(StatPlotScreen::Editor {
            plot: 0,
            row: 2,
            col: 6,
        })
    });
}

#[test]
fn table_cursors_out_of_range_are_refused() {
    let calc = calc_running("Disp 1\nPause");
    let table = |row, col| {
        let data = crate::table::TableData {
            first: 0,
            functions: vec![0x10],
            xs: vec![Real::ZERO],
            ys: vec![vec![None]],
        };
        let mut t = crate::shell::table::TableScreen::new(data);
        t.row = row;
        t.col = col;
        Shell::Table(t)
    };
    refused(&calc, "table cursor past the rows", |f| {
        f.shell = table(6, 0)
    });
    refused(&calc, "table cursor past the columns", |f| {
        f.shell = table(0, 3)
    });
}

/// What a state with no statistics results on the screen and no menu over a screen adds
/// after version 8: version 9's two FORMAT settings, version 10's results flag, SetUp…
/// lists and parked-screen flag.
const AFTER_V8: usize = 2 + 1 + 5 + 1;

/// A version 8 state (before the STAT PLOT and FORMAT screens) still loads, with RectGC
/// and CoordOn; a version 8 state naming a version 9 screen is refused.
#[test]
fn version_8_states_still_load() {
    let calc = calc_running("Pause");
    let mut w = StateWriter::default();
    fw_of(&calc).save(&mut w);
    let mut v8 = w.0.clone();
    assert_eq!(v8[0], 10);
    v8[0] = 8;
    v8.truncate(v8.len() - AFTER_V8);
    let mut f = BasicFirmware::new();
    f.st.modes.polar_gc = true;
    f.load(&v8).expect("a version 8 state loads");
    assert!(!f.st.modes.polar_gc && !f.st.modes.coord_off);
    assert_eq!(f.shell, fw_of(&calc).shell);
    // The same with the FORMAT screen open: its tag did not exist in version 8.
    let mut c = calc.clone_state_for_test();
    fw_mut(&mut c).shell = Shell::Format(crate::shell::format::FormatCursor::open());
    let mut w = StateWriter::default();
    fw_of(&c).save(&mut w);
    let mut v8 = w.0;
    v8[0] = 8;
    v8.truncate(v8.len() - AFTER_V8);
    assert!(matches!(
        BasicFirmware::new().load(&v8),
        Err(StateError::Corrupt(_))
    ));
}

/// A menu open over a screen's line comes back from a save state with its screen parked
/// under it; a menu "over a screen" without one, or a parked screen without its menu, is
/// refused.
#[test]
fn menus_over_screens_round_trip_and_lone_halves_are_refused() {
    let mut calc = calc_running("Disp 1\nPause");
    calc.press(Key::Enter);
    calc.run_for(300 * MS);
    for k in [Key::YEquals, Key::XTTheta, Key::Math] {
        tap(&mut calc, k);
    }
    assert!(matches!(
        fw_of(&calc).shell,
        Shell::Catalog {
            from: CatalogFrom::Screen,
            ..
        }
    ));
    let mut back = calc.clone_state_for_test();
    assert_eq!(fw_of(&back).parked, fw_of(&calc).parked);
    // 3 (³) goes into Y₁ of the copy too.
    tap(&mut back, Key::K3);
    assert!(matches!(&fw_of(&back).shell, Shell::YEditor(ed) if ed.line.tokens == [b'X', 0x0F]));
    refused(&calc, "a menu over a screen with none parked", |f| {
        f.parked = None
    });
    refused(&calc, "a parked screen under no menu", |f| {
        f.shell = Shell::Home
    });
    refused(&calc, "a menu parked under a menu", |f| {
        f.parked = Some(Box::new(f.shell.clone()))
    });
}

/// The ZOOM menu open over the graph (TRACE) comes back from a save state with the graph
/// parked under it: CLEAR in the copy goes back to tracing.
#[test]
fn the_zoom_menu_over_the_graph_round_trips() {
    let mut calc = calc_running("Disp 1\nPause");
    calc.press(Key::Enter);
    calc.run_for(300 * MS);
    for k in [Key::YEquals, Key::XTTheta, Key::Trace, Key::Zoom] {
        tap(&mut calc, k);
    }
    assert!(matches!(
        fw_of(&calc).parked.as_deref(),
        Some(Shell::Graph(Some(_)))
    ));
    let mut back = calc.clone_state_for_test();
    assert_eq!(fw_of(&back).parked, fw_of(&calc).parked);
    tap(&mut back, Key::Clear);
    assert!(matches!(fw_of(&back).shell, Shell::Graph(Some(_))));
    assert!(fw_of(&back).parked.is_none());
}
