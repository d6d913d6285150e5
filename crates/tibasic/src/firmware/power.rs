//! Power and contrast: 2nd OFF and the automatic power-down (the display off, only ON acts; ON
//! turns the calculator back on with the screen as it was), and 2nd ▲/▼ stepping the LCD
//! contrast with its digit in the top-right corner (spec hardware §5.7, §8 step 6; software
//! §7.2 `contrast` at 8008h).

use super::*;

/// The user's contrast setting in RAM (spec software §7.2: 0 to 1Fh).
pub(super) const CONTRAST_ADDR: u16 = 0x8008;
/// The setting after a reset; with [`CONTRAST_BASE`] it gives the T6A04 command F6h.
pub(super) const CONTRAST_DEFAULT: u8 = 0x1E;
/// The T6A04 contrast command for setting 0 (C0h-FFh set the contrast, spec hardware §5.3).
/// How the OS maps its setting onto the command is not documented [U]: this base keeps the
/// command in the range the rendering shows well.
const CONTRAST_BASE: u8 = 0xD8;
/// How long the contrast digit stays on the screen after a change.
const CONTRAST_SHOWN_T: u64 = 6_000 * 1_000;
/// Idle time before the automatic power-down: about five minutes of no key at a screen that
/// waits for one [I: the TI-82 guide's figure is not at hand; TI's calculators of the time
/// all say "about five minutes"].
pub const APD_T: u64 = 6_000_000 * 300;

impl BasicFirmware {
    /// The user's contrast setting (0 to 1Fh).
    pub(super) fn contrast(hw: &Hardware) -> u8 {
        hw.mem.ram()[screen::off(CONTRAST_ADDR)].min(0x1F)
    }

    /// 2nd ▲ (darker) or 2nd ▼ (lighter).
    pub(super) fn adjust_contrast(&mut self, hw: &mut Hardware, up: bool) {
        let c = Self::contrast(hw);
        let c = if up {
            (c + 1).min(0x1F)
        } else {
            c.saturating_sub(1)
        };
        hw.mem.ram_mut()[screen::off(CONTRAST_ADDR)] = c;
        Self::send_contrast(hw);
        self.contrast_shown_until = hw.now + CONTRAST_SHOWN_T;
        self.st.dirty = true;
    }

    /// Gives the T6A04 the user's setting.
    pub(super) fn send_contrast(hw: &mut Hardware) {
        hw.write_port(0x10, CONTRAST_BASE + Self::contrast(hw), hw.now);
        hw.now += LCD_GAP;
    }

    /// The digit shown after a contrast change: the setting on the 0-9 scale of the keys'
    /// status digit.
    pub(super) fn contrast_digit(hw: &Hardware) -> u8 {
        b'0' + (u16::from(Self::contrast(hw)) * 9 / 0x1F) as u8
    }

    /// Off: the display off (T6A04 command 02h), the link silent, only ON acts.
    pub(super) fn power_down(&mut self, hw: &mut Hardware) {
        self.stop_holder(hw);
        self.off = true;
        self.shift = Shift::None;
        hw.write_port(0x10, 0x02, hw.now);
        hw.now += LCD_GAP;
    }

    /// ON while off: the display on again, showing what it showed.
    pub(super) fn power_up(&mut self, hw: &mut Hardware) {
        self.off = false;
        self.last_activity = hw.now;
        // The entry cursor comes back on at once, as after a key.
        self.blink = 0;
        hw.write_port(0x10, 0x03, hw.now);
        hw.now += LCD_GAP;
        self.st.dirty = true;
        self.present(hw);
    }

    /// Whether the calculator sits waiting for a key (where the automatic power-down counts):
    /// a shell screen, or a program in `Menu(`, `Pause` or `Input`; not while a LINK transfer
    /// or a silent exchange runs.
    pub(super) fn idle_at_key_wait(&self) -> bool {
        if self.transfer.is_some() || self.holder.is_busy() {
            return false;
        }
        match self.shell {
            Shell::Running => matches!(
                self.interp.status(),
                Status::Waiting(Wait::Menu { .. } | Wait::Pause | Wait::Input(_))
            ),
            _ => true,
        }
    }
}
