//! The terminal front end (crossterm): the LCD in Unicode braille (2×4 pixels a character) or
//! half blocks (`--blocks`, 1×2), the status line, and keys. Terminals report key presses,
//! not releases, so every key is a tap. The terminal is restored on every way out.

use std::io::{Stdout, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, queue, style, terminal};

use crate::app::{Machine, Setup};
use crate::cli::{MachineArgs, UiArgs};
use crate::keymap::{Binding, Command, KeyMap};
use crate::pacing::{Pacer, Speed};
use crate::render::{braille, half_blocks};
use crate::script::Step;
use crate::DEFAULT_SCALE;

/// The LCD framed in a box, as terminal lines.
pub fn frame_lines(screen: &ti82_machine::Screen, blocks: bool) -> Vec<String> {
    let body = if blocks {
        half_blocks(screen)
    } else {
        braille(screen)
    };
    let w = body.first().map_or(0, |l| l.chars().count());
    let mut out = Vec::with_capacity(body.len() + 2);
    out.push(format!("┌{}┐", "─".repeat(w)));
    for l in body {
        out.push(format!("│{l}│"));
    }
    out.push(format!("└{}┘", "─".repeat(w)));
    out
}

/// The host key name of a terminal key (named keys only; characters go through the
/// character table).
pub fn host_name(code: KeyCode) -> Option<String> {
    Some(match code {
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Esc => "Escape".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PageUp".into(),
        KeyCode::PageDown => "PageDown".into(),
        KeyCode::Insert => "Insert".into(),
        KeyCode::F(n) if (1..=12).contains(&n) => format!("F{n}"),
        _ => return None,
    })
}

/// What a terminal key event does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermAction {
    Steps(Vec<Step>),
    Command(Command),
    None,
}

/// Maps a terminal key event through the key map. Ctrl+C and Ctrl+Q quit.
pub fn map_event(keymap: &KeyMap, ev: &KeyEvent) -> TermAction {
    if ev.modifiers.contains(KeyModifiers::CONTROL) {
        return match ev.code {
            KeyCode::Char('c') | KeyCode::Char('q') => TermAction::Command(Command::Quit),
            _ => TermAction::None,
        };
    }
    if let KeyCode::Char(c) = ev.code {
        if let Some(cmd) = keymap.char_command(c) {
            return TermAction::Command(cmd);
        }
        return keymap
            .char_steps(c)
            .map_or(TermAction::None, TermAction::Steps);
    }
    let Some(name) = host_name(ev.code) else {
        return TermAction::None;
    };
    match keymap.binding(&name) {
        Some(Binding::Button(b)) => TermAction::Steps(vec![Step::Tap(b)]),
        Some(Binding::Command(c)) => TermAction::Command(c),
        None => TermAction::None,
    }
}

/// Puts the terminal back however we leave.
struct TermGuard;

impl TermGuard {
    fn new(out: &mut Stdout) -> Result<TermGuard> {
        terminal::enable_raw_mode().context("cannot put the terminal in raw mode")?;
        let g = TermGuard;
        queue!(out, terminal::EnterAlternateScreen, cursor::Hide).context("terminal")?;
        out.flush().context("terminal")?;
        Ok(g)
    }
}

impl Drop for TermGuard {
    fn drop(&mut self) {
        let mut out = std::io::stdout();
        let _ = queue!(
            out,
            style::ResetColor,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = out.flush();
        let _ = terminal::disable_raw_mode();
    }
}

/// What to do when there is neither a window nor a terminal.
pub const NO_TERMINAL: &str = "no window (no display, or --tui) and no terminal (standard input \
    or output is not a terminal), so there is nothing to play on. For scripts and CI use \
    `ti82 run --headless --keys ... --print-text` (docs/frontend.md, Headless runs); to play, \
    start ti82 from a terminal or in a desktop session";

/// Most queued steps before further key repeats are dropped (a held arrow key must not
/// pile up seconds of taps).
const MAX_QUEUED: usize = 16;

/// Runs the terminal front end until quit.
pub fn run(setup: &Setup, m: &MachineArgs, ui: &UiArgs) -> Result<()> {
    use std::io::IsTerminal;
    // Checked before anything starts: raw mode on a pipe fails with an obscure message.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        anyhow::bail!("{NO_TERMINAL}");
    }
    let speed = setup.speed(m)?;
    let mut machine = Machine::start(setup, m, true)?;
    let mut pacer = Pacer::new(speed);
    let scale = setup.scale(ui.scale, DEFAULT_SCALE) as usize;
    let mut out = std::io::stdout();
    let mut notes: Vec<String> = std::mem::take(&mut machine.messages);
    let result = {
        let _guard = TermGuard::new(&mut out)?;
        event_loop(
            setup,
            &mut machine,
            &mut pacer,
            speed,
            ui.blocks,
            scale,
            &mut notes,
            &mut out,
        )
    };
    // The terminal is restored here (guard dropped) before we print anything.
    for n in notes {
        eprintln!("ti82: {n}");
    }
    let fin = machine.finish();
    result?;
    for msg in fin? {
        eprintln!("ti82: {msg}");
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn event_loop(
    setup: &Setup,
    machine: &mut Machine,
    pacer: &mut Pacer,
    speed: Speed,
    blocks: bool,
    scale: usize,
    notes: &mut Vec<String>,
    out: &mut Stdout,
) -> Result<()> {
    const FRAME: Duration = Duration::from_millis(33);
    let mut help = false;
    let mut last_note: Option<(String, Instant)> =
        notes.last().map(|n| (n.clone(), Instant::now()));
    let mut prev: Vec<String> = Vec::new();
    while !crate::shutdown::requested() {
        let deadline = Instant::now() + FRAME;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            if !event::poll(left).context("terminal input")? {
                break;
            }
            let ev = event::read().context("terminal input")?;
            let Event::Key(k) = ev else {
                if let Event::Resize(..) = ev {
                    prev.clear();
                    queue!(out, terminal::Clear(terminal::ClearType::All)).context("terminal")?;
                }
                continue;
            };
            if k.kind == KeyEventKind::Release {
                continue;
            }
            match map_event(&setup.keymap, &k) {
                TermAction::Steps(s) => {
                    if machine.player.len() < MAX_QUEUED {
                        machine.player.push(&s);
                    }
                }
                TermAction::Command(c) => {
                    let msg: Result<Option<String>> = match c {
                        Command::Quit => return Ok(()),
                        Command::Help => {
                            help = !help;
                            prev.clear();
                            queue!(out, terminal::Clear(terminal::ClearType::All))
                                .context("terminal")?;
                            Ok(None)
                        }
                        Command::Screenshot | Command::SkinScreenshot => {
                            machine.screenshot(&PathBuf::from("."), scale).map(Some)
                        }
                        Command::Gif => machine.toggle_gif(&PathBuf::from(".")).map(Some),
                        Command::Turbo => Ok(Some(format!("speed: {}", pacer.toggle_turbo(speed)))),
                        Command::Eval => Ok(Some(machine.toggle_eval())),
                        Command::BotNewGame => Ok(Some(machine.bot_new_game())),
                    };
                    match msg {
                        Ok(Some(m)) => {
                            notes.push(m.clone());
                            last_note = Some((m, Instant::now()));
                        }
                        Ok(None) => {}
                        Err(e) => last_note = Some((format!("{e:#}"), Instant::now())),
                    }
                }
                TermAction::None => {}
            }
        }
        let budget = pacer.budget(FRAME);
        let t0 = Instant::now();
        if let Err(e) = machine.advance(budget) {
            last_note = Some((format!("{e:#}"), Instant::now()));
        }
        pacer.ran(budget, t0.elapsed());
        for m in machine.messages.drain(..) {
            notes.push(m.clone());
            last_note = Some((m, Instant::now()));
        }
        let mut lines = frame_lines(&machine.calc.lcd(), blocks);
        let mut status = machine.status_line(pacer);
        if let Some((n, at)) = &last_note {
            if at.elapsed() < Duration::from_secs(4) {
                status = format!("{n} | {status}");
            }
        }
        let (cols, rows) = match terminal::size() {
            Ok((c, r)) if c > 0 && r > 0 => (c, r),
            _ => (80, 24),
        };
        let status = format!("{status} | F1 help, Ctrl+C quit");
        let fits = |t: &str| t.chars().count() <= usize::from(cols);
        lines.extend(crate::skin::wrap_status(&status, &fits));
        if help {
            lines.extend(setup.keymap.help_lines());
            lines.push("Terminal: every key is a tap; capitals type ALPHA letters.".into());
            lines.extend(crate::app::AUTOSTART_HELP.map(String::from));
        }
        for (i, line) in lines.iter().enumerate().take(rows as usize) {
            if prev.get(i) == Some(line) {
                continue;
            }
            let shown: String = line.chars().take(cols as usize).collect();
            queue!(
                out,
                cursor::MoveTo(0, i as u16),
                terminal::Clear(terminal::ClearType::CurrentLine),
                style::Print(shown)
            )
            .context("terminal")?;
        }
        // Lines that are gone (a status line that wrapped onto fewer lines).
        for i in lines.len()..prev.len().min(rows as usize) {
            queue!(
                out,
                cursor::MoveTo(0, i as u16),
                terminal::Clear(terminal::ClearType::CurrentLine)
            )
            .context("terminal")?;
        }
        out.flush().context("terminal")?;
        prev = lines;
    }
    // A signal asked to stop: the caller saves the state.
    Ok(())
}
