//! Comparing revisions side by side (asv's `continuous` and `find`,
//! critcmp's table): `compare BASE [HEAD]` and `bisect GOOD BAD`.
//!
//! A ratio measured between two runs on a shared machine mixes the code's
//! change with the machine's; measured in one run, interleaved, it holds.
//! `compare`:
//! 1. builds both revisions ([`revision`]: a git worktree each, one binary
//!    per source tree, cached);
//! 2. counts each kernel's instructions (and estimated cycles) under
//!    callgrind, once per revision: deterministic, so one count is exact;
//! 3. runs the suite's timed jobs in R rounds, interleaved: BASE, HEAD in
//!    even rounds and HEAD, BASE in odd ones, so that a drift of the
//!    machine's speed falls on both sides alike;
//! 4. judges each benchmark ([`verdict`]): a count that moves beyond 1 %,
//!    a CPU time whose bootstrap interval over the rounds lies outside 1 ±
//!    the noise measured in the same run;
//! 5. writes `compare.csv` (`benchmark,measure,base,head,ratio,lo,hi,
//!    verdict`) and prints the changes, the largest first.
//!
//! The exit code is 1 when a benchmark is slower beyond `--threshold`
//! (its whole interval above 1 + threshold), so that CI can gate a change
//! on it; 0 otherwise; 2 when no comparison could be made (a bad
//! revision, a build that fails, no Valgrind).
//!
//! [`bisect`] finds the first commit between a good and a bad one whose
//! kernel count rose beyond the threshold, with the same builds.

pub mod bisect;
pub mod comparison;
pub mod error;
pub mod measure;
pub mod output;
pub mod revision;
pub mod verdict;

use std::path::PathBuf;

use comparison::Values;
pub use comparison::{Comparison, Row};
pub use error::CompareError;
use revision::Built;

/// What `compare` measures.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// The base revision.
    pub base: String,
    /// The head revision; None: the working tree.
    pub head: Option<String>,
    /// The suite whose timed jobs run, a path in each revision's tree;
    /// None: no timed jobs.
    pub suite: Option<PathBuf>,
    /// Whether the kernels are counted.
    pub kernels: bool,
    /// Only benchmarks whose name contains one of these (all when empty).
    pub filters: Vec<String>,
    /// Interleaved rounds of the suite.
    pub rounds: usize,
    /// The slowdown (a fraction) beyond which the exit code is 1.
    pub threshold: f64,
    /// Where compare.csv goes.
    pub out: PathBuf,
}

/// `compare BASE [HEAD]` in the repository around the current directory
/// (module doc).
pub fn compare(options: &CompareOptions) -> Result<Comparison, CompareError> {
    if !(options.threshold.is_finite() && options.threshold >= 0.0) {
        return Err(CompareError::Input(format!(
            "--threshold {}: a percentage >= 0 is expected",
            options.threshold * 100.0
        )));
    }
    if options.rounds == 0 {
        return Err(CompareError::Input(
            "--rounds 0: at least 1 round is expected (3 or more for an interval)".to_string(),
        ));
    }
    let cwd = std::env::current_dir().map_err(|e| CompareError::Input(e.to_string()))?;
    let repo = revision::repository(&cwd)?;
    let base = revision::resolve(&repo, Some(&options.base))?;
    let head = revision::resolve(&repo, options.head.as_deref())?;
    let built = [
        revision::build(&repo, &base)?,
        revision::build(&repo, &head)?,
    ];
    let mut values: [Values; 2] = Default::default();
    let mut uncounted = Vec::new();
    if options.kernels {
        uncounted = count_kernels(&built, &options.filters, &mut values)?;
    }
    if let Some(suite) = &options.suite {
        time_suite(&built, suite, options, &mut values)?;
    }
    let (rows, mut unmatched) = comparison::judge(&values);
    unmatched.extend(uncounted);
    let csv = options.out.join("compare.csv");
    output::write_csv(&csv, &rows)?;
    output::write_rounds(&options.out.join("compare-rounds.csv"), &values)?;
    Ok(Comparison {
        base,
        head,
        rows,
        unmatched,
        csv,
    })
}

/// The kernels both revisions register (filtered), counted once each; the
/// names of those only one revision registers, uncounted (no ratio to
/// take), as [`Comparison::unmatched`] lists them.
fn count_kernels(
    built: &[Built; 2],
    filters: &[String],
    values: &mut [Values; 2],
) -> Result<Vec<(measure::Benchmark, &'static str)>, CompareError> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let registered = [kernel_names_of(&built[0])?, kernel_names_of(&built[1])?];
    let name = |n: &str| format!("{}{n}", measure::KERNEL_PREFIX);
    let mut only = Vec::new();
    for (side, label) in [(0, "base"), (1, "head")] {
        let other = &registered[1 - side];
        only.extend(
            registered[side]
                .iter()
                .filter(|n| !other.contains(n))
                .map(|n| name(n))
                .filter(|n| comparison::selected(n, filters))
                .map(|n| (n, label)),
        );
    }
    let common: Vec<String> = registered[0]
        .iter()
        .filter(|n| registered[1].contains(n) && comparison::selected(&name(n), filters))
        .cloned()
        .collect();
    for (side, b) in built.iter().enumerate() {
        eprintln!(
            "{} ({}): counting {} kernels under callgrind ...",
            b.revision.name,
            b.revision.short(),
            common.len()
        );
        for (key, v) in measure::kernels(b, &common, workers)? {
            values[side].entry(key).or_default().push(v);
        }
    }
    Ok(only)
}

/// The kernels of `b` but the calibration kernel (fixed code: no change
/// to find).
fn kernel_names_of(b: &Built) -> Result<Vec<String>, CompareError> {
    let calibration = crate::harness::kernels::CALIBRATION.info.name();
    Ok(measure::kernel_names(b)?
        .into_iter()
        .filter(|n| *n != calibration)
        .collect())
}

/// `rounds` runs of the suite per revision, interleaved (module doc).
fn time_suite(
    built: &[Built; 2],
    suite: &std::path::Path,
    options: &CompareOptions,
    values: &mut [Values; 2],
) -> Result<(), CompareError> {
    let scratch = measure::Scratch::new()?;
    for round in 0..options.rounds {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for side in order {
            let b = &built[side];
            eprintln!(
                "round {}/{}: {} ({}) runs {} ...",
                round + 1,
                options.rounds,
                b.revision.name,
                b.revision.short(),
                suite.display()
            );
            let times = measure::suite(b, suite, &scratch.0)?;
            for (name, cpu) in times {
                if comparison::selected(&name, &options.filters) {
                    values[side]
                        .entry((name, "cpu_s".to_string()))
                        .or_default()
                        .push(cpu);
                }
            }
        }
    }
    Ok(())
}
