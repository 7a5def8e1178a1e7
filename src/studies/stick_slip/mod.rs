//! Study kind `stick-slip`: the friction laws of the seed on friction in
//! contact joints (and Coulomb, Stribeck, LuGre) on a mass on a moving belt
//! held by a spring, against the exact piecewise-analytic Coulomb motion
//! ([`crate::models::belt::coulomb_exact`]). Each law is a method of the
//! case (`[friction]` and `[variants.<label>]`), run by the shared Moreau-Jean
//! time stepper ([`crate::integrators::moreau`], true sticking), RK4 or Dormand-Prince; the harness derives
//! work-precision and orders from sweeps of `integrator.dt`,
//! `integrator.tolerance` and the laws' sharpness keys.

pub mod cycles;
pub mod kernels;
pub mod run;
pub mod spec;
mod summary;

use crate::error::SolverError;
use crate::harness::checks::curve_difference;
use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run};
use crate::harness::study::{
    CaseOutput, CaseTable, Measures, MethodOutput, ReferenceOutput, Scalar, StudySummary,
};
use crate::harness::study::{Provides, names};
use crate::harness::table::Table;
use crate::models::belt::coulomb_exact;

use spec::{CaseConfig, Integrator, Reference};
use summary::AT_THRESHOLD;

/// The index of the method labelled `label`.
fn m_index(methods: &[spec::MethodConfig], label: &str) -> usize {
    methods.iter().position(|m| m.label == label).unwrap_or(0)
}

const COUNTER_DOCS: [(&str, &str); 5] = [
    ("steps", "accepted time steps [-]"),
    ("rejected_steps", "steps rejected by the error control [-]"),
    (
        "rhs_evaluations",
        "evaluations of the ODE's right-hand side (rk4, dopri5) [-]",
    ),
    (
        "stick_steps",
        "steps that end stuck (moreau: the complementarity chose u = 0; ODE methods: |u| <= stick_threshold) [-]",
    ),
    (
        "newton_iterations",
        "Newton iterations of the local slip equation over the run (moreau) [-]",
    ),
];

/// The cycle quantities compared with the exact motion: (name, unit).
const CYCLE: [(&str, &str); 6] = [
    ("stick_duration", "s"),
    ("slip_duration", "s"),
    ("period", "s"),
    ("x_max", "m"),
    ("x_min", "m"),
    ("amplitude", "m"),
];

/// The cycle quantities that depend on the stick threshold.
const THRESHOLD_DEPENDENT: [&str; 3] = ["stick_duration", "slip_duration", "period"];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.integrator.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    let by = match m.integrator {
        Integrator::Moreau => {
            "Moreau time stepping (theta = 1/2, friction impulse implicit, true sticking)"
        }
        Integrator::Rk4 => "classical Runge-Kutta, fixed step",
        Integrator::Dopri5 => "Dormand-Prince 5(4) with error control",
        Integrator::Imex => {
            "the seed's formulation (no sticking limit) by Moreau steps with the friction force explicit"
        }
    };
    format!("{} friction by {by}", m.law_name)
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// The set-valued law with time stepping (exact sticking), else the
    /// first method.
    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        study.baseline_or_first(|m| m.integrator == Integrator::Moreau)
    }

    fn provides(study: &Cases<Self>) -> Provides {
        let mut method_scalars = names(&[
            "steps",
            "min_dissipated",
            "max_balance_error",
            "relative_balance_error",
            "cycles",
            "cycle_error",
            "cycle_error_steps",
            "max_error_x",
            "max_error_v",
        ]);
        let mut case_scalars = names(&["dt", "tolerance"]);
        method_scalars.push("stick_threshold".into());
        let lugre = study
            .cases
            .iter()
            .flat_map(|c| &c.methods)
            .any(|m| run::lugre(m).is_some());
        if lugre {
            method_scalars.extend(names(&[
                "dissipative_speed",
                "peak_slip_speed",
                "dissipative_margin",
            ]));
        }
        for (name, _) in CYCLE {
            method_scalars.push(name.to_string());
            method_scalars.push(format!("{name}_error"));
            case_scalars.push(format!("exact_{name}"));
        }
        for name in THRESHOLD_DEPENDENT {
            case_scalars.push(format!("exact_{name}{AT_THRESHOLD}"));
        }
        let referenced = study.cases.iter().any(CaseKind::has_reference);
        Provides {
            study_scalars: Vec::new(),
            method_scalars,
            case_scalars,
            columns: names(&[
                "t",
                "x",
                "v",
                "slip",
                "friction",
                "energy",
                "dissipated",
                "work",
                "balance_error",
                "z",
            ]),
            tables: if referenced {
                names(&["exact"])
            } else {
                Vec::new()
            },
            methods: Vec::new(),
        }
    }

    /// The error is the cycle's; the cost parameters are the step, the
    /// tolerance and a swept regularisation key of a variant (its label's
    /// work-precision line runs along the law's sharpness).
    fn measures(study: &Cases<Self>) -> Measures {
        let mut method_cost_keys: Vec<(String, String)> = study
            .sweep_keys
            .iter()
            .filter_map(|key| {
                let mut parts = key.split('.');
                let (Some("variants"), Some(label), Some(param)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    return None;
                };
                crate::studies::shared::figures::SHARPNESS
                    .contains(&param)
                    .then(|| (label.to_string(), key.clone()))
            })
            .collect();
        let mut cost_keys: Vec<String> =
            vec!["integrator.dt".into(), "integrator.tolerance".into()];
        cost_keys.extend(method_cost_keys.iter().map(|(_, k)| k.clone()));
        method_cost_keys.push((
            Integrator::Dopri5.name().into(),
            "integrator.tolerance".into(),
        ));
        Measures {
            error: Some((
                "cycle_error".into(),
                "max(|stick duration - exact|, |slip duration - exact|) of the last full cycle [s]"
                    .into(),
            )),
            cost_keys,
            step_keys: vec!["integrator.dt".into()],
            method_cost_keys,
        }
    }

    fn has_reference(&self) -> bool {
        matches!(self.reference, Reference::CoulombExact { .. })
    }

    /// The exact Coulomb motion at the output times and its last cycle.
    fn run_reference(&self, _progress: &Progress) -> Run<ReferenceOutput> {
        let cfg = self;
        let fail = |message: String| SolverError::other("exact", message);
        let Reference::CoulombExact {
            static_coefficient,
            kinetic_coefficient,
        } = cfg.reference
        else {
            return Err(fail("the case has no exact reference".into()));
        };
        // A cycle has four phases at most; bound the phase changes by the
        // number of half periods of the slip oscillation plus the sticks.
        let half_periods = cfg.span.t_end * cfg.belt.omega() / std::f64::consts::PI;
        let bound = (8.0 * half_periods + 64.0).min(1e7) as usize;
        let motion = coulomb_exact(
            cfg.belt,
            static_coefficient,
            kinetic_coefficient,
            cfg.x0,
            cfg.v0,
            cfg.span.t_end,
            bound,
        )
        .map_err(|e| fail(e.to_string()))?;
        let t: Vec<f64> = (0..=cfg.span.outputs)
            .map(|k| k as f64 * cfg.span.output_interval)
            .collect();
        let states: Vec<_> = t.iter().map(|&t| motion.state(t)).collect();
        let vb = cfg.belt.belt_speed;
        let table = Table::new()
            .with("t", "time [s]", t)
            .with(
                "x",
                "exact position [m]",
                states.iter().map(|s| s.x).collect(),
            )
            .with(
                "v",
                "exact velocity [m/s]",
                states.iter().map(|s| s.v).collect(),
            )
            .with(
                "slip",
                "exact slip v - v_b [m/s]",
                states.iter().map(|s| s.v - vb).collect(),
            )
            .with(
                "friction",
                "exact friction force on the mass (k x while stuck) [N]",
                states.iter().map(|s| s.friction).collect(),
            );
        // The physical cycle (stuck while u = 0), which the methods that
        // stick exactly are measured against; and, when a method of the
        // case does not stick exactly, the cycle as its analysis sees it:
        // stuck while |u| <= stick_threshold (so the threshold does not
        // count as its error).
        let mut scalars = Vec::new();
        if let Some(c) = motion.last_cycle() {
            scalars.extend(run::cycle_scalars("exact_", &c));
        }
        if cfg.methods.iter().any(|m| !m.sticks_exactly())
            && let Some(c) = motion.last_cycle_thresholded(cfg.stick_threshold)
        {
            for (name, value) in [
                ("stick_duration", c.stick_duration),
                ("slip_duration", c.slip_duration),
                ("period", c.period),
            ] {
                scalars.push(Scalar::new(
                    format!("exact_{name}{AT_THRESHOLD}"),
                    value,
                    format!(
                        "{} of the exact motion's last full stick-slip cycle, measured with the stick threshold {:e} m/s as the methods that do not stick exactly are [s]",
                        name.replace('_', " "),
                        cfg.stick_threshold
                    ),
                ));
            }
        }
        Ok(ReferenceOutput {
            tables: vec![CaseTable {
                what: "exact".into(),
                doc: format!(
                    "the exact piecewise-analytic motion with Coulomb friction mu_s = {static_coefficient}, mu_k = {kinetic_coefficient} ({} phases)",
                    motion.segments.len()
                ),
                table,
            }],
            scalars,
            timings: Vec::new(),
        })
    }

    fn run(&self, m: &spec::MethodConfig, progress: &Progress) -> Run<MethodOutput> {
        run::run_method(self, m, progress)
    }

    fn finish(&self, Finished { reference, methods }: Finished) -> Run<Vec<Scalar>> {
        let cfg = self;
        if let Some(r) = reference {
            for m in methods.iter_mut() {
                let label = m.plan.label.clone();
                let Ok(run) = &mut m.outcome else { continue };
                let out = &mut run.output;
                if let Some(exact) = r.tables.first() {
                    for (column, name, unit) in
                        [("x", "max_error_x", "m"), ("v", "max_error_v", "m/s")]
                    {
                        let d = curve_difference(&out.series, &exact.table, column, None).map_err(
                            |message| {
                                SolverError::other(
                                    label.clone(),
                                    format!("comparing with the exact motion: {message}"),
                                )
                            },
                        )?;
                        out.scalars.push(Scalar::new(
                            name,
                            d.max_abs,
                            format!("max |{column} - exact| over the samples [{unit}]"),
                        ));
                    }
                }
                let mut errors = Vec::new();
                let exactly = cfg.methods[m_index(&cfg.methods, &label)].sticks_exactly();
                for (name, unit) in CYCLE {
                    // A duration of a method that does not stick exactly
                    // against the exact one measured with its threshold.
                    let thresholded = !exactly && THRESHOLD_DEPENDENT.contains(&name);
                    let exact_name = if thresholded {
                        format!("exact_{name}{AT_THRESHOLD}")
                    } else {
                        format!("exact_{name}")
                    };
                    if let (Some(v), Some(e)) = (out.scalar(name), r.scalar(&exact_name)) {
                        errors.push((name, (v - e).abs()));
                        out.scalars.push(Scalar::new(
                            format!("{name}_error"),
                            (v - e).abs(),
                            format!("|{name} - {exact_name}| of the last full cycle [{unit}]"),
                        ));
                    }
                }
                let durations: Vec<f64> = errors
                    .iter()
                    .filter(|(n, _)| *n == "stick_duration" || *n == "slip_duration")
                    .map(|e| e.1)
                    .collect();
                if durations.len() == 2 {
                    let error = durations[0].max(durations[1]);
                    out.scalars.push(Scalar::new(
                        "cycle_error",
                        error,
                        "max(|stick duration - exact|, |slip duration - exact|) of the last full cycle [s]",
                    ));
                    if cfg.methods[m_index(&cfg.methods, &label)].integrator != Integrator::Dopri5 {
                        out.scalars.push(Scalar::new(
                            "cycle_error_steps",
                            error / cfg.span.dt,
                            "cycle_error / dt [-]: a fixed-step method locates each onset within a step, so at most about 1",
                        ));
                    }
                }
            }
        }
        Ok(vec![
            Scalar::new("dt", cfg.span.dt, "step (initial step of dopri5) [s]"),
            Scalar::new("tolerance", cfg.span.tolerance, "rtol = atol of dopri5 [-]"),
        ])
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        summary::summarize(
            &study.cases,
            &study.sweep_keys,
            &study.check_references,
            cases,
        )
    }
}
