//! `ti82 relay`: pairs two clients that name the same room and passes their frames through
//! unchanged, so two players behind home routers (neither can accept a connection) can link.
//!
//! A client connects and sends its `Hello` (the room is its session code). The relay keeps it
//! waiting until a second client names the same room, then gives each the other's `Hello`
//! and copies bytes both ways until either side leaves. The two clients check each other's
//! `Hello` themselves (version, model, code), exactly as on a direct connection.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::net::NetError;
use crate::wire::{self, Msg, VERSION};

/// Rooms waiting for their second client at most.
pub const MAX_WAITING: usize = 1000;

type Waiting = Arc<Mutex<HashMap<String, (TcpStream, Vec<u8>)>>>;

/// A relay bound to an address.
pub struct Relay {
    listener: TcpListener,
}

impl Relay {
    pub fn bind(addr: SocketAddr) -> Result<Relay, NetError> {
        let listener = TcpListener::bind(addr).map_err(|source| NetError::Bind { addr, source })?;
        Ok(Relay { listener })
    }

    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves forever; `log` gets one line per event.
    pub fn serve(self, log: impl Fn(String) + Send + Sync + 'static) {
        let waiting: Waiting = Arc::new(Mutex::new(HashMap::new()));
        let log = Arc::new(log);
        for s in self.listener.incoming().flatten() {
            let (waiting, log) = (waiting.clone(), log.clone());
            let _ = std::thread::Builder::new()
                .name("ti82-relay-client".into())
                .spawn(move || client(s, waiting, &*log));
        }
    }
}

fn refuse(mut s: &TcpStream, why: &str) {
    let _ = wire::write_msg(
        &mut s,
        &Msg::Refuse {
            reason: why.to_string(),
        },
    );
    let _ = s.shutdown(Shutdown::Both);
}

fn client(s: TcpStream, waiting: Waiting, log: &(dyn Fn(String) + Send + Sync)) {
    let peer = s
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "?".into());
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let mut r = &s;
    let frame = match wire::read_frame(&mut r) {
        Ok(f) => f,
        Err(e) => {
            log(format!("{peer}: {e}"));
            refuse(&s, &format!("relay: {e}"));
            return;
        }
    };
    let room = match wire::decode(&frame) {
        Ok(Msg::Hello { version, code, .. }) if version == VERSION => code,
        Ok(Msg::Hello { version, .. }) => {
            let why = format!(
                "link protocol version mismatch: the relay speaks version {VERSION}, the client {version}"
            );
            log(format!("{peer}: {why}"));
            refuse(&s, &why);
            return;
        }
        Ok(_) => {
            refuse(&s, "relay: the first message must be a hello");
            return;
        }
        Err(e) => {
            log(format!("{peer}: {e}"));
            refuse(&s, &format!("relay: {e}"));
            return;
        }
    };
    if room.is_empty() {
        refuse(
            &s,
            "relay: a room code is needed (--link relay HOST:PORT ROOM)",
        );
        return;
    }
    s.set_read_timeout(None).ok();
    let mut hello = (frame.len() as u32).to_le_bytes().to_vec();
    hello.extend_from_slice(&frame);
    let other = {
        let Ok(mut w) = waiting.lock() else { return };
        match w.remove(&room) {
            Some(o) => Some(o),
            None => {
                if w.len() >= MAX_WAITING {
                    drop(w);
                    refuse(&s, "relay: too many rooms waiting");
                    return;
                }
                match s.try_clone() {
                    Ok(c) => {
                        w.insert(room.clone(), (c, hello.clone()));
                    }
                    Err(_) => return,
                }
                None
            }
        }
    };
    let Some((o, o_hello)) = other else {
        log(format!("{peer}: waiting in room {room:?}"));
        return;
    };
    // Pair: each gets the other's hello, then bytes flow both ways.
    let (mut a, mut b) = (&s, &o);
    if b.write_all(&hello).is_err() || a.write_all(&o_hello).is_err() {
        log(format!(
            "{peer}: the client waiting in room {room:?} is gone"
        ));
        let _ = o.shutdown(Shutdown::Both);
        let _ = s.shutdown(Shutdown::Both);
        return;
    }
    log(format!(
        "room {room:?}: paired {peer} with {}",
        o.peer_addr().map(|a| a.to_string()).unwrap_or_default()
    ));
    let (Ok(s2), Ok(o2)) = (s.try_clone(), o.try_clone()) else {
        return;
    };
    let t = std::thread::spawn(move || pipe(o2, s2));
    pipe(s, o);
    let _ = t.join();
    log(format!("room {room:?}: closed"));
}

/// Copies `from` to `to` until either ends, then closes both.
fn pipe(from: TcpStream, to: TcpStream) {
    let mut buf = [0u8; 16 * 1024];
    let (mut r, mut w) = (&from, &to);
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if w.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}
