//! Fuzz entry points. Each takes arbitrary bytes and must return without
//! panicking, hanging or allocating more than a small multiple of its input.
//! `cargo test` runs them on seeded random and mutated inputs for a bounded number
//! of iterations (tests/fuzz.rs); [`run`] lets a longer driver (an xtask) do the
//! same for as long as it likes. Stable Rust only: no cargo-fuzz needed.

use crate::file::{ReadOptions, TiFile};
use crate::tokens::{detokenize, tokenize, Spelling};
use crate::{uue, vat};

/// Parse bytes as a file; whatever parses must write back to identical bytes.
pub fn fuzz_file_reader(bytes: &[u8]) {
    for opts in [
        ReadOptions::default(),
        ReadOptions {
            ignore_checksum: true,
        },
    ] {
        if let Ok(f) = TiFile::parse("fuzz", bytes, opts) {
            let out = f.to_bytes().expect("a parsed file writes back");
            let again =
                TiFile::parse("fuzz", &out, ReadOptions::default()).expect("our output reads back");
            assert_eq!(again, f, "file round trip");
        }
    }
}

/// Decode as UUE. Output is bounded by the input: a line gives at most 63 bytes
/// and takes at least 2 (length character and line break; short lines are padded
/// because mailers strip trailing spaces), so at most 32 times the input.
pub fn fuzz_uue(bytes: &[u8]) {
    if let Ok(files) = uue::decode_all(bytes, 4) {
        let total: usize = files.iter().map(|f| f.data.len()).sum();
        assert!(
            total <= 32 * bytes.len(),
            "UUE output out of proportion to the input"
        );
    }
}

/// Tokenize arbitrary text (lossy UTF-8 of the bytes); success must detokenize back.
pub fn fuzz_tokenizer(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(tok) = tokenize(&text) {
        for sp in [Spelling::Ascii, Spelling::Display] {
            let s = detokenize(&tok, sp);
            assert_eq!(
                tokenize(&s).as_deref(),
                Ok(tok.as_slice()),
                "token round trip via {s:?}"
            );
        }
    }
}

/// Detokenize arbitrary bytes; the text must tokenize back to the same bytes.
pub fn fuzz_detokenizer(bytes: &[u8]) {
    for sp in [Spelling::Ascii, Spelling::Display] {
        let s = detokenize(bytes, sp);
        assert_eq!(
            tokenize(&s).as_deref(),
            Ok(bytes),
            "detokenize round trip via {s:?}"
        );
    }
}

/// Drive the VAT writer with operations read from the bytes (store lists,
/// programs and reals of various sizes, delete), checking every value against a
/// model; then corrupt bytes of the pointers and the VAT and make sure walking,
/// reading and deleting only ever return errors.
pub fn fuzz_vat(bytes: &[u8]) {
    use crate::float::TiFloat;
    use crate::var::{VarData, VarName, VarType, Variable};
    let mut ram = vec![0u8; vat::RAM_SIZE];
    if vat::init_empty(&mut ram).is_err() {
        return;
    }
    let mut model: Vec<Variable> = Vec::new();
    let mut it = bytes.iter().copied();
    let mut corrupt = false;
    while let Some(op) = it.next() {
        let arg = it.next().unwrap_or(0);
        match op % 5 {
            0 | 1 => {
                let name = VarName::list(1 + arg % 6).unwrap_or_default();
                let n = usize::from(it.next().unwrap_or(0)) * if op % 5 == 1 { 16 } else { 1 };
                let v = Variable {
                    name,
                    data: VarData::List(
                        (0..n)
                            .map(|i| TiFloat::from_i64(i as i64 + i64::from(arg)))
                            .collect(),
                    ),
                };
                store_model(&mut ram, &mut model, v, corrupt);
            }
            2 => {
                let name = VarName::program(&format!("P{}", arg % 8)).unwrap_or_default();
                let n = usize::from(it.next().unwrap_or(0)) * 8;
                let v = Variable {
                    name,
                    data: VarData::Program(vec![arg; n]),
                };
                store_model(&mut ram, &mut model, v, corrupt);
            }
            3 => {
                let name = VarName::from_bytes(&[0x41 + arg % 27]);
                let v = Variable {
                    name,
                    data: VarData::Real(TiFloat::from_i64(i64::from(arg))),
                };
                store_model(&mut ram, &mut model, v, corrupt);
            }
            _ if arg & 0x80 != 0 => {
                // Corrupt a byte of the system pointers or the top of the VAT.
                let v = it.next().unwrap_or(0);
                let at = if arg & 0x40 != 0 {
                    usize::from(vat::TEMP_MEM - vat::RAM_BASE) + usize::from(arg % 16)
                } else {
                    usize::from(vat::SYM_TABLE - vat::RAM_BASE) - usize::from(arg % 64)
                };
                if let Some(b) = ram.get_mut(at) {
                    *b = v;
                }
                corrupt = true;
            }
            _ => {
                if let Some(i) = (!model.is_empty()).then(|| usize::from(arg) % model.len().max(1))
                {
                    let v = model[i].clone();
                    let r = vat::delete(&mut ram, v.var_type(), &v.name);
                    if !corrupt {
                        assert_eq!(r, Ok(true), "delete {}", v.display_name());
                        model.remove(i);
                    }
                }
            }
        }
        if let Ok(es) = vat::entries(&ram) {
            for e in es.iter().take(64) {
                let _ = vat::read_value(&ram, e);
            }
        }
        if !corrupt {
            let es = vat::entries(&ram).expect("VAT stays valid");
            assert_eq!(es.len(), model.len());
            for v in &model {
                let got = vat::read(&ram, v.var_type(), &v.name).expect("read");
                assert_eq!(got.as_ref(), Some(v), "value of {}", v.display_name());
            }
        }
    }
    let _ = vat::read_list(&ram, 1);
    let _ = VarType::List;
}

fn store_model(
    ram: &mut [u8],
    model: &mut Vec<crate::var::Variable>,
    v: crate::var::Variable,
    corrupt: bool,
) {
    let r = vat::store(ram, &v);
    if corrupt {
        return;
    }
    match r {
        Ok(_) => {
            if let Some(m) = model
                .iter_mut()
                .find(|m| m.name == v.name && m.var_type() == v.var_type())
            {
                *m = v;
            } else {
                model.push(v);
            }
        }
        Err(vat::VatError::NoMemory { .. }) => {}
        Err(e) => panic!("store {}: {e}", v.display_name()),
    }
}

/// A fuzz entry point.
pub type Target = fn(&[u8]);

/// All targets by name.
pub const TARGETS: [(&str, Target); 5] = [
    ("file_reader", fuzz_file_reader),
    ("uue", fuzz_uue),
    ("tokenizer", fuzz_tokenizer),
    ("detokenizer", fuzz_detokenizer),
    ("vat", fuzz_vat),
];

/// A small deterministic generator (xorshift64*), so runs are reproducible from
/// the seed. Hand-written: the crate must not pull a RNG crate for this.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Mutate a seed input: flip bits, overwrite, insert, delete, duplicate runs,
/// set interesting values, truncate.
pub fn mutate(rng: &mut Rng, input: &[u8], max_len: usize) -> Vec<u8> {
    let mut v = input.to_vec();
    let rounds = 1 + rng.below(8);
    for _ in 0..rounds {
        let len = v.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next_u64() as u8;
            }
            2 if v.len() < max_len => {
                let i = rng.below(len + 1);
                v.insert(i, rng.next_u64() as u8);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(16));
                v.drain(i..i + n);
            }
            4 if len > 0 && v.len() < max_len => {
                let i = rng.below(len);
                let n = (1 + rng.below(len - i)).min(max_len - v.len());
                let chunk: Vec<u8> = v[i..i + n].to_vec();
                let j = rng.below(v.len() + 1);
                v.splice(j..j, chunk);
            }
            5 if len > 1 => {
                let i = rng.below(len - 1);
                let vals: [u16; 6] = [0, 1, 0x7F, 0x80, 0xFF, 0xFFFF];
                let x = vals[rng.below(vals.len())].to_le_bytes();
                v[i] = x[0];
                v[i + 1] = x[1];
            }
            6 if len > 0 => {
                let n = rng.below(len);
                v.truncate(n);
            }
            _ => {
                let n = rng.below(16);
                for _ in 0..n {
                    if v.len() < max_len {
                        v.push(rng.next_u64() as u8);
                    }
                }
            }
        }
    }
    v
}

/// Run `target` on `iterations` inputs: every seed as is, then random bytes and
/// mutations of the seeds. A panic in the target propagates to the caller with
/// the failing input printed (hex) first.
pub fn run(target: Target, seeds: &[Vec<u8>], seed: u64, iterations: usize, max_len: usize) {
    let mut rng = Rng::new(seed);
    let check = |input: &[u8]| {
        let r = std::panic::catch_unwind(|| target(input));
        if let Err(e) = r {
            eprintln!(
                "fuzz failure on input ({} bytes): {:02X?}",
                input.len(),
                input
            );
            std::panic::resume_unwind(e);
        }
    };
    for s in seeds {
        check(s);
    }
    for _ in 0..iterations {
        let input = if seeds.is_empty() || rng.below(4) == 0 {
            let n = rng.below(max_len + 1);
            (0..n).map(|_| rng.next_u64() as u8).collect()
        } else {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s, max_len)
        };
        check(&input);
    }
}
