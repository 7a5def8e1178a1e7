//! A study ready to run: its spec, the kind's study object, each case's
//! methods, its resolved checks and claims and its job time limit. The
//! runner makes it; the writers and the sharded runs read it.

use std::sync::Arc;
use std::time::Duration;

use crate::harness::checks::ResolvedCheck;
use crate::harness::claims::ResolvedClaim;
use crate::harness::spec::StudySpec;
use crate::harness::study::{MethodPlan, Study};

/// A study ready to run.
pub struct PlannedStudy {
    /// Its spec as written.
    pub spec: StudySpec,
    /// The kind's study object (shared with the job threads).
    pub study: Arc<dyn Study>,
    /// The methods of each case.
    pub methods: Vec<Vec<MethodPlan>>,
    /// The method speed-ups are measured against.
    pub baseline: Option<String>,
    /// Its checks, resolved against what the study provides.
    pub checks: Vec<ResolvedCheck>,
    /// Its claims, resolved likewise.
    pub claims: Vec<ResolvedClaim>,
    /// The time limit of each of its jobs: the spec's `time_limit`, else
    /// [`crate::harness::spec::DEFAULT_TIME_LIMIT_S`]; `--time-limit` replaces it.
    pub time_limit: Duration,
    /// A sample of another study's assumption box (`--robustness`), None
    /// for a study of the spec.
    pub sample: Option<Sample>,
}

/// A sample of a study's assumption box (`harness::robustness`).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The study sampled.
    pub of: String,
    /// Its index, 0..N.
    pub index: usize,
    /// The value of each assumption, in the study's order.
    pub values: Vec<f64>,
}
