//! MANCALA on the built-in runtime, checked move by move against the rules crate.

use mancala::{Player, Position, Rules};
use ti82_harness::{builtin_programs, run_games, Table};

#[test]
fn a_free_turn_then_a_turn_passing_match_the_rules() {
    // From the start with 4 rocks: player 1's hole 3 ends in the store (a free turn), hole 6
    // passes the turn, then player 2 plays. The emulated board and whose turn it is must
    // match the rules after every move.
    let programs = builtin_programs().expect("programs tokenize");
    let mut table = Table::new(&programs).expect("MANCALA starts");
    let rules = Rules::ti82(4).unwrap();
    table.play(&rules).expect("game starts");
    let mut pos = Position::new(rules);
    for house in [3u8, 6, 1] {
        let mover = pos.to_move();
        let expected = pos.play(house).expect("legal");
        let actual = table
            .make_move(mover, house)
            .expect("keys")
            .expect("board changed");
        assert_eq!(actual.board, expected.board.slots(), "after {expected}");
        assert_eq!(
            actual.turn,
            expected.next.map(|p| p.number()),
            "after {expected}"
        );
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
}

#[test]
fn mode_aborts_to_the_main_menu_and_quit_ends_the_program() {
    use ti82_harness::{press, settle};
    use ti82_machine::Key;
    let programs = builtin_programs().expect("programs tokenize");
    let mut table = Table::new(&programs).expect("MANCALA starts");
    let rules = Rules::ti82(4).unwrap();
    table.play(&rules).expect("game starts");
    let first = table
        .make_move(Player::One, 1)
        .expect("keys")
        .expect("moved");
    assert_ne!(first.board, Position::new(rules).board().slots());
    // MODE: back to the main menu; PLAY then starts a fresh board.
    press(&mut table.calc, Key::Mode);
    settle(&mut table.calc, 150, 10_000);
    table
        .play(&rules)
        .expect("a new game starts from the main menu");
    assert_eq!(
        table.board().unwrap().board,
        Position::new(rules).board().slots()
    );
    // MODE again, then 4:QUIT ends MANCALA on the home screen with Done.
    press(&mut table.calc, Key::Mode);
    settle(&mut table.calc, 150, 10_000);
    press(&mut table.calc, Key::K4);
    settle(&mut table.calc, 150, 10_000);
    let shadow = &table.calc.ram()[0x8F..0x8F + 128];
    let text = tibasic::font::decode(shadow);
    assert!(text.contains("Done"), "{text:?}");
}

/// A MANCALA whose captures add one rock too many must be caught, and a run's findings must
/// not depend on how many threads play it.
#[test]
fn a_wrong_capture_is_caught_the_same_on_one_thread_or_two() {
    use ti82_harness::{builtin_calc, run_games_on, MANBOARD_SRC, MANCALA_SRC};
    let capture = "L1(7P)+L1(14-H)->L1(7P)";
    assert!(MANCALA_SRC.contains(capture));
    let wrong = MANCALA_SRC.replace(capture, "L1(7P)+L1(14-H)+1->L1(7P)");
    let programs: Vec<_> = [("MANBOARD", MANBOARD_SRC), ("MANCALA", wrong.as_str())]
        .iter()
        .map(|(name, src)| {
            let tokens = tifiles::tokens::tokenize_source(src).expect("tokenizes");
            tibasic::firmware::program_var(name, tokens).expect("a program")
        })
        .collect();
    let make = || builtin_calc(&programs);
    let one = run_games_on(&make, 12, 7, None, 1).expect("runs");
    let two = run_games_on(&make, 12, 7, None, 2).expect("runs");
    assert_eq!(one.games, 12);
    assert!(
        !one.divergences.is_empty(),
        "a wrong capture went unnoticed in {} moves",
        one.moves
    );
    assert!(one.divergences.iter().any(|d| d.what.contains("captures")));
    assert_eq!((one.games, one.moves), (two.games, two.moves));
    let text = |s: &ti82_harness::Summary| {
        s.divergences
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(text(&one), text(&two));
}
