//! Two engines play one game with a running commentary.
//!
//! `cargo run --release -p mancala --example selfplay -- [RULES] [LEVEL1] [LEVEL2] [SEED]`
//! e.g. `-- ti82:4 hard easy 7` (rules as `Rules::from_str`, levels easy|medium|hard|perfect).

use std::time::Instant;

use mancala::{Engine, Level, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let rules: Rules = match arg(0, "ti82:4").parse() {
        Ok(r) => r,
        Err(e) => return eprintln!("{e}"),
    };
    let levels: Vec<Level> = match [arg(1, "hard"), arg(2, "medium")]
        .iter()
        .map(|s| s.parse())
        .collect()
    {
        Ok(l) => l,
        Err(e) => return eprintln!("{e}"),
    };
    let seed: u64 = arg(3, "1").parse().unwrap_or(1);
    let mut engines = [
        Engine::with_level(levels[0], seed),
        Engine::with_level(levels[1], seed.wrapping_add(1)),
    ];
    let mut pos = Position::new(rules);
    println!("{rules}\n{pos}");
    while !pos.is_over() {
        let start = Instant::now();
        let engine = &mut engines[pos.to_move().index()];
        let choice = match engine.choose(&pos) {
            Ok(c) => c,
            Err(e) => return eprintln!("{e}"),
        };
        let outcome = match pos.play(choice.house) {
            Ok(o) => o,
            Err(e) => return eprintln!("{e}"),
        };
        println!(
            "{outcome}   [{} expects {:+}{}, depth {}, {} nodes, {:.2?}]",
            engine.options().level,
            choice.score,
            if choice.exact { " exact" } else { "" },
            choice.depth,
            choice.nodes,
            start.elapsed()
        );
    }
    println!("{}", pos.board().picture());
}
