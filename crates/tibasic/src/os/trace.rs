//! TRACE in the Par, Pol and Seq graphing modes (Func mode traces by pixel column,
//! `Os::trace_point`): the cursor steps the mode's parameter, T from Tmin by Tstep, θ from
//! θmin by θstep, 𝑛 from nMin by 1, along one selected equation (the TI-82 Guidebook's
//! chapters on parametric, polar and sequence graphing). In the Web format the steps draw the
//! web: from (u₀, 0) up or down to the rule at (u₀, u₁), across to the line y = x at
//! (u₁, u₁), and so on. TRACE also steps through the points of a Scatter or xyLine stat plot
//! that is on, one point a step, in its lists' order (▲ ▼ go from the functions to the plots).

use super::*;

/// A traced point: the parameter (T, θ or 𝑛), and where the equation has a value there the
/// point and its pixel (row, column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModePoint {
    pub param: Real,
    pub point: Option<(Real, Real)>,
    pub pixel: Option<(i64, i64)>,
}

/// Most steps a trace takes [I] (as a graph's sweep).
const MOST_STEPS: i64 = 10_000;

/// What TRACE calls stat plot `n` (0-2) among the equations' token bytes: F1h-F3h, bytes no
/// equation has.
pub const fn plot_key(n: u8) -> u8 {
    0xF1 + n
}

/// The stat plot `k` names, if it names one.
pub fn plot_of(k: u8) -> Option<usize> {
    (0xF1..=0xF3).contains(&k).then(|| usize::from(k - 0xF1))
}

impl Os<'_> {
    /// What TRACE steps along in the graphing mode now: the selected pairs by their X parts
    /// (Par), the selected rₙ (Pol), the selected Uₙ and Vₙ (Seq); none in Func mode.
    pub fn traced_equations(&self) -> Vec<u8> {
        let keys: Vec<u8> = match self.st.modes.graph {
            1 => (0..6).map(|n| 0x20 + 2 * n).collect(),
            2 => (0x40..=0x45).collect(),
            3 => vec![0x80, 0x81],
            _ => Vec::new(),
        };
        keys.into_iter()
            .filter(|&k| matches!(self.equation_tokens(k), Some((t, true)) if !t.is_empty()))
            .collect()
    }

    /// The stat plots TRACE steps through: those on whose kind has points (Scatter, xyLine),
    /// as [`plot_key`]s.
    pub fn traced_plots(&self) -> Vec<u8> {
        (0..3u8)
            .filter(|&n| {
                matches!(self.st.plots[usize::from(n)], Some(p) if p.on && matches!(p.kind, SCATTER | XY_LINE))
            })
            .map(plot_key)
            .collect()
    }

    /// Plot `n`'s points: its X and Y lists, as long as the shorter [I].
    fn plot_points(&mut self, n: usize) -> Result<Vec<(Real, Real)>, ErrorKind> {
        let Some(p) = self.st.plots[n] else {
            return Ok(Vec::new());
        };
        let (xs, ys) = (self.list(p.lists[0])?, self.list(p.lists[1])?);
        Ok(xs.into_iter().zip(ys).collect())
    }

    /// The parameter's range: Tmin Tmax Tstep, θmin θmax θstep, or nMin nMax and 1.
    fn trace_range(&self) -> (Real, Real, Real) {
        let w = |k| self.window_get(k);
        match self.st.modes.graph {
            1 => (w(0x0E), w(0x0F), w(0x22)),
            2 => (w(0x10), w(0x11), w(0x23)),
            _ => (w(0x1B), w(0x1D), Real::ONE),
        }
    }

    /// The last step TRACE reaches: ⌊(max − min)/step⌋; in the Web format two steps a term
    /// from nStart to nMax (up to the rule, across to y = x) [I].
    pub fn trace_last_step(&mut self, k: u8) -> i64 {
        if let Some(n) = plot_of(k) {
            let points = self.plot_points(n).map_or(0, |p| p.len() as i64);
            return (points - 1).clamp(0, MOST_STEPS);
        }
        let (min, max, step) = self.trace_range();
        let (min, max, step) = (min.to_f64(), max.to_f64(), step.to_f64());
        let web = self.st.modes.graph == 3 && self.st.modes.web;
        let steps = if web {
            2.0 * (max - self.window_get(0x1F).to_f64())
        } else if step > 0.0 {
            ((max - min) / step + 1e-9).floor()
        } else {
            0.0
        };
        if steps.is_finite() {
            (steps as i64).clamp(0, MOST_STEPS)
        } else {
            0
        }
    }

    /// Step `step` of equation `k`'s trace: the parameter, and the point where there is one
    /// (X and Y, and T or θ, keep the point's values as the calculator's trace leaves them).
    pub fn mode_trace_point(&mut self, k: u8, step: i64) -> Result<ModePoint, ErrorKind> {
        let m = crate::eval::math;
        let step = step.clamp(0, MOST_STEPS);
        if let Some(n) = plot_of(k) {
            // A plot's point: the parameter is its number in the lists, from 1.
            let param = Real::from_i64(step + 1);
            let point = self
                .plot_points(n)?
                .get(step as usize)
                .copied()
                .ok_or(ErrorKind::Domain);
            return self.mode_point(param, point);
        }
        if self.st.modes.graph == 3 && self.st.modes.web {
            return self.web_point(k, step);
        }
        let (min, _, by) = self.trace_range();
        let param = min
            .add(by.mul(Real::from_i64(step)).map_err(m)?)
            .map_err(m)?;
        let point = match self.st.modes.graph {
            1 => {
                self.set_real(b'T', param)?;
                let (ex, ey) = (self.equation_expr(k)?, self.equation_expr(k + 1)?);
                let x = self.eval_equation(&ex).and_then(|v| v.real());
                let y = self.eval_equation(&ey).and_then(|v| v.real());
                x.and_then(|x| Ok((x, y?)))
            }
            2 => {
                self.set_real(THETA, param)?;
                let er = self.equation_expr(k)?;
                let r = self.eval_equation(&er).and_then(|v| v.real());
                let th = if self.st.modes.degrees {
                    param.to_f64().to_radians()
                } else {
                    param.to_f64()
                };
                r.and_then(|r| {
                    let r = r.to_f64();
                    let x = Real::from_f64(r * th.cos()).map_err(m)?;
                    Ok((x, Real::from_f64(r * th.sin()).map_err(m)?))
                })
            }
            _ => {
                let i = usize::from(k == 0x81);
                self.sequence_terms_at(param).map(|t| (param, t[i]))
            }
        };
        self.mode_point(param, point)
    }

    /// A parameter and its point (or why there is none) as TRACE shows them.
    fn mode_point(
        &mut self,
        param: Real,
        point: Result<(Real, Real), ErrorKind>,
    ) -> Result<ModePoint, ErrorKind> {
        match point {
            Ok((x, y)) => {
                self.set_real(b'X', x)?;
                self.set_real(b'Y', y)?;
                Ok(ModePoint {
                    param,
                    point: Some((x, y)),
                    pixel: Some(self.to_pixel(x, y)),
                })
            }
            Err(ErrorKind::Domain | ErrorKind::DivideBy0 | ErrorKind::Overflow) => Ok(ModePoint {
                param,
                point: None,
                pixel: None,
            }),
            Err(e) => Err(e),
        }
    }

    /// The Web format's step `step` along sequence `k`: 0 is (u₀, 0) on the x axis; 2j+1 is
    /// (uⱼ, uⱼ₊₁) on the rule; 2j is (uⱼ, uⱼ) on y = x. The parameter is the last term's 𝑛.
    fn web_point(&mut self, k: u8, step: i64) -> Result<ModePoint, ErrorKind> {
        let m = crate::eval::math;
        let i = usize::from(k == 0x81);
        let start = self.window_get(0x1F);
        let j = Real::from_i64(step / 2);
        let n = start.add(j).map_err(m)?;
        let here = self.sequence_terms_at(n).map(|t| t[i]);
        let (param, point) = if step == 0 {
            (n, here.map(|u| (u, Real::ZERO)))
        } else if step % 2 == 1 {
            let next = n.add(Real::ONE).map_err(m)?;
            let there = self.sequence_terms_at(next).map(|t| t[i]);
            (next, here.and_then(|u| Ok((u, there?))))
        } else {
            (n, here.map(|u| (u, u)))
        };
        self.mode_point(param, point)
    }

    /// Uₙ and Vₙ at 𝑛 = `n`, computed from nStart (UₙStart, VₙStart) as a sequence graph
    /// does; a 𝑛 before nStart or too far past it has none (ERR:DOMAIN, skipped).
    fn sequence_terms_at(&mut self, n: Real) -> Result<[Real; 2], ErrorKind> {
        let m = crate::eval::math;
        let start = self.window_get(0x1F);
        let mut terms = [self.window_get(0x04), self.window_get(0x05)];
        let count = n.sub(start).map_err(m)?.to_f64();
        if !(0.0..=MOST_STEPS as f64).contains(&count) {
            return Err(ErrorKind::Domain);
        }
        let rules = [self.equation_expr(0x80).ok(), self.equation_expr(0x81).ok()];
        let mut at = start;
        for _ in 0..count as i64 {
            at = at.add(Real::ONE).map_err(m)?;
            terms = self.next_terms(&rules, at, terms)?;
        }
        Ok(terms)
    }

    /// One segment of the web, drawn into the graph as the trace moves on.
    pub fn draw_web_segment(&mut self, from: (i64, i64), to: (i64, i64)) {
        let buf = screen::plot_mut(self.hw.mem.ram_mut());
        screen::line(buf, from, to, Ink::On);
    }
}
