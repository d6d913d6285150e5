//! The config file (TOML) and where it and the saved state live.
//!
//! Location: `TI82_HOME` when set (config and state both in that folder: handy for tests and
//! portable installs), else the platform's places from the `directories` crate, e.g. on Linux
//! `~/.config/ti82/config.toml` and `~/.local/share/ti82/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::keymap::KeyMap;

/// The config file's contents. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The ROM image used when `--rom` is not given (set by `--rom`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rom: Option<PathBuf>,
    /// Window scale (LCD pixels to screen pixels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<u32>,
    /// `real`, a factor such as `2`, or `turbo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<String>,
    /// Host key → TI-82 key name, `ON`, a command, or `none`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keys: BTreeMap<String, String>,
    /// Typed character (terminal) → key script.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub chars: BTreeMap<String, String>,
}

impl ConfigFile {
    /// Parses config text; `name` is for messages.
    pub fn parse(name: &Path, text: &str) -> Result<ConfigFile> {
        toml::from_str(text).with_context(|| format!("{}: bad config file", name.display()))
    }

    /// Reads the config file; a missing file is the default config.
    pub fn load(path: &Path) -> Result<ConfigFile> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(path, &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ConfigFile::default()),
            Err(e) => Err(e).with_context(|| format!("{}: cannot read config", path.display())),
        }
    }

    /// Writes the config file (temporary file + rename). Comments in the old file are lost.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = toml::to_string_pretty(self).context("cannot encode the config")?;
        write_atomic(path, text.as_bytes())
    }

    /// The key map: defaults with this file's overrides.
    pub fn keymap(&self, path: &Path) -> Result<KeyMap> {
        let mut m = KeyMap::default();
        m.apply(&self.keys, &self.chars)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(m)
    }
}

/// Where the config file and the saved states are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    pub config_file: PathBuf,
    pub state_dir: PathBuf,
}

impl Paths {
    pub fn in_dir(dir: &Path) -> Paths {
        Paths {
            config_file: dir.join("config.toml"),
            state_dir: dir.to_path_buf(),
        }
    }

    /// `TI82_HOME`, else the platform's config and data folders.
    pub fn locate() -> Result<Paths> {
        if let Some(home) = std::env::var_os("TI82_HOME") {
            return Ok(Paths::in_dir(Path::new(&home)));
        }
        let dirs = directories::ProjectDirs::from("", "", "ti82").context(
            "cannot find a home folder for the config and state; set TI82_HOME to a folder",
        )?;
        Ok(Paths {
            config_file: dirs.config_dir().join("config.toml"),
            state_dir: dirs.data_dir().to_path_buf(),
        })
    }
}

/// Writes `data` to `path` through a temporary file beside it and a rename, creating the
/// folder if needed.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    std::fs::write(&tmp, data).with_context(|| format!("{}: cannot write", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot replace", path.display())
    })
}
