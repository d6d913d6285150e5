//! The game engine: alpha-beta with iterative deepening, a transposition table and move ordering.
//!
//! Every search value is a *future gain*: how many more rocks the player to move will bank than
//! the opponent from here on (stores already filled never change again, so they are not part of
//! the searched state). A position's final margin for the player to move is its current store
//! difference plus its future gain. At the search horizon the future gain is estimated as 0 (the
//! classic "store difference" evaluation); when no line of a search reached the horizon, its value
//! is exact. `docs/solver.md` has the details.

use std::fmt;
use std::str::FromStr;

use crate::board::Player;
use crate::endgame::{EndgameTable, Lookup};
use crate::game::{child, store_diff, GameError, Position};
use crate::rng::XorShift;
use crate::rules::{Rules, RulesError, MAX_HOUSES};

/// Default size of the endgame database: 16 MiB covers every position of the 6-hole board with
/// up to 13 rocks in play.
pub const DEFAULT_ENDGAME_BYTES: u64 = 16 << 20;

/// Games with fewer rocks than this get no endgame database.
pub(crate) const ENDGAME_MIN_GAME_ROCKS: u32 = 36;

/// Depth that means "to the end of the game".
pub(crate) const EXACT: u8 = u8::MAX;

/// The iterations of an exact solve: a few shallow ones fill the table with good moves to try
/// first, the last goes to the end of every line.
pub(crate) const SOLVE_DEPTHS: &[u8] = &[2, 4, 6, 8, 10, 12, 14, 16, EXACT];

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    best: u8,
    /// Rocks in play: a rough measure of the work the entry saves.
    work: u8,
}

/// What a search of one node reports: its value and whether any line reached the horizon (so the
/// value is an estimate, not exact).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    pub value: i32,
    pub horizon: bool,
}

/// Alpha-beta over future gains with a transposition table. Shared by [`Engine`] and the solver.
pub(crate) struct Searcher {
    table: Vec<Entry>,
    rules: Option<Rules>,
    pub nodes: u64,
    budget: u64,
    pub aborted: bool,
    /// Exact values of the positions with few rocks in play (none when `endgame_entries` is 0).
    endgame: Option<EndgameTable>,
    endgame_entries: u64,
}

/// Rocks left in the houses.
fn in_play(pos: &Position) -> i32 {
    i32::from(pos.board().in_play())
}

/// A 64-bit key of the searched state: the houses and the player to move (never 0).
fn key(pos: &Position) -> u64 {
    let b = pos.board();
    // FNV-1a over the player to move and the houses, one byte each.
    let side = pos.to_move().number();
    let mut x: u64 = 0xCBF2_9CE4_8422_2325;
    for &p in std::iter::once(&side)
        .chain(b.row(Player::One))
        .chain(b.row(Player::Two))
    {
        x = (x ^ u64::from(p)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    // splitmix64 finaliser, so the table index uses well-mixed low bits.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x ^ (x >> 31)) | 1
}

/// The legal moves, best-looking first: the table's move, then moves that end in the store
/// (free turns), then the houses nearest the store.
fn ordered_moves(pos: &Position, first: u8) -> ([u8; MAX_HOUSES as usize], usize) {
    let houses = pos.rules().houses();
    let row = pos.board().row(pos.to_move());
    let lap = 2 * u16::from(houses) + 1;
    let mut scored = [(0u16, 0u8); MAX_HOUSES as usize];
    let mut n = 0;
    for k in 1..=houses {
        let rocks = u16::from(row[usize::from(k) - 1]);
        if rocks == 0 {
            continue;
        }
        let to_store = u16::from(houses - k) + 1;
        let mut score = u16::from(k);
        if pos.rules().free_turn && rocks % lap == to_store % lap {
            score += 100;
        }
        if k == first {
            score += 1000;
        }
        scored[n] = (score, k);
        n += 1;
    }
    scored[..n].sort_unstable_by_key(|&(score, _)| std::cmp::Reverse(score));
    let mut moves = [0u8; MAX_HOUSES as usize];
    for (m, (_, k)) in moves.iter_mut().zip(&scored[..n]) {
        *m = *k;
    }
    (moves, n)
}

impl Searcher {
    /// A searcher with a table of `2^table_bits` entries (clamped to 4..=30), or the largest
    /// smaller power of two the allocator grants.
    pub fn new(table_bits: u8) -> Searcher {
        let mut table = Vec::new();
        for bits in (4..=table_bits.clamp(4, 30)).rev() {
            if table.try_reserve_exact(1usize << bits).is_ok() {
                table.resize(1usize << bits, Entry::default());
                break;
            }
        }
        if table.is_empty() {
            table = vec![Entry::default(); 16];
        }
        Searcher {
            table,
            rules: None,
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            endgame: None,
            endgame_entries: 0,
        }
    }

    /// Uses an endgame database of at most `entries` bytes (0: none) from the next search on.
    pub fn with_endgame(mut self, entries: u64) -> Searcher {
        self.endgame_entries = entries;
        self.endgame = None;
        self
    }

    /// Endgame database entries computed so far.
    pub fn endgame_computed(&self) -> u64 {
        self.endgame.as_ref().map_or(0, |t| t.computed)
    }

    /// Starts a search: clears the table if the rules changed, resets the counters.
    pub fn begin(&mut self, rules: &Rules, budget: u64) {
        if self.rules.as_ref() != Some(rules) {
            self.table.fill(Entry::default());
            self.rules = Some(*rules);
            self.endgame = None;
            // Only for games big enough to need it: on small boards the database would cover
            // most of the game and filling it costs more than the search it saves.
            let rocks = 2 * u32::from(rules.houses()) * u32::from(rules.seeds());
            if self.endgame_entries > 0 && rocks >= ENDGAME_MIN_GAME_ROCKS {
                let rocks = EndgameTable::rocks_within(rules.houses(), self.endgame_entries);
                if rocks > 0 {
                    self.endgame = EndgameTable::new(*rules, rocks);
                }
            }
        }
        self.nodes = 0;
        self.budget = budget;
        self.aborted = false;
    }

    /// The future gain of each legal move of `pos` searched to `depth` (`EXACT`: to the end),
    /// each with a full window, in house order.
    pub fn score_moves(&mut self, pos: &Position, depth: u8) -> Vec<(u8, Found)> {
        let mut out = Vec::new();
        for house in pos.legal_moves() {
            let found =
                self.move_value(pos, house, depth, -i32::from(i16::MAX), i32::from(i16::MAX));
            if self.aborted {
                break;
            }
            out.push((house, found));
        }
        out
    }

    /// Iterative deepening over `depths`, stopping at the first exact result; a depth of
    /// `EXACT` is searched by MTD(f) from the previous iteration's value. Returns the deepest
    /// finished iteration's move, value and depth (`EXACT` when exact), or `None` when not even
    /// the first finished within the budget.
    pub fn deepen(&mut self, pos: &Position, depths: &[u8]) -> Option<(u8, Found, u8)> {
        let mut last = None;
        let mut guess = 0;
        for &depth in depths {
            let result = if depth == EXACT {
                self.best_move_mtdf(pos, guess)
            } else {
                self.best_move(pos, depth)
            };
            let Some((house, found)) = result else {
                break;
            };
            guess = found.value;
            last = Some((house, found, if found.horizon { depth } else { EXACT }));
            if !found.horizon {
                break;
            }
        }
        last
    }

    /// The best move of `pos` and its future gain, searched to `depth`.
    pub fn best_move(&mut self, pos: &Position, depth: u8) -> Option<(u8, Found)> {
        let limit = in_play(pos) + 1;
        self.best_move_within(pos, depth, -limit, limit)
    }

    /// The exact best move of `pos` and its future gain by MTD(f): null-window searches from
    /// `guess` until the bounds meet.
    pub fn best_move_mtdf(&mut self, pos: &Position, guess: i32) -> Option<(u8, Found)> {
        let limit = in_play(pos) + 1;
        let (mut lower, mut upper) = (-limit, limit);
        let mut g = guess.clamp(-limit + 1, limit - 1);
        let mut best = None;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            let (house, found) = self.best_move_within(pos, EXACT, beta - 1, beta)?;
            g = found.value;
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best = Some(house);
            }
        }
        best.map(|house| {
            (
                house,
                Found {
                    value: g,
                    horizon: false,
                },
            )
        })
    }

    /// The best move of `pos` and its fail-soft future gain within `(alpha, beta)`.
    fn best_move_within(
        &mut self,
        pos: &Position,
        depth: u8,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(u8, Found)> {
        let (moves, n) = ordered_moves(pos, self.table_move(pos));
        let mut best: Option<(u8, Found)> = None;
        let mut horizon = false;
        for (i, &house) in moves[..n].iter().enumerate() {
            let found = self.principal_variation(pos, house, depth, alpha, beta, i == 0);
            if self.aborted {
                return None;
            }
            horizon |= found.horizon;
            let better = match best {
                Some((_, b)) => found.value > b.value,
                None => true,
            };
            if better {
                best = Some((house, found));
                alpha = alpha.max(found.value);
                if alpha >= beta {
                    break;
                }
            }
        }
        best.map(|(house, found)| {
            (
                house,
                Found {
                    value: found.value,
                    horizon,
                },
            )
        })
    }

    fn table_move(&self, pos: &Position) -> u8 {
        let k = key(pos);
        self.probe(k).map_or(0, |e| e.best)
    }

    /// The table is made of two-entry buckets: the first keeps the entry that saves the most
    /// work, the second the most recent one.
    fn bucket(&self, k: u64) -> usize {
        (k as usize) & (self.table.len() - 1) & !1
    }

    fn probe(&self, k: u64) -> Option<Entry> {
        let b = self.bucket(k);
        self.table[b..b + 2].iter().find(|e| e.key == k).copied()
    }

    fn store(&mut self, entry: Entry) {
        let b = self.bucket(entry.key);
        let slot = if self.table[b].key == entry.key || entry.work >= self.table[b].work {
            b
        } else {
            b + 1
        };
        self.table[slot] = entry;
    }

    /// Principal variation search: the first move gets the full window; the others first a
    /// null window just above `alpha`, and the full window again only if they beat it.
    fn principal_variation(
        &mut self,
        pos: &Position,
        house: u8,
        depth: u8,
        alpha: i32,
        beta: i32,
        first: bool,
    ) -> Found {
        if first || beta - alpha <= 1 {
            return self.move_value(pos, house, depth, alpha, beta);
        }
        let probe = self.move_value(pos, house, depth, alpha, alpha + 1);
        if self.aborted || probe.value <= alpha || probe.value >= beta {
            return probe;
        }
        let full = self.move_value(pos, house, depth, alpha, beta);
        Found {
            value: full.value,
            horizon: full.horizon || probe.horizon,
        }
    }

    /// The future gain for the mover of playing `house` in `pos`.
    fn move_value(&mut self, pos: &Position, house: u8, depth: u8, alpha: i32, beta: i32) -> Found {
        let (next, gain, over) = child(pos, house);
        if over {
            return Found {
                value: gain,
                horizon: false,
            };
        }
        let d = if depth == EXACT {
            EXACT
        } else {
            depth.saturating_sub(1)
        };
        if next.to_move() == pos.to_move() {
            let f = self.search(&next, d, alpha - gain, beta - gain);
            Found {
                value: gain + f.value,
                horizon: f.horizon,
            }
        } else {
            let f = self.search(&next, d, gain - beta, gain - alpha);
            Found {
                value: gain - f.value,
                horizon: f.horizon,
            }
        }
    }

    /// Fail-soft alpha-beta on the future gain of a position that is not over.
    fn search(&mut self, pos: &Position, depth: u8, mut alpha: i32, beta: i32) -> Found {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return Found {
                value: 0,
                horizon: true,
            };
        }
        // Nobody can gain more than the rocks still in play.
        let limit = in_play(pos);
        if let Some(table) = &mut self.endgame {
            if limit <= i32::from(table.max_rocks()) {
                // New database entries count as nodes.
                let before = table.computed;
                let found = table.value_within(pos, self.budget - self.nodes);
                self.nodes += table.computed - before;
                match found {
                    Lookup::Value(value) => {
                        return Found {
                            value,
                            horizon: false,
                        }
                    }
                    Lookup::OverBudget => {
                        self.aborted = true;
                        return Found {
                            value: 0,
                            horizon: true,
                        };
                    }
                    Lookup::NotCovered => {}
                }
            }
        }
        if limit <= alpha {
            return Found {
                value: limit,
                horizon: false,
            };
        }
        if -limit >= beta {
            return Found {
                value: -limit,
                horizon: false,
            };
        }
        if depth == 0 {
            return Found {
                value: 0,
                horizon: true,
            };
        }
        let k = key(pos);
        let mut first = 0;
        let (mut lower, mut upper) = (-limit, limit);
        if let Some(e) = self.probe(k) {
            first = e.best;
            if e.depth == EXACT || (depth != EXACT && e.depth >= depth) {
                let horizon = e.depth != EXACT;
                let (lo, up) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta || lo == up {
                    return Found { value: lo, horizon };
                }
                if up <= alpha {
                    return Found { value: up, horizon };
                }
                if !horizon {
                    lower = lo;
                    upper = up;
                    alpha = alpha.max(lo);
                }
            }
        }
        let beta = beta.min(upper);
        let orig_alpha = alpha;
        let (moves, n) = ordered_moves(pos, first);
        let mut best = i32::MIN;
        let mut best_move = 0;
        let mut horizon = false;
        for (i, &house) in moves[..n].iter().enumerate() {
            let f = self.principal_variation(pos, house, depth, alpha, beta, i == 0);
            if self.aborted {
                return f;
            }
            horizon |= f.horizon;
            if f.value > best {
                best = f.value;
                best_move = house;
                alpha = alpha.max(best);
                if alpha >= beta {
                    break;
                }
            }
        }
        // Bounds: a value at or below the window's low end is an upper bound, at or above its
        // high end a lower bound, in between exact. Known exact bounds still hold.
        if best <= orig_alpha {
            upper = upper.min(best);
        } else if best >= beta {
            lower = lower.max(best);
        } else {
            lower = best;
            upper = best;
        }
        self.store(Entry {
            key: k,
            lower: lower.clamp(-limit, limit) as i16,
            upper: upper.clamp(-limit, limit) as i16,
            depth: if horizon { depth } else { EXACT },
            best: best_move,
            work: limit.clamp(0, 255) as u8,
        });
        Found {
            value: best,
            horizon,
        }
    }
}

/// How hard the engine tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// One move deep, then a random choice among the moves within 3 rocks of the best.
    Easy,
    /// Four moves deep, a random choice among the moves within 1 rock of the best.
    Medium,
    /// Iterative deepening up to 12 moves, the best move (1 million nodes a move by default).
    Hard,
    /// Searches to the end of the game within the node budget (10 million by default): the
    /// choice is exact when the search finished ([`Choice::exact`]), else the deepest finished
    /// iteration's.
    Perfect,
}

/// How a level searches.
struct Plan {
    /// Iterative-deepening depths, in order (`EXACT`: to the end of the game).
    depths: &'static [u8],
    /// Above 0: score every move at the last depth and pick at random among those within this
    /// many rocks of the best.
    tolerance: i32,
    /// Default nodes per move.
    budget: u64,
}

impl Level {
    fn plan(self) -> Plan {
        match self {
            Level::Easy => Plan {
                depths: &[1],
                tolerance: 3,
                budget: 100_000,
            },
            Level::Medium => Plan {
                depths: &[4],
                tolerance: 1,
                budget: 300_000,
            },
            Level::Hard => Plan {
                depths: &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                tolerance: 0,
                budget: 1_000_000,
            },
            Level::Perfect => Plan {
                depths: SOLVE_DEPTHS,
                tolerance: 0,
                budget: 10_000_000,
            },
        }
    }
}

impl FromStr for Level {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Level, RulesError> {
        match s.to_ascii_lowercase().as_str() {
            "easy" | "1" => Ok(Level::Easy),
            "medium" | "2" => Ok(Level::Medium),
            "hard" | "3" => Ok(Level::Hard),
            "perfect" | "4" => Ok(Level::Perfect),
            _ => Err(RulesError::BadValue {
                switch: "level",
                value: s.to_string(),
                expected: "`easy`, `medium`, `hard` or `perfect`",
            }),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        })
    }
}

/// How an [`Engine`] is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// How hard it tries.
    pub level: Level,
    /// Seed for the random choices of the easy levels.
    pub seed: u64,
    /// The transposition table holds `2^table_bits` entries of 16 bytes (clamped to 4..=30).
    pub table_bits: u8,
    /// Nodes per move; `None` for the level's default.
    pub node_budget: Option<u64>,
    /// Bytes for the endgame database of the `hard` and `perfect` levels (one byte a position;
    /// it covers as many rocks in play as fit, filled on demand; 0: none).
    pub endgame_bytes: u64,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            level: Level::Hard,
            seed: 1,
            table_bits: 20,
            node_budget: None,
            endgame_bytes: DEFAULT_ENDGAME_BYTES,
        }
    }
}

/// The engine's move and what it knows about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The house to play (1-based, the mover's sowing order).
    pub house: u8,
    /// The final margin (mover's store minus the opponent's) the search expects after this move.
    pub score: i32,
    /// The score is the game-theoretic value (the search reached the end of every line).
    pub exact: bool,
    /// Depth of the last finished iteration (255: searched to the end).
    pub depth: u8,
    /// Nodes searched.
    pub nodes: u64,
}

/// A player that searches. Deterministic: the same options and positions give the same moves.
pub struct Engine {
    options: EngineOptions,
    searcher: Searcher,
    rng: XorShift,
}

impl Engine {
    /// An engine with its own transposition table.
    pub fn new(options: EngineOptions) -> Engine {
        Engine {
            options,
            searcher: Searcher::new(options.table_bits).with_endgame(match options.level {
                Level::Hard | Level::Perfect => options.endgame_bytes,
                Level::Easy | Level::Medium => 0,
            }),
            rng: XorShift::new(options.seed),
        }
    }

    /// An engine at `level` with the default table and seed `seed`.
    pub fn with_level(level: Level, seed: u64) -> Engine {
        Engine::new(EngineOptions {
            level,
            seed,
            ..EngineOptions::default()
        })
    }

    /// The options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Picks a move for the player to move.
    pub fn choose(&mut self, pos: &Position) -> Result<Choice, GameError> {
        let moves = pos.legal_moves();
        let Some(&only) = moves.first() else {
            return Err(GameError::GameOver);
        };
        let plan = self.options.level.plan();
        let budget = self.options.node_budget.unwrap_or(plan.budget);
        let base = store_diff(pos, pos.to_move());
        self.searcher.begin(pos.rules(), budget);
        let mut choice = Choice {
            house: only,
            score: base,
            exact: false,
            depth: 0,
            nodes: 0,
        };
        if plan.tolerance > 0 {
            let depth = plan.depths.last().copied().unwrap_or(1);
            let scores = self.searcher.score_moves(pos, depth);
            if let Some(best) = scores.iter().map(|(_, f)| f.value).max() {
                let near: Vec<_> = scores
                    .iter()
                    .filter(|(_, f)| f.value + plan.tolerance >= best)
                    .collect();
                let (house, found) = near[self.rng.below(near.len())];
                choice = Choice {
                    house: *house,
                    score: base + found.value,
                    exact: !found.horizon,
                    depth,
                    nodes: 0,
                };
            }
        } else {
            // The deepest finished iteration stands when the budget runs out.
            if let Some((house, found, depth)) = self.searcher.deepen(pos, plan.depths) {
                choice = Choice {
                    house,
                    score: base + found.value,
                    exact: !found.horizon,
                    depth,
                    nodes: 0,
                };
            }
        }
        choice.nodes = self.searcher.nodes;
        Ok(choice)
    }
}
