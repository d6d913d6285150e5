//! The headless runner on a synthetic ROM: LCD text art, the text shadow, key scripts reaching
//! the keypad, the PNG size, and the same through the `ti82` binary.

#[path = "frontend_rom.rs"]
mod rom;

use std::process::Command;

use ti82::app::Machine;
use ti82::headless::Headless;
use ti82::render::read_png;

fn machine() -> Machine {
    rom::machine(rom::calc())
}

fn run(h: &Headless) -> String {
    let mut m = machine();
    let mut out = Vec::new();
    h.run(&mut m, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn print_lcd_shows_the_ramp() {
    let out = run(&Headless {
        wait_ms: 50,
        print_lcd: true,
        ..Headless::default()
    });
    assert_eq!(out, rom::expected_lcd());
}

#[test]
fn print_text_and_keys() {
    let up = run(&Headless {
        wait_ms: 20,
        print_text: true,
        ..Headless::default()
    });
    let lines: Vec<&str> = up.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0], "HI              ");
    assert_eq!(lines[1], " -              ");
    let held = run(&Headless {
        keys: Some("WAIT 10 HOLD ENTER".into()),
        wait_ms: 20,
        print_text: true,
        ..Headless::default()
    });
    assert_eq!(held.lines().nth(1), Some(" E              "));
    let released = run(&Headless {
        keys: Some("HOLD ENTER WAIT 10 RELEASE ENTER ENTER*2".into()),
        wait_ms: 20,
        print_text: true,
        ..Headless::default()
    });
    assert_eq!(released.lines().nth(1), Some(" -              "));
}

#[test]
fn bad_script_fails_before_running() {
    let mut m = machine();
    let e = Headless {
        keys: Some("ENTER FROB".into()),
        ..Headless::default()
    }
    .run(&mut m, &mut Vec::new())
    .unwrap_err();
    assert!(e.to_string().contains("FROB"), "{e}");
    assert_eq!(m.calc.now(), 0, "nothing ran");
}

#[test]
fn screenshot_png_size_and_pixels() {
    let dir = rom::temp_dir("shot");
    let p = dir.join("shot.png");
    run(&Headless {
        wait_ms: 50,
        screenshot: Some(p.clone()),
        scale: 3,
        ..Headless::default()
    });
    let (px, w, h) = read_png(&p).unwrap();
    assert_eq!((w, h), (288, 192));
    // Row 0 is 0x40 in every byte: pixel 1 dark, pixel 0 light, crisp 3×3 blocks.
    let dark = px[3];
    let light = px[0];
    assert_ne!(dark, light);
    assert_eq!(px[5 + 2 * w], dark);
    assert_eq!(px[6], light);
}

#[test]
fn binary_headless_end_to_end() {
    let dir = rom::temp_dir("bin");
    let rom_path = rom::write_rom(&dir);
    let shot = dir.join("out.png");
    let out = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args(["run", "--headless", "--rom"])
        .arg(&rom_path)
        .args([
            "--keys",
            "HOLD ENTER",
            "--wait-ms",
            "50",
            "--print-lcd",
            "--print-text",
        ])
        .args(["--scale", "2", "--screenshot"])
        .arg(&shot)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(&rom::expected_lcd()));
    assert!(text.ends_with("HI              \n E              \n                \n                \n                \n                \n                \n                \n"), "{text}");
    let (_, w, h) = read_png(&shot).unwrap();
    assert_eq!((w, h), (192, 128));
    // Headless runs never remember the ROM nor save a state.
    assert!(!dir.join("config.toml").exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

/// A dumper's padded image (TilEm accepts up to 2BFFFh bytes) runs as the 128 KiB ROM, and
/// the user is told what was ignored and that no OS version text was found (issue 17).
#[test]
fn a_padded_image_runs_and_the_padding_is_explained() {
    let dir = rom::temp_dir("padded");
    let path = dir.join("padded.rom");
    let mut bytes = rom::rom().bytes().to_vec();
    bytes.resize(0x2BFFF, 0);
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args(["run", "--headless", "--rom"])
        .arg(&path)
        .args(["--wait-ms", "50", "--print-lcd"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&rom::expected_lcd()));
    assert!(
        err.contains("padded.rom: the image has 49151 bytes after the 128 KiB ROM"),
        "{err}"
    );
    assert!(err.contains("no OS version text"), "{err}");
}

#[test]
fn binary_errors_and_exit_codes() {
    let dir = rom::temp_dir("codes");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ti82"))
            .env("TI82_HOME", &dir)
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["run", "--headless", "--rom", "no/such.rom"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such.rom"));
    let o = run(&["run", "--headless", "--no-rom", "--wait-ms", "100"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["--speed", "fast"]);
    assert_eq!(o.status.code(), Some(2));
    // --load reads the file (errors name it) before the loader hook refuses it.
    let rom_path = rom::write_rom(&dir);
    let prog = dir.join("HELLO.82p");
    let var = tifiles::Variable::program("HELLO", vec![0xDE, 0x2A, 0x48, 0x2A]).unwrap();
    tifiles::TiFile::new("test", vec![var])
        .write(&prog)
        .unwrap();
    let o = run(&[
        "run",
        "--headless",
        "--rom",
        rom_path.to_str().unwrap(),
        "--load",
        prog.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("HELLO.82p") && err.contains("HELLO") && err.contains("not implemented yet"),
        "{err}"
    );
    // On the built-in runtime --load puts it in memory and --run starts it.
    let o = run(&[
        "run",
        "--headless",
        "--no-rom",
        "--load",
        prog.to_str().unwrap(),
        "--run",
        "HELLO",
        "--wait-ms",
        "500",
        "--print-text",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("prgmHELLO") && text.contains("\nH    ") && text.contains("Done"),
        "{text}"
    );
    let bad = dir.join("bad.82p");
    std::fs::write(&bad, b"**TI82**garbage").unwrap();
    let o = run(&[
        "run",
        "--headless",
        "--rom",
        rom_path.to_str().unwrap(),
        "--load",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.82p"));
    let short = dir.join("short.rom");
    std::fs::write(&short, [0u8; 100]).unwrap();
    let o = run(&["run", "--headless", "--rom", short.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("truncated"));
}

/// `--print-screen` reads the glass, so it shows what no text shadow holds: the error screen
/// drawn over the home screen. The TI-82 Guidebook (error conditions, appendix B) describes the
/// screen as `ERR:` and the error's name on the first line, then the menu `1:Goto` `2:Quit`;
/// `1/0` is ERR:DIVIDE BY 0.
#[test]
fn print_screen_reads_the_glass_on_the_runtime() {
    let dir = rom::temp_dir("glass");
    let prog = dir.join("DIV.82p");
    // Disp "HI":1/0
    let var = tifiles::Variable::program(
        "DIV",
        vec![0xDE, 0x2A, 0x48, 0x49, 0x2A, 0x3E, 0x31, 0x83, 0x30],
    )
    .unwrap();
    tifiles::TiFile::new("test", vec![var])
        .write(&prog)
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ti82"))
        .env("TI82_HOME", &dir)
        .args(["run", "--headless", "--no-rom", "--load"])
        .arg(&prog)
        .args(["--run", "DIV", "--wait-ms", "500", "--print-screen"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[0], "ERR:DIVIDE BY 0 ", "{text}");
    assert_eq!(lines[1], "1:Goto          ", "{text}");
    assert_eq!(lines[2], "2:Quit          ", "{text}");
    assert!(lines[3..].iter().all(|l| l.trim().is_empty()), "{text}");
}
