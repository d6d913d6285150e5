//! [`Calc`]: one calculator, the [`Firmware`] that runs it, and the glass image.

use std::any::Any;
use std::collections::VecDeque;
use std::path::Path;

use z80::{Bus, Cpu};

use crate::hw::{Config, Hardware, PagedBus, CLOCK_HZ};
use crate::keypad::Key;
use crate::lcd::{HEIGHT, WIDTH};
use crate::link::Link;
use crate::rom::RomImage;
use crate::state::{self, StateError, StateReader, StateWriter};

/// T-states in one 60 Hz host frame.
pub const FRAME_T: u64 = CLOCK_HZ / 60;

/// Something that runs the calculator for a T-state budget and can save and restore its own
/// state: the Z80 on a ROM image ([`RomFirmware`]) or a built-in runtime from another crate.
pub trait Firmware: Send {
    /// A stable name stored in save states.
    fn name(&self) -> &'static str;
    /// Power-on: set up the hardware (load a ROM, ...) and the firmware's own state.
    fn power_on(&mut self, hw: &mut Hardware);
    /// Runs until `hw.now >= until` (it may overshoot by part of an instruction), keeping
    /// `hw.now` and `hw.halted` up to date.
    fn run(&mut self, hw: &mut Hardware, until: u64);
    /// The firmware's own state (not the hardware's).
    fn save_state(&self, w: &mut StateWriter);
    /// Restores what `save_state` wrote. On error `self` must be unchanged.
    fn load_state(&mut self, data: &[u8]) -> Result<(), StateError>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// A debugger has stopped it: [`Calc::run_for`] returns at once (the clock stands still
    /// until the debugger resumes it).
    fn debug_stopped(&self) -> bool {
        false
    }
}

/// The Z80 running a ROM image.
#[derive(Clone, Debug)]
pub struct RomFirmware {
    pub cpu: Cpu,
    rom: RomImage,
    rom_hash: u64,
    /// How the CPU reads memory, chosen per window of run slices (speed only, see
    /// [`ReadChoice`]); not saved with the state.
    reads: ReadChoice,
    /// The debugger, while one is attached (`debug.rs`; looked at once per run slice).
    pub debug: Option<Box<crate::debug::Z80Debug>>,
}

/// Whether the CPU reads through the memory's view (one load, a 16 KiB copy per bank switch)
/// or paged (a table look-up more per read, switches free): the view while the program
/// switches banks at most once per [`ReadChoice::VIEW_T_PER_SWITCH`] T-states over the last
/// window, as measured. A machine starts paged, so that a program switching constantly never
/// pays a copy per switch, not even in its first window. Both give the same bytes, so the
/// choice never changes what the calculator does, only how fast the host runs it
/// (`docs/performance.md`).
#[derive(Clone, Copy, Debug)]
struct ReadChoice {
    view: bool,
    window_t: u64,
    window_switches: u64,
}

impl ReadChoice {
    /// Length of a measuring window.
    const WINDOW_T: u64 = 1 << 16;
    /// The view pays while a switch (about 200 ns of copying, as `cargo xtask bench-machine`
    /// prints) comes no more often than this: the view saved about a fifth of a nanosecond per
    /// instruction on `bench-z80`'s tios, and 8192 T-states are about 1000 instructions
    /// (`docs/performance.md`, seventh session).
    const VIEW_T_PER_SWITCH: u64 = 8192;

    fn new() -> Self {
        ReadChoice {
            view: false,
            window_t: 0,
            window_switches: 0,
        }
    }

    /// Updates the choice at the start of a run slice at `now`, given the switches so far.
    fn update(&mut self, now: u64, switches: u64) -> bool {
        let span = now.wrapping_sub(self.window_t);
        if span >= Self::WINDOW_T || now < self.window_t {
            let n = switches.wrapping_sub(self.window_switches);
            self.view = n.saturating_mul(Self::VIEW_T_PER_SWITCH) <= span;
            self.window_t = now;
            self.window_switches = switches;
        }
        self.view
    }
}

impl RomFirmware {
    pub fn new(rom: RomImage) -> Self {
        let rom_hash = rom.hash();
        RomFirmware {
            cpu: Cpu::new(),
            rom,
            rom_hash,
            reads: ReadChoice::new(),
            debug: None,
        }
    }

    pub fn rom(&self) -> &RomImage {
        &self.rom
    }
}

impl Firmware for RomFirmware {
    fn name(&self) -> &'static str {
        "rom-z80"
    }

    fn power_on(&mut self, hw: &mut Hardware) {
        hw.mem.load_rom(self.rom.bytes());
        self.cpu = Cpu::new();
        self.reads = ReadChoice::new();
        // §3.3 [E]: undefined on hardware; the spec recommends TilEm's values for
        // reproducibility: the pairs FFFFh (the core's power-on values) and I = FFh.
        self.cpu.i = 0xFF;
        self.cpu.set_t(hw.now);
    }

    #[inline]
    fn run(&mut self, hw: &mut Hardware, until: u64) {
        if self.cpu.t() < hw.now {
            self.cpu.set_t(hw.now);
        }
        if let Some(d) = self.debug.as_deref_mut() {
            crate::debug::run(&mut self.cpu, hw, d, until);
            return;
        }
        if hw.config.generation_from_port4 {
            // Rare (a ROM without readable version text): watch where port-04h writes come
            // from, on a bus of its own so the usual path pays nothing.
            hw.mem.set_lazy_view(true);
            self.cpu.run(&mut Page0Watch { hw, m1: 0 }, until);
        } else if self.reads.update(hw.now, hw.mem.bank_switches) {
            hw.mem.set_lazy_view(false);
            self.cpu.run(hw, until);
        } else {
            hw.mem.set_lazy_view(true);
            self.cpu.run(&mut PagedBus(hw), until);
        }
        hw.now = self.cpu.t();
        hw.halted = self.cpu.halted();
    }

    fn save_state(&self, w: &mut StateWriter) {
        let c = &self.cpu;
        w.u64(self.rom_hash);
        // B C D E H L F A, through the pair accessors: the record does not depend on the
        // order `Cpu::regs` keeps them in.
        let [b, cc] = c.bc().to_be_bytes();
        let [d, e] = c.de().to_be_bytes();
        let [h, l] = c.hl().to_be_bytes();
        w.bytes(&[b, cc, d, e, h, l, c.f(), c.a()]);
        for v in [
            c.af_alt, c.bc_alt, c.de_alt, c.hl_alt, c.ix, c.iy, c.sp, c.pc, c.wz,
        ] {
            w.u16(v);
        }
        for v in [c.i, c.r(), c.q(), c.im, c.prefix()] {
            w.u8(v);
        }
        for v in [c.p(), c.ei(), c.iff1, c.iff2, c.halted()] {
            w.bool(v);
        }
        w.u64(c.t());
    }

    fn load_state(&mut self, data: &[u8]) -> Result<(), StateError> {
        let mut r = StateReader::new(data);
        if r.u64()? != self.rom_hash {
            return Err(StateError::RomMismatch);
        }
        let mut c = Cpu::new();
        let regs = r.bytes()?;
        if regs.len() != 8 {
            return Err(StateError::Corrupt("CPU register file"));
        }
        let pair = |hi: usize, lo: usize| u16::from_be_bytes([regs[hi], regs[lo]]);
        c.set_bc(pair(0, 1));
        c.set_de(pair(2, 3));
        c.set_hl(pair(4, 5));
        c.set_af(pair(7, 6));
        c.af_alt = r.u16()?;
        c.bc_alt = r.u16()?;
        c.de_alt = r.u16()?;
        c.hl_alt = r.u16()?;
        c.ix = r.u16()?;
        c.iy = r.u16()?;
        c.sp = r.u16()?;
        c.pc = r.u16()?;
        c.wz = r.u16()?;
        c.i = r.u8()?;
        c.set_r(r.u8()?);
        c.set_q(r.u8()?);
        c.im = r.u8()?;
        let prefix = r.u8()?;
        if c.im > 2 || !matches!(prefix, 0 | 0xDD | 0xFD) {
            return Err(StateError::Corrupt("CPU mode"));
        }
        c.set_prefix(prefix);
        c.set_p(r.bool()?);
        c.set_ei(r.bool()?);
        c.iff1 = r.bool()?;
        c.iff2 = r.bool()?;
        c.set_halted(r.bool()?);
        c.set_t(state::time(&mut r)?);
        r.done()?;
        self.cpu = c;
        self.reads = ReadChoice::new();
        Ok(())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn debug_stopped(&self) -> bool {
        self.debug.as_ref().is_some_and(|d| d.stopped.is_some())
    }
}

/// The hardware as the CPU's bus, noting each opcode fetch's address so that a port-04h write
/// executed from 0000h – 3FFFh can decide the generation (spec §8.4).
struct Page0Watch<'a> {
    hw: &'a mut Hardware,
    /// Address of the last M1 (the instruction's own opcode, or the byte after its prefix).
    m1: u16,
}

impl Bus for Page0Watch<'_> {
    #[inline(always)]
    fn fetch(&mut self, addr: u16, _t: u64) -> u8 {
        self.m1 = addr;
        self.hw.mem.read(addr)
    }
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.hw.mem.read(addr)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.hw.write(addr, value, t)
    }
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.hw.port_in(port, t)
    }
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        if self.hw.decoded_port(port as u8) == 0x04 && self.m1 < 0x4000 {
            self.hw.port4_written_from_page0(value);
        }
        self.hw.port_out(port, value, t)
    }
    #[inline(always)]
    fn int_line(&mut self, t: u64) -> bool {
        self.hw.int_line(t)
    }
    #[inline(always)]
    fn next_event(&mut self, t: u64) -> u64 {
        self.hw.next_event(t)
    }
}

/// The 96 × 64 image as the glass shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screen {
    /// Dark pixels (display on, not powered down), ignoring contrast; row-major.
    pub bits: Vec<bool>,
    /// Darkness 0 (blank) – 255 (black) per pixel: contrast and ghosting applied.
    pub shades: Vec<u8>,
}

impl Screen {
    pub fn pixel(&self, x: usize, y: usize) -> bool {
        x < WIDTH && y < HEIGHT && self.bits[y * WIDTH + x]
    }

    /// Text art: 64 lines of 96 `#` (dark) or `.` characters, each ending in a newline.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((WIDTH + 1) * HEIGHT);
        for row in self.bits.chunks(WIDTH) {
            s.extend(row.iter().map(|&b| if b { '#' } else { '.' }));
            s.push('\n');
        }
        s
    }
}

/// Darkness of a lit pixel at a contrast setting. §5.7 [U]: proportional to contrast − 30,
/// clamped (Wabbitemu's TI-82 base); 63 is black.
pub fn contrast_shade(contrast: u8) -> u8 {
    let c = i32::from(contrast & 63) - 30;
    (c.clamp(0, 33) * 255 / 33) as u8
}

/// One calculator: hardware plus the firmware that runs it. No globals: make as many as you
/// like.
pub struct Calc {
    hw: Hardware,
    fw: Box<dyn Firmware>,
    ghost: VecDeque<Vec<bool>>,
}

impl Calc {
    /// A calculator with the default configuration, powered on.
    pub fn new(firmware: impl Firmware + 'static) -> Self {
        Self::with_config(firmware, Config::default())
    }

    pub fn with_config(firmware: impl Firmware + 'static, config: Config) -> Self {
        let mut hw = Hardware::new(config);
        let mut fw: Box<dyn Firmware> = Box::new(firmware);
        fw.power_on(&mut hw);
        Calc {
            hw,
            fw,
            ghost: VecDeque::new(),
        }
    }

    /// A Z80 calculator running `rom`, configured for the ROM's generation; when its version
    /// text is unreadable, port-04h writes decide the generation (spec §8.4).
    pub fn from_rom(rom: RomImage) -> Self {
        Self::from_rom_with(rom, &[])
    }

    /// [`Calc::from_rom`] with hardware choices away from our defaults (`--hw`).
    pub fn from_rom_with(rom: RomImage, choices: &[crate::HwChoice]) -> Self {
        let mut config = Config::for_generation(rom.generation());
        config.generation_from_port4 = rom.version().is_none();
        for &c in choices {
            config.apply(c);
        }
        Self::with_config(RomFirmware::new(rom), config)
    }

    /// Hardware choices away from our defaults (`--hw`), applied to a calculator that has
    /// just been made (see [`Hardware::apply`]).
    pub fn apply_hw_choices(&mut self, choices: &[crate::HwChoice]) {
        for &c in choices {
            self.hw.apply(c);
        }
    }

    /// Current time in T-states since power-on.
    pub fn now(&self) -> u64 {
        self.hw.now
    }

    pub fn hardware(&self) -> &Hardware {
        &self.hw
    }

    pub fn hardware_mut(&mut self) -> &mut Hardware {
        &mut self.hw
    }

    pub fn firmware(&self) -> &dyn Firmware {
        &*self.fw
    }

    pub fn firmware_mut(&mut self) -> &mut dyn Firmware {
        &mut *self.fw
    }

    /// The CPU, when the firmware is [`RomFirmware`].
    /// The firmware and the hardware at once (a debugger evaluates in the firmware against
    /// the hardware's memory).
    pub fn parts_mut(&mut self) -> (&mut dyn Firmware, &mut Hardware) {
        (&mut *self.fw, &mut self.hw)
    }

    pub fn cpu(&self) -> Option<&Cpu> {
        self.fw
            .as_any()
            .downcast_ref::<RomFirmware>()
            .map(|f| &f.cpu)
    }

    pub fn cpu_mut(&mut self) -> Option<&mut Cpu> {
        self.fw
            .as_any_mut()
            .downcast_mut::<RomFirmware>()
            .map(|f| &mut f.cpu)
    }

    /// Runs for `t_states` (to within part of an instruction). A calculator on a cable is run
    /// through its end of the cable ([`crate::cable::CableEnd`]), which calls this.
    pub fn run_for(&mut self, t_states: u64) {
        let target = self.hw.now.saturating_add(t_states);
        while self.hw.now < target {
            self.fw.run(&mut self.hw, target);
            if self.fw.debug_stopped() {
                break;
            }
        }
    }

    /// Runs one 60 Hz frame (100 000 T-states) and records it for LCD ghosting.
    pub fn run_frame(&mut self) {
        self.run_for(FRAME_T);
        let n = self.hw.config.lcd_ghost_frames as usize;
        if n > 1 {
            let bits = self.glass_bits();
            self.ghost.push_back(bits);
            while self.ghost.len() > n {
                self.ghost.pop_front();
            }
        }
    }

    /// Runs until the test exit port is written or `max_t` T-states pass; returns the code.
    pub fn run_until_exit(&mut self, max_t: u64) -> Option<u8> {
        let end = self.hw.now.saturating_add(max_t);
        while self.hw.test_exit.is_none() && self.hw.now < end {
            self.run_for((end - self.hw.now).min(2_000));
        }
        self.hw.test_exit
    }

    pub fn set_key(&mut self, key: Key, down: bool) {
        self.hw.keypad.set(key, down);
    }

    pub fn press(&mut self, key: Key) {
        self.set_key(key, true);
    }

    pub fn release(&mut self, key: Key) {
        self.set_key(key, false);
    }

    /// The ON key (not in the matrix, §6.5).
    pub fn set_on(&mut self, down: bool) {
        let t = self.hw.now;
        self.hw.set_on(down, t);
    }

    fn glass_bits(&self) -> Vec<bool> {
        let lcd = &self.hw.lcd;
        let visible = lcd.display_on() && !self.hw.powered_down();
        let mut bits = vec![false; WIDTH * HEIGHT];
        if visible {
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    bits[y * WIDTH + x] = lcd.pixel(x, y);
                }
            }
        }
        bits
    }

    /// The glass: display RAM through the Z scroll, blank when the display is off or the
    /// calculator is powered down (§5.7), shaded by contrast, averaged over recent frames when
    /// LCD ghosting is on.
    pub fn lcd(&self) -> Screen {
        let bits = self.glass_bits();
        let dark = u32::from(contrast_shade(self.hw.lcd.contrast()));
        let shades = if self.ghost.len() > 1 {
            let n = self.ghost.len() as u32;
            (0..bits.len())
                .map(|i| {
                    let on = self.ghost.iter().filter(|f| f[i]).count() as u32;
                    (dark * on / n) as u8
                })
                .collect()
        } else {
            bits.iter()
                .map(|&b| if b { dark as u8 } else { 0 })
                .collect()
        };
        Screen { bits, shades }
    }

    /// The link port endpoint.
    pub fn link(&mut self) -> Link<'_> {
        self.hw.link_endpoint()
    }

    /// The 32 KiB of RAM (8000h – FFFFh).
    pub fn ram(&self) -> &[u8] {
        self.hw.mem.ram()
    }

    pub fn ram_mut(&mut self) -> &mut [u8] {
        self.hw.mem.ram_mut()
    }

    /// Exit code written to the test port, when [`Config::test_ports`] is on.
    pub fn test_exit(&self) -> Option<u8> {
        self.hw.test_exit
    }

    /// Bytes written to the test output port.
    pub fn test_output(&self) -> &[u8] {
        &self.hw.test_out
    }

    // ------------------------------------------------------------------ save states

    /// The whole machine as a state file image.
    pub fn state_bytes(&self) -> Vec<u8> {
        let mut w = StateWriter::default();
        state::write_hardware(&mut w, &self.hw);
        w.bytes(self.fw.name().as_bytes());
        let mut fw = StateWriter::default();
        self.fw.save_state(&mut fw);
        w.bytes(&fw.0);
        state::envelope(&w.0)
    }

    /// Restores from a state file image; on error nothing changes. `name` is for messages.
    pub fn restore_bytes(&mut self, name: &Path, data: &[u8]) -> Result<(), StateError> {
        let payload = state::open_envelope(name, data)?;
        let mut r = StateReader::new(payload);
        let hw = state::read_hardware(&mut r)?;
        let fw_name = r.bytes()?;
        if fw_name != self.fw.name().as_bytes() {
            return Err(StateError::Firmware {
                expected: self.fw.name().to_string(),
                found: String::from_utf8_lossy(fw_name).into_owned(),
            });
        }
        let fw_state = r.bytes()?;
        r.done()?;
        // The firmware restores atomically; only then do we replace the hardware.
        self.fw.load_state(fw_state)?;
        let rom = self.hw.mem.rom().to_vec();
        self.hw = hw;
        self.hw.mem.load_rom(&rom);
        self.ghost.clear();
        Ok(())
    }

    /// Saves the whole machine to `path` (temporary file + rename).
    pub fn save_state(&self, path: impl AsRef<Path>) -> Result<(), StateError> {
        state::write_atomic(path.as_ref(), &self.state_bytes())
    }

    /// Loads a state saved by [`Calc::save_state`]; on error nothing changes.
    pub fn load_state(&mut self, path: impl AsRef<Path>) -> Result<(), StateError> {
        let path = path.as_ref();
        let data = std::fs::read(path).map_err(|source| StateError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.restore_bytes(path, &data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_curve() {
        assert_eq!(contrast_shade(0), 0);
        assert_eq!(contrast_shade(30), 0);
        assert_eq!(contrast_shade(63), 255);
    }

    #[test]
    fn state_files_keep_the_registers_in_the_z80s_order() {
        // The CPU record lists B C D E H L F A, as every earlier build wrote it, which is not
        // the order `Cpu::regs` keeps them in; a file written by an older build must load
        // with its pairs the right way round.
        let mut fw = RomFirmware::new(RomImage::from_program(&[0x76]));
        fw.cpu.set_bc(0x0102);
        fw.cpu.set_de(0x0304);
        fw.cpu.set_hl(0x0506);
        fw.cpu.set_af(0x0807);
        let mut w = StateWriter(Vec::new());
        fw.save_state(&mut w);
        // After the ROM hash (8 bytes) and the byte string's length (8 bytes).
        assert_eq!(&w.0[8..16], &8u64.to_le_bytes());
        assert_eq!(&w.0[16..24], &[1, 2, 3, 4, 5, 6, 7, 8]);
        let mut back = RomFirmware::new(RomImage::from_program(&[0x76]));
        back.load_state(&w.0).unwrap();
        assert_eq!(
            (back.cpu.bc(), back.cpu.de(), back.cpu.hl(), back.cpu.af()),
            (0x0102, 0x0304, 0x0506, 0x0807)
        );
    }

    #[test]
    fn cpu_times_past_half_the_cores_clock_are_refused() {
        // The core's T-state count is 56 bits (`z80::T_LIMIT`); a state file may hold at most
        // half of that, so that the clock cannot wrap while the state runs on.
        let mut fw = RomFirmware::new(RomImage::from_program(&[0x76]));
        let state_at = |fw: &RomFirmware, t: u64| {
            let mut w = StateWriter(Vec::new());
            fw.save_state(&mut w);
            let n = w.0.len();
            w.0[n - 8..].copy_from_slice(&t.to_le_bytes());
            w.0
        };
        let last = z80::T_LIMIT / 2 - 1;
        fw.load_state(&state_at(&fw, last)).unwrap();
        assert_eq!(fw.cpu.t(), last);
        let e = fw.load_state(&state_at(&fw, last + 1)).unwrap_err();
        assert!(matches!(e, StateError::Corrupt(_)), "{e}");
        assert_eq!(fw.cpu.t(), last, "a refused state changes nothing");
    }

    #[test]
    fn reads_go_through_the_view_only_while_switches_are_rare() {
        let w = ReadChoice::WINDOW_T;
        let mut c = ReadChoice::new();
        assert!(!c.update(0, 0), "a new machine starts paged");
        assert!(!c.update(w - 1, 0), "no choice before a whole window");
        // A window with one switch per 8192 T-states or fewer: the view.
        assert!(c.update(w, w / ReadChoice::VIEW_T_PER_SWITCH));
        // One switch more than that in the next window: paged.
        let n = w / ReadChoice::VIEW_T_PER_SWITCH;
        assert!(!c.update(2 * w, n + n + 1));
        // A quiet window: the view again; a long slice counts as one window.
        assert!(c.update(10 * w, n + n + 1));
        // Time going back (a state loaded) starts a new window at once.
        assert!(!c.update(w, u64::MAX / 2));
    }
}
