//! The local endpoint: a virtual device on one calculator's own cable that plays the far
//! calculator's part of every bit handshake with TI-82 timing (spec hw 7.2, software 2.2),
//! assembles the calculator's bytes into TI packets (spec 1.1) for the network, and clocks the
//! far calculator's packets into this one as fast as it takes them.
//!
//! It is polled like every `tilink` side (a [`TimedPort`] in, a [`Wake`] out) and never
//! touches the network: [`ByteEndpoint::take_outgoing`] and [`ByteEndpoint::incoming`] carry
//! whole packets and the two readiness messages to and from the network thread.
//!
//! Readiness stays truthful (docs/link.md, "Failure modes"):
//! - a far packet our calculator does not start taking within the TI step timeout (2 s of its
//!   own time, the sender's wait for the first acknowledge) is dropped, with the rest of that
//!   exchange, and reported `Expired` to the far side;
//! - when our calculator has sent a packet that needs an answer and none has started within
//!   the TI reply timeout (2 s), our calculator has given up: the endpoint sends `Cancel`, and
//!   far packets answering that packet (their `reply_to`) are dropped, not delivered late;
//! - a `Cancel` from the far side drops its cancelled packet if still queued here.
//!
//! A `Get(` takes one round trip, not two (docs/link.md, "One round trip per `Get(`"): the
//! holder's endpoint plays the requester's ACK and CTS as soon as its calculator has sent the
//! VAR answering a far REQ, and ACKs the DATA itself, so VAR and DATA cross together; the
//! requester's endpoint keeps that DATA until its calculator has sent its own ACK and CTS,
//! which (with its final ACK) stay here. Which exchanges this applies to follows from the
//! packets alone (spec 1.7.6), so both ends agree without saying so.

use std::collections::VecDeque;

use ti82_machine::LinkEndpoint;
use tilink::{ByteEvent, ByteTransport, Command, Dir, Parser, TimedPort, Timing, Wake};

/// Far packets queued for the calculator at most; a flooding peer loses the oldest.
pub const MAX_QUEUED: usize = 64;
/// How long a far REQ or RTS waits for our calculator to take its first bit when no `Cancel`
/// comes (the far calculator's own 2 s reply timeout normally ends it first): 60 s.
pub const REQUEST_PATIENCE: u64 = 60 * ti82_machine::CLOCK_HZ;
/// Cancelled sequence numbers remembered.
const MAX_CANCELLED: usize = 32;

/// What the endpoint tells the far side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// A whole packet our calculator sent; `reply_to` is the last far packet it had taken.
    Packet {
        seq: u32,
        reply_to: u32,
        bytes: Vec<u8>,
    },
    /// Our calculator did not take the far packet `seq` (or broke off inside it).
    Expired { seq: u32 },
    /// Our calculator gave up waiting for an answer to its packet `seq`.
    Cancel { seq: u32 },
}

impl From<Outgoing> for crate::wire::Msg {
    fn from(o: Outgoing) -> Self {
        use crate::wire::Msg;
        match o {
            Outgoing::Packet {
                seq,
                reply_to,
                bytes,
            } => Msg::Packet {
                seq,
                reply_to,
                bytes,
            },
            Outgoing::Expired { seq } => Msg::Expired { seq },
            Outgoing::Cancel { seq } => Msg::Cancel { seq },
        }
    }
}

/// Counters for the status line, the docs and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndpointStats {
    /// Packets our calculator sent (forwarded).
    pub sent: u64,
    /// Far packets our calculator took whole.
    pub delivered: u64,
    /// Far packets our calculator never took (reported `Expired`).
    pub expired: u64,
    /// Times our calculator gave up waiting (reported `Cancel`).
    pub cancelled: u64,
    /// Far packets dropped: answers to a cancelled packet, cancelled by the far side, the rest
    /// of an expired exchange, a full queue, an unplugged cable.
    pub dropped: u64,
    /// Bytes from our calculator that made no valid packet.
    pub garbage: u64,
    /// `Get(` exchanges answered in one round trip (as holder or requester).
    pub one_trip: u64,
}

/// Where a queued packet came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The far side's packet `seq`, sent after it had taken our packet `reply_to`.
    Far { seq: u32, reply_to: u32 },
    /// Played by the endpoint itself (the far calculator's part of a one-trip `Get(`): no far
    /// packet, so never counted, cancelled, expired or dropped as one.
    Played,
}

#[derive(Clone, Debug)]
struct Queued {
    origin: Origin,
    cmd: Command,
    bytes: Vec<u8>,
}

impl Queued {
    fn is_far(&self) -> bool {
        matches!(self.origin, Origin::Far { .. })
    }

    /// The far side's number of this packet.
    fn far_seq(&self) -> Option<u32> {
        match self.origin {
            Origin::Far { seq, .. } => Some(seq),
            Origin::Played => None,
        }
    }

    /// A far packet sent after the far side had taken our packet `ours`.
    fn answers(&self, ours: u32) -> bool {
        matches!(self.origin, Origin::Far { reply_to, .. } if reply_to == ours)
    }
}

/// Where our calculator is in a `Get(` the far calculator made of it (spec 1.7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    Idle,
    /// A far REQ was delivered: our calculator answers ACK, then VAR (or EXIT).
    Asked {
        mid: u8,
    },
    /// Our VAR went out and the requester's ACK and CTS were played here: our calculator
    /// answers ACK, then DATA, which is ACKed here.
    Sending {
        mid: u8,
    },
}

/// Where our calculator is in a `Get(` it made of the far calculator (spec 1.7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Requester {
    Idle,
    /// Our REQ `seq` went out.
    Asked {
        seq: u32,
    },
    /// The far VAR (from machine `mid`) was delivered. Our calculator's ACK and CTS stay
    /// here (the holder's endpoint played them) and far packets wait until it has sent them.
    Answering {
        seq: u32,
        mid: u8,
    },
    /// Our CTS stayed here; the far ACK and DATA go in (`data_in` once the DATA has); our
    /// calculator's ACK of the DATA stays here.
    Receiving {
        seq: u32,
        data_in: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Waiting for the calculator's first bit (`bit_seen`: it has begun one).
    Listening { bit_seen: bool },
    /// Inside a packet from the calculator.
    Receiving,
    /// Clocking the front packet of the queue into the calculator.
    Sending { pos: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Awaiting {
    seq: u32,
    since: u64,
}

/// The virtual far calculator on a calculator's cable.
#[derive(Debug)]
pub struct ByteEndpoint {
    timing: Timing,
    xport: ByteTransport,
    mode: Mode,
    parser: Parser,
    queue: VecDeque<Queued>,
    out: Vec<Outgoing>,
    next_seq: u32,
    last_out: Option<(u32, Command)>,
    last_in: u32,
    awaiting: Option<Awaiting>,
    /// Since when our calculator owes the next packet (it took one that is answered, spec
    /// 1.7): far packets wait until it has sent it, or for one step timeout.
    owed: Option<u64>,
    cancelled: VecDeque<u32>,
    holder: Holder,
    requester: Requester,
    stats: EndpointStats,
}

impl Default for ByteEndpoint {
    fn default() -> Self {
        Self::new(Timing::default())
    }
}

impl ByteEndpoint {
    pub fn new(timing: Timing) -> Self {
        let mut e = ByteEndpoint {
            timing,
            xport: ByteTransport::new(timing),
            mode: Mode::Listening { bit_seen: false },
            parser: Parser::new(),
            queue: VecDeque::new(),
            out: Vec::new(),
            next_seq: 1,
            last_out: None,
            last_in: 0,
            awaiting: None,
            owed: None,
            cancelled: VecDeque::new(),
            holder: Holder::Idle,
            requester: Requester::Idle,
            stats: EndpointStats::default(),
        };
        e.listen();
        e
    }

    pub fn stats(&self) -> EndpointStats {
        self.stats
    }

    /// Whether our calculator waits for an answer that has to cross the network (the front
    /// end then caps it at real speed, so its TI timeouts run in wall time).
    pub fn awaiting(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Far packets waiting for the calculator (not counting what the endpoint plays itself).
    pub fn queued(&self) -> usize {
        self.queue.iter().filter(|q| q.is_far()).count()
    }

    /// Whether the endpoint is idle: nothing queued, nothing on the wires, nothing awaited.
    pub fn is_quiet(&self) -> bool {
        self.queue.is_empty()
            && self.awaiting.is_none()
            && matches!(self.mode, Mode::Listening { bit_seen: false })
            && self.parser.is_idle()
            && self.requester == Requester::Idle
            && self.holder == Holder::Idle
    }

    /// Messages for the far side.
    pub fn take_outgoing(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.out)
    }

    /// A far packet.
    pub fn packet(&mut self, seq: u32, reply_to: u32, bytes: Vec<u8>) {
        // Sequence numbers start at 1 (docs/link.md); 0 names no packet.
        if seq == 0 || self.cancelled.contains(&reply_to) {
            // An answer to a packet our calculator has given up on: on a wire it would never
            // have come.
            self.stats.dropped += 1;
            return;
        }
        // Exactly one TI packet: trailing bytes would be clocked in as packets nobody counted,
        // queued or could cancel.
        let p = match tilink::Packet::parse(&bytes) {
            Ok((p, n)) if n == bytes.len() => p,
            _ => {
                self.stats.dropped += 1;
                return;
            }
        };
        if self.queued() >= MAX_QUEUED {
            // The oldest far packet, never the one being clocked in (the front, when sending)
            // nor one the endpoint plays itself.
            let sending = matches!(self.mode, Mode::Sending { .. });
            let oldest =
                (0..self.queue.len()).find(|&i| self.queue[i].is_far() && !(sending && i == 0));
            if let Some(at) = oldest {
                self.queue.remove(at);
                self.stats.dropped += 1;
            }
        }
        self.queue.push_back(Queued {
            origin: Origin::Far { seq, reply_to },
            cmd: p.cmd,
            bytes,
        });
    }

    /// The far side's calculator never took our packet `seq`: no answer will come.
    pub fn expired(&mut self, seq: u32) {
        if self.awaiting.is_some_and(|a| a.seq == seq) {
            self.awaiting = None;
            self.requester = Requester::Idle;
        }
    }

    /// The far side's calculator gave up waiting for an answer to its packet `seq`.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, seq: u32, ep: &mut E) {
        self.drop_queued(|q| q.far_seq() == Some(seq));
        if matches!(self.mode, Mode::Sending { .. })
            && self.queue.front().is_some_and(|q| q.far_seq() == Some(seq))
        {
            // Broken off inside the packet, as a sender that gives up would.
            self.queue.pop_front();
            self.stats.dropped += 1;
            self.xport.cancel(ep);
            self.listen();
        }
    }

    /// The cable was unplugged (the far side went away): everything in flight is lost, our
    /// drive is released, and our calculator's own timeouts end what it was doing. Except an
    /// answer to our calculator's own request that has already arrived whole: the far
    /// endpoint finished that exchange for its calculator (one-trip `Get(`), so it is
    /// delivered, as what the endpoint plays itself is. A far request (REQ, RTS) is never
    /// such an answer: it starts an exchange of its own with a peer that is gone.
    pub fn unplugged<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        let ours = match self.requester {
            Requester::Asked { seq }
            | Requester::Answering { seq, .. }
            | Requester::Receiving { seq, .. } => Some(seq),
            Requester::Idle => None,
        };
        let kept = |q: &Queued| {
            !q.is_far()
                || (ours.is_some_and(|s| q.answers(s))
                    && !matches!(q.cmd, Command::Req | Command::Rts))
        };
        let front_kept = self.queue.front().is_none_or(kept);
        let before = self.queue.len();
        self.queue.retain(kept);
        self.stats.dropped += (before - self.queue.len()) as u64;
        self.awaiting = None;
        self.holder = Holder::Idle;
        if self.queue.is_empty() {
            self.requester = Requester::Idle;
            self.owed = None;
        }
        let sending = matches!(self.mode, Mode::Sending { .. });
        if (sending && !front_kept) || (!sending && !self.parser.is_idle()) {
            self.parser.reset();
            self.xport.cancel(ep);
            self.listen();
        }
    }

    /// Drops the queued far packets `gone` picks, except the one being clocked in.
    fn drop_queued(&mut self, gone: impl Fn(&Queued) -> bool) {
        let sending = matches!(self.mode, Mode::Sending { .. });
        let before = self.queue.len();
        let mut i = 0;
        self.queue.retain(|q| {
            let keep = (sending && i == 0) || !q.is_far() || !gone(q);
            i += 1;
            keep
        });
        self.stats.dropped += (before - self.queue.len()) as u64;
    }

    /// When our calculator has certainly given up waiting for the answer `a`: its reply
    /// timeout counts from the end of its packet, plus one step timeout more.
    fn give_up_at(&self, a: Awaiting) -> u64 {
        a.since + self.timing.reply_timeout + self.timing.react * 4
    }

    fn listen(&mut self) {
        self.mode = Mode::Listening { bit_seen: false };
        self.xport.receive(None);
    }

    /// Plays `packets` to our calculator ahead of everything queued: the far calculator's
    /// part of a one-trip `Get(` (only called right after a packet from our calculator, so
    /// nothing is being clocked in).
    fn play(&mut self, packets: &[tilink::Packet]) {
        for p in packets.iter().rev() {
            self.queue.push_front(Queued {
                origin: Origin::Played,
                cmd: p.cmd,
                bytes: p.to_bytes(),
            });
        }
    }

    /// The requester's side of a one-trip `Get(`: true when `p` stays here.
    fn kept_here(&mut self, p: &tilink::Packet, now: u64) -> bool {
        match (self.requester, p.cmd) {
            // Its ACK of the VAR: the holder's endpoint played it.
            (Requester::Answering { .. }, Command::Ack) => true,
            (Requester::Answering { seq, .. }, Command::Cts) => {
                self.requester = Requester::Receiving {
                    seq,
                    data_in: false,
                };
                self.awaiting = Some(Awaiting { seq, since: now });
                true
            }
            // A request begins an exchange of its own: the VAR went unanswered (it came out
            // of turn, or the Get( had already given up).
            (Requester::Answering { .. }, Command::Req | Command::Rts) => {
                self.requester = Requester::Idle;
                false
            }
            (Requester::Answering { seq, mid }, _) => {
                // It declined the variable (SKIP/EXIT): the holder has already sent it, so
                // its DATA is dropped, and the decline is ACKed here as the holder would.
                self.requester = Requester::Idle;
                self.drop_queued(|q| q.answers(seq));
                self.play(&[tilink::Packet::ack(mid)]);
                true
            }
            (Requester::Receiving { data_in: true, .. }, Command::Ack) => {
                self.requester = Requester::Idle;
                self.stats.one_trip += 1;
                true
            }
            (Requester::Idle, _) => false,
            _ => {
                self.requester = Requester::Idle;
                false
            }
        }
    }

    /// A whole packet from our calculator: kept here or forwarded to the far side.
    fn calc_sent(&mut self, p: tilink::Packet, now: u64) {
        let cmd = p.cmd;
        self.forward_or_keep(p, now);
        // After its ACK it still owes the CTS of a one-trip Get( it receives, or the VAR or
        // DATA of one it answers.
        let more = cmd == Command::Ack
            && (matches!(self.requester, Requester::Answering { .. })
                || matches!(self.holder, Holder::Asked { .. } | Holder::Sending { .. }));
        self.owed = more.then_some(now);
    }

    fn forward_or_keep(&mut self, p: tilink::Packet, now: u64) {
        if self.kept_here(&p, now) {
            return;
        }
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1).max(1);
        self.out.push(Outgoing::Packet {
            seq,
            reply_to: self.last_in,
            bytes: p.to_bytes(),
        });
        self.stats.sent += 1;
        self.last_out = Some((seq, p.cmd));
        // Every packet but ACK asks the other side for the next one (spec 1.7).
        let mut awaits = p.cmd != Command::Ack;
        match (self.holder, p.cmd) {
            (Holder::Asked { .. } | Holder::Sending { .. }, Command::Ack) => {}
            (Holder::Asked { mid }, Command::Var) => {
                // The requester's ACK and CTS, played now: VAR and DATA cross together.
                self.play(&[tilink::Packet::ack(mid), tilink::Packet::cts(mid)]);
                self.holder = Holder::Sending { mid };
                awaits = false;
            }
            (Holder::Sending { mid }, Command::Data) => {
                self.play(&[tilink::Packet::ack(mid)]);
                self.holder = Holder::Idle;
                self.stats.one_trip += 1;
                awaits = false;
            }
            _ => self.holder = Holder::Idle,
        }
        if p.cmd == Command::Req {
            self.requester = Requester::Asked { seq };
        }
        self.awaiting = awaits.then_some(Awaiting { seq, since: now });
    }

    /// A whole packet delivered to our calculator.
    fn delivered(&mut self, q: Queued, now: u64) {
        // Every packet but ACK is answered: the calculator talks next.
        if q.cmd != Command::Ack {
            self.owed = Some(now);
        }
        let Some(seq) = q.far_seq() else {
            return;
        };
        self.stats.delivered += 1;
        self.last_in = seq;
        self.holder = match q.cmd {
            Command::Req => Holder::Asked { mid: q.bytes[0] },
            _ => Holder::Idle,
        };
        self.requester = match (self.requester, q.cmd) {
            (r @ Requester::Asked { .. }, Command::Ack) => r,
            (Requester::Asked { seq }, Command::Var) => Requester::Answering {
                seq,
                mid: q.bytes[0],
            },
            (r @ Requester::Receiving { .. }, Command::Ack) => r,
            (Requester::Receiving { seq, .. }, Command::Data) => {
                Requester::Receiving { seq, data_in: true }
            }
            _ => Requester::Idle,
        };
        // An ACK of our REQ, CTS, VAR or RTS: the far side goes on talking.
        if q.cmd == Command::Ack {
            if let Some((seq, cmd)) = self.last_out {
                if matches!(
                    cmd,
                    Command::Req | Command::Cts | Command::Var | Command::Rts
                ) {
                    self.awaiting = Some(Awaiting { seq, since: now });
                }
            }
        }
    }

    fn gave_up(&mut self, now: u64) {
        if let Some(a) = self.awaiting {
            if now >= self.give_up_at(a) {
                self.awaiting = None;
                self.out.push(Outgoing::Cancel { seq: a.seq });
                self.requester = Requester::Idle;
                self.stats.cancelled += 1;
                if self.cancelled.len() >= MAX_CANCELLED {
                    self.cancelled.pop_front();
                }
                self.cancelled.push_back(a.seq);
                self.drop_queued(|q| q.answers(a.seq));
            }
        }
    }

    /// Everything the wires allow at `ep.now()`.
    pub fn poll(&mut self, ep: &mut TimedPort) -> Wake {
        let now = ep.now();
        self.gave_up(now);
        loop {
            if let Mode::Listening { bit_seen } = &mut self.mode {
                if ep.lines() != 3 {
                    *bit_seen = true;
                }
                // While our calculator owes an answer, far packets wait (a far REQ clocked in
                // then would collide with it); a calculator silent for a step timeout owes
                // nothing more.
                if self
                    .owed
                    .is_some_and(|t| now >= t.saturating_add(self.timing.step_timeout))
                {
                    self.owed = None;
                }
                if !*bit_seen
                    && self.parser.is_idle()
                    && !self.queue.is_empty()
                    && self.owed.is_none()
                {
                    // Our turn to talk: the calculator is between packets.
                    self.mode = Mode::Sending { pos: 0 };
                    let q = &self.queue[0];
                    if q.is_far() && matches!(q.cmd, Command::Req | Command::Rts) {
                        // A far request waits on the wire for our calculator as long as the
                        // far one waits for an answer: its own reply timeout ends it (Cancel).
                        self.xport.send_patiently(q.bytes[0], REQUEST_PATIENCE);
                    } else {
                        self.xport.send(q.bytes[0]);
                    }
                }
            }
            match self.xport.poll(ep) {
                ByteEvent::Pending(mut w) => {
                    if let Some(a) = self.awaiting {
                        w = w.min(Wake::at(self.give_up_at(a)));
                    }
                    if let Some(t) = self.owed.filter(|_| !self.queue.is_empty()) {
                        w = w.min(Wake::at(t.saturating_add(self.timing.step_timeout)));
                    }
                    return w;
                }
                ByteEvent::Idle => self.listen(),
                ByteEvent::Done(rec) if rec.dir == Dir::Received => {
                    match self.parser.push(rec.value) {
                        Some(Ok(p)) => {
                            self.calc_sent(p, rec.end);
                            self.listen();
                        }
                        Some(Err(_)) => {
                            self.stats.garbage += 1;
                            self.listen();
                        }
                        None => {
                            // Inside a packet: the next byte must begin in time (2 s).
                            self.mode = Mode::Receiving;
                            self.xport
                                .receive(Some(now.saturating_add(self.timing.byte_timeout)));
                        }
                    }
                }
                ByteEvent::Done(_) => {
                    let Mode::Sending { pos } = self.mode else {
                        self.listen();
                        continue;
                    };
                    if pos == 0 {
                        // An answer has started to arrive.
                        self.awaiting = None;
                    }
                    let pos = pos + 1;
                    let q = &self.queue[0];
                    if pos < q.bytes.len() {
                        self.mode = Mode::Sending { pos };
                        self.xport.send(q.bytes[pos]);
                    } else {
                        let q = self.queue.pop_front().expect("front packet");
                        self.delivered(q, now);
                        self.listen();
                    }
                }
                ByteEvent::Failed(_) => match self.mode {
                    Mode::Sending { .. } => {
                        // Not taken in time (at the first bit) or broken off: the far side
                        // learns it, and the rest of that exchange goes too.
                        let q = self.queue.pop_front().expect("front packet");
                        if let Some(seq) = q.far_seq() {
                            self.out.push(Outgoing::Expired { seq });
                            self.stats.expired += 1;
                        }
                        self.holder = Holder::Idle;
                        self.requester = Requester::Idle;
                        // Counted: the far packets (not what the endpoint played itself).
                        self.stats.dropped += self.queued() as u64;
                        self.queue.clear();
                        self.listen();
                    }
                    _ => {
                        if !self.parser.is_idle() {
                            self.stats.garbage += 1;
                        }
                        self.parser.reset();
                        self.listen();
                    }
                },
            }
        }
    }
}
