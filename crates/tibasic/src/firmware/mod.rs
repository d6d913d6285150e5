//! [`BasicFirmware`]: the built-in runtime as a firmware for `Calc`. It plays the OS's part:
//! the home screen (typing and evaluating entries, the PRGM menu), running programs statement
//! by statement, `Menu(`/`Pause`/`Input` screens, error screens, the run indicator, the LINK,
//! MODE and MEMORY screens, and pushing the screen to the T6A04 through ports 10h/11h.
//! Everything is steppable: `run` returns when its T-state budget is spent and resumes exactly
//! there.
//!
//! The rooms: this file holds the runtime's state, the key dispatch and the helpers other
//! crates use; `home` the home screen, PRGM menu and error screen; `program` a running
//! program and its waits; `link` the silent link, `Get(`/`Send(` and LINK transfers;
//! `menus` the MODE and MEMORY screens' effects; `lcd` drawing and pushing the screen;
//! `state` save states. The screens themselves (texts, keys) are in `crate::shell`.

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
use crate::os::{value_codes, value_lines, Os, OsState, Shown};
use crate::parse::compile;
use crate::real::Real;
use crate::screen::{self, SCREEN_BYTES};
use crate::shell::catalog::{CatalogAction, CatalogCursor, CatalogFrom};
use crate::shell::editor::{Editor, EditorAction};
use crate::shell::entry::{
    layout, rows_needed, EntryLine, EntryStack, CURSOR_ALPHA, CURSOR_ALPHA_INSERT, CURSOR_BLOCK,
    CURSOR_FULL, CURSOR_INSERT, CURSOR_SECOND, CURSOR_SECOND_INSERT,
};
use crate::shell::link::{LinkAction, LinkScreen, Phase};
use crate::shell::matrix::MatrixEditor;
use crate::shell::mem::{MemAction, MemScreen};
use crate::shell::mode::{ModeAction, ModeCursor};
use crate::shell::stat::ListEditor;
use crate::token::*;
use crate::value::{ErrorKind, Value};

mod debugging;
mod editing;
mod graphing;
mod home;
mod lcd;
mod link;
mod matrices;
mod menus;
mod modes;
mod plotformat;
mod power;
mod program;
mod stat;
mod state;
mod tblset;

use home::{edit_line, key_token};
use link::{get_request, send_variable, Transfer};

/// T-states between two LCD accesses when pushing the screen (the driver's busy time,
/// spec §5.6, plus the OS's loop).
pub const LCD_GAP: u64 = 64;
/// Statements run between two checks of the keypad and the budget.
const SLICE: u32 = 64;
/// Key scans (100 Hz) of one blink of the entry cursor: on for half, then the character
/// under it for half [I].
const BLINK_PERIOD: u8 = 100;
/// The longest entry line, in bytes of tokens, on the home screen and in `Input` [I].
const HOME_ENTRY_MAX: usize = 200;
const INPUT_ENTRY_MAX: usize = 100;

/// The latest time (T-states) a save state may hold (the machine's own bound, 2^60, about
/// 6 500 years of emulated time), far enough from `u64::MAX` that no addition overflows.
const TIME_LIMIT: u64 = 1 << 60;

/// What the firmware is doing, beyond the interpreter's own state.
#[derive(Clone, Debug, PartialEq)]
enum Shell {
    /// The home screen, with the entry line being typed.
    Home,
    /// The PRGM menu: EXEC (`tab` 0), EDIT (1) or NEW (2).
    ProgramMenu { sel: usize, tab: u8 },
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
    /// A menu that types tokens (MATH, TEST, ANGLE, MATRX, LIST, PRGM in the editor), over
    /// the line it types into.
    Catalog {
        cur: CatalogCursor,
        from: CatalogFrom,
    },
    /// The program editor (its state: `BasicFirmware::editor`).
    Editor,
    /// The statistics list editor (STAT › EDIT › `1:Edit…`).
    StatEdit(ListEditor),
    /// The Y= editor.
    YEditor(crate::shell::graphing::YEditor),
    /// TABLE SETUP.
    TblSet(crate::shell::tblset::TblSet),
    /// The WINDOW screen.
    Window(crate::shell::window::WindowEditor),
    /// The table (2nd TABLE).
    Table(crate::shell::table::TableScreen),
    /// The graph (GRAPH), with the TRACE cursor if tracing.
    Graph(Option<crate::shell::graphing::Trace>),
    /// The matrix editor (MATRX ► EDIT).
    Matrix(MatrixEditor),
    /// The graph with the TRACE cursor of the Par, Pol or Seq mode.
    GraphModeTrace(crate::shell::graphing::ModeTrace),
    /// The graph with GRAPH's free-moving cursor.
    GraphFree(crate::shell::graphing::FreeCursor),
    /// STAT › CALC › SetUp….
    StatSetup(crate::shell::statsetup::SetUpCursor),
    /// 2nd STAT PLOT: the STAT PLOTS menu or a plot's editor.
    StatPlot(crate::shell::statplot::StatPlotScreen),
    /// WINDOW ► FORMAT, its cursor.
    Format(crate::shell::format::FormatCursor),
}

/// A pending key modifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Shift {
    #[default]
    None,
    Second,
    Alpha,
    /// 2nd A-LOCK: ALPHA stays on until ALPHA is pressed again.
    AlphaLock,
}

/// The built-in TI-BASIC runtime.
#[derive(Clone, Debug)]
pub struct BasicFirmware {
    interp: Interp,
    st: OsState,
    scanner: Scanner,
    shell: Shell,
    shift: Shift,
    /// The entry line being typed (home screen or `Input`), and the ENTRY storage (2nd ENTRY).
    entry: EntryLine,
    history: EntryStack,
    /// The entry cursor's blink: scans since it last came on (on for the first half of
    /// [`BLINK_PERIOD`]).
    blink: u8,
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
    /// The program being edited (PRGM EDIT / NEW, ERR Goto), kept while a menu types into it.
    editor: Option<Editor>,
    /// The matrix editor, kept while a menu types into an element's value.
    matrix: Option<MatrixEditor>,
    /// The screen a menu was opened over (`CatalogFrom::Screen`), waiting for its token.
    parked: Option<Box<Shell>>,
    /// Turned off (2nd OFF, or the automatic power-down): the glass is blank, only ON acts.
    off: bool,
    /// When the user last pressed a key (or a program last ran): the automatic power-down
    /// counts from here.
    last_activity: u64,
    /// The contrast digit shows in the top-right corner until this time (after 2nd ▲/▼).
    contrast_shown_until: u64,
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
    /// The MODE settings as last written to RAM (`modes.rs`; not saved).
    modes_in_ram: modes::InRam,
    /// The debugger, while one is attached (`debugging.rs`; not saved).
    debug: Option<Box<crate::debug::Debug>>,
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
            entry: EntryLine::default(),
            history: EntryStack::default(),
            blink: 0,
            menu_sel: 0,
            input_idx: 0,
            input_started: false,
            holder: tilink::Holder::new(tilink::MID_TI82, tilink::Timing::default()),
            requester: None,
            sender: None,
            transfer: None,
            editor: None,
            matrix: None,
            parked: None,
            off: false,
            last_activity: 0,
            contrast_shown_until: 0,
            link_wake: 0,
            link_edge: false,
            next_scan: 0,
            pushed: vec![0; SCREEN_BYTES],
            lcd_ready: false,
            indicator: 0,
            indicator_due: false,
            last_error: None,
            statements: 0,
            modes_in_ram: None,
            debug: None,
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

    /// True while a program runs or waits inside a program (a menu opened from its `Input`
    /// included).
    pub fn program_active(&self) -> bool {
        matches!(
            self.shell,
            Shell::Running
                | Shell::Catalog {
                    from: CatalogFrom::Input,
                    ..
                }
        )
    }

    /// The text cell (row, column) of the entry line's cursor while it is on the glass (the
    /// home screen or a program's `Input`), whichever half of its blink it is in: a tool
    /// waiting for the screen to settle leaves that cell out, as it does the run indicator.
    pub fn entry_cursor_cell(&self, ram: &[u8]) -> Option<(usize, usize)> {
        if self.off || !self.entry_cursor_shown() {
            return None;
        }
        let (row, col) = screen::cursor(ram);
        Some(layout(row, col, self.entry.cursor_cells()).cursor)
    }

    /// The last program error and where it happened.
    pub fn last_error(&self) -> Option<&ProgramError> {
        self.last_error.as_ref()
    }

    /// Starts program `name` as if `prgmNAME` ENTER had been typed on the home screen.
    pub fn run_program(&mut self, hw: &mut Hardware, name: &[u8]) -> Result<(), ErrorKind> {
        let mut entry = vec![PRGM];
        entry.extend_from_slice(name);
        self.entry = EntryLine::with(&entry);
        self.show_entry(hw);
        self.enter(hw);
        match &self.shell {
            Shell::Error { err, .. } => Err(err.kind.clone()),
            _ => Ok(()),
        }
    }

    /// A value typed on a screen (a list element, a matrix element, a window variable...):
    /// its tokens evaluated as one expression, as the home screen would.
    fn eval_typed(&mut self, hw: &mut Hardware, tokens: &[u8]) -> Result<Value, ErrorKind> {
        let lines = compile(tokens);
        let mut os = Self::os(&mut self.st, hw);
        match lines.as_slice() {
            [line] => match &line.stmt {
                crate::ast::Stmt::Expr(e) => eval(&mut os, e),
                _ => Err(ErrorKind::Syntax),
            },
            _ => Err(ErrorKind::Syntax),
        }
    }

    /// Back to the home screen from a screen (2nd QUIT, CLEAR).
    fn go_home_screen(&mut self) {
        self.shell = Shell::Home;
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    /// The error screen for an error made on a screen (not in a program): either choice
    /// goes home.
    fn screen_error(&mut self, kind: ErrorKind) {
        self.show_error(ProgramError {
            kind,
            program: Vec::new(),
            offset: 0,
        });
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
        ram[screen::off(power::CONTRAST_ADDR)] = power::CONTRAST_DEFAULT;
        let mut os = Self::os(&mut self.st, hw);
        os.zstandard();
        // Nothing drawn yet: the first look at the graph draws it (the axes at least).
        os.st.graph_dirty = true;
        let seed = [
            (0x8BB8u16, Real::from_i64(12345)),
            (0x8BC1u16, Real::from_i64(67890)),
        ];
        for (addr, v) in seed {
            let i = screen::off(addr);
            os.ram_mut()[i..i + 9].copy_from_slice(&v.to_bcd());
        }
    }

    // ------------------------------------------------------------------ keys

    fn handle_key(&mut self, hw: &mut Hardware, k: Key) {
        self.last_activity = hw.now;
        // The entry cursor shows at once after a key, then blinks.
        self.blink = 0;
        if self.cursor_blinks() {
            self.st.dirty = true;
        }
        if self.shift == Shift::Second && matches!(k, Key::Up | Key::Down) {
            self.shift = Shift::None;
            self.adjust_contrast(hw, k == Key::Up);
            return;
        }
        self.dispatch_key(hw, k);
        if self.st.dirty {
            self.present(hw);
        } else if self.indicator_due {
            self.present_indicator(hw);
        }
    }

    /// Key `k` to the screen that is open now.
    fn dispatch_key(&mut self, hw: &mut Hardware, k: Key) {
        match self.shell.clone() {
            Shell::Home => self.key_home(hw, k),
            Shell::ProgramMenu { sel, tab } => self.key_program_menu(hw, k, sel, tab),
            Shell::Error { err, sel } => self.key_error(hw, k, err, sel),
            Shell::Link(screen) => self.key_link(hw, k, screen),
            Shell::Mem(screen) => self.key_mem(hw, k, screen),
            Shell::Mode(cursor) => self.key_mode(hw, k, cursor),
            Shell::Catalog { cur, from } => self.key_catalog(hw, k, cur, from),
            Shell::Editor => self.key_editor(hw, k),
            Shell::StatEdit(ed) => self.key_list_editor(hw, k, ed),
            Shell::YEditor(ed) => self.key_y_editor(hw, k, ed),
            Shell::Graph(t) => self.key_graph(hw, k, t),
            Shell::Table(t) => self.key_table(hw, k, t),
            Shell::Window(w) => self.key_window(hw, k, w),
            Shell::TblSet(t) => self.key_tblset(hw, k, t),
            Shell::Matrix(m) => self.key_matrix(hw, k, m),
            Shell::StatSetup(c) => self.key_stat_setup(k, c),
            Shell::GraphFree(c) => self.key_graph_free(hw, k, c),
            Shell::GraphModeTrace(t) => self.key_mode_trace(hw, k, t),
            Shell::StatPlot(s) => self.key_stat_plot(hw, k, s),
            Shell::Format(c) => self.key_format(hw, k, c),
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
    }

    fn tick(&mut self, hw: &mut Hardware) {
        let on = self.scanner.scan(hw);
        if self.off {
            // Off: ON turns the calculator on; other keys are lost.
            let _ = keys::take_key(hw);
            if on {
                self.power_up(hw);
            }
            self.next_scan = hw.now + SCAN_PERIOD;
            return;
        }
        if on {
            // 2nd OFF (2nd ON), where the OS waits for a key; else ON breaks.
            if self.shift == Shift::Second && !self.program_active() {
                self.power_down(hw);
                self.next_scan = hw.now + SCAN_PERIOD;
                return;
            }
            self.last_activity = hw.now;
            self.on_key(hw);
        }
        // Waiting screens and the home screen read keys themselves; a running program leaves
        // them latched for getKey.
        let waiting =
            !matches!(self.interp.status_ref(), Status::Running) || self.shell != Shell::Running;
        if waiting {
            if let Some(k) = keys::take_key(hw) {
                self.handle_key(hw, k);
            }
        }
        if self.contrast_shown_until != 0 && hw.now >= self.contrast_shown_until {
            self.contrast_shown_until = 0;
            self.st.dirty = true;
        }
        if !self.idle_at_key_wait() {
            self.last_activity = hw.now;
        } else if hw.now.saturating_sub(self.last_activity) >= power::APD_T {
            self.power_down(hw);
            self.next_scan = hw.now + SCAN_PERIOD;
            return;
        }
        if self.cursor_blinks() {
            self.blink = (self.blink + 1) % BLINK_PERIOD;
            if self.blink == 0 || self.blink == BLINK_PERIOD / 2 {
                self.st.dirty = true;
            }
        }
        if let Shell::Mode(_) | Shell::Format(_) | Shell::StatPlot(_) = self.shell {
            // The MODE (FORMAT, STAT PLOT) cursor's blink.
            self.indicator = (self.indicator + 1) % 100;
            if self.indicator == 0 || self.indicator == 50 {
                self.st.dirty = true;
            }
        }
        // A change made by the clock (the MODE cursor's blink, the contrast digit going away)
        // shows now; a running program pushes its own changes between statements.
        let program_running =
            self.shell == Shell::Running && matches!(self.interp.status_ref(), Status::Running);
        if self.st.dirty && !program_running {
            self.present(hw);
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
}

impl Firmware for BasicFirmware {
    fn name(&self) -> &'static str {
        "tibasic"
    }

    fn power_on(&mut self, hw: &mut Hardware) {
        // An attached debugger stays attached.
        let debug = self.debug.take();
        *self = BasicFirmware::new();
        self.debug = debug;
        self.init_ram(hw);
        self.sync_modes_hw(hw);
        self.init_lcd(hw);
        self.next_scan = hw.now + SCAN_PERIOD;
        self.present(hw);
    }

    fn run(&mut self, hw: &mut Hardware, until: u64) {
        hw.halted = false;
        self.sync_modes_hw(hw);
        // Line changes the peer sent since the last run wake a link machine waiting for one.
        if self.link_edge {
            if let Some(t) = hw.link.next_peer_change() {
                self.link_wake = self.link_wake.min(t.max(hw.now));
            }
        }
        while hw.now < until {
            if self.debug_stopped() {
                break;
            }
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
                && matches!(self.interp.status_ref(), Status::Running)
                && !self.holder.is_busy()
                && !self.debug_stopped();
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
        self.sync_modes_hw(hw);
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

    fn debug_stopped(&self) -> bool {
        BasicFirmware::debug_stopped(self)
    }
}

// ---------------------------------------------------------------------- helpers

/// The programs in the VAT, by name, as the PRGM menu lists them (alphabetical, the OS's
/// internal `!` and `#` left out).
pub fn program_names(ram: &[u8]) -> Vec<Vec<u8>> {
    names_of(ram, |ty| ty.is_program())
}

/// The programs PRGM EDIT lists: not the protected ones (edit-locked, spec §3.1).
pub fn editable_program_names(ram: &[u8]) -> Vec<Vec<u8>> {
    names_of(ram, |ty| ty == VarType::Program)
}

fn names_of(ram: &[u8], keep: impl Fn(VarType) -> bool) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = vat::entries(ram)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| keep(e.var_type()) && !e.is_internal())
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
    let ram = calc.ram().to_vec();
    if let Some(fw) = calc
        .firmware_mut()
        .as_any_mut()
        .downcast_mut::<BasicFirmware>()
    {
        fw.st.vat_hints.clear();
        fw.st.dirty = true;
        fw.read_modes(&ram);
    }
    Ok(())
}

/// The calculator's memory as a backup (spec 7.6), with the MODE settings written to RAM
/// first (`crate::os::mode_ram`).
pub fn backup(calc: &mut ti82_machine::Calc) -> Result<tifiles::Backup, vat::VatError> {
    let mut ram = calc.ram().to_vec();
    if let Some(fw) = calc
        .firmware_mut()
        .as_any_mut()
        .downcast_mut::<BasicFirmware>()
    {
        fw.sync_modes(&mut ram);
    }
    calc.ram_mut().copy_from_slice(&ram);
    vat::backup_from_ram(calc.ram())
}

#[cfg(test)]
mod state_tests;
