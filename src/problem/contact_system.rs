//! A linear mechanical system with unilateral contacts and prescribed
//! motions, the input of the BDF contact integrator
//! (`integrators::bdf_contact`):
//!
//!   M q'' = -K q - C q' + f(t) + G^T lambda,   g = G q + b(t) >= 0,
//!
//! M diagonal, K and C constant (sparse triplets, duplicates summed), the
//! load f(t) = f_0 + sum_d (f_d s_d(t) + f'_d s'_d(t)) and the gap offsets
//! b_p(t) = b_p0 + sum_d b_pd s_d(t) affine in the prescribed motions
//! s_d(t) ([`PrescribedMotion`]s, e.g. the cam lift of
//! `models::valve_spring`). The valve spring under a prescribed retainer and
//! the valvetrain (where the retainer is a degree of freedom) are both of
//! this form; each model assembles its own.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

/// A prescribed motion s(t) of the system's surroundings (a driver): a
/// model supplies it (the cam lift), the integrator evaluates it.
pub trait PrescribedMotion: Debug + Send + Sync {
    /// (s, s', s'') at time t [m, m/s, m/s^2].
    fn at(&self, t: f64) -> (f64, f64, f64);
}

/// One unilateral contact: g = sum coeff_a q_a + constant + sum_d
/// drive_d s_d(t) >= 0; its force lambda >= 0 acts along the row (G^T).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GapRow {
    /// (DOF, coefficient) pairs.
    pub coeffs: Vec<(usize, f64)>,
    /// b_p0 [m].
    pub constant: f64,
    /// (driver, coefficient) pairs.
    pub drives: Vec<(usize, f64)>,
}

/// K q + C v of a [`ContactSystem`] from K's and C's entries in the maps'
/// (row, column) order: the same sums in the same order as walking the
/// maps, bit for bit, without walking them at every step (a quarter of a
/// valve-spring NCP step's instructions went to the maps' traversal).
#[derive(Debug, Clone, PartialEq)]
pub struct LinearForces {
    stiffness: Vec<(usize, usize, f64)>,
    damping: Vec<(usize, usize, f64)>,
}

impl LinearForces {
    /// K q + C v into `out`.
    pub fn apply(&self, q: &[f64], v: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|x| *x = 0.0);
        for &(r, c, k) in &self.stiffness {
            out[r] += k * q[c];
        }
        for &(r, c, d) in &self.damping {
            out[r] += d * v[c];
        }
    }
}

/// The assembled system (see the module doc).
#[derive(Debug, Clone)]
pub struct ContactSystem {
    /// Diagonal of M [kg].
    pub mass: Vec<f64>,
    /// K, merged: (row, col) -> value [N/m].
    pub stiffness: BTreeMap<(usize, usize), f64>,
    /// C, merged [N s/m].
    pub damping: BTreeMap<(usize, usize), f64>,
    /// f_0 [N].
    pub load: Vec<f64>,
    /// Per driver d: (DOF, f_d, f'_d) [N/m, N s/m].
    pub load_drives: Vec<Vec<(usize, f64, f64)>>,
    /// The prescribed motions s_d(t).
    pub drivers: Vec<Arc<dyn PrescribedMotion>>,
    /// The contacts.
    pub gaps: Vec<GapRow>,
    /// The stiffness that scales the NCP rows and the Newton tolerance
    /// [N/m] (a typical K entry).
    pub stiffness_scale: f64,
    /// The length that scales the Newton tolerance [m] (tolerance x
    /// stiffness_scale x length_scale is the force tolerance).
    pub length_scale: f64,
    /// The largest position magnitude [m] (the penalty residual's round-off
    /// floor is k_p times it).
    pub extent: f64,
}

impl ContactSystem {
    /// An empty system of n DOFs.
    pub fn new(mass: Vec<f64>) -> Self {
        let n = mass.len();
        Self {
            mass,
            stiffness: BTreeMap::new(),
            damping: BTreeMap::new(),
            load: vec![0.0; n],
            load_drives: Vec::new(),
            drivers: Vec::new(),
            gaps: Vec::new(),
            stiffness_scale: 1.0,
            length_scale: 1.0,
            extent: 1.0,
        }
    }

    /// Number of DOFs.
    pub fn dofs(&self) -> usize {
        self.mass.len()
    }

    /// Adds a spring-damper (k, c) between DOFs a and b (either may be
    /// `None`, a fixed point): K += k (e_a - e_b)(e_a - e_b)^T, C likewise.
    pub fn add_link(&mut self, a: Option<usize>, b: Option<usize>, k: f64, c: f64) {
        let ends = [(a, 1.0), (b, -1.0)];
        for (x, sx) in ends {
            for (y, sy) in ends {
                if let (Some(x), Some(y)) = (x, y) {
                    *self.stiffness.entry((x, y)).or_insert(0.0) += k * sx * sy;
                    *self.damping.entry((x, y)).or_insert(0.0) += c * sx * sy;
                }
            }
        }
    }

    /// Adds a driver; returns its index.
    pub fn add_driver(&mut self, motion: impl PrescribedMotion + 'static) -> usize {
        self.drivers.push(Arc::new(motion));
        self.load_drives.push(Vec::new());
        self.drivers.len() - 1
    }

    /// The drivers' values and rates at t.
    pub fn drives(&self, t: f64) -> Vec<(f64, f64)> {
        self.drivers
            .iter()
            .map(|d| {
                let (s, sd, _) = d.at(t);
                (s, sd)
            })
            .collect()
    }

    /// f(t) into `f`.
    pub fn load_at(&self, drives: &[(f64, f64)], f: &mut [f64]) {
        f.copy_from_slice(&self.load);
        for (d, terms) in self.load_drives.iter().enumerate() {
            for &(k, fs, fsd) in terms {
                f[k] += fs * drives[d].0 + fsd * drives[d].1;
            }
        }
    }

    /// K q + C v into `out`.
    pub fn linear_forces(&self, q: &[f64], v: &[f64], out: &mut [f64]) {
        self.linear_operator().apply(q, v, out);
    }

    /// K and C as flat entry lists, for the integrators' step loops
    /// ([`LinearForces`]); build it again after changing the system.
    pub fn linear_operator(&self) -> LinearForces {
        let flat = |map: &BTreeMap<(usize, usize), f64>| {
            map.iter().map(|(&(r, c), &x)| (r, c, x)).collect()
        };
        LinearForces {
            stiffness: flat(&self.stiffness),
            damping: flat(&self.damping),
        }
    }

    /// Gap p at q.
    pub fn gap(&self, p: usize, q: &[f64], drives: &[(f64, f64)]) -> f64 {
        let row = &self.gaps[p];
        row.coeffs.iter().map(|&(a, c)| c * q[a]).sum::<f64>()
            + row.constant
            + row
                .drives
                .iter()
                .map(|&(d, c)| c * drives[d].0)
                .sum::<f64>()
    }

    /// Gap rate of p at velocity v.
    pub fn gap_rate(&self, p: usize, v: &[f64], drives: &[(f64, f64)]) -> f64 {
        let row = &self.gaps[p];
        row.coeffs.iter().map(|&(a, c)| c * v[a]).sum::<f64>()
            + row
                .drives
                .iter()
                .map(|&(d, c)| c * drives[d].1)
                .sum::<f64>()
    }

    /// Adds G_p^T lambda to `f`.
    pub fn add_contact(&self, p: usize, lambda: f64, f: &mut [f64]) {
        for &(a, c) in &self.gaps[p].coeffs {
            f[a] += c * lambda;
        }
    }

    /// Kinetic plus elastic energy 1/2 v^T M v + 1/2 q^T K q [J] (the
    /// elastic part up to the work of the constant load).
    pub fn energy(&self, q: &[f64], v: &[f64]) -> f64 {
        let kinetic: f64 = self.mass.iter().zip(v).map(|(m, v)| 0.5 * m * v * v).sum();
        let elastic: f64 = self
            .stiffness
            .iter()
            .map(|(&(r, c), &k)| 0.5 * q[r] * k * q[c])
            .sum();
        kinetic + elastic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// s(t) = t^2 (s' = 2 t, s'' = 2).
    #[derive(Debug, Clone, Copy)]
    struct Parabola;

    impl PrescribedMotion for Parabola {
        fn at(&self, t: f64) -> (f64, f64, f64) {
            (t * t, 2.0 * t, 2.0)
        }
    }

    /// Two masses on a link to ground and between them; one gap with a
    /// driver: the pieces evaluate as written.
    #[test]
    fn assembly_and_evaluation() {
        let mut s = ContactSystem::new(vec![1.0, 2.0]);
        s.add_link(Some(0), None, 10.0, 0.1);
        s.add_link(Some(0), Some(1), 5.0, 0.0);
        assert_eq!(s.stiffness[&(0, 0)], 15.0);
        assert_eq!(s.stiffness[&(0, 1)], -5.0);
        assert_eq!(s.stiffness[&(1, 1)], 5.0);
        assert_eq!(s.damping[&(0, 0)], 0.1);
        let d = s.add_driver(Parabola);
        s.load_drives[d].push((1, 3.0, 0.0));
        s.gaps.push(GapRow {
            coeffs: vec![(1, 1.0)],
            constant: 0.5,
            drives: vec![(d, -1.0)],
        });
        let drives = s.drives(0.5);
        let (h, hd) = (0.25, 1.0);
        let q = [0.2, 0.3];
        assert!((s.gap(0, &q, &drives) - (0.3 + 0.5 - h)).abs() < 1e-15);
        assert!((s.gap_rate(0, &[0.0, 1.0], &drives) - (1.0 - hd)).abs() < 1e-15);
        let mut f = [0.0; 2];
        s.load_at(&drives, &mut f);
        assert_eq!(f, [0.0, 3.0 * h]);
        let mut kq = [0.0; 2];
        s.linear_forces(&q, &[0.0, 0.0], &mut kq);
        assert!((kq[0] - (15.0 * 0.2 - 5.0 * 0.3)).abs() < 1e-15);
    }
}

/// A state of a [`ContactSystem`] (an accepted step of its integrators).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSystemState {
    /// t [s].
    pub t: f64,
    /// Free lumps' positions [m].
    pub q: Vec<f64>,
    /// Their velocities [m/s].
    pub v: Vec<f64>,
    /// Contact forces per pair [N].
    pub lambda: Vec<f64>,
}
