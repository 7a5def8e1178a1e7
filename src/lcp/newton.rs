//! Semi-smooth Newton methods for LCP(M, q), written as Phi(z) = 0 with a
//! complementarity function applied componentwise to (z_i, w_i), w = M z + q:
//!
//! * `min`: Phi_i = min(z_i, w_i) (Pang 1990; Harker & Pang 1990). An
//!   element of the B-subdifferential has row e_i where z_i <= w_i and row
//!   M_i otherwise (an active-set Newton step).
//! * Fischer-Burmeister: Phi_i = sqrt(z_i^2 + w_i^2) - z_i - w_i, generalised
//!   Jacobian J = D_a + D_b M with a_i = z_i / r_i - 1, b_i = w_i / r_i - 1,
//!   r_i = ||(z_i, w_i)||, and at r_i = 0 the choice of De Luca, Facchinei &
//!   Kanzow (Math. Prog. 75, 1996, p. 407): zeta = indicator of those i,
//!   a_i = zeta_i / ||(zeta_i, (M zeta)_i)|| - 1, b_i likewise.
//!
//! Both globalise with an Armijo line search on the merit
//! Psi = 0.5 ||Phi||^2: Psi(z + s d) <= Psi(z) + sigma s grad Psi . d,
//! grad Psi = J^T Phi (exact for FB, where Psi is C^1; for min it is the
//! gradient on the piece J belongs to). The Newton direction solves
//! J d = -Phi; when J is singular or d is not a sufficient descent direction
//! (grad Psi . d > -rho ||d||^p, DFK 1996) or its line search fails, a
//! steepest-descent step d = -grad Psi is taken instead. Dense LU with
//! partial pivoting: nalgebra for n <= 16, faer above. Stops when the shared
//! residual [`Lcp::residual`] <= tol. Once the residual is below 1e-6, a
//! full min-Newton (active-set) step is tried each iteration and kept when
//! it meets the tolerance, so FB ends at round-off instead of crawling
//! towards degenerate solutions.

use crate::lcp::Lcp;
use nalgebra::{DMatrix, DVector};

/// Which complementarity function Phi the Newton method zeroes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Complementarity {
    /// Phi_i = min(z_i, w_i).
    Min,
    /// Phi_i = sqrt(z_i^2 + w_i^2) - z_i - w_i.
    FischerBurmeister,
}

/// Parameters of [`newton`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonParams {
    /// Newton (or gradient) step limit.
    pub max_iterations: usize,
    /// Stop when [`Lcp::residual`] <= tol.
    pub tol: f64,
    /// Armijo constant sigma in (0, 1/2).
    pub armijo: f64,
    /// Step halvings before a line search gives up.
    pub max_backtracks: usize,
    /// Sufficient-descent constant rho of DFK 1996.
    pub descent_rho: f64,
    /// Sufficient-descent exponent p > 2 of DFK 1996.
    pub descent_p: f64,
}

impl Default for NewtonParams {
    fn default() -> Self {
        Self {
            max_iterations: 200,
            tol: 1e-12,
            armijo: 1e-4,
            max_backtracks: 50,
            descent_rho: 1e-10,
            descent_p: 2.1,
        }
    }
}

/// A converged Newton run.
#[derive(Debug, Clone, PartialEq)]
pub struct NewtonInfo {
    /// The solution.
    pub z: Vec<f64>,
    /// Steps done (Newton and gradient).
    pub iterations: usize,
    /// How many of them were steepest-descent steps.
    pub gradient_steps: usize,
    /// [`Lcp::residual`] of `z`.
    pub residual: f64,
}

/// Why the Newton method stopped without a solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NewtonError {
    /// The iteration limit was reached.
    #[error(
        "semi-smooth Newton: not converged after {iterations} iterations (residual {residual:e})"
    )]
    NotConverged {
        /// Steps done.
        iterations: usize,
        /// Residual of the last iterate.
        residual: f64,
        /// The last iterate.
        z: Vec<f64>,
    },
    /// Neither the Newton nor the gradient direction decreases the merit
    /// (a stationary point of Psi that is not a solution).
    #[error(
        "semi-smooth Newton: line search failed at iteration {iterations} (residual {residual:e})"
    )]
    LineSearchFailed {
        /// Steps done.
        iterations: usize,
        /// Residual of the last iterate.
        residual: f64,
        /// The last iterate.
        z: Vec<f64>,
    },
    /// M is not n x n for the n of q, or the warm start has the wrong length.
    #[error("semi-smooth Newton: dimension mismatch ({0})")]
    DimensionMismatch(String),
    /// M or q contains NaN or infinity.
    #[error("semi-smooth Newton: M or q contains a non-finite number")]
    NonFiniteInput,
}

/// Semi-smooth Newton on Phi = min(z, w).
pub fn newton_min(
    lcp: &Lcp,
    params: &NewtonParams,
    warm_start: Option<&[f64]>,
) -> Result<NewtonInfo, NewtonError> {
    newton(lcp, Complementarity::Min, params, warm_start)
}

/// Semi-smooth Newton on the Fischer-Burmeister function.
pub fn newton_fb(
    lcp: &Lcp,
    params: &NewtonParams,
    warm_start: Option<&[f64]>,
) -> Result<NewtonInfo, NewtonError> {
    newton(lcp, Complementarity::FischerBurmeister, params, warm_start)
}

/// Semi-smooth Newton with line search on the chosen Phi, from
/// `warm_start` (or z = 0); see the module doc.
pub fn newton(
    lcp: &Lcp,
    phi_kind: Complementarity,
    params: &NewtonParams,
    warm_start: Option<&[f64]>,
) -> Result<NewtonInfo, NewtonError> {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return Err(NewtonError::DimensionMismatch(format!(
            "M is {} x {}, q has length {n}",
            lcp.m.nrows(),
            lcp.m.ncols()
        )));
    }
    if !lcp.m.iter().chain(lcp.q.iter()).all(|v| v.is_finite()) {
        return Err(NewtonError::NonFiniteInput);
    }
    let mut z = match warm_start {
        Some(z0) if z0.len() == n => DVector::from_column_slice(z0),
        Some(z0) => {
            return Err(NewtonError::DimensionMismatch(format!(
                "warm start has length {}, expected {n}",
                z0.len()
            )));
        }
        None => DVector::zeros(n),
    };
    if !z.iter().all(|v| v.is_finite()) {
        z.fill(0.0);
    }
    let mut w = lcp.w(z.as_slice());
    let mut phi = phi_vector(phi_kind, &z, &w);
    let mut gradient_steps = 0;
    let mut jac = DMatrix::zeros(n, n);
    for iteration in 0..params.max_iterations {
        let residual = lcp.residual(z.as_slice());
        if residual <= params.tol {
            return Ok(NewtonInfo {
                z: z.iter().copied().collect(),
                iterations: iteration,
                gradient_steps,
                residual,
            });
        }
        if phi_kind == Complementarity::FischerBurmeister
            && residual <= POLISH_BELOW
            && let Some(polished) = active_set_step(lcp, &z, &w, &mut jac)
        {
            let r = lcp.residual(polished.as_slice());
            if r <= params.tol {
                return Ok(NewtonInfo {
                    z: polished.iter().copied().collect(),
                    iterations: iteration + 1,
                    gradient_steps,
                    residual: r,
                });
            }
        }
        jacobian(phi_kind, lcp, &z, &w, &mut jac);
        let merit = 0.5 * phi.norm_squared();
        let grad = jac.tr_mul(&phi);
        let newton_dir = solve_dense(&jac, &(-&phi))
            .filter(|d| grad.dot(d) <= -params.descent_rho * d.norm().powf(params.descent_p));
        let mut step = None;
        if let Some(d) = &newton_dir {
            step = line_search(lcp, phi_kind, params, &z, d, merit, grad.dot(d));
        }
        if step.is_none() {
            let d = -&grad;
            step = line_search(lcp, phi_kind, params, &z, &d, merit, -grad.norm_squared());
            gradient_steps += 1;
        }
        let Some((z_new, w_new, phi_new)) = step else {
            return Err(NewtonError::LineSearchFailed {
                iterations: iteration,
                residual,
                z: z.iter().copied().collect(),
            });
        };
        z = z_new;
        w = w_new;
        phi = phi_new;
    }
    let residual = lcp.residual(z.as_slice());
    if residual <= params.tol {
        return Ok(NewtonInfo {
            z: z.iter().copied().collect(),
            iterations: params.max_iterations,
            gradient_steps,
            residual,
        });
    }
    Err(NewtonError::NotConverged {
        iterations: params.max_iterations,
        residual,
        z: z.iter().copied().collect(),
    })
}

/// Residual below which a full active-set step is tried (see
/// [`active_set_step`]).
const POLISH_BELOW: f64 = 1e-6;

/// The full min-Newton step from z: with the active set {z_i <= w_i} it
/// solves z_i = 0 there and w_i = 0 elsewhere. Near a solution whose active
/// set is identified this lands on it to round-off (finite termination).
fn active_set_step(
    lcp: &Lcp,
    z: &DVector<f64>,
    w: &DVector<f64>,
    jac: &mut DMatrix<f64>,
) -> Option<DVector<f64>> {
    jacobian(Complementarity::Min, lcp, z, w, jac);
    let phi = phi_vector(Complementarity::Min, z, w);
    let d = solve_dense(jac, &(-phi))?;
    Some((z + d).map(|v| v.max(0.0)))
}

/// Backtracking (halving) Armijo search along d; returns the new z, w, Phi.
fn line_search(
    lcp: &Lcp,
    phi_kind: Complementarity,
    params: &NewtonParams,
    z: &DVector<f64>,
    d: &DVector<f64>,
    merit: f64,
    slope: f64,
) -> Option<(DVector<f64>, DVector<f64>, DVector<f64>)> {
    // `slope` may be NaN: only a finite negative slope is a descent.
    if slope.is_nan() || slope >= 0.0 || !d.iter().all(|v| v.is_finite()) {
        return None;
    }
    let mut s = 1.0;
    for _ in 0..=params.max_backtracks {
        let z_new = z + d * s;
        let w_new = lcp.w(z_new.as_slice());
        let phi_new = phi_vector(phi_kind, &z_new, &w_new);
        let merit_new = 0.5 * phi_new.norm_squared();
        if merit_new <= merit + params.armijo * s * slope {
            return Some((z_new, w_new, phi_new));
        }
        s *= 0.5;
    }
    None
}

/// Phi(z) componentwise.
fn phi_vector(kind: Complementarity, z: &DVector<f64>, w: &DVector<f64>) -> DVector<f64> {
    DVector::from_iterator(
        z.len(),
        z.iter().zip(w.iter()).map(|(&a, &b)| match kind {
            Complementarity::Min => a.min(b),
            Complementarity::FischerBurmeister => a.hypot(b) - a - b,
        }),
    )
}

/// An element of the generalised Jacobian of Phi at z (see the module doc).
fn jacobian(
    kind: Complementarity,
    lcp: &Lcp,
    z: &DVector<f64>,
    w: &DVector<f64>,
    jac: &mut DMatrix<f64>,
) {
    let n = z.len();
    // J = diag(a) + diag(b) M, filled column by column (column-major).
    let mut a = vec![0.0; n];
    let mut b = vec![0.0; n];
    match kind {
        Complementarity::Min => {
            for i in 0..n {
                if z[i] <= w[i] {
                    a[i] = 1.0;
                } else {
                    b[i] = 1.0;
                }
            }
        }
        Complementarity::FischerBurmeister => {
            let degenerate: Vec<bool> = z
                .iter()
                .zip(w.iter())
                .map(|(&zi, &wi)| zi.hypot(wi) <= 1e-300)
                .collect();
            let m_zeta = if degenerate.iter().any(|&d| d) {
                let zeta =
                    DVector::from_iterator(n, degenerate.iter().map(|&d| f64::from(u8::from(d))));
                &lcp.m * zeta
            } else {
                DVector::zeros(n)
            };
            for i in 0..n {
                (a[i], b[i]) = if degenerate[i] {
                    let r = 1.0f64.hypot(m_zeta[i]);
                    (1.0 / r - 1.0, m_zeta[i] / r - 1.0)
                } else {
                    let r = z[i].hypot(w[i]);
                    (z[i] / r - 1.0, w[i] / r - 1.0)
                };
            }
        }
    }
    for (j, (jcol, mcol)) in jac
        .as_mut_slice()
        .chunks_exact_mut(n)
        .zip(lcp.m.as_slice().chunks_exact(n))
        .enumerate()
    {
        for ((jij, &mij), &bi) in jcol.iter_mut().zip(mcol).zip(&b) {
            *jij = bi * mij;
        }
        jcol[j] += a[j];
    }
}

/// Solves J x = rhs by LU with partial pivoting (nalgebra for n <= 16, faer
/// above); `None` when J is numerically singular.
pub(crate) fn solve_dense(jac: &DMatrix<f64>, rhs: &DVector<f64>) -> Option<DVector<f64>> {
    let n = rhs.len();
    let x = if n <= 16 {
        jac.clone().lu().solve(rhs)?
    } else {
        use faer::linalg::solvers::Solve;
        let a = faer::MatRef::from_column_major_slice(jac.as_slice(), n, n);
        let mut x = rhs.clone();
        a.partial_piv_lu()
            .solve_in_place(faer::MatMut::from_column_major_slice_mut(
                x.as_mut_slice(),
                n,
                1,
            ));
        x
    };
    if !x.iter().all(|v| v.is_finite()) {
        return None;
    }
    // Reject the solve of a singular matrix: its residual is not small.
    let check = jac * &x - rhs;
    let scale = rhs.norm() + jac.norm() * x.norm();
    (check.norm() <= 1e-8 * scale.max(f64::MIN_POSITIVE)).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
        Lcp::new(
            DMatrix::from_row_slice(n, n, m_row_major),
            DVector::from_column_slice(q),
        )
        .unwrap()
    }

    #[test]
    fn min_newton_solves_a_p_matrix_problem_in_few_steps() {
        let p = lcp(
            3,
            &[4.0, -1.0, 0.5, -1.0, 4.0, -1.0, 0.0, -1.0, 4.0],
            &[-1.0, 2.0, -3.0],
        );
        let info = newton_min(&p, &NewtonParams::default(), None).unwrap();
        assert!(info.residual <= 1e-12);
        assert!(info.iterations <= 5, "{} iterations", info.iterations);
    }

    #[test]
    fn fischer_burmeister_solves_a_p_matrix_problem() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = newton_fb(&p, &NewtonParams::default(), None).unwrap();
        assert!(info.residual <= 1e-12);
        assert!((info.z[1] - 7.0 / 3.0).abs() < 1e-10);
    }

    #[test]
    fn fischer_burmeister_handles_the_degenerate_point_z_w_zero() {
        // At z = 0, w = q = 0 in the first component: r_1 = 0.
        let p = lcp(2, &[1.0, 0.0, 0.0, 1.0], &[0.0, -1.0]);
        let info = newton_fb(&p, &NewtonParams::default(), None).unwrap();
        assert!(info.residual <= 1e-12, "{info:?}");
    }

    #[test]
    fn warm_start_at_the_solution_needs_no_step() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = newton_min(&p, &NewtonParams::default(), Some(&[4.0 / 3.0, 7.0 / 3.0])).unwrap();
        assert_eq!(info.iterations, 0);
    }

    #[test]
    fn infeasible_problem_is_not_reported_as_solved() {
        let p = lcp(1, &[-1.0], &[-1.0]);
        for kind in [Complementarity::Min, Complementarity::FischerBurmeister] {
            assert!(newton(&p, kind, &NewtonParams::default(), None).is_err());
        }
    }

    #[test]
    fn large_systems_use_the_faer_path() {
        // n = 20 > 16: tridiagonal M-matrix.
        let n = 20;
        let mut m = DMatrix::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 3.0;
            if i + 1 < n {
                m[(i, i + 1)] = -1.0;
                m[(i + 1, i)] = -1.0;
            }
        }
        let q = DVector::from_fn(n, |i, _| if i % 3 == 0 { 1.0 } else { -1.0 });
        let p = Lcp::new(m, q).unwrap();
        let info = newton_min(&p, &NewtonParams::default(), None).unwrap();
        assert!(info.residual <= 1e-12);
    }
}
