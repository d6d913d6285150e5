//! 2nd STAT PLOT: on the home screen the STAT PLOTS menu (`1:Plot1…` `2:Plot2…` `3:Plot3…`,
//! each with a line summing the plot up, then `4:PlotsOff` `5:PlotsOn`, which type their
//! tokens), and a plot's editor: `On Off`, the type (the four icons), the X list, the Y list
//! (the frequency for a histogram or box plot), the mark, the setting of each line in inverse
//! video and a blinking cursor on one option, as on the MODE screen. In the program editor
//! 2nd STAT PLOT opens the PLOTS TYPE MARK menu that types `Plot1(`, `Scatter`, `□`...
//! Sources and what is recalled rather than documented: `docs/calculator.md`, "STAT PLOT".

use ti82_machine::Key;

use super::catalog::{Catalog, Item};
use crate::font;
use crate::os::StatPlot;
use crate::screen::SCREEN_BYTES;
use crate::token::{
    BOXPLOT, HISTOGRAM, MARK_BOX, MARK_CROSS, MARK_DOT, PLOTS_OFF, PLOTS_ON, SCATTER, XY_LINE,
};

use Item::Token as T;

/// The STAT PLOTS menu of the home screen: the three plots' editors, `PlotsOff`, `PlotsOn`.
pub const STAT_PLOTS: Catalog = Catalog {
    name: "STAT PLOTS",
    tabs: &[(
        "STAT PLOTS",
        &[
            Item::Screen("Plot1…", "Plot1"),
            Item::Screen("Plot2…", "Plot2"),
            Item::Screen("Plot3…", "Plot3"),
            T(&[PLOTS_OFF]),
            T(&[PLOTS_ON]),
        ],
    )],
};

/// 2nd STAT PLOT in the program editor (and over a program's `Input`): the tokens of the
/// plot commands, their types and their marks [I].
pub const STAT_PLOT_TOKENS: Catalog = Catalog {
    name: "STAT PLOT",
    tabs: &[
        (
            "PLOTS",
            &[
                T(&[0xEC]),
                T(&[0xED]),
                T(&[0xEE]),
                T(&[PLOTS_OFF]),
                T(&[PLOTS_ON]),
            ],
        ),
        (
            "TYPE",
            &[T(&[SCATTER]), T(&[XY_LINE]), T(&[BOXPLOT]), T(&[HISTOGRAM])],
        ),
        ("MARK", &[T(&[MARK_BOX]), T(&[MARK_CROSS]), T(&[MARK_DOT])]),
    ],
};

/// The plot types in the editor's order (the TI-82's: scatter, xyLine, box plot,
/// histogram), and their icons: two small-font codes each (spec, character set `D9`-`E0`).
pub const TYPES: [u8; 4] = [SCATTER, XY_LINE, BOXPLOT, HISTOGRAM];
const ICONS: [[u8; 2]; 4] = [[0xD9, 0xDA], [0xDB, 0xDC], [0xDD, 0xDE], [0xDF, 0xE0]];
/// The marks in the editor's order.
pub const MARKS: [u8; 3] = [MARK_BOX, MARK_CROSS, MARK_DOT];

/// A plot never defined, as the editor shows it: off, a scatter plot of L1 against L2 with
/// the box mark [I].
pub const DEFAULT_PLOT: StatPlot = StatPlot {
    on: false,
    kind: SCATTER,
    lists: [0, 1],
    mark: MARK_BOX,
};

/// Where the user is on 2nd STAT PLOT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatPlotScreen {
    /// The STAT PLOTS menu, the item selected.
    Menu { sel: usize },
    /// Plot `plot`'s (0-2) editor: the line (0 On/Off, 1 Type, 2 Xlist, 3 Ylist or Freq,
    /// 4 Mark) and the option under the cursor.
    Editor { plot: usize, row: usize, col: usize },
}

/// What a key on 2nd STAT PLOT asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatPlotAction {
    None,
    /// The plot is now this (the editor's ENTER).
    Set(usize, StatPlot),
    /// Type this token on the home screen and go back to it.
    Type(u8),
    /// GRAPH.
    Graph,
    /// Back to the home screen.
    Quit,
}

/// Whether the plot's type draws one list with frequencies (histogram, box plot) rather
/// than points (X, Y): its lines are then `Freq` and no `Mark` [I].
fn counts(p: &StatPlot) -> bool {
    matches!(p.kind, HISTOGRAM | BOXPLOT)
}

/// The number of lines of a plot's editor.
fn rows(p: &StatPlot) -> usize {
    if counts(p) {
        4
    } else {
        5
    }
}

/// The options of line `row`.
fn options(p: &StatPlot, row: usize) -> usize {
    match row {
        0 => 2,
        1 => 4,
        2 => 6,
        3 if counts(p) => 7,
        3 => 6,
        _ => 3,
    }
}

/// The option line `row` has now (`None`: none of them, e.g. a Y list given as none).
pub fn selected(p: &StatPlot, row: usize) -> Option<usize> {
    match row {
        0 => Some(usize::from(!p.on)),
        1 => TYPES.iter().position(|&t| t == p.kind),
        2 => Some(usize::from(p.lists[0])),
        3 if counts(p) => Some(match p.lists[1] {
            255 => 0,
            k => usize::from(k) + 1,
        }),
        3 => (p.lists[1] <= 5).then_some(usize::from(p.lists[1])),
        _ => MARKS.iter().position(|&m| m == p.mark),
    }
}

/// Plot `p` with option `col` of line `row` set. A change of type between points and
/// counts sets the second list to what the new type expects: L2 for a scatter plot or
/// xyLine, no frequency list (each value once) for a histogram or box plot [I].
pub fn apply(mut p: StatPlot, row: usize, col: usize) -> StatPlot {
    match row {
        0 => p.on = col == 0,
        1 => {
            let before = counts(&p);
            p.kind = TYPES[col.min(3)];
            if counts(&p) != before {
                p.lists[1] = if counts(&p) { 255 } else { 1 };
            }
        }
        2 => p.lists[0] = col.min(5) as u8,
        3 if counts(&p) => {
            p.lists[1] = if col == 0 {
                255
            } else {
                (col - 1).min(5) as u8
            }
        }
        3 => p.lists[1] = col.min(5) as u8,
        _ => p.mark = MARKS[col.min(2)],
    }
    p
}

impl StatPlotScreen {
    /// One key (`second`: after 2nd); `plots` are the plots' settings now.
    pub fn key(&mut self, k: Key, second: bool, plots: &[Option<StatPlot>; 3]) -> StatPlotAction {
        if second {
            return match k {
                Key::Mode => StatPlotAction::Quit,
                // 2nd STAT PLOT again: the menu [I].
                Key::YEquals => {
                    *self = StatPlotScreen::Menu { sel: 0 };
                    StatPlotAction::None
                }
                _ => StatPlotAction::None,
            };
        }
        if k == Key::Clear {
            return StatPlotAction::Quit;
        }
        if k == Key::Graph {
            return StatPlotAction::Graph;
        }
        match self {
            StatPlotScreen::Menu { sel } => {
                let items = STAT_PLOTS.tabs[0].1;
                match super::pick_item(k, sel, items.len()) {
                    Some(i) if i < 3 => {
                        let p = plots[i].unwrap_or(DEFAULT_PLOT);
                        *self = StatPlotScreen::Editor {
                            plot: i,
                            row: 0,
                            col: selected(&p, 0).unwrap_or(0),
                        }
                    }
                    Some(i) => {
                        if let Item::Token(&[t]) = items[i] {
                            return StatPlotAction::Type(t);
                        }
                    }
                    None => {}
                }
            }
            StatPlotScreen::Editor { plot, row, col } => {
                let p = plots[*plot].unwrap_or(DEFAULT_PLOT);
                let n = rows(&p);
                match k {
                    // ▲ ▼ move to the other line's setting, wrapping as MODE does.
                    Key::Up | Key::Down => {
                        *row = if k == Key::Up {
                            (*row + n - 1) % n
                        } else {
                            (*row + 1) % n
                        };
                        *col = selected(&p, *row).unwrap_or(0);
                    }
                    Key::Left => *col = col.saturating_sub(1),
                    Key::Right => *col = (*col + 1).min(options(&p, *row) - 1),
                    Key::Enter => return StatPlotAction::Set(*plot, apply(p, *row, *col)),
                    _ => {}
                }
            }
        }
        StatPlotAction::None
    }

    /// Whether the cursor points inside what it points at (for a loaded save state).
    pub fn valid(&self) -> bool {
        match *self {
            StatPlotScreen::Menu { sel } => sel < STAT_PLOTS.tabs[0].1.len(),
            // (Checked against the most options a line has for any type: a Mark line left on
            // a histogram is moved back by the next key.)
            StatPlotScreen::Editor { plot, row, col } => {
                plot < 3 && row < 5 && col < [2, 4, 6, 7, 3][row]
            }
        }
    }

    /// Draws the screen; `blink`: the cursor's option is shown inverted the other way.
    pub fn draw(&self, plots: &[Option<StatPlot>; 3], blink: bool, img: &mut [u8; SCREEN_BYTES]) {
        match *self {
            StatPlotScreen::Menu { sel } => draw_menu(plots, sel, img),
            StatPlotScreen::Editor { plot, row, col } => {
                let p = plots[plot].unwrap_or(DEFAULT_PLOT);
                font::draw_large(img, 0, 0, &super::codes(&format!("Plot{}", plot + 1)));
                for r in 0..rows(&p) {
                    let cursor = (blink && r == row).then_some(col);
                    draw_line(&p, r, cursor, img);
                }
            }
        }
    }
}

/// The text cell of option `col` of line `row`, and its width in cells.
fn option_cell(p: &StatPlot, row: usize, col: usize) -> (usize, usize) {
    match row {
        0 => [(0, 2), (3, 3)][col.min(1)],
        1 => (5 + 3 * col, 2),
        3 if counts(p) => match col {
            0 => (3, 1),
            c => (4 + 2 * (c - 1), 2),
        },
        2 | 3 => (3 + 2 * col, 2),
        _ => (5 + 2 * col, 1),
    }
}

/// Line `row` of a plot's editor (text line `row + 1`): its label, its options, the setting
/// inverted, and the option at `cursor` inverted the other way.
fn draw_line(p: &StatPlot, row: usize, cursor: Option<usize>, img: &mut [u8; SCREEN_BYTES]) {
    let y = 8 * (row + 1);
    // The list lines show their six names side by side (`L₁L₂…`): with `Xlist:`, `Ylist:`
    // or `Freq:` the line would not fit in 16 cells, so the labels are shortened [I].
    let label = match row {
        1 => "Type:",
        2 => "Xl:",
        3 if counts(p) => "Fq:",
        3 => "Yl:",
        4 => "Mark:",
        _ => "",
    };
    font::draw_large(img, y, 0, &super::codes(label));
    for col in 0..options(p, row) {
        let (cell, _) = option_cell(p, row, col);
        match row {
            0 => {
                font::draw_large(img, y, 6 * cell, &super::codes(["On", "Off"][col]));
            }
            1 => {
                font::draw_small(img, y + 1, 6 * cell, &ICONS[col]);
            }
            2 | 3 => {
                let text = match (counts(p) && row == 3, col) {
                    (true, 0) => "1".to_string(),
                    (true, c) => list_name(c as u8 - 1),
                    (false, c) => list_name(c as u8),
                };
                font::draw_large(img, y, 6 * cell, &super::codes(&text));
            }
            _ => {
                let text = ["□", "﹢", "·"][col];
                font::draw_large(img, y, 6 * cell, &super::codes(text));
            }
        }
    }
    let set = selected(p, row);
    for col in 0..options(p, row) {
        if (set == Some(col)) != (cursor == Some(col)) {
            let (cell, width) = option_cell(p, row, col);
            invert(img, y, 6 * cell, 6 * width);
        }
    }
}

/// `L₁`…`L₆` for list 0-5.
fn list_name(k: u8) -> String {
    format!("L{}", char::from_u32(0x2081 + u32::from(k)).unwrap_or('?'))
}

/// Inverts the 8-pixel-tall band from pixel column `x`, `width` pixels wide, at pixel row `y`.
fn invert(img: &mut [u8; SCREEN_BYTES], y: usize, x: usize, width: usize) {
    for r in y..(y + 8).min(64) {
        for c in x..(x + width).min(96) {
            img[r * 12 + c / 8] ^= 0x80 >> (c % 8);
        }
    }
}

/// The STAT PLOTS menu: the title, then each plot's item and its summary line (the type's
/// icon, the lists, the mark), `PlotsOff`, `PlotsOn`; the lines scroll to keep the selected
/// item on the screen.
fn draw_menu(plots: &[Option<StatPlot>; 3], sel: usize, img: &mut [u8; SCREEN_BYTES]) {
    font::draw_large(img, 0, 0, &super::codes("STAT PLOTS"));
    // Lines: (item, its first line or its summary).
    let mut lines: Vec<(usize, bool)> = Vec::new();
    for i in 0..STAT_PLOTS.tabs[0].1.len() {
        lines.push((i, true));
        if i < 3 {
            lines.push((i, false));
        }
    }
    let last = lines.iter().rposition(|&(i, _)| i == sel).unwrap_or(0);
    let top = (last + 1).saturating_sub(7);
    for (row, &(i, first)) in lines.iter().skip(top).take(7).enumerate() {
        let y = 8 * (row + 1);
        let item = STAT_PLOTS.tabs[0].1[i];
        if first {
            let label = crate::firmware::menu_label(i).unwrap_or(b' ');
            font::draw_large_with(img, y, 0, &[label], i == sel);
            font::draw_large(img, y, 6, b":");
            let mut text = super::catalog::label(&item);
            if i < 3 {
                let on = plots[i].is_some_and(|p| p.on);
                text.push_str(if on { "On" } else { "Off" });
            }
            font::draw_large(img, y, 12, &super::codes(&text));
        } else {
            let p = plots[i].unwrap_or(DEFAULT_PLOT);
            let kind = TYPES.iter().position(|&t| t == p.kind).unwrap_or(0);
            font::draw_small(img, y + 1, 12, &ICONS[kind]);
            let mut text = list_name(p.lists[0]);
            text.push(' ');
            text.push_str(&match p.lists[1] {
                255 => "1".to_string(),
                k => list_name(k),
            });
            if !counts(&p) {
                let m = MARKS.iter().position(|&m| m == p.mark).unwrap_or(0);
                text.push(' ');
                text.push_str(["□", "﹢", "·"][m]);
            }
            font::draw_large(img, y, 30, &super::codes(&text));
        }
    }
}
