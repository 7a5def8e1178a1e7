//! Reading reference curves (`reference-data/**/*.csv`): a header row, the
//! abscissa first, strictly increasing; numeric columns; lines starting
//! with `#` are comments.

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
        table
            .try_push(name, "reference", values)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if table.nrows() == 0 {
        return Err(format!("{} has no data rows", path.display()));
    }
    if let Some(x) = table.abscissa() {
        strictly_increasing(&x.values).map_err(|row| {
            format!(
                "{}: the abscissa `{}` must increase strictly (a curve is compared point by point), but row {} has {} after {}",
                path.display(),
                x.name,
                row + 1,
                x.values[row],
                x.values[row - 1]
            )
        })?;
    }
    Ok(table)
}

/// Ok when every value exceeds the one before; else the first offending row.
fn strictly_increasing(x: &[f64]) -> Result<(), usize> {
    match x.windows(2).position(|w| w[1] <= w[0]) {
        Some(i) => Err(i + 1),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abscissa_must_increase_strictly() {
        assert_eq!(strictly_increasing(&[0.0, 1.0, 2.0]), Ok(()));
        assert_eq!(strictly_increasing(&[0.0, 1.0, 1.0]), Err(2));
        assert_eq!(strictly_increasing(&[0.0, 2.0, 1.0, 3.0]), Err(2));
    }

    #[test]
    fn a_file_with_a_repeated_abscissa_is_refused_with_the_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, "t,x0\n0,1\n0.5,2\n0.5,3\n1,4\n").unwrap();
        let err = read_csv(&path).unwrap_err();
        assert!(err.contains("increase strictly"), "{err}");
        assert!(err.contains("row 3"), "{err}");
    }
}
