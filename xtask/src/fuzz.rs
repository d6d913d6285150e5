//! `cargo xtask fuzz [TARGET] [--time S] [--seed N]`: bounded fuzzing of every boundary where
//! outside data enters the emulator (files, programs, save states, link packets, key scripts).
//!
//! Each target runs in a child process (this program again, `fuzz --child`), on a thread with
//! a 2 MiB stack like a test's, for `--time` seconds of seeded, deterministic mutation of its
//! seeds (`tifiles::fuzz::mutate`: bit flips, overwrites, insertions, deletions, duplicated
//! runs, interesting 16-bit values, truncation) and random inputs. A panic is caught in the
//! child and its input saved; an abort, a stack overflow or a hang kills the child, and the
//! parent replays the same seed with every input written to disk before it runs, so the input
//! that killed it is saved too. Saved inputs go to `xtask/fuzz/crashes/TARGET/` and the
//! checked-in corpus in `xtask/fuzz/corpus/TARGET/` seeds every run; `cargo test -p xtask`
//! runs every target on both folders, so each finding stays a regression test.
//!
//! That loop has no coverage feedback. `--engine libfuzzer` runs the same targets, seeds and
//! finding folders under libFuzzer instead, coverage-guided (`fuzz/libfuzzer.rs`); see
//! docs/reliability.md.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use ti82_machine::{Calc, Key, RomFirmware, RomImage};
use tibasic::firmware::{install, program_var, start_program, BasicFirmware};
use tifiles::fuzz::{mutate, Rng};

pub mod libfuzzer;
mod netlink_wire;

/// One boundary to fuzz.
pub struct Target {
    pub name: &'static str,
    /// What it covers (printed by `--list`, copied into docs/reliability.md).
    pub covers: &'static str,
    pub run: fn(&[u8]),
    pub seeds: fn() -> Vec<Vec<u8>>,
    pub max_len: usize,
}

pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "file_reader",
            covers: ".82? files: header, variable entries, checksums, groups and backups; whatever parses writes back identically",
            run: tifiles::fuzz::fuzz_file_reader,
            seeds: file_seeds,
            max_len: 4096,
        },
        Target {
            name: "uue",
            covers: "UUE (mail) decoding of files; output bounded by the input",
            run: tifiles::fuzz::fuzz_uue,
            seeds: uue_seeds,
            max_len: 8192,
        },
        Target {
            name: "tokenizer",
            covers: "program text to tokens; success round-trips through both spellings",
            run: tifiles::fuzz::fuzz_tokenizer,
            seeds: text_seeds,
            max_len: 2048,
        },
        Target {
            name: "detokenizer",
            covers: "token bytes to text; the text tokenizes back to the same bytes",
            run: tifiles::fuzz::fuzz_detokenizer,
            seeds: program_seeds,
            max_len: 2048,
        },
        Target {
            name: "vat",
            covers: "the VAT writer and reader on emulated RAM, then corrupted pointers and entries",
            run: tifiles::fuzz::fuzz_vat,
            seeds: random_seeds,
            max_len: 300,
        },
        Target {
            name: "basic_compile",
            covers: "the TI-BASIC parser on arbitrary token bytes (mutated real programs, deep nesting)",
            run: basic_compile,
            seeds: basic_seeds,
            max_len: 30_000,
        },
        Target {
            name: "basic_tokens",
            covers: "programs built from the token table (every byte picks a valid token), compiled and run on the built-in runtime with keys",
            run: basic_tokens,
            seeds: random_seeds,
            max_len: 400,
        },
        Target {
            name: "basic_run",
            covers: "mutated real programs and deep nesting run on the built-in runtime with keys (Menu(, Input, Pause, errors)",
            run: basic_run,
            seeds: basic_seeds,
            max_len: 30_000,
        },
        Target {
            name: "runtime_state",
            covers: "built-in runtime save states (resealed, so the checksum passes), loaded and run with keys",
            run: runtime_state,
            seeds: runtime_state_seeds,
            max_len: 64 * 1024,
        },
        Target {
            name: "rom_state",
            covers: "ROM-firmware (Z80) save states (resealed), loaded and run with keys and ON",
            run: rom_state,
            seeds: rom_state_seeds,
            max_len: 64 * 1024,
        },
        Target {
            name: "link_packets",
            covers: "link packets: the packet parser on a byte stream, and packets from a peer to the built-in runtime's link port",
            run: link_packets,
            seeds: packet_seeds,
            max_len: 1024,
        },
        Target {
            name: "netlink_wire",
            covers: "the network cable's wire protocol: a TCP stream read as the network thread reads it (lengths checked before allocating, decoded frames re-encode identically), then its packets, expiries and cancels played into a byte endpoint on the built-in runtime's cable during a Get( and on the home screen",
            run: netlink_wire::run,
            seeds: netlink_wire::seeds,
            max_len: 70 * 1024,
        },
        Target {
            name: "shell_keys",
            covers: "the built-in calculator's screens driven by arbitrary keys (every key, 2nd, ALPHA, ON, with pauses): menus, MODE, MEM (Delete, Reset), LINK, the program editor, programs; the state saved and restored on the way",
            run: shell_keys,
            seeds: shell_seeds,
            max_len: 600,
        },
        Target {
            name: "key_scripts",
            covers: "--keys scripts: parsing and expansion, bounded repeats, waits and total steps",
            run: key_scripts,
            seeds: script_seeds,
            max_len: 2048,
        },
    ]
}

/// A target for testing this driver (`xtask/tests/fuzz_driver.rs`), not run by default: its
/// only seed is `XTASK_FUZZ_SELFTEST`; `panic`, `abort` and `overflow` do what they say.
fn selftest() -> Target {
    fn deep(n: u64) -> u64 {
        let a = std::hint::black_box([n; 64]);
        if n == 0 {
            0
        } else {
            deep(n - 1).wrapping_add(a[7])
        }
    }
    Target {
        name: "selftest",
        covers: "the fuzz driver itself",
        run: |b| match b {
            b"panic" => panic!("selftest panic"),
            b"abort" => std::process::abort(),
            b"overflow" => {
                std::hint::black_box(deep(u64::MAX / 2));
            }
            _ => {}
        },
        seeds: || {
            vec![std::env::var("XTASK_FUZZ_SELFTEST")
                .unwrap_or_default()
                .into_bytes()]
        },
        max_len: 16,
    }
}

pub fn find(name: &str) -> Option<Target> {
    targets()
        .into_iter()
        .chain([selftest()])
        .find(|t| t.name == name)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `xtask/fuzz/KIND/TARGET`.
fn dir(kind: &str, target: &str) -> PathBuf {
    // Tests of the driver keep their findings out of the source tree.
    if kind == "crashes" {
        if let Some(d) = std::env::var_os("XTASK_FUZZ_CRASHES") {
            return PathBuf::from(d).join(target);
        }
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target)
}

/// The files of a folder, sorted (none if it does not exist).
fn files_in(d: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(d)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect();
    v.sort();
    v
}

// ------------------------------------------------------------------------- seeds

fn file_seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = files_in(&root().join("crates/tifiles/tests/golden"))
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    v.extend(
        files_in(&root().join("programs"))
            .into_iter()
            .filter(|(p, _)| p.extension().is_some_and(|e| e == "82p"))
            .map(|(_, b)| b),
    );
    v
}

fn uue_seeds() -> Vec<Vec<u8>> {
    file_seeds()
        .iter()
        .map(|b| tifiles::uue::encode("f.82p", b).into_bytes())
        .collect()
}

fn program_seeds() -> Vec<Vec<u8>> {
    file_seeds()
        .iter()
        .filter_map(|b| tifiles::TiFile::from_bytes(b).ok())
        .flat_map(|f| f.vars().to_vec())
        .map(|v| v.data.to_bytes())
        .collect()
}

fn text_seeds() -> Vec<Vec<u8>> {
    program_seeds()
        .iter()
        .flat_map(|b| {
            [
                tifiles::detokenize(b, tifiles::Spelling::Ascii).into_bytes(),
                tifiles::detokenize(b, tifiles::Spelling::Display).into_bytes(),
            ]
        })
        .collect()
}

fn random_seeds() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x5EED);
    (0..8)
        .map(|i| (0..16 + 24 * i).map(|_| rng.next_u64() as u8).collect())
        .collect()
}

/// The MANCALA programs' tokens (without the 2-byte length), short programs for every
/// waiting statement, and deep nesting of each kind.
fn basic_seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = program_seeds()
        .into_iter()
        .filter(|b| b.len() > 2)
        .map(|b| b[2..].to_vec())
        .collect();
    for src in [
        "Menu(\"M\",\"A\",A,\"B\",B\nLbl A\nDisp 1\nLbl B",
        "Prompt A,B\nDisp A+B\nInput \"X\",X",
        "{1,2,3}->L1\nFor(I,1,3)\nL1(I)->A\nPause\nEnd\ndim L1",
        "0->A\nWhile A<50\nA+1->A\nEnd\nOutput(2,3,A",
        "[[1,2][3,4]]->[A]\ndet [A]\n[A]T",
        "seq(X,X,1,99)->L2\nsum L2\nSortA(L2",
    ] {
        if let Ok(t) = tifiles::tokens::tokenize_source(src) {
            v.push(t);
        }
    }
    for opener in [[0x10u8], [0x08], [0xB0], [0xB1]] {
        v.push(std::iter::repeat_n(opener[0], 3000).chain([0x31]).collect());
    }
    v.push([0x31, 0x70].repeat(2000));
    v
}

fn state_payload(calc: &Calc) -> Vec<u8> {
    let s = calc.state_bytes();
    s[20..s.len() - 8].to_vec()
}

fn runtime_calc(src: &str) -> Calc {
    let mut calc = Calc::new(BasicFirmware::new());
    if let Ok(t) = tifiles::tokens::tokenize_source(src) {
        if let Some(v) = program_var("T", t) {
            let _ = install(calc.ram_mut(), &[v]);
        }
    }
    calc.run_for(50 * MS);
    calc
}

fn runtime_state_seeds() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for src in [
        "Menu(\"M\",\"A\",A,\"B\",B\nLbl A\nLbl B\nDisp 1",
        "Prompt A,B\nDisp A+B",
        "{1,2,3}->L1\nFor(I,1,3)\nL1(I)->A\nPause\nEnd",
        "0->A\nWhile A<50\nA+1->A\nEnd\nGet(L2",
    ] {
        let mut calc = runtime_calc(src);
        let _ = start_program(&mut calc, "T");
        calc.run_for(300 * MS);
        v.push(state_payload(&calc));
    }
    // The LINK screens: a SEND list with a selection, waiting in RECEIVE, transmitting to a
    // calculator that never answers.
    let link = [Key::Second, Key::XTTheta];
    for tail in [
        &[Key::K2, Key::Enter][..],
        &[Key::Right, Key::K1],
        &[Key::K2, Key::Enter, Key::Right, Key::K1],
    ] {
        let mut calc = runtime_calc("Disp 1");
        calc.run_for(100 * MS);
        tap_keys(&mut calc, &link, 60);
        tap_keys(&mut calc, tail, 60);
        v.push(state_payload(&calc));
    }
    v
}

/// The machine crate's benchmark test program (timer interrupts, keypad, LCD) as a ROM.
fn bench_rom() -> RomImage {
    let code =
        std::fs::read(root().join("crates/machine/tests/roms/bench.bin")).unwrap_or_default();
    RomImage::from_program(&code)
}

fn rom_calc() -> Calc {
    Calc::new(RomFirmware::new(bench_rom()))
}

fn rom_state_seeds() -> Vec<Vec<u8>> {
    let mut calc = rom_calc();
    let mut v = Vec::new();
    for _ in 0..3 {
        calc.run_for(200 * MS);
        v.push(state_payload(&calc));
    }
    v
}

fn packet_seeds() -> Vec<Vec<u8>> {
    use tilink::{Packet, MID_COMPUTER};
    let var = tifiles::var::Variable {
        name: tifiles::var::VarName::list(1).unwrap_or_default(),
        data: tifiles::var::VarData::List(vec![tifiles::float::TiFloat::from_i64(3); 16]),
    };
    let data = var.data.to_bytes();
    let header = tifiles::var::Header::Var {
        size: data.len() as u16,
        ty: var.var_type(),
        name: var.name,
    };
    let mut stream = Vec::new();
    for p in [
        Packet::var(MID_COMPUTER, &header),
        Packet::data(MID_COMPUTER, data),
        Packet::ack(MID_COMPUTER),
        Packet::cts(MID_COMPUTER),
        Packet::eot(MID_COMPUTER),
        Packet::req(MID_COMPUTER, var.var_type(), var.name),
    ] {
        stream.extend(p.to_bytes());
    }
    vec![stream]
}

fn script_seeds() -> Vec<Vec<u8>> {
    [
        "ENTER 2nd ALPHA X,T,θ STO> (-) ON",
        "RIGHT*3 WAIT 100 HOLD ENTER RELEASE ENTER # comment\nCLEAR",
        "WAIT 3600000 ENTER*10000 PRGM 1",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

// ------------------------------------------------------------------------- targets

const MS: u64 = 6_000;

fn basic_compile(bytes: &[u8]) {
    let lines = tibasic::parse::compile(bytes);
    assert!(lines.len() <= bytes.len() + 1, "more statements than bytes");
}

/// Runs program `bytes` on a fresh runtime: start it from the PRGM menu, then keys that
/// answer every wait (digits and ENTER for `Input`/`Prompt`/`Menu(`/`Pause`), then ON.
fn run_program(bytes: Vec<u8>) {
    let mut calc = Calc::new(BasicFirmware::new());
    let Some(v) = program_var("F", bytes) else {
        return;
    };
    if install(calc.ram_mut(), &[v]).is_err() {
        return;
    }
    calc.run_for(20 * MS);
    if start_program(&mut calc, "F").is_err() {
        return;
    }
    calc.run_for(100 * MS);
    let keys = [
        Key::K2,
        Key::Enter,
        Key::K1,
        Key::Enter,
        Key::Down,
        Key::Enter,
    ];
    tap_keys(&mut calc, &keys, 40);
    pulse_on(&mut calc);
}

/// Taps each key for 20 ms with `gap_ms` after it.
fn tap_keys(calc: &mut Calc, keys: &[Key], gap_ms: u64) {
    for &k in keys {
        calc.press(k);
        calc.run_for(20 * MS);
        calc.release(k);
        calc.run_for(gap_ms * MS);
    }
}

/// Presses and releases ON (20 ms each).
fn pulse_on(calc: &mut Calc) {
    calc.set_on(true);
    calc.run_for(20 * MS);
    calc.set_on(false);
    calc.run_for(20 * MS);
}

fn basic_run(bytes: &[u8]) {
    run_program(bytes.to_vec());
}

/// Every input byte picks a token of the table (a two-byte token for the bytes that say so),
/// so the program is made of real tokens in random order.
fn basic_tokens(bytes: &[u8]) {
    let table = tifiles::tokens::table().tokens();
    if table.is_empty() {
        return;
    }
    let mut prog = Vec::new();
    let mut it = bytes.iter();
    while let Some(&a) = it.next() {
        let i = if a >= 0xF0 {
            (usize::from(a & 0x0F) << 8 | usize::from(*it.next().unwrap_or(&0))) % table.len()
        } else {
            usize::from(a) % table.len()
        };
        prog.extend_from_slice(table[i].bytes());
    }
    let _ = tibasic::parse::compile(&prog);
    run_program(prog);
}

fn keys_and_on(calc: &mut Calc) {
    let keys = [Key::Enter, Key::Down, Key::K1, Key::Prgm, Key::Clear];
    tap_keys(calc, &keys, 20);
    pulse_on(calc);
}

fn runtime_state(bytes: &[u8]) {
    restore_then_run(Calc::new(BasicFirmware::new()), bytes);
}

fn rom_state(bytes: &[u8]) {
    restore_then_run(rom_calc(), bytes);
}

/// `bytes` as the payload of a valid state file: a state that loads must run (keys, ON); one
/// that is refused must leave the calculator exactly as it was.
fn restore_then_run(mut calc: Calc, bytes: &[u8]) {
    let before = calc.state_bytes();
    let file = ti82_machine::state::envelope(bytes);
    match calc.restore_bytes(Path::new("fuzz.state"), &file) {
        Ok(()) => keys_and_on(&mut calc),
        Err(_) => assert!(
            calc.state_bytes() == before,
            "a refused state changed the calculator"
        ),
    }
}

/// The bytes as a stream for the packet parser (every packet that parses round-trips), then
/// as packets a computer sends to the built-in runtime's link port while it sits on the home
/// screen (its holder answers requests and receives variables).
fn link_packets(bytes: &[u8]) {
    use tilink::{Command as Cmd, LinkEvent, Packet, PacketLink, Timing, Wake};
    let mut rest = bytes;
    let mut guard = 0;
    while !rest.is_empty() && guard < 4096 {
        guard += 1;
        match Packet::parse(rest) {
            Ok((p, used)) => {
                let again = Packet::parse(&p.to_bytes()).expect("a parsed packet writes back");
                assert_eq!(again.0, p, "packet round trip");
                let _ = p.header();
                rest = &rest[used.max(1)..];
            }
            Err(_) => rest = &rest[1..],
        }
    }
    // Packets from the bytes: [mid, command, length, data...]*.
    let mut packets = Vec::new();
    let mut it = bytes.iter().copied();
    while let (Some(mid), Some(cmd), Some(len)) = (it.next(), it.next(), it.next()) {
        let cmd = Cmd::from_byte(cmd);
        let data: Vec<u8> = it.by_ref().take(usize::from(len)).collect();
        packets.push(if cmd.has_data() {
            Packet::with_data(mid, cmd, data)
        } else {
            Packet::bare(mid, cmd)
        });
        if packets.len() >= 8 {
            break;
        }
    }
    if packets.is_empty() {
        return;
    }
    let mut calc = Calc::new(BasicFirmware::new());
    calc.run_for(20 * MS);
    let mut pc = tilink::VirtualCable::attach(&mut calc, 200);
    let mut link = PacketLink::new(tilink::MID_COMPUTER, Timing::default());
    let mut next = 0;
    let mut side = |ep: &mut tilink::TimedPort| loop {
        match link.poll(ep) {
            LinkEvent::Pending(w) => return w,
            LinkEvent::Idle | LinkEvent::Sent | LinkEvent::Packet(_) | LinkEvent::Failed(_) => {
                let Some(p) = packets.get(next) else {
                    return Wake::NEVER;
                };
                next += 1;
                link.send_then_receive(p, Some(6_000_000));
            }
        }
    };
    let until = calc.now() + 3_000 * MS;
    pc.run(&mut calc, until, &mut side);
}

/// Each byte a step: below 0xF0 a key (by its place in `Key::all()`) tapped for 20 ms with
/// `byte >> 6` × 40 ms after it; F0-FB a pause of (byte & 0x0F) × 100 ms; FC ON; FD-FF a save
/// state taken and restored into a fresh calculator. Every state taken must load, and the
/// restored calculator must show the same glass.
fn shell_keys(bytes: &[u8]) {
    let keys: Vec<Key> = Key::all().collect();
    let mut calc =
        runtime_calc("Disp 1\nInput A\nMenu(\"M\",\"A\",A,\"B\",B\nLbl A\nLbl B\nDisp A");
    for &b in bytes {
        match b {
            0xF0..=0xFB => calc.run_for(u64::from(b & 0x0F) * 100 * MS),
            0xFC => pulse_on(&mut calc),
            0xFD..=0xFF => {
                let state = calc.state_bytes();
                let mut back = Calc::new(BasicFirmware::new());
                back.restore_bytes(Path::new("fuzz.state"), &state)
                    .expect("a state the runtime wrote loads");
                assert_eq!(
                    back.lcd().to_text(),
                    calc.lcd().to_text(),
                    "the restored glass differs"
                );
                calc = back;
            }
            _ => {
                let k = keys[usize::from(b) % keys.len()];
                tap_keys(&mut calc, &[k], 20 + 40 * u64::from(b >> 6));
            }
        }
    }
}

/// Key bytes for `shell_keys` (the place of each key in `Key::all()`).
fn shell_seeds() -> Vec<Vec<u8>> {
    let keys: Vec<Key> = Key::all().collect();
    let at = |k: Key| keys.iter().position(|&x| x == k).unwrap_or(0) as u8;
    let seq = |ks: &[Key]| ks.iter().map(|&k| at(k)).collect::<Vec<u8>>();
    let (second, alpha) = (at(Key::Second), at(Key::Alpha));
    let mut v = vec![
        // LINK: RECEIVE, then SEND Prgm with a selection, TRANSMIT to nobody.
        seq(&[Key::Second, Key::XTTheta, Key::Right, Key::Enter]),
        seq(&[
            Key::Second,
            Key::XTTheta,
            Key::K2,
            Key::Enter,
            Key::Right,
            Key::K1,
        ]),
        // MODE: Fix 2, Degree; MEM: Check RAM, Delete a program, Reset.
        seq(&[
            Key::Mode,
            Key::Down,
            Key::Right,
            Key::Right,
            Key::Enter,
            Key::Down,
            Key::Right,
            Key::Enter,
        ]),
        seq(&[
            Key::Second,
            Key::Add,
            Key::K2,
            Key::K6,
            Key::Enter,
            Key::Second,
            Key::Add,
            Key::K3,
            Key::K2,
        ]),
        // The editor: NEW, a name, Disp from I/O, QUIT; EDIT, overwrite, insert.
        seq(&[
            Key::Prgm,
            Key::Left,
            Key::Enter,
            Key::Pow,
            Key::Enter,
            Key::Prgm,
            Key::Right,
            Key::K3,
            Key::K5,
            Key::Second,
            Key::Mode,
        ]),
        seq(&[
            Key::Prgm,
            Key::Right,
            Key::K1,
            Key::Right,
            Key::K9,
            Key::Second,
            Key::Del,
            Key::K8,
            Key::Down,
            Key::Del,
        ]),
        // The token menus; a program run into Input with a menu open.
        seq(&[
            Key::Math,
            Key::Right,
            Key::K4,
            Key::Second,
            Key::Math,
            Key::Right,
            Key::K4,
            Key::Enter,
        ]),
        seq(&[Key::Prgm, Key::Enter, Key::Enter]),
    ];
    v[7].extend([
        0xF5,
        at(Key::Enter),
        at(Key::Math),
        0xFD,
        at(Key::K6),
        alpha,
        second,
        0xFC,
    ]);
    v
}

fn key_scripts(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(steps) = ti82::script::parse(&text) {
        assert!(steps.len() <= ti82::script::MAX_STEPS);
        let expanded = ti82::script::expand(&steps, ti82::script::Timing::default());
        assert!(expanded.len() <= 4 * steps.len());
    }
}

// ------------------------------------------------------------------------- driver

/// How one target's run ended.
struct Outcome {
    execs: u64,
    finding: Option<PathBuf>,
    /// Edges covered at the end (the libFuzzer engine only).
    coverage: Option<u64>,
}

/// Which fuzzer drives the targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// libFuzzer, coverage-guided, over an instrumented build (needs a C++ compiler).
    Libfuzzer,
    /// This module's own seeded mutation loop: no instrumentation, no extra build.
    Mutate,
}

/// `cargo xtask fuzz`: every target (or one) for `secs` seconds each, in child processes.
pub fn run(target: Option<&str>, secs: u64, seed: u64, engine: Engine) -> Result<()> {
    let all = targets();
    let one;
    let chosen: Vec<&Target> = match target {
        Some(t) => {
            let Some(x) = find(t) else {
                bail!(
                    "no fuzz target {t:?}; targets: {}",
                    all.iter().map(|x| x.name).collect::<Vec<_>>().join(", ")
                );
            };
            one = x;
            vec![&one]
        }
        None => all.iter().collect(),
    };
    let bin = match engine {
        Engine::Libfuzzer => Some(libfuzzer::build()?),
        Engine::Mutate => None,
    };
    let mut findings = Vec::new();
    println!(
        "{:<14} {:>12} {:>8} {:>8}  result ({engine:?})",
        "target", "executions", "seconds", "edges"
    );
    for t in chosen {
        let t0 = Instant::now();
        let o = match &bin {
            Some(b) => libfuzzer::run_target(b, t, secs, seed)?,
            None => run_child(t.name, secs, seed)?,
        };
        let result = match &o.finding {
            Some(p) => format!("FINDING saved as {}", p.display()),
            None => "clean".to_string(),
        };
        println!(
            "{:<14} {:>12} {:>8.1} {:>8}  {result}",
            t.name,
            o.execs,
            t0.elapsed().as_secs_f64(),
            o.coverage.map_or("-".to_string(), |c| c.to_string())
        );
        if let Some(p) = o.finding {
            findings.push(p);
        }
    }
    if !findings.is_empty() {
        bail!(
            "{} finding(s); each saved input now runs in `cargo test -p xtask`",
            findings.len()
        );
    }
    Ok(())
}

fn child_command(name: &str, secs: u64, seed: u64) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap_or_else(|_| "xtask".into()));
    c.args(["fuzz", name, "--child", "--time"])
        .arg(secs.to_string())
        .arg("--seed")
        .arg(seed.to_string());
    c
}

fn run_child(name: &str, secs: u64, seed: u64) -> Result<Outcome> {
    let mut child = child_command(name, secs, seed)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("starting the fuzz child")?;
    let out = child.stdout.take().context("child stdout")?;
    let err = child.stderr.take().context("child stderr")?;
    let err_text = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(err), &mut s);
        s
    });
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // A hang: the child gets its time plus a minute, then is killed.
    let deadline = Instant::now() + Duration::from_secs(secs + 60);
    let mut execs = 0;
    let mut saved = None;
    let status = loop {
        while let Ok(line) = rx.try_recv() {
            if let Some(n) = line.strip_prefix("execs ") {
                execs = n.trim().parse().unwrap_or(execs);
            } else if let Some(p) = line.strip_prefix("crash ") {
                saved = Some(PathBuf::from(p.trim()));
            }
        }
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    while let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
        if let Some(n) = line.strip_prefix("execs ") {
            execs = n.trim().parse().unwrap_or(execs);
        } else if let Some(p) = line.strip_prefix("crash ") {
            saved = Some(PathBuf::from(p.trim()));
        }
    }
    let stderr = err_text.join().unwrap_or_default();
    match status {
        Some(s) if s.success() => Ok(Outcome {
            execs,
            finding: None,
            coverage: None,
        }),
        _ if saved.is_some() => {
            eprintln!("{name}: {}", crash_report(&stderr, 12));
            Ok(Outcome {
                execs,
                finding: saved,
                coverage: None,
            })
        }
        _ => {
            // Killed (abort, stack overflow, hang): replay with every input written first.
            eprintln!(
                "{name}: the child died ({}); replaying to save the input\n{}",
                status.map_or("hung".to_string(), |s| s.to_string()),
                crash_report(&stderr, 12)
            );
            // One file per run: two drivers replaying the same target must not share it.
            let last =
                std::env::temp_dir().join(format!("xtask-fuzz-{name}-{}.last", std::process::id()));
            let mut c = child_command(name, secs + 30, seed);
            c.arg("--record").arg(&last);
            let mut replay = c.stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
            let deadline = Instant::now() + Duration::from_secs(secs + 90);
            while replay.try_wait()?.is_none() {
                if Instant::now() > deadline {
                    let _ = replay.kill();
                    let _ = replay.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let input = std::fs::read(&last).unwrap_or_default();
            let _ = std::fs::remove_file(&last);
            Ok(Outcome {
                execs,
                finding: Some(save_crash(name, &input)?),
                coverage: None,
            })
        }
    }
}

fn last_lines(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// What a crashed child printed, for the report: the last panic's message (its `panicked at`
/// line and the lines up to the backtrace), which a long backtrace would push out of the
/// tail, then the last `n` lines.
fn crash_report(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let tail = last_lines(s, n);
    let Some(at) = lines.iter().rposition(|l| l.contains("panicked at")) else {
        return tail;
    };
    let message: Vec<&str> = lines[at..]
        .iter()
        .take(12)
        .take_while(|l| !l.starts_with("stack backtrace") && !l.starts_with("note: "))
        .copied()
        .collect();
    format!("{}\n...\n{tail}", message.join("\n"))
}

fn save_crash(name: &str, input: &[u8]) -> Result<PathBuf> {
    let d = dir("crashes", name);
    std::fs::create_dir_all(&d).with_context(|| format!("{}: cannot create", d.display()))?;
    let p = d.join(format!("{:016x}.bin", ti82_machine::state::fnv1a(input)));
    std::fs::write(&p, input).with_context(|| format!("{}: cannot write", p.display()))?;
    Ok(p)
}

/// The child: runs one target for `secs` seconds on a 2 MiB-stack thread, printing
/// `execs N` and, on a caught panic, `crash PATH`. With `record`, every input is written to
/// that file before it runs (for the replay after a crash that kills the process).
pub fn child(name: &str, secs: u64, seed: u64, record: Option<PathBuf>) -> Result<()> {
    let t = find(name).with_context(|| format!("no fuzz target {name:?}"))?;
    let handle = std::thread::Builder::new()
        .name(format!("fuzz-{name}"))
        .stack_size(2 << 20)
        .spawn(move || child_loop(&t, secs, seed, record.as_deref()))
        .context("fuzz thread")?;
    handle
        .join()
        .map_err(|_| anyhow::anyhow!("fuzz thread panicked"))?
}

fn child_loop(t: &Target, secs: u64, seed: u64, record: Option<&Path>) -> Result<()> {
    let mut seeds = (t.seeds)();
    seeds.extend(files_in(&dir("corpus", t.name)).into_iter().map(|(_, b)| b));
    seeds.extend(
        files_in(&dir("crashes", t.name))
            .into_iter()
            .map(|(_, b)| b),
    );
    let mut rng = Rng::new(seed);
    let end = Instant::now() + Duration::from_secs(secs);
    let mut execs: u64 = 0;
    let mut stdout = std::io::stdout();
    // Panics are caught and reported once, with the input.
    std::panic::set_hook(Box::new(|info| eprintln!("{info}")));
    let mut i = 0usize;
    loop {
        let input = if i < seeds.len() {
            seeds[i].clone()
        } else if seeds.is_empty() || rng.below(4) == 0 {
            let n = rng.below(t.max_len.min(512) + 1);
            (0..n).map(|_| rng.next_u64() as u8).collect()
        } else {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s, t.max_len)
        };
        i += 1;
        if let Some(r) = record {
            std::fs::write(r, &input).context("recording the input")?;
        }
        let run = t.run;
        if std::panic::catch_unwind(|| run(&input)).is_err() {
            let p = save_crash(t.name, &input)?;
            writeln!(stdout, "execs {}", execs + 1)?;
            writeln!(stdout, "crash {}", p.display())?;
            std::process::exit(101);
        }
        execs += 1;
        if execs & 255 == 0 {
            writeln!(stdout, "execs {execs}")?;
        }
        // Seeds run in full even past the time; then the clock decides.
        if i >= seeds.len() && Instant::now() >= end {
            break;
        }
    }
    writeln!(stdout, "execs {execs}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every checked-in corpus file and every saved finding runs clean: findings stay fixed.
    #[test]
    fn corpus_and_findings_run_clean() {
        for t in targets() {
            for kind in ["corpus", "crashes"] {
                for (p, b) in files_in(&dir(kind, t.name)) {
                    let run = t.run;
                    let r = std::panic::catch_unwind(|| run(&b));
                    assert!(r.is_ok(), "{}: {}", t.name, p.display());
                }
            }
        }
    }

    /// A finding's report keeps the panic message however long the backtrace after it (CI
    /// once showed only backtrace frames), and is the tail alone when nothing panicked.
    #[test]
    fn a_crash_report_keeps_the_panic_message() {
        let mut log = String::from("INFO: seed 7\nthread 'main' panicked at src/a.rs:3:5:\n");
        log.push_str("assertion `left == right` failed: the answer\n  left: 1\n right: 2\n");
        log.push_str("stack backtrace:\n");
        for i in 0..40 {
            log.push_str(&format!("  {i}: frame\n"));
        }
        log.push_str("SUMMARY: libFuzzer: deadly signal\n");
        let r = crash_report(&log, 4);
        assert!(
            r.starts_with("thread 'main' panicked at src/a.rs:3:5:\nassertion"),
            "{r}"
        );
        assert!(r.contains(" right: 2\n...\n"), "{r}");
        assert!(!r.contains("stack backtrace"), "{r}");
        assert!(r.ends_with("SUMMARY: libFuzzer: deadly signal"), "{r}");
        assert_eq!(crash_report("a\nb\nc", 2), "b\nc");
    }

    /// docs/reliability.md's table of targets names exactly the targets there are.
    #[test]
    fn the_documented_targets_are_the_targets() {
        let doc = std::fs::read_to_string(root().join("docs/reliability.md")).unwrap();
        let mut documented: Vec<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split_once("` |"))
            .map(|(name, _)| name)
            // (The bounds table's rows start with names like `Prompt`.)
            .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            .collect();
        let mut names: Vec<&str> = targets().iter().map(|t| t.name).collect();
        documented.sort();
        documented.dedup();
        names.sort();
        assert_eq!(documented, names);
    }

    /// Each target's seeds run clean (a quick smoke run of every boundary).
    #[test]
    fn seeds_run_clean() {
        for t in targets() {
            let seeds = (t.seeds)();
            assert!(!seeds.is_empty(), "{} has no seeds", t.name);
            for s in seeds.iter().take(3) {
                (t.run)(s);
            }
        }
    }
}
