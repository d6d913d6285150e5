//! The home screen: the entry line and its keys, ENTER (evaluate, or run `prgmNAME`), the
//! PRGM EXEC menu and the error screen.

use super::*;

impl BasicFirmware {
    pub(super) fn show_entry(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        if self.st.scroll_pending {
            screen::scroll(ram);
            self.st.scroll_pending = false;
            screen::set_cursor(ram, screen::ROWS - 1, 0);
        }
        let (row, _) = screen::cursor(ram);
        let codes = crate::os::string_codes(&self.entry);
        let tail = &codes[codes.len().saturating_sub(screen::COLS)..];
        screen::clear_row(ram, row);
        screen::write_at(ram, row, 0, tail);
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    /// The home screen's cursor to the start of the next line; on the last line the scroll
    /// waits until something is written there.
    pub(super) fn next_home_line(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        let (row, _) = screen::cursor(ram);
        if row + 1 >= screen::ROWS {
            self.st.scroll_pending = true;
        } else {
            screen::set_cursor(ram, row + 1, 0);
        }
    }

    /// ENTER on the home screen: run `prgmNAME`, or evaluate the entry and show the answer.
    pub(super) fn enter(&mut self, hw: &mut Hardware) {
        if self.entry.is_empty() {
            self.entry = self.last_entry.clone();
            self.show_entry(hw);
        }
        let entry = std::mem::take(&mut self.entry);
        self.last_entry = entry.clone();
        // The entry line stays; output starts on the next line.
        self.next_home_line(hw);
        if entry.is_empty() {
            return;
        }
        let result = if entry[0] == PRGM && entry.len() > 1 {
            let mut os = Self::os(&mut self.st, hw);
            self.interp.start(&mut os, &entry[1..])
        } else {
            self.interp.start_bytes(b"", &entry);
            Ok(())
        };
        match result {
            Ok(()) => {
                self.shell = Shell::Running;
                self.indicator = 0;
            }
            Err(kind) => {
                self.show_error(ProgramError {
                    kind,
                    program: Vec::new(),
                    offset: 0,
                });
            }
        }
    }

    pub(super) fn show_error(&mut self, err: ProgramError) {
        self.last_error = Some(err.clone());
        self.shell = Shell::Error { err, sel: 0 };
        self.st.dirty = true;
    }

    /// A program ended: `Done` (or the answer of a typed entry) on the home screen.
    pub(super) fn finished(&mut self, hw: &mut Hardware, from_entry: bool) {
        self.shell = Shell::Home;
        let mut os = Self::os(&mut self.st, hw);
        let results_shown = std::mem::take(&mut os.st.results_shown);
        if from_entry && results_shown {
            // A typed statistics command: its results are the answer, already shown.
        } else if from_entry {
            if let Ok(v) = os.ans() {
                let shown = os.st.entry_shown;
                for (codes, right) in value_lines(&v, os.st.modes.format(), shown) {
                    os.home_line(&codes, right);
                }
            }
        } else {
            let codes = font::encode("Done").unwrap_or_else(|_| b"Done".to_vec());
            os.home_line(&codes, true);
        }
        os.st.shown = Shown::Home;
        os.st.dirty = true;
    }

    pub(super) fn key_home(&mut self, hw: &mut Hardware, k: Key) {
        let shift = std::mem::take(&mut self.shift);
        match (shift, k) {
            (_, Key::Enter) if shift != Shift::Second => self.enter(hw),
            (Shift::Second, Key::Enter) => {
                self.entry = self.last_entry.clone();
                self.show_entry(hw);
            }
            (_, Key::Clear) => {
                if self.entry.is_empty() {
                    screen::clear_home(hw.mem.ram_mut());
                    self.st.scroll_pending = false;
                }
                self.entry.clear();
                self.show_entry(hw);
            }
            (Shift::None, Key::Prgm) => {
                self.shell = Shell::ProgramMenu { sel: 0, tab: 0 };
                self.st.dirty = true;
            }
            (shift, k) if self.open_catalog(shift, k, CatalogFrom::Home) => {}
            (Shift::Second, Key::XTTheta) => {
                self.shell = Shell::Link(LinkScreen::new());
                self.st.dirty = true;
            }
            (Shift::Second, Key::Add) => {
                self.shell = Shell::Mem(MemScreen::new());
                self.st.dirty = true;
            }
            (Shift::None, Key::Mode) => {
                self.shell = Shell::Mode(ModeCursor::open(&self.st.modes));
                self.indicator = 0;
                self.st.dirty = true;
            }
            (Shift::Second, Key::Mode) => {
                self.entry.clear();
                self.show_entry(hw);
            }
            _ => {
                if self.edit_entry(shift, k, 200) {
                    self.show_entry(hw);
                }
            }
        }
    }

    /// The keys that edit an entry line alike on the home screen and in `Input`: 2nd and
    /// ALPHA set the modifier, DEL removes the last token, the rest type their token (up to
    /// `limit` bytes). Returns whether the line changed.
    pub(super) fn edit_entry(&mut self, shift: Shift, k: Key, limit: usize) -> bool {
        match (shift, k) {
            (Shift::None, Key::Second) => self.shift = Shift::Second,
            (Shift::None, Key::Alpha) => self.shift = Shift::Alpha,
            (_, Key::Del) => {
                pop_token(&mut self.entry);
                return true;
            }
            _ => {
                if let Some(t) = key_token(shift, k) {
                    if self.entry.len() < limit {
                        self.entry.extend_from_slice(t);
                    }
                    return true;
                }
            }
        }
        false
    }

    /// The PRGM menu: ◄ ► between EXEC, EDIT and NEW; in EXEC and EDIT the programs by
    /// name (1-9, 0, then ALPHA and a letter for `A:`...), in NEW `1:Create New`.
    pub(super) fn key_program_menu(&mut self, hw: &mut Hardware, k: Key, sel: usize, tab: u8) {
        let names = if tab == 1 {
            editable_program_names(hw.mem.ram())
        } else {
            program_names(hw.mem.ram())
        };
        let n = if tab == 2 { 1 } else { names.len() };
        let sel = sel.min(n.saturating_sub(1));
        let choose = |i: usize| (i < n).then_some(i);
        let shift = std::mem::take(&mut self.shift);
        let pick = match k {
            Key::Alpha if shift == Shift::None => {
                self.shift = Shift::Alpha;
                None
            }
            // ALPHA and a letter picks the item labelled with it (`A:` is the 11th).
            _ if shift == Shift::Alpha => key_token(Shift::Alpha, k)
                .and_then(|t| match t {
                    [c @ LETTER_A..=THETA] => Some(10 + usize::from(c - LETTER_A)),
                    _ => None,
                })
                .and_then(choose),
            Key::Left | Key::Right => {
                let tab = if k == Key::Left {
                    (tab + 2) % 3
                } else {
                    (tab + 1) % 3
                };
                self.shell = Shell::ProgramMenu { sel: 0, tab };
                None
            }
            Key::Up if n > 0 => {
                self.shell = Shell::ProgramMenu {
                    sel: (sel + n - 1) % n,
                    tab,
                };
                None
            }
            Key::Down if n > 0 => {
                self.shell = Shell::ProgramMenu {
                    sel: (sel + 1) % n,
                    tab,
                };
                None
            }
            Key::Enter => choose(sel),
            Key::Clear | Key::Mode => {
                self.shell = Shell::Home;
                None
            }
            _ => crate::shell::digit_item(k).and_then(choose),
        };
        match (tab, pick) {
            (_, None) => {}
            (0, Some(i)) => {
                self.shell = Shell::Home;
                self.entry.push(PRGM);
                self.entry.extend_from_slice(&names[i]);
                self.show_entry(hw);
            }
            (1, Some(i)) => self.edit_program(hw, &names[i], 0),
            (_, Some(_)) => {
                self.editor = Some(Editor::new_program());
                self.shell = Shell::Editor;
            }
        }
        self.st.dirty = true;
    }

    pub(super) fn key_error(&mut self, hw: &mut Hardware, k: Key, err: ProgramError, sel: usize) {
        let choice = match k {
            Key::K1 => Some(0),
            Key::K2 => Some(1),
            Key::Enter => Some(sel),
            Key::Up | Key::Down => {
                self.shell = Shell::Error {
                    err: err.clone(),
                    sel: 1 - sel,
                };
                None
            }
            Key::Clear | Key::Mode => Some(1),
            _ => None,
        };
        // 1:Goto opens the program editor at the failing statement (an entry typed on the
        // home screen has no program: it goes home as Quit does).
        if choice == Some(0) && !err.program.is_empty() {
            // (A protected program is edit-locked: Goto leaves it as Quit does.)
            let exists = editable_program_names(hw.mem.ram()).contains(&err.program);
            if exists {
                self.edit_program(hw, &err.program, err.offset as usize);
                self.st.dirty = true;
                return;
            }
        }
        if choice.is_some() {
            self.shell = Shell::Home;
            self.st.shown = Shown::Home;
            // The next entry goes on a clean line below the last one. When the screen is full
            // (a scroll is pending), the cursor still sits on the entry's own line: the scroll
            // makes the new line, and the entry stays visible.
            if !self.st.scroll_pending {
                let ram = hw.mem.ram_mut();
                let (row, _) = screen::cursor(ram);
                screen::clear_row(ram, row);
            }
        }
        self.st.dirty = true;
    }
}

pub(super) fn pop_token(entry: &mut Vec<u8>) {
    // Remove the last whole token (a two-byte token is removed whole).
    let mut i = 0;
    let mut last = 0;
    while i < entry.len() {
        last = i;
        i += if is_prefix(entry[i]) { 2 } else { 1 };
    }
    entry.truncate(last);
}

/// The token a key types on the home screen or in `Input`, with 2nd or ALPHA pending.
pub(super) fn key_token(shift: Shift, k: Key) -> Option<&'static [u8]> {
    use Key::*;
    Some(match shift {
        Shift::None => match k {
            K0 => b"0",
            K1 => b"1",
            K2 => b"2",
            K3 => b"3",
            K4 => b"4",
            K5 => b"5",
            K6 => b"6",
            K7 => b"7",
            K8 => b"8",
            K9 => b"9",
            Dot => &[DECIMAL_POINT],
            Neg => &[NEGATE],
            Add => &[PLUS],
            Sub => &[MINUS],
            Mul => &[TIMES],
            Div => &[DIVIDE],
            Pow => &[POWER],
            LParen => &[LPAREN],
            RParen => &[RPAREN],
            Comma => &[COMMA],
            Sto => &[STORE],
            Square => &[SQUARE],
            Inverse => &[INVERSE],
            Sin => &[SIN],
            Cos => &[0xC4],
            Tan => &[0xC6],
            Ln => &[LN],
            Log => &[LOG],
            XTTheta => b"X",
            _ => return None,
        },
        Shift::Second => match k {
            // ABS, above x⁻¹ (the TI-82's `abs` takes no parenthesis).
            Inverse => &[0xB2],
            Square => &[SQRT],
            Neg => &[ANS],
            Pow => &[PI],
            LParen => &[LBRACE],
            RParen => &[RBRACE],
            Mul => &[LBRACKET],
            Sub => &[RBRACKET],
            K1 => &[PREFIX_LIST, 0],
            K2 => &[PREFIX_LIST, 1],
            K3 => &[PREFIX_LIST, 2],
            K4 => &[PREFIX_LIST, 3],
            K5 => &[PREFIX_LIST, 4],
            K6 => &[PREFIX_LIST, 5],
            Sin => &[0xC3],
            Cos => &[0xC5],
            Tan => &[0xC7],
            Ln => &[EXP],
            Log => &[TEN_POW],
            Comma => &[EXP10],
            _ => return None,
        },
        Shift::Alpha => match k {
            Math => b"A",
            Matrx => b"B",
            Prgm => b"C",
            Inverse => b"D",
            Sin => b"E",
            Cos => b"F",
            Tan => b"G",
            Pow => b"H",
            Square => b"I",
            Comma => b"J",
            LParen => b"K",
            RParen => b"L",
            Div => b"M",
            Log => b"N",
            K7 => b"O",
            K8 => b"P",
            K9 => b"Q",
            Mul => b"R",
            Ln => b"S",
            K4 => b"T",
            K5 => b"U",
            K6 => b"V",
            Sub => b"W",
            Sto => b"X",
            K1 => b"Y",
            K2 => b"Z",
            K3 => &[THETA],
            K0 => &[SPACE],
            Add => &[QUOTE],
            Dot => &[COLON],
            Neg => &[0xAF],
            _ => return None,
        },
    })
}
