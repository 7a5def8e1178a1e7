//! The shrouded-blades kind's per-step kernel (`harness::kernels`): one
//! Moreau step of the blade pair with Coulomb friction.

use crate::contact::friction::FrictionLaw;
use crate::fixtures::blades as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, Work, counters};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::models::blades::BladePair;

/// The step [s].
const DT: f64 = 1e-6;

/// The kind's kernels.
pub const KERNELS: [Kernel; 1] = [Kernel {
    info: KernelInfo {
        case: "shrouded-blades",
        method: "moreau-step",
        what: "one Moreau step of 1e-6 s of the two blades (20 friction patches, Coulomb mu = 0.2, \
               impulses by projected Gauss-Seidel) from t = 2 ms of the 10 N step transient",
    },
    prepare: |_| moreau_step(),
}];

/// Moreau steps of the default model with Coulomb friction mu = 0.2, the
/// measured one after 2000 + 1 steps. The model is leaked (the stepper
/// borrows it; the kernel process ends after one kernel).
fn moreau_step() -> Result<Work, String> {
    let model: &'static BladePair = Box::leak(Box::new(fixture::pair()?));
    let law = FrictionLaw::constant(0.2);
    let mut stepper = MoreauStepper::new(model, law, DT)?;
    let (q, v) = model.initial_state();
    let mut state = MoreauState::new(q, v, model.patch_count());
    for _ in 0..2000 {
        stepper.step(&mut state)?;
    }
    Ok(Box::new(move || {
        let report = stepper.step(&mut state)?;
        Ok(counters(&[
            ("pgs_sweeps", report.sweeps),
            ("sticking", report.sticking),
        ]))
    }))
}
