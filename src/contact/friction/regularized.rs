//! Regularised friction laws: f(0) = 0 and f continuous, so the friction
//! force is a function of the slip (the seed's tanh, MSC.ADAMS-type and
//! micro-slip laws).
//!
//! A law of this family is added in this file alone: its struct, its
//! variant and arms in the family enum, its `From` into the family.

/// f = f_s tanh(k s) (the seed, after Bruha 2011).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tanh {
    /// f_s [-]: the coefficient the law tends to for s >> 1/k.
    pub static_coefficient: f64,
    /// k [s/m]: the sharpness; 1/k is the slip speed of the transition.
    pub sharpness: f64,
}

impl Tanh {
    /// f(s).
    pub fn coefficient(&self, s: f64) -> f64 {
        self.static_coefficient * (self.sharpness * s).tanh()
    }

    /// df/ds.
    pub fn slope(&self, s: f64) -> f64 {
        let t = (self.sharpness * s).tanh();
        self.static_coefficient * self.sharpness * (1.0 - t * t)
    }
}

/// Coulomb's law regularised by tanh over a transition speed v_0:
/// T = -mu N tanh(c / v_0) (Ambrosio's smoothing of sign(c), the friction
/// of the slider-crank's clearance joint). It is [`Tanh`] with f_s = mu and
/// k = 1 / v_0, given by its speed: dividing by v_0 (not multiplying by
/// 1 / v_0) is the evaluation the joint has always used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmoothedCoulomb {
    /// mu [-].
    pub coefficient: f64,
    /// v_0 [m/s] (> 0).
    pub speed: f64,
}

impl SmoothedCoulomb {
    /// The force T = -mu N tanh(c / v_0) at normal force N and slip c [N].
    #[inline]
    pub fn force(&self, normal: f64, slip: f64) -> f64 {
        -self.coefficient * normal * (slip / self.speed).tanh()
    }
}

/// The MSC.ADAMS-type law (a "magic formula"; the seed after MSC Software
/// 2000): f = f_s sin(C atan(B s - E (B s - atan(B s)))). It rises from 0
/// to its peak f_s where C atan(...) = pi/2 and decays towards
/// f_s sin(C pi/2) for large s (for 1 < C < 2).
///
/// The seed's constants are B = 0.5, C = 1.7, E = -2 without a velocity
/// unit; its Fig. 4a shows the curve rising within 0-4e-3 m/s, which B = 0.5
/// per mm/s does (peak at s = 1.9 mm/s): B = 500 s/m ([`Adams::seed`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adams {
    /// f_s [-]: the peak coefficient.
    pub static_coefficient: f64,
    /// B [s/m].
    pub b: f64,
    /// C [-].
    pub c: f64,
    /// E [-].
    pub e: f64,
}

impl Adams {
    /// The seed's constants with B read in s/mm: B = 500 s/m, C = 1.7,
    /// E = -2.
    pub fn seed(static_coefficient: f64) -> Self {
        Self {
            static_coefficient,
            b: 500.0,
            c: 1.7,
            e: -2.0,
        }
    }

    fn argument(&self, s: f64) -> (f64, f64) {
        let x = self.b * s;
        let g = x - self.e * (x - x.atan());
        let dg = self.b * (1.0 - self.e * (1.0 - 1.0 / (1.0 + x * x)));
        (g, dg)
    }

    /// f(s).
    pub fn coefficient(&self, s: f64) -> f64 {
        let (g, _) = self.argument(s);
        self.static_coefficient * (self.c * g.atan()).sin()
    }

    /// df/ds.
    pub fn slope(&self, s: f64) -> f64 {
        let (g, dg) = self.argument(s);
        self.static_coefficient * (self.c * g.atan()).cos() * self.c * dg / (1.0 + g * g)
    }
}

/// The micro-slip law (the seed, after Pesek et al.): with
/// h(s) = f_d + (f_s - f_d) e^(-d s),
/// f = h(s) s / v_k below the critical speed v_k (micro-slip: the
/// coefficient grows with the slip) and f = h(s) above.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MicroSlip {
    /// f_s [-].
    pub static_coefficient: f64,
    /// f_d [-].
    pub dynamic_coefficient: f64,
    /// d [s/m]: the decay from f_s to f_d with the slip speed.
    pub decay: f64,
    /// v_k [m/s]: the critical speed (the seed: 1e-3 m/s).
    pub critical_speed: f64,
}

impl MicroSlip {
    fn h(&self, s: f64) -> (f64, f64) {
        let e = (-self.decay * s).exp();
        let span = self.static_coefficient - self.dynamic_coefficient;
        (self.dynamic_coefficient + span * e, -self.decay * span * e)
    }

    /// f(s).
    pub fn coefficient(&self, s: f64) -> f64 {
        let (h, _) = self.h(s);
        if s < self.critical_speed {
            h * s / self.critical_speed
        } else {
            h
        }
    }

    /// df/ds.
    pub fn slope(&self, s: f64) -> f64 {
        let (h, dh) = self.h(s);
        if s < self.critical_speed {
            (dh * s + h) / self.critical_speed
        } else {
            dh
        }
    }
}

/// The regularised laws: one family of [`super::FrictionLaw`]. A law of
/// this family is added here alone (its variant and its arms below).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Regularized {
    /// f = f_s tanh(k s).
    Tanh(Tanh),
    /// The MSC.ADAMS-type law.
    Adams(Adams),
    /// The micro-slip law.
    MicroSlip(MicroSlip),
}

impl Regularized {
    /// f(s).
    pub fn coefficient(&self, s: f64) -> f64 {
        match self {
            Regularized::Tanh(l) => l.coefficient(s),
            Regularized::Adams(l) => l.coefficient(s),
            Regularized::MicroSlip(l) => l.coefficient(s),
        }
    }

    /// df/ds.
    pub fn slope(&self, s: f64) -> f64 {
        match self {
            Regularized::Tanh(l) => l.slope(s),
            Regularized::Adams(l) => l.slope(s),
            Regularized::MicroSlip(l) => l.slope(s),
        }
    }
}

impl From<Tanh> for Regularized {
    fn from(l: Tanh) -> Self {
        Regularized::Tanh(l)
    }
}

impl From<Adams> for Regularized {
    fn from(l: Adams) -> Self {
        Regularized::Adams(l)
    }
}

impl From<MicroSlip> for Regularized {
    fn from(l: MicroSlip) -> Self {
        Regularized::MicroSlip(l)
    }
}
