//! `cargo xtask calibrate`: runs every published real-calculator timing's program on the
//! built-in runtime at real speed (emulated time, so the figures are the same on every host)
//! and prints program, real seconds, ours and the ratio; the last line is the worst ratio.
//! `--write` regenerates the calibration section of `docs/tibasic.md` and MANCALA's pace at real
//! speed in `docs/mancala-programs.md`.

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use ti82_harness::pace;
use tibasic::calibration;

pub fn run(write: bool) -> Result<()> {
    let rows = calibration::run_all().map_err(|e| anyhow!(e))?;
    println!(
        "{:<16} {:<14} {:>9} {:>9} {:>9}",
        "program", "calculator", "real s", "ours s", "ours/real"
    );
    for r in &rows {
        println!(
            "{:<16} {:<14} {:>9.2} {:>9.2} {:>9.3}",
            r.measured.name,
            r.measured.model,
            r.measured.real_s,
            r.ours_s,
            r.ratio()
        );
    }
    if write {
        let programs = ti82_harness::builtin_programs()?;
        let steps = pace::measure(&programs)?;
        print!("MANCALA at real speed:\n{}", pace::report(&steps));
        write_between(
            "docs/tibasic.md",
            calibration::BEGIN,
            calibration::END,
            &calibration::report(&rows),
        )?;
        write_between(
            "docs/mancala-programs.md",
            pace::BEGIN,
            pace::END,
            &pace::report(&steps),
        )?;
    }
    println!("worst ratio: {:.3}", calibration::worst(&rows));
    Ok(())
}

/// Replaces the generated part of the project file `rel` (atomically).
fn write_between(rel: &str, begin: &str, end: &str, body: &str) -> Result<()> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    let doc =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let new = calibration::splice_between(&doc, begin, end, body).ok_or_else(|| {
        anyhow!(
            "{}: the generated-section markers are missing ({begin} ... {end})",
            path.display()
        )
    })?;
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, new).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("replacing {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}
