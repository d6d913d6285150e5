//! The other seeds' rules (KALAH, Py-Mancala), the Kalah switches, and reading rules from names.

use mancala::{
    CaptureTrigger, EndRule, GameResult, Player, Position, Rules, RulesError, SweepRule,
};

fn kalah() -> Rules {
    Rules::kalah(4).unwrap()
}

// ---- KALAH (seed 002) ----

#[test]
fn kalah_only_the_last_stick_captures_and_both_go_home() {
    // Hole 1 holds 3: the first stick lands in empty hole 2 (facing 4 sticks): no capture, it
    // is not the last; the last lands in empty hole 4 facing 6 sticks: both go home.
    let slots = [3, 0, 1, 0, 1, 1, 0, 1, 1, 6, 1, 4, 1, 0];
    let mut pos = Position::from_slots(kalah(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert_eq!(out.captures.len(), 1);
    let c = out.captures[0];
    assert!(c.last_rock && c.with_own_rock);
    assert_eq!((c.slot, c.opposite_slot, c.taken, c.total()), (4, 10, 6, 7));
    assert_eq!(
        pos.board().slots(),
        &[0, 1, 2, 0, 1, 1, 7, 1, 1, 0, 1, 4, 1, 0]
    );
}

#[test]
fn kalah_no_capture_when_the_opposite_pit_is_empty() {
    let slots = [1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0];
    let mut pos = Position::from_slots(kalah(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert!(out.captures.is_empty());
    assert_eq!(
        pos.board().slots(),
        &[0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0]
    );
    // The "empty capture" switch takes the lone stick home instead.
    let mut rules = kalah();
    rules.set("capture", "empty").unwrap();
    let mut pos = Position::from_slots(rules, &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert_eq!(out.captures[0].total(), 1);
    assert_eq!(
        pos.board().slots(),
        &[0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0]
    );
}

#[test]
fn kalah_the_player_who_empties_a_side_takes_every_stick_in_play() {
    // Player 1 empties their own side with the last stick into the home pit: the game ends and
    // player 1 takes player 2's sticks too (the text's "that player").
    let slots = [0, 0, 0, 0, 0, 1, 20, 1, 1, 1, 1, 1, 1, 10];
    let mut pos = Position::from_slots(kalah(), &slots, Player::One).unwrap();
    let end = pos.play(6).unwrap().end.unwrap();
    assert_eq!(end.swept, [6, 0]);
    assert_eq!(end.scores, [27, 10]);
    // The TI-82 rules give them to their owner.
    let mut pos = Position::from_slots(Rules::ti82(4).unwrap(), &slots, Player::One).unwrap();
    assert_eq!(pos.play(6).unwrap().end.unwrap().scores, [21, 16]);
}

#[test]
fn kalah_emptying_the_opponents_side_also_ends_it() {
    // Player 1's last stick captures player 2's only sticks.
    let slots = [1, 0, 0, 0, 1, 0, 10, 3, 0, 0, 0, 0, 0, 10];
    let mut pos = Position::from_slots(kalah(), &slots, Player::One).unwrap();
    let out = pos.play(5).unwrap();
    assert_eq!(out.captures[0].taken, 3);
    let end = out.end.unwrap();
    assert_eq!(end.swept, [1, 0]);
    assert_eq!(end.scores, [15, 10]);
}

// ---- Py-Mancala (seed 003) ----

#[test]
fn py_mancala_starts_with_four_a_hole() {
    let pos = Position::new(Rules::py_mancala());
    assert_eq!(
        pos.board().slots(),
        &[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]
    );
}

#[test]
fn py_mancala_the_last_counter_captures_itself_and_the_opposite_hole() {
    let slots = [1, 0, 4, 4, 4, 4, 0, 4, 4, 4, 4, 5, 4, 0];
    let mut pos = Position::from_slots(Rules::py_mancala(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert_eq!(out.captures[0].total(), 6);
    assert_eq!(
        pos.board().slots(),
        &[0, 0, 4, 4, 4, 4, 6, 4, 4, 4, 4, 0, 4, 0]
    );
    // And itself alone when the opposite hole is empty.
    let slots = [1, 0, 4, 4, 4, 4, 0, 4, 4, 4, 4, 0, 4, 0];
    let mut pos = Position::from_slots(Rules::py_mancala(), &slots, Player::One).unwrap();
    let out = pos.play(1).unwrap();
    assert_eq!(out.captures[0].total(), 1);
    assert_eq!(
        pos.board().slots(),
        &[0, 0, 4, 4, 4, 4, 1, 4, 4, 4, 4, 0, 4, 0]
    );
}

/// Py-Mancala's documented bug: green (player 2, the top row) does not steal when its last
/// counter ends in its second space from the right (slot 9) with "00-01" in its two rightmost
/// spaces (slot 9 empty, slot 8 one counter) and counters in blue's second space from the right
/// (slot 5, which faces slot 9). Here the steal happens.
#[test]
fn py_mancala_stealing_bug_is_not_here() {
    let slots = [4, 4, 4, 4, 3, 4, 0, 1, 0, 4, 4, 4, 4, 0];
    let mut pos = Position::from_slots(Rules::py_mancala(), &slots, Player::Two).unwrap();
    let out = pos.play_slot(8).unwrap();
    assert_eq!(out.captures.len(), 1);
    let c = out.captures[0];
    assert_eq!((c.slot, c.opposite_slot, c.taken, c.total()), (9, 5, 3, 4));
    assert_eq!(
        pos.board().slots(),
        &[4, 4, 4, 4, 0, 4, 0, 0, 0, 4, 4, 4, 4, 4]
    );
    assert_eq!(pos.to_move(), Player::One);
}

/// Every house of both players steals from the house it faces.
#[test]
fn py_mancala_every_house_steals_for_both_players() {
    for player in [Player::One, Player::Two] {
        for target in 2..=6u8 {
            // The house before `target` holds one counter, `target` is empty, the rest hold 2;
            // the opponent's row holds 3 each.
            let mut own = [2u8; 6];
            own[usize::from(target) - 2] = 1;
            own[usize::from(target) - 1] = 0;
            let mut slots = vec![];
            let (first, second) = match player {
                Player::One => (own, [3; 6]),
                Player::Two => ([3; 6], own),
            };
            slots.extend(first);
            slots.push(0);
            slots.extend(second);
            slots.push(0);
            let mut pos = Position::from_slots(Rules::py_mancala(), &slots, player).unwrap();
            let out = pos.play(target - 1).unwrap();
            assert_eq!(out.captures.len(), 1, "{player} into house {target}");
            let c = out.captures[0];
            assert_eq!(c.opposite_slot, 14 - c.slot);
            assert_eq!(c.total(), 4);
            assert_eq!(pos.board().store(player), 4);
        }
    }
}

#[test]
fn py_mancala_24_all_is_a_draw() {
    // Blue's last counter goes home (23 + 1), blue's row is then empty and green keeps its 2
    // counters (22 + 2): 24-24.
    let slots = [0, 0, 0, 0, 0, 1, 23, 0, 0, 0, 1, 1, 0, 22];
    let mut pos = Position::from_slots(Rules::py_mancala(), &slots, Player::One).unwrap();
    let end = pos.play(6).unwrap().end.unwrap();
    assert_eq!(end.scores, [24, 24]);
    assert_eq!(end.result, GameResult::Draw);
}

// ---- The switches ----

#[test]
fn mover_empty_ends_only_when_the_player_to_move_cannot() {
    let mut rules = Rules::kalah_standard(6, 4).unwrap();
    rules.end = EndRule::MoverEmpty;
    // Player 1 empties their own side without a free turn: player 2 can still move.
    let slots = [0, 0, 0, 0, 1, 0, 20, 0, 1, 1, 1, 1, 1, 10];
    let mut pos = Position::from_slots(rules, &slots, Player::One).unwrap();
    let out = pos.play(5).unwrap();
    assert!(out.end.is_none());
    assert_eq!(out.next, Some(Player::Two));
    // Player 2's move does not reach player 1's side, so player 1 cannot move: the end.
    let out = pos.play(2).unwrap();
    let end = out.end.unwrap();
    assert_eq!(end.swept, [0, 5]);
    assert_eq!(end.scores, [21, 15]);
}

#[test]
fn free_turn_switch() {
    let mut rules = Rules::ti82(4).unwrap();
    rules.set("free-turn", "off").unwrap();
    let mut pos = Position::new(rules);
    let out = pos.play(3).unwrap();
    assert_eq!(out.last_slot, 7);
    assert!(!out.free_turn);
    assert_eq!(pos.to_move(), Player::Two);
}

#[test]
fn capture_never_switch() {
    let mut rules = Rules::ti82(4).unwrap();
    rules.set("capture-on", "never").unwrap();
    let slots = [3, 0, 1, 0, 1, 1, 0, 1, 1, 6, 1, 4, 1, 0];
    let mut pos = Position::from_slots(rules, &slots, Player::One).unwrap();
    assert!(pos.play(1).unwrap().captures.is_empty());
}

#[test]
fn other_board_sizes() {
    let rules = Rules::kalah_standard(3, 2).unwrap();
    let mut pos = Position::new(rules);
    assert_eq!(pos.board().slots(), &[2, 2, 2, 0, 2, 2, 2, 0]);
    assert_eq!(pos.board().opposite_slot(1), Some(7));
    let out = pos.play(2).unwrap();
    assert!(out.free_turn);
    assert_eq!(pos.board().slots(), &[2, 0, 3, 1, 2, 2, 2, 0]);
    assert!(Rules::kalah_standard(0, 4).is_err());
    assert!(Rules::kalah_standard(13, 4).is_err());
    assert!(Rules::kalah_standard(12, 10).is_ok());
    assert!(
        Rules::kalah_standard(12, 11).is_err(),
        "264 rocks do not fit"
    );
    assert!(Rules::kalah_standard(6, 0).is_err());
}

// ---- Names and switches ----

#[test]
fn presets_by_name() {
    assert_eq!("ti82".parse::<Rules>().unwrap(), Rules::ti82(4).unwrap());
    assert_eq!("TI-82:7".parse::<Rules>().unwrap(), Rules::ti82(7).unwrap());
    assert_eq!("kalah".parse::<Rules>().unwrap(), Rules::kalah(4).unwrap());
    assert_eq!(
        "kalah:6".parse::<Rules>().unwrap(),
        Rules::kalah(6).unwrap()
    );
    assert_eq!("py-mancala".parse::<Rules>().unwrap(), Rules::py_mancala());
    assert_eq!(
        "kalah-standard:4x3".parse::<Rules>().unwrap(),
        Rules::kalah_standard(4, 3).unwrap()
    );
    assert!(matches!(
        "oware".parse::<Rules>(),
        Err(RulesError::UnknownPreset(_))
    ));
    assert!(matches!(
        "ti82:9".parse::<Rules>(),
        Err(RulesError::Ti82Rocks(9))
    ));
    assert!("ti82:x".parse::<Rules>().is_err());
    assert!("kalah-standard:4".parse::<Rules>().is_err());
    assert!("py-mancala:3".parse::<Rules>().is_err());
}

#[test]
fn switches_like_the_command_line() {
    let rules = Rules::from_switches(
        "kalah",
        &[
            ("capture", "empty"),
            ("end", "mover-empty"),
            ("sweep", "owner"),
            ("houses", "4"),
            ("seeds", "3"),
        ],
    )
    .unwrap();
    assert!(!rules.capture.needs_opposite);
    assert_eq!(rules.capture.trigger, CaptureTrigger::LastRock);
    assert_eq!(rules.end, EndRule::MoverEmpty);
    assert_eq!(rules.sweep, SweepRule::Owner);
    assert_eq!((rules.houses(), rules.seeds()), (4, 3));
    assert_eq!(
        rules.to_string(),
        "houses 4, seeds 3, capture-on last-rock, capture empty, capture-rock store, end mover-empty, sweep owner, free-turn on"
    );
    let mut r = Rules::ti82(4).unwrap();
    assert!(matches!(
        r.set("capture", "maybe"),
        Err(RulesError::BadValue {
            switch: "capture",
            ..
        })
    ));
    assert!(matches!(
        r.set("colour", "red"),
        Err(RulesError::UnknownSwitch(_))
    ));
    assert!(r.set("houses", "0").is_err());
    assert!(r.set("seeds", "-1").is_err());
    assert!(r.set("end", "sometime").is_err());
    assert_eq!(
        r,
        Rules::ti82(4).unwrap(),
        "refused switches change nothing"
    );
    assert_eq!("mover".parse::<SweepRule>().unwrap(), SweepRule::Mover);
    assert_eq!(EndRule::EitherRow.to_string(), "either-row");
    assert_eq!(
        "every-drop".parse::<CaptureTrigger>().unwrap(),
        CaptureTrigger::EveryDrop
    );
}
