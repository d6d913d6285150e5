//! The Mancala commentator: scripted `L1` states written into a calculator's RAM (a plain move,
//! a capture, a free turn, a CALC VS CALC jump of several moves, a mismatch, the end of a game,
//! the evaluation on request) and a real MANCALA game on the built-in runtime.

use mancala::{predict, Board, Player, Position, Rules, XorShift};
use ti82_harness::commentary::{describe, MancalaCommentator, QUIET_T};
use ti82_harness::{builtin_programs, settle_watching, Table, MS};
use ti82_machine::{Calc, Key};
use tibasic::firmware::BasicFirmware;
use tifiles::float::TiFloat;
use tifiles::var::{VarData, VarName, Variable};
use tifiles::vat;

/// A calculator whose `L1` the test writes, and a commentator watching it.
struct Script {
    calc: Calc,
    c: MancalaCommentator,
}

impl Script {
    fn new() -> Script {
        let mut calc = Calc::new(BasicFirmware::new());
        calc.run_for(10 * MS);
        let mut c = MancalaCommentator::new();
        c.observe(&calc);
        Script { calc, c }
    }

    /// Stores `L1` (16 elements: board, turn, moves) and lets one frame pass.
    fn set(&mut self, slots: &[u8], turn: u8, count: i64) {
        let mut l: Vec<TiFloat> = slots.iter().map(|&x| TiFloat::from_i64(x.into())).collect();
        l.push(TiFloat::from_i64(turn.into()));
        l.push(TiFloat::from_i64(count));
        self.store(l);
    }

    fn store(&mut self, l: Vec<TiFloat>) {
        let var = Variable {
            name: VarName::list(1).unwrap(),
            data: VarData::List(l),
        };
        vat::store(self.calc.ram_mut(), &var).unwrap();
        self.frame();
    }

    fn frame(&mut self) {
        self.calc.run_for(ti82_machine::FRAME_T);
        self.c.observe(&self.calc);
    }

    /// Lets `L1` stay unchanged long enough to count as quiet.
    fn quiet(&mut self) {
        self.calc.run_for(QUIET_T);
        self.c.observe(&self.calc);
    }

    fn line(&mut self) -> String {
        self.c.line().unwrap_or_else(|| "<none>".into())
    }

    /// Writes `pos` as the program leaves it after `count` moves.
    fn set_pos(&mut self, pos: &Position, count: i64) {
        let turn = if pos.is_over() {
            0
        } else {
            pos.to_move().number()
        };
        self.set(pos.board().slots(), turn, count);
    }

    fn start(&mut self, rocks: u8) -> Position {
        let pos = Position::new(Rules::ti82(rocks).unwrap());
        self.set_pos(&pos, 0);
        pos
    }
}

#[test]
fn nothing_without_a_game() {
    let mut s = Script::new();
    assert_eq!(s.c.line(), None, "no L1");
    s.store(vec![TiFloat::from_i64(1); 5]);
    s.quiet();
    assert_eq!(s.c.line(), None, "a short L1 is not a board");
    // A calculator still connecting (L1(16) = -1) shows nothing either.
    s.set(&[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 1, -1);
    s.quiet();
    assert_eq!(s.c.line(), None);
}

#[test]
fn plain_move_is_explained_once_the_turn_changes() {
    let mut s = Script::new();
    s.start(4);
    assert_eq!(s.line(), "new game, 4 rocks a hole | P1 to move");
    // P1 plays hole 1: 4 rocks into holes 2-5. The program sows, counts the move, then hands
    // the turn over: the half-updated list is neither explained nor flagged.
    let after = [0, 5, 5, 5, 5, 4, 0, 4, 4, 4, 4, 4, 4, 0];
    s.set(&after, 1, 1);
    assert_eq!(s.line(), "new game, 4 rocks a hole | P1 to move");
    s.set(&after, 2, 1);
    assert_eq!(s.line(), "P1 plays 1 | score 0-0");
    s.quiet();
    assert_eq!(s.c.mismatch(), None);
    let (pos, count) = s.c.position().unwrap();
    assert_eq!(
        (pos.board().slots(), pos.to_move(), count),
        (&after[..], Player::Two, 1)
    );
}

#[test]
fn free_turn_and_capture() {
    let mut s = Script::new();
    let mut pos = s.start(4);
    // Hole 3's 4 rocks end in the store: a free turn.
    pos.play(3).unwrap();
    s.set_pos(&pos, 1);
    assert_eq!(s.line(), "P1 plays 3 | free turn | score 1-0");
    // Hole 1's rocks pass the emptied hole 3: that rock captures hole 11 (TI-82 rule: every
    // rock into an own empty hole captures, not only the last).
    pos.play(1).unwrap();
    assert_eq!(
        pos.board().slots(),
        &[0, 5, 1, 6, 6, 5, 5, 4, 4, 4, 0, 4, 4, 0]
    );
    s.set_pos(&pos, 2);
    assert_eq!(s.line(), "P1 plays 1: captures 4 from hole 11 | score 5-0");
    s.quiet();
    assert_eq!(s.c.mismatch(), None);
}

#[test]
fn several_moves_at_once_are_searched() {
    let mut s = Script::new();
    let mut pos = s.start(4);
    pos.play(3).unwrap();
    pos.play(1).unwrap();
    s.set_pos(&pos, 2);
    // Player 2's turn arrives through the link in one piece: hole 3 (slot 10) ends in the
    // store (free turn; its rock into the emptied hole 11 captures hole 3's one rock), then
    // hole 1 (slot 8), whose rock into the just emptied slot 10 captures hole 4's six.
    let first = pos.play(3).unwrap();
    assert!(first.free_turn);
    let second = pos.play(1).unwrap();
    s.set_pos(&pos, 4);
    let line = s.line();
    assert_eq!(line, describe(&[first, second]));
    assert_eq!(
        line,
        "P2 plays 3, 1: captures 1 from hole 3, 6 from hole 4 | score 5-8"
    );
    let (p, count) = s.c.position().unwrap();
    assert_eq!((*p, count), (pos, 4));
}

#[test]
fn mismatch_is_flagged_and_stays() {
    let mut s = Script::new();
    s.start(4);
    // Hole 1 played, but one rock went to hole 6 instead of hole 5.
    let wrong = [0, 5, 5, 5, 4, 5, 0, 4, 4, 4, 4, 4, 4, 0];
    s.set(&wrong, 2, 1);
    assert_eq!(s.c.mismatch(), None, "not before L1 is quiet");
    s.quiet();
    let want =
        "MISMATCH after move 1: expected {0,5,5,5,5,4,0,4,4,4,4,4,4,0} turn 2 (P1 plays 1), \
                L1 {0,5,5,5,4,5,0,4,4,4,4,4,4,0} turn 2";
    assert_eq!(s.c.mismatch(), Some(want));
    assert_eq!(s.line(), want);
    // Later moves do not hide it.
    s.set(&[0, 5, 5, 5, 4, 5, 0, 0, 5, 5, 5, 5, 4, 0], 1, 2);
    s.quiet();
    assert_eq!(s.line(), want);
    // A new game clears it.
    s.start(5);
    assert_eq!(s.line(), "new game, 5 rocks a hole | P1 to move");
    assert_eq!(s.c.mismatch(), None);
}

#[test]
fn board_change_without_a_move_is_a_mismatch() {
    let mut s = Script::new();
    s.start(3);
    s.set(&[3, 3, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3, 0], 1, 0);
    s.quiet();
    assert_eq!(
        s.c.mismatch(),
        Some("MISMATCH after move 0: L1 changed to {3,3,3,3,3,3,1,3,3,3,3,3,3,0} turn 1 but L1(16) did not")
    );
}

#[test]
fn game_end_and_a_game_under_way() {
    let mut s = Script::new();
    // A calculator restored in the middle of a game: picked up once L1 is quiet.
    let board = Board::from_slots(&[0, 0, 0, 0, 0, 1, 25, 1, 1, 1, 1, 1, 1, 16]).unwrap();
    let pos = Position::from_board(Rules::ti82(4).unwrap(), board, Player::One).unwrap();
    s.set_pos(&pos, 40);
    assert_eq!(s.c.line(), None);
    s.quiet();
    assert_eq!(
        s.line(),
        "following from move 40 | P1 to move | score 25-16"
    );
    // The evaluation on request: one move left, so the search is exact.
    s.c.toggle_eval();
    let solved = mancala::solve(&pos);
    assert_eq!(solved.margin, 4);
    assert_eq!(
        s.c.line_waiting_for_eval().unwrap(),
        "following from move 40 | P1 to move | score 25-16 | eval P1 +4 (exact), best 6"
    );
    // P1's last rock empties the row: the game ends, each side keeps its rocks.
    let end = predict(*pos.rules(), pos.board(), Player::One, 6).unwrap();
    s.set(end.board.slots(), 0, 41);
    assert_eq!(s.line(), "P1 plays 6 | P1 wins 26-22");
    // Nothing to evaluate once the game is over.
    assert_eq!(
        s.c.line_waiting_for_eval().unwrap(),
        "P1 plays 6 | P1 wins 26-22"
    );
    // A tie.
    let board = Board::from_slots(&[0, 0, 0, 0, 0, 1, 23, 0, 0, 0, 0, 0, 1, 23]).unwrap();
    let pos = Position::from_board(Rules::ti82(4).unwrap(), board, Player::Two).unwrap();
    let mut s = Script::new();
    s.set_pos(&pos, 30);
    s.quiet();
    assert_eq!(
        s.line(),
        "following from move 30 | P2 to move | score 23-23"
    );
    let end = predict(*pos.rules(), pos.board(), Player::Two, 6).unwrap();
    s.set(end.board.slots(), 0, 31);
    assert_eq!(s.line(), "P2 plays 6 | tie 24-24");
}

#[test]
fn evaluation_matches_the_engine() {
    let mut s = Script::new();
    let mut pos = s.start(3);
    pos.play(2).unwrap();
    s.set_pos(&pos, 1);
    assert_eq!(
        s.c.toggle_eval(),
        "engine evaluation on (2000000 nodes a position)"
    );
    let line = s.c.line_waiting_for_eval().unwrap();
    let mut engine = mancala::Engine::new(mancala::EngineOptions {
        level: mancala::Level::Hard,
        seed: 1,
        table_bits: 20,
        node_budget: Some(ti82_harness::commentary::EVAL_NODES),
        ..mancala::EngineOptions::default()
    });
    let choice = engine.choose(&pos).unwrap();
    let want = ti82_harness::commentary::eval_text(&pos, &choice);
    assert!(want.starts_with("eval P2 "), "{want}");
    assert_eq!(line, format!("P1 plays 2 | score 0-0 | {want}"));
    s.c.toggle_eval();
    assert_eq!(s.line(), "P1 plays 2 | score 0-0");
}

/// Runs `ms` emulated milliseconds a frame at a time, the commentator watching every frame.
fn run(calc: &mut Calc, c: &mut MancalaCommentator, ms: u64) {
    let end = calc.now() + ms * MS;
    while calc.now() < end {
        calc.run_for(ti82_machine::FRAME_T.min(end - calc.now()));
        c.observe(calc);
    }
}

fn press(calc: &mut Calc, c: &mut MancalaCommentator, k: Key) {
    calc.press(k);
    run(calc, c, 30);
    calc.release(k);
    run(calc, c, 30);
    // As `ti82_harness::press`: let the program show the key's effect before the next one.
    settle_watching(calc, ti82_harness::KEY_QUIET_MS, 10_000, &mut |calc| {
        c.observe(calc)
    });
}

#[test]
fn real_mancala_game_on_the_builtin_runtime() {
    let mut table = Table::new(&builtin_programs().unwrap()).unwrap();
    let calc = &mut table.calc;
    let mut c = MancalaCommentator::new();
    run(calc, &mut c, 200);
    assert_eq!(c.line(), None, "the main menu: no game yet");
    press(calc, &mut c, Key::K1);
    // At a real TI-82's pace the board takes a while to draw: wait for it, as a player does.
    assert!(settle_watching(calc, 300, 60_000, &mut |calc| c.observe(calc)));
    assert_eq!(
        c.line().as_deref(),
        Some("new game, 4 rocks a hole | P1 to move")
    );
    let rules = Rules::ti82(4).unwrap();
    let mut pos = Position::new(rules);
    let mut rng = XorShift::new(7);
    let mut moves = 0;
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let house = legal[rng.below(legal.len())];
        let mover = pos.to_move();
        let expected = predict(rules, pos.board(), mover, house).unwrap();
        for _ in 0..5 {
            press(calc, &mut c, Key::Left);
        }
        let rights = match mover {
            Player::One => house - 1,
            Player::Two => 6 - house,
        };
        for _ in 0..rights {
            press(calc, &mut c, Key::Right);
        }
        press(calc, &mut c, Key::Enter);
        let mut waited = 0;
        while c.position().map(|(_, n)| n) != Some(moves + 1) {
            assert!(
                waited < 60_000,
                "move {} not explained: {:?}",
                moves + 1,
                c.line()
            );
            run(calc, &mut c, 10);
            waited += 10;
        }
        // The program redraws the board before it reads keys again.
        assert!(settle_watching(calc, 200, 60_000, &mut |calc| c.observe(calc)));
        pos.play(house).unwrap();
        moves += 1;
        assert_eq!(c.line(), Some(describe(&[expected])), "move {moves}");
        assert_eq!(c.position().map(|(p, _)| *p), Some(pos));
    }
    // The result stays, and nothing was ever flagged even once L1 is quiet.
    run(calc, &mut c, 1_500);
    assert_eq!(c.mismatch(), None);
    let line = c.line().unwrap();
    assert!(
        line.contains(" wins ") || line.contains(" | tie "),
        "{line}"
    );
    eprintln!("{moves} moves: {line}");
    assert!(moves > 10, "{moves} moves");
}

#[test]
fn too_many_moves_at_once_are_picked_up_unverified() {
    let mut s = Script::new();
    s.start(4);
    // Twelve moves in one jump: more sequences than the search tries.
    s.set(&[2, 2, 2, 2, 2, 2, 14, 2, 2, 2, 2, 2, 2, 10], 1, 12);
    assert_eq!(s.line(), "new game, 4 rocks a hole | P1 to move");
    s.quiet();
    assert_eq!(
        s.line(),
        "12 moves at once, not followed | following from move 12 | P1 to move | score 14-10"
    );
    assert_eq!(s.c.mismatch(), None);
    // Thirteen or more, or backwards: picked up the same way.
    s.set(&[2, 2, 2, 2, 2, 2, 14, 2, 2, 2, 2, 2, 2, 10], 2, 40);
    s.quiet();
    assert_eq!(
        s.line(),
        "following from move 40 | P2 to move | score 14-10"
    );
}
