//! The TCP link cable between two threads on 127.0.0.1: the wire format, two calculators
//! with different clocks seeing each other's drive, unplugging, and re-plugging through
//! `NetLink`. Every wait is bounded.

#[path = "frontend_rom.rs"]
mod rom;

use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use ti82::tcp::{decode, encode, NetLink, TcpTransport, WireMsg, TCP_LATENCY, VERSION};
use ti82_machine::cable::LinkMsg;
use ti82_machine::LinkEndpoint;

const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn wire_round_trip_and_bad_input() {
    for m in [
        WireMsg::Hello {
            version: VERSION,
            time: 123_456_789,
        },
        WireMsg::Link(LinkMsg::Drive { t: 42, pull: 3 }),
        WireMsg::Link(LinkMsg::Time(u64::MAX)),
        WireMsg::Link(LinkMsg::Bye),
    ] {
        let b = encode(&m);
        assert_eq!(usize::from(b[0]), b.len() - 1);
        assert_eq!(decode(&b[1..]).unwrap(), m);
    }
    for bad in [
        &[][..],
        &[9],
        &[2, 1, 2],
        &[1, b'X', b'X', b'X', b'X', 1, 0],
        &[3, 0],
    ] {
        assert!(decode(bad).is_err(), "{bad:?}");
    }
}

fn levels(c: &mut ti82_machine::Calc) -> u8 {
    c.link().lines()
}

#[test]
fn two_calculators_over_tcp() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
    let peer = std::thread::spawn(move || {
        // B has run a while: its clock is far from A's.
        let mut b = rom::calc();
        b.run_for(3_000_000);
        let (s, _) = l.accept().unwrap();
        let t = TcpTransport::handshake(s, b.now()).unwrap();
        b.attach_link(Box::new(t), TCP_LATENCY);
        let start = Instant::now();
        let mut saw_low = false;
        while start.elapsed() < LIMIT {
            b.run_for(6_000);
            let lv = levels(&mut b);
            if !saw_low && lv & 1 == 0 {
                saw_low = true;
                let _ = done_tx.send(());
            }
            if saw_low && lv == 3 {
                return (true, true);
            }
        }
        (saw_low, false)
    });
    let mut a = rom::calc();
    let s = TcpStream::connect(addr).unwrap();
    let t = TcpTransport::handshake(s, a.now()).unwrap();
    a.attach_link(Box::new(t), TCP_LATENCY);
    a.link().set_drive(1); // pull the tip low
    let start = Instant::now();
    while done_rx.try_recv().is_err() && start.elapsed() < LIMIT {
        a.run_for(6_000);
    }
    // Leave: B must see the cable unplugged (both lines high) and keep running.
    a.detach_link();
    let (saw_low, saw_unplug) = peer.join().unwrap();
    assert!(saw_low, "B never saw A pull the tip");
    assert!(saw_unplug, "B never saw the cable unplugged");
}

#[test]
fn netlink_reconnects() {
    let probe = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = probe.local_addr().unwrap();
    drop(probe);
    let mut host = NetLink::listen(addr).unwrap();
    let mut a = rom::calc();
    let (stop_tx, stop_rx) = crossbeam_channel::bounded::<()>(1);
    let (up_tx, up_rx) = crossbeam_channel::unbounded::<()>();
    let guest = std::thread::spawn(move || {
        for _round in 0..2 {
            let mut net = NetLink::connect(addr).unwrap();
            let mut b = rom::calc();
            let start = Instant::now();
            while !net.connected() && start.elapsed() < LIMIT {
                net.poll(&mut b);
                b.run_for(6_000);
                std::thread::sleep(Duration::from_millis(2));
            }
            assert!(net.connected(), "guest could not connect");
            up_tx.send(()).unwrap();
            let start = Instant::now();
            while stop_rx.try_recv().is_err() && start.elapsed() < LIMIT {
                net.poll(&mut b);
                b.run_for(6_000);
            }
            // Dropping the calculator and its cable: the host sees it unplugged.
        }
    });
    let mut events = Vec::new();
    let start = Instant::now();
    let mut stopped = false;
    while start.elapsed() < LIMIT && events.len() < 3 {
        events.extend(host.poll(&mut a));
        if !stopped && host.connected() && up_rx.try_recv().is_ok() {
            // Run linked for a moment, then ask the guest to drop the cable (once).
            for _ in 0..20 {
                a.run_for(6_000);
            }
            stop_tx.send(()).unwrap();
            stopped = true;
        }
        a.run_for(6_000);
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = stop_tx.send(());
    guest.join().unwrap();
    assert!(events.len() >= 3, "{events:?}");
    assert!(events[0].contains("connected"), "{events:?}");
    assert!(events[1].contains("unplugged"), "{events:?}");
    assert!(events[2].contains("connected"), "{events:?}");
    assert_eq!(levels(&mut a), 3);
}
