//! Study kinds: one module per kind, each turning its spec into a
//! [`Study`](crate::harness::study::Study).

/// The registered study kinds.
pub const KINDS: [&str; 7] = [
    "gap-system",
    "slider-crank",
    "stick-slip",
    "friction-law",
    "shrouded-blades",
    "valve-spring",
    "valvetrain",
];

/// The kinds as a list for error messages.
pub fn kind_names() -> String {
    KINDS.map(|k| format!("\"{k}\"")).join(", ")
}

pub mod friction_law;
pub mod gap_system;
pub(crate) mod keys;
pub(crate) mod shared;
pub mod shrouded_blades;
pub mod slider_crank;
pub mod stick_slip;
pub mod valve_spring;
pub mod valvetrain;

use crate::error::InputError;
use crate::harness::spec::StudySpec;
use crate::harness::study::Study;

/// Builds a study of any registered kind from its spec.
pub fn build(spec: &StudySpec) -> Result<Box<dyn Study>, InputError> {
    match spec.kind.as_str() {
        "gap-system" => Ok(Box::new(gap_system::build(spec)?)),
        "slider-crank" => Ok(Box::new(slider_crank::build(spec)?)),
        "stick-slip" => Ok(Box::new(stick_slip::build(spec)?)),
        "friction-law" => Ok(Box::new(friction_law::build(spec)?)),
        "shrouded-blades" => Ok(Box::new(shrouded_blades::build(spec)?)),
        "valve-spring" => Ok(Box::new(valve_spring::build(spec)?)),
        "valvetrain" => Ok(Box::new(valvetrain::build(spec)?)),
        other => Err(InputError::value(
            &spec.file,
            &spec.name,
            "study.kind",
            format!("\"{other}\""),
            format!("one of {}", kind_names()),
        )),
    }
}
