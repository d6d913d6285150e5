//! `cargo xtask bench-debugger`: what an attached debugger costs (docs/debugger.md), each
//! figure a ratio against the same work without a debugger, measured in the same run in
//! alternating rounds.
//!
//! - TI-BASIC: `bench-basic`'s program on the built-in runtime, detached; attached with no
//!   breakpoint; attached with a breakpoint in another program (statements checked, never
//!   stopping). Goal: attached with no breakpoint at least 90 % of detached.
//! - Z80: the machine benchmark's program (`crates/machine/tests/roms/bench.bin`) for a fixed
//!   span of emulated time, detached and with an instruction breakpoint set where it never
//!   goes (every instruction checked). Goal: at least 50 %.

use std::time::Instant;

use anyhow::{anyhow, Result};
use ti82_machine::debug::Z80Debug;
use ti82_machine::{Calc, RomFirmware, RomImage};
use tibasic::debug::{Breakpoint, HitCondition};
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tibasic::interp::Status;

use crate::bench_basic::PROGRAM;

const ROUNDS: usize = 9;
/// Runs of the TI-BASIC program per round (one run takes about 10 ms).
const BASIC_RUNS: usize = 10;
/// Emulated time the Z80 program runs per round (60 s).
const Z80_SPAN: u64 = 360_000_000;

#[derive(Clone, Copy, PartialEq)]
enum Basic {
    Detached,
    Attached,
    BreakElsewhere,
}

/// Host seconds for one run of the program.
fn basic_round(how: Basic) -> Result<f64> {
    let mut calc = Calc::new(BasicFirmware::new());
    let tokens = tifiles::tokens::tokenize_source(PROGRAM)?;
    let var = program_var("BENCH", tokens).ok_or_else(|| anyhow!("bad program name"))?;
    let other = program_var("OTHER", tifiles::tokens::tokenize_source("1->B")?)
        .ok_or_else(|| anyhow!("bad program name"))?;
    install(calc.ram_mut(), &[var, other])?;
    if how != Basic::Detached {
        let fw = calc
            .firmware_mut()
            .as_any_mut()
            .downcast_mut::<BasicFirmware>()
            .ok_or_else(|| anyhow!("not the runtime"))?;
        fw.attach_debugger();
        if how == Basic::BreakElsewhere {
            if let Some(d) = fw.debugger() {
                d.breakpoints.push(Breakpoint {
                    id: 1,
                    program: b"OTHER".to_vec(),
                    offset: 0,
                    condition: None,
                    hit: HitCondition::Always,
                    log: None,
                    hits: 0,
                });
            }
        }
    }
    start_program(&mut calc, "BENCH").map_err(|e| anyhow!(e))?;
    let start = Instant::now();
    loop {
        calc.run_for(6_000_000);
        match BasicFirmware::of(&calc).map(|f| f.status()) {
            Some(Status::Done) => break,
            Some(Status::Error(e)) => anyhow::bail!("the program failed: {}", e.kind),
            None => anyhow::bail!("not the runtime"),
            _ => {}
        }
    }
    Ok(start.elapsed().as_secs_f64())
}

fn z80_round(breakpoint: bool) -> Result<f64> {
    let bytes =
        std::fs::read(crate::asm::workspace_root().join("crates/machine/tests/roms/bench.bin"))?;
    let mut calc = Calc::from_rom(RomImage::from_program(&bytes));
    if breakpoint {
        let fw = calc
            .firmware_mut()
            .as_any_mut()
            .downcast_mut::<RomFirmware>()
            .ok_or_else(|| anyhow!("not the Z80"))?;
        let mut d = Z80Debug::default();
        d.set_breakpoints(&[0xFFFF]);
        fw.debug = Some(Box::new(d));
    }
    let start = Instant::now();
    calc.run_for(Z80_SPAN);
    Ok(start.elapsed().as_secs_f64())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run() -> Result<()> {
    let mut t = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..ROUNDS {
        for (i, how) in [Basic::Detached, Basic::Attached, Basic::BreakElsewhere]
            .into_iter()
            .enumerate()
        {
            let mut total = 0.0;
            for _ in 0..BASIC_RUNS {
                total += basic_round(how)?;
            }
            t[i].push(total);
        }
    }
    let [d, a, b] = t.map(median);
    println!("TI-BASIC (bench-basic's program run {BASIC_RUNS} times, median of {ROUNDS} rounds): detached {:.1} ms, attached {:.1} ms, a breakpoint elsewhere {:.1} ms", d * 1e3, a * 1e3, b * 1e3);
    let basic = d / a;
    println!(
        "  speed attached with no breakpoint: {:.1} % of detached (goal 90 %: {}); with a breakpoint elsewhere: {:.1} %",
        basic * 100.0,
        if basic >= 0.9 { "met" } else { "missed" },
        d / b * 100.0
    );
    let (mut zd, mut zb) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        zd.push(z80_round(false)?);
        zb.push(z80_round(true)?);
    }
    let (zd, zb) = (median(zd), median(zb));
    println!(
        "Z80 (bench.bin, {} emulated s, median of {ROUNDS}): detached {:.1} ms, an instruction breakpoint set {:.1} ms",
        Z80_SPAN / 6_000_000,
        zd * 1e3,
        zb * 1e3
    );
    let z = zd / zb;
    println!(
        "  speed with instruction breakpoints: {:.1} % of detached (goal 50 %: {})",
        z * 100.0,
        if z >= 0.5 { "met" } else { "missed" }
    );
    println!(
        "debugger attached: TI-BASIC {:.0} %, Z80 with breakpoints {:.0} % of detached speed",
        basic * 100.0,
        z * 100.0
    );
    Ok(())
}
