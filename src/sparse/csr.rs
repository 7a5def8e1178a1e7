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
}
