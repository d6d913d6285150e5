//! A table of function values (`DispTable`, the TABLE screen): X from TblMin in steps of
//! ΔTbl, six rows, and the values of the selected functions `Y₁`…`Y₀` (the first two shown
//! beside X [I]). Computed by the OS (`Os::table_data`), drawn by `shell::table`.

use ti82_machine::state::{StateError, StateReader, StateWriter};

use crate::interp::{get_real, put_real};
use crate::real::Real;

/// Rows shown at once.
pub const ROWS: usize = 6;
/// Function columns shown beside X.
pub const FUNCTION_COLUMNS: usize = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableData {
    /// The row index of the first row shown (row i is X = TblMin + i·ΔTbl).
    pub first: i64,
    /// The functions shown (`Yₙ` token second bytes).
    pub functions: Vec<u8>,
    /// X of each row shown.
    pub xs: Vec<Real>,
    /// Per row, each function's value (`None`: no value there, shown as `ERROR` [I]).
    pub ys: Vec<Vec<Option<Real>>>,
}

impl TableData {
    pub fn save(&self, w: &mut StateWriter) {
        w.u64(self.first as u64);
        w.bytes(&self.functions);
        w.u32(self.xs.len() as u32);
        for (x, ys) in self.xs.iter().zip(&self.ys) {
            put_real(w, *x);
            for y in ys {
                match y {
                    Some(y) => {
                        w.bool(true);
                        put_real(w, *y);
                    }
                    None => w.bool(false),
                }
            }
        }
    }

    pub fn load(r: &mut StateReader) -> Result<TableData, StateError> {
        let first = r.u64()? as i64;
        let functions = r.bytes()?.to_vec();
        let n = r.u32()? as usize;
        if functions.len() > FUNCTION_COLUMNS
            || functions.iter().any(|k| !(0x10..=0x19).contains(k))
            || n > ROWS
            || !(-1_000_000..=1_000_000).contains(&first)
        {
            return Err(StateError::Corrupt("table"));
        }
        let (mut xs, mut ys) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            xs.push(get_real(r)?);
            let mut row = Vec::with_capacity(functions.len());
            for _ in 0..functions.len() {
                row.push(if r.bool()? { Some(get_real(r)?) } else { None });
            }
            ys.push(row);
        }
        Ok(TableData {
            first,
            functions,
            xs,
            ys,
        })
    }
}
