//! The problem layer: what a time integrator integrates, as plain data and
//! traits, below both the integrators and the models (diffsol's
//! `OdeEquations` split: the problem owns its equations, the solvers are
//! written against it). Models build or implement these types;
//! integrators take them and never name a model.
//!
//! - [`ode`]: the traits [`FirstOrderOde`] (y' = F(t, y), run by the
//!   Runge-Kutta integrators; the blade pair and the multibody system
//!   implement it) and [`SecondOrderSystem`] (M q'' = f(t, q, q') + G^T
//!   lambda with g(q) >= 0), with [`AsFirstOrder`] and the fixed sparsity
//!   [`Pattern`] of their Jacobians.
//! - [`gap_system`]: the piecewise-linear system with gap-activated springs
//!   M x'' + C x' + K x + D^T K_g max(0, D x - g) = F cos(omega t) (Yu 2013)
//!   that Newmark and the event-driven solver integrate.
//! - [`contact_system`]: the linear system with unilateral contacts
//!   M q'' = -K q - C q' + f(t) + G^T lambda, g = G q + b(t) >= 0, whose
//!   loads and gaps are affine in [`PrescribedMotion`]s, that the BDF
//!   contact integrator integrates (the valve spring, the valvetrain),
//!   and its state [`ContactSystemState`].
//! - [`moreau`]: the linear system with frictional contacts that the
//!   Moreau-Jean stepper integrates ([`MoreauProblem`], its factored
//!   [`IterationMatrix`], each contact's [`ContactLaw`]); the mass on the
//!   belt and the blade pair implement it.
//!
//! - [`friction_ode`]: the same kind of system as the seed's ODE with its
//!   works as states ([`FrictionOde`], [`Works`]).
//!
//! Invariant: this layer imports only `sparse`, `contact` (the laws a
//! contact names) and `error`.

pub mod contact_system;
pub mod friction_ode;
pub mod gap_system;
pub mod moreau;
pub mod ode;

pub use contact_system::{
    ContactSystem, ContactSystemState, GapRow, LinearForces, PrescribedMotion,
};
pub use friction_ode::{FrictionOde, Works};
pub use gap_system::{GapSprings, GapSystem, Harmonic};
pub use moreau::{ContactLaw, IterationMatrix, MoreauProblem, NormalLaw};
pub use ode::{AsFirstOrder, FirstOrderOde, Pattern, SecondOrderSystem};
