//! `cargo xtask bench-solver`: the exact solver's speed (nodes per second) and the time it
//! takes on the largest board of the run. The default boards finish in well under a minute
//! on a release build; give others as `RULES` arguments (`kalah-standard:6x4`, `ti82:5`).

use std::time::Instant;

use anyhow::{bail, Context, Result};
use mancala::{Position, Rules, Solver};

/// The default run: (rules, table bits), in rising size.
const DEFAULT: &[(&str, u8)] = &[
    ("ti82:3", 22),
    ("kalah-standard:6x3", 22),
    ("kalah-standard:4x5", 22),
    ("ti82:4", 22),
    ("kalah-standard:5x4", 24),
    ("kalah-standard:4x6", 24),
];

pub fn run(boards: &[String], table_bits: Option<u8>, max_nodes: u64) -> Result<()> {
    let list: Vec<(String, u8)> = if boards.is_empty() {
        DEFAULT.iter().map(|(r, b)| (r.to_string(), *b)).collect()
    } else {
        boards.iter().map(|r| (r.clone(), 24)).collect()
    };
    println!(
        "{:<22} {:>6} {:>5} {:>14} {:>9} {:>12}",
        "board", "value", "best", "nodes", "seconds", "nodes/s"
    );
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    // (rocks in play, nodes, name, seconds) of the largest finished board.
    let mut largest: Option<(u32, u64, String, f64)> = None;
    for (name, bits) in &list {
        let rules: Rules = name.parse().with_context(|| format!("board {name}"))?;
        let bits = table_bits.unwrap_or(*bits);
        let pos = Position::new(rules);
        let start = Instant::now();
        let mut solver = Solver::new(bits, Some(max_nodes));
        let sol = solver.solve(&pos);
        let secs = start.elapsed().as_secs_f64();
        let Some(sol) = sol else {
            println!("{name:<22} not solved within {max_nodes} nodes ({secs:.1} s)");
            continue;
        };
        let m = sol.margin_for_player_one();
        let value = match m {
            0 => "D".to_string(),
            m if m > 0 => format!("W{m}"),
            m => format!("L{}", -m),
        };
        println!(
            "{:<22} {:>6} {:>5} {:>14} {:>9.2} {:>12.0}",
            name,
            value,
            sol.best.map_or("-".into(), |h| h.to_string()),
            sol.nodes,
            secs,
            sol.nodes as f64 / secs.max(1e-9)
        );
        total_nodes += sol.nodes;
        total_secs += secs;
        let rocks = u32::from(rules.houses()) * u32::from(rules.seeds()) * 2;
        let bigger = match &largest {
            Some((r, n, _, _)) => (rocks, sol.nodes) > (*r, *n),
            None => true,
        };
        if bigger {
            largest = Some((rocks, sol.nodes, name.clone(), secs));
        }
    }
    let Some((rocks, nodes, name, secs)) = largest else {
        bail!("no board was solved");
    };
    println!(
        "nodes/s: {:.0} over the run ({} nodes in {:.2} s)",
        total_nodes as f64 / total_secs.max(1e-9),
        total_nodes,
        total_secs
    );
    println!("largest board solved: {name} ({rocks} rocks, {nodes} nodes) in {secs:.2} s");
    Ok(())
}
