//! The history's rows and their reading: the columns, the timing methods
//! and their dates, the judge's constants, what a metric is, and the
//! history itself (see the parent module for the rules).

use std::collections::{HashMap, HashSet};

/// The columns of history.csv, in order.
pub const COLUMNS: [&str; 14] = [
    "commit", "date", "host", "suite", "study", "case", "method", "metric", "value", "spread",
    "timing", "profile", "rustc", "cpu",
];

/// The columns of history.csv files written before the timing method,
/// build profile, compiler, CPU and spread were recorded.
pub const COLUMNS_V1: [&str; 9] = [
    "commit", "date", "host", "suite", "study", "case", "method", "metric", "value",
];

/// How `harness::timing` measures times now: the thread CPU time
/// (`CLOCK_THREAD_CPUTIME_ID`) and wall time of a method run, repeated 3 to
/// 20 times until 0.25 s of CPU time is spent; the median is recorded, with
/// the half range as spread; the calibration kernel is timed at the start
/// and the end of the run's jobs (the unit CPU times are judged in). Change it whenever the timing policy changes:
/// the history then starts a new baseline instead of flagging the change.
pub const TIMING_METHOD: &str = "thread-cpu-median-calibrated-v3";
/// Timing of rows recorded from commit 661293e until the calibration
/// kernel was timed in the same run: the median of repeated runs.
pub const TIMING_MEDIAN_V2: &str = "thread-cpu-median-v2";
/// Timing of rows recorded before commit 37abbca: one run per method.
pub const TIMING_SINGLE_V0: &str = "thread-cpu-single-v0";
/// Timing of rows recorded from commit 37abbca to 661293e: the fastest of
/// repeated runs (runs under 0.25 s of CPU time were repeated).
pub const TIMING_FASTEST_V1: &str = "thread-cpu-fastest-v1";
/// Commit date of 37abbca (fastest of repeated runs).
pub const FASTEST_SINCE: &str = "2026-12-02T00:37:02Z";
/// Commit date of 661293e (median of repeated runs).
pub const MEDIAN_SINCE: &str = "2026-12-02T04:18:44Z";

/// What an unrecorded provenance field reads as.
pub const UNKNOWN: &str = "unknown";

/// The timing method of a row of an old file (no `timing` column), told
/// from its RFC 3339 UTC date (such dates sort as text): before
/// [`FASTEST_SINCE`] single runs, before [`MEDIAN_SINCE`] the fastest of
/// repeated runs, then the median ([`TIMING_METHOD`]).
pub fn legacy_timing(date: &str) -> &'static str {
    if date < FASTEST_SINCE {
        TIMING_SINGLE_V0
    } else if date < MEDIAN_SINCE {
        TIMING_FASTEST_V1
    } else {
        TIMING_MEDIAN_V2
    }
}

/// Number of previous commits whose median is the time baseline.
pub const BASELINE_COMMITS: usize = 5;
/// Relative change of an old (uncalibrated) time that is always tolerated
/// (noise floor).
pub const MIN_RELATIVE_SLOWDOWN: f64 = 0.20;
/// Relative change of a cost (instructions, estimated cycles) against the
/// previous commit beyond which it is slower or faster.
pub const COST_BAND: f64 = 0.01;
/// The quantile of the measured noise of unchanged code that bounds a
/// calibrated CPU time's band from below.
pub const CPU_NOISE_QUANTILE: f64 = 0.99;
/// Fewer measured changes of unchanged code than this: the noise is
/// [`CPU_UNKNOWN_NOISE`].
pub const CPU_MIN_NOISE_SAMPLES: usize = 100;
/// The relative noise of a calibrated CPU time before enough is measured.
pub const CPU_UNKNOWN_NOISE: f64 = 0.5;
/// Changes within this many robust standard deviations are noise.
pub const NOISE_SIGMAS: f64 = 3.0;
/// Factor from the median absolute deviation to a normal standard deviation.
pub const MAD_TO_SIGMA: f64 = 1.4826;

/// One row of history.csv. Equality treats NaN values and spreads as equal
/// to NaN (a missing spread reads back as NaN).
#[derive(Debug, Clone)]
pub struct HistoryRow {
    /// Commit hash (`+dirty` appended for an uncommitted work tree).
    pub commit: String,
    /// RFC 3339 UTC date of the run.
    pub date: String,
    /// Host name.
    pub host: String,
    /// Suite name.
    pub suite: String,
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// `wall_s`, `cpu_s` or a counter name.
    pub metric: String,
    /// The value (seconds for `wall_s` and `cpu_s`, a count otherwise).
    pub value: f64,
    /// `cpu_s`: half the range of the CPU times of the repeated runs; NaN
    /// for other metrics and where it was not recorded.
    pub spread: f64,
    /// How times were measured, e.g. [`TIMING_METHOD`].
    pub timing: String,
    /// Build profile (`debug`, `release`, or [`UNKNOWN`]).
    pub profile: String,
    /// `rustc --version` of the compiler (or [`UNKNOWN`]).
    pub rustc: String,
    /// CPU model and logical core count (or [`UNKNOWN`]).
    pub cpu: String,
}

/// The metric name of wall-clock seconds.
pub const WALL: &str = "wall_s";
/// The metric name of thread CPU seconds.
pub const CPU: &str = "cpu_s";

/// The metric name of a kernel's instruction count.
pub const INSTRUCTIONS: &str = "instructions";
/// The metric name of a kernel's estimated cycles.
pub const ESTIMATED_CYCLES: &str = "estimated_cycles";
/// The metric name of the share of the machine's CPU other processes took
/// while a run's jobs ran (a row of the calibration kernel).
pub const OTHERS_SHARE: &str = "others_cpu_share";
/// A run during which other processes took more than this share of the
/// machine's CPU is a shared run: its CPU times are not judged.
pub const MAX_OTHERS_SHARE: f64 = 0.1;
/// A relative change of the calibration kernel's CPU time (quiet runs)
/// against the median of its previous (up to) [`MACHINE_WINDOW`] values in
/// the same machine epoch beyond which the machine is taken to have
/// changed: a new machine epoch starts, and times are compared only within
/// one epoch. Unchanged code moved the kernel by at most 3.6 % between
/// quiet runs (3-5 Dec 2026); the VM change of 4 Dec moved it by -21 %.
pub const MACHINE_CHANGE: f64 = 0.10;
/// How many of the calibration kernel's previous values (quiet runs of the
/// current machine epoch) the machine-change test takes the median of.
pub const MACHINE_WINDOW: usize = 5;
/// The (study, case, method) of the calibration kernel's rows.
pub const CALIBRATION: (&str, &str, &str) = ("kernels", "calibration", "fixed-kernel");

/// What a metric is, and so how it is judged (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricKind {
    /// `wall_s`, `cpu_s`.
    Time,
    /// `instructions`, `estimated_cycles`.
    Cost,
    /// An exact solver counter.
    Counter,
    /// What the machine did beside the run ([`OTHERS_SHARE`]): shown, never
    /// judged.
    Environment,
}

/// The kind of `metric`.
pub fn metric_kind(metric: &str) -> MetricKind {
    if metric == WALL || metric == CPU {
        MetricKind::Time
    } else if metric == INSTRUCTIONS || metric == ESTIMATED_CYCLES {
        MetricKind::Cost
    } else if metric == OTHERS_SHARE {
        MetricKind::Environment
    } else {
        MetricKind::Counter
    }
}

/// Whether `metric` is a time (noisy, compared against a median) rather than
/// an exact counter.
pub fn is_time_metric(metric: &str) -> bool {
    metric_kind(metric) == MetricKind::Time
}

/// What times are comparable within: the same timing method on the same
/// machine (host and CPU) with the same build profile. A change of any part
/// starts a new baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config<'a> {
    /// Timing method.
    pub timing: &'a str,
    /// Host name.
    pub host: &'a str,
    /// CPU model and cores.
    pub cpu: &'a str,
    /// Build profile.
    pub profile: &'a str,
}

impl Config<'_> {
    /// What differs from `before`, e.g. `timing method thread-cpu-fastest-v1
    /// → thread-cpu-median-v2`; empty when nothing does.
    pub fn change_from(&self, before: &Config) -> String {
        let parts = [
            ("timing method", before.timing, self.timing),
            ("host", before.host, self.host),
            ("CPU", before.cpu, self.cpu),
            ("build profile", before.profile, self.profile),
        ];
        parts
            .iter()
            .filter(|(_, a, b)| a != b)
            .map(|(what, a, b)| format!("{what} {a} → {b}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl PartialEq for HistoryRow {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        self.commit == other.commit
            && self.date == other.date
            && self.host == other.host
            && self.suite == other.suite
            && self.study == other.study
            && self.case == other.case
            && self.method == other.method
            && self.metric == other.metric
            && same(self.value, other.value)
            && same(self.spread, other.spread)
            && self.timing == other.timing
            && self.profile == other.profile
            && self.rustc == other.rustc
            && self.cpu == other.cpu
    }
}

impl HistoryRow {
    /// Whether the metric is the wall time.
    pub fn is_wall_time(&self) -> bool {
        self.metric == WALL
    }

    /// Whether the metric is the thread CPU time.
    pub fn is_cpu_time(&self) -> bool {
        self.metric == CPU
    }

    /// Whether the metric is a time (wall or CPU) rather than a counter.
    pub fn is_time(&self) -> bool {
        is_time_metric(&self.metric)
    }

    /// The metric's kind.
    pub fn kind(&self) -> MetricKind {
        metric_kind(&self.metric)
    }

    /// Whether it is a row of the calibration kernel.
    pub fn is_calibration(&self) -> bool {
        (
            self.study.as_str(),
            self.case.as_str(),
            self.method.as_str(),
        ) == CALIBRATION
    }

    /// The baseline configuration the row was measured in.
    pub fn config(&self) -> Config<'_> {
        Config {
            timing: &self.timing,
            host: &self.host,
            cpu: &self.cpu,
            profile: &self.profile,
        }
    }
}

/// The whole performance history, rows in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct History {
    /// The rows.
    pub rows: Vec<HistoryRow>,
}

impl History {
    /// Distinct commits in order of first appearance.
    pub fn commits(&self) -> Vec<&str> {
        let mut seen = HashSet::new();
        self.rows
            .iter()
            .map(|r| r.commit.as_str())
            .filter(|c| seen.insert(*c))
            .collect()
    }

    /// Index of each commit in [`History::commits`].
    pub fn commit_indices(&self) -> HashMap<&str, usize> {
        self.commits()
            .into_iter()
            .enumerate()
            .map(|(i, c)| (c, i))
            .collect()
    }

    /// Distinct study names in order of first appearance.
    pub fn studies(&self) -> Vec<&str> {
        let mut seen = HashSet::new();
        self.rows
            .iter()
            .map(|r| r.study.as_str())
            .filter(|s| seen.insert(*s))
            .collect()
    }
}
