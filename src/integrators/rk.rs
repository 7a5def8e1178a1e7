//! Explicit Runge-Kutta integration of a [`FirstOrderOde`]: the classical
//! fourth-order method with a fixed step (Kutta 1901; Hairer, Norsett &
//! Wanner, *Solving ODEs I*, II.1). The adaptive embedded pairs the
//! multibody study needs (Dormand-Prince 5(4)) come with it.

use crate::integrators::problem::FirstOrderOde;

/// Work arrays of the classical RK4 step (no allocation per step).
pub struct Rk4 {
    k: [Vec<f64>; 4],
    stage: Vec<f64>,
}

impl Rk4 {
    /// Work arrays for an ODE of dimension `dim`.
    pub fn new(dim: usize) -> Self {
        Self {
            k: std::array::from_fn(|_| vec![0.0; dim]),
            stage: vec![0.0; dim],
        }
    }

    /// One step of size h from (t, y), in place:
    /// y += h/6 (k1 + 2 k2 + 2 k3 + k4).
    pub fn step(&mut self, ode: &dyn FirstOrderOde, t: f64, h: f64, y: &mut [f64]) {
        let [k1, k2, k3, k4] = &mut self.k;
        ode.rhs(t, y, k1);
        for ((s, &yi), &k) in self.stage.iter_mut().zip(y.iter()).zip(k1.iter()) {
            *s = yi + 0.5 * h * k;
        }
        ode.rhs(t + 0.5 * h, &self.stage, k2);
        for ((s, &yi), &k) in self.stage.iter_mut().zip(y.iter()).zip(k2.iter()) {
            *s = yi + 0.5 * h * k;
        }
        ode.rhs(t + 0.5 * h, &self.stage, k3);
        for ((s, &yi), &k) in self.stage.iter_mut().zip(y.iter()).zip(k3.iter()) {
            *s = yi + h * k;
        }
        ode.rhs(t + h, &self.stage, k4);
        for (i, yi) in y.iter_mut().enumerate() {
            *yi += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrators::problem::{AsFirstOrder, SecondOrderSystem};
    use crate::models::gap_system::{GapSprings, GapSystem, Harmonic, csr_from_rows};

    fn oscillator(gap_stiffness: Option<f64>) -> GapSystem {
        let (directions, gaps, stiffness) = match gap_stiffness {
            Some(k) => (csr_from_rows(&[vec![1.0]]), vec![0.0], vec![k]),
            None => (sprs::CsMat::zero((0, 1)), vec![], vec![]),
        };
        GapSystem {
            mass: csr_from_rows(&[vec![1.0]]),
            damping: csr_from_rows(&[vec![0.0]]),
            stiffness: csr_from_rows(&[vec![1.0]]),
            springs: GapSprings {
                directions,
                gaps,
                stiffness,
            },
            excitation: Harmonic {
                amplitude: vec![0.0],
                omega: 0.0,
            },
        }
    }

    fn run(system: &GapSystem, h: f64, t_end: f64) -> Vec<f64> {
        let ode = AsFirstOrder::new(system).expect("diagonal mass");
        let mut y = vec![1.0, 0.0];
        let mut rk = Rk4::new(ode.dim());
        let steps = (t_end / h).round() as usize;
        for k in 0..steps {
            rk.step(&ode, k as f64 * h, h, &mut y);
        }
        y
    }

    /// x'' + x = 0 from (1, 0): x = cos t; the error falls as h^4.
    #[test]
    fn rk4_is_fourth_order_on_the_harmonic_oscillator() {
        let system = oscillator(None);
        let t = 10.0;
        let err = |h: f64| (run(&system, h, t)[0] - t.cos()).abs();
        let (e1, e2) = (err(0.04), err(0.02));
        let order = (e1 / e2).log2();
        assert!((order - 4.0).abs() < 0.05, "order {order} ({e1:e}, {e2:e})");
    }

    /// Through the shared problem: the zero-gap bilinear oscillator's
    /// period is pi/w1 + pi/w2 (w1 = 1, w2 = sqrt(5)); after one period from
    /// x = 1 it is back at x = 1. The kink limits RK4 to a lower order in
    /// the steps across it, but it converges.
    #[test]
    fn the_gap_system_runs_through_the_shared_problem() {
        let system = oscillator(Some(4.0));
        let period = std::f64::consts::PI * (1.0 + 1.0 / 5f64.sqrt());
        let err = |n: usize| (run(&system, period / n as f64, period)[0] - 1.0).abs();
        let (e1, e2) = (err(200), err(400));
        assert!(e2 < e1 && e2 < 1e-5, "{e1:e} {e2:e}");
        // The Jacobian of the engaged spring is -(k + k_g).
        let (pq, _) = system.force_jacobian_patterns();
        let mut dq = vec![0.0; pq.nnz()];
        let mut dv = vec![0.0; 1];
        system.force_jacobians(0.0, &[0.1], &[0.0], &mut dq, &mut dv);
        assert_eq!(dq, vec![-5.0]);
        system.force_jacobians(0.0, &[-0.1], &[0.0], &mut dq, &mut dv);
        assert_eq!(dq, vec![-1.0]);
    }
}
