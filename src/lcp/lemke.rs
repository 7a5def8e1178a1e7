//! Lemke's complementary pivoting algorithm with the lexicographic minimum
//! ratio test (Cottle, Pang & Stone, *The LCP*, 1992, sections 4.4 and 4.9;
//! Murty, *Linear Complementarity*, 1988, chapter 2).
//!
//! The augmented system is w - M z - d z0 = q, w, z, z0 >= 0, with a covering
//! vector d > 0 (default e). Start with all w basic; z0 enters at the value
//! that makes every w_i = q_i + d_i z0 >= 0; afterwards the entering variable
//! is always the complement of the one that just left, until z0 leaves (a
//! solution) or the entering column has no positive entry (secondary ray).
//! Ties in the ratio test are broken lexicographically on the rows of
//! [x_B, B^-1] (the perturbation q + (eps, eps^2, ..)), which makes every
//! almost-complementary basis nondegenerate and so excludes cycling.
//!
//! Storage. With k structural variables (z_j or z0) basic in columns S and
//! the slacks of the other rows R' basic, the basis is, after permutation,
//! B = [[A_RS, 0], [A_R'S, I]] with A = [-M, -d]; so B^-1 is known from the
//! k x k inverse H = A_RS^-1 alone. H lives in one contiguous row-major
//! buffer (stride n, allocated once) and each pivot is one of four rank-one
//! updates of H (bordering, column replacement, row replacement, deletion),
//! O(k^2), plus the O(n k) product A_R'S t_S for the entering column. Nothing
//! is allocated per pivot. At termination the basic solution is refined by
//! two steps of iterative refinement on A_RS x_S = q_R.
//!
//! Rank-one updates accumulate rounding over hundreds of pivots. Every
//! `check_every` pivots a residual test measures how far H is from
//! A_RS^-1: |A_RS (H u) - u|_inf / |u|_inf for a fixed probe vector u
//! (O(k^2)); above `refactor_tolerance`, H is recomputed from A_RS by a
//! dense LU (O(k^3)) and the basic values are recomputed from it
//! (`refactorizations` counts them).

use crate::lcp::Lcp;

/// Parameters of [`lemke`].
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeParams {
    /// Pivot limit; `None` = `1000 + 50 n`.
    pub max_pivots: Option<usize>,
    /// An entry t_i of the entering column counts as positive when
    /// t_i > pivot_tol * max_j |t_j|.
    pub pivot_tol: f64,
    /// Covering vector d (all entries > 0); `None` = e = (1, .., 1).
    pub covering: Option<Vec<f64>>,
    /// Columns of H per block in the lexicographic tie-break (at least 1).
    /// Performance only: every value makes the same pivots.
    pub lex_block: usize,
    /// Pivots between two residual tests of H (at least 1).
    pub check_every: usize,
    /// Refactor H when the residual test exceeds this.
    pub refactor_tolerance: f64,
}

impl Default for LemkeParams {
    fn default() -> Self {
        Self {
            max_pivots: None,
            pivot_tol: 1e-10,
            covering: None,
            lex_block: 32,
            check_every: 32,
            refactor_tolerance: 1e-10,
        }
    }
}

/// A successful Lemke run.
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeInfo {
    /// The solution z.
    pub z: Vec<f64>,
    /// Number of pivots, the entry of z0 included (0 when q >= 0).
    pub pivots: usize,
    /// Times H was recomputed from A_RS after a failed residual test.
    pub refactorizations: usize,
}

/// Why Lemke stopped without a solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LemkeError {
    /// The entering column has no positive entry: a secondary ray. Not a
    /// solution; for copositive-plus M it proves that no feasible z exists.
    #[error("Lemke: ray termination after {pivots} pivots (z0 = {z0:e})")]
    RayTermination {
        /// Pivots done.
        pivots: usize,
        /// The z part of the last basic solution.
        z: Vec<f64>,
        /// The artificial variable z0 at the ray.
        z0: f64,
    },
    /// The pivot limit was reached.
    #[error("Lemke: no termination within {pivots} pivots")]
    MaxPivots {
        /// Pivots done.
        pivots: usize,
        /// The z part of the last basic solution.
        z: Vec<f64>,
        /// The artificial variable z0.
        z0: f64,
    },
    /// The covering vector has the wrong length.
    #[error("Lemke: covering vector has length {found}, expected {expected}")]
    CoveringLength {
        /// n.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A covering-vector entry is not a finite positive number.
    #[error("Lemke: covering vector entry {index} = {value} is not a finite positive number")]
    InvalidCovering {
        /// Index of the entry.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// M or q contains NaN or infinity.
    #[error("Lemke: M or q contains a non-finite number")]
    NonFiniteInput,
    /// M is not n x n for the n of q.
    #[error("Lemke: M is {rows} x {cols} but q has length {q_len}")]
    DimensionMismatch {
        /// Rows of M.
        rows: usize,
        /// Columns of M.
        cols: usize,
        /// Length of q.
        q_len: usize,
    },
}

/// Solves LCP(M, q) by Lemke's method; see the module doc.
pub fn lemke(lcp: &Lcp, params: &LemkeParams) -> Result<LemkeInfo, LemkeError> {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return Err(LemkeError::DimensionMismatch {
            rows: lcp.m.nrows(),
            cols: lcp.m.ncols(),
            q_len: n,
        });
    }
    if !lcp.m.iter().chain(lcp.q.iter()).all(|v| v.is_finite()) {
        return Err(LemkeError::NonFiniteInput);
    }
    let ones;
    let d: &[f64] = match &params.covering {
        Some(d) => {
            if d.len() != n {
                return Err(LemkeError::CoveringLength {
                    expected: n,
                    found: d.len(),
                });
            }
            if let Some((index, &value)) = d
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && **v > 0.0))
            {
                return Err(LemkeError::InvalidCovering { index, value });
            }
            d
        }
        None => {
            ones = vec![1.0; n];
            &ones
        }
    };
    if lcp.q.iter().all(|&qi| qi >= 0.0) {
        return Ok(LemkeInfo {
            z: vec![0.0; n],
            pivots: 0,
            refactorizations: 0,
        });
    }
    let max_pivots = params.max_pivots.unwrap_or(1000 + 50 * n);
    let mut basis = Basis::new(lcp.m.as_slice(), lcp.q.as_slice(), d, params.lex_block);
    basis.check_every = params.check_every.max(1);
    basis.refactor_tolerance = params.refactor_tolerance;
    basis.run(max_pivots, params.pivot_tol)
}

/// Marks "not in the basis" in the position maps.
const NONE: usize = usize::MAX;

/// The variable entering the basis.
#[derive(Debug, Clone, Copy)]
enum Entering {
    /// Structural variable: z_j for j < n, z0 for j = n.
    Structural(usize),
    /// The slack w_i.
    Slack(usize),
}

/// A basic variable that may leave.
#[derive(Debug, Clone, Copy)]
enum Leaving {
    /// The structural variable at position p of S.
    Structural(usize),
    /// The slack of row r.
    Slack(usize),
}

/// The almost-complementary basis in the compact form of the module doc.
struct Basis<'a> {
    n: usize,
    /// M, column-major (n x n).
    m: &'a [f64],
    q: &'a [f64],
    d: &'a [f64],
    /// Number of basic structural variables.
    k: usize,
    /// H = A_RS^-1, row-major with stride n; rows follow S, columns follow R.
    h: Vec<f64>,
    /// S: structural variable at each position (z0 = n).
    s_var: Vec<usize>,
    /// R: row at each position.
    s_row: Vec<usize>,
    /// Position of each structural variable in S, or NONE.
    var_at: Vec<usize>,
    /// Position of each row in R, or NONE (its slack is basic).
    row_at: Vec<usize>,
    /// Values of the basic structural variables (by position).
    xs: Vec<f64>,
    /// Values of the basic slacks (by row; rows in R are stale).
    w: Vec<f64>,
    /// Entering column, structural part: t_S (by position).
    ts: Vec<f64>,
    /// Entering column, slack part: t_w (by row; rows in R are stale).
    tw: Vec<f64>,
    /// Scratch k-vectors.
    scratch_a: Vec<f64>,
    scratch_b: Vec<f64>,
    /// Tied candidates of the ratio test.
    ties: Vec<Leaving>,
    /// Lexicographic tie-break scratch: the rows A_rS of the slack
    /// candidates, a block of columns of H, and their product.
    lex_rows: Vec<f64>,
    lex_panel: Vec<f64>,
    lex_products: Vec<f64>,
    /// Columns of H per block of the tie-break.
    lex_block: usize,
    pivots: usize,
    /// Pivots between residual tests of H.
    check_every: usize,
    /// Residual above which H is recomputed.
    refactor_tolerance: f64,
    /// Recomputations of H.
    refactorizations: usize,
}

impl<'a> Basis<'a> {
    fn new(m: &'a [f64], q: &'a [f64], d: &'a [f64], lex_block: usize) -> Self {
        let n = q.len();
        Self {
            n,
            m,
            q,
            d,
            k: 0,
            h: vec![0.0; n * n],
            s_var: vec![NONE; n],
            s_row: vec![NONE; n],
            var_at: vec![NONE; n + 1],
            row_at: vec![NONE; n],
            xs: vec![0.0; n],
            w: q.to_vec(),
            ts: vec![0.0; n],
            tw: vec![0.0; n],
            scratch_a: vec![0.0; n],
            scratch_b: vec![0.0; n],
            ties: Vec::with_capacity(n + 1),
            lex_rows: Vec::new(),
            lex_panel: Vec::new(),
            lex_products: Vec::new(),
            lex_block: lex_block.max(1),
            pivots: 0,
            check_every: 32,
            refactor_tolerance: 1e-10,
            refactorizations: 0,
        }
    }

    /// Column j of [M, d] (the structural column is its negative).
    #[inline]
    fn mcol(&self, j: usize) -> &'a [f64] {
        if j < self.n {
            &self.m[j * self.n..(j + 1) * self.n]
        } else {
            self.d
        }
    }

    fn run(&mut self, max_pivots: usize, pivot_tol: f64) -> Result<LemkeInfo, LemkeError> {
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
        })
    }

    /// The probe vector of the residual test: fixed, all entries of one
    /// order (1 to 2), none zero.
    fn probe(p: usize) -> f64 {
        1.0 + ((p * 7919) % 97) as f64 / 97.0
    }

    /// |A_RS (H u) - u|_inf / |u|_inf for the probe u: how far H is from
    /// the inverse of the current basis block (0 in exact arithmetic).
    fn inverse_residual(&mut self) -> f64 {
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
    fn refactor(&mut self) {
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

    /// The z part of the current basic solution.
    fn z(&self) -> Vec<f64> {
        let mut z = vec![0.0; self.n];
        for p in 0..self.k {
            let j = self.s_var[p];
            if j < self.n {
                z[j] = self.xs[p].max(0.0);
            }
        }
        z
    }

    fn z0(&self) -> f64 {
        match self.var_at[self.n] {
            NONE => 0.0,
            p => self.xs[p],
        }
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
            self.lexicographic_choice()
        };
        let exact = match leaving {
            Leaving::Structural(p) => self.xs[p].max(0.0) / self.ts[p],
            Leaving::Slack(r) => self.w[r].max(0.0) / self.tw[r],
        };
        Some((leaving, exact))
    }

    /// Among the tied candidates, the lexicographic minimum of
    /// (row of B^-1) / t, columns in the original row order.
    ///
    /// Row r of B^-1 for a slack candidate is [-A_rS H, e_r] (zero in the
    /// columns of rows outside R but its own), for a structural candidate at
    /// position p it is row p of H. The rows are never formed whole: the
    /// columns are visited in blocks of up to `lex_block` columns of H, and
    /// the block's entries for all surviving slack candidates come from one
    /// matrix product C_alive H_block (faer), C = the rows A_rS. A tie
    /// usually ends long before all n columns are seen.
    fn lexicographic_choice(&mut self) -> Leaving {
        let (n, k) = (self.n, self.k);
        // Each surviving candidate with its slot in this block's product.
        let mut alive: Vec<(Leaving, usize)> = Vec::with_capacity(self.ties.len());
        let mut coefs = std::mem::take(&mut self.lex_rows);
        coefs.clear();
        for &cand in &self.ties {
            alive.push((cand, coefs.len() / k.max(1)));
            if let Leaving::Slack(r) = cand {
                coefs.extend(self.s_var[..k].iter().map(|&var| -self.mcol(var)[r]));
            }
        }
        let mut panel = std::mem::take(&mut self.lex_panel);
        let mut products = std::mem::take(&mut self.lex_products);
        let mut block: Vec<usize> = Vec::with_capacity(self.lex_block);
        let mut values = vec![0.0; alive.len()];
        let mut col = 0;
        'columns: while col < n && alive.len() > 1 {
            // The next columns up to LEX_BLOCK columns of H.
            let start = col;
            block.clear();
            let mut end = col;
            while end < n && block.len() < self.lex_block {
                if self.row_at[end] != NONE {
                    block.push(self.row_at[end]);
                }
                end += 1;
            }
            let nb = block.len();
            // C for the surviving slack candidates (row-major, one row
            // each), compacted to the front: rows only move down.
            let mut slacks = 0;
            for (cand, cand_slot) in alive.iter_mut() {
                if matches!(cand, Leaving::Slack(_)) {
                    if *cand_slot != slacks {
                        coefs.copy_within(*cand_slot * k..(*cand_slot + 1) * k, slacks * k);
                    }
                    *cand_slot = slacks;
                    slacks += 1;
                }
            }
            // The block of H (k x nb, column-major) and C times it.
            panel.resize(k * nb, 0.0);
            for (b, &q) in block.iter().enumerate() {
                for p in 0..k {
                    panel[b * k + p] = self.h[p * n + q];
                }
            }
            products.resize(slacks * nb, 0.0);
            if slacks > 0 && nb > 0 {
                faer::linalg::matmul::matmul(
                    faer::MatMut::from_column_major_slice_mut(&mut products, slacks, nb),
                    faer::Accum::Replace,
                    faer::MatRef::from_row_major_slice(&coefs[..slacks * k], slacks, k),
                    faer::MatRef::from_column_major_slice(&panel, k, nb),
                    -1.0,
                    faer::Par::Seq,
                );
            }
            // Scan the columns of the block in order.
            let mut b = 0;
            for c in start..end {
                if alive.len() == 1 {
                    break;
                }
                let in_r = self.row_at[c] != NONE;
                for (value, &(cand, slot)) in values.iter_mut().zip(&alive) {
                    *value = match cand {
                        Leaving::Structural(p) if in_r => panel[b * k + p] / self.ts[p],
                        Leaving::Structural(_) => 0.0,
                        Leaving::Slack(r) => {
                            let entry = if c == r {
                                1.0
                            } else if in_r {
                                products[b * slacks + slot]
                            } else {
                                0.0
                            };
                            entry / self.tw[r]
                        }
                    };
                }
                if in_r {
                    b += 1;
                }
                let best = values[..alive.len()]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min);
                if !best.is_finite() {
                    // Only with non-finite entries: keep the ties as they are.
                    break 'columns;
                }
                let tol = 1e-11 * (1.0 + best.abs());
                let mut i = 0;
                alive.retain(|_| {
                    let keep = values[i] <= best + tol;
                    i += 1;
                    keep
                });
            }
            col = end;
        }
        self.lex_rows = coefs;
        self.lex_panel = panel;
        self.lex_products = products;
        // Never empty: a finite minimum always survives its own test.
        alive.first().map_or(self.ties[0], |&(c, _)| c)
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
    fn pivot(&mut self, entering: Entering, leaving: Leaving, theta: f64) {
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
    fn refine(&mut self) {
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

/// Dot product with eight independent accumulators (vectorises).
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [0.0f64; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail += x * y;
    }
    (acc[0] + acc[4]) + (acc[1] + acc[5]) + (acc[2] + acc[6]) + (acc[3] + acc[7]) + tail
}

/// y += alpha x.
#[inline]
fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
        Lcp::new(
            DMatrix::from_row_slice(n, n, m_row_major),
            DVector::from_column_slice(q),
        )
        .unwrap()
    }

    #[test]
    fn solves_a_2x2_positive_definite_problem() {
        // M = [[2, 1], [1, 2]], q = (-5, -6): z = (4/3, 7/3), w = 0.
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = lemke(&p, &LemkeParams::default()).unwrap();
        assert!((info.z[0] - 4.0 / 3.0).abs() < 1e-14, "{:?}", info.z);
        assert!((info.z[1] - 7.0 / 3.0).abs() < 1e-14, "{:?}", info.z);
        assert!(p.residual(&info.z) < 1e-15);
        assert_eq!(info.pivots, 3);
    }

    #[test]
    fn nonnegative_q_needs_no_pivot() {
        let p = lcp(2, &[1.0, 0.0, 0.0, 1.0], &[1.0, 0.0]);
        let info = lemke(&p, &LemkeParams::default()).unwrap();
        assert_eq!(info.z, vec![0.0, 0.0]);
        assert_eq!(info.pivots, 0);
    }

    #[test]
    fn reports_ray_termination_on_an_infeasible_problem() {
        // M = [[-1]], q = (-1): w = -z - 1 < 0 for every z >= 0.
        let p = lcp(1, &[-1.0], &[-1.0]);
        match lemke(&p, &LemkeParams::default()) {
            Err(LemkeError::RayTermination { pivots, .. }) => assert_eq!(pivots, 1),
            other => panic!("expected a ray, got {other:?}"),
        }
    }

    #[test]
    fn rejects_a_bad_covering_vector() {
        let p = lcp(2, &[1.0, 0.0, 0.0, 1.0], &[-1.0, -1.0]);
        let params = LemkeParams {
            covering: Some(vec![1.0, 0.0]),
            ..LemkeParams::default()
        };
        assert_eq!(
            lemke(&p, &params),
            Err(LemkeError::InvalidCovering {
                index: 1,
                value: 0.0
            })
        );
        let params = LemkeParams {
            covering: Some(vec![1.0]),
            ..LemkeParams::default()
        };
        assert!(matches!(
            lemke(&p, &params),
            Err(LemkeError::CoveringLength { .. })
        ));
    }

    #[test]
    fn another_covering_vector_gives_the_same_unique_solution() {
        let p = lcp(
            3,
            &[4.0, -1.0, 0.5, -1.0, 4.0, -1.0, 0.0, -1.0, 4.0],
            &[-1.0, 2.0, -3.0],
        );
        let a = lemke(&p, &LemkeParams::default()).unwrap();
        let params = LemkeParams {
            covering: Some(vec![1.0, 2.0, 3.0]),
            ..LemkeParams::default()
        };
        let b = lemke(&p, &params).unwrap();
        for (x, y) in a.z.iter().zip(&b.z) {
            assert!((x - y).abs() < 1e-14);
        }
        assert!(p.residual(&a.z) < 1e-15);
    }

    #[test]
    fn degenerate_problem_terminates_with_a_solution() {
        // Every ratio ties at the first pivots (q = -e, identical rows of M).
        let p = lcp(
            3,
            &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            &[-1.0, -1.0, -1.0],
        );
        let info = lemke(&p, &LemkeParams::default()).unwrap();
        assert!(p.residual(&info.z) < 1e-15, "{:?}", info.z);
    }

    #[test]
    fn periodic_chain_with_massive_ties_is_solved_exactly() {
        // M = I + (inverse of a periodic chain stiffness), q periodic with
        // period 3: dozens of exact ties per ratio test, resolved across many
        // blocks of the lexicographic rule (n = 200 > LEX_BLOCK columns).
        let n = 600;
        let k = nalgebra::DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
            0 => 2.5,
            1 => -1.0,
            _ => 0.0,
        });
        let m = nalgebra::DMatrix::identity(n, n) + k.try_inverse().unwrap();
        // Distinct, most negative q_i in the middle rows: their z_i enter
        // first, so the columns of R lie between tied rows, and the
        // tie-break must eliminate candidates, then read entries of H block
        // after block.
        let q = nalgebra::DVector::from_fn(n, |i, _| {
            if (n / 2..3 * n / 4).contains(&i) {
                -2.0 - 0.01 * i as f64
            } else {
                [-1.0, 0.5, -1.0, -0.2][i % 4]
            }
        });
        let p = Lcp::new(m, q).unwrap();
        let info = lemke(&p, &LemkeParams::default()).unwrap();
        assert!(
            p.residual(&info.z) < 1e-12,
            "residual {}",
            p.residual(&info.z)
        );
        // The block size of the tie-break changes the work, never the pivots:
        // blocks of 1 to 5 columns cross many block boundaries mid-tie.
        for lex_block in [1, 2, 5, 1000] {
            let other = lemke(
                &p,
                &LemkeParams {
                    lex_block,
                    ..LemkeParams::default()
                },
            )
            .unwrap();
            assert_eq!(other.pivots, info.pivots, "lex_block = {lex_block}");
            assert_eq!(other.z, info.z, "lex_block = {lex_block}");
        }
        // M is symmetric positive definite: the solution is unique, and the
        // projected Gauss-Seidel iteration finds it independently.
        let pgs = crate::lcp::pgs::pgs(&p, &Default::default(), None)
            .unwrap()
            .z;
        let diff = info
            .z
            .iter()
            .zip(&pgs)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(diff < 1e-8, "Lemke and PGS differ by {diff}");
    }

    #[test]
    fn max_pivots_is_reported() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let params = LemkeParams {
            max_pivots: Some(1),
            ..LemkeParams::default()
        };
        assert!(matches!(
            lemke(&p, &params),
            Err(LemkeError::MaxPivots { pivots: 1, .. })
        ));
    }

    /// A long pivot sequence against exact solutions: Murty's example with
    /// n = 10 takes 2^10 = 1024 pivots (every basic value and H updated by
    /// rank-one formulas throughout) and its solution is z = 2^n e_n,
    /// exactly; a forced refactorization at every pivot gives the same.
    #[test]
    fn a_thousand_pivots_end_on_the_exact_solution() {
        let n = 10;
        let p = crate::lcp::murty(n);
        let exact: Vec<f64> = (0..n)
            .map(|i| if i + 1 == n { 1024.0 } else { 0.0 })
            .collect();
        let info = lemke(&p, &LemkeParams::default()).unwrap();
        assert_eq!(info.pivots, 1024);
        assert_eq!(info.z, exact);
        let forced = lemke(
            &p,
            &LemkeParams {
                check_every: 1,
                refactor_tolerance: 0.0,
                ..LemkeParams::default()
            },
        )
        .unwrap();
        assert_eq!(forced.pivots, 1024);
        assert!(forced.refactorizations > 500, "{}", forced.refactorizations);
        assert_eq!(forced.z, exact);
    }

    /// A random positive definite, non-symmetric M of size 300 with a
    /// constructed solution (z* >= 0, w* >= 0, z*.w* = 0, q = w* - M z*):
    /// hundreds of pivots, the exact z* recovered, with or without forced
    /// refactorizations.
    #[test]
    fn a_constructed_solution_is_recovered_after_hundreds_of_pivots() {
        let n = 300;
        let mut seed = 12345u64;
        let mut rand = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        let b = DMatrix::from_fn(n, n, |_, _| rand());
        let skew = DMatrix::from_fn(n, n, |_, _| rand());
        let m = &b * b.transpose() / n as f64
            + DMatrix::identity(n, n)
            + (&skew - skew.transpose()) * 0.1;
        let z_star = DVector::from_fn(n, |i, _| {
            if i % 3 == 0 {
                1.0 + (i as f64 * 0.37).sin().abs()
            } else {
                0.0
            }
        });
        let w_star = DVector::from_fn(n, |i, _| {
            if i % 3 == 0 {
                0.0
            } else {
                0.5 + (i as f64 * 0.11).cos().abs()
            }
        });
        let q = &w_star - &m * &z_star;
        let p = Lcp::new(m, q).unwrap();
        for params in [
            LemkeParams::default(),
            LemkeParams {
                check_every: 1,
                refactor_tolerance: 0.0,
                ..LemkeParams::default()
            },
        ] {
            let info = lemke(&p, &params).unwrap();
            assert!(info.pivots >= 100, "{} pivots", info.pivots);
            let worst = info
                .z
                .iter()
                .zip(z_star.iter())
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
            assert!(worst < 1e-11, "max |z - z*| = {worst}");
        }
    }

    /// The residual test sees a damaged H, and a refactorization repairs it.
    #[test]
    fn the_residual_test_detects_a_damaged_inverse() {
        let p = lcp(
            3,
            &[4.0, -1.0, 0.5, -1.0, 4.0, -1.0, 0.0, -1.0, 4.0],
            &[-1.0, -2.0, -3.0],
        );
        let d = [1.0; 3];
        let mut basis = Basis::new(p.m.as_slice(), p.q.as_slice(), &d, 32);
        basis.run(100, 1e-10).expect("solves");
        assert!(basis.k > 0);
        assert!(basis.inverse_residual() < 1e-14);
        basis.h[0] += 1e-6;
        assert!(basis.inverse_residual() > 1e-8);
        basis.refactor();
        assert!(basis.inverse_residual() < 1e-14);
        assert_eq!(basis.refactorizations, 1);
    }
}
