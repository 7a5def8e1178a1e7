//! One call a study runner makes: integrate the blade pair under the step
//! load with one friction law and one method, and return the time series
//! of the seed's figures (blade 1's tip displacement, slip speeds) with the
//! contact forces, the energy bookkeeping and the solver counters.

use super::BladePair;
use super::beam::{V, W};
use super::ode::{BladeOde, DAMPING_WORK, FRICTION_WORK, LOAD_WORK};
use crate::contact::friction::FrictionLaw;
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::integrators::rk::{Dopri5, Dopri5Error, Rk4, Tolerances};
use crate::problem::FirstOrderOde;

/// How to integrate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BladeMethod {
    /// Dormand-Prince 5(4) with error control on the ODE (no sticking):
    /// rtol = `tolerance`, atol = 1e-3 `tolerance` (the state mixes
    /// displacements of 1e-5 m, velocities of 1e-3 m/s and works of 1e-4
    /// J); first step 1e-7 s; more than `max_steps` steps (accepted plus
    /// rejected) is an error.
    Dopri5 {
        /// Relative tolerance [-].
        tolerance: f64,
        /// Step bound.
        max_steps: usize,
    },
    /// Classical RK4 on the ODE with a fixed step `dt` [s].
    Rk4 {
        /// Step [s].
        dt: f64,
    },
    /// The Moreau stepper (true sticking) with a fixed step `dt` [s].
    Moreau {
        /// Step [s].
        dt: f64,
    },
}

/// The time series of a run (one row per output time) and its counters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BladeRun {
    /// t [s].
    pub t: Vec<f64>,
    /// Blade 1's tip displacement along global z [m].
    pub tip_z: Vec<f64>,
    /// Blade 1's tip displacement along global y [m].
    pub tip_y: Vec<f64>,
    /// Slip speed |c_t| of the watched patch [m/s].
    pub slip_speed: Vec<f64>,
    /// Largest slip speed over the patches [m/s].
    pub max_slip_speed: Vec<f64>,
    /// Total normal force [N] (Moreau: the last step's mean, sum P_N / h).
    pub normal_force: Vec<f64>,
    /// Magnitude of the resultant friction force on blade 1 [N] (all
    /// patches share one frame).
    pub friction_force: Vec<f64>,
    /// Friction work dissipated [J].
    pub dissipated: Vec<f64>,
    /// Damping work dissipated (Rayleigh and normal law) [J].
    pub damping_dissipated: Vec<f64>,
    /// Work of the load [J].
    pub load_work: Vec<f64>,
    /// Kinetic + strain + penalty-spring energy [J].
    pub energy: Vec<f64>,
    /// E - E(0) + friction + damping work - load work [J].
    pub balance_error: Vec<f64>,
    /// The watched patch.
    pub patch: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (Dopri5).
    pub rejected_steps: usize,
    /// Right-hand side evaluations (explicit methods).
    pub rhs_evaluations: usize,
    /// Gauss-Seidel sweeps over the patches, summed over the steps (Moreau).
    pub local_iterations: usize,
    /// Sticking patches summed over the steps (Moreau).
    pub stick_patch_steps: usize,
    /// Per patch, the steps it ended stuck (Moreau; empty otherwise).
    pub patch_stick_steps: Vec<usize>,
}

/// The contact quantities recorded per output.
struct Sample {
    normal: f64,
    friction: f64,
    slip: f64,
    max_slip: f64,
}

impl BladeRun {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        model: &BladePair,
        t: f64,
        q: &[f64],
        v: &[f64],
        c: Sample,
        works: [f64; 3],
    ) {
        let tip = model.tip(0);
        let e = model.energy(q, v);
        let e0 = self.energy.first().copied().unwrap_or(e);
        let [df, dd, wl] = works;
        self.t.push(t);
        self.tip_z.push(q[tip + W]);
        self.tip_y.push(q[tip + V]);
        self.slip_speed.push(c.slip);
        self.max_slip_speed.push(c.max_slip);
        self.normal_force.push(c.normal);
        self.friction_force.push(c.friction);
        self.dissipated.push(df);
        self.damping_dissipated.push(dd);
        self.load_work.push(wl);
        self.energy.push(e);
        self.balance_error.push(e - e0 + df + dd - wl);
    }

    fn push_ode(&mut self, ode: &BladeOde, t: f64, y: &[f64]) {
        let n = ode.model().dofs();
        let c = ode.contact_totals(y, self.patch);
        let sample = Sample {
            normal: c.normal,
            friction: c.friction[0].hypot(c.friction[1]),
            slip: c.watched_slip,
            max_slip: c.max_slip,
        };
        let w = &y[2 * n..];
        self.push(
            ode.model(),
            t,
            &y[..n],
            &y[n..2 * n],
            sample,
            [w[FRICTION_WORK], w[DAMPING_WORK], w[LOAD_WORK]],
        );
    }
}

/// The output times in (0, t_end]: k * interval, and t_end.
fn output_times(t_end: f64, interval: f64) -> Vec<f64> {
    let mut out: Vec<f64> = (1..)
        .map(|k| k as f64 * interval)
        .take_while(|&t| t < t_end * (1.0 - 1e-12))
        .collect();
    out.push(t_end);
    out
}

/// Integrates `model` from its initial state over [0, t_end] with `law`
/// and `method`, recording every `output_interval` (and at t_end) and
/// watching `patch`'s slip speed. Errors name the time and the quantity
/// (non-finite state, step or iteration bound reached).
pub fn simulate(
    model: &BladePair,
    law: FrictionLaw,
    method: BladeMethod,
    t_end: f64,
    output_interval: f64,
    patch: usize,
) -> Result<BladeRun, String> {
    if !(t_end.is_finite() && t_end > 0.0) {
        return Err(format!("simulate: t_end must be positive, got {t_end}"));
    }
    if !(output_interval.is_finite() && output_interval > 0.0) {
        return Err(format!(
            "simulate: output_interval must be positive, got {output_interval}"
        ));
    }
    if patch >= model.patch_count() {
        return Err(format!(
            "simulate: patch {patch} does not exist ({} patches)",
            model.patch_count()
        ));
    }
    let mut run = BladeRun {
        patch,
        ..Default::default()
    };
    match method {
        BladeMethod::Dopri5 {
            tolerance,
            max_steps,
        } => run_dopri5(
            model,
            law,
            tolerance,
            max_steps,
            t_end,
            output_interval,
            &mut run,
        )?,
        BladeMethod::Rk4 { dt } => run_rk4(model, law, dt, t_end, output_interval, &mut run)?,
        BladeMethod::Moreau { dt } => run_moreau(model, law, dt, t_end, output_interval, &mut run)?,
    }
    Ok(run)
}

/// Dormand-Prince 5(4) on the blades' ODE (no sticking limit) with
/// rtol = `tolerance`, atol = 1e-3 rtol, sampled at the output times.
fn run_dopri5(
    model: &BladePair,
    law: FrictionLaw,
    tolerance: f64,
    max_steps: usize,
    t_end: f64,
    output_interval: f64,
    run: &mut BladeRun,
) -> Result<(), String> {
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(format!(
            "dopri5: tolerance must be positive, got {tolerance}"
        ));
    }
    let ode = BladeOde::new(model, law);
    let mut y = ode.initial_state();
    run.push_ode(&ode, 0.0, &y);
    let outputs = output_times(t_end, output_interval);
    let mut dp = Dopri5::new(ode.dim());
    let mut reached = 0.0;
    let tol = Tolerances {
        rtol: tolerance,
        atol: 1e-3 * tolerance,
    };
    let result = dp.integrate(
        &ode,
        0.0,
        t_end,
        &mut y,
        1e-7,
        tol,
        max_steps,
        &outputs,
        &mut |t, y| run.push_ode(&ode, t, y),
        &mut |t, _| {
            reached = t;
            false
        },
    );
    run.steps = dp.stats.accepted;
    run.rejected_steps = dp.stats.rejected;
    run.rhs_evaluations = dp.stats.evaluations;
    match result {
        Ok(_) => {}
        Err(Dopri5Error::TooManySteps(k)) => {
            return Err(format!(
                "dopri5: step bound {k} reached at t = {reached:e} s of {t_end} s \
                 ({} accepted, {} rejected, {} evaluations)",
                dp.stats.accepted, dp.stats.rejected, dp.stats.evaluations
            ));
        }
        Err(e) => return Err(format!("dopri5: {e}")),
    }
    Ok(())
}

/// The output times of a fixed-step run: a step is sampled when it reaches
/// the next output time (to a relative 1e-9) or the end; the next output
/// time then moves past it.
struct OutputClock {
    next: f64,
    interval: f64,
    t_end: f64,
}

impl OutputClock {
    fn new(interval: f64, t_end: f64) -> Self {
        Self {
            next: interval,
            interval,
            t_end,
        }
    }

    /// Whether the step that ended at `t` is sampled.
    fn due(&mut self, t: f64) -> bool {
        if t >= self.next * (1.0 - 1e-9) || t >= self.t_end * (1.0 - 1e-12) {
            while self.next <= t * (1.0 + 1e-9) {
                self.next += self.interval;
            }
            true
        } else {
            false
        }
    }
}

/// Classical RK4 with fixed step `dt` on the blades' ODE, sampled at the
/// first step at or after each output time.
fn run_rk4(
    model: &BladePair,
    law: FrictionLaw,
    dt: f64,
    t_end: f64,
    output_interval: f64,
    run: &mut BladeRun,
) -> Result<(), String> {
    if !(dt.is_finite() && dt > 0.0) {
        return Err(format!("rk4: dt must be positive, got {dt}"));
    }
    let ode = BladeOde::new(model, law);
    let mut y = ode.initial_state();
    run.push_ode(&ode, 0.0, &y);
    let mut rk = Rk4::new(ode.dim());
    let mut t = 0.0;
    let mut clock = OutputClock::new(output_interval, t_end);
    while t < t_end * (1.0 - 1e-12) {
        crate::deadline::check();
        let h = dt.min(t_end - t);
        rk.step(&ode, t, h, &mut y);
        t += h;
        run.steps += 1;
        if !y.iter().all(|x| x.is_finite()) {
            return Err(format!(
                "rk4: non-finite state at t = {t} s (dt = {dt:e} s)"
            ));
        }
        if clock.due(t) {
            run.push_ode(&ode, t, &y);
        }
    }
    run.rhs_evaluations = ode.evaluations();
    Ok(())
}

/// Moreau time stepping with step `dt` (true sticking), sampled at the
/// first step at or after each output time, with the works done so far.
fn run_moreau(
    model: &BladePair,
    law: FrictionLaw,
    dt: f64,
    t_end: f64,
    output_interval: f64,
    run: &mut BladeRun,
) -> Result<(), String> {
    let mut stepper = MoreauStepper::new(model, law, dt)?;
    let (q, v) = model.initial_state();
    let mut state = MoreauState::new(q, v, model.patch_count());
    let c = model
        .contact()
        .evaluate(&law, &state.q, &state.v, run.patch, None);
    let sample = Sample {
        normal: c.normal,
        friction: c.friction[0].hypot(c.friction[1]),
        slip: c.watched_slip,
        max_slip: c.max_slip,
    };
    run.push(model, 0.0, &state.q, &state.v, sample, [0.0; 3]);
    let mut clock = OutputClock::new(output_interval, t_end);
    while state.t < t_end * (1.0 - 1e-12) {
        crate::deadline::check();
        let r = stepper.step(&mut state)?;
        run.steps += 1;
        run.local_iterations += r.sweeps;
        run.stick_patch_steps += r.sticking;
        run.patch_stick_steps.resize(model.patch_count(), 0);
        for (j, n) in run.patch_stick_steps.iter_mut().enumerate() {
            *n += usize::from(stepper.stuck(j));
        }
        let t = state.t;
        if !state.q.iter().chain(state.v.iter()).all(|x| x.is_finite()) {
            return Err(format!(
                "Moreau: the state overflowed at t = {t} s (dt = {dt:e} s): check the magnitudes of the load, the contact stiffness and the time step"
            ));
        }
        if clock.due(t) {
            let sample = Sample {
                normal: r.normal,
                friction: r.friction[0].hypot(r.friction[1]),
                slip: stepper.slip(run.patch),
                max_slip: r.max_slip,
            };
            let works = [state.friction_work, state.damping_work, state.load_work];
            run.push(model, t, &state.q, &state.v, sample, works);
        }
    }
    Ok(())
}
