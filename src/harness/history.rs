//! Performance history over commits: `<out>/history/history.csv` (committed
//! to git), one row per timing value of every case of every recorded run.
//!
//! Columns ([`COLUMNS`]): `commit,date,host,suite,study,case,method,metric,
//! value,spread,timing,profile,rustc,cpu`, where
//! - `metric` is `wall_s` (wall-clock seconds), `cpu_s` (CPU seconds of the
//!   thread that ran the method; absent when the thread clock was
//!   unavailable) or a counter name. The `stats` of a timing (derived floats
//!   such as `mean_active`) are not recorded: they are not exact counts, and
//!   they are no measure of speed;
//! - `spread` is the half range of the CPU times of the repeated runs behind
//!   a `cpu_s` (empty for other metrics and for rows that did not record it);
//! - `timing` names how the times were measured ([`TIMING_METHOD`]);
//! - `profile` is the build profile (`debug`, `release`), `rustc` the
//!   compiler's `rustc --version`, `cpu` the CPU model and logical core
//!   count of the machine (`host` is its name).
//!
//! The commit is `git rev-parse HEAD`, with `+dirty` appended when the work
//! tree had uncommitted changes.
//!
//! Files written before the last five columns existed ([`COLUMNS_V1`]) still
//! load: their `spread` is empty, `profile`, `rustc` and `cpu` are
//! `unknown`, and `timing` is told from the row's date by [`legacy_timing`]
//! (single run before commit 37abbca, fastest of repeated runs from it, the
//! median of repeated runs from 661293e). The next append rewrites the file
//! with all columns.
//!
//! # Comparison
//!
//! A *benchmark* is a (study, case, method, metric); its value at a commit
//! is the commit's most recent row; commits are ordered by first appearance
//! in the file. Metrics are of three kinds ([`MetricKind`]):
//! - *counters* (steps, iterations, pivots, factorizations, ...) are exact:
//!   a value that differs from the previous commit's is a
//!   [`CounterChange`], whatever the machine. A time or cost that changes
//!   at a commit where a counter of the same (study, case, method) changed
//!   is shown as that counter change ([`Verdict::WithCounters`]): the method
//!   changed, its speed did not;
//! - *costs*: the instruction count (`instructions`) and the estimated
//!   cycles (`estimated_cycles`) of the per-step kernels under Valgrind
//!   (`harness::kernels`), deterministic for a binary, Valgrind version and
//!   CPU. A cost is `Slower` when it exceeds the previous commit's value of
//!   its baseline by more than [`COST_BAND`] (1 %), `Faster` below by more;
//! - *times*: `cpu_s` (CPU seconds of the thread that ran the method) and
//!   `wall_s`, noisy on a shared machine.
//!
//! Times and costs are compared only within one *baseline*: the rows with
//! the same [`Config`] (timing method, host, CPU, build profile). A change
//! of any of these starts a new baseline ([`Verdict::NewBaseline`]): nothing
//! is flagged faster or slower across it.
//!
//! CPU times recorded with [`TIMING_METHOD`] are judged in units of the
//! calibration kernel timed in the same run (`harness::kernels::calibration`,
//! the rows `kernels / calibration / fixed-kernel / cpu_s`): n = cpu_s /
//! calibration, which takes out the machine's speed and load of that run.
//! With m = median and sigma = 1.4826 MAD (Rousseeuw & Croux, JASA 88
//! (1993) 1273) of n over the previous (up to) [`BASELINE_COMMITS`] commits,
//! the band is max(q m, 3 sigma, m (r + r_base + c + c_base)), where
//! - q is the noise of unchanged code measured in this baseline: the
//!   [`CPU_NOISE_QUANTILE`] quantile of |n_k / n_(k-1) - 1| over every
//!   benchmark and pair of consecutive commits before this one at which the
//!   benchmark's counters did not change, [`CPU_UNKNOWN_NOISE`] while fewer
//!   than [`CPU_MIN_NOISE_SAMPLES`] such changes are known;
//! - r and c are the relative spreads (half range over the value) of the
//!   repeated runs and of the calibration runs of the commit, r_base and
//!   c_base their medians over the window.
//!
//! A CPU time above m by more than the band is slower; it is a
//! [`Regression`] only when the next commit of the baseline is above the
//! same m + band too (a single slower commit is [`Verdict::Unconfirmed`]).
//! Older CPU times (other timing methods, no calibration) are judged on
//! their seconds with the band max(20 % m, 3 sigma, s + s_base) (s the
//! recorded spreads), without confirmation. A `wall_s` whose benchmark has
//! a judged `cpu_s` at the same commit is `Informational`; where there is
//! none (rows recorded before CPU time was measured), `wall_s` is judged
//! like an old CPU time.
//!
//! [`regressions`] lists the slower commits of the whole history, asv
//! style: a run of consecutive slower commits of a benchmark is one step,
//! listed at its first commit, and only while it is still present: the
//! benchmark's latest value is in the same baseline and still above that
//! step's m + band. A step in a superseded baseline (the timing method,
//! host, CPU or profile changed since) is no longer listed: it can be
//! neither confirmed nor undone.

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
}

/// The kind of `metric`.
pub fn metric_kind(metric: &str) -> MetricKind {
    if metric == WALL || metric == CPU {
        MetricKind::Time
    } else if metric == INSTRUCTIONS || metric == ESTIMATED_CYCLES {
        MetricKind::Cost
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

mod csv;
mod judge;

pub use csv::*;
pub use judge::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::OutputError;
    use crate::harness::atomic;
    use std::path::Path;

    fn row(commit: &str, host: &str, metric: &str, value: f64) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: "2026-12-01T00:00:00Z".into(),
            host: host.into(),
            suite: "all".into(),
            study: "sdof".into(),
            case: "dt-0.01".into(),
            method: "newmark-lcp".into(),
            metric: metric.into(),
            value,
            spread: f64::NAN,
            timing: TIMING_METHOD.into(),
            profile: "release".into(),
            rustc: "rustc 1.95.0".into(),
            cpu: "Test CPU (2 logical cores)".into(),
        }
    }

    fn wall_history(values: &[f64]) -> History {
        History {
            rows: values
                .iter()
                .enumerate()
                .map(|(i, &v)| row(&format!("c{i}"), "h", "wall_s", v))
                .collect(),
        }
    }

    #[test]
    fn a_fifty_percent_slowdown_is_flagged() {
        let flags = compare_latest(&wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]));
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].verdict, Verdict::Slower);
        assert_eq!(flags[0].baseline, Some(1.0));
        assert_eq!(flags[0].previous_commit.as_deref(), Some("c4"));
    }

    #[test]
    fn five_percent_noise_is_not_flagged() {
        let flags = compare_latest(&wall_history(&[1.0, 1.05, 0.95, 1.03, 0.97, 1.05]));
        assert_eq!(flags[0].verdict, Verdict::WithinNoise);
        assert!(!flags[0].verdict.is_flag());
    }

    #[test]
    fn a_noisy_baseline_widens_the_threshold_beyond_twenty_percent() {
        // MAD = 0.3 -> 3 sigma = 1.33 > 20 % of 1.0: a 30 % slowdown is noise.
        let (m, threshold, verdict) = wall_time_verdict(1.3, &[0.5, 1.0, 1.5, 0.7, 1.3]);
        assert_eq!(m, 1.0);
        assert!((threshold - 3.0 * 1.4826 * 0.3).abs() < 1e-12);
        assert_eq!(verdict, Verdict::WithinNoise);
    }

    #[test]
    fn only_the_last_five_commits_form_the_baseline() {
        let (m, _, verdict) = wall_time_verdict(1.5, &[10.0, 10.0, 10.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
        assert_eq!(m, 1.0);
        assert_eq!(verdict, Verdict::Slower);
    }

    #[test]
    fn a_changed_pivot_count_is_flagged_and_an_equal_one_is_not() {
        let history = History {
            rows: vec![
                row("a", "h", "lcp_pivots", 120.0),
                row("a", "h", "steps", 100.0),
                row("b", "h", "lcp_pivots", 121.0),
                row("b", "h", "steps", 100.0),
            ],
        };
        let flags = compare_latest(&history);
        let pivots = flags.iter().find(|f| f.metric == "lcp_pivots").unwrap();
        let steps = flags.iter().find(|f| f.metric == "steps").unwrap();
        assert_eq!(pivots.verdict, Verdict::Changed);
        assert_eq!((pivots.previous, pivots.latest), (Some(120.0), 121.0));
        assert_eq!(steps.verdict, Verdict::Unchanged);
    }

    #[test]
    fn first_commit_is_new_and_other_hosts_are_ignored_for_wall_times() {
        let flags = compare_latest(&wall_history(&[1.0]));
        assert_eq!(flags[0].verdict, Verdict::New);
        let history = History {
            rows: vec![
                row("a", "fast-host", "wall_s", 0.1),
                row("b", "slow-host", "wall_s", 1.0),
            ],
        };
        let flags = compare_latest(&history);
        assert_eq!(
            flags[0].verdict,
            Verdict::NewBaseline,
            "a different machine is not a baseline"
        );
        assert_eq!(flags[0].note, "host fast-host → slow-host");
    }

    #[test]
    fn a_commit_value_is_its_most_recent_row() {
        let history = History {
            rows: vec![
                row("a", "h", "wall_s", 1.0),
                row("b", "h", "wall_s", 9.0),
                row("b", "h", "wall_s", 1.05),
            ],
        };
        let flags = compare_latest(&history);
        assert_eq!(flags[0].latest, 1.05);
        assert_eq!(flags[0].verdict, Verdict::WithinNoise);
    }

    #[test]
    fn a_long_history_is_compared_per_benchmark() {
        // 300 commits x 100 benchmarks: grouping and commit lookup are hashed,
        // so this takes milliseconds, not minutes.
        let mut rows = Vec::new();
        for c in 0..300 {
            for k in 0..100 {
                let mut r = row(&format!("c{c}"), "h", "wall_s", 1.0);
                r.case = format!("k{k}");
                if k == 7 && c == 299 {
                    r.value = 2.0;
                }
                rows.push(r);
            }
        }
        let flags = compare_latest(&History { rows });
        assert_eq!(flags.len(), 100);
        let slower: Vec<&str> = flags
            .iter()
            .filter(|f| f.verdict == Verdict::Slower)
            .map(|f| f.case.as_str())
            .collect();
        assert_eq!(slower, vec!["k7"]);
        assert_eq!(flags[0].previous_commit.as_deref(), Some("c298"));
    }

    /// Five commits on a quiet machine, then a loaded one.
    fn timed_history(latest_wall: f64, latest_cpu: f64) -> History {
        let mut rows = Vec::new();
        for i in 0..5 {
            rows.push(row(&format!("c{i}"), "h", WALL, 1.0 + 0.01 * i as f64));
            rows.push(row(&format!("c{i}"), "h", CPU, 0.9 + 0.01 * i as f64));
        }
        rows.push(row("c5", "h", WALL, latest_wall));
        rows.push(row("c5", "h", CPU, latest_cpu));
        History { rows }
    }

    fn verdict_of(flags: &[HistoryFlag], metric: &str) -> Verdict {
        flags
            .iter()
            .find(|f| f.metric == metric)
            .map(|f| f.verdict)
            .unwrap()
    }

    #[test]
    fn a_loaded_machine_stretching_wall_time_is_not_a_slowdown() {
        let flags = compare_latest(&timed_history(3.0, 0.93));
        assert_eq!(verdict_of(&flags, CPU), Verdict::WithinNoise);
        assert_eq!(verdict_of(&flags, WALL), Verdict::Informational);
        assert!(flags.iter().all(|f| !f.verdict.is_flag()));
        let wall = flags.iter().find(|f| f.metric == WALL).unwrap();
        assert!(
            wall.baseline.is_some(),
            "the wall-time change is still shown"
        );
    }

    #[test]
    fn a_cpu_time_slowdown_is_flagged() {
        let flags = compare_latest(&timed_history(1.02, 1.5));
        assert_eq!(verdict_of(&flags, CPU), Verdict::Slower);
        assert_eq!(verdict_of(&flags, WALL), Verdict::Informational);
    }

    #[test]
    fn old_rows_without_cpu_time_fall_back_to_wall_time() {
        let mut history = wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]);
        history.rows.push(row("c5", "h", CPU, 1.4));
        let flags = compare_latest(&history);
        assert_eq!(verdict_of(&flags, CPU), Verdict::New);
        assert_eq!(verdict_of(&flags, WALL), Verdict::Slower);
    }

    #[test]
    fn a_read_error_is_a_read_error() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be cannot be read as one.
        let err = load(dir.path()).unwrap_err();
        assert!(matches!(err, OutputError::Read { .. }), "{err:?}");
        assert!(err.to_string().contains("cannot read"), "{err}");
    }

    #[test]
    fn history_round_trips_through_csv() {
        let dir = tempfile::tempdir().unwrap();
        let path = path(dir.path());
        assert!(
            load(&path).unwrap().rows.is_empty(),
            "missing file = empty history"
        );
        let history = History {
            rows: vec![
                row("0123456789abcdef", "h,1", "wall_s", 0.1 + 0.2),
                row("1e5", "h", "lcp_pivots", 7.0),
            ],
        };
        atomic::write_file(&path, &to_csv(&path, &history).unwrap()).unwrap();
        assert_eq!(load(&path).unwrap(), history);
    }

    #[test]
    fn a_file_with_a_wrong_header_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.csv");
        std::fs::write(&path, "commit,value\nabc,1\n").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("expected `commit,date,host"), "{err}");
    }

    /// Rows of an old file: no spread, timing, profile, rustc or cpu.
    const V1_FILE: &str = "commit,date,host,suite,study,case,method,metric,value
a,2026-12-02T00:04:16Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.02
b,2026-12-02T00:38:52Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.012
c,2026-12-02T05:03:10Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.008
c,2026-12-02T05:03:10Z,vm,all,sdof,dt-0.01,newmark-lcp,steps,100.0
";

    #[test]
    fn old_rows_load_with_their_timing_method_told_by_date() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.csv");
        std::fs::write(&path, V1_FILE).unwrap();
        let h = load(&path).unwrap();
        let timings: Vec<&str> = h.rows.iter().map(|r| r.timing.as_str()).collect();
        assert_eq!(
            timings,
            [
                TIMING_SINGLE_V0,
                TIMING_FASTEST_V1,
                TIMING_MEDIAN_V2,
                TIMING_MEDIAN_V2
            ]
        );
        assert!(h.rows.iter().all(|r| r.profile == UNKNOWN
            && r.rustc == UNKNOWN
            && r.cpu == UNKNOWN
            && r.spread.is_nan()));
        assert_eq!(h.rows[0].value, 0.02);
        // Three timing methods: three baselines, nothing judged.
        let flags = compare_latest(&h);
        assert_eq!(verdict_of(&flags, CPU), Verdict::NewBaseline);
        assert!(regressions(&h).is_empty());
        assert_eq!(baseline_changes(&h).len(), 2);
    }

    #[test]
    fn the_committed_history_loads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/history/history.csv");
        let h = load(&path).unwrap();
        assert!(h.rows.len() > 1000, "{} rows", h.rows.len());
        assert!(
            h.rows
                .iter()
                .all(|r| !r.timing.is_empty() && !r.cpu.is_empty() && !r.profile.is_empty())
        );
        // Its oldest rows were single runs.
        assert_eq!(h.rows[0].timing, TIMING_SINGLE_V0);
        let _ = (compare_latest(&h), regressions(&h), counter_changes(&h));
    }

    #[test]
    fn an_old_file_is_rewritten_with_all_columns_and_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.csv");
        std::fs::write(&path, V1_FILE).unwrap();
        let mut h = load(&path).unwrap();
        let mut new = row("d", "h", CPU, 0.5);
        new.spread = 0.01;
        h.rows.push(new);
        atomic::write_file(&path, &to_csv(&path, &h).unwrap()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next(), Some(COLUMNS.join(",").as_str()));
        let back = load(&path).unwrap();
        assert_eq!(back.rows.len(), h.rows.len());
        assert_eq!(back, h);
        assert_eq!(back.rows[4].spread, 0.01);
    }

    /// Five quiet commits in one configuration, then `latest` in the
    /// configuration `change` makes.
    fn changed_config(latest: f64, change: impl Fn(&mut HistoryRow)) -> History {
        let mut rows: Vec<HistoryRow> = (0..5)
            .map(|i| row(&format!("c{i}"), "h", CPU, 1.0 + 0.01 * i as f64))
            .collect();
        let mut last = row("c5", "h", CPU, latest);
        change(&mut last);
        rows.push(last);
        History { rows }
    }

    #[test]
    fn a_timing_method_machine_or_profile_change_starts_a_new_baseline() {
        type Change = fn(&mut HistoryRow);
        let changes: [(&str, Change); 4] = [
            ("timing method", |r| {
                r.timing = "thread-cpu-median-v3".into()
            }),
            ("CPU", |r| r.cpu = "Other CPU (8 logical cores)".into()),
            ("host", |r| r.host = "other".into()),
            ("build profile", |r| r.profile = "debug".into()),
        ];
        for (what, change) in changes {
            // 58 % faster and 100 % slower: neither is flagged across the change.
            for latest in [0.42, 2.0] {
                let h = changed_config(latest, change);
                let flags = compare_latest(&h);
                assert_eq!(flags[0].verdict, Verdict::NewBaseline, "{what}");
                assert!(flags[0].note.starts_with(what), "{}", flags[0].note);
                assert!(flags[0].baseline.is_none());
                assert!(regressions(&h).is_empty(), "{what}");
                assert_eq!(baseline_changes(&h)[0].0, 5);
            }
        }
        // Unchanged configuration: the same 100 % is a regression.
        let h = changed_config(2.0, |_| {});
        assert_eq!(compare_latest(&h)[0].verdict, Verdict::Slower);
        assert!(baseline_changes(&h).is_empty());
        // A new compiler is no new baseline: its slowdown is real.
        let h = changed_config(2.0, |r| r.rustc = "rustc 1.96.0".into());
        assert_eq!(regressions(&h).len(), 1);
    }

    #[test]
    fn a_slowdown_beyond_the_noise_is_a_regression_with_its_size() {
        let mut h = changed_config(1.5, |_| {});
        assert_eq!(latest_regressions(&h).len(), 1);
        // A slowdown that stays is one regression, at its first commit.
        h.rows.push(row("c6", "h", CPU, 1.45));
        let r = regressions(&h);
        assert_eq!(r.len(), 1, "{r:?}");
        let r = &r[0];
        assert_eq!((r.commit.as_str(), r.commit_index), ("c5", 5));
        assert_eq!(r.previous_commit, "c4");
        assert_eq!(r.baseline, 1.02);
        assert!((r.change() - (1.5 / 1.02 - 1.0)).abs() < 1e-12);
        // Band = 20 % of 1.02 (MAD sigma and spreads are smaller).
        assert!((r.threshold - 0.204).abs() < 1e-12, "{}", r.threshold);
        assert!((r.excess() - 0.48 / 0.204).abs() < 1e-9, "{}", r.excess());
        assert!(latest_regressions(&h).is_empty(), "c6 is the latest");
        // One that went away (c6 back within the noise of c5's baseline) is
        // no longer listed.
        h.rows.last_mut().unwrap().value = 1.03;
        assert!(regressions(&h).is_empty());
    }

    #[test]
    fn a_slowdown_within_the_recorded_spread_is_noise() {
        // 30 % slower, but the repeated runs spread by +-0.2 s each.
        let mut h = changed_config(1.32, |r| r.spread = 0.2);
        for r in &mut h.rows {
            r.spread = 0.2;
        }
        let flags = compare_latest(&h);
        assert_eq!(flags[0].verdict, Verdict::WithinNoise);
        assert_eq!(flags[0].threshold, Some(0.4));
        assert!(regressions(&h).is_empty());
        // Without spreads the same 30 % is outside max(20 %, 3 sigma).
        for r in &mut h.rows {
            r.spread = f64::NAN;
        }
        assert_eq!(regressions(&h).len(), 1);
    }

    #[test]
    fn counter_changes_are_listed_and_explain_a_regression() {
        let mut h = changed_config(1.6, |_| {});
        for i in 0..6 {
            let steps = if i == 5 { 160.0 } else { 100.0 };
            h.rows
                .push(row(&format!("c{i}"), "other-host", "steps", steps));
        }
        h.rows.push(row("c6", "h", "steps", 150.0));
        let changes = counter_changes(&h);
        let seen: Vec<(&str, &str, f64, f64)> = changes
            .iter()
            .map(|c| {
                (
                    c.previous_commit.as_str(),
                    c.commit.as_str(),
                    c.previous,
                    c.value,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [("c5", "c6", 160.0, 150.0), ("c4", "c5", 100.0, 160.0)]
        );
        // The CPU time's step at c5 comes with a counter change at c5: it is
        // shown as the counter change, not as a regression.
        assert!(regressions(&h).is_empty());
        let cpu = compare_latest(&h)
            .into_iter()
            .find(|f| f.metric == CPU)
            .expect("cpu flag");
        assert_eq!(cpu.verdict, Verdict::WithCounters);
        // Without the counter change the same step is a regression.
        for r in &mut h.rows {
            if r.metric == "steps" && r.commit == "c5" {
                r.value = 100.0;
            }
        }
        assert_eq!(regressions(&h).len(), 1);
    }

    #[test]
    fn wall_time_is_judged_only_where_no_cpu_time_is() {
        // Old rows: wall only, a slowdown at c5 -> a wall regression.
        let mut h = wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]);
        assert_eq!(regressions(&h)[0].metric, WALL);
        // With a judged CPU time at c5 the wall time is not listed.
        for i in 0..6 {
            h.rows.push(row(&format!("c{i}"), "h", CPU, 1.0));
        }
        assert!(regressions(&h).is_empty());
    }
}
