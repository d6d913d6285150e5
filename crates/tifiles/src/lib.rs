//! TI-82 data on bytes: BCD reals ([`float`]), tokens ([`tokens`]), typed variables
//! ([`var`]), `.82?` files and UUE ([`mod@file`], [`uue`]), the variable table in
//! emulated RAM ([`vat`]), and fuzz entry points ([`fuzz`]).
//!
//! Spec references (`spec 3.2` etc.) are to the project's TI-82 software reference;
//! `docs/files.md` records the layout decisions.
//!
//! ```
//! use tifiles::{tokenize_source, vat, TiFile, VarName, Variable};
//!
//! // A program from source text, as a file and straight into RAM.
//! let prog = Variable::program("HELLO", tokenize_source("Disp \"HI\"\n").unwrap()).unwrap();
//! let bytes = TiFile::new("hello", vec![prog.clone()]).to_bytes().unwrap();
//! assert_eq!(TiFile::from_bytes(&bytes).unwrap().vars(), [prog.clone()]);
//!
//! let mut ram = vec![0u8; vat::RAM_SIZE]; // 0x8000..=0xFFFF
//! vat::init_empty(&mut ram).unwrap();
//! vat::store(&mut ram, &prog).unwrap();
//! let l1 = Variable {
//!     name: VarName::list(1).unwrap(),
//!     data: tifiles::VarData::List(vec!["4".parse().unwrap(), "-1.5".parse().unwrap()]),
//! };
//! vat::store(&mut ram, &l1).unwrap();
//! // The probe: L1 as reals.
//! let board = vat::read_list(&ram, 1).unwrap().unwrap();
//! assert_eq!(board[1].to_string(), "\u{207B}1.5");
//! ```
#![forbid(unsafe_code)]

pub mod display;
pub mod file;
pub mod float;
pub mod fuzz;
pub mod real;
pub mod tokens;
pub mod uue;
pub mod var;
pub mod vat;

pub use file::{Backup, Content, FileError, FileProblem, ReadOptions, TiFile};
pub use float::{FloatError, FloatStyle, TiFloat};
pub use tokens::{detokenize, tokenize, tokenize_source, Spelling, TokenizeError};
pub use var::{Matrix, VarData, VarError, VarName, VarType, Variable};
