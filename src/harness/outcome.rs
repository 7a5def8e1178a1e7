//! The data a run produces, handed from the runner to the writers (results,
//! report, history). Plain data only.

use std::path::PathBuf;

use crate::harness::study::{CaseResult, StudySummary};

/// One evaluated check: a row of `checks.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRow {
    /// Study name.
    pub study: String,
    /// Case name, or `*` for a study-level check.
    pub case: String,
    /// Check name from the spec.
    pub check: String,
    /// Metric, e.g. `max-abs`.
    pub metric: String,
    /// What the value was compared with, e.g. `exact` or `value 2`.
    pub reference: String,
    /// The measured value of the metric (NaN when it could not be computed).
    pub value: f64,
    /// The tolerance (or bound, for `at-least` / `at-most`).
    pub tolerance: f64,
    /// Whether the check passed. A NaN value never passes.
    pub passed: bool,
    /// Why it failed or what it compared (empty when nothing to add).
    pub detail: String,
}

/// Everything about one study after its run.
#[derive(Debug, Clone)]
pub struct StudyResult {
    /// Study name (`DIR/<name>/`).
    pub name: String,
    /// Study kind, e.g. `gap-system`.
    pub kind: String,
    /// One-paragraph description from the spec (may be empty).
    pub description: String,
    /// The spec file the study came from.
    pub file: PathBuf,
    /// Case results in case order (`Err` for a case whose solver failed).
    pub cases: Vec<(String, CaseResult)>,
    /// What the study derived from its cases.
    pub summary: StudySummary,
    /// Evaluated checks (a failed case contributes a failed `solver` row).
    pub checks: Vec<CheckRow>,
}

/// Provenance of a run (`manifest.json`, report footer).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Manifest {
    /// `git rev-parse HEAD`, or `unknown` outside a git checkout.
    pub commit: String,
    /// Whether the work tree had uncommitted changes.
    pub dirty: bool,
    /// `rustc --version` of the compiler that built the binary.
    pub rustc: String,
    /// Build profile (`debug` or `release`).
    pub profile: String,
    /// UTC date and time of the run, RFC 3339.
    pub date: String,
    /// Host name.
    pub host: String,
    /// CPU model and logical core count.
    pub cpu: String,
    /// The command line that reproduces the run.
    pub command: String,
    /// Suite or study file given on the command line.
    pub spec_file: String,
    /// The resolved spec: every study with its cases' full settings.
    pub spec: serde_json::Value,
    /// Random seeds used (empty: every study is deterministic).
    pub seeds: serde_json::Value,
}

/// A whole run.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// Suite name (file stem of the spec given on the command line).
    pub suite: String,
    /// Studies in spec order.
    pub studies: Vec<StudyResult>,
    /// Provenance.
    pub manifest: Manifest,
    /// Whether this run appends to the performance history (a full suite run).
    pub record_history: bool,
}

impl RunResult {
    /// True when every check of every study passed.
    pub fn all_passed(&self) -> bool {
        self.studies
            .iter()
            .all(|s| s.checks.iter().all(|c| c.passed))
    }
}
