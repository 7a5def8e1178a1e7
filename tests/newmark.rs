//! Bossak-Newmark with an LCP per step: the step solves its nonlinear
//! equation exactly, the linear case matches the closed form at second order,
//! and Bossak (alpha_b < 0) stays second order.

use contact_harness::fixtures::gap::sdof;
use contact_harness::integrators::newmark::{
    self, DenseLcpStep, NewmarkParams, Recording, StepSolver, Trajectory,
};
use contact_harness::lcp::{LcpOptions, LcpSolverKind};
use contact_harness::problem::{GapSprings, GapSystem, Harmonic};
use contact_harness::sparse::{csr_from_rows, to_dense};
use nalgebra::DVector;

fn params(dt: f64, t_end: f64, alpha_b: f64) -> NewmarkParams {
    NewmarkParams {
        dt,
        steps: (t_end / dt).round() as usize,
        alpha_b,
        output_every: 1,
    }
}

fn run(system: &GapSystem, p: &NewmarkParams, x0: f64, v0: f64) -> Trajectory {
    let k_eff = newmark::effective_stiffness(system, p);
    let mut step = DenseLcpStep::new(system, &k_eff, LcpSolverKind::Lemke, LcpOptions::default())
        .expect("K_eff invertible");
    newmark::integrate(
        system,
        p,
        &[x0],
        &[v0],
        &mut step,
        &Recording::all(),
        |_| {},
    )
    .expect("runs")
    .0
}

/// x'' + 2 zeta w x' + w^2 x = F cos(W t), x(0) = 1, v(0) = 0, by hand.
fn linear_exact(t: f64, zeta: f64, f: f64, big_w: f64) -> f64 {
    let w: f64 = 1.0;
    let wd = w * (1.0 - zeta * zeta).sqrt();
    // particular: X cos(W t - phi)
    let denom = ((w * w - big_w * big_w).powi(2) + (2.0 * zeta * w * big_w).powi(2)).sqrt();
    let amp = f / denom;
    let phi = (2.0 * zeta * w * big_w).atan2(w * w - big_w * big_w);
    let xp0 = amp * phi.cos();
    let vp0 = amp * big_w * phi.sin();
    // homogeneous with x(0) = 1 - xp0, v(0) = -vp0
    let (a, b) = (1.0 - xp0, (-vp0 + zeta * w * (1.0 - xp0)) / wd);
    (-zeta * w * t).exp() * (a * (wd * t).cos() + b * (wd * t).sin())
        + amp * (big_w * t - phi).cos()
}

fn max_error(traj: &Trajectory, exact: impl Fn(f64) -> f64) -> f64 {
    traj.t
        .iter()
        .zip(&traj.x)
        .map(|(t, x)| (x[0] - exact(*t)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn linear_case_converges_at_second_order_for_newmark_and_bossak() {
    let (zeta, f, big_w) = (0.05, 0.7, 1.3);
    let system = sdof(2.0 * zeta, None, f, big_w);
    for alpha_b in [0.0, -0.1, -0.3] {
        let errors: Vec<f64> = [0.02, 0.01, 0.005]
            .iter()
            .map(|&dt| {
                max_error(&run(&system, &params(dt, 20.0, alpha_b), 1.0, 0.0), |t| {
                    linear_exact(t, zeta, f, big_w)
                })
            })
            .collect();
        for w in errors.windows(2) {
            let order = (w[0] / w[1]).log2();
            assert!(
                (order - 2.0).abs() < 0.1,
                "alpha_b = {alpha_b}: errors {errors:?}, order {order}"
            );
        }
        assert!(errors[2] < 1e-3, "alpha_b = {alpha_b}: {errors:?}");
    }
}

/// Every step's x solves K_eff x + D^T K_g max(0, D x - g) = r, the equation
/// the LCP was derived from, to rounding: checks Yu's transformation.
#[test]
fn each_step_solves_the_nonlinear_step_equation() {
    // A 3-DOF system with three gaps, one between masses.
    let system = GapSystem {
        mass: csr_from_rows(&[
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.5, 0.0],
            vec![0.0, 0.0, 2.0],
        ]),
        damping: csr_from_rows(&[
            vec![0.064, -0.024, 0.0],
            vec![-0.024, 0.07, -0.016],
            vec![0.0, -0.016, 0.056],
        ]),
        stiffness: csr_from_rows(&[
            vec![2.2, -1.2, 0.0],
            vec![-1.2, 2.0, -0.8],
            vec![0.0, -0.8, 0.8],
        ]),
        springs: GapSprings {
            directions: csr_from_rows(&[
                vec![1.0, 0.0, 0.0],
                vec![-1.0, 1.0, 0.0],
                vec![0.0, 0.0, -1.0],
            ]),
            gaps: vec![0.3, 0.2, 0.4],
            stiffness: vec![5.0, 3.0, 8.0],
        },
        excitation: Harmonic {
            amplitude: vec![0.5, 0.0, 1.0],
            omega: 0.9,
        },
    };
    let p = params(0.05, 1.0, 0.0);
    let k_eff = newmark::effective_stiffness(&system, &p);
    for solver in [
        LcpSolverKind::Lemke,
        LcpSolverKind::Pgs,
        LcpSolverKind::NewtonFb,
    ] {
        let mut step =
            DenseLcpStep::new(&system, &k_eff, solver, LcpOptions::default()).expect("invertible");
        let mut engaged = 0;
        for k in 0..50 {
            // Right-hand sides that engage different subsets of the springs.
            let r: Vec<f64> = (0..3)
                .map(|i| 1500.0 * ((k * 7 + i * 3) as f64).sin())
                .collect();
            let (mut x, mut f) = (vec![0.0; 3], vec![0.0; 3]);
            step.solve(&r, &[0.0; 3], &mut x, &mut f, k, 0.0)
                .expect("solved");
            engaged += step.active();
            let forces = system.springs.forces(&x);
            let mut lhs = (&k_eff * DVector::from_column_slice(&x))
                .as_slice()
                .to_vec();
            system.springs.add_transposed(&forces, &mut lhs);
            let residual = lhs
                .iter()
                .zip(&r)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(
                residual < 1e-9 * 1500.0,
                "{solver:?} step {k}: residual {residual}"
            );
            for (fa, fb) in f.iter().zip(&forces) {
                assert!(
                    (fa - fb).abs() < 1e-9 * 1500.0,
                    "{solver:?}: LCP force {fa} vs k max(0, y) = {fb}"
                );
            }
        }
        assert!(
            engaged > 20,
            "{solver:?}: the test engaged only {engaged} springs"
        );
    }
    let _ = to_dense(&system.mass);
}

/// A free undamped SDOF without gaps: the trapezoidal rule conserves energy
/// exactly (up to rounding) and lengthens the period by (w dt)^2 / 12.
#[test]
fn trapezoidal_rule_conserves_energy_of_the_linear_oscillator() {
    let system = sdof(0.0, None, 0.0, 0.0);
    let traj = run(&system, &params(0.1, 100.0, 0.0), 1.0, 0.0);
    for (x, v) in traj.x.iter().zip(&traj.v) {
        let e = 0.5 * v[0] * v[0] + 0.5 * x[0] * x[0];
        assert!((e - 0.5).abs() < 1e-12, "energy {e}");
    }
}

/// A chain with periodic gaps under uniform forcing gives step LCPs with
/// dozens of exact ties per ratio test (the interior masses move alike):
/// Lemke's lexicographic rule must resolve them across many column blocks,
/// and the dense-LCP trajectory must equal the sparse Newton one.
#[test]
fn degenerate_chain_steps_agree_between_lemke_and_sparse_newton() {
    use contact_harness::integrators::newmark::SparseNewtonStep;
    use contact_harness::models::gap_system::Chain;
    let system = Chain::benchmark(400).system(Harmonic {
        amplitude: vec![60.0],
        omega: 10.0,
    });
    let p = params(0.01, 0.6, 0.0);
    let n = 400;
    let (x0, v0) = (vec![0.0; n], vec![0.0; n]);
    let k_eff = newmark::effective_stiffness(&system, &p);
    let mut lemke = DenseLcpStep::new(&system, &k_eff, LcpSolverKind::Lemke, LcpOptions::default())
        .expect("K_eff invertible");
    let (dense, stats) =
        newmark::integrate(&system, &p, &x0, &v0, &mut lemke, &Recording::all(), |_| {})
            .expect("runs");
    assert!(
        stats.max_active > 100,
        "too few contacts to test: {stats:?}"
    );
    let k_sparse = newmark::effective_stiffness_sparse(&system, &p);
    let mut ssn = SparseNewtonStep::new(&system, &k_sparse).expect("factorizes");
    let (sparse, _) =
        newmark::integrate(&system, &p, &x0, &v0, &mut ssn, &Recording::all(), |_| {})
            .expect("runs");
    let scale = dense.x.iter().flatten().fold(0.0f64, |a, v| a.max(v.abs()));
    let diff = dense
        .x
        .iter()
        .flatten()
        .zip(sparse.x.iter().flatten())
        .fold(0.0f64, |a, (d, s)| a.max((d - s).abs()));
    assert!(
        diff <= 1e-9 * scale,
        "max difference {diff:e}, scale {scale:e}"
    );
}

/// A step solver that returns a wrong increment (it ignores the gap
/// spring): each step is graded by the residual of the step equation, so
/// the run fails at the first step where the spring engages instead of
/// accepting it; an exact solver's residual stays at rounding.
#[test]
fn every_step_is_graded_by_the_residual_of_its_equation() {
    /// Solves K_eff u = r and ignores the springs.
    struct IgnoresSprings(newmark::DenseLu);
    impl StepSolver for IgnoresSprings {
        fn solve(
            &mut self,
            r: &[f64],
            _x_pred: &[f64],
            u: &mut [f64],
            f: &mut [f64],
            _step: usize,
            _t: f64,
        ) -> Result<usize, contact_harness::error::SolverError> {
            u.copy_from_slice(r);
            self.0.solve_in_place(u);
            f.fill(0.0);
            Ok(1)
        }
        fn active(&self) -> usize {
            0
        }
        fn factorizations(&self) -> usize {
            1
        }
    }
    let system = sdof(0.05, Some((0.5, 4.0)), 1.0, 0.8);
    let p = params(0.01, 20.0, 0.0);
    let k_eff = newmark::effective_stiffness(&system, &p);
    let mut wrong = IgnoresSprings(newmark::DenseLu::new(&k_eff).expect("regular"));
    let err = newmark::integrate(
        &system,
        &p,
        &[0.0],
        &[0.0],
        &mut wrong,
        &Recording::all(),
        |_| {},
    )
    .expect_err("a wrong step must not be accepted");
    assert!(
        matches!(err, contact_harness::error::SolverError::Residual { .. }),
        "{err}"
    );
    let mut exact = DenseLcpStep::new(&system, &k_eff, LcpSolverKind::Lemke, LcpOptions::default())
        .expect("K_eff invertible");
    let (_, stats) = newmark::integrate(
        &system,
        &p,
        &[0.0],
        &[0.0],
        &mut exact,
        &Recording::all(),
        |_| {},
    )
    .expect("runs");
    assert!(stats.max_residual < 1e-13, "{}", stats.max_residual);
}
