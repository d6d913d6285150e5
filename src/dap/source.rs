//! The programs a session knows: their tokens, names and lines, for positions and
//! breakpoints.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Value as Json};
use tifiles::tokens::{detokenize, is_prefix, tokenize_source, Spelling};
use tifiles::var::{VarData, Variable};

/// The largest program file a launch reads (a TI-82 has 28 KiB of user memory; a source
/// text is longer than its tokens, but not by this much).
const MAX_PROGRAM_FILE: u64 = 1 << 20;
/// Token of a line break in a program.
const NEWLINE: u8 = 0x3F;

/// A program the session knows, with its source for positions.
pub(super) struct Source {
    /// The program's name as the calculator has it (token bytes) and as text.
    pub(super) name: Vec<u8>,
    pub(super) display: String,
    pub(super) tokens: Vec<u8>,
    /// Where each line starts in `tokens` (after each newline token), found once.
    pub(super) line_starts: Vec<usize>,
    /// The file it came from; for a `.txt` the file's own text is the source, for a TI file
    /// its detokenized text is served by `sourceReference`.
    pub(super) path: PathBuf,
    pub(super) text_file: bool,
    pub(super) reference: i64,
}

impl Source {
    pub(super) fn new(
        name: Vec<u8>,
        tokens: Vec<u8>,
        path: PathBuf,
        text_file: bool,
        reference: i64,
    ) -> Self {
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i] == NEWLINE {
                line_starts.push(i + 1);
            }
            i += if is_prefix(tokens[i]) { 2 } else { 1 };
        }
        Source {
            display: detokenize(&name, Spelling::Ascii),
            name,
            tokens,
            line_starts,
            path,
            text_file,
            reference,
        }
    }

    /// 1-based line and column of the statement at `offset`.
    pub(super) fn position(&self, offset: u32) -> (i64, i64) {
        let end = (offset as usize).min(self.tokens.len());
        let line = self.line_starts.partition_point(|&s| s <= end);
        let start = self.line_starts[line - 1];
        let col = detokenize(&self.tokens[start..end], Spelling::Ascii)
            .chars()
            .count() as i64
            + 1;
        (line as i64, col)
    }

    /// The statements (offset, line) that can hold a breakpoint.
    pub(super) fn statements(&self) -> Vec<(u32, i64)> {
        tibasic::parse::compile(&self.tokens)
            .into_iter()
            .filter(|l| !matches!(l.stmt, tibasic::ast::Stmt::Empty))
            .map(|l| (l.offset, self.position(l.offset).0))
            .collect()
    }

    pub(super) fn dap(&self) -> Json {
        if self.text_file {
            json!({"name": self.display, "path": self.path.display().to_string()})
        } else {
            json!({"name": format!("{}.txt", self.display), "sourceReference": self.reference,
                   "origin": format!("detokenized from {}", self.path.display())})
        }
    }
}

/// Reads the programs of one launch file: their sources, and every variable to install.
pub(super) fn load_file(path: &Path, reference: i64) -> Result<(Vec<Source>, Vec<Variable>)> {
    // A device or a pipe could be read forever: only a regular file of a sane size.
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!("{}: not a regular file", path.display());
    }
    if meta.len() > MAX_PROGRAM_FILE {
        anyhow::bail!(
            "{}: {} bytes, larger than any TI-82 program file ({MAX_PROGRAM_FILE} bytes at most)",
            path.display(),
            meta.len()
        );
    }
    let is_text = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    let (vars, text_file) = if is_text {
        // As `ti82 tokenize` names and tokenizes a source.
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read it as UTF-8 text", path.display()))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = crate::files_cmd::program_name(&stem).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: {stem:?} is not a TI-82 program name (1 to 8 letters, digits or θ)",
                path.display()
            )
        })?;
        let tokens = tokenize_source(&text).map_err(|e| {
            anyhow::anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message)
        })?;
        let data = VarData::Program(tokens);
        (vec![Variable { name, data }], true)
    } else {
        (crate::files_cmd::read_vars(path)?, false)
    };
    let sources = vars
        .iter()
        .filter_map(|v| Some((v, crate::files_cmd::program_tokens(v)?)))
        .enumerate()
        .map(|(i, (v, tokens))| {
            Source::new(
                v.name.bytes().to_vec(),
                tokens.to_vec(),
                path.to_path_buf(),
                text_file,
                reference + i as i64,
            )
        })
        .collect();
    Ok((sources, vars))
}
