//! Judging the history: verdicts per benchmark, noise bands, regressions,
//! counter changes and baseline changes (the rules are in the parent
//! module's documentation).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::*;
use crate::harness::timing::median;

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
