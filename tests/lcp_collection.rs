//! The LCP test matrix: every solver on every file of the Siconos collection
//! (reference-data/lcp/*.dat), with expected failures declared by file and
//! solver name and a reason; plus random problem families, Murty's
//! exponential example and a check that the grading can fail.
//!
//! Solutions are verified independently of the solvers' own residual:
//! z >= -eps, w = M z + q >= -eps and |z_i w_i| <= eps (scaled), and the
//! shared residual <= 1e-10.

use contact_harness::lcp::lemke::{LemkeParams, lemke};
use contact_harness::lcp::{
    Lcp, LcpOptions, LcpSolverKind, LcpStatus, murty, murty_degenerate, read_siconos_file, solve,
};
use nalgebra::{DMatrix, DVector};
use std::path::{Path, PathBuf};

/// Residual a solution must reach in these tests.
const RESIDUAL_TOL: f64 = 1e-10;

/// (file, solver, reason): pairs that are expected not to return `Solved`.
const EXPECTED_FAILURES: &[(&str, &str, &str)] = &[
    (
        "lcp_CPS_2.dat",
        "pgs",
        "zero diagonal (M_11 = 0): PGS undefined",
    ),
    (
        "lcp_CPS_2.dat",
        "newton-min",
        "the min-Jacobian is singular at z = 0 and the min merit has a non-solution \
         stationary point; 200 steps end at residual 0.085 (FB solves it)",
    ),
    (
        "lcp_CPS_3.dat",
        "lemke",
        "bimatrix game: Lemke with d = e ray-terminates at pivot 1 (as in Siconos)",
    ),
    (
        "lcp_CPS_3.dat",
        "pgs",
        "bimatrix game: zero diagonal, PGS undefined",
    ),
    (
        "lcp_CPS_4.dat",
        "pgs",
        "QP KKT matrix: M_44 = 0, PGS undefined",
    ),
    (
        "lcp_CPS_4.dat",
        "newton-min",
        "QP KKT matrix: the min-Jacobian at z = 0 has a zero column; Armijo on the \
         nonsmooth min merit stalls at residual 0.042",
    ),
    (
        "lcp_CPS_4bis.dat",
        "pgs",
        "QP KKT matrix: M_44 = 0, PGS undefined",
    ),
    (
        "lcp_CPS_4bis.dat",
        "newton-min",
        "QP KKT matrix: as lcp_CPS_4, the min-merit line search stalls at residual 0.040",
    ),
    (
        "lcp_Pang_isolated_sol.dat",
        "pgs",
        "zero diagonal: PGS undefined",
    ),
    ("lcp_enum_fails.dat", "pgs", "M_33 = 0: PGS undefined"),
    (
        "lcp_inf_sol_perturbed.dat",
        "pgs",
        "zero diagonal: PGS undefined",
    ),
    (
        "lcp_tobenna.dat",
        "pgs",
        "M_33,33 = 0 (zero blocks): PGS undefined",
    ),
    (
        "lcp_tobenna.dat",
        "newton-min",
        "nonsymmetric, not P0: the merit has a non-solution stationary point (residual 0.447)",
    ),
    (
        "lcp_tobenna.dat",
        "newton-fb",
        "nonsymmetric, not P0: FB stationary points need not solve it (residual 0.447)",
    ),
    (
        "lcp_tobenna.dat",
        "enumerate",
        "n = 40 exceeds the enumeration limit 30",
    ),
];

/// Files without a solution: `auto` and `enumerate` must prove it, and no
/// solver may claim `Solved`.
const INFEASIBLE: &[&str] = &["lcp_Pang_isolated_sol_perturbed.dat"];

fn collection() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-data/lcp");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("reference-data/lcp exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// Independent check of a claimed solution; `Err` says what is wrong.
fn verify(lcp: &Lcp, z: &[f64]) -> Result<(), String> {
    let n = lcp.dim();
    if z.len() != n {
        return Err(format!("z has length {}, expected {n}", z.len()));
    }
    let zv = DVector::from_column_slice(z);
    let w = &lcp.m * &zv + &lcp.q;
    let z_scale = zv.amax().max(1.0);
    let w_scale = lcp.q.amax().max(lcp.m.amax() * zv.amax()).max(1e-300);
    let eps = 1e-9;
    for i in 0..n {
        if !z[i].is_finite() || !w[i].is_finite() {
            return Err(format!("non-finite z[{i}] = {} or w[{i}] = {}", z[i], w[i]));
        }
        if z[i] < -eps * z_scale {
            return Err(format!("z[{i}] = {:e} < 0", z[i]));
        }
        if w[i] < -eps * w_scale {
            return Err(format!("w[{i}] = {:e} < 0", w[i]));
        }
        if (z[i] * w[i]).abs() > eps * z_scale * w_scale {
            return Err(format!("z[{i}] w[{i}] = {:e} != 0", z[i] * w[i]));
        }
    }
    let r = lcp.residual(z);
    // A NaN residual fails too.
    if r.is_nan() || r > RESIDUAL_TOL {
        return Err(format!("residual {r:e} > {RESIDUAL_TOL:e}"));
    }
    Ok(())
}

#[test]
fn every_solver_on_every_file() {
    let files = collection();
    assert_eq!(files.len(), 18, "the collection has 18 files");
    let options = LcpOptions::default();
    let mut problems = Vec::new();
    let mut seen_failures = Vec::new();
    println!(
        "{:<38} {:<11} {:<11} {:>10} {:>7}  solver",
        "file", "kind", "status", "residual", "iter"
    );
    for path in &files {
        let name = file_name(path);
        let lcp = read_siconos_file(path).expect("collection files parse");
        for kind in LcpSolverKind::ALL {
            let s = solve(&lcp, kind, &options, None);
            println!(
                "{name:<38} {:<11} {:<11} {:>10.2e} {:>7}  {}{}",
                kind.name(),
                s.status.as_str(),
                s.residual,
                s.iterations,
                s.solver,
                s.message
                    .as_ref()
                    .map(|m| format!("  [{m}]"))
                    .unwrap_or_default()
            );
            assert_eq!(
                s.residual.to_bits(),
                lcp.residual(&s.z).to_bits(),
                "{name} {kind}: residual is lcp.residual(z)"
            );
            let expected_failure = EXPECTED_FAILURES
                .iter()
                .find(|(f, k, _)| *f == name && *k == kind.name());
            if INFEASIBLE.contains(&name.as_str()) {
                if s.status == LcpStatus::Solved {
                    problems.push(format!(
                        "{name} {kind}: claims Solved on an infeasible problem"
                    ));
                }
                if matches!(kind, LcpSolverKind::Auto | LcpSolverKind::Enumerate)
                    && s.status != LcpStatus::Infeasible
                {
                    problems.push(format!("{name} {kind}: {} instead of infeasible", s.status));
                }
            } else if let Some((_, _, reason)) = expected_failure {
                seen_failures.push((name.clone(), kind.name()));
                if s.status == LcpStatus::Solved {
                    problems.push(format!(
                        "{name} {kind}: declared expected failure ({reason}) but it solved: update the table"
                    ));
                }
                if s.status == LcpStatus::Infeasible {
                    problems.push(format!(
                        "{name} {kind}: claims infeasible on a solvable problem"
                    ));
                }
            } else if s.status != LcpStatus::Solved {
                problems.push(format!("{name} {kind}: {} ({:?})", s.status, s.message));
            } else if let Err(e) = verify(&lcp, &s.z) {
                problems.push(format!("{name} {kind}: solved but {e}"));
            }
        }
    }
    for (file, solver, _) in EXPECTED_FAILURES {
        assert!(
            seen_failures.iter().any(|(f, k)| f == file && k == solver),
            "expected failure ({file}, {solver}) names no file/solver of the collection"
        );
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn auto_solves_every_feasible_file() {
    for path in collection() {
        let name = file_name(&path);
        if INFEASIBLE.contains(&name.as_str()) {
            continue;
        }
        let lcp = read_siconos_file(&path).unwrap();
        let s = solve(&lcp, LcpSolverKind::Auto, &LcpOptions::default(), None);
        assert_eq!(s.status, LcpStatus::Solved, "{name}: {s:?}");
        verify(&lcp, &s.z).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn a_perturbed_solution_is_rejected() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-data/lcp/lcp_deudeu.dat");
    let lcp = read_siconos_file(&path).unwrap();
    let s = solve(&lcp, LcpSolverKind::Lemke, &LcpOptions::default(), None);
    verify(&lcp, &s.z).unwrap();
    let mut z = s.z.clone();
    z[0] += 1e-3;
    assert!(
        lcp.residual(&z) > RESIDUAL_TOL,
        "residual {}",
        lcp.residual(&z)
    );
    assert!(verify(&lcp, &z).is_err());
    // The shared grading says Failed for the same point.
    let graded = solve(
        &lcp,
        LcpSolverKind::Pgs,
        &LcpOptions {
            max_iterations: Some(0),
            ..LcpOptions::default()
        },
        Some(&z),
    );
    assert_eq!(graded.status, LcpStatus::Failed);
}

#[test]
fn murty_files_match_the_generators() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-data/lcp");
    assert_eq!(
        read_siconos_file(&dir.join("lcp_exp_murty2.dat")).unwrap(),
        murty(6)
    );
    assert_eq!(
        read_siconos_file(&dir.join("lcp_exp_murty.dat")).unwrap(),
        murty_degenerate(6)
    );
}

#[test]
fn murty_needs_exponentially_many_lemke_pivots() {
    for n in 1..=12 {
        let lcp = murty(n);
        let s = solve(
            &lcp,
            LcpSolverKind::Lemke,
            &LcpOptions {
                max_iterations: Some(1 << 13),
                ..LcpOptions::default()
            },
            None,
        );
        assert_eq!(s.status, LcpStatus::Solved, "n = {n}");
        // The entry of z0 plus 2^n - 1 complementary pivots.
        assert_eq!(s.iterations, 1 << n, "n = {n}");
    }
}

/// xorshift64* (Vigna 2016): deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn matrix(&mut self, rows: usize, cols: usize) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |_, _| self.uniform(-1.0, 1.0))
    }
    fn vector(&mut self, n: usize) -> DVector<f64> {
        DVector::from_fn(n, |_, _| self.uniform(-1.0, 1.0))
    }
}

/// A = I + W K with W = B B^T / n (SPD) and K diagonal positive: the
/// structure of the gap-system step LCP (a nonsymmetric P-matrix).
fn i_plus_wk(rng: &mut Rng, n: usize) -> DMatrix<f64> {
    let b = rng.matrix(n, n);
    let w = &b * b.transpose() / n as f64;
    let k = DVector::from_fn(n, |_, _| rng.uniform(0.5, 5.0));
    let mut a = w;
    for j in 0..n {
        for i in 0..n {
            a[(i, j)] *= k[j];
        }
        a[(j, j)] += 1.0;
    }
    a
}

fn assert_solves(lcp: &Lcp, kinds: &[LcpSolverKind], what: &str) {
    for &kind in kinds {
        let s = solve(lcp, kind, &LcpOptions::default(), None);
        assert_eq!(
            s.status,
            LcpStatus::Solved,
            "{what} {kind}: {:?}",
            s.message
        );
        verify(lcp, &s.z).unwrap_or_else(|e| panic!("{what} {kind}: {e}"));
    }
}

#[test]
fn random_spd_p_matrices_are_solved_by_every_solver() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (trial, n) in [3, 5, 8, 12, 20, 40, 80].into_iter().enumerate() {
        let b = rng.matrix(n, n);
        let m = &b * b.transpose() + DMatrix::identity(n, n);
        let lcp = Lcp::new(m, rng.vector(n)).unwrap();
        let mut kinds = vec![
            LcpSolverKind::Lemke,
            LcpSolverKind::Pgs,
            LcpSolverKind::NewtonMin,
            LcpSolverKind::NewtonFb,
            LcpSolverKind::Auto,
        ];
        if n <= 12 {
            kinds.push(LcpSolverKind::Enumerate);
        }
        assert_solves(&lcp, &kinds, &format!("B B^T + I trial {trial} n = {n}"));
    }
}

#[test]
fn random_nonsymmetric_p_matrices_i_plus_wk_are_solved() {
    let mut rng = Rng(12345);
    for (trial, n) in [4, 10, 30, 100, 200].into_iter().enumerate() {
        let lcp = Lcp::new(i_plus_wk(&mut rng, n), rng.vector(n)).unwrap();
        let kinds = [
            LcpSolverKind::Lemke,
            LcpSolverKind::NewtonMin,
            LcpSolverKind::NewtonFb,
            LcpSolverKind::Auto,
        ];
        assert_solves(&lcp, &kinds, &format!("I + WK trial {trial} n = {n}"));
        // The unique solution: every solver finds the same z.
        let a = solve(&lcp, LcpSolverKind::Lemke, &LcpOptions::default(), None);
        let b = solve(&lcp, LcpSolverKind::NewtonMin, &LcpOptions::default(), None);
        for (x, y) in a.z.iter().zip(&b.z) {
            assert!(
                (x - y).abs() <= 1e-9 * (1.0 + x.abs()),
                "trial {trial}: {x} vs {y}"
            );
        }
    }
}

#[test]
fn degenerate_integer_p_matrices_are_solved_by_lexicographic_lemke() {
    // Integer data make ties exact: q in {-1, 0} and M = B B^T + I with B in
    // {-1, 0, 1}; every ratio test at z0's entry ties, many later ones too.
    let mut rng = Rng(31337);
    for (trial, n) in [4, 6, 10, 16, 30, 60].into_iter().enumerate() {
        let b = DMatrix::from_fn(n, n, |_, _| rng.uniform(-1.0, 2.0).floor());
        let m = &b * b.transpose() + DMatrix::identity(n, n);
        let q = DVector::from_fn(n, |_, _| -(rng.uniform(0.0, 2.0).floor()));
        let lcp = Lcp::new(m, q).unwrap();
        let info = lemke(&lcp, &LemkeParams::default())
            .unwrap_or_else(|e| panic!("trial {trial} n = {n}: {e}"));
        verify(&lcp, &info.z).unwrap_or_else(|e| panic!("trial {trial} n = {n}: {e}"));
        // The solution of a P-matrix LCP is unique: PGS agrees.
        let p = solve(&lcp, LcpSolverKind::Pgs, &LcpOptions::default(), None);
        for (x, y) in info.z.iter().zip(&p.z) {
            assert!(
                (x - y).abs() <= 1e-8 * (1.0 + x.abs()),
                "trial {trial}: {x} vs {y}"
            );
        }
    }
}

#[test]
fn random_psd_problems_with_an_empty_feasible_set_are_infeasible() {
    let mut rng = Rng(777);
    for (trial, n) in [2, 3, 5, 8, 12, 40].into_iter().enumerate() {
        // y > 0 with M^T y = 0 and y . q < 0 certifies (Farkas) that
        // {z >= 0 : M z + q >= 0} is empty.
        let y = DVector::from_fn(n, |_, _| rng.uniform(0.1, 1.0));
        let p = DMatrix::identity(n, n) - &y * y.transpose() / y.norm_squared();
        let b = rng.matrix(n, n);
        let c = rng.matrix(n, n);
        let m = &p * (&b * b.transpose() + &c - c.transpose()) * &p;
        let mut q = rng.vector(n);
        q -= &y * ((y.dot(&q) + 1.0) / y.norm_squared());
        assert!(y.dot(&q) < 0.0 && (m.transpose() * &y).amax() < 1e-12);
        let lcp = Lcp::new(m, q).unwrap();
        for kind in LcpSolverKind::ALL {
            let s = solve(&lcp, kind, &LcpOptions::default(), None);
            assert_ne!(s.status, LcpStatus::Solved, "trial {trial} {kind}");
        }
        let s = solve(&lcp, LcpSolverKind::Auto, &LcpOptions::default(), None);
        assert_eq!(
            s.status,
            LcpStatus::Infeasible,
            "trial {trial} n = {n}: {:?}",
            s.message
        );
        assert_eq!(s.solver, "auto(lemke)", "the PSD ray certificate");
        if n <= 12 {
            let s = solve(&lcp, LcpSolverKind::Enumerate, &LcpOptions::default(), None);
            assert_eq!(s.status, LcpStatus::Infeasible, "trial {trial} n = {n}");
        }
    }
}

/// Brute force for nondegenerate M (every principal minor nonzero): a
/// solution with support alpha solves M_aa z_a = -q_a, so trying the 2^n
/// supports decides solvability. `None` when some principal minor is ~0.
fn brute_force_solvable(lcp: &Lcp) -> Option<bool> {
    let n = lcp.dim();
    let mut solvable = false;
    for mask in 0u32..(1 << n) {
        let alpha: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let mut z = DVector::zeros(n);
        if !alpha.is_empty() {
            let k = alpha.len();
            let a = DMatrix::from_fn(k, k, |i, j| lcp.m[(alpha[i], alpha[j])]);
            if a.determinant().abs() < 1e-9 {
                return None;
            }
            let rhs = DVector::from_fn(k, |i, _| -lcp.q[alpha[i]]);
            let za = a.lu().solve(&rhs)?;
            for (i, &ai) in alpha.iter().enumerate() {
                z[ai] = za[i];
            }
        }
        let w = &lcp.m * &z + &lcp.q;
        if z.iter().all(|&v| v >= -1e-12) && w.iter().all(|&v| v >= -1e-12) {
            solvable = true;
        }
    }
    Some(solvable)
}

#[test]
fn random_small_general_problems_auto_and_enumerate_agree() {
    let mut rng = Rng(2024);
    let mut counts = [0usize; 3];
    for trial in 0..400 {
        let n = 2 + trial % 5;
        let m = DMatrix::from_fn(n, n, |_, _| (rng.uniform(-3.0, 4.0)).floor());
        let q = DVector::from_fn(n, |_, _| (rng.uniform(-3.0, 4.0)).floor());
        let lcp = Lcp::new(m, q).unwrap();
        let a = solve(&lcp, LcpSolverKind::Auto, &LcpOptions::default(), None);
        let e = solve(&lcp, LcpSolverKind::Enumerate, &LcpOptions::default(), None);
        let what = format!("trial {trial}: M = {} q = {}", lcp.m, lcp.q.transpose());
        assert_ne!(
            a.status,
            LcpStatus::Failed,
            "{what} auto failed: {:?}",
            a.message
        );
        assert_ne!(
            e.status,
            LcpStatus::Failed,
            "{what} enumerate failed: {:?}",
            e.message
        );
        assert_eq!(a.status, e.status, "{what}");
        for s in [&a, &e] {
            if s.status == LcpStatus::Solved {
                verify(&lcp, &s.z).unwrap_or_else(|err| panic!("{what} {}: {err}", s.solver));
            }
        }
        if let Some(solvable) = brute_force_solvable(&lcp) {
            assert_eq!(
                solvable,
                e.status == LcpStatus::Solved,
                "{what}: brute force disagrees"
            );
            counts[2] += 1;
        }
        counts[usize::from(e.status == LcpStatus::Infeasible)] += 1;
    }
    // Both outcomes occur, and most draws were cross-checked by brute force.
    assert!(
        counts[0] > 50 && counts[1] > 20,
        "solved/infeasible = {counts:?}"
    );
    assert!(counts[2] > 100, "brute-force checks {}", counts[2]);
}
