//! Values a TI-82 expression can have, and the calculator's error kinds.

use crate::real::Real;
use std::fmt;

/// A TI-82 list holds at most 99 elements (spec §6.4).
pub const MAX_LIST: usize = 99;
/// Matrices are at most 99×99.
pub const MAX_DIM: usize = 99;

#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    /// Row-major.
    pub data: Vec<Real>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Real(Real),
    List(Vec<Real>),
    Matrix(Matrix),
    /// A string literal's token bytes: only `Disp`, `Output(`, `Text(`, `Menu(` and the
    /// `Input` prompt accept one (the TI-82 has no string variables).
    Str(Vec<u8>),
}

impl Value {
    pub fn real(&self) -> Result<Real, ErrorKind> {
        match self {
            Value::Real(r) => Ok(*r),
            _ => Err(ErrorKind::DataType),
        }
    }
}

/// The calculator's errors, as `ERR:NAME` screens show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Overflow,
    DivideBy0,
    SingularMat,
    Domain,
    Break,
    Syntax,
    DataType,
    Argument,
    DimMismatch,
    InvalidDim,
    Undefined,
    Memory,
    Invalid,
    Increment,
    Label,
    Reserved,
    Mode,
    WindowRange,
    Link,
    /// A calculus function inside another's expression.
    IllegalNest,
    /// `solve(`'s guess outside its bounds, or bounds the wrong way round.
    Bound,
    /// `fnInt(` could not meet its tolerance.
    TolNotMet,
    /// `solve(` found no sign change.
    NoSignChange,
    /// Statistics on data they cannot use (no points, all x equal, too few for the fit).
    Stat,
    /// A command or function this runtime does not implement, by its token text.
    Unsupported(String),
}

impl ErrorKind {
    /// The text after `ERR:` on the calculator's error screen.
    pub fn ti_name(&self) -> &str {
        match self {
            ErrorKind::Overflow => "OVERFLOW",
            ErrorKind::DivideBy0 => "DIVIDE BY 0",
            ErrorKind::SingularMat => "SINGULAR MAT",
            ErrorKind::Domain => "DOMAIN",
            ErrorKind::Break => "BREAK",
            ErrorKind::Syntax => "SYNTAX",
            ErrorKind::DataType => "DATA TYPE",
            ErrorKind::Argument => "ARGUMENT",
            ErrorKind::DimMismatch => "DIM MISMATCH",
            ErrorKind::InvalidDim => "INVALID DIM",
            ErrorKind::Undefined => "UNDEFINED",
            ErrorKind::Memory => "MEMORY",
            ErrorKind::Invalid => "INVALID",
            ErrorKind::Increment => "INCREMENT",
            ErrorKind::Label => "LABEL",
            ErrorKind::Reserved => "RESERVED",
            ErrorKind::Mode => "MODE",
            ErrorKind::WindowRange => "WINDOW RANGE",
            ErrorKind::Link => "TRANSMISSION",
            ErrorKind::IllegalNest => "ILLEGAL NEST",
            ErrorKind::Bound => "BOUND",
            ErrorKind::TolNotMet => "TOL NOT MET",
            ErrorKind::NoSignChange => "NO SIGN CHNG",
            ErrorKind::Stat => "STAT",
            ErrorKind::Unsupported(_) => "UNSUPPORTED",
        }
    }
}

impl ErrorKind {
    /// The kind whose `Display` text is `text` (the inverse of `to_string`).
    pub fn from_text(text: &str) -> ErrorKind {
        let all = [
            ErrorKind::Overflow,
            ErrorKind::DivideBy0,
            ErrorKind::SingularMat,
            ErrorKind::Domain,
            ErrorKind::Break,
            ErrorKind::Syntax,
            ErrorKind::DataType,
            ErrorKind::Argument,
            ErrorKind::DimMismatch,
            ErrorKind::InvalidDim,
            ErrorKind::Undefined,
            ErrorKind::Memory,
            ErrorKind::Invalid,
            ErrorKind::Increment,
            ErrorKind::Label,
            ErrorKind::Reserved,
            ErrorKind::Mode,
            ErrorKind::WindowRange,
            ErrorKind::Link,
            ErrorKind::IllegalNest,
            ErrorKind::Bound,
            ErrorKind::TolNotMet,
            ErrorKind::NoSignChange,
            ErrorKind::Stat,
        ];
        all.into_iter()
            .find(|k| k.to_string() == text)
            .unwrap_or_else(|| {
                ErrorKind::Unsupported(
                    text.trim_start_matches("ERR:UNSUPPORTED (")
                        .trim_end_matches(')')
                        .to_string(),
                )
            })
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Unsupported(what) => write!(f, "ERR:UNSUPPORTED ({what})"),
            other => write!(f, "ERR:{}", other.ti_name()),
        }
    }
}

impl std::error::Error for ErrorKind {}
