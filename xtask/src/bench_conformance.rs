//! `cargo xtask bench-conformance`: verified MANCALA games per second, as `ti82 conformance`
//! plays them on the built-in runtime on every core: HUMAN VS HUMAN (300 games from seed
//! 9406) and CALC VS CALC (20 games from seed 1, two linked calculators a game). Each mode
//! runs several rounds; every round must verify every move with no divergence and play the
//! same moves as the first. Prints each round, the median of each mode and, last, both medians
//! against the goals.

use std::time::Instant;

use anyhow::{bail, Result};
use ti82_harness::{builtin_calc, builtin_programs, Summary};

const HVH_GAMES: u64 = 300;
const HVH_SEED: u64 = 9406;
const CVC_GAMES: u64 = 20;
const CVC_SEED: u64 = 1;
const ROUNDS: usize = 3;
/// Games per second asked of each mode on a 2-core machine.
const HVH_GOAL: f64 = 300.0;
const CVC_GOAL: f64 = 30.0;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `play` over the rounds; every round must match the first and find no divergence.
fn mode(name: &str, play: &dyn Fn() -> Result<Summary>) -> Result<f64> {
    let mut rates = Vec::new();
    let mut first: Option<(u64, u64)> = None;
    for round in 1..=ROUNDS {
        let start = Instant::now();
        let s = play()?;
        let secs = start.elapsed().as_secs_f64();
        if let Some(d) = s.divergences.first() {
            bail!(
                "{name}: {} divergences; the first:\n{d}",
                s.divergences.len()
            );
        }
        if first.is_some_and(|f| f != (s.games, s.moves)) {
            bail!("{name}: round {round} played other games than round 1");
        }
        first = Some((s.games, s.moves));
        let rate = s.games as f64 / secs;
        println!(
            "{name} round {round}: {} games, {} moves verified, 0 divergences, {secs:.2} s, \
             {rate:.1} games/s",
            s.games, s.moves
        );
        rates.push(rate);
    }
    let m = median(rates);
    println!("{name}: median {m:.1} games/s");
    Ok(m)
}

pub fn run() -> Result<()> {
    let programs = builtin_programs()?;
    let make = || builtin_calc(&programs);
    let jobs = ti82_harness::default_jobs();
    println!("{jobs} threads (one per core)");
    let hvh = mode("HUMAN VS HUMAN", &|| {
        Ok(ti82_harness::run_games_on(
            &make, HVH_GAMES, HVH_SEED, None, jobs,
        )?)
    })?;
    let cvc = mode("CALC VS CALC", &|| {
        Ok(ti82_harness::run_cvc_games_on(
            &make,
            CVC_GAMES,
            CVC_SEED,
            ti82_harness::CVC_LATENCY,
            jobs,
        )?)
    })?;
    let verdict = |v: f64, goal: f64| if v >= goal { "met" } else { "not met" };
    println!(
        "games/s: HUMAN VS HUMAN {hvh:.1} (goal {HVH_GOAL:.0}, {}), CALC VS CALC {cvc:.1} \
         (goal {CVC_GOAL:.0}, {})",
        verdict(hvh, HVH_GOAL),
        verdict(cvc, CVC_GOAL)
    );
    Ok(())
}
