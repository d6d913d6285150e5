//! `cargo xtask test-roms [--check]`: reassembles the project's Z80 programs.
//!
//! Every `*.asm` directly under `tests/z80/` and `tests/roms/` (paths from the workspace
//! root) is assembled with Debian's `z80asm` (package `z80asm`), run in the source's own
//! folder so `include` and `incbin` resolve beside it. The output sits next to the source
//! with the same stem; its extension follows one rule:
//!
//! * a source whose file name starts with `cpm` is a CP/M program: `NAME.com`
//!   (assembled for 0100h, run with `cargo xtask cpm`);
//! * every other source is a raw memory image: `NAME.bin`.
//!
//! Without `--check` the committed outputs are rewritten where they differ. With `--check`
//! nothing is written: the command fails, naming each file, if any assembled output differs
//! from the committed one (or the committed one is missing), so CI can prove the bytes match
//! their sources.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders (relative to the workspace root) whose sources are assembled.
const DIRS: &[&str] = &["tests/z80", "tests/roms", "crates/machine/tests/roms"];

/// The workspace root: the parent of xtask's own folder.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// The committed output of `source` under the naming rule above.
pub fn output_path(source: &Path) -> PathBuf {
    let is_cpm = source
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("cpm"));
    source.with_extension(if is_cpm { "com" } else { "bin" })
}

/// The `.asm` files of the assembled folders, sorted. A missing folder has none.
fn sources(root: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for dir in DIRS {
        let dir = root.join(dir);
        if !dir.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&dir)
            .with_context(|| format!("cannot read directory {}", dir.display()))?
        {
            let path = entry?.path();
            if path.is_file() && path.extension().is_some_and(|e| e == "asm") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Assembles `source` with z80asm and returns the bytes.
fn assemble(source: &Path, scratch: &Path) -> Result<Vec<u8>> {
    let dir = source.parent().expect("a file has a folder");
    let name = source.file_name().expect("a file has a name");
    let out = Command::new("z80asm")
        .current_dir(dir)
        .arg("-i")
        .arg(name)
        .arg("-o")
        .arg(scratch)
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "z80asm is not installed: install Debian's `z80asm` package \
             (apt-get install z80asm) to assemble {}",
            source.display()
        ),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot run z80asm on {}", source.display()))
        }
    };
    if !out.status.success() {
        bail!(
            "z80asm failed on {}:\n{}{}",
            source.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::read(scratch)
        .with_context(|| format!("z80asm wrote no output for {}", source.display()))
}

pub fn run(check: bool) -> Result<()> {
    let root = workspace_root();
    let sources = sources(&root)?;
    if sources.is_empty() {
        bail!(
            "no .asm sources under {} in {}",
            DIRS.join(" or "),
            root.display()
        );
    }
    let scratch = std::env::temp_dir().join(format!("xtask-test-roms-{}.bin", std::process::id()));
    let rel = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    let mut differing = Vec::new();
    let mut result = Ok(());
    for source in &sources {
        let bytes = match assemble(source, &scratch) {
            Ok(bytes) => bytes,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        let target = output_path(source);
        let committed = std::fs::read(&target).ok();
        let same = committed.as_deref() == Some(&bytes[..]);
        let status = match (&committed, same, check) {
            (_, true, _) => "unchanged",
            (None, false, true) => "MISSING",
            (Some(_), false, true) => "DIFFERS",
            (None, false, false) => "written (new)",
            (Some(_), false, false) => "written (changed)",
        };
        if !same {
            differing.push(rel(&target));
            if !check {
                std::fs::write(&target, &bytes)
                    .with_context(|| format!("cannot write {}", target.display()))?;
            }
        }
        println!("{:<32} {:>6} bytes  {status}", rel(&target), bytes.len());
    }
    let _ = std::fs::remove_file(&scratch);
    result?;
    if check && !differing.is_empty() {
        bail!(
            "{} committed file(s) differ from their sources: {} (run `cargo xtask test-roms` to update)",
            differing.len(),
            differing.join(", ")
        );
    }
    println!(
        "{} source(s) assembled, {} output(s) {}",
        sources.len(),
        differing.len(),
        if check { "differ" } else { "rewritten" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_follow_the_naming_rule() {
        assert_eq!(
            output_path(Path::new("tests/z80/cpmhello.asm")),
            Path::new("tests/z80/cpmhello.com")
        );
        assert_eq!(
            output_path(Path::new("tests/z80/bench.asm")),
            Path::new("tests/z80/bench.bin")
        );
    }

    #[test]
    fn every_source_has_its_committed_output() {
        for source in sources(&workspace_root()).unwrap() {
            let out = output_path(&source);
            assert!(
                out.is_file(),
                "{} has no committed {}",
                source.display(),
                out.display()
            );
        }
    }
}
