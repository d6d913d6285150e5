//! `ti82 dap`: the Debug Adapter Protocol on standard input and output (docs/debugger.md), so
//! an editor (VS Code, Neovim's nvim-dap, Emacs dap-mode, Helix, Zed...) is the debugger's
//! window. This first version debugs TI-BASIC on the built-in runtime: breakpoints (with
//! conditions, hit counts and logpoints), stepping through `prgm` calls, pause, a stop when an
//! error screen would show, variables as the calculator shows them, evaluation without side
//! effects, stores, and data breakpoints on variables.
//!
//! Messages are read on their own thread (a `Content-Length` over [`MAX_MESSAGE`] ends the
//! session with a message; malformed JSON gets an error response); the calculator runs on this
//! thread in slices between looks at the requests, so a pause stops even an endless loop.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, TryRecvError};
use serde_json::{json, Value as Json};
use ti82_machine::cable::CableEnd;
use ti82_machine::Calc;
use tibasic::debug::{Breakpoint, HitCondition, StepMode, StopReason, Watch};
use tibasic::firmware::BasicFirmware;
use tibasic::value::Value;
use tifiles::tokens::{detokenize, is_prefix, tokenize_source, Spelling};
use tifiles::var::{VarData, Variable};

use crate::script::{parse, Player, Until};

mod z80level;

pub use z80level::{base64, unbase64};

use ti82_machine::debug::Z80Step;

/// The longest message accepted (1 MiB): a longer `Content-Length` ends the session.
pub const MAX_MESSAGE: usize = 1 << 20;
/// The largest program file a launch reads (a TI-82 has 28 KiB of user memory; a source
/// text is longer than its tokens, but not by this much).
const MAX_PROGRAM_FILE: u64 = 1 << 20;
/// The longest a `before` program may run, in emulated ms.
const BEFORE_LIMIT_MS: u64 = 600_000;
/// Emulated time run between two looks at the requests (10 ms).
const SLICE_T: u64 = 60_000;
/// The thread id of the calculator (of the first one in a pair session; the second is 2).
pub(crate) const THREAD: i64 = 1;
/// Frame ids of thread `n` start at `(n - 1) * FRAMES_PER_THREAD + 1`.
const FRAMES_PER_THREAD: i64 = 1000;
/// Token of a line break in a program.
const NEWLINE: u8 = 0x3F;

/// What the reader thread hands over.
enum Incoming {
    Message(Vec<u8>),
    /// The stream cannot be trusted any more (framing broken, a message too long).
    Broken(String),
    End,
}

/// Reads one framed message; `Ok(None)` at the end of the input.
fn read_message(r: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        let n = r
            .by_ref()
            .take(1024)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return if length.is_none() {
                Ok(None)
            } else {
                Err("the input ended inside a message's header".into())
            };
        }
        let t = line.trim_end_matches(['\r', '\n']);
        if t.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((k, v)) = t.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                let n: usize = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("bad Content-Length {:?}", v.trim()))?;
                if n > MAX_MESSAGE {
                    return Err(format!(
                        "Content-Length {n} is over the limit of {MAX_MESSAGE} bytes"
                    ));
                }
                length = Some(n);
            }
        } else {
            return Err(format!("not a message header: {t:?}"));
        }
    }
    let mut body = vec![0u8; length.unwrap_or(0)];
    r.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok(Some(body))
}

fn reader(input: impl Read + Send + 'static) -> Receiver<Incoming> {
    let (tx, rx) = crossbeam_channel::bounded(64);
    std::thread::spawn(move || {
        let mut r = BufReader::new(input);
        loop {
            let m = match read_message(&mut r) {
                Ok(Some(body)) => Incoming::Message(body),
                Ok(None) => Incoming::End,
                Err(e) => Incoming::Broken(e),
            };
            let last = !matches!(m, Incoming::Message(_));
            if tx.send(m).is_err() || last {
                return;
            }
        }
    });
    rx
}

/// A program the session knows, with its source for positions.
struct Source {
    /// The program's name as the calculator has it (token bytes) and as text.
    name: Vec<u8>,
    display: String,
    tokens: Vec<u8>,
    /// Where each line starts in `tokens` (after each newline token), found once.
    line_starts: Vec<usize>,
    /// The file it came from; for a `.txt` the file's own text is the source, for a TI file
    /// its detokenized text is served by `sourceReference`.
    path: PathBuf,
    text_file: bool,
    reference: i64,
}

impl Source {
    fn new(name: Vec<u8>, tokens: Vec<u8>, path: PathBuf, text_file: bool, reference: i64) -> Self {
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i] == NEWLINE {
                line_starts.push(i + 1);
            }
            i += if is_prefix(tokens[i]) { 2 } else { 1 };
        }
        Source {
            display: detokenize(&name, Spelling::Ascii),
            name,
            tokens,
            line_starts,
            path,
            text_file,
            reference,
        }
    }

    /// 1-based line and column of the statement at `offset`.
    fn position(&self, offset: u32) -> (i64, i64) {
        let end = (offset as usize).min(self.tokens.len());
        let line = self.line_starts.partition_point(|&s| s <= end);
        let start = self.line_starts[line - 1];
        let col = detokenize(&self.tokens[start..end], Spelling::Ascii)
            .chars()
            .count() as i64
            + 1;
        (line as i64, col)
    }

    /// The statements (offset, line) that can hold a breakpoint.
    fn statements(&self) -> Vec<(u32, i64)> {
        tibasic::parse::compile(&self.tokens)
            .into_iter()
            .filter(|l| !matches!(l.stmt, tibasic::ast::Stmt::Empty))
            .map(|l| (l.offset, self.position(l.offset).0))
            .collect()
    }

    fn dap(&self) -> Json {
        if self.text_file {
            json!({"name": self.display, "path": self.path.display().to_string()})
        } else {
            json!({"name": format!("{}.txt", self.display), "sourceReference": self.reference,
                   "origin": format!("detokenized from {}", self.path.display())})
        }
    }
}

/// Reads the programs of one launch file: their sources, and every variable to install.
fn load_file(path: &Path, reference: i64) -> Result<(Vec<Source>, Vec<Variable>)> {
    // A device or a pipe could be read forever: only a regular file of a sane size.
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!("{}: not a regular file", path.display());
    }
    if meta.len() > MAX_PROGRAM_FILE {
        anyhow::bail!(
            "{}: {} bytes, larger than any TI-82 program file ({MAX_PROGRAM_FILE} bytes at most)",
            path.display(),
            meta.len()
        );
    }
    let is_text = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    let (vars, text_file) = if is_text {
        // As `ti82 tokenize` names and tokenizes a source.
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read it as UTF-8 text", path.display()))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = crate::files_cmd::program_name(&stem).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: {stem:?} is not a TI-82 program name (1 to 8 letters, digits or θ)",
                path.display()
            )
        })?;
        let tokens = tokenize_source(&text).map_err(|e| {
            anyhow::anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message)
        })?;
        let data = VarData::Program(tokens);
        (vec![Variable { name, data }], true)
    } else {
        (crate::files_cmd::read_vars(path)?, false)
    };
    let sources = vars
        .iter()
        .filter_map(|v| Some((v, crate::files_cmd::program_tokens(v)?)))
        .enumerate()
        .map(|(i, (v, tokens))| {
            Source::new(
                v.name.bytes().to_vec(),
                tokens.to_vec(),
                path.to_path_buf(),
                text_file,
                reference + i as i64,
            )
        })
        .collect();
    Ok((sources, vars))
}

/// What a variables reference stands for.
#[derive(Clone, Debug)]
enum VarRef {
    Reals,
    Lists,
    Matrices,
    /// `Y₁`…`Y₀`: their text.
    Equations,
    /// The window variables (63h tokens) and the statistics results (62h tokens).
    Tokens(u8),
    /// The elements of a list (1-6) or the rows of a matrix (0-4).
    List(u8),
    Matrix(u8),
}

/// The calculator's window while debugging (not headless): the glass and a status line that
/// says where execution stands; it shows, it takes no keys.
struct Glass {
    window: minifb::Window,
    layout: crate::skin::Layout,
    buf: Vec<u32>,
    shown: Option<(ti82_machine::Screen, String)>,
    /// When it was last looked after (a running calculator is shown 60 times a second).
    at: std::time::Instant,
}

impl Glass {
    fn open(title: &str) -> Result<Glass, String> {
        if !crate::have_display() {
            return Err("no display".into());
        }
        let layout = crate::skin::Layout::new(crate::WINDOW_SCALE as usize);
        let mut window = crate::gui::open_window(title, &layout).map_err(|e| e.to_string())?;
        window.set_target_fps(0);
        let buf = vec![0; layout.width * layout.height];
        Ok(Glass {
            window,
            layout,
            buf,
            shown: None,
            at: std::time::Instant::now(),
        })
    }

    /// Shows `screen` and `status` (drawn only when they changed); false once the window
    /// was closed.
    fn show(&mut self, screen: ti82_machine::Screen, status: String) -> bool {
        if !self.window.is_open() {
            return false;
        }
        self.at = std::time::Instant::now();
        let now = (screen, status);
        if self.shown.as_ref() == Some(&now) {
            self.window.update();
            return true;
        }
        crate::skin::draw(
            &mut self.buf,
            &self.layout,
            &now.0,
            &crate::skin::Overlay {
                status: &now.1,
                down: &[],
                help: None,
            },
        );
        self.shown = Some(now);
        self.window
            .update_with_buffer(&self.buf, self.layout.width, self.layout.height)
            .is_ok()
    }
}

/// One calculator of the session: a thread to the client. A pair session has two, joined by
/// the wire-exact cable.
struct Side {
    calc: Calc,
    /// Its key script.
    player: Player,
    /// Its end of the cable (pair sessions).
    end: Option<CableEnd>,
    /// Held where it stands by the session (all-stop: the other calculator stopped, or a
    /// pause), without a stop of its firmware's debugger.
    held: bool,
    /// Its window, when not headless.
    glass: Option<Glass>,
    /// Its program has ended (reported once).
    exited: bool,
    /// Its debugger's stop has been reported to the client.
    stop_reported: bool,
}

impl Side {
    fn new(calc: Calc) -> Side {
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
    fn debug_stopped(&self) -> bool {
        self.calc.firmware().debug_stopped()
    }
}

/// Emulated time against wall time at a launch's `speed` (turbo: no pacing).
struct Pace {
    /// T-states per wall second.
    rate: f64,
    /// Where the pacing started: the wall instant and the emulated time then.
    from: Option<(std::time::Instant, u64)>,
}

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
                            "output": format!("{title}: the window is open\n")}),
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

    fn stack_trace(&mut self) -> Result<Json, String> {
        let (fw, _) = self.firmware()?;
        let frames = fw.call_stack();
        let first = self.cur as i64 * FRAMES_PER_THREAD + 1;
        let mut out = Vec::new();
        for (i, (program, offset)) in frames.iter().take(FRAMES_PER_THREAD as usize).enumerate() {
            let name = detokenize(program, Spelling::Ascii);
            let mut f = json!({"id": first + i as i64, "name": format!("prgm{name}"),
                "line": 0, "column": 0});
            if let Some(s) = self.source_of(program) {
                let (line, col) = s.position(*offset);
                f["line"] = json!(line);
                f["column"] = json!(col);
                f["source"] = s.dap();
            }
            out.push(f);
        }
        let total = out.len();
        Ok(json!({"stackFrames": out, "totalFrames": total}))
    }

    fn scopes(&mut self) -> Result<Json, String> {
        // The references stay valid until the calculators run again; a calculator's scopes
        // are handed out once per stop.
        let first = match self
            .refs
            .iter()
            .position(|(s, r)| *s == self.cur && matches!(r, VarRef::Reals))
        {
            Some(i) => i as i64 + 1,
            None => {
                let first = self.refs.len() as i64 + 1;
                for r in [
                    VarRef::Reals,
                    VarRef::Lists,
                    VarRef::Matrices,
                    VarRef::Equations,
                    VarRef::Tokens(0x63),
                    VarRef::Tokens(0x62),
                ] {
                    self.new_ref(r);
                }
                first
            }
        };
        let names = [
            "Reals",
            "Lists",
            "Matrices",
            "Y-variables",
            "Window",
            "Statistics",
        ];
        let scopes: Vec<Json> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                json!({"name": n, "variablesReference": first + i as i64,
                "expensive": false})
            })
            .collect();
        Ok(json!({ "scopes": scopes }))
    }

    fn new_ref(&mut self, r: VarRef) -> i64 {
        self.refs.push((self.cur, r));
        self.refs.len() as i64
    }

    fn variables(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let which = self
            .refs
            .get(r.saturating_sub(1).max(0) as usize)
            .map(|(_, r)| r.clone())
            .ok_or("no such variables reference")?;
        let mut vars = Vec::new();
        match which {
            VarRef::Reals => {
                let mut names: Vec<String> = ('A'..='Z').map(|c| c.to_string()).collect();
                names.push("θ".into());
                names.push("Ans".into());
                let (fw, hw) = self.firmware()?;
                for n in names {
                    if let Ok(v) = fw.evaluate(hw, &n) {
                        vars.push(json!({"name": n, "value": fw.show_value(&v),
                            "evaluateName": n, "variablesReference": 0}));
                    }
                }
            }
            VarRef::Lists => {
                for k in 1..=6u8 {
                    let name = format!("L{k}");
                    let shown = {
                        let (fw, hw) = self.firmware()?;
                        fw.evaluate(hw, &name).ok().map(|v| (fw.show_value(&v), v))
                    };
                    if let Some((shown, v)) = shown {
                        let n = match &v {
                            Value::List(l) => l.len(),
                            _ => 0,
                        };
                        let child = self.new_ref(VarRef::List(k));
                        vars.push(json!({"name": name, "value": shown, "evaluateName": name,
                            "variablesReference": child, "indexedVariables": n}));
                    }
                }
            }
            VarRef::Matrices => {
                for k in 0..5u8 {
                    let name = format!("[{}]", (b'A' + k) as char);
                    let shown = {
                        let (fw, hw) = self.firmware()?;
                        fw.evaluate(hw, &name).ok().map(|v| fw.show_value(&v))
                    };
                    if let Some(shown) = shown {
                        let child = self.new_ref(VarRef::Matrix(k));
                        vars.push(json!({"name": name, "value": shown, "evaluateName": name,
                            "variablesReference": child}));
                    }
                }
            }
            VarRef::Equations => {
                let calc = &self.sides.get(self.cur).ok_or("nothing is launched")?.calc;
                for i in 0..10u8 {
                    // Y₁…Y₉ then Y₀: second bytes 10h-19h.
                    if let Some((tokens, on)) = tibasic::os::equation_in(calc.ram(), 0x10 + i) {
                        let n = if i == 9 { 0 } else { i + 1 };
                        vars.push(json!({"name": format!("Y{n}"),
                            "value": format!("{}{}", detokenize(&tokens, Spelling::Ascii),
                                if on { "" } else { "  (off)" }),
                            "variablesReference": 0}));
                    }
                }
            }
            VarRef::Tokens(prefix) => {
                let names: Vec<(&str, &str)> = tifiles::tokens::table()
                    .tokens()
                    .iter()
                    .filter(|t| t.bytes().len() == 2 && t.bytes()[0] == prefix)
                    .filter(|t| !t.ascii.contains("RegEQ"))
                    .map(|t| (t.ascii, t.display))
                    .collect();
                let (fw, hw) = self.firmware()?;
                for (ascii, display) in names {
                    if let Ok(v @ Value::Real(_)) = fw.evaluate(hw, ascii) {
                        vars.push(json!({"name": display, "value": fw.show_value(&v),
                            "evaluateName": ascii, "variablesReference": 0}));
                    }
                }
            }
            VarRef::List(k) => {
                let (fw, hw) = self.firmware()?;
                if let Ok(Value::List(l)) = fw.evaluate(hw, &format!("L{k}")) {
                    for (i, x) in l.iter().enumerate() {
                        let name = format!("L{k}({})", i + 1);
                        vars.push(json!({"name": format!("{}", i + 1),
                            "value": fw.show_value(&Value::Real(*x)),
                            "evaluateName": name, "variablesReference": 0}));
                    }
                }
            }
            VarRef::Matrix(k) => {
                let (fw, hw) = self.firmware()?;
                let m = format!("[{}]", (b'A' + k) as char);
                if let Ok(Value::Matrix(mx)) = fw.evaluate(hw, &m) {
                    for (i, row) in mx.data.chunks(mx.cols.max(1)).enumerate() {
                        let shown: Vec<String> = row
                            .iter()
                            .map(|x| fw.show_value(&Value::Real(*x)))
                            .collect();
                        vars.push(json!({"name": format!("row {}", i + 1),
                            "value": format!("[{}]", shown.join(" ")), "variablesReference": 0}));
                    }
                }
            }
        }
        Ok(json!({ "variables": vars }))
    }

    fn evaluate(&mut self, args: &Json) -> Result<Json, String> {
        let expr = args["expression"]
            .as_str()
            .ok_or("evaluate needs an expression")?;
        let (fw, hw) = self.firmware()?;
        let v = fw.evaluate(hw, expr)?;
        Ok(json!({"result": fw.show_value(&v), "variablesReference": 0}))
    }

    fn set_variable(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["variablesReference"].as_i64().unwrap_or(0);
        let name = args["name"].as_str().ok_or("setVariable needs a name")?;
        let value = args["value"].as_str().ok_or("setVariable needs a value")?;
        let target = match self.refs.get(r.saturating_sub(1).max(0) as usize) {
            Some((_, VarRef::List(k))) => format!("L{k}({name})"),
            _ => name.to_string(),
        };
        let (fw, hw) = self.firmware()?;
        let v = fw.store_variable(hw, &target, value)?;
        Ok(json!({"value": fw.show_value(&v)}))
    }

    fn source(&mut self, args: &Json) -> Result<Json, String> {
        let r = args["sourceReference"]
            .as_i64()
            .or_else(|| args["source"]["sourceReference"].as_i64())
            .ok_or("source needs a sourceReference")?;
        let s = self
            .sources
            .iter()
            .find(|s| s.reference == r)
            .ok_or("no such source")?;
        Ok(json!({"content": detokenize(&s.tokens, Spelling::Ascii)}))
    }

    /// Goes on from a stop: the calculator asked about in `mode`, every other one running
    /// (all-stop, as gdb by default: stepping one calculator lets the other run, so it waits
    /// on the cable as it would on a real one). A calculator whose own stop was never
    /// reported stays stopped and is reported next.
    fn resume(&mut self, mode: StepMode, all: bool) -> Result<Json, String> {
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
    fn pause(&mut self) -> Result<Json, String> {
        if self.sides.is_empty() {
            return Err("nothing is launched".into());
        }
        for side in &mut self.sides {
            side.held = true;
        }
        Ok(json!({}))
    }

    /// Reports calculator `i`'s stop (once), holding the others where they stand.
    fn report_stop(&mut self, i: usize, reason: StopReason) {
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

    fn z80_resume(&mut self, mode: Result<Z80Step, String>, all: bool) -> Result<Json, String> {
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
    fn run_slice(&mut self) -> Result<(), String> {
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
    fn pace_wait(&mut self) -> Option<std::time::Duration> {
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
    fn status_text(&mut self) -> String {
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
    fn refresh_glass(&mut self) {
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
    fn stopped(&mut self) -> bool {
        if let Ok(d) = self.z80_debug() {
            return d.stopped.is_some();
        }
        self.sides.iter().any(|s| s.held || s.debug_stopped())
    }

    fn has_glass(&self) -> bool {
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
