//! The planar slider-crank mechanism (Hrabacka et al. 2023, Fig. 2): crank
//! (body 0) pivoted at the origin, connecting rod (body 1), slider (body 2)
//! on the x axis (no offset); crank angle phi from +x. The crank-rod joint
//! is either a kinematic revolute joint (`Ideal`) or a journal-bearing
//! contact (`Clearance`: the journal on the crank pin, the bearing in the
//! rod's big end); all other joints are kinematic. The crank is driven at
//! constant speed (a driving constraint) or free (an initial speed and an
//! applied torque).
//!
//! Body frames: each body's x axis runs along it, its centre of mass at
//! mid-length (the slider's at the rod-slider pin). Exact kinematics of the
//! driven mechanism (omega constant), with s = sin phi, c = cos phi,
//! S = sqrt(l2^2 - l1^2 s^2):
//!
//!   x = l1 c + S,
//!   v = -omega (l1 s + l1^2 s c / S),
//!   a = -omega^2 (l1 c + l1^2 (c^2 - s^2) / S + l1^4 s^2 c^2 / S^3).

use nalgebra::Vector2;

use crate::multibody::{
    Body, ClearanceJoint, Constraint, Driving, JournalBearing, Point, PrismaticGround, Revolute,
    StiffnessLaw,
};

/// The mechanism's data (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliderCrank {
    /// Crank length l1 [m].
    pub crank_length: f64,
    /// Rod length l2 > l1 [m].
    pub rod_length: f64,
    /// Crank mass [kg] and inertia about its centre of mass [kg m^2].
    pub crank: Body,
    /// Rod mass and inertia.
    pub rod: Body,
    /// Slider mass (its inertia only enters through the fixed angle).
    pub slider: Body,
    /// Gravity along -y [m/s^2].
    pub gravity: f64,
}

/// How the crank moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Drive {
    /// phi = phi0 + omega t (a driving constraint).
    ConstantSpeed {
        /// phi0 [rad].
        phi0: f64,
        /// omega [rad/s].
        omega: f64,
    },
    /// No driving constraint: initial angle and speed, a constant torque.
    Free {
        /// phi(0) [rad].
        phi0: f64,
        /// phi'(0) [rad/s].
        omega0: f64,
        /// Torque on the crank [N m].
        torque: f64,
    },
}

impl Drive {
    /// The initial angle and speed.
    pub fn initial(&self) -> (f64, f64) {
        match *self {
            Drive::ConstantSpeed { phi0, omega } => (phi0, omega),
            Drive::Free { phi0, omega0, .. } => (phi0, omega0),
        }
    }
}

/// Exact slider position, velocity and acceleration at crank angle phi and
/// constant speed omega (see the module doc).
pub fn exact_slider(l1: f64, l2: f64, phi: f64, omega: f64) -> (f64, f64, f64) {
    let (s, c) = phi.sin_cos();
    let big_s = (l2 * l2 - l1 * l1 * s * s).sqrt();
    let x = l1 * c + big_s;
    let v = -omega * (l1 * s + l1 * l1 * s * c / big_s);
    let a = -omega
        * omega
        * (l1 * c + l1 * l1 * (c * c - s * s) / big_s + l1.powi(4) * s * s * c * c / big_s.powi(3));
    (x, v, a)
}

impl SliderCrank {
    /// The kinematic joints: ground-crank, rod-slider, slider-ground, and
    /// (ideal) crank-rod; then the driving constraint when driven.
    pub fn constraints(&self, ideal: bool, drive: Drive) -> Vec<Box<dyn Constraint>> {
        let (l1, l2) = (self.crank_length, self.rod_length);
        let mut c: Vec<Box<dyn Constraint>> = vec![Box::new(Revolute {
            a: Point::on(0, -l1 / 2.0, 0.0),
            b: Point::ground(0.0, 0.0),
        })];
        if ideal {
            c.push(Box::new(Revolute {
                a: Point::on(0, l1 / 2.0, 0.0),
                b: Point::on(1, -l2 / 2.0, 0.0),
            }));
        }
        c.push(Box::new(Revolute {
            a: Point::on(1, l2 / 2.0, 0.0),
            b: Point::on(2, 0.0, 0.0),
        }));
        c.push(Box::new(PrismaticGround {
            p: Point::on(2, 0.0, 0.0),
            origin: Vector2::zeros(),
            axis: Vector2::new(1.0, 0.0),
            phi0: 0.0,
        }));
        if let Drive::ConstantSpeed { phi0, omega } = drive {
            c.push(Box::new(Driving {
                body: 0,
                phi0,
                omega,
            }));
        }
        c
    }

    /// The bodies: crank, rod, slider.
    pub fn bodies(&self) -> Vec<Body> {
        vec![self.crank, self.rod, self.slider]
    }

    /// The clearance joint between the crank pin (journal) and the rod's
    /// big end (bearing).
    pub fn clearance_joint(&self, bearing: JournalBearingParams) -> ClearanceJoint {
        ClearanceJoint::new(JournalBearing {
            journal: Point::on(0, self.crank_length / 2.0, 0.0),
            bearing: Point::on(1, -self.rod_length / 2.0, 0.0),
            journal_radius: bearing.journal_radius,
            bearing_radius: bearing.bearing_radius,
            law: bearing.law,
            restitution: bearing.restitution,
            friction: bearing.friction,
            friction_speed: bearing.friction_speed,
            reference_speed: bearing.reference_speed,
        })
    }

    /// Consistent initial coordinates and velocities (9 each) at crank
    /// angle phi and speed omega, the journal centred in the bearing.
    pub fn initial_state(&self, phi: f64, omega: f64) -> ([f64; 9], [f64; 9]) {
        let (l1, l2) = (self.crank_length, self.rod_length);
        let (s, c) = phi.sin_cos();
        let (xb, vb, _) = exact_slider(l1, l2, phi, omega);
        let pin = Vector2::new(l1 * c, l1 * s);
        let pin_v = Vector2::new(-l1 * s * omega, l1 * c * omega);
        let slider = Vector2::new(xb, 0.0);
        let d = slider - pin;
        let psi = d.y.atan2(d.x);
        let d_v = Vector2::new(vb, 0.0) - pin_v;
        let psi_d = (d_v.y * psi.cos() - d_v.x * psi.sin()) / l2;
        let rod = (pin + slider) / 2.0;
        let rod_v = (pin_v + Vector2::new(vb, 0.0)) / 2.0;
        (
            [
                pin.x / 2.0,
                pin.y / 2.0,
                phi,
                rod.x,
                rod.y,
                psi,
                xb,
                0.0,
                0.0,
            ],
            [
                pin_v.x / 2.0,
                pin_v.y / 2.0,
                omega,
                rod_v.x,
                rod_v.y,
                psi_d,
                vb,
                0.0,
                0.0,
            ],
        )
    }
}

/// The journal-bearing data of the clearance joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JournalBearingParams {
    /// Journal radius r [m].
    pub journal_radius: f64,
    /// Bearing radius R [m].
    pub bearing_radius: f64,
    /// The elastic force law of the contact.
    pub law: StiffnessLaw,
    /// Coefficient of restitution.
    pub restitution: f64,
    /// Friction coefficient.
    pub friction: f64,
    /// Friction regularisation speed [m/s].
    pub friction_speed: f64,
    /// Floor v_ref of the impact speed in the damping law [m/s].
    pub reference_speed: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact velocity and acceleration are the derivatives of the
    /// position (finite differences in phi).
    #[test]
    fn exact_kinematics_are_consistent() {
        let (l1, l2, w) = (0.05, 0.12, 523.6);
        for phi in [0.0, 0.3, 1.2, 2.5, 4.0] {
            let h = 1e-5;
            let x = |p: f64| exact_slider(l1, l2, p, w).0;
            let (_, v, a) = exact_slider(l1, l2, phi, w);
            let dx = (x(phi + h) - x(phi - h)) / (2.0 * h) * w;
            let ddx = (x(phi + h) - 2.0 * x(phi) + x(phi - h)) / (h * h) * w * w;
            assert!((v - dx).abs() < 1e-6 * w, "phi {phi}: v {v} vs {dx}");
            assert!(
                (a - ddx).abs() < 1e-3 * w * w * l1,
                "phi {phi}: a {a} vs {ddx}"
            );
        }
    }

    /// The initial state satisfies every constraint and its velocity form.
    #[test]
    fn the_initial_state_is_consistent() {
        let m = SliderCrank {
            crank_length: 0.05,
            rod_length: 0.12,
            crank: Body {
                mass: 0.3,
                inertia: 1e-5,
            },
            rod: Body {
                mass: 0.087,
                inertia: 1.044e-4,
            },
            slider: Body {
                mass: 0.14,
                inertia: 1e-5,
            },
            gravity: 0.0,
        };
        let drive = Drive::ConstantSpeed {
            phi0: 0.7,
            omega: 523.6,
        };
        let (q, qd) = m.initial_state(0.7, 523.6);
        for c in m.constraints(true, drive) {
            let mut v = vec![0.0; c.rows()];
            c.eval(&q, 0.0, &mut v);
            assert!(v.iter().all(|x| x.abs() < 1e-15), "{v:?}");
            let mut jac = vec![0.0; c.rows() * 9];
            c.jacobian(&q, 0.0, &mut jac, 9);
            let mut ct = vec![0.0; c.rows()];
            c.time_derivative(&q, 0.0, &mut ct);
            for r in 0..c.rows() {
                let cd: f64 = (0..9).map(|k| jac[r * 9 + k] * qd[k]).sum::<f64>() + ct[r];
                assert!(cd.abs() < 1e-12, "row {r}: {cd}");
            }
        }
    }
}
