//! The hardware a firmware drives: memory, ports 00h – 04h, 10h/11h, the timer, the
//! interrupt controller, the LCD, the keypad and the link port, and the Z80 [`Bus`] over them.

use crate::keypad::Keypad;
use crate::lcd::Lcd;
use crate::link::{Link, LinkPort};
use crate::memory::{Memory, PagingModel};
use z80::Bus;

/// T-states per emulated second (spec §2.1).
pub const CLOCK_HZ: u64 = 6_000_000;

/// Port a test build writes its exit code to (only when [`Config::test_ports`] is set).
pub const TEST_EXIT_PORT: u8 = 0xF0;
/// Port a test program writes report bytes to (only when [`Config::test_ports`] is set).
pub const TEST_OUT_PORT: u8 = 0xF1;

/// Hardware generation (spec §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Generation {
    /// All TI-82s up to ROM 19.0: TI-85-style link register, classic timer periods.
    #[default]
    Classic,
    /// The 2001 redesign shipped with ROM 19.006: TI-83-style link register and timer table.
    Parcus,
}

/// Machine options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub generation: Generation,
    pub paging: PagingModel,
    /// Decode ports on A4–A0 with the TI-83 ASIC's read mirrors (§4.2) instead of exactly.
    pub port_mirrors: bool,
    /// Drop LCD accesses made while the driver is busy (§5.6).
    pub lcd_drop_when_busy: bool,
    /// Key ghosting of the diode-less matrix (§4.5).
    pub key_ghosting: bool,
    /// Watch the test-only ports F0h (exit code) and F1h (report byte).
    pub test_ports: bool,
    /// LCD ghosting: average the glass over this many recent frames (0 or 1 = off).
    pub lcd_ghost_frames: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            generation: Generation::Classic,
            paging: PagingModel::Ti83,
            port_mirrors: false,
            lcd_drop_when_busy: false,
            key_ghosting: true,
            test_ports: false,
            lcd_ghost_frames: 0,
        }
    }
}

impl Config {
    /// The configuration for a generation: Parcus gets the TI-83 ASIC port mirrors.
    pub fn for_generation(generation: Generation) -> Self {
        Config {
            generation,
            port_mirrors: generation == Generation::Parcus,
            ..Config::default()
        }
    }
}

/// Timer period in T-states for port 04h (spec §2.4).
///
/// Classic [U]: period = (4n + 3) × 4 130 T-states, n = bits 2:1 (one real-hardware
/// measurement). Parcus [U]: TilEm's TI-83 table indexed by bit 4 + 2 × bits 2:1, in µs × 6.
pub fn timer_period(generation: Generation, port4: u8) -> u64 {
    let n = u64::from((port4 >> 1) & 3);
    match generation {
        Generation::Classic => (4 * n + 3) * 4130,
        Generation::Parcus => {
            const US: [u64; 8] = [1667, 1852, 3889, 4321, 6111, 6790, 8333, 9259];
            let idx = (port4 >> 4) as usize & 1 | (n as usize) << 1;
            US[idx & 7] * 6
        }
    }
}

/// Port 03h state (spec §4.6) and the timer's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupts {
    pub(crate) port3: u8,
    pub(crate) on_pending: bool,
    pub(crate) timer_pending: bool,
    pub(crate) on_held: bool,
    pub(crate) next_tick: u64,
    pub(crate) period: u64,
    /// Earliest time the interrupt line can be high: 0 when something is pending, the next
    /// tick when the timer is enabled, otherwise never. Keeps `int_line` to one compare.
    pub(crate) line_at: u64,
    /// Timer ticks that set the pending flag (a diagnostic for tests).
    pub timer_ticks: u64,
}

impl Interrupts {
    pub(crate) fn update_line_at(&mut self) {
        self.line_at = if self.on_pending || self.timer_pending {
            0
        } else if self.port3 & 2 != 0 {
            self.next_tick
        } else {
            u64::MAX
        };
    }

    pub fn on_enabled(&self) -> bool {
        self.port3 & 1 != 0
    }
    pub fn timer_enabled(&self) -> bool {
        self.port3 & 2 != 0
    }
    /// Port 03h bit 3: 0 = low-power at the next HALT.
    pub fn power_bit(&self) -> bool {
        self.port3 & 8 != 0
    }
    pub fn on_pending(&self) -> bool {
        self.on_pending
    }
    pub fn timer_pending(&self) -> bool {
        self.timer_pending
    }
    pub fn on_held(&self) -> bool {
        self.on_held
    }
    pub fn period(&self) -> u64 {
        self.period
    }
}

/// Everything a firmware drives.
#[derive(Clone)]
pub struct Hardware {
    /// Current time, T-states since power-on (updated by the firmware after each run).
    pub now: u64,
    pub mem: Memory,
    pub lcd: Lcd,
    pub keypad: Keypad,
    pub link: LinkPort,
    pub irq: Interrupts,
    pub(crate) config: Config,
    pub(crate) port0: u8,
    pub(crate) port4: u8,
    /// The firmware's CPU is halted (set by the firmware; blanks the glass when powered down).
    pub halted: bool,
    /// Exit code written to the test exit port, if any.
    pub test_exit: Option<u8>,
    /// Bytes written to the test output port.
    pub test_out: Vec<u8>,
    /// Accesses to ports that decode to nothing (they read 00h).
    pub unknown_port_accesses: u64,
}

impl Hardware {
    pub fn new(config: Config) -> Self {
        let mut lcd = Lcd::new();
        lcd.set_drop_when_busy(config.lcd_drop_when_busy);
        let mut keypad = Keypad::new();
        keypad.set_ghosting(config.key_ghosting);
        // §2.4 [U]: we reset port 04h to 06h (slowest rate) and schedule the first tick one
        // period after power-on; the ROM programs the real value early.
        let port4 = 0x06
            | if config.generation == Generation::Classic {
                0x10
            } else {
                0
            };
        let period = timer_period(config.generation, port4);
        Hardware {
            now: 0,
            mem: Memory::new(config.paging),
            lcd,
            keypad,
            link: LinkPort::new(),
            irq: Interrupts {
                // §3.3 [E]/[U]: TilEm's internal 0Bh but with ON disabled until written: 0Ah.
                port3: 0x0A,
                on_pending: false,
                timer_pending: false,
                on_held: false,
                next_tick: period,
                period,
                line_at: period,
                timer_ticks: 0,
            },
            config,
            port0: 0xC0,
            port4,
            halted: false,
            test_exit: None,
            test_out: Vec::new(),
            unknown_port_accesses: 0,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn generation(&self) -> Generation {
        self.config.generation
    }

    /// The link port with the current time.
    pub fn link_endpoint(&mut self) -> Link<'_> {
        Link {
            port: &mut self.link,
            now: self.now,
        }
    }

    /// Brings the free-running timer up to `t` (spec §2.4: ticks while disabled are lost).
    #[inline]
    pub fn sync_timer(&mut self, t: u64) {
        let irq = &mut self.irq;
        if t >= irq.next_tick {
            let period = irq.period.max(1);
            let n = (t - irq.next_tick) / period + 1;
            irq.next_tick = irq.next_tick.saturating_add(n.saturating_mul(period));
            if irq.port3 & 2 != 0 {
                irq.timer_pending = true;
                irq.timer_ticks = irq.timer_ticks.saturating_add(n);
            }
            irq.update_line_at();
        }
    }

    /// The ON key (spec §6.5): level in port 03h bit 3; a press latches the ON interrupt if
    /// it is enabled. [U] Press only, not release (Wabbitemu, MAME).
    pub fn set_on(&mut self, down: bool, t: u64) {
        if down && !self.irq.on_held && self.irq.on_enabled() {
            self.irq.on_pending = true;
        }
        self.irq.on_held = down;
        self.sync_timer(t);
        self.irq.update_line_at();
    }

    /// Whether the calculator is in its low-power "off" state: halted with port 03h bit 3
    /// clear (spec §2.5).
    pub fn powered_down(&self) -> bool {
        self.halted && !self.irq.power_bit()
    }

    /// The interrupt line level at `t`.
    #[inline]
    pub fn irq_line(&mut self, t: u64) -> bool {
        self.sync_timer(t);
        self.irq.on_pending || self.irq.timer_pending
    }

    #[cold]
    #[inline(never)]
    fn irq_line_slow(&mut self, t: u64) -> bool {
        self.irq_line(t)
    }

    /// The next time something can raise the interrupt line by itself.
    #[inline]
    pub fn next_irq_event(&self) -> u64 {
        if self.irq.timer_enabled() {
            self.irq.next_tick
        } else {
            u64::MAX
        }
    }

    fn link_read(&mut self, t: u64) -> u8 {
        let lines = self.link.levels(t);
        match self.config.generation {
            // §4.3: bits 7:4 = last written; bit n reads its latch if direction bit n+4 is
            // set, otherwise the input (line levels in bits 1:0, 0 in bits 3:2). (TilEm)
            Generation::Classic => {
                let w = self.port0;
                let mut v = w & 0xF0;
                for n in 0..4 {
                    let bit = if w & (0x10 << n) != 0 {
                        (w >> n) & 1
                    } else if n < 2 {
                        (lines >> n) & 1
                    } else {
                        0
                    };
                    v |= bit << n;
                }
                v
            }
            // §4.4 [U]: TilEm's C0h | lines | lines << 2.
            Generation::Parcus => 0xC0 | lines | (lines << 2),
        }
    }

    fn link_write(&mut self, v: u8, t: u64) {
        self.port0 = v;
        let pull = match self.config.generation {
            Generation::Classic => {
                // §4.3 (TilEm): tip = (b6 ∧ b2) ∨ (b4 ∧ ¬b0); ring = (b7 ∧ b3) ∨ (b5 ∧ ¬b1).
                let b = |n: u8| (v >> n) & 1 != 0;
                let tip = (b(6) && b(2)) || (b(4) && !b(0));
                let ring = (b(7) && b(3)) || (b(5) && !b(1));
                u8::from(tip) | u8::from(ring) << 1
            }
            Generation::Parcus => v & 3,
        };
        self.link.drive(pull, t);
    }

    fn port3_read(&self) -> u8 {
        u8::from(self.irq.on_pending)
            | u8::from(self.irq.timer_pending) << 1
            | u8::from(!self.irq.on_held) << 3
    }

    fn port3_write(&mut self, v: u8, t: u64) {
        self.sync_timer(t);
        self.irq.port3 = v;
        if v & 1 == 0 {
            self.irq.on_pending = false;
        }
        if v & 2 == 0 {
            self.irq.timer_pending = false;
        }
        self.irq.update_line_at();
    }

    fn port4_write(&mut self, v: u8, t: u64) {
        self.sync_timer(t);
        self.port4 = v;
        // [U] §2.4: a new rate takes effect after the tick already scheduled.
        self.irq.period = timer_period(self.config.generation, v);
        self.irq.update_line_at();
        self.mem.set_alt_map(v & 1 != 0);
    }

    /// Port read as the CPU sees it (`port` = the low 8 address bits, §4.2).
    pub fn read_port(&mut self, port: u8, t: u64) -> u8 {
        if self.config.test_ports && (port == TEST_EXIT_PORT || port == TEST_OUT_PORT) {
            return 0;
        }
        if self.config.port_mirrors {
            // TI-83 ASIC decoding on A4–A0 (§4.2 [E]).
            return match port & 0x1F {
                0x00 | 0x04 | 0x08 | 0x0C => self.link_read(t),
                0x01 | 0x05 | 0x09 | 0x0D => self.keypad.read(),
                0x15 | 0x1D => self.keypad.read() & 0xFE,
                0x02 | 0x06 | 0x0A | 0x0E | 0x16 | 0x1E => self.mem.port2(),
                0x03 | 0x07 | 0x0B | 0x0F | 0x17 | 0x1F => self.port3_read(),
                0x10 | 0x12 | 0x18 | 0x1A => self.lcd.status(t),
                0x11 | 0x13 | 0x19 | 0x1B => self.lcd.read_data(t),
                // Port 14h: battery good (§4.9 [U]).
                _ => 0x01,
            };
        }
        match port {
            0x00 => self.link_read(t),
            0x01 => self.keypad.read(),
            0x02 => self.mem.port2(),
            0x03 => self.port3_read(),
            // §4.7 [U]: port 04h read-back unknown; 00h like TilEm.
            0x04 => 0x00,
            0x10 => self.lcd.status(t),
            0x11 => self.lcd.read_data(t),
            _ => {
                // §4.2 [U]: unknown ports read 00h.
                self.unknown_port_accesses += 1;
                0x00
            }
        }
    }

    /// Port write as the CPU sees it.
    pub fn write_port(&mut self, port: u8, v: u8, t: u64) {
        if self.config.test_ports {
            if port == TEST_EXIT_PORT {
                self.test_exit = Some(v);
                return;
            }
            if port == TEST_OUT_PORT {
                if self.test_out.len() < 1 << 20 {
                    self.test_out.push(v);
                }
                return;
            }
        }
        let p = if self.config.port_mirrors {
            port & 0x1F
        } else {
            port
        };
        match p {
            0x00 => self.link_write(v, t),
            0x01 => self.keypad.select(v),
            0x02 => self.mem.write_port2(v),
            0x03 => self.port3_write(v, t),
            0x04 => self.port4_write(v, t),
            0x10 => self.lcd.command(v, t),
            0x11 => self.lcd.write_data(v, t),
            _ => self.unknown_port_accesses += 1,
        }
    }

    /// Last value written to port 00h.
    pub fn port0(&self) -> u8 {
        self.port0
    }

    /// Last value written to port 04h.
    pub fn port4(&self) -> u8 {
        self.port4
    }
}

impl Bus for Hardware {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem.read(addr)
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: u64) {
        self.mem.write(addr, value)
    }

    // Port accesses are rare next to memory accesses: keep them out of the core's loop.
    #[inline(never)]
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.read_port(port as u8, t)
    }

    #[inline(never)]
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.write_port(port as u8, value, t)
    }

    #[inline(always)]
    fn int_line(&mut self, t: u64) -> bool {
        // One compare on the fast path: nothing pending and no tick due yet.
        if t < self.irq.line_at {
            return false;
        }
        self.irq_line_slow(t)
    }

    #[inline(always)]
    fn next_event(&mut self, _t: u64) -> u64 {
        self.next_irq_event()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_periods() {
        let p: Vec<u64> = (0..4)
            .map(|n| timer_period(Generation::Classic, n << 1))
            .collect();
        assert_eq!(p, vec![12390, 28910, 45430, 61950]);
        assert_eq!(timer_period(Generation::Parcus, 0x06), 8333 * 6);
        assert_eq!(timer_period(Generation::Parcus, 0x16), 9259 * 6);
    }

    #[test]
    fn on_edges_while_disabled_are_lost_and_timer_ticks_too() {
        let mut hw = Hardware::new(Config::default());
        hw.write_port(3, 0x08, 0); // ON and timer disabled
        hw.set_on(true, 10);
        hw.set_on(false, 20);
        hw.write_port(3, 0x0B, 30);
        assert_eq!(hw.read_port(3, 40) & 3, 0);
        assert!(!hw.irq_line(40));
        hw.set_on(true, 50);
        assert_eq!(hw.read_port(3, 60), 0x01); // pending, held (bit 3 = 0)
        hw.write_port(3, 0x0A, 70); // acknowledge ON
        assert!(!hw.irq_line(80));
        // Timer: disabled over several periods, nothing latched; enabled, the next tick latches.
        hw.write_port(3, 0x08, 100);
        let p = hw.irq.period();
        assert!(!hw.irq_line(5 * p));
        hw.write_port(3, 0x0A, 5 * p);
        assert!(hw.next_irq_event() > 5 * p);
        assert!(hw.irq_line(7 * p));
        assert_eq!(hw.read_port(3, 7 * p) & 2, 2);
    }

    #[test]
    fn classic_link_readback() {
        let mut hw = Hardware::new(Config::default());
        hw.write_port(0, 0xC0, 0);
        assert_eq!(hw.read_port(0, 1), 0xC3);
        hw.write_port(0, 0xD4, 2);
        assert_eq!(hw.read_port(0, 3), 0xD6);
        hw.write_port(0, 0xE8, 4);
        assert_eq!(hw.read_port(0, 5), 0xE9);
        assert_eq!(hw.link.own_drive(), 2);
    }
}
