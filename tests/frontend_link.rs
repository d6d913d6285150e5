//! Two calculators in one process (`--pair`) on the wire-exact cable: the machine crate's link
//! test program (`crates/machine/tests/roms/link.bin`) sends 300 raw bytes from one to the
//! other with the TI bit protocol. (Between processes the cable carries whole TI packets
//! only, docs/link.md; a raw byte stream does not cross it.)

#[path = "frontend_rom.rs"]
mod rom;

use std::path::PathBuf;

use ti82_machine::RomImage;

#[test]
fn pair_in_one_process() {
    let prog = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/machine/tests/roms/link.bin");
    let Ok(code) = std::fs::read(&prog) else {
        eprintln!("skipped: {} is missing", prog.display());
        return;
    };
    let args = ti82::cli::MachineArgs {
        link_log: Some(rom::temp_dir("pair").join("a.log")),
        ..Default::default()
    };
    let a = ti82_machine::Calc::from_rom(RomImage::from_program(&code));
    let b = ti82_machine::Calc::from_rom(RomImage::from_program(&code));
    let (a, b) = ti82_machine::cable::connect(a, b, ti82_machine::cable::DEFAULT_LATENCY);
    let ((a, wire_a), (b, wire_b)) = (a.into_parts(), b.into_parts());
    let mut ma = ti82::app::Machine::with_calc(a, "a".into(), None, &args, Vec::new()).unwrap();
    ma.wire = wire_a;
    let mut mb = ti82::app::Machine::with_calc(
        b,
        "b".into(),
        None,
        &ti82::cli::MachineArgs::default(),
        Vec::new(),
    )
    .unwrap();
    mb.wire = wire_b;
    // A receives (ENTER held at start), B sends.
    ma.player.push(&ti82::script::parse("HOLD ENTER").unwrap());
    ti82::app::advance_pair(&mut ma, &mut mb, 6_000_000).unwrap();
    assert!(
        ma.calc.now().abs_diff(mb.calc.now()) < 100,
        "the two clocks stay together"
    );
    let want: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    assert_eq!(&ma.calc.ram()[0x1000..0x1000 + 300], &want[..]);
    let msgs = ma.finish().unwrap();
    assert!(msgs.iter().any(|m| m.contains("link log saved")));
    let log = std::fs::read_to_string(args.link_log.unwrap()).unwrap();
    assert_eq!(log.lines().filter(|l| l.starts_with("B ")).count(), 300);
}

/// `--pair` as the single window starts: MANCALA on both fresh built-in calculators, the
/// cable on both status lines, both states saved and restored together.
#[test]
fn pair_starts_mancala_on_both_and_saves_both() {
    use ti82::app::{advance_pair, start_pair};
    use ti82::cli::MachineArgs;
    use ti82::pacing::{Pacer, Speed};
    use ti82::session::FirmwareChoice;
    use ti82_machine::FRAME_T;
    use tibasic::interp::{Status, Wait};

    let dir = rom::temp_dir("pair-start");
    let setup = rom::setup(&dir, FirmwareChoice::Builtin);
    let at_main_menu = |m: &ti82::app::Machine| {
        let fw = m
            .calc
            .firmware()
            .as_any()
            .downcast_ref::<tibasic::firmware::BasicFirmware>()
            .unwrap();
        matches!(fw.status(), Status::Waiting(Wait::Menu { items, .. }) if items.len() == 4)
    };
    let (mut a, mut b) = start_pair(&setup, &MachineArgs::default()).unwrap();
    let mut frames = 0;
    while !(a.player.is_idle(a.calc.now()) && b.player.is_idle(b.calc.now())) {
        advance_pair(&mut a, &mut b, FRAME_T).unwrap();
        frames += 1;
        assert!(frames < 60 * 60, "MANCALA did not start on both");
    }
    assert!(at_main_menu(&a) && at_main_menu(&b));
    let mut pacer = Pacer::new(Speed::Real);
    assert!(a.status_line(&mut pacer).contains("link: cable to B"));
    assert!(b.status_line(&mut pacer).contains("link: cable to A"));
    let t = a.calc.now();
    assert_eq!(b.calc.now(), t, "one clock for the pair");
    let saved_a = a.finish().unwrap();
    let saved_b = b.finish().unwrap();
    assert!(
        saved_a.iter().any(|s| s.contains("builtin-pair-a.state")),
        "{saved_a:?}"
    );
    assert!(
        saved_b.iter().any(|s| s.contains("builtin-pair-b.state")),
        "{saved_b:?}"
    );
    // Next time: both restored where they were, nothing started again.
    let (a, b) = start_pair(&setup, &MachineArgs::default()).unwrap();
    assert_eq!((a.calc.now(), b.calc.now()), (t, t));
    assert!(a.player.is_empty() && b.player.is_empty());
    assert!(at_main_menu(&a) && at_main_menu(&b));
    // One state gone: both start fresh (their clocks must agree).
    std::fs::remove_file(dir.join("builtin-pair-b.state")).unwrap();
    let (a, b) = start_pair(&setup, &MachineArgs::default()).unwrap();
    assert_eq!(a.calc.now(), b.calc.now());
    assert!(a.calc.now() < t, "fresh");
    assert!(!a.player.is_empty() && !b.player.is_empty());
    // A cable of its own: no --link.
    let linked = MachineArgs {
        link: vec!["bot".into()],
        ..MachineArgs::default()
    };
    assert!(start_pair(&setup, &linked).is_err());
}
