//! The obstacle equation A x + B^T K max(0, B x - c) = r (see `obstacle`)
//! for a chain with gaps to the ground: A symmetric tridiagonal and every
//! constraint acting on one unknown, at most one per unknown. Then one
//! Newton iteration (the point of the linear piece S) is two passes over the
//! unknowns, where the general path makes about ten (assembly, factor,
//! right-hand side, two substitutions, openings, the test of the point's
//! active set).
//!
//! With s_i = k_j b_j^2 and t_i = k_j b_j c_j when the constraint j on
//! unknown i is in S (0 otherwise) and e_i = a_{i+1,i}, the forward pass is
//! the factor L D L^T of LAPACK's dpttrf fused with the forward
//! substitution:
//!
//!   l_{i-1} = e_{i-1} / d_{i-1},   d_i = a_ii + s_i - l_{i-1} e_{i-1},
//!   z_i = r_i + t_i - l_{i-1} z_{i-1},
//!
//! and the backward pass the substitution of dpttrs fused with the
//! openings y_j = b_j x_i - c_j and the test of their signs against S:
//!
//!   x_i = z_i / d_i - l_i x_{i+1}.
//!
//! Both passes are bound by the latency of their recurrences (a division
//! in the forward one), so the fused work costs little beside them. When
//! the piece is that of the last factor (a step whose active set did not
//! change), the factor is kept and the forward pass only substitutes.

use crate::sparse::csr::Csr;
use crate::sparse::pattern::SparseError;

/// Marks an unknown without a constraint.
const NONE: usize = usize::MAX;

/// A chain with gaps to the ground: A's band, the constraint on each
/// unknown, and the factor's scratch.
pub struct GroundedChain {
    /// A's diagonal.
    diag: Vec<f64>,
    /// A's sub-diagonal: e_i = a_{i+1,i} (n - 1 values).
    sub: Vec<f64>,
    /// The constraint on each unknown, or NONE.
    constraint: Vec<usize>,
    /// The unknown of each constraint and its coefficient b_j.
    unknown: Vec<usize>,
    coef: Vec<f64>,
    /// k_j.
    k: Vec<f64>,
    /// The factor: D's diagonal and L's sub-diagonal.
    d: Vec<f64>,
    l: Vec<f64>,
    /// The active set of the factor (valid when `factored_valid`).
    factored_set: Vec<bool>,
    factored_valid: bool,
    factorizations: usize,
}

impl GroundedChain {
    /// The fused form of (A, B, k), or `None` when A is not tridiagonal
    /// (`tridiagonal` is the caller's test of A + B^T B's pattern; A is
    /// symmetric) or a row of B holds other than one entry or two rows act
    /// on one unknown.
    pub fn detect(a: &Csr, b: &Csr, k: &[f64], tridiagonal: bool) -> Option<Self> {
        let n = a.rows();
        if !tridiagonal || b.cols() != n || b.rows() != k.len() {
            return None;
        }
        let mut constraint = vec![NONE; n];
        let mut unknown = Vec::with_capacity(b.rows());
        let mut coef = Vec::with_capacity(b.rows());
        for j in 0..b.rows() {
            let (idx, val) = b.row(j);
            if idx.len() != 1 || constraint[idx[0]] != NONE {
                return None;
            }
            constraint[idx[0]] = j;
            unknown.push(idx[0]);
            coef.push(val[0]);
        }
        let mut diag = vec![0.0; n];
        let mut sub = vec![0.0; n.saturating_sub(1)];
        for (i, di) in diag.iter_mut().enumerate() {
            let (idx, val) = a.row(i);
            for (&j, &v) in idx.iter().zip(val) {
                if j == i {
                    *di += v;
                } else if j + 1 == i {
                    sub[j] += v;
                }
            }
        }
        Some(Self {
            diag,
            sub,
            constraint,
            unknown,
            coef,
            k: k.to_vec(),
            d: vec![0.0; n],
            l: vec![0.0; n.saturating_sub(1)],
            factored_set: vec![false; k.len()],
            factored_valid: false,
            factorizations: 0,
        })
    }

    /// Numeric factorizations so far (one per Newton point).
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// The Newton point x of the piece `active` and its openings y = B x - c;
    /// returns whether the point's own active set {j : y_j > 0} is `active`.
    /// Fails when a pivot is not positive (the Jacobian is not positive
    /// definite).
    pub fn newton_point(
        &mut self,
        active: &[bool],
        r: &[f64],
        c: &[f64],
        x: &mut [f64],
        y: &mut [f64],
    ) -> Result<bool, SparseError> {
        let n = self.diag.len();
        if n == 0 {
            return Ok(true);
        }
        let (constraint, k, coef) = (&self.constraint[..], &self.k[..], &self.coef[..]);
        let piece = |i: usize| piece_terms(constraint, k, coef, active, c, i);
        if self.factored_valid && self.factored_set[..] == active[..] {
            // The factor of this piece is kept: forward substitution only.
            let mut z_prev = r[0] + piece(0).1;
            x[0] = z_prev;
            for i in 1..n {
                z_prev = r[i] + piece(i).1 - self.l[i - 1] * z_prev;
                x[i] = z_prev;
            }
        } else {
            self.factored_valid = false;
            // Forward: factor and forward substitution; x holds z.
            let (s0, t0) = piece(0);
            let mut d_prev = self.diag[0] + s0;
            let mut z_prev = r[0] + t0;
            self.d[0] = d_prev;
            x[0] = z_prev;
            let mut ok = d_prev > 0.0 && d_prev.is_finite();
            let (diag, sub, d, l) = (&self.diag, &self.sub, &mut self.d, &mut self.l);
            for i in 1..n {
                let (s, t) = piece(i);
                let e = sub[i - 1];
                let li = e / d_prev;
                d_prev = diag[i] + s - li * e;
                z_prev = r[i] + t - li * z_prev;
                ok &= d_prev > 0.0 && d_prev.is_finite();
                l[i - 1] = li;
                d[i] = d_prev;
                x[i] = z_prev;
            }
            if !ok {
                return Err(SparseError::NotPositiveDefinite);
            }
            self.factorizations += 1;
            self.factored_set.copy_from_slice(active);
            self.factored_valid = true;
        }
        // Backward: substitution, openings, the active set's test.
        let mut same = true;
        let mut next = 0.0;
        for i in (0..n).rev() {
            let li = if i + 1 < n { self.l[i] } else { 0.0 };
            let xi = x[i] / self.d[i] - li * next;
            x[i] = xi;
            next = xi;
            let j = self.constraint[i];
            if j != NONE {
                let yj = self.coef[j] * xi - c[j];
                y[j] = yj;
                same &= (yj > 0.0) == active[j];
            }
        }
        Ok(same)
    }

    /// y = B x - c, by the constraints' unknowns (as a product with B).
    pub fn openings(&self, x: &[f64], c: &[f64], y: &mut [f64]) {
        for (((yj, &i), &b), &cj) in y.iter_mut().zip(&self.unknown).zip(&self.coef).zip(c) {
            *yj = b * x[i] - cj;
        }
    }

    /// (|F|_inf, the scale of the relative residual) of
    /// F(x) = A x + B^T K max(0, B x - c) - r, the scale being the largest
    /// of |A x|_inf, |r|_inf and the largest contact term (as in
    /// `obstacle`), in one pass.
    pub fn residual(&self, x: &[f64], c: &[f64], r: &[f64]) -> (f64, f64) {
        let n = self.diag.len();
        let (mut worst, mut scale) = (0.0f64, 0.0f64);
        for i in 0..n {
            let mut ax = self.diag[i] * x[i];
            if i > 0 {
                ax += self.sub[i - 1] * x[i - 1];
            }
            if i + 1 < n {
                ax += self.sub[i] * x[i + 1];
            }
            scale = scale.max(ax.abs()).max(r[i].abs());
            let mut fi = ax - r[i];
            let j = self.constraint[i];
            if j != NONE {
                let yj = self.coef[j] * x[i] - c[j];
                if yj > 0.0 {
                    let term = self.coef[j] * (self.k[j] * yj);
                    fi += term;
                    scale = scale.max(term.abs());
                }
            }
            worst = worst.max(fi.abs());
        }
        (worst, scale.max(f64::MIN_POSITIVE))
    }
}

/// The terms (s_i, t_i) of the module doc for unknown i: the Jacobian's
/// and the right-hand side's share of the constraint on it when active.
#[inline(always)]
fn piece_terms(
    constraint: &[usize],
    k: &[f64],
    coef: &[f64],
    active: &[bool],
    c: &[f64],
    i: usize,
) -> (f64, f64) {
    let j = constraint[i];
    if j != NONE && active[j] {
        let b = coef[j];
        (k[j] * (b * b), k[j] * c[j] * b)
    } else {
        (0.0, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprs::TriMat;

    /// A chain's A (tridiagonal, SPD) and a B with one entry per row.
    fn chain(n: usize) -> (Csr, Vec<f64>) {
        let mut t = TriMat::new((n, n));
        for i in 0..n {
            t.add_triplet(i, i, 2.5 + 0.1 * (i % 4) as f64);
            if i + 1 < n {
                t.add_triplet(i, i + 1, -1.0);
                t.add_triplet(i + 1, i, -1.0);
            }
        }
        (Csr::from_sprs(&t.to_csr()), vec![3.0; n])
    }

    fn rows(n: usize, entries: &[(usize, usize, f64)]) -> Csr {
        let m = entries.iter().map(|e| e.0 + 1).max().unwrap_or(0);
        let mut t = TriMat::new((m, n));
        for &(j, i, v) in entries {
            t.add_triplet(j, i, v);
        }
        Csr::from_sprs(&t.to_csr())
    }

    #[test]
    fn takes_only_one_unknown_per_constraint_and_one_constraint_per_unknown() {
        let (a, _) = chain(4);
        let k = [1.0, 1.0];
        let one_each = rows(4, &[(0, 1, 1.0), (1, 3, -1.0)]);
        assert!(GroundedChain::detect(&a, &one_each, &k, true).is_some());
        assert!(GroundedChain::detect(&a, &one_each, &k, false).is_none());
        let two_in_a_row = rows(4, &[(0, 1, 1.0), (0, 2, 1.0), (1, 3, -1.0)]);
        assert!(GroundedChain::detect(&a, &two_in_a_row, &k, true).is_none());
        let two_on_one = rows(4, &[(0, 1, 1.0), (1, 1, -1.0)]);
        assert!(GroundedChain::detect(&a, &two_on_one, &k, true).is_none());
    }

    /// The Newton point solves (A + B_S^T K_S B_S) x = r + B_S^T K_S c_S,
    /// checked by the residual of that linear system; the openings and the
    /// test of the active set follow from x.
    #[test]
    fn the_newton_point_solves_the_linear_piece() {
        let n = 40;
        let (a, k) = chain(n);
        let entries: Vec<(usize, usize, f64)> = (0..n)
            .map(|i| (i, i, if i % 2 == 0 { 1.0 } else { -1.5 }))
            .collect();
        let b = rows(n, &entries);
        let mut fused = GroundedChain::detect(&a, &b, &k, true).expect("a chain");
        let active: Vec<bool> = (0..n).map(|j| j % 3 != 0).collect();
        let r: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        let c: Vec<f64> = (0..n).map(|j| 0.05 * (j % 5) as f64 - 0.1).collect();
        let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
        let same = fused
            .newton_point(&active, &r, &c, &mut x, &mut y)
            .expect("SPD");
        let mut worst = 0.0f64;
        for i in 0..n {
            let mut lhs = a.row_dot(i, &x);
            let mut rhs = r[i];
            let (j, bj) = (i, entries[i].2);
            if active[j] {
                lhs += k[j] * bj * bj * x[i];
                rhs += k[j] * bj * c[j];
            }
            worst = worst.max((lhs - rhs).abs());
            assert_eq!(y[j], bj * x[i] - c[j]);
        }
        assert!(worst < 1e-13, "residual {worst:e}");
        let (mut by_product, mut by_unknowns) = (vec![0.0; n], vec![0.0; n]);
        b.mul_vec(&x, &mut by_product);
        fused.openings(&x, &c, &mut by_unknowns);
        for j in 0..n {
            assert_eq!(by_unknowns[j], by_product[j] - c[j]);
        }
        let own: Vec<bool> = y.iter().map(|&v| v > 0.0).collect();
        assert_eq!(same, own == active);
        assert_eq!(fused.factorizations(), 1);
        // The same piece with another right-hand side keeps the factor and
        // solves it exactly.
        let r2: Vec<f64> = r.iter().map(|v| 2.0 * v - 0.3).collect();
        let mut x2 = vec![0.0; n];
        fused
            .newton_point(&active, &r2, &c, &mut x2, &mut y)
            .expect("SPD");
        assert_eq!(fused.factorizations(), 1, "the factor is kept");
        let worst2 = (0..n).fold(0.0f64, |m, i| {
            let bj = entries[i].2;
            let (lhs, rhs) = if active[i] {
                (
                    a.row_dot(i, &x2) + k[i] * bj * bj * x2[i],
                    r2[i] + k[i] * bj * c[i],
                )
            } else {
                (a.row_dot(i, &x2), r2[i])
            };
            m.max((lhs - rhs).abs())
        });
        assert!(worst2 < 1e-13, "residual {worst2:e}");
        fused
            .newton_point(&active, &r, &c, &mut x, &mut y)
            .expect("SPD");
        // The point of its own active set is accepted.
        let again = fused
            .newton_point(&own, &r, &c, &mut x, &mut y)
            .expect("SPD");
        let own_again: Vec<bool> = y.iter().map(|&v| v > 0.0).collect();
        assert_eq!(again, own_again == own);
    }

    #[test]
    fn refuses_a_matrix_that_is_not_positive_definite() {
        let (a, _) = chain(3);
        let b = rows(3, &[(0, 0, 1.0)]);
        // A negative stiffness makes the active piece indefinite.
        let mut fused = GroundedChain::detect(&a, &b, &[-10.0], true).expect("a chain");
        let mut x = vec![0.0; 3];
        let mut y = vec![0.0; 1];
        assert_eq!(
            fused.newton_point(&[true], &[1.0; 3], &[0.0], &mut x, &mut y),
            Err(SparseError::NotPositiveDefinite)
        );
        assert!(
            fused
                .newton_point(&[false], &[1.0; 3], &[0.0], &mut x, &mut y)
                .is_ok()
        );
    }
}
