//! Piecewise-linear MDOF systems with gap-activated springs (Yu 2013):
//!
//!   M x'' + C x' + K x + sum_j k_j d_j max(0, d_j . x - g_j) = F cos(omega t).
//!
//! Gap spring j engages when the opening y_j = d_j . x - g_j becomes
//! positive and then pushes back with force f_j = k_j max(0, y_j) >= 0 along
//! -d_j. With D the m x n matrix whose rows are d_j, the generalised contact
//! force is D^T f. Matrices are stored sparse (CSR, `sprs`) so that the same
//! model serves dense methods at n = 3 and sparse ones at n = 100000.
//!
//! This is the problem the Newmark step (`integrators::newmark`) and the
//! exact event-driven solver (`integrators::event_driven`) integrate; the
//! concrete systems (the spec's matrices, the chain generator
//! `models::gap_system::Chain`) build it.

use sprs::{CsMat, TriMat};

use super::ode::{Pattern, SecondOrderSystem};

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

/// The gap system as a [`SecondOrderSystem`]: the gap
/// springs are forces (piecewise linear), not constraints:
/// f = F cos(omega t) - C v - K q - D^T K_g max(0, D q - g),
/// df/dq = -K - D_S^T K_g,S D_S on the engaged springs S (an element of the
/// generalised Jacobian), df/dv = -C.
impl SecondOrderSystem for GapSystem {
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

    fn force_jacobian_patterns(&self) -> (Pattern, Pattern) {
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
        (Pattern::of(&t.to_csc()), Pattern::of(&self.damping))
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
