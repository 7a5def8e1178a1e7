//! Performance history over commits: `<out>/history/history.csv` (committed
//! to git), one row per timing value of every case of every recorded run:
//! `commit,date,host,suite,study,case,method,metric,value`, where `metric` is
//! `wall_s` (wall-clock seconds), `cpu_s` (CPU seconds of the thread that
//! ran the method; absent when the thread clock was unavailable, and in rows
//! written before it was measured) or a counter name. The `stats` of a
//! timing (derived floats such as `mean_active`) are not recorded: they are
//! not exact counts, and they are no measure of speed. The commit is
//! `git rev-parse HEAD`, with `+dirty` appended when the work tree had
//! uncommitted changes.
//!
//! [`compare_latest`] compares, for each (study, case, method, metric), the
//! value at the latest commit with the previous commits. Commits are ordered
//! by first appearance in the file; a commit's value is its most recent row.
//! - Counters are exact: any change from the previous commit is `Changed`.
//! - Times are noisy: with m = median and MAD = median |v - m| of the
//!   previous (up to) 5 commits, the latest is `Slower` when it exceeds m by
//!   more than max(20 % m, 3 sigma), sigma = 1.4826 MAD (the MAD estimate of
//!   a normal standard deviation; Rousseeuw & Croux, JASA 88 (1993) 1273),
//!   `Faster` when below m by as much, else `WithinNoise`. Only rows measured
//!   on the same host as the latest row are compared: times of other
//!   machines say nothing.
//! - The slowdown is judged on `cpu_s`, which stays put on a loaded shared
//!   machine where wall time stretches 2-3x. A `wall_s` whose benchmark has
//!   a compared `cpu_s` at the same latest commit (same host, at least one
//!   earlier commit) is `Informational`: its change is shown, never flagged.
//!   Where there is no such `cpu_s` (rows written before CPU time was
//!   measured, or the first commit that has it), `wall_s` is judged as
//!   above, so old histories keep their slowdown detection.

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
pub const COLUMNS: [&str; 9] = [
    "commit", "date", "host", "suite", "study", "case", "method", "metric", "value",
];

/// Number of previous commits whose median is the wall-time baseline.
pub const BASELINE_COMMITS: usize = 5;
/// Relative slowdown that is always tolerated (noise floor).
pub const MIN_RELATIVE_SLOWDOWN: f64 = 0.20;
/// Slowdowns within this many robust standard deviations are noise.
pub const NOISE_SIGMAS: f64 = 3.0;
/// Factor from the median absolute deviation to a normal standard deviation.
pub const MAD_TO_SIGMA: f64 = 1.4826;

/// One row of history.csv.
#[derive(Debug, Clone, PartialEq)]
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

/// Reads history.csv; a missing or empty file is an empty history.
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
    if header.trim_end() != COLUMNS.join(",") {
        return Err(format_error(
            path,
            format!(
                "history header is `{}`, expected `{}`",
                header.trim_end(),
                COLUMNS.join(",")
            ),
        ));
    }
    let mut schema = pl::Schema::default();
    for name in COLUMNS {
        let dtype = if name == "value" {
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
    let text = |name: &str| -> Result<Vec<String>, OutputError> {
        let col = df
            .column(name)
            .and_then(|c| c.str().cloned())
            .map_err(|e| format_error(path, e))?;
        Ok(col
            .iter()
            .map(|v| v.unwrap_or_default().to_string())
            .collect())
    };
    let [commit, date, host, suite, study, case, method, metric] = [
        "commit", "date", "host", "suite", "study", "case", "method", "metric",
    ]
    .map(text);
    let values: Vec<f64> = df
        .column("value")
        .and_then(|c| c.f64().cloned())
        .map_err(|e| format_error(path, e))?
        .iter()
        .map(|v| v.unwrap_or(f64::NAN))
        .collect();
    let (commit, date, host, suite) = (commit?, date?, host?, suite?);
    let (study, case, method, metric) = (study?, case?, method?, metric?);
    let rows = (0..values.len())
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
/// `wall_s`, `cpu_s` (when finite) and every counter; never the stats.
pub fn run_rows(run: &RunResult) -> Vec<HistoryRow> {
    let m = &run.manifest;
    let commit = commit_label(&m.commit, m.dirty);
    let mut rows = Vec::new();
    for study in &run.studies {
        for case in &study.cases {
            for timing in case.timings() {
                let cpu = timing.cpu_s.is_finite().then_some((CPU, timing.cpu_s));
                let metrics = std::iter::once((WALL, timing.wall_s))
                    .chain(cpu)
                    .chain(timing.counters.iter().map(|(n, v)| (n.as_str(), *v)));
                for (metric, value) in metrics {
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
                    });
                }
            }
        }
    }
    rows
}

/// The CSV bytes of a history.
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
    ];
    let mut df = frame(path, columns)?;
    csv_bytes(path, &mut df)
}

/// Appends the run's rows to history.csv when `run.record_history` (read,
/// write a temporary file, rename) and returns the full history; otherwise
/// returns the history as it is.
pub fn append(path: &Path, run: &RunResult) -> Result<History, OutputError> {
    let mut history = load(path)?;
    if !run.record_history {
        return Ok(history);
    }
    history.rows.extend(run_rows(run));
    atomic::write_file(path, &to_csv(path, &history)?)?;
    Ok(history)
}

/// What the latest value of a benchmark says compared with earlier commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No earlier commit has this benchmark.
    New,
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

    /// Short text for tables.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::New => "new",
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
    /// The commit before it that has this benchmark (same host for times).
    pub previous_commit: Option<String>,
    /// Its value there.
    pub previous: Option<f64>,
    /// Times: median of the previous up to 5 commits.
    pub baseline: Option<f64>,
    /// Times: the allowed deviation max(20 % baseline, 3 sigma).
    pub threshold: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
}

/// The time verdict of `latest` against earlier per-commit values (oldest
/// first): baseline median, threshold and verdict.
pub fn wall_time_verdict(latest: f64, earlier: &[f64]) -> (f64, f64, Verdict) {
    let window = &earlier[earlier.len().saturating_sub(BASELINE_COMMITS)..];
    let m = median(window);
    let deviations: Vec<f64> = window.iter().map(|v| (v - m).abs()).collect();
    let sigma = MAD_TO_SIGMA * median(&deviations);
    let threshold = (MIN_RELATIVE_SLOWDOWN * m).max(NOISE_SIGMAS * sigma);
    let verdict = if latest - m > threshold {
        Verdict::Slower
    } else if m - latest > threshold {
        Verdict::Faster
    } else {
        Verdict::WithinNoise
    };
    (m, threshold, verdict)
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

/// Compares the latest value of every benchmark with earlier commits (see
/// the module doc). One entry per (study, case, method, metric), in order of
/// first appearance.
pub fn compare_latest(history: &History) -> Vec<HistoryFlag> {
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
    let indices = history.commit_indices();
    let mut flags = Vec::with_capacity(groups.len());
    for rows in groups {
        let mut series = per_commit_values(&indices, &rows);
        let Some(&(_, last)) = series.last() else {
            continue;
        };
        if last.is_time() {
            // The latest row stays the latest of its commit among its host's rows.
            let same_host: Vec<&HistoryRow> = rows
                .iter()
                .copied()
                .filter(|r| r.host == last.host)
                .collect();
            series = per_commit_values(&indices, &same_host);
        }
        let earlier = &series[..series.len() - 1];
        let previous = earlier.last().map(|(_, r)| *r);
        let mut flag = HistoryFlag {
            study: last.study.clone(),
            case: last.case.clone(),
            method: last.method.clone(),
            metric: last.metric.clone(),
            host: last.host.clone(),
            latest_commit: last.commit.clone(),
            latest: last.value,
            previous_commit: previous.map(|r| r.commit.clone()),
            previous: previous.map(|r| r.value),
            baseline: None,
            threshold: None,
            verdict: Verdict::New,
        };
        if let Some(prev) = previous {
            if last.is_time() {
                let values: Vec<f64> = earlier.iter().map(|(_, r)| r.value).collect();
                let (m, threshold, verdict) = wall_time_verdict(last.value, &values);
                flag.baseline = Some(m);
                flag.threshold = Some(threshold);
                flag.verdict = verdict;
            } else {
                // Counters are exact integers: compare bit for bit (NaN = NaN).
                let same = prev.value.to_bits() == last.value.to_bits() || prev.value == last.value;
                flag.verdict = if same {
                    Verdict::Unchanged
                } else {
                    Verdict::Changed
                };
            }
        }
        flags.push(flag);
    }
    // A wall time whose CPU time is judged at the same commit is shown only.
    let judged_cpu: HashSet<(&str, &str, &str, &str, &str)> = flags
        .iter()
        .filter(|f| f.metric == CPU && f.verdict != Verdict::New)
        .map(|f| {
            (
                f.study.as_str(),
                f.case.as_str(),
                f.method.as_str(),
                f.host.as_str(),
                f.latest_commit.as_str(),
            )
        })
        .collect();
    let informational: Vec<bool> = flags
        .iter()
        .map(|f| {
            f.metric == WALL
                && f.verdict != Verdict::New
                && judged_cpu.contains(&(
                    f.study.as_str(),
                    f.case.as_str(),
                    f.method.as_str(),
                    f.host.as_str(),
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
            Verdict::New,
            "a different machine is not a baseline"
        );
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
}
