//! Exact event-driven solution of piecewise-linear gap systems (Yu,
//! Nonlinear Dynamics 71 (2013) 493-504):
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t).
//!
//! Between switches the active set A = {j : d_j . x > g_j} is fixed and the
//! system is linear; on the augmented state w = [x, v, cos omega t,
//! sin omega t, 1] it is w' = 𝒜_A w, so w(t + h) = expm(𝒜_A h) w(t) exactly
//! ([`regime`]). The solver marches with a sampling step of
//! 1/`samples_per_period` of the regime's shortest period, locates every
//! gap crossing inside a sample interval (sign changes and double crossings,
//! [`crossing`]) to `time_tol` by bracketed Newton on exact exponentials
//! ([`roots`]), switches the springs that crossed and continues ([`engine`]).
//! The force k_j max(0, y_j) is continuous at a switch: no impact law, no
//! state jump, and (Filippov/Aizerman-Gantmakher) the saltation matrix is the
//! identity, so the monodromy matrix of a periodic orbit is the product of
//! the exponential blocks ([`periodic`]; formed with the saltation matrices
//! and with the derivative in omega in [`monodromy`], for the
//! pseudo-arclength continuation of the orbits in omega, [`continuation`]). The result is exact up to rounding
//! and the event-time tolerance; it shares no code with the Newmark-LCP
//! integrator it is used to check.

pub mod continuation;
mod crossing;
mod engine;
pub mod monodromy;
mod options;
mod periodic;
mod regime;
mod roots;

use nalgebra::DVector;

use crate::error::SolverError;
use crate::problem::GapSystem;

use engine::{Engine, Segment, SegmentObserver};
use regime::PreparedSystem;

pub use options::{EventDrivenOptions, METHOD};
pub use periodic::{PeriodicOrbit, periodic_orbit, steady_state, subharmonic_orbit};

/// States at the requested output times.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactTrajectory {
    /// Output times (as requested).
    pub t: Vec<f64>,
    /// x[k] = displacements at t[k], length n.
    pub x: Vec<Vec<f64>>,
    /// v[k] = velocities at t[k], length n.
    pub v: Vec<Vec<f64>>,
    /// f[k] = gap-spring forces k_j max(0, y_j) at t[k], length m.
    pub f: Vec<Vec<f64>>,
    /// Spring switches (one per spring that engaged or released).
    pub events: usize,
    /// Distinct active sets met.
    pub regimes: usize,
}

/// Collects the states at the output times, each by an exact exponential
/// from the start of the interval that contains it.
struct OutputCollector<'a> {
    times: &'a [f64],
    next: usize,
    trajectory: ExactTrajectory,
}

impl OutputCollector<'_> {
    fn record(&mut self, prepared: &PreparedSystem, w: &DVector<f64>) {
        let n = prepared.n;
        self.trajectory.t.push(self.times[self.next]);
        self.trajectory
            .x
            .push(w.rows(0, n).iter().copied().collect());
        self.trajectory
            .v
            .push(w.rows(n, n).iter().copied().collect());
        self.trajectory.f.push(prepared.forces(w));
        self.next += 1;
    }
}

impl SegmentObserver for OutputCollector<'_> {
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError> {
        while self.next < self.times.len() && self.times[self.next] <= segment.t1 {
            let t = self.times[self.next];
            if t == segment.t1 {
                self.record(prepared, segment.w1);
            } else {
                let tau = (t - segment.t0).clamp(0.0, segment.h);
                let w = segment.regime.transition(tau)? * segment.w0;
                self.record(prepared, &w);
            }
        }
        Ok(())
    }
}

/// Integrates from (x0, v0) at t = 0 and returns the states at `output_times`
/// (finite, >= 0, non-decreasing), each computed exactly at its time.
pub fn simulate(
    system: &GapSystem,
    x0: &[f64],
    v0: &[f64],
    output_times: &[f64],
    options: &EventDrivenOptions,
) -> Result<ExactTrajectory, SolverError> {
    let ordered = output_times.windows(2).all(|p| p[0] <= p[1]);
    if !ordered || output_times.iter().any(|t| !t.is_finite() || *t < 0.0) {
        return Err(SolverError::other(
            METHOD,
            "output times must be finite, >= 0 and non-decreasing",
        ));
    }
    let mut engine = Engine::new(system, options)?;
    let mut cursor = engine.start(x0, v0, 0.0)?;
    let empty = ExactTrajectory {
        t: vec![],
        x: vec![],
        v: vec![],
        f: vec![],
        events: 0,
        regimes: 0,
    };
    let mut collector = OutputCollector {
        times: output_times,
        next: 0,
        trajectory: empty,
    };
    while collector.next < output_times.len() && output_times[collector.next] <= 0.0 {
        collector.record(&engine.prepared, &cursor.w);
    }
    if let Some(&t_last) = output_times.last() {
        engine.advance(&mut cursor, t_last, &mut collector)?;
    }
    let mut trajectory = collector.trajectory;
    trajectory.events = cursor.events;
    trajectory.regimes = engine.regimes_seen();
    Ok(trajectory)
}
