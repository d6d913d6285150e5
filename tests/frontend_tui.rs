//! The terminal renderer against golden text, and terminal key mapping.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ti82::keymap::{Command, KeyMap};
use ti82::script::{Button, Step};
use ti82::tui::{frame_lines, map_event, TermAction};
use ti82_machine::{Key, Screen};

/// A known image: a frame, a diagonal, a checkerboard block and one lone pixel.
fn image() -> Screen {
    let mut bits = vec![false; 96 * 64];
    for y in 0..64 {
        for x in 0..96 {
            let frame = x == 0 || y == 0 || x == 95 || y == 63;
            let diag = x == y;
            let check = (70..94).contains(&x) && (4..28).contains(&y) && (x / 3 + y / 3) % 2 == 0;
            let lone = x == 50 && y == 40;
            bits[y * 96 + x] = frame || diag || check || lone;
        }
    }
    let shades = bits.iter().map(|&b| if b { 255 } else { 0 }).collect();
    Screen { bits, shades }
}

/// Compares with `tests/golden/NAME`; `BLESS=1` rewrites it.
fn golden(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (record with BLESS=1)", path.display()));
    assert!(want == text, "differs from {}:\n{text}", path.display());
}

#[test]
fn braille_golden() {
    let lines = frame_lines(&image(), false);
    assert_eq!(lines.len(), 18);
    assert!(lines.iter().all(|l| l.chars().count() == 50));
    golden("frontend_braille.txt", &(lines.join("\n") + "\n"));
}

#[test]
fn half_blocks_golden() {
    let lines = frame_lines(&image(), true);
    assert_eq!(lines.len(), 34);
    assert!(lines.iter().all(|l| l.chars().count() == 98));
    golden("frontend_blocks.txt", &(lines.join("\n") + "\n"));
}

fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, m)
}

#[test]
fn terminal_keys() {
    let km = KeyMap::default();
    let tap = |k: Key| TermAction::Steps(vec![Step::Tap(Button::Key(k))]);
    let none = KeyModifiers::NONE;
    assert_eq!(map_event(&km, &ev(KeyCode::Enter, none)), tap(Key::Enter));
    assert_eq!(map_event(&km, &ev(KeyCode::Char('7'), none)), tap(Key::K7));
    assert_eq!(map_event(&km, &ev(KeyCode::Char('+'), none)), tap(Key::Add));
    assert_eq!(
        map_event(&km, &ev(KeyCode::Char('p'), none)),
        tap(Key::Prgm)
    );
    assert_eq!(map_event(&km, &ev(KeyCode::Tab, none)), tap(Key::Second));
    assert_eq!(
        map_event(&km, &ev(KeyCode::Char('A'), KeyModifiers::SHIFT)),
        TermAction::Steps(vec![
            Step::Tap(Button::Key(Key::Alpha)),
            Step::Tap(Button::Key(Key::Math))
        ])
    );
    assert_eq!(
        map_event(&km, &ev(KeyCode::F(12), none)),
        TermAction::Steps(vec![Step::Tap(Button::On)])
    );
    assert_eq!(
        map_event(&km, &ev(KeyCode::F(1), none)),
        TermAction::Command(Command::Help)
    );
    assert_eq!(
        map_event(&km, &ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        TermAction::Command(Command::Quit)
    );
    assert_eq!(
        map_event(&km, &ev(KeyCode::Char('§'), none)),
        TermAction::None
    );
}
