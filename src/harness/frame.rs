//! Result tables as polars frames: typed columns, a frame from named
//! columns, and its CSV and Parquet bytes. The results and the history
//! write through it.

use std::path::Path;

use polars::prelude::{self as pl, ParquetWriter, SerWriter};

use crate::error::OutputError;

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

/// The error of a table that could not be built or encoded, naming its file.
pub(crate) fn format_error(path: &Path, e: impl std::fmt::Display) -> OutputError {
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

/// The text column `name` of `df` (a missing cell is empty); errors name
/// `path`.
pub fn strings(df: &pl::DataFrame, name: &str, path: &Path) -> Result<Vec<String>, OutputError> {
    let col = df
        .column(name)
        .and_then(|c| c.str().cloned())
        .map_err(|e| format_error(path, e))?;
    Ok(col
        .iter()
        .map(|v| v.unwrap_or_default().to_string())
        .collect())
}

/// The float column `name` of `df` (a missing cell is NaN).
pub fn floats(df: &pl::DataFrame, name: &str, path: &Path) -> Result<Vec<f64>, OutputError> {
    let col = df
        .column(name)
        .and_then(|c| c.f64().cloned())
        .map_err(|e| format_error(path, e))?;
    Ok(col.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
}
