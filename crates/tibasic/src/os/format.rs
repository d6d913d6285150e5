//! The graph's FORMAT settings that draw (the TI-82 Guidebook's WINDOW FORMAT screen):
//! `GridOn` puts a dot at every point (k·Xscl, j·Yscl) of the window, `LabelOn` writes `X`
//! and `Y` in the small font at the ends of the axes (where exactly is [I]; only while the
//! axes are drawn [I]). `RectGC`/`PolarGC` and `CoordOn`/`CoordOff` change what TRACE shows
//! (`crate::shell::format`).

use super::*;

impl Os<'_> {
    /// The grid and the axis labels, after the axes (`clear_plot`).
    pub(super) fn draw_grid_and_labels(&mut self) {
        if self.st.modes.grid {
            let cols = self.ticks(0x0A, 0x0B, 0x02, |os, v| os.to_pixel(v, Real::ZERO).1);
            let rows = self.ticks(0x0C, 0x0D, 0x03, |os, v| os.to_pixel(Real::ZERO, v).0);
            let buf = screen::plot_mut(self.hw.mem.ram_mut());
            for &r in &rows {
                for &c in &cols {
                    screen::pixel(buf, r, c, Ink::On);
                }
            }
            self.charge(cost::PT * (rows.len() * cols.len()) as u64);
        }
        if self.st.modes.labels && self.st.modes.axes {
            let (r0, c0) = self.to_pixel(Real::ZERO, Real::ZERO);
            let buf = screen::plot_mut(self.hw.mem.ram_mut());
            let (x, y) = (b'X', b'Y');
            if (0..screen::GRAPH_ROWS).contains(&r0) {
                // `X` at the right end, just above the axis and its ticks (below it when the
                // axis is at the top).
                let w = font::small_width(x) as i64;
                let row = if r0 >= 8 { r0 - 8 } else { r0 + 2 };
                screen::text(buf, row, screen::GRAPH_COLS - w, &[x]);
            }
            if (0..screen::GRAPH_COLS).contains(&c0) {
                // `Y` at the top, right of the axis and its ticks (left of it at the right
                // edge).
                let w = font::small_width(y) as i64;
                let col = if c0 + 2 + w <= screen::GRAPH_COLS {
                    c0 + 2
                } else {
                    c0 - 1 - w
                };
                screen::text(buf, 0, col, &[y]);
            }
        }
    }
}
