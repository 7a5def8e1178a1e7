//! Kernels of the shrouded-blades study (two blades, 10 beam elements
//! each, 4 x 5 = 20 friction patches, the repository's default model):
//!
//! - `moreau_step/<law>`: one Moreau step of 1e-6 s (the patches' friction
//!   impulses by projected Gauss-Seidel) from the state at t = 2 ms of the
//!   10 N step transient, where the shrouds slide;
//! - `ode_rhs/<law>`: one evaluation of the ODE's right-hand side (contact
//!   forces of the 20 patches, transformed to both blades, M^-1 solve) at
//!   the same state;
//! - `dopri5_step/<law>`: one fixed Dormand-Prince step of 1e-7 s.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use contact_harness::contact::friction::FrictionLaw;
use contact_harness::fixtures::blades as fixture;
use contact_harness::fixtures::friction as fixture_laws;
use contact_harness::integrators::moreau::{MoreauState, MoreauStepper};
use contact_harness::integrators::rk::Dopri5;
use contact_harness::models::blades::BladePair;
use contact_harness::models::blades::ode::BladeOde;
use contact_harness::problem::FirstOrderOde;

const DT: f64 = 1e-6;

fn laws() -> Vec<(&'static str, FrictionLaw)> {
    // The seed's laws but micro-slip (regularised like tanh and ADAMS).
    fixture_laws::seed_laws()
        .into_iter()
        .filter(|(name, _)| *name != "micro-slip")
        .collect()
}

/// The Moreau state after 2 ms of the transient with `law`.
fn sliding_state(model: &BladePair, law: FrictionLaw) -> MoreauState {
    let mut stepper = MoreauStepper::new(model, law, DT).expect("stepper");
    let (q, v) = model.initial_state();
    let mut state = MoreauState::new(q, v, model.patch_count());
    for _ in 0..2000 {
        stepper.step(&mut state).expect("step");
    }
    state
}

fn bench(c: &mut Criterion) {
    let model = fixture::pair().expect("model");
    let mut group = c.benchmark_group("moreau_step");
    for (name, law) in laws() {
        let start = sliding_state(&model, law);
        let mut stepper = MoreauStepper::new(&model, law, DT).expect("stepper");
        group.bench_function(name, |b| {
            b.iter_batched(
                || start.clone(),
                |mut s| black_box(stepper.step(&mut s).expect("step")),
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
    let mut group = c.benchmark_group("ode_rhs");
    for (name, law) in laws() {
        let s = sliding_state(&model, law);
        let ode = BladeOde::new(&model, law);
        let mut y = ode.initial_state();
        let n = model.dofs();
        y[..n].copy_from_slice(&s.q);
        y[n..2 * n].copy_from_slice(&s.v);
        let mut dy = vec![0.0; ode.dim()];
        group.bench_function(name, |b| {
            b.iter(|| {
                ode.rhs(black_box(s.t), black_box(&y), &mut dy);
                black_box(dy[0])
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("dopri5_step");
    for (name, law) in laws() {
        let s = sliding_state(&model, law);
        let ode = BladeOde::new(&model, law);
        let mut y = ode.initial_state();
        let n = model.dofs();
        y[..n].copy_from_slice(&s.q);
        y[n..2 * n].copy_from_slice(&s.v);
        let mut dp = Dopri5::new(ode.dim());
        group.bench_function(name, |b| {
            b.iter_batched(
                || y.clone(),
                |mut y| {
                    dp.step(&ode, s.t, 1e-7, &mut y);
                    black_box(y[0])
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
