//! A sparse square matrix, possibly non-symmetric or indefinite, with a
//! fixed pattern whose values change: symbolic LU (COLAMD column ordering,
//! elimination structure) once, numeric LU with partial (row) pivoting as
//! often as needed (faer's `SymbolicLu` / `factorize_numeric_lu`), and
//! solves with the last factors. This is the factorization for Jacobians
//! that are not symmetric positive definite: a damping or stiffness matrix
//! without symmetry, friction, Signorini KKT systems.
//!
//! The pattern is the full matrix (both triangles), CSC with sorted rows.
//! Unlike [`crate::sparse::llt::SparseLlt`], the numeric factorization may
//! allocate (the row pivoting decides the fill); the symbolic analysis is
//! still done once.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::lu::{self, LuRef, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par};

use crate::sparse::pattern::{SparseError, validate_csc};

/// A square sparse matrix with its symbolic and numeric LU factors.
pub struct SparseLu {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    values: Vec<f64>,
    symbolic: SymbolicLu<usize>,
    numeric: NumericLu<usize, f64>,
    factor_buffer: MemBuffer,
    solve_buffer: MemBuffer,
    factorizations: usize,
    factored: bool,
}

impl SparseLu {
    /// Builds the symbolic factorization of the pattern given by `col_ptr` /
    /// `row_idx` (CSC, both triangles, rows sorted within each column, every
    /// diagonal entry present). Values start at zero.
    pub fn new(n: usize, col_ptr: Vec<usize>, row_idx: Vec<usize>) -> Result<Self, SparseError> {
        validate_csc(n, &col_ptr, &row_idx)?;
        if let Some(j) = (0..n).find(|&j| {
            row_idx[col_ptr[j]..col_ptr[j + 1]]
                .binary_search(&j)
                .is_err()
        }) {
            return Err(SparseError::Pattern(format!(
                "column {j} has no diagonal entry"
            )));
        }
        let sym = SymbolicSparseColMatRef::new_checked(n, n, &col_ptr, None, &row_idx);
        let symbolic = lu::factorize_symbolic_lu(sym, Default::default())
            .map_err(|e| SparseError::Symbolic(format!("{e:?}")))?;
        let factor_req = symbolic.factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default());
        let solve_req = symbolic.solve_in_place_scratch::<f64>(1, Par::Seq);
        let nnz = row_idx.len();
        Ok(Self {
            n,
            col_ptr,
            row_idx,
            values: vec![0.0; nnz],
            symbolic,
            numeric: NumericLu::new(),
            factor_buffer: MemBuffer::new(factor_req),
            solve_buffer: MemBuffer::new(solve_req),
            factorizations: 0,
            factored: false,
        })
    }

    /// Dimension n.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Stored nonzeros.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Numeric factorizations done so far.
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// The stored values; write them at the positions given by
    /// [`SparseLu::position`], then call [`SparseLu::factorize`].
    pub fn values_mut(&mut self) -> &mut [f64] {
        self.factored = false;
        &mut self.values
    }

    /// Position of entry (i, j) in [`SparseLu::values_mut`].
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        let (lo, hi) = (self.col_ptr[j], self.col_ptr[j + 1]);
        self.row_idx[lo..hi].binary_search(&i).ok().map(|k| lo + k)
    }

    /// Numeric LU of the current values. faer's LU does not report an exact
    /// zero pivot: a singular matrix shows as a non-finite solution, which
    /// [`SparseLu::solve_in_place`] reports.
    pub fn factorize(&mut self) -> Result<(), SparseError> {
        if self.values.iter().any(|v| !v.is_finite()) {
            self.factored = false;
            return Err(SparseError::Singular);
        }
        // SAFETY: the pattern was validated by `new_checked` in `new` and is
        // never modified afterwards (only the values change).
        let sym = unsafe {
            SymbolicSparseColMatRef::new_unchecked(
                self.n,
                self.n,
                &self.col_ptr,
                None,
                &self.row_idx,
            )
        };
        let a = SparseColMatRef::new(sym, &self.values);
        let stack = MemStack::new(&mut self.factor_buffer);
        self.factorizations += 1;
        let result = self.symbolic.factorize_numeric_lu(
            &mut self.numeric,
            a,
            Par::Seq,
            stack,
            Default::default(),
        );
        self.factored = result.is_ok();
        result.map(|_| ()).map_err(|_| SparseError::Singular)
    }

    /// Solves A x = rhs in place with the last factorization; a non-finite
    /// solution (a zero pivot: the matrix is singular) is an error.
    ///
    /// Panics if called before a successful [`SparseLu::factorize`] or with
    /// a right-hand side of the wrong length: both are programming errors.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), SparseError> {
        assert!(
            self.factored,
            "solve_in_place before a successful factorize"
        );
        assert_eq!(rhs.len(), self.n, "right-hand side length");
        let lu = LuRef::new_unchecked(&self.symbolic, &self.numeric);
        let stack = MemStack::new(&mut self.solve_buffer);
        let x = MatMut::from_column_major_slice_mut(rhs, self.n, 1);
        lu.solve_in_place_with_conj(Conj::No, x, Par::Seq, stack);
        if rhs.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(SparseError::Singular)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A non-symmetric tridiagonal with a dense last row: solves against a
    /// dense reference, refactored with new values.
    #[test]
    fn non_symmetric_matrix_matches_a_dense_solve() {
        let n = 40;
        let mut cols: Vec<Vec<usize>> = (0..n).map(|j| vec![j]).collect();
        for j in 0..n {
            if j + 1 < n {
                cols[j].push(j + 1);
                cols[j + 1].push(j);
            }
            cols[j].push(n - 1);
        }
        let (col_ptr, row_idx) = crate::sparse::csc_from_columns(cols);
        let mut lu = SparseLu::new(n, col_ptr, row_idx).expect("pattern");
        for scale in [1.0, -3.0] {
            let mut dense = nalgebra::DMatrix::<f64>::zeros(n, n);
            let mut set = |lu: &mut SparseLu, i: usize, j: usize, v: f64| {
                let p = lu.position(i, j).expect("in pattern");
                lu.values_mut()[p] = v;
                dense[(i, j)] = v;
            };
            for j in 0..n {
                set(&mut lu, j, j, scale * (4.0 + j as f64 * 0.1));
                if j + 1 < n {
                    set(&mut lu, j + 1, j, -1.5);
                    set(&mut lu, j, j + 1, 0.5);
                }
                if j + 1 < n {
                    set(&mut lu, n - 1, j, 0.01 * j as f64);
                }
            }
            lu.factorize().expect("regular");
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
            let mut x = b.clone();
            lu.solve_in_place(&mut x).expect("regular");
            let reference = dense
                .lu()
                .solve(&nalgebra::DVector::from_column_slice(&b))
                .expect("regular");
            for i in 0..n {
                assert!(
                    (x[i] - reference[i]).abs() < 1e-12,
                    "{i}: {} vs {}",
                    x[i],
                    reference[i]
                );
            }
        }
        assert_eq!(lu.factorizations(), 2);
    }

    #[test]
    fn singular_and_malformed_inputs_are_reported() {
        let mut lu = SparseLu::new(2, vec![0, 2, 4], vec![0, 1, 0, 1]).expect("pattern");
        lu.values_mut().copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        let factored = lu.factorize();
        let mut x = [1.0, 1.0];
        assert!(
            factored == Err(SparseError::Singular)
                || lu.solve_in_place(&mut x) == Err(SparseError::Singular),
            "a singular matrix is reported ({factored:?}, x = {x:?})"
        );
        lu.values_mut().copy_from_slice(&[1.0, f64::NAN, 2.0, 4.0]);
        assert_eq!(lu.factorize(), Err(SparseError::Singular));
        assert!(matches!(
            SparseLu::new(2, vec![0, 1, 2], vec![1, 0]),
            Err(SparseError::Pattern(_))
        ));
    }
}
