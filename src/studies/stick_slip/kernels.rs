//! The stick-slip kind's kernels (`harness::kernels`): Moreau steps of the
//! mass on the belt for the set-valued laws (Coulomb, the constant law,
//! ANSYS's exponential law, Stribeck), and an adaptive Dormand-Prince span
//! of the seed's ODE for the regularised laws and LuGre (belt-laws'
//! parameters, `crate::fixtures`).

use crate::contact::friction::FrictionLaw;
use crate::fixtures::belt as fixture;
use crate::fixtures::friction;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::integrators::rk::Tolerances;
use crate::models::belt::Belt;
use crate::studies::shared::friction::FrictionSpec;
use crate::studies::shared::ode_kernel::{self, Span};
use crate::studies::stick_slip::run::BeltOde;

/// Every law the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// belt-laws' step of the Moreau methods and first step of the
/// Dormand-Prince ones [s], and its tolerance (rtol = atol).
const DT: f64 = 1e-4;
const TOLERANCE: f64 = 1e-9;

/// The span of the Dormand-Prince kernels [s]: from x = 0 moving with the
/// belt, within the first stick phase (the regularised laws' stiff
/// creep, where the runs take most of their steps; the first slip
/// starts near 1 s).
const SPAN: f64 = 0.05;

/// A kernel of belt-laws' law `$law` (`$timed`: the study's label):
/// `moreau` 1000 steps of 1e-4 s across the first slip onset, `ode` a
/// Dormand-Prince span.
macro_rules! belt_kernel {
    (moreau $timed:literal, $what:literal, $law:expr) => {
        belt_kernel!(@ $timed, "-moreau-1000-steps", around_onset, $what, $law)
    };
    (ode $timed:literal, $what:literal, $law:expr) => {
        belt_kernel!(@ $timed, "-dopri5-span", dopri5_span, $what, $law)
    };
    (@ $timed:literal, $suffix:literal, $prepare:ident, $what:literal, $law:expr) => {
        Kernel {
            info: KernelInfo {
                kind: "stick-slip",
                timed: $timed,
                case: "belt-laws",
                method: concat!($timed, $suffix),
                what: $what,
            },
            prepare: |_| $prepare($law),
        }
    };
}

/// The law of `name` among the fixture's Fig. 4a laws.
fn law(name: &str) -> Result<FrictionLaw, String> {
    friction::fig4a_law(name).ok_or_else(|| format!("no law `{name}` in the fixture"))
}

/// The kind's kernels.
pub const KERNELS: [Kernel; 8] = [
    Kernel {
        info: KernelInfo {
            kind: "stick-slip",
            timed: "coulomb",
            case: "belt",
            method: "moreau-1000-steps",
            what: "1000 Moreau steps of 1e-3 s of the mass on the belt (Coulomb mu_s = 0.15, \
                   mu_k = 0.10): about one stick-slip cycle, both branches",
        },
        prepare: |_| moreau_steps(Ok(fixture::coulomb()), 1e-3),
    },
    belt_kernel!(
        moreau "constant",
        "1000 Moreau steps of 1e-4 s of the mass on the belt (belt-laws: the constant law 0.2) \
         across the first slip onset (500 steps of stick, 500 of slip; from x = 0 moving with \
         the belt)",
        law("constant")
    ),
    belt_kernel!(
        moreau "ansys",
        "1000 Moreau steps of 1e-4 s of the same belt with ANSYS's exponential law \
         (0.4 -> 0.2, decay 2000 s/m) across its first slip onset",
        law("ansys")
    ),
    belt_kernel!(
        moreau "stribeck",
        "1000 Moreau steps of 1e-4 s of the same belt with Stribeck's law \
         (0.4 -> 0.2, v_s = 0.01 m/s) across its first slip onset",
        Ok(friction::stribeck())
    ),
    belt_kernel!(
        ode "tanh",
        "adaptive Dormand-Prince (rtol = atol = 1e-9) of the seed's ODE of the belt with \
         f = 0.2 tanh(2e4 v) over 0.05 s from x = 0 moving with the belt, first step 1e-4 s",
        law("tanh").map(FrictionSpec::Memoryless)
    ),
    belt_kernel!(
        ode "adams",
        "the same Dormand-Prince span with the ADAMS-type law (0.2, B = 500 s/m)",
        law("adams").map(FrictionSpec::Memoryless)
    ),
    belt_kernel!(
        ode "micro-slip",
        "the same Dormand-Prince span with the micro-slip law (0.4 -> 0.2, decay 2000 s/m)",
        law("micro-slip").map(FrictionSpec::Memoryless)
    ),
    belt_kernel!(
        ode "lugre",
        "the same Dormand-Prince span with LuGre (belt-laws: sigma0 = 9.81e5 N/m, \
         sigma1 = 9.81 N s/m, v_s = 0.01 m/s; the bristle force a fifth state)",
        Ok(FrictionSpec::LuGre(friction::lugre()))
    ),
];

/// 1000 Moreau steps of `dt` from x = 0 moving with the belt (the measured
/// run continues from the warm-up's end). The belt is leaked (the stepper
/// borrows it; the kernel process ends after one kernel).
fn moreau_steps(law: Result<FrictionLaw, String>, dt: f64) -> Result<Work, String> {
    let belt: &'static Belt = Box::leak(Box::new(fixture::belt()));
    let stepper = MoreauStepper::new(belt, law?, dt)?;
    let state = MoreauState::new(vec![0.0], vec![0.1], 1);
    Ok(measure_steps(stepper, state))
}

/// The measured run of the Moreau kernels: 1000 steps of `stepper` from
/// `state` (each run continues from the last).
fn measure_steps(mut stepper: MoreauStepper<'static, Belt>, mut state: MoreauState) -> Work {
    Box::new(move || {
        let (mut stick, mut newton) = (0usize, 0usize);
        for _ in 0..1000 {
            let step = stepper.step(&mut state)?;
            stick += stepper.stuck(0) as usize;
            newton += step.newton_iterations;
        }
        Ok(counters(&[
            ("steps", 1000),
            ("stick_steps", stick),
            ("newton_iterations", newton),
        ]))
    })
}

/// 1000 Moreau steps of [`DT`] across the first slip onset: the state is
/// advanced from x = 0 (moving with the belt) to 1500 steps before the
/// onset (found by a first run), so that after the warm-up's 1000 steps the
/// measured run has 500 steps of stick and 500 of slip.
fn around_onset(law: Result<FrictionLaw, String>) -> Result<Work, String> {
    let law = law?;
    let belt: &'static Belt = Box::leak(Box::new(fixture::belt()));
    let start = || MoreauState::new(vec![0.0], vec![0.1], 1);
    let mut probe = MoreauStepper::new(belt, law, DT)?;
    let mut state = start();
    let mut onset = 0usize;
    while onset < 1_000_000 {
        probe.step(&mut state)?;
        onset += 1;
        if !probe.stuck(0) {
            break;
        }
    }
    let mut stepper = MoreauStepper::new(belt, law, DT)?;
    let mut state = start();
    for _ in 0..onset.saturating_sub(1500) {
        stepper.step(&mut state)?;
    }
    Ok(measure_steps(stepper, state))
}

/// Adaptive Dormand-Prince of the belt's ODE with `law` over [`SPAN`] from
/// x = 0 moving with the belt.
fn dopri5_span(law: Result<FrictionSpec, String>) -> Result<Work, String> {
    let ode: &'static BeltOde = Box::leak(Box::new(BeltOde::new(fixture::belt(), law?)));
    let mut y0 = vec![0.0; crate::problem::FirstOrderOde::dim(ode)];
    y0[1] = fixture::belt().belt_speed;
    Ok(ode_kernel::dopri5_span(
        ode,
        Span {
            y0,
            t0: 0.0,
            span: SPAN,
            first_step: DT,
        },
        Tolerances {
            rtol: TOLERANCE,
            atol: TOLERANCE,
        },
        1_000_000,
    ))
}
