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
//!
//! Files: this one holds the interface and the basis's data; pivoting.rs
//! the pivot loop (entering column, minimum ratio test); lexicographic.rs
//! the tie-break; basis.rs the compact inverse H (its four rank-one
//! updates, the residual test, the refactorization, iterative refinement).

mod basis;
mod lexicographic;
mod pivoting;
#[cfg(test)]
mod tests;

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
    /// Ratio tests whose minimum tied and went to the lexicographic rule.
    pub lexicographic_ties: usize,
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

/// A covering vector with distinct entries, d_i = 1 + frac(i / phi) (the
/// golden-ratio Weyl sequence: entries in [1, 2), no two equal, spread
/// evenly), for LCPs whose q repeats entries over many rows. With d = e
/// such rows tie in the ratio test at every pivot (x_i + t_i z0 of equal
/// rows stay equal) and the lexicographic rule must scan rows of B^-1 to
/// part them; distinct d_i part them in the ratio test itself. Any d > 0
/// is a valid covering vector (Cottle, Pang & Stone 1992, section 4.4);
/// where M is a P-matrix the solution does not depend on it.
pub fn distinct_covering(n: usize) -> Vec<f64> {
    let inverse_phi = (5f64.sqrt() - 1.0) / 2.0;
    (0..n)
        .map(|i| 1.0 + (i as f64 * inverse_phi).fract())
        .collect()
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
            lexicographic_ties: 0,
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
    /// Ratio tests decided by the lexicographic rule.
    lexicographic_ties: usize,
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
            lexicographic_ties: 0,
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
