//! The MODE settings written through to system RAM (`crate::os::mode_ram`): the runtime works
//! on `OsState::modes`; RAM holds the same settings where the TI-OS keeps them, so a memory
//! backup carries them both ways.

use ti82_machine::Hardware;

use super::BasicFirmware;
use crate::os::mode_ram;

/// What was last written to (or read from) RAM: the settings and the bytes they left there.
pub(super) type InRam = Option<(crate::os::Modes, [u8; 7])>;

impl BasicFirmware {
    /// Brings the settings and their RAM copy into step: RAM changed by something else (a
    /// backup restored into it) is read; settings changed since the last call are written.
    /// Before the first call (a state just loaded) the settings are written.
    pub(super) fn sync_modes(&mut self, ram: &mut [u8]) {
        let snap = mode_ram::snapshot(ram);
        match &self.modes_in_ram {
            Some((_, s)) if *s != snap => {
                self.st.modes = mode_ram::read(ram, &self.st.modes);
                self.st.dirty = true;
                self.st.graph_dirty = true;
            }
            Some((m, _)) if *m == self.st.modes => return,
            _ => mode_ram::write(ram, &self.st.modes),
        }
        self.modes_in_ram = Some((self.st.modes.clone(), mode_ram::snapshot(ram)));
    }

    /// RAM was replaced (a backup): its settings become the runtime's.
    pub(super) fn read_modes(&mut self, ram: &[u8]) {
        self.st.modes = mode_ram::read(ram, &self.st.modes);
        self.modes_in_ram = Some((self.st.modes.clone(), mode_ram::snapshot(ram)));
        self.st.dirty = true;
        // The graph is drawn again, for the backup's modes, at the next look.
        self.st.graph_dirty = true;
    }

    pub(super) fn sync_modes_hw(&mut self, hw: &mut Hardware) {
        self.sync_modes(hw.mem.ram_mut());
    }
}
