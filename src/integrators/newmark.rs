//! Bossak-Newmark time stepping for gap systems with one exact LCP per step
//! (Yu, Nonlinear Dynamics 71 (2013) 493-504; Bossak: Wood, Bossak &
//! Zienkiewicz, IJNME 15 (1980) 1562-1566).
//!
//! Bossak-Newmark with gamma = 1/2 - alpha_b, beta = (1 - alpha_b)^2 / 4:
//!
//!   M [(1 - alpha_b) a1 + alpha_b a0] + C v1 + K x1 + D^T f1 = F(t1),
//!   x1 = x0 + dt v0 + dt^2 [(1/2 - beta) a0 + beta a1],
//!   v1 = v0 + dt [(1 - gamma) a0 + gamma a1],
//!
//! with f1 = K_g max(0, D x1 - g). With the predictors
//! x~ = x0 + dt v0 + dt^2 (1/2 - beta) a0, v~ = v0 + dt (1 - gamma) a0 and the
//! increment u = x1 - x~ = beta dt^2 a1, eliminating a1 and v1 leaves
//! K_eff u + D^T f1 = r with K_eff = K + gamma/(beta dt) C +
//! (1 - alpha_b)/(beta dt^2) M and r = F(t1) - alpha_b M a0 - K x~ - C v~.
//! (Solving for the increment rather than for x1 keeps a1 = u/(beta dt^2)
//! free of the cancellation x1 - x~, which would turn the 1e-16 rounding of
//! x1 into 1e-16 |x| / (beta dt^2) in a1 and v1.) Writing the opening
//! y = D (x~ + u) - g as
//! y = z - s with the auxiliary displacement z = max(0, y) >= 0 (f1 = K_g z)
//! complementary to s = max(0, -y) >= 0 gives Yu's standard LCP
//!
//!   s = A z + b,  z >= 0, s >= 0, z.s = 0,
//!   A = I + D K_eff^-1 D^T K_g,   b = g - D x~ - D K_eff^-1 r,
//!
//! a P-matrix (A = (K_g^-1 + W) K_g with W = D K_eff^-1 D^T symmetric
//! positive semidefinite when K_eff is SPD), so the LCP has exactly one
//! solution and the step is solved exactly. This module is the method
//! `newmark-lcp`: the dense LCP of the paper, with K_eff^-1 precomputed once.

use nalgebra::{DMatrix, DVector};

use crate::error::SolverError;
use crate::problem::GapSystem;
use crate::sparse::csr::Csr;
use crate::sparse::obstacle::{ObstacleParams, ObstacleSystem};
use crate::sparse::to_dense;

mod dense_lcp;
mod step_solver;
pub use dense_lcp::{DenseLcpStep, DenseLu};
pub use step_solver::StepSolver;

/// Parameters of a Bossak-Newmark run.
#[derive(Debug, Clone, PartialEq)]
pub struct NewmarkParams {
    /// Time step dt [s].
    pub dt: f64,
    /// Number of steps (final time = steps * dt).
    pub steps: usize,
    /// Bossak parameter alpha_b in [-1/3, 0] (0: trapezoidal rule).
    pub alpha_b: f64,
    /// Store every `output_every`-th step (1 = every step).
    pub output_every: usize,
}

impl NewmarkParams {
    /// (beta, gamma) of the Bossak family.
    pub fn beta_gamma(&self) -> (f64, f64) {
        let a = self.alpha_b;
        ((1.0 - a) * (1.0 - a) / 4.0, 0.5 - a)
    }
}

/// What a run records at its output times: the state of some DOFs (all,
/// or a selection for a large system: a 1e6-DOF state at every output time
/// would not fit in memory) and, over every step, the envelope of all DOFs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Recording {
    /// DOFs recorded (sorted, unique); None: all. Gap spring j is recorded
    /// when j is a recorded DOF index.
    pub dofs: Option<Vec<usize>>,
    /// Track, over every step, each DOF's largest and smallest displacement
    /// and, at the output times, the extremes over all DOFs.
    pub envelope: bool,
}

impl Recording {
    /// Every DOF, no envelope.
    pub fn all() -> Self {
        Self::default()
    }
}

/// Extremes over all DOFs: per DOF over the whole run, and over all DOFs
/// at each output time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Envelope {
    /// Largest displacement of each DOF over every step.
    pub x_max: Vec<f64>,
    /// Smallest displacement of each DOF over every step.
    pub x_min: Vec<f64>,
    /// At each output time: the largest displacement over all DOFs.
    pub max_over_dofs: Vec<f64>,
    /// At each output time: the smallest displacement over all DOFs.
    pub min_over_dofs: Vec<f64>,
    /// At each output time: the number of engaged gap springs.
    pub active: Vec<f64>,
}

/// A sampled trajectory: state and gap forces at the output times.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trajectory {
    /// Output times.
    pub t: Vec<f64>,
    /// The recorded DOF indices (x and v hold these, in this order).
    pub dofs: Vec<usize>,
    /// The recorded gap springs (f holds these, in this order).
    pub springs: Vec<usize>,
    /// Displacements of the recorded DOFs at t_k.
    pub x: Vec<Vec<f64>>,
    /// Velocities of the recorded DOFs at t_k.
    pub v: Vec<Vec<f64>>,
    /// Forces f_j = k_j max(0, d_j.x - g_j) of the recorded springs at t_k.
    pub f: Vec<Vec<f64>>,
    /// The envelope, when recorded.
    pub envelope: Option<Envelope>,
}

/// Exact counters of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepStats {
    /// Time steps taken.
    pub steps: usize,
    /// Sum over steps of the step solver's iterations (LCP pivots for
    /// Lemke, sweeps for PGS, Newton iterations for the sparse solver).
    pub solver_iterations: usize,
    /// Largest number of active gap springs at the end of a step.
    pub max_active: usize,
    /// Sum over steps of the active gap springs (mean = / steps).
    pub active_sum: usize,
    /// Matrix factorizations (or inversions) done.
    pub factorizations: usize,
    /// Largest relative residual of the step equation over the steps (see
    /// [`STEP_RESIDUAL_TOLERANCE`]).
    pub max_residual: f64,
}

/// Largest relative residual of an accepted step: every step, whatever its
/// solver, is graded by the residual of the equation it solves,
/// |K_eff u + D^T f(x1) - r|_inf / max(|r|_inf, |K_eff u|_inf, |D^T f|_inf)
/// with f(x1) = K_g max(0, D x1 - g) recomputed from the new state and
/// K_eff = K + gamma/(beta dt) C + (1 - alpha_b)/(beta dt^2) M assembled
/// once from the model's own matrices (not the solver's factorization). Exact
/// step solvers reach 1e-15-1e-13; iterative LCP solvers stop at an LCP
/// residual of 1e-12 relative to |q|.
pub const STEP_RESIDUAL_TOLERANCE: f64 = 1e-8;

/// The sparse semi-smooth Newton step: no dense matrix anywhere, one
/// symbolic factorization of K_eff + D^T D for the whole run.
pub struct SparseNewtonStep {
    system: ObstacleSystem,
    gaps: Vec<f64>,
    k_gap: Vec<f64>,
    directions: Csr,
    offsets: Vec<f64>,
    u_prev: Vec<f64>,
    params: ObstacleParams,
    active: usize,
}

impl SparseNewtonStep {
    /// Builds the pattern and its symbolic factorization.
    pub fn new(system: &GapSystem, k_eff: &sprs::CsMat<f64>) -> Result<Self, SolverError> {
        let obstacle =
            ObstacleSystem::new(k_eff, &system.springs.directions, &system.springs.stiffness)
                .map_err(|e| SolverError::other("newmark-ssn", e.to_string()))?;
        Ok(Self {
            system: obstacle,
            gaps: system.springs.gaps.clone(),
            k_gap: system.springs.stiffness.clone(),
            directions: Csr::from_sprs(&system.springs.directions),
            offsets: vec![0.0; system.springs.len()],
            u_prev: vec![0.0; system.dofs()],
            params: ObstacleParams::default(),
            active: 0,
        })
    }

    /// Nonzeros of the Jacobian's lower triangle and of its Cholesky factor.
    pub fn pattern_sizes(&self) -> (usize, usize) {
        self.system.pattern_sizes()
    }

    /// The factorization of the Newton matrix ("tridiagonal" for a chain
    /// with gaps to the ground).
    pub fn factorization(&self) -> &'static str {
        self.system.factorization()
    }

    /// The warm start of the next step (the last step's increment).
    pub fn warm_start(&self) -> &[f64] {
        &self.u_prev
    }

    /// Sets the warm start of the next step (a benchmark replays a step
    /// sequence from one state).
    pub fn set_warm_start(&mut self, u: &[f64]) {
        self.u_prev.copy_from_slice(u);
    }

    /// Which gap springs were engaged in the last step's solution.
    pub fn active_set(&self) -> &[bool] {
        self.system.active()
    }
}

impl StepSolver for SparseNewtonStep {
    fn solve(
        &mut self,
        r: &[f64],
        x_pred: &[f64],
        u: &mut [f64],
        f: &mut [f64],
        step: usize,
        t: f64,
    ) -> Result<usize, SolverError> {
        // Offsets c = g - D x~, so that the constraint reads D u > c.
        self.directions.mul_vec(x_pred, &mut self.offsets);
        for (o, g) in self.offsets.iter_mut().zip(&self.gaps) {
            *o = g - *o;
        }
        // Warm start: the previous increment (its active set starts the iteration).
        u.copy_from_slice(&self.u_prev);
        let info = self
            .system
            .solve(r, &self.offsets, u, &self.params)
            .map_err(|e| match e {
                crate::sparse::obstacle::ObstacleError::NoConvergence { iterations, .. } => {
                    SolverError::NoConvergence {
                        method: "newmark-ssn".into(),
                        step,
                        t,
                        iterations,
                        residual: f64::NAN,
                    }
                }
                other => {
                    SolverError::other("newmark-ssn", format!("step {step} (t = {t}): {other}"))
                }
            })?;
        // f = K_g max(0, D u - c), the openings kept by the solve.
        for ((fj, y), k) in f
            .iter_mut()
            .zip(self.system.openings_of_solution())
            .zip(&self.k_gap)
        {
            *fj = k * y.max(0.0);
        }
        self.active = info.active;
        self.u_prev.copy_from_slice(u);
        Ok(info.iterations)
    }

    fn active(&self) -> usize {
        self.active
    }

    fn factorizations(&self) -> usize {
        self.system.factorizations()
    }
}

/// K_eff = K + gamma/(beta dt) C + (1 - alpha_b)/(beta dt^2) M, sparse.
pub fn effective_stiffness_sparse(system: &GapSystem, params: &NewmarkParams) -> sprs::CsMat<f64> {
    let (beta, gamma) = params.beta_gamma();
    let dt = params.dt;
    let c = system.damping.map(|v| v * (gamma / (beta * dt)));
    let m = system
        .mass
        .map(|v| v * ((1.0 - params.alpha_b) / (beta * dt * dt)));
    let kc = &system.stiffness + &c;
    &kc + &m
}

/// K_eff = K + gamma/(beta dt) C + (1 - alpha_b)/(beta dt^2) M, dense.
pub fn effective_stiffness(system: &GapSystem, params: &NewmarkParams) -> DMatrix<f64> {
    let (beta, gamma) = params.beta_gamma();
    let dt = params.dt;
    to_dense(&system.stiffness)
        + to_dense(&system.damping) * (gamma / (beta * dt))
        + to_dense(&system.mass) * ((1.0 - params.alpha_b) / (beta * dt * dt))
}

/// The state of a Bossak-Newmark run and its work arrays: one
/// [`Stepper::advance`] is one time step (no allocation).
#[derive(Clone)]
pub struct Stepper<'a> {
    system: &'a GapSystem,
    k: Csr,
    c: Csr,
    m: Csr,
    d: Csr,
    /// Step counter (the state is at t = step * dt).
    pub step: usize,
    /// Displacement x.
    pub x: Vec<f64>,
    /// Velocity v.
    pub v: Vec<f64>,
    /// Acceleration a.
    pub a: Vec<f64>,
    dt: f64,
    alpha: f64,
    beta: f64,
    gamma: f64,
    xt: Vec<f64>,
    vt: Vec<f64>,
    kx: Vec<f64>,
    cv: Vec<f64>,
    ma: Vec<f64>,
    r: Vec<f64>,
    u: Vec<f64>,
    f: Vec<f64>,
    /// K_eff = K + gamma/(beta dt) C + (1 - alpha)/(beta dt^2) M, for the
    /// step's residual.
    keff: Csr,
    /// Scratch for the residual: K_eff u, D^T f(x1).
    keff_u: Vec<f64>,
    dtf: Vec<f64>,
    /// Relative residual of the last step.
    pub residual: f64,
}

impl<'a> Stepper<'a> {
    /// Starts at (x0, v0), t = 0, with a0 = M^-1 (F(0) - C v0 - K x0 - D^T f(x0)).
    pub fn new(
        system: &'a GapSystem,
        params: &NewmarkParams,
        x0: &[f64],
        v0: &[f64],
    ) -> Result<Self, SolverError> {
        let n = system.dofs();
        let f0 = system.springs.forces(x0);
        let a = initial_acceleration(system, x0, v0, &f0)?;
        let (beta, gamma) = params.beta_gamma();
        Ok(Self {
            system,
            k: Csr::from_sprs(&system.stiffness),
            c: Csr::from_sprs(&system.damping),
            m: Csr::from_sprs(&system.mass),
            d: Csr::from_sprs(&system.springs.directions),
            step: 0,
            x: x0.to_vec(),
            v: v0.to_vec(),
            a,
            dt: params.dt,
            alpha: params.alpha_b,
            beta,
            gamma,
            xt: vec![0.0; n],
            vt: vec![0.0; n],
            kx: vec![0.0; n],
            cv: vec![0.0; n],
            ma: vec![0.0; n],
            r: vec![0.0; n],
            u: vec![0.0; n],
            f: vec![0.0; system.springs.len()],
            keff: Csr::from_sprs(&effective_stiffness_sparse(system, params)),
            keff_u: vec![0.0; n],
            dtf: vec![0.0; n],
            residual: 0.0,
        })
    }

    /// Time of the current state.
    pub fn time(&self) -> f64 {
        self.step as f64 * self.dt
    }

    /// Gap-spring forces of the last step.
    pub fn forces(&self) -> &[f64] {
        &self.f
    }

    /// One step: predictors, r, the step equation by `solver`, update.
    /// Returns the solver's iterations.
    pub fn advance(&mut self, solver: &mut dyn StepSolver) -> Result<usize, SolverError> {
        let (dt, alpha, beta, gamma) = (self.dt, self.alpha, self.beta, self.gamma);
        let n = self.x.len();
        let step = self.step + 1;
        let t1 = step as f64 * dt;
        let (c_x, c_v) = (dt * dt * (0.5 - beta), dt * (1.0 - gamma));
        // Predictors: x~ = x + dt v + dt^2 (1/2 - beta) a, v~ = v + dt (1 - gamma) a.
        for i in 0..n {
            self.xt[i] = self.x[i] + dt * self.v[i] + c_x * self.a[i];
            self.vt[i] = self.v[i] + c_v * self.a[i];
        }
        // r = F(t1) - alpha M a - K x~ - C v~
        let sys = self.system;
        self.k.mul_vec(&self.xt, &mut self.kx);
        self.c.mul_vec(&self.vt, &mut self.cv);
        if alpha != 0.0 {
            self.m.mul_vec(&self.a, &mut self.ma);
        }
        let cos = (sys.excitation.omega * t1).cos();
        for i in 0..n {
            let bossak = if alpha != 0.0 {
                alpha * self.ma[i]
            } else {
                0.0
            };
            self.r[i] = sys.excitation.amplitude[i] * cos - bossak - self.kx[i] - self.cv[i];
        }
        let iterations = solver.solve(&self.r, &self.xt, &mut self.u, &mut self.f, step, t1)?;
        // a1 = u / (beta dt^2), v1 = v~ + gamma dt a1, x1 = x~ + u
        let inv = 1.0 / (beta * dt * dt);
        for i in 0..n {
            let a1 = self.u[i] * inv;
            self.v[i] = self.vt[i] + gamma * dt * a1;
            self.a[i] = a1;
            self.x[i] = self.xt[i] + self.u[i];
        }
        self.step = step;
        if !self.x.iter().all(|v| v.is_finite()) {
            return Err(SolverError::other(
                "newmark",
                format!("non-finite state at step {step} (t = {t1})"),
            ));
        }
        self.residual = self.step_residual();
        // A NaN residual fails too.
        if self.residual.is_nan() || self.residual > STEP_RESIDUAL_TOLERANCE {
            return Err(SolverError::Residual {
                step,
                t: t1,
                residual: self.residual,
                tolerance: STEP_RESIDUAL_TOLERANCE,
            });
        }
        Ok(iterations)
    }

    /// The relative residual of the step just taken (see
    /// [`STEP_RESIDUAL_TOLERANCE`]); `self.x` is x1 = x~ + u.
    fn step_residual(&mut self) -> f64 {
        self.keff.mul_vec(&self.u, &mut self.keff_u);
        self.dtf.fill(0.0);
        let springs = &self.system.springs;
        for j in 0..springs.len() {
            let y = self.d.row_dot(j, &self.x) - springs.gaps[j];
            if y > 0.0 {
                let f = springs.stiffness[j] * y;
                let (idx, val) = self.d.row(j);
                for (&i, &v) in idx.iter().zip(val) {
                    self.dtf[i] += v * f;
                }
            }
        }
        let (mut worst, mut scale) = (0.0f64, f64::MIN_POSITIVE);
        for i in 0..self.x.len() {
            let keff_u = self.keff_u[i];
            worst = worst.max((keff_u + self.dtf[i] - self.r[i]).abs());
            scale = scale
                .max(keff_u.abs())
                .max(self.dtf[i].abs())
                .max(self.r[i].abs());
        }
        worst / scale
    }
}

/// Integrates from (x0, v0) at t = 0 with the given step solver, recording
/// every `params.output_every`-th step as `recording` asks.
pub fn integrate(
    system: &GapSystem,
    params: &NewmarkParams,
    x0: &[f64],
    v0: &[f64],
    step_solver: &mut dyn StepSolver,
    recording: &Recording,
    mut on_progress: impl FnMut(usize),
) -> Result<(Trajectory, StepStats), SolverError> {
    let mut stats = StepStats::default();
    let mut stepper = Stepper::new(system, params, x0, v0)?;
    let n = system.dofs();
    let m = system.springs.len();
    let dofs: Vec<usize> = match &recording.dofs {
        Some(d) => d.iter().copied().filter(|&i| i < n).collect(),
        None => (0..n).collect(),
    };
    let springs: Vec<usize> = match &recording.dofs {
        Some(d) => d.iter().copied().filter(|&j| j < m).collect(),
        None => (0..m).collect(),
    };
    let mut traj = Trajectory {
        dofs,
        springs,
        envelope: recording.envelope.then(|| Envelope {
            x_max: x0.to_vec(),
            x_min: x0.to_vec(),
            ..Envelope::default()
        }),
        ..Trajectory::default()
    };
    let record = |traj: &mut Trajectory, s: &Stepper| {
        traj.t.push(s.time());
        traj.x.push(traj.dofs.iter().map(|&i| s.x[i]).collect());
        traj.v.push(traj.dofs.iter().map(|&i| s.v[i]).collect());
        traj.f.push(
            traj.springs
                .iter()
                .map(|&j| system.springs.force(j, &s.x))
                .collect(),
        );
        if let Some(env) = &mut traj.envelope {
            let (lo, hi) =
                s.x.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                        (lo.min(v), hi.max(v))
                    });
            env.max_over_dofs.push(hi);
            env.min_over_dofs.push(lo);
            let active = (0..m)
                .filter(|&j| system.springs.force(j, &s.x) > 0.0)
                .count();
            env.active.push(active as f64);
        }
    };
    record(&mut traj, &stepper);
    let progress_every = (params.steps / 100).max(1);
    for step in 1..=params.steps {
        crate::deadline::check();
        stats.solver_iterations += stepper.advance(step_solver)?;
        stats.max_residual = stats.max_residual.max(stepper.residual);
        let active = step_solver.active();
        stats.max_active = stats.max_active.max(active);
        stats.active_sum += active;
        stats.steps = step;
        if let Some(env) = &mut traj.envelope {
            for ((hi, lo), &v) in env.x_max.iter_mut().zip(&mut env.x_min).zip(&stepper.x) {
                *hi = hi.max(v);
                *lo = lo.min(v);
            }
        }
        if step % params.output_every == 0 {
            record(&mut traj, &stepper);
        }
        if step % progress_every == 0 {
            on_progress(progress_every);
        }
    }
    stats.factorizations = step_solver.factorizations();
    Ok((traj, stats))
}

/// a0 = M^-1 (F(0) - C v0 - K x0 - D^T f0), dense (done once).
fn initial_acceleration(
    system: &GapSystem,
    x: &[f64],
    v: &[f64],
    f: &[f64],
) -> Result<Vec<f64>, SolverError> {
    let n = system.dofs();
    let (mut kx, mut cv) = (vec![0.0; n], vec![0.0; n]);
    Csr::from_sprs(&system.stiffness).mul_vec(x, &mut kx);
    Csr::from_sprs(&system.damping).mul_vec(v, &mut cv);
    let mut rhs = system.excitation.at(0.0);
    for i in 0..n {
        rhs[i] -= kx[i] + cv[i];
    }
    let mut dtf = vec![0.0; n];
    system.springs.add_transposed(f, &mut dtf);
    for i in 0..n {
        rhs[i] -= dtf[i];
    }
    solve_mass(&system.mass, &rhs).ok_or_else(|| SolverError::Singular {
        what: "mass matrix M".into(),
    })
}

/// Solves M a = rhs once: by division when M is diagonal (lumped masses,
/// any n), else by a dense LU.
fn solve_mass(mass: &sprs::CsMat<f64>, rhs: &[f64]) -> Option<Vec<f64>> {
    let n = rhs.len();
    let diagonal = mass.iter().all(|(_, (i, j))| i == j);
    if diagonal {
        let mut diag = vec![0.0; n];
        for (&v, (i, _)) in mass.iter() {
            diag[i] += v;
        }
        return rhs
            .iter()
            .zip(&diag)
            .map(|(r, d)| (*d > 0.0).then(|| r / d))
            .collect();
    }
    let lu = to_dense(mass).lu();
    lu.solve(&DVector::from_column_slice(rhs))
        .map(|v| v.as_slice().to_vec())
}
