//! Drivers: run link state machines against emulated wires.
//!
//! - [`DirectCable`]: two ports joined with a fixed wire delay, both ends driven by closures
//!   (two virtual devices, or tests), event by event.
//! - [`VirtualCable`]: a virtual device (a "computer") on the far end of one [`Calc`]'s link
//!   port, through the machine crate's cable with its bounded-skew synchronisation; the
//!   calculator runs whatever firmware it has (a ROM on the Z80, the built-in runtime).
//!
//! A side is a closure that polls its state machine on a [`TimedPort`] and returns its
//! [`Wake`]; it is called again at that time, or as soon as a line change reaches its port
//! when `wake.edge` is set.

use std::collections::VecDeque;

use machine::cable::{self, CableEnd, ChannelTransport, LinkMsg, LinkTransport, Recv};
use machine::link::LinkPort;
use machine::Calc;

use crate::transport::{TimedPort, Wake};

/// The shortest wire delay the machine crate's cable accepts (its instruction overshoot
/// bound plus 8).
pub const MIN_CABLE_LATENCY: u64 = 40;

fn next_poll(wake: Wake, arrivals: &VecDeque<u64>, polled: u64) -> u64 {
    let mut t = wake.at;
    if wake.edge {
        if let Some(&a) = arrivals.iter().find(|&&a| a > polled) {
            t = t.min(a);
        }
    }
    t.max(polled.saturating_add(1))
}

/// Two link ports joined with `latency` T-states of wire delay, both ends driven here.
#[derive(Clone, Debug)]
pub struct DirectCable {
    pub a: LinkPort,
    pub b: LinkPort,
    latency: u64,
    now: u64,
    /// Times at which a change becomes visible at a / b.
    arr_a: VecDeque<u64>,
    arr_b: VecDeque<u64>,
}

impl DirectCable {
    /// `latency` ≥ 1.
    pub fn new(latency: u64) -> Self {
        DirectCable {
            a: LinkPort::new(),
            b: LinkPort::new(),
            latency: latency.max(1),
            now: 0,
            arr_a: VecDeque::new(),
            arr_b: VecDeque::new(),
        }
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    fn forward(from: &mut LinkPort, to: &mut LinkPort, arr: &mut VecDeque<u64>, latency: u64) {
        for (t, pull) in from.take_outbox() {
            to.peer_change(t + latency, pull);
            arr.push_back(t + latency);
        }
    }

    /// Runs both ends from the current time until both are done (no deadline and no
    /// pending line change) or `until`. Returns the time reached.
    pub fn run(
        &mut self,
        until: u64,
        mut side_a: impl FnMut(&mut TimedPort) -> Wake,
        mut side_b: impl FnMut(&mut TimedPort) -> Wake,
    ) -> u64 {
        let lat = self.latency;
        let mut wa = side_a(&mut TimedPort::new(&mut self.a, self.now));
        Self::forward(&mut self.a, &mut self.b, &mut self.arr_b, lat);
        let mut wb = side_b(&mut TimedPort::new(&mut self.b, self.now));
        Self::forward(&mut self.b, &mut self.a, &mut self.arr_a, self.latency);
        loop {
            let now = self.now;
            while self.arr_a.front().is_some_and(|&x| x <= now) {
                self.arr_a.pop_front();
            }
            while self.arr_b.front().is_some_and(|&x| x <= now) {
                self.arr_b.pop_front();
            }
            let ta = next_poll(wa, &self.arr_a, now);
            let tb = next_poll(wb, &self.arr_b, now);
            let t = ta.min(tb);
            if t == u64::MAX || t > until {
                self.now = self.now.max(until.min(t));
                return self.now;
            }
            self.now = t;
            let lat = self.latency;
            if ta == t {
                wa = side_a(&mut TimedPort::new(&mut self.a, t));
                Self::forward(&mut self.a, &mut self.b, &mut self.arr_b, lat);
            }
            if tb == t {
                wb = side_b(&mut TimedPort::new(&mut self.b, t));
                Self::forward(&mut self.b, &mut self.a, &mut self.arr_a, lat);
            }
        }
    }
}

/// A virtual device on the far end of one calculator's cable: its own [`LinkPort`], joined to
/// the calculator through the machine crate's channel transport with the same conservative
/// synchronisation as two calculators (design.md "The link cable"): the device never runs
/// past what it has heard from the calculator plus the wire delay, and tells the calculator
/// how far it has got, so the calculator can run on.
///
/// While attached, run the calculator through [`VirtualCable::run`] (a bare `Calc::run_for`
/// runs it without the cable: the device neither sees nor answers anything meanwhile); call
/// [`VirtualCable::detach`] to unplug.
pub struct VirtualCable {
    /// The calculator's end of the cable: the machine crate's one cable engine runs it.
    calc_end: CableEnd,
    port: LinkPort,
    transport: ChannelTransport,
    latency: u64,
    heard: u64,
    now: u64,
    polled: u64,
    wake: Wake,
    arrivals: VecDeque<u64>,
    closed: bool,
}

impl VirtualCable {
    /// Plugs a virtual device into `calc` with `latency` T-states of wire delay (at least
    /// [`MIN_CABLE_LATENCY`]; [`machine::cable::DEFAULT_LATENCY`] is a good choice).
    pub fn attach(calc: &mut Calc, latency: u64) -> Self {
        let (ours, theirs) = cable::channel_pair();
        let latency = latency.max(MIN_CABLE_LATENCY);
        let calc_end = CableEnd::plug(calc, Box::new(theirs), latency);
        let now = calc.now();
        VirtualCable {
            calc_end,
            port: LinkPort::new(),
            transport: ours,
            latency,
            heard: now,
            now,
            polled: now,
            wake: Wake::at(now),
            arrivals: VecDeque::new(),
            closed: false,
        }
    }

    /// The device's port (its log, its drive).
    pub fn port(&mut self) -> &mut LinkPort {
        &mut self.port
    }

    /// The device's time.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Unplugs: the calculator sees the device's drive released.
    pub fn detach(mut self, calc: &mut Calc) {
        self.transport.send(LinkMsg::Bye);
        self.calc_end.unplug(calc);
    }

    fn pump(&mut self) {
        loop {
            match self.transport.try_recv() {
                Recv::Msg(LinkMsg::Drive { t, pull }) => {
                    let at = t + self.latency;
                    self.port.peer_change(at, pull);
                    self.arrivals.push_back(at);
                    self.heard = self.heard.max(t);
                }
                Recv::Msg(LinkMsg::Time(t)) => self.heard = self.heard.max(t),
                Recv::Msg(LinkMsg::Bye) | Recv::Closed => {
                    if !self.closed {
                        let at = self.heard + self.latency;
                        self.port.unplug(at);
                        self.arrivals.push_back(at);
                        self.closed = true;
                    }
                    return;
                }
                Recv::Empty => return,
            }
        }
    }

    /// Runs the device (`side`) and the calculator together until the calculator reaches
    /// `until`.
    pub fn run(
        &mut self,
        calc: &mut Calc,
        until: u64,
        mut side: impl FnMut(&mut TimedPort) -> Wake,
    ) {
        // A new side (or the same one) is polled first at our current time: changes made
        // there are not yet promised away (we reported "nothing before `now`").
        self.wake = Wake::at(self.now);
        loop {
            self.pump();
            // Nothing the calculator does from `heard` on is visible here before
            // `heard + latency`.
            let limit = if self.closed {
                until.max(self.now)
            } else {
                self.heard + self.latency - 1
            };
            loop {
                while self.arrivals.front().is_some_and(|&x| x <= self.polled) {
                    self.arrivals.pop_front();
                }
                let t = next_poll(self.wake, &self.arrivals, self.polled);
                if t > limit {
                    break;
                }
                self.now = t;
                self.polled = t;
                self.wake = side(&mut TimedPort::new(&mut self.port, t));
                for (t, pull) in self.port.take_outbox() {
                    self.transport.send(LinkMsg::Drive { t, pull });
                }
            }
            self.now = self.now.max(limit);
            self.transport.send(LinkMsg::Time(self.now));
            if calc.now() >= until {
                return;
            }
            if self.closed {
                self.calc_end.run_for(calc, until - calc.now());
                return;
            }
            // The calculator may run to what it has heard from us plus the delay, less the
            // cable's overshoot allowance.
            let target = (self.now + self.latency - 32).min(until);
            if target > calc.now() {
                self.calc_end.run_for(calc, target - calc.now());
            }
        }
    }
}
