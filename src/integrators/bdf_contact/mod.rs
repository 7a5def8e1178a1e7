//! BDF time integration of a linear system with unilateral contacts
//! ([`ContactSystem`]: the valve spring with coil contact, the valvetrain),
//! two ways (Haslinger, Offner, Sopouch et al., ZAMM 94 (2014) 957-967):
//!
//! - **NCP** (`ncp-bdf`): Signorini on displacement level, g(q) >= 0,
//!   lambda >= 0, g lambda = 0, written as Phi = lambda - max(0, lambda -
//!   c g) = 0 and solved with the BDF step's equations by a semi-smooth
//!   Newton method (generalised Jacobian: d Phi / d q = c dg/dq where
//!   lambda - c g > 0, d Phi / d lambda = 1 elsewhere);
//! - **penalty** (`penalty-bdf`): spring-damper elements in the contacts,
//!   lambda = max(0, -k_p g - c_p g'), the same BDF step, Newton on q.
//!
//! The BDF formula of order k with variable steps, y_{n+1} = sum_j a_j
//! y_{n+1-j} + b h y'_{n+1} (k = 1: a = 1, b = 1; k = 2 with omega =
//! h_{n+1} / h_n: a_1 = (1 + omega)^2 / (1 + 2 omega), a_2 = -omega^2 /
//! (1 + 2 omega), b = (1 + omega) / (1 + 2 omega)), applied to q' = v and
//! M v' = -K q - C v + f(t) + G^T lambda. With gamma = b h, psi_q = sum
//! a_j q and psi_v = sum a_j v: v = (q - psi_q) / gamma and the step's
//! equations in q
//!
//!   R(q, lambda) = M (q - psi_q - gamma psi_v) / gamma^2 + K q + C v(q) - f(t) - G^T lambda = 0,
//!
//! whose Jacobian in q is A = M / gamma^2 + C / gamma + K (constant for a
//! step size). The Newton matrix [[A, -G^T], [c G_active, I_inactive]] has
//! a fixed pattern (the union over contact states): factored symbolically
//! once, numerically per iteration by the sparse LU of `src/sparse/`.
//!
//! The impact law (NCP): Signorini on displacement level leaves the
//! velocity jump at an impact to the integrator's velocity formula. BDF2's
//! v_{n+1} = (3 q_{n+1} - 4 q_n + q_{n-1}) / (2 h) differentiates across
//! the impact and sends a mass that stopped on a contact back off it (a
//! unit mass hitting a stop at 0.447 m/s left it at 0.35 m/s: an
//! artificial restitution that depends on the step ratio). So a step in
//! which a contact closes is taken by BDF1 (a BDF2 step that closes one is
//! taken again by BDF1 from the state before it), and so are the two steps
//! after it, each from the last state alone (the impact state still
//! carries the approach velocity; the order-1 restart of multistep codes
//! at a discontinuity): the relative velocity of the closed pair is zero
//! from the step after the impact on, a perfectly plastic impact
//! (Newton's law with e = 0) for BDF1 and BDF2 alike, independent of the
//! step size. The impact step's error is estimated against the history
//! before it (the kink in the positions rejects steps until the impact is
//! located within the tolerance); the two steps after it (no predictor:
//! one state of history) keep its step size, without error control.
//! `BdfStats::restarts` counts them.
//!
//! Redundant contacts (NCP): closed contacts whose gradients are linearly
//! dependent make the Newton matrix singular (the block rows c G_active
//! are dependent, and the contact forces along the dependence are
//! statically indeterminate: G^T lambda, and with it the motion, is
//! unique, lambda is not). A valve spring at coil bind is the case: the
//! pairs (i, i + M) of the lumped helix form M parallel columns from the
//! seat to the retainer, and once two of them are closed end to end the
//! spring is a solid stack with forces shared in any proportion. A solve
//! that meets a zero pivot is done again, and so is the rest of the step,
//! with the closed rows' diagonal d Phi / d lambda = 0 replaced by delta
//! times the diagonal of the Schur complement G A^-1 G^T (A by its
//! diagonal; delta = [`REDUNDANT_COMPLIANCE`] = 1e-8): the Newton matrix of
//! contacts with a small compliance in series, whose Schur complement
//! G A^-1 G^T + delta diag(G A^-1 G^T) is definite (a Levenberg-Marquardt
//! regularization that picks, among the indeterminate forces, the
//! increment without a component along the dependence). Scaled on the
//! Schur complement, not on 1 / c, it stays small against it at every
//! step size (M / gamma^2 grows without bound as the step shrinks). The
//! residual stays the exact Signorini one, so a converged step satisfies
//! the same tolerance as any other; the regularized matrix makes Newton
//! linear with a rate of about delta times the Schur complement's
//! condition on the closed rows, a few extra iterations. Steps that never meet a zero pivot are untouched (bit for
//! bit). `BdfStats::regularized` counts the steps. Round-off seldom leaves
//! the pivot exactly zero: a solve whose increment exceeds
//! [`SINGULAR_INCREMENT`] times its scale (L for positions, k_s L for
//! forces) is taken as the zero pivot it is. (Found by the valvetrain's
//! robustness samples: a heavier spring at coil bind above the jump speed
//! got an increment of 2.7e23 N, and Newton never recovered.)
//!
//! Error control (adaptive runs): the local error of order k is estimated
//! by the difference between the corrector and the predictor (the
//! polynomial through the last k + 1 states extrapolated),
//! err = h / (t_{n+1} - t_{n-k}) |y - y_pred| in the rms norm of
//! e_i / (rtol (1 mm + |q_i - q_i(0)|)) for the positions and
//! e_i / (rtol (1 m/s + |v_i|)) for the velocities (Hairer & Wanner,
//! Solving ODEs II, III.5 and III.7). The same norm for NCP and penalty
//! contact, so that a tolerance means the same for both, except on an NCP
//! impact step, whose velocities jump by construction (any step size):
//! there the positions alone. Positions are scaled on the displacement
//! from the start state (the installed spring), not on the absolute
//! coordinate (a lump 40 mm above the seat would get 10x the allowance of
//! one 4 mm above it, while the gaps are fractions of a millimetre); h_new = h min(2, max(0.2, 0.9 err^(-1/(k+1)))), and no
//! growth on the step after a rejection. The growth bound keeps the
//! variable-step BDF2 zero-stable: its spurious root omega^2 / (1 + 2 omega)
//! at step ratio omega stays below 1 only for omega < 1 + sqrt(2)
//! (Grigorieff 1983; Hairer & Wanner III.5); [`MAX_STEP_GROWTH`] = 2 gives
//! 0.8.

use std::collections::BTreeMap;

use crate::contact::normal::{Penalty, signorini, signorini_closed};
use crate::problem::{ContactSystem, ContactSystemState, LinearForces};
use crate::sparse::lu::SparseLu;

/// Largest ratio of one accepted step to the previous one (adaptive runs).
pub const MAX_STEP_GROWTH: f64 = 2.0;

/// delta: the compliance the Newton matrix gives a closed contact when the
/// closed contacts' gradients are linearly dependent, relative to the
/// diagonal of the Schur complement G A^-1 G^T (module doc, redundant
/// contacts).
pub const REDUNDANT_COMPLIANCE: f64 = 1e-8;

/// An increment beyond this many times its scale (module doc, redundant
/// contacts) means a pivot at round-off level: the matrix is singular to
/// working precision and is treated as a zero pivot. Legitimate
/// increments stay below about 1e3 times their scale (an impact's force
/// over one step); round-off pivots give about 1e20.
pub const SINGULAR_INCREMENT: f64 = 1e10;

/// How the contacts are modelled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactModel {
    /// Signorini as an NCP with the complementarity constant c [N/m].
    Ncp {
        /// c in lambda - max(0, lambda - c g).
        c: f64,
    },
    /// Spring-damper elements.
    Penalty {
        /// k_p [N/m].
        stiffness: f64,
        /// c_p [N s/m].
        damping: f64,
    },
}

/// The step-size policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stepping {
    /// Fixed step h with BDF of order `order` (1 or 2; the first step is
    /// BDF1).
    Fixed {
        /// h [s].
        dt: f64,
        /// 1 or 2.
        order: usize,
    },
    /// Variable-step BDF2 with error control.
    Adaptive {
        /// rtol; atol = rtol x 1 mm, on the positions' displacements
        /// from the start state (module doc).
        tolerance: f64,
        /// First step [s].
        first_step: f64,
    },
}

/// Counters of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BdfStats {
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (error control or Newton failure).
    pub rejected: usize,
    /// Newton iterations over all attempts.
    pub newton_iterations: usize,
    /// Numeric LU factorizations.
    pub factorizations: usize,
    /// Largest Newton iteration count of one step.
    pub max_newton: usize,
    /// Restarts at order 1 after a contact closed (NCP; see the module
    /// doc's impact law).
    pub restarts: usize,
    /// Steps whose Newton matrix was singular (NCP: closed contacts with
    /// linearly dependent gradients) and was regularized (module doc).
    pub regularized: usize,
}

/// The BDF integrator of a [`ContactSystem`].
pub struct BdfContact<'a> {
    system: &'a ContactSystem,
    /// K q + C v of `system`, flattened once.
    linear_forces: LinearForces,
    contact: ContactModel,
    lu: SparseLu,
    /// A's entries: (position in the LU's value array, M, C and K entry).
    a_slots: Vec<(usize, f64, f64, f64)>,
    n: usize,
    m: usize,
    /// Newton tolerance on the residual relative to the load scale.
    pub newton_tolerance: f64,
    /// Newton iteration bound per step.
    pub max_newton: usize,
    /// Counters.
    pub stats: BdfStats,
    scratch: Vec<f64>,
    /// (gamma bits, contact state) of the current factors.
    factored: Option<(u64, Vec<bool>, bool)>,
}

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BdfError {
    /// Newton did not converge and the step could not be reduced further.
    #[error(
        "the Newton iteration did not converge at t = {t} s (h = {h:e} s, residual {residual:e})"
    )]
    Newton {
        /// Time.
        t: f64,
        /// Step.
        h: f64,
        /// Last residual norm.
        residual: f64,
    },
    /// The step fell below the time's resolution.
    #[error("step size underflow at t = {t} s (h = {h:e} s)")]
    StepTooSmall {
        /// Time.
        t: f64,
        /// Step.
        h: f64,
    },
    /// Too many steps.
    #[error("more than {0} steps (accepted and rejected)")]
    TooManySteps(usize),
    /// The factorization failed.
    #[error("the Newton matrix could not be factored at t = {t} s: {message}")]
    Factor {
        /// Time.
        t: f64,
        /// The solver's message.
        message: String,
    },
}

impl<'a> BdfContact<'a> {
    /// The integrator with its symbolic factorization.
    pub fn new(system: &'a ContactSystem, contact: ContactModel) -> Result<Self, String> {
        let n = system.dofs();
        let m = match contact {
            ContactModel::Ncp { .. } => system.gaps.len(),
            ContactModel::Penalty { .. } => 0,
        };
        let size = n + m;
        // The pattern: A's (M, C, K), the contact couplings G_p^T G_p
        // (penalty) or the blocks -G^T, c G and the diagonal (NCP).
        let mut entries: Vec<(usize, usize)> = (0..n).map(|k| (k, k)).collect();
        entries.extend(system.stiffness.keys().copied());
        entries.extend(system.damping.keys().copied());
        for (p, row) in system.gaps.iter().enumerate() {
            match contact {
                ContactModel::Penalty { .. } => {
                    for &(a, _) in &row.coeffs {
                        for &(b, _) in &row.coeffs {
                            entries.push((a, b));
                        }
                    }
                }
                ContactModel::Ncp { .. } => {
                    let r = n + p;
                    entries.push((r, r));
                    for &(a, _) in &row.coeffs {
                        entries.push((a, r));
                        entries.push((r, a));
                    }
                }
            }
        }
        entries.sort_by_key(|&(r, c)| (c, r));
        entries.dedup();
        let mut col_ptr = vec![0usize; size + 1];
        let mut row_idx = Vec::with_capacity(entries.len());
        for &(r, c) in &entries {
            col_ptr[c + 1] += 1;
            row_idx.push(r);
        }
        for c in 0..size {
            col_ptr[c + 1] += col_ptr[c];
        }
        let lu = SparseLu::new(size, col_ptr, row_idx).map_err(|e| e.to_string())?;
        // A = M / gamma^2 + C / gamma + K, entry by entry.
        let mut a_entries: BTreeMap<(usize, usize), (f64, f64, f64)> = BTreeMap::new();
        for k in 0..n {
            a_entries.entry((k, k)).or_default().0 = system.mass[k];
        }
        for (&key, &c) in &system.damping {
            a_entries.entry(key).or_default().1 = c;
        }
        for (&key, &k) in &system.stiffness {
            a_entries.entry(key).or_default().2 = k;
        }
        let mut a_slots = Vec::with_capacity(a_entries.len());
        for (&(r, c), &(mass, damping, stiffness)) in &a_entries {
            let pos = lu.position(r, c).ok_or("pattern")?;
            a_slots.push((pos, mass, damping, stiffness));
        }
        Ok(Self {
            system,
            linear_forces: system.linear_operator(),
            contact,
            lu,
            a_slots,
            n,
            m,
            newton_tolerance: 1e-10,
            max_newton: 50,
            stats: BdfStats::default(),
            scratch: vec![0.0; size],
            factored: None,
        })
    }

    /// The BDF coefficients (a_1, a_2, b) for order k and step ratio omega.
    pub fn coefficients(order: usize, omega: f64) -> (f64, f64, f64) {
        if order == 1 {
            (1.0, 0.0, 1.0)
        } else {
            let d = 1.0 + 2.0 * omega;
            (
                (1.0 + omega).powi(2) / d,
                -omega * omega / d,
                (1.0 + omega) / d,
            )
        }
    }

    /// Solves one BDF step to t1 = t0 + h from the history (the last one or
    /// two states), order k, step ratio omega; returns the new state.
    fn solve_step(
        &mut self,
        history: &[&ContactSystemState],
        h: f64,
        order: usize,
        omega: f64,
    ) -> Result<ContactSystemState, (f64, String)> {
        let sys = self.system;
        let (n, m) = (self.n, self.m);
        let (a1, a2, b) = Self::coefficients(order, omega);
        let last = history[0];
        let t1 = last.t + h;
        let gamma = b * h;
        let (psi_q, psi_v) = Self::history_terms(history, order, (a1, a2), n);
        let drives = sys.drives(t1);
        let mut load = vec![0.0; n];
        sys.load_at(&drives, &mut load);
        let ks = sys.stiffness_scale;
        // Predictor: extrapolate q with the last velocity.
        let mut q: Vec<f64> = (0..n).map(|k| last.q[k] + h * last.v[k]).collect();
        let mut lambda = last.lambda.clone();
        let mut linear = vec![0.0; n];
        let scale = ks * sys.length_scale;
        let mut residual = f64::INFINITY;
        let pairs = sys.gaps.len();
        let mut active = vec![false; pairs];
        // The closed contacts' gradients were found linearly dependent
        // (module doc, redundant contacts): the Newton matrix of this step
        // carries the compliance REDUNDANT_COMPLIANCE on its closed rows.
        let mut regularized = false;
        for it in 0..self.max_newton {
            let v: Vec<f64> = (0..n).map(|k| (q[k] - psi_q[k]) / gamma).collect();
            self.linear_forces.apply(&q, &v, &mut linear);
            // Residual of the dynamics, with the contact forces.
            let rhs = &mut self.scratch;
            // The residual's round-off floor: the size of its terms times
            // a few epsilon (M / gamma^2 and k_p grow without bound as the
            // step shrinks or the penalty stiffens).
            let mut magnitude = 0.0f64;
            for k in 0..n {
                let mass = sys.mass[k];
                let inertia = mass * (q[k] - psi_q[k] - gamma * psi_v[k]) / (gamma * gamma);
                let force = linear[k] - load[k];
                magnitude = magnitude.max(
                    mass * (q[k].abs() + psi_q[k].abs() + gamma * psi_v[k].abs()) / (gamma * gamma)
                        + force.abs(),
                );
                rhs[k] = inertia + force;
            }
            match self.contact {
                ContactModel::Penalty { stiffness, damping } => {
                    // Round-off of a gap is that of the positions.
                    magnitude = magnitude.max(stiffness * sys.extent);
                    for p in 0..pairs {
                        let g = sys.gap(p, &q, &drives);
                        let gd = sys.gap_rate(p, &v, &drives);
                        let l = Penalty { stiffness, damping }.spring_damper(g, gd);
                        active[p] = l > 0.0;
                        // The residual has minus the contact forces.
                        sys.add_contact(p, -l, &mut rhs[..n]);
                        lambda[p] = l;
                    }
                }
                ContactModel::Ncp { c } => {
                    for p in 0..m {
                        sys.add_contact(p, -lambda[p], &mut rhs[..n]);
                        let g = sys.gap(p, &q, &drives);
                        active[p] = signorini_closed(lambda[p], g, c);
                        rhs[n + p] = signorini(lambda[p], g, c) / c * ks;
                    }
                }
            }
            residual = rhs.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            let floor = 64.0 * f64::EPSILON * magnitude;
            if residual <= (self.newton_tolerance * scale).max(floor) && it > 0 {
                self.stats.newton_iterations += it;
                self.stats.max_newton = self.stats.max_newton.max(it);
                let v: Vec<f64> = (0..n).map(|k| (q[k] - psi_q[k]) / gamma).collect();
                return Ok(ContactSystemState {
                    t: t1,
                    q,
                    v,
                    lambda,
                });
            }
            let delta = self.newton_direction(gamma, &active, &mut regularized, residual)?;
            for k in 0..n {
                q[k] += delta[k];
            }
            for p in 0..m {
                lambda[p] += delta[n + p];
            }
            if !q.iter().all(|x| x.is_finite()) {
                return Err((residual, "the Newton iterate is not finite".into()));
            }
        }
        self.stats.newton_iterations += self.max_newton;
        Err((residual, "no convergence".into()))
    }

    /// The Newton step: the matrix factored (only when gamma, the contact
    /// state or the regularization changed since the last factorization)
    /// and solved against minus the residual in `self.scratch`. A zero
    /// pivot with NCP contact sets `regularized` and solves again once.
    fn newton_direction(
        &mut self,
        gamma: f64,
        active: &[bool],
        regularized: &mut bool,
        residual: f64,
    ) -> Result<Vec<f64>, (f64, String)> {
        // The Newton matrix depends only on gamma, the contact state
        // and the regularization: factored again only when one of them
        // changed.
        loop {
            let key = (gamma.to_bits(), active.to_vec(), *regularized);
            if self.factored.as_ref() != Some(&key) {
                self.assemble_newton_matrix(gamma, active, *regularized);
                self.stats.factorizations += 1;
                self.lu
                    .factorize()
                    .map_err(|e| (residual, format!("factorization: {e}")))?;
                self.factored = Some(key);
            }
            let mut delta: Vec<f64> = self.scratch.iter().map(|x| -x).collect();
            let solved = self.lu.solve_in_place(&mut delta).and_then(|()| {
                if self.singular_to_working_precision(&delta) {
                    Err(crate::sparse::pattern::SparseError::Singular)
                } else {
                    Ok(())
                }
            });
            if let Err(e) = solved {
                // A zero pivot with NCP contact: the closed contacts'
                // gradients are linearly dependent (module doc); the
                // same iteration again with the regularized matrix.
                if *regularized || !matches!(self.contact, ContactModel::Ncp { .. }) {
                    return Err((residual, format!("solve: {e}")));
                }
                *regularized = true;
                self.stats.regularized += 1;
                continue;
            }
            return Ok(delta);
        }
    }

    /// The BDF history terms psi_q = a1 q_n (+ a2 q_{n-1} for BDF2) and
    /// the same for v.
    fn history_terms(
        history: &[&ContactSystemState],
        order: usize,
        (a1, a2): (f64, f64),
        n: usize,
    ) -> (Vec<f64>, Vec<f64>) {
        let last = history[0];
        let mut psi_q = vec![0.0; n];
        let mut psi_v = vec![0.0; n];
        for k in 0..n {
            psi_q[k] = a1 * last.q[k];
            psi_v[k] = a1 * last.v[k];
            if order == 2 {
                psi_q[k] += a2 * history[1].q[k];
                psi_v[k] += a2 * history[1].v[k];
            }
        }
        (psi_q, psi_v)
    }

    /// One fixed step of order `order` to t + h from `history` (the last
    /// state first, then for order 2 the one before it, taken a step of
    /// the same length earlier): the Newton solve that [`Self::integrate`]
    /// runs per attempt, for the per-step kernels (`harness::kernels`).
    pub fn step(
        &mut self,
        history: &[&ContactSystemState],
        h: f64,
        order: usize,
    ) -> Result<ContactSystemState, String> {
        let omega = if order == 2 && history.len() >= 2 {
            h / (history[0].t - history[1].t)
        } else {
            1.0
        };
        self.solve_step(history, h, order, omega)
            .map_err(|(_, message)| message)
    }

    /// Integrates from `start` to t_end, calling `on_step` with every
    /// accepted state; at most `max_steps` attempts.
    pub fn integrate(
        &mut self,
        start: ContactSystemState,
        t_end: f64,
        stepping: Stepping,
        max_steps: usize,
        on_step: &mut dyn FnMut(&ContactSystemState),
    ) -> Result<(), BdfError> {
        // The displacements the error control scales on are from here.
        let origin = start.q.clone();
        let mut hist: Vec<ContactSystemState> = vec![start];
        let mut last_h = 0.0;
        let (mut h, order_max) = match stepping {
            Stepping::Fixed { dt, order } => (dt, order),
            Stepping::Adaptive { first_step, .. } => (first_step, 2),
        };
        let mut attempts = 0;
        // The last attempt was rejected: the next accepted step may not grow.
        let mut after_rejection = false;
        // A contact closed at the last accepted step: cut the history again
        // after the next one.
        let mut restarting = false;
        // The next step is one of a restart (its history was cut).
        let mut in_restart = false;
        // The next attempt redoes a BDF2 step that closed a contact by BDF1.
        let mut impact_redo = false;
        loop {
            let t = hist.last().expect("history").t;
            crate::deadline::check();
            if t >= t_end * (1.0 - 1e-14) {
                return Ok(());
            }
            attempts += 1;
            if attempts > max_steps {
                return Err(BdfError::TooManySteps(max_steps));
            }
            let mut step = h.min(t_end - t);
            if t_end - t - step < 1e-3 * step {
                step = t_end - t;
            }
            if step <= 1e-14 * t.abs().max(1e-9) {
                return Err(BdfError::StepTooSmall { t, h: step });
            }
            let order = if hist.len() >= 2 && !impact_redo {
                order_max
            } else {
                1
            };
            let omega = if order == 2 { step / last_h } else { 1.0 };
            let refs: Vec<&ContactSystemState> = hist.iter().rev().take(2).collect();
            let attempt = self.solve_step(&refs, step, order, omega);
            let new = match attempt {
                Ok(s) => s,
                Err((residual, message)) => {
                    h = self.retry_after_newton_failure(stepping, t, step, residual, message)?;
                    after_rejection = true;
                    continue;
                }
            };
            let closes = self.closes_a_contact(hist.last().expect("history"), &new);
            if closes && order == 2 {
                // An impact within a BDF2 step: the same step again by BDF1
                // from the last state before it (module doc); its error is
                // still estimated against the history before the impact,
                // which locates the impact in time.
                impact_redo = true;
                continue;
            }
            // The two steps after an impact have no predictor (one state of
            // history): they are taken at the step size of the impact.
            if let (Stepping::Adaptive { tolerance, .. }, false) = (stepping, in_restart) {
                // An impact step's velocities jump by construction.
                let velocities = !impact_redo;
                let err = self.error_estimate(&hist, &new, order, tolerance, &origin, velocities);
                let growth = if after_rejection {
                    1.0
                } else {
                    MAX_STEP_GROWTH
                };
                let factor = step_factor(err, order, growth);
                if err > 1.0 {
                    self.stats.rejected += 1;
                    h = step * factor.min(0.9);
                    after_rejection = true;
                    impact_redo = false;
                    continue;
                }
                after_rejection = false;
                h = step * factor;
            }
            last_h = step;
            self.stats.steps += 1;
            on_step(&new);
            hist.push(new);
            impact_redo = false;
            in_restart = closes || restarting;
            if closes || restarting {
                // Restart: the history is cut at the impact state, and
                // once more at the state after it (the impact state still
                // carries the approach velocity, which BDF2's psi_v would
                // carry into the next step); BDF1 twice, then BDF2 again.
                self.stats.restarts += usize::from(closes);
                restarting = closes;
                hist.drain(..hist.len() - 1);
            } else if hist.len() > 3 {
                hist.remove(0);
            }
        }
    }

    /// A step whose Newton iteration failed: with adaptive steps, the step
    /// size to retry at (a quarter), counted as a rejection; a failed
    /// factorization, or any failure with fixed steps, ends the run.
    fn retry_after_newton_failure(
        &mut self,
        stepping: Stepping,
        t: f64,
        step: f64,
        residual: f64,
        message: String,
    ) -> Result<f64, BdfError> {
        if message.starts_with("factorization") {
            return Err(BdfError::Factor { t, message });
        }
        match stepping {
            Stepping::Adaptive { .. } => {
                self.stats.rejected += 1;
                Ok(step * 0.25)
            }
            Stepping::Fixed { .. } => Err(BdfError::Newton {
                t,
                h: step,
                residual,
            }),
        }
    }

    /// Whether a contact that carried no force in `prev` carries force in
    /// `new` (an impact; NCP only: a penalty contact has no impact law of
    /// the integrator's making).
    ///
    /// "Carries force" is above ten times the Newton tolerance in force,
    /// 1e-9 k_s L at the default tolerance (the closed-pair threshold of
    /// the valve spring): a pair touching at zero gap holds a round-off
    /// force that depends on the Newton iterates, and must not decide the
    /// integration's order.
    fn closes_a_contact(&self, prev: &ContactSystemState, new: &ContactSystemState) -> bool {
        let threshold =
            10.0 * self.newton_tolerance * self.system.stiffness_scale * self.system.length_scale;
        matches!(self.contact, ContactModel::Ncp { .. })
            && prev
                .lambda
                .iter()
                .zip(&new.lambda)
                .any(|(&before, &after)| before <= threshold && after > threshold)
    }

    /// The local error estimate (module doc) in the rms norm.
    fn error_estimate(
        &self,
        hist: &[ContactSystemState],
        new: &ContactSystemState,
        order: usize,
        tol: f64,
        origin: &[f64],
        velocities: bool,
    ) -> f64 {
        let n = self.n;
        let k = order.min(hist.len());
        // Points t_{n-k}..t_n for the predictor of degree k.
        let pts: Vec<&ContactSystemState> = hist.iter().rev().take(k + 1).collect();
        let t1 = new.t;
        let lagrange = |vals: &dyn Fn(&ContactSystemState) -> f64| -> f64 {
            let mut sum = 0.0;
            for (a, pa) in pts.iter().enumerate() {
                let mut w = 1.0;
                for (b, pb) in pts.iter().enumerate() {
                    if a != b {
                        w *= (t1 - pb.t) / (pa.t - pb.t);
                    }
                }
                sum += w * vals(pa);
            }
            sum
        };
        let span = t1 - pts.last().expect("points").t;
        let ratio = (t1 - pts[0].t) / span;
        let mut acc = 0.0;
        for (i, &q0) in origin.iter().enumerate().take(n) {
            let pq = lagrange(&|s: &ContactSystemState| s.q[i]);
            let scale = tol * (1e-3 + (new.q[i] - q0).abs());
            let eq = ratio * (new.q[i] - pq) / scale;
            acc += eq * eq;
            if velocities {
                let pv = lagrange(&|s: &ContactSystemState| s.v[i]);
                let ev = ratio * (new.v[i] - pv) / (tol * (1.0 + new.v[i].abs()));
                acc += ev * ev;
            }
        }
        let components = if velocities { 2 * n } else { n };
        (acc / components as f64).sqrt()
    }
}

/// The step-size factor of the error control for a scaled error `err` of
/// an order-`order` step: 0.9 err^(-1/(order+1)), kept within [0.2, growth]
/// (`growth` when the error is zero).
fn step_factor(err: f64, order: usize, growth: f64) -> f64 {
    if err == 0.0 {
        growth
    } else {
        (0.9 * err.powf(-1.0 / (order as f64 + 1.0))).clamp(0.2, growth)
    }
}

mod matrix;
#[cfg(test)]
mod tests;
