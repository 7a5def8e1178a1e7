//! Study kinds: one module per kind, each turning its spec into a
//! [`Study`](crate::harness::study::Study). [`KINDS`] is the one list of
//! them; [`registry`] hands it to the harness, which names no kind.

pub mod friction_law;
pub mod gap_system;
pub(crate) mod keys;
pub(crate) mod shared;
pub mod shrouded_blades;
pub mod slider_crank;
pub mod stick_slip;
pub mod valve_spring;
pub mod valvetrain;

use crate::harness::registry::{Kind, Registry};

/// Every study kind, once: the `kind` its specs name and its builder, in
/// the order error messages list them.
pub const KINDS: [Kind; 7] = [
    Kind {
        name: "gap-system",
        build: gap_system::build,
    },
    Kind {
        name: "slider-crank",
        build: |spec| Ok(Box::new(slider_crank::build(spec)?)),
    },
    Kind {
        name: "stick-slip",
        build: |spec| Ok(Box::new(stick_slip::build(spec)?)),
    },
    Kind {
        name: "friction-law",
        build: |spec| Ok(Box::new(friction_law::build(spec)?)),
    },
    Kind {
        name: "shrouded-blades",
        build: |spec| Ok(Box::new(shrouded_blades::build(spec)?)),
    },
    Kind {
        name: "valve-spring",
        build: |spec| Ok(Box::new(valve_spring::build(spec)?)),
    },
    Kind {
        name: "valvetrain",
        build: |spec| Ok(Box::new(valvetrain::build(spec)?)),
    },
];

/// The registry of every study kind, built once by the caller (the CLI)
/// and passed to `harness::runner`.
pub fn registry() -> Registry {
    Registry::new(KINDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind name is used once (the registry would take the first).
    #[test]
    fn kind_names_are_unique() {
        let names = registry().names();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "kind {name} registered twice");
        }
    }
}
