//! The built-in TI-BASIC runtime: runs TI-82 programs without a ROM.

pub mod ast;
pub mod calibration;
pub mod cost;
pub mod eval;
pub mod firmware;
pub mod font;
pub mod interp;
pub mod keys;
pub mod os;
pub mod parse;
pub mod real;
pub mod screen;
pub mod token;
pub mod value;
