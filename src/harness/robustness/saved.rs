//! Saved robustness runs read back for a plain run's report.
//!
//! A robustness run costs hours (64 samples of every box), so it is made
//! now and then and kept: `PATH --robustness N --out OUT/robustness
//! --report REPORT/robustness`, or for some studies only (`--only`) into
//! `OUT/robustness-<name>`. A plain run writing to `OUT` finds them there
//! and its report gives each claim's robustness from them, with each
//! run's commit and date. A study's claims come from the newest run (by
//! its manifest's date) that has the study; older runs' rows of it are
//! dropped. The figures are drawn again from each study's samples
//! (`<study>/robustness.csv`) with the current spec's assumptions (their
//! units and nominal values).

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use polars::prelude::{self as pl, SerReader};

use crate::error::OutputError;
use crate::harness::frame::{format_error, strings};
use crate::harness::spec::Assumption;

use super::attach::{FAILED, MEASURED, TABLE};

/// `<out>/robustness/` (and `<out>/robustness-<name>/`): where a plain
/// run looks for saved runs.
pub const DIR: &str = "robustness";

/// One study's samples in a saved run: the assumed keys' values and each
/// claim's verdicts (`<study>/robustness.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct SavedTable {
    /// The assumed keys, in column order.
    pub keys: Vec<String>,
    /// Per sample, the keys' values.
    pub values: Vec<Vec<f64>>,
    /// Per claim (column order), its verdict in each sample (None: not
    /// judged).
    pub verdicts: Vec<(String, Vec<Option<bool>>)>,
    /// The current spec's assumptions of the study, in `keys` order, when
    /// they are the same keys (set by [`with_assumptions`]); the figures
    /// need their units and nominal values.
    pub assumptions: Option<Vec<Assumption>>,
}

/// One claim of the saved run.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedClaim {
    /// Study name.
    pub study: String,
    /// Claim id.
    pub claim: String,
    /// Its verdict at the nominal values in the saved run.
    pub verdict: String,
    /// `holds_in` with its 95 % interval; None for a claim without samples.
    pub holds: Option<(f64, f64, f64)>,
    /// The sentence (`robustness` of claims.csv).
    pub sentence: String,
}

/// The saved run: provenance, samples per study, claims.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRobustness {
    /// Its commit, and whether the tree was dirty.
    pub commit: String,
    /// Whether its tree had uncommitted changes.
    pub dirty: bool,
    /// Its date (RFC 3339).
    pub date: String,
    /// Its command line.
    pub command: String,
    /// Each part's wall time [s] for a merged (sharded) run; empty for a
    /// single run.
    pub parts_wall_s: Vec<f64>,
    /// Each study's samples (`<study>/robustness.csv`).
    pub tables: BTreeMap<String, SavedTable>,
    /// Its claims with samples, in claims.csv order.
    pub claims: Vec<SavedClaim>,
}

impl SavedRobustness {
    /// The saved claim `claim` of `study`, if it has samples.
    pub fn claim(&self, study: &str, claim: &str) -> Option<&SavedClaim> {
        self.claims
            .iter()
            .find(|c| c.study == study && c.claim == claim)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, OutputError> {
    std::fs::read(path).map_err(|source| OutputError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Every column of a CSV file as text.
fn text_frame(path: &Path) -> Result<pl::DataFrame, OutputError> {
    pl::CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .into_reader_with_file_handle(Cursor::new(read(path)?))
        .finish()
        .map_err(|e| format_error(path, e))
}

fn number(path: &Path, column: &str, cell: &str) -> Result<Option<f64>, OutputError> {
    if cell.is_empty() {
        return Ok(None);
    }
    cell.parse()
        .map(Some)
        .map_err(|_| format_error(path, format!("column {column}: `{cell}` is not a number")))
}

/// The table `<dir>/<study>/robustness.csv` whose claim columns are
/// `claims`.
fn table(dir: &Path, study: &str, claims: &[&str]) -> Result<SavedTable, OutputError> {
    let path = dir.join(study).join(format!("{TABLE}.csv"));
    let df = text_frame(&path)?;
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    let keys: Vec<String> = names
        .iter()
        .filter(|n| {
            n.as_str() != "sample"
                && n.as_str() != FAILED
                && !claims.contains(&n.as_str())
                && !n.ends_with(MEASURED)
        })
        .cloned()
        .collect();
    let mut values = vec![Vec::with_capacity(keys.len()); df.height()];
    for key in &keys {
        for (row, cell) in values.iter_mut().zip(strings(&df, key, &path)?) {
            row.push(number(&path, key, &cell)?.unwrap_or(f64::NAN));
        }
    }
    let mut verdicts = Vec::with_capacity(claims.len());
    for &claim in claims.iter().filter(|c| names.iter().any(|n| n == *c)) {
        let cells = strings(&df, claim, &path)?;
        let v = cells
            .iter()
            .map(|c| match c.as_str() {
                "true" => Ok(Some(true)),
                "false" => Ok(Some(false)),
                "" => Ok(None),
                other => Err(format_error(
                    &path,
                    format!("column {claim}: `{other}` is not true, false or empty"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        verdicts.push((claim.to_string(), v));
    }
    Ok(SavedTable {
        keys,
        values,
        verdicts,
        assumptions: None,
    })
}

/// The saved run in `dir`, or None when there is none (no claims.csv
/// there). A run that is there but cannot be read is an error naming the
/// file.
pub fn load_dir(dir: &Path) -> Result<Option<SavedRobustness>, OutputError> {
    let dir = dir.to_path_buf();
    let claims_path = dir.join("claims.csv");
    if !claims_path.is_file() {
        return Ok(None);
    }
    let manifest_path = dir.join("manifest.json");
    let manifest: serde_json::Value = serde_json::from_slice(&read(&manifest_path)?)
        .map_err(|e| format_error(&manifest_path, e))?;
    let field = |key: &str| {
        manifest
            .get(key)
            .and_then(serde_json::Value::as_str)
            .unwrap_or("unknown")
            .to_string()
    };
    let parts_wall_s = manifest
        .get("shards")
        .and_then(serde_json::Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("wall_s").and_then(serde_json::Value::as_f64))
                .collect()
        })
        .unwrap_or_default();
    let df = text_frame(&claims_path)?;
    let text = |name: &str| strings(&df, name, &claims_path);
    let (study, claim, verdict) = (text("study")?, text("claim")?, text("verdict")?);
    let (holds_in, lo, hi) = (text("holds_in")?, text("holds_lo")?, text("holds_hi")?);
    let sentence = text("robustness")?;
    let mut claims = Vec::new();
    for i in 0..df.height() {
        let h = number(&claims_path, "holds_in", &holds_in[i])?;
        if h.is_none() && sentence[i].is_empty() {
            continue;
        }
        let lo = number(&claims_path, "holds_lo", &lo[i])?;
        let hi = number(&claims_path, "holds_hi", &hi[i])?;
        claims.push(SavedClaim {
            study: study[i].clone(),
            claim: claim[i].clone(),
            verdict: verdict[i].clone(),
            holds: h.map(|h| (h, lo.unwrap_or(f64::NAN), hi.unwrap_or(f64::NAN))),
            sentence: sentence[i].clone(),
        });
    }
    // Every claim of the study names a column (one without samples too),
    // so that the rest are the assumed keys.
    let mut tables = BTreeMap::new();
    for c in &claims {
        if !tables.contains_key(&c.study) {
            let ids: Vec<&str> = (0..df.height())
                .filter(|&i| study[i] == c.study)
                .map(|i| claim[i].as_str())
                .collect();
            tables.insert(c.study.clone(), table(&dir, &c.study, &ids)?);
        }
    }
    Ok(Some(SavedRobustness {
        commit: field("commit"),
        dirty: manifest
            .get("dirty")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true),
        date: field("date"),
        command: field("command"),
        parts_wall_s,
        tables,
        claims,
    }))
}

/// The saved runs under `<out>` (`robustness/`, `robustness-*/`), oldest
/// first, each keeping only the studies no newer run has (runs left
/// without a study are dropped); a run that cannot be read is returned
/// as its error and left out.
pub fn load(out: &Path) -> (Vec<SavedRobustness>, Vec<OutputError>) {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(out)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.is_dir()
                        && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                            n == DIR || n.strip_prefix(DIR).is_some_and(|r| r.starts_with('-'))
                        })
                })
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut runs = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        match load_dir(&dir) {
            Ok(Some(run)) => runs.push(run),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    // RFC 3339 dates in one zone order as text.
    runs.sort_by(|a, b| a.date.cmp(&b.date));
    for i in 0..runs.len() {
        let newer: Vec<String> = runs[i + 1..]
            .iter()
            .flat_map(|r| r.tables.keys().cloned())
            .collect();
        let run = &mut runs[i];
        run.claims.retain(|c| !newer.contains(&c.study));
        run.tables.retain(|study, _| !newer.contains(study));
    }
    runs.retain(|r| !r.claims.is_empty());
    (runs, errors)
}

/// Attaches to each saved table the assumptions of the study of that name
/// in `specs` (study name, assumptions) when they are the same keys.
pub fn with_assumptions<'a>(
    runs: &mut [SavedRobustness],
    specs: impl IntoIterator<Item = (&'a str, &'a [Assumption])> + Clone,
) {
    for run in runs {
        for (study, table) in &mut run.tables {
            table.assumptions = specs
                .clone()
                .into_iter()
                .find(|(name, _)| name == study)
                .and_then(|(_, assumptions)| {
                    table
                        .keys
                        .iter()
                        .map(|k| assumptions.iter().find(|a| &a.key == k).cloned())
                        .collect()
                });
        }
    }
}
