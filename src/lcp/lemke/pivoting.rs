//! The pivot loop of Lemke's method: the entering column and the minimum
//! ratio test (ties go to [`Basis::lexicographic_choice`]).

use super::{Basis, Entering, Leaving, LemkeError, LemkeInfo, NONE, dot};

impl Basis<'_> {
    /// The pivots from the all-slack basis: z0 enters first, then always
    /// the complement of the variable that left, until z0 leaves (a
    /// solution, refined twice) or the entering column has no positive
    /// entry (a ray).
    pub(super) fn run(
        &mut self,
        max_pivots: usize,
        pivot_tol: f64,
    ) -> Result<LemkeInfo, LemkeError> {
        // First pivot: z0 enters; the row with the largest -q_i / d_i leaves
        // (ties: largest index, which is the lexicographic choice for B = I).
        let n = self.n;
        let mut r = 0;
        let mut best = f64::NEG_INFINITY;
        for i in 0..n {
            let ratio = -self.q[i] / self.d[i];
            if ratio >= best {
                best = ratio;
                r = i;
            }
        }
        self.direction(Entering::Structural(n));
        self.pivot(Entering::Structural(n), Leaving::Slack(r), best);
        let mut entering = Entering::Structural(r);
        loop {
            if self.pivots >= max_pivots {
                crate::deadline::check_every(self.pivots);
                return Err(LemkeError::MaxPivots {
                    pivots: self.pivots,
                    z: self.z(),
                    z0: self.z0(),
                });
            }
            self.direction(entering);
            let Some((leaving, theta)) = self.ratio_test(pivot_tol) else {
                return Err(LemkeError::RayTermination {
                    pivots: self.pivots,
                    z: self.z(),
                    z0: self.z0(),
                });
            };
            let left = match leaving {
                Leaving::Structural(p) => Some(self.s_var[p]),
                Leaving::Slack(_) => None,
            };
            self.pivot(entering, leaving, theta);
            if self.pivots.is_multiple_of(self.check_every)
                && self.inverse_residual() > self.refactor_tolerance
            {
                self.refactor();
            }
            entering = match (left, leaving) {
                (Some(var), _) if var == n => break,
                (Some(var), _) => Entering::Slack(var),
                (None, Leaving::Slack(row)) => Entering::Structural(row),
                // A structural leaving variable always has `left = Some`.
                (None, Leaving::Structural(_)) => break,
            };
        }
        self.refine();
        self.refine();
        Ok(LemkeInfo {
            z: self.z(),
            pivots: self.pivots,
            refactorizations: self.refactorizations,
            lexicographic_ties: self.lexicographic_ties,
        })
    }
    /// Entering column t = B^-1 a: t_S = H a_R, t_w = a_R' - A_R'S t_S.
    fn direction(&mut self, entering: Entering) {
        let (n, k) = (self.n, self.k);
        match entering {
            Entering::Structural(j) => {
                let col = self.mcol(j);
                for (a, &row) in self.scratch_a[..k].iter_mut().zip(&self.s_row[..k]) {
                    *a = -col[row];
                }
                for p in 0..k {
                    self.ts[p] = dot(&self.h[p * n..p * n + k], &self.scratch_a[..k]);
                }
            }
            Entering::Slack(i) => {
                let qi = self.row_at[i];
                for p in 0..k {
                    self.ts[p] = self.h[p * n + qi];
                }
            }
        }
        // tw = g (+ a for a structural entering column), g = sum_p ts_p mcol(s_p).
        self.tw.fill(0.0);
        let mut p = 0;
        while p + 4 <= k {
            let (c0, c1, c2, c3) = (
                self.mcol(self.s_var[p]),
                self.mcol(self.s_var[p + 1]),
                self.mcol(self.s_var[p + 2]),
                self.mcol(self.s_var[p + 3]),
            );
            let (t0, t1, t2, t3) = (self.ts[p], self.ts[p + 1], self.ts[p + 2], self.ts[p + 3]);
            for ((((g, &a0), &a1), &a2), &a3) in self.tw.iter_mut().zip(c0).zip(c1).zip(c2).zip(c3)
            {
                *g += t0 * a0 + t1 * a1 + t2 * a2 + t3 * a3;
            }
            p += 4;
        }
        while p < k {
            let c = self.mcol(self.s_var[p]);
            let t = self.ts[p];
            for (g, &a) in self.tw.iter_mut().zip(c) {
                *g += t * a;
            }
            p += 1;
        }
        if let Entering::Structural(j) = entering {
            let col = self.mcol(j);
            for (g, &a) in self.tw.iter_mut().zip(col) {
                *g -= a;
            }
        }
    }

    /// Minimum ratio test, lexicographic on ties; z0 leaves whenever it ties.
    fn ratio_test(&mut self, pivot_tol: f64) -> Option<(Leaving, f64)> {
        let (n, k) = (self.n, self.k);
        let mut tmax = 0.0f64;
        let mut xmax = 0.0f64;
        for p in 0..k {
            tmax = tmax.max(self.ts[p].abs());
            xmax = xmax.max(self.xs[p].abs());
        }
        for i in 0..n {
            if self.row_at[i] == NONE {
                tmax = tmax.max(self.tw[i].abs());
                xmax = xmax.max(self.w[i].abs());
            }
        }
        let thr = pivot_tol * tmax;
        let noise = 1e-13 * xmax;
        let mut theta = f64::INFINITY;
        for p in 0..k {
            if self.ts[p] > thr {
                theta = theta.min(self.xs[p].max(0.0) / self.ts[p]);
            }
        }
        for i in 0..n {
            if self.row_at[i] == NONE && self.tw[i] > thr {
                theta = theta.min(self.w[i].max(0.0) / self.tw[i]);
            }
        }
        if !theta.is_finite() {
            return None;
        }
        let slack = 1e-9 * theta;
        self.ties.clear();
        let z0_at = self.var_at[n];
        for p in 0..k {
            let t = self.ts[p];
            if t > thr && self.xs[p].max(0.0) / t <= theta + slack + noise / t {
                if p == z0_at {
                    return Some((Leaving::Structural(p), theta));
                }
                self.ties.push(Leaving::Structural(p));
            }
        }
        for i in 0..n {
            let t = self.tw[i];
            if self.row_at[i] == NONE
                && t > thr
                && self.w[i].max(0.0) / t <= theta + slack + noise / t
            {
                self.ties.push(Leaving::Slack(i));
            }
        }
        let leaving = if self.ties.len() == 1 {
            self.ties[0]
        } else {
            self.lexicographic_ties += 1;
            self.lexicographic_choice()
        };
        let exact = match leaving {
            Leaving::Structural(p) => self.xs[p].max(0.0) / self.ts[p],
            Leaving::Slack(r) => self.w[r].max(0.0) / self.tw[r],
        };
        Some((leaving, exact))
    }
}
