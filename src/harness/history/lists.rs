//! The lists the report shows: the latest verdict of every benchmark, the
//! counter changes, the regressions, the baseline changes.

use std::collections::{HashMap, HashSet};

use super::data::*;
use super::judge::*;

/// The comparison of one (study, case, method, metric) at the latest commit.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryFlag {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// `wall_s`, `cpu_s`, a cost or a counter name.
    pub metric: String,
    /// Host of the latest row.
    pub host: String,
    /// Latest commit that has this benchmark.
    pub latest_commit: String,
    /// Its value there (seconds or a count).
    pub latest: f64,
    /// The value judged (for a calibrated CPU time in units of the
    /// calibration kernel, else `latest`).
    pub judged: f64,
    /// The commit before it that has this benchmark (for times and costs,
    /// in the same baseline; for a new baseline, the last commit of the old
    /// one).
    pub previous_commit: Option<String>,
    /// Its value there.
    pub previous: Option<f64>,
    /// Times: median of the window; costs: the previous value (judged units).
    pub baseline: Option<f64>,
    /// The band (judged units).
    pub threshold: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// A new baseline: what changed (timing method, host, CPU, profile).
    pub note: String,
}

impl HistoryFlag {
    /// |judged - baseline| / band (above 1 is outside the band).
    pub fn excess(&self) -> Option<f64> {
        Some((self.judged - self.baseline?).abs() / self.threshold?)
    }

    /// judged / baseline - 1.
    pub fn change(&self) -> Option<f64> {
        Some(self.judged / self.baseline? - 1.0)
    }
}

fn flag_of(row: &HistoryRow, j: &Judgement) -> HistoryFlag {
    HistoryFlag {
        study: row.study.clone(),
        case: row.case.clone(),
        method: row.method.clone(),
        metric: row.metric.clone(),
        host: row.host.clone(),
        latest_commit: row.commit.clone(),
        latest: row.value,
        judged: j.value,
        previous_commit: j.previous.map(|r| r.commit.clone()),
        previous: j.previous.map(|r| r.value),
        baseline: j.baseline,
        threshold: j.band,
        verdict: j.verdict,
        note: j.note.clone(),
    }
}

/// Compares the latest value of every benchmark with earlier commits (see
/// the module doc). One entry per (study, case, method, metric), in order of
/// first appearance.
pub fn compare_latest(history: &History) -> Vec<HistoryFlag> {
    let ctx = Context::new(history);
    compare_latest_in(&ctx)
}

/// [`compare_latest`] with a context made once.
pub fn compare_latest_in(ctx: &Context) -> Vec<HistoryFlag> {
    let mut flags: Vec<HistoryFlag> = ctx
        .series
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| flag_of(s[s.len() - 1].1, &ctx.judge(s, s.len() - 1)))
        .collect();
    // A wall time whose CPU time is judged at the same commit is shown
    // only; one whose CPU time was measured in a shared run is not judged
    // either (the wall time stretches most under contention).
    let cpu_verdicts: HashMap<(String, String, String, String), Verdict> = flags
        .iter()
        .filter(|f| f.metric == CPU)
        .map(|f| {
            let at = (
                f.study.clone(),
                f.case.clone(),
                f.method.clone(),
                f.latest_commit.clone(),
            );
            (at, f.verdict)
        })
        .collect();
    for f in &mut flags {
        let at = (
            f.study.clone(),
            f.case.clone(),
            f.method.clone(),
            f.latest_commit.clone(),
        );
        if f.metric == WALL && f.verdict.is_judged() {
            match cpu_verdicts.get(&at) {
                Some(&v @ (Verdict::Shared | Verdict::Unsteady)) => f.verdict = v,
                Some(v) if v.is_judged() => f.verdict = Verdict::Informational,
                _ => {}
            }
        }
    }
    flags
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
    counter_changes_in(&Context::new(history))
}

/// [`counter_changes`] with a context made once.
pub fn counter_changes_in(ctx: &Context) -> Vec<CounterChange> {
    let mut out = Vec::new();
    for series in &ctx.series {
        for pair in series.windows(2) {
            let ((_, a), (index, b)) = (pair[0], pair[1]);
            if b.kind() == MetricKind::Counter && !same_count(a.value, b.value) {
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

/// A time or cost slower than its baseline beyond its band at some commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// Method name.
    pub method: String,
    /// `instructions`, `estimated_cycles`, `cpu_s` (or `wall_s` where no
    /// CPU time is judged).
    pub metric: String,
    /// The commit that is slower.
    pub commit: String,
    /// Index of `commit` in [`History::commits`].
    pub commit_index: usize,
    /// The last baseline commit before it.
    pub previous_commit: String,
    /// The value at `commit` (seconds or a count).
    pub value: f64,
    /// The value judged (a calibrated CPU time in units of the calibration).
    pub judged: f64,
    /// The baseline (judged units).
    pub baseline: f64,
    /// The band (judged units).
    pub threshold: f64,
    /// Whether the judged units are the calibration kernel's.
    pub calibrated: bool,
}

impl Regression {
    /// Relative change against the baseline (0.5 = 50 % slower).
    pub fn change(&self) -> f64 {
        self.judged / self.baseline - 1.0
    }

    /// The band relative to the baseline.
    pub fn band_relative(&self) -> f64 {
        self.threshold / self.baseline
    }

    /// How far outside the band: (judged - baseline) / band.
    pub fn excess(&self) -> f64 {
        (self.judged - self.baseline) / self.threshold
    }
}

/// Every slower step of every judged series (see [`regressions`]).
fn slower_points(ctx: &Context) -> Vec<Regression> {
    let mut judged_cpu: HashSet<(&str, &str, &str, usize)> = HashSet::new();
    let mut out = Vec::new();
    // CPU times first, so that wall times know where CPU is judged.
    let order = |s: &&Vec<(usize, &HistoryRow)>| match s.first().map(|p| p.1.metric.as_str()) {
        Some(CPU) => 0,
        Some(WALL) => 2,
        _ => 1,
    };
    let mut series: Vec<&Vec<(usize, &HistoryRow)>> = ctx
        .series
        .iter()
        .filter(|s| s.first().is_some_and(|p| p.1.kind() != MetricKind::Counter))
        .collect();
    series.sort_by_key(order);
    for s in series {
        // The verdict of the previous point of each baseline.
        let mut last: HashMap<Config, Verdict> = HashMap::new();
        for i in 0..s.len() {
            let (index, row) = s[i];
            let at = (
                row.study.as_str(),
                row.case.as_str(),
                row.method.as_str(),
                index,
            );
            if row.metric == WALL && judged_cpu.contains(&at) {
                continue;
            }
            let j = ctx.judge(s, i);
            if row.metric == CPU
                && (j.verdict.is_judged()
                    || matches!(j.verdict, Verdict::Shared | Verdict::Unsteady))
            {
                judged_cpu.insert(at);
            }
            // A run of slower commits is one step, listed at its first.
            let before = last.insert(row.config(), j.verdict);
            if j.verdict != Verdict::Slower || before == Some(Verdict::Slower) {
                continue;
            }
            let (Some(previous), Some(m), Some(band)) = (j.previous, j.baseline, j.band) else {
                continue;
            };
            if !still_present(ctx, s, i, m, band, j.calibrated) {
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
                judged: j.value,
                baseline: m,
                threshold: band,
                calibrated: j.calibrated,
            });
        }
    }
    out
}

/// Whether the step at point `i` is still present: the benchmark still
/// runs (its latest point is at the history's latest commit: a retired
/// benchmark, e.g. a case whose swept values changed, can no longer be
/// confirmed or undone, and is not listed), its baseline is the
/// benchmark's current one (the configuration and, for a time, the machine
/// epoch of its latest point: a step in a superseded baseline is not
/// listed either) and that latest point is
/// still above m + band (in the same units).
fn still_present(
    ctx: &Context,
    s: &[(usize, &HistoryRow)],
    i: usize,
    m: f64,
    band: f64,
    calibrated: bool,
) -> bool {
    let config = s[i].1.config();
    let k = s.len() - 1;
    if !ctx.runs_at_latest(s[k].1)
        || s[k].1.config() != config
        || !ctx.comparable(s[i].1, s[i].0, s[k].0)
    {
        return false;
    }
    let value = if calibrated {
        ctx.judge(s, k).value
    } else {
        s[k].1.value
    };
    value - m > band
}

/// Every regression of the history (see the module doc), at any commit:
/// newest commit first, then the furthest outside the band first.
pub fn regressions(history: &History) -> Vec<Regression> {
    regressions_in(&Context::new(history))
}

/// [`regressions`] with a context made once.
pub fn regressions_in(ctx: &Context) -> Vec<Regression> {
    let mut out = slower_points(ctx);
    out.sort_by(|a, b| {
        b.commit_index
            .cmp(&a.commit_index)
            .then(b.excess().total_cmp(&a.excess()))
    });
    out
}

/// The regressions at the latest commit of the history only.
pub fn latest_regressions(history: &History) -> Vec<Regression> {
    latest_regressions_in(&Context::new(history))
}

/// [`latest_regressions`] with a context made once.
pub fn latest_regressions_in(ctx: &Context) -> Vec<Regression> {
    let last = ctx.indices.len().saturating_sub(1);
    regressions_in(ctx)
        .into_iter()
        .filter(|r| r.commit_index == last)
        .collect()
}

/// Others' share of the CPU during the latest commit's run, if that run
/// was shared (above [`MAX_OTHERS_SHARE`]): its CPU times are not judged.
pub fn latest_shared_run(history: &History) -> Option<f64> {
    let last = *history.commits().last()?;
    history
        .rows
        .iter()
        .rev()
        .find(|r| r.commit == last && r.is_calibration() && r.metric == OTHERS_SHARE)
        .map(|r| r.value)
        .filter(|&s| s > MAX_OTHERS_SHARE)
}

/// The commits where a new baseline starts, as (commit index, what
/// changed): walking the time rows in file order, every row whose
/// configuration (timing method, host, CPU, profile) differs from the
/// previous time row's, and every machine change told by the calibration
/// kernel ([`Context::machine_changes`]).
pub fn baseline_changes(history: &History) -> Vec<(usize, String)> {
    baseline_changes_of(history, &Context::new(history))
}

/// [`baseline_changes`] with `history`'s context made once.
pub fn baseline_changes_of(history: &History, ctx: &Context) -> Vec<(usize, String)> {
    let rows: Vec<&HistoryRow> = history.rows.iter().collect();
    let mut out = baseline_changes_in(&rows, &ctx.indices);
    for (index, what) in ctx.machine_changes() {
        if !out.iter().any(|(i, w)| *i == index && w == what) {
            out.push((index, what.to_string()));
        }
    }
    out.sort_by_key(|(i, _)| *i);
    out
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
