//! Piecewise-linear MDOF systems with gap-activated springs (Yu 2013):
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t).
//!
//! Gap spring j engages when the opening y_j = d_j . x - g_j becomes
//! positive and then pushes back with force f_j = k_j max(0, y_j) >= 0 along
//! -d_j. With D the m x n matrix whose rows are d_j, the generalised contact
//! force is D^T f. Matrices are stored sparse (CSR, `sprs`) so that the same
//! model serves dense methods at n = 3 and sparse ones at n = 100000.

use nalgebra::{DMatrix, DVector};
use sprs::{CsMat, TriMat};

/// The gap springs: directions D (m x n, row j = d_j), gaps g_j and stiffnesses k_j.
#[derive(Debug, Clone, PartialEq)]
pub struct GapSprings {
    /// D, m x n, CSR; row j is d_j.
    pub directions: CsMat<f64>,
    /// g_j, length m.
    pub gaps: Vec<f64>,
    /// k_j > 0, length m.
    pub stiffness: Vec<f64>,
}

impl GapSprings {
    /// Number of gap springs m.
    pub fn len(&self) -> usize {
        self.gaps.len()
    }

    /// True when there are no gap springs.
    pub fn is_empty(&self) -> bool {
        self.gaps.is_empty()
    }

    /// Openings y = D x - g.
    pub fn openings(&self, x: &[f64]) -> Vec<f64> {
        let mut y: Vec<f64> = self.gaps.iter().map(|g| -g).collect();
        for (j, row) in self.directions.outer_iterator().enumerate() {
            for (i, &d) in row.iter() {
                y[j] += d * x[i];
            }
        }
        y
    }

    /// Gap-spring forces f_j = k_j max(0, d_j . x - g_j).
    pub fn forces(&self, x: &[f64]) -> Vec<f64> {
        self.openings(x)
            .iter()
            .zip(&self.stiffness)
            .map(|(&y, &k)| k * y.max(0.0))
            .collect()
    }

    /// The force f_j = k_j max(0, d_j . x - g_j) of spring j alone.
    pub fn force(&self, j: usize, x: &[f64]) -> f64 {
        let y = self
            .directions
            .outer_view(j)
            .map_or(0.0, |row| row.iter().map(|(i, &d)| d * x[i]).sum::<f64>())
            - self.gaps[j];
        self.stiffness[j] * y.max(0.0)
    }

    /// Adds D^T f to `out` (length n).
    pub fn add_transposed(&self, f: &[f64], out: &mut [f64]) {
        for (j, row) in self.directions.outer_iterator().enumerate() {
            for (i, &d) in row.iter() {
                out[i] += d * f[j];
            }
        }
    }
}

/// Harmonic excitation F cos(omega t).
#[derive(Debug, Clone, PartialEq)]
pub struct Harmonic {
    /// F, length n [N].
    pub amplitude: Vec<f64>,
    /// omega [rad/s].
    pub omega: f64,
}

impl Harmonic {
    /// F cos(omega t).
    pub fn at(&self, t: f64) -> Vec<f64> {
        let c = (self.omega * t).cos();
        self.amplitude.iter().map(|f| f * c).collect()
    }
}

/// M x'' + C x' + K x + D^T K_g max(0, D x - g) = F cos(omega t).
#[derive(Debug, Clone, PartialEq)]
pub struct GapSystem {
    /// Mass matrix M, n x n, symmetric positive definite.
    pub mass: CsMat<f64>,
    /// Damping matrix C, n x n.
    pub damping: CsMat<f64>,
    /// Stiffness matrix K, n x n.
    pub stiffness: CsMat<f64>,
    /// The gap-activated springs.
    pub springs: GapSprings,
    /// The excitation.
    pub excitation: Harmonic,
}

impl GapSystem {
    /// Number of degrees of freedom n.
    pub fn dofs(&self) -> usize {
        self.mass.rows()
    }
}

/// CSR matrix from a dense row-major nested array (explicit zeros dropped).
pub fn csr_from_rows(rows: &[Vec<f64>]) -> CsMat<f64> {
    let n = rows.len();
    let ncols = rows.first().map_or(0, Vec::len);
    let mut tri = TriMat::new((n, ncols));
    for (i, row) in rows.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v != 0.0 {
                tri.add_triplet(i, j, v);
            }
        }
    }
    tri.to_csr()
}

/// Dense copy of a sparse matrix (for the small dense methods).
pub fn to_dense(a: &CsMat<f64>) -> DMatrix<f64> {
    let mut d = DMatrix::zeros(a.rows(), a.cols());
    for (&v, (i, j)) in a.iter() {
        d[(i, j)] += v;
    }
    d
}

/// Dense column vector from a slice.
pub fn to_dvector(v: &[f64]) -> DVector<f64> {
    DVector::from_column_slice(v)
}

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

/// The gap system as the integrators' [`SecondOrderSystem`]: the gap
/// springs are forces (piecewise linear), not constraints:
/// f = F cos(omega t) - C v - K q - D^T K_g max(0, D q - g),
/// df/dq = -K - D_S^T K_g,S D_S on the engaged springs S (an element of the
/// generalised Jacobian), df/dv = -C.
impl crate::integrators::problem::SecondOrderSystem for GapSystem {
    fn dofs(&self) -> usize {
        self.dofs()
    }

    fn mass(&self) -> &CsMat<f64> {
        &self.mass
    }

    fn force(&self, t: f64, q: &[f64], v: &[f64], out: &mut [f64]) {
        let cos = (self.excitation.omega * t).cos();
        for (o, a) in out.iter_mut().zip(&self.excitation.amplitude) {
            *o = a * cos;
        }
        for (&k, (i, j)) in self.stiffness.iter() {
            out[i] -= k * q[j];
        }
        for (&c, (i, j)) in self.damping.iter() {
            out[i] -= c * v[j];
        }
        let f = self.springs.forces(q);
        let mut dtf = vec![0.0; q.len()];
        self.springs.add_transposed(&f, &mut dtf);
        for (o, d) in out.iter_mut().zip(dtf) {
            *o -= d;
        }
    }

    fn force_jacobian_patterns(
        &self,
    ) -> (
        crate::integrators::problem::Pattern,
        crate::integrators::problem::Pattern,
    ) {
        let n = self.dofs();
        let mut t = TriMat::new((n, n));
        for (_, (i, j)) in self.stiffness.iter() {
            t.add_triplet(i, j, 1.0);
        }
        for row in self.springs.directions.outer_iterator() {
            for (p, _) in row.iter() {
                for (q, _) in row.iter() {
                    t.add_triplet(p, q, 1.0);
                }
            }
        }
        for i in 0..n {
            t.add_triplet(i, i, 1.0);
        }
        (
            crate::integrators::problem::Pattern::of(&t.to_csc()),
            crate::integrators::problem::Pattern::of(&self.damping),
        )
    }

    fn force_jacobians(&self, _t: f64, q: &[f64], _v: &[f64], dq: &mut [f64], dv: &mut [f64]) {
        let (pq, pv) = self.force_jacobian_patterns();
        dq.fill(0.0);
        for (&k, (i, j)) in self.stiffness.iter() {
            if let Some(p) = pq.position(i, j) {
                dq[p] -= k;
            }
        }
        for (j, y) in self.springs.openings(q).into_iter().enumerate() {
            if y <= 0.0 {
                continue;
            }
            let kg = self.springs.stiffness[j];
            if let Some(row) = self.springs.directions.outer_view(j) {
                for (a, &da) in row.iter() {
                    for (b, &db) in row.iter() {
                        if let Some(p) = pq.position(a, b) {
                            dq[p] -= kg * da * db;
                        }
                    }
                }
            }
        }
        dv.fill(0.0);
        for (&c, (i, j)) in self.damping.iter() {
            if let Some(p) = pv.position(i, j) {
                dv[p] -= c;
            }
        }
    }
}
