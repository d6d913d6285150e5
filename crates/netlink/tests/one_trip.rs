//! Two built-in-runtime calculators, each with its own `ByteEndpoint`, joined by a simulated
//! network of fixed one-way delay in emulated time (no sockets, no wall clock): a `Get(` takes
//! one round trip, and readiness stays truthful (docs/link.md, "One round trip per `Get(`").
//!
//! The packet sequence expected is the spec's (`../shared/spec/ti82-software.md` 1.7.6):
//! REQ; ACK, VAR; ACK, CTS; ACK, DATA; ACK. With the holder's endpoint playing the
//! requester's ACK and CTS, only the REQ crosses one way and ACK, VAR, ACK, DATA the other.

use netlink::endpoint::{ByteEndpoint, EndpointStats, Outgoing, MAX_QUEUED};
use ti82_machine::{Calc, Key, CLOCK_HZ};
use tibasic::firmware::{calc_with_sources, read_list, start_program};
use tibasic::real::Real;
use tilink::{Command, Packet, TimedPort, Timing, VirtualCable};

const MS: u64 = CLOCK_HZ / 1000;
/// The step of the simulation: each side runs this far before the messages move.
const STEP: u64 = MS / 4;

struct Side {
    calc: Calc,
    cable: VirtualCable,
    endpoint: ByteEndpoint,
    /// Commands of the packets this side forwarded, with their emulated send time.
    sent: Vec<(u64, Command)>,
}

impl Side {
    fn new(programs: &[(&str, &str)], start: &str) -> Side {
        let mut calc = calc_with_sources(programs).unwrap();
        start_program(&mut calc, start).unwrap();
        let cable = VirtualCable::attach(&mut calc, netlink::cable::LOCAL_LATENCY);
        Side {
            calc,
            cable,
            endpoint: ByteEndpoint::new(Timing::default()),
            sent: Vec::new(),
        }
    }

    fn run_to(&mut self, t: u64) -> Vec<Outgoing> {
        let ep = &mut self.endpoint;
        self.cable.run(&mut self.calc, t, |port| ep.poll(port));
        let out = self.endpoint.take_outgoing();
        for o in &out {
            if let Outgoing::Packet { bytes, .. } = o {
                let (p, _) = Packet::parse(bytes).unwrap();
                self.sent.push((t, p.cmd));
            }
        }
        out
    }

    fn take(&mut self, o: Outgoing) {
        match o {
            Outgoing::Packet {
                seq,
                reply_to,
                bytes,
            } => self.endpoint.packet(seq, reply_to, bytes),
            Outgoing::Expired { seq } => self.endpoint.expired(seq),
            Outgoing::Cancel { seq } => {
                let now = self.cable.now();
                let port = self.cable.port();
                self.endpoint.cancel(seq, &mut TimedPort::new(port, now));
            }
        }
    }

    fn unplug(&mut self) {
        let now = self.cable.now();
        let port = self.cable.port();
        self.endpoint.unplugged(&mut TimedPort::new(port, now));
    }

    fn list1(&self) -> Option<Vec<Real>> {
        read_list(self.calc.ram(), 1)
    }
}

/// Runs `a` and `b` for `ms` emulated milliseconds over a network of `delay` T-states one
/// way; `a` gets ENTER pressed at the start (its program waits at `Pause`).
fn play(a: &mut Side, b: &mut Side, delay: u64, ms: u64) {
    play_with(a, b, delay, ms, 1, |_| Extra::Nothing)
}

/// What [`play_with`] does besides carrying a message from `b` to `a`.
enum Extra {
    Nothing,
    /// Also carry this message right behind it.
    Also(Outgoing),
    /// Unplug the network right after `a` has taken it: nothing more crosses.
    ThenUnplug,
}

/// [`play`], with `b` running `b_speed` times as fast as `a` (turbo against real speed) and
/// `extra` looking at each of `b`'s messages.
fn play_with(
    a: &mut Side,
    b: &mut Side,
    delay: u64,
    ms: u64,
    b_speed: u64,
    mut extra: impl FnMut(&Outgoing) -> Extra,
) {
    let start = a.calc.now().max(b.calc.now());
    let b_start = b.calc.now();
    // (arrival, to_b, msg, unplug after it)
    let mut in_flight: Vec<(u64, bool, Outgoing, bool)> = Vec::new();
    let mut cut = false;
    a.calc.press(Key::Enter);
    let mut t = start;
    while t < start + ms * MS {
        t += STEP;
        if t >= start + 60 * MS {
            a.calc.release(Key::Enter);
        }
        for o in a.run_to(t) {
            in_flight.push((t + delay, true, o, false));
        }
        for o in b.run_to(b_start + (t - start) * b_speed) {
            match extra(&o) {
                Extra::Nothing => in_flight.push((t + delay, false, o, false)),
                Extra::Also(m) => {
                    in_flight.push((t + delay, false, o, false));
                    in_flight.push((t + delay, false, m, false));
                }
                Extra::ThenUnplug => in_flight.push((t + delay, false, o, true)),
            }
        }
        let (due, later): (Vec<_>, Vec<_>) = in_flight.into_iter().partition(|m| m.0 <= t);
        in_flight = later;
        for (_, to_b, o, unplug) in due {
            if cut {
                break;
            }
            if to_b {
                b.take(o);
            } else {
                a.take(o);
            }
            if unplug {
                a.unplug();
                cut = true;
            }
        }
        if cut {
            in_flight.clear();
        }
    }
}

fn cmds(s: &Side) -> Vec<Command> {
    s.sent.iter().map(|&(_, c)| c).collect()
}

fn clean(s: EndpointStats) -> bool {
    s.expired == 0 && s.cancelled == 0 && s.dropped == 0 && s.garbage == 0
}

#[test]
fn a_get_takes_one_round_trip() {
    let delay = 150 * MS;
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause\nDisp 7")], "HOLD");
    let mut asker = Side::new(&[("PULL", "Pause\nGet(L1)\nDisp 9")], "PULL");
    play(&mut asker, &mut holder, delay, 2_000);

    let want: Vec<Real> = [1, 2, 3].iter().map(|&n| Real::from_i64(n)).collect();
    assert_eq!(asker.list1(), Some(want), "the asker's L1 after Get(");
    // Only the REQ crossed from the asker; the holder's ACK, VAR, ACK and DATA came back.
    assert_eq!(cmds(&asker), [Command::Req]);
    assert_eq!(
        cmds(&holder),
        [Command::Ack, Command::Var, Command::Ack, Command::Data]
    );
    // The holder sent its DATA before the asker's ACK and CTS could have reached it (VAR out,
    // one delay, ACK and CTS back, one delay): VAR and DATA crossed together, and the
    // exchange took one round trip plus the bits where the spec's sequence takes two.
    let var_at = holder.sent[1].0;
    let data_at = holder.sent[3].0;
    assert!(data_at - var_at < 2 * delay, "VAR {var_at} DATA {data_at}");
    for s in [&asker, &holder] {
        let st = s.endpoint.stats();
        assert_eq!(st.one_trip, 1, "{st:?}");
        assert!(clean(st), "{st:?}");
        assert!(s.endpoint.is_quiet());
    }
}

#[test]
fn a_get_from_a_busy_calculator_fails_and_nothing_comes_late() {
    // The holder computes (it never waits for a key, so it never answers: spec 1.7.6).
    let mut holder = Side::new(&[("BUSY", "{1,2,3}->L1\nLbl A\nGoto A")], "BUSY");
    let mut asker = Side::new(&[("PULL", "{5}->L1\nPause\nGet(L1)\nDisp 9")], "PULL");
    play(&mut asker, &mut holder, 50 * MS, 6_000);

    assert_eq!(asker.list1(), Some(vec![Real::from_i64(5)]), "L1 unchanged");
    assert_eq!(cmds(&asker), [Command::Req]);
    assert!(cmds(&holder).is_empty(), "{:?}", holder.sent);
    let (h, a) = (holder.endpoint.stats(), asker.endpoint.stats());
    // The asker gave up after its reply timeout (2 s) and said so; the REQ never reached the
    // holder's calculator: it expired there (2 s step timeout) or the Cancel removed it,
    // whichever came first.
    assert_eq!(a.cancelled, 1, "{a:?}");
    assert_eq!(h.expired + h.dropped, 1, "{h:?}");
    assert_eq!(
        h.delivered + a.delivered + h.one_trip + a.one_trip,
        0,
        "{h:?} {a:?}"
    );
    assert!(holder.endpoint.is_quiet() && asker.endpoint.is_quiet());
}

#[test]
fn a_far_message_of_two_packets_is_dropped_whole() {
    // A peer packing ACK and VAR into one message would slip the VAR past the per-packet
    // counting, the queue bound and the dropping of answers to a cancelled packet.
    let mut asker = Side::new(&[("PULL", "{5}->L1\nPause\nGet(L1)\nDisp 9")], "PULL");
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause")], "HOLD");
    let mut two = Packet::ack(tilink::MID_TI82).to_bytes();
    two.extend(Packet::cts(tilink::MID_TI82).to_bytes());
    asker.endpoint.packet(1, 0, two);
    assert_eq!(asker.endpoint.queued(), 0);
    assert_eq!(asker.endpoint.stats().dropped, 1);
    // The calculators still work together afterwards.
    play(&mut asker, &mut holder, 10 * MS, 2_000);
    let want: Vec<Real> = [1, 2, 3].iter().map(|&n| Real::from_i64(n)).collect();
    assert_eq!(asker.list1(), Some(want));
    assert_eq!(asker.endpoint.stats().one_trip, 1);
}

#[test]
fn a_far_request_right_behind_the_data_waits_for_our_last_ack() {
    // The holder's calculator is done once its endpoint ACKs the DATA, so its next request can
    // arrive with the DATA. Clocked in at once it would collide with our calculator's last ACK
    // and break its Get(; it must wait until that ACK is out.
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause")], "HOLD");
    let mut asker = Side::new(&[("PULL", "Pause\nGet(L1)\nPause")], "PULL");
    let req = Packet::req(
        tilink::MID_TI82,
        tifiles::var::VarType::List,
        tifiles::var::VarName::list(2).unwrap(),
    );
    play_with(&mut asker, &mut holder, 50 * MS, 2_000, 1, |o| match o {
        Outgoing::Packet { bytes, seq, .. } if bytes[1] == Command::Data.to_byte() => {
            Extra::Also(Outgoing::Packet {
                seq: seq + 1000,
                reply_to: 0,
                bytes: req.to_bytes(),
            })
        }
        _ => Extra::Nothing,
    });
    let want: Vec<Real> = [1, 2, 3].iter().map(|&n| Real::from_i64(n)).collect();
    assert_eq!(asker.list1(), Some(want), "the Get( completed");
    assert_eq!(asker.endpoint.stats().one_trip, 1);
    // The request went in after our calculator's last ACK: at `Pause` it answered it (L2 is
    // missing: EXIT, spec 1.7.6).
    assert_eq!(cmds(&asker), [Command::Req, Command::Ack, Command::Skip]);
}

#[test]
fn an_answer_that_arrived_whole_is_delivered_after_the_peer_leaves() {
    // The holder's endpoint ACKed the DATA for its calculator, which may then quit: the DATA
    // that reached us before the cable went is ours to deliver.
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause")], "HOLD");
    let mut asker = Side::new(&[("PULL", "Pause\nGet(L1)\nPause")], "PULL");
    play_with(&mut asker, &mut holder, 50 * MS, 2_000, 1, |o| match o {
        Outgoing::Packet { bytes, .. } if bytes[1] == Command::Data.to_byte() => Extra::ThenUnplug,
        _ => Extra::Nothing,
    });
    let want: Vec<Real> = [1, 2, 3].iter().map(|&n| Real::from_i64(n)).collect();
    assert_eq!(asker.list1(), Some(want));
    assert_eq!(asker.endpoint.stats().one_trip, 1);
    assert_eq!(asker.endpoint.stats().dropped, 0);
}

#[test]
fn an_answer_cut_off_by_the_peer_leaving_fails_the_get() {
    // The peer goes after its VAR, before its DATA: the Get( fails as on a pulled cable.
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause")], "HOLD");
    let mut asker = Side::new(&[("PULL", "{5}->L1\nPause\nGet(L1)\nPause")], "PULL");
    play_with(&mut asker, &mut holder, 50 * MS, 6_000, 1, |o| match o {
        Outgoing::Packet { bytes, .. } if bytes[1] == Command::Var.to_byte() => Extra::ThenUnplug,
        _ => Extra::Nothing,
    });
    assert_eq!(asker.list1(), Some(vec![Real::from_i64(5)]));
    assert_eq!(asker.endpoint.stats().one_trip, 0);
    assert!(asker.endpoint.is_quiet());
}

#[test]
fn a_request_waits_for_a_faster_calculator_as_long_as_the_requester_waits() {
    // The holder runs 20 times as fast (turbo) and computes for several of its own seconds
    // before its Pause: longer than a wire's 2 s step timeout in its time, far less than the
    // requester's 2 s reply timeout in the requester's. As on a wire, what counts is whether
    // the requester is still waiting when the holder listens: the REQ stays on the wire for it.
    let mut holder = Side::new(
        &[("HOLD", "{1,2,3}->L1\nFor(I,1,3000)\nEnd\nPause")],
        "HOLD",
    );
    let mut asker = Side::new(&[("PULL", "Pause\nGet(L1)\nPause")], "PULL");
    let holder_start = holder.calc.now();
    play_with(&mut asker, &mut holder, 20 * MS, 2_000, 20, |_| {
        Extra::Nothing
    });
    let want: Vec<Real> = [1, 2, 3].iter().map(|&n| Real::from_i64(n)).collect();
    assert_eq!(asker.list1(), Some(want));
    let (h, a) = (holder.endpoint.stats(), asker.endpoint.stats());
    assert_eq!(
        (h.expired, a.cancelled, h.dropped),
        (0, 0, 0),
        "{h:?} {a:?}"
    );
    // The holder took the REQ more than a step timeout (2 s) of its own time after it came.
    let req_in = holder_start + 20 * (60 * MS + 20 * MS);
    let took = holder.sent[0].0;
    assert!(
        took > req_in + 2 * ti82_machine::CLOCK_HZ,
        "took at {took}, REQ in about {req_in}"
    );
}

#[test]
fn a_far_packet_numbered_zero_is_dropped() {
    // Sequence numbers start at 1 (docs/link.md): a peer's packet 0 names no packet.
    let mut asker = Side::new(&[("PULL", "Pause")], "PULL");
    asker
        .endpoint
        .packet(0, 0, Packet::cts(tilink::MID_TI82).to_bytes());
    assert_eq!(asker.endpoint.queued(), 0);
    assert_eq!(asker.endpoint.stats().dropped, 1);
}

/// A REQ for `L1`.
fn req_l1() -> Packet {
    Packet::req(
        tilink::MID_TI82,
        tifiles::var::VarType::List,
        tifiles::var::VarName::list(1).unwrap(),
    )
}

/// A holder at `Pause` whose calculator has answered a far REQ for `L1` with ACK and VAR: its
/// endpoint now plays the requester's ACK and CTS. With the time reached.
fn holder_past_its_var() -> (Side, u64) {
    let mut holder = Side::new(&[("HOLD", "{1,2,3}->L1\nPause")], "HOLD");
    holder.endpoint.packet(1, 0, req_l1().to_bytes());
    let t = run_until_sent(&mut holder, 2, 1_000);
    assert_eq!(cmds(&holder), [Command::Ack, Command::Var]);
    (holder, t)
}

#[test]
fn a_far_cancel_numbered_zero_leaves_what_the_endpoint_plays() {
    // 0 is never a far packet's number: a peer's `Cancel` of 0 must not remove the ACK and
    // CTS the holder's endpoint plays for the requester (they would be counted as dropped far
    // packets, and the holder's Get( answer would stall).
    let (mut holder, t) = holder_past_its_var();
    holder.take(Outgoing::Cancel { seq: 0 });
    assert_eq!(holder.endpoint.stats().dropped, 0);
    holder.run_to(t + 500 * MS);
    assert_eq!(
        cmds(&holder),
        [Command::Ack, Command::Var, Command::Ack, Command::Data]
    );
    let s = holder.endpoint.stats();
    assert_eq!((s.one_trip, s.delivered, s.dropped), (1, 1, 0), "{s:?}");
    assert!(holder.endpoint.is_quiet());
}

#[test]
fn a_flood_during_a_get_drops_far_packets_not_what_the_endpoint_plays() {
    // The queue bound counts and drops far packets only: the ACK and CTS the holder's endpoint
    // plays for the requester are neither pushed out by a flooding peer nor counted as far
    // packets dropped.
    let (mut holder, t) = holder_past_its_var();
    let flood = MAX_QUEUED as u32 + 2;
    for seq in 2..2 + flood {
        holder
            .endpoint
            .packet(seq, 0, Packet::ack(tilink::MID_TI82).to_bytes());
    }
    assert_eq!(holder.endpoint.queued(), MAX_QUEUED);
    assert_eq!(holder.endpoint.stats().dropped, 2);
    holder.run_to(t + 2_000 * MS);
    assert_eq!(
        cmds(&holder),
        [Command::Ack, Command::Var, Command::Ack, Command::Data]
    );
    let s = holder.endpoint.stats();
    assert_eq!(s.one_trip, 1, "{s:?}");
    assert_eq!(
        s.delivered + s.dropped + s.expired,
        1 + u64::from(flood),
        "{s:?}"
    );
}

/// Runs `side` until its calculator has forwarded `n` packets (at most `ms`); the time reached.
fn run_until_sent(side: &mut Side, n: usize, ms: u64) -> u64 {
    let start = side.calc.now();
    let mut t = start;
    while side.sent.len() < n && t < start + ms * MS {
        t += STEP;
        side.run_to(t);
    }
    t
}

fn list1_header(size: u16) -> tifiles::var::Header {
    tifiles::var::Header::Var {
        size,
        ty: tifiles::var::VarType::List,
        name: tifiles::var::VarName::list(1).unwrap(),
    }
}

#[test]
fn a_far_request_is_not_kept_when_the_peer_leaves() {
    // An answer to our calculator's REQ that arrived whole is delivered after the cable goes;
    // a far REQ naming the same packet is not an answer but a new exchange with a peer that is
    // gone, and would have waited on the wire for a minute (a fuzz finding).
    let mut asker = Side::new(&[("PULL", "{5}->L1\nGet(L1)\nPause")], "PULL");
    let t = run_until_sent(&mut asker, 1, 1_000);
    assert_eq!(cmds(&asker), [Command::Req]);
    let mid = tilink::MID_TI82;
    asker.endpoint.packet(2, 1, Packet::ack(mid).to_bytes());
    asker
        .endpoint
        .packet(3, 1, Packet::var(mid, &list1_header(29)).to_bytes());
    asker.endpoint.packet(4, 1, req_l1().to_bytes());
    asker.unplug();
    assert_eq!(asker.endpoint.queued(), 2, "the ACK and VAR stay");
    assert_eq!(asker.endpoint.stats().dropped, 1, "the REQ goes");
    // ACK and VAR go in; the DATA never comes: the Get( fails and the endpoint is quiet again.
    asker.run_to(t + 6_000 * MS);
    let s = asker.endpoint.stats();
    assert_eq!((s.delivered, s.dropped), (2, 1), "{s:?}");
    assert_eq!(asker.list1(), Some(vec![Real::from_i64(5)]));
    assert!(asker.endpoint.is_quiet(), "{s:?}");
}

#[test]
fn a_var_our_calculator_never_answers_does_not_swallow_its_next_request() {
    // A VAR without the ACK before it (spec 1.7.6 wants REQ, ACK, VAR) is not answered by our
    // calculator, whose Get( gives up; the endpoint must not take the next Get('s REQ for a
    // decline of that VAR (it kept the REQ and played an ACK to it).
    let mut asker = Side::new(&[("PULL", "Get(L1)\nGet(L1)\nPause")], "PULL");
    run_until_sent(&mut asker, 1, 1_000);
    assert_eq!(cmds(&asker), [Command::Req]);
    let mid = tilink::MID_TI82;
    asker
        .endpoint
        .packet(2, 1, Packet::var(mid, &list1_header(29)).to_bytes());
    run_until_sent(&mut asker, 2, 10_000);
    assert_eq!(cmds(&asker), [Command::Req, Command::Req]);
}
