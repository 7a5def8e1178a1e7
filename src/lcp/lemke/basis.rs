//! The basis factorisation: the compact inverse H = A_RS^-1 of the module
//! doc, its four rank-one updates per pivot, the residual test that measures
//! how far the updated H is from A_RS^-1, the dense refactorization and the
//! iterative refinement of the basic values.

use super::{Basis, Entering, Leaving, NONE, axpy, dot};

impl Basis<'_> {
    /// The probe vector of the residual test: fixed, all entries of one
    /// order (1 to 2), none zero.
    fn probe(p: usize) -> f64 {
        1.0 + ((p * 7919) % 97) as f64 / 97.0
    }

    /// |A_RS (H u) - u|_inf / |u|_inf for the probe u: how far H is from
    /// the inverse of the current basis block (0 in exact arithmetic).
    pub(super) fn inverse_residual(&mut self) -> f64 {
        let (n, k) = (self.n, self.k);
        if k == 0 {
            return 0.0;
        }
        let mut y = std::mem::take(&mut self.scratch_a);
        let mut res = std::mem::take(&mut self.scratch_b);
        for (p, yp) in y[..k].iter_mut().enumerate() {
            let h_row = &self.h[p * n..p * n + k];
            *yp = h_row
                .iter()
                .enumerate()
                .map(|(q, h)| h * Self::probe(q))
                .sum();
        }
        for (q, r) in res[..k].iter_mut().enumerate() {
            *r = -Self::probe(q);
        }
        // A_RS = -[M, d] restricted to rows R (positions) and columns S.
        for (&var, &yp) in self.s_var[..k].iter().zip(&y[..k]) {
            let col = self.mcol(var);
            for (r, &row) in res[..k].iter_mut().zip(&self.s_row[..k]) {
                *r -= col[row] * yp;
            }
        }
        let worst = res[..k].iter().fold(0.0f64, |m, v| m.max(v.abs()));
        self.scratch_a = y;
        self.scratch_b = res;
        // The probe's largest entry is below 2.
        if worst.is_nan() {
            f64::INFINITY
        } else {
            worst / 2.0
        }
    }

    /// Recomputes H = A_RS^-1 by a dense LU and the basic values from it:
    /// x_S = H q_R (refined), w_i = q_i - (A x)_i for the basic slacks.
    pub(super) fn refactor(&mut self) {
        let (n, k) = (self.n, self.k);
        let a = faer::Mat::<f64>::from_fn(k, k, |r, p| -self.mcol(self.s_var[p])[self.s_row[r]]);
        let lu = a.partial_piv_lu();
        let mut inv = faer::Mat::<f64>::identity(k, k);
        {
            use faer::linalg::solvers::SolveCore;
            lu.solve_in_place_with_conj(faer::Conj::No, inv.as_mut());
        }
        if !(0..k).all(|p| (0..k).all(|q| inv[(p, q)].is_finite())) {
            // A singular block cannot be refactored; keep the updated H.
            return;
        }
        for p in 0..k {
            for q in 0..k {
                self.h[p * n + q] = inv[(p, q)];
            }
        }
        self.refactorizations += 1;
        for p in 0..k {
            let q_r: f64 = (0..k)
                .map(|q| self.h[p * n + q] * self.q[self.s_row[q]])
                .sum();
            self.xs[p] = q_r;
        }
        self.refine();
        self.w.copy_from_slice(self.q);
        for p in 0..k {
            let (col, x) = (self.mcol(self.s_var[p]), self.xs[p]);
            axpy(x, col, &mut self.w);
        }
    }

    /// out = A_rS H (length k), A_rS = -(row r of [M, d] on the columns S).
    fn slack_row_times_h(&self, r: usize, out: &mut [f64]) {
        let (n, k) = (self.n, self.k);
        out.fill(0.0);
        for p in 0..k {
            let coef = -self.mcol(self.s_var[p])[r];
            if coef != 0.0 {
                axpy(coef, &self.h[p * n..p * n + k], out);
            }
        }
    }

    /// Pivot: values update, then the rank-one update of H.
    pub(super) fn pivot(&mut self, entering: Entering, leaving: Leaving, theta: f64) {
        let (n, k) = (self.n, self.k);
        self.pivots += 1;
        for p in 0..k {
            self.xs[p] -= theta * self.ts[p];
        }
        for (wi, &ti) in self.w.iter_mut().zip(&self.tw) {
            *wi -= theta * ti;
        }
        match (entering, leaving) {
            (Entering::Structural(j), Leaving::Slack(r)) => {
                // Bordering: H' = [[H + ts v / s, -ts / s], [-v / s, 1 / s]].
                let mut v = std::mem::take(&mut self.scratch_a);
                self.slack_row_times_h(r, &mut v[..k]);
                let sigma = self.tw[r];
                for p in 0..k {
                    let row = &mut self.h[p * n..p * n + k + 1];
                    let coef = self.ts[p] / sigma;
                    axpy(coef, &v[..k], &mut row[..k]);
                    row[k] = -coef;
                }
                let last = &mut self.h[k * n..k * n + k + 1];
                for (hq, &vq) in last[..k].iter_mut().zip(&v[..k]) {
                    *hq = -vq / sigma;
                }
                last[k] = 1.0 / sigma;
                self.scratch_a = v;
                self.s_var[k] = j;
                self.var_at[j] = k;
                self.s_row[k] = r;
                self.row_at[r] = k;
                self.xs[k] = theta;
                self.k += 1;
            }
            (Entering::Structural(j), Leaving::Structural(p)) => {
                // Column replacement (product form of the inverse).
                let pivot = self.ts[p];
                let mut rowp = std::mem::take(&mut self.scratch_b);
                for (dst, &src) in rowp[..k].iter_mut().zip(&self.h[p * n..p * n + k]) {
                    *dst = src / pivot;
                }
                for a in 0..k {
                    if a == p {
                        self.h[a * n..a * n + k].copy_from_slice(&rowp[..k]);
                    } else {
                        let coef = -self.ts[a];
                        if coef != 0.0 {
                            axpy(coef, &rowp[..k], &mut self.h[a * n..a * n + k]);
                        }
                    }
                }
                self.scratch_b = rowp;
                self.var_at[self.s_var[p]] = NONE;
                self.s_var[p] = j;
                self.var_at[j] = p;
                self.xs[p] = theta;
            }
            (Entering::Slack(i), Leaving::Structural(p)) => {
                // Deletion of row p and column qi: H' = H - H[:, qi] H[p, :] / H[p, qi].
                let qi = self.row_at[i];
                let pivot = self.ts[p];
                let mut rowp = std::mem::take(&mut self.scratch_b);
                rowp[..k].copy_from_slice(&self.h[p * n..p * n + k]);
                for a in 0..k {
                    if a != p {
                        let coef = -self.ts[a] / pivot;
                        if coef != 0.0 {
                            axpy(coef, &rowp[..k], &mut self.h[a * n..a * n + k]);
                        }
                    }
                }
                self.scratch_b = rowp;
                let last = k - 1;
                if p != last {
                    self.h.copy_within(last * n..last * n + k, p * n);
                }
                if qi != last {
                    for a in 0..last {
                        self.h[a * n + qi] = self.h[a * n + last];
                    }
                }
                self.var_at[self.s_var[p]] = NONE;
                if p != last {
                    self.s_var[p] = self.s_var[last];
                    self.var_at[self.s_var[p]] = p;
                    self.xs[p] = self.xs[last];
                }
                self.row_at[i] = NONE;
                if qi != last {
                    self.s_row[qi] = self.s_row[last];
                    self.row_at[self.s_row[qi]] = qi;
                }
                self.s_var[last] = NONE;
                self.s_row[last] = NONE;
                self.w[i] = theta;
                self.k -= 1;
            }
            (Entering::Slack(i), Leaving::Slack(r)) => {
                // Row replacement: H' = H - H[:, qi] (v - e_qi) / v_qi, v = A_rS H.
                let qi = self.row_at[i];
                let mut v = std::mem::take(&mut self.scratch_a);
                self.slack_row_times_h(r, &mut v[..k]);
                let pivot = v[qi];
                v[qi] -= 1.0;
                for a in 0..k {
                    let coef = -self.ts[a] / pivot;
                    if coef != 0.0 {
                        axpy(coef, &v[..k], &mut self.h[a * n..a * n + k]);
                    }
                }
                self.scratch_a = v;
                self.row_at[i] = NONE;
                self.s_row[qi] = r;
                self.row_at[r] = qi;
                self.w[i] = theta;
            }
        }
    }

    /// One step of iterative refinement of A_RS x_S = q_R:
    /// x_S += H (q_R - A_RS x_S), A_RS = -[M, d] on rows R, columns S.
    pub(super) fn refine(&mut self) {
        let (n, k) = (self.n, self.k);
        let mut res = std::mem::take(&mut self.scratch_a);
        for (r, &row) in res[..k].iter_mut().zip(&self.s_row[..k]) {
            *r = self.q[row];
        }
        for p in 0..k {
            let col = self.mcol(self.s_var[p]);
            let x = self.xs[p];
            for (r, &row) in res[..k].iter_mut().zip(&self.s_row[..k]) {
                *r += col[row] * x;
            }
        }
        for p in 0..k {
            self.xs[p] += dot(&self.h[p * n..p * n + k], &res[..k]);
        }
        self.scratch_a = res;
    }
}
