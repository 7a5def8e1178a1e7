//! The data a run produces, handed from the runner to the writers (results,
//! report, history). Plain data only.

use std::path::PathBuf;

use crate::harness::rows::{CheckRow, ClaimRow, SpeedupRange, SpeedupRow, WorkPrecisionRow};
use crate::harness::study::{CaseOutput, StudySummary};

/// Everything about one study after its run.
#[derive(Debug, Clone)]
pub struct StudyResult {
    /// Study name (`DIR/<name>/`).
    pub name: String,
    /// Study kind, e.g. `gap-system`.
    pub kind: String,
    /// One-paragraph description from the spec (may be empty).
    pub description: String,
    /// What it reproduces (paper, figure or table), from the spec's
    /// `reproduces` (may be empty).
    pub reproduces: String,
    /// The spec's parameters, `(dotted key, value)`: the first case's
    /// table with every swept key shown with all its values.
    pub parameters: Vec<(String, String)>,
    /// The spec file the study came from.
    pub file: PathBuf,
    /// The method label speed-ups are measured against, if any.
    pub baseline: Option<String>,
    /// Case results in case order.
    pub cases: Vec<CaseOutput>,
    /// What the study (and the harness, from its sweeps) derived.
    pub summary: StudySummary,
    /// Work-precision points, when a cost parameter was swept.
    pub work_precision: Vec<WorkPrecisionRow>,
    /// Speed-ups at equal accuracy over the baseline.
    pub speedups: Vec<SpeedupRow>,
    /// The converged error ranges behind the speed-ups, one per (method,
    /// baseline, group) the harness compared (refused comparisons too).
    pub speedup_ranges: Vec<SpeedupRange>,
    /// Evaluated checks (a failed method contributes a failed `solver` row).
    pub checks: Vec<CheckRow>,
    /// The seed's claims with their verdicts.
    pub claims: Vec<ClaimRow>,
    /// Meanings of the kind's counters and stats, `(name, doc)`.
    pub counter_docs: Vec<(String, String)>,
}

/// The job name of a case's reference solve: in job labels and as the
/// `what` of its failure ([`StudyResult::failures`]).
pub const REFERENCE_JOB: &str = "reference";

/// The `what` of a failed comparison of a case's methods with its
/// reference (the kind's `finish_case`).
pub const COMPARISON_JOB: &str = "comparison";

impl StudyResult {
    /// A study named `name` of kind `kind` with nothing in it (file
    /// `x.toml`), for the unit tests.
    #[cfg(test)]
    pub(crate) fn empty(name: &str, kind: &str) -> Self {
        Self {
            name: name.into(),
            kind: kind.into(),
            description: String::new(),
            reproduces: String::new(),
            parameters: vec![],
            file: "x.toml".into(),
            baseline: None,
            cases: vec![],
            summary: Default::default(),
            work_precision: vec![],
            speedups: vec![],
            speedup_ranges: vec![],
            checks: vec![],
            claims: vec![],
            counter_docs: vec![],
        }
    }

    /// Method runs that failed, `(case, label, error)`, and other failed
    /// parts of cases, `(case, what, error)`: [`REFERENCE_JOB`],
    /// [`COMPARISON_JOB`].
    pub fn failures(&self) -> Vec<(&str, &str, String)> {
        let mut out = Vec::new();
        for c in &self.cases {
            for m in &c.methods {
                if let Err(e) = &m.outcome {
                    out.push((c.name.as_str(), m.label(), e.to_string()));
                }
            }
            for (what, e) in &c.failures {
                out.push((c.name.as_str(), what.as_str(), e.to_string()));
            }
        }
        out
    }
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
    /// CPU model alone (`model name` of /proc/cpuinfo), or `unknown`.
    pub cpu_model: String,
    /// Number of logical cores available to the run, or `unknown`.
    pub logical_cores: String,
    /// Total memory (`MemTotal` of /proc/meminfo, e.g. `23.5 GiB`), or
    /// `unknown`.
    pub memory: String,
    /// Operating system (`PRETTY_NAME` of /etc/os-release, else `uname
    /// -sr`), or `unknown`.
    pub os: String,
    /// Kernel (`uname -sr`), or `unknown`.
    pub kernel: String,
    /// Whether the build is optimised, its cargo profile, optimisation
    /// level and debug assertions, e.g. `optimised, cargo profile dev:
    /// opt-level 2, debug assertions off` (the profile alone does not say:
    /// this crate's dev profile is optimised).
    pub build: String,
    /// How times were measured (`harness::history::TIMING_METHOD`).
    pub timing_method: String,
    /// Versions of the peer tools behind the reference files, per
    /// `reference-data/<dir>/` (named in its SOURCE.md, e.g. `SciPy
    /// 1.17.1`).
    pub reference_tools: std::collections::BTreeMap<String, Vec<String>>,
    /// The command line that reproduces the run.
    pub command: String,
    /// Suite or study file given on the command line.
    pub spec_file: String,
    /// The resolved spec: every study with its cases' full settings.
    pub spec: serde_json::Value,
    /// Random seeds used (empty: every study is deterministic).
    pub seeds: serde_json::Value,
    /// A merged run's parts (`harness::merge`): per shard its index,
    /// host, date and commit; absent for a single run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<serde_json::Value>,
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
    /// The calibration kernel's CPU times and the kernels' instruction
    /// counts (`harness::kernels`).
    pub costs: crate::harness::kernels::RunCosts,
}

impl RunResult {
    /// True when every check of every study passed and every claim has
    /// the verdict its spec expects.
    pub fn all_passed(&self) -> bool {
        self.studies.iter().all(|s| {
            s.checks.iter().all(|c| c.passed) && s.claims.iter().all(ClaimRow::as_expected)
        })
    }
}
