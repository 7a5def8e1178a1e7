//! Judging the history: a verdict for every point of every benchmark (the
//! rules are in the parent module's documentation), from one [`Context`]
//! that knows the commits, the calibration of each run, the counter changes
//! and the measured noise of unchanged code.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::data::*;
use crate::harness::timing::median;

/// What a value of a benchmark says compared with earlier commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No earlier commit has this benchmark.
    New,
    /// A time or cost whose earlier commits were all measured in another
    /// baseline configuration (timing method, machine or build profile):
    /// not judged.
    NewBaseline,
    /// A counter equal to the previous commit's.
    Unchanged,
    /// A counter that differs from the previous commit's (flag).
    Changed,
    /// A time or cost slower than the baseline beyond its band (flag).
    Slower,
    /// A time or cost faster than the baseline beyond its band.
    Faster,
    /// A time or cost within the band of the baseline.
    WithinNoise,
    /// A wall time shown for information (the CPU time of the same
    /// benchmark is the one judged), or the calibration kernel's CPU time
    /// (the unit of the others).
    Informational,
    /// A time or cost beyond its band at a commit where a counter of the
    /// same (study, case, method) changed: the method changed; shown as the
    /// counter change, not as a speed-up or slowdown.
    WithCounters,
    /// A calibrated CPU time beyond its band at its baseline's latest
    /// commit, not yet confirmed by the next commit (not a regression yet).
    Unconfirmed,
    /// A CPU time of a shared run (other processes took more than
    /// [`MAX_OTHERS_SHARE`] of the machine's CPU): not judged, and no
    /// baseline or noise sample for other commits.
    Shared,
    /// A CPU time of an unsteady run: its calibration kernel moved by more
    /// than [`MACHINE_CHANGE`] and the next quiet run did not confirm the
    /// move (or there is none yet): the machine's speed changed during the
    /// run or for it alone. Not judged, and no baseline or noise sample.
    Unsteady,
}

impl Verdict {
    /// Whether the report flags it.
    pub fn is_flag(self) -> bool {
        matches!(self, Verdict::Changed | Verdict::Slower)
    }

    /// Whether a time or cost was compared with a baseline.
    pub fn is_judged(self) -> bool {
        matches!(
            self,
            Verdict::Slower
                | Verdict::Faster
                | Verdict::WithinNoise
                | Verdict::WithCounters
                | Verdict::Unconfirmed
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
            Verdict::Informational => "not judged",
            Verdict::WithCounters => "counters changed",
            Verdict::Unconfirmed => "slower once (unconfirmed)",
            Verdict::Shared => "not judged (machine shared)",
            Verdict::Unsteady => "not judged (machine speed unsteady)",
        }
    }
}

/// The noise band of an old (uncalibrated) time with baseline median `m`
/// over `window` (the baseline commits' values) and the spreads `s_latest`
/// (of the judged value) and `window_spreads`: max(20 % m, 3 sigma,
/// s_latest + median of the window's spreads); non-finite spreads count
/// as 0.
pub fn noise_band(m: f64, window: &[f64], s_latest: f64, window_spreads: &[f64]) -> f64 {
    (MIN_RELATIVE_SLOWDOWN * m)
        .max(NOISE_SIGMAS * robust_sigma(m, window))
        .max(finite(s_latest) + median_or_zero(window_spreads))
}

fn finite(s: f64) -> f64 {
    if s.is_finite() { s.max(0.0) } else { 0.0 }
}

fn median_or_zero(values: &[f64]) -> f64 {
    let v: Vec<f64> = values.iter().map(|&s| finite(s)).collect();
    if v.is_empty() { 0.0 } else { median(&v) }
}

/// 1.4826 MAD of `window` about `m`.
fn robust_sigma(m: f64, window: &[f64]) -> f64 {
    let deviations: Vec<f64> = window.iter().map(|v| (v - m).abs()).collect();
    MAD_TO_SIGMA * median(&deviations)
}

/// The verdict of `value` against baseline `m` and band `band`.
fn banded(value: f64, m: f64, band: f64) -> Verdict {
    if value - m > band {
        Verdict::Slower
    } else if m - value > band {
        Verdict::Faster
    } else {
        Verdict::WithinNoise
    }
}

/// The time verdict of an old time `latest` (spread `latest_spread`)
/// against earlier per-commit values of the same baseline, oldest first, as
/// `(value, spread)`: baseline median, noise band and verdict.
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
    (m, threshold, banded(latest, m, threshold))
}

/// [`time_verdict`] without recorded spreads.
pub fn wall_time_verdict(latest: f64, earlier: &[f64]) -> (f64, f64, Verdict) {
    let earlier: Vec<(f64, f64)> = earlier.iter().map(|&v| (v, f64::NAN)).collect();
    time_verdict(latest, f64::NAN, &earlier)
}

/// The band of a calibrated CPU time in units of the calibration: `n` the
/// judged value with relative spreads `r` (repeats) and `c` (calibration),
/// `window` the earlier commits' `(n, r, c)`, `q` the measured noise of
/// unchanged code. Returns (m, band).
pub fn calibrated_band(r: f64, c: f64, window: &[(f64, f64, f64)], q: f64) -> (f64, f64) {
    let values: Vec<f64> = window.iter().map(|w| w.0).collect();
    let m = median(&values);
    let r_base = median_or_zero(&window.iter().map(|w| w.1).collect::<Vec<_>>());
    let c_base = median_or_zero(&window.iter().map(|w| w.2).collect::<Vec<_>>());
    let spreads = m * (finite(r) + r_base + finite(c) + c_base);
    let band = (q * m)
        .max(NOISE_SIGMAS * robust_sigma(m, &values))
        .max(spreads);
    (m, band)
}

/// The quantile `p` (0..1, nearest rank) of `values`; NaN when empty.
pub fn quantile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// The judgement of one point of a benchmark's series.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement<'a> {
    /// The verdict.
    pub verdict: Verdict,
    /// The point compared with: the previous commit of the same baseline
    /// (for a new baseline, the last commit of the old one).
    pub previous: Option<&'a HistoryRow>,
    /// The value judged: the row's value, or for a calibrated CPU time its
    /// value in units of the run's calibration kernel.
    pub value: f64,
    /// The baseline in the same units: the window's median (times), the
    /// previous value (costs).
    pub baseline: Option<f64>,
    /// The band in the same units.
    pub band: Option<f64>,
    /// Whether `value` is in units of the calibration.
    pub calibrated: bool,
    /// A new baseline: what changed.
    pub note: String,
}

impl Judgement<'_> {
    /// value / baseline - 1.
    pub fn change(&self) -> Option<f64> {
        Some(self.value / self.baseline? - 1.0)
    }

    /// band / baseline.
    pub fn band_relative(&self) -> Option<f64> {
        Some(self.band? / self.baseline?)
    }
}

/// Key of a benchmark.
pub(super) type Key<'a> = (&'a str, &'a str, &'a str, &'a str);

pub(super) fn key(row: &HistoryRow) -> Key<'_> {
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
pub(super) fn benchmarks(history: &History) -> Vec<Vec<&HistoryRow>> {
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

/// Counters are exact integers: compare bit for bit (NaN = NaN).
pub(super) fn same_count(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || a == b
}

/// (study, case, method, commit index).
type At<'a> = (&'a str, &'a str, &'a str, usize);

/// What judging needs beyond one series, computed once per history.
pub struct Context<'a> {
    /// Commit index of each commit.
    pub indices: HashMap<&'a str, usize>,
    /// The benchmarks' per-commit series, in order of first appearance.
    pub series: Vec<Vec<(usize, &'a HistoryRow)>>,
    /// (calibration cpu_s, its relative spread) per (commit index, config).
    calibration: HashMap<(usize, Config<'a>), (f64, f64)>,
    /// Where some counter of a (study, case, method) changed.
    counters_changed: HashSet<At<'a>>,
    /// Per config and commit index k: the noise of unchanged code before
    /// k ([`Context::noise_before`]), computed once: the quantile of the
    /// |relative change| of the calibrated CPU times whose counters did
    /// not change, over the pairs of commits before k, and their number.
    noise: HashMap<Config<'a>, Vec<(f64, usize)>>,
    /// Others' share of the CPU per (commit index, config) of the runs
    /// that measured it.
    others_share: HashMap<(usize, Config<'a>), f64>,
    /// The (study, case, method) of every row at the latest commit: the
    /// benchmarks the latest run still has.
    latest_run: HashSet<(&'a str, &'a str, &'a str)>,
    /// Per config: where a machine epoch after the first starts, as (commit
    /// index, what changed), oldest first ([`machine_epochs`]).
    epochs: HashMap<Config<'a>, Vec<(usize, String)>>,
    /// The unsteady runs and what their calibration did
    /// ([`machine_epochs`]).
    unsteady: HashMap<(usize, Config<'a>), String>,
}

/// Where machine epochs start, per config, and the unsteady runs.
type MachineStates<'a> = (
    HashMap<Config<'a>, Vec<(usize, String)>>,
    HashMap<(usize, Config<'a>), String>,
);

/// The machine epochs of each config: a new epoch starts at a quiet run
/// (others' share at most [`MAX_OTHERS_SHARE`]) whose calibration kernel's
/// CPU time departs from the median of its previous (up to)
/// [`MACHINE_WINDOW`] quiet values of the current epoch by more than
/// [`MACHINE_CHANGE`]. The kernel is fixed code, so such a shift is a
/// change of the machine under the same name (a VM moved to other
/// hardware): cache-resident and memory-bound methods then change speed by
/// different factors, and no calibration corrects that. Shared runs start
/// no epoch.
///
/// A shift is a machine change only when the next quiet run confirms it as
/// a new steady level (its kernel is off the same median by more than
/// [`MACHINE_CHANGE`] in the same direction, and within [`MACHINE_CHANGE`]
/// of the shifted value), as a slowdown is a regression only when the next
/// commit confirms it. An unconfirmed shift (the next run is back, or there
/// is no next run yet) makes its run *unsteady*: the machine's speed
/// changed for that run alone or during it (a busy host's neighbours,
/// which the guest's /proc/stat does not show), and its CPU times are not
/// judged ([`Verdict::Unsteady`]). Measured on 6 Dec 2026: one run's kernel
/// at 1.567 ms (+70 %, its repeats spread 49 %) between runs at 0.93 ms.
fn machine_epochs<'a>(
    calibration: &HashMap<(usize, Config<'a>), (f64, f64)>,
    others_share: &HashMap<(usize, Config<'a>), f64>,
) -> MachineStates<'a> {
    let mut quiet: HashMap<Config<'a>, Vec<(usize, f64)>> = HashMap::new();
    for (&(index, config), &(value, _)) in calibration {
        if others_share
            .get(&(index, config))
            .is_none_or(|&s| s <= MAX_OTHERS_SHARE)
        {
            quiet.entry(config).or_default().push((index, value));
        }
    }
    let mut epochs: HashMap<Config, Vec<(usize, String)>> = HashMap::new();
    let mut unsteady = HashMap::new();
    for (config, mut runs) in quiet {
        runs.sort_by_key(|p| p.0);
        let mut window: Vec<f64> = Vec::new();
        for (k, &(index, value)) in runs.iter().enumerate() {
            if !window.is_empty() {
                let m = median(&window);
                let change = value / m - 1.0;
                if change.abs() > MACHINE_CHANGE {
                    // The next run confirms a new steady level: as far off
                    // the old median, and near this run's value.
                    let next = runs.get(k + 1).map(|p| p.1);
                    let confirms = |n: f64| {
                        (n / m - 1.0) * change.signum() > MACHINE_CHANGE
                            && (n / value - 1.0).abs() <= MACHINE_CHANGE
                    };
                    let shift = format!(
                        "calibration kernel {:.3} ms → {:.3} ms ({:+.0} %)",
                        1e3 * m,
                        1e3 * value,
                        100.0 * change
                    );
                    match next {
                        Some(n) if confirms(n) => {
                            epochs
                                .entry(config)
                                .or_default()
                                .push((index, format!("machine changed: {shift}")));
                            window.clear();
                        }
                        _ => {
                            let why = next
                                .map_or("not yet confirmed by a next run".to_string(), |n| {
                                    format!("not confirmed by the next run ({:.3} ms)", 1e3 * n)
                                });
                            unsteady.insert(
                                (index, config),
                                format!("machine speed unsteady: {shift}, {why}"),
                            );
                            continue;
                        }
                    }
                }
            }
            window.push(value);
            if window.len() > MACHINE_WINDOW {
                window.remove(0);
            }
        }
    }
    (epochs, unsteady)
}

/// The noise before each commit index `0..=commits` from the samples
/// (commit index, |relative change|): the [`CPU_NOISE_QUANTILE`] quantile
/// of the samples at earlier commits and their number
/// ([`CPU_UNKNOWN_NOISE`] while fewer than [`CPU_MIN_NOISE_SAMPLES`]).
fn noise_levels(mut samples: Vec<(usize, f64)>, commits: usize) -> Vec<(f64, usize)> {
    samples.sort_by_key(|p| p.0);
    let mut before = 0;
    (0..=commits)
        .map(|index| {
            while before < samples.len() && samples[before].0 < index {
                before += 1;
            }
            if before < CPU_MIN_NOISE_SAMPLES {
                (CPU_UNKNOWN_NOISE, before)
            } else {
                let values: Vec<f64> = samples[..before].iter().map(|p| p.1).collect();
                (quantile(&values, CPU_NOISE_QUANTILE), before)
            }
        })
        .collect()
}

impl<'a> Context<'a> {
    /// The context of `history`.
    pub fn new(history: &'a History) -> Self {
        let indices = history.commit_indices();
        let series: Vec<Vec<(usize, &HistoryRow)>> = benchmarks(history)
            .iter()
            .map(|rows| per_commit_values(&indices, rows))
            .collect();
        let mut calibration = HashMap::new();
        let mut counters_changed = HashSet::new();
        let mut others_share = HashMap::new();
        let mut latest_run = HashSet::new();
        let last = indices.len().saturating_sub(1);
        for s in &series {
            for (k, &(index, row)) in s.iter().enumerate() {
                if index == last {
                    latest_run.insert((row.study.as_str(), row.case.as_str(), row.method.as_str()));
                }
                if row.is_calibration() && row.metric == OTHERS_SHARE {
                    others_share.insert((index, row.config()), row.value);
                }
                if row.is_calibration() && row.is_cpu_time() && row.value > 0.0 {
                    let c = finite(row.spread) / row.value;
                    calibration.insert((index, row.config()), (row.value, c));
                }
                if row.kind() == MetricKind::Counter
                    && k > 0
                    && !same_count(s[k - 1].1.value, row.value)
                {
                    counters_changed.insert((
                        row.study.as_str(),
                        row.case.as_str(),
                        row.method.as_str(),
                        index,
                    ));
                }
            }
        }
        let (epochs, unsteady) = machine_epochs(&calibration, &others_share);
        let mut ctx = Context {
            indices,
            series,
            calibration,
            counters_changed,
            noise: HashMap::new(),
            others_share,
            latest_run,
            epochs,
            unsteady,
        };
        let last = ctx.indices.len();
        ctx.noise = ctx
            .measured_noise()
            .into_iter()
            .map(|(config, samples)| (config, noise_levels(samples, last)))
            .collect();
        ctx
    }

    /// Whether a counter of `row`'s (study, case, method) changed at commit
    /// `index`.
    pub fn counters_changed_at(&self, row: &HistoryRow, index: usize) -> bool {
        self.counters_changed.contains(&(
            row.study.as_str(),
            row.case.as_str(),
            row.method.as_str(),
            index,
        ))
    }

    /// Whether the latest commit's run has `row`'s (study, case, method).
    pub fn runs_at_latest(&self, row: &HistoryRow) -> bool {
        self.latest_run
            .contains(&(row.study.as_str(), row.case.as_str(), row.method.as_str()))
    }

    /// `row`'s CPU time in units of its run's calibration, with the
    /// relative spreads (repeats, calibration); None without calibration.
    fn calibrated(&self, index: usize, row: &HistoryRow) -> Option<(f64, f64, f64)> {
        if !row.is_cpu_time() || row.is_calibration() {
            return None;
        }
        let &(cal, c) = self.calibration.get(&(index, row.config()))?;
        Some((row.value / cal, finite(row.spread) / row.value, c))
    }

    /// The value of point (`index`, `row`) in the units it is judged in:
    /// a CPU time with a calibration in units of it, anything else as is.
    pub fn judged_value(&self, index: usize, row: &HistoryRow) -> f64 {
        self.calibrated(index, row).map_or(row.value, |c| c.0)
    }

    /// The machine epoch of commit `index` in `config` (0 for the first).
    pub fn epoch(&self, index: usize, config: &Config) -> usize {
        self.epochs.get(config).map_or(0, |starts| {
            starts.iter().filter(|(i, _)| *i <= index).count()
        })
    }

    /// Every machine change, as (commit index, what changed).
    pub fn machine_changes(&self) -> impl Iterator<Item = (usize, &str)> {
        self.epochs
            .values()
            .flatten()
            .map(|(i, what)| (*i, what.as_str()))
    }

    /// What changed where the machine epoch of commit `index` in `config`
    /// starts, if it is not the first.
    fn machine_change(&self, index: usize, config: &Config<'a>) -> Option<&str> {
        let starts = self.epochs.get(config)?;
        starts
            .iter()
            .rev()
            .find(|(i, _)| *i <= index)
            .map(|(_, what)| what.as_str())
    }

    /// Whether points `a` and `b` (commit indices) of `row`'s benchmark
    /// may be compared: always for counters and costs, within one machine
    /// epoch for times.
    pub fn comparable(&self, row: &HistoryRow, a: usize, b: usize) -> bool {
        let config = row.config();
        !row.is_time() || self.epoch(a, &config) == self.epoch(b, &config)
    }

    /// Whether the run of commit `index` in `config` was shared: others
    /// took more than [`MAX_OTHERS_SHARE`] of the CPU.
    pub fn shared(&self, index: usize, config: Config) -> bool {
        self.others_share
            .get(&(index, config))
            .is_some_and(|&s| s > MAX_OTHERS_SHARE)
    }

    /// Whether the CPU times of commit `index`'s run in `config` can be
    /// judged, serve as a baseline, a noise sample or a confirmation: not
    /// for a shared or an unsteady run.
    pub fn unjudged_run(&self, index: usize, config: Config<'a>) -> bool {
        self.shared(index, config) || self.unsteady.contains_key(&(index, config))
    }

    /// What the calibration of an unsteady run did, None for a steady one.
    pub fn unsteady(&self, index: usize, config: Config<'a>) -> Option<&str> {
        self.unsteady.get(&(index, config)).map(String::as_str)
    }

    /// What made the run of commit `index` unsteady (in any config).
    pub fn unsteady_run(&self, index: usize) -> Option<&str> {
        self.unsteady
            .iter()
            .find(|((i, _), _)| *i == index)
            .map(|(_, s)| s.as_str())
    }

    fn measured_noise(&self) -> HashMap<Config<'a>, Vec<(usize, f64)>> {
        let mut noise: HashMap<Config, Vec<(usize, f64)>> = HashMap::new();
        for s in &self.series {
            let quiet: Vec<(usize, &HistoryRow)> = s
                .iter()
                .copied()
                .filter(|&(i, r)| !self.unjudged_run(i, r.config()))
                .collect();
            for pair in quiet.windows(2) {
                let ((ia, a), (ib, b)) = (pair[0], pair[1]);
                if a.config() != b.config()
                    || self.counters_changed_at(b, ib)
                    || !self.comparable(b, ia, ib)
                {
                    continue;
                }
                if let (Some(na), Some(nb)) = (self.calibrated(ia, a), self.calibrated(ib, b)) {
                    noise
                        .entry(b.config())
                        .or_default()
                        .push((ib, (nb.0 / na.0 - 1.0).abs()));
                }
            }
        }
        noise
    }

    /// The noise of unchanged code in `config` before commit `index`.
    pub fn noise_before(&self, config: &Config, index: usize) -> (f64, usize) {
        self.noise
            .get(config)
            .and_then(|levels| levels.get(index).or(levels.last()))
            .copied()
            .unwrap_or((CPU_UNKNOWN_NOISE, 0))
    }

    /// Judges point `i` of `series` (one benchmark's per-commit values).
    pub fn judge(&self, series: &[(usize, &'a HistoryRow)], i: usize) -> Judgement<'a> {
        let (index, row) = series[i];
        let mut j = Judgement {
            verdict: Verdict::New,
            previous: None,
            value: row.value,
            baseline: None,
            band: None,
            calibrated: false,
            note: String::new(),
        };
        if row.kind() == MetricKind::Counter {
            if let Some(&(_, prev)) = i.checked_sub(1).map(|k| &series[k]) {
                j.previous = Some(prev);
                j.verdict = if same_count(prev.value, row.value) {
                    Verdict::Unchanged
                } else {
                    Verdict::Changed
                };
            }
            return j;
        }
        let config = row.config();
        if row.kind() == MetricKind::Environment {
            j.verdict = Verdict::Informational;
            return j;
        }
        let judged_on_cpu = row.is_cpu_time() && !row.is_calibration();
        if judged_on_cpu && self.shared(index, config) {
            j.verdict = Verdict::Shared;
            return j;
        }
        if let Some(note) = self.unsteady(index, config).filter(|_| judged_on_cpu) {
            j.verdict = Verdict::Unsteady;
            j.note = note.to_string();
            return j;
        }
        // A method change (its counters changed at commit p < i) starts the
        // benchmark's window afresh at p: the commits before p ran another
        // method, and their times are no baseline for the times after it.
        let since = (0..i)
            .rev()
            .find(|&k| {
                let (ik, rk) = series[k];
                rk.config() == config && self.counters_changed_at(rk, ik)
            })
            .unwrap_or(0);
        let earlier: Vec<(usize, &HistoryRow)> = series[since..i]
            .iter()
            .copied()
            .filter(|&(k, r)| {
                r.config() == config
                    && !(judged_on_cpu && self.unjudged_run(k, config))
                    && self.comparable(row, k, index)
            })
            .collect();
        let Some(&(_, previous)) = earlier.last() else {
            if let Some(&(_, before)) = i.checked_sub(1).map(|k| &series[k]) {
                j.verdict = Verdict::NewBaseline;
                j.previous = Some(before);
                j.note = config.change_from(&before.config());
                if j.note.is_empty() && row.is_time() {
                    j.note = self.machine_change(index, &config).unwrap_or("").into();
                }
            }
            return j;
        };
        j.previous = Some(previous);
        let window = &earlier[earlier.len().saturating_sub(BASELINE_COMMITS)..];
        if row.kind() == MetricKind::Cost {
            let m = previous.value;
            j.baseline = Some(m);
            j.band = Some(COST_BAND * m.abs());
            j.verdict = banded(row.value, m, COST_BAND * m.abs());
        } else if let Some((n, r, c)) = self.calibrated(index, row)
            && let Some(cal_window) = window
                .iter()
                .map(|&(k, w)| self.calibrated(k, w))
                .collect::<Option<Vec<_>>>()
        {
            let (q, _) = self.noise_before(&config, index);
            let (m, band) = calibrated_band(r, c, &cal_window, q);
            j.value = n;
            j.calibrated = true;
            (j.baseline, j.band) = (Some(m), Some(band));
            j.verdict = banded(n, m, band);
            if j.verdict == Verdict::Slower && !self.confirmed(series, i, m, band) {
                j.verdict = Verdict::Unconfirmed;
            }
        } else {
            let values: Vec<(f64, f64)> = window.iter().map(|(_, r)| (r.value, r.spread)).collect();
            let (m, band, verdict) = time_verdict(row.value, row.spread, &values);
            (j.baseline, j.band, j.verdict) = (Some(m), Some(band), verdict);
        }
        if row.is_calibration() && row.is_time() {
            j.verdict = Verdict::Informational;
        } else if matches!(
            j.verdict,
            Verdict::Slower | Verdict::Faster | Verdict::Unconfirmed
        ) && self.counters_changed_at(row, index)
        {
            j.verdict = Verdict::WithCounters;
        }
        j
    }

    /// A calibrated CPU time slower than m + band at point `i`: whether the
    /// next point of the same baseline (and machine epoch) is above m + band
    /// too.
    fn confirmed(&self, series: &[(usize, &HistoryRow)], i: usize, m: f64, band: f64) -> bool {
        let (index, row) = series[i];
        let config = row.config();
        series[i + 1..]
            .iter()
            .find(|&&(k, r)| r.config() == config && !self.unjudged_run(k, config))
            .filter(|&&(k, _)| self.comparable(row, index, k))
            .and_then(|&(k, r)| self.calibrated(k, r))
            .is_some_and(|(n, _, _)| n - m > band)
    }
}

#[cfg(test)]
mod tests;
