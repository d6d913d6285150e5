//! The MODE and MEMORY screens' effects on the calculator (the screens: `crate::shell`).

use super::*;

impl BasicFirmware {
    /// The 2nd prefix on a screen whose keys know only 2nd (LINK, MEM, MODE, the token
    /// menus): `None` when `k` is 2nd itself (now pending), else whether 2nd was pending.
    pub(super) fn after_second(&mut self, k: Key) -> Option<bool> {
        let shift = std::mem::take(&mut self.shift);
        if k == Key::Second && shift == Shift::None {
            self.shift = Shift::Second;
            return None;
        }
        Some(shift == Shift::Second)
    }

    /// The menu a key opens from a line being edited, if any (its `Catalog::name`).
    pub(super) fn catalog_key(shift: Shift, k: Key) -> Option<&'static str> {
        Some(match (shift, k) {
            (Shift::None, Key::Math) => "MATH",
            (Shift::Second, Key::Math) => "TEST",
            (Shift::Second, Key::Matrx) => "ANGLE",
            (Shift::None, Key::Matrx) => "MATRX",
            (Shift::None, Key::Stat) => "STAT",
            (Shift::None, Key::Zoom) => "ZOOM",
            (Shift::Second, Key::Stat) => "LIST",
            (Shift::Second, Key::Prgm) => "DRAW",
            (Shift::None, Key::Vars) => "VARS",
            (Shift::Second, Key::Vars) => "Y-VARS",
            (Shift::Second, Key::YEquals) => "STAT PLOT",
            _ => return None,
        })
    }

    /// Whether `shift`+`k` opens a menu that types into a screen's line: the token menus
    /// (not STAT, ZOOM or STAT PLOT, which have their own screens there).
    pub(super) fn typing_menu(shift: Shift, k: Key) -> bool {
        Self::catalog_key(shift, k).is_some_and(|m| !matches!(m, "STAT" | "ZOOM" | "STAT PLOT"))
    }

    /// Opens the menu `shift`+`k` opens over `screen`'s typed line, the screen parked until
    /// the menu closes (a chosen token is typed into its line).
    pub(super) fn open_menu_over(&mut self, shift: Shift, k: Key, screen: Shell) {
        if self.open_catalog(shift, k, CatalogFrom::Screen) {
            self.parked = Some(Box::new(screen));
        } else {
            self.shell = screen;
        }
    }

    /// A menu's token typed into the line it was opened over. VARS › Statistics › EQ ›
    /// RegEQ pastes the last regression's equation itself (so that Y₁ keeps it after the
    /// next regression, as a TI-82 user's Y= RegEQ does; while there is none, the token).
    fn type_chosen(&mut self, from: CatalogFrom, token: &[u8]) {
        let reg_eq;
        let token = if token == [crate::token::PREFIX_STAT, 0x01] && !self.st.reg_eq.is_empty() {
            reg_eq = self.st.reg_eq.clone();
            &reg_eq[..]
        } else {
            token
        };
        match from {
            CatalogFrom::Editor => {
                if let Some(e) = &mut self.editor {
                    e.type_token(token);
                }
            }
            CatalogFrom::Matrix => {
                if let Some(m) = &mut self.matrix {
                    m.type_value(token);
                }
            }
            CatalogFrom::Screen => {
                if let Some(s) = self.parked.as_deref_mut() {
                    type_into_screen(s, token);
                }
            }
            CatalogFrom::Home | CatalogFrom::Input => {
                let limit = if from == CatalogFrom::Input {
                    INPUT_ENTRY_MAX
                } else {
                    HOME_ENTRY_MAX
                };
                self.entry.type_token(token, limit);
            }
        }
    }

    /// Opens the menu `shift`+`k` opens over the line typed from `from`; false when the key
    /// opens none.
    pub(super) fn open_catalog(&mut self, shift: Shift, k: Key, from: CatalogFrom) -> bool {
        let Some(cur) = Self::catalog_key(shift, k).and_then(CatalogCursor::open_named) else {
            return false;
        };
        self.shell = Shell::Catalog { cur, from };
        self.st.dirty = true;
        true
    }

    pub(super) fn key_catalog(
        &mut self,
        hw: &mut Hardware,
        k: Key,
        mut cur: CatalogCursor,
        from: CatalogFrom,
    ) {
        // ALPHA and a letter pick the items past `0:` (`A:`, `B:`…).
        if self.shift == Shift::None && k == Key::Alpha {
            self.shift = Shift::Alpha;
            return;
        }
        let letter = if self.shift == Shift::Alpha {
            self.shift = Shift::None;
            key_token(Shift::Alpha, k).and_then(|t| match t {
                [c] if c.is_ascii_uppercase() => Some(*c),
                _ => None,
            })
        } else {
            None
        };
        let action = match letter {
            Some(l) => cur.pick_letter(l, hw.mem.ram()),
            None => {
                let Some(second) = self.after_second(k) else {
                    return;
                };
                let shift = if second { Shift::Second } else { Shift::None };
                let over_screen = matches!(from, CatalogFrom::Home | CatalogFrom::Screen);
                // (2nd CALC, which has no screen yet, leaves the menu open.)
                let calc = second && k == Key::Trace;
                if over_screen && graphing::opens_graphing_screen(shift, k) && !calc {
                    // A graphing key leaves the menu for its screen, as from the screen
                    // under the menu (which stores what was typed there first).
                    self.shell = match from {
                        CatalogFrom::Screen => self.parked.take().map_or(Shell::Home, |s| *s),
                        _ => Shell::Home,
                    };
                    self.shift = shift;
                    return self.dispatch_key(hw, k);
                }
                cur.key(k, second, hw.mem.ram())
            }
        };
        // The ZOOM menu acts the same over the home screen and over a graphing screen.
        let zoom = crate::shell::catalog::CATALOGS[cur.menu].name == "ZOOM";
        let acts = from == CatalogFrom::Home || (zoom && from == CatalogFrom::Screen);
        if zoom && from == CatalogFrom::Screen {
            if let CatalogAction::Type(_) | CatalogAction::Open(_) = action {
                self.parked = None;
                self.shell = Shell::Home;
            }
        }
        self.shell = Shell::Catalog { cur, from };
        self.st.dirty = true;
        let back = |fw: &mut Self, hw: &mut Hardware| match from {
            CatalogFrom::Input => {
                fw.shell = Shell::Running;
                fw.show_input(hw);
            }
            CatalogFrom::Home => {
                fw.shell = Shell::Home;
                fw.show_entry(hw);
            }
            CatalogFrom::Editor => fw.shell = Shell::Editor,
            CatalogFrom::Screen => {
                fw.shell = fw.parked.take().map_or(Shell::Home, |s| *s);
            }
            CatalogFrom::Matrix => match fw.matrix.take() {
                Some(m) => fw.shell = Shell::Matrix(m),
                None => {
                    fw.shell = Shell::Home;
                    fw.show_entry(hw);
                }
            },
        };
        match action {
            CatalogAction::None => {}
            // A zoom that needs the graph cursor, chosen on the home screen: run as if typed.
            CatalogAction::Type(
                &[tok @ (crate::token::ZBOX
                | crate::token::ZOOM_IN
                | crate::token::ZOOM_OUT
                | crate::token::ZINTEGER)],
            ) if acts => {
                self.entry = crate::shell::entry::EntryLine::with(&[tok]);
                self.enter(hw);
            }
            // A zoom chosen on the home screen is done at once.
            CatalogAction::Type(&[tok]) if acts && zoom => {
                let r = {
                    let mut os = Self::os(&mut self.st, hw);
                    os.zoom_from_menu(tok)
                };
                match r {
                    Ok(()) => self.shell = Shell::Graph(None),
                    Err(kind) => self.screen_error(kind),
                }
            }
            CatalogAction::Type(token) => {
                self.type_chosen(from, token);
                back(self, hw);
            }
            CatalogAction::Program(i) => {
                if let Some(name) = program_names(hw.mem.ram()).get(i) {
                    let mut tokens = vec![crate::token::PRGM];
                    tokens.extend_from_slice(name);
                    self.type_chosen(from, &tokens);
                }
                back(self, hw);
            }
            // Only the home screen opens a screen from a menu (STAT's `Edit…`); elsewhere the
            // item does nothing [I].
            CatalogAction::Open(screen) if acts => {
                if screen == crate::shell::catalog::LIST_EDITOR {
                    self.open_list_editor();
                } else if screen == crate::shell::catalog::ZOOM_FACTORS {
                    self.open_zoom_factors(hw);
                } else if screen == crate::shell::catalog::STAT_SETUP {
                    self.shell = Shell::StatSetup(Default::default());
                    self.st.dirty = true;
                } else {
                    // A screen not built yet says so rather than doing nothing.
                    self.screen_error(ErrorKind::Unsupported(screen.to_string()));
                }
            }
            CatalogAction::Open(_) => {}
            CatalogAction::Close => back(self, hw),
            // MATRX ► EDIT opens the matrix editor from the home screen; from a program's
            // `Input`, the program editor or the matrix editor it only closes the menu [I].
            CatalogAction::EditMatrix(m) if from == CatalogFrom::Home => self.edit_matrix(hw, m),
            CatalogAction::EditMatrix(_) => back(self, hw),
            // 2nd QUIT from a program's `Input` or an editor only closes the menu.
            CatalogAction::Quit if from != CatalogFrom::Home => back(self, hw),
            CatalogAction::Quit => {
                self.entry.clear();
                back(self, hw);
            }
        }
    }

    pub(super) fn key_mode(&mut self, hw: &mut Hardware, k: Key, mut cursor: ModeCursor) {
        if let Some(second) = self.after_second(k) {
            if self.other_graphing_screen(hw, second, k, (false, Key::Mode)) {
                return;
            }
            let before = self.st.modes.clone();
            let action = cursor.key(k, second, &mut self.st.modes);
            if self.st.modes != before {
                // A graphing mode, Dot/Simul or Split changes the graph (Split its rows: ΔY).
                let mut os = Self::os(&mut self.st, hw);
                os.st.graph_dirty = true;
                let _ = os.update_deltas();
            }
            self.shell = Shell::Mode(cursor);
            self.indicator = 0;
            if action == ModeAction::Quit {
                self.shell = Shell::Home;
                self.st.shown = Shown::Home;
            }
        }
        self.st.dirty = true;
    }

    pub(super) fn key_mem(&mut self, hw: &mut Hardware, k: Key, mut screen: MemScreen) {
        if let Some(second) = self.after_second(k) {
            let action = screen.key(k, second, hw.mem.ram());
            self.shell = Shell::Mem(screen);
            match action {
                MemAction::None => {}
                MemAction::Quit => {
                    self.shell = Shell::Home;
                    self.st.shown = Shown::Home;
                }
                MemAction::Delete(ty, name) => {
                    // (A name the VAT no longer has is nothing to delete.)
                    let _ = vat::delete(hw.mem.ram_mut(), ty, &name);
                    self.st.vat_hints.clear();
                }
                MemAction::Reset => self.reset_memory(hw),
            }
        }
        self.st.dirty = true;
    }

    /// MEM › Reset › 2:Reset: memory as after a cold start (an empty VAT, default settings,
    /// the random seeds), then the home screen with `Mem cleared` (the TI-82's message).
    pub(super) fn reset_memory(&mut self, hw: &mut Hardware) {
        self.stop_holder(hw);
        let scanner = std::mem::take(&mut self.scanner);
        let (pushed, lcd_ready, next_scan) = (self.pushed.clone(), self.lcd_ready, self.next_scan);
        *self = BasicFirmware::new();
        self.scanner = scanner;
        self.pushed = pushed;
        self.lcd_ready = lcd_ready;
        self.next_scan = next_scan;
        self.link_wake = hw.now;
        // Reset is a key press: the automatic power-down counts from it.
        self.last_activity = hw.now;
        self.init_ram(hw);
        // The contrast setting is back to its default: the LCD follows.
        Self::send_contrast(hw);
        let mut os = Self::os(&mut self.st, hw);
        let codes = font::encode("Mem cleared").unwrap_or_default();
        os.home_line(&codes, false);
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }
}

/// A token chosen from a menu typed into a parked screen's line (as its own typing keys
/// would type it).
fn type_into_screen(screen: &mut Shell, token: &[u8]) {
    match screen {
        Shell::YEditor(ed) => {
            ed.on_equals = false;
            ed.line
                .type_token(token, crate::shell::graphing::EXPRESSION_MAX);
        }
        Shell::Window(w) => {
            w.entry
                .get_or_insert_with(Default::default)
                .type_token(token, 100);
        }
        Shell::TblSet(t) if t.line < 2 => {
            t.entry
                .get_or_insert_with(Default::default)
                .type_token(token, 100);
        }
        Shell::Table(t) if t.col == 0 => {
            let limit = crate::shell::table::X_ENTRY_MAX;
            t.entry
                .get_or_insert_with(Default::default)
                .type_token(token, limit);
        }
        Shell::StatEdit(ed) => ed.type_token(token),
        _ => {}
    }
}
