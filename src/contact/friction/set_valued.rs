//! Coulomb friction with static and kinetic coefficients: f(s) = mu_k for
//! s > 0, and at s = 0 any force with |T| <= N mu_s (true sticking). The
//! constant-coefficient law of the seed is the case mu_s = mu_k.

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
