//! The keypad's menus that type tokens: MATH, TEST, ANGLE, MATRX and LIST. Each is data: its
//! tabs, and per tab the tokens its items type, in order; an item's text is its token's
//! spelling on the calculator. Choosing an item types the token into the line being edited
//! (the home screen's entry, or a program's `Input`). Sources and what is uncertain:
//! `docs/calculator.md`, "Menus that type tokens".

use ti82_machine::Key;
use tifiles::tokens::{detokenize, Spelling};

use crate::font;
use crate::screen::SCREEN_BYTES;

/// A menu: its tabs, each a title and the tokens of its items.
pub struct Catalog {
    pub name: &'static str,
    pub tabs: &'static [(&'static str, &'static [&'static [u8]])],
}

/// MATH (the MATH key).
pub const MATH: Catalog = Catalog {
    name: "MATH",
    tabs: &[
        (
            "MATH",
            &[
                &[0x03],
                &[0x02],
                &[0x0F],
                &[0xBD],
                &[0xF1],
                &[0x27],
                &[0x28],
                &[0x25],
                &[0x24],
                &[0x22],
            ],
        ),
        (
            "NUM",
            &[&[0x12], &[0xB9], &[0xBA], &[0xB1], &[0x1A], &[0x19]],
        ),
        (
            "HYP",
            &[&[0xC8], &[0xCA], &[0xCC], &[0xC9], &[0xCB], &[0xCD]],
        ),
        ("PRB", &[&[0xAB], &[0x94], &[0x95], &[0x2D]]),
    ],
};

/// TEST (2nd MATH).
pub const TEST: Catalog = Catalog {
    name: "TEST",
    tabs: &[
        (
            "TEST",
            &[&[0x6A], &[0x6F], &[0x6C], &[0x6E], &[0x6B], &[0x6D]],
        ),
        ("LOGIC", &[&[0x40], &[0x3C], &[0x3D], &[0xB8]]),
    ],
};

/// ANGLE (2nd MATRX).
pub const ANGLE: Catalog = Catalog {
    name: "ANGLE",
    tabs: &[(
        "ANGLE",
        &[
            &[0x0B],
            &[0xAE],
            &[0x0A],
            &[0x01],
            &[0x1B],
            &[0x1C],
            &[0x1D],
            &[0x1E],
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
                &[0x5C, 0x00],
                &[0x5C, 0x01],
                &[0x5C, 0x02],
                &[0x5C, 0x03],
                &[0x5C, 0x04],
            ],
        ),
        (
            "MATH",
            &[
                &[0xB3],
                &[0x0E],
                &[0xB5],
                &[0xE2],
                &[0xB4],
                &[0x20],
                &[0x14],
                &[0x15],
                &[0x16],
                &[0x17],
                &[0x18],
            ],
        ),
    ],
};

/// LIST (2nd STAT).
pub const LIST: Catalog = Catalog {
    name: "LIST",
    tabs: &[
        ("OPS", &[&[0xE3], &[0xE4], &[0xB5], &[0xE2], &[0x23]]),
        (
            "MATH",
            &[&[0x1A], &[0x19], &[0x21], &[0x1F], &[0xB6], &[0xB7]],
        ),
    ],
};

/// PRGM inside the program editor: the commands (CTL) and input/output (I/O).
pub const PRGM: Catalog = Catalog {
    name: "PRGM",
    tabs: &[
        (
            "CTL",
            &[
                &[0xCE],
                &[0xCF],
                &[0xD0],
                &[0xD3],
                &[0xD1],
                &[0xD2],
                &[0xD4],
                &[0xD8],
                &[0xD6],
                &[0xD7],
                &[0xDA],
                &[0xDB],
                &[0xE6],
                &[0x5F],
                &[0xD5],
                &[0xD9],
            ],
        ),
        (
            "I/O",
            &[
                &[0xDC],
                &[0xDD],
                &[0xDE],
                &[0xDF],
                &[0xE5],
                &[0xE0],
                &[0xAD],
                &[0xE1],
                &[0xFB],
                &[0xE8],
                &[0xE7],
            ],
        ),
    ],
};

/// DRAW (2nd DRAW, above PRGM): drawing, points, and storing pictures and graph databases.
pub const DRAW: Catalog = Catalog {
    name: "DRAW",
    tabs: &[
        (
            "DRAW",
            &[
                &[0x85],
                &[0x9C],
                &[0xA6],
                &[0x9D],
                &[0xA4],
                &[0xA9],
                &[0xA8],
                &[0xA5],
                &[0x93],
            ],
        ),
        (
            "POINTS",
            &[
                &[0x9E],
                &[0x9F],
                &[0xA0],
                &[0xA1],
                &[0xA2],
                &[0xA3],
                &[0x13],
            ],
        ),
        ("STO", &[&[0x98], &[0x99], &[0x9A], &[0x9B]]),
    ],
};

/// Every menu, for the key that opens it.
pub const CATALOGS: [&Catalog; 7] = [&MATH, &TEST, &ANGLE, &MATRX, &LIST, &PRGM, &DRAW];

/// Where a menu was opened from, so choosing an item types into that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogFrom {
    Home,
    /// A program's `Input`.
    Input,
    Editor,
}

/// An item's text: its token as the calculator spells it, without the spaces some tokens
/// carry (` and `, `int `).
pub fn label(token: &[u8]) -> String {
    detokenize(token, Spelling::Display).trim().to_string()
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
    /// Close the menu without typing.
    Close,
    /// 2nd QUIT: to the home screen.
    Quit,
}

impl CatalogCursor {
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

    pub fn key(&mut self, k: Key, second: bool) -> CatalogAction {
        if second && k == Key::Mode {
            return CatalogAction::Quit;
        }
        let tabs = self.catalog().tabs;
        let items = tabs[self.tab].1;
        let n = items.len();
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
            Key::Up => self.sel = (self.sel + n - 1) % n,
            Key::Down => self.sel = (self.sel + 1) % n,
            Key::Enter => return CatalogAction::Type(items[self.sel]),
            Key::Clear => return CatalogAction::Close,
            _ => {
                if let Some(i) = item_key(k).filter(|&i| i < n) {
                    return CatalogAction::Type(items[i]);
                }
            }
        }
        CatalogAction::None
    }

    /// The tab titles on the top line (the open one inverted), the items below, `N:TEXT`
    /// with the selected number inverted, scrolling.
    pub fn draw(&self, img: &mut [u8; SCREEN_BYTES]) {
        let tabs = self.catalog().tabs;
        let mut col = 0;
        for (i, (title, _)) in tabs.iter().enumerate() {
            let codes = font::encode(title).unwrap_or_default();
            font::draw_large_with(img, 0, col, &codes, i == self.tab);
            col += 6 * (codes.len() + 1);
        }
        let items = tabs[self.tab].1;
        let top = (self.sel + 1).saturating_sub(7);
        for (i, token) in items.iter().enumerate().skip(top).take(7) {
            let row = (i - top + 1) * 8;
            let mark = crate::firmware::menu_label(i).unwrap_or(b' ');
            font::draw_large_with(img, row, 0, &[mark], i == self.sel);
            font::draw_large(img, row, 6, b":");
            let text = font::encode(&label(token)).unwrap_or_default();
            font::draw_large(img, row, 12, &text[..text.len().min(14)]);
        }
    }
}

/// The item a key picks: 1-9 the first nine, 0 the tenth (the one menu longer than that,
/// MATRX MATH, has its 11th item, `A:`, reached with the arrows).
fn item_key(k: Key) -> Option<usize> {
    use Key::*;
    Some(match k {
        K1 => 0,
        K2 => 1,
        K3 => 2,
        K4 => 3,
        K5 => 4,
        K6 => 5,
        K7 => 6,
        K8 => 7,
        K9 => 8,
        K0 => 9,
        _ => return None,
    })
}
