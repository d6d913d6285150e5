//! T6A04 tests: Z80 programs drive the LCD through ports 10h/11h; screens are compared with
//! the 96x64 text art in tests/golden (re-record with `BLESS=1 cargo test`).

mod common;
use common::*;
use ti82_machine::Config;

fn screen_of(name: &str, config: Config) -> ti82_machine::Calc {
    let mut c = calc_with(name, config);
    run_pass(&mut c, 1);
    c
}

#[test]
fn lcd_8bit_modes_golden() {
    let c = screen_of("lcd_modes", test_config());
    golden("lcd_modes", &c.lcd().to_text());
    assert_eq!(c.hardware().lcd.contrast(), 56);
    assert_eq!(c.hardware().lcd.busy_violations, 0);
}

#[test]
fn lcd_6bit_golden() {
    let c = screen_of("lcd_6bit", test_config());
    golden("lcd_6bit", &c.lcd().to_text());
}

#[test]
fn lcd_scroll_contrast_test_commands_golden() {
    let c = screen_of("lcd_scroll", test_config());
    golden("lcd_scroll", &c.lcd().to_text());
    let lcd = &c.hardware().lcd;
    assert_eq!(lcd.contrast(), 45);
    assert_eq!(lcd.z(), 16);
    assert!(lcd.test_mode(), "1Fh enters test mode");
    assert_eq!(lcd.op_amps(), (3, 3));
    // Contrast shows in the shades: lit pixels at 45 are part-dark.
    let s = c.lcd();
    let lit = s.shades.iter().copied().max().unwrap();
    assert_eq!(lit, ti82_machine::contrast_shade(45));
    assert!(lit > 0 && lit < 255);
}

#[test]
fn lcd_goldens_hold_when_busy_accesses_are_dropped() {
    // The programs poll the busy flag, so TilEm's drop rule changes nothing.
    for name in ["lcd_modes", "lcd_6bit", "lcd_scroll"] {
        let c = screen_of(
            name,
            Config {
                lcd_drop_when_busy: true,
                ..test_config()
            },
        );
        golden(name, &c.lcd().to_text());
    }
}

#[test]
fn lcd_readback_and_status() {
    let c = screen_of("lcd_read", test_config());
    let want: &[u8] = &[
        0x00, 0x11, 0x22, 0x33, 0x44, // dummy read, then the column
        0x00, // stale latch after a write
        0x2A, // 6-bit read: bits 7:6 read 0
        0x02, 0xA0, // the same pixels as 8-bit bytes
        0x23, 0x63, 0x43, 0x63, 0x60, 0x61, 0x62, 0x63, // status after 00h..07h
        0xE3, // busy right after a command
        0x43, // display off
    ];
    assert_eq!(c.test_output(), want);
    // Display off: the glass is blank but the RAM is kept.
    assert!(c.lcd().bits.iter().all(|&b| !b));
    assert!(c.hardware().lcd.display_ram().iter().any(|&b| b != 0));
}

#[test]
fn lcd_ghosting_averages_frames() {
    let mut c = calc_with(
        "lcd_scroll",
        Config {
            lcd_ghost_frames: 4,
            ..test_config()
        },
    );
    run_pass(&mut c, 1);
    for _ in 0..4 {
        c.run_frame();
    }
    let full = c.lcd();
    // Turn the display off from outside (as a program would) and run two more frames:
    // half the recorded frames are blank, so lit pixels are half as dark.
    let t = c.now();
    c.hardware_mut().lcd.command(0x02, t + 100);
    c.run_frame();
    c.run_frame();
    let half = c.lcd();
    let i = full.bits.iter().position(|&b| b).unwrap();
    assert_eq!(half.shades[i], full.shades[i] / 2);
}
