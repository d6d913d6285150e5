//! Statistics: `1-Var Stats`, `2-Var Stats` and the regressions, in the calculator's own
//! 14-digit decimal arithmetic ([`Real`]), with frequency lists. The formulas are the
//! textbook ones the TI-82 Guidebook names (chapter 7, "Statistical variables"): the mean
//! `x̄ = Σx/n`, the sample deviation `Sx` (divisor n-1) and the population deviation `σx`
//! (divisor n), the median and the quartiles as the medians of the points below and above
//! the median (the median itself excluded when n is odd), least squares for the linear,
//! logarithmic, exponential, power and polynomial fits, and the median-median line. What is
//! decided where the TI-82's own choice is unknown is marked [I] in `docs/tibasic.md`.

use crate::eval::math;
use crate::real::{MathResult, Real};
use crate::value::ErrorKind;

/// A statistics variable: its token's second byte (after `62h`, spec's token table).
pub type StatVar = u8;

pub const N: StatVar = 0x02;
pub const MEAN_X: StatVar = 0x03;
pub const SUM_X: StatVar = 0x04;
pub const SUM_X2: StatVar = 0x05;
pub const SX: StatVar = 0x06;
pub const SIGMA_X: StatVar = 0x07;
pub const MIN_X: StatVar = 0x08;
pub const MAX_X: StatVar = 0x09;
pub const MIN_Y: StatVar = 0x0A;
pub const MAX_Y: StatVar = 0x0B;
pub const MEAN_Y: StatVar = 0x0C;
pub const SUM_Y: StatVar = 0x0D;
pub const SUM_Y2: StatVar = 0x0E;
pub const SY: StatVar = 0x0F;
pub const SIGMA_Y: StatVar = 0x10;
pub const SUM_XY: StatVar = 0x11;
pub const R: StatVar = 0x12;
pub const MED: StatVar = 0x13;
pub const Q1: StatVar = 0x14;
pub const Q3: StatVar = 0x15;
pub const A: StatVar = 0x16;
pub const B: StatVar = 0x17;
pub const C: StatVar = 0x18;
pub const D: StatVar = 0x19;
pub const E: StatVar = 0x1A;
pub const X1: StatVar = 0x1B;
pub const X2: StatVar = 0x1C;
pub const X3: StatVar = 0x1D;
pub const Y1: StatVar = 0x1E;
pub const Y2: StatVar = 0x1F;
pub const Y3: StatVar = 0x20;

/// The regression equation (`RegEQ`) as program text: the form with the coefficients
/// written in (`.5X+3`), in 14 digits.
pub fn equation_text(c: Calc, vars: &[(StatVar, Real)]) -> Option<String> {
    let v = |k| {
        vars.iter().find(|(x, _)| *x == k).map(|(_, r)| {
            crate::display::real_text(
                *r,
                crate::display::NumFormat {
                    notation: crate::display::Notation::Normal,
                    fix: None,
                },
            )
        })
    };
    let (a, b) = (v(A)?, v(B)?);
    Some(match c {
        Calc::LinAxB | Calc::MedMed => format!("{a}X+{b}"),
        Calc::LinABx => format!("{a}+{b}X"),
        Calc::Ln => format!("{a}+{b}ln X"),
        Calc::Exp => format!("{a}*{b}^X"),
        Calc::Pwr => format!("{a}*X^{b}"),
        Calc::Quad => format!("{a}X²+{b}X+{}", v(C)?),
        Calc::Cubic => format!("{a}X³+{b}X²+{}X+{}", v(C)?, v(D)?),
        Calc::Quart => format!("{a}X^4+{b}X³+{}X²+{}X+{}", v(C)?, v(D)?, v(E)?),
        Calc::OneVar | Calc::TwoVar => return None,
    })
}

/// A result: the title line, the equation's form line (regressions), and the variables set,
/// in the order the calculator lists them.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub title: &'static str,
    pub form: Option<&'static str>,
    pub vars: Vec<(StatVar, Real)>,
}

/// The commands, by token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calc {
    OneVar,
    TwoVar,
    MedMed,
    /// `LinReg(ax+b)`.
    LinAxB,
    /// `LinReg(a+bx)`.
    LinABx,
    Quad,
    Cubic,
    Quart,
    Ln,
    Exp,
    Pwr,
}

impl Calc {
    /// The command a token names (`F2`-`F9`, `FF`, `2E`, `2F`).
    pub fn of_token(t: u8) -> Option<Calc> {
        Some(match t {
            0xF2 => Calc::OneVar,
            0xF3 => Calc::TwoVar,
            0xF4 => Calc::LinABx,
            0xF5 => Calc::Exp,
            0xF6 => Calc::Ln,
            0xF7 => Calc::Pwr,
            0xF8 => Calc::MedMed,
            0xF9 => Calc::Quad,
            0x2E => Calc::Cubic,
            0x2F => Calc::Quart,
            0xFF => Calc::LinAxB,
            _ => return None,
        })
    }

    /// How many lists it takes besides the frequencies: one for 1-Var Stats, two else.
    pub fn lists(self) -> usize {
        if self == Calc::OneVar {
            1
        } else {
            2
        }
    }
}

fn m(r: MathResult) -> Result<Real, ErrorKind> {
    r.map_err(math)
}

fn int(n: usize) -> Real {
    Real::from_i64(n as i64)
}

/// The data: x (and y) values with their frequencies (whole numbers from 0; a point of
/// frequency 0 counts for nothing).
struct Data {
    x: Vec<Real>,
    y: Vec<Real>,
    f: Vec<Real>,
    n: Real,
}

fn data(x: Vec<Real>, y: Option<Vec<Real>>, f: Option<Vec<Real>>) -> Result<Data, ErrorKind> {
    let f = f.unwrap_or_else(|| vec![Real::ONE; x.len()]);
    if f.len() != x.len() || y.as_ref().is_some_and(|y| y.len() != x.len()) {
        return Err(ErrorKind::DimMismatch);
    }
    // Frequencies are counts [I]: a fraction or a negative one is a domain error.
    if f.iter().any(|v| v.is_negative() || !v.is_integer()) {
        return Err(ErrorKind::Domain);
    }
    let mut n = Real::ZERO;
    for v in &f {
        n = m(n.add(*v))?;
    }
    if n.is_zero() {
        return Err(ErrorKind::Stat);
    }
    Ok(Data {
        y: y.unwrap_or_default(),
        x,
        f,
        n,
    })
}

/// Σ f·g(i) over the points.
fn sum(d: &Data, g: impl Fn(usize) -> MathResult) -> Result<Real, ErrorKind> {
    let mut s = Real::ZERO;
    for i in 0..d.x.len() {
        if !d.f[i].is_zero() {
            s = m(s.add(m(d.f[i].mul(m(g(i))?))?))?;
        }
    }
    Ok(s)
}

/// Mean, Σ, Σ², sample and population deviations of one variable, and Σf·(v-mean)².
struct Moments {
    mean: Real,
    sum: Real,
    sum_sq: Real,
    dev2: Real,
}

fn moments(d: &Data, v: &[Real]) -> Result<Moments, ErrorKind> {
    let sum_v = sum(d, |i| Ok(v[i]))?;
    let sum_sq = sum(d, |i| v[i].mul(v[i]))?;
    let mean = m(sum_v.div(d.n))?;
    let dev2 = sum(d, |i| {
        let e = v[i].sub(mean)?;
        e.mul(e)
    })?;
    Ok(Moments {
        mean,
        sum: sum_v,
        sum_sq,
        dev2,
    })
}

/// `Sx` (n-1) and `σx` (n). With one point `Sx` is undefined: left out [I].
fn deviations(d: &Data, dev2: Real) -> Result<(Option<Real>, Real), ErrorKind> {
    let sigma = m(m(dev2.div(d.n))?.sqrt())?;
    let n1 = m(d.n.sub(Real::ONE))?;
    let s = if n1.is_zero() {
        None
    } else {
        Some(m(m(dev2.div(n1))?.sqrt())?)
    };
    Ok((s, sigma))
}

/// The values of `v` each repeated by its frequency, sorted (the frequencies are whole).
fn expanded(d: &Data, v: &[Real]) -> Result<Vec<Real>, ErrorKind> {
    let mut out = Vec::new();
    for (i, x) in v.iter().enumerate() {
        let k = d.f[i].to_i64_exact().ok_or(ErrorKind::Domain)?;
        // (A list holds at most 99 points; a count past what memory could hold is refused.)
        if k as usize > 99 * 99 * 99 || out.len() + k as usize > 1_000_000 {
            return Err(ErrorKind::Memory);
        }
        out.extend(std::iter::repeat_n(*x, k as usize));
    }
    out.sort();
    Ok(out)
}

fn median(sorted: &[Real]) -> Result<Real, ErrorKind> {
    let n = sorted.len();
    if n == 0 {
        return Err(ErrorKind::Stat);
    }
    if n % 2 == 1 {
        Ok(sorted[n / 2])
    } else {
        m(m(sorted[n / 2 - 1].add(sorted[n / 2]))?.div(int(2)))
    }
}

/// `1-Var Stats`: x̄ Σx Σx² Sx σx n minX Q1 Med Q3 maxX.
pub fn one_var(x: Vec<Real>, f: Option<Vec<Real>>) -> Result<Results, ErrorKind> {
    let d = data(x, None, f)?;
    let mo = moments(&d, &d.x)?;
    let (s, sigma) = deviations(&d, mo.dev2)?;
    let sorted = expanded(&d, &d.x)?;
    let k = sorted.len();
    let med = median(&sorted)?;
    // The quartiles: the medians of the halves below and above the median; with one point
    // both are that point [I].
    let (lo, hi) = if k == 1 {
        (&sorted[..], &sorted[..])
    } else {
        (&sorted[..k / 2], &sorted[k.div_ceil(2)..])
    };
    let mut vars = vec![(MEAN_X, mo.mean), (SUM_X, mo.sum), (SUM_X2, mo.sum_sq)];
    vars.extend(s.map(|s| (SX, s)));
    vars.extend([
        (SIGMA_X, sigma),
        (N, d.n),
        (MIN_X, sorted[0]),
        (Q1, median(lo)?),
        (MED, med),
        (Q3, median(hi)?),
        (MAX_X, sorted[k - 1]),
    ]);
    Ok(Results {
        title: "1-Var Stats",
        form: None,
        vars,
    })
}

/// `2-Var Stats`: x̄ Σx Σx² Sx σx n ȳ Σy Σy² Sy σy Σxy minX maxX minY maxY.
pub fn two_var(x: Vec<Real>, y: Vec<Real>, f: Option<Vec<Real>>) -> Result<Results, ErrorKind> {
    let d = data(x, Some(y), f)?;
    let mx = moments(&d, &d.x)?;
    let my = moments(&d, &d.y)?;
    let (sx, sigx) = deviations(&d, mx.dev2)?;
    let (sy, sigy) = deviations(&d, my.dev2)?;
    let sum_xy = sum(&d, |i| d.x[i].mul(d.y[i]))?;
    let counted = |v: &[Real]| -> Vec<Real> {
        v.iter()
            .zip(&d.f)
            .filter(|(_, f)| !f.is_zero())
            .map(|(v, _)| *v)
            .collect()
    };
    let (xs, ys) = (counted(&d.x), counted(&d.y));
    let min = |v: &[Real]| v.iter().copied().min().unwrap_or(Real::ZERO);
    let max = |v: &[Real]| v.iter().copied().max().unwrap_or(Real::ZERO);
    let mut vars = vec![(MEAN_X, mx.mean), (SUM_X, mx.sum), (SUM_X2, mx.sum_sq)];
    vars.extend(sx.map(|s| (SX, s)));
    vars.extend([
        (SIGMA_X, sigx),
        (N, d.n),
        (MEAN_Y, my.mean),
        (SUM_Y, my.sum),
    ]);
    vars.push((SUM_Y2, my.sum_sq));
    vars.extend(sy.map(|s| (SY, s)));
    vars.extend([
        (SIGMA_Y, sigy),
        (SUM_XY, sum_xy),
        (MIN_X, min(&xs)),
        (MAX_X, max(&xs)),
        (MIN_Y, min(&ys)),
        (MAX_Y, max(&ys)),
    ]);
    Ok(Results {
        title: "2-Var Stats",
        form: None,
        vars,
    })
}

/// Least squares line of `v` on `u`: (slope, intercept, r).
fn line(d: &Data, u: &[Real], v: &[Real]) -> Result<(Real, Real, Real), ErrorKind> {
    let mu = moments(d, u)?;
    let mv = moments(d, v)?;
    let suv = sum(d, |i| u[i].sub(mu.mean)?.mul(v[i].sub(mv.mean)?))?;
    // All x equal: no line [I] (ERR:STAT; the TI-82 may divide by zero instead).
    if mu.dev2.is_zero() {
        return Err(ErrorKind::Stat);
    }
    let slope = m(suv.div(mu.dev2))?;
    let intercept = m(mv.mean.sub(m(slope.mul(mu.mean))?))?;
    let r = if mv.dev2.is_zero() {
        Real::ZERO
    } else {
        m(suv.div(m(m(mu.dev2.mul(mv.dev2))?.sqrt())?))?
    };
    Ok((slope, intercept, r))
}

/// The values transformed by `g` (ln for the logarithmic, exponential and power fits),
/// ERR:DOMAIN where it is undefined.
fn mapped(v: &[Real], g: impl Fn(Real) -> MathResult) -> Result<Vec<Real>, ErrorKind> {
    v.iter().map(|&x| m(g(x))).collect()
}

/// A two-list statistic or regression (`Calc::OneVar` goes to [`one_var`]).
pub fn regression(
    c: Calc,
    x: Vec<Real>,
    y: Vec<Real>,
    f: Option<Vec<Real>>,
) -> Result<Results, ErrorKind> {
    let d = data(x, Some(y), f)?;
    let (title, form, vars) = match c {
        Calc::OneVar => return one_var(d.x, Some(d.f)),
        Calc::TwoVar => return two_var(d.x, d.y, Some(d.f)),
        Calc::LinAxB => {
            let (a, b, r) = line(&d, &d.x, &d.y)?;
            ("LinReg", "y=ax+b", vec![(A, a), (B, b), (R, r)])
        }
        Calc::LinABx => {
            let (b, a, r) = line(&d, &d.x, &d.y)?;
            ("LinReg", "y=a+bx", vec![(A, a), (B, b), (R, r)])
        }
        Calc::Ln => {
            let lx = mapped(&d.x, Real::ln)?;
            let (b, a, r) = line(&d, &lx, &d.y)?;
            ("LnReg", "y=a+blnx", vec![(A, a), (B, b), (R, r)])
        }
        Calc::Exp => {
            let ly = mapped(&d.y, Real::ln)?;
            let (lb, la, r) = line(&d, &d.x, &ly)?;
            let (a, b) = (m(la.exp())?, m(lb.exp())?);
            ("ExpReg", "y=ab^x", vec![(A, a), (B, b), (R, r)])
        }
        Calc::Pwr => {
            let lx = mapped(&d.x, Real::ln)?;
            let ly = mapped(&d.y, Real::ln)?;
            let (b, la, r) = line(&d, &lx, &ly)?;
            ("PwrReg", "y=ax^b", vec![(A, m(la.exp())?), (B, b), (R, r)])
        }
        Calc::Quad | Calc::Cubic | Calc::Quart => {
            let (deg, title, form) = match c {
                Calc::Quad => (2, "QuadReg", "y=ax²+bx+c"),
                Calc::Cubic => (3, "CubicReg", "y=ax³+…+d"),
                _ => (4, "QuartReg", "y=ax⁴+…+e"),
            };
            let coef = polynomial(&d, deg)?;
            let names = [A, B, C, D, E];
            (title, form, names.iter().copied().zip(coef).collect())
        }
        Calc::MedMed => {
            let (a, b, pts) = med_med(&d)?;
            let mut vars = vec![(A, a), (B, b)];
            vars.extend([
                (X1, pts[0].0),
                (Y1, pts[0].1),
                (X2, pts[1].0),
                (Y2, pts[1].1),
                (X3, pts[2].0),
                (Y3, pts[2].1),
            ]);
            ("Med-Med", "y=ax+b", vars)
        }
    };
    Ok(Results {
        title,
        form: Some(form),
        vars,
    })
}

/// Least squares polynomial of degree `deg`, the coefficients highest power first. The x
/// values are centred on their mean first (t = x - x̄), which keeps the normal equations
/// (Σ f t^(i+j)) c = Σ f t^i y well conditioned in 14 digits; they are solved by
/// Gauss-Jordan elimination with partial pivoting, and the polynomial in t is expanded back
/// into powers of x. Needs more distinct x than the degree (else ERR:STAT [I]).
fn polynomial(d: &Data, deg: usize) -> Result<Vec<Real>, ErrorKind> {
    let distinct = {
        let mut xs: Vec<Real> =
            d.x.iter()
                .zip(&d.f)
                .filter(|(_, f)| !f.is_zero())
                .map(|(x, _)| *x)
                .collect();
        xs.sort();
        xs.dedup();
        xs.len()
    };
    if distinct <= deg {
        return Err(ErrorKind::Stat);
    }
    let k = deg + 1;
    let mean = moments(d, &d.x)?.mean;
    let t: Vec<Real> =
        d.x.iter()
            .map(|x| m(x.sub(mean)))
            .collect::<Result<_, _>>()?;
    // Power sums Σ f t^p for p = 0..2deg, and Σ f t^p y for p = 0..deg.
    let mut pt = Vec::with_capacity(2 * deg + 1);
    for p in 0..=2 * deg {
        pt.push(sum(d, |i| pow_int(t[i], p))?);
    }
    let mut pty = Vec::with_capacity(k);
    for p in 0..k {
        pty.push(sum(d, |i| pow_int(t[i], p)?.mul(d.y[i]))?);
    }
    // Row r and column c stand for the powers r and c of t.
    let mut a: Vec<Vec<Real>> = (0..k)
        .map(|r| {
            let mut row: Vec<Real> = (0..k).map(|c| pt[r + c]).collect();
            row.push(pty[r]);
            row
        })
        .collect();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&i, &j| a[i][col].abs().cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        if a[col][col].is_zero() {
            return Err(ErrorKind::Stat);
        }
        for row in 0..k {
            if row == col {
                continue;
            }
            let factor = m(a[row][col].div(a[col][col]))?;
            if factor.is_zero() {
                continue;
            }
            let pivot_row = a[col].clone();
            for (cell, p) in a[row].iter_mut().zip(&pivot_row).skip(col) {
                *cell = m(cell.sub(m(factor.mul(*p))?))?;
            }
        }
    }
    // c[j]: the coefficient of t^j.
    let c: Vec<Real> = (0..k)
        .map(|r| m(a[r][k].div(a[r][r])))
        .collect::<Result<_, _>>()?;
    // t^j = Σ_i C(j,i) x^i (-x̄)^(j-i).
    let mut x_coef = vec![Real::ZERO; k];
    let neg_mean = mean.neg();
    for (j, cj) in c.iter().enumerate() {
        let mut binom = Real::ONE;
        for i in (0..=j).rev() {
            // C(j, i) for i = j, j-1, ..., 0.
            if i < j {
                binom = m(m(binom.mul(int(i + 1)))?.div(int(j - i)))?;
            }
            let term = m(m(cj.mul(binom))?.mul(m(pow_int(neg_mean, j - i))?))?;
            x_coef[i] = m(x_coef[i].add(term))?;
        }
    }
    x_coef.reverse();
    Ok(x_coef)
}

fn pow_int(x: Real, p: usize) -> MathResult {
    let mut r = Real::ONE;
    for _ in 0..p {
        r = r.mul(x)?;
    }
    Ok(r)
}

/// A summary point (x, y).
type Point = (Real, Real);

/// The median-median line: the points sorted by x (then y) and cut in three groups (sizes
/// k k k, k k+1 k, or k+1 k k+1 for n = 3k, 3k+1, 3k+2), each summarised by the median of
/// its x and the median of its y; the slope from the outer two summary points, and the
/// intercept the mean of the three intercepts through the summary points with that slope.
/// Needs three points at least (ERR:STAT [I]).
fn med_med(d: &Data) -> Result<(Real, Real, [Point; 3]), ErrorKind> {
    let mut pts = Vec::new();
    for i in 0..d.x.len() {
        let k = d.f[i].to_i64_exact().ok_or(ErrorKind::Domain)? as usize;
        if pts.len() + k > 1_000_000 {
            return Err(ErrorKind::Memory);
        }
        pts.extend(std::iter::repeat_n((d.x[i], d.y[i]), k));
    }
    let n = pts.len();
    if n < 3 {
        return Err(ErrorKind::Stat);
    }
    pts.sort();
    let k = n / 3;
    let (s1, s2) = match n % 3 {
        0 => (k, k),
        1 => (k, k + 1),
        _ => (k + 1, k),
    };
    let groups = [&pts[..s1], &pts[s1..s1 + s2], &pts[s1 + s2..]];
    let mut summary = [(Real::ZERO, Real::ZERO); 3];
    for (g, s) in groups.iter().zip(summary.iter_mut()) {
        let mut xs: Vec<Real> = g.iter().map(|p| p.0).collect();
        let mut ys: Vec<Real> = g.iter().map(|p| p.1).collect();
        xs.sort();
        ys.sort();
        *s = (median(&xs)?, median(&ys)?);
    }
    let [(x1, y1), (x2, y2), (x3, y3)] = summary;
    let run = m(x3.sub(x1))?;
    if run.is_zero() {
        return Err(ErrorKind::Stat);
    }
    let slope = m(m(y3.sub(y1))?.div(run))?;
    let sy = m(m(y1.add(y2))?.add(y3))?;
    let sx = m(m(x1.add(x2))?.add(x3))?;
    let intercept = m(m(sy.sub(m(slope.mul(sx))?))?.div(int(3)))?;
    Ok((slope, intercept, summary))
}

/// STAT › CALC › `SetUp…`: the lists `1-Var Stats`, `2-Var Stats` and the regressions use
/// when a program or entry names none (the TI-82 Guidebook, chapter 7). Lists are 0-5 for
/// L₁-L₆; a frequency of 0 is `1` (every point once), 1-6 is L₁-L₆.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatSetup {
    /// 1-Var Stats: Xlist, Freq.
    pub one: [u8; 2],
    /// 2-Var Stats and the regressions: Xlist, Ylist, Freq.
    pub two: [u8; 3],
}

impl Default for StatSetup {
    /// L₁ for one variable; L₁ and L₂ for two; no frequency list.
    fn default() -> Self {
        StatSetup {
            one: [0, 0],
            two: [0, 1, 0],
        }
    }
}

impl StatSetup {
    /// The setting behind line `line` of the SetUp screen (0 Xlist, 1 Freq of 1-Var Stats;
    /// 2 Xlist, 3 Ylist, 4 Freq of 2-Var Stats).
    pub fn slot(&mut self, line: usize) -> &mut u8 {
        match line {
            0 => &mut self.one[0],
            1 => &mut self.one[1],
            2 => &mut self.two[0],
            3 => &mut self.two[1],
            _ => &mut self.two[2],
        }
    }

    /// Whether line `line` chooses a frequency (`1` or a list) rather than a list.
    pub fn is_freq(line: usize) -> bool {
        line == 1 || line == 4
    }

    /// Every setting in range.
    pub fn valid(&self) -> bool {
        self.one[0] < 6 && self.one[1] < 7 && self.two[0] < 6 && self.two[1] < 6 && self.two[2] < 7
    }
}

/// A statistics command's results as the home screen shows them: the title on the top row,
/// then one line a result, six at a time, scrolled with ▲ ▼ (a `↓` in the first column of
/// the last row says more follow, a `↑` on the first row that some went by) [I].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultsView {
    pub title: Vec<u8>,
    /// Each result line's characters, without the first column (where the arrows go).
    pub lines: Vec<Vec<u8>>,
    /// The first line shown.
    pub top: usize,
}

impl ResultsView {
    /// Result lines shown at once: the title and these leave the last row for the cursor.
    pub const ROWS: usize = 6;

    /// The screen rows: the title, then the shown lines with their arrows.
    pub fn rows(&self) -> Vec<Vec<u8>> {
        let mut rows = vec![self.title.clone()];
        let shown = self.lines.iter().skip(self.top).take(Self::ROWS);
        let last = shown.len().saturating_sub(1);
        for (i, l) in shown.enumerate() {
            let mark = if i == 0 && self.top > 0 {
                crate::font::encode("↑")
                    .ok()
                    .and_then(|c| c.first().copied())
            } else if i == last && self.top + Self::ROWS < self.lines.len() {
                crate::font::encode("↓")
                    .ok()
                    .and_then(|c| c.first().copied())
            } else {
                None
            };
            let mut row = vec![mark.unwrap_or(b' ')];
            row.extend_from_slice(l);
            rows.push(row);
        }
        rows
    }

    /// ▼ (`down`) or ▲: one line on or back, if there is one; whether it moved.
    pub fn scroll(&mut self, down: bool) -> bool {
        if down && self.top + Self::ROWS < self.lines.len() {
            self.top += 1;
            true
        } else if !down && self.top > 0 {
            self.top -= 1;
            true
        } else {
            false
        }
    }
}
