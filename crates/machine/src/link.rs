//! The link port's two wires (spec §7.1) and the link log (bits → bytes, §7.2).
//!
//! Each side records the changes of its own drive with their T-state time (the outbox, sent
//! over a [`crate::cable`]); the peer's changes arrive stamped with the time at which they
//! become visible here. Wired-AND: a wire reads low when either side pulls it.

use std::collections::VecDeque;

/// Bit 0 of a drive or level value: the tip (red wire). Pulling it sends a 0 bit.
pub const TIP: u8 = 1;
/// Bit 1: the ring (white wire). Pulling it sends a 1 bit.
pub const RING: u8 = 2;

/// Undrained own changes kept at most (nobody reading them: no cable, no protocol driver);
/// beyond that the oldest half is dropped so an unconnected port cannot grow without bound.
const OUTBOX_CAP: usize = 1 << 16;

/// One side's view of the two wires.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkPort {
    own: u8,
    peer: u8,
    /// Peer drive changes not yet applied: (time visible here, peer drive).
    incoming: VecDeque<(u64, u8)>,
    /// Our own drive changes not yet sent: (time, drive).
    outbox: Vec<(u64, u8)>,
    /// Level changes as seen here, when logging: (time, levels).
    log: Option<Vec<(u64, u8)>>,
    /// How many times our own drive has changed (not saved in state files).
    own_changes: u64,
}

impl LinkPort {
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies peer changes visible at or before `t`.
    #[inline]
    pub fn sync(&mut self, t: u64) {
        while let Some(&(at, pull)) = self.incoming.front() {
            if at > t {
                break;
            }
            self.incoming.pop_front();
            if pull != self.peer {
                self.peer = pull & 3;
                if let Some(log) = &mut self.log {
                    log.push((at, !(self.own | self.peer) & 3));
                }
            }
        }
    }

    /// Line levels at `t`: bit 0 tip, bit 1 ring, 1 = high.
    #[inline]
    pub fn levels(&mut self, t: u64) -> u8 {
        self.sync(t);
        !(self.own | self.peer) & 3
    }

    /// Our own drive (bits pulled low).
    pub fn own_drive(&self) -> u8 {
        self.own
    }

    /// How many times this side has changed its own drive since the port was made: a cheap
    /// way for a driver outside the calculator to see that its calculator spoke on the link
    /// (answered a request, say) without keeping a log.
    pub fn own_changes(&self) -> u64 {
        self.own_changes
    }

    /// The peer's drive as currently applied.
    pub fn peer_drive(&self) -> u8 {
        self.peer
    }

    /// Sets our drive at `t`.
    pub fn drive(&mut self, pull: u8, t: u64) {
        self.sync(t);
        let pull = pull & 3;
        if pull != self.own {
            self.own = pull;
            self.own_changes = self.own_changes.wrapping_add(1);
            if self.outbox.len() >= OUTBOX_CAP {
                self.outbox.drain(..OUTBOX_CAP / 2);
            }
            self.outbox.push((t, pull));
            if let Some(log) = &mut self.log {
                log.push((t, !(self.own | self.peer) & 3));
            }
        }
    }

    /// Queues a peer drive change that becomes visible at `at` (times must not decrease).
    pub fn peer_change(&mut self, at: u64, pull: u8) {
        self.incoming.push_back((at, pull & 3));
    }

    /// The peer vanished: its drive is released from `at` on (an unplugged cable).
    pub fn unplug(&mut self, at: u64) {
        self.incoming.push_back((at, 0));
    }

    /// When the next peer change already queued becomes visible (a firmware waiting for an
    /// edge can sleep until then instead of polling).
    pub fn next_peer_change(&self) -> Option<u64> {
        self.incoming.front().map(|&(at, _)| at)
    }

    /// Takes our drive changes not yet sent.
    pub fn take_outbox(&mut self) -> Vec<(u64, u8)> {
        std::mem::take(&mut self.outbox)
    }

    /// Starts recording level changes (as seen from this side) for a [`LinkLog`].
    pub fn enable_log(&mut self) {
        if self.log.is_none() {
            self.log = Some(Vec::new());
        }
    }

    /// Recorded level changes: (T-state, levels).
    pub fn log(&self) -> &[(u64, u8)] {
        self.log.as_deref().unwrap_or(&[])
    }

    pub(crate) fn parts(&self) -> (u8, u8, &VecDeque<(u64, u8)>) {
        (self.own, self.peer, &self.incoming)
    }

    pub(crate) fn restore(&mut self, own: u8, peer: u8, incoming: VecDeque<(u64, u8)>) {
        self.own = own & 3;
        self.peer = peer & 3;
        self.incoming = incoming;
        self.outbox.clear();
    }
}

/// What a firmware or a link-protocol driver sees of the link port: set my drive, read the
/// wires, the current time. Obtained from [`crate::Calc::link`] or
/// [`crate::Hardware::link_endpoint`].
pub trait LinkEndpoint {
    /// Current T-state time.
    fn now(&self) -> u64;
    /// Pull the wires in `pull` (bit 0 tip, bit 1 ring) low; release the others.
    fn set_drive(&mut self, pull: u8);
    /// Wire levels: bit 0 tip, bit 1 ring, 1 = high.
    fn lines(&mut self) -> u8;
}

/// A link port together with the current time: the [`LinkEndpoint`] a firmware or a protocol
/// driver uses (built from a port it owns, e.g. `hw.link` while it also reads `hw.mem`).
pub struct Link<'a> {
    pub port: &'a mut LinkPort,
    pub now: u64,
}

impl<'a> Link<'a> {
    pub fn new(port: &'a mut LinkPort, now: u64) -> Self {
        Link { port, now }
    }

    pub fn port(&mut self) -> &mut LinkPort {
        self.port
    }
}

impl LinkEndpoint for Link<'_> {
    fn now(&self) -> u64 {
        self.now
    }
    fn set_drive(&mut self, pull: u8) {
        self.port.drive(pull, self.now);
    }
    fn lines(&mut self) -> u8 {
        self.port.levels(self.now)
    }
}

/// One byte decoded from the wires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedByte {
    pub value: u8,
    /// T-state of the first bit's falling edge.
    pub start: u64,
    /// T-state at which the last bit's lines were both high again.
    pub end: u64,
}

/// Turns line transitions into bytes following the four-phase bit protocol (§7.2): from idle
/// (both high), tip low = 0 bit, ring low = 1 bit; the bit ends when both are high again;
/// 8 bits per byte, LSB first. A pause longer than `gap` between bits drops a partial byte.
#[derive(Clone, Debug)]
pub struct LinkLog {
    gap: u64,
}

impl Default for LinkLog {
    fn default() -> Self {
        // One emulated second.
        LinkLog { gap: 6_000_000 }
    }
}

impl LinkLog {
    pub fn new(gap: u64) -> Self {
        LinkLog { gap }
    }

    pub fn decode(&self, events: &[(u64, u8)]) -> Vec<LoggedByte> {
        let mut out = Vec::new();
        let mut prev = 3u8;
        let mut bit: Option<u8> = None;
        let (mut acc, mut nbits, mut start, mut last_end) = (0u8, 0u32, 0u64, 0u64);
        for &(t, lv) in events {
            let lv = lv & 3;
            if lv == prev {
                continue;
            }
            if prev == 3 && bit.is_none() {
                let b = match lv {
                    2 => Some(0), // tip low
                    1 => Some(1), // ring low
                    _ => None,    // both at once: abort/error, ignored
                };
                if let Some(b) = b {
                    if nbits > 0 && t.saturating_sub(last_end) > self.gap {
                        nbits = 0;
                        acc = 0;
                    }
                    if nbits == 0 {
                        start = t;
                    }
                    bit = Some(b);
                }
            } else if lv == 3 {
                if let Some(b) = bit.take() {
                    acc |= b << nbits;
                    nbits += 1;
                    last_end = t;
                    if nbits == 8 {
                        out.push(LoggedByte {
                            value: acc,
                            start,
                            end: t,
                        });
                        nbits = 0;
                        acc = 0;
                    }
                }
            }
            prev = lv;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wired_and_and_delay() {
        let mut p = LinkPort::new();
        assert_eq!(p.levels(0), 3);
        p.drive(TIP, 10);
        assert_eq!(p.levels(10), 2);
        p.peer_change(50, RING);
        assert_eq!(p.levels(49), 2);
        assert_eq!(p.levels(50), 0);
        assert_eq!(p.take_outbox(), vec![(10, TIP)]);
    }

    #[test]
    fn log_decodes_bytes() {
        // Send 0xA5 = 1010_0101, LSB first: 1,0,1,0,0,1,0,1.
        let mut ev = Vec::new();
        let mut t = 100;
        for i in 0..8 {
            let b = (0xA5u8 >> i) & 1;
            ev.push((t, if b == 0 { 2 } else { 1 }));
            ev.push((t + 10, 0));
            ev.push((t + 20, if b == 0 { 1 } else { 2 }));
            ev.push((t + 30, 3));
            t += 100;
        }
        let bytes = LinkLog::default().decode(&ev);
        assert_eq!(
            bytes,
            vec![LoggedByte {
                value: 0xA5,
                start: 100,
                end: 830
            }]
        );
    }
}
