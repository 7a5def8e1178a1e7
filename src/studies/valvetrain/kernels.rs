//! The valvetrain kind's per-step kernels (`harness::kernels`): one BDF2
//! step of the valvetrain (cam, follower, valve, seat and spring) at the
//! top of the lift, for each spring model and contact model the kind
//! times.

use crate::fixtures::valve_spring::penalty;
use crate::fixtures::valvetrain as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, LeftOut, Work};
use crate::integrators::bdf_contact::ContactModel;
use crate::models::valvetrain::{SpringModel, Valvetrain};
use crate::studies::shared::bdf_kernel::bdf2_step;

/// Every method the kind times has a kernel.
pub const LEFT_OUT: LeftOut = &[];

/// The kind's kernels.
pub const KERNELS: [Kernel; 4] = [
    Kernel {
        info: KernelInfo {
            kind: "valvetrain",
            timed: "ncp-bdf",
            case: "valvetrain",
            method: "ncp-bdf2-step",
            what: "one BDF2 step of 1e-5 s of the valvetrain (the multi-mass spring with coil contact, \
                   every contact a Signorini NCP) at 40 rev/s from the last two states of a BDF2 run to \
                   the top of the lift (t = 4.2 ms)",
        },
        prepare: |_| step(SpringModel::MultiMass { coil_contact: true }, None),
    },
    Kernel {
        info: KernelInfo {
            kind: "valvetrain",
            timed: "no-coil-contact",
            case: "valvetrain",
            method: "no-coil-contact-bdf2-step",
            what: "the same BDF2 step with the multi-mass spring without coil contact",
        },
        prepare: |_| {
            step(
                SpringModel::MultiMass {
                    coil_contact: false,
                },
                None,
            )
        },
    },
    Kernel {
        info: KernelInfo {
            kind: "valvetrain",
            timed: "single-mass",
            case: "valvetrain",
            method: "single-mass-bdf2-step",
            what: "the same BDF2 step with the spring as a single mass (m_active / 3)",
        },
        prepare: |_| step(SpringModel::SingleMass, None),
    },
    Kernel {
        info: KernelInfo {
            kind: "valvetrain",
            timed: "penalty-1e8",
            case: "valvetrain",
            method: "penalty-1e8-bdf2-step",
            what: "the same BDF2 step of the multi-mass valvetrain with spring-damper contacts \
                   (k_p = 1e8 N/m, Newton), from a BDF2 run with them",
        },
        prepare: |_| step(SpringModel::MultiMass { coil_contact: true }, Some(1e8)),
    },
];

/// One BDF2 step of the valvetrain with `spring`, Signorini NCP contacts
/// or penalty contacts of stiffness `k_p`. The valvetrain is leaked (the
/// integrator borrows its system; the kernel process ends after one
/// kernel).
fn step(spring: SpringModel, k_p: Option<f64>) -> Result<Work, String> {
    let vt: &'static Valvetrain = Box::leak(Box::new(fixture::train(spring)?));
    let model: ContactModel = match k_p {
        Some(k) => penalty(k),
        None => fixture::ncp(vt),
    };
    let history = fixture::history_at_peak(vt, model)?;
    bdf2_step(&vt.system, model, history)
}
