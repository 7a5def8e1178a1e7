//! The folded per-benchmark detail of the performance history: per study
//! (and for the kernels) one fold whose summary line counts its verdicts at
//! the latest commit, holding a table of its benchmarks with the absolute
//! value, the baseline in the same unit, the change, the band, the verdict
//! and the counters that changed.

use super::text::{benchmark, value_text};
use crate::harness::format::{count, percent, short_commit};
use crate::harness::history::{CPU, HistoryFlag, MetricKind, Verdict, WALL};
use crate::harness::kernels;
use crate::harness::outcome::RunResult;
use crate::harness::report::doc::{Block, Inline, RowKind, Table, code, strong, text};

/// The baseline of a flag in the unit of its value (a calibrated CPU time's
/// baseline converted at the latest commit's calibration).
fn baseline_value(f: &HistoryFlag) -> Option<f64> {
    let m = f.baseline?;
    Some(if f.judged != f.latest && f.judged > 0.0 {
        m * f.latest / f.judged
    } else {
        m
    })
}

/// The counters of (case, method) that changed at the latest commit.
fn changed_counters(flags: &[&HistoryFlag], case: &str, method: &str) -> String {
    let changed: Vec<String> = flags
        .iter()
        .filter(|f| f.case == case && f.method == method && f.verdict == Verdict::Changed)
        .map(|f| {
            format!(
                "{} {} → {}",
                f.metric,
                f.previous.map(count).unwrap_or_default(),
                count(f.latest)
            )
        })
        .collect();
    if changed.is_empty() {
        "unchanged".into()
    } else {
        changed.join("; ")
    }
}

/// The judged measures of a study's flags: costs, and CPU time (wall time
/// where a benchmark has no CPU time).
fn judged_flags<'a>(flags: &[&'a HistoryFlag]) -> Vec<&'a HistoryFlag> {
    flags
        .iter()
        .copied()
        .filter(|f| match f.metric.as_str() {
            CPU => true,
            WALL => !flags
                .iter()
                .any(|g| g.metric == CPU && g.case == f.case && g.method == f.method),
            m => crate::harness::history::metric_kind(m) == MetricKind::Cost,
        })
        .collect()
}

fn detail_table(flags: &[&HistoryFlag], study: &str) -> Table {
    let mut table = Table::new(&[
        ("benchmark", false),
        ("measure", false),
        ("commit", false),
        ("value", true),
        ("baseline", true),
        ("change", true),
        ("band", true),
        ("verdict", false),
        ("counters", false),
    ]);
    for f in judged_flags(flags) {
        let counters = changed_counters(flags, &f.case, &f.method);
        let flagged = f.verdict.is_flag() || counters != "unchanged";
        let opt = |v: Option<String>| v.unwrap_or_default();
        table.push(
            if flagged {
                RowKind::Flag
            } else {
                RowKind::Normal
            },
            vec![
                vec![text(benchmark(study, &f.case, &f.method))],
                vec![code(&f.metric)],
                vec![code(short_commit(&f.latest_commit))],
                vec![text(value_text(&f.metric, f.latest))],
                vec![text(opt(
                    baseline_value(f).map(|b| value_text(&f.metric, b))
                ))],
                vec![text(opt(f.change().map(percent)))],
                vec![text(opt(f.threshold.zip(f.baseline).map(|(t, m)| {
                    format!("±{}", percent(t / m).trim_start_matches('+'))
                })))],
                vec![if f.verdict.is_flag() {
                    strong(f.verdict.label())
                } else {
                    text(f.verdict.label())
                }],
                vec![text(counters)],
            ],
        );
    }
    table
}

/// The summary line of a study's fold: benchmarks, verdict counts and the
/// geometric mean change of the judged measures against their baselines.
fn summary_line(study: &str, flags: &[&HistoryFlag]) -> Vec<Inline> {
    let judged = judged_flags(flags);
    let mut verdicts: Vec<(&str, usize)> = Vec::new();
    for f in &judged {
        match verdicts.iter_mut().find(|v| v.0 == f.verdict.label()) {
            Some(v) => v.1 += 1,
            None => verdicts.push((f.verdict.label(), 1)),
        }
    }
    let logs: Vec<f64> = judged
        .iter()
        .filter_map(|f| f.change())
        .filter(|c| (1.0 + c) > 0.0)
        .map(|c| (1.0 + c).ln())
        .collect();
    let mean = if logs.is_empty() {
        String::new()
    } else {
        let g = (logs.iter().sum::<f64>() / logs.len() as f64).exp() - 1.0;
        format!("; geometric mean change {}", percent(g))
    };
    let flagged = judged.iter().any(|f| f.verdict.is_flag());
    let line = format!(
        "{study}: {} measures ({}){mean}",
        judged.len(),
        verdicts
            .iter()
            .map(|(l, n)| format!("{n} {l}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    vec![if flagged { strong(line) } else { text(line) }]
}

/// The kernels' fold: what each kernel runs, then the detail table.
fn kernels_fold(flags: &[&HistoryFlag], run: &RunResult) -> Block {
    let mut list = Table::new(&[("kernel", false), ("what one measured run does", false)]);
    for k in &run.costs.kernels.registered {
        list.push(
            RowKind::Normal,
            vec![vec![code(k.name())], vec![text(k.what)]],
        );
    }
    let mut blocks = vec![Block::Table(list)];
    if !flags.is_empty() {
        blocks.push(Block::Table(detail_table(flags, kernels::STUDY)));
    }
    let summary = if flags.is_empty() {
        vec![text(format!(
            "kernels: not in the history yet ({})",
            run.costs.kernels.notes.join("; ")
        ))]
    } else {
        summary_line(
            "kernels (instructions and estimated cycles under Valgrind)",
            flags,
        )
    };
    Block::Details { summary, blocks }
}

/// The folds of the detail: the kernels first, then every study.
pub fn study_details(flags: &[HistoryFlag], studies: &[&str], run: &RunResult) -> Vec<Block> {
    let of =
        |study: &str| -> Vec<&HistoryFlag> { flags.iter().filter(|f| f.study == study).collect() };
    let mut out = vec![kernels_fold(&of(kernels::STUDY), run)];
    for &study in studies.iter().filter(|s| **s != kernels::STUDY) {
        let study_flags = of(study);
        if study_flags.is_empty() {
            continue;
        }
        out.push(Block::Details {
            summary: summary_line(study, &study_flags),
            blocks: vec![Block::Table(detail_table(&study_flags, study))],
        });
    }
    out
}
