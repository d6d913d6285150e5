//! The libFuzzer engine's target binary (`cargo xtask fuzz --engine libfuzzer`): the same
//! targets as the mutation engine, built with coverage instrumentation and linked with
//! libFuzzer (`libfuzzer-sys`), which owns `main`. `TI82_FUZZ_TARGET` names the target;
//! with `TI82_FUZZ_RECORD=FILE` every input is written there before it runs (the replay
//! after a death libFuzzer cannot catch, such as a stack overflow). xtask builds this binary
//! and runs it (see `xtask/src/fuzz/libfuzzer.rs`).
#![no_main]

// The targets live in xtask's `fuzz` module; `#[path]` on an inline module makes its
// `mod fuzz;` (and that file's own submodules) resolve from `xtask/src/`.
#[path = ".."]
#[allow(dead_code)]
mod xtask_src {
    pub mod fuzz;
}

use std::path::PathBuf;
use std::sync::OnceLock;

use xtask_src::fuzz::{find, Target};

static TARGET: OnceLock<Target> = OnceLock::new();
static RECORD: OnceLock<Option<PathBuf>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let t = TARGET.get_or_init(|| {
        let name = std::env::var("TI82_FUZZ_TARGET").unwrap_or_default();
        find(&name).unwrap_or_else(|| {
            eprintln!("fuzz-libfuzzer: TI82_FUZZ_TARGET={name:?} names no fuzz target");
            std::process::exit(2)
        })
    });
    if let Some(p) = RECORD.get_or_init(|| std::env::var_os("TI82_FUZZ_RECORD").map(PathBuf::from))
    {
        let _ = std::fs::write(p, data);
    }
    (t.run)(data);
});
