//! Column-oriented tables of f64: the data behind every case CSV.
//!
//! Columns are found by name through a hash index, so building a table of c
//! columns costs O(c) (a 1e6-DOF state has 3e6 columns; a linear scan per
//! push made that O(c^2)).

use std::collections::HashMap;

/// One named column with its documentation (meaning and unit).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Column {
    /// Column name as written in the CSV header.
    pub name: String,
    /// Meaning and unit, shown in the report's column legend.
    pub doc: String,
    /// The values, one per row.
    pub values: Vec<f64>,
}

/// A table whose first column is the abscissa (`t` for time series).
///
/// Invariant: every column has the same length (enforced by [`Table::push`]).
#[derive(Debug, Clone, Default)]
pub struct Table {
    columns: Vec<Column>,
    /// Column name -> position in `columns`.
    index: HashMap<String, usize>,
}

/// Serialised as its columns (the index is rebuilt on reading): the form
/// in which a shard stores its jobs' tables for the merge.
impl serde::Serialize for Table {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&self.columns, serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Table {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let columns: Vec<Column> = serde::Deserialize::deserialize(deserializer)?;
        let mut table = Table::new();
        for c in columns {
            table
                .try_push(c.name, c.doc, c.values)
                .map_err(serde::de::Error::custom)?;
        }
        Ok(table)
    }
}

impl PartialEq for Table {
    fn eq(&self, other: &Self) -> bool {
        self.columns == other.columns
    }
}

impl Table {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a column. Panics if its length differs from the existing rows
    /// or its name is taken: both are programming errors of the study kind,
    /// never consequences of user input.
    pub fn push(&mut self, name: impl Into<String>, doc: impl Into<String>, values: Vec<f64>) {
        if let Err(message) = self.try_push(name, doc, values) {
            panic!("{message}");
        }
    }

    /// Appends a column, or says why it cannot be appended (its length
    /// differs from the existing rows, or its name is taken): for tables
    /// read from user files.
    pub fn try_push(
        &mut self,
        name: impl Into<String>,
        doc: impl Into<String>,
        values: Vec<f64>,
    ) -> Result<(), String> {
        let name = name.into();
        if !self.columns.is_empty() && self.columns[0].values.len() != values.len() {
            return Err(format!(
                "column `{name}` has {} rows, table has {}",
                values.len(),
                self.nrows()
            ));
        }
        if self.index.contains_key(&name) {
            return Err(format!("duplicate column `{name}`"));
        }
        self.index.insert(name.clone(), self.columns.len());
        self.columns.push(Column {
            name,
            doc: doc.into(),
            values,
        });
        Ok(())
    }

    /// Builder form of [`Table::push`].
    pub fn with(
        mut self,
        name: impl Into<String>,
        doc: impl Into<String>,
        values: Vec<f64>,
    ) -> Self {
        self.push(name, doc, values);
        self
    }

    /// All columns in order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Mutable access to the values of column `name` (used by tests that
    /// perturb results); names stay fixed, so the index stays valid.
    pub fn values_mut(&mut self, name: &str) -> Option<&mut [f64]> {
        let i = *self.index.get(name)?;
        Some(&mut self.columns[i].values)
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.index.get(name).map(|&i| &self.columns[i])
    }

    /// The values of column `name`.
    pub fn values(&self, name: &str) -> Option<&[f64]> {
        self.column(name).map(|c| c.values.as_slice())
    }

    /// The first column (the abscissa), if any.
    pub fn abscissa(&self) -> Option<&Column> {
        self.columns.first()
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.values.len())
    }

    /// Names of the columns matching `pattern`: an exact name, or a prefix
    /// followed by `*` standing for one or more digits (`x*` matches `x0`,
    /// `x12`, not `xa`).
    pub fn matching(&self, pattern: &str) -> Vec<&str> {
        self.columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|name| name_matches(pattern, name))
            .collect()
    }
}

/// A pattern with one `*` stands for one or more ASCII digits at that place
/// (`x*` matches `x0`, `x12`, not `xa`; `x*_max` matches `x3_max`); any
/// other pattern matches only itself.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((prefix, suffix)) => name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())),
        None => pattern == name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_matches_digit_suffixes_only() {
        assert!(name_matches("x*", "x0"));
        assert!(name_matches("x*", "x123"));
        assert!(!name_matches("x*", "x"));
        assert!(!name_matches("x*", "xa"));
        assert!(!name_matches("x*", "v0"));
        assert!(name_matches("t", "t"));
        assert!(!name_matches("t", "t0"));
        assert!(name_matches("x*_max", "x12_max"));
        assert!(!name_matches("x*_max", "x_max"));
        assert!(!name_matches("x*_max", "x1_min"));
    }

    #[test]
    #[should_panic(expected = "has 1 rows")]
    fn ragged_columns_are_rejected() {
        let _ = Table::new()
            .with("t", "", vec![0.0, 1.0])
            .with("x0", "", vec![0.0]);
    }
}
