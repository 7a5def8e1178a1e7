//! A gap-system study with `[study.continuation]`: the frequency response
//! of the system as a branch of T-periodic orbits continued in the forcing
//! frequency omega from `omega_from` to `omega_to` (the case's reference
//! job, [`branch`]: pseudo-arclength continuation of shooting on the exact
//! event-driven flow, with stability from the monodromy matrix, folds and
//! period doublings located), and two methods: the time-stepper sweeping
//! the frequency up (`sweep-up`) and down (`sweep-down`), each frequency
//! settled from the previous one's final state ([`sweep`]). The comparison
//! ([`compare`]) places every settled sweep point against the branch's
//! stable and unstable pieces; the jumps against the folds are checks of
//! the spec. The study writes `branch.csv` ([`figure`]).

pub mod branch;
pub mod compare;
pub mod figure;
pub mod spec;
pub mod sweep;

use sweep::{SWEEP_DOWN, SWEEP_UP};

use crate::error::{InputError, SolverError};
use crate::harness::spec::StudySpec;
use crate::harness::study::{
    CaseOutput, MethodOutput, MethodPlan, MethodResult, ReferenceOutput, Scalar, Study,
    StudySummary,
};
use crate::harness::study::{Provides, names};

use spec::ContinuationConfig;

/// The study: one case.
pub struct ContinuationStudy {
    cfg: ContinuationConfig,
}

/// Builds the study from its spec.
pub fn build(spec: &StudySpec) -> Result<ContinuationStudy, InputError> {
    Ok(ContinuationStudy {
        cfg: spec::parse(spec)?,
    })
}

const COUNTER_DOCS: [(&str, &str); 8] = [
    ("steps", "time steps taken over the whole sweep [-]"),
    (
        "lcp_pivots",
        "LCP pivots (Lemke), summed over the steps [-]",
    ),
    (
        "lcp_iterations",
        "LCP solver iterations, summed over the steps [-]",
    ),
    (
        "newton_iterations",
        "semi-smooth Newton iterations, summed over the steps [-]",
    ),
    (
        "factorizations",
        "matrix factorizations (one per sweep frequency and run) [-]",
    ),
    (
        "max_active",
        "largest number of engaged gap springs at the end of a step [-]",
    ),
    (
        "flows",
        "period-map evaluations with derivatives of the continuation (Newton iterations and extremes passes) [-]",
    ),
    (
        "rejected_steps",
        "continuation steps rejected by its step control [-]",
    ),
];

impl Study for ContinuationStudy {
    fn methods(&self, _case: usize) -> Vec<MethodPlan> {
        let m = &self.cfg.method;
        [(SWEEP_UP, "up"), (SWEEP_DOWN, "down")]
            .iter()
            .map(|(label, dir)| MethodPlan {
                label: (*label).into(),
                method: m.method.name().to_string(),
                doc: format!(
                    "Bossak-Newmark (`{}`) sweeping omega {dir}, each frequency settled from the previous one's final state",
                    m.method.name()
                ),
            })
            .collect()
    }

    fn default_baseline(&self) -> Option<String> {
        Some(SWEEP_UP.into())
    }

    fn provides(&self) -> Provides {
        Provides {
            study_scalars: names(&[
                "sweep_hysteresis_width",
                "hysteresis_width",
                "fold_up_omega",
                "fold_down_omega",
            ]),
            method_scalars: names(&[
                "jumps",
                "sweep_points",
                "max_settle_change",
                "jump_omega",
                "jump_resolution",
                "jump_amplitude_before",
                "jump_amplitude_after",
                "max_branch_distance",
                "max_branch_distance_omega",
                "unstable_points",
            ]),
            case_scalars: names(&[
                "branch_points",
                "fold_count",
                "period_doubling_count",
                "torus_count",
                "turned_back",
                "fold_multiplier_error",
                "fd_points",
                "fd_monodromy_error",
                "fd_d_omega_error",
                "fd_multiplier_error",
                "saltation_deviation",
                "fold_up_omega",
                "fold_up_amplitude",
                "fold_down_omega",
                "fold_down_amplitude",
                "hysteresis_width",
            ]),
            columns: names(&[
                "frequency",
                "amplitude",
                "x*_max",
                "x*_min",
                "settle_change",
            ]),
            tables: names(&[branch::ORBITS]),
            methods: Vec::new(),
        }
    }

    fn counter_docs(&self) -> Vec<(&'static str, &'static str)> {
        COUNTER_DOCS.to_vec()
    }

    fn has_reference(&self, _case: usize) -> bool {
        true
    }

    fn timed_reference(&self, _case: usize) -> Option<&'static str> {
        Some(branch::TIMED)
    }

    /// A sweep: its frequencies times each one's time steps. The
    /// continuation (the reference): a tenth of a sweep (measured on the
    /// quick suite: 0.2 s of CPU against 2.9 s for a sweep's three timed
    /// runs; `harness::shard`).
    fn job_cost(&self, _case: usize, method: Option<usize>) -> Option<f64> {
        let sweep = (self.cfg.sweep.points * self.cfg.case.steps) as f64;
        Some(if method.is_some() { sweep } else { 0.1 * sweep })
    }

    fn run_reference(
        &self,
        _case: usize,
        _progress: &indicatif::ProgressBar,
    ) -> Result<ReferenceOutput, SolverError> {
        branch::run(&self.cfg)
    }

    fn run_method(
        &self,
        _case: usize,
        method: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<MethodOutput, SolverError> {
        let up = method == 0;
        let s = sweep::run_sweep(&self.cfg, up, progress)?;
        let counter = crate::studies::gap_system::run::iterations_counter(&self.cfg.method);
        Ok(sweep::output(
            &s,
            if up { SWEEP_UP } else { SWEEP_DOWN },
            counter,
        ))
    }

    fn finish_case(
        &self,
        _case: usize,
        reference: Option<&ReferenceOutput>,
        methods: &mut [MethodResult],
    ) -> Result<Vec<Scalar>, SolverError> {
        let orbits = reference
            .and_then(|r| r.tables.iter().find(|t| t.what == branch::ORBITS))
            .ok_or_else(|| {
                SolverError::other("continuation", "no branch to compare the sweeps with")
            })?;
        let pieces = branch::pieces(&orbits.table);
        for m in methods.iter_mut() {
            if let Ok(run) = &mut m.outcome {
                let extra = compare::sweep_scalars(&run.output.series, &pieces);
                run.output.scalars.extend(extra);
            }
        }
        Ok(Vec::new())
    }

    fn summarize(&self, cases: &[CaseOutput]) -> StudySummary {
        let Some(case) = cases.first() else {
            return StudySummary::default();
        };
        let mut summary = figure::summarize(case, self.cfg.case.system.dofs());
        let ss = self.cfg.case.steady_state;
        if let Some(ss) = ss {
            summary.notes.push(format!(
                "Sweeps: {} frequencies from {} to {} rad/s and back, {} settling and {} measured periods at each, {} steps per period; near a jump the step halved up to {} times, at least {} settling periods at those points. The continuation's stability is that of the exact flow; the sweeps' points are placed against it in (ln omega, ln A).",
                self.cfg.sweep.points,
                self.cfg.continuation.omega_from,
                self.cfg.continuation.omega_to,
                ss.settle_periods,
                ss.measure_periods,
                ss.steps_per_period,
                self.cfg.sweep.refine_jumps,
                self.cfg.sweep.refine_settle_periods
            ));
        }
        summary
    }
}
