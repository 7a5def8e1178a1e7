//! The history plots of the performance section: per study, each line
//! divided by its own median, lines broken where a baseline changes, and a
//! study with more than [`MAX_LINES`] lines drawn per method (the median
//! over its cases) with the min-max outline.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::MAX_LINES;
use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::history::{self, CPU, History, HistoryRow, WALL};
use crate::harness::report::format::short_commit;
use crate::harness::timing::median;

/// The min-max outline over the cases is drawn for at most this many
/// methods (two lines each).
pub const MAX_ENVELOPES: usize = 4;

/// The timed rows a study's plot draws: CPU time, or wall time when the
/// study has no CPU-time rows (a history recorded before CPU time was
/// measured), of the host of the study's latest such row.
fn plotted_rows<'a>(history: &'a History, study: &str) -> (&'static str, Vec<&'a HistoryRow>) {
    let has_cpu = history
        .rows
        .iter()
        .any(|r| r.study == study && r.is_cpu_time());
    let metric = if has_cpu { CPU } else { WALL };
    let rows: Vec<&HistoryRow> = history
        .rows
        .iter()
        .filter(|r| r.study == study && r.metric == metric)
        .collect();
    let Some(host) = rows.last().map(|r| r.host.clone()) else {
        return (metric, Vec::new());
    };
    (
        metric,
        rows.into_iter().filter(|r| r.host == host).collect(),
    )
}

/// Per-commit values of `rows` (one benchmark) divided by their median:
/// (commit index, value / median).
fn normalised(indices: &HashMap<&str, usize>, rows: &[&HistoryRow]) -> Vec<(usize, f64)> {
    let series = history::per_commit_values(indices, rows);
    let values: Vec<f64> = series
        .iter()
        .map(|(_, r)| r.value)
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let m = median(&values);
    series.into_iter().map(|(i, r)| (i, r.value / m)).collect()
}

/// Points at x = commit index + 1, with a NaN point (a break in the line)
/// before every commit in `breaks` that is not the first.
pub(super) fn with_breaks(values: &[(usize, f64)], breaks: &BTreeSet<usize>) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(values.len() + breaks.len());
    for (k, &(i, v)) in values.iter().enumerate() {
        let x = (i + 1) as f64;
        if k > 0 && breaks.contains(&i) {
            out.push((x, f64::NAN));
        }
        out.push((x, v));
    }
    out
}

/// The outline of the band between `lo` and `hi` (same commits), one
/// closed polyline per baseline segment, segments separated by NaN points.
pub(super) fn outline(
    lo: &[(usize, f64)],
    hi: &[(usize, f64)],
    breaks: &BTreeSet<usize>,
) -> Vec<(f64, f64)> {
    let mut segments: Vec<Vec<usize>> = Vec::new();
    for (k, &(i, _)) in lo.iter().enumerate() {
        if k == 0 || breaks.contains(&i) {
            segments.push(Vec::new());
        }
        if let Some(seg) = segments.last_mut() {
            seg.push(k);
        }
    }
    let mut out = Vec::new();
    for seg in segments {
        if let Some(&(i, _)) = seg.first().map(|&k| &lo[k])
            && !out.is_empty()
        {
            out.push(((i + 1) as f64, f64::NAN));
        }
        let x = |k: usize| (lo[k].0 + 1) as f64;
        out.extend(seg.iter().map(|&k| (x(k), lo[k].1)));
        out.extend(seg.iter().rev().map(|&k| (x(k), hi[k].1)));
        if let Some(&k) = seg.first() {
            out.push((x(k), lo[k].1));
        }
    }
    out
}

/// The time figure of each study in the history (first-appearance order),
/// see the module doc.
pub fn history_figures(history: &History) -> Vec<(String, Figure)> {
    let indices = history.commit_indices();
    let commits = history.commits();
    let mut out = Vec::new();
    for study in history.studies() {
        let (metric, rows) = plotted_rows(history, study);
        let Some(host) = rows.last().map(|r| r.host.clone()) else {
            continue;
        };
        let changes = history::baseline_changes_in(&rows, &indices);
        let breaks: BTreeSet<usize> = changes.iter().map(|(i, _)| *i).collect();
        // Benchmarks (case, method), first appearance.
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut by_key: HashMap<(&str, &str), Vec<&HistoryRow>> = HashMap::new();
        for r in &rows {
            let k = (r.case.as_str(), r.method.as_str());
            by_key
                .entry(k)
                .or_insert_with(|| {
                    keys.push(k);
                    Vec::new()
                })
                .push(r);
        }
        let single_case = keys.iter().all(|k| k.0 == keys[0].0);
        let mut series = Vec::new();
        let how = if keys.len() <= MAX_LINES {
            for (g, k) in keys.iter().enumerate() {
                let label = if single_case {
                    k.1.to_string()
                } else {
                    format!("{} / {}", k.0, k.1)
                };
                let values = normalised(&indices, &by_key[k]);
                let points = with_breaks(&values, &breaks);
                series.push(Series {
                    points,
                    ..Series::new(label, &[], &[], Style::LineMarkers).grouped(g)
                });
            }
            "one line per case and method".to_string()
        } else {
            let mut methods: Vec<&str> = Vec::new();
            for k in &keys {
                if !methods.contains(&k.1) {
                    methods.push(k.1);
                }
            }
            let envelopes = methods.len() <= MAX_ENVELOPES;
            for (g, method) in methods.iter().enumerate() {
                let mut at: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
                let mut cases = 0;
                for k in keys.iter().filter(|k| k.1 == *method) {
                    cases += 1;
                    for (i, v) in normalised(&indices, &by_key[k]) {
                        if v.is_finite() {
                            at.entry(i).or_default().push(v);
                        }
                    }
                }
                let stat = |f: fn(&[f64]) -> f64| -> Vec<(usize, f64)> {
                    at.iter().map(|(&i, v)| (i, f(v))).collect()
                };
                let mid = stat(median);
                series.push(Series {
                    points: with_breaks(&mid, &breaks),
                    ..Series::new(
                        format!("{method} (median of {cases} cases)"),
                        &[],
                        &[],
                        Style::LineMarkers,
                    )
                    .grouped(g)
                });
                if envelopes && mid.len() >= 2 {
                    let lo = stat(|v| v.iter().copied().fold(f64::INFINITY, f64::min));
                    let hi = stat(|v| v.iter().copied().fold(f64::NEG_INFINITY, f64::max));
                    series.push(Series {
                        points: outline(&lo, &hi, &breaks),
                        ..Series::new(
                            format!("{method}: min-max over cases"),
                            &[],
                            &[],
                            Style::Dashed,
                        )
                        .grouped(g)
                    });
                }
            }
            if envelopes {
                format!(
                    "{} cases: one line per method, the median over its cases, with the min-max over \
                     the cases as a dashed outline of the same colour",
                    keys.len()
                )
            } else {
                format!(
                    "{} cases: one line per method, the median over its cases (the min-max outlines \
                     are left out above {MAX_ENVELOPES} methods to keep the plot readable)",
                    keys.len()
                )
            }
        };
        let shown: BTreeSet<usize> = rows
            .iter()
            .filter_map(|r| indices.get(r.commit.as_str()).copied())
            .collect();
        let hashes: Vec<String> = shown
            .iter()
            .map(|&i| format!("{} = {}", i + 1, short_commit(commits[i])))
            .collect();
        let baselines = if changes.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = changes
                .iter()
                .map(|(i, what)| format!("at {} ({what})", i + 1))
                .collect();
            format!(
                " Lines break where a new baseline starts: {}.",
                list.join("; ")
            )
        };
        let what = if metric == CPU {
            "CPU time (of the thread that ran the method)"
        } else {
            "wall time (this history has no CPU times)"
        };
        let short = if metric == CPU {
            "CPU time"
        } else {
            "wall time"
        };
        out.push((
            study.to_string(),
            Figure {
                name: "history".to_string(),
                title: format!("{study}: {short} over commits, each line over its median"),
                x: Axis::linear("commit index (hashes in the caption) [-]"),
                y: Axis::log(format!("{short} / median of the line [-]")),
                series,
                caption: format!(
                    "The {what} at each commit (its most recent run) on host {host}, each line divided \
                     by its own median (1 = typical, 1.2 = 20 % slower); {how}.{baselines} Commits: {}.",
                    hashes.join(", ")
                ),
            },
        ));
    }
    out
}
