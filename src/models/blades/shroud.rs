//! The rigid shroud (bandage) at a blade's tip and the geometry of the
//! contact surface between two shrouds (the seed, "Kinematika kontaktních
//! ploch", Fig. 1 and eqs. (1)-(2)).
//!
//! The shroud is a rigid steel block whose centroid is the beam's tip node
//! C; its mass and its rotary inertias about the axes through C are added
//! at the tip DOFs (w, v and theta_y, theta_z; the block's products of
//! inertia vanish by symmetry).
//!
//! The contact surface A is a rectangle of size a x b in a plane whose
//! normal n (pointing from blade 1 towards blade 2) lies in the y-z plane,
//! inclined by alpha from z: n = (0, sin alpha, cos alpha). It is divided
//! into n_xi x n_eta equal patches A_j with centres p_j and the common local
//! frame of the seed's Fig. 1,
//!
//!   xi = x,   zeta = -n (into blade 1),   eta = zeta x xi = (0, -cos alpha, sin alpha),
//!
//! right-handed (xi x eta = zeta). Patch j = k n_eta + l (k along xi, l
//! along eta) has its centre at p_j = P_0 + (-a/2 + (k + 1/2) a / n_xi) xi
//! + (-b/2 + (l + 1/2) b / n_eta) eta.
//!
//! A rigid body with reference point C moving with velocity u_C and angular
//! velocity omega moves the point p with u_C + omega x (p - C). In the local
//! frame, for the six rigid DOFs (u, v, w, theta_x, theta_y, theta_z) of C:
//!
//!   qdot_Aj = T qdot_C,   T = R^T [ I  -[r]x ],   r = p_j - C,
//!
//! R = [xi eta zeta] (the seed's eq. (2)); the beam's tip has the columns
//! v, w, theta_z, theta_y of T (u and theta_x are held).

use nalgebra::Vector3;

/// A rigid rectangular block (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShroudBlock {
    /// Edge lengths along x, y, z [m].
    pub size: [f64; 3],
    /// rho [kg/m^3].
    pub density: f64,
}

impl ShroudBlock {
    /// m = rho a_x a_y a_z [kg].
    pub fn mass(&self) -> f64 {
        self.density * self.size.iter().product::<f64>()
    }

    /// J_x = m (a_y^2 + a_z^2) / 12 [kg m^2], about the x axis through C.
    pub fn inertia_x(&self) -> f64 {
        self.mass() * (self.size[1].powi(2) + self.size[2].powi(2)) / 12.0
    }

    /// J_y = m (a_x^2 + a_z^2) / 12 [kg m^2], about the y axis through C.
    pub fn inertia_y(&self) -> f64 {
        self.mass() * (self.size[0].powi(2) + self.size[2].powi(2)) / 12.0
    }

    /// J_z = m (a_x^2 + a_y^2) / 12 [kg m^2], about the z axis through C.
    pub fn inertia_z(&self) -> f64 {
        self.mass() * (self.size[0].powi(2) + self.size[1].powi(2)) / 12.0
    }
}

/// The local frame (xi, eta, zeta) of the contact plane, in global
/// coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// xi = x.
    pub xi: Vector3<f64>,
    /// eta = zeta x xi.
    pub eta: Vector3<f64>,
    /// zeta = -n, the normal into blade 1.
    pub zeta: Vector3<f64>,
}

impl Frame {
    /// The frame of a plane whose normal n = (0, sin alpha, cos alpha)
    /// (from blade 1 to blade 2) is inclined by `alpha` from z.
    pub fn inclined(alpha: f64) -> Self {
        let (s, c) = alpha.sin_cos();
        Self {
            xi: Vector3::new(1.0, 0.0, 0.0),
            eta: Vector3::new(0.0, -c, s),
            zeta: Vector3::new(0.0, -s, -c),
        }
    }

    /// Global vector -> local (xi, eta, zeta) components.
    pub fn to_local(&self, g: &Vector3<f64>) -> [f64; 3] {
        [self.xi.dot(g), self.eta.dot(g), self.zeta.dot(g)]
    }

    /// Local components -> global vector.
    pub fn to_global(&self, l: &[f64; 3]) -> Vector3<f64> {
        self.xi * l[0] + self.eta * l[1] + self.zeta * l[2]
    }
}

/// The rectangle A and its patches.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSurface {
    /// The frame shared by every patch.
    pub frame: Frame,
    /// P_0, the rectangle's centre at rest [m].
    pub centre: Vector3<f64>,
    /// Patch centres p_j at rest [m], j = k n_eta + l.
    pub patches: Vec<Vector3<f64>>,
    /// Area of each patch [m^2].
    pub patch_area: f64,
}

impl ContactSurface {
    /// The rectangle of `size` = (a along xi, b along eta) centred at
    /// `centre`, in the plane inclined by `alpha`, with `counts` =
    /// (n_xi, n_eta) patches.
    pub fn new(centre: Vector3<f64>, size: [f64; 2], alpha: f64, counts: [usize; 2]) -> Self {
        let frame = Frame::inclined(alpha);
        let [a, b] = size;
        let [nx, ne] = counts;
        let mut patches = Vec::with_capacity(nx * ne);
        for k in 0..nx {
            let s = -a / 2.0 + (k as f64 + 0.5) * a / nx as f64;
            for l in 0..ne {
                let e = -b / 2.0 + (l as f64 + 0.5) * b / ne as f64;
                patches.push(centre + frame.xi * s + frame.eta * e);
            }
        }
        Self {
            frame,
            centre,
            patches,
            patch_area: a * b / (nx * ne) as f64,
        }
    }
}

/// The 3 x 6 map T = R^T [I  -[r]x] from the rigid DOFs (u, v, w, theta_x,
/// theta_y, theta_z) of a reference point to the local velocity of the
/// point at r from it.
pub fn rigid_map(frame: &Frame, r: &Vector3<f64>) -> [[f64; 6]; 3] {
    let mut t = [[0.0; 6]; 3];
    for (row, axis) in [frame.xi, frame.eta, frame.zeta].iter().enumerate() {
        // Translation: axis . u; rotation: axis . (omega x r) = omega . (r x axis).
        let m = r.cross(axis);
        t[row] = [axis.x, axis.y, axis.z, m.x, m.y, m.z];
    }
    t
}

/// The rigid-map columns of the beam node DOFs (v, w, theta_z, theta_y).
pub const BEAM_COLUMNS: [usize; 4] = [1, 2, 5, 4];

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame is orthonormal and right-handed, zeta = -n.
    #[test]
    fn frame_is_right_handed() {
        let f = Frame::inclined(0.5);
        assert!((f.xi.cross(&f.eta) - f.zeta).norm() < 1e-15);
        assert!((f.eta.norm() - 1.0).abs() < 1e-15 && f.xi.dot(&f.eta).abs() < 1e-15);
        assert!((f.zeta + Vector3::new(0.0, 0.5f64.sin(), 0.5f64.cos())).norm() < 1e-15);
        let g = Vector3::new(0.3, -1.0, 2.0);
        assert!((f.to_global(&f.to_local(&g)) - g).norm() < 1e-15);
    }

    /// T applied to a rigid velocity equals u_C + omega x r in the frame.
    #[test]
    fn rigid_map_is_the_rigid_velocity() {
        let f = Frame::inclined(0.6);
        let r = Vector3::new(0.01, -0.02, 0.015);
        let u = Vector3::new(0.1, 0.2, -0.3);
        let w = Vector3::new(-1.0, 2.0, 0.5);
        let t = rigid_map(&f, &r);
        let q = [u.x, u.y, u.z, w.x, w.y, w.z];
        let expect = f.to_local(&(u + w.cross(&r)));
        for i in 0..3 {
            let got: f64 = (0..6).map(|k| t[i][k] * q[k]).sum();
            assert!(
                (got - expect[i]).abs() < 1e-15,
                "{i}: {got} vs {}",
                expect[i]
            );
        }
    }

    /// The patches tile the rectangle: their mean is the centre, they lie in
    /// the plane, and the total area is a b.
    #[test]
    fn patches_tile_the_rectangle() {
        let c = Vector3::new(0.12, 0.001, 0.0125);
        let s = ContactSurface::new(c, [0.006, 0.01], 0.5, [4, 5]);
        assert_eq!(s.patches.len(), 20);
        let mean = s.patches.iter().sum::<Vector3<f64>>() / 20.0;
        assert!((mean - c).norm() < 1e-15);
        for p in &s.patches {
            assert!((p - c).dot(&s.frame.zeta).abs() < 1e-15);
        }
        assert!((s.patch_area * 20.0 - 6e-5).abs() < 1e-18);
        // Patch 6 = (k = 1, l = 1).
        let p = s.patches[6] - c;
        assert!((p.dot(&s.frame.xi) + 0.00075).abs() < 1e-15);
        assert!((p.dot(&s.frame.eta) + 0.002).abs() < 1e-15);
    }

    #[test]
    fn block_inertia() {
        let b = ShroudBlock {
            size: [0.006, 0.03, 0.025],
            density: 7850.0,
        };
        assert!((b.mass() - 7850.0 * 4.5e-6).abs() < 1e-15);
        assert!((b.inertia_y() - b.mass() * (3.6e-5 + 6.25e-4) / 12.0).abs() < 1e-18);
    }
}
