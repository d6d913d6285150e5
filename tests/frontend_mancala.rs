//! `ti82 mancala solve` and `--link bot` on the command line.

use std::process::Command;

use clap::Parser;
use mancala::{brute_force, Position, Rules};
use ti82::cli::{Cli, Command as Sub, MancalaCommand};

fn solve(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ti82"))
        .args(["mancala", "solve"])
        .args(args)
        .output()
        .unwrap()
}

/// The last line, `value: W|D|L MARGIN best: HOLE`, as (player 1's margin, best hole).
fn value_line(out: &std::process::Output) -> (i32, u8) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let last = text.lines().last().unwrap();
    let parts: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(parts.len(), 5, "{last}");
    assert_eq!((parts[0], parts[3]), ("value:", "best:"), "{last}");
    let m: i32 = parts[2].parse().unwrap();
    let margin = match parts[1] {
        "W" => m,
        "L" => -m,
        "D" => {
            assert_eq!(m, 0);
            0
        }
        other => panic!("{other} in {last}"),
    };
    (margin, parts[4].parse().unwrap())
}

/// The brute force's margin for player 1 from the start, and after each first move.
fn check_against_brute_force(rules: Rules, margin: i32, best: u8) {
    let start = Position::new(rules);
    assert_eq!(brute_force(&start, 50_000_000), Some(margin), "{rules}");
    let mut after = start;
    after.play(best).unwrap();
    let child = brute_force(&after, 50_000_000).unwrap();
    // The brute force answers for the player to move after it.
    let for_p1 = if after.to_move() == mancala::Player::One {
        child
    } else {
        -child
    };
    assert_eq!(
        for_p1, margin,
        "hole {best} is not a best first move under {rules}"
    );
}

#[test]
fn solve_small_boards_matches_the_brute_force() {
    let out = solve(&["--rules", "kalah-standard", "--houses", "3", "--seeds", "2"]);
    let (margin, best) = value_line(&out);
    check_against_brute_force(Rules::kalah_standard(3, 2).unwrap(), margin, best);
    assert_eq!(
        margin, 4,
        "Kalah(3,2) is a first-player win by 4 (docs/solver.md)"
    );

    let out = solve(&["--rules", "ti82", "--houses", "3", "--seeds", "2"]);
    let (margin, best) = value_line(&out);
    let rules = Rules::from_switches("ti82", &[("houses", "3"), ("seeds", "2")]).unwrap();
    check_against_brute_force(rules, margin, best);

    let out = solve(&[
        "--rules",
        "kalah",
        "--houses",
        "2",
        "--seeds",
        "3",
        "--capture",
        "empty",
        "--end",
        "mover-empty",
        "--sweep",
        "owner",
    ]);
    let (margin, best) = value_line(&out);
    let rules = Rules::from_switches(
        "kalah",
        &[
            ("houses", "2"),
            ("seeds", "3"),
            ("capture", "empty"),
            ("end", "mover-empty"),
            ("sweep", "owner"),
        ],
    )
    .unwrap();
    check_against_brute_force(rules, margin, best);
}

#[test]
fn solve_refuses_bad_rules_and_stops_at_its_node_limit() {
    let out = solve(&["--rules", "chess"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rules chess"));
    let out = solve(&["--rules", "ti82", "--sweep", "sideways"]);
    assert_eq!(out.status.code(), Some(1));
    let out = solve(&["--rules", "ti82", "--max-nodes", "1000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not solved within 1000 nodes"), "{err}");
}

#[test]
fn link_bot_parses() {
    let parse =
        |args: &[&str]| Cli::try_parse_from(std::iter::once("ti82").chain(args.iter().copied()));
    let c = parse(&["--link", "bot"]).unwrap();
    assert_eq!(c.machine.link, vec!["bot"]);
    let c = parse(&["--link", "bot:perfect"]).unwrap();
    assert_eq!(
        ti82::botlink::bot_level(&c.machine.link).unwrap(),
        Some(mancala::Level::Perfect)
    );
    assert_eq!(
        ti82::botlink::bot_level(&["bot".to_string()]).unwrap(),
        Some(mancala::Level::Hard)
    );
    assert!(ti82::botlink::bot_level(&["bot:genius".to_string()]).is_err());
    assert!(ti82::botlink::bot_level(&["listen".to_string()]).is_err());
    let c = parse(&["--link", "listen", "5000"]).unwrap();
    assert_eq!(ti82::botlink::bot_level(&c.machine.link).unwrap(), None);
    let c = parse(&[
        "mancala", "solve", "--rules", "kalah", "--houses", "4", "--seeds", "3",
    ])
    .unwrap();
    let Some(Sub::Mancala(MancalaCommand::Solve(s))) = c.command else {
        panic!("not mancala solve");
    };
    assert_eq!((s.houses, s.seeds), (Some(4), Some(3)));
}

#[test]
fn headless_mancala_against_the_bot() {
    // --mancala: a fresh built-in calculator runs MANBOARD, then MANCALA, and the key script
    // starts once its main menu waits for a key. CALC VS CALC, WHO'S FIRST? →
    // OPPONENT, PLAY: the calculator pulls the bot's starting board, the bot moves first, the
    // calculator pulls its move.
    let dir = std::env::temp_dir().join(format!("ti82-bot-headless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args([
            "run",
            "--headless",
            "--no-rom",
            "--mancala",
            "--link",
            "bot:easy",
            "--keys",
        ])
        .arg("2 WAIT 300 2 WAIT 300 3 WAIT 300 2 WAIT 300 4 WAIT 300 1")
        .args(["--wait-ms", "8000", "--print-lcd"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("bot: connected as player 1"), "{err}");
    assert!(err.contains("bot: plays "), "{err}");
}
