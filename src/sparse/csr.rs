//! Plain CSR storage with the two loops the time step needs (y = A x and
//! row access), without iterator adapters in the hot path.

use sprs::CsMat;

/// A compressed-sparse-row matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Csr {
    rows: usize,
    cols: usize,
    indptr: Vec<usize>,
    indices: Vec<usize>,
    data: Vec<f64>,
}

impl Csr {
    /// Copies a `sprs` matrix (either storage order) into CSR.
    pub fn from_sprs(a: &CsMat<f64>) -> Self {
        let a = a.to_csr();
        let mut indptr = Vec::with_capacity(a.rows() + 1);
        let mut indices = Vec::with_capacity(a.nnz());
        let mut data = Vec::with_capacity(a.nnz());
        indptr.push(0);
        for row in a.outer_iterator() {
            for (j, &v) in row.iter() {
                indices.push(j);
                data.push(v);
            }
            indptr.push(indices.len());
        }
        Self {
            rows: a.rows(),
            cols: a.cols(),
            indptr,
            indices,
            data,
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Column indices and values of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> (&[usize], &[f64]) {
        let (lo, hi) = (self.indptr[i], self.indptr[i + 1]);
        (&self.indices[lo..hi], &self.data[lo..hi])
    }

    /// Whether `other` has the same rows, columns and nonzero pattern.
    pub fn same_pattern(&self, other: &Csr) -> bool {
        (self.rows, self.cols) == (other.rows, other.cols)
            && self.indptr == other.indptr
            && self.indices == other.indices
    }

    /// ya = A xa and yb = B xb in one pass over the shared pattern of A
    /// (`self`) and B ([`Self::same_pattern`], which the caller has
    /// established): the same sums in the same order as two
    /// [`Self::mul_vec`], with the pattern read once.
    pub fn mul_vec_pair(
        &self,
        b: &Csr,
        (xa, xb): (&[f64], &[f64]),
        (ya, yb): (&mut [f64], &mut [f64]),
    ) {
        debug_assert!(self.same_pattern(b));
        let (indices, da, db) = (&self.indices[..], &self.data[..], &b.data[..]);
        for ((ya_i, yb_i), w) in ya.iter_mut().zip(yb.iter_mut()).zip(self.indptr.windows(2)) {
            let (lo, hi) = (w[0], w[1]);
            let (mut sa, mut sb) = (0.0, 0.0);
            for ((&j, &va), &vb) in indices[lo..hi].iter().zip(&da[lo..hi]).zip(&db[lo..hi]) {
                sa += va * xa[j];
                sb += vb * xb[j];
            }
            *ya_i = sa;
            *yb_i = sb;
        }
    }

    /// Row i times x.
    #[inline]
    pub fn row_dot(&self, i: usize, x: &[f64]) -> f64 {
        let (idx, val) = self.row(i);
        idx.iter().zip(val).map(|(&j, &v)| v * x[j]).sum()
    }

    /// y = A x: one pass over the rows (each row's slices cut once from
    /// consecutive pointers, no call per row).
    pub fn mul_vec(&self, x: &[f64], y: &mut [f64]) {
        let (indices, data) = (&self.indices[..], &self.data[..]);
        for (yi, w) in y.iter_mut().zip(self.indptr.windows(2)) {
            let (idx, val) = (&indices[w[0]..w[1]], &data[w[0]..w[1]]);
            let mut s = 0.0;
            for (&j, &v) in idx.iter().zip(val) {
                s += v * x[j];
            }
            *yi = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprs::TriMat;

    #[test]
    fn matches_sprs_product() {
        let mut t = TriMat::new((3, 4));
        t.add_triplet(0, 1, 2.0);
        t.add_triplet(2, 0, -1.0);
        t.add_triplet(2, 3, 0.5);
        t.add_triplet(1, 1, 4.0);
        let a = t.to_csc();
        let csr = Csr::from_sprs(&a);
        let x = [1.0, 2.0, 3.0, 4.0];
        let mut y = [0.0; 3];
        csr.mul_vec(&x, &mut y);
        assert_eq!(y, [4.0, 8.0, 1.0]);
    }

    /// The paired product equals two single ones bit for bit, and a
    /// different pattern is told apart.
    #[test]
    fn paired_product_equals_two_single_ones() {
        let mut ta = TriMat::new((3, 3));
        let mut tb = TriMat::new((3, 3));
        for (i, j, a, b) in [
            (0, 0, 2.0, 0.1),
            (0, 2, -1.0, 0.7),
            (1, 1, 3.0, -0.2),
            (2, 0, 0.5, 0.3),
            (2, 2, 1.5, 0.9),
        ] {
            ta.add_triplet(i, j, a);
            tb.add_triplet(i, j, b);
        }
        let (a, b) = (Csr::from_sprs(&ta.to_csr()), Csr::from_sprs(&tb.to_csr()));
        assert!(a.same_pattern(&b));
        let (xa, xb) = ([0.3, -1.7, 2.2], [1.1, 0.4, -0.6]);
        let (mut ya, mut yb) = (vec![0.0; 3], vec![0.0; 3]);
        a.mul_vec_pair(&b, (&xa, &xb), (&mut ya, &mut yb));
        let (mut ya1, mut yb1) = (vec![0.0; 3], vec![0.0; 3]);
        a.mul_vec(&xa, &mut ya1);
        b.mul_vec(&xb, &mut yb1);
        assert_eq!((ya, yb), (ya1, yb1));
        let mut tc = TriMat::new((3, 3));
        tc.add_triplet(1, 0, 1.0);
        assert!(!a.same_pattern(&Csr::from_sprs(&tc.to_csr())));
    }
}
