//! The dense-LCP step of Yu (2013) (`newmark-lcp`, the paper's method;
//! the parent module's doc has the LCP): K_eff^-1 D^T and the Delassus
//! matrix precomputed once, one LCP per step; and the dense LU it solves
//! K_eff with.

use nalgebra::{DMatrix, DVector};

use super::step_solver::StepSolver;
use crate::error::SolverError;
use crate::lcp::lemke::{LemkeParams, distinct_covering};
use crate::lcp::{self, Lcp, LcpOptions, LcpSolverKind, LcpStatus};
use crate::problem::GapSystem;
use crate::sparse::to_dense;

/// The dense-LCP step of Yu (2013): A = I + D K_eff^-1 D^T K_g once, one LCP
/// per step.
pub struct DenseLcpStep {
    k_lu: DenseLu,
    /// G = K_eff^-1 D^T, n x m.
    g_mat: DMatrix<f64>,
    lcp: Lcp,
    d: DMatrix<f64>,
    gaps: Vec<f64>,
    k_gap: Vec<f64>,
    solver: LcpSolverKind,
    options: LcpOptions,
    /// Lemke's parameters: the covering vector with distinct entries.
    lemke: LemkeParams,
    z_prev: Vec<f64>,
    active: usize,
    xhat: DVector<f64>,
}

impl DenseLcpStep {
    /// Precomputes K_eff^-1, G and A for the given K_eff.
    pub fn new(
        system: &GapSystem,
        k_eff: &DMatrix<f64>,
        solver: LcpSolverKind,
        options: LcpOptions,
    ) -> Result<Self, SolverError> {
        let n = system.dofs();
        let m = system.springs.len();
        let k_lu = DenseLu::new(k_eff).ok_or_else(|| SolverError::Singular {
            what: "K_eff of newmark-lcp".into(),
        })?;
        let d = to_dense(&system.springs.directions);
        let (g_mat, mut a) = delassus(k_eff, &k_lu, &system.springs.directions, &d);
        for j in 0..m {
            let k = system.springs.stiffness[j];
            for i in 0..m {
                a[(i, j)] *= k;
            }
            a[(j, j)] += 1.0;
        }
        let lcp = Lcp {
            m: a,
            q: DVector::zeros(m),
        };
        Ok(Self {
            k_lu,
            g_mat,
            lcp,
            d,
            gaps: system.springs.gaps.clone(),
            k_gap: system.springs.stiffness.clone(),
            solver,
            options,
            lemke: LemkeParams {
                covering: Some(distinct_covering(m)),
                ..LemkeParams::default()
            },
            z_prev: vec![0.0; m],
            active: 0,
            xhat: DVector::zeros(n),
        })
    }

    /// The step LCP matrix A (for benches and tests).
    pub fn lcp_matrix(&self) -> &DMatrix<f64> {
        &self.lcp.m
    }

    /// The LCP of the last step (A, b).
    pub fn last_lcp(&self) -> &Lcp {
        &self.lcp
    }
}

/// G = K_eff^-1 D^T (n x m) and W = D G (m x m), the dense LCP's
/// precomputed matrices. When K_eff is symmetric with a narrow band
/// (half-bandwidth w at most n / 8; the chain's is 1), each column of G is
/// a banded Cholesky solve (O(n w) against the dense LU's O(n^2)) and W
/// takes D's nonzeros only (D has one or two per row), instead of n dense
/// solves and a dense product (about 2.5e9 instructions for chain-1000,
/// five times its Lemke step). The two agree to round-off; anything else
/// takes the dense path.
fn delassus(
    k_eff: &DMatrix<f64>,
    k_lu: &DenseLu,
    directions: &sprs::CsMat<f64>,
    d: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    delassus_banded(k_eff, directions, d).unwrap_or_else(|| {
        let g_mat = k_lu.solve_matrix(&d.transpose());
        let w = d * &g_mat;
        (g_mat, w)
    })
}

/// [`delassus`]'s banded path; None where it does not apply.
fn delassus_banded(
    k_eff: &DMatrix<f64>,
    directions: &sprs::CsMat<f64>,
    d: &DMatrix<f64>,
) -> Option<(DMatrix<f64>, DMatrix<f64>)> {
    let n = k_eff.nrows();
    let symmetric = (0..n).all(|j| (j + 1..n).all(|i| k_eff[(i, j)] == k_eff[(j, i)]));
    if !symmetric || !directions.is_csr() {
        return None;
    }
    let band = crate::sparse::band::BandCholesky::within(k_eff, n / 8).ok()?;
    let m = d.nrows();
    let mut g_mat = d.transpose();
    for mut col in g_mat.column_iter_mut() {
        band.solve_in_place(col.as_mut_slice());
    }
    let mut w = DMatrix::zeros(m, m);
    for (i, row) in directions.outer_iterator().enumerate() {
        for (c, &v) in row.iter() {
            for j in 0..m {
                w[(i, j)] += v * g_mat[(c, j)];
            }
        }
    }
    Some((g_mat, w))
}

impl StepSolver for DenseLcpStep {
    fn solve(
        &mut self,
        r: &[f64],
        x_pred: &[f64],
        u: &mut [f64],
        f: &mut [f64],
        step: usize,
        t: f64,
    ) -> Result<usize, SolverError> {
        let m = self.gaps.len();
        self.xhat.as_mut_slice().copy_from_slice(r);
        self.k_lu.solve_in_place(self.xhat.as_mut_slice());
        u.copy_from_slice(self.xhat.as_slice());
        if m == 0 {
            return Ok(0);
        }
        // b = g - D (x~ + u_hat)
        let pred = DVector::from_iterator(
            x_pred.len(),
            x_pred.iter().zip(self.xhat.iter()).map(|(a, b)| a + b),
        );
        let dx = &self.d * pred;
        for j in 0..m {
            self.lcp.q[j] = self.gaps[j] - dx[j];
        }
        // Lemke with distinct covering entries: A = (K_g^-1 + D K_eff^-1
        // D^T) K_g is a P-matrix (an SPD matrix times a positive
        // diagonal), so the solution is unique and d only sets the path.
        // With d = e the chain's rows at rest tie in nearly every ratio
        // test (equal q_i), and the lexicographic tie-break was 94 % of
        // the step's instructions (callgrind, chain-1000); the same run
        // takes the same number of pivots either way (49,796).
        let sol = if self.solver == LcpSolverKind::Lemke {
            lcp::run::run_lemke(&self.lcp, &self.options, &self.lemke, "lemke")
        } else {
            lcp::solve(&self.lcp, self.solver, &self.options, Some(&self.z_prev))
        };
        if sol.status != LcpStatus::Solved {
            return Err(SolverError::Lcp {
                solver: sol.solver.to_string(),
                status: sol.status.to_string(),
                step,
                t,
                residual: sol.residual,
            });
        }
        self.active = 0;
        for (j, (fj, zj)) in f.iter_mut().zip(&sol.z).enumerate() {
            *fj = self.k_gap[j] * zj.max(0.0);
            if *fj != 0.0 {
                self.active += 1;
                // u = u_hat - G f
                for (ui, gi) in u.iter_mut().zip(self.g_mat.column(j).iter()) {
                    *ui -= gi * *fj;
                }
            }
        }
        self.z_prev.copy_from_slice(&sol.z);
        Ok(sol.iterations)
    }

    fn active(&self) -> usize {
        self.active
    }

    fn factorizations(&self) -> usize {
        1
    }
}

/// A dense LU factorization with partial pivoting (faer), solved per step:
/// O(n^2) per solve like a product with the inverse, but without the
/// inverse's extra rounding.
pub struct DenseLu {
    lu: faer::linalg::solvers::PartialPivLu<f64>,
    n: usize,
}

impl DenseLu {
    /// Factors `a`; None when it is singular (a zero or non-finite pivot).
    pub fn new(a: &DMatrix<f64>) -> Option<Self> {
        let n = a.nrows();
        let fa = faer::Mat::<f64>::from_fn(n, n, |i, j| a[(i, j)]);
        let lu = fa.partial_piv_lu();
        let this = Self { lu, n };
        // Singular or non-finite: a solve with e_1 .. e_n would show it; the
        // diagonal of U is cheaper.
        let u_ok = (0..n).all(|i| {
            let u = this.lu.U()[(i, i)];
            u.is_finite() && u != 0.0
        });
        u_ok.then_some(this)
    }

    /// Solves A x = b in place.
    pub fn solve_in_place(&self, b: &mut [f64]) {
        use faer::linalg::solvers::SolveCore;
        let rhs = faer::MatMut::from_column_major_slice_mut(b, self.n, 1);
        self.lu.solve_in_place_with_conj(faer::Conj::No, rhs);
    }

    /// A^-1 B for a dense B.
    pub fn solve_matrix(&self, b: &DMatrix<f64>) -> DMatrix<f64> {
        let mut out = b.clone();
        for mut col in out.column_iter_mut() {
            self.solve_in_place(col.as_mut_slice());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::gap_system::Chain;
    use crate::problem::Harmonic;

    /// The banded path of the Delassus matrices agrees with the dense LU
    /// and product to round-off, on the chain it is taken for.
    #[test]
    fn banded_delassus_agrees_with_dense() {
        let sys = Chain::benchmark(60).system(Harmonic {
            amplitude: vec![60.0],
            omega: 10.0,
        });
        // K + M / (beta dt^2) at dt = 0.01 s: symmetric, tridiagonal.
        let k_eff = to_dense(&sys.stiffness) + to_dense(&sys.mass) * 4e4;
        let d = to_dense(&sys.springs.directions);
        let (g_band, w_band) =
            delassus_banded(&k_eff, &sys.springs.directions, &d).expect("banded path");
        let k_lu = DenseLu::new(&k_eff).expect("K_eff");
        let g_dense = k_lu.solve_matrix(&d.transpose());
        let w_dense = &d * &g_dense;
        let rel = |a: &DMatrix<f64>, b: &DMatrix<f64>| (a - b).amax() / b.amax();
        assert!(
            rel(&g_band, &g_dense) < 1e-13,
            "G: {}",
            rel(&g_band, &g_dense)
        );
        assert!(
            rel(&w_band, &w_dense) < 1e-13,
            "W: {}",
            rel(&w_band, &w_dense)
        );
        // A full matrix takes the dense path.
        let full = DMatrix::from_fn(4, 4, |i, j| if i == j { 4.0 } else { 1.0 });
        let rows = sprs::CsMat::<f64>::eye(4);
        assert!(delassus_banded(&full, &rows, &DMatrix::identity(4, 4)).is_none());
    }

    /// The step's Lemke with distinct covering entries solves the chain's
    /// step LCPs as d = e does (A is a P-matrix: one solution), and it
    /// takes the rows at rest apart in the ratio test: fewer ratio tests
    /// go to the lexicographic rule. Over 30 steps of the benchmark chain
    /// (120 masses).
    #[test]
    fn distinct_covering_solves_as_unit_covering_with_fewer_ties() {
        use crate::lcp::lemke::lemke;
        let sys = crate::fixtures::chain::system(120);
        let p = crate::fixtures::chain::params(30);
        let k_eff = super::super::effective_stiffness(&sys, &p);
        let mut step = DenseLcpStep::new(&sys, &k_eff, LcpSolverKind::Lemke, LcpOptions::default())
            .expect("K_eff");
        let zeros = vec![0.0; sys.dofs()];
        let mut stepper = super::super::Stepper::new(&sys, &p, &zeros, &zeros).expect("stepper");
        let (mut ties_unit, mut ties_distinct, mut pivots) = (0, 0, 0);
        for _ in 0..30 {
            stepper.advance(&mut step).expect("step");
            let lcp = step.last_lcp();
            let unit = lemke(lcp, &LemkeParams::default()).expect("d = e");
            let distinct = lemke(lcp, &step.lemke).expect("distinct d");
            let scale = unit.z.iter().fold(1e-300f64, |a, z| a.max(z.abs()));
            let gap = unit
                .z
                .iter()
                .zip(&distinct.z)
                .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
            assert!(
                gap <= 1e-10 * scale,
                "solutions differ by {gap:e} of {scale:e}"
            );
            ties_unit += unit.lexicographic_ties;
            ties_distinct += distinct.lexicographic_ties;
            pivots += unit.pivots;
        }
        println!("pivots {pivots}, ties: d = e {ties_unit}, distinct {ties_distinct}");
        assert!(pivots > 0, "the forcing engaged no gap");
        assert!(ties_unit > 0, "d = e met no tie: the test shows nothing");
        assert!(ties_distinct < ties_unit, "{ties_distinct} >= {ties_unit}");
    }
}
