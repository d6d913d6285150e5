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
