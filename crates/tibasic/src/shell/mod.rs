//! The shell's screens, one module each: what they show and what their keys do. The firmware
//! (`crate::firmware`) owns the calculator and carries out what a screen asks for.

pub mod catalog;
pub mod editor;
pub mod link;
pub mod mem;
pub mod mode;
