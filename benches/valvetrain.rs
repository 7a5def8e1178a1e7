//! One cam revolution of the full valvetrain (the repository's: 35 spring
//! lumps, valve, follower; 44 coil pairs, cam and seat contacts) at 40
//! rev/s: NCP-BDF2 at dt = 1e-5 s (2,500 steps) and spring-damper contact
//! at k_p = 1e8 N/m with adaptive BDF2 at rtol 1e-5 (the two methods'
//! settings of comparable spring-seat force error in the
//! valvetrain-work-precision study), and the single-mass valvetrain.

use criterion::{Criterion, criterion_group, criterion_main};

use contact_harness::fixtures::valve_spring as fixture;
use contact_harness::integrators::bdf_contact::{BdfContact, ContactModel, Stepping};
use contact_harness::models::valvetrain::{SpringModel, Valvetrain, ValvetrainParams};

fn train(model: SpringModel) -> Valvetrain {
    let cam = fixture::cam();
    let params = ValvetrainParams {
        valve_mass: 0.05,
        follower_mass: 0.03,
        stem_stiffness: 5.94e7,
        stem_damping_ratio: 0.05,
        lash: 0.0,
    };
    Valvetrain::new(params, fixture::spring().expect("spring"), cam, model).expect("valvetrain")
}

fn revolution(vt: &Valvetrain, contact: ContactModel, stepping: Stepping) -> usize {
    let mut bdf = BdfContact::new(&vt.system, contact).expect("integrator");
    bdf.integrate(
        vt.initial_state(),
        1.0 / 40.0,
        stepping,
        1_000_000,
        &mut |_| {},
    )
    .expect("runs");
    bdf.stats.steps
}

fn bench(c: &mut Criterion) {
    let multi = train(SpringModel::MultiMass { coil_contact: true });
    let single = train(SpringModel::SingleMass);
    let ncp = ContactModel::Ncp {
        c: multi.spring.segment_stiffness,
    };
    let fixed = Stepping::Fixed { dt: 1e-5, order: 2 };
    let mut group = c.benchmark_group("valvetrain_revolution");
    group.sample_size(20);
    group.bench_function("ncp_bdf2_multi_mass", |b| {
        b.iter(|| revolution(&multi, ncp, fixed))
    });
    group.bench_function("penalty_1e8_multi_mass", |b| {
        b.iter(|| {
            revolution(
                &multi,
                ContactModel::Penalty {
                    stiffness: 1e8,
                    damping: 0.0,
                },
                Stepping::Adaptive {
                    tolerance: 1e-5,
                    first_step: 1e-5,
                },
            )
        })
    });
    group.bench_function("ncp_bdf2_single_mass", |b| {
        b.iter(|| revolution(&single, ncp, fixed))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
