//! Transfer sequences end to end over emulated wires: golden packet streams from the spec's
//! examples, requester/holder both ways between two calculators, a virtual computer on a
//! calculator's cable, timeouts, vanishing peers, checksum errors and resends.

mod common;
use common::*;

use std::sync::{Arc, Mutex};

use machine::cable::{self, DEFAULT_LATENCY};
use machine::link::LinkPort;
use tifiles::var::{Header, VarData, VarName, VarType, Variable};
use tifiles::{vat, Backup, TiFloat};
use tilink::log::{format_log, packets_from_levels, packets_from_records, Side};
use tilink::packet::{Packet, REJECT_EXIT};
use tilink::seq::{Decision, HolderEvent, HolderPoll, Progress, RamVars, VarSource};
use tilink::transport::T_PER_SECOND;
use tilink::{
    ByteEvent, ByteTransport, Dir, DirectCable, Holder, LinkError, ReceiveVars, Requester,
    Screenshot, SendVars, TimedPort, Timing, VirtualCable, Wake, MID_COMPUTER, MID_TI82,
};

fn real(letter: char, text: &str) -> Variable {
    Variable {
        name: VarName::real(letter).unwrap(),
        data: VarData::Real(text.parse().unwrap()),
    }
}

/// Polls a finite sequence and stores its result.
macro_rules! side {
    ($seq:expr, $out:expr) => {
        |ep: &mut TimedPort| match $seq.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                if $out.is_none() {
                    $out = Some(r);
                }
                Wake::NEVER
            }
        }
    };
}

/// The packets of a transfer as the given side recorded them: (direction, bytes).
fn stream(records: &[tilink::ByteRecord]) -> Vec<(Dir, Vec<u8>)> {
    packets_from_records(records)
        .into_iter()
        .map(|p| match p.side {
            Side::Known(d) => (d, p.bytes),
            s => panic!("{s:?}"),
        })
        .collect()
}

fn listing(lines: &[(&str, &str)], me: &str) -> Vec<(Dir, Vec<u8>)> {
    lines
        .iter()
        .map(|(who, b)| {
            let d = if *who == me { Dir::Sent } else { Dir::Received };
            (d, hex(b))
        })
        .collect()
}

#[test]
fn golden_send_real_a_to_receiving_ti() {
    // Spec 1.7.1 worked example, byte for byte.
    let mut cable = DirectCable::new(30);
    let mut pc = SendVars::new(MID_COMPUTER, Timing::default(), &[real('A', "-2")]);
    let mut ti = ReceiveVars::new(MID_TI82, Timing::default());
    pc.link_mut().record_bytes(true);
    let (mut rp, mut rt) = (None, None);
    cable.run(u64::MAX / 2, side!(pc, rp), side!(ti, rt));
    let report = rp.unwrap().unwrap();
    assert_eq!(report.sent, [0]);
    let got = rt.unwrap().unwrap();
    assert_eq!(got.vars, [real('A', "-2")]);
    let want = listing(
        &[
            ("PC", "02 06 0B 00 09 00 00 41 00 00 00 00 00 00 00 4A 00"),
            ("TI", "82 56 00 00"),
            ("TI", "82 09 00 00"),
            ("PC", "02 56 00 00"),
            ("PC", "02 15 09 00 80 80 20 00 00 00 00 00 00 20 01"),
            ("TI", "82 56 00 00"),
            ("PC", "02 92 00 00"),
            ("TI", "82 56 00 00"),
        ],
        "PC",
    );
    assert_eq!(stream(pc.link().records()), want);
}

#[test]
fn golden_req_exchange() {
    // Spec 1.7.6 example: a computer asks an idle TI-82 for real A.
    let mut cable = DirectCable::new(30);
    let mut pc = Requester::new(
        MID_COMPUTER,
        Timing::default(),
        VarType::Real,
        VarName::real('A').unwrap(),
    );
    pc.link_mut().record_bytes(true);
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![real('A', "1.2563478852555")];
    let mut events = Vec::new();
    let mut got = None;
    cable.run(u64::MAX / 2, side!(pc, got), |ep| {
        match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                events.push(e);
                Wake::at(ep.now + 1)
            }
        }
    });
    assert_eq!(got.unwrap().unwrap(), real('A', "1.2563478852555"));
    assert_eq!(
        events,
        [HolderEvent::Served {
            ty: VarType::Real,
            name: VarName::real('A').unwrap()
        }]
    );
    let want = listing(
        &[
            ("PC", "02 A2 0B 00 00 00 00 41 00 00 00 00 00 00 00 41 00"),
            ("TI", "82 56 00 00"),
            ("TI", "82 06 0B 00 09 00 00 41 00 00 00 00 00 00 00 4A 00"),
            ("PC", "02 56 00 00"),
            ("PC", "02 09 00 00"),
            ("TI", "82 56 00 00"),
            ("TI", "82 15 09 00 00 80 12 56 34 78 85 25 55 93 02"),
            ("PC", "02 56 00 00"),
        ],
        "PC",
    );
    assert_eq!(stream(pc.link().records()), want);
}

#[test]
fn a_listening_holder_is_busy_only_once_a_packet_starts() {
    // A firmware keeps polling its holder outside the OS's key wait only while an exchange is
    // under way (spec 1.7.6: a TI-82 answers REQ only from its key-wait routine). Listening on
    // quiet wires, however often polled, is not an exchange.
    let mut cable = DirectCable::new(30);
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![real('A', "2")];
    let mut events = Vec::new();
    let quiet = T_PER_SECOND / 10;
    cable.run(
        quiet,
        |_| Wake::NEVER,
        |ep| match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w.min(Wake::at(ep.now + 1_000)),
            HolderPoll::Event(e) => panic!("nothing was asked: {e:?}"),
        },
    );
    assert!(
        !holder.is_busy(),
        "a holder listening on quiet wires is idle"
    );

    // A requester starts: from the first bit the holder sees, the exchange is under way.
    let mut pc = Requester::new(
        MID_COMPUTER,
        Timing::default(),
        VarType::Real,
        VarName::real('A').unwrap(),
    );
    let mut got = None;
    let mut busy_from = None;
    cable.run(u64::MAX / 2, side!(pc, got), |ep| {
        let w = match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                events.push(e);
                Wake::at(ep.now + 1)
            }
        };
        if holder.is_busy() && busy_from.is_none() {
            busy_from = Some(ep.now);
        }
        w
    });
    assert!(busy_from.is_some_and(|t| t >= quiet), "busy once asked");
    assert!(got.is_some_and(|r| r.is_ok()), "the request was served");
    assert_eq!(
        events,
        [HolderEvent::Served {
            ty: VarType::Real,
            name: VarName::real('A').unwrap()
        }]
    );
    assert!(!holder.is_busy(), "idle again after serving");
}

struct WithScreen(Vec<u8>);
impl VarSource for WithScreen {
    fn lookup(&mut self, _: VarType, _: &VarName) -> Option<Variable> {
        None
    }
    fn screen(&mut self) -> Option<Vec<u8>> {
        Some(self.0.clone())
    }
}

#[test]
fn golden_screenshot() {
    // Spec 1.7.5.
    let screen: Vec<u8> = (0..768).map(|i| (i * 7) as u8).collect();
    let mut cable = DirectCable::new(30);
    let mut pc = Screenshot::new(MID_COMPUTER, Timing::default());
    pc.link_mut().record_bytes(true);
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut src = WithScreen(screen.clone());
    let mut got = None;
    cable.run(u64::MAX / 2, side!(pc, got), |ep| {
        match holder.poll(ep, &mut src) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                assert_eq!(e, HolderEvent::Screen);
                Wake::at(ep.now + 1)
            }
        }
    });
    assert_eq!(got.unwrap().unwrap(), screen);
    let s = stream(pc.link().records());
    assert_eq!(s.len(), 4);
    assert_eq!(s[0], (Dir::Sent, hex("02 6D 00 00")));
    assert_eq!(s[1], (Dir::Received, hex("82 56 00 00")));
    assert_eq!(s[2].1[..4], hex("82 15 00 03"));
    assert_eq!(s[2].1.len(), 4 + 768 + 2);
    assert_eq!(s[3], (Dir::Sent, hex("02 56 00 00")));
}

/// Two calculators on the machine crate's cable, each running the link firmware: `a`
/// requests `name` with `Get(`, `b` holds (its RAM is the source).
fn get_between_calcs(
    a_vars: &[Variable],
    b_vars: &[Variable],
    ask: VarName,
) -> (Result<Variable, LinkError>, Vec<HolderEvent>, u64) {
    let (mut a, side_a) = link_calc(24);
    let (mut b, side_b) = link_calc(24);
    for v in a_vars {
        vat::store(a.ram_mut(), v).unwrap();
    }
    for v in b_vars {
        vat::store(b.ram_mut(), v).unwrap();
    }
    let result = Arc::new(Mutex::new(None));
    let events = Arc::new(Mutex::new(Vec::new()));
    {
        let result = result.clone();
        let mut req = Requester::new(MID_TI82, Timing::default(), VarType::List, ask);
        *side_a.lock().unwrap() = Some(Box::new(move |ep, _ram| match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                let mut res = result.lock().unwrap();
                if res.is_none() {
                    *res = Some((r, ep.now));
                }
                Wake::NEVER
            }
        }));
        let events = events.clone();
        let mut holder = Holder::new(MID_TI82, Timing::default());
        *side_b.lock().unwrap() = Some(Box::new(move |ep, ram| {
            match holder.poll(ep, &mut RamVars(ram)) {
                HolderPoll::Pending(w) => w,
                HolderPoll::Event(e) => {
                    events.lock().unwrap().push(e);
                    Wake::at(ep.now + 1)
                }
            }
        }));
    }
    let (mut a, mut b) = cable::connect(a, b, DEFAULT_LATENCY);
    for _ in 0..400 {
        if result.lock().unwrap().is_some() {
            break;
        }
        cable::run_pair(&mut a, &mut b, 50_000);
    }
    // Let the holder see the last ACK.
    cable::run_pair(&mut a, &mut b, 50_000);
    let (r, t) = result.lock().unwrap().take().expect("requester finished");
    let ev = events.lock().unwrap().clone();
    (r, ev, t)
}

#[test]
fn get_l1_between_two_calcs_both_ways_and_missing() {
    let l1_b = list(1, &[4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]);
    let l1_a = list(1, &[1, 2, 3]);
    let name = VarName::list(1).unwrap();
    // a asks b.
    let (r, ev, t) = get_between_calcs(
        std::slice::from_ref(&l1_a),
        std::slice::from_ref(&l1_b),
        name,
    );
    assert_eq!(r.unwrap(), l1_b);
    assert_eq!(
        ev,
        [HolderEvent::Served {
            ty: VarType::List,
            name
        }]
    );
    eprintln!("Get(L1) of 14 reals took {t} T-states");
    assert!(
        t < T_PER_SECOND,
        "a 14-element list moves in well under a second"
    );
    // b asks a (roles swapped).
    let (r, ev, _) = get_between_calcs(
        std::slice::from_ref(&l1_b),
        std::slice::from_ref(&l1_a),
        name,
    );
    assert_eq!(r.unwrap(), l1_a);
    assert_eq!(ev.len(), 1);
    // Missing: the holder answers EXIT in place of the VAR (spec 1.7.6).
    let (r, ev, _) = get_between_calcs(&[], &[l1_a], VarName::list(2).unwrap());
    assert_eq!(r, Err(LinkError::Rejected { code: REJECT_EXIT }));
    assert_eq!(
        ev,
        [HolderEvent::Missing {
            ty: VarType::List,
            name: VarName::list(2).unwrap()
        }]
    );
}

#[test]
fn virtual_computer_on_a_calc_cable() {
    // A calculator idling as a holder (its RAM holds L1 and a screen); a virtual computer on
    // its cable asks for L1, then for a missing L3, then for the screen.
    let (mut calc, side) = link_calc(24);
    let l1 = list(1, &[7, -3, 12]);
    vat::store(calc.ram_mut(), &l1).unwrap();
    calc.hardware_mut().link.enable_log();
    struct Ram<'a>(RamVars<'a>);
    impl VarSource for Ram<'_> {
        fn lookup(&mut self, ty: VarType, name: &VarName) -> Option<Variable> {
            self.0.lookup(ty, name)
        }
        fn screen(&mut self) -> Option<Vec<u8>> {
            Some(vec![0xAA; 768])
        }
    }
    let mut holder = Holder::new(MID_TI82, Timing::default());
    *side.lock().unwrap() = Some(Box::new(move |ep, ram| {
        match holder.poll(ep, &mut Ram(RamVars(ram))) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                assert!(!matches!(e, HolderEvent::Failed(_)), "{e:?}");
                Wake::at(ep.now + 1)
            }
        }
    }));
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    let get = |calc: &mut machine::Calc, pc: &mut VirtualCable, n: u8| {
        let mut req = Requester::new(
            MID_COMPUTER,
            Timing::default(),
            VarType::List,
            VarName::list(n).unwrap(),
        );
        let mut out = None;
        while out.is_none() {
            let until = calc.now() + 100_000;
            pc.run(calc, until, side!(req, out));
        }
        out.unwrap()
    };
    assert_eq!(get(&mut calc, &mut pc, 1).unwrap(), l1);
    assert_eq!(
        get(&mut calc, &mut pc, 3),
        Err(LinkError::Rejected { code: 1 })
    );
    let mut shot = Screenshot::new(MID_COMPUTER, Timing::default());
    let mut out = None;
    while out.is_none() {
        let until = calc.now() + 100_000;
        pc.run(&mut calc, until, side!(shot, out));
    }
    assert_eq!(out.unwrap().unwrap(), vec![0xAA; 768]);
    // The calculator's own port log decodes to the three exchanges: PC ↔ TI82 by machine ID.
    let log = packets_from_levels(calc.hardware().link.log());
    let text = format_log(&log);
    eprintln!("{text}");
    assert_eq!(log.len(), 8 + 4 + 4);
    assert!(log.iter().all(|p| p.packet.is_ok()));
    assert!(text.contains("REQ list L1 size 0"));
    assert!(text.contains("VAR list L1 size 29"));
    assert!(text.contains("SKIP/EXIT 01 exit"));
    assert!(text.contains("DATA 768 bytes"));
    for p in &log {
        let pk = p.packet.as_ref().unwrap();
        let party = if pk.mid == MID_COMPUTER { 0 } else { 1 };
        assert_eq!(p.side, Side::Party(party), "{}", p.to_line());
    }
}

/// Runs `side` alone on a port with nothing attached; returns its result and the time.
fn alone<T>(mut poll: impl FnMut(&mut TimedPort) -> Progress<T>) -> (Result<T, LinkError>, u64) {
    let mut port = LinkPort::new();
    let mut t = 0;
    loop {
        match poll(&mut TimedPort::new(&mut port, t)) {
            Progress::Pending(w) => t = w.next(t, 24),
            Progress::Done(r) => {
                assert_eq!(port.own_drive(), 0);
                return (r, t);
            }
        }
    }
}

#[test]
fn requester_times_out_when_nobody_answers() {
    let mut req = Requester::new(
        MID_TI82,
        Timing::default(),
        VarType::List,
        VarName::list(1).unwrap(),
    );
    let (r, t) = alone(|ep| req.poll(ep));
    // The first bit of REQ is never acknowledged: one handshake step of 2 s (spec 2.3).
    assert!(matches!(r, Err(LinkError::Timeout { .. })), "{r:?}");
    assert!(t <= 2 * T_PER_SECOND + 100, "gave up at {t}");
    assert!(t >= 2 * T_PER_SECOND);
    // Polling again after the end is harmless.
    assert!(matches!(
        req.poll(&mut TimedPort::new(&mut LinkPort::new(), t)),
        Progress::Done(Err(LinkError::Finished))
    ));
}

#[test]
fn peer_vanishes_mid_transfer() {
    // The holder stops (releases its lines and never polls again) after 20 bytes of the
    // exchange: the requester must end with a timeout within one step timeout.
    for stop_after in [3usize, 20, 30, 40] {
        let mut cable = DirectCable::new(30);
        let name = VarName::list(1).unwrap();
        let mut req = Requester::new(MID_TI82, Timing::default(), VarType::List, name);
        let mut holder = Holder::new(MID_TI82, Timing::default());
        holder.link_mut().record_bytes(true);
        let mut vars = vec![list(1, &[1, 2, 3, 4, 5])];
        let mut got = None;
        let mut stopped_at = None;
        cable.run(u64::MAX / 2, side!(req, got), |ep| {
            if stopped_at.is_some() {
                return Wake::NEVER;
            }
            if holder.link().records().len() >= stop_after {
                holder.cancel(ep);
                stopped_at = Some(ep.now);
                return Wake::NEVER;
            }
            match holder.poll(ep, &mut vars) {
                HolderPoll::Pending(w) => w,
                HolderPoll::Event(_) => Wake::at(ep.now + 1),
            }
        });
        let r = got.expect("requester ended");
        let Err(LinkError::Timeout { at, .. }) = r else {
            panic!("stop after {stop_after}: {r:?}");
        };
        let s = stopped_at.unwrap();
        assert!(
            at > s && at <= s + 2 * T_PER_SECOND + 1_000,
            "{stop_after}: {s} → {at}"
        );
    }
}

#[test]
fn receiver_vanishes_during_data() {
    let mut cable = DirectCable::new(30);
    let big = list(1, &(0..99).collect::<Vec<_>>());
    let mut pc = SendVars::new(MID_COMPUTER, Timing::default(), &[big]);
    let mut ti = ReceiveVars::new(MID_TI82, Timing::default());
    ti.link_mut().record_bytes(true);
    let mut out = None;
    let mut gone = false;
    cable.run(u64::MAX / 2, side!(pc, out), |ep| {
        if gone || ti.link().records().len() > 100 {
            if !gone {
                ti.cancel(ep);
                gone = true;
            }
            return Wake::NEVER;
        }
        match ti.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => panic!("{r:?}"),
        }
    });
    assert!(
        matches!(out, Some(Err(LinkError::Timeout { .. }))),
        "{out:?}"
    );
}

#[test]
fn holder_recovers_after_a_failed_request() {
    // A requester that vanishes halfway; then a second one is served.
    let mut cable = DirectCable::new(30);
    let name = VarName::list(1).unwrap();
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![list(1, &[9, 8, 7])];
    let mut events = Vec::new();
    let mut req1 = Requester::new(MID_TI82, Timing::default(), VarType::List, name);
    req1.link_mut().record_bytes(true);
    let mut req2 = Requester::new(MID_TI82, Timing::default(), VarType::List, name);
    let (mut r2, mut phase) = (None, 0);
    cable.run(
        u64::MAX / 2,
        |ep| {
            if phase == 0 {
                if req1.link().records().len() >= 25 {
                    req1.cancel(ep);
                    phase = 1;
                    return Wake::at(ep.now + 3 * T_PER_SECOND);
                }
                return match req1.poll(ep) {
                    Progress::Pending(w) => w,
                    Progress::Done(r) => panic!("{r:?}"),
                };
            }
            match req2.poll(ep) {
                Progress::Pending(w) => w,
                Progress::Done(r) => {
                    r2 = Some(r);
                    Wake::NEVER
                }
            }
        },
        |ep| match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                events.push(e);
                Wake::at(ep.now + 1)
            }
        },
    );
    assert_eq!(r2.unwrap().unwrap(), vars[0]);
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(matches!(
        events[0],
        HolderEvent::Failed(LinkError::Timeout { .. })
    ));
    assert_eq!(
        events[1],
        HolderEvent::Served {
            ty: VarType::List,
            name
        }
    );
}

#[test]
fn several_vars_with_skip_and_exit() {
    let vars = [
        real('A', "1"),
        real('B', "2"),
        list(1, &[5]),
        real('C', "3"),
    ];
    let run = |decide: fn(&Header) -> Decision| {
        let mut cable = DirectCable::new(30);
        let mut pc = SendVars::new(MID_COMPUTER, Timing::default(), &vars);
        let mut ti = ReceiveVars::new(MID_TI82, Timing::default()).with_acceptor(decide);
        let (mut a, mut b) = (None, None);
        cable.run(u64::MAX / 2, side!(pc, a), side!(ti, b));
        (a.unwrap(), b.unwrap())
    };
    let (s, r) = run(|_| Decision::Accept);
    assert_eq!(s.unwrap().sent, [0, 1, 2, 3]);
    assert_eq!(r.unwrap().vars, vars);
    // Skip B.
    let (s, r) = run(|h| match h {
        Header::Var { name, .. } if *name == VarName::real('B').unwrap() => Decision::Skip,
        _ => Decision::Accept,
    });
    let s = s.unwrap();
    assert_eq!((s.sent, s.skipped), (vec![0, 2, 3], vec![1]));
    let r = r.unwrap();
    assert_eq!(r.vars, [vars[0].clone(), vars[2].clone(), vars[3].clone()]);
    assert_eq!(r.skipped.len(), 1);
    // Exit at the list.
    let (s, r) = run(|h| match h {
        Header::Var {
            ty: VarType::List, ..
        } => Decision::Exit,
        _ => Decision::Accept,
    });
    assert_eq!(s, Err(LinkError::Rejected { code: REJECT_EXIT }));
    assert_eq!(r.unwrap().vars, vars[..2]);
}

#[test]
fn backup_round_trip() {
    let b = Backup {
        section1: (0..2044).map(|i| i as u8).collect(),
        section2: (0..2298).map(|i| (i * 3) as u8).collect(),
        section3: (0..444).map(|i| (i * 5) as u8).collect(),
        address: 0x8D24,
    };
    let mut cable = DirectCable::new(30);
    let mut pc = SendVars::backup(MID_COMPUTER, Timing::default(), &b);
    pc.link_mut().record_bytes(true);
    let mut ti = ReceiveVars::new(MID_TI82, Timing::default());
    let (mut x, mut y) = (None, None);
    cable.run(u64::MAX / 2, side!(pc, x), side!(ti, y));
    assert!(x.unwrap().is_ok());
    assert_eq!(y.unwrap().unwrap().backup, Some(b));
    let s = stream(pc.link().records());
    // VAR, ACK, CTS, ACK, 3 × (DATA, ACK); no EOT (spec 1.7.4).
    assert_eq!(s.len(), 10);
    assert_eq!(s[0].1, hex("02 06 09 00 FC 07 0F FA 08 BC 01 24 8D 82 03"));
}

/// A scripted raw peer: sends or expects exact bytes over a byte transport.
enum Step {
    Send(Vec<u8>),
    Expect(Vec<u8>),
}

fn script(steps: Vec<Step>) -> impl FnMut(&mut TimedPort) -> Wake {
    let mut tx = ByteTransport::new(Timing::default());
    let (mut i, mut pos, mut got) = (0usize, 0usize, Vec::new());
    move |ep| loop {
        let Some(step) = steps.get(i) else {
            return Wake::NEVER;
        };
        if tx.is_idle() {
            match step {
                Step::Send(b) => tx.send(b[pos]),
                Step::Expect(_) => tx.receive(None),
            }
        }
        match tx.poll(ep) {
            ByteEvent::Pending(w) => return w,
            ByteEvent::Done(r) => {
                pos += 1;
                let len = match step {
                    Step::Send(b) => b.len(),
                    Step::Expect(b) => {
                        got.push(r.value);
                        b.len()
                    }
                };
                if pos == len {
                    if let Step::Expect(b) = step {
                        assert_eq!(&got, b, "step {i}");
                        got.clear();
                    }
                    i += 1;
                    pos = 0;
                }
            }
            ByteEvent::Idle => {}
            ByteEvent::Failed(e) => panic!("script step {i}: {e}"),
        }
    }
}

#[test]
fn bad_checksum_answered_with_err_and_resent() {
    // Spec 1.6 item 3: the receiver answers a bad DATA with ERR and takes the resent packet.
    let good = Packet::data(MID_COMPUTER, real('A', "-2").data.to_bytes()).to_bytes();
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 0x40;
    let mut cable = DirectCable::new(30);
    let mut ti = ReceiveVars::new(MID_TI82, Timing::default());
    let mut out = None;
    cable.run(
        u64::MAX / 2,
        script(vec![
            Step::Send(hex("02 06 0B 00 09 00 00 41 00 00 00 00 00 00 00 4A 00")),
            Step::Expect(hex("82 56 00 00 82 09 00 00")),
            Step::Send(hex("02 56 00 00")),
            Step::Send(bad),
            Step::Expect(hex("82 5A 00 00")),
            Step::Send(good),
            Step::Expect(hex("82 56 00 00")),
            Step::Send(hex("02 92 0B 00")), // EOT with a junk length
            Step::Expect(hex("82 56 00 00")),
        ]),
        side!(ti, out),
    );
    assert_eq!(out.unwrap().unwrap().vars, [real('A', "-2")]);
}

#[test]
fn err_makes_the_sender_resend() {
    let mut cable = DirectCable::new(30);
    let mut pc = SendVars::new(MID_COMPUTER, Timing::default(), &[real('A', "-2")]);
    let data = hex("02 15 09 00 80 80 20 00 00 00 00 00 00 20 01");
    let mut out = None;
    cable.run(
        u64::MAX / 2,
        side!(pc, out),
        script(vec![
            Step::Expect(hex("02 06 0B 00 09 00 00 41 00 00 00 00 00 00 00 4A 00")),
            Step::Send(hex("82 56 09 00 82 09 09 00")), // junk lengths (spec 1.1)
            Step::Expect(hex("02 56 00 00")),
            Step::Expect(data.clone()),
            Step::Send(hex("82 5A 00 00")),
            Step::Expect(data),
            Step::Send(hex("82 56 FC 07")),
            Step::Expect(hex("02 92 00 00")),
            Step::Send(hex("82 56 00 00")),
        ]),
    );
    assert_eq!(out.unwrap().unwrap().sent, [0]);
}

#[test]
fn oversized_var_from_rom_dumper_is_an_error_not_a_crash() {
    // Spec 1.6 item 4: a VAR with length 0x1F, then garbage.
    let mut cable = DirectCable::new(30);
    let mut ti = ReceiveVars::new(MID_TI82, Timing::default());
    let mut out = None;
    let mut junk = hex("02 06 1F 00");
    junk.extend((0..33).map(|i| (i * 29) as u8));
    cable.run(
        u64::MAX / 2,
        script(vec![Step::Send(junk[..4].to_vec())]),
        side!(ti, out),
    );
    assert!(matches!(out, Some(Err(LinkError::Packet(_)))), "{out:?}");
}

#[test]
fn garbage_bytes_never_break_a_holder() {
    // Seeded random bytes bit-banged at a holder: it may fail transfers, but it never panics,
    // never hangs, and still serves a proper request afterwards.
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let garbage: Vec<u8> = (0..3_000).map(|_| rnd() as u8).collect();
    let mut cable = DirectCable::new(30);
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![list(1, &[1])];
    let mut events = Vec::new();
    let mut tx = ByteTransport::new(Timing::default());
    let (mut i, mut req, mut done) = (0usize, None::<Requester>, None);
    cable.run(
        u64::MAX / 2,
        |ep| loop {
            if let Some(r) = req.as_mut() {
                return match r.poll(ep) {
                    Progress::Pending(w) => w,
                    Progress::Done(x) => {
                        done = Some(x);
                        Wake::NEVER
                    }
                };
            }
            if tx.is_idle() {
                match garbage.get(i) {
                    Some(&b) => tx.send(b),
                    None => {
                        // Quiet for a while, then a real request.
                        req = Some(Requester::new(
                            MID_TI82,
                            Timing::default(),
                            VarType::List,
                            VarName::list(1).unwrap(),
                        ));
                        return Wake::at(ep.now + 3 * T_PER_SECOND);
                    }
                }
            }
            match tx.poll(ep) {
                ByteEvent::Pending(w) => return w,
                ByteEvent::Done(_) | ByteEvent::Idle => i += 1,
                // The holder may stop listening mid-garbage (it is answering): skip on.
                ByteEvent::Failed(_) => i += 1,
            }
        },
        |ep| match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => {
                events.push(e);
                Wake::at(ep.now + 1)
            }
        },
    );
    assert_eq!(done.unwrap().unwrap(), vars[0]);
    assert_eq!(
        events.last(),
        Some(&HolderEvent::Served {
            ty: VarType::List,
            name: VarName::list(1).unwrap()
        })
    );
}

#[test]
fn link_log_of_two_calcs() {
    // Both sides use 0x82; the log tells them apart from the packet flow.
    let (mut a, side_a) = link_calc(24);
    let (mut b, side_b) = link_calc(24);
    a.hardware_mut().link.enable_log();
    vat::store(b.ram_mut(), &list(1, &[3, 1, 4])).unwrap();
    let done = Arc::new(Mutex::new(false));
    {
        let done = done.clone();
        let mut req = Requester::new(
            MID_TI82,
            Timing::default(),
            VarType::List,
            VarName::list(1).unwrap(),
        );
        *side_a.lock().unwrap() = Some(Box::new(move |ep, _| match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                let mut d = done.lock().unwrap();
                if !*d {
                    r.unwrap();
                    *d = true;
                }
                Wake::NEVER
            }
        }));
        let mut holder = Holder::new(MID_TI82, Timing::default());
        *side_b.lock().unwrap() = Some(Box::new(move |ep, ram| {
            match holder.poll(ep, &mut RamVars(ram)) {
                HolderPoll::Pending(w) => w,
                HolderPoll::Event(_) => Wake::at(ep.now + 1),
            }
        }));
    }
    let (mut a, mut b) = cable::connect(a, b, DEFAULT_LATENCY);
    while !*done.lock().unwrap() {
        cable::run_pair(&mut a, &mut b, 50_000);
    }
    let log = packets_from_levels(a.hardware().link.log());
    let text = format_log(&log);
    eprintln!("{text}");
    let parties: Vec<_> = log.iter().map(|p| p.side).collect();
    use Side::Party as P;
    assert_eq!(parties, [P(0), P(1), P(1), P(0), P(0), P(1), P(1), P(0)]);
    let cmds: Vec<_> = log
        .iter()
        .map(|p| p.packet.as_ref().unwrap().cmd.name())
        .collect();
    assert_eq!(
        cmds,
        ["REQ", "ACK", "VAR", "ACK", "CTS", "ACK", "DATA", "ACK"]
    );
}

#[test]
fn l1_as_the_mancala_board() {
    // The board probe's list: 14 reals survive the trip exactly.
    let board: Vec<TiFloat> = (0..14).map(|i| TiFloat::from(i % 5)).collect();
    let v = Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(board),
    };
    let (r, _, _) = get_between_calcs(&[], std::slice::from_ref(&v), VarName::list(1).unwrap());
    assert_eq!(r.unwrap(), v);
}

#[test]
fn send_with_rts_to_a_cbl_and_to_a_ti82() {
    // Spec 1.7.7: `Send(L1)` pushes with RTS; a CBL-like receiver takes it (and the EOT).
    let l1 = list(1, &[1, 2]);
    let mut cable = DirectCable::new(30);
    let mut ti = SendVars::new(MID_TI82, Timing::default(), std::slice::from_ref(&l1)).with_rts();
    ti.link_mut().record_bytes(true);
    let mut cbl = ReceiveVars::new(tilink::MID_CBL, Timing::default());
    let (mut a, mut b) = (None, None);
    cable.run(u64::MAX / 2, side!(ti, a), side!(cbl, b));
    assert!(a.unwrap().is_ok());
    assert_eq!(b.unwrap().unwrap().vars, std::slice::from_ref(&l1));
    assert_eq!(stream(ti.link().records())[0].1[..2], [0x82, 0xC9]);
    // A TI-82 holder never answers RTS: the sender times out after the reply timeout.
    let mut cable = DirectCable::new(30);
    let mut ti = SendVars::new(MID_TI82, Timing::default(), std::slice::from_ref(&l1)).with_rts();
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![l1];
    let mut out = None;
    cable.run(u64::MAX / 2, side!(ti, out), |ep| {
        match holder.poll(ep, &mut vars) {
            HolderPoll::Pending(w) => w,
            HolderPoll::Event(e) => panic!("{e:?}"),
        }
    });
    assert!(
        matches!(
            out,
            Some(Err(LinkError::Timeout {
                what: tilink::Waiting::Reply,
                ..
            }))
        ),
        "{out:?}"
    );
}

#[test]
fn print_screen_push() {
    // Spec 1.7.5: PrintScreen sends VAR type 0x0E, 768 bytes, to a receiving peer.
    let bits = vec![0x5A; 768];
    let mut cable = DirectCable::new(30);
    let mut ti = SendVars::items(
        MID_TI82,
        Timing::default(),
        vec![tilink::Outgoing::screen(&bits)],
        false,
    );
    ti.link_mut().record_bytes(true);
    let mut pc = ReceiveVars::new(MID_COMPUTER, Timing::default());
    let (mut a, mut b) = (None, None);
    cable.run(u64::MAX / 2, side!(ti, a), |ep| {
        // No EOT follows a PrintScreen: the receiver is cancelled once the data is in.
        match pc.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                if b.is_none() {
                    b = Some(r);
                }
                Wake::NEVER
            }
        }
    });
    assert!(a.unwrap().is_ok());
    assert_eq!(
        stream(ti.link().records())[0].1,
        hex("82 06 0B 00 00 03 0E 00 00 00 00 00 00 00 00 11 00")
    );
    // The receiver waits for the next header (with the reply timeout) and then reports the
    // timeout; the screen arrived before that.
    assert!(matches!(b, Some(Err(LinkError::Timeout { .. }))), "{b:?}");
    assert_eq!(
        pc.received().vars,
        [Variable {
            name: VarName::default(),
            data: VarData::Raw(VarType::Screen, bits)
        }]
    );
}
