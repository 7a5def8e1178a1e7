//! The README.md of a study's result directory: every file and every
//! column of every CSV with its meaning and unit, and every failure.

use std::path::Path;

use crate::harness::outcome::StudyResult;
use crate::harness::results::columns::{case_scalar_names, method_scalar_names, timing_names};
use crate::harness::results::files::case_files;
use crate::harness::study::Timing;

/// Text for a doc that a study kind left empty: visible, not silent.
const UNDOCUMENTED: &str = "*(not documented by the study kind)*";

fn doc_or_flag(doc: &str) -> String {
    let doc = doc.trim();
    if doc.is_empty() {
        UNDOCUMENTED.to_string()
    } else {
        md_cell(doc)
    }
}

/// Escapes a markdown table cell.
fn md_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A markdown table of `(column, meaning)` rows.
fn column_table(out: &mut String, rows: &[(String, String)]) {
    out.push_str("| column | meaning and unit |\n|---|---|\n");
    for (name, doc) in rows {
        out.push_str(&format!("| `{name}` | {doc} |\n"));
    }
    out.push('\n');
}

/// `(name, doc)` pairs: the columns of a file, or files with their docs.
type ColumnDocs = Vec<(String, String)>;

/// The study's README.md: files, every column of every CSV, failed cases.
pub(super) fn study_readme(study: &StudyResult) -> String {
    let mut md = format!(
        "# Results of study `{}` (kind `{}`)\n\n",
        study.name, study.kind
    );
    if !study.description.trim().is_empty() {
        md.push_str(study.description.trim());
        md.push_str("\n\n");
    }
    md.push_str(&format!(
        "Spec file: `{}`. Written by contact-harness; the next run of this study replaces the whole directory. \
         Every CSV has a Parquet copy with the same stem (`.parquet`).\n\n",
        study.file.display()
    ));

    study_csv_section(&mut md, study);
    summary_tables_section(&mut md, study);
    summary_csv_section(&mut md, study);
    work_precision_section(&mut md, study);
    case_files_section(&mut md, study);
    timings_readme(&mut md, study);
    failures_section(&mut md, study);
    md
}

/// The `study.csv` section: its columns and the study-level quantities.
fn study_csv_section(md: &mut String, study: &StudyResult) {
    if !study.summary.scalars.is_empty() {
        md.push_str("## `study.csv`\n\nThe study-level results, one row each.\n\n");
        column_table(
            md,
            &[
                (
                    "name".to_string(),
                    "name of the study-level quantity".to_string(),
                ),
                (
                    "value".to_string(),
                    "its value (unit in `meaning`)".to_string(),
                ),
                ("meaning".to_string(), "meaning and unit".to_string()),
                (
                    "method".to_string(),
                    "the method it belongs to (empty: the whole study)".to_string(),
                ),
                (
                    "group".to_string(),
                    "the group of cases it was derived from: the other swept keys' values (empty: all cases)".to_string(),
                ),
            ],
        );
        let rows: ColumnDocs = study
            .summary
            .scalars
            .iter()
            .map(|s| (s.scalar.name.clone(), doc_or_flag(&s.scalar.doc)))
            .collect();
        md.push_str("Quantities:\n\n");
        md.push_str("| name | meaning and unit |\n|---|---|\n");
        for (name, doc) in rows {
            md.push_str(&format!("| `{name}` | {doc} |\n"));
        }
        md.push('\n');
    }
}

/// One section per summary table: its doc and columns.
fn summary_tables_section(md: &mut String, study: &StudyResult) {
    for table in &study.summary.tables {
        md.push_str(&format!(
            "## `{}.csv`\n\n{}\n\n",
            table.stem,
            table.doc.trim()
        ));
        let rows: ColumnDocs = table
            .columns
            .iter()
            .map(|(name, doc, _)| (name.clone(), doc_or_flag(doc)))
            .collect();
        column_table(md, &rows);
    }
}

/// The `summary.csv` section: case, method, status and every case and method scalar.
fn summary_csv_section(md: &mut String, study: &StudyResult) {
    md.push_str("## `summary.csv`\n\nOne row per (case, method): the case's first method first, a case's scalars repeated on each of its rows.\n\n");
    let mut summary_rows = vec![
        ("case".to_string(), "case name (file stem of `<case>.csv`)".to_string()),
        ("method".to_string(), "method label (`<case>.csv` holds the case's first method, `<case>.<label>.csv` the others)".to_string()),
        ("status".to_string(), "`ok`, or `failed` when the method failed (its method cells are then empty; the error is listed below)".to_string()),
    ];
    summary_rows.extend(
        case_scalar_names(study)
            .into_iter()
            .map(|(n, d)| (n.to_string(), format!("(case) {}", doc_or_flag(d)))),
    );
    summary_rows.extend(
        method_scalar_names(study)
            .into_iter()
            .map(|(n, d)| (n.to_string(), format!("(method) {}", doc_or_flag(d)))),
    );
    column_table(md, &summary_rows);
}

/// The `work-precision.csv` and `speedup.csv` section, with the converged-range rule.
fn work_precision_section(md: &mut String, study: &StudyResult) {
    if !study.work_precision.is_empty() {
        md.push_str("## `work-precision.csv` and `speedup.csv`\n\n");
        md.push_str(&format!(
            "`work-precision.csv`: one row per method run of the sweep over the cost parameter: `case`, `method`, \
             `parameter` (the swept key), `value` (its value), `error` (the study's accuracy measure), `cpu_s` (median CPU \
             seconds of the timed runs), `cpu_s_spread` (half their range), `group` (the other swept keys' values). \
             `speedup.csv`: `method`, `baseline` ({}), `error` (an error level both reach), `speedup` (the baseline's CPU \
             time over the method's, both interpolated log-log at that error), `group`, then the error ranges where both \
             methods are converged: `converged_min`, `converged_max` (the common converged range: speed-ups are reported \
             only inside it), `method_converged_min`, `method_converged_max`, `baseline_converged_min`, \
             `baseline_converged_max` (each method's own converged range; empty: it has none), `converged_rule` (the \
             verdict in words: each range with its levels and reference order, or why there is none). A row with empty \
             `error` and `speedup` is a comparison refused: no common converged range. Rows of the kind's own comparisons \
             with a peer tool's runs have empty ranges (not assessed; the study's notes say how they were measured). The \
             rule (`harness::sweep::converged_range`): from a method's own sweep points (error against its cost \
             parameter, finest level first), the reference order is the kind's nominal order when it declares one, else \
             the least-squares slope over the {} finest levels; the local order of two consecutive levels (their slope) is \
             asymptotic when within {} % of the reference order; the converged range is the error range of the longest \
             run of consecutive levels joined by asymptotic slopes (the finer on a tie); one level, fewer than {} \
             levels without a nominal order (one slope always agrees with itself), a measured reference order below {} \
             in magnitude (a floor) or no asymptotic slope: no range.\n\n",
            study.baseline.as_deref().map_or("none".to_string(), |b| format!("`{b}`")),
            crate::harness::sweep::FINEST,
            crate::harness::sweep::ASYMPTOTIC_TOLERANCE * 100.0,
            crate::harness::sweep::FINEST,
            crate::harness::sweep::MIN_ORDER,
        ));
    }
}

/// The case files, those with identical columns (names and docs) grouped.
fn case_files_section(md: &mut String, study: &StudyResult) {
    // Group files whose columns (names and docs) are identical.
    let mut groups: Vec<(ColumnDocs, ColumnDocs)> = Vec::new();
    for case in &study.cases {
        for file in case_files(case) {
            let signature: Vec<(String, String)> = file
                .table
                .columns()
                .iter()
                .map(|c| (c.name.clone(), doc_or_flag(&c.doc)))
                .collect();
            let entry = (format!("{}.csv", file.stem), doc_or_flag(&file.doc));
            match groups.iter_mut().find(|(sig, _)| *sig == signature) {
                Some((_, members)) => members.push(entry),
                None => groups.push((signature, vec![entry])),
            }
        }
    }
    if !groups.is_empty() {
        md.push_str("## Case files\n\nThe first column of each file is its abscissa.\n\n");
    }
    for (signature, files) in &groups {
        let names: Vec<String> = files.iter().map(|(f, _)| format!("`{f}`")).collect();
        md.push_str(&format!("### {}\n\n", names.join(", ")));
        for (file, doc) in files {
            md.push_str(&format!("- `{file}`: {doc}\n"));
        }
        md.push('\n');
        if signature.is_empty() {
            md.push_str("(no columns)\n\n");
        } else {
            column_table(md, signature);
        }
    }
}

/// The failed methods with their errors.
fn failures_section(md: &mut String, study: &StudyResult) {
    let failed = study.failures();
    if !failed.is_empty() {
        md.push_str("## Failures\n\nA failed method has no files; the case's other methods ran and were written.\n\n");
        for (case, what, error) in failed {
            md.push_str(&format!("- case `{case}`, `{what}`: {}\n", md_cell(&error)));
        }
        md.push('\n');
    }
}

/// The meaning of counter or stat `name`: the kind's doc, or a generic one.
fn timing_doc(study: &StudyResult, name: &str, counter: bool) -> String {
    match study.counter_docs.iter().find(|(n, _)| n == name) {
        Some((_, doc)) => doc.clone(),
        None if counter => format!("solver counter `{name}` of the method's run (exact count) [-]"),
        None => format!("derived statistic `{name}` of the method's run (not an exact count)"),
    }
}

/// The timings section of a study README: the columns of `../timings.csv`
/// that this study's rows use.
fn timings_readme(md: &mut String, study: &StudyResult) {
    let timings: Vec<&Timing> = study.cases.iter().flat_map(|c| c.timings()).collect();
    if timings.is_empty() {
        return;
    }
    // Clashes are reported by the timings.csv writer; document what is there.
    let Ok((counters, stats)) = timing_names(Path::new("timings.csv"), timings.iter().copied())
    else {
        return;
    };
    let methods: Vec<&str> = timings.iter().fold(Vec::new(), |mut acc, t| {
        if !acc.contains(&t.method.as_str()) {
            acc.push(&t.method);
        }
        acc
    });
    md.push_str(&format!(
        "## Timings in `../timings.csv`\n\nThe run's `timings.csv` (beside the study directories) has one row per successful \
         method run and per reference solver run; this study's: {}. Its columns, as used by this study's rows (a cell \
         is empty where a method has no such counter or stat):\n\n",
        methods.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
    ));
    let mut rows: ColumnDocs = vec![
        ("study".into(), "study name".into()),
        ("case".into(), "case name".into()),
        ("method".into(), "method label (as in the spec)".into()),
        ("wall_s".into(), "wall-clock time of the method's run, output writing excluded [s], median of the timed runs; stretches on a loaded machine".into()),
        ("cpu_s".into(), "CPU time of the thread that ran the method [s] (a method runs single-threaded), median of the timed runs: the robust measure".into()),
        ("cpu_s_spread".into(), "half the range (max - min) / 2 of the timed runs' CPU times [s]; 0 for one run".into()),
        ("runs".into(), format!(
            "timed runs behind the times: a run is repeated until the runs add up to {} s of CPU time and at least {} were made, but not past {} s or {} runs; every run must give the same counters [-]",
            crate::harness::timing::MIN_TOTAL_CPU_S,
            crate::harness::timing::MIN_RUNS,
            crate::harness::timing::MAX_TOTAL_CPU_S,
            crate::harness::timing::MAX_RUNS
        )),
    ];
    rows.extend(
        counters
            .iter()
            .map(|c| (c.to_string(), md_cell(&timing_doc(study, c, true)))),
    );
    rows.extend(
        stats
            .iter()
            .map(|c| (c.to_string(), md_cell(&timing_doc(study, c, false)))),
    );
    rows.push((
        "cpu_per_step_s".into(),
        "`cpu_s / steps`, CPU time per time step [s]; empty when the method has no `steps` counter"
            .into(),
    ));
    rows.push((
        "speedup".into(),
        format!(
            "the baseline's (`{}`) `cpu_s` in the same case divided by this row's [-], given only when both took the same number of steps \
             (then it is also the per-step ratio); empty otherwise: runs with other steps are compared at equal accuracy in `speedup.csv`",
            study.baseline.as_deref().unwrap_or("none")
        ),
    ));
    column_table(md, &rows);
}
