//! [`Os`]: the calculator as the interpreter sees it. Variables live in the VAT in emulated
//! RAM (through `tifiles::vat`), the screens in the OS's RAM buffers ([`crate::screen`]), keys
//! come from the keypad scanner's latch, and every operation charges emulated time.

use ti82_machine::Hardware;
use tifiles::float::TiFloat;
use tifiles::tokens::{detokenize, Spelling};
use tifiles::var::{VarData, VarName, VarType, Variable};
use tifiles::vat;

use crate::ast::Target;
use crate::conv::{self, Form};
use crate::cost;
use crate::display::{self, Notation, NumFormat};
use crate::eval::{int_arg, Env};
use crate::font;
use crate::interp::{Step, Sys};
use crate::keys;
use crate::rand;
use crate::real::Real;
use crate::screen::{self, Ink};
use crate::token::*;
use crate::value::{ErrorKind, Matrix, Value, MAX_DIM, MAX_LIST};

mod draw;
mod format;
mod graph;
pub mod mode_ram;
mod plots;
pub use plots::StatPlot;
mod trace;
pub use trace::{plot_of, ModePoint};
mod window;
pub use graph::equation_in;
pub use window::default_value as window_default;

/// Window variables kept in RAM at their OS addresses (spec §7.2, §3.8): token second
/// byte → address.
const WINDOW_RAM: [(u8, u16); 8] = [
    (0x0A, 0x8691), // Xmin
    (0x0B, 0x869A), // Xmax
    (0x02, 0x86A3), // Xscl
    (0x0C, 0x86AC), // Ymin
    (0x0D, 0x86B5), // Ymax
    (0x03, 0x86BE), // Yscl
    (0x26, 0x874E), // ΔX
    (0x27, 0x8757), // ΔY
];

/// The commands [`Os::command`] carries out (with the right arguments).
const KNOWN_COMMANDS: [u8; 51] = [
    CLR_DRAW,
    DISP_GRAPH,
    DISP,
    TEXT,
    PXL_ON,
    PXL_OFF,
    PXL_CHANGE,
    PT_ON,
    PT_OFF,
    PT_CHANGE,
    LINE,
    HORIZONTAL,
    VERTICAL,
    CIRCLE,
    STORE_PIC,
    RECALL_PIC,
    STORE_GDB,
    RECALL_GDB,
    RADIAN,
    DEGREE,
    FLOAT,
    FIX,
    NORMAL,
    SCI,
    ENG,
    FUNC,
    PARAM,
    POLAR,
    SEQ_MODE,
    SPLIT,
    FULL_SCREEN,
    ZSTANDARD,
    ZTRIG,
    ZDECIMAL,
    ZSQUARE,
    ZPREVIOUS,
    ZOOM_STO,
    ZOOM_RCL,
    CLR_TABLE,
    DISP_TABLE,
    INDPNT_AUTO,
    INDPNT_ASK,
    DEPEND_AUTO,
    DEPEND_ASK,
    ZOOM_STAT,
    ZBOX,
    ZOOM_IN,
    ZOOM_OUT,
    ZINTEGER,
    TRACE,
    RAND,
];

/// The random generator's seeds (spec §7.2).
const SEED1: u16 = 0x8BB8;
const SEED2: u16 = 0x8BC1;

/// Which screen the glass shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    #[default]
    Home,
    Graph,
}

/// Graph format and mode settings the OS keeps in its flag bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modes {
    pub degrees: bool,
    pub axes: bool,
    pub grid: bool,
    pub labels: bool,
    /// `Fix n` (None = Float).
    pub fix: Option<u8>,
    /// Normal, Sci or Eng.
    pub notation: Notation,
    /// The graphing mode of the MODE screen's fourth line: 0 Func, 1 Par, 2 Pol, 3 Seq.
    pub graph: u8,
    /// Dot rather than Connected.
    pub dot: bool,
    /// Simul rather than Sequential.
    pub simul: bool,
    /// Split rather than FullScreen.
    pub split: bool,
    /// Web rather than Time (sequence graphs).
    pub web: bool,
    /// IndpntAsk rather than IndpntAuto; DependAsk rather than DependAuto (TBLSET).
    pub indpnt_ask: bool,
    pub depend_ask: bool,
    /// FORMAT's first two lines: PolarGC rather than RectGC, CoordOff rather than CoordOn.
    pub polar_gc: bool,
    pub coord_off: bool,
}

impl Modes {
    /// How numbers are written in these modes.
    pub fn format(&self) -> NumFormat {
        NumFormat {
            notation: self.notation,
            fix: self.fix,
        }
    }
}

impl Default for Modes {
    fn default() -> Self {
        Modes {
            degrees: false,
            axes: true,
            grid: false,
            labels: false,
            fix: None,
            notation: Notation::Normal,
            graph: 0,
            dot: false,
            simul: false,
            split: false,
            web: false,
            indpnt_ask: false,
            depend_ask: false,
            polar_gc: false,
            coord_off: false,
        }
    }
}

/// One step of a sequence being computed: 𝑛, and Uₙ₋₁, Vₙ₋₁.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceStep {
    pub n: Real,
    pub prev: [Real; 2],
}

/// Runtime state that is not in RAM (saved in the firmware's part of a save state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OsState {
    pub shown: Shown,
    pub modes: Modes,
    /// The next `Disp` must scroll first (the last write filled row 8).
    pub scroll_pending: bool,
    /// The screen changed since it was last pushed to the LCD.
    pub dirty: bool,
    /// How the last home-screen entry's answer is shown (`►Frac`, `►DMS`).
    pub entry_shown: crate::conv::Form,
    /// Where recently used variables' VAT entries were (a hint, always re-checked).
    pub vat_hints: Vec<(VarType, VarName, u16)>,
    /// The statistics variables the last statistics command set (`62h` second bytes), none
    /// before the first; a variable the last command did not set is undefined.
    pub stats: Vec<(u8, Real)>,
    /// The entry just run showed statistics results: no answer after them.
    pub results_shown: bool,
    /// The statistics results on the home screen, while ▲ ▼ may still scroll them.
    pub results_view: Option<crate::stats::ResultsView>,
    /// STAT › CALC › SetUp…: the lists a statistics command without lists uses.
    pub stat_setup: crate::stats::StatSetup,
    /// The window variables without a RAM address that differ from their defaults
    /// (`os/window.rs`), and the window before the last zoom (`ZPrevious`).
    pub window_extra: Vec<(u8, Real)>,
    pub zprevious: Option<[Real; 6]>,
    /// The graph must be drawn again before it is shown or drawn on (a Y-variable, the
    /// window or a graphing mode changed since it was last drawn).
    pub graph_dirty: bool,
    /// `Plot1`-`Plot3`.
    pub plots: [Option<StatPlot>; 3],
    /// While a sequence graph is computed: 𝑛 and the previous terms (not saved: a graph is
    /// drawn within one statement).
    pub sequence: Option<SequenceStep>,
    /// TblInput: the X values of an IndpntAsk table.
    pub tbl_input: Vec<Real>,
    /// RegEQ: the last regression's equation (tokens), empty before the first.
    pub reg_eq: Vec<u8>,
    /// How deep Y-variables are being evaluated inside each other now (not saved: zero
    /// between statements).
    pub equation_depth: u8,
    /// `getKey`s that found no key since power-on (not saved): a program that asks and finds
    /// none is waiting for the user (for a test harness, `BasicFirmware::empty_key_polls`).
    pub empty_key_polls: u64,
}

/// The calculator during one interpreter step.
pub struct Os<'a> {
    pub hw: &'a mut Hardware,
    pub st: &'a mut OsState,
}

/// A VAT failure as a program sees it: no room, or a VAT damaged by something outside the
/// runtime, both stop the program with ERR:MEMORY.
fn vat_err(_: vat::VatError) -> ErrorKind {
    ErrorKind::Memory
}

fn tf(r: Real) -> TiFloat {
    TiFloat::from_bytes(r.to_bcd())
}

fn real_of(f: TiFloat) -> Real {
    Real::from_bcd(f.to_bytes()).unwrap_or(Real::ZERO)
}

/// What formatting `v` for display costs, given the characters it produced: numbers pay a
/// fixed part each and a part per character; text costs nothing here.
fn format_cost(v: &Value, chars: usize) -> u64 {
    let numbers = match v {
        Value::Str(_) => return 0,
        Value::Real(_) => 1,
        Value::List(l) => l.len() as u64,
        Value::Matrix(m) => (m.rows.min(1) * m.cols) as u64,
    };
    cost::NUMBER_FORMAT * numbers + cost::NUMBER_DIGIT * chars as u64
}

/// A number as the calculator shows it, in display character codes.
pub fn number_codes(r: Real, f: NumFormat) -> Vec<u8> {
    let text = display::real_text(r, f);
    font::encode(&text).unwrap_or_else(|_| text.bytes().collect())
}

/// The display characters of a string literal's tokens.
pub fn string_codes(tokens: &[u8]) -> Vec<u8> {
    // Each token's display spelling in turn (not `detokenize`, whose text keeps tokens
    // apart with `\` where they would run together: `L` `1` is `L\1` there, `L1` here).
    let table = tifiles::tokens::table();
    let mut text = String::new();
    let mut pos = 0;
    while pos < tokens.len() {
        match table.decode(&tokens[pos..]) {
            Ok(tok) => {
                text.push_str(tok.display);
                pos += tok.bytes().len();
            }
            Err(n) => {
                let n = n.max(1).min(tokens.len() - pos);
                text.push_str(&detokenize(&tokens[pos..pos + n], Spelling::Display));
                pos += n;
            }
        }
    }
    // The TI-82's character set has no subscript n (nor minus): `Uₙ₋₁` shows as `Un-₁` [I].
    let text = text.replace('ₙ', "n").replace('₋', "-");
    font::encode(&text).unwrap_or_else(|_| text.bytes().filter(|b| b.is_ascii()).collect())
}

/// A value as one line of display characters, and whether it is right-aligned.
pub fn value_codes(v: &Value, f: NumFormat) -> (Vec<u8>, bool) {
    match v {
        Value::Str(s) => (string_codes(s), false),
        Value::Real(r) => (number_codes(*r, f), true),
        Value::List(l) => {
            let mut out = vec![b'{'];
            for (i, x) in l.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                out.extend(number_codes(*x, f));
            }
            out.push(b'}');
            (out, true)
        }
        Value::Matrix(m) => {
            let first = display::matrix_lines(m.rows, m.cols, &m.data, f)
                .into_iter()
                .next()
                .unwrap_or_default();
            (font::encode(&first).unwrap_or_default(), false)
        }
    }
}

/// A value as the lines `Disp` writes: one for a real, a list or a text, one per row for a
/// matrix (each line with whether it is right-aligned); reals and list elements as fractions
/// or degrees-minutes-seconds when `shown` says so (crate::conv).
pub fn value_lines(v: &Value, f: NumFormat, shown: Form) -> Vec<(Vec<u8>, bool)> {
    let one = |x: Real| -> Vec<u8> {
        let text = match shown {
            Form::Decimal => None,
            Form::Frac => conv::frac_text(x),
            Form::Dms => conv::dms_text(x, f).ok(),
        };
        match text {
            Some(t) => font::encode(&t).unwrap_or_default(),
            None => number_codes(x, f),
        }
    };
    match (v, shown) {
        (Value::Matrix(m), _) => display::matrix_lines(m.rows, m.cols, &m.data, f)
            .into_iter()
            .map(|l| (font::encode(&l).unwrap_or_default(), false))
            .collect(),
        (Value::Real(x), Form::Frac | Form::Dms) => vec![(one(*x), true)],
        (Value::List(l), Form::Frac | Form::Dms) => {
            let mut out = vec![b'{'];
            for (i, x) in l.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                out.extend(one(*x));
            }
            out.push(b'}');
            vec![(out, true)]
        }
        (other, _) => vec![value_codes(other, f)],
    }
}

impl<'a> Os<'a> {
    pub fn ram(&self) -> &[u8] {
        self.hw.mem.ram()
    }

    pub fn ram_mut(&mut self) -> &mut [u8] {
        self.hw.mem.ram_mut()
    }

    /// Finds a variable's VAT entry. Every variable access of a running program comes here,
    /// so the entry's address is remembered and checked in place next time (type and name
    /// bytes still there, inside the VAT) before the VAT is walked again.
    fn find(&mut self, ty: VarType, name: &VarName) -> Result<Option<vat::VatEntry>, ErrorKind> {
        if !ty.is_program() {
            if let Some(&(_, _, addr)) = self
                .st
                .vat_hints
                .iter()
                .find(|(t, n, _)| *t == ty && n == name)
            {
                if let Some(e) = self.entry_at(addr, ty, name) {
                    return Ok(Some(e));
                }
            }
        }
        let found = vat::find(self.ram(), ty, name).map_err(vat_err)?;
        if let Some(e) = &found {
            if !ty.is_program() {
                let hints = &mut self.st.vat_hints;
                hints.retain(|(t, n, _)| !(*t == ty && n == name));
                if hints.len() >= 32 {
                    hints.remove(0);
                }
                hints.push((ty, *name, e.entry_addr));
            }
        }
        Ok(found)
    }

    /// The 6-byte VAT entry at `addr` if it is still `ty` `name` (spec §7.3).
    fn entry_at(&self, addr: u16, ty: VarType, name: &VarName) -> Option<vat::VatEntry> {
        let ram = self.ram();
        let p_temp = vat::word(ram, vat::P_TEMP);
        if addr > vat::SYM_TABLE || addr < p_temp.saturating_add(6) {
            return None;
        }
        let at = |a: u16| ram[screen::off(a)];
        let type_byte = at(addr);
        let stored = [at(addr - 3), at(addr - 4), at(addr - 5)];
        if type_byte & 0x1F != ty.to_byte() || VarName::from_bytes(&stored) != *name {
            return None;
        }
        Some(vat::VatEntry {
            type_byte,
            entry_addr: addr,
            entry_len: 6,
            data_addr: u16::from_le_bytes([at(addr - 1), at(addr - 2)]),
            name: *name,
        })
    }

    fn store_var(&mut self, name: VarName, data: VarData) -> Result<(), ErrorKind> {
        self.charge(cost::VAT_CREATE);
        vat::store(self.ram_mut(), &Variable { name, data })
            .map(|_| ())
            .map_err(vat_err)
    }

    /// A real at a fixed system address (window variables, seeds).
    fn read_real_at(&self, addr: u16) -> Real {
        let i = screen::off(addr);
        match self.ram().get(i..i + 9) {
            Some(s) => Real::from_bcd(s.try_into().unwrap_or([0; 9])).unwrap_or(Real::ZERO),
            None => Real::ZERO,
        }
    }

    fn write_real_at(&mut self, addr: u16, r: Real) {
        let i = screen::off(addr);
        if let Some(s) = self.ram_mut().get_mut(i..i + 9) {
            s.copy_from_slice(&r.to_bcd());
        }
    }

    /// Where the 9-byte real at `addr` of a variable's data lies in RAM. The address comes
    /// from the VAT, which a program, a transfer or a save state may have left pointing
    /// anywhere: one that runs past FFFFh (or below RAM) is `ERR:MEMORY`, never a wrap.
    fn data_slot(&self, addr: u32) -> Result<usize, ErrorKind> {
        let base = u32::from(screen::RAM_BASE);
        if addr < base || addr + 9 > 0x1_0000 {
            return Err(ErrorKind::Memory);
        }
        let i = (addr - base) as usize;
        if i + 9 > self.ram().len() {
            return Err(ErrorKind::Memory);
        }
        Ok(i)
    }

    fn var_real(&self, addr: u32) -> Result<Real, ErrorKind> {
        let i = self.data_slot(addr)?;
        let mut b = [0u8; 9];
        b.copy_from_slice(&self.ram()[i..i + 9]);
        Ok(Real::from_bcd(b).unwrap_or(Real::ZERO))
    }

    fn set_var_real(&mut self, addr: u32, r: Real) -> Result<(), ErrorKind> {
        let i = self.data_slot(addr)?;
        self.ram_mut()[i..i + 9].copy_from_slice(&r.to_bcd());
        Ok(())
    }

    fn list_name(k: u8) -> VarName {
        VarName::from_bytes(&[PREFIX_LIST, k])
    }

    fn matrix_name(k: u8) -> VarName {
        VarName::from_bytes(&[PREFIX_MATRIX, k])
    }

    pub(crate) fn set_list(&mut self, k: u8, l: Vec<Real>) -> Result<(), ErrorKind> {
        if l.len() > MAX_LIST {
            return Err(ErrorKind::InvalidDim);
        }
        let data = VarData::List(l.into_iter().map(tf).collect());
        self.store_var(Self::list_name(k), data)
    }

    pub(crate) fn set_matrix(&mut self, k: u8, m: Matrix) -> Result<(), ErrorKind> {
        let data = VarData::Matrix(tifiles::var::Matrix {
            rows: m.rows as u8,
            cols: m.cols as u8,
            data: m.data.into_iter().map(tf).collect(),
        });
        self.store_var(Self::matrix_name(k), data)
    }

    pub fn window_addr(k: u8) -> Option<u16> {
        WINDOW_RAM.iter().find(|(t, _)| *t == k).map(|(_, a)| *a)
    }

    /// Window variable by token second byte.
    pub fn window_get(&self, k: u8) -> Real {
        match Self::window_addr(k) {
            Some(a) => self.read_real_at(a),
            None => self.extra_window_get(k).unwrap_or(Real::ZERO),
        }
    }

    fn window_set(&mut self, k: u8, v: Real) -> Result<(), ErrorKind> {
        if self.extra_window_set(k, v) {
            return Ok(());
        }
        let Some(addr) = Self::window_addr(k) else {
            return Err(ErrorKind::Unsupported(format!(
                "window variable {}",
                detokenize(&[PREFIX_WINDOW, k], Spelling::Display)
            )));
        };
        if matches!(k, 0x26 | 0x27) {
            // ΔX/ΔY are computed from the window (spec §6.2).
            return Err(ErrorKind::Syntax);
        }
        self.write_real_at(addr, v);
        self.st.graph_dirty = true;
        self.update_deltas()
    }

    /// The graph's last pixel row: 62, or 30 in Split mode, where the graph has the top half
    /// of the screen [U] (`docs/tibasic.md`, "Split").
    pub fn graph_last_row(&self) -> i64 {
        if self.st.modes.split {
            30
        } else {
            62
        }
    }

    /// ΔX and ΔY from the window: Xmax − Xmin over 94 columns, Ymax − Ymin over the graph's
    /// rows (spec §6.2).
    pub fn update_deltas(&mut self) -> Result<(), ErrorKind> {
        let (xmin, xmax) = (self.window_get(0x0A), self.window_get(0x0B));
        let (ymin, ymax) = (self.window_get(0x0C), self.window_get(0x0D));
        let m = crate::eval::math;
        let dx = xmax
            .sub(xmin)
            .and_then(|d| d.div(Real::from_i64(94)))
            .map_err(m)?;
        let dy = ymax
            .sub(ymin)
            .and_then(|d| d.div(Real::from_i64(self.graph_last_row())))
            .map_err(m)?;
        self.write_real_at(0x874E, dx);
        self.write_real_at(0x8757, dy);
        Ok(())
    }

    /// ZStandard: the power-on window.
    pub fn zstandard(&mut self) {
        for (k, v) in [
            (0x0A, -10),
            (0x0B, 10),
            (0x02, 1),
            (0x0C, -10),
            (0x0D, 10),
            (0x03, 1),
        ] {
            if let Some(a) = Self::window_addr(k) {
                self.write_real_at(a, Real::from_i64(v));
            }
        }
        let _ = self.update_deltas();
    }

    /// Window coordinates → (row, col) pixel.
    fn to_pixel(&self, x: Real, y: Real) -> (i64, i64) {
        let xmin = self.window_get(0x0A).to_f64();
        let ymax = self.window_get(0x0D).to_f64();
        let dx = self.window_get(0x26).to_f64();
        let dy = self.window_get(0x27).to_f64();
        let col = if dx != 0.0 {
            ((x.to_f64() - xmin) / dx).round()
        } else {
            0.0
        };
        let row = if dy != 0.0 {
            ((ymax - y.to_f64()) / dy).round()
        } else {
            0.0
        };
        (row.clamp(-1e6, 1e6) as i64, col.clamp(-1e6, 1e6) as i64)
    }

    /// Shows the graph screen (drawing commands do).
    fn show_graph(&mut self) {
        self.st.shown = Shown::Graph;
        self.st.dirty = true;
    }

    fn show_home(&mut self) {
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    /// ClrDraw: the drawings gone, the graph drawn again (the axes and the selected
    /// functions; a function that cannot be graphed stops with its error).
    pub fn clear_draw(&mut self) -> Result<(), ErrorKind> {
        self.regraph()
    }

    /// The plot cleared and the axes drawn (if on).
    fn clear_plot(&mut self) {
        self.charge(cost::CLR_DRAW);
        screen::plot_mut(self.ram_mut()).fill(0);
        if self.st.modes.axes {
            let (r0, c0) = self.to_pixel(Real::ZERO, Real::ZERO);
            let xticks = self.ticks(0x0A, 0x0B, 0x02, |os, v| os.to_pixel(v, Real::ZERO).1);
            let yticks = self.ticks(0x0C, 0x0D, 0x03, |os, v| os.to_pixel(Real::ZERO, v).0);
            let buf = screen::plot_mut(self.hw.mem.ram_mut());
            if (0..screen::GRAPH_ROWS).contains(&r0) {
                screen::line(buf, (r0, 0), (r0, screen::GRAPH_COLS - 1), Ink::On);
                for c in xticks {
                    screen::pixel(buf, r0 - 1, c, Ink::On);
                    screen::pixel(buf, r0 + 1, c, Ink::On);
                }
            }
            if (0..screen::GRAPH_COLS).contains(&c0) {
                screen::line(buf, (0, c0), (screen::GRAPH_ROWS - 1, c0), Ink::On);
                for r in yticks {
                    screen::pixel(buf, r, c0 - 1, Ink::On);
                    screen::pixel(buf, r, c0 + 1, Ink::On);
                }
            }
        }
        self.draw_grid_and_labels();
        self.show_graph();
    }

    /// The pixel positions of an axis's tick marks: every multiple of the scale (`scl`, window
    /// variable) between `min` and `max`. A zero or negative scale has no ticks; more than
    /// 200 ticks (they would merge into a band) are not drawn.
    fn ticks(&self, min: u8, max: u8, scl: u8, at: impl Fn(&Self, Real) -> i64) -> Vec<i64> {
        let (lo, hi, step) = (
            self.window_get(min).to_f64(),
            self.window_get(max).to_f64(),
            self.window_get(scl).to_f64(),
        );
        if step <= 0.0 || hi <= lo || (hi - lo) / step > 200.0 {
            return Vec::new();
        }
        let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
        (first..=last)
            .filter_map(|k| Real::from_i64(k).mul(self.window_get(scl)).ok())
            .map(|v| at(self, v))
            .collect()
    }

    /// Writes a line of text on the home screen at the cursor row (`Disp` semantics).
    /// A statistics command: its lists (by default L1, and L2 for two variables), the
    /// results into the statistics variables, and the results on the home screen, one
    /// `name=value` line each after the title (and the regression's form).
    fn statistics(&mut self, c: crate::stats::Calc, args: Vec<Value>) -> Result<(), ErrorKind> {
        use crate::stats;
        let mut lists = Vec::with_capacity(args.len());
        for a in args {
            match a {
                Value::List(l) => lists.push(l),
                _ => return Err(ErrorKind::DataType),
            }
        }
        let wanted = c.lists();
        if lists.is_empty() {
            // The lists STAT CALC's SetUp… chose (L₁, and L₂ for two variables, until
            // changed), with its frequency list if it chose one.
            let setup = self.st.stat_setup;
            let (names, freq) = if c == stats::Calc::OneVar {
                (&setup.one[..1], setup.one[1])
            } else {
                (&setup.two[..2], setup.two[2])
            };
            for &k in names {
                lists.push(self.list(k)?);
            }
            if freq > 0 {
                lists.push(self.list(freq - 1)?);
            }
        }
        if lists.len() != wanted && lists.len() != wanted + 1 {
            return Err(ErrorKind::Argument);
        }
        let f = (lists.len() > wanted).then(|| lists.pop().unwrap_or_default());
        let points = lists[0].len() as u64;
        let r = if c == stats::Calc::OneVar {
            let x = lists.pop().unwrap_or_default();
            stats::one_var(x, f)?
        } else {
            let y = lists.pop().unwrap_or_default();
            let x = lists.pop().unwrap_or_default();
            stats::regression(c, x, y, f)?
        };
        // A statistics command leaves only its own results defined [I].
        self.st.stats = r.vars.clone();
        // RegEQ: the fitted equation, as tokens; a statistics command without one leaves it
        // as it was [I].
        if let Some(text) = stats::equation_text(c, &r.vars) {
            self.st.reg_eq = tifiles::tokens::tokenize_source(&text).unwrap_or_default();
        }
        self.charge(cost::STAT + cost::STAT_POINT * points);
        let f = self.st.modes.format();
        let mut view = stats::ResultsView {
            title: font::encode(r.title).unwrap_or_default(),
            ..Default::default()
        };
        if let Some(form) = r.form {
            view.lines.push(font::encode(form).unwrap_or_default());
        }
        for (k, v) in &r.vars {
            let mut line = string_codes(&[PREFIX_STAT, *k]);
            line.push(b'=');
            line.extend(number_codes(*v, f));
            view.lines.push(line);
        }
        self.show_results(&view);
        self.st.results_view = Some(view);
        self.st.results_shown = true;
        Ok(())
    }

    /// The statistics results screen: the home screen cleared, the title and the first six
    /// result lines from the top, the cursor on the row below [I].
    pub fn show_results(&mut self, view: &crate::stats::ResultsView) {
        self.show_home();
        let ram = self.hw.mem.ram_mut();
        screen::clear_home(ram);
        let rows = view.rows();
        let mut chars = 0;
        for (row, line) in rows.iter().enumerate() {
            let line = screen::fit_line(line, true);
            chars += line.len();
            screen::write_at(ram, row, 0, &line);
        }
        screen::set_cursor(ram, rows.len().min(screen::ROWS - 1), 0);
        self.st.scroll_pending = false;
        self.charge(cost::DISP * rows.len() as u64 + cost::HOME_CHAR * chars as u64);
    }

    pub fn home_line(&mut self, codes: &[u8], right: bool) {
        self.show_home();
        let ram = self.hw.mem.ram_mut();
        let (mut row, _) = screen::cursor(ram);
        if self.st.scroll_pending {
            screen::scroll(ram);
            row = screen::ROWS - 1;
            self.st.scroll_pending = false;
            self.hw.now += cost::SCROLL;
        }
        // Anything longer than a line is cut and ends in `…` (spec §8.6).
        let line = screen::fit_line(codes, true);
        screen::clear_row(ram, row);
        let col = if right { screen::COLS - line.len() } else { 0 };
        screen::write_at(ram, row, col, &line);
        if row + 1 >= screen::ROWS {
            self.st.scroll_pending = true;
            screen::set_cursor(ram, screen::ROWS - 1, 0);
        } else {
            screen::set_cursor(ram, row + 1, 0);
        }
        self.charge(cost::DISP + cost::HOME_CHAR * line.len() as u64);
    }

    fn pic_number(v: &Value) -> Result<u8, ErrorKind> {
        Ok(int_arg(v.real()?, 1, 6)? as u8)
    }

    fn reals(args: &[Value]) -> Result<Vec<Real>, ErrorKind> {
        args.iter().map(|v| v.real()).collect()
    }

    /// The display characters of a value, charging the number formatting.
    fn text_codes(&mut self, v: &Value) -> Vec<u8> {
        let codes = value_codes(v, self.st.modes.format()).0;
        self.charge(format_cost(v, codes.len()));
        codes
    }
}

impl Env for Os<'_> {
    fn real(&mut self, var: u8) -> Result<Real, ErrorKind> {
        let name = VarName::from_bytes(&[var]);
        // A real that was never stored reads as 0, as on the calculator.
        match self.find(VarType::Real, &name)? {
            Some(e) => self.var_real(u32::from(e.data_addr)),
            None => Ok(Real::ZERO),
        }
    }

    fn set_real(&mut self, var: u8, v: Real) -> Result<(), ErrorKind> {
        let name = VarName::from_bytes(&[var]);
        match self.find(VarType::Real, &name)? {
            Some(e) => {
                self.charge(cost::STORE_REAL);
                self.set_var_real(u32::from(e.data_addr), v)
            }
            None => self.store_var(name, VarData::Real(tf(v))),
        }
    }

    fn ans(&mut self) -> Result<Value, ErrorKind> {
        let name = VarName::from_bytes(&[ANS]);
        let ram = self.ram();
        for ty in [VarType::Real, VarType::List, VarType::Matrix] {
            if let Some(var) = vat::read(ram, ty, &name).map_err(vat_err)? {
                return Ok(match var.data {
                    VarData::Real(f) => Value::Real(real_of(f)),
                    VarData::List(l) => Value::List(l.into_iter().map(real_of).collect()),
                    VarData::Matrix(m) => Value::Matrix(Matrix {
                        rows: m.rows as usize,
                        cols: m.cols as usize,
                        data: m.data.into_iter().map(real_of).collect(),
                    }),
                    _ => Value::Real(Real::ZERO),
                });
            }
        }
        Ok(Value::Real(Real::ZERO))
    }

    fn list(&mut self, k: u8) -> Result<Vec<Real>, ErrorKind> {
        self.charge(cost::LIST_READ);
        match vat::read_list(self.ram(), k.saturating_add(1)).map_err(vat_err)? {
            Some(l) => Ok(l.into_iter().map(real_of).collect()),
            None => Err(ErrorKind::Undefined),
        }
    }

    fn list_elem(&mut self, k: u8, i: usize) -> Result<Real, ErrorKind> {
        let e = self
            .find(VarType::List, &Self::list_name(k))?
            .ok_or(ErrorKind::Undefined)?;
        let n = usize::from(vat::word(self.ram(), e.data_addr));
        if i == 0 || i > n {
            return Err(ErrorKind::InvalidDim);
        }
        self.charge(cost::LIST_ELEM);
        self.var_real(u32::from(e.data_addr) + 2 + 9 * (i as u32 - 1))
    }

    fn matrix(&mut self, k: u8) -> Result<Matrix, ErrorKind> {
        match vat::read(self.ram(), VarType::Matrix, &Self::matrix_name(k)).map_err(vat_err)? {
            Some(Variable {
                data: VarData::Matrix(m),
                ..
            }) => Ok(Matrix {
                rows: m.rows as usize,
                cols: m.cols as usize,
                data: m.data.into_iter().map(real_of).collect(),
            }),
            _ => Err(ErrorKind::Undefined),
        }
    }

    fn window(&mut self, k: u8) -> Result<Real, ErrorKind> {
        // Uₙ₋₁ and Vₙ₋₁: the previous terms, while a sequence is being computed.
        if matches!(k, 0x06 | 0x07) {
            return self
                .st
                .sequence
                .map(|s| s.prev[usize::from(k - 0x06)])
                .ok_or(ErrorKind::Undefined);
        }
        if let Some(v) = self.extra_window_get(k) {
            return Ok(v);
        }
        match Self::window_addr(k) {
            Some(a) => Ok(self.read_real_at(a)),
            None => Err(ErrorKind::Unsupported(format!(
                "window variable {}",
                detokenize(&[PREFIX_WINDOW, k], Spelling::Display)
            ))),
        }
    }

    fn get_key(&mut self) -> u8 {
        self.charge(cost::GETKEY);
        match keys::take_key(self.hw) {
            Some(k) => keys::getkey_code(k),
            None => {
                self.st.empty_key_polls += 1;
                0
            }
        }
    }

    fn rand(&mut self) -> Real {
        let seeds = (
            self.read_real_at(SEED1).to_i64_exact(),
            self.read_real_at(SEED2).to_i64_exact(),
        );
        let (seeds, r) = rand::next(seeds);
        self.write_real_at(SEED1, Real::from_i64(seeds.0));
        self.write_real_at(SEED2, Real::from_i64(seeds.1));
        self.charge(cost::RAND);
        r
    }

    fn pixel(&mut self, row: i64, col: i64) -> Result<bool, ErrorKind> {
        Ok(screen::pixel_test(screen::plot(self.ram()), row, col))
    }

    fn degrees(&self) -> bool {
        self.st.modes.degrees
    }

    fn equation(&mut self, k: u8) -> Result<Value, ErrorKind> {
        self.equation_value(k)
    }

    fn tbl_input(&mut self) -> Result<Value, ErrorKind> {
        Ok(Value::List(self.st.tbl_input.clone()))
    }

    fn reg_eq(&mut self) -> Result<Value, ErrorKind> {
        let tokens = self.st.reg_eq.clone();
        if tokens.is_empty() {
            return Err(ErrorKind::Undefined);
        }
        let lines = crate::parse::compile(&tokens);
        match lines.as_slice() {
            [line] => match &line.stmt {
                crate::ast::Stmt::Expr(e) => crate::eval::eval(self, e),
                _ => Err(ErrorKind::Syntax),
            },
            _ => Err(ErrorKind::Syntax),
        }
    }

    fn stat(&mut self, k: u8) -> Result<Real, ErrorKind> {
        // 𝑛: the sequence's index, while a sequence is being computed.
        if k == 0x21 {
            return self.st.sequence.map(|s| s.n).ok_or(ErrorKind::Undefined);
        }
        self.st
            .stats
            .iter()
            .find(|(v, _)| *v == k)
            .map(|(_, r)| *r)
            .ok_or(ErrorKind::Undefined)
    }

    fn charge(&mut self, t: u64) {
        self.hw.now += t;
    }
}

impl Sys for Os<'_> {
    fn stat_plot(&mut self, n: u8, kind: u8, lists: [u8; 2], mark: u8) -> Result<(), ErrorKind> {
        self.define_plot(n, kind, lists, mark);
        Ok(())
    }

    fn draw_function(&mut self, tok: u8, args: &[crate::ast::Expr]) -> Result<(), ErrorKind> {
        self.draw_function_command(tok, args)
    }

    fn store(&mut self, target: &Target, v: Value) -> Result<(), ErrorKind> {
        match target {
            Target::Var(x) => self.set_real(*x, v.real()?),
            Target::List(k) => match v {
                Value::List(l) => self.set_list(*k, l),
                _ => Err(ErrorKind::DataType),
            },
            Target::ListElem(k, i) => {
                let x = v.real()?;
                let i = crate::eval::eval(self, i)?.real()?;
                let i = int_arg(i, 1, MAX_LIST as i64).map_err(|_| ErrorKind::InvalidDim)? as usize;
                let entry = self.find(VarType::List, &Self::list_name(*k))?;
                let n = entry.map_or(0, |e| usize::from(vat::word(self.ram(), e.data_addr)));
                match entry {
                    Some(e) if i <= n => {
                        self.charge(cost::STORE_ELEM);
                        self.set_var_real(u32::from(e.data_addr) + 2 + 9 * (i as u32 - 1), x)
                    }
                    // One past the end extends the list (spec §6.3).
                    _ if i == n + 1 => {
                        let mut l = if n > 0 { self.list(*k)? } else { Vec::new() };
                        l.push(x);
                        self.set_list(*k, l)
                    }
                    _ => Err(ErrorKind::InvalidDim),
                }
            }
            Target::ListDim(k) => {
                let n =
                    int_arg(v.real()?, 1, MAX_LIST as i64).map_err(|_| ErrorKind::InvalidDim)?;
                let mut l = self.list(*k).unwrap_or_default();
                l.resize(n as usize, Real::ZERO);
                self.set_list(*k, l)
            }
            Target::Matrix(k) => match v {
                Value::Matrix(m) => self.set_matrix(*k, m),
                _ => Err(ErrorKind::DataType),
            },
            Target::MatElem(k, r, c) => {
                let x = v.real()?;
                let r = crate::eval::eval(self, r)?.real()?;
                let c = crate::eval::eval(self, c)?.real()?;
                let mut m = self.matrix(*k)?;
                let r = int_arg(r, 1, m.rows as i64).map_err(|_| ErrorKind::InvalidDim)? as usize;
                let c = int_arg(c, 1, m.cols as i64).map_err(|_| ErrorKind::InvalidDim)? as usize;
                m.data[(r - 1) * m.cols + c - 1] = x;
                self.set_matrix(*k, m)
            }
            Target::MatDim(k) => match v {
                Value::List(d) if d.len() == 2 => {
                    let r = int_arg(d[0], 1, MAX_DIM as i64).map_err(|_| ErrorKind::InvalidDim)?;
                    let c = int_arg(d[1], 1, MAX_DIM as i64).map_err(|_| ErrorKind::InvalidDim)?;
                    let (r, c) = (r as usize, c as usize);
                    let old = self.matrix(*k).ok();
                    let mut data = vec![Real::ZERO; r * c];
                    if let Some(o) = old {
                        for i in 0..r.min(o.rows) {
                            for j in 0..c.min(o.cols) {
                                data[i * c + j] = o.data[i * o.cols + j];
                            }
                        }
                    }
                    self.set_matrix(
                        *k,
                        Matrix {
                            rows: r,
                            cols: c,
                            data,
                        },
                    )
                }
                _ => Err(ErrorKind::DataType),
            },
            // TblInput takes a list: the X values of an IndpntAsk table (at most 99).
            Target::Window(0x2A) => match v {
                Value::List(l) if l.len() <= MAX_LIST => {
                    self.st.tbl_input = l;
                    Ok(())
                }
                Value::List(_) => Err(ErrorKind::InvalidDim),
                _ => Err(ErrorKind::DataType),
            },
            Target::Window(k) => self.window_set(*k, v.real()?),
            Target::Equation(k) => match v {
                Value::Str(tokens) => self.set_equation(*k, tokens),
                _ => Err(ErrorKind::DataType),
            },
        }
    }

    fn set_ans(&mut self, v: Value) -> Result<(), ErrorKind> {
        let name = VarName::from_bytes(&[ANS]);
        let data = match v {
            Value::Real(r) => VarData::Real(tf(r)),
            Value::List(l) if !l.is_empty() => VarData::List(l.into_iter().map(tf).collect()),
            Value::Matrix(m) => VarData::Matrix(tifiles::var::Matrix {
                rows: m.rows as u8,
                cols: m.cols as u8,
                data: m.data.into_iter().map(tf).collect(),
            }),
            _ => return Ok(()),
        };
        self.charge(cost::ANS_UPDATE);
        // Ans changes type freely: drop an Ans of another type first.
        let ty = data.var_type();
        for other in [VarType::Real, VarType::List, VarType::Matrix] {
            if other != ty {
                vat::delete(self.ram_mut(), other, &name).map_err(vat_err)?;
            }
        }
        if let (VarData::Real(f), Some(e)) = (&data, self.find(VarType::Real, &name)?) {
            let i = self.data_slot(u32::from(e.data_addr))?;
            self.ram_mut()[i..i + 9].copy_from_slice(&f.to_bytes());
            return Ok(());
        }
        self.store_var(name, data)
    }

    fn program(&mut self, name: &[u8]) -> Result<Vec<u8>, ErrorKind> {
        let n = VarName::from_bytes(name);
        for ty in [VarType::Program, VarType::ProtectedProgram] {
            if let Some(var) = vat::read(self.ram(), ty, &n).map_err(vat_err)? {
                if let VarData::Program(b) | VarData::ProtectedProgram(b) = var.data {
                    return Ok(b);
                }
            }
        }
        Err(ErrorKind::Undefined)
    }

    fn clr_home(&mut self) {
        screen::clear_home(self.ram_mut());
        self.st.scroll_pending = false;
        self.charge(cost::CLR_HOME);
        self.show_home();
    }

    fn disp(&mut self, v: &Value) -> Result<(), ErrorKind> {
        self.disp_shown(v, Form::Decimal)
    }

    fn disp_shown(&mut self, v: &Value, shown: Form) -> Result<(), ErrorKind> {
        let lines = value_lines(v, self.st.modes.format(), shown);
        let chars: usize = lines.iter().map(|(codes, _)| codes.len()).sum();
        self.charge(format_cost(v, chars));
        for (codes, right) in lines {
            self.home_line(&codes, right);
        }
        Ok(())
    }

    fn entry_shown(&mut self, shown: Form) {
        self.st.entry_shown = shown;
    }

    fn output(&mut self, row: i64, col: i64, v: &Value) -> Result<(), ErrorKind> {
        let codes = self.text_codes(v);
        let ram = self.hw.mem.ram_mut();
        let (r, c) = screen::write_at(ram, row as usize - 1, col as usize - 1, &codes);
        screen::set_cursor(ram, r, c);
        self.charge(cost::OUTPUT + cost::HOME_CHAR * codes.len() as u64);
        self.show_home();
        Ok(())
    }

    fn command(&mut self, tok: u8, tok2: u8, args: Vec<Value>) -> Result<Step, ErrorKind> {
        let argc = args.len();
        let unsupported = || {
            let bytes: &[u8] = if is_prefix(tok) { &[tok, tok2] } else { &[tok] };
            ErrorKind::Unsupported(detokenize(bytes, Spelling::Display).trim().to_string())
        };
        if let Some(c) = crate::stats::Calc::of_token(tok) {
            self.statistics(c, args)?;
            return Ok(Step::Continue);
        }
        // What the graph depends on: the next look at it draws it again.
        if matches!(
            tok,
            FN_ON | FN_OFF | FUNC | PARAM | POLAR | SEQ_MODE | PREFIX_FORMAT | SPLIT | FULL_SCREEN
        ) {
            self.st.graph_dirty = true;
        }
        // Showing the graph or drawing on it: first the graph as it now is.
        if matches!(
            tok,
            DISP_GRAPH
                | TEXT
                | PXL_ON
                | PXL_OFF
                | PXL_CHANGE
                | PT_ON
                | PT_OFF
                | PT_CHANGE
                | LINE
                | HORIZONTAL
                | VERTICAL
                | CIRCLE
        ) {
            // (Not StorePic/RecallPic: the published StorePic timing leaves no room for a
            // regraph after the window changed, docs/tibasic.md "Cost model".)
            self.regraph_if_dirty()?;
        }
        match (tok, argc) {
            (CLR_DRAW, 0) => self.clear_draw()?,
            (DISP_GRAPH, 0) => {
                self.show_graph();
            }
            (DISP, 0) => self.show_home(),
            (TEXT, n) if n >= 3 => {
                let r = int_arg(args[0].real()?, 0, 57)?;
                let c = int_arg(args[1].real()?, 0, 94)?;
                let mut codes = Vec::new();
                for v in &args[2..] {
                    codes.extend(self.text_codes(v));
                }
                self.charge(cost::TEXT + cost::GLYPH * codes.len() as u64);
                let end = screen::text(screen::plot_mut(self.hw.mem.ram_mut()), r, c, &codes);
                let ram = self.ram_mut();
                ram[screen::off(screen::PEN_ROW)] = r as u8;
                ram[screen::off(screen::PEN_COL)] = end.clamp(0, 255) as u8;
                self.show_graph();
            }
            (PXL_ON | PXL_OFF | PXL_CHANGE, 2) => {
                let r = int_arg(args[0].real()?, 0, self.graph_last_row())?;
                let c = int_arg(args[1].real()?, 0, 94)?;
                let ink = match tok {
                    PXL_ON => Ink::On,
                    PXL_OFF => Ink::Off,
                    _ => Ink::Change,
                };
                screen::pixel(screen::plot_mut(self.hw.mem.ram_mut()), r, c, ink);
                self.charge(cost::PXL);
                self.show_graph();
            }
            (PT_ON | PT_OFF | PT_CHANGE, 2) => {
                let v = Self::reals(&args)?;
                let (r, c) = self.to_pixel(v[0], v[1]);
                let ink = match tok {
                    PT_ON => Ink::On,
                    PT_OFF => Ink::Off,
                    _ => Ink::Change,
                };
                screen::pixel(screen::plot_mut(self.hw.mem.ram_mut()), r, c, ink);
                self.charge(cost::PT);
                self.show_graph();
            }
            (LINE, 4 | 5) => {
                let v = Self::reals(&args[..4])?;
                let ink = if argc == 5 && args[4].real()?.is_zero() {
                    Ink::Off
                } else {
                    Ink::On
                };
                let a = self.to_pixel(v[0], v[1]);
                let b = self.to_pixel(v[2], v[3]);
                let n = screen::line(screen::plot_mut(self.hw.mem.ram_mut()), a, b, ink);
                self.charge(cost::LINE + cost::LINE_PIXEL * u64::from(n));
                self.show_graph();
            }
            (HORIZONTAL, 1) => {
                let y = args[0].real()?;
                let (r, _) = self.to_pixel(Real::ZERO, y);
                let buf = screen::plot_mut(self.hw.mem.ram_mut());
                screen::line(buf, (r, 0), (r, screen::GRAPH_COLS - 1), Ink::On);
                self.charge(cost::LINE + cost::LINE_PIXEL * 95);
                self.show_graph();
            }
            (VERTICAL, 1) => {
                let x = args[0].real()?;
                let (_, c) = self.to_pixel(x, Real::ZERO);
                let buf = screen::plot_mut(self.hw.mem.ram_mut());
                screen::line(buf, (0, c), (screen::GRAPH_ROWS - 1, c), Ink::On);
                self.charge(cost::LINE + cost::LINE_PIXEL * 63);
                self.show_graph();
            }
            (CIRCLE, 3) => {
                let v = Self::reals(&args)?;
                let (r, c) = self.to_pixel(v[0], v[1]);
                let dx = self.window_get(0x26).to_f64().abs();
                let dy = self.window_get(0x27).to_f64().abs();
                let rad = v[2].to_f64().abs();
                let rx = if dx > 0.0 { (rad / dx).round() } else { 0.0 };
                let ry = if dy > 0.0 { (rad / dy).round() } else { 0.0 };
                let n = screen::ellipse(
                    screen::plot_mut(self.hw.mem.ram_mut()),
                    r,
                    c,
                    rx.min(4000.0) as i64,
                    ry.min(4000.0) as i64,
                );
                self.charge(cost::CIRCLE + cost::LINE_PIXEL * 4 * u64::from(n));
                self.show_graph();
            }
            (STORE_PIC, 1) => {
                let n = Self::pic_number(&args[0])?;
                let pic = screen::plot(self.ram())[..tifiles::var::PICTURE_SIZE].to_vec();
                self.charge(cost::STORE_PIC);
                self.store_var(
                    VarName::from_bytes(&[PREFIX_PIC, n - 1]),
                    VarData::Picture(pic),
                )?;
            }
            (RECALL_PIC, 1) => {
                let n = Self::pic_number(&args[0])?;
                let name = VarName::from_bytes(&[PREFIX_PIC, n - 1]);
                let pic = match vat::read(self.ram(), VarType::Picture, &name).map_err(vat_err)? {
                    Some(Variable {
                        data: VarData::Picture(p),
                        ..
                    }) => p,
                    _ => return Err(ErrorKind::Undefined),
                };
                let buf = screen::plot_mut(self.hw.mem.ram_mut());
                for (d, s) in buf.iter_mut().zip(pic.iter()) {
                    *d |= *s;
                }
                self.charge(cost::RECALL_PIC);
                self.show_graph();
            }
            (STORE_GDB, 1) => {
                let n = Self::pic_number(&args[0])?;
                let gdb = self.current_gdb();
                self.store_var(VarName::from_bytes(&[PREFIX_GDB, n - 1]), VarData::Gdb(gdb))?;
            }
            (RECALL_GDB, 1) => {
                let n = Self::pic_number(&args[0])?;
                let name = VarName::from_bytes(&[PREFIX_GDB, n - 1]);
                match vat::read(self.ram(), VarType::Gdb, &name).map_err(vat_err)? {
                    Some(Variable {
                        data: VarData::Gdb(g),
                        ..
                    }) => self.apply_gdb(&g)?,
                    _ => return Err(ErrorKind::Undefined),
                }
            }
            (PREFIX_FORMAT, 0) => match tok2 {
                FORMAT_AXES_ON => self.st.modes.axes = true,
                FORMAT_AXES_OFF => self.st.modes.axes = false,
                FORMAT_GRID_ON => self.st.modes.grid = true,
                FORMAT_GRID_OFF => self.st.modes.grid = false,
                FORMAT_LABEL_ON => self.st.modes.labels = true,
                FORMAT_LABEL_OFF => self.st.modes.labels = false,
                // The MODE screen's Sequential/Simul and Connected/Dot lines: recorded (the
                // MODE screen shows them); they change only how graphs are drawn.
                FORMAT_SEQUENTIAL => self.st.modes.simul = false,
                FORMAT_SIMUL => self.st.modes.simul = true,
                FORMAT_CONNECTED => self.st.modes.dot = false,
                FORMAT_DOT => self.st.modes.dot = true,
                FORMAT_WEB => self.st.modes.web = true,
                FORMAT_TIME => self.st.modes.web = false,
                // RectGC/PolarGC, CoordOn/Off: how TRACE shows the cursor's point.
                FORMAT_POLAR_GC => self.st.modes.polar_gc = true,
                FORMAT_RECT_GC => self.st.modes.polar_gc = false,
                FORMAT_COORD_ON => self.st.modes.coord_off = false,
                FORMAT_COORD_OFF => self.st.modes.coord_off = true,
                _ => return Err(unsupported()),
            },
            (FN_ON | FN_OFF, _) => {
                // Select or deselect Y-variables: recorded in the VAT's selected bits.
                let on = tok == FN_ON;
                let all: Vec<u8> = if args.is_empty() {
                    (0..10).collect()
                } else {
                    let mut v = Vec::new();
                    for a in &args {
                        let n = int_arg(a.real()?, 0, 9)? as u8;
                        v.push(if n == 0 { 9 } else { n - 1 });
                    }
                    v
                };
                for k in all {
                    let name = VarName::from_bytes(&[PREFIX_EQUATION, 0x10 + k]);
                    vat::set_selected(self.ram_mut(), &name, on).map_err(vat_err)?;
                }
            }
            (RAND, 1) => {
                // `n→rand`: seeds from n, and n is the answer, as any store.
                let n = args[0].real()?;
                let (s1, s2) = rand::seeds(n);
                self.write_real_at(SEED1, Real::from_i64(s1));
                self.write_real_at(SEED2, Real::from_i64(s2));
                self.set_ans(Value::Real(n))?;
            }
            (RADIAN, 0) => self.st.modes.degrees = false,
            (DEGREE, 0) => self.st.modes.degrees = true,
            (FLOAT, 0) => self.st.modes.fix = None,
            (FIX, 1) => self.st.modes.fix = Some(int_arg(args[0].real()?, 0, 9)? as u8),
            (NORMAL, 0) => self.st.modes.notation = Notation::Normal,
            (SCI, 0) => self.st.modes.notation = Notation::Sci,
            (ENG, 0) => self.st.modes.notation = Notation::Eng,
            (FUNC, 0) => self.st.modes.graph = 0,
            (PARAM, 0) => self.st.modes.graph = 1,
            (POLAR, 0) => self.st.modes.graph = 2,
            (SEQ_MODE, 0) => self.st.modes.graph = 3,
            (FULL_SCREEN | SPLIT, 0) => {
                self.st.modes.split = tok == SPLIT;
                self.update_deltas()?;
            }
            (PLOTS_ON | PLOTS_OFF, _) => self.plots_on_off(tok == PLOTS_ON, &args)?,
            // The zooms that need the graph cursor, and Trace: the graph shown, the cursor
            // in its middle (the firmware moves it and acts on ENTER).
            (ZBOX | ZOOM_IN | ZOOM_OUT | ZINTEGER | TRACE | INPUT, 0) => {
                self.graph_now()?;
                return Ok(Step::Wait(crate::interp::Wait::GraphCursor(
                    crate::interp::GraphCursor {
                        command: tok,
                        row: (self.graph_last_row() + 1) / 2,
                        col: 47,
                        corner: None,
                    },
                )));
            }
            // Plot types and marks are arguments of Plot1(-Plot3( only.
            (BOXPLOT | HISTOGRAM | XY_LINE | SCATTER | MARK_BOX | MARK_CROSS | MARK_DOT, _) => {
                return Err(ErrorKind::Syntax)
            }
            // ClrTable empties the X values of an IndpntAsk table (TblInput).
            (CLR_TABLE, 0) => self.st.tbl_input.clear(),
            (INDPNT_AUTO | INDPNT_ASK, 0) => self.st.modes.indpnt_ask = tok == INDPNT_ASK,
            (DEPEND_AUTO | DEPEND_ASK, 0) => self.st.modes.depend_ask = tok == DEPEND_ASK,
            (DISP_TABLE, 0) => {
                let t = self.table_data(0, 0)?;
                return Ok(Step::Wait(crate::interp::Wait::Table(t)));
            }
            (
                ZSTANDARD | ZTRIG | ZDECIMAL | ZSQUARE | ZPREVIOUS | ZOOM_STO | ZOOM_RCL
                | ZOOM_STAT,
                0,
            ) => {
                self.zoom(tok)?;
            }
            // A command this runtime knows, with the wrong number of arguments.
            (PREFIX_FORMAT, _) if tok2 <= FORMAT_TIME => return Err(ErrorKind::Argument),
            _ if KNOWN_COMMANDS.contains(&tok) => return Err(ErrorKind::Argument),
            _ => return Err(unsupported()),
        }
        Ok(Step::Continue)
    }
}

impl Os<'_> {
    /// The graph settings as a GDB (function mode, format bits, window; no equations).
    pub fn current_gdb(&self) -> tifiles::var::Gdb {
        let m = &self.st.modes;
        let mut format = 0u8;
        if m.grid {
            format |= 0x04;
        }
        if !m.axes {
            format |= 0x20;
        }
        if m.labels {
            format |= 0x40;
        }
        if m.polar_gc {
            format |= 0x08;
        }
        if m.coord_off {
            format |= 0x10;
        }
        let reals = [0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03]
            .iter()
            .map(|&k| tf(self.window_get(k)))
            .collect();
        let equations = (0..10)
            .map(|_| tifiles::var::GdbEquation {
                flags: 0x03,
                tokens: Vec::new(),
            })
            .collect();
        tifiles::var::Gdb {
            mode: 0x10,
            format,
            seq_mode: 0,
            reals,
            equations,
            extra: Vec::new(),
        }
    }

    fn apply_gdb(&mut self, g: &tifiles::var::Gdb) -> Result<(), ErrorKind> {
        self.st.modes.grid = g.format & 0x04 != 0;
        self.st.modes.axes = g.format & 0x20 == 0;
        self.st.modes.labels = g.format & 0x40 != 0;
        self.st.modes.polar_gc = g.format & 0x08 != 0;
        self.st.modes.coord_off = g.format & 0x10 != 0;
        for (k, f) in [0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03]
            .iter()
            .zip(g.reals.iter())
        {
            if let Some(a) = Self::window_addr(*k) {
                self.write_real_at(a, real_of(*f));
            }
        }
        self.update_deltas()
    }
}
