//! The byte transport against a Z80 program that bit-bangs the link port itself (the machine
//! crate's `tests/roms/link.asm`, classic port values C0h/D4h/E8h, as the ROM does): a
//! virtual computer on the calculator's cable sends it 300 bytes, then receives 300.

use machine::cable::DEFAULT_LATENCY;
use machine::{Calc, Config, Key, LinkLog, RomFirmware, RomImage};
use tilink::{ByteEvent, ByteRecord, ByteTransport, Timing, VirtualCable, Wake};

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
