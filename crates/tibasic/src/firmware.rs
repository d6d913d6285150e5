//! [`BasicFirmware`]: the built-in runtime as a firmware for `Calc`. It plays the OS's part:
//! the home screen (typing and evaluating entries, the PRGM menu), running programs statement
//! by statement, `Menu(`/`Pause`/`Input` screens, error screens, the run indicator, and pushing
//! the screen to the T6A04 through ports 10h/11h. Everything is steppable: `run` returns when
//! its T-state budget is spent and resumes exactly there.

use std::any::Any;

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::{Firmware, Hardware, Key};
use tifiles::var::{Header, VarData, VarName, VarType, Variable};
use tifiles::vat;

use crate::ast::Target;
use crate::display::{Notation, NumFormat};
use crate::eval::{eval, Env};
use crate::font;
use crate::interp::{Interp, ProgramError, Status, Sys, Wait};
use crate::keys::{self, Scanner, SCAN_PERIOD};
use crate::link_screens::{LinkAction, LinkScreen, Phase};
use crate::mem_screens::{MemAction, MemScreen};
use crate::mode_screen::{ModeAction, ModeCursor};
use crate::os::{value_codes, value_lines, Os, OsState, Shown};
use crate::parse::compile;
use crate::real::Real;
use crate::screen::{self, SCREEN_BYTES};
use crate::token::*;
use crate::value::{ErrorKind, Value};

/// T-states between two LCD accesses when pushing the screen (the driver's busy time,
/// spec §5.6, plus the OS's loop).
pub const LCD_GAP: u64 = 64;
/// Statements run between two checks of the keypad and the budget.
const SLICE: u32 = 64;

/// The latest time (T-states) a save state may hold (the machine's own bound, 2^60, about
/// 6 500 years of emulated time), far enough from `u64::MAX` that no addition overflows.
const TIME_LIMIT: u64 = 1 << 60;

/// What the firmware is doing, beyond the interpreter's own state.
#[derive(Clone, Debug, PartialEq)]
enum Shell {
    /// The home screen, with the entry line being typed.
    Home,
    /// The PRGM menu's EXEC list.
    ProgramMenu { sel: usize },
    /// A program runs (or waits: see the interpreter's status).
    Running,
    /// An error screen: `ERR:NAME`, `1:Goto`, `2:Quit`.
    Error { err: ProgramError, sel: usize },
    /// A LINK screen (2nd LINK).
    Link(LinkScreen),
    /// The MODE screen, its cursor.
    Mode(ModeCursor),
    /// A MEMORY screen (2nd MEM).
    Mem(MemScreen),
}

/// A LINK SEND or RECEIVE in progress.
#[derive(Clone)]
enum Transfer {
    Send(tilink::SendVars, Vec<(VarType, VarName)>),
    Receive {
        rx: tilink::ReceiveVars,
        /// How many of the received variables are in the VAT.
        stored: usize,
        /// The name the user gave the variable being received (Rename).
        rename: Option<VarName>,
    },
}

impl std::fmt::Debug for Transfer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transfer::Send(_, items) => write!(f, "Send({} items)", items.len()),
            Transfer::Receive { stored, .. } => write!(f, "Receive({stored} stored)"),
        }
    }
}

/// A pending key modifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Shift {
    #[default]
    None,
    Second,
    Alpha,
}

/// The built-in TI-BASIC runtime.
#[derive(Clone, Debug)]
pub struct BasicFirmware {
    interp: Interp,
    st: OsState,
    scanner: Scanner,
    shell: Shell,
    shift: Shift,
    /// The home screen's entry line (tokens), and the last one entered (2nd ENTRY).
    entry: Vec<u8>,
    last_entry: Vec<u8>,
    /// `Menu(` selection, `Input` text and which `Prompt` item is being read.
    menu_sel: usize,
    input_idx: usize,
    input_started: bool,
    /// The link: a holder that answers silent requests while the OS waits for a key, and the
    /// requester of a `Get(` in flight.
    holder: tilink::Holder,
    requester: Option<tilink::Requester>,
    /// The sender of a `Send(` in flight.
    sender: Option<tilink::SendVars>,
    /// A LINK SEND or RECEIVE in flight.
    transfer: Option<Transfer>,
    /// When the link state machines next need a poll, and whether a line change from the
    /// peer should wake them sooner.
    link_wake: u64,
    link_edge: bool,
    next_scan: u64,
    /// What the LCD shows now (so only changes are pushed).
    pushed: Vec<u8>,
    lcd_ready: bool,
    indicator: u8,
    /// The run indicator has stepped and nothing else is known to have changed: only its
    /// column needs pushing (not saved, like `OsState::dirty`).
    indicator_due: bool,
    /// The last program error (for a front end to show the listing at the failing place).
    last_error: Option<ProgramError>,
    /// Statements executed since power-on (for benchmarks).
    pub statements: u64,
}

impl Default for BasicFirmware {
    fn default() -> Self {
        Self::new()
    }
}

impl BasicFirmware {
    pub fn new() -> Self {
        BasicFirmware {
            interp: Interp::new(),
            st: OsState::default(),
            scanner: Scanner::default(),
            shell: Shell::Home,
            shift: Shift::None,
            entry: Vec::new(),
            last_entry: Vec::new(),
            menu_sel: 0,
            input_idx: 0,
            input_started: false,
            holder: tilink::Holder::new(tilink::MID_TI82, tilink::Timing::default()),
            requester: None,
            sender: None,
            transfer: None,
            link_wake: 0,
            link_edge: false,
            next_scan: 0,
            pushed: vec![0; SCREEN_BYTES],
            lcd_ready: false,
            indicator: 0,
            indicator_due: false,
            last_error: None,
            statements: 0,
        }
    }

    /// The runtime `calc` runs, or None when it runs another firmware (a ROM).
    pub fn of(calc: &ti82_machine::Calc) -> Option<&BasicFirmware> {
        calc.firmware().as_any().downcast_ref()
    }

    /// The interpreter's status (running, waiting, done, error).
    pub fn status(&self) -> Status {
        self.interp.status()
    }

    /// True while a program runs or waits inside a program.
    pub fn program_active(&self) -> bool {
        self.shell == Shell::Running
    }

    /// The last program error and where it happened.
    pub fn last_error(&self) -> Option<&ProgramError> {
        self.last_error.as_ref()
    }

    /// Starts program `name` as if `prgmNAME` ENTER had been typed on the home screen.
    pub fn run_program(&mut self, hw: &mut Hardware, name: &[u8]) -> Result<(), ErrorKind> {
        let mut entry = vec![PRGM];
        entry.extend_from_slice(name);
        self.entry = entry;
        self.show_entry(hw);
        self.enter(hw);
        match &self.shell {
            Shell::Error { err, .. } => Err(err.kind.clone()),
            _ => Ok(()),
        }
    }

    fn os<'a>(st: &'a mut OsState, hw: &'a mut Hardware) -> Os<'a> {
        Os { hw, st }
    }

    // ------------------------------------------------------------------ power-on

    fn init_ram(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        ram.fill(0);
        // An empty VAT, then the OS's screens and settings in their places.
        let _ = vat::init_empty(ram);
        screen::clear_home(ram);
        let mut os = Self::os(&mut self.st, hw);
        os.zstandard();
        let seed = [
            (0x8BB8u16, Real::from_i64(12345)),
            (0x8BC1u16, Real::from_i64(67890)),
        ];
        for (addr, v) in seed {
            let i = screen::off(addr);
            os.ram_mut()[i..i + 9].copy_from_slice(&v.to_bcd());
        }
    }

    /// The T6A04 set-up the OS sends: 8-bit words, X (row) auto-increment, Z = 0, display
    /// on, a mid contrast (spec §5.9 [U]: the exact sequence is not known).
    fn init_lcd(&mut self, hw: &mut Hardware) {
        for cmd in [0x01u8, 0x05, 0x40, 0x03, 0xF6] {
            hw.write_port(0x10, cmd, hw.now);
            hw.now += LCD_GAP;
        }
        self.pushed.fill(0xFF);
        self.lcd_ready = true;
        self.st.dirty = true;
    }

    // ------------------------------------------------------------------ the screen

    /// The image the glass should show now.
    fn image(&self, hw: &Hardware) -> [u8; SCREEN_BYTES] {
        let ram = hw.mem.ram();
        let mut img = [0u8; SCREEN_BYTES];
        match &self.shell {
            Shell::ProgramMenu { sel } => self.draw_program_menu(ram, *sel, &mut img),
            Shell::Error { err, sel } => draw_error(err, *sel, &mut img),
            Shell::Link(screen) => screen.draw(&mut img),
            Shell::Mem(screen) => screen.draw(ram, &mut img),
            Shell::Mode(cursor) => {
                // The cursor blinks at about 2 Hz (the key scan runs at 100 Hz).
                let blink = self.indicator < 50;
                cursor.draw(&self.st.modes, blink, &mut img);
            }
            _ => {
                if let Status::Waiting(Wait::Menu { title, items, .. }) = self.interp.status() {
                    draw_menu(&title, &items, self.menu_sel, &mut img);
                } else {
                    match self.st.shown {
                        Shown::Home => screen::render_home(ram, &mut img),
                        Shown::Graph => img.copy_from_slice(screen::plot(ram)),
                    }
                }
            }
        }
        if self.shell == Shell::Running {
            let paused = matches!(self.interp.status(), Status::Waiting(_));
            draw_indicator(&mut img, self.indicator, paused);
        }
        img
    }

    /// Pushes what changed to the T6A04, column by column (spec §5.9): Y, X, then the data
    /// bytes down the column, each access `LCD_GAP` T-states after the last.
    fn present(&mut self, hw: &mut Hardware) {
        if !self.lcd_ready {
            self.init_lcd(hw);
        }
        let img = self.image(hw);
        self.push_image(hw, &img);
        self.st.dirty = false;
        self.indicator_due = false;
    }

    /// The run indicator's step alone: the image last pushed with the indicator redrawn, so
    /// only its column goes to the T6A04 (the same LCD writes, at the same emulated cost, as
    /// a full [`Self::present`] when nothing else changed, without rebuilding the screen).
    /// Every eighth step (about 3 Hz) takes the full path anyway, so a change made without
    /// marking the screen dirty still shows within a third of a second.
    fn present_indicator(&mut self, hw: &mut Hardware) {
        self.indicator_due = false;
        if !self.lcd_ready || self.shell != Shell::Running || self.indicator & 31 == 0 {
            self.present(hw);
            return;
        }
        let mut img = [0u8; SCREEN_BYTES];
        img.copy_from_slice(&self.pushed);
        let paused = matches!(self.interp.status(), Status::Waiting(_));
        draw_indicator(&mut img, self.indicator, paused);
        self.push_image(hw, &img);
    }

    /// Pushes the columns of `img` that differ from what the LCD shows.
    fn push_image(&mut self, hw: &mut Hardware, img: &[u8; SCREEN_BYTES]) {
        for col in 0..12 {
            let differs = |r: &usize| img[r * 12 + col] != self.pushed[r * 12 + col];
            let (Some(first), Some(last)) = ((0..64).find(differs), (0..64).rev().find(differs))
            else {
                continue;
            };
            hw.write_port(0x10, 0x20 + col as u8, hw.now);
            hw.now += LCD_GAP;
            hw.write_port(0x10, 0x80 + first as u8, hw.now);
            hw.now += LCD_GAP;
            for r in first..=last {
                hw.write_port(0x11, img[r * 12 + col], hw.now);
                hw.now += LCD_GAP;
                self.pushed[r * 12 + col] = img[r * 12 + col];
            }
        }
    }

    fn draw_program_menu(&self, ram: &[u8], sel: usize, img: &mut [u8; SCREEN_BYTES]) {
        font::draw_large_with(img, 0, 0, b"EXEC", true);
        font::draw_large(img, 0, 30, b"EDIT NEW");
        let names = program_names(ram);
        let top = sel.saturating_sub(6);
        for (i, name) in names.iter().enumerate().skip(top).take(7) {
            let row = (i - top + 1) * 8;
            // Past `θ` an item has no label: a blank cell (inverse when selected).
            let label = menu_label(i).unwrap_or(b' ');
            font::draw_large_with(img, row, 0, &[label], i == sel);
            font::draw_large(img, row, 6, b":");
            font::draw_large(img, row, 12, &crate::os::string_codes(name));
        }
    }

    // ------------------------------------------------------------------ the home screen

    fn show_entry(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        if self.st.scroll_pending {
            screen::scroll(ram);
            self.st.scroll_pending = false;
            screen::set_cursor(ram, screen::ROWS - 1, 0);
        }
        let (row, _) = screen::cursor(ram);
        let codes = crate::os::string_codes(&self.entry);
        let tail = &codes[codes.len().saturating_sub(screen::COLS)..];
        screen::clear_row(ram, row);
        screen::write_at(ram, row, 0, tail);
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    /// ENTER on the home screen: run `prgmNAME`, or evaluate the entry and show the answer.
    fn enter(&mut self, hw: &mut Hardware) {
        if self.entry.is_empty() {
            self.entry = self.last_entry.clone();
            self.show_entry(hw);
        }
        let entry = std::mem::take(&mut self.entry);
        self.last_entry = entry.clone();
        // The entry line stays; output starts on the next line.
        {
            let ram = hw.mem.ram_mut();
            let (row, _) = screen::cursor(ram);
            if row + 1 >= screen::ROWS {
                self.st.scroll_pending = true;
            } else {
                screen::set_cursor(ram, row + 1, 0);
            }
        }
        if entry.is_empty() {
            return;
        }
        let result = if entry[0] == PRGM && entry.len() > 1 {
            let mut os = Self::os(&mut self.st, hw);
            self.interp.start(&mut os, &entry[1..])
        } else {
            self.interp.start_bytes(b"", &entry);
            Ok(())
        };
        match result {
            Ok(()) => {
                self.shell = Shell::Running;
                self.indicator = 0;
            }
            Err(kind) => {
                self.show_error(ProgramError {
                    kind,
                    program: Vec::new(),
                    offset: 0,
                });
            }
        }
    }

    fn show_error(&mut self, err: ProgramError) {
        self.last_error = Some(err.clone());
        self.shell = Shell::Error { err, sel: 0 };
        self.st.dirty = true;
    }

    /// A program ended: `Done` (or the answer of a typed entry) on the home screen.
    fn finished(&mut self, hw: &mut Hardware, from_entry: bool) {
        self.shell = Shell::Home;
        let mut os = Self::os(&mut self.st, hw);
        if from_entry {
            if let Ok(v) = os.ans() {
                let shown = os.st.entry_shown;
                for (codes, right) in value_lines(&v, os.st.modes.format(), shown) {
                    os.home_line(&codes, right);
                }
            }
        } else {
            let codes = font::encode("Done").unwrap_or_else(|_| b"Done".to_vec());
            os.home_line(&codes, true);
        }
        os.st.shown = Shown::Home;
        os.st.dirty = true;
    }

    fn key_home(&mut self, hw: &mut Hardware, k: Key) {
        let shift = std::mem::take(&mut self.shift);
        match (shift, k) {
            (_, Key::Enter) if shift != Shift::Second => self.enter(hw),
            (Shift::Second, Key::Enter) => {
                self.entry = self.last_entry.clone();
                self.show_entry(hw);
            }
            (_, Key::Clear) => {
                if self.entry.is_empty() {
                    screen::clear_home(hw.mem.ram_mut());
                    self.st.scroll_pending = false;
                }
                self.entry.clear();
                self.show_entry(hw);
            }
            (Shift::None, Key::Prgm) => {
                self.shell = Shell::ProgramMenu { sel: 0 };
                self.st.dirty = true;
            }
            (Shift::Second, Key::XTTheta) => {
                self.shell = Shell::Link(LinkScreen::new());
                self.st.dirty = true;
            }
            (Shift::Second, Key::Add) => {
                self.shell = Shell::Mem(MemScreen::new());
                self.st.dirty = true;
            }
            (Shift::None, Key::Mode) => {
                self.shell = Shell::Mode(ModeCursor::open(&self.st.modes));
                self.indicator = 0;
                self.st.dirty = true;
            }
            (Shift::Second, Key::Mode) => {
                self.entry.clear();
                self.show_entry(hw);
            }
            _ => {
                if self.edit_entry(shift, k, 200) {
                    self.show_entry(hw);
                }
            }
        }
    }

    /// The keys that edit an entry line alike on the home screen and in `Input`: 2nd and
    /// ALPHA set the modifier, DEL removes the last token, the rest type their token (up to
    /// `limit` bytes). Returns whether the line changed.
    fn edit_entry(&mut self, shift: Shift, k: Key, limit: usize) -> bool {
        match (shift, k) {
            (Shift::None, Key::Second) => self.shift = Shift::Second,
            (Shift::None, Key::Alpha) => self.shift = Shift::Alpha,
            (_, Key::Del) => {
                pop_token(&mut self.entry);
                return true;
            }
            _ => {
                if let Some(t) = key_token(shift, k) {
                    if self.entry.len() < limit {
                        self.entry.extend_from_slice(t);
                    }
                    return true;
                }
            }
        }
        false
    }

    fn key_program_menu(&mut self, hw: &mut Hardware, k: Key, sel: usize) {
        let names = program_names(hw.mem.ram());
        let n = names.len();
        let sel = sel.min(n.saturating_sub(1));
        let choose = |i: usize| names.get(i).cloned();
        let shift = std::mem::take(&mut self.shift);
        let pick = match k {
            Key::Alpha if shift == Shift::None => {
                self.shift = Shift::Alpha;
                None
            }
            // ALPHA and a letter picks the item labelled with it (`A:` is the 11th).
            _ if shift == Shift::Alpha => key_token(Shift::Alpha, k)
                .and_then(|t| match t {
                    [c @ LETTER_A..=THETA] => Some(10 + usize::from(c - LETTER_A)),
                    _ => None,
                })
                .and_then(choose),
            Key::Up if n > 0 => {
                self.shell = Shell::ProgramMenu {
                    sel: (sel + n - 1) % n,
                };
                None
            }
            Key::Down if n > 0 => {
                self.shell = Shell::ProgramMenu { sel: (sel + 1) % n };
                None
            }
            Key::Enter => choose(sel),
            Key::Clear | Key::Mode => {
                self.shell = Shell::Home;
                None
            }
            _ => digit_of(k).and_then(|d| choose(if d == 0 { 9 } else { d - 1 })),
        };
        if let Some(name) = pick {
            self.shell = Shell::Home;
            self.entry.push(PRGM);
            self.entry.extend_from_slice(&name);
            self.show_entry(hw);
        }
        self.st.dirty = true;
    }

    fn key_error(&mut self, hw: &mut Hardware, k: Key, err: ProgramError, sel: usize) {
        let choice = match k {
            Key::K1 => Some(0),
            Key::K2 => Some(1),
            Key::Enter => Some(sel),
            Key::Up | Key::Down => {
                self.shell = Shell::Error { err, sel: 1 - sel };
                None
            }
            Key::Clear | Key::Mode => Some(1),
            _ => None,
        };
        if choice.is_some() {
            // Goto would open the program editor at `last_error`; this runtime has no editor,
            // so both choices return to the home screen and keep the place for a front end.
            self.shell = Shell::Home;
            self.st.shown = Shown::Home;
            // The next entry goes on a clean line below the last one. When the screen is full
            // (a scroll is pending), the cursor still sits on the entry's own line: the scroll
            // makes the new line, and the entry stays visible.
            if !self.st.scroll_pending {
                let ram = hw.mem.ram_mut();
                let (row, _) = screen::cursor(ram);
                screen::clear_row(ram, row);
            }
        }
        self.st.dirty = true;
    }

    // ------------------------------------------------------------------ MEM

    /// MEM › Reset › 2:Reset: memory as after a cold start (an empty VAT, default settings,
    /// the random seeds), then the home screen with `Mem cleared` (the TI-82's message).
    fn reset_memory(&mut self, hw: &mut Hardware) {
        self.stop_holder(hw);
        let scanner = std::mem::take(&mut self.scanner);
        let (pushed, lcd_ready, next_scan) = (self.pushed.clone(), self.lcd_ready, self.next_scan);
        *self = BasicFirmware::new();
        self.scanner = scanner;
        self.pushed = pushed;
        self.lcd_ready = lcd_ready;
        self.next_scan = next_scan;
        self.link_wake = hw.now;
        self.init_ram(hw);
        let mut os = Self::os(&mut self.st, hw);
        let codes = font::encode("Mem cleared").unwrap_or_default();
        os.home_line(&codes, false);
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    // ------------------------------------------------------------------ LINK

    fn key_link(&mut self, hw: &mut Hardware, k: Key, mut screen: LinkScreen) {
        let shift = std::mem::take(&mut self.shift);
        if k == Key::Second && shift == Shift::None && !screen.busy() {
            self.shift = Shift::Second;
            return;
        }
        let alpha = |k: Key| match key_token(Shift::Alpha, k) {
            Some([c]) => Some(*c),
            _ => None,
        };
        let action = screen.key(k, shift == Shift::Second, alpha);
        self.shell = Shell::Link(screen);
        self.st.dirty = true;
        match action {
            LinkAction::None => {}
            LinkAction::Quit => self.link_quit(hw),
            LinkAction::List(kind) => {
                let screen = if kind == crate::link_screens::SendKind::Backup {
                    let mut s = LinkScreen::select(kind, [(VarType::Backup, VarName::default())]);
                    if let LinkScreen::Select { entries, .. } = &mut s {
                        entries.iter_mut().for_each(|e| e.chosen = true);
                    }
                    s
                } else {
                    let vars = vat::entries(hw.mem.ram())
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|e| !e.is_internal())
                        .map(|e| (e.var_type(), e.name));
                    LinkScreen::select(kind, vars)
                };
                self.shell = Shell::Link(screen);
            }
            LinkAction::Send(items) => self.start_send(hw, items),
            LinkAction::Receive => {
                self.stop_holder(hw);
                let rx =
                    tilink::ReceiveVars::new(tilink::MID_TI82, tilink::Timing::default()).asking();
                self.transfer = Some(Transfer::Receive {
                    rx,
                    stored: 0,
                    rename: None,
                });
                self.shell = Shell::Link(LinkScreen::Transfer {
                    phase: Phase::Waiting,
                    lines: Vec::new(),
                });
                self.link_wake = hw.now;
            }
            LinkAction::Overwrite => self.answer(hw, tilink::Decision::Accept),
            LinkAction::Omit => self.answer(hw, tilink::Decision::Skip),
            LinkAction::QuitTransfer => self.answer(hw, tilink::Decision::Exit),
            LinkAction::Rename(name) => {
                if let Some(Transfer::Receive { rename, .. }) = &mut self.transfer {
                    *rename = Some(name);
                }
                let ty = match &self.shell {
                    Shell::Link(LinkScreen::Rename { ty, .. }) => *ty,
                    _ => VarType::Program,
                };
                // The new name may be taken too: ask again about it.
                if program_exists(hw.mem.ram(), &name) {
                    if let Shell::Link(s) = &mut self.shell {
                        let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
                        *s = LinkScreen::Duplicate {
                            ty,
                            name,
                            sel: 0,
                            lines,
                        };
                    }
                } else {
                    self.answer(hw, tilink::Decision::Accept);
                }
            }
        }
    }

    /// Leaves the LINK screens for the home screen.
    fn link_quit(&mut self, hw: &mut Hardware) {
        if let Some(t) = self.transfer.take() {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match t {
                Transfer::Send(mut snd, _) => snd.cancel(&mut ep),
                Transfer::Receive { mut rx, .. } => rx.cancel(&mut ep),
            }
        }
        self.shell = Shell::Home;
        self.st.shown = Shown::Home;
        self.st.dirty = true;
        self.link_wake = hw.now;
    }

    /// A silent exchange the holder is in the middle of ends when the user starts a transfer.
    fn stop_holder(&mut self, hw: &mut Hardware) {
        if self.holder.is_busy() {
            self.holder
                .cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
        }
    }

    /// TRANSMIT: the selected variables (or the backup) go out, VAR by VAR (spec 1.7.2/1.7.3).
    fn start_send(&mut self, hw: &mut Hardware, items: Vec<(VarType, VarName)>) {
        use tilink::VarSource;
        self.stop_holder(hw);
        let timing = tilink::Timing::default();
        let ram = hw.mem.ram();
        let snd = if items.iter().any(|(ty, _)| *ty == VarType::Backup) {
            match vat::backup_from_ram(ram) {
                Ok(b) => tilink::SendVars::backup(tilink::MID_TI82, timing, &b),
                Err(_) => return self.link_failed(ErrorKind::Memory),
            }
        } else {
            let vars: Vec<Variable> = items
                .iter()
                .filter_map(|(ty, name)| tilink::RamVars(ram).lookup(*ty, name))
                .collect();
            tilink::SendVars::new(tilink::MID_TI82, timing, &vars)
        };
        self.transfer = Some(Transfer::Send(snd, items));
        self.shell = Shell::Link(LinkScreen::Transfer {
            phase: Phase::Transmitting,
            lines: Vec::new(),
        });
        self.link_wake = hw.now;
    }

    fn link_failed(&mut self, kind: ErrorKind) {
        self.shell = Shell::Link(LinkScreen::Failed {
            error: kind.ti_name().to_string(),
        });
        self.st.dirty = true;
    }

    /// The user's answer to the question about the arriving variable.
    fn answer(&mut self, hw: &mut Hardware, d: tilink::Decision) {
        if let Some(Transfer::Receive { rx, rename, .. }) = &mut self.transfer {
            if d != tilink::Decision::Accept {
                *rename = None;
            }
            rx.decide(d);
        }
        if let Shell::Link(s) = &mut self.shell {
            let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
            *s = LinkScreen::Transfer {
                phase: Phase::Receiving,
                lines,
            };
        }
        self.st.dirty = true;
        self.link_wake = hw.now;
    }

    /// Drives a LINK SEND or RECEIVE and keeps its screen up to date.
    fn poll_transfer(&mut self, hw: &mut Hardware) {
        let Some(mut t) = self.transfer.take() else {
            return;
        };
        let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
        match &mut t {
            Transfer::Send(snd, items) => {
                let p = snd.poll(&mut ep);
                let shown = match p {
                    tilink::Progress::Pending(_) => (snd.position() + 1).min(items.len()),
                    _ => items.len(),
                };
                if let Shell::Link(s) = &mut self.shell {
                    let have = s.lines_mut().map_or(0, |l| l.len());
                    for (ty, name) in items.iter().take(shown).skip(have) {
                        s.push_line(*ty, *name);
                        self.st.dirty = true;
                    }
                }
                match p {
                    tilink::Progress::Pending(w) => {
                        self.link_wake = wake_time(w, &hw.link, hw.now);
                        self.link_edge = w.edge;
                        self.transfer = Some(t);
                    }
                    tilink::Progress::Done(Ok(_)) => self.transfer_done(),
                    tilink::Progress::Done(Err(_)) => self.link_failed(ErrorKind::Link),
                }
            }
            Transfer::Receive { rx, stored, rename } => {
                let p = rx.poll(&mut ep);
                let (vars, backup) = match &p {
                    tilink::Progress::Done(Ok(got)) => (got.vars.clone(), got.backup.clone()),
                    _ => (rx.received().vars.clone(), None),
                };
                for v in vars.into_iter().skip(*stored) {
                    *stored += 1;
                    let mut v = v;
                    if let Some(n) = rename.take() {
                        v.name = n;
                    }
                    if vat::store(hw.mem.ram_mut(), &v).is_err() {
                        rx.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
                        self.st.vat_hints.clear();
                        self.link_failed(ErrorKind::Memory);
                        return;
                    }
                    self.st.vat_hints.clear();
                    if let Shell::Link(s) = &mut self.shell {
                        if let LinkScreen::Transfer { phase, .. } = s {
                            *phase = Phase::Receiving;
                        }
                        s.push_line(v.var_type(), v.name);
                    }
                    self.st.dirty = true;
                }
                match p {
                    tilink::Progress::Pending(w) => {
                        self.link_wake = wake_time(w, &hw.link, hw.now);
                        self.link_edge = w.edge;
                        let question = rx.question().copied();
                        self.transfer = Some(t);
                        if let Some(h) = question {
                            self.ask(hw, h);
                        }
                    }
                    tilink::Progress::Done(Ok(_)) => {
                        if let Some(b) = backup {
                            if vat::restore_backup(hw.mem.ram_mut(), &b).is_err() {
                                self.link_failed(ErrorKind::Memory);
                                return;
                            }
                            self.st.vat_hints.clear();
                            if let Shell::Link(s) = &mut self.shell {
                                s.push_line(VarType::Backup, VarName::default());
                            }
                        }
                        self.transfer_done();
                    }
                    tilink::Progress::Done(Err(_)) => self.link_failed(ErrorKind::Link),
                }
            }
        }
    }

    fn transfer_done(&mut self) {
        if let Shell::Link(s) = &mut self.shell {
            let lines = s.lines_mut().map(std::mem::take).unwrap_or_default();
            *s = LinkScreen::Transfer {
                phase: Phase::Done,
                lines,
            };
        }
        self.st.dirty = true;
    }

    /// A header arrived in RECEIVE: accept it at once when its name is free and it fits, else
    /// put the question on the screen (once).
    fn ask(&mut self, hw: &mut Hardware, h: Header) {
        let asking = matches!(
            &self.shell,
            Shell::Link(
                LinkScreen::Duplicate { .. }
                    | LinkScreen::Rename { .. }
                    | LinkScreen::MemoryFull { .. }
                    | LinkScreen::BackupWarning { .. }
            )
        );
        if asking {
            return;
        }
        let Header::Var { size, ty, name } = h else {
            self.shell = Shell::Link(LinkScreen::BackupWarning { sel: 0 });
            self.st.dirty = true;
            return;
        };
        let ram = hw.mem.ram();
        let renamed = match &self.transfer {
            Some(Transfer::Receive { rename, .. }) => *rename,
            _ => None,
        };
        let name = renamed.unwrap_or(name);
        let exists = if ty.is_program() {
            program_exists(ram, &name)
        } else {
            matches!(vat::find(ram, ty, &name), Ok(Some(_)))
        };
        let Shell::Link(s) = &mut self.shell else {
            return;
        };
        let lines = s.lines_mut().map(|l| l.clone()).unwrap_or_default();
        if exists {
            *s = LinkScreen::Duplicate {
                ty,
                name,
                sel: 0,
                lines,
            };
            self.st.dirty = true;
            return;
        }
        // Room for the data and its VAT entry (type, two pointer bytes, name length, name).
        let need = usize::from(size) + 4 + name.bytes().len() + 2;
        let free = vat::Pointers::read(ram).map_or(0, |p| p.free());
        if need > free {
            *s = LinkScreen::MemoryFull {
                ty,
                name,
                sel: 0,
                lines,
            };
            self.st.dirty = true;
            return;
        }
        self.answer(hw, tilink::Decision::Accept);
    }

    // ------------------------------------------------------------------ a running program

    /// Keys while a program waits in `Menu(`, `Pause` or `Input`.
    fn key_wait(&mut self, hw: &mut Hardware, k: Key, wait: Wait) {
        match wait {
            Wait::Pause => {
                if k == Key::Enter {
                    self.interp.finish_wait(None);
                }
            }
            Wait::Menu { items, .. } => {
                let n = items.len().max(1);
                let chosen = match k {
                    Key::Up => {
                        self.menu_sel = (self.menu_sel + n - 1) % n;
                        None
                    }
                    Key::Down => {
                        self.menu_sel = (self.menu_sel + 1) % n;
                        None
                    }
                    Key::Enter => Some(self.menu_sel),
                    _ => digit_of(k)
                        .map(|d| if d == 0 { 9 } else { d - 1 })
                        .filter(|&i| i < n),
                };
                if let Some(i) = chosen {
                    self.menu_sel = 0;
                    self.interp.finish_wait(Some(i));
                }
                self.st.dirty = true;
            }
            Wait::Input(items) => self.key_input(hw, k, &items),
            Wait::Get(_) | Wait::Send(_) => {}
        }
    }

    fn start_input_item(&mut self, hw: &mut Hardware, items: &[(Option<Value>, Target)]) {
        let Some((prompt, _)) = items.get(self.input_idx) else {
            return;
        };
        let mut os = Self::os(&mut self.st, hw);
        let codes = match prompt {
            Some(v) => value_codes(v, NumFormat::FLOAT).0,
            None => vec![font::code_for('?').unwrap_or(b'?')],
        };
        os.home_line(&codes, false);
        // The answer is typed on the prompt's line, after the prompt.
        let pending = std::mem::take(&mut os.st.scroll_pending);
        let ram = os.ram_mut();
        let (row, _) = screen::cursor(ram);
        let row = if pending {
            screen::ROWS - 1
        } else {
            row.saturating_sub(1)
        };
        screen::set_cursor(ram, row, codes.len().min(15));
        self.entry.clear();
        self.input_started = true;
    }

    fn key_input(&mut self, hw: &mut Hardware, k: Key, items: &[(Option<Value>, Target)]) {
        let shift = std::mem::take(&mut self.shift);
        match (shift, k) {
            (_, Key::Enter) => {
                let entry = std::mem::take(&mut self.entry);
                let Some((_, target)) = items.get(self.input_idx).cloned() else {
                    self.input_idx = 0;
                    self.interp.finish_wait(None);
                    return;
                };
                let lines = compile(&entry);
                let value = match lines.first().map(|l| &l.stmt) {
                    Some(crate::ast::Stmt::Expr(e)) => {
                        let mut os = Self::os(&mut self.st, hw);
                        eval(&mut os, e)
                    }
                    _ => Err(ErrorKind::Syntax),
                };
                let stored = value.and_then(|v| {
                    let mut os = Self::os(&mut self.st, hw);
                    os.store(&target, v)
                });
                if let Err(kind) = stored {
                    self.interp.raise(kind);
                    return;
                }
                // Move below the answer.
                let ram = hw.mem.ram_mut();
                let (row, _) = screen::cursor(ram);
                if row + 1 >= screen::ROWS {
                    self.st.scroll_pending = true;
                } else {
                    screen::set_cursor(ram, row + 1, 0);
                }
                self.input_idx += 1;
                self.input_started = false;
                if self.input_idx >= items.len() {
                    self.input_idx = 0;
                    self.interp.finish_wait(None);
                } else {
                    // `Prompt A,B`: the next variable's prompt, on the next line.
                    self.start_input_item(hw, items);
                    self.st.dirty = true;
                }
            }
            (_, Key::Clear) => {
                self.entry.clear();
                self.show_input(hw);
            }
            _ => {
                if self.edit_entry(shift, k, 100) {
                    self.show_input(hw);
                }
            }
        }
    }

    fn show_input(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        let (row, col) = screen::cursor(ram);
        let codes = crate::os::string_codes(&self.entry);
        let room = screen::COLS - col;
        let tail = &codes[codes.len().saturating_sub(room)..];
        for c in col..screen::COLS {
            screen::put(ram, row, c, b' ');
        }
        screen::write_at(ram, row, col, tail);
        self.st.dirty = true;
    }

    /// Runs program statements until the budget, a wait, or the end.
    fn run_statements(&mut self, hw: &mut Hardware, until: u64) {
        let from_entry = self.interp.program_name().is_empty();
        for _ in 0..SLICE {
            if hw.now >= until || hw.now >= self.next_scan {
                break;
            }
            let status = {
                let mut os = Self::os(&mut self.st, hw);
                self.interp.step(&mut os)
            };
            self.statements += 1;
            if self.st.dirty {
                self.present(hw);
            } else if self.indicator_due {
                self.present_indicator(hw);
            }
            match status {
                Status::Running => {}
                Status::Waiting(w) => {
                    self.begin_wait(hw, w);
                    break;
                }
                Status::Done | Status::Idle => {
                    self.finished(hw, from_entry);
                    self.present(hw);
                    break;
                }
                Status::Error(err) => {
                    self.show_error(err);
                    self.present(hw);
                    break;
                }
            }
        }
    }

    fn begin_wait(&mut self, hw: &mut Hardware, w: Wait) {
        match w {
            Wait::Input(items) => {
                if !self.input_started {
                    self.input_idx = 0;
                    self.start_input_item(hw, &items);
                }
            }
            Wait::Get(target) => {
                if self.requester.is_none() {
                    match get_request(&target) {
                        Some((ty, name)) => {
                            self.requester = Some(tilink::Requester::new(
                                tilink::MID_TI82,
                                tilink::Timing::default(),
                                ty,
                                name,
                            ));
                            self.link_wake = hw.now;
                        }
                        None => self.interp.raise(ErrorKind::DataType),
                    }
                }
            }
            Wait::Send(target) => {
                if self.sender.is_none() {
                    match send_variable(hw.mem.ram(), &target) {
                        Ok(var) => {
                            self.sender = Some(
                                tilink::SendVars::new(
                                    tilink::MID_TI82,
                                    tilink::Timing::default(),
                                    &[var],
                                )
                                .with_rts()
                                .eot_ack_optional(),
                            );
                            self.link_wake = hw.now;
                        }
                        Err(kind) => self.interp.raise(kind),
                    }
                }
            }
            Wait::Menu { .. } | Wait::Pause => {}
        }
        self.st.dirty = true;
        self.present(hw);
    }

    /// Drives the link: the `Get(` requester while a program waits on it, else the holder
    /// whenever the OS would answer a silent request (waiting for a key: the home screen,
    /// menus, `Pause`, `Input`), and to the end of any exchange it started. A `Get(` that
    /// nobody answers ends with the variable unchanged (see `docs/tibasic.md`).
    fn poll_link(&mut self, hw: &mut Hardware) {
        if self.transfer.is_some() {
            self.poll_transfer(hw);
            if self.st.dirty {
                self.present(hw);
            }
            return;
        }
        if let Some(req) = &mut self.requester {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match req.poll(&mut ep) {
                tilink::Progress::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                }
                tilink::Progress::Done(result) => {
                    self.requester = None;
                    self.link_wake = hw.now;
                    if let Ok(var) = result {
                        // The variable arrives under its own name, as the OS stores it.
                        if vat::store(hw.mem.ram_mut(), &var).is_err() {
                            self.interp.raise(ErrorKind::Memory);
                            return;
                        }
                    }
                    self.st.vat_hints.clear();
                    self.interp.finish_wait(None);
                }
            }
            return;
        }
        if let Some(snd) = &mut self.sender {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match snd.poll(&mut ep) {
                tilink::Progress::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                }
                tilink::Progress::Done(result) => {
                    self.sender = None;
                    self.link_wake = hw.now;
                    match result {
                        Ok(_) => self.interp.finish_wait(None),
                        // A peer that does not answer the RTS (another TI-82), refuses, or
                        // breaks off: ERR:TRANSMISSION (see docs/tibasic.md).
                        Err(_) => {
                            self.interp.raise(ErrorKind::Link);
                            if let Status::Error(err) = self.interp.status() {
                                self.show_error(err);
                            }
                            self.present(hw);
                        }
                    }
                }
            }
            return;
        }
        let answering = match &self.shell {
            Shell::Running => matches!(self.interp.status(), Status::Waiting(_)),
            _ => true,
        };
        if !answering && !self.holder.is_busy() {
            // Busy running: no answer until the program waits for a key again (the next key
            // scan looks).
            self.link_wake = self.next_scan;
            self.link_edge = false;
            return;
        }
        for _ in 0..4 {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            let mut vars = tilink::RamVars(hw.mem.ram());
            match self.holder.poll(&mut ep, &mut vars) {
                tilink::HolderPoll::Pending(w) => {
                    self.link_wake = wake_time(w, &hw.link, hw.now);
                    self.link_edge = w.edge;
                    return;
                }
                // Served, missing, declined or failed: listen again at once.
                tilink::HolderPoll::Event(_) => self.link_wake = hw.now,
            }
        }
    }

    fn on_key(&mut self, hw: &mut Hardware) {
        // ON breaks a transfer: the screen shows the link error (its 1:Quit returns to the
        // LINK menu).
        if let Some(t) = self.transfer.take() {
            let mut ep = tilink::TimedPort::new(&mut hw.link, hw.now);
            match t {
                Transfer::Send(mut snd, _) => snd.cancel(&mut ep),
                Transfer::Receive { mut rx, .. } => rx.cancel(&mut ep),
            }
            self.link_failed(ErrorKind::Link);
            self.present(hw);
            return;
        }
        if self.shell == Shell::Running {
            // ON breaks a running or waiting program (spec §6.1).
            self.interp.raise(ErrorKind::Break);
            if let Status::Error(err) = self.interp.status() {
                self.show_error(err);
            }
            if let Some(mut req) = self.requester.take() {
                req.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
            }
            if let Some(mut snd) = self.sender.take() {
                snd.cancel(&mut tilink::TimedPort::new(&mut hw.link, hw.now));
            }
            self.present(hw);
        }
    }

    fn handle_key(&mut self, hw: &mut Hardware, k: Key) {
        match self.shell.clone() {
            Shell::Home => self.key_home(hw, k),
            Shell::ProgramMenu { sel } => self.key_program_menu(hw, k, sel),
            Shell::Error { err, sel } => self.key_error(hw, k, err, sel),
            Shell::Link(screen) => self.key_link(hw, k, screen),
            Shell::Mem(mut screen) => {
                let shift = std::mem::take(&mut self.shift);
                if k == Key::Second && shift == Shift::None {
                    self.shift = Shift::Second;
                } else {
                    let action = screen.key(k, shift == Shift::Second, hw.mem.ram());
                    self.shell = Shell::Mem(screen);
                    match action {
                        MemAction::None => {}
                        MemAction::Quit => {
                            self.shell = Shell::Home;
                            self.st.shown = Shown::Home;
                        }
                        MemAction::Delete(ty, name) => {
                            // (A name the VAT no longer has is nothing to delete.)
                            let _ = vat::delete(hw.mem.ram_mut(), ty, &name);
                            self.st.vat_hints.clear();
                        }
                        MemAction::Reset => self.reset_memory(hw),
                    }
                }
                self.st.dirty = true;
            }
            Shell::Mode(mut cursor) => {
                let shift = std::mem::take(&mut self.shift);
                if k == Key::Second && shift == Shift::None {
                    self.shift = Shift::Second;
                } else {
                    let action = cursor.key(k, shift == Shift::Second, &mut self.st.modes);
                    self.shell = Shell::Mode(cursor);
                    self.indicator = 0;
                    if action == ModeAction::Quit {
                        self.shell = Shell::Home;
                        self.st.shown = Shown::Home;
                    }
                }
                self.st.dirty = true;
            }
            Shell::Running => {
                if let Status::Waiting(w) = self.interp.status() {
                    self.key_wait(hw, k, w);
                } else {
                    // A key pressed while a program runs stays latched for getKey.
                    let ram = hw.mem.ram_mut();
                    ram[screen::off(screen::KBD_SCAN_CODE)] = k.scan_code();
                }
            }
        }
        if self.st.dirty {
            self.present(hw);
        } else if self.indicator_due {
            self.present_indicator(hw);
        }
    }

    fn tick(&mut self, hw: &mut Hardware) {
        if self.scanner.scan(hw) {
            self.on_key(hw);
        }
        // Waiting screens and the home screen read keys themselves; a running program leaves
        // them latched for getKey.
        let waiting =
            !matches!(self.interp.status(), Status::Running) || self.shell != Shell::Running;
        if waiting {
            if let Some(k) = keys::take_key(hw) {
                self.handle_key(hw, k);
            }
        }
        if let Shell::Mode(_) = self.shell {
            // The MODE cursor's blink.
            self.indicator = (self.indicator + 1) % 100;
            if self.indicator == 0 || self.indicator == 50 {
                self.st.dirty = true;
            }
        }
        if self.shell == Shell::Running {
            // The indicator steps every 4 scans (25 Hz).
            self.indicator = self.indicator.wrapping_add(1);
            if self.indicator & 3 == 0 {
                self.indicator_due = true;
            }
        }
        self.next_scan = hw.now + SCAN_PERIOD;
    }

    // ------------------------------------------------------------------ save states

    fn save(&self, w: &mut StateWriter) {
        w.u8(4); // format version of this firmware's state
        self.interp.save(w);
        let s = &self.st;
        w.u8(match s.shown {
            Shown::Home => 0,
            Shown::Graph => 1,
        });
        w.bool(s.modes.degrees);
        w.bool(s.modes.axes);
        w.bool(s.modes.grid);
        w.bool(s.modes.labels);
        // Low nibble: Fix digits or F for Float; high nibble: Normal 0 (F with Float), Sci 1,
        // Eng 2. Normal Float stays FFh and Normal Fix n stays n, as before Sci/Eng existed.
        let notation = match s.modes.notation {
            Notation::Normal => 0,
            Notation::Sci => 1,
            Notation::Eng => 2,
        };
        w.u8(match (s.modes.fix, notation) {
            (None, 0) => 0xFF,
            (None, n) => n << 4 | 0x0F,
            (Some(d), n) => n << 4 | d,
        });
        w.u8(s.modes.graph);
        w.bool(s.modes.dot);
        w.bool(s.modes.simul);
        w.bool(s.modes.split);
        w.bool(s.scroll_pending);
        w.bytes(&self.scanner.down);
        match self.scanner.held {
            Some((c, t)) => {
                w.u8(c);
                w.u64(t);
            }
            None => {
                w.u8(0);
                w.u64(0);
            }
        }
        w.bool(self.scanner.on_down);
        match &self.shell {
            Shell::Home => w.u8(0),
            Shell::ProgramMenu { sel } => {
                w.u8(1);
                w.u32(*sel as u32);
            }
            Shell::Running => w.u8(2),
            Shell::Error { err, sel } => {
                w.u8(3);
                w.bytes(err.kind.to_string().as_bytes());
                w.bytes(&err.program);
                w.u32(err.offset);
                w.u32(*sel as u32);
            }
            Shell::Link(screen) => {
                w.u8(4);
                screen.save(w);
            }
            Shell::Mem(m) => {
                w.u8(6);
                m.save(w);
            }
            Shell::Mode(c) => {
                w.u8(5);
                w.u32(c.row as u32);
                w.u32(c.col as u32);
            }
        }
        w.u8(match self.shift {
            Shift::None => 0,
            Shift::Second => 1,
            Shift::Alpha => 2,
        });
        w.bytes(&self.entry);
        w.bytes(&self.last_entry);
        w.u32(self.menu_sel as u32);
        w.u32(self.input_idx as u32);
        w.bool(self.input_started);
        self.holder.save(w);
        match &self.requester {
            Some(r) => {
                w.bool(true);
                r.save(w);
            }
            None => w.bool(false),
        }
        match &self.sender {
            Some(s) => {
                w.bool(true);
                s.save(w);
            }
            None => w.bool(false),
        }
        match &self.transfer {
            None => w.u8(0),
            Some(Transfer::Send(snd, items)) => {
                w.u8(1);
                snd.save(w);
                w.u32(items.len() as u32);
                for (ty, name) in items {
                    w.u8(ty.to_byte());
                    w.bytes(&name.0);
                }
            }
            Some(Transfer::Receive { rx, stored, rename }) => {
                w.u8(2);
                rx.save(w);
                w.u32(*stored as u32);
                w.bytes(&rename.map(|n| n.0.to_vec()).unwrap_or_default());
            }
        }
        w.u64(self.link_wake);
        w.bool(self.link_edge);
        w.u64(self.next_scan);
        w.bytes(&self.pushed);
        w.bool(self.lcd_ready);
        w.u8(self.indicator);
        w.u64(self.statements);
    }

    fn load(&mut self, data: &[u8]) -> Result<(), StateError> {
        let mut r = StateReader::new(data);
        let mut f = BasicFirmware::new();
        // Version 1 had no `Send(` sender, version 2 no LINK screens, version 3 no MODE
        // screen.
        let version = r.u8()?;
        if !(1..=4).contains(&version) {
            return Err(StateError::Corrupt(
                "unknown TI-BASIC runtime state version",
            ));
        }
        f.interp = Interp::load(&mut r)?;
        f.st.shown = if r.u8()? == 1 {
            Shown::Graph
        } else {
            Shown::Home
        };
        f.st.modes.degrees = r.bool()?;
        f.st.modes.axes = r.bool()?;
        f.st.modes.grid = r.bool()?;
        f.st.modes.labels = r.bool()?;
        let mode = r.u8()?;
        f.st.modes.fix = match mode & 0x0F {
            0x0F => None,
            d => Some(d.min(9)),
        };
        f.st.modes.notation = match mode >> 4 {
            1 => Notation::Sci,
            2 => Notation::Eng,
            _ => Notation::Normal,
        };
        if version >= 4 {
            f.st.modes.graph = r.u8()?.min(3);
            f.st.modes.dot = r.bool()?;
            f.st.modes.simul = r.bool()?;
            f.st.modes.split = r.bool()?;
        }
        f.st.scroll_pending = r.bool()?;
        let down = r.bytes()?;
        if down.len() != 7 {
            return Err(StateError::Corrupt("keypad scanner state"));
        }
        f.scanner.down.copy_from_slice(down);
        let (c, t) = (r.u8()?, r.u64()?);
        f.scanner.held = (c != 0).then_some((c, t));
        f.scanner.on_down = r.bool()?;
        f.shell = match r.u8()? {
            0 => Shell::Home,
            1 => Shell::ProgramMenu {
                sel: r.u32()? as usize,
            },
            2 => Shell::Running,
            3 => {
                let name = String::from_utf8_lossy(r.bytes()?).to_string();
                let program = r.bytes()?.to_vec();
                let offset = r.u32()?;
                let sel = (r.u32()? as usize).min(1);
                Shell::Error {
                    err: ProgramError {
                        kind: ErrorKind::from_text(&name),
                        program,
                        offset,
                    },
                    sel,
                }
            }
            4 => Shell::Link(LinkScreen::load(&mut r)?),
            6 => Shell::Mem(MemScreen::load(&mut r)?),
            5 => {
                let c = ModeCursor {
                    row: r.u32()? as usize,
                    col: r.u32()? as usize,
                };
                if !c.valid() {
                    return Err(StateError::Corrupt("MODE cursor"));
                }
                Shell::Mode(c)
            }
            _ => return Err(StateError::Corrupt("runtime shell state")),
        };
        f.shift = match r.u8()? {
            1 => Shift::Second,
            2 => Shift::Alpha,
            _ => Shift::None,
        };
        f.entry = r.bytes()?.to_vec();
        f.last_entry = r.bytes()?.to_vec();
        f.menu_sel = r.u32()? as usize;
        f.input_idx = r.u32()? as usize;
        f.input_started = r.bool()?;
        f.holder = tilink::Holder::load(&mut r)?;
        f.requester = if r.bool()? {
            Some(tilink::Requester::load(&mut r)?)
        } else {
            None
        };
        f.sender = if version >= 2 && r.bool()? {
            Some(tilink::SendVars::load(&mut r)?)
        } else {
            None
        };
        f.transfer = match if version >= 3 { r.u8()? } else { 0 } {
            0 => None,
            1 => {
                let snd = tilink::SendVars::load(&mut r)?;
                let n = r.u32()? as usize;
                if n > 4096 {
                    return Err(StateError::Corrupt("LINK send items"));
                }
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    let ty = VarType::from_byte(r.u8()?);
                    let name = r.bytes()?;
                    if name.len() != 8 {
                        return Err(StateError::Corrupt("LINK send item name"));
                    }
                    items.push((ty, VarName::from_bytes(name)));
                }
                Some(Transfer::Send(snd, items))
            }
            2 => {
                let rx = tilink::ReceiveVars::load(&mut r)?;
                let stored = r.u32()? as usize;
                let rename = match r.bytes()? {
                    [] => None,
                    n if n.len() == 8 => Some(VarName::from_bytes(n)),
                    _ => return Err(StateError::Corrupt("LINK rename")),
                };
                if stored > rx.received().vars.len() {
                    return Err(StateError::Corrupt("LINK received count"));
                }
                Some(Transfer::Receive { rx, stored, rename })
            }
            _ => return Err(StateError::Corrupt("LINK transfer")),
        };
        f.link_wake = r.u64()?;
        f.link_edge = r.bool()?;
        f.next_scan = r.u64()?;
        let pushed = r.bytes()?;
        if pushed.len() != SCREEN_BYTES {
            return Err(StateError::Corrupt("runtime LCD mirror"));
        }
        f.pushed.copy_from_slice(pushed);
        f.lcd_ready = r.bool()?;
        f.indicator = r.u8()?;
        f.statements = r.u64()?;
        r.done()?;
        f.validate()?;
        *self = f;
        Ok(())
    }

    /// The invariants the runtime relies on, checked on a freshly loaded state before it
    /// replaces the running one: indices inside what they index, times that cannot overflow.
    fn validate(&self) -> Result<(), StateError> {
        let corrupt = |what| Err(StateError::Corrupt(what));
        match self.interp.status() {
            Status::Waiting(Wait::Menu { items, .. }) if self.menu_sel >= items.len() => {
                return corrupt("Menu( selection past its items");
            }
            Status::Waiting(Wait::Input(items)) if self.input_idx >= items.len() => {
                return corrupt("Prompt item past its variables");
            }
            _ => {}
        }
        if self.menu_sel >= 7 || self.input_idx >= crate::interp::MAX_INPUT_ITEMS {
            return corrupt("menu or prompt position");
        }
        if let Some((code, next)) = self.scanner.held {
            if !(1..=56).contains(&code) || next > TIME_LIMIT {
                return corrupt("held key");
            }
        }
        // (`link_wake` is only compared: `u64::MAX` there means no link event is due.)
        if self.next_scan > TIME_LIMIT || self.statements > TIME_LIMIT {
            return corrupt("runtime clock");
        }
        if self.entry.len() > 1024 || self.last_entry.len() > 1024 {
            return corrupt("entry line");
        }
        // A transfer belongs to a LINK screen, and a `Get(`/`Send(` to a running program.
        if self.transfer.is_some() && !matches!(self.shell, Shell::Link(_)) {
            return corrupt("LINK transfer outside the LINK screens");
        }
        if self.transfer.is_some() && (self.requester.is_some() || self.sender.is_some()) {
            return corrupt("two link exchanges at once");
        }
        Ok(())
    }
}

impl Firmware for BasicFirmware {
    fn name(&self) -> &'static str {
        "tibasic"
    }

    fn power_on(&mut self, hw: &mut Hardware) {
        *self = BasicFirmware::new();
        self.init_ram(hw);
        self.init_lcd(hw);
        self.next_scan = hw.now + SCAN_PERIOD;
        self.present(hw);
    }

    fn run(&mut self, hw: &mut Hardware, until: u64) {
        hw.halted = false;
        // Line changes the peer sent since the last run wake a link machine waiting for one.
        if self.link_edge {
            if let Some(t) = hw.link.next_peer_change() {
                self.link_wake = self.link_wake.min(t.max(hw.now));
            }
        }
        while hw.now < until {
            if hw.now >= self.next_scan {
                self.tick(hw);
            }
            if hw.now >= self.link_wake {
                self.poll_link(hw);
            }
            // A silent request the holder began serving in the key wait (`Pause`, `Input`,
            // a menu) is served whole before the program goes on: the OS's key-wait routine
            // runs the exchange to its end before it returns the key (spec 1.7.6).
            let running = self.shell == Shell::Running
                && matches!(self.interp.status(), Status::Running)
                && !self.holder.is_busy();
            if running {
                self.run_statements(hw, until);
                continue;
            }
            // Waiting for a key or the link: nothing to do until the next key scan or link
            // event. (The OS sits in HALT between timer interrupts here.)
            let next = self.next_scan.min(until).min(self.link_wake);
            if hw.now < next {
                hw.now = next;
            }
        }
    }

    fn save_state(&self, w: &mut StateWriter) {
        self.save(w);
    }

    fn load_state(&mut self, data: &[u8]) -> Result<(), StateError> {
        self.load(data)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

// ---------------------------------------------------------------------- helpers

/// The programs in the VAT, by name, as the PRGM menu lists them (alphabetical, the OS's
/// internal `!` and `#` left out).
pub fn program_names(ram: &[u8]) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = vat::entries(ram)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.var_type().is_program() && !e.is_internal())
        .map(|e| e.name.bytes().to_vec())
        .collect();
    names.sort();
    names
}

/// Puts variables (programs, lists, pictures...) into the calculator's RAM, as a computer
/// would send them. Programs already there are replaced.
pub fn install(ram: &mut [u8], vars: &[Variable]) -> Result<(), vat::VatError> {
    for v in vars {
        vat::store(ram, v)?;
    }
    Ok(())
}

/// A calculator on this firmware holding `programs`, each (name, source text) tokenized as the
/// project's program files are (tests, fuzzing, tools). The error names the program.
pub fn calc_with_sources(programs: &[(&str, &str)]) -> Result<ti82_machine::Calc, String> {
    let vars = programs
        .iter()
        .map(|(name, src)| {
            let tokens =
                tifiles::tokens::tokenize_source(src).map_err(|e| format!("{name}: {e}"))?;
            program_var(name, tokens).ok_or_else(|| format!("{name}: not a program name"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut calc = ti82_machine::Calc::new(BasicFirmware::new());
    install(calc.ram_mut(), &vars).map_err(|e| format!("the programs do not fit: {e}"))?;
    Ok(calc)
}

/// A program variable from its name and tokens.
pub fn program_var(name: &str, tokens: Vec<u8>) -> Option<Variable> {
    Some(Variable {
        name: VarName::program(name).ok()?,
        data: VarData::Program(tokens),
    })
}

/// Reads list `L1`..`L6` (n = 1..6) out of RAM.
pub fn read_list(ram: &[u8], n: u8) -> Option<Vec<Real>> {
    let l = vat::read_list(ram, n).ok()??;
    Some(
        l.into_iter()
            .map(|f| Real::from_bcd(f.to_bytes()).unwrap_or(Real::ZERO))
            .collect(),
    )
}

/// The label (a large-font code) of item `i` (0-based) of a menu: `1`–`9`, `0`, then `A`–`Z`
/// and `θ`, as TI-82 menus continue past ten items with letters (STAT CALC's "option B"; the
/// source is in docs/tibasic.md). Past those 37 an item has no label and is reached by
/// scrolling: the TI-82's behaviour there is undocumented (see docs/tibasic.md).
pub fn menu_label(i: usize) -> Option<u8> {
    const LABELS: &[u8; 36] = b"1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    LABELS
        .get(i)
        .copied()
        .or_else(|| (i == LABELS.len()).then(|| font::code_for('θ').unwrap_or(b'?')))
}

fn digit_of(k: Key) -> Option<usize> {
    Some(match k {
        Key::K0 => 0,
        Key::K1 => 1,
        Key::K2 => 2,
        Key::K3 => 3,
        Key::K4 => 4,
        Key::K5 => 5,
        Key::K6 => 6,
        Key::K7 => 7,
        Key::K8 => 8,
        Key::K9 => 9,
        _ => return None,
    })
}

fn pop_token(entry: &mut Vec<u8>) {
    // Remove the last whole token (a two-byte token is removed whole).
    let mut i = 0;
    let mut last = 0;
    while i < entry.len() {
        last = i;
        i += if is_prefix(entry[i]) { 2 } else { 1 };
    }
    entry.truncate(last);
}

/// The token a key types on the home screen or in `Input`, with 2nd or ALPHA pending.
fn key_token(shift: Shift, k: Key) -> Option<&'static [u8]> {
    use Key::*;
    Some(match shift {
        Shift::None => match k {
            K0 => b"0",
            K1 => b"1",
            K2 => b"2",
            K3 => b"3",
            K4 => b"4",
            K5 => b"5",
            K6 => b"6",
            K7 => b"7",
            K8 => b"8",
            K9 => b"9",
            Dot => &[DECIMAL_POINT],
            Neg => &[NEGATE],
            Add => &[PLUS],
            Sub => &[MINUS],
            Mul => &[TIMES],
            Div => &[DIVIDE],
            Pow => &[POWER],
            LParen => &[LPAREN],
            RParen => &[RPAREN],
            Comma => &[COMMA],
            Sto => &[STORE],
            Square => &[SQUARE],
            Inverse => &[INVERSE],
            Sin => &[SIN],
            Cos => &[0xC4],
            Tan => &[0xC6],
            Ln => &[LN],
            Log => &[LOG],
            XTTheta => b"X",
            _ => return None,
        },
        Shift::Second => match k {
            Square => &[SQRT],
            Neg => &[ANS],
            Pow => &[PI],
            LParen => &[LBRACE],
            RParen => &[RBRACE],
            Mul => &[LBRACKET],
            Sub => &[RBRACKET],
            K1 => &[PREFIX_LIST, 0],
            K2 => &[PREFIX_LIST, 1],
            K3 => &[PREFIX_LIST, 2],
            K4 => &[PREFIX_LIST, 3],
            K5 => &[PREFIX_LIST, 4],
            K6 => &[PREFIX_LIST, 5],
            Sin => &[0xC3],
            Cos => &[0xC5],
            Tan => &[0xC7],
            Ln => &[EXP],
            Log => &[TEN_POW],
            Comma => &[EXP10],
            _ => return None,
        },
        Shift::Alpha => match k {
            Math => b"A",
            Matrx => b"B",
            Prgm => b"C",
            Inverse => b"D",
            Sin => b"E",
            Cos => b"F",
            Tan => b"G",
            Pow => b"H",
            Square => b"I",
            Comma => b"J",
            LParen => b"K",
            RParen => b"L",
            Div => b"M",
            Log => b"N",
            K7 => b"O",
            K8 => b"P",
            K9 => b"Q",
            Mul => b"R",
            Ln => b"S",
            K4 => b"T",
            K5 => b"U",
            K6 => b"V",
            Sub => b"W",
            Sto => b"X",
            K1 => b"Y",
            K2 => b"Z",
            K3 => &[THETA],
            K0 => &[SPACE],
            Add => &[QUOTE],
            Dot => &[COLON],
            Neg => &[0xAF],
            _ => return None,
        },
    })
}

/// `Menu(`: the title in inverse video on the top line, then `1:ITEM` lines with the
/// selected item's number in inverse video.
fn draw_menu(title: &Value, items: &[Value], sel: usize, img: &mut [u8; SCREEN_BYTES]) {
    let (t, _) = value_codes(title, NumFormat::FLOAT);
    font::draw_large_with(img, 0, 0, &t[..t.len().min(16)], true);
    for (i, item) in items.iter().enumerate().take(7) {
        let row = (i + 1) * 8;
        let num = menu_label(i).unwrap_or(b' ');
        font::draw_large_with(img, row, 0, &[num], i == sel);
        font::draw_large(img, row, 6, b":");
        let (codes, _) = value_codes(item, NumFormat::FLOAT);
        font::draw_large(img, row, 12, &codes[..codes.len().min(14)]);
    }
}

fn draw_error(err: &ProgramError, sel: usize, img: &mut [u8; SCREEN_BYTES]) {
    let name = format!("ERR:{}", err.kind.ti_name());
    let codes = font::encode(&name).unwrap_or_else(|_| name.bytes().collect());
    font::draw_large(img, 0, 0, &codes[..codes.len().min(16)]);
    for (i, text) in [b"Goto".as_slice(), b"Quit"].iter().enumerate() {
        let row = (i + 1) * 8;
        font::draw_large_with(img, row, 0, &[b'1' + i as u8], i == sel);
        font::draw_large(img, row, 6, b":");
        font::draw_large(img, row, 12, text);
    }
}

/// The run indicator in the top-right corner: a moving dash while running, a dotted line
/// while paused (spec §8.4: the OS animates an 8×8 area there).
fn draw_indicator(img: &mut [u8; SCREEN_BYTES], phase: u8, paused: bool) {
    let col = 90usize;
    for row in 0..7usize {
        let on = if paused {
            row % 2 == 0
        } else {
            (row + 7 - (phase as usize / 4 % 7)) % 7 < 4
        };
        let i = row * 12 + col / 8;
        let m = 0x80u8 >> (col % 8);
        if on {
            img[i] |= m;
        } else {
            img[i] &= !m;
        }
    }
}

/// Milliseconds of emulated time a scripted key stays down, and the pause after it: slow
/// enough for the OS's 100 Hz key scan, like a quick human.
pub const KEY_HOLD_T: u64 = 6_000 * 60;

/// Presses and releases `k` with human pacing.
pub fn tap(calc: &mut ti82_machine::Calc, k: Key) {
    calc.press(k);
    calc.run_for(KEY_HOLD_T);
    calc.release(k);
    calc.run_for(KEY_HOLD_T);
}

/// Starts program `name` on a calculator running this firmware the way a user does:
/// CLEAR, PRGM, the program's line in the EXEC menu, ENTER, ENTER.
pub fn start_program(calc: &mut ti82_machine::Calc, name: &str) -> Result<(), String> {
    let names = program_names(calc.ram());
    let idx = names
        .iter()
        .position(|n| n.as_slice() == name.as_bytes())
        .ok_or_else(|| format!("program {name} is not in the calculator's memory"))?;
    tap(calc, Key::Clear);
    tap(calc, Key::Prgm);
    for _ in 0..idx {
        tap(calc, Key::Down);
    }
    tap(calc, Key::Enter);
    tap(calc, Key::Enter);
    Ok(())
}

/// Replaces the calculator's memory with a backup (spec 7.6), checked whole before anything
/// changes (`tifiles::vat::restore_backup`); the runtime forgets what it knew of the old VAT.
pub fn restore_backup(
    calc: &mut ti82_machine::Calc,
    b: &tifiles::Backup,
) -> Result<(), vat::VatError> {
    vat::restore_backup(calc.ram_mut(), b)?;
    if let Some(fw) = calc
        .firmware_mut()
        .as_any_mut()
        .downcast_mut::<BasicFirmware>()
    {
        fw.st.vat_hints.clear();
        fw.st.dirty = true;
    }
    Ok(())
}

/// Whether a program (protected or not) named `name` is in the VAT.
fn program_exists(ram: &[u8], name: &VarName) -> bool {
    [VarType::Program, VarType::ProtectedProgram]
        .iter()
        .any(|ty| matches!(vat::find(ram, *ty, name), Ok(Some(_))))
}

/// The variable a `Get(` asks for.
fn get_request(t: &Target) -> Option<(tifiles::var::VarType, VarName)> {
    use tifiles::var::VarType;
    match t {
        Target::Var(v) => Some((VarType::Real, VarName::from_bytes(&[*v]))),
        Target::List(k) => Some((VarType::List, VarName::from_bytes(&[PREFIX_LIST, *k]))),
        Target::Matrix(k) => Some((VarType::Matrix, VarName::from_bytes(&[PREFIX_MATRIX, *k]))),
        _ => None,
    }
}

/// The variable a `Send(` pushes, read from the VAT. An undefined real is sent as 0 (it reads
/// as 0 everywhere else); an undefined list or matrix is ERR:UNDEFINED.
fn send_variable(ram: &[u8], t: &Target) -> Result<Variable, ErrorKind> {
    use tilink::VarSource;
    let (ty, name) = get_request(t).ok_or(ErrorKind::DataType)?;
    match tilink::RamVars(ram).lookup(ty, &name) {
        Some(v) => Ok(v),
        None if ty == tifiles::var::VarType::Real => Ok(Variable {
            name,
            data: VarData::Real(tifiles::float::TiFloat::from_bytes(Real::ZERO.to_bcd())),
        }),
        None => Err(ErrorKind::Undefined),
    }
}

/// When to poll a link state machine next: its deadline, or the next line change the peer
/// has already sent when it waits for an edge.
fn wake_time(w: tilink::Wake, port: &ti82_machine::LinkPort, now: u64) -> u64 {
    let at = if w.edge {
        w.at.min(port.next_peer_change().unwrap_or(u64::MAX))
    } else {
        w.at
    };
    at.max(now + 1)
}

#[cfg(test)]
#[path = "firmware_state_tests.rs"]
mod state_tests;
