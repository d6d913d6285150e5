//! Transfer sequences (spec 1.7) as state machines over a [`PacketLink`]: nothing blocks, no
//! wall clock. Poll each with the endpoint of its side; it answers [`Progress::Pending`] with
//! the time it next needs to run, or [`Progress::Done`] once with the result.
//!
//! - [`SendVars`]: the sender of 1.7.1 / 1.7.2 (VAR, ACK, CTS, ACK, DATA, ACK, …, EOT), also
//!   a backup (1.7.4) and the `Send(` push with RTS (1.7.7).
//! - [`ReceiveVars`]: the receiver of 1.7.1 / 1.7.2 / 1.7.4.
//! - [`Requester`]: the side that sends REQ (1.7.6), e.g. a TI-82 running `Get(L1)`.
//! - [`Holder`]: the idle side that answers REQ (1.7.6) and SCR (1.7.5).
//! - [`Screenshot`]: the computer side of 1.7.5.

use machine::link::LinkEndpoint;
use tifiles::var::{Header, VarName, VarType, Variable};
use tifiles::Backup;

use crate::error::LinkError;
use crate::link::{LinkEvent, PacketLink};
use crate::packet::{Command, Packet, REJECT_EXIT, REJECT_SKIP, SCREEN_BYTES};
use crate::state::{
    corrupt, get_name, get_opt, get_var, put_name, put_opt, put_var, StateError, StateReader,
    StateWriter,
};
use crate::transport::{Timing, Wake};
use std::sync::{Arc, Mutex};

/// What a sequence's poll reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress<T> {
    /// Poll again as told.
    Pending(Wake),
    /// Finished (reported once; later polls give `Err(LinkError::Finished)`).
    Done(Result<T, LinkError>),
}

impl<T> Progress<T> {
    pub fn is_done(&self) -> bool {
        matches!(self, Progress::Done(_))
    }
}

fn unexpected(p: &Packet, expected: &'static str) -> LinkError {
    LinkError::Unexpected {
        got: p.describe(),
        expected,
    }
}

fn idle_error(expected: &'static str) -> LinkError {
    LinkError::Unexpected {
        got: "an idle link".into(),
        expected,
    }
}

/// The common driver: poll the link, hand its events to `step` until it waits or finishes.
trait Steps {
    type Out;
    fn link(&mut self) -> &mut PacketLink;
    fn finished(&mut self) -> &mut bool;
    /// One link event; `Ok(Some)` finishes, `Ok(None)` continues (a new link command issued).
    fn step(&mut self, ev: LinkEvent) -> Result<Option<Self::Out>, LinkError>;
    /// The link failed (it has already released both lines); `Err` ends the sequence with
    /// that error, `Ok(Some)` ends it successfully anyway.
    fn failed(&mut self, e: LinkError) -> Result<Option<Self::Out>, LinkError> {
        Err(e)
    }
    /// Waiting for something outside the link (a user's answer): nothing to poll for.
    fn parked(&self) -> bool {
        false
    }

    fn drive<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> Progress<Self::Out> {
        if *self.finished() {
            return Progress::Done(Err(LinkError::Finished));
        }
        if self.parked() {
            return Progress::Pending(Wake::NEVER);
        }
        // Each turn either waits, finishes, or moves the link on; the bound only guards
        // against a state machine bug turning into a hang.
        for _ in 0..1_000_000 {
            let r = match self.link().poll(ep) {
                LinkEvent::Pending(w) => return Progress::Pending(w),
                LinkEvent::Failed(e) => self.failed(e),
                ev => self.step(ev),
            };
            match r {
                Ok(None) if self.parked() => return Progress::Pending(Wake::NEVER),
                Ok(None) => continue,
                Ok(Some(v)) => {
                    *self.finished() = true;
                    return Progress::Done(Ok(v));
                }
                Err(e) => {
                    self.link().cancel(ep);
                    *self.finished() = true;
                    return Progress::Done(Err(e));
                }
            }
        }
        self.link().cancel(ep);
        *self.finished() = true;
        Progress::Done(Err(idle_error("progress")))
    }
}

// ------------------------------------------------------------------------------- sending

/// One thing to send: a header and its DATA sections (one for a variable, three for a
/// backup).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub header: Header,
    pub sections: Vec<Vec<u8>>,
}

impl Outgoing {
    pub fn variable(v: &Variable) -> Outgoing {
        let data = v.data.to_bytes();
        Outgoing {
            header: Header::Var {
                size: data.len() as u16,
                ty: v.var_type(),
                name: v.name,
            },
            sections: vec![data],
        }
    }

    /// A backup (spec 1.7.4): 9-byte header, three DATA packets.
    pub fn backup(b: &Backup) -> Outgoing {
        Outgoing {
            header: Header::Backup {
                len1: b.section1.len() as u16,
                len2: b.section2.len() as u16,
                len3: b.section3.len() as u16,
                address: b.address,
            },
            sections: vec![b.section1.clone(), b.section2.clone(), b.section3.clone()],
        }
    }

    /// A screen image pushed by `PrintScreen` (spec 1.7.5: type 0x0E, name all zeros).
    pub fn screen(bits: &[u8]) -> Outgoing {
        Outgoing {
            header: Header::Var {
                size: bits.len() as u16,
                ty: VarType::Screen,
                name: VarName::default(),
            },
            sections: vec![bits.to_vec()],
        }
    }
}

/// What a finished [`SendVars`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendReport {
    /// Indices of the items sent.
    pub sent: Vec<usize>,
    /// Indices of the items the receiver skipped (SKIP 02).
    pub skipped: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SendSt {
    Start,
    HeaderAck,
    Decision,
    AckThenData,
    AckThenNext,
    AckThenExit(u8),
    DataAck,
    EotAck,
}

/// Sends variables (or a backup) to a receiver (spec 1.7.1 seen from the computer, 1.7.2 seen
/// from the calculator, 1.7.4). The CTS/SKIP after each header may take as long as the user
/// needs (no timeout unless [`SendVars::decision_timeout`] is set); every other reply must
/// come within the reply timeout.
#[derive(Clone, Debug)]
pub struct SendVars {
    link: PacketLink,
    items: Vec<Outgoing>,
    idx: usize,
    section: usize,
    eot: bool,
    eot_optional: bool,
    header_cmd: Command,
    decision_timeout: Option<u64>,
    st: SendSt,
    report: SendReport,
    finished: bool,
}

impl SendVars {
    /// Sends `vars` then EOT, with machine ID `mid` ([`crate::MID_COMPUTER`] from a computer,
    /// [`crate::MID_TI82`] from a calculator).
    pub fn new(mid: u8, timing: Timing, vars: &[Variable]) -> Self {
        Self::items(
            mid,
            timing,
            vars.iter().map(Outgoing::variable).collect(),
            true,
        )
    }

    /// Sends a backup; no EOT follows (spec 1.7.4).
    pub fn backup(mid: u8, timing: Timing, b: &Backup) -> Self {
        Self::items(mid, timing, vec![Outgoing::backup(b)], false)
    }

    /// Any items; `eot`: end with EOT.
    pub fn items(mid: u8, timing: Timing, items: Vec<Outgoing>, eot: bool) -> Self {
        SendVars {
            link: PacketLink::new(mid, timing),
            items,
            idx: 0,
            section: 0,
            eot,
            eot_optional: false,
            header_cmd: Command::Var,
            decision_timeout: None,
            st: SendSt::Start,
            report: SendReport::default(),
            finished: false,
        }
    }

    /// Announces with RTS instead of VAR (the `Send(` push of spec 1.7.7).
    pub fn with_rts(mut self) -> Self {
        self.header_cmd = Command::Rts;
        self
    }

    /// Sends the final EOT without requiring its ACK: a peer that does not answer it within
    /// the reply timeout still ends the send successfully (the tail of `Send(`, spec 1.7.7:
    /// a peer should ACK an EOT and must not require one).
    pub fn eot_ack_optional(mut self) -> Self {
        self.eot_optional = true;
        self
    }

    /// Limits the wait for the receiver's CTS/SKIP (default: none, spec 1.7.8).
    pub fn decision_timeout(mut self, t: Option<u64>) -> Self {
        self.decision_timeout = t;
        self
    }

    /// The index of the item being sent (the number of items when only EOT is left).
    pub fn position(&self) -> usize {
        self.idx
    }

    /// True while the receiver has taken a header and its CTS or SKIP is awaited: the time a
    /// calculator's user answers its question (a backup's warning, a duplicate name).
    pub fn awaiting_decision(&self) -> bool {
        self.st == SendSt::Decision
    }

    pub fn link(&self) -> &PacketLink {
        &self.link
    }
    pub fn link_mut(&mut self) -> &mut PacketLink {
        &mut self.link
    }

    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> Progress<SendReport> {
        self.drive(ep)
    }

    /// Stops and releases both lines.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.link.cancel(ep);
        self.finished = true;
    }

    fn reply(&self) -> Option<u64> {
        Some(self.link.timing().reply_timeout)
    }

    fn reject(&mut self, code: u8) {
        let mid = self.link.mid();
        self.link.send(&Packet::ack(mid));
        self.st = if code == REJECT_SKIP {
            SendSt::AckThenNext
        } else {
            SendSt::AckThenExit(code)
        };
    }

    fn send_section(&mut self) -> Result<Option<SendReport>, LinkError> {
        let mid = self.link.mid();
        let data = self.items[self.idx].sections[self.section].clone();
        let r = self.reply();
        self.link.send_then_receive(&Packet::data(mid, data), r);
        self.st = SendSt::DataAck;
        Ok(None)
    }
}

impl Steps for SendVars {
    type Out = SendReport;
    fn link(&mut self) -> &mut PacketLink {
        &mut self.link
    }
    fn finished(&mut self) -> &mut bool {
        &mut self.finished
    }

    fn failed(&mut self, e: LinkError) -> Result<Option<SendReport>, LinkError> {
        match (self.st, &e) {
            // Everything was delivered; only the EOT went unanswered.
            (SendSt::EotAck, LinkError::Timeout { .. }) if self.eot_optional => {
                Ok(Some(std::mem::take(&mut self.report)))
            }
            _ => Err(e),
        }
    }

    fn step(&mut self, ev: LinkEvent) -> Result<Option<SendReport>, LinkError> {
        let mid = self.link.mid();
        let reply = self.reply();
        match (self.st, ev) {
            (SendSt::Start, LinkEvent::Idle) => {
                if let Some(item) = self.items.get(self.idx) {
                    let p = Packet::with_data(mid, self.header_cmd, item.header.to_bytes());
                    self.link.send_then_receive(&p, reply);
                    self.st = SendSt::HeaderAck;
                } else if self.eot {
                    self.link.send_then_receive(&Packet::eot(mid), reply);
                    self.st = SendSt::EotAck;
                } else {
                    return Ok(Some(std::mem::take(&mut self.report)));
                }
            }
            (SendSt::HeaderAck, LinkEvent::Packet(p)) => match p.cmd {
                Command::Ack => {
                    self.link.receive(self.decision_timeout);
                    self.st = SendSt::Decision;
                }
                Command::Skip => self.reject(p.reject_code().unwrap_or(REJECT_EXIT)),
                _ => return Err(unexpected(&p, "ACK of the header")),
            },
            (SendSt::Decision, LinkEvent::Packet(p)) => match p.cmd {
                Command::Cts => {
                    self.link.send(&Packet::ack(mid));
                    self.st = SendSt::AckThenData;
                }
                Command::Skip => self.reject(p.reject_code().unwrap_or(REJECT_EXIT)),
                _ => return Err(unexpected(&p, "CTS or SKIP/EXIT")),
            },
            (SendSt::AckThenData, LinkEvent::Sent) => {
                self.section = 0;
                if self.items[self.idx].sections.is_empty() {
                    self.report.sent.push(self.idx);
                    self.idx += 1;
                    self.st = SendSt::Start;
                    return self.step(LinkEvent::Idle);
                }
                return self.send_section();
            }
            (SendSt::DataAck, LinkEvent::Packet(p)) => match p.cmd {
                Command::Ack => {
                    self.section += 1;
                    if self.section < self.items[self.idx].sections.len() {
                        return self.send_section();
                    }
                    self.report.sent.push(self.idx);
                    self.idx += 1;
                    self.st = SendSt::Start;
                    return self.step(LinkEvent::Idle);
                }
                _ => return Err(unexpected(&p, "ACK of DATA")),
            },
            (SendSt::AckThenNext, LinkEvent::Sent) => {
                self.report.skipped.push(self.idx);
                self.idx += 1;
                self.st = SendSt::Start;
                return self.step(LinkEvent::Idle);
            }
            (SendSt::AckThenExit(code), LinkEvent::Sent) => {
                return Err(LinkError::Rejected { code });
            }
            (SendSt::EotAck, LinkEvent::Packet(p)) => match p.cmd {
                Command::Ack => return Ok(Some(std::mem::take(&mut self.report))),
                _ => return Err(unexpected(&p, "ACK of EOT")),
            },
            (_, LinkEvent::Packet(p)) => return Err(unexpected(&p, "the next step of a send")),
            _ => return Err(idle_error("the next step of a send")),
        }
        Ok(None)
    }
}

// ----------------------------------------------------------------------------- receiving

/// A receiver's answer to a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// CTS.
    Accept,
    /// SKIP (02): not this one, go on.
    Skip,
    /// EXIT (01): stop the whole transfer.
    Exit,
}

/// What a finished [`ReceiveVars`] got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Received {
    pub vars: Vec<Variable>,
    pub backup: Option<Backup>,
    /// Headers answered with SKIP or EXIT.
    pub skipped: Vec<Header>,
}

/// A caller's rule for answering headers (shared by the clones of a receiver).
type Acceptor = Arc<Mutex<dyn FnMut(&Header) -> Decision + Send>>;

/// How a [`ReceiveVars`] answers each header.
#[derive(Clone)]
enum Answer {
    /// CTS to everything.
    All,
    /// Stop after the header's ACK until [`ReceiveVars::decide`] (a calculator asking its user).
    Ask,
    Custom(Acceptor),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RecvSt {
    Start,
    Header,
    AckThenAsk,
    /// The header is ACKed; the answer waits for [`ReceiveVars::decide`].
    Asking,
    AckThenCts,
    CtsAck,
    Data,
    AckThenMore,
    AckThenSkip(u8),
    SkipAck(u8),
    AckThenDone,
}

/// Receives what a sender sends (spec 1.7.1 seen from the calculator in LINK RECEIVE, 1.7.2
/// seen from the computer, 1.7.4): waits for the first header with no timeout, answers each
/// header through the acceptor (default: accept all), stops at EOT (or after a backup's third
/// section, or after it answered EXIT).
#[derive(Clone)]
pub struct ReceiveVars {
    link: PacketLink,
    accept: Answer,
    first_timeout: Option<u64>,
    st: RecvSt,
    header: Option<Header>,
    sections: Vec<Vec<u8>>,
    got: Received,
    started: bool,
    finished: bool,
}

impl ReceiveVars {
    pub fn new(mid: u8, timing: Timing) -> Self {
        ReceiveVars {
            link: PacketLink::new(mid, timing),
            accept: Answer::All,
            first_timeout: None,
            st: RecvSt::Start,
            header: None,
            sections: Vec::new(),
            got: Received::default(),
            started: false,
            finished: false,
        }
    }

    /// Decides on each header (CTS, SKIP or EXIT).
    pub fn with_acceptor(mut self, f: impl FnMut(&Header) -> Decision + Send + 'static) -> Self {
        self.accept = Answer::Custom(Arc::new(Mutex::new(f)));
        self
    }

    /// Answers no header by itself: after ACKing one it waits, with both lines released and
    /// no timeout (spec 1.7.1 step 3), until [`Self::decide`] gives the answer, as a
    /// calculator in LINK RECEIVE does while its user answers the duplicate-name menu.
    pub fn asking(mut self) -> Self {
        self.accept = Answer::Ask;
        self
    }

    /// The header waiting for an answer, in [`Self::asking`] mode.
    pub fn question(&self) -> Option<&Header> {
        match self.st {
            RecvSt::Asking => self.header.as_ref(),
            _ => None,
        }
    }

    /// Answers the header of [`Self::question`] (CTS, SKIP or EXIT); nothing otherwise.
    pub fn decide(&mut self, d: Decision) {
        if self.st != RecvSt::Asking || self.finished {
            return;
        }
        let reply = self.reply();
        let mid = self.link.mid();
        match d {
            Decision::Accept => {
                self.link.send_then_receive(&Packet::cts(mid), reply);
                self.st = RecvSt::CtsAck;
            }
            Decision::Skip | Decision::Exit => {
                let code = if d == Decision::Skip {
                    REJECT_SKIP
                } else {
                    REJECT_EXIT
                };
                self.link.send_then_receive(&Packet::skip(mid, code), reply);
                self.st = RecvSt::SkipAck(code);
            }
        }
    }

    /// Limits the wait for the first header (default: none).
    pub fn first_timeout(mut self, t: Option<u64>) -> Self {
        self.first_timeout = t;
        self
    }

    pub fn link(&self) -> &PacketLink {
        &self.link
    }
    pub fn link_mut(&mut self) -> &mut PacketLink {
        &mut self.link
    }

    /// What has arrived so far (also after an error: the variables before it are kept).
    pub fn received(&self) -> &Received {
        &self.got
    }

    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> Progress<Received> {
        self.drive(ep)
    }

    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.link.cancel(ep);
        self.finished = true;
    }

    fn reply(&self) -> Option<u64> {
        Some(self.link.timing().reply_timeout)
    }

    fn next_header(&mut self) {
        let r = self.reply();
        self.link.receive(r);
        self.st = RecvSt::Header;
    }
}

impl Steps for ReceiveVars {
    type Out = Received;
    fn link(&mut self) -> &mut PacketLink {
        &mut self.link
    }
    fn finished(&mut self) -> &mut bool {
        &mut self.finished
    }
    fn parked(&self) -> bool {
        self.st == RecvSt::Asking
    }

    fn step(&mut self, ev: LinkEvent) -> Result<Option<Received>, LinkError> {
        let mid = self.link.mid();
        let reply = self.reply();
        match (self.st, ev) {
            (RecvSt::Start, LinkEvent::Idle) if !self.started => {
                self.started = true;
                self.link.receive(self.first_timeout);
                self.st = RecvSt::Header;
            }
            (RecvSt::Header, LinkEvent::Packet(p)) => match p.cmd {
                Command::Var | Command::Rts => {
                    let h = p.header().ok_or_else(|| unexpected(&p, "a valid header"))?;
                    self.header = Some(h);
                    self.sections.clear();
                    self.link.send(&Packet::ack(mid));
                    let decision = match &self.accept {
                        Answer::All => Some(Decision::Accept),
                        Answer::Ask => None,
                        Answer::Custom(f) => Some(match f.lock() {
                            Ok(mut f) => f(&h),
                            Err(_) => Decision::Exit,
                        }),
                    };
                    self.st = match decision {
                        None => RecvSt::AckThenAsk,
                        Some(Decision::Accept) => RecvSt::AckThenCts,
                        Some(Decision::Skip) => RecvSt::AckThenSkip(REJECT_SKIP),
                        Some(Decision::Exit) => RecvSt::AckThenSkip(REJECT_EXIT),
                    };
                }
                Command::Eot => {
                    self.link.send(&Packet::ack(mid));
                    self.st = RecvSt::AckThenDone;
                }
                _ => return Err(unexpected(&p, "VAR or EOT")),
            },
            (RecvSt::AckThenAsk, LinkEvent::Sent) => self.st = RecvSt::Asking,
            (RecvSt::AckThenCts, LinkEvent::Sent) => {
                self.link.send_then_receive(&Packet::cts(mid), reply);
                self.st = RecvSt::CtsAck;
            }
            (RecvSt::CtsAck, LinkEvent::Packet(p)) => {
                if p.cmd != Command::Ack {
                    return Err(unexpected(&p, "ACK of CTS"));
                }
                self.link.receive(reply);
                self.st = RecvSt::Data;
            }
            (RecvSt::Data, LinkEvent::Packet(p)) => {
                if p.cmd != Command::Data {
                    return Err(unexpected(&p, "DATA"));
                }
                self.sections.push(p.data);
                self.link.send(&Packet::ack(mid));
                self.st = RecvSt::AckThenMore;
            }
            (RecvSt::AckThenMore, LinkEvent::Sent) => match self.header {
                Some(Header::Backup { address, .. }) => {
                    if self.sections.len() < 3 {
                        self.link.receive(reply);
                        self.st = RecvSt::Data;
                    } else {
                        let mut s = std::mem::take(&mut self.sections).into_iter();
                        self.got.backup = Some(Backup {
                            section1: s.next().unwrap_or_default(),
                            section2: s.next().unwrap_or_default(),
                            section3: s.next().unwrap_or_default(),
                            address,
                        });
                        // Spec 1.7.4: no EOT after a backup.
                        return Ok(Some(std::mem::take(&mut self.got)));
                    }
                }
                Some(Header::Var { ty, name, .. }) => {
                    let data = self.sections.pop().unwrap_or_default();
                    self.got.vars.push(Variable::parse(ty, name, &data)?);
                    self.next_header();
                }
                None => return Err(idle_error("a header")),
            },
            (RecvSt::AckThenSkip(code), LinkEvent::Sent) => {
                self.link.send_then_receive(&Packet::skip(mid, code), reply);
                self.st = RecvSt::SkipAck(code);
            }
            (RecvSt::SkipAck(code), LinkEvent::Packet(p)) => {
                if p.cmd != Command::Ack {
                    return Err(unexpected(&p, "ACK of SKIP/EXIT"));
                }
                if let Some(h) = self.header {
                    self.got.skipped.push(h);
                }
                if code == REJECT_EXIT {
                    return Ok(Some(std::mem::take(&mut self.got)));
                }
                self.next_header();
            }
            (RecvSt::AckThenDone, LinkEvent::Sent) => {
                return Ok(Some(std::mem::take(&mut self.got)));
            }
            (_, LinkEvent::Packet(p)) => return Err(unexpected(&p, "the next step of a receive")),
            _ => return Err(idle_error("the next step of a receive")),
        }
        Ok(None)
    }
}

// ------------------------------------------------------------------------- REQ: requester

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReqSt {
    Start,
    ReqAck,
    Var,
    AckThenCts,
    CtsAck,
    Data,
    AckThenDone,
    AckThenReject(u8),
}

/// The side that asks for a variable with REQ (spec 1.7.6), as `Get(` does: REQ → ACK →
/// VAR (or EXIT: the variable is missing) → ACK → CTS → ACK → DATA → ACK. Every reply must
/// come within the reply timeout, so a holder that is busy or absent ends it with a timeout.
#[derive(Clone, Debug)]
pub struct Requester {
    link: PacketLink,
    ty: VarType,
    name: VarName,
    st: ReqSt,
    header: Option<(VarType, VarName)>,
    data: Vec<u8>,
    finished: bool,
}

impl Requester {
    /// Asks for `ty`/`name`; our packets carry `mid` ([`crate::MID_TI82`] for `Get(`).
    pub fn new(mid: u8, timing: Timing, ty: VarType, name: VarName) -> Self {
        Requester {
            link: PacketLink::new(mid, timing),
            ty,
            name,
            st: ReqSt::Start,
            header: None,
            data: Vec::new(),
            finished: false,
        }
    }

    pub fn link(&self) -> &PacketLink {
        &self.link
    }
    pub fn link_mut(&mut self) -> &mut PacketLink {
        &mut self.link
    }

    /// `Ok(variable)`, or `Err(LinkError::Rejected { .. })` when the holder has no such
    /// variable, or a timeout / protocol error.
    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> Progress<Variable> {
        self.drive(ep)
    }

    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.link.cancel(ep);
        self.finished = true;
    }
}

impl Steps for Requester {
    type Out = Variable;
    fn link(&mut self) -> &mut PacketLink {
        &mut self.link
    }
    fn finished(&mut self) -> &mut bool {
        &mut self.finished
    }

    fn step(&mut self, ev: LinkEvent) -> Result<Option<Variable>, LinkError> {
        let mid = self.link.mid();
        let reply = Some(self.link.timing().reply_timeout);
        let reject = |s: &mut Self, p: &Packet| {
            s.link.send(&Packet::ack(mid));
            s.st = ReqSt::AckThenReject(p.reject_code().unwrap_or(REJECT_EXIT));
        };
        match (self.st, ev) {
            (ReqSt::Start, LinkEvent::Idle) => {
                self.link
                    .send_then_receive(&Packet::req(mid, self.ty, self.name), reply);
                self.st = ReqSt::ReqAck;
            }
            (ReqSt::ReqAck, LinkEvent::Packet(p)) => match p.cmd {
                Command::Ack => {
                    self.link.receive(reply);
                    self.st = ReqSt::Var;
                }
                // The TI-83 page: EXIT may come in place of the ACK's follow-up (1.7.6).
                Command::Skip => reject(self, &p),
                _ => return Err(unexpected(&p, "ACK of REQ")),
            },
            (ReqSt::Var, LinkEvent::Packet(p)) => match (p.cmd, p.header()) {
                (Command::Var, Some(Header::Var { ty, name, .. })) => {
                    self.header = Some((ty, name));
                    self.link.send(&Packet::ack(mid));
                    self.st = ReqSt::AckThenCts;
                }
                (Command::Skip, _) => reject(self, &p),
                _ => return Err(unexpected(&p, "VAR or EXIT")),
            },
            (ReqSt::AckThenCts, LinkEvent::Sent) => {
                self.link.send_then_receive(&Packet::cts(mid), reply);
                self.st = ReqSt::CtsAck;
            }
            (ReqSt::CtsAck, LinkEvent::Packet(p)) => {
                if p.cmd != Command::Ack {
                    return Err(unexpected(&p, "ACK of CTS"));
                }
                self.link.receive(reply);
                self.st = ReqSt::Data;
            }
            (ReqSt::Data, LinkEvent::Packet(p)) => {
                if p.cmd != Command::Data {
                    return Err(unexpected(&p, "DATA"));
                }
                self.data = p.data;
                self.link.send(&Packet::ack(mid));
                self.st = ReqSt::AckThenDone;
            }
            (ReqSt::AckThenDone, LinkEvent::Sent) => {
                let (ty, name) = self.header.unwrap_or((self.ty, self.name));
                return Ok(Some(Variable::parse(ty, name, &self.data)?));
            }
            (ReqSt::AckThenReject(code), LinkEvent::Sent) => {
                return Err(LinkError::Rejected { code });
            }
            (_, LinkEvent::Packet(p)) => return Err(unexpected(&p, "the next step of REQ")),
            _ => return Err(idle_error("the next step of REQ")),
        }
        Ok(None)
    }
}

// --------------------------------------------------------------------------- screenshot

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScrSt {
    Start,
    Ack,
    Data,
    AckThenDone,
}

/// The computer side of a screenshot (spec 1.7.5): SCR → ACK → DATA (768 bytes) → ACK.
#[derive(Clone, Debug)]
pub struct Screenshot {
    link: PacketLink,
    st: ScrSt,
    data: Vec<u8>,
    finished: bool,
}

impl Screenshot {
    pub fn new(mid: u8, timing: Timing) -> Self {
        Screenshot {
            link: PacketLink::new(mid, timing),
            st: ScrSt::Start,
            data: Vec::new(),
            finished: false,
        }
    }

    pub fn link(&self) -> &PacketLink {
        &self.link
    }
    pub fn link_mut(&mut self) -> &mut PacketLink {
        &mut self.link
    }

    /// The 768 bytes: 64 rows of 12, MSB = leftmost pixel, 1 = dark.
    pub fn poll<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) -> Progress<Vec<u8>> {
        self.drive(ep)
    }
}

impl Steps for Screenshot {
    type Out = Vec<u8>;
    fn link(&mut self) -> &mut PacketLink {
        &mut self.link
    }
    fn finished(&mut self) -> &mut bool {
        &mut self.finished
    }

    fn step(&mut self, ev: LinkEvent) -> Result<Option<Vec<u8>>, LinkError> {
        let mid = self.link.mid();
        let reply = Some(self.link.timing().reply_timeout);
        match (self.st, ev) {
            (ScrSt::Start, LinkEvent::Idle) => {
                self.link.send_then_receive(&Packet::scr(mid), reply);
                self.st = ScrSt::Ack;
            }
            (ScrSt::Ack, LinkEvent::Packet(p)) if p.cmd == Command::Ack => {
                self.link.receive(reply);
                self.st = ScrSt::Data;
            }
            (ScrSt::Data, LinkEvent::Packet(p)) if p.cmd == Command::Data => {
                if p.data.len() != SCREEN_BYTES {
                    return Err(LinkError::Unexpected {
                        got: p.describe(),
                        expected: "768 bytes of screen",
                    });
                }
                self.data = p.data;
                self.link.send(&Packet::ack(mid));
                self.st = ScrSt::AckThenDone;
            }
            (ScrSt::AckThenDone, LinkEvent::Sent) => {
                return Ok(Some(std::mem::take(&mut self.data)));
            }
            (_, LinkEvent::Packet(p)) => return Err(unexpected(&p, "the next step of SCR")),
            _ => return Err(idle_error("the next step of SCR")),
        }
        Ok(None)
    }
}

// ---------------------------------------------------------------------------- REQ: holder

/// Where a [`Holder`] finds what it is asked for: the firmware's RAM, a list, anything.
pub trait VarSource {
    /// The variable `ty`/`name`, or `None` when it does not exist (the holder sends EXIT).
    fn lookup(&mut self, ty: VarType, name: &VarName) -> Option<Variable>;
    /// The 768-byte screen for SCR (spec 1.7.5); `None`: SCR is not answered.
    fn screen(&mut self) -> Option<Vec<u8>> {
        None
    }
}

impl VarSource for [Variable] {
    fn lookup(&mut self, ty: VarType, name: &VarName) -> Option<Variable> {
        self.iter()
            .find(|v| v.var_type() == ty && v.name == *name)
            .cloned()
    }
}

impl VarSource for Vec<Variable> {
    fn lookup(&mut self, ty: VarType, name: &VarName) -> Option<Variable> {
        self.as_mut_slice().lookup(ty, name)
    }
}

/// Variables read straight from the calculator's 32 KiB of RAM through the VAT (spec 7).
pub struct RamVars<'a>(pub &'a [u8]);

impl VarSource for RamVars<'_> {
    fn lookup(&mut self, ty: VarType, name: &VarName) -> Option<Variable> {
        tifiles::vat::read(self.0, ty, name).ok().flatten()
    }
}

/// What a [`Holder`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HolderEvent {
    /// A REQ was answered with the variable.
    Served { ty: VarType, name: VarName },
    /// A REQ named a missing variable; EXIT was sent.
    Missing { ty: VarType, name: VarName },
    /// The requester declined after our VAR (SKIP/EXIT code).
    Declined {
        ty: VarType,
        name: VarName,
        code: u8,
    },
    /// A screenshot was sent.
    Screen,
    /// A transfer failed; the holder released the lines and listens again once they have
    /// been quiet for `resync_quiet`.
    Failed(LinkError),
}

/// What [`Holder::poll`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HolderPoll {
    Pending(Wake),
    Event(HolderEvent),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum HoldSt {
    Listen,
    Listening,
    Resync { since: Option<u64> },
    AckThenLookup(VarType, VarName),
    VarAck(Variable),
    Cts(Variable),
    AckThenData(Variable),
    DataAck(VarType, VarName),
    ExitAck(VarType, VarName),
    AckThenDeclined(VarType, VarName, u8),
    AckThenScreen(Vec<u8>),
    ScreenAck,
    AckThenListen,
}

/// The idle side of REQ (spec 1.7.6) and SCR (1.7.5): what a TI-82 at the home screen or
/// stopped at `Pause` does. It listens without a timeout; a REQ is answered with ACK, then
/// VAR (or EXIT when the source has no such variable), waits for ACK and CTS, sends ACK and
/// DATA and waits for the last ACK. It ACKs a stray EOT (spec 1.7.7) and ignores everything
/// else (RTS in particular, which the TI-82 never answers). It serves any number of requests.
#[derive(Clone, Debug)]
pub struct Holder {
    link: PacketLink,
    st: HoldSt,
}

impl Holder {
    pub fn new(mid: u8, timing: Timing) -> Self {
        Holder {
            link: PacketLink::new(mid, timing),
            st: HoldSt::Listen,
        }
    }

    pub fn link(&self) -> &PacketLink {
        &self.link
    }
    pub fn link_mut(&mut self) -> &mut PacketLink {
        &mut self.link
    }

    /// Whether a request is being served (a firmware leaving `Pause` should keep polling
    /// until this is false, or [`Holder::cancel`]).
    pub fn is_busy(&self) -> bool {
        match self.st {
            HoldSt::Listen | HoldSt::Resync { .. } => false,
            HoldSt::Listening => self.link.mid_packet(),
            _ => true,
        }
    }

    /// Stops, releases both lines; a later poll listens again.
    pub fn cancel<E: LinkEndpoint + ?Sized>(&mut self, ep: &mut E) {
        self.link.cancel(ep);
        self.st = HoldSt::Listen;
    }

    /// Advances at `ep.now()`; `source` is asked for variables and the screen.
    pub fn poll<E: LinkEndpoint + ?Sized>(
        &mut self,
        ep: &mut E,
        source: &mut dyn VarSource,
    ) -> HolderPoll {
        for _ in 0..1_000_000 {
            if let HoldSt::Resync { since } = &mut self.st {
                let now = ep.now();
                let quiet = self.link.timing().resync_quiet;
                if ep.lines() != 3 {
                    *since = None;
                    return HolderPoll::Pending(Wake::edge(u64::MAX));
                }
                let s = *since.get_or_insert(now);
                if now < s.saturating_add(quiet) {
                    return HolderPoll::Pending(Wake::edge(s.saturating_add(quiet)));
                }
                self.st = HoldSt::Listen;
            }
            let ev = self.link.poll(ep);
            let r = match ev {
                LinkEvent::Pending(w) => return HolderPoll::Pending(w),
                LinkEvent::Failed(e) => Err(e),
                ev => self.step(ev, source),
            };
            match r {
                Ok(None) => {}
                Ok(Some(e)) => {
                    self.st = HoldSt::Listen;
                    return HolderPoll::Event(e);
                }
                Err(e) => {
                    self.link.cancel(ep);
                    self.st = HoldSt::Resync { since: None };
                    return HolderPoll::Event(HolderEvent::Failed(e));
                }
            }
        }
        self.cancel(ep);
        HolderPoll::Event(HolderEvent::Failed(idle_error("progress")))
    }

    fn step(
        &mut self,
        ev: LinkEvent,
        source: &mut dyn VarSource,
    ) -> Result<Option<HolderEvent>, LinkError> {
        let mid = self.link.mid();
        let reply = Some(self.link.timing().reply_timeout);
        let st = std::mem::replace(&mut self.st, HoldSt::Listen);
        match (st, ev) {
            (HoldSt::Listen, LinkEvent::Idle) => {
                self.link.receive(None);
                self.st = HoldSt::Listening;
            }
            (HoldSt::Listening, LinkEvent::Packet(p)) => match (p.cmd, p.header()) {
                (Command::Req, Some(Header::Var { ty, name, .. })) => {
                    self.link.send(&Packet::ack(mid));
                    self.st = HoldSt::AckThenLookup(ty, name);
                }
                (Command::Scr, _) => match source.screen() {
                    Some(s) => {
                        self.link.send(&Packet::ack(mid));
                        self.st = HoldSt::AckThenScreen(s);
                    }
                    None => {
                        self.link.receive(None);
                        self.st = HoldSt::Listening;
                    }
                },
                (Command::Eot, _) => {
                    self.link.send(&Packet::ack(mid));
                    self.st = HoldSt::AckThenListen;
                }
                _ => {
                    // Not for an idle TI-82 (RTS, VAR, stray replies): no answer.
                    self.link.receive(None);
                    self.st = HoldSt::Listening;
                }
            },
            (HoldSt::AckThenLookup(ty, name), LinkEvent::Sent) => match source.lookup(ty, &name) {
                Some(v) => {
                    let o = Outgoing::variable(&v);
                    self.link
                        .send_then_receive(&Packet::var(mid, &o.header), reply);
                    self.st = HoldSt::VarAck(v);
                }
                None => {
                    // Spec 1.7.6 [I]: EXIT in place of the VAR.
                    self.link
                        .send_then_receive(&Packet::skip(mid, REJECT_EXIT), reply);
                    self.st = HoldSt::ExitAck(ty, name);
                }
            },
            (HoldSt::VarAck(v), LinkEvent::Packet(p)) if p.cmd == Command::Ack => {
                self.link.receive(reply);
                self.st = HoldSt::Cts(v);
            }
            (HoldSt::Cts(v), LinkEvent::Packet(p)) => match p.cmd {
                Command::Cts => {
                    self.link.send(&Packet::ack(mid));
                    self.st = HoldSt::AckThenData(v);
                }
                Command::Skip => {
                    self.link.send(&Packet::ack(mid));
                    let code = p.reject_code().unwrap_or(REJECT_EXIT);
                    self.st = HoldSt::AckThenDeclined(v.var_type(), v.name, code);
                }
                _ => return Err(unexpected(&p, "CTS")),
            },
            (HoldSt::AckThenData(v), LinkEvent::Sent) => {
                self.link
                    .send_then_receive(&Packet::data(mid, v.data.to_bytes()), reply);
                self.st = HoldSt::DataAck(v.var_type(), v.name);
            }
            (HoldSt::DataAck(ty, name), LinkEvent::Packet(p)) if p.cmd == Command::Ack => {
                return Ok(Some(HolderEvent::Served { ty, name }));
            }
            (HoldSt::ExitAck(ty, name), LinkEvent::Packet(p)) if p.cmd == Command::Ack => {
                return Ok(Some(HolderEvent::Missing { ty, name }));
            }
            (HoldSt::AckThenDeclined(ty, name, code), LinkEvent::Sent) => {
                return Ok(Some(HolderEvent::Declined { ty, name, code }));
            }
            (HoldSt::AckThenScreen(s), LinkEvent::Sent) => {
                self.link.send_then_receive(&Packet::data(mid, s), reply);
                self.st = HoldSt::ScreenAck;
            }
            (HoldSt::ScreenAck, LinkEvent::Packet(p)) if p.cmd == Command::Ack => {
                return Ok(Some(HolderEvent::Screen));
            }
            (HoldSt::AckThenListen, LinkEvent::Sent) => {}
            (_, LinkEvent::Packet(p)) => return Err(unexpected(&p, "the next step of REQ")),
            _ => return Err(idle_error("the next step of REQ")),
        }
        Ok(None)
    }
}

// ---------------------------------------------------------------------------- save states

impl Requester {
    /// Saves the whole state (mid-transfer included) for a firmware's save state.
    pub fn save(&self, w: &mut StateWriter) {
        self.link.save(w);
        put_name(w, self.ty, &self.name);
        let (k, code) = match self.st {
            ReqSt::Start => (0, 0),
            ReqSt::ReqAck => (1, 0),
            ReqSt::Var => (2, 0),
            ReqSt::AckThenCts => (3, 0),
            ReqSt::CtsAck => (4, 0),
            ReqSt::Data => (5, 0),
            ReqSt::AckThenDone => (6, 0),
            ReqSt::AckThenReject(c) => (7, c),
        };
        w.u8(k);
        w.u8(code);
        w.bool(self.header.is_some());
        let (ty, name) = self.header.unwrap_or((self.ty, self.name));
        put_name(w, ty, &name);
        w.bytes(&self.data);
        w.bool(self.finished);
    }

    /// Restores what [`Requester::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<Requester, StateError> {
        let link = PacketLink::load(r)?;
        let (ty, name) = get_name(r)?;
        let (k, code) = (r.u8()?, r.u8()?);
        let st = match k {
            0 => ReqSt::Start,
            1 => ReqSt::ReqAck,
            2 => ReqSt::Var,
            3 => ReqSt::AckThenCts,
            4 => ReqSt::CtsAck,
            5 => ReqSt::Data,
            6 => ReqSt::AckThenDone,
            7 => ReqSt::AckThenReject(code),
            _ => return Err(corrupt("link: requester state")),
        };
        let has = r.bool()?;
        let h = get_name(r)?;
        let data = r.bytes()?.to_vec();
        Ok(Requester {
            link,
            ty,
            name,
            st,
            header: has.then_some(h),
            data,
            finished: r.bool()?,
        })
    }
}

impl SendVars {
    /// Saves the whole state (mid-transfer included) for a firmware's save state.
    pub fn save(&self, w: &mut StateWriter) {
        self.link.save(w);
        w.u32(self.items.len() as u32);
        for item in &self.items {
            w.bytes(&item.header.to_bytes());
            w.u32(item.sections.len() as u32);
            for s in &item.sections {
                w.bytes(s);
            }
        }
        w.u32(self.idx as u32);
        w.u32(self.section as u32);
        w.bool(self.eot);
        w.bool(self.eot_optional);
        w.bool(self.header_cmd == Command::Rts);
        put_opt(w, self.decision_timeout);
        let (k, code) = match self.st {
            SendSt::Start => (0, 0),
            SendSt::HeaderAck => (1, 0),
            SendSt::Decision => (2, 0),
            SendSt::AckThenData => (3, 0),
            SendSt::AckThenNext => (4, 0),
            SendSt::AckThenExit(c) => (5, c),
            SendSt::DataAck => (6, 0),
            SendSt::EotAck => (7, 0),
        };
        w.u8(k);
        w.u8(code);
        for list in [&self.report.sent, &self.report.skipped] {
            w.u32(list.len() as u32);
            for &i in list.iter() {
                w.u32(i as u32);
            }
        }
        w.bool(self.finished);
    }

    /// Restores what [`SendVars::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<SendVars, StateError> {
        let link = PacketLink::load(r)?;
        let n = r.u32()? as usize;
        if n > 256 {
            return Err(corrupt("link: sender item count"));
        }
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            let header =
                Header::parse(r.bytes()?).map_err(|_| corrupt("link: sender item header"))?;
            let k = r.u32()? as usize;
            if k > 3 {
                return Err(corrupt("link: sender section count"));
            }
            let mut sections = Vec::with_capacity(k);
            for _ in 0..k {
                sections.push(r.bytes()?.to_vec());
            }
            items.push(Outgoing { header, sections });
        }
        let idx = r.u32()? as usize;
        let section = r.u32()? as usize;
        if idx > items.len() || items.get(idx).is_some_and(|it| section > it.sections.len()) {
            return Err(corrupt("link: sender position"));
        }
        let eot = r.bool()?;
        let eot_optional = r.bool()?;
        let header_cmd = if r.bool()? {
            Command::Rts
        } else {
            Command::Var
        };
        let decision_timeout = get_opt(r)?;
        let (k, code) = (r.u8()?, r.u8()?);
        let st = match k {
            0 => SendSt::Start,
            1 => SendSt::HeaderAck,
            2 => SendSt::Decision,
            3 => SendSt::AckThenData,
            4 => SendSt::AckThenNext,
            5 => SendSt::AckThenExit(code),
            6 => SendSt::DataAck,
            7 => SendSt::EotAck,
            _ => return Err(corrupt("link: sender state")),
        };
        // Mid-item states need a current item.
        if !matches!(st, SendSt::Start | SendSt::EotAck) && idx >= items.len() {
            return Err(corrupt("link: sender position"));
        }
        if matches!(st, SendSt::DataAck) && section >= items[idx].sections.len() {
            return Err(corrupt("link: sender section"));
        }
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let m = r.u32()? as usize;
            if m > n {
                return Err(corrupt("link: sender report"));
            }
            for _ in 0..m {
                list.push(r.u32()? as usize);
            }
        }
        let [sent, skipped] = lists;
        Ok(SendVars {
            link,
            items,
            idx,
            section,
            eot,
            eot_optional,
            header_cmd,
            decision_timeout,
            st,
            report: SendReport { sent, skipped },
            finished: r.bool()?,
        })
    }
}

impl ReceiveVars {
    /// Saves the whole state (mid-transfer included) for a firmware's save state. A custom
    /// acceptor (a closure) cannot be saved: it loads as "accept all".
    pub fn save(&self, w: &mut StateWriter) {
        self.link.save(w);
        w.u8(match self.accept {
            Answer::Ask => 1,
            _ => 0,
        });
        put_opt(w, self.first_timeout);
        let (k, code) = match self.st {
            RecvSt::Start => (0, 0),
            RecvSt::Header => (1, 0),
            RecvSt::AckThenAsk => (2, 0),
            RecvSt::Asking => (3, 0),
            RecvSt::AckThenCts => (4, 0),
            RecvSt::CtsAck => (5, 0),
            RecvSt::Data => (6, 0),
            RecvSt::AckThenMore => (7, 0),
            RecvSt::AckThenSkip(c) => (8, c),
            RecvSt::SkipAck(c) => (9, c),
            RecvSt::AckThenDone => (10, 0),
        };
        w.u8(k);
        w.u8(code);
        let put_header = |w: &mut StateWriter, h: &Option<Header>| {
            w.bytes(&h.map(|h| h.to_bytes()).unwrap_or_default());
        };
        put_header(w, &self.header);
        w.u32(self.sections.len() as u32);
        for s in &self.sections {
            w.bytes(s);
        }
        w.u32(self.got.vars.len() as u32);
        for v in &self.got.vars {
            put_var(w, v);
        }
        match &self.got.backup {
            Some(b) => {
                w.bool(true);
                w.bytes(&b.section1);
                w.bytes(&b.section2);
                w.bytes(&b.section3);
                w.u16(b.address);
            }
            None => w.bool(false),
        }
        w.u32(self.got.skipped.len() as u32);
        for h in &self.got.skipped {
            w.bytes(&h.to_bytes());
        }
        w.bool(self.started);
        w.bool(self.finished);
    }

    /// Restores what [`ReceiveVars::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<ReceiveVars, StateError> {
        let link = PacketLink::load(r)?;
        let accept = match r.u8()? {
            0 => Answer::All,
            1 => Answer::Ask,
            _ => return Err(corrupt("link: receiver answer mode")),
        };
        let first_timeout = get_opt(r)?;
        let (k, code) = (r.u8()?, r.u8()?);
        let st = match k {
            0 => RecvSt::Start,
            1 => RecvSt::Header,
            2 => RecvSt::AckThenAsk,
            3 => RecvSt::Asking,
            4 => RecvSt::AckThenCts,
            5 => RecvSt::CtsAck,
            6 => RecvSt::Data,
            7 => RecvSt::AckThenMore,
            8 => RecvSt::AckThenSkip(code),
            9 => RecvSt::SkipAck(code),
            10 => RecvSt::AckThenDone,
            _ => return Err(corrupt("link: receiver state")),
        };
        let header_of = |b: &[u8]| Header::parse(b).map_err(|_| corrupt("link: receiver header"));
        let h = r.bytes()?;
        let header = if h.is_empty() {
            None
        } else {
            Some(header_of(h)?)
        };
        // Past the header, the states answer or read the announced variable: they need it.
        if !matches!(k, 0 | 1 | 10) && header.is_none() {
            return Err(corrupt("link: receiver header"));
        }
        let n = r.u32()? as usize;
        if n > 3 {
            return Err(corrupt("link: receiver section count"));
        }
        let mut sections = Vec::with_capacity(n);
        for _ in 0..n {
            sections.push(r.bytes()?.to_vec());
        }
        let mut got = Received::default();
        let n = r.u32()? as usize;
        if n > 4096 {
            return Err(corrupt("link: receiver variable count"));
        }
        for _ in 0..n {
            got.vars.push(get_var(r)?);
        }
        if r.bool()? {
            got.backup = Some(Backup {
                section1: r.bytes()?.to_vec(),
                section2: r.bytes()?.to_vec(),
                section3: r.bytes()?.to_vec(),
                address: r.u16()?,
            });
        }
        let n = r.u32()? as usize;
        if n > 4096 {
            return Err(corrupt("link: receiver skipped count"));
        }
        for _ in 0..n {
            got.skipped.push(header_of(r.bytes()?)?);
        }
        Ok(ReceiveVars {
            link,
            accept,
            first_timeout,
            st,
            header,
            sections,
            got,
            started: r.bool()?,
            finished: r.bool()?,
        })
    }
}

impl Holder {
    /// Saves the whole state (mid-transfer included) for a firmware's save state.
    pub fn save(&self, w: &mut StateWriter) {
        self.link.save(w);
        match &self.st {
            HoldSt::Listen => w.u8(0),
            HoldSt::Listening => w.u8(1),
            HoldSt::Resync { since } => {
                w.u8(2);
                put_opt(w, *since);
            }
            HoldSt::AckThenLookup(ty, name) => {
                w.u8(3);
                put_name(w, *ty, name);
            }
            HoldSt::VarAck(v) => {
                w.u8(4);
                put_var(w, v);
            }
            HoldSt::Cts(v) => {
                w.u8(5);
                put_var(w, v);
            }
            HoldSt::AckThenData(v) => {
                w.u8(6);
                put_var(w, v);
            }
            HoldSt::DataAck(ty, name) => {
                w.u8(7);
                put_name(w, *ty, name);
            }
            HoldSt::ExitAck(ty, name) => {
                w.u8(8);
                put_name(w, *ty, name);
            }
            HoldSt::AckThenDeclined(ty, name, code) => {
                w.u8(9);
                put_name(w, *ty, name);
                w.u8(*code);
            }
            HoldSt::AckThenScreen(s) => {
                w.u8(10);
                w.bytes(s);
            }
            HoldSt::ScreenAck => w.u8(11),
            HoldSt::AckThenListen => w.u8(12),
        }
    }

    /// Restores what [`Holder::save`] wrote.
    pub fn load(r: &mut StateReader) -> Result<Holder, StateError> {
        let link = PacketLink::load(r)?;
        let st = match r.u8()? {
            0 => HoldSt::Listen,
            1 => HoldSt::Listening,
            2 => HoldSt::Resync { since: get_opt(r)? },
            3 => {
                let (t, n) = get_name(r)?;
                HoldSt::AckThenLookup(t, n)
            }
            4 => HoldSt::VarAck(get_var(r)?),
            5 => HoldSt::Cts(get_var(r)?),
            6 => HoldSt::AckThenData(get_var(r)?),
            7 => {
                let (t, n) = get_name(r)?;
                HoldSt::DataAck(t, n)
            }
            8 => {
                let (t, n) = get_name(r)?;
                HoldSt::ExitAck(t, n)
            }
            9 => {
                let (t, n) = get_name(r)?;
                HoldSt::AckThenDeclined(t, n, r.u8()?)
            }
            10 => HoldSt::AckThenScreen(r.bytes()?.to_vec()),
            11 => HoldSt::ScreenAck,
            12 => HoldSt::AckThenListen,
            _ => return Err(corrupt("link: holder state")),
        };
        Ok(Holder { link, st })
    }
}
