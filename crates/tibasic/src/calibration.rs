//! The measured programs the cost model ([`crate::cost`]) is calibrated against: published
//! stopwatch timings of real calculators, each with its program, the calculator, the time and
//! where it was published. [`run`] times a program on the runtime in emulated time (so the
//! result is the same on every host), and [`report`] renders the comparison that
//! `cargo xtask calibrate --write` keeps in `docs/tibasic.md`.

use ti82_machine::{Calc, Key};

use crate::firmware::{install, program_var, tap, BasicFirmware, KEY_HOLD_T};
use crate::interp::Status;

/// T-states per second.
const HZ: f64 = 6_000_000.0;

/// TI-83 Plus seconds per pixel of the run indicator in the tibasicdev table: its
/// `While A≤2000:A+1→A:End` loop (2001 passes) moved the indicator 184 pixels, and a TI-83 Plus
/// runs that loop 65 times a second (Celtic Kane, "TI-83 Delay"): 2001 / 65 / 184 s.
const TI83P_S_PER_PIXEL: f64 = 2001.0 / 65.0 / 184.0;
/// Passes of the tibasicdev harness `For(A,0,2000)`.
const PASSES: f64 = 2001.0;
/// TI-83 Plus time of one pass of an empty `For(` loop (36 pixels for 2001 passes).
const TI83P_FOR_PASS_S: f64 = 36.0 * TI83P_S_PER_PIXEL / PASSES;
/// How much slower a 6 MHz TI-83 Plus draws than a TI-84 Plus SE, from the two commands both
/// tables time (Horizontal: 625 pixels net vs 34.5 ms; Vertical: 447 pixels net vs 24 ms).
fn ti84_to_ti83p() -> f64 {
    let per_pass = |px: f64| px * TI83P_S_PER_PIXEL / PASSES * 1e3;
    (per_pass(625.0) / 34.5 + per_pass(447.0) / 24.0) / 2.0
}

/// Where a figure comes from.
pub const SOURCE_TEST2013: &str =
    "Eddie (edspi31415), \"TI-8x Speed Test - A slowdown for the TI-84+?\", \
edspi31415.blogspot.com, 24 Jan 2013 (two runs: 38.73 s, 38.78 s)";
pub const SOURCE_TIMINGS: &str =
    "tibasicdev.wikidot.com/timings (mirrored as \"TI-BASIC:Timings\" \
on learn.cemetech.net), TI-83 Plus OS 1.19, run-indicator pixels for 2001 passes";
pub const SOURCE_DELAY: &str = "Celtic Kane, \"TI-83 Delay: Temporary pause during a program\", \
celtickane.com: a TI-83 Plus increments a variable in a While loop 65 times a second";
pub const SOURCE_BETTER: &str = "tibasicdev.wikidot.com \"better code timings\", TI-84 Plus SE \
OS 2.43 (kgmstwo), ms per command";

/// One published measurement.
#[derive(Clone, Debug)]
pub struct Measured {
    pub name: &'static str,
    /// The calculator the time was measured on.
    pub model: &'static str,
    /// The program, in the project's tokenizer spelling (`->` for →, `~` for the negation).
    pub program: &'static str,
    /// Seconds on the real calculator.
    pub real_s: f64,
    pub source: &'static str,
    /// How `real_s` follows from the published figure.
    pub derivation: String,
}

fn from_pixels(name: &'static str, program: &'static str, pixels: f64) -> Measured {
    Measured {
        name,
        model: "TI-83 Plus",
        program,
        real_s: pixels * TI83P_S_PER_PIXEL,
        source: SOURCE_TIMINGS,
        derivation: format!("{pixels} pixels × {TI83P_S_PER_PIXEL:.4} s"),
    }
}

fn from_ti84(name: &'static str, program: &'static str, passes: f64, ms: f64) -> Measured {
    let k = ti84_to_ti83p();
    let pass_s = ms * 1e-3 * k + TI83P_FOR_PASS_S;
    Measured {
        name,
        model: "TI-84 Plus SE",
        program,
        real_s: passes * pass_s,
        source: SOURCE_BETTER,
        derivation: format!(
            "{passes} × ({ms} ms × {k:.2} + {:.2} ms loop)",
            TI83P_FOR_PASS_S * 1e3
        ),
    }
}

/// `program` after the drawing programs' graph setup: axes off and a window where one unit is
/// one pixel (Xmin 0, Xmax 94, Ymin -62, Ymax 0), so `Pt-On(15,~15)` is pixel (15,15).
macro_rules! pixel_window {
    ($program:literal) => {
        concat!("AxesOff\n0->Xmin\n94->Xmax\n~62->Ymin\n0->Ymax\n", $program)
    };
}

/// Every measured program.
pub fn programs() -> Vec<Measured> {
    vec![
        Measured {
            name: "TEST2013",
            model: "TI-82",
            program: "0->A\nClrHome\nLbl 1\nOutput(1,1,A)\nIS>(A,2013)\nGoto 1",
            real_s: (38.73 + 38.78) / 2.0,
            source: SOURCE_TEST2013,
            derivation: "mean of two runs".into(),
        },
        Measured {
            name: "WHILE-INC",
            model: "TI-83 Plus",
            program: "0->A\nWhile A<=2000\nA+1->A\nEnd",
            real_s: 2001.0 / 65.0,
            source: SOURCE_DELAY,
            derivation: "2001 passes at 65 a second".into(),
        },
        from_pixels("FOR-EMPTY", "For(A,0,2000)\nEnd", 36.0),
        from_pixels("EXPR-VAR", "For(A,0,2000)\nA\nEnd", 78.0),
        from_pixels("STORE-SUM", "For(A,0,2000)\n5+6->B\nEnd", 106.0),
        from_pixels("LIST-ELEM", "{1,2,3}->L1\nFor(A,0,2000)\nL1(1)\nEnd", 120.0),
        from_pixels("IF-FALSE", "For(A,0,2000)\nIf 0\n\nEnd", 79.0),
        from_pixels("IF-THEN-TRUE", "For(A,0,2000)\nIf 1\nThen\nEnd\nEnd", 91.0),
        from_pixels("GETKEY", "For(A,0,2000)\ngetKey\nEnd", 61.0),
        from_pixels("GETKEY-STORE", "For(A,0,2000)\ngetKey->B\nEnd", 88.0),
        from_pixels(
            "PXL-ON",
            pixel_window!("For(A,0,2000)\nPxl-On(15,15)\nEnd"),
            76.0,
        ),
        from_pixels(
            "PT-ON",
            pixel_window!("For(A,0,2000)\nPt-On(15,~15)\nEnd"),
            112.0,
        ),
        from_pixels(
            "LINE-2",
            pixel_window!("For(A,0,2000)\nLine(15,~15,16,~15)\nEnd"),
            130.0,
        ),
        from_pixels(
            "LINE-16",
            pixel_window!("For(A,0,2000)\nLine(15,~15,30,~15)\nEnd"),
            262.0,
        ),
        from_pixels(
            "HORIZONTAL",
            pixel_window!("For(A,0,2000)\nHorizontal ~15\nEnd"),
            661.0,
        ),
        from_pixels(
            "VERTICAL",
            pixel_window!("For(A,0,2000)\nVertical 15\nEnd"),
            483.0,
        ),
        from_pixels(
            "OUTPUT-NUM",
            "ClrHome\nFor(A,0,2000)\nOutput(3,2,A)\nEnd",
            134.0,
        ),
        from_pixels(
            "OUTPUT-TEXT",
            "ClrHome\nFor(A,0,2000)\nOutput(3,2,\"I DIE!\")\nEnd",
            166.0,
        ),
        from_pixels(
            "OUTPUT-CLRHOME",
            "For(A,0,2000)\nOutput(3,2,\"I DIE!\")\nClrHome\nEnd",
            302.0,
        ),
        from_pixels(
            "DISP-CLRHOME",
            "For(A,0,2000)\nDisp \"I DIE!\"\nClrHome\nEnd",
            410.0,
        ),
        from_pixels(
            "TEXT-NUM",
            pixel_window!("For(A,0,2000)\nText(16,12,A)\nEnd"),
            216.0,
        ),
        from_pixels(
            "TEXT-CLRHOME",
            pixel_window!("For(A,0,2000)\nText(16,12,\"I DIE!\")\nClrHome\nEnd"),
            329.0,
        ),
        from_ti84(
            "CLRDRAW",
            "0->Xmin\n94->Xmax\n~62->Ymin\n0->Ymax\nFor(A,1,100)\nClrDraw\nEnd",
            100.0,
            100.0,
        ),
        from_ti84(
            "RECALLPIC",
            pixel_window!("StorePic 1\nFor(A,1,100)\nRecallPic 1\nEnd"),
            100.0,
            27.0,
        ),
        from_ti84(
            "STOREPIC",
            pixel_window!("For(A,1,100)\nStorePic 1\nEnd"),
            100.0,
            3.5,
        ),
    ]
}

/// Emulated seconds `program` takes on the runtime, from the ENTER that starts it to its
/// end, to 1 ms.
pub fn run(program: &str) -> Result<f64, String> {
    let mut calc = Calc::new(BasicFirmware::new());
    let tokens = tifiles::tokens::tokenize_source(program).map_err(|e| e.to_string())?;
    let var = program_var("CALIB", tokens).ok_or("bad program name")?;
    install(calc.ram_mut(), &[var]).map_err(|e| e.to_string())?;
    tap(&mut calc, Key::Clear);
    tap(&mut calc, Key::Prgm);
    tap(&mut calc, Key::Enter);
    calc.press(Key::Enter);
    let t0 = calc.now();
    let status = |c: &Calc| BasicFirmware::of(c).map(|f| (f.status(), f.program_active()));
    let step = 6_000;
    let mut started = false;
    loop {
        calc.run_for(step);
        let elapsed = calc.now() - t0;
        if elapsed >= KEY_HOLD_T && elapsed < KEY_HOLD_T + step {
            calc.release(Key::Enter);
        }
        let (st, active) = status(&calc).ok_or("not the runtime firmware")?;
        match st {
            Status::Running | Status::Waiting(_) => started = true,
            Status::Done if started || !active => {
                return Ok(elapsed as f64 / HZ);
            }
            Status::Error(e) => return Err(format!("program failed: {}", e.kind)),
            _ => {}
        }
        if elapsed > 600 * 6_000_000 {
            return Err("the program did not end within 600 emulated seconds".into());
        }
    }
}

/// One line of the comparison.
#[derive(Clone, Debug)]
pub struct Row {
    pub measured: Measured,
    pub ours_s: f64,
}

impl Row {
    /// ours / real.
    pub fn ratio(&self) -> f64 {
        self.ours_s / self.measured.real_s
    }

    /// The larger of ours/real and real/ours.
    pub fn error(&self) -> f64 {
        let r = self.ratio();
        r.max(1.0 / r)
    }
}

/// Runs every measured program.
pub fn run_all() -> Result<Vec<Row>, String> {
    programs()
        .into_iter()
        .map(|m| {
            let ours_s = run(m.program).map_err(|e| format!("{}: {e}", m.name))?;
            Ok(Row {
                measured: m,
                ours_s,
            })
        })
        .collect()
}

/// The worst ratio of a run (max over programs of max(ours/real, real/ours)).
pub fn worst(rows: &[Row]) -> f64 {
    rows.iter().map(Row::error).fold(1.0, f64::max)
}

/// The text between the calibration markers of `docs/tibasic.md`: the charges, the programs
/// with their sources, and the comparison.
pub fn report(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| charge | T-states | covers | fitted to |\n|---|---|---|---|\n");
    for c in crate::cost::TABLE {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            c.name, c.t, c.covers, c.basis
        ));
    }
    s.push_str("\n| program | calculator | real s | ours s | ours/real |\n|---|---|---|---|---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {:.2} | {:.2} | {:.3} |\n",
            r.measured.name,
            r.measured.model,
            r.measured.real_s,
            r.ours_s,
            r.ratio()
        ));
    }
    s.push_str(&format!("\nworst ratio: {:.3}\n\n", worst(rows)));
    s.push_str("Programs (one statement a line) and where each time comes from:\n\n");
    for r in rows {
        let m = &r.measured;
        s.push_str(&format!(
            "- **{}** `{}` — {}; {}.\n",
            m.name,
            m.program.replace('\n', ":"),
            m.source,
            m.derivation
        ));
    }
    s
}

/// The markers around the generated part of `docs/tibasic.md`.
pub const BEGIN: &str = "<!-- calibration: generated by `cargo xtask calibrate --write` -->";
pub const END: &str = "<!-- calibration: end -->";

/// `doc` with the text between the markers replaced by `body`, or None without markers.
pub fn splice(doc: &str, body: &str) -> Option<String> {
    splice_between(doc, BEGIN, END, body)
}

/// The generated part of `doc`, if it has the markers.
pub fn generated(doc: &str) -> Option<&str> {
    generated_between(doc, BEGIN, END)
}

/// `doc` with the text between `begin` and `end` replaced by `body`, or None without them.
pub fn splice_between(doc: &str, begin: &str, end: &str, body: &str) -> Option<String> {
    let a = doc.find(begin)? + begin.len();
    let b = doc[a..].find(end)? + a;
    Some(format!("{}\n{}{}", &doc[..a], body, &doc[b..]))
}

/// The text between `begin` and `end` in `doc`.
pub fn generated_between<'a>(doc: &'a str, begin: &str, end: &str) -> Option<&'a str> {
    let a = doc.find(begin)? + begin.len();
    let b = doc[a..].find(end)? + a;
    Some(doc[a..b].trim_start_matches('\n'))
}
