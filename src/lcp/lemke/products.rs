//! The dense products of a pivot, by faer's matrix product (which picks
//! the SIMD instructions of the machine at run time: AVX2 and FMA where
//! present, where the crate itself is compiled for the baseline x86-64):
//!
//! - t = H a and c^T H for the compact inverse H (k x k, row-major with
//!   stride n, the first k columns of its rows);
//! - H += alpha u v^T, the rank-one updates of the four pivot kinds;
//! - g = M_S t over the basic columns M_S (n x k, column-major, contiguous).
//!
//! Every function is a no-op for k = 0.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

/// out = H x, H the leading k x k block of the row-major `h` (stride n).
pub(super) fn h_times(h: &[f64], n: usize, k: usize, x: &[f64], out: &mut [f64]) {
    if k == 0 {
        return;
    }
    matmul(
        MatMut::from_column_major_slice_mut(&mut out[..k], k, 1),
        Accum::Replace,
        MatRef::from_row_major_slice_with_stride(&h[..(k - 1) * n + k], k, k, n),
        MatRef::from_column_major_slice(&x[..k], k, 1),
        1.0,
        Par::Seq,
    );
}

/// out^T = c^T H, H as in [`h_times`].
pub(super) fn times_h(h: &[f64], n: usize, k: usize, c: &[f64], out: &mut [f64]) {
    if k == 0 {
        return;
    }
    matmul(
        MatMut::from_row_major_slice_mut(&mut out[..k], 1, k),
        Accum::Replace,
        MatRef::from_row_major_slice(&c[..k], 1, k),
        MatRef::from_row_major_slice_with_stride(&h[..(k - 1) * n + k], k, k, n),
        1.0,
        Par::Seq,
    );
}

/// H += alpha u v^T, H as in [`h_times`].
pub(super) fn rank_one(h: &mut [f64], n: usize, k: usize, alpha: f64, u: &[f64], v: &[f64]) {
    if k == 0 {
        return;
    }
    matmul(
        // H^T is column-major with stride n. (faer 0.24.4's
        // `from_row_major_slice_with_stride_mut` gives the strides of a
        // column-major layout, the transpose; the test below checks the
        // layout used here.)
        MatMut::from_column_major_slice_with_stride_mut(&mut h[..(k - 1) * n + k], k, k, n)
            .transpose_mut(),
        Accum::Add,
        MatRef::from_column_major_slice(&u[..k], k, 1),
        MatRef::from_row_major_slice(&v[..k], 1, k),
        alpha,
        Par::Seq,
    );
}

/// out = M_S t, M_S the first k columns (length n each) of `cols`.
pub(super) fn columns_times(cols: &[f64], n: usize, k: usize, t: &[f64], out: &mut [f64]) {
    if k == 0 {
        out[..n].fill(0.0);
        return;
    }
    matmul(
        MatMut::from_column_major_slice_mut(&mut out[..n], n, 1),
        Accum::Replace,
        MatRef::from_column_major_slice(&cols[..n * k], n, k),
        MatRef::from_column_major_slice(&t[..k], k, 1),
        1.0,
        Par::Seq,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each product against the plain loops it replaces.
    #[test]
    fn the_products_match_their_loops() {
        let (n, k) = (7, 4);
        let h: Vec<f64> = (0..n * n).map(|i| ((i * 37) % 11) as f64 - 5.0).collect();
        let x: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 1.0).collect();
        let entry = |p: usize, q: usize| h[p * n + q];
        let mut out = vec![0.0; n];
        h_times(&h, n, k, &x, &mut out);
        for (p, &got) in out[..k].iter().enumerate() {
            let want: f64 = (0..k).map(|q| entry(p, q) * x[q]).sum();
            assert_eq!(got, want);
        }
        times_h(&h, n, k, &x, &mut out);
        for (q, &got) in out[..k].iter().enumerate() {
            let want: f64 = (0..k).map(|p| x[p] * entry(p, q)).sum();
            assert_eq!(got, want);
        }
        let mut g = h.clone();
        rank_one(&mut g, n, k, 2.0, &x, &out);
        for p in 0..n {
            for q in 0..n {
                let want = if p < k && q < k {
                    entry(p, q) + 2.0 * x[p] * out[q]
                } else {
                    entry(p, q)
                };
                assert_eq!(g[p * n + q], want, "({p}, {q})");
            }
        }
        let mut col_out = vec![9.0; n];
        columns_times(&h, n, k, &x, &mut col_out);
        for i in 0..n {
            let want: f64 = (0..k).map(|p| h[p * n + i] * x[p]).sum();
            assert!((col_out[i] - want).abs() <= 1e-12 * want.abs().max(1.0));
        }
        columns_times(&h, n, 0, &x, &mut col_out);
        assert!(col_out.iter().all(|&v| v == 0.0));
    }
}
