//! Save states: a requester and a holder saved and restored at every poll of a transfer
//! (mid-bit included) finish exactly as an uninterrupted pair does.

mod common;
use common::*;

use tifiles::var::{VarName, VarType};
use tilink::seq::{HolderPoll, Progress};
use tilink::state::{StateReader, StateWriter};
use tilink::{DirectCable, Holder, LinkError, Requester, Timing, Wake, MID_TI82};

fn run(reload: bool, ask: u8) -> (Result<tifiles::Variable, LinkError>, u64, usize) {
    let mut cable = DirectCable::new(30);
    let mut req = Requester::new(
        MID_TI82,
        Timing::default(),
        VarType::List,
        VarName::list(ask).unwrap(),
    );
    let mut holder = Holder::new(MID_TI82, Timing::default());
    let mut vars = vec![list(1, &[3, 1, 4, 1, 5, 9, 2, 6])];
    let (mut out, mut done_at, mut reloads) = (None, 0, 0);
    cable.run(
        u64::MAX / 2,
        |ep| {
            if reload {
                let mut w = StateWriter::default();
                req.save(&mut w);
                let mut r = StateReader::new(&w.0);
                req = Requester::load(&mut r).unwrap();
                r.done().unwrap();
                reloads += 1;
            }
            match req.poll(ep) {
                Progress::Pending(w) => w,
                Progress::Done(r) => {
                    if out.is_none() {
                        out = Some(r);
                        done_at = ep.now;
                    }
                    Wake::NEVER
                }
            }
        },
        |ep| {
            if reload {
                let mut w = StateWriter::default();
                holder.save(&mut w);
                let mut r = StateReader::new(&w.0);
                holder = Holder::load(&mut r).unwrap();
                r.done().unwrap();
            }
            match holder.poll(ep, &mut vars) {
                HolderPoll::Pending(w) => w,
                HolderPoll::Event(_) => Wake::at(ep.now + 1),
            }
        },
    );
    (out.unwrap(), done_at, reloads)
}

#[test]
fn save_and_restore_at_every_poll() {
    for ask in [1, 2] {
        let (plain, t_plain, _) = run(false, ask);
        let (reloaded, t_reloaded, n) = run(true, ask);
        assert!(n > 500, "{n} reloads");
        assert_eq!(plain, reloaded);
        assert_eq!(t_plain, t_reloaded);
    }
}

#[test]
fn corrupt_states_are_errors() {
    let req = Requester::new(
        MID_TI82,
        Timing::default(),
        VarType::List,
        VarName::list(1).unwrap(),
    );
    let mut w = StateWriter::default();
    req.save(&mut w);
    // Every truncation and every single-byte change either loads or fails cleanly.
    for n in 0..w.0.len() {
        let _ = Requester::load(&mut StateReader::new(&w.0[..n]));
    }
    for i in 0..w.0.len() {
        let mut b = w.0.clone();
        b[i] ^= 0xFF;
        let _ = Requester::load(&mut StateReader::new(&b));
        let _ = Holder::load(&mut StateReader::new(&b));
    }
}

/// A `Send(` push (RTS, optional EOT ACK) to a receiver, the sender saved and restored at
/// every poll when `reload`.
fn run_send(reload: bool) -> (Result<tilink::SendReport, LinkError>, u64, usize, usize) {
    let mut cable = DirectCable::new(30);
    let vars = vec![list(1, &[3, 1, 4, 1, 5, 9, 2, 6])];
    let mut send = tilink::SendVars::new(MID_TI82, Timing::default(), &vars)
        .with_rts()
        .eot_ack_optional();
    let mut recv = tilink::ReceiveVars::new(tilink::MID_CBL, Timing::default());
    let (mut out, mut done_at, mut reloads, mut got) = (None, 0, 0, 0);
    cable.run(
        u64::MAX / 2,
        |ep| {
            if reload {
                let mut w = StateWriter::default();
                send.save(&mut w);
                let mut r = StateReader::new(&w.0);
                send = tilink::SendVars::load(&mut r).unwrap();
                r.done().unwrap();
                reloads += 1;
            }
            match send.poll(ep) {
                Progress::Pending(w) => w,
                Progress::Done(r) => {
                    if out.is_none() {
                        out = Some(r);
                        done_at = ep.now;
                    }
                    Wake::NEVER
                }
            }
        },
        |ep| match recv.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                got = r.map(|r| r.vars.len()).unwrap_or(0);
                Wake::NEVER
            }
        },
    );
    (out.unwrap(), done_at, reloads, got)
}

#[test]
fn a_send_saved_and_restored_at_every_poll_finishes_alike() {
    let (plain, t_plain, _, got_plain) = run_send(false);
    let (reloaded, t_reloaded, n, got_reloaded) = run_send(true);
    assert!(n > 300, "{n} reloads");
    assert_eq!(plain, reloaded);
    assert_eq!(plain.as_ref().map(|r| r.sent.clone()), Ok(vec![0]));
    assert_eq!(t_plain, t_reloaded);
    assert_eq!((got_plain, got_reloaded), (1, 1));
}

#[test]
fn corrupt_sender_states_are_errors() {
    let vars = vec![list(2, &[1, 2])];
    let send = tilink::SendVars::new(MID_TI82, Timing::default(), &vars).with_rts();
    let mut w = StateWriter::default();
    send.save(&mut w);
    for n in 0..w.0.len() {
        assert!(tilink::SendVars::load(&mut StateReader::new(&w.0[..n])).is_err());
    }
    for i in 0..w.0.len() {
        let mut b = w.0.clone();
        b[i] ^= 0xFF;
        // Loads or fails cleanly; a state that loads can be polled without panicking.
        if let Ok(mut s) = tilink::SendVars::load(&mut StateReader::new(&b)) {
            let mut port = machine::link::LinkPort::new();
            let _ = s.poll(&mut tilink::TimedPort::new(&mut port, 0));
        }
    }
}

/// Two variables sent to an asking receiver (a calculator in LINK RECEIVE) that answers the
/// first header with SKIP and the second with CTS after `think` T-states of "user" time; the
/// receiver saved and restored at every poll when `reload`.
fn run_asking(reload: bool, think: u64) -> (tilink::Received, tilink::SendReport, u64, usize) {
    let mut cable = DirectCable::new(30);
    let vars = vec![list(1, &[3, 1, 4]), list(2, &[2, 7, 1, 8])];
    let mut send = tilink::SendVars::new(MID_TI82, Timing::default(), &vars);
    let mut recv = tilink::ReceiveVars::new(MID_TI82, Timing::default()).asking();
    let (mut got, mut report, mut done_at, mut reloads) = (None, None, 0, 0);
    let mut asked_at: Option<u64> = None;
    let mut answers = vec![tilink::Decision::Accept, tilink::Decision::Skip];
    cable.run(
        u64::MAX / 2,
        |ep| match send.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                report.get_or_insert(r);
                Wake::NEVER
            }
        },
        |ep| {
            if reload {
                let mut w = StateWriter::default();
                recv.save(&mut w);
                let mut r = StateReader::new(&w.0);
                recv = tilink::ReceiveVars::load(&mut r).unwrap();
                r.done().unwrap();
                reloads += 1;
            }
            // The question waits with both lines released until the user answers.
            if recv.question().is_some() {
                let since = *asked_at.get_or_insert(ep.now);
                if ep.now < since + think {
                    return Wake::at(since + think);
                }
                asked_at = None;
                recv.decide(answers.pop().unwrap());
            }
            match recv.poll(ep) {
                Progress::Pending(_) if recv.question().is_some() => Wake::at(ep.now + 1),
                Progress::Pending(w) => w,
                Progress::Done(r) => {
                    if got.is_none() {
                        got = Some(r);
                        done_at = ep.now;
                    }
                    Wake::NEVER
                }
            }
        },
    );
    let report = report.unwrap().unwrap();
    (got.unwrap().unwrap(), report, done_at, reloads)
}

#[test]
fn an_asking_receiver_waits_for_each_answer_and_survives_save_states() {
    // Spec 1.7.1 step 3: the sender waits for the answer however long the user takes (here
    // 30 s per question, far past every reply timeout).
    let think = 30 * 6_000_000;
    let (plain, report, t_plain, _) = run_asking(false, think);
    assert_eq!(plain.skipped.len(), 1);
    assert_eq!(plain.vars.len(), 1);
    assert_eq!(plain.vars[0], list(2, &[2, 7, 1, 8]));
    assert_eq!((report.sent, report.skipped), (vec![1], vec![0]));
    assert!(t_plain > 2 * think);
    let (reloaded, _, t_reloaded, n) = run_asking(true, think);
    assert!(n > 300, "{n} reloads");
    assert_eq!(plain, reloaded);
    assert_eq!(t_plain, t_reloaded);
}

#[test]
fn corrupt_receiver_states_are_errors() {
    let recv = tilink::ReceiveVars::new(MID_TI82, Timing::default()).asking();
    let mut w = StateWriter::default();
    recv.save(&mut w);
    for n in 0..w.0.len() {
        let _ = tilink::ReceiveVars::load(&mut StateReader::new(&w.0[..n]));
    }
    for i in 0..w.0.len() {
        let mut b = w.0.clone();
        b[i] ^= 0xFF;
        let _ = tilink::ReceiveVars::load(&mut StateReader::new(&b));
    }
}
