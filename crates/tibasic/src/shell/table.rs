//! The table screen (`DispTable`, TABLE): `X` and up to two functions in columns like the
//! list editor's, six rows, the X of the top row written out on the bottom line.

use crate::display::{real_text, NumFormat};
use crate::font;
use crate::screen::SCREEN_BYTES;
use crate::table::TableData;

use super::{codes, column_cell as cell, column_rules, COLUMN_PX};

pub fn draw(t: &TableData, f: NumFormat, img: &mut [u8; SCREEN_BYTES]) {
    let mut headers = vec![codes("X")];
    for k in &t.functions {
        headers.push(crate::os::string_codes(&[
            crate::token::PREFIX_EQUATION,
            *k,
        ]));
    }
    for (c, h) in headers.iter().enumerate() {
        let x = c * COLUMN_PX;
        font::draw_large(img, 0, x + 6, h);
    }
    column_rules(img);
    for (r, (x, ys)) in t.xs.iter().zip(&t.ys).enumerate() {
        let y = 8 * (r + 1);
        font::draw_large(img, y, 0, &cell(&real_text(*x, f)));
        for (c, v) in ys.iter().enumerate() {
            let text = match v {
                Some(v) => real_text(*v, f),
                None => "ERROR".to_string(),
            };
            font::draw_large(img, y, (c + 1) * COLUMN_PX, &cell(&text));
        }
    }
    if let Some(x) = t.xs.first() {
        let mut line = codes("X=");
        line.extend(codes(&real_text(*x, f)));
        font::draw_large(img, 56, 0, &line[..line.len().min(16)]);
    }
}
