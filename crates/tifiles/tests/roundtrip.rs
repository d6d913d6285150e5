//! Round-trip property tests: floats, tokens, every variable type, files, UUE.

mod common;

use proptest::prelude::*;
use tifiles::float::FloatStyle;
use tifiles::tokens::{table, Spelling};
use tifiles::var::{Gdb, GdbEquation, TableSetup, Window};
use tifiles::{
    detokenize, tokenize, Matrix, ReadOptions, TiFile, TiFloat, VarData, VarName, VarType, Variable,
};

fn arb_float() -> impl Strategy<Value = TiFloat> {
    prop_oneof![
        1 => Just(TiFloat::ZERO),
        10 => (any::<bool>(), -99i32..=99, 1u8..=9, proptest::collection::vec(0u8..=9, 13)).prop_map(|(n, e, d0, rest)| {
            let mut d = vec![d0];
            d.extend(rest);
            TiFloat::from_parts(n, e, &d).unwrap()
        }),
    ]
}

fn arb_raw_float() -> impl Strategy<Value = TiFloat> {
    any::<[u8; 9]>().prop_map(TiFloat::from_bytes)
}

fn arb_tokens() -> impl Strategy<Value = Vec<u8>> {
    let n = table().tokens().len();
    proptest::collection::vec(0..n, 0..40).prop_map(|ix| {
        ix.into_iter()
            .flat_map(|i| table().tokens()[i].bytes().to_vec())
            .collect()
    })
}

fn arb_floats(max: usize) -> impl Strategy<Value = Vec<TiFloat>> {
    proptest::collection::vec(prop_oneof![arb_float(), arb_raw_float()], 0..max)
}

fn arb_data() -> impl Strategy<Value = VarData> {
    prop_oneof![
        arb_raw_float().prop_map(VarData::Real),
        arb_floats(30).prop_map(VarData::List),
        (0u8..5, 0u8..5).prop_flat_map(|(r, c)| {
            proptest::collection::vec(arb_float(), usize::from(r) * usize::from(c)).prop_map(
                move |data| {
                    VarData::Matrix(Matrix {
                        rows: r,
                        cols: c,
                        data,
                    })
                },
            )
        }),
        arb_tokens().prop_map(VarData::Equation),
        arb_tokens().prop_map(VarData::Program),
        proptest::collection::vec(any::<u8>(), 0..60).prop_map(VarData::ProtectedProgram),
        proptest::collection::vec(any::<u8>(), 756).prop_map(VarData::Picture),
        (
            prop_oneof![
                Just(0x10u8),
                Just(0x20),
                Just(0x40),
                Just(0x80),
                any::<u8>()
            ],
            any::<u8>(),
            0u8..2,
            arb_tokens(),
            proptest::collection::vec(any::<u8>(), 0..4)
        )
            .prop_map(|(mode, format, seq_mode, t, extra)| {
                let (k, n) = Gdb::layout(mode).unwrap_or((0, 0));
                let equations = (0..n)
                    .map(|i| GdbEquation {
                        flags: if i == 0 { 0x23 } else { 0x03 },
                        tokens: if i % 3 == 0 { t.clone() } else { vec![] },
                    })
                    .collect();
                // Unknown modes keep everything after the six reals in `extra`.
                let extra = if Gdb::layout(mode).is_some() {
                    extra
                } else {
                    vec![]
                };
                VarData::Gdb(Gdb {
                    mode,
                    format,
                    seq_mode,
                    reals: vec![TiFloat::ONE; 6 + k],
                    equations,
                    extra,
                })
            }),
        (any::<u8>(), proptest::collection::vec(arb_raw_float(), 17)).prop_map(|(u, r)| {
            VarData::Window(Window {
                unknown: u,
                reals: r.try_into().unwrap(),
            })
        }),
        proptest::collection::vec(arb_float(), 17)
            .prop_map(|r| VarData::SavedWindow(r.try_into().unwrap())),
        (arb_float(), arb_float()).prop_map(|(a, b)| VarData::TableSetup(TableSetup {
            tbl_min: a,
            delta_tbl: b
        })),
        (
            prop_oneof![Just(0x09u8), Just(0x0A), Just(0x0E), Just(0x04)],
            proptest::collection::vec(any::<u8>(), 0..30)
        )
            .prop_map(|(t, b)| VarData::Raw(VarType::from_byte(t), b)),
    ]
}

fn arb_var() -> impl Strategy<Value = Variable> {
    (arb_data(), any::<[u8; 8]>()).prop_map(|(data, name)| Variable {
        name: VarName(name),
        data,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn float_bytes_round_trip(x in arb_raw_float()) {
        prop_assert_eq!(TiFloat::from_slice(&x.to_bytes()).unwrap(), x);
        let v = VarData::Real(x);
        prop_assert_eq!(VarData::parse(VarType::Real, &v.to_bytes()).unwrap(), v);
        // Formatting never panics, whatever the bytes.
        let _ = x.format(FloatStyle::CALC);
    }

    #[test]
    fn float_text_round_trip(x in arb_float()) {
        prop_assert!(x.is_valid());
        prop_assert_eq!(x.to_exact_string().parse::<TiFloat>().unwrap(), x);
        // Shown text is the value rounded to (at most) 10 digits.
        for style in [FloatStyle::CALC, FloatStyle::ASCII, FloatStyle::TOKENS] {
            let shown = x.format(style);
            let back: TiFloat = shown.parse().unwrap();
            let rel = ((back.to_f64() - x.to_f64()) / x.to_f64()).abs();
            // Positional form below 1 keeps 10 places, so as few as 8 digits (.0012345679).
            prop_assert!(x.is_zero() || rel < 1e-7, "{} -> {}", x.to_exact_string(), shown);
            // The longest real fills the 16 cells of a home-screen row (spec 8.6).
            prop_assert!(style != FloatStyle::CALC || shown.chars().count() <= 16, "{}", shown);
        }
    }

    #[test]
    fn float_f64_round_trip(v in -1e99f64..1e99) {
        let x = TiFloat::from_f64(v).unwrap();
        prop_assert!(x.is_valid());
        prop_assert!((x.to_f64() - v).abs() <= v.abs() * 1e-13);
    }

    #[test]
    fn detokenize_tokenize_valid(t in arb_tokens()) {
        for sp in [Spelling::Ascii, Spelling::Display] {
            let s = detokenize(&t, sp);
            prop_assert_eq!(tokenize(&s).unwrap(), t.clone(), "{:?}", s);
        }
    }

    #[test]
    fn detokenize_tokenize_any_bytes(t in proptest::collection::vec(any::<u8>(), 0..60)) {
        for sp in [Spelling::Ascii, Spelling::Display] {
            let s = detokenize(&t, sp);
            prop_assert_eq!(tokenize(&s).unwrap(), t.clone(), "{:?}", s);
        }
    }

    #[test]
    fn every_type_round_trips(v in arb_var()) {
        let bytes = v.data.to_bytes();
        prop_assert_eq!(VarData::parse(v.var_type(), &bytes).unwrap(), v.data.clone());
    }

    #[test]
    fn files_round_trip(vars in proptest::collection::vec(arb_var(), 1..5), comment in "[ -~]{0,50}") {
        let file = TiFile::new(&comment, vars);
        let bytes = file.to_bytes().unwrap();
        let back = TiFile::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &file);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes.clone());
        let n = bytes.len();
        prop_assert_eq!(u16::from_le_bytes([bytes[n - 2], bytes[n - 1]]), tifiles::file::checksum(&bytes[55..n - 2]));
        let uue = tifiles::uue::encode("x.82g", &bytes);
        prop_assert_eq!(TiFile::parse("x", uue.as_bytes(), ReadOptions::default()).unwrap(), file);
    }
}

#[test]
fn examples_round_trip() {
    for (ext, v) in common::examples() {
        let f = TiFile::new("", vec![v]);
        assert_eq!(f.extension(), ext);
        assert_eq!(TiFile::from_bytes(&f.to_bytes().unwrap()).unwrap(), f);
    }
}

#[test]
fn names() {
    assert_eq!(
        VarName::parse(VarType::List, "L1").unwrap(),
        VarName::list(1).unwrap()
    );
    assert_eq!(
        VarName::parse(VarType::List, "L₆").unwrap().0[..2],
        [0x5D, 5]
    );
    assert_eq!(
        VarName::parse(VarType::Matrix, "[E]").unwrap().0[..2],
        [0x5C, 4]
    );
    assert_eq!(
        VarName::parse(VarType::Equation, "Y0").unwrap().0[..2],
        [0x5E, 0x19]
    );
    assert_eq!(
        VarName::parse(VarType::Equation, "Y6T").unwrap().0[..2],
        [0x5E, 0x2B]
    );
    assert_eq!(
        VarName::parse(VarType::Equation, "r1").unwrap().0[..2],
        [0x5E, 0x40]
    );
    assert_eq!(
        VarName::parse(VarType::Equation, "Vn").unwrap().0[..2],
        [0x5E, 0x81]
    );
    assert_eq!(VarName::parse(VarType::Real, "θ").unwrap().0[0], 0x5B);
    assert_eq!(
        VarName::parse(VarType::Picture, "Pic6").unwrap().0[..2],
        [0x60, 5]
    );
    assert!(VarName::parse(VarType::List, "L7").is_err());
    assert!(VarName::program("1ABC").is_err());
    assert!(VarName::program("ABCDEFGHI").is_err());
    assert_eq!(VarName::program("MANCALA").unwrap().0, *b"MANCALA\0");
    // `[` is θ's byte, not a way to write it; lower case, spaces and marks are no name.
    for bad in ["A[", "ab", "A B", "A\"", "A:", "A?"] {
        assert!(VarName::program(bad).is_err(), "{bad}");
    }
    assert_eq!(
        VarName::program("thetaX1").unwrap().0[..3],
        [0x5B, b'X', b'1']
    );
    for (ty, s) in [
        (VarType::List, "L1"),
        (VarType::Matrix, "[A]"),
        (VarType::Equation, "Y1"),
        (VarType::Program, "AθB9"),
        (VarType::Gdb, "GDB2"),
    ] {
        assert_eq!(VarName::parse(ty, s).unwrap().display(ty), s);
    }
    assert_eq!(
        VarName::from_bytes(&[0x01, 0x2E]).display(VarType::List),
        "\\x01\\x2E"
    );
    let v = Variable::program("A", vec![0xDE, 0x31]).unwrap();
    assert_eq!(v.header(), [4, 0, 5, b'A', 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(v.data.to_bytes(), [0x02, 0x00, 0xDE, 0x31]);
}

#[test]
fn inconsistent_values_are_refused_when_writing() {
    let bad = [
        VarData::Matrix(Matrix {
            rows: 2,
            cols: 2,
            data: vec![TiFloat::ONE; 3],
        }),
        VarData::Picture(vec![0; 10]),
        VarData::Raw(VarType::List, vec![0, 0]),
        VarData::Program(vec![0x41; 0xFFFE]),
        VarData::Gdb(Gdb {
            mode: 0x10,
            format: 0,
            seq_mode: 0,
            reals: vec![],
            equations: vec![],
            extra: vec![],
        }),
    ];
    for data in bad {
        let f = TiFile::new(
            "",
            vec![Variable {
                name: VarName::real('A').unwrap(),
                data,
            }],
        );
        assert!(f.to_bytes().is_err());
    }
    assert!(TiFile::new("", vec![]).to_bytes().is_err());
    let ok = VarData::Program(vec![0x41; 0xFFFD]);
    assert!(
        TiFile::new(
            "",
            vec![Variable {
                name: VarName::real('A').unwrap(),
                data: ok
            }]
        )
        .to_bytes()
        .is_err(),
        "data section too long with the entry header"
    );
}
