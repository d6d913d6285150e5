//! `cargo xtask bench-basic`: a loop-heavy TI-BASIC program on the built-in runtime in
//! turbo (no pacing). Prints statements per second and, last, the speed-up over a real TI-82:
//! emulated seconds per host second, where emulated time is the cost model calibrated against
//! published real-calculator timings (`cargo xtask calibrate`, whose worst ratio this run
//! measures and prints too).

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use ti82_machine::Calc;
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tibasic::interp::Status;

/// Arithmetic, comparisons, list element access, a nested loop and a subprogram-free If.
pub const PROGRAM: &str = "0->S
{1,2,3,4,5,6,7,8,9,10}->L1
For(I,1,300)
For(J,1,10)
S+L1(J)*I-J->S
If fPart (I/7)=0
S-1->S
End
End
S->A";

fn run_once() -> Result<(u64, u64, f64)> {
    let mut calc = Calc::new(BasicFirmware::new());
    let tokens = tifiles::tokens::tokenize_source(PROGRAM)?;
    let var = program_var("BENCH", tokens).ok_or_else(|| anyhow!("bad program name"))?;
    install(calc.ram_mut(), &[var])?;
    start_program(&mut calc, "BENCH").map_err(|e| anyhow!(e))?;
    let fw = |c: &Calc| BasicFirmware::of(c).map(|f| (f.statements, f.status()));
    let (s0, _) = fw(&calc).ok_or_else(|| anyhow!("not the runtime firmware"))?;
    let t0 = calc.now();
    let start = Instant::now();
    loop {
        calc.run_for(6_000_000);
        let (_, status) = fw(&calc).ok_or_else(|| anyhow!("firmware vanished"))?;
        match status {
            Status::Done => break,
            Status::Error(e) => bail!("the benchmark program failed: {}", e.kind),
            _ if calc.now() - t0 > 6_000_000 * 3600 => bail!("the benchmark program did not end"),
            _ => {}
        }
    }
    let host = start.elapsed().as_secs_f64();
    let (s1, _) = fw(&calc).ok_or_else(|| anyhow!("firmware vanished"))?;
    Ok((s1 - s0, calc.now() - t0, host))
}

pub fn run() -> Result<()> {
    let mut best: Option<(u64, u64, f64)> = None;
    for round in 1..=5 {
        let (stmts, t, host) = run_once()?;
        println!(
            "round {round}: {stmts} statements, {:.2} emulated s, {:.1} ms host, {:.0} statements/s",
            t as f64 / 6e6,
            host * 1e3,
            stmts as f64 / host
        );
        if best.is_none_or(|b| host < b.2) {
            best = Some((stmts, t, host));
        }
    }
    let (stmts, t, host) = best.ok_or_else(|| anyhow!("no rounds ran"))?;
    let rows = tibasic::calibration::run_all().map_err(|e| anyhow!(e))?;
    println!("best: {:.0} statements/s", stmts as f64 / host);
    println!(
        "the program takes {:.2} s on a real TI-82 by the calibrated cost model (calibration \
         worst ratio {:.3} over {} published timings)",
        t as f64 / 6e6,
        tibasic::calibration::worst(&rows),
        rows.len()
    );
    println!(
        "speed-up: {:.0}x over a real TI-82 (calibrated cost model)",
        t as f64 / 6e6 / host
    );
    Ok(())
}
