//! A saved robustness run read back for a plain run's report.
//!
//! A robustness run costs hours (64 samples of every box), so it is made
//! now and then and kept: `PATH --robustness N --out OUT/robustness
//! --report REPORT/robustness`. A plain run writing to `OUT` finds it
//! there and its report gives each claim's robustness from it, with the
//! run's commit and date, and draws the saved run's figures
//! (`REPORT/robustness/figures/`).

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use polars::prelude::{self as pl, SerReader};

use crate::error::OutputError;
use crate::harness::frame::{format_error, strings};

use super::attach::TABLE;

/// `<out>/robustness/`: where a plain run looks for the saved run.
pub const DIR: &str = "robustness";

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
    /// `<out>/robustness/`.
    pub dir: PathBuf,
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
    /// Samples per study (rows of `<study>/robustness.csv`).
    pub samples: BTreeMap<String, usize>,
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

/// The saved run under `<out>/robustness/`, or None when there is none
/// (no claims.csv there). A run that is there but cannot be read is an
/// error naming the file.
pub fn load(out: &Path) -> Result<Option<SavedRobustness>, OutputError> {
    let dir = out.join(DIR);
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
    let mut samples = BTreeMap::new();
    for i in 0..df.height() {
        let h = number(&claims_path, "holds_in", &holds_in[i])?;
        if h.is_none() && sentence[i].is_empty() {
            continue;
        }
        if !samples.contains_key(&study[i]) {
            let table = dir.join(&study[i]).join(format!("{TABLE}.csv"));
            samples.insert(study[i].clone(), text_frame(&table)?.height());
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
    Ok(Some(SavedRobustness {
        dir,
        commit: field("commit"),
        dirty: manifest
            .get("dirty")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true),
        date: field("date"),
        command: field("command"),
        parts_wall_s,
        samples,
        claims,
    }))
}
