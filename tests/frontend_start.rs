//! What a fresh calculator does by itself: the autostart rule (MANBOARD and MANCALA unless
//! `--run` or `--keys` says otherwise, `--mancala` to ask), and the waits that end when the
//! firmware says so (`script::Until`) instead of after a guessed emulated time.

#[path = "frontend_rom.rs"]
mod rom;

use std::process::Command;

use ti82::app::{autostarts, Machine, Setup, START_LIMIT_MS};
use ti82::cli::MachineArgs;
use ti82::script;
use ti82::script::Until;
use ti82::session::{make_calc, FirmwareChoice};
use ti82_machine::{Calc, RomImage, CLOCK_HZ};
use tibasic::firmware::BasicFirmware;
use tibasic::interp::{Status, Wait};

fn builtin_setup(name: &str) -> Setup {
    rom::setup(&rom::temp_dir(name), FirmwareChoice::Builtin)
}

fn firmware(calc: &Calc) -> &BasicFirmware {
    calc.firmware()
        .as_any()
        .downcast_ref::<BasicFirmware>()
        .expect("the built-in runtime")
}

/// The number of items of the `Menu(` the program waits in, if it waits in one.
fn menu_items(calc: &Calc) -> Option<usize> {
    match firmware(calc).status() {
        Status::Waiting(Wait::Menu { items, .. }) => Some(items.len()),
        _ => None,
    }
}

fn ti82(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ti82"))
        .args(args)
        .env("TI82_HOME", home)
        .output()
        .unwrap()
}

#[test]
fn the_rule() {
    let plain = MachineArgs::default();
    assert!(autostarts(&plain, false), "nothing asked: MANCALA");
    assert!(
        !autostarts(&plain, true),
        "a key script starts at the home screen"
    );
    let run = MachineArgs {
        run: Some("X".into()),
        ..MachineArgs::default()
    };
    assert!(
        !autostarts(&run, false),
        "--run starts that program instead"
    );
    let asked = MachineArgs {
        mancala: true,
        ..MachineArgs::default()
    };
    assert!(autostarts(&asked, true), "--mancala with --keys");
}

#[test]
fn a_key_script_starts_at_the_home_screen() {
    // The README's first headless example.
    let home = rom::temp_dir("start-2plus2");
    let out = ti82(
        &home,
        &["run", "--headless", "--keys", "2 + 2 ENTER", "--print-text"],
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "2+2             ", "{text}");
    assert_eq!(lines[1], "               4", "{text}");
}

#[test]
fn without_keys_mancala_starts_and_the_wait_ends_at_its_menu() {
    let setup = builtin_setup("start-mancala");
    let mut m = Machine::start(&setup, &MachineArgs::default(), false).unwrap();
    m.run_queue().unwrap();
    assert!(m.messages.is_empty(), "no wait ran out: {:?}", m.messages);
    assert_eq!(menu_items(&m.calc), Some(4), "MAIN MENU: PLAY ... QUIT");
    // The queue ended at the menu, not after a fixed time: within one poll (10 ms) of the
    // menu plus the taps that started the programs.
    let t = m.calc.now();
    assert!(t < START_LIMIT_MS * (CLOCK_HZ / 1000), "{t}");
    eprintln!(
        "MANCALA's main menu waits for a key at {} emulated ms",
        t / (CLOCK_HZ / 1000)
    );
    // The same through the binary: the home screen's text shows MANCALA was started.
    let home = rom::temp_dir("start-mancala-bin");
    let out = ti82(&home, &["run", "--headless", "--print-text"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("prgmMANCALA"), "{text}");
}

#[test]
fn mancala_with_keys_plays_them_in_its_menu() {
    let setup = builtin_setup("start-mancala-keys");
    let args = MachineArgs {
        mancala: true,
        ..MachineArgs::default()
    };
    let mut m = Machine::start_scripted(&setup, &args, false, true).unwrap();
    // 2: PLAYER OPTIONS (three items), reached only if the key came after the main menu.
    m.player.push(&script::parse("2").unwrap());
    m.run_queue().unwrap();
    assert_eq!(menu_items(&m.calc), Some(3));
    // The binary: --mancala --keys "2" ENTERs nothing on the home screen.
    let home = rom::temp_dir("start-mancala-keys-bin");
    let out = ti82(
        &home,
        &[
            "run",
            "--headless",
            "--mancala",
            "--keys",
            "2",
            "--print-text",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("prgmMANCALA"));
}

#[test]
fn run_starts_only_that_program() {
    let setup = builtin_setup("start-run");
    let args = MachineArgs {
        run: Some("MANBOARD".into()),
        ..MachineArgs::default()
    };
    let mut m = Machine::start(&setup, &args, false).unwrap();
    m.player.push_until(Until::ProgramDone, START_LIMIT_MS);
    m.run_queue().unwrap();
    assert!(m.messages.is_empty(), "{:?}", m.messages);
    assert_eq!(menu_items(&m.calc), None, "MANCALA was not started");
    assert!(ti82::render::text_shadow(m.calc.ram())[0].starts_with("prgmMANBOARD"));
}

#[test]
fn a_program_that_never_ends_gives_up_with_a_message() {
    let mut calc = make_calc(&FirmwareChoice::Builtin).unwrap().calc;
    let tokens = tifiles::tokens::tokenize_source("While 1\nEnd").unwrap();
    let var = tibasic::firmware::program_var("LOOP", tokens).unwrap();
    tibasic::firmware::install(calc.ram_mut(), &[var]).unwrap();
    let mut m = rom::machine(calc);
    m.player.push_run("LOOP");
    m.player.push_until(Until::ProgramDone, 2_000);
    m.run_queue().unwrap();
    assert!(firmware(&m.calc).program_active());
    assert!(
        m.messages.iter().any(|s| s.contains("gave up waiting")),
        "{:?}",
        m.messages
    );
    let t = m.calc.now();
    assert!((2 * CLOCK_HZ..3 * CLOCK_HZ).contains(&t), "{t}");
}

#[test]
fn a_rom_waits_for_a_key_when_halted_with_interrupts_on() {
    // crates/machine/tests/roms/idle.asm: the timer interrupt on, HALT forever.
    let idle = RomImage::from_program(include_bytes!("../crates/machine/tests/roms/idle.bin"));
    let mut calc = Calc::from_rom(idle);
    assert!(!Until::KeyWait.holds(&calc), "not yet booted");
    calc.run_for(CLOCK_HZ / 100);
    assert!(Until::KeyWait.holds(&calc));
    // The synthetic ROM of frontend_rom.rs polls the keypad with interrupts off: never.
    let mut busy = rom::calc();
    busy.run_for(CLOCK_HZ / 10);
    assert!(!Until::KeyWait.holds(&busy));
    assert!(!Until::Halted.holds(&busy));
    // HALTED: at rest, whatever the power bit (onkey.asm powers off after an ON press).
    let onkey = RomImage::from_program(include_bytes!("../crates/machine/tests/roms/onkey.bin"));
    let mut calc = Calc::from_rom(onkey);
    calc.run_for(CLOCK_HZ / 100);
    assert!(Until::Halted.holds(&calc));
    calc.set_on(true);
    calc.run_for(CLOCK_HZ / 10);
    calc.set_on(false);
    calc.run_for(CLOCK_HZ / 10);
    assert!(calc.hardware().powered_down());
    assert!(Until::Halted.holds(&calc) && !Until::KeyWait.holds(&calc));
}

#[test]
fn the_f1_help_states_the_rule_and_fits_the_window() {
    use ti82::app::AUTOSTART_HELP;
    let text = AUTOSTART_HELP.join(" ");
    for word in ["MANBOARD", "MANCALA", "--run", "--keys", "--mancala"] {
        assert!(text.contains(word), "{text}");
    }
    // The window's whole F1 help, the rule included, shows at the default scale and above.
    let keymap = ti82::keymap::KeyMap::default();
    let lines = ti82::gui::help_lines("TI-82 (A)", &keymap);
    assert!(lines.iter().any(|l| l == AUTOSTART_HELP[0]));
    for scale in ti82::WINDOW_SCALE..=8 {
        let l = ti82::skin::Layout::new(scale as usize);
        let rows = ti82::skin::help_rows(&l, &lines);
        assert!(
            rows.len() <= ti82::skin::help_capacity(&l),
            "scale {scale}: {} rows, room for {}",
            rows.len(),
            ti82::skin::help_capacity(&l)
        );
    }
}

#[test]
fn script_words_ready_and_done_wait_on_the_firmware() {
    use ti82::script::{parse, Step};
    assert_eq!(
        parse("ready DONE").unwrap(),
        [Step::Until(Until::KeyWait), Step::Until(Until::ProgramDone)]
    );
    // A bound of its own needs the `ms` (a bare number is digit keys); HALTED waits for rest.
    assert_eq!(
        parse("HALTED READY 2000ms DONE 5").unwrap(),
        [
            Step::Until(Until::Halted),
            Step::UntilWithin(Until::KeyWait, 2000),
            Step::Until(Until::ProgramDone),
            Step::Tap(ti82::script::Button::Key(ti82_machine::Key::K5)),
        ]
    );
    let e = parse("READY 3600000ms").unwrap_err();
    assert!(e.message.contains("limit"), "{e}");
    // PRGM ENTER ENTER starts MANBOARD (first in the EXEC list); DONE waits for its end,
    // which a fixed WAIT could only guess.
    let setup = builtin_setup("start-done");
    let mut m = Machine::start_scripted(&setup, &MachineArgs::default(), false, true).unwrap();
    m.player.push(&parse("PRGM ENTER ENTER").unwrap());
    m.run_queue().unwrap();
    assert!(firmware(&m.calc).program_active(), "MANBOARD runs");
    let started = m.calc.now();
    m.player.push(&parse("DONE").unwrap());
    m.run_queue().unwrap();
    assert!(!firmware(&m.calc).program_active(), "MANBOARD has ended");
    eprintln!(
        "MANBOARD ran {} emulated ms after the keys",
        (m.calc.now() - started) / 6_000
    );
    assert!(m.messages.is_empty(), "{:?}", m.messages);
    // READY after starting MANCALA: its main menu.
    m.player
        .push(&parse("CLEAR PRGM DOWN ENTER ENTER READY").unwrap());
    m.run_queue().unwrap();
    assert_eq!(menu_items(&m.calc), Some(4));
}
