//! Semi-smooth Newton (primal-dual active set) for
//! A x + B^T K max(0, B x - c) = r with A SPD and a fixed sparsity pattern
//! (see the module doc of `sparse`).

use sprs::CsMat;

use crate::sparse::csr::Csr;
use crate::sparse::llt::{SparseError, SparseLlt};

/// Parameters of the active-set iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObstacleParams {
    /// Most Newton iterations per solve.
    pub max_iterations: usize,
    /// Most halvings of the step in the line search.
    pub max_backtracks: usize,
    /// Iterations that take the full Newton step before the line search on
    /// the merit function is switched on (the plain primal-dual active-set
    /// method converges monotonically for M-matrices, the common case; the
    /// line search makes it converge for every SPD A).
    pub full_steps: usize,
}

impl Default for ObstacleParams {
    fn default() -> Self {
        Self {
            max_iterations: 100,
            max_backtracks: 60,
            full_steps: 6,
        }
    }
}

/// What a solve did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ObstacleInfo {
    /// Newton iterations (each one factorization and one solve).
    pub iterations: usize,
    /// Active constraints at the solution.
    pub active: usize,
    /// Line-search backtracks taken.
    pub backtracks: usize,
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
    /// A and B do not fit together.
    #[error("dimensions: {0}")]
    Dimensions(String),
}

/// The equation's data, its Jacobian pattern, and the reusable factorization.
pub struct ObstacleSystem {
    n: usize,
    /// A, CSR (symmetric; both triangles stored).
    a: Csr,
    /// B, CSR, m x n.
    b: Csr,
    /// k_j > 0.
    k: Vec<f64>,
    llt: SparseLlt,
    /// Values of A's lower triangle in the factor's pattern order.
    base: Vec<f64>,
    /// For each constraint j, the (position, b_ji b_jl) of b_j^T b_j's lower triangle.
    updates: Vec<Vec<(usize, f64)>>,
    active: Vec<bool>,
    /// The active set of the current factorization (valid when `factored_valid`).
    factored_set: Vec<bool>,
    factored_valid: bool,
    /// Scratch: B x - c, residual, trial point.
    y: Vec<f64>,
    trial: Vec<f64>,
    ax: Vec<f64>,
}

impl ObstacleSystem {
    /// Builds the Jacobian pattern (lower triangle of A + B^T B) and its
    /// symbolic factorization.
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
        let a_csr = Csr::from_sprs(a);
        let b_csr = Csr::from_sprs(b);
        let a = a.to_csr();
        let b = b.to_csr();
        // Lower-triangle pattern per column: A's entries (i >= j), B^T B's, and the diagonal.
        let mut cols: Vec<Vec<usize>> = (0..n).map(|j| vec![j]).collect();
        for (_, (i, j)) in a.iter() {
            if i >= j {
                cols[j].push(i);
            }
        }
        for row in b.outer_iterator() {
            let idx: Vec<usize> = row.indices().to_vec();
            for &p in &idx {
                for &q in &idx {
                    if p >= q {
                        cols[q].push(p);
                    }
                }
            }
        }
        let mut col_ptr = vec![0];
        let mut row_idx = Vec::new();
        for c in &mut cols {
            c.sort_unstable();
            c.dedup();
            row_idx.extend_from_slice(c);
            col_ptr.push(row_idx.len());
        }
        let llt = SparseLlt::new(n, col_ptr, row_idx)?;
        let mut base = vec![0.0; llt.nnz()];
        for (&v, (i, j)) in a.iter() {
            if i >= j {
                let p = llt
                    .position(i, j)
                    .ok_or_else(|| ObstacleError::Dimensions("pattern".into()))?;
                base[p] += v;
            }
        }
        let mut updates = Vec::with_capacity(b.rows());
        for row in b.outer_iterator() {
            let mut u = Vec::new();
            for (p, &bp) in row.iter() {
                for (q, &bq) in row.iter() {
                    if p >= q {
                        let pos = llt
                            .position(p, q)
                            .ok_or_else(|| ObstacleError::Dimensions("pattern".into()))?;
                        u.push((pos, bp * bq));
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
            llt,
            base,
            updates,
            active: vec![false; m],
            factored_set: vec![false; m],
            factored_valid: false,
            y: vec![0.0; m],
            trial: vec![0.0; n],
            ax: vec![0.0; n],
        })
    }

    /// Number of unknowns.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Numeric factorizations so far (over all solves).
    pub fn factorizations(&self) -> usize {
        self.llt.factorizations()
    }

    /// Nonzeros of the Jacobian's lower triangle and of its Cholesky factor.
    pub fn pattern_sizes(&self) -> (usize, usize) {
        (self.llt.nnz(), self.llt.factor_nnz())
    }

    /// The active set of the last solve.
    pub fn active(&self) -> &[bool] {
        &self.active
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
        for (j, yj) in y.iter_mut().enumerate() {
            *yj = self.b.row_dot(j, x) - c[j];
        }
    }

    /// phi(x) = x.A x / 2 + sum k_j max(0, y_j)^2 / 2 - r.x (the merit function).
    fn merit(&mut self, x: &[f64], c: &[f64], r: &[f64]) -> f64 {
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
        let mut phi_x = f64::NAN;
        for it in 1..=params.max_iterations {
            info.iterations = it;
            // J = A + B_S^T K_S B_S, rhs = r + B_S^T K_S c_S. The Jacobian
            // depends on S only: when S is the set of the last factorization
            // (often the case for the first iteration of a time step), the
            // factor is reused.
            if !self.factored_valid || self.factored_set != self.active {
                let values = self.llt.values_mut();
                values.copy_from_slice(&self.base);
                for (j, u) in self.updates.iter().enumerate() {
                    if self.active[j] {
                        for &(pos, coef) in u {
                            values[pos] += self.k[j] * coef;
                        }
                    }
                }
                self.factored_valid = false;
                self.llt.factorize()?;
                self.factored_set.copy_from_slice(&self.active);
                self.factored_valid = true;
            }
            let mut trial = std::mem::take(&mut self.trial);
            trial.copy_from_slice(r);
            for (j, _) in self.active.iter().enumerate().filter(|(_, a)| **a) {
                let (idx, val) = self.b.row(j);
                for (&i, &v) in idx.iter().zip(val) {
                    trial[i] += self.k[j] * c[j] * v;
                }
            }
            self.llt.solve_in_place(&mut trial);
            // The Newton point solves the equation on the piece S; accept it
            // when its own active set is S.
            let mut y = std::mem::take(&mut self.y);
            self.openings(&trial, c, &mut y);
            let same = (0..m).all(|j| (y[j] > 0.0) == self.active[j]);
            self.y = y;
            if same {
                x.copy_from_slice(&trial);
                self.trial = trial;
                info.active = self.active.iter().filter(|a| **a).count();
                return Ok(info);
            }
            // Otherwise take it (plain active-set step) during the first
            // iterations, then step towards it while phi decreases.
            if it <= params.full_steps {
                x.copy_from_slice(&trial);
                self.trial = trial;
                // self.y holds the openings of the trial point (= x now).
                for j in 0..m {
                    self.active[j] = self.y[j] > 0.0;
                }
                continue;
            }
            if phi_x.is_nan() {
                phi_x = self.merit(x, c, r);
            }
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..=params.max_backtracks {
                let mut point = std::mem::take(&mut self.ax);
                for i in 0..self.n {
                    point[i] = x[i] + t * (trial[i] - x[i]);
                }
                let phi_t = self.merit(&point, c, r);
                if phi_t < phi_x || t < 1e-12 {
                    x.copy_from_slice(&point);
                    phi_x = phi_t;
                    self.ax = point;
                    accepted = true;
                    break;
                }
                self.ax = point;
                t *= 0.5;
                info.backtracks += 1;
            }
            self.trial = trial;
            if !accepted {
                break;
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
    /// warm start, and the warm start needs one iteration.
    #[test]
    fn solves_the_obstacle_equation_exactly() {
        let n = 200;
        let a = chain(n, 1.0, 0.5);
        let mut bt = TriMat::new((n, n));
        for i in 0..n {
            bt.add_triplet(i, i, if i % 2 == 0 { 1.0 } else { -1.0 });
        }
        let b = bt.to_csr();
        let kg = vec![3.0; n];
        let c: Vec<f64> = (0..n).map(|i| 0.1 + 0.05 * (i % 3) as f64).collect();
        let r: Vec<f64> = (0..n).map(|i| 2.0 * ((i as f64) * 0.37).sin()).collect();
        let mut sys = ObstacleSystem::new(&a, &b, &kg).expect("pattern");
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
}
