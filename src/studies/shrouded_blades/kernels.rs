//! The shrouded-blades kind's per-step kernels (`harness::kernels`): one
//! Moreau step of the blade pair under each of the five laws, one step of
//! the seed's formulation (`imex`: the friction force explicit), and an
//! adaptive Dormand-Prince span of the seed's ODE for the regularised
//! laws (`-ode`), with the study's Fig. 4a laws on the study's pair
//! (`crate::fixtures`: torsion, the shrouds pressed together). The first
//! kernel, `moreau-step`, keeps the default pair (no torsion, no initial
//! interference) it has been measured on since it was added.

use crate::contact::friction::FrictionLaw;
use crate::fixtures::blades as fixture;
use crate::fixtures::friction;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::integrators::rk::{Dopri5, Tolerances};
use crate::models::blades::BladePair;
use crate::models::blades::ode::BladeOde;
use crate::studies::shared::ode_kernel::{self, Span};

/// Every method the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// The Moreau step [s] (the study's `integrator.dt`).
const DT: f64 = 1e-6;

/// Moreau steps of the study's pair before the measured one under a
/// regularised law (each step a Newton solve per patch: 300 of them took
/// 4 s of the setup under Valgrind) and under a set-valued law (2000 took
/// 5 to 7 s).
const REGULARIZED_STEPS: usize = 100;
const SET_VALUED_STEPS: usize = 500;

/// The seed formulation's step [s] (the study's `imex.dt`).
const IMEX_DT: f64 = 1e-7;

/// Dormand-Prince: rtol (atol = 1e-3 rtol), first step [s], the time the
/// measured span starts at and its length [s].
const TOLERANCE: f64 = 1e-8;
const FIRST_STEP: f64 = 1e-7;
const ODE_START: f64 = 1e-4;
const ODE_SPAN: f64 = 1e-6;

/// A Moreau kernel of law `$timed` (the study's label) on the study's
/// pair, from `$steps` steps into its transient.
macro_rules! moreau_kernel {
    ($timed:literal, $steps:expr, $what:literal) => {
        Kernel {
            info: KernelInfo {
                kind: "shrouded-blades",
                timed: $timed,
                case: "shrouded-blades",
                method: concat!($timed, "-moreau-step"),
                what: $what,
            },
            prepare: |_| moreau_step(fixture::study_pair()?, law($timed)?, DT, $steps, false),
        }
    };
}

/// A Dormand-Prince kernel of the regularised law `$law`.
macro_rules! ode_kernel {
    ($law:literal, $what:literal) => {
        Kernel {
            info: KernelInfo {
                kind: "shrouded-blades",
                timed: concat!($law, "-ode"),
                case: "shrouded-blades",
                method: concat!($law, "-dopri5-span"),
                what: $what,
            },
            prepare: |_| dopri5_span(law($law)?),
        }
    };
}

/// A seed-formulation kernel of law `$law`.
macro_rules! imex_kernel {
    ($law:literal, $what:literal) => {
        Kernel {
            info: KernelInfo {
                kind: "shrouded-blades",
                timed: concat!($law, "-seed"),
                case: "shrouded-blades",
                method: concat!($law, "-imex-step"),
                what: $what,
            },
            prepare: |_| moreau_step(fixture::study_pair()?, law($law)?, IMEX_DT, 2000, true),
        }
    };
}

/// The kind's kernels.
pub const KERNELS: [Kernel; 11] = [
    Kernel {
        info: KernelInfo {
            kind: "shrouded-blades",
            timed: "constant",
            case: "shrouded-blades",
            method: "moreau-step",
            what: "one Moreau step of 1e-6 s of the two blades (20 friction patches, Coulomb mu = 0.2, \
                   impulses by projected Gauss-Seidel) from t = 2 ms of the 10 N step transient",
        },
        prepare: |_| {
            moreau_step(
                fixture::pair()?,
                FrictionLaw::constant(0.2),
                DT,
                2000,
                false,
            )
        },
    },
    moreau_kernel!(
        "constant",
        SET_VALUED_STEPS,
        "one Moreau step of 1e-6 s of the study's blades (with torsion, shrouds pressed 3.2 mm \
         together; 20 friction patches, the constant law 0.2) from t = 0.5 ms of the 10 N step \
         transient"
    ),
    moreau_kernel!(
        "tanh",
        REGULARIZED_STEPS,
        "one Moreau step of 1e-6 s of the study's blades with f = 0.2 tanh(2e4 v) from t = 0.1 ms of \
         the transient under that law"
    ),
    moreau_kernel!(
        "adams",
        REGULARIZED_STEPS,
        "one Moreau step of 1e-6 s of the study's blades with the ADAMS-type law (0.2, B = 500 s/m) \
         from t = 0.1 ms of the transient under that law"
    ),
    moreau_kernel!(
        "micro-slip",
        REGULARIZED_STEPS,
        "one Moreau step of 1e-6 s of the study's blades with the micro-slip law (0.4 -> 0.2, decay \
         2000 s/m) from t = 0.1 ms of the transient under that law"
    ),
    moreau_kernel!(
        "ansys",
        SET_VALUED_STEPS,
        "one Moreau step of 1e-6 s of the study's blades with ANSYS's exponential law (0.4 -> 0.2, \
         decay 2000 s/m) from t = 0.5 ms of the transient under that law"
    ),
    ode_kernel!(
        "tanh",
        "adaptive Dormand-Prince (rtol = 1e-8, atol = 1e-11) of the seed's ODE of the study's blades with \
         f = 0.2 tanh(2e4 v) over 1e-6 s from its state at t = 0.1 ms, first step 1e-7 s"
    ),
    ode_kernel!(
        "adams",
        "the same Dormand-Prince span with the ADAMS-type law (0.2, B = 500 s/m)"
    ),
    ode_kernel!(
        "micro-slip",
        "the same Dormand-Prince span with the micro-slip law (0.4 -> 0.2, decay 2000 s/m)"
    ),
    imex_kernel!(
        "constant",
        "one step of 1e-7 s of the seed's formulation (the Moreau scheme with the friction force \
         explicit, no sticking limit) of the study's blades with the constant law 0.2, from t = 0.2 ms"
    ),
    imex_kernel!(
        "ansys",
        "one step of 1e-7 s of the seed's formulation with ANSYS's exponential law (0.4 -> 0.2, \
         decay 2000 s/m), from t = 0.2 ms"
    ),
];

/// The law of `name` among the fixture's Fig. 4a laws.
fn law(name: &str) -> Result<FrictionLaw, String> {
    friction::fig4a_law(name).ok_or_else(|| format!("no law `{name}` in the fixture"))
}

/// Moreau steps of `dt` (with the friction force explicit: `imex`) of
/// `model` with `law`, the measured one after `steps` + 1 steps.
/// The model is leaked (the stepper borrows it; the kernel process ends
/// after one kernel).
fn moreau_step(
    model: BladePair,
    law: FrictionLaw,
    dt: f64,
    steps: usize,
    imex: bool,
) -> Result<Work, String> {
    let model: &'static BladePair = Box::leak(Box::new(model));
    let mut stepper = MoreauStepper::new(model, law, dt)?;
    if imex {
        stepper = stepper.with_explicit_friction();
    }
    let (q, v) = model.initial_state();
    let mut state = MoreauState::new(q, v, model.patch_count());
    for _ in 0..steps {
        stepper.step(&mut state)?;
    }
    Ok(Box::new(move || {
        let report = stepper.step(&mut state)?;
        Ok(counters(&[
            ("pgs_sweeps", report.sweeps),
            ("sticking", report.sticking),
            ("newton_iterations", report.newton_iterations),
        ]))
    }))
}

/// The study's Dormand-Prince tolerances.
fn tolerances() -> Tolerances {
    Tolerances {
        rtol: TOLERANCE,
        atol: 1e-3 * TOLERANCE,
    }
}

/// Adaptive Dormand-Prince of the seed's ODE with `law` over [`ODE_SPAN`]
/// from its state at [`ODE_START`] (reached by the same integrator).
fn dopri5_span(law: FrictionLaw) -> Result<Work, String> {
    let model: &'static BladePair = Box::leak(Box::new(fixture::study_pair()?));
    let ode: &'static BladeOde = Box::leak(Box::new(BladeOde::new(model, law)));
    let mut y = ode.initial_state();
    let mut dp = Dopri5::new(y.len());
    let h = dp
        .integrate(
            ode,
            0.0,
            ODE_START,
            &mut y,
            FIRST_STEP,
            tolerances(),
            1_000_000,
            &[],
            &mut |_, _| {},
            &mut |_, _| false,
        )
        .map_err(|e| e.to_string())?;
    Ok(ode_kernel::dopri5_span(
        ode,
        Span {
            y0: y,
            t0: ODE_START,
            span: ODE_SPAN,
            first_step: h,
        },
        tolerances(),
        1_000_000,
    ))
}
