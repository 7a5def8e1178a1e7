//! The one signature of a Newmark step's solver (the parent module's doc
//! has the step equation).

use crate::error::SolverError;

/// What a step kernel must do: given the predictor x~ and r, return the
/// increment u and the gap forces. Shared by the time loop so that methods
/// differ only in how they solve K_eff u + D^T K_g max(0, D (x~ + u) - g) = r.
pub trait StepSolver {
    /// Solves the step equation for u (written into `u`) and f = K_g max(0,
    /// D (x~ + u) - g); returns the solver's iterations.
    fn solve(
        &mut self,
        r: &[f64],
        x_pred: &[f64],
        u: &mut [f64],
        f: &mut [f64],
        step: usize,
        t: f64,
    ) -> Result<usize, SolverError>;
    /// Active gap springs after the last solve.
    fn active(&self) -> usize;
    /// Matrix factorizations done so far.
    fn factorizations(&self) -> usize;
}
