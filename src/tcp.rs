//! A link cable between two processes over TCP: a [`LinkTransport`] with small
//! length-prefixed messages, and [`NetLink`], which listens or connects, plugs the cable into
//! a [`Calc`], notices a peer that left (the calculator sees an unplugged cable) and plugs in
//! again when the peer comes back.
//!
//! Wire format: each message is `len:u8` then `len` bytes, the first a type:
//!
//! | type | payload | meaning |
//! |---|---|---|
//! | 1 Hello | `"TI82"`, version `u16`, time `u64` | first message each way |
//! | 2 Drive | time `u64`, pull `u8` | the sender's drive changed (bit 0 tip, bit 1 ring) |
//! | 3 Time | time `u64` | the sender has reached this time |
//! | 4 Bye | — | the sender is leaving |
//!
//! Integers are little-endian. The two calculators' clocks differ (one may have run for hours):
//! each end maps the peer's times into its own by the difference of the times in the two
//! Hellos, and starts as if it had just heard the peer's Hello time.

use std::io::{BufWriter, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use crossbeam_channel::{Receiver, RecvTimeoutError, TryRecvError};
use ti82_machine::cable::{LinkMsg, LinkTransport, Recv};
use ti82_machine::Calc;

/// Protocol version in the Hello.
pub const VERSION: u16 = 1;
const MAGIC: &[u8; 4] = b"TI82";
/// Wire delay and skew bound for a TCP cable, in T-states (300 µs): large enough that the
/// two processes need not answer each other more than a few thousand times per emulated
/// second, small against the link protocol's timeouts.
pub const TCP_LATENCY: u64 = 1_800;
/// A peer that sends nothing for this long counts as gone.
pub const PEER_TIMEOUT: Duration = Duration::from_secs(5);

/// A message on the wire: a cable message or a Hello.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireMsg {
    Hello { version: u16, time: u64 },
    Link(LinkMsg),
}

/// Encodes one message with its length prefix.
pub fn encode(m: &WireMsg) -> Vec<u8> {
    let mut body = Vec::with_capacity(16);
    match *m {
        WireMsg::Hello { version, time } => {
            body.push(1);
            body.extend_from_slice(MAGIC);
            body.extend_from_slice(&version.to_le_bytes());
            body.extend_from_slice(&time.to_le_bytes());
        }
        WireMsg::Link(LinkMsg::Drive { t, pull }) => {
            body.push(2);
            body.extend_from_slice(&t.to_le_bytes());
            body.push(pull);
        }
        WireMsg::Link(LinkMsg::Time(t)) => {
            body.push(3);
            body.extend_from_slice(&t.to_le_bytes());
        }
        WireMsg::Link(LinkMsg::Bye) => body.push(4),
    }
    let mut out = Vec::with_capacity(body.len() + 1);
    out.push(body.len() as u8);
    out.extend_from_slice(&body);
    out
}

/// Decodes a message body (without the length byte).
pub fn decode(body: &[u8]) -> Result<WireMsg> {
    let u64_at = |i: usize| -> Result<u64> {
        let b = body
            .get(i..i + 8)
            .context("link message too short for its type")?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    };
    let m = match body.first() {
        Some(1) => {
            if body.get(1..5) != Some(&MAGIC[..]) {
                bail!("the peer is not a ti82 link (bad hello)");
            }
            let v = body.get(5..7).context("short hello")?;
            WireMsg::Hello {
                version: u16::from_le_bytes([v[0], v[1]]),
                time: u64_at(7)?,
            }
        }
        Some(2) => WireMsg::Link(LinkMsg::Drive {
            t: u64_at(1)?,
            pull: *body.get(9).context("short drive message")? & 3,
        }),
        Some(3) => WireMsg::Link(LinkMsg::Time(u64_at(1)?)),
        Some(4) => WireMsg::Link(LinkMsg::Bye),
        Some(t) => bail!("unknown link message type {t}"),
        None => bail!("empty link message"),
    };
    Ok(m)
}

fn read_msg(r: &mut impl Read) -> Result<WireMsg> {
    let mut len = [0u8; 1];
    r.read_exact(&mut len)?;
    let mut body = vec![0u8; usize::from(len[0])];
    r.read_exact(&mut body)?;
    decode(&body)
}

/// One end of a TCP cable.
pub struct TcpTransport {
    out: BufWriter<TcpStream>,
    rx: Receiver<LinkMsg>,
    /// Peer time + offset = our time.
    offset: i128,
    /// Set false when the peer is gone (read error, Bye, timeout, or we dropped the cable).
    alive: Arc<AtomicBool>,
    /// The Hello time, delivered as the first Time.
    pending: Option<LinkMsg>,
    pub peer: Option<SocketAddr>,
}

impl TcpTransport {
    /// Exchanges Hellos on a connected stream at local time `now` (waits at most 5 s).
    pub fn handshake(stream: TcpStream, now: u64) -> Result<TcpTransport> {
        let peer = stream.peer_addr().ok();
        stream.set_nodelay(true).ok();
        let mut w = stream.try_clone().context("socket")?;
        w.write_all(&encode(&WireMsg::Hello {
            version: VERSION,
            time: now,
        }))
        .context("cannot send the link hello")?;
        let mut r = stream.try_clone().context("socket")?;
        r.set_read_timeout(Some(PEER_TIMEOUT)).ok();
        let their = match read_msg(&mut r).context("no hello from the link peer")? {
            WireMsg::Hello { version, time } => {
                if version != VERSION {
                    bail!("link peer speaks version {version}, we speak {VERSION}");
                }
                time
            }
            WireMsg::Link(_) => bail!("link peer did not start with a hello"),
        };
        r.set_read_timeout(None).ok();
        let alive = Arc::new(AtomicBool::new(true));
        let (tx, rx) = crossbeam_channel::unbounded();
        let alive2 = alive.clone();
        std::thread::Builder::new()
            .name("ti82-link-rx".into())
            .spawn(move || {
                loop {
                    match read_msg(&mut r) {
                        Ok(WireMsg::Link(m)) => {
                            let bye = m == LinkMsg::Bye;
                            if tx.send(m).is_err() || bye {
                                break;
                            }
                        }
                        Ok(WireMsg::Hello { .. }) => {}
                        Err(_) => break,
                    }
                }
                alive2.store(false, Ordering::SeqCst);
            })
            .context("cannot start the link reader thread")?;
        Ok(TcpTransport {
            out: BufWriter::new(stream),
            rx,
            offset: i128::from(now) - i128::from(their),
            alive,
            pending: Some(LinkMsg::Time(now)),
            peer,
        })
    }

    /// A flag that goes false when this cable is dead.
    pub fn alive(&self) -> Arc<AtomicBool> {
        self.alive.clone()
    }

    fn map(&self, m: LinkMsg) -> LinkMsg {
        let f = |t: u64| (i128::from(t) + self.offset).clamp(0, i128::from(u64::MAX)) as u64;
        match m {
            LinkMsg::Drive { t, pull } => LinkMsg::Drive { t: f(t), pull },
            LinkMsg::Time(t) => LinkMsg::Time(f(t)),
            LinkMsg::Bye => LinkMsg::Bye,
        }
    }

    fn dead(&mut self) {
        self.alive.store(false, Ordering::SeqCst);
        let _ = self.out.get_ref().shutdown(Shutdown::Both);
    }
}

impl LinkTransport for TcpTransport {
    fn send(&mut self, msg: LinkMsg) {
        let bytes = encode(&WireMsg::Link(msg));
        let mut ok = self.out.write_all(&bytes).is_ok();
        if !matches!(msg, LinkMsg::Drive { .. }) {
            ok &= self.out.flush().is_ok();
        }
        if !ok {
            self.dead();
        }
    }

    fn try_recv(&mut self) -> Recv {
        if let Some(m) = self.pending.take() {
            return Recv::Msg(m);
        }
        match self.rx.try_recv() {
            Ok(m) => Recv::Msg(self.map(m)),
            Err(TryRecvError::Empty) => Recv::Empty,
            Err(TryRecvError::Disconnected) => Recv::Closed,
        }
    }

    fn recv(&mut self) -> Option<LinkMsg> {
        if let Some(m) = self.pending.take() {
            return Some(m);
        }
        let _ = self.out.flush();
        match self.rx.recv_timeout(PEER_TIMEOUT) {
            Ok(m) => Some(self.map(m)),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                self.dead();
                None
            }
        }
    }
}

impl Drop for TcpTransport {
    fn drop(&mut self) {
        let _ = self.out.flush();
        self.dead();
    }
}

/// Resolves a link address; a bare port (`5000` or `:5000`) means loopback.
pub fn parse_addr(s: &str) -> Result<SocketAddr> {
    let t = s.trim();
    let t = t.strip_prefix(':').unwrap_or(t);
    if let Ok(port) = t.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    t.to_socket_addrs()
        .with_context(|| format!("link address {s:?}: not HOST:PORT"))?
        .next()
        .with_context(|| format!("link address {s:?}: no address"))
}

/// Listen or connect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkMode {
    Listen,
    Connect,
}

/// A cable plugged into one calculator over TCP, re-plugged when the peer comes back.
pub struct NetLink {
    pub mode: LinkMode,
    pub addr: SocketAddr,
    streams: Receiver<TcpStream>,
    want: Arc<AtomicBool>,
    alive: Option<Arc<AtomicBool>>,
    status: String,
}

impl NetLink {
    /// Listens on `addr` (accepting one peer at a time; a newcomer replaces a dead peer).
    pub fn listen(addr: SocketAddr) -> Result<NetLink> {
        let l = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let addr = l.local_addr().unwrap_or(addr);
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("ti82-link-listen".into())
            .spawn(move || {
                for s in l.incoming().flatten() {
                    if tx.send(s).is_err() {
                        break;
                    }
                }
            })
            .context("cannot start the link listener thread")?;
        Ok(NetLink {
            mode: LinkMode::Listen,
            addr,
            streams: rx,
            want: Arc::new(AtomicBool::new(true)),
            alive: None,
            status: format!("link: waiting on {addr}"),
        })
    }

    /// Connects to `addr`, retrying every second while not connected.
    pub fn connect(addr: SocketAddr) -> Result<NetLink> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let want = Arc::new(AtomicBool::new(true));
        let want2 = want.clone();
        std::thread::Builder::new()
            .name("ti82-link-connect".into())
            .spawn(move || loop {
                if want2.load(Ordering::SeqCst) {
                    if let Ok(s) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
                        want2.store(false, Ordering::SeqCst);
                        if tx.send(s).is_err() {
                            break;
                        }
                        continue;
                    }
                }
                std::thread::sleep(Duration::from_millis(300));
                if tx.is_empty() && Arc::strong_count(&want2) == 1 {
                    break;
                }
            })
            .context("cannot start the link connect thread")?;
        Ok(NetLink {
            mode: LinkMode::Connect,
            addr,
            streams: rx,
            want,
            alive: None,
            status: format!("link: connecting to {addr}"),
        })
    }

    pub fn connected(&self) -> bool {
        self.alive
            .as_ref()
            .is_some_and(|a| a.load(Ordering::SeqCst))
    }

    /// The status line text.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Plugs in a new peer or notices a lost one. Returns a message for each change.
    pub fn poll(&mut self, calc: &mut Calc) -> Vec<String> {
        let mut msg = Vec::new();
        if self.alive.is_some() && !self.connected() {
            calc.detach_link();
            self.alive = None;
            self.status = "link: cable unplugged (peer left)".into();
            msg.push(self.status.clone());
            self.want.store(true, Ordering::SeqCst);
        }
        while let Ok(s) = self.streams.try_recv() {
            if self.connected() {
                // A newcomer replaces the current peer (it may be a stale connection).
                calc.detach_link();
            }
            match TcpTransport::handshake(s, calc.now()) {
                Ok(t) => {
                    let peer = t.peer.map(|p| p.to_string()).unwrap_or_else(|| "?".into());
                    self.alive = Some(t.alive());
                    calc.attach_link(Box::new(t), TCP_LATENCY);
                    self.status = format!("link: connected to {peer}");
                    msg.push(self.status.clone());
                }
                Err(e) => {
                    self.status = format!("link: {e:#}");
                    msg.push(self.status.clone());
                    self.want.store(true, Ordering::SeqCst);
                }
            }
        }
        msg
    }

    /// Says goodbye to the peer.
    pub fn close(&mut self, calc: &mut Calc) {
        if self.alive.take().is_some() {
            calc.detach_link();
        }
        self.want.store(false, Ordering::SeqCst);
    }
}
