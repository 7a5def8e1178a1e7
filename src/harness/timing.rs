//! Timing a method run: run it, and run it again while the runs are short,
//! so that a 30 ms run is not at the mercy of one scheduler hiccup; record
//! the median and the spread of the runs, and check that every run gave
//! the same exact counters (a method must be deterministic).
//!
//! Policy: runs are repeated until their CPU time adds up to
//! [`MIN_TOTAL_CPU_S`] and at least [`MIN_RUNS`] were made, but never past
//! [`MAX_TOTAL_CPU_S`] of CPU time or [`MAX_RUNS`] runs. A run that alone
//! takes [`MAX_TOTAL_CPU_S`] is timed once (spread 0).

use crate::error::SolverError;
use crate::harness::clock::Stopwatch;
use crate::harness::study::{MethodOutput, MethodRun, Timing};

/// Repeat until the runs add up to this much CPU time [s]...
pub const MIN_TOTAL_CPU_S: f64 = 0.25;
/// ... and at least this many runs were made (the spread needs several) ...
pub const MIN_RUNS: usize = 3;
/// ... unless this much CPU time [s] has been spent ...
pub const MAX_TOTAL_CPU_S: f64 = 2.0;
/// ... or this many runs were made.
pub const MAX_RUNS: usize = 20;

/// Median of a non-empty slice (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Whether another run is due after `runs` runs that took `total_cpu` s.
pub fn another_run(runs: usize, total_cpu: f64) -> bool {
    // A NaN total (no thread clock) stops the repetitions.
    if runs >= MAX_RUNS || total_cpu.is_nan() || total_cpu >= MAX_TOTAL_CPU_S {
        return false;
    }
    runs < MIN_RUNS || total_cpu < MIN_TOTAL_CPU_S
}

/// Runs `run` (argument: the run's index, 0 for the first) as often as the
/// policy asks and returns the first run's output with the timing. A failed
/// run fails the method; a repeated run with other counters is an error.
pub fn time_method(
    label: &str,
    mut run: impl FnMut(usize) -> Result<MethodOutput, SolverError>,
) -> Result<MethodRun, SolverError> {
    let watch = Stopwatch::start();
    let output = run(0)?;
    let (wall, cpu) = watch.elapsed();
    let (mut walls, mut cpus) = (vec![wall], vec![cpu]);
    // A NaN CPU time (no thread clock) ends the repetitions at once.
    while another_run(cpus.len(), cpus.iter().sum()) {
        let watch = Stopwatch::start();
        let again = run(cpus.len())?;
        let (wall, cpu) = watch.elapsed();
        if again.counters != output.counters {
            return Err(SolverError::other(
                label.to_string(),
                format!(
                    "a repeated run gave other counters ({:?} vs {:?}): the method is not deterministic",
                    again.counters, output.counters
                ),
            ));
        }
        walls.push(wall);
        cpus.push(cpu);
    }
    let lo = cpus.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = cpus.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let timing = Timing {
        method: label.to_string(),
        wall_s: median(&walls),
        cpu_s: median(&cpus),
        cpu_s_spread: 0.5 * (hi - lo),
        runs: cpus.len(),
        counters: output.counters.clone(),
        stats: output.stats.clone(),
    };
    Ok(MethodRun { output, timing })
}

/// CPU seconds per time step, `cpu_s / steps`: `None` when the method has no
/// `steps` counter, or it is not positive, or the CPU time is not finite.
pub fn cpu_per_step(t: &Timing) -> Option<f64> {
    let steps = t.counter("steps")?;
    (steps > 0.0 && t.cpu_s.is_finite()).then(|| t.cpu_s / steps)
}

/// The speed-up of each timing of one case over the baseline's timing in
/// that case: `cpu_s(baseline) / cpu_s(this)`, given only when both took the
/// same (positive) number of steps, so that it is also the per-step ratio.
/// `None` for runs with other steps (adaptive methods), without a baseline
/// run, or with a non-finite time.
pub fn speedups<'a>(
    timings: impl Iterator<Item = &'a Timing> + Clone,
    baseline: Option<&str>,
) -> Vec<Option<f64>> {
    let base = baseline.and_then(|b| timings.clone().find(|t| t.method == b));
    timings
        .map(|t| {
            let base = base?;
            let (sb, st) = (base.counter("steps")?, t.counter("steps")?);
            let ok = sb == st && sb > 0.0 && base.cpu_s.is_finite() && t.cpu_s > 0.0;
            ok.then(|| base.cpu_s / t.cpu_s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn short_runs_are_repeated_long_ones_are_not() {
        assert!(another_run(1, 0.01));
        assert!(another_run(2, 0.9), "fewer than MIN_RUNS");
        assert!(!another_run(3, 0.3), "enough runs and enough time");
        assert!(another_run(3, 0.1), "not enough time yet");
        assert!(!another_run(1, 2.5), "one long run is enough");
        assert!(!another_run(MAX_RUNS, 0.0));
        assert!(!another_run(1, f64::NAN), "no clock: no repetitions");
    }

    #[test]
    fn counters_that_change_between_runs_are_an_error() {
        let err = time_method("m", |i| {
            Ok(MethodOutput {
                counters: vec![("steps".into(), i as f64)],
                ..MethodOutput::default()
            })
        })
        .unwrap_err();
        assert!(err.to_string().contains("not deterministic"), "{err}");
        let run = time_method("m", |_| {
            Ok(MethodOutput {
                counters: vec![("steps".into(), 5.0)],
                ..MethodOutput::default()
            })
        })
        .expect("deterministic");
        assert!(run.timing.runs >= MIN_RUNS);
        assert!(run.timing.cpu_s_spread >= 0.0);
        assert_eq!(run.timing.counter("steps"), Some(5.0));
    }
}
