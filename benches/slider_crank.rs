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

use contact_harness::integrators::rk::{Dopri5, Rk4};
use contact_harness::models::slider_crank::{Drive, JournalBearingParams, SliderCrank};
use contact_harness::multibody::{Body, Formulation, Mechanism};
use contact_harness::problem::FirstOrderOde;

const OMEGA: f64 = 523.6;
const PHI: f64 = 1.0;
const DT: f64 = 1e-6;

fn mechanism() -> SliderCrank {
    SliderCrank {
        crank_length: 0.05,
        rod_length: 0.12,
        crank: Body {
            mass: 0.30,
            inertia: 1e-5,
        },
        rod: Body {
            mass: 0.087,
            inertia: 1.044e-4,
        },
        slider: Body {
            mass: 0.14,
            inertia: 1.4e-5,
        },
        gravity: 0.0,
    }
}

fn drive() -> Drive {
    Drive::ConstantSpeed {
        phi0: 0.0,
        omega: OMEGA,
    }
}

fn bearing() -> JournalBearingParams {
    JournalBearingParams {
        journal_radius: 0.00995,
        bearing_radius: 0.010,
        // The point law, as this benchmark's history was timed with (the
        // spec's default is the line-contact law since issue 16).
        law: contact_harness::multibody::StiffnessLaw::Point {
            stiffness: contact_harness::multibody::hertz_stiffness(0.010, 0.00995, 2.07e11, 0.3),
        },
        restitution: 0.9,
        friction: 0.02,
        friction_speed: 1e-4,
        reference_speed: contact_harness::multibody::contact::REFERENCE_SPEED,
    }
}

fn ideal(formulation: Formulation) -> Mechanism<9, 9, 18> {
    let m = mechanism();
    Mechanism::new(m.bodies(), m.constraints(true, drive()), formulation).expect("sizes")
}

fn clearance(formulation: Formulation) -> Mechanism<9, 7, 16> {
    let m = mechanism();
    let mut mech =
        Mechanism::new(m.bodies(), m.constraints(false, drive()), formulation).expect("sizes");
    mech.clearance.push(m.clearance_joint(bearing()));
    mech
}

/// The consistent state at PHI; with the clearance joint the rod is moved
/// so that the journal sits 1 micrometre deep in the bearing, in contact.
fn state(in_contact: bool) -> [f64; 18] {
    let (q, qd) = mechanism().initial_state(PHI, OMEGA);
    let mut y = [0.0; 18];
    y[..9].copy_from_slice(&q);
    y[9..].copy_from_slice(&qd);
    if in_contact {
        // Rod (body 1) shifted along x by clearance + 1 micrometre.
        y[3] += 5e-5 + 1e-6;
    }
    y
}

fn bench_kernels<const R: usize, const NR: usize>(
    c: &mut Criterion,
    name: &str,
    make: impl Fn(Formulation) -> Mechanism<9, R, NR>,
    in_contact: bool,
) where
    Const<NR>: DimMin<Const<NR>, Output = Const<NR>>,
{
    let y = state(in_contact);
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
