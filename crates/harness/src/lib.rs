//! Conformance: MANCALA played on emulated TI-82s through the keypad, every move checked
//! against the rules crate.
//!
//! The harness knows the game only through the manual and the board list `L1` (layout in
//! `docs/mancala-programs.md`): it presses keys as a player would (◄ until the arrow stops at the
//! left end, ► to the hole, ENTER), waits for `L1` to change, and compares the board with the
//! rules' prediction. Nothing depends on the program's other variables, so a user's original
//! MANCALA can be checked the same way.
//!
//! [`commentary`] follows a game the user plays (the front end's status line): it only reads
//! `L1`, explains each move with the rules crate and flags a board no legal move explains.

pub mod commentary;
pub mod cvc;
pub mod pace;
pub mod probe;

use std::path::Path;

use mancala::{predict, MoveOutcome, Player, Position, Rules, XorShift};
use ti82_machine::{Calc, Key};
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tifiles::file::{ReadOptions, TiFile};
use tifiles::var::Variable;

pub use cvc::{run_cvc_games, run_cvc_games_on, CvcOptions, CvcReport, CvcSide, CVC_LATENCY};
pub use probe::{read_board, read_moves, BoardProbe};

/// T-states per emulated millisecond.
pub const MS: u64 = 6_000;

/// Our MANBOARD and MANCALA sources (TI-BASIC text, tokenized here).
pub const MANBOARD_SRC: &str = include_str!("../../../programs/MANBOARD.txt");
pub const MANCALA_SRC: &str = include_str!("../../../programs/MANCALA.txt");

#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("{0}")]
    Setup(String),
    #[error("{path}: {message}")]
    File { path: String, message: String },
    #[error("divergence: {0}")]
    Divergence(Box<Divergence>),
}

/// A move where the emulated board differs from the rules' prediction.
#[derive(Debug, Clone)]
pub struct Divergence {
    pub rocks: u8,
    /// Moves played so far, as (player, house).
    pub moves: Vec<(u8, u8)>,
    pub expected: Vec<u8>,
    pub actual: Vec<u8>,
    pub what: String,
    /// The LCD as text art when it happened.
    pub screen: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} (rocks per hole {})", self.what, self.rocks)?;
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(p, h)| format!("P{p}:{h}"))
            .collect();
        writeln!(f, "moves: {}", moves.join(" "))?;
        writeln!(f, "expected L1(1..14): {:?}", self.expected)?;
        writeln!(f, "actual   L1(1..14): {:?}", self.actual)?;
        write!(f, "screen:\n{}", self.screen)
    }
}

/// MANBOARD and MANCALA from the project's sources.
pub fn builtin_programs() -> Result<Vec<Variable>, HarnessError> {
    [("MANBOARD", MANBOARD_SRC), ("MANCALA", MANCALA_SRC)]
        .iter()
        .map(|(name, src)| {
            let tokens = tifiles::tokens::tokenize_source(src)
                .map_err(|e| HarnessError::Setup(format!("programs/{name}.txt: {e}")))?;
            program_var(name, tokens)
                .ok_or_else(|| HarnessError::Setup(format!("bad program name {name}")))
        })
        .collect()
}

/// The variables in a `.82p`/`.82g`/`.uue` file (a user's own MANCALA, say).
pub fn load_file(path: &Path) -> Result<Vec<Variable>, HarnessError> {
    let file = TiFile::read(path, ReadOptions::default()).map_err(|e| HarnessError::File {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(file.vars().to_vec())
}

/// What runs a calculator: the calculator alone, or the calculator together with what is
/// plugged into it (a network cable, which must run with it). Everything here that runs a
/// calculator takes one.
pub trait Runner {
    fn calc(&self) -> &Calc;
    fn calc_mut(&mut self) -> &mut Calc;
    /// Runs for `t` T-states.
    fn run_for(&mut self, t: u64);
}

impl Runner for Calc {
    fn calc(&self) -> &Calc {
        self
    }
    fn calc_mut(&mut self) -> &mut Calc {
        self
    }
    fn run_for(&mut self, t: u64) {
        Calc::run_for(self, t)
    }
}

impl Runner for ti82_machine::cable::Linked {
    fn calc(&self) -> &Calc {
        &self.calc
    }
    fn calc_mut(&mut self) -> &mut Calc {
        &mut self.calc
    }
    fn run_for(&mut self, t: u64) {
        ti82_machine::cable::Linked::run_for(self, t)
    }
}

/// Holds `k` for a moment and lets go, like a quick player (30 ms down, 30 ms up: three key
/// scans each way), then waits until the screen has shown the key's effect and settled
/// ([`KEY_QUIET_MS`]), as a player watches the arrow move before pressing again: at a real
/// TI-82's pace a program takes a noticeable time to handle a key, and a key pressed while it is
/// busy replaces the one before it in the keypad buffer.
pub fn press<R: Runner + ?Sized>(calc: &mut R, k: Key) {
    calc.calc_mut().press(k);
    calc.run_for(30 * MS);
    calc.calc_mut().release(k);
    calc.run_for(30 * MS);
    settle_after_key(calc, KEY_QUIET_MS, 10_000);
}

/// After a key: on the built-in runtime, runs until the program waits for the next key
/// ([`settle_at_key_wait`]); on other firmware (a ROM), as [`settle`] with `quiet` ms.
pub fn settle_after_key<R: Runner + ?Sized>(calc: &mut R, quiet: u64, limit: u64) -> bool {
    settle_at_key_wait(calc, limit) || settle(calc, quiet, limit)
}

/// On the built-in runtime: runs in 10 ms steps until a step in which the program waited for
/// a key (a `getKey` that found none, or a `Menu(`, `Pause` or `Input` screen) and neither
/// the screen (less the run indicator and the cursor) nor `L1` changed. A key taken by the
/// program is no longer waiting, so the first such step comes after the program has handled
/// the last key and drawn its effect: the program's own state, not a quiet time, says it is
/// ready. False at once on other firmware, or after `limit` ms.
pub fn settle_at_key_wait<R: Runner + ?Sized>(calc: &mut R, limit: u64) -> bool {
    let polls = |c: &Calc| BasicFirmware::of(c).map(|fw| fw.empty_key_polls());
    let Some(mut before) = polls(calc.calc()) else {
        return false;
    };
    let mut last = Vec::with_capacity(1024);
    let mut now = Vec::with_capacity(1024);
    look(calc.calc(), &mut last);
    let mut waited = 0;
    while waited < limit {
        calc.run_for(10 * MS);
        waited += 10;
        look(calc.calc(), &mut now);
        let after = polls(calc.calc()).unwrap_or(before);
        let waiting = after > before
            || BasicFirmware::of(calc.calc()).is_some_and(|fw| fw.waiting_at_key_screen());
        if waiting && now == last {
            return true;
        }
        before = after;
        std::mem::swap(&mut last, &mut now);
    }
    false
}

/// How long the screen (less the run indicator) and `L1` must stay unchanged after a key before
/// [`press`] returns.
pub const KEY_QUIET_MS: u64 = 200;

/// Runs until neither the LCD (less the run indicator's corner) nor `L1` has changed for
/// `quiet` ms, or `limit` ms passed. Returns false on the limit.
pub fn settle<R: Runner + ?Sized>(calc: &mut R, quiet: u64, limit: u64) -> bool {
    settle_watching(calc, quiet, limit, &mut |_| {})
}

/// As [`settle`], calling `watch` after every 10 ms (a commentator following the game, say).
pub fn settle_watching<R: Runner + ?Sized>(
    calc: &mut R,
    quiet: u64,
    limit: u64,
    watch: &mut dyn FnMut(&Calc),
) -> bool {
    let mut last = Vec::with_capacity(1024);
    let mut now = Vec::with_capacity(1024);
    look(calc.calc(), &mut last);
    let mut stable = 0;
    let mut waited = 0;
    while waited < limit {
        calc.run_for(10 * MS);
        watch(calc.calc());
        waited += 10;
        look(calc.calc(), &mut now);
        if now == last {
            stable += 10;
            if stable >= quiet {
                return true;
            }
        } else {
            stable = 0;
            std::mem::swap(&mut last, &mut now);
        }
    }
    false
}

/// What a player watching the calculator sees change, into `out`: the display RAM less the
/// run indicator and the blinking cursor ([`glass_without_indicator`]), then `L1`'s bytes
/// (or a marker that there is no `L1`).
pub(crate) fn look(calc: &Calc, out: &mut Vec<u8>) {
    out.clear();
    glass_into(calc, out);
    match probe::board_bytes(calc.ram()) {
        Some(b) => {
            out.push(1);
            out.extend_from_slice(b);
        }
        None => out.push(0),
    }
}

fn glass_without_indicator(calc: &Calc) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    glass_into(calc, &mut out);
    out
}

fn glass_into(calc: &Calc, out: &mut Vec<u8>) {
    // The T6A04's display RAM (15 bytes a row), not the rendered glass: comparing it is
    // cheap, and it changes exactly when the picture does.
    let base = out.len();
    out.extend_from_slice(calc.hardware().lcd.display_ram());
    let ram = &mut out[base..];
    // The OS's run indicator animates the top-right 8×8 corner (spec §8.4).
    for row in 0..8 {
        ram[row * 15 + 11] = 0;
    }
    // And the entry cursor blinks in its 6×8 cell (spec §8.4) while the built-in runtime
    // waits for an entry.
    let cell = BasicFirmware::of(calc).and_then(|fw| fw.entry_cursor_cell(calc.ram()));
    if let Some((row, col)) = cell {
        for y in row * 8..row * 8 + 8 {
            for x in col * 6..col * 6 + 6 {
                ram[y * 15 + x / 8] &= !(0x80 >> (x % 8));
            }
        }
    }
}

/// A calculator with MANCALA at its main menu.
pub struct Table {
    pub calc: Calc,
    pub moves_verified: u64,
}

/// A calculator on the built-in runtime with `programs` in its memory.
pub fn builtin_calc(programs: &[Variable]) -> Result<Calc, HarnessError> {
    let mut calc = Calc::new(BasicFirmware::new());
    install(calc.ram_mut(), programs)
        .map_err(|e| HarnessError::Setup(format!("installing the programs: {e}")))?;
    Ok(calc)
}

impl Table {
    /// A built-in calculator with `programs`: runs MANBOARD (to draw `Pic1`) and starts MANCALA.
    pub fn new(programs: &[Variable]) -> Result<Table, HarnessError> {
        Table::from_calc(builtin_calc(programs)?)
    }

    /// Runs MANBOARD and starts MANCALA on a calculator that has them in its memory, through
    /// the keypad only (CLEAR, PRGM, ▼ to the program, ENTER, ENTER), so a ROM calculator is
    /// started the same way as the built-in runtime.
    pub fn from_calc(mut calc: Calc) -> Result<Table, HarnessError> {
        calc.run_for(100 * MS);
        let mut t = Table {
            calc,
            moves_verified: 0,
        };
        t.run("MANBOARD")?;
        if !settle(&mut t.calc, 300, 120_000) {
            return Err(HarnessError::Setup("MANBOARD did not finish".into()));
        }
        t.run("MANCALA")?;
        if !settle(&mut t.calc, 300, 30_000) {
            return Err(HarnessError::Setup(
                "MANCALA's main menu did not appear".into(),
            ));
        }
        Ok(t)
    }

    fn run(&mut self, name: &str) -> Result<(), HarnessError> {
        start_program(&mut self.calc, name).map_err(HarnessError::Setup)
    }

    /// MAIN MENU → 3:ROCKS PER HOLE, type `rocks`, ENTER.
    pub fn set_rocks(&mut self, rocks: u8) -> Result<(), HarnessError> {
        press(&mut self.calc, Key::K3);
        settle(&mut self.calc, 100, 10_000);
        let digit = match rocks {
            3 => Key::K3,
            4 => Key::K4,
            5 => Key::K5,
            6 => Key::K6,
            7 => Key::K7,
            8 => Key::K8,
            _ => return Err(HarnessError::Setup(format!("{rocks} rocks per hole"))),
        };
        press(&mut self.calc, digit);
        press(&mut self.calc, Key::Enter);
        settle(&mut self.calc, 150, 10_000);
        Ok(())
    }

    /// MAIN MENU → 1:PLAY; checks the starting board.
    pub fn play(&mut self, rules: &Rules) -> Result<(), HarnessError> {
        press(&mut self.calc, Key::K1);
        settle(&mut self.calc, 150, 30_000);
        let start = Position::new(*rules);
        let actual = self.board()?;
        if actual.board != start.board().slots() {
            return Err(self.divergence(
                rules.seeds(),
                &[],
                start.board().slots(),
                &actual.board,
                "the starting board is wrong",
            ));
        }
        Ok(())
    }

    pub fn board(&self) -> Result<BoardProbe, HarnessError> {
        read_board(self.calc.ram()).ok_or_else(|| HarnessError::Setup("L1 is not a board".into()))
    }

    fn divergence(
        &self,
        rocks: u8,
        moves: &[(u8, u8)],
        expected: &[u8],
        actual: &[u8],
        what: &str,
    ) -> HarnessError {
        HarnessError::Divergence(Box::new(Divergence {
            rocks,
            moves: moves.to_vec(),
            expected: expected.to_vec(),
            actual: actual.to_vec(),
            what: what.to_string(),
            screen: self.calc.lcd().to_text(),
        }))
    }

    /// Plays `house` for `player` through the keypad and returns the board afterwards.
    pub fn make_move(
        &mut self,
        player: Player,
        house: u8,
    ) -> Result<Option<BoardProbe>, HarnessError> {
        // ◄ until the arrow stops at the left end, then ► to the hole. Player 1's holes run
        // left to right on the bottom row; player 2's right to left on the top row (manual).
        for _ in 0..5 {
            press(&mut self.calc, Key::Left);
        }
        let rights = match player {
            Player::One => house - 1,
            Player::Two => 6 - house,
        };
        for _ in 0..rights {
            press(&mut self.calc, Key::Right);
        }
        let before = self.board()?;
        let before_bytes = probe::board_bytes(self.calc.ram()).map(<[u8]>::to_vec);
        press(&mut self.calc, Key::Enter);
        // Wait for L1 to change, then for the screen to settle at the next key wait.
        let mut waited = 0;
        loop {
            // Unchanged bytes are an unchanged board; changed bytes are decoded.
            if probe::board_bytes(self.calc.ram()) != before_bytes.as_deref()
                && self.board()?.board != before.board
            {
                break;
            }
            if waited > 60_000 {
                return Ok(None);
            }
            self.calc.run_for(10 * MS);
            waited += 10;
        }
        settle_after_key(&mut self.calc, 200, 60_000);
        Ok(Some(self.board()?))
    }

    /// One HUMAN VS HUMAN game with moves chosen by `rng`, every move verified. Returns the
    /// number of moves.
    pub fn play_game(&mut self, rules: &Rules, rng: &mut XorShift) -> Result<u64, HarnessError> {
        let plan = plan_moves(rules, rng);
        self.play_planned(rules, &plan)
    }

    /// One HUMAN VS HUMAN game whose houses were chosen beforehand ([`plan_games`]), every
    /// move verified against the rules. Returns the number of moves.
    pub fn play_planned(&mut self, rules: &Rules, houses: &[u8]) -> Result<u64, HarnessError> {
        self.play(rules)?;
        let mut pos = Position::new(*rules);
        let mut moves: Vec<(u8, u8)> = Vec::new();
        let mut n = 0;
        while !pos.is_over() {
            let Some(&house) = houses.get(n as usize) else {
                return Err(HarnessError::Setup(format!(
                    "the plan ends after {n} moves, before the game does"
                )));
            };
            let mover = pos.to_move();
            moves.push((mover.number(), house));
            let expected: MoveOutcome = predict(*rules, pos.board(), mover, house)
                .map_err(|e| HarnessError::Setup(e.to_string()))?;
            let Some(actual) = self.make_move(mover, house)? else {
                return Err(self.divergence(
                    rules.seeds(),
                    &moves,
                    expected.board.slots(),
                    &self.board()?.board,
                    "the board did not change after ENTER",
                ));
            };
            if actual.board != expected.board.slots() {
                return Err(self.divergence(
                    rules.seeds(),
                    &moves,
                    expected.board.slots(),
                    &actual.board,
                    &format!("after {expected}"),
                ));
            }
            if let Some(turn) = actual.turn {
                let want = expected.next.map_or(0, |p| p.number());
                if turn != want {
                    return Err(self.divergence(
                        rules.seeds(),
                        &moves,
                        expected.board.slots(),
                        &actual.board,
                        &format!("L1(15) says player {turn} moves next, the rules say {want}"),
                    ));
                }
            }
            pos.play(house)
                .map_err(|e| HarnessError::Setup(e.to_string()))?;
            n += 1;
            self.moves_verified += 1;
        }
        // The result screen waits for ENTER, then the main menu comes back.
        press(&mut self.calc, Key::Enter);
        settle(&mut self.calc, 150, 30_000);
        Ok(n)
    }
}

/// What a conformance run found.
#[derive(Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub moves: u64,
    pub divergences: Vec<Divergence>,
}

impl Summary {
    /// The batches' summaries added up, in their order; the first error ends it.
    pub fn merged(batches: Vec<Result<Summary, HarnessError>>) -> Result<Summary, HarnessError> {
        let mut summary = Summary::default();
        for r in batches {
            let s = r?;
            summary.games += s.games;
            summary.moves += s.moves;
            summary.divergences.extend(s.divergences);
        }
        Ok(summary)
    }
}

/// Games of one batch. Each batch is played in order on a calculator of its own, fresh from
/// the maker (rocks per hole set through the menu as the batch needs), and the batches are
/// shared among the threads: so a run's games, move counts and findings are the same whatever
/// the number of threads, and each calculator still plays several games one after another.
pub const BATCH_GAMES: usize = 10;

/// One HUMAN VS HUMAN game decided beforehand: rocks per hole and every house played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlan {
    pub rocks: u8,
    pub houses: Vec<u8>,
}

/// The houses of one game drawn from `rng`: a random legal move at every turn, played out on
/// the rules crate (the moves do not depend on the calculator, only on the rules).
fn plan_moves(rules: &Rules, rng: &mut XorShift) -> Vec<u8> {
    let mut pos = Position::new(*rules);
    let mut houses = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let house = legal[rng.below(legal.len())];
        if pos.play(house).is_err() {
            break;
        }
        houses.push(house);
    }
    houses
}

/// The `games` games of a run from `seed`: rocks per hole `rocks` or random 3-8 per game, and
/// each game's moves, drawn from one generator in game order.
pub fn plan_games(games: u64, seed: u64, rocks: Option<u8>) -> Result<Vec<GamePlan>, HarnessError> {
    let mut rng = XorShift::new(seed);
    (0..games)
        .map(|_| {
            let r = rocks.unwrap_or_else(|| 3 + rng.below(6) as u8);
            let rules = Rules::ti82(r).map_err(|e| HarnessError::Setup(e.to_string()))?;
            Ok(GamePlan {
                rocks: r,
                houses: plan_moves(&rules, &mut rng),
            })
        })
        .collect()
}

/// Makes a calculator with MANBOARD and MANCALA in its memory, callable from several threads
/// at once (one calculator per batch of games).
pub type SharedMaker<'a> = dyn Fn() -> Result<Calc, HarnessError> + Sync + 'a;

/// Threads to use by default: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `games` HUMAN VS HUMAN games from `seed` on the built-in runtime, rocks per hole `rocks` or
/// random 3-8 per game, on every core.
pub fn run_games(
    programs: &[Variable],
    games: u64,
    seed: u64,
    rocks: Option<u8>,
) -> Result<Summary, HarnessError> {
    run_games_on(
        &|| builtin_calc(programs),
        games,
        seed,
        rocks,
        default_jobs(),
    )
}

/// As [`run_games`], on calculators from `make` (one per batch of [`BATCH_GAMES`], and a
/// fresh one after a divergence), the batches shared among `jobs` threads.
pub fn run_games_on(
    make: &SharedMaker,
    games: u64,
    seed: u64,
    rocks: Option<u8>,
    jobs: usize,
) -> Result<Summary, HarnessError> {
    let plans = plan_games(games, seed, rocks)?;
    let batches: Vec<&[GamePlan]> = plans.chunks(BATCH_GAMES).collect();
    Summary::merged(run_batches(batches.len(), jobs, &|i| {
        run_batch(make, batches[i])
    }))
}

/// Runs `job(0..n)` on up to `jobs` threads, each taking the next index when free; the
/// results come back in index order.
pub fn run_batches<T: Send>(n: usize, jobs: usize, job: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<T>>> =
        (0..n).map(|_| std::sync::Mutex::new(None)).collect();
    let worker = || loop {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if i >= n {
            break;
        }
        let r = job(i);
        if let Ok(mut slot) = slots[i].lock() {
            *slot = Some(r);
        }
    };
    let threads = jobs.clamp(1, n.max(1));
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(worker);
        }
        worker();
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .expect("every batch ran (a panic in one is re-raised by the scope)")
        })
        .collect()
}

/// One batch of games in order on one calculator (a fresh one after a divergence).
fn run_batch(make: &SharedMaker, plans: &[GamePlan]) -> Result<Summary, HarnessError> {
    let mut table = Table::from_calc(make()?)?;
    let mut summary = Summary::default();
    let mut current_rocks = 4u8;
    for plan in plans {
        let rules = Rules::ti82(plan.rocks).map_err(|e| HarnessError::Setup(e.to_string()))?;
        if plan.rocks != current_rocks {
            table.set_rocks(plan.rocks)?;
            current_rocks = plan.rocks;
        }
        match table.play_planned(&rules, &plan.houses) {
            Ok(n) => summary.moves += n,
            Err(HarnessError::Divergence(d)) => {
                summary.divergences.push(*d);
                // Start again on a fresh calculator.
                table = Table::from_calc(make()?)?;
                current_rocks = 4;
            }
            Err(e) => return Err(e),
        }
        summary.games += 1;
    }
    Ok(summary)
}
