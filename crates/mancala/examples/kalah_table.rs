//! Prints the first player's value of Kalah(m, n) from the starting position under the rule set
//! of "Solving Kalah" (Irving, Donkers and Uiterwijk 2000; `Rules::kalah_standard`) and under
//! the other end and capture switches, for the small boards.
//!
//! `cargo run --release -p mancala --example kalah_table -- [MAX_HOUSES] [MAX_SEEDS] [SWITCH=VALUE...]`
//! (environment: `MANCALA_TABLE_BITS`, default 22: a table of 2^22 entries, 64 MiB; `ONLY=1`: only
//! the largest board). The TI-82 rules are `capture-on=every-drop capture-rock=stays`.

use std::time::Instant;

use mancala::{Position, Rules, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let max_houses: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let max_seeds: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    // `ONLY=1` solves only the largest board, MAX_HOUSES x MAX_SEEDS.
    let only = std::env::var("ONLY").is_ok();
    let switches: Vec<(&str, &str)> = args
        .iter()
        .skip(2)
        .filter_map(|a| a.split_once('='))
        .collect();
    // The transposition table holds 2^bits entries of 16 bytes.
    let table_bits: u8 = std::env::var("MANCALA_TABLE_BITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(22);
    for houses in 1..=max_houses {
        for seeds in 1..=max_seeds {
            if only && (houses, seeds) != (max_houses, max_seeds) {
                continue;
            }
            let mut rules = match Rules::kalah_standard(houses, seeds) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{e}");
                    return;
                }
            };
            for (k, v) in &switches {
                if let Err(e) = rules.set(k, v) {
                    eprintln!("{e}");
                    return;
                }
            }
            let start = Instant::now();
            let mut solver = Solver::new(table_bits, Some(2_000_000_000));
            match solver.solve(&Position::new(rules)) {
                Some(s) => println!(
                    "Kalah({houses},{seeds}): player 1 {} (margin {:+}), best hole {:?}, {} nodes, {:.2?}",
                    s.value(),
                    s.margin_for_player_one(),
                    s.best,
                    s.nodes,
                    start.elapsed()
                ),
                None => println!("Kalah({houses},{seeds}): node budget exhausted"),
            }
        }
    }
}
