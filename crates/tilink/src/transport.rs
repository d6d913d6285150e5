//! The byte transport: the four-phase DBus bit handshake (spec 2.2, hardware 7.2) as a
//! non-blocking state machine over a [`LinkEndpoint`], driven by emulated time.
//!
//! [`ByteTransport::poll`] does everything the wires allow at the endpoint's current time and
//! says when it next needs to run ([`Wake`]): at a time (a reaction delay, a timeout) and/or
//! when the lines change. Each byte's start and end times are reported ([`ByteRecord`]).

use machine::link::{LinkEndpoint, RING, TIP};

use crate::error::{LinkError, Waiting};
use crate::state::{corrupt, get_opt, put_opt, StateError, StateReader, StateWriter};

/// T-states per emulated second.
pub const T_PER_SECOND: u64 = 6_000_000;

/// Timing of one side. All values in T-states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Delay between seeing the edge we wait for and answering it: the polling loop of a real
    /// calculator (spec hardware 7.3 asks a peer to answer after "tens of T-states").
    pub react: u64,
    /// Longest wait for each handshake step inside a bit (spec 2.3: the bus allows ~2 s; an
    /// emulated peer should tolerate ≥ 2 s).
    pub step_timeout: u64,
    /// Longest wait for the first bit of the next byte inside a packet.
    pub byte_timeout: u64,
    /// Longest wait for a reply packet (an ACK, the next packet of a sequence; spec 1.7.8:
    /// TiLP uses 1.5 s, "a few seconds is safe").
    pub reply_timeout: u64,
    /// Both lines low this long outside a bit = abort (spec 2.3: ~250 µs).
    pub abort_hold: u64,
    /// After an error, a listening side waits until both lines have been high this long
    /// before it listens again (spec 1.7.8).
    pub resync_quiet: u64,
    /// For drivers that cannot see line changes: poll at least this often while waiting for
    /// an edge ([`Wake::next`]).
    pub poll_step: u64,
}

/// Spec 2.3: "tolerate ≥ 2 s".
pub const DEFAULT_STEP_TIMEOUT: u64 = 2 * T_PER_SECOND;

impl Default for Timing {
    fn default() -> Self {
        Timing {
            react: 40,
            step_timeout: DEFAULT_STEP_TIMEOUT,
            byte_timeout: DEFAULT_STEP_TIMEOUT,
            reply_timeout: DEFAULT_STEP_TIMEOUT,
            abort_hold: 1_500,
            resync_quiet: T_PER_SECOND / 10,
            poll_step: 24,
        }
    }
}

/// When a state machine next needs to be polled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    /// Poll again at this T-state at the latest (`u64::MAX`: no deadline).
    pub at: u64,
    /// Also poll as soon as the lines change.
    pub edge: bool,
}

impl Wake {
    /// Nothing to do, ever (a finished transfer).
    pub const NEVER: Wake = Wake {
        at: u64::MAX,
        edge: false,
    };

    pub fn at(at: u64) -> Wake {
        Wake { at, edge: false }
    }

    pub fn edge(deadline: u64) -> Wake {
        Wake {
            at: deadline,
            edge: true,
        }
    }

    /// The next time to poll for a driver that cannot see edges and so polls every `step`
    /// T-states while an edge is awaited.
    pub fn next(&self, now: u64, step: u64) -> u64 {
        if self.edge {
            self.at.min(now.saturating_add(step.max(1)))
        } else {
            self.at
        }
    }

    /// The earlier of two wakes.
    pub fn min(self, o: Wake) -> Wake {
        Wake {
            at: self.at.min(o.at),
            edge: self.edge || o.edge,
        }
    }
}

/// A link port seen at one time: the machine crate's [`machine::Link`] endpoint, under the
/// name the drivers here use for it.
pub type TimedPort<'a> = machine::Link<'a>;

/// Who sent a byte, from this side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Sent,
    Received,
}

/// One byte and the time it took on the wires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteRecord {
    pub value: u8,
    pub dir: Dir,
    /// First bit: when the sender pulled its line / the receiver saw it.
    pub start: u64,
    /// Last bit: when the sender saw both lines high / the receiver released its acknowledge.
    pub end: u64,
}

/// What [`ByteTransport::poll`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ByteEvent {
    /// Working; poll again as told.
    Pending(Wake),
    /// Nothing started.
    Idle,
    /// A byte was sent or received.
    Done(ByteRecord),
    /// The byte failed; both lines are released.
    Failed(LinkError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SendPhase {
    WaitIdle,
    Pull { at: u64 },
    WaitAck,
    Release { at: u64 },
    WaitRelease,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RecvPhase {
    WaitBit { both_low_since: Option<u64> },
    Ack { at: u64, ack: u8, line: u8 },
    WaitSenderRelease { line: u8 },
    Release { at: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Send {
        value: u8,
        bit: u8,
        start: u64,
        deadline: u64,
        phase: SendPhase,
    },
    Recv {
        value: u8,
        bit: u8,
        start: u64,
        /// `None`: wait for the first bit forever.
        deadline: Option<u64>,
        phase: RecvPhase,
    },
}

/// One byte at a time over the two wires (spec 2.2): bits LSB first; a 0 bit pulls the tip, a
/// 1 bit the ring; the receiver acknowledges on the other line; each step has a timeout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteTransport {
    timing: Timing,
    state: State,
    /// How long the byte being sent waits for its first bit's acknowledge, if not
    /// `step_timeout` ([`ByteTransport::send_patiently`]; not part of a saved state).
    first_ack: Option<u64>,
}

impl ByteTransport {
    pub fn new(timing: Timing) -> Self {
        ByteTransport {
            first_ack: None,
            timing,
            state: State::Idle,
        }
    }

    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    pub fn is_idle(&self) -> bool {
        self.state == State::Idle
    }

    /// Whether a byte is under way: a bit of it is being sent, or one has been seen. A
    /// receive armed for the next byte with nothing on the wires yet is not (nor a send still
    /// waiting for both lines high).
    pub fn mid_byte(&self) -> bool {
        match self.state {
            State::Idle => false,
            State::Send { bit, phase, .. } => bit > 0 || phase != SendPhase::WaitIdle,
            State::Recv { bit, phase, .. } => {
                bit > 0 || !matches!(phase, RecvPhase::WaitBit { .. })
            }
        }
    }

    /// Starts sending `value` (replaces whatever was in progress). The first bit waits for
    /// both lines high, at most `step_timeout` from the first poll.
    pub fn send(&mut self, value: u8) {
        self.first_ack = None;
        self.start_send(value);
    }

    /// [`ByteTransport::send`], with the first bit waiting up to `first_ack` T-states for its
    /// acknowledge instead of the step timeout: a device that stands in for a sender whose
    /// own patience is kept elsewhere (the network cable, docs/link.md).
    pub fn send_patiently(&mut self, value: u8, first_ack: u64) {
        self.first_ack = Some(first_ack);
        self.start_send(value);
    }

    fn start_send(&mut self, value: u8) {
        self.state = State::Send {
            value,
            bit: 0,
            start: 0,
            deadline: u64::MAX,
            phase: SendPhase::WaitIdle,
        };
    }

    /// Starts receiving a byte whose first bit must begin by `deadline` (`None`: no limit).
    pub fn receive(&mut self, deadline: Option<u64>) {
        self.state = State::Recv {
            value: 0,
            bit: 0,
            start: 0,
            deadline,
            phase: RecvPhase::WaitBit {
                both_low_since: None,
            },
        };
    }

    /// Stops whatever is in progress and releases both lines.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.state = State::Idle;
        ep.set_drive(0);
    }

    fn fail<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E, e: LinkError) -> ByteEvent {
        self.cancel(ep);
        ByteEvent::Failed(e)
    }

    /// Advances as far as the wires allow at `ep.now()`.
    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> ByteEvent {
        let now = ep.now();
        let tm = self.timing;
        let timeout = |what| LinkError::Timeout { what, at: now };
        loop {
            match &mut self.state {
                State::Idle => return ByteEvent::Idle,
                State::Send {
                    value,
                    bit,
                    start,
                    deadline,
                    phase,
                } => match *phase {
                    SendPhase::WaitIdle => {
                        if *deadline == u64::MAX {
                            *deadline = now.saturating_add(tm.step_timeout);
                            // Whatever was replaced, we pull nothing while waiting.
                            ep.set_drive(0);
                        }
                        if ep.lines() == 3 {
                            *phase = SendPhase::Pull {
                                at: now.saturating_add(tm.react),
                            };
                        } else if now >= *deadline {
                            return self.fail(ep, timeout(Waiting::LinesIdle));
                        } else {
                            return ByteEvent::Pending(Wake::edge(*deadline));
                        }
                    }
                    SendPhase::Pull { at } => {
                        if now < at {
                            return ByteEvent::Pending(Wake::at(at));
                        }
                        // Step 2: 0 → pull the tip, 1 → pull the ring.
                        let one = (*value >> *bit) & 1 != 0;
                        ep.set_drive(if one { RING } else { TIP });
                        let wait = if *bit == 0 {
                            *start = now;
                            self.first_ack.unwrap_or(tm.step_timeout)
                        } else {
                            tm.step_timeout
                        };
                        *deadline = now.saturating_add(wait);
                        *phase = SendPhase::WaitAck;
                    }
                    SendPhase::WaitAck => {
                        if ep.lines() == 0 {
                            *phase = SendPhase::Release {
                                at: now.saturating_add(tm.react),
                            };
                        } else if now >= *deadline {
                            return self.fail(ep, timeout(Waiting::BitAck));
                        } else {
                            return ByteEvent::Pending(Wake::edge(*deadline));
                        }
                    }
                    SendPhase::Release { at } => {
                        if now < at {
                            return ByteEvent::Pending(Wake::at(at));
                        }
                        // Step 4: the receiver acknowledged; release our line.
                        ep.set_drive(0);
                        *deadline = now.saturating_add(tm.step_timeout);
                        *phase = SendPhase::WaitRelease;
                    }
                    SendPhase::WaitRelease => {
                        if ep.lines() == 3 {
                            *bit += 1;
                            if *bit == 8 {
                                let rec = ByteRecord {
                                    value: *value,
                                    dir: Dir::Sent,
                                    start: *start,
                                    end: now,
                                };
                                self.state = State::Idle;
                                return ByteEvent::Done(rec);
                            }
                            *phase = SendPhase::Pull {
                                at: now.saturating_add(tm.react),
                            };
                        } else if now >= *deadline {
                            return self.fail(ep, timeout(Waiting::BitRelease));
                        } else {
                            return ByteEvent::Pending(Wake::edge(*deadline));
                        }
                    }
                },
                State::Recv {
                    value,
                    bit,
                    start,
                    deadline,
                    phase,
                } => match *phase {
                    RecvPhase::WaitBit { both_low_since } => {
                        if *bit == 0 {
                            // Between bytes we pull nothing (a no-op unless a send was
                            // replaced mid-bit).
                            ep.set_drive(0);
                        }
                        let lines = ep.lines();
                        // Tip low = 0, ring low = 1; acknowledge on the other line.
                        let seen = match lines {
                            2 => Some((0u8, RING, TIP)),
                            1 => Some((1u8, TIP, RING)),
                            _ => None,
                        };
                        if let Some((b, ack, line)) = seen {
                            if *bit == 0 {
                                *start = now;
                            }
                            *value |= b << *bit;
                            *phase = RecvPhase::Ack {
                                at: now.saturating_add(tm.react),
                                ack,
                                line,
                            };
                            continue;
                        }
                        let mut wake = Wake::edge(deadline.unwrap_or(u64::MAX));
                        if lines == 0 {
                            // Both low outside a bit: the abort signal once held (spec 2.3).
                            let since = both_low_since.unwrap_or(now);
                            *phase = RecvPhase::WaitBit {
                                both_low_since: Some(since),
                            };
                            let abort_at = since.saturating_add(tm.abort_hold);
                            if now >= abort_at {
                                return self.fail(ep, LinkError::Abort { at: now });
                            }
                            wake = wake.min(Wake::at(abort_at));
                        } else {
                            *phase = RecvPhase::WaitBit {
                                both_low_since: None,
                            };
                        }
                        if deadline.is_some_and(|d| now >= d) {
                            return self.fail(ep, timeout(Waiting::Bit));
                        }
                        return ByteEvent::Pending(wake);
                    }
                    RecvPhase::Ack { at, ack, line } => {
                        if now < at {
                            return ByteEvent::Pending(Wake::at(at));
                        }
                        ep.set_drive(ack);
                        *deadline = Some(now.saturating_add(tm.step_timeout));
                        *phase = RecvPhase::WaitSenderRelease { line };
                    }
                    RecvPhase::WaitSenderRelease { line } => {
                        if ep.lines() & line != 0 {
                            *phase = RecvPhase::Release {
                                at: now.saturating_add(tm.react),
                            };
                        } else if deadline.is_some_and(|d| now >= d) {
                            return self.fail(ep, timeout(Waiting::BitRelease));
                        } else {
                            return ByteEvent::Pending(Wake::edge(deadline.unwrap_or(u64::MAX)));
                        }
                    }
                    RecvPhase::Release { at } => {
                        if now < at {
                            return ByteEvent::Pending(Wake::at(at));
                        }
                        // Step 5: the sender let go; release our acknowledge.
                        ep.set_drive(0);
                        *bit += 1;
                        if *bit == 8 {
                            let rec = ByteRecord {
                                value: *value,
                                dir: Dir::Received,
                                start: *start,
                                end: now,
                            };
                            self.state = State::Idle;
                            return ByteEvent::Done(rec);
                        }
                        *deadline = Some(now.saturating_add(tm.step_timeout));
                        *phase = RecvPhase::WaitBit {
                            both_low_since: None,
                        };
                    }
                },
            }
        }
    }
}

impl Timing {
    pub(crate) fn save(&self, w: &mut StateWriter) {
        for v in [
            self.react,
            self.step_timeout,
            self.byte_timeout,
            self.reply_timeout,
            self.abort_hold,
            self.resync_quiet,
            self.poll_step,
        ] {
            w.u64(v);
        }
    }

    pub(crate) fn load(r: &mut StateReader) -> Result<Timing, StateError> {
        Ok(Timing {
            react: r.u64()?,
            step_timeout: r.u64()?,
            byte_timeout: r.u64()?,
            reply_timeout: r.u64()?,
            abort_hold: r.u64()?,
            resync_quiet: r.u64()?,
            poll_step: r.u64()?,
        })
    }
}

impl ByteTransport {
    /// Saves the whole state (timing, the byte and bit in progress).
    pub fn save(&self, w: &mut StateWriter) {
        self.timing.save(w);
        match self.state {
            State::Idle => w.u8(0),
            State::Send {
                value,
                bit,
                start,
                deadline,
                phase,
            } => {
                w.u8(1);
                w.u8(value);
                w.u8(bit);
                w.u64(start);
                w.u64(deadline);
                let (k, at) = match phase {
                    SendPhase::WaitIdle => (0, 0),
                    SendPhase::Pull { at } => (1, at),
                    SendPhase::WaitAck => (2, 0),
                    SendPhase::Release { at } => (3, at),
                    SendPhase::WaitRelease => (4, 0),
                };
                w.u8(k);
                w.u64(at);
            }
            State::Recv {
                value,
                bit,
                start,
                deadline,
                phase,
            } => {
                w.u8(2);
                w.u8(value);
                w.u8(bit);
                w.u64(start);
                put_opt(w, deadline);
                match phase {
                    RecvPhase::WaitBit { both_low_since } => {
                        w.u8(0);
                        put_opt(w, both_low_since);
                    }
                    RecvPhase::Ack { at, ack, line } => {
                        w.u8(1);
                        w.u64(at);
                        w.u8(ack);
                        w.u8(line);
                    }
                    RecvPhase::WaitSenderRelease { line } => {
                        w.u8(2);
                        w.u8(line);
                    }
                    RecvPhase::Release { at } => {
                        w.u8(3);
                        w.u64(at);
                    }
                }
            }
        }
    }

    /// Restores what [`ByteTransport::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<ByteTransport, StateError> {
        let timing = Timing::load(r)?;
        let state = match r.u8()? {
            0 => State::Idle,
            1 => {
                let (value, bit, start, deadline) = (r.u8()?, r.u8()?, r.u64()?, r.u64()?);
                let (k, at) = (r.u8()?, r.u64()?);
                let phase = match k {
                    0 => SendPhase::WaitIdle,
                    1 => SendPhase::Pull { at },
                    2 => SendPhase::WaitAck,
                    3 => SendPhase::Release { at },
                    4 => SendPhase::WaitRelease,
                    _ => return Err(corrupt("link: send phase")),
                };
                State::Send {
                    value,
                    bit,
                    start,
                    deadline,
                    phase,
                }
            }
            2 => {
                let (value, bit, start, deadline) = (r.u8()?, r.u8()?, r.u64()?, get_opt(r)?);
                let phase = match r.u8()? {
                    0 => RecvPhase::WaitBit {
                        both_low_since: get_opt(r)?,
                    },
                    1 => RecvPhase::Ack {
                        at: r.u64()?,
                        ack: r.u8()? & 3,
                        line: r.u8()? & 3,
                    },
                    2 => RecvPhase::WaitSenderRelease { line: r.u8()? & 3 },
                    3 => RecvPhase::Release { at: r.u64()? },
                    _ => return Err(corrupt("link: receive phase")),
                };
                State::Recv {
                    value,
                    bit,
                    start,
                    deadline,
                    phase,
                }
            }
            _ => return Err(corrupt("link: byte state")),
        };
        let bit = match state {
            State::Send { bit, .. } | State::Recv { bit, .. } => bit,
            State::Idle => 0,
        };
        if bit >= 8 {
            return Err(corrupt("link: bit index"));
        }
        Ok(ByteTransport {
            timing,
            state,
            first_ack: None,
        })
    }
}
