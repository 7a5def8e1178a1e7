//! The valve-spring kind's per-step kernels (`harness::kernels`): one
//! BDF1 step of the repository's spring from the top of the lift, with
//! Signorini contact as an NCP and with penalty spring-dampers.

use crate::fixtures::valve_spring as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, Work, counters};
use crate::integrators::bdf_contact::{BdfContact, Stepping};
use crate::problem::ContactSystem;

/// The kind's kernels.
pub const KERNELS: [Kernel; 2] = [
    Kernel {
        info: KernelInfo {
            case: "valve-spring",
            method: "ncp-bdf1-step",
            what: "one BDF1 step of 1e-5 s of the valve spring (35 lumps, 44 coil pairs) with \
                   Signorini contact as an NCP (semi-smooth Newton), from the top of the lift (t = 4.2 ms)",
        },
        prepare: |_| bdf1_step(true),
    },
    Kernel {
        info: KernelInfo {
            case: "valve-spring",
            method: "penalty-bdf1-step",
            what: "one BDF1 step of 1e-5 s of the same spring with spring-damper contact elements \
                   (k_p = 1e8 N/m, Newton), from the top of the lift",
        },
        prepare: |_| bdf1_step(false),
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
