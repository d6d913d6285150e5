//! Machine tests driven by small Z80 programs (tests/roms/*.asm, assembled beside them).

mod common;
use common::*;
use ti82_machine::{timer_period, Config, Generation, Key, PagingModel};

#[test]
fn paging_and_ram_both_models() {
    for paging in [PagingModel::Ti83, PagingModel::Simple] {
        let mut c = calc_with(
            "paging",
            Config {
                paging,
                ..test_config()
            },
        );
        run_pass(&mut c, 1);
        let out = c.test_output();
        for n in 0..8u8 {
            let port2 = 0x88 | n;
            assert_eq!(out[2 * n as usize], port2);
            assert_eq!(out[2 * n as usize + 1], 0xA0 + n);
        }
    }
}

#[test]
fn port_readback_classic() {
    let mut c = calc("ports");
    c.press(Key::Enter);
    run_pass(&mut c, 1);
    let want: &[u8] = &[
        0xC3, 0xD6, 0xE9,
        0x03, // port 00h: C0h, D4h, E8h, 03h (tip/ring latched low by bits 1:0)
        0xFF, 0xFE, 0xFF, 0xFE, // port 01h: none, group 1 (ENTER), group 0, all
        0x88, 0x8B, // port 02h
        0x08, 0x08, // port 03h: ON up; after 0Bh nothing pending yet
        0x00, // port 04h
        0x43, 0xC1,
        0x61, // port 10h: reset status; busy, 8-bit, X inc after 05h; on after 03h
        0x00, // port 11h dummy read
        0x00, 0x00, 0x00, 0x00, // 05h, 14h, 06h, 12h: unmapped
        0x88, // port 02h through BC = 5A02h
    ];
    assert_eq!(c.test_output(), want);
}

#[test]
fn port_readback_parcus_mirrors() {
    let mut c = calc_with(
        "ports",
        Config {
            test_ports: true,
            ..Config::for_generation(Generation::Parcus)
        },
    );
    c.press(Key::Enter);
    run_pass(&mut c, 1);
    let want: &[u8] = &[
        0xCF, 0xCF, 0xCF, 0xC0, // port 00h: C0h | lines | lines << 2; only bits 1:0 pull
        0xFF, 0xFE, 0xFF, 0xFE, // port 01h
        0x88, 0x8B, // port 02h
        0x08, 0x08, // port 03h
        0xCF, // port 04h reads the link port (mirror)
        0x43, 0xC1, 0x61, // port 10h
        0x00, // port 11h
        0xFE, 0x01, 0x88, 0x61, // 05h keypad mirror, 14h battery, 06h = 02h, 12h = status
        0x88,
    ];
    assert_eq!(c.test_output(), want);
}

#[test]
fn timer_rate_each_setting() {
    let mut c = calc("timer");
    run_pass(&mut c, 30);
    let out = c.test_output().to_vec();
    assert_eq!(out.len(), 8);
    for n in 0..4 {
        let count = u16::from_le_bytes([out[2 * n], out[2 * n + 1]]) as f64;
        let period = timer_period(Generation::Classic, (n as u8) << 1 | 0x10) as f64;
        let want = 6_000_000.0 / period;
        eprintln!(
            "port 04h bits 2:1 = {n}: {count} interrupts per emulated second (expected ~{want:.1})"
        );
        assert!(
            (count - want).abs() <= want * 0.02 + 1.0,
            "setting {n}: {count} vs {want}"
        );
    }
}

#[test]
fn on_key_interrupt_and_power_off() {
    let mut c = calc("onkey");
    c.run_for(200_000);
    assert!(c.test_output().is_empty());
    assert!(c.cpu().unwrap().halted());
    c.set_on(true);
    c.run_for(50_000);
    assert_eq!(c.test_output(), &[0x01]);
    c.set_on(false);
    c.run_for(50_000);
    assert_eq!(c.test_output(), &[0x01, 0x08]);
    assert!(c.hardware().powered_down());
    assert!(c.lcd().bits.iter().all(|&b| !b));
    // A long time off costs nothing and changes nothing.
    c.run_for(60 * 6_000_000);
    assert_eq!(c.test_output().len(), 2);
    c.set_on(true);
    run_pass(&mut c, 1);
    assert_eq!(c.test_output(), &[0x01, 0x08, 0x01, 0x00]);
    assert!(!c.hardware().powered_down());
}

#[test]
fn scan_every_key() {
    for key in Key::all() {
        let mut c = calc("keys");
        c.press(key);
        run_pass(&mut c, 1);
        let out = c.test_output();
        let mut want = [0xFFu8; 9];
        want[key.group() as usize] = !(1 << key.bit());
        want[7] = !(1 << key.bit());
        assert_eq!(out, want, "key {}", key.name());
    }
}

#[test]
fn several_keys_held() {
    let mut c = calc("keys");
    c.press(Key::Up);
    c.press(Key::K5);
    c.press(Key::Mode);
    run_pass(&mut c, 1);
    let out = c.test_output();
    assert_eq!(out[0], 0xF7);
    assert_eq!(out[3], 0xFB);
    assert_eq!(out[6], 0xBF);
    assert_eq!(out[7], 0xF7 & 0xFB & 0xBF);
}

#[test]
fn halt_idle_is_cheap() {
    let mut c = calc("idle");
    let start = std::time::Instant::now();
    c.run_for(60 * 6_000_000);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let ticks = u16::from_le_bytes([c.ram()[0], c.ram()[1]]) as u64;
    let want = 60 * 6_000_000 / timer_period(Generation::Classic, 0x16);
    eprintln!("60 emulated seconds at HALT: {ms:.2} ms host, {ticks} interrupts");
    assert!(ticks.abs_diff(want) <= 1, "{ticks} vs {want}");
    assert!(ms < 200.0, "{ms} ms");
}

/// A program that switches banks every ~100 T-states runs with paged reads (no 16 KiB copy
/// per switch); once it stops switching, view reads come back. Either way it reads the right
/// bytes: the markers' sum matches.
#[test]
fn frequent_bank_switches_turn_paged_reads_on_and_off() {
    let mut c = calc("paging_rate");
    let (mut paged_seen, mut t) = (false, 0u64);
    while c.ram()[2] == 0 {
        c.run_for(10_000);
        t += 10_000;
        assert!(t < 2_000_000, "phase 1 never finished");
        if t > 200_000 && c.ram()[2] == 0 {
            assert!(
                c.hardware().mem.lazy_view(),
                "still view reads after {t} T-states"
            );
            paged_seen = true;
        }
    }
    assert!(paged_seen);
    let want: u16 = (0..4000u32)
        .map(|i| 0xA0 + (i % 8) as u16)
        .fold(0u16, |s, v| s.wrapping_add(v));
    assert_eq!(u16::from_le_bytes([c.ram()[0], c.ram()[1]]), want);
    // The choice is made at the start of each run slice, over the last 64K T-states or more.
    for _ in 0..30 {
        c.run_for(10_000);
    }
    assert!(
        !c.hardware().mem.lazy_view(),
        "paged reads without switches"
    );
    assert!(u16::from_le_bytes([c.ram()[3], c.ram()[4]]) > 1000);
}
