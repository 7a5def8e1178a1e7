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
//! A symmetric tridiagonal pattern (a chain of masses with gaps to the
//! ground) is factored by [`tridiagonal::SymmetricTridiagonal`] instead,
//! L D L^T in O(n) as LAPACK's dpttrf does.
//! [`pattern`] checks and builds CSC patterns and names the errors of
//! both factorizations. [`convert`] turns nested row arrays into CSR and sparse matrices into
//! dense copies.

pub mod band;
pub mod convert;
pub mod csr;
pub mod grounded_chain;
pub mod llt;
pub mod lu;
pub mod obstacle;
pub mod pattern;
pub mod tridiagonal;

pub use convert::{csr_from_rows, to_dense};

pub use pattern::{SparseError, csc_from_columns};
