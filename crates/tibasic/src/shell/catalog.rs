//! The keypad's menus that type tokens: MATH, TEST, ANGLE, MATRX, LIST, DRAW, VARS and
//! Y-VARS (whose items open submenus), and PRGM's CTL and I/O in the editor. Each is data:
//! its tabs, and per tab the tokens its items type, in order; an item's text is its token's
//! spelling on the calculator. Choosing an item types the token into the line being edited
//! (the home screen's entry, or a program's `Input`). Sources and what is uncertain:
//! `docs/calculator.md`, "Menus that type tokens".

use ti82_machine::Key;
use tifiles::tokens::{detokenize, Spelling};

use crate::font;
use crate::screen::SCREEN_BYTES;

/// A menu item: a token it types, another menu it opens (VARS' `Window…`), or a screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Token(&'static [u8]),
    /// The item's text and the `name` of the menu it opens.
    Menu(&'static str, &'static str),
    /// The item's text and the screen it opens (STAT's `Edit…`).
    Screen(&'static str, &'static str),
    /// MATRX ► EDIT: opens the matrix editor on matrix 0-4 (`[A]`-`[E]`).
    EditMatrix(u8),
    /// PRGM ► EXEC in the program editor: one item a program in the VAT (as the PRGM menu
    /// lists them), typing `prgm` and its name.
    Programs,
}

/// ZOOM (the ZOOM key): the zooms, and the zoom memory. Chosen on the home screen a zoom is
/// done at once and the graph shown; in the program editor it types its token.
/// (`4:SetFactors…` opens the ZOOM FACTORS screen, XFact and YFact.)
pub const ZOOM: Catalog = Catalog {
    name: "ZOOM",
    tabs: &[
        (
            "ZOOM",
            &[
                T(&[0x88]),
                T(&[0x89]),
                T(&[0x8A]),
                T(&[0x8E]),
                T(&[0x8B]),
                T(&[0x86]),
                T(&[0x87]),
                T(&[0x8C]),
                T(&[0x8F]),
            ],
        ),
        (
            "MEMORY",
            &[
                T(&[0x8D]),
                T(&[0x92]),
                T(&[0x90]),
                Item::Screen("SetFactors…", ZOOM_FACTORS),
            ],
        ),
    ],
};

/// The screen ZOOM › MEMORY › `4:SetFactors…` opens.
pub const ZOOM_FACTORS: &str = "SetFactors…";
/// The screen STAT › EDIT › `1:Edit…` opens.
pub const LIST_EDITOR: &str = "list editor";
/// The screen STAT › CALC › `3:SetUp…` opens (`shell/statsetup.rs`).
pub const STAT_SETUP: &str = "SetUp…";

/// STAT (the STAT key): the list editor and the list commands, the statistics. The CALC
/// items' order after `3:SetUp…` is recalled, not from a TI-82 listing [I].
pub const STAT: Catalog = Catalog {
    name: "STAT",
    tabs: &[
        (
            "EDIT",
            &[
                Item::Screen("Edit…", LIST_EDITOR),
                T(&[0xE3]),
                T(&[0xE4]),
                T(&[0xFA]),
            ],
        ),
        (
            "CALC",
            &[
                T(&[0xF2]),
                T(&[0xF3]),
                Item::Screen("SetUp…", STAT_SETUP),
                T(&[0xF8]),
                T(&[0xFF]),
                T(&[0xF9]),
                T(&[0x2E]),
                T(&[0x2F]),
                T(&[0xF4]),
                T(&[0xF6]),
                T(&[0xF5]),
                T(&[0xF7]),
            ],
        ),
    ],
};

use Item::Token as T;

/// A menu: its tabs, each a title and its items.
pub struct Catalog {
    pub name: &'static str,
    pub tabs: &'static [(&'static str, &'static [Item])],
}

/// MATH (the MATH key).
pub const MATH: Catalog = Catalog {
    name: "MATH",
    tabs: &[
        (
            "MATH",
            &[
                T(&[0x03]),
                T(&[0x02]),
                T(&[0x0F]),
                T(&[0xBD]),
                T(&[0xF1]),
                T(&[0x27]),
                T(&[0x28]),
                T(&[0x25]),
                T(&[0x24]),
                T(&[0x22]),
            ],
        ),
        (
            "NUM",
            &[
                T(&[0x12]),
                T(&[0xB9]),
                T(&[0xBA]),
                T(&[0xB1]),
                T(&[0x1A]),
                T(&[0x19]),
            ],
        ),
        (
            "HYP",
            &[
                T(&[0xC8]),
                T(&[0xCA]),
                T(&[0xCC]),
                T(&[0xC9]),
                T(&[0xCB]),
                T(&[0xCD]),
            ],
        ),
        ("PRB", &[T(&[0xAB]), T(&[0x94]), T(&[0x95]), T(&[0x2D])]),
    ],
};

/// TEST (2nd MATH).
pub const TEST: Catalog = Catalog {
    name: "TEST",
    tabs: &[
        (
            "TEST",
            &[
                T(&[0x6A]),
                T(&[0x6F]),
                T(&[0x6C]),
                T(&[0x6E]),
                T(&[0x6B]),
                T(&[0x6D]),
            ],
        ),
        ("LOGIC", &[T(&[0x40]), T(&[0x3C]), T(&[0x3D]), T(&[0xB8])]),
    ],
};

/// ANGLE (2nd MATRX).
pub const ANGLE: Catalog = Catalog {
    name: "ANGLE",
    tabs: &[(
        "ANGLE",
        &[
            T(&[0x0B]),
            T(&[0xAE]),
            T(&[0x0A]),
            T(&[0x01]),
            T(&[0x1B]),
            T(&[0x1C]),
            T(&[0x1D]),
            T(&[0x1E]),
        ],
    )],
};

/// MATRX (the MATRX key): the names and the matrix functions.
pub const MATRX: Catalog = Catalog {
    name: "MATRX",
    tabs: &[
        (
            "NAMES",
            &[
                T(&[0x5C, 0x00]),
                T(&[0x5C, 0x01]),
                T(&[0x5C, 0x02]),
                T(&[0x5C, 0x03]),
                T(&[0x5C, 0x04]),
            ],
        ),
        (
            "MATH",
            &[
                T(&[0xB3]),
                T(&[0x0E]),
                T(&[0xB5]),
                T(&[0xE2]),
                T(&[0xB4]),
                T(&[0x20]),
                T(&[0x14]),
                T(&[0x15]),
                T(&[0x16]),
                T(&[0x17]),
                T(&[0x18]),
            ],
        ),
        (
            "EDIT",
            &[
                Item::EditMatrix(0),
                Item::EditMatrix(1),
                Item::EditMatrix(2),
                Item::EditMatrix(3),
                Item::EditMatrix(4),
            ],
        ),
    ],
};

/// LIST (2nd STAT).
pub const LIST: Catalog = Catalog {
    name: "LIST",
    tabs: &[
        (
            "OPS",
            &[T(&[0xE3]), T(&[0xE4]), T(&[0xB5]), T(&[0xE2]), T(&[0x23])],
        ),
        (
            "MATH",
            &[
                T(&[0x1A]),
                T(&[0x19]),
                T(&[0x21]),
                T(&[0x1F]),
                T(&[0xB6]),
                T(&[0xB7]),
            ],
        ),
    ],
};

/// PRGM inside the program editor: the commands (CTL), input/output (I/O), and the programs
/// to call (EXEC).
pub const PRGM: Catalog = Catalog {
    name: "PRGM",
    tabs: &[
        (
            "CTL",
            &[
                T(&[0xCE]),
                T(&[0xCF]),
                T(&[0xD0]),
                T(&[0xD3]),
                T(&[0xD1]),
                T(&[0xD2]),
                T(&[0xD4]),
                T(&[0xD8]),
                T(&[0xD6]),
                T(&[0xD7]),
                T(&[0xDA]),
                T(&[0xDB]),
                T(&[0xE6]),
                T(&[0x5F]),
                T(&[0xD5]),
                T(&[0xD9]),
            ],
        ),
        (
            "I/O",
            &[
                T(&[0xDC]),
                T(&[0xDD]),
                T(&[0xDE]),
                T(&[0xDF]),
                T(&[0xE5]),
                T(&[0xE0]),
                T(&[0xAD]),
                T(&[0xE1]),
                T(&[0xFB]),
                T(&[0xE8]),
                T(&[0xE7]),
            ],
        ),
        ("EXEC", &[Item::Programs]),
    ],
};

/// DRAW (2nd DRAW, above PRGM): drawing, points, and storing pictures and graph databases.
pub const DRAW: Catalog = Catalog {
    name: "DRAW",
    tabs: &[
        (
            "DRAW",
            &[
                T(&[0x85]),
                T(&[0x9C]),
                T(&[0xA6]),
                T(&[0x9D]),
                T(&[0xA4]),
                T(&[0xA9]),
                T(&[0xA8]),
                T(&[0xA5]),
                T(&[0x93]),
            ],
        ),
        (
            "POINTS",
            &[
                T(&[0x9E]),
                T(&[0x9F]),
                T(&[0xA0]),
                T(&[0xA1]),
                T(&[0xA2]),
                T(&[0xA3]),
                T(&[0x13]),
            ],
        ),
        ("STO", &[T(&[0x98]), T(&[0x99]), T(&[0x9A]), T(&[0x9B])]),
    ],
};

/// VARS: the variables of the graph window, zoom memory, pictures, graph databases,
/// statistics and table, each a submenu.
pub const VARS: Catalog = Catalog {
    name: "VARS",
    tabs: &[(
        "VARS",
        &[
            Item::Menu("Window…", "VARS Window"),
            Item::Menu("Zoom…", "VARS Zoom"),
            Item::Menu("GDB…", "VARS GDB"),
            Item::Menu("Picture…", "VARS Picture"),
            Item::Menu("Statistics…", "VARS Statistics"),
            Item::Menu("Table…", "VARS Table"),
        ],
    )],
};

/// Y-VARS (2nd VARS): the equation variables by graphing mode, and FnOn/FnOff.
pub const Y_VARS: Catalog = Catalog {
    name: "Y-VARS",
    tabs: &[(
        "Y-VARS",
        &[
            Item::Menu("Function…", "Y-VARS Function"),
            Item::Menu("Parametric…", "Y-VARS Parametric"),
            Item::Menu("Polar…", "Y-VARS Polar"),
            Item::Menu("On/Off…", "Y-VARS On/Off"),
        ],
    )],
};

const fn pair(a: u8, b: u8) -> [u8; 2] {
    [a, b]
}

macro_rules! toks {
    ($prefix:expr; $($b:expr),* $(,)?) => {
        &[$(Item::Token(&pair($prefix, $b))),*]
    };
}

pub const VARS_WINDOW: Catalog = Catalog {
    name: "VARS Window",
    tabs: &[
        (
            "X/Y",
            toks![0x63; 0x0A, 0x0B, 0x02, 0x0C, 0x0D, 0x03, 0x26, 0x27, 0x28, 0x29],
        ),
        ("T/θ", toks![0x63; 0x0E, 0x0F, 0x22, 0x10, 0x11, 0x23]),
        ("U/V", toks![0x63; 0x04, 0x05, 0x1F, 0x1B, 0x1D]),
    ],
};

pub const VARS_ZOOM: Catalog = Catalog {
    name: "VARS Zoom",
    tabs: &[
        ("ZX/ZY", toks![0x63; 0x12, 0x13, 0x00, 0x14, 0x15, 0x01]),
        ("ZT/Zθ", toks![0x63; 0x18, 0x19, 0x24, 0x16, 0x17, 0x25]),
        ("ZU", toks![0x63; 0x08, 0x09, 0x20, 0x1C, 0x1E]),
    ],
};

pub const VARS_GDB: Catalog = Catalog {
    name: "VARS GDB",
    tabs: &[("GDB", toks![0x61; 0, 1, 2, 3, 4, 5])],
};

pub const VARS_PICTURE: Catalog = Catalog {
    name: "VARS Picture",
    tabs: &[("PICTURE", toks![0x60; 0, 1, 2, 3, 4, 5])],
};

pub const VARS_STATISTICS: Catalog = Catalog {
    name: "VARS Statistics",
    tabs: &[
        (
            "X/Y",
            toks![0x62; 0x02, 0x03, 0x06, 0x07, 0x0C, 0x0F, 0x10, 0x08, 0x09, 0x0A, 0x0B],
        ),
        ("Σ", toks![0x62; 0x04, 0x05, 0x0D, 0x0E, 0x11]),
        ("EQ", toks![0x62; 0x01, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x12]),
        ("BOX", toks![0x62; 0x13, 0x14, 0x15]),
        ("PTS", toks![0x62; 0x1B, 0x1E, 0x1C, 0x1F, 0x1D, 0x20]),
    ],
};

pub const VARS_TABLE: Catalog = Catalog {
    name: "VARS Table",
    tabs: &[("TABLE", toks![0x63; 0x1A, 0x21, 0x2A])],
};

pub const Y_FUNCTION: Catalog = Catalog {
    name: "Y-VARS Function",
    tabs: &[(
        "FUNCTION",
        toks![0x5E; 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19],
    )],
};

pub const Y_PARAMETRIC: Catalog = Catalog {
    name: "Y-VARS Parametric",
    tabs: &[(
        "PARAMETRIC",
        toks![0x5E; 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B],
    )],
};

pub const Y_POLAR: Catalog = Catalog {
    name: "Y-VARS Polar",
    tabs: &[("POLAR", toks![0x5E; 0x40, 0x41, 0x42, 0x43, 0x44, 0x45])],
};

pub const Y_ON_OFF: Catalog = Catalog {
    name: "Y-VARS On/Off",
    tabs: &[("ON/OFF", &[T(&[0x96]), T(&[0x97])])],
};

/// Every menu (a cursor keeps its place here; keys and items name them).
pub const CATALOGS: [&Catalog; 22] = [
    &MATH,
    &TEST,
    &ANGLE,
    &MATRX,
    &LIST,
    &PRGM,
    &DRAW,
    &VARS,
    &Y_VARS,
    &VARS_WINDOW,
    &VARS_ZOOM,
    &VARS_GDB,
    &VARS_PICTURE,
    &VARS_STATISTICS,
    &VARS_TABLE,
    &Y_FUNCTION,
    &Y_PARAMETRIC,
    &Y_POLAR,
    &Y_ON_OFF,
    &STAT,
    &ZOOM,
    &super::statplot::STAT_PLOT_TOKENS,
];

/// Where a menu was opened from, so choosing an item types into that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogFrom {
    Home,
    /// A program's `Input`.
    Input,
    Editor,
    /// The value typed for a matrix element (MATRX EDIT).
    Matrix,
    /// A line typed on another screen (Y=, WINDOW, TABLE SETUP, the table, the list
    /// editor), which waits under the menu (`BasicFirmware::parked`).
    Screen,
}

/// An item's text: its token as the calculator spells it, without the spaces some tokens
/// carry (` and `, `int `), or the submenu's title.
pub fn label(item: &Item) -> String {
    match item {
        // (The TI-82's character set has no subscript n: `Uₙ` shows as `Un` here [I].)
        Item::Token(t) => detokenize(t, Spelling::Display).trim().replace('ₙ', "n"),
        Item::Menu(title, _) | Item::Screen(title, _) => title.to_string(),
        Item::EditMatrix(k) => format!("[{}]", char::from(b'A' + k)),
        Item::Programs => "prgm…".to_string(),
    }
}

/// Where the user is in a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogCursor {
    /// Index into [`CATALOGS`].
    pub menu: usize,
    pub tab: usize,
    pub sel: usize,
}

/// What a key in a menu asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogAction {
    None,
    /// Type this token and close the menu.
    Type(&'static [u8]),
    /// Open this screen (an [`Item::Screen`]).
    Open(&'static str),
    /// Close the menu without typing.
    Close,
    /// 2nd QUIT: to the home screen.
    Quit,
    /// MATRX ► EDIT: open the matrix editor on matrix 0-4.
    EditMatrix(u8),
    /// PRGM ► EXEC: type `prgm` and the name of the `n`th program (`program_names`).
    Program(usize),
}

impl CatalogCursor {
    /// The menu named `name` (a `Catalog::name`), at its first item; `None` for no such menu.
    pub fn open_named(name: &str) -> Option<CatalogCursor> {
        CATALOGS
            .iter()
            .position(|c| c.name == name)
            .map(CatalogCursor::open)
    }

    pub fn open(menu: usize) -> CatalogCursor {
        CatalogCursor {
            menu: menu.min(CATALOGS.len() - 1),
            tab: 0,
            sel: 0,
        }
    }

    fn catalog(&self) -> &'static Catalog {
        CATALOGS[self.menu.min(CATALOGS.len() - 1)]
    }

    /// Whether the cursor points inside its menu (for a loaded save state).
    pub fn valid(&self) -> bool {
        self.menu < CATALOGS.len()
            && CATALOGS[self.menu]
                .tabs
                .get(self.tab)
                .is_some_and(|(_, items)| self.sel < items.len())
    }

    pub fn key(&mut self, k: Key, second: bool, ram: &[u8]) -> CatalogAction {
        if second && k == Key::Mode {
            return CatalogAction::Quit;
        }
        let tabs = self.catalog().tabs;
        let items = tabs[self.tab].1;
        let programs = self.programs(ram);
        match k {
            // ◄ ► go through the tabs, wrapping; the cursor starts on the first item.
            Key::Left => {
                self.tab = (self.tab + tabs.len() - 1) % tabs.len();
                self.sel = 0;
            }
            Key::Right => {
                self.tab = (self.tab + 1) % tabs.len();
                self.sel = 0;
            }
            Key::Clear => return CatalogAction::Close,
            _ => match &programs {
                // (No program: nothing to move through or pick.)
                Some(names) if names.is_empty() => {}
                Some(names) => {
                    if let Some(i) = super::pick_item(k, &mut self.sel, names.len()) {
                        return CatalogAction::Program(i);
                    }
                }
                None => {
                    if let Some(i) = super::pick_item(k, &mut self.sel, items.len()) {
                        return self.choose(items[i]);
                    }
                }
            },
        }
        CatalogAction::None
    }

    /// The programs the tab lists, if it is PRGM ► EXEC.
    fn programs(&self, ram: &[u8]) -> Option<Vec<Vec<u8>>> {
        let items = self.catalog().tabs.get(self.tab)?.1;
        (items == [Item::Programs]).then(|| crate::firmware::program_names(ram))
    }

    /// ALPHA and a letter: item `A:` (the eleventh), `B:`… of the tab, if it has one.
    pub fn pick_letter(&mut self, letter: u8, ram: &[u8]) -> CatalogAction {
        let items = self.catalog().tabs[self.tab].1;
        let i = 10 + usize::from(letter.wrapping_sub(b'A'));
        if let Some(names) = self.programs(ram) {
            if i < names.len() && letter.is_ascii_uppercase() {
                self.sel = i;
                return CatalogAction::Program(i);
            }
            return CatalogAction::None;
        }
        match items.get(i) {
            Some(&item) if letter.is_ascii_uppercase() => {
                self.sel = i;
                self.choose(item)
            }
            _ => CatalogAction::None,
        }
    }

    /// An item chosen: its token typed, or its submenu opened.
    fn choose(&mut self, item: Item) -> CatalogAction {
        match item {
            Item::Token(t) => CatalogAction::Type(t),
            Item::EditMatrix(k) => CatalogAction::EditMatrix(k),
            Item::Menu(_, menu) => {
                if let Some(c) = CatalogCursor::open_named(menu) {
                    *self = c;
                }
                CatalogAction::None
            }
            Item::Screen(_, screen) => CatalogAction::Open(screen),
            // (Only a tab of its own lists the programs: `programs`.)
            Item::Programs => CatalogAction::None,
        }
    }

    /// The tab titles on the top line (the open one inverted), the items below, `N:TEXT`
    /// with the selected number inverted, scrolling. MATRX ► EDIT's items show each defined
    /// matrix's dimensions after its name (`[A] 2×3`), read from the VAT in `ram`.
    pub fn draw(&self, ram: &[u8], img: &mut [u8; SCREEN_BYTES]) {
        let tabs = self.catalog().tabs;
        let mut col = 0;
        for (i, (title, _)) in tabs.iter().enumerate() {
            let codes = font::encode(title).unwrap_or_default();
            font::draw_large_with(img, 0, col, &codes, i == self.tab);
            col += 6 * (codes.len() + 1);
        }
        if let Some(names) = self.programs(ram) {
            let labels: Vec<String> = names.iter().map(|n| program_label(n)).collect();
            super::draw_items(img, &labels, self.sel, 1);
            return;
        }
        let labels: Vec<String> = tabs[self.tab]
            .1
            .iter()
            .map(|item| match item {
                Item::EditMatrix(k) => match matrix_dims(ram, *k) {
                    Some((r, c)) => format!("{} {r}×{c}", label(item)),
                    None => label(item),
                },
                _ => label(item),
            })
            .collect();
        super::draw_items(img, &labels, self.sel, 1);
    }
}

/// A program's name as a menu item's text (θ is 5Bh in names).
fn program_label(name: &[u8]) -> String {
    name.iter()
        .map(|&b| if b == 0x5B { 'θ' } else { char::from(b) })
        .collect()
}

/// The dimensions of matrix `k` (0-4) in the VAT, if it is defined.
fn matrix_dims(ram: &[u8], k: u8) -> Option<(u8, u8)> {
    let name = tifiles::var::VarName::from_bytes(&[crate::token::PREFIX_MATRIX, k]);
    match tifiles::vat::read(ram, tifiles::var::VarType::Matrix, &name).ok()?? {
        tifiles::var::Variable {
            data: tifiles::var::VarData::Matrix(m),
            ..
        } => Some((m.rows, m.cols)),
        _ => None,
    }
}
