//! The file and link-log subcommands: `ti82 tokenize`, `detokenize`, `info`, `pack` and
//! `link-log`, plus the line-trace format that `--link-trace` writes and `link-log` reads.
//!
//! Every error names the file and what is wrong (for `.82?` files the offset too, from
//! `tifiles`'s `FileError`); output files are written atomically (temporary file beside
//! them, then a rename). See `docs/frontend.md` for the commands and `docs/link.md` for the
//! trace format.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use tifiles::file::FileProblem;
use tifiles::{
    tokenize_source, Content, ReadOptions, Spelling, TiFile, VarData, VarName, Variable,
};

use crate::config::write_atomic;

/// The file subcommands (flattened into [`crate::cli::Command`]).
#[derive(Debug, Subcommand)]
pub enum FilesCommand {
    /// Tokenize a program's source text (ASCII or display spelling) into a .82p file.
    Tokenize(TokenizeArgs),
    /// Print the programs in a .82p/.82g/.uue file as text.
    Detokenize(DetokenizeArgs),
    /// List every entry of TI-82 files: type, name, size, checksum, comment.
    Info(InfoArgs),
    /// Put the variables of several files into one group file (.82g).
    Pack(PackArgs),
    /// Decode a link line trace (from `--link-trace`) into bytes and packets.
    LinkLog(LinkLogArgs),
    /// Write a memory backup (.82b) of a calculator: the built-in calculator's saved state
    /// (or `--state FILE`), with `--load` files added.
    Backup(BackupArgs),
}

#[derive(Debug, Clone, Args)]
pub struct BackupArgs {
    /// The backup file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// A built-in calculator's state file (default: the one the calculator saves when it
    /// ends, in the state folder).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Start from a fresh, empty calculator instead of a saved state.
    #[arg(long, conflicts_with = "state")]
    pub fresh: bool,
    /// Variables (.82p .82g ...) or a backup to load first, in this order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub load: Vec<PathBuf>,
    /// The file's comment (ASCII, up to 42 characters).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub comment: String,
}

#[derive(Debug, Clone, Args)]
pub struct TokenizeArgs {
    /// Program source text (UTF-8; `->` or `→`, `L1` or `L₁`, ...).
    #[arg(value_name = "SRC")]
    pub src: PathBuf,
    /// The program file to write (default: SRC with the extension .82p).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The program's name on the calculator (default: SRC's file stem, upper-cased).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Write a protected (edit-locked) program.
    #[arg(long)]
    pub protected: bool,
    /// The file's comment (ASCII, up to 42 characters).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub comment: String,
}

#[derive(Debug, Clone, Args)]
pub struct DetokenizeArgs {
    /// A .82p or .82g file (plain or UUE).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write tokens as the calculator shows them (`→`, `L₁`) instead of plain ASCII.
    #[arg(long)]
    pub unicode: bool,
}

#[derive(Debug, Clone, Args)]
pub struct InfoArgs {
    /// TI-82 files (.82? or UUE).
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct PackArgs {
    /// Files whose variables go into the group, in this order.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// The group file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The group file's comment (ASCII, up to 42 characters).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub comment: String,
}

#[derive(Debug, Clone, Args)]
pub struct LinkLogArgs {
    /// A line trace written by `--link-trace`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Runs a file subcommand, printing to `out`.
pub fn run(cmd: &FilesCommand, out: &mut impl std::io::Write) -> Result<()> {
    match cmd {
        FilesCommand::Tokenize(a) => {
            let (path, var) = tokenize(a)?;
            writeln!(
                out,
                "{}: prgm{}, {} bytes of tokens",
                path.display(),
                var.display_name(),
                program_tokens(&var).map_or(0, <[u8]>::len)
            )?;
            Ok(())
        }
        FilesCommand::Detokenize(a) => {
            out.write_all(detokenize(a)?.as_bytes())?;
            Ok(())
        }
        FilesCommand::Info(a) => info(a, out),
        FilesCommand::Pack(a) => {
            let n = pack(a)?;
            writeln!(out, "{}: {n} variables", a.output.display())?;
            Ok(())
        }
        FilesCommand::LinkLog(a) => {
            let events = read_link_trace(&a.file)?;
            out.write_all(crate::capture::link_log_text(&events).as_bytes())?;
            Ok(())
        }
        FilesCommand::Backup(a) => {
            let n = backup(a)?;
            writeln!(
                out,
                "{}: a memory backup, {n} variables",
                a.output.display()
            )?;
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------------------
// tokenize / detokenize
// ---------------------------------------------------------------------------------------

/// The tokens of a program variable (`None` for other types).
pub fn program_tokens(v: &Variable) -> Option<&[u8]> {
    match &v.data {
        VarData::Program(t) | VarData::ProtectedProgram(t) => Some(t),
        _ => None,
    }
}

/// A TI-82 program name from user text: as given if valid, else upper-cased.
pub(crate) fn program_name(text: &str) -> Option<VarName> {
    VarName::program(text)
        .or_else(|_| VarName::program(&text.to_ascii_uppercase()))
        .ok()
}

/// `ti82 tokenize`: reads and tokenizes the source, writes the program file. Returns the
/// path written and the variable.
pub fn tokenize(a: &TokenizeArgs) -> Result<(PathBuf, Variable)> {
    let src = &a.src;
    let bytes = std::fs::read(src).with_context(|| format!("{}: cannot read", src.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: offset {}: not UTF-8 text",
            src.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let name_text = match &a.name {
        Some(n) => n.clone(),
        None => src
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let Some(name) = program_name(&name_text) else {
        bail!(
            "{}: {name_text:?} is not a TI-82 program name (1 to 8 characters: a letter or θ, \
             then letters, digits or θ){}",
            src.display(),
            if a.name.is_none() {
                "; give one with --name"
            } else {
                ""
            }
        );
    };
    let tokens = tokenize_source(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: {} at {:?}",
            src.display(),
            e.line,
            e.column,
            e.message,
            e.context
        )
    })?;
    let data = if a.protected {
        VarData::ProtectedProgram(tokens)
    } else {
        VarData::Program(tokens)
    };
    let var = Variable { name, data };
    let out = a
        .output
        .clone()
        .unwrap_or_else(|| src.with_extension("82p"));
    let file = TiFile::new(&a.comment, vec![var.clone()]);
    let bytes = file
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    write_atomic(&out, &bytes)?;
    Ok((out, var))
}

/// Reads a TI-82 file, naming it in errors.
pub(crate) fn read_vars(path: &Path) -> Result<Vec<Variable>> {
    let file = TiFile::read(path, ReadOptions::default())?;
    match file.content {
        Content::Vars(v) => Ok(v),
        Content::Backup(_) => bail!(
            "{}: a memory backup, not variables (.82p .82g ...)",
            path.display()
        ),
    }
}

/// `ti82 detokenize`: the text of every program in the file; with several programs each is
/// preceded by a line `# prgmNAME`.
pub fn detokenize(a: &DetokenizeArgs) -> Result<String> {
    let vars = read_vars(&a.file)?;
    let progs: Vec<&Variable> = vars
        .iter()
        .filter(|v| program_tokens(v).is_some())
        .collect();
    if progs.is_empty() {
        let held: Vec<String> = vars
            .iter()
            .map(|v| format!("{} {}", v.var_type(), v.display_name()))
            .collect();
        bail!(
            "{}: no program in it (it holds {})",
            a.file.display(),
            held.join(", ")
        );
    }
    let spelling = if a.unicode {
        Spelling::Display
    } else {
        Spelling::Ascii
    };
    let mut s = String::new();
    for v in &progs {
        if progs.len() > 1 {
            let _ = writeln!(s, "# prgm{}", v.display_name());
        }
        s += &tifiles::detokenize(program_tokens(v).unwrap_or_default(), spelling);
        s.push('\n');
    }
    Ok(s)
}

// ---------------------------------------------------------------------------------------
// info / pack
// ---------------------------------------------------------------------------------------

/// The checksum verdict of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumStatus {
    Ok,
    Bad { stored: u16, computed: u16 },
}

/// Reads a file; a bad checksum is reported rather than refused.
pub fn read_checked(path: &Path) -> Result<(TiFile, ChecksumStatus)> {
    match TiFile::read(path, ReadOptions::default()) {
        Ok(f) => Ok((f, ChecksumStatus::Ok)),
        Err(e) => match e.problem {
            FileProblem::Checksum { stored, computed } => {
                let f = TiFile::read(
                    path,
                    ReadOptions {
                        ignore_checksum: true,
                    },
                )?;
                Ok((f, ChecksumStatus::Bad { stored, computed }))
            }
            _ => Err(e.into()),
        },
    }
}

/// The text `ti82 info` prints for one file.
pub fn info_text(path: &Path, file: &TiFile, status: ChecksumStatus) -> String {
    let mut s = String::new();
    let sum = match status {
        ChecksumStatus::Ok => "ok".to_string(),
        ChecksumStatus::Bad { stored, computed } => {
            format!("BAD: stored {stored:04X}, computed {computed:04X}")
        }
    };
    let what = match &file.content {
        Content::Vars(v) if v.len() == 1 => "1 entry".to_string(),
        Content::Vars(v) => format!("{} entries", v.len()),
        Content::Backup(_) => "a memory backup".to_string(),
    };
    let _ = writeln!(s, "{}: {what}, checksum {sum}", path.display());
    let _ = writeln!(s, "  comment: {:?}", file.comment_text());
    match &file.content {
        Content::Vars(vars) => {
            for v in vars {
                let ty = v.var_type();
                let _ = writeln!(
                    s,
                    "  {:<18} {:<10} {:>5} bytes",
                    ty.to_string(),
                    v.display_name(),
                    v.data.to_bytes().len()
                );
            }
        }
        Content::Backup(b) => {
            let _ = writeln!(
                s,
                "  backup sections: {} + {} + {} bytes, data at {:04X}h",
                b.section1.len(),
                b.section2.len(),
                b.section3.len(),
                b.address
            );
        }
    }
    s
}

/// `ti82 info`: every file, even after one fails; an unreadable file or a bad checksum makes
/// the command fail at the end.
pub fn info(a: &InfoArgs, out: &mut impl std::io::Write) -> Result<()> {
    let mut problems = Vec::new();
    for path in &a.files {
        match read_checked(path) {
            Ok((file, status)) => {
                out.write_all(info_text(path, &file, status).as_bytes())?;
                if let ChecksumStatus::Bad { stored, computed } = status {
                    problems.push(format!(
                        "{}: bad checksum: stored {stored:04X}, computed {computed:04X}",
                        path.display()
                    ));
                }
            }
            Err(e) => {
                writeln!(out, "{}: unreadable", path.display())?;
                problems.push(format!("{e:#}"));
            }
        }
    }
    out.flush()?;
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(())
}

/// `ti82 pack`: the variables of every input (in order) into one group file. Two variables
/// of the same type and name are refused. Returns how many variables were written.
pub fn pack(a: &PackArgs) -> Result<usize> {
    let mut all: Vec<(Variable, &Path)> = Vec::new();
    for path in &a.files {
        for v in read_vars(path)? {
            if let Some((_, first)) = all
                .iter()
                .find(|(w, _)| w.name == v.name && w.var_type() == v.var_type())
            {
                bail!(
                    "{}: {} {} is already in the group (from {})",
                    path.display(),
                    v.var_type(),
                    v.display_name(),
                    first.display()
                );
            }
            all.push((v, path));
        }
    }
    let vars: Vec<Variable> = all.into_iter().map(|(v, _)| v).collect();
    let n = vars.len();
    let bytes = TiFile::new(&a.comment, vars)
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.output.display()))?;
    write_atomic(&a.output, &bytes)?;
    Ok(n)
}

// ---------------------------------------------------------------------------------------
// Link line traces
// ---------------------------------------------------------------------------------------

/// The first line of a link trace.
pub const TRACE_HEADER: &str = "# ti82 link trace 1";

/// A link trace: the header, two comment lines, then one line `T-STATE TIP RING` per change
/// of the lines (1 high, 0 low) as the calculator saw them. `events` are the link port's
/// log entries (T-state, levels: bit 0 tip, bit 1 ring, 1 = high).
pub fn link_trace_text(events: &[(u64, u8)]) -> String {
    let mut s = String::with_capacity(16 * events.len() + 200);
    s += TRACE_HEADER;
    s += "\n# one line per change of the link lines as this calculator saw them; both high before the first\n\
          # T-STATE TIP RING (6 000 000 T-states per emulated second; 1 = high, 0 = pulled low)\n";
    for &(t, lv) in events {
        let _ = writeln!(s, "{t} {} {}", lv & 1, (lv >> 1) & 1);
    }
    s
}

/// Writes [`link_trace_text`] to `path` atomically.
pub fn write_link_trace(path: &Path, events: &[(u64, u8)]) -> Result<()> {
    write_atomic(path, link_trace_text(events).as_bytes())
        .with_context(|| format!("{}: cannot write the link trace", path.display()))
}

/// Parses a link trace (see [`link_trace_text`]); errors name the line. Blank lines and
/// lines starting with `#` after the header are ignored; times must not decrease.
pub fn parse_link_trace(text: &str) -> Result<Vec<(u64, u8)>, String> {
    let mut lines = text.lines().enumerate();
    let first = lines.next().map(|(_, l)| l.trim_end()).unwrap_or("");
    if first != TRACE_HEADER {
        if first.starts_with("# ti82 link log") {
            return Err(
                "line 1: this is a decoded link log (from --link-log), not a line \
                        trace; record one with --link-trace"
                    .into(),
            );
        }
        if let Some(v) = first.strip_prefix("# ti82 link trace ") {
            return Err(format!(
                "line 1: link trace version {v:?}; this ti82 reads version 1"
            ));
        }
        return Err(format!(
            "line 1: not a link trace (the first line should be {TRACE_HEADER:?}, it is {:?})",
            first.chars().take(40).collect::<String>()
        ));
    }
    let mut out = Vec::new();
    let mut last = 0u64;
    for (i, line) in lines {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let [t, tip, ring] = f.as_slice() else {
            return Err(format!(
                "line {n}: expected `T-STATE TIP RING`, found {} fields in {line:?}",
                f.len()
            ));
        };
        let t: u64 = t
            .parse()
            .map_err(|_| format!("line {n}: bad T-state {t:?}"))?;
        let bit = |s: &str, what: &str| match s {
            "0" => Ok(0u8),
            "1" => Ok(1u8),
            _ => Err(format!("line {n}: {what} must be 0 or 1, found {s:?}")),
        };
        let lv = bit(tip, "TIP")? | bit(ring, "RING")? << 1;
        if t < last {
            return Err(format!(
                "line {n}: time {t} is before the previous line's {last}"
            ));
        }
        last = t;
        out.push((t, lv));
    }
    Ok(out)
}

/// Reads a link trace file.
pub fn read_link_trace(path: &Path) -> Result<Vec<(u64, u8)>> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    parse_link_trace(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// `ti82 backup`: the calculator (a saved built-in state, or a fresh one), `--load` files on
/// top, its memory written as a `.82b` (spec 7.6). Returns the number of variables in it.
fn backup(a: &BackupArgs) -> Result<usize> {
    let mut calc = ti82_machine::Calc::new(tibasic::firmware::BasicFirmware::new());
    // Power on: an empty VAT and the OS's settings in RAM.
    calc.run_for(ti82_machine::FRAME_T);
    if !a.fresh {
        let state = match &a.state {
            Some(p) => p.clone(),
            None => {
                crate::session::state_path(&crate::config::Paths::locate()?.state_dir, "builtin")
            }
        };
        if !state.exists() {
            bail!(
                "{}: no saved state (run the built-in calculator once, name a state with \
                 --state, or start empty with --fresh)",
                state.display()
            );
        }
        calc.load_state(&state)
            .with_context(|| format!("{}: reading the calculator's state", state.display()))?;
    }
    crate::session::load_files(&mut calc, &a.load)?;
    let b = tibasic::firmware::backup(&mut calc)
        .map_err(|e| anyhow::anyhow!("the calculator's memory is not a valid VAT: {e}"))?;
    let n = tifiles::vat::entries(calc.ram()).map_or(0, |e| e.len());
    let mut file = TiFile::backup("", b);
    file.set_comment(&a.comment);
    let bytes = file
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.output.display()))?;
    write_atomic(&a.output, &bytes)?;
    Ok(n)
}
