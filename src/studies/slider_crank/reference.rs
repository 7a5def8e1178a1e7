//! The driving torque of the ideal slider-crank at constant crank speed by
//! inverse dynamics, in closed form (issue 20, class 3): the reference of
//! the crank-torque figures and of the check on the ideal joint's torque.
//! It shares no code with the simulator (absolute coordinates, Lagrange
//! multipliers, `crate::multibody`): only the mechanism's data.
//!
//! Derivation (virtual work, one degree of freedom phi; e.g. Shabana,
//! Computational Dynamics, 3rd ed. 2010, sec. 3.6): with every body
//! position a function of phi, r_i(phi) and theta_i(phi), and ' = d/dphi,
//! the generalised inertia is J(phi) = sum_i m_i |r_i'|^2 + I_i theta_i'^2
//! and the power balance tau phi' = d/dt (T + V) with T = J phi'^2 / 2 gives
//! at constant speed (phi'' = 0)
//!
//!   tau = omega^2 sum_i [m_i r_i' . r_i'' + I_i theta_i' theta_i''] + dV/dphi,
//!
//! V = g sum_i m_i y_i (gravity along -y). Geometry (models::slider_crank):
//! crank pin A = l1 (cos phi, sin phi); S = sqrt(l2^2 - l1^2 sin^2 phi);
//! slider B = (x_B, 0), x_B = l1 cos phi + S; centres of mass at
//! mid-length: crank l1/2 (cos, sin) (r' . r'' = 0, theta'' = 0: no inertia
//! term), rod (A + B) / 2, slider B (its angle is fixed). With s = sin phi,
//! c = cos phi:
//!
//!   S'  = -l1^2 s c / S,
//!   S'' = -l1^2 (c^2 - s^2) / S - l1^4 s^2 c^2 / S^3,
//!   x_B' = -l1 s + S',  x_B'' = -l1 c + S'',
//!   rod angle psi = atan2(-l1 s, S): psi' = -l1 c / S,
//!   psi'' = l1 s / S - l1^3 s c^2 / S^3,
//!   rod centre r_2' = ((-l1 s + x_B') / 2, l1 c / 2),
//!          r_2'' = ((-l1 c + x_B'') / 2, -l1 s / 2),
//!   dV/dphi = g (m_1 + m_2) l1 c / 2.
//!
//! tau is the torque the drive applies to the crank (positive along phi).

use crate::models::slider_crank::SliderCrank;

/// The torque [N m] that keeps the ideal mechanism `m` at crank angle
/// `phi` [rad] turning at the constant speed `omega` [rad/s] (module doc).
pub fn inverse_dynamics_torque(m: &SliderCrank, phi: f64, omega: f64) -> f64 {
    let (l1, l2) = (m.crank_length, m.rod_length);
    let (s, c) = phi.sin_cos();
    let big_s = (l2 * l2 - l1 * l1 * s * s).sqrt();
    let d_s = -l1 * l1 * s * c / big_s;
    let dd_s = -l1 * l1 * (c * c - s * s) / big_s - l1.powi(4) * s * s * c * c / big_s.powi(3);
    let (dx_b, ddx_b) = (-l1 * s + d_s, -l1 * c + dd_s);
    let d_psi = -l1 * c / big_s;
    let dd_psi = l1 * s / big_s - l1.powi(3) * s * c * c / big_s.powi(3);
    let rod = ((-l1 * s + dx_b) / 2.0, l1 * c / 2.0);
    let d_rod = ((-l1 * c + ddx_b) / 2.0, -l1 * s / 2.0);
    let inertia = m.rod.mass * (rod.0 * d_rod.0 + rod.1 * d_rod.1)
        + m.rod.inertia * d_psi * dd_psi
        + m.slider.mass * dx_b * ddx_b;
    let gravity = m.gravity * (m.crank.mass + m.rod.mass) * l1 * c / 2.0;
    omega * omega * inertia + gravity
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multibody::Body;

    fn mechanism(gravity: f64) -> SliderCrank {
        let body = |mass, inertia| Body { mass, inertia };
        SliderCrank {
            crank_length: 0.05,
            rod_length: 0.12,
            crank: body(0.30, 1e-5),
            rod: body(0.087, 1.044e-4),
            slider: body(0.14, 1e-4),
            gravity,
        }
    }

    /// The largest |dE - tau dphi| over a revolution, relative to
    /// omega^2 (m_1 + m_2 + m_3) l1^2 dphi: the energy E(phi) (kinetic plus
    /// potential, at phi' = omega) is written from the positions alone,
    /// velocities by central differences, so no derivative of the closed
    /// form enters.
    fn energy_balance(m: &SliderCrank, omega: f64, torque: &dyn Fn(f64) -> f64) -> f64 {
        let (l1, l2) = (m.crank_length, m.rod_length);
        // (crank centre, rod centre, rod angle, slider x) at phi.
        let pos = |phi: f64| {
            let (s, c) = phi.sin_cos();
            let xb = l1 * c + (l2 * l2 - l1 * l1 * s * s).sqrt();
            let rod = ((l1 * c + xb) / 2.0, l1 * s / 2.0);
            let psi = (-l1 * s).atan2(xb - l1 * c);
            ((l1 * c / 2.0, l1 * s / 2.0), rod, psi, xb)
        };
        let energy = |phi: f64| {
            let h = 1e-6;
            let (a, b, p) = (pos(phi - h), pos(phi + h), pos(phi));
            let d = |u: f64, v: f64| (v - u) / (2.0 * h) * omega;
            let kinetic = 0.5 * m.crank.mass * (d(a.0.0, b.0.0).powi(2) + d(a.0.1, b.0.1).powi(2))
                + 0.5 * m.crank.inertia * omega * omega
                + 0.5 * m.rod.mass * (d(a.1.0, b.1.0).powi(2) + d(a.1.1, b.1.1).powi(2))
                + 0.5 * m.rod.inertia * d(a.2, b.2).powi(2)
                + 0.5 * m.slider.mass * d(a.3, b.3).powi(2);
            kinetic + m.gravity * (m.crank.mass * p.0.1 + m.rod.mass * p.1.1)
        };
        let dphi = 1e-3;
        let scale = omega * omega * (m.crank.mass + m.rod.mass + m.slider.mass) * l1 * l1;
        (0..36)
            .map(|k| {
                let phi = 0.05 + k as f64 * std::f64::consts::TAU / 36.0;
                let de = energy(phi + dphi) - energy(phi - dphi);
                (de - torque(phi) * 2.0 * dphi).abs() / (2.0 * dphi * scale)
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn the_torque_does_the_work_of_the_energy_change() {
        for (gravity, omega) in [(0.0, 523.6), (9.81, 100.0), (9.81, 5.0)] {
            let m = mechanism(gravity);
            let r = energy_balance(&m, omega, &|phi| inverse_dynamics_torque(&m, phi, omega));
            assert!(r < 1e-4, "g {gravity}, omega {omega}: residual {r:e}");
        }
    }

    /// The balance finds a torque that leaves out the slider, or gravity.
    #[test]
    fn a_torque_missing_a_term_fails_the_energy_balance() {
        let m = mechanism(9.81);
        let mut light = m;
        light.slider.mass = 0.0;
        let r = energy_balance(&m, 100.0, &|phi| {
            inverse_dynamics_torque(&light, phi, 100.0)
        });
        assert!(r > 1e-2, "residual {r:e}");
        let mut weightless = m;
        weightless.gravity = 0.0;
        let r = energy_balance(&m, 5.0, &|phi| {
            inverse_dynamics_torque(&weightless, phi, 5.0)
        });
        assert!(r > 1e-2, "residual {r:e}");
    }
}
