//! The valve-spring kind's per-step kernels (`harness::kernels`): one
//! BDF1 step of the repository's spring from the top of the lift, with
//! Signorini contact as an NCP and with penalty spring-dampers; one BDF2
//! step, an adaptive BDF2 span and a diffsol span for the other methods
//! ([`steps`]).

mod steps;

use crate::fixtures::valve_spring as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work, counters};
use crate::integrators::bdf_contact::{BdfContact, Stepping};
use crate::integrators::diffsol_penalty::DiffsolMethod;
use crate::problem::ContactSystem;

/// Every method the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// A BDF2 step kernel of the penalty model at stiffness `$k`.
macro_rules! penalty_kernel {
    ($timed:literal, $k:expr, $what:literal) => {
        Kernel {
            info: KernelInfo {
                kind: "valve-spring",
                timed: $timed,
                case: "valve-spring",
                method: concat!($timed, "-bdf2-step"),
                what: $what,
            },
            prepare: |_| steps::spring_bdf2_step(fixture::penalty($k)),
        }
    };
}

/// The kind's kernels.
pub const KERNELS: [Kernel; 11] = [
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "ncp-bdf1",
            case: "valve-spring",
            method: "ncp-bdf1-step",
            what: "one BDF1 step of 1e-5 s of the valve spring (35 lumps, 44 coil pairs) with \
                   Signorini contact as an NCP (semi-smooth Newton), from the top of the lift (t = 4.2 ms)",
        },
        prepare: |_| bdf1_step(true),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "",
            case: "valve-spring",
            method: "penalty-bdf1-step",
            what: "one BDF1 step of 1e-5 s of the same spring with spring-damper contact elements \
                   (k_p = 1e8 N/m, Newton), from the top of the lift",
        },
        // No timed method steps the penalty model by fixed BDF1: the
        // kernel keeps its history; penalty-1e8-bdf2-step is the timed
        // penalty-1e8's step.
        prepare: |_| bdf1_step(false),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "ncp-bdf",
            case: "valve-spring",
            method: "ncp-bdf2-step",
            what: "one BDF2 step of 1e-5 s of the valve spring with Signorini contact as an NCP \
                   (c = the segment stiffness, semi-smooth Newton) from the last two states of a BDF2 \
                   run to the top of the lift",
        },
        prepare: |_| steps::spring_bdf2_step(steps::ncp(None)?),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "ncp-c100",
            case: "valve-spring",
            method: "ncp-c100-bdf2-step",
            what: "the same BDF2 step with the NCP constant c = 1.509259e8 N/m (100 times the \
                   segment stiffness's order)",
        },
        prepare: |_| steps::spring_bdf2_step(steps::ncp(Some(1.509259e8))?),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "ncp-adaptive",
            case: "valve-spring",
            method: "ncp-adaptive-span",
            what: "adaptive BDF2 (tolerance 1e-5, first step 1e-5 s) of the valve spring with the NCP \
                   over 5e-5 s from the top of the lift (reached by the same adaptive run)",
        },
        prepare: |_| steps::spring_adaptive(steps::ncp(None)?, 1e-5, fixture::DT, false),
    },
    penalty_kernel!(
        "penalty-1e7",
        1e7,
        "one BDF2 step of 1e-5 s of the valve spring with spring-damper contact (k_p = 1e7 N/m, \
         Newton) from the last two states of a BDF2 run with it to the top of the lift"
    ),
    penalty_kernel!("penalty-1e8", 1e8, "the same BDF2 step with k_p = 1e8 N/m"),
    penalty_kernel!("penalty-1e9", 1e9, "the same BDF2 step with k_p = 1e9 N/m"),
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "penalty-bdf",
            case: "valve-spring",
            method: "penalty-adaptive-span",
            what: "adaptive BDF2 (tolerance 1e-8, first step 1e-6 s: valve-spring-penalty-limit) of the \
                   valve spring with spring-damper contact (k_p = 1e7 N/m) over the first 5e-5 s of the \
                   run from the installed spring (from a moving state the restart underflows the step \
                   at this tolerance)",
        },
        prepare: |_| steps::spring_adaptive(fixture::penalty(1e7), 1e-8, 1e-6, true),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "penalty-diffsol-bdf",
            case: "valve-spring",
            method: "penalty-diffsol-bdf-span",
            what: "diffsol's variable-order BDF (tolerance 1e-5) on the penalty model (k_p = 1e8 N/m) \
                   over 5e-5 s from the top of the lift, its problem built within the run",
        },
        prepare: |_| steps::spring_diffsol(DiffsolMethod::Bdf),
    },
    Kernel {
        info: KernelInfo {
            kind: "valve-spring",
            timed: "penalty-diffsol-sdirk",
            case: "valve-spring",
            method: "penalty-diffsol-sdirk-span",
            what: "diffsol's SDIRK (TR-BDF2, tolerance 1e-5) on the same model and span",
        },
        prepare: |_| steps::spring_diffsol(DiffsolMethod::TrBdf2),
    },
];

/// One BDF1 step of 1e-5 s from the state at t = 4.2 ms of a fixed-step
/// BDF2 run with the same contact model. The system is leaked (the
/// integrator borrows it; the kernel process ends after one kernel).
fn bdf1_step(ncp: bool) -> Result<Work, String> {
    let spring = fixture::spring()?;
    let model = if ncp {
        fixture::ncp(&spring)
    } else {
        fixture::penalty(1e8)
    };
    let system: &'static ContactSystem =
        Box::leak(Box::new(spring.prescribed_system(fixture::cam())));
    let state = fixture::state_at_peak(&spring, system, model)?;
    let mut bdf = BdfContact::new(system, model)?;
    Ok(Box::new(move || {
        let before = bdf.stats;
        let t_end = state.t + fixture::DT;
        bdf.integrate(
            state.clone(),
            t_end,
            Stepping::Fixed {
                dt: fixture::DT,
                order: 1,
            },
            10,
            &mut |s| {
                std::hint::black_box(s.q[0]);
            },
        )
        .map_err(|e| e.to_string())?;
        let after = bdf.stats;
        Ok(counters(&[
            ("steps", after.steps - before.steps),
            (
                "newton_iterations",
                after.newton_iterations - before.newton_iterations,
            ),
            (
                "factorizations",
                after.factorizations - before.factorizations,
            ),
        ]))
    }))
}
