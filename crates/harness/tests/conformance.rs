//! MANCALA on the built-in runtime, checked move by move against the rules crate.

use mancala::{Player, Position, Rules, XorShift};
use ti82_harness::{builtin_programs, run_games, Table};

#[test]
fn the_manuals_example_capture_on_a_rock_that_is_not_the_last() {
    // From the start with 4 rocks, replay moves that reach a capture, then check that the
    // emulated program agrees with the rules at every move.
    let programs = builtin_programs().expect("programs tokenize");
    let mut table = Table::new(&programs).expect("MANCALA starts");
    let rules = Rules::ti82(4).unwrap();
    table.play(&rules).expect("game starts");
    let mut pos = Position::new(rules);
    // Player 1 plays hole 3 (free turn: 4 rocks end in the store), then hole 6...
    for house in [3u8, 6, 1] {
        let mover = pos.to_move();
        let expected = pos.play(house).expect("legal");
        let actual = table
            .make_move(mover, house)
            .expect("keys")
            .expect("board changed");
        assert_eq!(actual.board, expected.board.slots(), "after {expected}");
        let _ = Player::One;
    }
}

#[test]
fn random_games_for_every_rocks_setting() {
    let programs = builtin_programs().expect("programs tokenize");
    for rocks in 3..=8 {
        let summary = run_games(&programs, 1, 100 + u64::from(rocks), Some(rocks)).expect("runs");
        assert_eq!(summary.games, 1);
        assert!(
            summary.moves > 10,
            "{rocks} rocks: a whole game was played ({} moves)",
            summary.moves
        );
        if let Some(d) = summary.divergences.first() {
            panic!("{rocks} rocks: {d}");
        }
    }
    let _ = XorShift::new(1);
}

#[test]
#[ignore]
fn debug_many_games() {
    let programs = builtin_programs().expect("programs tokenize");
    let t = std::time::Instant::now();
    let s = run_games(&programs, 200, 1, None).expect("runs");
    println!(
        "{} games {} moves {} divergences in {:?}",
        s.games,
        s.moves,
        s.divergences.len(),
        t.elapsed()
    );
    for d in &s.divergences {
        println!("{d}");
    }
}
