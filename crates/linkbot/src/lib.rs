//! A computer opponent on the link cable: [`BotPeer`] plays the second calculator of MANCALA's
//! CALC VS CALC (`docs/mancala-programs.md`) with the `mancala` engine, speaking the TI link
//! protocol on the far end of a calculator's cable.
//!
//! It behaves as the program does on a second TI-82: it keeps its own 16-element board list
//! `L1` (the same layout), answers silent requests for it while "paused" ([`tilink::Holder`])
//! and pulls the other calculator's `L1` with silent requests while it waits for the other
//! player ([`tilink::Requester`]), retrying after each time-out. Nothing on the calculator side
//! changes: the unmodified MANCALA program plays against it, on the built-in runtime or (the
//! same wire protocol) on a ROM.
//!
//! The bot is a steppable state machine, polled with the cable end and the emulated time like
//! every `tilink` sequence: plug it into a [`machine::Calc`] with a [`tilink::VirtualCable`]
//! and run the two together with `cable.run(&mut calc, until, |ep| bot.poll(ep))`. No threads,
//! no wall clock; the engine's random choices come from [`BotConfig::seed`].
//!
//! # The connect step, both ways
//!
//! While no game is on the bot holds a starting board (`L1(15)` = 1, `L1(16)` = 0, its own
//! rocks per hole), exactly what a first player shows at its `CONNECTING...` pause, and every
//! [`BotConfig::probe_every`] it pulls the calculator's `L1` once:
//!
//! - the human chose WHO'S FIRST? → **ME** and PLAY: the calculator waits at `CONNECTING...`
//!   with a starting board. The bot's next pull gets it: the bot is player 2 and polls (as the
//!   program's `Repeat L1(15)!=3-G` loop does) until the pulled board says the human's turn is
//!   over.
//! - the human chose **OPPONENT** and PLAY: the calculator pulls the bot's starting board (its
//!   `Repeat L1(16)>=0` loop). Once it has been pulled, the bot is player 1: it "presses
//!   ENTER", plays its first move and holds the new board until the calculator has pulled it.
//!
//! Every board the bot pulls during a game is checked: when it says the human's turn is over
//! (`L1(15)` is the bot's number or 0), it must be what one legal move of the human (or a
//! sequence of them through free turns) makes of the last board, with the move count right.
//! Anything else stops the bot with a message naming the board ([`Phase::Stopped`]); it then
//! answers nothing.

#![forbid(unsafe_code)]

use std::fmt;

use mancala::{Choice, Engine, EngineOptions, Explained, Level, Player, Position, Rules};
use ti82_machine::link::LinkEndpoint;
use tifiles::float::TiFloat;
use tifiles::var::{VarData, VarName, VarType, Variable};
use tilink::{HolderEvent, HolderPoll, Progress, TimedPort, Timing, Wake, MID_TI82};

/// Elements of MANCALA's `L1`.
pub const L1_LEN: usize = 16;
/// T-states per emulated second.
pub const T_PER_SECOND: u64 = 6_000_000;

/// Nodes a pulled board's check may try (sequences of free turns) before it gives up.
const VERIFY_BUDGET: u64 = 200_000;

/// How the bot plays and talks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotConfig {
    /// The engine's level.
    pub level: Level,
    /// Seed of the engine's random choices (the easy levels).
    pub seed: u64,
    /// Nodes a move; `None`: the level's default.
    pub node_budget: Option<u64>,
    /// Rocks per hole when the bot goes first (its ROCKS PER HOLE setting, 3 to 8).
    pub rocks: u8,
    /// The bot's link timing. The default answers like a TI-82 but gives up on an unanswered
    /// request after half a second (the calculator answers within milliseconds when it
    /// answers at all), so it notices a finished move sooner than a second calculator would.
    pub timing: Timing,
    /// While no game is on: T-states between two pulls of the calculator's `L1`.
    pub probe_every: u64,
    /// During a game: T-states between the end of one pull and the next. Longer than a
    /// listener's resync quiet (`Timing::resync_quiet`, 100 ms): a calculator that starts
    /// listening in the middle of a pull waits for that much quiet before it hears the next one,
    /// so shorter gaps keep it deaf for good.
    pub retry_gap: u64,
}

impl Default for BotConfig {
    fn default() -> BotConfig {
        let half = T_PER_SECOND / 2;
        BotConfig {
            level: Level::Hard,
            seed: 1,
            node_budget: None,
            rocks: 4,
            timing: Timing {
                step_timeout: half,
                byte_timeout: half,
                reply_timeout: half,
                ..Timing::default()
            },
            probe_every: T_PER_SECOND,
            retry_gap: T_PER_SECOND * 3 / 20,
        }
    }
}

/// What the bot is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No game: holding a starting board and pulling the calculator's `L1` now and then.
    Waiting,
    /// A game is on and it is the human's turn: pulling the calculator's `L1` until the board
    /// says the turn is over.
    Polling,
    /// The bot has moved and holds its board until the calculator pulls it (the mover's
    /// `Pause`).
    Holding,
    /// The calculator sent a board that no legal move explains (or the engine failed): the
    /// bot answers nothing until a new game is asked for ([`BotPeer::new_game`]).
    Stopped(String),
}

/// One move of the game as the bot has seen it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Who played.
    pub player: Player,
    /// The house, 1-6 in the mover's sowing order.
    pub house: u8,
    /// `L1` after the move (the 16 elements as MANCALA writes them).
    pub l1: [i64; L1_LEN],
    /// The engine's choice, for the bot's own moves.
    pub choice: Option<Choice>,
}

/// Why a pulled `L1` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Not a list of 16 whole numbers.
    NotABoard(String),
    /// `L1(15)` is not 0, 1 or 2.
    BadTurn(i64),
    /// No legal move of the human (through free turns) makes this board of the last one.
    Illegal {
        before: Box<[i64; L1_LEN]>,
        after: Box<[i64; L1_LEN]>,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::NotABoard(why) => write!(f, "the calculator's L1 is not a board: {why}"),
            BoardError::BadTurn(t) => write!(f, "the calculator's L1(15) is {t}, not 0, 1 or 2"),
            BoardError::Illegal { before, after } => write!(
                f,
                "the calculator's L1 {} is no legal move from {}",
                show(after),
                show(before)
            ),
        }
    }
}

impl std::error::Error for BoardError {}

fn show(l: &[i64; L1_LEN]) -> String {
    let v: Vec<String> = l.iter().map(|x| x.to_string()).collect();
    format!("{{{}}}", v.join(","))
}

/// Which link state machine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Answering requests (the holder).
    Hold,
    /// Pulling the calculator's `L1` (a requester, started at `request_at`).
    Request,
    /// Nothing (stopped).
    Off,
}

/// The second calculator of CALC VS CALC, played by the engine. See the crate docs.
pub struct BotPeer {
    config: BotConfig,
    engine: Engine,
    phase: Phase,
    mode: Mode,
    holder: tilink::Holder,
    requester: Option<tilink::Requester>,
    request_at: u64,
    next_probe: u64,
    /// The bot's `L1`.
    l1: [i64; L1_LEN],
    /// The game: the position and the bot's player number.
    game: Option<(Position, Player)>,
    history: Vec<MoveRecord>,
    messages: Vec<String>,
    last_choice: Option<Choice>,
    new_game_asked: bool,
    games: u32,
}

fn start_l1(rocks: u8) -> [i64; L1_LEN] {
    let mut l = [i64::from(rocks); L1_LEN];
    l[6] = 0;
    l[13] = 0;
    l[14] = 1;
    l[15] = 0;
    l
}

/// MANCALA's board list for `pos` after `count` moves: the 14 slots, then the player to move
/// (0 once the game is over) and the move count (`docs/mancala-programs.md`).
pub fn l1_of(pos: &Position, count: i64) -> [i64; L1_LEN] {
    let mut l = [0; L1_LEN];
    for (d, &s) in l.iter_mut().zip(pos.board().slots()) {
        *d = i64::from(s);
    }
    l[14] = if pos.is_over() {
        0
    } else {
        i64::from(pos.to_move().number())
    };
    l[15] = count;
    l
}

/// `L1` as 16 whole numbers.
pub fn parse_l1(var: &Variable) -> Result<[i64; L1_LEN], BoardError> {
    let VarData::List(items) = &var.data else {
        return Err(BoardError::NotABoard("not a list".into()));
    };
    if items.len() != L1_LEN {
        return Err(BoardError::NotABoard(format!(
            "{} elements, not {L1_LEN}",
            items.len()
        )));
    }
    let mut l = [0; L1_LEN];
    for (i, (d, f)) in l.iter_mut().zip(items).enumerate() {
        *d = f.to_i64().ok_or_else(|| {
            BoardError::NotABoard(format!("element {} is not a whole number", i + 1))
        })?;
    }
    Ok(l)
}

/// The rocks per hole when `l` is a starting board as MANCALA's PLAY writes it (player 1 to
/// move, no move made, equal holes of 3 to 8 rocks, empty stores).
pub fn starting_rocks(l: &[i64; L1_LEN]) -> Option<u8> {
    let r = l[0];
    let holes_equal = (0..13).filter(|&i| i != 6).all(|i| l[i] == r);
    (holes_equal && l[6] == 0 && l[13] == 0 && l[14] == 1 && l[15] == 0 && (3..=8).contains(&r))
        .then_some(r as u8)
}

/// The largest move count (`L1(16)`) the bot follows: far beyond any real game, far below
/// where counting on from it could overflow.
pub const MAX_MOVE_COUNT: i64 = 1 << 40;

/// The houses of the turn of the player to move in `pos` (one move, or several through free
/// turns) that turn `pos` (move count `count`) into the board list `target`, or `None`.
fn explain_turn(pos: &Position, count: i64, target: &[i64; L1_LEN]) -> Option<Vec<u8>> {
    // The count is the calculator's L1(16): any number a program stored there. Bounded before
    // it sizes anything (`mancala::MAX_EXPLAINED_MOVES`), and checked so it cannot overflow.
    let moves = usize::try_from(target[15].checked_sub(count)?).ok()?;
    if moves > mancala::MAX_EXPLAINED_MOVES || target[15] > MAX_MOVE_COUNT {
        return None;
    }
    let slots = target[..14]
        .iter()
        .map(|&x| u8::try_from(x).ok())
        .collect::<Option<Vec<u8>>>()?;
    let next = match target[14] {
        0 => None,
        1 => Some(Player::One),
        2 => Some(Player::Two),
        _ => return None,
    };
    match mancala::explain(pos, &slots, next, moves, true, VERIFY_BUDGET) {
        Explained::Found(found) => Some(found.iter().map(|m| m.house).collect()),
        Explained::NotFound { .. } | Explained::OutOfBudget => None,
    }
}

impl BotPeer {
    /// A bot with no game on (it holds a starting board with `config.rocks`).
    pub fn new(config: BotConfig) -> BotPeer {
        let rocks = if (3..=8).contains(&config.rocks) {
            config.rocks
        } else {
            4
        };
        let config = BotConfig { rocks, ..config };
        BotPeer {
            engine: Engine::new(EngineOptions {
                level: config.level,
                seed: config.seed,
                node_budget: config.node_budget,
                ..EngineOptions::default()
            }),
            holder: tilink::Holder::new(MID_TI82, config.timing),
            requester: None,
            request_at: 0,
            next_probe: 0,
            phase: Phase::Waiting,
            mode: Mode::Hold,
            l1: start_l1(rocks),
            game: None,
            history: Vec::new(),
            messages: Vec::new(),
            last_choice: None,
            new_game_asked: false,
            games: 0,
            config,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// What the bot is doing.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The bot's `L1` (what it answers with).
    pub fn l1(&self) -> [i64; L1_LEN] {
        self.l1
    }

    /// The game as the bot sees it: the position and the bot's side, `None` between games.
    pub fn game(&self) -> Option<(&Position, Player)> {
        self.game.as_ref().map(|(p, s)| (p, *s))
    }

    /// Every move of the current (or last) game, both players', in order.
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// The engine's last choice (its expected final margin for the bot: the evaluation).
    pub fn last_choice(&self) -> Option<&Choice> {
        self.last_choice.as_ref()
    }

    /// Games started so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Messages for the user since the last call (a move, a game's end, a refused board).
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Resigns the current game (if any) and waits for a new one, from the next poll on.
    pub fn new_game(&mut self) {
        self.new_game_asked = true;
    }

    /// One line for a status bar.
    pub fn status(&self) -> String {
        let eval = self.last_choice.map(|c| {
            format!(
                " (bot expects {}{})",
                margin_text(c.score),
                if c.exact { ", exact" } else { "" }
            )
        });
        let side = |p: Player| match p {
            Player::One => "you are player 2",
            Player::Two => "you are player 1",
        };
        match (&self.phase, &self.game) {
            (Phase::Waiting, _) => {
                "waiting for a game: CALC VS CALC, then PLAY on the calculator".into()
            }
            (Phase::Polling, Some((_, me))) if self.history.is_empty() && *me == Player::Two => {
                format!("{}: connected, press ENTER to start", side(*me))
            }
            (Phase::Polling, Some((_, me))) => {
                format!("{}: your move{}", side(*me), eval.unwrap_or_default())
            }
            (Phase::Holding, Some((pos, me))) if pos.is_over() => {
                format!(
                    "{}: game over, the bot waits for your calculator to pull the last board",
                    side(*me)
                )
            }
            (Phase::Holding, Some((_, me))) => format!(
                "{}: the bot has moved{}, press ENTER",
                side(*me),
                eval.unwrap_or_default()
            ),
            (Phase::Stopped(why), _) => format!("stopped: {why}"),
            _ => String::new(),
        }
    }

    /// Advances at `ep.now` and says when to poll again: the side closure for
    /// [`tilink::VirtualCable::run`].
    pub fn poll(&mut self, ep: &mut TimedPort) -> Wake {
        if self.new_game_asked {
            self.new_game_asked = false;
            self.holder.cancel(ep);
            if let Some(mut r) = self.requester.take() {
                r.cancel(ep);
            }
            if self.game.is_some() && !matches!(self.phase, Phase::Waiting) {
                self.messages
                    .push("bot: resigned; choose PLAY on the calculator for a new game".into());
            }
            self.wait_for_game(ep.now);
        }
        for _ in 0..64 {
            let now = ep.now;
            match self.mode {
                Mode::Off => return Wake::NEVER,
                Mode::Hold => {
                    // A probe is due: pull the calculator's L1 once the lines are quiet (a
                    // request of the calculator cut short is retried by its `Get(` loop).
                    let probe_due = self.phase == Phase::Waiting && now >= self.next_probe;
                    if probe_due && ep.lines() == 3 {
                        self.holder.cancel(ep);
                        self.mode = Mode::Request;
                        self.request_at = now;
                        continue;
                    }
                    let mut held = vec![self.l1_var()];
                    match self.holder.poll(ep, &mut held) {
                        HolderPoll::Pending(w) => {
                            return match (self.phase == Phase::Waiting, probe_due) {
                                (true, false) => w.min(Wake::at(self.next_probe)),
                                (true, true) => w.min(Wake::edge(now + self.config.timing.react)),
                                _ => w,
                            };
                        }
                        HolderPoll::Event(HolderEvent::Served { ty, name })
                            if ty == VarType::List && name == l1_name() =>
                        {
                            self.on_served(now)
                        }
                        HolderPoll::Event(_) => {}
                    }
                }
                Mode::Request => {
                    if now < self.request_at {
                        return Wake::at(self.request_at);
                    }
                    let timing = self.config.timing;
                    let req = self.requester.get_or_insert_with(|| {
                        tilink::Requester::new(MID_TI82, timing, VarType::List, l1_name())
                    });
                    match req.poll(ep) {
                        Progress::Pending(w) => return w,
                        Progress::Done(r) => {
                            self.requester = None;
                            match r {
                                Ok(var) => self.on_pulled(&var, now),
                                Err(e) => {
                                    let gap = if e.is_timeout() {
                                        self.config.retry_gap
                                    } else {
                                        self.config.timing.resync_quiet
                                    };
                                    self.after_pull(now, gap);
                                }
                            }
                        }
                    }
                }
            }
        }
        Wake::at(ep.now + 1)
    }

    fn l1_var(&self) -> Variable {
        Variable {
            name: l1_name(),
            data: VarData::List(self.l1.iter().map(|&x| TiFloat::from_i64(x)).collect()),
        }
    }

    fn wait_for_game(&mut self, now: u64) {
        self.phase = Phase::Waiting;
        self.mode = Mode::Hold;
        self.l1 = start_l1(self.config.rocks);
        self.next_probe = now + self.config.probe_every;
    }

    /// After a pull that changed nothing: the next pull (a game) or back to holding.
    fn after_pull(&mut self, now: u64, gap: u64) {
        if self.phase == Phase::Waiting {
            self.mode = Mode::Hold;
            self.next_probe = now + self.config.probe_every;
        } else {
            self.request_at = now + gap;
        }
    }

    fn stop(&mut self, why: String) {
        self.messages
            .push(format!("bot: {why}; it stops answering"));
        self.phase = Phase::Stopped(why);
        self.mode = Mode::Off;
    }

    /// The calculator pulled our `L1`.
    fn on_served(&mut self, now: u64) {
        match self.phase {
            Phase::Waiting => {
                // The human chose OPPONENT: we go first with our rocks setting.
                let rules = match Rules::ti82(self.config.rocks) {
                    Ok(r) => r,
                    Err(e) => return self.stop(e.to_string()),
                };
                self.begin(Position::new(rules), Player::One);
                self.messages
                    .push("bot: connected as player 1 (you are player 2)".into());
                self.bot_turn();
            }
            Phase::Holding => {
                // The mover presses ENTER once the other calculator has the board.
                if self.game.is_some_and(|(p, _)| p.is_over()) {
                    self.wait_for_game(now);
                } else {
                    self.phase = Phase::Polling;
                    self.mode = Mode::Request;
                    self.request_at = now + self.config.retry_gap;
                }
            }
            _ => {}
        }
    }

    fn begin(&mut self, pos: Position, me: Player) {
        self.game = Some((pos, me));
        self.history.clear();
        self.last_choice = None;
        self.games += 1;
        self.l1 = l1_of(&pos, 0);
    }

    /// We pulled the calculator's `L1`.
    fn on_pulled(&mut self, var: &Variable, now: u64) {
        let gap = self.config.retry_gap;
        let l = match parse_l1(var) {
            Ok(l) => l,
            Err(_) => return self.after_pull(now, gap),
        };
        let start = starting_rocks(&l);
        match (&self.phase, start) {
            (Phase::Waiting, Some(r)) => {
                // The human chose ME and waits at CONNECTING...: we are player 2.
                match Rules::ti82(r) {
                    Ok(rules) => {
                        self.begin(Position::new(rules), Player::Two);
                        self.messages.push(format!(
                            "bot: connected as player 2 ({r} rocks per hole); press ENTER on the calculator"
                        ));
                        self.phase = Phase::Polling;
                        self.request_at = now + gap;
                    }
                    Err(e) => self.stop(e.to_string()),
                }
            }
            (Phase::Waiting, None) => self.after_pull(now, gap),
            (Phase::Polling, _) => self.check_pulled(l, now),
            _ => {}
        }
    }

    fn check_pulled(&mut self, l: [i64; L1_LEN], now: u64) {
        let gap = self.config.retry_gap;
        let Some((pos, me)) = self.game else {
            return self.after_pull(now, gap);
        };
        let human = me.other();
        if l == self.l1 {
            return self.after_pull(now, gap);
        }
        if let Some(r) = starting_rocks(&l) {
            // A new game on the calculator (it chose ME and PLAY again).
            if let Ok(rules) = Rules::ti82(r) {
                self.messages
                    .push("bot: the calculator started a new game; we are player 2".into());
                self.begin(Position::new(rules), Player::Two);
                return self.after_pull(now, gap);
            }
        }
        let turn = l[14];
        if turn == i64::from(human.number()) {
            // Still the human's turn (the program's `Repeat L1(15)!=3-G` goes on).
            return self.after_pull(now, gap);
        }
        if turn != 0 && turn != i64::from(me.number()) {
            return self.stop(BoardError::BadTurn(turn).to_string());
        }
        let Some(houses) = explain_turn(&pos, self.l1[15], &l) else {
            let err = BoardError::Illegal {
                before: Box::new(self.l1),
                after: Box::new(l),
            };
            return self.stop(err.to_string());
        };
        let mut pos = pos;
        let mut count = self.l1[15];
        for &h in &houses {
            if pos.play(h).is_err() {
                return self.stop(format!("hole {h} is not a legal move"));
            }
            count += 1;
            self.history.push(MoveRecord {
                player: human,
                house: h,
                l1: l1_of(&pos, count),
                choice: None,
            });
        }
        let played: Vec<String> = houses.iter().map(|h| h.to_string()).collect();
        self.messages
            .push(format!("bot: you played {}", played.join(", ")));
        self.game = Some((pos, me));
        self.l1 = l;
        if pos.is_over() {
            self.game_over_message();
            self.wait_for_game(now);
        } else {
            self.bot_turn();
        }
    }

    fn game_over_message(&mut self) {
        if let Some((pos, me)) = self.game {
            let b = pos.board();
            let (mine, yours) = (b.store(me), b.store(me.other()));
            let what = match mine.cmp(&yours) {
                std::cmp::Ordering::Greater => "the bot wins",
                std::cmp::Ordering::Less => "you win",
                std::cmp::Ordering::Equal => "a draw",
            };
            self.messages.push(format!(
                "bot: game over, {what} ({yours} to {mine} for the bot)"
            ));
        }
    }

    /// Our turn: the engine plays (free turns included), then we hold the board.
    fn bot_turn(&mut self) {
        let Some((mut pos, me)) = self.game else {
            return;
        };
        let mut count = self.l1[15];
        let mut played = Vec::new();
        while !pos.is_over() && pos.to_move() == me {
            let choice = match self.engine.choose(&pos) {
                Ok(c) => c,
                Err(e) => return self.stop(format!("the engine failed: {e}")),
            };
            if pos.play(choice.house).is_err() {
                return self.stop(format!("the engine chose illegal hole {}", choice.house));
            }
            count += 1;
            played.push(choice.house.to_string());
            self.last_choice = Some(choice);
            self.history.push(MoveRecord {
                player: me,
                house: choice.house,
                l1: l1_of(&pos, count),
                choice: Some(choice),
            });
        }
        self.game = Some((pos, me));
        self.l1 = l1_of(&pos, count);
        let eval = self
            .last_choice
            .map(|c| format!(" (expects {})", margin_text(c.score)))
            .unwrap_or_default();
        self.messages
            .push(format!("bot: plays {}{eval}", played.join(", ")));
        if pos.is_over() {
            self.game_over_message();
        }
        self.phase = Phase::Holding;
        self.mode = Mode::Hold;
    }
}

fn l1_name() -> VarName {
    VarName::list(1).unwrap_or_default()
}

/// "+4", "-2", "0": a margin for a status line.
fn margin_text(m: i32) -> String {
    if m > 0 {
        format!("to win by {m}")
    } else if m < 0 {
        format!("to lose by {}", -m)
    } else {
        "a draw".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_boards() {
        assert_eq!(starting_rocks(&start_l1(5)), Some(5));
        let mut l = start_l1(4);
        l[15] = 1;
        assert_eq!(starting_rocks(&l), None);
        let mut l = start_l1(4);
        l[3] = 3;
        assert_eq!(starting_rocks(&l), None);
        assert_eq!(starting_rocks(&start_l1(9)), None);
    }

    #[test]
    fn explain_finds_free_turn_sequences_and_refuses_the_rest() {
        let rules = Rules::ti82(4).unwrap();
        let pos = Position::new(rules);
        // Hole 3 with 4 rocks ends in the store: a free turn; then hole 1.
        let mut p = pos;
        p.play(3).unwrap();
        p.play(1).unwrap();
        let target = l1_of(&p, 2);
        assert_eq!(explain_turn(&pos, 0, &target), Some(vec![3, 1]));
        // The same board with a wrong move count is no legal continuation.
        let mut wrong = target;
        wrong[15] = 3;
        assert_eq!(explain_turn(&pos, 0, &wrong), None);
        // A rock conjured into a store is no legal continuation either.
        let mut p = pos;
        p.play(1).unwrap();
        let mut bad = l1_of(&p, 1);
        bad[6] += 1;
        assert_eq!(explain_turn(&pos, 0, &bad), None);
    }

    #[test]
    fn a_huge_or_negative_move_count_explains_nothing_and_allocates_nothing() {
        // A program storing 1E13 (or anything) in L1(16): no allocation of that size, no
        // overflow, no search; the bot reports an illegal board instead.
        let pos = Position::new(Rules::ti82(4).unwrap());
        let mut p = pos;
        p.play(1).unwrap();
        for (count, moves) in [
            (0, 10_000_000_000_000),
            (0, i64::MAX),
            (-1, i64::MAX),
            (i64::MIN, 5),
            (5, i64::MIN),
            (0, MAX_MOVE_COUNT + 1),
            (0, mancala::MAX_EXPLAINED_MOVES as i64 + 1),
        ] {
            let target = l1_of(&p, moves);
            assert_eq!(
                explain_turn(&pos, count, &target),
                None,
                "{count} -> {moves}"
            );
        }
        let real = l1_of(&p, 1);
        assert_eq!(explain_turn(&pos, 0, &real), Some(vec![1]));
    }

    #[test]
    fn parse_refuses_non_boards() {
        let short = Variable {
            name: l1_name(),
            data: VarData::List(vec![TiFloat::from_i64(1); 14]),
        };
        assert!(matches!(parse_l1(&short), Err(BoardError::NotABoard(_))));
        let mut items = vec![TiFloat::from_i64(4); 16];
        items[2] = TiFloat::from_f64(1.5).unwrap();
        let frac = Variable {
            name: l1_name(),
            data: VarData::List(items),
        };
        assert!(matches!(parse_l1(&frac), Err(BoardError::NotABoard(_))));
    }
}
