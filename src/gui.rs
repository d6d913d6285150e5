//! The window front end (minifb): the skin, keyboard and mouse input, pacing, commands
//! (help, screenshots, GIF, turbo), and `--pair` (two windows, two calculators, one cable).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use minifb::{Key as HostKey, KeyRepeat, MouseButton, MouseMode, ScaleMode, Window, WindowOptions};

use crate::app::{timestamped, Machine, Setup};
use crate::cli::{MachineArgs, UiArgs};
use crate::keymap::{Binding, Command, KeyMap};
use crate::pacing::{Pacer, Speed};
use crate::render::write_png;
use crate::script::{Button, Step};
use crate::skin::{self, Layout, Overlay};

/// The host key name of a minifb key (see [`crate::keymap::HOST_KEYS`]).
pub fn host_name(k: HostKey) -> Option<&'static str> {
    use HostKey::*;
    Some(match k {
        A => "A",
        B => "B",
        C => "C",
        D => "D",
        E => "E",
        F => "F",
        G => "G",
        H => "H",
        I => "I",
        J => "J",
        K => "K",
        L => "L",
        M => "M",
        N => "N",
        O => "O",
        P => "P",
        Q => "Q",
        R => "R",
        S => "S",
        T => "T",
        U => "U",
        V => "V",
        W => "W",
        X => "X",
        Y => "Y",
        Z => "Z",
        Key0 => "0",
        Key1 => "1",
        Key2 => "2",
        Key3 => "3",
        Key4 => "4",
        Key5 => "5",
        Key6 => "6",
        Key7 => "7",
        Key8 => "8",
        Key9 => "9",
        F1 => "F1",
        F2 => "F2",
        F3 => "F3",
        F4 => "F4",
        F5 => "F5",
        F6 => "F6",
        F7 => "F7",
        F8 => "F8",
        F9 => "F9",
        F10 => "F10",
        F11 => "F11",
        F12 => "F12",
        Up => "Up",
        Down => "Down",
        Left => "Left",
        Right => "Right",
        Apostrophe => "Apostrophe",
        Backquote => "Backquote",
        Backslash => "Backslash",
        Comma => "Comma",
        Equal => "Equal",
        LeftBracket => "LeftBracket",
        Minus => "Minus",
        Period => "Period",
        RightBracket => "RightBracket",
        Semicolon => "Semicolon",
        Slash => "Slash",
        Backspace => "Backspace",
        Delete => "Delete",
        End => "End",
        Enter => "Enter",
        Escape => "Escape",
        Home => "Home",
        Insert => "Insert",
        PageDown => "PageDown",
        PageUp => "PageUp",
        Space => "Space",
        Tab => "Tab",
        LeftShift | RightShift => "Shift",
        LeftCtrl | RightCtrl => "Ctrl",
        LeftAlt | RightAlt => "Alt",
        NumPad0 => "NumPad0",
        NumPad1 => "NumPad1",
        NumPad2 => "NumPad2",
        NumPad3 => "NumPad3",
        NumPad4 => "NumPad4",
        NumPad5 => "NumPad5",
        NumPad6 => "NumPad6",
        NumPad7 => "NumPad7",
        NumPad8 => "NumPad8",
        NumPad9 => "NumPad9",
        NumPadDot => "NumPadDot",
        NumPadSlash => "NumPadSlash",
        NumPadAsterisk => "NumPadAsterisk",
        NumPadMinus => "NumPadMinus",
        NumPadPlus => "NumPadPlus",
        NumPadEnter => "NumPadEnter",
        _ => return None,
    })
}

/// Buttons that are tapped rather than held: holding Shift (2nd) and pressing 9 must give
/// 2nd, then 9, as on the calculator, not both keys down at once.
fn is_modifier(b: Button) -> bool {
    matches!(
        b,
        Button::Key(ti82_machine::Key::Second | ti82_machine::Key::Alpha)
    )
}

/// One calculator in one window.
pub struct View {
    pub window: Window,
    pub layout: Layout,
    pub buf: Vec<u32>,
    pub machine: Machine,
    help: bool,
    note: Option<(String, Instant)>,
    title: String,
    /// What the window shows now: the glass, the status line, the keys drawn down, the help.
    /// A frame that would show the same is not drawn again (an idle window costs almost
    /// nothing; docs/performance.md, `bench-idle-window`).
    shown: Option<Shown>,
    /// Frames drawn and pushed to the window (the tests count them).
    pub frames_drawn: u64,
}

#[derive(PartialEq)]
struct Shown {
    screen: ti82_machine::Screen,
    status: String,
    down: Vec<Button>,
    help: bool,
}

/// A window could not be opened (no usable display): the caller may use the terminal.
#[derive(Debug)]
pub struct NoWindow(pub String);

impl std::fmt::Display for NoWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot open a window: {}", self.0)
    }
}

impl std::error::Error for NoWindow {}

/// Opens a resizable window for `layout`: resizing stretches the skin, keeping its shape.
pub fn open_window(title: &str, layout: &Layout) -> Result<Window, NoWindow> {
    let opts = WindowOptions {
        resize: true,
        scale_mode: ScaleMode::AspectRatioStretch,
        ..WindowOptions::default()
    };
    Window::new(title, layout.width, layout.height, opts).map_err(|e| NoWindow(e.to_string()))
}

impl View {
    pub fn open(title: &str, machine: Machine, scale: usize) -> Result<View> {
        let layout = Layout::new(scale);
        let window = open_window(title, &layout)?;
        Ok(Self::with_window(window, layout, title, machine))
    }

    /// A view in a window already open (so a calculator is only started once a window is
    /// there).
    pub fn with_window(window: Window, layout: Layout, title: &str, machine: Machine) -> View {
        let buf = vec![0; layout.width * layout.height];
        View {
            window,
            layout,
            buf,
            machine,
            help: false,
            note: None,
            title: title.to_string(),
            shown: None,
            frames_drawn: 0,
        }
    }

    fn say(&mut self, msg: String) {
        eprintln!("ti82: {msg}");
        self.note = Some((msg, Instant::now()));
    }

    /// Reads the keyboard and mouse; returns the commands pressed this frame. Held keys
    /// become presses in emulated time (`script::KeyHolds`), at `speed`'s hold factor.
    pub fn input(&mut self, keymap: &KeyMap, speed: Speed) -> Vec<Command> {
        let mut cmds = Vec::new();
        let mut want: Vec<Button> = Vec::new();
        let active = self.window.is_active();
        if active {
            for k in self.window.get_keys() {
                let Some(name) = host_name(k) else { continue };
                if let Some(Binding::Button(b)) = keymap.binding(name) {
                    if !is_modifier(b) {
                        want.push(b);
                    }
                }
            }
            for k in self.window.get_keys_pressed(KeyRepeat::No) {
                let Some(name) = host_name(k) else { continue };
                match keymap.binding(name) {
                    Some(Binding::Command(c)) => cmds.push(c),
                    Some(Binding::Button(b)) if is_modifier(b) => {
                        self.machine.player.push(&[Step::Tap(b)])
                    }
                    _ => {}
                }
            }
        }
        if self.window.get_mouse_down(MouseButton::Left) {
            if let Some((x, y)) = self.window.get_unscaled_mouse_pos(MouseMode::Discard) {
                let (ww, wh) = self.window.get_size();
                let at = skin::window_to_skin(&self.layout, (ww, wh), (x, y));
                if let Some(b) = at.and_then(|(x, y)| self.layout.key_at(x, y)) {
                    want.push(b);
                }
            }
        }
        let m = &mut self.machine;
        m.holds
            .update(&mut m.calc, &want, Instant::now(), speed.hold_factor());
        cmds
    }

    /// Carries out a command; false means quit.
    pub fn command(&mut self, c: Command, pacer: &mut Pacer, speed: Speed) -> bool {
        let r: Result<Option<String>> = match c {
            Command::Quit => return false,
            Command::Help => {
                self.help = !self.help;
                Ok(None)
            }
            Command::Screenshot => self
                .machine
                .screenshot(&PathBuf::from("."), self.layout.scale)
                .map(Some),
            Command::SkinScreenshot => {
                let p = timestamped(&PathBuf::from("."), "ti82-skin", "png");
                write_png(&p, &self.buf, self.layout.width, self.layout.height)
                    .map(|_| Some(format!("screenshot: {}", p.display())))
            }
            Command::Gif => self.machine.toggle_gif(&PathBuf::from(".")).map(Some),
            Command::Turbo => Ok(Some(format!("speed: {}", pacer.toggle_turbo(speed)))),
            Command::Eval => Ok(Some(self.machine.toggle_eval())),
            Command::BotNewGame => Ok(Some(self.machine.bot_new_game())),
        };
        match r {
            Ok(Some(m)) => self.say(m),
            Ok(None) => {}
            Err(e) => self.say(format!("{e:#}")),
        }
        true
    }

    /// Draws and shows the frame when it differs from the one shown; otherwise only takes
    /// the window's input (minifb's `update`, which also keeps the frame rate).
    pub fn draw(&mut self, keymap: &KeyMap, pacer: &mut Pacer) -> Result<()> {
        for m in std::mem::take(&mut self.machine.messages) {
            self.say(m);
        }
        let mut status = self.machine.status_line(pacer);
        if let Some((n, at)) = &self.note {
            if at.elapsed() < Duration::from_secs(4) {
                status = format!("{n} | {status}");
            }
        }
        if !self.help {
            status.push_str(" | F1 help");
        }
        let now = Shown {
            screen: self.machine.calc.lcd(),
            status,
            down: self.machine.holds.down(),
            help: self.help,
        };
        if self.shown.as_ref() == Some(&now) {
            self.window.update();
            return Ok(());
        }
        let help = self.help.then(|| help_lines(&self.title, keymap));
        skin::draw(
            &mut self.buf,
            &self.layout,
            &now.screen,
            &Overlay {
                status: &now.status,
                down: &now.down,
                help: help.as_deref(),
            },
        );
        self.shown = Some(now);
        self.frames_drawn += 1;
        self.window
            .update_with_buffer(&self.buf, self.layout.width, self.layout.height)
            .context("window update")
    }
}

/// The window's F1 help: the title, what a fresh calculator does (`app::AUTOSTART_HELP`),
/// the key map, the mouse.
pub fn help_lines(title: &str, keymap: &KeyMap) -> Vec<String> {
    let mut lines = vec![format!("{title} keys (F1 to close)")];
    lines.extend(crate::app::AUTOSTART_HELP.map(String::from));
    lines.extend(keymap.help_lines());
    lines.push("Click keys with the mouse.".into());
    lines
}

const FRAME: Duration = Duration::from_micros(16_667);

/// Runs the window front end until the window closes.
pub fn run(setup: &Setup, m: &MachineArgs, ui: &UiArgs) -> Result<()> {
    let default = crate::default_window_scale(crate::host_scale_factor());
    let scale = setup.scale(ui.scale, default) as usize;
    let speed = setup.speed(m)?;
    if ui.pair {
        return run_pair(setup, m, scale, speed);
    }
    // The window first: if none can open, nothing has started yet and the caller may use
    // the terminal instead (`NoWindow`).
    let layout = Layout::new(scale);
    let window = open_window("TI-82", &layout)?;
    let machine = Machine::start(setup, m, true)?;
    let mut view = View::with_window(window, layout, "TI-82", machine);
    view.window.set_target_fps(60);
    let mut pacer = Pacer::new(speed);
    let mut looped = Ok(());
    while view.window.is_open() && !crate::shutdown::requested() {
        let mut go = true;
        for c in view.input(&setup.keymap, pacer.speed) {
            go &= view.command(c, &mut pacer, speed);
        }
        if !go {
            break;
        }
        let budget = pacer.budget(FRAME);
        let (t0, c0) = (Instant::now(), view.machine.calc.now());
        if let Err(e) = view.machine.advance(budget) {
            view.say(format!("{e:#}"));
        }
        pacer.ran(view.machine.calc.now() - c0, t0.elapsed());
        if let Err(e) = view.draw(&setup.keymap, &mut pacer) {
            looped = Err(e);
            break;
        }
    }
    crate::shutdown::finish_anyway(looped, || view.machine.finish())
}

/// Two calculators in two windows joined by the machine crate's cable, run on this thread
/// (`app::start_pair`: started, restored and saved as a pair), the windows side by side.
fn run_pair(setup: &Setup, m: &MachineArgs, scale: usize, speed: Speed) -> Result<()> {
    let layout = Layout::new(scale);
    let wa = open_window("TI-82 (A)", &layout)?;
    let wb = open_window("TI-82 (B)", &layout)?;
    let (ma, mb) = crate::app::start_pair(setup, m)?;
    let mut va = View::with_window(wa, layout.clone(), "TI-82 (A)", ma);
    let mut vb = View::with_window(wb, layout.clone(), "TI-82 (B)", mb);
    // Side by side from the top-left corner of the screen, a small gap between them.
    let gap = 16;
    va.window.set_position(gap, gap);
    vb.window.set_position(2 * gap + layout.width as isize, gap);
    va.window.set_target_fps(60);
    vb.window.set_target_fps(0);
    let mut pacer = Pacer::new(speed);
    let mut looped = Ok(());
    while va.window.is_open() && vb.window.is_open() && !crate::shutdown::requested() {
        let mut go = true;
        for c in va.input(&setup.keymap, pacer.speed) {
            go &= va.command(c, &mut pacer, speed);
        }
        for c in vb.input(&setup.keymap, pacer.speed) {
            go &= vb.command(c, &mut pacer, speed);
        }
        if !go {
            break;
        }
        let budget = pacer.budget(FRAME);
        let (t0, c0) = (Instant::now(), va.machine.calc.now());
        if let Err(e) = crate::app::advance_pair(&mut va.machine, &mut vb.machine, budget) {
            va.say(format!("{e:#}"));
        }
        pacer.ran(va.machine.calc.now() - c0, t0.elapsed());
        if let Err(e) = va
            .draw(&setup.keymap, &mut pacer)
            .and_then(|()| vb.draw(&setup.keymap, &mut pacer))
        {
            looped = Err(e);
            break;
        }
    }
    let looped = crate::shutdown::finish_anyway(looped, || va.machine.finish());
    crate::shutdown::finish_anyway(looped, || vb.machine.finish())
}
