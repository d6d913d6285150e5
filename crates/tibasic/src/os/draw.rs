//! The drawing commands whose arguments are functions of X: `DrawF`, `DrawInv`, `Shade(` and
//! `Tangent(`. Each evaluates its expression at every pixel column's X, as the TI-82 graphs
//! a function (spec §6.2: column c stands for X = Xmin + c·ΔX, and a point's row is
//! (Ymax − Y)/ΔY rounded). A column where the expression has no value (a domain error, a
//! division by zero, an overflow) is skipped and breaks the curve there, as graphs skip
//! such points; other errors stop the command. X is restored afterwards [I].

use super::*;
use crate::ast::Expr;
use crate::eval::eval;

/// Graph columns (spec §6.2: 95 plotting positions across).
const COLUMNS: i64 = 95;

impl Os<'_> {
    pub(super) fn draw_function_command(
        &mut self,
        tok: u8,
        args: &[Expr],
    ) -> Result<(), ErrorKind> {
        self.regraph_if_dirty()?;
        let x_saved = self.real(X).ok();
        let r = self.draw(tok, args);
        if let Some(x) = x_saved {
            self.set_real(X, x)?;
        }
        r?;
        self.show_graph();
        Ok(())
    }

    fn draw(&mut self, tok: u8, args: &[Expr]) -> Result<(), ErrorKind> {
        match (tok, args) {
            (DRAW_F, [f]) => self.draw_curve(f, false),
            (DRAW_INV, [f]) => self.draw_curve(f, true),
            (TANGENT, [f, at]) => {
                let a = eval(self, at)?.real()?;
                self.tangent(f, a)
            }
            (SHADE, [lower, upper, rest @ ..]) if rest.len() <= 4 => {
                let mut opt = Vec::with_capacity(rest.len());
                for e in rest {
                    opt.push(eval(self, e)?.real()?);
                }
                self.shade(lower, upper, &opt)
            }
            _ => Err(ErrorKind::Argument),
        }
    }

    /// X of pixel column `c` (for TRACE).
    pub(super) fn trace_x(&self, c: i64) -> Result<Real, ErrorKind> {
        self.column_x(c)
    }

    /// X of pixel column `c`.
    fn column_x(&self, c: i64) -> Result<Real, ErrorKind> {
        let xmin = self.window_get(XMIN);
        let dx = self.window_get(DELTA_X);
        xmin.add(dx.mul(Real::from_i64(c)).map_err(crate::eval::math)?)
            .map_err(crate::eval::math)
    }

    /// The expression's value at `x`: `None` where it has none (skipped), an error for
    /// anything else wrong with it.
    fn value_at(&mut self, f: &Expr, x: Real) -> Result<Option<Real>, ErrorKind> {
        self.set_real(X, x)?;
        match eval(self, f) {
            Ok(Value::Real(y)) => Ok(Some(y)),
            Ok(_) => Err(ErrorKind::DataType),
            Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `DrawF f` (or `DrawInv f`, each point (f(X), X)): the points of neighbouring columns
    /// joined by lines in Connected mode, alone in Dot mode.
    fn draw_curve(&mut self, f: &Expr, inverse: bool) -> Result<(), ErrorKind> {
        let mut prev: Option<(i64, i64)> = None;
        for c in 0..COLUMNS {
            let x = self.column_x(c)?;
            let Some(y) = self.value_at(f, x)? else {
                prev = None;
                continue;
            };
            let p = if inverse {
                self.to_pixel(y, x)
            } else {
                self.to_pixel(x, y)
            };
            self.plot_to(prev, p);
            prev = Some(p);
        }
        Ok(())
    }

    /// A point of a curve: joined to the previous one in Connected mode, alone in Dot mode
    /// (or when the curve broke before it).
    pub(super) fn plot_to(&mut self, prev: Option<(i64, i64)>, p: (i64, i64)) {
        let plot = screen::plot_mut(self.hw.mem.ram_mut());
        let n = match prev {
            Some(q) if !self.st.modes.dot => screen::line(plot, q, p, Ink::On),
            _ => {
                screen::pixel(plot, p.0, p.1, Ink::On);
                1
            }
        };
        self.charge(cost::LINE_PIXEL * u64::from(n));
    }

    /// `Tangent(f, a)`: the line through (a, f(a)) with f's slope there, by the symmetric
    /// difference with ε = 1E-3 (as `nDeriv(`), across the window.
    fn tangent(&mut self, f: &Expr, a: Real) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let eps = Real::new(false, 1, -3).map_err(m)?;
        let (Some(fa), Some(fp), Some(fm)) = (
            self.value_at(f, a)?,
            self.value_at(f, a.add(eps).map_err(m)?)?,
            self.value_at(f, a.sub(eps).map_err(m)?)?,
        ) else {
            return Err(ErrorKind::Domain);
        };
        let slope = fp
            .sub(fm)
            .map_err(m)?
            .div(eps.add(eps).map_err(m)?)
            .map_err(m)?;
        let y_at = |x: Real| -> Result<Real, ErrorKind> {
            fa.add(slope.mul(x.sub(a).map_err(m)?).map_err(m)?)
                .map_err(m)
        };
        let (x0, x1) = (self.column_x(0)?, self.column_x(COLUMNS - 1)?);
        let (p0, p1) = (self.to_pixel(x0, y_at(x0)?), self.to_pixel(x1, y_at(x1)?));
        let n = screen::line(screen::plot_mut(self.hw.mem.ram_mut()), p0, p1, Ink::On);
        self.charge(cost::LINE_PIXEL * u64::from(n));
        Ok(())
    }

    /// `Shade(lower, upper[, Xleft, Xright, pattern, patres])`: in every column between
    /// Xleft and Xright (the window's edges by default) where lower < upper, the pixels
    /// between the two curves. `pattern` 1 shades in vertical lines, 2 horizontal, 3 and 4
    /// diagonal (negative and positive slope); `patres` 1-8 keeps every patres-th line (1,
    /// solid, by default). Where each pattern's lines fall on the pixel grid is [I].
    fn shade(&mut self, lower: &Expr, upper: &Expr, opt: &[Real]) -> Result<(), ErrorKind> {
        let left = match opt.first() {
            Some(&x) => x,
            None => self.column_x(0)?,
        };
        let right = match opt.get(1) {
            Some(&x) => x,
            None => self.column_x(COLUMNS - 1)?,
        };
        let pattern = opt.get(2).map_or(Ok(1), |&p| int_arg(p, 1, 4))?;
        let res = opt.get(3).map_or(Ok(1), |&p| int_arg(p, 1, 8))?;
        let mut n = 0u64;
        for c in 0..COLUMNS {
            let x = self.column_x(c)?;
            if x < left || x > right {
                continue;
            }
            let (Some(lo), Some(hi)) = (self.value_at(lower, x)?, self.value_at(upper, x)?) else {
                continue;
            };
            if lo >= hi {
                continue;
            }
            let (top, _) = self.to_pixel(x, hi);
            let (bottom, _) = self.to_pixel(x, lo);
            let last = self.graph_last_row();
            let plot = screen::plot_mut(self.hw.mem.ram_mut());
            for r in top.max(0)..=bottom.min(last) {
                let on = match pattern {
                    1 => c % res == 0,
                    2 => r % res == 0,
                    3 => (r + c) % res == 0,
                    _ => (r - c).rem_euclid(res) == 0,
                };
                if on {
                    screen::pixel(plot, r, c, Ink::On);
                    n += 1;
                }
            }
        }
        self.charge(cost::LINE_PIXEL * n);
        Ok(())
    }
}

/// The real variable X.
const X: u8 = b'X';
/// Window variables (second byte of `63h` tokens): Xmin and ΔX.
const XMIN: u8 = 0x0A;
const DELTA_X: u8 = 0x26;
