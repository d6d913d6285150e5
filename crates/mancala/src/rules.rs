//! The rules of a sowing game, as data.
//!
//! Every rule set the project knows (the TI-82 MANCALA manual, the Softdisk KALAH text, Py-Mancala
//! for the fx-CG50 and the usual Kalah switches) is one [`Rules`] value: a few named switches, not
//! code. `docs/rules.md` explains each switch and where each preset comes from.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The largest number of houses a side may have (the board then has `2 * 12 + 2` slots).
pub const MAX_HOUSES: u8 = 12;

/// The largest number of rocks a board may hold in all (pits are counted in `u8`).
pub const MAX_ROCKS: u16 = 255;

/// When a rock dropped into one of the mover's own empty houses captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureTrigger {
    /// Every rock that lands in an empty house of the mover's side captures, the last one or not
    /// (the TI-82 manual's rule and its first worked example).
    EveryDrop,
    /// Only the last rock of the move captures (Kalah, KALAH, Py-Mancala).
    LastRock,
    /// Nothing is ever captured.
    Never,
}

/// How a capture works: when it happens, whether the opposite house must hold rocks, and whether
/// the capturing rock itself goes to the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaptureRule {
    /// Which drops can capture.
    pub trigger: CaptureTrigger,
    /// The capture only happens when the opposite house holds at least one rock
    /// (`--capture nonempty`); otherwise it also happens on an empty opposite house
    /// (`--capture empty`, the "empty capture" of the Kalah literature).
    pub needs_opposite: bool,
    /// The capturing rock goes to the store with the captured ones (Kalah); otherwise it stays
    /// in its house (TI-82).
    pub takes_capturing_rock: bool,
}

/// When the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// As soon as a move leaves all the houses of either side empty (`either-row`).
    EitherRow,
    /// When the player whose turn it is has no rock in any of their houses (`mover-empty`).
    MoverEmpty,
}

/// Where the rocks still in the houses go when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SweepRule {
    /// Each side's remaining rocks go to that side's store (`owner`).
    Owner,
    /// All remaining rocks go to the store of the player who made the last move (`mover`).
    Mover,
}

/// A complete rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    houses: u8,
    seeds: u8,
    /// How captures work.
    pub capture: CaptureRule,
    /// When the game ends.
    pub end: EndRule,
    /// Where the remaining rocks go at the end.
    pub sweep: SweepRule,
    /// The last rock in the mover's own store gives another move.
    pub free_turn: bool,
}

/// A rule set that cannot be built, or a switch that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Houses outside `1..=MAX_HOUSES`.
    #[error("{0} houses a side: must be 1 to {MAX_HOUSES}")]
    Houses(u32),
    /// Seeds per house of zero, or a board that would hold more than [`MAX_ROCKS`].
    #[error("{seeds} rocks per house on {houses} houses a side: must be at least 1 and at most {MAX_ROCKS} rocks in all")]
    Seeds {
        /// Houses a side.
        houses: u32,
        /// Rocks per house asked for.
        seeds: u32,
    },
    /// The TI-82 program only accepts 3 to 8 rocks per hole.
    #[error("{0} rocks per hole: the TI-82 program accepts 3 to 8")]
    Ti82Rocks(u32),
    /// A preset name nobody knows.
    #[error("unknown rule set `{0}` (known: ti82, kalah, kalah-standard, py-mancala)")]
    UnknownPreset(String),
    /// A switch nobody knows.
    #[error("unknown rules switch `{0}` (known: houses, seeds, capture, capture-on, capture-rock, end, sweep, free-turn)")]
    UnknownSwitch(String),
    /// A switch given a value it does not take.
    #[error("`{value}` is not a value for `{switch}` (expected {expected})")]
    BadValue {
        /// The switch.
        switch: &'static str,
        /// What was given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
}

impl Rules {
    /// The TI-82 MANCALA rules with `rocks` per hole (the program accepts 3 to 8): 6 holes a side,
    /// every rock dropped into an own empty hole captures the opposite hole (the rock stays), the
    /// game ends when either row is empty, and each side keeps its remaining rocks.
    pub fn ti82(rocks: u8) -> Result<Rules, RulesError> {
        if !(3..=8).contains(&rocks) {
            return Err(RulesError::Ti82Rocks(rocks.into()));
        }
        Ok(Rules {
            houses: 6,
            seeds: rocks,
            capture: CaptureRule {
                trigger: CaptureTrigger::EveryDrop,
                needs_opposite: false,
                takes_capturing_rock: false,
            },
            end: EndRule::EitherRow,
            sweep: SweepRule::Owner,
            free_turn: true,
        })
    }

    /// The Softdisk KALAH rules (seed `002`) with `sticks` per pit: 6 pits a side, only the last
    /// stick captures, into an own empty pit whose opposite pit holds sticks, and both go home;
    /// when a move leaves either side empty the player who made it takes every stick in play.
    pub fn kalah(sticks: u8) -> Result<Rules, RulesError> {
        Rules::new(
            6,
            sticks,
            CaptureRule {
                trigger: CaptureTrigger::LastRock,
                needs_opposite: true,
                takes_capturing_rock: true,
            },
            EndRule::EitherRow,
            SweepRule::Mover,
            true,
        )
    }

    /// Kalah as the literature solves it (Irving, Donkers and Uiterwijk 2000; see
    /// `docs/solver.md`): `houses` houses and `seeds` per house, the last seed captures in an own
    /// empty house even when the opposite house is empty ("empty capture"), the capturing seed
    /// goes to the store, the game ends when either row is empty and each side keeps its seeds.
    pub fn kalah_standard(houses: u8, seeds: u8) -> Result<Rules, RulesError> {
        Rules::new(
            houses,
            seeds,
            CaptureRule {
                trigger: CaptureTrigger::LastRock,
                needs_opposite: false,
                takes_capturing_rock: true,
            },
            EndRule::EitherRow,
            SweepRule::Owner,
            true,
        )
    }

    /// Py-Mancala (seed `003`): 6 holes, 4 counters each, the last counter in an own empty hole
    /// captures itself and the opposite hole (even an empty one), the game ends when either row is
    /// empty and the player with counters left keeps them.
    pub fn py_mancala() -> Rules {
        Rules {
            houses: 6,
            seeds: 4,
            capture: CaptureRule {
                trigger: CaptureTrigger::LastRock,
                needs_opposite: false,
                takes_capturing_rock: true,
            },
            end: EndRule::EitherRow,
            sweep: SweepRule::Owner,
            free_turn: true,
        }
    }

    /// Any rule set, checked.
    pub fn new(
        houses: u8,
        seeds: u8,
        capture: CaptureRule,
        end: EndRule,
        sweep: SweepRule,
        free_turn: bool,
    ) -> Result<Rules, RulesError> {
        check_size(houses, seeds)?;
        Ok(Rules {
            houses,
            seeds,
            capture,
            end,
            sweep,
            free_turn,
        })
    }

    /// Houses a side.
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// Rocks per house at the start.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// Slots on the board: `2 * houses + 2`.
    pub fn slots(&self) -> usize {
        2 * usize::from(self.houses) + 2
    }

    /// The same rules with another number of houses.
    pub fn with_houses(self, houses: u8) -> Result<Rules, RulesError> {
        check_size(houses, self.seeds)?;
        Ok(Rules { houses, ..self })
    }

    /// The same rules with another number of rocks per house.
    pub fn with_seeds(self, seeds: u8) -> Result<Rules, RulesError> {
        check_size(self.houses, seeds)?;
        Ok(Rules { seeds, ..self })
    }

    /// A preset with command-line switches applied in order, e.g.
    /// `Rules::from_switches("kalah", &[("capture", "empty"), ("sweep", "owner")])`.
    pub fn from_switches(preset: &str, switches: &[(&str, &str)]) -> Result<Rules, RulesError> {
        let mut rules: Rules = preset.parse()?;
        for (key, value) in switches {
            rules.set(key, value)?;
        }
        Ok(rules)
    }

    /// Applies one command-line switch (the name without its leading `--`):
    ///
    /// | switch | values |
    /// |---|---|
    /// | `houses` | 1 to [`MAX_HOUSES`] |
    /// | `seeds` (or `rocks`) | 1 and up, at most [`MAX_ROCKS`] rocks in all |
    /// | `capture` | `empty` (an empty opposite house still captures) or `nonempty` |
    /// | `capture-on` | `every-drop`, `last-rock` or `never` |
    /// | `capture-rock` | `store` (the capturing rock goes too) or `stays` |
    /// | `end` | `either-row` or `mover-empty` |
    /// | `sweep` | `owner` or `mover` |
    /// | `free-turn` | `on` or `off` |
    pub fn set(&mut self, switch: &str, value: &str) -> Result<(), RulesError> {
        let number = |switch: &'static str| {
            value.parse::<u8>().map_err(|_| RulesError::BadValue {
                switch,
                value: value.to_string(),
                expected: "a whole number from 1 to 255",
            })
        };
        match switch {
            "houses" => *self = self.with_houses(number("houses")?)?,
            "seeds" | "rocks" => *self = self.with_seeds(number("seeds")?)?,
            "capture" => {
                self.capture.needs_opposite = match value {
                    "empty" => false,
                    "nonempty" | "non-empty" => true,
                    _ => return Err(bad("capture", value, "`empty` or `nonempty`")),
                }
            }
            "capture-on" => self.capture.trigger = parse_value("capture-on", value)?,
            "capture-rock" => {
                self.capture.takes_capturing_rock = match value {
                    "store" => true,
                    "stays" => false,
                    _ => return Err(bad("capture-rock", value, "`store` or `stays`")),
                }
            }
            "end" => self.end = parse_value("end", value)?,
            "sweep" => self.sweep = parse_value("sweep", value)?,
            "free-turn" => {
                self.free_turn = match value {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => return Err(bad("free-turn", value, "`on` or `off`")),
                }
            }
            other => return Err(RulesError::UnknownSwitch(other.to_string())),
        }
        Ok(())
    }
}

fn check_size(houses: u8, seeds: u8) -> Result<(), RulesError> {
    if houses == 0 || houses > MAX_HOUSES {
        return Err(RulesError::Houses(houses.into()));
    }
    if seeds == 0 || 2 * u16::from(houses) * u16::from(seeds) > MAX_ROCKS {
        return Err(RulesError::Seeds {
            houses: houses.into(),
            seeds: seeds.into(),
        });
    }
    Ok(())
}

fn bad(switch: &'static str, value: &str, expected: &'static str) -> RulesError {
    RulesError::BadValue {
        switch,
        value: value.to_string(),
        expected,
    }
}

/// A switch value with a fixed spelling.
trait Spelled: Sized + Copy + 'static {
    const ALL: &'static [(&'static str, Self)];
    const EXPECTED: &'static str;
}

impl Spelled for CaptureTrigger {
    const ALL: &'static [(&'static str, Self)] = &[
        ("every-drop", CaptureTrigger::EveryDrop),
        ("last-rock", CaptureTrigger::LastRock),
        ("never", CaptureTrigger::Never),
    ];
    const EXPECTED: &'static str = "`every-drop`, `last-rock` or `never`";
}

impl Spelled for EndRule {
    const ALL: &'static [(&'static str, Self)] = &[
        ("either-row", EndRule::EitherRow),
        ("mover-empty", EndRule::MoverEmpty),
    ];
    const EXPECTED: &'static str = "`either-row` or `mover-empty`";
}

impl Spelled for SweepRule {
    const ALL: &'static [(&'static str, Self)] =
        &[("owner", SweepRule::Owner), ("mover", SweepRule::Mover)];
    const EXPECTED: &'static str = "`owner` or `mover`";
}

fn parse_value<T: Spelled>(switch: &'static str, value: &str) -> Result<T, RulesError> {
    T::ALL
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| bad(switch, value, T::EXPECTED))
}

fn spelling<T: Spelled + PartialEq>(v: T) -> &'static str {
    T::ALL
        .iter()
        .find(|(_, x)| *x == v)
        .map_or("?", |(name, _)| name)
}

macro_rules! spelled_str {
    ($t:ty, $switch:literal) => {
        impl FromStr for $t {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                parse_value($switch, s)
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(spelling(*self))
            }
        }
    };
}

spelled_str!(CaptureTrigger, "capture-on");
spelled_str!(EndRule, "end");
spelled_str!(SweepRule, "sweep");

/// Parses a preset name: `ti82` (4 rocks), `ti82:N`, `kalah` (4 sticks), `kalah:N`,
/// `kalah-standard` (6 houses, 4 seeds), `kalah-standard:HxS` and `py-mancala`.
impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let (name, arg) = match s.split_once(':') {
            Some((name, arg)) => (name, Some(arg)),
            None => (s, None),
        };
        let count = |switch: &'static str, text: &str| {
            text.parse::<u8>()
                .map_err(|_| bad(switch, text, "a whole number from 1 to 255"))
        };
        match (name.to_ascii_lowercase().as_str(), arg) {
            ("ti82" | "ti-82", None) => Rules::ti82(4),
            ("ti82" | "ti-82", Some(n)) => Rules::ti82(count("rocks", n)?),
            ("kalah", None) => Rules::kalah(4),
            ("kalah", Some(n)) => Rules::kalah(count("sticks", n)?),
            ("kalah-standard", None) => Rules::kalah_standard(6, 4),
            ("kalah-standard", Some(hs)) => {
                let (h, s) = hs
                    .split_once('x')
                    .ok_or_else(|| bad("kalah-standard", hs, "HOUSESxSEEDS, e.g. 4x3"))?;
                Rules::kalah_standard(count("houses", h)?, count("seeds", s)?)
            }
            ("py-mancala" | "pymancala", None) => Ok(Rules::py_mancala()),
            _ => Err(RulesError::UnknownPreset(s.to_string())),
        }
    }
}

/// Writes the rules as a preset-free list of switches, e.g.
/// `houses 6, seeds 4, capture-on every-drop, capture empty, capture-rock stays, end either-row,
/// sweep owner, free-turn on`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "houses {}, seeds {}, capture-on {}, capture {}, capture-rock {}, end {}, sweep {}, free-turn {}",
            self.houses,
            self.seeds,
            self.capture.trigger,
            if self.capture.needs_opposite { "nonempty" } else { "empty" },
            if self.capture.takes_capturing_rock { "store" } else { "stays" },
            self.end,
            self.sweep,
            if self.free_turn { "on" } else { "off" },
        )
    }
}
