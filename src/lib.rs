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
pub mod dap;
pub mod debug_cli;
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
pub mod shutdown;
pub mod skin;
pub mod solve;
pub mod tui;

/// Default LCD scale for screenshots (`--screenshot`, F7).
pub const DEFAULT_SCALE: u32 = 4;

/// Default LCD scale for the window at a host scale factor of 1: the whole skin, keypad
/// included, is 324 × 485 pixels, which fits a 1366 × 768 laptop screen with its panels
/// (`skin::Layout`; scale 4 is 440 × 826).
pub const WINDOW_SCALE: u32 = 3;

/// Whether a window may open: always on Windows and macOS (minifb's own back ends); on other
/// systems when an X display is set (`DISPLAY`: minifb's X11 back end, which Wayland
/// desktops serve through XWayland). Opening can still fail; the front end then falls back
/// to the terminal.
pub fn have_display() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty())
}

/// The host's scale factor for the window (HiDPI screens): `GDK_SCALE` when it is a whole
/// number from 1 to 4, as GNOME and other desktops publish it to X11 programs; else, on X11,
/// the desktop's `Xft.dpi` resource (what KDE, Xfce and GNOME set for a HiDPI screen) over 96
/// dots per inch, rounded, read with `xrdb -query`; else 1. minifb has no DPI query of its
/// own; on Windows and macOS the system scales its windows itself.
pub fn host_scale_factor() -> u32 {
    if let Ok(v) = std::env::var("GDK_SCALE") {
        return host_scale_from(Some(&v));
    }
    if cfg!(any(target_os = "windows", target_os = "macos")) || !have_display() {
        return 1;
    }
    std::process::Command::new("xrdb")
        .arg("-query")
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| scale_from_xresources(&String::from_utf8_lossy(&o.stdout)))
        .unwrap_or(1)
}

/// The scale factor an X resource listing (`xrdb -query`) asks for: `Xft.dpi` over 96,
/// rounded, 1 to 4; `None` without the resource.
pub fn scale_from_xresources(listing: &str) -> Option<u32> {
    let dpi: f64 = listing.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "Xft.dpi").then(|| value.trim().parse().ok())?
    })?;
    (dpi.is_finite() && dpi > 0.0).then(|| ((dpi / 96.0).round() as u32).clamp(1, 4))
}

/// [`host_scale_factor`] for a given `GDK_SCALE` value.
pub fn host_scale_from(gdk_scale: Option<&str>) -> u32 {
    gdk_scale
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|f| (1..=4).contains(f))
        .unwrap_or(1)
}

/// The window's default LCD scale on a host with scale factor `factor`.
pub fn default_window_scale(factor: u32) -> u32 {
    WINDOW_SCALE * factor.clamp(1, 4)
}
