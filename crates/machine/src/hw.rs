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
    // The choices below are where the real hardware is unknown and another TI-82 model
    // (TilEm's, mostly) differs from ours; each is a [`HwChoice`] (`--hw NAME`).
    /// Port 02h reads F8h until first written (TilEm) instead of the value it maps (§3.3).
    pub port2_reads_f8: bool,
    /// Port 14h reads 01h (battery good) on classic hardware too, not 00h (§4.9).
    pub port14_battery: bool,
    /// A 6-bit LCD read returns the two pixels left of the cell in bits 7:6 (TilEm, MAME)
    /// instead of 0 (§5.5).
    pub lcd_6bit_left_pixels: bool,
    /// T-states an LCD access keeps the driver busy: 60 (the documented 10 µs) or TilEm's 50
    /// (§5.6).
    pub lcd_busy_t: u8,
    /// The ON key raises its interrupt on release as well as on press (TilEm, §6.5).
    pub on_release_interrupt: bool,
    /// The timer ignores port 04h's rate bits: a fixed 9 259 µs period (TilEm, §2.4).
    pub timer_fixed_rate: bool,
    /// Until the generation is known, port 00h uses the generation-agnostic rules of §4.4
    /// (TilEm) instead of [`Config::generation`]'s format.
    pub link_agnostic_until_known: bool,
    /// The generation is not known from the ROM (no readable version text): a port-04h write
    /// executed from 0000h – 3FFFh sets it from bit 4 (spec §8.4, TilEm's detector).
    pub generation_from_port4: bool,
}

/// The LCD busy window of [`Config::lcd_busy_t`] by default (§5.6: 10 µs at 6 MHz).
pub const LCD_BUSY_T: u8 = 60;

/// TilEm's fixed TI-82 timer period, 9 259 µs, in T-states (§2.4).
pub const FIXED_TIMER_PERIOD: u64 = 9259 * 6;

/// One hardware choice away from our defaults, by the name the command line uses
/// (`--hw NAME`). Each selects the other model's behaviour where the hardware is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwChoice {
    Port2F8,
    Port14Battery,
    Lcd6BitLeftPixels,
    LcdBusy50,
    LcdDropBusy,
    OnRelease,
    TimerFixedRate,
    LinkAgnostic,
}

/// A `--hw` name that is not a [`HwChoice`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown hardware choice `{0}`; known: {known}", known = HwChoice::names().join(", "))]
pub struct UnknownHwChoice(pub String);

impl HwChoice {
    /// Every choice with its command-line name and what it selects.
    pub const ALL: [(HwChoice, &'static str, &'static str); 8] = [
        (
            HwChoice::Port2F8,
            "port2-f8",
            "port 02h reads F8h until first written (§3.3)",
        ),
        (
            HwChoice::Port14Battery,
            "port14-battery",
            "port 14h reads 01h on classic hardware (§4.9)",
        ),
        (
            HwChoice::Lcd6BitLeftPixels,
            "lcd-6bit-left-pixels",
            "6-bit LCD reads carry the two pixels to the left in bits 7:6 (§5.5)",
        ),
        (
            HwChoice::LcdBusy50,
            "lcd-busy-50",
            "the LCD is busy for 50 T-states after an access, not 60 (§5.6)",
        ),
        (
            HwChoice::LcdDropBusy,
            "lcd-drop-busy",
            "LCD accesses made while busy are dropped (§5.6)",
        ),
        (
            HwChoice::OnRelease,
            "on-release",
            "the ON interrupt is raised on release as well as press (§6.5)",
        ),
        (
            HwChoice::TimerFixedRate,
            "timer-fixed",
            "the timer ignores port 04h: 9 259 µs (§2.4)",
        ),
        (
            HwChoice::LinkAgnostic,
            "link-agnostic",
            "port 00h uses the generation-agnostic rules until the generation is known (§4.4)",
        ),
    ];

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|c| c.1).collect()
    }

    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|c| c.0 == self).map_or("", |c| c.1)
    }
}

impl std::str::FromStr for HwChoice {
    type Err = UnknownHwChoice;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .find(|c| c.1 == s)
            .map(|c| c.0)
            .ok_or_else(|| UnknownHwChoice(s.to_string()))
    }
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
            port2_reads_f8: false,
            port14_battery: false,
            lcd_6bit_left_pixels: false,
            lcd_busy_t: LCD_BUSY_T,
            on_release_interrupt: false,
            timer_fixed_rate: false,
            link_agnostic_until_known: false,
            generation_from_port4: false,
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

    /// Selects the other model's behaviour for `choice`.
    pub fn apply(&mut self, choice: HwChoice) {
        match choice {
            HwChoice::Port2F8 => self.port2_reads_f8 = true,
            HwChoice::Port14Battery => self.port14_battery = true,
            HwChoice::Lcd6BitLeftPixels => self.lcd_6bit_left_pixels = true,
            HwChoice::LcdBusy50 => self.lcd_busy_t = 50,
            HwChoice::LcdDropBusy => self.lcd_drop_when_busy = true,
            HwChoice::OnRelease => self.on_release_interrupt = true,
            HwChoice::TimerFixedRate => self.timer_fixed_rate = true,
            HwChoice::LinkAgnostic => self.link_agnostic_until_known = true,
        }
    }

    /// The timer period for a port-04h value under this configuration.
    pub fn timer_period(&self, port4: u8) -> u64 {
        if self.timer_fixed_rate {
            FIXED_TIMER_PERIOD
        } else {
            timer_period(self.generation, port4)
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
    /// Port 03h as last written: which interrupt sources are enabled (a debugger shows it).
    pub fn mask(&self) -> u8 {
        self.port3
    }

    /// Whether the ON key's and the timer's interrupts are pending.
    pub fn pending(&self) -> (bool, bool) {
        (self.on_pending, self.timer_pending)
    }

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
    /// Whether the generation is known: always unless [`Config::generation_from_port4`],
    /// then from the first port-04h write executed from ROM page 0 (§8.4).
    pub(crate) generation_known: bool,
}

impl Hardware {
    pub fn new(config: Config) -> Self {
        let mut lcd = Lcd::new();
        configure_lcd(&mut lcd, &config);
        let mut mem = Memory::new(config.paging);
        if config.port2_reads_f8 {
            // §3.3 [E]: TilEm's port 02h reads F8h until first written; the mapping is ours.
            mem.set_unwritten_read(0xF8);
        }
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
        let period = config.timer_period(port4);
        Hardware {
            now: 0,
            mem,
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
            port0: 0xC0,
            port4,
            halted: false,
            test_exit: None,
            test_out: Vec::new(),
            unknown_port_accesses: 0,
            generation_known: !config.generation_from_port4,
            config,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn generation(&self) -> Generation {
        self.config.generation
    }

    /// Selects the other model's behaviour for `choice` on a running machine (meant for
    /// right after power-on): the configuration and the parts that copy it.
    pub fn apply(&mut self, choice: HwChoice) {
        self.config.apply(choice);
        let c = &self.config;
        configure_lcd(&mut self.lcd, c);
        if choice == HwChoice::Port2F8 && self.mem.port2() == self.mem.port2_mapping() {
            self.mem.set_unwritten_read(0xF8);
        }
        if choice == HwChoice::TimerFixedRate {
            self.irq.period = c.timer_period(self.port4);
        }
    }

    /// Whether the generation is known (see [`Config::generation_from_port4`]).
    pub fn generation_known(&self) -> bool {
        self.generation_known
    }

    /// A port-04h write `v` executed from 0000h – 3FFFh while the generation is decided by
    /// such writes (spec §8.4, TilEm): bit 4 set means classic hardware, clear the Parcus.
    /// Every such write (re)decides it; the port mirrors follow the generation.
    pub fn port4_written_from_page0(&mut self, v: u8) {
        if !self.config.generation_from_port4 {
            return;
        }
        let generation = if v & 0x10 != 0 {
            Generation::Classic
        } else {
            Generation::Parcus
        };
        self.config.generation = generation;
        self.config.port_mirrors = generation == Generation::Parcus;
        self.generation_known = true;
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
    /// it is enabled. [U] Press only, not release (Wabbitemu, MAME), unless
    /// [`Config::on_release_interrupt`] (TilEm).
    pub fn set_on(&mut self, down: bool, t: u64) {
        let edge = if down {
            !self.irq.on_held
        } else {
            self.irq.on_held && self.config.on_release_interrupt
        };
        if edge && self.irq.on_enabled() {
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

    /// The generation-agnostic port 00h of §4.4 (TilEm) until the generation is known.
    fn link_agnostic(&self) -> bool {
        !self.generation_known && self.config.link_agnostic_until_known
    }

    fn link_read(&mut self, t: u64) -> u8 {
        let lines = self.link.levels(t);
        if self.link_agnostic() {
            return 0xC0 | lines | (lines << 2);
        }
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
        let pull = if self.link_agnostic() {
            // §4.4: a classic-looking value (C0h/D4h/E8h style) pulls with bits 2/4 (tip)
            // and 3/5 (ring); anything else pulls with bits 1:0.
            if v & 0xC3 == 0xC0 {
                u8::from(v & 0x14 != 0) | u8::from(v & 0x28 != 0) << 1
            } else {
                v & 3
            }
        } else {
            match self.config.generation {
                Generation::Classic => {
                    // §4.3 (TilEm): tip = (b6 ∧ b2) ∨ (b4 ∧ ¬b0); ring = (b7 ∧ b3) ∨ (b5 ∧ ¬b1).
                    let b = |n: u8| (v >> n) & 1 != 0;
                    let tip = (b(6) && b(2)) || (b(4) && !b(0));
                    let ring = (b(7) && b(3)) || (b(5) && !b(1));
                    u8::from(tip) | u8::from(ring) << 1
                }
                Generation::Parcus => v & 3,
            }
        };
        self.link.drive(pull, t);
    }

    /// Port 03h read. The timer is brought up to `t` first: §2.4/§4.6, a tick sets the
    /// pending flag whatever IFF1 is, so a program polling with interrupts off sees it.
    fn port3_read(&mut self, t: u64) -> u8 {
        self.sync_timer(t);
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
        self.irq.period = self.config.timer_period(v);
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
                0x03 | 0x07 | 0x0B | 0x0F | 0x17 | 0x1F => self.port3_read(t),
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
            0x03 => self.port3_read(t),
            // §4.7 [U]: port 04h read-back unknown; 00h like TilEm.
            0x04 => 0x00,
            0x10 => self.lcd.status(t),
            0x11 => self.lcd.read_data(t),
            // §4.9 [U]: battery good, when chosen for classic hardware (TilEm).
            0x14 if self.config.port14_battery => 0x01,
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
        match self.decoded_port(port) {
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

    /// The port a write to `port` reaches: A4–A0 only with the mirrors (TI-83 ASIC decoding,
    /// §4.2 [E]), else the full low byte.
    pub(crate) fn decoded_port(&self, port: u8) -> u8 {
        if self.config.port_mirrors {
            port & 0x1F
        } else {
            port
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

/// Copies the LCD's choices from `config` into `lcd` (it keeps its own copies, read per
/// access).
fn configure_lcd(lcd: &mut Lcd, config: &Config) {
    lcd.set_drop_when_busy(config.lcd_drop_when_busy);
    lcd.set_busy_t(u64::from(config.lcd_busy_t));
    lcd.set_6bit_left_pixels(config.lcd_6bit_left_pixels);
}

impl Bus for Hardware {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.mem.cpu_read(addr)
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
        // Nearly all port traffic is LCD data (a byte per 8 pixels): straight there. Port 11h
        // is the LCD data port whether or not the mirrors are decoded (§4.2), and no test port.
        if port as u8 == 0x11 {
            self.lcd.write_data(value, t)
        } else {
            self.write_port(port as u8, value, t)
        }
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

/// The hardware as the CPU's bus with paged reads (a table look-up more per read, bank
/// switches free; see `memory.rs`). Everything else as [`Hardware`]'s own bus.
pub struct PagedBus<'a>(pub &'a mut Hardware);

impl Bus for PagedBus<'_> {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: u64) -> u8 {
        self.0.mem.read(addr)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: u64) {
        self.0.write(addr, value, t)
    }
    #[inline(always)]
    fn port_in(&mut self, port: u16, t: u64) -> u8 {
        self.0.port_in(port, t)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, t: u64) {
        self.0.port_out(port, value, t)
    }
    #[inline(always)]
    fn int_line(&mut self, t: u64) -> bool {
        self.0.int_line(t)
    }
    #[inline(always)]
    fn next_event(&mut self, t: u64) -> u64 {
        self.0.next_event(t)
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
        // The port read alone must see the tick (§2.4, §4.6): nothing samples the line first.
        assert_eq!(hw.read_port(3, 7 * p) & 2, 2);
        assert!(hw.irq_line(7 * p));
    }

    #[test]
    fn port3_read_brings_the_timer_up_to_date() {
        // §2.4/§4.6: a tick sets the pending flag whatever IFF1 is, so a program that polls
        // port 03h with interrupts disabled sees it; no interrupt-line sampling in between.
        let mut hw = Hardware::new(Config::default());
        hw.write_port(3, 0x0A, 0);
        let tick = hw.irq.next_tick;
        assert_eq!(hw.read_port(3, tick - 1), 0x08);
        assert_eq!(hw.read_port(3, tick), 0x0A);
        assert_eq!(hw.irq.timer_ticks, 1);
        // Mirrored decoding reads the same register.
        let mut hw = Hardware::new(Config::for_generation(Generation::Parcus));
        hw.write_port(3, 0x0A, 0);
        let tick = hw.irq.next_tick;
        assert_eq!(hw.read_port(0x07, tick) & 2, 2);
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
