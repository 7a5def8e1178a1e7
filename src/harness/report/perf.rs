//! The performance-history section: per study, CPU time over commits (one
//! line per case and method, log scale; wall time for a history recorded
//! before CPU time was measured) and the latest value of every benchmark
//! against the previous commit, with the flags of
//! `harness::history::compare_latest` (counter changed; CPU time, or wall
//! time where no CPU time is comparable, slower than the median of the
//! previous up to 5 commits by more than max(20 %, 3 robust sigma)).

use super::RenderedFigure;
use super::doc::{Block, Document, RowKind, Table, code, strong, text};
use super::format::{count, percent, seconds, short_commit};
use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::history::{self, CPU, History, HistoryFlag, HistoryRow, Verdict, WALL};
use crate::harness::outcome::RunResult;

/// Above this many rows, a study's unchanged and new counters collapse into
/// one row (times and flagged rows are always listed).
pub const COLLAPSE_COUNTERS_ABOVE: usize = 40;
/// The commit list shows at most this many (the latest).
pub const MAX_COMMITS_LISTED: usize = 30;

/// The time figure of each study in the history (first-appearance order):
/// CPU time per commit, or wall time when the study has no CPU-time rows (a
/// history recorded before CPU time was measured). Only rows of the host of
/// the study's latest such row are drawn.
pub fn history_figures(history: &History) -> Vec<(String, Figure)> {
    let indices = history.commit_indices();
    let mut out = Vec::new();
    for study in history.studies() {
        let has_cpu = history
            .rows
            .iter()
            .any(|r| r.study == study && r.is_cpu_time());
        let metric = if has_cpu { CPU } else { WALL };
        let walls: Vec<&HistoryRow> = history
            .rows
            .iter()
            .filter(|r| r.study == study && r.metric == metric)
            .collect();
        let Some(host) = walls.last().map(|r| r.host.clone()) else {
            continue;
        };
        let walls: Vec<&HistoryRow> = walls.into_iter().filter(|r| r.host == host).collect();
        let mut keys: Vec<(&str, &str)> = Vec::new();
        for r in &walls {
            if !keys.contains(&(r.case.as_str(), r.method.as_str())) {
                keys.push((&r.case, &r.method));
            }
        }
        let single_case = keys.iter().all(|k| k.0 == keys[0].0);
        let series = keys
            .iter()
            .map(|&(case, method)| {
                let rows: Vec<&HistoryRow> = walls
                    .iter()
                    .copied()
                    .filter(|r| r.case == case && r.method == method)
                    .collect();
                let points = history::per_commit_values(&indices, &rows)
                    .into_iter()
                    .map(|(i, r)| ((i + 1) as f64, r.value))
                    .collect();
                let label = if single_case {
                    method.to_string()
                } else {
                    format!("{case} / {method}")
                };
                Series {
                    label,
                    points,
                    style: Style::LineMarkers,
                    group: None,
                    x_errors: None,
                }
            })
            .collect();
        let (what, why) = if has_cpu {
            (
                "CPU time",
                "CPU time of the thread that ran the method (robust on a loaded machine, where wall time stretches)",
            )
        } else {
            ("wall time", "wall time (this history has no CPU times)")
        };
        out.push((
            study.to_string(),
            Figure {
                name: "history".to_string(),
                title: format!("{study}: {what} over commits"),
                x: Axis::linear("commit index (order of first appearance) [-]"),
                y: Axis::log(format!("{what} [s]")),
                series,
                caption: format!(
                    "{why} of every case and method of study {study} at each commit (its most recent run), \
                     measured on host {host}; commit indices are listed in the table of commits."
                ),
            },
        ));
    }
    out
}

fn value_text(metric: &str, v: f64) -> String {
    if history::is_time_metric(metric) {
        seconds(v)
    } else {
        count(v)
    }
}

fn change_text(f: &HistoryFlag) -> String {
    match (f.previous, f.baseline) {
        (_, Some(base)) if history::is_time_metric(&f.metric) => {
            format!("{} vs median", percent(f.latest / base - 1.0))
        }
        (Some(prev), _) if !history::is_time_metric(&f.metric) => {
            let d = f.latest - prev;
            if d == 0.0 {
                "0".to_string()
            } else {
                format!("{}{}", if d > 0.0 { "+" } else { "" }, count(d))
            }
        }
        _ => String::new(),
    }
}

fn flag_table(flags: &[&HistoryFlag]) -> Table {
    let mut table = Table::new(&[
        ("case", false),
        ("method", false),
        ("metric", false),
        ("previous commit", false),
        ("previous", true),
        ("latest commit", false),
        ("latest", true),
        ("change", true),
        ("verdict", false),
    ]);
    let collapse = flags.len() > COLLAPSE_COUNTERS_ABOVE;
    let (mut unchanged, mut new) = (0usize, 0usize);
    for f in flags {
        // Collapsed: counters that are unchanged or new; times and flagged
        // rows are always listed.
        if collapse && !history::is_time_metric(&f.metric) {
            match f.verdict {
                Verdict::Unchanged => {
                    unchanged += 1;
                    continue;
                }
                Verdict::New => {
                    new += 1;
                    continue;
                }
                _ => {}
            }
        }
        let verdict = if f.verdict.is_flag() {
            strong(f.verdict.label())
        } else {
            text(f.verdict.label())
        };
        table.push(
            if f.verdict.is_flag() {
                RowKind::Flag
            } else {
                RowKind::Normal
            },
            vec![
                vec![text(&f.case)],
                vec![code(&f.method)],
                vec![code(&f.metric)],
                vec![text(
                    f.previous_commit
                        .as_deref()
                        .map(short_commit)
                        .unwrap_or_default(),
                )],
                vec![text(
                    f.previous
                        .map(|v| value_text(&f.metric, v))
                        .unwrap_or_default(),
                )],
                vec![text(short_commit(&f.latest_commit))],
                vec![text(value_text(&f.metric, f.latest))],
                vec![text(change_text(f))],
                vec![verdict],
            ],
        );
    }
    if unchanged + new > 0 {
        let blank = || vec![text("")];
        let mut what = Vec::new();
        if unchanged > 0 {
            what.push(format!("{unchanged} unchanged"));
        }
        if new > 0 {
            what.push(format!("{new} new"));
        }
        table.push(
            RowKind::Summary,
            vec![
                vec![text(format!("{} more", unchanged + new))],
                blank(),
                vec![text("counters")],
                blank(),
                blank(),
                blank(),
                blank(),
                blank(),
                vec![text(format!("{} (not listed)", what.join(", ")))],
            ],
        );
    }
    table
}

/// The performance-history section.
pub fn section(
    doc: &mut Document,
    run: &RunResult,
    history: &History,
    figures: &[(String, RenderedFigure)],
) {
    doc.heading(2, "Performance history", Some("performance-history"));
    let commits = history.commits();
    let recorded = if run.record_history {
        "This run was appended to the history."
    } else {
        "This run was not appended to the history (a partial run, e.g. with --only, is not recorded)."
    };
    doc.paragraph(vec![
        text(format!("{} rows over {} commit(s) in ", history.rows.len(), commits.len())),
        code("history/history.csv"),
        text(format!(". {recorded} ")),
        text(
            "Counters (steps, iterations, pivots, factorizations) are exact: any change from the previous commit is \
             flagged changed. The CPU time (cpu_s, of the thread that ran the method) is flagged slower when it exceeds \
             the median of the previous (up to) 5 commits by more than max(20 %, 3 sigma), sigma = 1.4826 MAD, on the \
             same host. Wall time (wall_s) stretches on a loaded machine: it is shown, not judged, wherever a CPU time \
             is compared; for rows recorded before CPU time was measured, the wall time is judged the same way. \
             Derived statistics (e.g. mean_active) are not recorded.",
        ),
    ]);
    if history.rows.is_empty() {
        doc.paragraph(vec![text("The history is empty.")]);
        return;
    }
    let flags = history::compare_latest(history);
    let slower = flags
        .iter()
        .filter(|f| f.verdict == Verdict::Slower)
        .count();
    let changed = flags
        .iter()
        .filter(|f| f.verdict == Verdict::Changed)
        .count();
    doc.paragraph(vec![
        text("Latest commit against the previous ones: "),
        if slower > 0 {
            strong(format!("{slower} slower"))
        } else {
            text("0 slower")
        },
        text(", "),
        if changed > 0 {
            strong(format!("{changed} counters changed"))
        } else {
            text("0 counters changed")
        },
        text(format!(" of {} benchmarks.", flags.len())),
    ]);

    doc.heading(3, "Commits", None);
    let mut table = Table::new(&[
        ("index", true),
        ("commit", false),
        ("first run", false),
        ("rows", true),
    ]);
    let skip = commits.len().saturating_sub(MAX_COMMITS_LISTED);
    if skip > 0 {
        doc.paragraph(vec![text(format!(
            "The {skip} oldest commits are not listed."
        ))]);
    }
    for (i, c) in commits.iter().enumerate().skip(skip) {
        let rows: Vec<&HistoryRow> = history.rows.iter().filter(|r| r.commit == *c).collect();
        let date = rows.first().map(|r| r.date.clone()).unwrap_or_default();
        table.push(
            RowKind::Normal,
            vec![
                vec![text((i + 1).to_string())],
                vec![code(short_commit(c))],
                vec![text(date)],
                vec![text(rows.len().to_string())],
            ],
        );
    }
    doc.blocks.push(Block::Table(table));

    // Studies of this run first, then any others the history knows.
    let mut studies: Vec<&str> = run.studies.iter().map(|s| s.name.as_str()).collect();
    for s in history.studies() {
        if !studies.contains(&s) {
            studies.push(s);
        }
    }
    for study in studies {
        let study_flags: Vec<&HistoryFlag> = flags.iter().filter(|f| f.study == study).collect();
        if study_flags.is_empty() {
            continue;
        }
        doc.heading(3, format!("History of {study}"), None);
        if let Some((_, rendered)) = figures.iter().find(|(s, _)| s == study) {
            match &rendered.error {
                None => doc.blocks.push(Block::Figure {
                    src: rendered.src.clone(),
                    alt: rendered.title.clone(),
                    caption: vec![
                        strong(format!("{}.", rendered.title)),
                        text(format!(" {}", rendered.caption)),
                    ],
                }),
                Some(e) => doc.paragraph(vec![strong(format!(
                    "The history figure could not be drawn: {e}"
                ))]),
            }
        }
        doc.blocks.push(Block::Table(flag_table(&study_flags)));
    }
}
