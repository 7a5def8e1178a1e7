//! A banded Cholesky factorization A = L L^T of a symmetric positive
//! definite matrix whose nonzeros lie within |i - j| <= w (Golub & Van Loan,
//! *Matrix Computations*, 4th ed., Alg. 4.3.5): L keeps the band, so the
//! factor costs O(n w^2) and a solve O(n w), with no allocation per solve.
//! The mass matrix of Hermite beam elements (4 DOFs per node) has w = 7,
//! block-diagonal pairs of blades too, as have M + a B + b K.

use nalgebra::DMatrix;

/// L of A = L L^T in band storage.
#[derive(Debug, Clone, PartialEq)]
pub struct BandCholesky {
    n: usize,
    w: usize,
    /// Row i holds L[i][i - w ..= i] at `i * (w + 1) + (j + w - i)`.
    l: Vec<f64>,
    /// The nonzeros of L below the diagonal by rows (column, value), with
    /// row i's at `row_ptr[i]..row_ptr[i + 1]`: the solves skip the band's
    /// zeros (two uncoupled bending planes leave half of it empty).
    row_ptr: Vec<usize>,
    entries: Vec<(usize, f64)>,
    diag: Vec<f64>,
}

impl BandCholesky {
    /// Factors the symmetric matrix `a` (its lower triangle is read); the
    /// bandwidth is that of `a`'s nonzeros. Fails when `a` is not square,
    /// not finite or not positive definite (names the pivot).
    pub fn new(a: &DMatrix<f64>) -> Result<Self, String> {
        Self::within(a, usize::MAX)
    }

    /// [`Self::new`] for a half-bandwidth of at most `max_bandwidth`: a
    /// wider matrix is refused after the O(n^2) scan, before the
    /// O(n w^2) factorization a dense path would make wasted work.
    pub fn within(a: &DMatrix<f64>, max_bandwidth: usize) -> Result<Self, String> {
        let n = a.nrows();
        if a.ncols() != n {
            return Err(format!("band Cholesky: {}x{} is not square", n, a.ncols()));
        }
        let mut w = 0;
        for j in 0..n {
            for i in j..n {
                let v = a[(i, j)];
                if !v.is_finite() {
                    return Err(format!("band Cholesky: entry ({i}, {j}) is {v}"));
                }
                if v != 0.0 {
                    w = w.max(i - j);
                }
            }
        }
        if w > max_bandwidth {
            return Err(format!(
                "band Cholesky: half-bandwidth {w} exceeds {max_bandwidth}"
            ));
        }
        let mut f = Self {
            n,
            w,
            l: vec![0.0; n * (w + 1)],
            row_ptr: Vec::with_capacity(n + 1),
            entries: Vec::new(),
            diag: Vec::with_capacity(n),
        };
        for j in 0..n {
            let lo = j.saturating_sub(w);
            let mut d = a[(j, j)];
            for k in lo..j {
                d -= f.get(j, k).powi(2);
            }
            if d.is_nan() || d <= 0.0 {
                return Err(format!(
                    "band Cholesky: pivot {j} is {d:e} (matrix not positive definite)"
                ));
            }
            let d = d.sqrt();
            f.set(j, j, d);
            for i in j + 1..(j + w + 1).min(n) {
                let lo = i.saturating_sub(w);
                let mut s = a[(i, j)];
                for k in lo..j {
                    s -= f.get(i, k) * f.get(j, k);
                }
                f.set(i, j, s / d);
            }
        }
        f.row_ptr.push(0);
        for i in 0..n {
            for j in i.saturating_sub(w)..i {
                let v = f.get(i, j);
                if v != 0.0 {
                    f.entries.push((j, v));
                }
            }
            f.row_ptr.push(f.entries.len());
            f.diag.push(f.get(i, i));
        }
        Ok(f)
    }

    #[inline]
    fn index(&self, i: usize, j: usize) -> usize {
        i * (self.w + 1) + (j + self.w - i)
    }

    #[inline]
    fn get(&self, i: usize, j: usize) -> f64 {
        self.l[self.index(i, j)]
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, v: f64) {
        let k = self.index(i, j);
        self.l[k] = v;
    }

    /// Dimension n.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// The half-bandwidth w.
    pub fn bandwidth(&self) -> usize {
        self.w
    }

    /// x <- A^-1 x (forward then backward substitution over the nonzeros
    /// of the band).
    pub fn solve_in_place(&self, x: &mut [f64]) {
        let x = &mut x[..self.n];
        for (i, (d, r)) in self.diag.iter().zip(self.row_ptr.windows(2)).enumerate() {
            let s: f64 = self.entries[r[0]..r[1]]
                .iter()
                .map(|&(j, l)| l * x[j])
                .sum();
            x[i] = (x[i] - s) / d;
        }
        for (i, (d, r)) in self
            .diag
            .iter()
            .zip(self.row_ptr.windows(2))
            .enumerate()
            .rev()
        {
            let xi = x[i] / d;
            x[i] = xi;
            for &(j, l) in &self.entries[r[0]..r[1]] {
                x[j] -= l * xi;
            }
        }
    }

    /// Nonzeros of L below the diagonal.
    pub fn off_diagonal_nonzeros(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A banded SPD matrix: the solve agrees with nalgebra's dense Cholesky.
    #[test]
    fn solves_like_dense_cholesky() {
        let n = 23;
        let w = 3;
        let a = DMatrix::from_fn(n, n, |i, j| {
            let d = i.abs_diff(j);
            if d == 0 {
                10.0 + i as f64
            } else if d <= w {
                1.0 / (1.0 + (i + j) as f64) - 0.3 * (d as f64)
            } else {
                0.0
            }
        });
        let f = BandCholesky::new(&a).expect("SPD");
        assert_eq!(f.bandwidth(), w);
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        let mut x = b.clone();
        f.solve_in_place(&mut x);
        let dense = a
            .clone()
            .cholesky()
            .expect("SPD")
            .solve(&nalgebra::DVector::from_vec(b));
        for i in 0..n {
            assert!(
                (x[i] - dense[i]).abs() < 1e-13,
                "{i}: {} vs {}",
                x[i],
                dense[i]
            );
        }
    }

    /// A band wider than asked for is refused before it is factored.
    #[test]
    fn refuses_a_band_wider_than_asked() {
        let a = DMatrix::from_fn(6, 6, |i, j| {
            if i == j {
                4.0
            } else if i.abs_diff(j) <= 2 {
                1.0
            } else {
                0.0
            }
        });
        assert_eq!(BandCholesky::within(&a, 2).expect("w = 2").bandwidth(), 2);
        let e = BandCholesky::within(&a, 1).unwrap_err();
        assert!(e.contains("half-bandwidth 2 exceeds 1"), "{e}");
    }

    /// An indefinite matrix is refused, naming the pivot.
    #[test]
    fn refuses_indefinite() {
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        let e = BandCholesky::new(&a).unwrap_err();
        assert!(e.contains("pivot 1"), "{e}");
    }
}
