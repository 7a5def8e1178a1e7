//! Moreau-type time stepping of the blade pair with true sticking (Moreau,
//! *Unilateral contact and dry friction in finite freedom dynamics*, CISM
//! 302, 1988; Jean, CMAME 177 (1999) 235-257; the theta-method of Acary &
//! Brogliato, *Numerical Methods for Nonsmooth Dynamical Systems*, 2008,
//! ch. 10), theta = 1/2.
//!
//! Per step of size h from (q, v) at t, with v_th = (1 - th) v + th v+,
//! q_th = (1 - th) q + th q+ and q+ = q + h v_th:
//!
//!   M (v+ - v) = h (f_th - B v_th - K q_th) + sum_j H_j^T P_j,
//!
//! so that v+ = v_free + W^-1 H^T P with the iteration matrix
//! W = M + th h B + th^2 h^2 K (factored once, banded) and
//! v_free = v + W^-1 h (f_th - B v - K (q + th h v)). The patch impulses
//! P_j = (P_xi, P_eta, P_N) see the local velocities c+ = H v+ through the
//! Delassus operator G = H W^-1 H^T: c+_j = c_free,j + sum_i G_ji P_i.
//!
//! **Normal** (implicit penalty at the theta point): P_N = h F_N with
//! F_N = max(0, k_n g_th + d_n gdot_th) for g_th > 0, g_th = g - th h c_zeta,th,
//! gdot_th = -c_zeta,th, c_zeta,th = (1 - th) c_zeta + th c+_zeta. F_N is
//! non-increasing in c+_zeta, so the scalar equation P_N = h F_N(x0 + G P_N)
//! has one solution, found in closed form (no force; the linear branch;
//! or exactly touching, g_th = 0).
//!
//! **Friction** at the end velocity: with the patch's other impulses fixed,
//! c+_t = b + G_tt P_t. A set-valued law (f_stick = f(0+)) sticks when the
//! impulse that stops the slip, P = -G_tt^-1 b, lies in the disc
//! |P| <= f_stick P_N; otherwise it slips, P_t = -P_N f(|c+|) c+/|c+|, i.e.
//! P_t = -lambda c+ with c+ = (I + lambda G_tt)^-1 b and the scalar
//! equation lambda |c+(lambda)| = P_N f(|c+(lambda)|), solved by Newton
//! safeguarded by bisection (|c+| falls and lambda |c+| rises with lambda,
//! so a bracket exists). A set-valued law's slip coefficient is taken at
//! the patch's slip speed at the start of the step, f(|c_t(t)|) (explicit
//! in the speed dependence, first order like the step): with the implicit
//! f(|c+|) a steeply falling law (ANSYS with DC = 2 s/mm, slope -400 per
//! m/s) makes the coupled patches' Gauss-Seidel sweeps oscillate without
//! converging; for the constant and Coulomb laws both are the same. A
//! regularised law (f(0) = 0) never sticks: the same equation with the
//! implicit f(|c+|) is its smooth local problem.
//!
//! The patches are coupled through G (one rigid shroud pair): projected
//! Gauss-Seidel sweeps over the patches (normal then tangential per patch),
//! warm-started from the last step's impulses, until a sweep changes the
//! patch velocities c+ by at most `tolerance` (default 1e-10) times their
//! scale (the largest component of c_free or c+), or the impulses by at
//! most `tolerance` times the largest impulse. Redundant patches on one
//! rigid pair make Gauss-Seidel slow where slip reverses (thousands of
//! sweeps in a step); more than `max_sweeps` (default 50000) is an error
//! naming the time.
//!
//! **Energy**: with theta = 1/2 the linear part conserves exactly; per step
//! the load work is f_th . (q+ - q), the damping work h v_th B v_th plus the
//! normal law's (P_N / h - k_n g_th+) (g+ - g) >= 0, the friction work
//! sum_j P_N f(s+) s+ >= 0 over the slipping patches (the law's dissipation
//! at the end velocity, = -P_t . c+; its difference from the work of P_t
//! on v_th, P_t . (c - c+)/2 per step, is the scheme's O(h) energy error,
//! which the balance shows).

use super::BladePair;
use super::band::BandCholesky;
use super::contact::TIP_DOFS;
use crate::contact::friction::{FrictionLaw, LawClass};

/// theta of the scheme.
pub const THETA: f64 = 0.5;

/// The state the stepper advances (and its energy bookkeeping).
#[derive(Debug, Clone, PartialEq)]
pub struct MoreauState {
    /// t [s].
    pub t: f64,
    /// q [m, rad].
    pub q: Vec<f64>,
    /// v [m/s, rad/s].
    pub v: Vec<f64>,
    /// Friction work dissipated since the start [J].
    pub friction_work: f64,
    /// Damping work (structural and normal-law) dissipated [J].
    pub damping_work: f64,
    /// Work of the load [J].
    pub load_work: f64,
    /// The last step's patch impulses (P_xi, P_eta, P_N) [N s] (warm start).
    pub impulses: Vec<[f64; 3]>,
}

impl MoreauState {
    /// The model's initial state at t = 0.
    pub fn initial(model: &BladePair) -> Self {
        let (q, v) = model.initial_state();
        Self {
            t: 0.0,
            q,
            v,
            friction_work: 0.0,
            damping_work: 0.0,
            load_work: 0.0,
            impulses: vec![[0.0; 3]; model.patch_count()],
        }
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// Gauss-Seidel sweeps.
    pub sweeps: usize,
    /// Patches that stuck.
    pub sticking: usize,
    /// Sum of P_N / h [N].
    pub normal: f64,
    /// Resultant of P_t / h on blade 1 [N].
    pub friction: [f64; 2],
    /// Largest slip speed |c+_t| over the patches [m/s].
    pub max_slip: f64,
    /// Friction work of the step (>= 0) [J].
    pub friction_work: f64,
    /// Damping work of the step (>= 0) [J].
    pub damping_work: f64,
}

type M3 = [[f64; 3]; 3];

/// One patch's outcome of the local problem.
struct Local {
    p: [f64; 3],
    stick: bool,
}

/// The Moreau stepper of one model, law and step size.
pub struct MoreauStepper<'a> {
    model: &'a BladePair,
    law: FrictionLaw,
    dt: f64,
    stick: Option<f64>,
    w: BandCholesky,
    /// Y H_j^T (TIP_DOFS x 3): the tip-velocity change per unit patch impulse.
    yh: Vec<[[f64; 3]; TIP_DOFS]>,
    /// G_jj = H_j Y H_j^T.
    diag: Vec<M3>,
    /// Convergence: largest impulse change over largest impulse.
    pub tolerance: f64,
    /// Bound on the sweeps per step.
    pub max_sweeps: usize,
    work: Vec<f64>,
    v_free: Vec<f64>,
    c_start: Vec<[f64; 3]>,
    g_start: Vec<f64>,
    c_end: Vec<[f64; 3]>,
    sticking: Vec<bool>,
}

fn solve2(a: [[f64; 2]; 2], b: [f64; 2]) -> [f64; 2] {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    [
        (a[1][1] * b[0] - a[0][1] * b[1]) / det,
        (a[0][0] * b[1] - a[1][0] * b[0]) / det,
    ]
}

impl<'a> MoreauStepper<'a> {
    /// Factors W = M + h/2 B + h^2/4 K and builds the Delassus blocks.
    pub fn new(model: &'a BladePair, law: FrictionLaw, dt: f64) -> Result<Self, String> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(format!("Moreau: the step must be positive, got {dt}"));
        }
        let [m, b, k] = model.dense_matrices();
        let wm = m + b * (THETA * dt) + k * (THETA * THETA * dt * dt);
        let w = BandCholesky::new(&wm)?;
        let n = model.dofs();
        let contact = model.contact();
        let td = contact.tip_dofs;
        // Y = (W^-1) on the tip DOFs.
        let mut y = [[0.0; TIP_DOFS]; TIP_DOFS];
        let mut e = vec![0.0; n];
        for (col, &d) in td.iter().enumerate() {
            e.iter_mut().for_each(|x| *x = 0.0);
            e[d] = 1.0;
            w.solve_in_place(&mut e);
            for (row, &r) in td.iter().enumerate() {
                y[row][col] = e[r];
            }
        }
        let mut yh = Vec::with_capacity(contact.patches.len());
        let mut diag = Vec::with_capacity(contact.patches.len());
        for p in &contact.patches {
            let mut a = [[0.0; 3]; TIP_DOFS];
            for (r, ar) in a.iter_mut().enumerate() {
                for (c, arc) in ar.iter_mut().enumerate() {
                    *arc = (0..TIP_DOFS).map(|k| y[r][k] * p.h[c][k]).sum();
                }
            }
            let mut g = [[0.0; 3]; 3];
            for (i, gi) in g.iter_mut().enumerate() {
                for (j, gij) in gi.iter_mut().enumerate() {
                    *gij = (0..TIP_DOFS).map(|k| p.h[i][k] * a[k][j]).sum();
                }
            }
            yh.push(a);
            diag.push(g);
        }
        let stick = match law.class() {
            LawClass::SetValued { stick } => Some(stick),
            LawClass::Regularized => None,
        };
        let np = contact.patches.len();
        Ok(Self {
            model,
            law,
            dt,
            stick,
            w,
            yh,
            diag,
            tolerance: 1e-10,
            max_sweeps: 50_000,
            work: vec![0.0; n],
            v_free: vec![0.0; n],
            c_start: vec![[0.0; 3]; np],
            g_start: vec![0.0; np],
            c_end: vec![[0.0; 3]; np],
            sticking: vec![false; np],
        })
    }

    /// The step size h [s].
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The slip speed |c+_t| of patch j after the last step [m/s].
    pub fn slip(&self, j: usize) -> f64 {
        let c = self.c_end[j];
        c[0].hypot(c[1])
    }

    /// Whether patch j stuck in the last step.
    pub fn stuck(&self, j: usize) -> bool {
        self.sticking[j]
    }

    /// The normal impulse of patch j: P_N = h F_N(x), x = x0 + G P_N.
    fn normal_impulse(&self, j: usize, x0: f64) -> f64 {
        let pen = self.model.contact().penalty;
        let (h, th) = (self.dt, THETA);
        let (g, c) = (self.g_start[j], self.c_start[j][2]);
        let gz = self.diag[j][2][2];
        let kd = pen.stiffness * th * h + pen.damping;
        let a = pen.stiffness * g - kd * (1.0 - th) * c;
        let b = kd * th;
        let g_theta = |x: f64| g - th * h * ((1.0 - th) * c + th * x);
        let force = |x: f64| {
            if g_theta(x) > 0.0 {
                (a - b * x).max(0.0)
            } else {
                0.0
            }
        };
        if force(x0) <= 0.0 {
            return 0.0;
        }
        let p = h * (a - b * x0) / (1.0 + h * b * gz);
        if g_theta(x0 + gz * p) > 0.0 {
            return p;
        }
        // Exactly touching at the theta point.
        let xg = (g / (th * h) - (1.0 - th) * c) / th;
        ((xg - x0) / gz).max(0.0)
    }

    /// The tangential impulse of patch j for c+_t = b + G_tt P_t.
    fn tangential_impulse(&self, j: usize, b: [f64; 2], pn: f64, t: f64) -> Result<Local, String> {
        let g = &self.diag[j];
        let gt = [[g[0][0], g[0][1]], [g[1][0], g[1][1]]];
        let none = Local {
            p: [0.0, 0.0, pn],
            stick: false,
        };
        if pn <= 0.0 {
            return Ok(none);
        }
        let bn = b[0].hypot(b[1]);
        if let Some(mu) = self.stick {
            let ps = solve2(gt, b);
            let ps = [-ps[0], -ps[1]];
            if ps[0].hypot(ps[1]) <= mu * pn {
                return Ok(Local {
                    p: [ps[0], ps[1], pn],
                    stick: true,
                });
            }
        }
        if bn == 0.0 {
            return Ok(none);
        }
        let law = &self.law;
        // A set-valued law's slip coefficient is taken at the slip speed
        // of the step's start (module doc); a regularised law's at c+.
        let frozen = self.stick.map(|_| {
            let c = self.c_start[j];
            law.coefficient(c[0].hypot(c[1]))
        });
        let coefficient = |s: f64| frozen.unwrap_or_else(|| law.coefficient(s));
        let slope = |s: f64| if frozen.is_some() { 0.0 } else { law.slope(s) };
        let c_of = |lam: f64| {
            solve2(
                [
                    [1.0 + lam * gt[0][0], lam * gt[0][1]],
                    [lam * gt[1][0], 1.0 + lam * gt[1][1]],
                ],
                b,
            )
        };
        let h_of = |lam: f64| {
            let c = c_of(lam);
            let s = c[0].hypot(c[1]);
            (lam * s - pn * coefficient(s), c, s)
        };
        let (h0, _, _) = h_of(0.0);
        if h0 >= 0.0 {
            return Ok(none);
        }
        let mut hi = 2.0 * pn * coefficient(bn) / bn;
        if hi <= 0.0 || !hi.is_finite() {
            hi = 1.0;
        }
        let mut grow = 0;
        while h_of(hi).0 < 0.0 {
            hi *= 4.0;
            grow += 1;
            if grow > 200 {
                return Err(format!(
                    "Moreau: no slip solution bracketed at t = {t} s (patch {j}, P_N = {pn:e} N s)"
                ));
            }
        }
        let mut lo = 0.0;
        let mut lam = 0.5 * hi;
        for _ in 0..200 {
            let (hv, c, s) = h_of(lam);
            if hv.abs() <= 1e-13 * (lam * s).max(pn * coefficient(s)) {
                return Ok(Local {
                    p: [-lam * c[0], -lam * c[1], pn],
                    stick: false,
                });
            }
            if hv > 0.0 {
                hi = lam;
            } else {
                lo = lam;
            }
            // dc/dlam = -(I + lam G)^-1 G c.
            let gc = [
                gt[0][0] * c[0] + gt[0][1] * c[1],
                gt[1][0] * c[0] + gt[1][1] * c[1],
            ];
            let dc = solve2(
                [
                    [1.0 + lam * gt[0][0], lam * gt[0][1]],
                    [lam * gt[1][0], 1.0 + lam * gt[1][1]],
                ],
                gc,
            );
            let ds = if s > 0.0 {
                -(c[0] * dc[0] + c[1] * dc[1]) / s
            } else {
                0.0
            };
            let dh = s + lam * ds - pn * slope(s) * ds;
            let next = lam - hv / dh;
            lam = if dh > 0.0 && next > lo && next < hi {
                next
            } else {
                0.5 * (lo + hi)
            };
            if hi - lo <= 1e-15 * hi {
                let (_, c, _) = h_of(lam);
                return Ok(Local {
                    p: [-lam * c[0], -lam * c[1], pn],
                    stick: false,
                });
            }
        }
        Err(format!(
            "Moreau: slip equation of patch {j} did not converge at t = {t} s (P_N = {pn:e} N s)"
        ))
    }

    /// One step from `state` (in place); fails on a non-finite state or
    /// when the Gauss-Seidel sweeps reach their bound, naming the time.
    pub fn step(&mut self, state: &mut MoreauState) -> Result<StepReport, String> {
        let m = self.model;
        let contact = m.contact();
        let n = m.dofs();
        let (h, th, t) = (self.dt, THETA, state.t);
        let np = contact.patches.len();
        if state.impulses.len() != np || state.q.len() != n || state.v.len() != n {
            return Err("Moreau: the state does not fit the model".into());
        }
        // v_free = v + W^-1 h (f_th - B v - K (q + th h v)).
        let s_th = (1.0 - th) * m.load_factor(t) + th * m.load_factor(t + h);
        for ((w, q), v) in self.work.iter_mut().zip(&state.q).zip(&state.v) {
            *w = q + th * h * v;
        }
        m.stiffness_mul(&self.work, &mut self.v_free);
        m.damping_mul(&state.v, &mut self.work);
        for (i, (w, kq)) in self.work.iter_mut().zip(&self.v_free).enumerate() {
            *w = h * (s_th * m.load_vector()[i] - *w - kq);
        }
        self.w.solve_in_place(&mut self.work);
        for ((vf, v), dw) in self.v_free.iter_mut().zip(&state.v).zip(&self.work) {
            *vf = v + dw;
        }
        // Start-of-step kinematics, tip velocities with the warm start.
        for j in 0..np {
            let k = contact.kinematics(j, &state.q, &state.v);
            self.c_start[j] = k.velocity;
            self.g_start[j] = k.penetration;
        }
        let mut u = [0.0; TIP_DOFS];
        for (ui, &d) in u.iter_mut().zip(&contact.tip_dofs) {
            *ui = self.v_free[d];
        }
        for (j, p) in state.impulses.iter().enumerate() {
            for (ui, yr) in u.iter_mut().zip(&self.yh[j]) {
                *ui += yr[0] * p[0] + yr[1] * p[1] + yr[2] * p[2];
            }
        }
        let relative = |j: usize, u: &[f64; TIP_DOFS]| {
            let hj = &contact.patches[j].h;
            let mut c = [0.0; 3];
            for (r, cr) in c.iter_mut().enumerate() {
                *cr = (0..TIP_DOFS).map(|k| hj[r][k] * u[k]).sum();
            }
            c
        };
        // Velocity scale: the local velocities without contact impulses.
        let mut u_free = [0.0; TIP_DOFS];
        for (ui, &d) in u_free.iter_mut().zip(&contact.tip_dofs) {
            *ui = self.v_free[d];
        }
        let mut scale = 0.0f64;
        for j in 0..np {
            let c = relative(j, &u_free);
            scale = scale.max(c.iter().fold(0.0, |a: f64, x| a.max(x.abs())));
            self.c_end[j] = relative(j, &u);
        }
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            crate::deadline::check_every(sweeps);
            let (mut change, mut largest) = (0.0f64, 0.0f64);
            for j in 0..np {
                let c = relative(j, &u);
                let g = &self.diag[j];
                let p = state.impulses[j];
                let mut c0 = [0.0; 3];
                for r in 0..3 {
                    c0[r] = c[r] - (g[r][0] * p[0] + g[r][1] * p[1] + g[r][2] * p[2]);
                }
                let pn = self.normal_impulse(j, c0[2] + g[2][0] * p[0] + g[2][1] * p[1]);
                let b = [c0[0] + g[0][2] * pn, c0[1] + g[1][2] * pn];
                let local = self.tangential_impulse(j, b, pn, t)?;
                self.sticking[j] = local.stick;
                let d = [local.p[0] - p[0], local.p[1] - p[1], local.p[2] - p[2]];
                for (ui, yr) in u.iter_mut().zip(&self.yh[j]) {
                    *ui += yr[0] * d[0] + yr[1] * d[1] + yr[2] * d[2];
                }
                state.impulses[j] = local.p;
                change = change.max(d.iter().fold(0.0, |a: f64, x| a.max(x.abs())));
                largest = largest.max(local.p.iter().fold(0.0, |a: f64, x| a.max(x.abs())));
            }
            if !(change.is_finite() && largest.is_finite()) {
                return Err(format!("Moreau: non-finite contact impulse at t = {t} s"));
            }
            // The sweep's change of the local velocities c+.
            let mut dv = 0.0f64;
            for j in 0..np {
                let c = relative(j, &u);
                for (cr, old) in c.iter().zip(&self.c_end[j]) {
                    dv = dv.max((cr - old).abs());
                    scale = scale.max(cr.abs());
                }
                self.c_end[j] = c;
            }
            if change <= self.tolerance * largest || dv <= self.tolerance * scale {
                break;
            }
            if sweeps >= self.max_sweeps {
                return Err(format!(
                    "Moreau: the contact iteration reached {sweeps} sweeps at t = {t} s (change of \
                     the patch velocities {dv:e} of {scale:e} m/s, of the impulses {change:e} of \
                     {largest:e} N s; tolerance {:e})",
                    self.tolerance
                ));
            }
        }
        // v+ = v_free + W^-1 H^T P; q+ = q + h v_th.
        self.work.iter_mut().for_each(|x| *x = 0.0);
        for (j, p) in state.impulses.iter().enumerate() {
            contact.add_generalized(j, p, &mut self.work);
        }
        self.w.solve_in_place(&mut self.work);
        let mut report = StepReport {
            sweeps,
            ..Default::default()
        };
        let mut load_work = 0.0;
        for i in 0..n {
            let v_new = self.v_free[i] + self.work[i];
            let v_th = (1.0 - th) * state.v[i] + th * v_new;
            let dq = h * v_th;
            load_work += s_th * m.load_vector()[i] * dq;
            state.q[i] += dq;
            state.v[i] = v_new;
            self.work[i] = v_th;
        }
        if !(state.q.iter().all(|x| x.is_finite()) && state.v.iter().all(|x| x.is_finite())) {
            return Err(format!("Moreau: non-finite state at t = {} s", t + h));
        }
        // Energy bookkeeping and the step's contact summary.
        m.damping_mul(&self.work, &mut self.v_free);
        let mut damping: f64 = h * self
            .work
            .iter()
            .zip(&self.v_free)
            .map(|(a, b)| a * b)
            .sum::<f64>();
        let k_n = contact.penalty.stiffness;
        let mut friction = 0.0;
        for j in 0..np {
            let p = state.impulses[j];
            let c = contact.relative(j, &state.v);
            self.c_end[j] = c;
            let s = c[0].hypot(c[1]);
            if !self.sticking[j] {
                // The law's dissipation at the end velocity, P_N f(s+) s+
                // (= -P_t . c+ at convergence); a stuck patch does not slip.
                friction += p[2] * self.law.coefficient(s) * s;
            }
            let g_new = contact.kinematics(j, &state.q, &state.v).penetration;
            let g_th = ((1.0 - th) * self.g_start[j] + th * g_new).max(0.0);
            damping += (p[2] / h - k_n * g_th) * (g_new - self.g_start[j]);
            report.normal += p[2] / h;
            report.friction[0] += p[0] / h;
            report.friction[1] += p[1] / h;
            report.max_slip = report.max_slip.max(s);
            report.sticking += usize::from(self.sticking[j]);
        }
        report.friction_work = friction;
        report.damping_work = damping;
        state.friction_work += report.friction_work;
        state.damping_work += damping;
        state.load_work += load_work;
        state.t = t + h;
        Ok(report)
    }
}
