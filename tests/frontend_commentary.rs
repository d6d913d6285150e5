//! The status line's Mancala commentary, on by default: a fresh built-in calculator plays a
//! move of MANCALA through queued keys and the status line explains it; the evaluation key
//! adds the engine's evaluation; the key map binds it to F11.

#[path = "frontend_rom.rs"]
mod rom;

use ti82::app::Machine;
use ti82::keymap::{Binding, Command, KeyMap};
use ti82::pacing::{Pacer, Speed};
use ti82::script::{self, Step};
use ti82::session::{make_calc, FirmwareChoice};

const MS_T: u64 = 6_000;

fn status(m: &mut Machine) -> String {
    m.status_line(&mut Pacer::new(Speed::Real))
}

#[test]
fn status_line_follows_a_mancala_game() {
    let calc = make_calc(&FirmwareChoice::Builtin).unwrap().calc;
    let mut m = rom::machine(calc);
    assert!(m.commentary.is_some(), "on by default");
    m.player.push(&[Step::Wait(100)]);
    m.push_mancala();
    m.run_queue().unwrap();
    let s = status(&mut m);
    assert!(s.ends_with(" | link: none"), "no game, no commentary: {s}");
    // PLAY, then ENTER plays player 1's first hole: 4 rocks into holes 2-5.
    m.player.push(&script::parse("1 WAIT 2000").unwrap());
    m.run_queue().unwrap();
    let s = status(&mut m);
    assert!(
        s.ends_with(" | new game, 4 rocks a hole | P1 to move"),
        "{s}"
    );
    m.player.push(&script::parse("ENTER WAIT 2000").unwrap());
    m.run_queue().unwrap();
    let s = status(&mut m);
    assert!(s.ends_with(" | P1 plays 1 | score 0-0"), "{s}");
    assert_eq!(
        m.toggle_eval(),
        "engine evaluation on (2000000 nodes a position)"
    );
    let s = status(&mut m);
    assert!(s.contains(" | P1 plays 1 | score 0-0 | eval P2 "), "{s}");
    m.advance(100 * MS_T).unwrap();
    assert_eq!(m.toggle_eval(), "engine evaluation off");
    let s = status(&mut m);
    assert!(s.ends_with(" | P1 plays 1 | score 0-0"), "{s}");
}

#[test]
fn eval_key_is_f11_and_can_be_moved() {
    let mut km = KeyMap::default();
    assert_eq!(km.binding("F11"), Some(Binding::Command(Command::Eval)));
    assert!(km
        .help_lines()
        .iter()
        .any(|l| l.contains("F11") && l.contains("evaluation")));
    let keys = [
        ("F11".to_string(), "none".to_string()),
        ("End".to_string(), "eval".to_string()),
    ]
    .into_iter()
    .collect();
    km.apply(&keys, &Default::default()).unwrap();
    assert_eq!(km.binding("F11"), None);
    assert_eq!(km.binding("End"), Some(Binding::Command(Command::Eval)));
}
