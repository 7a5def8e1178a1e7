//! contact-harness: a benchmark and reproduction harness for non-smooth
//! contact dynamics. See README.md for the studies and ARCHITECTURE.md for the
//! map of the modules, the data flow and the fixed interfaces.

pub mod contact;
pub mod deadline;
pub mod drivers;
pub mod error;
pub mod fixtures;
pub mod guard;
pub mod harness;
pub mod integrators;
pub mod lcp;
pub mod models;
pub mod multibody;
pub mod problem;
pub mod sparse;
pub mod studies;
