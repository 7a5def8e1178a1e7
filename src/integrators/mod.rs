//! Time integrators for non-smooth systems, and the problem they share
//! (`problem`: second-order mechanical systems with unilateral constraints,
//! first-order ODEs).
pub mod bdf_contact;
pub mod event_driven;
pub mod linear_contact;
pub mod moreau;
pub mod newmark;
pub mod problem;
pub mod rk;
