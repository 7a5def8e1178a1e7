//! How the performance section names a benchmark and writes a value.

use crate::harness::format::{count, seconds};
use crate::harness::history;

/// `study / case / method` (`study / method` when the case is the study).
pub fn benchmark(study: &str, case: &str, method: &str) -> String {
    if case == study {
        format!("{study} / {method}")
    } else {
        format!("{study} / {case} / {method}")
    }
}

/// A value of `metric` with its unit.
pub fn value_text(metric: &str, v: f64) -> String {
    if history::is_time_metric(metric) {
        seconds(v)
    } else {
        count(v)
    }
}
