//! What the keypad tests share: the glass read back as text, and keys tapped as a quick
//! human does (60 ms down, 60 ms up).
#![allow(dead_code)]

use ti82_machine::{Calc, Key};

/// The glass read back as text, one string per line, trailing blanks cut.
pub fn glass(calc: &Calc) -> Vec<String> {
    let screen = calc.lcd();
    tibasic::glass::read(|x, y| screen.pixel(x, y))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Lines of the glass with the entry cursor taken out: its glyphs (spec §8.4: █ ⇧ Ⓐ and
/// their underlined forms, the full line's ▒) read as the blank cell it blinks with, trailing
/// blanks cut. For comparing screens taken at different points of the cursor's blink. (The
/// insert cursor's glyph is the underscore's: it reads as `_` and stays.)
pub fn without_cursor(lines: &[String]) -> Vec<String> {
    const CURSORS: [&str; 7] = ["█", "⇧\u{332}", "A\u{332}", "⇧", "Ⓐ", "▁", "▒"];
    lines
        .iter()
        .map(|l| {
            let mut l = l.clone();
            for c in CURSORS {
                l = l.replace(c, " ");
            }
            l.trim_end().to_string()
        })
        .collect()
}

/// Taps `ks` one after the other.
pub fn keys(calc: &mut Calc, ks: &[Key]) {
    for &k in ks {
        tibasic::firmware::tap(calc, k);
    }
}

/// Whether the text cell at `row`, `cell` is in inverse video (its bottom-right pixel, blank
/// in every glyph of the large font, is dark).
pub fn inverted(calc: &Calc, row: usize, cell: usize) -> bool {
    calc.lcd().pixel(cell * 6 + 5, row * 8 + 7)
}

/// Runs `calc` with a computer on the cable `pc` (`side` polls the computer's state machine),
/// following `script`: (a key to tap first, if any; emulated ms to run after it).
pub fn with_computer(
    calc: &mut Calc,
    pc: &mut tilink::VirtualCable,
    side: &mut dyn FnMut(&mut tilink::TimedPort) -> tilink::Wake,
    script: &[(Option<Key>, u64)],
) {
    const MS: u64 = 6_000;
    for &(key, ms) in script {
        if let Some(k) = key {
            calc.press(k);
            let until = calc.now() + 60 * MS;
            pc.run(calc, until, &mut *side);
            calc.release(k);
            let until = calc.now() + 60 * MS;
            pc.run(calc, until, &mut *side);
        }
        let until = calc.now() + ms * MS;
        pc.run(calc, until, &mut *side);
    }
}

/// A computer's side for [`with_computer`]: polls a link sequence (`poll`) and keeps its
/// result in `out` once it ends.
pub fn polling<'a, T>(
    mut poll: impl FnMut(&mut tilink::TimedPort) -> tilink::Progress<T> + 'a,
    out: &'a mut Option<Result<T, tilink::LinkError>>,
) -> impl FnMut(&mut tilink::TimedPort) -> tilink::Wake + 'a {
    move |ep| match poll(ep) {
        tilink::Progress::Pending(w) => w,
        tilink::Progress::Done(r) => {
            out.get_or_insert(r);
            tilink::Wake::NEVER
        }
    }
}

/// The commands on a calculator's wire, in order (its link log decoded).
pub fn commands(calc: &Calc) -> Vec<String> {
    tilink::log::packets_from_levels(calc.hardware().link.log())
        .iter()
        .map(|p| match &p.packet {
            Ok(pk) => pk.cmd.to_string(),
            Err(e) => format!("broken: {e}"),
        })
        .collect()
}

/// The lit pixels of the graph screen in RAM (rows 0-62, columns 0-94).
pub fn graph_pixels(calc: &Calc) -> std::collections::BTreeSet<(i64, i64)> {
    let plot = tibasic::screen::plot(calc.ram());
    let mut out = std::collections::BTreeSet::new();
    for r in 0..63 {
        for c in 0..95 {
            if tibasic::screen::pixel_test(plot, r, c) {
                out.insert((r, c));
            }
        }
    }
    out
}

/// Real variable `v` (a letter's token) if it is defined.
pub fn real_var(calc: &Calc, v: u8) -> Option<f64> {
    let name = tifiles::var::VarName::from_bytes(&[v]);
    match tifiles::vat::read(calc.ram(), tifiles::var::VarType::Real, &name) {
        Ok(Some(tifiles::var::Variable {
            data: tifiles::var::VarData::Real(f),
            ..
        })) => Some(f.to_f64()),
        _ => None,
    }
}

/// A calculator that has run program `src` (as `P`) for 20 emulated seconds, which must end
/// without an error.
pub fn run_program(src: &str) -> Calc {
    let mut calc = tibasic::firmware::calc_with_sources(&[("P", src)]).unwrap();
    calc.run_for(100 * 6_000);
    tibasic::firmware::start_program(&mut calc, "P").unwrap();
    calc.run_for(20_000 * 6_000);
    let fw = tibasic::firmware::BasicFirmware::of(&calc).unwrap();
    assert!(fw.last_error().is_none(), "{src}: {:?}", fw.last_error());
    calc
}

/// Column `c` (0-2) of a screen laid out in 32-pixel columns (the list editor, the table):
/// the header and six rows, as text.
pub fn column(calc: &Calc, c: usize) -> Vec<String> {
    let screen = calc.lcd();
    tibasic::glass::read_strip(|x, y| screen.pixel(x, y), c * 32, 5)[..7]
        .iter()
        .map(|l| l.trim().to_string())
        .collect()
}

/// MODE, then Fix 2 chosen (the second line, its third option) and ENTER.
pub const MODE_FIX_2: [ti82_machine::Key; 6] = {
    use ti82_machine::Key::*;
    [Mode, Down, Right, Right, Right, Enter]
};
