//! One friction law driven by one integrator over a system with frictional
//! contacts: the mass on the belt and the shrouded blades. The system is
//! given twice, as the Moreau-Jean stepper sees it (a
//! [`MoreauProblem`]: true sticking, the impulses of each step) and as the
//! seed's ODE (a [`FrictionOde`]: the law's force -N f(|c|) c/|c| with no
//! sticking limit, the works integrated as states). The driver advances
//! either by its [`Integrator`] over its [`Schedule`] and hands every
//! accepted step and every output time to an [`Observer`], which records
//! what its study needs.
//!
//! **The energy tally** is kept once, where the method computes it: the
//! Moreau stepper accumulates the works of each step in its
//! [`MoreauState`] (load, damping, the law's friction dissipation at the
//! end velocity, and the theta-point contact dissipation and the moving
//! supports' work, which close the discrete balance exactly with
//! theta = 1/2); an ODE integrates them as states ([`FrictionOde::works`]).
//! [`crate::problem::Works`] reads both the same way.

use crate::integrators::moreau::{MoreauState, MoreauStepper, StepReport};
use crate::integrators::rk::{Dopri5, Dopri5Error, Rk4, Tolerances};
use crate::problem::{FrictionOde, MoreauProblem};

/// How the law is integrated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Integrator {
    /// The Moreau-Jean stepper (true sticking) with step `dt` [s].
    Moreau {
        /// Step [s].
        dt: f64,
    },
    /// The seed's formulation (no sticking limit) by the Moreau scheme
    /// with the friction force explicit at the step's start
    /// ([`MoreauStepper::with_explicit_friction`]), step `dt` [s].
    Imex {
        /// Step [s].
        dt: f64,
    },
    /// Classical RK4 on the ODE with step `dt` [s].
    Rk4 {
        /// Step [s].
        dt: f64,
    },
    /// Dormand-Prince 5(4) with error control on the ODE.
    Dopri5 {
        /// First step [s].
        first_step: f64,
        /// rtol, atol.
        tolerances: Tolerances,
        /// Bound on the steps (accepted plus rejected).
        max_steps: usize,
    },
}

/// When the fixed-step integrators step and when every integrator
/// reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Schedule {
    /// `steps` steps of h = `t_end` / `steps`, the k-th ending at t = k h;
    /// an output every
    /// `per_output` steps. Dormand-Prince reports at k `interval`,
    /// k = 1..=steps / per_output (`interval` = `per_output` h up to
    /// rounding).
    Grid {
        /// Final time [s]: the step is h = `t_end` / `steps`.
        t_end: f64,
        /// Number of steps.
        steps: usize,
        /// Steps per output.
        per_output: usize,
        /// Output interval [s].
        interval: f64,
    },
    /// Steps of the integrator's `dt` up to `t_end` (RK4 shortens the last
    /// one; Moreau does not), an output at the first step at or after each
    /// multiple of `interval` and at the end. Dormand-Prince reports at
    /// those multiples and at `t_end`.
    Clock {
        /// Final time [s].
        t_end: f64,
        /// Output interval [s].
        interval: f64,
    },
}

impl Schedule {
    /// The final time [s].
    pub fn t_end(&self) -> f64 {
        match self {
            Schedule::Grid { t_end, .. } | Schedule::Clock { t_end, .. } => *t_end,
        }
    }

    /// The step of a grid: `t_end` / `steps`.
    fn grid_step(t_end: f64, steps: usize) -> f64 {
        t_end / steps as f64
    }

    /// The output times after t = 0 (Dormand-Prince's dense outputs).
    pub fn output_times(&self) -> Vec<f64> {
        match self {
            Schedule::Grid {
                steps,
                per_output,
                interval,
                ..
            } => (1..=steps / per_output.max(&1))
                .map(|k| k as f64 * interval)
                .collect(),
            Schedule::Clock { t_end, interval } => {
                let mut out: Vec<f64> = (1..)
                    .map(|k| k as f64 * interval)
                    .take_while(|&t| t < t_end * (1.0 - 1e-12))
                    .collect();
                out.push(*t_end);
                out
            }
        }
    }
}

/// Where the driver is: the stepper and its state after a Moreau step, or
/// the ODE's state.
pub enum At<'a, 's, P: MoreauProblem> {
    /// After a Moreau step.
    Moreau {
        /// The state (works included).
        state: &'a MoreauState,
        /// What the step did.
        report: &'a StepReport,
        /// The stepper (per-contact slip and sticking of the step).
        stepper: &'a MoreauStepper<'s, P>,
    },
    /// The ODE's state y.
    Ode {
        /// y.
        y: &'a [f64],
    },
}

/// What a study records of a run.
pub trait Observer<P: MoreauProblem> {
    /// After every accepted step that ends at `t`.
    fn step(&mut self, _t: f64, _at: &At<'_, '_, P>) -> Result<(), String> {
        Ok(())
    }
    /// At every output time `t`.
    fn output(&mut self, t: f64, at: &At<'_, '_, P>);
}

/// What the integrator counted.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counts {
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (Dormand-Prince).
    pub rejected: usize,
    /// Right-hand-side evaluations counted by the integrator (RK4: 4 a
    /// step; Dormand-Prince: its statistics; Moreau: none).
    pub evaluations: usize,
}

/// Drives `problem` with `law` by `integrator` over `schedule` from
/// `start`: the Moreau stepper's state, or the seed's ODE of the same
/// system with its y(0); reports to `observer`. Errors name the time and
/// the quantity.
pub fn drive<P: MoreauProblem>(
    problem: &P,
    law: crate::contact::friction::FrictionLaw,
    start: Start<'_>,
    integrator: Integrator,
    schedule: &Schedule,
    observer: &mut dyn Observer<P>,
) -> Result<Counts, String> {
    match integrator {
        Integrator::Moreau { dt } | Integrator::Imex { dt } => {
            let Start::Moreau(state) = start else {
                return Err("Moreau: the driver was given an ODE".into());
            };
            let h = match schedule {
                Schedule::Grid { t_end, steps, .. } => Schedule::grid_step(*t_end, *steps),
                Schedule::Clock { .. } => dt,
            };
            let mut stepper = MoreauStepper::new(problem, law, h)?;
            if let Integrator::Imex { .. } = integrator {
                stepper = stepper.with_explicit_friction();
            }
            moreau(stepper, h, state, schedule, observer)
        }
        Integrator::Rk4 { dt } => {
            let Start::Ode(ode, y) = start else {
                return Err("rk4: the driver was given a Moreau state".into());
            };
            rk4(ode, dt, y, schedule, observer)
        }
        Integrator::Dopri5 {
            first_step,
            tolerances,
            max_steps,
        } => {
            let Start::Ode(ode, y) = start else {
                return Err("dopri5: the driver was given a Moreau state".into());
            };
            dopri5(
                ode, first_step, tolerances, max_steps, y, schedule, observer,
            )
        }
    }
}

/// The initial state of a run.
pub enum Start<'o> {
    /// The Moreau stepper's state.
    Moreau(MoreauState),
    /// The seed's ODE of the system and its state y(0).
    Ode(&'o dyn FrictionOde, Vec<f64>),
}

/// The output times of a clock schedule: a step is sampled when it reaches
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

/// Steps of `stepper` (of step `h`: the grid's or the integrator's `dt`).
fn moreau<P: MoreauProblem>(
    mut stepper: MoreauStepper<'_, P>,
    h: f64,
    mut state: MoreauState,
    schedule: &Schedule,
    observer: &mut dyn Observer<P>,
) -> Result<Counts, String> {
    let mut counts = Counts::default();
    let finite = |s: &MoreauState| s.q.iter().chain(s.v.iter()).all(|x| x.is_finite());
    match schedule {
        Schedule::Grid {
            steps, per_output, ..
        } => {
            for k in 0..*steps {
                crate::deadline::check();
                let report = stepper.step(&mut state)?;
                counts.steps += 1;
                let t = (k + 1) as f64 * h;
                let at = At::Moreau {
                    state: &state,
                    report: &report,
                    stepper: &stepper,
                };
                observer.step(t, &at)?;
                if (k + 1) % per_output == 0 {
                    observer.output(t, &at);
                }
            }
        }
        Schedule::Clock { t_end, interval } => {
            let mut clock = OutputClock::new(*interval, *t_end);
            while state.t < t_end * (1.0 - 1e-12) {
                crate::deadline::check();
                let report = stepper.step(&mut state)?;
                counts.steps += 1;
                let t = state.t;
                if !finite(&state) {
                    return Err(format!(
                        "Moreau: the state overflowed at t = {t} s (dt = {h:e} s): check the magnitudes of the load, the contact stiffness and the time step"
                    ));
                }
                let at = At::Moreau {
                    state: &state,
                    report: &report,
                    stepper: &stepper,
                };
                observer.step(t, &at)?;
                if clock.due(t) {
                    observer.output(t, &at);
                }
            }
        }
    }
    Ok(counts)
}

/// Classical RK4 on the ODE: the grid's step (`dt` unused) or steps of
/// `dt` with the last one shortened to end at `t_end`.
fn rk4<P: MoreauProblem>(
    ode: &dyn FrictionOde,
    dt: f64,
    mut y: Vec<f64>,
    schedule: &Schedule,
    observer: &mut dyn Observer<P>,
) -> Result<Counts, String> {
    let mut rk = Rk4::new(ode.dim());
    let mut counts = Counts::default();
    match schedule {
        Schedule::Grid {
            t_end,
            steps,
            per_output,
            ..
        } => {
            let h = Schedule::grid_step(*t_end, *steps);
            for k in 0..*steps {
                crate::deadline::check();
                rk.step(ode, k as f64 * h, h, &mut y);
                counts.steps += 1;
                counts.evaluations += 4;
                let t = (k + 1) as f64 * h;
                if !y.iter().all(|v| v.is_finite()) {
                    return Err(format!("the state is not finite at t = {t}"));
                }
                let at = At::Ode { y: &y };
                observer.step(t, &at)?;
                if (k + 1) % per_output == 0 {
                    observer.output(t, &at);
                }
            }
        }
        Schedule::Clock { t_end, interval } => {
            if !(dt.is_finite() && dt > 0.0) {
                return Err(format!("rk4: dt must be positive, got {dt}"));
            }
            let mut t = 0.0;
            let mut clock = OutputClock::new(*interval, *t_end);
            while t < t_end * (1.0 - 1e-12) {
                crate::deadline::check();
                let h = dt.min(t_end - t);
                rk.step(ode, t, h, &mut y);
                t += h;
                counts.steps += 1;
                counts.evaluations += 4;
                if !y.iter().all(|x| x.is_finite()) {
                    return Err(format!(
                        "rk4: non-finite state at t = {t} s (dt = {dt:e} s)"
                    ));
                }
                let at = At::Ode { y: &y };
                observer.step(t, &at)?;
                if clock.due(t) {
                    observer.output(t, &at);
                }
            }
        }
    }
    Ok(counts)
}

/// Dormand-Prince 5(4) with error control, sampled by dense output at the
/// schedule's output times.
fn dopri5<P: MoreauProblem>(
    ode: &dyn FrictionOde,
    first_step: f64,
    tolerances: Tolerances,
    max_steps: usize,
    mut y: Vec<f64>,
    schedule: &Schedule,
    observer: &mut dyn Observer<P>,
) -> Result<Counts, String> {
    let t_end = schedule.t_end();
    let outputs = schedule.output_times();
    let mut dp = Dopri5::new(ode.dim());
    let mut reached = 0.0;
    let mut failed: Option<String> = None;
    let observer = std::cell::RefCell::new(observer);
    let result = dp.integrate(
        ode,
        0.0,
        t_end,
        &mut y,
        first_step,
        tolerances,
        max_steps,
        &outputs,
        &mut |t, y| observer.borrow_mut().output(t, &At::Ode { y }),
        &mut |t, y| {
            reached = t;
            match observer.borrow_mut().step(t, &At::Ode { y }) {
                Ok(()) => false,
                Err(e) => {
                    failed = Some(e);
                    true
                }
            }
        },
    );
    let counts = Counts {
        steps: dp.stats.accepted,
        rejected: dp.stats.rejected,
        evaluations: dp.stats.evaluations,
    };
    if let Some(e) = failed {
        return Err(e);
    }
    match result {
        Ok(_) => Ok(counts),
        Err(Dopri5Error::TooManySteps(k)) => Err(format!(
            "dopri5: step bound {k} reached at t = {reached:e} s of {t_end} s \
             ({} accepted, {} rejected, {} evaluations)",
            counts.steps, counts.rejected, counts.evaluations
        )),
        Err(e) => Err(format!("dopri5: {e}")),
    }
}
