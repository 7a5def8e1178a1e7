//! The solver enum and the one signature every LCP solver is called through
//! ([`solve`]), in the spirit of Siconos numerics (`lcp_driver`): the problem
//! is data, the solver is behaviour, and every result is graded by the same
//! residual [`Lcp::residual`] against one tolerance.

use crate::lcp::auto;
use crate::lcp::lemke::LemkeParams;
use crate::lcp::newton::Complementarity;
use crate::lcp::problem::Lcp;
pub use crate::lcp::run::LcpOptions;
use crate::lcp::run::{run_enumerate, run_lemke, run_newton, run_pgs};
use crate::lcp::solution::{LcpSolution, LcpStatus};

/// The LCP solvers, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LcpSolverKind {
    /// Lemke's complementary pivoting, lexicographic ratio test, d = e.
    Lemke,
    /// Projected Gauss-Seidel.
    Pgs,
    /// Semi-smooth Newton on min(z, w).
    NewtonMin,
    /// Semi-smooth Newton on the Fischer-Burmeister function.
    NewtonFb,
    /// Complete enumeration with LP pruning (small n).
    Enumerate,
    /// Lemke with fallbacks; complete for small n (see [`auto`]).
    Auto,
}

impl LcpSolverKind {
    /// Every solver, in the order of [`LcpSolverKind::allowed_names`].
    pub const ALL: [LcpSolverKind; 6] = [
        LcpSolverKind::Lemke,
        LcpSolverKind::Pgs,
        LcpSolverKind::NewtonMin,
        LcpSolverKind::NewtonFb,
        LcpSolverKind::Enumerate,
        LcpSolverKind::Auto,
    ];

    /// The name used in specs, the CLI and results.
    pub fn name(self) -> &'static str {
        match self {
            LcpSolverKind::Lemke => "lemke",
            LcpSolverKind::Pgs => "pgs",
            LcpSolverKind::NewtonMin => "newton-min",
            LcpSolverKind::NewtonFb => "newton-fb",
            LcpSolverKind::Enumerate => "enumerate",
            LcpSolverKind::Auto => "auto",
        }
    }

    /// The solver of a name, `None` for an unknown name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// "lemke, pgs, newton-min, newton-fb, enumerate, auto", for messages.
    pub fn allowed_names() -> String {
        Self::ALL.map(|k| k.name()).join(", ")
    }
}

impl std::fmt::Display for LcpSolverKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Solves `lcp` with `kind`. Never panics; a solver that cannot solve
/// returns `Failed` (or `Infeasible` with a proof) and its last iterate.
/// `warm_start` is used by PGS, Newton and `auto` and ignored when its
/// length is not n or it holds a non-finite value. `residual` is always
/// `lcp.residual(&z)` (NaN when M is not n x n).
pub fn solve(
    lcp: &Lcp,
    kind: LcpSolverKind,
    options: &LcpOptions,
    warm_start: Option<&[f64]>,
) -> LcpSolution {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return LcpSolution {
            status: LcpStatus::Failed,
            z: vec![0.0; n],
            residual: f64::NAN,
            iterations: 0,
            solver: kind.name(),
            message: Some(format!(
                "M is {} x {} but q has length {n}",
                lcp.m.nrows(),
                lcp.m.ncols()
            )),
        };
    }
    let warm_start = warm_start.filter(|z| z.len() == n && z.iter().all(|v| v.is_finite()));
    match kind {
        LcpSolverKind::Lemke => run_lemke(lcp, options, &LemkeParams::default(), "lemke"),
        LcpSolverKind::Pgs => run_pgs(lcp, options, warm_start),
        LcpSolverKind::NewtonMin => {
            run_newton(lcp, Complementarity::Min, options, warm_start, "newton-min")
        }
        LcpSolverKind::NewtonFb => run_newton(
            lcp,
            Complementarity::FischerBurmeister,
            options,
            warm_start,
            "newton-fb",
        ),
        LcpSolverKind::Enumerate => run_enumerate(lcp, options, "enumerate"),
        LcpSolverKind::Auto => auto::auto(lcp, options, warm_start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn names_round_trip() {
        for kind in LcpSolverKind::ALL {
            assert_eq!(LcpSolverKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(LcpSolverKind::from_name("simplex"), None);
        assert_eq!(
            LcpSolverKind::allowed_names(),
            "lemke, pgs, newton-min, newton-fb, enumerate, auto"
        );
    }

    #[test]
    fn every_solver_solves_a_small_spd_problem() {
        let p = Lcp::new(
            DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
            DVector::from_column_slice(&[-5.0, -6.0]),
        )
        .unwrap();
        for kind in LcpSolverKind::ALL {
            let s = solve(&p, kind, &LcpOptions::default(), None);
            assert_eq!(s.status, LcpStatus::Solved, "{kind}: {s:?}");
            assert_eq!(s.residual, p.residual(&s.z));
            assert!(s.residual <= 1e-12);
            assert!(s.solver.contains(kind.name()), "{kind}: {}", s.solver);
        }
    }

    #[test]
    fn a_malformed_problem_fails_without_panicking() {
        let p = Lcp {
            m: DMatrix::identity(2, 3),
            q: DVector::from_column_slice(&[-1.0, -1.0]),
        };
        for kind in LcpSolverKind::ALL {
            let s = solve(&p, kind, &LcpOptions::default(), None);
            assert_eq!(s.status, LcpStatus::Failed);
            assert!(s.residual.is_nan());
        }
        let p = Lcp::new(
            DMatrix::from_row_slice(1, 1, &[f64::NAN]),
            DVector::from_column_slice(&[-1.0]),
        )
        .unwrap();
        for kind in LcpSolverKind::ALL {
            let s = solve(&p, kind, &LcpOptions::default(), None);
            assert_ne!(s.status, LcpStatus::Solved, "{kind}");
        }
    }

    #[test]
    fn a_bad_warm_start_is_ignored() {
        let p = Lcp::new(
            DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]),
            DVector::from_column_slice(&[-5.0, -6.0]),
        )
        .unwrap();
        for kind in [LcpSolverKind::Pgs, LcpSolverKind::NewtonMin] {
            let s = solve(&p, kind, &LcpOptions::default(), Some(&[1.0]));
            assert_eq!(s.status, LcpStatus::Solved);
            let s = solve(&p, kind, &LcpOptions::default(), Some(&[f64::NAN, 1.0]));
            assert_eq!(s.status, LcpStatus::Solved);
        }
    }
}
