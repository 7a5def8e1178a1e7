//! The gap-system kind's integrators, parsed once from their spec names:
//! Bossak-Newmark with the paper's dense LCP per step (`newmark-lcp`,
//! Yu 2013) or with the sparse semi-smooth Newton step (`newmark-ssn`).
//! Each variant says its name, its report line, the counter of its step
//! solver's iterations and how its step solver is built; nothing matches a
//! method name after parsing.
//!
//! Adding an integrator: its step solver (a `StepSolver` in
//! `integrators::newmark`), a variant here, and its line in
//! experiments/README.md.

use crate::error::SolverError;
use crate::integrators::newmark::{
    self, DenseLcpStep, NewmarkParams, SparseNewtonStep, StepSolver,
};
use crate::lcp::{LcpOptions, LcpSolverKind};
use crate::problem::GapSystem;

/// A gap-system integrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapMethod {
    /// Bossak-Newmark, Yu's dense LCP per step (`newmark-lcp`).
    NewmarkLcp,
    /// Bossak-Newmark, the step equation by sparse semi-smooth Newton
    /// (`newmark-ssn`).
    NewmarkSsn,
}

impl GapMethod {
    /// The paper's method (Yu 2013), the default baseline.
    pub const PAPER: GapMethod = GapMethod::NewmarkLcp;

    /// Every method, in the order messages list them.
    pub const ALL: [GapMethod; 2] = [GapMethod::NewmarkLcp, GapMethod::NewmarkSsn];

    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            GapMethod::NewmarkLcp => "newmark-lcp",
            GapMethod::NewmarkSsn => "newmark-ssn",
        }
    }

    /// The method of spec name `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The spec names, in order.
    pub fn names() -> [&'static str; 2] {
        Self::ALL.map(Self::name)
    }

    /// Whether the method keeps dense n x n matrices (K_eff and its LU,
    /// the LCP matrix): refused where they would not fit, labelled by its
    /// LCP solver.
    pub fn is_dense(self) -> bool {
        matches!(self, GapMethod::NewmarkLcp)
    }

    /// The report's line on the method with LCP solver `lcp`.
    pub fn describe(self, lcp: LcpSolverKind) -> String {
        match self {
            GapMethod::NewmarkSsn => {
                "Bossak-Newmark, step equation by sparse semi-smooth Newton".into()
            }
            GapMethod::NewmarkLcp => {
                format!(
                    "Bossak-Newmark, Yu's dense LCP per step by `{}`",
                    lcp.name()
                )
            }
        }
    }

    /// The name of the counter of the step solver's iterations.
    pub fn iterations_counter(self, lcp: LcpSolverKind) -> &'static str {
        match (self, lcp) {
            (GapMethod::NewmarkSsn, _) => "newton_iterations",
            (GapMethod::NewmarkLcp, LcpSolverKind::Lemke) => "lcp_pivots",
            (GapMethod::NewmarkLcp, _) => "lcp_iterations",
        }
    }

    /// The step solver of `system` at `params`: K_eff assembled (dense or
    /// sparse) and factored; the LCP solver and its options for the dense
    /// step.
    pub fn step_solver(
        self,
        system: &GapSystem,
        params: &NewmarkParams,
        lcp: LcpSolverKind,
        lcp_options: &LcpOptions,
    ) -> Result<Box<dyn StepSolver>, SolverError> {
        Ok(match self {
            GapMethod::NewmarkLcp => {
                let k_eff = newmark::effective_stiffness(system, params);
                Box::new(DenseLcpStep::new(system, &k_eff, lcp, lcp_options.clone())?)
            }
            GapMethod::NewmarkSsn => {
                let k_eff = newmark::effective_stiffness_sparse(system, params);
                Box::new(SparseNewtonStep::new(system, &k_eff)?)
            }
        })
    }
}
