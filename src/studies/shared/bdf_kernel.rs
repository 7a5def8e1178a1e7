//! The per-step kernels (`harness::kernels`) of the crate's contact BDF,
//! the valve-spring and valvetrain kinds' methods: one fixed BDF2 step
//! from a history, and the counters of a run.

use crate::harness::kernels::{Counters, Work, counters};
use crate::integrators::bdf_contact::{BdfContact, BdfStats, ContactModel};
use crate::problem::{ContactSystem, ContactSystemState};

/// The BDF2 kernels' step [s] (the studies' `dt`).
pub const DT: f64 = 1e-5;

/// The counters of a BDF run: the difference of its stats.
pub fn bdf_counters(before: BdfStats, after: BdfStats) -> Counters {
    counters(&[
        ("steps", after.steps - before.steps),
        ("rejected_steps", after.rejected - before.rejected),
        (
            "newton_iterations",
            after.newton_iterations - before.newton_iterations,
        ),
        (
            "factorizations",
            after.factorizations - before.factorizations,
        ),
    ])
}

/// One fixed BDF2 step of [`DT`] of `system` with `model` from
/// `history` (the last state first).
pub fn bdf2_step(
    system: &'static ContactSystem,
    model: ContactModel,
    history: [ContactSystemState; 2],
) -> Result<Work, String> {
    let mut bdf = BdfContact::new(system, model)?;
    Ok(Box::new(move || {
        let before = bdf.stats;
        let new = bdf.step(&[&history[0], &history[1]], DT, 2)?;
        std::hint::black_box(new.q[0]);
        let mut c = bdf_counters(before, bdf.stats);
        c.retain(|(k, _)| k != "steps" && k != "rejected_steps");
        Ok(c)
    }))
}
