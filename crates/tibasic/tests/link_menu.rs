//! LINK SEND and RECEIVE from the keypad (2nd LINK) on the built-in runtime: two calculators
//! on a wire-exact cable, and a computer on the other end. The packet flow is spec 1.7.1-1.7.4
//! (`../shared/spec/ti82-software.md`); the screens' texts are in `docs/calculator.md`.

mod common;
use common::*;

use ti82_machine::cable::{self, Linked};
use ti82_machine::{Calc, Key};
use tibasic::firmware::{calc_with_sources, program_names};
use tifiles::var::{VarName, VarType};

const MS: u64 = 6_000;

fn calc_with(programs: &[(&str, &str)]) -> Calc {
    let mut calc = calc_with_sources(programs).unwrap();
    calc.hardware_mut().link.enable_log();
    calc
}

fn program(calc: &Calc, name: &str) -> Option<Vec<u8>> {
    let name = VarName::program(name).unwrap();
    tifiles::vat::read(calc.ram(), VarType::Program, &name)
        .unwrap()
        .map(|v| v.data.to_bytes())
}

/// Two calculators on one cable, run together on this thread.
struct Pair {
    a: Linked,
    b: Linked,
}

impl Pair {
    fn new(a: Calc, b: Calc) -> Pair {
        let (a, b) = cable::connect(a, b, cable::DEFAULT_LATENCY);
        let mut p = Pair { a, b };
        p.run(200);
        p
    }

    fn run(&mut self, ms: u64) {
        cable::run_pair(&mut self.a, &mut self.b, ms * MS);
    }

    /// Taps `keys` on A (`on_a`) or B, 60 ms down and 60 ms up each, as a quick human.
    fn keys(&mut self, on_a: bool, keys: &[Key]) {
        for &k in keys {
            let c = if on_a { &mut self.a } else { &mut self.b };
            c.press(k);
            self.run(60);
            let c = if on_a { &mut self.a } else { &mut self.b };
            c.release(k);
            self.run(60);
        }
    }
}

const LINK: [Key; 2] = [Key::Second, Key::XTTheta];

/// A: 2nd LINK, → RECEIVE, 1:Receive. B: 2nd LINK, 2:Prgm…, the `nth` program selected,
/// → TRANSMIT, 1:Transmit.
fn receive_then_send_program(p: &mut Pair, nth: usize) {
    p.keys(true, &LINK);
    p.keys(true, &[Key::Right, Key::K1]);
    p.keys(false, &LINK);
    p.keys(false, &[Key::K2]);
    p.keys(false, &vec![Key::Down; nth]);
    p.keys(false, &[Key::Enter, Key::Right, Key::K1]);
}

/// A (holding GAME) in RECEIVE, B sending its own GAME: A's DuplicateName question is up.
/// Returns the pair and the bytes of B's GAME.
fn at_the_duplicate_question() -> (Pair, Vec<u8>) {
    let a = calc_with(&[("GAME", "Disp 1")]);
    let b = calc_with(&[("GAME", "Disp 2")]);
    let new = program(&b, "GAME").unwrap();
    let mut p = Pair::new(a, b);
    receive_then_send_program(&mut p, 0);
    p.run(1_000);
    (p, new)
}

#[test]
fn the_link_menus_and_a_program_sent_between_two_calculators() {
    let src = "Disp \"HELLO\"\nFor(I,1,3)\nDisp I\nEnd";
    let a = calc_with(&[]);
    let b = calc_with(&[("ALPHA", "Disp 1"), ("GREET", src), ("ZED", "Disp 3")]);
    let sent = program(&b, "GREET").unwrap();
    let mut p = Pair::new(a, b);

    // 2nd LINK: the SEND menu (its items numbered 1-9, 0), → the RECEIVE menu.
    p.keys(true, &LINK);
    let g = glass(&p.a);
    assert_eq!(g[0], "SEND RECEIVE", "{g:?}");
    assert_eq!(
        &g[1..8],
        [
            "1:All…",
            "2:Prgm…",
            "3:List…",
            "4:GDB…",
            "5:Pic…",
            "6:Matrix…",
            "7:Real…"
        ]
    );
    p.keys(true, &[Key::Up]);
    let g = glass(&p.a);
    assert_eq!(
        g[7], "0:Backup…",
        "the menu scrolls to its last item: {g:?}"
    );
    p.keys(true, &[Key::Right]);
    assert_eq!(glass(&p.a)[..2], ["SEND RECEIVE", "1:Receive"]);
    p.keys(true, &[Key::Enter]);
    assert_eq!(glass(&p.a)[0], "Waiting…");

    // B: 2:Prgm… lists the programs, none selected; ENTER marks the one under the cursor.
    p.keys(false, &LINK);
    p.keys(false, &[Key::K2]);
    let g = glass(&p.b);
    assert_eq!(g[0], "SELECT TRANSMIT", "{g:?}");
    assert_eq!(g[1], "➤ ALPHA     PRGM", "{g:?}");
    assert_eq!(g[2], "  GREET     PRGM", "{g:?}");
    p.keys(false, &[Key::Down, Key::Enter]);
    assert_eq!(glass(&p.b)[2], "➤▪GREET     PRGM");
    p.keys(false, &[Key::Right]);
    assert_eq!(glass(&p.b)[..2], ["SELECT TRANSMIT", "1:Transmit"]);
    p.keys(false, &[Key::K1]);
    p.run(2_000);

    // Both screens list the variable and end in Done.
    assert_eq!(glass(&p.b)[..2], ["GREET       PRGM", "Done"]);
    assert_eq!(glass(&p.a)[..2], ["GREET       PRGM", "Done"]);
    assert_eq!(program(&p.a, "GREET"), Some(sent), "byte-exact");
    assert_eq!(program_names(p.a.ram()), [b"GREET".to_vec()]);
    // Spec 1.7.3: VAR, ACK, CTS, ACK, DATA, ACK, EOT, ACK on both wires.
    let want = ["VAR", "ACK", "CTS", "ACK", "DATA", "ACK", "EOT", "ACK"];
    assert_eq!(commands(&p.a), want);
    assert_eq!(commands(&p.b), want);

    // CLEAR leaves for the home screen, where the received program runs.
    p.keys(true, &[Key::Clear]);
    tibasic::firmware::start_program(&mut p.a, "GREET").unwrap();
    p.run(500);
    let home = glass(&p.a);
    assert!(home.iter().any(|l| l == "HELLO"), "{home:?}");
}

#[test]
fn duplicate_names_rename_overwrite_omit_and_quit() {
    // The name is taken: A asks, and B waits for the answer as long as it takes.
    let (mut p, new) = at_the_duplicate_question();
    let old = tibasic::firmware::program_var("GAME", tifiles::tokenize_source("Disp 1").unwrap())
        .unwrap()
        .data
        .to_bytes();
    assert_eq!(program(&p.a, "GAME").as_ref(), Some(&old));
    let g = glass(&p.a);
    assert_eq!(
        &g[..5],
        [
            "DuplicateName",
            "1:Rename",
            "2:Overwrite",
            "3:Omit",
            "4:Quit"
        ]
    );
    assert_eq!(g[7], "GAME        PRGM");
    p.run(5_000);
    // 1:Rename, then a name typed ALPHA-locked: N E W.
    p.keys(true, &[Key::K1]);
    assert_eq!(glass(&p.a)[1], "Name=Ⓐ");
    p.keys(true, &[Key::Log, Key::Sin, Key::Sub]);
    assert_eq!(glass(&p.a)[1], "Name=NEWⒶ");
    p.keys(true, &[Key::Enter]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[..2], ["NEW         PRGM", "Done"]);
    assert_eq!(glass(&p.b)[..2], ["GAME        PRGM", "Done"]);
    assert_eq!(program(&p.a, "NEW").as_ref(), Some(&new));
    assert_eq!(program(&p.a, "GAME").as_ref(), Some(&old));

    // 2:Overwrite replaces A's GAME.
    p.keys(true, &[Key::Clear]);
    p.keys(false, &[Key::Clear]);
    receive_then_send_program(&mut p, 0);
    p.run(1_000);
    p.keys(true, &[Key::K2]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[..2], ["GAME        PRGM", "Done"]);
    assert_eq!(program(&p.a, "GAME").as_ref(), Some(&new));

    // 3:Omit skips it (SKIP 02): nothing changes, both sides finish.
    let b_game = p.b.ram().to_vec();
    tifiles::vat::store(
        p.a.ram_mut(),
        &tibasic::firmware::program_var("GAME", old.clone()[2..].to_vec()).unwrap(),
    )
    .unwrap();
    p.keys(true, &[Key::Clear]);
    p.keys(false, &[Key::Clear]);
    receive_then_send_program(&mut p, 0);
    p.run(1_000);
    p.keys(true, &[Key::K3]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[0], "Done");
    assert_eq!(glass(&p.b)[..2], ["GAME        PRGM", "Done"]);
    assert_eq!(program(&p.a, "GAME").as_ref(), Some(&old));
    assert_eq!(p.b.ram(), &b_game[..], "the sender's memory is untouched");
    let skips = commands(&p.a).iter().filter(|c| *c == "SKIP/EXIT").count();
    assert_eq!(skips, 1);

    // 4:Quit ends the transfer (EXIT 01).
    p.keys(true, &[Key::Clear]);
    p.keys(false, &[Key::Clear]);
    receive_then_send_program(&mut p, 0);
    p.run(1_000);
    p.keys(true, &[Key::K4]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[0], "Done");
    assert_eq!(program(&p.a, "GAME").as_ref(), Some(&old));
    let skips = commands(&p.a).iter().filter(|c| *c == "SKIP/EXIT").count();
    assert_eq!(skips, 2);
}

#[test]
fn transmitting_to_a_calculator_that_is_not_receiving_fails() {
    let a = calc_with(&[]);
    let b = calc_with(&[("GAME", "Disp 2")]);
    let mut p = Pair::new(a, b);
    // A stays on its home screen (it answers silent requests only, spec 1.7.1).
    p.keys(false, &LINK);
    p.keys(false, &[Key::K2, Key::Enter, Key::Right, Key::K1]);
    // The VAR goes out bit by bit (a calculator's link routine takes the bytes), but no ACK
    // comes: after the reply timeout (2 s) the sender gives up.
    p.run(1_500);
    assert_eq!(glass(&p.b)[0], "Transmitting…");
    p.run(1_500);
    assert_eq!(commands(&p.b), ["VAR"]);
    assert_eq!(glass(&p.b)[..2], ["ERR:TRANSMISSION", "1:Quit"]);
    assert!(program_names(p.a.ram()).is_empty());
    // 1:Quit goes back to the LINK menu.
    p.keys(false, &[Key::K1]);
    assert_eq!(glass(&p.b)[0], "SEND RECEIVE");
}

#[test]
fn on_breaks_a_calculator_waiting_in_receive() {
    let a = calc_with(&[]);
    let b = calc_with(&[]);
    let mut p = Pair::new(a, b);
    p.keys(true, &LINK);
    p.keys(true, &[Key::Right, Key::K1]);
    p.run(5_000);
    assert_eq!(glass(&p.a)[0], "Waiting…");
    p.a.set_on(true);
    p.run(60);
    p.a.set_on(false);
    p.run(60);
    assert_eq!(glass(&p.a)[..2], ["ERR:TRANSMISSION", "1:Quit"]);
    p.keys(true, &[Key::Clear]);
    p.keys(true, &[Key::K2, Key::Add, Key::K2, Key::Enter]);
    assert!(
        glass(&p.a).iter().any(|l| l.ends_with('4')),
        "{:?}",
        glass(&p.a)
    );
}

/// A computer on the calculator's cable for `keys` (tapped first) and `ms` more.
fn computer_session(
    calc: &mut Calc,
    side: &mut dyn FnMut(&mut tilink::TimedPort) -> tilink::Wake,
    keys: &[Key],
    ms: u64,
) {
    let mut pc = tilink::VirtualCable::attach(calc, cable::DEFAULT_LATENCY);
    let mut script: Vec<(Option<Key>, u64)> = keys.iter().map(|&k| (Some(k), 0)).collect();
    script.push((None, ms));
    with_computer(calc, &mut pc, side, &script);
    pc.detach(calc);
}

#[test]
fn a_computer_sends_into_receive_and_takes_what_the_calculator_sends() {
    // Computer → calculator in RECEIVE (spec 1.7.1): a program and a list.
    let mut calc = calc_with(&[]);
    calc.run_for(200 * MS);
    let prog =
        tibasic::firmware::program_var("FROMPC", tifiles::tokenize_source("Disp 42").unwrap())
            .unwrap();
    let list = tifiles::var::Variable {
        name: VarName::list(2).unwrap(),
        data: tifiles::var::VarData::List(
            [1, 2]
                .iter()
                .map(|&i| {
                    tifiles::float::TiFloat::from_bytes(tibasic::real::Real::from_i64(i).to_bcd())
                })
                .collect(),
        ),
    };
    let mut send = tilink::SendVars::new(
        tilink::MID_COMPUTER,
        tilink::Timing::default(),
        &[prog.clone(), list.clone()],
    );
    let mut report = None;
    // The computer starts once the calculator waits (the user chose RECEIVE first: a VAR sent
    // to a calculator on its home screen goes unanswered).
    let start_at = calc.now() + 1_000 * MS;
    let mut side = |ep: &mut tilink::TimedPort| {
        if ep_now(ep) < start_at {
            return tilink::Wake::at(start_at);
        }
        match send.poll(ep) {
            tilink::Progress::Pending(w) => w,
            tilink::Progress::Done(r) => {
                report.get_or_insert(r);
                tilink::Wake::NEVER
            }
        }
    };
    computer_session(
        &mut calc,
        &mut side,
        &[Key::Second, Key::XTTheta, Key::Right, Key::K1],
        3_000,
    );
    report.expect("sent").expect("sent cleanly");
    assert_eq!(
        glass(&calc)[..3],
        ["FROMPC      PRGM", "L2          LIST", "Done"]
    );
    assert_eq!(program(&calc, "FROMPC"), Some(prog.data.to_bytes()));
    let got = tifiles::vat::read(calc.ram(), VarType::List, &list.name).unwrap();
    assert_eq!(got, Some(list));

    // Calculator → computer (spec 1.7.2): LINK SEND, 1:All…, select both, TRANSMIT.
    let mut recv = tilink::ReceiveVars::new(tilink::MID_COMPUTER, tilink::Timing::default());
    let mut got = None;
    let mut side = polling(|ep| recv.poll(ep), &mut got);
    let keys = [
        Key::Clear,
        Key::Second,
        Key::XTTheta,
        Key::K1,
        Key::Enter,
        Key::Down,
        Key::Enter,
        Key::Right,
        Key::Enter,
    ];
    computer_session(&mut calc, &mut side, &keys, 3_000);
    drop(side);
    let got = got.expect("received").expect("cleanly");
    let names: Vec<String> = got.vars.iter().map(|v| v.display_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(got.vars.contains(&prog));
    assert_eq!(glass(&calc).last().map(String::as_str), Some(""));
    assert!(
        glass(&calc).iter().any(|l| l == "Done"),
        "{:?}",
        glass(&calc)
    );
}

fn ep_now(ep: &mut tilink::TimedPort) -> u64 {
    use ti82_machine::link::LinkEndpoint;
    ep.now()
}

#[test]
fn a_backup_replaces_the_receiving_calculators_memory_after_its_warning() {
    let a = calc_with(&[("OLD", "Disp 1")]);
    let b = calc_with(&[("MANY", "Disp 2"), ("MORE", "Disp 3")]);
    let mut p = Pair::new(a, b);
    p.keys(true, &LINK);
    p.keys(true, &[Key::Right, Key::K1]);
    // 0:Backup… lists the backup, already selected.
    p.keys(false, &LINK);
    p.keys(false, &[Key::K0]);
    assert_eq!(glass(&p.b)[1], "➤▪Backup  BACKUP");
    p.keys(false, &[Key::Right, Key::Enter]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[..3], ["WARNING-Backup", "1:Continue", "2:Quit"]);
    p.keys(true, &[Key::K1]);
    p.run(3_000);
    assert_eq!(glass(&p.a)[..2], ["Backup    BACKUP", "Done"]);
    assert_eq!(glass(&p.b)[..2], ["Backup    BACKUP", "Done"]);
    assert_eq!(
        program_names(p.a.ram()),
        [b"MANY".to_vec(), b"MORE".to_vec()]
    );
    // Spec 1.7.4: VAR, ACK, CTS, ACK, three DATA each ACKed, no EOT.
    assert_eq!(
        commands(&p.b),
        ["VAR", "ACK", "CTS", "ACK", "DATA", "ACK", "DATA", "ACK", "DATA", "ACK"]
    );
    // The received programs run.
    p.keys(true, &[Key::Clear]);
    tibasic::firmware::start_program(&mut p.a, "MORE").unwrap();
    p.run(300);
    assert!(
        glass(&p.a).iter().any(|l| l.ends_with('3')),
        "{:?}",
        glass(&p.a)
    );
}

#[test]
fn an_arriving_variable_that_does_not_fit_is_omitted_or_quits() {
    // A's memory is nearly full: three programs of 8 000 bytes in its 28 KB.
    let fill = "1\n".repeat(4_000);
    let a = calc_with(&[("F1", &fill), ("F2", &fill), ("F3", &fill)]);
    let big: String = format!("Disp \"{}\"\n", "X".repeat(60));
    let b = calc_with(&[("BIG", &big.repeat(100))]);
    let mut p = Pair::new(a, b);
    let free = tifiles::vat::Pointers::read(p.a.ram()).unwrap().free();
    let size = program(&p.b, "BIG").unwrap().len();
    assert!(
        free < size,
        "the test needs A too full for BIG: {free} free, {size} needed"
    );
    receive_then_send_program(&mut p, 0);
    p.run(1_000);
    let g = glass(&p.a);
    assert_eq!(&g[..3], ["Memory Full", "1:Omit", "2:Quit"], "{g:?}");
    p.keys(true, &[Key::K1]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[0], "Done");
    assert_eq!(program(&p.a, "BIG"), None);
}

/// A variable that takes exactly the free memory (its data and its VAT entry, spec 7.3: a
/// program's entry is 4 bytes and its name) is taken, with no question.
#[test]
fn a_variable_that_just_fits_is_taken() {
    let big: String = format!("Disp \"{}\"\n", "X".repeat(60));
    let b = calc_with(&[("BIG", &big.repeat(100))]);
    let size = program(&b, "BIG").unwrap().len();
    // A filler program F of n tokens takes n + 2 bytes of data and a 5-byte entry; BIG will
    // take its data and a 7-byte entry: leave exactly that free.
    let mut a = calc_with(&[]);
    let free = tifiles::vat::Pointers::read(a.ram()).unwrap().free();
    let n = free - (size + 7) - (2 + 5);
    let filler = tibasic::firmware::program_var("F", vec![0x31; n]).unwrap();
    tifiles::vat::store(a.ram_mut(), &filler).unwrap();
    assert_eq!(
        tifiles::vat::Pointers::read(a.ram()).unwrap().free(),
        size + 7
    );
    let mut p = Pair::new(a, b);
    receive_then_send_program(&mut p, 0);
    // (6 KB at the link's pace takes a few seconds.)
    p.run(10_000);
    assert_eq!(
        glass(&p.a)[..2],
        ["BIG         PRGM", "Done"],
        "{:?}",
        glass(&p.a)
    );
    assert_eq!(program(&p.a, "BIG").map(|t| t.len()), Some(size));
    assert_eq!(tifiles::vat::Pointers::read(p.a.ram()).unwrap().free(), 0);
}

#[test]
fn a_save_state_taken_at_the_duplicate_question_resumes_it() {
    let (p, new) = at_the_duplicate_question();
    assert_eq!(glass(&p.a)[0], "DuplicateName");
    // Both calculators saved and restored into fresh ones, mid-transfer.
    let (sa, sb) = (p.a.state_bytes(), p.b.state_bytes());
    let (mut a2, mut b2) = (calc_with(&[]), calc_with(&[]));
    a2.restore_bytes(std::path::Path::new("a.state"), &sa)
        .unwrap();
    b2.restore_bytes(std::path::Path::new("b.state"), &sb)
        .unwrap();
    drop(p);
    let mut p = Pair::new(a2, b2);
    assert_eq!(glass(&p.a)[0], "DuplicateName");
    p.keys(true, &[Key::Down, Key::Enter]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[..2], ["GAME        PRGM", "Done"]);
    assert_eq!(program(&p.a, "GAME"), Some(new));
}

/// A new name from Rename is a program name (spec §3.9: letters, digits and θ, a letter or θ
/// first): ALPHA's space, `"`, `:` and `?` type nothing there, as in PRGM NEW.
#[test]
fn rename_types_only_what_a_program_name_may_hold() {
    let (mut p, new) = at_the_duplicate_question();
    p.keys(true, &[Key::K1]);
    // N, then ALPHA's space, ", : and ?, then ALPHA off: 7.
    p.keys(true, &[Key::Log, Key::K0, Key::Add, Key::Dot, Key::Neg]);
    p.keys(true, &[Key::Alpha, Key::K7]);
    assert_eq!(glass(&p.a)[1], "Name=N7█");
    p.keys(true, &[Key::Enter]);
    p.run(1_000);
    assert_eq!(glass(&p.a)[..2], ["N7          PRGM", "Done"]);
    assert_eq!(program(&p.a, "N7").as_ref(), Some(&new));
}
