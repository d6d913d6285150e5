//! The `ti82` front end: command line, window, terminal UI, headless runs, recordings and the
//! TCP link cable. The binary (`src/main.rs`) is a thin layer over this library, so the
//! integration tests (`tests/frontend_*.rs`) can drive every part.
//!
//! See `docs/frontend.md` for the key map, the key-script syntax and the config file.

#![forbid(unsafe_code)]

pub mod app;
pub mod botlink;
pub mod capture;
pub mod cli;
pub mod config;
pub mod files_cmd;
pub mod gui;
pub mod headless;
pub mod keymap;
pub mod netcable;
pub mod pacing;
pub mod render;
pub mod romload;
pub mod script;
pub mod session;
pub mod skin;
pub mod solve;
pub mod tui;

/// Default LCD scale for the window and screenshots.
pub const DEFAULT_SCALE: u32 = 4;

/// True when an X display is available (the window uses minifb's X11 back end; Wayland
/// desktops provide one through XWayland).
pub fn have_display() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty())
}
