//! The checks and timings tables of a study section (the summary,
//! compact and full timings tables and when each is folded).

use super::doc::{Inline, RowKind, Table, code, strong, text};
use crate::harness::format::{count, seconds, sig};
use crate::harness::outcome::StudyResult;
use crate::harness::results;
use crate::harness::rows::CheckRow;
use crate::harness::study::Timing;
use crate::harness::timing::median;

/// A timings table with at most this many rows is shown open; a longer one
/// is folded.
pub const SHOWN_TIMING_ROWS: usize = 4;

fn check_cells(row: &CheckRow) -> Vec<Vec<Inline>> {
    vec![
        vec![text(&row.case)],
        vec![text(&row.method)],
        vec![code(&row.check)],
        vec![text(&row.metric)],
        vec![text(&row.reference)],
        vec![text(sig(row.value))],
        vec![text(sig(row.tolerance))],
        vec![if row.passed {
            text("pass")
        } else {
            strong("FAIL")
        }],
        vec![text(&row.detail)],
        vec![text(&row.why)],
    ]
}

/// A check with more case rows than this has its passing rows collapsed.
pub const COLLAPSE_ABOVE: usize = 8;

/// The checks of a study; a check with more than [`COLLAPSE_ABOVE`] case
/// rows lists its failing rows and one line for the passing ones.
pub fn checks_table(rows: &[CheckRow]) -> Table {
    let mut table = Table::new(&[
        ("case", false),
        ("method", false),
        ("check", false),
        ("metric", false),
        ("reference", false),
        ("value", true),
        ("tolerance", true),
        ("result", false),
        ("detail", false),
        ("why", false),
    ]);
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.check.as_str()) {
            names.push(&r.check);
        }
    }
    for name in names {
        let group: Vec<&CheckRow> = rows.iter().filter(|r| r.check == name).collect();
        let collapse = group.len() > COLLAPSE_ABOVE;
        for r in &group {
            if !(collapse && r.passed) {
                table.push(
                    if r.passed {
                        RowKind::Normal
                    } else {
                        RowKind::Fail
                    },
                    check_cells(r),
                );
            }
        }
        let passing: Vec<&&CheckRow> = group.iter().filter(|r| r.passed).collect();
        if collapse && !passing.is_empty() {
            // A lower bound's worst value is its smallest; an error's, its largest.
            let lower_bound = passing[0].metric == "at-least";
            let worst = passing
                .iter()
                .copied()
                .reduce(|a, b| {
                    if (b.value < a.value) == lower_bound {
                        b
                    } else {
                        a
                    }
                })
                .copied();
            if let Some(w) = worst {
                let mut cells = check_cells(w);
                cells[0] = vec![text(format!("{} rows", passing.len()))];
                cells[1] = vec![text("")];
                cells[5] = vec![text(format!("worst {}", sig(w.value)))];
                // A case-level check has no method: "(case c)", not
                // "(case c, method )" (issue 20, class 7).
                let by = if w.method.is_empty() {
                    String::new()
                } else {
                    format!(", method {}", w.method)
                };
                cells[8] = vec![text(format!(
                    "{} rows passed, worst value {} (case {}{by})",
                    passing.len(),
                    sig(w.value),
                    w.case,
                ))];
                table.push(RowKind::Summary, cells);
            }
        }
    }
    table
}

/// A study with more cases than this shows one timing row per method and
/// folds the per-case rows.
pub const FOLD_TIMINGS_ABOVE: usize = 6;

/// One row per method over the cases: cases run, total, median, smallest
/// and largest CPU time, and the median steps when counted.
pub fn timings_summary(study: &StudyResult) -> Table {
    let mut labels: Vec<&str> = Vec::new();
    for case in &study.cases {
        for t in case.timings() {
            if !labels.contains(&t.method.as_str()) {
                labels.push(&t.method);
            }
        }
    }
    let mut table = Table::new(&[
        ("method", false),
        ("cases", true),
        ("total CPU", true),
        ("median CPU", true),
        ("min CPU", true),
        ("max CPU", true),
        ("median steps", true),
    ]);
    for label in labels {
        let rows: Vec<&Timing> = study
            .cases
            .iter()
            .flat_map(|c| c.timings())
            .filter(|t| t.method == label)
            .collect();
        let cpu: Vec<f64> = rows.iter().map(|t| t.cpu_s).collect();
        let steps: Vec<f64> = rows.iter().filter_map(|t| t.counter("steps")).collect();
        table.push(
            RowKind::Normal,
            vec![
                vec![code(label)],
                vec![text(rows.len().to_string())],
                vec![text(seconds(cpu.iter().sum()))],
                vec![text(seconds(median(&cpu)))],
                vec![text(seconds(
                    cpu.iter().copied().fold(f64::INFINITY, f64::min),
                ))],
                vec![text(seconds(
                    cpu.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ))],
                vec![text(if steps.is_empty() {
                    String::new()
                } else {
                    count(median(&steps).round())
                })],
            ],
        );
    }
    table
}

/// The columns a reader compares, shown with the folds closed (issue 20,
/// class 8): case, method, CPU time and its spread, steps and the speed-up
/// at equal steps when the kind counts steps. The rest is in
/// [`timings_table`], folded.
pub fn timings_compact(study: &StudyResult) -> Option<Table> {
    let full = timings_table(study)?;
    let keep: Vec<usize> = full
        .header
        .iter()
        .enumerate()
        .filter(|(_, h)| {
            ["case", "method", "CPU time", "± spread", "steps", "speedup"].contains(&h.as_str())
        })
        .map(|(i, _)| i)
        .collect();
    let columns: Vec<(&str, bool)> = keep
        .iter()
        .map(|&i| (full.header[i].as_str(), full.numeric[i]))
        .collect();
    let mut table = Table::new(&columns);
    for row in &full.rows {
        table.push(
            row.kind,
            keep.iter().map(|&i| row.cells[i].clone()).collect(),
        );
    }
    Some(table)
}

/// Case, method, wall time, CPU time (median and spread, runs), CPU time
/// per step and speed-up over the baseline at equal steps (see
/// `harness::results::speedups`), every counter and every stat of the study.
pub fn timings_table(study: &StudyResult) -> Option<Table> {
    let rows: Vec<(&String, &Timing, Option<f64>)> = study
        .cases
        .iter()
        .flat_map(|case| {
            let speedups =
                crate::harness::timing::speedups(case.timings(), study.baseline.as_deref());
            case.timings()
                .zip(speedups)
                .map(move |(t, s)| (&case.name, t, s))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    // A clash of names is reported by the timings.csv writer; the report
    // shows what is there.
    let (counters, stats) = results::timing_names(
        std::path::Path::new("timings.csv"),
        rows.iter().map(|r| r.1),
    )
    .unwrap_or_default();
    let per_step = counters.contains(&"steps");
    let mut columns = vec![
        ("case", false),
        ("method", false),
        ("wall time", true),
        ("CPU time", true),
        ("± spread", true),
        ("runs", true),
    ];
    if per_step {
        columns.push(("CPU per step", true));
        columns.push(("speedup", true));
    }
    columns.extend(counters.iter().map(|c| (*c, true)));
    columns.extend(stats.iter().map(|c| (*c, true)));
    let mut table = Table::new(&columns);
    for (case, t, speedup) in rows {
        let mut cells = vec![
            vec![text(case.as_str())],
            vec![code(&t.method)],
            vec![text(seconds(t.wall_s))],
            vec![text(seconds(t.cpu_s))],
            vec![text(seconds(t.cpu_s_spread))],
            vec![text(t.runs.to_string())],
        ];
        if per_step {
            cells.push(vec![text(
                crate::harness::timing::cpu_per_step(t)
                    .map(seconds)
                    .unwrap_or_default(),
            )]);
            cells.push(vec![text(
                speedup.map(|s| format!("{}×", sig(s))).unwrap_or_default(),
            )]);
        }
        cells.extend(
            counters
                .iter()
                .map(|c| vec![text(t.counter(c).map(count).unwrap_or_default())]),
        );
        cells.extend(
            stats
                .iter()
                .map(|c| vec![text(t.stat(c).map(sig).unwrap_or_default())]),
        );
        table.push(RowKind::Normal, cells);
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(case: &str, value: f64, passed: bool, metric: &str) -> CheckRow {
        CheckRow {
            study: "s".into(),
            case: case.into(),
            method: "m".into(),
            why: String::new(),
            check: "c".into(),
            metric: metric.into(),
            reference: "exact".into(),
            value,
            tolerance: 1.0,
            passed,
            detail: String::new(),
        }
    }

    #[test]
    fn many_passing_rows_collapse_but_failures_stay() {
        let mut rows: Vec<CheckRow> = (0..12)
            .map(|i| row(&format!("k{i}"), 0.01 * i as f64, true, "max-abs"))
            .collect();
        rows.push(row("bad", 5.0, false, "max-abs"));
        let t = checks_table(&rows);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].kind, RowKind::Fail);
        assert_eq!(t.rows[1].kind, RowKind::Summary);
        assert_eq!(
            t.rows[1].cells[8],
            vec![text(
                "12 rows passed, worst value 0.11 (case k11, method m)"
            )]
        );
    }

    #[test]
    fn the_worst_lower_bound_is_the_smallest_value() {
        let rows: Vec<CheckRow> = (0..9)
            .map(|i| row(&format!("k{i}"), 2.0 + i as f64, true, "at-least"))
            .collect();
        let t = checks_table(&rows);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(
            t.rows[0].cells[8],
            vec![text("9 rows passed, worst value 2 (case k0, method m)")]
        );
    }

    #[test]
    fn up_to_eight_rows_are_all_listed() {
        let rows: Vec<CheckRow> = (0..8)
            .map(|i| row(&format!("k{i}"), 0.1, true, "max-abs"))
            .collect();
        assert_eq!(checks_table(&rows).rows.len(), 8);
    }
}
