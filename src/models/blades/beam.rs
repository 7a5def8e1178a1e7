//! A clamped Euler-Bernoulli beam along x bending in both transverse planes,
//! discretised by Hermite cubic elements with consistent mass and stiffness
//! (Przemieniecki, *Theory of Matrix Structural Analysis*, 1968, ch. 5 and
//! 11; Petyt, *Introduction to Finite Element Vibration Analysis*, 2nd ed.,
//! 2010, ch. 3).
//!
//! DOFs per node, in this order: v (displacement along y), w (along z),
//! theta_z (rotation about z) and theta_y (rotation about y), with the
//! right-handed rotations of small angles
//!
//!   theta_z = dv/dx,    theta_y = -dw/dx
//!
//! (a rotation about +y turns +x towards -z). Node 0 is clamped and removed,
//! so a beam of n elements has 4 n DOFs, node k >= 1 at 4 (k - 1). No axial
//! or torsional DOF: the blade is taken rigid in extension and torsion.
//!
//! Element matrices of length l, in the (v, theta_z) plane with bending
//! stiffness E I_z (E I_z v'''' + rho A v'' = 0):
//!
//!   K = E I_z / l^3 [ 12   6l   -12   6l ;  6l  4l^2  -6l  2l^2 ; ... ]
//!   M = rho A l / 420 [ 156  22l  54  -13l ;  22l  4l^2  13l  -3l^2 ; ... ]
//!
//! and the same in (w, -theta_y) with E I_y. The cross-section is a b x h
//! rectangle (b the chord along the principal axis y', h the thickness
//! along z'): I_y' = b h^3 / 12 (bending in z', the weak plane), I_z' =
//! h b^3 / 12. A stagger angle gamma turns the principal axes about x
//! (y' = (0, cos gamma, sin gamma)); the element matrices are built in the
//! principal axes and rotated node by node: v' = c v + s w,
//! w' = -s v + c w, theta_y' = c theta_y + s theta_z,
//! theta_z' = -s theta_y + c theta_z. The mass is translational only
//! (no rotary inertia of the section: Euler-Bernoulli).
//!
//! Tip static stiffness of the cantilever (exact for Hermite elements):
//! k_z = 3 E I_y' / L^3 in the weak plane, k_y = 3 E I_z' / L^3 in the
//! strong one (gamma = 0). Natural frequencies of the clamped-free beam:
//! omega_k = (beta_k L)^2 sqrt(E I / (rho A L^4)), beta_1 L = 1.87510,
//! beta_2 L = 4.69409 (Blevins, *Formulas for Natural Frequency and Mode
//! Shape*, 1979, Table 8-1).

use nalgebra::{DMatrix, SMatrix};

/// DOFs per node.
pub const NODE_DOFS: usize = 4;
/// Offset of v (along y) within a node.
pub const V: usize = 0;
/// Offset of w (along z).
pub const W: usize = 1;
/// Offset of theta_z = dv/dx.
pub const THETA_Z: usize = 2;
/// Offset of theta_y = -dw/dx.
pub const THETA_Y: usize = 3;

/// A prismatic clamped-free beam with a rectangular section (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Beam {
    /// L [m]: root clamp to free end.
    pub length: f64,
    /// b [m]: section width along the principal axis y' (the chord).
    pub width: f64,
    /// h [m]: section thickness along z'.
    pub thickness: f64,
    /// gamma [rad]: the principal axes turned about x (stagger).
    pub stagger: f64,
    /// E [Pa].
    pub youngs_modulus: f64,
    /// rho [kg/m^3].
    pub density: f64,
    /// Number of elements (>= 1).
    pub elements: usize,
}

type Mat4 = SMatrix<f64, 4, 4>;
type Mat8 = SMatrix<f64, 8, 8>;

/// The Hermite element stiffness in (v1, theta1, v2, theta2), theta = v'.
fn hermite_stiffness(ei: f64, l: f64) -> Mat4 {
    let c = ei / (l * l * l);
    let l2 = l * l;
    Mat4::from_row_slice(&[
        12.0,
        6.0 * l,
        -12.0,
        6.0 * l,
        6.0 * l,
        4.0 * l2,
        -6.0 * l,
        2.0 * l2,
        -12.0,
        -6.0 * l,
        12.0,
        -6.0 * l,
        6.0 * l,
        2.0 * l2,
        -6.0 * l,
        4.0 * l2,
    ]) * c
}

/// The consistent Hermite element mass in (v1, theta1, v2, theta2).
fn hermite_mass(rho_a: f64, l: f64) -> Mat4 {
    let c = rho_a * l / 420.0;
    let l2 = l * l;
    Mat4::from_row_slice(&[
        156.0,
        22.0 * l,
        54.0,
        -13.0 * l,
        22.0 * l,
        4.0 * l2,
        13.0 * l,
        -3.0 * l2,
        54.0,
        13.0 * l,
        156.0,
        -22.0 * l,
        -13.0 * l,
        -3.0 * l2,
        -22.0 * l,
        4.0 * l2,
    ]) * c
}

/// The 8x8 element matrix in the principal axes, node DOFs (v', w',
/// theta_z', theta_y'), from the plane matrices: `a` for (v', theta_z'),
/// `b` for (w', -theta_y').
fn two_planes(a: &Mat4, b: &Mat4) -> Mat8 {
    // Plane positions in the element's 8 DOFs and the sign of each DOF.
    let pa = [V, THETA_Z, NODE_DOFS + V, NODE_DOFS + THETA_Z];
    let pb = [W, THETA_Y, NODE_DOFS + W, NODE_DOFS + THETA_Y];
    let sb = [1.0, -1.0, 1.0, -1.0];
    let mut e = Mat8::zeros();
    for i in 0..4 {
        for j in 0..4 {
            e[(pa[i], pa[j])] += a[(i, j)];
            e[(pb[i], pb[j])] += sb[i] * sb[j] * b[(i, j)];
        }
    }
    e
}

impl Beam {
    /// A = b h [m^2].
    pub fn area(&self) -> f64 {
        self.width * self.thickness
    }

    /// I_y' = b h^3 / 12 [m^4]: bending along z' (the weak plane).
    pub fn inertia_weak(&self) -> f64 {
        self.width * self.thickness.powi(3) / 12.0
    }

    /// I_z' = h b^3 / 12 [m^4]: bending along y' (the strong plane).
    pub fn inertia_strong(&self) -> f64 {
        self.thickness * self.width.powi(3) / 12.0
    }

    /// 3 E I_y' / L^3 [N/m]: the tip static stiffness along z'.
    pub fn tip_stiffness_weak(&self) -> f64 {
        3.0 * self.youngs_modulus * self.inertia_weak() / self.length.powi(3)
    }

    /// 3 E I_z' / L^3 [N/m]: the tip static stiffness along y'.
    pub fn tip_stiffness_strong(&self) -> f64 {
        3.0 * self.youngs_modulus * self.inertia_strong() / self.length.powi(3)
    }

    /// rho A L [kg].
    pub fn mass(&self) -> f64 {
        self.density * self.area() * self.length
    }

    /// Number of free DOFs, 4 n.
    pub fn dofs(&self) -> usize {
        NODE_DOFS * self.elements
    }

    /// Index of the tip node's first DOF (v); w, theta_z, theta_y follow.
    pub fn tip(&self) -> usize {
        NODE_DOFS * (self.elements - 1)
    }

    /// Checks the data: positive finite sizes and material, >= 1 element.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in [
            ("length", self.length),
            ("width", self.width),
            ("thickness", self.thickness),
            ("youngs_modulus", self.youngs_modulus),
            ("density", self.density),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("beam {name} must be positive and finite, got {v}"));
            }
        }
        if !self.stagger.is_finite() {
            return Err(format!("beam stagger must be finite, got {}", self.stagger));
        }
        if self.elements == 0 {
            return Err("beam needs at least one element".into());
        }
        Ok(())
    }

    /// The consistent mass and stiffness matrices (M, K), 4n x 4n, clamp
    /// removed, in the global DOFs (v, w, theta_z, theta_y per node).
    pub fn matrices(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        let l = self.length / self.elements as f64;
        let e = self.youngs_modulus;
        let ke = two_planes(
            &hermite_stiffness(e * self.inertia_strong(), l),
            &hermite_stiffness(e * self.inertia_weak(), l),
        );
        let m4 = hermite_mass(self.density * self.area(), l);
        let me = two_planes(&m4, &m4);
        // Global -> principal, per node.
        let (s, c) = self.stagger.sin_cos();
        let node = Mat4::from_row_slice(&[
            c, s, 0.0, 0.0, //
            -s, c, 0.0, 0.0, //
            0.0, 0.0, c, -s, //
            0.0, 0.0, s, c,
        ]);
        let mut lam = Mat8::zeros();
        lam.fixed_view_mut::<4, 4>(0, 0).copy_from(&node);
        lam.fixed_view_mut::<4, 4>(4, 4).copy_from(&node);
        let ke = lam.transpose() * ke * lam;
        let me = lam.transpose() * me * lam;
        // Assemble over nodes 0..=n, then drop node 0.
        let full = NODE_DOFS * (self.elements + 1);
        let mut k = DMatrix::zeros(full, full);
        let mut m = DMatrix::zeros(full, full);
        for el in 0..self.elements {
            let o = NODE_DOFS * el;
            for i in 0..8 {
                for j in 0..8 {
                    k[(o + i, o + j)] += ke[(i, j)];
                    m[(o + i, o + j)] += me[(i, j)];
                }
            }
        }
        let n = self.dofs();
        (
            m.view((NODE_DOFS, NODE_DOFS), (n, n)).into_owned(),
            k.view((NODE_DOFS, NODE_DOFS), (n, n)).into_owned(),
        )
    }
}

/// The undamped natural circular frequencies [rad/s] of K x = w^2 M x,
/// ascending (M = L L^T, eigenvalues of L^-1 K L^-T).
pub fn natural_frequencies(m: &DMatrix<f64>, k: &DMatrix<f64>) -> Result<Vec<f64>, String> {
    let chol = m
        .clone()
        .cholesky()
        .ok_or("natural frequencies: M is not positive definite")?;
    let l = chol.l();
    let li = l
        .clone()
        .try_inverse()
        .ok_or("natural frequencies: singular Cholesky factor")?;
    let a = &li * k * li.transpose();
    let a = (&a + a.transpose()) * 0.5;
    let mut w: Vec<f64> =
        crate::guard::symmetric_eigenvalues("natural frequencies: L^-1 K L^-T", a)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|&l| l.max(0.0).sqrt())
            .collect();
    w.sort_by(f64::total_cmp);
    Ok(w)
}

/// Rayleigh damping B = alpha M + beta K with modal damping ratios zeta_1
/// at omega_1 and zeta_2 at omega_2 (zeta(omega) = alpha / (2 omega) +
/// beta omega / 2; Clough & Penzien, *Dynamics of Structures*, 2nd ed.,
/// 1993, eq. (12-39)):
///
///   alpha = 2 w1 w2 (z1 w2 - z2 w1) / (w2^2 - w1^2),
///   beta = 2 (z2 w2 - z1 w1) / (w2^2 - w1^2).
pub fn rayleigh_coefficients(w1: f64, z1: f64, w2: f64, z2: f64) -> Result<(f64, f64), String> {
    if !(w1 > 0.0 && w2 > w1 && w2.is_finite()) {
        return Err(format!(
            "Rayleigh damping needs 0 < omega_1 < omega_2, got {w1} and {w2}"
        ));
    }
    let d = w2 * w2 - w1 * w1;
    let alpha = 2.0 * w1 * w2 * (z1 * w2 - z2 * w1) / d;
    let beta = 2.0 * (z2 * w2 - z1 * w1) / d;
    if alpha < 0.0 || beta < 0.0 {
        return Err(format!(
            "Rayleigh damping: ratios {z1} at {w1} rad/s and {z2} at {w2} rad/s give a \
             negative coefficient (alpha = {alpha:e}, beta = {beta:e})"
        ));
    }
    Ok((alpha, beta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn blade() -> Beam {
        Beam {
            length: 0.12,
            width: 0.03,
            thickness: 0.005,
            stagger: 0.0,
            youngs_modulus: 2.1e11,
            density: 7850.0,
            elements: 10,
        }
    }

    fn tip_displacement(b: &Beam, load: [f64; 4]) -> Vec<f64> {
        let (_, k) = b.matrices();
        let mut f = nalgebra::DVector::zeros(b.dofs());
        for (i, l) in load.iter().enumerate() {
            f[b.tip() + i] = *l;
        }
        let u = k.cholesky().expect("K SPD").solve(&f);
        u.iter().copied().collect()
    }

    /// A tip force F gives F L^3 / (3 E I) in both planes, and the
    /// rotations -/+ F L^2 / (2 E I) with the documented signs.
    #[test]
    fn static_tip_deflection_matches_cantilever() {
        let b = blade();
        let f = 7.0;
        let l = b.length;
        let e = b.youngs_modulus;
        let u = tip_displacement(&b, [0.0, f, 0.0, 0.0]);
        let t = b.tip();
        let wz = f / b.tip_stiffness_weak();
        assert!((u[t + W] - wz).abs() < 1e-10 * wz, "{} vs {wz}", u[t + W]);
        assert!(u[t + V].abs() < 1e-15);
        // theta_y = -w' = -F L^2 / (2 E I_y).
        let ry = -f * l * l / (2.0 * e * b.inertia_weak());
        assert!((u[t + THETA_Y] - ry).abs() < 1e-10 * ry.abs());
        let u = tip_displacement(&b, [f, 0.0, 0.0, 0.0]);
        let vy = f / b.tip_stiffness_strong();
        assert!((u[t + V] - vy).abs() < 1e-10 * vy, "{} vs {vy}", u[t + V]);
        let rz = f * l * l / (2.0 * e * b.inertia_strong());
        assert!((u[t + THETA_Z] - rz).abs() < 1e-10 * rz);
        assert!(u[t + W].abs() < 1e-15);
    }

    /// With a stagger angle a tip force along a principal axis deflects the
    /// tip along that axis only, with that axis' stiffness.
    #[test]
    fn stagger_turns_the_principal_axes() {
        let mut b = blade();
        b.stagger = 0.4;
        let (s, c) = b.stagger.sin_cos();
        let f = 3.0;
        // Along z' = (0, -s, c): the weak axis.
        let u = tip_displacement(&b, [-s * f, c * f, 0.0, 0.0]);
        let t = b.tip();
        let along = -s * u[t + V] + c * u[t + W];
        let across = c * u[t + V] + s * u[t + W];
        let expect = f / b.tip_stiffness_weak();
        assert!(
            (along - expect).abs() < 1e-10 * expect,
            "{along} vs {expect}"
        );
        assert!(across.abs() < 1e-10 * expect, "{across}");
    }

    /// The first two bending frequencies of each plane are within 0.1 % of
    /// the Euler-Bernoulli values with 10 elements, and above them (a
    /// consistent-mass model is an upper bound).
    #[test]
    fn natural_frequencies_match_euler_bernoulli() {
        let b = blade();
        let (m, k) = b.matrices();
        let ra = b.density * b.area() * b.length.powi(4);
        // Without stagger the planes decouple: (w, theta_y) and (v, theta_z).
        for (plane, inertia) in [
            ([W, THETA_Y], b.inertia_weak()),
            ([V, THETA_Z], b.inertia_strong()),
        ] {
            let idx: Vec<usize> = (0..b.dofs())
                .filter(|i| plane.contains(&(i % NODE_DOFS)))
                .collect();
            let pick = |a: &DMatrix<f64>| {
                DMatrix::from_fn(idx.len(), idx.len(), |i, j| a[(idx[i], idx[j])])
            };
            let w = natural_frequencies(&pick(&m), &pick(&k)).expect("SPD");
            for (fe, bl) in w
                .iter()
                .zip([1.875_104_068_711_961_f64, 4.694_091_132_974_175])
            {
                let ex = bl * bl * (b.youngs_modulus * inertia / ra).sqrt();
                let rel = (fe - ex) / ex;
                assert!(
                    rel.abs() < 1e-3 && rel > -1e-12,
                    "plane {plane:?}: {} Hz vs {} Hz ({rel:e})",
                    fe / (2.0 * PI),
                    ex / (2.0 * PI)
                );
            }
        }
    }

    /// The Rayleigh coefficients give the asked ratios at both anchors.
    #[test]
    fn rayleigh_reproduces_the_anchor_ratios() {
        let (w1, w2, z1, z2) = (1000.0, 9000.0, 0.01, 0.02);
        let (a, b) = rayleigh_coefficients(w1, z1, w2, z2).expect("valid");
        let zeta = |w: f64| a / (2.0 * w) + b * w / 2.0;
        assert!((zeta(w1) - z1).abs() < 1e-15 && (zeta(w2) - z2).abs() < 1e-15);
        assert!(rayleigh_coefficients(w1, 0.05, w2, 0.001).is_err());
    }
}
