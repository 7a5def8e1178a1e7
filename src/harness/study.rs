//! The study abstraction: what every study kind provides to the harness.
//!
//! A study kind turns its spec into a [`Study`]: a list of cases (one, or one
//! per point of the spec's sweeps), each run independently (in parallel) to a
//! [`CaseOutput`]; then [`Study::summarize`] sees all case results and derives
//! study-level scalars (e.g. a convergence order) and figures. Checks are not
//! the kind's business: the harness evaluates the spec's `[[study.check]]`
//! entries on the outputs (`harness::checks`).

use crate::error::SolverError;
use crate::harness::checks::Provides;
use crate::harness::figure::Figure;
use crate::harness::table::Table;

/// A named scalar result (a summary.csv cell, or a study-level value).
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    /// Name (summary.csv column).
    pub name: String,
    /// Value.
    pub value: f64,
    /// Meaning and unit.
    pub doc: String,
}

impl Scalar {
    /// A scalar.
    pub fn new(name: impl Into<String>, value: f64, doc: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            value,
            doc: doc.into(),
        }
    }
}

/// Wall time, CPU time and exact counters of one method run within a case.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// Method name (as in the spec, e.g. `newmark-lcp`).
    pub method: String,
    /// Wall-clock seconds of the method's run (excluding output writing).
    pub wall_s: f64,
    /// CPU seconds of the thread that ran the method (see
    /// [`crate::harness::clock`]): on a shared machine the robust measure,
    /// since a case runs single-threaded on one rayon worker.
    pub cpu_s: f64,
    /// Exact counters: `steps`, `newton_iterations`, `lcp_pivots`,
    /// `lcp_iterations`, `factorizations`, `events`, ... (integers stored as
    /// f64): the history flags any change of them.
    pub counters: Vec<(String, f64)>,
    /// Derived statistics that are not exact counts (e.g. `mean_active`):
    /// written beside the counters, never compared exactly.
    pub stats: Vec<(String, f64)>,
}

impl Timing {
    /// The counter called `name`.
    pub fn counter(&self, name: &str) -> Option<f64> {
        self.counters
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }
}

/// A further table of a case, written as `<case>.<what>.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseTable {
    /// File infix, e.g. `exact`.
    pub what: String,
    /// How it was obtained (shown in the report), e.g. "exact event-driven
    /// solution (matrix exponential between switches)".
    pub doc: String,
    /// The data; first column is the abscissa.
    pub table: Table,
}

/// Everything one case produced.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutput {
    /// Case name (file stem of `<case>.csv`).
    pub name: String,
    /// The case's main curve or time series (`<case>.csv`).
    pub series: Table,
    /// Further tables (`<case>.<what>.csv`): references, derived curves.
    pub tables: Vec<CaseTable>,
    /// Scalar results: the case's row of summary.csv.
    pub scalars: Vec<Scalar>,
    /// One entry per method run in this case (rows of timings.csv).
    pub timings: Vec<Timing>,
}

impl CaseOutput {
    /// The further table `what`.
    pub fn table(&self, what: &str) -> Option<&CaseTable> {
        self.tables.iter().find(|t| t.what == what)
    }

    /// The scalar `name`.
    pub fn scalar(&self, name: &str) -> Option<f64> {
        self.scalars
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.value)
    }
}

/// The outcome of one case: its output, or the solver error that stopped it.
pub type CaseResult = Result<CaseOutput, SolverError>;

/// What a study derives from all its cases.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StudySummary {
    /// Study-level scalars (e.g. `order`), available to checks.
    pub scalars: Vec<Scalar>,
    /// Figures for the report.
    pub figures: Vec<Figure>,
    /// Sentences for the report: modelling choices, readings of the paper.
    pub notes: Vec<String>,
}

impl StudySummary {
    /// The study scalar `name`.
    pub fn scalar(&self, name: &str) -> Option<f64> {
        self.scalars
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.value)
    }
}

/// A study ready to run: built by its kind from a validated spec.
pub trait Study: Send + Sync {
    /// Case names, in order (file stems; unique).
    fn cases(&self) -> &[String];

    /// The scalar, column and table names the study will produce, so that
    /// its checks are validated before anything runs.
    fn provides(&self) -> Provides;

    /// Runs case `index`. `progress` may be advanced (its length set by the
    /// study); it is hidden when stderr is not a terminal.
    fn run_case(&self, index: usize, progress: &indicatif::ProgressBar) -> CaseResult;

    /// Derives study-level scalars, figures and notes from all case results
    /// (failed cases included, so a summary can say what is missing).
    fn summarize(&self, cases: &[CaseResult]) -> StudySummary;
}
