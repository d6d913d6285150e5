//! The MEMORY screens (2nd MEM): the menu, Check RAM (free bytes from the VAT's pointers and
//! the bytes each type takes), Delete (a type's variables with their sizes; ENTER deletes the
//! one under the cursor), and Reset with its confirmation. Texts and what is uncertain about
//! them: `docs/calculator.md`, "MEM".

use ti82_machine::state::{StateError, StateReader, StateWriter};
use ti82_machine::Key;
use tifiles::var::{VarName, VarType};
use tifiles::vat;

use super::{codes, draw_items, pick_item};
use crate::font;
use crate::screen::SCREEN_BYTES;

/// The MEMORY menu.
pub const MEM_ITEMS: [&str; 3] = ["Check RAM…", "Delete…", "Reset…"];

/// The Delete menu: a title and which types each item lists.
pub const DELETE_ITEMS: [(&str, &[VarType]); 8] = [
    ("All…", &[]),
    ("Real…", &[VarType::Real]),
    ("List…", &[VarType::List]),
    ("Matrix…", &[VarType::Matrix]),
    ("Y-Vars…", &[VarType::Equation]),
    ("Prgm…", &[VarType::Program, VarType::ProtectedProgram]),
    ("Pic…", &[VarType::Picture]),
    ("GDB…", &[VarType::Gdb]),
];

/// Check RAM's lines: a label and the types it adds up.
const CHECK_LINES: [(&str, &[VarType]); 7] = [
    ("Real", &[VarType::Real]),
    ("List", &[VarType::List]),
    ("Matrix", &[VarType::Matrix]),
    ("Y-Vars", &[VarType::Equation]),
    ("Prgm", &[VarType::Program, VarType::ProtectedProgram]),
    ("Pic", &[VarType::Picture]),
    ("GDB", &[VarType::Gdb]),
];

/// The Reset confirmation's choices.
pub const RESET_ITEMS: [&str; 2] = ["No", "Reset"];

/// A MEMORY screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemScreen {
    Menu {
        sel: usize,
    },
    CheckRam,
    DeleteMenu {
        sel: usize,
    },
    /// Delete item `item`'s variables, the cursor on the `sel`th.
    DeleteList {
        item: usize,
        sel: usize,
    },
    Reset {
        sel: usize,
    },
}

/// What a key on a MEMORY screen asks the firmware to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemAction {
    None,
    /// Back to the home screen.
    Quit,
    /// Delete this variable.
    Delete(VarType, VarName),
    /// Clear the whole memory.
    Reset,
}

/// A variable with the bytes it takes: its data and its VAT entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Used {
    pub ty: VarType,
    pub name: VarName,
    pub bytes: usize,
}

/// Every variable of `types` (every user variable when empty) with its size, in VAT order.
pub fn variables(ram: &[u8], types: &[VarType]) -> Vec<Used> {
    vat::entries(ram)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !e.is_internal())
        .filter(|e| types.is_empty() || types.contains(&e.var_type()))
        .map(|e| Used {
            ty: e.var_type(),
            name: e.name,
            bytes: vat::data_size(ram, &e).unwrap_or(0) + usize::from(e.entry_len),
        })
        .collect()
}

/// The free bytes: between the top of the floating-point stack and the operator stack (the
/// VAT's pointers, spec 7.2).
pub fn free_bytes(ram: &[u8]) -> usize {
    vat::Pointers::read(ram).map_or(0, |p| p.free())
}

impl MemScreen {
    /// 2nd MEM.
    pub fn new() -> MemScreen {
        MemScreen::Menu { sel: 0 }
    }

    /// One key (`second`: after 2nd); `ram` for the lists.
    pub fn key(&mut self, k: Key, second: bool, ram: &[u8]) -> MemAction {
        if second && k == Key::Mode {
            return MemAction::Quit;
        }
        // 2nd MEM goes back to the MEMORY menu from any of its screens.
        if second && k == Key::Add {
            *self = MemScreen::new();
            return MemAction::None;
        }
        match self {
            MemScreen::Menu { sel } => match pick_item(k, sel, MEM_ITEMS.len()) {
                Some(0) => *self = MemScreen::CheckRam,
                Some(1) => *self = MemScreen::DeleteMenu { sel: 0 },
                Some(_) => *self = MemScreen::Reset { sel: 0 },
                None if k == Key::Clear => return MemAction::Quit,
                None => {}
            },
            MemScreen::CheckRam => {
                if matches!(k, Key::Clear | Key::Enter) {
                    return MemAction::Quit;
                }
            }
            MemScreen::DeleteMenu { sel } => match pick_item(k, sel, DELETE_ITEMS.len()) {
                Some(item) => *self = MemScreen::DeleteList { item, sel: 0 },
                None if k == Key::Clear => return MemAction::Quit,
                None => {}
            },
            MemScreen::DeleteList { item, sel } => {
                let vars = variables(ram, DELETE_ITEMS[*item].1);
                let n = vars.len();
                *sel = (*sel).min(n.saturating_sub(1));
                match k {
                    Key::Up if n > 0 => *sel = (*sel + n - 1) % n,
                    Key::Down if n > 0 => *sel = (*sel + 1) % n,
                    Key::Enter => {
                        if let Some(v) = vars.get(*sel) {
                            // The cursor stays on the line, now the next variable's.
                            if *sel + 1 == n {
                                *sel = sel.saturating_sub(1);
                            }
                            return MemAction::Delete(v.ty, v.name);
                        }
                    }
                    Key::Clear => return MemAction::Quit,
                    _ => {}
                }
            }
            MemScreen::Reset { sel } => match pick_item(k, sel, RESET_ITEMS.len()) {
                Some(1) => return MemAction::Reset,
                Some(_) => *self = MemScreen::new(),
                None if k == Key::Clear => return MemAction::Quit,
                None => {}
            },
        }
        MemAction::None
    }

    pub fn draw(&self, ram: &[u8], img: &mut [u8; SCREEN_BYTES]) {
        match self {
            MemScreen::Menu { sel } => {
                font::draw_large_with(img, 0, 0, &codes("MEMORY"), true);
                draw_items(img, &MEM_ITEMS, *sel, 1);
            }
            MemScreen::CheckRam => {
                draw_figure(img, 0, "MEM FREE", free_bytes(ram));
                let all = variables(ram, &[]);
                for (i, (label, types)) in CHECK_LINES.iter().enumerate() {
                    let used = all
                        .iter()
                        .filter(|v| types.contains(&v.ty))
                        .map(|v| v.bytes)
                        .sum();
                    draw_figure(img, i + 1, label, used);
                }
            }
            MemScreen::DeleteMenu { sel } => {
                font::draw_large_with(img, 0, 0, &codes("DELETE FROM…"), true);
                let items: Vec<&str> = DELETE_ITEMS.iter().map(|(t, _)| *t).collect();
                draw_items(img, &items, *sel, 1);
            }
            MemScreen::DeleteList { item, sel } => {
                let vars = variables(ram, DELETE_ITEMS[*item].1);
                let top = sel.saturating_sub(7);
                for (i, v) in vars.iter().enumerate().skip(top).take(8) {
                    let row = i - top;
                    if i == *sel {
                        font::draw_large(img, row * 8, 0, &codes("➤"));
                    }
                    let name = codes(&v.name.display(v.ty));
                    font::draw_large(img, row * 8, 6, &name[..name.len().min(9)]);
                    let size = codes(&v.bytes.to_string());
                    font::draw_large(img, row * 8, 96 - 6 * size.len(), &size);
                }
            }
            MemScreen::Reset { sel } => {
                font::draw_large_with(img, 0, 0, &codes("RESET MEMORY"), true);
                draw_items(img, &RESET_ITEMS, *sel, 1);
                for (i, line) in ["Resetting memory", "erases all data", "and programs."]
                    .iter()
                    .enumerate()
                {
                    font::draw_large(img, (4 + i) * 8, 0, &codes(line));
                }
            }
        }
    }

    pub fn save(&self, w: &mut StateWriter) {
        let (tag, a, b) = match *self {
            MemScreen::Menu { sel } => (0, sel, 0),
            MemScreen::CheckRam => (1, 0, 0),
            MemScreen::DeleteMenu { sel } => (2, sel, 0),
            MemScreen::DeleteList { item, sel } => (3, item, sel),
            MemScreen::Reset { sel } => (4, sel, 0),
        };
        w.u8(tag);
        w.u32(a as u32);
        w.u32(b as u32);
    }

    /// Restores what [`Self::save`] wrote, every index checked.
    pub fn load(r: &mut StateReader) -> Result<MemScreen, StateError> {
        let (tag, a, b) = (r.u8()?, r.u32()? as usize, r.u32()? as usize);
        let s = match tag {
            0 if a < MEM_ITEMS.len() => MemScreen::Menu { sel: a },
            1 => MemScreen::CheckRam,
            2 if a < DELETE_ITEMS.len() => MemScreen::DeleteMenu { sel: a },
            // (The list's length is the VAT's: the cursor is clamped when a key comes.)
            3 if a < DELETE_ITEMS.len() && b <= 4096 => MemScreen::DeleteList { item: a, sel: b },
            4 if a < RESET_ITEMS.len() => MemScreen::Reset { sel: a },
            _ => return Err(StateError::Corrupt("MEMORY screen")),
        };
        Ok(s)
    }
}

impl Default for MemScreen {
    fn default() -> Self {
        Self::new()
    }
}

/// `label` on the left of text line `row`, `n` right-aligned.
fn draw_figure(img: &mut [u8; SCREEN_BYTES], row: usize, label: &str, n: usize) {
    font::draw_large(img, row * 8, 0, &codes(label));
    let digits = codes(&n.to_string());
    font::draw_large(img, row * 8, 96 - 6 * digits.len(), &digits);
}
