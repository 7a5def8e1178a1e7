//! Tests of the assembled pair: statics, action = reaction, energy, the
//! two formulations against each other, and the seed's transients.

use super::*;
use crate::contact::friction::{FrictionLaw, Tanh};
use crate::integrators::moreau::{MoreauState, MoreauStepper};
use crate::models::blades::ode::BladeOde;
// The whole-run tests go through the study's recorder (the friction driver).
use crate::studies::shrouded_blades::simulate::{BladeMethod, simulate};

fn seed_laws() -> Vec<(&'static str, FrictionLaw)> {
    crate::fixtures::friction::seed_laws()
}

fn tanh(k: f64) -> FrictionLaw {
    FrictionLaw::Regularized(
        Tanh {
            static_coefficient: 0.2,
            sharpness: k,
        }
        .into(),
    )
}

fn max_abs(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |a, b| a.max(b.abs()))
}

/// The patch forces at a state with every patch penetrated and slipping
/// transform to the two tips as one action-reaction pair: over both blades
/// the forces and the moments about the origin (the full 6-DOF maps T_i^T)
/// cancel to rounding, and the beam DOFs receive the wrench components
/// (F_y, F_z, M_z, M_y) at each tip.
#[test]
fn action_equals_reaction() {
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    let n = m.dofs();
    let law = tanh(2e4);
    let c = m.contact();
    // A state pressing blade 1 onto blade 2 with some twist and slip.
    let mut q = vec![0.0; n];
    let mut v = vec![0.0; n];
    let (t1, t2) = (m.tip(0), m.tip(1));
    q[t1 + beam::W] = 2e-6;
    q[t1 + beam::V] = 1e-6;
    q[t2 + beam::THETA_Y] = 1e-5;
    q[t1 + beam::THETA_Z] = -2e-5;
    for (i, x) in v.iter_mut().enumerate() {
        *x = 1e-3 * ((i as f64) * 1.3).sin();
    }
    let mut generalized = vec![0.0; n];
    let tot = c.evaluate(&law, &q, &v, 0, Some(&mut generalized));
    assert!(tot.normal > 0.0 && tot.friction[0].hypot(tot.friction[1]) > 0.0);
    let frame = m.surface().frame;
    let p = m.params();
    let tips = [
        nalgebra::Vector3::new(p.length, 0.0, 0.0),
        nalgebra::Vector3::new(p.length, 0.0, p.pitch),
    ];
    let mut force = nalgebra::Vector3::zeros();
    let mut moment = nalgebra::Vector3::zeros();
    let mut scale = 0.0f64;
    let mut wrench = [[0.0; 6]; 2];
    for j in 0..m.patch_count() {
        let k = c.kinematics(j, &q, &v);
        let f = c.patch_force(&law, &k);
        assert!(k.penetration > 0.0, "patch {j} open");
        for (blade, sign) in [(0, 1.0), (1, -1.0)] {
            // Generalised 6-DOF force at tip C_i: T_i^T f_i.
            let t = &c.patches[j].rigid[blade];
            let mut w6 = [0.0; 6];
            for (col, w) in w6.iter_mut().enumerate() {
                *w = sign * (0..3).map(|r| t[r][col] * f[r]).sum::<f64>();
                wrench[blade][col] += *w;
            }
            let fv = nalgebra::Vector3::new(w6[0], w6[1], w6[2]);
            let mc = nalgebra::Vector3::new(w6[3], w6[4], w6[5]);
            force += fv;
            moment += mc + tips[blade].cross(&fv);
            scale = scale.max(fv.norm() * p.length);
        }
        // The patch force in global coordinates is T_xi xi + T_eta eta + F_N zeta.
        let g = frame.to_global(&f);
        assert!(
            (g.norm() - (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt()).abs() < 1e-12 * g.norm()
        );
    }
    assert!(force.norm() < 1e-12 * scale, "force {force:?}");
    assert!(moment.norm() < 1e-12 * scale, "moment {moment:?}");
    // What the equations of motion receive: (F_y, F_z, M_z, M_y) per tip.
    for (blade, tip) in [(0, t1), (1, t2)] {
        let w = wrench[blade];
        for (dof, col) in [
            (beam::V, 1),
            (beam::W, 2),
            (beam::THETA_Z, 5),
            (beam::THETA_Y, 4),
        ] {
            assert!(
                (generalized[tip + dof] - w[col]).abs() < 1e-12 * scale,
                "blade {blade} dof {dof}"
            );
        }
    }
    // Nothing else is loaded.
    let loaded: Vec<usize> = (0..n).filter(|&i| generalized[i] != 0.0).collect();
    assert!(loaded.iter().all(|i| c.tip_dofs.contains(i)), "{loaded:?}");
}

/// Frictionless contact (f = 0): the model's forces vanish at the linear
/// static solution with the penalty springs (every patch penetrated), the
/// damped transient settles on it, and the total normal force is the
/// penalty springs' sum there; the ratio to the load's normal component
/// F cos alpha is the compliance sharing between the blades.
#[test]
fn frictionless_static_equilibrium() {
    let law = FrictionLaw::constant(0.0);
    let p = BladePairParams {
        damping_ratios: [0.3, 0.3],
        ..Default::default()
    };
    let m = BladePair::new(&p).expect("model");
    let n = m.dofs();
    let qs = m.linear_static(1.0, 0.0).expect("static");
    let zero = vec![0.0; n];
    for j in 0..m.patch_count() {
        assert!(
            m.contact().kinematics(j, &qs, &zero).penetration > 0.0,
            "patch {j} open"
        );
    }
    // Residual f - K q + Q(q, 0) at the static solution.
    let mut r = vec![0.0; n];
    m.stiffness_mul(&qs, &mut r);
    for (ri, f) in r.iter_mut().zip(m.load_vector()) {
        *ri = f - *ri;
    }
    let stat = m.contact().evaluate(&law, &qs, &zero, 0, Some(&mut r));
    assert!(max_abs(&r) < 1e-9 * p.load, "residual {:e}", max_abs(&r));
    let springs: f64 = (0..m.patch_count())
        .map(|j| m.contact().penalty.stiffness * m.contact().kinematics(j, &qs, &zero).penetration)
        .sum();
    assert!((stat.normal - springs).abs() < 1e-12 * springs);
    let normal_load = p.load * p.inclination.cos();
    println!(
        "static N = {} N, F cos(alpha) = {normal_load} N (ratio {})",
        stat.normal,
        stat.normal / normal_load
    );
    assert!(stat.normal > 0.2 * normal_load && stat.normal < normal_load);
    let run = simulate(&m, law, BladeMethod::Moreau { dt: 1e-5 }, 0.05, 1e-3, 0).expect("runs");
    let n_end = *run.normal_force.last().expect("output");
    let z_end = *run.tip_z.last().expect("output");
    let z_s = qs[m.tip(0) + beam::W];
    assert!(
        (n_end - stat.normal).abs() < 1e-6 * stat.normal,
        "{n_end} vs {}",
        stat.normal
    );
    assert!((z_end - z_s).abs() < 1e-6 * z_s.abs(), "{z_end} vs {z_s}");
    assert!(
        max_abs(&run.dissipated) == 0.0,
        "frictionless dissipates nothing"
    );
}

/// The ODE's energy balance closes to the integration error (dopri5 at a
/// tight tolerance), and the friction work never decreases over the
/// accepted steps.
#[test]
fn energy_balance_dopri5() {
    use crate::integrators::rk::{Dopri5, Tolerances};
    use crate::problem::FirstOrderOde;
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    let n = m.dofs();
    let ode = BladeOde::new(&m, tanh(2e4));
    let mut y = ode.initial_state();
    let e0 = m.energy(&y[..n], &y[n..2 * n]);
    let mut dp = Dopri5::new(ode.dim());
    let (mut worst, mut last_df, mut decreases, mut w_max) = (0.0f64, 0.0, 0, 0.0f64);
    dp.integrate(
        &ode,
        0.0,
        0.004,
        &mut y,
        1e-7,
        Tolerances {
            rtol: 1e-10,
            atol: 1e-13,
        },
        1_000_000,
        &[],
        &mut |_, _| {},
        &mut |_, y| {
            let w = &y[2 * n..];
            let e = m.energy(&y[..n], &y[n..2 * n]);
            worst = worst.max((e - e0 + w[0] + w[1] - w[2]).abs());
            w_max = w_max.max(w[2]);
            if w[0] < last_df {
                decreases += 1;
            }
            last_df = w[0];
            false
        },
    )
    .expect("integrates");
    println!("dopri5 balance {worst:e} J of load work {w_max:e} J, friction work {last_df:e} J");
    assert!(last_df > 0.05 * w_max, "friction works");
    assert!(worst < 1e-9 * w_max, "balance {worst:e} of {w_max:e}");
    assert_eq!(decreases, 0);
}

/// Moreau: every step's friction and damping work is >= 0, the balance
/// closes to O(h) (halving h halves the error) and within 1e-4 of the load
/// work at h = 1e-6 s, with a set-valued law (sticking patches) and a
/// regularised one.
#[test]
fn energy_balance_moreau() {
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    for law in [FrictionLaw::constant(0.2), seed_laws()[4].1, tanh(2e4)] {
        let mut errors = Vec::new();
        for dt in [2e-6, 1e-6] {
            let mut st = MoreauStepper::new(&m, law, dt).expect("stepper");
            let (q, v) = m.initial_state();
            let mut s = MoreauState::new(q, v, m.patch_count());
            let e0 = m.energy(&s.q, &s.v);
            let mut worst = 0.0f64;
            let steps = (0.004 / dt).round() as usize;
            let mut sticking = 0;
            for _ in 0..steps {
                let r = st.step(&mut s).expect("steps");
                assert!(
                    r.friction_work >= 0.0,
                    "{law:?}: friction work {:e} at t = {}",
                    r.friction_work,
                    s.t
                );
                assert!(
                    r.damping_work >= 0.0,
                    "{law:?}: damping work {:e} at t = {}",
                    r.damping_work,
                    s.t
                );
                sticking += r.sticking;
                let e = m.energy(&s.q, &s.v);
                worst = worst.max((e - e0 + s.friction_work + s.damping_work - s.load_work).abs());
            }
            println!(
                "{law:?} dt {dt:e}: balance {worst:e} J of {:e} J, friction {:e} J, sticking {sticking}",
                s.load_work, s.friction_work
            );
            assert!(worst < 1e-4 * s.load_work || dt > 1e-6, "balance {worst:e}");
            assert!(s.friction_work > 0.05 * s.load_work);
            errors.push(worst);
        }
        assert!(errors[1] < 0.65 * errors[0], "O(h): {errors:?}");
    }
}

/// A set-valued law sticks for real in the Moreau scheme. An interference
/// preload presses the shrouds (its frictionless equilibrium, edge-loaded),
/// then a step force acts on blade 1 along the contact plane (eta). With
/// f = 10 the largest ratio |P_t| / P_N of a loaded patch over the run is
/// rho_p (< 10: it stuck throughout), the resultant's is rho_r. With
/// f = 1.2 rho_p every loaded patch sticks at every step, nothing is
/// dissipated, and the motion is the f = 10 one; with f = rho_r / 3 the
/// tangential load exceeds f N and the patches slip.
#[test]
fn moreau_sticks_below_and_slips_above() {
    let alpha = 30f64.to_radians();
    let p = BladePairParams {
        initial_gap: -2e-5,
        load: 0.3,
        load_direction: [0.0, -alpha.cos(), alpha.sin()],
        ..Default::default()
    };
    let m = BladePair::new(&p).expect("model");
    let np = m.patch_count();
    let dt = 1e-6;
    let steps = 3000;
    // (ratio per patch, resultant ratio, sticking of loaded patches, loaded
    // patch-steps, friction work, max slip, final q).
    let run = |mu: f64| {
        let mut st = MoreauStepper::new(&m, FrictionLaw::constant(mu), dt).expect("stepper");
        let (q, v) = m.initial_state();
        let mut s = MoreauState::new(q, v, m.patch_count());
        let (mut rp, mut rr, mut stuck, mut loaded, mut slip) = (0.0f64, 0.0f64, 0, 0, 0.0f64);
        for _ in 0..steps {
            let r = st.step(&mut s).expect("steps");
            for (j, i) in s.impulses.iter().enumerate() {
                if i[2] > 0.0 {
                    loaded += 1;
                    stuck += usize::from(st.stuck(j));
                    rp = rp.max(i[0].hypot(i[1]) / i[2]);
                }
            }
            rr = rr.max(r.friction[0].hypot(r.friction[1]) / r.normal);
            slip = slip.max(r.max_slip);
        }
        (rp, rr, stuck, loaded, s.friction_work, slip, s.q)
    };
    let (rho_p, rho_r, stuck, loaded, work, _, q_ref) = run(10.0);
    println!("f = 10: rho_p {rho_p}, rho_r {rho_r}, stuck {stuck} of {loaded}, work {work:e}");
    assert!(loaded > steps * np / 4, "the preload presses: {loaded}");
    assert!(rho_p < 8.0 && stuck == loaded && work == 0.0);
    let (_, _, stuck, loaded, work, slip, q) = run(1.2 * rho_p);
    println!("f = 1.2 rho_p: stuck {stuck} of {loaded}, work {work:e}, slip {slip:e}");
    assert_eq!(stuck, loaded);
    assert_eq!(work, 0.0);
    assert!(slip < 1e-9, "slip {slip:e}");
    let dq = q
        .iter()
        .zip(&q_ref)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(dq <= 1e-12 * max_abs(&q_ref), "{dq:e}");
    let (_, _, stuck, loaded, work, slip, _) = run(rho_r / 3.0);
    println!("f = rho_r / 3: stuck {stuck} of {loaded}, work {work:e}, slip {slip:e}");
    assert!(stuck < loaded / 2, "{stuck} of {loaded}");
    assert!(work > 0.0 && slip > 1e-5, "{work:e} {slip:e}");
}

/// With a regularised law (tanh, k = 2e3 s/m) the Moreau solution
/// converges to dopri5's (tolerance 1e-11) as h -> 0, at order >= 0.8 over
/// three step sizes (the friction at the end velocity makes it first
/// order).
#[test]
fn moreau_converges_to_dopri5() {
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    let law = tanh(2e3);
    let (t_end, out) = (0.002, 1e-4);
    let reference = simulate(
        &m,
        law,
        BladeMethod::Dopri5 {
            tolerance: 1e-11,
            max_steps: 1_000_000,
        },
        t_end,
        out,
        7,
    )
    .expect("reference");
    let scale = max_abs(&reference.tip_z);
    let mut errors = Vec::new();
    for dt in [4e-6, 2e-6, 1e-6] {
        let r = simulate(&m, law, BladeMethod::Moreau { dt }, t_end, out, 7).expect("moreau");
        assert_eq!(r.t.len(), reference.t.len());
        let e =
            r.t.iter()
                .zip(&reference.t)
                .zip(r.tip_z.iter().zip(&reference.tip_z))
                .map(|((ta, tb), (a, b))| {
                    assert!((ta - tb).abs() < 1e-12);
                    (a - b).abs()
                })
                .fold(0.0f64, f64::max);
        errors.push(e / scale);
    }
    let orders: Vec<f64> = errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect();
    println!("relative errors {errors:?}, orders {orders:?}");
    assert!(orders.iter().all(|&o| o >= 0.8), "{orders:?}");
    assert!(errors[2] < 1e-2);
}

/// The seed's transients: 0.03 s with each of its five laws, by dopri5
/// (tolerance 1e-8, at most 3e5 steps) and by Moreau (h = 1e-6 s).
#[test]
#[ignore]
fn seed_transients() {
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    for (name, law) in seed_laws() {
        for method in [
            BladeMethod::Dopri5 {
                tolerance: 1e-8,
                max_steps: 300_000,
            },
            BladeMethod::Moreau { dt: 1e-6 },
        ] {
            let t0 = std::time::Instant::now();
            let r = simulate(&m, law, method, 0.03, 1e-4, 7);
            let wall = t0.elapsed().as_secs_f64();
            match r {
                Ok(r) => {
                    let zmax = r.tip_z.iter().fold(f64::MIN, |a, b| a.max(*b));
                    let k = r.t.len();
                    let tail = |x: &[f64]| max_abs(&x[k * 2 / 3..]);
                    println!(
                        "{name:10} {method:?}: tip z max {zmax:.4e} m, z end {:.4e}, slip max {:.4e} m/s \
                         (patch 7 {:.4e}, last third {:.3e}), N end {:.3} N, friction work {:.3e} J, \
                         balance {:.1e} J, steps {} (rejected {}, rhs {}, sweeps {}, stick {}), wall {wall:.2} s",
                        r.tip_z[k - 1],
                        max_abs(&r.max_slip_speed),
                        max_abs(&r.slip_speed),
                        tail(&r.slip_speed),
                        r.normal_force[k - 1],
                        r.dissipated[k - 1],
                        max_abs(&r.balance_error),
                        r.steps,
                        r.rejected_steps,
                        r.rhs_evaluations,
                        r.local_iterations,
                        r.stick_patch_steps
                    );
                }
                Err(e) => println!("{name:10} {method:?}: {e} (wall {wall:.2} s)"),
            }
        }
    }
}

/// Under a regularised law the Moreau stepper finishes a step the sweeps
/// do not settle by Newton over all patches; the sweeps alone solve the
/// same equations. Over 2 ms of the step transient (tanh, ADAMS and
/// micro-slip of the seed's Fig. 4a), with Newton after the first sweep,
/// the two trajectories agree to 1e-7 of the tip motion, Newton solves
/// nearly every step, and a set-valued law is never handed to Newton.
#[test]
fn moreau_newton_equals_the_sweeps_under_a_regularised_law() {
    let m = BladePair::new(&BladePairParams::default()).expect("model");
    let laws = seed_laws();
    let regularised = laws
        .iter()
        .filter(|(_, l)| matches!(l.class(), crate::contact::friction::LawClass::Regularized));
    let mut tried = 0;
    let steps = 2000;
    for (name, law) in regularised {
        tried += 1;
        let dt = 1e-6;
        let mut newton = MoreauStepper::new(&m, *law, dt)
            .expect("stepper")
            .with_newton_after(1);
        let mut sweeps = MoreauStepper::new(&m, *law, dt)
            .expect("stepper")
            .with_sweeps_only();
        let (q, v) = m.initial_state();
        let mut a = MoreauState::new(q.clone(), v.clone(), m.patch_count());
        let mut b = MoreauState::new(q, v, m.patch_count());
        let (mut iterations, mut by_newton, mut swept) = (0, 0, 0);
        let mut scale = 0.0f64;
        let mut worst = 0.0f64;
        for _ in 0..steps {
            let ra = newton.step(&mut a).expect("newton");
            let rb = sweeps.step(&mut b).expect("sweeps");
            iterations += ra.global_newton;
            by_newton += usize::from(ra.global_newton > 0);
            swept += rb.sweeps;
            assert_eq!(rb.global_newton, 0);
            let diff: Vec<f64> = a.q.iter().zip(&b.q).map(|(x, y)| x - y).collect();
            worst = worst.max(max_abs(&diff));
            let moved: Vec<f64> =
                a.q.iter()
                    .zip(&m.initial_state().0)
                    .map(|(x, y)| x - y)
                    .collect();
            scale = scale.max(max_abs(&moved));
        }
        println!(
            "{name}: Newton solved {by_newton} of {steps} steps in {iterations} iterations; the sweeps \
             alone took {swept} sweeps; largest difference {worst:e} of {scale:e}"
        );
        assert!(worst <= 1e-7 * scale, "{name}: {worst:e} of {scale:e}");
        assert!(
            by_newton > steps * 9 / 10,
            "{name}: Newton solved {by_newton} steps"
        );
    }
    assert_eq!(tried, 3, "the seed's three regularised laws");
    let mut coulomb = MoreauStepper::new(&m, FrictionLaw::constant(0.2), 1e-6)
        .expect("stepper")
        .with_newton_after(1);
    let (q, v) = m.initial_state();
    let mut s = MoreauState::new(q, v, m.patch_count());
    for _ in 0..100 {
        assert_eq!(coulomb.step(&mut s).expect("step").global_newton, 0);
    }
}

/// The torsion factor scales G J / L and nothing else; a factor <= 0 is
/// refused.
#[test]
fn torsion_factor_scales_the_torsion_stiffness() {
    let with = |f: f64| BladePairParams {
        torsion: true,
        torsion_factor: f,
        ..BladePairParams::default()
    };
    let (k1, j1) = BladePair::new(&with(1.0))
        .expect("model")
        .torsion()
        .unwrap();
    let (k2, j2) = BladePair::new(&with(0.5))
        .expect("model")
        .torsion()
        .unwrap();
    let p = BladePairParams::default();
    let g = p.youngs_modulus / (2.0 * (1.0 + p.poisson_ratio));
    let expected = g * rectangle_torsion_constant(p.chord, p.thickness) / p.length;
    assert!(
        (k1 - expected).abs() <= 1e-12 * expected,
        "{k1} vs {expected}"
    );
    assert!((k2 - 0.5 * k1).abs() <= 1e-12 * k1);
    assert_eq!(j1, j2);
    assert!(BladePair::new(&with(0.0)).is_err());
}
