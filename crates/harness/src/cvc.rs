//! CALC VS CALC: one side of a game between two linked calculators, played through the keypad
//! and checked move by move.
//!
//! A [`CvcSide`] sees only its own calculator, as a player holding it would: its `L1` (through
//! the probe), its screen (to wait for it to settle) and how often its own link port has
//! changed its drive (a calculator answering a `Get(` talks on the link; one waiting for its
//! player's key does not). It follows the sequence of `docs/mancala-programs.md`:
//!
//! 1. PLAYER OPTIONS → CALC VS CALC → WHO'S FIRST? → ME or OPPONENT, ROCKS PER HOLE, PLAY
//!    (the second player first waits [`SECOND_PLAYER_DELAY_MS`] at the main menu).
//! 2. The first player waits at `CONNECTING...` until its calculator has answered the other
//!    one's requests (two full transfers' worth of link traffic, so a transfer already under
//!    way when it got there does not count), then presses ENTER.
//! 3. On its turn (`L1(15)` is its player number) it picks a legal move with its seeded
//!    [`XorShift`], plays it and checks its `L1` against [`predict`]. After a move that passes
//!    the turn its calculator waits at `Pause` until the other one has pulled the board; the
//!    side waits until it has served a transfer and then heard no request for
//!    [`PULLED_QUIET_MS`] (the other calculator stopped polling), then presses ENTER again.
//! 4. Off turn its calculator polls the other one; when the pulled `L1(15)` stops naming the
//!    other player (the program's own test), the side finds the opponent's moves that lead
//!    there from its last verified position (free turns mean several moves; every sequence of
//!    the mover's legal moves is searched).
//! 5. At the end screen it presses ENTER (the side that ended the game first waits for the
//!    other calculator to pull the final board), and MANCALA's main menu comes back.
//!
//! The same side works whatever carries the cable: another thread of this process or another
//! process over TCP. Everything is emulated time, so a game is reproducible from the two
//! seeds.

use std::collections::VecDeque;

use mancala::{explain, predict, Explained, Player, Position, Rules, XorShift};
use ti82_machine::{Calc, Key};

use crate::probe::{read_board, read_moves};
use tifiles::var::Variable;

use crate::{
    builtin_calc, glass_without_indicator, press, settle, Divergence, HarnessError, Runner,
    Summary, Table, MS,
};

/// Most moves tried to explain the opponent's turn (see `verify_opponent`).
const VERIFY_BUDGET: u64 = 1_000_000;

/// Own drive changes of one served `Get(L1)` are about 3,300 for MANCALA's 16-element `L1`
/// (every bit of the request, the variable header and the data, sent or acknowledged, is two
/// changes); a request answered "no such variable" or a time-out is far less. This much counts
/// as one transfer.
pub const TRANSFER_CHANGES: u64 = 2_500;
/// Emulated ms a side waits for the other calculator before giving up.
const PEER_LIMIT_MS: u64 = 60_000;

/// Wire delay (T-states) of the cable between the two calculators of [`run_cvc_games`]: a
/// transfer then takes about half a second of emulated time, and the two threads meet about
/// 16,000 times per emulated second.
pub const CVC_LATENCY: u64 = 400;

/// Emulated ms the second player waits at the main menu before PLAY (longer than
/// [`PULLED_QUIET_MS`]).
pub const SECOND_PLAYER_DELAY_MS: u64 = 4_000;

/// How one side is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CvcOptions {
    /// WHO'S FIRST?: true for ME, false for OPPONENT.
    pub first: bool,
    /// ROCKS PER HOLE set on this calculator (3 to 8); only the first player's counts.
    pub rocks: u8,
    /// Seed of this side's move choices.
    pub seed: u64,
}

/// How a game ended, as this side saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CvcReport {
    /// This calculator's player number (1 moves first).
    pub me: u8,
    /// Rocks per hole of the game (the first player's setting).
    pub rocks: u8,
    /// Every move verified: this side's and the opponent's.
    pub moves_verified: u64,
    pub own_moves: u64,
    pub opponent_moves: u64,
    /// `L1(1..14)` at the end.
    pub board: Vec<u8>,
    /// `"win"`, `"lose"` or `"tie"` for this side.
    pub result: &'static str,
    /// Moves as (player, house), in order.
    pub moves: Vec<(u8, u8)>,
}

/// What a [`CvcSide::step`] leaves behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    Done(CvcReport),
}

#[derive(Debug)]
enum Phase {
    /// Menu keys still to press, then PLAY.
    Options(VecDeque<Key>),
    /// Just pressed PLAY.
    Started,
    /// First player at `CONNECTING...`: waits for the link traffic of the other side's pulls.
    AwaitConnect {
        baseline: u64,
        waited: u64,
    },
    /// Second player: polls until the first player's board arrives.
    AwaitBoard {
        waited: u64,
    },
    /// Settles, then plays if it is this side's turn.
    Turn,
    /// After a move that passed the turn (or ended the game: `end`), at `Pause`: waits for
    /// the other calculator to pull the board, then ENTER.
    AwaitPulled {
        bursts: Bursts,
        waited: u64,
        end: bool,
    },
    /// Off turn: waits for the pulled `L1` to change.
    AwaitOpponent {
        waited: u64,
    },
    /// At the end screen: ENTER, back to the main menu.
    Finish,
    Done,
}

/// One side of a CALC VS CALC game on one calculator that shows MANCALA's main menu.
pub struct CvcSide {
    opts: CvcOptions,
    me: Player,
    rng: XorShift,
    phase: Phase,
    rules: Option<Rules>,
    pos: Option<Position>,
    moves: Vec<(u8, u8)>,
    own_moves: u64,
    opponent_moves: u64,
    /// `L1(16)` after the last verified move.
    count: i64,
    /// Emulated ms to wait for the other calculator before giving up.
    peer_limit_ms: u64,
}

fn digit(rocks: u8) -> Option<Key> {
    Some(match rocks {
        3 => Key::K3,
        4 => Key::K4,
        5 => Key::K5,
        6 => Key::K6,
        7 => Key::K7,
        8 => Key::K8,
        _ => return None,
    })
}

fn own_changes(calc: &Calc) -> u64 {
    calc.hardware().link.own_changes()
}

impl CvcSide {
    /// A side whose calculator is at MANCALA's main menu.
    pub fn new(opts: CvcOptions) -> Result<CvcSide, HarnessError> {
        let rocks_key = digit(opts.rocks)
            .ok_or_else(|| HarnessError::Setup(format!("{} rocks per hole", opts.rocks)))?;
        // MAIN MENU: 2 PLAYER OPTIONS; 2 CALC VS CALC; 3 WHO'S FIRST?; 1 ME / 2 OPPONENT;
        // 4 MAIN MENU; 3 ROCKS PER HOLE, the digit, ENTER. PLAY comes last.
        let who = if opts.first { Key::K1 } else { Key::K2 };
        let keys = [
            Key::K2,
            Key::K2,
            Key::K3,
            who,
            Key::K4,
            Key::K3,
            rocks_key,
            Key::Enter,
        ];
        Ok(CvcSide {
            me: if opts.first { Player::One } else { Player::Two },
            rng: XorShift::new(opts.seed),
            opts,
            phase: Phase::Options(keys.into_iter().collect()),
            rules: None,
            pos: None,
            moves: Vec::new(),
            own_moves: 0,
            opponent_moves: 0,
            count: 0,
            peer_limit_ms: PEER_LIMIT_MS,
        })
    }

    /// How long (emulated ms) to wait for the other calculator before giving up (60 s unless
    /// set). Over a network cable at turbo speed a calculator can run minutes of emulated
    /// time while a packet crosses the network: there the limit is raised.
    pub fn with_peer_limit_ms(mut self, ms: u64) -> CvcSide {
        self.peer_limit_ms = ms.max(1);
        self
    }

    /// Moves verified so far (this side's and the opponent's).
    pub fn moves_verified(&self) -> u64 {
        self.own_moves + self.opponent_moves
    }

    /// One step: a key (or a whole move) and the waiting after it, or a slice of waiting.
    pub fn step(&mut self, calc: &mut dyn Runner) -> Result<Status, HarnessError> {
        let phase = std::mem::replace(&mut self.phase, Phase::Done);
        self.phase = match phase {
            Phase::Options(mut keys) => match keys.pop_front() {
                Some(k) => {
                    press(calc, k);
                    settle(calc, 100, 10_000);
                    Phase::Options(keys)
                }
                None => {
                    if !self.opts.first {
                        // The manual's order: the first player chooses PLAY, then the second.
                        // Without seeing the other calculator, the second player gives it time
                        // to finish the last game and get there (a calculator waiting at the
                        // end of the last game counts quiet on the link as its board pulled).
                        calc.run_for(SECOND_PLAYER_DELAY_MS * MS);
                    }
                    press(calc, Key::K1);
                    Phase::Started
                }
            },
            Phase::Started => {
                settle(calc, 150, 30_000);
                if self.opts.first {
                    let rules = Rules::ti82(self.opts.rocks)
                        .map_err(|e| HarnessError::Setup(e.to_string()))?;
                    self.start(calc.calc(), rules)?;
                    Phase::AwaitConnect {
                        baseline: own_changes(calc.calc()),
                        waited: 0,
                    }
                } else {
                    Phase::AwaitBoard { waited: 0 }
                }
            }
            Phase::AwaitConnect { baseline, waited } => {
                if own_changes(calc.calc()).saturating_sub(baseline) >= 2 * TRANSFER_CHANGES {
                    press(calc, Key::Enter);
                    Phase::Turn
                } else {
                    self.check_wait(
                        calc.calc(),
                        waited,
                        "the other calculator never pulled the board",
                    )?;
                    calc.run_for(50 * MS);
                    Phase::AwaitConnect {
                        baseline,
                        waited: waited + 50,
                    }
                }
            }
            Phase::AwaitBoard { waited } => {
                // As the program: only a board at move 0 is the first player's (a calculator
                // still at its menus answers with the last game's board).
                match read_moves(calc.calc().ram()) {
                    Some(0) => {
                        // The first player's board: its rocks per hole decide the game.
                        let b = self.probe(calc.calc())?;
                        let r = b.board[0];
                        let rules = Rules::ti82(r).map_err(|_| {
                            self.divergence(
                                calc.calc(),
                                &[],
                                &b.board,
                                &format!("the pulled board has {r} rocks in hole 1"),
                            )
                        })?;
                        settle(calc, 150, 30_000);
                        self.start(calc.calc(), rules)?;
                        Phase::AwaitOpponent { waited: 0 }
                    }
                    _ => {
                        self.check_wait(calc.calc(), waited, "no board from the first player")?;
                        calc.run_for(50 * MS);
                        Phase::AwaitBoard {
                            waited: waited + 50,
                        }
                    }
                }
            }
            Phase::Turn => {
                settle(calc, 150, 30_000);
                self.play_move(calc)?
            }
            Phase::AwaitPulled {
                mut bursts,
                waited,
                end,
            } => {
                if bursts.pulled() {
                    if end {
                        Phase::Finish
                    } else {
                        press(calc, Key::Enter);
                        Phase::AwaitOpponent { waited: 0 }
                    }
                } else {
                    self.check_wait(
                        calc.calc(),
                        waited,
                        "the other calculator never pulled the board",
                    )?;
                    bursts.run(calc, 20);
                    Phase::AwaitPulled {
                        bursts,
                        waited: waited + 20,
                        end,
                    }
                }
            }
            Phase::AwaitOpponent { waited } => {
                let pos = self.position()?;
                let b = self.probe(calc.calc())?;
                // The program takes the pulled board once L1(15) no longer says it is the
                // other player's turn (until then it simply pulls again).
                if b.turn != Some(pos.to_move().number()) {
                    // The Get( stores the whole list at once: this is the other board.
                    let screen = glass_without_indicator(calc.calc());
                    self.verify_opponent(calc.calc())?;
                    // The program redraws the board (or shows the result) before it waits
                    // for a key: keys pressed earlier would be lost.
                    let mut waited = 0;
                    while glass_without_indicator(calc.calc()) == screen && waited < 10_000 {
                        calc.run_for(10 * MS);
                        waited += 10;
                    }
                    settle(calc, 200, 30_000);
                    if self.position()?.is_over() {
                        Phase::Finish
                    } else {
                        Phase::Turn
                    }
                } else {
                    self.check_wait(calc.calc(), waited, "no move from the other calculator")?;
                    calc.run_for(50 * MS);
                    Phase::AwaitOpponent {
                        waited: waited + 50,
                    }
                }
            }
            Phase::Finish => {
                settle(calc, 150, 30_000);
                press(calc, Key::Enter);
                settle(calc, 150, 30_000);
                Phase::Done
            }
            Phase::Done => {
                let report = self.report(calc.calc())?;
                self.phase = Phase::Done;
                return Ok(Status::Done(report));
            }
        };
        Ok(Status::Running)
    }

    /// Runs [`CvcSide::step`] until the game is over.
    pub fn play(&mut self, calc: &mut dyn Runner) -> Result<CvcReport, HarnessError> {
        loop {
            if let Status::Done(r) = self.step(calc)? {
                return Ok(r);
            }
        }
    }

    fn rules(&self) -> Result<Rules, HarnessError> {
        self.rules
            .ok_or_else(|| HarnessError::Setup("the game has not started".into()))
    }

    fn position(&self) -> Result<Position, HarnessError> {
        self.pos
            .ok_or_else(|| HarnessError::Setup("the game has not started".into()))
    }

    fn probe(&self, calc: &Calc) -> Result<crate::BoardProbe, HarnessError> {
        read_board(calc.ram()).ok_or_else(|| {
            self.divergence(
                calc,
                &[],
                &[],
                "L1 is not a board (fewer than 14 whole numbers)",
            )
        })
    }

    fn divergence(&self, calc: &Calc, expected: &[u8], actual: &[u8], what: &str) -> HarnessError {
        HarnessError::Divergence(Box::new(Divergence {
            rocks: self.rules.map_or(self.opts.rocks, |r| r.seeds()),
            moves: self.moves.clone(),
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            what: format!("player {}: {what}", self.me.number()),
            screen: calc.lcd().to_text(),
        }))
    }

    fn check_wait(&self, calc: &Calc, waited: u64, what: &str) -> Result<(), HarnessError> {
        if waited >= self.peer_limit_ms {
            let expected = self.pos.map(|p| p.board().slots().to_vec());
            let actual = read_board(calc.ram()).map(|b| b.board);
            return Err(self.divergence(
                calc,
                expected.as_deref().unwrap_or(&[]),
                actual.as_deref().unwrap_or(&[]),
                &format!("{what} within {} s", self.peer_limit_ms / 1000),
            ));
        }
        Ok(())
    }

    /// Checks the starting board and starts the game.
    fn start(&mut self, calc: &Calc, rules: Rules) -> Result<(), HarnessError> {
        self.rules = Some(rules);
        let pos = Position::new(rules);
        let b = self.probe(calc)?;
        if b.board != pos.board().slots() || b.turn != Some(1) {
            return Err(self.divergence(
                calc,
                pos.board().slots(),
                &b.board,
                &format!("the starting board is wrong (L1(15) = {:?})", b.turn),
            ));
        }
        if read_moves(calc.ram()) != Some(0) {
            return Err(self.divergence(
                calc,
                pos.board().slots(),
                &b.board,
                &format!("L1(16) is {:?} at the start", read_moves(calc.ram())),
            ));
        }
        self.pos = Some(pos);
        self.count = 0;
        Ok(())
    }

    /// This side's turn: plays a random legal move through the keypad and checks it.
    fn play_move(&mut self, calc: &mut dyn Runner) -> Result<Phase, HarnessError> {
        let mut pos = self.position()?;
        let rules = self.rules()?;
        if pos.to_move() != self.me {
            return Ok(Phase::AwaitOpponent { waited: 0 });
        }
        let legal = pos.legal_moves();
        let house = legal[self.rng.below(legal.len())];
        self.moves.push((self.me.number(), house));
        let expected = predict(rules, pos.board(), self.me, house)
            .map_err(|e| HarnessError::Setup(e.to_string()))?;
        // ◄ to the left end, ► to the hole (the same keys as HUMAN VS HUMAN).
        for _ in 0..5 {
            press(calc, Key::Left);
        }
        let rights = match self.me {
            Player::One => house - 1,
            Player::Two => 6 - house,
        };
        for _ in 0..rights {
            press(calc, Key::Right);
        }
        let before = self.probe(calc.calc())?;
        let mut bursts = Bursts::new(calc.calc());
        press(calc, Key::Enter);
        bursts.sample(calc.calc(), 60);
        let want = expected.next.map_or(0, |p| p.number());
        let mut waited = 0;
        while self.probe(calc.calc())?.board == before.board {
            if waited > 60_000 {
                return Err(self.divergence(
                    calc.calc(),
                    expected.board.slots(),
                    &before.board,
                    "the board did not change after ENTER",
                ));
            }
            bursts.run(calc, 10);
            waited += 10;
        }
        // Until L1 is final (L1(16) counts the move and L1(15) names the next player).
        let mut waited = 0;
        while !(read_moves(calc.calc().ram()) == Some(self.count + 1)
            && read_board(calc.calc().ram()).and_then(|b| b.turn) == Some(want))
            && waited < 10_000
        {
            bursts.run(calc, 10);
            waited += 10;
        }
        // Then until the screen is drawn and nothing changes for a while.
        bursts.settle(calc, 200, 60_000);
        let actual = self.probe(calc.calc())?;
        if actual.board != expected.board.slots() {
            return Err(self.divergence(
                calc.calc(),
                expected.board.slots(),
                &actual.board,
                &format!("after {expected}"),
            ));
        }
        if actual.turn != Some(want) {
            return Err(self.divergence(
                calc.calc(),
                expected.board.slots(),
                &actual.board,
                &format!(
                    "after {expected}: L1(15) is {:?}, the rules say {want}",
                    actual.turn
                ),
            ));
        }
        if read_moves(calc.calc().ram()) != Some(self.count + 1) {
            return Err(self.divergence(
                calc.calc(),
                expected.board.slots(),
                &actual.board,
                &format!(
                    "after {expected}: L1(16) is {:?}, not {}",
                    read_moves(calc.calc().ram()),
                    self.count + 1
                ),
            ));
        }
        pos.play(house)
            .map_err(|e| HarnessError::Setup(e.to_string()))?;
        self.pos = Some(pos);
        self.count += 1;
        self.own_moves += 1;
        Ok(match expected.next {
            Some(p) if p == self.me => Phase::Turn,
            next => Phase::AwaitPulled {
                bursts,
                waited: 0,
                end: next.is_none(),
            },
        })
    }

    /// The pulled `L1` differs from the last verified position: finds the opponent's moves.
    fn verify_opponent(&mut self, calc: &Calc) -> Result<(), HarnessError> {
        let pos = self.position()?;
        let b = self.probe(calc)?;
        let moves = read_moves(calc.ram());
        let n = moves.map(|m| m - self.count);
        let Some(n) = n.filter(|&n| (1..=64).contains(&n)) else {
            return Err(self.divergence(
                calc,
                pos.board().slots(),
                &b.board,
                &format!(
                    "the pulled L1(16) is {moves:?} after {} verified moves",
                    self.count
                ),
            ));
        };
        // L1(15): the player to move, 0 once the game is over; anything else explains nothing.
        let next = match b.turn {
            Some(0) => Some(None),
            Some(1) => Some(Some(Player::One)),
            Some(2) => Some(Some(Player::Two)),
            _ => None,
        };
        // A bounded search: the board comes from the calculator (a program's L1), and a
        // real turn is found in a few hundred moves tried (the link bot uses 200 000).
        let found = next.map(|next| explain(&pos, &b.board, next, n as usize, true, VERIFY_BUDGET));
        let Some(Explained::Found(found)) = found else {
            return Err(self.divergence(
                calc,
                pos.board().slots(),
                &b.board,
                &format!(
                    "the pulled board (L1(15) = {:?}) is no {n}-move continuation by player {} \
                     of the expected board",
                    b.turn,
                    pos.to_move().number()
                ),
            ));
        };
        let mut pos = pos;
        for m in &found {
            self.moves.push((m.player.number(), m.house));
            pos.play(m.house)
                .map_err(|e| HarnessError::Setup(e.to_string()))?;
        }
        self.pos = Some(pos);
        self.count += n;
        self.opponent_moves += n as u64;
        Ok(())
    }

    fn report(&self, calc: &Calc) -> Result<CvcReport, HarnessError> {
        let pos = self.position()?;
        let board = self.probe(calc)?.board;
        let mine = pos.board().store(self.me);
        let theirs = pos.board().store(self.me.other());
        Ok(CvcReport {
            me: self.me.number(),
            rocks: self.rules()?.seeds(),
            moves_verified: self.moves_verified(),
            own_moves: self.own_moves,
            opponent_moves: self.opponent_moves,
            board,
            result: match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => "win",
                std::cmp::Ordering::Less => "lose",
                std::cmp::Ordering::Equal => "tie",
            },
            moves: self.moves.clone(),
        })
    }
}

/// This calculator's own link traffic after a move. The other calculator polls until it has
/// pulled a board that says the move is over, waiting about 180 ms between requests, and a
/// request that finds this calculator busy ends after the 2 s link time-out: so once this side
/// has served a transfer and then heard no request for [`PULLED_QUIET_MS`], the other
/// calculator has the board. (A request that comes while this calculator still computes its
/// move goes unanswered, spec 1.7.6: it serves only the final board, at `Pause`.)
#[derive(Debug)]
struct Bursts {
    /// Emulated ms since the move's ENTER.
    now: u64,
    last_count: u64,
    /// When this side last changed its drive (ms), if it has since the move.
    last_change: Option<u64>,
    /// Own drive changes since the move.
    changes: u64,
}

/// Quiet on the link after which the other calculator has stopped polling.
pub const PULLED_QUIET_MS: u64 = 2_500;

impl Bursts {
    fn new(calc: &Calc) -> Bursts {
        Bursts {
            now: 0,
            last_count: own_changes(calc),
            last_change: None,
            changes: 0,
        }
    }

    /// Notes the traffic of the last `ms`.
    fn sample(&mut self, calc: &Calc, ms: u64) {
        self.now += ms;
        let count = own_changes(calc);
        if count != self.last_count {
            self.changes += count.wrapping_sub(self.last_count);
            self.last_count = count;
            self.last_change = Some(self.now);
        }
    }

    fn run(&mut self, calc: &mut dyn Runner, ms: u64) {
        calc.run_for(ms * MS);
        self.sample(calc.calc(), ms);
    }

    /// Like [`settle`], noting the traffic on the way.
    fn settle(&mut self, calc: &mut dyn Runner, quiet: u64, limit: u64) {
        let mut last = Vec::with_capacity(1024);
        let mut now = Vec::with_capacity(1024);
        crate::look(calc.calc(), &mut last);
        let mut stable = 0;
        let mut waited = 0;
        while waited < limit && stable < quiet {
            self.run(calc, 10);
            waited += 10;
            crate::look(calc.calc(), &mut now);
            if now == last {
                stable += 10;
            } else {
                stable = 0;
                std::mem::swap(&mut last, &mut now);
            }
        }
    }

    /// A transfer has been served and the other calculator has stopped asking.
    fn pulled(&self) -> bool {
        self.changes >= TRANSFER_CHANGES
            && self
                .last_change
                .is_some_and(|t| self.now.saturating_sub(t) >= PULLED_QUIET_MS)
    }
}

/// The two sides' options for `games` games from `seed`: calculator A goes first in the even
/// games, B in the odd ones; each calculator's rocks per hole and move seed are random.
pub fn cvc_schedule(games: u64, seed: u64) -> Vec<(CvcOptions, CvcOptions)> {
    let mut rng = XorShift::new(seed ^ 0xC41C_C41C);
    (0..games)
        .map(|g| {
            let a_first = g % 2 == 0;
            let mut side = |first| CvcOptions {
                first,
                rocks: 3 + rng.below(6) as u8,
                seed: rng.next_u64(),
            };
            let a = side(a_first);
            let b = side(!a_first);
            (a, b)
        })
        .collect()
}

/// What one calculator of a CALC VS CALC run reports: a report per game played, and the error
/// that stopped it, if any.
type SideRun = (Vec<CvcReport>, Option<HarnessError>);

/// Plays the games of `options` on one calculator of a [`Pair`] (its own thread), then
/// unplugs the cable.
fn run_side(pair: &Pair, i: usize, options: Vec<CvcOptions>) -> SideRun {
    let mut side = PairSide {
        pair,
        guard: Some(pair.lock()),
        i,
    };
    let mut reports = Vec::new();
    let mut error = None;
    for opts in options {
        match CvcSide::new(opts).and_then(|mut s| s.play(&mut side)) {
            Ok(r) => reports.push(r),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    if let Some(mut g) = side.guard.take() {
        let st = &mut *g;
        if let Some(end) = st.ends[i].take() {
            drop(end.unplug(&mut st.calcs[i]));
        }
        st.target[i] = None;
        pair.wake.notify_all();
    }
    (reports, error)
}

/// Two linked calculators whose two sides (each its own thread, with its own [`CvcSide`])
/// share one lock: whichever side's thread holds it runs *both* calculators in step on the
/// cable, as far as both sides' pending `run_for`s allow. The threads hand over only where a
/// side must decide something (a key, a look at its screen), not at every meeting of the
/// cable's conservative synchronisation (every few hundred T-states), which would cost a
/// sleep and a wake-up in the kernel each. The result is the cable's: the same whatever the
/// scheduling.
struct Pair {
    state: std::sync::Mutex<PairState>,
    wake: std::sync::Condvar,
}

struct PairState {
    calcs: [Calc; 2],
    /// `None` once that side has unplugged (its games are over).
    ends: [Option<ti82_machine::cable::CableEnd>; 2],
    /// Where each side's pending `run_for` ends.
    target: [Option<u64>; 2],
}

impl Pair {
    fn lock(&self) -> std::sync::MutexGuard<'_, PairState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PairState {
    /// One linked step of calculator `i` towards `target`; false if it must wait for the
    /// other calculator.
    fn advance(&mut self, i: usize, target: u64) -> bool {
        let calc = &mut self.calcs[i];
        match &mut self.ends[i] {
            Some(end) => end.advance(calc, target, false),
            None => {
                calc.run_for(target.saturating_sub(calc.now()));
                true
            }
        }
    }
}

/// One side's view of a [`Pair`]: its own calculator, reached through the lock it holds
/// between two `run_for`s.
struct PairSide<'a> {
    pair: &'a Pair,
    guard: Option<std::sync::MutexGuard<'a, PairState>>,
    i: usize,
}

impl Runner for PairSide<'_> {
    fn calc(&self) -> &Calc {
        &self.guard.as_ref().expect("the side holds its pair").calcs[self.i]
    }
    fn calc_mut(&mut self) -> &mut Calc {
        &mut self.guard.as_mut().expect("the side holds its pair").calcs[self.i]
    }
    fn run_for(&mut self, t: u64) {
        let (i, j) = (self.i, 1 - self.i);
        let mut g = self.guard.take().expect("the side holds its pair");
        let target = g.calcs[i].now().saturating_add(t);
        g.target[i] = Some(target);
        while g.calcs[i].now() < target {
            let mut progress = g.advance(i, target);
            if let Some(tj) = g.target[j] {
                if g.calcs[j].now() < tj {
                    progress |= g.advance(j, tj);
                }
            }
            if !progress {
                // This calculator waits on the other, whose side has what it asked for: let
                // that side decide what comes next.
                self.pair.wake.notify_all();
                g = self.pair.wake.wait(g).unwrap_or_else(|e| e.into_inner());
            }
        }
        g.target[i] = None;
        self.guard = Some(g);
    }
}

/// Games per pair of calculators: each batch of the schedule is played in order on a pair of
/// its own, fresh from the maker, and several pairs play at once (see [`crate::BATCH_GAMES`]):
/// a run's games and findings are the same whatever the number of threads.
pub const CVC_BATCH_GAMES: usize = 2;

/// `games` CALC VS CALC games on pairs of calculators joined by a cable with `latency`
/// T-states of wire delay, each calculator on its own thread with its own [`CvcSide`], pairs
/// on every core. Both sides verify every move; a game counts its moves once, and the two
/// sides must agree on who moved when and on the final board. A divergence ends its batch
/// (the two calculators no longer agree on anything); the other batches go on.
pub fn run_cvc_games(
    programs: &[Variable],
    games: u64,
    seed: u64,
    latency: u64,
) -> Result<Summary, HarnessError> {
    let jobs = crate::default_jobs();
    run_cvc_games_on(&|| builtin_calc(programs), games, seed, latency, jobs)
}

/// As [`run_cvc_games`], on pairs of calculators from `make`, up to `jobs` pairs at once.
pub fn run_cvc_games_on(
    make: &crate::SharedMaker,
    games: u64,
    seed: u64,
    latency: u64,
    jobs: usize,
) -> Result<Summary, HarnessError> {
    let schedule = cvc_schedule(games, seed);
    let batches: Vec<&[(CvcOptions, CvcOptions)]> = schedule.chunks(CVC_BATCH_GAMES).collect();
    Summary::merged(crate::run_batches(batches.len(), jobs, &|i| {
        run_cvc_batch(make, batches[i], latency)
    }))
}

/// One batch of the schedule on a fresh pair of calculators.
fn run_cvc_batch(
    make: &crate::SharedMaker,
    schedule: &[(CvcOptions, CvcOptions)],
    latency: u64,
) -> Result<Summary, HarnessError> {
    let games = schedule.len() as u64;
    let a = Table::from_calc(make()?)?.calc;
    let b = Table::from_calc(make()?)?.calc;
    let (a, b) = ti82_machine::cable::connect(a, b, latency);
    let (oa, ob): (Vec<_>, Vec<_>) = schedule.iter().copied().unzip();
    let (ca, ea) = a.into_parts();
    let (cb, eb) = b.into_parts();
    let pair = Pair {
        state: std::sync::Mutex::new(PairState {
            calcs: [ca, cb],
            ends: [ea, eb],
            target: [None, None],
        }),
        wake: std::sync::Condvar::new(),
    };
    let ((ra, ea), (rb, eb)) = std::thread::scope(|scope| {
        let hb = scope.spawn(|| run_side(&pair, 1, ob));
        let a = run_side(&pair, 0, oa);
        let b = hb
            .join()
            .map_err(|_| HarnessError::Setup("a CALC VS CALC thread panicked".into()));
        b.map(|b| (a, b))
    })?;
    let mut summary = Summary::default();
    for (x, y) in ra.iter().zip(&rb) {
        summary.games += 1;
        // The houses may differ where two moves lead to the same board (at the end, the sweep
        // can make them alike): who moved, how many moves and the final board must agree.
        let movers = |r: &CvcReport| r.moves.iter().map(|m| m.0).collect::<Vec<u8>>();
        if movers(x) != movers(y) || x.board != y.board {
            summary.divergences.push(Divergence {
                rocks: x.rocks,
                moves: x.moves.clone(),
                expected: x.board.clone(),
                actual: y.board.clone(),
                what: format!(
                    "the two calculators disagree: moves {:?} and {:?}",
                    x.moves, y.moves
                ),
                screen: String::new(),
            });
            return Ok(summary);
        }
        summary.moves += x.moves_verified;
    }
    for e in [ea, eb].into_iter().flatten() {
        match e {
            HarnessError::Divergence(d) => summary.divergences.push(*d),
            other => return Err(other),
        }
    }
    if !summary.divergences.is_empty() && summary.games < games {
        // The game that diverged counts as played.
        summary.games += 1;
    }
    Ok(summary)
}
