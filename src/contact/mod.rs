//! Contact laws: friction laws (one file per law family) for the
//! stick-slip and shrouded-blade studies and any model that needs them.

pub mod friction;
