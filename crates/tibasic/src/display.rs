//! The one number formatter, for every MODE setting, lives in `tifiles::display` (the file
//! tools show reals with it too); re-exported here for the runtime.

pub use tifiles::display::*;
