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
        equation_in(self.ram(), k)
    }

    /// Selects or deselects `Yₙ` (the Y= editor's `=`); the graph is to be drawn again.
    pub fn select_equation(&mut self, k: u8, on: bool) -> Result<(), ErrorKind> {
        vat::set_selected(self.ram_mut(), &name(k), on).map_err(vat_err)?;
        self.st.graph_dirty = true;
        Ok(())
    }

    /// The Y= editor leaving a function: its tokens stored if they changed (a new function
    /// is selected, an emptied one deselected [I]).
    pub fn edit_equation(&mut self, k: u8, tokens: &[u8]) -> Result<(), ErrorKind> {
        let old = self.equation_tokens(k);
        if old.as_ref().map(|(t, _)| t.as_slice()) == Some(tokens) {
            return Ok(());
        }
        if old.is_none() && tokens.is_empty() {
            return Ok(());
        }
        let selected = old.as_ref().is_none_or(|(t, sel)| *sel || t.is_empty());
        self.set_equation(k, tokens.to_vec())?;
        self.select_equation(k, selected && !tokens.is_empty())
    }

    /// The graph as it should be now (drawn again if something it depends on changed), and
    /// shown.
    pub fn graph_now(&mut self) -> Result<(), ErrorKind> {
        self.regraph_if_dirty()?;
        self.show_graph();
        Ok(())
    }

    /// TRACE on `Yₙ` at pixel column `c`: X (and the variable X) at that column, Y (and the
    /// variable Y) the function's value there if it has one, and the point's pixel row.
    pub fn trace_point(
        &mut self,
        k: u8,
        c: i64,
    ) -> Result<(Real, Option<Real>, Option<i64>), ErrorKind> {
        let x = self.trace_x(c)?;
        self.set_real(b'X', x)?;
        let y = match self.equation_value(k) {
            Ok(Value::Real(y)) => Some(y),
            Ok(_) => return Err(ErrorKind::DataType),
            Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => None,
            Err(e) => return Err(e),
        };
        if let Some(y) = y {
            self.set_real(b'Y', y)?;
        }
        let row = y.map(|y| self.to_pixel(x, y).0);
        Ok((x, y, row))
    }

    /// `Yₙ` evaluated at the current X. An empty or missing function is ERR:UNDEFINED [I].
    pub(super) fn equation_value(&mut self, k: u8) -> Result<Value, ErrorKind> {
        let e = self.equation_expr(k)?;
        self.eval_equation(&e)
    }

    /// `Yₙ`'s expression, compiled (a graph compiles each function once, not per point).
    /// An empty or missing function is ERR:UNDEFINED [I].
    pub(super) fn equation_expr(&self, k: u8) -> Result<crate::ast::Expr, ErrorKind> {
        let Some((tokens, _)) = self.equation_tokens(k) else {
            return Err(ErrorKind::Undefined);
        };
        if tokens.is_empty() {
            return Err(ErrorKind::Undefined);
        }
        let mut lines = compile(&tokens);
        match lines.pop() {
            Some(crate::ast::Line {
                stmt: Stmt::Expr(e),
                ..
            }) if lines.is_empty() => Ok(e),
            _ => Err(ErrorKind::Syntax),
        }
    }

    /// A compiled Y-variable evaluated, one level deeper (a function using itself stops
    /// with ERR:MEMORY).
    pub(super) fn eval_equation(&mut self, e: &crate::ast::Expr) -> Result<Value, ErrorKind> {
        if self.st.equation_depth >= MAX_EQUATION_DEPTH {
            return Err(ErrorKind::Memory);
        }
        self.st.equation_depth += 1;
        let v = crate::eval::eval(self, e);
        self.st.equation_depth -= 1;
        v
    }

    /// The table from row `first` (X = TblMin + row·ΔTbl): two selected functions' values
    /// from the `fn_first`th on, `None` where one has none.
    pub fn table_data(
        &mut self,
        first: i64,
        fn_first: usize,
    ) -> Result<crate::table::TableData, ErrorKind> {
        use crate::table::{TableData, FUNCTION_COLUMNS, ROWS};
        let m = crate::eval::math;
        let first = first.clamp(-1_000_000, 1_000_000);
        let functions: Vec<u8> = (0x10..=0x19u8)
            .filter(|&k| matches!(self.equation_tokens(k), Some((t, true)) if !t.is_empty()))
            .skip(fn_first)
            .take(FUNCTION_COLUMNS)
            .collect();
        let (min, step) = (self.window_get(0x1A), self.window_get(0x21));
        let ask = self.st.modes.indpnt_ask;
        let asked = self.st.tbl_input.clone();
        let exprs: Vec<crate::ast::Expr> = functions
            .iter()
            .map(|&k| self.equation_expr(k))
            .collect::<Result<_, _>>()?;
        let x_saved = self.real(b'X').ok();
        let mut xs = Vec::with_capacity(ROWS);
        let mut ys = Vec::with_capacity(ROWS);
        for i in 0..ROWS as i64 {
            // IndpntAsk: the rows are TblInput's values, as many as there are.
            let x = if ask {
                match usize::try_from(first + i).ok().and_then(|j| asked.get(j)) {
                    Some(&x) => x,
                    None => break,
                }
            } else {
                min.add(step.mul(Real::from_i64(first + i)).map_err(m)?)
                    .map_err(m)?
            };
            self.set_real(b'X', x)?;
            let mut row = Vec::with_capacity(functions.len());
            for e in &exprs {
                row.push(match self.eval_equation(e) {
                    Ok(Value::Real(y)) => Some(y),
                    Ok(_) => return Err(ErrorKind::DataType),
                    Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => None,
                    Err(e) => return Err(e),
                });
            }
            xs.push(x);
            ys.push(row);
        }
        if let Some(x) = x_saved {
            self.set_real(b'X', x)?;
        }
        Ok(TableData {
            first,
            functions,
            xs,
            ys,
        })
    }

    /// Param mode: each selected pair `Xₙᴛ`, `Yₙᴛ` (selected by its X part [I]) traced from
    /// Tmin to Tmax in steps of Tstep, the points joined in Connected mode.
    fn graph_parametric(&mut self) -> Result<(), ErrorKind> {
        for n in 0..6u8 {
            let (kx, ky) = (0x20 + 2 * n, 0x21 + 2 * n);
            if !matches!(self.equation_tokens(kx), Some((t, true)) if !t.is_empty()) {
                continue;
            }
            let (min, max, step) = (
                self.window_get(0x0E),
                self.window_get(0x0F),
                self.window_get(0x22),
            );
            let (ex, ey) = (self.equation_expr(kx)?, self.equation_expr(ky)?);
            self.sweep(b'T', min, max, step, |os| {
                let x = os.eval_equation(&ex)?.real()?;
                let y = os.eval_equation(&ey)?.real()?;
                Ok((x.to_f64(), y.to_f64()))
            })?;
        }
        Ok(())
    }

    /// Seq mode (Time): Uₙ and Vₙ computed together from 𝑛 = nStart (UₙStart, VₙStart) up
    /// to nMax, each selected one plotted at (𝑛, term) from nMin on. At most 10 000 terms
    /// [I]. (The Web format is not drawn.)
    fn graph_sequences(&mut self) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let funcs: Vec<(usize, u8)> = [(0usize, 0x80u8), (1, 0x81)]
            .into_iter()
            .filter(|&(_, k)| matches!(self.equation_tokens(k), Some((t, true)) if !t.is_empty()))
            .collect();
        if funcs.is_empty() {
            return Ok(());
        }
        let (start, min, max) = (
            self.window_get(0x1F),
            self.window_get(0x1B),
            self.window_get(0x1D),
        );
        let first = [self.window_get(0x04), self.window_get(0x05)];
        if max < start || max.sub(start).map_err(m)?.to_f64() > 10_000.0 {
            return Err(ErrorKind::WindowRange);
        }
        // Each rule compiled once (a sequence that is not defined keeps its start value).
        let rules = [self.equation_expr(0x80).ok(), self.equation_expr(0x81).ok()];
        let mut terms = first;
        let mut prev_pixel: [Option<(i64, i64)>; 2] = [None, None];
        let mut n = start;
        while n <= max {
            if n > start {
                terms = self.next_terms(&rules, n, terms)?;
            }
            if n >= min {
                for &(i, _) in &funcs {
                    let p = self.to_pixel(n, terms[i]);
                    self.plot_to(prev_pixel[i], p);
                    prev_pixel[i] = Some(p);
                }
            }
            n = n.add(Real::ONE).map_err(m)?;
        }
        Ok(())
    }

    /// Uₙ and Vₙ at 𝑛 = `n` from the terms before it (`prev`), by their rules (a sequence
    /// without one keeps its term); 𝑛, Uₙ₋₁ and Vₙ₋₁ are defined only meanwhile.
    pub(super) fn next_terms(
        &mut self,
        rules: &[Option<crate::ast::Expr>; 2],
        n: Real,
        prev: [Real; 2],
    ) -> Result<[Real; 2], ErrorKind> {
        self.st.sequence = Some(SequenceStep { n, prev });
        let mut next = prev;
        let mut result = Ok(());
        for (slot, rule) in next.iter_mut().zip(rules) {
            if let Some(rule) = rule {
                match self.eval_equation(rule).and_then(|v| v.real()) {
                    Ok(v) => *slot = v,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
        }
        self.st.sequence = None;
        result.map(|()| next)
    }

    /// Seq mode, Web format: the line y = x and each selected sequence's rule as a curve,
    /// y = f(x) with Uₙ₋₁ = Vₙ₋₁ = x and 𝑛 = nStart + 1 [I], across the window's columns. (The
    /// web itself is drawn by tracing on the calculator: not built.)
    fn graph_webs(&mut self) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let n = self.window_get(0x1F).add(Real::ONE).map_err(m)?;
        let rules: Vec<(usize, crate::ast::Expr)> = [0x80u8, 0x81]
            .into_iter()
            .enumerate()
            .filter(|&(_, k)| matches!(self.equation_tokens(k), Some((t, true)) if !t.is_empty()))
            .map(|(i, k)| Ok((i, self.equation_expr(k)?)))
            .collect::<Result<_, ErrorKind>>()?;
        let mut diagonal = None;
        let mut curves: [Option<(i64, i64)>; 2] = [None, None];
        for c in 0..95 {
            let x = self.trace_x(c)?;
            let p = self.to_pixel(x, x);
            let buf = screen::plot_mut(self.hw.mem.ram_mut());
            match diagonal {
                Some(q) => {
                    screen::line(buf, q, p, Ink::On);
                }
                None => screen::pixel(buf, p.0, p.1, Ink::On),
            }
            diagonal = Some(p);
            for (i, rule) in &rules {
                self.st.sequence = Some(SequenceStep { n, prev: [x, x] });
                let y = self.eval_equation(rule).and_then(|v| v.real());
                self.st.sequence = None;
                let i = *i;
                match y {
                    Ok(y) => {
                        let p = self.to_pixel(x, y);
                        self.plot_to(curves[i], p);
                        curves[i] = Some(p);
                    }
                    Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => {
                        curves[i] = None
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Pol mode: each selected `rₙ` from θmin to θmax in steps of θstep, at (r cos θ, r sin θ)
    /// with θ in the angle mode's unit.
    fn graph_polar(&mut self) -> Result<(), ErrorKind> {
        for k in 0x40..=0x45u8 {
            if !matches!(self.equation_tokens(k), Some((t, true)) if !t.is_empty()) {
                continue;
            }
            let (min, max, step) = (
                self.window_get(0x10),
                self.window_get(0x11),
                self.window_get(0x23),
            );
            let degrees = self.st.modes.degrees;
            let er = self.equation_expr(k)?;
            self.sweep(THETA, min, max, step, |os| {
                let r = os.eval_equation(&er)?.real()?.to_f64();
                let th = os.real(THETA)?.to_f64();
                let th = if degrees { th.to_radians() } else { th };
                Ok((r * th.cos(), r * th.sin()))
            })?;
        }
        Ok(())
    }

    /// Steps variable `var` from `min` to `max` by `step` (at most 10 000 points [I]),
    /// plotting `point` at each; a step without a value breaks the curve. The variable keeps
    /// its value.
    fn sweep(
        &mut self,
        var: u8,
        min: Real,
        max: Real,
        step: Real,
        mut point: impl FnMut(&mut Self) -> Result<(f64, f64), ErrorKind>,
    ) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        if step <= Real::ZERO || max < min {
            return Err(ErrorKind::WindowRange);
        }
        let saved = self.real(var).ok();
        let mut prev: Option<(i64, i64)> = None;
        let mut i = 0i64;
        let result = loop {
            let v = match min.add(step.mul(Real::from_i64(i)).map_err(m)?) {
                Ok(v) => v,
                Err(e) => break Err(m(e)),
            };
            if v > max || i > 10_000 {
                break Ok(());
            }
            self.set_real(var, v)?;
            match point(self) {
                Ok((x, y)) => {
                    let p = match (Real::from_f64(x), Real::from_f64(y)) {
                        (Ok(x), Ok(y)) => self.to_pixel(x, y),
                        _ => {
                            prev = None;
                            i += 1;
                            continue;
                        }
                    };
                    self.plot_to(prev, p);
                    prev = Some(p);
                }
                Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => prev = None,
                Err(e) => break Err(e),
            }
            i += 1;
        };
        if let Some(v) = saved {
            self.set_real(var, v)?;
        }
        result
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
        // (ΔY follows Split mode, which a backup or the MODE screen may have changed.)
        self.update_deltas()?;
        self.clear_plot();
        self.draw_plots()?;
        match self.st.modes.graph {
            1 => return self.graph_parametric(),
            2 => return self.graph_polar(),
            3 if self.st.modes.web => return self.graph_webs(),
            3 => return self.graph_sequences(),
            _ => {}
        }
        for k in 0x10..=0x19u8 {
            let Some((tokens, true)) = self.equation_tokens(k) else {
                continue;
            };
            if tokens.is_empty() {
                continue;
            }
            // Compiled once for the 95 columns.
            let e = self.equation_expr(k)?;
            self.draw_function_command(DRAW_F, &[e])?;
        }
        Ok(())
    }
}

/// The tokens of `Yₙ` in `ram` and whether it is selected; `None` if it does not exist.
pub fn equation_in(ram: &[u8], k: u8) -> Option<(Vec<u8>, bool)> {
    let e = vat::find(ram, VarType::Equation, &name(k)).ok()??;
    let selected = e.type_byte & 0x20 != 0;
    match vat::read_value(ram, &e).ok()?.data {
        VarData::Equation(t) => Some((t, selected)),
        _ => None,
    }
}
