//! Verdicts over the unknowns: `PATH --robustness N` runs N samples of the
//! assumption box of every study that lists assumptions
//! (`[[study.assumption]]`, `harness::spec::Assumption`: the parameters
//! its seed does not give, each with a plausible range and its source),
//! judges the study's claims on each sample, and says where each claim
//! holds and which parameter decides it.
//!
//! - `design`: the samples, a Latin hypercube with a fixed seed per study,
//!   so that a rerun and every part of a sharded run take the same ones;
//! - `samples`: each sample as a study of its own (the spec with the
//!   assumed keys set in every case), planned and run like any study, so
//!   that a robustness run shards like any plan;
//! - `analysis`: a claim over the samples: the fraction where it holds
//!   with its 95 % Wilson interval, Spearman's rank correlation of each
//!   parameter with the verdict, the best single split of the box;
//! - `attach`: the samples onto their study's result: `robustness.csv`,
//!   each claim's `holds_in` and sentence (claims.csv, the report), one
//!   figure per claim;
//! - `expand`: the samples planned after their study, and their results
//!   attached to it (the runner calls both).
//!
//! A sample whose job failed is not judged (its claims are empty in
//! robustness.csv, and counted apart). The samples' own checks and claims
//! neither fail the run nor appear elsewhere: the study's results at its
//! nominal values are those of the run without `--robustness`.

mod analysis;
mod attach;
mod design;
mod expand;
mod samples;
pub mod saved;

pub use analysis::*;
pub use attach::*;
pub use design::*;
pub use expand::*;
pub use samples::*;
