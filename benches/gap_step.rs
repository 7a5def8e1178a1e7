//! Kernels of the gap-system time step on the chain of chain-1000
//! (n = m = 1000, dt = 0.01 s, the same forcing), from a representative
//! mid-run state (after 150 steps, about 250 springs engaged):
//!
//! - `lemke_step_lcp`: Lemke on that step's dense 1000 x 1000 LCP;
//! - `ssn_step`: the sparse semi-smooth Newton step equation solve;
//! - `newmark_step/{newmark-lcp,newmark-ssn}`: one whole Newmark step.

use criterion::{Criterion, criterion_group, criterion_main};

use contact_harness::fixtures::chain;
use contact_harness::integrators::newmark::{
    self, DenseLcpStep, SparseNewtonStep, StepSolver, Stepper,
};
use contact_harness::lcp::{self, LcpOptions, LcpSolverKind};

const N: usize = chain::N;
const WARMUP_STEPS: usize = 150;

/// A step solver that records the inputs of the step it is asked to solve.
struct Recording<S> {
    inner: S,
    last: Option<(Vec<f64>, Vec<f64>)>,
}

impl<S: StepSolver> StepSolver for Recording<S> {
    fn solve(
        &mut self,
        r: &[f64],
        x_pred: &[f64],
        u: &mut [f64],
        f: &mut [f64],
        step: usize,
        t: f64,
    ) -> Result<usize, contact_harness::error::SolverError> {
        self.last = Some((r.to_vec(), x_pred.to_vec()));
        self.inner.solve(r, x_pred, u, f, step, t)
    }
    fn active(&self) -> usize {
        self.inner.active()
    }
    fn factorizations(&self) -> usize {
        self.inner.factorizations()
    }
}

fn benches(c: &mut Criterion) {
    let sys = chain::system(N);
    let p = chain::params(WARMUP_STEPS);
    let zeros = vec![0.0; N];
    // Drive the fast method to the representative state, recording its last step.
    let k_sparse = newmark::effective_stiffness_sparse(&sys, &p);
    let mut fast = Recording {
        inner: SparseNewtonStep::new(&sys, &k_sparse).expect("pattern"),
        last: None,
    };
    let mut stepper = Stepper::new(&sys, &p, &zeros, &zeros).expect("start");
    for _ in 0..WARMUP_STEPS {
        stepper.advance(&mut fast).expect("step");
    }
    let (r, x_pred) = fast.last.clone().expect("recorded");
    let active = fast.active();

    let k_dense = newmark::effective_stiffness(&sys, &p);
    let mut dense = DenseLcpStep::new(&sys, &k_dense, LcpSolverKind::Lemke, LcpOptions::default())
        .expect("K_eff");
    let (mut u, mut f) = (vec![0.0; N], vec![0.0; N]);
    dense
        .solve(&r, &x_pred, &mut u, &mut f, WARMUP_STEPS, 1.5)
        .expect("LCP");
    assert_eq!(
        dense.active(),
        active,
        "both step solvers find the same active set"
    );
    let step_lcp = dense.last_lcp().clone();

    let mut group = c.benchmark_group("chain-1000");
    group.sample_size(10);
    group.bench_function("lemke_step_lcp", |b| {
        b.iter(|| {
            lcp::solve(
                &step_lcp,
                LcpSolverKind::Lemke,
                &LcpOptions::default(),
                None,
            )
        })
    });
    let mut ssn = fast.inner;
    group.bench_function("ssn_step", |b| {
        b.iter(|| {
            ssn.solve(&r, &x_pred, &mut u, &mut f, WARMUP_STEPS, 1.5)
                .expect("solves")
        })
    });
    group.bench_function("newmark_step/newmark-lcp", |b| {
        b.iter_batched_ref(
            || clone_state(&stepper),
            |s| s.advance(&mut dense).expect("step"),
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("newmark_step/newmark-ssn", |b| {
        b.iter_batched_ref(
            || clone_state(&stepper),
            |s| s.advance(&mut ssn).expect("step"),
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn clone_state<'a>(s: &Stepper<'a>) -> Stepper<'a> {
    s.clone()
}

criterion_group!(gap, benches);
criterion_main!(gap);
