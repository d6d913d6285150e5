//! MANCALA's own pace at a real TI-82's speed: how long (emulated time, so the same on every
//! host) drawing the board, a move and the CALC VS CALC connection take on the built-in
//! runtime with its calibrated cost model. `cargo xtask calibrate --write` puts the figures in
//! `docs/mancala-programs.md`; a test checks they are current.

use ti82_machine::cable::{connect, run_pair, Linked};
use ti82_machine::{Calc, Key};
use tibasic::firmware::program_names;
use tifiles::var::Variable;

use crate::{builtin_calc, glass_without_indicator, press, read_board, HarnessError, Table, MS};

/// One measured step.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub what: &'static str,
    /// Emulated seconds from the key that starts it to the last change of the screen or `L1`.
    pub seconds: f64,
}

/// Quiet (ms) after which a step is over.
const QUIET_MS: u64 = 1_500;

/// Presses `k` and returns the emulated seconds until the screen (less the run indicator) and
/// `L1` last changed, once they have been quiet for [`QUIET_MS`].
fn time_key(calc: &mut Calc, k: Key) -> Result<f64, HarnessError> {
    let look = |c: &Calc| (glass_without_indicator(c), read_board(c.ram()));
    let t0 = calc.now();
    calc.press(k);
    let mut last = look(calc);
    let mut last_change = t0;
    let mut released = false;
    loop {
        calc.run_for(MS);
        if !released && calc.now() - t0 >= 30 * MS {
            calc.release(k);
            released = true;
        }
        let now = look(calc);
        if now != last {
            last = now;
            last_change = calc.now();
        }
        if calc.now() - last_change >= QUIET_MS * MS && released {
            return Ok((last_change - t0) as f64 / 6e6);
        }
        if calc.now() - t0 > 600_000 * MS {
            return Err(HarnessError::Setup(format!(
                "{k:?}: the screen never settled"
            )));
        }
    }
}

/// Opens the PRGM menu at `name` (ENTER still to press).
fn select_program(calc: &mut Calc, name: &str) -> Result<(), HarnessError> {
    let idx = program_names(calc.ram())
        .iter()
        .position(|n| n.as_slice() == name.as_bytes())
        .ok_or_else(|| HarnessError::Setup(format!("{name} is not in memory")))?;
    press(calc, Key::Clear);
    press(calc, Key::Prgm);
    for _ in 0..idx {
        press(calc, Key::Down);
    }
    Ok(())
}

/// Runs program `name` from the home screen and times it.
fn time_program(calc: &mut Calc, name: &str) -> Result<f64, HarnessError> {
    select_program(calc, name)?;
    press(calc, Key::Enter);
    time_key(calc, Key::Enter)
}

/// The seconds between the second player's PLAY and its `L1` holding the first player's board
/// (its first successful `Get(L1)` from a calculator waiting at `CONNECTING...`).
fn connect_time(programs: &[Variable]) -> Result<f64, HarnessError> {
    let mut a = Table::new(programs)?.calc;
    let mut b = Table::new(programs)?.calc;
    // WHO'S FIRST? ME on A, OPPONENT on B (MAIN MENU: 2, 2, 3, who, 4).
    for (calc, who) in [(&mut a, Key::K1), (&mut b, Key::K2)] {
        for k in [Key::K2, Key::K2, Key::K3, who, Key::K4] {
            press(calc, k);
        }
    }
    let (mut a, mut b) = connect(a, b, crate::CVC_LATENCY);
    // A: PLAY, then CONNECTING... at Pause.
    let step = |a: &mut Linked, b: &mut Linked, k: Option<(bool, Key)>, ms: u64| {
        if let Some((on_a, key)) = k {
            let c = if on_a { &mut *a } else { &mut *b };
            c.press(key);
        }
        run_pair(a, b, ms * MS);
        if let Some((on_a, key)) = k {
            let c = if on_a { &mut *a } else { &mut *b };
            c.release(key);
        }
    };
    step(&mut a, &mut b, Some((true, Key::K1)), 30);
    step(&mut a, &mut b, None, 3_000);
    step(&mut a, &mut b, Some((false, Key::K1)), 30);
    let t0 = b.now() - 30 * MS;
    // B marks its L1(16) -1 while connecting and takes a board at move 0 from A.
    let mut connecting = false;
    let mut waited = 30;
    loop {
        match crate::read_moves(b.ram()) {
            Some(-1) => connecting = true,
            Some(0) if connecting => return Ok((b.now() - t0) as f64 / 6e6),
            _ => {}
        }
        if waited > 60_000 {
            return Err(HarnessError::Setup(
                "the second calculator never pulled the board".into(),
            ));
        }
        step(&mut a, &mut b, None, 1);
        waited += 1;
    }
}

/// Every measured step of MANCALA on the built-in runtime, in the order they are played.
pub fn measure(programs: &[Variable]) -> Result<Vec<Step>, HarnessError> {
    let mut calc = builtin_calc(programs)?;
    calc.run_for(100 * MS);
    let steps = [
        (
            "MANBOARD: drawing the board picture (from ENTER to `Done`)",
            time_program(&mut calc, "MANBOARD")?,
        ),
        (
            "MANCALA: starting, to the main menu",
            time_program(&mut calc, "MANCALA")?,
        ),
        (
            "PLAY: drawing the board with its rock counts",
            time_key(&mut calc, Key::K1)?,
        ),
        (
            "► : moving the arrow one hole",
            time_key(&mut calc, Key::Right)?,
        ),
        ("◄ : moving the arrow back", time_key(&mut calc, Key::Left)?),
        (
            "ENTER on hole 1 (4 rocks): sowing and redrawing the board",
            time_key(&mut calc, Key::Enter)?,
        ),
        (
            "the polling loops' pause between two `Get(` attempts (`For(I,1,150):End`)",
            tibasic::calibration::run("For(I,1,150)\nEnd").map_err(HarnessError::Setup)?,
        ),
        (
            "CALC VS CALC: second player's PLAY until it holds the first player's board",
            connect_time(programs)?,
        ),
    ];
    Ok(steps
        .into_iter()
        .map(|(what, seconds)| Step { what, seconds })
        .collect())
}

/// The generated part of `docs/mancala-programs.md`.
pub fn report(steps: &[Step]) -> String {
    let mut s = String::from("| step | seconds at real speed |\n|---|---|\n");
    for st in steps {
        s.push_str(&format!("| {} | {:.2} |\n", st.what, st.seconds));
    }
    s
}

/// The markers around the generated part of `docs/mancala-programs.md`.
pub const BEGIN: &str = "<!-- pace: generated by `cargo xtask calibrate --write` -->";
pub const END: &str = "<!-- pace: end -->";
