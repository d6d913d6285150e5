//! The project's own TI-BASIC sources (`programs/*.txt` at the workspace root)
//! tokenize, and detokenize back to bytes that tokenize the same.

use std::path::PathBuf;
use tifiles::{detokenize, tokenize, tokenize_source, Spelling};

#[test]
fn project_programs_tokenize_and_round_trip() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../programs");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        println!("skipped: no programs directory");
        return;
    };
    let mut n = 0;
    for e in rd {
        let path = e.unwrap().path();
        if path.extension() != Some(std::ffi::OsStr::new("txt")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = tokenize_source(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for sp in [Spelling::Ascii, Spelling::Display] {
            let back = detokenize(&bytes, sp);
            assert_eq!(tokenize(&back).unwrap(), bytes, "{}", path.display());
        }
        n += 1;
    }
    println!("{n} programs");
}
