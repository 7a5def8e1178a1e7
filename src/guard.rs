//! Guards for calls into library routines whose running time depends on
//! the magnitude of their input, not only on its size.
//!
//! Two routines of nalgebra can run without end on a finite input:
//!
//! - `Matrix::exp` (scaling and squaring, Al-Mohy & Higham 2009) estimates
//!   `||A^10||^(1/10)` and squares `s = ceil(log2(eta / theta_13))` times.
//!   When a power of `A` overflows, `eta` is infinite and `s` saturates to
//!   `u64::MAX`: the squaring loop does not end. [`bounded_for_expm`] admits
//!   only a matrix whose 1-norm is at most [`EXPM_MAX_NORM`] = 1e30, so
//!   that `||A||^10 <= 1e300` stays finite and `s <= 110`.
//! - `symmetric_eigenvalues` iterates implicit QR steps with no bound
//!   (`max_niter = 0`) until the off-diagonal falls below eps times the
//!   diagonal, which overflowed entries never do. [`symmetric_eigenvalues`]
//!   calls the bounded variant and refuses entries above [`MAX_ENTRY`].
//!
//! Every other decomposition the crate calls (LU, Cholesky, Schur with an
//! explicit iteration bound) does a fixed amount of work for its size.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// Largest 1-norm of a matrix handed to the matrix exponential.
pub const EXPM_MAX_NORM: f64 = 1e30;

/// Largest entry magnitude handed to an eigen-solver: products of two
/// entries stay finite (1e150 squared is 1e300).
pub const MAX_ENTRY: f64 = 1e150;

/// Iteration bound of the symmetric eigen-solver: implicit QR converges in
/// about two sweeps per eigenvalue; this is far beyond any matrix the
/// harness builds (at most a few thousand rows).
const EIGEN_MAX_ITERATIONS: usize = 1_000_000;

/// Why a matrix was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GuardError {
    /// An entry is NaN or infinite.
    #[error("{what} has a non-finite entry")]
    NotFinite {
        /// What the matrix is.
        what: String,
    },
    /// The matrix is too large in magnitude for the routine.
    #[error(
        "{what} has {measure} {value:e}, above the {limit:e} the {routine} can handle without overflow"
    )]
    TooLarge {
        /// What the matrix is.
        what: String,
        /// Which measure (1-norm, largest entry).
        measure: &'static str,
        /// Its value.
        value: f64,
        /// The bound.
        limit: f64,
        /// The routine that would have been called.
        routine: &'static str,
    },
    /// The eigen-solver reached its iteration bound.
    #[error("the eigenvalues of {what} did not converge in {EIGEN_MAX_ITERATIONS} iterations")]
    NoConvergence {
        /// What the matrix is.
        what: String,
    },
}

/// The 1-norm (largest column sum of |a_ij|), summed without overflow to
/// NaN: an infinite sum stays infinite.
pub fn one_norm(a: &DMatrix<f64>) -> f64 {
    a.column_iter()
        .map(|c| c.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

fn finite(what: &str, a: &DMatrix<f64>) -> Result<(), GuardError> {
    if a.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(GuardError::NotFinite { what: what.into() })
    }
}

/// Admits `a` for `exp`: finite with 1-norm at most [`EXPM_MAX_NORM`].
pub fn bounded_for_expm(what: &str, a: &DMatrix<f64>) -> Result<(), GuardError> {
    finite(what, a)?;
    let norm = one_norm(a);
    if norm > EXPM_MAX_NORM {
        return Err(GuardError::TooLarge {
            what: what.into(),
            measure: "1-norm",
            value: norm,
            limit: EXPM_MAX_NORM,
            routine: "matrix exponential (scaling and squaring)",
        });
    }
    Ok(())
}

/// Admits `a` for an eigen-solver: finite with entries at most
/// [`MAX_ENTRY`] in magnitude.
pub fn bounded_entries(what: &str, a: &DMatrix<f64>) -> Result<(), GuardError> {
    finite(what, a)?;
    let top = a.amax();
    if top > MAX_ENTRY {
        return Err(GuardError::TooLarge {
            what: what.into(),
            measure: "largest entry",
            value: top,
            limit: MAX_ENTRY,
            routine: "eigen-solver",
        });
    }
    Ok(())
}

/// The eigenvalues of the symmetric matrix `a` (its lower triangle is
/// read), by nalgebra's implicit QR with an iteration bound, after
/// [`bounded_entries`].
pub fn symmetric_eigenvalues(what: &str, a: DMatrix<f64>) -> Result<DVector<f64>, GuardError> {
    bounded_entries(what, &a)?;
    SymmetricEigen::try_new(a, f64::EPSILON, EIGEN_MAX_ITERATIONS)
        .map(|e| e.eigenvalues)
        .ok_or_else(|| GuardError::NoConvergence { what: what.into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expm_guard_refuses_a_finite_matrix_whose_powers_overflow() {
        let a = DMatrix::from_row_slice(2, 2, &[0.0, 1e308, 0.0, -1.0]);
        let err = bounded_for_expm("the generator", &a).expect_err("too large");
        assert!(matches!(err, GuardError::TooLarge { value, .. } if value == 1e308));
        assert!(err.to_string().contains("matrix exponential"), "{err}");
        let ok = DMatrix::from_row_slice(2, 2, &[0.0, 1e29, -1.0, -1.0]);
        bounded_for_expm("ok", &ok).expect("admitted");
        // An admitted matrix at the bound goes through exp in finite time
        // (about 100 squarings; accuracy is another matter).
        let at_bound = DMatrix::from_row_slice(2, 2, &[-1e30, 0.0, 0.0, -1.0]);
        bounded_for_expm("bound", &at_bound).expect("admitted");
        let e = at_bound.exp();
        assert!(e.iter().all(|v| v.is_finite()), "{e}");
    }

    #[test]
    fn non_finite_entries_are_refused() {
        let a = DMatrix::from_row_slice(1, 1, &[f64::NAN]);
        assert!(matches!(
            bounded_for_expm("x", &a),
            Err(GuardError::NotFinite { .. })
        ));
        assert!(matches!(
            symmetric_eigenvalues("x", a),
            Err(GuardError::NotFinite { .. })
        ));
    }

    #[test]
    fn symmetric_eigenvalues_match_a_closed_form_and_refuse_huge_entries() {
        let a = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let mut e: Vec<f64> = symmetric_eigenvalues("a", a)
            .expect("ok")
            .iter()
            .copied()
            .collect();
        e.sort_by(f64::total_cmp);
        assert!(
            (e[0] - 1.0).abs() < 1e-14 && (e[1] - 3.0).abs() < 1e-14,
            "{e:?}"
        );
        let huge = DMatrix::from_row_slice(2, 2, &[1e300, 1e300, 1e300, 1.0]);
        assert!(matches!(
            symmetric_eigenvalues("huge", huge),
            Err(GuardError::TooLarge { .. })
        ));
    }
}
