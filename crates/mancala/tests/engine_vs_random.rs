//! The engine against a random player: the computer opponent of the link cable (`ti82 --link
//! bot`) must win nearly every game and never play an illegal move.

use mancala::{Engine, EngineOptions, Level, Player, Position, Rules, XorShift};

/// Plays one TI-82 game; the engine is `engine_side`. Returns the engine's final margin.
fn one_game(engine: &mut Engine, engine_side: Player, rocks: u8, rng: &mut XorShift) -> i32 {
    let mut pos = Position::new(Rules::ti82(rocks).unwrap());
    let mut plies = 0;
    while !pos.is_over() {
        let house = if pos.to_move() == engine_side {
            let choice = engine.choose(&pos).unwrap();
            assert!(
                pos.is_legal(choice.house),
                "the engine chose illegal hole {} in {pos}",
                choice.house
            );
            choice.house
        } else {
            let legal = pos.legal_moves();
            legal[rng.below(legal.len())]
        };
        pos.play(house).unwrap();
        plies += 1;
        assert!(plies < 1000, "a game that does not end");
    }
    let end = pos.result().unwrap();
    i32::from(end.scores[engine_side.index()]) - i32::from(end.scores[engine_side.other().index()])
}

#[test]
fn the_bots_engine_beats_a_random_player_at_least_95_times_in_100() {
    let mut rng = XorShift::new(2026);
    let mut engine = Engine::new(EngineOptions {
        level: Level::Hard,
        seed: 5,
        node_budget: Some(20_000),
        ..EngineOptions::default()
    });
    let mut wins = 0;
    let mut lost = Vec::new();
    for game in 0..100u32 {
        // Both sides and every rocks setting of the program (3 to 8).
        let side = if game % 2 == 0 {
            Player::One
        } else {
            Player::Two
        };
        let rocks = 3 + (game / 2 % 6) as u8;
        let margin = one_game(&mut engine, side, rocks, &mut rng);
        if margin > 0 {
            wins += 1;
        } else {
            lost.push((game, side, rocks, margin));
        }
    }
    eprintln!("{wins} wins in 100; not won: {lost:?}");
    assert!(wins >= 95, "{wins} wins in 100; not won: {lost:?}");
}
