//! Two calculators on the built-in runtime joined by a cable: one `Pause`s holding a list, the
//! other `Get(`s it with the silent request, through the real bit protocol on the wires.

mod common;
use common::{commands, polling, with_computer};

use ti82_machine::cable;
use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, program_names, read_list, BasicFirmware};
use tibasic::real::Real;

const MS: u64 = 6_000;
/// Wire delay of the test cable (T-states).
const LATENCY: u64 = ti82_machine::cable::DEFAULT_LATENCY;

fn calc_with(programs: &[(&str, &str)]) -> Calc {
    let mut calc = calc_with_sources(programs).unwrap();
    calc.hardware_mut().link.enable_log();
    calc
}

fn text(calc: &Calc) -> Vec<String> {
    calc.ram()[0x8F..0x8F + 128]
        .chunks(16)
        .map(|r| tibasic::font::decode(r).trim_end().to_string())
        .collect()
}

/// Runs two linked calculators on two threads, each following its own script of
/// (emulated ms to run, key to tap afterwards).
fn two_threads(
    a: cable::Linked,
    b: cable::Linked,
    script_a: Vec<(u64, Option<Key>)>,
    script_b: Vec<(u64, Option<Key>)>,
) -> (Calc, Calc) {
    let run = |mut c: cable::Linked, script: Vec<(u64, Option<Key>)>| {
        std::thread::spawn(move || {
            for (ms, key) in script {
                c.run_for(ms * MS);
                if let Some(k) = key {
                    c.press(k);
                    c.run_for(60 * MS);
                    c.release(k);
                    c.run_for(60 * MS);
                }
            }
            c.detach_link();
            c.into_parts().0
        })
    };
    let ha = run(a, script_a);
    let hb = run(b, script_b);
    (ha.join().unwrap(), hb.join().unwrap())
}

fn start_keys(calc: &Calc, name: &str) -> Vec<(u64, Option<Key>)> {
    let names = program_names(calc.ram());
    let idx = names.iter().position(|n| n == name.as_bytes()).unwrap();
    let mut v = vec![(10, Some(Key::Prgm))];
    v.extend(std::iter::repeat_n((10, Some(Key::Down)), idx));
    v.push((10, Some(Key::Enter)));
    v.push((10, Some(Key::Enter)));
    v
}

#[test]
fn get_pulls_a_list_from_a_paused_calculator() {
    let a = calc_with(&[("HOLD", "{1,2,3}->L1\nPause\nDisp 7")]);
    let b = calc_with(&[("PULL", "Get(L1)\nDisp sum L1")]);
    let (a, b) = cable::connect(a, b, LATENCY);
    let mut sa = start_keys(&a, "HOLD");
    sa.push((2_500, Some(Key::Enter)));
    sa.push((300, None));
    let mut sb = vec![(500, None)];
    sb.extend(start_keys(&b, "PULL"));
    sb.push((2_500, None));
    let (a, b) = two_threads(a, b, sa, sb);
    let l1 = read_list(b.ram(), 1).expect("L1 arrived");
    assert_eq!(
        l1,
        vec![Real::from_i64(1), Real::from_i64(2), Real::from_i64(3)]
    );
    assert!(text(&b).iter().any(|l| l.ends_with(" 6")), "{:?}", text(&b));
    assert!(text(&a).iter().any(|l| l.ends_with(" 7")), "{:?}", text(&a));

    // The link log shows the REQ sequence of spec §1.7.6: REQ, ACK, VAR, ACK, CTS, ACK,
    // DATA, ACK.
    let packets = tilink::log::packets_from_levels(b.hardware().link.log());
    let cmds: Vec<String> = packets
        .iter()
        .map(|p| match &p.packet {
            Ok(pk) => pk.cmd.to_string(),
            Err(e) => format!("broken: {e}"),
        })
        .collect();
    assert_eq!(
        cmds,
        ["REQ", "ACK", "VAR", "ACK", "CTS", "ACK", "DATA", "ACK"],
        "{packets:?}"
    );
}

#[test]
fn get_with_nobody_answering_leaves_the_variable_unchanged() {
    let a = calc_with(&[("BUSY", "Lbl A\nGoto A")]);
    let b = calc_with(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]);
    let (a, b) = cable::connect(a, b, LATENCY);
    let mut sa = start_keys(&a, "BUSY");
    sa.push((4_000, None));
    let mut sb = start_keys(&b, "PULL");
    // Whether the busy side's holder answers the REQ before its program runs is a race of
    // the two start-ups; when it does not, B's Get( fails 2 s after A leaves the cable (4 s).
    sb.push((8_000, None));
    let (_a, b) = two_threads(a, b, sa, sb);
    assert_eq!(read_list(b.ram(), 1), Some(vec![Real::from_i64(9)]));
    assert!(text(&b).iter().any(|l| l.ends_with("9")), "{:?}", text(&b));
}

/// Starts `name` alone (no cable yet) and lets it reach its first `Pause`.
fn start_alone(calc: &mut Calc, name: &str) {
    tibasic::firmware::start_program(calc, name).unwrap();
    calc.run_for(100 * MS);
}

#[test]
fn send_pushes_a_list_to_a_receiving_computer() {
    let mut calc = calc_with(&[("PUSH", "{1,2,3}->L1\nPause\nSend(L1)\nDisp 5")]);
    start_alone(&mut calc, "PUSH");
    let mut pc = tilink::VirtualCable::attach(&mut calc, LATENCY);
    pc.port().enable_log();
    // A CBL-like receiver: accepts the RTS header, takes the DATA, ACKs the EOT.
    let mut recv = tilink::ReceiveVars::new(tilink::MID_CBL, tilink::Timing::default());
    let mut got = None;
    let mut side = polling(|ep| recv.poll(ep), &mut got);
    with_computer(&mut calc, &mut pc, &mut side, &[(Some(Key::Enter), 1_000)]);
    drop(side);
    let received = got
        .expect("the receiver finished")
        .expect("received cleanly");
    assert_eq!(received.vars.len(), 1);
    let v = &received.vars[0];
    assert_eq!(v.name.bytes(), &[0x5D, 0x00]);
    match &v.data {
        tifiles::var::VarData::List(l) => {
            let reals: Vec<Real> = l
                .iter()
                .map(|f| Real::from_bcd(f.to_bytes()).unwrap())
                .collect();
            assert_eq!(
                reals,
                vec![Real::from_i64(1), Real::from_i64(2), Real::from_i64(3)]
            );
        }
        other => panic!("not a list: {other:?}"),
    }
    // Spec 1.7.7: RTS, ACK, CTS, ACK, DATA, ACK, then our EOT and its ACK.
    assert_eq!(
        commands(&calc),
        ["RTS", "ACK", "CTS", "ACK", "DATA", "ACK", "EOT", "ACK"]
    );
    // The program went on after the transfer.
    assert!(
        text(&calc).iter().any(|l| l.ends_with(" 5")),
        "{:?}",
        text(&calc)
    );
    pc.detach(&mut calc);
}

#[test]
fn send_succeeds_when_the_peer_does_not_answer_the_eot() {
    let mut calc = calc_with(&[("PUSH", "7->A\nPause\nSend(A)\nDisp 5")]);
    start_alone(&mut calc, "PUSH");
    let mut pc = tilink::VirtualCable::attach(&mut calc, LATENCY);
    // A receiver that stops listening after the DATA (it never reads the EOT).
    let mut recv = tilink::ReceiveVars::new(tilink::MID_CBL, tilink::Timing::default());
    let mut got: Option<tifiles::var::Variable> = None;
    let mut side = |ep: &mut tilink::TimedPort| {
        if got.is_some() {
            return tilink::Wake::NEVER;
        }
        let p = recv.poll(ep);
        if let Some(v) = recv.received().vars.first() {
            got = Some(v.clone());
            recv.cancel(ep);
            return tilink::Wake::NEVER;
        }
        match p {
            tilink::Progress::Pending(w) => w,
            tilink::Progress::Done(_) => tilink::Wake::NEVER,
        }
    };
    with_computer(&mut calc, &mut pc, &mut side, &[(Some(Key::Enter), 4_000)]);
    let v = got.expect("A arrived");
    assert_eq!(v.name.bytes(), b"A");
    assert!(
        text(&calc).iter().any(|l| l.ends_with(" 5")),
        "{:?}",
        text(&calc)
    );
    let cmds = commands(&calc);
    assert_eq!(cmds[..6], ["RTS", "ACK", "CTS", "ACK", "DATA", "ACK"]);
    pc.detach(&mut calc);
}

#[test]
fn send_to_a_calculator_that_ignores_rts_is_a_transmission_error() {
    // The receiver is another TI-82 waiting at `Pause`: it answers REQ but ignores RTS.
    let a = calc_with(&[("HOLD", "Pause")]);
    let b = calc_with(&[("PUSH", "{4,5}->L1\nSend(L1)\nDisp 5")]);
    let (a, b) = cable::connect(a, b, LATENCY);
    let mut sa = start_keys(&a, "HOLD");
    sa.push((4_000, None));
    let mut sb = start_keys(&b, "PUSH");
    sb.push((4_000, None));
    let (_a, b) = two_threads(a, b, sa, sb);
    // The transfer ends with an error screen, not a hang, and Disp never ran.
    let fw = BasicFirmware::of(&b).unwrap();
    let err = fw.last_error().expect("an error");
    assert_eq!(err.kind, tibasic::value::ErrorKind::Link);
    assert_eq!(err.kind.ti_name(), "TRANSMISSION");
    assert!(!fw.program_active());
    assert!(b.lcd().to_text().contains('#'), "the error screen is shown");
    assert_eq!(commands(&b), ["RTS"]);
}

#[test]
fn send_survives_a_save_state_mid_transfer() {
    let mut calc = calc_with(&[("PUSH", "{1,2,3}->L1\nPause\nSend(L1)\nDisp 5")]);
    start_alone(&mut calc, "PUSH");
    let mut pc = tilink::VirtualCable::attach(&mut calc, LATENCY);
    let mut recv = tilink::ReceiveVars::new(tilink::MID_CBL, tilink::Timing::default());
    let mut got = None;
    let mut side = polling(|ep| recv.poll(ep), &mut got);
    // ENTER, then stop a few ms into the transfer and save; restoring the state into the
    // same calculator must carry on where it was.
    let sending = |calc: &Calc| {
        let fw = BasicFirmware::of(calc).unwrap();
        matches!(
            fw.status(),
            tibasic::interp::Status::Waiting(tibasic::interp::Wait::Send(_))
        )
    };
    calc.press(Key::Enter);
    for _ in 0..100 {
        if sending(&calc) {
            break;
        }
        let until = calc.now() + MS;
        pc.run(&mut calc, until, &mut side);
    }
    let until = calc.now() + 5 * MS;
    pc.run(&mut calc, until, &mut side);
    assert!(sending(&calc), "the transfer is in flight");
    let state = calc.state_bytes();
    calc.restore_bytes(std::path::Path::new("mid-send"), &state)
        .expect("state restores");
    calc.release(Key::Enter);
    let until = calc.now() + 1_000 * MS;
    pc.run(&mut calc, until, &mut side);
    drop(side);
    let received = got.expect("finished").expect("clean");
    assert_eq!(received.vars.len(), 1);
    assert!(
        text(&calc).iter().any(|l| l.ends_with(" 5")),
        "{:?}",
        text(&calc)
    );
    pc.detach(&mut calc);
}

/// Starts program `busy` on one calculator and, a second later (the program well under way),
/// `Get(L1)` on the other, whose L1 is {9}; A leaves the cable after 4 s. Returns both.
fn get_from_a_busy_program(busy: &str) -> (Calc, Calc) {
    let a = calc_with(&[("BUSY", busy)]);
    let b = calc_with(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]);
    let (a, b) = cable::connect(a, b, LATENCY);
    let mut sa = start_keys(&a, "BUSY");
    sa.push((4_000, None));
    let mut sb = vec![(1_000, None)];
    sb.extend(start_keys(&b, "PULL"));
    sb.push((8_000, None));
    two_threads(a, b, sa, sb)
}

/// Spec 1.7.6 ("What the other TI-82 must be doing for Get( to succeed silently"): a TI-82
/// answers REQ only from the OS's key-wait routine, never while a program computes or spins
/// in a getKey loop. So the busy side never touched the wires (not one bit of the REQ
/// acknowledged, no packet of its own in its link log), its program was still running when
/// it left the cable, and the `Get(` ended with L1 unchanged.
fn assert_busy_side_stayed_silent(a: &Calc, b: &Calc) {
    let fw = BasicFirmware::of(a).unwrap();
    assert!(
        fw.program_active() && fw.status() == tibasic::interp::Status::Running,
        "the busy program ran to the end of the test: {:?}",
        fw.status()
    );
    assert_eq!(
        a.hardware().link.own_changes(),
        0,
        "the busy side drove the link: {:?}",
        commands(a)
    );
    assert_eq!(commands(a), Vec::<String>::new());
    assert_eq!(read_list(b.ram(), 1), Some(vec![Real::from_i64(9)]));
    assert!(text(b).iter().any(|l| l.ends_with("9")), "{:?}", text(b));
}

#[test]
fn a_program_in_a_for_loop_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program("{1,2,3}->L1\nFor(I,1,300000)\nEnd");
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_program_in_nested_for_loops_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program("{1,2,3}->L1\nFor(I,1,1000)\nFor(J,1,1000)\nEnd\nEnd");
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_program_spinning_in_a_getkey_loop_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program("{1,2,3}->L1\nRepeat 0\ngetKey->K\nEnd");
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_program_in_a_while_loop_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program("{1,2,3}->L1\n0->N\nWhile N>=0\nN+1->N\nEnd");
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_program_in_an_is_loop_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program("{1,2,3}->L1\n0->N\nLbl A\nIS>(N,10^9)\nGoto A\nGoto A");
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_program_printing_in_a_loop_does_not_answer_get() {
    let (a, b) = get_from_a_busy_program(
        "{1,2,3}->L1\nClrHome\n0->N\nLbl A\nN+1->N\nDisp N\nOutput(8,1,N)\nGoto A",
    );
    assert_busy_side_stayed_silent(&a, &b);
}

#[test]
fn a_get_being_served_at_pause_finishes_when_enter_resumes_a_busy_program() {
    // A pauses holding L1; B's Get( starts (its REQ begins at about 796 ms) and A's user presses
    // ENTER while the exchange is under way. The OS's key-wait routine serves the request
    // whole before the program goes on (spec 1.7.6), so the transfer completes even though
    // the program then computes without end.
    let a = calc_with(&[("HOLD", "{1,2,3}->L1\nPause\nFor(I,1,300000)\nEnd")]);
    let b = calc_with(&[("PULL", "{9}->L1\nGet(L1)\nDisp L1(1)")]);
    let (a, b) = cable::connect(a, b, LATENCY);
    let mut sa = start_keys(&a, "HOLD");
    let ran: u64 = sa
        .iter()
        .map(|(ms, k)| ms + if k.is_some() { 120 } else { 0 })
        .sum();
    let enter_at = 810;
    sa.push((enter_at - ran, Some(Key::Enter)));
    sa.push((3_000, None));
    let mut sb = vec![(500, None)];
    sb.extend(start_keys(&b, "PULL"));
    sb.push((4_000, None));
    let (a, b) = two_threads(a, b, sa, sb);
    let packets = tilink::log::packets_from_levels(b.hardware().link.log());
    let (first, last) = (packets.first().unwrap(), packets.last().unwrap());
    // ENTER went down after the REQ began and was seen (within one 10 ms key scan) before
    // the last packet.
    assert!(
        first.start < enter_at * MS && (enter_at + 10) * MS < last.start,
        "ENTER at {enter_at} ms is not inside the exchange: {packets:?}"
    );
    assert_eq!(
        commands(&b),
        ["REQ", "ACK", "VAR", "ACK", "CTS", "ACK", "DATA", "ACK"]
    );
    assert_eq!(
        read_list(b.ram(), 1),
        Some(vec![
            Real::from_i64(1),
            Real::from_i64(2),
            Real::from_i64(3)
        ])
    );
    let fw = BasicFirmware::of(&a).unwrap();
    assert!(
        fw.program_active() && fw.status() == tibasic::interp::Status::Running,
        "A left Pause and runs its loop: {:?}",
        fw.status()
    );
}

/// `PrintScreen` pushes the display to a receiver (spec 1.7.5: VAR of type 0Eh with 768
/// bytes and a name of zeros, ACK, CTS, ACK, DATA, ACK; no EOT); with nobody to take it the
/// program stops with the link error.
#[test]
fn print_screen_pushes_the_display() {
    let src = "ClrHome\nOutput(1,1,\"PRINT ME\")\nPause\nPrintScreen\nDisp 5";
    let mut calc = calc_with(&[("SHOT", src)]);
    start_alone(&mut calc, "SHOT");
    let shown = calc.lcd();
    let mut pc = tilink::VirtualCable::attach(&mut calc, LATENCY);
    pc.port().enable_log();
    let mut recv = tilink::ReceiveVars::new(tilink::MID_CBL, tilink::Timing::default());
    let mut got = None;
    let mut side = polling(|ep| recv.poll(ep), &mut got);
    with_computer(&mut calc, &mut pc, &mut side, &[(Some(Key::Enter), 1_500)]);
    pc.detach(&mut calc);
    // The receiver waits for a next header or EOT that never comes: its variables so far.
    drop(side);
    let vars = got
        .map(|r| r.map(|r| r.vars).unwrap_or_default())
        .unwrap_or_else(|| recv.received().vars.clone());
    assert_eq!(vars.len(), 1);
    let v = &vars[0];
    assert_eq!(v.var_type(), tifiles::var::VarType::Screen);
    let bits = v.data.to_bytes();
    assert_eq!(bits.len(), 768);
    // The bits are the glass as it was (12 bytes a row, leftmost pixel in bit 7, 1 dark),
    // the run indicator's corner left out of the comparison.
    for y in 0..64 {
        for x in 0..88 {
            let dark = bits[y * 12 + x / 8] & (0x80 >> (x % 8)) != 0;
            assert_eq!(dark, shown.pixel(x, y), "pixel {x},{y}");
        }
    }
    assert_eq!(commands(&calc), ["VAR", "ACK", "CTS", "ACK", "DATA", "ACK"]);
    assert!(
        text(&calc).iter().any(|l| l.ends_with('5')),
        "{:?}",
        text(&calc)
    );

    // Nobody on the cable: ERR:TRANSMISSION.
    let mut calc = calc_with(&[("SHOT", "PrintScreen\nDisp 5")]);
    start_alone(&mut calc, "SHOT");
    calc.run_for(3_000 * MS);
    let screen = calc.lcd();
    let g = tibasic::glass::read(|x, y| screen.pixel(x, y));
    assert_eq!(g[0].trim_end(), "ERR:TRANSMISSION", "{g:?}");
}
