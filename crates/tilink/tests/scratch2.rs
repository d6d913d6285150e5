use machine::{Calc, Config, RomFirmware, RomImage};
use tilink::{VirtualCable, Wake};
#[test]
fn halt_di() {
    let config = Config {
        test_ports: true,
        ..Config::default()
    };
    let mut c = Calc::with_config(
        RomFirmware::new(RomImage::from_program(&[0xAF, 0xD3, 0xF0, 0xF3, 0x76])),
        config,
    );
    let mut pc = VirtualCable::attach(&mut c, 96);
    for i in 0..100 {
        let u = c.now() + 1000;
        eprintln!("{i} {}", c.now());
        pc.run(&mut c, u, |_| Wake::edge(u64::MAX));
    }
    eprintln!("exit {:?}", c.test_exit());
}
