//! `.82?` files (spec 4): single variables, groups and backups, plus transparent
//! UUE decoding.

use crate::uue;
use crate::var::{VarData, VarError, VarName, VarType, Variable};
use std::path::Path;

/// The file signature.
pub const SIGNATURE: &[u8; 8] = b"**TI82**";
/// The three bytes after the signature.
pub const SIGNATURE_TAIL: [u8; 3] = [0x1A, 0x0A, 0x00];
/// Length of the comment field.
pub const COMMENT_LEN: usize = 42;
/// Offset of the data section (after signature, tail, comment, length word).
pub const DATA_OFFSET: usize = 55;
/// Address at which backup section 2 belongs (spec 1.5, 4.2).
pub const BACKUP_SECTION2_ADDR: u16 = 0x8D24;

/// What is wrong with a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    #[error("not a TI-82 file (signature {0:?})")]
    Signature(String),
    #[error("this is a {0} file, not a TI-82 file")]
    WrongModel(&'static str),
    #[error("file ends early: needs {needed} bytes, has {have}")]
    Truncated { needed: usize, have: usize },
    #[error("bad checksum: file says {stored:#06x}, data sums to {computed:#06x}")]
    Checksum { stored: u16, computed: u16 },
    #[error("bad length: {0}")]
    Length(String),
    #[error("{0}")]
    Var(#[from] VarError),
    #[error("{0}")]
    Uue(#[from] uue::UueError),
    #[error("empty file (no variables)")]
    Empty,
    #[error("cannot read: {0}")]
    Io(String),
    #[error("cannot write: {0}")]
    Write(String),
}

/// A file error naming the file, the offset and the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: offset {offset} ({offset:#x}){uue}: {problem}", uue = if *.decoded_uue { " after UUE decoding" } else { "" })]
pub struct FileError {
    pub file: String,
    pub offset: usize,
    /// True when the offset is into the UUE-decoded bytes.
    pub decoded_uue: bool,
    pub problem: FileProblem,
}

/// Options for reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Accept a file whose checksum is wrong (nothing else is relaxed).
    pub ignore_checksum: bool,
}

/// A system backup (spec 1.5, 4.2, 7.6): three RAM sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// `0x8528`–`0x8D23`: OS flags, settings, system pointers.
    pub section1: Vec<u8>,
    /// From `address` (user memory) up to `tempMem`: variable data.
    pub section2: Vec<u8>,
    /// The VAT, lowest address first, ending at `0xFE6E`.
    pub section3: Vec<u8>,
    /// Where section 2 belongs (`0x8D24` in every known sample).
    pub address: u16,
}

impl Backup {
    /// The 9-byte backup header (spec 1.5).
    pub fn header(&self) -> [u8; 9] {
        let mut h = [0u8; 9];
        h[0..2].copy_from_slice(&(self.section1.len() as u16).to_le_bytes());
        h[2] = 0x0F;
        h[3..5].copy_from_slice(&(self.section2.len() as u16).to_le_bytes());
        h[5..7].copy_from_slice(&(self.section3.len() as u16).to_le_bytes());
        h[7..9].copy_from_slice(&self.address.to_le_bytes());
        h
    }
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// One variable (`.82n`, `.82p`, …) or several (`.82g`).
    Vars(Vec<Variable>),
    Backup(Backup),
}

/// A TI-82 file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiFile {
    /// The 42 comment bytes, as stored.
    pub comment: [u8; COMMENT_LEN],
    pub content: Content,
}

/// Sum of bytes, low 16 bits (spec 4.1).
pub fn checksum(bytes: &[u8]) -> u16 {
    bytes
        .iter()
        .fold(0u16, |s, &b| s.wrapping_add(u16::from(b)))
}

fn comment_bytes(text: &str) -> [u8; COMMENT_LEN] {
    let mut c = [0u8; COMMENT_LEN];
    for (d, s) in c
        .iter_mut()
        .zip(text.bytes().filter(|b| b.is_ascii() && *b != 0))
    {
        *d = s;
    }
    c
}

impl TiFile {
    /// A file holding these variables (one: a plain file; several: a group).
    pub fn new(comment: &str, vars: Vec<Variable>) -> TiFile {
        TiFile {
            comment: comment_bytes(comment),
            content: Content::Vars(vars),
        }
    }

    /// A backup file.
    pub fn backup(comment: &str, backup: Backup) -> TiFile {
        TiFile {
            comment: comment_bytes(comment),
            content: Content::Backup(backup),
        }
    }

    /// Comment text (up to the first NUL, trailing spaces trimmed, non-ASCII as `?`).
    pub fn comment_text(&self) -> String {
        let end = self
            .comment
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(COMMENT_LEN);
        self.comment[..end]
            .iter()
            .map(|&b| {
                if (0x20..0x7F).contains(&b) {
                    b as char
                } else {
                    '?'
                }
            })
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    /// Set the comment (ASCII; longer text is cut at 42 bytes; NUL-padded).
    pub fn set_comment(&mut self, text: &str) {
        self.comment = comment_bytes(text);
    }

    /// The variables (empty for a backup).
    pub fn vars(&self) -> &[Variable] {
        match &self.content {
            Content::Vars(v) => v,
            Content::Backup(_) => &[],
        }
    }

    /// The extension that fits the contents (`82p`, `82g` for a group, `82b`).
    pub fn extension(&self) -> &'static str {
        match &self.content {
            Content::Backup(_) => "82b",
            Content::Vars(v) if v.len() == 1 => v[0].var_type().extension().unwrap_or("82g"),
            Content::Vars(_) => "82g",
        }
    }

    /// The file's bytes. Fails only if a value does not fit the format's 16-bit
    /// length fields.
    pub fn to_bytes(&self) -> Result<Vec<u8>, FileProblem> {
        let mut data = Vec::new();
        match &self.content {
            Content::Vars(vars) => {
                if vars.is_empty() {
                    return Err(FileProblem::Empty);
                }
                for v in vars {
                    v.data.check()?;
                    let d = v.data.to_bytes();
                    let len = d.len() as u16;
                    data.extend_from_slice(&0x0Bu16.to_le_bytes());
                    data.extend_from_slice(&len.to_le_bytes());
                    data.push(v.var_type().to_byte());
                    data.extend_from_slice(&v.name.0);
                    data.extend_from_slice(&len.to_le_bytes());
                    data.extend_from_slice(&d);
                }
            }
            Content::Backup(b) => {
                for s in [&b.section1, &b.section2, &b.section3] {
                    if s.len() > 0xFFFF {
                        return Err(FileProblem::Length(format!(
                            "backup section of {} bytes",
                            s.len()
                        )));
                    }
                }
                data.extend_from_slice(&9u16.to_le_bytes());
                data.extend_from_slice(&b.header());
                for s in [&b.section1, &b.section2, &b.section3] {
                    data.extend_from_slice(&(s.len() as u16).to_le_bytes());
                    data.extend_from_slice(s);
                }
            }
        }
        if data.len() > 0xFFFF {
            return Err(FileProblem::Length(format!(
                "data section of {} bytes",
                data.len()
            )));
        }
        let mut out = Vec::with_capacity(data.len() + 57);
        out.extend_from_slice(SIGNATURE);
        out.extend_from_slice(&SIGNATURE_TAIL);
        out.extend_from_slice(&self.comment);
        out.extend_from_slice(&(data.len() as u16).to_le_bytes());
        out.extend_from_slice(&data);
        out.extend_from_slice(&checksum(&data).to_le_bytes());
        Ok(out)
    }

    /// Write to a path.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        let err = |problem| FileError {
            file: path.display().to_string(),
            offset: 0,
            decoded_uue: false,
            problem,
        };
        let bytes = self.to_bytes().map_err(err)?;
        std::fs::write(path, bytes).map_err(|e| err(FileProblem::Write(e.to_string())))
    }

    /// Read a file from disk (UUE decoded transparently).
    pub fn read(path: &Path, opts: ReadOptions) -> Result<TiFile, FileError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| FileError {
            file: name.clone(),
            offset: 0,
            decoded_uue: false,
            problem: FileProblem::Io(e.to_string()),
        })?;
        TiFile::parse(&name, &bytes, opts)
    }

    /// Parse bytes; `file` names the source in errors. UUE input (`begin 644 …`)
    /// is decoded first.
    pub fn parse(file: &str, bytes: &[u8], opts: ReadOptions) -> Result<TiFile, FileError> {
        if !bytes.starts_with(SIGNATURE) {
            if let Some(at) = uue::find_begin(bytes) {
                let decoded = uue::decode(&bytes[at..]).map_err(|e| FileError {
                    file: file.to_string(),
                    offset: at,
                    decoded_uue: false,
                    problem: e.into(),
                })?;
                return parse_plain(&decoded.data, opts).map_err(|(offset, problem)| FileError {
                    file: file.to_string(),
                    offset,
                    decoded_uue: true,
                    problem,
                });
            }
        }
        parse_plain(bytes, opts).map_err(|(offset, problem)| FileError {
            file: file.to_string(),
            offset,
            decoded_uue: false,
            problem,
        })
    }

    /// Parse bytes with default options and a generic file name.
    pub fn from_bytes(bytes: &[u8]) -> Result<TiFile, FileError> {
        TiFile::parse("<memory>", bytes, ReadOptions::default())
    }
}

type PResult<T> = Result<T, (usize, FileProblem)>;

fn u16_at(b: &[u8], at: usize) -> PResult<u16> {
    match b.get(at..at + 2) {
        Some(s) => Ok(u16::from_le_bytes([s[0], s[1]])),
        None => Err((
            at.min(b.len()),
            FileProblem::Truncated {
                needed: at + 2,
                have: b.len(),
            },
        )),
    }
}

fn slice_at(b: &[u8], at: usize, len: usize) -> PResult<&[u8]> {
    b.get(at..at + len).ok_or((
        at.min(b.len()),
        FileProblem::Truncated {
            needed: at + len,
            have: b.len(),
        },
    ))
}

fn parse_plain(b: &[u8], opts: ReadOptions) -> PResult<TiFile> {
    let sig = b.get(..8).unwrap_or(b);
    if sig != SIGNATURE {
        let model = match sig {
            b"**TI83**" => Some("TI-83"),
            b"**TI83F*" => Some("TI-83 Plus/TI-84 Plus"),
            b"**TI85**" => Some("TI-85"),
            b"**TI86**" => Some("TI-86"),
            b"**TI73**" => Some("TI-73"),
            b"**TI92**" => Some("TI-92"),
            b"**TI89**" => Some("TI-89"),
            _ => None,
        };
        return Err((
            0,
            match model {
                Some(m) => FileProblem::WrongModel(m),
                None if b.len() < 8 && SIGNATURE.starts_with(b) => FileProblem::Truncated {
                    needed: DATA_OFFSET + 2,
                    have: b.len(),
                },
                None => FileProblem::Signature(String::from_utf8_lossy(sig).into_owned()),
            },
        ));
    }
    let tail = slice_at(b, 8, 3)?;
    if tail != SIGNATURE_TAIL {
        return Err((
            8,
            FileProblem::Signature(format!(
                "bytes after **TI82** are {tail:02X?}, not 1A 0A 00"
            )),
        ));
    }
    let mut comment = [0u8; COMMENT_LEN];
    comment.copy_from_slice(slice_at(b, 11, COMMENT_LEN)?);
    let n = usize::from(u16_at(b, 53)?);
    let expect = DATA_OFFSET + n + 2;
    if b.len() < expect {
        return Err((
            53,
            FileProblem::Truncated {
                needed: expect,
                have: b.len(),
            },
        ));
    }
    if b.len() > expect {
        return Err((
            expect,
            FileProblem::Length(format!(
                "data section length {n} says the file has {expect} bytes, it has {} ({} extra)",
                b.len(),
                b.len() - expect
            )),
        ));
    }
    let data = &b[DATA_OFFSET..DATA_OFFSET + n];
    let stored = u16_at(b, DATA_OFFSET + n)?;
    let computed = checksum(data);
    if stored != computed && !opts.ignore_checksum {
        return Err((DATA_OFFSET + n, FileProblem::Checksum { stored, computed }));
    }
    // A backup has header length 9 and type 0x0F at data offset 4 (spec 4.2).
    if n >= 11 && data[0] == 9 && data[1] == 0 && data[4] == 0x0F {
        return parse_backup(data, comment);
    }
    let mut vars = Vec::new();
    let mut pos = 0;
    while pos < n {
        let at = DATA_OFFSET + pos;
        if n - pos < 15 {
            return Err((
                at,
                FileProblem::Length(format!(
                    "{} bytes left in the data section, an entry needs 15 or more",
                    n - pos
                )),
            ));
        }
        let e = &data[pos..];
        // The header-length field is not trusted (spec 4.1): entries are 15 + k.
        let len1 = usize::from(u16::from_le_bytes([e[2], e[3]]));
        let ty = VarType::from_byte(e[4]);
        let name = VarName::from_bytes(&e[5..13]);
        let len2 = usize::from(u16::from_le_bytes([e[13], e[14]]));
        if len1 != len2 {
            return Err((
                at + 13,
                FileProblem::Length(format!(
                    "entry data length {len1} and repeated length {len2} differ"
                )),
            ));
        }
        if ty == VarType::Backup {
            return Err((
                at + 4,
                FileProblem::Length("backup type in a variable entry".into()),
            ));
        }
        if 15 + len1 > n - pos {
            return Err((
                at + 2,
                FileProblem::Length(format!(
                    "entry data length {len1} runs past the data section ({} bytes left)",
                    n - pos - 15
                )),
            ));
        }
        let d = &e[15..15 + len1];
        let value = VarData::parse(ty, d).map_err(|err| (at + 15, err.into()))?;
        vars.push(Variable { name, data: value });
        pos += 15 + len1;
    }
    if vars.is_empty() {
        return Err((DATA_OFFSET, FileProblem::Empty));
    }
    Ok(TiFile {
        comment,
        content: Content::Vars(vars),
    })
}

fn parse_backup(data: &[u8], comment: [u8; COMMENT_LEN]) -> PResult<TiFile> {
    let at = |o: usize| DATA_OFFSET + o;
    let h = |o: usize| usize::from(u16::from_le_bytes([data[o], data[o + 1]]));
    let (l1, l2, l3) = (h(2), h(5), h(7));
    let address = u16::from_le_bytes([data[9], data[10]]);
    let total = 11 + 6 + l1 + l2 + l3;
    if total != data.len() {
        return Err((
            at(2),
            FileProblem::Length(format!(
                "backup sections {l1}+{l2}+{l3} (+17) = {total} bytes, the data section has {}",
                data.len()
            )),
        ));
    }
    let mut pos = 11;
    let mut sections = Vec::new();
    for (i, want) in [l1, l2, l3].into_iter().enumerate() {
        let got = h(pos);
        if got != want {
            return Err((
                at(pos),
                FileProblem::Length(format!(
                    "section {} length {got}, the header says {want}",
                    i + 1
                )),
            ));
        }
        sections.push(data[pos + 2..pos + 2 + want].to_vec());
        pos += 2 + want;
    }
    let section3 = sections.pop().unwrap_or_default();
    let section2 = sections.pop().unwrap_or_default();
    let section1 = sections.pop().unwrap_or_default();
    Ok(TiFile {
        comment,
        content: Content::Backup(Backup {
            section1,
            section2,
            section3,
            address,
        }),
    })
}
