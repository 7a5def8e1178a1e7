//! Study kind `slider-crank`: joints in 2-D multibody dynamics (Hrabacka,
//! Hajzman, Byrtus, Dyk, Bulin & Smolik, Computational Mechanics 2023). A
//! slider-crank in absolute coordinates, Lagrange's equations of the first
//! kind solved in the augmented (eq. (1)) or eliminated (eq. (4)) form,
//! integrated by RK4 or Dormand-Prince; the crank-rod joint kinematic
//! (`ideal`) or modelled by contact forces with clearance and friction
//! (`clearance`). A driven mechanism is checked against its exact slider
//! kinematics (the `exact` table); the harness derives work-precision and
//! orders from a sweep of `integrator.dt` (RK4, fixed-step Dormand-Prince)
//! zipped with `integrator.tolerance` (adaptive Dormand-Prince).

mod figures;
pub mod kernels;
pub mod reference;
pub mod run;
pub mod spec;
mod summary;

use crate::error::{InputError, SolverError};
use crate::harness::checks::curve_difference;
use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run};
use crate::harness::spec::StudySpec;
use crate::harness::study::{
    CaseOutput, CaseTable, Measures, MethodOutput, MethodResult, ReferenceOutput, Scalar, Study,
    StudySummary, Timing,
};
use crate::harness::study::{Provides, names};
use crate::harness::table::Table;
use crate::models::slider_crank::{Drive, exact_slider};
use crate::multibody::Formulation;

use spec::{CaseConfig, Integrator, MethodConfig, Reference};

/// Builds the study from its spec (validating every case; the spec's
/// `unresolved_per_tolerance` set on each).
pub fn build(spec: &StudySpec) -> Result<Box<dyn Study>, InputError> {
    let mut study = crate::studies::keys::parse_cases(spec, spec::parse_case)?;
    if let Some(factor) = spec.unresolved_per_tolerance {
        for case in &mut study.cases {
            case.unresolved_per_tolerance = factor;
        }
    }
    Ok(Box::new(study))
}

const COUNTER_DOCS: [(&str, &str); 4] = [
    ("steps", "accepted time steps [-]"),
    ("rejected_steps", "steps rejected by the error control [-]"),
    (
        "rhs_evaluations",
        "evaluations of the equations of motion by the integrator (each one C_q, Q_d and a linear solve) [-]",
    ),
    (
        "constraint_share",
        "share of the right-hand side's time spent evaluating C_q and Q_d = -(C_q q')_q q' (timers around them in the run, their own cost subtracted; derived) [-]",
    ),
];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.integrator.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    let by = match m.integrator {
        Integrator::Rk4 => "classical Runge-Kutta, fixed step",
        Integrator::Dopri5 => "Dormand-Prince 5(4) with error control",
        Integrator::Dopri5Fixed => "Dormand-Prince 5, fixed step",
    };
    let on = match m.formulation {
        Formulation::Augmented => "1), augmented",
        Formulation::Eliminated => "4), multipliers eliminated",
    };
    format!("{by} on eq. ({on})")
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// The seed's approach: eq. (4) with a standard adaptive ODE solver.
    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        study
            .cases
            .iter()
            .flat_map(|c| &c.methods)
            .find(|m| {
                m.integrator == Integrator::Dopri5 && m.formulation == Formulation::Eliminated
            })
            .map(|m| m.label.clone())
    }

    fn measured_scalars() -> Vec<String> {
        vec![summary::JOINT_COST_RATIO.to_string()]
    }

    fn provides(study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: names(&[
                "tolerance_slope",
                "clearance_order",
                "friction_effect_slider_a",
                "friction_effect_contact_force",
            ]),
            method_scalars: names(&[
                "steps",
                "max_error_x",
                "max_error_v",
                "max_error_a",
                "max_error_v_scale",
                "max_constraint_error",
                "max_velocity_constraint_error",
                "late_constraint_error",
                "drift_growth",
                "energy_drift",
                "peak_slider_a",
                "peak_torque",
                "peak_contact_force",
                "last_revolution_peak_slider_a",
                "last_revolution_peak_torque",
                "last_revolution_peak_contact_force",
                "max_penetration",
                "hertz_penetration",
                "penetration_ratio",
                "impacts",
                "restitution_median",
                "max_contact_imbalance",
            ]),
            case_scalars: names(&["omega", "clearance", "friction", "tolerance", "dt"]),
            columns: names(&[
                "t",
                "phi",
                "slider_x",
                "slider_v",
                "slider_a",
                "crank_torque",
                "energy",
                "constraint_error",
                "velocity_constraint_error",
                "journal_ex",
                "journal_ey",
                "penetration",
                "contact_force",
                "friction_force",
                "sliding_speed",
            ]),
            // Checks against `exact` are refused at load when no case is
            // driven at constant speed (a free crank has no closed form).
            tables: {
                let mut t = Vec::new();
                if study.cases.iter().any(|c| {
                    c.reference == Reference::Exact
                        && matches!(c.drive, Drive::ConstantSpeed { .. })
                }) {
                    t.push("exact".to_string());
                }
                if study
                    .cases
                    .iter()
                    .any(|c| matches!(c.reference, Reference::Fine(_)))
                {
                    t.push("fine".to_string());
                }
                t
            },
            methods: Vec::new(),
        }
    }

    /// Over `integrator.dt`: RK4 is fourth order, Dormand-Prince at a
    /// fixed step fifth (smooth solutions; the contact joint's Hertz force
    /// may cost order, and its range is then refused, not re-fitted).
    /// Adaptive `dopri5` over its tolerance has no nominal order.
    fn nominal_order(study: &Cases<Self>, label: &str, key: &str) -> Option<f64> {
        if key != "integrator.dt" {
            return None;
        }
        let m = study
            .cases
            .iter()
            .flat_map(|c| &c.methods)
            .find(|m| m.label == label)?;
        m.integrator.nominal_order()
    }

    fn measures(_study: &Cases<Self>) -> Measures {
        Measures {
            error: Some((
                "max_error_v".into(),
                "max |slider velocity - reference| over the samples (reference: the exact kinematics, or the fine solution with reference.method = \"fine\") [m/s]".into(),
            )),
            cost_keys: vec!["integrator.dt".into(), "integrator.tolerance".into()],
            step_keys: vec!["integrator.dt".into()],
            method_cost_keys: vec![(
                spec::Integrator::Dopri5.name().into(),
                "integrator.tolerance".into(),
            )],
        }
    }

    fn has_reference(&self) -> bool {
        let c = self;
        matches!(c.reference, Reference::Fine(_)) || matches!(c.drive, Drive::ConstantSpeed { .. })
    }

    /// The exact slider kinematics of the driven mechanism at the output
    /// times.
    fn run_reference(&self, progress: &Progress) -> Run<ReferenceOutput> {
        let cfg = self;
        if let Reference::Fine(tolerance) = cfg.reference {
            return fine_reference(cfg, tolerance, progress);
        }
        let Drive::ConstantSpeed { phi0, omega } = cfg.drive else {
            return Err(SolverError::other(
                "exact",
                "a free crank has no closed-form kinematics",
            ));
        };
        let (l1, l2) = (cfg.mechanism.crank_length, cfg.mechanism.rod_length);
        let t: Vec<f64> = (0..=cfg.span.outputs)
            .map(|k| k as f64 * cfg.span.output_interval)
            .collect();
        let phi: Vec<f64> = t.iter().map(|t| phi0 + omega * t).collect();
        let xva: Vec<(f64, f64, f64)> = phi
            .iter()
            .map(|&p| exact_slider(l1, l2, p, omega))
            .collect();
        let torque: Vec<f64> = phi
            .iter()
            .map(|&p| reference::inverse_dynamics_torque(&cfg.mechanism, p, omega))
            .collect();
        let table = Table::new()
            .with("t", "time [s]", t)
            .with("phi", "crank angle phi0 + omega t [rad]", phi)
            .with(
                "slider_x",
                "exact slider position l1 cos phi + sqrt(l2^2 - l1^2 sin^2 phi) [m]",
                xva.iter().map(|p| p.0).collect(),
            )
            .with(
                "slider_v",
                "exact slider velocity [m/s]",
                xva.iter().map(|p| p.1).collect(),
            )
            .with(
                "slider_a",
                "exact slider acceleration [m/s^2]",
                xva.iter().map(|p| p.2).collect(),
            )
            .with(
                "crank_torque",
                "driving torque of the ideal mechanism by inverse dynamics at constant speed, closed form (reference::inverse_dynamics_torque) [N m]",
                torque,
            );
        Ok(ReferenceOutput {
            tables: vec![CaseTable {
                what: "exact".into(),
                doc: "closed-form slider kinematics and inverse-dynamics driving torque of the ideal mechanism driven at constant speed".into(),
                table,
            }],
            scalars: Vec::new(),
            timings: Vec::<Timing>::new(),
        })
    }

    fn run(&self, m: &MethodConfig, progress: &Progress) -> Run<MethodOutput> {
        run::run_method(self, m, progress)
    }

    fn finish(&self, Finished { reference, methods }: Finished) -> Run<Vec<Scalar>> {
        let cfg = self;
        if let Some(exact) = reference.and_then(|r| r.tables.first()) {
            let against = exact.what.as_str();
            for m in methods.iter_mut() {
                let Ok(run) = &mut m.outcome else { continue };
                for (column, name, unit) in [
                    ("slider_x", "max_error_x", "m"),
                    ("slider_v", "max_error_v", "m/s"),
                    ("slider_a", "max_error_a", "m/s^2"),
                ] {
                    let d = curve_difference(&run.output.series, &exact.table, column, None)
                        .map_err(|message| {
                            SolverError::other(
                                m.plan.label.clone(),
                                format!("comparing with the {against} reference: {message}"),
                            )
                        })?;
                    run.output.scalars.push(Scalar::new(
                        name,
                        d.max_abs,
                        format!("max |{column} - {against}| over the samples [{unit}]"),
                    ));
                }
                // The size of the velocity the error measures: the sweep
                // analysis leaves out runs that did not resolve it.
                let peak = exact
                    .table
                    .values("slider_v")
                    .map_or(0.0, |v| v.iter().fold(0.0f64, |m, x| m.max(x.abs())));
                run.output.scalars.push(Scalar::new(
                    "max_error_v_scale",
                    peak,
                    "max |slider velocity| of the reference [m/s]: runs with max_error_v >= 0.1 of it, or beyond 100 x tolerance x it, are left out of the work-precision analysis",
                ));
            }
        }
        window(cfg, methods)?;
        let mut scalars = vec![
            Scalar::new(
                "dt",
                cfg.span.dt,
                "step (initial step of the adaptive method) [s]",
            ),
            Scalar::new(
                "tolerance",
                cfg.span.tolerance,
                "rtol = atol of the adaptive method [-]",
            ),
        ];
        let (_, omega) = cfg.drive.initial();
        scalars.push(Scalar::new(
            "omega",
            omega,
            "crank speed (initial speed when free) [rad/s]",
        ));
        if let spec::Joint::Clearance(p) = cfg.joint {
            scalars.push(Scalar::new(
                "clearance",
                p.bearing_radius - p.journal_radius,
                "radial clearance R - r [m]",
            ));
            scalars.push(Scalar::new(
                "friction",
                p.friction,
                "friction coefficient [-]",
            ));
        }
        Ok(scalars)
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        summary::summarize(&study.cases, &study.sweep_keys, cases)
    }
}

/// The figures' window of a clearance case (issue 20, classes 4 and 5):
/// every step of the last revolution, recorded by an untimed rerun of the
/// first successful method ([`run::run_window`]; the timed runs record
/// nothing, so timings.csv holds the method's cost alone), added to its
/// output as the table `steps` and the scalars `last_revolution_peak_*`.
/// The rerun must take the same steps (its counters equal the timed run's).
fn window(cfg: &CaseConfig, methods: &mut [MethodResult]) -> Result<(), SolverError> {
    if !matches!(cfg.joint, spec::Joint::Clearance(_)) {
        return Ok(());
    }
    let Some((plan, run)) = methods.iter_mut().find_map(|m| {
        let plan = cfg.methods.iter().find(|p| p.label == m.plan.label)?;
        Some((plan, m.outcome.as_mut().ok()?))
    }) else {
        return Ok(());
    };
    let again = run::run_window(cfg, plan)?;
    if again.counters != run.output.counters {
        return Err(SolverError::other(
            plan.label.clone(),
            format!(
                "the rerun recording the figures' window took other steps ({:?} vs {:?})",
                again.counters, run.output.counters
            ),
        ));
    }
    run.output.tables.extend(again.tables);
    run.output.scalars.extend(
        again
            .scalars
            .into_iter()
            .filter(|s| s.name.starts_with("last_revolution_")),
    );
    Ok(())
}

/// The reference of `reference.method = "fine"`: the case itself solved by
/// Dormand-Prince 5(4) on eq. (4) at `tolerance` (initial step the case's
/// dt, the case's first method's Baumgarte parameters), sampled at the
/// case's output times (table `fine`).
fn fine_reference(
    cfg: &CaseConfig,
    tolerance: f64,
    progress: &indicatif::ProgressBar,
) -> Result<ReferenceOutput, SolverError> {
    let mut fine = cfg.clone();
    fine.span.tolerance = tolerance;
    let method = MethodConfig {
        label: "fine".into(),
        integrator: Integrator::Dopri5,
        formulation: Formulation::Eliminated,
        baumgarte: cfg.methods[0].baumgarte,
    };
    let out = run::run_method(&fine, &method, progress)?;
    Ok(ReferenceOutput {
        tables: vec![CaseTable {
            what: "fine".into(),
            doc: format!(
                "the same case by Dormand-Prince 5(4) on eq. (4) at tolerance {tolerance:e} (reference.method = \"fine\")"
            ),
            table: out.series,
        }],
        scalars: Vec::new(),
        timings: Vec::<Timing>::new(),
    })
}
