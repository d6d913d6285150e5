//! The link layers against Z80 programs that bit-bang the link port themselves (classic port
//! values C0h/D4h/E8h, as the ROM does), with the real bit timing on the emulated wires:
//!
//! - the machine crate's `tests/roms/link.asm`: a virtual computer on the calculator's cable
//!   sends it 300 bytes, then receives 300;
//! - `tests/roms/linkproto.asm`: the receiving side of LINK RECEIVE and the answering side of a
//!   silent REQ written in Z80 code (spec 1.7.1, 1.7.6). `SendVars` sends it a program and a
//!   list, a `Requester` pulls them back, the Z80's RAM and the calculator's own link log are
//!   checked; a computer that vanishes mid-transfer leaves it timed out and ready again; a
//!   packet with a bad checksum is answered ERR.

use machine::cable::DEFAULT_LATENCY;
use machine::{Calc, Config, Key, LinkLog, RomFirmware, RomImage};
use tifiles::{TiFloat, VarData, VarName, VarType, Variable};
use tilink::log::{format_log, packets_from_levels};
use tilink::seq::Outgoing;
use tilink::transport::T_PER_SECOND;
use tilink::{
    ByteEvent, ByteRecord, ByteTransport, Command, LinkError, Packet, Progress, Requester,
    SendVars, TimedPort, Timing, VirtualCable, Wake, MID_COMPUTER, MID_TI82,
};

const COUNT: usize = 300;

fn z80_calc(receiver: bool) -> Calc {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../machine/tests/roms/link.bin"
    );
    let prog = std::fs::read(path).expect("the machine crate's link test program");
    let config = Config {
        test_ports: true,
        ..Config::default()
    };
    let mut c = Calc::with_config(RomFirmware::new(RomImage::from_program(&prog)), config);
    if receiver {
        c.press(Key::Enter);
    }
    c
}

fn expected() -> Vec<u8> {
    (0..COUNT).map(|i| (i * 7 + 3) as u8).collect()
}

#[test]
fn virtual_computer_sends_to_a_z80_receiver() {
    let mut calc = z80_calc(true);
    calc.run_for(10_000); // let it read ENTER and start listening
    calc.hardware_mut().link.enable_log();
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    let data = expected();
    let mut tx = ByteTransport::new(Timing::default());
    let (mut idx, mut sent) = (0usize, Vec::<ByteRecord>::new());
    for _ in 0..200 {
        if calc.test_exit().is_some() {
            break;
        }
        let until = calc.now() + 50_000;
        pc.run(&mut calc, until, |ep| loop {
            if tx.is_idle() {
                match data.get(idx) {
                    Some(&b) => tx.send(b),
                    None => return Wake::NEVER,
                }
            }
            match tx.poll(ep) {
                ByteEvent::Pending(w) => return w,
                ByteEvent::Done(r) => {
                    sent.push(r);
                    idx += 1;
                }
                ByteEvent::Idle => {}
                ByteEvent::Failed(e) => panic!("{e}"),
            }
        });
    }
    assert_eq!(calc.test_exit(), Some(0));
    assert_eq!(&calc.ram()[0x1000..0x1000 + COUNT], &data[..]);
    let sum: u32 = data.iter().map(|&v| u32::from(v)).sum();
    assert_eq!(calc.test_output(), &(sum as u16).to_le_bytes());
    // The calculator's wires show the same bytes; each took a few thousand T-states.
    let logged = LinkLog::default().decode(calc.hardware().link.log());
    assert_eq!(logged.iter().map(|b| b.value).collect::<Vec<_>>(), data);
    for r in &sent {
        let dt = r.end - r.start;
        assert!((2_000..12_000).contains(&dt), "byte took {dt}");
    }
}

#[test]
fn virtual_computer_receives_from_a_z80_sender() {
    let mut calc = z80_calc(false);
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    let mut rx = ByteTransport::new(Timing::default());
    let mut got = Vec::<ByteRecord>::new();
    for _ in 0..200 {
        if got.len() == COUNT {
            break;
        }
        let until = calc.now() + 50_000;
        pc.run(&mut calc, until, |ep| loop {
            if got.len() == COUNT {
                return Wake::NEVER;
            }
            if rx.is_idle() {
                rx.receive(None);
            }
            match rx.poll(ep) {
                ByteEvent::Pending(w) => return w,
                ByteEvent::Done(r) => got.push(r),
                ByteEvent::Idle => {}
                ByteEvent::Failed(e) => panic!("{e}"),
            }
        });
    }
    // While the cable is attached the calculator runs through it (a bare `run_for` would wait
    // for the device forever); detaching releases it.
    let until = calc.now() + 100_000;
    pc.run(&mut calc, until, |_| Wake::NEVER);
    assert_eq!(calc.test_exit(), Some(0));
    pc.detach(&mut calc);
    calc.run_for(1_000);
    assert_eq!(got.iter().map(|r| r.value).collect::<Vec<_>>(), expected());
    let total = got.last().unwrap().end - got[0].start;
    eprintln!("{COUNT} bytes from the Z80 in {total} T-states");
}

// ------------------------------------------------------------------ the Z80 protocol peer

/// RAM offsets (address − 8000h) of what `linkproto.asm` reports.
const NVARS: usize = 0x0800;
const ERRS: usize = 0x0801;
const LASTERR: usize = 0x0802;
const NAKS: usize = 0x0803;
const SERVED: usize = 0x0804;
const MISSING: usize = 0x0805;
const DONE: usize = 0x0807;
const STATE: usize = 0x0808;
const TAB: usize = 0x0900;
/// `STATE` while it waits for a packet; `LASTERR` after a timeout.
const IDLE: u8 = 1;
const TIMEOUT: u8 = 1;

fn proto_calc() -> Calc {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../machine/tests/roms/linkproto.bin"
    );
    let prog = std::fs::read(path).expect("the machine crate's link protocol test program");
    let config = Config {
        test_ports: true,
        ..Config::default()
    };
    let mut c = Calc::with_config(RomFirmware::new(RomImage::from_program(&prog)), config);
    c.run_for(10_000); // set up and listen
    c.hardware_mut().link.enable_log();
    c
}

/// The variables the Z80 program holds, read from its RAM: (11-byte header, data).
fn held(calc: &Calc) -> Vec<(Vec<u8>, Vec<u8>)> {
    let ram = calc.ram();
    (0..usize::from(ram[NVARS]))
        .map(|i| {
            let e = &ram[TAB + 16 * i..][..16];
            let size = usize::from(u16::from_le_bytes([e[0], e[1]]));
            let addr = usize::from(u16::from_le_bytes([e[11], e[12]]));
            (e[..11].to_vec(), ram[addr - 0x8000..][..size].to_vec())
        })
        .collect()
}

/// What a variable looks like in the Z80's table.
fn as_held(v: &Variable) -> (Vec<u8>, Vec<u8>) {
    let o = Outgoing::variable(v);
    (o.header.to_bytes(), o.sections[0].clone())
}

/// Runs a computer-side sequence on the cable until it finishes (at most 60 emulated s).
fn run_seq<T>(
    calc: &mut Calc,
    pc: &mut VirtualCable,
    mut poll: impl FnMut(&mut TimedPort) -> Progress<T>,
) -> Result<T, LinkError> {
    let mut out = None;
    let limit = calc.now() + 60 * T_PER_SECOND;
    while out.is_none() {
        assert!(calc.now() < limit, "the sequence did not end in 60 s");
        let until = calc.now() + 100_000;
        pc.run(calc, until, |ep| match poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => {
                out.get_or_insert(r);
                Wake::NEVER
            }
        });
    }
    out.unwrap()
}

/// Lets the calculator run `secs` emulated seconds with the computer silent.
fn quiet(calc: &mut Calc, pc: &mut VirtualCable, secs: u64) {
    let until = calc.now() + secs * T_PER_SECOND;
    pc.run(calc, until, |_| Wake::NEVER);
}

fn program() -> Variable {
    let tokens = tifiles::tokenize_source("ClrHome\nDisp \"HELLO\"\n1.5→A\n").unwrap();
    Variable::program("ZTEST", tokens).unwrap()
}

fn list() -> Variable {
    Variable {
        name: VarName::list(1).unwrap(),
        data: VarData::List(vec![
            TiFloat::from(1),
            TiFloat::from(2),
            "3.5".parse().unwrap(),
        ]),
    }
}

fn request(
    calc: &mut Calc,
    pc: &mut VirtualCable,
    ty: VarType,
    name: VarName,
) -> Result<Variable, LinkError> {
    let mut req = Requester::new(MID_COMPUTER, Timing::default(), ty, name);
    run_seq(calc, pc, |ep| req.poll(ep))
}

#[test]
fn z80_receiver_takes_a_program_and_a_list_and_answers_req() {
    let mut calc = proto_calc();
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    let (prog, l1) = (program(), list());
    let mut send = SendVars::new(MID_COMPUTER, Timing::default(), &[prog.clone(), l1.clone()]);
    let report = run_seq(&mut calc, &mut pc, |ep| send.poll(ep)).unwrap();
    assert_eq!(report.sent, vec![0, 1]);
    // The Z80 kept exactly the headers and data bytes of both variables.
    assert_eq!(held(&calc), vec![as_held(&prog), as_held(&l1)]);
    let ram = calc.ram();
    assert_eq!((ram[DONE], ram[ERRS], ram[NAKS]), (1, 0, 0));

    // Silent requests: the list and the program come back as sent; a missing one is refused.
    assert_eq!(
        request(&mut calc, &mut pc, VarType::List, l1.name).unwrap(),
        l1
    );
    assert_eq!(
        request(&mut calc, &mut pc, VarType::Program, prog.name).unwrap(),
        prog
    );
    assert_eq!(
        request(&mut calc, &mut pc, VarType::List, VarName::list(2).unwrap()),
        Err(LinkError::Rejected { code: 1 })
    );
    let ram = calc.ram();
    assert_eq!((ram[SERVED], ram[MISSING], ram[ERRS]), (2, 1, 0));

    // The calculator's own wires: the packet flow of 1.7.1 and 1.7.6, IDs 02 and 82.
    let log = packets_from_levels(calc.hardware().link.log());
    eprintln!("{}", format_log(&log));
    let flow: Vec<(u8, Command)> = log
        .iter()
        .map(|p| {
            let pk = p
                .packet
                .as_ref()
                .unwrap_or_else(|e| panic!("{e}: {}", p.to_line()));
            (pk.mid, pk.cmd)
        })
        .collect();
    use Command::{Ack, Cts, Data, Eot, Req, Skip, Var};
    let (pc_, ti) = (MID_COMPUTER, MID_TI82);
    let mut want = Vec::new();
    for _ in 0..2 {
        want.extend([
            (pc_, Var),
            (ti, Ack),
            (ti, Cts),
            (pc_, Ack),
            (pc_, Data),
            (ti, Ack),
        ]);
    }
    want.extend([(pc_, Eot), (ti, Ack)]);
    for _ in 0..2 {
        want.extend([
            (pc_, Req),
            (ti, Ack),
            (ti, Var),
            (pc_, Ack),
            (pc_, Cts),
            (ti, Ack),
            (ti, Data),
            (pc_, Ack),
        ]);
    }
    want.extend([(pc_, Req), (ti, Ack), (ti, Skip), (pc_, Ack)]);
    assert_eq!(flow, want);
    // The VAR the Z80 sends back is the header it received, checksum included.
    let var_back = log[16].packet.as_ref().unwrap();
    assert_eq!(var_back.data, as_held(&l1).0);
    pc.detach(&mut calc);
}

#[test]
fn z80_receiver_times_out_when_the_computer_vanishes() {
    let mut calc = proto_calc();
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    // The computer stops in the middle of the DATA packet (VAR 17 bytes, ACK, CTS, ACK 12,
    // then DATA) and releases the lines.
    let mut send = SendVars::new(MID_COMPUTER, Timing::default(), &[list()]);
    send.link_mut().record_bytes(true);
    let mut stopped = false;
    let until = calc.now() + 2 * T_PER_SECOND;
    pc.run(&mut calc, until, |ep| {
        if stopped {
            return Wake::NEVER;
        }
        if send.link().records().len() >= 35 {
            send.cancel(ep);
            stopped = true;
            return Wake::NEVER;
        }
        match send.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => panic!("the send ended: {r:?}"),
        }
    });
    assert!(stopped, "the transfer did not get to its DATA packet");
    // The Z80 waits for the next bit, gives up after its timeout and listens again.
    quiet(&mut calc, &mut pc, 4);
    let ram = calc.ram();
    assert_eq!((ram[ERRS], ram[LASTERR], ram[STATE]), (1, TIMEOUT, IDLE));
    assert_eq!(ram[NVARS], 0, "a half-received variable was kept");
    // Ready again: a whole transfer goes through.
    let mut send = SendVars::new(MID_COMPUTER, Timing::default(), &[list()]);
    run_seq(&mut calc, &mut pc, |ep| send.poll(ep)).unwrap();
    assert_eq!(held(&calc), vec![as_held(&list())]);

    // A requester that vanishes while the Z80 sends it the DATA: the Z80 times out in the
    // middle of a byte, releases the lines and answers the next request.
    let mut req = Requester::new(
        MID_COMPUTER,
        Timing::default(),
        VarType::List,
        VarName::list(1).unwrap(),
    );
    req.link_mut().record_bytes(true);
    let mut stopped = false;
    let until = calc.now() + 2 * T_PER_SECOND;
    pc.run(&mut calc, until, |ep| {
        if stopped {
            return Wake::NEVER;
        }
        // REQ 17, ACK 4, VAR 17, ACK 4, CTS 4, ACK 4, then DATA.
        if req.link().records().len() >= 55 {
            req.cancel(ep);
            stopped = true;
            return Wake::NEVER;
        }
        match req.poll(ep) {
            Progress::Pending(w) => w,
            Progress::Done(r) => panic!("the request ended: {r:?}"),
        }
    });
    assert!(stopped, "the request did not get to its DATA packet");
    quiet(&mut calc, &mut pc, 4);
    let ram = calc.ram();
    assert_eq!((ram[ERRS], ram[LASTERR], ram[STATE]), (2, TIMEOUT, IDLE));
    assert_eq!(
        request(&mut calc, &mut pc, VarType::List, VarName::list(1).unwrap()).unwrap(),
        list()
    );
    assert_eq!(calc.ram()[SERVED], 1);
    pc.detach(&mut calc);
}

/// A scripted computer: sends bytes and receives counts of bytes, one byte at a time.
enum Act {
    Send(Vec<u8>),
    Recv(usize),
}

fn script(calc: &mut Calc, pc: &mut VirtualCable, acts: Vec<Act>) -> Vec<Vec<u8>> {
    let mut tx = ByteTransport::new(Timing::default());
    let mut got: Vec<Vec<u8>> = Vec::new();
    let (mut i, mut pos) = (0usize, 0usize);
    let limit = calc.now() + 30 * T_PER_SECOND;
    while i < acts.len() {
        assert!(calc.now() < limit, "the script stalled at step {i}");
        let until = calc.now() + 100_000;
        pc.run(calc, until, |ep| loop {
            if tx.is_idle() {
                match acts.get(i) {
                    None => return Wake::NEVER,
                    Some(Act::Send(b)) => tx.send(b[pos]),
                    Some(Act::Recv(_)) => tx.receive(Some(ep.now + 2 * T_PER_SECOND)),
                }
            }
            match tx.poll(ep) {
                ByteEvent::Pending(w) => return w,
                ByteEvent::Done(r) => {
                    let n = match &acts[i] {
                        Act::Send(b) => b.len(),
                        Act::Recv(n) => {
                            if pos == 0 {
                                got.push(Vec::new());
                            }
                            got.last_mut().unwrap().push(r.value);
                            *n
                        }
                    };
                    pos += 1;
                    if pos == n {
                        (i, pos) = (i + 1, 0);
                    }
                }
                ByteEvent::Idle => {}
                ByteEvent::Failed(e) => panic!("step {i}: {e}"),
            }
        });
    }
    got
}

#[test]
fn z80_receiver_answers_a_bad_checksum_with_err() {
    let mut calc = proto_calc();
    let mut pc = VirtualCable::attach(&mut calc, DEFAULT_LATENCY);
    let l1 = list();
    let o = Outgoing::variable(&l1);
    let var = Packet::with_data(MID_COMPUTER, Command::Var, o.header.to_bytes()).to_bytes();
    let mut bad = var.clone();
    let n = bad.len();
    bad[n - 2] ^= 0x40; // checksum low byte
    let data = Packet::data(MID_COMPUTER, o.sections[0].clone()).to_bytes();
    let mut bad_data = data.clone();
    bad_data[6] ^= 1; // a data byte
    let ack = Packet::ack(MID_COMPUTER).to_bytes();
    let got = script(
        &mut calc,
        &mut pc,
        vec![
            Act::Send(bad),
            Act::Recv(4),
            Act::Send(var),
            Act::Recv(8),
            Act::Send(ack.clone()),
            Act::Send(bad_data),
            Act::Recv(4),
            Act::Send(data),
            Act::Recv(4),
            Act::Send(Packet::eot(MID_COMPUTER).to_bytes()),
            Act::Recv(4),
        ],
    );
    let err = vec![0x82, 0x5A, 0, 0];
    let ack82 = vec![0x82, 0x56, 0, 0];
    let ack_cts = vec![0x82, 0x56, 0, 0, 0x82, 0x09, 0, 0];
    assert_eq!(got, vec![err.clone(), ack_cts, err, ack82.clone(), ack82]);
    assert_eq!(held(&calc), vec![as_held(&l1)]);
    let ram = calc.ram();
    assert_eq!((ram[NAKS], ram[ERRS], ram[DONE]), (2, 0, 1));
    pc.detach(&mut calc);
}
