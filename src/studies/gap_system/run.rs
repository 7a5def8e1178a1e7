//! Running a gap-system case: each method on its own (the harness times it
//! and isolates its failure), the exact event-driven reference as a job of
//! its own, and the comparison of every method with the reference.

use crate::error::SolverError;
use crate::harness::checks::curve_difference;
use crate::harness::clock::Stopwatch;
use crate::harness::study::{
    CaseTable, MethodOutput, MethodResult, ReferenceOutput, Scalar, Timing,
};
use crate::harness::table::Table;
use crate::integrators::event_driven::{self, EventDrivenOptions};
use crate::integrators::newmark::{self, NewmarkParams, StepStats, Trajectory};
use crate::studies::gap_system::spec::{CaseConfig, MethodConfig};

/// Runs method `method` over the whole case: its series, its own scalars
/// and its counters.
pub fn run_method(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
) -> Result<MethodOutput, SolverError> {
    progress.set_length(cfg.steps as u64);
    let (traj, stats) = integrate(cfg, method, progress)?;
    let traj = match cfg.steady_state {
        Some(ss) => tail_of(&traj, ss.measure_periods * ss.steps_per_period + 1),
        None => traj,
    };
    let mut scalars = vec![
        Scalar::new("steps", stats.steps as f64, "time steps taken"),
        Scalar::new(
            "max_active",
            stats.max_active as f64,
            "largest number of engaged gap springs at the end of a step",
        ),
        Scalar::new(
            "iterations_per_step",
            stats.solver_iterations as f64 / (stats.steps.max(1) as f64),
            format!(
                "{} per time step",
                iterations_counter(method).replace('_', " ")
            ),
        ),
    ];
    if cfg.steady_state.is_some() {
        extrema_scalars(&mut scalars, &traj);
    }
    if cfg.system.excitation.amplitude.iter().all(|a| *a == 0.0) {
        if let Some(i) = traj.dofs.iter().position(|&d| d == 0)
            && let Some(freq) = zero_crossing_frequency(&traj.t, &column(&traj, i))
        {
            scalars.push(Scalar::new("x0_frequency", freq, "free-vibration frequency of x0 from upward zero crossings (linear interpolation) [rad/s]"));
        }
        if let Some(rho) = spectral_radius(cfg, &traj) {
            scalars.push(Scalar::new(
                "spectral_radius",
                rho,
                "free SDOF vibration: spectral radius of the step's amplification matrix, fitted by least squares to the trajectory (s_k -> s_k+1, s = (sqrt(k/m) x, v)) over the samples above 1e-10 of the initial energy [-]",
            ));
        }
    }
    scalars.push(Scalar::new(
        "max_residual",
        stats.max_residual,
        "largest relative residual of the step equation over the steps (every step is graded; above 1e-8 the run fails) [-]",
    ));
    let mean_active = if stats.steps > 0 {
        stats.active_sum as f64 / stats.steps as f64
    } else {
        0.0
    };
    let mut tables = Vec::new();
    if let Some(env) = &traj.envelope
        && cfg.system.dofs() <= MAX_ENVELOPE_ROWS
    {
        let idx: Vec<f64> = (0..env.x_max.len()).map(|i| i as f64).collect();
        tables.push(CaseTable {
            what: "envelope".into(),
            doc: "largest and smallest displacement of every DOF over every step of the run".into(),
            table: Table::new()
                .with("dof", "DOF index j [-]", idx)
                .with("x_max", "largest x_j over the run [m]", env.x_max.clone())
                .with("x_min", "smallest x_j over the run [m]", env.x_min.clone()),
        });
    }
    Ok(MethodOutput {
        series: trajectory_table(&traj, &format!("`{}`", method.label)),
        tables,
        scalars,
        counters: counters(&stats, method),
        stats: vec![
            ("mean_active".into(), mean_active),
            ("max_residual".into(), stats.max_residual),
        ],
    })
}

/// Above this many DOFs the per-DOF envelope is not written (its table
/// would have a row per DOF); the series still carries the extremes over
/// all DOFs at each output time.
pub const MAX_ENVELOPE_ROWS: usize = 10_000;

/// The name of the counter of the step solver's iterations.
pub fn iterations_counter(method: &MethodConfig) -> &'static str {
    method.method.iterations_counter(method.lcp_solver)
}

fn counters(stats: &StepStats, method: &MethodConfig) -> Vec<(String, f64)> {
    vec![
        ("steps".into(), stats.steps as f64),
        (
            iterations_counter(method).into(),
            stats.solver_iterations as f64,
        ),
        ("factorizations".into(), stats.factorizations as f64),
        ("max_active".into(), stats.max_active as f64),
    ]
}

/// Integrates the case with one method.
pub(crate) fn integrate(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
) -> Result<(Trajectory, StepStats), SolverError> {
    let params = NewmarkParams {
        dt: cfg.dt,
        steps: cfg.steps,
        alpha_b: cfg.alpha_b,
        output_every: cfg.output_every,
    };
    let on_progress = |k: usize| progress.inc(k as u64);
    let mut step =
        method
            .method
            .step_solver(&cfg.system, &params, method.lcp_solver, &method.lcp_options)?;
    newmark::integrate(
        &cfg.system,
        &params,
        &cfg.x0,
        &cfg.v0,
        step.as_mut(),
        &cfg.recording,
        on_progress,
    )
}

/// The output times of a method run: every `output_every`-th step (the
/// steady state's measured periods only), computed as the integrator
/// computes them, so that the reference sits at exactly the same times.
pub fn output_times(cfg: &CaseConfig) -> Vec<f64> {
    let all = (0..=cfg.steps)
        .step_by(cfg.output_every)
        .map(|step| step as f64 * cfg.dt);
    match cfg.steady_state {
        Some(ss) => {
            let keep = ss.measure_periods * ss.steps_per_period + 1;
            let times: Vec<f64> = all.collect();
            times[times.len().saturating_sub(keep)..].to_vec()
        }
        None => all.collect(),
    }
}

/// The timings tables' name of the exact reference's run.
pub const REFERENCE_METHOD: &str = "event-driven";

/// The exact event-driven reference at the methods' output times (steady
/// state: the periodic orbit by shooting, sampled over the measured window).
pub fn exact_reference(cfg: &CaseConfig) -> Result<ReferenceOutput, SolverError> {
    let mut options = EventDrivenOptions::default();
    if let Some(s) = cfg.exact_samples_per_period {
        options.samples_per_period = s;
    }
    let times = output_times(cfg);
    let mut scalars = Vec::new();
    let watch = Stopwatch::start();
    let (traj, doc) = match &cfg.steady_state {
        Some(ss) => {
            let orbit = event_driven::steady_state(
                &cfg.system,
                &cfg.x0,
                &cfg.v0,
                ss.settle_periods,
                &options,
            )?;
            let t0 = times.first().copied().unwrap_or(0.0);
            let shifted: Vec<f64> = times.iter().map(|t| t - t0).collect();
            let mut ex =
                event_driven::simulate(&cfg.system, &orbit.x0, &orbit.v0, &shifted, &options)?;
            ex.t = times.clone();
            for i in 0..cfg.system.dofs() {
                for (what, value, meaning) in [
                    ("max", orbit.x_max[i], "max"),
                    ("min", orbit.x_min[i], "min"),
                    (
                        "amp",
                        0.5 * (orbit.x_max[i] - orbit.x_min[i]),
                        "half peak-to-peak",
                    ),
                ] {
                    scalars.push(Scalar::new(
                        format!("exact_x{i}_{what}"),
                        value,
                        format!("{meaning} of x{i} over the exact periodic orbit [m]"),
                    ));
                }
            }
            let mult = orbit.multipliers.iter().fold(0.0f64, |m, v| m.max(*v));
            scalars.push(Scalar::new(
                "exact_multiplier",
                mult,
                "largest |Floquet multiplier| of the exact orbit (< 1: stable)",
            ));
            scalars.push(Scalar::new(
                "exact_stable",
                if orbit.stable { 1.0 } else { 0.0 },
                "1 when the exact periodic orbit is stable",
            ));
            (
                ex,
                "exact periodic orbit: event-driven shooting (matrix exponential between switches, Newton on the period map), sampled at the case's times",
            )
        }
        None => (
            event_driven::simulate(&cfg.system, &cfg.x0, &cfg.v0, &times, &options)?,
            "exact event-driven solution: matrix exponential between switches, switching times by root finding",
        ),
    };
    let (wall_s, cpu_s) = watch.elapsed();
    if cfg.system.excitation.amplitude.iter().all(|a| *a == 0.0)
        && let Some(freq) =
            zero_crossing_frequency(&traj.t, &traj.x.iter().map(|x| x[0]).collect::<Vec<_>>())
    {
        scalars.push(Scalar::new(
            "exact_x0_frequency",
            freq,
            "free-vibration frequency of x0 from the exact solution sampled at the same times [rad/s]",
        ));
    }
    let n = cfg.system.dofs();
    let m = cfg.system.springs.len();
    let dofs = cfg
        .recording
        .dofs
        .clone()
        .unwrap_or_else(|| (0..n).collect());
    let exact = Trajectory {
        t: traj.t,
        x: traj
            .x
            .iter()
            .map(|x| dofs.iter().map(|&i| x[i]).collect())
            .collect(),
        v: traj
            .v
            .iter()
            .map(|v| dofs.iter().map(|&i| v[i]).collect())
            .collect(),
        f: traj
            .f
            .iter()
            .map(|f| dofs.iter().filter(|&&j| j < m).map(|&j| f[j]).collect())
            .collect(),
        springs: dofs.iter().copied().filter(|&j| j < m).collect(),
        dofs,
        envelope: None,
    };
    Ok(ReferenceOutput {
        tables: vec![CaseTable {
            what: "exact".into(),
            doc: doc.into(),
            table: trajectory_table(&exact, "exact"),
        }],
        scalars,
        timings: vec![Timing {
            method: REFERENCE_METHOD.into(),
            wall_s,
            cpu_s,
            cpu_s_spread: 0.0,
            runs: 1,
            counters: vec![
                ("events".into(), traj.events as f64),
                ("regimes".into(), traj.regimes as f64),
            ],
            stats: vec![],
        }],
    })
}

/// Adds to every successful method its errors against the case's reference
/// (the exact table or the reference file): max and rms over the written
/// DOFs and samples.
pub fn compare(
    cfg: &CaseConfig,
    reference: Option<&ReferenceOutput>,
    methods: &mut [MethodResult],
) -> Result<(), SolverError> {
    let table = reference
        .and_then(|r| r.tables.iter().find(|t| t.what == "exact"))
        .map(|t| (&t.table, "x_exact"))
        .or(cfg
            .reference_file
            .as_ref()
            .map(|(_, t)| (t.as_ref(), "x_ref")));
    let Some((reference, name)) = table else {
        return Ok(());
    };
    for m in methods.iter_mut() {
        let label = m.label().to_string();
        let Ok(run) = &mut m.outcome else { continue };
        let series = &run.output.series;
        let dx = curve_difference(series, reference, "x*", None).map_err(|message| {
            SolverError::other(
                label.clone(),
                format!("comparing with the reference: {message}"),
            )
        })?;
        let dv = curve_difference(series, reference, "v*", None).ok();
        let df = curve_difference(series, reference, "f*", None).ok();
        let scalars = &mut run.output.scalars;
        if cfg.reference_same_scheme {
            // A peer running the same discrete scheme: agreement, not error.
            let file = cfg.reference_file.as_ref().map_or("", |(f, _)| f.as_str());
            let with = format!(
                "agreement with {file} (a peer running the same discrete scheme at the same steps: rounding, not accuracy)"
            );
            scalars.push(Scalar::new(
                "max_agreement_x",
                dx.max_abs,
                format!("max over samples and written DOFs of |x - x of the peer|: {with} [m]"),
            ));
            scalars.push(Scalar::new(
                "rms_agreement_x",
                dx.rms(),
                format!("root mean square over samples and written DOFs of x - x of the peer: {with} [m]"),
            ));
            if let Some(dv) = dv {
                scalars.push(Scalar::new(
                    "max_agreement_v",
                    dv.max_abs,
                    format!(
                        "max over samples and written DOFs of |v - v of the peer|: {with} [m/s]"
                    ),
                ));
            }
            if let Some(df) = df {
                scalars.push(Scalar::new(
                    "max_agreement_f",
                    df.max_abs,
                    format!(
                        "max over samples and written springs of |f - f of the peer|: {with} [N]"
                    ),
                ));
            }
            continue;
        }
        let per_dt2 = 1.0 / (cfg.dt * cfg.dt);
        scalars.push(Scalar::new(
            "max_error_x",
            dx.max_abs,
            format!("max over samples and written DOFs of |x - {name}| [m]"),
        ));
        scalars.push(Scalar::new(
            "error_constant_x",
            dx.max_abs * per_dt2,
            "max_error_x / dt^2: the constant C of the second-order error C dt^2 [m/s^2]",
        ));
        scalars.push(Scalar::new(
            "rms_error_x",
            dx.rms(),
            format!("root mean square over samples and written DOFs of x - {name} [m]"),
        ));
        scalars.push(Scalar::new(
            "rel_rms_error_x",
            (dx.sum_sq / dx.sum_ref_sq).sqrt(),
            format!(
                "rms_error_x over the reference's root mean square ({name} over the same samples and DOFs): the error as a share of the response [-]"
            ),
        ));
        if let Some(dv) = dv {
            scalars.push(Scalar::new(
                "max_error_v",
                dv.max_abs,
                "max over samples and written DOFs of |v - v of the reference| [m/s]",
            ));
            scalars.push(Scalar::new(
                "error_constant_v",
                dv.max_abs * per_dt2,
                "max_error_v / dt^2 [m/s^3]",
            ));
        }
        if let Some(df) = df {
            scalars.push(Scalar::new(
                "max_error_f",
                df.max_abs,
                "max over samples and written springs of |f - f of the reference| [N]",
            ));
            scalars.push(Scalar::new(
                "error_constant_f",
                df.max_abs * per_dt2,
                "max_error_f / dt^2 [N/s^2]",
            ));
        }
    }
    Ok(())
}

/// The last `k` samples of a trajectory.
fn tail_of(traj: &Trajectory, k: usize) -> Trajectory {
    let start = traj.t.len().saturating_sub(k);
    Trajectory {
        t: traj.t[start..].to_vec(),
        x: traj.x[start..].to_vec(),
        v: traj.v[start..].to_vec(),
        f: traj.f[start..].to_vec(),
        dofs: traj.dofs.clone(),
        springs: traj.springs.clone(),
        envelope: traj.envelope.clone(),
    }
}

/// The recorded samples of the `i`-th recorded DOF.
fn column(traj: &Trajectory, i: usize) -> Vec<f64> {
    traj.x.iter().map(|x| x[i]).collect()
}

/// `t, x<i>.., v<i>.., f<j>..` for the recorded DOFs and springs, with
/// documented columns; with an envelope also `x_max_all`, `x_min_all` and
/// `active` (extremes over all DOFs and engaged springs at each time).
pub fn trajectory_table(traj: &Trajectory, source: &str) -> Table {
    let src = if source.is_empty() {
        String::new()
    } else {
        format!(", {source}")
    };
    let mut table = Table::new().with("t", "time [s]", traj.t.clone());
    for (k, &i) in traj.dofs.iter().enumerate() {
        table.push(
            format!("x{i}"),
            format!("displacement of DOF {i} [m]{src}"),
            traj.x.iter().map(|x| x[k]).collect(),
        );
    }
    for (k, &i) in traj.dofs.iter().enumerate() {
        table.push(
            format!("v{i}"),
            format!("velocity of DOF {i} [m/s]{src}"),
            traj.v.iter().map(|v| v[k]).collect(),
        );
    }
    for (k, &j) in traj.springs.iter().enumerate() {
        table.push(
            format!("f{j}"),
            format!("force of gap spring {j}, k_j max(0, d_j.x - g_j) [N]{src}"),
            traj.f.iter().map(|f| f[k]).collect(),
        );
    }
    if let Some(env) = &traj.envelope {
        let start = env.max_over_dofs.len() - traj.t.len();
        table.push(
            "x_max_all",
            format!("largest displacement over all DOFs [m]{src}"),
            env.max_over_dofs[start..].to_vec(),
        );
        table.push(
            "x_min_all",
            format!("smallest displacement over all DOFs [m]{src}"),
            env.min_over_dofs[start..].to_vec(),
        );
        table.push(
            "active",
            format!("number of engaged gap springs [-]{src}"),
            env.active[start..].to_vec(),
        );
    }
    table
}

fn extrema_scalars(scalars: &mut Vec<Scalar>, traj: &Trajectory) {
    for (k, &i) in traj.dofs.iter().enumerate() {
        let xs = traj.x.iter().map(|x| x[k]);
        let max = xs.clone().fold(f64::NEG_INFINITY, f64::max);
        let min = xs.fold(f64::INFINITY, f64::min);
        scalars.push(Scalar::new(
            format!("x{i}_max"),
            max,
            format!("max of x{i} over the measured periods [m]"),
        ));
        scalars.push(Scalar::new(
            format!("x{i}_min"),
            min,
            format!("min of x{i} over the measured periods [m]"),
        ));
        scalars.push(Scalar::new(
            format!("x{i}_amp"),
            0.5 * (max - min),
            format!("half peak-to-peak of x{i} over the measured periods [m]"),
        ));
    }
}

/// The spectral radius of the step on a free SDOF vibration, measured from
/// the trajectory: the samples s_k = (sqrt(k/m) x_k, v_k) of a linear
/// oscillator obey s_{k+1} = T s_k with T the step's 2 x 2 amplification
/// matrix (in these coordinates; the Bossak step's third state component,
/// the acceleration, only adds an eigenvalue near 0 that vanishes after
/// one step). T is fitted by least squares over the samples whose energy
/// is above 1e-10 of the initial one (the first sample skipped), and
/// rho = max |eig(T)|, for every step (T over `output_every` steps is
/// T^output_every). A least-squares slope of the energy would not do: at
/// high frequency the two eigenvalues nearly coincide and the amplitude
/// grows like k rho^k at first. None for other systems or too few samples.
fn spectral_radius(cfg: &CaseConfig, traj: &Trajectory) -> Option<f64> {
    if cfg.system.dofs() != 1 || traj.dofs.len() != 1 {
        return None;
    }
    let m = cfg.system.mass.get(0, 0).copied()?;
    let k = cfg.system.stiffness.get(0, 0).copied().unwrap_or(0.0);
    if !(k > 0.0 && m > 0.0) {
        return None;
    }
    let w = (k / m).sqrt();
    let s: Vec<[f64; 2]> = traj
        .x
        .iter()
        .zip(&traj.v)
        .map(|(x, v)| [w * x[0], v[0]])
        .collect();
    let energy = |p: &[f64; 2]| p[0] * p[0] + p[1] * p[1];
    let e0 = energy(s.first()?);
    let n = s
        .iter()
        .skip(1)
        .take_while(|p| energy(p) > 1e-10 * e0)
        .count();
    if n < 4 {
        return None;
    }
    let (mut a, mut b) = ([[0.0f64; 2]; 2], [[0.0f64; 2]; 2]);
    for k in 1..n {
        let (p, q) = (s[k], s[k + 1]);
        for i in 0..2 {
            for j in 0..2 {
                a[i][j] += q[i] * p[j];
                b[i][j] += p[i] * p[j];
            }
        }
    }
    let det_b = b[0][0] * b[1][1] - b[0][1] * b[1][0];
    if det_b == 0.0 || !det_b.is_finite() {
        return None;
    }
    let inv = [
        [b[1][1] / det_b, -b[0][1] / det_b],
        [-b[1][0] / det_b, b[0][0] / det_b],
    ];
    let t = |i: usize, j: usize| a[i][0] * inv[0][j] + a[i][1] * inv[1][j];
    let (tr, det) = (t(0, 0) + t(1, 1), t(0, 0) * t(1, 1) - t(0, 1) * t(1, 0));
    let disc = tr * tr / 4.0 - det;
    let rho = if disc >= 0.0 {
        (tr / 2.0).abs() + disc.sqrt()
    } else {
        det.abs().sqrt()
    };
    Some(rho.powf(1.0 / cfg.output_every as f64))
}

/// Mean angular frequency from upward zero crossings (linear interpolation
/// between samples: O(dt^2) accurate); None with fewer than two crossings.
pub fn zero_crossing_frequency(t: &[f64], x: &[f64]) -> Option<f64> {
    let crossings: Vec<f64> = t
        .windows(2)
        .zip(x.windows(2))
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(tt, w)| tt[0] + (tt[1] - tt[0]) * (-w[0]) / (w[1] - w[0]))
        .collect();
    if crossings.len() < 2 {
        return None;
    }
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    Some(2.0 * std::f64::consts::PI / period)
}

/// The two frequencies w1 = sqrt(k/m), w2 = sqrt((k + k_g)/m) of an SDOF
/// with one gap spring.
fn bilinear_pair(cfg: &CaseConfig) -> Option<(f64, f64)> {
    let s = &cfg.system;
    if s.dofs() != 1 || s.springs.len() != 1 {
        return None;
    }
    let m = s.mass.get(0, 0).copied()?;
    let k = s.stiffness.get(0, 0).copied().unwrap_or(0.0);
    let d = s.springs.directions.get(0, 0).copied()?;
    let kg = s.springs.stiffness[0] * d * d;
    let (w1, w2) = ((k / m).sqrt(), ((k + kg) / m).sqrt());
    (w1 > 0.0).then_some((w1, w2))
}

/// The free frequency of the zero-gap SDOF under the trapezoidal rule
/// (alpha_b = 0): on each linear half the discrete map rotates by
/// 2 atan(w dt / 2) per step, i.e. at w' = (2 / dt) atan(w dt / 2), so the
/// discrete bilinear frequency is 2 w1' w2' / (w1' + w2') up to the O(dt^2)
/// error of the two switching steps per period. None unless alpha_b = 0.
pub fn trapezoidal_bilinear_frequency(cfg: &CaseConfig) -> Option<f64> {
    if cfg.alpha_b != 0.0 {
        return None;
    }
    let (w1, w2) = bilinear_pair(cfg)?;
    let h = cfg.dt;
    let discrete = |w: f64| 2.0 / h * (w * h / 2.0).atan();
    let (a, b) = (discrete(w1), discrete(w2));
    Some(2.0 * a * b / (a + b))
}

/// 2 w1 w2 / (w1 + w2) for an SDOF with one gap spring (the zero-gap case's
/// free frequency: half a period at w1, half at w2).
pub fn bilinear_frequency(cfg: &CaseConfig) -> Option<f64> {
    let (w1, w2) = bilinear_pair(cfg)?;
    Some(2.0 * w1 * w2 / (w1 + w2))
}

/// The spectral radius at infinite frequency of the Bossak-Newmark step
/// with beta = (1 - alpha_b)^2 / 4, gamma = 1/2 - alpha_b:
/// rho_inf = (1 + alpha_b) / (1 - alpha_b) (Wood, Bossak & Zienkiewicz,
/// IJNME 15 (1980) 1562-1566).
pub fn bossak_rho_inf(alpha_b: f64) -> f64 {
    (1.0 + alpha_b) / (1.0 - alpha_b)
}
