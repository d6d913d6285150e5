//! The network side: one thread that listens, connects or goes through a relay, checks the
//! peer's `Hello`, and then carries [`Msg`]s both ways until the peer leaves; then it waits
//! for the next peer (reconnecting needs no restart). The emulation thread talks to it only
//! through bounded crossbeam channels ([`NetHandle`]) and never waits on it.

use std::collections::VecDeque;
use std::io::{BufWriter, ErrorKind, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};

use crate::wire::{self, Msg, WireError, MAX_CODE, MODEL_TI82, VERSION};

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
/// How long a direct peer has to send its `Hello`.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(5);
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
    /// room; the room is also the session code.
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
    /// The session code both sides must present (empty: none).
    pub code: String,
    pub delay: Delay,
    /// The version we announce (tests of the refusal set another).
    pub version: u16,
}

impl NetConfig {
    pub fn new(mode: Mode) -> NetConfig {
        let code = match &mode {
            Mode::Relay { room, .. } => room.clone(),
            _ => String::new(),
        };
        NetConfig {
            mode,
            code,
            delay: Delay::default(),
            version: VERSION,
        }
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
    while !sh.stop.load(Ordering::SeqCst) {
        // Whatever was sent while unplugged is lost.
        while out_rx.try_recv().is_ok() {}
        let stream = match (&cfg.mode, &listener) {
            (Mode::Listen(_), Some(l)) => match l.accept() {
                Ok((s, _)) => s,
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
            },
            (Mode::Connect(addr), _) | (Mode::Relay { relay: addr, .. }, _) => {
                match TcpStream::connect_timeout(addr, Duration::from_secs(1)) {
                    Ok(s) => s,
                    Err(_) => {
                        std::thread::sleep(Duration::from_millis(300));
                        continue;
                    }
                }
            }
            _ => return,
        };
        stream.set_nonblocking(false).ok();
        stream.set_nodelay(true).ok();
        let relayed = matches!(cfg.mode, Mode::Relay { .. });
        match handshake(&stream, &cfg, relayed, &sh) {
            Ok(peer) => {
                set_state(&sh, LinkState::Connected(peer.clone()));
                sh.connected.store(true, Ordering::SeqCst);
                if !emit(&ev, &sh, Event::Connected(peer)) {
                    return;
                }
                let why = connection(stream, &cfg, &sh, &out_rx, &pong_tx, &ev);
                sh.connected.store(false, Ordering::SeqCst);
                sh.rtt_us.store(u64::MAX, Ordering::SeqCst);
                set_state(
                    &sh,
                    LinkState::Waiting(format!("cable unplugged ({why}); waiting for the peer")),
                );
                if !emit(&ev, &sh, Event::Lost(why)) {
                    return;
                }
            }
            Err(HandshakeError::Stopped) => return,
            Err(HandshakeError::Refused(why)) => {
                set_state(&sh, LinkState::Refused(why.clone()));
                if !emit(&ev, &sh, Event::Refused(why)) {
                    return;
                }
                if !matches!(cfg.mode, Mode::Listen(_)) {
                    // Do not hammer a peer that refuses us.
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        }
    }
}

enum HandshakeError {
    Refused(String),
    Stopped,
}

/// Both sides send a `Hello` and check the other's: magic, version, model, session code.
/// On a mismatch the side that sees it sends `Refuse` with the reason and closes.
fn handshake(
    stream: &TcpStream,
    cfg: &NetConfig,
    relayed: bool,
    sh: &Shared,
) -> Result<String, HandshakeError> {
    let peer = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "?".into());
    let mut w = stream;
    let hello = Msg::Hello {
        version: cfg.version,
        model: MODEL_TI82,
        code: cfg.code.clone(),
    };
    let refused = |why: String| HandshakeError::Refused(why);
    wire::write_msg(&mut w, &hello).map_err(|e| refused(format!("{peer}: {e}")))?;
    // Through a relay the peer's Hello comes when the relay has paired us: wait for it.
    stream
        .set_read_timeout(Some(Duration::from_millis(250)))
        .ok();
    let start = Instant::now();
    let mut r = stream;
    let msg = loop {
        match wire::read_msg(&mut r) {
            Ok(m) => break m,
            Err(WireError::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                if sh.stop.load(Ordering::SeqCst) {
                    return Err(HandshakeError::Stopped);
                }
                if !relayed && start.elapsed() > HELLO_TIMEOUT {
                    return Err(refused(format!("{peer}: no hello within 5 s")));
                }
            }
            Err(WireError::Io(e)) if e.kind() == ErrorKind::UnexpectedEof => {
                return Err(refused(format!(
                    "{peer} closed the connection during the hello"
                )))
            }
            Err(e) => {
                let why = format!("{peer}: {e}");
                let _ = wire::write_msg(
                    &mut w,
                    &Msg::Refuse {
                        reason: why.clone(),
                    },
                );
                return Err(refused(why));
            }
        }
    };
    let problem = match msg {
        Msg::Refuse { reason } => return Err(refused(format!("refused by {peer}: {reason}"))),
        Msg::Hello { version, .. } if version != cfg.version => Some(format!(
            "link protocol version mismatch: the peer speaks version {version}, this ti82 speaks {}",
            cfg.version
        )),
        Msg::Hello { model, .. } if model != MODEL_TI82 => Some(format!(
            "the peer is not a TI-82 (model byte {model:#04x})"
        )),
        Msg::Hello { code, .. } if code != cfg.code => {
            Some("wrong session code (the two sides' --code differ)".to_string())
        }
        Msg::Hello { .. } => None,
        _ => Some("the peer did not start with a hello".to_string()),
    };
    if let Some(why) = problem {
        let _ = wire::write_msg(
            &mut w,
            &Msg::Refuse {
                reason: why.clone(),
            },
        );
        let _ = stream.shutdown(Shutdown::Both);
        return Err(refused(format!("{peer}: {why}")));
    }
    stream.set_read_timeout(None).ok();
    Ok(peer)
}

/// A tiny deterministic generator for the jitter.
fn next_rand(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Carries messages until the peer leaves; returns why it ended.
fn connection(
    stream: TcpStream,
    cfg: &NetConfig,
    sh: &Arc<Shared>,
    out_rx: &Receiver<Msg>,
    pong_tx: &Sender<Msg>,
    ev: &Sender<Event>,
) -> String {
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
            ev.clone(),
            pong_tx.clone(),
        );
        std::thread::Builder::new()
            .name("ti82-netlink-rx".into())
            .spawn(move || {
                while alive.load(Ordering::SeqCst) {
                    let m = match wire::read_msg(&mut r) {
                        Ok(m) => m,
                        Err(e) => {
                            if let Ok(mut w) = why.lock() {
                                *w = match e {
                                    WireError::Io(_) => "the peer left".into(),
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
                        Msg::Hello { .. } | Msg::Refuse { .. } => {}
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
                if wire::write_msg(&mut w, &m).is_err() {
                    break;
                }
            }
            let _ = wire::write_msg(&mut w, &Msg::Bye);
            let _ = w.flush();
            break "this side closed the cable".to_string();
        }
        if !alive.load(Ordering::SeqCst) {
            break why.lock().map(|w| w.clone()).unwrap_or_default();
        }
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
            if wire::write_msg(&mut w, &m).is_err() {
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
