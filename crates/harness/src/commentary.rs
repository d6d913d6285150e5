//! A running commentary on the MANCALA game in a calculator's RAM, for the front end's status
//! line: each move explained by the rules crate ("P1 plays 3: captures 5 from hole 11 | free
//! turn | score 12-9"), a mismatch flagged as soon as the emulated board cannot be explained,
//! the result at the end, and on request the engine's evaluation of the position.
//!
//! The commentator knows the game only through `L1` (layout in `docs/mancala-programs.md`):
//! 16 elements, the board in `L1(1)`..`L1(14)`, the player to move in `L1(15)` (0 once the game
//! is over) and the number of moves played in `L1(16)`. It works with either firmware, since it
//! only reads RAM.
//!
//! Every frame it finds `L1` in the VAT (a walk that allocates nothing) and compares its data
//! bytes with the copy it holds; only when they differ does it parse the list. A change of
//! `L1(16)` by `k` is explained by searching the legal move sequences of `k` moves from the last
//! verified position (several moves arrive at once when a CALC VS CALC board is pulled through
//! the link). A program updates `L1` one element at a time, so a board that nothing explains yet
//! is only called a mismatch once `L1` has been quiet for [`QUIET_T`] T-states.

use std::fmt::Write as _;
use std::sync::mpsc::{self, Receiver, Sender};

use mancala::{
    Choice, Engine, EngineOptions, Explained, GameResult, Level, MoveOutcome, Player, Position,
    Rules,
};
use ti82_machine::Calc;
use tifiles::float::TiFloat;
use tifiles::var::{VarName, VarType};
use tifiles::vat;

/// How long `L1` must stay unchanged (in T-states: one emulated second) before a board that no
/// legal move explains is called a mismatch, or a game already under way is picked up.
pub const QUIET_T: u64 = 6_000_000;

/// The longest jump of `L1(16)` the commentator tries to explain move by move.
pub const MAX_JUMP: i64 = 12;

/// Search budget of one explanation (move sequences tried).
const SEQUENCE_BUDGET: u64 = 100_000;

/// Engine nodes for the evaluation on request (searched on a worker thread).
pub const EVAL_NODES: u64 = 2_000_000;

/// `L1` as MANCALA keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L1Game {
    /// `L1(1)`..`L1(14)`.
    pub slots: [u8; 14],
    /// `L1(15)`: 1 or 2, 0 once the game is over.
    pub turn: u8,
    /// `L1(16)`: moves played (-1 on a calculator still connecting).
    pub count: i64,
}

impl L1Game {
    /// Reads `L1`'s data bytes (the element count word, then 9-byte floats). `None` unless it
    /// has 16 elements of the right kind.
    pub fn parse(data: &[u8]) -> Option<L1Game> {
        let n = usize::from(u16::from_le_bytes([*data.first()?, *data.get(1)?]));
        if n != 16 || data.len() != 2 + 9 * n {
            return None;
        }
        let mut v = [0i64; 16];
        for (i, x) in v.iter_mut().enumerate() {
            let f = TiFloat::from_slice(&data[2 + 9 * i..11 + 9 * i]).ok()?;
            *x = f.to_i64()?;
        }
        let mut slots = [0u8; 14];
        for (s, &x) in slots.iter_mut().zip(&v[..14]) {
            *s = u8::try_from(x).ok()?;
        }
        let turn = u8::try_from(v[14]).ok().filter(|t| *t <= 2)?;
        Some(L1Game {
            slots,
            turn,
            count: v[15],
        })
    }

    /// Reads `L1` out of a 32 KiB RAM slice.
    pub fn read(ram: &[u8]) -> Option<L1Game> {
        l1_data(ram).and_then(L1Game::parse)
    }

    /// The rocks per hole when this is a starting board (no move played, player 1 to move,
    /// empty stores, the same 3 to 8 rocks in every hole).
    pub fn start_rocks(&self) -> Option<u8> {
        let r = self.slots[0];
        let holes = self.slots[..6].iter().chain(&self.slots[7..13]);
        (self.count == 0
            && self.turn == 1
            && self.slots[6] == 0
            && self.slots[13] == 0
            && (3..=8).contains(&r)
            && holes.clone().all(|&x| x == r))
        .then_some(r)
    }

    /// A position this could be in a TI-82 game: the rocks a TI-82 game has (12 × 3..8) and a
    /// player to move who has rocks (or 0 with a row empty).
    fn adoptable(&self) -> Option<Position> {
        let total: u32 = self.slots.iter().map(|&x| u32::from(x)).sum();
        let rocks = total / 12;
        if self.count < 0 || rocks * 12 != total || !(3..=8).contains(&rocks) {
            return None;
        }
        let rules = Rules::ti82(rocks as u8).ok()?;
        let mover = match self.turn {
            2 => Player::Two,
            _ => Player::One,
        };
        let pos = Position::from_slots(rules, &self.slots, mover).ok()?;
        (pos.is_over() == (self.turn == 0)).then_some(pos)
    }
}

/// `L1`'s data bytes in RAM, found through the VAT (no allocation).
pub fn l1_data(ram: &[u8]) -> Option<&[u8]> {
    let name = VarName::list(1)?;
    let e = vat::find(ram, VarType::List, &name).ok()??;
    vat::data_bytes(ram, &e).ok()
}

/// The value of `L1(15)` a position should show.
fn turn_of(pos: &Position) -> u8 {
    if pos.is_over() {
        0
    } else {
        pos.to_move().number()
    }
}

/// The game being followed.
struct Game {
    /// The last verified position and its move count.
    pos: Position,
    count: i64,
    /// What the commentator says about it.
    line: String,
    /// Set once a move could not be explained; stays until a new game starts.
    mismatch: Option<String>,
}

/// The evaluation on request: an engine on a worker thread, one answer per position asked.
struct Evaluator {
    ask: Option<Sender<Position>>,
    answers: Receiver<(Position, Choice)>,
    asked: Option<Position>,
    answer: Option<(Position, Choice)>,
}

// Dropping an `Evaluator` closes its channel: the worker ends after its current search (it is
// not joined, so quitting never waits for a search).

impl Evaluator {
    fn start() -> Evaluator {
        let (ask, questions) = mpsc::channel::<Position>();
        let (reply, answers) = mpsc::channel();
        let started = std::thread::Builder::new()
            .name("mancala-eval".into())
            .spawn(move || {
                let mut engine = Engine::new(EngineOptions {
                    level: Level::Hard,
                    seed: 1,
                    table_bits: 20,
                    node_budget: Some(EVAL_NODES),
                    ..EngineOptions::default()
                });
                while let Ok(mut pos) = questions.recv() {
                    // Only the newest position matters.
                    while let Ok(newer) = questions.try_recv() {
                        pos = newer;
                    }
                    if let Ok(choice) = engine.choose(&pos) {
                        if reply.send((pos, choice)).is_err() {
                            break;
                        }
                    }
                }
            })
            .is_ok();
        Evaluator {
            ask: started.then_some(ask),
            answers,
            asked: None,
            answer: None,
        }
    }

    /// The evaluation of `pos`: asks the worker once, then picks up its answer.
    fn text(&mut self, pos: &Position, wait: bool) -> String {
        if self.asked.as_ref() != Some(pos) {
            self.asked = Some(*pos);
            if let Some(ask) = &self.ask {
                let _ = ask.send(*pos);
            }
        }
        loop {
            if self.answer.as_ref().is_some_and(|(p, _)| p == pos) {
                break;
            }
            let next = if wait && self.ask.is_some() {
                self.answers.recv().ok()
            } else {
                self.answers.try_recv().ok()
            };
            match next {
                Some(a) => self.answer = Some(a),
                None => break,
            }
        }
        match &self.answer {
            Some((p, choice)) if p == pos => eval_text(pos, choice),
            _ if self.ask.is_none() => "eval unavailable (no worker thread)".into(),
            _ => format!("eval {} ...", short(pos.to_move())),
        }
    }
}

/// `eval P1 +3 (depth 12), best 4`: the final margin the engine expects for the player to move
/// and the house it would play.
pub fn eval_text(pos: &Position, c: &Choice) -> String {
    let depth = if c.exact {
        "exact".to_string()
    } else {
        format!("depth {}", c.depth)
    };
    format!(
        "eval {} {:+} ({depth}), best {}",
        short(pos.to_move()),
        c.score,
        c.house
    )
}

fn short(p: Player) -> String {
    format!("P{}", p.number())
}

/// Follows the MANCALA game in a calculator's RAM and says what happens.
pub struct MancalaCommentator {
    /// `L1`'s data bytes as last seen (`None`: no `L1`).
    seen: Option<Vec<u8>>,
    /// `L1` parsed, when it is a MANCALA board list.
    current: Option<L1Game>,
    /// Emulated time of the last change of `L1`.
    changed_at: u64,
    /// Whether the last change has been dealt with after `L1` went quiet.
    settled: bool,
    game: Option<Game>,
    eval_on: bool,
    evaluator: Option<Evaluator>,
}

impl Default for MancalaCommentator {
    fn default() -> Self {
        Self::new()
    }
}

impl MancalaCommentator {
    pub fn new() -> MancalaCommentator {
        MancalaCommentator {
            seen: None,
            current: None,
            changed_at: 0,
            settled: true,
            game: None,
            eval_on: false,
            evaluator: None,
        }
    }

    /// Looks at the calculator (call after every emulated frame or chunk).
    pub fn observe(&mut self, calc: &Calc) {
        self.observe_ram(calc.ram(), calc.now());
    }

    /// Looks at a RAM slice at emulated time `now` (T-states).
    pub fn observe_ram(&mut self, ram: &[u8], now: u64) {
        let data = l1_data(ram);
        if data != self.seen.as_deref() {
            self.seen = data.map(<[u8]>::to_vec);
            self.current = data.and_then(L1Game::parse);
            self.changed_at = now;
            self.settled = false;
            self.update(false);
        } else if !self.settled && now.saturating_sub(self.changed_at) >= QUIET_T {
            self.settled = true;
            self.update(true);
        }
    }

    /// The game's line, or `None` when no MANCALA game is in `L1`.
    pub fn line(&mut self) -> Option<String> {
        self.line_inner(false)
    }

    /// As [`line`](Self::line), but waits for the evaluation when it is on (for tests and
    /// scripts; the front end never waits).
    pub fn line_waiting_for_eval(&mut self) -> Option<String> {
        self.line_inner(true)
    }

    fn line_inner(&mut self, wait: bool) -> Option<String> {
        let cur = self.current?;
        if cur.count < 0 {
            return None;
        }
        let game = self.game.as_ref()?;
        if let Some(m) = &game.mismatch {
            return Some(m.clone());
        }
        let mut s = game.line.clone();
        if self.eval_on && !game.pos.is_over() {
            let pos = game.pos;
            let ev = self.evaluator.get_or_insert_with(Evaluator::start);
            s.push_str(" | ");
            s.push_str(&ev.text(&pos, wait));
        }
        Some(s)
    }

    /// Switches the evaluation on request on or off; returns a message for the user.
    pub fn toggle_eval(&mut self) -> String {
        self.eval_on = !self.eval_on;
        if self.eval_on {
            format!("engine evaluation on ({EVAL_NODES} nodes a position)")
        } else {
            "engine evaluation off".into()
        }
    }

    pub fn eval_on(&self) -> bool {
        self.eval_on
    }

    /// Whether a mismatch has been flagged in the current game.
    pub fn mismatch(&self) -> Option<&str> {
        self.game.as_ref().and_then(|g| g.mismatch.as_deref())
    }

    /// The last verified position and its move count.
    pub fn position(&self) -> Option<(&Position, i64)> {
        self.game.as_ref().map(|g| (&g.pos, g.count))
    }

    fn update(&mut self, quiet: bool) {
        let Some(cur) = self.current else {
            return;
        };
        if let Some(rocks) = cur.start_rocks() {
            let fresh = match &self.game {
                None => true,
                Some(g) => {
                    g.count != 0 || g.pos.board().slots() != cur.slots || g.mismatch.is_some()
                }
            };
            if fresh {
                if let Ok(rules) = Rules::ti82(rocks) {
                    self.game = Some(Game {
                        pos: Position::new(rules),
                        count: 0,
                        line: format!("new game, {rocks} rocks a hole | P1 to move"),
                        mismatch: None,
                    });
                }
            }
            return;
        }
        if cur.count < 0 {
            return;
        }
        let Some(game) = &mut self.game else {
            if quiet {
                self.adopt(cur);
            }
            return;
        };
        if game.mismatch.is_some() {
            return;
        }
        let k = cur.count - game.count;
        let same = game.pos.board().slots() == cur.slots && turn_of(&game.pos) == cur.turn;
        if k == 0 {
            if !same && quiet {
                game.mismatch = Some(format!(
                    "MISMATCH after move {}: L1 changed to {} but L1(16) did not",
                    game.count,
                    list_text(&cur)
                ));
            }
            return;
        }
        if !(1..=MAX_JUMP).contains(&k) {
            // Not a game's way forward (a list loaded or restored): start over from it.
            if quiet {
                self.game = None;
                self.adopt(cur);
            }
            return;
        }
        let found = explain_jump(&game.pos, k as usize, &cur);
        match found {
            Explained::Found(moves) => {
                if let Some(last) = moves.last() {
                    game.pos =
                        Position::from_board(*game.pos.rules(), last.board, next_mover(last))
                            .unwrap_or(game.pos);
                }
                game.count = cur.count;
                game.line = describe(&moves);
            }
            Explained::NotFound { nearest } if quiet => {
                let expected = match nearest.as_deref() {
                    Some(moves @ [.., last]) => format!(
                        "{} turn {} ({})",
                        last.board,
                        last.next.map_or(0, |p| p.number()),
                        plays_text(moves)
                    ),
                    _ => format!("no legal sequence of {k} moves"),
                };
                game.mismatch = Some(format!(
                    "MISMATCH after move {}: expected {expected}, L1 {}",
                    cur.count,
                    list_text(&cur)
                ));
            }
            Explained::NotFound { .. } => {}
            Explained::OutOfBudget if quiet => {
                let pos = game.pos;
                self.adopt(cur);
                if let Some(g) = &mut self.game {
                    if g.pos != pos {
                        g.line = format!("{k} moves at once, not followed | {}", g.line);
                    }
                }
            }
            Explained::OutOfBudget => {}
        }
    }

    /// Picks up a game already under way (a restored calculator), without verifying how it got
    /// there.
    fn adopt(&mut self, cur: L1Game) {
        if let Some(pos) = cur.adoptable() {
            let b = pos.board();
            let state = match pos.result() {
                Some(end) => result_text(&end.result, end.scores),
                None => format!(
                    "{} to move | score {}-{}",
                    short(pos.to_move()),
                    b.store(Player::One),
                    b.store(Player::Two)
                ),
            };
            self.game = Some(Game {
                pos,
                count: cur.count,
                line: format!("following from move {} | {state}", cur.count),
                mismatch: None,
            });
        }
    }
}

/// Who moves after a move (the player who did not make the last move once the game is over,
/// as [`Position::to_move`] keeps it).
fn next_mover(m: &MoveOutcome) -> Player {
    m.next.unwrap_or(m.player.other())
}

/// The moves that lead from `pos` to the board in `L1` (`k` of them, by either player).
fn explain_jump(pos: &Position, k: usize, target: &L1Game) -> Explained {
    let next = match target.turn {
        1 => Some(Player::One),
        2 => Some(Player::Two),
        _ => None,
    };
    mancala::explain(pos, &target.slots, next, k, false, SEQUENCE_BUDGET)
}

fn list_text(l: &L1Game) -> String {
    let parts: Vec<String> = l.slots.iter().map(|x| x.to_string()).collect();
    format!("{{{}}} turn {}", parts.join(","), l.turn)
}

/// `P2 plays 6, 2; P1 plays 4`: who played which holes (1-6, the mover's sowing order).
fn plays_text(moves: &[MoveOutcome]) -> String {
    let mut groups: Vec<(Player, Vec<String>)> = Vec::new();
    for m in moves {
        match groups.last_mut() {
            Some((p, houses)) if *p == m.player => houses.push(m.house.to_string()),
            _ => groups.push((m.player, vec![m.house.to_string()])),
        }
    }
    groups
        .iter()
        .map(|(p, houses)| format!("{} plays {}", short(*p), houses.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

fn result_text(result: &GameResult, scores: [u8; 2]) -> String {
    match result {
        GameResult::Win { winner, .. } => {
            let (w, l) = match winner {
                Player::One => (scores[0], scores[1]),
                Player::Two => (scores[1], scores[0]),
            };
            format!("{} wins {w}-{l}", short(*winner))
        }
        GameResult::Draw => format!("tie {}-{}", scores[0], scores[1]),
    }
}

/// The commentary on one or more moves: `P1 plays 3: captures 5 from hole 11 | free turn |
/// score 12-9`, several moves as `P2 plays 6, 2: captures 3 from hole 5 | score 10-12`, and at
/// the end `... | P1 wins 26-22` or `... | tie 24-24`. Holes captured from are `L1` slots;
/// holes played are 1-6 in the mover's sowing order (as the program's arrow counts them).
pub fn describe(moves: &[MoveOutcome]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < moves.len() {
        let player = moves[i].player;
        let mut j = i;
        while j < moves.len() && moves[j].player == player {
            j += 1;
        }
        if !s.is_empty() {
            s.push_str("; ");
        }
        let houses: Vec<String> = moves[i..j].iter().map(|m| m.house.to_string()).collect();
        let _ = write!(s, "{} plays {}", short(player), houses.join(", "));
        let captures: Vec<String> = moves[i..j]
            .iter()
            .flat_map(|m| &m.captures)
            .map(|c| format!("{} from hole {}", c.total(), c.opposite_slot))
            .collect();
        if !captures.is_empty() {
            let _ = write!(s, ": captures {}", captures.join(", "));
        }
        i = j;
    }
    let Some(last) = moves.last() else {
        return s;
    };
    if last.free_turn {
        s.push_str(" | free turn");
    }
    match &last.end {
        Some(end) => {
            s.push_str(" | ");
            s.push_str(&result_text(&end.result, end.scores));
        }
        None => {
            let _ = write!(
                s,
                " | score {}-{}",
                last.board.store(Player::One),
                last.board.store(Player::Two)
            );
        }
    }
    s
}
