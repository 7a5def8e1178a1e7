//! Normal contact laws: the force (or the complementarity condition) of a
//! contact as a function of its gap or penetration and their rates. The
//! models keep their geometry (how a gap follows from the coordinates);
//! the law is a call into this module.
//!
//! - **Signorini** (rigid, unilateral): g >= 0, lambda >= 0, g lambda = 0,
//!   written with a constant c > 0 as the semi-smooth equation
//!   Phi(lambda, g) = lambda - max(0, lambda - c g) = 0 ([`signorini`];
//!   Alart & Curnier, CMAME 92 (1991) 353-375; the valve spring's and the
//!   valvetrain's NCP contact);
//! - **penalty** (a spring-dashpot in the contact, [`Penalty`]): with the
//!   penetration delta = -g, F_N = max(0, k delta + d delta') while
//!   delta > 0 ([`Penalty::normal_force`]: the blades' patches), or without
//!   the condition on delta ([`Penalty::spring_damper`]: the valve spring's
//!   and valvetrain's penalty contact, whose dashpot also pushes just before
//!   touching while the approach speed exceeds k g / d);
//! - **Hertz-type** compliant laws with hysteresis damping
//!   ([`hertz`]: Hertz point contact, Johnson's line contact,
//!   Lankarani-Nikravesh / Hunt-Crossley damping: the clearance joint).

pub mod hertz;

pub use hertz::{
    StiffnessLaw, contact_modulus, hertz_stiffness, lankarani_nikravesh, line_contact_force,
};

/// The penalty normal law: a spring k and a dashpot d in the contact (SI
/// units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penalty {
    /// k [N/m].
    pub stiffness: f64,
    /// d [N s/m].
    pub damping: f64,
}

impl Penalty {
    /// F_N(delta, delta') = max(0, k delta + d delta') for a penetration
    /// delta > 0, else 0 [N].
    #[inline]
    pub fn normal_force(&self, penetration: f64, rate: f64) -> f64 {
        if penetration > 0.0 {
            (self.stiffness * penetration + self.damping * rate).max(0.0)
        } else {
            0.0
        }
    }

    /// lambda = max(0, -k g - d g') of a gap g (positive: open) and its
    /// rate, without a condition on the sign of g [N].
    #[inline]
    pub fn spring_damper(&self, gap: f64, rate: f64) -> f64 {
        (-self.stiffness * gap - self.damping * rate).max(0.0)
    }
}

/// Phi(lambda, g) = lambda - max(0, lambda - c g): zero exactly when
/// g >= 0, lambda >= 0 and g lambda = 0 (Signorini), for any c > 0 [N].
#[inline]
pub fn signorini(lambda: f64, gap: f64, c: f64) -> f64 {
    lambda - (lambda - c * gap).max(0.0)
}

/// Whether the max in [`signorini`] is active (lambda - c g > 0): the
/// contact is closed in the semi-smooth Newton step.
#[inline]
pub fn signorini_closed(lambda: f64, gap: f64, c: f64) -> bool {
    lambda - c * gap > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The penalty law: no force when open, clipped at zero when separating
    /// fast, spring plus damper otherwise; the gap form is the same law
    /// with delta = -g while penetrating, and pushes before touching only
    /// when approaching faster than k g / d.
    #[test]
    fn penalty_law() {
        let p = Penalty {
            stiffness: 1e6,
            damping: 10.0,
        };
        assert_eq!(p.normal_force(-1e-6, 1.0), 0.0);
        assert_eq!(p.normal_force(1e-6, -1.0), 0.0);
        assert!((p.normal_force(1e-6, 0.01) - 1.1).abs() < 1e-12);
        assert_eq!(p.spring_damper(-1e-6, -0.01), p.normal_force(1e-6, 0.01));
        assert_eq!(p.spring_damper(1e-6, -0.05), 0.0);
        assert!((p.spring_damper(1e-6, -0.2) - 1.0).abs() < 1e-12);
    }

    /// Phi vanishes exactly on the Signorini set and nowhere else.
    #[test]
    fn signorini_is_zero_on_the_complementarity_set() {
        let c = 1e3;
        assert_eq!(signorini(0.0, 1e-3, c), 0.0);
        assert_eq!(signorini(5.0, 0.0, c), 0.0);
        assert!(signorini(5.0, 1e-3, c) != 0.0);
        assert!(signorini(0.0, -1e-3, c) != 0.0);
        assert!(signorini(-1.0, 1e-3, c) != 0.0);
        assert!(signorini_closed(5.0, 0.0, c) && !signorini_closed(0.0, 1e-3, c));
    }
}
