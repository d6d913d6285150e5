//! Y=, GRAPH and TRACE from the keypad (the screens: `crate::shell::graphing`).

use super::*;
use crate::shell::graphing::{function_token, Trace, YEditor, FUNCTIONS};

/// The longest expression the Y= editor takes [I].
const EXPRESSION_LIMIT: usize = 200;

impl BasicFirmware {
    /// `Y₁`…`Y₀` as they are in RAM: tokens and selected bits (missing ones empty).
    pub(super) fn functions(hw: &Hardware) -> [(Vec<u8>, bool); FUNCTIONS] {
        std::array::from_fn(|i| {
            crate::os::equation_in(hw.mem.ram(), function_token(i)).unwrap_or_default()
        })
    }

    pub(super) fn open_y_editor(&mut self, hw: &mut Hardware) {
        let f = Self::functions(hw);
        self.shell = Shell::YEditor(YEditor::open(&f[0].0));
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
            let f = Self::functions(hw);
            // TRACE starts in the middle column (X at the window's centre) [I].
            if let Some(i) = (0..FUNCTIONS).find(|&i| f[i].1 && !f[i].0.is_empty()) {
                self.trace_to(hw, i, 47);
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

    pub(super) fn key_graph(&mut self, hw: &mut Hardware, k: Key, trace: Option<Trace>) {
        let Some(second) = self.after_second(k) else {
            return;
        };
        let selected: Vec<usize> = {
            let f = Self::functions(hw);
            (0..FUNCTIONS)
                .filter(|&i| f[i].1 && !f[i].0.is_empty())
                .collect()
        };
        match (second, k, trace) {
            (true, Key::Mode, _) | (_, Key::Clear, _) => self.go_home_screen(),
            (false, Key::YEquals, _) => self.open_y_editor(hw),
            (false, Key::Trace, _) => self.open_graph(hw, true),
            (false, Key::Graph, _) => self.open_graph(hw, false),
            (false, Key::Left | Key::Right, Some(t)) => {
                let step = if k == Key::Left { -1 } else { 1 };
                self.trace_to(hw, t.function, t.column + step);
            }
            (false, Key::Up | Key::Down, Some(t)) if !selected.is_empty() => {
                // The next (▼) or previous (▲) selected function, wrapping [I].
                let at = selected.iter().position(|&i| i == t.function).unwrap_or(0);
                let n = selected.len();
                let next = if k == Key::Down {
                    (at + 1) % n
                } else {
                    (at + n - 1) % n
                };
                self.trace_to(hw, selected[next], t.column);
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
        if c.command != TRACE {
            let r = {
                let mut os = Self::os(&mut self.st, hw);
                os.cursor_zoom(c.command, (c.row, c.col), c.corner)
            };
            if let Err(kind) = r {
                self.interp.raise(kind);
                return;
            }
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
        let store = matches!(k, Key::Enter | Key::Up | Key::Down | Key::Graph)
            || (shift == Shift::Second && k == Key::Mode);
        if store {
            if let Some(e) = w.entry.take() {
                match self.store_typed_window(hw, w.vars[w.line], &e.tokens) {
                    Ok(v) => w.values[w.line] = v,
                    Err(kind) => return self.screen_error(kind),
                }
            }
        }
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Graph) => return self.open_graph(hw, false),
            (_, Key::Enter | Key::Down) => w.go_to(w.line + 1),
            (_, Key::Up) => w.go_to(w.line.saturating_sub(1)),
            (_, Key::Clear) => w.entry = Some(Default::default()),
            // ► with nothing typed: the FORMAT tab [I].
            (Shift::None, Key::Right) if w.entry.is_none() => return self.open_format(),
            _ => {
                let mut e = w.entry.take().unwrap_or_default();
                if edit_line(&mut self.shift, &mut e, shift, k, 100) || !e.is_empty() {
                    w.entry = Some(e);
                }
            }
        }
        self.shell = Shell::Window(w);
        self.st.dirty = true;
    }

    /// TABLE (2nd GRAPH): the table from row `first`.
    pub(super) fn open_table(&mut self, hw: &mut Hardware, first: i64) {
        let t = {
            let mut os = Self::os(&mut self.st, hw);
            os.table_data(first)
        };
        match t {
            Ok(t) => self.shell = Shell::Table(t),
            Err(kind) => self.screen_error(kind),
        }
        self.st.dirty = true;
    }

    /// ▲ ▼ scroll the table a row (X by ΔTbl); CLEAR or 2nd QUIT go home.
    pub(super) fn key_table(&mut self, hw: &mut Hardware, k: Key, t: crate::table::TableData) {
        let Some(second) = self.after_second(k) else {
            return;
        };
        match (second, k) {
            (true, Key::Mode) | (_, Key::Clear) => self.go_home_screen(),
            (false, Key::Down) => self.open_table(hw, t.first + 1),
            (false, Key::Up) => self.open_table(hw, t.first - 1),
            (false, Key::Graph) => self.open_graph(hw, false),
            (false, Key::YEquals) => self.open_y_editor(hw),
            _ => {}
        }
        self.st.dirty = true;
    }

    /// The Y= editor's function under edit stored in the VAT.
    fn commit_function(&mut self, hw: &mut Hardware, ed: &YEditor) -> Result<(), ErrorKind> {
        let mut os = Self::os(&mut self.st, hw);
        os.edit_equation(function_token(ed.function), &ed.line.tokens)
    }

    pub(super) fn key_y_editor(&mut self, hw: &mut Hardware, k: Key, mut ed: YEditor) {
        let shift = std::mem::take(&mut self.shift);
        let leaving = matches!(
            (shift, k),
            (Shift::Second, Key::Mode) | (_, Key::Graph | Key::Trace | Key::Up | Key::Down)
        ) || (k == Key::Enter && !ed.on_equals);
        if leaving {
            if let Err(kind) = self.commit_function(hw, &ed) {
                return self.screen_error(kind);
            }
        }
        let f = Self::functions(hw);
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Graph) => return self.open_graph(hw, false),
            (_, Key::Trace) => return self.open_graph(hw, true),
            (_, Key::Enter) if ed.on_equals => {
                let on = !f[ed.function].1;
                let mut os = Self::os(&mut self.st, hw);
                let _ = os.select_equation(function_token(ed.function), on);
            }
            (_, Key::Enter | Key::Down) => {
                let i = (ed.function + 1).min(FUNCTIONS - 1);
                ed.go_to(i, &f[i].0);
            }
            (_, Key::Up) => {
                let i = ed.function.saturating_sub(1);
                ed.go_to(i, &f[i].0);
            }
            (_, Key::Left) if ed.on_equals => {}
            (Shift::None, Key::Left) if ed.line.pos == 0 => ed.on_equals = true,
            (_, Key::Right) if ed.on_equals => ed.on_equals = false,
            (_, Key::Clear) => {
                ed.line.clear();
                ed.on_equals = false;
            }
            _ => {
                ed.on_equals = false;
                edit_line(&mut self.shift, &mut ed.line, shift, k, EXPRESSION_LIMIT);
            }
        }
        self.shell = Shell::YEditor(ed);
        self.st.dirty = true;
    }
}
