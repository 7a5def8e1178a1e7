//! A revolute joint with clearance modelled by contact forces (Hrabacka et
//! al. 2023, Fig. 1b): a journal of radius r (on one body) inside a bearing
//! of radius R (on the other), clearance c = R - r.
//!
//! Eccentricity e = r_J - r_B (journal centre minus bearing centre),
//! epsilon = |e|, normal n = e / epsilon, penetration delta = epsilon - c;
//! contact when delta > 0. Normal force (Lankarani & Nikravesh, J. Mech.
//! Design 112 (1990) 369-376, Hertz with hysteresis damping):
//!
//!   F_N = K delta^(3/2) [1 + 3 (1 - c_e^2) / 4 * delta' / delta'_0],
//!
//! with delta' = n . (r_J' - r_B'), delta'_0 the penetration speed at the
//! start of the contact, c_e the coefficient of restitution; F_N is not
//! allowed to pull (F_N >= 0). The stiffness of the internal cylindrical
//! contact is the Hertz-type value used for journal bearings by Flores,
//! Ambrosio, Claro & Lankarani (*Kinematics and Dynamics of Multibody
//! Systems with Imperfect Joints*, Springer 2008, eq. (2.28)):
//!
//!   K = 4 / (3 (sigma_B + sigma_J)) sqrt(R r / (R - r)),
//!   sigma = (1 - nu^2) / E,
//!
//! unless the spec gives K. Friction: a regularised Coulomb law along the
//! tangent t = (-n_y, n_x), F_T = -mu F_N tanh(v_t / v_0), v_t the
//! tangential relative velocity of the contact points (Ambrosio's smoothing
//! of the sign function; v_0 small). The force -F_N n + F_T t acts on the
//! journal and the opposite force on the bearing, both at the midpoint of
//! the two contact points r_J + r n and r_B + R n (Newton's third law with
//! one line of action: applied at their own contact points, which are
//! delta apart along n, the friction pair would leave a moment delta F_T).
//!
//! The impact speed delta'_0 is the one memory of the model: it is set
//! after the first accepted step in contact (from the penetration speed
//! then, at least [`MIN_IMPACT_SPEED`]) and cleared when the bodies
//! separate; while it is unset (the stages of the step that starts the
//! contact), the current penetration speed, at least the minimum, stands
//! in for it.

use std::cell::Cell;

use nalgebra::Vector2;

use crate::multibody::body::{Point, apply_force};

/// The smallest impact speed the damping term divides by [m/s].
pub const MIN_IMPACT_SPEED: f64 = 1e-4;

/// The parameters of a journal-bearing contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JournalBearing {
    /// Journal centre (on the journal's body).
    pub journal: Point,
    /// Bearing centre (on the bearing's body).
    pub bearing: Point,
    /// Journal radius r [m].
    pub journal_radius: f64,
    /// Bearing radius R > r [m].
    pub bearing_radius: f64,
    /// Contact stiffness K [N/m^1.5].
    pub stiffness: f64,
    /// Coefficient of restitution c_e in (0, 1].
    pub restitution: f64,
    /// Friction coefficient mu.
    pub friction: f64,
    /// Regularisation speed v_0 of the friction law [m/s].
    pub friction_speed: f64,
}

/// The state of the contact at (q, q').
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactState {
    /// Eccentricity vector e = r_J - r_B [m].
    pub eccentricity: Vector2<f64>,
    /// Penetration delta = |e| - c [m] (negative: a gap).
    pub penetration: f64,
    /// Penetration speed delta' [m/s].
    pub penetration_speed: f64,
    /// Normal force F_N >= 0 [N].
    pub normal_force: f64,
    /// Friction force F_T [N] (along t).
    pub friction_force: f64,
    /// Tangential relative speed v_t [m/s].
    pub sliding_speed: f64,
}

/// The Hertz-type stiffness of an internal cylindrical contact (see the
/// module doc) for radii R > r and the elastic constants of both bodies.
pub fn hertz_stiffness(bearing_radius: f64, journal_radius: f64, e: f64, nu: f64) -> f64 {
    let sigma = (1.0 - nu * nu) / e;
    4.0 / (3.0 * 2.0 * sigma)
        * (bearing_radius * journal_radius / (bearing_radius - journal_radius)).sqrt()
}

/// A journal-bearing contact with its impact-speed memory.
#[derive(Debug)]
pub struct ClearanceJoint {
    /// The parameters.
    pub params: JournalBearing,
    impact_speed: Cell<Option<f64>>,
}

impl ClearanceJoint {
    /// A joint, not in contact.
    pub fn new(params: JournalBearing) -> Self {
        Self {
            params,
            impact_speed: Cell::new(None),
        }
    }

    /// The clearance c = R - r [m].
    pub fn clearance(&self) -> f64 {
        self.params.bearing_radius - self.params.journal_radius
    }

    /// The contact state at (q, q') (forces included).
    pub fn state(&self, q: &[f64], qd: &[f64]) -> ContactState {
        let p = &self.params;
        let e = p.journal.position(q) - p.bearing.position(q);
        let eps = e.norm();
        let delta = eps - self.clearance();
        let mut s = ContactState {
            eccentricity: e,
            penetration: delta,
            ..ContactState::default()
        };
        if eps == 0.0 {
            return s;
        }
        let n = e / eps;
        let t = Vector2::new(-n.y, n.x);
        let vj = p.journal.velocity(q, qd);
        let vb = p.bearing.velocity(q, qd);
        s.penetration_speed = n.dot(&(vj - vb));
        if delta <= 0.0 {
            return s;
        }
        // Velocities of the two contact points: centre velocity plus
        // phi' x (contact point - centre of mass) on each body.
        let cj = p.journal.position(q) + n * p.journal_radius;
        let cb = p.bearing.position(q) + n * p.bearing_radius;
        let point_velocity = |pt: &Point, at: Vector2<f64>| -> Vector2<f64> {
            match pt.body {
                None => Vector2::zeros(),
                Some(i) => {
                    let (r, w) = (Vector2::new(q[3 * i], q[3 * i + 1]), qd[3 * i + 2]);
                    let d = at - r;
                    Vector2::new(qd[3 * i] - w * d.y, qd[3 * i + 1] + w * d.x)
                }
            }
        };
        s.sliding_speed = t.dot(&(point_velocity(&p.journal, cj) - point_velocity(&p.bearing, cb)));
        let d0 = self
            .impact_speed
            .get()
            .unwrap_or(s.penetration_speed)
            .max(MIN_IMPACT_SPEED);
        let hysteresis =
            1.0 + 3.0 * (1.0 - p.restitution * p.restitution) / 4.0 * s.penetration_speed / d0;
        s.normal_force = (p.stiffness * delta.powf(1.5) * hysteresis).max(0.0);
        s.friction_force =
            -p.friction * s.normal_force * (s.sliding_speed / p.friction_speed).tanh();
        s
    }

    /// Adds the contact forces on both bodies to the generalised forces.
    pub fn add_forces(&self, q: &[f64], qd: &[f64], out: &mut [f64]) -> ContactState {
        let s = self.state(q, qd);
        if s.normal_force == 0.0 && s.friction_force == 0.0 {
            return s;
        }
        let p = &self.params;
        let eps = s.eccentricity.norm();
        let n = s.eccentricity / eps;
        let t = Vector2::new(-n.y, n.x);
        let force = -n * s.normal_force + t * s.friction_force;
        let at = (p.journal.position(q)
            + n * p.journal_radius
            + p.bearing.position(q)
            + n * p.bearing_radius)
            * 0.5;
        if let Some(j) = p.journal.body {
            apply_force(out, q, j, at, force);
        }
        if let Some(b) = p.bearing.body {
            apply_force(out, q, b, at, -force);
        }
        s
    }

    /// After an accepted step: remember the impact speed when a contact
    /// has begun, forget it when the bodies have separated. Returns whether
    /// the memory changed (the forces at this state changed with it).
    pub fn accept(&self, q: &[f64], qd: &[f64]) -> bool {
        let s = self.state(q, qd);
        let before = self.impact_speed.get();
        if s.penetration <= 0.0 {
            self.impact_speed.set(None);
        } else if before.is_none() {
            self.impact_speed
                .set(Some(s.penetration_speed.max(MIN_IMPACT_SPEED)));
        }
        self.impact_speed.get() != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(friction: f64) -> ClearanceJoint {
        ClearanceJoint::new(JournalBearing {
            journal: Point::on(0, 0.025, 0.0),
            bearing: Point::on(1, -0.06, 0.0),
            journal_radius: 0.00995,
            bearing_radius: 0.01,
            stiffness: hertz_stiffness(0.01, 0.00995, 207e9, 0.3),
            restitution: 0.9,
            friction,
            friction_speed: 1e-4,
        })
    }

    /// Newton's third law: the forces on the two bodies sum to zero and so
    /// do their moments about the origin.
    #[test]
    fn forces_are_equal_and_opposite() {
        let j = joint(0.1);
        // Journal centre at (0.05, 0); bearing centre at (0.05 - 6e-5, 3e-5):
        // eccentricity 6.7e-5 > c = 5e-5.
        let q = [0.025, 0.0, 0.0, 0.11 - 0.00006, 0.00003, 0.0];
        let qd = [0.1, -0.2, 30.0, 0.0, 0.1, -5.0];
        let mut out = vec![0.0; 6];
        let s = j.add_forces(&q, &qd, &mut out);
        assert!(s.penetration > 0.0 && s.normal_force > 0.0, "{s:?}");
        assert!((out[0] + out[3]).abs() < 1e-9 * s.normal_force);
        assert!((out[1] + out[4]).abs() < 1e-9 * s.normal_force);
        // Moments about the origin: r x F + torque terms.
        let moment =
            |k: usize| q[3 * k] * out[3 * k + 1] - q[3 * k + 1] * out[3 * k] + out[3 * k + 2];
        assert!((moment(0) + moment(1)).abs() < 1e-9 * s.normal_force * 0.1);
    }

    /// Static Hertz: with no penetration speed, F_N = K delta^1.5.
    #[test]
    fn static_force_is_hertz() {
        let j = joint(0.0);
        let q = [0.025, 0.0, 0.0, 0.11 - 0.00006, 0.0, 0.0];
        let s = j.state(&q, &[0.0; 6]);
        let delta = 0.00006 - 0.00005;
        assert!((s.penetration - delta).abs() < 1e-15);
        let k = j.params.stiffness;
        assert!((s.normal_force - k * delta.powf(1.5)).abs() < 1e-9 * s.normal_force);
        assert_eq!(s.friction_force, 0.0);
    }
}
