//! The exact event-driven solver for gap systems against closed forms,
//! conservation, and the independent SciPy references in
//! reference-data/gap-system/ (see SOURCE.md there).

use std::f64::consts::PI;
use std::path::Path;
use std::time::Instant;

use contact_harness::integrators::event_driven::{
    EventDrivenOptions, periodic_orbit, simulate, steady_state, subharmonic_orbit,
};
use contact_harness::problem::{GapSprings, GapSystem, Harmonic};
use contact_harness::sparse::csr_from_rows;

fn system(
    mass: &[&[f64]],
    damping: &[&[f64]],
    stiffness: &[&[f64]],
    gaps: &[(&[f64], f64, f64)],
    force: &[f64],
    omega: f64,
) -> GapSystem {
    let rows = |a: &[&[f64]]| a.iter().map(|r| r.to_vec()).collect::<Vec<_>>();
    let n = mass.len();
    let directions: Vec<Vec<f64>> = gaps.iter().map(|(d, _, _)| d.to_vec()).collect();
    let mut d = csr_from_rows(&directions);
    if gaps.is_empty() {
        d = sprs::CsMat::zero((0, n));
    }
    GapSystem {
        mass: csr_from_rows(&rows(mass)),
        damping: csr_from_rows(&rows(damping)),
        stiffness: csr_from_rows(&rows(stiffness)),
        springs: GapSprings {
            directions: d,
            gaps: gaps.iter().map(|g| g.1).collect(),
            stiffness: gaps.iter().map(|g| g.2).collect(),
        },
        excitation: Harmonic {
            amplitude: force.to_vec(),
            omega,
        },
    }
}

fn sdof(c: f64, k: f64, gap: Option<(f64, f64)>, force: f64, omega: f64) -> GapSystem {
    let gaps: Vec<(&[f64], f64, f64)> = gap
        .map(|(g, kg)| vec![(&[1.0][..], g, kg)])
        .unwrap_or_default();
    system(&[&[1.0]], &[&[c]], &[&[k]], &gaps, &[force], omega)
}

/// The 3-DOF chain of three-dof.csv.
fn three_dof(damped: bool, force: [f64; 3]) -> GapSystem {
    let m = [[1.0, 0.0, 0.0], [0.0, 1.5, 0.0], [0.0, 0.0, 2.0]];
    let k = [[2.2, -1.2, 0.0], [-1.2, 2.0, -0.8], [0.0, -0.8, 0.8]];
    let r = if damped { 0.02 } else { 0.0 };
    let c: Vec<Vec<f64>> = (0..3)
        .map(|i| (0..3).map(|j| r * m[i][j] + r * k[i][j]).collect())
        .collect();
    let c_rows: Vec<&[f64]> = c.iter().map(|r| r.as_slice()).collect();
    system(
        &[&m[0], &m[1], &m[2]],
        &c_rows,
        &[&k[0], &k[1], &k[2]],
        &[
            (&[1.0, 0.0, 0.0], 0.3, 5.0),
            (&[-1.0, 1.0, 0.0], 0.2, 3.0),
            (&[0.0, 0.0, -1.0], 0.4, 8.0),
        ],
        &force,
        0.9,
    )
}

fn grid(t_end: f64, dt: f64) -> Vec<f64> {
    let steps = (t_end / dt).round() as usize;
    (0..=steps).map(|i| i as f64 * dt).collect()
}

/// A reference CSV: header row, then numeric rows; `#` lines are comments.
fn read_csv(name: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference-data/gap-system")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header = lines
        .next()
        .expect("header row")
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| {
            l.split(',')
                .map(|v| v.trim().parse::<f64>().expect("number"))
                .collect()
        })
        .collect();
    (header, rows)
}

/// (x, v) at t of m x'' + c x' + k x = f cos(omega t), underdamped, from (x0, v0).
fn closed_form_sdof([m, c, k, f, omega]: [f64; 5], (x0, v0): (f64, f64), t: f64) -> (f64, f64) {
    // particular A cos wt + B sin wt; homogeneous e^{-s t}(C1 cos wd t + C2 sin wd t)
    let det = (k - m * omega * omega).powi(2) + (c * omega).powi(2);
    let a = f * (k - m * omega * omega) / det;
    let b = f * c * omega / det;
    let s = c / (2.0 * m);
    let wd = (k / m - s * s).sqrt();
    let c1 = x0 - a;
    let c2 = (v0 - b * omega + s * c1) / wd;
    let (e, cw, sw) = ((-s * t).exp(), (wd * t).cos(), (wd * t).sin());
    let x = a * (omega * t).cos() + b * (omega * t).sin() + e * (c1 * cw + c2 * sw);
    let v = -a * omega * (omega * t).sin()
        + b * omega * (omega * t).cos()
        + e * (-s * (c1 * cw + c2 * sw) + wd * (-c1 * sw + c2 * cw));
    (x, v)
}

#[test]
fn linear_sdof_matches_the_closed_form() {
    let (c, k, f, omega, x0, v0) = (0.1, 2.0, 0.7, 1.3, 0.3, -0.2);
    let times = grid(60.0, 0.25);
    let opts = EventDrivenOptions::default();
    // without gap springs, and with one whose gap is never reached
    for gap in [None, Some((50.0, 4.0))] {
        let traj = simulate(&sdof(c, k, gap, f, omega), &[x0], &[v0], &times, &opts).unwrap();
        assert_eq!(traj.events, 0);
        assert_eq!(traj.regimes, 1);
        let mut worst: f64 = 0.0;
        for (i, &t) in traj.t.iter().enumerate() {
            let (x, v) = closed_form_sdof([1.0, c, k, f, omega], (x0, v0), t);
            worst = worst
                .max((traj.x[i][0] - x).abs())
                .max((traj.v[i][0] - v).abs());
        }
        assert!(worst < 1e-12, "gap {gap:?}: max error {worst:e}");
        // the same check fails against a slightly different system
        let other = simulate(
            &sdof(c, k * 1.001, gap, f, omega),
            &[x0],
            &[v0],
            &times,
            &opts,
        )
        .unwrap();
        let moved = other
            .x
            .iter()
            .zip(&traj.x)
            .map(|(a, b)| (a[0] - b[0]).abs())
            .fold(0.0, f64::max);
        assert!(moved > 1e-4, "perturbed system moved only {moved:e}");
    }
}

#[test]
fn singular_stiffness_and_undamped_resonance_are_exact() {
    let opts = EventDrivenOptions::default();
    let times = grid(40.0, 0.5);
    // free mass (K = 0, C = 0): x = x0 + v0 t + F/w^2 (1 - cos wt)
    let (f, w) = (0.8, 1.7);
    let traj = simulate(&sdof(0.0, 0.0, None, f, w), &[0.2], &[0.3], &times, &opts).unwrap();
    for (i, &t) in traj.t.iter().enumerate() {
        let x = 0.2 + 0.3 * t + f / (w * w) * (1.0 - (w * t).cos());
        assert!(
            (traj.x[i][0] - x).abs() < 1e-12 * (1.0 + x.abs()),
            "free mass at t = {t}"
        );
    }
    // undamped resonance m = k = 1, w = 1, from rest: x = F/2 t sin t
    let traj = simulate(&sdof(0.0, 1.0, None, f, 1.0), &[0.0], &[0.0], &times, &opts).unwrap();
    for (i, &t) in traj.t.iter().enumerate() {
        let x = 0.5 * f * t * t.sin();
        let v = 0.5 * f * (t.sin() + t * t.cos());
        assert!(
            (traj.x[i][0] - x).abs() < 1e-12 * (1.0 + t),
            "resonance x at t = {t}"
        );
        assert!(
            (traj.v[i][0] - v).abs() < 1e-12 * (1.0 + t),
            "resonance v at t = {t}"
        );
    }
}

#[test]
fn bilinear_free_period_is_pi_over_w1_plus_pi_over_w2() {
    let (k, kg): (f64, f64) = (1.0, 4.0);
    let (w1, w2) = (k.sqrt(), (k + kg).sqrt());
    let period = PI / w1 + PI / w2;
    assert!((2.0 * PI / period - 2.0 * w1 * w2 / (w1 + w2)).abs() < 1e-15);
    let s = sdof(0.0, k, Some((0.0, kg)), 0.0, 1.0);
    let times: Vec<f64> = vec![
        PI / (2.0 * w2),
        PI / (2.0 * w2) + PI / w1,
        period,
        10.0 * period,
    ];
    let traj = simulate(&s, &[1.0], &[0.0], &times, &EventDrivenOptions::default()).unwrap();
    // stiff quarter: x = cos(w2 t) reaches 0 with v = -w2; soft half: back at 0 with v = +w2
    assert!(traj.x[0][0].abs() < 1e-13 && (traj.v[0][0] + w2).abs() < 1e-12);
    assert!(traj.x[1][0].abs() < 1e-12 && (traj.v[1][0] - w2).abs() < 1e-12);
    for i in [2, 3] {
        assert!(
            (traj.x[i][0] - 1.0).abs() < 1e-12,
            "x({}) = {}",
            traj.t[i],
            traj.x[i][0]
        );
        // |v| = x'' |dt| near the turning point: the period itself is right to ~1e-13
        assert!(
            traj.v[i][0].abs() < 1e-12,
            "v({}) = {:e}",
            traj.t[i],
            traj.v[i][0]
        );
    }
    assert_eq!(traj.events, 20, "two switches per period");
    // the linear period 2 pi / w1 is far off: the check can fail
    let wrong = simulate(
        &s,
        &[1.0],
        &[0.0],
        &[2.0 * PI / w1],
        &EventDrivenOptions::default(),
    )
    .unwrap();
    assert!((wrong.x[0][0] - 1.0).abs() > 0.1);
}

fn energy(s: &GapSystem, x: &[f64], v: &[f64], f: &[f64]) -> f64 {
    let quad = |a: &sprs::CsMat<f64>, u: &[f64]| {
        a.iter()
            .map(|(&aij, (i, j))| 0.5 * aij * u[i] * u[j])
            .sum::<f64>()
    };
    let gaps: f64 = f
        .iter()
        .zip(&s.springs.stiffness)
        .map(|(fj, kj)| 0.5 * fj * fj / kj)
        .sum();
    quad(&s.mass, v) + quad(&s.stiffness, x) + gaps
}

#[test]
fn undamped_unforced_multi_gap_system_conserves_energy() {
    let s = three_dof(false, [0.0; 3]);
    let (x0, v0) = ([0.6, -0.4, 0.9], [0.0, 0.5, -0.3]);
    let traj = simulate(
        &s,
        &x0,
        &v0,
        &grid(300.0, 0.1),
        &EventDrivenOptions::default(),
    )
    .unwrap();
    let e0 = energy(&s, &x0, &v0, &traj.f[0]);
    let drift = traj
        .x
        .iter()
        .zip(&traj.v)
        .zip(&traj.f)
        .map(|((x, v), f)| (energy(&s, x, v, f) - e0).abs())
        .fold(0.0, f64::max);
    assert!(drift < 1e-11 * e0, "energy drift {drift:e} of E0 = {e0}");
    assert!(traj.events > 100, "events {}", traj.events);
    assert!(traj.regimes >= 4, "regimes {}", traj.regimes);
    // every spring force is k_j max(0, y_j) >= 0 and some are engaged at some time
    assert!(traj.f.iter().flatten().all(|f| *f >= 0.0));
    for j in 0..3 {
        assert!(
            traj.f.iter().any(|f| f[j] > 0.0),
            "spring {j} never engaged"
        );
    }
}

#[test]
fn grazing_contact_does_not_stall_and_leaves_the_motion_linear() {
    // x = sin t touches the gap g = 1 tangentially at t = pi/2 + 2 pi k
    let s = sdof(0.0, 1.0, Some((1.0, 4.0)), 0.0, 1.0);
    let times = grid(50.0, 0.1);
    let traj = simulate(&s, &[0.0], &[1.0], &times, &EventDrivenOptions::default()).unwrap();
    let worst = traj
        .t
        .iter()
        .zip(&traj.x)
        .map(|(t, x)| (x[0] - t.sin()).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-12, "max deviation from sin t: {worst:e}");
    assert!(traj.events <= 32, "events {}", traj.events);
}

#[test]
fn double_crossing_inside_one_sample_interval_is_found() {
    // x = sin t crosses g = 0.999 twice within 0.09 s around each peak; with 4 samples
    // per period both crossings fall inside one sample interval
    let s = sdof(0.0, 1.0, Some((0.999, 4.0)), 0.0, 1.0);
    let times = grid(40.0, 0.1);
    let coarse = simulate(
        &s,
        &[0.0],
        &[1.0],
        &times,
        &EventDrivenOptions {
            samples_per_period: 4,
            ..Default::default()
        },
    )
    .unwrap();
    let fine = simulate(
        &s,
        &[0.0],
        &[1.0],
        &times,
        &EventDrivenOptions {
            samples_per_period: 256,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(coarse.events, fine.events);
    assert!(fine.events >= 12, "events {}", fine.events);
    let diff = coarse
        .x
        .iter()
        .zip(&fine.x)
        .map(|(a, b)| (a[0] - b[0]).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-12, "coarse vs fine sampling: {diff:e}");
    // the engagement is visible: the motion is not sin t
    let off = fine
        .t
        .iter()
        .zip(&fine.x)
        .map(|(t, x)| (x[0] - t.sin()).abs())
        .fold(0.0, f64::max);
    assert!(off > 1e-5, "deviation from the linear motion {off:e}");
}

/// Max |difference| over all columns, the (events, regimes) of the run, and
/// the number of spring forces turning on or off between SciPy's samples.
fn compare_series(name: &str, s: &GapSystem) -> (f64, usize, usize, usize) {
    let (header, rows) = read_csv(name);
    let n = s.dofs();
    let m = s.springs.len();
    assert_eq!(header.len(), 1 + 2 * n + m);
    assert_eq!(rows.len(), 1001);
    let times: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    let traj = simulate(
        s,
        &vec![0.0; n],
        &vec![0.0; n],
        &times,
        &EventDrivenOptions::default(),
    )
    .unwrap();
    let mut worst: f64 = 0.0;
    for (k, row) in rows.iter().enumerate() {
        let ours = traj.x[k].iter().chain(&traj.v[k]).chain(&traj.f[k]);
        for (a, b) in ours.zip(&row[1..]) {
            worst = worst.max((a - b).abs());
        }
    }
    // every switch shows in SciPy's samples as a force turning on or off (no engagement here lasts under 0.1 s)
    let on = |k: usize, j: usize| rows[k][1 + 2 * n + j] > 0.0;
    let switches = (1..rows.len())
        .map(|k| (0..m).filter(|&j| on(k, j) != on(k - 1, j)).count())
        .sum::<usize>();
    (worst, traj.events, traj.regimes, switches)
}

/// Switches in 0..100 s (snapshot of the solver statistics).
const SDOF_EVENTS: usize = 26;
/// Distinct active sets met by the 3-DOF run (of 2^3).
const THREE_DOF_REGIMES: usize = 6;

#[test]
fn sdof_time_series_matches_scipy() {
    let s = sdof(0.05, 1.0, Some((0.5, 4.0)), 1.0, 0.8);
    let (worst, events, regimes, switches) = compare_series("sdof.csv", &s);
    assert_eq!(
        events, switches,
        "event-driven switches vs SciPy force on/off changes"
    );
    eprintln!(
        "sdof.csv: max |event-driven - SciPy| = {worst:e}, {events} events, {regimes} regimes"
    );
    // solver statistics snapshot: crossings of the 100 s run
    assert_eq!((events, regimes), (SDOF_EVENTS, 2));
    assert!(worst < 1e-8, "{worst:e}");
    // a perturbed gap fails the same check
    let p = sdof(0.05, 1.0, Some((0.5 * (1.0 + 1e-5), 4.0)), 1.0, 0.8);
    assert!(compare_series("sdof.csv", &p).0 > 1e-8);
}

#[test]
fn three_dof_time_series_matches_scipy() {
    let s = three_dof(true, [0.5, 0.0, 1.0]);
    let (worst, events, regimes, switches) = compare_series("three-dof.csv", &s);
    assert_eq!(
        events, switches,
        "event-driven switches vs SciPy force on/off changes"
    );
    eprintln!(
        "three-dof.csv: max |event-driven - SciPy| = {worst:e}, {events} events, {regimes} regimes"
    );
    assert_eq!((events, regimes), (94, THREE_DOF_REGIMES));
    assert!(worst < 1e-8, "{worst:e}");
    let p = three_dof(true, [0.5, 0.0, 1.0 + 1e-6]);
    assert!(compare_series("three-dof.csv", &p).0 > 1e-8);
}

#[test]
fn steady_state_equals_a_long_simulation_and_is_stable() {
    let s = sdof(0.1, 1.0, Some((0.5, 4.0)), 1.0, 0.8);
    let period = 2.0 * PI / 0.8;
    let opts = EventDrivenOptions::default();
    let orbit = steady_state(&s, &[0.0], &[0.0], 20, &opts).unwrap();
    assert!(orbit.stable, "multipliers {:?}", orbit.multipliers);
    assert!(orbit.multipliers.iter().all(|m| *m < 1.0 && *m > 0.0));
    // det of the monodromy = exp(-c T / m) (Liouville): the product of |multipliers|
    let product: f64 = orbit.multipliers.iter().product();
    assert!(
        (product - (-0.1 * period).exp()).abs() < 1e-10 * product,
        "product {product}"
    );
    let long = simulate(&s, &[0.0], &[0.0], &[300.0 * period], &opts).unwrap();
    assert!(
        (long.x[0][0] - orbit.x0[0]).abs() < 1e-9,
        "{} vs {}",
        long.x[0][0],
        orbit.x0[0]
    );
    assert!(
        (long.v[0][0] - orbit.v0[0]).abs() < 1e-9,
        "{} vs {}",
        long.v[0][0],
        orbit.v0[0]
    );
    // extrema: no sample of one period exceeds them, and the densest sample nearly reaches them
    let dense = simulate(
        &s,
        &orbit.x0,
        &orbit.v0,
        &grid(period, period / 20000.0),
        &opts,
    )
    .unwrap();
    let sampled_max = dense
        .x
        .iter()
        .map(|x| x[0])
        .fold(f64::NEG_INFINITY, f64::max);
    let sampled_min = dense.x.iter().map(|x| x[0]).fold(f64::INFINITY, f64::min);
    assert!(orbit.x_max[0] >= sampled_max - 1e-14 && orbit.x_max[0] - sampled_max < 1e-6);
    assert!(orbit.x_min[0] <= sampled_min + 1e-14 && sampled_min - orbit.x_min[0] < 1e-6);
    // periodic: one period from the orbit's state returns to it
    let back = dense.x.last().unwrap()[0] - orbit.x0[0];
    assert!(back.abs() < 1e-10, "Phi_T(z) - z = {back:e}");
    // a perturbed system gives a different orbit: the comparison can fail
    let p = sdof(0.1, 1.0, Some((0.5, 4.4)), 1.0, 0.8);
    let other = steady_state(&p, &[0.0], &[0.0], 20, &opts).unwrap();
    assert!((other.x0[0] - long.x[0][0]).abs() > 1e-4 || (other.v0[0] - long.v[0][0]).abs() > 1e-4);
}

#[test]
fn periodic_orbit_from_a_poor_guess_converges() {
    let s = three_dof(true, [0.5, 0.0, 1.0]);
    let orbit = periodic_orbit(&s, &[0.0; 3], &[0.0; 3], &EventDrivenOptions::default()).unwrap();
    let period = 2.0 * PI / 0.9;
    let after = simulate(
        &s,
        &orbit.x0,
        &orbit.v0,
        &[period],
        &EventDrivenOptions::default(),
    )
    .unwrap();
    for i in 0..3 {
        assert!(
            (after.x[0][i] - orbit.x0[i]).abs() < 1e-9
                && (after.v[0][i] - orbit.v0[i]).abs() < 1e-9
        );
        assert!(orbit.x_max[i] > orbit.x_min[i]);
    }
    assert_eq!(orbit.multipliers.len(), 6);
    assert!(orbit.newton_iterations >= 1);
}

/// Rows of an FRC file: omega, x_max, x_min, and the number of forcing periods
/// after which the settled SciPy response repeats (1 when the column is absent).
fn frc_rows(name: &str) -> Vec<(f64, f64, f64, usize)> {
    let (header, rows) = read_csv(name);
    assert_eq!(&header[..3], &["omega", "x_max", "x_min"]);
    let periods = header.iter().position(|h| h == "periods");
    rows.iter()
        .map(|r| (r[0], r[1], r[2], periods.map_or(1, |p| r[p] as usize)))
        .collect()
}

fn check_frc(name: &str, gap: f64, subharmonics: &[(f64, usize)]) {
    let rows = frc_rows(name);
    assert_eq!(rows.len(), 37);
    let opts = EventDrivenOptions::default();
    let mut worst: f64 = 0.0;
    let mut found = Vec::new();
    for (omega, x_max, x_min, periods) in rows {
        let s = sdof(0.1, 1.0, Some((gap, 4.0)), 1.0, omega);
        let orbit = if periods == 1 {
            steady_state(&s, &[0.0], &[0.0], 60, &opts)
        } else {
            found.push((omega, periods));
            // settle from rest like SciPy, then shoot on the k T map from there
            let settled = simulate(&s, &[0.0], &[0.0], &[60.0 * 2.0 * PI / omega], &opts).unwrap();
            subharmonic_orbit(&s, &settled.x[0], &settled.v[0], periods, &opts)
        };
        let orbit = orbit.unwrap_or_else(|e| panic!("omega = {omega}: {e}"));
        assert_eq!(orbit.periods, periods);
        assert!(
            orbit.stable,
            "omega = {omega}: SciPy settled on this {periods}T orbit, multipliers {:?}",
            orbit.multipliers
        );
        let diff = (orbit.x_max[0] - x_max)
            .abs()
            .max((orbit.x_min[0] - x_min).abs());
        assert!(
            diff < 1e-7,
            "{name}, omega = {omega} ({periods}T): x_max {} vs {x_max}, x_min {} vs {x_min}",
            orbit.x_max[0],
            orbit.x_min[0]
        );
        worst = worst.max(diff);
    }
    eprintln!("{name}: max |event-driven - SciPy| = {worst:e}, subharmonic rows {found:?}");
    // the file's subharmonic rows are the ones this test knows about (it fails when they change)
    let expected: Vec<(f64, usize)> = subharmonics.to_vec();
    let found_rounded: Vec<(f64, usize)> = found
        .iter()
        .map(|(w, k)| ((w * 100.0).round() / 100.0, *k))
        .collect();
    assert_eq!(found_rounded, expected);
}

#[test]
fn frc_matches_scipy() {
    check_frc("sdof-frc.csv", 0.5, &[]);
}

#[test]
fn zero_gap_frc_matches_scipy() {
    // the bilinear oscillator settles from rest on 4T, 2T and 3T responses at these omegas
    check_frc(
        "sdof-frc-zero-gap.csv",
        0.0,
        &[(0.85, 4), (0.9, 2), (2.05, 3)],
    );
}

#[test]
fn subharmonic_response_is_not_t_periodic() {
    // bilinear oscillator at omega = 0.9: the T-periodic orbit is unstable, the 2T one is the attractor
    let s = sdof(0.1, 1.0, Some((0.0, 4.0)), 1.0, 0.9);
    let opts = EventDrivenOptions::default();
    let t_orbit = steady_state(&s, &[0.0], &[0.0], 60, &opts).unwrap();
    assert!(
        !t_orbit.stable && t_orbit.multipliers[0] > 1.05,
        "{:?}",
        t_orbit.multipliers
    );
    let settled = simulate(&s, &[0.0], &[0.0], &[60.0 * 2.0 * PI / 0.9], &opts).unwrap();
    let two = subharmonic_orbit(&s, &settled.x[0], &settled.v[0], 2, &opts).unwrap();
    assert!(two.stable);
    let period = 2.0 * PI / 0.9;
    let after = simulate(&s, &two.x0, &two.v0, &[period, 2.0 * period], &opts).unwrap();
    assert!((after.x[1][0] - two.x0[0]).abs() < 1e-9, "returns after 2T");
    assert!((after.x[0][0] - two.x0[0]).abs() > 0.1, "but not after T");
    assert!((two.x_max[0] - t_orbit.x_max[0]).abs() > 1e-3);
}

#[test]
fn sdof_over_600_s_is_fast() {
    let s = sdof(0.05, 1.0, Some((0.5, 4.0)), 1.0, 0.8);
    let times = grid(600.0, 0.1);
    let start = Instant::now();
    let traj = simulate(&s, &[0.0], &[0.0], &times, &EventDrivenOptions::default()).unwrap();
    let wall = start.elapsed().as_secs_f64();
    eprintln!(
        "SDOF t = 0..600, 6001 outputs: {wall:.4} s, {} events",
        traj.events
    );
    let start = Instant::now();
    let end = simulate(&s, &[0.0], &[0.0], &[600.0], &EventDrivenOptions::default()).unwrap();
    eprintln!(
        "SDOF t = 0..600, final state only: {:.4} s",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(end.x[0], *traj.x.last().unwrap());
    assert!(wall < 1.0, "{wall} s");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let s = sdof(0.05, 1.0, Some((0.5, 4.0)), 1.0, 0.8);
    let opts = EventDrivenOptions::default();
    assert!(simulate(&s, &[0.0, 1.0], &[0.0], &[1.0], &opts).is_err());
    assert!(simulate(&s, &[f64::NAN], &[0.0], &[1.0], &opts).is_err());
    assert!(simulate(&s, &[0.0], &[0.0], &[2.0, 1.0], &opts).is_err());
    assert!(
        simulate(
            &s,
            &[0.0],
            &[0.0],
            &[1.0],
            &EventDrivenOptions {
                samples_per_period: 1,
                ..Default::default()
            }
        )
        .is_err()
    );
    let mut singular = s.clone();
    singular.mass = csr_from_rows(&[vec![0.0]]);
    assert!(simulate(&singular, &[0.0], &[0.0], &[1.0], &opts).is_err());
    let still = sdof(0.05, 1.0, Some((0.5, 4.0)), 1.0, 0.0);
    assert!(periodic_orbit(&still, &[0.0], &[0.0], &opts).is_err());
    assert!(steady_state(&s, &[0.0], &[0.0, 0.0], 3, &opts).is_err());
    assert!(simulate(&s, &[0.0], &[0.0], &[], &opts).is_ok_and(|t| t.t.is_empty()));
}
