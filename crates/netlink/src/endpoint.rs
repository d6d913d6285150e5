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

use std::collections::VecDeque;

use ti82_machine::LinkEndpoint;
use tilink::{ByteEvent, ByteTransport, Command, Dir, Parser, TimedPort, Timing, Wake};

/// Far packets queued for the calculator at most; a flooding peer loses the oldest.
pub const MAX_QUEUED: usize = 64;
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
}

#[derive(Clone, Debug)]
struct Queued {
    seq: u32,
    reply_to: u32,
    cmd: Command,
    bytes: Vec<u8>,
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
    cancelled: VecDeque<u32>,
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
            cancelled: VecDeque::new(),
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

    /// Far packets waiting for the calculator.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Whether the endpoint is idle: nothing queued, nothing on the wires, nothing awaited.
    pub fn is_quiet(&self) -> bool {
        self.queue.is_empty()
            && self.awaiting.is_none()
            && matches!(self.mode, Mode::Listening { bit_seen: false })
            && self.parser.is_idle()
    }

    /// Messages for the far side.
    pub fn take_outgoing(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.out)
    }

    /// A far packet.
    pub fn packet(&mut self, seq: u32, reply_to: u32, bytes: Vec<u8>) {
        if self.cancelled.contains(&reply_to) {
            // An answer to a packet our calculator has given up on: on a wire it would never
            // have come.
            self.stats.dropped += 1;
            return;
        }
        let Ok((p, _)) = tilink::Packet::parse(&bytes) else {
            self.stats.dropped += 1;
            return;
        };
        if self.queue.len() >= MAX_QUEUED {
            // Never the one being clocked in (the front, when sending).
            let at = usize::from(matches!(self.mode, Mode::Sending { .. }));
            if self.queue.remove(at).is_some() {
                self.stats.dropped += 1;
            }
        }
        self.queue.push_back(Queued {
            seq,
            reply_to,
            cmd: p.cmd,
            bytes,
        });
    }

    /// The far side's calculator never took our packet `seq`: no answer will come.
    pub fn expired(&mut self, seq: u32) {
        if self.awaiting.is_some_and(|a| a.seq == seq) {
            self.awaiting = None;
        }
    }

    /// The far side's calculator gave up waiting for an answer to its packet `seq`.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, seq: u32, ep: &mut E) {
        self.drop_queued(|q| q.seq == seq);
        if matches!(self.mode, Mode::Sending { .. })
            && self.queue.front().is_some_and(|q| q.seq == seq)
        {
            // Broken off inside the packet, as a sender that gives up would.
            self.queue.pop_front();
            self.stats.dropped += 1;
            self.xport.cancel(ep);
            self.listen();
        }
    }

    /// The cable was unplugged (the far side went away): everything in flight is lost, our
    /// drive is released, and our calculator's own timeouts end what it was doing.
    pub fn unplugged<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.stats.dropped += self.queue.len() as u64;
        self.queue.clear();
        self.awaiting = None;
        if !matches!(self.mode, Mode::Listening { .. }) || !self.parser.is_idle() {
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
            let keep = (sending && i == 0) || !gone(q);
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

    fn forward_packet(&mut self, p: tilink::Packet, bytes_sent: Vec<u8>, now: u64) {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1).max(1);
        self.out.push(Outgoing::Packet {
            seq,
            reply_to: self.last_in,
            bytes: bytes_sent,
        });
        self.stats.sent += 1;
        self.last_out = Some((seq, p.cmd));
        // Every packet but ACK asks the other side for the next one (spec 1.7).
        self.awaiting = (p.cmd != Command::Ack).then_some(Awaiting { seq, since: now });
    }

    fn gave_up(&mut self, now: u64) {
        if let Some(a) = self.awaiting {
            if now >= self.give_up_at(a) {
                self.awaiting = None;
                self.out.push(Outgoing::Cancel { seq: a.seq });
                self.stats.cancelled += 1;
                if self.cancelled.len() >= MAX_CANCELLED {
                    self.cancelled.pop_front();
                }
                self.cancelled.push_back(a.seq);
                self.drop_queued(|q| q.reply_to == a.seq);
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
                if !*bit_seen && self.parser.is_idle() && !self.queue.is_empty() {
                    // Our turn to talk: the calculator is between packets.
                    self.mode = Mode::Sending { pos: 0 };
                    let b = self.queue[0].bytes[0];
                    self.xport.send(b);
                }
            }
            match self.xport.poll(ep) {
                ByteEvent::Pending(w) => {
                    return match self.awaiting {
                        Some(a) => w.min(Wake::at(self.give_up_at(a))),
                        None => w,
                    };
                }
                ByteEvent::Idle => self.listen(),
                ByteEvent::Done(rec) if rec.dir == Dir::Received => {
                    match self.parser.push(rec.value) {
                        Some(Ok(p)) => {
                            let bytes = p.to_bytes();
                            self.forward_packet(p, bytes, rec.end);
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
                        self.stats.delivered += 1;
                        self.last_in = q.seq;
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
                        self.listen();
                    }
                }
                ByteEvent::Failed(_) => match self.mode {
                    Mode::Sending { .. } => {
                        // Not taken in time (at the first bit) or broken off: the far side
                        // learns it, and the rest of that exchange goes too.
                        let q = self.queue.pop_front().expect("front packet");
                        self.out.push(Outgoing::Expired { seq: q.seq });
                        self.stats.expired += 1;
                        self.stats.dropped += self.queue.len() as u64;
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
