//! The timer flag seen by polling, and each hardware choice where the real TI-82 is unknown
//! (`Config` fields, `HwChoice`, `--hw NAME`): our default and the other model's value.
//! Expected values come from spec sections named beside them (`../shared/spec/ti82-hardware.md`).

mod common;
use common::*;
use ti82_machine::{
    Calc, Config, Generation, Hardware, HwChoice, RomFirmware, RomImage, FIXED_TIMER_PERIOD,
};

/// A Z80 program polls port 03h with interrupts disabled and sees the timer flag (§2.4,
/// §4.6: a tick sets read bit 1 whatever IFF1 is); acknowledging clears it.
#[test]
fn polling_port3_with_interrupts_off_sees_the_timer() {
    let mut c = calc("timer_poll");
    run_pass(&mut c, 1);
    let out = c.test_output();
    assert_eq!(out.len(), 4, "output {out:02X?}");
    // Bit 1 timer pending, bit 3 ON not held.
    assert_eq!(out[0], 0x0A);
    assert_eq!(out[1], 0x08);
    let polls = u16::from_le_bytes([out[2], out[3]]);
    // The first tick is one reset-rate period after power-on (§2.4 decision, docs/hardware.md:
    // 61 950 T-states); one poll is 52 T-states (INC HL 6, LD A,H 4, OR L 4, JR Z 7,
    // IN A,(n) 11, BIT 1,A 8, JR Z 12), after 60 T-states of set-up.
    let first_tick = 61_950u32;
    assert!(
        (60 + u32::from(polls) * 52).abs_diff(first_tick) < 52,
        "{polls} polls of 52 T-states for a tick at {first_tick}"
    );
    assert_eq!(c.hardware().irq.timer_ticks, 1);
    assert!(!c.cpu().unwrap().iff1);
}

fn hw_with(choice: Option<HwChoice>) -> Hardware {
    let mut config = Config::default();
    if let Some(c) = choice {
        config.apply(c);
    }
    Hardware::new(config)
}

/// Both ways of selecting a choice (the `Config`, or `Hardware::apply` on a new machine as
/// `--hw` does) give the same machine behaviour; checked by every test below through `both`.
fn both(choice: HwChoice) -> [Hardware; 2] {
    let mut applied = Hardware::new(Config::default());
    applied.apply(choice);
    [hw_with(Some(choice)), applied]
}

#[test]
fn names_round_trip() {
    for (c, name, _) in HwChoice::ALL {
        assert_eq!(name.parse::<HwChoice>().unwrap(), c);
        assert_eq!(c.name(), name);
    }
    let e = "lcd-fast".parse::<HwChoice>().unwrap_err().to_string();
    assert!(e.contains("lcd-fast") && e.contains("lcd-drop-busy"), "{e}");
}

/// §3.3: port 02h before any write: 88h ours (the TI-83-style value we map), F8h TilEm's
/// read-back; the mapping is the same (ROM page 0 at 4000h, RAM at 8000h).
#[test]
fn port2_before_any_write() {
    let mut ours = hw_with(None);
    assert_eq!(ours.read_port(2, 0), 0x88);
    for mut hw in both(HwChoice::Port2F8) {
        assert_eq!(hw.read_port(2, 0), 0xF8);
        hw.mem.load_rom(&[0x5A; 16]);
        assert_eq!(hw.mem.read(0x4000), 0x5A);
        hw.mem.write(0x8000, 0x77);
        assert_eq!(hw.mem.ram()[0], 0x77);
        hw.write_port(2, 0x89, 10);
        assert_eq!(hw.read_port(2, 20), 0x89);
    }
    ours.write_port(2, 0x89, 10);
    assert_eq!(ours.read_port(2, 20), 0x89);
}

/// §4.9: port 14h on classic hardware: unmapped (00h) ours, battery good (01h) TilEm's.
#[test]
fn port14_on_classic_hardware() {
    assert_eq!(hw_with(None).read_port(0x14, 0), 0x00);
    for mut hw in both(HwChoice::Port14Battery) {
        assert_eq!(hw.read_port(0x14, 0), 0x01);
    }
}

/// Reads the 6-bit cell at row 0, column 1 after writing 0Ch (pixels 4 and 5) to the first
/// byte of row 0 in 8-bit mode. Accesses are 100 T-states apart (never busy).
fn six_bit_read(hw: &mut Hardware) -> u8 {
    let mut t = 0;
    let mut cmd = |hw: &mut Hardware, port: u8, v: Option<u8>| {
        t += 100;
        match v {
            Some(v) => {
                hw.write_port(port, v, t);
                0
            }
            None => hw.read_port(port, t),
        }
    };
    cmd(hw, 0x10, Some(0x01)); // 8-bit
    cmd(hw, 0x10, Some(0x80)); // X = 0
    cmd(hw, 0x10, Some(0x20)); // Y = 0
    cmd(hw, 0x11, Some(0x0C));
    cmd(hw, 0x10, Some(0x00)); // 6-bit
    cmd(hw, 0x10, Some(0x80));
    cmd(hw, 0x10, Some(0x21)); // column 1 = pixels 6..11
    cmd(hw, 0x11, None); // dummy read (§5.5)
    cmd(hw, 0x11, None)
}

/// §5.5: bits 7:6 of a 6-bit read: 0 ours (Wabbitemu), the two pixels to the left TilEm/MAME.
#[test]
fn lcd_6bit_read_bits_7_6() {
    assert_eq!(six_bit_read(&mut hw_with(None)), 0x00);
    for mut hw in both(HwChoice::Lcd6BitLeftPixels) {
        assert_eq!(six_bit_read(&mut hw), 0xC0);
    }
}

/// §5.6: busy for 60 T-states after an access (the documented 10 µs) ours, 50 TilEm's.
#[test]
fn lcd_busy_window() {
    let mut ours = hw_with(None);
    ours.write_port(0x10, 0x05, 1000);
    assert_eq!(ours.read_port(0x10, 1055) & 0x80, 0x80);
    assert_eq!(ours.read_port(0x10, 1060) & 0x80, 0x00);
    for mut hw in both(HwChoice::LcdBusy50) {
        hw.write_port(0x10, 0x05, 1000);
        assert_eq!(hw.read_port(0x10, 1049) & 0x80, 0x80);
        assert_eq!(hw.read_port(0x10, 1050) & 0x80, 0x00);
    }
}

/// §5.6: accesses made while busy: carried out ours, dropped TilEm's (a dropped read gives
/// 00h and does not step).
#[test]
fn lcd_accesses_while_busy() {
    let run = |hw: &mut Hardware| {
        hw.write_port(0x10, 0x05, 0); // X auto-increment
        hw.write_port(0x10, 0x80, 100);
        hw.write_port(0x10, 0x20, 200);
        hw.write_port(0x11, 0xAA, 300);
        hw.write_port(0x11, 0xBB, 310); // busy
        (
            hw.lcd.display_ram()[0],
            hw.lcd.display_ram()[15],
            hw.lcd.x(),
        )
    };
    assert_eq!(run(&mut hw_with(None)), (0xAA, 0xBB, 2));
    for mut hw in both(HwChoice::LcdDropBusy) {
        assert_eq!(run(&mut hw), (0xAA, 0x00, 1));
        assert_eq!(hw.read_port(0x11, 320), 0x00);
        assert_eq!(hw.lcd.x(), 1);
    }
}

/// §6.5: the ON interrupt on press only (Wabbitemu, MAME) ours, also on release TilEm's.
#[test]
fn on_interrupt_on_release() {
    let run = |hw: &mut Hardware| {
        hw.write_port(3, 0x0B, 0);
        hw.set_on(true, 10);
        assert_eq!(hw.read_port(3, 20) & 1, 1);
        hw.write_port(3, 0x0A, 30); // acknowledge ...
        hw.write_port(3, 0x0B, 40); // ... and re-enable
        hw.set_on(false, 50);
        hw.read_port(3, 60) & 1
    };
    assert_eq!(run(&mut hw_with(None)), 0);
    for mut hw in both(HwChoice::OnRelease) {
        assert_eq!(run(&mut hw), 1);
    }
}

/// §2.4: the rate from port 04h bits 2:1 ours ((4n+3) × 4 130), TilEm's fixed 9 259 µs.
#[test]
fn timer_rate_from_port4() {
    let mut ours = hw_with(None);
    ours.write_port(4, 0x10, 0);
    assert_eq!(ours.irq.period(), 3 * 4130);
    for mut hw in both(HwChoice::TimerFixedRate) {
        assert_eq!(hw.irq.period(), FIXED_TIMER_PERIOD);
        hw.write_port(4, 0x10, 0);
        assert_eq!(hw.irq.period(), 9259 * 6);
    }
}

/// §4.4/§8.4: before the generation is known, port 00h follows `Config::generation` ours
/// (classic: D4h reads D6h, §4.3), TilEm's generation-agnostic rules otherwise: a
/// classic-looking write pulls with bits 2/4 and 3/5, another with bits 1:0; the read is
/// C0h | lines | lines << 2. Once a page-0 port-04h write decides, the generation's format.
#[test]
fn link_port_before_the_generation_is_known() {
    let unknown = Config {
        generation_from_port4: true,
        ..Config::default()
    };
    let mut ours = Hardware::new(unknown.clone());
    ours.write_port(0, 0xD4, 0);
    assert_eq!(ours.read_port(0, 1), 0xD6);
    let mut agnostic = unknown.clone();
    agnostic.apply(HwChoice::LinkAgnostic);
    let mut hw = Hardware::new(agnostic);
    assert!(!hw.generation_known());
    hw.write_port(0, 0xD4, 0); // tip pulled
    assert_eq!(hw.read_port(0, 1), 0xCA);
    assert_eq!(hw.link.own_drive(), 1);
    hw.write_port(0, 0x02, 2); // ring pulled, TI-83 style
    assert_eq!(hw.read_port(0, 3), 0xC5);
    hw.write_port(0, 0xC0, 4);
    assert_eq!(hw.read_port(0, 5), 0xCF);
    hw.port4_written_from_page0(0x16);
    assert!(hw.generation_known());
    assert_eq!(hw.generation(), Generation::Classic);
    hw.write_port(0, 0xD4, 6);
    assert_eq!(hw.read_port(0, 7), 0xD6);
}

/// A synthetic image (no version text): `OUT (4),A` executed at 0000h – 3FFFh, then the
/// same bytes executed through 4000h (ROM page 0 is mapped there at reset, §3.3), then HALT.
fn generation_probe(first: u8, second: u8) -> Calc {
    // 0000h: LD A,first; OUT (4),A; LD A,second; JP 4000h+9
    // 0009h: OUT (4),A; HALT
    let program = [
        0x3E, first, 0xD3, 0x04, 0x3E, second, 0xC3, 0x09, 0x40, 0xD3, 0x04, 0x76,
    ];
    let rom = RomImage::from_bytes("synthetic.rom", {
        let mut b = vec![0u8; 0x20000];
        b[..program.len()].copy_from_slice(&program);
        b
    })
    .unwrap();
    assert_eq!(rom.version(), None);
    let mut c = Calc::from_rom(rom);
    c.run_for(1000);
    assert!(c.cpu().unwrap().halted());
    c
}

/// §8.4: without readable version text, port-04h writes executed from 0000h – 3FFFh decide
/// the generation (bit 4 = 1 classic, 0 Parcus); writes from elsewhere do not.
#[test]
fn generation_from_port4_when_the_version_is_unreadable() {
    let c = generation_probe(0x06, 0x16);
    assert!(c.hardware().generation_known());
    assert_eq!(c.hardware().generation(), Generation::Parcus);
    assert!(c.hardware().config().port_mirrors);
    assert_eq!(
        c.hardware().port4(),
        0x16,
        "the 4000h write still programs port 04h"
    );
    let c = generation_probe(0x16, 0x06);
    assert_eq!(c.hardware().generation(), Generation::Classic);
    // A ROM with version text keeps the generation it names.
    let mut b = vec![0u8; 0x20000];
    b[..4].copy_from_slice(&[0x3E, 0x06, 0xD3, 0x04]);
    b[0x100..0x10E].copy_from_slice(b"Self Test?19.0");
    let mut c = Calc::from_rom(RomImage::from_bytes("v.rom", b).unwrap());
    c.run_for(100);
    assert_eq!(c.hardware().generation(), Generation::Classic);
}

/// §3.3: I = FFh at power-on as the spec recommends (TilEm), the pairs FFFFh.
#[test]
fn registers_at_power_on() {
    let c = Calc::new(RomFirmware::new(RomImage::from_program(&[0x76])));
    let cpu = c.cpu().unwrap();
    assert_eq!(cpu.i, 0xFF);
    assert_eq!(
        (cpu.af(), cpu.sp, cpu.ix, cpu.iy),
        (0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF)
    );
}

/// Save states keep the choices and the generation decision.
#[test]
fn choices_survive_a_save_state() {
    let mut c = generation_probe(0x06, 0x16);
    c.apply_hw_choices(&[HwChoice::LcdBusy50, HwChoice::OnRelease]);
    let bytes = c.state_bytes();
    // Same ROM needed: restore onto a calculator made from the same image.
    let rom = c
        .firmware()
        .as_any()
        .downcast_ref::<RomFirmware>()
        .unwrap()
        .rom()
        .clone();
    let mut d = Calc::from_rom(rom);
    d.restore_bytes(std::path::Path::new("s.state"), &bytes)
        .unwrap();
    assert_eq!(d.hardware().config(), c.hardware().config());
    assert!(d.hardware().generation_known());
    assert_eq!(d.hardware().config().lcd_busy_t, 50);
}
