//! Linear complementarity problems: find z >= 0 with w = M z + q >= 0 and
//! z . w = 0 (Cottle, Pang & Stone, *The Linear Complementarity Problem*,
//! 1992; Murty, *Linear Complementarity, Linear and Nonlinear Programming*,
//! 1988). The problem is plain data ([`Lcp`]); every solver has the same
//! signature ([`solve`]) and is graded by the same residual
//! ([`Lcp::residual`], Siconos' `lcp_compute_error`).

pub mod auto;
pub mod cli;
pub mod enumerate;
pub mod io;
pub mod lemke;
pub mod murty;
pub mod newton;
pub mod pgs;
pub mod problem;
pub mod run;
pub mod solution;
pub mod solver;

pub use cli::solve_json;
pub use io::{LcpFormatError, read_siconos, read_siconos_file};
pub use murty::{murty, murty_degenerate};
pub use problem::Lcp;
pub use run::LcpOptions;
pub use solution::{LcpSolution, LcpStatus};
pub use solver::{LcpSolverKind, solve};
