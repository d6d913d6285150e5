//! The built-in TI-BASIC runtime: runs TI-82 programs without a ROM.

pub mod font;
pub mod real;
pub mod ast;
pub mod eval;
pub mod interp;
pub mod parse;
pub mod token;
pub mod value;
pub mod firmware;
pub mod keys;
pub mod os;
pub mod screen;
