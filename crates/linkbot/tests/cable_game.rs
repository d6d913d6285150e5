//! Whole MANCALA games against the bot through the cable: the human side is MANCALA on the
//! built-in runtime driven through its keypad (as the conformance harness does), the bot sits on
//! the far end of the calculator's link cable. After every move the calculator's `L1` and the
//! bot's view of the game are compared with the rules crate's prediction, for both answers to
//! WHO'S FIRST?.

use linkbot::{l1_of, BotConfig, BotPeer, Phase, L1_LEN};
use mancala::{Level, Player, Position, Rules, XorShift};
use ti82_harness::{builtin_programs, Table, MS};
use ti82_machine::{Calc, Key};
use tilink::VirtualCable;

struct Rig {
    calc: Calc,
    cable: VirtualCable,
    bot: BotPeer,
}

fn calc_l1(calc: &Calc) -> Option<[i64; L1_LEN]> {
    let list = tifiles::vat::read_list(calc.ram(), 1).ok()??;
    if list.len() != L1_LEN {
        return None;
    }
    let mut l = [0; L1_LEN];
    for (d, f) in l.iter_mut().zip(&list) {
        *d = f.to_i64()?;
    }
    Some(l)
}

impl Rig {
    fn new(level: Level, seed: u64) -> Rig {
        let programs = builtin_programs().expect("programs");
        let mut table = Table::new(&programs).expect("MANCALA's main menu");
        let cable = VirtualCable::attach(&mut table.calc, ti82_machine::cable::DEFAULT_LATENCY);
        let bot = BotPeer::new(BotConfig {
            level,
            seed,
            node_budget: Some(200_000),
            ..BotConfig::default()
        });
        Rig {
            calc: table.calc,
            cable,
            bot,
        }
    }

    fn run_ms(&mut self, ms: u64) {
        let until = self.calc.now() + ms * MS;
        let bot = &mut self.bot;
        self.cable.run(&mut self.calc, until, |ep| bot.poll(ep));
        for m in self.bot.take_messages() {
            eprintln!("{m}");
        }
    }

    fn press(&mut self, k: Key) {
        self.calc.press(k);
        self.run_ms(30);
        self.calc.release(k);
        self.run_ms(30);
        // As `ti82_harness::press`: at a real TI-82's pace, let the program show the key's
        // effect before the next key.
        self.settle(ti82_harness::KEY_QUIET_MS);
    }

    fn look(&self) -> (Vec<u8>, Option<[i64; L1_LEN]>) {
        let mut ram = self.calc.hardware().lcd.display_ram().to_vec();
        // The run indicator animates the top-right corner.
        for row in 0..8 {
            ram[row * 15 + 11] = 0;
        }
        (ram, calc_l1(&self.calc))
    }

    /// Runs until the screen and `L1` have not changed for `quiet` ms.
    fn settle(&mut self, quiet: u64) {
        let mut last = self.look();
        let mut stable = 0;
        for _ in 0..6000 {
            self.run_ms(10);
            let now = self.look();
            if now == last {
                stable += 10;
                if stable >= quiet {
                    return;
                }
            } else {
                stable = 0;
                last = now;
            }
        }
        panic!(
            "the calculator did not settle:\n{}",
            self.calc.lcd().to_text()
        );
    }

    fn wait_until(&mut self, what: &str, limit_ms: u64, f: impl Fn(&Rig) -> bool) {
        let mut waited = 0;
        while !f(self) {
            assert!(
                waited < limit_ms,
                "timed out waiting for {what}; bot: {:?} {}\nscreen:\n{}",
                self.bot.phase(),
                self.bot.status(),
                self.calc.lcd().to_text()
            );
            self.run_ms(10);
            waited += 10;
        }
    }

    /// MAIN MENU → PLAYER OPTIONS → CALC VS CALC → WHO'S FIRST? → `who` → MAIN MENU → PLAY.
    fn start_linked_game(&mut self, who: Key) {
        for k in [Key::K2, Key::K2, Key::K3, who, Key::K4, Key::K1] {
            self.press(k);
            self.settle(150);
        }
    }

    /// Selects and plays `house` for `player` (the harness's way: ◄ to the end, ► to the hole).
    fn play(&mut self, player: Player, house: u8) {
        for _ in 0..5 {
            self.press(Key::Left);
        }
        let rights = match player {
            Player::One => house - 1,
            Player::Two => 6 - house,
        };
        for _ in 0..rights {
            self.press(Key::Right);
        }
        let before = calc_l1(&self.calc);
        self.press(Key::Enter);
        self.wait_until("the move on the calculator", 60_000, |r| {
            calc_l1(&r.calc) != before
        });
        self.settle(200);
    }
}

/// A move as the test saw it: mover, house, `L1` after it.
type Played = (Player, u8, [i64; L1_LEN]);

/// Checks that the bot's history starts with `played`, then takes the bot's own moves after
/// it onto `pos` (each legal, each `L1` right).
fn follow_bot(rig: &Rig, pos: &mut Position, played: &mut Vec<Played>) {
    let history = rig.bot.history();
    assert!(history.len() >= played.len(), "the bot has lost moves");
    for (rec, (player, house, l1)) in history.iter().zip(played.iter()) {
        assert_eq!(
            (rec.player, rec.house, rec.l1),
            (*player, *house, *l1),
            "the bot's view of the game"
        );
    }
    for rec in &history[played.len()..] {
        assert_eq!(rec.player, pos.to_move(), "the bot moved out of turn");
        assert!(
            pos.is_legal(rec.house),
            "illegal bot move {} in {pos}",
            rec.house
        );
        pos.play(rec.house).unwrap();
        let l1 = l1_of(pos, played.len() as i64 + 1);
        assert_eq!(rec.l1, l1, "the bot's L1 after its hole {}", rec.house);
        played.push((rec.player, rec.house, l1));
    }
}

/// One game; `human` is the side the keypad plays. Returns the number of moves.
fn play_game(rig: &mut Rig, human: Player, seed: u64) -> usize {
    let rules = Rules::ti82(4).unwrap();
    let mut pos = Position::new(rules);
    let mut played: Vec<Played> = Vec::new();
    let mut rng = XorShift::new(seed);
    let games_before = rig.bot.games();
    match human {
        Player::One => {
            rig.start_linked_game(Key::K1);
            rig.wait_until("the bot to connect as player 2", 10_000, |r| {
                r.bot.games() > games_before && r.bot.phase() == &Phase::Polling
            });
            assert_eq!(rig.bot.game().unwrap().1, Player::Two);
            assert_eq!(rig.bot.l1(), l1_of(&pos, 0));
            rig.press(Key::Enter);
            rig.settle(200);
        }
        Player::Two => {
            rig.start_linked_game(Key::K2);
            // The calculator pulls the bot's starting board, the bot moves, the calculator
            // pulls again until it is its turn.
            rig.wait_until("the calculator to get the bot's first move", 20_000, |r| {
                r.bot.games() > games_before
                    && r.bot.phase() == &Phase::Polling
                    && calc_l1(&r.calc).is_some_and(|l| l[14] == 2 && l == r.bot.l1())
            });
            rig.settle(200);
            assert_eq!(rig.bot.game().unwrap().1, Player::One);
            follow_bot(rig, &mut pos, &mut played);
            assert_eq!(calc_l1(&rig.calc), Some(l1_of(&pos, played.len() as i64)));
        }
    }
    while !pos.is_over() {
        assert_eq!(pos.to_move(), human);
        let legal = pos.legal_moves();
        let house = legal[rng.below(legal.len())];
        let before = pos;
        rig.play(human, house);
        pos.play(house).unwrap();
        let l1 = l1_of(&pos, played.len() as i64 + 1);
        played.push((human, house, l1));
        // The calculator's L1 after the human's move.
        assert_eq!(
            calc_l1(&rig.calc),
            Some(l1),
            "the calculator's L1 after hole {house} from {before}"
        );
        if !pos.is_over() && pos.to_move() == human {
            continue; // a free turn: no pause, play again
        }
        // The calculator waits at Pause; the bot pulls the board and answers at once.
        let want = played.len();
        rig.wait_until("the bot to pull the move", 20_000, |r| {
            r.bot.history().len() >= want
        });
        follow_bot(rig, &mut pos, &mut played);
        if pos.is_over() && played.len() == want {
            // The human's move ended the game.
            assert_eq!(rig.bot.phase(), &Phase::Waiting);
            break;
        }
        assert_eq!(rig.bot.phase(), &Phase::Holding);
        let expected = l1_of(&pos, played.len() as i64);
        assert_eq!(rig.bot.l1(), expected);
        // The human presses ENTER: the calculator pulls the bot's board.
        rig.press(Key::Enter);
        rig.wait_until("the calculator to pull the bot's move", 20_000, |r| {
            calc_l1(&r.calc) == Some(expected)
        });
        rig.settle(200);
        assert_eq!(calc_l1(&rig.calc), Some(expected));
        if pos.is_over() {
            rig.wait_until("the bot to see the end", 5_000, |r| {
                r.bot.phase() == &Phase::Waiting
            });
        } else {
            assert_eq!(rig.bot.phase(), &Phase::Polling);
        }
    }
    assert_eq!(rig.bot.history().len(), played.len());
    assert_eq!(calc_l1(&rig.calc).unwrap()[14], 0, "L1(15) is 0 at the end");
    // The result screen waits for ENTER, then the main menu comes back.
    rig.press(Key::Enter);
    rig.settle(200);
    played.len()
}

#[test]
fn a_game_against_the_bot_as_player_2() {
    let mut rig = Rig::new(Level::Hard, 1);
    let moves = play_game(&mut rig, Player::One, 7);
    assert!(moves > 4);
}

#[test]
fn a_game_against_the_bot_as_player_1_then_another_as_player_2() {
    let mut rig = Rig::new(Level::Medium, 3);
    let moves = play_game(&mut rig, Player::Two, 11);
    assert!(moves > 4);
    // A second game on the same cable, the other way round.
    let moves = play_game(&mut rig, Player::One, 12);
    assert!(moves > 4);
    assert_eq!(rig.bot.games(), 2);
}
