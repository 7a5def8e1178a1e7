//! One solver's run of an LCP, graded: the options every solver shares, the
//! calls of Lemke, PGS, the Newton methods and enumeration behind one
//! result type, and the grading of an iterate by [`Lcp::residual`] against
//! the tolerance. [`super::solver::solve`] and [`super::auto`] call them.

use crate::lcp::enumerate::{EnumerateError, EnumerateParams, enumerate};
use crate::lcp::lemke::{LemkeError, LemkeParams, lemke};
use crate::lcp::newton::{Complementarity, NewtonError, NewtonParams, newton};
use crate::lcp::pgs::{PgsError, PgsParams, pgs};
use crate::lcp::problem::Lcp;
use crate::lcp::solution::{LcpSolution, LcpStatus};

/// Grades z against the tolerance: `Solved` or `Failed`.
pub(crate) fn graded(
    lcp: &Lcp,
    z: Vec<f64>,
    iterations: usize,
    solver: &'static str,
    options: &LcpOptions,
    failure: Option<String>,
) -> LcpSolution {
    let residual = lcp.residual(&z);
    let solved = residual <= options.tolerance;
    let message = if solved {
        None
    } else {
        Some(failure.unwrap_or_else(|| {
            format!(
                "residual {residual:e} above the tolerance {:e}",
                options.tolerance
            )
        }))
    };
    LcpSolution {
        status: if solved {
            LcpStatus::Solved
        } else {
            LcpStatus::Failed
        },
        z,
        residual,
        iterations,
        solver,
        message,
    }
}

/// Lemke with the given parameters (`max_pivots` from the options if set).
pub(crate) fn run_lemke(
    lcp: &Lcp,
    options: &LcpOptions,
    params: &LemkeParams,
    solver: &'static str,
) -> LcpSolution {
    // A copy only where the options override the pivot limit (the
    // parameters may hold an n-vector covering).
    let overridden;
    let params = match options.max_iterations {
        Some(limit) => {
            overridden = LemkeParams {
                max_pivots: Some(limit),
                ..params.clone()
            };
            &overridden
        }
        None => params,
    };
    let n = lcp.q.len();
    match lemke(lcp, params) {
        Ok(info) => graded(lcp, info.z, info.pivots, solver, options, None),
        Err(e) => {
            let message = Some(e.to_string());
            match e {
                LemkeError::RayTermination { pivots, z, .. }
                | LemkeError::MaxPivots { pivots, z, .. } => {
                    let mut s = graded(lcp, z, pivots, solver, options, message.clone());
                    // A ray is never a solution, even when z happens to pass.
                    s.status = LcpStatus::Failed;
                    s.message = message;
                    s
                }
                _ => failed(lcp, vec![0.0; n], 0, solver, message),
            }
        }
    }
}

/// PGS with the shared tolerance.
pub(crate) fn run_pgs(lcp: &Lcp, options: &LcpOptions, warm_start: Option<&[f64]>) -> LcpSolution {
    let defaults = PgsParams::default();
    let params = PgsParams {
        max_sweeps: options.max_iterations.unwrap_or(defaults.max_sweeps),
        tol: options.tolerance,
        ..defaults
    };
    let n = lcp.q.len();
    match pgs(lcp, &params, warm_start) {
        Ok(info) => graded(lcp, info.z, info.sweeps, "pgs", options, None),
        Err(e) => {
            let message = Some(e.to_string());
            match e {
                PgsError::NotConverged { sweeps, z, .. } => {
                    graded(lcp, z, sweeps, "pgs", options, message)
                }
                _ => failed(lcp, vec![0.0; n], 0, "pgs", message),
            }
        }
    }
}

/// A semi-smooth Newton method with the shared tolerance.
pub(crate) fn run_newton(
    lcp: &Lcp,
    phi: Complementarity,
    options: &LcpOptions,
    warm_start: Option<&[f64]>,
    solver: &'static str,
) -> LcpSolution {
    let defaults = NewtonParams::default();
    let params = NewtonParams {
        max_iterations: options.max_iterations.unwrap_or(defaults.max_iterations),
        tol: options.tolerance,
        ..defaults
    };
    let n = lcp.q.len();
    match newton(lcp, phi, &params, warm_start) {
        Ok(info) => graded(lcp, info.z, info.iterations, solver, options, None),
        Err(e) => {
            let message = Some(e.to_string());
            match e {
                NewtonError::NotConverged { iterations, z, .. }
                | NewtonError::LineSearchFailed { iterations, z, .. } => {
                    graded(lcp, z, iterations, solver, options, message)
                }
                _ => failed(lcp, vec![0.0; n], 0, solver, message),
            }
        }
    }
}

/// Enumeration; `Infeasible` when it proves that no solution exists.
pub(crate) fn run_enumerate(lcp: &Lcp, options: &LcpOptions, solver: &'static str) -> LcpSolution {
    let defaults = EnumerateParams::default();
    let params = EnumerateParams {
        max_nodes: options.max_iterations.unwrap_or(defaults.max_nodes),
        ..defaults
    };
    let n = lcp.q.len();
    match enumerate(lcp, &params) {
        Ok(info) => graded(lcp, info.z, info.nodes, solver, options, None),
        Err(EnumerateError::NoSolution { nodes }) => {
            let z = vec![0.0; n];
            LcpSolution {
                status: LcpStatus::Infeasible,
                residual: lcp.residual(&z),
                z,
                iterations: nodes,
                solver,
                message: Some(EnumerateError::NoSolution { nodes }.to_string()),
            }
        }
        Err(e) => {
            let nodes = match e {
                EnumerateError::NodeLimit { nodes } => nodes,
                _ => 0,
            };
            failed(lcp, vec![0.0; n], nodes, solver, Some(e.to_string()))
        }
    }
}

/// A `Failed` solution with z and a reason.
pub(crate) fn failed(
    lcp: &Lcp,
    z: Vec<f64>,
    iterations: usize,
    solver: &'static str,
    message: Option<String>,
) -> LcpSolution {
    LcpSolution {
        status: LcpStatus::Failed,
        residual: lcp.residual(&z),
        z,
        iterations,
        solver,
        message,
    }
}

/// Options shared by every solver.
#[derive(Debug, Clone, PartialEq)]
pub struct LcpOptions {
    /// [`Lcp::residual`] needed to call z a solution (default 1e-12).
    pub tolerance: f64,
    /// Pivots, sweeps, Newton steps or enumeration nodes; `None` = the
    /// solver's default.
    pub max_iterations: Option<usize>,
}

impl Default for LcpOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-12,
            max_iterations: None,
        }
    }
}
