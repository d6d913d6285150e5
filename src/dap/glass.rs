//! The calculator's window while debugging (not headless).

/// The calculator's window while debugging (not headless): the glass and a status line that
/// says where execution stands; it shows, it takes no keys.
pub(super) struct Glass {
    pub(super) window: minifb::Window,
    pub(super) layout: crate::skin::Layout,
    pub(super) buf: Vec<u32>,
    pub(super) shown: Option<(ti82_machine::Screen, String)>,
    /// When it was last looked after (a running calculator is shown 60 times a second).
    pub(super) at: std::time::Instant,
}

impl Glass {
    pub(super) fn open(title: &str) -> Result<Glass, String> {
        if !crate::have_display() {
            return Err("no display".into());
        }
        let layout = crate::skin::Layout::new(crate::WINDOW_SCALE as usize);
        let mut window = crate::gui::open_window(title, &layout).map_err(|e| e.to_string())?;
        window.set_target_fps(0);
        let buf = vec![0; layout.width * layout.height];
        Ok(Glass {
            window,
            layout,
            buf,
            shown: None,
            at: std::time::Instant::now(),
        })
    }

    /// Shows `screen` and `status` (drawn only when they changed); false once the window
    /// was closed.
    pub(super) fn show(&mut self, screen: ti82_machine::Screen, status: String) -> bool {
        if !self.window.is_open() {
            return false;
        }
        self.at = std::time::Instant::now();
        let now = (screen, status);
        if self.shown.as_ref() == Some(&now) {
            self.window.update();
            return true;
        }
        crate::skin::draw(
            &mut self.buf,
            &self.layout,
            &now.0,
            &crate::skin::Overlay {
                status: &now.1,
                down: &[],
                help: None,
            },
        );
        self.shown = Some(now);
        self.window
            .update_with_buffer(&self.buf, self.layout.width, self.layout.height)
            .is_ok()
    }
}
