//! Invariants over random games and random boards under random rule sets.

use mancala::{
    predict, Board, CaptureTrigger, EndRule, GameError, GameResult, Player, Position, Rules,
    SweepRule, XorShift, MAX_ROCKS,
};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        1u8..=8,
        1u8..=8,
        0usize..3,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(houses, seeds, trigger, needs, takes, mover_empty, sweep_mover, free)| {
                let seeds = seeds.min((255 / (2 * u16::from(houses))) as u8);
                let mut r = Rules::kalah_standard(houses, seeds).unwrap();
                r.capture.trigger = [
                    CaptureTrigger::EveryDrop,
                    CaptureTrigger::LastRock,
                    CaptureTrigger::Never,
                ][trigger];
                r.capture.needs_opposite = needs;
                r.capture.takes_capturing_rock = takes;
                r.end = if mover_empty {
                    EndRule::MoverEmpty
                } else {
                    EndRule::EitherRow
                };
                r.sweep = if sweep_mover {
                    SweepRule::Mover
                } else {
                    SweepRule::Owner
                };
                r.free_turn = free;
                r
            },
        )
}

/// Plays one move and checks everything a move must keep.
fn checked_move(pos: &mut Position, house: u8) {
    let before = *pos;
    let mover = pos.to_move();
    let predicted = predict(*pos.rules(), pos.board(), mover, house).unwrap();
    let out = pos.play(house).unwrap();
    assert_eq!(out, predicted, "predict() and play() agree");
    assert_eq!(out.board, *pos.board());
    assert_eq!(
        pos.board().total(),
        before.board().total(),
        "rocks are conserved"
    );
    for p in [Player::One, Player::Two] {
        assert!(
            pos.board().store(p) >= before.board().store(p),
            "stores never shrink"
        );
    }
    assert_eq!(out.rocks, before.board().house(mover, house).unwrap());
    let captured: u16 = out.captures.iter().map(|c| u16::from(c.total())).sum();
    let gained = u16::from(pos.board().store(mover)) - u16::from(before.board().store(mover));
    let swept = out.end.map_or(0, |e| u16::from(e.swept[mover.index()]));
    assert!(
        captured + swept <= gained,
        "captures go to the mover's store"
    );
    if out.end.is_none() {
        assert_eq!(
            pos.board().store(mover.other()),
            before.board().store(mover.other()),
            "sowing skips the opponent's store"
        );
    }
    match out.end {
        Some(end) => {
            assert_eq!(out.next, None);
            assert!(!out.free_turn);
            assert!(pos.is_over());
            assert_eq!(pos.board().row_total(Player::One), 0);
            assert_eq!(pos.board().row_total(Player::Two), 0);
            assert_eq!(
                u16::from(end.scores[0]) + u16::from(end.scores[1]),
                pos.board().total()
            );
            let expected = match end.scores[0].cmp(&end.scores[1]) {
                std::cmp::Ordering::Equal => GameResult::Draw,
                std::cmp::Ordering::Greater => GameResult::Win {
                    winner: Player::One,
                    margin: end.scores[0] - end.scores[1],
                },
                std::cmp::Ordering::Less => GameResult::Win {
                    winner: Player::Two,
                    margin: end.scores[1] - end.scores[0],
                },
            };
            assert_eq!(end.result, expected);
            let again = pos.result().unwrap();
            assert_eq!(again.swept, [0, 0], "nothing is left to sweep");
            assert_eq!((again.scores, again.result), (end.scores, end.result));
        }
        None => {
            let next = if out.free_turn { mover } else { mover.other() };
            assert_eq!(out.next, Some(next));
            assert_eq!(pos.to_move(), next);
            assert!(!pos.legal_moves().is_empty());
        }
    }
}

fn check_legal_moves(pos: &Position) {
    let moves = pos.legal_moves();
    for house in 0..=pos.rules().houses() + 1 {
        let legal = moves.contains(&house);
        assert_eq!(pos.is_legal(house), legal);
        if !legal {
            let mut copy = *pos;
            assert!(copy.play(house).is_err());
            assert_eq!(copy, *pos, "a refused move changes nothing");
        }
    }
    for &h in &moves {
        assert!(pos.board().house(pos.to_move(), h).unwrap() > 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    #[test]
    fn random_games_keep_every_invariant(rules in rules_strategy(), seed in any::<u64>()) {
        let mut rng = XorShift::new(seed);
        let mut pos = Position::new(rules);
        let total = pos.board().total();
        let mut moves = 0;
        while !pos.is_over() {
            check_legal_moves(&pos);
            let legal = pos.legal_moves();
            checked_move(&mut pos, legal[rng.below(legal.len())]);
            moves += 1;
            prop_assert!(moves < 20_000, "the game ends");
        }
        prop_assert_eq!(pos.board().total(), total);
        prop_assert_eq!(pos.legal_moves(), Vec::<u8>::new());
        prop_assert_eq!(pos.play(1), Err(GameError::GameOver));
    }

    #[test]
    fn any_board_any_move_never_panics(
        rules in rules_strategy(),
        pits in proptest::collection::vec(0u8..20, 26),
        two in any::<bool>(),
        house in 0u8..14,
    ) {
        let n = rules.slots();
        // A board holds at most MAX_ROCKS rocks; more is refused, never a panic.
        let total: u32 = pits[..n].iter().map(|&x| u32::from(x)).sum();
        let board = match Board::from_slots(&pits[..n]) {
            Ok(b) => b,
            Err(e) => {
                prop_assert!(total > u32::from(MAX_ROCKS), "{e}");
                return Ok(());
            }
        };
        let player = if two { Player::Two } else { Player::One };
        let pos = Position::from_board(rules, board, player).unwrap();
        check_legal_moves(&pos);
        if pos.is_legal(house) {
            let mut p = pos;
            checked_move(&mut p, house);
        }
        if let Some(end) = pos.result() {
            prop_assert_eq!(
                u16::from(end.scores[0]) + u16::from(end.scores[1]),
                pos.board().total()
            );
        }
    }

    #[test]
    fn slot_numbering_is_consistent(houses in 1u8..=12) {
        let board = Board::initial(houses, 1).unwrap();
        let h = usize::from(houses);
        prop_assert_eq!(board.store_slot(Player::One), h + 1);
        prop_assert_eq!(board.store_slot(Player::Two), 2 * h + 2);
        for k in 1..=houses {
            for p in [Player::One, Player::Two] {
                let s = board.house_slot(p, k).unwrap();
                prop_assert_eq!(board.slot_owner(s), Some((p, Some(k))));
                let o = board.opposite_slot(s).unwrap();
                prop_assert_eq!(o, 2 * h + 2 - s);
                prop_assert_eq!(board.opposite_slot(o), Some(s));
                let (owner, house) = board.slot_owner(o).unwrap();
                prop_assert_eq!(owner, p.other());
                prop_assert_eq!(house, Some(houses + 1 - k));
            }
        }
        prop_assert_eq!(board.house_slot(Player::One, 0), None);
        prop_assert_eq!(board.house_slot(Player::One, houses + 1), None);
        prop_assert_eq!(board.slot_owner(2 * h + 3), None);
    }
}

#[test]
fn pictures_round_trip() {
    let mut rng = XorShift::new(99);
    for houses in 1..=12u8 {
        let slots: Vec<u8> = (0..2 * usize::from(houses) + 2)
            .map(|_| rng.below(10) as u8)
            .collect();
        let b = Board::from_slots(&slots).unwrap();
        let text = b.picture();
        let rows: Vec<Vec<u8>> = text
            .lines()
            .map(|l| {
                l.trim_matches('|')
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(Board::from_picture(&rows[0], &rows[1]).unwrap(), b);
    }
}
