//! A system with frictional contacts as the seed's ODE: the friction force
//! -N f(|c|) c/|c| of each contact as a function of the state, with no
//! sticking limit, and the works integrated as states, so that the energy
//! balance E(t) - E(0) + friction + damping = load work holds to the
//! integration error. The blade pair's and the belt's ODEs implement it;
//! `drivers::friction` integrates it.

use super::ode::FirstOrderOde;

/// The works done since the start [J].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Works {
    /// Dissipated by friction (>= 0).
    pub friction: f64,
    /// Dissipated by damping (structural and normal law, >= 0).
    pub damping: f64,
    /// Done by the load or a moving support.
    pub load: f64,
}

/// A system with frictional contacts as an ODE whose state carries its
/// works (the seed's formulation: no sticking limit).
pub trait FrictionOde: FirstOrderOde {
    /// The works accumulated in the state y.
    fn works(&self, y: &[f64]) -> Works;
}
