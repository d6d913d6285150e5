//! Variable types, names and typed values (spec 1.5, 3).

use crate::float::TiFloat;
use crate::tokens;
use std::fmt;

/// A variable type ID (spec 3.1). IDs the spec does not list are kept as `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VarType {
    Real,
    List,
    Matrix,
    /// Y-variable (equation).
    Equation,
    Program,
    ProtectedProgram,
    Picture,
    Gdb,
    Window,
    SavedWindow,
    TableSetup,
    /// Screen image (link only).
    Screen,
    Backup,
    Other(u8),
}

impl VarType {
    /// From the type byte as stored in files and link headers (no masking).
    pub fn from_byte(b: u8) -> VarType {
        match b {
            0x00 => VarType::Real,
            0x01 => VarType::List,
            0x02 => VarType::Matrix,
            0x03 => VarType::Equation,
            0x05 => VarType::Program,
            0x06 => VarType::ProtectedProgram,
            0x07 => VarType::Picture,
            0x08 => VarType::Gdb,
            0x0B => VarType::Window,
            0x0C => VarType::SavedWindow,
            0x0D => VarType::TableSetup,
            0x0E => VarType::Screen,
            0x0F => VarType::Backup,
            x => VarType::Other(x),
        }
    }

    /// The type byte.
    pub fn to_byte(self) -> u8 {
        match self {
            VarType::Real => 0x00,
            VarType::List => 0x01,
            VarType::Matrix => 0x02,
            VarType::Equation => 0x03,
            VarType::Program => 0x05,
            VarType::ProtectedProgram => 0x06,
            VarType::Picture => 0x07,
            VarType::Gdb => 0x08,
            VarType::Window => 0x0B,
            VarType::SavedWindow => 0x0C,
            VarType::TableSetup => 0x0D,
            VarType::Screen => 0x0E,
            VarType::Backup => 0x0F,
            VarType::Other(x) => x,
        }
    }

    /// File extension without the dot (`82p`), for the types that have files.
    pub fn extension(self) -> Option<&'static str> {
        Some(match self {
            VarType::Real => "82n",
            VarType::List => "82l",
            VarType::Matrix => "82m",
            VarType::Equation => "82y",
            VarType::Program | VarType::ProtectedProgram => "82p",
            VarType::Picture => "82i",
            VarType::Gdb => "82d",
            VarType::Window => "82w",
            VarType::SavedWindow => "82z",
            VarType::TableSetup => "82t",
            VarType::Backup => "82b",
            VarType::Screen | VarType::Other(_) => return None,
        })
    }

    /// Short English name.
    pub fn name(self) -> &'static str {
        match self {
            VarType::Real => "real",
            VarType::List => "list",
            VarType::Matrix => "matrix",
            VarType::Equation => "Y-var",
            VarType::Program => "program",
            VarType::ProtectedProgram => "protected program",
            VarType::Picture => "picture",
            VarType::Gdb => "GDB",
            VarType::Window => "window",
            VarType::SavedWindow => "zoom (saved window)",
            VarType::TableSetup => "table setup",
            VarType::Screen => "screen image",
            VarType::Backup => "backup",
            VarType::Other(_) => "unknown",
        }
    }

    /// Programs carry their name as characters (spec 3.9).
    pub fn is_program(self) -> bool {
        matches!(self, VarType::Program | VarType::ProtectedProgram)
    }
}

impl fmt::Display for VarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarType::Other(x) => write!(f, "unknown type {x:#04x}"),
            t => f.write_str(t.name()),
        }
    }
}

/// Errors about names and values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VarError {
    #[error("bad variable name {0:?}")]
    BadName(String),
    #[error("{ty} data: {msg}")]
    BadData { ty: VarType, msg: String },
}

/// The 8-byte tokenized name of a variable (spec 1.5), NUL-padded.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VarName(pub [u8; 8]);

impl VarName {
    /// From raw bytes (up to 8; the rest padded with zeros).
    pub fn from_bytes(b: &[u8]) -> VarName {
        let mut n = [0u8; 8];
        for (d, s) in n.iter_mut().zip(b) {
            *d = *s;
        }
        VarName(n)
    }
    /// Bytes up to the first NUL (at least one byte for the all-zero name of
    /// window/table types is not kept: this returns an empty slice then).
    pub fn bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(8);
        // Two-byte token names like `5D 00` (L1) contain a NUL after the prefix.
        if end == 1 && tokens::is_prefix(self.0[0]) {
            return &self.0[..2];
        }
        &self.0[..end]
    }
    /// Real `A`…`Z` (`'A'..='Z'`) or `θ` (`'θ'`).
    pub fn real(letter: char) -> Option<VarName> {
        match letter {
            'A'..='Z' => Some(VarName::from_bytes(&[letter as u8])),
            'θ' => Some(VarName::from_bytes(&[0x5B])),
            _ => None,
        }
    }
    /// `L1`…`L6` for `n` = 1…6.
    pub fn list(n: u8) -> Option<VarName> {
        (1..=6)
            .contains(&n)
            .then(|| VarName::from_bytes(&[0x5D, n - 1]))
    }
    /// `[A]`…`[E]` for `n` = 0…4.
    pub fn matrix(n: u8) -> Option<VarName> {
        (n < 5).then(|| VarName::from_bytes(&[0x5C, n]))
    }
    /// `Pic1`…`Pic6` for `n` = 1…6.
    pub fn picture(n: u8) -> Option<VarName> {
        (1..=6)
            .contains(&n)
            .then(|| VarName::from_bytes(&[0x60, n - 1]))
    }
    /// `GDB1`…`GDB6` for `n` = 1…6.
    pub fn gdb(n: u8) -> Option<VarName> {
        (1..=6)
            .contains(&n)
            .then(|| VarName::from_bytes(&[0x61, n - 1]))
    }
    /// Whether byte `b` may stand in a program name, first or later (spec 3.9: `A`–`Z` and
    /// `θ` (5Bh), and after the first character the digits too).
    pub fn program_name_byte(b: u8, first: bool) -> bool {
        b.is_ascii_uppercase() || b == 0x5B || (!first && b.is_ascii_digit())
    }

    /// A program name (1–8 characters, first `A`–`Z`/`θ`, then also digits; spec 3.9).
    /// `theta` is accepted for `θ`.
    pub fn program(name: &str) -> Result<VarName, VarError> {
        let bad = || VarError::BadName(name.to_string());
        let mut out = Vec::new();
        let mut rest = name;
        while let Some(c) = rest.chars().next() {
            let (b, len) = match c {
                'θ' => (0x5B, c.len_utf8()),
                't' if rest.starts_with("theta") => (0x5B, 5),
                // (`[` is θ's byte, not a way to write it.)
                _ if c.is_ascii() && c != '[' => (c as u8, 1),
                _ => return Err(bad()),
            };
            if !VarName::program_name_byte(b, out.is_empty()) {
                return Err(bad());
            }
            out.push(b);
            rest = &rest[len..];
        }
        if out.is_empty() || out.len() > 8 {
            return Err(bad());
        }
        Ok(VarName::from_bytes(&out))
    }
    /// Parse a name as written (`A`, `θ`, `L1`, `L₁`, `[A]`, `Y1`, `{Y1}`, `X1T`,
    /// `r1`, `Un`, `Pic1`, `GDB1`) for a type; programs use [`VarName::program`].
    /// Window, zoom and table-setup names are all zeros.
    pub fn parse(ty: VarType, text: &str) -> Result<VarName, VarError> {
        if ty.is_program() {
            return VarName::program(text);
        }
        if matches!(
            ty,
            VarType::Window | VarType::SavedWindow | VarType::TableSetup
        ) {
            return Ok(VarName::default());
        }
        let bad = || VarError::BadName(text.to_string());
        // Bare Y1/X1T/r1 spellings for equations.
        let eq = match text {
            _ if text.len() == 2 && text.starts_with('Y') => {
                let d = text.as_bytes()[1].wrapping_sub(b'0');
                (d <= 9).then(|| if d == 0 { 0x19 } else { 0x0F + d })
            }
            _ if text.len() == 3
                && text.ends_with('T')
                && (text.starts_with('X') || text.starts_with('Y')) =>
            {
                let d = text.as_bytes()[1].wrapping_sub(b'0');
                (1..=6)
                    .contains(&d)
                    .then(|| 0x20 + 2 * (d - 1) + u8::from(text.starts_with('Y')))
            }
            _ if text.len() == 2 && text.starts_with('r') => {
                let d = text.as_bytes()[1].wrapping_sub(b'0');
                (1..=6).contains(&d).then(|| 0x40 + d - 1)
            }
            _ => None,
        };
        let bytes = match eq {
            Some(b) => vec![0x5E, b],
            None => tokens::tokenize(text).map_err(|_| bad())?,
        };
        let ok = match ty {
            VarType::Real => matches!(bytes.as_slice(), [0x41..=0x5B]),
            VarType::List => matches!(bytes.as_slice(), [0x5D, 0..=5]),
            VarType::Matrix => matches!(bytes.as_slice(), [0x5C, 0..=4]),
            VarType::Equation => {
                matches!(
                    bytes.as_slice(),
                    [0x5E, 0x10..=0x19 | 0x20..=0x2B | 0x40..=0x45 | 0x80 | 0x81]
                )
            }
            VarType::Picture => matches!(bytes.as_slice(), [0x60, 0..=5]),
            VarType::Gdb => matches!(bytes.as_slice(), [0x61, 0..=5]),
            _ => bytes.len() <= 8,
        };
        if !ok {
            return Err(bad());
        }
        Ok(VarName::from_bytes(&bytes))
    }

    /// Human-readable name for a type (`L1`, `[A]`, `Y1`, `PROG`, `Window`).
    pub fn display(&self, ty: VarType) -> String {
        match ty {
            VarType::Window => return "Window".into(),
            VarType::SavedWindow => return "ZoomSto".into(),
            VarType::TableSetup => return "TblSet".into(),
            VarType::Backup => return "Backup".into(),
            _ => {}
        }
        let b = if ty.is_program() {
            let end = self.0.iter().position(|&b| b == 0).unwrap_or(8);
            &self.0[..end]
        } else {
            self.bytes()
        };
        if ty.is_program() {
            // Program names are characters; `θ` and digits included (spec 3.9).
            b.iter()
                .map(|&c| match c {
                    0x5B => "θ".to_string(),
                    0x20..=0x7E => (c as char).to_string(),
                    _ => format!("\\x{c:02X}"),
                })
                .collect()
        } else {
            let t = tokens::table();
            let name_token = match b {
                [0x5B] => Some("θ".to_string()),
                // Equations: `{Y1}` → `Y1`, `{X1T}` → `X1T`, `{r1}` → `r1`.
                [0x5E, _] => t.get(b).map(|tok| {
                    tok.ascii
                        .trim_start_matches('{')
                        .trim_end_matches('}')
                        .to_string()
                }),
                [_] | [_, _] => t.get(b).map(|tok| tok.ascii.to_string()),
                _ => None,
            };
            name_token.unwrap_or_else(|| b.iter().map(|c| format!("\\x{c:02X}")).collect())
        }
    }
}

impl fmt::Debug for VarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VarName({:02X?})", self.bytes())
    }
}

/// A matrix: `rows` × `cols` reals, row-major (spec 3.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    pub rows: u8,
    pub cols: u8,
    pub data: Vec<TiFloat>,
}

impl Matrix {
    /// Element at 0-based row and column.
    pub fn get(&self, row: usize, col: usize) -> Option<TiFloat> {
        if row >= usize::from(self.rows) || col >= usize::from(self.cols) {
            return None;
        }
        self.data.get(row * usize::from(self.cols) + col).copied()
    }
}

/// One equation in a graph database (spec 3.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GdbEquation {
    /// `0x23` selected, `0x03` not selected.
    pub flags: u8,
    /// Tokens (empty if undefined).
    pub tokens: Vec<u8>,
}

/// A graph database (spec 3.7). Bytes after the documented layout are kept in
/// `extra`, so any GDB round-trips byte for byte even if the documented-only (D) layout is off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gdb {
    /// `0x10` function, `0x20` polar, `0x40` parametric, `0x80` sequence.
    pub mode: u8,
    /// Format bits.
    pub format: u8,
    /// Sequence mode: `0` Time, `1` Web.
    pub seq_mode: u8,
    /// Xmin…Yscl, then the mode's own reals.
    pub reals: Vec<TiFloat>,
    pub equations: Vec<GdbEquation>,
    pub extra: Vec<u8>,
}

impl Gdb {
    /// (reals after the 6 window ones, equation count) for a mode.
    pub fn layout(mode: u8) -> Option<(usize, usize)> {
        match mode {
            0x10 => Some((0, 10)),
            0x20 => Some((3, 6)),
            0x40 => Some((3, 12)),
            0x80 => Some((5, 2)),
            _ => None,
        }
    }
}

/// The window settings (type `0x0B`): one unknown byte then 17 reals (spec 3.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub unknown: u8,
    /// Xmin, Xmax, Xscl, Ymin, Ymax, Yscl, θmin, θmax, θstep, Tmin, Tmax, Tstep,
    /// nMin, nMax, UnStart, VnStart, nStart.
    pub reals: [TiFloat; 17],
}

/// The table setup (type `0x0D`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSetup {
    pub tbl_min: TiFloat,
    pub delta_tbl: TiFloat,
}

/// The value of a variable, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarData {
    Real(TiFloat),
    List(Vec<TiFloat>),
    Matrix(Matrix),
    /// Y-variable tokens.
    Equation(Vec<u8>),
    /// Program tokens.
    Program(Vec<u8>),
    ProtectedProgram(Vec<u8>),
    /// 756 bytes: 63 rows × 12 bytes (spec 3.6).
    Picture(Vec<u8>),
    Gdb(Gdb),
    Window(Window),
    /// The 17 Z-reals (type `0x0C`).
    SavedWindow([TiFloat; 17]),
    TableSetup(TableSetup),
    /// Screen image (`0x0E`) or an unknown type: the data bytes as they came.
    Raw(VarType, Vec<u8>),
}

/// Picture data size (spec 3.6).
pub const PICTURE_SIZE: usize = 756;
/// Lists hold at most 99 elements on the TI-82 (spec 3.3); reading accepts more.
pub const MAX_LIST: usize = 99;

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    ty: VarType,
}

impl<'a> Reader<'a> {
    fn err(&self, msg: String) -> VarError {
        VarError::BadData { ty: self.ty, msg }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], VarError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| {
                self.err(format!(
                    "needs {n} bytes at offset {}, only {} left",
                    self.pos,
                    self.b.len() - self.pos
                ))
            })?;
        let s = &self.b[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, VarError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, VarError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn real(&mut self) -> Result<TiFloat, VarError> {
        Ok(TiFloat::from_slice(self.take(9)?).unwrap_or_default())
    }
    fn reals(&mut self, n: usize) -> Result<Vec<TiFloat>, VarError> {
        // Check before allocating (n comes from the data).
        let bytes = self.take(n.saturating_mul(9))?;
        Ok(bytes
            .chunks_exact(9)
            .map(|c| TiFloat::from_slice(c).unwrap_or_default())
            .collect())
    }
    fn done(&self) -> Result<(), VarError> {
        if self.pos != self.b.len() {
            return Err(self.err(format!(
                "{} bytes of data, but the contents end after {}",
                self.b.len(),
                self.pos
            )));
        }
        Ok(())
    }
}

impl VarData {
    /// The type of this value.
    pub fn var_type(&self) -> VarType {
        match self {
            VarData::Real(_) => VarType::Real,
            VarData::List(_) => VarType::List,
            VarData::Matrix(_) => VarType::Matrix,
            VarData::Equation(_) => VarType::Equation,
            VarData::Program(_) => VarType::Program,
            VarData::ProtectedProgram(_) => VarType::ProtectedProgram,
            VarData::Picture(_) => VarType::Picture,
            VarData::Gdb(_) => VarType::Gdb,
            VarData::Window(_) => VarType::Window,
            VarData::SavedWindow(_) => VarType::SavedWindow,
            VarData::TableSetup(_) => VarType::TableSetup,
            VarData::Raw(t, _) => *t,
        }
    }

    /// Parse the data section of a variable of type `ty` (spec 3). `data` must be
    /// exactly the data section: any size disagreement is an error.
    pub fn parse(ty: VarType, data: &[u8]) -> Result<VarData, VarError> {
        let mut r = Reader {
            b: data,
            pos: 0,
            ty,
        };
        let v = match ty {
            VarType::Real => VarData::Real(r.real()?),
            VarType::List => {
                let n = r.u16()?;
                VarData::List(r.reals(usize::from(n))?)
            }
            VarType::Matrix => {
                let cols = r.u8()?;
                let rows = r.u8()?;
                let data = r.reals(usize::from(rows) * usize::from(cols))?;
                VarData::Matrix(Matrix { rows, cols, data })
            }
            VarType::Equation | VarType::Program | VarType::ProtectedProgram => {
                let n = r.u16()?;
                let t = r.take(usize::from(n))?.to_vec();
                match ty {
                    VarType::Equation => VarData::Equation(t),
                    VarType::Program => VarData::Program(t),
                    _ => VarData::ProtectedProgram(t),
                }
            }
            VarType::Picture => {
                let n = r.u16()?;
                if usize::from(n) != PICTURE_SIZE {
                    return Err(r.err(format!("size word {n}, a picture has {PICTURE_SIZE}")));
                }
                VarData::Picture(r.take(PICTURE_SIZE)?.to_vec())
            }
            VarType::Gdb => {
                let n = usize::from(r.u16()?);
                let body = r.take(n)?;
                let mut g = Reader {
                    b: body,
                    pos: 0,
                    ty,
                };
                let mode = g.u8()?;
                let format = g.u8()?;
                let seq_mode = g.u8()?;
                let (extra_reals, neq) = Gdb::layout(mode).unwrap_or((0, 0));
                let reals = g.reals(6 + extra_reals)?;
                let mut equations = Vec::new();
                for _ in 0..neq {
                    let flags = g.u8()?;
                    let len = g.u16()?;
                    let tokens = g.take(usize::from(len))?.to_vec();
                    equations.push(GdbEquation { flags, tokens });
                }
                let extra = body[g.pos..].to_vec();
                VarData::Gdb(Gdb {
                    mode,
                    format,
                    seq_mode,
                    reals,
                    equations,
                    extra,
                })
            }
            VarType::Window => {
                let n = r.u16()?;
                if n != 154 {
                    return Err(r.err(format!("size word {n}, the window has 154")));
                }
                let unknown = r.u8()?;
                let reals = r.reals(17)?;
                VarData::Window(Window {
                    unknown,
                    reals: to17(&reals),
                })
            }
            VarType::SavedWindow => {
                let n = r.u16()?;
                if n != 153 {
                    return Err(r.err(format!("size word {n}, the saved window has 153")));
                }
                VarData::SavedWindow(to17(&r.reals(17)?))
            }
            VarType::TableSetup => {
                let n = r.u16()?;
                if n != 18 {
                    return Err(r.err(format!("size word {n}, the table setup has 18")));
                }
                VarData::TableSetup(TableSetup {
                    tbl_min: r.real()?,
                    delta_tbl: r.real()?,
                })
            }
            VarType::Backup => {
                return Err(r.err("a backup is not a single variable".into()));
            }
            VarType::Screen | VarType::Other(_) => {
                r.pos = data.len();
                VarData::Raw(ty, data.to_vec())
            }
        };
        r.done()?;
        Ok(v)
    }

    /// The data section bytes (spec 3), as in files, link DATA packets and RAM.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let reals = |out: &mut Vec<u8>, r: &[TiFloat]| {
            for x in r {
                out.extend_from_slice(&x.to_bytes());
            }
        };
        match self {
            VarData::Real(x) => out.extend_from_slice(&x.to_bytes()),
            VarData::List(l) => {
                out.extend_from_slice(&(l.len() as u16).to_le_bytes());
                reals(&mut out, l);
            }
            VarData::Matrix(m) => {
                out.push(m.cols);
                out.push(m.rows);
                reals(&mut out, &m.data);
            }
            VarData::Equation(t)
            | VarData::Program(t)
            | VarData::ProtectedProgram(t)
            | VarData::Picture(t) => {
                out.extend_from_slice(&(t.len() as u16).to_le_bytes());
                out.extend_from_slice(t);
            }
            VarData::Gdb(g) => {
                let mut body = vec![g.mode, g.format, g.seq_mode];
                reals(&mut body, &g.reals);
                for e in &g.equations {
                    body.push(e.flags);
                    body.extend_from_slice(&(e.tokens.len() as u16).to_le_bytes());
                    body.extend_from_slice(&e.tokens);
                }
                body.extend_from_slice(&g.extra);
                out.extend_from_slice(&(body.len() as u16).to_le_bytes());
                out.extend_from_slice(&body);
            }
            VarData::Window(w) => {
                out.extend_from_slice(&154u16.to_le_bytes());
                out.push(w.unknown);
                reals(&mut out, &w.reals);
            }
            VarData::SavedWindow(r) => {
                out.extend_from_slice(&153u16.to_le_bytes());
                reals(&mut out, r);
            }
            VarData::TableSetup(t) => {
                out.extend_from_slice(&18u16.to_le_bytes());
                reals(&mut out, &[t.tbl_min, t.delta_tbl]);
            }
            VarData::Raw(_, b) => out.extend_from_slice(b),
        }
        out
    }

    /// Check that the value fits the formats' size fields (16-bit lengths, counts).
    pub fn check(&self) -> Result<(), VarError> {
        let ty = self.var_type();
        let err = |msg: String| Err(VarError::BadData { ty, msg });
        let cells = |m: &Matrix| usize::from(m.rows) * usize::from(m.cols);
        match self {
            VarData::List(l) if l.len() > 0xFFFF => err(format!("{} elements", l.len())),
            VarData::Matrix(m) if m.data.len() != cells(m) => err(format!(
                "{}x{} needs {} reals, has {}",
                m.rows,
                m.cols,
                cells(m),
                m.data.len()
            )),
            VarData::Picture(p) if p.len() != PICTURE_SIZE => {
                err(format!("{} bytes, needs {PICTURE_SIZE}", p.len()))
            }
            VarData::Gdb(g) => {
                let (k, n) = Gdb::layout(g.mode).unwrap_or((0, 0));
                if g.reals.len() != 6 + k || g.equations.len() != n {
                    return err(format!(
                        "mode {:#04x} needs {} reals and {n} equations, has {} and {}",
                        g.mode,
                        6 + k,
                        g.reals.len(),
                        g.equations.len()
                    ));
                }
                self.check_size()
            }
            // Raw data is for types without a typed form; anything else would read
            // back as a different value.
            VarData::Raw(t, _) if !matches!(t, VarType::Screen | VarType::Other(_)) => {
                err("raw data for a type that has a typed form".into())
            }
            _ => self.check_size(),
        }
    }

    fn check_size(&self) -> Result<(), VarError> {
        let n = self.to_bytes().len();
        // The whole data section (size word included) has a 16-bit length in files.
        if n > 0xFFFF {
            return Err(VarError::BadData {
                ty: self.var_type(),
                msg: format!("{n} bytes of data, more than 65535"),
            });
        }
        Ok(())
    }
}

fn to17(v: &[TiFloat]) -> [TiFloat; 17] {
    let mut a = [TiFloat::ZERO; 17];
    for (d, s) in a.iter_mut().zip(v) {
        *d = *s;
    }
    a
}

/// A named variable with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: VarName,
    pub data: VarData,
}

impl Variable {
    /// A program from its name and tokens.
    pub fn program(name: &str, tokens: Vec<u8>) -> Result<Variable, VarError> {
        Ok(Variable {
            name: VarName::program(name)?,
            data: VarData::Program(tokens),
        })
    }
    /// Parse a variable from its type, 8 name bytes and data section (as in a
    /// link VAR + DATA exchange).
    pub fn parse(ty: VarType, name: VarName, data: &[u8]) -> Result<Variable, VarError> {
        Ok(Variable {
            name,
            data: VarData::parse(ty, data)?,
        })
    }

    /// The type.
    pub fn var_type(&self) -> VarType {
        self.data.var_type()
    }
    /// Name as text (`L1`, `MANCALA`).
    pub fn display_name(&self) -> String {
        self.name.display(self.var_type())
    }
    /// The 11-byte variable header of spec 1.5 (size, type, name).
    pub fn header(&self) -> [u8; 11] {
        let mut h = [0u8; 11];
        let len = self.data.to_bytes().len() as u16;
        h[..2].copy_from_slice(&len.to_le_bytes());
        h[2] = self.var_type().to_byte();
        h[3..].copy_from_slice(&self.name.0);
        h
    }
}

/// A link/variable header (spec 1.5): 11 bytes for a variable, 9 for a backup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    Var {
        /// Size of the data section.
        size: u16,
        ty: VarType,
        name: VarName,
    },
    Backup {
        len1: u16,
        len2: u16,
        len3: u16,
        /// Where section 2 belongs (`0x8D24`).
        address: u16,
    },
}

impl Header {
    /// Parse a header: 9 bytes with type `0x0F` is a backup header, 11 bytes a
    /// variable header; anything else (including a VAR packet longer than 11
    /// bytes, spec 1.6 item 4) is rejected.
    pub fn parse(b: &[u8]) -> Result<Header, VarError> {
        let w = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        match b.len() {
            9 if b[2] == 0x0F => Ok(Header::Backup {
                len1: w(0),
                len2: w(3),
                len3: w(5),
                address: w(7),
            }),
            11 => Ok(Header::Var {
                size: w(0),
                ty: VarType::from_byte(b[2]),
                name: VarName::from_bytes(&b[3..11]),
            }),
            n => Err(VarError::BadData {
                ty: VarType::from_byte(b.get(2).copied().unwrap_or(0xFF)),
                msg: format!("a variable header has 11 bytes (9 for a backup), got {n}"),
            }),
        }
    }

    /// The header bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match *self {
            Header::Var { size, ty, name } => {
                let mut v = size.to_le_bytes().to_vec();
                v.push(ty.to_byte());
                v.extend_from_slice(&name.0);
                v
            }
            Header::Backup {
                len1,
                len2,
                len3,
                address,
            } => {
                let mut v = len1.to_le_bytes().to_vec();
                v.push(0x0F);
                for x in [len2, len3, address] {
                    v.extend_from_slice(&x.to_le_bytes());
                }
                v
            }
        }
    }
}
