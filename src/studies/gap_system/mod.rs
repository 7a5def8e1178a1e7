//! Study kind `gap-system`: piecewise-linear MDOF systems with gap-activated
//! springs under harmonic forcing (Yu, Nonlinear Dynamics 71 (2013) 493-504),
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t),
//!
//! integrated by Bossak-Newmark with one exact LCP per step (`newmark-lcp`)
//! and checked against the exact event-driven solution (matrix exponential
//! between switches) or reference files. Modes: a time response
//! (`integrator.dt`, `integrator.t_end`) or a steady state
//! (`[study.steady_state]`: the periodic response, for frequency-response
//! curves swept over `excitation.omega`).

pub mod run;
pub mod spec;
mod summary;

use crate::error::InputError;
use crate::harness::checks::Provides;
use crate::harness::spec::StudySpec;
use crate::harness::study::{CaseResult, Study, StudySummary};

use spec::{CaseConfig, Ctx};

/// A gap-system study: its validated cases.
pub struct GapSystemStudy {
    name: String,
    case_names: Vec<String>,
    cases: Vec<CaseConfig>,
    sweep_keys: Vec<String>,
}

/// Builds the study from its spec (validating every case).
pub fn build(spec: &StudySpec) -> Result<GapSystemStudy, InputError> {
    let ctx = Ctx {
        file: &spec.file,
        study: &spec.name,
    };
    let cases = spec
        .cases
        .iter()
        .map(|c| spec::parse_case(&ctx, c.table.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GapSystemStudy {
        name: spec.name.clone(),
        case_names: spec.cases.iter().map(|c| c.name.clone()).collect(),
        cases,
        sweep_keys: spec.sweeps.iter().map(|s| s.key.clone()).collect(),
    })
}

impl Study for GapSystemStudy {
    fn provides(&self) -> Provides {
        let mut p = Provides {
            study_scalars: vec![
                "order".into(),
                "order_min".into(),
                "peak_omega".into(),
                "exact_peak_omega".into(),
                "bilinear_frequency".into(),
            ],
            case_scalars: vec![
                "dt".into(),
                "steps".into(),
                "max_active".into(),
                "omega".into(),
                "x0_frequency".into(),
                "exact_x0_frequency".into(),
                "bilinear_frequency".into(),
                "exact_multiplier".into(),
                "exact_stable".into(),
            ],
            columns: vec!["t".into(), "x*".into(), "v*".into(), "f*".into()],
            tables: vec!["exact".into()],
        };
        let n = self
            .cases
            .iter()
            .map(|c| c.system.dofs())
            .max()
            .unwrap_or(0)
            .min(64);
        let mut labels = vec![String::new()];
        for case in &self.cases {
            for m in case.methods.iter().skip(1) {
                let sfx = format!(".{}", m.label);
                if !labels.contains(&sfx) {
                    labels.push(sfx);
                    p.tables.push(m.label.clone());
                    p.study_scalars
                        .push(format!("order{}", labels.last().map_or("", |s| s.as_str())));
                    p.study_scalars.push(format!(
                        "order_min{}",
                        labels.last().map_or("", |s| s.as_str())
                    ));
                }
            }
        }
        for sfx in &labels {
            p.case_scalars.push(format!("max_error_x{sfx}"));
            p.case_scalars.push(format!("max_error_v{sfx}"));
            p.case_scalars.push(format!("rms_error_x{sfx}"));
            p.case_scalars.push(format!("iterations_per_step{sfx}"));
            for i in 0..n {
                for what in ["max", "min", "amp"] {
                    p.case_scalars.push(format!("x{i}_{what}{sfx}"));
                }
            }
        }
        for i in 0..n {
            for what in ["max", "min", "amp"] {
                p.case_scalars.push(format!("exact_x{i}_{what}"));
            }
        }
        p
    }

    fn cases(&self) -> &[String] {
        &self.case_names
    }

    fn run_case(&self, index: usize, progress: &indicatif::ProgressBar) -> CaseResult {
        run::run_case(&self.case_names[index], &self.cases[index], progress)
    }

    fn summarize(&self, cases: &[CaseResult]) -> StudySummary {
        summary::summarize(&self.name, &self.cases, &self.sweep_keys, cases)
    }
}
