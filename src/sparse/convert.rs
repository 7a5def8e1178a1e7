//! Conversions between dense row-major data and sparse matrices: spec
//! matrices written as nested arrays become CSR, and the small dense
//! methods (the Newmark-LCP step, the event-driven regimes) take dense
//! copies.

use nalgebra::DMatrix;
use sprs::{CsMat, TriMat};

/// CSR matrix from a dense row-major nested array (explicit zeros dropped).
pub fn csr_from_rows(rows: &[Vec<f64>]) -> CsMat<f64> {
    let n = rows.len();
    let ncols = rows.first().map_or(0, Vec::len);
    let mut tri = TriMat::new((n, ncols));
    for (i, row) in rows.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v != 0.0 {
                tri.add_triplet(i, j, v);
            }
        }
    }
    tri.to_csr()
}

/// Dense copy of a sparse matrix (duplicate entries summed).
pub fn to_dense(a: &CsMat<f64>) -> DMatrix<f64> {
    let mut d = DMatrix::zeros(a.rows(), a.cols());
    for (&v, (i, j)) in a.iter() {
        d[(i, j)] += v;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows to CSR and back: the values return, explicit zeros are not stored.
    #[test]
    fn round_trip() {
        let rows = vec![vec![1.0, 0.0, -2.0], vec![0.0, 3.0, 0.0]];
        let a = csr_from_rows(&rows);
        assert_eq!(a.nnz(), 3);
        let d = to_dense(&a);
        assert_eq!((d.nrows(), d.ncols()), (2, 3));
        for (i, row) in rows.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                assert_eq!(d[(i, j)], v);
            }
        }
    }
}
