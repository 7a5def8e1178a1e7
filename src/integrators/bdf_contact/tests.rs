//! Tests of the BDF contact integrator: step-growth bounds, plastic NCP
//! impacts, displacement-scaled error control, redundant contacts.

use super::*;
use crate::problem::GapRow;

/// A unit mass falls under a 10 N load from 10 mm above a stop: a quiet
/// phase that BDF2 integrates exactly (the motion is quadratic, so the
/// error estimate is round-off and the step grows as fast as allowed),
/// then a plastic impact at t = sqrt(2 x 0.01 / 10) = 44.7 ms and rest
/// on the stop with lambda = 10 N.
fn falling_mass() -> ContactSystem {
    let mut sys = ContactSystem::new(vec![1.0]);
    sys.load = vec![-10.0];
    sys.gaps.push(GapRow {
        coeffs: vec![(0, 1.0)],
        constant: 0.01,
        drives: Vec::new(),
    });
    sys.stiffness_scale = 1e3;
    sys.length_scale = 0.01;
    sys.extent = 0.01;
    sys
}

/// The falling mass from rest at q = 0 to t = 0.1 s with `stepping`
/// (NCP, c = 1e3): every accepted state (the start first) and the
/// counters.
fn fall(stepping: Stepping) -> (Vec<ContactSystemState>, BdfStats) {
    let sys = falling_mass();
    let mut bdf = BdfContact::new(&sys, ContactModel::Ncp { c: 1e3 }).expect("integrator");
    let start = ContactSystemState {
        t: 0.0,
        q: vec![0.0],
        v: vec![0.0],
        lambda: vec![0.0],
    };
    let mut states = vec![start.clone()];
    bdf.integrate(start, 0.1, stepping, 1_000_000, &mut |s| {
        states.push(s.clone())
    })
    .expect("integrates");
    (states, bdf.stats)
}

#[test]
fn adaptive_steps_grow_at_most_twofold_through_a_quiet_phase_and_an_impact() {
    let (states, stats) = fall(Stepping::Adaptive {
        tolerance: 1e-6,
        first_step: 1e-6,
    });
    let steps: Vec<f64> = states.windows(2).map(|w| w[1].t - w[0].t).collect();
    // The last step is cut to land on t_end; every other ratio is
    // bounded by the growth limit (the zero-stability bound of BDF2 is
    // 1 + sqrt(2) = 2.41).
    let worst = steps[..steps.len() - 1]
        .windows(2)
        .map(|w| w[1] / w[0])
        .fold(0.0f64, f64::max);
    assert!(
        worst <= MAX_STEP_GROWTH * (1.0 + 1e-6),
        "step ratio {worst}"
    );
    // The impact, and re-closures at the Newton tolerance's level
    // (gaps of 1e-11 m) while the mass settles.
    assert!(stats.restarts >= 1, "an impact");
    let hit = states
        .iter()
        .position(|s| s.lambda[0] > 0.0)
        .expect("impact");
    let rebound = states[hit..].iter().map(|s| s.v[0]).fold(0.0f64, f64::max);
    assert!(
        rebound < 1e-3 * 0.447,
        "rebound speed {rebound} after hitting at 0.447 m/s"
    );
    // The error control locates the impact: the impact step is short.
    let impact_step = states[hit].t - states[hit - 1].t;
    assert!(impact_step < 1e-4, "impact step {impact_step} s");
    let end = states.last().expect("state");
    assert!(
        (end.q[0] + 0.01).abs() < 1e-9,
        "rests on the stop: {}",
        end.q[0]
    );
    assert!(end.v[0].abs() < 1e-6, "at rest: {}", end.v[0]);
    assert!(
        (end.lambda[0] - 10.0).abs() < 1e-3,
        "carries the load: {}",
        end.lambda[0]
    );
}

/// The impact is perfectly plastic with fixed steps of either order and
/// any step: the mass stays on the stop from the step after the impact
/// on (BDF2 without the restart left it at 0.35 m/s).
#[test]
fn ncp_impacts_are_plastic_at_every_step_and_order() {
    for order in [1, 2] {
        for dt in [1e-3, 3e-4, 1e-4] {
            let (states, _) = fall(Stepping::Fixed { dt, order });
            let first = states
                .iter()
                .position(|s| s.lambda[0] > 0.0)
                .expect("impact");
            for s in &states[first + 1..] {
                assert!(
                    (s.q[0] + 0.01).abs() < 1e-9 && s.v[0].abs() < 1e-9,
                    "order {order}, dt {dt}: t {} q {} v {}",
                    s.t,
                    s.q[0],
                    s.v[0]
                );
            }
        }
    }
}

/// Redundant contacts: the falling mass lands on two stops at the same
/// height (two contact rows with the same gradient, closed together:
/// the Newton matrix is singular, and the run stopped at the impact).
/// The regularized Newton lands it, and it rests with the two forces
/// carrying the load together, each >= 0, at both orders and adaptive.
#[test]
fn redundant_contacts_are_solved_by_the_regularized_newton() {
    let mut sys = falling_mass();
    let stop = sys.gaps[0].clone();
    sys.gaps.push(stop);
    for stepping in [
        Stepping::Fixed { dt: 1e-3, order: 1 },
        Stepping::Fixed { dt: 1e-3, order: 2 },
        Stepping::Adaptive {
            tolerance: 1e-6,
            first_step: 1e-6,
        },
    ] {
        let mut bdf = BdfContact::new(&sys, ContactModel::Ncp { c: 1e3 }).expect("bdf");
        let start = ContactSystemState {
            t: 0.0,
            q: vec![0.0],
            v: vec![0.0],
            lambda: vec![0.0, 0.0],
        };
        let mut last = start.clone();
        bdf.integrate(start, 0.1, stepping, 1_000_000, &mut |s| last = s.clone())
            .expect("integrates through the redundant impact");
        assert!(bdf.stats.regularized >= 1, "{stepping:?}: regularized");
        // The Newton tolerance in force is 1e-10 k_s L = 1e-9 N, in gap
        // 1e-10 L = 1e-12 m.
        assert!(
            (last.q[0] + 0.01).abs() < 1e-11,
            "{stepping:?}: {}",
            last.q[0]
        );
        assert!(
            last.v[0].abs() < 1e-6,
            "{stepping:?}: at rest {}",
            last.v[0]
        );
        let total = last.lambda[0] + last.lambda[1];
        assert!((total - 10.0).abs() < 1e-6, "{stepping:?}: carries {total}");
        assert!(
            last.lambda.iter().all(|&l| l >= -1e-9),
            "{stepping:?}: {:?}",
            last.lambda
        );
    }
}

/// The error control scales on displacements from the start, not on
/// absolute coordinates: the falling mass started 40 mm higher (with
/// its stop moved along) takes exactly the same steps.
#[test]
fn adaptive_steps_do_not_depend_on_where_the_coordinates_start() {
    let times = |offset: f64| {
        let mut sys = falling_mass();
        sys.gaps[0].constant = 0.01 - offset;
        let mut bdf = BdfContact::new(&sys, ContactModel::Ncp { c: 1e3 }).expect("bdf");
        let start = ContactSystemState {
            t: 0.0,
            q: vec![offset],
            v: vec![0.0],
            lambda: vec![0.0],
        };
        let mut t = Vec::new();
        bdf.integrate(
            start,
            0.1,
            Stepping::Adaptive {
                tolerance: 1e-6,
                first_step: 1e-6,
            },
            100_000,
            &mut |s| t.push(s.t),
        )
        .expect("integrates");
        t
    };
    // The same step sequence up to round-off (the offset changes the
    // rounding of the positions, which the controller amplifies a
    // little): as many steps, at the same times to 1e-3 of the run.
    let (a, b) = (times(0.0), times(0.04));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-4, "{x} {y}");
    }
}
