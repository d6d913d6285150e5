//! The built-in TI-BASIC runtime: runs TI-82 programs without a ROM.

pub mod ast;
pub mod calculus;
pub mod calibration;
pub mod conv;
pub mod cost;
pub mod debug;
pub mod display;
pub mod eval;
pub mod firmware;
pub mod font;
pub mod glass;
pub mod interp;
pub mod keys;
pub mod matrix;
pub mod os;
pub mod parse;
pub mod rand;
pub mod real;
pub mod screen;
pub mod shell;
pub mod stats;
pub mod table;
pub mod token;
pub mod value;
