//! Time integrators for non-smooth systems: Bossak-Newmark (`newmark`) and
//! the exact event-driven solver (`event_driven`) of the piecewise-linear
//! gap system, BDF with contact (`bdf_contact`) of the linear contact
//! system, Runge-Kutta (`rk`) of a first-order ODE. What they integrate is
//! the problem layer below them ([`crate::problem`]); an integrator names
//! no model.
pub mod bdf_contact;
pub mod event_driven;
pub mod events;
pub mod moreau;
pub mod newmark;
pub mod rk;

/// The problem layer under its former path `integrators::problem` (code
/// written before it moved keeps compiling); new code names
/// [`crate::problem`].
pub use crate::problem;

/// The linear contact system under its former path
/// `integrators::linear_contact`; new code names
/// [`crate::problem::contact_system`].
pub use crate::problem::contact_system as linear_contact;
