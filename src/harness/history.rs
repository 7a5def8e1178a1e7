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
//! in the file.
//! - Counters are exact: a value that differs from the previous commit's is
//!   a [`CounterChange`], whatever the machine. Counter changes are reported
//!   first: they explain a time change.
//! - Times are compared only within one *baseline*: the rows with the same
//!   [`Config`] (timing method, host, CPU, build profile). A change of any of
//!   these starts a new baseline ([`Verdict::NewBaseline`]): nothing is
//!   flagged faster or slower across it.
//! - Within a baseline, with m = median and MAD = median |v - m| of the
//!   previous (up to) [`BASELINE_COMMITS`] commits, sigma = 1.4826 MAD (the
//!   MAD estimate of a normal standard deviation; Rousseeuw & Croux, JASA 88
//!   (1993) 1273) and s = the recorded spread of the latest value plus the
//!   median recorded spread of those commits, the noise band is
//!   `max(20 % m, 3 sigma, s)`. A time above m by more than the band is
//!   `Slower` (a [`Regression`]), below by more is `Faster`, else
//!   `WithinNoise`. How far outside the noise = |v - m| / band.
//! - [`regressions`] lists the slower commits of the whole history, asv
//!   style: a run of consecutive slower commits of a benchmark is one step,
//!   listed at its first commit, and only while it is still present (the
//!   baseline's latest value is still above that step's m + band).
//! - The slowdown is judged on `cpu_s`, which stays put on a loaded shared
//!   machine where wall time stretches 2-3x. A `wall_s` whose benchmark has
//!   a judged `cpu_s` at the same commit is `Informational`: its change is
//!   shown, never flagged. Where there is none (rows recorded before CPU
//!   time was measured), `wall_s` is judged as above.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use polars::prelude::{self as pl, SerReader};

use crate::error::OutputError;
use crate::harness::atomic;
use crate::harness::outcome::RunResult;
use crate::harness::results::{CellColumn, csv_bytes, frame};
use crate::harness::timing::median;

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
/// the half range as spread. Change it whenever the timing policy changes:
/// the history then starts a new baseline instead of flagging the change.
pub const TIMING_METHOD: &str = "thread-cpu-median-v2";
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
        TIMING_METHOD
    }
}

/// Number of previous commits whose median is the time baseline.
pub const BASELINE_COMMITS: usize = 5;
/// Relative change that is always tolerated (noise floor).
pub const MIN_RELATIVE_SLOWDOWN: f64 = 0.20;
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

/// Whether `metric` is a time (noisy, compared against a median) rather than
/// an exact counter.
pub fn is_time_metric(metric: &str) -> bool {
    metric == WALL || metric == CPU
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

/// `<out>/history/history.csv`.
pub fn path(out: &Path) -> PathBuf {
    out.join("history").join("history.csv")
}

fn format_error(path: &Path, message: impl std::fmt::Display) -> OutputError {
    OutputError::Format {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

/// Reads history.csv (either header, [`COLUMNS`] or the older
/// [`COLUMNS_V1`]); a missing or empty file is an empty history.
pub fn load(path: &Path) -> Result<History, OutputError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(History::default()),
        Err(source) => {
            return Err(OutputError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(History::default());
    }
    let header = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let header = String::from_utf8_lossy(header);
    let header = header.trim_end();
    let columns: &[&str] = if header == COLUMNS.join(",") {
        &COLUMNS
    } else if header == COLUMNS_V1.join(",") {
        &COLUMNS_V1
    } else {
        return Err(format_error(
            path,
            format!(
                "history header is `{header}`, expected `{}` (or the older `{}`)",
                COLUMNS.join(","),
                COLUMNS_V1.join(",")
            ),
        ));
    };
    let mut schema = pl::Schema::default();
    for &name in columns {
        let dtype = if name == "value" || name == "spread" {
            pl::DataType::Float64
        } else {
            pl::DataType::String
        };
        schema.insert(name.into(), dtype);
    }
    let df = pl::CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(Arc::new(schema)))
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .map_err(|e| format_error(path, e))?;
    let n = df.height();
    let text = |name: &str| -> Result<Option<Vec<String>>, OutputError> {
        if !columns.contains(&name) {
            return Ok(None);
        }
        let col = df
            .column(name)
            .and_then(|c| c.str().cloned())
            .map_err(|e| format_error(path, e))?;
        Ok(Some(
            col.iter()
                .map(|v| v.unwrap_or_default().to_string())
                .collect(),
        ))
    };
    let float = |name: &str| -> Result<Option<Vec<f64>>, OutputError> {
        if !columns.contains(&name) {
            return Ok(None);
        }
        let col = df
            .column(name)
            .and_then(|c| c.f64().cloned())
            .map_err(|e| format_error(path, e))?;
        Ok(Some(col.iter().map(|v| v.unwrap_or(f64::NAN)).collect()))
    };
    let required = |v: Option<Vec<String>>| v.unwrap_or_else(|| vec![String::new(); n]);
    let commit = required(text("commit")?);
    let date = required(text("date")?);
    let host = required(text("host")?);
    let suite = required(text("suite")?);
    let study = required(text("study")?);
    let case = required(text("case")?);
    let method = required(text("method")?);
    let metric = required(text("metric")?);
    let values = float("value")?.unwrap_or_else(|| vec![f64::NAN; n]);
    let spread = float("spread")?;
    let timing = text("timing")?;
    let [profile, rustc, cpu] = [text("profile")?, text("rustc")?, text("cpu")?];
    let or_unknown = |col: &Option<Vec<String>>, i: usize| -> String {
        col.as_ref()
            .map(|c| c[i].clone())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| UNKNOWN.to_string())
    };
    let rows = (0..n)
        .map(|i| HistoryRow {
            commit: commit[i].clone(),
            date: date[i].clone(),
            host: host[i].clone(),
            suite: suite[i].clone(),
            study: study[i].clone(),
            case: case[i].clone(),
            method: method[i].clone(),
            metric: metric[i].clone(),
            value: values[i],
            spread: spread.as_ref().map_or(f64::NAN, |s| s[i]),
            timing: timing
                .as_ref()
                .map(|t| t[i].clone())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| legacy_timing(&date[i]).to_string()),
            profile: or_unknown(&profile, i),
            rustc: or_unknown(&rustc, i),
            cpu: or_unknown(&cpu, i),
        })
        .collect();
    Ok(History { rows })
}

/// The commit label of a run: the hash, `+dirty` for an uncommitted tree.
pub fn commit_label(commit: &str, dirty: bool) -> String {
    if dirty {
        format!("{commit}+dirty")
    } else {
        commit.to_string()
    }
}

/// The rows a run contributes: per study, per successful case, per method,
/// `wall_s`, `cpu_s` (when finite, with its spread) and every counter; never
/// the stats. Every row carries [`TIMING_METHOD`] and the manifest's
/// profile, rustc, host and CPU.
pub fn run_rows(run: &RunResult) -> Vec<HistoryRow> {
    let m = &run.manifest;
    let commit = commit_label(&m.commit, m.dirty);
    let mut rows = Vec::new();
    for study in &run.studies {
        for case in &study.cases {
            for timing in case.timings() {
                let cpu =
                    timing
                        .cpu_s
                        .is_finite()
                        .then_some((CPU, timing.cpu_s, timing.cpu_s_spread));
                let metrics = std::iter::once((WALL, timing.wall_s, f64::NAN))
                    .chain(cpu)
                    .chain(
                        timing
                            .counters
                            .iter()
                            .map(|(n, v)| (n.as_str(), *v, f64::NAN)),
                    );
                for (metric, value, spread) in metrics {
                    rows.push(HistoryRow {
                        commit: commit.clone(),
                        date: m.date.clone(),
                        host: m.host.clone(),
                        suite: run.suite.clone(),
                        study: study.name.clone(),
                        case: case.name.clone(),
                        method: timing.method.clone(),
                        metric: metric.to_string(),
                        value,
                        spread,
                        timing: TIMING_METHOD.to_string(),
                        profile: m.profile.clone(),
                        rustc: m.rustc.clone(),
                        cpu: m.cpu.clone(),
                    });
                }
            }
        }
    }
    rows
}

/// The CSV bytes of a history (all of [`COLUMNS`]).
pub fn to_csv(path: &Path, history: &History) -> Result<Vec<u8>, OutputError> {
    let rows = &history.rows;
    let text = |f: fn(&HistoryRow) -> &str| {
        CellColumn::Text(rows.iter().map(|r| f(r).to_string()).collect())
    };
    let columns = vec![
        ("commit".to_string(), text(|r| &r.commit)),
        ("date".to_string(), text(|r| &r.date)),
        ("host".to_string(), text(|r| &r.host)),
        ("suite".to_string(), text(|r| &r.suite)),
        ("study".to_string(), text(|r| &r.study)),
        ("case".to_string(), text(|r| &r.case)),
        ("method".to_string(), text(|r| &r.method)),
        ("metric".to_string(), text(|r| &r.metric)),
        (
            "value".to_string(),
            CellColumn::Float(rows.iter().map(|r| r.value).collect()),
        ),
        (
            "spread".to_string(),
            CellColumn::OptFloat(
                rows.iter()
                    .map(|r| r.spread.is_finite().then_some(r.spread))
                    .collect(),
            ),
        ),
        ("timing".to_string(), text(|r| &r.timing)),
        ("profile".to_string(), text(|r| &r.profile)),
        ("rustc".to_string(), text(|r| &r.rustc)),
        ("cpu".to_string(), text(|r| &r.cpu)),
    ];
    debug_assert_eq!(
        columns.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        COLUMNS
    );
    let mut df = frame(path, columns)?;
    csv_bytes(path, &mut df)
}

/// Appends the run's rows to history.csv when `run.record_history` (read,
/// write a temporary file, rename) and returns the full history; otherwise
/// returns the history as it is. The file is rewritten with all of
/// [`COLUMNS`], old rows included.
pub fn append(path: &Path, run: &RunResult) -> Result<History, OutputError> {
    let mut history = load(path)?;
    if !run.record_history {
        return Ok(history);
    }
    history.rows.extend(run_rows(run));
    atomic::write_file(path, &to_csv(path, &history)?)?;
    Ok(history)
}

/// What a value of a benchmark says compared with earlier commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No earlier commit has this benchmark.
    New,
    /// A time whose earlier commits were all measured in another baseline
    /// configuration (timing method, machine or build profile): not judged.
    NewBaseline,
    /// A counter equal to the previous commit's.
    Unchanged,
    /// A counter that differs from the previous commit's (flag).
    Changed,
    /// A time slower than the baseline beyond noise (flag).
    Slower,
    /// A time faster than the baseline beyond noise.
    Faster,
    /// A time within noise of the baseline.
    WithinNoise,
    /// A wall time shown for information: the CPU time of the same
    /// benchmark is the one judged.
    Informational,
}

impl Verdict {
    /// Whether the report flags it.
    pub fn is_flag(self) -> bool {
        matches!(self, Verdict::Changed | Verdict::Slower)
    }

    /// Whether a time was compared with a baseline (not new, not a new
    /// baseline, not informational).
    pub fn is_judged(self) -> bool {
        matches!(
            self,
            Verdict::Slower | Verdict::Faster | Verdict::WithinNoise
        )
    }

    /// Short text for tables.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::New => "new",
            Verdict::NewBaseline => "new baseline",
            Verdict::Unchanged => "unchanged",
            Verdict::Changed => "changed",
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
            Verdict::WithinNoise => "within noise",
            Verdict::Informational => "not judged (cpu_s is)",
        }
    }
}

/// The comparison of one (study, case, method, metric) at the latest commit.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryFlag {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// `wall_s`, `cpu_s` or a counter name.
    pub metric: String,
    /// Host of the latest row.
    pub host: String,
    /// Latest commit that has this benchmark.
    pub latest_commit: String,
    /// Its value there.
    pub latest: f64,
    /// The commit before it that has this benchmark (for times, in the same
    /// baseline; for a new baseline, the last commit of the old one).
    pub previous_commit: Option<String>,
    /// Its value there.
    pub previous: Option<f64>,
    /// Times: median of the previous up to 5 commits of the baseline.
    pub baseline: Option<f64>,
    /// Times: the noise band max(20 % baseline, 3 sigma, spreads).
    pub threshold: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// A new baseline: what changed (timing method, host, CPU, profile).
    pub note: String,
}

impl HistoryFlag {
    /// Times: |latest - baseline| / noise band (above 1 is outside the noise).
    pub fn excess(&self) -> Option<f64> {
        Some((self.latest - self.baseline?).abs() / self.threshold?)
    }
}

/// The noise band of a time with baseline median `m` over `window` (the
/// baseline commits' values) and the spreads `s_latest` (of the judged
/// value) and `window_spreads`: max(20 % m, 3 sigma, s_latest + median of
/// the window's spreads); non-finite spreads count as 0.
pub fn noise_band(m: f64, window: &[f64], s_latest: f64, window_spreads: &[f64]) -> f64 {
    let deviations: Vec<f64> = window.iter().map(|v| (v - m).abs()).collect();
    let sigma = MAD_TO_SIGMA * median(&deviations);
    let finite = |s: f64| if s.is_finite() { s.max(0.0) } else { 0.0 };
    let spreads: Vec<f64> = window_spreads.iter().map(|&s| finite(s)).collect();
    let s_base = if spreads.is_empty() {
        0.0
    } else {
        median(&spreads)
    };
    (MIN_RELATIVE_SLOWDOWN * m)
        .max(NOISE_SIGMAS * sigma)
        .max(finite(s_latest) + s_base)
}

/// The time verdict of `latest` (spread `latest_spread`) against earlier
/// per-commit values of the same baseline, oldest first, as `(value,
/// spread)`: baseline median, noise band and verdict.
pub fn time_verdict(
    latest: f64,
    latest_spread: f64,
    earlier: &[(f64, f64)],
) -> (f64, f64, Verdict) {
    let window = &earlier[earlier.len().saturating_sub(BASELINE_COMMITS)..];
    let values: Vec<f64> = window.iter().map(|p| p.0).collect();
    let spreads: Vec<f64> = window.iter().map(|p| p.1).collect();
    let m = median(&values);
    let threshold = noise_band(m, &values, latest_spread, &spreads);
    let verdict = if latest - m > threshold {
        Verdict::Slower
    } else if m - latest > threshold {
        Verdict::Faster
    } else {
        Verdict::WithinNoise
    };
    (m, threshold, verdict)
}

/// [`time_verdict`] without recorded spreads.
pub fn wall_time_verdict(latest: f64, earlier: &[f64]) -> (f64, f64, Verdict) {
    let earlier: Vec<(f64, f64)> = earlier.iter().map(|&v| (v, f64::NAN)).collect();
    time_verdict(latest, f64::NAN, &earlier)
}

/// Key of a benchmark.
type Key<'a> = (&'a str, &'a str, &'a str, &'a str);

fn key(row: &HistoryRow) -> Key<'_> {
    (&row.study, &row.case, &row.method, &row.metric)
}

/// Per-commit values of the rows of one benchmark, in commit order: the most
/// recent row of each commit. `indices` is [`History::commit_indices`];
/// rows whose commit it lacks are skipped.
pub fn per_commit_values<'a>(
    indices: &HashMap<&str, usize>,
    rows: &[&'a HistoryRow],
) -> Vec<(usize, &'a HistoryRow)> {
    let mut values: BTreeMap<usize, &HistoryRow> = BTreeMap::new();
    for row in rows {
        if let Some(&index) = indices.get(row.commit.as_str()) {
            values.insert(index, row);
        }
    }
    values.into_iter().collect()
}

/// The rows of each benchmark, benchmarks in order of first appearance.
fn benchmarks(history: &History) -> Vec<Vec<&HistoryRow>> {
    let mut positions: HashMap<Key, usize> = HashMap::new();
    let mut groups: Vec<Vec<&HistoryRow>> = Vec::new();
    for row in &history.rows {
        let next = groups.len();
        let i = *positions.entry(key(row)).or_insert(next);
        if i == next {
            groups.push(Vec::new());
        }
        groups[i].push(row);
    }
    groups
}

/// The judgement of point `i` of a time series (per-commit values, commit
/// order): (verdict, previous row, baseline median, noise band, note).
fn judge_time<'a>(
    series: &[(usize, &'a HistoryRow)],
    i: usize,
) -> (
    Verdict,
    Option<&'a HistoryRow>,
    Option<f64>,
    Option<f64>,
    String,
) {
    let row = series[i].1;
    let config = row.config();
    let earlier: Vec<&HistoryRow> = series[..i]
        .iter()
        .map(|(_, r)| *r)
        .filter(|r| r.config() == config)
        .collect();
    let Some(&previous) = earlier.last() else {
        return match i.checked_sub(1).map(|j| series[j].1) {
            None => (Verdict::New, None, None, None, String::new()),
            Some(before) => (
                Verdict::NewBaseline,
                Some(before),
                None,
                None,
                config.change_from(&before.config()),
            ),
        };
    };
    let values: Vec<(f64, f64)> = earlier.iter().map(|r| (r.value, r.spread)).collect();
    let (m, band, verdict) = time_verdict(row.value, row.spread, &values);
    (verdict, Some(previous), Some(m), Some(band), String::new())
}

/// Compares the latest value of every benchmark with earlier commits (see
/// the module doc). One entry per (study, case, method, metric), in order of
/// first appearance.
pub fn compare_latest(history: &History) -> Vec<HistoryFlag> {
    let indices = history.commit_indices();
    let mut flags = Vec::new();
    for rows in benchmarks(history) {
        let series = per_commit_values(&indices, &rows);
        let Some(&(_, last)) = series.last() else {
            continue;
        };
        let mut flag = HistoryFlag {
            study: last.study.clone(),
            case: last.case.clone(),
            method: last.method.clone(),
            metric: last.metric.clone(),
            host: last.host.clone(),
            latest_commit: last.commit.clone(),
            latest: last.value,
            previous_commit: None,
            previous: None,
            baseline: None,
            threshold: None,
            verdict: Verdict::New,
            note: String::new(),
        };
        if last.is_time() {
            let (verdict, previous, m, band, note) = judge_time(&series, series.len() - 1);
            flag.verdict = verdict;
            flag.previous_commit = previous.map(|r| r.commit.clone());
            flag.previous = previous.map(|r| r.value);
            flag.baseline = m;
            flag.threshold = band;
            flag.note = note;
        } else if let Some(&(_, prev)) = series.len().checked_sub(2).map(|j| &series[j]) {
            flag.previous_commit = Some(prev.commit.clone());
            flag.previous = Some(prev.value);
            flag.verdict = if same_count(prev.value, last.value) {
                Verdict::Unchanged
            } else {
                Verdict::Changed
            };
        }
        flags.push(flag);
    }
    // A wall time whose CPU time is judged at the same commit is shown only.
    let judged_cpu: HashSet<(&str, &str, &str, &str)> = flags
        .iter()
        .filter(|f| f.metric == CPU && f.verdict.is_judged())
        .map(|f| {
            (
                f.study.as_str(),
                f.case.as_str(),
                f.method.as_str(),
                f.latest_commit.as_str(),
            )
        })
        .collect();
    let informational: Vec<bool> = flags
        .iter()
        .map(|f| {
            f.metric == WALL
                && f.verdict.is_judged()
                && judged_cpu.contains(&(
                    f.study.as_str(),
                    f.case.as_str(),
                    f.method.as_str(),
                    f.latest_commit.as_str(),
                ))
        })
        .collect();
    for (flag, info) in flags.iter_mut().zip(informational) {
        if info {
            flag.verdict = Verdict::Informational;
        }
    }
    flags
}

/// Counters are exact integers: compare bit for bit (NaN = NaN).
fn same_count(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || a == b
}

/// A counter that differs between consecutive commits of a benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterChange {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// Counter name.
    pub metric: String,
    /// The commit before (the previous one that has the benchmark).
    pub previous_commit: String,
    /// The commit where it changed.
    pub commit: String,
    /// Index of `commit` in [`History::commits`].
    pub commit_index: usize,
    /// Value before.
    pub previous: f64,
    /// Value at `commit`.
    pub value: f64,
}

/// Every counter change between consecutive commits of each benchmark,
/// whatever the machine (counters are exact): newest commit first, then in
/// order of first appearance.
pub fn counter_changes(history: &History) -> Vec<CounterChange> {
    let indices = history.commit_indices();
    let mut out = Vec::new();
    for rows in benchmarks(history) {
        if rows[0].is_time() {
            continue;
        }
        let series = per_commit_values(&indices, &rows);
        for pair in series.windows(2) {
            let ((_, a), (index, b)) = (pair[0], pair[1]);
            if !same_count(a.value, b.value) {
                out.push(CounterChange {
                    study: b.study.clone(),
                    case: b.case.clone(),
                    method: b.method.clone(),
                    metric: b.metric.clone(),
                    previous_commit: a.commit.clone(),
                    commit: b.commit.clone(),
                    commit_index: index,
                    previous: a.value,
                    value: b.value,
                });
            }
        }
    }
    // Stable: within a commit, first-appearance order is kept.
    out.sort_by_key(|c| std::cmp::Reverse(c.commit_index));
    out
}

/// A time slower than its baseline beyond the noise at some commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// `cpu_s` (or `wall_s` where no CPU time is judged).
    pub metric: String,
    /// The commit that is slower.
    pub commit: String,
    /// Index of `commit` in [`History::commits`].
    pub commit_index: usize,
    /// The last baseline commit before it.
    pub previous_commit: String,
    /// The time at `commit`.
    pub value: f64,
    /// The baseline median.
    pub baseline: f64,
    /// The noise band.
    pub threshold: f64,
    /// The counters of the same (study, case, method) that changed at
    /// `commit` (they may explain the slowdown).
    pub counters: Vec<CounterChange>,
}

impl Regression {
    /// Relative change against the baseline median (0.5 = 50 % slower).
    pub fn change(&self) -> f64 {
        self.value / self.baseline - 1.0
    }

    /// How far outside the noise: (value - baseline) / noise band.
    pub fn excess(&self) -> f64 {
        (self.value - self.baseline) / self.threshold
    }
}

/// Every judged time of every benchmark at every commit, as (benchmark rows
/// of the series, point index, verdict, baseline, band, previous commit).
/// `cpu_s` is judged everywhere; `wall_s` only at commits where the same
/// (study, case, method) has no judged `cpu_s`.
fn slower_points(history: &History) -> Vec<Regression> {
    let indices = history.commit_indices();
    let groups = benchmarks(history);
    let mut judged_cpu: HashSet<(&str, &str, &str, usize)> = HashSet::new();
    let mut out = Vec::new();
    // CPU times first, so that wall times know where CPU is judged.
    for wanted in [CPU, WALL] {
        for rows in groups.iter().filter(|g| g[0].metric == wanted) {
            let series = per_commit_values(&indices, rows);
            // The verdict of the previous point of each baseline.
            let mut last: HashMap<Config, Verdict> = HashMap::new();
            for i in 0..series.len() {
                let (index, row) = series[i];
                let at = (
                    row.study.as_str(),
                    row.case.as_str(),
                    row.method.as_str(),
                    index,
                );
                if wanted == WALL && judged_cpu.contains(&at) {
                    continue;
                }
                let (verdict, previous, m, band, _) = judge_time(&series, i);
                if wanted == CPU && verdict.is_judged() {
                    judged_cpu.insert(at);
                }
                // A run of slower commits is one step, listed at its first.
                let before = last.insert(row.config(), verdict);
                if verdict != Verdict::Slower || before == Some(Verdict::Slower) {
                    continue;
                }
                let (Some(previous), Some(m), Some(band)) = (previous, m, band) else {
                    continue;
                };
                // Still present: the latest value of the baseline stays above the band.
                let config = row.config();
                let still = series[i..]
                    .iter()
                    .rev()
                    .find(|(_, r)| r.config() == config)
                    .is_some_and(|(_, r)| r.value - m > band);
                if !still {
                    continue;
                }
                out.push(Regression {
                    study: row.study.clone(),
                    case: row.case.clone(),
                    method: row.method.clone(),
                    metric: row.metric.clone(),
                    commit: row.commit.clone(),
                    commit_index: index,
                    previous_commit: previous.commit.clone(),
                    value: row.value,
                    baseline: m,
                    threshold: band,
                    counters: Vec::new(),
                });
            }
        }
    }
    out
}

/// Every regression of the history (a time slower than the median of its
/// baseline's previous up to 5 commits by more than the noise band, see
/// the module doc), at any commit, with the counter changes of the same
/// benchmark at that commit: newest commit first, then the furthest outside
/// the noise first.
pub fn regressions(history: &History) -> Vec<Regression> {
    let changes = counter_changes(history);
    let mut out = slower_points(history);
    for r in &mut out {
        r.counters = changes
            .iter()
            .filter(|c| {
                c.commit_index == r.commit_index
                    && c.study == r.study
                    && c.case == r.case
                    && c.method == r.method
            })
            .cloned()
            .collect();
    }
    out.sort_by(|a, b| {
        b.commit_index
            .cmp(&a.commit_index)
            .then(b.excess().total_cmp(&a.excess()))
    });
    out
}

/// The regressions at the latest commit of the history only.
pub fn latest_regressions(history: &History) -> Vec<Regression> {
    let last = history.commits().len().saturating_sub(1);
    regressions(history)
        .into_iter()
        .filter(|r| r.commit_index == last)
        .collect()
}

/// The commits where a new baseline starts, as (commit index, what
/// changed): walking the time rows in file order, every row whose
/// configuration (timing method, host, CPU, profile) differs from the
/// previous time row's.
pub fn baseline_changes(history: &History) -> Vec<(usize, String)> {
    let rows: Vec<&HistoryRow> = history.rows.iter().collect();
    baseline_changes_in(&rows, &history.commit_indices())
}

/// [`baseline_changes`] of some rows (in file order), with the commit
/// indices of the whole history.
pub fn baseline_changes_in(
    rows: &[&HistoryRow],
    indices: &HashMap<&str, usize>,
) -> Vec<(usize, String)> {
    let mut last: Option<Config> = None;
    let mut out: Vec<(usize, String)> = Vec::new();
    for row in rows.iter().filter(|r| r.is_time()) {
        let Some(&index) = indices.get(row.commit.as_str()) else {
            continue;
        };
        let config = row.config();
        if let Some(before) = last
            && before != config
        {
            let what = config.change_from(&before);
            if !out.iter().any(|(i, w)| *i == index && *w == what) {
                out.push((index, what));
            }
        }
        last = Some(config);
    }
    out.sort_by_key(|(i, _)| *i);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
                TIMING_METHOD,
                TIMING_METHOD
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
        let r = regressions(&h);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].counters.len(), 1);
        assert_eq!(r[0].counters[0].value, 160.0);
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
