//! 2nd STAT PLOT and WINDOW ► FORMAT from the keypad (the screens: `crate::shell::statplot`,
//! `crate::shell::format`). Both change the settings programs change (`Plot1(`, `PlotsOff`,
//! `GridOn`...), so a program sees what the user set and the reverse.

use super::*;
use crate::shell::format::{FormatAction, FormatCursor};
use crate::shell::statplot::{StatPlotAction, StatPlotScreen};

impl BasicFirmware {
    /// 2nd STAT PLOT on the home screen: the STAT PLOTS menu.
    pub(super) fn open_stat_plots(&mut self) {
        self.shell = Shell::StatPlot(StatPlotScreen::Menu { sel: 0 });
        self.indicator = 0;
        self.st.dirty = true;
    }

    pub(super) fn key_stat_plot(&mut self, hw: &mut Hardware, k: Key, mut s: StatPlotScreen) {
        let Some(second) = self.after_second(k) else {
            return;
        };
        if self.other_graphing_screen(hw, second, k, (true, Key::YEquals)) {
            return;
        }
        let action = s.key(k, second, &self.st.plots);
        self.shell = Shell::StatPlot(s);
        // The cursor shows at once after a key, then blinks.
        self.indicator = 0;
        self.st.dirty = true;
        match action {
            StatPlotAction::None => {}
            StatPlotAction::Set(i, p) => {
                self.st.plots[i] = Some(p);
                self.st.graph_dirty = true;
            }
            StatPlotAction::Type(t) => {
                self.entry.type_token(&[t], HOME_ENTRY_MAX);
                self.shell = Shell::Home;
                self.show_entry(hw);
            }
            StatPlotAction::Graph => self.open_graph(hw, false),
            StatPlotAction::Quit => self.go_home_screen(),
        }
    }

    /// A graphing key pressed on a screen whose own key is `own` (2nd pending: `second`):
    /// the key's screen opened; whether it was one (the screen's own key is left to the
    /// screen).
    pub(super) fn other_graphing_screen(
        &mut self,
        hw: &mut Hardware,
        second: bool,
        k: Key,
        own: (bool, Key),
    ) -> bool {
        let shift = if second { Shift::Second } else { Shift::None };
        if !graphing::opens_graphing_screen(shift, k) {
            return false;
        }
        (second, k) != own && self.graphing_key(hw, second, k)
    }

    /// ► on WINDOW, or 2nd FORMAT: the FORMAT screen.
    pub(super) fn open_format(&mut self) {
        self.shell = Shell::Format(FormatCursor::open());
        self.indicator = 0;
        self.st.dirty = true;
    }

    pub(super) fn key_format(&mut self, hw: &mut Hardware, k: Key, mut cursor: FormatCursor) {
        let Some(second) = self.after_second(k) else {
            return;
        };
        if self.other_graphing_screen(hw, second, k, (true, Key::Zoom)) {
            return;
        }
        let action = cursor.key(k, second, &mut self.st.modes);
        self.shell = Shell::Format(cursor);
        self.indicator = 0;
        self.st.dirty = true;
        match action {
            FormatAction::None => {}
            // The next graph is drawn with the new setting.
            FormatAction::Changed => self.st.graph_dirty = true,
            FormatAction::Window => self.open_window(hw),
            FormatAction::Graph => self.open_graph(hw, false),
            FormatAction::Trace => self.open_graph(hw, true),
            FormatAction::Quit => self.go_home_screen(),
        }
    }
}
