//! Study kind `valvetrain`: a full single valvetrain (the second example of
//! Haslinger, Offner, Sopouch et al., ZAMM 94 (2014) 957-967): cam,
//! follower, valve, seat and the valve spring between head and retainer
//! ([`crate::models::valvetrain`]); every contact (cam-follower,
//! valve-seat, coil pairs) Signorini as an NCP with BDF and semi-smooth
//! Newton (`ncp-bdf`) or as spring-damper elements (`penalty-bdf`)
//! ([`crate::integrators::bdf_contact`]). Each method names its spring
//! model (multi-mass with or without coil contact, or single mass). Per
//! case: the last of the simulated revolutions analysed (lift-off, seat
//! impact and bounce, closing, spring-seat force and its harmonics); with
//! `[jump]`, each method's jump speed by bisection, beside the rigid
//! valvetrain's analytic jump speed; with `[reference]`, a fine NCP run of
//! the multi-mass spring the methods' spring-seat forces are measured
//! against.

mod designs;
pub mod kernels;
pub mod run;
pub mod spec;
mod summary;

use crate::error::SolverError;
use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run, as_one_unit};
use crate::harness::study::{
    CaseOutput, Measures, MethodOutput, Provides, ReferenceOutput, Scalar, StudySummary, names,
};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::{ContactModel, Stepping};
use crate::models::valvetrain::SpringModel;
use crate::studies::shared::like_for_like::{self, Graded, LikeForLike};
use crate::studies::shared::seat_force::{self, WindowMeasure};

use spec::CaseConfig;

const COUNTER_DOCS: [(&str, &str); 7] = [
    ("steps", "accepted BDF steps at the case's speed [-]"),
    (
        "rejected_steps",
        "steps rejected by the error control or a failed Newton solve [-]",
    ),
    (
        "newton_iterations",
        "(semi-smooth) Newton iterations over all steps [-]",
    ),
    (
        "factorizations",
        "numeric sparse LU factorizations of the Newton matrix [-]",
    ),
    ("max_newton", "most Newton iterations of one step [-]"),
    (
        "restarts",
        "order-1 restarts after a contact closed (NCP: the plastic impact law; 0 for penalty) [-]",
    ),
    (
        "regularized",
        "steps whose Newton matrix was singular (NCP: closed contacts with dependent gradients, the spring at coil bind) and was regularized [-]",
    ),
];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.method.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    let contact = match m.contact {
        ContactModel::Ncp { .. } => {
            "every contact Signorini as an NCP, semi-smooth Newton".to_string()
        }
        ContactModel::Penalty { stiffness, .. } => {
            format!("every contact a spring-damper element (k_p = {stiffness:e} N/m), Newton")
        }
    };
    let stepping = match m.stepping {
        Stepping::Fixed { order, dt } => format!("BDF{order}, fixed step {dt:e} s"),
        Stepping::Adaptive { tolerance, .. } => {
            format!("variable-step BDF2, rtol {tolerance:e}")
        }
    };
    format!("{}; {contact}; {stepping}", m.model_name())
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// Spring-damper contact, when a method uses it; else the first.
    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        study.baseline_or_first(|m| {
            m.method == crate::studies::shared::valve::ValveMethod::PenaltyBdf
        })
    }

    fn provides(_study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: names(&[
                "liftoff_speed_min",
                "max_tracking_error_below_jump",
                "min_cam_force_below_jump",
                "open_at_end_below_jump",
                "speeds_below_jump",
                "speeds_above_jump",
                "top_speed_over_liftoff",
                "surge_ratio_at_10_percent_impact",
                "surge_ratio_at_10_percent_cam_force",
                "designs_affected",
                "designs",
            ]),
            method_scalars: names(&[
                "steps",
                "liftoff",
                "min_cam_force",
                "max_separation",
                "max_lift",
                "impact_velocity",
                "bounce_height",
                "reopenings",
                "closes",
                "closing_angle",
                "tracking_error",
                "valve_deviation",
                "seat_force_peak",
                "seat_force_deviation",
                "max_penetration",
                "max_complementarity",
                "min_lambda",
                "jump_speed",
                "jump_low",
                "jump_high",
                "jump_evaluations",
                "jump_steps",
                "max_error_spring_seat_force",
                "error_vs_ncp_spring_seat_force",
                "model_gap_spring_seat_force",
            ]),
            case_scalars: names(&[
                "analytic_jump_speed",
                "analytic_jump_angle",
                "rigid_mass",
                "preload",
                "rate",
                "surge_hz",
                "cam_speed",
                "dt",
                "tolerance",
            ]),
            columns: names(&[
                "t",
                "cam_angle",
                "profile",
                "valve_lift",
                "follower",
                "valve_velocity",
                "valve_acceleration",
                "cam_force",
                "valve_seat_force",
                "spring_seat_force",
                "spring_seat_sample",
                "dynamic_seat_force",
            ]),
            tables: names(&["reference", "spectrum"]),
            methods: Vec::new(),
        }
    }

    fn measures(study: &Cases<Self>) -> Measures {
        seat_force::measures(
            &study.sweep_keys,
            &["tolerance", "dt"],
            (
                "max_error_spring_seat_force",
                "spring-seat force discretisation error: max over windows of |mean - mean of the same model's converged reference| [N]",
            ),
        )
    }

    fn has_reference(&self) -> bool {
        self.reference_dt.is_some()
    }

    /// What `run_reference` reads: the valvetrain, spring and cam, the
    /// revolutions, sampling and step bound, the fine NCP step, and the
    /// penalty methods (spring model, contact) with their tolerance (not
    /// the methods' own steps).
    fn reference_key(&self) -> Option<String> {
        let c = self;
        let penalty: Vec<_> = c
            .methods
            .iter()
            .filter(|m| matches!(m.contact, ContactModel::Penalty { .. }))
            .map(|m| (m.label.as_str(), m.model, m.contact))
            .collect();
        Some(format!(
            "{:?}",
            (
                &c.train,
                &c.spring,
                &c.cam,
                c.revolutions,
                c.samples_per_revolution,
                c.max_steps,
                c.reference_dt,
                c.reference_penalty_tolerance,
                penalty
            )
        ))
    }

    fn run_reference(&self, _progress: &Progress) -> Run<ReferenceOutput> {
        let cfg = self;
        let Some(dt) = cfg.reference_dt else {
            return Ok(ReferenceOutput::default());
        };
        let fail = |message: String| SolverError::other("reference", message);
        let tables = like_for_like::reference_tables(cfg, dt, cfg.reference_penalty_tolerance)
            .map_err(fail)?;
        Ok(ReferenceOutput {
            tables,
            ..Default::default()
        })
    }

    fn run(&self, m: &spec::MethodConfig, progress: &Progress) -> Run<MethodOutput> {
        as_one_unit(progress, || run::run_method(self, m))
    }

    fn finish(&self, Finished { reference, methods }: Finished) -> Run<Vec<Scalar>> {
        let cfg = self;
        like_for_like::grade(cfg, reference, methods)?;
        let fail = |message: String| SolverError::other("analytic", message);
        let rigid = cfg
            .train(SpringModel::SingleMass, cfg.cam.cam_speed)
            .map_err(fail)?;
        let (jump, angle) = rigid.rigid_jump_speed();
        let mut scalars = vec![
            Scalar::new(
                "analytic_jump_speed",
                jump,
                "the rigid single-mass valvetrain's jump speed: min over the cam angles with h'' < 0 of sqrt((F0 + k x) / (m |h''|)) / (2 pi), m = follower + valve + top end coil + m_active / 3 [rev/s]",
            ),
            Scalar::new(
                "analytic_jump_angle",
                angle.to_degrees(),
                "the cam angle of analytic_jump_speed's minimum [deg]: the first smallest ratio on a grid of 20,000 angles over the lift event, refined by golden section within one grid step; the cycloidal rise and return tie up to round-off, and the one round-off favours is reported",
            ),
            Scalar::new(
                "rigid_mass",
                rigid.rigid_mass(),
                "follower + valve + top end coil + a third of the active coils [kg]",
            ),
            Scalar::new("preload", rigid.preload(), "k (L0 - L_inst) [N]"),
            Scalar::new(
                "rate",
                rigid.spring.params.rate(),
                "k = G d^4 / (8 D^3 n_a) [N/m]",
            ),
            Scalar::new(
                "surge_hz",
                rigid.spring.params.surge_frequency(),
                "the spring's first surge frequency sqrt(k / m_active) / 2 [Hz]",
            ),
            Scalar::new("cam_speed", cfg.cam.cam_speed, "camshaft speed [rev/s]"),
        ];
        scalars.extend(seat_force::first_method_step(cfg.methods[0].stepping));
        Ok(scalars)
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        summary::summarize(&study.cases, cases)
    }
}

/// The like-for-like grading's view of a case: its methods (a penalty
/// model is its contact model and its spring model), the fine NCP run of
/// the multi-mass spring with coil contact, each penalty model converged
/// and the spring-seat force's windows.
impl LikeForLike for CaseConfig {
    fn graded(&self) -> Vec<Graded<'_>> {
        self.methods
            .iter()
            .map(|m| Graded {
                label: &m.label,
                contact: m.contact,
                model: format!("{:?}", m.model),
            })
            .collect()
    }

    fn ncp_reference(&self, dt: f64) -> Result<(Table, String), String> {
        let doc =
            format!("fine reference: NCP-BDF2, multi-mass spring with coil contact, dt = {dt:e} s");
        Ok((run::reference(self, dt)?, doc))
    }

    fn penalty_reference(&self, i: usize, tol: f64) -> Result<(Table, String), String> {
        let m = &self.methods[i];
        let doc = format!(
            "converged reference of {}: the same model ({}, penalty contact) by adaptive BDF2 at tolerance {tol:e}",
            m.label,
            m.model_name()
        );
        Ok((run::penalty_reference(self, m, tol)?, doc))
    }

    fn measure(&self) -> WindowMeasure<'_> {
        WindowMeasure {
            column: "spring_seat_force",
            quantity: "spring-seat force",
            intervals: (self.error_window / self.output_interval())
                .round()
                .max(1.0) as usize,
            window: self.error_window,
        }
    }
}
