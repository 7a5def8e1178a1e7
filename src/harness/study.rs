//! The study abstraction: what every study kind provides to the harness.
//!
//! A study kind turns its spec into a [`Study`]: a list of cases (one, or one
//! per point of the spec's sweeps), each running one or more **methods**.
//! The harness runs every method of every case as its own job (in parallel,
//! each on one thread), times it (repeating short runs, see
//! `harness::timing`), and isolates its failure: a method that returns an
//! error or panics fails alone, the case's other methods still run, write
//! and are checked. A case may also compute a **reference** (an exact
//! solution by another method) as a job of its own. When all jobs of a case
//! are done, [`Study::finish_case`] compares every method with the reference
//! (its errors become method scalars) and derives the case's scalars; when
//! all cases are done, [`Study::summarize`] sees them all, with their sweep
//! coordinates, and derives study-level scalars and figures. Checks,
//! convergence orders, work-precision and speed-ups at equal accuracy are
//! the harness's business (`harness::checks`, `harness::sweep`), driven by
//! what the kind declares in [`Study::provides`] and [`Study::measures`].

use crate::error::SolverError;
use crate::harness::figure::Figure;
use crate::harness::table::Table;

/// A named scalar result (a summary.csv cell, or a study-level value).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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

/// The value of the scalar `name` in `scalars`.
pub fn find_scalar(scalars: &[Scalar], name: &str) -> Option<f64> {
    scalars.iter().find(|s| s.name == name).map(|s| s.value)
}

/// Wall time, CPU time and exact counters of one method run within a case.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    /// Method label (as in the spec, e.g. `newmark-lcp`).
    pub method: String,
    /// Wall-clock seconds of the method's run (excluding output writing):
    /// the median over the timed runs.
    pub wall_s: f64,
    /// CPU seconds of the thread that ran the method (see
    /// [`crate::harness::clock`]): the median over the timed runs; on a
    /// shared machine the robust measure, since a method runs on one thread.
    pub cpu_s: f64,
    /// Half the range (max - min) / 2 of the CPU seconds of the timed runs
    /// (0 for a single run).
    pub cpu_s_spread: f64,
    /// Timed runs behind `wall_s` and `cpu_s`.
    pub runs: usize,
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

    /// The stat called `name`.
    pub fn stat(&self, name: &str) -> Option<f64> {
        self.stats.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }
}

/// A further table of a case or of a method run, written as
/// `<case>.<what>.csv` (case tables) or `<case>.<label>.<what>.csv` (method
/// tables).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CaseTable {
    /// File infix, e.g. `exact`.
    pub what: String,
    /// How it was obtained (shown in the report), e.g. "exact event-driven
    /// solution (matrix exponential between switches)".
    pub doc: String,
    /// The data; first column is the abscissa.
    pub table: Table,
}

/// A method run of a case as the kind plans it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodPlan {
    /// Label: unique within the case; names its files and its timings row.
    pub label: String,
    /// The method's name (several labels may run one method with other
    /// settings, e.g. another LCP solver).
    pub method: String,
    /// One line on what it is, for the report.
    pub doc: String,
}

/// What one method run produced (the kind's part; the harness adds the
/// timing).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct MethodOutput {
    /// Its series (`<case>.csv` for the case's first method,
    /// `<case>.<label>.csv` for the others).
    pub series: Table,
    /// Further tables of the run (`<case>.<label>.<what>.csv`).
    pub tables: Vec<CaseTable>,
    /// Its scalars (the kind's [`Study::finish_case`] adds the errors
    /// against the case's reference).
    pub scalars: Vec<Scalar>,
    /// Exact counters of the run (see [`Timing::counters`]).
    pub counters: Vec<(String, f64)>,
    /// Derived statistics (see [`Timing::stats`]).
    pub stats: Vec<(String, f64)>,
}

impl MethodOutput {
    /// The scalar `name`.
    pub fn scalar(&self, name: &str) -> Option<f64> {
        find_scalar(&self.scalars, name)
    }

    /// The further table `what`.
    pub fn table(&self, what: &str) -> Option<&CaseTable> {
        self.tables.iter().find(|t| t.what == what)
    }
}

/// A successful method run: the kind's output and the harness's timing.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodRun {
    /// What the kind produced.
    pub output: MethodOutput,
    /// Times and counters.
    pub timing: Timing,
}

/// One method of a case after the run: its plan and its outcome.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodResult {
    /// Its plan (label, method, doc).
    pub plan: MethodPlan,
    /// The run, or why it failed.
    pub outcome: Result<MethodRun, SolverError>,
}

impl MethodResult {
    /// The label.
    pub fn label(&self) -> &str {
        &self.plan.label
    }

    /// The output, when the run succeeded.
    pub fn output(&self) -> Option<&MethodOutput> {
        self.outcome.as_ref().ok().map(|r| &r.output)
    }

    /// The timing, when the run succeeded.
    pub fn timing(&self) -> Option<&Timing> {
        self.outcome.as_ref().ok().map(|r| &r.timing)
    }
}

/// What a case's reference job produced: tables (e.g. `exact`), case
/// scalars (e.g. the exact orbit's extremes) and the reference solver's
/// timings.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct ReferenceOutput {
    /// Case tables (`<case>.<what>.csv`).
    pub tables: Vec<CaseTable>,
    /// Case scalars.
    pub scalars: Vec<Scalar>,
    /// Timings of the reference solver (rows of timings.csv).
    pub timings: Vec<Timing>,
}

impl ReferenceOutput {
    /// The table `what`.
    pub fn table(&self, what: &str) -> Option<&CaseTable> {
        self.tables.iter().find(|t| t.what == what)
    }

    /// The case scalar `name`.
    pub fn scalar(&self, name: &str) -> Option<f64> {
        find_scalar(&self.scalars, name)
    }
}

/// One coordinate of a case in the sweeps: `key` took `value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Coord {
    /// Dotted key path, e.g. `integrator.dt`.
    pub key: String,
    /// Short label used in case names.
    pub label: String,
    /// The value.
    pub value: toml::Value,
}

impl Coord {
    /// The value as a number (integers widened), if it is one.
    pub fn number(&self) -> Option<f64> {
        match &self.value {
            toml::Value::Float(f) => Some(*f),
            toml::Value::Integer(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The value as written in a case name or legend.
    pub fn value_text(&self) -> String {
        match &self.value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Float(f) => format!("{f}"),
            other => other.to_string(),
        }
    }
}

/// Everything one case produced.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutput {
    /// Case name (file stem of `<case>.csv`).
    pub name: String,
    /// Its sweep coordinates (empty without sweeps).
    pub coords: Vec<Coord>,
    /// Its methods, in plan order (the first writes `<case>.csv`).
    pub methods: Vec<MethodResult>,
    /// Case tables: the reference's (`<case>.<what>.csv`).
    pub tables: Vec<CaseTable>,
    /// Case scalars: the reference's and those of [`Study::finish_case`].
    pub scalars: Vec<Scalar>,
    /// Timings of the reference solver.
    pub reference_timings: Vec<Timing>,
    /// Parts of the case other than its methods that failed (the reference,
    /// the comparison): `(what, error)`.
    pub failures: Vec<(String, SolverError)>,
}

impl CaseOutput {
    /// The case table `what`.
    pub fn table(&self, what: &str) -> Option<&CaseTable> {
        self.tables.iter().find(|t| t.what == what)
    }

    /// The case scalar `name`.
    pub fn scalar(&self, name: &str) -> Option<f64> {
        find_scalar(&self.scalars, name)
    }

    /// The method labelled `label`.
    pub fn method(&self, label: &str) -> Option<&MethodResult> {
        self.methods.iter().find(|m| m.label() == label)
    }

    /// The coordinate of sweep key `key`.
    pub fn coord(&self, key: &str) -> Option<&Coord> {
        self.coords.iter().find(|c| c.key == key)
    }

    /// Every timing of the case: the successful methods', then the
    /// reference's.
    pub fn timings(&self) -> impl Iterator<Item = &Timing> + Clone {
        self.methods
            .iter()
            .filter_map(MethodResult::timing)
            .chain(&self.reference_timings)
    }

    /// Whether every method and every other part succeeded.
    pub fn all_ok(&self) -> bool {
        self.failures.is_empty() && self.methods.iter().all(|m| m.outcome.is_ok())
    }
}

/// A study-level scalar, possibly of one method and one group of cases (a
/// convergence order per method and per value of the other swept keys).
#[derive(Debug, Clone, PartialEq)]
pub struct StudyScalar {
    /// The scalar.
    pub scalar: Scalar,
    /// The method label it belongs to, if any.
    pub method: Option<String>,
    /// The group of cases it was derived from, e.g. `alpha_b=-0.1`; empty
    /// when it covers the whole study.
    pub group: String,
}

impl StudyScalar {
    /// A scalar of the whole study.
    pub fn study(scalar: Scalar) -> Self {
        Self {
            scalar,
            method: None,
            group: String::new(),
        }
    }
}

/// The cells of one column of a [`StudyTable`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// Numbers.
    Float(Vec<f64>),
    /// `true` / `false`.
    Bool(Vec<bool>),
    /// Text.
    Text(Vec<String>),
}

impl Cells {
    /// Number of cells.
    pub fn len(&self) -> usize {
        match self {
            Cells::Float(v) => v.len(),
            Cells::Bool(v) => v.len(),
            Cells::Text(v) => v.len(),
        }
    }

    /// True without cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A study-level result table, written as `DIR/<study>/<stem>.csv` (e.g.
/// a continuation's `branch.csv`); its columns may be numbers, booleans
/// or text, each documented in the study's README.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyTable {
    /// File stem.
    pub stem: String,
    /// What it holds, for the README.
    pub doc: String,
    /// (name, meaning and unit, cells), all of one length.
    pub columns: Vec<(String, String, Cells)>,
}

/// What a study derives from all its cases.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StudySummary {
    /// Study-level scalars (e.g. `order`), available to checks.
    pub scalars: Vec<StudyScalar>,
    /// Figures for the report.
    pub figures: Vec<Figure>,
    /// Sentences for the report: modelling choices, readings of the paper.
    pub notes: Vec<String>,
    /// Study-level tables (`DIR/<study>/<stem>.csv`).
    pub tables: Vec<StudyTable>,
    /// The kind's own speed-ups at equal accuracy (e.g. against a peer
    /// tool's measured curve; `baseline` names it): measured times, so
    /// written to `speedup.csv` with the harness's, never a scalar.
    pub speedups: Vec<crate::harness::rows::SpeedupRow>,
    /// The converged error ranges behind the kind's own speed-ups (one per
    /// method, baseline and group; see `harness::sweep::converged_range`);
    /// a comparison without one is written as not assessed.
    pub speedup_ranges: Vec<crate::harness::rows::SpeedupRange>,
    /// Study-level values derived from measured times (e.g. a cost ratio
    /// at equal accuracy): they differ between runs, so they are neither
    /// written to study.csv nor available to checks, only to claims
    /// (`harness::claims`), whose `claims.csv` shows them.
    pub measured: Vec<StudyScalar>,
}

impl StudySummary {
    /// The study scalar `name` of the whole study (no method, no group).
    pub fn scalar(&self, name: &str) -> Option<f64> {
        self.scalars
            .iter()
            .find(|s| s.scalar.name == name && s.method.is_none() && s.group.is_empty())
            .map(|s| s.scalar.value)
    }

    /// A scalar of the whole study.
    pub fn push(&mut self, scalar: Scalar) {
        self.scalars.push(StudyScalar::study(scalar));
    }
}

/// The accuracy and cost a kind measures, for the harness's convergence
/// orders, work-precision diagrams and speed-ups at equal accuracy.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Measures {
    /// The method scalar that is the study's accuracy measure (an error
    /// against the case's reference), e.g. `rms_error_x`, with its meaning
    /// and unit.
    pub error: Option<(String, String)>,
    /// Sweep keys that are cost parameters (a time step, a tolerance, a
    /// penalty stiffness): a sweep over one of them gives work-precision.
    pub cost_keys: Vec<String>,
    /// Cost keys that are step sizes: the error is fitted as C h^p over
    /// them (convergence order p).
    pub step_keys: Vec<String>,
    /// `(method name or label, cost key)`: the cost key of a method when it
    /// is not the study's first swept cost key (an adaptive method's
    /// tolerance beside a fixed-step method's dt, a regularised law's
    /// sharpness, in a zipped sweep).
    pub method_cost_keys: Vec<(String, String)>,
}

/// A study ready to run: built by its kind from a validated spec.
pub trait Study: Send + Sync {
    /// The methods case `case` runs, in order (the first writes
    /// `<case>.csv`); labels unique within the case.
    fn methods(&self, case: usize) -> Vec<MethodPlan>;

    /// The label of the method speed-ups are measured against (the paper's
    /// method), unless the spec names one.
    fn default_baseline(&self) -> Option<String>;

    /// The scalar, column and table names the study will produce, so that
    /// its checks are validated before anything runs.
    fn provides(&self) -> Provides;

    /// Meanings and units of the counters and stats of the kind's method
    /// runs (`steps`, `lcp_pivots`, ...), for the result README.
    fn counter_docs(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// The nominal order of convergence of method `label` over cost key
    /// `key` (e.g. 2 for the trapezoidal rule over `integrator.dt`), if the
    /// kind declares one: the speed-ups at equal accuracy judge each
    /// method's asymptotic range against it (`harness::sweep::converged_range`);
    /// without one, against the order measured over its finest levels.
    fn nominal_order(&self, _label: &str, _key: &str) -> Option<f64> {
        None
    }

    /// What the study's accuracy measure and cost parameters are.
    fn measures(&self) -> Measures {
        Measures::default()
    }

    /// Whether case `case` computes a reference (a job of its own).
    fn has_reference(&self, _case: usize) -> bool {
        false
    }

    /// The method name under which case `case`'s reference is timed (the
    /// `method` of its `ReferenceOutput::timings`, a row of the timings
    /// tables), if it is: the per-step kernels cover it like a method.
    fn timed_reference(&self, _case: usize) -> Option<&'static str> {
        None
    }

    /// Names of the study values the kind derives from measured times
    /// (`StudySummary::measured`): claims may name them.
    fn measured_scalars(&self) -> Vec<String> {
        Vec::new()
    }

    /// A key naming everything case `case`'s reference depends on: cases
    /// of the study with equal keys have equal references, computed once
    /// (a sweep over a method's step or tolerance leaves the reference as
    /// it is). None (the default): the case's reference is its own job.
    fn reference_key(&self, _case: usize) -> Option<String> {
        None
    }

    /// The cost estimate of a job of case `case` (its method `method`, or
    /// its reference when `None`) in the unit of the harness's default, a
    /// time step: sharded runs balance their parts by it
    /// (`harness::shard`). None (the default): `t_end / dt` of the case's
    /// settings.
    fn job_cost(&self, _case: usize, _method: Option<usize>) -> Option<f64> {
        None
    }

    /// Computes the reference of case `case`.
    fn run_reference(
        &self,
        case: usize,
        _progress: &indicatif::ProgressBar,
    ) -> Result<ReferenceOutput, SolverError> {
        Err(SolverError::other(
            "reference",
            format!("case {case} has no reference"),
        ))
    }

    /// Runs method `method` of case `case`. May be called several times (the
    /// harness repeats short runs for their timing): it must be
    /// deterministic. `progress` may be advanced (its length set by the
    /// study); it is hidden when stderr is not a terminal.
    fn run_method(
        &self,
        case: usize,
        method: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<MethodOutput, SolverError>;

    /// After every job of case `case`: adds to each successful method its
    /// scalars against the reference (`methods[i].outcome`), and returns
    /// further case scalars. An error here is a failure of the case's
    /// comparison, not of its methods.
    fn finish_case(
        &self,
        _case: usize,
        _reference: Option<&ReferenceOutput>,
        _methods: &mut [MethodResult],
    ) -> Result<Vec<Scalar>, SolverError> {
        Ok(Vec::new())
    }

    /// Derives study-level scalars, figures and notes from all cases
    /// (failed methods included, so a summary can say what is missing).
    fn summarize(&self, cases: &[CaseOutput]) -> StudySummary;
}

/// What a study will produce, so that checks can be validated before the
/// run. Names may be patterns with one `*` standing for digits (`x*_max`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provides {
    /// Study-level scalar names.
    pub study_scalars: Vec<String>,
    /// Scalars of each method run (summary.csv columns).
    pub method_scalars: Vec<String>,
    /// Scalars of each case (summary.csv columns).
    pub case_scalars: Vec<String>,
    /// Column patterns of the method series (e.g. `t`, `x*`).
    pub columns: Vec<String>,
    /// Names of the case tables (e.g. `exact`).
    pub tables: Vec<String>,
    /// Labels of the methods the cases run.
    pub methods: Vec<String>,
}

impl Provides {
    /// Every scalar name: the study's, the methods' and the cases'.
    pub fn scalars(&self) -> impl Iterator<Item = &String> {
        self.study_scalars
            .iter()
            .chain(&self.method_scalars)
            .chain(&self.case_scalars)
    }
}

/// `v` as owned names (the lists of a [`Provides`]).
pub fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}
