//! A symmetric positive definite tridiagonal matrix whose values change,
//! factored as L D L^T in place: the algorithm of LAPACK's dpttrf (factor)
//! and dpttrs (solve), O(n) each with no fill and no ordering.
//!
//! With diagonal d and sub-diagonal e, the factor is, for i = 0 .. n-2,
//!
//!   l_i = e_i / d_i,   d_{i+1} <- d_{i+1} - l_i e_i,
//!
//! (D = diag(d), L unit lower bidiagonal with sub-diagonal l), and a solve
//! is b_i <- b_i - l_{i-1} b_{i-1} forward, then
//! b_i <- b_i / d_i - l_i b_{i+1} backward.
//!
//! The values are addressed like the other fixed-pattern factorizations
//! ([`super::llt::SparseLlt`]): [`SymmetricTridiagonal::position`] gives an
//! entry's index in [`SymmetricTridiagonal::values_mut`], the diagonal
//! first (index i), then the sub-diagonal (index n + i for (i + 1, i)).

use super::pattern::SparseError;

/// A symmetric tridiagonal matrix, its values and its L D L^T factor.
pub struct SymmetricTridiagonal {
    n: usize,
    /// Diagonal (n values), then sub-diagonal (n - 1 values).
    values: Vec<f64>,
    /// The factor: D's diagonal, then L's sub-diagonal.
    d: Vec<f64>,
    l: Vec<f64>,
    factorizations: usize,
    factored: bool,
}

impl SymmetricTridiagonal {
    /// An n x n tridiagonal matrix with all values zero.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            values: vec![0.0; (2 * n).saturating_sub(1)],
            d: vec![0.0; n],
            l: vec![0.0; n.saturating_sub(1)],
            factorizations: 0,
            factored: false,
        }
    }

    /// Whether the lower-triangle CSC pattern (`col_ptr`, `row_idx`) lies
    /// within the tridiagonal band: column j holds only rows j and j + 1.
    pub fn fits(n: usize, col_ptr: &[usize], row_idx: &[usize]) -> bool {
        col_ptr.len() == n + 1
            && (0..n).all(|j| {
                row_idx[col_ptr[j]..col_ptr[j + 1]]
                    .iter()
                    .all(|&i| i == j || i == j + 1)
            })
    }

    /// Dimension n.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Stored values (the band's lower triangle): 2n - 1.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    /// Numeric factorizations done so far.
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// The index of entry (i, j) of the lower triangle in
    /// [`Self::values_mut`], or None outside the band.
    pub fn position(&self, i: usize, j: usize) -> Option<usize> {
        if i >= self.n || j >= self.n {
            None
        } else if i == j {
            Some(i)
        } else if i == j + 1 {
            Some(self.n + j)
        } else {
            None
        }
    }

    /// The values to overwrite; call [`Self::factorize`] after.
    pub fn values_mut(&mut self) -> &mut [f64] {
        self.factored = false;
        &mut self.values
    }

    /// L D L^T of the current values (dpttrf). Fails on a pivot that is not
    /// positive or not finite (the matrix is not positive definite).
    pub fn factorize(&mut self) -> Result<(), SparseError> {
        let n = self.n;
        self.factored = false;
        self.d.copy_from_slice(&self.values[..n]);
        let (d, l) = (&mut self.d, &mut self.l);
        for i in 0..n.saturating_sub(1) {
            let (di, ei) = (d[i], self.values[n + i]);
            if !(di > 0.0 && di.is_finite()) {
                return Err(SparseError::NotPositiveDefinite);
            }
            l[i] = ei / di;
            d[i + 1] -= l[i] * ei;
        }
        if n > 0 && !(d[n - 1] > 0.0 && d[n - 1].is_finite()) {
            return Err(SparseError::NotPositiveDefinite);
        }
        self.factorizations += 1;
        self.factored = true;
        Ok(())
    }

    /// Solves A x = b in place with the current factor (dpttrs). Fails when
    /// the values changed since the last factorization.
    pub fn solve_in_place(&self, b: &mut [f64]) -> Result<(), SparseError> {
        if !self.factored || b.len() != self.n {
            return Err(SparseError::Singular);
        }
        let (d, l) = (&self.d, &self.l);
        for i in 1..self.n {
            b[i] -= l[i - 1] * b[i - 1];
        }
        if let Some(last) = self.n.checked_sub(1) {
            b[last] /= d[last];
            for i in (0..last).rev() {
                b[i] = b[i] / d[i] - l[i] * b[i + 1];
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The second-difference matrix plus `shift` on the diagonal.
    fn laplacian(n: usize, shift: f64) -> SymmetricTridiagonal {
        let mut t = SymmetricTridiagonal::new(n);
        for i in 0..n {
            let p = t.position(i, i).unwrap();
            t.values_mut()[p] = 2.0 + shift;
            if i + 1 < n {
                let q = t.position(i + 1, i).unwrap();
                t.values_mut()[q] = -1.0;
            }
        }
        t
    }

    #[test]
    fn solves_against_the_matrix_it_factored() {
        let n = 50;
        let mut t = laplacian(n, 0.01);
        t.factorize().unwrap();
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        // b = A x
        let b: Vec<f64> = (0..n)
            .map(|i| {
                let mut v = 2.01 * x[i];
                if i > 0 {
                    v -= x[i - 1];
                }
                if i + 1 < n {
                    v -= x[i + 1];
                }
                v
            })
            .collect();
        let mut y = b.clone();
        t.solve_in_place(&mut y).unwrap();
        let err = x
            .iter()
            .zip(&y)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(err < 1e-10, "error {err:e}");
        assert_eq!(t.factorizations(), 1);
    }

    #[test]
    fn refuses_an_indefinite_matrix_and_a_stale_factor() {
        let mut t = laplacian(5, -3.0);
        assert_eq!(t.factorize(), Err(SparseError::NotPositiveDefinite));
        let mut b = vec![1.0; 5];
        assert!(t.solve_in_place(&mut b).is_err());
        let mut ok = laplacian(5, 0.0);
        ok.factorize().unwrap();
        ok.values_mut()[0] = 3.0;
        assert!(
            ok.solve_in_place(&mut b).is_err(),
            "values changed since the factor"
        );
    }

    #[test]
    fn knows_its_band() {
        // Columns {0, 1}, {1}, {2}: in the band; {0, 1}, {1, 3}, ...: not.
        assert!(SymmetricTridiagonal::fits(3, &[0, 2, 3, 4], &[0, 1, 1, 2]));
        assert!(!SymmetricTridiagonal::fits(
            4,
            &[0, 2, 4, 5, 6],
            &[0, 1, 1, 3, 2, 3]
        ));
        let t = SymmetricTridiagonal::new(4);
        assert_eq!(t.position(2, 1), Some(5));
        assert_eq!(t.position(1, 2), None);
        assert_eq!(t.position(3, 1), None);
    }
}
