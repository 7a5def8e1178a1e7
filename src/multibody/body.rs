//! Rigid bodies in the plane with absolute coordinates q_i = [x_i, y_i,
//! phi_i]: the position of the centre of mass and the rotation angle
//! (Shabana, *Computational Dynamics*, 3rd ed. 2010, chapter 3; Nikravesh,
//! *Computer-Aided Analysis of Mechanical Systems*, 1988, chapter 6). A
//! point with body-fixed coordinates u has the global position
//! r = R + A(phi) u, velocity r' = R' + A_phi(phi) u phi' and acceleration
//! r'' = R'' + A_phi u phi'' - A u phi'^2, with A the rotation matrix and
//! A_phi = dA/dphi = A rotated by 90 degrees.

use nalgebra::{Matrix2, Vector2};

/// A rigid body: its mass [kg] and its moment of inertia about the centre
/// of mass [kg m^2].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Mass m [kg].
    pub mass: f64,
    /// Moment of inertia J about the centre of mass [kg m^2].
    pub inertia: f64,
}

/// A(phi) = [[cos, -sin], [sin, cos]].
#[inline]
pub fn rotation(phi: f64) -> Matrix2<f64> {
    let (s, c) = phi.sin_cos();
    Matrix2::new(c, -s, s, c)
}

/// A_phi(phi) = dA/dphi = [[-sin, -cos], [cos, -sin]].
#[inline]
pub fn rotation_derivative(phi: f64) -> Matrix2<f64> {
    let (s, c) = phi.sin_cos();
    Matrix2::new(-s, -c, c, -s)
}

/// The body coordinates (x, y, phi) of body `i` in the system vector q.
#[inline]
pub fn coords(q: &[f64], i: usize) -> (Vector2<f64>, f64) {
    (Vector2::new(q[3 * i], q[3 * i + 1]), q[3 * i + 2])
}

/// A point fixed on a body (u in body coordinates), or fixed on the ground
/// (u is then its global position).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The body, None for the ground.
    pub body: Option<usize>,
    /// Body-fixed coordinates (global ones on the ground) [m].
    pub u: Vector2<f64>,
}

impl Point {
    /// A point of body `body` at body coordinates (x, y).
    pub fn on(body: usize, x: f64, y: f64) -> Self {
        Self {
            body: Some(body),
            u: Vector2::new(x, y),
        }
    }

    /// A point of the ground at global coordinates (x, y).
    pub fn ground(x: f64, y: f64) -> Self {
        Self {
            body: None,
            u: Vector2::new(x, y),
        }
    }

    /// Global position r = R + A u.
    pub fn position(&self, q: &[f64]) -> Vector2<f64> {
        match self.body {
            None => self.u,
            Some(i) => {
                let (r, phi) = coords(q, i);
                r + rotation(phi) * self.u
            }
        }
    }

    /// Global velocity r' = R' + A_phi u phi'.
    pub fn velocity(&self, q: &[f64], qd: &[f64]) -> Vector2<f64> {
        match self.body {
            None => Vector2::zeros(),
            Some(i) => {
                let (_, phi) = coords(q, i);
                let (rd, phid) = coords(qd, i);
                rd + rotation_derivative(phi) * self.u * phid
            }
        }
    }

    /// The quadratic-velocity part of the acceleration, -A u phi'^2 (what
    /// r'' is when R'' = 0 and phi'' = 0).
    pub fn centripetal(&self, q: &[f64], qd: &[f64]) -> Vector2<f64> {
        match self.body {
            None => Vector2::zeros(),
            Some(i) => {
                let (_, phi) = coords(q, i);
                let phid = qd[3 * i + 2];
                -(rotation(phi) * self.u) * (phid * phid)
            }
        }
    }
}

/// Adds to the generalised forces `out` a force `f` applied at the global
/// point `at` of body `body`: [f_x, f_y, (at - R) x f].
pub fn apply_force(out: &mut [f64], q: &[f64], body: usize, at: Vector2<f64>, f: Vector2<f64>) {
    let (r, _) = coords(q, body);
    let s = at - r;
    out[3 * body] += f.x;
    out[3 * body + 1] += f.y;
    out[3 * body + 2] += s.x * f.y - s.y * f.x;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point's velocity and centripetal acceleration match finite
    /// differences of its position along a motion.
    #[test]
    fn point_kinematics_match_finite_differences() {
        let p = Point::on(0, 0.3, -0.1);
        let motion = |t: f64| [0.2 * t, -0.1 * t * t, 1.0 + 3.0 * t];
        let rate = |t: f64| [0.2, -0.2 * t, 3.0];
        let (t, h) = (0.7, 1e-5);
        let (q, qd) = (motion(t), rate(t));
        let fd = (p.position(&motion(t + h)) - p.position(&motion(t - h))) / (2.0 * h);
        assert!((p.velocity(&q, &qd) - fd).norm() < 1e-9);
        // r'' = R'' + A_phi u phi'' - A u phi'^2 with R'' = (0, -0.2), phi'' = 0.
        let acc = (p.position(&motion(t + h)) - 2.0 * p.position(&q) + p.position(&motion(t - h)))
            / (h * h);
        let expected = Vector2::new(0.0, -0.2) + p.centripetal(&q, &qd);
        assert!((acc - expected).norm() < 1e-4, "{acc} vs {expected}");
    }
}
