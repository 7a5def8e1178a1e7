//! The span of a run integrated to output times (`slider-crank`,
//! `stick-slip`): its step, final time, error-control tolerance, output
//! interval and count, and step bound; its Dormand-Prince run and what an
//! explicit integrator counts over it.

use crate::integrators::rk::{Dopri5, Tolerances};
use crate::problem::ode::FirstOrderOde;

/// A case's step, span and sampling.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// Step (initial step of an adaptive method) [s].
    pub dt: f64,
    /// Final time [s].
    pub t_end: f64,
    /// Error-control tolerance of `dopri5` (rtol = atol).
    pub tolerance: f64,
    /// Output every this many seconds.
    pub output_interval: f64,
    /// Number of output intervals.
    pub outputs: usize,
    /// Bound on the steps of a run.
    pub max_steps: usize,
}

impl Span {
    /// The span of step `dt` to `t_end` at `tolerance`, output every
    /// `output_interval` (a divisor of `t_end`), at most `max_steps` steps.
    pub fn new(
        dt: f64,
        t_end: f64,
        tolerance: f64,
        output_interval: f64,
        max_steps: usize,
    ) -> Self {
        Span {
            dt,
            t_end,
            tolerance,
            output_interval,
            outputs: (t_end / output_interval).round() as usize,
            max_steps,
        }
    }

    /// The output times `k * output_interval`, k = 1..=outputs.
    pub fn output_times(&self) -> Vec<f64> {
        (1..=self.outputs)
            .map(|k| k as f64 * self.output_interval)
            .collect()
    }

    /// The error control of `dopri5`: rtol = atol = `tolerance`.
    pub fn tolerances(&self) -> Tolerances {
        Tolerances {
            rtol: self.tolerance,
            atol: self.tolerance,
        }
    }

    /// Runs `dp` on `ode` from `y` at t = 0 to `t_end` (first step `dt`,
    /// [`Span::tolerances`], at most `max_steps`), calling `on_output` at
    /// the output times and `on_accept` after each accepted step.
    pub fn dopri5(
        &self,
        dp: &mut Dopri5,
        ode: &dyn FirstOrderOde,
        y: &mut [f64],
        on_output: &mut dyn FnMut(f64, &[f64]),
        on_accept: &mut dyn FnMut(f64, &[f64]) -> bool,
    ) -> Result<(), String> {
        dp.integrate(
            ode,
            0.0,
            self.t_end,
            y,
            self.dt,
            self.tolerances(),
            self.max_steps,
            &self.output_times(),
            on_output,
            on_accept,
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    }
}

/// What an explicit integrator counted over a run.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct StepCounts {
    /// Accepted steps.
    pub accepted: usize,
    /// Steps the error control rejected.
    pub rejected: usize,
    /// Right-hand-side evaluations.
    pub evaluations: usize,
}

impl StepCounts {
    /// Those of `dp`'s run.
    pub fn of(dp: &Dopri5) -> Self {
        StepCounts {
            accepted: dp.stats.accepted,
            rejected: dp.stats.rejected,
            evaluations: dp.stats.evaluations,
        }
    }

    /// As the run's counters `steps`, `rejected_steps`, `rhs_evaluations`.
    pub fn counters(&self) -> Vec<(String, f64)> {
        vec![
            ("steps".into(), self.accepted as f64),
            ("rejected_steps".into(), self.rejected as f64),
            ("rhs_evaluations".into(), self.evaluations as f64),
        ]
    }
}
