//! Lemke's method against exact solutions, ties, rays and a damaged inverse.

use super::*;
use nalgebra::{DMatrix, DVector};

fn lcp(n: usize, m_row_major: &[f64], q: &[f64]) -> Lcp {
    Lcp::new(
        DMatrix::from_row_slice(n, n, m_row_major),
        DVector::from_column_slice(q),
    )
    .unwrap()
}

#[test]
fn solves_a_2x2_positive_definite_problem() {
    // M = [[2, 1], [1, 2]], q = (-5, -6): z = (4/3, 7/3), w = 0.
    let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
    let info = lemke(&p, &LemkeParams::default()).unwrap();
    assert!((info.z[0] - 4.0 / 3.0).abs() < 1e-14, "{:?}", info.z);
    assert!((info.z[1] - 7.0 / 3.0).abs() < 1e-14, "{:?}", info.z);
    assert!(p.residual(&info.z) < 1e-15);
    assert_eq!(info.pivots, 3);
}

#[test]
fn nonnegative_q_needs_no_pivot() {
    let p = lcp(2, &[1.0, 0.0, 0.0, 1.0], &[1.0, 0.0]);
    let info = lemke(&p, &LemkeParams::default()).unwrap();
    assert_eq!(info.z, vec![0.0, 0.0]);
    assert_eq!(info.pivots, 0);
}

#[test]
fn reports_ray_termination_on_an_infeasible_problem() {
    // M = [[-1]], q = (-1): w = -z - 1 < 0 for every z >= 0.
    let p = lcp(1, &[-1.0], &[-1.0]);
    match lemke(&p, &LemkeParams::default()) {
        Err(LemkeError::RayTermination { pivots, .. }) => assert_eq!(pivots, 1),
        other => panic!("expected a ray, got {other:?}"),
    }
}

#[test]
fn rejects_a_bad_covering_vector() {
    let p = lcp(2, &[1.0, 0.0, 0.0, 1.0], &[-1.0, -1.0]);
    let params = LemkeParams {
        covering: Some(vec![1.0, 0.0]),
        ..LemkeParams::default()
    };
    assert_eq!(
        lemke(&p, &params),
        Err(LemkeError::InvalidCovering {
            index: 1,
            value: 0.0
        })
    );
    let params = LemkeParams {
        covering: Some(vec![1.0]),
        ..LemkeParams::default()
    };
    assert!(matches!(
        lemke(&p, &params),
        Err(LemkeError::CoveringLength { .. })
    ));
}

#[test]
fn another_covering_vector_gives_the_same_unique_solution() {
    let p = lcp(
        3,
        &[4.0, -1.0, 0.5, -1.0, 4.0, -1.0, 0.0, -1.0, 4.0],
        &[-1.0, 2.0, -3.0],
    );
    let a = lemke(&p, &LemkeParams::default()).unwrap();
    let params = LemkeParams {
        covering: Some(vec![1.0, 2.0, 3.0]),
        ..LemkeParams::default()
    };
    let b = lemke(&p, &params).unwrap();
    for (x, y) in a.z.iter().zip(&b.z) {
        assert!((x - y).abs() < 1e-14);
    }
    assert!(p.residual(&a.z) < 1e-15);
}

#[test]
fn degenerate_problem_terminates_with_a_solution() {
    // Every ratio ties at the first pivots (q = -e, identical rows of M).
    let p = lcp(
        3,
        &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        &[-1.0, -1.0, -1.0],
    );
    let info = lemke(&p, &LemkeParams::default()).unwrap();
    assert!(p.residual(&info.z) < 1e-15, "{:?}", info.z);
}

#[test]
fn periodic_chain_with_massive_ties_is_solved_exactly() {
    // M = I + (inverse of a periodic chain stiffness), q periodic with
    // period 3: dozens of exact ties per ratio test, resolved across many
    // blocks of the lexicographic rule (n = 200 > LEX_BLOCK columns).
    let n = 600;
    let k = nalgebra::DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
        0 => 2.5,
        1 => -1.0,
        _ => 0.0,
    });
    let m = nalgebra::DMatrix::identity(n, n) + k.try_inverse().unwrap();
    // Distinct, most negative q_i in the middle rows: their z_i enter
    // first, so the columns of R lie between tied rows, and the
    // tie-break must eliminate candidates, then read entries of H block
    // after block.
    let q = nalgebra::DVector::from_fn(n, |i, _| {
        if (n / 2..3 * n / 4).contains(&i) {
            -2.0 - 0.01 * i as f64
        } else {
            [-1.0, 0.5, -1.0, -0.2][i % 4]
        }
    });
    let p = Lcp::new(m, q).unwrap();
    let info = lemke(&p, &LemkeParams::default()).unwrap();
    assert!(
        p.residual(&info.z) < 1e-12,
        "residual {}",
        p.residual(&info.z)
    );
    // The block size of the tie-break changes the work, never the pivots:
    // blocks of 1 to 5 columns cross many block boundaries mid-tie.
    for lex_block in [1, 2, 5, 1000] {
        let other = lemke(
            &p,
            &LemkeParams {
                lex_block,
                ..LemkeParams::default()
            },
        )
        .unwrap();
        assert_eq!(other.pivots, info.pivots, "lex_block = {lex_block}");
        assert_eq!(other.z, info.z, "lex_block = {lex_block}");
    }
    // M is symmetric positive definite: the solution is unique, and the
    // projected Gauss-Seidel iteration finds it independently.
    let pgs = crate::lcp::pgs::pgs(&p, &Default::default(), None)
        .unwrap()
        .z;
    let diff = info
        .z
        .iter()
        .zip(&pgs)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-8, "Lemke and PGS differ by {diff}");
}

#[test]
fn max_pivots_is_reported() {
    let p = lcp(2, &[2.0, 1.0, 1.0, 2.0], &[-5.0, -6.0]);
    let params = LemkeParams {
        max_pivots: Some(1),
        ..LemkeParams::default()
    };
    assert!(matches!(
        lemke(&p, &params),
        Err(LemkeError::MaxPivots { pivots: 1, .. })
    ));
}

/// A long pivot sequence against exact solutions: Murty's example with
/// n = 10 takes 2^10 = 1024 pivots (every basic value and H updated by
/// rank-one formulas throughout) and its solution is z = 2^n e_n,
/// exactly; a forced refactorization at every pivot gives the same.
#[test]
fn a_thousand_pivots_end_on_the_exact_solution() {
    let n = 10;
    let p = crate::lcp::murty(n);
    let exact: Vec<f64> = (0..n)
        .map(|i| if i + 1 == n { 1024.0 } else { 0.0 })
        .collect();
    let info = lemke(&p, &LemkeParams::default()).unwrap();
    assert_eq!(info.pivots, 1024);
    assert_eq!(info.z, exact);
    let forced = lemke(
        &p,
        &LemkeParams {
            check_every: 1,
            refactor_tolerance: 0.0,
            ..LemkeParams::default()
        },
    )
    .unwrap();
    assert_eq!(forced.pivots, 1024);
    assert!(forced.refactorizations > 500, "{}", forced.refactorizations);
    assert_eq!(forced.z, exact);
}

/// A random positive definite, non-symmetric M of size 300 with a
/// constructed solution (z* >= 0, w* >= 0, z*.w* = 0, q = w* - M z*):
/// hundreds of pivots, the exact z* recovered, with or without forced
/// refactorizations.
#[test]
fn a_constructed_solution_is_recovered_after_hundreds_of_pivots() {
    let n = 300;
    let mut seed = 12345u64;
    let mut rand = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
    };
    let b = DMatrix::from_fn(n, n, |_, _| rand());
    let skew = DMatrix::from_fn(n, n, |_, _| rand());
    let m =
        &b * b.transpose() / n as f64 + DMatrix::identity(n, n) + (&skew - skew.transpose()) * 0.1;
    let z_star = DVector::from_fn(n, |i, _| {
        if i % 3 == 0 {
            1.0 + (i as f64 * 0.37).sin().abs()
        } else {
            0.0
        }
    });
    let w_star = DVector::from_fn(n, |i, _| {
        if i % 3 == 0 {
            0.0
        } else {
            0.5 + (i as f64 * 0.11).cos().abs()
        }
    });
    let q = &w_star - &m * &z_star;
    let p = Lcp::new(m, q).unwrap();
    for params in [
        LemkeParams::default(),
        LemkeParams {
            check_every: 1,
            refactor_tolerance: 0.0,
            ..LemkeParams::default()
        },
    ] {
        let info = lemke(&p, &params).unwrap();
        assert!(info.pivots >= 100, "{} pivots", info.pivots);
        let worst = info
            .z
            .iter()
            .zip(z_star.iter())
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(worst < 1e-11, "max |z - z*| = {worst}");
    }
}

/// The residual test sees a damaged H, and a refactorization repairs it.
#[test]
fn the_residual_test_detects_a_damaged_inverse() {
    let p = lcp(
        3,
        &[4.0, -1.0, 0.5, -1.0, 4.0, -1.0, 0.0, -1.0, 4.0],
        &[-1.0, -2.0, -3.0],
    );
    let d = [1.0; 3];
    let mut basis = Basis::new(p.m.as_slice(), p.q.as_slice(), &d, 32);
    basis.run(100, 1e-10).expect("solves");
    assert!(basis.k > 0);
    assert!(basis.inverse_residual() < 1e-14);
    basis.h[0] += 1e-6;
    assert!(basis.inverse_residual() > 1e-8);
    basis.refactor();
    assert!(basis.inverse_residual() < 1e-14);
    assert_eq!(basis.refactorizations, 1);
}

/// The distinct covering vector: entries in [1, 2), no two within 1e-4 of
/// each other for n = 1000 (the golden-ratio sequence's three-gap spacing).
#[test]
fn distinct_covering_entries_are_distinct_and_in_range() {
    let mut d = distinct_covering(1000);
    assert!(d.iter().all(|&x| (1.0..2.0).contains(&x)), "{d:?}");
    d.sort_by(f64::total_cmp);
    let closest = d
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    assert!(closest > 1e-4, "closest pair {closest:e}");
}
