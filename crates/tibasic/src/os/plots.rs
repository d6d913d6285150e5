//! Stat plots: `Plot1(`-`Plot3(` define and turn on a scatter plot, an xyLine, a histogram
//! or a box plot of the lists they name; `PlotsOn`/`PlotsOff` turn them on and off; the
//! graph draws the plots that are on (before the functions); `ZoomStat` fits the window to
//! their data. Where each is drawn follows the window (spec §6.2); what the TI-82 Guidebook
//! does not pin down is marked [I] in `docs/tibasic.md`, "Stat plots".

use super::*;

/// One stat plot's settings (the TI-82 keeps them in system RAM; here in the saved state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatPlot {
    pub on: bool,
    /// `Scatter`, `xyLine`, `Histogram` or `Boxplot` (their tokens).
    pub kind: u8,
    /// The X list (0 = L1), and the Y list or the frequency list (255: none).
    pub lists: [u8; 2],
    /// `□`, `+` or `·` (their tokens).
    pub mark: u8,
}

impl StatPlot {
    pub fn valid(&self) -> bool {
        matches!(self.kind, SCATTER | XY_LINE | HISTOGRAM | BOXPLOT)
            && self.lists[0] <= 5
            && (self.lists[1] <= 5 || self.lists[1] == 255)
            && matches!(self.mark, MARK_BOX | MARK_CROSS | MARK_DOT)
    }
}

impl Os<'_> {
    pub(super) fn define_plot(&mut self, n: u8, kind: u8, lists: [u8; 2], mark: u8) {
        if let Some(slot) = self.st.plots.get_mut(usize::from(n)) {
            *slot = Some(StatPlot {
                on: true,
                kind,
                lists,
                mark,
            });
            self.st.graph_dirty = true;
        }
    }

    /// `PlotsOn`/`PlotsOff` with plot numbers 1-3, or none for all.
    pub(super) fn plots_on_off(&mut self, on: bool, args: &[Value]) -> Result<(), ErrorKind> {
        let mut which = Vec::new();
        for a in args {
            which.push(int_arg(a.real()?, 1, 3)? as usize - 1);
        }
        if args.is_empty() {
            which = vec![0, 1, 2];
        }
        for i in which {
            if let Some(p) = &mut self.st.plots[i] {
                p.on = on;
            }
        }
        self.st.graph_dirty = true;
        Ok(())
    }

    /// A plot's points: (x, y) for Scatter and xyLine; (x, frequency) for the others.
    fn plot_data(&mut self, p: &StatPlot) -> Result<Vec<(Real, Real)>, ErrorKind> {
        let x = self.list(p.lists[0])?;
        let y = match p.lists[1] {
            255 => vec![Real::ONE; x.len()],
            k => self.list(k)?,
        };
        if x.len() != y.len() {
            return Err(ErrorKind::DimMismatch);
        }
        Ok(x.into_iter().zip(y).collect())
    }

    /// The plots that are on, drawn on the graph.
    pub(super) fn draw_plots(&mut self) -> Result<(), ErrorKind> {
        for (n, p) in self.st.plots.into_iter().enumerate() {
            let Some(p) = p.filter(|p| p.on) else {
                continue;
            };
            let data = self.plot_data(&p)?;
            match p.kind {
                SCATTER | XY_LINE => {
                    let mut prev = None;
                    for &(x, y) in &data {
                        let at = self.to_pixel(x, y);
                        self.mark(at, p.mark);
                        if p.kind == XY_LINE {
                            if let Some(q) = prev {
                                let buf = screen::plot_mut(self.hw.mem.ram_mut());
                                screen::line(buf, q, at, Ink::On);
                            }
                            prev = Some(at);
                        }
                    }
                }
                HISTOGRAM => self.histogram(&data)?,
                _ => self.boxplot(n, &data)?,
            }
        }
        Ok(())
    }

    /// A mark centred on `at`: `·` one pixel, `+` a cross of five, `□` the eight pixels
    /// around the point [83].
    fn mark(&mut self, (r, c): (i64, i64), mark: u8) {
        let buf = screen::plot_mut(self.hw.mem.ram_mut());
        let cells: &[(i64, i64)] = match mark {
            MARK_DOT => &[(0, 0)],
            MARK_CROSS => &[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)],
            _ => &[
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ],
        };
        for (dr, dc) in cells {
            screen::pixel(buf, r + dr, c + dc, Ink::On);
        }
        self.charge(cost::PT);
    }

    /// Bars Xscl wide from Xmin: bar i counts the points (times their frequencies) with
    /// Xmin + i·Xscl ≤ x < Xmin + (i+1)·Xscl, drawn as its outline from y = 0 up to the count.
    fn histogram(&mut self, data: &[(Real, Real)]) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let xmin = self.window_get(0x0A);
        let xscl = self.window_get(0x02);
        if xscl <= Real::ZERO {
            return Err(ErrorKind::WindowRange);
        }
        let mut bins: Vec<(i64, Real)> = Vec::new();
        for &(x, f) in data {
            let i = x
                .sub(xmin)
                .and_then(|d| d.div(xscl))
                .map_err(m)?
                .to_f64()
                .floor();
            if !(-1e4..1e4).contains(&i) {
                continue;
            }
            let i = i as i64;
            match bins.iter_mut().find(|(b, _)| *b == i) {
                Some(slot) => slot.1 = slot.1.add(f).map_err(m)?,
                None => bins.push((i, f)),
            }
        }
        for (i, count) in bins {
            let x0 = xmin
                .add(xscl.mul(Real::from_i64(i)).map_err(m)?)
                .map_err(m)?;
            let x1 = x0.add(xscl).map_err(m)?;
            let (a, b) = (self.to_pixel(x0, Real::ZERO), self.to_pixel(x1, Real::ZERO));
            let (c, d) = (self.to_pixel(x0, count), self.to_pixel(x1, count));
            let buf = screen::plot_mut(self.hw.mem.ram_mut());
            screen::line(buf, a, c, Ink::On);
            screen::line(buf, c, d, Ink::On);
            screen::line(buf, d, b, Ink::On);
        }
        Ok(())
    }

    /// A box from Q1 to Q3 with a line at the median, whiskers out to minX and maxX, in a
    /// band of the screen's top: rows 2-8 for Plot1, 12-18 for Plot2, 22-28 for Plot3 [I].
    fn boxplot(&mut self, n: usize, data: &[(Real, Real)]) -> Result<(), ErrorKind> {
        let (x, f): (Vec<Real>, Vec<Real>) = data.iter().copied().unzip();
        let r = crate::stats::one_var(x, Some(f))?;
        let get = |k| {
            r.vars
                .iter()
                .find(|(v, _)| *v == k)
                .map_or(Real::ZERO, |(_, v)| *v)
        };
        let col = |os: &Self, v: Real| os.to_pixel(v, Real::ZERO).1;
        let (lo, q1, med, q3, hi) = (
            col(self, get(crate::stats::MIN_X)),
            col(self, get(crate::stats::Q1)),
            col(self, get(crate::stats::MED)),
            col(self, get(crate::stats::Q3)),
            col(self, get(crate::stats::MAX_X)),
        );
        let top = 2 + 10 * n as i64;
        let (mid, bottom) = (top + 3, top + 6);
        let buf = screen::plot_mut(self.hw.mem.ram_mut());
        screen::line(buf, (mid, lo), (mid, q1), Ink::On);
        screen::line(buf, (mid, q3), (mid, hi), Ink::On);
        screen::line(buf, (top, q1), (top, q3), Ink::On);
        screen::line(buf, (bottom, q1), (bottom, q3), Ink::On);
        for c in [q1, med, q3] {
            screen::line(buf, (top, c), (bottom, c), Ink::On);
        }
        Ok(())
    }

    /// `ZoomStat`: the window fitted to the data of the plots that are on: X (and Y for
    /// scatter plots and xyLines) from the smallest to the largest value, widened by a tenth
    /// of the range each side [I]; a histogram's Y from 0 to its tallest bar plus a quarter.
    pub(super) fn zoom_stat_window(&mut self) -> Result<Option<[Real; 6]>, ErrorKind> {
        let m = crate::eval::math;
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        let mut counts = false;
        for p in self.st.plots.into_iter().flatten().filter(|p| p.on) {
            let data = self.plot_data(&p)?;
            xs.extend(data.iter().map(|d| d.0));
            match p.kind {
                SCATTER | XY_LINE => ys.extend(data.iter().map(|d| d.1)),
                HISTOGRAM => counts = true,
                _ => {}
            }
        }
        let (Some(&xmin), Some(&xmax)) = (xs.iter().min(), xs.iter().max()) else {
            return Ok(None);
        };
        let widen = |lo: Real, hi: Real| -> Result<(Real, Real), ErrorKind> {
            let mut pad = hi
                .sub(lo)
                .and_then(|d| d.div(Real::from_i64(10)))
                .map_err(m)?;
            if pad.is_zero() {
                pad = Real::ONE;
            }
            Ok((lo.sub(pad).map_err(m)?, hi.add(pad).map_err(m)?))
        };
        let (x0, x1) = widen(xmin, xmax)?;
        let mut w = [
            x0,
            x1,
            self.window_get(0x02),
            self.window_get(0x0C),
            self.window_get(0x0D),
            self.window_get(0x03),
        ];
        if let (Some(&ymin), Some(&ymax)) = (ys.iter().min(), ys.iter().max()) {
            let (y0, y1) = widen(ymin, ymax)?;
            w[3] = y0;
            w[4] = y1;
        } else if counts {
            w[3] = Real::ZERO;
            w[4] = Real::from_i64(xs.len() as i64);
        }
        Ok(Some(w))
    }
}
