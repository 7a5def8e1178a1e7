//! Study kind `shrouded-blades`: the seed on friction in contact joints,
//! its application: two clamped blades whose rigid shrouds touch over
//! 4 x 5 contact patches, a 10 N step pressing force, the transient of
//! blade 1's tip (Fig. 4b) and the slip speed at a patch (Fig. 4c) for each
//! friction law ([`crate::models::blades`]). Each law is a method of the
//! case (`[friction]`, `[variants.<label>]`), run by Moreau time stepping
//! (true sticking) or as an ODE (Dormand-Prince, RK4; no sticking limit, as
//! the seed computed). The seed's conclusions are reported from the results
//! as reproduced or not (study notes), never forced.

pub mod kernels;
mod run;
pub mod simulate;
pub mod spec;
mod summary;

use crate::harness::kind::{CaseKind, Cases, Finished, Progress, Run};
use crate::harness::study::{CaseOutput, MethodOutput, Scalar, StudySummary};
use crate::harness::study::{Provides, names};
use crate::models::blades::beam;

use spec::{CaseConfig, Integrator};

const COUNTER_DOCS: [(&str, &str); 6] = [
    ("steps", "accepted time steps [-]"),
    (
        "rejected_steps",
        "steps rejected by the error control (dopri5) [-]",
    ),
    (
        "rhs_evaluations",
        "evaluations of the equations of motion (dopri5, rk4) [-]",
    ),
    (
        "local_iterations",
        "Gauss-Seidel sweeps over the patches' friction problems (moreau) [-]",
    ),
    (
        "newton_iterations",
        "Newton iterations over all patches' impulses at once (moreau, regularised laws) [-]",
    ),
    (
        "stick_patch_steps",
        "patch-steps that ended stuck (moreau: inside the friction disc) [-]",
    ),
];

crate::harness::kind::described_methods! { CaseConfig, spec::MethodConfig, |m| m.integrator.name().to_string(), describe }

/// The report's line on method `m`.
fn describe(m: &spec::MethodConfig) -> String {
    let by = match m.integrator {
        Integrator::Moreau => {
            "Moreau time stepping (friction impulses per patch by projected Gauss-Seidel, true sticking)"
        }
        Integrator::Dopri5 => {
            "Dormand-Prince 5(4) on the ODE (friction -N f(|c|) c/|c|, no sticking limit)"
        }
        Integrator::Rk4 => "classical Runge-Kutta on the ODE",
        Integrator::Imex => {
            "the seed's formulation (friction -N f(|c|) c/|c|, no sticking limit) by Moreau steps with the friction force explicit at the step's start"
        }
    };
    format!("{} friction on the 20 patches by {by}", m.law_name)
}

impl CaseKind for CaseConfig {
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &COUNTER_DOCS;

    /// Time steps times the 20 contact patches each step treats (the
    /// harness's default counts steps alone; a step here costs some 20 x
    /// a one-DOF step, `harness::shard`).
    fn job_cost(&self, _method: Option<usize>) -> Option<f64> {
        let c = self;
        Some(20.0 * c.t_end / c.dt)
    }

    fn default_baseline(study: &Cases<Self>) -> Option<String> {
        study.baseline_or_first(|m| m.integrator == Integrator::Moreau)
    }

    fn provides(_study: &Cases<Self>) -> Provides {
        Provides {
            study_scalars: names(&["seed_slip_step_slope"]),
            method_scalars: names(&[
                "steps",
                "peak_tip_z",
                "final_tip_z",
                "peak_slip_speed",
                "early_slip_speed",
                "late_slip_speed",
                "slip_decay_ratio",
                "late_amplitude",
                "stick_fraction",
                "patch_stick_min",
                "patch_stick_max",
                "peak_normal_force",
                "relative_balance_error",
                "min_dissipated",
            ]),
            case_scalars: names(&[
                "dt",
                "imex_dt",
                "tolerance",
                "static_tip_z",
                "preload_normal_force",
                "preload_min_patch_force",
                "preload_max_patch_force",
                "torsion_stiffness_at_lever",
            ]),
            columns: names(&[
                "t",
                "tip_z",
                "tip_y",
                "slip_speed",
                "max_slip_speed",
                "normal_force",
                "friction_force",
                "dissipated",
                "damping_dissipated",
                "load_work",
                "energy",
                "balance_error",
            ]),
            tables: Vec::new(),
            methods: Vec::new(),
        }
    }

    fn run(&self, m: &spec::MethodConfig, progress: &Progress) -> Run<MethodOutput> {
        run::run_method(self, m, progress)
    }

    fn finish(&self, _: Finished) -> Run<Vec<Scalar>> {
        let cfg = self;
        let mut scalars = vec![
            Scalar::new("dt", cfg.dt, "step of moreau and rk4 [s]"),
            Scalar::new(
                "imex_dt",
                cfg.imex_dt,
                "step of imex, the seed's formulation [s]",
            ),
            Scalar::new("tolerance", cfg.tolerance, "rtol of dopri5 [-]"),
        ];
        let (q0, v0) = cfg.model.initial_state();
        let tip = cfg.model.tip(0);
        if let Ok(q) = cfg.model.static_equilibrium(1.0) {
            scalars.push(Scalar::new(
                "static_tip_z",
                q[tip + beam::W] - q0[tip + beam::W],
                "blade 1's tip z in the frictionless static equilibrium under the full load, from the preloaded equilibrium [m]",
            ));
        }
        let contact = cfg.model.contact();
        let pen = contact.penalty;
        let forces: Vec<f64> = (0..cfg.model.patch_count())
            .map(|j| {
                let k = contact.kinematics(j, &q0, &v0);
                pen.normal_force(k.penetration, 0.0)
            })
            .collect();
        scalars.push(Scalar::new(
            "preload_normal_force",
            forces.iter().sum(),
            "N_0: the total normal force of the preload at rest (interference, contact.initial_gap < 0) [N]",
        ));
        scalars.push(Scalar::new(
            "preload_min_patch_force",
            forces.iter().copied().fold(f64::INFINITY, f64::min),
            "the smallest patch normal force of the preload at rest [N]: 0 when a patch is open",
        ));
        scalars.push(Scalar::new(
            "preload_max_patch_force",
            forces.iter().copied().fold(0.0, f64::max),
            "the largest patch normal force of the preload at rest [N]",
        ));
        if let Some((k_t, _)) = cfg.model.torsion() {
            let lever = 0.5 * cfg.model.params().pitch;
            scalars.push(Scalar::new(
                "torsion_stiffness_at_lever",
                k_t / (lever * lever),
                "phi_t G J / L over (s/2)^2: the blade's torsion as a stiffness at the contact's lever [N/m]",
            ));
        }
        Ok(scalars)
    }

    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary {
        let mut s = summary::summarize(&study.cases, cases);
        crate::studies::shared::figures::stiffness(&mut s, &study.sweep_keys, cases);
        s
    }
}
