//! A sparse symmetric positive definite matrix with a fixed pattern whose
//! values change: symbolic Cholesky (AMD ordering, elimination tree) once,
//! numeric LL^T refactorization in place as often as needed (faer), with
//! every workspace allocated up front. This is the split faer makes between
//! `SymbolicCholesky` and the numeric factorization; here it is wrapped so
//! that a time integrator writes values into the pattern and refactors
//! without allocating. The values are stored already permuted to the
//! fill-reducing (AMD) order, so that a refactorization does not permute
//! the matrix again (faer would, at every call, given the original order).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::cholesky::{self, SymbolicCholesky};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par, Side};

pub use super::pattern::SparseError;
use super::pattern::validate_csc;

/// An SPD matrix given by its lower-triangle pattern, its symbolic and
/// numeric Cholesky factors, and reusable workspaces.
pub struct SparseLlt {
    n: usize,
    /// Upper triangle of P A P^T (CSC): the stored, permuted pattern.
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    values: Vec<f64>,
    /// fwd[k] = original index of permuted index k; inv = its inverse.
    fwd: Vec<usize>,
    inv: Vec<usize>,
    scratch: Vec<f64>,
    symbolic: SymbolicCholesky<usize>,
    l_values: Vec<f64>,
    factor_buffer: MemBuffer,
    solve_buffer: MemBuffer,
    factorizations: usize,
    factored: bool,
}

impl SparseLlt {
    /// Builds the symbolic factorization of the lower-triangle pattern given
    /// by `col_ptr` / `row_idx` (CSC, rows sorted within each column, every
    /// diagonal entry present). Values start at zero.
    pub fn new(n: usize, col_ptr: Vec<usize>, row_idx: Vec<usize>) -> Result<Self, SparseError> {
        validate_csc(n, &col_ptr, &row_idx)?;
        if let Some(j) = (0..n).find(|&j| row_idx[col_ptr[j]..col_ptr[j + 1]].first() != Some(&j)) {
            return Err(SparseError::Pattern(format!(
                "column {j} does not start with its diagonal entry"
            )));
        }
        // Fill-reducing order of the original pattern, then the permuted
        // pattern, factored symbolically without further reordering.
        let sym = SymbolicSparseColMatRef::new_checked(n, n, &col_ptr, None, &row_idx);
        let ordering = cholesky::factorize_symbolic_cholesky(
            sym,
            Side::Lower,
            Default::default(),
            Default::default(),
        )
        .map_err(|e| SparseError::Symbolic(format!("{e:?}")))?;
        let (fwd, inv): (Vec<usize>, Vec<usize>) = match ordering.perm() {
            Some(p) => {
                let (f, i) = p.arrays();
                (f.to_vec(), i.to_vec())
            }
            None => ((0..n).collect(), (0..n).collect()),
        };
        let mut cols: Vec<Vec<usize>> = vec![Vec::new(); n];
        for j in 0..n {
            for &i in &row_idx[col_ptr[j]..col_ptr[j + 1]] {
                // Upper triangle of P A P^T: faer's symbolic factorization
                // without reordering reads the upper triangle.
                let (p, q) = (inv[i], inv[j]);
                cols[p.max(q)].push(p.min(q));
            }
        }
        let mut perm_ptr = vec![0];
        let mut perm_idx = Vec::with_capacity(row_idx.len());
        for c in &mut cols {
            c.sort_unstable();
            perm_idx.extend_from_slice(c);
            perm_ptr.push(perm_idx.len());
        }
        let sym = SymbolicSparseColMatRef::new_checked(n, n, &perm_ptr, None, &perm_idx);
        let params = cholesky::CholeskySymbolicParams::default();
        let symbolic = cholesky::factorize_symbolic_cholesky(
            sym,
            Side::Upper,
            cholesky::SymmetricOrdering::Identity,
            params,
        )
        .map_err(|e| SparseError::Symbolic(format!("{e:?}")))?;
        let l_values = vec![0.0; symbolic.len_val()];
        let factor_req =
            symbolic.factorize_numeric_llt_scratch::<f64>(Par::Seq, Default::default());
        let solve_req = symbolic.solve_in_place_scratch::<f64>(1, Par::Seq);
        let nnz = perm_idx.len();
        Ok(Self {
            n,
            col_ptr: perm_ptr,
            row_idx: perm_idx,
            values: vec![0.0; nnz],
            fwd,
            inv,
            scratch: vec![0.0; n],
            symbolic,
            l_values,
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

    /// Nonzeros of the stored lower triangle.
    pub fn nnz(&self) -> usize {
        self.row_idx.len()
    }

    /// Nonzeros of the Cholesky factor L.
    pub fn factor_nnz(&self) -> usize {
        self.l_values.len()
    }

    /// Numeric factorizations done so far.
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// The stored values (upper triangle of the permuted matrix); write them
    /// at the positions given by [`SparseLlt::position`], then call
    /// [`SparseLlt::factorize`].
    pub fn values_mut(&mut self) -> &mut [f64] {
        self.factored = false;
        &mut self.values
    }

    /// The values of the lower triangle.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Position of entry (i, j) of the original matrix (either triangle;
    /// (i, j) and (j, i) share one stored value) in [`SparseLlt::values_mut`].
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        let (p, q) = (self.inv[i], self.inv[j]);
        let (row, col) = (p.min(q), p.max(q));
        let (lo, hi) = (self.col_ptr[col], self.col_ptr[col + 1]);
        self.row_idx[lo..hi]
            .binary_search(&row)
            .ok()
            .map(|k| lo + k)
    }

    /// Numeric LL^T of the current values (no allocation).
    pub fn factorize(&mut self) -> Result<(), SparseError> {
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
        let result = self.symbolic.factorize_numeric_llt::<f64>(
            &mut self.l_values,
            a,
            Side::Upper,
            Default::default(),
            Par::Seq,
            stack,
            Default::default(),
        );
        self.factored = result.is_ok();
        result
            .map(|_| ())
            .map_err(|_| SparseError::NotPositiveDefinite)
    }

    /// Solves A x = rhs in place with the last factorization.
    ///
    /// Panics if called before a successful [`SparseLlt::factorize`] or with
    /// a right-hand side of the wrong length: both are programming errors.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) {
        assert!(
            self.factored,
            "solve_in_place before a successful factorize"
        );
        assert_eq!(rhs.len(), self.n, "right-hand side length");
        for (k, &old) in self.fwd.iter().enumerate() {
            self.scratch[k] = rhs[old];
        }
        let llt = cholesky::LltRef::<'_, usize, f64>::new(&self.symbolic, &self.l_values);
        let stack = MemStack::new(&mut self.solve_buffer);
        let permuted = MatMut::from_column_major_slice_mut(&mut self.scratch, self.n, 1);
        llt.solve_in_place_with_conj(Conj::No, permuted, Par::Seq, stack);
        for (k, &old) in self.fwd.iter().enumerate() {
            rhs[old] = self.scratch[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tridiagonal 2, -1 (+ shift): solve against a dense reference.
    #[test]
    fn tridiagonal_solves_and_refactors_in_place() {
        let n = 50;
        let mut col_ptr = vec![0];
        let mut row_idx = Vec::new();
        for j in 0..n {
            row_idx.push(j);
            if j + 1 < n {
                row_idx.push(j + 1);
            }
            col_ptr.push(row_idx.len());
        }
        let mut llt = SparseLlt::new(n, col_ptr, row_idx).expect("pattern");
        for shift in [0.1, 1.0, 10.0] {
            for j in 0..n {
                let d = llt.position(j, j).expect("diag");
                llt.values_mut()[d] = 2.0 + shift;
                if j + 1 < n {
                    let o = llt.position(j + 1, j).expect("off");
                    llt.values_mut()[o] = -1.0;
                }
            }
            llt.factorize().expect("SPD");
            let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
            let mut x = b.clone();
            llt.solve_in_place(&mut x);
            // residual of the tridiagonal system
            for i in 0..n {
                let mut ax = (2.0 + shift) * x[i];
                if i > 0 {
                    ax -= x[i - 1];
                }
                if i + 1 < n {
                    ax -= x[i + 1];
                }
                assert!(
                    (ax - b[i]).abs() < 1e-12,
                    "shift {shift} row {i}: {ax} vs {}",
                    b[i]
                );
            }
        }
        assert_eq!(llt.factorizations(), 3);
    }

    /// An arrow matrix (dense first row and column): AMD reorders it, the
    /// solution must not notice.
    #[test]
    fn arrow_matrix_matches_a_dense_solve() {
        let n = 30;
        let mut col_ptr = vec![0];
        let mut row_idx = Vec::new();
        for j in 0..n {
            if j == 0 {
                row_idx.extend(0..n);
            } else {
                row_idx.push(j);
            }
            col_ptr.push(row_idx.len());
        }
        let mut llt = SparseLlt::new(n, col_ptr, row_idx).expect("pattern");
        let mut dense = nalgebra::DMatrix::<f64>::zeros(n, n);
        for i in 0..n {
            let d = llt.position(i, i).expect("diag");
            llt.values_mut()[d] = n as f64 + 1.0 + i as f64;
            dense[(i, i)] = n as f64 + 1.0 + i as f64;
            if i > 0 {
                let p = llt.position(i, 0).expect("arrow");
                assert_eq!(
                    llt.position(0, i),
                    Some(p),
                    "both triangles share the stored value"
                );
                llt.values_mut()[p] = 1.0 + 0.1 * i as f64;
                dense[(i, 0)] = 1.0 + 0.1 * i as f64;
                dense[(0, i)] = 1.0 + 0.1 * i as f64;
            }
        }
        llt.factorize().expect("SPD");
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).cos()).collect();
        let mut x = b.clone();
        llt.solve_in_place(&mut x);
        let reference = dense
            .lu()
            .solve(&nalgebra::DVector::from_column_slice(&b))
            .expect("regular");
        for i in 0..n {
            assert!(
                (x[i] - reference[i]).abs() < 1e-13,
                "{i}: {} vs {}",
                x[i],
                reference[i]
            );
        }
    }

    #[test]
    fn indefinite_values_are_reported() {
        let mut llt = SparseLlt::new(2, vec![0, 2, 3], vec![0, 1, 1]).expect("pattern");
        llt.values_mut().copy_from_slice(&[1.0, 2.0, 1.0]);
        assert_eq!(llt.factorize(), Err(SparseError::NotPositiveDefinite));
    }

    #[test]
    fn malformed_patterns_are_rejected() {
        assert!(matches!(
            SparseLlt::new(2, vec![0, 1, 2], vec![1, 1]),
            Err(SparseError::Pattern(_))
        ));
        assert!(matches!(
            SparseLlt::new(2, vec![0, 1], vec![0]),
            Err(SparseError::Pattern(_))
        ));
    }
}
