//! Study kind `gap-system`: piecewise-linear MDOF systems with gap-activated
//! springs under harmonic forcing (Yu, Nonlinear Dynamics 71 (2013) 493-504),
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t),
//!
//! integrated by Bossak-Newmark with one exact LCP per step (`newmark-lcp`,
//! the paper's method and the baseline) or with a sparse semi-smooth Newton
//! step (`newmark-ssn`), and checked against the exact event-driven solution
//! (matrix exponential between switches) or reference files. Modes: a time
//! response (`integrator.dt`, `integrator.t_end`) or a steady state
//! (`[study.steady_state]`: the periodic response, for frequency-response
//! curves swept over `excitation.omega`), or, with `[study.continuation]`,
//! the frequency response as a continued branch of periodic orbits with
//! the time-stepper's sweeps up and down ([`continuation`]).

pub mod continuation;
pub mod kernels;
pub mod method;
pub mod run;
pub mod spec;
mod spectral;
mod summary;

use crate::error::InputError;
use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run};
use crate::harness::spec::StudySpec;
use crate::harness::study::{
    CaseOutput, Measures, MethodOutput, ReferenceOutput, Scalar, Study, StudySummary,
};
use crate::harness::study::{Provides, names};
use method::GapMethod;

use spec::CaseConfig;

/// Builds the study from its spec (validating every case): a continuation
/// in omega when the spec has `[study.continuation]`
/// ([`continuation::ContinuationStudy`]), else the cases as given.
pub fn build(spec: &StudySpec) -> Result<Box<dyn Study>, InputError> {
    if continuation::spec::requested(spec) {
        return Ok(Box::new(continuation::build(spec)?));
    }
    crate::studies::keys::build(spec, spec::parse_case)
}

/// Meanings of the counters and stats of this kind's runs.
const COUNTER_DOCS: [(&str, &str); 10] = [
    ("steps", "time steps taken [-]"),
    (
        "newton_iterations",
        "semi-smooth Newton iterations, summed over the steps [-]",
    ),
    (
        "lcp_pivots",
        "LCP pivots (Lemke), summed over the steps [-]",
    ),
    (
        "lcp_iterations",
        "LCP solver iterations (sweeps for PGS, Newton iterations for the semi-smooth solvers), summed over the steps [-]",
    ),
    (
        "factorizations",
        "matrix factorizations done (1 for the dense LCP step: K_eff once) [-]",
    ),
    (
        "max_active",
        "largest number of engaged gap springs at the end of a step [-]",
    ),
    (
        "events",
        "spring switches located by the event-driven reference [-]",
    ),
    (
        "regimes",
        "distinct active sets met by the event-driven reference [-]",
    ),
    (
        "mean_active",
        "mean number of engaged gap springs per step (derived, not an exact count) [-]",
    ),
    (
        "max_residual",
        "largest relative residual |K_eff u + D^T f(x1) - r| / scale of the step equation over the run, from the model's matrices (derived) [-]",
    ),
];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.method.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    m.method.describe(m.lcp_solver)
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// The paper's method: the dense LCP step solved by Lemke.
    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        let all = study.cases.iter().flat_map(|c| &c.methods);
        all.clone()
            .find(|m| {
                m.method == GapMethod::PAPER && m.lcp_solver == crate::lcp::LcpSolverKind::Lemke
            })
            .or_else(|| all.clone().find(|m| m.method == GapMethod::PAPER))
            .map(|m| m.label.clone())
    }

    fn provides(study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: names(&["peak_omega", "exact_peak_omega", "bilinear_frequency"]),
            method_scalars: names(&[
                "steps",
                "max_active",
                "iterations_per_step",
                "max_error_x",
                "max_error_v",
                "max_error_f",
                "rms_error_x",
                "rel_rms_error_x",
                "max_agreement_x",
                "max_agreement_v",
                "max_agreement_f",
                "rms_agreement_x",
                "error_constant_x",
                "error_constant_v",
                "error_constant_f",
                "x*_max",
                "x*_min",
                "x*_amp",
                "x0_frequency",
                "spectral_radius",
                "max_residual",
            ]),
            case_scalars: names(&[
                "dt",
                "omega",
                "alpha_b",
                "bossak_rho_inf",
                "bilinear_frequency",
                "trapezoidal_bilinear_frequency",
                "exact_x0_frequency",
                "exact_x*_max",
                "exact_x*_min",
                "exact_x*_amp",
                "exact_multiplier",
                "exact_stable",
            ]),
            columns: names(&["t", "x*", "v*", "f*", "x_max_all", "x_min_all", "active"]),
            // Checks against `exact` are refused at load when no case has it.
            tables: if study.cases.iter().any(|c| c.exact) {
                names(&["exact"])
            } else {
                Vec::new()
            },
            methods: Vec::new(),
        }
    }

    /// Bossak-Newmark with beta = (1 - alpha_b)^2 / 4, gamma = 1/2 -
    /// alpha_b is second-order accurate for every alpha_b (Wood, Bossak &
    /// Zienkiewicz 1980; alpha_b = 0 is the trapezoidal rule), and the gap
    /// forces are continuous in x, so an unlocated switch keeps order 2:
    /// the speed-ups at equal accuracy count a step halving as asymptotic
    /// only when its local order is within 30 % of 2.
    fn nominal_order(_study: &Cases<Self>, _label: &str, key: &str) -> Option<f64> {
        (key == "integrator.dt").then_some(2.0)
    }

    fn measures(_study: &Cases<Self>) -> Measures {
        Measures {
            error: Some((
                "rms_error_x".into(),
                "rms of x - x_ref over the samples and written DOFs [m]".into(),
            )),
            cost_keys: vec!["integrator.dt".into()],
            step_keys: vec!["integrator.dt".into()],
            method_cost_keys: Vec::new(),
        }
    }

    /// The methods that scale to the case's size.
    fn runs(&self, m: &spec::MethodConfig) -> bool {
        m.runs_at(self.system.dofs(), self.steps)
    }

    fn has_reference(&self) -> bool {
        self.exact
    }

    fn timed_reference(&self) -> Option<&'static str> {
        self.exact.then_some(run::REFERENCE_METHOD)
    }

    /// The case's time steps (steady state: settle and measured periods
    /// times the steps per period), for its methods and its exact reference.
    fn job_cost(&self, _method: Option<usize>) -> Option<f64> {
        Some(self.steps as f64)
    }

    fn run_reference(&self, _progress: &Progress) -> Run<ReferenceOutput> {
        run::exact_reference(self)
    }

    fn run(&self, m: &spec::MethodConfig, progress: &Progress) -> Run<MethodOutput> {
        run::run_method(self, m, progress)
    }

    fn finish(&self, Finished { reference, methods }: Finished) -> Run<Vec<Scalar>> {
        let cfg = self;
        let mut scalars = vec![
            Scalar::new("dt", cfg.dt, "time step [s]"),
            Scalar::new("alpha_b", cfg.alpha_b, "Bossak parameter alpha_b [-]"),
            Scalar::new(
                "bossak_rho_inf",
                run::bossak_rho_inf(cfg.alpha_b),
                "analytic spectral radius of the Bossak-Newmark step at infinite frequency, (1 + alpha_b) / (1 - alpha_b) (Wood, Bossak & Zienkiewicz 1980) [-]",
            ),
        ];
        if cfg.steady_state.is_some() {
            scalars.push(Scalar::new(
                "omega",
                cfg.system.excitation.omega,
                "forcing frequency omega [rad/s]",
            ));
        }
        if let Some(w) = run::bilinear_frequency(cfg) {
            scalars.push(Scalar::new("bilinear_frequency", w, "analytic 2 w1 w2 / (w1 + w2), w1 = sqrt(k/m), w2 = sqrt((k + k_g)/m): free frequency of the zero-gap SDOF [rad/s]"));
        }
        if let Some(w) = run::trapezoidal_bilinear_frequency(cfg) {
            scalars.push(Scalar::new("trapezoidal_bilinear_frequency", w, "the same for the trapezoidal rule: 2 w1' w2' / (w1' + w2'), w' = (2/dt) atan(w dt / 2), the discrete frequency of each linear half [rad/s]"));
        }
        run::compare(cfg, reference, methods)?;
        Ok(scalars)
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        summary::summarize(&study.name, &study.cases, &study.sweep_keys, cases)
    }
}
