//! Expression evaluation. Everything the calculator's state supplies (variables, keys, the
//! random generator, pixels, the angle mode) comes through [`Env`], so the evaluator is the
//! same whether the state lives in emulated RAM or in a test double.

use crate::ast::Expr;
use crate::calculus;
use crate::matrix;
use crate::real::{MathError, Real};
use crate::token::*;
use crate::value::{ErrorKind, Matrix, Value, MAX_DIM, MAX_LIST};

/// What an expression may read from (and, for `seq(`, temporarily write to) the calculator.
pub trait Env {
    fn real(&mut self, var: u8) -> Result<Real, ErrorKind>;
    fn set_real(&mut self, var: u8, v: Real) -> Result<(), ErrorKind>;
    fn ans(&mut self) -> Result<Value, ErrorKind>;
    fn list(&mut self, k: u8) -> Result<Vec<Real>, ErrorKind>;
    /// Element `i` (1-based) of list `k`.
    fn list_elem(&mut self, k: u8, i: usize) -> Result<Real, ErrorKind> {
        let l = self.list(k)?;
        l.get(i.wrapping_sub(1))
            .copied()
            .ok_or(ErrorKind::InvalidDim)
    }
    fn matrix(&mut self, k: u8) -> Result<Matrix, ErrorKind>;
    fn window(&mut self, k: u8) -> Result<Real, ErrorKind>;
    /// `getKey`: the last key pressed since the previous call, 0 if none.
    fn get_key(&mut self) -> u8;
    /// `rand`: the next number of the calculator's generator.
    fn rand(&mut self) -> Real;
    /// `pxl-Test(row,col)` on the graph screen.
    fn pixel(&mut self, row: i64, col: i64) -> Result<bool, ErrorKind>;
    fn degrees(&self) -> bool;
    /// A Y-variable's value at the current X (`Y₁`…`Y₀`: `k` = 10h-19h).
    fn equation(&mut self, k: u8) -> Result<Value, ErrorKind> {
        Err(ErrorKind::Unsupported(format!("token 5E {k:02X}")))
    }
    /// `TblInput`: the X values of an IndpntAsk table.
    fn tbl_input(&mut self) -> Result<Value, ErrorKind> {
        Err(ErrorKind::Unsupported("TblInput".into()))
    }
    /// `RegEQ`: the last regression's equation at the current X.
    fn reg_eq(&mut self) -> Result<Value, ErrorKind> {
        Err(ErrorKind::Unsupported("RegEQ".into()))
    }
    /// A statistics variable (`62h` `k`): the last statistics command's result.
    fn stat(&mut self, k: u8) -> Result<Real, ErrorKind> {
        Err(ErrorKind::Unsupported(format!("token 62 {k:02X}")))
    }
    /// Charge `t` T-states of evaluation work (see `crate::cost`).
    fn charge(&mut self, _t: u64) {}
}

pub(crate) fn math(e: MathError) -> ErrorKind {
    match e {
        MathError::Overflow => ErrorKind::Overflow,
        MathError::DivideByZero => ErrorKind::DivideBy0,
        MathError::Domain => ErrorKind::Domain,
    }
}

/// An integer argument in `lo..=hi`.
pub fn int_arg(v: Real, lo: i64, hi: i64) -> Result<i64, ErrorKind> {
    match v.to_i64_exact() {
        Some(i) if (lo..=hi).contains(&i) => Ok(i),
        _ => Err(ErrorKind::Domain),
    }
}

fn truth(b: bool) -> Real {
    if b {
        Real::ONE
    } else {
        Real::ZERO
    }
}

/// Evaluates `e`.
pub fn eval<E: Env>(env: &mut E, e: &Expr) -> Result<Value, ErrorKind> {
    env.charge(crate::cost::node(e));
    Ok(match e {
        Expr::Num(r) => Value::Real(*r),
        Expr::Var(v) => Value::Real(env.real(*v)?),
        Expr::Ans => env.ans()?,
        Expr::List(k) => Value::List(env.list(*k)?),
        Expr::ListElem(k, i) => {
            let i = eval(env, i)?.real()?;
            let i = int_arg(i, 1, MAX_LIST as i64).map_err(|_| ErrorKind::InvalidDim)?;
            Value::Real(env.list_elem(*k, i as usize)?)
        }
        Expr::Matrix(k) => Value::Matrix(env.matrix(*k)?),
        Expr::MatElem(k, r, c) => {
            let r = eval(env, r)?.real()?;
            let c = eval(env, c)?.real()?;
            let m = env.matrix(*k)?;
            let r = int_arg(r, 1, m.rows as i64).map_err(|_| ErrorKind::InvalidDim)?;
            let c = int_arg(c, 1, m.cols as i64).map_err(|_| ErrorKind::InvalidDim)?;
            Value::Real(m.data[(r as usize - 1) * m.cols + c as usize - 1])
        }
        Expr::ListLit(items) => {
            if items.len() > MAX_LIST {
                return Err(ErrorKind::InvalidDim);
            }
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(eval(env, it)?.real()?);
            }
            Value::List(out)
        }
        Expr::MatLit(rows) => {
            let cols = rows.first().map_or(0, |r| r.len());
            if rows.len() > MAX_DIM || cols > MAX_DIM || cols == 0 {
                return Err(ErrorKind::InvalidDim);
            }
            let mut data = Vec::with_capacity(rows.len() * cols);
            for row in rows {
                if row.len() != cols {
                    return Err(ErrorKind::DimMismatch);
                }
                for it in row {
                    data.push(eval(env, it)?.real()?);
                }
            }
            Value::Matrix(Matrix {
                rows: rows.len(),
                cols,
                data,
            })
        }
        Expr::Str(s) => Value::Str(s.clone()),
        Expr::Window(0x2A) => env.tbl_input()?,
        Expr::Window(k) => Value::Real(env.window(*k)?),
        Expr::Pi => Value::Real(Real::PI),
        Expr::Rand => Value::Real(env.rand()),
        Expr::GetKey => Value::Real(Real::from_i64(env.get_key() as i64)),
        Expr::Prefix(op, arg) => {
            let v = eval(env, arg)?;
            prefix(env, *op, v)?
        }
        Expr::Postfix(op, arg) => {
            let v = eval(env, arg)?;
            postfix(env, *op, v)?
        }
        Expr::Binary(op, a, b) => {
            let a = eval(env, a)?;
            // `and`/`or` evaluate both sides on the calculator too (no short circuit).
            let b = eval(env, b)?;
            binary(*op, a, b)?
        }
        Expr::Call(f, args) => call(env, *f, args)?,
        // Pictures and graph databases are named by number in StorePic/RecallPic and
        // StoreGDB/RecallGDB; as a value they are not a real, list or matrix [U].
        Expr::Unsupported(PREFIX_PIC | PREFIX_GDB, _) => return Err(ErrorKind::DataType),
        Expr::Equation(k) => env.equation(*k)?,
        // A plot type or mark is no value (only `Plot1(`-`Plot3(` read them) [I].
        Expr::PlotToken(_) => return Err(ErrorKind::Syntax),
        // RegEQ (01) is an equation and 𝑛 (21) a sequence variable: with graphing.
        Expr::Unsupported(PREFIX_STAT, 0x01) => env.reg_eq()?,
        Expr::Unsupported(PREFIX_STAT, k) if (0x02..=0x21).contains(k) => {
            Value::Real(env.stat(*k)?)
        }
        Expr::Unsupported(b1, b2) => {
            return Err(ErrorKind::Unsupported(format!("token {b1:02X} {b2:02X}")));
        }
    })
}

/// Applies `f` to a real or to every element of a list.
fn map1(v: Value, f: impl Fn(Real) -> Result<Real, ErrorKind>) -> Result<Value, ErrorKind> {
    match v {
        Value::Real(r) => Ok(Value::Real(f(r)?)),
        Value::List(l) => Ok(Value::List(l.into_iter().map(f).collect::<Result<_, _>>()?)),
        _ => Err(ErrorKind::DataType),
    }
}

/// Applies `f` elementwise: real∘real, list∘real, real∘list, list∘list (same length).
fn map2(
    a: Value,
    b: Value,
    f: impl Fn(Real, Real) -> Result<Real, ErrorKind>,
) -> Result<Value, ErrorKind> {
    match (a, b) {
        (Value::Real(x), Value::Real(y)) => Ok(Value::Real(f(x, y)?)),
        (Value::List(l), Value::Real(y)) => Ok(Value::List(
            l.into_iter().map(|x| f(x, y)).collect::<Result<_, _>>()?,
        )),
        (Value::Real(x), Value::List(l)) => Ok(Value::List(
            l.into_iter().map(|y| f(x, y)).collect::<Result<_, _>>()?,
        )),
        (Value::List(l), Value::List(m)) => {
            if l.len() != m.len() {
                return Err(ErrorKind::DimMismatch);
            }
            Ok(Value::List(
                l.into_iter()
                    .zip(m)
                    .map(|(x, y)| f(x, y))
                    .collect::<Result<_, _>>()?,
            ))
        }
        _ => Err(ErrorKind::DataType),
    }
}

fn prefix<E: Env>(env: &mut E, op: u8, v: Value) -> Result<Value, ErrorKind> {
    let deg = env.degrees();
    env.charge(crate::cost::PREFIX_FN);
    match op {
        NEGATE => match v {
            Value::Matrix(mut m) => {
                m.data.iter_mut().for_each(|x| *x = x.neg());
                Ok(Value::Matrix(m))
            }
            v => map1(v, |x| Ok(x.neg())),
        },
        NOT => map1(v, |x| Ok(truth(x.is_zero()))),
        INT => map1(v, |x| x.int().map_err(math)),
        ABS => map1(v, |x| Ok(x.abs())),
        IPART => map1(v, |x| Ok(x.ipart())),
        FPART => map1(v, |x| Ok(x.fpart())),
        SQRT => map1(v, |x| x.sqrt().map_err(math)),
        CBRT => map1(v, |x| x.cbrt().map_err(math)),
        LN => map1(v, |x| x.ln().map_err(math)),
        EXP => map1(v, |x| x.exp().map_err(math)),
        LOG => map1(v, |x| x.log10().map_err(math)),
        TEN_POW => map1(v, |x| x.pow10().map_err(math)),
        SIN..=TANH_INV => map1(v, |x| trig(op, x, deg)),
        DIM => match v {
            Value::List(l) => Ok(Value::Real(Real::from_i64(l.len() as i64))),
            Value::Matrix(m) => Ok(Value::List(vec![
                Real::from_i64(m.rows as i64),
                Real::from_i64(m.cols as i64),
            ])),
            _ => Err(ErrorKind::DataType),
        },
        SUM | PROD => match v {
            Value::List(l) => {
                let mut acc = if op == SUM { Real::ZERO } else { Real::ONE };
                for x in l {
                    acc = if op == SUM { acc.add(x) } else { acc.mul(x) }.map_err(math)?;
                }
                Ok(Value::Real(acc))
            }
            _ => Err(ErrorKind::DataType),
        },
        IDENTITY => {
            let n = int_arg(v.real()?, 1, MAX_DIM as i64)? as usize;
            let mut data = vec![Real::ZERO; n * n];
            for i in 0..n {
                data[i * n + i] = Real::ONE;
            }
            Ok(Value::Matrix(Matrix {
                rows: n,
                cols: n,
                data,
            }))
        }
        DET => match v {
            Value::Matrix(m) => Ok(Value::Real(determinant(&m)?)),
            _ => Err(ErrorKind::DataType),
        },
        _ => Err(ErrorKind::Syntax),
    }
}

fn trig(op: u8, x: Real, deg: bool) -> Result<Real, ErrorKind> {
    let r = match op {
        0xC2 => x.sin(deg),
        0xC3 => x.asin(deg),
        0xC4 => x.cos(deg),
        0xC5 => x.acos(deg),
        0xC6 => x.tan(deg),
        0xC7 => x.atan(deg),
        0xC8 => x.sinh(),
        0xC9 => x.asinh(),
        0xCA => x.cosh(),
        0xCB => x.acosh(),
        0xCC => x.tanh(),
        _ => x.atanh(),
    };
    r.map_err(math)
}

fn determinant(m: &Matrix) -> Result<Real, ErrorKind> {
    if m.rows != m.cols {
        return Err(ErrorKind::InvalidDim);
    }
    // Gaussian elimination with partial pivoting on the 14-digit reals.
    let n = m.rows;
    let mut a = m.data.clone();
    let mut det = Real::ONE;
    for col in 0..n {
        let pivot = crate::matrix::pivot_row(&a, n, col);
        if a[pivot * n + col].is_zero() {
            return Ok(Real::ZERO);
        }
        if pivot != col {
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
            }
            det = det.neg();
        }
        let p = a[col * n + col];
        det = det.mul(p).map_err(math)?;
        for row in col + 1..n {
            let factor = a[row * n + col].div(p).map_err(math)?;
            for k in col..n {
                let v = a[row * n + k].sub(factor.mul(a[col * n + k]).map_err(math)?);
                a[row * n + k] = v.map_err(math)?;
            }
        }
    }
    Ok(det)
}

fn postfix<E: Env>(env: &mut E, op: u8, v: Value) -> Result<Value, ErrorKind> {
    let deg = env.degrees();
    env.charge(crate::cost::POSTFIX_OP);
    match op {
        SQUARE => match v {
            Value::Matrix(m) => Ok(Value::Matrix(matrix::mul(&m, &m)?)),
            v => map1(v, |x| x.mul(x).map_err(math)),
        },
        CUBE => match v {
            Value::Matrix(m) => Ok(Value::Matrix(matrix::power(&m, Real::from_i64(3))?)),
            v => map1(v, |x| x.mul(x).and_then(|y| y.mul(x)).map_err(math)),
        },
        INVERSE => match v {
            Value::Matrix(m) => Ok(Value::Matrix(matrix::inverse(&m)?)),
            v => map1(v, |x| Real::ONE.div(x).map_err(math)),
        },
        FACTORIAL => map1(v, |x| x.factorial().map_err(math)),
        // x° is x degrees: converted to radians in radian mode, unchanged in degree mode.
        DEGREE_MARK => map1(v, |x| {
            if deg {
                Ok(x)
            } else {
                x.mul(Real::PI)
                    .and_then(|y| y.div(Real::from_i64(180)))
                    .map_err(math)
            }
        }),
        RADIAN_MARK => map1(v, |x| {
            if deg {
                x.mul(Real::from_i64(180))
                    .and_then(|y| y.div(Real::PI))
                    .map_err(math)
            } else {
                Ok(x)
            }
        }),
        // ►Frac, ►DMS, ►Dec change only how the result is shown (crate::conv).
        TO_FRAC | TO_DMS | TO_DEC => Ok(v),
        TRANSPOSE => match v {
            Value::Matrix(m) => {
                let mut data = Vec::with_capacity(m.data.len());
                for c in 0..m.cols {
                    for r in 0..m.rows {
                        data.push(m.data[r * m.cols + c]);
                    }
                }
                Ok(Value::Matrix(Matrix {
                    rows: m.cols,
                    cols: m.rows,
                    data,
                }))
            }
            _ => Err(ErrorKind::DataType),
        },
        _ => Err(ErrorKind::Syntax),
    }
}

fn mat_elementwise(
    a: Matrix,
    b: Matrix,
    f: impl Fn(Real, Real) -> Result<Real, MathError>,
) -> Result<Value, ErrorKind> {
    if a.rows != b.rows || a.cols != b.cols {
        return Err(ErrorKind::DimMismatch);
    }
    let data = a
        .data
        .into_iter()
        .zip(b.data)
        .map(|(x, y)| f(x, y).map_err(math))
        .collect::<Result<_, _>>()?;
    Ok(Value::Matrix(Matrix {
        rows: a.rows,
        cols: a.cols,
        data,
    }))
}

fn binary(op: u8, a: Value, b: Value) -> Result<Value, ErrorKind> {
    // Matrix arithmetic first; everything else is real/list elementwise.
    match (op, a, b) {
        (PLUS, Value::Matrix(x), Value::Matrix(y)) => mat_elementwise(x, y, |p, q| p.add(q)),
        (MINUS, Value::Matrix(x), Value::Matrix(y)) => mat_elementwise(x, y, |p, q| p.sub(q)),
        (TIMES, Value::Matrix(x), Value::Matrix(y)) => Ok(Value::Matrix(matrix::mul(&x, &y)?)),
        (POWER, Value::Matrix(x), Value::Real(n)) => Ok(Value::Matrix(matrix::power(&x, n)?)),
        (TIMES, Value::Real(s), Value::Matrix(mut m))
        | (TIMES, Value::Matrix(mut m), Value::Real(s)) => {
            for x in m.data.iter_mut() {
                *x = x.mul(s).map_err(math)?;
            }
            Ok(Value::Matrix(m))
        }
        (EQ | NE, Value::Matrix(x), Value::Matrix(y)) => {
            let same = x == y;
            Ok(Value::Real(truth(if op == EQ { same } else { !same })))
        }
        (_, a, b) => {
            let f: fn(Real, Real) -> Result<Real, ErrorKind> = match op {
                PLUS => |x, y| x.add(y).map_err(math),
                MINUS => |x, y| x.sub(y).map_err(math),
                TIMES => |x, y| x.mul(y).map_err(math),
                DIVIDE => |x, y| x.div(y).map_err(math),
                POWER => |x, y| x.pow(y).map_err(math),
                XROOT => |x, y| y.xroot(x).map_err(math),
                NPR => |x, y| x.npr(y).map_err(math),
                NCR => |x, y| x.ncr(y).map_err(math),
                EQ => |x, y| Ok(truth(compared(x) == compared(y))),
                NE => |x, y| Ok(truth(compared(x) != compared(y))),
                LT => |x, y| Ok(truth(compared(x) < compared(y))),
                GT => |x, y| Ok(truth(compared(x) > compared(y))),
                LE => |x, y| Ok(truth(compared(x) <= compared(y))),
                GE => |x, y| Ok(truth(compared(x) >= compared(y))),
                AND => |x, y| Ok(truth(!x.is_zero() && !y.is_zero())),
                OR => |x, y| Ok(truth(!x.is_zero() || !y.is_zero())),
                XOR => |x, y| Ok(truth(x.is_zero() != y.is_zero())),
                _ => return Err(ErrorKind::Syntax),
            };
            map2(a, b, f)
        }
    }
}

/// Digits a comparison looks at.
const COMPARED_DIGITS: u32 = 12;

/// `x` as the relational operators see it: rounded (half away from zero) to 12 significant
/// digits, so the last two of the 14 stored digits, rounding noise, do not count. The TI-83
/// family compares this way: `1+10^⁻12=1` is 1 while `1.0000000001=1` is 0 (a Stack Overflow
/// answer tested on a TI-83 Premium CE, "TI-Basic numeric standard"; the MaxCoderz forum
/// thread "13-13=-2.643e-9 ?", 2006), which puts the cut between 10 and 12 digits [U: the
/// TI-82's exact rule; 12 chosen]. `1/3*3=1` is therefore 1, while `1/3*3-1` is ⁻1ᴇ⁻14, ≠ 0.
// `is_multiple_of` is newer than the workspace's minimum Rust version (1.80).
#[allow(clippy::manual_is_multiple_of)]
fn compared(x: Real) -> Real {
    const DROP: u64 = 10u64.pow(14 - COMPARED_DIGITS);
    // Most numbers in programs (integers, short decimals) have nothing to round.
    if x.mantissa() % DROP == 0 {
        return x;
    }
    let drop = DROP;
    let c = (x.mantissa() + drop / 2) / drop;
    Real::new(
        x.is_negative(),
        c,
        x.exponent() - (COMPARED_DIGITS as i32 - 1),
    )
    .unwrap_or(x)
}

fn list_arg(v: Value) -> Result<Vec<Real>, ErrorKind> {
    match v {
        Value::List(l) if !l.is_empty() => Ok(l),
        Value::List(_) => Err(ErrorKind::InvalidDim),
        _ => Err(ErrorKind::DataType),
    }
}

fn call<E: Env>(env: &mut E, f: u8, args: &[Expr]) -> Result<Value, ErrorKind> {
    env.charge(crate::cost::CALL_FN);
    if f == SEQ {
        return seq(env, args);
    }
    if calculus::is_calculus(f) {
        return calculus::call(env, f, args);
    }
    let mut vals = Vec::with_capacity(args.len());
    for a in args {
        vals.push(eval(env, a)?);
    }
    let argc = vals.len();
    let mut it = vals.into_iter();
    let mut next = || it.next().ok_or(ErrorKind::Argument);
    match (f, argc) {
        (ROUND, 1) => map1(next()?, |x| Ok(x.round(9))),
        (ROUND, 2) => {
            let v = next()?;
            let d = int_arg(next()?.real()?, 0, 9)? as u8;
            map1(v, move |x| Ok(x.round(d)))
        }
        (MAX | MIN, 1) => {
            let l = list_arg(next()?)?;
            let pick = l
                .into_iter()
                .reduce(|a, b| if (f == MAX) == (b > a) { b } else { a });
            Ok(Value::Real(pick.unwrap_or(Real::ZERO)))
        }
        (MAX | MIN, 2) => {
            let (a, b) = (next()?, next()?);
            map2(a, b, |x, y| Ok(if (f == MAX) == (y > x) { y } else { x }))
        }
        (MEAN, 1) => {
            let l = list_arg(next()?)?;
            let n = Real::from_i64(l.len() as i64);
            let mut acc = Real::ZERO;
            for x in l {
                acc = acc.add(x).map_err(math)?;
            }
            Ok(Value::Real(acc.div(n).map_err(math)?))
        }
        (MEDIAN, 1) => {
            let mut l = list_arg(next()?)?;
            l.sort();
            let n = l.len();
            let m = if n % 2 == 1 {
                l[n / 2]
            } else {
                l[n / 2 - 1]
                    .add(l[n / 2])
                    .and_then(|s| s.div(Real::from_i64(2)))
                    .map_err(math)?
            };
            Ok(Value::Real(m))
        }
        (AUGMENT, 2) => match (next()?, next()?) {
            (Value::Matrix(a), Value::Matrix(b)) => Ok(Value::Matrix(matrix::augment(&a, &b)?)),
            (Value::List(mut a), Value::List(b)) => {
                if a.len() + b.len() > MAX_LIST {
                    return Err(ErrorKind::InvalidDim);
                }
                a.extend(b);
                Ok(Value::List(a))
            }
            _ => Err(ErrorKind::DataType),
        },
        (PXL_TEST, 2) => {
            let r = next()?.real()?;
            let c = next()?.real()?;
            let (r, c) = (int_arg(r, 0, 62)?, int_arg(c, 0, 94)?);
            Ok(Value::Real(truth(env.pixel(r, c)?)))
        }
        (ROW_SWAP, 3) => match (next()?, next()?.real()?, next()?.real()?) {
            (Value::Matrix(m), a, b) => Ok(Value::Matrix(matrix::row_swap(m, a, b)?)),
            _ => Err(ErrorKind::DataType),
        },
        (ROW_PLUS, 3) => match (next()?, next()?.real()?, next()?.real()?) {
            (Value::Matrix(m), a, b) => Ok(Value::Matrix(matrix::row_add(m, Real::ONE, a, b)?)),
            _ => Err(ErrorKind::DataType),
        },
        (TIMES_ROW, 3) => match (next()?.real()?, next()?, next()?.real()?) {
            (x, Value::Matrix(m), r) => Ok(Value::Matrix(matrix::row_mul(m, x, r)?)),
            _ => Err(ErrorKind::DataType),
        },
        (TIMES_ROW_PLUS, 4) => match (next()?.real()?, next()?, next()?.real()?, next()?.real()?) {
            (x, Value::Matrix(m), a, b) => Ok(Value::Matrix(matrix::row_add(m, x, a, b)?)),
            _ => Err(ErrorKind::DataType),
        },
        (RAND_M, 2) => {
            let (rows, cols) = matrix::dims(next()?.real()?, next()?.real()?)?;
            let mut data = Vec::with_capacity(rows * cols);
            for _ in 0..rows * cols {
                data.push(matrix::rand_element(env.rand()));
            }
            Ok(Value::Matrix(Matrix { rows, cols, data }))
        }
        (ROW_SWAP | ROW_PLUS | TIMES_ROW | TIMES_ROW_PLUS | RAND_M, _) => Err(ErrorKind::Argument),
        (R_TO_PR..=P_TO_RY, 2) => {
            let deg = env.degrees();
            map2(next()?, next()?, |a, b| crate::conv::polar(f, a, b, deg))
        }
        (ROUND | MAX | MIN | MEAN | MEDIAN | AUGMENT | PXL_TEST | R_TO_PR..=P_TO_RY, _) => {
            Err(ErrorKind::Argument)
        }
        _ => Err(ErrorKind::Unsupported(format!("function {f:02X}"))),
    }
}

/// `seq(expr,var,begin,end[,step])`: the variable is restored afterwards.
fn seq<E: Env>(env: &mut E, args: &[Expr]) -> Result<Value, ErrorKind> {
    let (expr, var) = match args {
        [e, Expr::Var(v), _, _] | [e, Expr::Var(v), _, _, _] => (e, *v),
        [_, _, _, _] | [_, _, _, _, _] => return Err(ErrorKind::Syntax),
        _ => return Err(ErrorKind::Argument),
    };
    let begin = eval(env, &args[2])?.real()?;
    let end = eval(env, &args[3])?.real()?;
    let step = match args.get(4) {
        Some(s) => eval(env, s)?.real()?,
        None => Real::ONE,
    };
    if step.is_zero() {
        return Err(ErrorKind::Increment);
    }
    let saved = env.real(var).ok();
    let mut out = Vec::new();
    let mut x = begin;
    let result = (|| {
        while (!step.is_negative() && x <= end) || (step.is_negative() && x >= end) {
            if out.len() >= MAX_LIST {
                return Err(ErrorKind::InvalidDim);
            }
            env.set_real(var, x)?;
            out.push(eval(env, expr)?.real()?);
            x = x.add(step).map_err(math)?;
        }
        Ok(())
    })();
    if let Some(s) = saved {
        env.set_real(var, s)?;
    }
    result.map(|_| Value::List(out))
}
