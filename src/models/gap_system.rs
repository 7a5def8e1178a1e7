//! The gap-system models (Yu 2013): the chain generator of the benchmark
//! and of `[study.system.chain]`. The piecewise-linear system they build,
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t),
//!
//! is the problem type [`crate::problem::gap_system::GapSystem`] (re-exported
//! here with its parts, as are the `sparse` conversions the spec parser and
//! older code reach through this path).

use sprs::{CsMat, TriMat};

pub use crate::problem::gap_system::{GapSprings, GapSystem, Harmonic};
pub use crate::sparse::{csr_from_rows, to_dense};

/// The chain generator: n masses in a line, mass 0 tied to the wall, mass
/// n - 1 free; springs between neighbours and to the wall with parallel
/// dashpots; gap spring j acts on mass j along `sides[j mod len]` (+1 / -1)
/// with gap `gaps[j mod len]`. Used by `[study.system.chain]`, the tests and
/// the benches.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// Number of masses n.
    pub n: usize,
    /// Every mass [kg].
    pub mass: f64,
    /// Neighbour and wall springs [N/m].
    pub spring: f64,
    /// Dashpots parallel to the springs [N s/m].
    pub damper: f64,
    /// Stiffness of every gap spring [N/m].
    pub gap_stiffness: f64,
    /// Gaps, repeated along the chain [m].
    pub gaps: Vec<f64>,
    /// Sides (+1 / -1), repeated along the chain.
    pub sides: Vec<f64>,
}

impl Chain {
    /// The chain of `experiments/chain-1000.toml` with n masses.
    pub fn benchmark(n: usize) -> Self {
        Self {
            n,
            mass: 1.0,
            spring: 4.0e4,
            damper: 2.0,
            gap_stiffness: 4.0e4,
            gaps: vec![0.010, 0.015, 0.012],
            sides: vec![1.0, -1.0],
        }
    }

    /// The system under the given excitation (an empty amplitude means zero
    /// forcing on every DOF; a one-element amplitude applies to every DOF).
    pub fn system(&self, mut excitation: Harmonic) -> GapSystem {
        let n = self.n;
        let tridiagonal = |value: f64| {
            let mut tri = TriMat::new((n, n));
            for i in 0..n {
                let right = if i + 1 < n { value } else { 0.0 };
                tri.add_triplet(i, i, value + right);
                if i + 1 < n {
                    tri.add_triplet(i, i + 1, -value);
                    tri.add_triplet(i + 1, i, -value);
                }
            }
            tri.to_csr()
        };
        let mut mass = TriMat::new((n, n));
        let mut dirs = TriMat::new((n, n));
        for i in 0..n {
            mass.add_triplet(i, i, self.mass);
            dirs.add_triplet(i, i, self.sides[i % self.sides.len()]);
        }
        let springs = GapSprings {
            directions: dirs.to_csr(),
            gaps: (0..n).map(|j| self.gaps[j % self.gaps.len()]).collect(),
            stiffness: vec![self.gap_stiffness; n],
        };
        let damping = if self.damper > 0.0 {
            tridiagonal(self.damper)
        } else {
            CsMat::zero((n, n))
        };
        excitation.amplitude = match excitation.amplitude.len() {
            0 => vec![0.0; n],
            1 => vec![excitation.amplitude[0]; n],
            _ => excitation.amplitude,
        };
        GapSystem {
            mass: mass.to_csr(),
            damping,
            stiffness: tridiagonal(self.spring),
            springs,
            excitation,
        }
    }
}
