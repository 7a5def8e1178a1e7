//! Hertz-type normal laws of a compliant contact: the elastic force
//! F_e(delta) of a penetration delta > 0 and the hysteresis damping that
//! multiplies it.
//!
//! *Point* (sphere-in-sphere Hertz contact): the Hertz-type value used for
//! journal bearings by Flores, Ambrosio, Claro & Lankarani (*Kinematics and
//! Dynamics of Multibody Systems with Imperfect Joints*, Springer 2008,
//! eq. (2.28)):
//!
//!   F_e = K delta^1.5,  K = 4 / (3 (sigma_B + sigma_J)) sqrt(R r / (R - r)),
//!   sigma = (1 - nu^2) / E
//!
//! ([`hertz_stiffness`]). It has no length and K grows without bound like
//! c^(-1/2) as the clearance c = R - r closes.
//!
//! *Cylindrical* (line contact of a journal of length L in its bearing):
//! Johnson's relation for two elastic cylinders with parallel axes (K. L.
//! Johnson, *Contact Mechanics*, Cambridge 1985, sec. 5.6, pp. 99-104), with
//! the same material on both sides, in SI units throughout,
//!
//!   delta(F) = F / (pi L E*) [ln(4 pi L E* c / F) - 1],
//!   1 / E* = (1 - nu_B^2) / E_B + (1 - nu_J^2) / E_J
//!
//! (Pereira, Ramalho & Ambrosio, Nonlinear Dyn. 63 (2011) 681-697, list it
//! as Johnson's internal-contact model), used up to F_1 = 4 pi L E* c / e^3
//! (delta_1 = 8 c / e^3) and continued beyond with its tangent there,
//! F_e = F_1 + k_L (delta - delta_1), k_L = pi L E* (a choice of this
//! harness, not of the sources: the relation turns back at
//! F = 4 pi L E* c / e^2, where no Hertz theory applies); F(delta) by
//! Newton's method ([`line_contact_force`]).
//!
//! *Damping* ([`lankarani_nikravesh`]): F_N = max(0, F_e(delta) [1 +
//! 3 (1 - c_e^2) / 4 delta' / v_0]) (Lankarani & Nikravesh, J. Mech. Design
//! 112 (1990) 369-376), v_0 the impact speed; with a fixed v_0 = v_ref it is
//! the Hunt-Crossley law F_e (1 + chi delta'), chi = 3 (1 - c_e^2) / (4
//! v_ref) (Hunt & Crossley, J. Appl. Mech. 42 (1975) 440-445). Which speed
//! divides is the model's choice (the clearance joint's impact memory,
//! `multibody::contact`).

/// The elastic force law F_e(delta) of a Hertz-type contact (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StiffnessLaw {
    /// Sphere-in-sphere Hertz contact, F_e = K delta^1.5; K [N/m^1.5].
    Point {
        /// K [N/m^1.5].
        stiffness: f64,
    },
    /// Johnson's line contact of a journal of length L in its bearing.
    Cylindrical {
        /// Bearing length L [m].
        length: f64,
        /// Contact modulus E* [Pa], 1/E* = sum of (1 - nu^2) / E.
        modulus: f64,
        /// Radial clearance c = R - r > 0 [m].
        clearance: f64,
    },
}

impl StiffnessLaw {
    /// The elastic force F_e(delta) [N]; zero for delta <= 0.
    pub fn force(&self, delta: f64) -> f64 {
        if delta <= 0.0 {
            return 0.0;
        }
        match *self {
            Self::Point { stiffness } => stiffness * delta.powf(1.5),
            Self::Cylindrical {
                length,
                modulus,
                clearance,
            } => line_contact_force(delta, length, modulus, clearance),
        }
    }

    /// The inverse: the penetration at which the elastic force is F >= 0
    /// (the deepest penetration the law allows at a force F) [m].
    pub fn penetration(&self, force: f64) -> f64 {
        if force <= 0.0 {
            return 0.0;
        }
        match *self {
            Self::Point { stiffness } => (force / stiffness).powf(2.0 / 3.0),
            Self::Cylindrical {
                length,
                modulus,
                clearance,
            } => {
                let k = std::f64::consts::PI * length * modulus;
                let f1 = 4.0 * k * clearance / E3;
                if force >= f1 {
                    8.0 * clearance / E3 + (force - f1) / k
                } else {
                    force / k * ((4.0 * k * clearance / force).ln() - 1.0)
                }
            }
        }
    }
}

/// e^3: the end of the line-contact relation's range (module doc).
const E3: f64 = 20.085_536_923_187_668;

/// Johnson's line-contact force at penetration delta > 0 for a journal of
/// length L in a bearing with clearance c > 0, contact modulus E*: the root
/// F of delta = F / k (ln(4 k c / F) - 1), k = pi L E*, while delta <
/// delta_1 = 8 c / e^3; beyond, the tangent continuation F_1 + k (delta -
/// delta_1) (module doc). The root: with s = ln(4 k c / F) >= 3, phi(s) =
/// ln(s - 1) - s - ln(delta / (4 c)) = 0 is concave and decreasing, so
/// Newton's method from s = 3 (phi >= 0 there) lands right of the root
/// and then decreases to it monotonically, quadratically.
pub fn line_contact_force(delta: f64, length: f64, modulus: f64, clearance: f64) -> f64 {
    let k = std::f64::consts::PI * length * modulus;
    let delta1 = 8.0 * clearance / E3;
    if delta >= delta1 {
        return 4.0 * k * clearance / E3 + k * (delta - delta1);
    }
    let y = (delta / (4.0 * clearance)).ln();
    let mut s = 3.0f64;
    for _ in 0..100 {
        let phi = (s - 1.0).ln() - s - y;
        let step = phi / (1.0 / (s - 1.0) - 1.0);
        s -= step;
        if step.abs() <= 1e-15 * s {
            break;
        }
    }
    4.0 * k * clearance * (-s).exp()
}

/// The contact modulus E* of two bodies of the same material:
/// 1/E* = 2 (1 - nu^2) / E [Pa].
pub fn contact_modulus(e: f64, nu: f64) -> f64 {
    e / (2.0 * (1.0 - nu * nu))
}

/// The Hertz-type stiffness of the point law (see the module doc) for
/// radii R > r and the elastic constants of both bodies.
pub fn hertz_stiffness(bearing_radius: f64, journal_radius: f64, e: f64, nu: f64) -> f64 {
    let sigma = (1.0 - nu * nu) / e;
    4.0 / (3.0 * 2.0 * sigma)
        * (bearing_radius * journal_radius / (bearing_radius - journal_radius)).sqrt()
}

/// The Lankarani-Nikravesh normal force F_N = max(0, F_e [1 + 3 (1 - c_e^2)
/// / 4 * delta' / v_0]) of an elastic force F_e, restitution c_e,
/// penetration speed delta' and impact speed v_0 > 0 [N] (module doc).
#[inline]
pub fn lankarani_nikravesh(elastic: f64, restitution: f64, rate: f64, impact_speed: f64) -> f64 {
    let hysteresis = 1.0 + 3.0 * (1.0 - restitution * restitution) / 4.0 * rate / impact_speed;
    (elastic * hysteresis).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Johnson's line contact for the slider-crank's bearing (L = 10 mm,
    /// steel E = 207 GPa, nu = 0.3, c = 0.05 mm): E* = E / (2 (1 - nu^2))
    /// = 1.1374e11 Pa, k = pi L E* = 3.5731e9 N/m; at F = 1000 N the
    /// published relation gives delta = F / k (ln(4 k c / F) - 1) =
    /// 1.5593497e-6 m (evaluated by hand, outside this code), and the law
    /// returns 1000 N there; its inverse agrees over six decades.
    #[test]
    fn line_contact_matches_johnson() {
        let (l, e_star, c) = (0.01, contact_modulus(207e9, 0.3), 5e-5);
        assert!((e_star - 1.137_362_637e11).abs() < 1e2);
        let f = line_contact_force(1.559_349_7e-6, l, e_star, c);
        assert!((f - 1000.0).abs() < 1e-4, "{f}");
        let law = StiffnessLaw::Cylindrical {
            length: l,
            modulus: e_star,
            clearance: c,
        };
        for force in [1e-2, 1.0, 1e2, 1e4, 3e4, 1e5, 1e6] {
            let d = law.penetration(force);
            assert!((law.force(d) - force).abs() < 1e-10 * force, "{force}");
        }
    }

    /// Continuous at delta = 0 (zero force, and a force that vanishes with
    /// delta), increasing, and continuous with its slope where the tangent
    /// continuation begins (delta_1 = 8 c / e^3).
    #[test]
    fn line_contact_is_continuous_and_monotone() {
        let (l, e_star, c) = (0.01, contact_modulus(207e9, 0.3), 5e-5);
        let law = StiffnessLaw::Cylindrical {
            length: l,
            modulus: e_star,
            clearance: c,
        };
        assert_eq!(law.force(0.0), 0.0);
        assert_eq!(law.force(-1e-6), 0.0);
        assert!(law.force(1e-15) < 1e-4, "{}", law.force(1e-15));
        let mut last = 0.0;
        for i in 1..=4000 {
            let d = 2e-5 * 1.5 * f64::from(i) / 4000.0;
            let f = law.force(d);
            assert!(f > last, "delta {d}: {f} after {last}");
            last = f;
        }
        let d1 = 8.0 * c / E3;
        let k = std::f64::consts::PI * l * e_star;
        let h = 1e-12;
        let (below, at, above) = (law.force(d1 - h), law.force(d1), law.force(d1 + h));
        assert!(
            (at - below - k * h).abs() < 1e-3 * k * h,
            "{}",
            (at - below) / h / k
        );
        assert!((above - at - k * h).abs() < 1e-6 * k * h);
    }

    /// At a fixed penetration the cylindrical law's force stays finite as
    /// the clearance closes (it tends to pi L E* delta, reached within
    /// 4 c / (e^3 delta) relative), while the point
    /// law's K delta^1.5 grows like c^(-1/2).
    #[test]
    fn line_contact_stays_finite_as_the_clearance_closes() {
        let (r_b, l, e, nu, delta) = (0.01, 0.01, 207e9, 0.3, 1e-6);
        let e_star = contact_modulus(e, nu);
        let k = std::f64::consts::PI * l * e_star;
        let mut point = Vec::new();
        for c in [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9] {
            let cyl = StiffnessLaw::Cylindrical {
                length: l,
                modulus: e_star,
                clearance: c,
            }
            .force(delta);
            assert!(cyl > 0.0 && cyl <= k * delta, "c {c}: {cyl}");
            let p = StiffnessLaw::Point {
                stiffness: hertz_stiffness(r_b, r_b - c, e, nu),
            }
            .force(delta);
            point.push(p);
            // Past delta_1 = 8 c / e^3: F = k (delta - 4 c / e^3) -> k delta.
            if delta >= 8.0 * c / E3 {
                let exact = k * (delta - 4.0 * c / E3);
                assert!((cyl - exact).abs() < 1e-12 * exact, "c {c}: {cyl}");
            }
        }
        // Point law: a factor sqrt(10) per decade of clearance (r = R - c
        // moves it by 0.5 % at c = 0.1 mm).
        for w in point.windows(2) {
            assert!((w[1] / w[0] / 10f64.sqrt() - 1.0).abs() < 1e-2, "{w:?}");
        }
    }

    /// The damping factor: none at zero penetration speed, more force
    /// while penetrating, less while separating, never a pull; none with
    /// c_e = 1.
    #[test]
    fn lankarani_nikravesh_damps_and_never_pulls() {
        assert_eq!(lankarani_nikravesh(10.0, 0.9, 0.0, 0.5), 10.0);
        let expected = 10.0 * (1.0 + 0.75 * 0.19 * 0.2 / 0.5);
        assert!((lankarani_nikravesh(10.0, 0.9, 0.2, 0.5) - expected).abs() < 1e-12);
        assert!(lankarani_nikravesh(10.0, 0.9, -0.2, 0.5) < 10.0);
        assert_eq!(lankarani_nikravesh(10.0, 0.9, -100.0, 0.5), 0.0);
        assert_eq!(lankarani_nikravesh(10.0, 1.0, 3.0, 0.5), 10.0);
    }
}
