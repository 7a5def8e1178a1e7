//! One call a study runner makes: integrate the blade pair under the step
//! load with one friction law and one method through the friction driver
//! ([`crate::drivers::friction`]), and record the time series of the seed's
//! figures (blade 1's tip displacement, slip speeds) with the contact
//! forces, the energy bookkeeping and the solver counters.

use crate::contact::friction::FrictionLaw;
use crate::drivers::friction::{At, Integrator, Observer, Schedule, Start, drive};
use crate::integrators::moreau::MoreauState;
use crate::integrators::rk::Tolerances;
use crate::models::blades::BladePair;
use crate::models::blades::beam::{V, W};
use crate::models::blades::ode::BladeOde;
use crate::problem::FrictionOde;

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
    /// The seed's formulation (no sticking limit) by the Moreau scheme
    /// with the friction force explicit, fixed step `dt` [s].
    Imex {
        /// Step [s].
        dt: f64,
    },
}

impl BladeMethod {
    /// The driver's integrator of this method.
    fn integrator(self) -> Result<Integrator, String> {
        Ok(match self {
            BladeMethod::Dopri5 {
                tolerance,
                max_steps,
            } => {
                if !(tolerance.is_finite() && tolerance > 0.0) {
                    return Err(format!(
                        "dopri5: tolerance must be positive, got {tolerance}"
                    ));
                }
                Integrator::Dopri5 {
                    first_step: 1e-7,
                    tolerances: Tolerances {
                        rtol: tolerance,
                        atol: 1e-3 * tolerance,
                    },
                    max_steps,
                }
            }
            BladeMethod::Rk4 { dt } => Integrator::Rk4 { dt },
            BladeMethod::Moreau { dt } => Integrator::Moreau { dt },
            BladeMethod::Imex { dt } => Integrator::Imex { dt },
        })
    }
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
    /// Newton iterations over all patches at once, summed over the steps
    /// (Moreau under a regularised law).
    pub newton_iterations: usize,
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
        let w = ode.works(y);
        self.push(
            ode.model(),
            t,
            &y[..n],
            &y[n..2 * n],
            sample,
            [w.friction, w.damping, w.load],
        );
    }
}

/// What a run records: the model, its ODE (for the contact totals of an
/// ODE run) and the run being filled.
struct Recorder<'a> {
    model: &'a BladePair,
    ode: &'a BladeOde<'a>,
    run: &'a mut BladeRun,
}

impl Observer<BladePair> for Recorder<'_> {
    fn step(&mut self, _t: f64, at: &At<'_, '_, BladePair>) -> Result<(), String> {
        if let At::Moreau {
            report, stepper, ..
        } = at
        {
            let run = &mut *self.run;
            run.local_iterations += report.sweeps;
            run.newton_iterations += report.global_newton;
            run.stick_patch_steps += report.sticking;
            run.patch_stick_steps.resize(self.model.patch_count(), 0);
            for (j, n) in run.patch_stick_steps.iter_mut().enumerate() {
                *n += usize::from(stepper.stuck(j));
            }
        }
        Ok(())
    }

    fn output(&mut self, t: f64, at: &At<'_, '_, BladePair>) {
        match at {
            At::Moreau {
                state,
                report,
                stepper,
            } => {
                let sample = Sample {
                    normal: report.normal,
                    friction: report.friction[0].hypot(report.friction[1]),
                    slip: stepper.slip(self.run.patch),
                    max_slip: report.max_slip,
                };
                let works = [state.friction_work, state.damping_work, state.load_work];
                self.run
                    .push(self.model, t, &state.q, &state.v, sample, works);
            }
            At::Ode { y } => self.run.push_ode(self.ode, t, y),
        }
    }
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
    let integrator = method.integrator()?;
    let schedule = Schedule::Clock {
        t_end,
        interval: output_interval,
    };
    let ode = BladeOde::new(model, law);
    let start = if let Integrator::Moreau { .. } | Integrator::Imex { .. } = integrator {
        let (q, v) = model.initial_state();
        let state = MoreauState::new(q, v, model.patch_count());
        let c = model
            .contact()
            .evaluate(&law, &state.q, &state.v, patch, None);
        let sample = Sample {
            normal: c.normal,
            friction: c.friction[0].hypot(c.friction[1]),
            slip: c.watched_slip,
            max_slip: c.max_slip,
        };
        run.push(model, 0.0, &state.q, &state.v, sample, [0.0; 3]);
        Start::Moreau(state)
    } else {
        let y = ode.initial_state();
        run.push_ode(&ode, 0.0, &y);
        Start::Ode(&ode, y)
    };
    let mut recorder = Recorder {
        model,
        ode: &ode,
        run: &mut run,
    };
    let counts = drive(model, law, start, integrator, &schedule, &mut recorder)?;
    run.steps = counts.steps;
    match method {
        BladeMethod::Dopri5 { .. } => {
            run.rejected_steps = counts.rejected;
            run.rhs_evaluations = counts.evaluations;
        }
        BladeMethod::Rk4 { .. } => run.rhs_evaluations = ode.evaluations(),
        BladeMethod::Moreau { .. } | BladeMethod::Imex { .. } => {}
    }
    Ok(run)
}
