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
//! D psi = (f/s) I + (f' - f/s) c c^T / s^2 (s = |c|; f'(0) I at s = 0),
//! factored by dense LU (faer). A backtracking line search halves the step
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

use faer::Mat;
use faer::linalg::solvers::Solve;

use crate::contact::friction::FrictionLaw;
use crate::contact::impulse::ThetaPenalty;
use crate::problem::moreau::{ContactLaw, MoreauProblem, NormalLaw};

/// Most Newton iterations before the sweeps take over.
const MAX_ITERATIONS: usize = 40;

/// Most halvings of a Newton step.
const MAX_BACKTRACKS: usize = 30;

/// The dense Delassus operator G = H W^-1 H^T over all contacts, row-major
/// 3m x 3m (rows and columns t1, t2, N per contact), from the blocks
/// Y H_j^T the stepper keeps.
pub(super) fn delassus<P: MoreauProblem>(problem: &P, yh: &[Vec<[f64; 3]>]) -> Vec<f64> {
    let m = yh.len();
    let dim = 3 * m;
    let mut g = vec![0.0; dim * dim];
    for i in 0..m {
        for r in 0..3 {
            let hi = problem.contact_row(i, r);
            for (j, yj) in yh.iter().enumerate() {
                for c in 0..3 {
                    g[(3 * i + r) * dim + 3 * j + c] =
                        hi.iter().zip(yj).map(|(h, y)| h * y[c]).sum();
                }
            }
        }
    }
    g
}

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

    /// The residual R(P) into `r` (and, with `jac`, its Jacobian); returns
    /// (|R|_inf, |R|_2^2). `c` receives the end velocities c_free + G P.
    fn newton_residual(
        &self,
        g: &[f64],
        p: &[f64],
        c: &mut [f64],
        r: &mut [f64],
        mut jac: Option<&mut Mat<f64>>,
    ) -> (f64, f64) {
        let dim = p.len();
        for (i, ci) in c.iter_mut().enumerate() {
            *ci = self.c_free[i]
                + g[i * dim..(i + 1) * dim]
                    .iter()
                    .zip(p)
                    .map(|(a, b)| a * b)
                    .sum::<f64>();
        }
        let (mut worst, mut squares) = (0.0f64, 0.0f64);
        for j in 0..dim / 3 {
            let k = 3 * j;
            let local =
                self.newton_local(j, [p[k], p[k + 1], p[k + 2]], [c[k], c[k + 1], c[k + 2]]);
            for a in 0..3 {
                r[k + a] = local.r[a];
                worst = worst.max(local.r[a].abs());
                squares += local.r[a] * local.r[a];
            }
            if let Some(jac) = jac.as_deref_mut() {
                // Row k + a: d_dp (own impulse) + d_dc G (every impulse).
                for a in 0..3 {
                    for col in 0..dim {
                        let mut v = 0.0;
                        for b in 0..3 {
                            v += local.d_dc[a][b] * g[(k + b) * dim + col];
                        }
                        jac[(k + a, col)] = v;
                    }
                    for b in 0..3 {
                        jac[(k + a, k + b)] += local.d_dp[a][b];
                    }
                }
            }
        }
        (worst, squares)
    }

    /// The impulses of the step by Newton (module doc) over the dense
    /// Delassus operator `g`, from the current `impulses`; Some(iterations)
    /// on convergence, with `impulses` set, None otherwise (`impulses`
    /// unchanged).
    pub(super) fn solve(&self, g: &[f64], impulses: &mut [[f64; 3]]) -> Option<usize> {
        let dim = 3 * impulses.len();
        let mut p: Vec<f64> = impulses.iter().flatten().copied().collect();
        let (mut c, mut r) = (vec![0.0; dim], vec![0.0; dim]);
        let mut jac = Mat::<f64>::zeros(dim, dim);
        let mut trial = vec![0.0; dim];
        let (mut norm, mut merit) = self.newton_residual(g, &p, &mut c, &mut r, Some(&mut jac));
        for it in 1..=MAX_ITERATIONS {
            let lu = jac.partial_piv_lu();
            let mut step = Mat::<f64>::from_fn(dim, 1, |i, _| -r[i]);
            lu.solve_in_place(step.as_mut());
            let step: Vec<f64> = (0..dim).map(|i| step[(i, 0)]).collect();
            if !step.iter().all(|x| x.is_finite()) {
                return None;
            }
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..=MAX_BACKTRACKS {
                for i in 0..dim {
                    trial[i] = p[i] + t * step[i];
                }
                let (trial_norm, trial_merit) =
                    self.newton_residual(g, &trial, &mut c, &mut r, None);
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
            (norm, merit) = self.newton_residual(g, &p, &mut c, &mut r, Some(&mut jac));
        }
        None
    }
}
