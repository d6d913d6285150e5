//! Matrix operations beyond the element-wise ones in `eval`: inverse, powers, the row
//! operations, `randM(`, `augment(` of matrices, `Fill(` of a matrix.
//!
//! Sources: TI-82 Guidebook, MATRX MATH menu (the TI-83 Guidebook's chapter 10 has the same
//! commands): `rowSwap(matrix,rowA,rowB)` swaps two rows; `row+(matrix,rowA,rowB)` adds rowA to
//! rowB; `*row(value,matrix,row)` multiplies a row by value; `*row+(value,matrix,rowA,rowB)`
//! adds value·rowA to rowB; `randM(rows,cols)` has random integers from −9 to 9;
//! `augment(A,B)` puts B's columns after A's (same number of rows, else ERR:DIM MISMATCH);
//! `[A]⁻¹` of a singular matrix is ERR:SINGULAR MAT and of a non-square one ERR:INVALID DIM;
//! `[A]^n` needs a square matrix and an integer power from 0 to 255 ([A]^0 is the identity).
//! The TI-82 has no `rref(`/`ref(` (they are not in its token table).

use crate::eval::{int_arg, math};
use crate::real::Real;
use crate::value::{ErrorKind, Matrix, MAX_DIM};

fn at(m: &Matrix, r: usize, c: usize) -> Real {
    m.data[r * m.cols + c]
}

pub fn identity(n: usize) -> Matrix {
    let mut data = vec![Real::ZERO; n * n];
    for i in 0..n {
        data[i * n + i] = Real::ONE;
    }
    Matrix {
        rows: n,
        cols: n,
        data,
    }
}

pub fn mul(a: &Matrix, b: &Matrix) -> Result<Matrix, ErrorKind> {
    if a.cols != b.rows {
        return Err(ErrorKind::DimMismatch);
    }
    let mut data = Vec::with_capacity(a.rows * b.cols);
    for r in 0..a.rows {
        for c in 0..b.cols {
            let mut acc = Real::ZERO;
            for k in 0..a.cols {
                let p = at(a, r, k).mul(at(b, k, c)).map_err(math)?;
                acc = acc.add(p).map_err(math)?;
            }
            data.push(acc);
        }
    }
    Ok(Matrix {
        rows: a.rows,
        cols: b.cols,
        data,
    })
}

/// Partial pivoting: the row at or below `col` whose entry in column `col` of the `n`×`n`
/// matrix `a` (row-major) is largest in magnitude.
pub(crate) fn pivot_row(a: &[Real], n: usize, col: usize) -> usize {
    (col..n)
        .max_by(|&i, &j| a[i * n + col].abs().cmp(&a[j * n + col].abs()))
        .unwrap_or(col)
}

/// `[A]⁻¹` by Gauss-Jordan elimination with partial pivoting in the 14-digit arithmetic.
pub fn inverse(m: &Matrix) -> Result<Matrix, ErrorKind> {
    if m.rows != m.cols {
        return Err(ErrorKind::InvalidDim);
    }
    let n = m.rows;
    let mut a = m.data.clone();
    let mut inv = identity(n).data;
    for col in 0..n {
        let pivot = pivot_row(&a, n, col);
        if a[pivot * n + col].is_zero() {
            return Err(ErrorKind::SingularMat);
        }
        if pivot != col {
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
                inv.swap(col * n + k, pivot * n + k);
            }
        }
        let p = a[col * n + col];
        for k in 0..n {
            a[col * n + k] = a[col * n + k].div(p).map_err(math)?;
            inv[col * n + k] = inv[col * n + k].div(p).map_err(math)?;
        }
        for row in 0..n {
            if row == col {
                continue;
            }
            let f = a[row * n + col];
            if f.is_zero() {
                continue;
            }
            for k in 0..n {
                let d = f.mul(a[col * n + k]).map_err(math)?;
                a[row * n + k] = a[row * n + k].sub(d).map_err(math)?;
                let d = f.mul(inv[col * n + k]).map_err(math)?;
                inv[row * n + k] = inv[row * n + k].sub(d).map_err(math)?;
            }
        }
    }
    Ok(Matrix {
        rows: n,
        cols: n,
        data: inv,
    })
}

/// `[A]^n`, n an integer 0–255, by repeated squaring.
pub fn power(m: &Matrix, n: Real) -> Result<Matrix, ErrorKind> {
    if m.rows != m.cols {
        return Err(ErrorKind::InvalidDim);
    }
    let mut n = int_arg(n, 0, 255)?;
    let mut result = identity(m.rows);
    let mut base = m.clone();
    while n > 0 {
        if n & 1 == 1 {
            result = mul(&result, &base)?;
        }
        n >>= 1;
        if n > 0 {
            base = mul(&base, &base)?;
        }
    }
    Ok(result)
}

fn row_index(m: &Matrix, r: Real) -> Result<usize, ErrorKind> {
    Ok(int_arg(r, 1, m.rows as i64).map_err(|_| ErrorKind::InvalidDim)? as usize - 1)
}

/// `rowSwap(`.
pub fn row_swap(mut m: Matrix, a: Real, b: Real) -> Result<Matrix, ErrorKind> {
    let (a, b) = (row_index(&m, a)?, row_index(&m, b)?);
    for c in 0..m.cols {
        m.data.swap(a * m.cols + c, b * m.cols + c);
    }
    Ok(m)
}

/// `*row+(value,…)` (and `row+(` with value 1): row b += value·row a.
pub fn row_add(mut m: Matrix, value: Real, a: Real, b: Real) -> Result<Matrix, ErrorKind> {
    let (a, b) = (row_index(&m, a)?, row_index(&m, b)?);
    for c in 0..m.cols {
        let d = value.mul(m.data[a * m.cols + c]).map_err(math)?;
        m.data[b * m.cols + c] = m.data[b * m.cols + c].add(d).map_err(math)?;
    }
    Ok(m)
}

/// `*row(`: row r ×= value.
pub fn row_mul(mut m: Matrix, value: Real, r: Real) -> Result<Matrix, ErrorKind> {
    let r = row_index(&m, r)?;
    for c in 0..m.cols {
        m.data[r * m.cols + c] = value.mul(m.data[r * m.cols + c]).map_err(math)?;
    }
    Ok(m)
}

/// `augment(A,B)` of two matrices.
pub fn augment(a: &Matrix, b: &Matrix) -> Result<Matrix, ErrorKind> {
    if a.rows != b.rows {
        return Err(ErrorKind::DimMismatch);
    }
    if a.cols + b.cols > MAX_DIM {
        return Err(ErrorKind::InvalidDim);
    }
    let cols = a.cols + b.cols;
    let mut data = Vec::with_capacity(a.rows * cols);
    for r in 0..a.rows {
        data.extend_from_slice(&a.data[r * a.cols..(r + 1) * a.cols]);
        data.extend_from_slice(&b.data[r * b.cols..(r + 1) * b.cols]);
    }
    Ok(Matrix {
        rows: a.rows,
        cols,
        data,
    })
}

/// The dimensions of `randM(rows,cols)` (1–99 each, else ERR:INVALID DIM).
pub fn dims(rows: Real, cols: Real) -> Result<(usize, usize), ErrorKind> {
    let r = int_arg(rows, 1, MAX_DIM as i64).map_err(|_| ErrorKind::InvalidDim)?;
    let c = int_arg(cols, 1, MAX_DIM as i64).map_err(|_| ErrorKind::InvalidDim)?;
    Ok((r as usize, c as usize))
}

/// One `randM(` element from a `rand` number u in (0,1): an integer from −9 to 9,
/// iPart(19u) − 9. [U: how the TI-82 maps rand to −9…9 is not documented; this mapping gives
/// every value the same chance.]
pub fn rand_element(u: Real) -> Real {
    let v = u
        .mul(Real::from_i64(19))
        .map(|x| x.ipart())
        .unwrap_or(Real::ZERO);
    v.sub(Real::from_i64(9)).unwrap_or(Real::ZERO)
}
