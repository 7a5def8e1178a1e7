//! Kinematic constraints C(q, t) = 0 (joints and driving constraints) with
//! the three things the equations of motion need (Hrabacka et al. 2023,
//! eqs. (1)-(3); Shabana 2010, chapter 3):
//!
//! - C itself (for the drift |C| and Baumgarte stabilisation),
//! - its Jacobian C_q (the rows of the constraint Jacobian) and C_t,
//! - the right-hand side of the acceleration equations
//!   C_q q'' = Q_d, Q_d = -C_tt - (C_q q')_q q' - 2 C_qt q'.
//!
//! Every constraint writes its rows into a row-major buffer of stride n
//! (the number of coordinates): no allocation per evaluation.

use nalgebra::Vector2;

use crate::multibody::body::{Point, coords, rotation_derivative};

/// A kinematic constraint of `rows()` equations.
pub trait Constraint: Send + Sync {
    /// Number of equations.
    fn rows(&self) -> usize;

    /// C(q, t) into `c[..rows]`.
    fn eval(&self, q: &[f64], t: f64, c: &mut [f64]);

    /// C_q: its rows into `jac` (row-major, stride `n`, starting at the
    /// constraint's first row); entries it does not touch stay zero.
    fn jacobian(&self, q: &[f64], t: f64, jac: &mut [f64], n: usize);

    /// C_t into `out[..rows]`.
    fn time_derivative(&self, _q: &[f64], _t: f64, out: &mut [f64]) {
        out[..self.rows()].fill(0.0);
    }

    /// Q_d = -C_tt - (C_q q')_q q' - 2 C_qt q' into `out[..rows]`.
    fn gamma(&self, q: &[f64], qd: &[f64], t: f64, out: &mut [f64]);
}

/// Adds `sign` times the Jacobian of the point's position (2 x 3 block
/// [I, A_phi u]) to the two rows of `jac` (stride n).
fn point_jacobian(p: &Point, q: &[f64], sign: f64, jac: &mut [f64], n: usize) {
    let Some(i) = p.body else { return };
    let (_, phi) = coords(q, i);
    let d = rotation_derivative(phi) * p.u;
    jac[3 * i] += sign;
    jac[n + 3 * i + 1] += sign;
    jac[3 * i + 2] += sign * d.x;
    jac[n + 3 * i + 2] += sign * d.y;
}

/// A revolute joint: two points coincide, r_a - r_b = 0 (two equations).
/// Either point may be on the ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Revolute {
    /// The joint on the first body.
    pub a: Point,
    /// The joint on the second body (or the ground).
    pub b: Point,
}

impl Constraint for Revolute {
    fn rows(&self) -> usize {
        2
    }

    fn eval(&self, q: &[f64], _t: f64, c: &mut [f64]) {
        let d = self.a.position(q) - self.b.position(q);
        c[0] = d.x;
        c[1] = d.y;
    }

    fn jacobian(&self, q: &[f64], _t: f64, jac: &mut [f64], n: usize) {
        point_jacobian(&self.a, q, 1.0, jac, n);
        point_jacobian(&self.b, q, -1.0, jac, n);
    }

    /// -(C_q q')_q q' = A_a u_a phi_a'^2 - A_b u_b phi_b'^2.
    fn gamma(&self, q: &[f64], qd: &[f64], _t: f64, out: &mut [f64]) {
        let g = -(self.a.centripetal(q, qd) - self.b.centripetal(q, qd));
        out[0] = g.x;
        out[1] = g.y;
    }
}

/// A translational (prismatic) joint between a body and the ground: the
/// body point `p` stays on the line through `origin` along the unit
/// `axis`, and the body does not rotate from `phi0` (two equations:
/// n . (r_p - origin) = 0 with n the axis' normal, and phi - phi0 = 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrismaticGround {
    /// The sliding body's point on the line.
    pub p: Point,
    /// A point of the line [m].
    pub origin: Vector2<f64>,
    /// Unit direction of the line.
    pub axis: Vector2<f64>,
    /// The body's fixed angle [rad].
    pub phi0: f64,
}

impl PrismaticGround {
    fn body(&self) -> usize {
        self.p.body.unwrap_or(0)
    }

    fn normal(&self) -> Vector2<f64> {
        Vector2::new(-self.axis.y, self.axis.x)
    }
}

impl Constraint for PrismaticGround {
    fn rows(&self) -> usize {
        2
    }

    fn eval(&self, q: &[f64], _t: f64, c: &mut [f64]) {
        c[0] = self.normal().dot(&(self.p.position(q) - self.origin));
        c[1] = q[3 * self.body() + 2] - self.phi0;
    }

    fn jacobian(&self, q: &[f64], _t: f64, jac: &mut [f64], n: usize) {
        let i = self.body();
        let nrm = self.normal();
        let (_, phi) = coords(q, i);
        jac[3 * i] += nrm.x;
        jac[3 * i + 1] += nrm.y;
        jac[3 * i + 2] += nrm.dot(&(rotation_derivative(phi) * self.p.u));
        jac[n + 3 * i + 2] += 1.0;
    }

    fn gamma(&self, q: &[f64], qd: &[f64], _t: f64, out: &mut [f64]) {
        out[0] = -self.normal().dot(&self.p.centripetal(q, qd));
        out[1] = 0.0;
    }
}

/// A driving constraint: the body's angle follows phi0 + omega t.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Driving {
    /// The driven body.
    pub body: usize,
    /// Angle at t = 0 [rad].
    pub phi0: f64,
    /// Angular speed [rad/s].
    pub omega: f64,
}

impl Constraint for Driving {
    fn rows(&self) -> usize {
        1
    }

    fn eval(&self, q: &[f64], t: f64, c: &mut [f64]) {
        c[0] = q[3 * self.body + 2] - self.phi0 - self.omega * t;
    }

    fn jacobian(&self, _q: &[f64], _t: f64, jac: &mut [f64], _n: usize) {
        jac[3 * self.body + 2] += 1.0;
    }

    fn time_derivative(&self, _q: &[f64], _t: f64, out: &mut [f64]) {
        out[0] = -self.omega;
    }

    /// C_tt = 0 and C_qt = 0: Q_d = 0.
    fn gamma(&self, _q: &[f64], _qd: &[f64], _t: f64, out: &mut [f64]) {
        out[0] = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along any motion, d/dt C = C_q q' + C_t and, for the acceleration
    /// equations, C_q q'' = Q_d when d2/dt2 C = 0 ... checked by finite
    /// differences: d2/dt2 C = C_q q'' - Q_d + (terms of C_tt, zero here).
    fn check(c: &dyn Constraint, n: usize) {
        let motion = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|k| 0.3 * (k as f64 + 1.0) * t.sin() + 0.1 * k as f64 + 0.05 * t * t)
                .collect()
        };
        let rate = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|k| 0.3 * (k as f64 + 1.0) * t.cos() + 0.1 * t)
                .collect()
        };
        let accel = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|k| -0.3 * (k as f64 + 1.0) * t.sin() + 0.1)
                .collect()
        };
        let (t, h) = (0.4, 1e-4);
        let r = c.rows();
        let eval = |t: f64| {
            let mut out = vec![0.0; r];
            c.eval(&motion(t), t, &mut out);
            out
        };
        let (q, qd, qdd) = (motion(t), rate(t), accel(t));
        let mut jac = vec![0.0; r * n];
        c.jacobian(&q, t, &mut jac, n);
        let mut ct = vec![0.0; r];
        c.time_derivative(&q, t, &mut ct);
        let mut gamma = vec![0.0; r];
        c.gamma(&q, &qd, t, &mut gamma);
        let (cp, c0, cm) = (eval(t + h), eval(t), eval(t - h));
        for row in 0..r {
            let jq: f64 = (0..n).map(|k| jac[row * n + k] * qd[k]).sum();
            let first = (cp[row] - cm[row]) / (2.0 * h);
            assert!((first - (jq + ct[row])).abs() < 1e-7, "row {row}: dC/dt");
            let jqdd: f64 = (0..n).map(|k| jac[row * n + k] * qdd[k]).sum();
            let second = (cp[row] - 2.0 * c0[row] + cm[row]) / (h * h);
            assert!(
                (second - (jqdd - gamma[row])).abs() < 1e-5,
                "row {row}: d2C/dt2 {second} vs {}",
                jqdd - gamma[row]
            );
        }
    }

    #[test]
    fn jacobians_and_gammas_match_finite_differences() {
        check(
            &Revolute {
                a: Point::on(0, 0.05, 0.01),
                b: Point::on(1, -0.12, 0.0),
            },
            6,
        );
        check(
            &Revolute {
                a: Point::on(1, 0.02, -0.03),
                b: Point::ground(0.1, 0.2),
            },
            6,
        );
        check(
            &PrismaticGround {
                p: Point::on(1, 0.01, 0.02),
                origin: Vector2::new(0.0, 0.1),
                axis: Vector2::new(0.6, 0.8),
                phi0: 0.0,
            },
            6,
        );
        check(
            &Driving {
                body: 1,
                phi0: 0.2,
                omega: 3.0,
            },
            6,
        );
    }
}
