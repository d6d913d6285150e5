//! The window: opens a real window (needs a display; CI runs it under Xvfb), runs a few
//! frames of the synthetic ROM and compares the LCD region of the window's picture with a
//! golden PNG (`BLESS=1` rewrites it). Without DISPLAY it says so and passes.

#[path = "frontend_rom.rs"]
mod rom;

use std::path::PathBuf;

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
    let m = rom::machine(rom::calc());
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

/// The skin's size at scales 1-4, and that the default window fits a 1366 × 768 laptop
/// screen with room for a panel and the title bar (80 pixels) with every key inside.
#[test]
fn window_size_at_scales_1_to_4() {
    use ti82::skin::Layout;
    let sizes: Vec<(usize, usize)> = (1..=4)
        .map(|s| {
            let l = Layout::new(s);
            for k in &l.keys {
                assert!(
                    k.x + k.w <= l.width && k.y + k.h <= l.height,
                    "scale {s}: {k:?}"
                );
            }
            (l.width, l.height)
        })
        .collect();
    assert_eq!(sizes, [(124, 349), (220, 413), (324, 485), (440, 826)]);
    let l = Layout::new(ti82::WINDOW_SCALE as usize);
    assert!(
        l.width <= 1366 && l.height <= 768 - 80,
        "{}x{}",
        l.width,
        l.height
    );
    // HiDPI: the host's scale factor multiplies the default (GDK_SCALE).
    assert_eq!(ti82::host_scale_from(Some("2")), 2);
    assert_eq!(ti82::host_scale_from(Some("x")), 1);
    assert_eq!(ti82::host_scale_from(Some("9")), 1);
    assert_eq!(ti82::host_scale_from(None), 1);
    // Without GDK_SCALE, the X resource Xft.dpi over 96 (KDE and Xfce set 192 on a HiDPI
    // screen, 144 for one and a half).
    let x = |s: &str| ti82::scale_from_xresources(s);
    assert_eq!(x("Xft.antialias:\t1\nXft.dpi:\t192\n"), Some(2));
    assert_eq!(x("Xft.dpi: 96"), Some(1));
    assert_eq!(x("Xft.dpi:\t144"), Some(2));
    assert_eq!(x("Xft.dpi:\t120"), Some(1));
    assert_eq!(x("Xft.dpi:\t1000"), Some(4));
    assert_eq!(x("Xft.dpi:\tNaN"), None);
    assert_eq!(x("Xft.dpi:\t-3"), None);
    assert_eq!(x("*background: black"), None);
    assert_eq!(ti82::default_window_scale(1), ti82::WINDOW_SCALE);
    assert_eq!(ti82::default_window_scale(2), 2 * ti82::WINDOW_SCALE);
}

/// A resized window: the skin stretched with its shape kept, centred; clicks map back.
#[test]
fn clicks_in_a_resized_window_find_their_key() {
    use ti82::skin::{window_to_skin, Layout};
    let l = Layout::new(3);
    let (w, h) = (l.width, l.height);
    assert_eq!(window_to_skin(&l, (w, h), (10.0, 20.0)), Some((10, 20)));
    // Twice as large: half the coordinates.
    assert_eq!(
        window_to_skin(&l, (2 * w, 2 * h), (20.0, 40.0)),
        Some((10, 20))
    );
    // Twice as wide, same height: bars of w/2 on each side.
    let wide = (2 * w, h);
    assert_eq!(window_to_skin(&l, wide, (5.0, 5.0)), None);
    assert_eq!(
        window_to_skin(&l, wide, (w as f32 / 2.0 + 10.0, 20.0)),
        Some((10, 20))
    );
    let k = l.keys[0];
    let centre = (k.x + k.w / 2, k.y + k.h / 2);
    let at = window_to_skin(
        &l,
        (2 * w, 2 * h),
        (2.0 * centre.0 as f32, 2.0 * centre.1 as f32),
    );
    assert_eq!(at.and_then(|(x, y)| l.key_at(x, y)), Some(k.button));
}

fn ti82_without_display(args: &[&str], home: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ti82"))
        .args(args)
        .env("TI82_HOME", home)
        .env_remove("DISPLAY")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn without_display_or_terminal_it_says_what_to_do() {
    let home = rom::temp_dir("no-tty");
    for args in [&[][..], &["--tui"][..], &["run"][..]] {
        let out = ti82_without_display(args, &home);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("ti82 run --headless"), "{err}");
        assert!(!err.contains("raw mode"), "{err}");
    }
    // Nothing ran, so nothing was saved.
    let saved: Vec<_> = std::fs::read_dir(&home).unwrap().flatten().collect();
    assert!(saved.is_empty(), "{saved:?}");
}

#[test]
fn pair_refuses_link() {
    let home = rom::temp_dir("pair-link");
    for link in [&["--link", "bot"][..], &["--link", "listen", "5000"][..]] {
        let mut args = vec!["--pair"];
        args.extend_from_slice(link);
        let out = ti82_without_display(&args, &home);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("--pair") && err.contains("takes no --link"),
            "{err}"
        );
    }
    // Without a display --pair says it needs one.
    let out = ti82_without_display(&["--pair"], &home);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pair needs two windows"));
}

/// At rest the window is not drawn again (an idle window costs almost nothing:
/// `cargo xtask bench-idle-window`), and a key pressed on the calculator is drawn in the very
/// next frame.
#[test]
fn an_unchanged_frame_is_not_drawn_again_and_a_key_press_is() {
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        eprintln!("skipped: no DISPLAY (run under Xvfb to test the window)");
        return;
    }
    let m = rom::machine(rom::calc());
    let mut view = View::open("ti82 idle test", m, 1).unwrap();
    let keymap = KeyMap::default();
    let mut pacer = Pacer::new(Speed::Real);
    for _ in 0..5 {
        view.machine.advance(FRAME_T).unwrap();
        view.draw(&keymap, &mut pacer).unwrap();
    }
    // The same frame again: nothing drawn (the status line's speed may settle first).
    let mut drawn = view.frames_drawn;
    for _ in 0..20 {
        view.draw(&keymap, &mut pacer).unwrap();
        if view.frames_drawn == drawn {
            break;
        }
        drawn = view.frames_drawn;
    }
    for _ in 0..5 {
        view.draw(&keymap, &mut pacer).unwrap();
    }
    assert_eq!(
        view.frames_drawn, drawn,
        "an unchanged frame was drawn again"
    );
    // A key held down on the calculator shows pressed in the next frame.
    let now = std::time::Instant::now();
    let calc = &mut view.machine.calc;
    view.machine.holds.update(
        calc,
        &[ti82::script::Button::Key(ti82_machine::Key::Enter)],
        now,
        1.0,
    );
    view.draw(&keymap, &mut pacer).unwrap();
    assert_eq!(view.frames_drawn, drawn + 1, "the key press was not drawn");
}
