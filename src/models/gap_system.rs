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
