//! The bot against a scripted "calculator" on a direct cable: a `tilink` holder serving an
//! `L1` the test controls, and a requester pulling the bot's.

use linkbot::{l1_of, parse_l1, BotConfig, BotPeer, Phase, L1_LEN};
use mancala::{Level, Player, Position, Rules};
use tifiles::float::TiFloat;
use tifiles::var::{VarData, VarName, VarType, Variable};
use tilink::{DirectCable, Holder, HolderPoll, Progress, Requester, Timing, Wake, MID_TI82};

const SECOND: u64 = 6_000_000;

fn l1_var(l: &[i64; L1_LEN]) -> Variable {
    Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(l.iter().map(|&x| TiFloat::from_i64(x)).collect()),
    }
}

fn bot() -> BotPeer {
    BotPeer::new(BotConfig {
        level: Level::Hard,
        node_budget: Some(50_000),
        ..BotConfig::default()
    })
}

/// Runs a calculator that only answers requests (at `Pause`) holding `held`, against the bot.
// `VarSource` is implemented for `Vec<Variable>` (a slice is unsized, no `dyn` of it).
#[allow(clippy::ptr_arg)]
fn hold_for(
    cable: &mut DirectCable,
    holder: &mut Holder,
    bot: &mut BotPeer,
    held: &mut Vec<Variable>,
    t: u64,
) {
    let until = cable.now() + t;
    cable.run(
        until,
        |ep| match holder.poll(ep, held) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(_) => Wake::at(ep.now + 1),
        },
        |ep| bot.poll(ep),
    );
}

#[test]
fn an_illegal_board_stops_the_bot_with_a_message_and_it_answers_nothing() {
    let rules = Rules::ti82(4).unwrap();
    let start = Position::new(rules);
    let mut cable = DirectCable::new(40);
    let mut bot = bot();
    let mut holder = Holder::new(MID_TI82, Timing::default());
    // The "calculator" chose ME and waits at CONNECTING... with a starting board.
    let mut held = vec![l1_var(&l1_of(&start, 0))];
    hold_for(&mut cable, &mut holder, &mut bot, &mut held, 3 * SECOND);
    assert_eq!(bot.phase(), &Phase::Polling);
    assert_eq!(bot.game().unwrap().1, Player::Two);
    // Player 1 "moves" by conjuring a rock into its store.
    let mut p = start;
    p.play(1).unwrap();
    let mut bad = l1_of(&p, 1);
    bad[6] += 1;
    held[0] = l1_var(&bad);
    hold_for(&mut cable, &mut holder, &mut bot, &mut held, 3 * SECOND);
    let Phase::Stopped(why) = bot.phase().clone() else {
        panic!("the bot accepted an illegal board: {:?}", bot.phase());
    };
    assert!(why.contains("no legal move"), "{why}");
    assert!(bot.history().is_empty());
    // Stopped: a request to the bot times out.
    let mut req = Requester::new(
        MID_TI82,
        Timing::default(),
        VarType::List,
        VarName::list(1).unwrap(),
    );
    let mut got = None;
    let until = cable.now() + 5 * SECOND;
    cable.run(
        until,
        |ep| match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                got.get_or_insert(r);
                Wake::NEVER
            }
        },
        |ep| bot.poll(ep),
    );
    let got = got.expect("the request ended");
    assert!(got.unwrap_err().is_timeout());
    // A new game: the bot waits again and serves a starting board.
    bot.new_game();
    let mut req = Requester::new(
        MID_TI82,
        Timing::default(),
        VarType::List,
        VarName::list(1).unwrap(),
    );
    let mut got = None;
    let until = cable.now() + 5 * SECOND;
    cable.run(
        until,
        |ep| match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                got.get_or_insert(r);
                Wake::NEVER
            }
        },
        |ep| bot.poll(ep),
    );
    let l = parse_l1(&got.expect("the request ended").expect("served")).unwrap();
    assert_eq!(l, l1_of(&start, 0));
    // Being pulled once made the bot player 1: it has moved.
    assert_eq!(bot.game().unwrap().1, Player::One);
    assert!(!bot.history().is_empty());
    assert_eq!(bot.phase(), &Phase::Holding);
}

#[test]
fn non_boards_and_foreign_lists_are_ignored_while_waiting() {
    let mut cable = DirectCable::new(40);
    let mut bot = bot();
    let mut holder = Holder::new(MID_TI82, Timing::default());
    // A calculator whose L1 is some other list: not a game.
    let other = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![TiFloat::from_i64(7); 5]),
    };
    let mut held = vec![other];
    hold_for(&mut cable, &mut holder, &mut bot, &mut held, 5 * SECOND);
    assert_eq!(bot.phase(), &Phase::Waiting);
    // A finished game is no starting board either.
    let mut l = [0i64; L1_LEN];
    l[6] = 20;
    l[13] = 28;
    held[0] = l1_var(&l);
    hold_for(&mut cable, &mut holder, &mut bot, &mut held, 5 * SECOND);
    assert_eq!(bot.phase(), &Phase::Waiting);
    assert_eq!(bot.games(), 0);
}
