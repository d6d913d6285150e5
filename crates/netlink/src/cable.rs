//! [`NetCable`]: a calculator's cable plugged into the network. The [`ByteEndpoint`] sits on
//! the calculator's own wire-exact cable (a `tilink` virtual device, so the calculator sees
//! real bit handshakes); whole packets go to and from the network thread ([`NetHandle`]).
//!
//! Pacing (docs/link.md, "Latency"): the calculator runs at its own speed, except while it
//! waits for an answer that has to cross the network ([`ByteEndpoint::awaiting`]): then it is
//! held to real speed, so its TI timeouts (2 s) are 2 s of wall time and a round trip of a few
//! hundred milliseconds fits in them whatever the emulation speed. With [`Pace::Real`] it
//! always runs at real speed (times a factor).

use std::time::{Duration, Instant};

use ti82_machine::{Calc, CLOCK_HZ};
use tilink::{Timing, VirtualCable};

use crate::endpoint::{ByteEndpoint, EndpointStats};
use crate::net::{Event, LinkState, NetConfig, NetError, NetHandle};
use crate::wire::Msg;

/// Wire delay of the local cable between the calculator and the endpoint, in T-states (as the
/// in-process CALC VS CALC cable): a byte takes about 13 000 T-states (2 ms).
pub const LOCAL_LATENCY: u64 = 400;
/// How long [`NetCable::detach`] waits for what was sent to go out.
pub const CLOSE_WAIT: Duration = Duration::from_secs(3);
/// The longest slice run between two looks at the network, in T-states (1 ms).
const SLICE: u64 = CLOCK_HZ / 1000;
/// The slice while the calculator is held to a speed and nothing moves on the cable (the
/// endpoint quiet): 16 ms, so an idle linked calculator wakes about 60 times a second, not
/// 1 000. A message from the network still wakes it at once; a packet our calculator starts
/// meanwhile is clocked in emulated time as always and leaves at the slice's end.
const QUIET_SLICE: u64 = 16 * SLICE;

/// How fast the calculator may run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pace {
    /// As fast as the caller runs it; real speed only while an answer crosses the network.
    Free,
    /// This multiple of real time, always.
    Real(f64),
}

/// A calculator's cable to another process.
pub struct NetCable {
    cable: VirtualCable,
    endpoint: ByteEndpoint,
    net: NetHandle,
    pace: Pace,
    /// Real-time anchor of the current capped stretch: (wall, T-state).
    cap: Option<(Instant, u64)>,
    /// Since the cable was connected: (wall, T-state), for the clock report.
    clock: Option<(Instant, u64)>,
    messages: Vec<String>,
    refused: Option<String>,
    /// Wall time spent held at real speed.
    held: Duration,
    /// The most wall time one [`NetCable::run`] may spend held (a window's frame).
    wall_budget: Option<Duration>,
    /// `TI82_NETLINK_DEBUG` was set when the cable was attached: trace every message.
    debug: bool,
}

/// How far the emulated clock kept up with the wall clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReport {
    pub wall_s: f64,
    pub emulated_s: f64,
}

impl ClockReport {
    /// How far the emulated clock fell behind the wall clock, in percent (negative: ahead).
    pub fn behind_percent(&self) -> f64 {
        if self.wall_s <= 0.0 {
            0.0
        } else {
            (self.wall_s - self.emulated_s) / self.wall_s * 100.0
        }
    }
}

impl NetCable {
    /// Plugs the endpoint into `calc` and starts the network thread.
    pub fn attach(calc: &mut Calc, cfg: NetConfig, pace: Pace) -> Result<NetCable, NetError> {
        let net = NetHandle::start(cfg)?;
        let cable = VirtualCable::attach(calc, LOCAL_LATENCY);
        Ok(NetCable {
            cable,
            endpoint: ByteEndpoint::new(Timing::default()),
            net,
            pace,
            cap: None,
            clock: None,
            messages: Vec::new(),
            refused: None,
            held: Duration::ZERO,
            wall_budget: None,
            debug: std::env::var_os("TI82_NETLINK_DEBUG").is_some(),
        })
    }

    /// Sets how fast the calculator may run.
    pub fn set_pace(&mut self, pace: Pace) {
        self.pace = pace;
        self.cap = None;
    }

    /// Limits the wall time one [`NetCable::run`] spends waiting for the wall clock (a
    /// window that must draw its next frame); `None`: run always covers its whole span.
    pub fn set_wall_budget(&mut self, d: Option<Duration>) {
        self.wall_budget = d;
    }

    /// Whether the calculator waits for an answer from the network (held at real speed).
    pub fn awaiting(&self) -> bool {
        self.endpoint.awaiting()
    }

    pub fn net(&self) -> &NetHandle {
        &self.net
    }

    pub fn connected(&self) -> bool {
        self.net.connected()
    }

    pub fn stats(&self) -> EndpointStats {
        self.endpoint.stats()
    }

    /// The reason the last peer was refused (or refused us), until a peer connects.
    pub fn refused(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// Status changes since the last call (connected, unplugged, refused).
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Wall time the calculator was held at real speed for the network.
    pub fn held(&self) -> Duration {
        self.held
    }

    /// Emulated time against wall time since the peer connected.
    pub fn clock(&self, calc: &Calc) -> Option<ClockReport> {
        self.clock.map(|(w, t)| ClockReport {
            wall_s: w.elapsed().as_secs_f64(),
            emulated_s: calc.now().saturating_sub(t) as f64 / CLOCK_HZ as f64,
        })
    }

    /// The status line text: link state and round-trip time.
    pub fn status(&self) -> String {
        match self.net.state() {
            LinkState::Connected(peer) => match self.net.rtt() {
                Some(rtt) => format!("link: {peer}, RTT {} ms", rtt.as_millis()),
                None => format!("link: {peer}, RTT ?"),
            },
            LinkState::Waiting(s) => format!("link: {s}"),
            LinkState::Refused(s) => format!("link: refused: {s}"),
        }
    }

    /// Takes in what the network thread reported, without running the calculator.
    pub fn poll(&mut self, calc: &mut Calc) {
        for ev in self.net.poll() {
            self.event(ev, calc);
        }
    }

    fn event(&mut self, ev: Event, calc: &mut Calc) {
        match ev {
            Event::Connected(peer) => {
                self.refused = None;
                if self.clock.is_none() {
                    self.clock = Some((Instant::now(), calc.now()));
                }
                self.messages.push(format!("link: connected to {peer}"));
            }
            Event::Lost(why) => {
                self.unplug();
                self.messages.push(format!("link: cable unplugged ({why})"));
            }
            Event::Refused(why) => {
                self.messages.push(format!("link: refused: {why}"));
                self.refused = Some(why);
            }
            Event::Msg(m) => {
                if self.debug {
                    eprintln!(
                        "[{:.3}] in  {:?} t={}",
                        calc.now() as f64 / CLOCK_HZ as f64,
                        short(&m),
                        calc.now()
                    );
                }
                match m {
                    Msg::Packet {
                        seq,
                        reply_to,
                        bytes,
                    } => self.endpoint.packet(seq, reply_to, bytes),
                    Msg::Expired { seq } => self.endpoint.expired(seq),
                    Msg::Cancel { seq } => {
                        let now = self.cable.now();
                        let ep = &mut self.endpoint;
                        let port = self.cable.port();
                        ep.cancel(seq, &mut tilink::TimedPort::new(port, now));
                    }
                    _ => {}
                }
            }
        }
    }

    fn unplug(&mut self) {
        let now = self.cable.now();
        let port = self.cable.port();
        self.endpoint
            .unplugged(&mut tilink::TimedPort::new(port, now));
    }

    fn flush(&mut self) {
        for o in self.endpoint.take_outgoing() {
            if self.debug {
                eprintln!(
                    "[{:.3}] out {:?}",
                    self.cable.now() as f64 / CLOCK_HZ as f64,
                    o
                );
            }
            // Unplugged or full: lost, as on a cable with nobody on the far end.
            let _ = self.net.send(o.into());
        }
    }

    /// The speed the calculator is held to now, as a multiple of real time, if any.
    fn factor(&self) -> Option<f64> {
        match self.pace {
            Pace::Real(f) => Some(f),
            Pace::Free if self.endpoint.awaiting() && self.net.connected() => Some(1.0),
            Pace::Free => None,
        }
    }

    /// The latest T-state the calculator may reach now, if it is held to a speed.
    fn limit(&mut self, now_t: u64) -> Option<(u64, f64)> {
        let Some(factor) = self.factor() else {
            self.cap = None;
            return None;
        };
        let (w, t) = *self.cap.get_or_insert((Instant::now(), now_t));
        Some((
            t + (w.elapsed().as_secs_f64() * CLOCK_HZ as f64 * factor) as u64,
            factor,
        ))
    }

    /// Runs the calculator and the endpoint for `t` T-states, handing packets to and from the
    /// network on the way (and sleeping while the calculator is held to real speed). Returns
    /// false when it stopped early at the wall budget.
    ///
    /// Held to a speed, it never spins: when the calculator has caught up with the wall
    /// clock it sleeps until a whole slice (or the rest of the span) is due, and a message
    /// from the network wakes it at once.
    pub fn run(&mut self, calc: &mut Calc, t: u64) -> bool {
        let end = calc.now().saturating_add(t);
        let started = Instant::now();
        while calc.now() < end {
            if self.wall_budget.is_some_and(|b| started.elapsed() >= b) {
                return false;
            }
            self.poll(calc);
            let now = calc.now();
            let slice = if self.factor().is_some() && self.endpoint.is_quiet() {
                QUIET_SLICE
            } else {
                SLICE
            };
            let mut until = end.min(now + slice);
            if let Some((lim, factor)) = self.limit(now) {
                if lim < until {
                    // Ahead of the wall clock: sleep until the slice is due, but wake for
                    // news from the network (and never past the wall budget).
                    let mut d = Duration::from_secs_f64(
                        (until - lim) as f64 / (CLOCK_HZ as f64 * factor.max(1e-6)),
                    );
                    if let Some(b) = self.wall_budget {
                        d = d.min(b.saturating_sub(started.elapsed()));
                    }
                    let start = Instant::now();
                    if let Some(ev) = self.net.wait(d) {
                        self.event(ev, calc);
                    }
                    if matches!(self.pace, Pace::Free) {
                        self.held += start.elapsed();
                    }
                    if self.limit(now).is_some_and(|(lim, _)| lim < until) {
                        // Woken early by a message: it is taken; let the calculator run up
                        // to the wall clock so it can react.
                        let (lim, _) = self.limit(now).unwrap_or((until, 1.0));
                        if lim <= now {
                            continue;
                        }
                        until = lim;
                    }
                }
            }
            let ep = &mut self.endpoint;
            self.cable.run(calc, until, |port| ep.poll(port));
            self.flush();
        }
        true
    }

    /// Unplugs from the calculator and says goodbye to the peer, once what was sent has gone
    /// out (at most [`CLOSE_WAIT`]).
    pub fn detach(self, calc: &mut Calc) {
        let NetCable { cable, net, .. } = self;
        cable.detach(calc);
        net.close(CLOSE_WAIT);
    }
}

fn short(m: &Msg) -> String {
    match m {
        Msg::Packet {
            seq,
            reply_to,
            bytes,
        } => format!("P{seq}<{reply_to} {:02X?}", &bytes[..bytes.len().min(4)]),
        m => format!("{m:?}"),
    }
}
