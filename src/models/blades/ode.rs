//! The blade pair as a first-order ODE for the explicit Runge-Kutta
//! methods: y = (q, v, D_f, D_d, W) with
//!
//!   q' = v,
//!   M v' = s(t) f - K q - B v + sum_j H_j^T f_Aj^(2,1)(q, v),
//!   D_f' = sum_j F_N,j f(s_j) s_j              (friction work, >= 0),
//!   D_d' = v B v + sum_j (F_N,j - k_n g_j+) gdot_j   (damping work, >= 0),
//!   W'   = s(t) f . v                          (load work),
//!
//! so that the energy balance E(t) - E(0) + D_f + D_d = W (E kinetic +
//! strain + penalty springs) holds exactly for the exact solution and to
//! the integration error for a numerical one. A set-valued friction law
//! acts as -N f(|c|) c/|c| with 0 at c = 0, without a sticking limit (the
//! seed's computation). M (consistent, banded) is factored once; an
//! evaluation allocates nothing (scratch in a RefCell, as
//! `problem::AsFirstOrder`).

use super::BladePair;
use super::contact::ContactTotals;
use crate::contact::friction::FrictionLaw;
use crate::problem::{FirstOrderOde, FrictionOde, Works};
use std::cell::{Cell, RefCell};

/// Index offsets of the work terms after (q, v): friction, damping, load.
pub const FRICTION_WORK: usize = 0;
/// See [`FRICTION_WORK`].
pub const DAMPING_WORK: usize = 1;
/// See [`FRICTION_WORK`].
pub const LOAD_WORK: usize = 2;

/// The ODE of a blade pair with one friction law.
pub struct BladeOde<'a> {
    model: &'a BladePair,
    law: FrictionLaw,
    scratch: RefCell<Vec<f64>>,
    evaluations: Cell<usize>,
}

impl<'a> BladeOde<'a> {
    /// The ODE of `model` with `law`.
    pub fn new(model: &'a BladePair, law: FrictionLaw) -> Self {
        Self {
            model,
            law,
            scratch: RefCell::new(vec![0.0; model.dofs()]),
            evaluations: Cell::new(0),
        }
    }

    /// The model.
    pub fn model(&self) -> &BladePair {
        self.model
    }

    /// The friction law.
    pub fn law(&self) -> &FrictionLaw {
        &self.law
    }

    /// Right-hand side evaluations so far.
    pub fn evaluations(&self) -> usize {
        self.evaluations.get()
    }

    /// The initial state y(0) = (q0, 0, 0, 0, 0).
    pub fn initial_state(&self) -> Vec<f64> {
        let n = self.model.dofs();
        let (q, _) = self.model.initial_state();
        let mut y = vec![0.0; self.dim()];
        y[..n].copy_from_slice(&q);
        y
    }

    /// The contact totals at the state y (watching patch `watch`).
    pub fn contact_totals(&self, y: &[f64], watch: usize) -> ContactTotals {
        let n = self.model.dofs();
        self.model
            .contact()
            .evaluate(&self.law, &y[..n], &y[n..2 * n], watch, None)
    }
}

impl FirstOrderOde for BladeOde<'_> {
    fn dim(&self) -> usize {
        2 * self.model.dofs() + 3
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.evaluations.set(self.evaluations.get() + 1);
        let m = self.model;
        let n = m.dofs();
        let (q, rest) = y.split_at(n);
        let v = &rest[..n];
        let (dq, drest) = dy.split_at_mut(n);
        let (dv, dw) = drest.split_at_mut(n);
        dq.copy_from_slice(v);
        let mut f = self.scratch.borrow_mut();
        // dv <- K q, f <- B v; then f <- s f_load - K q - B v.
        m.stiffness_damping_mul((q, v), (dv, &mut f));
        let damping_power: f64 = v.iter().zip(f.iter()).map(|(a, b)| a * b).sum();
        let s = m.load_factor(t);
        let mut load_power = 0.0;
        for (((fi, ki), li), vi) in f.iter_mut().zip(dv.iter()).zip(m.load_vector()).zip(v) {
            *fi = s * li - ki - *fi;
            load_power += s * li * vi;
        }
        let c = m.contact().evaluate(&self.law, q, v, 0, Some(&mut f));
        m.solve_mass(&mut f);
        dv.copy_from_slice(&f);
        dw[FRICTION_WORK] = c.friction_power;
        dw[DAMPING_WORK] = damping_power + c.normal_damping_power;
        dw[LOAD_WORK] = load_power;
    }
}

impl FrictionOde for BladeOde<'_> {
    fn works(&self, y: &[f64]) -> Works {
        let w = &y[2 * self.model.dofs()..];
        Works {
            friction: w[FRICTION_WORK],
            damping: w[DAMPING_WORK],
            load: w[LOAD_WORK],
        }
    }
}
