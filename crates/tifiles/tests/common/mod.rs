// Shared builders for the integration tests.
#![allow(dead_code)]

use tifiles::var::{Gdb, GdbEquation, TableSetup, Window};
use tifiles::{Matrix, TiFloat, VarData, VarName, VarType, Variable};

pub fn f(s: &str) -> TiFloat {
    s.parse().unwrap()
}

pub fn tok(s: &str) -> Vec<u8> {
    tifiles::tokenize(s).unwrap()
}

/// One small example of every variable type, with its file extension.
pub fn examples() -> Vec<(&'static str, Variable)> {
    let window_reals: Vec<TiFloat> = [
        "-10",
        "10",
        "1",
        "-10",
        "10",
        "1",
        "0",
        "6.2831853071796",
        "0.13089969389957",
        "0",
        "6.2831853071796",
        "0.13089969389957",
        "1",
        "10",
        "0",
        "0",
        "1",
    ]
    .iter()
    .map(|s| f(s))
    .collect();
    let w17: [TiFloat; 17] = window_reals.clone().try_into().unwrap();
    let mut pic = vec![0u8; 756];
    for row in 0..63 {
        pic[row * 12 + row / 8 % 12] = 0x80 >> (row % 8);
    }
    let mut eqs = vec![GdbEquation {
        flags: 0x23,
        tokens: tok("X^^2"),
    }];
    for _ in 0..9 {
        eqs.push(GdbEquation {
            flags: 0x03,
            tokens: vec![],
        });
    }
    vec![
        (
            "82n",
            Variable {
                name: VarName::real('A').unwrap(),
                data: VarData::Real(f("-2")),
            },
        ),
        (
            "82l",
            Variable {
                name: VarName::list(1).unwrap(),
                data: VarData::List(vec![
                    f("4"),
                    f("4"),
                    f("0"),
                    f("-1.5"),
                    f("3.1415926535898"),
                ]),
            },
        ),
        (
            "82m",
            Variable {
                name: VarName::matrix(0).unwrap(),
                data: VarData::Matrix(Matrix {
                    rows: 2,
                    cols: 3,
                    data: ["1", "2", "3", "4", "5", "6"]
                        .iter()
                        .map(|s| f(s))
                        .collect(),
                }),
            },
        ),
        (
            "82y",
            Variable {
                name: VarName::parse(VarType::Equation, "Y1").unwrap(),
                data: VarData::Equation(tok("2X+1")),
            },
        ),
        (
            "82p",
            Variable::program("HELLO", tok("ClrHome\nDisp \"HELLO\"\nPause \n1->A")).unwrap(),
        ),
        (
            "82i",
            Variable {
                name: VarName::picture(1).unwrap(),
                data: VarData::Picture(pic),
            },
        ),
        (
            "82d",
            Variable {
                name: VarName::gdb(1).unwrap(),
                data: VarData::Gdb(Gdb {
                    mode: 0x10,
                    format: 0x00,
                    seq_mode: 0,
                    reals: window_reals[..6].to_vec(),
                    equations: eqs,
                    extra: vec![],
                }),
            },
        ),
        (
            "82w",
            Variable {
                name: VarName::default(),
                data: VarData::Window(Window {
                    unknown: 0,
                    reals: w17,
                }),
            },
        ),
        (
            "82z",
            Variable {
                name: VarName::default(),
                data: VarData::SavedWindow(w17),
            },
        ),
        (
            "82t",
            Variable {
                name: VarName::default(),
                data: VarData::TableSetup(TableSetup {
                    tbl_min: f("0"),
                    delta_tbl: f("1"),
                }),
            },
        ),
    ]
}
