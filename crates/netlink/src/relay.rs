//! `ti82 relay`: pairs two clients that name the same room and passes their frames through
//! unchanged, so two players behind home routers (neither can accept a connection) can link.
//!
//! A client connects and sends its plain `Hello`, whose room is the public part of its relay
//! code (`ROOM-SECRET`); the rest of the code never reaches the relay, and the two clients
//! authenticate each other through it with the PAKE ([`crate::secure`]), so the relay can
//! neither read nor forge what they send. The relay keeps a client waiting until a second
//! client names the same room, gives each the other's `Hello`, and copies bytes both ways
//! until either side leaves.
//!
//! Nothing a client does can fill it or hold it (docs/link.md, "Security"): one event-loop
//! thread serves every connection (no thread per socket); a hello must arrive whole within
//! [`Limits::hello_deadline`] and be at most [`MAX_HELLO_FRAME`] bytes; a waiting client is
//! dropped the moment its socket closes, and after [`Limits::wait_expiry`]; connections are
//! capped in total and per address; a pipe idle for [`Limits::idle_timeout`] is closed; an
//! accept error (out of descriptors) backs off instead of retrying at once.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, TcpListener as StdListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::time::{sleep, timeout};

use crate::net::NetError;
use crate::wire::{self, Msg, MAX_HELLO_FRAME, VERSION};

/// What the relay lets clients hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at most (waiting, paired or still sending their hello).
    pub max_connections: usize,
    /// Open connections from one address at most.
    pub per_address: usize,
    /// Rooms waiting for their second client at most.
    pub max_waiting: usize,
    /// A client must have sent its whole hello within this.
    pub hello_deadline: Duration,
    /// A client waits for its partner at most this long.
    pub wait_expiry: Duration,
    /// A paired pipe with no byte either way for this long is closed (the clients' own
    /// heartbeats keep a live pipe busy every half second).
    pub idle_timeout: Duration,
    /// The longest back-off after an accept error.
    pub max_accept_backoff: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1024,
            per_address: 16,
            max_waiting: 1000,
            hello_deadline: Duration::from_secs(10),
            wait_expiry: Duration::from_secs(600),
            idle_timeout: Duration::from_secs(60),
            max_accept_backoff: Duration::from_secs(1),
        }
    }
}

/// A relay bound to an address.
pub struct Relay {
    listener: StdListener,
    limits: Limits,
}

/// A client waiting in a room: how to hand it its partner.
struct Waiter {
    id: u64,
    partner: oneshot::Sender<(TcpStream, Vec<u8>)>,
}

#[derive(Default)]
struct State {
    rooms: HashMap<String, Waiter>,
    by_address: HashMap<IpAddr, usize>,
    connections: usize,
    next_id: u64,
}

type Shared = Arc<Mutex<State>>;
type Log = Arc<dyn Fn(String) + Send + Sync>;

/// Counts one open connection until dropped.
struct Admitted {
    state: Shared,
    ip: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut st) = self.state.lock() {
            st.connections = st.connections.saturating_sub(1);
            if let Some(n) = st.by_address.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    st.by_address.remove(&self.ip);
                }
            }
        }
    }
}

impl Relay {
    pub fn bind(addr: SocketAddr) -> Result<Relay, NetError> {
        let listener = StdListener::bind(addr).map_err(|source| NetError::Bind { addr, source })?;
        Ok(Relay {
            listener,
            limits: Limits::default(),
        })
    }

    /// The same relay with other limits (tests shorten the deadlines).
    pub fn with_limits(mut self, limits: Limits) -> Relay {
        self.limits = limits;
        self
    }

    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves forever on one thread; `log` gets one line per event. Returns only if the
    /// event loop cannot start.
    pub fn serve(self, log: impl Fn(String) + Send + Sync + 'static) -> Result<(), NetError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(NetError::Thread)?;
        let log: Log = Arc::new(log);
        rt.block_on(async move {
            self.listener
                .set_nonblocking(true)
                .map_err(NetError::Thread)?;
            let listener = TcpListener::from_std(self.listener).map_err(NetError::Thread)?;
            accept_loop(listener, self.limits, log).await;
            Ok(())
        })
    }
}

async fn accept_loop(listener: TcpListener, limits: Limits, log: Log) {
    let state: Shared = Arc::new(Mutex::new(State::default()));
    let mut backoff = Duration::ZERO;
    loop {
        match listener.accept().await {
            Ok((s, addr)) => {
                backoff = Duration::ZERO;
                let Some(admitted) = admit(&state, addr.ip(), &limits) else {
                    // Over a cap: closed at once (the refusal is best effort: never wait on
                    // a client we are turning away).
                    let _ = s.try_write(&wire::encode(&Msg::Refuse {
                        reason: "relay: too many connections".into(),
                    }));
                    continue;
                };
                let (state, log) = (state.clone(), log.clone());
                tokio::spawn(async move {
                    client(s, addr, state, limits, log).await;
                    drop(admitted);
                });
            }
            Err(e) => {
                // Out of descriptors (EMFILE) leaves the connection in the backlog, so an
                // accept at once fails again: back off instead of spinning.
                if backoff.is_zero() {
                    log(format!("accept failed: {e}; backing off"));
                }
                backoff = (backoff * 2)
                    .max(Duration::from_millis(10))
                    .min(limits.max_accept_backoff);
                sleep(backoff).await;
            }
        }
    }
}

fn admit(state: &Shared, ip: IpAddr, limits: &Limits) -> Option<Admitted> {
    let mut st = state.lock().ok()?;
    let from_ip = st.by_address.get(&ip).copied().unwrap_or(0);
    if st.connections >= limits.max_connections || from_ip >= limits.per_address {
        return None;
    }
    st.connections += 1;
    *st.by_address.entry(ip).or_insert(0) += 1;
    Some(Admitted {
        state: state.clone(),
        ip,
    })
}

async fn refuse(s: &mut TcpStream, why: &str) {
    let f = wire::encode(&Msg::Refuse {
        reason: why.to_string(),
    });
    let _ = timeout(Duration::from_secs(1), s.write_all(&f)).await;
    let _ = s.shutdown().await;
}

/// Reads one frame of at most [`MAX_HELLO_FRAME`] bytes.
async fn read_hello(s: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).await.map_err(|e| e.to_string())?;
    let n = u32::from_le_bytes(len) as usize;
    if n > MAX_HELLO_FRAME {
        return Err(format!(
            "a {n}-byte first message (a hello is at most {MAX_HELLO_FRAME})"
        ));
    }
    let mut body = vec![0u8; n];
    s.read_exact(&mut body).await.map_err(|e| e.to_string())?;
    Ok(body)
}

async fn client(mut s: TcpStream, addr: SocketAddr, state: Shared, limits: Limits, log: Log) {
    let peer = addr.to_string();
    let _ = s.set_nodelay(true);
    let frame = match timeout(limits.hello_deadline, read_hello(&mut s)).await {
        Ok(Ok(f)) => f,
        Ok(Err(e)) => {
            log(format!("{peer}: {e}"));
            refuse(&mut s, &format!("relay: {e}")).await;
            return;
        }
        Err(_) => {
            log(format!(
                "{peer}: no hello within {} s",
                limits.hello_deadline.as_secs()
            ));
            refuse(&mut s, "relay: no hello in time").await;
            return;
        }
    };
    let room = match wire::decode(&frame) {
        Ok(Msg::Hello { version, room, .. }) if version == VERSION => room,
        Ok(Msg::Hello { version, .. }) => {
            let why = if version < VERSION {
                format!(
                    "link protocol version mismatch: the client speaks version {version}, the relay {VERSION}: update the client's ti82"
                )
            } else {
                format!(
                    "link protocol version mismatch: the client speaks version {version}, the relay {VERSION}: the relay must update"
                )
            };
            log(format!("{peer}: {why}"));
            refuse(&mut s, &why).await;
            return;
        }
        Ok(_) => {
            refuse(&mut s, "relay: the first message must be a hello").await;
            return;
        }
        Err(e) => {
            log(format!("{peer}: {e}"));
            refuse(&mut s, &format!("relay: {e}")).await;
            return;
        }
    };
    if room.is_empty() {
        refuse(
            &mut s,
            "relay: a relay code is needed (--link relay HOST:PORT ROOM-SECRET)",
        )
        .await;
        return;
    }
    let mut hello = (frame.len() as u32).to_le_bytes().to_vec();
    hello.extend_from_slice(&frame);
    // Pair with the client waiting in the room, or wait there.
    let mut carried = (s, hello);
    loop {
        let placed = match state.lock() {
            Err(_) => return,
            Ok(mut st) => match st.rooms.remove(&room) {
                Some(w) => match w.partner.send(carried) {
                    // The waiter pipes both sockets.
                    Ok(()) => return,
                    // It left just now: wait in its place.
                    Err(back) => {
                        carried = back;
                        continue;
                    }
                },
                None if st.rooms.len() >= limits.max_waiting => None,
                None => {
                    let (tx, rx) = oneshot::channel();
                    st.next_id += 1;
                    let id = st.next_id;
                    st.rooms.insert(room.clone(), Waiter { id, partner: tx });
                    Some((rx, id))
                }
            },
        };
        let Some((rx, id)) = placed else {
            refuse(&mut carried.0, "relay: too many rooms waiting").await;
            return;
        };
        log(format!("{peer}: waiting in room {room:?}"));
        let (mut s, hello) = carried;
        let mut probe = [0u8; 1];
        let why = tokio::select! {
            partner = rx => match partner {
                Ok((mut o, o_hello)) => {
                    // Each gets the other's hello, then bytes flow both ways.
                    let sent = timeout(limits.idle_timeout, async {
                        o.write_all(&hello).await?;
                        s.write_all(&o_hello).await
                    })
                    .await;
                    if !matches!(sent, Ok(Ok(()))) {
                        log(format!("room {room:?}: a client left while being paired"));
                        return;
                    }
                    log(format!(
                        "room {room:?}: paired {peer} with {}",
                        o.peer_addr().map(|a| a.to_string()).unwrap_or_default()
                    ));
                    pipe(s, o, limits.idle_timeout).await;
                    log(format!("room {room:?}: closed"));
                    return;
                }
                Err(_) => "the relay lost the room".to_string(),
            },
            // A waiting client sends nothing: any read ends its wait (EOF: it left).
            r = s.read(&mut probe) => match r {
                Ok(0) | Err(_) => "left".to_string(),
                Ok(_) => "sent data before it was paired".to_string(),
            },
            _ = sleep(limits.wait_expiry) => {
                "expired".to_string()
            },
        };
        if let Ok(mut st) = state.lock() {
            if st.rooms.get(&room).is_some_and(|w| w.id == id) {
                st.rooms.remove(&room);
            }
        }
        log(format!("{peer}: stopped waiting in room {room:?}: {why}"));
        if why == "expired" {
            refuse(&mut s, "relay: nobody came to the room in time").await;
        }
        return;
    }
}

/// Copies both ways until either side ends or nothing moves for `idle`, then closes both.
async fn pipe(a: TcpStream, b: TcpStream, idle: Duration) {
    let (mut ar, mut aw) = a.into_split();
    let (mut br, mut bw) = b.into_split();
    let mut buf_a = vec![0u8; 16 * 1024];
    let mut buf_b = vec![0u8; 16 * 1024];
    loop {
        let moved = tokio::select! {
            r = ar.read(&mut buf_a) => match r {
                Ok(n) if n > 0 => matches!(timeout(idle, bw.write_all(&buf_a[..n])).await, Ok(Ok(()))),
                _ => false,
            },
            r = br.read(&mut buf_b) => match r {
                Ok(n) if n > 0 => matches!(timeout(idle, aw.write_all(&buf_b[..n])).await, Ok(Ok(()))),
                _ => false,
            },
            _ = sleep(idle) => false,
        };
        if !moved {
            break;
        }
    }
    let _ = aw.shutdown().await;
    let _ = bw.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caps_count_and_release_connections() {
        let state: Shared = Arc::new(Mutex::new(State::default()));
        let limits = Limits {
            max_connections: 3,
            per_address: 2,
            ..Limits::default()
        };
        let a: IpAddr = [127, 0, 0, 1].into();
        let b: IpAddr = [127, 0, 0, 2].into();
        let one = admit(&state, a, &limits).unwrap();
        let two = admit(&state, a, &limits).unwrap();
        assert!(admit(&state, a, &limits).is_none(), "per address");
        let three = admit(&state, b, &limits).unwrap();
        assert!(admit(&state, b, &limits).is_none(), "in total");
        drop(one);
        assert!(admit(&state, a, &limits).is_some());
        drop((two, three));
        let st = state.lock().unwrap();
        assert_eq!(st.connections, 0);
        assert!(st.by_address.is_empty());
    }
}
