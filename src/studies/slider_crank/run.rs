//! Running one method of a slider-crank case: build the mechanism (its
//! sizes are compile-time constants: 9 coordinates and 9, 8, 7 or 6
//! constraint equations), integrate it, sample the outputs.

use nalgebra::{Const, DimMin};

use crate::error::SolverError;
use crate::harness::study::{CaseTable, MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::rk::{Dopri5, Magnitude, Rk4};
use crate::models::slider_crank::{Drive, JournalBearingParams};
use crate::multibody::Mechanism;
use crate::multibody::system::timer_overhead_ns;
use crate::studies::shared::span::StepCounts;
use crate::studies::slider_crank::spec::{CaseConfig, Integrator, Joint, MethodConfig};

/// What Dormand-Prince's relative tolerance is taken of, per component of
/// y = (q, q') with q = (x, y, theta) of the crank, the rod and the slider
/// (issue 16, section 3): the positions' displacements from the start state
/// (their origin is the frame's, arbitrary), the angles' one revolution
/// 2 pi (the crank angle grows without bound: 26 rad over the driven runs,
/// 200 rad in a free run of 2 s at 100 rad/s, and a start at phi0 + 2 pi k
/// is the same motion), the velocities' values.
pub fn error_magnitudes(q0: &[f64; 9]) -> Vec<Magnitude> {
    let mut m: Vec<Magnitude> = q0
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            if i % 3 == 2 {
                Magnitude::Fixed(2.0 * std::f64::consts::PI)
            } else {
                Magnitude::From(r)
            }
        })
        .collect();
    m.extend([Magnitude::Value; 9]);
    m
}

/// Runs method `method` of the case (the timed run: no [`Window`]).
pub fn run_method(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
) -> Result<MethodOutput, SolverError> {
    run(cfg, method, progress, false)
}

/// Runs method `method` of the case again, recording every step of the
/// last revolution ([`Window`], a clearance joint only): the untimed run
/// of the figures' data, so that recording costs the timed runs nothing.
pub fn run_window(cfg: &CaseConfig, method: &MethodConfig) -> Result<MethodOutput, SolverError> {
    run(cfg, method, &indicatif::ProgressBar::hidden(), true)
}

fn run(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
    window: bool,
) -> Result<MethodOutput, SolverError> {
    let driven = matches!(cfg.drive, Drive::ConstantSpeed { .. });
    match (cfg.joint, driven) {
        (Joint::Ideal, true) => simulate::<9, 18>(cfg, method, progress, window),
        (Joint::Ideal, false) => simulate::<8, 17>(cfg, method, progress, window),
        (Joint::Clearance(_), true) => simulate::<7, 16>(cfg, method, progress, window),
        (Joint::Clearance(_), false) => simulate::<6, 15>(cfg, method, progress, window),
    }
}

/// The sampled outputs of a run.
#[derive(Default)]
struct Samples {
    columns: Vec<(&'static str, &'static str, Vec<f64>)>,
}

impl Samples {
    fn push(&mut self, name: &'static str, doc: &'static str, v: f64) {
        match self.columns.iter_mut().find(|c| c.0 == name) {
            Some(c) => c.2.push(v),
            None => self.columns.push((name, doc, vec![v])),
        }
    }

    fn values(&self, name: &str) -> &[f64] {
        self.columns
            .iter()
            .find(|c| c.0 == name)
            .map_or(&[], |c| c.2.as_slice())
    }

    fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    fn table(self) -> Table {
        let mut t = Table::new();
        for (name, doc, values) in self.columns {
            t.push(name, doc, values);
        }
        t
    }
}

/// The counters of one integration.
#[derive(Default)]
struct Counts {
    steps: StepCounts,
    switches: usize,
}

/// The deepest penetration and the largest contact force over every
/// accepted step (the samples could miss an impact's peak).
type Extremes = std::cell::Cell<(f64, f64)>;

/// The figures' window (issue 20, classes 4 and 5): every accepted step from
/// `start` to the end of the run, recorded for a clearance joint (whose
/// impacts last a few microseconds and fall between the output samples) by
/// the untimed rerun [`run_window`] only.
/// `start` is one crank revolution before `t_end` (driven: 2 pi / omega;
/// free: two revolutions at the initial speed, the figure picks the last
/// by the angle); `f64::INFINITY` records nothing.
struct Window {
    start: f64,
    steps: Samples,
    failure: Option<String>,
}

impl Window {
    fn new(cfg: &CaseConfig, enabled: bool) -> Self {
        let start = match (cfg.joint, cfg.drive) {
            _ if !enabled => f64::INFINITY,
            (Joint::Ideal, _) => f64::INFINITY,
            (_, Drive::ConstantSpeed { omega, .. }) if omega != 0.0 => {
                cfg.span.t_end - std::f64::consts::TAU / omega.abs()
            }
            (_, Drive::Free { omega0, .. }) if omega0 != 0.0 => {
                cfg.span.t_end - 2.0 * std::f64::consts::TAU / omega0.abs()
            }
            _ => f64::INFINITY,
        };
        Self {
            start,
            steps: Samples::default(),
            failure: None,
        }
    }

    /// Records the accepted state `y` at `t` when inside the window.
    fn record<const R: usize, const NR: usize>(
        &mut self,
        mech: &Mechanism<9, R, NR>,
        cfg: &CaseConfig,
        t: f64,
        y: &[f64],
    ) where
        Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
    {
        if t >= self.start
            && self.failure.is_none()
            && let Err(e) = record_sample(mech, cfg, &mut self.steps, t, y)
        {
            self.failure = Some(e);
        }
    }
}

/// What [`Window`] records: the table `steps` and the peaks over it.
fn window_output(window: Window) -> Result<(Vec<CaseTable>, Vec<Scalar>), String> {
    if let Some(e) = window.failure {
        return Err(e);
    }
    if window.steps.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let scalars = vec![
        Scalar::new(
            "last_revolution_peak_slider_a",
            peak(&window.steps, "slider_a"),
            "max |slider acceleration| over every accepted step of the last crank revolution [m/s^2]",
        ),
        Scalar::new(
            "last_revolution_peak_torque",
            peak(&window.steps, "crank_torque"),
            "max |crank torque| over every accepted step of the last crank revolution [N m]",
        ),
        Scalar::new(
            "last_revolution_peak_contact_force",
            peak(&window.steps, "contact_force"),
            "max normal contact force over every accepted step of the last crank revolution [N]",
        ),
    ];
    let table = CaseTable {
        what: STEPS_TABLE.into(),
        doc: "every accepted step of the last crank revolution (from t_end - 2 pi / omega; a free crank: the last two revolutions at its initial speed), the columns of the samples: impacts last microseconds and fall between the output samples".into(),
        table: window.steps.table(),
    };
    Ok((vec![table], scalars))
}

/// The method table of every accepted step of the last revolution.
pub const STEPS_TABLE: &str = "steps";

/// Integrates the case with `method` and derives its scalars.
fn simulate<const R: usize, const NR: usize>(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
    record_window: bool,
) -> Result<MethodOutput, SolverError>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let label = method.label.clone();
    let fail = |message: String| SolverError::other(label.clone(), message);
    let mech = build_mechanism::<R, NR>(cfg, method).map_err(&fail)?;
    let (phi0, omega0) = cfg.drive.initial();
    let (q0, qd0) = cfg.mechanism.initial_state(phi0, omega0);
    let mut y = [0.0f64; 18];
    y[..9].copy_from_slice(&q0);
    y[9..].copy_from_slice(&qd0);
    progress.set_length(cfg.span.outputs as u64);
    let mut samples = Samples::default();
    mech.start(0.0, &q0, &qd0);
    record_sample(&mech, cfg, &mut samples, 0.0, &y).map_err(&fail)?;
    let extremes = Extremes::new((f64::NEG_INFINITY, 0.0));
    let mut window = Window::new(cfg, record_window);
    let mut out = Recorders {
        samples: &mut samples,
        window: &mut window,
        extremes: &extremes,
    };
    let counts = match method.integrator {
        Integrator::Rk4 | Integrator::Dopri5Fixed => {
            integrate_fixed(&mech, cfg, method, &mut y, &mut out, progress)
        }
        Integrator::Dopri5 => integrate_adaptive(&mech, cfg, &q0, &mut y, &mut out, progress),
    }
    .map_err(&fail)?;
    let (tables, window_scalars) = window_output(window).map_err(&fail)?;
    let work = mech.work();
    // Each timed evaluation carries two timer pairs (the whole and the
    // constraint part); subtract their cost.
    let overhead = timer_overhead_ns();
    let constraint = (work.constraint_ns as f64 - overhead * work.evaluations as f64).max(0.0);
    let total = (work.total_ns as f64 - 2.0 * overhead * work.evaluations as f64).max(1.0);
    // The constraint share is a measured time: it goes to timings.csv as a
    // stat, never into the (reproducible) summary.
    let mut scalars = vec![Scalar::new(
        "steps",
        counts.steps.accepted as f64,
        "accepted time steps",
    )];
    scalars.extend(motion_scalars(cfg, &samples));
    scalars.extend(window_scalars);
    if let Joint::Clearance(params) = cfg.joint {
        scalars.extend(contact_scalars(&mech, &params, &samples, extremes.get()));
    }
    let mut counters = counts.steps.counters();
    counters.push(("located_switches".into(), counts.switches as f64));
    Ok(MethodOutput {
        series: samples.table(),
        tables,
        scalars,
        counters,
        stats: vec![("constraint_share".into(), constraint / total)],
    })
}

/// The mechanism of the case with the method's formulation, Baumgarte
/// factor, drive torque and clearance joint.
fn build_mechanism<const R: usize, const NR: usize>(
    cfg: &CaseConfig,
    method: &MethodConfig,
) -> Result<Mechanism<9, R, NR>, String>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let mech_data = &cfg.mechanism;
    let ideal = matches!(cfg.joint, Joint::Ideal);
    let mut mech = Mechanism::<9, R, NR>::new(
        mech_data.bodies(),
        mech_data.constraints(ideal, cfg.drive),
        method.formulation,
    )
    .map_err(|e| e.to_string())?;
    mech.gravity = mech_data.gravity;
    mech.baumgarte = method.baumgarte;
    mech.timed = true;
    mech.locate_switches = cfg.locate_switches;
    if let Drive::Free { torque, .. } = cfg.drive {
        mech.torques.push((0, torque));
    }
    if let Joint::Clearance(params) = cfg.joint {
        mech.clearance.push(mech_data.clearance_joint(params));
    }
    Ok(mech)
}

/// Records the outputs of state `y` at time `t`.
fn record_sample<const R: usize, const NR: usize>(
    mech: &Mechanism<9, R, NR>,
    cfg: &CaseConfig,
    samples: &mut Samples,
    t: f64,
    y: &[f64],
) -> Result<(), String>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let (q, qd) = y.split_at(9);
    let dynamics = mech
        .dynamics(t, q, qd)
        .ok_or_else(|| format!("singular constraint Jacobian at t = {t}"))?;
    samples.push("t", "time [s]", t);
    samples.push("phi", "crank angle [rad]", q[2]);
    samples.push("slider_x", "slider position along x [m]", q[6]);
    samples.push("slider_v", "slider velocity [m/s]", qd[6]);
    samples.push(
        "slider_a",
        "slider acceleration [m/s^2]",
        dynamics.acceleration[6],
    );
    let torque = match cfg.drive {
        // The drive's reaction on the crank: -lambda of the driving row (the last).
        Drive::ConstantSpeed { .. } => -dynamics.lambda[R - 1],
        Drive::Free { torque, .. } => torque,
    };
    samples.push("crank_torque", "torque on the crank: the driving constraint's reaction (constant speed) or the applied torque (free) [N m]", torque);
    samples.push(
        "energy",
        "kinetic energy of the three bodies plus the potential energy of gravity [J]",
        mech.kinetic_energy(qd) + mech.potential_energy(q),
    );
    let c = mech.constraint_values(q, t);
    samples.push(
        "constraint_error",
        "max |C| over the constraint equations (position drift) [m or rad]",
        c.amax(),
    );
    let cd = mech.velocity_constraint(q, qd, t);
    samples.push(
        "velocity_constraint_error",
        "max |C_q q' + C_t| (velocity drift) [m/s or rad/s]",
        cd.amax(),
    );
    if let Some(j) = mech.clearance.first() {
        let s = j.state(q, qd);
        samples.push(
            "journal_ex",
            "eccentricity of the journal in the bearing, x [m]",
            s.eccentricity.x,
        );
        samples.push(
            "journal_ey",
            "eccentricity of the journal in the bearing, y [m]",
            s.eccentricity.y,
        );
        // e' of the journal (crank, x = l1/2) and bearing (rod, x = -l2/2)
        // points: r' = R' + theta' (-x sin theta, x cos theta).
        let point_v = |k: usize, x: f64| {
            let (sin, cos) = q[3 * k + 2].sin_cos();
            let w = qd[3 * k + 2];
            (qd[3 * k] - w * x * sin, qd[3 * k + 1] + w * x * cos)
        };
        let (journal, bearing) = (
            point_v(0, cfg.mechanism.crank_length / 2.0),
            point_v(1, -cfg.mechanism.rod_length / 2.0),
        );
        samples.push(
            "journal_vx",
            "rate of the eccentricity, x [m/s]",
            journal.0 - bearing.0,
        );
        samples.push(
            "journal_vy",
            "rate of the eccentricity, y [m/s]",
            journal.1 - bearing.1,
        );
        samples.push(
            "penetration",
            "penetration |e| - c (negative: free flight) [m]",
            s.penetration,
        );
        samples.push(
            "contact_force",
            "normal contact force F_N [N]",
            s.normal_force,
        );
        samples.push("friction_force", "friction force F_T [N]", s.friction_force);
        samples.push(
            "sliding_speed",
            "tangential relative speed of the contact points [m/s]",
            s.sliding_speed,
        );
        // Newton's third law: both bodies' contact forces and moments
        // (about the origin) sum to zero.
        let mut f = [0.0f64; 9];
        j.add_forces(q, qd, &mut f);
        let moment = |k: usize| q[3 * k] * f[3 * k + 1] - q[3 * k + 1] * f[3 * k] + f[3 * k + 2];
        let imbalance = (f[0] + f[3])
            .abs()
            .max((f[1] + f[4]).abs())
            .max((moment(0) + moment(1)).abs() / cfg.mechanism.crank_length);
        samples.push(
            "contact_imbalance",
            "|sum of the contact forces on both bodies| and |sum of their moments| / l1 [N]",
            imbalance,
        );
    }
    if !y.iter().all(|v| v.is_finite()) {
        return Err(format!("the state is not finite at t = {t}"));
    }
    Ok(())
}

/// Marks an accepted state: the deepest penetration and largest contact
/// force so far.
fn observe<const R: usize, const NR: usize>(
    mech: &Mechanism<9, R, NR>,
    extremes: &Extremes,
    y: &[f64],
) where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    if let Some(j) = mech.clearance.first() {
        let (q, qd) = y.split_at(9);
        let s = j.state(q, qd);
        let (d, f) = extremes.get();
        extremes.set((d.max(s.penetration), f.max(s.normal_force)));
    }
}

/// Where an integration records: the output samples, the figures' window
/// of every step, the contact's extremes.
struct Recorders<'a> {
    samples: &'a mut Samples,
    window: &'a mut Window,
    extremes: &'a Extremes,
}

/// Fixed steps (RK4 with located switches, or the fixed Dormand-Prince
/// formula) of `cfg.span.dt` rounded to the output grid.
fn integrate_fixed<const R: usize, const NR: usize>(
    mech: &Mechanism<9, R, NR>,
    cfg: &CaseConfig,
    method: &MethodConfig,
    y: &mut [f64; 18],
    out: &mut Recorders,
    progress: &indicatif::ProgressBar,
) -> Result<Counts, String>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let mut counts = Counts::default();
    let per_output = (cfg.span.output_interval / cfg.span.dt).round() as usize;
    let total = per_output * cfg.span.outputs;
    let h = cfg.span.t_end / total as f64;
    let mut rk4 = Rk4::new(18);
    let mut dp = Dopri5::new(18);
    for k in 0..total {
        let t = k as f64 * h;
        crate::deadline::check();
        match method.integrator {
            Integrator::Rk4 => {
                // A located switch is an accepted state: the joint's
                // memory (the onset's impact speed) is updated there.
                let mut on_switch = |t: f64, y: &[f64]| {
                    let (q, qd) = y.split_at(9);
                    mech.accept(t, q, qd);
                    observe(mech, out.extremes, y);
                    out.window.record(mech, cfg, t, y);
                };
                let (n, s) = rk4.step_located(mech, t, h, y, &mut on_switch);
                counts.steps.evaluations += n;
                counts.switches += s;
            }
            _ => {
                dp.step(mech, t, h, y);
            }
        }
        let (q, qd) = y.split_at(9);
        if mech.accept(t + h, q, qd) {
            dp.reset();
        }
        observe(mech, out.extremes, y);
        counts.steps.accepted += 1;
        if !y.iter().all(|v| v.is_finite()) {
            return Err(format!("the state is not finite at t = {}", t + h));
        }
        out.window.record(mech, cfg, t + h, y);
        if (k + 1) % per_output == 0 {
            record_sample(mech, cfg, out.samples, (k + 1) as f64 * h, y)?;
            progress.inc(1);
        }
    }
    if method.integrator == Integrator::Dopri5Fixed {
        counts.steps.evaluations = dp.stats.evaluations;
    }
    Ok(counts)
}

/// Adaptive Dormand-Prince at `cfg.span.tolerance` with dense output on the
/// output grid.
fn integrate_adaptive<const R: usize, const NR: usize>(
    mech: &Mechanism<9, R, NR>,
    cfg: &CaseConfig,
    q0: &[f64; 9],
    y: &mut [f64; 18],
    out: &mut Recorders,
    progress: &indicatif::ProgressBar,
) -> Result<Counts, String>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let mut dp = Dopri5::with_magnitudes(error_magnitudes(q0));
    let mut failure = None;
    let Recorders {
        samples,
        window,
        extremes,
    } = out;
    let mut on_output = |t: f64, y: &[f64]| {
        if failure.is_none()
            && let Err(e) = record_sample(mech, cfg, samples, t, y)
        {
            failure = Some(e);
        }
        progress.inc(1);
    };
    let mut on_accept = |t: f64, y: &[f64]| {
        let (q, qd) = y.split_at(9);
        observe(mech, extremes, y);
        let changed = mech.accept(t, q, qd);
        window.record(mech, cfg, t, y);
        changed
    };
    cfg.span
        .dopri5(&mut dp, mech, y, &mut on_output, &mut on_accept)?;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(Counts {
        steps: StepCounts::of(&dp),
        switches: dp.stats.switches,
    })
}

/// The largest |value| of column `name` over the samples.
fn peak(samples: &Samples, name: &str) -> f64 {
    samples
        .values(name)
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Constraint drift, energy and peaks of the motion.
fn motion_scalars(cfg: &CaseConfig, samples: &Samples) -> Vec<Scalar> {
    let mut scalars = Vec::new();
    scalars.push(Scalar::new(
        "max_constraint_error",
        peak(samples, "constraint_error"),
        "max over the samples of max |C| [m or rad]",
    ));
    scalars.push(Scalar::new(
        "max_velocity_constraint_error",
        peak(samples, "velocity_constraint_error"),
        "max over the samples of max |C_q q' + C_t| [m/s or rad/s]",
    ));
    let drift = samples.values("constraint_error");
    let tenth = (drift.len() / 10).max(1);
    let early = drift[..tenth].iter().fold(0.0f64, |m, v| m.max(*v));
    let late = drift[drift.len() - tenth..]
        .iter()
        .fold(0.0f64, |m, v| m.max(*v));
    scalars.push(Scalar::new(
        "late_constraint_error",
        late,
        "max |C| over the last tenth of the samples [m or rad]",
    ));
    scalars.push(Scalar::new("drift_growth", late / early.max(1e-300), "max |C| over the last tenth of the run over that over the first tenth [-]: above 1 the drift grows"));
    let energy = samples.values("energy");
    if let Drive::Free { torque, .. } = cfg.drive
        && torque == 0.0
        && let Some(&e0) = energy.first()
    {
        let worst = energy.iter().fold(0.0f64, |m, e| m.max((e - e0).abs()));
        scalars.push(Scalar::new("energy_drift", worst / e0, "max |E - E(0)| / E(0) of the energy (free crank, no torque, no friction or damping) [-]"));
    }
    scalars.push(Scalar::new(
        "peak_slider_a",
        peak(samples, "slider_a"),
        "max |slider acceleration| [m/s^2]",
    ));
    scalars.push(Scalar::new(
        "peak_torque",
        peak(samples, "crank_torque"),
        "max |crank torque| [N m]",
    ));
    scalars
}

/// The clearance joint's peaks, penetration against the elastic law,
/// restitution of the impacts and Newton's third law; `(depth, force)` are
/// the extremes over the accepted steps.
fn contact_scalars<const R: usize, const NR: usize>(
    mech: &Mechanism<9, R, NR>,
    params: &JournalBearingParams,
    samples: &Samples,
    (depth, force): (f64, f64),
) -> Vec<Scalar>
where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let mut scalars = vec![
        Scalar::new(
            "peak_contact_force",
            force,
            "max normal contact force over the accepted steps [N]",
        ),
        Scalar::new(
            "max_penetration",
            depth,
            "max penetration |e| - c over the accepted steps [m]",
        ),
        Scalar::new(
            "hertz_penetration",
            params.law.penetration(force),
            "the deepest penetration the elastic law allows at the peak force (at the deepest point delta' = 0, so F = F_e(delta)): (F / K)^(2/3) for the point law, Johnson's delta(F) for the cylindrical one [m]",
        ),
        Scalar::new(
            "penetration_ratio",
            depth / params.law.penetration(force).max(1e-300),
            "max_penetration / hertz_penetration [-]: at most 1",
        ),
    ];
    // The impacts' coefficient of restitution: separation over onset
    // speed of every completed contact that began at least 10 v_ref
    // fast (slower ones follow the fixed Hunt-Crossley damping).
    if let Some(j) = mech.clearance.first() {
        let ratios: Vec<f64> = j
            .impacts()
            .iter()
            .filter(|(v0, _)| *v0 >= 10.0 * params.reference_speed)
            .map(|(v0, v1)| v1 / v0)
            .collect();
        if !ratios.is_empty() {
            scalars.push(Scalar::new(
                "impacts",
                ratios.len() as f64,
                "completed impacts with an onset speed >= 10 reference_speed [-]",
            ));
            scalars.push(Scalar::new(
                "restitution_median",
                crate::harness::timing::median(&ratios),
                "median over those impacts (the mean of the middle two for an even count) of separation speed / onset speed (both located on the step's Hermite interpolant of the penetration) [-]: the law's c_e",
            ));
        }
    }
    scalars.push(Scalar::new(
        "max_contact_imbalance",
        peak(samples, "contact_imbalance") / force.max(1e-300),
        "max over the samples of the contact forces' imbalance over the peak force [-]",
    ));
    scalars
}
