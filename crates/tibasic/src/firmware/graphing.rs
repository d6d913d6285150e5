//! Y=, GRAPH and TRACE from the keypad (the screens: `crate::shell::graphing`).

use super::*;
use crate::shell::graphing::{
    editor_equations, function_token, selection_key, EditorLine, FreeCursor, ModeTrace, Trace,
    YEditor, FUNCTIONS,
};
use crate::shell::table::{TableScreen, X_ENTRY_MAX};

/// The longest expression the Y= editor takes [I].
use crate::shell::graphing::EXPRESSION_MAX as EXPRESSION_LIMIT;

impl BasicFirmware {
    /// `Y₁`…`Y₀` as they are in RAM: tokens and selected bits (missing ones empty).
    pub(super) fn functions(hw: &Hardware) -> [(Vec<u8>, bool); FUNCTIONS] {
        std::array::from_fn(|i| {
            crate::os::equation_in(hw.mem.ram(), function_token(i)).unwrap_or_default()
        })
    }

    /// The Y= editor's lines in the graphing mode now.
    pub(super) fn editor_lines(&self, hw: &Hardware) -> Vec<EditorLine> {
        let ram = hw.mem.ram();
        editor_equations(self.st.modes.graph)
            .into_iter()
            .map(|k| {
                let tokens = crate::os::equation_in(ram, k).unwrap_or_default().0;
                let selected = crate::os::equation_in(ram, selection_key(k)).is_some_and(|e| e.1);
                (k, tokens, selected)
            })
            .collect()
    }

    pub(super) fn open_y_editor(&mut self, hw: &mut Hardware) {
        let lines = self.editor_lines(hw);
        let first = lines.first().map_or(&[][..], |l| &l.1[..]);
        self.shell = Shell::YEditor(YEditor::open(first));
        self.st.dirty = true;
    }

    /// GRAPH: the graph as it should be now; `trace` starts TRACE on it.
    pub(super) fn open_graph(&mut self, hw: &mut Hardware, trace: bool) {
        let result = {
            let mut os = Self::os(&mut self.st, hw);
            os.graph_now()
        };
        if let Err(kind) = result {
            return self.screen_error(kind);
        }
        self.shell = Shell::Graph(None);
        if trace {
            // The first thing traced: a function at the middle column (X at the window's
            // centre), an equation or a plot from its start [I].
            if let Some(&k) = self.trace_targets(hw).first() {
                self.trace_target(hw, k, 47, 0);
            }
        }
        self.st.dirty = true;
    }

    fn trace_to(&mut self, hw: &mut Hardware, function: usize, column: i64) {
        let column = column.clamp(0, 94);
        let tokens = Self::functions(hw)[function].0.clone();
        let point = {
            let mut os = Self::os(&mut self.st, hw);
            os.trace_point(function_token(function), column)
        };
        match point {
            Ok((x, y, row)) => {
                self.shell = Shell::Graph(Some(Trace {
                    function,
                    column,
                    x,
                    y,
                    row,
                    tokens,
                }))
            }
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// The window panned `columns` pixel columns (and centred on `centre_y`), the trace
    /// cursor in the middle column.
    fn pan_and_trace(
        &mut self,
        hw: &mut Hardware,
        function: usize,
        columns: i64,
        centre_y: Option<Real>,
    ) {
        let r = Self::os(&mut self.st, hw).pan_window(columns, centre_y);
        match r {
            Ok(()) => self.trace_to(hw, function, 47),
            Err(kind) => self.screen_error(kind),
        }
    }

    /// GRAPH's free-moving cursor: the arrows move it a pixel (stopping at the edges), the
    /// bottom line showing the point there; CLEAR and 2nd QUIT go home, TRACE traces, GRAPH
    /// takes the cursor away [I].
    pub(super) fn key_graph_free(&mut self, hw: &mut Hardware, k: Key, mut c: FreeCursor) {
        let (dr, dc) = match k {
            Key::Up => (-1, 0),
            Key::Down => (1, 0),
            Key::Left => (0, -1),
            Key::Right => (0, 1),
            _ => return self.key_graph(hw, k, None),
        };
        if self.shift != Shift::None {
            return self.key_graph(hw, k, None);
        }
        c.row = (c.row + dr).clamp(0, 62);
        c.col = (c.col + dc).clamp(0, 94);
        match Self::os(&mut self.st, hw).pixel_point(c.row, c.col) {
            Ok((x, y)) => {
                (c.x, c.y) = (x, y);
                self.shell = Shell::GraphFree(c);
            }
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// What TRACE goes through with ▲ ▼, in order: the selected functions (`Yₙ` token bytes,
    /// Func mode) or equations (the other modes), then the Scatter and xyLine plots that are
    /// on (`crate::os::plot_of`).
    fn trace_targets(&mut self, hw: &mut Hardware) -> Vec<u8> {
        let mut out: Vec<u8> = if self.st.modes.graph == 0 {
            let f = Self::functions(hw);
            (0..FUNCTIONS)
                .filter(|&i| f[i].1 && !f[i].0.is_empty())
                .map(function_token)
                .collect()
        } else {
            Self::os(&mut self.st, hw).traced_equations()
        };
        out.extend(Self::os(&mut self.st, hw).traced_plots());
        out
    }

    /// TRACE on target `k` of [`Self::trace_targets`]: a function at pixel `column`, else at
    /// step `step`.
    fn trace_target(&mut self, hw: &mut Hardware, k: u8, column: i64, step: i64) {
        if self.st.modes.graph == 0 && (0x10..=0x19).contains(&k) {
            self.trace_to(hw, usize::from(k - 0x10), column);
        } else {
            self.mode_trace_to(hw, k, step, None);
        }
    }

    /// ▲ ▼ while tracing: the next (▼) or previous (▲) of the trace targets after `at`,
    /// wrapping [I].
    fn trace_next(&mut self, hw: &mut Hardware, at: u8, down: bool, column: i64, step: i64) {
        let targets = self.trace_targets(hw);
        let n = targets.len();
        if n == 0 {
            return;
        }
        let i = targets.iter().position(|&e| e == at).unwrap_or(0);
        let next = if down { (i + 1) % n } else { (i + n - 1) % n };
        self.trace_target(hw, targets[next], column, step);
    }

    /// TRACE in Par, Pol or Seq mode on equation `k` at step `step`; `from`, in the Web
    /// format, is the pixel the cursor leaves, joined to the new one in the graph.
    fn mode_trace_to(&mut self, hw: &mut Hardware, k: u8, step: i64, from: Option<(i64, i64)>) {
        let tokens = match crate::os::plot_of(k).and_then(|n| self.st.plots[n]) {
            // A plot's lists, `L₁,L₂`, for the top line.
            Some(p) => vec![0x5D, p.lists[0], 0x2B, 0x5D, p.lists[1]],
            None => {
                crate::os::equation_in(hw.mem.ram(), k)
                    .unwrap_or_default()
                    .0
            }
        };
        let web = self.st.modes.graph == 3 && self.st.modes.web && crate::os::plot_of(k).is_none();
        let mut os = Self::os(&mut self.st, hw);
        let step = step.clamp(0, os.trace_last_step(k));
        match os.mode_trace_point(k, step) {
            Ok(p) => {
                if let (true, Some(a), Some(b)) = (web, from, p.pixel) {
                    os.draw_web_segment(a, b);
                }
                self.shell = Shell::GraphModeTrace(ModeTrace {
                    equation: k,
                    step,
                    param: p.param,
                    point: p.point,
                    pixel: p.pixel,
                    tokens,
                });
            }
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// TRACE's keys in Par, Pol and Seq mode: ◄ ► step the parameter (in the Web format ►
    /// draws the next segment of the web), ▲ ▼ go to the next or previous traced equation;
    /// the rest as on the graph.
    pub(super) fn key_mode_trace(&mut self, hw: &mut Hardware, k: Key, t: ModeTrace) {
        if self.shift != Shift::None || !matches!(k, Key::Left | Key::Right | Key::Up | Key::Down) {
            return self.key_graph(hw, k, None);
        }
        match k {
            Key::Left => self.mode_trace_to(hw, t.equation, t.step - 1, None),
            Key::Right => self.mode_trace_to(hw, t.equation, t.step + 1, t.pixel),
            _ => self.trace_next(hw, t.equation, k == Key::Down, 47, t.step),
        }
    }

    /// The graphing keys (the top row: Y=, WINDOW, ZOOM, TRACE, GRAPH, and their second
    /// functions 2nd STAT PLOT, 2nd TblSet, 2nd FORMAT, 2nd CALC, 2nd TABLE) and MODE, which
    /// open their screens from the home screen and from every graphing screen, as on the
    /// calculator; whether `k` (2nd pending: `second`) was one of them. The screen open now
    /// (`self.shell`, with what was typed on it already stored) waits under the ZOOM menu,
    /// which comes back to it on CLEAR. 2nd CALC has no screen yet: it leaves the screen as
    /// it is (`docs/calculator.md`).
    pub(super) fn graphing_key(&mut self, hw: &mut Hardware, second: bool, k: Key) -> bool {
        match (second, k) {
            (false, Key::YEquals) => self.open_y_editor(hw),
            (false, Key::Window) => self.open_window(hw),
            (false, Key::Zoom) => self.open_zoom_menu(),
            (false, Key::Graph) => self.open_graph(hw, false),
            (false, Key::Trace) => self.open_graph(hw, true),
            (true, Key::YEquals) => self.open_stat_plots(),
            (true, Key::Window) => self.open_tblset(hw),
            (true, Key::Zoom) => self.open_format(),
            // 2nd CALC: the CALCULATE menu is not built yet; the key does nothing.
            (true, Key::Trace) => self.st.dirty = true,
            (true, Key::Graph) => self.open_table(hw),
            (false, Key::Mode) => {
                self.shell = Shell::Mode(crate::shell::mode::ModeCursor::open(&self.st.modes));
                self.indicator = 0;
                self.st.dirty = true;
            }
            _ => return false,
        }
        true
    }

    /// ZOOM: the ZOOM menu over the screen open now. On the home screen a zoom chosen is
    /// done at once (`key_catalog`); over another screen that screen waits under the menu.
    fn open_zoom_menu(&mut self) {
        if self.shell == Shell::Home {
            self.open_catalog(Shift::None, Key::Zoom, CatalogFrom::Home);
        } else {
            let here = std::mem::replace(&mut self.shell, Shell::Home);
            self.open_menu_over(Shift::None, Key::Zoom, here);
        }
    }

    pub(super) fn key_graph(&mut self, hw: &mut Hardware, k: Key, trace: Option<Trace>) {
        let Some(second) = self.after_second(k) else {
            return;
        };
        match (second, k, trace) {
            (true, Key::Mode, _) | (_, Key::Clear, _) => self.go_home_screen(),
            (second, k, _) if self.graphing_key(hw, second, k) => {}
            (false, Key::Left | Key::Right, Some(t)) => {
                let step = if k == Key::Left { -1 } else { 1 };
                let column = t.column + step;
                if (0..=94).contains(&column) {
                    self.trace_to(hw, t.function, column);
                } else {
                    // Past the edge the window pans: the point the cursor moves to comes
                    // to the middle column, the graph drawn again [I].
                    self.pan_and_trace(hw, t.function, column - 47, None);
                }
            }
            (false, Key::Up | Key::Down | Key::Left | Key::Right, None) => {
                // The free-moving cursor appears in the middle of the graph, moved by the
                // arrow that brought it.
                return self.key_graph_free(hw, k, FreeCursor::middle());
            }
            (false, Key::Enter, Some(t)) => {
                // QuickZoom: the window centred on the cursor's point (on X alone where the
                // function has no value).
                self.pan_and_trace(hw, t.function, t.column - 47, t.y);
            }
            (false, Key::Up | Key::Down, Some(t)) => {
                let at = function_token(t.function);
                self.trace_next(hw, at, k == Key::Down, t.column, 0);
            }
            _ => {}
        }
        self.st.dirty = true;
    }

    /// The graph cursor of `ZBox`, `Zoom In`, `Zoom Out`, `ZInteger` and `Trace`: the
    /// arrows move it a pixel (Trace: a column along the first selected function, whose
    /// point it stays on [I]); ENTER acts (ZBox: the first ENTER fixes a corner).
    pub(super) fn key_graph_cursor(
        &mut self,
        hw: &mut Hardware,
        k: Key,
        mut c: crate::interp::GraphCursor,
    ) {
        use crate::token::{TRACE, ZBOX};
        let (dr, dc) = match k {
            Key::Up => (-1, 0),
            Key::Down => (1, 0),
            Key::Left => (0, -1),
            Key::Right => (0, 1),
            _ => (0, 0),
        };
        if (dr, dc) != (0, 0) {
            c.col = (c.col + dc).clamp(0, 94);
            c.row = (c.row + dr).clamp(0, 62);
            if c.command == TRACE {
                let f = Self::functions(hw);
                if let Some(i) = (0..FUNCTIONS).find(|&i| f[i].1 && !f[i].0.is_empty()) {
                    let mut os = Self::os(&mut self.st, hw);
                    if let Ok((_, _, Some(row))) = os.trace_point(function_token(i), c.col) {
                        c.row = row.clamp(0, 62);
                    }
                }
            }
            self.interp.update_wait(crate::interp::Wait::GraphCursor(c));
            self.st.dirty = true;
            return;
        }
        if k != Key::Enter {
            return;
        }
        if c.command == ZBOX && c.corner.is_none() {
            c.corner = Some((c.row, c.col));
            self.interp.update_wait(crate::interp::Wait::GraphCursor(c));
            self.st.dirty = true;
            return;
        }
        // ENTER acts on the cursor's point: Trace just ends, a bare `Input` stores it in X
        // and Y, the zooms zoom.
        let r = {
            let mut os = Self::os(&mut self.st, hw);
            match c.command {
                TRACE => Ok(()),
                crate::token::INPUT => os
                    .pixel_point(c.row, c.col)
                    .and_then(|(x, y)| os.store_point(x, y)),
                command => os.cursor_zoom(command, (c.row, c.col), c.corner),
            }
        };
        if let Err(kind) = r {
            self.interp.raise(kind);
            return;
        }
        self.interp.finish_wait(None);
        self.st.dirty = true;
    }

    /// A value typed on WINDOW or TABLE SETUP stored in window variable `var`, as a
    /// program's `→` would; its value as now stored.
    pub(super) fn store_typed_window(
        &mut self,
        hw: &mut Hardware,
        var: u8,
        tokens: &[u8],
    ) -> Result<Real, ErrorKind> {
        let v = self.eval_typed(hw, tokens)?.real()?;
        let mut os = Self::os(&mut self.st, hw);
        os.store_window(var, v)?;
        Ok(os.window_get(var))
    }

    /// ZOOM › MEMORY › SetFactors…: XFact and YFact on a WINDOW-like screen.
    pub(super) fn open_zoom_factors(&mut self, hw: &mut Hardware) {
        use crate::shell::window::{WindowEditor, FACTORS};
        let values = {
            let os = Self::os(&mut self.st, hw);
            FACTORS.iter().map(|&k| os.window_get(k)).collect()
        };
        self.shell = Shell::Window(WindowEditor::new(&FACTORS, values));
        self.st.dirty = true;
    }

    /// WINDOW: the graphing mode's window variables.
    pub(super) fn open_window(&mut self, hw: &mut Hardware) {
        let vars = crate::shell::window::variables(self.st.modes.graph);
        let values = {
            let os = Self::os(&mut self.st, hw);
            vars.iter().map(|&k| os.window_get(k)).collect()
        };
        self.shell = Shell::Window(crate::shell::window::WindowEditor::new(vars, values));
        self.st.dirty = true;
    }

    /// WINDOW's keys: a value typed over the line's, stored (evaluated as the home screen
    /// would) on ENTER, ▼ or ▲, which move on; CLEAR empties the typed value; GRAPH, 2nd
    /// QUIT leave.
    pub(super) fn key_window(
        &mut self,
        hw: &mut Hardware,
        k: Key,
        mut w: crate::shell::window::WindowEditor,
    ) {
        let shift = std::mem::take(&mut self.shift);
        let opens = opens_graphing_screen(shift, k)
            && !(shift == Shift::None && k == Key::Window && !w.is_factors());
        let store = matches!(k, Key::Enter | Key::Up | Key::Down)
            || opens
            || (shift == Shift::Second && k == Key::Mode);
        if store {
            // (Nothing typed, or a line CLEAR emptied, keeps the value.)
            if let Some(e) = w.entry.take().filter(|e| !e.is_empty()) {
                match self.store_typed_window(hw, w.vars[w.line], &e.tokens) {
                    Ok(v) => w.values[w.line] = v,
                    Err(kind) => return self.screen_error(kind),
                }
            }
        }
        if opens {
            self.shell = Shell::Window(w.clone());
            if self.graphing_key(hw, shift == Shift::Second, k) {
                return;
            }
        }
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Enter | Key::Down) => w.go_to(w.line + 1),
            (_, Key::Up) => w.go_to(w.line.saturating_sub(1)),
            (_, Key::Clear) => w.entry = Some(Default::default()),
            // ► with nothing typed: the FORMAT tab [I].
            (Shift::None, Key::Right) if w.entry.is_none() && !w.is_factors() => {
                return self.open_format()
            }
            (shift, k) if Self::typing_menu(shift, k) => {
                return self.open_menu_over(shift, k, Shell::Window(w));
            }
            _ => {
                let mut e = w.entry.take().unwrap_or_default();
                if edit_line(&mut self.shift, &mut e, shift, k, 100, self.st.modes.graph)
                    || !e.is_empty()
                {
                    w.entry = Some(e);
                }
            }
        }
        self.shell = Shell::Window(w);
        self.st.dirty = true;
    }

    /// TABLE (2nd GRAPH): the table from row `first`.
    /// TABLE (2nd TABLE): the table from TblMin (or TblInput's first value), the cursor on
    /// the first X.
    pub(super) fn open_table(&mut self, hw: &mut Hardware) {
        let t = Self::os(&mut self.st, hw).table_data(0, 0);
        match t {
            Ok(t) => self.shell = Shell::Table(TableScreen::new(t)),
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// The table computed again from its row `first` and function `fn_first`, the cursor and
    /// the cells asked for kept.
    fn refresh_table(
        &mut self,
        hw: &mut Hardware,
        mut t: TableScreen,
        first: i64,
        fn_first: usize,
    ) {
        let data = Self::os(&mut self.st, hw).table_data(first, fn_first);
        match data {
            Ok(data) => {
                t.data = data;
                t.fn_first = fn_first;
                t.col = t.col.min(t.data.functions.len());
                self.shell = Shell::Table(t);
            }
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// The TABLE screen's keys (the TI-82 Guidebook's chapter on tables): ▲ ▼ move the
    /// cursor a row, scrolling the table a row (X by ΔTbl) at its top and bottom; ◄ ► move
    /// between X and the functions, bringing in the next selected function past the last
    /// column. IndpntAsk: a value typed in the X column is stored in TblInput at that row on
    /// ENTER (which then moves down), ▲ or ▼ (a new row after the last), DEL takes the row's
    /// value out. DependAsk:
    /// ENTER on a function's cell shows its value. CLEAR drops what is typed, or goes home;
    /// 2nd QUIT goes home; GRAPH and Y= open their screens.
    pub(super) fn key_table(&mut self, hw: &mut Hardware, mut k: Key, mut t: TableScreen) {
        let shift = std::mem::take(&mut self.shift);
        let (indpnt_ask, depend_ask) = (self.st.modes.indpnt_ask, self.st.modes.depend_ask);
        let mut first = t.data.first;
        let mut fn_first = t.fn_first;
        if matches!(k, Key::Enter | Key::Up | Key::Down) {
            if let Some(e) = t.entry.take() {
                if !e.is_empty() {
                    let v = match self.eval_typed(hw, &e.tokens).and_then(|v| v.real()) {
                        Ok(v) => v,
                        Err(kind) => return self.screen_error(kind),
                    };
                    let at = usize::try_from(first + t.row as i64).unwrap_or(0);
                    let input = &mut self.st.tbl_input;
                    if at < input.len() {
                        input[at] = v;
                    } else if input.len() < 99 {
                        input.push(v);
                    }
                }
                // The table with the new value; ENTER then moves on a row as ▼ does.
                match Self::os(&mut self.st, hw).table_data(first, fn_first) {
                    Ok(data) => t.data = data,
                    Err(kind) => return self.screen_error(kind),
                }
                if k == Key::Enter {
                    k = Key::Down;
                }
            }
        }
        let rows = t.data.xs.len();
        // IndpntAsk: a blank row after TblInput's values takes a new one.
        let last_row = if indpnt_ask {
            let room = usize::try_from(first).map_or(0, |f| f + rows) < 99;
            (rows + usize::from(room)).clamp(1, crate::table::ROWS) - 1
        } else {
            crate::table::ROWS - 1
        };
        let asked = self.st.tbl_input.len() as i64;
        let selected = Self::functions(hw)
            .iter()
            .filter(|f| f.1 && !f.0.is_empty())
            .count();
        let opens = opens_graphing_screen(shift, k) && !(shift == Shift::Second && k == Key::Graph);
        if opens {
            self.shell = Shell::Table(t.clone());
            if self.graphing_key(hw, shift == Shift::Second, k) {
                return;
            }
        }
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Clear) if t.entry.is_some() => t.entry = None,
            (_, Key::Clear) => return self.go_home_screen(),
            (_, Key::Down) if t.row < last_row => t.row += 1,
            (_, Key::Down) if !indpnt_ask || first + (last_row as i64) < asked => first += 1,
            (_, Key::Up) if t.row > 0 => t.row -= 1,
            (_, Key::Up) if !indpnt_ask || first > 0 => first -= 1,
            (_, Key::Left) if t.entry.is_none() && t.col > 1 => t.col -= 1,
            (_, Key::Left) if t.entry.is_none() && t.col == 1 && fn_first > 0 => fn_first -= 1,
            (_, Key::Left) if t.entry.is_none() && t.col == 1 => t.col = 0,
            (_, Key::Right) if t.entry.is_none() && t.col < t.data.functions.len() => t.col += 1,
            (_, Key::Right) if t.entry.is_none() && fn_first + t.col < selected => fn_first += 1,
            (_, Key::Enter) if depend_ask && t.col > 0 => t.ask(),
            (Shift::None, Key::Del) if indpnt_ask && t.col == 0 && t.entry.is_none() => {
                let at = usize::try_from(first + t.row as i64).unwrap_or(usize::MAX);
                if at < self.st.tbl_input.len() {
                    self.st.tbl_input.remove(at);
                }
            }
            (shift, k) if indpnt_ask && t.col == 0 && Self::typing_menu(shift, k) => {
                return self.open_menu_over(shift, k, Shell::Table(t));
            }
            _ if indpnt_ask && t.col == 0 => {
                let mut e = t.entry.take().unwrap_or_default();
                if edit_line(
                    &mut self.shift,
                    &mut e,
                    shift,
                    k,
                    X_ENTRY_MAX,
                    self.st.modes.graph,
                ) || !e.is_empty()
                {
                    t.entry = Some(e);
                }
            }
            (Shift::None, Key::Second) => self.shift = Shift::Second,
            _ => {}
        }
        self.refresh_table(hw, t, first, fn_first);
    }

    /// The Y= editor's equation under edit stored in the VAT.
    fn commit_function(&mut self, hw: &mut Hardware, ed: &YEditor) -> Result<(), ErrorKind> {
        let keys = editor_equations(self.st.modes.graph);
        let Some(&k) = keys.get(ed.function) else {
            return Ok(());
        };
        let mut os = Self::os(&mut self.st, hw);
        os.edit_equation(k, &ed.line.tokens)
    }

    pub(super) fn key_y_editor(&mut self, hw: &mut Hardware, k: Key, mut ed: YEditor) {
        let shift = std::mem::take(&mut self.shift);
        let opens = opens_graphing_screen(shift, k) && !(shift == Shift::None && k == Key::YEquals);
        let leaving = opens
            || matches!(
                (shift, k),
                (Shift::Second, Key::Mode) | (_, Key::Up | Key::Down)
            )
            || (k == Key::Enter && !ed.on_equals);
        if leaving {
            if let Err(kind) = self.commit_function(hw, &ed) {
                return self.screen_error(kind);
            }
        }
        if opens {
            self.shell = Shell::YEditor(ed.clone());
            if self.graphing_key(hw, shift == Shift::Second, k) {
                return;
            }
        }
        let lines = self.editor_lines(hw);
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Enter) if ed.on_equals => {
                if let Some((k, _, selected)) = lines.get(ed.function) {
                    let mut os = Self::os(&mut self.st, hw);
                    let _ = os.select_equation(selection_key(*k), !selected);
                }
            }
            (_, Key::Enter | Key::Down) => ed.go_to(ed.function + 1, &lines),
            (_, Key::Up) => ed.go_to(ed.function.saturating_sub(1), &lines),
            (_, Key::Left) if ed.on_equals => {}
            (Shift::None, Key::Left) if ed.line.pos == 0 => ed.on_equals = true,
            (_, Key::Right) if ed.on_equals => ed.on_equals = false,
            (_, Key::Clear) => {
                ed.line.clear();
                ed.on_equals = false;
            }
            (shift, k) if Self::typing_menu(shift, k) => {
                return self.open_menu_over(shift, k, Shell::YEditor(ed));
            }
            _ => {
                ed.on_equals = false;
                edit_line(
                    &mut self.shift,
                    &mut ed.line,
                    shift,
                    k,
                    EXPRESSION_LIMIT,
                    self.st.modes.graph,
                );
            }
        }
        self.shell = Shell::YEditor(ed);
        self.st.dirty = true;
    }
}

/// Whether `shift`+`k` is a graphing key ([`BasicFirmware::graphing_key`]): Y=, WINDOW,
/// ZOOM, TRACE, GRAPH, MODE, and 2nd STAT PLOT, 2nd TblSet, 2nd FORMAT, 2nd CALC, 2nd TABLE.
pub(super) fn opens_graphing_screen(shift: Shift, k: Key) -> bool {
    match shift {
        Shift::None => matches!(
            k,
            Key::YEquals | Key::Window | Key::Zoom | Key::Trace | Key::Graph | Key::Mode
        ),
        Shift::Second => matches!(
            k,
            Key::YEquals | Key::Window | Key::Zoom | Key::Trace | Key::Graph
        ),
        _ => false,
    }
}
