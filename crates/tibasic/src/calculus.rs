//! `nDeriv(`, `fnInt(`, `fMin(`, `fMax(`, `solve(`: the MATH menu's numeric calculus.
//!
//! Argument forms and tolerances from the TI-82 Guidebook's MATH MATH menu (the TI-83
//! Guidebook, chapter 2, gives the same forms and defaults):
//! - `nDeriv(expression,variable,value[,ε])`: the central difference
//!   (f(value+ε) − f(value−ε)) / 2ε, ε = 1ᴇ⁻3 by default;
//! - `fnInt(expression,variable,lower,upper[,tolerance])`: Gauss-Kronrod integration,
//!   tolerance 1ᴇ⁻5 by default; ERR:TOL NOT MET when the error estimate stays above it;
//! - `fMin(`/`fMax(expression,variable,lower,upper[,tolerance])`: where the expression is
//!   least/greatest on [lower,upper], tolerance 1ᴇ⁻5 by default;
//! - `solve(expression,variable,guess[,{lower,upper}])`: a root of expression = 0 near guess;
//!   ERR:NO SIGN CHNG when none is found;
//! - the variable is restored afterwards; these functions cannot be nested in one another's
//!   expression (ERR:ILLEGAL NEST); a tolerance or ε of 0 or less is ERR:DOMAIN.
//!
//! nDeriv( is computed in the 14-digit arithmetic exactly as documented. The others search
//! in binary floating point (evaluating the expression in the 14-digit arithmetic) [U: the
//! TI's own iterations are not documented, so results may differ from the calculator's in
//! the digits beyond the tolerance].

use crate::ast::Expr;
use crate::eval::{eval, math, Env};
use crate::real::Real;
use crate::value::{ErrorKind, Value};

pub const NDERIV: u8 = 0x25;
pub const FNINT: u8 = 0x24;
pub const SOLVE: u8 = 0x22;
pub const FMIN: u8 = 0x27;
pub const FMAX: u8 = 0x28;

/// True for the five calculus tokens.
pub fn is_calculus(tok: u8) -> bool {
    matches!(tok, NDERIV | FNINT | SOLVE | FMIN | FMAX)
}

fn nests(e: &Expr) -> bool {
    match e {
        Expr::Call(f, args) => is_calculus(*f) || args.iter().any(nests),
        Expr::Prefix(_, a) | Expr::Postfix(_, a) | Expr::ListElem(_, a) => nests(a),
        Expr::Binary(_, a, b) | Expr::MatElem(_, a, b) => nests(a) || nests(b),
        Expr::ListLit(items) => items.iter().any(nests),
        Expr::MatLit(rows) => rows.iter().flatten().any(nests),
        _ => false,
    }
}

/// The expression as a function of its variable.
struct Func<'a, E: Env> {
    env: &'a mut E,
    expr: &'a Expr,
    var: u8,
}

impl<E: Env> Func<'_, E> {
    fn at(&mut self, x: Real) -> Result<Real, ErrorKind> {
        self.env.set_real(self.var, x)?;
        eval(self.env, self.expr)?.real()
    }

    fn at_f64(&mut self, x: f64) -> Result<f64, ErrorKind> {
        let x = Real::from_f64(x).map_err(math)?;
        Ok(self.at(x)?.to_f64())
    }
}

fn real_of(env: &mut impl Env, e: &Expr) -> Result<Real, ErrorKind> {
    eval(env, e)?.real()
}

fn positive(v: Real) -> Result<Real, ErrorKind> {
    if v.is_negative() || v.is_zero() {
        Err(ErrorKind::Domain)
    } else {
        Ok(v)
    }
}

/// Evaluates calculus function `f` with its (unevaluated) arguments.
pub fn call<E: Env>(env: &mut E, f: u8, args: &[Expr]) -> Result<Value, ErrorKind> {
    let (expr, var) = match args {
        [e, Expr::Var(v), ..] => (e, *v),
        [_, _, ..] => return Err(ErrorKind::Syntax),
        _ => return Err(ErrorKind::Argument),
    };
    if nests(expr) {
        return Err(ErrorKind::IllegalNest);
    }
    let rest = &args[2..];
    let saved = env.real(var)?;
    let result = (|| {
        let r = match (f, rest) {
            (NDERIV, [x]) | (NDERIV, [x, _]) => {
                let x = real_of(env, x)?;
                let eps = match rest.get(1) {
                    Some(e) => positive(real_of(env, e)?)?,
                    None => Real::new(false, 1, -3).map_err(math)?,
                };
                let mut fx = Func { env, expr, var };
                nderiv(&mut fx, x, eps)?
            }
            (FNINT | FMIN | FMAX, [lo, hi]) | (FNINT | FMIN | FMAX, [lo, hi, _]) => {
                let lo = real_of(env, lo)?;
                let hi = real_of(env, hi)?;
                let tol = match rest.get(2) {
                    Some(t) => positive(real_of(env, t)?)?,
                    None => Real::new(false, 1, -5).map_err(math)?,
                };
                let mut fx = Func { env, expr, var };
                if f == FNINT {
                    integrate(&mut fx, lo, hi, tol)?
                } else {
                    extremum(&mut fx, lo, hi, tol, f == FMAX)?
                }
            }
            (SOLVE, [guess]) | (SOLVE, [guess, _]) => {
                let guess = real_of(env, guess)?;
                let (lo, hi) = match rest.get(1) {
                    Some(b) => match eval(env, b)? {
                        Value::List(l) if l.len() == 2 => (l[0], l[1]),
                        Value::List(_) => return Err(ErrorKind::InvalidDim),
                        _ => return Err(ErrorKind::DataType),
                    },
                    None => (
                        Real::new(true, 1, 99).map_err(math)?,
                        Real::new(false, 1, 99).map_err(math)?,
                    ),
                };
                if lo >= hi || guess < lo || guess > hi {
                    return Err(ErrorKind::Bound);
                }
                let mut fx = Func { env, expr, var };
                solve(&mut fx, guess, lo, hi)?
            }
            _ => return Err(ErrorKind::Argument),
        };
        Ok(Value::Real(r))
    })();
    env.set_real(var, saved)?;
    result
}

fn nderiv<E: Env>(f: &mut Func<E>, x: Real, eps: Real) -> Result<Real, ErrorKind> {
    let up = f.at(x.add(eps).map_err(math)?)?;
    let down = f.at(x.sub(eps).map_err(math)?)?;
    let two_eps = eps.add(eps).map_err(math)?;
    up.sub(down).and_then(|d| d.div(two_eps)).map_err(math)
}

/// Gauss-Kronrod 7/15 nodes and weights on [−1, 1] (the standard table).
const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
const WG: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// One G7/K15 panel: the Kronrod estimate and |Kronrod − Gauss|.
fn gk15<E: Env>(f: &mut Func<E>, a: f64, b: f64) -> Result<(f64, f64), ErrorKind> {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let fc = f.at_f64(c)?;
    let mut k = fc * WGK[7];
    let mut g = fc * WG[3];
    for i in 0..7 {
        let dx = h * XGK[i];
        let s = f.at_f64(c - dx)? + f.at_f64(c + dx)?;
        k += WGK[i] * s;
        if i % 2 == 1 {
            g += WG[i / 2] * s;
        }
    }
    Ok((k * h, ((k - g) * h).abs()))
}

fn integrate<E: Env>(f: &mut Func<E>, lo: Real, hi: Real, tol: Real) -> Result<Real, ErrorKind> {
    if lo == hi {
        return Ok(Real::ZERO);
    }
    let (a, b, tol) = (lo.to_f64(), hi.to_f64(), tol.to_f64());
    // Adaptive: split the panel with the largest error until the total meets the tolerance.
    let mut panels = vec![(a, b, gk15(f, a, b)?)];
    for _ in 0..200 {
        let err: f64 = panels.iter().map(|p| p.2 .1).sum();
        if err <= tol {
            let sum: f64 = panels.iter().map(|p| p.2 .0).sum();
            return Real::from_f64(sum).map_err(math);
        }
        let (i, _) = panels
            .iter()
            .enumerate()
            .max_by(|x, y| x.1 .2 .1.total_cmp(&y.1 .2 .1))
            .expect("at least one panel");
        let (pa, pb, _) = panels.swap_remove(i);
        let m = 0.5 * (pa + pb);
        panels.push((pa, m, gk15(f, pa, m)?));
        panels.push((m, pb, gk15(f, m, pb)?));
    }
    Err(ErrorKind::TolNotMet)
}

/// Golden-section search for the least (or greatest) value on [lo, hi].
fn extremum<E: Env>(
    f: &mut Func<E>,
    lo: Real,
    hi: Real,
    tol: Real,
    max: bool,
) -> Result<Real, ErrorKind> {
    let (mut a, mut b) = (lo.to_f64(), hi.to_f64());
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    let tol = tol.to_f64();
    let sign = if max { -1.0 } else { 1.0 };
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let mut fc = sign * f.at_f64(c)?;
    let mut fd = sign * f.at_f64(d)?;
    let mut steps = 0;
    while (b - a).abs() > tol && steps < 200 {
        if fc <= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = sign * f.at_f64(c)?;
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = sign * f.at_f64(d)?;
        }
        steps += 1;
    }
    // The ends can be the extremum of a monotonic function.
    let mid = 0.5 * (a + b);
    let candidates = [lo.to_f64(), mid, hi.to_f64()];
    let mut best = (mid, sign * f.at_f64(mid)?);
    for &x in &candidates {
        let v = sign * f.at_f64(x)?;
        if v < best.1 {
            best = (x, v);
        }
    }
    Real::from_f64(best.0).map_err(math)
}

/// A root of f near `guess` in [lo, hi]: secant steps from the guess, else a sign change
/// searched outward from it and narrowed by bisection.
fn solve<E: Env>(f: &mut Func<E>, guess: Real, lo: Real, hi: Real) -> Result<Real, ErrorKind> {
    let (lo, hi) = (lo.to_f64(), hi.to_f64());
    let in_bounds = |x: f64| x.clamp(lo, hi);
    let mut x0 = guess.to_f64();
    let mut f0 = f.at_f64(x0)?;
    if f0 == 0.0 {
        return Ok(guess);
    }
    let h = (x0.abs() * 1e-3).max(1e-3);
    let mut x1 = in_bounds(x0 + h);
    let mut f1 = f.at_f64(x1)?;
    // Secant iterations.
    for _ in 0..60 {
        if f1 == 0.0 {
            return Real::from_f64(x1).map_err(math);
        }
        if f0.signum() != f1.signum() {
            return bisect(f, x0, f0, x1, f1);
        }
        if f1 == f0 {
            break;
        }
        let x2 = in_bounds(x1 - f1 * (x1 - x0) / (f1 - f0));
        if !x2.is_finite() || x2 == x1 {
            break;
        }
        (x0, f0) = (x1, f1);
        x1 = x2;
        f1 = f.at_f64(x1)?;
    }
    if f1.abs() <= 1e-12 {
        return Real::from_f64(x1).map_err(math);
    }
    // Outward search for a sign change around the guess.
    let g = guess.to_f64();
    let fg = f.at_f64(g)?;
    let mut step = h;
    for _ in 0..120 {
        for x in [in_bounds(g - step), in_bounds(g + step)] {
            let fx = f.at_f64(x)?;
            if fx == 0.0 {
                return Real::from_f64(x).map_err(math);
            }
            if fx.signum() != fg.signum() {
                return bisect(f, g, fg, x, fx);
            }
        }
        step *= 2.0;
        if g - step < lo && g + step > hi {
            break;
        }
    }
    Err(ErrorKind::NoSignChange)
}

fn bisect<E: Env>(
    f: &mut Func<E>,
    mut a: f64,
    mut fa: f64,
    mut b: f64,
    _fb: f64,
) -> Result<Real, ErrorKind> {
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m == a || m == b || (b - a).abs() <= 1e-14 * m.abs().max(1e-300) {
            break;
        }
        let fm = f.at_f64(m)?;
        if fm == 0.0 {
            return Real::from_f64(m).map_err(math);
        }
        if fm.signum() == fa.signum() {
            (a, fa) = (m, fm);
        } else {
            b = m;
        }
    }
    Real::from_f64(0.5 * (a + b)).map_err(math)
}
