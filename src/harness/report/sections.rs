//! The run's sections of the report: header with the overall status, the
//! overview of studies, one section per study (description, notes, figures,
//! checks, timings, solver errors) and the provenance footer.

use super::RenderedFigure;
use super::doc::{Block, Document, Inline, RowKind, Table, code, strong, text};
use crate::harness::format::{count, seconds, short_commit, sig};
use crate::harness::outcome::{Manifest, RunResult, StudyResult};
use crate::harness::results;
use crate::harness::rows::{CheckRow, ClaimRow, Verdict, study_verdict};
use crate::harness::study::Timing;
use crate::harness::timing::median;

use super::findings::{findings, headline};
use super::study_parts::{checks_section, figures_section, scalars_table, timings_section};

/// Findings shown open in a study's section; the rest are folded.
pub const SHOWN_FINDINGS: usize = 3;

/// A timings table with at most this many rows is shown open; a longer one
/// is folded.
pub const SHOWN_TIMING_ROWS: usize = 4;

/// A check with more case rows than this has its passing rows collapsed.
pub const COLLAPSE_ABOVE: usize = 8;

/// Title, overall status and the command of the run.
pub fn header(doc: &mut Document, run: &RunResult) {
    doc.heading(1, format!("contact-harness report: {}", run.suite), None);
    let checks: Vec<&CheckRow> = run.studies.iter().flat_map(|s| &s.checks).collect();
    let failed = checks.iter().filter(|c| !c.passed).count();
    let failed_cases: usize = run.studies.iter().map(|s| s.failures().len()).sum();
    let status = if failed == 0 {
        format!("all {} checks passed", checks.len())
    } else {
        format!("{failed} of {} checks FAILED", checks.len())
    };
    let claims: Vec<&ClaimRow> = run.studies.iter().flat_map(|s| &s.claims).collect();
    let reproduced = claims
        .iter()
        .filter(|c| c.verdict == Verdict::Reproduced)
        .count();
    let unexpected = claims.iter().filter(|c| !c.as_expected()).count();
    let mut line = vec![
        text("Suite "),
        code(&run.suite),
        text(" · status: "),
        strong(status),
    ];
    if !claims.is_empty() {
        line.push(text(format!(
            " · paper claims: {reproduced} of {} reproduced",
            claims.len()
        )));
        if unexpected > 0 {
            line.push(text(" · "));
            line.push(strong(format!("{unexpected} claim verdict(s) UNEXPECTED")));
        }
    }
    if failed_cases > 0 {
        line.push(text(" · "));
        line.push(strong(format!(
            "{failed_cases} method run(s) or reference(s) failed"
        )));
    }
    doc.paragraph(line);
    doc.paragraph(vec![text("Run command: "), code(&run.manifest.command)]);
}

/// The summary at the top: one row per study with its verdict (checks
/// passed, failed runs, claims) and its headline result; what it
/// reproduces opens its section.
pub fn overview(doc: &mut Document, run: &RunResult) {
    let mut table = Table::new(&[
        ("study", false),
        ("kind", false),
        ("cases", true),
        ("failed runs", true),
        ("checks passed", true),
        ("verdict on the paper", false),
        ("headline (from the results)", false),
    ]);
    for s in &run.studies {
        let failed_cases = s.failures().len();
        let passed = s.checks.iter().filter(|c| c.passed).count();
        let expected = s.claims.iter().all(ClaimRow::as_expected);
        let ok = failed_cases == 0 && passed == s.checks.len() && expected;
        let checks = format!("{passed} / {}", s.checks.len());
        let verdict = study_verdict(&s.claims);
        table.push(
            if ok { RowKind::Normal } else { RowKind::Fail },
            vec![
                vec![Inline::Link {
                    text: s.name.clone(),
                    href: format!("#{}", s.name),
                }],
                vec![text(&s.kind)],
                vec![text(s.cases.len().to_string())],
                vec![if failed_cases > 0 {
                    strong(failed_cases.to_string())
                } else {
                    text("0")
                }],
                vec![if ok { text(checks) } else { strong(checks) }],
                vec![if expected {
                    text(verdict)
                } else {
                    strong(format!("{verdict}, unexpected"))
                }],
                vec![text(headline(s))],
            ],
        );
    }
    doc.blocks.push(Block::Table(table));
}

/// The section of one study; `figure_number` counts the figures of the
/// whole page (each is numbered and anchored `fig-<n>`).
pub fn study(
    doc: &mut Document,
    study: &StudyResult,
    figures: &[RenderedFigure],
    figure_number: &mut usize,
) {
    doc.heading(2, &study.name, Some(&study.name));
    let failed = study.failures();
    doc.paragraph(vec![
        text("Kind "),
        code(&study.kind),
        text(" · spec "),
        code(study.file.display().to_string()),
        text(format!(" · {} case(s)", study.cases.len())),
        text(match &study.baseline {
            Some(b) => format!(" · baseline method {b}"),
            None => String::new(),
        }),
    ]);
    if !study.reproduces.trim().is_empty() {
        doc.paragraph(vec![strong("Reproduces: "), text(study.reproduces.trim())]);
    }
    if !study.description.trim().is_empty() {
        doc.paragraph(vec![text(study.description.trim())]);
    }
    doc.paragraph(vec![strong("Findings (from this run's results):")]);
    let mut all_findings: Vec<Vec<Inline>> =
        findings(study).into_iter().map(|f| vec![text(f)]).collect();
    let more = all_findings.split_off(all_findings.len().min(SHOWN_FINDINGS));
    doc.blocks.push(Block::List(all_findings));
    if !more.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!("{} more finding(s)", more.len()))],
            blocks: vec![Block::List(more)],
        });
    }
    if !study.parameters.is_empty() {
        let mut table = Table::new(&[("key", false), ("value", false)]);
        for (k, v) in &study.parameters {
            table.push(RowKind::Normal, vec![vec![code(k)], vec![text(v)]]);
        }
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Parameters ({} keys of the spec; swept keys with their values)",
                study.parameters.len()
            ))],
            blocks: vec![Block::Table(table)],
        });
    }
    if !failed.is_empty() {
        doc.paragraph(vec![strong(format!(
            "{} method run(s) or reference(s) failed (the other methods of their cases ran and were checked):",
            failed.len()
        ))]);
        doc.blocks.push(Block::List(
            failed
                .iter()
                .map(|(case, what, e)| {
                    vec![
                        code(*case),
                        text(" / "),
                        code(*what),
                        text(": "),
                        strong(e.as_str()),
                    ]
                })
                .collect(),
        ));
    }
    if !study.summary.notes.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Notes ({}: modelling choices and readings of the paper)",
                study.summary.notes.len()
            ))],
            blocks: vec![Block::List(
                study.summary.notes.iter().map(|n| vec![text(n)]).collect(),
            )],
        });
    }
    if !study.summary.scalars.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Study results ({} quantities with their meaning and unit)",
                study.summary.scalars.len()
            ))],
            blocks: vec![Block::Table(scalars_table(study))],
        });
    }
    figures_section(doc, study, figures, figure_number);
    if !study.claims.is_empty() {
        doc.heading(3, "Claims of the paper", None);
        doc.paragraph(vec![text(format!(
            "Verdict: {}. Each claim is the seed's own words judged by criteria over this run's results \
             (all must hold); a verdict unlike the expected one fails the run.",
            study_verdict(&study.claims)
        ))]);
        doc.blocks.push(Block::Table(claims_table(&study.claims)));
    }
    checks_section(doc, &study.checks);
    timings_section(doc, study);
}

/// The claims of a study: id, verdict (and the expected one when it
/// differs), the seed's words, the criteria with their values, the reason.
pub fn claims_table(rows: &[ClaimRow]) -> Table {
    let mut table = Table::new(&[
        ("claim", false),
        ("verdict", false),
        ("the paper says", false),
        ("criterion (value)", false),
        ("expected because", false),
    ]);
    for r in rows {
        let verdict = if r.as_expected() {
            text(r.verdict.name())
        } else {
            strong(format!(
                "{} (expected {})",
                r.verdict.name(),
                r.expect.name()
            ))
        };
        table.push(
            if r.as_expected() {
                RowKind::Normal
            } else {
                RowKind::Fail
            },
            vec![
                vec![code(&r.claim)],
                vec![verdict],
                vec![text(format!("{}: “{}”", r.seed, r.words))],
                vec![text(&r.criterion)],
                vec![text(&r.reason)],
            ],
        );
    }
    table
}

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

/// Provenance: commit and dirty flag, compiler, build profile, timing
/// method, machine (CPU model, cores, memory, OS, kernel, host), date, spec,
/// the command that reproduces the run, and the peer tools behind each
/// reference directory (versions named in its SOURCE.md).
pub fn footer(doc: &mut Document, m: &Manifest) {
    doc.blocks.push(Block::Rule);
    doc.heading(2, "Provenance", Some("provenance"));
    let commit = if m.dirty {
        format!("{} (+dirty: uncommitted changes)", short_commit(&m.commit))
    } else {
        short_commit(&m.commit)
    };
    let dirty = if m.dirty {
        "yes: the work tree had uncommitted changes (outside results/ and report/)"
    } else {
        "no"
    };
    doc.blocks.push(Block::List(vec![
        vec![
            text("Commit: "),
            code(commit),
            text(" (full: "),
            code(&m.commit),
            text(")"),
        ],
        vec![text("Uncommitted changes: "), text(dirty)],
        vec![text("rustc: "), code(&m.rustc)],
        vec![
            text(format!("Build: {} (history profile ", m.build)),
            code(&m.profile),
            text(")"),
        ],
        vec![text("Timing method: "), code(&m.timing_method)],
        vec![text("CPU: "), text(&m.cpu)],
        vec![text("CPU model: "), text(&m.cpu_model)],
        vec![text("Logical cores: "), text(&m.logical_cores)],
        vec![text("Memory: "), text(&m.memory)],
        vec![text("OS: "), text(&m.os)],
        vec![text("Kernel: "), text(&m.kernel)],
        vec![text("Host: "), code(&m.host)],
        vec![text("Date: "), text(&m.date)],
        vec![text("Spec: "), code(&m.spec_file)],
        vec![text("Reproduce: "), code(&m.command)],
    ]));
    if m.reference_tools.is_empty() {
        return;
    }
    doc.paragraph(vec![text(
        "Peer tools behind the reference files, as named with their versions in each \
         reference-data/<dir>/SOURCE.md:",
    )]);
    doc.blocks.push(Block::List(
        m.reference_tools
            .iter()
            .map(|(dir, tools)| {
                let what = if tools.is_empty() {
                    "no tool version named".to_string()
                } else {
                    tools.join(", ")
                };
                vec![
                    code(format!("reference-data/{dir}/")),
                    text(format!(": {what}")),
                ]
            })
            .collect(),
    ));
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
