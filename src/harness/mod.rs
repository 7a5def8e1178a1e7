//! The experiment harness: spec loading, runner, checks, results, report and
//! performance history. It knows no study kind: the kinds come in as a
//! [`registry::Registry`] from the caller (the CLI passes
//! `studies::registry()`).

pub mod atomic;
pub mod checks;
pub mod claims;
pub mod clock;
pub mod compare;
pub mod figure;
pub mod format;
pub mod frame;
pub mod history;
pub mod jobs;
pub mod kernels;
pub mod kind;
pub mod manifest;
pub mod merge;
pub mod outcome;
pub mod plan;
pub mod plot;
pub mod reference;
pub mod registry;
pub mod report;
pub mod reserved;
pub mod results;
pub mod robustness;
pub mod rows;
pub mod runner;
pub mod shard;
pub mod slurm;
pub mod spec;
pub mod spec_view;
pub mod study;
pub mod sweep;
pub mod table;
pub mod timing;
