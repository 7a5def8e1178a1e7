//! Time integrators for non-smooth systems.
pub mod event_driven;
pub mod newmark;
