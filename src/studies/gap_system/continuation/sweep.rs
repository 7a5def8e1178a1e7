//! Slow frequency sweeps by the time-stepper (Newmark-LCP or -SSN): at each
//! frequency of a grid from omega_from to omega_to (up) or back (down) the
//! response is integrated `settle_periods` forcing periods from the
//! previous frequency's final state (the first from rest), then
//! until the period-end state changes by at most `settle_tol` over one
//! period (at most `max_settle_periods`), then `measure_periods` more, over which the extremes of every x_i are taken
//! at every step (dt = 2 pi / (omega steps_per_period)). The forcing
//! restarts at phase 0 at each frequency: every run ends after a whole
//! number of periods, so the phase is continuous.
//!
//! Where consecutive DOF-0 amplitudes differ by more than the factor
//! `jump_ratio` the step is halved, up to `refine_jumps` times (the sweep
//! slows down there; the points in between settle for at least
//! `refine_settle_periods`): a large frequency step can throw the state
//! into the other orbit's basin before the fold, a slow sweep does not. A
//! change that survives every halving is a jump (a steep smooth piece of a
//! branch does not survive: its ratio halves with the step); the jump
//! frequency is the midpoint of its last step, its half-width the
//! resolution (grid step / 2^(refine_jumps + 1)). Nothing here looks at the continuation: the sweep is an
//! independent measurement of the branches and jumps.

use crate::error::SolverError;
use crate::harness::study::{MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::newmark::StepStats;
use crate::studies::gap_system::run::integrate;

use super::spec::ContinuationConfig;

/// Label of the upward sweep.
pub const SWEEP_UP: &str = "sweep-up";
/// Label of the downward sweep.
pub const SWEEP_DOWN: &str = "sweep-down";

/// The settled response at one frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    /// Forcing frequency [rad/s].
    pub omega: f64,
    /// max |x_0| over the measured periods [m].
    pub amplitude: f64,
    /// Largest x_i over the measured periods, per DOF.
    pub x_max: Vec<f64>,
    /// Smallest x_i, per DOF.
    pub x_min: Vec<f64>,
    /// Periods settled before measuring.
    pub settle_periods: usize,
    /// |z_N - z_(N-1)|_inf / |z_N|_inf of the period-end states [x, v] over
    /// the last settling period.
    pub settle_change: f64,
    /// A point of a halved step (near a jump), not of the grid.
    pub refined: bool,
    /// Final state [x, v].
    pub end: Vec<f64>,
}

/// A jump located by the sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Jump {
    /// Final bracket: last frequency before the jump, first after.
    pub before: f64,
    /// First frequency after.
    pub after: f64,
    /// Amplitudes there.
    pub amplitude_before: f64,
    /// Amplitude after.
    pub amplitude_after: f64,
}

impl Jump {
    /// The bracket's midpoint [rad/s].
    pub fn omega(&self) -> f64 {
        0.5 * (self.before + self.after)
    }

    /// Half the bracket [rad/s].
    pub fn resolution(&self) -> f64 {
        0.5 * (self.after - self.before).abs()
    }
}

/// A whole sweep.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sweep {
    /// The settled points in sweep order (grid points and the halved steps near jumps).
    pub points: Vec<SweepPoint>,
    /// Jumps in sweep order.
    pub jumps: Vec<Jump>,
    /// Step statistics summed over every run.
    pub stats: StepStats,
}

fn add(total: &mut StepStats, s: &StepStats) {
    total.steps += s.steps;
    total.solver_iterations += s.solver_iterations;
    total.factorizations += s.factorizations;
    total.max_active = total.max_active.max(s.max_active);
    total.active_sum += s.active_sum;
    total.max_residual = total.max_residual.max(s.max_residual);
}

/// Settles at `omega` from `start`: `settle` periods, then chunks of
/// [`SETTLE_CHUNK`] periods until the period-end state [x, v] changes over
/// one period by at most `settle_tol` of its size (or `max_settle_periods`
/// are reached); then measures.
fn settle_at(
    cfg: &ContinuationConfig,
    omega: f64,
    start: &[f64],
    settle: usize,
    stats: &mut StepStats,
    progress: &indicatif::ProgressBar,
) -> Result<SweepPoint, SolverError> {
    let ss = cfg.case.steady_state.ok_or_else(|| {
        SolverError::other(
            cfg.method.label.clone(),
            "a sweep needs the steady-state settings",
        )
    })?;
    let n = cfg.case.system.dofs();
    let mut case = cfg.case.clone();
    case.system.excitation.omega = omega;
    case.dt = 2.0 * std::f64::consts::PI / (omega * ss.steps_per_period as f64);
    case.output_every = ss.steps_per_period;
    case.recording = crate::integrators::newmark::Recording::all();
    let mut end = start.to_vec();
    let mut periods = 0;
    let mut chunk = settle;
    let change = loop {
        case.x0 = end[..n].to_vec();
        case.v0 = end[n..].to_vec();
        case.steps = chunk * ss.steps_per_period;
        let (settled, s) = integrate(&case, &cfg.method, progress)?;
        add(stats, &s);
        periods += chunk;
        let state =
            |k: usize| -> Vec<f64> { settled.x[k].iter().chain(&settled.v[k]).copied().collect() };
        let last = settled.t.len() - 1;
        end = state(last);
        let before = state(last.saturating_sub(1));
        let size = end.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let diff = end
            .iter()
            .zip(&before)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        let change = if size > 0.0 { diff / size } else { 0.0 };
        if change <= cfg.sweep.settle_tol || periods >= cfg.sweep.max_settle_periods {
            break change;
        }
        chunk = SETTLE_CHUNK.min(cfg.sweep.max_settle_periods - periods);
    };
    case.x0 = end[..n].to_vec();
    case.v0 = end[n..].to_vec();
    case.steps = ss.measure_periods * ss.steps_per_period;
    case.output_every = 1;
    let (measured, s) = integrate(&case, &cfg.method, progress)?;
    add(stats, &s);
    let mut x_max = vec![f64::NEG_INFINITY; n];
    let mut x_min = vec![f64::INFINITY; n];
    for x in &measured.x {
        for i in 0..n {
            x_max[i] = x_max[i].max(x[i]);
            x_min[i] = x_min[i].min(x[i]);
        }
    }
    let k = measured.t.len() - 1;
    Ok(SweepPoint {
        omega,
        amplitude: x_max[0].abs().max(x_min[0].abs()),
        x_max,
        x_min,
        settle_periods: periods,
        settle_change: change,
        refined: false,
        end: measured.x[k]
            .iter()
            .chain(&measured.v[k])
            .copied()
            .collect(),
    })
}

/// Periods added at a time while a sweep point has not settled.
pub const SETTLE_CHUNK: usize = 50;

/// The grid of a sweep, in sweep order.
pub fn grid(cfg: &ContinuationConfig, up: bool) -> Vec<f64> {
    let (a, b) = (cfg.continuation.omega_from, cfg.continuation.omega_to);
    let k = cfg.sweep.points;
    let mut w: Vec<f64> = (0..k)
        .map(|i| a + (b - a) * i as f64 / (k - 1) as f64)
        .collect();
    if !up {
        w.reverse();
    }
    w
}

/// Runs the sweep up (`up`) or down.
pub fn run_sweep(
    cfg: &ContinuationConfig,
    up: bool,
    progress: &indicatif::ProgressBar,
) -> Result<Sweep, SolverError> {
    let ss = cfg.case.steady_state.ok_or_else(|| {
        SolverError::other(
            cfg.method.label.clone(),
            "a sweep needs the steady-state settings",
        )
    })?;
    let n = cfg.case.system.dofs();
    let mut sweep = Sweep::default();
    let grid = grid(cfg, up);
    let rest = vec![0.0; 2 * n];
    let mut last = settle_at(
        cfg,
        grid[0],
        &rest,
        ss.settle_periods,
        &mut sweep.stats,
        progress,
    )?;
    sweep.points.push(last.clone());
    for &omega in &grid[1..] {
        last = walk(cfg, &mut sweep, last, omega, 0, progress)?;
    }
    Ok(sweep)
}

/// The settled point at `to`, reached from `from`: directly, or, when the
/// amplitude changes by more than `jump_ratio` and fewer than
/// `refine_jumps` halvings were made, through the midpoint (both halves
/// walked the same way), so that near a jump the sweep slows down to steps
/// of (grid step) / 2^refine_jumps. A change that survives every halving
/// is a jump, bracketed by the last two points. Every point kept is pushed
/// onto the sweep in sweep order.
fn walk(
    cfg: &ContinuationConfig,
    sweep: &mut Sweep,
    from: SweepPoint,
    to: f64,
    depth: usize,
    progress: &indicatif::ProgressBar,
) -> Result<SweepPoint, SolverError> {
    crate::deadline::check();
    let settle = if depth == 0 {
        cfg.case.steady_state.map_or(1, |s| s.settle_periods)
    } else {
        cfg.sweep.refine_settle_periods
    };
    let mut p = settle_at(cfg, to, &from.end, settle, &mut sweep.stats, progress)?;
    p.refined = depth > 0;
    let jumped = (p.amplitude.ln() - from.amplitude.ln()).abs() > cfg.sweep.jump_ratio.ln();
    if jumped && depth < cfg.sweep.refine_jumps {
        let half = 0.5 * (from.omega + to);
        let mid = walk(cfg, sweep, from, half, depth + 1, progress)?;
        return walk(cfg, sweep, mid, to, depth + 1, progress);
    }
    if jumped {
        sweep.jumps.push(Jump {
            before: from.omega,
            after: to,
            amplitude_before: from.amplitude,
            amplitude_after: p.amplitude,
        });
    }
    sweep.points.push(p.clone());
    Ok(p)
}

/// The sweep as a method output: its points as the series, its jump as
/// scalars, its counters.
pub fn output(sweep: &Sweep, label: &str, counter: &str) -> MethodOutput {
    let n = sweep.points.first().map_or(0, |p| p.x_max.len());
    let col = |f: &dyn Fn(&SweepPoint) -> f64| sweep.points.iter().map(f).collect::<Vec<f64>>();
    let mut series = Table::new()
        .with(
            "frequency",
            "forcing frequency omega [rad/s]",
            col(&|p| p.omega),
        )
        .with(
            "amplitude",
            format!("max |x0| over the measured periods, `{label}` [m]"),
            col(&|p| p.amplitude),
        );
    super::branch::push_extremes(&mut series, &sweep.points, n, "the measured periods", |p| {
        (&p.x_max, &p.x_min)
    });
    series.push(
        "settle_periods",
        "forcing periods integrated before measuring [-]",
        col(&|p| p.settle_periods as f64),
    );
    series.push(
        "settle_change",
        "|z_N - z_(N-1)|_inf / |z_N|_inf of the period-end states [x, v] over the last settling period [-]",
        col(&|p| p.settle_change),
    );
    series.push(
        "refined",
        "1 for a point of a halved step near a jump, 0 for a grid point [-]",
        col(&|p| f64::from(u8::from(p.refined))),
    );
    let mut scalars = vec![
        Scalar::new(
            "jumps",
            sweep.jumps.len() as f64,
            "jumps found by the sweep (consecutive grid amplitudes differing by more than jump_ratio) [-]",
        ),
        Scalar::new(
            "sweep_points",
            sweep.points.len() as f64,
            "settled frequencies of the sweep, the halved steps' points included [-]",
        ),
        Scalar::new(
            "max_settle_change",
            sweep
                .points
                .iter()
                .map(|p| p.settle_change)
                .fold(0.0, f64::max),
            "largest relative change of the period-end state over the last settling period, over the sweep's points [-]",
        ),
    ];
    if let Some(j) = sweep.jumps.first() {
        scalars.push(Scalar::new(
            "jump_omega",
            j.omega(),
            "the sweep's first jump: midpoint of the last (halved) step across it [rad/s]",
        ));
        scalars.push(Scalar::new(
            "jump_resolution",
            j.resolution(),
            "half that step [rad/s]",
        ));
        scalars.push(Scalar::new(
            "jump_amplitude_before",
            j.amplitude_before,
            "amplitude at the step's start, before the jump [m]",
        ));
        scalars.push(Scalar::new(
            "jump_amplitude_after",
            j.amplitude_after,
            "amplitude at the step's end, after the jump [m]",
        ));
    }
    let s = &sweep.stats;
    MethodOutput {
        series,
        tables: Vec::new(),
        scalars,
        counters: vec![
            ("steps".into(), s.steps as f64),
            (counter.into(), s.solver_iterations as f64),
            ("factorizations".into(), s.factorizations as f64),
            ("max_active".into(), s.max_active as f64),
        ],
        stats: vec![("max_residual".into(), s.max_residual)],
    }
}
