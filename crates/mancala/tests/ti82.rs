//! The TI-82 MANCALA rules, from the manual (seed `000`).

use mancala::{Board, GameError, GameResult, Player, Position, Rules};

fn ti82() -> Rules {
    Rules::ti82(4).unwrap()
}

/// The manual's first board: player 2's row is `2 2 2 3 1 5 1` (store first), player 1's row
/// `3 2 4 3 0 8 1` (store last).
fn manual_board() -> Board {
    Board::from_picture(&[2, 2, 2, 3, 1, 5, 1], &[3, 2, 4, 3, 0, 8, 1]).unwrap()
}

#[test]
fn manual_board_in_l1_order_and_picture() {
    let b = manual_board();
    assert_eq!(
        b.slots(),
        &[3, 2, 4, 3, 0, 8, 1, 1, 5, 1, 3, 2, 2, 2],
        "slots 8..13 are player 2's holes in sowing order: the top row read right to left"
    );
    assert_eq!(b.picture(), "|2 2 2 3 1 5 1  |\n|  3 2 4 3 0 8 1|");
    assert_eq!(b.opposite_slot(5), Some(9));
    assert_eq!(b.opposite_slot(1), Some(13));
    assert_eq!(b.opposite_slot(7), None);
}

/// The manual's worked example, with the corrected stores: the capture of 5 rocks on the
/// second (not the last) rock goes into player 1's store, so it reads 7 (the manual prints 2),
/// then 8 after the second move (the manual prints 3). Every other number matches the manual.
#[test]
fn manual_worked_example_corrected() {
    let mut pos = Position::from_board(ti82(), manual_board(), Player::One).unwrap();

    // Player 1 plays the fourth hole (the '^' under the 3): rocks go to holes 5, 6 and the store.
    let first = pos.play(4).unwrap();
    assert_eq!(first.rocks, 3);
    assert_eq!(first.captures.len(), 1);
    let c = first.captures[0];
    assert_eq!((c.slot, c.opposite_slot, c.taken), (5, 9, 5));
    assert_eq!(c.house, 5);
    assert_eq!(c.opposite_house, 2);
    assert!(!c.last_rock, "the capture is on the first of three rocks");
    assert!(!c.with_own_rock, "the capturing rock stays in its hole");
    assert!(first.free_turn);
    assert_eq!(first.next, Some(Player::One));
    let expected = Board::from_picture(&[2, 2, 2, 3, 1, 0, 1], &[3, 2, 4, 0, 1, 9, 7]).unwrap();
    assert_eq!(first.board, expected);
    assert_eq!(
        first.board.picture(),
        "|2 2 2 3 1 0 1  |\n|  3 2 4 0 1 9 7|"
    );
    assert_eq!(
        first.to_string(),
        "player 1 plays hole 4 (3 rocks); captures 5 from player 2's hole 2; free turn; score 7-2"
    );

    // The free turn: the sixth hole (9 rocks) goes round the board, skipping player 2's store.
    let second = pos.play(6).unwrap();
    assert_eq!(second.rocks, 9);
    assert!(second.captures.is_empty());
    assert!(!second.free_turn);
    assert_eq!(second.last_slot, 2);
    assert_eq!(second.next, Some(Player::Two));
    let expected = Board::from_picture(&[2, 3, 3, 4, 2, 1, 2], &[4, 3, 4, 0, 1, 0, 8]).unwrap();
    assert_eq!(second.board, expected);
    assert_eq!(pos.board().total(), manual_board().total());
}

/// The manual's numbers, as printed, lose the 5 captured rocks: the printed boards do not hold
/// the same number of rocks as the first one.
#[test]
fn manual_printed_numbers_lose_five_rocks() {
    let printed_after_first =
        Board::from_picture(&[2, 2, 2, 3, 1, 0, 1], &[3, 2, 4, 0, 1, 9, 2]).unwrap();
    let printed_after_second =
        Board::from_picture(&[2, 3, 3, 4, 2, 1, 2], &[4, 3, 4, 0, 1, 0, 3]).unwrap();
    assert_eq!(manual_board().total(), 37);
    assert_eq!(printed_after_first.total(), 32);
    assert_eq!(printed_after_second.total(), 32);
}

#[test]
fn initial_boards_for_every_rocks_setting() {
    for rocks in 3..=8u8 {
        let pos = Position::new(Rules::ti82(rocks).unwrap());
        let r = rocks;
        assert_eq!(
            pos.board().slots(),
            &[r, r, r, r, r, r, 0, r, r, r, r, r, r, 0],
            "{rocks} rocks"
        );
        assert_eq!(pos.to_move(), Player::One);
        assert_eq!(pos.legal_moves(), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(pos.board().total(), 12 * u16::from(rocks));
    }
    for bad in [0u8, 1, 2, 9, 255] {
        assert!(Rules::ti82(bad).is_err(), "{bad} rocks");
    }
}

#[test]
fn free_turn_when_the_last_rock_lands_in_the_store() {
    for rocks in 3..=6u8 {
        let mut pos = Position::new(Rules::ti82(rocks).unwrap());
        let house = 7 - rocks;
        let out = pos.play(house).unwrap();
        assert!(out.free_turn, "{rocks} rocks from hole {house}");
        assert_eq!(out.last_slot, 7);
        assert_eq!(pos.to_move(), Player::One);
        assert_eq!(pos.board().store(Player::One), 1);
    }
    // One rock short of the store: no free turn.
    let mut pos = Position::new(Rules::ti82(4).unwrap());
    let out = pos.play(2).unwrap();
    assert!(!out.free_turn);
    assert_eq!(pos.to_move(), Player::Two);
    // Player 2's store is slot 14 and gives player 2 the free turn.
    let out = pos.play(3).unwrap();
    assert_eq!(out.last_slot, 14);
    assert!(out.free_turn);
    assert_eq!(pos.to_move(), Player::Two);
}

#[test]
fn every_rock_into_an_own_empty_hole_captures() {
    // Player 1: hole 1 holds 3, holes 2 and 4 are empty; their opposites (12, 10) hold 4 and 6.
    let slots = [3, 0, 1, 0, 1, 1, 0, 1, 1, 6, 1, 4, 1, 0];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    let got: Vec<_> = out
        .captures
        .iter()
        .map(|c| (c.slot, c.opposite_slot, c.taken, c.last_rock))
        .collect();
    assert_eq!(got, vec![(2, 12, 4, false), (4, 10, 6, true)]);
    assert_eq!(
        pos.board().slots(),
        &[0, 1, 2, 1, 1, 1, 10, 1, 1, 0, 1, 0, 1, 0]
    );
    assert_eq!(pos.to_move(), Player::Two);
}

#[test]
fn a_drop_into_an_empty_hole_facing_an_empty_hole_captures_nothing() {
    let slots = [2, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert!(out.captures.is_empty());
    assert_eq!(
        pos.board().slots(),
        &[0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0]
    );
}

#[test]
fn player_two_captures_from_the_facing_hole() {
    // Player 2's hole 1 (slot 8) holds 2; slot 9 is empty and faces slot 5 (4 rocks).
    let slots = [1, 1, 1, 1, 4, 1, 0, 2, 0, 3, 3, 3, 3, 0];
    let mut pos = Position::from_slots(ti82(), &slots, Player::Two).unwrap();
    let out = pos.play_slot(8).unwrap();
    assert_eq!(out.captures.len(), 1);
    assert_eq!(
        (out.captures[0].slot, out.captures[0].opposite_slot),
        (9, 5)
    );
    assert_eq!(
        pos.board().slots(),
        &[1, 1, 1, 1, 0, 1, 0, 0, 1, 4, 3, 3, 3, 4]
    );
}

#[test]
fn a_lap_drops_into_the_emptied_hole_and_captures() {
    // 13 rocks from hole 1: 6 to holes 2-6 and the store, 6 to player 2's holes, player 2's store
    // is skipped, and the last lands in hole 1, emptied when the move began: it captures slot 13.
    let slots = [13, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 2, 0];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert_eq!(out.last_slot, 1);
    assert_eq!(out.captures.len(), 1);
    assert_eq!(out.captures[0].taken, 3);
    assert_eq!(
        pos.board().slots(),
        &[1, 2, 2, 2, 2, 2, 4, 2, 2, 2, 2, 2, 0, 0]
    );
}

#[test]
fn game_ends_when_one_side_is_empty_and_the_other_side_keeps_its_rocks() {
    // Player 1's last rock goes into the store: a free turn, but player 1's row is empty, so the
    // game is over and player 2's six rocks go to player 2's store.
    let slots = [0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 1, 1, 1, 10];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let out = pos.play(6).unwrap();
    assert!(!out.free_turn);
    assert_eq!(out.next, None);
    let end = out.end.unwrap();
    assert_eq!(end.swept, [0, 6]);
    assert_eq!(end.scores, [21, 16]);
    assert_eq!(
        end.result,
        GameResult::Win {
            winner: Player::One,
            margin: 5
        }
    );
    assert!(pos.is_over());
    assert_eq!(
        pos.board().slots(),
        &[0, 0, 0, 0, 0, 0, 21, 0, 0, 0, 0, 0, 0, 16]
    );
    assert_eq!(pos.play(1), Err(GameError::GameOver));
    assert!(pos.legal_moves().is_empty());
    assert!(out.to_string().ends_with("game over: player 1 wins by 5"));
}

#[test]
fn emptying_the_opponents_side_by_capture_ends_the_game() {
    // Player 1 sows into empty hole 6 facing player 2's only rocks.
    let slots = [0, 0, 0, 0, 1, 0, 10, 3, 0, 0, 0, 0, 0, 10];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let out = pos.play(5).unwrap();
    let end = out.end.unwrap();
    assert_eq!(end.swept, [1, 0]);
    assert_eq!(end.scores, [14, 10]);
}

#[test]
fn a_drawn_game() {
    let slots = [0, 0, 0, 0, 0, 1, 23, 0, 0, 0, 0, 0, 2, 22];
    let mut pos = Position::from_slots(ti82(), &slots, Player::One).unwrap();
    let end = pos.play(6).unwrap().end.unwrap();
    assert_eq!(end.scores, [24, 24]);
    assert_eq!(end.result, GameResult::Draw);
}

#[test]
fn a_board_with_an_empty_row_is_over_already() {
    let slots = [0, 0, 0, 0, 0, 0, 20, 1, 2, 0, 0, 0, 0, 10];
    let pos = Position::from_slots(ti82(), &slots, Player::Two).unwrap();
    assert!(pos.is_over());
    let end = pos.result().unwrap();
    assert_eq!(end.scores, [20, 13]);
    assert_eq!(
        pos.board().slots(),
        &slots,
        "result() does not change the position"
    );
}

#[test]
fn illegal_moves_are_errors() {
    let mut pos = Position::new(ti82());
    assert_eq!(
        pos.play(0),
        Err(GameError::NoSuchHouse {
            house: 0,
            houses: 6
        })
    );
    assert!(matches!(pos.play(7), Err(GameError::NoSuchHouse { .. })));
    assert!(matches!(
        pos.play_slot(8),
        Err(GameError::NotMoversSlot { slot: 8, .. })
    ));
    assert!(matches!(
        pos.play_slot(7),
        Err(GameError::NotMoversSlot { .. })
    ));
    assert!(matches!(
        pos.play_slot(0),
        Err(GameError::NotMoversSlot { .. })
    ));
    assert!(matches!(
        pos.play_slot(99),
        Err(GameError::NotMoversSlot { .. })
    ));
    pos.play(1).unwrap();
    pos.play(1).unwrap();
    assert_eq!(pos.to_move(), Player::One);
    assert_eq!(pos.play(1), Err(GameError::EmptyHouse { house: 1 }));
    assert_eq!(pos.to_move(), Player::One, "a refused move changes nothing");
}

#[test]
fn boards_that_cannot_be() {
    assert!(Board::from_slots(&[]).is_err());
    assert!(Board::from_slots(&[1, 2, 3]).is_err());
    assert!(Board::from_slots(&[0; 27]).is_err());
    assert!(
        Board::from_slots(&[0; 28]).is_err(),
        "13 houses is one too many"
    );
    assert!(Board::from_slots(&[200, 0, 200, 0]).is_err());
    assert!(Board::from_picture(&[1, 2], &[1, 2, 3]).is_err());
    let small = Board::from_slots(&[1, 0, 1, 0]).unwrap();
    assert!(matches!(
        Position::from_board(ti82(), small, Player::One),
        Err(GameError::HousesMismatch { board: 1, rules: 6 })
    ));
}

#[test]
fn predict_gives_the_next_board_and_player() {
    let out = mancala::predict(ti82(), &manual_board(), Player::One, 4).unwrap();
    assert_eq!(
        out.board.slots(),
        &[3, 2, 4, 0, 1, 9, 7, 1, 0, 1, 3, 2, 2, 2]
    );
    assert_eq!(out.next, Some(Player::One));
    assert!(mancala::predict(ti82(), &manual_board(), Player::One, 5).is_err());
}
