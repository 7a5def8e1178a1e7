//! Moreau-Jean time stepping of a linear mechanical system with frictional
//! contacts, with true sticking (Moreau, *Unilateral contact and dry
//! friction in finite freedom dynamics*, CISM 302, 1988; Jean, CMAME 177
//! (1999) 235-257; the theta-method of Acary & Brogliato, *Numerical
//! Methods for Nonsmooth Dynamical Systems*, 2008, ch. 10), theta = 1/2.
//! One stepper for every model that implements [`MoreauProblem`] (the
//! mass on the belt, the shrouded blades).
//!
//! The system: M q'' + B q' + K q = s(t) f + sum_j H_j^T r_j, contact j
//! with the local velocity c_j = H_j v + w_j (rows: two tangential
//! directions, then the normal; w_j the velocity of a moving support, the
//! belt's -v_b). Per step of size h from (q, v) at t, with
//! v_th = (1 - th) v + th v+, q_th = (1 - th) q + th q+ and
//! q+ = q + h v_th:
//!
//!   M (v+ - v) = h (f_th - B v_th - K q_th) + sum_j H_j^T P_j,
//!
//! so that v+ = v_free + W^-1 H^T P with the iteration matrix
//! W = M + th h B + th^2 h^2 K (factored once, by the problem) and
//! v_free = v + W^-1 h (f_th - B v - K (q + th h v)). The contact impulses
//! P_j = (P_t1, P_t2, P_N) see the local velocities c+ = H v+ + w through
//! the Delassus operator G = H W^-1 H^T: c+_j = c_free,j + sum_i G_ji P_i.
//!
//! Each contact's impulse solves its law in impulse form
//! ([`crate::contact::impulse`]): the normal one an implicit penalty at the
//! theta point or a prescribed normal force; the tangential one the
//! complementarity condition of the friction law at c+ (set-valued laws
//! stick exactly; regularised laws act as their implicit force), in the
//! plane or on a line ([`ContactLaw::planar`]). A set-valued law's slip
//! coefficient is f(|c+|) or, where the problem asks for it
//! ([`ContactLaw::slip_coefficient`] = [`SlipCoefficient::StepStart`]: the
//! blades' coupled patches under a steeply falling law), f(|c_t(t)|) at the
//! slip speed of the step's start.
//!
//! Contacts coupled through G (the blades' patches on one rigid shroud
//! pair) are solved by projected Gauss-Seidel sweeps over the contacts
//! (normal then tangential per contact), warm-started from the last step's
//! impulses, until a sweep changes the local velocities c+ by at most
//! `tolerance` (default 1e-10) times their scale (the largest component of
//! c_free or c+), or the impulses by at most `tolerance` times the largest
//! impulse; more than `max_sweeps` (default 50000) is an error naming the
//! time. A single contact whose normal impulse does not depend on its
//! tangential one (a prescribed normal force, or no coupling in G) is
//! solved exactly once from c_free, without a sweep. Under a regularised
//! law (no sticking) a step the first sweeps do not settle is finished by
//! semi-smooth Newton over all contacts at once ([`newton`]), with the
//! sweeps going on where Newton does not converge.
//!
//! **The seed's formulation** ([`MoreauStepper::with_explicit_friction`]):
//! the equations of motion with each friction force a function of the
//! state, T_j = -N_j f(|c_j|) c_j/|c_j| with no sticking limit (the study
//! text on friction in contact joints, its eqs. (4), (5)), stepped by the
//! same scheme with that force evaluated at the step's start slip: an
//! implicit-explicit step, implicit in the linear part and the normal law
//! (so no step limit from the blades' stiff bending modes or the penalty),
//! explicit in the friction force (so it is defined where the force jumps,
//! at zero slip, and needs no local slip equation). A set-valued law then
//! chatters around zero slip with a slip speed of order h N f(0+) / m;
//! the method is first order and converges, as h -> 0, to the Filippov
//! solution of the discontinuous equations, which sticks where the law's
//! f(0+) can hold the contact.
//!
//! **Energy**: with theta = 1/2 the linear part conserves exactly; per step
//! the load work is f_th . (q+ - q), the damping work h v_th B v_th plus the
//! penalty law's (P_N / h - k_n g_th+) (g+ - g) >= 0, the friction work
//! sum_j P_N f(s+) s+ >= 0 over the slipping contacts (the law's dissipation
//! at the end velocity, = -P_t . c+; its difference from the work of P_t
//! on v_th, P_t . (c - c+)/2 per step, is the scheme's O(h) energy error,
//! which the balance shows). The state also carries the work of the
//! tangential impulses at the theta point, -P_t . c_t(v_th), and the
//! moving supports' work -P . w: with theta = 1/2 these close the discrete
//! balance exactly (the belt's energy audit).

use crate::contact::friction::{FrictionLaw, LawClass};
use crate::contact::impulse::{
    LocalError, SlipCoefficient, line_impulse, penalty_impulse, planar_impulse,
};
use crate::problem::moreau::{ContactLaw, IterationMatrix, MoreauProblem, NormalLaw};

mod newton;

/// theta of the scheme.
pub const THETA: f64 = 0.5;

/// Sweeps after which a step under a regularised law that has not settled
/// is handed to Newton (cheap steps stay with the sweeps: a Newton
/// iteration on the blades' 20 patches costs about as much as 15 sweeps).
const SWEEPS_BEFORE_NEWTON: usize = 2;

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
    /// Work taken out by the contacts' tangential impulses at the theta
    /// point, -sum_j P_t,j . c_t,j(v_th) [J]: with theta = 1/2 it closes
    /// the discrete energy balance exactly (E+ - E equals the load and
    /// support works less the damping work and this), where the law's
    /// dissipation at the end velocity (`friction_work`) leaves the
    /// scheme's O(h) error.
    pub contact_dissipation: f64,
    /// Work of the moving supports, -sum_j P_j . w_j [J] (the belt's
    /// drive; zero without a [`MoreauProblem::contact_drift`]).
    pub support_work: f64,
    /// The last step's contact impulses (P_t1, P_t2, P_N) [N s] (warm start).
    pub impulses: Vec<[f64; 3]>,
}

impl MoreauState {
    /// The state (q, v) at t = 0 of a problem with `contacts` contacts.
    pub fn new(q: Vec<f64>, v: Vec<f64>, contacts: usize) -> Self {
        Self {
            t: 0.0,
            q,
            v,
            friction_work: 0.0,
            damping_work: 0.0,
            load_work: 0.0,
            contact_dissipation: 0.0,
            support_work: 0.0,
            impulses: vec![[0.0; 3]; contacts],
        }
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepReport {
    /// Gauss-Seidel sweeps (1 for a contact solved once).
    pub sweeps: usize,
    /// Contacts that stuck.
    pub sticking: usize,
    /// Newton iterations of the slip equations, summed over the sweeps.
    pub newton_iterations: usize,
    /// Newton iterations over all contacts at once (a regularised law on
    /// coupled contacts; 0 when the sweeps solved the step).
    pub global_newton: usize,
    /// Sum of P_N / h [N].
    pub normal: f64,
    /// Resultant of P_t / h [N].
    pub friction: [f64; 2],
    /// Largest slip speed |c+_t| over the contacts [m/s].
    pub max_slip: f64,
    /// Friction work of the step (>= 0) [J].
    pub friction_work: f64,
    /// Damping work of the step (>= 0) [J].
    pub damping_work: f64,
}

/// The Moreau stepper of one problem, law and step size.
pub struct MoreauStepper<'a, P: MoreauProblem> {
    problem: &'a P,
    law: FrictionLaw,
    dt: f64,
    stick: Option<f64>,
    w: P::Iteration,
    laws: Vec<ContactLaw>,
    /// Y H_j^T (one [f64; 3] per contact DOF): the contact DOFs' velocity
    /// change per unit impulse of contact j.
    yh: Vec<Vec<[f64; 3]>>,
    /// G_jj = H_j Y H_j^T.
    diag: Vec<[[f64; 3]; 3]>,
    /// One exact local solve per step (a single uncoupled contact).
    once: bool,
    /// Convergence: largest impulse change over largest impulse.
    pub tolerance: f64,
    /// Bound on the sweeps per step.
    pub max_sweeps: usize,
    work: Vec<f64>,
    v_free: Vec<f64>,
    u: Vec<f64>,
    u_free: Vec<f64>,
    c_start: Vec<[f64; 3]>,
    g_start: Vec<f64>,
    c_end: Vec<[f64; 3]>,
    sticking: Vec<bool>,
    /// The seed's formulation: the friction force -N f(|c|) c/|c| at the
    /// step's start slip, no sticking limit (module doc).
    explicit_friction: bool,
    /// The Delassus operator (low-rank form) of coupled contacts under a regularised
    /// law, whose impulses Newton solves ([`newton`]); None: sweeps.
    delassus: Option<newton::Delassus>,
    /// Newton iterations of the last step's impulses.
    global_newton: usize,
    /// Sweeps after which Newton takes over (default [`SWEEPS_BEFORE_NEWTON`]).
    newton_after: usize,
}

impl<'a, P: MoreauProblem> MoreauStepper<'a, P> {
    /// Factors W and builds the Delassus blocks.
    pub fn new(problem: &'a P, law: FrictionLaw, dt: f64) -> Result<Self, String> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(format!("Moreau: the step must be positive, got {dt}"));
        }
        let w = problem.iteration_matrix(dt, THETA)?;
        let n = problem.dofs();
        let td = problem.contact_dofs();
        let nd = td.len();
        // Y = (W^-1) on the contact DOFs.
        let mut y = vec![vec![0.0; nd]; nd];
        let mut e = vec![0.0; n];
        for (col, &d) in td.iter().enumerate() {
            e.iter_mut().for_each(|x| *x = 0.0);
            e[d] = 1.0;
            w.solve_in_place(&mut e);
            for (row, &r) in td.iter().enumerate() {
                y[row][col] = e[r];
            }
        }
        let np = problem.contact_count();
        let mut yh = Vec::with_capacity(np);
        let mut diag = Vec::with_capacity(np);
        for j in 0..np {
            let h = [0, 1, 2].map(|r| problem.contact_row(j, r));
            let mut a = vec![[0.0; 3]; nd];
            for (r, ar) in a.iter_mut().enumerate() {
                for (c, arc) in ar.iter_mut().enumerate() {
                    *arc = (0..nd).map(|k| y[r][k] * h[c][k]).sum();
                }
            }
            let mut g = [[0.0; 3]; 3];
            for (i, gi) in g.iter_mut().enumerate() {
                for (jj, gij) in gi.iter_mut().enumerate() {
                    *gij = (0..nd).map(|k| h[i][k] * a[k][jj]).sum();
                }
            }
            yh.push(a);
            diag.push(g);
        }
        let laws: Vec<ContactLaw> = (0..np).map(|j| problem.contact_law(j)).collect();
        let once = np == 1
            && match laws[0].normal {
                NormalLaw::Prescribed(_) => true,
                NormalLaw::Penalty(_) => diag[0][2][..2].iter().all(|&x| x == 0.0),
            };
        let stick = match law.class() {
            LawClass::SetValued { stick } => Some(stick),
            LawClass::Regularized => None,
        };
        let delassus =
            (stick.is_none() && !once && np > 1).then(|| newton::Delassus::new(problem, &yh));
        Ok(Self {
            problem,
            law,
            dt,
            stick,
            w,
            laws,
            yh,
            diag,
            once,
            tolerance: 1e-10,
            max_sweeps: 50_000,
            work: vec![0.0; n],
            v_free: vec![0.0; n],
            u: vec![0.0; nd],
            u_free: vec![0.0; nd],
            c_start: vec![[0.0; 3]; np],
            g_start: vec![0.0; np],
            c_end: vec![[0.0; 3]; np],
            sticking: vec![false; np],
            explicit_friction: false,
            delassus,
            global_newton: 0,
            newton_after: SWEEPS_BEFORE_NEWTON,
        })
    }

    /// The stepper that hands a regularised law's step to Newton after
    /// `sweeps` sweeps (at least 1) instead of [`SWEEPS_BEFORE_NEWTON`].
    pub fn with_newton_after(mut self, sweeps: usize) -> Self {
        self.newton_after = sweeps.max(1);
        self
    }

    /// The stepper that solves every step's impulses by Gauss-Seidel
    /// sweeps, also under a regularised law (the reference the Newton
    /// solution is tested against).
    pub fn with_sweeps_only(mut self) -> Self {
        self.delassus = None;
        self
    }

    /// The stepper of the seed's formulation: the friction force of each
    /// contact is the law's -N f(|c|) c/|c| at the slip c of the step's
    /// start (explicit, no complementarity and no sticking limit: the
    /// equations of motion with the friction law as a function of the
    /// state, as the seed integrated them), while the linear part and the
    /// normal law stay implicit at the theta point. Near a slip reversal
    /// the force flips from step to step (chattering of order h); the
    /// friction work is then the impulses' work at the theta point,
    /// which may be negative there.
    pub fn with_explicit_friction(mut self) -> Self {
        self.explicit_friction = true;
        // The explicit friction impulse needs no Newton over the contacts.
        self.delassus = None;
        self
    }

    /// The step size h [s].
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The slip speed |c+_t| of contact j after the last step [m/s].
    pub fn slip(&self, j: usize) -> f64 {
        let c = self.c_end[j];
        c[0].hypot(c[1])
    }

    /// Whether contact j stuck in the last step.
    pub fn stuck(&self, j: usize) -> bool {
        self.sticking[j]
    }

    /// The local velocity H_j u + w_j of the contact DOFs' velocities u.
    fn relative(&self, j: usize, u: &[f64]) -> [f64; 3] {
        let mut c = [0.0; 3];
        for (r, cr) in c.iter_mut().enumerate() {
            let hj = self.problem.contact_row(j, r);
            *cr = (0..u.len()).map(|k| hj[k] * u[k]).sum();
        }
        if let Some(w) = self.problem.contact_drift(j) {
            for (cr, wr) in c.iter_mut().zip(w) {
                *cr += wr;
            }
        }
        c
    }

    /// Contact j's slip coefficient held at the step's start slip speed,
    /// f(|c_t(t)|), for a set-valued law in the plane whose problem asks
    /// for it; None: f(|c+|) (module doc).
    fn frozen(&self, j: usize) -> Option<f64> {
        let law = self.laws[j];
        (self.stick.is_some() && law.planar && law.slip_coefficient == SlipCoefficient::StepStart)
            .then(|| {
                let c = self.c_start[j];
                self.law.coefficient(c[0].hypot(c[1]))
            })
    }

    /// Contact j's impulse for its local velocity c at the current
    /// impulses p (the others fixed).
    fn local(&self, j: usize, c: [f64; 3], p: [f64; 3], t: f64) -> Result<Tangential3, String> {
        let g = &self.diag[j];
        let mut c0 = [0.0; 3];
        for r in 0..3 {
            c0[r] = c[r] - (g[r][0] * p[0] + g[r][1] * p[1] + g[r][2] * p[2]);
        }
        let law = self.laws[j];
        let pn = match law.normal {
            NormalLaw::Prescribed(force) => self.dt * force,
            NormalLaw::Penalty(pen) => penalty_impulse(
                &pen,
                self.dt,
                THETA,
                self.g_start[j],
                self.c_start[j][2],
                g[2][2],
                c0[2] + g[2][0] * p[0] + g[2][1] * p[1],
            ),
        };
        if self.explicit_friction {
            return Ok(Tangential3 {
                p: self.explicit_tangential(j, pn),
                stick: false,
                iterations: 0,
            });
        }
        let b = [c0[0] + g[0][2] * pn, c0[1] + g[1][2] * pn];
        let local = if law.planar {
            let gt = [[g[0][0], g[0][1]], [g[1][0], g[1][1]]];
            planar_impulse(&self.law, self.stick, self.frozen(j), gt, b, pn)
        } else {
            line_impulse(&self.law, self.stick, g[0][0], b[0], pn)
        };
        let local = local.map_err(|e| match e {
            LocalError::NoBracket => format!(
                "Moreau: no slip solution bracketed at t = {t} s (contact {j}, P_N = {pn:e} N s)"
            ),
            LocalError::NotConverged => format!(
                "Moreau: slip equation of contact {j} did not converge at t = {t} s (P_N = {pn:e} N s)"
            ),
        })?;
        Ok(Tangential3 {
            p: [local.impulse[0], local.impulse[1], pn],
            stick: local.stick,
            iterations: local.iterations,
        })
    }

    /// The seed's friction impulse of contact j with normal impulse `pn`:
    /// -pn f(s) c/s at the step's start slip c (s = |c|; on a line
    /// -pn f(|c|) sign c), zero without slip.
    fn explicit_tangential(&self, j: usize, pn: f64) -> [f64; 3] {
        let c = self.c_start[j];
        let s = if self.laws[j].planar {
            c[0].hypot(c[1])
        } else {
            c[0].abs()
        };
        if s == 0.0 {
            return [0.0, 0.0, pn];
        }
        let k = -pn * self.law.coefficient(s) / s;
        if self.laws[j].planar {
            [k * c[0], k * c[1], pn]
        } else {
            [k * c[0], 0.0, pn]
        }
    }

    /// v_free = v + W^-1 h (f_th - B v - K (q + th h v)); returns s_th.
    fn free_velocity(&mut self, state: &MoreauState) -> f64 {
        let m = self.problem;
        let (h, th, t) = (self.dt, THETA, state.t);
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
        s_th
    }

    /// The contact impulses of the step into `state.impulses` (module
    /// doc); returns (sweeps, Newton iterations).
    fn contact_impulses(&mut self, state: &mut MoreauState) -> Result<(usize, usize), String> {
        let m = self.problem;
        let np = m.contact_count();
        let t = state.t;
        let td = m.contact_dofs();
        for (ui, &d) in self.u_free.iter_mut().zip(td) {
            *ui = self.v_free[d];
        }
        if self.once {
            let c = self.relative(0, &self.u_free);
            let local = self.local(0, c, [0.0; 3], t)?;
            self.sticking[0] = local.stick;
            state.impulses[0] = local.p;
            return Ok((1, local.iterations));
        }
        self.global_newton = 0;
        // Start-of-sweep velocities with the warm start.
        let mut u = std::mem::take(&mut self.u);
        self.velocities_of(&mut u, &state.impulses);
        // Velocity scale: the local velocities without contact impulses.
        let mut scale = 0.0f64;
        for j in 0..np {
            let c = self.relative(j, &self.u_free);
            scale = scale.max(c.iter().fold(0.0, |a: f64, x| a.max(x.abs())));
            self.c_end[j] = self.relative(j, &u);
        }
        let result = self.sweeps(&mut u, state, scale);
        self.u = u;
        result
    }

    /// The impulses of the step by Newton over all contacts from the
    /// current ones ([`newton`]); None without a Delassus operator or when
    /// Newton does not converge (impulses unchanged).
    fn newton_impulses(&self, impulses: &mut [[f64; 3]]) -> Option<usize> {
        let g = self.delassus.as_ref()?;
        let c_free: Vec<f64> = (0..impulses.len())
            .flat_map(|j| self.relative(j, &self.u_free))
            .collect();
        newton::Step {
            law: &self.law,
            laws: &self.laws,
            dt: self.dt,
            theta: THETA,
            g_start: &self.g_start,
            c_start: &self.c_start,
            c_free: &c_free,
            tolerance: self.tolerance,
        }
        .solve(g, impulses)
    }

    /// u = u_free + sum_j Y H_j^T P_j: the contact DOFs' velocities under
    /// the impulses P.
    fn velocities_of(&self, u: &mut [f64], impulses: &[[f64; 3]]) {
        u.copy_from_slice(&self.u_free);
        for (j, p) in impulses.iter().enumerate() {
            for (ui, yr) in u.iter_mut().zip(&self.yh[j]) {
                *ui += yr[0] * p[0] + yr[1] * p[1] + yr[2] * p[2];
            }
        }
    }

    /// Gauss-Seidel sweeps over the contacts from the velocities u of the
    /// contact DOFs (warm start included) until the impulses or the local
    /// velocities settle; returns (sweeps, Newton iterations). Under a
    /// regularised law, a step the first [`SWEEPS_BEFORE_NEWTON`] sweeps
    /// do not settle is finished by Newton over all contacts from the
    /// sweeps' iterate ([`newton`]); the sweeps go on where Newton fails.
    fn sweeps(
        &mut self,
        u: &mut [f64],
        state: &mut MoreauState,
        mut scale: f64,
    ) -> Result<(usize, usize), String> {
        let np = self.problem.contact_count();
        let t = state.t;
        let mut sweeps = 0;
        let mut newton = 0;
        loop {
            sweeps += 1;
            crate::deadline::check_every(sweeps);
            let (mut change, mut largest) = (0.0f64, 0.0f64);
            for j in 0..np {
                let c = self.relative(j, u);
                let p = state.impulses[j];
                let local = self.local(j, c, p, t)?;
                newton += local.iterations;
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
                let c = self.relative(j, u);
                for (cr, old) in c.iter().zip(&self.c_end[j]) {
                    dv = dv.max((cr - old).abs());
                    scale = scale.max(cr.abs());
                }
                self.c_end[j] = c;
            }
            if change <= self.tolerance * largest || dv <= self.tolerance * scale {
                return Ok((sweeps, newton));
            }
            if sweeps == self.newton_after
                && let Some(iterations) = self.newton_impulses(&mut state.impulses)
            {
                self.global_newton = iterations;
                self.velocities_of(u, &state.impulses);
                self.sticking.iter_mut().for_each(|s| *s = false);
                return Ok((sweeps, newton));
            }
            if sweeps >= self.max_sweeps {
                return Err(format!(
                    "Moreau: the contact iteration reached {sweeps} sweeps at t = {t} s (change of \
                     the contact velocities {dv:e} of {scale:e} m/s, of the impulses {change:e} of \
                     {largest:e} N s; tolerance {:e})",
                    self.tolerance
                ));
            }
        }
    }

    /// One step from `state` (in place); fails on a non-finite state or
    /// when the Gauss-Seidel sweeps reach their bound, naming the time.
    pub fn step(&mut self, state: &mut MoreauState) -> Result<StepReport, String> {
        let m = self.problem;
        let n = m.dofs();
        let (h, th, t) = (self.dt, THETA, state.t);
        let np = m.contact_count();
        if state.impulses.len() != np || state.q.len() != n || state.v.len() != n {
            return Err("Moreau: the state does not fit the model".into());
        }
        let s_th = self.free_velocity(state);
        // Start-of-step kinematics.
        for j in 0..np {
            let (g, c) = m.contact_kinematics(j, &state.q, &state.v);
            self.c_start[j] = c;
            self.g_start[j] = g;
        }
        let (sweeps, newton_iterations) = self.contact_impulses(state)?;
        // v+ = v_free + W^-1 H^T P; q+ = q + h v_th.
        self.work.iter_mut().for_each(|x| *x = 0.0);
        let td = m.contact_dofs();
        for (j, p) in state.impulses.iter().enumerate() {
            let h = [0, 1, 2].map(|r| m.contact_row(j, r));
            for (k, &d) in td.iter().enumerate() {
                self.work[d] += h[0][k] * p[0] + h[1][k] * p[1] + h[2][k] * p[2];
            }
        }
        self.w.solve_in_place(&mut self.work);
        let mut report = StepReport {
            sweeps,
            newton_iterations,
            global_newton: self.global_newton,
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
        let mut friction = 0.0;
        let (mut dissipation, mut support) = (0.0, 0.0);
        // v_th at the contact DOFs.
        let mut u_th = std::mem::take(&mut self.u);
        for (uk, &d) in u_th.iter_mut().zip(td) {
            *uk = self.work[d];
        }
        for j in 0..np {
            let p = state.impulses[j];
            let c_th = self.relative(j, &u_th);
            dissipation -= p[0] * c_th[0] + p[1] * c_th[1];
            if let Some(w) = m.contact_drift(j) {
                support -= p[0] * w[0] + p[1] * w[1] + p[2] * w[2];
            }
            let (g_new, c) = m.contact_kinematics(j, &state.q, &state.v);
            self.c_end[j] = c;
            let s = c[0].hypot(c[1]);
            if self.explicit_friction {
                // The applied impulse's work at the theta point.
                friction -= p[0] * c_th[0] + p[1] * c_th[1];
            } else if !self.sticking[j] {
                // The law's dissipation at the end velocity, P_N mu s+ with
                // the applied coefficient mu = f(s+) or the frozen one
                // (= -P_t . c+ at convergence); a stuck contact does not slip.
                let mu = self.frozen(j).unwrap_or_else(|| self.law.coefficient(s));
                friction += p[2] * mu * s;
            }
            if let NormalLaw::Penalty(pen) = self.laws[j].normal {
                let g_th = ((1.0 - th) * self.g_start[j] + th * g_new).max(0.0);
                damping += (p[2] / h - pen.stiffness * g_th) * (g_new - self.g_start[j]);
            }
            report.normal += p[2] / h;
            report.friction[0] += p[0] / h;
            report.friction[1] += p[1] / h;
            report.max_slip = report.max_slip.max(s);
            report.sticking += usize::from(self.sticking[j]);
        }
        self.u = u_th;
        report.friction_work = friction;
        report.damping_work = damping;
        state.contact_dissipation += dissipation;
        state.support_work += support;
        state.friction_work += report.friction_work;
        state.damping_work += damping;
        state.load_work += load_work;
        state.t = t + h;
        Ok(report)
    }
}

/// One contact's impulse (P_t1, P_t2, P_N) and its outcome.
struct Tangential3 {
    p: [f64; 3],
    stick: bool,
    iterations: usize,
}
