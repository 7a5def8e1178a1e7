//! The stick-slip kind's kernel (`harness::kernels`): 1000 Moreau steps of
//! the mass on the belt.

use crate::fixtures::belt as fixture;
use crate::harness::kernels::{Kernel, KernelInfo, Work, counters};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::models::belt::Belt;

/// The kind's kernels.
pub const KERNELS: [Kernel; 1] = [Kernel {
    info: KernelInfo {
        case: "belt",
        method: "moreau-1000-steps",
        what: "1000 Moreau steps of 1e-3 s of the mass on the belt (Coulomb mu_s = 0.15, \
               mu_k = 0.10): about one stick-slip cycle, both branches",
    },
    prepare: |_| moreau_steps(),
}];

/// 1000 Moreau steps of 1e-3 s from x = 0 moving with the belt. The belt
/// is leaked (the stepper borrows it; the kernel process ends after one
/// kernel).
fn moreau_steps() -> Result<Work, String> {
    let belt: &'static Belt = Box::leak(Box::new(fixture::belt()));
    let mut stepper = MoreauStepper::new(belt, fixture::coulomb(), 1e-3)?;
    let mut state = MoreauState::new(vec![0.0], vec![0.1], 1);
    Ok(Box::new(move || {
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
    }))
}
