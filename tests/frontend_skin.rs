//! The skin: drawn at every scale without going out of its buffer, with and without help.

#[path = "frontend_rom.rs"]
mod rom;

use ti82::keymap::KeyMap;
use ti82::script::Button;
use ti82::skin::{draw, Layout, Overlay};
use ti82_machine::Key;

#[test]
fn skin_draws_at_every_scale() {
    let mut c = rom::calc();
    c.run_for(200_000);
    let screen = c.lcd();
    let help = KeyMap::default().help_lines();
    for scale in 1..=8 {
        let l = Layout::new(scale);
        let mut buf = vec![0u32; l.width * l.height];
        let down = [Button::Key(Key::Enter)];
        for with_help in [false, true] {
            draw(
                &mut buf,
                &l,
                &screen,
                &Overlay {
                    status: "real 1.00x | link: none | a very long status line that must be cut to the width of the window",
                    down: &down,
                    help: with_help.then_some(help.as_slice()),
                },
            );
            // For a look at the skin: TI82_SKIN_OUT=folder cargo test --test frontend_skin
            if let Some(dir) = std::env::var_os("TI82_SKIN_OUT") {
                let p = std::path::Path::new(&dir).join(format!("skin-{scale}-{with_help}.png"));
                ti82::render::write_png(&p, &buf, l.width, l.height).unwrap();
            }
        }
        // The LCD region holds the LCD.
        let (img, w, _) = ti82::render::lcd_image(&screen, scale);
        for y in [0, 10 * scale, 63 * scale] {
            let row = &buf[(l.lcd_y + y) * l.width + l.lcd_x..][..w];
            assert_eq!(row, &img[y * w..][..w], "scale {scale} row {y}");
        }
    }
}
