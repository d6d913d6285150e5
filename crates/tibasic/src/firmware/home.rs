//! The home screen: the entry line and its keys, ENTER (evaluate, or run `prgmNAME`), the
//! PRGM EXEC menu and the error screen.

use super::*;

impl BasicFirmware {
    /// Shows the home screen's entry line (after the scroll a full screen was waiting for).
    pub(super) fn show_entry(&mut self, hw: &mut Hardware) {
        self.ready_for_entry(hw);
        self.draw_entry_line(hw);
    }

    /// A full screen's pending scroll, done now that a new line is wanted: the entry line
    /// (and its cursor) goes on the blank bottom row.
    pub(super) fn ready_for_entry(&mut self, hw: &mut Hardware) {
        if self.st.scroll_pending {
            let ram = hw.mem.ram_mut();
            screen::scroll(ram);
            self.st.scroll_pending = false;
            screen::set_cursor(ram, screen::ROWS - 1, 0);
            self.st.dirty = true;
        }
    }

    /// Writes the entry line into the text shadow from the home cursor (which marks where the
    /// line starts while it is typed), wrapped at 16 columns. A line that needs more rows than
    /// are left below scrolls the screen up, as the TI-82 does; one longer than the screen
    /// shows the rows that hold the cursor. Everything after the line is blank: the line is
    /// the last thing on the home screen.
    pub(super) fn draw_entry_line(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        let (mut row, col) = screen::cursor(ram);
        let codes = self.entry.codes();
        let cur = self.entry.cursor_cells();
        let below = screen::ROWS - row;
        let rows = rows_needed(col, codes.len(), cur);
        if rows > below {
            let n = (rows - below).min(row);
            for _ in 0..n {
                screen::scroll(ram);
            }
            row -= n;
            screen::set_cursor(ram, row, col);
        }
        for c in col..screen::COLS {
            screen::put(ram, row, c, b' ');
        }
        for r in row + 1..screen::ROWS {
            screen::clear_row(ram, r);
        }
        let hidden = layout(row, col, cur).hidden * screen::COLS;
        let first = row * screen::COLS + col;
        for (i, &c) in codes.iter().enumerate() {
            let Some(p) = (first + i).checked_sub(hidden) else {
                continue;
            };
            if p >= screen::ROWS * screen::COLS {
                break;
            }
            screen::put(ram, p / screen::COLS, p % screen::COLS, c);
        }
        self.st.shown = Shown::Home;
        self.st.dirty = true;
    }

    /// The home cursor to the start of the entry line's last row (before ENTER moves on).
    pub(super) fn cursor_to_entry_end(&mut self, hw: &mut Hardware) {
        let ram = hw.mem.ram_mut();
        let (row, col) = screen::cursor(ram);
        let last = self.entry.codes().len().max(1) - 1;
        let (end_row, _) = layout(row, col, last).cursor;
        screen::set_cursor(ram, end_row, 0);
    }

    /// Whether the entry line's cursor is on the glass: the home screen, or a program's
    /// `Input`/`Prompt` waiting for its answer.
    /// Whether a blinking cursor is on the glass: the entry line's, or the program editor's.
    pub(super) fn cursor_blinks(&self) -> bool {
        let editing =
            self.shell == Shell::Editor && self.editor.as_ref().is_some_and(|e| !e.naming);
        self.entry_cursor_shown() || editing
    }

    pub(super) fn entry_cursor_shown(&self) -> bool {
        match self.shell {
            Shell::Home => self.st.shown == Shown::Home && !self.st.scroll_pending,
            Shell::Running => matches!(self.interp.status_ref(), Status::Waiting(Wait::Input(_))),
            _ => false,
        }
    }

    /// The cursor glyph for the modifier and mode (spec §8.4; the shapes: the Guidebook's
    /// cursor table): a solid block, the 2nd arrow, the ALPHA `A`, each underlined while
    /// inserting; a checkerboard when the line can take no more.
    pub(super) fn entry_cursor_glyph(&self, limit: usize) -> u8 {
        cursor_glyph(
            self.shift,
            self.entry.insert,
            self.entry.tokens.len() >= limit,
        )
    }

    /// Draws the entry cursor on `img` in the first half of its blink.
    pub(super) fn draw_entry_cursor(&self, ram: &[u8], img: &mut [u8; SCREEN_BYTES]) {
        if !self.entry_cursor_shown() || self.blink >= BLINK_PERIOD / 2 {
            return;
        }
        let limit = if self.shell == Shell::Home {
            HOME_ENTRY_MAX
        } else {
            INPUT_ENTRY_MAX
        };
        let (row, col) = screen::cursor(ram);
        let (r, c) = layout(row, col, self.entry.cursor_cells()).cursor;
        font::draw_large(img, r * 8, c * 6, &[self.entry_cursor_glyph(limit)]);
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
    /// The entry goes into the ENTRY storage; ENTER on an empty line runs the last entry
    /// again.
    pub(super) fn enter(&mut self, hw: &mut Hardware) {
        if self.entry.is_empty() {
            if let Some(last) = self.history.last() {
                self.entry = EntryLine::with(last);
                self.show_entry(hw);
            }
        }
        self.cursor_to_entry_end(hw);
        let entry = std::mem::take(&mut self.entry).tokens;
        if !entry.is_empty() {
            self.history.push(&entry);
        }
        // The entry line stays; output starts on the next line.
        self.next_home_line(hw);
        if entry.is_empty() {
            self.ready_for_entry(hw);
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
        self.debug_error(&err);
        self.last_error = Some(err.clone());
        self.shell = Shell::Error { err, sel: 0 };
        self.st.dirty = true;
    }

    /// A program ended: `Done` (or the answer of a typed entry) on the home screen.
    pub(super) fn finished(&mut self, hw: &mut Hardware, from_entry: bool) {
        // A typed entry that left the graph on the glass (a zoom, Trace, DispGraph, a
        // drawing command) ends on the graph screen, as the calculator's do; a key there goes
        // home.
        if from_entry && self.st.shown == Shown::Graph {
            self.st.results_shown = false;
            self.st.results_view = None;
            self.shell = Shell::Graph(None);
            self.st.dirty = true;
            return;
        }
        self.shell = Shell::Home;
        let mut os = Self::os(&mut self.st, hw);
        let results_shown = std::mem::take(&mut os.st.results_shown);
        if !(from_entry && results_shown) {
            // Only a typed statistics command leaves its results to scroll.
            os.st.results_view = None;
        }
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
        // The cursor waits on a blank line below.
        self.ready_for_entry(hw);
    }

    pub(super) fn key_home(&mut self, hw: &mut Hardware, k: Key) {
        let Some(shift) = self.take_shift(k) else {
            return;
        };
        // ▲ ▼ scroll a statistics command's results while nothing is typed; any other key
        // leaves them on the screen as they are [I].
        if let Some(mut view) = self.st.results_view.take() {
            let arrow = matches!(k, Key::Up | Key::Down);
            if shift == Shift::None && arrow && self.entry.is_empty() {
                if view.scroll(k == Key::Down) {
                    Self::os(&mut self.st, hw).show_results(&view);
                    self.show_entry(hw);
                }
                self.st.results_view = Some(view);
                return;
            }
        }
        match (shift, k) {
            // 2nd ENTRY: the last entry in place of the line; again, the one before it.
            (Shift::Second, Key::Enter) => {
                if let Some(t) = self.history.recall() {
                    self.entry = EntryLine::with(&t);
                }
                self.show_entry(hw);
            }
            (_, Key::Enter) => self.enter(hw),
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
            (shift, k) if graphing::opens_graphing_screen(shift, k) => {
                self.graphing_key(hw, shift == Shift::Second, k);
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
            (Shift::Second, Key::Mode) => {
                self.entry.clear();
                self.show_entry(hw);
            }
            _ => {
                if self.edit_entry(shift, k, HOME_ENTRY_MAX) {
                    self.show_entry(hw);
                }
            }
        }
    }

    /// The modifier for key `k` on an entry line, the pending one taken. With A-LOCK on, a key
    /// that has a letter types it and the lock stays, as it does for the keys that move along
    /// or edit the line (◄ ► ▲ ▼ DEL CLEAR); ALPHA ends it (None: the key is used up), 2nd
    /// ends it and is 2nd, any other key ends it and acts unshifted [I].
    pub(super) fn take_shift(&mut self, k: Key) -> Option<Shift> {
        let shift = std::mem::take(&mut self.shift);
        if shift != Shift::AlphaLock {
            return Some(shift);
        }
        if k == Key::Alpha {
            self.st.dirty = true;
            return None;
        }
        if key_token(Shift::Alpha, k).is_some() {
            self.shift = Shift::AlphaLock;
            return Some(Shift::Alpha);
        }
        let stays = matches!(
            k,
            Key::Left | Key::Right | Key::Up | Key::Down | Key::Del | Key::Clear
        );
        if stays {
            self.shift = Shift::AlphaLock;
        }
        Some(Shift::None)
    }

    /// The keys that edit an entry line alike on the home screen and in `Input` (see
    /// [`edit_line`]). Returns whether the line or its cursor changed.
    pub(super) fn edit_entry(&mut self, shift: Shift, k: Key, limit: usize) -> bool {
        let changed = edit_line(
            &mut self.shift,
            &mut self.entry,
            shift,
            k,
            limit,
            self.st.modes.graph,
        );
        if changed {
            self.st.dirty = true;
        }
        changed
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
                let mut t = vec![PRGM];
                t.extend_from_slice(&names[i]);
                self.entry.type_token(&t, HOME_ENTRY_MAX);
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
            if self.st.scroll_pending {
                self.ready_for_entry(hw);
            } else {
                let ram = hw.mem.ram_mut();
                let (row, _) = screen::cursor(ram);
                screen::clear_row(ram, row);
            }
        }
        self.st.dirty = true;
    }
}

/// The keys that edit an entry line (the home screen's, `Input`'s, a matrix element's value):
/// 2nd, ALPHA and 2nd A-LOCK set the modifier (`pending`); ◄ ► move a token, ▲ ▼ a screen row,
/// 2nd ◄ ► to the line's ends; DEL deletes the token under the cursor; 2nd INS inserts before
/// it until the cursor moves (or 2nd INS again); the rest type their token at the cursor (up
/// to `limit` bytes). `shift` is the modifier the key comes with. Returns whether the line, its
/// cursor or the modifier changed.
pub(super) fn edit_line(
    pending: &mut Shift,
    e: &mut EntryLine,
    shift: Shift,
    k: Key,
    limit: usize,
    graph_mode: u8,
) -> bool {
    match (shift, k) {
        (Shift::None, Key::XTTheta) => {
            e.type_token(xt_token(graph_mode), limit);
        }
        (Shift::None, Key::Second) => *pending = Shift::Second,
        (Shift::None, Key::Alpha) => *pending = Shift::Alpha,
        (Shift::Second, Key::Alpha) => *pending = Shift::AlphaLock,
        // ALPHA again cancels a pending ALPHA.
        (Shift::Alpha, Key::Alpha) => {}
        (Shift::Second, Key::Del) => e.insert = !e.insert,
        (_, Key::Del) => e.delete(),
        (Shift::Second, Key::Left) => e.to_start(),
        (Shift::Second, Key::Right) => e.to_end(),
        (_, Key::Left) => e.left(),
        (_, Key::Right) => e.right(),
        (_, Key::Up) => e.row(true),
        (_, Key::Down) => e.row(false),
        _ => match key_token(shift, k) {
            Some(t) => {
                e.type_token(t, limit);
            }
            None => return false,
        },
    }
    true
}

/// The cursor glyph for a modifier, insert mode and a full line (spec §8.4).
pub(super) fn cursor_glyph(shift: Shift, insert: bool, full: bool) -> u8 {
    if full {
        return CURSOR_FULL;
    }
    match (shift, insert) {
        (Shift::Second, false) => CURSOR_SECOND,
        (Shift::Second, true) => CURSOR_SECOND_INSERT,
        (Shift::Alpha | Shift::AlphaLock, false) => CURSOR_ALPHA,
        (Shift::Alpha | Shift::AlphaLock, true) => CURSOR_ALPHA_INSERT,
        (Shift::None, false) => CURSOR_BLOCK,
        (Shift::None, true) => CURSOR_INSERT,
    }
}

/// What X,T,θ types in graphing mode `mode` (MODE's fourth line): X in Func, T in Par, θ in
/// Pol, 𝑛 in Seq (the TI-82 Guidebook's keyboard chapter).
pub(super) fn xt_token(mode: u8) -> &'static [u8] {
    match mode {
        1 => b"T",
        2 => &[0x5B],
        3 => &[0x62, 0x21],
        _ => b"X",
    }
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
        Shift::Alpha | Shift::AlphaLock => match k {
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
