//! The linear complementarity problem as plain data, and the one residual that
//! grades every solver.
//!
//! LCP(M, q): find z such that w = M z + q, z >= 0, w >= 0, z . w = 0.
//! The residual is Siconos' `lcp_compute_error`:
//! ||z - max(0, z - w)||_2 / ||q||_2 with w = M z + q recomputed from z;
//! like Siconos (numerics/src/LCP/lcp_compute_error.c) the division is skipped
//! when ||q||_2 <= f64::EPSILON.

use nalgebra::{DMatrix, DVector};

/// LCP(M, q): plain data, no behaviour beyond evaluating w and the residual.
#[derive(Debug, Clone, PartialEq)]
pub struct Lcp {
    /// The n x n matrix M.
    pub m: DMatrix<f64>,
    /// The vector q of length n.
    pub q: DVector<f64>,
}

impl Lcp {
    /// Builds an LCP; `None` when M is not square or q has the wrong length.
    pub fn new(m: DMatrix<f64>, q: DVector<f64>) -> Option<Self> {
        (m.is_square() && m.nrows() == q.len()).then_some(Self { m, q })
    }

    /// Problem size n.
    pub fn dim(&self) -> usize {
        self.q.len()
    }

    /// w = M z + q.
    pub fn w(&self, z: &[f64]) -> DVector<f64> {
        let mut w = self.q.clone();
        w.gemv(1.0, &self.m, &DVector::from_column_slice(z), 1.0);
        w
    }

    /// Siconos' error measure: ||z - max(0, z - w)|| / ||q||, w = M z + q.
    ///
    /// Zero exactly when z solves the LCP; NaN propagates (a NaN residual
    /// never passes a tolerance test).
    pub fn residual(&self, z: &[f64]) -> f64 {
        let w = self.w(z);
        let num: f64 = z
            .iter()
            .zip(w.iter())
            .map(|(&zi, &wi)| {
                let r = zi - (zi - wi).max(0.0);
                r * r
            })
            .sum::<f64>()
            .sqrt();
        let norm_q = self.q.norm();
        if norm_q > f64::EPSILON {
            num / norm_q
        } else {
            num
        }
    }
}
