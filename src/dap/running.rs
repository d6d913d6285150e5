//! Running the calculators between requests: slices of emulated time (paced at a `speed`),
//! the cable between a pair, stops, resumes and pauses, and the windows.

use std::io::Write;

use serde_json::{json, Value as Json};
use ti82_machine::cable::CableEnd;
use ti82_machine::debug::Z80Step;
use ti82_machine::Calc;
use tibasic::debug::{StepMode, StopReason};
use tifiles::tokens::{detokenize, Spelling};

use super::glass::Glass;
use super::{z80level, Session, SLICE_T};
use crate::script::Player;

/// One calculator of the session: a thread to the client. A pair session has two, joined by
/// the wire-exact cable.
pub(super) struct Side {
    pub(super) calc: Calc,
    /// Its key script.
    pub(super) player: Player,
    /// Its end of the cable (pair sessions).
    pub(super) end: Option<CableEnd>,
    /// Held where it stands by the session (all-stop: the other calculator stopped, or a
    /// pause), without a stop of its firmware's debugger.
    pub(super) held: bool,
    /// Its window, when not headless.
    pub(super) glass: Option<Glass>,
    /// Its program has ended (reported once).
    pub(super) exited: bool,
    /// Its debugger's stop has been reported to the client.
    pub(super) stop_reported: bool,
}

impl Side {
    pub(super) fn new(calc: Calc) -> Side {
        Side {
            calc,
            player: Player::default(),
            end: None,
            held: false,
            glass: None,
            exited: false,
            stop_reported: false,
        }
    }

    /// Whether its firmware's debugger stopped it.
    pub(super) fn debug_stopped(&self) -> bool {
        self.calc.firmware().debug_stopped()
    }
}

/// Emulated time against wall time at a launch's `speed` (turbo: no pacing).
pub(super) struct Pace {
    /// T-states per wall second.
    pub(super) rate: f64,
    /// Where the pacing started: the wall instant and the emulated time then.
    pub(super) from: Option<(std::time::Instant, u64)>,
}

impl<W: Write> Session<W> {
    /// Goes on from a stop: the calculator asked about in `mode`, every other one running
    /// (all-stop, as gdb by default: stepping one calculator lets the other run, so it waits
    /// on the cable as it would on a real one). A calculator whose own stop was never
    /// reported stays stopped and is reported next.
    pub(super) fn resume(&mut self, mode: StepMode, all: bool) -> Result<Json, String> {
        let cur = self.cur;
        for i in 0..self.sides.len() {
            let unreported = self.sides[i].debug_stopped() && !self.sides[i].stop_reported;
            if i != cur && unreported {
                continue;
            }
            self.sides[i].held = false;
            self.sides[i].stop_reported = false;
            self.cur = i;
            let (fw, _) = self.firmware()?;
            if let Some(d) = fw.debugger() {
                let mode = if i == cur { mode } else { StepMode::Run };
                if d.stopped.is_some() || i == cur {
                    d.resume(mode);
                } else {
                    d.mode = mode;
                    d.pause = false;
                }
            }
        }
        self.cur = cur;
        self.refs.clear();
        self.reported = false;
        if let Some(p) = &mut self.pace {
            p.from = None;
        }
        Ok(if all {
            json!({"allThreadsContinued": true})
        } else {
            json!({})
        })
    }

    /// Holds every calculator where it stands (a pause).
    pub(super) fn pause(&mut self) -> Result<Json, String> {
        if self.sides.is_empty() {
            return Err("nothing is launched".into());
        }
        for side in &mut self.sides {
            side.held = true;
        }
        Ok(json!({}))
    }

    /// Reports calculator `i`'s stop (once), holding the others where they stand.
    pub(super) fn report_stop(&mut self, i: usize, reason: StopReason) {
        if self.reported {
            return;
        }
        self.reported = true;
        self.focus = i;
        self.refs.clear();
        for side in &mut self.sides {
            if !side.debug_stopped() {
                side.held = true;
            }
        }
        if let Some(side) = self.sides.get_mut(i) {
            side.stop_reported = true;
        }
        self.refresh_glass();
        let (kind, text) = match &reason {
            StopReason::Entry => ("entry", None),
            StopReason::Step => ("step", None),
            StopReason::Pause => ("pause", None),
            StopReason::Breakpoint(_) => ("breakpoint", None),
            StopReason::Data { name, old, new } => {
                ("data breakpoint", Some(format!("{name}: {old} → {new}")))
            }
            StopReason::Error(e) => ("exception", Some(e.clone())),
        };
        let mut body = json!({"reason": kind, "threadId": i as i64 + 1,
            "allThreadsStopped": true});
        if let StopReason::Breakpoint(ids) = &reason {
            body["hitBreakpointIds"] = json!(ids);
        }
        if let Some(t) = text {
            body["description"] = json!(t);
            body["text"] = json!(t);
        }
        self.event("stopped", body);
    }

    pub(super) fn z80_resume(
        &mut self,
        mode: Result<Z80Step, String>,
        all: bool,
    ) -> Result<Json, String> {
        let mode = mode?;
        self.z80_debug()?.resume(mode);
        self.reported = false;
        Ok(if all {
            json!({"allThreadsContinued": true})
        } else {
            json!({})
        })
    }

    /// Runs the calculators one slice (keys due first); reports output, stops and the end.
    pub(super) fn run_slice(&mut self) -> Result<(), String> {
        if self.z80_is() {
            if let Some(side) = self.sides.first_mut() {
                side.calc.run_for(SLICE_T);
            }
            let stop = self.z80_debug()?.stopped.clone();
            if let Some(stop) = stop {
                if !self.reported {
                    self.reported = true;
                    self.refresh_glass();
                    self.event("stopped", Self::z80_stop_body(&stop));
                }
            }
            return Ok(());
        }
        let mut t = SLICE_T;
        for side in &mut self.sides {
            side.player
                .apply(&mut side.calc)
                .map_err(|e| format!("{e:#}"))?;
            let now = side.calc.now();
            if !side.player.is_idle(now) {
                t = t.min(side.player.busy_until.saturating_sub(now).clamp(1, SLICE_T));
            }
        }
        match self.sides.as_mut_slice() {
            [one] => one.calc.run_for(t),
            [a, b] => run_linked(a, b, t),
            _ => {}
        }
        let mut stop = None;
        let mut ended = Vec::new();
        for i in 0..self.sides.len() {
            self.cur = i;
            let (fw, _) = self.firmware()?;
            let output = fw.debugger().map(|d| std::mem::take(&mut d.output));
            let stopped = fw.debugger().and_then(|d| d.stopped.clone());
            let running = fw.program_running();
            let side = &self.sides[i];
            ended.push(!running && side.player.is_idle(side.calc.now()));
            let prefix = match self.sides.len() {
                1 => String::new(),
                _ => format!("{}: ", self.thread_name(i)),
            };
            for line in output.unwrap_or_default() {
                self.event(
                    "output",
                    json!({"category": "console", "output": format!("{prefix}{line}")}),
                );
            }
            if stop.is_none() && !self.sides[i].stop_reported {
                stop = stopped.map(|r| (i, r));
            }
        }
        self.cur = self.focus;
        if let Some((i, reason)) = stop {
            self.report_stop(i, reason);
            return Ok(());
        }
        if ended.iter().all(|&e| e) {
            if !self.ended {
                self.ended = true;
                self.event("exited", json!({"exitCode": 0}));
                self.event("terminated", json!({}));
            }
        } else if self.sides.len() > 1 {
            // One calculator of a pair is done while the other runs on: its thread exits.
            for (i, &e) in ended.iter().enumerate() {
                if e && !self.sides[i].exited {
                    self.sides[i].exited = true;
                    self.event(
                        "thread",
                        json!({"reason": "exited", "threadId": i as i64 + 1}),
                    );
                }
            }
        }
        Ok(())
    }

    /// How long to wait before the next slice at a paced `speed` (none when it is due).
    pub(super) fn pace_wait(&mut self) -> Option<std::time::Duration> {
        let now = self.sides.first()?.calc.now();
        let p = self.pace.as_mut()?;
        let (wall, t0) = *p.from.get_or_insert((std::time::Instant::now(), now));
        let allowed = t0 as f64 + wall.elapsed().as_secs_f64() * p.rate;
        let ahead = now as f64 - allowed;
        (ahead > 0.0).then(|| {
            std::time::Duration::from_secs_f64(ahead / p.rate).clamp(
                std::time::Duration::from_millis(1),
                std::time::Duration::from_millis(16),
            )
        })
    }

    /// Where execution stands, for the window's status line: `stopped at MANCALA:42`.
    pub(super) fn status_text(&mut self) -> String {
        if self.ended || self.sides.get(self.cur).is_some_and(|s| s.exited) {
            return "program ended".into();
        }
        if !self.stopped() {
            return if self.started { "running" } else { "starting" }.into();
        }
        if let Ok((fw, _)) = self.z80() {
            return format!("stopped at {}", z80level::hex(fw.cpu.pc));
        }
        let Ok((fw, _)) = self.firmware() else {
            return String::new();
        };
        match fw.call_stack().first() {
            Some((program, offset)) => {
                let (program, offset) = (program.clone(), *offset);
                let name = detokenize(&program, Spelling::Ascii);
                match self.source_of(&program) {
                    Some(src) => format!("stopped at {name}:{}", src.position(offset).0),
                    None => format!("stopped at {name}, byte {offset}"),
                }
            }
            None => "stopped".into(),
        }
    }

    /// Shows the glass and the status in the window, if there is one (while the program
    /// runs, at most 60 times a second).
    pub(super) fn refresh_glass(&mut self) {
        let cur = self.cur;
        let stopped = self.stopped();
        for i in 0..self.sides.len() {
            let Some(g) = &self.sides[i].glass else {
                continue;
            };
            let due = g.at.elapsed() >= std::time::Duration::from_millis(16);
            if !due && self.started && !self.ended && !stopped {
                continue;
            }
            self.cur = i;
            let status = self.status_text();
            let side = &mut self.sides[i];
            let screen = side.calc.lcd();
            if let Some(g) = &mut side.glass {
                if !g.show(screen, status) {
                    side.glass = None;
                }
            }
        }
        self.cur = cur;
    }

    /// Whether the session stands stopped (every calculator held or stopped).
    pub(super) fn stopped(&mut self) -> bool {
        if let Ok(d) = self.z80_debug() {
            return d.stopped.is_some();
        }
        self.sides.iter().any(|s| s.held || s.debug_stopped())
    }

    pub(super) fn has_glass(&self) -> bool {
        self.sides.iter().any(|s| s.glass.is_some())
    }
}

/// Runs the two calculators of a pair `t` T-states each on their cable, until either one's
/// debugger stops it (the other then stands where the cable let it run: within the wire's
/// delay of the stopped one).
fn run_linked(a: &mut Side, b: &mut Side, t: u64) {
    let (ta, tb) = (a.calc.now() + t, b.calc.now() + t);
    let (Some(ea), Some(eb)) = (a.end.as_mut(), b.end.as_mut()) else {
        a.calc.run_for(t);
        b.calc.run_for(t);
        return;
    };
    // Bounded: each round moves at least one calculator (or ends the slice).
    for _ in 0..1_000_000 {
        if a.calc.firmware().debug_stopped() || b.calc.firmware().debug_stopped() {
            return;
        }
        let (a_done, b_done) = (a.calc.now() >= ta, b.calc.now() >= tb);
        if a_done && b_done {
            return;
        }
        let before = (a.calc.now(), b.calc.now());
        if !a_done {
            ea.advance(&mut a.calc, ta, false);
        }
        if !b_done {
            eb.advance(&mut b.calc, tb, false);
        }
        if (a.calc.now(), b.calc.now()) == before {
            // One has reached its target and the other waits on it: the finished one runs
            // on towards the other's target (as `cable::run_pair_ends`).
            if a_done {
                let to = tb.max(a.calc.now() + 1);
                ea.advance(&mut a.calc, to, false);
            } else if b_done {
                let to = ta.max(b.calc.now() + 1);
                eb.advance(&mut b.calc, to, false);
            }
            if (a.calc.now(), b.calc.now()) == before {
                return;
            }
        }
    }
}
