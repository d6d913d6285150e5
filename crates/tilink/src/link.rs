//! The packet layer on the byte transport: send a packet, receive one (with the reply
//! timeouts of spec 1.7.8), and the checksum-error rule of spec 1.6 item 3 (answer a bad
//! packet with ERR; resend the last packet when ERR arrives; at most [`MAX_RETRIES`]).

use machine::link::LinkEndpoint;

use crate::error::{LinkError, Waiting};
use crate::packet::{Command, Packet, PacketError, Parser};
use crate::state::{corrupt, get_opt, get_usize, put_opt, StateError, StateReader, StateWriter};
use crate::transport::{ByteEvent, ByteRecord, ByteTransport, Timing, Wake};

/// Checksum retries before giving up (spec 1.6 item 3: "3 is reasonable").
pub const MAX_RETRIES: u32 = 3;

/// What [`PacketLink::poll`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    Pending(Wake),
    /// Nothing asked.
    Idle,
    /// The packet given to [`PacketLink::send`] is on its way (all bytes acknowledged).
    Sent,
    /// A packet arrived (after [`PacketLink::receive`] or [`PacketLink::send_then_receive`]).
    Packet(Packet),
    /// Failed; both lines are released and the link is idle.
    Failed(LinkError),
}

#[derive(Clone, Debug)]
enum Mode {
    Idle,
    Sending {
        bytes: Vec<u8>,
        pos: usize,
        /// Listen afterwards with this timeout (`Some(None)`: no timeout).
        then: Option<Option<u64>>,
    },
    Receiving {
        /// Timeout for the first bit of the packet, counted from the first poll.
        timeout: Option<u64>,
        started: bool,
    },
}

/// A packet link over one link port endpoint.
#[derive(Clone, Debug)]
pub struct PacketLink {
    bytes: ByteTransport,
    parser: Parser,
    mode: Mode,
    last_sent: Option<Packet>,
    retries: u32,
    records: Option<Vec<ByteRecord>>,
    mid: u8,
}

impl PacketLink {
    /// A link whose own packets (ERR included) carry machine ID `mid` (spec 1.3).
    pub fn new(mid: u8, timing: Timing) -> Self {
        PacketLink {
            mid,
            bytes: ByteTransport::new(timing),
            parser: Parser::new(),
            mode: Mode::Idle,
            last_sent: None,
            retries: 0,
            records: None,
        }
    }

    /// Our machine ID.
    pub fn mid(&self) -> u8 {
        self.mid
    }

    pub fn timing(&self) -> Timing {
        *self.bytes.timing()
    }

    /// Keeps a record of every byte sent and received (value, direction, times).
    pub fn record_bytes(&mut self, on: bool) {
        self.records = on.then(Vec::new);
    }

    /// The bytes recorded so far.
    pub fn records(&self) -> &[ByteRecord] {
        self.records.as_deref().unwrap_or(&[])
    }

    pub fn take_records(&mut self) -> Vec<ByteRecord> {
        self.records
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Whether nothing is in progress.
    pub fn is_idle(&self) -> bool {
        matches!(self.mode, Mode::Idle)
    }

    /// Whether a packet is under way: one is being sent (an ERR answering a bad packet
    /// included), or a bit of one has been received. Listening with nothing on the wires yet
    /// is not, however long it has been polled.
    pub fn mid_packet(&self) -> bool {
        match &self.mode {
            Mode::Idle => false,
            Mode::Sending { .. } => true,
            Mode::Receiving { .. } => !self.parser.is_idle() || self.bytes.mid_byte(),
        }
    }

    /// Sends `p`; [`LinkEvent::Sent`] when done.
    pub fn send(&mut self, p: &Packet) {
        self.start_send(p, None);
    }

    /// Sends `p`, then waits for the reply packet at most `timeout` T-states (`None`: forever).
    pub fn send_then_receive(&mut self, p: &Packet, timeout: Option<u64>) {
        self.start_send(p, Some(timeout));
    }

    fn start_send(&mut self, p: &Packet, then: Option<Option<u64>>) {
        if p.cmd != Command::Err {
            self.last_sent = Some(p.clone());
            self.retries = 0;
        }
        self.mode = Mode::Sending {
            bytes: p.to_bytes(),
            pos: 0,
            then,
        };
        self.bytes = ByteTransport::new(self.timing());
    }

    /// Waits for a packet; its first bit must come within `timeout` T-states of the first
    /// poll (`None`: forever).
    pub fn receive(&mut self, timeout: Option<u64>) {
        self.parser.reset();
        self.mode = Mode::Receiving {
            timeout,
            started: false,
        };
        self.bytes = ByteTransport::new(self.timing());
    }

    /// Stops and releases both lines.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.bytes.cancel(ep);
        self.parser.reset();
        self.mode = Mode::Idle;
    }

    fn fail<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E, e: LinkError) -> LinkEvent {
        self.cancel(ep);
        LinkEvent::Failed(e)
    }

    fn record(&mut self, r: ByteRecord) {
        if let Some(v) = &mut self.records {
            v.push(r);
        }
    }

    /// Advances as far as the wires allow at `ep.now()`.
    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> LinkEvent {
        let tm = self.timing();
        loop {
            let now = ep.now();
            match &mut self.mode {
                Mode::Idle => return LinkEvent::Idle,
                Mode::Sending { bytes, pos, then } => {
                    if self.bytes.is_idle() {
                        match bytes.get(*pos) {
                            Some(&b) => self.bytes.send(b),
                            None => match *then {
                                None => {
                                    self.mode = Mode::Idle;
                                    return LinkEvent::Sent;
                                }
                                Some(timeout) => {
                                    self.parser.reset();
                                    self.mode = Mode::Receiving {
                                        timeout,
                                        started: false,
                                    };
                                    continue;
                                }
                            },
                        }
                    }
                    match self.bytes.poll(ep) {
                        ByteEvent::Pending(w) => return LinkEvent::Pending(w),
                        ByteEvent::Idle => {}
                        ByteEvent::Done(r) => {
                            if let Mode::Sending { pos, .. } = &mut self.mode {
                                *pos += 1;
                            }
                            self.record(r);
                        }
                        ByteEvent::Failed(e) => return self.fail(ep, e),
                    }
                }
                Mode::Receiving { timeout, started } => {
                    if self.bytes.is_idle() {
                        let deadline = if !*started {
                            *started = true;
                            timeout.map(|t| now.saturating_add(t))
                        } else {
                            Some(now.saturating_add(tm.byte_timeout))
                        };
                        self.bytes.receive(deadline);
                    }
                    let first = self.parser.is_idle();
                    match self.bytes.poll(ep) {
                        ByteEvent::Pending(w) => return LinkEvent::Pending(w),
                        ByteEvent::Idle => {}
                        ByteEvent::Failed(LinkError::Timeout { at, .. }) if first => {
                            return self.fail(
                                ep,
                                LinkError::Timeout {
                                    what: Waiting::Reply,
                                    at,
                                },
                            );
                        }
                        ByteEvent::Failed(e) => return self.fail(ep, e),
                        ByteEvent::Done(r) => {
                            self.record(r);
                            match self.parser.push(r.value) {
                                None => {}
                                Some(Ok(p)) => {
                                    if let Some(ev) = self.on_packet(p) {
                                        return ev;
                                    }
                                }
                                Some(Err(PacketError::Checksum { .. }))
                                    if self.retries < MAX_RETRIES =>
                                {
                                    // Spec 1.6 item 3: ask for the same packet again.
                                    self.retries += 1;
                                    let t = self.reply_timeout_of_mode();
                                    self.mode = Mode::Sending {
                                        bytes: Packet::err(self.err_mid()).to_bytes(),
                                        pos: 0,
                                        then: Some(t),
                                    };
                                }
                                Some(Err(PacketError::Checksum { .. })) => {
                                    let n = self.retries;
                                    return self.fail(ep, LinkError::Retries(n));
                                }
                                Some(Err(e)) => return self.fail(ep, e.into()),
                            }
                        }
                    }
                }
            }
        }
    }

    fn reply_timeout_of_mode(&self) -> Option<u64> {
        Some(self.timing().reply_timeout)
    }

    fn err_mid(&self) -> u8 {
        self.mid
    }

    /// A whole packet arrived while receiving: ERR makes us resend (spec 1.6 item 3);
    /// anything else goes up.
    fn on_packet(&mut self, p: Packet) -> Option<LinkEvent> {
        if p.cmd == Command::Err {
            if let Some(last) = self.last_sent.clone() {
                if self.retries >= MAX_RETRIES {
                    self.mode = Mode::Idle;
                    return Some(LinkEvent::Failed(LinkError::Retries(self.retries)));
                }
                self.retries += 1;
                let t = self.reply_timeout_of_mode();
                self.mode = Mode::Sending {
                    bytes: last.to_bytes(),
                    pos: 0,
                    then: Some(t),
                };
                return None;
            }
        }
        self.mode = Mode::Idle;
        Some(LinkEvent::Packet(p))
    }
}

impl PacketLink {
    /// Saves the whole state: the byte in progress, the partial packet, what is being sent,
    /// the last packet (for ERR resends). Byte records are not saved (only whether they are
    /// kept).
    pub fn save(&self, w: &mut StateWriter) {
        w.u8(self.mid);
        self.bytes.save(w);
        self.parser.save(w);
        match &self.mode {
            Mode::Idle => w.u8(0),
            Mode::Sending { bytes, pos, then } => {
                w.u8(1);
                w.bytes(bytes);
                w.u64(*pos as u64);
                w.bool(then.is_some());
                put_opt(w, then.flatten());
            }
            Mode::Receiving { timeout, started } => {
                w.u8(2);
                put_opt(w, *timeout);
                w.bool(*started);
            }
        }
        w.bool(self.last_sent.is_some());
        if let Some(p) = &self.last_sent {
            p.save(w);
        }
        w.u32(self.retries);
        w.bool(self.records.is_some());
    }

    /// Restores what [`PacketLink::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<PacketLink, StateError> {
        let mid = r.u8()?;
        let bytes = ByteTransport::load(r)?;
        let parser = Parser::load(r)?;
        let mode = match r.u8()? {
            0 => Mode::Idle,
            1 => {
                let b = r.bytes()?.to_vec();
                let pos = get_usize(r)?;
                let listen = r.bool()?;
                let t = get_opt(r)?;
                if pos > b.len() || b.len() > 4 + crate::packet::MAX_DATA + 2 {
                    return Err(corrupt("link: send position"));
                }
                Mode::Sending {
                    bytes: b,
                    pos,
                    then: listen.then_some(t),
                }
            }
            2 => Mode::Receiving {
                timeout: get_opt(r)?,
                started: r.bool()?,
            },
            _ => return Err(corrupt("link: packet mode")),
        };
        let last_sent = if r.bool()? {
            Some(Packet::load(r)?)
        } else {
            None
        };
        let retries = r.u32()?;
        let records = r.bool()?.then(Vec::new);
        Ok(PacketLink {
            bytes,
            parser,
            mode,
            last_sent,
            retries,
            records,
            mid,
        })
    }
}
