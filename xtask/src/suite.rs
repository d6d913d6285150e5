//! `cargo xtask z80-suite DIR [--bus]`: the SingleStepTests Z80 suite.
//!
//! Every `*.json` file in DIR is an array of cases. Each case loads a machine state, runs
//! exactly one `Cpu::step` on a flat 64 KiB RAM bus and compares the whole final state, the
//! port writes and the T-state count. With `--bus` the per-T-state bus activity is rebuilt
//! from the core's bus calls and compared with the case's `cycles` too.

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use z80::{Bus, Cpu};

/// How many failures are printed in full.
const DETAILED: usize = 30;

#[derive(Deserialize)]
struct Case {
    name: String,
    initial: State,
    #[serde(rename = "final")]
    final_: State,
    cycles: Vec<(Option<u16>, Option<u8>, String)>,
    #[serde(default)]
    ports: Vec<(u16, u8, String)>,
}

#[derive(Deserialize)]
struct State {
    pc: u16,
    sp: u16,
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    h: u8,
    l: u8,
    i: u8,
    r: u8,
    ei: u8,
    wz: u16,
    ix: u16,
    iy: u16,
    af_: u16,
    bc_: u16,
    de_: u16,
    hl_: u16,
    im: u8,
    p: u8,
    q: u8,
    iff1: u8,
    iff2: u8,
    ram: Vec<(u16, u8)>,
}

/// One T-state of bus activity: address, data, and the RD/WR/MREQ/IORQ pins as letters.
type Tick = (Option<u16>, Option<u8>, &'static str);

/// Flat RAM, scripted port reads, recorded port writes and (optionally) a bus trace.
struct TestBus {
    mem: Box<[u8; 0x10000]>,
    /// The `ports` entries marked "r", answered in order.
    port_reads: Vec<(u16, u8)>,
    next_read: usize,
    port_writes: Vec<(u16, u8)>,
    /// Every address written, to catch writes the case does not expect at all.
    written: Vec<u16>,
    /// Anything the scripted ports could not answer.
    problems: Vec<String>,
    /// Per-T-state trace, `None` where no bus call covered that T-state.
    trace: Option<Vec<Option<Tick>>>,
}

impl TestBus {
    fn tick(&mut self, t: u64, tick: Tick) {
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let t = t as usize;
        if trace.len() <= t {
            trace.resize(t + 1, None);
        }
        trace[t] = Some(tick);
    }

    fn ticks(&mut self, t: u64, ticks: &[Tick]) {
        for (k, &tick) in ticks.iter().enumerate() {
            self.tick(t + k as u64, tick);
        }
    }
}

impl Bus for TestBus {
    fn fetch(&mut self, addr: u16, t: u64) -> u8 {
        let op = self.mem[addr as usize];
        // T3/T4 carry the refresh address, which `refresh` fills in.
        self.ticks(
            t,
            &[
                (Some(addr), None, "----"),
                (Some(addr), None, "r-m-"),
                (None, Some(op), "----"),
                (None, None, "----"),
            ],
        );
        op
    }

    fn refresh(&mut self, addr: u16, t: u64) {
        for t in t..t + 2 {
            // Keep the opcode that `fetch` left on the data bus in T3.
            let data = self
                .trace
                .as_ref()
                .and_then(|tr| tr.get(t as usize).copied().flatten())
                .and_then(|tick| tick.1);
            self.tick(t, (Some(addr), data, "----"));
        }
    }

    fn read(&mut self, addr: u16, t: u64) -> u8 {
        let v = self.mem[addr as usize];
        self.ticks(
            t,
            &[
                (Some(addr), None, "----"),
                (Some(addr), None, "r-m-"),
                (Some(addr), Some(v), "----"),
            ],
        );
        v
    }

    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.mem[addr as usize] = value;
        self.written.push(addr);
        self.ticks(
            t,
            &[
                (Some(addr), None, "----"),
                (Some(addr), Some(value), "-wm-"),
                (Some(addr), None, "----"),
            ],
        );
    }

    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        let v = match self.port_reads.get(self.next_read) {
            Some(&(p, v)) => {
                if p != port {
                    self.problems
                        .push(format!("port read from {port:04X}, expected {p:04X}"));
                }
                v
            }
            None => {
                self.problems
                    .push(format!("unexpected port read from {port:04X}"));
                0xFF
            }
        };
        self.next_read += 1;
        self.ticks(
            t,
            &[
                (Some(port), None, "----"),
                (Some(port), None, "----"),
                (Some(port), None, "r--i"),
                (Some(port), Some(v), "----"),
            ],
        );
        v
    }

    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.port_writes.push((port, value));
        self.ticks(
            t,
            &[
                (Some(port), None, "----"),
                (Some(port), None, "----"),
                (Some(port), Some(value), "-w-i"),
                (Some(port), None, "----"),
            ],
        );
    }

    fn internal(&mut self, addr: u16, n: u32, t: u64) {
        for k in 0..n {
            self.tick(t + k as u64, (Some(addr), None, "----"));
        }
    }
}

fn load(s: &State) -> Cpu {
    let mut cpu = Cpu::new();
    cpu.set_af(u16::from_be_bytes([s.a, s.f]));
    cpu.set_bc(u16::from_be_bytes([s.b, s.c]));
    cpu.set_de(u16::from_be_bytes([s.d, s.e]));
    cpu.set_hl(u16::from_be_bytes([s.h, s.l]));
    cpu.af_alt = s.af_;
    cpu.bc_alt = s.bc_;
    cpu.de_alt = s.de_;
    cpu.hl_alt = s.hl_;
    cpu.ix = s.ix;
    cpu.iy = s.iy;
    cpu.sp = s.sp;
    cpu.pc = s.pc;
    cpu.i = s.i;
    cpu.set_r(s.r);
    cpu.wz = s.wz;
    cpu.set_q(s.q);
    cpu.set_p(s.p != 0);
    cpu.set_ei(s.ei != 0);
    cpu.iff1 = s.iff1 != 0;
    cpu.iff2 = s.iff2 != 0;
    cpu.im = s.im;
    cpu.set_t(0);
    cpu
}

/// Appends `name: expected X, got Y` to `out` when the two differ.
fn diff<T: PartialEq + std::fmt::UpperHex>(out: &mut Vec<String>, name: &str, want: T, got: T) {
    if want != got {
        out.push(format!("{name}: expected {want:02X}, got {got:02X}"));
    }
}

fn fmt_tick(a: Option<u16>, d: Option<u8>, pins: &str) -> String {
    let a = a.map_or("----".to_string(), |a| format!("{a:04X}"));
    let d = d.map_or("--".to_string(), |d| format!("{d:02X}"));
    format!("{a} {d} {pins}")
}

/// The outcome of one case: the state differences, and whether its bus trace matched.
struct Outcome {
    diffs: Vec<String>,
    trace_ok: bool,
    trace_report: String,
}

fn run_case(case: &Case, bus_mode: bool) -> Outcome {
    let mut bus = TestBus {
        mem: Box::new([0; 0x10000]),
        port_reads: case
            .ports
            .iter()
            .filter(|p| p.2 == "r")
            .map(|p| (p.0, p.1))
            .collect(),
        next_read: 0,
        port_writes: Vec::new(),
        written: Vec::new(),
        problems: Vec::new(),
        trace: bus_mode.then(Vec::new),
    };
    for &(addr, v) in &case.initial.ram {
        bus.mem[addr as usize] = v;
    }
    let mut cpu = load(&case.initial);
    let took = cpu.step(&mut bus);

    let want = &case.final_;
    let mut d = Vec::new();
    diff(&mut d, "a", want.a, cpu.a());
    diff(&mut d, "f", want.f, cpu.f());
    let [b, c] = cpu.bc().to_be_bytes();
    let [dd, e] = cpu.de().to_be_bytes();
    let [h, l] = cpu.hl().to_be_bytes();
    diff(&mut d, "b", want.b, b);
    diff(&mut d, "c", want.c, c);
    diff(&mut d, "d", want.d, dd);
    diff(&mut d, "e", want.e, e);
    diff(&mut d, "h", want.h, h);
    diff(&mut d, "l", want.l, l);
    diff(&mut d, "af_", want.af_, cpu.af_alt);
    diff(&mut d, "bc_", want.bc_, cpu.bc_alt);
    diff(&mut d, "de_", want.de_, cpu.de_alt);
    diff(&mut d, "hl_", want.hl_, cpu.hl_alt);
    diff(&mut d, "ix", want.ix, cpu.ix);
    diff(&mut d, "iy", want.iy, cpu.iy);
    diff(&mut d, "sp", want.sp, cpu.sp);
    diff(&mut d, "pc", want.pc, cpu.pc);
    diff(&mut d, "i", want.i, cpu.i);
    diff(&mut d, "r", want.r, cpu.r());
    diff(&mut d, "wz", want.wz, cpu.wz);
    diff(&mut d, "q", want.q, cpu.q());
    diff(&mut d, "p", want.p, cpu.p() as u8);
    diff(&mut d, "ei", want.ei, cpu.ei() as u8);
    diff(&mut d, "iff1", want.iff1, cpu.iff1 as u8);
    diff(&mut d, "iff2", want.iff2, cpu.iff2 as u8);
    diff(&mut d, "im", want.im, cpu.im);
    if cpu.prefix() != 0 {
        d.push(format!("prefix {:02X} left pending", cpu.prefix()));
    }
    for &(addr, v) in &want.ram {
        let got = bus.mem[addr as usize];
        if got != v {
            d.push(format!("ram[{addr:04X}]: expected {v:02X}, got {got:02X}"));
        }
    }
    for &addr in &bus.written {
        if !want.ram.iter().any(|&(a, _)| a == addr) {
            d.push(format!("unexpected write to {addr:04X}"));
        }
    }
    let want_writes: Vec<(u16, u8)> = case
        .ports
        .iter()
        .filter(|p| p.2 == "w")
        .map(|p| (p.0, p.1))
        .collect();
    if want_writes != bus.port_writes {
        d.push(format!(
            "port writes: expected {want_writes:02X?}, got {:02X?}",
            bus.port_writes
        ));
    }
    if bus.next_read != bus.port_reads.len() {
        d.push(format!(
            "port reads: expected {}, got {}",
            bus.port_reads.len(),
            bus.next_read
        ));
    }
    d.append(&mut bus.problems);
    if case.cycles.len() != took as usize {
        d.push(format!(
            "T-states: expected {}, got {took}",
            case.cycles.len()
        ));
    }

    let mut trace_ok = true;
    let mut trace_report = String::new();
    if let Some(trace) = &bus.trace {
        let n = trace.len().max(case.cycles.len());
        for k in 0..n {
            let want = case.cycles.get(k);
            let got = trace.get(k);
            let same = match (want, got) {
                (Some((a, dt, pins)), Some(Some((ga, gd, gp)))) => {
                    a == ga && dt == gd && pins == gp
                }
                _ => false,
            };
            if !same {
                trace_ok = false;
                let want = want.map_or("(nothing)".to_string(), |(a, dt, pins)| {
                    fmt_tick(*a, *dt, pins)
                });
                let got = match got {
                    None => "(nothing)".to_string(),
                    Some(None) => "(no bus call)".to_string(),
                    Some(Some((a, dt, pins))) => fmt_tick(*a, *dt, pins),
                };
                let _ = writeln!(trace_report, "    T{k}: expected {want}, got {got}");
            }
        }
    }
    Outcome {
        diffs: d,
        trace_ok,
        trace_report,
    }
}

pub fn run(dir: &Path, bus: bool) -> Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no .json files in {}", dir.display());
    }

    let (mut passed, mut failed) = (0usize, 0usize);
    let (mut trace_match, mut trace_shown) = (0usize, 0usize);
    // Files with bus-trace mismatches, and how many cases of each.
    let mut trace_bad: Vec<(String, usize)> = Vec::new();
    for path in &files {
        let text =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let cases: Vec<Case> = serde_json::from_slice(&text)
            .with_context(|| format!("{} is not a SingleStepTests case file", path.display()))?;
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let mut file_bad = 0;
        for case in &cases {
            let out = run_case(case, bus);
            if out.diffs.is_empty() {
                passed += 1;
            } else {
                failed += 1;
                if failed <= DETAILED {
                    println!("FAIL {file} \"{}\"", case.name);
                    for line in &out.diffs {
                        println!("    {line}");
                    }
                }
            }
            if out.trace_ok {
                trace_match += 1;
            } else {
                // Show one trace per file, so the detailed ones cover different opcodes.
                if file_bad == 0 && trace_shown < DETAILED {
                    trace_shown += 1;
                    println!("BUS {file} \"{}\"", case.name);
                    print!("{}", out.trace_report);
                }
                file_bad += 1;
            }
        }
        if file_bad > 0 {
            trace_bad.push((file.trim_end_matches(".json").to_string(), file_bad));
        }
    }
    if !trace_bad.is_empty() {
        let list: Vec<String> = trace_bad
            .iter()
            .map(|(f, n)| format!("{f} ({n})"))
            .collect();
        println!(
            "bus trace mismatches in {} files: {}",
            trace_bad.len(),
            list.join(", ")
        );
    }
    if failed > DETAILED {
        println!("({} more failures not shown)", failed - DETAILED);
    }
    let total = passed + failed;
    if bus {
        println!(
            "bus trace: {trace_match} of {total} cases match ({:.2}%)",
            100.0 * trace_match as f64 / total.max(1) as f64
        );
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}
