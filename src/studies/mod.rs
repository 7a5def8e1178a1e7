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
use keys::build;

/// Every study kind, once: the `kind` its specs name and its builder, in
/// the order error messages list them.
pub const KINDS: [Kind; 7] = [
    Kind {
        name: "gap-system",
        build: gap_system::build,
        kernels: &gap_system::kernels::KERNELS,
        left_out: gap_system::kernels::LEFT_OUT,
    },
    Kind {
        name: "slider-crank",
        build: slider_crank::build,
        kernels: &slider_crank::kernels::KERNELS,
        left_out: slider_crank::kernels::LEFT_OUT,
    },
    Kind {
        name: "stick-slip",
        build: |spec| build(spec, stick_slip::spec::parse_case),
        kernels: &stick_slip::kernels::KERNELS,
        left_out: stick_slip::kernels::LEFT_OUT,
    },
    Kind {
        name: "friction-law",
        build: |spec| build(spec, friction_law::parse_case),
        kernels: &friction_law::kernels::KERNELS,
        left_out: friction_law::kernels::LEFT_OUT,
    },
    Kind {
        name: "shrouded-blades",
        build: |spec| build(spec, shrouded_blades::spec::parse_case),
        kernels: &shrouded_blades::kernels::KERNELS,
        left_out: shrouded_blades::kernels::LEFT_OUT,
    },
    Kind {
        name: "valve-spring",
        build: |spec| build(spec, valve_spring::spec::parse_case),
        kernels: &valve_spring::kernels::KERNELS,
        left_out: valve_spring::kernels::LEFT_OUT,
    },
    Kind {
        name: "valvetrain",
        build: |spec| build(spec, valvetrain::spec::parse_case),
        kernels: &valvetrain::kernels::KERNELS,
        left_out: valvetrain::kernels::LEFT_OUT,
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
