//! contact-harness: a benchmark and reproduction harness for non-smooth
//! contact dynamics. See README.md for the studies and ../DESIGN.md-style
//! architecture notes in each module.

pub mod error;
pub mod harness;
pub mod integrators;
pub mod lcp;
pub mod models;
pub mod sparse;
pub mod studies;
