//! The linear regimes of a gap system.
//!
//! For a fixed active set A = {j : d_j . x > g_j} the equation of motion
//! M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t)
//! is linear. On the augmented state w = [x, v, c, s, 1] with
//! c = cos(omega t), s = sin(omega t) it is the autonomous system w' = 𝒜_A w,
//!
//! ```text
//!        | 0          I          0        0       0                      |
//!        | -M⁻¹K_A    -M⁻¹C      M⁻¹F     0       M⁻¹ sum_A k_j g_j d_j  |
//!  𝒜_A = | 0          0          0        -omega  0                      |
//!        | 0          0          omega    0       0                      |
//!        | 0          0          0        0       0                      |
//! ```
//!
//! with K_A = K + sum_A k_j d_j d_jᵀ, so that w(t + h) = expm(𝒜_A h) w(t)
//! exactly, whatever the spectrum (singular K, undamped resonance, constant
//! terms): no particular solution is ever needed (Van Loan, "Computing
//! integrals involving the matrix exponential", IEEE TAC 23 (1978), the
//! augmented-matrix device). The matrix exponential is nalgebra's
//! `DMatrix::exp`, the scaling-and-squaring Padé method of Al-Mohy & Higham,
//! SIAM J. Matrix Anal. Appl. 31 (2009) 970-989 (a port of SciPy's `expm`).

use nalgebra::{DMatrix, DVector, Schur};

use crate::error::SolverError;
use crate::problem::GapSystem;
use crate::sparse::to_dense;

use super::options::METHOD;

/// The system in the dense form every regime is built from (computed once).
#[derive(Debug, Clone)]
pub(super) struct PreparedSystem {
    /// Degrees of freedom n.
    pub n: usize,
    /// Forcing frequency omega [rad/s].
    pub omega: f64,
    minv_k: DMatrix<f64>,
    minv_c: DMatrix<f64>,
    minv_f: DVector<f64>,
    /// M⁻¹ d_j, one per gap spring.
    minv_d: Vec<DVector<f64>>,
    /// Dense d_j, one per gap spring.
    pub directions: Vec<DVector<f64>>,
    /// g_j.
    pub gaps: Vec<f64>,
    /// k_j.
    pub stiffness: Vec<f64>,
    /// Row vectors ℓ_j of the openings on the augmented state: ℓ_j . w = d_j . x - g_j.
    pub openings: Vec<DVector<f64>>,
}

fn invalid(message: String) -> SolverError {
    SolverError::other(METHOD, message)
}

fn check_square(name: &str, rows: usize, cols: usize, n: usize) -> Result<(), SolverError> {
    if rows != n || cols != n {
        return Err(invalid(format!(
            "{name} is {rows} x {cols}, expected {n} x {n}"
        )));
    }
    Ok(())
}

impl PreparedSystem {
    /// Checks the dimensions and finiteness of `system` and forms M⁻¹K, M⁻¹C, M⁻¹F, M⁻¹d_j.
    pub fn new(system: &GapSystem) -> Result<Self, SolverError> {
        let n = system.dofs();
        if n == 0 {
            return Err(invalid("the system has no degrees of freedom".to_string()));
        }
        check_square("mass matrix M", system.mass.rows(), system.mass.cols(), n)?;
        check_square(
            "damping matrix C",
            system.damping.rows(),
            system.damping.cols(),
            n,
        )?;
        check_square(
            "stiffness matrix K",
            system.stiffness.rows(),
            system.stiffness.cols(),
            n,
        )?;
        let springs = &system.springs;
        let m = springs.gaps.len();
        if springs.stiffness.len() != m || springs.directions.rows() != m {
            return Err(invalid(format!(
                "gap springs: {} gaps, {} stiffnesses and {} direction rows must agree",
                m,
                springs.stiffness.len(),
                springs.directions.rows()
            )));
        }
        if m > 0 && springs.directions.cols() != n {
            return Err(invalid(format!(
                "gap directions have {} columns, expected n = {n}",
                springs.directions.cols()
            )));
        }
        if system.excitation.amplitude.len() != n {
            return Err(invalid(format!(
                "excitation amplitude has length {}, expected n = {n}",
                system.excitation.amplitude.len()
            )));
        }
        let mass = to_dense(&system.mass);
        let damping = to_dense(&system.damping);
        let stiffness = to_dense(&system.stiffness);
        let dense_d = if m > 0 {
            to_dense(&springs.directions)
        } else {
            DMatrix::zeros(0, n)
        };
        let omega = system.excitation.omega;
        let finite = mass
            .iter()
            .chain(damping.iter())
            .chain(stiffness.iter())
            .chain(dense_d.iter())
            .all(|v| v.is_finite())
            && springs
                .gaps
                .iter()
                .chain(&springs.stiffness)
                .chain(&system.excitation.amplitude)
                .all(|v| v.is_finite())
            && omega.is_finite();
        if !finite {
            return Err(invalid(
                "the system has a non-finite coefficient".to_string(),
            ));
        }
        let lu = mass.lu();
        let singular = || SolverError::Singular {
            what: format!("{METHOD}: mass matrix M"),
        };
        let minv_k = lu.solve(&stiffness).ok_or_else(singular)?;
        let minv_c = lu.solve(&damping).ok_or_else(singular)?;
        let f = DVector::from_column_slice(&system.excitation.amplitude);
        let minv_f = lu.solve(&f).ok_or_else(singular)?;
        let directions: Vec<DVector<f64>> = (0..m).map(|j| dense_d.row(j).transpose()).collect();
        let minv_d = directions
            .iter()
            .map(|d| lu.solve(d).ok_or_else(singular))
            .collect::<Result<Vec<_>, _>>()?;
        let len = 2 * n + 3;
        let openings = directions
            .iter()
            .zip(&springs.gaps)
            .map(|(d, &g)| {
                let mut ell = DVector::zeros(len);
                ell.rows_mut(0, n).copy_from(d);
                ell[2 * n + 2] = -g;
                ell
            })
            .collect();
        Ok(PreparedSystem {
            n,
            omega,
            minv_k,
            minv_c,
            minv_f,
            minv_d,
            directions,
            gaps: springs.gaps.clone(),
            stiffness: springs.stiffness.clone(),
            openings,
        })
    }

    /// Number of gap springs m.
    pub fn springs(&self) -> usize {
        self.gaps.len()
    }

    /// Length 2n + 3 of the augmented state.
    pub fn state_len(&self) -> usize {
        2 * self.n + 3
    }

    /// Augmented state [x, v, cos(omega t), sin(omega t), 1].
    pub fn augment(&self, x: &[f64], v: &[f64], t: f64) -> DVector<f64> {
        let n = self.n;
        let mut w = DVector::zeros(self.state_len());
        w.rows_mut(0, n).copy_from_slice(x);
        w.rows_mut(n, n).copy_from_slice(v);
        self.set_phase(&mut w, t);
        w
    }

    /// Writes the exact forcing phase (cos, sin, 1) at time t into w.
    pub fn set_phase(&self, w: &mut DVector<f64>, t: f64) {
        let n = self.n;
        let (s, c) = (self.omega * t).sin_cos();
        w[2 * n] = c;
        w[2 * n + 1] = s;
        w[2 * n + 2] = 1.0;
    }

    /// Opening y_j = d_j . x - g_j of the augmented state w.
    pub fn opening(&self, j: usize, w: &DVector<f64>) -> f64 {
        self.openings[j].dot(w)
    }

    /// Gap-spring forces k_j max(0, y_j) of the augmented state w.
    pub fn forces(&self, w: &DVector<f64>) -> Vec<f64> {
        (0..self.springs())
            .map(|j| self.stiffness[j] * self.opening(j, w).max(0.0))
            .collect()
    }

    /// The generator 𝒜_A of the regime with active set `active`.
    pub fn generator(&self, active: &[bool]) -> DMatrix<f64> {
        let n = self.n;
        let len = self.state_len();
        let mut a = DMatrix::zeros(len, len);
        a.view_mut((0, n), (n, n)).fill_with_identity();
        let mut minv_ka = -&self.minv_k;
        let mut constant = DVector::zeros(n);
        for (j, _) in active.iter().enumerate().filter(|(_, on)| **on) {
            let k = self.stiffness[j];
            // -M⁻¹ k_j d_j d_jᵀ and + M⁻¹ k_j g_j d_j
            minv_ka.ger(-k, &self.minv_d[j], &self.directions[j], 1.0);
            constant.axpy(k * self.gaps[j], &self.minv_d[j], 1.0);
        }
        a.view_mut((n, 0), (n, n)).copy_from(&minv_ka);
        a.view_mut((n, n), (n, n)).copy_from(&(-&self.minv_c));
        a.view_mut((n, 2 * n), (n, 1)).copy_from(&self.minv_f);
        a.view_mut((n, 2 * n + 2), (n, 1)).copy_from(&constant);
        a[(2 * n, 2 * n + 1)] = -self.omega;
        a[(2 * n + 1, 2 * n)] = self.omega;
        a
    }
}

/// expm(a), refusing non-finite input or output.
///
/// nalgebra's `exp` unwraps the LU solve of its Padé denominator; for finite
/// input the denominator of the degree it selects is well conditioned
/// (Al-Mohy & Higham 2009, Sec. 3), so the finiteness check is what keeps it
/// from panicking.
pub(super) fn expm(a: &DMatrix<f64>) -> Result<DMatrix<f64>, SolverError> {
    crate::guard::bounded_for_expm("the matrix exponential's argument", a)
        .map_err(|e| invalid(e.to_string()))?;
    let e = a.exp();
    if !e.iter().all(|v| v.is_finite()) {
        return Err(invalid(
            "the matrix exponential overflowed (step too long for the regime's growth rate)"
                .to_string(),
        ));
    }
    Ok(e)
}

/// One linear regime: its generator, time scale and cached sample-step exponential.
#[derive(Debug, Clone)]
pub(super) struct Regime {
    /// The active set A (engaged springs).
    pub active: Vec<bool>,
    /// 𝒜_A.
    pub generator: DMatrix<f64>,
    /// 𝒜_A².
    pub generator_sq: DMatrix<f64>,
    /// Shortest period 2 pi / rho of the regime, rho = spectral radius of 𝒜_A
    /// (which includes omega); 1 s when rho = 0.
    pub time_scale: f64,
    /// Sampling step h_A = time_scale / samples_per_period.
    pub step: f64,
    /// expm(𝒜_A h_A), cached.
    pub step_transition: DMatrix<f64>,
}

impl Regime {
    /// Builds the regime of `active`, sampled `samples_per_period` times per shortest period.
    pub fn new(
        prepared: &PreparedSystem,
        active: &[bool],
        samples_per_period: usize,
    ) -> Result<Self, SolverError> {
        let generator = prepared.generator(active);
        crate::guard::bounded_for_expm("the regime generator", &generator).map_err(|e| {
            invalid(format!(
                "{e}: a coefficient or forcing amplitude is too large (check the magnitudes of the mass, damping, stiffness, gap stiffness and forcing)"
            ))
        })?;
        let generator_sq = &generator * &generator;
        let schur = Schur::try_new(generator.clone(), f64::EPSILON, 100_000).ok_or_else(|| {
            invalid("eigenvalues of a regime generator did not converge".to_string())
        })?;
        let rho = schur
            .complex_eigenvalues()
            .iter()
            .map(|z| z.norm())
            .fold(0.0, f64::max);
        let time_scale = if rho > 0.0 && rho.is_finite() {
            2.0 * std::f64::consts::PI / rho
        } else {
            1.0
        };
        let step = time_scale / samples_per_period as f64;
        let step_transition = expm(&(&generator * step))?;
        Ok(Regime {
            active: active.to_vec(),
            generator,
            generator_sq,
            time_scale,
            step,
            step_transition,
        })
    }

    /// expm(𝒜_A tau).
    pub fn transition(&self, tau: f64) -> Result<DMatrix<f64>, SolverError> {
        expm(&(&self.generator * tau))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_dof() -> GapSystem {
        crate::fixtures::gap::two_dof(1.3)
    }

    /// M⁻¹ (F cos wt - C v - K x - Dᵀ k max(0, D x - g)), evaluated directly.
    fn acceleration(system: &GapSystem, x: &[f64], v: &[f64], t: f64) -> Vec<f64> {
        let n = x.len();
        let mut rhs = system.excitation.at(t);
        let (c, k) = (to_dense(&system.damping), to_dense(&system.stiffness));
        for i in 0..n {
            for j in 0..n {
                rhs[i] -= c[(i, j)] * v[j] + k[(i, j)] * x[j];
            }
        }
        let f: Vec<f64> = system.springs.forces(x).iter().map(|f| -f).collect();
        system.springs.add_transposed(&f, &mut rhs);
        let m = to_dense(&system.mass);
        m.lu()
            .solve(&DVector::from_vec(rhs))
            .map(|a| a.iter().copied().collect())
            .unwrap_or_default()
    }

    #[test]
    fn generator_reproduces_the_equation_of_motion_in_each_regime() {
        let system = two_dof();
        let prepared = PreparedSystem::new(&system).unwrap();
        let t = 0.7;
        // states in all four regimes: (y0, y1) signs
        for x in [[0.0, 0.0], [0.5, 0.2], [-0.2, 0.4], [0.6, 1.2]] {
            let v = [0.3, -0.8];
            let w = prepared.augment(&x, &v, t);
            let active: Vec<bool> = (0..2).map(|j| prepared.opening(j, &w) > 0.0).collect();
            let dw = prepared.generator(&active) * &w;
            let a = acceleration(&system, &x, &v, t);
            assert_eq!(a.len(), 2);
            for i in 0..2 {
                assert!((dw[i] - v[i]).abs() < 1e-15);
                assert!(
                    (dw[2 + i] - a[i]).abs() < 1e-14,
                    "x = {x:?}: {} vs {}",
                    dw[2 + i],
                    a[i]
                );
            }
            // phase derivatives: c' = -w s, s' = w c
            assert!((dw[4] + 1.3 * (1.3 * t).sin()).abs() < 1e-15);
            assert!((dw[5] - 1.3 * (1.3 * t).cos()).abs() < 1e-15);
            assert_eq!(dw[6], 0.0);
        }
    }

    #[test]
    fn regime_step_is_a_fraction_of_the_shortest_period() {
        let system = two_dof();
        let prepared = PreparedSystem::new(&system).unwrap();
        let open = Regime::new(&prepared, &[false, false], 64).unwrap();
        let closed = Regime::new(&prepared, &[true, true], 64).unwrap();
        assert!(
            closed.time_scale < open.time_scale,
            "engaging springs stiffens the regime"
        );
        assert!((open.step * 64.0 - open.time_scale).abs() < 1e-15 * open.time_scale);
        // shortest period is at most the forcing period
        assert!(open.time_scale <= 2.0 * std::f64::consts::PI / 1.3 + 1e-12);
        let e = open.transition(open.step).unwrap();
        assert!((&e - &open.step_transition).amax() == 0.0);
    }

    #[test]
    fn dimension_mismatches_are_errors() {
        let mut system = two_dof();
        system.springs.gaps.pop();
        assert!(PreparedSystem::new(&system).is_err());
        let mut system = two_dof();
        system.excitation.amplitude.push(1.0);
        assert!(PreparedSystem::new(&system).is_err());
        let mut system = two_dof();
        system.excitation.omega = f64::NAN;
        assert!(PreparedSystem::new(&system).is_err());
    }
}
