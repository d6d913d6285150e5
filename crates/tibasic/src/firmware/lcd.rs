//! The screen: what the glass should show (the shell's screens, the home screen, the graph,
//! the run indicator) and pushing what changed to the T6A04 through ports 10h/11h (spec §5.9).

use super::*;

impl BasicFirmware {
    /// The T6A04 set-up the OS sends: 8-bit words, X (row) auto-increment, Z = 0, display
    /// on, then the contrast of the user's setting (spec §5.9 [U]: the exact sequence is not
    /// known).
    pub(super) fn init_lcd(&mut self, hw: &mut Hardware) {
        for cmd in [0x01u8, 0x05, 0x40, 0x03] {
            hw.write_port(0x10, cmd, hw.now);
            hw.now += LCD_GAP;
        }
        // The contrast the user's setting in RAM asks for (F6h after a reset).
        Self::send_contrast(hw);
        self.pushed.fill(0xFF);
        self.lcd_ready = true;
        self.st.dirty = true;
    }

    /// The image the glass should show now.
    pub(super) fn image(&self, hw: &Hardware) -> [u8; SCREEN_BYTES] {
        let ram = hw.mem.ram();
        let mut img = [0u8; SCREEN_BYTES];
        match &self.shell {
            Shell::ProgramMenu { sel, tab } => self.draw_program_menu(ram, *sel, *tab, &mut img),
            Shell::Error { err, sel } => draw_error(err, *sel, &mut img),
            Shell::Link(screen) => screen.draw(&mut img),
            Shell::Mem(screen) => screen.draw(ram, &mut img),
            Shell::Catalog { cur, .. } => cur.draw(ram, &mut img),
            Shell::Matrix(m) => {
                let stored = matrices::stored_matrix(ram, m.name);
                let glyph = m.value.as_ref().map_or(CURSOR_BLOCK, |v| {
                    let full = v.tokens.len() >= crate::shell::matrix::VALUE_MAX;
                    home::cursor_glyph(self.shift, v.insert, full)
                });
                m.draw(stored.as_ref(), self.st.modes.format(), glyph, &mut img);
            }
            Shell::Editor => {
                if let Some(e) = &self.editor {
                    let shown = self.blink < BLINK_PERIOD / 2;
                    let glyph = home::cursor_glyph(self.shift, e.insert, false);
                    e.draw(shown.then_some(glyph), &mut img);
                }
            }
            Shell::YEditor(ed) => {
                let lines = self.editor_lines(hw);
                let glyph = home::cursor_glyph(self.shift, ed.line.insert, false);
                ed.draw(&lines, Some(glyph), &mut img);
            }
            Shell::StatSetup(c) => c.draw(&self.st.stat_setup, &mut img),
            Shell::GraphModeTrace(t) => {
                img.copy_from_slice(screen::plot(ram));
                t.draw(self.st.modes.format(), &mut img);
            }
            Shell::GraphFree(c) => {
                img.copy_from_slice(screen::plot(ram));
                c.draw(self.st.modes.format(), &mut img);
            }
            Shell::TblSet(t) => {
                let glyph = home::cursor_glyph(self.shift, false, false);
                t.draw(self.st.modes.format(), Some(glyph), &mut img);
            }
            Shell::Window(w) => {
                let glyph = home::cursor_glyph(self.shift, false, false);
                w.draw(self.st.modes.format(), Some(glyph), &mut img);
            }
            Shell::Table(t) => {
                let glyph = home::cursor_glyph(self.shift, false, false);
                t.draw(
                    self.st.modes.format(),
                    self.st.modes.depend_ask,
                    Some(glyph),
                    &mut img,
                )
            }
            Shell::Graph(t) => {
                img.copy_from_slice(screen::plot(ram));
                if let Some(t) = t {
                    crate::shell::format::draw_trace(
                        t,
                        &self.st.modes,
                        screen::plot(ram),
                        &mut img,
                    );
                }
            }
            Shell::StatEdit(ed) => {
                let lists = Self::editor_lists(hw);
                ed.draw(&lists, self.st.modes.format(), &mut img);
            }
            Shell::StatPlot(s) => s.draw(&self.st.plots, self.indicator < 50, &mut img),
            Shell::Format(cursor) => cursor.draw(&self.st.modes, self.indicator < 50, &mut img),
            Shell::Mode(cursor) => {
                // The cursor blinks at about 2 Hz (the key scan runs at 100 Hz).
                let blink = self.indicator < 50;
                cursor.draw(&self.st.modes, blink, &mut img);
            }
            _ => {
                if let Status::Waiting(Wait::Menu { title, items, .. }) = self.interp.status() {
                    draw_menu(&title, &items, self.menu_sel, &mut img);
                } else if let Status::Waiting(Wait::Table(t)) = self.interp.status() {
                    let depend_ask = self.st.modes.depend_ask;
                    crate::shell::table::draw(&t, self.st.modes.format(), depend_ask, &mut img);
                } else if let Status::Waiting(Wait::GraphCursor(c)) = self.interp.status() {
                    img.copy_from_slice(screen::plot(ram));
                    crate::shell::graphing::draw_cursor(&mut img, c.row, c.col, c.corner);
                } else {
                    match self.st.shown {
                        Shown::Home => {
                            screen::render_home(ram, &mut img);
                            self.draw_entry_cursor(ram, &mut img);
                        }
                        Shown::Graph => img.copy_from_slice(screen::plot(ram)),
                    }
                }
            }
        }
        if self.st.modes.split {
            if let Some(graph_shown) = self.split_view() {
                img = self.split_image(ram, img, graph_shown);
            }
        }
        if self.contrast_shown_until != 0 {
            font::draw_large_with(&mut img, 0, 90, &[Self::contrast_digit(hw)], true);
        }
        if self.shell == Shell::Running {
            let paused = matches!(self.interp.status_ref(), Status::Waiting(_));
            draw_indicator(&mut img, self.indicator, paused);
        }
        img
    }

    /// Whether the glass shows the graph or the home screen (the two Split mode shares it
    /// between), and which: `Some(true)` the graph, `Some(false)` the home screen, `None`
    /// another screen (shown whole).
    fn split_view(&self) -> Option<bool> {
        match &self.shell {
            Shell::Graph(_) | Shell::GraphFree(_) | Shell::GraphModeTrace(_) => Some(true),
            Shell::Home => Some(self.st.shown == Shown::Graph),
            Shell::Running => match self.interp.status() {
                Status::Waiting(Wait::GraphCursor(_)) => Some(true),
                Status::Waiting(Wait::Menu { .. } | Wait::Table(_)) => None,
                _ => Some(self.st.shown == Shown::Graph),
            },
            _ => None,
        }
    }

    /// Split mode (MODE's last line): the graph in the top half (its rows 0-30 and a blank
    /// row), four rows of the home screen in the bottom half, those around its cursor [U]
    /// (`docs/tibasic.md`, "Split"). `shown` is the whole-screen image of whichever of the two
    /// the calculator is on (`graph_shown`); the other is drawn here.
    fn split_image(
        &self,
        ram: &[u8],
        shown: [u8; SCREEN_BYTES],
        graph_shown: bool,
    ) -> [u8; SCREEN_BYTES] {
        let (graph, home) = if graph_shown {
            let mut home = [0u8; SCREEN_BYTES];
            screen::render_home(ram, &mut home);
            self.draw_entry_cursor(ram, &mut home);
            (shown, home)
        } else {
            let mut graph = [0u8; SCREEN_BYTES];
            graph.copy_from_slice(screen::plot(ram));
            (graph, shown)
        };
        let mut out = [0u8; SCREEN_BYTES];
        out[..31 * 12].copy_from_slice(&graph[..31 * 12]);
        let top = screen::cursor(ram)
            .0
            .saturating_sub(3)
            .min(screen::ROWS - 4);
        out[32 * 12..].copy_from_slice(&home[top * 8 * 12..(top + 4) * 8 * 12]);
        out
    }

    /// Pushes what changed to the T6A04, column by column (spec §5.9): Y, X, then the data
    /// bytes down the column, each access `LCD_GAP` T-states after the last.
    pub(super) fn present(&mut self, hw: &mut Hardware) {
        if !self.lcd_ready {
            self.init_lcd(hw);
        }
        let img = self.image(hw);
        self.push_image(hw, &img);
        self.st.dirty = false;
        self.indicator_due = false;
    }

    /// The run indicator's step alone: the image last pushed with the indicator redrawn, so
    /// only its column goes to the T6A04 (the same LCD writes, at the same emulated cost, as
    /// a full [`Self::present`] when nothing else changed, without rebuilding the screen).
    /// Every eighth step (about 3 Hz) takes the full path anyway, so a change made without
    /// marking the screen dirty still shows within a third of a second.
    pub(super) fn present_indicator(&mut self, hw: &mut Hardware) {
        self.indicator_due = false;
        if !self.lcd_ready || self.shell != Shell::Running || self.indicator & 31 == 0 {
            self.present(hw);
            return;
        }
        let mut img = [0u8; SCREEN_BYTES];
        img.copy_from_slice(&self.pushed);
        let paused = matches!(self.interp.status_ref(), Status::Waiting(_));
        draw_indicator(&mut img, self.indicator, paused);
        self.push_image(hw, &img);
    }

    /// Pushes the columns of `img` that differ from what the LCD shows.
    pub(super) fn push_image(&mut self, hw: &mut Hardware, img: &[u8; SCREEN_BYTES]) {
        // Most pushes change nothing or one column (the run indicator's): one comparison of
        // the whole image first, then the changed rows only, each column's first and last
        // changed row found in one pass.
        if img[..] == self.pushed[..] {
            return;
        }
        let mut first = [usize::MAX; 12];
        let mut last = [0usize; 12];
        for (r, (row, was)) in img
            .chunks_exact(12)
            .zip(self.pushed.chunks_exact(12))
            .enumerate()
        {
            if row == was {
                continue;
            }
            for (col, (a, b)) in row.iter().zip(was).enumerate() {
                if a != b {
                    first[col] = first[col].min(r);
                    last[col] = r;
                }
            }
        }
        for col in 0..12 {
            let (first, last) = (first[col], last[col]);
            if first == usize::MAX {
                continue;
            }
            hw.write_port(0x10, 0x20 + col as u8, hw.now);
            hw.now += LCD_GAP;
            hw.write_port(0x10, 0x80 + first as u8, hw.now);
            hw.now += LCD_GAP;
            for r in first..=last {
                hw.write_port(0x11, img[r * 12 + col], hw.now);
                hw.now += LCD_GAP;
                self.pushed[r * 12 + col] = img[r * 12 + col];
            }
        }
    }

    pub(super) fn draw_program_menu(
        &self,
        ram: &[u8],
        sel: usize,
        tab: u8,
        img: &mut [u8; SCREEN_BYTES],
    ) {
        font::draw_large_with(img, 0, 0, b"EXEC", tab == 0);
        font::draw_large_with(img, 0, 30, b"EDIT", tab == 1);
        font::draw_large_with(img, 0, 60, b"NEW", tab == 2);
        if tab == 2 {
            font::draw_large_with(img, 8, 0, b"1", true);
            let text = font::encode(":Create New").unwrap_or_default();
            font::draw_large(img, 8, 6, &text);
            return;
        }
        let names = if tab == 1 {
            editable_program_names(ram)
        } else {
            program_names(ram)
        };
        let top = sel.saturating_sub(6);
        for (i, name) in names.iter().enumerate().skip(top).take(7) {
            let row = (i - top + 1) * 8;
            // Past `θ` an item has no label: a blank cell (inverse when selected).
            let label = menu_label(i).unwrap_or(b' ');
            font::draw_large_with(img, row, 0, &[label], i == sel);
            font::draw_large(img, row, 6, b":");
            font::draw_large(img, row, 12, &crate::os::string_codes(name));
        }
    }
}

/// `Menu(`: the title in inverse video on the top line, then `1:ITEM` lines with the
/// selected item's number in inverse video.
pub(super) fn draw_menu(title: &Value, items: &[Value], sel: usize, img: &mut [u8; SCREEN_BYTES]) {
    let (t, _) = value_codes(title, NumFormat::FLOAT);
    font::draw_large_with(img, 0, 0, &t[..t.len().min(16)], true);
    for (i, item) in items.iter().enumerate().take(7) {
        let row = (i + 1) * 8;
        let num = menu_label(i).unwrap_or(b' ');
        font::draw_large_with(img, row, 0, &[num], i == sel);
        font::draw_large(img, row, 6, b":");
        let (codes, _) = value_codes(item, NumFormat::FLOAT);
        font::draw_large(img, row, 12, &codes[..codes.len().min(14)]);
    }
}

pub(super) fn draw_error(err: &ProgramError, sel: usize, img: &mut [u8; SCREEN_BYTES]) {
    let name = format!("ERR:{}", err.kind.ti_name());
    let codes = font::encode(&name).unwrap_or_else(|_| name.bytes().collect());
    font::draw_large(img, 0, 0, &codes[..codes.len().min(16)]);
    for (i, text) in [b"Goto".as_slice(), b"Quit"].iter().enumerate() {
        let row = (i + 1) * 8;
        font::draw_large_with(img, row, 0, &[b'1' + i as u8], i == sel);
        font::draw_large(img, row, 6, b":");
        font::draw_large(img, row, 12, text);
    }
}

/// The run indicator in the top-right corner: a moving dash while running, a dotted line
/// while paused (spec §8.4: the OS animates an 8×8 area there).
pub(super) fn draw_indicator(img: &mut [u8; SCREEN_BYTES], phase: u8, paused: bool) {
    let col = 90usize;
    for row in 0..7usize {
        let on = if paused {
            row % 2 == 0
        } else {
            (row + 7 - (phase as usize / 4 % 7)) % 7 < 4
        };
        let i = row * 12 + col / 8;
        let m = 0x80u8 >> (col % 8);
        if on {
            img[i] |= m;
        } else {
            img[i] &= !m;
        }
    }
}
