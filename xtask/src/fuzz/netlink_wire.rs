//! The `netlink_wire` target: the network cable's wire protocol (`crates/netlink`, docs/link.md
//! "The network cable"), where a peer process controls every byte.
//!
//! 1. The bytes are a TCP stream. They are read as the network thread reads them
//!    (`wire::read_msg` until the first error), and again through `read_frame` and `decode`
//!    from a reader that hands out one to seven bytes a call, as a socket may. Checks: both
//!    readings agree; the decoder never asks for a buffer over [`MAX_FRAME`] and reads nothing
//!    past a refused length; every frame that decodes re-encodes to the same bytes (the one
//!    exception: a `Hello` of another version decodes to its version alone, and re-encodes
//!    to a hello that decodes to the same message).
//! 2. The messages reach a [`ByteEndpoint`] on the cable of a built-in-runtime calculator that
//!    runs `Get(L1` and then sits on the home screen answering requests, as [`netlink::NetCable`]
//!    hands them over, for [`SESSION`] of emulated time. Checks: no panic, the queue never
//!    holds more than [`MAX_QUEUED`] packets, every far packet is accounted for exactly once
//!    (delivered, expired, dropped or still queued), the counters match the messages sent to
//!    the far side, and afterwards the calculator still runs a program. (On the network these
//!    messages travel sealed; here they stand for what an authenticated peer may send.)
//! 3. The bytes are what a stranger sends a listener ([`stranger`]): frames read as the
//!    handshake reads them (capped at [`MAX_HELLO_FRAME`] until authenticated), the first
//!    given to the PAKE handshake, the rest to the channel's opener. Checks: no panic, no
//!    frame over the cap is taken, our hello does not hold the session code, and nothing the
//!    stranger sends opens: without the code it cannot deliver a message.

use std::collections::HashSet;
use std::io::Read;

use netlink::endpoint::{ByteEndpoint, EndpointStats, Outgoing, MAX_QUEUED};
use netlink::secure::Handshake;
use netlink::wire::{self, FrameReader, Msg, WireError, MAX_FRAME, MAX_HELLO_FRAME};
use ti82_machine::Calc;
use tibasic::firmware::{calc_with_sources, read_list, start_program};
use tibasic::real::Real;
use tilink::{Packet, TimedPort, Timing, VirtualCable, MID_TI82};

use super::MS;

/// Emulated time the peer's messages are played over.
pub const SESSION: u64 = 3_000 * MS;
/// Longest a packet answering one of ours waits for ours to have gone out.
const HOLD: u64 = 1_000 * MS;
/// The network thread's slice (`NetCable` looks at the network every emulated millisecond).
const SLICE: u64 = MS;
/// Longest a far byte may take to go into the calculator after the cable is unplugged: about
/// twice the built-in runtime's pace (2.35 ms a byte; test `byte_pace_is_about_twice_the_runtimes`).
const BYTE_PACE: u64 = 5 * MS;

/// The program the calculator runs when the peer's messages begin: the far side can answer
/// its `Get(`, and then ask the home screen for `L4`.
const GET_PROGRAM: &str = "{5,6}->L4\nGet(L1";
/// The program that proves the calculator still runs afterwards.
const CHECK_PROGRAM: &str = "{1,2,3}->L6";

/// The listener's session code in [`stranger`]; no seed is made with it.
pub const CODE: &str = "7-listeners-secret";
/// The stranger's guess in the seeds.
const GUESS: &str = "7-strangers-guess";
/// The listener's handshake seed (replayable: the fuzzer must see the same hello each run).
const LISTENER_SEED: u64 = 0x7157_E4E2;

pub fn run(bytes: &[u8]) {
    stranger(bytes);
    let msgs = decode_stream(bytes);
    // A bare frame body, as `decode` sees one (the framing limits bodies to MAX_FRAME bytes).
    if bytes.len() <= MAX_FRAME {
        if let Ok(m) = wire::decode(bytes) {
            round_trip(bytes, &m);
        }
    }
    if msgs.iter().any(|m| {
        matches!(
            m,
            Msg::Packet { .. } | Msg::Expired { .. } | Msg::Cancel { .. }
        )
    }) {
        let s = session(&msgs);
        still_runs(s.calc);
    }
}

// ------------------------------------------------------------------------- the handshake

/// The listener's hello in [`stranger`].
pub fn listener_hello() -> Msg {
    Handshake::start_seeded(CODE, "", wire::VERSION, LISTENER_SEED).1
}

/// A listener's handshake against a stranger who sends `bytes`; returns how many frames it
/// took (the tests look).
pub fn stranger(bytes: &[u8]) -> usize {
    let (hs, hello) = Handshake::start_seeded(CODE, "", wire::VERSION, LISTENER_SEED);
    let sent = wire::encode(&hello);
    assert!(
        !sent.windows(CODE.len()).any(|w| w == CODE.as_bytes()),
        "the hello holds the code"
    );
    let mut r = bytes;
    let mut fr = FrameReader::new(MAX_HELLO_FRAME);
    let Ok(first) = fr.next(&mut r) else {
        return 0;
    };
    assert!(first.len() <= MAX_HELLO_FRAME);
    let Ok(mut channel) = hs.finish(&first) else {
        return 1;
    };
    let _ = channel.confirm();
    let mut taken = 1;
    while let Ok(body) = fr.next(&mut r) {
        assert!(body.len() <= MAX_HELLO_FRAME);
        taken += 1;
        if let Ok(m) = channel.opener.open(&body) {
            panic!("a stranger's frame opened without the code: {m:?}");
        }
    }
    taken
}

/// A peer who knows `code`: its hello, its confirmation and a packet, sealed with the key
/// that code gives against the listener's hello. The seeds use [`GUESS`], a stranger's.
fn peer_bytes(code: &str) -> Vec<u8> {
    let (hs, hello) = Handshake::start_seeded(code, "", wire::VERSION, 0x5EED);
    let mut out = wire::encode(&hello);
    let theirs = wire::encode(&listener_hello());
    let Ok(mut ch) = hs.finish(&theirs[4..]) else {
        unreachable!("a well-formed hello")
    };
    out.extend(ch.confirm());
    out.extend(ch.sealer.seal(&far(1, 0, Packet::ack(MID_TI82))));
    out.extend(ch.sealer.seal(&Msg::Bye));
    out
}

// ------------------------------------------------------------------------- decoding

/// A stream that hands out one to seven bytes a call, as a socket may, and records the
/// largest buffer it was asked to fill. `read_frame` reads each body into the buffer it has
/// just allocated for it, so that is the largest allocation the decoder made.
struct Probe<'a> {
    rest: &'a [u8],
    step: usize,
    largest: usize,
}

impl Read for Probe<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.step = self.step % 7 + 1;
        let n = buf.len().min(self.rest.len()).min(self.step);
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// The messages the network thread takes from `bytes`, checking the decoder on the way.
pub fn decode_stream(bytes: &[u8]) -> Vec<Msg> {
    let mut whole = bytes;
    let mut probe = Probe {
        rest: bytes,
        step: bytes.len(),
        largest: 0,
    };
    let mut msgs = Vec::new();
    loop {
        // As the network thread reads a socket.
        let got = wire::read_msg(&mut whole);
        // The same bytes a few at a time, frame then body.
        probe.largest = 0;
        let before = probe.rest.len();
        let frame = wire::read_frame(&mut probe);
        assert!(
            probe.largest <= MAX_FRAME,
            "the decoder asked for a {}-byte buffer (limit {MAX_FRAME})",
            probe.largest
        );
        let body = match frame {
            Ok(b) => b,
            Err(WireError::TooLong(n)) => {
                assert!(n > MAX_FRAME, "{n} bytes refused as too long");
                assert!(
                    probe.largest <= 4 && before - probe.rest.len() == 4,
                    "read past a refused length"
                );
                assert!(
                    matches!(got, Err(WireError::TooLong(m)) if m == n),
                    "read_msg: {got:?}"
                );
                break;
            }
            Err(WireError::Io(e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof, "{e}");
                assert!(
                    matches!(&got, Err(WireError::Io(g)) if g.kind() == e.kind()),
                    "read_msg: {got:?}"
                );
                break;
            }
            Err(e) => panic!("read_frame: {e}"),
        };
        assert!(body.len() <= MAX_FRAME);
        assert_eq!(before - probe.rest.len(), 4 + body.len(), "frame length");
        let decoded = wire::decode(&body);
        match (&got, &decoded) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "read_msg and decode disagree"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("read_msg {got:?}, decode {decoded:?}"),
        }
        let Ok(m) = decoded else {
            break;
        };
        round_trip(&body, &m);
        msgs.push(m);
    }
    msgs
}

/// A decoded body re-encodes to the same frame. A `Hello` of another version is read as its
/// version alone (the rest may be laid out differently in that version): it re-encodes with
/// the same type, magic and version, and that frame decodes to the same message.
fn round_trip(body: &[u8], m: &Msg) {
    let frame = wire::encode(m);
    let n = frame.len() - 4;
    assert!(n <= MAX_FRAME, "encoded a {n}-byte frame");
    assert_eq!(frame[..4], (n as u32).to_le_bytes(), "length prefix");
    match m {
        Msg::Hello { version, .. } if *version != wire::VERSION => {
            assert_eq!(frame[4..15], body[..11], "hello of version {version}");
            assert_eq!(wire::decode(&frame[4..]).ok().as_ref(), Some(m));
        }
        _ => assert!(frame[4..] == *body, "{m:?} re-encodes differently"),
    }
}

// ------------------------------------------------------------------------- the endpoint

/// What a session left (the tests look at all of it).
#[cfg_attr(not(test), allow(dead_code))]
pub struct Session {
    pub calc: Calc,
    pub stats: EndpointStats,
    /// The far packets handed to the endpoint.
    pub given: u64,
    /// What the endpoint sent to the far side.
    pub outgoing: Vec<Outgoing>,
}

/// A calculator with the two programs, running [`GET_PROGRAM`].
fn calculator() -> Calc {
    let mut calc = calc_with_sources(&[("G", GET_PROGRAM), ("C", CHECK_PROGRAM)])
        .expect("the fuzz programs install");
    calc.run_for(20 * MS);
    start_program(&mut calc, "G").expect("program G");
    calc
}

/// The endpoint's ledger, checked after every step.
#[derive(Default)]
struct Ledger {
    given: u64,
    /// Bytes of the far packets given.
    given_bytes: u64,
    far_seqs: HashSet<u32>,
    sent: Vec<u32>,
    outgoing: Vec<Outgoing>,
}

impl Ledger {
    fn take(&mut self, ep: &mut ByteEndpoint) {
        for o in ep.take_outgoing() {
            match &o {
                Outgoing::Packet {
                    seq,
                    reply_to,
                    bytes,
                } => {
                    assert_eq!(*seq as usize, self.sent.len() + 1, "sequence numbers");
                    self.sent.push(*seq);
                    assert!(
                        *reply_to == 0 || self.far_seqs.contains(reply_to),
                        "reply_to {reply_to} names no far packet"
                    );
                    let parsed = Packet::parse(bytes).map(|(_, used)| used);
                    assert_eq!(parsed, Ok(bytes.len()), "forwarded bytes are one packet");
                }
                Outgoing::Expired { seq } => {
                    assert!(self.far_seqs.contains(seq), "expired {seq}: never given")
                }
                Outgoing::Cancel { seq } => {
                    assert!(self.sent.contains(seq), "cancel {seq}: never sent")
                }
            }
            self.outgoing.push(o);
        }
    }

    fn check(&self, ep: &ByteEndpoint) {
        let s = ep.stats();
        assert!(ep.queued() <= MAX_QUEUED, "{} packets queued", ep.queued());
        assert_eq!(
            self.given,
            s.delivered + s.expired + s.dropped + ep.queued() as u64,
            "far packets unaccounted for: {s:?}, {} queued",
            ep.queued()
        );
        let count = |f: fn(&Outgoing) -> bool| self.outgoing.iter().filter(|o| f(o)).count() as u64;
        assert_eq!(
            s.sent,
            count(|o| matches!(o, Outgoing::Packet { .. })),
            "sent"
        );
        assert_eq!(
            s.expired,
            count(|o| matches!(o, Outgoing::Expired { .. })),
            "expired"
        );
        assert_eq!(
            s.cancelled,
            count(|o| matches!(o, Outgoing::Cancel { .. })),
            "cancelled"
        );
    }
}

/// Plays `msgs` into an endpoint on a calculator's cable as `NetCable` hands them over: in
/// order, every message that has arrived before each 1 ms slice. A `Ping { id }` stands for
/// `id % 1024` ms of silence before the next message; a packet answering one of ours
/// (`reply_to`) waits until ours has gone out (a peer cannot answer what it has not heard),
/// at most [`HOLD`]; `Bye` unplugs the cable (the network thread ends the connection there).
/// A stream that just ends leaves the connection open and silent; the cable is unplugged
/// at the end of the session.
pub fn session(msgs: &[Msg]) -> Session {
    let mut calc = calculator();
    let mut cable = VirtualCable::attach(&mut calc, netlink::cable::LOCAL_LATENCY);
    let mut ep = ByteEndpoint::new(Timing::default());
    let mut ledger = Ledger::default();
    let end = calc.now() + SESSION;
    let mut next_at = calc.now();
    let mut held_since: Option<u64> = None;
    let mut i = 0;
    let mut plugged = true;
    while calc.now() < end {
        let now = calc.now();
        while let Some(m) = msgs.get(i).filter(|_| plugged && now >= next_at) {
            match m {
                Msg::Packet {
                    seq,
                    reply_to,
                    bytes,
                } => {
                    let heard = *reply_to as usize <= ledger.sent.len();
                    let since = *held_since.get_or_insert(now);
                    if !heard && now < since + HOLD {
                        break;
                    }
                    held_since = None;
                    ledger.given += 1;
                    ledger.given_bytes += bytes.len() as u64;
                    ledger.far_seqs.insert(*seq);
                    ep.packet(*seq, *reply_to, bytes.clone());
                }
                Msg::Expired { seq } => ep.expired(*seq),
                Msg::Cancel { seq } => {
                    let t = cable.now();
                    ep.cancel(*seq, &mut TimedPort::new(cable.port(), t));
                }
                Msg::Ping { id } => next_at = now + u64::from(id % 1024) * MS,
                Msg::Bye => {
                    let t = cable.now();
                    ep.unplugged(&mut TimedPort::new(cable.port(), t));
                    plugged = false;
                }
                Msg::Hello { .. } | Msg::Refuse { .. } | Msg::Pong { .. } | Msg::Confirm => {}
            }
            i += 1;
            ledger.check(&ep);
        }
        let until = end.min(now + SLICE);
        cable.run(&mut calc, until, |p| ep.poll(p));
        ledger.take(&mut ep);
        ledger.check(&ep);
    }
    let t = cable.now();
    ep.unplugged(&mut TimedPort::new(cable.port(), t));
    // What stays (answers to our calculator's own request that arrived whole) goes in at the
    // calculator's pace, then the endpoint is quiet: within a step timeout while the
    // calculator owes a packet, one more for a first bit it never takes, the reply timeout of
    // an answer it then awaits, and BYTE_PACE a byte, with 100 ms for the endpoint's own
    // reaction delays.
    let tm = Timing::default();
    let deadline =
        t + 2 * tm.step_timeout + tm.reply_timeout + ledger.given_bytes * BYTE_PACE + 100 * MS;
    loop {
        let now = cable.now();
        cable.run(&mut calc, now + 10 * SLICE, |p| ep.poll(p));
        ledger.take(&mut ep);
        ledger.check(&ep);
        if (ep.queued() == 0 && !ep.awaiting()) || cable.now() >= deadline {
            break;
        }
    }
    assert_eq!(ep.queued(), 0, "queued after the cable was unplugged");
    assert!(!ep.awaiting(), "awaiting after the cable was unplugged");
    cable.detach(&mut calc);
    Session {
        calc,
        stats: ep.stats(),
        given: ledger.given,
        outgoing: ledger.outgoing,
    }
}

/// Longest a program can wait after the cable is unplugged: a silent exchange the home screen
/// was serving holds the program back until it ends (the OS's link routine runs it to its end),
/// and with the far side gone, perhaps in the middle of a byte, it ends at its longest TI
/// timeout (spec 2.3, 1.7.8: about 2 s), after which the holder waits for quiet lines.
fn recovery_time() -> u64 {
    let t = Timing::default();
    t.step_timeout.max(t.byte_timeout).max(t.reply_timeout) + t.resync_quiet
}

/// Whatever the peer did, the calculator still runs: ON breaks a program that still waits,
/// and a program started from the PRGM menu stores its list, at the latest once a silent
/// exchange left unfinished has timed out ([`recovery_time`]) plus 100 ms to run.
fn still_runs(mut calc: Calc) {
    run_program_c(&mut calc, recovery_time() + 100 * MS);
    assert_eq!(
        read_list(calc.ram(), 6),
        Some(reals(&[1, 2, 3])),
        "the calculator ran program C within {} ms",
        (recovery_time() + 100 * MS) / MS
    );
}

/// Presses ON (breaking a program that still waits), starts [`CHECK_PROGRAM`] from the PRGM
/// menu and runs until it has stored `L6`, at most `limit`: the time that took.
fn run_program_c(calc: &mut Calc, limit: u64) -> u64 {
    super::pulse_on(calc);
    start_program(calc, "C").expect("program C is still there");
    let start = calc.now();
    while calc.now() < start + limit && read_list(calc.ram(), 6).is_none() {
        calc.run_for(10 * MS);
    }
    calc.now() - start
}

fn reals(v: &[i64]) -> Vec<Real> {
    v.iter().map(|&x| Real::from_i64(x)).collect()
}

// ------------------------------------------------------------------------- seeds

fn frames(msgs: &[Msg]) -> Vec<u8> {
    msgs.iter().flat_map(wire::encode).collect()
}

/// A stranger's hello (its guess keys it).
fn hello() -> Msg {
    Handshake::start_seeded(GUESS, "", wire::VERSION, 0x5EED).1
}

fn far(seq: u32, reply_to: u32, p: Packet) -> Msg {
    Msg::Packet {
        seq,
        reply_to,
        bytes: p.to_bytes(),
    }
}

fn list_var(n: u8, values: &[i64]) -> (tifiles::var::Header, Vec<u8>) {
    use tifiles::var::{Header, VarData, VarName, Variable};
    let var = Variable {
        name: VarName::list(n).expect("a list name"),
        data: VarData::List(
            values
                .iter()
                .map(|&v| tifiles::float::TiFloat::from_i64(v))
                .collect(),
        ),
    };
    let data = var.data.to_bytes();
    let header = Header::Var {
        size: data.len() as u16,
        ty: var.var_type(),
        name: var.name,
    };
    (header, data)
}

/// The far calculator's side of the calculator's `Get(L1` (spec 1.7.6: REQ → ACK → VAR →
/// ACK → CTS → ACK → DATA → ACK, in one round trip: the far endpoint played our ACK and CTS
/// and our endpoint keeps them, docs/link.md), then its own request for `L4` from the home
/// screen, which our endpoint answers the same way. Our calculator's forwarded packets are
/// numbered 1 (REQ), then 2 (ACK), 3 (VAR), 4 (ACK), 5 (DATA); the far side's all answer
/// our REQ (reply_to 1), the last packet of ours it took.
pub fn get_exchange() -> Vec<Msg> {
    let (h1, d1) = list_var(1, &[7, 8, 9]);
    let (h4, _) = list_var(4, &[]);
    let tifiles::var::Header::Var { ty, name, .. } = h4 else {
        unreachable!("a variable header")
    };
    vec![
        hello(),
        far(1, 1, Packet::ack(MID_TI82)),
        far(2, 1, Packet::var(MID_TI82, &h1)),
        far(3, 1, Packet::ack(MID_TI82)),
        far(4, 1, Packet::data(MID_TI82, d1)),
        Msg::Ping { id: 200 },
        far(5, 1, Packet::req(MID_TI82, ty, name)),
        Msg::Ping { id: 7 },
        Msg::Pong { id: 7 },
    ]
}

pub fn seeds() -> Vec<Vec<u8>> {
    let exchange = get_exchange();
    // The far side answers the REQ and then goes quiet: our calculator gives up (Cancel), the
    // late VAR is dropped, and the peer expires and cancels things.
    let given_up = vec![
        hello(),
        exchange[1].clone(),
        Msg::Ping { id: 1000 },
        Msg::Ping { id: 1000 },
        Msg::Ping { id: 300 },
        exchange[2].clone(),
        Msg::Expired { seq: 1 },
        Msg::Cancel { seq: 2 },
        Msg::Bye,
    ];
    // The variable is missing: SKIP/EXIT, then the peer says goodbye.
    let missing = vec![
        hello(),
        exchange[1].clone(),
        far(2, 1, Packet::skip(MID_TI82, tilink::packet::REJECT_EXIT)),
        Msg::Ping { id: 100 },
        Msg::Bye,
    ];
    vec![
        frames(&exchange),
        frames(&given_up),
        frames(&missing),
        peer_bytes(GUESS),
    ]
}

// ------------------------------------------------------------------------- corpus

/// The checked-in corpus (`xtask/fuzz/corpus/netlink_wire/`): edge cases made with the
/// encoder. `BLESS=1 cargo test -p xtask netlink_wire` rewrites the files.
#[cfg(test)]
pub fn corpus() -> Vec<(&'static str, Vec<u8>)> {
    let ack = |seq: u32| far(seq, 0, Packet::ack(MID_TI82));
    let mut flood = vec![hello()];
    flood.extend((1..=(MAX_QUEUED as u32 + 16)).map(ack));
    flood.push(Msg::Ping { id: 500 });
    flood.extend((1..=(MAX_QUEUED as u32 + 16)).map(|s| Msg::Cancel { seq: s }));

    let too_long = {
        let mut v = frames(&[hello(), ack(1)]);
        v.extend(((MAX_FRAME + 1) as u32).to_le_bytes());
        v.extend([3; 64]);
        v
    };
    let huge_length = {
        let mut v = frames(&[hello()]);
        v.extend(u32::MAX.to_le_bytes());
        v
    };
    // The longest frame: a DATA packet with 65 535 bytes of data, then bytes up to the limit.
    let largest = {
        let mut bytes = Packet::data(MID_TI82, vec![0x5A; tilink::packet::MAX_DATA]).to_bytes();
        bytes.resize(wire::MAX_PACKET, 0xA5);
        frames(&[
            hello(),
            far(1, 0, Packet::ack(MID_TI82)),
            Msg::Packet {
                seq: 2,
                reply_to: 0,
                bytes,
            },
        ])
    };
    // A long packet cancelled while it is being clocked in, then one after it.
    let cancel_mid = frames(&[
        hello(),
        far(9, 0, Packet::data(MID_TI82, (0..=255).collect())),
        Msg::Ping { id: 60 },
        Msg::Cancel { seq: 9 },
        ack(10),
    ]);
    // Seqs and reply_tos at their limits, expiries and cancels of nothing.
    let odd_numbers = frames(&[
        hello(),
        Msg::Expired { seq: 0 },
        Msg::Expired { seq: u32::MAX },
        Msg::Cancel { seq: 0 },
        far(u32::MAX, u32::MAX, Packet::ack(MID_TI82)),
        far(0, 0, Packet::cts(MID_TI82)),
        far(0, 0, Packet::eot(MID_TI82)),
        Msg::Ping { id: u32::MAX },
    ]);
    // Another version's hello (only its version is read), a refusal, then more after Bye.
    let other_version = {
        let mut v = vec![1];
        v.extend(wire::MAGIC);
        v.extend(4u16.to_le_bytes());
        v.extend(b"a longer hello of a later version");
        let mut f = (v.len() as u32).to_le_bytes().to_vec();
        f.extend(v);
        f.extend(frames(&[
            Msg::Refuse {
                reason: "é".repeat(100),
            },
            ack(1),
            Msg::Bye,
            ack(2),
        ]));
        f
    };
    vec![
        ("flood.bin", frames(&flood)),
        ("too-long.bin", too_long),
        ("huge-length.bin", huge_length),
        ("largest-frame.bin", largest),
        ("cancel-mid-packet.bin", cancel_mid),
        ("odd-numbers.bin", odd_numbers),
        ("other-version.bin", other_version),
    ]
}

#[cfg(test)]
pub fn corpus_dir() -> std::path::PathBuf {
    super::dir("corpus", "netlink_wire")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stranger's hello is taken and its frames are read, but none opens.
    #[test]
    fn a_stranger_who_guessed_wrong_delivers_nothing() {
        assert_eq!(stranger(&peer_bytes(GUESS)), 4);
    }

    /// The check is not vacuous: a peer who knows the code gets its frames opened.
    #[test]
    #[should_panic(expected = "opened without the code")]
    fn the_stranger_check_catches_a_peer_who_knows_the_code() {
        stranger(&peer_bytes(CODE));
    }

    /// The checked-in corpus is what [`corpus`] makes (`BLESS=1` rewrites it).
    #[test]
    fn netlink_wire_corpus_is_current() {
        let d = corpus_dir();
        let bless = std::env::var_os("BLESS").is_some();
        if bless {
            std::fs::create_dir_all(&d).unwrap();
        }
        for (name, bytes) in corpus() {
            let p = d.join(name);
            if bless {
                std::fs::write(&p, &bytes).unwrap();
            } else {
                let on_disk = std::fs::read(&p).unwrap_or_default();
                assert!(
                    on_disk == bytes,
                    "{} is out of date: BLESS=1 cargo test -p xtask netlink_wire",
                    p.display()
                );
            }
        }
    }

    /// The seed exchange is a real one (it reaches deep): the calculator's `Get(L1` receives
    /// the far side's list, and its home screen answers the far side's request for `L4`.
    #[test]
    fn the_get_seed_completes_both_exchanges() {
        let s = session(&get_exchange());
        assert_eq!(read_list(s.calc.ram(), 1), Some(reals(&[7, 8, 9])));
        assert_eq!(s.given, 5);
        assert_eq!(s.stats.delivered, 5, "{:?}", s.stats);
        assert_eq!(s.stats.one_trip, 2, "{:?}", s.stats);
        // Our side forwards REQ, then ACK VAR ACK DATA (with L4's {5,6}); its ACK and CTS of
        // the far VAR and its ACK of the far DATA stay with our endpoint.
        let cmds: Vec<_> = s
            .outgoing
            .iter()
            .filter_map(|o| match o {
                Outgoing::Packet { bytes, .. } => Packet::parse(bytes).ok().map(|p| p.0.cmd),
                _ => None,
            })
            .collect();
        use tilink::Command as C;
        assert_eq!(cmds, [C::Req, C::Ack, C::Var, C::Ack, C::Data]);
        assert_eq!(s.stats.expired + s.stats.cancelled + s.stats.dropped, 0);
    }

    /// A peer that answers `Get(`'s REQ and then nothing: our calculator gives up and the
    /// endpoint says so (Cancel); the late VAR is dropped, not delivered.
    #[test]
    fn a_silent_peer_is_cancelled_and_its_late_answer_dropped() {
        let msgs = decode_stream(&seeds()[1]);
        let s = session(&msgs);
        assert_eq!(s.stats.cancelled, 1, "{:?}", s.stats);
        assert!(s.outgoing.contains(&Outgoing::Cancel { seq: 1 }));
        assert_eq!(s.stats.delivered, 1);
        assert_eq!(s.stats.dropped, 1);
        still_runs(s.calc);
    }

    /// Reading stops at a refused length (after the frames before it) and at a cut frame;
    /// another version's hello is read as its version alone.
    #[test]
    fn decoding_stops_where_the_network_thread_does() {
        let c: std::collections::HashMap<_, _> = corpus().into_iter().collect();
        let ack = far(1, 0, Packet::ack(MID_TI82));
        assert_eq!(decode_stream(&c["too-long.bin"]), [hello(), ack.clone()]);
        assert_eq!(decode_stream(&c["huge-length.bin"]), [hello()]);
        let whole = frames(&[hello(), ack.clone()]);
        assert_eq!(decode_stream(&whole[..whole.len() - 1]), [hello()]);
        let v = decode_stream(&c["other-version.bin"]);
        assert_eq!(
            v[0],
            Msg::Hello {
                version: 4,
                model: 0,
                room: String::new(),
                pake: Vec::new(),
            }
        );
        assert_eq!(v.len(), 5);
        assert_eq!(decode_stream(&c["largest-frame.bin"]).len(), 3);
    }

    /// The probe sees an allocation made before the length check: a reader that sized its
    /// buffer from the announced length would be caught.
    #[test]
    fn the_probe_sees_a_buffer_sized_before_the_check() {
        let announced = 1 << 20;
        let mut input = (announced as u32).to_le_bytes().to_vec();
        input.extend([8; 16]);
        let mut probe = Probe {
            rest: &input,
            step: 0,
            largest: 0,
        };
        let mut len = [0u8; 4];
        probe.read_exact(&mut len).unwrap();
        let mut careless = vec![0u8; u32::from_le_bytes(len) as usize];
        let _ = probe.read_exact(&mut careless);
        assert_eq!(probe.largest, announced);
        assert!(probe.largest > MAX_FRAME);
        // The real reader refuses first.
        let mut probe = Probe {
            rest: &input,
            step: 0,
            largest: 0,
        };
        assert!(matches!(
            wire::read_frame(&mut probe),
            Err(WireError::TooLong(n)) if n == announced
        ));
        assert_eq!(probe.largest, 4);
    }

    /// A far packet cut off in the middle of a byte when the cable goes leaves the home
    /// screen's silent exchange unfinished: a program started then waits until that exchange
    /// times out, and runs within [`recovery_time`]. `still_runs` once allowed 100 ms; a
    /// libFuzzer finding (now in `crashes/netlink_wire/`) failed it that way.
    #[test]
    fn a_program_waits_for_an_exchange_the_unplugged_peer_left() {
        let mut msgs = get_exchange();
        // A packet too long to be clocked in before the session ends, when the cable goes.
        let long = Packet::data(MID_TI82, vec![0x5A; tilink::packet::MAX_DATA]);
        msgs.extend([Msg::Ping { id: 300 }, far(6, 0, long)]);
        let s = session(&msgs);
        assert_eq!(read_list(s.calc.ram(), 1), Some(reals(&[7, 8, 9])));
        let mut calc = s.calc;
        let took = run_program_c(&mut calc, 2 * recovery_time());
        assert!(read_list(calc.ram(), 6).is_some(), "program C never ran");
        assert!(
            took > 100 * MS,
            "ran after {} ms: nothing held it",
            took / MS
        );
        assert!(took <= recovery_time(), "ran after {} ms", took / MS);
    }

    /// [`BYTE_PACE`] is about twice the built-in runtime's pace: a 10,000-byte packet goes into
    /// a calculator at the home screen in 12.5–25 s (2.35 ms a byte when this was written). A
    /// regression check on our runtime's link speed, which no source here gives for a real
    /// TI-82; it keeps the bound honest if that speed changes.
    #[test]
    fn byte_pace_is_about_twice_the_runtimes() {
        let mut calc = calc_with_sources(&[("C", CHECK_PROGRAM)]).unwrap();
        calc.run_for(20 * MS);
        let mut cable = VirtualCable::attach(&mut calc, netlink::cable::LOCAL_LATENCY);
        let mut ep = ByteEndpoint::new(Timing::default());
        let n = 10_000;
        ep.packet(1, 0, Packet::data(MID_TI82, vec![0x5A; n]).to_bytes());
        let start = cable.now();
        while ep.stats().delivered == 0 && cable.now() < start + n as u64 * BYTE_PACE {
            let now = cable.now();
            cable.run(&mut calc, now + 10 * SLICE, |p| ep.poll(p));
        }
        let took = cable.now() - start;
        assert_eq!(ep.stats().delivered, 1, "{:?}", ep.stats());
        let per_byte_us = took * 1000 / MS / n as u64;
        let pace_us = BYTE_PACE * 1000 / MS;
        assert!(
            (pace_us / 4..=pace_us / 2).contains(&per_byte_us),
            "{per_byte_us} µs a byte"
        );
    }

    #[test]
    fn the_flood_is_capped_at_max_queued() {
        let (_, flood) = corpus()
            .into_iter()
            .find(|(n, _)| *n == "flood.bin")
            .unwrap();
        let msgs = decode_stream(&flood);
        let s = session(&msgs);
        assert_eq!(s.given, MAX_QUEUED as u64 + 16);
        assert!(s.stats.dropped >= 16, "{:?}", s.stats);
    }
}
