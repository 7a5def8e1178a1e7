//! Friction laws as functions of the slip speed (after the seed on friction
//! in contact joints, its references, and the sources named per law).
//!
//! A friction force on a contact with normal force N >= 0 and relative
//! (slip) velocity c opposes the slip: T = -N f(|c|) c / |c| (seed eqs.
//! (4)-(5); in one dimension T = -N f(|c|) sign(c)). The laws differ in the
//! coefficient f(s), s = |c| >= 0, and in what happens at s = 0:
//!
//! - **regularised** laws ([`LawClass::Regularized`]): f is continuous with
//!   f(0) = 0, so T is a continuous function of c and the equations of
//!   motion are an ODE (stiff when f rises steeply): [`Tanh`] (and
//!   [`SmoothedCoulomb`], the same law given by its transition speed),
//!   [`Adams`], [`MicroSlip`];
//! - **set-valued** laws ([`LawClass::SetValued`]): f(0+) > 0; at s = 0 the
//!   force is anything with |T| <= N f_stick (true sticking), so the
//!   equations of motion are a differential inclusion, solved by time
//!   stepping with a complementarity problem per step: [`Coulomb`] (static
//!   and kinetic coefficients; [`FrictionLaw::Constant`] is Coulomb with
//!   equal ones), [`AnsysExponential`], [`Stribeck`];
//! - laws with an internal state: [`LuGre`] (the bristle deflection z, its
//!   own ODE), kept apart from [`FrictionLaw`].
//!
//! Every coefficient is dimensionless; speeds in m/s; each parameter's
//! unit, default and source is on its field.

pub mod exponential;
mod lugre;
pub mod regularized;
pub mod set_valued;

pub use exponential::*;
pub use lugre::LuGre;
pub use regularized::*;
pub use set_valued::*;

/// How a law behaves at zero slip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LawClass {
    /// f(0) = 0 and f continuous: the force is a function of the slip.
    Regularized,
    /// f(0+) > 0: at zero slip the force is any value with |T| <= N `stick`.
    SetValued {
        /// The sticking bound f_stick (the static coefficient).
        stick: f64,
    },
}

/// A friction law without internal state: a coefficient f(s) of the slip
/// speed s >= 0 (see the module doc), by family; each family is an enum
/// of its laws in its own file, so that a law is added to its family's
/// file alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FrictionLaw {
    /// Constant coefficient and Coulomb ([`set_valued`]).
    SetValued(SetValued),
    /// tanh, MSC.ADAMS-type, micro-slip ([`regularized`]).
    Regularized(Regularized),
    /// ANSYS exponential, Stribeck ([`exponential`]).
    Exponential(Exponential),
}

impl From<SetValued> for FrictionLaw {
    fn from(l: SetValued) -> Self {
        FrictionLaw::SetValued(l)
    }
}

impl From<Regularized> for FrictionLaw {
    fn from(l: Regularized) -> Self {
        FrictionLaw::Regularized(l)
    }
}

impl From<Exponential> for FrictionLaw {
    fn from(l: Exponential) -> Self {
        FrictionLaw::Exponential(l)
    }
}

impl FrictionLaw {
    /// f = mu for s > 0, sticking up to mu (the seed's "constant").
    pub fn constant(mu: f64) -> Self {
        FrictionLaw::SetValued(SetValued::constant(mu))
    }

    /// The coefficient f(s) at slip speed s >= 0 (for a set-valued law, at
    /// s = 0 the limit f(0+)).
    pub fn coefficient(&self, s: f64) -> f64 {
        match self {
            FrictionLaw::SetValued(l) => l.coefficient(s),
            FrictionLaw::Regularized(l) => l.coefficient(s),
            FrictionLaw::Exponential(l) => l.coefficient(s),
        }
    }

    /// df/ds at s > 0 (one-sided at kinks).
    pub fn slope(&self, s: f64) -> f64 {
        match self {
            FrictionLaw::SetValued(l) => l.slope(s),
            FrictionLaw::Regularized(l) => l.slope(s),
            FrictionLaw::Exponential(l) => l.slope(s),
        }
    }

    /// (mu_s, mu_k) of a Coulomb law (the constant law: mu_s = mu_k);
    /// None for the other laws.
    pub fn coulomb_coefficients(&self) -> Option<(f64, f64)> {
        match self {
            FrictionLaw::SetValued(l) => Some(l.static_and_kinetic()),
            FrictionLaw::Regularized(_) | FrictionLaw::Exponential(_) => None,
        }
    }

    /// Regularised or set-valued.
    pub fn class(&self) -> LawClass {
        match self {
            FrictionLaw::SetValued(l) => LawClass::SetValued { stick: l.stick() },
            FrictionLaw::Exponential(l) => LawClass::SetValued { stick: l.stick() },
            FrictionLaw::Regularized(_) => LawClass::Regularized,
        }
    }

    /// The one-dimensional friction force T = -N f(|c|) sign(c) of a
    /// regularised law, or of a set-valued law away from c = 0 (0 at c = 0).
    pub fn force(&self, normal: f64, slip: f64) -> f64 {
        if slip == 0.0 {
            0.0
        } else {
            -normal * self.coefficient(slip.abs()) * slip.signum()
        }
    }

    /// The friction force T = -N f(s) c / s, s = |c|, in a contact plane
    /// (0 at c = 0, and for N = 0): a regularised law, or a set-valued law
    /// away from c = 0 (without a sticking limit).
    #[inline]
    pub fn planar_force(&self, normal: f64, slip: [f64; 2]) -> [f64; 2] {
        let s = (slip[0] * slip[0] + slip[1] * slip[1]).sqrt();
        if s == 0.0 || normal == 0.0 {
            return [0.0, 0.0];
        }
        let k = -normal * self.coefficient(s) / s;
        [k * slip[0], k * slip[1]]
    }

    /// dT/dc of [`FrictionLaw::force`] at c != 0 (at c = 0 for a regularised
    /// law, the limit).
    pub fn force_slope(&self, normal: f64, slip: f64) -> f64 {
        -normal * self.slope(slip.abs())
    }

    /// (s, f(s)) of the largest coefficient among the 4001 slip speeds
    /// s_max k / 4000, k = 0..=4000 (the first on a tie): the break-away
    /// coefficient of a regularised law, sampled, not refined (a maximum
    /// between the samples is missed by up to the change of f over one
    /// sample spacing).
    pub fn peak(&self, s_max: f64) -> (f64, f64) {
        let n = 4000;
        let mut best = (0.0, self.coefficient(0.0));
        for k in 1..=n {
            let s = s_max * k as f64 / n as f64;
            let f = self.coefficient(s);
            if f > best.1 {
                best = (s, f);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's five laws and Coulomb and Stribeck.
    fn laws() -> Vec<FrictionLaw> {
        let mut laws: Vec<FrictionLaw> = crate::fixtures::friction::seed_laws()
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        laws.push(FrictionLaw::SetValued(
            Coulomb {
                static_coefficient: 0.15,
                kinetic_coefficient: 0.1,
            }
            .into(),
        ));
        laws.push(FrictionLaw::Exponential(
            Stribeck {
                static_coefficient: 0.15,
                kinetic_coefficient: 0.1,
                stribeck_speed: 1e-3,
                exponent: 2.0,
            }
            .into(),
        ));
        laws
    }

    /// The slope is the derivative of the coefficient (central differences).
    #[test]
    fn slopes_are_derivatives() {
        for law in laws() {
            for s in [1e-5f64, 3e-4, 7e-4, 2e-3, 0.05, 0.3] {
                let h = 1e-6 * s;
                let fd = (law.coefficient(s + h) - law.coefficient(s - h)) / (2.0 * h);
                let an = law.slope(s);
                assert!(
                    (fd - an).abs() <= 1e-5 * an.abs().max(1.0),
                    "{law:?} at s = {s}: {an} vs {fd}"
                );
            }
        }
    }

    /// Friction opposes the slip, is odd in it, and never exceeds N times
    /// the largest coefficient.
    #[test]
    fn friction_opposes_the_slip() {
        for law in laws() {
            for c in [-0.1, -1e-3, -1e-6, 1e-6, 1e-3, 0.1] {
                let t = law.force(9.81, c);
                assert!(t * c <= 0.0, "{law:?}: T = {t} at c = {c}");
                assert_eq!(t, -law.force(9.81, -c));
                assert!(t.abs() <= 9.81 * 0.41);
            }
            assert_eq!(law.force(9.81, 0.0), 0.0);
        }
    }

    /// In the plane, friction opposes the slip with magnitude N f(s), and
    /// vanishes at zero slip even for a set-valued law.
    #[test]
    fn planar_friction_opposes_the_slip() {
        let law = FrictionLaw::Regularized(
            Tanh {
                static_coefficient: 0.2,
                sharpness: 2e4,
            }
            .into(),
        );
        let c = [3e-5, -4e-5];
        let t = law.planar_force(2.0, c);
        assert!(t[0] * c[0] + t[1] * c[1] < 0.0);
        let mag = t[0].hypot(t[1]);
        assert!((mag - 2.0 * law.coefficient(5e-5)).abs() < 1e-15);
        assert!((t[0] * c[1] - t[1] * c[0]).abs() < 1e-20, "parallel");
        let coulomb = FrictionLaw::constant(0.2);
        assert_eq!(coulomb.planar_force(2.0, [0.0, 0.0]), [0.0, 0.0]);
        assert!((coulomb.planar_force(2.0, [1e-9, 0.0])[0] + 0.4).abs() < 1e-15);
    }

    /// Regularised laws vanish at zero slip; set-valued ones stick up to
    /// their static coefficient.
    #[test]
    fn classes() {
        for law in laws() {
            match law.class() {
                LawClass::Regularized => assert_eq!(law.coefficient(0.0), 0.0, "{law:?}"),
                LawClass::SetValued { stick } => {
                    // f(0+) for the exponential laws; mu_s > mu_k for Coulomb.
                    assert!(
                        stick > 0.0 && stick >= law.coefficient(1e-12) - 1e-9,
                        "{law:?}"
                    )
                }
            }
        }
    }
}
