//! The shell's screens, one module each: what they show and what their keys do. The firmware
//! (`crate::firmware`) owns the calculator and carries out what a screen asks for.

pub mod catalog;
pub mod editor;
pub mod entry;
pub mod format;
pub mod graphing;
pub mod link;
pub mod matrix;
pub mod mem;
pub mod mode;
pub mod stat;
pub mod statplot;
pub mod statsetup;
pub mod table;
pub mod tblset;
pub mod window;

use ti82_machine::Key;

use crate::font;
use crate::screen::SCREEN_BYTES;

/// Text in the large font's codes (characters the font lacks dropped to ASCII).
pub(crate) fn codes(s: &str) -> Vec<u8> {
    font::encode(s).unwrap_or_else(|_| s.bytes().filter(|b| b.is_ascii()).collect())
}

/// Whether character `c` may stand in a program name (spec §3.9): a letter or θ, or a digit
/// after the first character (`tifiles`'s rule for names in files).
pub(crate) fn program_name_char(c: u8, first: bool) -> bool {
    tifiles::var::VarName::program_name_byte(c, first)
}

/// The character a digit key types.
pub(crate) fn digit_char(k: Key) -> Option<u8> {
    use Key::*;
    Some(match k {
        K0 => b'0',
        K1 => b'1',
        K2 => b'2',
        K3 => b'3',
        K4 => b'4',
        K5 => b'5',
        K6 => b'6',
        K7 => b'7',
        K8 => b'8',
        K9 => b'9',
        _ => return None,
    })
}

/// The menu item a digit key picks: 1-9 are items 0-8, 0 is item 9 (items past the tenth,
/// `A:`..., are reached with the arrows).
pub(crate) fn digit_item(k: Key) -> Option<usize> {
    digit_char(k).map(|c| match c - b'0' {
        0 => 9,
        d => usize::from(d) - 1,
    })
}

/// A menu's keys: ▲ ▼ move `sel` (wrapping), ENTER picks it, a digit picks its item.
pub(crate) fn pick_item(k: Key, sel: &mut usize, n: usize) -> Option<usize> {
    match k {
        Key::Up => {
            *sel = (*sel + n - 1) % n;
            None
        }
        Key::Down => {
            *sel = (*sel + 1) % n;
            None
        }
        Key::Enter => Some(*sel),
        _ => digit_item(k).filter(|&i| i < n),
    }
}

/// Menu items from text row `first`: `N:TEXT`, the selected item's number in inverse video;
/// the list scrolls to keep the selected item on the screen; a text is cut at the screen's
/// edge.
pub(crate) fn draw_items<S: AsRef<str>>(
    img: &mut [u8; SCREEN_BYTES],
    items: &[S],
    sel: usize,
    first: usize,
) {
    let room = 8 - first;
    let top = (sel + 1).saturating_sub(room);
    for (i, text) in items.iter().enumerate().skip(top).take(room) {
        let row = (i - top + first) * 8;
        let label = crate::firmware::menu_label(i).unwrap_or(b' ');
        font::draw_large_with(img, row, 0, &[label], i == sel);
        font::draw_large(img, row, 6, b":");
        let text = codes(text.as_ref());
        font::draw_large(img, row, 12, &text[..text.len().min(14)]);
    }
}

/// The column screens (the list editor, the table): three columns of 32 pixels, five
/// characters each, a blank pixel column and a rule between columns [I].
pub(crate) const COLUMN_PX: usize = 32;
const COLUMN_CHARS: usize = 5;

/// `text` right-aligned in a column, cut to four characters and `…` if wider [I].
pub(crate) fn column_cell(text: &str) -> Vec<u8> {
    let t = codes(text);
    let mut out = if t.len() <= COLUMN_CHARS {
        t
    } else {
        let mut c = t[..COLUMN_CHARS - 1].to_vec();
        c.extend(codes("…"));
        c
    };
    let mut cell = vec![b' '; COLUMN_CHARS.saturating_sub(out.len())];
    cell.append(&mut out);
    cell
}

/// The rules between the three columns, above the bottom line.
pub(crate) fn column_rules(img: &mut [u8; SCREEN_BYTES]) {
    for rule in [COLUMN_PX - 1, 2 * COLUMN_PX - 1] {
        for y in 0..56 {
            img[y * 12 + rule / 8] |= 0x80 >> (rule % 8);
        }
    }
}
