//! Semi-smooth Newton (primal-dual active set) for
//! A x + B^T K max(0, B x - c) = r with a fixed sparsity pattern (see the
//! module doc of `sparse`).
//!
//! A symmetric positive definite A (the common case) uses the sparse
//! Cholesky factorization and, after a few plain active-set steps, a line
//! search on the convex merit function
//! phi(x) = x.A x / 2 + sum_j k_j max(0, b_j x - c_j)^2 / 2 - r.x. Any
//! other A (a non-symmetric damping or stiffness matrix) uses the sparse LU
//! factorization and the merit theta(x) = |F(x)|^2 / 2 of the residual
//! F(x) = A x + B^T K max(0, B x - c) - r with an Armijo condition
//! (theta(x + t d) <= (1 - 2 sigma t) theta(x), sigma = 1e-4: along the
//! semi-smooth Newton direction theta decreases at rate 2 theta).
//!
//! Every accepted solution is graded by the relative residual of the
//! equation it solves, computed with the full matrix A (not with the
//! factorization): |F(x)|_inf / max(|A x|_inf, |r|_inf, |B^T K max(0, Bx - c)|_inf).
//! A solution above the tolerance is an error, never an acceptance, and a
//! line search that cannot decrease its merit function reports failure.

use sprs::CsMat;

use crate::sparse::csr::Csr;
use crate::sparse::grounded_chain::GroundedChain;
use crate::sparse::llt::{SparseError, SparseLlt};
use crate::sparse::lu::SparseLu;
use crate::sparse::tridiagonal::SymmetricTridiagonal;

/// Parameters of the active-set iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObstacleParams {
    /// Most Newton iterations per solve.
    pub max_iterations: usize,
    /// Most halvings of the step in the line search; the smallest step is
    /// 2^-max_backtracks.
    pub max_backtracks: usize,
    /// Iterations that take the full Newton step before the line search on
    /// the merit function is switched on (the plain primal-dual active-set
    /// method converges monotonically for M-matrices, the common case; the
    /// line search makes it converge for every SPD A).
    pub full_steps: usize,
    /// Largest relative residual of an accepted solution (see the module doc).
    pub tolerance: f64,
}

impl Default for ObstacleParams {
    fn default() -> Self {
        Self {
            max_iterations: 100,
            max_backtracks: 40,
            full_steps: 6,
            tolerance: 1e-9,
        }
    }
}

/// What a solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ObstacleInfo {
    /// Newton iterations (each one factorization, or one reuse, and a solve).
    pub iterations: usize,
    /// Active constraints at the solution.
    pub active: usize,
    /// Line-search backtracks taken.
    pub backtracks: usize,
    /// Relative residual of the accepted solution.
    pub residual: f64,
}

/// Why a solve failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ObstacleError {
    /// The Jacobian could not be factored.
    #[error(transparent)]
    Factorization(#[from] SparseError),
    /// No fixed active set within the iteration limit.
    #[error("no convergence after {iterations} iterations ({active} active)")]
    NoConvergence {
        /// Iterations done.
        iterations: usize,
        /// Active constraints at the last iterate.
        active: usize,
    },
    /// The line search could not decrease the merit function.
    #[error(
        "line search failed at iteration {iteration}: no decrease of the merit function down to step 2^-{backtracks}"
    )]
    NoDescent {
        /// The Newton iteration.
        iteration: usize,
        /// Halvings tried.
        backtracks: usize,
    },
    /// The solution's residual is above the tolerance.
    #[error("residual {residual:e} of the solution above the tolerance {tolerance:e}")]
    Inaccurate {
        /// Relative residual.
        residual: f64,
        /// The tolerance.
        tolerance: f64,
    },
    /// A and B do not fit together.
    #[error("dimensions: {0}")]
    Dimensions(String),
}

/// The factorization of the Jacobian: L D L^T of a symmetric tridiagonal
/// pattern (a chain), Cholesky of its lower triangle for any other
/// symmetric A, LU of the full pattern otherwise.
enum Factor {
    Tridiagonal(SymmetricTridiagonal),
    Llt(SparseLlt),
    Lu(SparseLu),
}

impl Factor {
    fn position(&self, i: usize, j: usize) -> Option<usize> {
        match self {
            Factor::Tridiagonal(f) => f.position(i, j),
            Factor::Llt(f) => f.position(i, j),
            Factor::Lu(f) => f.position(i, j),
        }
    }
    fn values_mut(&mut self) -> &mut [f64] {
        match self {
            Factor::Tridiagonal(f) => f.values_mut(),
            Factor::Llt(f) => f.values_mut(),
            Factor::Lu(f) => f.values_mut(),
        }
    }
    fn factorize(&mut self) -> Result<(), SparseError> {
        match self {
            Factor::Tridiagonal(f) => f.factorize(),
            Factor::Llt(f) => f.factorize(),
            Factor::Lu(f) => f.factorize(),
        }
    }
    fn solve_in_place(&mut self, x: &mut [f64]) -> Result<(), SparseError> {
        match self {
            Factor::Tridiagonal(f) => f.solve_in_place(x),
            Factor::Llt(f) => {
                f.solve_in_place(x);
                Ok(())
            }
            Factor::Lu(f) => f.solve_in_place(x),
        }
    }
    fn factorizations(&self) -> usize {
        match self {
            Factor::Tridiagonal(f) => f.factorizations(),
            Factor::Llt(f) => f.factorizations(),
            Factor::Lu(f) => f.factorizations(),
        }
    }
    fn nnz(&self) -> usize {
        match self {
            Factor::Tridiagonal(f) => f.nnz(),
            Factor::Llt(f) => f.nnz(),
            Factor::Lu(f) => f.nnz(),
        }
    }
    fn factor_nnz(&self) -> usize {
        match self {
            Factor::Tridiagonal(f) => f.nnz(),
            Factor::Llt(f) => f.factor_nnz(),
            Factor::Lu(f) => f.nnz(),
        }
    }
}

/// Whether A equals its transpose to 1e-14 of its largest entry.
pub fn is_symmetric(a: &CsMat<f64>) -> bool {
    let scale = a.data().iter().fold(0.0f64, |m, v| m.max(v.abs()));
    a.iter().all(|(&v, (i, j))| {
        let w = a.get(j, i).copied().unwrap_or(0.0);
        (v - w).abs() <= 1e-14 * scale
    })
}

/// The equation's data, its Jacobian pattern, and the reusable factorization.
pub struct ObstacleSystem {
    n: usize,
    /// A, CSR (both triangles stored).
    a: Csr,
    /// B, CSR, m x n.
    b: Csr,
    /// k_j > 0.
    k: Vec<f64>,
    factor: Factor,
    /// The two-pass Newton iteration of a chain with gaps to the ground
    /// (used instead of `factor` when present).
    fused: Option<GroundedChain>,
    /// Values of A in the factor's pattern order.
    base: Vec<f64>,
    /// For each constraint j, the (position, b_ji b_jl) of b_j^T b_j in the
    /// factor's pattern.
    updates: Vec<Vec<(usize, f64)>>,
    active: Vec<bool>,
    /// The active set of the current factorization (valid when `factored_valid`).
    factored_set: Vec<bool>,
    factored_valid: bool,
    /// Scratch: B x - c, trial point, line-search point, residual.
    y: Vec<f64>,
    trial: Vec<f64>,
    point: Vec<f64>,
    res: Vec<f64>,
}

impl ObstacleSystem {
    /// Builds the Jacobian pattern (A + B^T B: its lower triangle for a
    /// symmetric A, all of it otherwise) and its symbolic factorization.
    pub fn new(a: &CsMat<f64>, b: &CsMat<f64>, k: &[f64]) -> Result<Self, ObstacleError> {
        let n = a.rows();
        if a.cols() != n || b.cols() != n || b.rows() != k.len() {
            return Err(ObstacleError::Dimensions(format!(
                "A {}x{}, B {}x{}, k {}",
                a.rows(),
                a.cols(),
                b.rows(),
                b.cols(),
                k.len()
            )));
        }
        let symmetric = is_symmetric(a);
        let keep = |i: usize, j: usize| !symmetric || i >= j;
        let a_csr = Csr::from_sprs(a);
        let b_csr = Csr::from_sprs(b);
        let a = a.to_csr();
        let b = b.to_csr();
        // Pattern per column: A's entries, B^T B's, and the diagonal.
        let mut cols: Vec<Vec<usize>> = (0..n).map(|j| vec![j]).collect();
        for (_, (i, j)) in a.iter() {
            if keep(i, j) {
                cols[j].push(i);
            }
        }
        for row in b.outer_iterator() {
            let idx: Vec<usize> = row.indices().to_vec();
            for &p in &idx {
                for &q in &idx {
                    if keep(p, q) {
                        cols[q].push(p);
                    }
                }
            }
        }
        let (col_ptr, row_idx) = crate::sparse::csc_from_columns(cols);
        let tridiagonal = symmetric && SymmetricTridiagonal::fits(n, &col_ptr, &row_idx);
        let fused = GroundedChain::detect(&a_csr, &b_csr, k, tridiagonal);
        let factor = if tridiagonal {
            Factor::Tridiagonal(SymmetricTridiagonal::new(n))
        } else if symmetric {
            Factor::Llt(SparseLlt::new(n, col_ptr, row_idx)?)
        } else {
            Factor::Lu(SparseLu::new(n, col_ptr, row_idx)?)
        };
        let missing = || ObstacleError::Dimensions("pattern".into());
        let mut base = vec![0.0; factor.nnz()];
        for (&v, (i, j)) in a.iter() {
            if keep(i, j) {
                base[factor.position(i, j).ok_or_else(missing)?] += v;
            }
        }
        let mut updates = Vec::with_capacity(b.rows());
        for row in b.outer_iterator() {
            let mut u = Vec::new();
            for (p, &bp) in row.iter() {
                for (q, &bq) in row.iter() {
                    if keep(p, q) {
                        u.push((factor.position(p, q).ok_or_else(missing)?, bp * bq));
                    }
                }
            }
            updates.push(u);
        }
        let m = b.rows();
        Ok(Self {
            n,
            a: a_csr,
            b: b_csr,
            k: k.to_vec(),
            factor,
            fused,
            base,
            updates,
            active: vec![false; m],
            factored_set: vec![false; m],
            factored_valid: false,
            y: vec![0.0; m],
            trial: vec![0.0; n],
            point: vec![0.0; n],
            res: vec![0.0; n],
        })
    }

    /// Number of unknowns.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// The factorization of the Jacobian: "tridiagonal" (L D L^T),
    /// "cholesky" (sparse LL^T) or "lu".
    pub fn factorization(&self) -> &'static str {
        match self.factor {
            Factor::Tridiagonal(_) => "tridiagonal",
            Factor::Llt(_) => "cholesky",
            Factor::Lu(_) => "lu",
        }
    }

    /// Whether the Jacobian is factored by LU (A not symmetric).
    pub fn uses_lu(&self) -> bool {
        matches!(self.factor, Factor::Lu(_))
    }

    /// Numeric factorizations so far (over all solves).
    pub fn factorizations(&self) -> usize {
        self.factor.factorizations() + self.fused.as_ref().map_or(0, |f| f.factorizations())
    }

    /// Nonzeros of the stored Jacobian pattern and of its factor (LU: of
    /// the pattern).
    pub fn pattern_sizes(&self) -> (usize, usize) {
        (self.factor.nnz(), self.factor.factor_nnz())
    }

    /// The active set of the last solve.
    pub fn active(&self) -> &[bool] {
        &self.active
    }

    /// The openings B x - c of the last accepted solution x (valid after a
    /// successful [`Self::solve`]).
    pub fn openings_of_solution(&self) -> &[f64] {
        &self.y
    }

    /// Sets the active set to {j : b_j x > c_j} (openings kept in self.y).
    fn refresh_active(&mut self, x: &[f64], c: &[f64]) {
        let mut y = std::mem::take(&mut self.y);
        self.openings(x, c, &mut y);
        for (a, &yj) in self.active.iter_mut().zip(&y) {
            *a = yj > 0.0;
        }
        self.y = y;
    }

    /// y = B x - c.
    fn openings(&self, x: &[f64], c: &[f64], y: &mut [f64]) {
        if let Some(chain) = &self.fused {
            chain.openings(x, c, y);
            return;
        }
        self.b.mul_vec(x, y);
        for (yj, cj) in y.iter_mut().zip(c) {
            *yj -= cj;
        }
    }

    /// phi(x) = x.A x / 2 + sum k_j max(0, y_j)^2 / 2 - r.x (the merit
    /// function of a symmetric A).
    fn energy(&mut self, x: &[f64], c: &[f64], r: &[f64]) -> f64 {
        let mut y = std::mem::take(&mut self.y);
        self.openings(x, c, &mut y);
        let mut phi = 0.0;
        for i in 0..self.n {
            phi += 0.5 * x[i] * self.a.row_dot(i, x) - r[i] * x[i];
        }
        for (j, &yj) in y.iter().enumerate() {
            if yj > 0.0 {
                phi += 0.5 * self.k[j] * yj * yj;
            }
        }
        self.y = y;
        phi
    }

    /// F(x) = A x + B^T K max(0, B x - c) - r into `self.res`; returns
    /// (|F|_inf, the scale of the relative residual, |F|_2^2 / 2).
    fn residual(&mut self, x: &[f64], c: &[f64], r: &[f64]) -> (f64, f64, f64) {
        let mut res = std::mem::take(&mut self.res);
        let mut y = std::mem::take(&mut self.y);
        self.a.mul_vec(x, &mut res);
        let mut scale = 0.0f64;
        for (ri, &rr) in res.iter_mut().zip(r) {
            scale = scale.max(ri.abs()).max(rr.abs());
            *ri -= rr;
        }
        self.openings(x, c, &mut y);
        let mut contact = 0.0f64;
        for (j, &yj) in y.iter().enumerate().take(self.k.len()) {
            if yj > 0.0 {
                let f = self.k[j] * yj;
                let (idx, val) = self.b.row(j);
                for (&i, &v) in idx.iter().zip(val) {
                    res[i] += v * f;
                    contact = contact.max((v * f).abs());
                }
            }
        }
        let norm = res.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let half_sq = 0.5 * res.iter().map(|v| v * v).sum::<f64>();
        self.res = res;
        self.y = y;
        (norm, scale.max(contact).max(f64::MIN_POSITIVE), half_sq)
    }

    /// The relative residual of `x` (see the module doc).
    pub fn relative_residual(&mut self, x: &[f64], c: &[f64], r: &[f64]) -> f64 {
        let (norm, scale) = match &self.fused {
            Some(chain) => chain.residual(x, c, r),
            None => {
                let (norm, scale, _) = self.residual(x, c, r);
                (norm, scale)
            }
        };
        norm / scale
    }

    /// The Newton point of the current active set into `trial` and its
    /// openings into `self.y`; returns whether its own active set is the
    /// current one.
    fn newton_point(
        &mut self,
        r: &[f64],
        c: &[f64],
        trial: &mut [f64],
    ) -> Result<bool, ObstacleError> {
        let mut y = std::mem::take(&mut self.y);
        let same = if let Some(chain) = &mut self.fused {
            chain
                .newton_point(&self.active, r, c, trial, &mut y)
                .map_err(ObstacleError::from)
        } else {
            self.general_newton_point(r, c, trial, &mut y)
        };
        self.y = y;
        same
    }

    /// [`Self::newton_point`] by the factorization of the pattern:
    /// J = A + B_S^T K_S B_S, rhs = r + B_S^T K_S c_S.
    fn general_newton_point(
        &mut self,
        r: &[f64],
        c: &[f64],
        trial: &mut [f64],
        y: &mut [f64],
    ) -> Result<bool, ObstacleError> {
        self.factor_for_active_set()?;
        trial.copy_from_slice(r);
        for (j, _) in self.active.iter().enumerate().filter(|(_, a)| **a) {
            let (idx, val) = self.b.row(j);
            for (&i, &v) in idx.iter().zip(val) {
                trial[i] += self.k[j] * c[j] * v;
            }
        }
        self.factor.solve_in_place(trial)?;
        self.openings(trial, c, y);
        Ok(y.iter().zip(&self.active).all(|(&yj, &a)| (yj > 0.0) == a))
    }

    /// The merit function of the line search at `x`.
    fn merit(&mut self, x: &[f64], c: &[f64], r: &[f64]) -> f64 {
        if self.uses_lu() {
            self.residual(x, c, r).2
        } else {
            self.energy(x, c, r)
        }
    }

    /// Factors J = A + B_S^T K_S B_S for the current active set S, unless
    /// the last factorization was of that set.
    fn factor_for_active_set(&mut self) -> Result<(), ObstacleError> {
        if self.factored_valid && self.factored_set == self.active {
            return Ok(());
        }
        let values = self.factor.values_mut();
        values.copy_from_slice(&self.base);
        for (j, u) in self.updates.iter().enumerate() {
            if self.active[j] {
                for &(pos, coef) in u {
                    values[pos] += self.k[j] * coef;
                }
            }
        }
        self.factored_valid = false;
        self.factor.factorize()?;
        self.factored_set.copy_from_slice(&self.active);
        self.factored_valid = true;
        Ok(())
    }

    /// Solves A x + B^T K max(0, B x - c) = r. `x` holds the warm start on
    /// entry (its active set starts the iteration) and the solution on exit.
    pub fn solve(
        &mut self,
        r: &[f64],
        c: &[f64],
        x: &mut [f64],
        params: &ObstacleParams,
    ) -> Result<ObstacleInfo, ObstacleError> {
        let m = self.k.len();
        let mut info = ObstacleInfo::default();
        self.refresh_active(x, c);
        let mut merit_x = f64::NAN;
        for it in 1..=params.max_iterations {
            info.iterations = it;
            // The Newton point of the piece S; accept it when its own
            // active set is S.
            let mut trial = std::mem::take(&mut self.trial);
            let same = self.newton_point(r, c, &mut trial);
            let same = match same {
                Ok(same) => same,
                Err(e) => {
                    self.trial = trial;
                    return Err(e);
                }
            };
            if same {
                x.copy_from_slice(&trial);
                self.trial = trial;
                info.active = self.active.iter().filter(|a| **a).count();
                info.residual = self.relative_residual(x, c, r);
                if info.residual.is_nan() || info.residual > params.tolerance {
                    return Err(ObstacleError::Inaccurate {
                        residual: info.residual,
                        tolerance: params.tolerance,
                    });
                }
                return Ok(info);
            }
            // Otherwise take it (plain active-set step) during the first
            // iterations, then step towards it while the merit decreases.
            if it <= params.full_steps {
                x.copy_from_slice(&trial);
                self.trial = trial;
                // self.y holds the openings of the trial point (= x now).
                for j in 0..m {
                    self.active[j] = self.y[j] > 0.0;
                }
                continue;
            }
            if merit_x.is_nan() {
                merit_x = self.merit(x, c, r);
            }
            let armijo = self.uses_lu();
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..=params.max_backtracks {
                let mut point = std::mem::take(&mut self.point);
                for i in 0..self.n {
                    point[i] = x[i] + t * (trial[i] - x[i]);
                }
                let merit_t = self.merit(&point, c, r);
                let decreased = if armijo {
                    merit_t <= (1.0 - 2e-4 * t) * merit_x
                } else {
                    merit_t < merit_x
                };
                if decreased {
                    x.copy_from_slice(&point);
                    merit_x = merit_t;
                    self.point = point;
                    accepted = true;
                    break;
                }
                self.point = point;
                t *= 0.5;
                info.backtracks += 1;
            }
            self.trial = trial;
            if !accepted {
                return Err(ObstacleError::NoDescent {
                    iteration: it,
                    backtracks: params.max_backtracks,
                });
            }
            self.refresh_active(x, c);
        }
        Err(ObstacleError::NoConvergence {
            iterations: info.iterations,
            active: self.active.iter().filter(|a| **a).count(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprs::TriMat;

    fn chain(n: usize, k: f64, diag: f64) -> CsMat<f64> {
        let mut t = TriMat::new((n, n));
        for i in 0..n {
            t.add_triplet(i, i, 2.0 * k + diag);
            if i + 1 < n {
                t.add_triplet(i, i + 1, -k);
                t.add_triplet(i + 1, i, -k);
            }
        }
        t.to_csr()
    }

    /// The solution satisfies the equation to rounding, from a cold and a
    /// warm start, and the warm start needs one iteration: a chain with
    /// gaps to the ground (tridiagonal Jacobian, L D L^T) ...
    #[test]
    fn solves_the_obstacle_equation_exactly() {
        let n = 200;
        let mut bt = TriMat::new((n, n));
        for i in 0..n {
            bt.add_triplet(i, i, if i % 2 == 0 { 1.0 } else { -1.0 });
        }
        solves_exactly(&bt.to_csr(), "tridiagonal");
    }

    /// ... and gaps between masses two apart (a wider band: sparse Cholesky).
    #[test]
    fn solves_the_obstacle_equation_exactly_beyond_the_band() {
        let n = 200;
        let mut bt = TriMat::new((n, n));
        for i in 0..n {
            bt.add_triplet(i, i, if i % 2 == 0 { 1.0 } else { -1.0 });
            if i + 2 < n && i % 5 == 0 {
                bt.add_triplet(i, i + 2, 0.5);
            }
        }
        solves_exactly(&bt.to_csr(), "cholesky");
    }

    fn solves_exactly(b: &CsMat<f64>, factorization: &str) {
        let n = b.cols();
        let a = chain(n, 1.0, 0.5);
        let b = b.clone();
        let kg = vec![3.0; n];
        let c: Vec<f64> = (0..n).map(|i| 0.1 + 0.05 * (i % 3) as f64).collect();
        let r: Vec<f64> = (0..n).map(|i| 2.0 * ((i as f64) * 0.37).sin()).collect();
        let mut sys = ObstacleSystem::new(&a, &b, &kg).expect("pattern");
        assert_eq!(sys.factorization(), factorization);
        let mut x = vec![0.0; n];
        let info = sys
            .solve(&r, &c, &mut x, &ObstacleParams::default())
            .expect("solves");
        assert!(info.active > 10 && info.active < n, "{info:?}");
        // Residual A x + B^T K max(0, B x - c) - r.
        let mut res = vec![0.0; n];
        for (i, row) in a.outer_iterator().enumerate() {
            res[i] = row.iter().map(|(j, &v)| v * x[j]).sum::<f64>() - r[i];
        }
        for (j, row) in b.outer_iterator().enumerate() {
            let yj: f64 = row.iter().map(|(i, &v)| v * x[i]).sum::<f64>() - c[j];
            for (i, &v) in row.iter() {
                res[i] += v * kg[j] * yj.max(0.0);
            }
        }
        let worst = res.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(worst < 1e-12, "residual {worst}");
        let again = sys
            .solve(&r, &c, &mut x, &ObstacleParams::default())
            .expect("warm");
        assert_eq!(again.iterations, 1, "warm start from the solution");
    }

    fn from_dense(rows: &[&[f64]]) -> CsMat<f64> {
        let mut t = TriMat::new((rows.len(), rows[0].len()));
        for (i, r) in rows.iter().enumerate() {
            for (j, &v) in r.iter().enumerate() {
                if v != 0.0 {
                    t.add_triplet(i, j, v);
                }
            }
        }
        t.to_csr()
    }

    /// |A x + B^T K max(0, B x - c) - r|_inf computed densely, apart from
    /// the solver.
    fn dense_residual(
        a: &CsMat<f64>,
        b: &CsMat<f64>,
        k: &[f64],
        c: &[f64],
        r: &[f64],
        x: &[f64],
    ) -> f64 {
        let n = x.len();
        let mut res = vec![0.0; n];
        for (&v, (i, j)) in a.iter() {
            res[i] += v * x[j];
        }
        for i in 0..n {
            res[i] -= r[i];
        }
        let bx = |j: usize| -> f64 {
            b.outer_view(j)
                .map_or(0.0, |row| row.iter().map(|(i, &v)| v * x[i]).sum())
        };
        for j in 0..k.len() {
            let f = k[j] * (bx(j) - c[j]).max(0.0);
            for (i, &v) in b.outer_view(j).expect("row").iter() {
                res[i] += v * f;
            }
        }
        res.iter().fold(0.0f64, |m, v| m.max(v.abs()))
    }

    /// A non-symmetric A (a damping matrix without symmetry) is factored by
    /// LU: the solution satisfies the full equation, where factoring the
    /// lower triangle alone would solve another one.
    #[test]
    fn a_non_symmetric_matrix_is_solved_by_lu() {
        let a = from_dense(&[&[2.0, -1.5, 0.0], &[-0.5, 1.0, 0.2], &[0.0, -0.3, 1.5]]);
        assert!(!is_symmetric(&a));
        let b = from_dense(&[&[1.0, 0.0, 0.0], &[0.0, -1.0, 1.0]]);
        let k = [4.0, 7.0];
        let c = [0.1, -0.05];
        let r = [1.0, -0.4, 0.8];
        let mut sys = ObstacleSystem::new(&a, &b, &k).expect("pattern");
        assert!(sys.uses_lu());
        let mut x = vec![0.0; 3];
        let info = sys
            .solve(&r, &c, &mut x, &ObstacleParams::default())
            .expect("solves");
        assert!(info.active >= 1, "{info:?}");
        let worst = dense_residual(&a, &b, &k, &c, &r, &x);
        assert!(worst < 1e-13, "residual {worst}");
        assert!(info.residual < 1e-13);
        // The symmetric part alone (what a lower-triangle Cholesky sees)
        // has another solution.
        let sym = from_dense(&[&[2.0, -0.5, 0.0], &[-0.5, 1.0, -0.3], &[0.0, -0.3, 1.5]]);
        assert!(dense_residual(&sym, &b, &k, &c, &r, &x) > 1e-3);
    }

    /// Grading can fail: with a tolerance of zero no solution is accepted.
    #[test]
    fn a_residual_above_the_tolerance_is_an_error() {
        let a = chain(20, 1.0, 0.3);
        let b = from_dense(&[&(0..20)
            .map(|i| if i == 5 { 1.0 } else { 0.0 })
            .collect::<Vec<_>>()]);
        let mut sys = ObstacleSystem::new(&a, &b, &[10.0]).expect("pattern");
        let r: Vec<f64> = (0..20).map(|i| (i as f64 * 0.7).sin()).collect();
        let mut x = vec![0.0; 20];
        let strict = ObstacleParams {
            tolerance: 0.0,
            ..ObstacleParams::default()
        };
        match sys.solve(&r, &[0.0], &mut x, &strict) {
            Err(ObstacleError::Inaccurate { residual, .. }) => assert!(residual > 0.0),
            other => panic!("expected Inaccurate, got {other:?}"),
        }
    }

    /// A line search that cannot decrease its merit function fails: x = -1
    /// inactive, the Newton point of that piece (x = 1) lies deep in the
    /// stiff constraint where phi is larger, and no halving is allowed.
    #[test]
    fn a_failed_line_search_is_reported() {
        let a = from_dense(&[&[1.0]]);
        let b = from_dense(&[&[1.0]]);
        let mut sys = ObstacleSystem::new(&a, &b, &[100.0]).expect("pattern");
        let mut x = vec![-1.0];
        let params = ObstacleParams {
            full_steps: 0,
            max_backtracks: 0,
            ..ObstacleParams::default()
        };
        match sys.solve(&[1.0], &[0.0], &mut x, &params) {
            Err(ObstacleError::NoDescent { iteration: 1, .. }) => {}
            other => panic!("expected NoDescent, got {other:?}"),
        }
        // With halvings it converges to x = 1/101.
        let mut x = vec![-1.0];
        let params = ObstacleParams {
            full_steps: 0,
            ..ObstacleParams::default()
        };
        sys.solve(&[1.0], &[0.0], &mut x, &params)
            .expect("converges");
        assert!((x[0] - 1.0 / 101.0).abs() < 1e-15, "{x:?}");
    }
}
