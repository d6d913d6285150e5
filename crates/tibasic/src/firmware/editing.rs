//! The program editor's effects: opening a program (PRGM EDIT, PRGM NEW, ERR `1:Goto`), its
//! keys (typing through the same key table as the home screen, the menus that type tokens,
//! PRGM's CTL and I/O), and keeping the program in the VAT on 2nd QUIT (the screen itself:
//! `crate::shell::editor`).

use super::*;

impl BasicFirmware {
    /// Opens program `name` in the editor, the cursor at byte `offset` of its tokens.
    pub(super) fn edit_program(&mut self, hw: &mut Hardware, name: &[u8], offset: usize) {
        let tokens = program_tokens(hw.mem.ram(), name).unwrap_or_default();
        self.editor = Some(Editor::open(name, &tokens, offset));
        self.shell = Shell::Editor;
        self.st.dirty = true;
    }

    pub(super) fn key_editor(&mut self, hw: &mut Hardware, k: Key) {
        let Some(mut e) = self.editor.take() else {
            self.shell = Shell::Home;
            return;
        };
        self.st.dirty = true;
        // A new program's name is typed ALPHA-locked: letters, and digits after ALPHA.
        if e.naming {
            let shift = std::mem::take(&mut self.shift);
            let typed = match (shift, k) {
                (Shift::None, Key::Alpha | Key::Second) => {
                    self.shift = if k == Key::Alpha {
                        Shift::Alpha
                    } else {
                        Shift::Second
                    };
                    self.editor = Some(e);
                    return;
                }
                (Shift::Alpha, _) => key_token(Shift::None, k),
                (Shift::None, _) => key_token(Shift::Alpha, k),
                _ => None,
            };
            match typed {
                Some(t) if !matches!(k, Key::Enter | Key::Del | Key::Clear) => e.type_token(t),
                _ => match e.key(k, shift == Shift::Second) {
                    EditorAction::Named => {
                        let name = e.name.clone();
                        // A protected program's name: it is edit-locked (spec §3.1), so
                        // nothing opens, as its error's Goto leaves it [I].
                        let n = VarName::from_bytes(&name);
                        let protected = vat::find(hw.mem.ram(), VarType::ProtectedProgram, &n);
                        if matches!(protected, Ok(Some(_))) {
                            self.shell = Shell::Home;
                            self.st.shown = Shown::Home;
                            return;
                        }
                        if program_tokens(hw.mem.ram(), &name).is_none() {
                            // A new, empty program in the VAT from the start.
                            if let Some(v) = program_var(&String::from_utf8_lossy(&name), vec![]) {
                                if vat::store(hw.mem.ram_mut(), &v).is_err() {
                                    self.editor = None;
                                    self.show_error(ProgramError {
                                        kind: ErrorKind::Memory,
                                        program: Vec::new(),
                                        offset: 0,
                                    });
                                    return;
                                }
                                self.st.vat_hints.clear();
                            }
                        }
                        self.edit_program(hw, &name, 0);
                        return;
                    }
                    EditorAction::Cancel => {
                        self.shell = Shell::Home;
                        self.st.shown = Shown::Home;
                        return;
                    }
                    _ => {}
                },
            }
            self.editor = Some(e);
            return;
        }
        // (2nd A-LOCK as on the entry line: `take_shift`.)
        let Some(shift) = self.take_shift(k) else {
            self.editor = Some(e);
            return;
        };
        match (shift, k) {
            (Shift::None, Key::Second) => self.shift = Shift::Second,
            (Shift::None, Key::Alpha) => self.shift = Shift::Alpha,
            (Shift::Second, Key::Alpha) => self.shift = Shift::AlphaLock,
            (Shift::Alpha, Key::Alpha) => {}
            (Shift::None, Key::Prgm) => {
                if let Some(cur) = CatalogCursor::open_named("PRGM") {
                    self.shell = Shell::Catalog {
                        cur,
                        from: CatalogFrom::Editor,
                    };
                }
            }
            (shift, k) if self.open_catalog(shift, k, CatalogFrom::Editor) => {}
            (Shift::None, Key::XTTheta) => e.type_token(home::xt_token(self.st.modes.graph)),
            (shift, k)
                if !matches!(k, Key::Enter | Key::Del | Key::Clear)
                    && key_token(shift, k).is_some() =>
            {
                if let Some(t) = key_token(shift, k) {
                    e.type_token(t);
                }
            }
            (shift, k) => {
                if e.key(k, shift == Shift::Second) == EditorAction::Quit {
                    self.save_edited(hw, &e);
                    return;
                }
            }
        }
        self.editor = Some(e);
    }

    /// 2nd QUIT from the editor: the program goes into the VAT and the home screen shows.
    fn save_edited(&mut self, hw: &mut Hardware, e: &Editor) {
        self.editor = None;
        self.shell = Shell::Home;
        self.st.shown = Shown::Home;
        let name = String::from_utf8_lossy(&e.name).into_owned();
        let stored = program_var(&name, e.tokens())
            .map(|v| vat::store(hw.mem.ram_mut(), &v).is_ok())
            .unwrap_or(false);
        self.st.vat_hints.clear();
        if !stored {
            self.show_error(ProgramError {
                kind: ErrorKind::Memory,
                program: Vec::new(),
                offset: 0,
            });
        }
    }
}

/// The tokens of program `name` (protected or not), if it exists.
fn program_tokens(ram: &[u8], name: &[u8]) -> Option<Vec<u8>> {
    let n = VarName::from_bytes(name);
    [VarType::Program, VarType::ProtectedProgram]
        .iter()
        .find_map(|ty| vat::read(ram, *ty, &n).ok().flatten())
        .and_then(|v| match v.data {
            VarData::Program(t) | VarData::ProtectedProgram(t) => Some(t),
            _ => None,
        })
}
