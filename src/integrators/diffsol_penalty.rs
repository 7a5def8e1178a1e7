//! The penalty contact model of a [`ContactSystem`] on a production stiff
//! integrator: diffsol (<https://github.com/martinjrobins/diffsol>, a Rust
//! ODE crate on nalgebra and faer), so that a comparison of the NCP against
//! the penalty approach is not one against this crate's own BDF alone.
//!
//! The model is that of `bdf_contact`'s `penalty-bdf`, written as the
//! first-order system in y = (u, v), u = q - q(0) the displacements from
//! the start state:
//!
//!   u' = v,   M v' = -K q - C v + f(t) + G^T lambda,
//!   lambda_p = max(0, -k_p g_p - c_p g_p'),   g = G q + b(t),
//!
//! with the Jacobian-vector product of its right-hand side
//! (d lambda_p / d q = -k_p G_p, d lambda_p / d v = -c_p G_p on the pairs
//! carrying force at the evaluation point, zero elsewhere: the generalised
//! Jacobian of the max). diffsol forms the dense Jacobian from these
//! products and factors it by nalgebra's LU.
//!
//! Methods: diffsol's variable-order variable-step BDF (orders 1-5, the
//! NDF-free quasi-constant-step form of CVODE/ode15s; `Bdf`) and its SDIRK
//! with the TR-BDF2 tableau (order 2 with an embedded order-3 estimate,
//! L-stable; Bank et al. 1985, Hosea & Shampine 1996; `TrBdf2`). Each with
//! its own error control at the given tolerance in the norm of
//! `bdf_contact` (one error norm for every method): rms over the
//! components of e_i / (atol_i + rtol |y_i|) with rtol = tol, atol = tol x
//! 1 mm on the displacements u (so the scale is tol (1 mm + |q_i -
//! q_i(0)|), exactly the in-house BDF's) and tol x 1 m/s on the velocities.

use std::cell::Cell;

use diffsol::{
    NalgebraLU, NalgebraMat, OdeBuilder, OdeEquations, OdeSolverMethod, OdeSolverStopReason, Vector,
};

use crate::problem::ContactSystemState;
use crate::problem::{ContactSystem, LinearForces};

type Mat = NalgebraMat<f64>;
type Lu = NalgebraLU<f64>;

/// Which diffsol method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffsolMethod {
    /// Variable-order (1-5) variable-step BDF.
    Bdf,
    /// SDIRK with the TR-BDF2 tableau.
    TrBdf2,
}

/// The run's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiffsolSettings {
    /// The method.
    pub method: DiffsolMethod,
    /// rtol (atol from it, module doc).
    pub tolerance: f64,
    /// The first step [s].
    pub first_step: f64,
    /// At most this many accepted steps.
    pub max_steps: usize,
    /// Within a step longer than this [s], states are also reported from
    /// the method's dense output every `sample_spacing` or less (module
    /// doc: the quadrature of the recorded forces).
    pub sample_spacing: f64,
}

/// Counters of a run (diffsol's own, and the right-hand side's calls
/// counted here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiffsolStats {
    /// Accepted steps.
    pub steps: usize,
    /// Steps rejected by the error test.
    pub error_test_failures: usize,
    /// Newton iterations over all steps.
    pub newton_iterations: usize,
    /// Newton convergence failures (each shrinks the step).
    pub newton_failures: usize,
    /// Jacobian evaluations and LU factorizations (diffsol's linear solver
    /// setups, CVODE's nsetups).
    pub factorizations: usize,
    /// Right-hand-side evaluations.
    pub rhs_evaluations: usize,
    /// Jacobian-vector products (those that form the dense Jacobian
    /// included).
    pub jacobian_products: usize,
}

/// The contact forces lambda_p = max(0, -k_p g_p - c_p g_p') at (t, q, v).
pub fn penalty_forces(
    system: &ContactSystem,
    (stiffness, damping): (f64, f64),
    t: f64,
    q: &[f64],
    v: &[f64],
) -> Vec<f64> {
    let drives = system.drives(t);
    (0..system.gaps.len())
        .map(|p| {
            let g = system.gap(p, q, &drives);
            let gd = system.gap_rate(p, v, &drives);
            (-stiffness * g - damping * gd).max(0.0)
        })
        .collect()
}

/// The model diffsol integrates: the system, its K and C flattened once,
/// (k_p, c_p) and the start positions q(0) that u is measured from.
struct PenaltyModel<'a> {
    system: &'a ContactSystem,
    linear_forces: LinearForces,
    penalty: (f64, f64),
    origin: &'a [f64],
}

impl PenaltyModel<'_> {
    /// The right-hand side (u', v') at (t, u, v) into `out` (module doc).
    fn rhs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let (system, origin) = (self.system, self.origin);
        let n = origin.len();
        let (u, v) = y.split_at(n);
        let q: Vec<f64> = u.iter().zip(origin).map(|(u, q0)| u + q0).collect();
        let (du, dv) = out.split_at_mut(n);
        du.copy_from_slice(v);
        let drives = system.drives(t);
        let mut f = vec![0.0; n];
        system.load_at(&drives, &mut f);
        let mut linear = vec![0.0; n];
        self.linear_forces.apply(&q, v, &mut linear);
        for k in 0..n {
            f[k] -= linear[k];
        }
        for (p, l) in penalty_forces(system, self.penalty, t, &q, v)
            .into_iter()
            .enumerate()
        {
            system.add_contact(p, l, &mut f);
        }
        for k in 0..n {
            dv[k] = f[k] / system.mass[k];
        }
    }

    /// The Jacobian of [`Self::rhs`] at (t, y) times w into `out`.
    fn jacobian_product(&self, t: f64, y: &[f64], w: &[f64], out: &mut [f64]) {
        let (system, origin) = (self.system, self.origin);
        let (stiffness, damping) = self.penalty;
        let n = origin.len();
        let (u, v) = y.split_at(n);
        let (wu, wv) = w.split_at(n);
        let q: Vec<f64> = u.iter().zip(origin).map(|(u, q0)| u + q0).collect();
        let (du, dv) = out.split_at_mut(n);
        du.copy_from_slice(wv);
        let mut f = vec![0.0; n];
        self.linear_forces.apply(wu, wv, &mut f);
        f.iter_mut().for_each(|x| *x = -*x);
        let drives = system.drives(t);
        for (p, row) in system.gaps.iter().enumerate() {
            let g = system.gap(p, &q, &drives);
            let gd = system.gap_rate(p, v, &drives);
            if -stiffness * g - damping * gd <= 0.0 {
                continue;
            }
            // G_p w_u and G_p w_v (the drives are not part of the state).
            let gw: f64 = row.coeffs.iter().map(|&(a, c)| c * wu[a]).sum();
            let gwv: f64 = row.coeffs.iter().map(|&(a, c)| c * wv[a]).sum();
            system.add_contact(p, -stiffness * gw - damping * gwv, &mut f);
        }
        for k in 0..n {
            dv[k] = f[k] / system.mass[k];
        }
    }
}

/// Integrates the penalty model (k_p, c_p) = `penalty` of `system` from
/// `start` to `t_end` with diffsol, calling `on_step` with every accepted
/// state (its contact forces evaluated at that state).
pub fn integrate(
    system: &ContactSystem,
    penalty: (f64, f64),
    start: &ContactSystemState,
    t_end: f64,
    settings: DiffsolSettings,
    on_step: &mut dyn FnMut(&ContactSystemState),
) -> Result<DiffsolStats, String> {
    let n = start.q.len();
    let origin = start.q.clone();
    let model = PenaltyModel {
        system,
        linear_forces: system.linear_operator(),
        penalty,
        origin: &origin,
    };
    let rhs_calls = Cell::new(0usize);
    let jac_calls = Cell::new(0usize);
    let tol = settings.tolerance;
    let atol: Vec<f64> = (0..2 * n)
        .map(|k| if k < n { tol * 1e-3 } else { tol })
        .collect();
    let init: Vec<f64> = vec![0.0; n].into_iter().chain(start.v.clone()).collect();
    let mut problem = OdeBuilder::<Mat>::new()
        .t0(start.t)
        .h0(settings.first_step)
        .rtol(tol)
        .atol(atol)
        .rhs_implicit(
            |y: &[f64], _p: &[f64], t: f64, out: &mut [f64]| {
                rhs_calls.set(rhs_calls.get() + 1);
                model.rhs(t, y, out);
            },
            |y: &[f64], _p: &[f64], t: f64, w: &[f64], out: &mut [f64]| {
                jac_calls.set(jac_calls.get() + 1);
                model.jacobian_product(t, y, w, out);
            },
        )
        .init(
            |_p: &[f64], _t: f64, y: &mut [f64]| y.copy_from_slice(&init),
            2 * n,
        )
        .build()
        .map_err(|e| format!("diffsol: building the problem: {e}"))?;
    problem.ode_options.max_number_timesteps = settings.max_steps;
    let mut stats = match settings.method {
        DiffsolMethod::Bdf => {
            let solver = problem
                .bdf::<Lu>()
                .map_err(|e| format!("diffsol BDF: {e}"))?;
            drive(
                solver,
                (system, penalty),
                &origin,
                (t_end, settings.sample_spacing),
                on_step,
            )?
        }
        DiffsolMethod::TrBdf2 => {
            let solver = problem
                .tr_bdf2::<Lu>()
                .map_err(|e| format!("diffsol TR-BDF2: {e}"))?;
            drive(
                solver,
                (system, penalty),
                &origin,
                (t_end, settings.sample_spacing),
                on_step,
            )?
        }
    };
    stats.rhs_evaluations = rhs_calls.get();
    stats.jacobian_products = jac_calls.get();
    Ok(stats)
}

/// Steps `solver` to `t_end` (exactly: diffsol's stop time), reporting
/// every accepted state; returns the solver's counters.
fn drive<'a, Eqn, S>(
    mut solver: S,
    (system, penalty): (&ContactSystem, (f64, f64)),
    origin: &[f64],
    (t_end, spacing): (f64, f64),
    on_step: &mut dyn FnMut(&ContactSystemState),
) -> Result<DiffsolStats, String>
where
    Eqn: OdeEquations<T = f64, V = diffsol::NalgebraVec<f64>> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
{
    let n = origin.len();
    let report = |t: f64, y: Vec<f64>, on_step: &mut dyn FnMut(&ContactSystemState)| {
        let q: Vec<f64> = y[..n].iter().zip(origin).map(|(u, q0)| u + q0).collect();
        let v = y[n..].to_vec();
        let lambda = penalty_forces(system, penalty, t, &q, &v);
        on_step(&ContactSystemState { t, q, v, lambda });
    };
    solver
        .set_stop_time(t_end)
        .map_err(|e| format!("diffsol: stop time: {e}"))?;
    let mut t_prev = solver.state().t;
    loop {
        crate::deadline::check();
        let reason = solver.step().map_err(|e| {
            format!(
                "diffsol failed at t = {} s (h = {:e} s): {e}",
                solver.state().t,
                solver.state().h
            )
        })?;
        let t = solver.state().t;
        // Dense output inside a long step.
        let parts = ((t - t_prev) / spacing).ceil().max(1.0) as usize;
        for j in 1..parts {
            let tj = t_prev + (t - t_prev) * j as f64 / parts as f64;
            let y = solver
                .interpolate(tj)
                .map_err(|e| format!("diffsol: dense output at t = {tj}: {e}"))?;
            report(tj, y.clone_as_vec(), on_step);
        }
        report(t, solver.state().y.clone_as_vec(), on_step);
        t_prev = t;
        match reason {
            OdeSolverStopReason::TstopReached => break,
            OdeSolverStopReason::InternalTimestep => {}
            OdeSolverStopReason::RootFound(..) => {
                return Err("diffsol reported a root, but the problem has none".into());
            }
        }
    }
    let s = solver.get_statistics();
    Ok(DiffsolStats {
        steps: s.number_of_steps,
        error_test_failures: s.number_of_error_test_failures,
        newton_iterations: s.number_of_nonlinear_solver_iterations,
        newton_failures: s.number_of_nonlinear_solver_fails,
        factorizations: s.number_of_linear_solver_setups,
        ..DiffsolStats::default()
    })
}
