//! The period map of a gap system and its exact derivatives, for shooting
//! and continuation in the forcing frequency (Leine & Nijmeijer, *Dynamics
//! and Bifurcations of Non-Smooth Mechanical Systems*, 2004, Ch. 7; Seydel,
//! *Practical Bifurcation and Stability Analysis*, 3rd ed., 2010, Ch. 7).
//!
//! With z = [x, v] at t = 0 and the period T = 2 pi / omega, the period map
//! is P(z, omega) = z(T(omega); z, omega). Between switches the augmented
//! state obeys w' = 𝒜_A(omega) w, so over an interval of length h
//!
//! - the state sensitivity is the [x, v] block of expm(𝒜_A h);
//! - the sensitivity to omega at fixed t, s = dw/domega, obeys
//!   s' = 𝒜_A s + E w with E = d𝒜/domega (only the phase rotation: the
//!   (c, s) block [[0, -1], [1, 0]]), so s(h) = expm(𝒜 h) s(0) + Γ(h) w(0),
//!   Γ(h) = int_0^h expm(𝒜 (h - σ)) E expm(𝒜 σ) dσ, read off the block
//!   exponential expm([[𝒜, E], [0, 𝒜]] h) = [[expm(𝒜 h), Γ], [0, expm(𝒜 h)]]
//!   (Van Loan, IEEE TAC 23 (1978) 395-404). The phase part of s is known
//!   exactly, d(cos omega t, sin omega t)/domega = t (-sin, cos), and is
//!   rewritten at every interval end.
//!
//! At a switch of spring j (surface h(z) = d_j . x - g_j = 0, normal
//! n = [d_j, 0]) both sensitivities jump by the saltation matrix
//! S = I + (f+ - f-) nᵀ / (nᵀ f-), f-/f+ the vector fields before and after
//! (Aizerman & Gantmakher 1958; Leine & Nijmeijer eq. 7.21; the surface does
//! not depend on omega, so the omega sensitivity jumps by the same S). The
//! gap force k_j max(0, y_j) is continuous, so f+ = f- on the surface and S
//! is the identity: it is formed at every switch all the same (at the
//! located event state, just past the root, where it differs from I by
//! k_j y_j / (nᵀ f-) = O(event tolerance)) and its largest deviation from I
//! is reported. Then
//!
//!   dP/dz = prod_intervals S_k expm(𝒜 h_k)[x, v block] = M (monodromy),
//!   dP/domega = s_z(T) + z'(T) dT/domega = s_z(T) - (T / omega) z'(T).
//!
//! [`finite_difference_jacobian`] forms both by central differences of the
//! flow map, to verify them.

use std::collections::HashMap;

use nalgebra::{DMatrix, DVector};

use crate::error::SolverError;
use crate::problem::GapSystem;

use super::engine::{Engine, Segment, SegmentObserver};
use super::options::{EventDrivenOptions, METHOD};
use super::periodic::{Extrema, forcing_period};
use super::regime::{PreparedSystem, expm};

/// The period map at one (z, omega) with its derivatives.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowJacobian {
    /// P(z, omega): the state [x, v] after one forcing period.
    pub end: DVector<f64>,
    /// dP/dz, the monodromy matrix when z is on a periodic orbit (2n x 2n).
    pub monodromy: DMatrix<f64>,
    /// dP/domega along the period T(omega) = 2 pi / omega (length 2n).
    pub d_omega: DVector<f64>,
    /// Spring switches over the period.
    pub switches: usize,
    /// Largest |S - I| entry over the switches' saltation matrices.
    pub saltation_deviation: f64,
}

/// The saltation matrix S = I + (f+ - f-) nᵀ / (nᵀ f-) of a crossing of the
/// surface with normal `normal` (gradient of the surface function), with the
/// vector fields `f_minus` before and `f_plus` after. Refuses a tangential
/// crossing (nᵀ f- = 0: grazing, where S is not defined).
pub fn saltation(
    f_minus: &DVector<f64>,
    f_plus: &DVector<f64>,
    normal: &DVector<f64>,
) -> Result<DMatrix<f64>, SolverError> {
    let rate = normal.dot(f_minus);
    if rate == 0.0 || !rate.is_finite() {
        return Err(SolverError::other(
            METHOD,
            "a switch with zero crossing speed (grazing): the saltation matrix is not defined",
        ));
    }
    let k = f_minus.len();
    Ok(DMatrix::identity(k, k) + (f_plus - f_minus) * normal.transpose() / rate)
}

/// Accumulates the monodromy and the omega sensitivity interval by interval.
struct Variational {
    n: usize,
    omega: f64,
    monodromy: DMatrix<f64>,
    /// dw/domega at fixed t (length 2n + 3).
    sens: DVector<f64>,
    /// 𝒜 w at the end of the previous interval and its active set.
    previous: Option<(DVector<f64>, Vec<bool>)>,
    /// Γ of the sample step, per active set.
    gamma_cache: HashMap<Vec<bool>, (f64, DMatrix<f64>)>,
    /// z'(T) = (𝒜 w)[x, v] at the last interval end.
    end_rate: DVector<f64>,
    switches: usize,
    saltation_deviation: f64,
}

impl Variational {
    fn new(n: usize, omega: f64) -> Self {
        Variational {
            n,
            omega,
            monodromy: DMatrix::identity(2 * n, 2 * n),
            sens: DVector::zeros(2 * n + 3),
            previous: None,
            gamma_cache: HashMap::new(),
            end_rate: DVector::zeros(2 * n),
            switches: 0,
            saltation_deviation: 0.0,
        }
    }

    /// Γ(h) of the regime: the upper-right block of expm([[𝒜, E], [0, 𝒜]] h).
    fn gamma(&mut self, segment: &Segment<'_>) -> Result<DMatrix<f64>, SolverError> {
        let regime = segment.regime;
        if let Some((h, g)) = self.gamma_cache.get(&regime.active)
            && *h == segment.h
        {
            return Ok(g.clone());
        }
        let len = 2 * self.n + 3;
        let mut block = DMatrix::zeros(2 * len, 2 * len);
        let a = &regime.generator * segment.h;
        block.view_mut((0, 0), (len, len)).copy_from(&a);
        block.view_mut((len, len), (len, len)).copy_from(&a);
        let (c, s) = (2 * self.n, 2 * self.n + 1);
        block[(c, len + s)] = -segment.h;
        block[(s, len + c)] = segment.h;
        let e = expm(&block)?;
        let g = e.view((0, len), (len, len)).into_owned();
        if segment.h == regime.step {
            self.gamma_cache
                .insert(regime.active.clone(), (segment.h, g.clone()));
        }
        Ok(g)
    }

    /// Applies the saltation matrix of every spring that switched between
    /// the previous interval and this one (in index order).
    fn switch(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        let Some((f_minus_full, before)) = self.previous.take() else {
            return Ok(());
        };
        let k = 2 * self.n;
        let mut f_minus = f_minus_full.rows(0, k).into_owned();
        let mut active = before;
        for j in 0..active.len() {
            if active[j] == segment.regime.active[j] {
                continue;
            }
            active[j] = !active[j];
            let f_plus = (prepared.generator(&active) * segment.w0)
                .rows(0, k)
                .into_owned();
            let mut normal = DVector::zeros(k);
            normal
                .rows_mut(0, self.n)
                .copy_from(&prepared.directions[j]);
            let s = saltation(&f_minus, &f_plus, &normal)?;
            let deviation = (&s - DMatrix::identity(k, k)).amax();
            self.saltation_deviation = self.saltation_deviation.max(deviation);
            self.monodromy = &s * &self.monodromy;
            let sz = &s * self.sens.rows(0, k);
            self.sens.rows_mut(0, k).copy_from(&sz);
            self.switches += 1;
            f_minus = f_plus;
        }
        Ok(())
    }
}

impl SegmentObserver for Variational {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        self.switch(segment, prepared)?;
        let k = 2 * self.n;
        let gamma = self.gamma(segment)?;
        self.sens = segment.transition * &self.sens + gamma * segment.w0;
        let (sin, cos) = (self.omega * segment.t1).sin_cos();
        self.sens[k] = -segment.t1 * sin;
        self.sens[k + 1] = segment.t1 * cos;
        self.sens[k + 2] = 0.0;
        self.monodromy = segment.transition.view((0, 0), (k, k)) * &self.monodromy;
        self.end_rate = segment.dw1.rows(0, k).into_owned();
        self.previous = Some((segment.dw1.clone(), segment.regime.active.clone()));
        Ok(())
    }
}

/// Both observers of a pass that also wants the extrema.
struct WithExtrema<'a> {
    variational: &'a mut Variational,
    extrema: &'a mut Extrema,
}

impl SegmentObserver for WithExtrema<'_> {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        self.variational.observe(segment, prepared)?;
        self.extrema.observe(segment, prepared)
    }
}

/// Extremes of each x_i over the period (largest, smallest), per DOF.
pub type PeriodExtremes = (Vec<f64>, Vec<f64>);

fn state_parts(z: &DVector<f64>, n: usize) -> Result<(Vec<f64>, Vec<f64>), SolverError> {
    if z.len() != 2 * n {
        return Err(SolverError::other(
            METHOD,
            format!("state of length {}, expected 2n = {}", z.len(), 2 * n),
        ));
    }
    Ok((
        z.rows(0, n).iter().copied().collect(),
        z.rows(n, n).iter().copied().collect(),
    ))
}

/// P(z, omega) and its exact derivatives for `system` at its own omega
/// (see the module doc); with `extremes`, also the extremes of every x_i
/// over the period.
pub fn flow_jacobian(
    system: &GapSystem,
    z: &DVector<f64>,
    options: &EventDrivenOptions,
    extremes: bool,
) -> Result<(FlowJacobian, Option<PeriodExtremes>), SolverError> {
    let period = forcing_period(system)?;
    let mut engine = Engine::new(system, options)?;
    let n = engine.prepared.n;
    let (x, v) = state_parts(z, n)?;
    let mut variational = Variational::new(n, engine.prepared.omega);
    let mut cursor = engine.start(&x, &v, 0.0)?;
    let found = if extremes {
        let mut extrema = Extrema::new(n, options.time_tol);
        let mut both = WithExtrema {
            variational: &mut variational,
            extrema: &mut extrema,
        };
        engine.advance(&mut cursor, period, &mut both)?;
        Some((extrema.max, extrema.min))
    } else {
        engine.advance(&mut cursor, period, &mut variational)?;
        None
    };
    let end = cursor.w.rows(0, 2 * n).into_owned();
    let omega = engine.prepared.omega;
    let d_omega = variational.sens.rows(0, 2 * n) - &variational.end_rate * (period / omega);
    Ok((
        FlowJacobian {
            end,
            monodromy: variational.monodromy,
            d_omega,
            switches: variational.switches,
            saltation_deviation: variational.saltation_deviation,
        },
        found,
    ))
}

/// P(z, omega) alone.
pub fn period_map(
    system: &GapSystem,
    z: &DVector<f64>,
    options: &EventDrivenOptions,
) -> Result<DVector<f64>, SolverError> {
    let period = forcing_period(system)?;
    let mut engine = Engine::new(system, options)?;
    let n = engine.prepared.n;
    let (x, v) = state_parts(z, n)?;
    let mut cursor = engine.start(&x, &v, 0.0)?;
    engine.advance(&mut cursor, period, &mut super::engine::NoObserver)?;
    Ok(cursor.w.rows(0, 2 * n).into_owned())
}

/// `system` forced at `omega` instead of its own frequency.
pub fn at_omega(system: &GapSystem, omega: f64) -> GapSystem {
    let mut s = system.clone();
    s.excitation.omega = omega;
    s
}

/// dP/dz and dP/domega by central differences of the flow map, with steps
/// `relative_step` (1 + |z_j|) and `relative_step` omega. The truncation
/// error is O(step^2) (the flow map is smooth away from grazing), the
/// rounding error about (rounding of P) / step.
pub fn finite_difference_jacobian(
    system: &GapSystem,
    z: &DVector<f64>,
    options: &EventDrivenOptions,
    relative_step: f64,
) -> Result<(DMatrix<f64>, DVector<f64>), SolverError> {
    let k = z.len();
    let mut jac = DMatrix::zeros(k, k);
    for j in 0..k {
        let h = relative_step * (1.0 + z[j].abs());
        let mut plus = z.clone();
        plus[j] += h;
        let mut minus = z.clone();
        minus[j] -= h;
        let column = (period_map(system, &plus, options)? - period_map(system, &minus, options)?)
            / (2.0 * h);
        jac.set_column(j, &column);
    }
    let omega = system.excitation.omega;
    let h = relative_step * omega;
    let d_omega = (period_map(&at_omega(system, omega + h), z, options)?
        - period_map(&at_omega(system, omega - h), z, options)?)
        / (2.0 * h);
    Ok((jac, d_omega))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sdof(omega: f64) -> GapSystem {
        crate::fixtures::gap::sdof(0.1, Some((0.5, 4.0)), 0.15, omega)
    }

    use crate::fixtures::gap::two_dof;

    /// The exact derivatives against central differences, on states that
    /// switch springs during the period.
    fn agrees_with_differences(system: &GapSystem, z: &[f64]) {
        let options = EventDrivenOptions::default();
        let z = DVector::from_column_slice(z);
        let (exact, _) = flow_jacobian(system, &z, &options, false).unwrap();
        assert!(exact.switches >= 2, "switches = {}", exact.switches);
        assert!(
            exact.saltation_deviation < 1e-9,
            "S - I = {}",
            exact.saltation_deviation
        );
        let (fd, fd_omega) = finite_difference_jacobian(system, &z, &options, 1e-6).unwrap();
        let scale = exact.monodromy.amax().max(1.0);
        let dm = (&exact.monodromy - &fd).amax() / scale;
        let dw = (&exact.d_omega - &fd_omega).amax() / exact.d_omega.amax().max(1.0);
        // central differences at step 1e-6: rounding of P (about 1e-14
        // relative) over the step gives about 1e-8
        assert!(dm < 1e-6, "monodromy vs differences: {dm:e}");
        assert!(dw < 1e-6, "dP/domega vs differences: {dw:e}");
        // the end state is the plain period map's
        let end = period_map(system, &z, &options).unwrap();
        assert!((&end - &exact.end).amax() == 0.0);
    }

    #[test]
    fn sdof_derivatives_match_central_differences() {
        agrees_with_differences(&sdof(1.2), &[0.9, -0.3]);
        agrees_with_differences(&sdof(0.9), &[-1.5, 0.8]);
    }

    #[test]
    fn two_dof_derivatives_match_central_differences() {
        agrees_with_differences(&two_dof(1.3), &[0.4, 0.1, -0.2, 0.9]);
    }

    #[test]
    fn without_switches_the_monodromy_is_the_linear_transition() {
        // below the gap the system is linear: M = expm(A T) of [x, v]
        let system = sdof(1.1);
        let options = EventDrivenOptions::default();
        let z = DVector::from_column_slice(&[0.01, 0.0]);
        let mut small = system.clone();
        small.excitation.amplitude = vec![1e-3];
        let (jac, _) = flow_jacobian(&small, &z, &options, false).unwrap();
        assert_eq!(jac.switches, 0);
        let a = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -1.0, -0.1]);
        let t = 2.0 * std::f64::consts::PI / 1.1;
        let e = (a * t).exp();
        assert!((&jac.monodromy - &e).amax() < 1e-12);
    }

    #[test]
    fn saltation_of_a_discontinuous_field_and_of_a_continuous_one() {
        // f- = (1, 0), f+ = (1, 2), surface x = 0 crossed at speed 1:
        // S = I + [(0, 2)] [1, 0] = [[1, 0], [2, 1]]
        let fm = DVector::from_column_slice(&[1.0, 0.0]);
        let fp = DVector::from_column_slice(&[1.0, 2.0]);
        let n = DVector::from_column_slice(&[1.0, 0.0]);
        let s = saltation(&fm, &fp, &n).unwrap();
        assert_eq!(s, DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 2.0, 1.0]));
        assert_eq!(saltation(&fm, &fm, &n).unwrap(), DMatrix::identity(2, 2));
        let tangent = DVector::from_column_slice(&[0.0, 1.0]);
        assert!(saltation(&tangent, &fp, &n).is_err());
    }
}
