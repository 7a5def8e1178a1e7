//! Column-oriented tables of f64: the data behind every case CSV.

/// One named column with its documentation (meaning and unit).
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    columns: Vec<Column>,
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
        let name = name.into();
        assert!(
            self.columns.is_empty() || self.columns[0].values.len() == values.len(),
            "column `{name}` has {} rows, table has {}",
            values.len(),
            self.nrows()
        );
        assert!(self.column(&name).is_none(), "duplicate column `{name}`");
        self.columns.push(Column {
            name,
            doc: doc.into(),
            values,
        });
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

    /// Mutable access to the columns (used by tests that perturb results).
    pub fn columns_mut(&mut self) -> &mut [Column] {
        &mut self.columns
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
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

/// `x*` matches `x` followed by one or more ASCII digits; any other pattern
/// matches only itself.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name
            .strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())),
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
    }

    #[test]
    #[should_panic(expected = "has 1 rows")]
    fn ragged_columns_are_rejected() {
        let _ = Table::new()
            .with("t", "", vec![0.0, 1.0])
            .with("x0", "", vec![0.0]);
    }
}
