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

use contact_harness::fixtures::valve_spring::{self as fixture, DT};
use contact_harness::integrators::bdf_contact::{BdfContact, Stepping};

fn bench(c: &mut Criterion) {
    let spring = fixture::spring().expect("spring");
    let system = spring.prescribed_system(fixture::cam());
    let ncp = fixture::ncp(&spring);
    let s = fixture::state_at_peak(&spring, &system, ncp).expect("runs");
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
        let model = fixture::penalty(kp);
        let s = fixture::state_at_peak(&spring, &system, model).expect("runs");
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
