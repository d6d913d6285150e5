//! The window variables the spec gives no RAM address for (the parametric, polar and
//! sequence ranges, the table set-up, the zoom memory and factors), and the zooms that need
//! no cursor: `ZTrig`, `ZDecimal`, `ZSquare`, `ZPrevious`, `ZoomSto`, `ZoomRcl`.
//! `Xmin`…`Yscl`, ΔX and ΔY live in RAM at their OS addresses (`WINDOW_RAM`); these live in
//! the runtime's saved state [I].

use super::*;

/// π·2 and π/24 in 14 digits (the TI-82's defaults for Tmax, θmax and Tstep, θstep).
fn two_pi() -> Real {
    Real::new(false, 62_831_853_071_796, -13).unwrap_or(Real::ZERO)
}

fn pi_24() -> Real {
    Real::new(false, 13_089_969_389_957, -14).unwrap_or(Real::ZERO)
}

/// The variables kept here (token second byte) and their values after a reset: the TI-82
/// Guidebook's defaults as the TI-83 family keeps them too [I].
pub fn default_value(k: u8) -> Option<Real> {
    let int = Real::from_i64;
    Some(match k {
        0x00 | 0x01 => int(1),                          // ZXscl, ZYscl
        0x04 | 0x05 | 0x08 | 0x09 => Real::ZERO,        // UnStart … ZVnStart
        0x0E | 0x10 | 0x16 | 0x18 => Real::ZERO,        // Tmin, θmin, Zθmin, ZTmin
        0x0F | 0x11 | 0x17 | 0x19 => two_pi(),          // Tmax, θmax, Zθmax, ZTmax
        0x12 | 0x14 => int(-10),                        // ZXmin, ZYmin
        0x13 | 0x15 => int(10),                         // ZXmax, ZYmax
        0x1A | 0x1B | 0x1C | 0x1F | 0x20 => Real::ZERO, // TblMin, nMin, ZnMin, nStart, ZnStart
        0x1D | 0x1E => int(10),                         // nMax, ZnMax
        0x21 => int(1),                                 // ΔTbl
        0x22..=0x25 => pi_24(),                         // Tstep, θstep, ZTstep, Zθstep
        0x28 | 0x29 => int(4),                          // XFact, YFact
        _ => return None,
    })
}

/// The window proper, in the order the zooms save it: Xmin Xmax Xscl Ymin Ymax Yscl.
const WINDOW: [u8; 6] = [0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03];
/// The zoom memory for each of those (ZoomSto, ZoomRcl).
const ZOOM_MEMORY: [u8; 6] = [0x12, 0x13, 0x00, 0x14, 0x15, 0x01];

impl Os<'_> {
    /// The WINDOW screen storing a value: as `value→var` from a program would.
    pub fn store_window(&mut self, k: u8, v: Real) -> Result<(), ErrorKind> {
        self.window_set(k, v)
    }

    pub(super) fn extra_window_get(&self, k: u8) -> Option<Real> {
        let default = default_value(k)?;
        Some(
            self.st
                .window_extra
                .iter()
                .find(|(v, _)| *v == k)
                .map_or(default, |(_, r)| *r),
        )
    }

    pub(super) fn extra_window_set(&mut self, k: u8, v: Real) -> bool {
        if default_value(k).is_none() {
            return false;
        }
        match self.st.window_extra.iter_mut().find(|(t, _)| *t == k) {
            Some(slot) => slot.1 = v,
            None => self.st.window_extra.push((k, v)),
        }
        true
    }

    fn window_now(&self) -> [Real; 6] {
        WINDOW.map(|k| self.window_get(k))
    }

    /// Sets the window (Xmin Xmax Xscl Ymin Ymax Yscl) and ΔX, ΔY from it.
    fn set_window(&mut self, w: [Real; 6]) -> Result<(), ErrorKind> {
        for (k, v) in WINDOW.iter().zip(w) {
            if let Some(a) = Self::window_addr(*k) {
                self.write_real_at(a, v);
            }
        }
        self.update_deltas()
    }

    /// TRACE past the screen's left or right edge, or ENTER while tracing (QuickZoom, the
    /// TI-82 Guidebook's chapter 3): the window moved `columns` pixel columns along X, its
    /// width and scales kept; with `centre_y`, Ymin and Ymax centred on it; the graph drawn
    /// again. Not a zoom: ZPrevious keeps what it had [I].
    pub fn pan_window(&mut self, columns: i64, centre_y: Option<Real>) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let mut w = self.window_now();
        let dx = w[1]
            .sub(w[0])
            .and_then(|d| d.div(Real::from_i64(94)))
            .map_err(m)?;
        let shift = dx.mul(Real::from_i64(columns)).map_err(m)?;
        w[0] = w[0].add(shift).map_err(m)?;
        w[1] = w[1].add(shift).map_err(m)?;
        if let Some(y) = centre_y {
            let half = w[4]
                .sub(w[3])
                .and_then(|d| d.div(Real::from_i64(2)))
                .map_err(m)?;
            w[3] = y.sub(half).map_err(m)?;
            w[4] = y.add(half).map_err(m)?;
        }
        self.set_window(w)?;
        self.clear_draw()
    }

    /// X and Y set to a point (a bare `Input`'s cursor).
    pub fn store_point(&mut self, x: Real, y: Real) -> Result<(), ErrorKind> {
        self.set_real(b'X', x)?;
        self.set_real(b'Y', y)
    }

    /// The point of pixel (`row`, `col`): X = Xmin + col·ΔX, Y = Ymax − row·ΔY (spec §6.2).
    pub fn pixel_point(&self, row: i64, col: i64) -> Result<(Real, Real), ErrorKind> {
        let m = crate::eval::math;
        let int = Real::from_i64;
        let (xmin, ymax) = (self.window_get(0x0A), self.window_get(0x0D));
        let (dx, dy) = (self.window_get(0x26), self.window_get(0x27));
        Ok((
            xmin.add(dx.mul(int(col)).map_err(m)?).map_err(m)?,
            ymax.sub(dy.mul(int(row)).map_err(m)?).map_err(m)?,
        ))
    }

    /// A zoom: the window before it is kept for `ZPrevious`.
    fn zoom_to(&mut self, w: [Real; 6]) -> Result<(), ErrorKind> {
        self.st.zprevious = Some(self.window_now());
        self.set_window(w)?;
        self.clear_draw()?;
        self.show_graph();
        Ok(())
    }

    /// A zoom chosen from the ZOOM menu on the home screen: done at once, the graph shown.
    /// The zooms that need the graph cursor are ERR:UNSUPPORTED here.
    pub fn zoom_from_menu(&mut self, tok: u8) -> Result<(), ErrorKind> {
        match tok {
            ZSTANDARD | ZTRIG | ZDECIMAL | ZSQUARE | ZPREVIOUS | ZOOM_STO | ZOOM_RCL
            | ZOOM_STAT => {
                self.zoom(tok)?;
                self.graph_now()
            }
            _ => Err(ErrorKind::Unsupported(
                detokenize(&[tok], Spelling::Display).trim().to_string(),
            )),
        }
    }

    /// The end of a cursor zoom: `Zoom In`/`Zoom Out` about the cursor's point by XFact and
    /// YFact; `ZInteger` with ΔX = ΔY = 1 and scales of 10 about it; `ZBox` to the box
    /// between the two corners (rows, columns). The graph is shown.
    pub fn cursor_zoom(
        &mut self,
        command: u8,
        (row, col): (i64, i64),
        corner: Option<(i64, i64)>,
    ) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let int = Real::from_i64;
        let [_, _, xscl, _, _, yscl] = self.window_now();
        let (dx, dy) = (self.window_get(0x26), self.window_get(0x27));
        let (x, y) = self.pixel_point(row, col)?;
        let half = |d: Real, n: i64, f: Real, out: bool| -> Result<Real, ErrorKind> {
            let w = d.mul(int(n)).map_err(m)?;
            let w = if out { w.mul(f) } else { w.div(f) }.map_err(m)?;
            w.div(int(2)).map_err(m)
        };
        let w = match command {
            ZOOM_IN | ZOOM_OUT => {
                let out = command == ZOOM_OUT;
                let (xf, yf) = (self.window_get(0x28), self.window_get(0x29));
                if xf.is_zero() || yf.is_zero() {
                    return Err(ErrorKind::WindowRange);
                }
                let rows = self.graph_last_row();
                let (hx, hy) = (half(dx, 94, xf, out)?, half(dy, rows, yf, out)?);
                [
                    x.sub(hx).map_err(m)?,
                    x.add(hx).map_err(m)?,
                    xscl,
                    y.sub(hy).map_err(m)?,
                    y.add(hy).map_err(m)?,
                    yscl,
                ]
            }
            ZINTEGER => {
                // The point rounded to whole numbers, ±47 and ±31 (±15 split) about it.
                let half_rows = int(self.graph_last_row() / 2);
                let (cx, cy) = (
                    int(x.to_f64().round() as i64),
                    int(y.to_f64().round() as i64),
                );
                [
                    cx.sub(int(47)).map_err(m)?,
                    cx.add(int(47)).map_err(m)?,
                    int(10),
                    cy.sub(half_rows).map_err(m)?,
                    cy.add(half_rows).map_err(m)?,
                    int(10),
                ]
            }
            _ => {
                let Some((r2, c2)) = corner else {
                    return Err(ErrorKind::Argument);
                };
                let (x2, y2) = self.pixel_point(r2, c2)?;
                if x == x2 || y == y2 {
                    return Err(ErrorKind::WindowRange);
                }
                [x.min(x2), x.max(x2), xscl, y.min(y2), y.max(y2), yscl]
            }
        };
        self.zoom_to(w)
    }

    /// A zoom command (`ZStandard` is [`Os::zstandard`] with the same bookkeeping).
    pub(super) fn zoom(&mut self, tok: u8) -> Result<(), ErrorKind> {
        let m = crate::eval::math;
        let dec = |c: u64, e: i32, neg: bool| Real::new(neg, c, e).map_err(m);
        let int = Real::from_i64;
        match tok {
            ZSTANDARD => {
                self.zoom_to([int(-10), int(10), int(1), int(-10), int(10), int(1)])?;
                for (k, v) in [(0x0E, Real::ZERO), (0x0F, two_pi()), (0x22, pi_24())] {
                    self.extra_window_set(k, v);
                }
                for (k, v) in [(0x10, Real::ZERO), (0x11, two_pi()), (0x23, pi_24())] {
                    self.extra_window_set(k, v);
                }
            }
            // ±47π/24 so that ΔX = π/24; Xscl π/2; Y ±4 (the TI-82 Guidebook's ZTrig).
            ZTRIG => {
                let x = dec(61_522_856_131_799, -13, false)?;
                let xscl = dec(15_707_963_267_949, -13, false)?;
                self.zoom_to([x.neg(), x, xscl, int(-4), int(4), int(1)])?;
            }
            // ΔX = ΔY = 0.1: X ±4.7, Y ±3.1.
            ZDECIMAL => {
                let (x, y) = (dec(47, -1, false)?, dec(31, -1, false)?);
                self.zoom_to([x.neg(), x, int(1), y.neg(), y, int(1)])?;
            }
            // The larger of ΔX, ΔY for both, about the same centre.
            ZSQUARE => {
                let [xmin, xmax, xscl, ymin, ymax, yscl] = self.window_now();
                let dx = self.window_get(0x26);
                let dy = self.window_get(0x27);
                let two = int(2);
                let mid = |a: Real, b: Real| a.add(b).and_then(|s| s.div(two)).map_err(m);
                let half = |d: Real, n: i64| d.mul(int(n)).and_then(|w| w.div(two)).map_err(m);
                let w = if dx.abs() < dy.abs() {
                    let (c, h) = (mid(xmin, xmax)?, half(dy, 94)?);
                    [
                        c.sub(h).map_err(m)?,
                        c.add(h).map_err(m)?,
                        xscl,
                        ymin,
                        ymax,
                        yscl,
                    ]
                } else {
                    let (c, h) = (mid(ymin, ymax)?, half(dx, self.graph_last_row())?);
                    [
                        xmin,
                        xmax,
                        xscl,
                        c.sub(h).map_err(m)?,
                        c.add(h).map_err(m)?,
                        yscl,
                    ]
                };
                self.zoom_to(w)?;
            }
            ZOOM_STAT => {
                if let Some(w) = self.zoom_stat_window()? {
                    self.zoom_to(w)?;
                }
            }
            ZPREVIOUS => {
                if let Some(w) = self.st.zprevious {
                    self.zoom_to(w)?;
                }
            }
            ZOOM_STO => {
                let w = self.window_now();
                for (k, v) in ZOOM_MEMORY.iter().zip(w) {
                    self.extra_window_set(*k, v);
                }
                for (from, to) in [(0x0E, 0x18), (0x0F, 0x19), (0x22, 0x24)] {
                    let v = self.window_get(from);
                    self.extra_window_set(to, v);
                }
                for (from, to) in [(0x10, 0x16), (0x11, 0x17), (0x23, 0x25)] {
                    let v = self.window_get(from);
                    self.extra_window_set(to, v);
                }
            }
            ZOOM_RCL => {
                let w = ZOOM_MEMORY.map(|k| self.window_get(k));
                for (from, to) in [(0x18, 0x0E), (0x19, 0x0F), (0x24, 0x22)] {
                    let v = self.window_get(from);
                    self.extra_window_set(to, v);
                }
                for (from, to) in [(0x16, 0x10), (0x17, 0x11), (0x25, 0x23)] {
                    let v = self.window_get(from);
                    self.extra_window_set(to, v);
                }
                self.zoom_to(w)?;
            }
            _ => return Err(ErrorKind::Argument),
        }
        Ok(())
    }
}
