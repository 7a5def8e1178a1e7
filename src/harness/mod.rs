//! The experiment harness: spec loading, runner, checks, results, report and
//! performance history.

pub mod checks;
pub mod figure;
pub mod outcome;
pub mod reference;
pub mod spec;
pub mod study;
pub mod table;
