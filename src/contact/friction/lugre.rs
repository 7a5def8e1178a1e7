//! The LuGre dynamic friction law (Canudas de Wit, Olsson, Astrom &
//! Lischinsky, IEEE Trans. Automatic Control 40(3) (1995) 419-425), the
//! friction of elastic bristles with deflection z (an internal state):
//!
//!   z' = v - sigma0 |v| z / g(v),   g(v) = N (mu_c + (mu_s - mu_c) e^(-(v/v_s)^2)),
//!   F  = sigma0 z + sigma1 z' + sigma2 v,
//!
//! v the slip velocity, F the force resisting it (the force on the slipping
//! body is -F). The paper's forces F_c, F_s are N mu_c, N mu_s here, so the
//! law scales with the normal force like the others.

/// LuGre parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuGre {
    /// sigma0 [N/m]: bristle stiffness (paper: 1e5).
    pub sigma0: f64,
    /// sigma1 [N s/m]: bristle damping (paper: sqrt(1e5)).
    pub sigma1: f64,
    /// sigma2 [N s/m]: viscous friction (paper: 0.4).
    pub sigma2: f64,
    /// mu_c [-]: Coulomb level F_c / N (paper: F_c = 1 N).
    pub kinetic_coefficient: f64,
    /// mu_s [-]: static level F_s / N (paper: F_s = 1.5 N).
    pub static_coefficient: f64,
    /// v_s [m/s]: Stribeck speed (paper: 1e-3).
    pub stribeck_speed: f64,
}

impl LuGre {
    /// The paper's Table I with F_c = N mu_c, F_s = N mu_s.
    pub fn canudas_de_wit(kinetic_coefficient: f64, static_coefficient: f64) -> Self {
        Self {
            sigma0: 1e5,
            sigma1: 1e5f64.sqrt(),
            sigma2: 0.4,
            kinetic_coefficient,
            static_coefficient,
            stribeck_speed: 1e-3,
        }
    }

    /// g(v) [N].
    pub fn g(&self, normal: f64, v: f64) -> f64 {
        let r = v / self.stribeck_speed;
        normal
            * (self.kinetic_coefficient
                + (self.static_coefficient - self.kinetic_coefficient) * (-r * r).exp())
    }

    /// z' at slip velocity v and deflection z.
    pub fn z_rate(&self, normal: f64, v: f64, z: f64) -> f64 {
        v - self.sigma0 * v.abs() * z / self.g(normal, v)
    }

    /// The force on the slipping body, -F = -(sigma0 z + sigma1 z' + sigma2 v).
    pub fn force(&self, normal: f64, v: f64, z: f64) -> f64 {
        -(self.sigma0 * z + self.sigma1 * self.z_rate(normal, v, z) + self.sigma2 * v)
    }

    /// The energy stored in the bristles, sigma0 z^2 / 2 [J].
    pub fn stored_energy(&self, z: f64) -> f64 {
        0.5 * self.sigma0 * z * z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In steady sliding z' = 0: F = g(v) sign(v) + sigma2 v (the Stribeck
    /// curve of the paper).
    #[test]
    fn steady_state_is_the_stribeck_curve() {
        let l = LuGre::canudas_de_wit(1.0, 1.5);
        for v in [-0.1, -1e-3, 2e-4, 1e-3, 0.05] {
            let z = l.g(1.0, v) * v.signum() / l.sigma0;
            assert!(l.z_rate(1.0, v, z).abs() < 1e-15);
            let f = -l.force(1.0, v, z);
            let stribeck = l.g(1.0, v) * v.signum() + 0.4 * v;
            assert!((f - stribeck).abs() < 1e-12, "{v}: {f} vs {stribeck}");
        }
        // g(0) = F_s, g(large) = F_c.
        assert!((l.g(1.0, 0.0) - 1.5).abs() < 1e-15);
        assert!((l.g(1.0, 1.0) - 1.0).abs() < 1e-15);
    }
}
