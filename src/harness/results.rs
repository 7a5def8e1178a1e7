//! Result files of a run: the output-directory contract of DESIGN.md
//! ("Output directory DIR").
//!
//! - `DIR/<study>/<case>.csv`: the case's series (first column the abscissa)
//!   and `DIR/<study>/<case>.<what>.csv` for each further table;
//! - `DIR/<study>/summary.csv`: `case,status`, then the union of the cases'
//!   scalar names in first-appearance order (`status` is `ok` or `failed`; a
//!   failed case has empty cells);
//! - `DIR/<study>/study.csv`: `name,value,meaning` of the study-level
//!   scalars (e.g. a convergence order), when the study has any;
//! - `DIR/<study>/README.md`: every file of the study and every column of
//!   every CSV with its meaning and unit, and the error of each failed case;
//! - `DIR/checks.csv`: `study,case,check,value,tolerance,passed`, then the
//!   added columns `metric,reference,detail`;
//! - `DIR/timings.csv`: one row per method run of every successful case:
//!   `study,case,method,wall_s` (fixed), then `cpu_s` (CPU seconds of the
//!   thread that ran the method, `harness::clock`: the robust measure on a
//!   loaded machine), then the union of the counter names in
//!   first-appearance order (exact counts; integer-valued counters are
//!   written as integers), then the union of the stat names (derived floats
//!   such as `mean_active`, not exact counts), then two derived columns:
//!   `cpu_per_step_s` = `cpu_s / steps` ([`cpu_per_step`]; empty when the
//!   method has no `steps` counter) and `speedup` = `cpu_per_step_s` of the
//!   case's first method row that has `steps` (the primary method) divided
//!   by this row's ([`speedups`]: 1 for the primary, 1000 for a variant 1000
//!   times faster per step; empty where undefined). A cell is empty where a
//!   method has no such counter or stat. A counter or stat named like a
//!   fixed or derived column, or both a counter and a stat, is an error;
//!   every study README lists the timings columns of its rows;
//! - `DIR/manifest.json`: the [`Manifest`](crate::harness::outcome::Manifest).
//!
//! Every CSV has a Parquet copy beside it (same stem, `.parquet`). Tables go
//! through polars (`CsvWriter`, `ParquetWriter`; floats in shortest
//! round-trip form), so equal data give byte-identical CSVs.
//!
//! Atomicity (see `harness::atomic`): each study directory is built in a
//! staging sibling and swapped in as a whole, so case files of an earlier run
//! with other cases do not survive and a killed run leaves the earlier
//! directory intact; the top-level files are replaced by rename. Directories
//! of studies that are not part of this run (a `--only` run) are left alone,
//! but `checks.csv`, `timings.csv` and `manifest.json` describe this run
//! only: after `--only a` they hold the rows of study `a` alone.

use std::collections::BTreeMap;
use std::path::Path;

use polars::prelude::{self as pl, ParquetWriter, SerWriter};

use crate::error::OutputError;
use crate::harness::atomic::{self, StagedDir};
use crate::harness::outcome::{RunResult, StudyResult};
use crate::harness::study::{CaseOutput, Scalar, Timing};
use crate::harness::table::Table;

/// File stems of a study directory that no case output may use (a case of
/// that name is refused at spec load).
pub const RESERVED_STEMS: [&str; 4] = ["summary", "study", "work-precision", "speedup"];

/// Name of the top-level directory that holds the performance history; no
/// study may use it.
pub const HISTORY_DIR: &str = "history";

/// One column of a result table, before it becomes a polars column.
#[derive(Debug, Clone, PartialEq)]
pub enum CellColumn {
    /// Text.
    Text(Vec<String>),
    /// Floats (NaN and infinities kept).
    Float(Vec<f64>),
    /// Floats with missing cells.
    OptFloat(Vec<Option<f64>>),
    /// Integers with missing cells.
    OptInt(Vec<Option<i64>>),
    /// Booleans.
    Bool(Vec<bool>),
}

impl CellColumn {
    fn into_polars(self, name: &str) -> pl::Column {
        let name = pl::PlSmallStr::from(name);
        match self {
            CellColumn::Text(v) => pl::Column::new(name, v),
            CellColumn::Float(v) => pl::Column::new(name, v),
            CellColumn::OptFloat(v) => pl::Column::new(name, v),
            CellColumn::OptInt(v) => pl::Column::new(name, v),
            CellColumn::Bool(v) => pl::Column::new(name, v),
        }
    }

    fn len(&self) -> usize {
        match self {
            CellColumn::Text(v) => v.len(),
            CellColumn::Float(v) => v.len(),
            CellColumn::OptFloat(v) => v.len(),
            CellColumn::OptInt(v) => v.len(),
            CellColumn::Bool(v) => v.len(),
        }
    }

    /// Integer column when every present value is an integer that f64 holds
    /// exactly (|v| <= 2^53), else a float column: counters print as `12`,
    /// not `12.0`.
    pub fn counters(values: Vec<Option<f64>>) -> Self {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        let integral = values
            .iter()
            .flatten()
            .all(|v| v.fract() == 0.0 && v.abs() <= EXACT);
        if integral {
            // Cast is exact: every value is an integer of magnitude <= 2^53.
            CellColumn::OptInt(values.into_iter().map(|v| v.map(|x| x as i64)).collect())
        } else {
            CellColumn::OptFloat(values)
        }
    }
}

/// Builds a polars frame from named columns of equal length. `path` names the
/// file in errors (duplicate or ragged columns).
pub fn frame(
    path: &Path,
    columns: Vec<(String, CellColumn)>,
) -> Result<pl::DataFrame, OutputError> {
    let height = columns.first().map_or(0, |(_, c)| c.len());
    let columns = columns
        .into_iter()
        .map(|(name, col)| col.into_polars(&name))
        .collect();
    pl::DataFrame::new(height, columns).map_err(|e| format_error(path, e))
}

fn format_error(path: &Path, e: impl std::fmt::Display) -> OutputError {
    OutputError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The CSV bytes of `df` (header row, polars' float formatting).
pub fn csv_bytes(path: &Path, df: &mut pl::DataFrame) -> Result<Vec<u8>, OutputError> {
    let mut buf = Vec::new();
    pl::CsvWriter::new(&mut buf)
        .include_header(true)
        .finish(df)
        .map_err(|e| format_error(path, e))?;
    Ok(buf)
}

/// The Parquet bytes of `df`.
pub fn parquet_bytes(path: &Path, df: &mut pl::DataFrame) -> Result<Vec<u8>, OutputError> {
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .finish(df)
        .map_err(|e| format_error(path, e))?;
    Ok(buf)
}

/// How a table file is put on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WriteMode {
    /// Directly (inside a staging directory).
    Plain,
    /// Temporary file + rename.
    Atomic,
}

/// Writes `<stem>.csv` and `<stem>.parquet` in `dir`.
fn write_table_files(
    dir: &Path,
    stem: &str,
    columns: Vec<(String, CellColumn)>,
    mode: WriteMode,
) -> Result<(), OutputError> {
    let csv_path = dir.join(format!("{stem}.csv"));
    let parquet_path = dir.join(format!("{stem}.parquet"));
    let mut df = frame(&csv_path, columns)?;
    let csv = csv_bytes(&csv_path, &mut df)?;
    let parquet = parquet_bytes(&parquet_path, &mut df)?;
    let write = match mode {
        WriteMode::Plain => atomic::write_plain,
        WriteMode::Atomic => atomic::write_file,
    };
    write(&csv_path, &csv)?;
    write(&parquet_path, &parquet)
}

fn table_columns(table: &Table) -> Vec<(String, CellColumn)> {
    table
        .columns()
        .iter()
        .map(|c| (c.name.clone(), CellColumn::Float(c.values.clone())))
        .collect()
}

/// Rejects names that cannot be a single file or directory name of ours.
fn check_file_stem(path: &Path, what: &str, name: &str) -> Result<(), OutputError> {
    let bad = name.is_empty()
        || name.starts_with('.')
        || name.contains(['/', '\\', '\0'])
        || name.chars().any(char::is_control);
    if bad {
        return Err(format_error(
            path,
            format!(
                "{what} `{name}` cannot be used as a file name (empty, leading `.`, or a path separator)"
            ),
        ));
    }
    Ok(())
}

/// Writes every result file of `run` into `out` (see the module doc).
pub fn write_run(out: &Path, run: &RunResult) -> Result<(), OutputError> {
    std::fs::create_dir_all(out).map_err(|e| OutputError::Io {
        path: out.to_path_buf(),
        source: e,
    })?;
    let mut seen = BTreeMap::new();
    for study in &run.studies {
        check_file_stem(out, "study name", &study.name)?;
        if study.name == HISTORY_DIR {
            return Err(format_error(
                &out.join(HISTORY_DIR),
                format!(
                    "a study may not be called `{HISTORY_DIR}`: that directory holds the performance history"
                ),
            ));
        }
        if seen.insert(study.name.as_str(), ()).is_some() {
            return Err(format_error(
                out,
                format!("study `{}` appears twice in the run", study.name),
            ));
        }
    }
    // Validated before anything is written: a name clash leaves no files.
    let timings = timings_columns(&out.join("timings.csv"), run)?;
    for study in &run.studies {
        write_study(&out.join(&study.name), study)?;
    }
    write_table_files(out, "checks", checks_columns(run), WriteMode::Atomic)?;
    write_table_files(out, "timings", timings, WriteMode::Atomic)?;
    let manifest_path = out.join("manifest.json");
    let mut json =
        serde_json::to_string_pretty(&run.manifest).map_err(|e| format_error(&manifest_path, e))?;
    json.push('\n');
    atomic::write_file(&manifest_path, json.as_bytes())
}

/// Writes one study directory, replacing the previous one as a whole.
fn write_study(dir: &Path, study: &StudyResult) -> Result<(), OutputError> {
    let staged = StagedDir::new(dir)?;
    let stage = staged.path();
    let mut stems = BTreeMap::new();
    let mut claim = |stem: String| -> Result<(), OutputError> {
        if RESERVED_STEMS.contains(&stem.as_str()) || stems.insert(stem.clone(), ()).is_some() {
            return Err(format_error(
                dir,
                format!("two outputs of the study would both be written to `{stem}.csv`"),
            ));
        }
        Ok(())
    };
    for (case_name, result) in &study.cases {
        check_file_stem(dir, "case name", case_name)?;
        let Ok(output) = result else { continue };
        claim(case_name.clone())?;
        write_table_files(
            stage,
            case_name,
            table_columns(&output.series),
            WriteMode::Plain,
        )?;
        for extra in &output.tables {
            check_file_stem(dir, "table name", &extra.what)?;
            let stem = format!("{case_name}.{}", extra.what);
            claim(stem.clone())?;
            write_table_files(stage, &stem, table_columns(&extra.table), WriteMode::Plain)?;
        }
    }
    write_table_files(
        stage,
        "summary",
        summary_columns(dir, study)?,
        WriteMode::Plain,
    )?;
    if !study.summary.scalars.is_empty() {
        write_table_files(
            stage,
            "study",
            study_scalar_columns(study),
            WriteMode::Plain,
        )?;
    }
    atomic::write_plain(&stage.join("README.md"), study_readme(study).as_bytes())?;
    staged.commit()
}

/// `study.csv`: the study-level scalars (e.g. a convergence order).
fn study_scalar_columns(study: &StudyResult) -> Vec<(String, CellColumn)> {
    let scalars = &study.summary.scalars;
    vec![
        (
            "name".to_string(),
            CellColumn::Text(scalars.iter().map(|s| s.name.clone()).collect()),
        ),
        (
            "value".to_string(),
            CellColumn::Float(scalars.iter().map(|s| s.value).collect()),
        ),
        (
            "meaning".to_string(),
            CellColumn::Text(scalars.iter().map(|s| s.doc.clone()).collect()),
        ),
    ]
}

/// Scalar names of all successful cases in first-appearance order, with the
/// first doc seen for each.
fn scalar_union(study: &StudyResult) -> Vec<(&str, &str)> {
    let mut names: Vec<(&str, &str)> = Vec::new();
    for output in study.cases.iter().filter_map(|(_, r)| r.as_ref().ok()) {
        for Scalar { name, doc, .. } in &output.scalars {
            if !names.iter().any(|(n, _)| n == name) {
                names.push((name, doc));
            }
        }
    }
    names
}

fn summary_columns(
    dir: &Path,
    study: &StudyResult,
) -> Result<Vec<(String, CellColumn)>, OutputError> {
    let names = scalar_union(study);
    if let Some((clash, _)) = names.iter().find(|(n, _)| *n == "case" || *n == "status") {
        return Err(format_error(
            &dir.join("summary.csv"),
            format!("a case scalar is called `{clash}`, which is a fixed column of summary.csv"),
        ));
    }
    let cases = study.cases.iter().map(|(n, _)| n.clone()).collect();
    let status = study
        .cases
        .iter()
        .map(|(_, r)| if r.is_ok() { "ok" } else { "failed" }.to_string())
        .collect();
    let mut columns = vec![
        ("case".to_string(), CellColumn::Text(cases)),
        ("status".to_string(), CellColumn::Text(status)),
    ];
    for (name, _) in names {
        let values = study
            .cases
            .iter()
            .map(|(_, r)| r.as_ref().ok().and_then(|o: &CaseOutput| o.scalar(name)))
            .collect();
        columns.push((name.to_string(), CellColumn::OptFloat(values)));
    }
    Ok(columns)
}

fn checks_columns(run: &RunResult) -> Vec<(String, CellColumn)> {
    let rows: Vec<_> = run.studies.iter().flat_map(|s| &s.checks).collect();
    let text = |f: &dyn Fn(&crate::harness::outcome::CheckRow) -> String| {
        CellColumn::Text(rows.iter().map(|r| f(r)).collect())
    };
    vec![
        ("study".into(), text(&|r| r.study.clone())),
        ("case".into(), text(&|r| r.case.clone())),
        ("check".into(), text(&|r| r.check.clone())),
        (
            "value".into(),
            CellColumn::Float(rows.iter().map(|r| r.value).collect()),
        ),
        (
            "tolerance".into(),
            CellColumn::Float(rows.iter().map(|r| r.tolerance).collect()),
        ),
        (
            "passed".into(),
            CellColumn::Bool(rows.iter().map(|r| r.passed).collect()),
        ),
        ("metric".into(), text(&|r| r.metric.clone())),
        ("reference".into(), text(&|r| r.reference.clone())),
        ("detail".into(), text(&|r| r.detail.clone())),
    ]
}

/// The fixed columns of timings.csv before the counters.
pub const TIMING_FIXED: [&str; 5] = ["study", "case", "method", "wall_s", "cpu_s"];
/// The derived columns of timings.csv after the counters and stats.
pub const TIMING_DERIVED: [&str; 2] = ["cpu_per_step_s", "speedup"];

/// CPU seconds per time step, `cpu_s / steps`: `None` when the method has no
/// `steps` counter, or it is not positive, or the CPU time is not finite.
pub fn cpu_per_step(t: &Timing) -> Option<f64> {
    let steps = t.counter("steps")?;
    (steps > 0.0 && t.cpu_s.is_finite()).then(|| t.cpu_s / steps)
}

/// The speedup of each timing of one case: the CPU time per step of the
/// case's first timing that has a `steps` counter (the primary method)
/// divided by this timing's. The primary has 1, a variant 1000 times faster
/// per step has 1000. `None` where either per-step time is undefined or
/// this one is zero.
pub fn speedups(timings: &[Timing]) -> Vec<Option<f64>> {
    let reference = timings
        .iter()
        .find(|t| t.counter("steps").is_some())
        .and_then(cpu_per_step);
    timings
        .iter()
        .map(|t| match (reference, cpu_per_step(t)) {
            (Some(r), Some(c)) if c > 0.0 => Some(r / c),
            _ => None,
        })
        .collect()
}

/// The stat `name` of `t`.
pub fn stat(t: &Timing, name: &str) -> Option<f64> {
    t.stats.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
}

/// One row of timings.csv: study, case, the method's timing, its speedup.
type TimingRow<'a> = (&'a str, &'a str, &'a Timing, Option<f64>);

fn timing_rows(run: &RunResult) -> Vec<TimingRow<'_>> {
    let mut rows = Vec::new();
    for study in &run.studies {
        for (case, result) in &study.cases {
            if let Ok(output) = result {
                let speedups = speedups(&output.timings);
                for (timing, speedup) in output.timings.iter().zip(speedups) {
                    rows.push((study.name.as_str(), case.as_str(), timing, speedup));
                }
            }
        }
    }
    rows
}

/// Counter names, then stat names, of `timings` in first-appearance order.
/// A name that is a fixed or derived column of timings.csv, or both a
/// counter and a stat, is an error (it would hide a column).
pub fn timing_names<'a>(
    path: &Path,
    timings: impl Iterator<Item = &'a Timing> + Clone,
) -> Result<(Vec<&'a str>, Vec<&'a str>), OutputError> {
    let union = |pick: fn(&'a Timing) -> &'a [(String, f64)]| {
        let mut names: Vec<&'a str> = Vec::new();
        for t in timings.clone() {
            for (name, _) in pick(t) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    };
    let counters = union(|t| &t.counters);
    let stats = union(|t| &t.stats);
    let reserved = TIMING_FIXED.iter().chain(&TIMING_DERIVED);
    for name in counters.iter().chain(&stats) {
        if reserved.clone().any(|r| r == name) {
            return Err(format_error(
                path,
                format!(
                    "a counter or stat is called `{name}`, which is a fixed column of timings.csv"
                ),
            ));
        }
    }
    if let Some(both) = stats.iter().find(|s| counters.contains(s)) {
        return Err(format_error(
            path,
            format!("`{both}` is both a counter and a stat of a timing"),
        ));
    }
    Ok((counters, stats))
}

fn timings_columns(path: &Path, run: &RunResult) -> Result<Vec<(String, CellColumn)>, OutputError> {
    let rows = timing_rows(run);
    let (counters, stats) = timing_names(path, rows.iter().map(|r| r.2))?;
    let text = |f: &dyn Fn(&TimingRow) -> String| CellColumn::Text(rows.iter().map(f).collect());
    let float = |f: &dyn Fn(&TimingRow) -> f64| CellColumn::Float(rows.iter().map(f).collect());
    let mut columns = vec![
        ("study".to_string(), text(&|r| r.0.to_string())),
        ("case".to_string(), text(&|r| r.1.to_string())),
        ("method".to_string(), text(&|r| r.2.method.clone())),
        ("wall_s".to_string(), float(&|r| r.2.wall_s)),
        ("cpu_s".to_string(), float(&|r| r.2.cpu_s)),
    ];
    for name in counters {
        let values = rows.iter().map(|r| r.2.counter(name)).collect();
        columns.push((name.to_string(), CellColumn::counters(values)));
    }
    for name in stats {
        let values = rows.iter().map(|r| stat(r.2, name)).collect();
        columns.push((name.to_string(), CellColumn::OptFloat(values)));
    }
    columns.push((
        "cpu_per_step_s".to_string(),
        CellColumn::OptFloat(rows.iter().map(|r| cpu_per_step(r.2)).collect()),
    ));
    columns.push((
        "speedup".to_string(),
        CellColumn::OptFloat(rows.iter().map(|r| r.3).collect()),
    ));
    Ok(columns)
}

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
fn study_readme(study: &StudyResult) -> String {
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

    if !study.summary.scalars.is_empty() {
        md.push_str("## `study.csv`\n\nThe study-level results, one row each.\n\n");
        column_table(
            &mut md,
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
            ],
        );
        let rows: ColumnDocs = study
            .summary
            .scalars
            .iter()
            .map(|s| (s.name.clone(), doc_or_flag(&s.doc)))
            .collect();
        md.push_str("Quantities:\n\n");
        md.push_str("| name | meaning and unit |\n|---|---|\n");
        for (name, doc) in rows {
            md.push_str(&format!("| `{name}` | {doc} |\n"));
        }
        md.push('\n');
    }
    md.push_str("## `summary.csv`\n\nOne row per case.\n\n");
    let mut summary_rows = vec![
        ("case".to_string(), "case name (file stem of `<case>.csv`)".to_string()),
        ("status".to_string(), "`ok`, or `failed` when the case's solver failed (its cells are then empty; the error is listed below)".to_string()),
    ];
    summary_rows.extend(
        scalar_union(study)
            .into_iter()
            .map(|(n, d)| (n.to_string(), doc_or_flag(d))),
    );
    column_table(&mut md, &summary_rows);

    // Group files whose columns (names and docs) are identical.
    let mut groups: Vec<(ColumnDocs, ColumnDocs)> = Vec::new();
    for (case, result) in &study.cases {
        let Ok(output) = result else { continue };
        let mut files = vec![(
            format!("{case}.csv"),
            format!("main series of case `{case}`"),
        )];
        let mut tables = vec![&output.series];
        for extra in &output.tables {
            files.push((
                format!("{case}.{}.csv", extra.what),
                doc_or_flag(&extra.doc),
            ));
            tables.push(&extra.table);
        }
        for (file, table) in files.into_iter().zip(tables) {
            let signature: Vec<(String, String)> = table
                .columns()
                .iter()
                .map(|c| (c.name.clone(), doc_or_flag(&c.doc)))
                .collect();
            match groups.iter_mut().find(|(sig, _)| *sig == signature) {
                Some((_, members)) => members.push(file),
                None => groups.push((signature, vec![file])),
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
            column_table(&mut md, signature);
        }
    }

    timings_readme(&mut md, study);

    let failed: Vec<_> = study
        .cases
        .iter()
        .filter_map(|(n, r)| r.as_ref().err().map(|e| (n, e)))
        .collect();
    if !failed.is_empty() {
        md.push_str("## Failed cases\n\nNo case files are written for these cases.\n\n");
        for (name, error) in failed {
            md.push_str(&format!("- `{name}`: {}\n", md_cell(&error.to_string())));
        }
        md.push('\n');
    }
    md
}

/// Meanings of the counters and stats that the study kinds write; a name
/// not listed here is documented generically.
const TIMING_DOCS: [(&str, &str); 11] = [
    ("steps", "time steps taken [-]"),
    (
        "newton_iterations",
        "Newton iterations, summed over the steps [-]",
    ),
    (
        "lcp_pivots",
        "LCP pivots (Lemke), summed over the steps [-]",
    ),
    (
        "lcp_iterations",
        "LCP solver iterations (sweeps for PGS, Newton iterations for the semi-smooth solvers), summed over the steps [-]",
    ),
    (
        "factorizations",
        "matrix factorizations or inversions done [-]",
    ),
    (
        "max_active",
        "largest number of active gap springs at the end of a step [-]",
    ),
    (
        "events",
        "spring switches located (one per spring that engaged or released) [-]",
    ),
    ("regimes", "distinct active sets met [-]"),
    (
        "mean_active",
        "mean number of active gap springs per step (derived, not an exact count) [-]",
    ),
    ("active_sum", "active gap springs summed over the steps [-]"),
    (
        "timing_runs",
        "runs of the method behind its times: a run under 0.25 s CPU is repeated until the runs add up to 0.25 s (at most 20), and wall_s and cpu_s are those of the fastest run; the counters are those of every run (checked equal) [-]",
    ),
];

fn timing_doc(name: &str, counter: bool) -> String {
    match TIMING_DOCS.iter().find(|(n, _)| *n == name) {
        Some((_, doc)) => (*doc).to_string(),
        None if counter => format!("solver counter `{name}` of the method's run (exact count) [-]"),
        None => format!("derived statistic `{name}` of the method's run (not an exact count)"),
    }
}

/// The timings section of a study README: the columns of `../timings.csv`
/// that this study's rows use.
fn timings_readme(md: &mut String, study: &StudyResult) {
    let timings: Vec<&Timing> = study
        .cases
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .flat_map(|o| &o.timings)
        .collect();
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
        "## Timings in `../timings.csv`\n\nThe run's `timings.csv` (beside the study directories) has one row per method \
         run of every successful case; this study's methods: {}. Its columns, as used by this study's rows (a cell \
         is empty where a method has no such counter or stat):\n\n",
        methods.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
    ));
    let mut rows: ColumnDocs = vec![
        ("study".into(), "study name".into()),
        ("case".into(), "case name".into()),
        ("method".into(), "method name (as in the spec)".into()),
        ("wall_s".into(), "wall-clock time of the method's run, output writing excluded [s]; stretches on a loaded machine".into()),
        ("cpu_s".into(), "CPU time of the thread that ran the method [s] (a case runs single-threaded): the robust measure".into()),
    ];
    rows.extend(
        counters
            .iter()
            .map(|c| (c.to_string(), md_cell(&timing_doc(c, true)))),
    );
    rows.extend(
        stats
            .iter()
            .map(|c| (c.to_string(), md_cell(&timing_doc(c, false)))),
    );
    rows.push((
        "cpu_per_step_s".into(),
        "`cpu_s / steps`, CPU time per time step [s]; empty when the method has no `steps` counter"
            .into(),
    ));
    rows.push((
        "speedup".into(),
        "`cpu_per_step_s` of the case's first method row that has `steps` (the primary method) divided by this row's [-]: \
         1 for the primary, 1000 for a method 1000 times faster per step; empty where undefined".into(),
    ));
    column_table(md, &rows);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_counters_become_integers_and_others_stay_floats() {
        assert_eq!(
            CellColumn::counters(vec![Some(3.0), None]),
            CellColumn::OptInt(vec![Some(3), None])
        );
        assert_eq!(
            CellColumn::counters(vec![Some(3.5), None]),
            CellColumn::OptFloat(vec![Some(3.5), None])
        );
        assert!(matches!(
            CellColumn::counters(vec![Some(1e300)]),
            CellColumn::OptFloat(_)
        ));
    }

    #[test]
    fn csv_keeps_full_precision_and_nan() {
        let path = Path::new("x.csv");
        let mut df = frame(
            path,
            vec![
                ("a".into(), CellColumn::Float(vec![0.1 + 0.2, f64::NAN])),
                ("b".into(), CellColumn::OptFloat(vec![None, Some(1e-300)])),
            ],
        )
        .unwrap();
        let text = String::from_utf8(csv_bytes(path, &mut df).unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "a,b");
        assert_eq!(
            lines[1].split(',').next().unwrap().parse::<f64>().unwrap(),
            0.1 + 0.2
        );
        assert!(lines[2].starts_with("NaN,"), "{}", lines[2]);
        assert_eq!(
            lines[2].split(',').nth(1).unwrap().parse::<f64>().unwrap(),
            1e-300
        );
    }

    fn timing(method: &str, cpu_s: f64, steps: Option<f64>) -> Timing {
        Timing {
            method: method.into(),
            wall_s: 2.0 * cpu_s,
            cpu_s,
            counters: steps
                .map(|s| ("steps".to_string(), s))
                .into_iter()
                .collect(),
            stats: Vec::new(),
        }
    }

    #[test]
    fn speedup_is_against_the_first_method_with_steps() {
        let timings = [
            timing("exact", 5.0, None),
            timing("lemke", 2.0, Some(1000.0)),
            timing("sparse", 0.002, Some(1000.0)),
            timing("half-steps", 0.5, Some(500.0)),
            timing("no-clock", f64::NAN, Some(1000.0)),
            timing("zero-steps", 1.0, Some(0.0)),
        ];
        assert_eq!(cpu_per_step(&timings[0]), None);
        assert_eq!(cpu_per_step(&timings[1]), Some(0.002));
        let s = speedups(&timings);
        assert_eq!(s[0], None);
        assert_eq!(s[1], Some(1.0));
        assert!((s[2].unwrap() - 1000.0).abs() < 1e-9, "{:?}", s[2]);
        assert_eq!(s[3], Some(2.0));
        assert_eq!((s[4], s[5]), (None, None));
        // Without a primary per-step time, no speedups at all.
        assert_eq!(speedups(&timings[4..]), vec![None, None]);
    }

    #[test]
    fn a_counter_named_like_a_fixed_column_is_an_error() {
        let mut t = timing("m", 1.0, Some(1.0));
        t.counters.push(("speedup".into(), 3.0));
        let err = timing_names(Path::new("timings.csv"), [&t].into_iter()).unwrap_err();
        assert!(err.to_string().contains("`speedup`"), "{err}");
        let mut t = timing("m", 1.0, Some(1.0));
        t.stats.push(("steps".into(), 3.0));
        let err = timing_names(Path::new("timings.csv"), [&t].into_iter()).unwrap_err();
        assert!(
            err.to_string().contains("both a counter and a stat"),
            "{err}"
        );
    }

    #[test]
    fn path_like_names_are_rejected() {
        for bad in ["", ".hidden", "a/b", "a\\b"] {
            assert!(
                check_file_stem(Path::new("."), "case name", bad).is_err(),
                "{bad:?}"
            );
        }
        assert!(check_file_stem(Path::new("."), "case name", "dt-0.01_n-3").is_ok());
    }
}
