//! CSC patterns: building one from column lists, checking one, and the
//! errors of the fixed-pattern factorizations ([`super::llt`], [`super::lu`]).

/// Why a sparse factorization failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SparseError {
    /// The pattern is malformed (unsorted, out of range, missing diagonal).
    #[error("invalid sparsity pattern: {0}")]
    Pattern(String),
    /// faer could not build the symbolic factorization.
    #[error("symbolic factorization failed: {0}")]
    Symbolic(String),
    /// The numeric values are not positive definite.
    #[error("matrix is not positive definite")]
    NotPositiveDefinite,
    /// The matrix is singular (a zero pivot) or has non-finite values.
    #[error("matrix is singular or not finite")]
    Singular,
}

/// The CSC pattern of columns given as lists of row indices (each sorted
/// and deduplicated here): `(col_ptr, row_idx)`.
pub fn csc_from_columns(mut cols: Vec<Vec<usize>>) -> (Vec<usize>, Vec<usize>) {
    let mut col_ptr = Vec::with_capacity(cols.len() + 1);
    col_ptr.push(0);
    let mut row_idx = Vec::new();
    for c in &mut cols {
        c.sort_unstable();
        c.dedup();
        row_idx.extend_from_slice(c);
        col_ptr.push(row_idx.len());
    }
    (col_ptr, row_idx)
}

/// Checks an n x n CSC pattern: pointer lengths and ends, rows sorted,
/// unique and in range within each column.
pub(crate) fn validate_csc(
    n: usize,
    col_ptr: &[usize],
    row_idx: &[usize],
) -> Result<(), SparseError> {
    if col_ptr.len() != n + 1 || col_ptr[0] != 0 || col_ptr[n] != row_idx.len() {
        return Err(SparseError::Pattern(format!(
            "col_ptr of length {} for n = {n} and {} entries",
            col_ptr.len(),
            row_idx.len()
        )));
    }
    for j in 0..n {
        let rows = &row_idx[col_ptr[j]..col_ptr[j + 1]];
        if rows.windows(2).any(|w| w[0] >= w[1]) || rows.last().is_some_and(|&i| i >= n) {
            return Err(SparseError::Pattern(format!(
                "column {j}: rows unsorted or out of range"
            )));
        }
    }
    Ok(())
}
