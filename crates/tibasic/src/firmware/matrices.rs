//! MATRX ► EDIT's effects: opening the matrix editor, resizing the matrix when its dimensions
//! are confirmed, and evaluating and storing each element typed; every change goes into the
//! VAT at once, where programs find it (the screen itself: `crate::shell::matrix`).

use super::*;
use crate::shell::matrix::{MatrixAction, MatrixEditor, VALUE_MAX};
use crate::value::Matrix;

impl BasicFirmware {
    /// Opens the editor on matrix `k` (0-4: `[A]`-`[E]`).
    pub(super) fn edit_matrix(&mut self, hw: &mut Hardware, k: u8) {
        let dims = stored_matrix(hw.mem.ram(), k).map(|m| (m.rows, m.cols));
        self.shell = Shell::Matrix(MatrixEditor::open(k, dims));
        self.st.dirty = true;
    }

    pub(super) fn key_matrix(&mut self, hw: &mut Hardware, k: Key, mut m: MatrixEditor) {
        self.st.dirty = true;
        let Some(shift) = self.take_shift(k) else {
            self.shell = Shell::Matrix(m);
            return;
        };
        let quit = shift == Shift::Second && k == Key::Mode;
        // On an element, the menus (MATH, TEST...) type into its value.
        if m.on_element() && self.open_catalog(shift, k, CatalogFrom::Matrix) {
            self.matrix = Some(m);
            return;
        }
        // A value being typed: the entry line's own keys (as on the home screen).
        if let Some(v) = &mut m.value {
            if !quit && !matches!(k, Key::Enter | Key::Clear) {
                edit_line(&mut self.shift, v, shift, k, VALUE_MAX, self.st.modes.graph);
                self.shell = Shell::Matrix(m);
                return;
            }
        }
        match (shift, k) {
            (Shift::None, Key::Second) => self.shift = Shift::Second,
            (Shift::None, Key::Alpha) => self.shift = Shift::Alpha,
            (Shift::Second, Key::Alpha) => self.shift = Shift::AlphaLock,
            _ => {}
        }
        if matches!(
            (shift, k),
            (Shift::None, Key::Second | Key::Alpha) | (Shift::Second, Key::Alpha)
        ) {
            self.shell = Shell::Matrix(m);
            return;
        }
        let typed = if matches!(k, Key::Enter | Key::Del | Key::Clear) {
            None
        } else {
            key_token(shift, k)
        };
        let action = m.key(k, shift == Shift::Second, typed);
        let name = m.name;
        self.shell = Shell::Matrix(m);
        let result = match action {
            MatrixAction::None => Ok(()),
            MatrixAction::Quit => {
                self.shell = Shell::Home;
                self.show_entry(hw);
                Ok(())
            }
            MatrixAction::Resize(rows, cols) => self.resize_matrix(hw, name, rows, cols),
            MatrixAction::Store(_, _, tokens) if tokens.is_empty() => Ok(()),
            MatrixAction::Store(r, c, tokens) => self.store_element(hw, name, r, c, &tokens),
        };
        if let Err(kind) = result {
            self.show_error(ProgramError {
                kind,
                program: Vec::new(),
                offset: 0,
            });
        }
    }

    /// New dimensions: the elements that still fit stay where they were, new ones are 0 (the
    /// Guidebook's matrix chapter); a matrix that does not fit is ERR:MEMORY.
    fn resize_matrix(
        &mut self,
        hw: &mut Hardware,
        k: u8,
        rows: usize,
        cols: usize,
    ) -> Result<(), ErrorKind> {
        let old = stored_matrix(hw.mem.ram(), k);
        let mut data = vec![Real::ZERO; rows * cols];
        if let Some(old) = &old {
            for r in 0..rows.min(old.rows) {
                for c in 0..cols.min(old.cols) {
                    data[r * cols + c] = old.data[r * old.cols + c];
                }
            }
        }
        let m = Matrix { rows, cols, data };
        let stored = Self::os(&mut self.st, hw).set_matrix(k, m);
        self.st.vat_hints.clear();
        stored
    }

    /// A typed value: evaluated (it must be a real number) and stored as element (r, c).
    fn store_element(
        &mut self,
        hw: &mut Hardware,
        k: u8,
        r: usize,
        c: usize,
        tokens: &[u8],
    ) -> Result<(), ErrorKind> {
        let value = self.eval_typed(hw, tokens)?.real()?;
        let mut m = stored_matrix(hw.mem.ram(), k).ok_or(ErrorKind::Undefined)?;
        let cell = m
            .data
            .get_mut(r * m.cols + c)
            .ok_or(ErrorKind::InvalidDim)?;
        *cell = value;
        let stored = Self::os(&mut self.st, hw).set_matrix(k, m);
        self.st.vat_hints.clear();
        stored
    }
}

/// Matrix `k` (0-4) as the VAT holds it, if defined.
pub(super) fn stored_matrix(ram: &[u8], k: u8) -> Option<Matrix> {
    let name = VarName::from_bytes(&[PREFIX_MATRIX, k]);
    match vat::read(ram, VarType::Matrix, &name).ok()?? {
        Variable {
            data: VarData::Matrix(m),
            ..
        } => Some(Matrix {
            rows: usize::from(m.rows),
            cols: usize::from(m.cols),
            data: m
                .data
                .into_iter()
                .map(|f| Real::from_bcd(f.to_bytes()).unwrap_or(Real::ZERO))
                .collect(),
        }),
        _ => None,
    }
}
