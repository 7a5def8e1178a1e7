//! Concrete mechanical systems, as plain data with the few evaluations every
//! method needs (openings, forces). Methods live in `integrators/`.

pub mod belt;
pub mod blades;
pub mod gap_system;
pub mod slider_crank;
pub mod valve_spring;
pub mod valvetrain;
