//! Golden screens of MANCALA on the built-in runtime: the main menu, the board at the start, a
//! capture and the end of a game. `BLESS=1` re-records the text-art files and also writes the
//! README's pictures (`docs/images/*.png`).

use mancala::{Position, Rules, XorShift};
use ti82_harness::{builtin_programs, press, settle, Table};
use ti82_machine::Key;

fn golden(name: &str, calc: &ti82_machine::Calc) {
    let screen = calc.lcd();
    let art = screen.to_text();
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/tests/golden/mancala_{name}.txt");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &art).expect("write golden");
        let (pixels, w, h) = ti82::render::lcd_image(&screen, 3);
        let png = format!("{root}/docs/images/mancala-{name}.png");
        std::fs::create_dir_all(format!("{root}/docs/images")).expect("images folder");
        ti82::render::write_png(std::path::Path::new(&png), &pixels, w, h).expect("write png");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {path}: run with BLESS=1"));
    assert!(
        expected == art,
        "{name} differs from {path} (BLESS=1 re-records):\n{art}"
    );
}

#[test]
fn main_menu_start_capture_and_end() {
    let programs = builtin_programs().expect("programs");
    let mut table = Table::new(&programs).expect("MANCALA starts");
    golden("menu", &table.calc);

    let rules = Rules::ti82(4).unwrap();
    table.play(&rules).expect("game starts");
    golden("start", &table.calc);

    // Random moves (fixed seed) until one captures; that board is the capture picture.
    let mut rng = XorShift::new(7);
    let mut pos = Position::new(rules);
    let mut captured = false;
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let house = legal[rng.below(legal.len())];
        let mover = pos.to_move();
        let outcome = pos.play(house).expect("legal move");
        let actual = table.make_move(mover, house).expect("keys").expect("moved");
        assert_eq!(actual.board, outcome.board.slots(), "after {outcome}");
        if !captured && !outcome.captures.is_empty() && !pos.is_over() {
            golden("capture", &table.calc);
            captured = true;
        }
    }
    assert!(captured, "the game had a capture");
    golden("end", &table.calc);
    press(&mut table.calc, Key::Enter);
    settle(&mut table.calc, 150, 10_000);
}
