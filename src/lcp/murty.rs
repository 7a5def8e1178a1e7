//! Murty's examples of exponential work for pivoting methods (Murty,
//! *Linear Complementarity, Linear and Nonlinear Programming*, 1988,
//! chapter 6). Both use the upper-triangular P-matrix
//!
//!   M_ii = 1, M_ij = 2 for i < j, M_ij = 0 for i > j,
//!
//! which is what the Siconos files `lcp_exp_murty*.dat` hold (read
//! column-major, as Siconos does).
//!
//! * [`murty`]: q_i = -(2^i + 2^(i+1) + .. + 2^n) = -(2^(n+1) - 2^i),
//!   i = 1..n (`lcp_exp_murty2.dat` is n = 6). Nondegenerate: every ratio
//!   test has a unique minimiser, so the path does not depend on the tie
//!   rule. Lemke's method with d = e makes 2^n pivots: the entry of z0 and
//!   then 2^n - 1 complementary pivots (Murty's count of "pivot steps").
//!   Checked against an exact-rational full-tableau Lemke for n = 1..8.
//! * [`murty_degenerate`]: q = -e (`lcp_exp_murty.dat` is n = 6). Every row
//!   ties in the first ratio test, so the work depends on the tie rule: with
//!   the lexicographic rule of [`crate::lcp::lemke`] (ties to the largest
//!   index) Lemke needs 2 pivots; a smallest-index rule walks 2^n bases.
//!
//! M is a P-matrix, so each has a unique solution: z = 2^n e_n for
//! [`murty`] (w_i = 2^i, w_n = 0) and z = e_n for [`murty_degenerate`].

use crate::lcp::Lcp;
use nalgebra::{DMatrix, DVector};

/// The Murty matrix of size n (see the module doc).
fn murty_matrix(n: usize) -> DMatrix<f64> {
    DMatrix::from_fn(n, n, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Less => 2.0,
        std::cmp::Ordering::Equal => 1.0,
        std::cmp::Ordering::Greater => 0.0,
    })
}

/// Murty's exponential example for Lemke's method (d = e: 2^n pivots,
/// 2^n - 1 after the entry of z0). Exact in f64 for n <= 52.
pub fn murty(n: usize) -> Lcp {
    let top = 2f64.powi(n as i32 + 1);
    Lcp {
        m: murty_matrix(n),
        q: DVector::from_fn(n, |i, _| -(top - 2f64.powi(i as i32 + 1))),
    }
}

/// The same matrix with q = -e (`lcp_exp_murty.dat` for n = 6).
pub fn murty_degenerate(n: usize) -> Lcp {
    Lcp {
        m: murty_matrix(n),
        q: DVector::from_element(n, -1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::lemke::{LemkeParams, lemke};

    fn assert_solution_is_on_the_last_axis(z: &[f64], n: usize, value: f64) {
        for (i, &zi) in z.iter().enumerate() {
            let expected = if i + 1 == n { value } else { 0.0 };
            assert!((zi - expected).abs() < 1e-12, "n = {n}: z = {z:?}");
        }
    }

    #[test]
    fn lemke_needs_two_to_the_n_pivots() {
        let params = LemkeParams {
            max_pivots: Some(1 << 15),
            ..LemkeParams::default()
        };
        for n in 1..=14 {
            let p = murty(n);
            let info = lemke(&p, &params).unwrap();
            assert_eq!(info.pivots, 1 << n, "n = {n}");
            assert!(p.residual(&info.z) < 1e-14, "n = {n}");
            assert_solution_is_on_the_last_axis(&info.z, n, 2f64.powi(n as i32));
        }
    }

    #[test]
    fn the_degenerate_instance_is_easy_for_the_lexicographic_rule() {
        for n in 1..=10 {
            let p = murty_degenerate(n);
            let info = lemke(&p, &LemkeParams::default()).unwrap();
            assert_eq!(info.pivots, 2, "n = {n}");
            assert_solution_is_on_the_last_axis(&info.z, n, 1.0);
        }
    }

    #[test]
    fn the_matrix_is_upper_triangular_with_twos() {
        let p = murty(3);
        assert_eq!(
            p.m,
            DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 2.0, 0.0, 1.0, 2.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            murty(6).q.as_slice(),
            &[-126.0, -124.0, -120.0, -112.0, -96.0, -64.0]
        );
        assert_eq!(murty_degenerate(2).q.as_slice(), &[-1.0, -1.0]);
    }
}
