//! TI-82 reals: the one 14-digit BCD implementation lives in `tifiles::real` (the file codec,
//! `tifiles::float::TiFloat`, is built on it); re-exported here for the runtime.

pub use tifiles::real::*;
