//! What every front end shares: choosing the firmware, starting the calculator (state, files,
//! cable, recorders), running it in chunks while playing queued keys, the status line, and
//! shutting down (recordings closed, state saved).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use ti82_machine::{Calc, FRAME_T};

use crate::botlink::{bot_level, BotLink};
use crate::capture::{write_link_log, GifRecorder, WavRecorder};
use crate::cli::MachineArgs;
use crate::config::{ConfigFile, Paths};
use crate::keymap::KeyMap;
use crate::pacing::Pacer;
use crate::pacing::Speed;
use crate::render::{lcd_image, write_png};
use crate::script::{KeyHolds, Player, Until};
use crate::session::{self, FirmwareChoice};
use netlink::NetCable;

/// Config, key map and firmware choice for a run.
pub struct Setup {
    pub paths: Paths,
    pub config: ConfigFile,
    pub keymap: KeyMap,
    pub choice: FirmwareChoice,
    /// Things to tell the user (the ROM was remembered, ...).
    pub notes: Vec<String>,
}

impl Setup {
    /// Reads the config and picks the firmware. `interactive`: use and update the remembered
    /// ROM (headless runs use only `--rom`, so scripts do not depend on the config).
    pub fn new(m: &MachineArgs, interactive: bool) -> Result<Setup> {
        let paths = Paths::locate()?;
        Self::with_paths(paths, m, interactive)
    }

    pub fn with_paths(paths: Paths, m: &MachineArgs, interactive: bool) -> Result<Setup> {
        let mut config = ConfigFile::load(&paths.config_file)?;
        let keymap = config.keymap(&paths.config_file)?;
        let mut notes = Vec::new();
        let choice = if let Some(rom) = &m.rom {
            let abs = std::fs::canonicalize(rom)
                .with_context(|| format!("{}: cannot open ROM image", rom.display()))?;
            if interactive && config.rom.as_deref() != Some(abs.as_path()) {
                config.rom = Some(abs.clone());
                match config.save(&paths.config_file) {
                    Ok(()) => notes.push(format!(
                        "remembered the ROM in {} (--no-rom forgets it)",
                        paths.config_file.display()
                    )),
                    Err(e) => notes.push(format!("could not remember the ROM: {e:#}")),
                }
            }
            FirmwareChoice::Rom(abs)
        } else if m.no_rom {
            // `--no-rom` forgets the remembered ROM (the config keeps everything else), so the
            // next plain start uses the built-in runtime too. Headless runs never write the
            // config.
            if let Some(old) = config.rom.take().filter(|_| interactive) {
                match config.save(&paths.config_file) {
                    Ok(()) => notes.push(format!(
                        "forgot the remembered ROM {} (in {})",
                        old.display(),
                        paths.config_file.display()
                    )),
                    Err(e) => notes.push(format!("could not forget the ROM: {e:#}")),
                }
            }
            FirmwareChoice::Builtin
        } else if !interactive {
            FirmwareChoice::Builtin
        } else if let Some(rom) = &config.rom {
            if !rom.exists() {
                bail!(
                    "{}: the remembered ROM image is gone (from {}); give --rom FILE or --no-rom",
                    rom.display(),
                    paths.config_file.display()
                );
            }
            FirmwareChoice::Rom(rom.clone())
        } else {
            FirmwareChoice::Builtin
        };
        Ok(Setup {
            paths,
            config,
            keymap,
            choice,
            notes,
        })
    }
}

impl Setup {
    /// The speed: `--speed` when given (any value, `real` included), else the config
    /// file's, else real. The command line always beats the config file.
    pub fn speed(&self, m: &MachineArgs) -> Result<Speed> {
        match (m.speed, &self.config.speed) {
            (Some(s), _) => Ok(s),
            (None, Some(s)) => s
                .parse::<Speed>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", self.paths.config_file.display())),
            (None, None) => Ok(Speed::Real),
        }
    }

    /// The window scale: `--scale` when given, else the config file's, else `default`.
    pub fn scale(&self, ui_scale: Option<u32>, default: u32) -> u32 {
        ui_scale.or(self.config.scale).unwrap_or(default)
    }
}

/// The commentary under the screen: the Mancala commentator, fed after every emulated chunk.
pub type Commentary = ti82_harness::commentary::MancalaCommentator;

/// A running calculator with everything plugged into it.
pub struct Machine {
    pub calc: Calc,
    pub ident: String,
    /// Where to save the state at exit (`None`: do not save).
    pub state_path: Option<PathBuf>,
    pub player: Player,
    /// Keys the window holds down (presses and releases in emulated time).
    pub holds: KeyHolds,
    pub gif: Option<GifRecorder>,
    pub gif_scale: usize,
    pub wav: Option<WavRecorder>,
    pub net: Option<NetCable>,
    /// `--pair`: this calculator's end of the in-process cable to the other window's.
    pub wire: Option<ti82_machine::cable::CableEnd>,
    /// `--link bot`: the computer opponent on the cable.
    pub bot: Option<BotLink>,
    /// A cable made outside (`--pair`): what the status line says about it.
    pub cable: Option<String>,
    pub link_log: Option<PathBuf>,
    /// Where to write the raw line trace at exit (`--link-trace`).
    pub link_trace: Option<PathBuf>,
    pub commentary: Option<Commentary>,
    /// Messages for the user (printed, or shown on the status line).
    pub messages: Vec<String>,
}

/// The longest MANBOARD may take to draw the board, and MANCALA to reach its main menu, in
/// emulated ms (the waits end as soon as the firmware says so: MANBOARD ends about 50 ms
/// after its ENTER on the built-in runtime; this only bounds a program that never ends).
pub const START_LIMIT_MS: u64 = 60_000;

/// The longest a ROM may take to boot to the home screen before `--run`, in emulated ms.
pub const BOOT_LIMIT_MS: u64 = 5_000;

/// When a fresh calculator starts MANBOARD and MANCALA by itself, as its users did: always
/// with `--mancala`; else unless the user said what to run or press (`--run NAME`, or in a
/// headless run `--keys`), so a script starts at the home screen. A calculator restored from
/// its saved state resumes where it was left, and a ROM calculator never starts anything by
/// itself (it has the programs only when they were sent).
pub fn autostarts(m: &MachineArgs, keys_given: bool) -> bool {
    m.mancala || (m.run.is_none() && !keys_given)
}

/// The rule of [`autostarts`] as the F1 help (window and terminal) states it.
pub const AUTOSTART_HELP: [&str; 2] = [
    "Fresh start: MANBOARD, then MANCALA, unless --run",
    "(headless: or --keys) is given; --mancala forces it.",
];

impl Machine {
    /// Starts a calculator: `persist` restores the saved state (unless `--fresh`) and saves
    /// it at exit. A fresh built-in calculator starts MANCALA unless `--run` is given
    /// ([`autostarts`] with no key script).
    pub fn start(setup: &Setup, m: &MachineArgs, persist: bool) -> Result<Machine> {
        Self::start_scripted(setup, m, persist, false)
    }

    /// As [`Self::start`], for a run that will play a key script (`keys_given`): then a
    /// fresh calculator starts MANCALA only with `--mancala` ([`autostarts`]).
    pub fn start_scripted(
        setup: &Setup,
        m: &MachineArgs,
        persist: bool,
        keys_given: bool,
    ) -> Result<Machine> {
        let made = session::make_calc(&setup.choice)?;
        let state_path = persist.then(|| session::state_path(&setup.paths.state_dir, &made.ident));
        let p = prepare(setup, m, made, state_path.as_deref(), m.fresh)?;
        let mut machine = Self::with_calc(p.calc, p.ident, state_path, m, p.messages)?;
        // A fresh built-in calculator starts the game as its users did: MANBOARD draws the
        // board, then MANCALA's main menu (a restored one resumes where it was left).
        if !p.restored && autostarts(m, keys_given) && session::is_builtin(&machine.calc) {
            // A loaded backup may have neither program: the calculator is the user's then.
            let names = tibasic::firmware::program_names(machine.calc.ram());
            let has = |n: &str| names.iter().any(|p| p.as_slice() == n.as_bytes());
            if has("MANBOARD") && has("MANCALA") {
                machine.push_mancala();
            } else {
                machine
                    .messages
                    .push("MANBOARD and MANCALA are not in the loaded memory: not started".into());
            }
        }
        Ok(machine)
    }

    /// Wraps an existing calculator (tests, `--pair`).
    pub fn with_calc(
        mut calc: Calc,
        ident: String,
        state_path: Option<PathBuf>,
        m: &MachineArgs,
        messages: Vec<String>,
    ) -> Result<Machine> {
        if m.wav.is_some() || m.link_log.is_some() || m.link_trace.is_some() {
            calc.hardware_mut().link.enable_log();
        }
        let wav = match &m.wav {
            Some(p) => {
                let levels = {
                    use ti82_machine::LinkEndpoint;
                    calc.link().lines()
                };
                Some(WavRecorder::create(p, calc.now(), levels)?)
            }
            None => None,
        };
        let bot = bot_level(&m.link)?.map(|level| BotLink::attach(&mut calc, level));
        let net = match crate::netcable::link_config(m)? {
            // The window's pacer sets the speed; a held calculator gives the frame back.
            Some(cfg) => {
                let mut n = NetCable::attach(&mut calc, cfg, netlink::Pace::Free)?;
                n.set_wall_budget(Some(std::time::Duration::from_millis(30)));
                Some(n)
            }
            None => None,
        };
        let mut player = Player::default();
        if let Some(name) = &m.run {
            // A ROM must have booted to the home screen first.
            player.push_until(Until::KeyWait, BOOT_LIMIT_MS);
            player.push_run(name);
        }
        Ok(Machine {
            calc,
            ident,
            state_path,
            player,
            holds: KeyHolds::default(),
            gif: None,
            gif_scale: 2,
            wav,
            net,
            wire: None,
            bot,
            cable: None,
            link_log: m.link_log.clone(),
            link_trace: m.link_trace.clone(),
            commentary: Some(Commentary::new()),
            messages,
        })
    }

    /// Queues MANBOARD (the board drawn once it has ended), then MANCALA, then a wait for
    /// its main menu, each wait ended by the firmware ([`Until`]).
    pub fn push_mancala(&mut self) {
        self.player.push_run("MANBOARD");
        self.player.push_until(Until::ProgramDone, START_LIMIT_MS);
        self.player.push_run("MANCALA");
        self.player.push_until(Until::KeyWait, START_LIMIT_MS);
    }

    /// Runs `t` T-states, in chunks of at most a frame, playing queued keys on the way and
    /// feeding the recorders and the cable after each chunk.
    pub fn advance(&mut self, t: u64) -> Result<()> {
        let end = self.calc.now().saturating_add(t);
        loop {
            self.play_due()?;
            let now = self.calc.now();
            if now >= end || self.holds.stalled(now) {
                break;
            }
            let chunk = self.next_chunk((end - now).min(FRAME_T));
            match (&mut self.bot, &mut self.net) {
                (Some(bot), _) => bot.run(&mut self.calc, chunk),
                (None, Some(net)) => {
                    if !net.run(&mut self.calc, chunk) {
                        // Held at real speed for the network: the frame is over.
                        self.after_chunk()?;
                        break;
                    }
                }
                (None, None) => self.calc.run_for(chunk),
            }
            self.after_chunk()?;
        }
        self.messages.extend(self.player.take_notes());
        Ok(())
    }

    /// Runs until every queued key has been played.
    pub fn run_queue(&mut self) -> Result<()> {
        while !self.player.is_idle(self.calc.now()) {
            // A signal asked to stop: what was played so far stands.
            if crate::shutdown::requested() {
                break;
            }
            let now = self.calc.now();
            let t = self.player.busy_until.saturating_sub(now).clamp(1, FRAME_T);
            self.advance(t)?;
        }
        Ok(())
    }

    /// Plays the queued keys due now and releases the held keys whose time has come.
    fn play_due(&mut self) -> Result<()> {
        self.player.apply(&mut self.calc)?;
        self.holds.release_due(&mut self.calc);
        Ok(())
    }

    /// `chunk` cut so that it ends at the player's next step or the next key release.
    fn next_chunk(&self, chunk: u64) -> u64 {
        let now = self.calc.now();
        [self.player.busy_until, self.holds.next_up().unwrap_or(0)]
            .into_iter()
            .filter(|&at| at > now)
            .fold(chunk, |c, at| c.min(at - now))
    }

    pub(crate) fn after_chunk(&mut self) -> Result<()> {
        self.messages.extend(self.player.take_notes());
        if let Some(c) = &mut self.commentary {
            c.observe(&self.calc);
        }
        if let Some(net) = &mut self.net {
            self.messages.extend(net.take_messages());
        }
        if let Some(bot) = &mut self.bot {
            self.messages.extend(bot.peer.take_messages());
        }
        let now = self.calc.now();
        if let Some(g) = &mut self.gif {
            g.push(&self.calc.lcd(), now)?;
        }
        if let Some(w) = &mut self.wav {
            w.feed(self.calc.hardware().link.log(), now)?;
        }
        Ok(())
    }

    /// The link bot resigns and waits for a new game (the bot-new-game key); returns a
    /// message.
    pub fn bot_new_game(&mut self) -> String {
        match &mut self.bot {
            Some(b) => {
                b.peer.new_game();
                "link bot: new game (press MODE on the calculator if it is waiting, then PLAY)"
                    .into()
            }
            None => "no link bot (start with --link bot)".into(),
        }
    }

    /// Starts or stops GIF recording; returns a message.
    pub fn toggle_gif(&mut self, dir: &Path) -> Result<String> {
        match self.gif.take() {
            Some(g) => {
                let n = g.frames;
                let p = g.finish(self.calc.now())?;
                Ok(format!("GIF saved: {} ({} frames)", p.display(), n + 1))
            }
            None => {
                let p = timestamped(dir, "ti82", "gif");
                let mut g = GifRecorder::create(&p, self.gif_scale)?;
                g.push(&self.calc.lcd(), self.calc.now())?;
                self.gif = Some(g);
                Ok(format!("recording GIF to {}", p.display()))
            }
        }
    }

    /// Saves the LCD as a PNG in `dir` (F7); returns a message.
    pub fn screenshot(&self, dir: &Path, scale: usize) -> Result<String> {
        let p = timestamped(dir, "ti82", "png");
        let (px, w, h) = lcd_image(&self.calc.lcd(), scale);
        write_png(&p, &px, w, h)?;
        Ok(format!("screenshot: {}", p.display()))
    }

    /// The evaluation on request (F11): switches the engine's evaluation on the status line on
    /// or off; returns a message.
    pub fn toggle_eval(&mut self) -> String {
        match &mut self.commentary {
            Some(c) => c.toggle_eval(),
            None => "no Mancala commentary on this calculator".into(),
        }
    }

    /// The status line: speed, link, recording, commentary.
    pub fn status_line(&mut self, pacer: &mut Pacer) -> String {
        let x = pacer.measure(self.calc.now());
        let mut s = format!("{} {:.2}x", pacer.speed, x);
        match (&self.net, &self.bot) {
            (Some(n), _) => s.push_str(&format!(" | {}", n.status())),
            (None, Some(b)) => s.push_str(&format!(" | {}", b.status())),
            (None, None) => match &self.cable {
                Some(c) => s.push_str(&format!(" | link: {c}")),
                None => s.push_str(" | link: none"),
            },
        }
        if self.gif.is_some() {
            s.push_str(" | REC GIF");
        }
        if self.wav.is_some() {
            s.push_str(" | REC WAV");
        }
        if let Some(c) = &mut self.commentary {
            if let Some(line) = c.line() {
                s.push_str(" | ");
                s.push_str(&line);
            }
        }
        s
    }

    /// Closes recordings and the cable, writes the link log and saves the state. Returns
    /// messages for the user.
    pub fn finish(mut self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        if let Some(n) = self.net.take() {
            n.detach(&mut self.calc);
        }
        if let Some(b) = self.bot.take() {
            b.detach(&mut self.calc);
        }
        if let Some(g) = self.gif.take() {
            let p = g.finish(self.calc.now())?;
            out.push(format!("GIF saved: {}", p.display()));
        }
        if let Some(mut w) = self.wav.take() {
            let now = self.calc.now();
            w.feed(self.calc.hardware().link.log(), now)?;
            out.push(format!("WAV saved: {}", w.finish()?.display()));
        }
        if let Some(p) = &self.link_log {
            write_link_log(p, self.calc.hardware().link.log())?;
            out.push(format!("link log saved: {}", p.display()));
        }
        if let Some(p) = &self.link_trace {
            crate::files_cmd::write_link_trace(p, self.calc.hardware().link.log())?;
            out.push(format!("link trace saved: {}", p.display()));
        }
        if let Some(p) = &self.state_path {
            session::save_state(&self.calc, p)?;
            out.push(format!("state saved: {}", p.display()));
        }
        Ok(out)
    }
}

/// A calculator made ready to run: state restored, files loaded, turned on, programs sent.
pub struct Prepared {
    pub calc: Calc,
    pub ident: String,
    /// Restored from its saved state (else fresh).
    pub restored: bool,
    pub messages: Vec<String>,
}

/// Readies a calculator: restores `state_path` unless `fresh`, loads `--load` files, turns a
/// fresh TI-OS calculator on, and sends MANBOARD and MANCALA to a ROM calculator.
pub fn prepare(
    setup: &Setup,
    m: &MachineArgs,
    made: session::Made,
    state_path: Option<&Path>,
    fresh: bool,
) -> Result<Prepared> {
    let mut calc = made.calc;
    calc.apply_hw_choices(&m.hw);
    let mut messages = setup.notes.clone();
    messages.extend(made.note);
    let mut restored = false;
    if let (Some(path), false) = (state_path, fresh) {
        let r = session::restore_state(&mut calc, path)?;
        restored = r == session::Restored::Restored;
        // On failure the calculator is untouched: it starts fresh.
        if let Some(msg) = r.message(path) {
            messages.push(msg);
        }
    }
    let backups = session::load_files_deferring_backups(&mut calc, &m.load)?;
    // A TI-OS calculator that has never run is turned on as a user would (power, then
    // ON: `romload::TI82_KEYS.boot`), whether or not the programs are sent next, so
    // `--run` and the keys find it at the home screen. Other images (our Z80 test
    // programs) start untouched at T-state 0.
    if made.os.is_some() && calc.now() == 0 {
        crate::romload::play_keys(&mut calc, crate::romload::TI82_KEYS.boot)
            .context("turning the ROM calculator on")?;
    }
    // A backup for a ROM calculator goes over the link into its LINK RECEIVE, confirmed
    // on its WARNING-Backup (`romload::send_backup`); the memory is then the backup's, so
    // MANBOARD and MANCALA are not sent on top.
    for p in &backups {
        if made.os.is_none() {
            bail!(
                "{}: a memory backup; the ROM image has no TI-OS version text, so it cannot be \
                 driven through the TI-82's LINK menu to receive it",
                p.file.display()
            );
        }
        crate::romload::send_backup(&mut calc, &p.backup, &crate::romload::TI82_KEYS)
            .with_context(|| {
                format!("{}: sending the backup to the calculator", p.file.display())
            })?;
        messages.push(format!(
            "{}: the backup was sent to the calculator over the link",
            p.file.display()
        ));
    }
    // A ROM calculator gets MANBOARD and MANCALA over the link, as from a computer
    // (before the TCP cable, if any, is plugged in).
    if backups.is_empty() {
        if let Some(msg) =
            crate::romload::send_programs(&mut calc, made.os.as_deref(), &setup.choice, m.no_send)?
        {
            messages.push(msg);
        }
    }
    Ok(Prepared {
        calc,
        ident: made.ident,
        restored,
        messages,
    })
}

/// `--pair`: two calculators joined by the machine crate's cable, as the single window
/// starts one: each restored from its own state (`IDENT-pair-a.state`, `-pair-b.state`)
/// when both can be (so their clocks agree), else both fresh; a fresh built-in pair starts
/// MANBOARD and MANCALA on both; both states are saved at exit. Recorders (`--wav`,
/// `--link-log`, `--link-trace`) go on calculator A only (one file each).
pub fn start_pair(setup: &Setup, m: &MachineArgs) -> Result<(Machine, Machine)> {
    if !m.link.is_empty() {
        bail!("--pair joins its two calculators with their own cable, so it takes no --link");
    }
    let ident = session::make_calc(&setup.choice)?.ident;
    let paths = ["a", "b"]
        .map(|side| session::state_path(&setup.paths.state_dir, &format!("{ident}-pair-{side}")));
    let mut fresh = m.fresh || !paths.iter().all(|p| p.exists());
    let (a, b) = loop {
        let a = prepare(
            setup,
            m,
            session::make_calc(&setup.choice)?,
            Some(&paths[0]),
            fresh,
        )?;
        let mut b = prepare(
            setup,
            m,
            session::make_calc(&setup.choice)?,
            Some(&paths[1]),
            fresh,
        )?;
        b.messages.clear(); // the notes are A's to show
        if a.restored == b.restored {
            break (a, b);
        }
        // One state could not be used: start both fresh, so the clocks agree.
        fresh = true;
    };
    let restored = a.restored;
    let (la, lb) =
        ti82_machine::cable::connect(a.calc, b.calc, ti82_machine::cable::DEFAULT_LATENCY);
    let ((ca, wire_a), (cb, wire_b)) = (la.into_parts(), lb.into_parts());
    let only_b = MachineArgs {
        wav: None,
        link_log: None,
        link_trace: None,
        ..m.clone()
    };
    let mut ma = Machine::with_calc(ca, a.ident, Some(paths[0].clone()), m, a.messages)?;
    let mut mb = Machine::with_calc(cb, b.ident, Some(paths[1].clone()), &only_b, b.messages)?;
    ma.wire = wire_a;
    mb.wire = wire_b;
    ma.cable = Some("cable to B".into());
    mb.cable = Some("cable to A".into());
    for machine in [&mut ma, &mut mb] {
        if !restored && autostarts(m, false) && session::is_builtin(&machine.calc) {
            machine.push_mancala();
        }
    }
    Ok((ma, mb))
}

/// Runs two cabled machines (see `--pair`) side by side on this thread for `t` T-states.
pub fn advance_pair(a: &mut Machine, b: &mut Machine, t: u64) -> Result<()> {
    let end = a.calc.now().saturating_add(t);
    loop {
        a.play_due()?;
        b.play_due()?;
        let now = a.calc.now();
        if now >= end || a.holds.stalled(now) || b.holds.stalled(b.calc.now()) {
            break;
        }
        let chunk = b.next_chunk(a.next_chunk((end - now).min(FRAME_T)));
        match (&mut a.wire, &mut b.wire) {
            (Some(ea), Some(eb)) => {
                ti82_machine::cable::run_pair_ends(&mut a.calc, ea, &mut b.calc, eb, chunk.max(1))
            }
            _ => {
                a.calc.run_for(chunk.max(1));
                b.calc.run_for(chunk.max(1));
            }
        }
        a.after_chunk()?;
        b.after_chunk()?;
    }
    Ok(())
}

/// `dir/PREFIX-<unix seconds>[-n].EXT`, a name not yet taken.
pub fn timestamped(dir: &Path, prefix: &str, ext: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut p = dir.join(format!("{prefix}-{secs}.{ext}"));
    let mut n = 1;
    while p.exists() {
        p = dir.join(format!("{prefix}-{secs}-{n}.{ext}"));
        n += 1;
    }
    p
}
