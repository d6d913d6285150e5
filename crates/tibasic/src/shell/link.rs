//! The LINK screens (2nd LINK): the SEND and RECEIVE menus, the list a SEND item selects
//! from, the transfer screen (transmitting or receiving, then `Done`), and the questions a
//! receiving calculator asks (a name already in use). This module is the screens' data,
//! drawing and keys; the firmware owns the transfer itself (`tilink::SendVars`,
//! `tilink::ReceiveVars`) and tells the screen what happened. Texts, items and what is
//! uncertain about them: `docs/calculator.md`, "LINK".

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;
use tifiles::var::{VarName, VarType};

use super::{codes, digit_char, draw_items, pick_item, program_name_char};
use crate::font;
use crate::os::string_codes;
use crate::screen::SCREEN_BYTES;

/// What one SEND item lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendKind {
    All,
    Prgm,
    List,
    Gdb,
    Pic,
    Matrix,
    Real,
    YVars,
    Window,
    /// The whole memory (spec 1.7.4), sent as one item.
    Backup,
}

/// The SEND menu, in order (the item's number is its place: 1-9, then 0).
pub const SEND_ITEMS: [(&str, SendKind); 10] = [
    ("All…", SendKind::All),
    ("Prgm…", SendKind::Prgm),
    ("List…", SendKind::List),
    ("GDB…", SendKind::Gdb),
    ("Pic…", SendKind::Pic),
    ("Matrix…", SendKind::Matrix),
    ("Real…", SendKind::Real),
    ("Y-Vars…", SendKind::YVars),
    ("Window…", SendKind::Window),
    ("Backup…", SendKind::Backup),
];

/// The RECEIVE menu.
pub const RECEIVE_ITEMS: [&str; 1] = ["Receive"];

/// The duplicate-name question's choices, in order.
pub const DUPLICATE_ITEMS: [&str; 4] = ["Rename", "Overwrite", "Omit", "Quit"];

/// The question when an arriving variable does not fit.
pub const MEMORY_FULL_ITEMS: [&str; 2] = ["Omit", "Quit"];

/// The question before a received backup replaces the whole memory.
pub const BACKUP_ITEMS: [&str; 2] = ["Continue", "Quit"];

impl SendKind {
    /// Whether a variable of type `ty` is listed under this item.
    pub fn lists(self, ty: VarType) -> bool {
        use VarType::*;
        match self {
            SendKind::All => !matches!(ty, Screen | Backup | Other(_)),
            SendKind::Prgm => matches!(ty, Program | ProtectedProgram),
            SendKind::List => ty == List,
            SendKind::Gdb => ty == Gdb,
            SendKind::Pic => ty == Picture,
            SendKind::Matrix => ty == Matrix,
            SendKind::Real => ty == Real,
            SendKind::YVars => ty == Equation,
            SendKind::Window => matches!(ty, Window | SavedWindow | TableSetup),
            SendKind::Backup => ty == Backup,
        }
    }
}

/// The type shown at the right of a variable's name on the LINK screens.
pub fn type_label(ty: VarType) -> &'static str {
    use VarType::*;
    match ty {
        Real => "REAL",
        List => "LIST",
        Matrix => "MATRX",
        Equation => "Y-VAR",
        Program | ProtectedProgram => "PRGM",
        Picture => "PIC",
        Gdb => "GDB",
        Window => "WINDW",
        SavedWindow => "ZSTO",
        TableSetup => "TABLE",
        Backup => "BACKUP",
        Screen | Other(_) => "",
    }
}

/// A variable on a LINK screen: its type and name, and whether it is selected to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub ty: VarType,
    pub name: VarName,
    pub chosen: bool,
}

/// Where a transfer screen stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Sending the listed variables.
    Transmitting,
    /// In RECEIVE, nothing arrived yet.
    Waiting,
    /// In RECEIVE, variables arriving.
    Receiving,
    /// Finished: `Done` under the list.
    Done,
}

/// A LINK screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkScreen {
    /// The SEND (or, `receive`, RECEIVE) menu with item `sel` highlighted.
    Menu { receive: bool, sel: usize },
    /// A SEND item's variables; `transmit`: the TRANSMIT menu is open.
    Select {
        kind: SendKind,
        entries: Vec<Entry>,
        sel: usize,
        transmit: bool,
    },
    /// Transmitting or receiving: the variables so far, one line each.
    Transfer { phase: Phase, lines: Vec<Entry> },
    /// RECEIVE: the arriving variable's name is in use (the lines so far stay behind it).
    Duplicate {
        ty: VarType,
        name: VarName,
        sel: usize,
        lines: Vec<Entry>,
    },
    /// RECEIVE: typing a new name for the arriving variable (`entry`, name tokens).
    Rename {
        ty: VarType,
        name: VarName,
        entry: Vec<u8>,
        alpha: bool,
        lines: Vec<Entry>,
    },
    /// RECEIVE: the arriving variable does not fit in the free memory.
    MemoryFull {
        ty: VarType,
        name: VarName,
        sel: usize,
        lines: Vec<Entry>,
    },
    /// RECEIVE: a backup arrives; continuing replaces the whole memory.
    BackupWarning { sel: usize },
    /// The transfer failed: `ERR:TRANSMISSION` (or another error), `1:Quit`.
    Failed { error: String },
}

/// What a key on a LINK screen asks the firmware to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkAction {
    /// Nothing beyond the screen's own change.
    None,
    /// Back to the home screen.
    Quit,
    /// List a SEND item's variables (the firmware reads the VAT).
    List(SendKind),
    /// Send these variables, in this order.
    Send(Vec<(VarType, VarName)>),
    /// Start waiting in RECEIVE.
    Receive,
    /// Answer the duplicate-name question: overwrite (CTS), omit (SKIP) or quit (EXIT).
    Overwrite,
    Omit,
    QuitTransfer,
    /// Receive the variable under this new name.
    Rename(VarName),
}

/// The largest number of lines a transfer screen keeps (only the last ones show).
const MAX_LINES: usize = 64;

impl LinkScreen {
    /// 2nd LINK: the SEND menu.
    pub fn new() -> LinkScreen {
        LinkScreen::Menu {
            receive: false,
            sel: 0,
        }
    }

    /// A SEND item's screen: its variables, none selected.
    pub fn select(kind: SendKind, vars: impl IntoIterator<Item = (VarType, VarName)>) -> Self {
        LinkScreen::Select {
            kind,
            entries: vars
                .into_iter()
                .filter(|(ty, _)| kind.lists(*ty))
                .map(|(ty, name)| Entry {
                    ty,
                    name,
                    chosen: false,
                })
                .collect(),
            sel: 0,
            transmit: false,
        }
    }

    /// True while the screen shows a transfer in progress (keys other than ON do nothing).
    pub fn busy(&self) -> bool {
        matches!(
            self,
            LinkScreen::Transfer {
                phase: Phase::Transmitting | Phase::Waiting | Phase::Receiving,
                ..
            }
        )
    }

    /// The lines of a transfer screen (or of the one a question stands in for).
    pub fn lines_mut(&mut self) -> Option<&mut Vec<Entry>> {
        match self {
            LinkScreen::Transfer { lines, .. }
            | LinkScreen::Duplicate { lines, .. }
            | LinkScreen::Rename { lines, .. }
            | LinkScreen::MemoryFull { lines, .. } => Some(lines),
            _ => None,
        }
    }

    /// Adds a variable's line to a transfer screen.
    pub fn push_line(&mut self, ty: VarType, name: VarName) {
        if let Some(lines) = self.lines_mut() {
            if lines.len() >= MAX_LINES {
                lines.remove(0);
            }
            lines.push(Entry {
                ty,
                name,
                chosen: false,
            });
        }
    }

    /// One key (`second`: 2nd was pressed before it). `type_alpha` gives the character an
    /// ALPHA-locked key types (for Rename).
    pub fn key(
        &mut self,
        k: Key,
        second: bool,
        type_alpha: impl Fn(Key) -> Option<u8>,
    ) -> LinkAction {
        // 2nd QUIT leaves every LINK screen that is not transferring.
        if second && k == Key::Mode && !self.busy() {
            return LinkAction::Quit;
        }
        match self {
            LinkScreen::Menu { receive, sel } => {
                let n = if *receive {
                    RECEIVE_ITEMS.len()
                } else {
                    SEND_ITEMS.len()
                };
                let pick = match k {
                    Key::Left | Key::Right => {
                        *receive = !*receive;
                        *sel = 0;
                        None
                    }
                    Key::Clear => return LinkAction::Quit,
                    _ => pick_item(k, sel, n),
                };
                match pick {
                    Some(_) if *receive => LinkAction::Receive,
                    Some(i) => LinkAction::List(SEND_ITEMS[i].1),
                    None => LinkAction::None,
                }
            }
            LinkScreen::Select {
                entries,
                sel,
                transmit,
                ..
            } => {
                let n = entries.len();
                match k {
                    Key::Left | Key::Right => *transmit = !*transmit,
                    Key::Clear => return LinkAction::Quit,
                    Key::Up if !*transmit && n > 0 => *sel = (*sel + n - 1) % n,
                    Key::Down if !*transmit && n > 0 => *sel = (*sel + 1) % n,
                    Key::Enter if !*transmit => {
                        if let Some(e) = entries.get_mut(*sel) {
                            e.chosen = !e.chosen;
                        }
                    }
                    Key::Enter | Key::K1 if *transmit => {
                        let chosen: Vec<_> = entries
                            .iter()
                            .filter(|e| e.chosen)
                            .map(|e| (e.ty, e.name))
                            .collect();
                        if !chosen.is_empty() {
                            return LinkAction::Send(chosen);
                        }
                    }
                    _ => {}
                }
                LinkAction::None
            }
            LinkScreen::Transfer { phase, .. } => match (phase, k) {
                (Phase::Done, Key::Clear | Key::Enter) => LinkAction::Quit,
                _ => LinkAction::None,
            },
            LinkScreen::MemoryFull { sel, .. } => {
                match pick_item(k, sel, MEMORY_FULL_ITEMS.len()) {
                    Some(0) => LinkAction::Omit,
                    Some(_) => LinkAction::QuitTransfer,
                    None => LinkAction::None,
                }
            }
            LinkScreen::BackupWarning { sel } => match pick_item(k, sel, BACKUP_ITEMS.len()) {
                Some(0) => LinkAction::Overwrite,
                Some(_) => LinkAction::QuitTransfer,
                None => LinkAction::None,
            },
            LinkScreen::Duplicate { sel, .. } => {
                match pick_item(k, sel, DUPLICATE_ITEMS.len()) {
                    // Only a program can take another name (the other types' names are
                    // fixed: L1-L6, [A]-[E], Pic1-6...).
                    Some(0) if !is_program(self) => LinkAction::None,
                    Some(0) => {
                        if let LinkScreen::Duplicate {
                            ty, name, lines, ..
                        } = self
                        {
                            *self = LinkScreen::Rename {
                                ty: *ty,
                                name: *name,
                                entry: Vec::new(),
                                alpha: true,
                                lines: std::mem::take(lines),
                            };
                        }
                        LinkAction::None
                    }
                    Some(1) => LinkAction::Overwrite,
                    Some(2) => LinkAction::Omit,
                    Some(3) => LinkAction::QuitTransfer,
                    _ => LinkAction::None,
                }
            }
            LinkScreen::Rename { entry, alpha, .. } => match k {
                Key::Enter => match program_name(entry) {
                    Some(n) => LinkAction::Rename(n),
                    None => LinkAction::None,
                },
                Key::Alpha => {
                    *alpha = !*alpha;
                    LinkAction::None
                }
                Key::Del => {
                    entry.pop();
                    LinkAction::None
                }
                Key::Clear => {
                    entry.clear();
                    LinkAction::None
                }
                _ => {
                    let c = if *alpha { type_alpha(k) } else { digit_char(k) };
                    // Program names: 8 characters, a letter or θ first (spec §3.9).
                    if let Some(c) = c {
                        if entry.len() < 8 && program_name_char(c, entry.is_empty()) {
                            entry.push(c);
                        }
                    }
                    LinkAction::None
                }
            },
            // 1:Quit goes back to the LINK menu.
            LinkScreen::Failed { .. } => match k {
                Key::K1 | Key::Enter => {
                    *self = LinkScreen::new();
                    LinkAction::None
                }
                Key::Clear => LinkAction::Quit,
                _ => LinkAction::None,
            },
        }
    }

    /// Draws the screen.
    pub fn draw(&self, img: &mut [u8; SCREEN_BYTES]) {
        match self {
            LinkScreen::Menu { receive, sel } => {
                font::draw_large_with(img, 0, 0, b"SEND", !*receive);
                font::draw_large_with(img, 0, 30, b"RECEIVE", *receive);
                let items: Vec<&str> = if *receive {
                    RECEIVE_ITEMS.to_vec()
                } else {
                    SEND_ITEMS.iter().map(|(t, _)| *t).collect()
                };
                draw_items(img, &items, *sel, 1);
            }
            LinkScreen::Select {
                entries,
                sel,
                transmit,
                ..
            } => {
                font::draw_large_with(img, 0, 0, b"SELECT", !*transmit);
                font::draw_large_with(img, 0, 42, b"TRANSMIT", *transmit);
                if *transmit {
                    draw_items(img, &["Transmit"], 0, 1);
                    return;
                }
                let top = sel.saturating_sub(6);
                for (i, e) in entries.iter().enumerate().skip(top).take(7) {
                    let row = (i - top + 1) * 8;
                    if i == *sel {
                        font::draw_large(img, row, 0, &codes("➤"));
                    }
                    if e.chosen {
                        font::draw_large(img, row, 6, &codes("▪"));
                    }
                    draw_entry(img, row, 12, e);
                }
            }
            LinkScreen::Transfer { phase, lines } => {
                let mut rows: Vec<Option<&Entry>> = lines.iter().map(Some).collect();
                if *phase == Phase::Done {
                    rows.push(None);
                }
                let head = match phase {
                    Phase::Waiting => Some("Waiting…"),
                    Phase::Receiving => Some("Receiving…"),
                    Phase::Transmitting => Some("Transmitting…"),
                    Phase::Done => None,
                };
                let room = if head.is_some() { 7 } else { 8 };
                let first = rows.len().saturating_sub(room);
                let mut row = 0;
                if let Some(h) = head {
                    font::draw_large(img, 0, 0, &codes(h));
                    row = 8;
                }
                for r in &rows[first..] {
                    match r {
                        Some(e) => draw_entry(img, row, 0, e),
                        None => {
                            font::draw_large(img, row, 0, &codes("Done"));
                        }
                    }
                    row += 8;
                }
            }
            LinkScreen::Duplicate { ty, name, sel, .. } => {
                font::draw_large_with(img, 0, 0, &codes("DuplicateName"), true);
                draw_items(img, &DUPLICATE_ITEMS, *sel, 1);
                let e = Entry {
                    ty: *ty,
                    name: *name,
                    chosen: false,
                };
                draw_entry(img, 7 * 8, 0, &e);
            }
            LinkScreen::Rename { entry, alpha, .. } => {
                font::draw_large_with(img, 0, 0, &codes("DuplicateName"), true);
                let mut line = codes("Name=");
                line.extend(string_codes(entry));
                let n = font::draw_large(img, 8, 0, &line);
                // The cursor: the ALPHA cursor while ALPHA-locked, else the full block.
                let cursor = if *alpha { "Ⓐ" } else { "█" };
                font::draw_large(img, 8, n, &codes(cursor));
            }
            LinkScreen::MemoryFull { ty, name, sel, .. } => {
                font::draw_large_with(img, 0, 0, &codes("Memory Full"), true);
                draw_items(img, &MEMORY_FULL_ITEMS, *sel, 1);
                let e = Entry {
                    ty: *ty,
                    name: *name,
                    chosen: false,
                };
                draw_entry(img, 7 * 8, 0, &e);
            }
            LinkScreen::BackupWarning { sel } => {
                font::draw_large_with(img, 0, 0, &codes("WARNING-Backup"), true);
                draw_items(img, &BACKUP_ITEMS, *sel, 1);
            }
            LinkScreen::Failed { error } => {
                font::draw_large(img, 0, 0, &codes(&format!("ERR:{error}")));
                draw_items(img, &["Quit"], 0, 1);
            }
        }
    }

    // ------------------------------------------------------------------ save states

    pub fn save(&self, w: &mut StateWriter) {
        match self {
            LinkScreen::Menu { receive, sel } => {
                w.u8(0);
                w.bool(*receive);
                w.u32(*sel as u32);
            }
            LinkScreen::Select {
                kind,
                entries,
                sel,
                transmit,
            } => {
                w.u8(1);
                w.u8(SEND_ITEMS.iter().position(|(_, k)| k == kind).unwrap_or(0) as u8);
                put_entries(w, entries);
                w.u32(*sel as u32);
                w.bool(*transmit);
            }
            LinkScreen::Transfer { phase, lines } => {
                w.u8(2);
                w.u8(match phase {
                    Phase::Transmitting => 0,
                    Phase::Waiting => 1,
                    Phase::Receiving => 2,
                    Phase::Done => 3,
                });
                put_entries(w, lines);
            }
            LinkScreen::Duplicate {
                ty,
                name,
                sel,
                lines,
            } => {
                w.u8(3);
                w.u8(ty.to_byte());
                w.bytes(&name.0);
                w.u32(*sel as u32);
                put_entries(w, lines);
            }
            LinkScreen::Rename {
                ty,
                name,
                entry,
                alpha,
                lines,
            } => {
                w.u8(4);
                w.u8(ty.to_byte());
                w.bytes(&name.0);
                w.bytes(entry);
                w.bool(*alpha);
                put_entries(w, lines);
            }
            LinkScreen::Failed { error } => {
                w.u8(5);
                w.bytes(error.as_bytes());
            }
            LinkScreen::MemoryFull {
                ty,
                name,
                sel,
                lines,
            } => {
                w.u8(6);
                w.u8(ty.to_byte());
                w.bytes(&name.0);
                w.u32(*sel as u32);
                put_entries(w, lines);
            }
            LinkScreen::BackupWarning { sel } => {
                w.u8(7);
                w.u32(*sel as u32);
            }
        }
    }

    /// Restores what [`Self::save`] wrote, checking every index against what it indexes.
    pub fn load(r: &mut StateReader) -> Result<LinkScreen, StateError> {
        let bad = |what| StateError::Corrupt(what);
        let s = match r.u8()? {
            0 => {
                let receive = r.bool()?;
                let sel = r.u32()? as usize;
                let n = if receive {
                    RECEIVE_ITEMS.len()
                } else {
                    SEND_ITEMS.len()
                };
                if sel >= n {
                    return Err(bad("LINK menu selection"));
                }
                LinkScreen::Menu { receive, sel }
            }
            1 => {
                let kind = SEND_ITEMS
                    .get(r.u8()? as usize)
                    .ok_or(bad("LINK SEND item"))?
                    .1;
                let entries = get_entries(r)?;
                let sel = r.u32()? as usize;
                if sel > 0 && sel >= entries.len() {
                    return Err(bad("LINK selection"));
                }
                LinkScreen::Select {
                    kind,
                    entries,
                    sel,
                    transmit: r.bool()?,
                }
            }
            2 => {
                let phase = match r.u8()? {
                    0 => Phase::Transmitting,
                    1 => Phase::Waiting,
                    2 => Phase::Receiving,
                    3 => Phase::Done,
                    _ => return Err(bad("LINK transfer phase")),
                };
                LinkScreen::Transfer {
                    phase,
                    lines: get_entries(r)?,
                }
            }
            3 => {
                let (ty, name) = get_name(r)?;
                let sel = r.u32()? as usize;
                if sel >= DUPLICATE_ITEMS.len() {
                    return Err(bad("DuplicateName selection"));
                }
                LinkScreen::Duplicate {
                    ty,
                    name,
                    sel,
                    lines: get_entries(r)?,
                }
            }
            4 => {
                let (ty, name) = get_name(r)?;
                let entry = r.bytes()?.to_vec();
                if entry.len() > 8 {
                    return Err(bad("Rename entry"));
                }
                LinkScreen::Rename {
                    ty,
                    name,
                    entry,
                    alpha: r.bool()?,
                    lines: get_entries(r)?,
                }
            }
            5 => {
                let e = r.bytes()?;
                if e.len() > 16 {
                    return Err(bad("LINK error"));
                }
                LinkScreen::Failed {
                    error: String::from_utf8_lossy(e).into_owned(),
                }
            }
            6 => {
                let (ty, name) = get_name(r)?;
                let sel = r.u32()? as usize;
                if sel >= MEMORY_FULL_ITEMS.len() {
                    return Err(bad("Memory Full selection"));
                }
                LinkScreen::MemoryFull {
                    ty,
                    name,
                    sel,
                    lines: get_entries(r)?,
                }
            }
            7 => {
                let sel = r.u32()? as usize;
                if sel >= BACKUP_ITEMS.len() {
                    return Err(bad("backup warning selection"));
                }
                LinkScreen::BackupWarning { sel }
            }
            _ => return Err(bad("LINK screen")),
        };
        Ok(s)
    }
}

impl Default for LinkScreen {
    fn default() -> Self {
        Self::new()
    }
}

fn is_program(s: &LinkScreen) -> bool {
    matches!(s, LinkScreen::Duplicate { ty, .. } if ty.is_program())
}

/// A valid program name from typed tokens (letters, digits, θ; a letter or θ first; 1-8).
fn program_name(entry: &[u8]) -> Option<VarName> {
    let ok = entry
        .iter()
        .enumerate()
        .all(|(i, &c)| program_name_char(c, i == 0));
    (ok && (1..=8).contains(&entry.len())).then(|| VarName::from_bytes(entry))
}

/// A variable's name from `col`, its type right-aligned on the line.
fn draw_entry(img: &mut [u8; SCREEN_BYTES], row: usize, col: usize, e: &Entry) {
    let name = codes(&e.name.display(e.ty));
    font::draw_large(img, row, col, &name[..name.len().min(9)]);
    let label = codes(type_label(e.ty));
    font::draw_large(img, row, 96 - 6 * label.len(), &label);
}

fn put_entries(w: &mut StateWriter, entries: &[Entry]) {
    w.u32(entries.len() as u32);
    for e in entries {
        w.u8(e.ty.to_byte());
        w.bytes(&e.name.0);
        w.bool(e.chosen);
    }
}

fn get_name(r: &mut StateReader) -> Result<(VarType, VarName), StateError> {
    let ty = VarType::from_byte(r.u8()?);
    let n = r.bytes()?;
    if n.len() != 8 {
        return Err(StateError::Corrupt("LINK variable name"));
    }
    Ok((ty, VarName::from_bytes(n)))
}

fn get_entries(r: &mut StateReader) -> Result<Vec<Entry>, StateError> {
    let n = r.u32()? as usize;
    // At most every variable the VAT can hold (each entry takes at least 9 bytes of 28 KB).
    if n > 4096 {
        return Err(StateError::Corrupt("LINK variable count"));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let (ty, name) = get_name(r)?;
        out.push(Entry {
            ty,
            name,
            chosen: r.bool()?,
        });
    }
    Ok(out)
}
