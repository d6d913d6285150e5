//! Two linked calculators running tests/roms/link.asm: 300 bytes with the TI bit protocol,
//! on one thread and on two threads, with the bytes and their times checked.

mod common;
use common::*;
use ti82_machine::cable::{self, DEFAULT_LATENCY};
use ti82_machine::{Calc, Key, LinkLog, LoggedByte};

const COUNT: usize = 300;

fn expected() -> Vec<u8> {
    (0..COUNT).map(|i| (i * 7 + 3) as u8).collect()
}

fn pair() -> (cable::Linked, cable::Linked) {
    let mut a = calc("link");
    let mut b = calc("link");
    b.press(Key::Enter); // receiver
    a.hardware_mut().link.enable_log();
    cable::connect(a, b, DEFAULT_LATENCY)
}

fn check(a: &Calc, b: &Calc) -> Vec<LoggedByte> {
    assert_eq!(a.test_exit(), Some(0));
    assert_eq!(b.test_exit(), Some(0));
    let want = expected();
    let sum: u32 = want.iter().map(|&v| u32::from(v)).sum();
    assert_eq!(b.test_output(), &(sum as u16).to_le_bytes());
    assert_eq!(&b.ram()[0x1000..0x1000 + COUNT], &want[..]);
    let bytes = LinkLog::default().decode(a.hardware().link.log());
    let values: Vec<u8> = bytes.iter().map(|b| b.value).collect();
    assert_eq!(values, want);
    let mut prev_end = 0;
    for b in &bytes {
        assert!(b.start >= prev_end && b.end > b.start);
        let dt = b.end - b.start;
        // 8 bits of four-phase handshake through polling loops and a 96 T-state wire delay.
        assert!((2_000..12_000).contains(&dt), "byte took {dt} T-states");
        prev_end = b.end;
    }
    let total = bytes.last().unwrap().end - bytes[0].start;
    eprintln!(
        "{COUNT} bytes in {total} T-states ({:.0} T-states per byte, {:.0} bytes per emulated second)",
        total as f64 / COUNT as f64,
        COUNT as f64 * 6e6 / total as f64
    );
    bytes
}

fn one_thread() -> (cable::Linked, cable::Linked) {
    let (mut a, mut b) = pair();
    for _ in 0..200 {
        if a.test_exit().is_some() && b.test_exit().is_some() {
            break;
        }
        cable::run_pair(&mut a, &mut b, 50_000);
    }
    (a, b)
}

#[test]
fn link_300_bytes_one_thread() {
    let (a, b) = one_thread();
    check(&a, &b);
}

#[test]
fn link_300_bytes_two_threads_same_as_one() {
    let (a, b) = pair();
    let run = |mut c: cable::Linked| {
        std::thread::spawn(move || {
            for _ in 0..2_000 {
                if c.test_exit().is_some() {
                    break;
                }
                c.run_for(10_000);
            }
            c.detach_link();
            c
        })
    };
    let (ha, hb) = (run(a), run(b));
    let a = ha.join().unwrap();
    let b = hb.join().unwrap();
    let threaded = check(&a, &b);
    let (a1, b1) = one_thread();
    let single = check(&a1, &b1);
    // Conservative synchronisation: the host's scheduling changes nothing.
    assert_eq!(threaded, single);
}

#[test]
fn unplugged_peer_releases_the_wires() {
    let (mut a, mut b) = pair();
    cable::run_pair(&mut a, &mut b, 20_000);
    drop(b);
    a.run_for(200_000);
    let mut l = a.link();
    use ti82_machine::LinkEndpoint;
    // The sender is stuck waiting for an acknowledge that never comes; the peer's side of
    // both wires is released, so only its own pull shows.
    assert_eq!(l.port().peer_drive(), 0);
    let _ = l.lines();
}
