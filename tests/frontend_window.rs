//! The window: opens a real window (needs a display; CI runs it under Xvfb), runs a few
//! frames of the synthetic ROM and compares the LCD region of the window's picture with a
//! golden PNG (`BLESS=1` rewrites it). Without DISPLAY it says so and passes.

#[path = "frontend_rom.rs"]
mod rom;

use std::path::PathBuf;

use ti82::app::Machine;
use ti82::cli::MachineArgs;
use ti82::gui::View;
use ti82::keymap::KeyMap;
use ti82::pacing::{Pacer, Speed};
use ti82::render::{lcd_image, read_png, write_png};
use ti82_machine::FRAME_T;

#[test]
fn window_shows_the_lcd() {
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        eprintln!("skipped: no DISPLAY (run under Xvfb to test the window)");
        return;
    }
    let m = Machine::with_calc(
        rom::calc(),
        "test".into(),
        None,
        &MachineArgs::default(),
        Vec::new(),
    )
    .unwrap();
    let scale = 2;
    let mut view = View::open("ti82 window test", m, scale).unwrap();
    let keymap = KeyMap::default();
    let mut pacer = Pacer::new(Speed::Real);
    for _ in 0..5 {
        view.machine.advance(FRAME_T).unwrap();
        view.draw(&keymap, &mut pacer).unwrap();
    }
    let l = &view.layout;
    let (w, h) = (96 * scale, 64 * scale);
    let mut region = Vec::with_capacity(w * h);
    for y in 0..h {
        let start = (l.lcd_y + y) * l.width + l.lcd_x;
        region.extend_from_slice(&view.buf[start..start + w]);
    }
    // The window shows exactly what a screenshot shows.
    let (shot, sw, sh) = lcd_image(&view.machine.calc.lcd(), scale);
    assert_eq!((sw, sh), (w, h));
    assert!(
        region == shot,
        "the window's LCD differs from the screenshot"
    );
    let golden =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/frontend_window_lcd.png");
    if std::env::var_os("BLESS").is_some() {
        write_png(&golden, &region, w, h).unwrap();
        return;
    }
    let (want, gw, gh) = read_png(&golden).unwrap();
    assert_eq!((gw, gh), (w, h));
    assert!(
        want == region,
        "LCD region differs from {}",
        golden.display()
    );
}
