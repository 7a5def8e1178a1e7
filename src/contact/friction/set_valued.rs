//! Coulomb friction with static and kinetic coefficients: f(s) = mu_k for
//! s > 0, and at s = 0 any force with |T| <= N mu_s (true sticking). The
//! constant-coefficient law of the seed is the case mu_s = mu_k.
//!
//! A law of this family is added in this file alone: its struct, its
//! variant and arms in the family enum, its `From` into the family.

/// Coulomb friction (set-valued at zero slip).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coulomb {
    /// mu_s [-]: the sticking bound.
    pub static_coefficient: f64,
    /// mu_k <= mu_s [-]: the coefficient while slipping.
    pub kinetic_coefficient: f64,
}

impl Coulomb {
    /// f(s): mu_k for s > 0, mu_s at s = 0 (the sticking bound).
    pub fn coefficient(&self, s: f64) -> f64 {
        if s > 0.0 {
            self.kinetic_coefficient
        } else {
            self.static_coefficient
        }
    }
}

/// The set-valued laws with a constant slip coefficient: one family of
/// [`super::FrictionLaw`]. A law of this family is added here alone (its
/// variant and its arms below).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SetValued {
    /// f = mu for s > 0, sticking up to mu (the seed's "constant f = 0.2").
    Constant {
        /// mu [-].
        mu: f64,
    },
    /// Coulomb with static and kinetic coefficients.
    Coulomb(Coulomb),
}

impl SetValued {
    /// The constant coefficient mu.
    pub fn constant(mu: f64) -> Self {
        SetValued::Constant { mu }
    }

    /// f(s) (at s = 0 the sticking bound).
    pub fn coefficient(&self, s: f64) -> f64 {
        match self {
            SetValued::Constant { mu } => *mu,
            SetValued::Coulomb(l) => l.coefficient(s),
        }
    }

    /// df/ds at s > 0: zero.
    pub fn slope(&self, _s: f64) -> f64 {
        0.0
    }

    /// (mu_s, mu_k): the static and kinetic coefficients (equal for the
    /// constant law), the data of the exact Coulomb motion.
    pub fn static_and_kinetic(&self) -> (f64, f64) {
        match self {
            SetValued::Constant { mu } => (*mu, *mu),
            SetValued::Coulomb(l) => (l.static_coefficient, l.kinetic_coefficient),
        }
    }

    /// The sticking bound f_stick (the static coefficient).
    pub fn stick(&self) -> f64 {
        match self {
            SetValued::Constant { mu } => *mu,
            SetValued::Coulomb(l) => l.static_coefficient,
        }
    }
}

impl From<Coulomb> for SetValued {
    fn from(l: Coulomb) -> Self {
        SetValued::Coulomb(l)
    }
}
