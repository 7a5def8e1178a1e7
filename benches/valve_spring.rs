//! Kernels of the valve-spring study (the repository's spring: 35 free
//! lumps, 44 contact pairs), from the state at the top of the lift (t =
//! 4.2 ms, several coil pairs closed):
//!
//! - `ncp_step`: one BDF1 step of 1e-5 s with Signorini as an NCP
//!   (semi-smooth Newton on the 79 x 79 sparse KKT system);
//! - `penalty_step/<k_p>`: one BDF1 step of 1e-5 s with spring-damper
//!   contact elements (Newton on the 35 x 35 system).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use contact_harness::integrators::bdf_contact::{BdfContact, BdfState, ContactModel, Stepping};
use contact_harness::models::valve_spring::{CamLift, Spring, tu_delft};

const DT: f64 = 1e-5;

fn cam() -> CamLift {
    CamLift {
        lift: 8e-3,
        rise_angle: std::f64::consts::PI / 3.0,
        dwell_angle: 0.0,
        cam_speed: 40.0,
    }
}

/// The state at t = 4.2 ms of an NCP-BDF2 run.
fn state_at_peak(spring: &Spring, contact: ContactModel) -> BdfState {
    let system = spring.prescribed_system(cam());
    let mut bdf = BdfContact::new(&system, contact).expect("integrator");
    let start = BdfState {
        t: 0.0,
        q: spring.installed_state(),
        v: vec![0.0; spring.dofs()],
        lambda: vec![0.0; spring.pairs.len()],
    };
    let mut last = start.clone();
    bdf.integrate(
        start,
        4.2e-3,
        Stepping::Fixed { dt: DT, order: 2 },
        10_000,
        &mut |s| last = s.clone(),
    )
    .expect("runs");
    last
}

fn bench(c: &mut Criterion) {
    let spring = Spring::new(tu_delft()).expect("spring");
    let ncp = ContactModel::Ncp {
        c: spring.segment_stiffness,
    };
    let s = state_at_peak(&spring, ncp);
    let system = spring.prescribed_system(cam());
    let mut bdf = BdfContact::new(&system, ncp).expect("integrator");
    c.bench_function("ncp_step", |b| {
        b.iter(|| {
            bdf.integrate(
                s.clone(),
                s.t + DT,
                Stepping::Fixed { dt: DT, order: 1 },
                10,
                &mut |x| {
                    black_box(x.q[0]);
                },
            )
            .expect("step")
        })
    });
    let mut group = c.benchmark_group("penalty_step");
    for kp in [1e7, 1e8, 1e9] {
        let model = ContactModel::Penalty {
            stiffness: kp,
            damping: 0.0,
        };
        let s = state_at_peak(&spring, model);
        let mut bdf = BdfContact::new(&system, model).expect("integrator");
        group.bench_function(format!("{kp:e}"), |b| {
            b.iter(|| {
                bdf.integrate(
                    s.clone(),
                    s.t + DT,
                    Stepping::Fixed { dt: DT, order: 1 },
                    10,
                    &mut |x| {
                        black_box(x.q[0]);
                    },
                )
                .expect("step")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
