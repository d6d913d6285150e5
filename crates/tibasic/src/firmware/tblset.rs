//! TABLE SETUP from the keypad (the screen: `crate::shell::tblset`).

use super::*;
use crate::shell::tblset::TblSet;

impl BasicFirmware {
    /// TABLE SETUP (2nd TblSet).
    pub(super) fn open_tblset(&mut self, hw: &mut Hardware) {
        let values = {
            let os = Self::os(&mut self.st, hw);
            [os.window_get(0x1A), os.window_get(0x21)]
        };
        let m = &self.st.modes;
        self.shell = Shell::TblSet(TblSet::new(values, [m.indpnt_ask, m.depend_ask]));
        self.st.dirty = true;
    }

    /// TblMin and ΔTbl: a value typed over the line's, stored on ENTER, ▲ or ▼ as a
    /// program's `→` would; Indpnt and Depend: ◄ ► pick Auto or Ask, ENTER sets it.
    pub(super) fn key_tblset(&mut self, hw: &mut Hardware, k: Key, mut t: TblSet) {
        let shift = std::mem::take(&mut self.shift);
        if k == Key::Second && shift == Shift::None && t.line >= 2 {
            self.shift = Shift::Second;
            return;
        }
        let opens = graphing::opens_graphing_screen(shift, k)
            && !(shift == Shift::Second && k == Key::Window);
        let leaving_line = matches!(k, Key::Enter | Key::Up | Key::Down)
            || opens
            || (shift == Shift::Second && k == Key::Mode);
        if leaving_line && t.line < 2 {
            if let Some(e) = t.entry.take().filter(|e| !e.is_empty()) {
                let var = if t.line == 0 { 0x1A } else { 0x21 };
                match self.store_typed_window(hw, var, &e.tokens) {
                    Ok(v) => t.values[t.line] = v,
                    Err(kind) => return self.screen_error(kind),
                }
            }
        }
        if opens {
            self.shell = Shell::TblSet(t.clone());
            if self.graphing_key(hw, shift == Shift::Second, k) {
                return;
            }
        }
        match (shift, k) {
            (Shift::Second, Key::Mode) => return self.go_home_screen(),
            (_, Key::Up) => {
                t.line = t.line.saturating_sub(1);
                t.option = t.line >= 2 && t.ask[t.line - 2];
            }
            (_, Key::Down) => {
                t.line = (t.line + 1).min(3);
                t.option = t.line >= 2 && t.ask[t.line - 2];
            }
            (_, Key::Left | Key::Right) if t.line >= 2 => t.option = k == Key::Right,
            (_, Key::Enter) if t.line >= 2 => {
                t.ask[t.line - 2] = t.option;
                self.st.modes.indpnt_ask = t.ask[0];
                self.st.modes.depend_ask = t.ask[1];
            }
            (_, Key::Enter) => {
                t.line += 1;
                t.option = t.line >= 2 && t.ask[t.line - 2];
            }
            (_, Key::Clear) if t.line < 2 => t.entry = Some(Default::default()),
            (shift, k) if t.line < 2 && Self::typing_menu(shift, k) => {
                return self.open_menu_over(shift, k, Shell::TblSet(t));
            }
            _ if t.line < 2 => {
                let mut e = t.entry.take().unwrap_or_default();
                if edit_line(&mut self.shift, &mut e, shift, k, 100, self.st.modes.graph)
                    || !e.is_empty()
                {
                    t.entry = Some(e);
                }
            }
            _ => {}
        }
        self.shell = Shell::TblSet(t);
        self.st.dirty = true;
    }
}
