//! The summary figure of the performance history, like asv's front page:
//! per study family (the kind of its studies; the kernels apart), the
//! geometric mean over its benchmarks of each benchmark's value relative
//! to the first commit of its baseline, over the latest commits (short
//! hashes on the axis). Study benchmarks enter with their CPU time in units
//! of the run's calibration kernel (older rows: their CPU seconds), the
//! kernels with their instruction counts. A line breaks where a new
//! baseline starts; a segment of one commit is drawn as a marker.

use std::collections::{BTreeMap, BTreeSet};

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::format::{short_commit, sig};
use crate::harness::history::{CPU, Context, History, HistoryRow, INSTRUCTIONS, MACHINE_CHANGE};
use crate::harness::kernels;

/// The summary shows at most this many (the latest) commits.
pub const MAX_COMMITS_SHOWN: usize = 30;

/// The summary line a benchmark belongs to: its study's family (`family`
/// maps a study name to it) for a CPU time, `kernels` for an instruction
/// count; None for other metrics and the calibration kernel.
fn line_of(row: &HistoryRow, family: &dyn Fn(&str) -> String) -> Option<String> {
    if row.is_calibration() {
        return None;
    }
    if row.study == kernels::STUDY {
        return (row.metric == INSTRUCTIONS).then(|| "kernels: instructions".to_string());
    }
    (row.metric == CPU).then(|| format!("{}: CPU time", family(&row.study)))
}

/// Geometric mean of the ratios (NaN when empty).
fn geometric_mean(ratios: &[f64]) -> f64 {
    if ratios.is_empty() {
        return f64::NAN;
    }
    (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
}

/// The summary figure and the labels of its x axis (commit hashes), None
/// for an empty history.
pub fn summary_figure(
    history: &History,
    ctx: &Context,
    family: &dyn Fn(&str) -> String,
) -> Option<(Figure, Vec<String>)> {
    let commits = history.commits();
    let first_shown = commits.len().saturating_sub(MAX_COMMITS_SHOWN);
    // line -> commit index -> (first commit of the baseline, ratios)
    let mut lines: BTreeMap<String, BTreeMap<usize, (usize, Vec<f64>)>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for series in &ctx.series {
        let Some(line) = series.first().and_then(|p| line_of(p.1, family)) else {
            continue;
        };
        if !order.contains(&line) {
            order.push(line.clone());
        }
        let points = lines.entry(line).or_default();
        for &(index, row) in series.iter().filter(|p| p.0 >= first_shown) {
            // The first point of the same baseline and, for a time, of the
            // same machine epoch; the CPU times of shared and unsteady runs
            // are no point (not judged).
            let config = row.config();
            let unjudged = |k: usize| row.is_cpu_time() && ctx.unjudged_run(k, config);
            if unjudged(index) {
                continue;
            }
            let Some(&(base_index, base)) = series.iter().find(|p| {
                p.1.config() == config && ctx.comparable(row, p.0, index) && !unjudged(p.0)
            }) else {
                continue;
            };
            let (v, b) = (
                ctx.judged_value(index, row),
                ctx.judged_value(base_index, base),
            );
            if v > 0.0 && b > 0.0 && v.is_finite() && b.is_finite() {
                let entry = points.entry(index).or_insert((base_index, Vec::new()));
                if entry.0 == base_index {
                    entry.1.push(v / b);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut breaks: BTreeSet<String> = BTreeSet::new();
    for (g, line) in order.iter().enumerate() {
        let mut pts = Vec::new();
        let mut last_base = None;
        for (&index, (base, ratios)) in &lines[line] {
            if last_base.is_some_and(|b| b != *base) {
                pts.push(((index - first_shown) as f64, f64::NAN));
                breaks.insert(short_commit(commits[index]));
            }
            last_base = Some(*base);
            pts.push(((index - first_shown) as f64, geometric_mean(ratios)));
        }
        if pts.is_empty() {
            continue;
        }
        out.push(Series {
            points: pts,
            ..Series::new(line.clone(), &[], &[], Style::LineMarkers).grouped(g)
        });
    }
    if out.is_empty() {
        return None;
    }
    let labels: Vec<String> = commits[first_shown..]
        .iter()
        .map(|c| short_commit(c).chars().take(7).collect())
        .collect();
    let restarts = if breaks.is_empty() {
        String::new()
    } else {
        format!(
            " New baselines (timing method, host, CPU or build profile changed, or the machine \
             changed under the same name: the calibration kernel moved by more than {} %) start at \
             {}; a line breaks there and restarts at 1.",
            sig(100.0 * MACHINE_CHANGE),
            breaks.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    let figure = Figure {
        name: "summary".into(),
        title: "Performance over commits (1 = the baseline's first commit)".into(),
        x: Axis::linear("commit (short hash)"),
        y: Axis::linear("geometric mean relative to the baseline's first commit [-]"),
        series: out,
        caption: format!(
            "Per family of studies, the geometric mean over its benchmarks of the CPU time in units \
             of the run's calibration kernel (rows before it was timed: CPU seconds), and for the \
             per-step kernels of their instruction counts, each relative to its value at the first \
             commit of its baseline (1.05 = 5 % slower); the latest {} of {} commits.{restarts} \
             A baseline of one commit is a marker. The CPU times of runs not judged (shared with \
             other processes, or unsteady: the machine's speed changed for that run alone) are \
             left out.",
            labels.len(),
            commits.len()
        ),
    };
    Some((figure, labels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::history::{CALIBRATION, TIMING_METHOD};

    fn row(commit: &str, study: &str, metric: &str, v: f64, host: &str) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: "2026-12-03T10:00:00Z".into(),
            host: host.into(),
            suite: "all".into(),
            study: study.into(),
            case: "c".into(),
            method: "m".into(),
            metric: metric.into(),
            value: v,
            spread: f64::NAN,
            timing: TIMING_METHOD.into(),
            profile: "release".into(),
            rustc: "rustc 1.95.0".into(),
            cpu: "Test CPU (2 logical cores)".into(),
        }
    }

    #[test]
    fn one_line_per_family_relative_to_the_baselines_first_commit() {
        let mut rows = Vec::new();
        for (c, v) in [(0, 2.0), (1, 2.2), (2, 4.0)] {
            let host = if c == 2 { "other" } else { "h" };
            let commit = format!("c{c}");
            rows.push(row(&commit, "a1", CPU, v, host));
            rows.push(row(&commit, "a2", CPU, 2.0 * v, host));
            rows.push(row(&commit, "kernels", INSTRUCTIONS, 1e6, host));
        }
        let h = History { rows };
        let ctx = Context::new(&h);
        let family = |s: &str| s[..1].to_string();
        let (figure, labels) = summary_figure(&h, &ctx, &family).unwrap();
        assert_eq!(labels, ["c0", "c1", "c2"]);
        let names: Vec<&str> = figure.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(names, ["a: CPU time", "kernels: instructions"]);
        let a = &figure.series[0].points;
        // 1, 1.1, then a break and a new baseline (other host) at 1.
        assert_eq!(a.len(), 4);
        assert_eq!(a[0], (0.0, 1.0));
        assert!((a[1].1 - 1.1).abs() < 1e-12);
        assert!(a[2].1.is_nan());
        assert_eq!(a[3], (2.0, 1.0));
        assert!(figure.caption.contains("start at c2"), "{}", figure.caption);
        assert!(figure.problems().is_empty());
    }

    /// The calibration kernel 20 % faster from c2 on (a machine change):
    /// the CPU-time line breaks there and restarts at 1; the instruction
    /// line, deterministic, does not.
    #[test]
    fn a_machine_change_breaks_the_time_lines() {
        let mut rows = Vec::new();
        for c in 0..4 {
            let commit = format!("c{c}");
            let fast = if c >= 2 { 0.8 } else { 1.0 };
            let mut cal = row(&commit, CALIBRATION.0, CPU, 0.01 * fast, "h");
            (cal.case, cal.method) = (CALIBRATION.1.into(), CALIBRATION.2.into());
            rows.push(cal);
            rows.push(row(&commit, "a1", CPU, if c >= 2 { 2.0 } else { 1.0 }, "h"));
            rows.push(row(&commit, "kernels", INSTRUCTIONS, 1e6, "h"));
        }
        let h = History { rows };
        let ctx = Context::new(&h);
        let family = |s: &str| s[..1].to_string();
        let (figure, _) = summary_figure(&h, &ctx, &family).unwrap();
        let a = &figure.series[0].points;
        assert_eq!(a.len(), 5, "{a:?}");
        assert!(a[2].1.is_nan());
        assert_eq!((a[3], a[4]), ((2.0, 1.0), (3.0, 1.0)));
        let kernels = figure
            .series
            .iter()
            .find(|s| s.label.starts_with("kernels"))
            .unwrap();
        assert_eq!(kernels.points.len(), 4);
        assert!(figure.caption.contains("start at c2"), "{}", figure.caption);
    }
}
