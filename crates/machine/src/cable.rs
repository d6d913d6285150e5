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
//! implementation of [`LinkTransport`]. An end whose peer vanished sees an unplugged cable
//! (both wires released by the peer). Between processes the cable is byte-level instead (the
//! `netlink` crate): bounded skew would cost a network round trip every few hundred T-states.

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

/// One calculator's end of a cable: the transport to the far end and what has been heard from
/// it. The one engine of the wire-exact cable (conservative synchronisation): [`Linked`] (a
/// calculator with its end), [`run_pair`], and the virtual devices of other crates all run a
/// calculator through [`CableEnd::advance`]. The calculator itself knows nothing of cables.
pub struct CableEnd {
    transport: Box<dyn LinkTransport>,
    heard: u64,
    latency: u64,
    closed: bool,
}

impl CableEnd {
    /// Plugs `calc` into the cable through `transport`, with `latency` T-states of wire delay
    /// (also the bound on how far this end may run ahead of what it has heard).
    pub fn plug(calc: &Calc, mut transport: Box<dyn LinkTransport>, latency: u64) -> CableEnd {
        // Tell the other end where this one starts: two ends that both begin past the
        // other's horizon (a firmware that ran before the cable was plugged in) would
        // otherwise each wait for the other's first report forever.
        transport.send(LinkMsg::Time(calc.now()));
        CableEnd {
            transport,
            heard: 0,
            latency: latency.max(MAX_OVERSHOOT + 8),
            closed: false,
        }
    }

    /// Whether the far end has gone (the calculator sees an unplugged cable).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    fn accept(&mut self, m: LinkMsg, port: &mut LinkPort) {
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
    fn limit(&self) -> u64 {
        self.heard.saturating_add(self.latency - MAX_OVERSHOOT)
    }

    /// One linked step of `calc` towards `target`: receive what has arrived, run as far as
    /// the skew bound allows, send our changes and time. Returns false when it could not move
    /// (only when `block` is false and the far end is behind). Once the far end has gone the
    /// calculator simply runs.
    pub fn advance(&mut self, calc: &mut Calc, target: u64, block: bool) -> bool {
        if self.closed {
            calc.run_for(target.saturating_sub(calc.now()));
            return true;
        }
        // Take in everything already delivered.
        loop {
            match self.transport.try_recv() {
                Recv::Msg(m) => self.accept(m, &mut calc.hardware_mut().link),
                Recv::Empty => break,
                Recv::Closed => {
                    self.closed = true;
                    break;
                }
            }
        }
        if self.closed {
            let now = calc.now();
            calc.hardware_mut().link.unplug(now);
            calc.run_for(target.saturating_sub(now));
            return true;
        }
        let limit = self.limit();
        if calc.now() >= limit {
            // Waiting on the other end: make sure it knows how far this one is.
            self.transport.send(LinkMsg::Time(calc.now()));
            if !block {
                return false;
            }
            match self.transport.recv() {
                Some(m) => self.accept(m, &mut calc.hardware_mut().link),
                None => self.closed = true,
            }
            return true;
        }
        let now = calc.now();
        calc.run_for(target.min(limit).saturating_sub(now));
        for (t, pull) in calc.hardware_mut().link.take_outbox() {
            self.transport.send(LinkMsg::Drive { t, pull });
        }
        self.transport.send(LinkMsg::Time(calc.now()));
        true
    }

    /// Runs `calc` for `t_states` (to within part of an instruction), waiting for the far end
    /// where the skew bound says so.
    pub fn run_for(&mut self, calc: &mut Calc, t_states: u64) {
        let target = calc.now().saturating_add(t_states);
        while calc.now() < target {
            self.advance(calc, target, true);
        }
    }

    /// Unplugs: the far end sees our drive released; ours sees the same of theirs.
    pub fn unplug(mut self, calc: &mut Calc) -> Box<dyn LinkTransport> {
        let now = calc.now();
        calc.hardware_mut().link.unplug(now);
        self.transport.send(LinkMsg::Bye);
        self.transport
    }
}

/// A calculator with its end of a cable: run it with [`Linked::run_for`] (which waits for the
/// other end as needed); everything else of the calculator is reached through `Deref`.
pub struct Linked {
    pub calc: Calc,
    end: Option<CableEnd>,
}

impl Linked {
    pub fn new(calc: Calc, end: CableEnd) -> Linked {
        Linked {
            calc,
            end: Some(end),
        }
    }

    /// Runs for `t_states` with the cable (or alone once unplugged).
    pub fn run_for(&mut self, t_states: u64) {
        match &mut self.end {
            Some(e) => e.run_for(&mut self.calc, t_states),
            None => self.calc.run_for(t_states),
        }
    }

    /// Unplugs the cable (the other end sees it released).
    pub fn detach_link(&mut self) {
        if let Some(e) = self.end.take() {
            e.unplug(&mut self.calc);
        }
    }

    /// The calculator and its end, apart.
    pub fn into_parts(self) -> (Calc, Option<CableEnd>) {
        (self.calc, self.end)
    }

    pub fn end_mut(&mut self) -> Option<&mut CableEnd> {
        self.end.as_mut()
    }
}

impl std::ops::Deref for Linked {
    type Target = Calc;
    fn deref(&self) -> &Calc {
        &self.calc
    }
}

impl std::ops::DerefMut for Linked {
    fn deref_mut(&mut self) -> &mut Calc {
        &mut self.calc
    }
}

/// Joins two calculators with a cable (a crossbeam channel pair) and `latency` T-states of
/// wire delay. Run them with [`run_pair`] on one thread, or move each into its own thread and
/// call [`Linked::run_for`] there.
pub fn connect(a: Calc, b: Calc, latency: u64) -> (Linked, Linked) {
    let (ta, tb) = channel_pair();
    let ea = CableEnd::plug(&a, Box::new(ta), latency);
    let eb = CableEnd::plug(&b, Box::new(tb), latency);
    (Linked::new(a, ea), Linked::new(b, eb))
}

/// Runs two connected calculators on this thread for `t_states` each.
pub fn run_pair(a: &mut Linked, b: &mut Linked, t_states: u64) {
    match (&mut a.end, &mut b.end) {
        (Some(ea), Some(eb)) => run_pair_ends(&mut a.calc, ea, &mut b.calc, eb, t_states),
        _ => {
            a.run_for(t_states);
            b.run_for(t_states);
        }
    }
}

/// [`run_pair`] for two calculators and their ends held apart (a front end's machines).
pub fn run_pair_ends(
    a: &mut Calc,
    ea: &mut CableEnd,
    b: &mut Calc,
    eb: &mut CableEnd,
    t_states: u64,
) {
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
            progress |= ea.advance(a, ta, false);
        }
        if !b_done {
            progress |= eb.advance(b, tb, false);
        }
        if !progress {
            // One end has reached its target and the other waits on it: let the finished end
            // run on towards the other's target (a firmware may overshoot its target, so the
            // two ends' clocks can differ by more than the cable's lookahead).
            if a_done {
                ea.advance(a, tb.max(a.now() + 1), false);
            } else {
                eb.advance(b, ta.max(b.now() + 1), false);
            }
        }
    }
}
