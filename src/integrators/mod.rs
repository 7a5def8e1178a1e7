//! Time integrators for non-smooth systems.
