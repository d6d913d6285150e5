//! The byte transport: two transports over a direct cable (exact per-byte times), over two
//! calculators joined by the machine crate's cable, and timeouts.

mod common;
use common::*;

use machine::cable::{self, DEFAULT_LATENCY};
use machine::link::LinkPort;
use machine::LinkLog;
use tilink::{
    ByteEvent, ByteRecord, ByteTransport, Dir, DirectCable, LinkError, TimedPort, Timing, Waiting,
    Wake,
};

const COUNT: usize = 300;

fn payload() -> Vec<u8> {
    (0..COUNT).map(|i| (i * 37 + 11) as u8).collect()
}

/// A side that sends `bytes` one after another, recording each.
fn sender(
    bytes: Vec<u8>,
    out: &mut Vec<ByteRecord>,
    tx: &mut ByteTransport,
    idx: &mut usize,
    ep: &mut TimedPort,
) -> Wake {
    loop {
        if tx.is_idle() {
            match bytes.get(*idx) {
                Some(&b) => tx.send(b),
                None => return Wake::NEVER,
            }
        }
        match tx.poll(ep) {
            ByteEvent::Pending(w) => return w,
            ByteEvent::Done(r) => {
                out.push(r);
                *idx += 1;
            }
            ByteEvent::Idle => {}
            ByteEvent::Failed(e) => panic!("sender: {e}"),
        }
    }
}

fn receiver(
    n: usize,
    out: &mut Vec<ByteRecord>,
    rx: &mut ByteTransport,
    ep: &mut TimedPort,
) -> Wake {
    loop {
        if out.len() == n {
            return Wake::NEVER;
        }
        if rx.is_idle() {
            rx.receive(None);
        }
        match rx.poll(ep) {
            ByteEvent::Pending(w) => return w,
            ByteEvent::Done(r) => out.push(r),
            ByteEvent::Idle => {}
            ByteEvent::Failed(e) => panic!("receiver: {e}"),
        }
    }
}

#[test]
fn direct_cable_exact_bit_timing() {
    let timing = Timing::default(); // react 40
    let mut cable = DirectCable::new(20);
    cable.a.enable_log();
    let (mut tx, mut rx) = (ByteTransport::new(timing), ByteTransport::new(timing));
    let (mut sent, mut got, mut idx) = (Vec::new(), Vec::new(), 0);
    let data = payload();
    let end = cable.run(
        u64::MAX / 2,
        |ep| sender(data.clone(), &mut sent, &mut tx, &mut idx, ep),
        |ep| receiver(COUNT, &mut got, &mut rx, ep),
    );
    assert_eq!(sent.iter().map(|r| r.value).collect::<Vec<_>>(), data);
    assert_eq!(got.iter().map(|r| r.value).collect::<Vec<_>>(), data);
    assert!(sent.iter().all(|r| r.dir == Dir::Sent) && got.iter().all(|r| r.dir == Dir::Received));
    // One bit: pull, +20 seen, +40 ack, +20 seen, +40 release, +20 seen, +40 release, +20
    // seen = 200 T-states, and 40 more before the next pull: 240 per bit.
    for (i, (s, r)) in sent.iter().zip(&got).enumerate() {
        assert_eq!(s.end - s.start, 7 * 240 + 200, "byte {i} sender");
        assert_eq!(r.end - r.start, 7 * 240 + 180 - 20, "byte {i} receiver");
        assert_eq!(r.start, s.start + 20);
        if i > 0 {
            assert_eq!(s.start - sent[i - 1].end, 40);
        }
    }
    assert_eq!(sent[0].start, 40);
    assert!(end >= sent.last().unwrap().end);
    // The machine crate's decoder sees the same bytes on a's wires.
    let logged = LinkLog::default().decode(cable.a.log());
    assert_eq!(logged.iter().map(|b| b.value).collect::<Vec<_>>(), data);
    assert_eq!(logged[0].start, sent[0].start);
}

#[test]
fn two_calcs_over_the_machine_cable() {
    let (mut a, side_a) = link_calc(24);
    let (b, side_b) = link_calc(24);
    a.hardware_mut().link.enable_log();
    let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    {
        let sent = sent.clone();
        let data = payload();
        let mut tx = ByteTransport::new(Timing::default());
        let mut idx = 0;
        *side_a.lock().unwrap() = Some(Box::new(move |ep, _| {
            sender(
                data.clone(),
                &mut sent.lock().unwrap(),
                &mut tx,
                &mut idx,
                ep,
            )
        }));
        let got = got.clone();
        let mut rx = ByteTransport::new(Timing::default());
        *side_b.lock().unwrap() = Some(Box::new(move |ep, _| {
            receiver(COUNT, &mut got.lock().unwrap(), &mut rx, ep)
        }));
    }
    let (mut a, mut b) = cable::connect(a, b, DEFAULT_LATENCY);
    for _ in 0..100 {
        if got.lock().unwrap().len() == COUNT {
            break;
        }
        cable::run_pair(&mut a, &mut b, 50_000);
    }
    let sent = sent.lock().unwrap().clone();
    let got = got.lock().unwrap().clone();
    let data = payload();
    assert_eq!(got.iter().map(|r| r.value).collect::<Vec<_>>(), data);
    assert_eq!(sent.iter().map(|r| r.value).collect::<Vec<_>>(), data);
    // Per bit: four wire crossings of 96, four reactions of 40, polling every 24.
    for r in sent.iter().chain(&got) {
        let dt = r.end - r.start;
        assert!((4_000..6_000).contains(&dt), "byte took {dt} T-states");
    }
    let total = sent.last().unwrap().end - sent[0].start;
    eprintln!(
        "{COUNT} bytes in {total} T-states ({} per byte)",
        total / COUNT as u64
    );
    let logged = LinkLog::default().decode(a.hardware().link.log());
    assert_eq!(logged.iter().map(|b| b.value).collect::<Vec<_>>(), data);
    for (l, s) in logged.iter().zip(&sent) {
        assert_eq!(l.start, s.start);
    }
}

#[test]
fn sender_times_out_without_a_peer() {
    let mut port = LinkPort::new();
    let mut tx = ByteTransport::new(Timing::default());
    tx.send(0x55);
    let mut t = 0;
    let err = loop {
        match tx.poll(&mut TimedPort::new(&mut port, t)) {
            ByteEvent::Pending(w) => t = w.next(t, 24),
            ByteEvent::Failed(e) => break e,
            e => panic!("{e:?}"),
        }
    };
    // First bit pulled at 40; no acknowledge for 2 s.
    assert_eq!(
        err,
        LinkError::Timeout {
            what: Waiting::BitAck,
            at: 40 + 12_000_000
        }
    );
    assert_eq!(port.own_drive(), 0, "lines released after the error");
}

#[test]
fn receiver_timeout_and_abort() {
    let mut port = LinkPort::new();
    let mut rx = ByteTransport::new(Timing::default());
    rx.receive(Some(1_000));
    let mut t = 0;
    let err = loop {
        match rx.poll(&mut TimedPort::new(&mut port, t)) {
            ByteEvent::Pending(w) => t = w.next(t, 24),
            ByteEvent::Failed(e) => break e,
            e => panic!("{e:?}"),
        }
    };
    assert_eq!(
        err,
        LinkError::Timeout {
            what: Waiting::Bit,
            at: 1_000
        }
    );
    // Both lines low for 250 µs: abort.
    port.peer_change(2_000, 3);
    rx.receive(None);
    let mut t = 1_500;
    let err = loop {
        match rx.poll(&mut TimedPort::new(&mut port, t)) {
            ByteEvent::Pending(w) => t = w.next(t, 24),
            ByteEvent::Failed(e) => break e,
            e => panic!("{e:?}"),
        }
    };
    assert!(
        matches!(err, LinkError::Abort { at } if (3_500..3_530).contains(&at)),
        "{err:?}"
    );
}
