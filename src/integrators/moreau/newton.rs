//! The contact impulses of a Moreau step under a regularised friction law
//! (f(0) = 0: the law never sticks, its impulse is a function of the end
//! velocity) by a semi-smooth Newton method over all contacts at once,
//! instead of Gauss-Seidel sweeps over them.
//!
//! With the Delassus operator G (3m x 3m for m contacts; rows t1, t2, N of
//! each) the end velocities are c+ = c_free + G P, and the impulses solve
//! R(P) = 0 with, per contact j,
//!
//!   R_N = P_N - h F_N(c+_N)                   (the implicit penalty law),
//!   R_t = P_t + P_N psi(c+_t),   psi(c) = f(|c|) c / |c|,
//!
//! (the friction law's implicit force; a line contact has one tangential
//! row and R_t2 = P_t2). F_N(x) = max(0, a - b x) while the theta-point
//! penetration is positive (`contact::impulse::ThetaPenalty`, the law
//! `penalty_impulse` solves in closed form), 0 otherwise; a prescribed
//! normal force gives R_N = P_N - h N. The Jacobian is dR/dP = I + D G
//! (rows of the normal law and of psi: -h F_N' e_N^T G, psi e_N^T + P_N D psi G_t), with
//! D psi = (f/s) I + (f' - f/s) c c^T / s^2 (s = |c|; f'(0) I at s = 0).
//!
//! **G has low rank.** The contacts see the system only through its r
//! contact DOFs (the blades' tip nodes: r = 10 for 20 patches, 3m = 60),
//! so G = H Y with H (3m x r) the contact rows and Y = W^-1 H^T restricted
//! to the contact DOFs (r x 3m). The residual's c = c_free + H (Y P) costs
//! 2 (3m) r, and the Newton matrix J = A + U Y (A = D_p, block diagonal,
//! U = D_c H) is solved by the Sherman-Morrison-Woodbury identity,
//!
//!   J^-1 b = A^-1 b - Z S^-1 Y A^-1 b,   Z = A^-1 U,   S = I_r + Y Z,
//!
//! an r x r LU instead of the 3m x 3m one (Golub & Van Loan, *Matrix
//! Computations*, 4th ed., 2013, section 2.1.4). S = I_r + Y A^-1 D_c H
//! is well conditioned where the law is monotone (D_c >= 0, A unit
//! triangular). A backtracking line search halves the step
//! until |R|_2 decreases (the Newton direction descends |R|_2^2). The
//! iteration stops when |R|_inf is at most the stepper's tolerance times
//! the largest impulse (also where the line search meets the round-off
//! floor of R there). Redundant contacts (the blades' patches on one rigid shroud
//! pair) make G nearly singular, which slows Gauss-Seidel to hundreds of
//! sweeps a step; I + D G stays regular (D G has no negative eigenvalues
//! for a monotone law), so Newton takes a handful of iterations.
//!
//! Where Newton does not converge (the normal law's switch at zero
//! penetration is a jump, where it may cycle) the caller goes on with the
//! sweeps.

use crate::contact::friction::FrictionLaw;
use crate::contact::impulse::ThetaPenalty;
use crate::problem::moreau::{ContactLaw, MoreauProblem, NormalLaw};

/// Most Newton iterations before the sweeps take over.
const MAX_ITERATIONS: usize = 40;

/// Most halvings of a Newton step.
const MAX_BACKTRACKS: usize = 30;

/// The Delassus operator G = H Y over all contacts in its low-rank form
/// (module doc): H (3m x r, rows t1, t2, N per contact) and Y (r x 3m),
/// both row-major.
pub(super) struct Delassus {
    /// 3m.
    rows: usize,
    /// r, the contact DOFs.
    rank: usize,
    h: Vec<f64>,
    y: Vec<f64>,
}

impl Delassus {
    /// From the problem's contact rows and the blocks Y H_j^T (r x 3 per
    /// contact) the stepper keeps.
    pub(super) fn new<P: MoreauProblem>(problem: &P, yh: &[Vec<[f64; 3]>]) -> Self {
        let (m, rank) = (yh.len(), yh.first().map_or(0, Vec::len));
        let rows = 3 * m;
        let mut h = vec![0.0; rows * rank];
        let mut y = vec![0.0; rank * rows];
        for (j, yj) in yh.iter().enumerate() {
            for a in 0..3 {
                h[(3 * j + a) * rank..(3 * j + a + 1) * rank]
                    .copy_from_slice(&problem.contact_row(j, a)[..rank]);
                for (k, yk) in yj.iter().enumerate() {
                    y[k * rows + 3 * j + a] = yk[a];
                }
            }
        }
        Self { rows, rank, h, y }
    }

    /// u = Y p (r entries).
    fn y_times(&self, p: &[f64], u: &mut [f64]) {
        for (k, uk) in u.iter_mut().enumerate() {
            *uk = dot(&self.y[k * self.rows..(k + 1) * self.rows], p);
        }
    }

    /// G as a dense row-major 3m x 3m matrix (for tests).
    #[cfg(test)]
    fn dense(&self) -> Vec<f64> {
        let n = self.rows;
        let mut g = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                g[i * n + j] = (0..self.rank)
                    .map(|k| self.h[i * self.rank + k] * self.y[k * n + j])
                    .sum();
            }
        }
        g
    }

    /// The Newton direction J^-1 b for J = A + D_c G, A and D_c block
    /// diagonal (`d_dp`, `d_dc` per contact), by the Woodbury identity of
    /// the module doc; None where a block of A or S is singular.
    fn newton_direction(
        &self,
        d_dp: &[[[f64; 3]; 3]],
        d_dc: &[[[f64; 3]; 3]],
        b: &[f64],
    ) -> Option<Vec<f64>> {
        let (n, r) = (self.rows, self.rank);
        // Z = A^-1 D_c H (n x r) and x = A^-1 b, block by block.
        let mut z = vec![0.0; n * r];
        let mut x = vec![0.0; n];
        for (j, (dp, dc)) in d_dp.iter().zip(d_dc).enumerate() {
            let inv = inverse3(dp)?;
            let k = 3 * j;
            for a in 0..3 {
                x[k + a] = (0..3).map(|c| inv[a][c] * b[k + c]).sum();
                // Row a of inv * D_c, then times H's rows k..k+3.
                let coef: [f64; 3] =
                    std::array::from_fn(|c| (0..3).map(|e| inv[a][e] * dc[e][c]).sum());
                let row = &mut z[(k + a) * r..(k + a + 1) * r];
                for (c, &cf) in coef.iter().enumerate() {
                    if cf != 0.0 {
                        axpy(cf, &self.h[(k + c) * r..(k + c + 1) * r], row);
                    }
                }
            }
        }
        // S = I_r + Y Z (r x r) and t = Y x.
        let mut s = vec![0.0; r * r];
        for (k, sk) in s.chunks_exact_mut(r).enumerate() {
            sk[k] = 1.0;
            let yk = &self.y[k * n..(k + 1) * n];
            for (&yki, zi) in yk.iter().zip(z.chunks_exact(r)) {
                if yki != 0.0 {
                    axpy(yki, zi, sk);
                }
            }
        }
        let s = nalgebra::DMatrix::from_row_slice(r, r, &s);
        let mut t = vec![0.0; r];
        self.y_times(&x, &mut t);
        let t = s.lu().solve(&nalgebra::DVector::from_vec(t))?;
        for (i, xi) in x.iter_mut().enumerate() {
            *xi -= dot(&z[i * r..(i + 1) * r], t.as_slice());
        }
        x.iter().all(|v| v.is_finite()).then_some(x)
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// The inverse of a 3 x 3 matrix by its adjugate; None if singular.
fn inverse3(a: &[[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let cof = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]
    };
    let det = a[0][0] * cof(0, 0) + a[0][1] * cof(0, 1) + a[0][2] * cof(0, 2);
    if !(det.is_finite() && det != 0.0) {
        return None;
    }
    // inv[i][j] = cofactor(j, i) / det (the cyclic cofactors carry their sign).
    Some(std::array::from_fn(|i| {
        std::array::from_fn(|j| cof(j, i) / det)
    }))
}

/// Each contact's derivative blocks of the residual: (d/dP own, d/dc+).
type Blocks<'a> = (&'a mut [[[f64; 3]; 3]], &'a mut [[[f64; 3]; 3]]);

/// One contact's residual rows and their derivatives with respect to its
/// own end velocity c+ (d/dc) and its own impulse (d/dP), at impulse p and
/// end velocity c.
struct Local {
    r: [f64; 3],
    d_dc: [[f64; 3]; 3],
    d_dp: [[f64; 3]; 3],
}

/// What the Newton iteration needs of the step: the laws, the step h and
/// theta, the contacts' start penetrations and velocities, their free end
/// velocities c_free (3m, as G's rows), and the convergence tolerance.
pub(super) struct Step<'a> {
    pub law: &'a FrictionLaw,
    pub laws: &'a [ContactLaw],
    pub dt: f64,
    pub theta: f64,
    pub g_start: &'a [f64],
    pub c_start: &'a [[f64; 3]],
    pub c_free: &'a [f64],
    pub tolerance: f64,
}

impl Step<'_> {
    /// Contact j's residual at impulse p and end velocity c (module doc).
    fn newton_local(&self, j: usize, p: [f64; 3], c: [f64; 3]) -> Local {
        let law = self.laws[j];
        let (h, th) = (self.dt, self.theta);
        let mut d_dc = [[0.0; 3]; 3];
        let mut d_dp = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let r_n = match law.normal {
            NormalLaw::Prescribed(force) => p[2] - h * force,
            NormalLaw::Penalty(pen) => {
                let law = ThetaPenalty::new(&pen, h, th, self.g_start[j], self.c_start[j][2]);
                let force = law.force(c[2]);
                if force > 0.0 {
                    // On the linear branch F_N = a - b x.
                    d_dc[2][2] = h * law.b;
                }
                p[2] - h * force
            }
        };
        let mut r = [p[0], p[1], r_n];
        if law.planar {
            let s = c[0].hypot(c[1]);
            let (fs, fp) = (self.law.coefficient(s), self.law.slope(s));
            // psi(c) = (f/s) c; D psi = (f/s) I + (f' - f/s) c c^T / s^2.
            let (ratio, extra) = if s > 0.0 {
                (fs / s, (fp - fs / s) / (s * s))
            } else {
                (self.law.slope(0.0), 0.0)
            };
            for a in 0..2 {
                r[a] += p[2] * ratio * c[a];
                d_dp[a][2] = ratio * c[a];
                for b in 0..2 {
                    let dpsi = if a == b { ratio } else { 0.0 } + extra * c[a] * c[b];
                    d_dc[a][b] = p[2] * dpsi;
                }
            }
        } else {
            let s = c[0].abs();
            let ratio = if s > 0.0 {
                self.law.coefficient(s) / s
            } else {
                self.law.slope(0.0)
            };
            r[0] += p[2] * ratio * c[0];
            d_dp[0][2] = ratio * c[0];
            d_dc[0][0] = p[2] * self.law.slope(s);
        }
        Local { r, d_dc, d_dp }
    }

    /// The residual R(P) into `r` (and, with `blocks`, each contact's
    /// derivative blocks (d/dP own, d/dc+)); returns (|R|_inf, |R|_2^2).
    /// `c` receives the end velocities c_free + G P, `u` the r-vector Y P.
    fn newton_residual(
        &self,
        g: &Delassus,
        p: &[f64],
        (c, u): (&mut [f64], &mut [f64]),
        r: &mut [f64],
        mut blocks: Option<Blocks<'_>>,
    ) -> (f64, f64) {
        g.y_times(p, u);
        for (i, ci) in c.iter_mut().enumerate() {
            *ci = self.c_free[i] + dot(&g.h[i * g.rank..(i + 1) * g.rank], u);
        }
        let (mut worst, mut squares) = (0.0f64, 0.0f64);
        for j in 0..p.len() / 3 {
            let k = 3 * j;
            let local =
                self.newton_local(j, [p[k], p[k + 1], p[k + 2]], [c[k], c[k + 1], c[k + 2]]);
            for a in 0..3 {
                r[k + a] = local.r[a];
                worst = worst.max(local.r[a].abs());
                squares += local.r[a] * local.r[a];
            }
            if let Some((d_dp, d_dc)) = blocks.as_mut() {
                d_dp[j] = local.d_dp;
                d_dc[j] = local.d_dc;
            }
        }
        (worst, squares)
    }

    /// The impulses of the step by Newton (module doc) over the Delassus
    /// operator `g`, from the current `impulses`; Some(iterations) on
    /// convergence, with `impulses` set, None otherwise (`impulses`
    /// unchanged).
    pub(super) fn solve(&self, g: &Delassus, impulses: &mut [[f64; 3]]) -> Option<usize> {
        let m = impulses.len();
        let dim = 3 * m;
        let mut p: Vec<f64> = impulses.iter().flatten().copied().collect();
        let (mut c, mut r, mut u) = (vec![0.0; dim], vec![0.0; dim], vec![0.0; g.rank]);
        let (mut d_dp, mut d_dc) = (vec![[[0.0; 3]; 3]; m], vec![[[0.0; 3]; 3]; m]);
        let mut trial = vec![0.0; dim];
        let (mut norm, mut merit) = self.newton_residual(
            g,
            &p,
            (&mut c, &mut u),
            &mut r,
            Some((&mut d_dp, &mut d_dc)),
        );
        for it in 1..=MAX_ITERATIONS {
            let minus_r: Vec<f64> = r.iter().map(|x| -x).collect();
            let step = g.newton_direction(&d_dp, &d_dc, &minus_r)?;
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..=MAX_BACKTRACKS {
                for i in 0..dim {
                    trial[i] = p[i] + t * step[i];
                }
                let (trial_norm, trial_merit) =
                    self.newton_residual(g, &trial, (&mut c, &mut u), &mut r, None);
                if trial_merit < merit || trial_merit == 0.0 {
                    norm = trial_norm;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if accepted {
                std::mem::swap(&mut p, &mut trial);
            }
            // Converged when the residual is at most the tolerance times
            // the largest impulse; a line search that fails there has met
            // the round-off floor of R, not a stall.
            let largest = p.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            if norm <= self.tolerance * largest {
                for (j, pj) in impulses.iter_mut().enumerate() {
                    pj.copy_from_slice(&p[3 * j..3 * j + 3]);
                }
                return Some(it);
            }
            if !accepted {
                return None;
            }
            (norm, merit) = self.newton_residual(
                g,
                &p,
                (&mut c, &mut u),
                &mut r,
                Some((&mut d_dp, &mut d_dc)),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    /// A deterministic pseudo-random number in [-1, 1).
    fn noise(i: usize) -> f64 {
        ((i as f64 * 0.618_033_988_749_895 + 0.3).fract() * 2.0 - 1.0)
            * (1.0 + (i % 7) as f64 / 7.0)
    }

    /// The Woodbury direction equals the dense solve of (A + D_c G) x = b,
    /// for 4 contacts on 5 contact DOFs with the blocks' shapes of the
    /// laws (A unit upper triangular, D_c positive on the diagonal).
    #[test]
    fn woodbury_direction_matches_the_dense_solve() {
        let (m, rank) = (4, 5);
        let rows = 3 * m;
        let g = Delassus {
            rows,
            rank,
            h: (0..rows * rank).map(noise).collect(),
            y: (0..rank * rows).map(|i| noise(i + 1000)).collect(),
        };
        let d_dp: Vec<[[f64; 3]; 3]> = (0..m)
            .map(|j| {
                [
                    [1.0, 0.0, noise(2000 + j)],
                    [0.0, 1.0, noise(3000 + j)],
                    [0.0, 0.0, 1.0],
                ]
            })
            .collect();
        let d_dc: Vec<[[f64; 3]; 3]> = (0..m)
            .map(|j| {
                std::array::from_fn(|a| {
                    std::array::from_fn(|b| {
                        if a == b {
                            2.0 + noise(4000 + 9 * j + 3 * a)
                        } else {
                            0.3 * noise(5000 + 9 * j + 3 * a + b)
                        }
                    })
                })
            })
            .collect();
        let b: Vec<f64> = (0..rows).map(|i| noise(6000 + i)).collect();
        let x = g.newton_direction(&d_dp, &d_dc, &b).expect("regular");
        let gd = DMatrix::from_row_slice(rows, rows, &g.dense());
        let mut dc = DMatrix::zeros(rows, rows);
        let mut a = DMatrix::zeros(rows, rows);
        for j in 0..m {
            for r in 0..3 {
                for c in 0..3 {
                    dc[(3 * j + r, 3 * j + c)] = d_dc[j][r][c];
                    a[(3 * j + r, 3 * j + c)] = d_dp[j][r][c];
                }
            }
        }
        let jac = a + dc * gd;
        let dense = jac.lu().solve(&DVector::from_vec(b)).expect("regular");
        let gap = (DVector::from_vec(x) - &dense).amax() / dense.amax();
        assert!(gap < 1e-12, "Woodbury vs dense: {gap:e}");
    }

    /// The adjugate inverse of a 3 x 3 matrix, and a singular one refused.
    #[test]
    fn inverse3_inverts_and_refuses_a_singular_matrix() {
        let a = [[2.0, 1.0, 0.5], [0.0, 3.0, -1.0], [1.0, 0.0, 4.0]];
        let inv = inverse3(&a).expect("regular");
        for (i, ai) in a.iter().enumerate() {
            for j in 0..3 {
                let e: f64 = ai.iter().zip(&inv).map(|(x, row)| x * row[j]).sum();
                assert!(
                    (e - f64::from(u8::from(i == j))).abs() < 1e-14,
                    "({i}, {j}): {e}"
                );
            }
        }
        assert!(inverse3(&[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]).is_none());
    }
}
