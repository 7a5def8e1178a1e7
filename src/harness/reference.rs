//! Reading reference curves (`reference-data/**/*.csv`): a header row, the
//! abscissa first, numeric columns; lines starting with `#` are comments.

use std::path::Path;

use polars::prelude::*;

use crate::harness::table::Table;

/// Reads a reference CSV into a [`Table`]; the error says what is wrong
/// (for the caller to wrap with the file and key that named it).
pub fn read_csv(path: &Path) -> Result<Table, String> {
    if !path.is_file() {
        return Err(format!("no such file ({})", path.display()));
    }
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .with_parse_options(CsvParseOptions::default().with_comment_prefix(Some("#")))
        .try_into_reader_with_file_path(Some(path.to_path_buf()))
        .and_then(|r| r.finish())
        .map_err(|e| format!("cannot read CSV {}: {e}", path.display()))?;
    let mut table = Table::new();
    for column in df.columns() {
        let name = column.name().to_string();
        let values = column
            .cast(&DataType::Float64)
            .map_err(|e| format!("column `{name}` of {} is not numeric: {e}", path.display()))?;
        let values: Vec<f64> = values
            .f64()
            .map_err(|e| format!("column `{name}` of {}: {e}", path.display()))?
            .iter()
            .map(|v| v.unwrap_or(f64::NAN))
            .collect();
        if values.iter().any(|v| v.is_nan()) {
            return Err(format!(
                "column `{name}` of {} has empty or non-numeric cells",
                path.display()
            ));
        }
        table.push(name, "reference", values);
    }
    if table.nrows() == 0 {
        return Err(format!("{} has no data rows", path.display()));
    }
    Ok(table)
}
