//! A complete method for small LCPs: depth-first search over complementary
//! patterns with linear-programming pruning (the branch-and-bound scheme of
//! Júdice, Faustino & Ribeiro; cf. Cottle, Pang & Stone 1992, section 3.1 on
//! the geometry of complementary cones).
//!
//! A node fixes z_i = 0 or w_i = 0 for some indices i. Its feasibility
//! problem is the polyhedron P = {z >= 0 : w = M z + q >= 0, the fixings}.
//! If P is empty (phase-1 simplex, Bland's rule) no LCP solution has this
//! pattern and the subtree is pruned. Otherwise the LP vertex is tested: if
//! min(z_i, w_i) = 0 for every i it is a solution; else the search branches on
//! the index with the largest violation (the branch fixing the smaller of
//! z_i, w_i first). When every index is fixed, any point of P is a solution,
//! so an exhausted tree proves that none exists (up to the LP tolerance).
//! Solutions are polished by solving the final LP basis B x = -q exactly
//! (LU with full pivoting) so the residual reaches round-off.
//!
//! Worst case 2^n nodes; the dimension and the node count are limited.

use crate::lcp::Lcp;
use nalgebra::DMatrix;

/// Parameters of [`enumerate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnumerateParams {
    /// Largest n accepted.
    pub max_dim: usize,
    /// Node (LP) limit.
    pub max_nodes: usize,
    /// z_i (or w_i) counts as zero below complementarity_tol times the
    /// rounding scale of its computation (||z||_inf, |q_i| + |M_i| |z|).
    pub complementarity_tol: f64,
    /// Phase-1 optimum below which P counts as nonempty (rows scaled to 1).
    pub feasibility_tol: f64,
}

impl Default for EnumerateParams {
    fn default() -> Self {
        Self {
            max_dim: 30,
            max_nodes: 200_000,
            complementarity_tol: 1e-11,
            feasibility_tol: 1e-9,
        }
    }
}

/// A solution found by enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumerateInfo {
    /// The solution.
    pub z: Vec<f64>,
    /// Nodes (LPs) explored.
    pub nodes: usize,
}

/// Why enumeration returned no solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EnumerateError {
    /// The whole tree was pruned: the LCP has no solution.
    #[error("enumeration: no solution exists ({nodes} nodes explored)")]
    NoSolution {
        /// Nodes explored.
        nodes: usize,
    },
    /// n is above the limit.
    #[error("enumeration: n = {n} exceeds the limit {max_dim} (2^n patterns)")]
    TooLarge {
        /// Problem size.
        n: usize,
        /// The limit.
        max_dim: usize,
    },
    /// The node limit was reached before a solution or a proof.
    #[error("enumeration: node limit {nodes} reached without a solution or a proof")]
    NodeLimit {
        /// Nodes explored.
        nodes: usize,
    },
    /// M is not n x n for the n of q.
    #[error("enumeration: M is {rows} x {cols} but q has length {q_len}")]
    DimensionMismatch {
        /// Rows of M.
        rows: usize,
        /// Columns of M.
        cols: usize,
        /// Length of q.
        q_len: usize,
    },
    /// M or q contains NaN or infinity.
    #[error("enumeration: M or q contains a non-finite number")]
    NonFiniteInput,
}

/// What a node fixes for index i.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fix {
    Free,
    ZeroZ,
    ZeroW,
}

/// Solves LCP(M, q) completely for small n, or proves it has no solution.
pub fn enumerate(lcp: &Lcp, params: &EnumerateParams) -> Result<EnumerateInfo, EnumerateError> {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return Err(EnumerateError::DimensionMismatch {
            rows: lcp.m.nrows(),
            cols: lcp.m.ncols(),
            q_len: n,
        });
    }
    if !lcp.m.iter().chain(lcp.q.iter()).all(|v| v.is_finite()) {
        return Err(EnumerateError::NonFiniteInput);
    }
    if n > params.max_dim {
        return Err(EnumerateError::TooLarge {
            n,
            max_dim: params.max_dim,
        });
    }
    if lcp.q.iter().all(|&v| v >= 0.0) {
        return Ok(EnumerateInfo {
            z: vec![0.0; n],
            nodes: 0,
        });
    }
    let mut stack = vec![vec![Fix::Free; n]];
    let mut nodes = 0;
    while let Some(fixes) = stack.pop() {
        crate::deadline::check_every(nodes);
        if nodes >= params.max_nodes {
            return Err(EnumerateError::NodeLimit { nodes });
        }
        nodes += 1;
        let Some(vertex) = feasible_vertex(lcp, &fixes, params.feasibility_tol) else {
            continue;
        };
        let w = lcp.w(&vertex.z);
        let zero = ZeroTest::new(lcp, &vertex.z, params.complementarity_tol);
        // The free index with the largest complementarity violation.
        let mut worst: Option<(usize, f64)> = None;
        for i in 0..n {
            if fixes[i] == Fix::Free && !zero.z(vertex.z[i]) && !zero.w(i, w[i]) {
                let viol = (vertex.z[i] / zero.z_scale).min(w[i] / zero.w_scale[i]);
                if worst.is_none_or(|(_, v)| viol > v) {
                    worst = Some((i, viol));
                }
            }
        }
        match worst {
            None => {
                let z = polish_principal(lcp, &vertex.z, &zero).unwrap_or(vertex.z);
                return Ok(EnumerateInfo { z, nodes });
            }
            Some((i, _)) => {
                let (first, second) = if vertex.z[i] <= w[i] {
                    (Fix::ZeroZ, Fix::ZeroW)
                } else {
                    (Fix::ZeroW, Fix::ZeroZ)
                };
                let mut a = fixes.clone();
                a[i] = second;
                stack.push(a);
                let mut b = fixes;
                b[i] = first;
                stack.push(b);
            }
        }
    }
    Err(EnumerateError::NoSolution { nodes })
}

/// Whether {z >= 0 : M z + q >= 0} is nonempty (phase-1 simplex); `Some`
/// with a vertex when it is. Used by `auto` to confirm an infeasibility
/// certificate.
pub fn feasible_point(lcp: &Lcp, feasibility_tol: f64) -> Option<Vec<f64>> {
    let n = lcp.q.len();
    if lcp.m.nrows() != n || lcp.m.ncols() != n {
        return None;
    }
    feasible_vertex(lcp, &vec![Fix::Free; n], feasibility_tol).map(|v| v.z)
}

/// A vertex of the node polyhedron.
struct Vertex {
    z: Vec<f64>,
}

/// A column of the node LP in equality form
/// sum_j M_ij z_j - w_i + s_i a_i = -q_i (rows scaled, signs flipped so the
/// right-hand side is >= 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Z(usize),
    W(usize),
    Artificial(usize),
}

/// Phase 1 stops when the sum of the artificials is below this fraction of
/// the feasibility tolerance.
const PHASE1_DONE: f64 = 1e-3;

/// Phase-1 simplex on the node LP; `None` when P is empty.
fn feasible_vertex(lcp: &Lcp, fixes: &[Fix], feasibility_tol: f64) -> Option<Vertex> {
    let n = lcp.q.len();
    let mut columns: Vec<Column> = Vec::with_capacity(3 * n);
    columns.extend((0..n).filter(|&j| fixes[j] != Fix::ZeroZ).map(Column::Z));
    columns.extend((0..n).filter(|&i| fixes[i] != Fix::ZeroW).map(Column::W));
    let structural = columns.len();
    columns.extend((0..n).map(Column::Artificial));
    let width = columns.len() + 1;
    // Tableau rows (n) plus the phase-1 cost row, rhs in the last column.
    let mut t = vec![0.0; (n + 1) * width];
    for i in 0..n {
        let mut scale = lcp.q[i].abs();
        for j in 0..n {
            scale = scale.max(lcp.m[(i, j)].abs());
        }
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let sign = if -lcp.q[i] < 0.0 { -1.0 } else { 1.0 };
        let row = &mut t[i * width..(i + 1) * width];
        for (c, col) in columns.iter().enumerate() {
            row[c] = match *col {
                Column::Z(j) => sign * lcp.m[(i, j)] / scale,
                Column::W(r) if r == i => -sign / scale,
                Column::W(_) => 0.0,
                Column::Artificial(r) if r == i => 1.0,
                Column::Artificial(_) => 0.0,
            };
        }
        row[width - 1] = sign * -lcp.q[i] / scale;
    }
    // Cost row: reduced costs of min sum(a) = -(sum of rows) on non-artificials.
    for c in 0..width {
        if c < structural || c == width - 1 {
            let s: f64 = (0..n).map(|i| t[i * width + c]).sum();
            t[n * width + c] = -s;
        }
    }
    let mut basis: Vec<usize> = (structural..structural + n).collect();
    // Slack start: where q_i > 0 and w_i is free, w_i = q_i is a feasible
    // basic value, so w_i replaces the artificial of row i (its column has
    // one entry, in row i). Only rows with q_i < 0 (or fixed w_i) keep an
    // artificial, which keeps phase 1 short and away from far vertices.
    for (i, basic) in basis.iter_mut().enumerate() {
        if lcp.q[i] > 0.0
            && let Some(c) = columns.iter().position(|&col| col == Column::W(i))
        {
            pivot(&mut t, width, n + 1, i, c);
            *basic = c;
        }
    }
    let eps = 1e-12;
    // Bland's rule: finite termination; the bound is a safety net only.
    for _ in 0..50 * (width + n) {
        // Phase 1 is over once the artificials are (numerically) zero: the
        // reduced costs left are then round-off, and pivoting on them can
        // walk to far vertices whose tableau has lost all accuracy.
        let artificial_sum = -t[n * width + width - 1];
        if artificial_sum <= PHASE1_DONE * feasibility_tol || basis.iter().all(|&b| b < structural)
        {
            break;
        }
        let Some(enter) = (0..width - 1).find(|&c| t[n * width + c] < -eps) else {
            break;
        };
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..n {
            let a = t[i * width + enter];
            if a > eps {
                let ratio = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((l, best)) => {
                        ratio < best - 1e-15 || (ratio <= best + 1e-15 && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Unbounded phase 1 is impossible (the objective is >= 0).
        let (r, _) = leave?;
        pivot(&mut t, width, n + 1, r, enter);
        basis[r] = enter;
    }
    if -t[n * width + width - 1] > feasibility_tol {
        return None;
    }
    let mut z = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if let Column::Z(j) = columns[b] {
            z[j] = t[i * width + width - 1].max(0.0);
        }
    }
    let polished = polish(lcp, &basis.iter().map(|&b| columns[b]).collect::<Vec<_>>());
    if let Some(p) = polished
        && lcp.residual(&p) <= lcp.residual(&z)
    {
        z = p;
    }
    Some(Vertex { z })
}

/// When a computed z_i or w_i counts as zero: below `tol` times the
/// rounding scale of its computation (||z||_inf for z, |q_i| + |M_i| |z|
/// for w_i).
struct ZeroTest {
    z_scale: f64,
    w_scale: Vec<f64>,
    tol: f64,
}

impl ZeroTest {
    fn new(lcp: &Lcp, z: &[f64], tol: f64) -> Self {
        let n = z.len();
        let z_scale = z
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()))
            .max(f64::MIN_POSITIVE);
        let w_scale = (0..n)
            .map(|i| {
                let s: f64 = (0..n).map(|j| (lcp.m[(i, j)] * z[j]).abs()).sum();
                (s + lcp.q[i].abs()).max(f64::MIN_POSITIVE)
            })
            .collect();
        Self {
            z_scale,
            w_scale,
            tol,
        }
    }
    fn z(&self, zi: f64) -> bool {
        zi <= self.tol * self.z_scale
    }
    fn w(&self, i: usize, wi: f64) -> bool {
        wi <= self.tol * self.w_scale[i]
    }
}

/// Re-solves the principal system M_aa z_a = -q_a of a complementary
/// point's support a; the result when it has the smaller residual.
fn polish_principal(lcp: &Lcp, z: &[f64], zero: &ZeroTest) -> Option<Vec<f64>> {
    let n = z.len();
    let alpha: Vec<usize> = (0..n).filter(|&i| !zero.z(z[i])).collect();
    let k = alpha.len();
    let mut out = vec![0.0; n];
    if k > 0 {
        let a = DMatrix::from_fn(k, k, |i, j| lcp.m[(alpha[i], alpha[j])]);
        let rhs = nalgebra::DVector::from_fn(k, |i, _| -lcp.q[alpha[i]]);
        let za = a.full_piv_lu().solve(&rhs)?;
        for (i, &ai) in alpha.iter().enumerate() {
            out[ai] = za[i].max(0.0);
        }
    }
    (lcp.residual(&out) < lcp.residual(z)).then_some(out)
}

/// Gauss-Jordan pivot of the tableau on (r, c).
fn pivot(t: &mut [f64], width: usize, rows: usize, r: usize, c: usize) {
    let p = t[r * width + c];
    for v in &mut t[r * width..(r + 1) * width] {
        *v /= p;
    }
    let pivot_row: Vec<f64> = t[r * width..(r + 1) * width].to_vec();
    for i in 0..rows {
        if i != r {
            let f = t[i * width + c];
            if f != 0.0 {
                for (v, &pr) in t[i * width..(i + 1) * width].iter_mut().zip(&pivot_row) {
                    *v -= f * pr;
                }
            }
        }
    }
}

/// Re-solves the basis system B x = -q of the unscaled LP exactly; the z
/// part, clipped at 0, or `None` when B is singular.
fn polish(lcp: &Lcp, basic: &[Column]) -> Option<Vec<f64>> {
    let n = lcp.q.len();
    let mut b = DMatrix::zeros(n, n);
    for (c, col) in basic.iter().enumerate() {
        match *col {
            Column::Z(j) => b.set_column(c, &lcp.m.column(j)),
            Column::W(i) => b[(i, c)] = -1.0,
            Column::Artificial(i) => b[(i, c)] = 1.0,
        }
    }
    let x = b.full_piv_lu().solve(&(-&lcp.q))?;
    let mut z = vec![0.0; n];
    for (c, col) in basic.iter().enumerate() {
        if let Column::Z(j) = *col {
            z[j] = x[c].max(0.0);
        }
    }
    z.iter().all(|v| v.is_finite()).then_some(z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DVector;

    fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
        Lcp::new(
            DMatrix::from_row_slice(n, n, m_row_major),
            DVector::from_column_slice(q),
        )
        .unwrap()
    }

    #[test]
    fn finds_the_solution_of_a_p_matrix_problem() {
        let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
        let info = enumerate(&p, &EnumerateParams::default()).unwrap();
        assert!(p.residual(&info.z) < 1e-14, "{info:?}");
    }

    #[test]
    fn proves_infeasibility() {
        // w1 = -z2 - z3 - 1e-4 < 0 for every z >= 0.
        let p = lcp(
            3,
            &[0.0, -1.0, -1.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
            &[-1e-4, -1.0, 1.0],
        );
        assert!(matches!(
            enumerate(&p, &EnumerateParams::default()),
            Err(EnumerateError::NoSolution { .. })
        ));
        assert!(feasible_point(&p, 1e-9).is_none());
    }

    #[test]
    fn proves_infeasibility_when_the_feasible_set_is_not_empty() {
        // M = [[3, -2], [1, -3]], q = (-1, -3): z = (3, 0) is feasible
        // (w = (8, 0)) but none of the four complementary patterns is.
        let p = lcp(2, &[3.0, -2.0, 1.0, -3.0], &[-1.0, -3.0]);
        assert!(feasible_point(&p, 1e-9).is_some());
        match enumerate(&p, &EnumerateParams::default()) {
            Err(EnumerateError::NoSolution { nodes }) => assert!(nodes > 1),
            other => panic!("expected NoSolution, got {other:?}"),
        }
    }

    #[test]
    fn a_degenerate_continuum_has_a_solution() {
        // M = [[1, 1], [1, 1]], q = (-1, -1): every z1 + z2 = 1 solves.
        let p = lcp(2, &[1.0; 4], &[-1.0, -1.0]);
        let info = enumerate(&p, &EnumerateParams::default()).unwrap();
        assert!(p.residual(&info.z) < 1e-14);
    }

    #[test]
    fn refuses_large_problems() {
        let n = 31;
        let p = Lcp::new(DMatrix::identity(n, n), DVector::from_element(n, -1.0)).unwrap();
        assert_eq!(
            enumerate(&p, &EnumerateParams::default()),
            Err(EnumerateError::TooLarge { n: 31, max_dim: 30 })
        );
    }
}
