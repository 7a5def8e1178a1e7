//! One method of a shrouded-blades case: the blades simulated with the
//! method's law and integrator ([`super::simulate`]), their
//! tip displacements taken from the preloaded equilibrium, the run's
//! scalars (peaks, the slip's decay, the energy balance, the sticking
//! fractions) and its series.

use crate::error::SolverError;
use crate::harness::kind::Progress;
use crate::harness::study::{MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::models::blades::beam;

use super::simulate::{BladeMethod, BladeRun, simulate};

use super::spec::{CaseConfig, Integrator, MethodConfig};

/// Runs method `m` of case `cfg` as one unit of `progress`.
pub(super) fn run_method(
    cfg: &CaseConfig,
    m: &MethodConfig,
    progress: &Progress,
) -> Result<MethodOutput, SolverError> {
    let how = match m.integrator {
        Integrator::Moreau => BladeMethod::Moreau { dt: cfg.dt },
        Integrator::Imex => BladeMethod::Imex { dt: cfg.imex_dt },
        Integrator::Rk4 => BladeMethod::Rk4 { dt: cfg.dt },
        Integrator::Dopri5 => BladeMethod::Dopri5 {
            tolerance: cfg.tolerance,
            max_steps: cfg.max_steps,
        },
    };
    progress.set_length(1);
    let mut run = simulate(
        &cfg.model,
        m.law,
        how,
        cfg.t_end,
        cfg.output_interval,
        cfg.watched_patch,
    )
    .map_err(|message| SolverError::other(m.label.clone(), message))?;
    progress.inc(1);
    // Displacements from the preloaded equilibrium (the state at rest
    // before the load; zero without interference): the figures' and
    // scalars' quantities.
    let (q0, _) = cfg.model.initial_state();
    let tip = cfg.model.tip(0);
    let (y0, z0) = (q0[tip + beam::V], q0[tip + beam::W]);
    run.tip_z.iter_mut().for_each(|z| *z -= z0);
    run.tip_y.iter_mut().for_each(|y| *y -= y0);
    let counters = vec![
        ("steps".into(), run.steps as f64),
        ("rejected_steps".into(), run.rejected_steps as f64),
        ("rhs_evaluations".into(), run.rhs_evaluations as f64),
        ("local_iterations".into(), run.local_iterations as f64),
        ("newton_iterations".into(), run.newton_iterations as f64),
        ("stick_patch_steps".into(), run.stick_patch_steps as f64),
    ];
    Ok(MethodOutput {
        scalars: scalars(&run),
        counters,
        series: series(run),
        tables: Vec::new(),
        stats: Vec::new(),
    })
}

/// The run's scalars.
fn scalars(run: &BladeRun) -> Vec<Scalar> {
    let stick = stick_fractions(run);
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
    scalars
}

/// The run's series.
fn series(run: BladeRun) -> Table {
    Table::new()
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
        )
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
