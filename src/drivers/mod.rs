//! Drivers: a model, a law and an integrator run together over a schedule,
//! with what every such run shares (the stepping loop, the output times,
//! the counters, the error messages), so that a study records what it
//! needs through an observer instead of writing its own loop.
//!
//! - [`friction`]: one friction law on a system with frictional contacts
//!   (the mass on the belt, the shrouded blades), by Moreau time stepping
//!   with true sticking or as the seed's ODE (RK4, Dormand-Prince).

pub mod friction;
