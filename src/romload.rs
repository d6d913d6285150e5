//! Putting MANBOARD and MANCALA into a calculator that runs a ROM, the way a computer does:
//! the keys that put a TI-82 in LINK RECEIVE, then a virtual computer on the calculator's cable
//! sends the programs with the real protocol and bit timing (`tilink::SendVars`, spec
//! ti82-software.md 1.7.1), then the keys that leave the RECEIVE screen.
//!
//! The key sequences are data ([`LoaderKeys`], key scripts in the syntax of
//! [`crate::script`]), so they can be changed in one place once checked against a real ROM.

use anyhow::{anyhow, bail, Context, Result};
use ti82_machine::cable::DEFAULT_LATENCY;
use ti82_machine::{Calc, FRAME_T};
use tifiles::Variable;
use tilink::transport::T_PER_SECOND;
use tilink::{Progress, SendReport, SendVars, Timing, VirtualCable, Wake, MID_COMPUTER};

use crate::script::{self, Player};
use crate::session::FirmwareChoice;

/// The key scripts of the loader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoaderKeys {
    /// A calculator that has just been powered up (no saved state): the cold boot of spec
    /// ti82-hardware.md 2.6: once the ROM rests in HALT, hold ON for half a second (a human
    /// press), release it, and go on once the OS waits for a key.
    pub boot: &'static str,
    /// From wherever it is to LINK › RECEIVE › 1:Receive (spec ti82-software.md 1.7.1): 2nd
    /// QUIT (2nd MODE) to the home screen, CLEAR, 2nd LINK (2nd X,T,θ), ► to the RECEIVE
    /// menu, ENTER on `1:Receive`. No wait follows: the computer's first bit stays on the
    /// wire until the calculator takes it (up to the 2 s of a handshake step, spec 2.3), so the
    /// transfer starts as soon as the calculator listens.
    pub receive: &'static str,
    /// After the transfer, once the calculator waits for a key again: 2nd QUIT leaves the
    /// RECEIVE screen for the home screen, CLEAR empties its entry line.
    pub leave: &'static str,
}

/// The TI-82 key sequences (the menu layout is the spec's, and the built-in runtime's LINK
/// menu follows it: `tests/frontend_romload.rs` loads through these keys into a built-in
/// calculator; the real-ROM test there checks them when `TI82_ROM` is set). Every wait is a
/// condition on the calculator (`HALTED`, `READY`, see `crate::script::Until`) with a bound for
/// a ROM that never rests in HALT ([U]: TI-OS idles in HALT between timer interrupts, not
/// checked on a real ROM here).
pub const TI82_KEYS: LoaderKeys = LoaderKeys {
    boot: "HALTED 2000ms HOLD ON WAIT 500 RELEASE ON READY 2000ms",
    receive: "2nd MODE CLEAR 2nd X,T,THETA RIGHT ENTER",
    leave: "READY 2000ms 2nd MODE CLEAR READY 2000ms",
};

/// The longest the whole transfer may take, in emulated seconds (MANBOARD and MANCALA, 2.2 KB,
/// take about 2 s on the wires). Every reply inside it has its own 2 s timeout
/// (`tilink::Timing`); this bounds the one wait without one, the receiver's CTS.
pub const SEND_TIMEOUT_S: u64 = 30;

/// What the user is told once the programs are in.
pub const HINT: &str =
    "MANBOARD and MANCALA were sent to the calculator: press PRGM to run MANCALA";

/// The programs the loader puts in: MANBOARD and MANCALA, our own TI-BASIC (`programs/`).
pub fn programs() -> Result<Vec<Variable>> {
    Ok(ti82_harness::builtin_programs()?)
}

/// Whether the calculator's RAM lacks any of `vars` (by name, read from the VAT; a RAM whose
/// VAT cannot be read lacks them all).
pub fn missing(calc: &Calc, vars: &[Variable]) -> bool {
    let names = tibasic::firmware::program_names(calc.ram());
    vars.iter()
        .any(|v| !names.iter().any(|n| n.as_slice() == v.name.bytes()))
}

/// Plays a key script on the calculator (taps expanded, emulated time only).
pub fn play_keys(calc: &mut Calc, keys: &str) -> Result<()> {
    let steps = script::parse(keys).map_err(|e| anyhow!("loader key script {keys:?}: {e}"))?;
    let mut player = Player::default();
    player.push(&steps);
    player.run(calc)
}

/// The computer's side of a transfer driven until `until` (its result into `out` when it
/// ends).
fn run_sender(
    pc: &mut VirtualCable,
    calc: &mut Calc,
    until: u64,
    send: &mut SendVars,
    out: &mut Option<Result<SendReport, tilink::LinkError>>,
) {
    pc.run(calc, until, |ep| match send.poll(ep) {
        Progress::Pending(w) => w,
        Progress::Done(r) => {
            out.get_or_insert(r);
            Wake::NEVER
        }
    });
}

/// The computer unplugged from `calc`; a transfer that did not end (`done` false) gives up
/// first, releasing its lines.
fn unplug_sender(mut pc: VirtualCable, calc: &mut Calc, send: &mut SendVars, done: bool) {
    if !done {
        let now = pc.now();
        let mut ep = tilink::TimedPort::new(pc.port(), now);
        send.cancel(&mut ep);
    }
    pc.detach(calc);
}

/// Sends `vars` to the calculator as a computer would (machine ID 02h, real bit timing on a
/// virtual cable attached to its link port), stepping the calculator, for at most
/// `timeout_s` emulated seconds. The calculator must be receiving.
pub fn send_vars(calc: &mut Calc, vars: &[Variable], timeout_s: u64) -> Result<SendReport> {
    let mut send = SendVars::new(MID_COMPUTER, Timing::default(), vars);
    let mut pc = VirtualCable::attach(calc, DEFAULT_LATENCY);
    let limit = calc
        .now()
        .saturating_add(timeout_s.saturating_mul(T_PER_SECOND));
    let mut out = None;
    while out.is_none() && calc.now() < limit {
        let until = (calc.now() + FRAME_T).min(limit);
        run_sender(&mut pc, calc, until, &mut send, &mut out);
    }
    unplug_sender(pc, calc, &mut send, out.is_some());
    match out {
        None => bail!(
            "the calculator did not answer on the link: no end to the transfer after \
             {timeout_s} emulated seconds (is it in LINK RECEIVE?)"
        ),
        Some(Err(e)) => Err(anyhow!("the calculator did not answer on the link: {e}")),
        Some(Ok(report)) if !report.skipped.is_empty() => {
            let names: Vec<String> = report
                .skipped
                .iter()
                .map(|&i| vars[i].display_name())
                .collect();
            bail!(
                "the calculator refused {} on the link (no room, or the user chose Omit)",
                names.join(", ")
            )
        }
        Some(Ok(report)) => Ok(report),
    }
}

/// The key that answers `1:Continue` on the TI-82's `WARNING-Backup` screen (spec 1.7.4: a
/// backup is taken only after the user confirms; the built-in runtime's screen,
/// docs/calculator.md "LINK"). [U] on a real ROM: the item's number is recalled, not checked.
pub const BACKUP_CONTINUE: &str = "1";

/// After the calculator takes a backup's header, the longest the loader waits for it to wait
/// for a key (the warning drawn) before pressing [`BACKUP_CONTINUE`] anyway, in emulated ms.
pub const BACKUP_WARNING_WAIT_MS: u64 = 2_000;

/// Sends a memory backup to a calculator as a computer would (spec 1.7.4): the keys that put
/// it in LINK RECEIVE, the backup's header, `1` on its `WARNING-Backup` once the sender waits
/// for the calculator's answer and the calculator waits for a key (or after
/// [`BACKUP_WARNING_WAIT_MS`]), the three sections, then the keys that leave the RECEIVE
/// screen. The calculator must be on.
pub fn send_backup(calc: &mut Calc, b: &tifiles::Backup, keys: &LoaderKeys) -> Result<()> {
    send_backup_answering(calc, b, keys, BACKUP_CONTINUE)
}

/// [`send_backup`] answering the warning with the key named `answer`.
pub fn send_backup_answering(
    calc: &mut Calc,
    b: &tifiles::Backup,
    keys: &LoaderKeys,
    answer: &str,
) -> Result<()> {
    let confirm =
        ti82_machine::Key::from_name(answer).ok_or_else(|| anyhow!("no key named {answer:?}"))?;
    play_keys(calc, keys.receive)?;
    let mut send = SendVars::backup(MID_COMPUTER, Timing::default(), b);
    let mut pc = VirtualCable::attach(calc, DEFAULT_LATENCY);
    let limit = calc
        .now()
        .saturating_add(SEND_TIMEOUT_S.saturating_mul(T_PER_SECOND));
    let step = script::ms_to_t(10);
    let mut out = None;
    // When the header was taken, and when the key went down (and whether it is up again).
    let mut asked: Option<u64> = None;
    let mut pressed: Option<u64> = None;
    let mut released = false;
    while out.is_none() && calc.now() < limit {
        let until = (calc.now() + step).min(limit);
        run_sender(&mut pc, calc, until, &mut send, &mut out);
        let now = calc.now();
        if send.awaiting_decision() && pressed.is_none() {
            let since = *asked.get_or_insert(now);
            let waited = now.saturating_sub(since) >= script::ms_to_t(BACKUP_WARNING_WAIT_MS);
            if script::Until::KeyWait.holds(calc) || waited {
                calc.press(confirm);
                pressed = Some(now);
            }
        }
        if let (Some(t), false) = (pressed, released) {
            if now.saturating_sub(t) >= script::ms_to_t(script::HUMAN_PRESS_MS) {
                calc.release(confirm);
                released = true;
            }
        }
    }
    if let (Some(_), false) = (pressed, released) {
        calc.release(confirm);
    }
    unplug_sender(pc, calc, &mut send, out.is_some());
    match out {
        None => bail!(
            "the calculator did not take the backup on the link: no end to the transfer after \
             {SEND_TIMEOUT_S} emulated seconds (is it in LINK RECEIVE?)"
        ),
        Some(Err(e)) => bail!("the calculator did not take the backup on the link: {e}"),
        Some(Ok(_)) => {}
    }
    play_keys(calc, keys.leave)
}

/// What [`load_programs`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// The programs were already in the calculator's RAM: nothing sent.
    AlreadyThere,
    /// Sent; the message for the user.
    Sent(String),
}

/// The loader: unless `vars` are all in the VAT already, boots the calculator if it has never
/// run (`calc.now() == 0`), puts it in LINK RECEIVE, sends `vars`, and leaves the RECEIVE
/// screen.
pub fn load_programs(calc: &mut Calc, vars: &[Variable], keys: &LoaderKeys) -> Result<Loaded> {
    if !missing(calc, vars) {
        return Ok(Loaded::AlreadyThere);
    }
    if calc.now() == 0 {
        play_keys(calc, keys.boot).context("booting the ROM")?;
    }
    play_keys(calc, keys.receive)?;
    send_vars(calc, vars, SEND_TIMEOUT_S)?;
    play_keys(calc, keys.leave)?;
    Ok(Loaded::Sent(HINT.to_string()))
}

/// With a TI-OS ROM (`made.os` known) and unless `--no-send`: sends MANBOARD and MANCALA over
/// the link when they are not in the calculator yet. Returns a message
/// for the user, if any.
pub fn send_programs(
    calc: &mut Calc,
    os: Option<&str>,
    choice: &FirmwareChoice,
    no_send: bool,
) -> Result<Option<String>> {
    if no_send || !matches!(choice, FirmwareChoice::Rom(_)) {
        return Ok(None);
    }
    let Some(_) = os else {
        return Ok(Some(
            "the ROM image has no TI-OS version text: MANBOARD and MANCALA were not sent \
             (--no-send silences this)"
                .into(),
        ));
    };
    let vars = programs()?;
    match load_programs(calc, &vars, &TI82_KEYS)
        .context("sending MANBOARD and MANCALA to the ROM calculator (--no-send skips it)")?
    {
        Loaded::AlreadyThere => Ok(None),
        Loaded::Sent(hint) => Ok(Some(hint)),
    }
}

/// A calculator booted from the ROM image at `path` with `vars` sent to it over the link (for
/// `ti82 conformance --rom`). An image without the TI-OS version text is refused: the loader's
/// key presses are for the TI-82's own menus.
pub fn rom_calc_with(path: &std::path::Path, vars: &[Variable]) -> Result<Calc> {
    let made = crate::session::make_calc(&FirmwareChoice::Rom(path.to_path_buf()))?;
    if made.os.is_none() {
        bail!(
            "{}: no TI-OS version text found in the image, so it cannot be driven through \
             the TI-82's menus",
            path.display()
        );
    }
    let mut calc = made.calc;
    load_programs(&mut calc, vars, &TI82_KEYS)
        .with_context(|| format!("{}: sending the programs over the link", path.display()))?;
    Ok(calc)
}
