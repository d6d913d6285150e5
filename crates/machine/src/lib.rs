//! The TI-82 machine: [`Calc`] owning a [`Firmware`] and all the [`Hardware`] — memory and
//! paging, ports, the timer and interrupts, the T6A04 LCD, the keypad matrix, the link port —
//! plus the link [`cable`], save states and ROM images.
//!
//! References to "spec §n" are to `../shared/spec/ti82-hardware.md`; the decisions taken on
//! its uncertain points are listed in `docs/hardware.md`.
//!
//! Time is T-states (6 000 000 per emulated second), owned by each `Calc`; nothing here reads
//! the wall clock or uses randomness, so the same inputs give the same machine.

#![forbid(unsafe_code)]

pub mod cable;
mod calc;
pub mod debug;
mod hw;
pub mod keypad;
pub mod lcd;
pub mod link;
pub mod memory;
pub mod rom;
pub mod state;

pub use calc::{contrast_shade, Calc, Firmware, RomFirmware, Screen, FRAME_T};
pub use hw::{
    timer_period, Config, Generation, Hardware, HwChoice, Interrupts, PagedBus, UnknownHwChoice,
    CLOCK_HZ, FIXED_TIMER_PERIOD, LCD_BUSY_T, TEST_EXIT_PORT, TEST_OUT_PORT,
};
pub use keypad::{Key, Keypad};
pub use lcd::Lcd;
pub use link::{Link, LinkEndpoint, LinkLog, LinkPort, LoggedByte};
pub use memory::{Memory, PagingModel};
pub use rom::{RomError, RomImage};
pub use state::StateError;
