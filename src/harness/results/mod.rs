//! Result files of a run: the output-directory contract (ARCHITECTURE.md,
//! "Output directory").
//!
//! - `DIR/<study>/<case>.csv`: the series of the case's first method;
//!   `DIR/<study>/<case>.<label>.csv` the series of each further method;
//!   `DIR/<study>/<case>.<what>.csv` each case table (e.g. `exact`, the
//!   reference); `DIR/<study>/<case>.<label>.<what>.csv` each further table
//!   of a method run;
//! - `DIR/<study>/summary.csv`: one row per (case, method), cases in order
//!   and the case's first method first: `case,method,status`, then the union
//!   of the case scalars, then the union of the method scalars, in
//!   first-appearance order (`status` is `ok` or `failed`; a failed method
//!   has empty method cells);
//! - `DIR/<study>/study.csv`: `name,value,meaning,method,group` of the
//!   study-level scalars (e.g. a convergence order per method and group);
//! - `DIR/<study>/work-precision.csv` (when a cost parameter is swept):
//!   `case,method,parameter,value,error,cpu_s,cpu_s_spread,group`, and
//!   `DIR/<study>/speedup.csv`: `method,baseline,error,speedup,group`,
//!   then the converged error ranges `converged_min,converged_max,
//!   method_converged_min,method_converged_max,baseline_converged_min,
//!   baseline_converged_max,converged_rule` (see `harness::sweep`);
//! - `DIR/<study>/<stem>.csv` for each study-level table of the kind's
//!   summary (e.g. `branch.csv`, a continuation's branch);
//! - `DIR/<study>/README.md`: every file of the study and every column of
//!   every CSV with its meaning and unit, and every failure;
//! - `DIR/checks.csv`: `study,case,check,value,tolerance,passed`, then the
//!   added columns `metric,reference,detail,method,why`;
//! - `DIR/claims.csv`: one row per seed claim a study tests:
//!   `study,claim,seed,verdict,expect,value,criterion` (`verdict`, `expect`:
//!   `reproduced` or `not-reproduced`; `value` the deciding criterion's;
//!   `criterion` every criterion in words), then `words,reason`, then
//!   `formulation,holds_in,holds_lo,holds_hi` (see `harness::claims`);
//!   written on every run, with a header alone when no study has claims;
//! - `DIR/timings.csv`: one row per successful method run and per reference
//!   solver run: `study,case,method,wall_s,cpu_s,cpu_s_spread,runs`
//!   (`wall_s` and `cpu_s` medians over the timed runs, `harness::timing`),
//!   then the union of the counter names (exact counts, written as
//!   integers), then the union of the stat names (derived floats), then
//!   `cpu_per_step_s` = `cpu_s / steps` and `speedup` = the study baseline's
//!   `cpu_s` in the same case over this row's, given only when both runs
//!   took the same number of steps (a per-step ratio of runs with different
//!   steps is no speed-up: those are compared at equal accuracy in
//!   `speedup.csv`). A counter or stat named like a fixed or derived column,
//!   or both a counter and a stat, is an error;
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
//! but `checks.csv`, `claims.csv`, `timings.csv` and `manifest.json` describe this run
//! only: after `--only a` they hold the rows of study `a` alone.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::OutputError;
use crate::harness::atomic::{self, StagedDir};
use crate::harness::frame::{CellColumn, csv_bytes, format_error, frame, parquet_bytes};
use crate::harness::outcome::{RunResult, StudyResult};
use crate::harness::reserved::{HISTORY_DIR, RESERVED_STEMS};
use crate::harness::table::Table;

mod columns;
mod files;
mod readme;

pub use files::{CaseFile, case_files};

pub use columns::{TIMING_DERIVED, TIMING_FIXED, timing_names};
use columns::{
    checks_columns, claims_columns, speedup_columns, study_scalar_columns, summary_columns,
    timings_columns, work_precision_columns,
};
use readme::study_readme;

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

fn study_table_columns(table: &crate::harness::study::StudyTable) -> Vec<(String, CellColumn)> {
    use crate::harness::study::Cells;
    table
        .columns
        .iter()
        .map(|(name, _, cells)| {
            let column = match cells {
                Cells::Float(v) => CellColumn::Float(v.clone()),
                Cells::Bool(v) => CellColumn::Bool(v.clone()),
                Cells::Text(v) => CellColumn::Text(v.clone()),
            };
            (name.clone(), column)
        })
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
    write_table_files(out, "claims", claims_columns(run), WriteMode::Atomic)?;
    write_table_files(out, "timings", timings, WriteMode::Atomic)?;
    write_table_files(out, "kernels", kernels_columns(run), WriteMode::Atomic)?;
    let manifest_path = out.join("manifest.json");
    let mut json =
        serde_json::to_string_pretty(&run.manifest).map_err(|e| format_error(&manifest_path, e))?;
    json.push('\n');
    atomic::write_file(&manifest_path, json.as_bytes())
}

/// `kernels.csv`: `case,method,metric,value,measured_by`, one row per
/// measure of the run's deterministic cost: the calibration kernel's
/// `cpu_s` (median of its samples), `cpu_s_spread` (half their range) and
/// `samples` (measured by `thread-cpu`), then per kernel measured under
/// Valgrind its `instructions`, `estimated_cycles` and counters (measured
/// by the Valgrind version).
fn kernels_columns(run: &RunResult) -> Vec<(String, CellColumn)> {
    let mut rows: Vec<(String, String, String, f64, String)> = Vec::new();
    let (_, case, method) = crate::harness::history::CALIBRATION;
    let cal = &run.costs.calibration;
    if cal.is_usable() {
        for (metric, value) in [
            ("cpu_s", cal.cpu_s()),
            ("cpu_s_spread", cal.spread()),
            ("samples", cal.samples.len() as f64),
        ] {
            rows.push((
                case.into(),
                method.into(),
                metric.into(),
                value,
                "thread-cpu".into(),
            ));
        }
    }
    let report = &run.costs.kernels;
    let tool = report.tool.clone().unwrap_or_default();
    for k in &report.measured {
        let costs = [
            ("instructions".to_string(), k.instructions),
            ("estimated_cycles".to_string(), k.estimated_cycles),
        ];
        for (metric, value) in costs.into_iter().chain(k.counters.iter().cloned()) {
            rows.push((
                k.kernel.case.into(),
                k.kernel.method.into(),
                metric,
                value,
                tool.clone(),
            ));
        }
    }
    let text = |f: fn(&(String, String, String, f64, String)) -> &String| {
        CellColumn::Text(rows.iter().map(|r| f(r).clone()).collect())
    };
    vec![
        ("case".into(), text(|r| &r.0)),
        ("method".into(), text(|r| &r.1)),
        ("metric".into(), text(|r| &r.2)),
        (
            "value".into(),
            CellColumn::Float(rows.iter().map(|r| r.3).collect()),
        ),
        ("measured_by".into(), text(|r| &r.4)),
    ]
}

/// Writes one study directory, replacing the previous one as a whole.
fn write_study(dir: &Path, study: &StudyResult) -> Result<(), OutputError> {
    let staged = StagedDir::new(dir)?;
    let stage = staged.path();
    let mut stems = BTreeMap::new();
    for case in &study.cases {
        check_file_stem(dir, "case name", &case.name)?;
        for m in &case.methods {
            check_file_stem(dir, "method label", m.label())?;
        }
        for file in case_files(case) {
            if RESERVED_STEMS.contains(&file.stem.as_str())
                || stems.insert(file.stem.clone(), ()).is_some()
            {
                return Err(format_error(
                    dir,
                    format!(
                        "two outputs of the study would both be written to `{}.csv`",
                        file.stem
                    ),
                ));
            }
            write_table_files(
                stage,
                &file.stem,
                table_columns(file.table),
                WriteMode::Plain,
            )?;
        }
    }
    for table in &study.summary.tables {
        check_file_stem(dir, "study table", &table.stem)?;
        if stems.insert(table.stem.clone(), ()).is_some()
            || ["summary", "study", "work-precision", "speedup"].contains(&table.stem.as_str())
        {
            return Err(format_error(
                dir,
                format!(
                    "two outputs of the study would both be written to `{}.csv`",
                    table.stem
                ),
            ));
        }
        write_table_files(
            stage,
            &table.stem,
            study_table_columns(table),
            WriteMode::Plain,
        )?;
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
    if !study.work_precision.is_empty() {
        write_table_files(
            stage,
            "work-precision",
            work_precision_columns(study),
            WriteMode::Plain,
        )?;
        write_table_files(stage, "speedup", speedup_columns(study), WriteMode::Plain)?;
    }
    atomic::write_plain(&stage.join("README.md"), study_readme(study).as_bytes())?;
    staged.commit()
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
