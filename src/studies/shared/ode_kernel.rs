//! The kernel (`harness::kernels`) of an adaptive Dormand-Prince run, the
//! kinds' `dopri5` methods on the seed's ODEs (the belt, the blades): one
//! measured run integrates a fixed span from a fixed state with the
//! method's tolerances, its own step-size control included.

use crate::harness::kernels::{Work, counters};
use crate::integrators::rk::{Dopri5, Tolerances};
use crate::problem::FirstOrderOde;

/// The span a measured run integrates: from `y0` at `t0` over `span` [s]
/// with first step `first_step` [s].
#[derive(Debug, Clone)]
pub struct Span {
    /// The start state.
    pub y0: Vec<f64>,
    /// The start time [s].
    pub t0: f64,
    /// The length [s].
    pub span: f64,
    /// The first step [s].
    pub first_step: f64,
}

/// Adaptive Dormand-Prince of `ode` over `span` with `tolerances` (at most
/// `max_steps` steps); counts the accepted and rejected steps and the
/// right-hand-side evaluations.
pub fn dopri5_span(
    ode: &'static dyn FirstOrderOde,
    span: Span,
    tolerances: Tolerances,
    max_steps: usize,
) -> Work {
    let mut dp = Dopri5::new(ode.dim());
    Box::new(move || {
        dp.reset();
        dp.stats = Default::default();
        let mut y = span.y0.clone();
        dp.integrate(
            ode,
            span.t0,
            span.t0 + span.span,
            &mut y,
            span.first_step,
            tolerances,
            max_steps,
            &[],
            &mut |_, _| {},
            &mut |_, _| false,
        )
        .map_err(|e| e.to_string())?;
        std::hint::black_box(&y);
        Ok(counters(&[
            ("steps", dp.stats.accepted),
            ("rejected_steps", dp.stats.rejected),
            ("rhs_evaluations", dp.stats.evaluations),
        ]))
    })
}
