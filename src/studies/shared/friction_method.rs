//! The methods of the kinds that run a friction law on a body (stick-slip's
//! belt, the shrouded blades): a law run by one of four integrators, the
//! `method` key that names it, and the `[integrator]` table they share.

use serde::Deserialize;

use crate::error::InputError;
use crate::studies::keys::KeyCtx;

/// The time integration of a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integrator {
    /// Moreau-Jean time stepping (theta = 1/2, the shared
    /// [`crate::integrators::moreau::MoreauStepper`]) with the friction
    /// impulses solved per step (true sticking for set-valued laws).
    Moreau,
    /// Classical Runge-Kutta, fixed step, on the ODE (no sticking limit).
    Rk4,
    /// Dormand-Prince 5(4) with error control, on the ODE.
    Dopri5,
    /// The seed's formulation (the ODE's friction force, no sticking
    /// limit) stepped by the Moreau scheme with that force explicit at the
    /// step's start: implicit in the structure and the normal law, so
    /// that a law whose force jumps at zero slip (constant, ANSYS) runs
    /// at all; first order (`drivers::friction::Integrator::Imex`).
    Imex,
}

impl Integrator {
    /// Every integrator, in the order error messages list them.
    pub const ALL: [Integrator; 4] = [
        Integrator::Moreau,
        Integrator::Rk4,
        Integrator::Dopri5,
        Integrator::Imex,
    ];

    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            Integrator::Moreau => "moreau",
            Integrator::Rk4 => "rk4",
            Integrator::Dopri5 => "dopri5",
            Integrator::Imex => "imex",
        }
    }

    /// The integrator named `name` at `<at>.method`.
    pub(crate) fn parse(ctx: &KeyCtx, at: &str, name: &str) -> Result<Integrator, InputError> {
        Self::ALL
            .into_iter()
            .find(|i| i.name() == name)
            .ok_or_else(|| {
                ctx.err(
                    &format!("{at}.method"),
                    format!("\"{name}\""),
                    crate::studies::keys::one_of(&Self::ALL.map(Self::name)),
                )
            })
    }
}

/// One method of a case: a law `L` run by an integrator.
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionMethod<L> {
    /// Label (file infix, timings row).
    pub label: String,
    /// The law's spec name.
    pub law_name: String,
    /// The law.
    pub law: L,
    /// The integrator.
    pub integrator: Integrator,
}

/// The `[integrator]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct IntegratorToml {
    pub dt: f64,
    pub t_end: f64,
    #[serde(default)]
    pub tolerance: Option<f64>,
    #[serde(default)]
    pub output_interval: Option<f64>,
    #[serde(default)]
    pub max_steps: Option<usize>,
}

/// The validated steps of `[integrator]`: (dt, t_end, tolerance of
/// dopri5, max_steps with `default_max_steps` when unset). Every method but
/// dopri5 takes t_end / dt fixed steps, at most max_steps of them.
pub(crate) fn steps(
    ctx: &KeyCtx,
    raw: &IntegratorToml,
    default_max_steps: usize,
    fixed_step: bool,
) -> Result<(f64, f64, f64, usize), InputError> {
    let dt = ctx.positive("integrator.dt", raw.dt)?;
    let t_end = ctx.positive("integrator.t_end", raw.t_end)?;
    if t_end < dt {
        return Err(ctx.err("integrator.t_end", t_end, format!("a time >= dt = {dt} s")));
    }
    let tolerance = ctx.tolerance("integrator.tolerance", raw.tolerance, 1e-8)?;
    let max_steps = match raw.max_steps {
        None => default_max_steps,
        Some(n) if n >= 1 => n,
        Some(n) => return Err(ctx.err("integrator.max_steps", n, "an integer >= 1")),
    };
    if fixed_step && t_end / dt > max_steps as f64 {
        return Err(ctx.err(
            "integrator.dt",
            dt,
            format!("a step with t_end / dt <= max_steps = {max_steps} (t_end = {t_end} s)"),
        ));
    }
    Ok((dt, t_end, tolerance, max_steps))
}
