//! Typed errors. [`InputError`] is bad input (exit code 2): it names the file,
//! the key, the value and what is allowed. [`SolverError`] is a solver that
//! failed on valid input (exit code 1; the other studies still run).

use std::path::PathBuf;

/// Bad input: a spec, suite or data file that cannot be used as given.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML (or not valid data of its format).
    #[error("{}: {message}", file.display())]
    Syntax {
        /// The file.
        file: PathBuf,
        /// Parser message, with line and column where known.
        message: String,
    },
    /// A key is unknown, missing, of the wrong type or has a bad value.
    #[error("{}: {}key `{key}`{}: {expected}", file.display(), study.as_ref().map(|s| format!("study `{s}`: ")).unwrap_or_default(), value.as_ref().map(|v| format!(" = {v}")).unwrap_or_default())]
    Key {
        /// The file.
        file: PathBuf,
        /// The study the key belongs to, if any.
        study: Option<String>,
        /// Dotted key path, e.g. `study.integrator.dt`.
        key: String,
        /// The offending value as written, if there is one.
        value: Option<String>,
        /// What is allowed (or what went wrong, for unknown keys).
        expected: String,
    },
}

impl InputError {
    /// A bad value of a key of a study.
    pub fn value(
        file: impl Into<PathBuf>,
        study: &str,
        key: impl Into<String>,
        value: impl std::fmt::Display,
        expected: impl Into<String>,
    ) -> Self {
        InputError::Key {
            file: file.into(),
            study: Some(study.to_string()),
            key: key.into(),
            value: Some(value.to_string()),
            expected: expected.into(),
        }
    }
}

/// A solver that failed on valid input (serialisable: a shard of a
/// sharded run stores its failed jobs for the merge, `harness::shard`).
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum SolverError {
    /// The LCP of a time step was not solved.
    #[error(
        "LCP solver `{solver}` returned {status} at step {step} (t = {t}), residual {residual:e}"
    )]
    Lcp {
        /// Solver name.
        solver: String,
        /// `infeasible` or `failed`.
        status: String,
        /// Time step index.
        step: usize,
        /// Time at the end of the step.
        t: f64,
        /// Residual of the returned point.
        residual: f64,
    },
    /// A Newton-type iteration did not converge.
    #[error(
        "{method}: no convergence at step {step} (t = {t}) after {iterations} iterations, residual {residual:e}"
    )]
    NoConvergence {
        /// Method name.
        method: String,
        /// Time step index.
        step: usize,
        /// Time at the end of the step.
        t: f64,
        /// Iterations done.
        iterations: usize,
        /// Last residual.
        residual: f64,
    },
    /// An accepted step's equation residual is above the tolerance.
    #[error(
        "step {step} (t = {t}): residual {residual:e} of the step equation above the tolerance {tolerance:e}"
    )]
    Residual {
        /// Time step index.
        step: usize,
        /// Time at the end of the step.
        t: f64,
        /// Relative residual.
        residual: f64,
        /// The tolerance.
        tolerance: f64,
    },
    /// A matrix that must be invertible (or positive definite) is not.
    #[error("{what}: matrix is singular or not positive definite")]
    Singular {
        /// Which matrix.
        what: String,
    },
    /// The job ran past its time limit (spec `time_limit`, `--time-limit`).
    #[error(
        "{method}: stopped after the time limit of {limit_s} s; raise `time_limit` in the study or pass --time-limit <seconds>"
    )]
    TimeLimit {
        /// Method name.
        method: String,
        /// The limit in seconds.
        limit_s: f64,
    },
    /// Anything else, with a message naming the method.
    #[error("{method}: {message}")]
    Other {
        /// Method name.
        method: String,
        /// What went wrong.
        message: String,
    },
}

impl SolverError {
    /// [`SolverError::Other`]: `message` about `method`.
    pub fn other(method: impl Into<String>, message: impl Into<String>) -> Self {
        SolverError::Other {
            method: method.into(),
            message: message.into(),
        }
    }
}

/// Writing results, figures or the report failed.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A file or directory could not be written.
    #[error("{}: cannot write: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file (e.g. the performance history) could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A table, figure or document could not be produced.
    #[error("{}: {message}", path.display())]
    Format {
        /// The path being written.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}
