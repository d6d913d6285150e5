//! `cargo xtask build-programs [--check]`: tokenizes MANBOARD and MANCALA.
//!
//! `programs/NAME.txt` (our TI-BASIC source) becomes `programs/NAME.82p`, a TI-82 program
//! file a real calculator or another emulator can load. The bytes depend only on the source:
//! a fixed comment, no dates. Without `--check` the committed files are rewritten where they
//! differ; with `--check` nothing is written and the command fails, naming each file, when a
//! committed `.82p` is missing or differs from a fresh build.

use anyhow::{bail, Context, Result};
use std::path::Path;

use tifiles::file::TiFile;
use tifiles::var::Variable;

use crate::asm::workspace_root;

/// The programs built, in the order a user loads them.
pub const PROGRAMS: &[&str] = &["MANBOARD", "MANCALA"];

/// The comment every built file carries (at most 42 bytes).
pub fn comment(name: &str) -> String {
    format!("{name} for the TI-82 (ti82 project)")
}

/// The `.82p` bytes of `programs/NAME.txt`.
pub fn build(root: &Path, name: &str) -> Result<Vec<u8>> {
    let src_path = root.join("programs").join(format!("{name}.txt"));
    let src = std::fs::read_to_string(&src_path)
        .with_context(|| format!("cannot read {}", src_path.display()))?;
    let tokens = tifiles::tokens::tokenize_source(&src)
        .map_err(|e| anyhow::anyhow!("programs/{name}.txt: {e}"))?;
    let var =
        Variable::program(name, tokens).map_err(|e| anyhow::anyhow!("programs/{name}.txt: {e}"))?;
    TiFile::new(&comment(name), vec![var])
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("programs/{name}.82p: {e}"))
}

pub fn run(check: bool) -> Result<()> {
    let root = workspace_root();
    let mut stale = Vec::new();
    for name in PROGRAMS {
        let bytes = build(&root, name)?;
        let out = root.join("programs").join(format!("{name}.82p"));
        let rel = format!("programs/{name}.82p");
        let same = std::fs::read(&out).is_ok_and(|old| old == bytes);
        if check {
            if same {
                println!("{rel}: up to date ({} bytes)", bytes.len());
            } else {
                println!("{rel}: differs from a fresh build of programs/{name}.txt");
                stale.push(rel);
            }
        } else if same {
            println!("{rel}: unchanged ({} bytes)", bytes.len());
        } else {
            let tmp = out.with_extension("82p.tmp");
            std::fs::write(&tmp, &bytes)
                .with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, &out)
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("{rel}: written ({} bytes)", bytes.len());
        }
    }
    if !stale.is_empty() {
        bail!(
            "stale built programs (run `cargo xtask build-programs`): {}",
            stale.join(", ")
        );
    }
    Ok(())
}
