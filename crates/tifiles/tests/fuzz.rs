//! Bounded fuzzing in plain `cargo test`: seeded random inputs and mutations of
//! the golden files into every fuzz entry point. `TIFILES_FUZZ_ITERS` sets the
//! iterations per target (default 4000) and `TIFILES_FUZZ_SEED` the seed; an
//! xtask can call `tifiles::fuzz::run` for longer runs.

use std::path::PathBuf;
use tifiles::fuzz;

fn iters() -> usize {
    std::env::var("TIFILES_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000)
}

fn seed() -> u64 {
    std::env::var("TIFILES_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x82)
}

fn golden() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, b)| b).collect()
}

fn program_bytes() -> Vec<Vec<u8>> {
    golden()
        .iter()
        .filter_map(|b| tifiles::TiFile::from_bytes(b).ok())
        .flat_map(|f| f.vars().to_vec())
        .map(|v| v.data.to_bytes())
        .collect()
}

#[test]
fn fuzz_file_reader() {
    fuzz::run(fuzz::fuzz_file_reader, &golden(), seed(), iters(), 2048);
}

#[test]
fn fuzz_uue() {
    let seeds: Vec<Vec<u8>> = golden()
        .iter()
        .map(|b| tifiles::uue::encode("f.82p", b).into_bytes())
        .collect();
    fuzz::run(fuzz::fuzz_uue, &seeds, seed(), iters(), 4096);
    // UUE-wrapped files through the file reader as well.
    fuzz::run(
        fuzz::fuzz_file_reader,
        &seeds,
        seed() + 1,
        iters() / 2,
        4096,
    );
}

#[test]
fn fuzz_tokenizer() {
    let seeds: Vec<Vec<u8>> = program_bytes()
        .iter()
        .flat_map(|b| {
            [
                tifiles::detokenize(b, tifiles::Spelling::Ascii).into_bytes(),
                tifiles::detokenize(b, tifiles::Spelling::Display).into_bytes(),
            ]
        })
        .chain([b"Disp \"L1->A\nOutput(1,1,\"[A]\"\\[A]".to_vec()])
        .collect();
    fuzz::run(fuzz::fuzz_tokenizer, &seeds, seed(), iters(), 512);
}

#[test]
fn fuzz_detokenizer() {
    fuzz::run(
        fuzz::fuzz_detokenizer,
        &program_bytes(),
        seed(),
        iters(),
        512,
    );
}

#[test]
fn fuzz_vat() {
    fuzz::run(fuzz::fuzz_vat, &[], seed(), iters() / 4, 300);
}
