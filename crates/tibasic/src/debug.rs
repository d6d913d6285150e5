//! The TI-BASIC side of the debugger (docs/debugger.md): breakpoints on statements (with
//! TI-BASIC conditions, hit counts and logpoints), stepping into, over and out of `prgm`
//! calls, pause, a stop when an error screen would show, and evaluation with no side effect.
//!
//! The firmware looks at it before each statement only while a debugger is attached
//! ([`crate::firmware::BasicFirmware::attach_debugger`]): one `Option` test per statement
//! otherwise. A stop leaves the statement unexecuted; the firmware then runs no statement until
//! [`Debug::resume`].

use std::fmt;

/// When a breakpoint that is reached stops (its hit count is counted first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitCondition {
    Always,
    /// `N` or `>=N`: from the N-th hit on.
    AtLeast(u64),
    /// `==N`: only the N-th hit.
    Exactly(u64),
    /// `%N`: every N-th hit.
    Every(u64),
}

impl HitCondition {
    /// Parses a DAP `hitCondition`: `N`, `>=N`, `>N`, `==N`, `=N` or `%N`.
    pub fn parse(s: &str) -> Result<HitCondition, String> {
        let t = s.trim();
        let num = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("hit count {s:?}: write N, >=N, ==N or %N"))
        };
        if t.is_empty() {
            return Ok(HitCondition::Always);
        }
        Ok(if let Some(n) = t.strip_prefix(">=") {
            HitCondition::AtLeast(num(n)?)
        } else if let Some(n) = t.strip_prefix('>') {
            HitCondition::AtLeast(num(n)?.saturating_add(1))
        } else if let Some(n) = t.strip_prefix("==").or_else(|| t.strip_prefix('=')) {
            HitCondition::Exactly(num(n)?)
        } else if let Some(n) = t.strip_prefix('%') {
            HitCondition::Every(num(n)?.max(1))
        } else {
            HitCondition::AtLeast(num(t)?)
        })
    }

    fn passes(self, hits: u64) -> bool {
        match self {
            HitCondition::Always => true,
            HitCondition::AtLeast(n) => hits >= n,
            HitCondition::Exactly(n) => hits == n,
            HitCondition::Every(n) => hits.is_multiple_of(n),
        }
    }
}

/// A breakpoint on one statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Breakpoint {
    pub id: u32,
    /// The program's name (token bytes) and the statement's byte offset in it.
    pub program: Vec<u8>,
    pub offset: u32,
    /// A TI-BASIC expression (program text): stop only where it is not 0.
    pub condition: Option<String>,
    pub hit: HitCondition,
    /// A logpoint: this text, with `{expr}` parts evaluated, goes to the output; no stop.
    pub log: Option<String>,
    /// Times reached with its condition true.
    pub hits: u64,
}

/// How execution goes on after a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StepMode {
    /// Until a breakpoint, a pause or the end.
    #[default]
    Run,
    /// Stop at the very first statement (launch's `stopOnEntry`).
    Entry,
    /// Stop at the next statement, in whichever program.
    Into,
    /// Stop at the next statement at this call depth or shallower.
    Over(usize),
    /// Stop at the next statement shallower than this depth.
    Out(usize),
}

/// Why execution stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    Entry,
    Step,
    Pause,
    /// The breakpoints (ids) at the statement.
    Breakpoint(Vec<u32>),
    /// A watched variable changed: its name, the old and the new value as shown.
    Data {
        name: String,
        old: String,
        new: String,
    },
    /// An error screen is about to show: its text (`ERR:DIVIDE BY 0`).
    Error(String),
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Entry => write!(f, "entry"),
            StopReason::Step => write!(f, "step"),
            StopReason::Pause => write!(f, "pause"),
            StopReason::Breakpoint(_) => write!(f, "breakpoint"),
            StopReason::Data { name, .. } => write!(f, "{name} changed"),
            StopReason::Error(e) => write!(f, "{e}"),
        }
    }
}

/// A variable watched for changes (a data breakpoint): its name as typed, its value as shown
/// when last looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub name: String,
    pub last: Option<String>,
}

/// The debugger's state inside the firmware.
#[derive(Clone, Debug, Default)]
pub struct Debug {
    pub breakpoints: Vec<Breakpoint>,
    pub watches: Vec<Watch>,
    pub mode: StepMode,
    /// Stop at the next statement (a pause request).
    pub pause: bool,
    /// Stop when an error screen would show.
    pub break_on_error: bool,
    /// Where execution stands stopped, if it does.
    pub stopped: Option<StopReason>,
    /// Logpoint lines and condition errors not yet taken by the front end.
    pub output: Vec<String>,
    /// The statement execution stopped at runs before the next look (set by `resume`).
    resumed: bool,
}

impl Debug {
    /// Goes on from a stop in `mode`.
    pub fn resume(&mut self, mode: StepMode) {
        self.mode = mode;
        self.stopped = None;
        self.pause = false;
        self.resumed = true;
    }

    /// Nothing could stop the program: no breakpoint, watch, pause or step in progress.
    pub(crate) fn idle(&self) -> bool {
        self.breakpoints.is_empty()
            && self.watches.is_empty()
            && !self.pause
            && self.mode == StepMode::Run
    }

    /// Whether the statement about to run is the one a resume left from (it runs unchecked).
    pub(crate) fn take_resumed(&mut self) -> bool {
        std::mem::take(&mut self.resumed)
    }

    /// The stop a step mode asks for at a statement `depth` calls deep.
    pub(crate) fn step_stop(&self, depth: usize) -> Option<StopReason> {
        if self.pause {
            return Some(StopReason::Pause);
        }
        match self.mode {
            StepMode::Run => None,
            StepMode::Entry => Some(StopReason::Entry),
            StepMode::Into => Some(StopReason::Step),
            StepMode::Over(d) if depth <= d => Some(StopReason::Step),
            StepMode::Out(d) if depth < d => Some(StopReason::Step),
            StepMode::Over(_) | StepMode::Out(_) => None,
        }
    }

    /// Indices of the breakpoints on this statement.
    pub(crate) fn at(&self, program: &[u8], offset: u32) -> Vec<usize> {
        self.breakpoints
            .iter()
            .enumerate()
            .filter(|(_, b)| b.offset == offset && b.program == program)
            .map(|(i, _)| i)
            .collect()
    }

    /// Counts a hit of breakpoint `i` whose condition held; whether it stops.
    pub(crate) fn hit(&mut self, i: usize) -> bool {
        let b = &mut self.breakpoints[i];
        b.hits += 1;
        b.hit.passes(b.hits)
    }
}

/// Splits a logpoint message into text and `{expr}` parts (`{{` and `}}` are braces).
pub fn log_parts(msg: &str) -> Vec<(bool, String)> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut expr = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    expr.push(d);
                }
                if !text.is_empty() {
                    parts.push((false, std::mem::take(&mut text)));
                }
                parts.push((true, expr));
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        parts.push((false, text));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_conditions() {
        let p = |s| HitCondition::parse(s).unwrap();
        assert_eq!(p("3"), HitCondition::AtLeast(3));
        assert_eq!(p(">=3"), HitCondition::AtLeast(3));
        assert_eq!(p(">3"), HitCondition::AtLeast(4));
        assert_eq!(p("==3"), HitCondition::Exactly(3));
        assert_eq!(p("%2"), HitCondition::Every(2));
        assert_eq!(p(""), HitCondition::Always);
        assert!(HitCondition::parse("x").is_err());
        let hits = |c: HitCondition| (1..=6).filter(|&h| c.passes(h)).collect::<Vec<_>>();
        assert_eq!(hits(p("3")), [3, 4, 5, 6]);
        assert_eq!(hits(p("==3")), [3]);
        assert_eq!(hits(p("%2")), [2, 4, 6]);
    }

    #[test]
    fn step_modes() {
        let mut d = Debug::default();
        assert_eq!(d.step_stop(1), None);
        d.mode = StepMode::Over(1);
        assert_eq!(d.step_stop(2), None);
        assert_eq!(d.step_stop(1), Some(StopReason::Step));
        d.mode = StepMode::Out(2);
        assert_eq!(d.step_stop(2), None);
        assert_eq!(d.step_stop(1), Some(StopReason::Step));
        d.pause = true;
        assert_eq!(d.step_stop(5), Some(StopReason::Pause));
    }

    #[test]
    fn logpoint_parts() {
        assert_eq!(
            log_parts("I is {I}, {{x}} {L1(2)}"),
            vec![
                (false, "I is ".to_string()),
                (true, "I".to_string()),
                (false, ", {x} ".to_string()),
                (true, "L1(2)".to_string()),
            ]
        );
    }
}
