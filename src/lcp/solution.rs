//! What one solve of an LCP concluded, whatever the solver.

/// What a solver concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LcpStatus {
    /// z solves the LCP to the requested tolerance.
    Solved,
    /// The LCP provably has no solution (e.g. Lemke's ray termination on a
    /// matrix class where that certifies infeasibility, or a certificate found
    /// by the fallback).
    Infeasible,
    /// The solver stopped without a solution and without a certificate.
    Failed,
}

impl LcpStatus {
    /// `solved`, `infeasible` or `failed` (the JSON of `lcp solve`).
    pub fn as_str(self) -> &'static str {
        match self {
            LcpStatus::Solved => "solved",
            LcpStatus::Infeasible => "infeasible",
            LcpStatus::Failed => "failed",
        }
    }
}

impl std::fmt::Display for LcpStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of one solve, whatever the solver.
#[derive(Debug, Clone, PartialEq)]
pub struct LcpSolution {
    /// Outcome.
    pub status: LcpStatus,
    /// The last iterate (the solution when `status` is `Solved`).
    pub z: Vec<f64>,
    /// [`Lcp::residual`] of `z`.
    pub residual: f64,
    /// Iterations: pivots for Lemke, sweeps for PGS, Newton steps for Newton.
    pub iterations: usize,
    /// Name of the solver that produced `z` (for `auto`, the one that
    /// succeeded, e.g. `auto(lemke)`).
    pub solver: &'static str,
    /// Why it failed, or how infeasibility was proved; `None` when solved.
    pub message: Option<String>,
}
