//! TI-82 ROM images (spec §8.4): 128 KiB, not a TI-85 (`CATALOG` text) nor a TI-83 (256 KiB).
//!
//! Dumping tools pad or append to the image, so, as TilEm does, any size from 20000h to
//! 2BFFFh bytes is accepted: the first 128 KiB are the ROM and the rest is reported
//! ([`RomImage::note`]) and ignored.

use crate::hw::Generation;
use crate::memory::ROM_SIZE;
use std::path::{Path, PathBuf};

/// Why an image was refused.
#[derive(Debug, thiserror::Error)]
pub enum RomError {
    #[error("{path}: cannot read ROM image: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {size} bytes looks like a TI-83 / TI-82 STATS ROM (256 KiB); a TI-82 ROM image is 131072 bytes (128 KiB), or up to {MAX_IMAGE} with a dumper's padding")]
    Ti83 { path: PathBuf, size: usize },
    #[error("{path}: contains the text CATALOG, so it is a TI-85 ROM; a TI-82 ROM is expected")]
    Ti85 { path: PathBuf },
    #[error(
        "{path}: truncated: {size} bytes, a TI-82 ROM image is at least 131072 bytes (128 KiB)"
    )]
    Truncated { path: PathBuf, size: usize },
    #[error("{path}: {size} bytes is too large (another model's image?); a TI-82 ROM image is 131072 bytes (128 KiB), or up to {MAX_IMAGE} with a dumper's padding")]
    TooLarge { path: PathBuf, size: usize },
}

/// The largest file taken as a (padded) TI-82 image: TilEm's bound, 2BFFFh bytes.
pub const MAX_IMAGE: usize = 0x2BFFF;

/// A validated 128 KiB TI-82 ROM image.
#[derive(Clone, PartialEq, Eq)]
pub struct RomImage {
    bytes: Vec<u8>,
    version: Option<String>,
    /// Bytes after the first 128 KiB of the file (ignored).
    extra: usize,
}

impl std::fmt::Debug for RomImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RomImage")
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl RomImage {
    /// Reads and validates an image file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, RomError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| RomError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(path, bytes)
    }

    /// Validates bytes; `name` is used in error messages.
    pub fn from_bytes(name: impl AsRef<Path>, bytes: Vec<u8>) -> Result<Self, RomError> {
        let path = name.as_ref().to_path_buf();
        let size = bytes.len();
        if size == 2 * ROM_SIZE {
            return Err(RomError::Ti83 { path, size });
        }
        if size < ROM_SIZE {
            return Err(RomError::Truncated { path, size });
        }
        if size > MAX_IMAGE {
            return Err(RomError::TooLarge { path, size });
        }
        let mut bytes = bytes;
        bytes.truncate(ROM_SIZE);
        if find(&bytes, b"CATALOG").is_some() {
            return Err(RomError::Ti85 { path });
        }
        let version = find(&bytes, b"Self Test?").map(|i| {
            bytes[i + 10..]
                .iter()
                .skip_while(|b| b.is_ascii_whitespace() || **b == 0)
                .take_while(|b| b.is_ascii_digit() || **b == b'.')
                .take(12)
                .map(|&b| b as char)
                .collect::<String>()
        });
        let version = version.filter(|v| !v.is_empty());
        Ok(RomImage {
            bytes,
            version,
            extra: size - ROM_SIZE,
        })
    }

    /// A 128 KiB image from a program placed at 0000h (the rest filled with FFh), for tests
    /// and benchmarks. Not validated against `CATALOG`.
    pub fn from_program(program: &[u8]) -> Self {
        let mut bytes = vec![0xFF; ROM_SIZE];
        let n = program.len().min(ROM_SIZE);
        bytes[..n].copy_from_slice(&program[..n]);
        RomImage {
            bytes,
            version: None,
            extra: 0,
        }
    }

    /// Bytes of the file beyond the 128 KiB ROM (a dumper's padding; ignored).
    pub fn extra_bytes(&self) -> usize {
        self.extra
    }

    /// What a front end should tell the user about this image, if anything: padding that was
    /// ignored, or version text that could not be read (the generation is then decided by
    /// the ROM's own port-04h writes, spec §8.4).
    pub fn note(&self) -> Option<String> {
        let mut notes = Vec::new();
        if self.extra > 0 {
            notes.push(format!(
                "the image has {} bytes after the 128 KiB ROM (a dumper's padding or trailer); \
                 they are ignored",
                self.extra
            ));
        }
        if self.version.is_none() {
            notes.push(
                "no OS version text after `Self Test?`; the hardware generation is taken \
                 from the ROM's first port-04h write (bit 4)"
                    .to_string(),
            );
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// The OS version text found after `Self Test?`, e.g. "19.0".
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The hardware generation this image runs on (§8.3): 19.006 is the Parcus.
    pub fn generation(&self) -> Generation {
        match &self.version {
            Some(v) if v.starts_with("19.006") => Generation::Parcus,
            _ => Generation::Classic,
        }
    }

    /// A 64-bit FNV-1a hash of the image (used to match save states to their ROM).
    pub fn hash(&self) -> u64 {
        crate::state::fnv1a(&self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_and_version() {
        let e = RomImage::from_bytes("a.rom", vec![0; 1000]).unwrap_err();
        assert!(e.to_string().contains("a.rom") && e.to_string().contains("truncated"));
        let e = RomImage::from_bytes("b.rom", vec![0; 0x40000]).unwrap_err();
        assert!(matches!(e, RomError::Ti83 { .. }));
        let e = RomImage::from_bytes("c.rom", vec![0; 0x2C000]).unwrap_err();
        assert!(matches!(e, RomError::TooLarge { .. }));
        assert!(e.to_string().contains("c.rom") && e.to_string().contains("180223"));
        let mut b = vec![0; 0x20000];
        b[0x1234..0x1234 + 7].copy_from_slice(b"CATALOG");
        let e = RomImage::from_bytes("d.rom", b).unwrap_err();
        assert!(e.to_string().contains("TI-85"));
        let mut b = vec![0; 0x20000];
        b[0x100..0x100 + 17].copy_from_slice(b"Self Test?19.006\0");
        let r = RomImage::from_bytes("e.rom", b).unwrap();
        assert_eq!(r.version(), Some("19.006"));
        assert_eq!(r.generation(), Generation::Parcus);
        let r = RomImage::from_bytes("f.rom", vec![0; 0x20000]).unwrap();
        assert_eq!(r.version(), None);
        assert!(r.note().unwrap().contains("generation"));
        let e = RomImage::load("no/such/file.rom").unwrap_err();
        assert!(e.to_string().contains("no/such/file.rom"));
    }

    /// TilEm takes 20000h – 2BFFFh bytes as a TI-82 image (spec §8.4): padded dumps load,
    /// their first 128 KiB being the ROM; the extra is reported. Synthetic images only.
    #[test]
    fn padded_images() {
        let mut b = vec![0x11; 0x20000];
        b[0x200..0x200 + 14].copy_from_slice(b"Self Test?19.0");
        let exact = RomImage::from_bytes("x.rom", b.clone()).unwrap();
        assert_eq!(exact.note(), None);
        for size in [0x20001, 0x20000 + 64, 0x24000, 0x2BFFF] {
            let mut p = b.clone();
            p.resize(size, 0xFF);
            let r = RomImage::from_bytes("p.rom", p).unwrap();
            assert_eq!(r.bytes(), exact.bytes());
            assert_eq!(r.extra_bytes(), size - 0x20000);
            assert_eq!(r.version(), Some("19.0"));
            assert!(r
                .note()
                .unwrap()
                .contains(&format!("{} bytes", size - 0x20000)));
        }
        // `CATALOG` in the padding is not the ROM's: only the first 128 KiB count (TilEm).
        let mut p = b.clone();
        p.resize(0x20100, 0);
        p[0x20010..0x20017].copy_from_slice(b"CATALOG");
        assert!(RomImage::from_bytes("q.rom", p).is_ok());
    }
}
