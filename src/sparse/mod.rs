//! Sparse machinery for non-smooth implicit steps.
//!
//! [`llt::SparseLlt`] keeps one symbolic Cholesky factorization of a fixed
//! pattern and refactors its values in place; [`lu::SparseLu`] does the same
//! with a sparse LU for matrices that are not symmetric positive definite
//! (non-symmetric damping or stiffness, friction, KKT systems). [`obstacle::ObstacleSystem`]
//! solves the monotone piecewise-linear equation
//!
//!   A x + B^T K max(0, B x - c) = r        (K = diag(k_j) > 0)
//!
//! by a semi-smooth Newton / primal-dual active-set iteration (Hintermüller,
//! Ito & Kunisch, SIAM J. Optim. 13 (2002) 865-888): on the active set
//! S = {j : b_j x > c_j} the equation is linear with the SPD Jacobian
//! A + B_S^T K_S B_S, whose pattern is contained in that of A + B^T B, so
//! one symbolic factorization serves every iteration and every time step.
//! The equation is the gradient of the strictly convex piecewise quadratic
//! phi(x) = x.A x / 2 + sum_j k_j max(0, b_j x - c_j)^2 / 2 - r.x, which a
//! backtracking line search decreases when the active set changes, so the
//! iteration terminates at the exact solution (finitely many pieces).
//! Warm-started from the previous time step's solution it typically needs
//! one factorization per step (two when the active set changes). A
//! non-symmetric A is factored by LU and globalised on the residual norm;
//! every solution is graded by its residual (see `obstacle`).
//! [`convert`] turns nested row arrays into CSR and sparse matrices into
//! dense copies.

pub mod convert;
pub mod csr;
pub mod llt;
pub mod lu;
pub mod obstacle;

pub use convert::{csr_from_rows, to_dense};

use llt::SparseError;

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
