//! Reading and writing history.csv (see the parent module for its
//! columns), and the rows a run contributes.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use polars::prelude::{self as pl, SerReader};

use super::data::*;
use crate::error::OutputError;
use crate::harness::frame::{CellColumn, csv_bytes, floats, format_error, frame, strings};
use crate::harness::outcome::RunResult;

/// `<out>/history/history.csv`.
pub fn path(out: &Path) -> PathBuf {
    dir(out).join("history.csv")
}

/// `<out>/history/`, the history store (`store`).
pub fn dir(out: &Path) -> PathBuf {
    out.join(crate::harness::reserved::HISTORY_DIR)
}

/// Reads history.csv (either header, [`COLUMNS`] or the older
/// [`COLUMNS_V1`]); a missing or empty file is an empty history.
pub fn load(path: &Path) -> Result<History, OutputError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(History::default()),
        Err(source) => {
            return Err(OutputError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(History::default());
    }
    let header = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let header = String::from_utf8_lossy(header);
    let header = header.trim_end();
    let columns: &[&str] = if header == COLUMNS.join(",") {
        &COLUMNS
    } else if header == COLUMNS_V1.join(",") {
        &COLUMNS_V1
    } else {
        return Err(format_error(
            path,
            format!(
                "history header is `{header}`, expected `{}` (or the older `{}`)",
                COLUMNS.join(","),
                COLUMNS_V1.join(",")
            ),
        ));
    };
    let mut schema = pl::Schema::default();
    for &name in columns {
        let dtype = if name == "value" || name == "spread" {
            pl::DataType::Float64
        } else {
            pl::DataType::String
        };
        schema.insert(name.into(), dtype);
    }
    let df = pl::CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(Arc::new(schema)))
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .map_err(|e| format_error(path, e))?;
    let n = df.height();
    let text = |name: &str| -> Result<Option<Vec<String>>, OutputError> {
        columns
            .contains(&name)
            .then(|| strings(&df, name, path))
            .transpose()
    };
    let float = |name: &str| -> Result<Option<Vec<f64>>, OutputError> {
        columns
            .contains(&name)
            .then(|| floats(&df, name, path))
            .transpose()
    };
    let required = |v: Option<Vec<String>>| v.unwrap_or_else(|| vec![String::new(); n]);
    let commit = required(text("commit")?);
    let date = required(text("date")?);
    let host = required(text("host")?);
    let suite = required(text("suite")?);
    let study = required(text("study")?);
    let case = required(text("case")?);
    let method = required(text("method")?);
    let metric = required(text("metric")?);
    let values = float("value")?.unwrap_or_else(|| vec![f64::NAN; n]);
    let spread = float("spread")?;
    let timing = text("timing")?;
    let [profile, rustc, cpu] = [text("profile")?, text("rustc")?, text("cpu")?];
    let or_unknown = |col: &Option<Vec<String>>, i: usize| -> String {
        col.as_ref()
            .map(|c| c[i].clone())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| UNKNOWN.to_string())
    };
    let rows = (0..n)
        .map(|i| HistoryRow {
            commit: commit[i].clone(),
            date: date[i].clone(),
            host: host[i].clone(),
            suite: suite[i].clone(),
            study: study[i].clone(),
            case: case[i].clone(),
            method: method[i].clone(),
            metric: metric[i].clone(),
            value: values[i],
            spread: spread.as_ref().map_or(f64::NAN, |s| s[i]),
            timing: timing
                .as_ref()
                .map(|t| t[i].clone())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| legacy_timing(&date[i]).to_string()),
            profile: or_unknown(&profile, i),
            rustc: or_unknown(&rustc, i),
            cpu: or_unknown(&cpu, i),
        })
        .collect();
    Ok(History { rows })
}

/// The commit label of a run: the hash, `+dirty` for an uncommitted tree.
pub fn commit_label(commit: &str, dirty: bool) -> String {
    if dirty {
        format!("{commit}+dirty")
    } else {
        commit.to_string()
    }
}

/// The rows a run contributes: per study, per successful case, per method,
/// `wall_s`, `cpu_s` (when finite, with its spread) and every counter; never
/// the stats; then the calibration kernel's `cpu_s` (median of its samples,
/// half range as spread) and every measured kernel's `instructions`,
/// `estimated_cycles` and counters ([`cost_rows`]). Every row carries the
/// manifest's profile, rustc, host and CPU; times [`TIMING_METHOD`].
pub fn run_rows(run: &RunResult) -> Vec<HistoryRow> {
    let mut rows = timing_rows(run);
    rows.extend(cost_rows(run));
    rows
}

/// A row of the run with the manifest's provenance.
fn provenance_row(run: &RunResult, timing: &str) -> HistoryRow {
    let m = &run.manifest;
    HistoryRow {
        commit: commit_label(&m.commit, m.dirty),
        date: m.date.clone(),
        host: m.host.clone(),
        suite: run.suite.clone(),
        study: String::new(),
        case: String::new(),
        method: String::new(),
        metric: String::new(),
        value: f64::NAN,
        spread: f64::NAN,
        timing: timing.to_string(),
        profile: m.profile.clone(),
        rustc: m.rustc.clone(),
        cpu: m.cpu.clone(),
    }
}

/// The calibration and kernel rows of a run: the calibration's `cpu_s`
/// (timing [`TIMING_METHOD`]) when usable, and per measured kernel its
/// costs and counters (timing `callgrind-<valgrind version>`), study
/// `kernels`.
pub fn cost_rows(run: &RunResult) -> Vec<HistoryRow> {
    let mut rows = Vec::new();
    let (study, case, method) = CALIBRATION;
    let cal = &run.costs.calibration;
    if cal.is_usable() {
        rows.push(HistoryRow {
            study: study.into(),
            case: case.into(),
            method: method.into(),
            metric: CPU.into(),
            value: cal.cpu_s(),
            spread: cal.spread(),
            ..provenance_row(run, TIMING_METHOD)
        });
    }
    if let Some(share) = cal.others_share {
        rows.push(HistoryRow {
            study: study.into(),
            case: case.into(),
            method: method.into(),
            metric: OTHERS_SHARE.into(),
            value: share,
            spread: f64::NAN,
            ..provenance_row(run, TIMING_METHOD)
        });
    }
    let report = &run.costs.kernels;
    let Some(tool) = &report.tool else {
        return rows;
    };
    let timing = crate::harness::kernels::callgrind::timing_method(tool);
    for k in &report.measured {
        let costs = [
            (INSTRUCTIONS, k.instructions),
            (ESTIMATED_CYCLES, k.estimated_cycles),
        ];
        let metrics = costs
            .into_iter()
            .filter(|(_, v)| v.is_finite())
            .map(|(n, v)| (n.to_string(), v))
            .chain(k.counters.iter().cloned());
        for (metric, value) in metrics {
            rows.push(HistoryRow {
                study: crate::harness::kernels::STUDY.into(),
                case: k.kernel.case.into(),
                method: k.kernel.method.into(),
                metric,
                value,
                ..provenance_row(run, &timing)
            });
        }
    }
    rows
}

/// The method runs' rows of a run (see [`run_rows`]).
fn timing_rows(run: &RunResult) -> Vec<HistoryRow> {
    let m = &run.manifest;
    let commit = commit_label(&m.commit, m.dirty);
    let mut rows = Vec::new();
    for study in &run.studies {
        for case in &study.cases {
            for timing in case.timings() {
                let cpu =
                    timing
                        .cpu_s
                        .is_finite()
                        .then_some((CPU, timing.cpu_s, timing.cpu_s_spread));
                let metrics = std::iter::once((WALL, timing.wall_s, f64::NAN))
                    .chain(cpu)
                    .chain(
                        timing
                            .counters
                            .iter()
                            .map(|(n, v)| (n.as_str(), *v, f64::NAN)),
                    );
                for (metric, value, spread) in metrics {
                    rows.push(HistoryRow {
                        commit: commit.clone(),
                        date: m.date.clone(),
                        host: m.host.clone(),
                        suite: run.suite.clone(),
                        study: study.name.clone(),
                        case: case.name.clone(),
                        method: timing.method.clone(),
                        metric: metric.to_string(),
                        value,
                        spread,
                        timing: TIMING_METHOD.to_string(),
                        profile: m.profile.clone(),
                        rustc: m.rustc.clone(),
                        cpu: m.cpu.clone(),
                    });
                }
            }
        }
    }
    rows
}

/// The columns `names` (of [`COLUMNS`]) of `rows`, for a table.
pub(super) fn row_columns(rows: &[HistoryRow], names: &[&str]) -> Vec<(String, CellColumn)> {
    let text = |f: fn(&HistoryRow) -> &str| {
        CellColumn::Text(rows.iter().map(|r| f(r).to_string()).collect())
    };
    names
        .iter()
        .map(|&name| {
            let column = match name {
                "commit" => text(|r| &r.commit),
                "date" => text(|r| &r.date),
                "host" => text(|r| &r.host),
                "suite" => text(|r| &r.suite),
                "study" => text(|r| &r.study),
                "case" => text(|r| &r.case),
                "method" => text(|r| &r.method),
                "metric" => text(|r| &r.metric),
                "value" => CellColumn::Float(rows.iter().map(|r| r.value).collect()),
                "spread" => CellColumn::OptFloat(
                    rows.iter()
                        .map(|r| r.spread.is_finite().then_some(r.spread))
                        .collect(),
                ),
                "timing" => text(|r| &r.timing),
                "profile" => text(|r| &r.profile),
                "rustc" => text(|r| &r.rustc),
                "cpu" => text(|r| &r.cpu),
                other => unreachable!("`{other}` is not a history column"),
            };
            (name.to_string(), column)
        })
        .collect()
}

/// The CSV bytes of a history (all of [`COLUMNS`]).
pub fn to_csv(path: &Path, history: &History) -> Result<Vec<u8>, OutputError> {
    let columns = row_columns(&history.rows, &COLUMNS);
    let mut df = frame(path, columns)?;
    csv_bytes(path, &mut df)
}
