//! Study kind `shrouded-blades`: the seed on friction in contact joints,
//! its application: two clamped blades whose rigid shrouds touch over
//! 4 x 5 contact patches, a 10 N step pressing force, the transient of
//! blade 1's tip (Fig. 4b) and the slip speed at a patch (Fig. 4c) for each
//! friction law ([`crate::models::blades`]). Each law is a method of the
//! case (`[friction]`, `[variants.<label>]`), run by Moreau time stepping
//! (true sticking) or as an ODE (Dormand-Prince, RK4; no sticking limit, as
//! the seed computed). The seed's conclusions are reported from the results
//! as reproduced or not (study notes), never forced.

pub mod spec;
mod summary;

use crate::error::{InputError, SolverError};
use crate::harness::checks::Provides;
use crate::harness::kind::Cases;
use crate::harness::spec::StudySpec;
use crate::harness::study::{CaseOutput, MethodOutput, MethodPlan, Scalar, Study, StudySummary};
use crate::harness::table::Table;
use crate::models::blades::{BladeMethod, BladeRun, beam, simulate};

use spec::{CaseConfig, Integrator};

/// A shrouded-blades study: its validated cases.
pub type ShroudedBladesStudy = Cases<CaseConfig>;

/// Builds the study from its spec (validating every case).
pub fn build(spec: &StudySpec) -> Result<ShroudedBladesStudy, InputError> {
    crate::studies::keys::parse_cases(spec, spec::parse_case)
}

const COUNTER_DOCS: [(&str, &str); 5] = [
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
    };
    format!("{} friction on the 20 patches by {by}", m.law_name)
}

impl Study for ShroudedBladesStudy {
    fn methods(&self, case: usize) -> Vec<MethodPlan> {
        self.plans(case)
    }

    /// Time steps times the 20 contact patches each step treats (the
    /// harness's default counts steps alone; a step here costs some 20 x
    /// a one-DOF step, `harness::shard`).
    fn job_cost(&self, case: usize, _method: Option<usize>) -> Option<f64> {
        let c = &self.cases[case];
        Some(20.0 * c.t_end / c.dt)
    }

    fn default_baseline(&self) -> Option<String> {
        self.baseline_or_first(|m| m.integrator == Integrator::Moreau)
    }

    fn provides(&self) -> Provides {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        Provides {
            study_scalars: Vec::new(),
            method_scalars: strings(&[
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
            case_scalars: strings(&[
                "dt",
                "tolerance",
                "static_tip_z",
                "preload_normal_force",
                "preload_min_patch_force",
                "preload_max_patch_force",
                "torsion_stiffness_at_lever",
            ]),
            columns: strings(&[
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

    fn counter_docs(&self) -> Vec<(&'static str, &'static str)> {
        COUNTER_DOCS.to_vec()
    }

    fn run_method(
        &self,
        case: usize,
        method: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<MethodOutput, SolverError> {
        let cfg = &self.cases[case];
        let m = &cfg.methods[method];
        let how = match m.integrator {
            Integrator::Moreau => BladeMethod::Moreau { dt: cfg.dt },
            Integrator::Rk4 => BladeMethod::Rk4 { dt: cfg.dt },
            Integrator::Dopri5 => BladeMethod::Dopri5 {
                tolerance: cfg.tolerance,
                max_steps: cfg.max_steps,
            },
        };
        progress.set_length(1);
        let run = simulate(
            &cfg.model,
            m.law,
            how,
            cfg.t_end,
            cfg.output_interval,
            cfg.watched_patch,
        )
        .map_err(|message| SolverError::Other {
            method: m.label.clone(),
            message,
        })?;
        progress.inc(1);
        // Displacements from the preloaded equilibrium (the state at rest
        // before the load; zero without interference): the figures' and
        // scalars' quantities.
        let mut run = run;
        let (q0, _) = cfg.model.initial_state();
        let tip = cfg.model.tip(0);
        let (y0, z0) = (q0[tip + beam::V], q0[tip + beam::W]);
        run.tip_z.iter_mut().for_each(|z| *z -= z0);
        run.tip_y.iter_mut().for_each(|y| *y -= y0);
        let stick = stick_fractions(&run);
        let n = run.t.len();
        let third = (n / 3).max(1);
        let max_abs = |v: &[f64]| v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        let late = &run.tip_z[n.saturating_sub(third)..];
        let (lo, hi) = late
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let peak_work = max_abs(&run.load_work).max(1e-300);
        let late_slip = max_abs(&run.slip_speed[n.saturating_sub(third)..]);
        let early_slip = max_abs(&run.slip_speed[..third.min(n)]);
        let mut scalars = vec![
            Scalar::new("steps", run.steps as f64, "accepted time steps [-]"),
            Scalar::new(
                "peak_tip_z",
                max_abs(&run.tip_z),
                "max |tip displacement of blade 1 along z from the preloaded equilibrium| [m]",
            ),
            Scalar::new(
                "final_tip_z",
                *run.tip_z.last().unwrap_or(&f64::NAN),
                "tip displacement of blade 1 along z at t_end, from the preloaded equilibrium [m]",
            ),
            Scalar::new(
                "peak_slip_speed",
                max_abs(&run.slip_speed),
                "max slip speed at the watched patch [m/s]",
            ),
            Scalar::new(
                "early_slip_speed",
                early_slip,
                "max slip speed at the watched patch over the first third of the run [m/s]",
            ),
            Scalar::new(
                "late_slip_speed",
                late_slip,
                "max slip speed at the watched patch over the last third of the run [m/s]",
            ),
            Scalar::new(
                "slip_decay_ratio",
                late_slip / early_slip,
                "late_slip_speed / early_slip_speed [-]: below 1 when the relative velocity decreases",
            ),
            Scalar::new(
                "late_amplitude",
                0.5 * (hi - lo),
                "(max - min) / 2 of blade 1's tip z over the last third of the run [m]",
            ),
            Scalar::new(
                "peak_normal_force",
                max_abs(&run.normal_force),
                "max total normal contact force [N]",
            ),
            Scalar::new(
                "relative_balance_error",
                max_abs(&run.balance_error) / peak_work,
                "max |energy + friction and damping dissipation - load work| over the peak load work [-]",
            ),
            Scalar::new(
                "min_dissipated",
                run.dissipated.iter().fold(f64::INFINITY, |a, &x| a.min(x)),
                "smallest friction work dissipated over the samples [J]: never negative",
            ),
        ];
        if let Some((all, lo, hi)) = stick {
            scalars.extend([
                Scalar::new(
                    "stick_fraction",
                    all,
                    "patch-steps that ended stuck over all patch-steps (moreau) [-]",
                ),
                Scalar::new(
                    "patch_stick_min",
                    lo,
                    "the least-stuck patch's fraction of steps ended stuck (moreau) [-]",
                ),
                Scalar::new(
                    "patch_stick_max",
                    hi,
                    "the most-stuck patch's fraction of steps ended stuck (moreau) [-]",
                ),
            ]);
        }
        let series = Table::new()
            .with("t", "time [s]", run.t)
            .with(
                "tip_z",
                "blade 1's tip displacement along z (the load's direction) [m]",
                run.tip_z,
            )
            .with("tip_y", "blade 1's tip displacement along y [m]", run.tip_y)
            .with(
                "slip_speed",
                "slip speed |c| at the watched patch [m/s]",
                run.slip_speed,
            )
            .with(
                "max_slip_speed",
                "largest slip speed over the patches [m/s]",
                run.max_slip_speed,
            )
            .with(
                "normal_force",
                "total normal contact force [N]",
                run.normal_force,
            )
            .with(
                "friction_force",
                "magnitude of the total friction force [N]",
                run.friction_force,
            )
            .with("dissipated", "friction work dissipated [J]", run.dissipated)
            .with(
                "damping_dissipated",
                "work dissipated by the Rayleigh and contact damping [J]",
                run.damping_dissipated,
            )
            .with("load_work", "work of the step load [J]", run.load_work)
            .with(
                "energy",
                "kinetic + strain (+ contact penalty) energy [J]",
                run.energy,
            )
            .with(
                "balance_error",
                "|energy + dissipated - load work| [J]",
                run.balance_error,
            );
        Ok(MethodOutput {
            series,
            tables: Vec::new(),
            scalars,
            counters: vec![
                ("steps".into(), run.steps as f64),
                ("rejected_steps".into(), run.rejected_steps as f64),
                ("rhs_evaluations".into(), run.rhs_evaluations as f64),
                ("local_iterations".into(), run.local_iterations as f64),
                ("stick_patch_steps".into(), run.stick_patch_steps as f64),
            ],
            stats: Vec::new(),
        })
    }

    fn finish_case(
        &self,
        case: usize,
        _reference: Option<&crate::harness::study::ReferenceOutput>,
        _methods: &mut [crate::harness::study::MethodResult],
    ) -> Result<Vec<Scalar>, SolverError> {
        let cfg = &self.cases[case];
        let mut scalars = vec![
            Scalar::new("dt", cfg.dt, "step of moreau and rk4 [s]"),
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
                "G J / L over (s/2)^2: the blade's torsion as a stiffness at the contact's lever [N/m]",
            ));
        }
        Ok(scalars)
    }

    fn summarize(&self, cases: &[CaseOutput]) -> StudySummary {
        let mut s = summary::summarize(&self.cases, cases);
        crate::studies::shared::figures::stiffness(&mut s, &self.sweep_keys, cases);
        s
    }
}

/// (all patches, least-stuck patch, most-stuck patch): the fractions of
/// steps that ended stuck, for a Moreau run (None for the ODE runs, which
/// have no sticking).
fn stick_fractions(run: &BladeRun) -> Option<(f64, f64, f64)> {
    if run.patch_stick_steps.is_empty() || run.steps == 0 {
        return None;
    }
    let steps = run.steps as f64;
    let f: Vec<f64> = run
        .patch_stick_steps
        .iter()
        .map(|&k| k as f64 / steps)
        .collect();
    let all = f.iter().sum::<f64>() / f.len() as f64;
    let lo = f.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((all, lo, hi))
}
