//! Kernels of the gap-system time step on the chain of chain-1000
//! (n = m = 1000, dt = 0.01 s, the same forcing), from a representative
//! mid-run state (after 150 steps, about 250 springs engaged):
//!
//! - `lemke_step_lcp`: Lemke on that step's dense 1000 x 1000 LCP;
//! - `ssn_step`: the sparse semi-smooth Newton step equation solve;
//! - `newmark_step/{newmark-lcp,newmark-ssn}`: one whole Newmark step;
//!
//! and, in group `chain-ssn-floor`, the sparse step against its floor at
//! n = 1e3, 1e4 and 1e5 (issue 34): `newmark-ssn/n` is 20 whole Newmark
//! steps from the state after 150 steps (warm start restored each time),
//! `floor/n` is as many L D L^T factorizations and solves of that state's
//! tridiagonal Newton matrix (LAPACK dpttrf + dpttrs, the same algorithm)
//! as those 20 steps took Newton iterations. Their ratio is the step's
//! cost over the floor set by its own linear algebra.

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};

use contact_harness::fixtures::chain;
use contact_harness::integrators::newmark::{
    self, DenseLcpStep, SparseNewtonStep, StepSolver, Stepper,
};
use contact_harness::lcp::{self, LcpOptions, LcpSolverKind};
use contact_harness::problem::GapSystem;
use contact_harness::sparse::tridiagonal::SymmetricTridiagonal;

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
    // Each timed step starts from the warm start the run had, not from
    // the previous timed step's solution (which would take one iteration).
    let warm = ssn.warm_start().to_vec();
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
            |s| {
                ssn.set_warm_start(&warm);
                s.advance(&mut ssn).expect("step")
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn clone_state<'a>(s: &Stepper<'a>) -> Stepper<'a> {
    s.clone()
}

/// Steps timed per sample of the floor comparison.
const FLOOR_STEPS: usize = 20;

/// The tridiagonal Newton matrix K_eff + D_S^T K_S D_S of the chain with
/// the springs of `active` engaged.
fn newton_matrix(
    sys: &GapSystem,
    keff: &sprs::CsMat<f64>,
    active: &[bool],
) -> SymmetricTridiagonal {
    let n = sys.dofs();
    let mut t = SymmetricTridiagonal::new(n);
    for (&v, (i, j)) in keff.iter() {
        if let Some(p) = t.position(i, j) {
            t.values_mut()[p] += v;
        }
    }
    let springs = &sys.springs;
    for (j, row) in springs.directions.outer_iterator().enumerate() {
        if active[j] {
            for (p, &bp) in row.iter() {
                for (q, &bq) in row.iter() {
                    if let Some(pos) = t.position(p, q) {
                        t.values_mut()[pos] += springs.stiffness[j] * bp * bq;
                    }
                }
            }
        }
    }
    t
}

fn floor_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain-ssn-floor");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let sys = chain::system(n);
        let p = chain::params(WARMUP_STEPS + FLOOR_STEPS);
        let (stepper, mut ssn) = chain::advanced(&sys, &p, WARMUP_STEPS).expect("warm-up");
        assert_eq!(ssn.factorization(), "tridiagonal");
        let warm = ssn.warm_start().to_vec();
        let keff = newmark::effective_stiffness_sparse(&sys, &p);
        let mut matrix = newton_matrix(&sys, &keff, ssn.active_set());
        let mut probe = stepper.clone();
        let iterations: usize = (0..FLOOR_STEPS)
            .map(|_| probe.advance(&mut ssn).expect("step"))
            .sum();
        println!(
            "chain-ssn-floor/{n}: {FLOOR_STEPS} steps, {iterations} Newton iterations ({:.2} per step)",
            iterations as f64 / FLOOR_STEPS as f64
        );
        group.bench_function(BenchmarkId::new("newmark-ssn", n), |b| {
            b.iter_batched_ref(
                || stepper.clone(),
                |s| {
                    ssn.set_warm_start(&warm);
                    for _ in 0..FLOOR_STEPS {
                        s.advance(&mut ssn).expect("step");
                    }
                },
                BatchSize::LargeInput,
            )
        });
        let rhs: Vec<f64> = (0..n).map(|i| (i as f64 * 0.1).sin()).collect();
        let mut x = rhs.clone();
        group.bench_function(BenchmarkId::new("floor", n), |b| {
            b.iter(|| {
                for _ in 0..iterations {
                    matrix.factorize().expect("SPD");
                    x.copy_from_slice(&rhs);
                    matrix.solve_in_place(&mut x).expect("factored");
                }
                std::hint::black_box(&x);
            })
        });
    }
    group.finish();
}

criterion_group!(gap, benches, floor_benches);
criterion_main!(gap);
