//! Running one method of a stick-slip case: the mass on the belt
//! (m x'' + k x = T, T the friction on the mass, slip u = v - v_b)
//! integrated by the shared Moreau-Jean stepper
//! ([`crate::integrators::moreau`], the belt as its problem) or as an ODE, with the energy
//! bookkeeping and the stick-slip cycles of every step.
//!
//! Energy: E = m v^2 / 2 + k x^2 / 2 (+ sigma0 z^2 / 2, the LuGre
//! bristles). The friction's power on the mass splits as T v = T v_b + T u:
//! the belt does the work W = int T v_b dt, friction dissipates
//! D = -int T u dt (LuGre: minus the power stored in the bristles), and
//! E(t) - E(0) = W - D. The balance error is |E - E(0) - (W - D)|.

use crate::contact::friction::LuGre;
use crate::drivers::friction::{At, Integrator as Driven, Observer, Schedule, Start, drive};
use crate::error::SolverError;
use crate::harness::study::{MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::moreau::MoreauState;
use crate::models::belt::Belt;
use crate::problem::{FirstOrderOde, FrictionOde, Works};
use crate::studies::shared::friction::FrictionSpec;
use crate::studies::shared::span::StepCounts;
use crate::studies::stick_slip::cycles::CycleTracker;
use crate::studies::stick_slip::spec::{CaseConfig, Integrator, MethodConfig};

/// The belt as a first-order ODE: y = (x, v, D, W[, sigma0 z]); the LuGre
/// state is integrated as the bristle force sigma0 z [N] so that one
/// absolute tolerance suits every component.
pub struct BeltOde {
    belt: Belt,
    law: FrictionSpec,
}

impl BeltOde {
    /// The ODE of the belt with a law.
    pub fn new(belt: Belt, law: FrictionSpec) -> Self {
        Self { belt, law }
    }

    /// The friction force on the mass at state y.
    pub fn friction(&self, y: &[f64]) -> f64 {
        let u = y[1] - self.belt.belt_speed;
        match &self.law {
            FrictionSpec::Memoryless(l) => l.force(self.belt.normal_force, u),
            FrictionSpec::LuGre(l) => l.force(self.belt.normal_force, u, y[4] / l.sigma0),
        }
    }

    /// The stored energy m v^2/2 + k x^2/2 (+ sigma0 z^2/2).
    pub fn energy(&self, y: &[f64]) -> f64 {
        self.belt.energy(y[0], y[1])
            + match &self.law {
                FrictionSpec::LuGre(l) => l.stored_energy(y[4] / l.sigma0),
                FrictionSpec::Memoryless(_) => 0.0,
            }
    }
}

impl FrictionOde for BeltOde {
    /// D (friction, LuGre's bristle storage excluded) and W (the belt's work).
    fn works(&self, y: &[f64]) -> Works {
        Works {
            friction: y[2],
            damping: 0.0,
            load: y[3],
        }
    }
}

impl FirstOrderOde for BeltOde {
    fn dim(&self) -> usize {
        match self.law {
            FrictionSpec::Memoryless(_) => 4,
            FrictionSpec::LuGre(_) => 5,
        }
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let b = &self.belt;
        let u = y[1] - b.belt_speed;
        let t = self.friction(y);
        dy[0] = y[1];
        dy[1] = (-b.stiffness * y[0] + t) / b.mass;
        dy[2] = -t * u;
        dy[3] = t * b.belt_speed;
        if let FrictionSpec::LuGre(l) = &self.law {
            let z = y[4] / l.sigma0;
            let zd = l.z_rate(b.normal_force, u, z);
            dy[4] = l.sigma0 * zd;
            // Power into the bristles is stored, not dissipated.
            dy[2] -= l.sigma0 * z * zd;
        }
    }
}

/// The columns written at every output time.
#[derive(Default)]
struct Samples {
    t: Vec<f64>,
    x: Vec<f64>,
    v: Vec<f64>,
    slip: Vec<f64>,
    friction: Vec<f64>,
    energy: Vec<f64>,
    dissipated: Vec<f64>,
    work: Vec<f64>,
    balance: Vec<f64>,
    z: Vec<f64>,
}

impl Samples {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        t: f64,
        x: f64,
        v: f64,
        vb: f64,
        friction: f64,
        e: f64,
        d: f64,
        w: f64,
        e0: f64,
    ) {
        self.t.push(t);
        self.x.push(x);
        self.v.push(v);
        self.slip.push(v - vb);
        self.friction.push(friction);
        self.energy.push(e);
        self.dissipated.push(d);
        self.work.push(w);
        self.balance.push((e - e0 - (w - d)).abs());
    }

    fn table(self) -> Table {
        let mut t = Table::new()
            .with("t", "time [s]", self.t)
            .with("x", "position of the mass (spring elongation) [m]", self.x)
            .with("v", "velocity of the mass [m/s]", self.v)
            .with("slip", "slip u = v - v_b [m/s]", self.slip)
            .with(
                "friction",
                "friction force on the mass (moreau: the step's impulse / dt) [N]",
                self.friction,
            )
            .with(
                "energy",
                "stored energy m v^2/2 + k x^2/2 (+ sigma0 z^2/2) [J]",
                self.energy,
            )
            .with(
                "dissipated",
                "friction work dissipated D = -int T u dt [J]",
                self.dissipated,
            )
            .with("work", "work of the belt W = int T v_b dt [J]", self.work)
            .with(
                "balance_error",
                "|E - E(0) - (W - D)|: the energy balance's residual [J]",
                self.balance,
            );
        if !self.z.is_empty() {
            t.push(
                "z",
                "LuGre bristle deflection (relative to the slip) [m]",
                self.z,
            );
        }
        t
    }
}

/// What the loop of a method measured besides the samples.
#[derive(Default)]
struct Tally {
    steps: StepCounts,
    stick_steps: usize,
    newton: usize,
    min_dissipated: f64,
    max_balance: f64,
}

/// What the loop of a method fills: the output samples, the tally and the
/// stick-slip cycle tracker.
struct Record {
    samples: Samples,
    tally: Tally,
    tracker: CycleTracker,
}

/// What the driver reports to: the case, the belt's ODE (for an ODE run),
/// the record being filled and the progress bar.
struct Recorder<'a> {
    cfg: &'a CaseConfig,
    ode: &'a BeltOde,
    e0: f64,
    h: f64,
    rec: &'a mut Record,
    progress: &'a indicatif::ProgressBar,
}

impl Observer<Belt> for Recorder<'_> {
    /// Every step: the energy audit, the stick count and the cycle
    /// tracker. Moreau: the works from the stepper's state (the belt's
    /// work W = sum P v_b and the dissipation at the midpoint slip,
    /// D = -sum P (v_th - v_b), which close the discrete balance exactly
    /// with theta = 1/2); an ODE: from its work states.
    fn step(&mut self, t: f64, at: &At<'_, '_, Belt>) -> Result<(), String> {
        let vb = self.cfg.belt.belt_speed;
        let e0 = self.e0;
        let tally = &mut self.rec.tally;
        let (x, v) = match at {
            At::Moreau {
                state,
                report,
                stepper,
            } => {
                let (x, v) = (state.q[0], state.v[0]);
                let (d, w) = (state.contact_dissipation, state.support_work);
                tally.stick_steps += stepper.stuck(0) as usize;
                tally.newton += report.newton_iterations;
                tally.min_dissipated = tally.min_dissipated.min(d);
                let e = self.cfg.belt.energy(x, v);
                tally.max_balance = tally.max_balance.max((e - e0 - (w - d)).abs());
                (x, v)
            }
            At::Ode { y } => {
                let ode = self.ode;
                tally.min_dissipated = tally.min_dissipated.min(y[2]);
                tally.max_balance = tally
                    .max_balance
                    .max((ode.energy(y) - e0 - (y[3] - y[2])).abs());
                tally.stick_steps += ((y[1] - vb).abs() <= self.cfg.stick_threshold) as usize;
                (y[0], y[1])
            }
        };
        self.rec.tracker.observe(t, x, v - vb);
        Ok(())
    }

    fn output(&mut self, t: f64, at: &At<'_, '_, Belt>) {
        let vb = self.cfg.belt.belt_speed;
        let e0 = self.e0;
        let samples = &mut self.rec.samples;
        match at {
            At::Moreau { state, .. } => {
                let (x, v) = (state.q[0], state.v[0]);
                let impulse = state.impulses[0][0];
                let e = self.cfg.belt.energy(x, v);
                let (d, w) = (state.contact_dissipation, state.support_work);
                samples.push(t, x, v, vb, impulse / self.h, e, d, w, e0);
            }
            At::Ode { y } => {
                let ode = self.ode;
                let e = ode.energy(y);
                samples.push(t, y[0], y[1], vb, ode.friction(y), e, y[2], y[3], e0);
                if let FrictionSpec::LuGre(l) = &ode.law {
                    samples.z.push(y[4] / l.sigma0);
                }
            }
        }
        self.progress.inc(1);
    }
}

/// Runs method `method` of the case.
pub fn run_method(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
) -> Result<MethodOutput, SolverError> {
    let fail = |message: String| SolverError::other(method.label.clone(), message);
    let belt = cfg.belt;
    let vb = belt.belt_speed;
    let (threshold, confirm) = cfg.cycle_thresholds(method);
    let mut rec = Record {
        samples: Samples::default(),
        tally: Tally::default(),
        tracker: CycleTracker::new(threshold, confirm),
    };
    progress.set_length(cfg.span.outputs as u64);
    let e0 = belt.energy(cfg.x0, cfg.v0);
    rec.samples
        .push(0.0, cfg.x0, cfg.v0, vb, f64::NAN, e0, 0.0, 0.0, e0);
    rec.tracker.observe(0.0, cfg.x0, cfg.v0 - vb);
    let per_output = ((cfg.span.output_interval / cfg.span.dt).round() as usize).max(1);
    let total = per_output * cfg.span.outputs;
    let schedule = Schedule::Grid {
        t_end: cfg.span.t_end,
        steps: total,
        per_output,
        interval: cfg.span.output_interval,
    };
    let h = cfg.span.t_end / total as f64;
    let ode = BeltOde::new(belt, method.law);
    let mut y = vec![0.0; ode.dim()];
    (y[0], y[1]) = (cfg.x0, cfg.v0);
    let (law, start, driven) = match (method.integrator, method.law) {
        (Integrator::Moreau, FrictionSpec::Memoryless(law)) => {
            let state = MoreauState::new(vec![cfg.x0], vec![cfg.v0], 1);
            (law, Start::Moreau(state), Driven::Moreau { dt: h })
        }
        (Integrator::Imex, FrictionSpec::Memoryless(law)) => {
            let state = MoreauState::new(vec![cfg.x0], vec![cfg.v0], 1);
            (law, Start::Moreau(state), Driven::Imex { dt: h })
        }
        (Integrator::Moreau | Integrator::Imex, FrictionSpec::LuGre(_)) => {
            return Err(fail(format!(
                "{} does not run the LuGre law",
                method.integrator.name()
            )));
        }
        (integrator, law) => {
            if let FrictionSpec::LuGre(_) = law {
                rec.samples.z.push(0.0);
                rec.samples.friction[0] = ode.friction(&y);
            }
            let driven = match integrator {
                Integrator::Rk4 => Driven::Rk4 { dt: h },
                _ => Driven::Dopri5 {
                    first_step: cfg.span.dt,
                    tolerances: cfg.span.tolerances(),
                    max_steps: cfg.span.max_steps,
                },
            };
            // The Moreau law is not used by an ODE run.
            let unused = crate::contact::friction::FrictionLaw::constant(0.0);
            (unused, Start::Ode(&ode, y), driven)
        }
    };
    let mut recorder = Recorder {
        cfg,
        ode: &ode,
        e0,
        h,
        rec: &mut rec,
        progress,
    };
    let counts = drive(&belt, law, start, driven, &schedule, &mut recorder).map_err(fail)?;
    rec.tally.steps = StepCounts {
        accepted: counts.steps,
        rejected: counts.rejected,
        evaluations: counts.evaluations,
    };
    let Record {
        mut samples,
        tally,
        tracker,
    } = rec;
    if samples.friction[0].is_nan() {
        // The friction at t = 0 of the time stepping: that of its first step.
        samples.friction[0] = samples.friction.get(1).copied().unwrap_or(0.0);
    }
    let scalars = method_scalars(cfg, method, &samples, &tally, &tracker, threshold, e0);
    let mut counters = tally.steps.counters();
    counters.extend([
        ("stick_steps".into(), tally.stick_steps as f64),
        ("newton_iterations".into(), tally.newton as f64),
    ]);
    let stats = Vec::new();
    Ok(MethodOutput {
        series: samples.table(),
        tables: Vec::new(),
        scalars,
        counters,
        stats,
    })
}

/// A method's scalars: step count, the energy audit (smallest dissipated
/// work, balance error absolute and relative to the peak stored energy),
/// LuGre's dissipativity margin, the stick threshold of the cycle analysis
/// and the last full cycle's scalars.
fn method_scalars(
    cfg: &CaseConfig,
    method: &MethodConfig,
    samples: &Samples,
    tally: &Tally,
    tracker: &CycleTracker,
    threshold: f64,
    e0: f64,
) -> Vec<Scalar> {
    let mut scalars = vec![
        Scalar::new(
            "steps",
            tally.steps.accepted as f64,
            "accepted time steps [-]",
        ),
        Scalar::new(
            "min_dissipated",
            tally.min_dissipated,
            "smallest dissipated friction work over every step [J]: never negative",
        ),
        Scalar::new(
            "max_balance_error",
            tally.max_balance,
            "max over every step of |E - E(0) - (W - D)| [J]",
        ),
        Scalar::new(
            "cycles",
            tracker.cycles as f64,
            "complete stick-slip cycles found [-]",
        ),
    ];
    let peak_energy = samples.energy.iter().fold(e0, |m, e| m.max(*e));
    scalars.push(Scalar::new(
        "relative_balance_error",
        tally.max_balance / peak_energy.max(1e-300),
        "max_balance_error / the largest stored energy [-]",
    ));
    if let FrictionSpec::LuGre(l) = method.law {
        // Where LuGre is dissipative, against the slip speeds of the run.
        let u = l.dissipative_speed(cfg.belt.normal_force);
        let peak = samples.slip.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        scalars.push(Scalar::new(
            "dissipative_speed",
            u,
            "LuGre: the slip speed up to which sigma1 |u| <= 4 g(u) (dissipative, Barabanov & Ortega 2000) [m/s]",
        ));
        scalars.push(Scalar::new(
            "peak_slip_speed",
            peak,
            "largest |slip| over the output samples [m/s]",
        ));
        scalars.push(Scalar::new(
            "dissipative_margin",
            u / peak.max(1e-300),
            "LuGre: dissipative_speed / peak_slip_speed (at least 1: dissipative at every slip speed of the run) [-]",
        ));
    }
    scalars.push(Scalar::new(
        "stick_threshold",
        threshold,
        if method.sticks_exactly() {
            "the stick threshold of the cycle analysis [m/s]: zero slip to round-off (1e-12 v_b), the method sticks exactly, so the durations are the physical ones"
        } else {
            "the stick threshold of the cycle analysis [m/s]: |slip| at or below it counts as stuck (analysis.stick_threshold), so the durations depend on it"
        },
    ));
    if let Some(c) = tracker.last_cycle() {
        scalars.extend(cycle_scalars("", &c));
    }
    scalars
}

/// The scalars of a cycle, names prefixed (`exact_` for the reference).
pub fn cycle_scalars(prefix: &str, c: &crate::models::belt::Cycle) -> Vec<Scalar> {
    let of = if prefix.is_empty() {
        "the last full stick-slip cycle"
    } else {
        "the exact motion's last full stick-slip cycle"
    };
    vec![
        Scalar::new(
            format!("{prefix}stick_duration"),
            c.stick_duration,
            format!("stick duration of {of} [s]"),
        ),
        Scalar::new(
            format!("{prefix}slip_duration"),
            c.slip_duration,
            format!("slip duration of {of} [s]"),
        ),
        Scalar::new(
            format!("{prefix}period"),
            c.period,
            format!("period (stick onset to stick onset) of {of} [s]"),
        ),
        Scalar::new(
            format!("{prefix}x_max"),
            c.x_max,
            format!("largest x over {of} [m]"),
        ),
        Scalar::new(
            format!("{prefix}x_min"),
            c.x_min,
            format!("smallest x over {of} [m]"),
        ),
        Scalar::new(
            format!("{prefix}amplitude"),
            0.5 * (c.x_max - c.x_min),
            format!("(x_max - x_min) / 2 over {of} [m]"),
        ),
    ]
}

/// The LuGre law of a method, if any (for the report).
pub fn lugre(method: &MethodConfig) -> Option<LuGre> {
    match method.law {
        FrictionSpec::LuGre(l) => Some(l),
        FrictionSpec::Memoryless(_) => None,
    }
}
