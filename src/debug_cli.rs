//! `ti82 debug PROGRAM`: the debugger in a terminal, with gdb-like commands read from
//! standard input (so it also runs from scripts). It is a client of the same adapter as
//! `ti82 dap` ([`crate::dap`]), run in this process: one debugger, two front ends.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use crossbeam_channel::{unbounded, Receiver, Sender};
use serde_json::{json, Value as Json};

/// How long a command waits for the adapter (a program that never stops is paused after it).
const WAIT: Duration = Duration::from_secs(30);

/// Bytes from a channel, as the adapter's standard input.
struct ChanReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for ChanReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The adapter's standard output, as whole messages on a channel.
struct ChanWriter {
    tx: Sender<Json>,
    buf: Vec<u8>,
}

impl Write for ChanWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        while let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&self.buf[..end]).to_string();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if self.buf.len() < end + 4 + len {
                break;
            }
            let body: Vec<u8> = self.buf[end + 4..end + 4 + len].to_vec();
            self.buf.drain(..end + 4 + len);
            if let Ok(v) = serde_json::from_slice(&body) {
                let _ = self.tx.send(v);
            }
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Client<'a> {
    tx: Sender<Vec<u8>>,
    rx: Receiver<Json>,
    seq: i64,
    out: &'a mut dyn Write,
    z80: bool,
    main: Option<PathBuf>,
    /// Breakpoint lines per source file, and instruction breakpoints.
    lines: Vec<(PathBuf, Vec<i64>)>,
    addrs: Vec<String>,
    watches: Vec<String>,
    ended: bool,
}

impl Client<'_> {
    fn send(&mut self, command: &str, arguments: Json) -> i64 {
        self.seq += 1;
        let body = json!({"seq": self.seq, "type": "request", "command": command,
            "arguments": arguments})
        .to_string();
        let _ = self
            .tx
            .send(format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes());
        self.seq
    }

    /// Handles an event: prints output, notes the end; returns a stop's reason.
    fn event(&mut self, m: &Json) -> Result<Option<Json>> {
        match m["event"].as_str() {
            Some("output") => {
                write!(self.out, "{}", m["body"]["output"].as_str().unwrap_or(""))?;
            }
            Some("terminated") => {
                if !self.ended {
                    writeln!(self.out, "program ended")?;
                }
                self.ended = true;
            }
            Some("stopped") => return Ok(Some(m["body"].clone())),
            _ => {}
        }
        Ok(None)
    }

    fn request(&mut self, command: &str, arguments: Json) -> Result<Json> {
        let seq = self.send(command, arguments);
        loop {
            let m = self
                .rx
                .recv_timeout(WAIT)
                .context("the debugger did not answer")?;
            if m["type"] == "response" && m["request_seq"] == seq {
                if m["success"] != true {
                    bail!("{}", m["message"].as_str().unwrap_or("failed"));
                }
                return Ok(m["body"].clone());
            }
            self.event(&m)?;
        }
    }

    /// Waits for a stop (printing where) or the end.
    fn wait_stop(&mut self) -> Result<()> {
        while !self.ended {
            let m = match self.rx.recv_timeout(WAIT) {
                Ok(m) => m,
                Err(_) => {
                    writeln!(
                        self.out,
                        "still running after {} s: pausing",
                        WAIT.as_secs()
                    )?;
                    self.request("pause", json!({"threadId": 1}))?;
                    continue;
                }
            };
            if let Some(stop) = self.event(&m)? {
                let st = self.request("stackTrace", json!({"threadId": 1}))?;
                let f = &st["stackFrames"][0];
                let mut why = stop["reason"].as_str().unwrap_or("").to_string();
                if let Some(d) = stop["description"].as_str() {
                    why = format!("{why}: {d}");
                }
                let place = if self.z80 {
                    f["name"].as_str().unwrap_or("").to_string()
                } else {
                    format!(
                        "{}:{}",
                        f["name"].as_str().unwrap_or("").trim_start_matches("prgm"),
                        f["line"]
                    )
                };
                writeln!(self.out, "stopped ({why}) at {place}")?;
                return Ok(());
            }
        }
        Ok(())
    }

    fn set_breakpoints(&mut self) -> Result<()> {
        if self.z80 {
            let bps: Vec<Json> = self
                .addrs
                .iter()
                .map(|a| json!({"instructionReference": a}))
                .collect();
            self.request("setInstructionBreakpoints", json!({"breakpoints": bps}))?;
        } else {
            for (path, lines) in self.lines.clone() {
                let bps: Vec<Json> = lines.iter().map(|l| json!({"line": l})).collect();
                let r = self.request(
                    "setBreakpoints",
                    json!({"source": {"path": path}, "breakpoints": bps}),
                )?;
                for b in r["breakpoints"].as_array().cloned().unwrap_or_default() {
                    if let Some(msg) = b["message"].as_str() {
                        writeln!(self.out, "breakpoint: {msg}")?;
                    }
                }
            }
        }
        let ids: Vec<Json> = self.watches.iter().map(|w| json!({"dataId": w})).collect();
        self.request("setDataBreakpoints", json!({"breakpoints": ids}))?;
        Ok(())
    }

    fn command(&mut self, line: &str, started: &mut bool) -> Result<bool> {
        let (cmd, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        let rest = rest.trim();
        let go = |c: &mut Self, what: &str, started: &mut bool| -> Result<()> {
            if !*started {
                c.request("configurationDone", json!({}))?;
                *started = true;
            } else {
                c.request(what, json!({"threadId": 1}))?;
            }
            c.wait_stop()
        };
        match cmd {
            "" => {}
            "break" | "b" => {
                if self.z80 {
                    self.addrs.push(rest.to_string());
                } else {
                    let (file, line) = match rest.rsplit_once(':') {
                        Some((f, l)) => (PathBuf::from(f), l),
                        None => (self.main.clone().unwrap_or_default(), rest),
                    };
                    let n: i64 = line.parse().context("break LINE, or break FILE:LINE")?;
                    match self.lines.iter_mut().find(|(p, _)| *p == file) {
                        Some((_, v)) => v.push(n),
                        None => self.lines.push((file, vec![n])),
                    }
                }
                self.set_breakpoints()?;
            }
            "delete" => {
                self.lines.iter_mut().for_each(|(_, v)| v.clear());
                self.addrs.clear();
                self.watches.clear();
                self.set_breakpoints()?;
            }
            "watch" => {
                self.watches.push(rest.to_string());
                self.set_breakpoints()?;
            }
            "run" | "r" | "continue" | "c" => go(self, "continue", started)?,
            "step" | "s" | "stepi" | "si" => go(self, "stepIn", started)?,
            "next" | "n" | "nexti" | "ni" => go(self, "next", started)?,
            "finish" => go(self, "stepOut", started)?,
            "print" | "p" => {
                let r = self.request("evaluate", json!({"expression": rest, "frameId": 1}))?;
                writeln!(self.out, "{}", r["result"].as_str().unwrap_or(""))?;
            }
            "bt" | "where" | "backtrace" => {
                let st = self.request("stackTrace", json!({"threadId": 1}))?;
                for (i, f) in st["stackFrames"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    writeln!(self.out, "#{i} {} line {}", f["name"].as_str().unwrap_or(""), f["line"])?;
                }
            }
            "info" => {
                let scopes = self.request("scopes", json!({"frameId": 1}))?;
                for s in scopes["scopes"].as_array().cloned().unwrap_or_default() {
                    let vars = self.request(
                        "variables",
                        json!({"variablesReference": s["variablesReference"]}),
                    )?;
                    for v in vars["variables"].as_array().cloned().unwrap_or_default() {
                        writeln!(
                            self.out,
                            "{} = {}",
                            v["name"].as_str().unwrap_or(""),
                            v["value"].as_str().unwrap_or("")
                        )?;
                    }
                }
            }
            "x" => {
                let mut it = rest.split_whitespace();
                let addr = it.next().unwrap_or("0");
                let n: u64 = it.next().and_then(|n| n.parse().ok()).unwrap_or(16);
                let r = self.request(
                    "readMemory",
                    json!({"memoryReference": addr, "count": n}),
                )?;
                let bytes = crate::dap::unbase64(r["data"].as_str().unwrap_or(""))
                    .map_err(anyhow::Error::msg)?;
                let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
                writeln!(self.out, "{}: {}", r["address"].as_str().unwrap_or(""), hex.join(" "))?;
            }
            "disas" => {
                let mut it = rest.split_whitespace();
                let addr = match it.next() {
                    Some(a) => a.to_string(),
                    None => {
                        let st = self.request("stackTrace", json!({"threadId": 1}))?;
                        st["stackFrames"][0]["instructionPointerReference"]
                            .as_str()
                            .unwrap_or("0x0000")
                            .to_string()
                    }
                };
                let n: u64 = it.next().and_then(|n| n.parse().ok()).unwrap_or(8);
                let r = self.request(
                    "disassemble",
                    json!({"memoryReference": addr, "instructionCount": n}),
                )?;
                for i in r["instructions"].as_array().cloned().unwrap_or_default() {
                    writeln!(
                        self.out,
                        "{}  {:<12} {}",
                        i["address"].as_str().unwrap_or(""),
                        i["instructionBytes"].as_str().unwrap_or(""),
                        i["instruction"].as_str().unwrap_or("")
                    )?;
                }
            }
            "quit" | "q" => return Ok(false),
            other => writeln!(
                self.out,
                "unknown command {other:?}: break, delete, watch, run, continue, step, next, finish, print, bt, info, x, disas, quit"
            )?,
        }
        Ok(true)
    }
}

/// Runs the debugger on `program` (a TI-BASIC source or file; `rom`: a Z80 image instead),
/// reading commands from `input`, writing to `out`.
pub fn run(
    program: Option<PathBuf>,
    load: &[PathBuf],
    rom: Option<PathBuf>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let (to_adapter, adapter_in) = unbounded::<Vec<u8>>();
    let (adapter_out, from_adapter) = unbounded::<Json>();
    let adapter = std::thread::spawn(move || {
        crate::dap::run(
            ChanReader {
                rx: adapter_in,
                buf: Vec::new(),
                at: 0,
            },
            ChanWriter {
                tx: adapter_out,
                buf: Vec::new(),
            },
        )
    });
    let mut c = Client {
        tx: to_adapter,
        rx: from_adapter,
        seq: 0,
        out,
        z80: rom.is_some(),
        main: program.clone(),
        lines: Vec::new(),
        addrs: Vec::new(),
        watches: Vec::new(),
        ended: false,
    };
    c.request("initialize", json!({"adapterID": "ti82-debug"}))?;
    let mut args = json!({"stopOnEntry": false, "load": load});
    match (&program, &rom) {
        (_, Some(r)) => args["rom"] = json!(r),
        (Some(p), None) => args["program"] = json!(p),
        (None, None) => bail!("ti82 debug: name a PROGRAM, or --rom FILE"),
    }
    c.request("launch", args)?;
    c.request("setExceptionBreakpoints", json!({"filters": ["error"]}))?;
    let mut started = false;
    let mut line = String::new();
    loop {
        if c.ended {
            break;
        }
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        writeln!(c.out, "(ti82) {}", line.trim_end())?;
        match c.command(&line, &mut started) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => writeln!(c.out, "error: {e:#}")?,
        }
    }
    let _ = c.send("disconnect", json!({}));
    drop(c);
    let _ = adapter.join();
    Ok(())
}
