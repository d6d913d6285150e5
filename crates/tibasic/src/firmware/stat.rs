//! The statistics list editor's effects (the screen: `crate::shell::stat`): what is typed
//! is evaluated like a home-screen entry and stored into the list in the VAT, where programs
//! read it.

use super::*;
use crate::shell::stat::{ListAction, ListEditor, LISTS};

impl BasicFirmware {
    /// L1-L6 as they are now (an undefined list is empty).
    pub(super) fn editor_lists(hw: &Hardware) -> [Vec<Real>; LISTS as usize] {
        std::array::from_fn(|l| read_list(hw.mem.ram(), l as u8 + 1).unwrap_or_default())
    }

    /// STAT › CALC › SetUp…: ◄ ► change the line's list at once (a statistics command
    /// without lists uses it from then on); CLEAR and 2nd QUIT go home.
    pub(super) fn key_stat_setup(&mut self, k: Key, mut c: crate::shell::statsetup::SetUpCursor) {
        use crate::shell::statsetup::SetUpAction;
        if let Some(second) = self.after_second(k) {
            let quit = second && k == Key::Mode;
            if quit || c.key(k, &mut self.st.stat_setup) == SetUpAction::Quit {
                return self.go_home_screen();
            }
            self.shell = Shell::StatSetup(c);
            self.st.dirty = true;
        }
    }

    pub(super) fn open_list_editor(&mut self) {
        self.shell = Shell::StatEdit(ListEditor::new());
        self.st.dirty = true;
    }

    pub(super) fn key_list_editor(&mut self, hw: &mut Hardware, k: Key, mut ed: ListEditor) {
        let shift = std::mem::take(&mut self.shift);
        match (shift, k) {
            (Shift::None, Key::Second) => {
                self.shift = Shift::Second;
                return;
            }
            (Shift::None, Key::Alpha) => {
                self.shift = Shift::Alpha;
                return;
            }
            // The token menus type into the value on an element (STAT itself is its own).
            (shift, k) if ed.row > 0 && Self::typing_menu(shift, k) => {
                return self.open_menu_over(shift, k, Shell::StatEdit(ed));
            }
            _ => {}
        }
        let lists = Self::editor_lists(hw);
        let lens: [usize; LISTS as usize] = std::array::from_fn(|l| lists[l].len());
        let action = ed.key(k, shift == Shift::Second, key_token(shift, k), &lens);
        self.st.dirty = true;
        let result = match action {
            ListAction::None => Ok(()),
            ListAction::Quit => return self.go_home_screen(),
            ListAction::Store { list, row, tokens } => self
                .eval_typed(hw, &tokens)
                .and_then(|v| match v {
                    Value::Real(r) => Ok(r),
                    _ => Err(ErrorKind::DataType),
                })
                .and_then(|r| {
                    let mut l = lists[usize::from(list)].clone();
                    match l.get_mut(row - 1) {
                        Some(slot) => *slot = r,
                        None => l.push(r),
                    }
                    let n = l.len();
                    self.set_editor_list(hw, list, l)?;
                    ed.stored(n);
                    Ok(())
                }),
            ListAction::Delete { list, row } => {
                let mut l = lists[usize::from(list)].clone();
                l.remove(row - 1);
                let n = l.len();
                let r = self.set_editor_list(hw, list, l);
                ed.clamp(n);
                r
            }
            ListAction::Insert { list, row } => {
                let mut l = lists[usize::from(list)].clone();
                l.insert(row - 1, Real::ZERO);
                self.set_editor_list(hw, list, l)
            }
            ListAction::Clear { list } => self.set_editor_list(hw, list, Vec::new()),
        };
        self.shell = Shell::StatEdit(ed);
        if let Err(kind) = result {
            // The error screen; either choice goes back to the home screen [I].
            self.screen_error(kind);
        }
    }

    fn set_editor_list(
        &mut self,
        hw: &mut Hardware,
        list: u8,
        l: Vec<Real>,
    ) -> Result<(), ErrorKind> {
        let mut os = Self::os(&mut self.st, hw);
        os.set_list(list, l)
    }
}
