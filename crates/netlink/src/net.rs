//! The network side: one thread that listens, connects or goes through a relay, runs the
//! authenticated handshake ([`crate::secure`]), and then carries sealed [`Msg`]s both ways
//! until the peer leaves; then it waits for the next peer (reconnecting needs no restart).
//! The emulation thread talks to it only through bounded crossbeam channels ([`NetHandle`])
//! and never waits on it.
//!
//! A listener cannot be held (docs/link.md, "Security"): each pending connection gets its own
//! handshake thread (at most [`MAX_PENDING`], [`MAX_PENDING_PER_ADDRESS`] from one address),
//! one deadline covers the whole handshake, a frame is at most [`wire::MAX_HELLO_FRAME`]
//! bytes until the peer is authenticated, and an address whose handshakes fail waits longer
//! before each next one ([`FAIL_DELAY`], doubling up to [`MAX_FAIL_DELAY`]).

use std::collections::{HashMap, VecDeque};
use std::io::{BufWriter, ErrorKind, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};

use crate::secure::{AuthError, Handshake, OpenError, Opener, Sealer};
use crate::wire::{
    self, FrameReader, Msg, WireError, MAX_CODE, MAX_FRAME, MAX_HELLO_FRAME, VERSION,
};

/// Messages queued towards the network at most (the emulation thread drops beyond this: a
/// cable with nobody on the far end loses what is sent into it).
pub const OUT_QUEUE: usize = 1024;
/// Messages queued from the network at most: the reader then stops reading, and TCP's own
/// flow control holds a flooding peer back.
pub const IN_QUEUE: usize = 256;
/// Messages held in the delay line (`--link-delay`) at most.
pub const DELAY_LINE: usize = 4096;
/// A heartbeat this often.
pub const PING_EVERY: Duration = Duration::from_millis(500);
/// A peer silent this long is gone.
pub const PEER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a whole handshake may take on a direct link, from our hello to the peer's
/// confirmation, however the peer's bytes trickle in. Through a relay it starts when the
/// relay pairs us (the relay expires a wait itself).
pub const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(5);
/// Connections a listener handshakes with at once.
pub const MAX_PENDING: usize = 16;
/// Connections from one address a listener handshakes with at once.
pub const MAX_PENDING_PER_ADDRESS: usize = 2;
/// After an address's first failed handshake, its next one waits this long before our hello;
/// each further failure doubles the wait, up to [`MAX_FAIL_DELAY`]. A success forgets it.
pub const FAIL_DELAY: Duration = Duration::from_millis(250);
/// The longest wait after failed handshakes.
pub const MAX_FAIL_DELAY: Duration = Duration::from_secs(30);
/// An address with no failure for this long is forgotten.
pub const FAIL_MEMORY: Duration = Duration::from_secs(600);
/// Addresses remembered for their failures at most (the stalest is forgotten first).
pub const MAX_FAILED_ADDRESSES: usize = 4096;
/// How often an idle listener looks for a connection.
const ACCEPT_POLL: Duration = Duration::from_millis(20);
/// The longest back-off after an accept error (out of descriptors, ...).
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);
/// Round-trip times are clamped to this (a stuck measurement must not show nonsense).
pub const MAX_RTT: Duration = Duration::from_secs(60);

/// How this process reaches its peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Wait for the peer on this address.
    Listen(SocketAddr),
    /// Connect to the peer (retrying every second).
    Connect(SocketAddr),
    /// Connect to a relay (`ti82 relay`), which pairs us with the peer that names the same
    /// room. The room is the public nameplate of a relay code `ROOM-SECRET`
    /// ([`NetConfig::relay`]); the whole code keys the handshake, so the relay never holds it.
    Relay { relay: SocketAddr, room: String },
}

/// Latency injection: every message we send leaves `ms` (+ up to `jitter`) milliseconds late,
/// in order. The jitter comes from `seed` (deterministic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delay {
    pub ms: u64,
    pub jitter: u64,
    pub seed: u64,
}

impl std::str::FromStr for Delay {
    type Err = String;
    /// `MS` or `MS:JITTER`.
    fn from_str(s: &str) -> Result<Delay, String> {
        let bad = || format!("link delay {s:?}: use MS or MS:JITTER (milliseconds, up to 10000)");
        let (a, b) = match s.split_once(':') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let ms: u64 = a.trim().parse().map_err(|_| bad())?;
        let jitter: u64 = match b {
            Some(b) => b.trim().parse().map_err(|_| bad())?,
            None => 0,
        };
        if ms > 10_000 || jitter > 10_000 {
            return Err(bad());
        }
        Ok(Delay {
            ms,
            jitter,
            seed: 0x5EED_0001,
        })
    }
}

/// What to connect and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetConfig {
    pub mode: Mode,
    /// The session code both sides must know (empty: none, and anyone who connects is
    /// accepted). It keys the PAKE and never crosses the wire.
    pub code: String,
    pub delay: Delay,
    /// The version we announce (tests of the refusal set another).
    pub version: u16,
}

impl NetConfig {
    pub fn new(mode: Mode) -> NetConfig {
        NetConfig {
            mode,
            code: String::new(),
            delay: Delay::default(),
            version: VERSION,
        }
    }
}

impl NetConfig {
    /// A link through the relay at `relay` with the code `ROOM-SECRET` (as magic-wormhole's
    /// `7-purple-sausage`): the relay sees the room (the part before the first `-`) and
    /// nothing of the rest; the whole code keys the handshake.
    pub fn relay(relay: SocketAddr, code: &str) -> Result<NetConfig, NetError> {
        let room = relay_room(code)?;
        let mut cfg = NetConfig::new(Mode::Relay {
            relay,
            room: room.to_string(),
        });
        cfg.code = code.to_string();
        Ok(cfg)
    }

    /// The relay room this configuration names, empty on a direct link.
    fn room(&self) -> &str {
        match &self.mode {
            Mode::Relay { room, .. } => room,
            _ => "",
        }
    }
}

/// The room of a relay code `ROOM-SECRET`: the part before the first `-`, with a secret part
/// after it.
pub fn relay_room(code: &str) -> Result<&str, NetError> {
    if code.len() > MAX_CODE {
        return Err(NetError::Code);
    }
    match code.split_once('-') {
        Some((room, secret)) if !room.is_empty() && !secret.is_empty() => Ok(room),
        _ => Err(NetError::RelayCode(code.to_string())),
    }
}

/// The state shown on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    Waiting(String),
    Connected(String),
    /// The last peer was refused (or refused us); we keep waiting for another.
    Refused(String),
}

/// What the network thread tells the emulation thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Connected(String),
    /// The peer left or went silent: the cable is unplugged.
    Lost(String),
    /// A peer was refused, or refused us: the reason.
    Refused(String),
    Msg(Msg),
}

struct Shared {
    state: Mutex<LinkState>,
    rtt_us: AtomicU64,
    stop: AtomicBool,
    connected: AtomicBool,
    /// The network thread has ended (after a close: what was sent has been written).
    done: AtomicBool,
}

/// The emulation thread's handle on the network thread.
pub struct NetHandle {
    tx: Sender<Msg>,
    rx: Receiver<Event>,
    shared: Arc<Shared>,
    pub local: Option<SocketAddr>,
}

/// A network failure before anything ran (the address cannot be bound, ...).
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("link address {0:?}: not HOST:PORT")]
    Address(String),
    #[error("session code: at most {MAX_CODE} bytes")]
    Code,
    #[error(
        "relay code {0:?}: write ROOM-SECRET, e.g. 42-purple-beans (the relay sees only the room, 42; both players type the whole code)"
    )]
    RelayCode(String),
    #[error("cannot start the link thread: {0}")]
    Thread(std::io::Error),
}

/// Resolves a link address; a bare port (`5000` or `:5000`) means loopback.
pub fn parse_addr(s: &str) -> Result<SocketAddr, NetError> {
    let t = s.trim();
    let t = t.strip_prefix(':').unwrap_or(t);
    if let Ok(port) = t.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    t.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| NetError::Address(s.to_string()))
}

impl NetHandle {
    /// Starts the network thread.
    pub fn start(cfg: NetConfig) -> Result<NetHandle, NetError> {
        if cfg.code.len() > MAX_CODE {
            return Err(NetError::Code);
        }
        if let Mode::Relay { room, .. } = &cfg.mode {
            if room.is_empty() || room.len() > MAX_CODE {
                return Err(NetError::RelayCode(room.clone()));
            }
        }
        let listener = match &cfg.mode {
            Mode::Listen(addr) => {
                let l = TcpListener::bind(addr).map_err(|source| NetError::Bind {
                    addr: *addr,
                    source,
                })?;
                l.set_nonblocking(true).ok();
                Some(l)
            }
            _ => None,
        };
        let local = listener.as_ref().and_then(|l| l.local_addr().ok());
        let waiting = match (&cfg.mode, local) {
            (Mode::Listen(_), Some(a)) => format!("waiting on {a}"),
            (Mode::Listen(a), None) => format!("waiting on {a}"),
            (Mode::Connect(a), _) => format!("connecting to {a}"),
            (Mode::Relay { relay, room }, _) => format!("waiting in room {room:?} at {relay}"),
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(LinkState::Waiting(waiting)),
            rtt_us: AtomicU64::new(u64::MAX),
            stop: AtomicBool::new(false),
            connected: AtomicBool::new(false),
            done: AtomicBool::new(false),
        });
        let (tx, out_rx) = bounded(OUT_QUEUE);
        let (ev_tx, rx) = bounded(IN_QUEUE);
        let sh = shared.clone();
        let pong_tx = tx.clone();
        std::thread::Builder::new()
            .name("ti82-netlink".into())
            .spawn(move || {
                manager(cfg, listener, sh.clone(), out_rx, pong_tx, ev_tx);
                sh.done.store(true, Ordering::SeqCst);
            })
            .map_err(NetError::Thread)?;
        Ok(NetHandle {
            tx,
            rx,
            shared,
            local,
        })
    }

    /// Queues a message for the peer; false when it was dropped (no peer, or the queue is
    /// full).
    pub fn send(&self, m: Msg) -> bool {
        if !self.connected() {
            return false;
        }
        self.tx.try_send(m).is_ok()
    }

    /// Everything the network thread has reported.
    pub fn poll(&self) -> Vec<Event> {
        self.rx.try_iter().collect()
    }

    /// Waits up to `d` for the next report.
    pub fn wait(&self, d: Duration) -> Option<Event> {
        self.rx.recv_timeout(d).ok()
    }

    pub fn connected(&self) -> bool {
        self.shared.connected.load(Ordering::SeqCst)
    }

    pub fn state(&self) -> LinkState {
        self.shared
            .state
            .lock()
            .map(|s| s.clone())
            .unwrap_or(LinkState::Waiting("?".into()))
    }

    /// The last measured round-trip time (injected delays included).
    pub fn rtt(&self) -> Option<Duration> {
        match self.shared.rtt_us.load(Ordering::SeqCst) {
            u64::MAX => None,
            us => Some(Duration::from_micros(us)),
        }
    }
}

impl NetHandle {
    /// Closes the cable as a user unplugs it when done: what this side has already sent is
    /// written first (after its `--link-delay`), then `Bye`. Waits at most `wait` for that.
    /// A far endpoint may have ACKed our calculator's last DATA itself (docs/link.md, "One
    /// round trip per `Get(`"), so that DATA must still reach the far side.
    pub fn close(self, wait: Duration) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let start = Instant::now();
        while !self.shared.done.load(Ordering::SeqCst) && start.elapsed() < wait {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for NetHandle {
    fn drop(&mut self) {
        // The thread sends Bye and ends at its next look at the flag.
        self.shared.stop.store(true, Ordering::SeqCst);
    }
}

fn set_state(sh: &Shared, s: LinkState) {
    if let Ok(mut g) = sh.state.lock() {
        *g = s;
    }
}

/// Sends an event unless the emulation side is gone (then the thread should end).
fn emit(ev: &Sender<Event>, sh: &Shared, e: Event) -> bool {
    loop {
        match ev.send_timeout(e.clone(), Duration::from_millis(100)) {
            Ok(()) => return true,
            Err(crossbeam_channel::SendTimeoutError::Disconnected(_)) => return false,
            Err(crossbeam_channel::SendTimeoutError::Timeout(_)) => {
                if sh.stop.load(Ordering::SeqCst) {
                    return false;
                }
            }
        }
    }
}

fn manager(
    cfg: NetConfig,
    listener: Option<TcpListener>,
    sh: Arc<Shared>,
    out_rx: Receiver<Msg>,
    pong_tx: Sender<Msg>,
    ev: Sender<Event>,
) {
    let link = Link {
        cfg: &cfg,
        sh: &sh,
        out_rx: &out_rx,
        pong_tx: &pong_tx,
        ev: &ev,
    };
    match (&cfg.mode, listener) {
        (Mode::Listen(_), Some(l)) => listen(&link, l),
        (Mode::Connect(addr), _) | (Mode::Relay { relay: addr, .. }, _) => connect(&link, *addr),
        _ => {}
    }
}

/// What the network thread works with.
struct Link<'a> {
    cfg: &'a NetConfig,
    sh: &'a Arc<Shared>,
    out_rx: &'a Receiver<Msg>,
    pong_tx: &'a Sender<Msg>,
    ev: &'a Sender<Event>,
}

impl Link<'_> {
    fn stopped(&self) -> bool {
        self.sh.stop.load(Ordering::SeqCst)
    }

    /// Carries an authenticated connection until it ends; false when the emulation side is
    /// gone. `tick` runs on every turn of the writer's loop.
    fn serve(&self, est: Established, tick: &mut dyn FnMut()) -> bool {
        // Whatever was sent while unplugged is lost.
        while self.out_rx.try_recv().is_ok() {}
        let peer = est.peer.clone();
        set_state(self.sh, LinkState::Connected(peer.clone()));
        self.sh.connected.store(true, Ordering::SeqCst);
        if !emit(self.ev, self.sh, Event::Connected(peer)) {
            return false;
        }
        let why = connection(est, self, tick);
        self.sh.connected.store(false, Ordering::SeqCst);
        self.sh.rtt_us.store(u64::MAX, Ordering::SeqCst);
        set_state(
            self.sh,
            LinkState::Waiting(format!("cable unplugged ({why}); waiting for the peer")),
        );
        emit(self.ev, self.sh, Event::Lost(why))
    }

    fn refused(&self, why: String) -> bool {
        set_state(self.sh, LinkState::Refused(why.clone()));
        emit(self.ev, self.sh, Event::Refused(why))
    }
}

/// Connect (directly or through a relay), retrying until stopped.
fn connect(link: &Link, addr: SocketAddr) {
    let relayed = matches!(link.cfg.mode, Mode::Relay { .. });
    while !link.stopped() {
        let stream = match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
            Ok(s) => s,
            Err(_) => {
                std::thread::sleep(Duration::from_millis(300));
                continue;
            }
        };
        stream.set_nodelay(true).ok();
        match handshake(stream, link.cfg, relayed, &link.sh.stop, Duration::ZERO) {
            Ok(est) => {
                if !link.serve(est, &mut || {}) {
                    return;
                }
            }
            Err(HandshakeError::Stopped) => return,
            Err(HandshakeError::Refused { why, .. }) => {
                if !link.refused(why) {
                    return;
                }
                // Do not hammer a peer that refuses us.
                std::thread::sleep(Duration::from_secs(1));
            }
        }
    }
}

/// A finished handshake from one of the listener's pending connections.
struct Attempt {
    ip: IpAddr,
    result: Result<Established, HandshakeError>,
}

/// Failed handshakes per address, for the growing delay.
#[derive(Default)]
struct FailLog {
    by_ip: HashMap<IpAddr, (u32, Instant)>,
}

impl FailLog {
    /// The wait before the next handshake from `ip`.
    fn delay(&mut self, ip: IpAddr, now: Instant) -> Duration {
        match self.by_ip.get(&ip) {
            Some(&(_, at)) if now.duration_since(at) > FAIL_MEMORY => {
                self.by_ip.remove(&ip);
                Duration::ZERO
            }
            Some(&(n, _)) => FAIL_DELAY
                .saturating_mul(1u32 << (n - 1).min(16))
                .min(MAX_FAIL_DELAY),
            None => Duration::ZERO,
        }
    }

    /// Records a failed handshake from `ip`.
    fn failed(&mut self, ip: IpAddr, now: Instant) {
        if !self.by_ip.contains_key(&ip) && self.by_ip.len() >= MAX_FAILED_ADDRESSES {
            self.by_ip
                .retain(|_, (_, at)| now.duration_since(*at) <= FAIL_MEMORY);
            if self.by_ip.len() >= MAX_FAILED_ADDRESSES {
                if let Some(stalest) = self.by_ip.iter().min_by_key(|(_, (_, at))| *at) {
                    let ip = *stalest.0;
                    self.by_ip.remove(&ip);
                }
            }
        }
        let e = self.by_ip.entry(ip).or_insert((0, now));
        *e = (e.0.saturating_add(1), now);
    }

    /// A successful handshake from `ip` forgets its failures.
    fn succeeded(&mut self, ip: IpAddr) {
        self.by_ip.remove(&ip);
    }
}

/// Accepts connections and handshakes with each on its own thread; the first to
/// authenticate is served, while the others keep going.
fn listen(link: &Link, listener: TcpListener) {
    let (done_tx, done_rx) = bounded::<Attempt>(MAX_PENDING);
    let mut pending: HashMap<IpAddr, usize> = HashMap::new();
    let mut fails = FailLog::default();
    let mut backoff = Duration::ZERO;
    while !link.stopped() {
        // Finished handshakes first, so a failure counts before that address's next try.
        while let Ok(attempt) = done_rx.try_recv() {
            if !settle_attempt(link, attempt, &mut pending, &mut fails, &done_rx) {
                return;
            }
        }
        loop {
            match listener.accept() {
                Ok((s, addr)) => {
                    backoff = Duration::ZERO;
                    let ip = addr.ip();
                    let total: usize = pending.values().sum();
                    let from_ip = pending.get(&ip).copied().unwrap_or(0);
                    if total >= MAX_PENDING || from_ip >= MAX_PENDING_PER_ADDRESS {
                        // Busy: closed at once, costing nothing.
                        drop(s);
                        continue;
                    }
                    s.set_nonblocking(false).ok();
                    s.set_nodelay(true).ok();
                    let penalty = fails.delay(ip, Instant::now());
                    let (cfg, stop, done) = (link.cfg.clone(), link.sh.clone(), done_tx.clone());
                    let started = std::thread::Builder::new()
                        .name("ti82-netlink-hello".into())
                        .spawn(move || {
                            let result = handshake(s, &cfg, false, &stop.stop, penalty);
                            let _ = done.send(Attempt { ip, result });
                        });
                    if started.is_ok() {
                        *pending.entry(ip).or_insert(0) += 1;
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    // Out of descriptors (or another error that a retry at once would hit
                    // again): back off instead of spinning.
                    backoff = (backoff * 2)
                        .max(Duration::from_millis(10))
                        .min(MAX_ACCEPT_BACKOFF);
                    break;
                }
            }
        }
        let wait = if backoff.is_zero() {
            ACCEPT_POLL
        } else {
            backoff
        };
        if let Ok(attempt) = done_rx.recv_timeout(wait) {
            if !settle_attempt(link, attempt, &mut pending, &mut fails, &done_rx) {
                return;
            }
        }
    }
}

fn settle(pending: &mut HashMap<IpAddr, usize>, ip: IpAddr) {
    if let Some(n) = pending.get_mut(&ip) {
        *n -= 1;
        if *n == 0 {
            pending.remove(&ip);
        }
    }
}

/// Takes a finished handshake: serves it when it authenticated, counts it when it failed.
/// False when the network thread should end.
fn settle_attempt(
    link: &Link,
    attempt: Attempt,
    pending: &mut HashMap<IpAddr, usize>,
    fails: &mut FailLog,
    done_rx: &Receiver<Attempt>,
) -> bool {
    settle(pending, attempt.ip);
    match attempt.result {
        Ok(est) => {
            fails.succeeded(attempt.ip);
            // Others that authenticate while this peer is served are turned away.
            let mut tick = || {
                for other in done_rx.try_iter() {
                    settle(pending, other.ip);
                    if let Ok(o) = other.result {
                        refuse_stream(&o.stream, "another peer is connected");
                    }
                }
            };
            link.serve(est, &mut tick)
        }
        Err(HandshakeError::Stopped) => false,
        Err(HandshakeError::Refused { why, failed }) => {
            if failed {
                fails.failed(attempt.ip, Instant::now());
            }
            link.refused(why)
        }
    }
}

/// An authenticated connection.
struct Established {
    stream: TcpStream,
    peer: String,
    sealer: Sealer,
    opener: Opener,
    /// May already hold the first bytes of the peer's next frame.
    reader: FrameReader,
}

enum HandshakeError {
    /// `failed`: it counts as a failed authentication for the address's delay.
    Refused {
        why: String,
        failed: bool,
    },
    Stopped,
}

fn refuse_stream(mut s: &TcpStream, why: &str) {
    let _ = wire::write_msg(
        &mut s,
        &Msg::Refuse {
            reason: why.to_string(),
        },
    );
    let _ = s.shutdown(Shutdown::Both);
}

/// A handshake that failed: the peer refused us (its reason), or we refuse it, saying why.
/// `counts`: a refusal from the peer counts as a failed authentication of its address.
fn auth_failure(stream: &TcpStream, peer: &str, e: AuthError, counts: bool) -> HandshakeError {
    match e {
        AuthError::Refused(why) => {
            let _ = stream.shutdown(Shutdown::Both);
            HandshakeError::Refused {
                why: format!("refused by {peer}: {why}"),
                failed: counts,
            }
        }
        e => {
            let why = e.to_string();
            refuse_stream(stream, &why);
            HandshakeError::Refused {
                why: format!("{peer}: {why}"),
                failed: true,
            }
        }
    }
}

/// Reads one frame before `deadline` (none: wait until stopped), keeping partial frames
/// across the short read timeouts used to look at the stop flag.
fn read_before(
    stream: &TcpStream,
    fr: &mut FrameReader,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    peer: &str,
) -> Result<Vec<u8>, HandshakeError> {
    loop {
        let slice = match deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    refuse_stream(stream, "handshake deadline passed");
                    return Err(HandshakeError::Refused {
                        why: format!(
                            "{peer}: no handshake within {} s",
                            HANDSHAKE_DEADLINE.as_secs()
                        ),
                        failed: true,
                    });
                }
                left.min(Duration::from_millis(250))
            }
            None => Duration::from_millis(250),
        };
        stream
            .set_read_timeout(Some(slice.max(Duration::from_millis(1))))
            .ok();
        let mut r = stream;
        match fr.step(&mut r) {
            Ok(Some(body)) => return Ok(body),
            Ok(None) => {}
            Err(WireError::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                if stop.load(Ordering::SeqCst) {
                    return Err(HandshakeError::Stopped);
                }
            }
            Err(WireError::Io(_)) => {
                return Err(HandshakeError::Refused {
                    why: format!("{peer} closed the connection during the handshake"),
                    failed: true,
                })
            }
            Err(e) => {
                let why = format!("{peer}: {e}");
                refuse_stream(stream, &why);
                return Err(HandshakeError::Refused { why, failed: true });
            }
        }
    }
}

/// The handshake (docs/link.md, "Security"): after `penalty`, both sides send a hello with
/// their SPAKE2 message, then a sealed `Confirm`; a side whose confirm does not open refuses.
/// On a direct link all of it must end within [`HANDSHAKE_DEADLINE`]; through a relay the
/// deadline starts when the peer's hello arrives (the relay pairs us).
fn handshake(
    stream: TcpStream,
    cfg: &NetConfig,
    relayed: bool,
    stop: &AtomicBool,
    penalty: Duration,
) -> Result<Established, HandshakeError> {
    let peer = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "?".into());
    let until = Instant::now() + penalty;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return Err(HandshakeError::Stopped);
        }
        std::thread::sleep(
            until
                .saturating_duration_since(Instant::now())
                .min(Duration::from_millis(50)),
        );
    }
    let refused = |why: String, failed: bool| HandshakeError::Refused { why, failed };
    let (hs, hello) = Handshake::start(&cfg.code, cfg.room(), cfg.version);
    let mut w = &stream;
    wire::write_msg(&mut w, &hello).map_err(|e| refused(format!("{peer}: {e}"), false))?;
    let mut fr = FrameReader::new(MAX_HELLO_FRAME);
    let mut deadline = (!relayed).then(|| Instant::now() + HANDSHAKE_DEADLINE);
    let first = read_before(&stream, &mut fr, deadline, stop, &peer)?;
    let mut channel = hs
        .finish(&first)
        .map_err(|e| auth_failure(&stream, &peer, e, false))?;
    if w.write_all(&channel.confirm()).is_err() {
        return Err(refused(
            format!("{peer} closed the connection during the handshake"),
            true,
        ));
    }
    if relayed {
        deadline = Some(Instant::now() + HANDSHAKE_DEADLINE);
    }
    let second = read_before(&stream, &mut fr, deadline, stop, &peer)?;
    match channel.opener.open(&second) {
        Ok(_) => {}
        Err(OpenError::Auth(e)) => return Err(auth_failure(&stream, &peer, e, true)),
        Err(OpenError::Wire(e)) => {
            return Err(auth_failure(
                &stream,
                &peer,
                AuthError::Protocol(e.to_string()),
                true,
            ))
        }
    }
    fr.set_cap(MAX_FRAME);
    stream.set_read_timeout(None).ok();
    Ok(Established {
        stream,
        peer,
        sealer: channel.sealer,
        opener: channel.opener,
        reader: fr,
    })
}

/// A tiny deterministic generator for the jitter.
fn next_rand(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Carries messages until the peer leaves; returns why it ended.
fn connection(est: Established, link: &Link, tick: &mut dyn FnMut()) -> String {
    let (cfg, sh, out_rx) = (link.cfg, link.sh, link.out_rx);
    let Established {
        stream,
        mut sealer,
        mut opener,
        reader: mut frames,
        ..
    } = est;
    let alive = Arc::new(AtomicBool::new(true));
    let last_heard = Arc::new(Mutex::new(Instant::now()));
    let pings: Arc<Mutex<VecDeque<(u32, Instant)>>> = Arc::new(Mutex::new(VecDeque::new()));
    let why: Arc<Mutex<String>> = Arc::new(Mutex::new("the peer left".into()));
    let reader = {
        let Ok(mut r) = stream.try_clone() else {
            return "socket error".into();
        };
        let (alive, last_heard, pings, why, sh, ev, pong_tx) = (
            alive.clone(),
            last_heard.clone(),
            pings.clone(),
            why.clone(),
            sh.clone(),
            link.ev.clone(),
            link.pong_tx.clone(),
        );
        std::thread::Builder::new()
            .name("ti82-netlink-rx".into())
            .spawn(move || {
                while alive.load(Ordering::SeqCst) {
                    let m = match frames.next(&mut r) {
                        Ok(body) => opener.open(&body),
                        Err(WireError::Io(_)) => Err(OpenError::Wire(WireError::Io(
                            ErrorKind::UnexpectedEof.into(),
                        ))),
                        Err(e) => Err(OpenError::Wire(e)),
                    };
                    let m = match m {
                        Ok(m) => m,
                        Err(e) => {
                            if let Ok(mut w) = why.lock() {
                                *w = match e {
                                    OpenError::Wire(WireError::Io(_)) => "the peer left".into(),
                                    OpenError::Auth(AuthError::Refused(r)) => {
                                        format!("the peer refused: {r}")
                                    }
                                    e => format!("{e}"),
                                };
                            }
                            break;
                        }
                    };
                    if let Ok(mut t) = last_heard.lock() {
                        *t = Instant::now();
                    }
                    match m {
                        Msg::Ping { id } => {
                            let _ = pong_tx.try_send(Msg::Pong { id });
                        }
                        Msg::Pong { id } => {
                            if let Ok(mut p) = pings.lock() {
                                while let Some((i, at)) = p.pop_front() {
                                    if i == id {
                                        let rtt = at.elapsed().min(MAX_RTT);
                                        sh.rtt_us.store(rtt.as_micros() as u64, Ordering::SeqCst);
                                        break;
                                    }
                                }
                            }
                        }
                        Msg::Bye => {
                            if let Ok(mut w) = why.lock() {
                                *w = "the peer said goodbye".into();
                            }
                            break;
                        }
                        Msg::Hello { .. } | Msg::Refuse { .. } | Msg::Confirm => {}
                        m => {
                            if !emit(&ev, &sh, Event::Msg(m)) {
                                break;
                            }
                        }
                    }
                }
                alive.store(false, Ordering::SeqCst);
            })
    };
    if reader.is_err() {
        return "cannot start the link reader".into();
    }
    let mut w = BufWriter::new(&stream);
    let mut delayed: VecDeque<(Instant, Msg)> = VecDeque::new();
    let mut last_due = Instant::now();
    let mut rng = cfg.delay.seed | 1;
    let mut next_ping = Instant::now();
    let mut ping_id = 0u32;
    let result = loop {
        if sh.stop.load(Ordering::SeqCst) {
            // What was sent before the close still goes out, when due (bounded: a delay line
            // holds at most DELAY_LINE messages of at most the configured delay).
            for m in out_rx.try_iter().take(DELAY_LINE) {
                let due = (Instant::now() + Duration::from_millis(cfg.delay.ms)).max(last_due);
                last_due = due;
                delayed.push_back((due, m));
            }
            for (due, m) in delayed.drain(..) {
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                if w.write_all(&sealer.seal(&m)).is_err() {
                    break;
                }
            }
            let _ = w.write_all(&sealer.seal(&Msg::Bye));
            let _ = w.flush();
            break "this side closed the cable".to_string();
        }
        if !alive.load(Ordering::SeqCst) {
            break why.lock().map(|w| w.clone()).unwrap_or_default();
        }
        tick();
        let heard = last_heard.lock().map(|t| t.elapsed()).unwrap_or_default();
        if heard > PEER_TIMEOUT {
            break format!("the peer was silent for {} s", PEER_TIMEOUT.as_secs());
        }
        let now = Instant::now();
        if now >= next_ping {
            ping_id = ping_id.wrapping_add(1);
            if let Ok(mut p) = pings.lock() {
                if p.len() >= 64 {
                    p.pop_front();
                }
                p.push_back((ping_id, now));
            }
            let d = cfg.delay.ms;
            let j = if cfg.delay.jitter > 0 {
                next_rand(&mut rng) % (cfg.delay.jitter + 1)
            } else {
                0
            };
            let due = (now + Duration::from_millis(d + j)).max(last_due);
            last_due = due;
            delayed.push_back((due, Msg::Ping { id: ping_id }));
            next_ping = now + PING_EVERY;
        }
        // Write what is due.
        let mut wrote = false;
        while delayed.front().is_some_and(|(due, _)| *due <= now) {
            let (_, m) = delayed.pop_front().expect("front");
            if w.write_all(&sealer.seal(&m)).is_err() {
                alive.store(false, Ordering::SeqCst);
                break;
            }
            wrote = true;
        }
        if wrote && w.flush().is_err() {
            alive.store(false, Ordering::SeqCst);
        }
        let wait = delayed
            .front()
            .map(|(due, _)| due.saturating_duration_since(now))
            .unwrap_or(Duration::from_millis(50))
            .min(next_ping.saturating_duration_since(now))
            .min(Duration::from_millis(50));
        // A full delay line stops taking messages: the bounded queue before it then fills and
        // the emulation side drops what it sends (memory stays bounded).
        if delayed.len() >= DELAY_LINE {
            std::thread::sleep(wait);
            continue;
        }
        match out_rx.recv_timeout(wait) {
            Ok(m) => {
                let mut batch = vec![m];
                batch.extend(out_rx.try_iter().take(DELAY_LINE - delayed.len() - 1));
                for m in batch {
                    let j = if cfg.delay.jitter > 0 {
                        next_rand(&mut rng) % (cfg.delay.jitter + 1)
                    } else {
                        0
                    };
                    let due =
                        (Instant::now() + Duration::from_millis(cfg.delay.ms + j)).max(last_due);
                    last_due = due;
                    delayed.push_back((due, m));
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break "this side closed the cable".into(),
        }
    };
    alive.store(false, Ordering::SeqCst);
    let _ = stream.shutdown(Shutdown::Both);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_double_the_delay_up_to_the_cap_and_a_success_forgets() {
        let mut f = FailLog::default();
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let t = Instant::now();
        assert_eq!(f.delay(ip, t), Duration::ZERO);
        let mut want = FAIL_DELAY;
        for _ in 0..12 {
            f.failed(ip, t);
            assert_eq!(f.delay(ip, t), want.min(MAX_FAIL_DELAY));
            want *= 2;
        }
        assert_eq!(f.delay(ip, t), MAX_FAIL_DELAY);
        assert_eq!(f.delay(other, t), Duration::ZERO);
        // Forgotten after a calm spell, and on a success.
        assert_eq!(
            f.delay(ip, t + FAIL_MEMORY + Duration::from_secs(1)),
            Duration::ZERO
        );
        f.failed(ip, t);
        f.succeeded(ip);
        assert_eq!(f.delay(ip, t), Duration::ZERO);
    }

    #[test]
    fn the_failure_log_stays_bounded() {
        let mut f = FailLog::default();
        let t = Instant::now();
        for i in 0..(MAX_FAILED_ADDRESSES as u32 + 100) {
            f.failed(
                IpAddr::from(i.to_be_bytes()),
                t + Duration::from_millis(u64::from(i)),
            );
        }
        assert_eq!(f.by_ip.len(), MAX_FAILED_ADDRESSES);
        // The newest is remembered, the stalest forgotten.
        let newest = IpAddr::from((MAX_FAILED_ADDRESSES as u32 + 99).to_be_bytes());
        assert!(f.by_ip.contains_key(&newest));
        assert!(!f.by_ip.contains_key(&IpAddr::from(0u32.to_be_bytes())));
    }

    #[test]
    fn relay_codes_have_a_room_and_a_secret() {
        assert_eq!(relay_room("42-purple-beans").unwrap(), "42");
        for bad in ["ROOM42", "-secret", "42-", ""] {
            assert!(
                matches!(relay_room(bad), Err(NetError::RelayCode(_))),
                "{bad}"
            );
        }
        assert!(matches!(relay_room(&"x-".repeat(40)), Err(NetError::Code)));
    }
}
