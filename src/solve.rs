//! `ti82 mancala solve`: the exact value of a rule set's opening position (docs/solver.md).

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use mancala::{Position, Rules, Solver, Value};

use crate::cli::SolveArgs;

/// The rule set the arguments name: the preset, then `--houses`, `--seeds` and the switches.
pub fn rules_of(args: &SolveArgs) -> Result<Rules> {
    let houses = args.houses.map(|h| h.to_string());
    let seeds = args.seeds.map(|s| s.to_string());
    let switches: Vec<(&str, &str)> = [
        ("houses", houses.as_deref()),
        ("seeds", seeds.as_deref()),
        ("capture", args.capture.as_deref()),
        ("capture-on", args.capture_on.as_deref()),
        ("capture-rock", args.capture_rock.as_deref()),
        ("end", args.end.as_deref()),
        ("sweep", args.sweep.as_deref()),
        ("free-turn", args.free_turn.as_deref()),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k, v)))
    .collect();
    Rules::from_switches(&args.rules, &switches).with_context(|| format!("--rules {}", args.rules))
}

/// Solves and prints; the last line is `value: W|D|L MARGIN best: HOLE`.
pub fn run(args: &SolveArgs, out: &mut dyn Write) -> Result<()> {
    let rules = rules_of(args)?;
    let pos = Position::new(rules);
    writeln!(out, "rules: {rules}")?;
    writeln!(
        out,
        "limits: {} nodes, a table of 2^{} entries ({} MiB)",
        args.max_nodes,
        args.table_bits,
        (16u64 << args.table_bits) >> 20
    )?;
    let start = Instant::now();
    let mut solver = Solver::new(args.table_bits, Some(args.max_nodes));
    let Some(sol) = solver.solve(&pos) else {
        bail!(
            "{}: not solved within {} nodes ({:.1} s); raise --max-nodes (about a million \
             nodes a second) or try a smaller board",
            rules,
            args.max_nodes,
            start.elapsed().as_secs_f64()
        );
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "nodes: {} in {:.2} s ({:.0} nodes/s)",
        sol.nodes,
        secs,
        sol.nodes as f64 / secs.max(1e-9)
    )?;
    let margin = sol.margin_for_player_one();
    let letter = match Value::from_margin(margin) {
        Value::Win(_) => "W",
        Value::Draw => "D",
        Value::Loss(_) => "L",
    };
    let best = sol.best.map_or("-".to_string(), |h| h.to_string());
    writeln!(out, "value: {letter} {} best: {best}", margin.abs())?;
    Ok(())
}
