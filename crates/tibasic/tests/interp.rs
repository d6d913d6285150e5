//! The statement machine and the evaluator on a test double of the calculator: TI-82 EOS
//! precedence, control flow, lists, program calls, waits and errors.

use std::collections::{HashMap, VecDeque};

use tibasic::ast::{Stmt, Target};
use tibasic::eval::Env;
use tibasic::interp::{Interp, Status, Step, Sys, Wait};
use tibasic::parse::compile;
use tibasic::real::Real;
use tibasic::value::{ErrorKind, Matrix, Value};

#[derive(Default)]
struct Mock {
    reals: HashMap<u8, Real>,
    lists: HashMap<u8, Vec<Real>>,
    ans: Option<Value>,
    programs: HashMap<Vec<u8>, Vec<u8>>,
    shown: Vec<String>,
    keys: VecDeque<u8>,
    menu_choices: VecDeque<usize>,
    commands: Vec<(u8, u8, Vec<Value>)>,
}

fn show(v: &Value) -> String {
    match v {
        Value::Real(r) => format!("{}", r.to_f64()),
        Value::List(l) => format!(
            "{{{}}}",
            l.iter()
                .map(|r| format!("{}", r.to_f64()))
                .collect::<Vec<_>>()
                .join(",")
        ),
        Value::Str(s) => tifiles::tokens::detokenize(s, tifiles::tokens::Spelling::Ascii),
        Value::Matrix(_) => "[matrix]".into(),
    }
}

impl Env for Mock {
    fn real(&mut self, var: u8) -> Result<Real, ErrorKind> {
        Ok(self.reals.get(&var).copied().unwrap_or(Real::ZERO))
    }
    fn set_real(&mut self, var: u8, v: Real) -> Result<(), ErrorKind> {
        self.reals.insert(var, v);
        Ok(())
    }
    fn ans(&mut self) -> Result<Value, ErrorKind> {
        Ok(self.ans.clone().unwrap_or(Value::Real(Real::ZERO)))
    }
    fn list(&mut self, k: u8) -> Result<Vec<Real>, ErrorKind> {
        self.lists.get(&k).cloned().ok_or(ErrorKind::Undefined)
    }
    fn matrix(&mut self, _k: u8) -> Result<Matrix, ErrorKind> {
        Err(ErrorKind::Undefined)
    }
    fn window(&mut self, _k: u8) -> Result<Real, ErrorKind> {
        Ok(Real::ZERO)
    }
    fn get_key(&mut self) -> u8 {
        self.keys.pop_front().unwrap_or(0)
    }
    fn rand(&mut self) -> Real {
        Real::ZERO
    }
    fn pixel(&mut self, _r: i64, _c: i64) -> Result<bool, ErrorKind> {
        Ok(false)
    }
    fn degrees(&self) -> bool {
        false
    }
}

impl Sys for Mock {
    fn store(&mut self, target: &Target, v: Value) -> Result<(), ErrorKind> {
        match target {
            Target::Var(x) => self.set_real(*x, v.real()?),
            Target::List(k) => match v {
                Value::List(l) => {
                    self.lists.insert(*k, l);
                    Ok(())
                }
                _ => Err(ErrorKind::DataType),
            },
            Target::ListElem(k, i) => {
                let i = tibasic::eval::eval(self, i)?
                    .real()?
                    .to_i64_exact()
                    .unwrap_or(0) as usize;
                let l = self.lists.entry(*k).or_default();
                if i == l.len() + 1 {
                    l.push(v.real()?);
                } else if i >= 1 && i <= l.len() {
                    l[i - 1] = v.real()?;
                } else {
                    return Err(ErrorKind::InvalidDim);
                }
                Ok(())
            }
            Target::ListDim(k) => {
                let n = v.real()?.to_i64_exact().unwrap_or(-1);
                if !(1..=99).contains(&n) {
                    return Err(ErrorKind::InvalidDim);
                }
                self.lists
                    .entry(*k)
                    .or_default()
                    .resize(n as usize, Real::ZERO);
                Ok(())
            }
            _ => Err(ErrorKind::DataType),
        }
    }
    fn set_ans(&mut self, v: Value) -> Result<(), ErrorKind> {
        self.ans = Some(v);
        Ok(())
    }
    fn program(&mut self, name: &[u8]) -> Result<Vec<u8>, ErrorKind> {
        self.programs.get(name).cloned().ok_or(ErrorKind::Undefined)
    }
    fn clr_home(&mut self) {
        self.shown.push("<clr>".into());
    }
    fn disp(&mut self, v: &Value) -> Result<(), ErrorKind> {
        self.shown.push(show(v));
        Ok(())
    }
    fn output(&mut self, row: i64, col: i64, v: &Value) -> Result<(), ErrorKind> {
        self.shown.push(format!("@{row},{col}:{}", show(v)));
        Ok(())
    }
    fn command(&mut self, tok: u8, tok2: u8, args: Vec<Value>) -> Result<Step, ErrorKind> {
        self.commands.push((tok, tok2, args));
        Ok(Step::Continue)
    }
}

fn tok(src: &str) -> Vec<u8> {
    tifiles::tokens::tokenize_source(src).expect("test source tokenizes")
}

/// Runs `src` as program `T`, answering Pause with ENTER and menus from `menu_choices`.
fn run(m: &mut Mock, src: &str) -> Status {
    m.programs.insert(b"T".to_vec(), tok(src));
    let mut it = Interp::new();
    it.start(m, b"T").expect("program exists");
    for _ in 0..1_000_000 {
        match it.step(m) {
            Status::Running => {}
            Status::Waiting(Wait::Pause) => it.finish_wait(None),
            Status::Waiting(Wait::Menu { .. }) => {
                let c = m.menu_choices.pop_front();
                it.finish_wait(c);
            }
            other => return other,
        }
    }
    panic!("program did not finish");
}

fn num(m: &Mock, var: char) -> f64 {
    m.reals.get(&(var as u8)).map(|r| r.to_f64()).unwrap_or(0.0)
}

#[test]
fn eos_precedence_is_the_ti82_one() {
    let mut m = Mock::default();
    let st = run(
        &mut m,
        "4->X\n1/2X->A\nint 5/2->B\n~2^2->C\n2^~1->D\n3+4*2->E\n(1+2)(3+4)->F\n2X^2->G\nnot 0 and 0->H\n1<2<3->I\n~X->J",
    );
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'A'), 0.125, "implied multiplication binds before /");
    assert_eq!(num(&m, 'B'), 2.5, "int takes only the 5");
    assert_eq!(num(&m, 'C'), -4.0);
    assert_eq!(num(&m, 'D'), 0.5);
    assert_eq!(num(&m, 'E'), 11.0);
    assert_eq!(num(&m, 'F'), 21.0);
    assert_eq!(num(&m, 'G'), 32.0);
    assert_eq!(num(&m, 'H'), 0.0);
    assert_eq!(num(&m, 'I'), 1.0);
    assert_eq!(num(&m, 'J'), -4.0);
}

#[test]
fn prefix_functions_take_an_implied_product() {
    let mut m = Mock::default();
    run(
        &mut m,
        "2->X\nsqrt8X->A\nabs ~3+1->B\niPart ~2.5->C\nfPart ~2.5->D\nint ~2.5->E",
    );
    assert_eq!(num(&m, 'A'), 4.0, "sqrt 8X is sqrt(16)");
    assert_eq!(num(&m, 'B'), 4.0);
    assert_eq!(num(&m, 'C'), -2.0);
    assert_eq!(num(&m, 'D'), -0.5);
    assert_eq!(num(&m, 'E'), -3.0);
}

#[test]
fn bcd_arithmetic_shows_through() {
    let mut m = Mock::default();
    run(&mut m, "1/3*3->A\n.1+.2->B\nA=1->C\nB=.3->D");
    assert_eq!(m.reals[&b'A'].digits(), [9; 14], "1/3*3 keeps 14 nines");
    // Comparisons look at 12 digits (see `eval::compared`): 1/3*3=1 is true on the TI-83
    // family (Stack Overflow "TI-Basic numeric standard": 1+10^-12=1 is 1).
    assert_eq!(num(&m, 'C'), 1.0);
    assert_eq!(num(&m, 'D'), 1.0);
}

#[test]
fn loops_and_blocks() {
    let mut m = Mock::default();
    let st = run(
        &mut m,
        "0->S\nFor(I,1,10)\nS+I->S\nEnd\n0->T\nFor(I,10,1,~2)\nT+1->T\nEnd\n0->N\nWhile N<5\nN+1->N\nEnd\n0->R\nRepeat R>=3\nR+1->R\nEnd\nFor(I,5,1)\n99->Z\nEnd",
    );
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'S'), 55.0);
    assert_eq!(num(&m, 'T'), 5.0);
    assert_eq!(num(&m, 'N'), 5.0);
    assert_eq!(num(&m, 'R'), 3.0);
    assert_eq!(
        num(&m, 'Z'),
        0.0,
        "a For( whose range is empty skips its body"
    );
}

#[test]
fn if_then_else_nesting_and_single_line_if() {
    let mut m = Mock::default();
    run(
        &mut m,
        "1->A\nIf A=1\nThen\n2->B\nIf 0\nThen\n9->B\nElse\n3->C\nEnd\nElse\n9->B\nEnd\nIf 0\n9->D\n4->E\nIf 0:Then:For(I,1,3):9->F:End:Else:5->F:End",
    );
    assert_eq!(num(&m, 'B'), 2.0);
    assert_eq!(num(&m, 'C'), 3.0);
    assert_eq!(num(&m, 'D'), 0.0);
    assert_eq!(num(&m, 'E'), 4.0);
    assert_eq!(num(&m, 'F'), 5.0);
}

#[test]
fn goto_labels_and_skip_instructions() {
    let mut m = Mock::default();
    let st = run(
        &mut m,
        "0->A\nLbl 1\nA+1->A\nIf A<5\nGoto 1\n0->B\nIS>(B,0)\n7->C\nDS<(B,0)\n8->D\nGoto ZZ\n9->E\nLbl ZZ",
    );
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'A'), 5.0);
    assert_eq!(
        num(&m, 'C'),
        0.0,
        "IS> skips when the variable passes the limit"
    );
    assert_eq!(num(&m, 'D'), 8.0, "DS< does not skip at 0 vs 0");
    assert_eq!(num(&m, 'E'), 0.0);
    let st = run(&mut m, "Goto Q");
    match st {
        Status::Error(e) => assert_eq!(e.kind, ErrorKind::Label),
        other => panic!("expected ERR:LABEL, got {other:?}"),
    }
}

#[test]
fn lists_store_resize_and_functions() {
    let mut m = Mock::default();
    run(
        &mut m,
        "16->dim L1\n4->L1(1)\n5->L1(17)\ndim L1->A\nsum seq(J,J,1,10)->B\n{1,2,3}+10->L2\nL2(3)->C\nmax(3,7)->D\nmin({4,2,8})->E\nround(2.345,2)->F",
    );
    assert_eq!(num(&m, 'A'), 17.0, "storing to dim+1 extends the list");
    assert_eq!(num(&m, 'B'), 55.0);
    assert_eq!(num(&m, 'J'), 0.0, "seq( restores its variable");
    assert_eq!(num(&m, 'C'), 13.0);
    assert_eq!(num(&m, 'D'), 7.0);
    assert_eq!(num(&m, 'E'), 2.0);
    assert_eq!(num(&m, 'F'), 2.35);
}

#[test]
fn programs_call_return_and_stop() {
    let mut m = Mock::default();
    m.programs
        .insert(b"SUB".to_vec(), tok("A+1->A\nReturn\n99->A"));
    let st = run(&mut m, "1->A\nprgmSUB\nprgmSUB\nA*10->A\nStop\n5->A");
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'A'), 30.0);
}

#[test]
fn menu_jumps_to_the_chosen_label_and_pause_waits() {
    let mut m = Mock::default();
    m.menu_choices.push_back(1);
    let st = run(
        &mut m,
        "Menu(\"MAIN MENU\",\"PLAY\",P,\"QUIT\",Q)\nLbl P\n1->A\nStop\nLbl Q\nPause\n2->A",
    );
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'A'), 2.0);
}

#[test]
fn errors_name_the_statement() {
    let mut m = Mock::default();
    for (src, kind) in [
        ("1/0", ErrorKind::DivideBy0),
        ("1+", ErrorKind::Syntax),
        ("L3(1)", ErrorKind::Undefined),
        ("End", ErrorKind::Syntax),
        ("For(I,1,2,0)\nEnd", ErrorKind::Increment),
        ("sqrt~1", ErrorKind::Domain),
        ("{1,2}+{1,2,3}", ErrorKind::DimMismatch),
    ] {
        match run(&mut m, src) {
            Status::Error(e) => assert_eq!(e.kind, kind, "{src}"),
            other => panic!("{src}: expected {kind:?}, got {other:?}"),
        }
    }
}

#[test]
fn disp_and_output_reach_the_home_screen() {
    let mut m = Mock::default();
    run(&mut m, "ClrHome\nDisp \"HI\",2+2\nOutput(3,4,\"X\")");
    assert_eq!(m.shown, vec!["<clr>", "HI", "4", "@3,4:X"]);
}

#[test]
fn unclosed_parentheses_and_strings_are_accepted() {
    let mut m = Mock::default();
    let st = run(&mut m, "(1+2->A\nDisp \"OPEN\nmax(1,(2->B");
    assert_eq!(st, Status::Done);
    assert_eq!(num(&m, 'A'), 3.0);
    assert_eq!(num(&m, 'B'), 2.0);
    assert_eq!(m.shown, vec!["OPEN"]);
}

#[test]
fn our_mancala_programs_compile_without_syntax_errors() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../programs/");
    for name in ["MANBOARD.txt", "MANCALA.txt"] {
        let src = std::fs::read_to_string(format!("{root}{name}")).expect("program source");
        let bytes = tok(&src);
        let lines = compile(&bytes);
        let bad: Vec<_> = lines
            .iter()
            .filter(|l| l.stmt == Stmt::SyntaxError)
            .map(|l| l.offset)
            .collect();
        assert!(bad.is_empty(), "{name}: syntax errors at offsets {bad:?}");
        assert!(lines.len() > 20);
    }
}
