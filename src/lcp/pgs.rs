//! Projected Gauss-Seidel (PGS) with over-relaxation for LCP(M, q)
//! (Cottle, Pang & Stone, *The LCP*, 1992, section 5.2; Murty 1988, ch. 9):
//!
//!   z_i <- max(0, z_i - omega w_i / M_ii),  w = M z + q,  i = 1..n,
//!
//! one sweep per pass over i. w is kept up to date column by column
//! (w += delta_i M[:, i]), so a sweep costs O(n) per changed component. It
//! converges for symmetric positive (semi)definite M with positive diagonal
//! and 0 < omega < 2 and for diagonally dominant M. The stopping test is the
//! shared residual [`Lcp::residual`] <= tol, checked cheaply from the
//! maintained w after every sweep and confirmed with a fresh w.

use crate::lcp::Lcp;

/// Parameters of [`pgs`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PgsParams {
    /// Sweep limit.
    pub max_sweeps: usize,
    /// Stop when [`Lcp::residual`] <= tol.
    pub tol: f64,
    /// Over-relaxation omega in (0, 2); 1 = plain Gauss-Seidel.
    pub relaxation: f64,
}

impl Default for PgsParams {
    fn default() -> Self {
        Self {
            max_sweeps: 10_000,
            tol: 1e-12,
            relaxation: 1.0,
        }
    }
}

/// A converged PGS run.
#[derive(Debug, Clone, PartialEq)]
pub struct PgsInfo {
    /// The solution.
    pub z: Vec<f64>,
    /// Sweeps done.
    pub sweeps: usize,
    /// [`Lcp::residual`] of `z`.
    pub residual: f64,
}

/// Why PGS stopped without a solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PgsError {
    /// PGS divides by M_ii, which must be positive.
    #[error("PGS: diagonal entry M[{index}][{index}] = {value} is not positive")]
    NonPositiveDiagonal {
        /// Row of the entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The sweep limit was reached (or the iterate became non-finite).
    #[error("PGS: not converged after {sweeps} sweeps (residual {residual:e})")]
    NotConverged {
        /// Sweeps done.
        sweeps: usize,
        /// Residual of the last iterate.
        residual: f64,
        /// The last iterate.
        z: Vec<f64>,
    },
    /// The relaxation parameter is outside (0, 2).
    #[error("PGS: relaxation {0} is outside (0, 2)")]
    InvalidRelaxation(f64),
    /// M is not n x n for the n of q, or the warm start has the wrong length.
    #[error("PGS: dimension mismatch ({0})")]
    DimensionMismatch(String),
}

/// Solves LCP(M, q) by projected Gauss-Seidel from `warm_start` (or z = 0).
pub fn pgs(lcp: &Lcp, params: &PgsParams, warm_start: Option<&[f64]>) -> Result<PgsInfo, PgsError> {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return Err(PgsError::DimensionMismatch(format!(
            "M is {} x {}, q has length {n}",
            lcp.m.nrows(),
            lcp.m.ncols()
        )));
    }
    if params.relaxation.is_nan() || params.relaxation <= 0.0 || params.relaxation >= 2.0 {
        return Err(PgsError::InvalidRelaxation(params.relaxation));
    }
    let mut inv_diag = vec![0.0; n];
    for (i, inv) in inv_diag.iter_mut().enumerate() {
        let value = lcp.m[(i, i)];
        // NaN counts as not positive.
        if value.is_nan() || value <= 0.0 {
            return Err(PgsError::NonPositiveDiagonal { index: i, value });
        }
        *inv = params.relaxation / value;
    }
    let mut z = match warm_start {
        Some(z0) if z0.len() == n => z0.iter().map(|&v| v.max(0.0)).collect(),
        Some(z0) => {
            return Err(PgsError::DimensionMismatch(format!(
                "warm start has length {}, expected {n}",
                z0.len()
            )));
        }
        None => vec![0.0; n],
    };
    if !z.iter().all(|v: &f64| v.is_finite()) {
        z.fill(0.0);
    }
    let m = lcp.m.as_slice();
    let mut w: Vec<f64> = lcp.w(&z).iter().copied().collect();
    let norm_q = lcp.q.norm();
    let scale = if norm_q > f64::EPSILON { norm_q } else { 1.0 };
    let mut residual = lcp.residual(&z);
    if residual <= params.tol {
        return Ok(PgsInfo {
            z,
            sweeps: 0,
            residual,
        });
    }
    for sweep in 1..=params.max_sweeps {
        crate::deadline::check_every(sweep);
        for i in 0..n {
            let new = (z[i] - w[i] * inv_diag[i]).max(0.0);
            let delta = new - z[i];
            if delta != 0.0 {
                z[i] = new;
                let col = &m[i * n..(i + 1) * n];
                for (wj, &mji) in w.iter_mut().zip(col) {
                    *wj += delta * mji;
                }
            }
        }
        let cheap = complementarity_error(&z, &w) / scale;
        if !cheap.is_finite() {
            residual = lcp.residual(&z);
            return Err(PgsError::NotConverged {
                sweeps: sweep,
                residual,
                z,
            });
        }
        if cheap <= params.tol {
            residual = lcp.residual(&z);
            if residual <= params.tol {
                return Ok(PgsInfo {
                    z,
                    sweeps: sweep,
                    residual,
                });
            }
            // The maintained w drifted: start again from a fresh one.
            w.copy_from_slice(lcp.w(&z).as_slice());
        }
    }
    residual = lcp.residual(&z);
    Err(PgsError::NotConverged {
        sweeps: params.max_sweeps,
        residual,
        z,
    })
}

/// ||z - max(0, z - w)||_2 for a given w.
fn complementarity_error(z: &[f64], w: &[f64]) -> f64 {
    z.iter()
        .zip(w)
        .map(|(&zi, &wi)| {
            let r = zi - (zi - wi).max(0.0);
            r * r
        })
        .sum::<f64>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
        Lcp::new(
            DMatrix::from_row_slice(n, n, m_row_major),
            DVector::from_column_slice(q),
        )
        .unwrap()
    }

    #[test]
    fn solves_a_symmetric_positive_definite_problem() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = pgs(&p, &PgsParams::default(), None).unwrap();
        assert!(info.residual <= 1e-12);
        assert!((info.z[0] - 4.0 / 3.0).abs() < 1e-11);
        assert!(info.sweeps > 1);
    }

    #[test]
    fn warm_start_at_the_solution_needs_no_sweep() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = pgs(&p, &PgsParams::default(), Some(&[4.0 / 3.0, 7.0 / 3.0])).unwrap();
        assert_eq!(info.sweeps, 0);
    }

    #[test]
    fn over_relaxation_converges_too() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let params = PgsParams {
            relaxation: 1.3,
            ..PgsParams::default()
        };
        assert!(pgs(&p, &params, None).unwrap().residual <= 1e-12);
        let bad = PgsParams {
            relaxation: 2.0,
            ..PgsParams::default()
        };
        assert_eq!(pgs(&p, &bad, None), Err(PgsError::InvalidRelaxation(2.0)));
    }

    #[test]
    fn rejects_a_zero_diagonal() {
        let p = lcp(2, &[0.0, 1.0, 1.0, 0.0], &[-1.0, -1.0]);
        assert_eq!(
            pgs(&p, &PgsParams::default(), None),
            Err(PgsError::NonPositiveDiagonal {
                index: 0,
                value: 0.0
            })
        );
    }

    #[test]
    fn reports_non_convergence() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let params = PgsParams {
            max_sweeps: 2,
            ..PgsParams::default()
        };
        match pgs(&p, &params, None) {
            Err(PgsError::NotConverged {
                sweeps, residual, ..
            }) => {
                assert_eq!(sweeps, 2);
                assert!(residual > 1e-12);
            }
            other => panic!("expected NotConverged, got {other:?}"),
        }
    }
}
