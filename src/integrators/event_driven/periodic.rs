//! Periodic steady states by shooting (Seydel, *Practical Bifurcation and
//! Stability Analysis*, 3rd ed., 2010, Ch. 7; Leine & Nijmeijer, *Dynamics and
//! Bifurcations of Non-Smooth Mechanical Systems*, 2004, Ch. 7 for the
//! monodromy of a non-smooth system).
//!
//! With the period T = 2 pi / omega and the flow map Phi_T of the state
//! z = [x, v] from t = 0, a T-periodic orbit solves Phi_T(z) - z = 0. Newton
//! needs the monodromy matrix dPhi_T/dz: the product, over the intervals of one
//! period, of the [x, v] blocks of expm(𝒜_A h). At a switch the saltation
//! matrix I + (f+ - f-) n^T / (n^T f-) is the identity because the vector
//! field is continuous (f+ = f-), so no correction is needed. The Floquet
//! multipliers are the eigenvalues of the monodromy matrix; the orbit is
//! stable when all have modulus < 1. Extrema of x_i over the period are the
//! interval ends and the roots of v_i, located exactly like gap crossings.
//! A subharmonic orbit of period kT is the same problem for Phi_T^k
//! ([`subharmonic_orbit`]).

use nalgebra::{DMatrix, DVector, Schur};

use crate::error::SolverError;
use crate::problem::GapSystem;

use super::crossing::{Span, first_upcrossing};
use super::engine::{Engine, NoObserver, Segment, SegmentObserver};
use super::options::{EventDrivenOptions, METHOD};
use super::regime::PreparedSystem;

/// A periodic steady state of period k T, T = 2 pi / omega (k = 1 unless
/// found by [`subharmonic_orbit`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodicOrbit {
    /// k: the orbit's period in forcing periods.
    pub periods: usize,
    /// Displacements at t = 0 (mod T).
    pub x0: Vec<f64>,
    /// Velocities at t = 0 (mod T).
    pub v0: Vec<f64>,
    /// |Floquet multipliers| of the period-kT map, largest first (2n of them).
    pub multipliers: Vec<f64>,
    /// All multipliers inside the unit circle.
    pub stable: bool,
    /// Largest x_i over one orbit period, per DOF (extrema located at roots of v_i).
    pub x_max: Vec<f64>,
    /// Smallest x_i over one orbit period, per DOF.
    pub x_min: Vec<f64>,
    /// Newton iterations of the shooting method.
    pub newton_iterations: usize,
}

/// Accumulates the [x, v] block of the monodromy matrix interval by interval.
struct Monodromy {
    matrix: DMatrix<f64>,
}

impl SegmentObserver for Monodromy {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        let k = 2 * prepared.n;
        // the [x, v] rows of expm(𝒜 h) do not see the (c, s, 1) columns' perturbations: those are fixed
        self.matrix = segment.transition.view((0, 0), (k, k)) * &self.matrix;
        Ok(())
    }
}

/// Extrema of each x_i over the observed intervals: interval ends and roots of v_i.
pub(super) struct Extrema {
    /// Largest x_i so far.
    pub max: Vec<f64>,
    /// Smallest x_i so far.
    pub min: Vec<f64>,
    time_tol: f64,
}

/// Roots of v_i looked for in one interval, per DOF (a sample interval is a
/// small fraction of the shortest period, so more than two never occur).
const MAX_ROOTS_PER_INTERVAL: usize = 8;

impl Extrema {
    /// No extrema yet, for n DOFs; roots of v_i located to `time_tol` of the regime period.
    pub fn new(n: usize, time_tol: f64) -> Self {
        Extrema {
            max: vec![f64::NEG_INFINITY; n],
            min: vec![f64::INFINITY; n],
            time_tol,
        }
    }

    fn include(&mut self, prepared: &PreparedSystem, w: &DVector<f64>) {
        for i in 0..prepared.n {
            self.max[i] = self.max[i].max(w[i]);
            self.min[i] = self.min[i].min(w[i]);
        }
    }
}

impl SegmentObserver for Extrema {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        let n = prepared.n;
        self.include(prepared, segment.w0);
        self.include(prepared, segment.w1);
        let tol = self.time_tol * segment.regime.time_scale;
        for i in 0..n {
            let mut ell = DVector::zeros(prepared.state_len());
            ell[n + i] = 1.0;
            let mut start = segment.w0.clone();
            let mut dstart = segment.dw0.clone();
            let mut elapsed = 0.0;
            for _ in 0..MAX_ROOTS_PER_INTERVAL {
                // from v_i > 0 look for a maximum of x_i (up-crossing of -v_i), else for a minimum
                let sign = if start[n + i] > 0.0 { -1.0 } else { 1.0 };
                let span = Span {
                    regime: segment.regime,
                    w0: &start,
                    dw0: &dstart,
                    w1: segment.w1,
                    dw1: segment.dw1,
                    h: segment.h - elapsed,
                    end_transition: None,
                    t0: segment.t0 + elapsed,
                };
                let Some(root) = first_upcrossing(&span, &ell, sign, tol)? else {
                    break;
                };
                self.include(prepared, &root.state);
                elapsed += root.tau;
                dstart = &segment.regime.generator * &root.state;
                start = root.state;
                if elapsed >= segment.h {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// Both observers of the final pass.
struct MonodromyAndExtrema {
    monodromy: Monodromy,
    extrema: Extrema,
}

impl SegmentObserver for MonodromyAndExtrema {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        self.monodromy.observe(segment, prepared)?;
        self.extrema.observe(segment, prepared)
    }
}

pub(super) fn forcing_period(system: &GapSystem) -> Result<f64, SolverError> {
    let omega = system.excitation.omega;
    if !(omega.is_finite() && omega > 0.0) {
        return Err(SolverError::other(
            METHOD,
            format!("a periodic orbit needs omega > 0, got {omega}"),
        ));
    }
    Ok(2.0 * std::f64::consts::PI / omega)
}

pub(super) fn split(prepared: &PreparedSystem, z: &DVector<f64>) -> (Vec<f64>, Vec<f64>) {
    let n = prepared.n;
    (
        z.rows(0, n).iter().copied().collect(),
        z.rows(n, n).iter().copied().collect(),
    )
}

/// Phi_T^k(z): k periods, each from t = 0 to t = T (the forcing is
/// T-periodic, so restarting the clock keeps times small), with `observer`
/// watching.
pub(super) fn flow_periods(
    engine: &mut Engine,
    z: &DVector<f64>,
    period: f64,
    k: usize,
    observer: &mut dyn SegmentObserver,
) -> Result<DVector<f64>, SolverError> {
    let mut z = z.clone();
    for _ in 0..k {
        let (x, v) = split(&engine.prepared, &z);
        let mut cursor = engine.start(&x, &v, 0.0)?;
        engine.advance(&mut cursor, period, observer)?;
        z = cursor.w.rows(0, 2 * engine.prepared.n).into_owned();
    }
    Ok(z)
}

fn flow_with_monodromy(
    engine: &mut Engine,
    z: &DVector<f64>,
    period: f64,
    k: usize,
) -> Result<(DVector<f64>, DMatrix<f64>), SolverError> {
    let mut monodromy = Monodromy {
        matrix: DMatrix::identity(z.len(), z.len()),
    };
    let phi = flow_periods(engine, z, period, k, &mut monodromy)?;
    Ok((phi, monodromy.matrix))
}

/// Steady periodic response of period T = 2 pi / omega by shooting: Newton on
/// Phi_T(z) - z = 0 with the monodromy matrix (product of expm blocks; the
/// saltation matrix is the identity because the vector field is continuous
/// across switches), started from `guess` (e.g. the state after integrating a
/// number of periods from rest). Newton steps are halved while they do not
/// reduce the residual.
pub fn periodic_orbit(
    system: &GapSystem,
    guess_x: &[f64],
    guess_v: &[f64],
    options: &EventDrivenOptions,
) -> Result<PeriodicOrbit, SolverError> {
    subharmonic_orbit(system, guess_x, guess_v, 1, options)
}

/// Periodic orbit of period k T (a subharmonic response for k > 1) by the
/// same shooting on Phi_T^k(z) - z = 0; `periods` = k >= 1. Newton converges
/// to the orbit nearest the guess: a T-periodic orbit is also a fixed point of
/// Phi_T^k, so check `x_max`/`x_min` or integrate when that matters.
pub fn subharmonic_orbit(
    system: &GapSystem,
    guess_x: &[f64],
    guess_v: &[f64],
    periods: usize,
    options: &EventDrivenOptions,
) -> Result<PeriodicOrbit, SolverError> {
    let period = forcing_period(system)?;
    if periods == 0 {
        return Err(SolverError::other(
            METHOD,
            "an orbit spans at least one period",
        ));
    }
    let mut engine = Engine::new(system, options)?;
    let n = engine.prepared.n;
    if guess_x.len() != n || guess_v.len() != n {
        return Err(SolverError::other(
            METHOD,
            format!(
                "guess has lengths {} and {}, expected n = {n}",
                guess_x.len(),
                guess_v.len()
            ),
        ));
    }
    let mut z = DVector::from_iterator(2 * n, guess_x.iter().chain(guess_v).copied());
    let (mut phi, mut jacobian) = flow_with_monodromy(&mut engine, &z, period, periods)?;
    let mut residual = (&phi - &z).amax();
    let mut iterations = 0;
    while residual > options.newton_tol * (1.0 + z.amax()) {
        crate::deadline::check();
        if iterations >= options.max_newton_iterations {
            return Err(SolverError::NoConvergence {
                method: format!("{METHOD} shooting"),
                step: iterations,
                t: period * periods as f64,
                iterations,
                residual,
            });
        }
        iterations += 1;
        let lhs = &jacobian - DMatrix::identity(2 * n, 2 * n);
        let delta = lhs
            .lu()
            .solve(&(&z - &phi))
            .ok_or_else(|| SolverError::Singular {
                what: format!("{METHOD} shooting: monodromy - I (a Floquet multiplier equals 1)"),
            })?;
        let mut step = 1.0;
        loop {
            let trial = &z + &delta * step;
            let (phi_trial, jac_trial) = flow_with_monodromy(&mut engine, &trial, period, periods)?;
            let r_trial = (&phi_trial - &trial).amax();
            if r_trial < residual || step < 1e-3 {
                z = trial;
                phi = phi_trial;
                jacobian = jac_trial;
                residual = r_trial;
                break;
            }
            step *= 0.5;
        }
    }
    let mut observer = MonodromyAndExtrema {
        monodromy: Monodromy {
            matrix: DMatrix::identity(2 * n, 2 * n),
        },
        extrema: Extrema::new(n, options.time_tol),
    };
    flow_periods(&mut engine, &z, period, periods, &mut observer)?;
    let schur =
        Schur::try_new(observer.monodromy.matrix, f64::EPSILON, 100_000).ok_or_else(|| {
            SolverError::other(
                METHOD,
                "eigenvalues of the monodromy matrix did not converge",
            )
        })?;
    let mut multipliers: Vec<f64> = schur
        .complex_eigenvalues()
        .iter()
        .map(|c| c.norm())
        .collect();
    multipliers.sort_by(|a, b| b.total_cmp(a));
    let stable = multipliers.first().is_some_and(|m| *m < 1.0);
    let (x0, v0) = split(&engine.prepared, &z);
    Ok(PeriodicOrbit {
        periods,
        x0,
        v0,
        multipliers,
        stable,
        x_max: observer.extrema.max,
        x_min: observer.extrema.min,
        newton_iterations: iterations,
    })
}

/// Convenience: integrate `settle_periods` periods from (x0, v0) (period by
/// period, each from phase 0, i.e. Phi_T applied `settle_periods` times),
/// then [`periodic_orbit`] from there.
pub fn steady_state(
    system: &GapSystem,
    x0: &[f64],
    v0: &[f64],
    settle_periods: usize,
    options: &EventDrivenOptions,
) -> Result<PeriodicOrbit, SolverError> {
    let period = forcing_period(system)?;
    let mut engine = Engine::new(system, options)?;
    let n = engine.prepared.n;
    if x0.len() != n || v0.len() != n {
        return Err(SolverError::other(
            METHOD,
            format!(
                "initial state has lengths {} and {}, expected n = {n}",
                x0.len(),
                v0.len()
            ),
        ));
    }
    let mut z = DVector::from_iterator(2 * n, x0.iter().chain(v0).copied());
    z = flow_periods(&mut engine, &z, period, settle_periods, &mut NoObserver)?;
    let (x, v) = split(&engine.prepared, &z);
    periodic_orbit(system, &x, &v, options)
}
