//! The link cable: two link ports joined through a transport, with bounded skew.
//!
//! Each end sends its drive changes stamped with their T-state time, and regular reports of
//! the time it has reached. A change made at `t` becomes visible at the other end at
//! `t + latency` (the cable's delay; spec §7.3 asks for "tens of T-states"). An end never runs
//! past `heard + latency − 32` (the last time it heard from the other end, plus the delay, minus
//! the longest overshoot of an instruction), so no change can ever arrive "in its past". The
//! result is the same whatever the host scheduling: one thread or two, fast or slow — the
//! bounded skew of design.md, made exact (conservative synchronisation with the wire delay as
//! lookahead).
//!
//! Transports: [`channel_pair`] (crossbeam-channel: same thread or two threads) and any other
//! implementation of [`LinkTransport`] (TCP later). An end whose peer vanished sees an
//! unplugged cable (both wires released by the peer).

use crate::calc::Calc;
use crate::link::LinkPort;

/// Default wire delay in T-states (16 µs).
pub const DEFAULT_LATENCY: u64 = 96;
/// The most an instruction (or interrupt acceptance) can run past its `until`.
const MAX_OVERSHOOT: u64 = 32;

/// What travels on the cable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkMsg {
    /// The sender's drive (bit 0 tip, bit 1 ring pulled) changed at `t`.
    Drive { t: u64, pull: u8 },
    /// The sender has reached `t`: every change before `t` has been sent.
    Time(u64),
    /// The sender is leaving (its drive is released).
    Bye,
}

/// Result of a non-blocking receive.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    Msg(LinkMsg),
    Empty,
    Closed,
}

/// A way to carry [`LinkMsg`]s to the other end.
pub trait LinkTransport: Send {
    /// Sends a message; failures mean the peer is gone and are noticed on receive.
    fn send(&mut self, msg: LinkMsg);
    /// Receives without waiting.
    fn try_recv(&mut self) -> Recv;
    /// Waits for a message; `None` when the peer is gone.
    fn recv(&mut self) -> Option<LinkMsg>;
}

/// A crossbeam-channel transport end.
pub struct ChannelTransport {
    tx: crossbeam_channel::Sender<LinkMsg>,
    rx: crossbeam_channel::Receiver<LinkMsg>,
}

/// Two connected channel ends.
pub fn channel_pair() -> (ChannelTransport, ChannelTransport) {
    let (atx, brx) = crossbeam_channel::unbounded();
    let (btx, arx) = crossbeam_channel::unbounded();
    (
        ChannelTransport { tx: atx, rx: arx },
        ChannelTransport { tx: btx, rx: brx },
    )
}

impl LinkTransport for ChannelTransport {
    fn send(&mut self, msg: LinkMsg) {
        let _ = self.tx.send(msg);
    }
    fn try_recv(&mut self) -> Recv {
        match self.rx.try_recv() {
            Ok(m) => Recv::Msg(m),
            Err(crossbeam_channel::TryRecvError::Empty) => Recv::Empty,
            Err(crossbeam_channel::TryRecvError::Disconnected) => Recv::Closed,
        }
    }
    fn recv(&mut self) -> Option<LinkMsg> {
        self.rx.recv().ok()
    }
}

/// The far end as one [`Calc`] knows it.
pub(crate) struct Remote {
    pub(crate) transport: Box<dyn LinkTransport>,
    heard: u64,
    latency: u64,
    pub(crate) closed: bool,
}

impl Remote {
    pub(crate) fn new(transport: Box<dyn LinkTransport>, latency: u64, _now: u64) -> Self {
        Remote {
            transport,
            heard: 0,
            latency: latency.max(MAX_OVERSHOOT + 8),
            closed: false,
        }
    }

    pub(crate) fn accept(&mut self, m: LinkMsg, port: &mut LinkPort) {
        match m {
            LinkMsg::Drive { t, pull } => {
                port.peer_change(t.saturating_add(self.latency), pull);
                self.heard = self.heard.max(t);
            }
            LinkMsg::Time(t) => self.heard = self.heard.max(t),
            LinkMsg::Bye => {
                port.unplug(self.heard.saturating_add(self.latency));
                self.closed = true;
            }
        }
    }

    /// How far this end may run.
    pub(crate) fn limit(&self) -> u64 {
        self.heard.saturating_add(self.latency - MAX_OVERSHOOT)
    }
}

/// Joins two calculators with a cable (a crossbeam channel pair) and `latency` T-states of
/// wire delay. Run them with [`run_pair`] on one thread, or move each into its own thread and
/// call [`Calc::run_for`] there.
pub fn connect(a: &mut Calc, b: &mut Calc, latency: u64) {
    let (ta, tb) = channel_pair();
    a.attach_link(Box::new(ta), latency);
    b.attach_link(Box::new(tb), latency);
}

/// Runs two connected calculators on this thread for `t_states` each.
pub fn run_pair(a: &mut Calc, b: &mut Calc, t_states: u64) {
    let ta = a.now().saturating_add(t_states);
    let tb = b.now().saturating_add(t_states);
    loop {
        let a_done = a.now() >= ta;
        let b_done = b.now() >= tb;
        if a_done && b_done {
            break;
        }
        let mut progress = false;
        if !a_done {
            progress |= a.advance_linked(ta, false);
        }
        if !b_done {
            progress |= b.advance_linked(tb, false);
        }
        if !progress {
            // One end has reached its target and the other waits on it: let the finished end
            // run on towards the other's target (a firmware may overshoot its target, so the
            // two ends' clocks can differ by more than the cable's lookahead).
            if a_done {
                a.advance_linked(tb.max(a.now() + 1), false);
            } else {
                b.advance_linked(ta.max(b.now() + 1), false);
            }
        }
    }
}
