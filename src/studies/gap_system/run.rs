//! Running one gap-system case: every method of the case, the exact
//! event-driven reference, and the case's scalars.

use crate::error::SolverError;
use crate::harness::checks::curve_difference;
use crate::harness::clock::Stopwatch;
use crate::harness::study::{CaseOutput, CaseTable, Scalar, Timing};
use crate::harness::table::Table;
use crate::integrators::event_driven::{self, EventDrivenOptions};
use crate::integrators::newmark::{
    self, DenseLcpStep, NewmarkParams, SparseNewtonStep, StepSolver, StepStats, Trajectory,
};
use crate::lcp::{LcpOptions, LcpSolverKind};
use crate::studies::gap_system::spec::{CaseConfig, MethodConfig};

/// Runs every method of the case and its reference.
pub fn run_case(
    name: &str,
    cfg: &CaseConfig,
    progress: &indicatif::ProgressBar,
) -> Result<CaseOutput, SolverError> {
    let n = cfg.system.dofs();
    let methods: Vec<&MethodConfig> = cfg.methods.iter().filter(|m| m.runs_at(n)).collect();
    progress.set_length(cfg.steps as u64 * methods.len() as u64);
    let mut timings = Vec::new();
    let mut runs: Vec<(MethodConfig, Trajectory)> = Vec::new();
    for method in methods {
        let watch = Stopwatch::start();
        let (traj, stats) = run_method(cfg, method, progress)?;
        let (mut wall_s, mut cpu_s) = watch.elapsed();
        // Short runs are timed again (best of the repetitions), so that a
        // 30 ms run is not at the mercy of one scheduler hiccup.
        let mut timing_runs = 1;
        let mut cpu_total = cpu_s;
        while cpu_total < MIN_TIMED_CPU_S && timing_runs < MAX_TIMING_RUNS {
            let watch = Stopwatch::start();
            let (_, again) = run_method(cfg, method, &indicatif::ProgressBar::hidden())?;
            let (wall, cpu) = watch.elapsed();
            if again != stats {
                return Err(SolverError::Other {
                    method: method.label.clone(),
                    message: format!(
                        "a repeated run gave other counters ({again:?} vs {stats:?}): not deterministic"
                    ),
                });
            }
            wall_s = wall_s.min(wall);
            cpu_s = cpu_s.min(cpu);
            cpu_total += cpu;
            timing_runs += 1;
        }
        let mean_active = if stats.steps > 0 {
            stats.active_sum as f64 / stats.steps as f64
        } else {
            0.0
        };
        timings.push(Timing {
            method: method.label.clone(),
            wall_s,
            cpu_s,
            counters: counters(&stats, method),
            stats: vec![
                ("mean_active".into(), mean_active),
                ("timing_runs".into(), timing_runs as f64),
            ],
        });
        runs.push((method.clone(), traj));
    }
    let measured = cfg
        .steady_state
        .map(|ss| ss.measure_periods * ss.steps_per_period);
    let tail = |traj: &Trajectory| match measured {
        Some(k) => tail_of(traj, k + 1),
        None => traj.clone(),
    };
    let runs: Vec<(MethodConfig, Trajectory)> = runs
        .into_iter()
        .map(|(m, t)| {
            let t2 = tail(&t);
            (m, t2)
        })
        .collect();

    let mut scalars = Vec::new();
    let mut tables = Vec::new();
    let exact = if cfg.exact {
        Some(exact_reference(
            cfg,
            &runs[0].1,
            &mut timings,
            &mut scalars,
        )?)
    } else {
        None
    };

    let (primary, primary_traj) = &runs[0];
    let dofs = cfg.output_dofs.as_deref();
    let series = trajectory_table(primary_traj, &format!("`{}`", primary.label), dofs);
    if let Some(ss) = &cfg.steady_state {
        scalars.push(Scalar::new(
            "omega",
            cfg.system.excitation.omega,
            "forcing frequency omega [rad/s]",
        ));
        let _ = ss;
        for (m, traj) in &runs {
            extrema_scalars(&mut scalars, traj, n, &suffix(m, primary));
        }
    }
    let reference = exact.as_ref().map(|e| (&e.table, "x_exact")).or(cfg
        .reference_file
        .as_ref()
        .map(|(_, t)| (t.as_ref(), "x_ref")));
    if let Some((reference, name)) = reference {
        for (m, traj) in &runs {
            let table = trajectory_table(traj, "", None);
            let dx = curve_difference(&table, reference, "x*", None).map_err(|message| {
                SolverError::Other {
                    method: m.label.clone(),
                    message: format!("comparing with the reference: {message}"),
                }
            })?;
            let dv = curve_difference(&table, reference, "v*", None).ok();
            let sfx = suffix(m, primary);
            scalars.push(Scalar::new(
                format!("max_error_x{sfx}"),
                dx.max_abs,
                format!(
                    "max over samples and DOFs of |x - {name}| [m] ({})",
                    m.label
                ),
            ));
            scalars.push(Scalar::new(
                format!("rms_error_x{sfx}"),
                dx.rms(),
                format!(
                    "root mean square over samples and DOFs of x - {name} [m] ({})",
                    m.label
                ),
            ));
            if let Some(dv) = dv {
                scalars.push(Scalar::new(
                    format!("max_error_v{sfx}"),
                    dv.max_abs,
                    format!(
                        "max over samples and DOFs of |v - v of the reference| [m/s] ({})",
                        m.label
                    ),
                ));
            }
        }
    }
    if cfg.system.excitation.amplitude.iter().all(|a| *a == 0.0) {
        if let Some(freq) = zero_crossing_frequency(&primary_traj.t, &column(primary_traj, 0)) {
            scalars.push(Scalar::new("x0_frequency", freq, "free-vibration frequency of x0 from upward zero crossings (linear interpolation) [rad/s]"));
        }
        if let Some(ex) = &exact
            && let (Some(t), Some(x)) = (ex.table.values("t"), ex.table.values("x0"))
            && let Some(freq) = zero_crossing_frequency(t, x)
        {
            scalars.push(Scalar::new(
                "exact_x0_frequency",
                freq,
                "the same, from the exact solution sampled at the same times [rad/s]",
            ));
        }
    }
    if let Some(w) = bilinear_frequency(cfg) {
        scalars.push(Scalar::new("bilinear_frequency", w, "analytic 2 w1 w2 / (w1 + w2), w1 = sqrt(k/m), w2 = sqrt((k + k_g)/m): free frequency of the zero-gap SDOF [rad/s]"));
    }
    let steps = timings[0].counter("steps").unwrap_or(0.0);
    scalars.push(Scalar::new("dt", cfg.dt, "time step [s]"));
    scalars.push(Scalar::new(
        "steps",
        steps,
        "time steps of the primary method",
    ));
    for t in timings.iter().filter(|t| t.method != "event-driven") {
        let its = t
            .counters
            .iter()
            .find(|(k, _)| k == "newton_iterations" || k == "lcp_pivots" || k == "lcp_iterations");
        if let (Some((what, its)), Some(steps)) = (its, t.counter("steps")) {
            let sfx = if t.method == cfg.methods[0].label {
                String::new()
            } else {
                format!(".{}", t.method)
            };
            scalars.push(Scalar::new(
                format!("iterations_per_step{sfx}"),
                its / steps.max(1.0),
                format!("{what} per time step ({})", t.method),
            ));
        }
    }
    if let Some(t) = timings.first() {
        scalars.push(Scalar::new(
            "max_active",
            t.counter("max_active").unwrap_or(0.0),
            "largest number of engaged gap springs at a step (primary method)",
        ));
    }
    if let Some(ex) = exact {
        tables.push(ex);
    }
    for (m, traj) in runs.iter().skip(1) {
        let how = if m.method == "newmark-ssn" {
            String::new()
        } else {
            format!(" with LCP solver `{}`", m.lcp_solver.name())
        };
        tables.push(CaseTable {
            what: m.label.clone(),
            doc: format!("the same case integrated by `{}`{how}", m.method),
            table: trajectory_table(traj, "", dofs),
        });
    }
    Ok(CaseOutput {
        name: name.to_string(),
        series,
        tables,
        scalars,
        timings,
    })
}

/// A method whose run takes less CPU time than this is run again until the
/// runs add up to it (at most [`MAX_TIMING_RUNS`] runs); its timing is the
/// fastest run.
const MIN_TIMED_CPU_S: f64 = 0.25;

/// Upper bound on the runs of one method for its timing.
const MAX_TIMING_RUNS: usize = 20;

/// Scalar-name suffix of a method: empty for the primary, `.<label>` for variants.
fn suffix(m: &MethodConfig, primary: &MethodConfig) -> String {
    if m.label == primary.label {
        String::new()
    } else {
        format!(".{}", m.label)
    }
}

fn counters(stats: &StepStats, method: &MethodConfig) -> Vec<(String, f64)> {
    let iterations_name = match (method.method.as_str(), method.lcp_solver) {
        ("newmark-ssn", _) => "newton_iterations",
        (_, LcpSolverKind::Lemke) => "lcp_pivots",
        _ => "lcp_iterations",
    };
    vec![
        ("steps".into(), stats.steps as f64),
        (iterations_name.into(), stats.solver_iterations as f64),
        ("factorizations".into(), stats.factorizations as f64),
        ("max_active".into(), stats.max_active as f64),
    ]
}

/// Runs one method over the whole case.
fn run_method(
    cfg: &CaseConfig,
    method: &MethodConfig,
    progress: &indicatif::ProgressBar,
) -> Result<(Trajectory, StepStats), SolverError> {
    let params = NewmarkParams {
        dt: cfg.dt,
        steps: cfg.steps,
        alpha_b: cfg.alpha_b,
        output_every: cfg.output_every,
        lcp_solver: method.lcp_solver,
        lcp_options: LcpOptions::default(),
    };
    let on_progress = |k: usize| progress.inc(k as u64);
    let mut step: Box<dyn StepSolver> = match method.method.as_str() {
        "newmark-lcp" => {
            let k_eff = newmark::effective_stiffness(&cfg.system, &params);
            Box::new(DenseLcpStep::new(
                &cfg.system,
                &k_eff,
                params.lcp_solver,
                params.lcp_options.clone(),
            )?)
        }
        "newmark-ssn" => {
            let k_eff = newmark::effective_stiffness_sparse(&cfg.system, &params);
            Box::new(SparseNewtonStep::new(&cfg.system, &k_eff)?)
        }
        other => {
            return Err(SolverError::Other {
                method: other.into(),
                message: "unknown method".into(),
            });
        }
    };
    newmark::integrate(
        &cfg.system,
        &params,
        &cfg.x0,
        &cfg.v0,
        step.as_mut(),
        on_progress,
    )
}

/// The exact reference at the primary method's output times (steady-state
/// mode: the periodic orbit by shooting, then sampled over the measured window).
fn exact_reference(
    cfg: &CaseConfig,
    primary: &Trajectory,
    timings: &mut Vec<Timing>,
    scalars: &mut Vec<Scalar>,
) -> Result<CaseTable, SolverError> {
    let mut options = EventDrivenOptions::default();
    if let Some(s) = cfg.exact_samples_per_period {
        options.samples_per_period = s;
    }
    let watch = Stopwatch::start();
    let (traj, doc, events, regimes) = match &cfg.steady_state {
        Some(ss) => {
            let orbit = event_driven::steady_state(
                &cfg.system,
                &cfg.x0,
                &cfg.v0,
                ss.settle_periods,
                &options,
            )?;
            let t0 = primary.t.first().copied().unwrap_or(0.0);
            let times: Vec<f64> = primary.t.iter().map(|t| t - t0).collect();
            let mut ex =
                event_driven::simulate(&cfg.system, &orbit.x0, &orbit.v0, &times, &options)?;
            ex.t = primary.t.clone();
            let n = cfg.system.dofs();
            for i in 0..n {
                scalars.push(Scalar::new(
                    format!("exact_x{i}_max"),
                    orbit.x_max[i],
                    format!("max of x{i} over the exact periodic orbit [m]"),
                ));
                scalars.push(Scalar::new(
                    format!("exact_x{i}_min"),
                    orbit.x_min[i],
                    format!("min of x{i} over the exact periodic orbit [m]"),
                ));
                scalars.push(Scalar::new(
                    format!("exact_x{i}_amp"),
                    0.5 * (orbit.x_max[i] - orbit.x_min[i]),
                    format!("half peak-to-peak of x{i}, exact periodic orbit [m]"),
                ));
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
            let (e, r) = (ex.events, ex.regimes);
            (
                ex,
                "exact periodic orbit: event-driven shooting (matrix exponential between switches, Newton on the period map), sampled at the case's times",
                e,
                r,
            )
        }
        None => {
            let ex = event_driven::simulate(&cfg.system, &cfg.x0, &cfg.v0, &primary.t, &options)?;
            let (e, r) = (ex.events, ex.regimes);
            (
                ex,
                "exact event-driven solution: matrix exponential between switches, switching times by root finding",
                e,
                r,
            )
        }
    };
    let (wall_s, cpu_s) = watch.elapsed();
    timings.push(Timing {
        method: "event-driven".into(),
        wall_s,
        cpu_s,
        counters: vec![
            ("events".into(), events as f64),
            ("regimes".into(), regimes as f64),
        ],
        stats: vec![],
    });
    let table = trajectory_table(
        &Trajectory {
            t: traj.t,
            x: traj.x,
            v: traj.v,
            f: traj.f,
        },
        "exact",
        None,
    );
    Ok(CaseTable {
        what: "exact".into(),
        doc: doc.into(),
        table,
    })
}

/// The last `k` samples of a trajectory.
fn tail_of(traj: &Trajectory, k: usize) -> Trajectory {
    let start = traj.t.len().saturating_sub(k);
    Trajectory {
        t: traj.t[start..].to_vec(),
        x: traj.x[start..].to_vec(),
        v: traj.v[start..].to_vec(),
        f: traj.f[start..].to_vec(),
    }
}

fn column(traj: &Trajectory, i: usize) -> Vec<f64> {
    traj.x.iter().map(|x| x[i]).collect()
}

/// `t, x0.., v0.., f0..` with documented columns; `dofs` restricts the
/// DOFs (and the gap springs of the same indices) written.
pub fn trajectory_table(traj: &Trajectory, source: &str, dofs: Option<&[usize]>) -> Table {
    let src = if source.is_empty() {
        String::new()
    } else {
        format!(", {source}")
    };
    let mut table = Table::new().with("t", "time [s]", traj.t.clone());
    let n = traj.x.first().map_or(0, Vec::len);
    let m = traj.f.first().map_or(0, Vec::len);
    let all: Vec<usize> = (0..n.max(m)).collect();
    let keep = dofs.unwrap_or(&all);
    for &i in keep.iter().filter(|&&i| i < n) {
        table.push(
            format!("x{i}"),
            format!("displacement of DOF {i} [m]{src}"),
            traj.x.iter().map(|x| x[i]).collect(),
        );
    }
    for &i in keep.iter().filter(|&&i| i < n) {
        table.push(
            format!("v{i}"),
            format!("velocity of DOF {i} [m/s]{src}"),
            traj.v.iter().map(|v| v[i]).collect(),
        );
    }
    for &j in keep.iter().filter(|&&j| j < m) {
        table.push(
            format!("f{j}"),
            format!("force of gap spring {j}, k_j max(0, d_j.x - g_j) [N]{src}"),
            traj.f.iter().map(|f| f[j]).collect(),
        );
    }
    table
}

fn extrema_scalars(scalars: &mut Vec<Scalar>, traj: &Trajectory, n: usize, sfx: &str) {
    for i in 0..n {
        let xs = traj.x.iter().map(|x| x[i]);
        let max = xs.clone().fold(f64::NEG_INFINITY, f64::max);
        let min = xs.fold(f64::INFINITY, f64::min);
        scalars.push(Scalar::new(
            format!("x{i}_max{sfx}"),
            max,
            format!("max of x{i} over the measured periods [m]"),
        ));
        scalars.push(Scalar::new(
            format!("x{i}_min{sfx}"),
            min,
            format!("min of x{i} over the measured periods [m]"),
        ));
        scalars.push(Scalar::new(
            format!("x{i}_amp{sfx}"),
            0.5 * (max - min),
            format!("half peak-to-peak of x{i} over the measured periods [m]"),
        ));
    }
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

/// 2 w1 w2 / (w1 + w2) for an SDOF with one gap spring (the zero-gap case's
/// free frequency: half a period at w1, half at w2).
fn bilinear_frequency(cfg: &CaseConfig) -> Option<f64> {
    let s = &cfg.system;
    if s.dofs() != 1 || s.springs.len() != 1 {
        return None;
    }
    let m = s.mass.get(0, 0).copied()?;
    let k = s.stiffness.get(0, 0).copied().unwrap_or(0.0);
    let d = s.springs.directions.get(0, 0).copied()?;
    let kg = s.springs.stiffness[0] * d * d;
    let (w1, w2) = ((k / m).sqrt(), ((k + kg) / m).sqrt());
    (w1 > 0.0).then(|| 2.0 * w1 * w2 / (w1 + w2))
}
