//! `ti82 dap` spoken to as an editor does: JSON messages with `Content-Length` headers over
//! a child process's standard input and output (docs/debugger.md). Expectations come from the
//! Debug Adapter Protocol's specification (the requests, events and their fields) and from
//! the TI-82 Guidebook for what the calculator shows (values as on the home screen, the error
//! screen's `ERR:` text). Every wait is bounded.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use ti82::dap::base64;

const WAIT: Duration = Duration::from_secs(20);

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    seq: i64,
    /// Events seen while waiting for something else.
    events: Vec<Value>,
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut len = 0usize;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let t = line.trim();
        if t.is_empty() {
            break;
        }
        if let Some(v) = t.strip_prefix("Content-Length:") {
            len = v.trim().parse().ok()?;
        }
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ti82"))
            .arg("dap")
            .env("TI82_HOME", temp_dir("home"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_frame(&mut r) {
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            seq: 0,
            events: Vec::new(),
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, command: &str, arguments: Value) -> i64 {
        self.seq += 1;
        let body = json!({"seq": self.seq, "type": "request", "command": command,
            "arguments": arguments})
        .to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        self.seq
    }

    fn next(&mut self) -> Value {
        self.rx
            .recv_timeout(WAIT)
            .expect("the adapter said nothing in time")
    }

    /// Sends a request and returns its response (events on the way are kept).
    fn request(&mut self, command: &str, arguments: Value) -> Value {
        let seq = self.send(command, arguments);
        loop {
            let m = self.next();
            if m["type"] == "response" && m["request_seq"] == seq {
                return m;
            }
            self.events.push(m);
        }
    }

    fn ok(&mut self, command: &str, arguments: Value) -> Value {
        let r = self.request(command, arguments);
        assert_eq!(r["success"], true, "{command}: {r}");
        r["body"].clone()
    }

    /// The next event named `name` (earlier ones kept aside are looked at first).
    fn event(&mut self, name: &str) -> Value {
        if let Some(i) = self.events.iter().position(|e| e["event"] == name) {
            return self.events.remove(i);
        }
        let end = Instant::now() + WAIT;
        while Instant::now() < end {
            let m = self.next();
            if m["event"] == name {
                return m;
            }
            self.events.push(m);
        }
        panic!("no {name} event; saw {:?}", self.events);
    }

    /// Waits for a stop and returns (reason, top frame's line, top frame's name, depth).
    fn stopped(&mut self) -> (String, i64, String, usize) {
        let e = self.event("stopped");
        let reason = e["body"]["reason"].as_str().unwrap().to_string();
        let st = self.ok("stackTrace", json!({"threadId": 1}));
        let frames = st["stackFrames"].as_array().unwrap().clone();
        let top = &frames[0];
        (
            reason,
            top["line"].as_i64().unwrap(),
            top["name"].as_str().unwrap().to_string(),
            frames.len(),
        )
    }

    fn eval(&mut self, expr: &str) -> String {
        let b = self.ok("evaluate", json!({"expression": expr, "frameId": 1}));
        b["result"].as_str().unwrap().to_string()
    }

    /// initialize, launch, the breakpoints, configurationDone.
    fn launch(&mut self, args: Value, breakpoints: &[(&Path, Value)]) -> Vec<Value> {
        let caps = self.ok(
            "initialize",
            json!({"adapterID": "ti82", "linesStartAt1": true}),
        );
        assert_eq!(caps["supportsConditionalBreakpoints"], true);
        self.ok("launch", args);
        self.event("initialized");
        let mut answers = Vec::new();
        for (path, bps) in breakpoints {
            let b = self.ok(
                "setBreakpoints",
                json!({"source": {"path": path.display().to_string()}, "breakpoints": bps}),
            );
            answers.extend(b["breakpoints"].as_array().unwrap().clone());
        }
        self.ok("setExceptionBreakpoints", json!({"filters": ["error"]}));
        self.ok("configurationDone", json!({}));
        answers
    }

    fn finish(mut self) {
        let _ = self.request("disconnect", json!({}));
        let end = Instant::now() + WAIT;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("the adapter did not end after disconnect");
    }
}

fn temp_dir(what: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ti82-dap-{what}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes program sources; returns their paths.
fn programs(what: &str, files: &[(&str, &str)]) -> Vec<PathBuf> {
    let d = temp_dir(what);
    files
        .iter()
        .map(|(name, text)| {
            let p = d.join(format!("{name}.txt"));
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect()
}

const MAIN: &str = "\
0->S
For(I,1,3)
I^2->A

prgmSUB
S+B->S
End
{1,2,3}->L1
Disp S
";

const SUB: &str = "\
A+1->B
2B->C
";

/// A breakpoint is verified on its line, one on a blank line moves to the next statement,
/// and it is hit there; `next`, `stepIn` into a `prgm` call (two frames) and `stepOut` back.
#[test]
fn breakpoints_and_stepping_across_a_prgm_call() {
    let p = programs("step", &[("MAIN", MAIN), ("SUB", SUB)]);
    let mut c = Client::start();
    let answers = c.launch(
        json!({"program": p[0], "load": [p[1]], "headless": true}),
        &[(&p[0], json!([{"line": 3}, {"line": 4}]))],
    );
    assert_eq!(answers[0]["verified"], true);
    assert_eq!(answers[0]["line"], 3);
    // Line 4 is blank: the breakpoint moves to line 5 and says so.
    assert_eq!(answers[1]["verified"], true);
    assert_eq!(answers[1]["line"], 5);
    assert!(answers[1]["message"].as_str().unwrap().contains("moved"));
    let (why, line, name, depth) = c.stopped();
    assert_eq!(
        (why.as_str(), line, name.as_str(), depth),
        ("breakpoint", 3, "prgmMAIN", 1)
    );
    assert_eq!(c.eval("I"), "1");
    // next: line 3 runs, stops at the (moved) breakpoint's line 5 as a step.
    c.ok("next", json!({"threadId": 1}));
    let (_, line, _, _) = c.stopped();
    assert_eq!(line, 5);
    assert_eq!(c.eval("A"), "1");
    // stepIn: into SUB, two frames, its line 1.
    c.ok("stepIn", json!({"threadId": 1}));
    let (why, line, name, depth) = c.stopped();
    assert_eq!(
        (why.as_str(), line, name.as_str(), depth),
        ("step", 1, "prgmSUB", 2)
    );
    let st = c.ok("stackTrace", json!({"threadId": 1}));
    assert_eq!(st["stackFrames"][1]["name"], "prgmMAIN");
    assert_eq!(st["stackFrames"][1]["line"], 5);
    // stepOut: back in MAIN after the call (line 6).
    c.ok("stepOut", json!({"threadId": 1}));
    let (_, line, name, depth) = c.stopped();
    assert_eq!((line, name.as_str(), depth), (6, "prgmMAIN", 1));
    assert_eq!(c.eval("C"), "4", "SUB ran whole: C = 2(A+1)");
    // continue: the next iteration's breakpoint on line 3.
    c.ok("continue", json!({"threadId": 1}));
    let (_, line, _, _) = c.stopped();
    assert_eq!(line, 3);
    assert_eq!(c.eval("I"), "2");
    c.finish();
}

/// Conditions in TI-BASIC, hit counts and logpoints; then the end of the program.
#[test]
fn conditions_hit_counts_logpoints_and_the_end() {
    let p = programs("cond", &[("MAIN", MAIN), ("SUB", SUB)]);
    let mut c = Client::start();
    c.launch(
        json!({"program": p[0], "load": [p[1]]}),
        &[
            (
                &p[0],
                json!([{"line": 3, "condition": "I=3"}, {"line": 6, "logMessage": "S is {S}, I is {I}"}]),
            ),
            (&p[1], json!([{"line": 2, "hitCondition": "2"}])),
        ],
    );
    // SUB line 2 stops on its second hit (I=2), before the I=3 condition holds.
    let (_, line, name, _) = c.stopped();
    assert_eq!((line, name.as_str()), (2, "prgmSUB"));
    assert_eq!(c.eval("I"), "2");
    c.ok("continue", json!({"threadId": 1}));
    let (_, line, name, _) = c.stopped();
    assert_eq!((line, name.as_str()), (3, "prgmMAIN"));
    assert_eq!(c.eval("I"), "3");
    c.ok("continue", json!({"threadId": 1}));
    // SUB line 2 again (third hit: "2" means from the second on).
    let (_, line, name, _) = c.stopped();
    assert_eq!((line, name.as_str()), (2, "prgmSUB"));
    c.ok(
        "setBreakpoints",
        json!({"source": {"path": p[1]}, "breakpoints": []}),
    );
    c.ok("continue", json!({"threadId": 1}));
    c.event("terminated");
    // The logpoint ran on each pass through line 6, with the values of the moment.
    let logs: Vec<String> = c
        .events
        .iter()
        .filter(|e| e["event"] == "output")
        .map(|e| e["body"]["output"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        logs,
        ["S is 0, I is 1\n", "S is 2, I is 2\n", "S is 7, I is 3\n"],
        "S before each S+B→S, with B = I²+1"
    );
    c.finish();
}

/// The shown value of variable `n` in a `variables` answer.
fn find(vars: &Value, n: &str) -> Option<String> {
    vars["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == n)
        .map(|v| v["value"].as_str().unwrap().to_string())
}

/// Variables of each kind as the calculator shows them, `evaluate` without side effects,
/// `setVariable` on a real and on a list element.
#[test]
fn variables_evaluate_and_set_variable() {
    let prog = "\
1/3->A
~2.5->B
{1,2.5,~3}->L2
[[1,2][3,4]]->[A]
\"X^2+1\"->{Y1}
1-Var Stats L2
4->C
A->D
";
    let p = programs("vars", &[("VARS", prog)]);
    let mut c = Client::start();
    c.launch(json!({"program": p[0]}), &[(&p[0], json!([{"line": 8}]))]);
    let (why, line, _, _) = c.stopped();
    assert_eq!((why.as_str(), line), ("breakpoint", 8));
    let scopes = c.ok("scopes", json!({"frameId": 1}));
    let names: Vec<&str> = scopes["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Reals",
            "Lists",
            "Matrices",
            "Y-variables",
            "Window",
            "Statistics"
        ]
    );
    let reals = c.ok("variables", json!({"variablesReference": 1}));
    // Y₁'s text; the window as a fresh calculator has it (Guidebook ch. 3: ZStandard's
    // -10..10); the statistics of the 1-Var Stats the program ran on L₂ (n = 3).
    let ys = c.ok("variables", json!({"variablesReference": 4}));
    assert_eq!(find(&ys, "Y1").as_deref(), Some("X^2+1"));
    let win = c.ok("variables", json!({"variablesReference": 5}));
    assert_eq!(find(&win, "Xmin").as_deref(), Some("⁻10"));
    assert_eq!(find(&win, "Xmax").as_deref(), Some("10"));
    let stats = c.ok("variables", json!({"variablesReference": 6}));
    assert_eq!(find(&stats, "n").as_deref(), Some("3"));
    // As the home screen shows them (Guidebook ch. 1: 10 significant digits in Float mode,
    // no leading zero, negative numbers with the negation sign ⁻, not the minus).
    assert_eq!(find(&reals, "A").as_deref(), Some(".3333333333"));
    assert_eq!(find(&reals, "B").as_deref(), Some("⁻2.5"));
    assert_eq!(find(&reals, "C").as_deref(), Some("4"));
    let lists = c.ok("variables", json!({"variablesReference": 2}));
    let l2 = lists["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "L2")
        .unwrap()
        .clone();
    assert_eq!(l2["value"], "{1 2.5 ⁻3}");
    let elems = c.ok(
        "variables",
        json!({"variablesReference": l2["variablesReference"]}),
    );
    let shown: Vec<&str> = elems["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert_eq!(shown, ["1", "2.5", "⁻3"]);
    let mats = c.ok("variables", json!({"variablesReference": 3}));
    assert_eq!(find(&mats, "[A]").as_deref(), Some("[[1 2] [3 4]]"));
    // evaluate changes nothing: not Ans, not a variable, not the random generator.
    let ans = c.eval("Ans");
    let r1 = c.eval("rand");
    assert_eq!(c.eval("A*3"), "1");
    assert_eq!(c.eval("rand"), r1, "rand did not advance");
    assert_eq!(c.eval("Ans"), ans);
    let bad = c.request("evaluate", json!({"expression": "1/0"}));
    assert_eq!(bad["success"], false);
    assert!(bad["message"].as_str().unwrap().contains("ERR:DIVIDE BY 0"));
    // setVariable: a real, and an element of L2 through its own reference.
    let set = c.ok(
        "setVariable",
        json!({"variablesReference": 1, "name": "C", "value": "7*2"}),
    );
    assert_eq!(set["value"], "14");
    c.ok(
        "setVariable",
        json!({"variablesReference": l2["variablesReference"], "name": "2", "value": "9"}),
    );
    assert_eq!(c.eval("L2"), "{1 9 ⁻3}");
    c.ok("next", json!({"threadId": 1}));
    c.event("terminated");
    c.finish();
}

/// An error stops with the error screen's text; a data breakpoint on a list stops when it
/// changes.
#[test]
fn error_stop_and_data_breakpoint() {
    let prog = "\
{1,2}->L1
5->A
A+1->L1(2)
A/0->B
";
    let p = programs("err", &[("ERRS", prog)]);
    let mut c = Client::start();
    c.launch(json!({"program": p[0], "stopOnEntry": true}), &[]);
    let (why, line, _, _) = c.stopped();
    assert_eq!((why.as_str(), line), ("entry", 1));
    // Watch L1 from here: the first statement defines it.
    c.ok(
        "setDataBreakpoints",
        json!({"breakpoints": [{"dataId": "L1"}]}),
    );
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "data breakpoint");
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "data breakpoint");
    assert_eq!(c.eval("L1"), "{1 6}");
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "exception");
    assert_eq!(e["body"]["description"], "ERR:DIVIDE BY 0");
    let st = c.ok("stackTrace", json!({"threadId": 1}));
    assert_eq!(st["stackFrames"][0]["line"], 4);
    c.finish();
}

/// Pause stops an endless loop where it is; continue goes on.
#[test]
fn pause_stops_an_endless_loop() {
    let prog = "\
0->I
While 1
I+1->I
End
";
    let p = programs("loop", &[("LOOP", prog)]);
    let mut c = Client::start();
    c.launch(json!({"program": p[0]}), &[]);
    std::thread::sleep(Duration::from_millis(300));
    c.ok("pause", json!({"threadId": 1}));
    let (why, line, _, _) = c.stopped();
    assert_eq!(why, "pause");
    assert!((2..=4).contains(&line), "{line}");
    let i: f64 = c.eval("I").parse().unwrap();
    assert!(i > 0.0);
    c.ok("continue", json!({"threadId": 1}));
    std::thread::sleep(Duration::from_millis(200));
    c.ok("pause", json!({"threadId": 1}));
    c.stopped();
    let j: f64 = c.eval("I").parse().unwrap();
    assert!(j > i, "it ran on: {i} then {j}");
    c.finish();
}

/// Bad input from the client: a malformed message gets an error response, an unknown
/// command is refused, a launch of a missing file says which, and a `Content-Length` over
/// the bound ends the session cleanly.
#[test]
fn malformed_messages_are_answered_and_oversized_ones_end_the_session() {
    let mut c = Client::start();
    c.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let m = c.next();
    assert_eq!(m["type"], "response");
    assert_eq!(m["success"], false);
    assert!(m["message"].as_str().unwrap().contains("malformed JSON"));
    let r = c.request("frobnicate", json!({}));
    assert_eq!(r["success"], false);
    c.ok("initialize", json!({"adapterID": "ti82"}));
    let r = c.request("launch", json!({"program": "/nonexistent/NOPE.txt"}));
    assert_eq!(r["success"], false);
    assert!(r["message"].as_str().unwrap().contains("NOPE.txt"), "{r}");
    let r = c.request("launch", json!({"program": "/dev/zero"}));
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("not a regular file"),
        "{r}"
    );
    c.send_raw(b"Content-Length: 99999999999\r\n\r\n");
    let t = c.event("terminated");
    assert_eq!(t["event"], "terminated");
    let end = Instant::now() + WAIT;
    while c.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A client that goes away (closes the adapter's input) ends the session.
#[test]
fn a_client_that_goes_away_ends_the_session() {
    let p = programs("gone", &[("LOOP", "While 1\nEnd\n")]);
    let mut c = Client::start();
    c.launch(json!({"program": p[0]}), &[]);
    drop(c.stdin);
    let end = Instant::now() + WAIT;
    while c.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "still running after its client left");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The `keys` launch argument plays a key script after the program starts: ENTER ends a
/// `Pause`, and the program runs to its end.
#[test]
fn keys_answer_a_pause() {
    let p = programs("keys", &[("WAITS", "1->A\nPause\n5->A\n")]);
    let mut c = Client::start();
    c.launch(
        json!({"program": p[0], "keys": "WAIT 500 ENTER"}),
        &[(&p[0], json!([{"line": 3}]))],
    );
    let (why, line, _, _) = c.stopped();
    assert_eq!((why.as_str(), line), ("breakpoint", 3));
    assert_eq!(c.eval("A"), "1");
    c.ok("continue", json!({"threadId": 1}));
    c.event("terminated");
    assert_eq!(c.eval("A"), "5");
    c.finish();
}

// ------------------------------------------------------------------ the Z80 level

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/roms/dapdemo.bin");

fn pc_of(c: &mut Client) -> String {
    let st = c.ok("stackTrace", json!({"threadId": 1}));
    st["stackFrames"][0]["instructionPointerReference"]
        .as_str()
        .unwrap()
        .to_string()
}

fn register(c: &mut Client, name: &str) -> String {
    let regs = c.ok("variables", json!({"variablesReference": 1}));
    regs["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .map(|v| v["value"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no register {name}: {regs}"))
}

fn read_bytes(c: &mut Client, addr: &str, n: u64) -> String {
    let m = c.ok(
        "readMemory",
        json!({"memoryReference": addr, "offset": 0, "count": n}),
    );
    m["data"].as_str().unwrap().to_string()
}

/// Our test program `tests/roms/dapdemo.asm` at the Z80 level: entry, an instruction
/// breakpoint, registers, step out to the return address, a single step, memory read and
/// written, step over a `CALL`, data breakpoints on a memory byte and on a port, the
/// disassembly around an address, pause of the idle loop. Addresses from the source's
/// listing; values from the program's own arithmetic (B = 3, 2, 1; A = 2B).
#[test]
fn z80_breakpoints_steps_registers_memory_and_disassembly() {
    let mut c = Client::start();
    let caps = c.ok("initialize", json!({"adapterID": "ti82"}));
    assert_eq!(caps["supportsInstructionBreakpoints"], true);
    assert_eq!(caps["supportsDisassembleRequest"], true);
    c.ok("launch", json!({"rom": DEMO, "stopOnEntry": true}));
    c.event("initialized");
    let b = c.ok(
        "setInstructionBreakpoints",
        json!({"breakpoints": [{"instructionReference": "0x0016"}]}),
    );
    assert_eq!(b["breakpoints"][0]["verified"], true);
    c.ok("configurationDone", json!({}));
    assert_eq!(c.event("stopped")["body"]["reason"], "entry");
    assert_eq!(pc_of(&mut c), "0x0000");
    // The breakpoint in `double`, called with B = 3; the CALL pushed the return address.
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "instruction breakpoint");
    assert_eq!(pc_of(&mut c), "0x0016");
    assert_eq!(register(&mut c, "SP"), "0xFFEE");
    assert!(register(&mut c, "BC").starts_with("0x03"));
    assert_eq!(read_bytes(&mut c, "0xFFEE", 2), base64(&[0x0C, 0x00]));
    // Flags expand under AF.
    let flags = c.ok("variables", json!({"variablesReference": 4}));
    assert_eq!(flags["variables"].as_array().unwrap().len(), 8);
    // Step out: back at the instruction after the CALL, A = 2B = 6, SP restored.
    c.ok("stepOut", json!({"threadId": 1}));
    assert_eq!(c.event("stopped")["body"]["reason"], "step");
    assert_eq!(pc_of(&mut c), "0x000C");
    assert_eq!(register(&mut c, "SP"), "0xFFF0");
    assert_eq!(c.eval("A"), "0x0006");
    // One instruction: LD (HL),A stores it.
    c.ok("next", json!({"threadId": 1, "granularity": "instruction"}));
    c.event("stopped");
    assert_eq!(pc_of(&mut c), "0x000D");
    assert_eq!(read_bytes(&mut c, "0x9000", 1), base64(&[6]));
    assert_eq!(c.eval("(0x9000)"), "0x0006");
    // writeMemory on RAM.
    let w = c.ok(
        "writeMemory",
        json!({"memoryReference": "0x9005", "data": base64(&[0xAA, 0x55])}),
    );
    assert_eq!(w["bytesWritten"], 2);
    assert_eq!(read_bytes(&mut c, "0x9005", 2), base64(&[0xAA, 0x55]));
    // Step over the CALL of the second pass: it runs whole (A = 4), no stop inside.
    c.ok(
        "setInstructionBreakpoints",
        json!({"breakpoints": [{"instructionReference": "0x0009"}]}),
    );
    c.ok("continue", json!({"threadId": 1}));
    c.event("stopped");
    assert_eq!(pc_of(&mut c), "0x0009");
    c.ok("next", json!({"threadId": 1}));
    assert_eq!(c.event("stopped")["body"]["reason"], "step");
    assert_eq!(pc_of(&mut c), "0x000C");
    assert_eq!(c.eval("A"), "0x0004");
    // A data breakpoint on the third pass's byte, then on the keypad port.
    c.ok("setInstructionBreakpoints", json!({"breakpoints": []}));
    c.ok(
        "setDataBreakpoints",
        json!({"breakpoints": [{"dataId": "mem:0x9002"}, {"dataId": "port:0x01"}]}),
    );
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "data breakpoint");
    assert_eq!(e["body"]["description"], "0x9002 written: 0x02");
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["description"], "port 0x01 written: 0xFE");
    assert_eq!(pc_of(&mut c), "0x0014");
    // The disassembly around the loop, forwards and one instruction back.
    let d = c.ok(
        "disassemble",
        json!({"memoryReference": "0x0009", "instructionCount": 3}),
    );
    let text: Vec<String> = d["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["instruction"].as_str().unwrap().to_ascii_lowercase())
        .collect();
    assert!(text[0].starts_with("call"), "{text:?}");
    assert!(text[1].starts_with("ld (hl),a"), "{text:?}");
    assert!(text[2].starts_with("inc hl"), "{text:?}");
    assert_eq!(d["instructions"][0]["instructionBytes"], "CD 16 00");
    let d = c.ok(
        "disassemble",
        json!({"memoryReference": "0x000C", "instructionOffset": -1, "instructionCount": 1}),
    );
    assert_eq!(d["instructions"][0]["address"], "0x0009");
    // The idle loop: pause stops it where it is.
    c.ok("setDataBreakpoints", json!({"breakpoints": []}));
    c.ok("continue", json!({"threadId": 1}));
    std::thread::sleep(Duration::from_millis(200));
    c.ok("pause", json!({"threadId": 1}));
    assert_eq!(c.event("stopped")["body"]["reason"], "pause");
    assert_eq!(pc_of(&mut c), "0x0014");
    assert_eq!(c.eval("HL"), "0x9003");
    c.finish();
}

/// The editor extension registers the `ti82` debug type with the launch arguments the adapter
/// takes, and its grammar file is there and parses.
#[test]
fn the_vscode_extension_matches_the_adapter() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    let pkg: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    let dbg = &pkg["contributes"]["debuggers"][0];
    assert_eq!(dbg["type"], "ti82");
    let props = &dbg["configurationAttributes"]["launch"]["properties"];
    for arg in [
        "program",
        "load",
        "rom",
        "stopOnEntry",
        "keys",
        "headless",
        "speed",
        "pair",
        "before",
    ] {
        assert!(props.get(arg).is_some(), "launch argument {arg} missing");
    }
    let grammar = &pkg["contributes"]["grammars"][0]["path"];
    let g: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(grammar.as_str().unwrap())).unwrap(),
    )
    .unwrap();
    assert_eq!(g["scopeName"], "source.ti82basic");
    let js = std::fs::read_to_string(dir.join("extension.js")).unwrap();
    assert!(js.contains("DebugAdapterExecutable(path, [\"dap\"])"));
}

fn debug_session(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .arg("debug")
        .args(args)
        .env("TI82_HOME", temp_dir("cli-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `ti82 debug`: the same debugger with gdb-like commands from standard input.
#[test]
fn the_terminal_front_end_steps_and_prints() {
    let p = programs("cli", &[("MAIN", MAIN), ("SUB", SUB)]);
    let out = debug_session(
        &[p[0].to_str().unwrap(), "--load", p[1].to_str().unwrap()],
        "break 3\nbreak 4\nrun\nprint I\nnext\nstep\nbt\nfinish\nprint C\ndelete\ncontinue\n",
    );
    let want = [
        "breakpoint: line 4 has no statement: moved to line 5",
        "stopped (breakpoint) at MAIN:3",
        "(ti82) print I\n1\n",
        "stopped (step) at MAIN:5",
        "stopped (step) at SUB:1",
        "#0 prgmSUB line 1\n#1 prgmMAIN line 5",
        "stopped (step) at MAIN:6",
        "(ti82) print C\n4\n",
        "program ended",
    ];
    let mut at = 0;
    for w in want {
        let i = out[at..]
            .find(w)
            .unwrap_or_else(|| panic!("{w:?} not found in order in:\n{out}"));
        at += i + w.len();
    }
}

/// `ti82 debug --rom`: instruction breakpoints, memory and disassembly in a terminal.
#[test]
fn the_terminal_front_end_debugs_z80_code() {
    let out = debug_session(
        &["--rom", DEMO],
        "break 0x0016\nrun\nx 0xFFEE 2\ndisas 0x0009 2\nprint PC\nquit\n",
    );
    assert!(
        out.contains("stopped (instruction breakpoint: 0x0016) at 0x0016: "),
        "{out}"
    );
    assert!(out.contains("0xFFEE: 0C 00"), "{out}");
    assert!(out.contains("0x0009  CD 16 00"), "{out}");
    assert!(out.contains("(ti82) print PC\n0x0016\n"), "{out}");
}

/// Not headless: the calculator's window opens (where there is a display) and its status
/// line says where execution stopped, `stopped at PROGRAM:LINE`; without a display the
/// session says so and runs headless.
#[test]
fn the_window_shows_where_execution_stopped() {
    let p = programs("glass", &[("MAIN", MAIN), ("SUB", SUB)]);
    let mut c = Client::start();
    c.launch(
        json!({"program": p[0], "load": [p[1]], "headless": false}),
        &[(&p[1], json!([{"line": 2}]))],
    );
    let out = c.event("output");
    let text = out["body"]["output"].as_str().unwrap();
    if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
        assert_eq!(text, "the calculator's window is open\n");
    } else {
        assert!(text.starts_with("no window"), "{text}");
    }
    c.stopped();
    assert_eq!(c.ok("ti82/status", json!({}))["status"], "stopped at SUB:2");
    c.ok(
        "setBreakpoints",
        json!({"source": {"path": p[1]}, "breakpoints": []}),
    );
    c.ok("continue", json!({"threadId": 1}));
    c.event("terminated");
    assert_eq!(c.ok("ti82/status", json!({}))["status"], "program ended");
    c.finish();
}

/// Numbers at their limits from the client are answered, never a crash.
#[test]
fn numbers_at_their_limits_are_answered() {
    let mut c = Client::start();
    c.ok("initialize", json!({"adapterID": "ti82"}));
    c.ok("launch", json!({"rom": DEMO, "stopOnEntry": true}));
    c.event("initialized");
    c.ok("configurationDone", json!({}));
    c.event("stopped");
    for (cmd, args) in [
        (
            "readMemory",
            json!({"memoryReference": "0xFFFF", "offset": i64::MAX, "count": u64::MAX}),
        ),
        (
            "disassemble",
            json!({"memoryReference": "0x0000", "offset": i64::MIN, "instructionOffset": i64::MIN, "instructionCount": 3}),
        ),
        (
            "disassemble",
            json!({"memoryReference": "0x0000", "instructionOffset": i64::MAX, "instructionCount": u64::MAX}),
        ),
        (
            "writeMemory",
            json!({"memoryReference": "0x9000", "offset": i64::MIN, "data": "!!!"}),
        ),
        (
            "setInstructionBreakpoints",
            json!({"breakpoints": [{"instructionReference": "0x10", "offset": i64::MAX}]}),
        ),
        ("variables", json!({"variablesReference": i64::MIN})),
        ("evaluate", json!({"expression": "(0x1FFFF)"})),
    ] {
        let r = c.request(cmd, args);
        assert_eq!(r["type"], "response", "{cmd}: {r}");
    }
    c.finish();
}

/// A program from a TI file is shown through its detokenized text: the frame's source has a
/// `sourceReference`, and `source` serves the text, whose lines the frames count in.
#[test]
fn a_ti_file_is_shown_through_its_detokenized_text() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/MANBOARD.82p");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/programs/MANBOARD.txt"
    ))
    .unwrap();
    let mut c = Client::start();
    c.launch(json!({"program": file, "stopOnEntry": true}), &[]);
    let (why, line, name, _) = c.stopped();
    assert_eq!(
        (why.as_str(), line, name.as_str()),
        ("entry", 1, "prgmMANBOARD")
    );
    c.ok("next", json!({"threadId": 1}));
    let (_, line, _, _) = c.stopped();
    assert_eq!(line, 2);
    let st = c.ok("stackTrace", json!({"threadId": 1}));
    let reference = st["stackFrames"][0]["source"]["sourceReference"].clone();
    assert!(reference.as_i64().is_some_and(|r| r > 0), "{st}");
    let src = c.ok("source", json!({"sourceReference": reference}));
    // The same lines as the program's own source (the file was tokenized from it).
    let served: Vec<&str> = src["content"].as_str().unwrap().lines().collect();
    let ours: Vec<&str> = text.lines().collect();
    assert_eq!(served.len(), ours.len());
    assert_eq!(served[0], ours[0]);
    c.finish();
}

/// MANCALA as a user starts it: `programs/MANCALA.txt`, with MANBOARD run first.
fn mancala_launch(keys: Option<&str>, pair: Value) -> (Value, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    let mancala = root.join("MANCALA.txt");
    let mut args = json!({"program": mancala.display().to_string(),
        "load": [root.join("MANBOARD.txt").display().to_string()],
        "before": ["MANBOARD"], "pair": pair});
    if let Some(k) = keys {
        args["keys"] = json!(k);
    }
    (args, mancala)
}

fn top_frame(c: &mut Client, thread: i64) -> (String, i64, usize, i64) {
    let st = c.ok("stackTrace", json!({ "threadId": thread }));
    let frames = st["stackFrames"].as_array().unwrap().clone();
    let top = &frames[0];
    (
        top["name"].as_str().unwrap().to_string(),
        top["line"].as_i64().unwrap(),
        frames.len(),
        top["id"].as_i64().unwrap(),
    )
}

fn eval_in(c: &mut Client, frame: i64, expr: &str) -> String {
    let b = c.ok("evaluate", json!({"expression": expr, "frameId": frame}));
    b["result"].as_str().unwrap().to_string()
}

/// A `pair` session: two calculators on the in-process cable are threads 1 and 2, each
/// running MANCALA in CALC VS CALC (docs/mancala-programs.md, "CALC VS CALC, exactly"; the
/// menus as MANCALA.txt writes them). Calculator A (player 1) stops at a breakpoint in its
/// move while B polls it with `Get(L1)`; B's stack and `L1` are its own; stepping A lets B run
/// on the cable; a data breakpoint on B's `L1` stops B when it has pulled A's move, and B
/// then holds the board the reference engine predicts for that move.
#[test]
fn a_pair_session_steps_one_calculator_of_a_calc_vs_calc_game() {
    // A: PLAYER OPTIONS, CALC VS CALC, WHO'S FIRST?, ME, MAIN MENU, PLAY (CONNECTING...);
    // ENTER once B has the board; ENTER plays hole 1 (the arrow starts there).
    let a_keys = "WAIT 500 READY 2 READY 2 READY 3 READY 1 READY 4 READY 1 \
                  WAIT 6000 ENTER WAIT 3000 ENTER";
    // B: the same with OPPONENT, a little later; PLAY starts polling A.
    let b_keys = "WAIT 500 READY 2 READY 2 READY 3 READY 2 READY 4 READY WAIT 2000 1";
    let (args, mancala) = mancala_launch(Some(a_keys), json!({ "keys": b_keys }));
    let mut c = Client::start();
    let answers = c.launch(
        args,
        // MANCALA.txt line 147: `L1(16)+1->L1(16)`, the mover's move counter.
        &[(&mancala, json!([{"line": 147}]))],
    );
    assert_eq!(answers[0]["verified"], true, "{answers:?}");
    let threads = c.ok("threads", json!({}));
    let names: Vec<&str> = threads["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["TI-82 A", "TI-82 B"]);

    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "breakpoint", "{e}");
    assert_eq!(e["body"]["threadId"], 1, "A moves first: {e}");
    assert_eq!(e["body"]["allThreadsStopped"], true);
    let (name, line, depth, a_frame) = top_frame(&mut c, 1);
    assert_eq!((name.as_str(), line, depth), ("prgmMANCALA", 147, 1));
    // Hole 1's four rocks sown into holes 2-5 (L1 slots: holes 1-6, store, holes 8-13,
    // store, turn, moves), by the reference engine.
    let rules = mancala::Rules::ti82(4).unwrap();
    let start = mancala::Position::new(rules);
    let outcome = mancala::predict(rules, start.board(), mancala::Player::One, 1).unwrap();
    let slots = |s: &[u8], turn: u8, moves: u8| {
        let mut v: Vec<String> = s.iter().map(|x| x.to_string()).collect();
        v.push(turn.to_string());
        v.push(moves.to_string());
        format!("{{{}}}", v.join(" "))
    };
    let start_list = slots(start.board().slots(), 1, 0);
    let sown = slots(outcome.board.slots(), 1, 0);
    assert_eq!(eval_in(&mut c, a_frame, "L1"), sown);

    // B stands in its polling loop (MANCALA.txt lines 174-179), holding the start board.
    let (name, line, _, b_frame) = top_frame(&mut c, 2);
    assert_eq!(name, "prgmMANCALA");
    assert!((174..=179).contains(&line), "B at line {line}");
    assert_ne!(b_frame, a_frame, "frame ids name their thread");
    assert_eq!(eval_in(&mut c, b_frame, "L1"), start_list);
    assert_eq!(eval_in(&mut c, b_frame, "G"), "2");
    assert_eq!(eval_in(&mut c, a_frame, "G"), "1");

    // Stepping A: B is told it runs (it waits on the cable), A stops on the next line.
    c.ok("next", json!({"threadId": 1}));
    let cont = c.event("continued");
    assert_eq!(cont["body"]["threadId"], 2, "{cont}");
    let e = c.event("stopped");
    assert_eq!(
        (&e["body"]["reason"], &e["body"]["threadId"]),
        (&json!("step"), &json!(1))
    );
    assert_eq!(top_frame(&mut c, 1).1, 148);

    // A data breakpoint on B's L1 (from B's Lists scope): B stops when it has pulled the
    // board after A's move, which it holds whole.
    let (_, _, _, b_frame) = top_frame(&mut c, 2);
    let scopes = c.ok("scopes", json!({ "frameId": b_frame }));
    let lists = scopes["scopes"][1]["variablesReference"].clone();
    let info = c.ok(
        "dataBreakpointInfo",
        json!({"variablesReference": lists, "name": "L1"}),
    );
    assert_eq!(info["dataId"], "L1@2", "{info}");
    c.ok(
        "setDataBreakpoints",
        json!({"breakpoints": [{"dataId": info["dataId"]}]}),
    );
    c.ok(
        "setBreakpoints",
        json!({"source": {"path": mancala.display().to_string()},
        "breakpoints": []}),
    );
    c.ok("continue", json!({"threadId": 1}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "data breakpoint", "{e}");
    assert_eq!(e["body"]["threadId"], 2, "{e}");
    let (_, _, _, b_frame) = top_frame(&mut c, 2);
    let next = outcome
        .next
        .map_or(0, |p| if p == mancala::Player::One { 1 } else { 2 });
    assert_eq!(next, 2, "no free turn from hole 1");
    assert_eq!(
        eval_in(&mut c, b_frame, "L1"),
        slots(outcome.board.slots(), 2, 1)
    );
    c.finish();
}

/// In a pair session a pause holds both calculators (all-stop) and names the thread asked
/// about; a request for a thread that does not exist is refused.
#[test]
fn a_pair_session_pauses_both_calculators() {
    let (mut args, mancala) = mancala_launch(None, json!(true));
    args["headless"] = json!(false);
    let mut c = Client::start();
    c.launch(args, &[]);
    // A window per calculator where there is a display.
    let shown: Vec<String> = (0..2)
        .map(|_| {
            c.event("output")["body"]["output"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
        assert_eq!(
            shown,
            [
                "TI-82 A: the window is open\n",
                "TI-82 B: the window is open\n"
            ]
        );
    } else {
        assert!(
            shown.iter().all(|t| t.starts_with("no window")),
            "{shown:?}"
        );
    }
    // Both wait at MANCALA's main menu (a `Menu(`: no statement runs there) well before 5
    // emulated seconds.
    let end = Instant::now() + WAIT;
    while c.ok("ti82/status", json!({"threadId": 2}))["emulatedMs"].as_f64() < Some(5000.0) {
        assert!(Instant::now() < end, "the pair does not run");
        std::thread::sleep(Duration::from_millis(20));
    }
    c.ok("pause", json!({"threadId": 2}));
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "pause", "{e}");
    assert_eq!(e["body"]["threadId"], 2, "{e}");
    assert_eq!(e["body"]["allThreadsStopped"], true, "{e}");
    for thread in [1, 2] {
        let (name, line, _, _) = top_frame(&mut c, thread);
        assert_eq!(
            (name.as_str(), line),
            ("prgmMANCALA", 12),
            "thread {thread}"
        );
        let status = c.ok("ti82/status", json!({ "threadId": thread }));
        assert_eq!(status["status"], "stopped at MANCALA:12", "thread {thread}");
    }
    let r = c.request("stackTrace", json!({"threadId": 3}));
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["message"].as_str().unwrap().contains("no thread 3"),
        "{r}"
    );
    let r = c.request("launch", json!({"program": mancala.display().to_string()}));
    assert_eq!(r["success"], false, "a second launch: {r}");
    c.ok("continue", json!({"threadId": 2}));
    c.finish();
}

/// `speed`: at `real` the calculator's clock never runs ahead of the wall clock (the
/// TI-82's 6 MHz); a speed that is not one is refused with the accepted forms.
#[test]
fn speed_real_paces_emulated_time_by_the_wall_clock() {
    let p = programs("speed", &[("SLOW", "For(I,1,60)\nEnd\nDisp I\n")]);
    let mut c = Client::start();
    let r = c.request(
        "launch",
        json!({"program": p[0].display().to_string(), "speed": "warp"}),
    );
    assert_eq!(r["success"], false, "{r}");
    assert!(r["message"].as_str().unwrap().contains("turbo"), "{r}");
    let mut c = Client::start();
    let started = Instant::now();
    c.launch(
        json!({"program": p[0].display().to_string(), "speed": "real"}),
        &[(&p[0], json!([{"line": 3}]))],
    );
    let before = c.ok("ti82/status", json!({}))["emulatedMs"]
        .as_f64()
        .unwrap();
    let e = c.event("stopped");
    assert_eq!(e["body"]["reason"], "breakpoint");
    let wall = started.elapsed().as_secs_f64() * 1000.0;
    let after = c.ok("ti82/status", json!({}))["emulatedMs"]
        .as_f64()
        .unwrap();
    assert!(
        after - before > 200.0,
        "the loop lasts {} emulated ms",
        after - before
    );
    assert!(
        after - before <= wall + 20.0,
        "{} emulated ms in {wall} wall ms",
        after - before
    );
    c.finish();
}
