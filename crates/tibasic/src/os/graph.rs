//! The Y-variables of function mode, `Y₁`-`Y₀`: equation variables in the VAT (type 03h,
//! their tokens as a program's, the "selected" bit in the VAT entry's type byte, spec §3.4
//! and `tifiles::vat::set_selected`), their value at the current X, and the graph of the
//! selected ones, drawn column by column like `DrawF` whenever the graph is shown or drawn
//! on after something it depends on changed (the TI-82 regraphs then, and the drawings made
//! since the last graph are lost with it).

use super::*;
use crate::ast::Stmt;
use crate::parse::compile;

/// How deep Y-variables may refer to each other (`Y₁` using `Y₂`...) before ERR:MEMORY [I].
const MAX_EQUATION_DEPTH: u8 = 10;

fn name(k: u8) -> VarName {
    VarName::from_bytes(&[PREFIX_EQUATION, k])
}

impl Os<'_> {
    /// `"…"→Yₙ`: the tokens stored, the function selected (as the Y= editor leaves a
    /// function it was given) [I].
    pub(super) fn set_equation(&mut self, k: u8, tokens: Vec<u8>) -> Result<(), ErrorKind> {
        if tokens.len() > 0xFFFF - 2 {
            return Err(ErrorKind::Memory);
        }
        self.store_var(name(k), VarData::Equation(tokens))?;
        vat::set_selected(self.ram_mut(), &name(k), true).map_err(vat_err)?;
        self.st.graph_dirty = true;
        Ok(())
    }

    /// The tokens of `Yₙ` and whether it is selected; `None` if it does not exist.
    pub fn equation_tokens(&self, k: u8) -> Option<(Vec<u8>, bool)> {
        let e = vat::find(self.ram(), VarType::Equation, &name(k)).ok()??;
        let selected = e.type_byte & 0x20 != 0;
        match vat::read_value(self.ram(), &e).ok()?.data {
            VarData::Equation(t) => Some((t, selected)),
            _ => None,
        }
    }

    /// `Yₙ` evaluated at the current X. An empty or missing function is ERR:UNDEFINED [I].
    pub(super) fn equation_value(&mut self, k: u8) -> Result<Value, ErrorKind> {
        let Some((tokens, _)) = self.equation_tokens(k) else {
            return Err(ErrorKind::Undefined);
        };
        if tokens.is_empty() {
            return Err(ErrorKind::Undefined);
        }
        if self.st.equation_depth >= MAX_EQUATION_DEPTH {
            return Err(ErrorKind::Memory);
        }
        let lines = compile(&tokens);
        let [line] = lines.as_slice() else {
            return Err(ErrorKind::Syntax);
        };
        let Stmt::Expr(e) = &line.stmt else {
            return Err(ErrorKind::Syntax);
        };
        self.st.equation_depth += 1;
        let v = crate::eval::eval(self, e);
        self.st.equation_depth -= 1;
        v
    }

    /// Draws the graph again if something it depends on changed.
    pub(super) fn regraph_if_dirty(&mut self) -> Result<(), ErrorKind> {
        if self.st.graph_dirty {
            self.regraph()?;
        }
        Ok(())
    }

    /// The graph: cleared, the axes, then each selected function `Y₁`…`Y₀` in function
    /// mode. (Parametric, polar and sequence graphs are not drawn yet.)
    pub(super) fn regraph(&mut self) -> Result<(), ErrorKind> {
        self.st.graph_dirty = false;
        self.clear_plot();
        if self.st.modes.graph != 0 {
            return Ok(());
        }
        for k in 0x10..=0x19u8 {
            let Some((tokens, true)) = self.equation_tokens(k) else {
                continue;
            };
            if tokens.is_empty() {
                continue;
            }
            self.draw_function_command(DRAW_F, &[crate::ast::Expr::Equation(k)])?;
        }
        Ok(())
    }
}
