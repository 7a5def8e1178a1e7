//! compare.csv and the printed table of a comparison.

use std::path::Path;

use super::comparison::{Comparison, Row, Values};
use super::error::CompareError;
use crate::harness::atomic;
use crate::harness::frame::{CellColumn, csv_bytes, frame};

/// compare.csv's columns.
pub const COLUMNS: [&str; 8] = [
    "benchmark",
    "measure",
    "base",
    "head",
    "ratio",
    "lo",
    "hi",
    "verdict",
];

/// Writes `rows` to `path` (atomically: a failed write leaves no half file).
pub fn write_csv(path: &Path, rows: &[Row]) -> Result<(), CompareError> {
    let text = |f: &dyn Fn(&Row) -> String| CellColumn::Text(rows.iter().map(f).collect());
    let float = |f: &dyn Fn(&Row) -> f64| CellColumn::Float(rows.iter().map(f).collect());
    let columns = vec![
        (COLUMNS[0].to_string(), text(&|r| r.benchmark.clone())),
        (COLUMNS[1].to_string(), text(&|r| r.measure.clone())),
        (COLUMNS[2].to_string(), float(&|r| r.judged.base)),
        (COLUMNS[3].to_string(), float(&|r| r.judged.head)),
        (COLUMNS[4].to_string(), float(&|r| r.judged.ratio)),
        (COLUMNS[5].to_string(), float(&|r| r.judged.lo)),
        (COLUMNS[6].to_string(), float(&|r| r.judged.hi)),
        (
            COLUMNS[7].to_string(),
            text(&|r| r.judged.verdict.name().to_string()),
        ),
    ];
    let err = |e: crate::error::OutputError| CompareError::Input(e.to_string());
    let mut df = frame(path, columns).map_err(err)?;
    let bytes = csv_bytes(path, &mut df).map_err(err)?;
    atomic::write_file(path, &bytes).map_err(err)
}

/// Writes every measured value to `path` (`compare-rounds.csv`:
/// `benchmark,measure,side,round,value`, side `base` or `head`, round from
/// 1; a count has round 1 only), so that a verdict can be checked by hand.
pub fn write_rounds(path: &Path, values: &[Values; 2]) -> Result<(), CompareError> {
    let mut rows: Vec<(String, String, &str, f64, f64)> = Vec::new();
    for (side, name) in values.iter().zip(["base", "head"]) {
        for ((benchmark, measure), v) in side {
            for (i, x) in v.iter().enumerate() {
                rows.push((benchmark.clone(), measure.clone(), name, (i + 1) as f64, *x));
            }
        }
    }
    let columns = vec![
        (
            "benchmark".to_string(),
            CellColumn::Text(rows.iter().map(|r| r.0.clone()).collect()),
        ),
        (
            "measure".to_string(),
            CellColumn::Text(rows.iter().map(|r| r.1.clone()).collect()),
        ),
        (
            "side".to_string(),
            CellColumn::Text(rows.iter().map(|r| r.2.to_string()).collect()),
        ),
        (
            "round".to_string(),
            CellColumn::counters(rows.iter().map(|r| Some(r.3)).collect()),
        ),
        (
            "value".to_string(),
            CellColumn::Float(rows.iter().map(|r| r.4).collect()),
        ),
    ];
    let err = |e: crate::error::OutputError| CompareError::Input(e.to_string());
    let mut df = frame(path, columns).map_err(err)?;
    let bytes = csv_bytes(path, &mut df).map_err(err)?;
    atomic::write_file(path, &bytes).map_err(err)
}

/// The table `compare` prints: every change, the largest first, then how
/// many benchmarks did not change and what only one side has.
pub fn table(c: &Comparison, threshold: f64) -> String {
    let mut s = format!(
        "base {} ({})  head {} ({})\n",
        c.base.name,
        c.base.short(),
        c.head.name,
        c.head.short()
    );
    let changed: Vec<&Row> = c
        .rows
        .iter()
        .filter(|r| r.judged.verdict != super::verdict::Verdict::Unchanged)
        .collect();
    let width = changed
        .iter()
        .map(|r| r.benchmark.len())
        .max()
        .unwrap_or(9)
        .max(9);
    if !changed.is_empty() {
        s.push_str(&format!(
            "{:<width$}  {:<16}  {:>12}  {:>12}  {:>7}  {:<17}  verdict\n",
            "benchmark", "measure", "base", "head", "ratio", "95 % interval"
        ));
    }
    for r in &changed {
        let j = &r.judged;
        let gate = if super::verdict::slower_beyond(j, threshold) {
            "  (beyond the threshold)"
        } else {
            ""
        };
        s.push_str(&format!(
            "{:<width$}  {:<16}  {:>12.5e}  {:>12.5e}  {:>7.3}  {:<17}  {}{gate}\n",
            r.benchmark,
            r.measure,
            j.base,
            j.head,
            j.ratio,
            format!("{:.3}-{:.3}", j.lo, j.hi),
            j.verdict.name()
        ));
    }
    let unchanged = c.rows.len() - changed.len();
    s.push_str(&format!(
        "{} changed, {unchanged} unchanged of {} measures\n",
        changed.len(),
        c.rows.len()
    ));
    for side in ["base", "head"] {
        let only: Vec<&str> = c
            .unmatched
            .iter()
            .filter(|u| u.1 == side)
            .map(|u| u.0.as_str())
            .collect();
        if only.is_empty() {
            continue;
        }
        let shown = only.len().min(6);
        let more = if only.len() > shown {
            format!(" and {} more", only.len() - shown)
        } else {
            String::new()
        };
        s.push_str(&format!(
            "not compared, only in {side} ({}): {}{more}\n",
            only.len(),
            only[..shown].join(", ")
        ));
    }
    s.push_str(&format!("compare.csv: {}\n", c.csv.display()));
    s
}
