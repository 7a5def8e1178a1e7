//! The gap-system kernels on small systems: one Newmark step of the SDOF
//! gap oscillator of convergence-sdof with the other LCP solvers
//! (`newmark-lcp-pgs`, `newmark-lcp-newton-fb`), one step of chain-100 by
//! Lemke (`newmark-lcp-lemke` of chain-scaling), the exact event-driven
//! solution over one forcing period (the `event-driven` reference), one
//! shooting solve of the continuation's periodic orbit (`continuation`),
//! and one step of each sweep on its branch (`sweep-up`, `sweep-down`).

use crate::fixtures::{chain, gap};
use crate::harness::kernels::{Work, counters};
use crate::integrators::event_driven::{self, EventDrivenOptions};
use crate::integrators::newmark::{self, DenseLcpStep, NewmarkParams, StepSolver, Stepper};
use crate::lcp::{LcpOptions, LcpSolverKind};
use crate::problem::GapSystem;

/// The convergence studies' step [s] (their sweep's middle).
pub const SDOF_DT: f64 = 0.00125;

/// Newmark steps from rest before the search for the gap's closing
/// (t = 3.25 s).
const SDOF_STEPS: usize = 2600;

/// Forcing periods from rest to the shooting solve's initial guess. The
/// period map is affine while the switching sequence holds, so Newton
/// takes one iteration (plus its residual check) from any guess with the
/// orbit's sequence (measured: from 5, 8, 12 or 30 periods alike).
const SETTLE: f64 = 30.0;

/// The forcing period of the SDOF at omega = 0.8 rad/s [s].
fn period(omega: f64) -> f64 {
    2.0 * std::f64::consts::PI / omega
}

/// One Newmark step of the SDOF of convergence-sdof (m = k = 1,
/// c = 0.05, gap 0.5 with k_g = 4, F = cos(0.8 t)) at dt = 0.00125 s with
/// the dense LCP solved by `solver`, from the state after the first step
/// past t = 3.25 s that closes the gap. The system is leaked (the stepper borrows it; the kernel
/// process ends after one kernel).
pub fn sdof_lcp_step(solver: LcpSolverKind) -> Result<Work, String> {
    let sys: &'static GapSystem = Box::leak(Box::new(gap::sdof(0.05, Some((0.5, 4.0)), 1.0, 0.8)));
    let p = NewmarkParams {
        dt: SDOF_DT,
        steps: 100 * SDOF_STEPS,
        alpha_b: 0.0,
        output_every: 1,
    };
    let k_eff = newmark::effective_stiffness(sys, &p);
    let mut step =
        DenseLcpStep::new(sys, &k_eff, solver, LcpOptions::default()).map_err(|e| e.to_string())?;
    let mut stepper = Stepper::new(sys, &p, &[0.0], &[0.0]).map_err(|e| e.to_string())?;
    for _ in 0..SDOF_STEPS {
        stepper.advance(&mut step).map_err(|e| e.to_string())?;
    }
    // On to the first step that closes the gap: the measured one is the
    // second in contact (after the warm-up).
    while step.active() == 0 {
        stepper.advance(&mut step).map_err(|e| e.to_string())?;
    }
    let counter = if solver == LcpSolverKind::Lemke {
        "lcp_pivots"
    } else {
        "lcp_iterations"
    };
    Ok(Box::new(move || {
        let iterations = stepper.advance(&mut step).map_err(|e| e.to_string())?;
        Ok(counters(&[
            (counter, iterations),
            ("active", step.active()),
        ]))
    }))
}

/// One Newmark step of chain-100 (chain-scaling's n = 100) with the dense
/// LCP by Lemke, from the state after 149 sparse Newton steps.
pub fn chain_100_lemke_step() -> Result<Work, String> {
    let sys: &'static GapSystem = Box::leak(Box::new(chain::system(100)));
    let p = chain::params(160);
    let (mut stepper, _) = chain::advanced(sys, &p, 149).map_err(|e| e.to_string())?;
    let k_dense = newmark::effective_stiffness(sys, &p);
    let mut lcp_step =
        DenseLcpStep::new(sys, &k_dense, LcpSolverKind::Lemke, LcpOptions::default())
            .map_err(|e| e.to_string())?;
    Ok(Box::new(move || {
        let pivots = stepper.advance(&mut lcp_step).map_err(|e| e.to_string())?;
        Ok(counters(&[
            ("lcp_pivots", pivots),
            ("active", lcp_step.active()),
        ]))
    }))
}

/// The exact event-driven solution of the SDOF of convergence-sdof over
/// its fourth forcing period from rest (the gap closing and opening
/// within it), sampled 64 times: the regimes' matrix exponentials and the
/// switching times by root finding, as the reference computes them.
pub fn event_driven_period() -> Result<Work, String> {
    let sys = gap::sdof(0.05, Some((0.5, 4.0)), 1.0, 0.8);
    let t = period(0.8);
    let times: Vec<f64> = (0..=64).map(|k| 3.0 * t + t * k as f64 / 64.0).collect();
    let options = EventDrivenOptions::default();
    Ok(Box::new(move || {
        let traj = event_driven::simulate(&sys, &[0.0], &[0.0], &times, &options)
            .map_err(|e| e.to_string())?;
        Ok(counters(&[
            ("events", traj.events),
            ("regimes", traj.regimes),
            ("samples", traj.t.len()),
        ]))
    }))
}

/// One shooting solve of the periodic orbit of sdof-continuation's
/// oscillator (m = k = 1, c = 0.1, gap 0.5 with k_g = 4, F = 0.15) at
/// omega = 1.2 rad/s (on the upper branch), Newton on the period map
/// with the monodromy matrix, from the state after 30 periods from rest:
/// the work of one point of the continuation.
pub fn shooting_solve() -> Result<Work, String> {
    let base = gap::sdof(0.1, Some((0.5, 4.0)), 0.15, 1.2);
    let sys = event_driven::monodromy::at_omega(&base, 1.2);
    let options = EventDrivenOptions::default();
    let t = period(1.2);
    let settled = event_driven::simulate(&sys, &[0.0], &[0.0], &[SETTLE * t], &options)
        .map_err(|e| e.to_string())?;
    let (x0, v0) = (settled.x[0].clone(), settled.v[0].clone());
    Ok(Box::new(move || {
        let orbit =
            event_driven::periodic_orbit(&sys, &x0, &v0, &options).map_err(|e| e.to_string())?;
        Ok(counters(&[
            ("newton_iterations", orbit.newton_iterations),
            ("stable", orbit.stable as usize),
        ]))
    }))
}

/// The sweeps' frequency of the sweep kernels [rad/s]: within the
/// hysteresis band (upper fold at 1.2349 rad/s), where the up-sweep rides
/// the upper branch (the gap closing every period) and the down-sweep the
/// lower one (the gap open).
const SWEEP_OMEGA: f64 = 1.2;

/// The sweeps' steps per forcing period (sdof-continuation's
/// `steps_per_period`).
const SWEEP_STEPS_PER_PERIOD: usize = 400;

/// One Newmark step with the dense LCP by Lemke of sdof-continuation's
/// oscillator at omega = 1.2 rad/s, dt = T / 400, from the periodic orbit
/// of the upper (`upper`) or the lower branch (found by shooting from a
/// large or a small guess), advanced one period by the same steps.
pub fn sweep_step(upper: bool) -> Result<Work, String> {
    let base = gap::sdof(0.1, Some((0.5, 4.0)), 0.15, SWEEP_OMEGA);
    let sys: &'static GapSystem = Box::leak(Box::new(event_driven::monodromy::at_omega(
        &base,
        SWEEP_OMEGA,
    )));
    let guess = if upper { 1.5 } else { 0.3 };
    let orbit = event_driven::periodic_orbit(sys, &[guess], &[0.0], &EventDrivenOptions::default())
        .map_err(|e| e.to_string())?;
    let contact = orbit.x_max[0] > 0.5;
    if contact != upper {
        return Err(format!(
            "the orbit from x = {guess} has x_max = {}: not on the {} branch",
            orbit.x_max[0],
            if upper { "upper" } else { "lower" }
        ));
    }
    let p = NewmarkParams {
        dt: period(SWEEP_OMEGA) / SWEEP_STEPS_PER_PERIOD as f64,
        steps: 10 * SWEEP_STEPS_PER_PERIOD,
        alpha_b: 0.0,
        output_every: 1,
    };
    let k_eff = newmark::effective_stiffness(sys, &p);
    let mut step = DenseLcpStep::new(sys, &k_eff, LcpSolverKind::Lemke, LcpOptions::default())
        .map_err(|e| e.to_string())?;
    let mut stepper = Stepper::new(sys, &p, &orbit.x0, &orbit.v0).map_err(|e| e.to_string())?;
    // A period, then (upper branch) on to a step that closes the gap: the
    // measured one is the second in contact.
    for _ in 0..SWEEP_STEPS_PER_PERIOD {
        stepper.advance(&mut step).map_err(|e| e.to_string())?;
    }
    if upper {
        while step.active() == 0 {
            stepper.advance(&mut step).map_err(|e| e.to_string())?;
        }
    }
    Ok(Box::new(move || {
        let pivots = stepper.advance(&mut step).map_err(|e| e.to_string())?;
        Ok(counters(&[
            ("steps", 1),
            ("lcp_pivots", pivots),
            ("active", step.active()),
        ]))
    }))
}
