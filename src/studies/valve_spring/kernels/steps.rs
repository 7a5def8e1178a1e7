//! The valve-spring kernels' work: a fixed BDF step from a history, an
//! adaptive BDF2 span and a diffsol span of the penalty model, each from
//! the top of the lift.

use crate::fixtures::valve_spring as fixture;
use crate::harness::kernels::{Work, counters};
use crate::integrators::bdf_contact::{BdfContact, ContactModel, Stepping};
use crate::integrators::diffsol_penalty::{self, DiffsolMethod, DiffsolSettings};
use crate::problem::ContactSystem;
use crate::studies::shared::bdf_kernel::{bdf_counters, bdf2_step};

/// The span of the adaptive kernels [s].
pub const SPAN: f64 = 5e-5;

/// The repository's spring system under the benchmark cam, leaked (the
/// integrators borrow it; the kernel process ends after one kernel).
fn system() -> Result<(&'static ContactSystem, crate::models::valve_spring::Spring), String> {
    let spring = fixture::spring()?;
    let system: &'static ContactSystem =
        Box::leak(Box::new(spring.prescribed_system(fixture::cam())));
    Ok((system, spring))
}

/// The spring's NCP model with constant `c` (None: the segment stiffness).
pub fn ncp(c: Option<f64>) -> Result<ContactModel, String> {
    let spring = fixture::spring()?;
    Ok(match c {
        Some(c) => ContactModel::Ncp { c },
        None => fixture::ncp(&spring),
    })
}

/// One fixed BDF2 step of the spring with `model` from the last two states
/// of a BDF2 run with the same model to the top of the lift.
pub fn spring_bdf2_step(model: ContactModel) -> Result<Work, String> {
    let (system, spring) = system()?;
    let history = fixture::history_until(
        system,
        model,
        fixture::installed(&spring),
        fixture::PEAK_TIME,
    )?;
    bdf2_step(system, model, history)
}

/// Adaptive BDF2 of the spring with `model` at tolerance `tolerance`, first
/// step `first_step`, over [`SPAN`] from the top of the lift as the same
/// adaptive run from the installed spring reaches it (its first step there
/// a restart: BDF1 at `first_step`); with `from_rest`, over the first
/// [`SPAN`] of the run from the installed spring instead (a run started
/// from a moving state cannot meet a tight tolerance: the penalty model at
/// 1e-8 underflows the step there, the restart's estimate having no
/// history).
pub fn spring_adaptive(
    model: ContactModel,
    tolerance: f64,
    first_step: f64,
    from_rest: bool,
) -> Result<Work, String> {
    let (system, spring) = system()?;
    let stepping = Stepping::Adaptive {
        tolerance,
        first_step,
    };
    let mut bdf = BdfContact::new(system, model)?;
    let start = fixture::installed(&spring);
    let mut state = start.clone();
    if !from_rest {
        bdf.integrate(start, fixture::PEAK_TIME, stepping, 1_000_000, &mut |s| {
            state = s.clone();
        })
        .map_err(|e| e.to_string())?;
    }
    Ok(Box::new(move || {
        let before = bdf.stats;
        bdf.integrate(state.clone(), state.t + SPAN, stepping, 10_000, &mut |s| {
            std::hint::black_box(s.q[0]);
        })
        .map_err(|e| e.to_string())?;
        Ok(bdf_counters(before, bdf.stats))
    }))
}

/// diffsol's `method` on the spring's penalty model (k_p = 1e8 N/m) at
/// tolerance 1e-5 over [`SPAN`] from the top of the lift (its problem built
/// and its Jacobian factored within the measured run, as in every solve).
pub fn spring_diffsol(method: DiffsolMethod) -> Result<Work, String> {
    let (system, spring) = system()?;
    let model = fixture::penalty(1e8);
    let state = fixture::state_at_peak(&spring, system, model)?;
    let settings = DiffsolSettings {
        method,
        tolerance: 1e-5,
        first_step: fixture::DT,
        max_steps: 10_000,
        sample_spacing: 2.5e-5 / 32.0,
    };
    Ok(Box::new(move || {
        let stats = diffsol_penalty::integrate(
            system,
            (1e8, 0.0),
            &state,
            state.t + SPAN,
            settings,
            &mut |s| {
                std::hint::black_box(s.q[0]);
            },
        )?;
        Ok(counters(&[
            ("steps", stats.steps),
            ("error_test_failures", stats.error_test_failures),
            ("newton_iterations", stats.newton_iterations),
            ("factorizations", stats.factorizations),
            ("rhs_evaluations", stats.rhs_evaluations),
            ("jacobian_products", stats.jacobian_products),
        ]))
    }))
}
