//! Kernels of the slider-crank study on the Lopez-Lombardero et al. (2024)
//! mechanism driven at 5000 rpm, at crank angle 1 rad:
//!
//! - `constraint_jacobian/{ideal,clearance}`: C_q of the stacked joints
//!   (9 x 9 with the kinematic crank-rod joint, 7 x 9 without it);
//! - `acceleration_rhs/{ideal,clearance}`: Q_d = -(C_q q')_q q' - ...;
//! - `equations/<joint>-<formulation>`: one evaluation of the equations of
//!   motion (eq. (1) augmented or eq. (4) eliminated);
//! - `rk4_step/<joint>-<formulation>` and `dopri5_step/...`: one
//!   fixed step of 1e-6 s (the clearance joint in contact: the journal
//!   pressed 1 micrometre into the bearing).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Const, DimMin};

use contact_harness::fixtures::slider_crank as fixture;
use contact_harness::integrators::rk::{Dopri5, Rk4};
use contact_harness::multibody::{Formulation, Mechanism};
use contact_harness::problem::FirstOrderOde;

const DT: f64 = 1e-6;

fn ideal(formulation: Formulation) -> Mechanism<9, 9, 18> {
    fixture::ideal(formulation).expect("sizes")
}

fn clearance(formulation: Formulation) -> Mechanism<9, 7, 16> {
    fixture::clearance(formulation).expect("sizes")
}

fn bench_kernels<const R: usize, const NR: usize>(
    c: &mut Criterion,
    name: &str,
    make: impl Fn(Formulation) -> Mechanism<9, R, NR>,
    in_contact: bool,
) where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let y = fixture::state(in_contact);
    let (q, qd) = y.split_at(9);
    let mech = make(Formulation::Eliminated);
    for s in mech.contact_states(q, qd) {
        assert!(
            s.penetration > 0.0 && s.normal_force > 0.0,
            "the bench state should be in contact: {s:?}"
        );
    }
    c.bench_function(&format!("constraint_jacobian/{name}"), |b| {
        b.iter(|| black_box(mech.jacobian(black_box(q), 0.0)))
    });
    c.bench_function(&format!("acceleration_rhs/{name}"), |b| {
        b.iter(|| black_box(mech.acceleration_rhs(black_box(q), black_box(qd), 0.0)))
    });
    for (formulation, fname) in [
        (Formulation::Eliminated, "eliminated"),
        (Formulation::Augmented, "augmented"),
    ] {
        let mech = make(formulation);
        let label = format!("{name}-{fname}");
        c.bench_function(&format!("equations/{label}"), |b| {
            b.iter(|| black_box(mech.dynamics(0.0, black_box(q), black_box(qd))))
        });
        let mut rk4 = Rk4::new(mech.dim());
        c.bench_function(&format!("rk4_step/{label}"), |b| {
            b.iter(|| {
                let mut y = y;
                rk4.step(&mech, 0.0, DT, &mut y);
                black_box(y)
            })
        });
        let mut dopri = Dopri5::new(mech.dim());
        c.bench_function(&format!("dopri5_step/{label}"), |b| {
            b.iter(|| {
                let mut y = y;
                dopri.reset();
                dopri.step(&mech, 0.0, DT, &mut y);
                black_box(y)
            })
        });
    }
}

fn kernels(c: &mut Criterion) {
    bench_kernels(c, "ideal", ideal, false);
    bench_kernels(c, "clearance", clearance, true);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = kernels
}
criterion_main!(benches);
