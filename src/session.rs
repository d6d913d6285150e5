//! Making a calculator: which firmware, loading files, and the saved state (restored at
//! start, saved at exit, set aside when corrupt). A pure builder: it imports nothing else of
//! the front end.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use ti82_machine::{Calc, RomImage, StateError};
use tifiles::{Content, ReadOptions, TiFile, Variable};

/// Which firmware runs the calculator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirmwareChoice {
    /// The user's ROM image on the Z80.
    Rom(PathBuf),
    /// The built-in TI-BASIC runtime (`crates/tibasic`).
    Builtin,
}

/// A calculator and a short name for its firmware, used to name its state file.
pub struct Made {
    pub calc: Calc,
    /// `rom-<hash>` or `builtin`: one state file per ROM image, so switching ROMs never
    /// loads a state made with another one.
    pub ident: String,
    /// The TI-OS version found in the ROM image (`None`: the built-in runtime, or an image
    /// without the OS's version text, which the link loader leaves alone).
    pub os: Option<String>,
    /// What the user should know about the ROM image, file named ([`RomImage::note`]: a
    /// dumper's padding that was ignored, or version text that could not be read).
    pub note: Option<String>,
}

/// Builds the calculator for a firmware choice.
pub fn make_calc(choice: &FirmwareChoice) -> Result<Made> {
    match choice {
        FirmwareChoice::Rom(path) => {
            let rom = RomImage::load(path)?;
            let ident = format!("rom-{:016x}", rom.hash());
            let os = rom.version().map(str::to_string);
            let note = rom.note().map(|n| format!("{}: {n}", path.display()));
            Ok(Made {
                calc: Calc::from_rom(rom),
                ident,
                os,
                note,
            })
        }
        FirmwareChoice::Builtin => Ok(Made {
            calc: builtin_calc()?,
            ident: "builtin".into(),
            os: None,
            note: None,
        }),
    }
}

/// A calculator running the built-in runtime, with MANBOARD and MANCALA in its memory.
fn builtin_calc() -> Result<Calc> {
    let mut calc = Calc::new(tibasic::firmware::BasicFirmware::new());
    let programs = ti82_harness::builtin_programs()?;
    tibasic::firmware::install(calc.ram_mut(), &programs)
        .context("putting MANBOARD and MANCALA into the calculator's memory")?;
    Ok(calc)
}

/// Whether `calc` runs the built-in runtime (rather than a ROM).
pub fn is_builtin(calc: &Calc) -> bool {
    calc.firmware()
        .as_any()
        .is::<tibasic::firmware::BasicFirmware>()
}

/// Puts variables read from files into the calculator: straight into the VAT on the built-in
/// runtime. A ROM calculator receives MANBOARD and MANCALA over the link at start
/// (`crate::romload`); other files are not sent to it yet.
fn install_vars(calc: &mut Calc, vars: &[Variable], file: &Path) -> Result<()> {
    if is_builtin(calc) {
        return tibasic::firmware::install(calc.ram_mut(), vars)
            .with_context(|| format!("{}: loading it into the calculator", file.display()));
    }
    let names: Vec<String> = vars.iter().map(|v| v.display_name()).collect();
    bail!(
        "{}: read {} ({}), but sending variables to a calculator running a ROM (over the link, \
         as a computer would) is not implemented yet; use the built-in runtime (--no-rom)",
        file.display(),
        if names.len() == 1 {
            "1 variable"
        } else {
            "variables"
        },
        names.join(", ")
    )
}

/// A memory backup replaces the built-in calculator's memory (its VAT, programs, variables and
/// the settings kept in RAM), as LINK RECEIVE of a backup does; checked whole before anything
/// changes (`tifiles::vat::restore_backup`).
fn restore_backup(calc: &mut Calc, b: &tifiles::Backup, file: &Path) -> Result<()> {
    tibasic::firmware::restore_backup(calc, b)
        .with_context(|| format!("{}: restoring the backup", file.display()))
}

/// A backup read for a calculator running a ROM: it goes over the link once the calculator
/// is on (`crate::romload::send_backup`), where the TI-82 asks its user to confirm.
pub struct PendingBackup {
    pub file: PathBuf,
    pub backup: tifiles::Backup,
}

/// Reads `.82p .82g .82l ...` files (plain or UUE) and loads their variables, or a backup
/// (`.82b`) that replaces the memory (a calculator running a ROM: refused; see
/// [`load_files_deferring_backups`]).
pub fn load_files(calc: &mut Calc, files: &[PathBuf]) -> Result<()> {
    if let Some(p) = load_files_deferring_backups(calc, files)?.first() {
        bail!(
            "{}: a memory backup; a calculator running a ROM receives one over the link once \
             it is on (ti82 run --rom ... --load FILE.82b)",
            p.file.display()
        );
    }
    Ok(())
}

/// As [`load_files`], but a backup for a calculator running a ROM is returned, in the order
/// given, to be sent over the link once the calculator is on.
pub fn load_files_deferring_backups(
    calc: &mut Calc,
    files: &[PathBuf],
) -> Result<Vec<PendingBackup>> {
    let mut pending = Vec::new();
    for f in files {
        let file = TiFile::read(f, ReadOptions::default())?;
        match file.content {
            Content::Vars(vars) => install_vars(calc, &vars, f)?,
            Content::Backup(b) if is_builtin(calc) => restore_backup(calc, &b, f)?,
            Content::Backup(b) => pending.push(PendingBackup {
                file: f.clone(),
                backup: b,
            }),
        }
    }
    Ok(pending)
}

// ---------------------------------------------------------------------------------------
// Saved state
// ---------------------------------------------------------------------------------------

/// The state file for a firmware ident.
pub fn state_path(dir: &Path, ident: &str) -> PathBuf {
    dir.join(format!("{ident}.state"))
}

/// What happened to the saved state at start.
#[derive(Debug, PartialEq, Eq)]
pub enum Restored {
    /// Nothing saved yet (or `--fresh`).
    Fresh,
    Restored,
    /// The file could not be used; it was renamed to `moved_to`.
    SetAside {
        moved_to: PathBuf,
        reason: String,
    },
}

impl Restored {
    /// A line for the user, if there is something to say.
    pub fn message(&self, path: &Path) -> Option<String> {
        match self {
            Restored::Fresh => None,
            Restored::Restored => Some(format!("restored the state from {}", path.display())),
            Restored::SetAside { moved_to, reason } => Some(format!(
                "could not use the saved state ({reason}); kept it as {} and started fresh",
                moved_to.display()
            )),
        }
    }
}

/// Restores `path` into `calc`. A file that cannot be used is renamed (never deleted) so a
/// fresh start does not overwrite it.
pub fn restore_state(calc: &mut Calc, path: &Path) -> Result<Restored> {
    match calc.load_state(path) {
        Ok(()) => Ok(Restored::Restored),
        Err(StateError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(Restored::Fresh)
        }
        Err(e) => {
            let reason = e.to_string();
            let moved_to = set_aside(path)?;
            Ok(Restored::SetAside { moved_to, reason })
        }
    }
}

/// Renames `path` to `path.corrupt-N` with the first free N.
pub fn set_aside(path: &Path) -> Result<PathBuf> {
    let mut n = 1u32;
    loop {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".corrupt-{n}"));
        let to = path.with_file_name(name);
        if !to.exists() {
            std::fs::rename(path, &to).with_context(|| {
                format!(
                    "{}: cannot set the unusable state aside as {}",
                    path.display(),
                    to.display()
                )
            })?;
            return Ok(to);
        }
        n += 1;
        if n > 10_000 {
            bail!("{}: too many set-aside states beside it", path.display());
        }
    }
}

/// Saves the state of `calc` to `path` (atomically, creating the folder).
pub fn save_state(calc: &Calc, path: &Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    }
    calc.save_state(path)?;
    Ok(())
}
