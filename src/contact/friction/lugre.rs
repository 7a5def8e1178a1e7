//! The LuGre dynamic friction law (Canudas de Wit, Olsson, Astrom &
//! Lischinsky, IEEE Trans. Automatic Control 40(3) (1995) 419-425), the
//! friction of elastic bristles with deflection z (an internal state):
//!
//!   z' = v - sigma0 |v| z / g(v),   g(v) = N (mu_c + (mu_s - mu_c) e^(-(v/v_s)^2)),
//!   F  = sigma0 z + sigma1 z' + sigma2 v,
//!
//! v the slip velocity, F the force resisting it (the force on the slipping
//! body is -F). The paper's forces F_c, F_s are N mu_c, N mu_s here, so the
//! levels scale with the normal force like the other laws; sigma0, sigma1,
//! sigma2 are absolute [N/m, N s/m], and the paper's values belong to its
//! F_c = 1 N (N = 1 N with mu_c = 1): a study at another N scales them with
//! N itself (`stick-slip` spec keys; `belt-laws` does, `belt-lugre` keeps
//! the paper's example).
//!
//! Dissipativity (Barabanov & Ortega, IEEE TAC 45 (2000); Olsson 1996): the
//! map from v to F is dissipative where sigma1 |v| <= 4 g(v);
//! [`LuGre::dissipative_speed`] is the slip speed up to which that holds.

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

    /// The largest slip speed U [m/s] with sigma1 |v| <= 4 g(v) for every
    /// |v| <= U at normal force `normal` (g falls from N mu_s to N mu_c, so
    /// 4 g(v) - sigma1 v falls and U is its root; bisection to 1e-12
    /// relative); infinite without bristle damping.
    pub fn dissipative_speed(&self, normal: f64) -> f64 {
        if self.sigma1 <= 0.0 {
            return f64::INFINITY;
        }
        let h = |v: f64| 4.0 * self.g(normal, v) - self.sigma1 * v;
        let (mut lo, mut hi) = (0.0, 4.0 * self.g(normal, 0.0) / self.sigma1);
        while hi - lo > 1e-12 * hi {
            let mid = 0.5 * (lo + hi);
            if h(mid) >= 0.0 { lo = mid } else { hi = mid }
        }
        lo
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

    /// The paper's sigma1 = sqrt(1e5) N s/m with F_c = 0.2 x 9.81 N is
    /// dissipative up to 4 F_c / sigma1 = 0.0248 m/s (v_s = 1e-3 m/s: g is
    /// F_c there); with sigma1 = 9.81 N s/m (1 s/m per newton) up to 0.8
    /// m/s; 1 % more damping lowers it by 1 %.
    #[test]
    fn dissipative_speed_is_where_sigma1_v_reaches_4_g() {
        let mut l = LuGre::canudas_de_wit(0.2, 0.4);
        let u = l.dissipative_speed(9.81);
        assert!((u - 4.0 * 0.2 * 9.81 / 1e5f64.sqrt()).abs() < 1e-9, "{u}");
        l.sigma1 = 9.81;
        l.stribeck_speed = 0.01;
        assert!((l.dissipative_speed(9.81) - 0.8).abs() < 1e-9);
        l.sigma1 *= 1.01;
        assert!((l.dissipative_speed(9.81) - 0.8 / 1.01).abs() < 1e-9);
        l.sigma1 = 0.0;
        assert!(l.dissipative_speed(9.81).is_infinite());
    }
}
