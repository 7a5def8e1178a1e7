//! The history store: every recorded run in a file of its own, in the
//! manner of asv's one results file per commit and machine, so that the
//! history grows by one small file a run and a reader opens only the runs
//! it needs.
//!
//! `<out>/history/`:
//! - `runs.csv`, the index ([`INDEX_COLUMNS`]): one row per run in the order
//!   recorded: `run` (the stem of its file), the provenance kept once per
//!   run (`commit,date,host,suite,profile,rustc,cpu`) and `rows`, the
//!   number of rows in its file (checked on reading);
//! - `runs/<run>.parquet` (zstd), the run's rows ([`RUN_COLUMNS`]:
//!   `study,case,method,metric,value,spread,timing`);
//! - `history.csv`: the rows of the latest [`CSV_RUNS`] runs in the
//!   documented columns (`COLUMNS`), rewritten from the store at every
//!   record for the tools that read that file. It is not read once the
//!   index exists.
//!
//! The judge and the report read the latest [`WINDOW_RUNS`] runs
//! ([`load_recent`]): the baseline rules look back [`BASELINE_COMMITS`]
//! commits, a machine epoch [`MACHINE_WINDOW`] runs, and the noise estimate
//! needs [`CPU_MIN_NOISE_SAMPLES`] changes, which one pair of runs gives.
//!
//! A `history.csv` without an index beside it (written before the store)
//! is migrated at the next record ([`migrate`]): its rows are split into
//! runs (consecutive rows of one commit, date, host, suite, profile, rustc
//! and CPU), each written as its file, in order, with its timing method per
//! row. Nothing is lost: the store's rows read back equal to the file's
//! (tests/history_store.rs round-trips the committed history).

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use polars::prelude::{self as pl, ParquetCompression, ParquetWriter, SerReader};

use super::csv::{load, row_columns, run_rows, to_csv};
use super::data::*;
use crate::error::OutputError;
use crate::harness::atomic;
use crate::harness::frame::{CellColumn, csv_bytes, floats, format_error, frame, strings};
use crate::harness::outcome::RunResult;

/// The runs the judge and the report read.
pub const WINDOW_RUNS: usize = 50;
/// The runs `history.csv` holds.
pub const CSV_RUNS: usize = 10;

/// The columns of the index `runs.csv`, in order.
pub const INDEX_COLUMNS: [&str; 9] = [
    "run", "commit", "date", "host", "suite", "profile", "rustc", "cpu", "rows",
];
/// The columns of a run's file, in order.
pub const RUN_COLUMNS: [&str; 7] = [
    "study", "case", "method", "metric", "value", "spread", "timing",
];

/// One run of the index: its file's stem, its provenance and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEntry {
    /// The stem of `runs/<run>.parquet`.
    pub run: String,
    /// Commit hash (`+dirty` for an uncommitted tree).
    pub commit: String,
    /// RFC 3339 UTC date of the run.
    pub date: String,
    /// Host name.
    pub host: String,
    /// Suite name.
    pub suite: String,
    /// Build profile.
    pub profile: String,
    /// `rustc --version`.
    pub rustc: String,
    /// CPU model and logical cores.
    pub cpu: String,
    /// Rows in the run's file.
    pub rows: usize,
}

impl RunEntry {
    /// The entry of a run's rows (provenance of its first row); `run` is
    /// left for [`unique_stem`].
    fn of(rows: &[HistoryRow]) -> Self {
        let r = rows.first().cloned().unwrap_or_else(empty_row);
        RunEntry {
            run: String::new(),
            commit: r.commit,
            date: r.date,
            host: r.host,
            suite: r.suite,
            profile: r.profile,
            rustc: r.rustc,
            cpu: r.cpu,
            rows: rows.len(),
        }
    }

    /// Whether `row` carries this run's provenance.
    fn holds(&self, row: &HistoryRow) -> bool {
        self.commit == row.commit
            && self.date == row.date
            && self.host == row.host
            && self.suite == row.suite
            && self.profile == row.profile
            && self.rustc == row.rustc
            && self.cpu == row.cpu
    }

    /// A history row of this run with the per-row fields empty.
    fn row(&self) -> HistoryRow {
        HistoryRow {
            commit: self.commit.clone(),
            date: self.date.clone(),
            host: self.host.clone(),
            suite: self.suite.clone(),
            profile: self.profile.clone(),
            rustc: self.rustc.clone(),
            cpu: self.cpu.clone(),
            ..empty_row()
        }
    }
}

fn empty_row() -> HistoryRow {
    HistoryRow {
        commit: String::new(),
        date: String::new(),
        host: String::new(),
        suite: String::new(),
        study: String::new(),
        case: String::new(),
        method: String::new(),
        metric: String::new(),
        value: f64::NAN,
        spread: f64::NAN,
        timing: String::new(),
        profile: String::new(),
        rustc: String::new(),
        cpu: String::new(),
    }
}

/// `<dir>/runs.csv`.
pub fn index_path(dir: &Path) -> PathBuf {
    dir.join("runs.csv")
}

/// `<dir>/runs/<run>.parquet`.
pub fn run_path(dir: &Path, run: &str) -> PathBuf {
    dir.join("runs").join(format!("{run}.parquet"))
}

/// `<dir>/history.csv`.
pub fn csv_path(dir: &Path) -> PathBuf {
    dir.join("history.csv")
}

/// The stem of a run's file: `<date digits>-<commit[..12]>[-dirty]-<host>`
/// (characters other than ASCII letters, digits, `.`, `_` and `-` become
/// `_`), with `-2`, `-3`, ... when the index already has it.
fn unique_stem(entry: &RunEntry, taken: &std::collections::HashSet<String>) -> String {
    let date: String = entry
        .date
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let (hash, dirty) = match entry.commit.strip_suffix("+dirty") {
        Some(h) => (h, "-dirty"),
        None => (entry.commit.as_str(), ""),
    };
    let hash: String = hash.chars().take(12).collect();
    let host: String = entry
        .host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = format!("{date}-{hash}{dirty}-{host}");
    if !taken.contains(&stem) {
        return stem;
    }
    (2..)
        .map(|k| format!("{stem}-{k}"))
        .find(|s| !taken.contains(s))
        .expect("an unused suffix")
}

/// Reads the index; `None` when there is none.
pub fn load_index(dir: &Path) -> Result<Option<Vec<RunEntry>>, OutputError> {
    let path = index_path(dir);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(OutputError::Read { path, source }),
    };
    let header = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    if String::from_utf8_lossy(header).trim_end() != INDEX_COLUMNS.join(",") {
        return Err(format_error(
            &path,
            format!(
                "the index's header is `{}`, expected `{}`",
                String::from_utf8_lossy(header).trim_end(),
                INDEX_COLUMNS.join(",")
            ),
        ));
    }
    let mut schema = pl::Schema::default();
    for name in INDEX_COLUMNS {
        schema.insert(name.into(), pl::DataType::String);
    }
    let df = pl::CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(Arc::new(schema)))
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .map_err(|e| format_error(&path, e))?;
    let text = |name: &str| strings(&df, name, &path);
    let [run, commit, date, host, suite, profile, rustc, cpu, rows] = INDEX_COLUMNS.map(text);
    let (run, commit, date, host, suite) = (run?, commit?, date?, host?, suite?);
    let (profile, rustc, cpu, rows) = (profile?, rustc?, cpu?, rows?);
    let mut entries = Vec::with_capacity(run.len());
    for i in 0..run.len() {
        let count = rows[i].parse::<usize>().map_err(|_| {
            format_error(
                &path,
                format!(
                    "run `{}`: rows is `{}`, expected a count of rows",
                    run[i], rows[i]
                ),
            )
        })?;
        if run[i].is_empty() {
            return Err(format_error(&path, format!("line {}: no run name", i + 2)));
        }
        entries.push(RunEntry {
            run: run[i].clone(),
            commit: commit[i].clone(),
            date: date[i].clone(),
            host: host[i].clone(),
            suite: suite[i].clone(),
            profile: profile[i].clone(),
            rustc: rustc[i].clone(),
            cpu: cpu[i].clone(),
            rows: count,
        });
    }
    Ok(Some(entries))
}

/// Writes the index (atomically).
fn write_index(dir: &Path, entries: &[RunEntry]) -> Result<(), OutputError> {
    let path = index_path(dir);
    let text = |f: fn(&RunEntry) -> &str| {
        CellColumn::Text(entries.iter().map(|e| f(e).to_string()).collect())
    };
    let columns = vec![
        ("run".to_string(), text(|e| &e.run)),
        ("commit".to_string(), text(|e| &e.commit)),
        ("date".to_string(), text(|e| &e.date)),
        ("host".to_string(), text(|e| &e.host)),
        ("suite".to_string(), text(|e| &e.suite)),
        ("profile".to_string(), text(|e| &e.profile)),
        ("rustc".to_string(), text(|e| &e.rustc)),
        ("cpu".to_string(), text(|e| &e.cpu)),
        (
            "rows".to_string(),
            CellColumn::OptInt(entries.iter().map(|e| Some(e.rows as i64)).collect()),
        ),
    ];
    let mut df = frame(&path, columns)?;
    atomic::write_file(&path, &csv_bytes(&path, &mut df)?)
}

/// Writes one run's rows to its file (atomically).
fn write_run_file(dir: &Path, run: &str, rows: &[HistoryRow]) -> Result<(), OutputError> {
    let path = run_path(dir, run);
    let columns = row_columns(rows, &RUN_COLUMNS);
    let mut df = frame(&path, columns)?;
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(&mut df)
        .map_err(|e| format_error(&path, e))?;
    atomic::write_file(&path, &buf)
}

/// Reads one run's rows, with the entry's provenance.
fn read_run_file(dir: &Path, entry: &RunEntry) -> Result<Vec<HistoryRow>, OutputError> {
    let path = run_path(dir, &entry.run);
    let bytes = std::fs::read(&path).map_err(|source| OutputError::Read {
        path: path.clone(),
        source,
    })?;
    let df = pl::ParquetReader::new(Cursor::new(bytes))
        .finish()
        .map_err(|e| format_error(&path, e))?;
    if df.height() != entry.rows {
        return Err(format_error(
            &path,
            format!(
                "{} rows, the index ({}) says {}",
                df.height(),
                index_path(dir).display(),
                entry.rows
            ),
        ));
    }
    let text = |name: &str| strings(&df, name, &path);
    let float = |name: &str| floats(&df, name, &path);
    let (study, case, method) = (text("study")?, text("case")?, text("method")?);
    let (metric, timing) = (text("metric")?, text("timing")?);
    let (value, spread) = (float("value")?, float("spread")?);
    let base = entry.row();
    Ok((0..df.height())
        .map(|i| HistoryRow {
            study: study[i].clone(),
            case: case[i].clone(),
            method: method[i].clone(),
            metric: metric[i].clone(),
            value: value[i],
            spread: spread[i],
            timing: timing[i].clone(),
            ..base.clone()
        })
        .collect())
}

/// Splits rows into runs: maximal stretches of consecutive rows with one
/// provenance (commit, date, host, suite, profile, rustc, CPU).
pub fn split_runs(rows: Vec<HistoryRow>) -> Vec<(RunEntry, Vec<HistoryRow>)> {
    let mut runs: Vec<(RunEntry, Vec<HistoryRow>)> = Vec::new();
    for row in rows {
        match runs.last_mut() {
            Some((entry, run)) if entry.holds(&row) => {
                entry.rows += 1;
                run.push(row);
            }
            _ => runs.push((RunEntry::of(std::slice::from_ref(&row)), vec![row])),
        }
    }
    runs
}

/// Writes runs into the store after those of `entries` (their files, then
/// the index once) and returns the new index.
pub fn write_runs(
    dir: &Path,
    mut entries: Vec<RunEntry>,
    runs: Vec<Vec<HistoryRow>>,
) -> Result<Vec<RunEntry>, OutputError> {
    let mut taken: std::collections::HashSet<String> =
        entries.iter().map(|e| e.run.clone()).collect();
    for rows in runs {
        let mut entry = RunEntry::of(&rows);
        entry.run = unique_stem(&entry, &taken);
        write_run_file(dir, &entry.run, &rows)?;
        taken.insert(entry.run.clone());
        entries.push(entry);
    }
    write_index(dir, &entries)?;
    Ok(entries)
}

/// Migrates `<dir>/history.csv` into the store when there is no index yet
/// (see the module doc) and returns the index (empty without either).
pub fn migrate(dir: &Path) -> Result<Vec<RunEntry>, OutputError> {
    if let Some(entries) = load_index(dir)? {
        return Ok(entries);
    }
    let history = load(&csv_path(dir))?;
    if history.rows.is_empty() {
        return Ok(Vec::new());
    }
    let runs = split_runs(history.rows)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    write_runs(dir, Vec::new(), runs)
}

/// The rows of the latest `runs` runs, oldest first. Without an index, a
/// `history.csv` (not yet migrated) is read instead, its latest `runs` runs.
pub fn load_recent(dir: &Path, runs: usize) -> Result<History, OutputError> {
    match load_index(dir)? {
        Some(entries) => read_latest(dir, &entries, runs),
        None => {
            let all = split_runs(load(&csv_path(dir))?.rows);
            let skip = all.len().saturating_sub(runs);
            Ok(History {
                rows: all.into_iter().skip(skip).flat_map(|(_, r)| r).collect(),
            })
        }
    }
}

/// The rows of the latest `runs` runs of the index `entries`, oldest first.
fn read_latest(dir: &Path, entries: &[RunEntry], runs: usize) -> Result<History, OutputError> {
    let mut rows = Vec::new();
    for entry in &entries[entries.len().saturating_sub(runs)..] {
        rows.extend(read_run_file(dir, entry)?);
    }
    Ok(History { rows })
}

/// Records a run when `run.record_history` (migrating an older
/// `history.csv` first): its file, the index, then `history.csv` rewritten
/// with the latest [`CSV_RUNS`] runs. Returns the latest [`WINDOW_RUNS`]
/// runs for the judge and the report (without recording: the same window
/// as it is).
pub fn record(dir: &Path, run: &RunResult) -> Result<History, OutputError> {
    if !run.record_history {
        return load_recent(dir, WINDOW_RUNS);
    }
    let mut entries = migrate(dir)?;
    let rows = run_rows(run);
    if !rows.is_empty() {
        entries = write_runs(dir, entries, vec![rows])?;
    }
    let history = read_latest(dir, &entries, WINDOW_RUNS)?;
    // The latest CSV_RUNS runs are the window's last rows, as many as the
    // index counts for them.
    let tail: usize = entries
        .iter()
        .rev()
        .take(CSV_RUNS.min(WINDOW_RUNS))
        .map(|e| e.rows)
        .sum();
    let recent = History {
        rows: history.rows[history.rows.len() - tail..].to_vec(),
    };
    let path = csv_path(dir);
    atomic::write_file(&path, &to_csv(&path, &recent)?)?;
    Ok(history)
}
