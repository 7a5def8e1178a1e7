//! Study kind `valve-spring`: coil contact in a valve spring (Haslinger,
//! Offner, Sopouch et al., ZAMM 94 (2014) 957-967). The spring as an axial
//! multi-mass model with coil contact ([`crate::models::valve_spring`]),
//! its retainer moved by a cam lift; Signorini contact as an NCP with BDF
//! and semi-smooth Newton (`ncp-bdf`) against spring-damper contact
//! elements with adaptive BDF (`penalty-bdf`)
//! ([`crate::integrators::bdf_contact`]). Each case has a fine NCP-BDF2
//! reference, the quasi-static force-deflection curve (Lemke on the
//! contact LCP) and the chain's first natural frequency.

mod fastest;
pub mod kernels;
pub mod run;
pub mod spec;
mod summary;

use crate::error::SolverError;
use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run, as_one_unit};
use crate::harness::study::{
    CaseOutput, CaseTable, Measures, MethodOutput, ReferenceOutput, Scalar, StudySummary,
};
use crate::harness::study::{Provides, names};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::{ContactModel, Stepping};

use spec::CaseConfig;

use crate::studies::shared::like_for_like::{self, Graded, LikeForLike};
use crate::studies::shared::seat_force::{self, WindowMeasure};
use crate::studies::shared::valve::ValveMethod;

/// The like-for-like grading's view of a case: its methods (a penalty
/// model is its contact model: this crate's BDF and diffsol's methods of
/// one k_p share its converged reference), the fine NCP run, each
/// penalty model converged, the seat force's windows and its pointwise
/// error.
impl LikeForLike for CaseConfig {
    fn graded(&self) -> Vec<Graded<'_>> {
        self.methods
            .iter()
            .map(|m| Graded {
                label: &m.label,
                contact: m.contact,
                model: String::new(),
            })
            .collect()
    }

    fn ncp_reference(&self, dt: f64) -> Result<(Table, String), String> {
        let doc = format!("fine reference: NCP-BDF2 at dt = {dt:e} s");
        Ok((run::reference(self, dt)?, doc))
    }

    fn penalty_reference(&self, i: usize, tol: f64) -> Result<(Table, String), String> {
        let m = &self.methods[i];
        let ContactModel::Penalty { stiffness, damping } = m.contact else {
            return Err(format!("{} is not a penalty method", m.label));
        };
        let doc = format!(
            "converged reference of {}: the same penalty model (k_p = {stiffness:e} N/m, c_p = {damping:.4e} N s/m) by adaptive BDF2 at tolerance {tol:e}",
            m.label
        );
        Ok((run::penalty_reference(self, m.contact, tol)?, doc))
    }

    fn measure(&self) -> WindowMeasure<'_> {
        WindowMeasure {
            column: "seat_force",
            quantity: "seat force",
            intervals: (self.error_window / self.output_interval).round() as usize,
            window: self.error_window,
        }
    }

    fn pointwise_column(&self) -> Option<&str> {
        Some("seat_force")
    }
}

const COUNTER_DOCS: [(&str, &str); 8] = [
    (
        "steps",
        "accepted steps (BDF, or diffsol's BDF / TR-BDF2) [-]",
    ),
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
        "numeric LU factorizations of the Newton matrix: sparse LU (the symbolic one is done once) for this crate's BDF; diffsol's Jacobian evaluations with a dense LU (its linear solver setups) [-]",
    ),
    (
        "rhs_evaluations",
        "diffsol runs: right-hand-side evaluations [-]",
    ),
    (
        "jacobian_products",
        "diffsol runs: Jacobian-vector products, those that form the dense Jacobian (one per state per evaluation) included [-]",
    ),
    ("max_newton", "most Newton iterations of one step [-]"),
    (
        "restarts",
        "order-1 restarts after a contact closed (NCP: the plastic impact law; 0 for penalty) [-]",
    ),
];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.method.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    match (m.method, m.stepping) {
        (ValveMethod::NcpBdf, Stepping::Fixed { order, .. }) => format!(
            "Signorini as an NCP (max function), BDF{order} with a fixed step, semi-smooth Newton with sparse LU"
        ),
        (ValveMethod::NcpBdf, Stepping::Adaptive { .. }) => "Signorini as an NCP, variable-step BDF2 with error control, semi-smooth Newton".into(),
        (ValveMethod::PenaltyDiffsolBdf, _) => "spring-damper contact elements, diffsol's variable-order (1-5) variable-step BDF with its error control, Newton with dense LU".into(),
        (ValveMethod::PenaltyDiffsolSdirk, _) => "spring-damper contact elements, diffsol's SDIRK (TR-BDF2 tableau) with its error control, Newton with dense LU".into(),
        (ValveMethod::PenaltyBdf, Stepping::Adaptive { .. }) => "spring-damper contact elements, variable-step BDF2 with error control, Newton".into(),
        (ValveMethod::PenaltyBdf, Stepping::Fixed { order, .. }) => format!("spring-damper contact elements, BDF{order} with a fixed step, Newton"),
    }
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// The spring-damper contact elements: the approach the paper compares
    /// its NCP method against.
    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        study.baseline_or_first(|m| m.method == ValveMethod::PenaltyBdf)
    }

    fn provides(_study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: names(&["penalty_slope"]),
            method_scalars: names(&[
                "steps",
                "peak_seat_force",
                "max_closed_pairs",
                "max_penetration",
                "max_complementarity",
                "min_lambda",
                "min_energy_loss",
                "energy_loss",
                "mean_newton",
                "max_error_seat_force",
                "error_vs_ncp_seat_force",
                "model_gap_seat_force",
                "pointwise_error_seat_force",
            ]),
            case_scalars: names(&[
                "rate",
                "f1_hz",
                "f1_chain_hz",
                "f1_continuous_hz",
                "surge_ratio",
                "solid_length",
                "dt",
                "tolerance",
                "static_max_error",
                "static_max_rel_error",
            ]),
            columns: names(&[
                "t",
                "cam_angle",
                "lift",
                "seat_force",
                "seat_force_sample",
                "closed_pairs",
                "min_gap",
                "energy_loss",
            ]),
            tables: names(&["reference", "static"]),
            methods: Vec::new(),
        }
    }

    fn measures(study: &Cases<Self>) -> Measures {
        seat_force::measures(
            &study.sweep_keys,
            &["penalty_stiffness", "tolerance", "dt"],
            (
                "max_error_seat_force",
                "seat-force discretisation error: max over windows of |mean - mean of the same model's converged reference| [N]",
            ),
        )
    }

    fn has_reference(&self) -> bool {
        true
    }

    /// What `run_reference` reads: the spring, the cam, the run's span,
    /// sampling and step bound, the statics, the fine NCP step, and the
    /// penalty methods with their tolerance (not the methods' own steps).
    fn reference_key(&self) -> Option<String> {
        let c = self;
        let penalty: Vec<(&str, ContactModel)> = c
            .methods
            .iter()
            .filter(|m| matches!(m.contact, ContactModel::Penalty { .. }))
            .map(|m| (m.label.as_str(), m.contact))
            .collect();
        Some(format!(
            "{:?}",
            (
                &c.spring,
                &c.cam,
                c.t_end,
                c.output_interval,
                c.max_steps,
                c.statics,
                c.reference_dt,
                c.reference_penalty_tolerance,
                penalty
            )
        ))
    }

    /// The fine NCP run and the quasi-static curve.
    fn run_reference(&self, _progress: &Progress) -> Run<ReferenceOutput> {
        let cfg = self;
        let fail = |message: String| SolverError::other("reference", message);
        let mut tables = vec![CaseTable {
            what: "static".into(),
            doc: "quasi-static force-deflection curve from the free length (Lemke on the contact LCP at each deflection)".into(),
            table: seat_force::static_curve(&cfg.spring, cfg.statics.0, cfg.statics.1).map_err(fail)?,
        }];
        if let Some(dt) = cfg.reference_dt {
            tables.extend(
                like_for_like::reference_tables(cfg, dt, cfg.reference_penalty_tolerance)
                    .map_err(fail)?,
            );
        }
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
        let sp = &cfg.spring;
        let p = &sp.params;
        let chain = sp.chain_frequencies().first().copied().unwrap_or(f64::NAN);
        let f1 = run::first_frequency(sp)?;
        let mut scalars = Vec::new();
        // The static curve (the reference job's `static` table, Lemke on
        // this study's spring) against the independent file.
        if let (Some(file), Some(curve)) = (
            &cfg.static_reference,
            reference.and_then(|r| r.table("static")),
        ) {
            let e = seat_force::static_error(&curve.table, file);
            scalars.push(Scalar::new("static_max_error", e.0, "max |static seat force - the independent static curve| at its deflections within the computed range [N]"));
            scalars.push(Scalar::new(
                "static_max_rel_error",
                e.1,
                "static_max_error over the largest reference force [-]",
            ));
        }
        scalars.extend(vec![
            Scalar::new("rate", sp.segment_stiffness / sp.active_segments as f64, "the model's static rate before any coil closes: k_s / N_a, the N_a active segments in series [N/m]"),
            Scalar::new("f1_hz", f1, "the model's first natural frequency without contact, both ends fixed (eigenvalues of the assembled K / m) [Hz]"),
            Scalar::new("f1_chain_hz", chain, "the discrete chain's closed form 2 sqrt(k_s / m) sin(pi / (2 N_a)) / (2 pi) [Hz]"),
            Scalar::new("f1_continuous_hz", p.surge_frequency(), "the continuous spring's surge frequency sqrt(k / m_active) / 2, k = G d^4 / (8 D^3 n_a) [Hz]"),
            Scalar::new("surge_ratio", f1 / cfg.cam.cam_speed, "f1_hz over the cam frequency [-] (the design rule asks > 13)"),
            Scalar::new("solid_length", p.solid_length(), "d (n_a + n_e + 1) [m]"),
        ]);
        scalars.extend(seat_force::first_method_step(cfg.methods[0].stepping));
        Ok(scalars)
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        let mut s = summary::summarize(&study.cases, cases);
        let baseline = (study.baseline.clone()).or_else(|| Self::default_baseline(study));
        fastest::fastest_penalty(&mut s, &study.cases, cases, baseline.as_deref());
        s
    }

    fn measured_scalars() -> Vec<String> {
        fastest::MEASURED.iter().map(|s| s.to_string()).collect()
    }
}
