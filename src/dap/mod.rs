//! `ti82 dap`: the Debug Adapter Protocol on standard input and output (docs/debugger.md), so
//! an editor (VS Code, Neovim's nvim-dap, Emacs dap-mode, Helix, Zed...) is the debugger's
//! window. It debugs TI-BASIC on the built-in runtime (breakpoints with conditions, hit counts
//! and logpoints, stepping through `prgm` calls, pause, a stop when an error screen would show,
//! variables as the calculator shows them, evaluation without side effects, stores, data
//! breakpoints on variables), two such calculators on a cable (`pair`), and Z80 code
//! (`z80level`).
//!
//! Messages are read on their own thread (`wire`; a `Content-Length` over [`MAX_MESSAGE`] ends
//! the session with a message; malformed JSON gets an error response); the calculators run on
//! this thread in slices between looks at the requests (`running`), so a pause stops even an
//! endless loop. `source` knows the programs' lines, `inspect` answers for a stopped
//! calculator, `glass` is the window.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use crossbeam_channel::TryRecvError;
use serde_json::{json, Value as Json};
use ti82_machine::cable::CableEnd;
use ti82_machine::Calc;
use tibasic::debug::{Breakpoint, HitCondition, StepMode, StopReason, Watch};
use tibasic::firmware::BasicFirmware;

use crate::script::{parse, Until};

mod glass;
mod inspect;
mod running;
mod source;
mod wire;
mod z80level;

use glass::Glass;
use inspect::VarRef;
use running::{Pace, Side};
use source::{load_file, Source};
use wire::{reader, Incoming};

pub use z80level::{base64, unbase64};

use ti82_machine::debug::Z80Step;

/// The longest message accepted (1 MiB): a longer `Content-Length` ends the session.
pub const MAX_MESSAGE: usize = 1 << 20;
/// The longest a `before` program may run, in emulated ms.
const BEFORE_LIMIT_MS: u64 = 600_000;
/// Emulated time run between two looks at the requests (10 ms).
const SLICE_T: u64 = 60_000;
/// The thread id of the calculator (of the first one in a pair session; the second is 2).
pub(crate) const THREAD: i64 = 1;
/// Frame ids of thread `n` start at `(n - 1) * FRAMES_PER_THREAD + 1`.
const FRAMES_PER_THREAD: i64 = 1000;

struct Session<W: Write> {
    out: W,
    seq: i64,
    /// The calculators (threads 1, 2); `cur` is the one the request at hand is about.
    sides: Vec<Side>,
    cur: usize,
    /// The calculator that stopped last: the one a request without a thread is about.
    focus: usize,
    sources: Vec<Source>,
    main: Option<String>,
    stop_on_entry: bool,
    pace: Option<Pace>,
    /// Launched and configured: the program runs.
    started: bool,
    /// A stop has been reported (and not yet resumed).
    reported: bool,
    ended: bool,
    /// Variables references handed out since the last stop, each with its calculator.
    refs: Vec<(usize, VarRef)>,
    next_bp: u32,
    /// Breakpoints by source key (path or reference), as last set.
    bp_sets: HashMap<String, Vec<u32>>,
}

fn ok(v: Option<Json>) -> Result<Json, String> {
    Ok(v.unwrap_or(Json::Null))
}

impl<W: Write> Session<W> {
    fn send(&mut self, mut m: Json) {
        self.seq += 1;
        m["seq"] = json!(self.seq);
        let body = m.to_string();
        let _ = write!(self.out, "Content-Length: {}\r\n\r\n{}", body.len(), body);
        let _ = self.out.flush();
    }

    fn event(&mut self, event: &str, body: Json) {
        self.send(json!({"type": "event", "event": event, "body": body}));
    }

    fn respond(&mut self, req: &Json, result: Result<Json, String>) {
        let command = req["command"].as_str().unwrap_or("").to_string();
        let request_seq = req["seq"].as_i64().unwrap_or(0);
        match result {
            Ok(body) => self.send(json!({"type": "response", "request_seq": request_seq,
                "success": true, "command": command, "body": body})),
            Err(message) => self.send(json!({"type": "response", "request_seq": request_seq,
                "success": false, "command": command, "message": message,
                "body": {"error": {"id": 1, "format": message}}})),
        }
    }

    /// The launched calculator's firmware, if it is an `F`, and its hardware.
    fn parts<F: 'static>(
        &mut self,
        not: &str,
    ) -> Result<(&mut F, &mut ti82_machine::Hardware), String> {
        let side = self.sides.get_mut(self.cur).ok_or("nothing is launched")?;
        let (fw, hw) = side.calc.parts_mut();
        let fw = fw
            .as_any_mut()
            .downcast_mut::<F>()
            .ok_or_else(|| not.to_string())?;
        Ok((fw, hw))
    }

    fn firmware(&mut self) -> Result<(&mut BasicFirmware, &mut ti82_machine::Hardware), String> {
        self.parts("this calculator does not run the built-in runtime")
    }

    fn source_of(&self, program: &[u8]) -> Option<&Source> {
        self.sources.iter().find(|s| s.name == program)
    }

    /// Which calculator a request is about: its `threadId`, the thread of its `frameId` or
    /// `variablesReference`, else the one that stopped last.
    fn select(&mut self, args: &Json) -> Result<(), String> {
        let n = self.sides.len();
        let side = if let Some(t) = args["threadId"].as_i64() {
            if !(1..=n as i64).contains(&t) && n > 0 {
                return Err(format!("there is no thread {t}"));
            }
            t - 1
        } else if let Some(f) = args["frameId"].as_i64() {
            f.saturating_sub(1).max(0) / FRAMES_PER_THREAD
        } else if let Some(r) = args["variablesReference"].as_i64() {
            self.refs
                .get(r.saturating_sub(1).max(0) as usize)
                .map_or(self.focus as i64, |(s, _)| *s as i64)
        } else {
            self.focus as i64
        };
        self.cur = usize::try_from(side)
            .ok()
            .filter(|&s| s < n)
            .unwrap_or(self.focus);
        Ok(())
    }

    fn handle(&mut self, req: &Json) -> bool {
        let args = req.get("arguments").cloned().unwrap_or(Json::Null);
        let command = req["command"].as_str().unwrap_or("");
        if let Err(e) = self.select(&args) {
            self.respond(req, Err(e));
            return false;
        }
        let result = match command {
            "initialize" => ok(Some(json!({
                "supportsConfigurationDoneRequest": true,
                "supportsConditionalBreakpoints": true,
                "supportsHitConditionalBreakpoints": true,
                "supportsLogPoints": true,
                "supportsEvaluateForHovers": true,
                "supportsSetVariable": true,
                "supportsDataBreakpoints": true,
                "supportsTerminateRequest": true,
                "supportsInstructionBreakpoints": true,
                "supportsReadMemoryRequest": true,
                "supportsWriteMemoryRequest": true,
                "supportsDisassembleRequest": true,
                "supportsSteppingGranularity": true,
                "exceptionBreakpointFilters": [{"filter": "error",
                    "label": "Errors (ERR: screens)", "default": true}],
            }))),
            "launch" => self.launch(&args),
            "setBreakpoints" if self.z80_is() => {
                let n = args["breakpoints"].as_array().map_or(0, Vec::len);
                ok(Some(json!({"breakpoints": vec![json!({"verified": false,
                    "message": "a Z80 session has no source lines: use instruction breakpoints"}); n]})))
            }
            "setBreakpoints" => self.set_breakpoints(&args),
            "setInstructionBreakpoints" => self.set_instruction_breakpoints(&args),
            "readMemory" => self.read_memory(&args),
            "writeMemory" => self.write_memory(&args),
            "disassemble" => self.disassemble(&args),
            "setExceptionBreakpoints" if self.z80_is() => ok(Some(json!({}))),
            "dataBreakpointInfo" if self.z80_is() => ok(Some(self.z80_data_info(&args))),
            "setDataBreakpoints" if self.z80_is() => self.z80_data_breakpoints(&args),
            "stackTrace" if self.z80_is() => self.z80_stack(),
            "scopes" if self.z80_is() => ok(Some(self.z80_scopes())),
            "variables" if self.z80_is() => self.z80_variables(&args),
            "evaluate" if self.z80_is() => {
                self.z80_evaluate(args["expression"].as_str().unwrap_or(""))
            }
            "continue" if self.z80_is() => self.z80_resume(Ok(Z80Step::Run), true),
            "next" if self.z80_is() => {
                let m = self.z80_next();
                self.z80_resume(m, false)
            }
            "stepIn" if self.z80_is() => self.z80_resume(Ok(Z80Step::Instruction), false),
            "stepOut" if self.z80_is() => {
                let m = self.z80_out();
                self.z80_resume(m, false)
            }
            "pause" if self.z80_is() => self.z80_debug().map(|d| {
                d.pause = true;
                json!({})
            }),
            "setExceptionBreakpoints" => {
                let on = args["filters"]
                    .as_array()
                    .is_some_and(|f| f.iter().any(|x| x == "error"));
                self.each_debugger(|d| d.break_on_error = on)
                    .map(|()| json!({}))
            }
            "dataBreakpointInfo" => {
                // In a pair session a variable of one calculator's scopes is that
                // calculator's (`L1@2`); a bare name watches it on both.
                let name = args["name"].as_str().unwrap_or("");
                let (id, on) = match (self.sides.len() > 1, args["variablesReference"].as_i64()) {
                    (true, Some(_)) => (
                        format!("{name}@{}", self.cur + 1),
                        format!(" on {}", self.thread_name(self.cur)),
                    ),
                    _ => (name.to_string(), String::new()),
                };
                ok(Some(json!({
                    "dataId": id,
                    "description": format!("{name} changes{on}"),
                    "accessTypes": ["write"],
                })))
            }
            "setDataBreakpoints" => self.set_data_breakpoints(&args),
            "configurationDone" => {
                self.started = true;
                ok(None)
            }
            "threads" => {
                let threads: Vec<Json> = (0..self.sides.len().max(1))
                    .map(|i| json!({"id": i as i64 + 1, "name": self.thread_name(i)}))
                    .collect();
                ok(Some(json!({ "threads": threads })))
            }
            // Ours: the window's status line (`stopped at MANCALA:42`), for scripts and tests.
            "ti82/status" => {
                let text = self.status_text();
                // And the calculator's clock, in emulated ms.
                let ms = self.sides.get(self.cur).map_or(0.0, |s| {
                    s.calc.now() as f64 * 1000.0 / ti82_machine::CLOCK_HZ as f64
                });
                ok(Some(json!({ "status": text, "emulatedMs": ms })))
            }
            "stackTrace" => self.stack_trace(),
            "scopes" => self.scopes(),
            "variables" => self.variables(&args),
            "evaluate" => self.evaluate(&args),
            "setVariable" => self.set_variable(&args),
            "source" => self.source(&args),
            "continue" => self.resume(StepMode::Run, true),
            "next" => {
                let d = self.depth();
                self.resume(StepMode::Over(d), false)
            }
            "stepIn" => self.resume(StepMode::Into, false),
            "stepOut" => {
                let d = self.depth();
                self.resume(StepMode::Out(d), false)
            }
            "pause" => self.pause(),
            "disconnect" | "terminate" => {
                self.respond(req, ok(None));
                if !self.ended {
                    self.ended = true;
                    self.event("terminated", json!({}));
                }
                return command == "disconnect";
            }
            other => Err(format!("{other:?} is not supported by ti82 dap")),
        };
        let launched = command == "launch" && result.is_ok();
        let succeeded = result.is_ok();
        self.respond(req, result);
        if command == "initialize" {
            self.event("initialized", json!({}));
        }
        if succeeded && !self.z80_is() {
            match command {
                // A pause holds every calculator where it stands and says so at once (a
                // program waiting at `Pause` runs no statement that could stop it).
                "pause" => self.report_stop(self.cur, StopReason::Pause),
                // Stepping one calculator lets the other run too, as gdb does by default:
                // it waits on the cable as it would on a real one.
                "next" | "stepIn" | "stepOut" => {
                    for i in 0..self.sides.len() {
                        if i != self.cur {
                            self.event(
                                "continued",
                                json!({"threadId": i as i64 + 1,
                                "allThreadsContinued": false}),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        if launched && args["headless"].as_bool() == Some(false) {
            for i in 0..self.sides.len() {
                let title = match self.sides.len() {
                    1 => "TI-82 (debugging)".to_string(),
                    _ => format!("{} (debugging)", self.thread_name(i)),
                };
                match Glass::open(&title) {
                    Ok(g) => {
                        self.sides[i].glass = Some(g);
                        self.event(
                            "output",
                            json!({"category": "console",
                            "output": match self.sides.len() {
                                1 => "the calculator's window is open\n".to_string(),
                                _ => format!("{}: the window is open\n", self.thread_name(i)),
                            }}),
                        );
                    }
                    Err(e) => self.event(
                        "output",
                        json!({"category": "console",
                        "output": format!("no window ({e}): running headless\n")}),
                    ),
                }
            }
            self.refresh_glass();
        }
        false
    }

    /// The client's name of calculator `i`.
    fn thread_name(&self, i: usize) -> String {
        match self.sides.len() {
            0 | 1 => "TI-82".into(),
            _ => format!("TI-82 {}", (b'A' + i as u8) as char),
        }
    }

    fn depth(&mut self) -> usize {
        self.firmware()
            .map(|(fw, _)| fw.call_stack().len())
            .unwrap_or(0)
    }

    fn launch(&mut self, args: &Json) -> Result<Json, String> {
        if !self.sides.is_empty() {
            return Err("this session has launched already".into());
        }
        self.pace = match args.get("speed") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let text = match v {
                    Json::String(t) => t.clone(),
                    other => other.to_string(),
                };
                let speed: crate::pacing::Speed = text.parse()?;
                let clock = ti82_machine::CLOCK_HZ as f64;
                match speed {
                    crate::pacing::Speed::Turbo => None,
                    crate::pacing::Speed::Real => Some(clock),
                    crate::pacing::Speed::Times(n) => Some(clock * n),
                }
                .map(|rate| Pace { rate, from: None })
            }
        };
        if let Some(rom) = args.get("rom").and_then(|r| r.as_str()) {
            let image = z80level::load_image(rom)?;
            self.stop_on_entry = args["stopOnEntry"].as_bool().unwrap_or(false);
            self.sides = vec![Side::new(z80level::new_calc(image, self.stop_on_entry))];
            return Ok(json!({}));
        }
        // `pair`: true, or an object holding the second calculator's `keys`.
        let pair = match args.get("pair") {
            None | Some(Json::Null) | Some(Json::Bool(false)) => None,
            Some(Json::Bool(true)) => Some(Json::Null),
            Some(o @ Json::Object(_)) => Some(o.clone()),
            Some(other) => {
                return Err(format!(
                    "\"pair\" is true or an object such as {{\"keys\": \"...\"}}, not {other}"
                ))
            }
        };
        let program = args["program"]
            .as_str()
            .ok_or("launch needs \"program\": a .txt, .82p or .82g file")?;
        let mut files = vec![PathBuf::from(program)];
        if let Some(more) = args["load"].as_array() {
            files.extend(more.iter().filter_map(|f| f.as_str()).map(PathBuf::from));
        }
        let mut vars = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let (sources, more) =
                load_file(f, 1000 * (i as i64 + 1)).map_err(|e| format!("{e:#}"))?;
            if i == 0 && self.main.is_none() {
                self.main = sources.first().map(|s| s.display.clone());
            }
            self.sources.extend(sources);
            vars.extend(more);
        }
        let main = self
            .main
            .clone()
            .ok_or_else(|| format!("{program}: holds no program"))?;
        // `before`: programs run to their end first, as a user starts MANBOARD before MANCALA.
        let mut before = Vec::new();
        for b in args["before"].as_array().cloned().unwrap_or_default() {
            let name = b.as_str().unwrap_or("").to_string();
            if !self.sources.iter().any(|s| s.display == name) {
                return Err(format!(
                    "before: {b} is not one of the launched programs ({})",
                    self.sources
                        .iter()
                        .map(|s| s.display.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            before.push(name);
        }
        self.stop_on_entry = args["stopOnEntry"].as_bool().unwrap_or(false);
        let mut scripts = vec![args["keys"].as_str()];
        if let Some(p) = &pair {
            scripts.push(p["keys"].as_str());
        }
        for keys in scripts {
            let mut calc = Calc::new(BasicFirmware::new());
            tibasic::firmware::install(calc.ram_mut(), &vars)
                .map_err(|e| format!("the programs do not fit in memory: {e}"))?;
            // Let the calculator come up at the home screen before the program starts.
            calc.run_for(SLICE_T * 10);
            let mut side = Side::new(calc);
            for name in &before {
                side.player.push_run(name);
                side.player.push_until(Until::ProgramDone, BEFORE_LIMIT_MS);
            }
            side.player.push_run(&main);
            if let Some(keys) = keys {
                let steps = parse(keys).map_err(|e| format!("keys: {e}"))?;
                side.player.push(&steps);
            }
            self.sides.push(side);
            self.cur = self.sides.len() - 1;
            let entry = self.stop_on_entry;
            let (fw, _) = self.firmware()?;
            fw.attach_debugger();
            if let Some(d) = fw.debugger() {
                d.break_on_error = true;
                if entry {
                    d.mode = StepMode::Entry;
                }
            }
        }
        self.cur = 0;
        if let [a, b] = self.sides.as_mut_slice() {
            // The in-process cable of two windows (docs/link.md): wire-exact, so the two
            // calculators keep in step in emulated time whatever the debugger does.
            let (ta, tb) = ti82_machine::cable::channel_pair();
            let latency = ti82_machine::cable::DEFAULT_LATENCY;
            a.end = Some(CableEnd::plug(&a.calc, Box::new(ta), latency));
            b.end = Some(CableEnd::plug(&b.calc, Box::new(tb), latency));
        }
        Ok(json!({}))
    }

    fn set_breakpoints(&mut self, args: &Json) -> Result<Json, String> {
        let src = &args["source"];
        let key = src["path"]
            .as_str()
            .map(str::to_string)
            .or_else(|| src["sourceReference"].as_i64().map(|r| r.to_string()))
            .ok_or("setBreakpoints: the source has no path or reference")?;
        let matches = |s: &Source| {
            src["sourceReference"].as_i64() == Some(s.reference) && !s.text_file
                || src["path"].as_str().is_some_and(|p| {
                    Path::new(p) == s.path
                        || std::fs::canonicalize(p).ok() == std::fs::canonicalize(&s.path).ok()
                })
        };
        let found = self.sources.iter().position(matches);
        let wanted: Vec<Json> = args["breakpoints"].as_array().cloned().unwrap_or_default();
        // Drop this source's old breakpoints.
        let old = self.bp_sets.remove(&key).unwrap_or_default();
        let mut new_bps = Vec::new();
        let mut answers = Vec::new();
        for b in &wanted {
            let line = b["line"].as_i64().unwrap_or(0);
            self.next_bp += 1;
            let id = self.next_bp;
            let Some(i) = found else {
                answers.push(json!({"id": id, "verified": false, "line": line,
                    "message": "this file is not one of the launched programs"}));
                continue;
            };
            let s = &self.sources[i];
            let at = s.statements().into_iter().find(|&(_, l)| l >= line);
            let Some((offset, at_line)) = at else {
                answers.push(json!({"id": id, "verified": false, "line": line,
                    "message": format!("no statement at or after line {line}")}));
                continue;
            };
            let hit = match b["hitCondition"].as_str() {
                Some(h) => HitCondition::parse(h)?,
                None => HitCondition::Always,
            };
            let mut answer = json!({"id": id, "verified": true, "line": at_line,
                "column": s.position(offset).1, "source": s.dap()});
            if at_line != line {
                answer["message"] = json!(format!(
                    "line {line} has no statement: moved to line {at_line}"
                ));
            }
            answers.push(answer);
            new_bps.push(Breakpoint {
                id,
                program: s.name.clone(),
                offset,
                condition: b["condition"]
                    .as_str()
                    .filter(|c| !c.trim().is_empty())
                    .map(str::to_string),
                hit,
                log: b["logMessage"].as_str().map(str::to_string),
                hits: 0,
            });
        }
        let ids: Vec<u32> = new_bps.iter().map(|b| b.id).collect();
        self.bp_sets.insert(key, ids);
        // A source's breakpoints are every calculator's (both run the same programs).
        self.each_debugger(|d| {
            d.breakpoints.retain(|b| !old.contains(&b.id));
            d.breakpoints.extend(new_bps.iter().cloned());
        })?;
        Ok(json!({ "breakpoints": answers }))
    }

    fn set_data_breakpoints(&mut self, args: &Json) -> Result<Json, String> {
        let ids: Vec<String> = args["breakpoints"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|b| b["dataId"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let mut answers = Vec::new();
        let mut watches = vec![Vec::new(); self.sides.len()];
        for id in ids {
            // `L1@2`: calculator 2's `L1` only (pair sessions); `L1`: every calculator's.
            let (name, only) = match id.rsplit_once('@') {
                Some((n, t)) => match t.parse::<usize>() {
                    Ok(t) if (1..=self.sides.len()).contains(&t) => (n.to_string(), Some(t - 1)),
                    _ => {
                        answers.push(json!({"verified": false,
                            "message": format!("{id:?}: there is no thread {t}")}));
                        continue;
                    }
                },
                None => (id.clone(), None),
            };
            for (i, list) in watches.iter_mut().enumerate() {
                if only.is_some_and(|o| o != i) {
                    continue;
                }
                self.cur = i;
                let (fw, hw) = self.firmware()?;
                let last = fw.evaluate(hw, &name).ok().map(|v| fw.show_value(&v));
                list.push(Watch {
                    name: name.clone(),
                    last,
                });
            }
            answers.push(json!({"verified": true, "description": format!("{name} changes")}));
        }
        for (i, list) in watches.into_iter().enumerate() {
            self.cur = i;
            if let Some(d) = self.firmware()?.0.debugger() {
                d.watches = list;
            }
        }
        Ok(json!({ "breakpoints": answers }))
    }

    /// Runs `f` on the debugger of every calculator.
    fn each_debugger(
        &mut self,
        mut f: impl FnMut(&mut tibasic::debug::Debug),
    ) -> Result<(), String> {
        let cur = self.cur;
        for i in 0..self.sides.len() {
            self.cur = i;
            if let Some(d) = self.firmware()?.0.debugger() {
                f(d);
            }
        }
        self.cur = cur;
        Ok(())
    }
}

/// Serves one debug session on `input`/`output` until the client disconnects or goes away.
pub fn run(input: impl Read + Send + 'static, output: impl Write) -> Result<()> {
    let rx = reader(input);
    let mut s = Session {
        out: output,
        seq: 0,
        sides: Vec::new(),
        cur: 0,
        focus: 0,
        sources: Vec::new(),
        main: None,
        stop_on_entry: false,
        pace: None,
        started: false,
        reported: false,
        ended: false,
        refs: Vec::new(),
        next_bp: 0,
        bp_sets: HashMap::new(),
    };
    loop {
        let runs = s.started && !s.ended && !s.stopped();
        let paced = if runs { s.pace_wait() } else { None };
        let incoming = if let Some(wait) = paced {
            // Ahead of the wall clock at a paced speed: wait for it, or for a request.
            match rx.recv_timeout(wait) {
                Ok(m) => Some(m),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    s.refresh_glass();
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Some(Incoming::End),
            }
        } else if runs {
            match rx.try_recv() {
                Ok(m) => Some(m),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Incoming::End),
            }
        } else if s.has_glass() {
            // The window needs looking after while nothing runs.
            match rx.recv_timeout(std::time::Duration::from_millis(16)) {
                Ok(m) => Some(m),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    s.refresh_glass();
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Some(Incoming::End),
            }
        } else {
            Some(rx.recv().unwrap_or(Incoming::End))
        };
        match incoming {
            None => {
                s.refresh_glass();
                if let Err(e) = s.run_slice() {
                    s.event(
                        "output",
                        json!({"category": "stderr", "output": format!("{e}\n")}),
                    );
                    s.ended = true;
                    s.event("terminated", json!({}));
                }
            }
            Some(Incoming::Message(body)) => match serde_json::from_slice::<Json>(&body) {
                Ok(req) if req["type"] == "request" && req["command"].is_string() => {
                    if s.handle(&req) {
                        return Ok(());
                    }
                }
                Ok(other) => s.respond(
                    &json!({"seq": other["seq"], "command": other["command"]}),
                    Err("not a request".into()),
                ),
                Err(e) => s.respond(
                    &json!({"seq": 0, "command": ""}),
                    Err(format!("malformed JSON: {e}")),
                ),
            },
            Some(Incoming::Broken(why)) => {
                s.event(
                    "output",
                    json!({"category": "stderr", "output": format!("ti82 dap: {why}; ending the session\n")}),
                );
                s.event("terminated", json!({}));
                return Ok(());
            }
            Some(Incoming::End) => return Ok(()),
        }
    }
}
