//! The byte-level network cable between processes, on 127.0.0.1 with `--link-delay`:
//! whole CALC VS CALC games (both WHO'S FIRST choices at 0, 50 and 150 ms one-way; at 0 with
//! the plain `--link listen|connect PORT` and no `--link-delay`), the Z80
//! link-protocol program as the ROM of one process exchanging lists with a built-in
//! calculator at 150 ms, a peer killed mid-transfer and replaced, and the refusals (wrong
//! session code, wrong protocol version, not a ti82). Every wait is bounded.

#[path = "frontend_rom.rs"]
mod rom;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use netlink::wire::{self, Msg};
use netlink::{Delay, Mode, NetCable, NetConfig, Pace};
use ti82_machine::{Calc, Key, RomImage};
use tibasic::firmware::{install, program_names, program_var, read_list, BasicFirmware};
use tibasic::real::Real;

const MS: u64 = 6_000;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn ti82(dir: &std::path::Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ti82"));
    c.env("TI82_HOME", dir)
        .env_remove("TI82_NETLINK_DEBUG")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// The `moves verified: N, divergences: D, result: R` line and the `board: [...]` line.
fn summary(out: &str) -> (u64, u64, String, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("moves verified: "))
        .unwrap_or_else(|| panic!("no summary line in {out:?}"));
    let mut parts = line.split(", ");
    let num = |p: Option<&str>| -> u64 {
        p.and_then(|p| p.rsplit(": ").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("bad summary line {line:?}"))
    };
    let moves = num(parts.next());
    let divergences = num(parts.next());
    let result = parts
        .next()
        .and_then(|p| p.strip_prefix("result: "))
        .unwrap_or_else(|| panic!("bad summary line {line:?}"))
        .to_string();
    let board = out
        .lines()
        .find_map(|l| l.strip_prefix("board: "))
        .unwrap_or_else(|| panic!("no board line in {out:?}"))
        .to_string();
    (moves, divergences, result, board)
}

/// Both sides of one finished CALC VS CALC game (the first player had 3 rocks per hole): each
/// succeeded and verified every move of the same game with no divergence, the two results
/// agree, and the link lost or gave up nothing on the way.
fn check_game(first: std::process::Output, second: std::process::Output) {
    let fo = String::from_utf8_lossy(&first.stdout).to_string();
    let so = String::from_utf8_lossy(&second.stdout).to_string();
    let fe = String::from_utf8_lossy(&first.stderr);
    let se = String::from_utf8_lossy(&second.stderr);
    assert!(first.status.success(), "first: {fo}\n{fe}");
    assert!(second.status.success(), "second: {so}\n{se}");
    let (fm, fd, fres, fb) = summary(&fo);
    let (sm, sd, sres, sb) = summary(&so);
    assert_eq!((fd, sd), (0, 0), "no divergence");
    assert!(fm > 10, "{fo}");
    assert_eq!(fm, sm, "both verified every move of the same game");
    assert_eq!(fb, sb, "the same final board");
    assert!(fo.contains("player 1, rocks per hole 3"), "{fo}");
    assert!(so.contains("player 2, rocks per hole 3"), "{so}");
    let other = match fres.as_str() {
        "win" => "lose",
        "lose" => "win",
        _ => "tie",
    };
    assert_eq!(sres, other);
    // Nothing was lost or given up on the way, and the Get( polls took one round trip
    // (docs/link.md; `crates/netlink/tests/one_trip.rs` checks the packets of one). A REQ
    // may expire: one that reaches a calculator still computing its move is not taken (spec
    // 1.7.6: only the OS's key wait answers), and the poller's `Get(` ends with L1 unchanged
    // and pulls again.
    for out in [&fo, &so] {
        assert!(out.contains(" expired, 0 cancelled, 0 dropped"), "{out}");
        let one_trip: u64 = out
            .lines()
            .find_map(|l| l.strip_suffix(" Get( in one round trip"))
            .and_then(|l| l.rsplit(", ").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no one-round-trip count in {out}"));
        assert!(one_trip > 0, "{out}");
    }
}

/// One whole CALC VS CALC game between two processes, `delay` ms each way (0: no
/// `--link-delay` at all); the listening process goes first when `listener_first`.
/// One turbo game at a time: two turbo processes per game already fill a 2-core machine, and
/// starving them (several games at once next to other tests) only measures the host.
static GAMES: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn game(delay: u64, listener_first: bool) {
    let _one = GAMES.lock().unwrap_or_else(|e| e.into_inner());
    let dir = rom::temp_dir(&format!("netcvc-{delay}-{listener_first}"));
    let port = free_port().to_string();
    let d = delay.to_string();
    let (lw, cw) = if listener_first {
        ("first", "second")
    } else {
        ("second", "first")
    };
    let side = |mode: &str, who: &str, seed: &str, rocks: &str| {
        let mut c = ti82(&dir, &["run", "--headless", "--no-rom", "--speed", "turbo"]);
        c.args(["--link", mode, &port, "--code", "MANCALA"]);
        if delay > 0 {
            c.args(["--link-delay", &d]);
        }
        c.args(["--play-cvc", who, "--seed", seed, "--rocks", rocks])
            .spawn()
            .unwrap()
    };
    let (lr, cr) = if listener_first {
        ("3", "6")
    } else {
        ("6", "3")
    };
    let listener = side("listen", lw, "7", lr);
    std::thread::sleep(Duration::from_millis(200));
    let connector = side("connect", cw, "8", cr);
    let c = connector.wait_with_output().unwrap();
    let l = listener.wait_with_output().unwrap();
    if listener_first {
        check_game(l, c);
    } else {
        check_game(c, l);
    }
}

#[test]
fn calc_vs_calc_over_the_network_no_delay() {
    game(0, true);
    game(0, false);
}

#[test]
fn calc_vs_calc_over_the_network_50_ms() {
    game(50, false);
    game(50, true);
}

#[test]
fn calc_vs_calc_over_the_network_150_ms() {
    game(150, true);
    game(150, false);
}

// ------------------------------------------------------------------ a ROM peer

/// A built-in calculator of this test, plugged into the network.
struct Side {
    calc: Calc,
    cable: NetCable,
}

impl Side {
    fn new(programs: &[(&str, &str)], port: u16, delay: u64) -> Side {
        let mut calc = Calc::new(BasicFirmware::new());
        let vars: Vec<_> = programs
            .iter()
            .map(|(n, src)| program_var(n, tifiles::tokenize_source(src).unwrap()).unwrap())
            .collect();
        install(calc.ram_mut(), &vars).unwrap();
        calc.hardware_mut().link.enable_log();
        let mut cfg = NetConfig::new(Mode::Connect(([127, 0, 0, 1], port).into()));
        cfg.delay = Delay {
            ms: delay,
            ..Delay::default()
        };
        let cable = NetCable::attach(&mut calc, cfg, Pace::Free).unwrap();
        Side { calc, cable }
    }

    fn run_ms(&mut self, ms: u64) {
        self.cable.run(&mut self.calc, ms * MS);
    }

    /// A calculator at 150 ms whose SND sends `{1,…,n}` as `L1` and shows 5, and whose GT
    /// gets `L1` back and shows 6 + its sum.
    fn lists(port: u16, n: i64) -> Side {
        let send = format!("{}\nSend(L1)\nDisp 5", list_source(n));
        let get = "{9}->L1\nGet(L1)\nDisp 6+sum L1";
        Side::new(&[("SND", &send), ("GT", get)], port, 150)
    }

    /// Waits for the peer, then runs SND to its end.
    #[track_caller]
    fn connect_and_send(&mut self) {
        self.wait_connected();
        self.run_ms(500);
        // Send( a list to the Z80 peer (RTS, ACK, CTS, ACK, DATA, ACK, EOT, ACK).
        self.start("SND");
        assert!(
            self.until_shown("5"),
            "Send( did not finish: {:?}",
            self.text()
        );
    }

    fn wait_connected(&mut self) {
        let start = Instant::now();
        while !self.cable.connected() {
            assert!(start.elapsed() < Duration::from_secs(20), "never connected");
            self.run_ms(5);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn tap(&mut self, k: Key) {
        self.calc.press(k);
        self.run_ms(60);
        self.calc.release(k);
        self.run_ms(60);
    }

    /// CLEAR, PRGM, ▼ to the program, ENTER, ENTER.
    fn start(&mut self, name: &str) {
        let idx = program_names(self.calc.ram())
            .iter()
            .position(|n| n == name.as_bytes())
            .unwrap();
        // A clean home screen, so `until_shown` sees only this run's lines.
        self.tap(Key::Clear);
        self.tap(Key::Prgm);
        for _ in 0..idx {
            self.tap(Key::Down);
        }
        self.tap(Key::Enter);
        self.tap(Key::Enter);
    }

    /// The glass read back as text (trailing blanks cut).
    fn glass(&self) -> Vec<String> {
        let screen = self.calc.lcd();
        tibasic::glass::read(|x, y| screen.pixel(x, y))
            .into_iter()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    fn text(&self) -> Vec<String> {
        self.calc.ram()[0x8F..0x8F + 128]
            .chunks(16)
            .map(|r| tibasic::font::decode(r).trim_end().to_string())
            .collect()
    }

    /// Runs until the home screen's last shown line ends with `mark` (wall limit 60 s).
    fn until_shown(&mut self, mark: &str) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            self.run_ms(50);
            if self.text().iter().any(|l| l.ends_with(mark)) {
                return true;
            }
        }
        false
    }

    /// The DATA packets on this calculator's wire, in order.
    fn data_packets(&self) -> Vec<Vec<u8>> {
        tilink::log::packets_from_levels(self.calc.hardware().link.log())
            .into_iter()
            .filter_map(|p| p.packet.ok())
            .filter(|p| p.cmd == tilink::Command::Data)
            .map(|p| p.data)
            .collect()
    }
}

fn linkproto_rom() -> RomImage {
    let prog = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/machine/tests/roms/linkproto.bin"
    ))
    .unwrap();
    RomImage::from_program(&prog)
}

/// A `ti82` process running the Z80 link-protocol program as its ROM, listening.
fn rom_process(dir: &std::path::Path, port: u16, delay: u64) -> Child {
    rom_command(dir, port, delay).spawn().unwrap()
}

fn rom_command(dir: &std::path::Path, port: u16, delay: u64) -> Command {
    let rom = dir.join("linkproto.rom");
    std::fs::write(&rom, linkproto_rom().bytes()).unwrap();
    let mut c = ti82(dir, &["run", "--headless", "--no-send", "--speed", "real"]);
    c.args(["--rom", rom.to_str().unwrap()])
        .args(["--link", "listen", &port.to_string()])
        .args(["--link-delay", &delay.to_string(), "--wait-ms", "600000"]);
    c
}

/// The Z80 protocol peer as the ROM of another process, 150 ms away, and a built-in
/// calculator connected to it that has `Send(`-ed it an `n`-element list.
fn rom_peer_holding(dir: &std::path::Path, port: u16, n: i64) -> (Child, Side) {
    let peer = rom_process(dir, port, 150);
    let mut me = Side::lists(port, n);
    me.connect_and_send();
    (peer, me)
}

fn stop(mut peer: Child) {
    peer.kill().unwrap();
    let _ = peer.wait();
}

fn list_of(n: i64) -> Vec<Real> {
    (1..=n).map(Real::from_i64).collect()
}

fn list_source(n: i64) -> String {
    let items: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    format!("{{{}}}->L1", items.join(","))
}

#[test]
fn built_in_calculator_and_z80_rom_peer_over_150_ms() {
    let (dir, port) = (rom::temp_dir("netrom"), free_port());
    let (peer, mut me) = rom_peer_holding(&dir, port, 12);
    // Get( it back.
    me.start("GT");
    let want = 6 + 78;
    assert!(
        me.until_shown(&want.to_string()),
        "Get( did not finish: {:?}",
        me.text()
    );
    assert_eq!(read_list(me.calc.ram(), 1), Some(list_of(12)));
    // Byte-exact: the DATA the Z80 stored and sent back is the DATA we sent.
    let data = me.data_packets();
    assert_eq!(data.len(), 2, "{data:?}");
    assert_eq!(data[0], data[1]);
    assert_eq!(data[0].len(), 2 + 12 * 9);
    let s = me.cable.stats();
    assert_eq!((s.expired, s.cancelled, s.dropped), (0, 0, 0), "{s:?}");
    // The Z80 peer's VAR and DATA crossed together: its endpoint played our ACK and CTS.
    assert_eq!(s.one_trip, 1, "{s:?}");
    // The status line's round trip: both sides delay by 150 ms.
    let status = me.cable.status();
    let rtt: u64 = status
        .rsplit("RTT ")
        .next()
        .and_then(|r| r.trim_end_matches(" ms").parse().ok())
        .unwrap_or_else(|| panic!("no RTT in {status:?}"));
    assert!((300..1_000).contains(&rtt), "{status}");
    stop(peer);
}

/// LINK SEND on the built-in calculator (2nd LINK, 2:Prgm…, the program selected, TRANSMIT)
/// puts a program into the Z80 peer of another process 150 ms away; the peer's memory, saved
/// by that process when it is asked to stop, holds the header and the bytes exactly.
#[test]
fn link_send_puts_a_program_into_the_z80_rom_peer_over_150_ms() {
    let (dir, port) = (rom::temp_dir("netprog"), free_port());
    let state = dir.join("peer.state");
    let mut peer = rom_command(&dir, port, 150)
        .args(["--save-state", state.to_str().unwrap()])
        .spawn()
        .unwrap();
    let src = "Disp \"FROM AFAR\"\nFor(I,1,9)\nDisp I²\nEnd";
    let mut me = Side::new(&[("FARPRGM", src)], port, 150);
    let name = tifiles::var::VarName::program("FARPRGM").unwrap();
    let sent = tifiles::vat::read(me.calc.ram(), tifiles::var::VarType::Program, &name)
        .unwrap()
        .unwrap();
    me.wait_connected();
    me.run_ms(500);
    for k in [
        Key::Second,
        Key::XTTheta,
        Key::K2,
        Key::Enter,
        Key::Right,
        Key::K1,
    ] {
        me.tap(k);
    }
    let start = Instant::now();
    while !me.glass().iter().any(|l| l == "Done") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{:?}",
            me.glass()
        );
        me.run_ms(50);
    }
    assert_eq!(me.glass()[0], "FARPRGM     PRGM");
    // Spec 1.7.3 on our wire: VAR, ACK, CTS, ACK, DATA, ACK, EOT, ACK.
    let cmds: Vec<String> = tilink::log::packets_from_levels(me.calc.hardware().link.log())
        .into_iter()
        .filter_map(|p| p.packet.ok().map(|p| p.cmd.to_string()))
        .collect();
    assert_eq!(
        cmds,
        ["VAR", "ACK", "CTS", "ACK", "DATA", "ACK", "EOT", "ACK"]
    );

    // Stop the peer with SIGTERM: it ends its run and writes its state.
    let killed = Command::new("kill")
        .args(["-TERM", &peer.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = Instant::now();
    while peer.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the peer did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut far = Calc::new(ti82_machine::RomFirmware::new(linkproto_rom()));
    far.restore_bytes(&state, &std::fs::read(&state).unwrap())
        .unwrap();
    // The Z80 peer's table (linkproto.asm): NVARS at 8800h, entries at 8900h (the 11-byte
    // header as received, then the data's address), the data from 9000h.
    let ram = far.ram();
    let at = |addr: usize| addr - 0x8000;
    assert_eq!(ram[at(0x8800)], 1, "variables held");
    let header = &ram[at(0x8900)..at(0x8900) + 11];
    assert_eq!(header, sent.header(), "header byte-exact");
    let data_at = u16::from_le_bytes([ram[at(0x890B)], ram[at(0x890C)]]) as usize;
    let bytes = sent.data.to_bytes();
    assert_eq!(
        &ram[at(data_at)..at(data_at) + bytes.len()],
        &bytes[..],
        "data byte-exact"
    );
}

#[test]
fn peer_killed_mid_transfer_then_replaced() {
    let (dir, port) = (rom::temp_dir("netkill"), free_port());
    let (peer, mut me) = rom_peer_holding(&dir, port, 60);
    // Get( the 60 reals back and kill the peer in the middle of the exchange: it has sent its
    // ACK and VAR (our calculator has taken them), and is still clocking out its 542-byte
    // DATA (about a second at real speed) when it dies: the DATA never comes.
    let before = me.cable.stats().delivered;
    me.start("GT");
    let start = Instant::now();
    while me.cable.stats().delivered < before + 2 && start.elapsed() < Duration::from_secs(20) {
        me.run_ms(5);
    }
    assert!(me.cable.stats().delivered >= before + 2, "no VAR came");
    stop(peer);
    // The transfer fails as on a cable: Get( gives up, L1 unchanged; the calculator runs on.
    assert!(
        me.until_shown("15"),
        "Get( did not give up: {:?}",
        me.text()
    );
    assert_eq!(read_list(me.calc.ram(), 1), Some(vec![Real::from_i64(9)]));
    let msgs = me.cable.take_messages();
    assert!(msgs.iter().any(|m| m.contains("unplugged")), "{msgs:?}");
    // A new peer on the same port: the cable plugs itself in again, transfers work.
    let peer = rom_process(&dir, port, 150);
    me.connect_and_send();
    me.start("GT");
    assert!(me.until_shown(&(6 + 1830).to_string()), "{:?}", me.text());
    assert_eq!(read_list(me.calc.ram(), 1), Some(list_of(60)));
    stop(peer);
}

// ------------------------------------------------------------------ refusals

/// Runs a headless connecting process against `addr` and returns (success, stderr).
fn connect_once(dir: &std::path::Path, port: u16, extra: &[&str]) -> (bool, String) {
    let out = ti82(dir, &["run", "--headless", "--no-rom", "--speed", "turbo"])
        .args(["--link", "connect", &port.to_string(), "--wait-ms", "10"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn wrong_session_code_is_refused() {
    let dir = rom::temp_dir("netcode");
    let port = free_port();
    let host = ti82(&dir, &["run", "--headless", "--no-rom", "--speed", "turbo"])
        .args(["--link", "listen", &port.to_string(), "--code", "RIGHT"])
        .args(["--wait-ms", "10"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (ok, err) = connect_once(&dir, port, &["--code", "WRONG"]);
    assert!(!ok);
    assert!(
        err.contains("link refused") && err.contains("wrong session code"),
        "{err}"
    );
    // The listener refused it and still waits for the right peer: a right code connects.
    let (ok, err) = connect_once(&dir, port, &["--code", "RIGHT"]);
    assert!(ok, "{err}");
    let out = host.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fake peer that answers the hello with `reply` and returns what it read.
fn fake_peer(reply: Vec<u8>) -> (u16, std::thread::JoinHandle<Vec<u8>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let h = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(&reply).unwrap();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        got
    });
    (port, h)
}

#[test]
fn wrong_protocol_version_and_strangers_are_refused() {
    let dir = rom::temp_dir("netversion");
    // A peer that speaks version 99: we refuse it, say why, and tell it why.
    let mut hello = vec![1u8];
    hello.extend_from_slice(&wire::MAGIC);
    hello.extend_from_slice(&99u16.to_le_bytes());
    hello.extend_from_slice(&[0x82, 0]);
    let mut frame = (hello.len() as u32).to_le_bytes().to_vec();
    frame.extend_from_slice(&hello);
    let (port, h) = fake_peer(frame);
    let (ok, err) = connect_once(&dir, port, &[]);
    assert!(!ok);
    assert!(
        err.contains("version mismatch") && err.contains("version 99"),
        "{err}"
    );
    let got = h.join().unwrap();
    let mut r = &got[..];
    assert!(matches!(
        wire::read_msg(&mut r),
        Ok(Msg::Hello {
            version: wire::VERSION,
            ..
        })
    ));
    match wire::read_msg(&mut r) {
        Ok(Msg::Refuse { reason }) => assert!(reason.contains("version"), "{reason}"),
        other => panic!("no refusal: {other:?}"),
    }
    // Something that is not a ti82 at all.
    let (port, h) = fake_peer(b"HTTP/1.1 400 Bad Request\r\n\r\n".to_vec());
    let (ok, err) = connect_once(&dir, port, &[]);
    assert!(!ok);
    assert!(err.contains("link refused"), "{err}");
    drop(h.join());
    // A listening ti82 told version 99 answers with a refusal and keeps waiting.
    let port = free_port();
    let host = ti82(&dir, &["run", "--headless", "--no-rom", "--speed", "turbo"])
        .args(["--link", "listen", &port.to_string(), "--wait-ms", "10"])
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut s = loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => break s,
            Err(_) if start.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(50))
            }
            Err(e) => panic!("{e}"),
        }
    };
    let mut hello = vec![1u8];
    hello.extend_from_slice(&wire::MAGIC);
    hello.extend_from_slice(&99u16.to_le_bytes());
    let mut frame = (hello.len() as u32).to_le_bytes().to_vec();
    frame.extend_from_slice(&hello);
    s.write_all(&frame).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = wire::read_msg(&mut s).unwrap(); // its hello
    match wire::read_msg(&mut s) {
        Ok(Msg::Refuse { reason }) => assert!(reason.contains("version 99"), "{reason}"),
        other => panic!("no refusal: {other:?}"),
    }
    drop(s);
    // Still waiting: a proper peer connects.
    let (ok, err) = connect_once(&dir, port, &[]);
    assert!(ok, "{err}");
    let out = host.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ------------------------------------------------------------------ the relay

#[test]
fn calc_vs_calc_through_the_relay() {
    let _one = GAMES.lock().unwrap_or_else(|e| e.into_inner());
    let dir = rom::temp_dir("netrelay");
    let port = free_port().to_string();
    let mut relay = ti82(&dir, &["relay", "--listen", &port]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // A client in another room is never paired with them.
    let mut stranger = ti82(&dir, &["run", "--headless", "--no-rom", "--speed", "turbo"])
        .args(["--link", "relay", &port, "OTHER-room", "--wait-ms", "10"])
        .spawn()
        .unwrap();
    let side = |who: &str, seed: &str| {
        ti82(&dir, &["run", "--headless", "--no-rom", "--speed", "turbo"])
            .args(["--link", "relay", &port, "42-purple-beans"])
            .args(["--play-cvc", who, "--seed", seed, "--rocks", "3"])
            .spawn()
            .unwrap()
    };
    let second = side("second", "7");
    std::thread::sleep(Duration::from_millis(200));
    let first = side("first", "8");
    let f = first.wait_with_output().unwrap();
    let s = second.wait_with_output().unwrap();
    check_game(f, s);
    // The stranger is still waiting in its own room.
    // (Alone, it gives up after its 15 s wait for a peer: never a success.)
    let _ = stranger.kill();
    assert!(
        !stranger.wait().unwrap().success(),
        "the stranger was paired"
    );
    let _ = relay.kill();
    let _ = relay.wait();
}

/// A relay code without its secret part is refused at once, with the form to use.
#[test]
fn a_relay_code_needs_a_secret_part() {
    let dir = rom::temp_dir("netrelaycode");
    let out = ti82(&dir, &["run", "--headless", "--no-rom"])
        .args(["--link", "relay", "5000", "ROOM42", "--wait-ms", "10"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ROOM-SECRET"), "{err}");
}

// ------------------------------------------------------------------ out of descriptors

/// CPU time (user + system) a process has used, from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    let hz = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse::<u64>()
                .ok()
        })
        .unwrap_or(100);
    Duration::from_micros(ticks * 1_000_000 / hz)
}

/// `ti82 ARGS` with at most `fds` open descriptors.
fn ti82_limited(dir: &std::path::Path, fds: u32, args: &str) -> Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n {fds} && exec '{}' {args}",
            env!("CARGO_BIN_EXE_ti82")
        ))
        .env("TI82_HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn open_descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// Connections from `n` different loopback addresses (past any per-address cap), kept open.
fn flood_from_many(port: u16, n: u8) -> Vec<TcpStream> {
    (1..=n)
        .filter_map(|i| {
            let s =
                socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
            s.bind(&std::net::SocketAddr::from(([127, 0, 3, i], 0)).into())
                .ok()?;
            s.connect_timeout(
                &std::net::SocketAddr::from(([127, 0, 0, 1], port)).into(),
                Duration::from_secs(1),
            )
            .ok()?;
            Some(s.into())
        })
        .collect()
}

/// Waits until something accepts on `port`.
fn wait_listening(port: u16) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// CPU used by `pid` over `d` of wall time.
fn cpu_over(pid: u32, d: Duration) -> Duration {
    let before = cpu_time(pid);
    std::thread::sleep(d);
    cpu_time(pid) - before
}

/// Issue item 3: a relay out of file descriptors backs off instead of spinning on `accept`,
/// and pairs players again once descriptors are free.
#[test]
fn a_relay_out_of_descriptors_does_not_spin() {
    let dir = rom::temp_dir("netrelayfd");
    let port = free_port();
    let mut relay = ti82_limited(&dir, 24, &format!("relay --listen {port}"));
    wait_listening(port);
    let flood = flood_from_many(port, 60);
    std::thread::sleep(Duration::from_millis(300));
    let pid = relay.id();
    let used = open_descriptors(pid);
    assert!(
        used >= 23,
        "the relay holds {used} descriptors: not exhausted"
    );
    let cpu = cpu_over(pid, Duration::from_secs(2));
    assert!(
        cpu < Duration::from_millis(300),
        "the relay used {cpu:?} of CPU in 2 s while out of descriptors"
    );
    drop(flood);
    std::thread::sleep(Duration::from_millis(300));
    let cfg = |_| NetConfig::relay(([127, 0, 0, 1], port).into(), "9-fd-test").unwrap();
    let a = netlink::NetHandle::start(cfg(0)).unwrap();
    let b = netlink::NetHandle::start(cfg(1)).unwrap();
    let start = Instant::now();
    while !(a.connected() && b.connected()) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "not paired after the flood: {:?} {:?}",
            a.state(),
            b.state()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = relay.kill();
    let _ = relay.wait();
}

/// Issue item 3 for a listening calculator: out of descriptors it backs off instead of
/// spinning, and still takes its peer once they are free.
#[test]
fn a_listener_out_of_descriptors_does_not_spin() {
    let dir = rom::temp_dir("netlistenfd");
    let port = free_port();
    // A generous limit first, to see what the process needs.
    let mut probe = ti82_limited(
        &dir,
        1024,
        &format!("run --headless --no-rom --fresh --link listen {port} --code FD --wait-ms 10"),
    );
    wait_listening(port);
    std::thread::sleep(Duration::from_millis(300));
    let base = open_descriptors(probe.id());
    let _ = probe.kill();
    let _ = probe.wait();
    assert!(base > 0);
    // Then a limit a handful of pending handshakes exhausts.
    let port = free_port();
    let host = ti82_limited(
        &dir,
        base as u32 + 4,
        &format!("run --headless --no-rom --fresh --link listen {port} --code FD --wait-ms 10"),
    );
    wait_listening(port);
    let flood = flood_from_many(port, 30);
    std::thread::sleep(Duration::from_millis(300));
    let pid = host.id();
    let cpu = cpu_over(pid, Duration::from_secs(2));
    assert!(
        cpu < Duration::from_millis(300),
        "the listener used {cpu:?} of CPU in 2 s while out of descriptors ({} open, base {base})",
        open_descriptors(pid)
    );
    drop(flood);
    // The flood's handshakes end at their deadline; then the real peer gets in.
    let (ok, err) = connect_once(&dir, port, &["--code", "FD"]);
    assert!(ok, "{err}");
    let out = host.wait_with_output().unwrap();
    assert!(out.status.success());
}
