//! The network cable against strangers, on loopback (docs/link.md, "Security"): what a
//! stranger learns and can deliver, the wrong code, a trickling client, the guessing delay,
//! and the relay under floods. Every wait is bounded.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use netlink::net::{FAIL_DELAY, HANDSHAKE_DEADLINE};
use netlink::relay::Limits;
use netlink::secure::Handshake;
use netlink::wire::{self, FrameReader, Msg, MAX_FRAME, VERSION};
use netlink::{Event, Mode, NetConfig, NetHandle, Relay};

fn loopback(port: u16) -> SocketAddr {
    ([127, 0, 0, 1], port).into()
}

fn listener(code: &str) -> (NetHandle, SocketAddr) {
    let mut cfg = NetConfig::new(Mode::Listen(loopback(0)));
    cfg.code = code.into();
    let h = NetHandle::start(cfg).unwrap();
    let at = h.local.unwrap();
    (h, at)
}

fn connector(at: SocketAddr, code: &str) -> NetHandle {
    let mut cfg = NetConfig::new(Mode::Connect(at));
    cfg.code = code.into();
    NetHandle::start(cfg).unwrap()
}

/// Events until `want` matches one (or `within` passes); all of them, in order.
fn events_until(h: &NetHandle, within: Duration, want: impl Fn(&Event) -> bool) -> Vec<Event> {
    let end = Instant::now() + within;
    let mut seen = Vec::new();
    while Instant::now() < end {
        if let Some(e) = h.wait(Duration::from_millis(20)) {
            let done = want(&e);
            seen.push(e);
            if done {
                break;
            }
        }
    }
    seen
}

fn connected(e: &Event) -> bool {
    matches!(e, Event::Connected(_))
}

fn delivered(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::Msg(_))).count()
}

/// A TCP connection from a chosen loopback address (the whole of 127/8 is this machine).
fn connect_from(ip: [u8; 4], to: SocketAddr) -> std::io::Result<TcpStream> {
    let s = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    s.bind(&SocketAddr::from((ip, 0)).into())?;
    s.connect_timeout(&to.into(), Duration::from_secs(2))?;
    Ok(s.into())
}

fn read_frame_within(s: &mut TcpStream, d: Duration) -> Option<Vec<u8>> {
    s.set_read_timeout(Some(d)).unwrap();
    wire::read_frame(s).ok()
}

fn packet(seq: u32) -> Msg {
    Msg::Packet {
        seq,
        reply_to: 0,
        bytes: vec![0x82, 0x56, 0, 0],
    }
}

/// Item 1: a stranger who connects learns nothing of the code from what it reads, and what it
/// sends after a wrong guess is never delivered; the listener then still takes the real peer.
#[test]
fn a_stranger_learns_nothing_and_delivers_nothing() {
    let code = "MANCALA-SECRET-CODE";
    let (h, at) = listener(code);
    let mut s = TcpStream::connect(at).unwrap();
    let their_hello = read_frame_within(&mut s, Duration::from_secs(5)).expect("the hello");
    assert!(
        !their_hello
            .windows(code.len())
            .any(|w| w.eq_ignore_ascii_case(code.as_bytes())),
        "the listener's hello holds the code"
    );
    let Ok(Msg::Hello { pake, room, .. }) = wire::decode(&their_hello) else {
        panic!("not a hello")
    };
    assert_eq!((pake.len(), room.as_str()), (33, ""));
    // The stranger plays the protocol with a guess, and sends a packet and a plain one.
    let (hs, mine) = Handshake::start("GUESS", "", VERSION);
    s.write_all(&wire::encode(&mine)).unwrap();
    let mut ch = hs.finish(&their_hello).unwrap();
    s.write_all(&ch.confirm()).unwrap();
    // (The listener may have closed already: then these cannot even be written.)
    let _ = s.write_all(&ch.sealer.seal(&packet(1)));
    let _ = s.write_all(&wire::encode(&packet(2)));
    // It gets the listener's confirmation (which it cannot open), then a refusal, then EOF.
    let confirm = read_frame_within(&mut s, Duration::from_secs(5)).expect("a confirmation");
    assert_eq!(confirm[0], wire::SEALED);
    assert!(ch.opener.open(&confirm).is_err());
    let refusal = read_frame_within(&mut s, Duration::from_secs(5)).expect("a refusal");
    assert_eq!(
        wire::decode(&refusal).unwrap(),
        Msg::Refuse {
            reason: "wrong session code (the two sides' codes differ)".into()
        }
    );
    let mut rest = Vec::new();
    let _ = s.read_to_end(&mut rest);
    assert!(rest.is_empty());
    let seen = events_until(&h, Duration::from_secs(5), |e| {
        matches!(e, Event::Refused(_))
    });
    assert!(
        matches!(seen.last(), Some(Event::Refused(why)) if why.contains("wrong session code")),
        "{seen:?}"
    );
    // The real peer connects after the stranger (after the stranger's address's delay).
    let peer = connector(at, code);
    let seen = events_until(&h, Duration::from_secs(10), connected);
    assert!(seen.iter().any(connected), "{seen:?}");
    assert!(peer
        .wait(Duration::from_secs(5))
        .is_some_and(|e| connected(&e)));
    assert_eq!(delivered(&seen), 0, "the stranger delivered {seen:?}");
    // And what the real peer sends arrives.
    assert!(peer.send(packet(7)));
    let seen = events_until(&h, Duration::from_secs(5), |e| matches!(e, Event::Msg(_)));
    assert_eq!(seen.last(), Some(&Event::Msg(packet(7))));
}

/// Item 1: a stranger who skips the handshake (a plain packet after its hello) is refused.
#[test]
fn a_plain_message_after_the_hello_is_refused() {
    let (h, at) = listener("CODE");
    let mut s = TcpStream::connect(at).unwrap();
    let theirs = read_frame_within(&mut s, Duration::from_secs(5)).unwrap();
    let (_, mine) = Handshake::start("CODE", "", VERSION);
    s.write_all(&wire::encode(&mine)).unwrap();
    s.write_all(&wire::encode(&packet(1))).unwrap();
    let _confirm = read_frame_within(&mut s, Duration::from_secs(5)).unwrap();
    let refusal = read_frame_within(&mut s, Duration::from_secs(5)).unwrap();
    assert!(
        matches!(wire::decode(&refusal), Ok(Msg::Refuse { reason }) if reason.contains("plain")),
        "{refusal:?}"
    );
    let seen = events_until(&h, Duration::from_secs(5), |e| {
        matches!(e, Event::Refused(_))
    });
    assert_eq!(delivered(&seen), 0);
    assert_eq!(theirs[0], 1);
}

/// Item 1: two honest sides with different codes refuse each other after one exchange (a
/// hello and a confirmation each way), both with the reason.
#[test]
fn the_wrong_code_is_refused_after_one_exchange() {
    let (h, at) = listener("RIGHT");
    let c = connector(at, "WRONG");
    let refused =
        |e: &Event| matches!(e, Event::Refused(why) if why.contains("wrong session code"));
    let seen = events_until(&h, Duration::from_secs(5), refused);
    assert!(seen.iter().any(refused), "listener: {seen:?}");
    let seen = events_until(&c, Duration::from_secs(5), refused);
    assert!(seen.iter().any(refused), "connector: {seen:?}");
    assert!(!h.connected() && !c.connected());
}

/// Item 4: trickling clients (a huge length then a byte every 200 ms; a small length then
/// the same) hold neither the listener nor the real peer, who connects at once.
#[test]
fn a_trickling_client_does_not_hold_the_real_peer() {
    let (h, at) = listener("CODE");
    let start = Instant::now();
    let trickle = |len: u32| {
        std::thread::spawn(move || {
            let Ok(mut s) = TcpStream::connect(at) else {
                return;
            };
            let _ = s.write_all(&len.to_le_bytes());
            for _ in 0..60 {
                if s.write_all(&[1]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    let big = trickle(MAX_FRAME as u32);
    let small = trickle(100);
    std::thread::sleep(Duration::from_millis(300));
    let peer = connector(at, "CODE");
    let seen = events_until(&h, HANDSHAKE_DEADLINE, connected);
    assert!(seen.iter().any(connected), "{seen:?}");
    let took = start.elapsed();
    assert!(
        took < HANDSHAKE_DEADLINE,
        "the real peer waited {took:?} (deadline {HANDSHAKE_DEADLINE:?})"
    );
    assert!(peer.connected());
    drop((big, small));
}

/// Item 4: the whole handshake has one deadline: a client that sends its hello a byte at a
/// time, never stopping, is cut off at the deadline.
#[test]
fn the_handshake_deadline_covers_the_whole_handshake() {
    let (_h, at) = listener("CODE");
    let mut s = TcpStream::connect(at).unwrap();
    let _theirs = read_frame_within(&mut s, Duration::from_secs(5)).unwrap();
    let (_, mine) = Handshake::start("CODE", "", VERSION);
    let mut bytes = wire::encode(&mine);
    // Announce a longer frame so the trickle never ends.
    bytes[0] = 200;
    let start = Instant::now();
    let mut cut = None;
    for b in bytes.iter().chain([0u8; 200].iter()) {
        if s.write_all(&[*b]).is_err() {
            cut = Some(start.elapsed());
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        let mut probe = [0u8; 64];
        s.set_nonblocking(true).unwrap();
        let r = s.read(&mut probe);
        s.set_nonblocking(false).unwrap();
        if matches!(r, Ok(0)) || matches!(r, Ok(n) if n > 0) {
            cut = Some(start.elapsed());
            break;
        }
    }
    let cut = cut.expect("never cut off");
    assert!(
        cut >= HANDSHAKE_DEADLINE - Duration::from_millis(500)
            && cut < HANDSHAKE_DEADLINE + Duration::from_secs(2),
        "cut off after {cut:?}"
    );
}

/// Item 4: an honest peer whose bytes come a few at a time, so that the handshake's reads
/// time out mid-frame, still completes (nothing read is lost).
#[test]
fn a_slow_honest_peer_completes_the_handshake() {
    let (h, at) = listener("CODE");
    let mut s = TcpStream::connect(at).unwrap();
    let theirs = read_frame_within(&mut s, Duration::from_secs(5)).unwrap();
    let (hs, mine) = Handshake::start("CODE", "", VERSION);
    let mut ch = hs.finish(&theirs).unwrap();
    let mut bytes = wire::encode(&mine);
    bytes.extend(ch.confirm());
    bytes.extend(ch.sealer.seal(&packet(3)));
    // 3 bytes every 70 ms: the listener's 250 ms reads time out inside frames.
    for part in bytes.chunks(3) {
        s.write_all(part).unwrap();
        std::thread::sleep(Duration::from_millis(70));
    }
    let seen = events_until(&h, Duration::from_secs(5), |e| matches!(e, Event::Msg(_)));
    assert!(seen.iter().any(connected), "{seen:?}");
    assert_eq!(seen.last(), Some(&Event::Msg(packet(3))));
    let mut fr = FrameReader::new(MAX_FRAME);
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let confirm = fr.next(&mut s).unwrap();
    assert_eq!(ch.opener.open(&confirm).unwrap(), Msg::Confirm);
}

/// Time from connecting until the listener's hello arrives.
fn hello_after(at: SocketAddr, guess: &str) -> Duration {
    let start = Instant::now();
    let mut s = TcpStream::connect(at).unwrap();
    let theirs = read_frame_within(&mut s, Duration::from_secs(10)).expect("a hello");
    let took = start.elapsed();
    let (hs, mine) = Handshake::start(guess, "", VERSION);
    s.write_all(&wire::encode(&mine)).unwrap();
    let mut ch = hs.finish(&theirs).unwrap();
    s.write_all(&ch.confirm()).unwrap();
    // Wait for the refusal, so the failure is counted before the next try.
    let _ = read_frame_within(&mut s, Duration::from_secs(5));
    let _ = read_frame_within(&mut s, Duration::from_secs(5));
    let _ = s.shutdown(Shutdown::Both);
    took
}

/// Item 6: each failed guess from an address makes its next handshake wait longer.
#[test]
fn guesses_from_one_address_slow_down() {
    let (_h, at) = listener("CODE");
    let first = hello_after(at, "A");
    let second = hello_after(at, "B");
    let third = hello_after(at, "C");
    assert!(first < FAIL_DELAY, "{first:?}");
    assert!(second >= FAIL_DELAY, "{second:?}");
    assert!(third >= 2 * FAIL_DELAY, "{third:?}");
    // Another address is not slowed.
    let start = Instant::now();
    let mut s = connect_from([127, 0, 0, 2], at).unwrap();
    assert!(read_frame_within(&mut s, Duration::from_secs(5)).is_some());
    assert!(start.elapsed() < FAIL_DELAY, "{:?}", start.elapsed());
}

// ------------------------------------------------------------------ the relay

fn relay(limits: Limits) -> SocketAddr {
    let r = Relay::bind(loopback(0)).unwrap().with_limits(limits);
    let at = r.local_addr().unwrap();
    std::thread::spawn(move || r.serve(|_| {}));
    at
}

fn relay_player(at: SocketAddr, code: &str) -> NetHandle {
    NetHandle::start(NetConfig::relay(at, code).unwrap()).unwrap()
}

/// Two players through the relay: both connect and a packet crosses.
fn players_pair(at: SocketAddr, code: &str) {
    let a = relay_player(at, code);
    let b = relay_player(at, code);
    let sa = events_until(&a, Duration::from_secs(10), connected);
    let sb = events_until(&b, Duration::from_secs(10), connected);
    assert!(sa.iter().any(connected), "{sa:?}");
    assert!(sb.iter().any(connected), "{sb:?}");
    assert!(a.send(packet(5)));
    let seen = events_until(&b, Duration::from_secs(5), |e| matches!(e, Event::Msg(_)));
    assert_eq!(seen.last(), Some(&Event::Msg(packet(5))));
}

fn greet_and_vanish(at: SocketAddr, room: &str) -> bool {
    let Ok(mut s) = TcpStream::connect(at) else {
        return false;
    };
    let (_, hello) = Handshake::start("x", room, VERSION);
    let ok = s.write_all(&wire::encode(&hello)).is_ok();
    drop(s);
    ok
}

/// Item 2: after 1,100 clients that greet with a new room and vanish, and with 300 silent
/// clients still connected (from 30 addresses), two real players still pair; a player whose
/// earlier socket in the room vanished is paired with the live one.
#[test]
fn the_relay_pairs_players_after_floods() {
    let at = relay(Limits::default());
    let floods: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                (0..275)
                    .filter(|i| greet_and_vanish(at, &format!("{t}x{i}")))
                    .count()
            })
        })
        .collect();
    let greeted: usize = floods.into_iter().map(|f| f.join().unwrap()).sum();
    assert_eq!(greeted, 1100);
    let silent: Vec<TcpStream> = (0..300)
        .filter_map(|i| connect_from([127, 0, 1, 1 + (i / 10) as u8], at).ok())
        .collect();
    assert_eq!(silent.len(), 300);
    // A stale socket in the players' room.
    assert!(greet_and_vanish(at, "42"));
    std::thread::sleep(Duration::from_millis(200));
    players_pair(at, "42-purple-beans");
    drop(silent);
}

/// Item 2: a waiting client expires, and silent clients are cut off at the hello deadline.
#[test]
fn the_relay_expires_waits_and_silent_clients() {
    let at = relay(Limits {
        hello_deadline: Duration::from_millis(500),
        wait_expiry: Duration::from_millis(700),
        ..Limits::default()
    });
    let mut silent = TcpStream::connect(at).unwrap();
    let start = Instant::now();
    let refusal = read_frame_within(&mut silent, Duration::from_secs(5)).expect("refused");
    assert!(matches!(wire::decode(&refusal), Ok(Msg::Refuse { .. })));
    assert!(start.elapsed() < Duration::from_secs(3));
    let mut waiting = TcpStream::connect(at).unwrap();
    let (_, hello) = Handshake::start("x", "9", VERSION);
    waiting.write_all(&wire::encode(&hello)).unwrap();
    let start = Instant::now();
    let refusal = read_frame_within(&mut waiting, Duration::from_secs(5)).expect("expired");
    assert!(
        matches!(wire::decode(&refusal), Ok(Msg::Refuse { reason }) if reason.contains("in time"))
    );
    assert!(start.elapsed() >= Duration::from_millis(600));
}

/// Item 2: connections are capped per address and in total; the cap releases when they go.
#[test]
fn the_relay_caps_connections_per_address() {
    let at = relay(Limits {
        per_address: 4,
        ..Limits::default()
    });
    let held: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(at).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut fifth = TcpStream::connect(at).unwrap();
    let r = read_frame_within(&mut fifth, Duration::from_secs(5));
    assert!(
        matches!(r.as_deref().map(wire::decode), Some(Ok(Msg::Refuse { .. }))),
        "{r:?}"
    );
    // When they go, players get in again.
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    players_pair(at, "7-a");
}

/// Item 2: a paired pipe with nothing moving is closed after the idle timeout.
#[test]
fn an_idle_pipe_is_closed() {
    let at = relay(Limits {
        idle_timeout: Duration::from_millis(500),
        ..Limits::default()
    });
    let mut a = TcpStream::connect(at).unwrap();
    let mut b = TcpStream::connect(at).unwrap();
    let (_, ha) = Handshake::start("x", "5", VERSION);
    let (_, hb) = Handshake::start("x", "5", VERSION);
    a.write_all(&wire::encode(&ha)).unwrap();
    b.write_all(&wire::encode(&hb)).unwrap();
    assert!(read_frame_within(&mut a, Duration::from_secs(5)).is_some());
    assert!(read_frame_within(&mut b, Duration::from_secs(5)).is_some());
    let start = Instant::now();
    a.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = [0u8; 8];
    assert!(matches!(a.read(&mut buf), Ok(0)), "closed");
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(400) && took < Duration::from_secs(4),
        "{took:?}"
    );
}

/// A version-2 client is told to update, by a listener and by the relay.
#[test]
fn a_version_2_peer_is_told_to_update() {
    let old_hello = {
        let mut v = vec![1];
        v.extend(wire::MAGIC);
        v.extend(2u16.to_le_bytes());
        v.push(0x82);
        v.push(4);
        v.extend(b"CODE");
        let mut f = (v.len() as u32).to_le_bytes().to_vec();
        f.extend(v);
        f
    };
    let (_h, at) = listener("CODE");
    let rl = relay(Limits::default());
    for to in [at, rl] {
        let mut s = TcpStream::connect(to).unwrap();
        s.write_all(&old_hello).unwrap();
        let mut refusal = None;
        for _ in 0..2 {
            match read_frame_within(&mut s, Duration::from_secs(5)).map(|f| wire::decode(&f)) {
                Some(Ok(Msg::Refuse { reason })) => {
                    refusal = Some(reason);
                    break;
                }
                Some(_) => {}
                None => break,
            }
        }
        let why = refusal.expect("a refusal");
        assert!(why.contains("version 2") && why.contains("update"), "{why}");
    }
}
