//! The `valve-spring` kind through the command line: bad keys exit 2 with a
//! message naming the file, study, key, value and what is allowed (nothing
//! written); spring geometries unlike the repository's give the rate
//! G d^4 / (8 D^3 n_a) and the chain's and the continuous spring's first
//! frequencies by their formulas, computed here independently.

use std::f64::consts::PI;
use std::path::Path;

mod common;
use common::{run_spec, stderr};

const SPEC: &str = r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 8
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-5
t_end = 1.0e-4
output_interval = 1.0e-5
[study.reference]
method = "none"
[study.analysis]
error_window = 1.0e-5
"#;

#[test]
fn bad_valve_spring_keys_exit_2_naming_the_key() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "wire_diameter = 4.0e-3",
            "wire_diameter = -4.0e-3",
            &["study.spring.wire_diameter", "> 0"],
        ),
        (
            "mean_diameter = 24.0e-3",
            "mean_diameter = 3.0e-3",
            &["study.spring.mean_diameter", "> wire_diameter"],
        ),
        (
            "masses_per_coil = 8",
            "masses_per_coil = 0",
            &["study.spring.masses_per_coil", "1..=1000"],
        ),
        (
            "masses_per_coil = 8",
            "masses_per_coil = 3",
            &["study.spring", "whole number"],
        ),
        (
            "end_coils = 2",
            "end_coils = -2",
            &["study.spring.end_coils", ">= 0"],
        ),
        (
            "density = 7850.0",
            "density = 7850.0\nfree_length = 0.029\ninstalled_length = 0.028",
            &["study.spring", "gap"],
        ),
        (
            "density = 7850.0",
            "density = 7850.0\nprogressivity = 1.0",
            &["study.spring.progressivity", "[0, 1)"],
        ),
        (
            "density = 7850.0",
            "density = 7850.0\ninstalled_length = 0.05",
            &["study.spring.installed_length", "<= free_length"],
        ),
        (
            "error_window = 1.0e-5",
            "error_window = 1.0e-5\n[study.cam]\nlift = 0.02",
            &["study.cam.lift", "solid"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"euler\"",
            &["study.integrator.method", "euler", "\"ncp-bdf\""],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"ncp-bdf\"\npenalty_stiffness = 1e8",
            &["study.integrator.penalty_stiffness", "no calibration"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-bdf\"",
            &["study.integrator.penalty_stiffness", "k_p"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"ncp-bdf\"\norder = 3",
            &["study.integrator.order", "1 or 2"],
        ),
        (
            "t_end = 1.0e-4",
            "t_end = 1.0e-4\nmax_steps = 2",
            &["study.integrator.dt", "max_steps = 2"],
        ),
        (
            "method = \"none\"",
            "method = \"exact\"",
            &["study.reference.method", "\"ncp-fine\""],
        ),
        (
            "error_window = 1.0e-5",
            "error_window = 1.5e-5",
            &["study.analysis.error_window", "whole multiple"],
        ),
        (
            "error_window = 1.0e-5",
            "error_window = 1.0e-5\n[study.statics]\nreference = \"missing.csv\"",
            &["study.statics.reference", "missing.csv"],
        ),
        (
            "error_window = 1.0e-5",
            "error_window = 1.0e-5\n[study.variants.fast]\nmethod = \"ncp-bdf\"\nt_end = 1.0",
            &["study.variants.fast.t_end", "the case's"],
        ),
        // The penalty model on diffsol: its own error control and order.
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-bdf\"\npenalty_stiffness = 1e8\nadaptive = false",
            &["study.integrator.adaptive", "diffsol controls"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-sdirk\"\npenalty_stiffness = 1e8\norder = 2",
            &["study.integrator.order", "no `order`"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-bdf\"",
            &["study.integrator.penalty_stiffness", "k_p"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-bdf\"\npenalty_stiffness = -1e8",
            &["study.integrator.penalty_stiffness", "> 0"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-sdirk\"\npenalty_stiffness = 1e8\ntolerance = 2.0",
            &["study.integrator.tolerance"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-bdf\"\npenalty_stiffness = 1e8\nncp_constant = 1e8",
            &["study.integrator.ncp_constant", "penalty-diffsol-bdf"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-rk\"",
            &["study.integrator.method", "\"penalty-diffsol-sdirk\""],
        ),
        // Peers: one table or an array of tables.
        (
            "error_window = 1.0e-5",
            "error_window = 1.0e-5\n[[study.peer]]\nfile = \"missing.csv\"\ncost = \"missing-cost.csv\"",
            &["study.peer[0].file", "missing.csv"],
        ),
        (
            "error_window = 1.0e-5",
            "error_window = 1.0e-5\n[[study.peer]]\nfiles = \"a.csv\"",
            &["study.peer[0]", "files"],
        ),
    ];
    common::assert_input_errors(SPEC, "spring", cases);
}

/// (rate, f1_hz, f1_chain_hz, f1_continuous_hz) of the case's summary row.
fn frequencies(dir: &Path) -> (f64, f64, f64, f64) {
    let text = std::fs::read_to_string(dir.join("out/spring/summary.csv")).expect("summary");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let row: Vec<&str> = lines.next().expect("row").split(',').collect();
    let get = |name: &str| -> f64 {
        let i = header.iter().position(|h| *h == name).expect(name);
        row[i].parse().expect("number")
    };
    (
        get("rate"),
        get("f1_hz"),
        get("f1_chain_hz"),
        get("f1_continuous_hz"),
    )
}

/// (d, D, n_a, n_e, G, rho, M, L0, L_inst).
type Geometry = (f64, f64, f64, f64, f64, f64, usize, f64, f64);

#[test]
fn other_springs_have_the_rate_and_frequencies_of_the_formulas() {
    // (d, D, n_a, n_e, G, rho, M, L0, L_inst)
    let springs: [Geometry; 2] = [
        (
            3.0e-3, 20.0e-3, 6.0, 2.0, 79.3e9, 7850.0, 6, 45.0e-3, 40.0e-3,
        ),
        (
            5.0e-3, 38.0e-3, 3.5, 2.0, 80.0e9, 7800.0, 10, 48.0e-3, 44.0e-3,
        ),
    ];
    for (d, dm, na, ne, g, rho, m, l0, li) in springs {
        let spec = format!(
            r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = {d:e}
mean_diameter = {dm:e}
active_coils = {na:?}
end_coils = {ne:?}
shear_modulus = {g:e}
density = {rho:?}
masses_per_coil = {m}
free_length = {l0:e}
installed_length = {li:e}
[study.cam]
lift = 4.0e-3
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-5
t_end = 1.0e-4
output_interval = 1.0e-5
[study.reference]
method = "none"
[study.analysis]
error_window = 1.0e-5
"#
        );
        let (dir, out) = run_spec(&spec);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let (rate, f1, chain, continuous) = frequencies(dir.path());
        let k = g * d.powi(4) / (8.0 * dm.powi(3) * na);
        assert!((rate - k).abs() < 1e-9 * k, "rate {rate} vs {k}");
        let m_coil = rho * PI * d * d / 4.0 * PI * dm;
        let surge = 0.5 * (k / (na * m_coil)).sqrt();
        assert!(
            (continuous - surge).abs() < 1e-9 * surge,
            "{continuous} vs {surge}"
        );
        let n_a = na * m as f64;
        let ks = k * n_a;
        let w1 = 2.0 * (ks / (m_coil / m as f64)).sqrt() * (PI / (2.0 * n_a)).sin() / (2.0 * PI);
        assert!((chain - w1).abs() < 1e-9 * w1, "{chain} vs {w1}");
        assert!((f1 - w1).abs() < 1e-9 * w1, "eigenvalue {f1} vs {w1}");
        let lead = (PI / n_a).powi(2) / 24.0;
        let gap = (surge - f1) / surge;
        assert!(
            gap > 0.9 * lead && gap < lead,
            "gap {gap} vs (pi/N_a)^2/24 = {lead}"
        );
    }
}

/// Like for like: a penalty method's accuracy is measured against the
/// converged run of its own model, the model gap against the NCP one
/// separately. A soft penalty (k_p = 1e6) run at the reference's own
/// tolerance has a discretisation error far below its model gap, and its
/// error against the NCP reference is the model gap (discretisation error
/// aside).
#[test]
fn penalty_errors_are_measured_against_their_own_model() {
    let spec = r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 4
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
cam_speed = 40.0
[study.integrator]
method = "penalty-bdf"
penalty_stiffness = 1.0e6
dt = 1.0e-6
tolerance = 1.0e-7
t_end = 6.0e-3
output_interval = 2.5e-5
[study.reference]
dt = 1.0e-6
penalty_tolerance = 1.0e-7
"#;
    let (dir, out) = run_spec(spec);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let summary =
        std::fs::read_to_string(dir.path().join("out/spring/summary.csv")).expect("summary");
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let row: Vec<&str> = lines.next().expect("row").split(',').collect();
    let value = |name: &str| -> f64 {
        let i = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name}"));
        row[i].parse().expect("number")
    };
    let (own, gap, vs_ncp) = (
        value("max_error_seat_force"),
        value("model_gap_seat_force"),
        value("error_vs_ncp_seat_force"),
    );
    // (The two runs differ only in their first step: 1e-6 against 1e-7 s.)
    assert!(own < 1e-3 * gap, "own {own} gap {gap}");
    assert!(gap > 1.0, "a soft penalty is far from the NCP model: {gap}");
    assert!(
        (vs_ncp - gap).abs() <= own + 1e-9 * gap,
        "{vs_ncp} {gap} {own}"
    );
    assert!(
        dir.path()
            .join("out/spring/spring.reference-penalty-bdf.csv")
            .exists(),
        "the penalty reference table is written"
    );
}

/// The penalty model on diffsol (`penalty-diffsol-bdf`, `-sdirk`) is
/// measured against the same converged reference as `penalty-bdf` (one
/// table per contact model: this crate's adaptive BDF2 at the reference
/// tolerance) and agrees with it within what its tolerance admits: the
/// window-mean seat-force error at most 100 x tol x the peak seat force
/// (the harness's rule for a resolved run, `UNRESOLVED_PER_TOLERANCE`),
/// falling as the tolerance is tightened; its counters are written.
#[test]
fn diffsol_penalty_agrees_with_the_converged_penalty_reference() {
    let spec = r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 4
[study.integrator]
method = "penalty-bdf"
penalty_stiffness = 1.0e7
dt = 1.0e-6
tolerance = 1.0e-4
t_end = 6.0e-3
output_interval = 2.5e-5
[study.reference]
dt = 1.0e-6
penalty_tolerance = 1.0e-9
[study.variants.penalty-diffsol-bdf]
method = "penalty-diffsol-bdf"
[study.variants.penalty-diffsol-sdirk]
method = "penalty-diffsol-sdirk"
[[study.sweep]]
key = "integrator.tolerance"
label = "tol"
values = [1.0e-4, 1.0e-5]
"#;
    let (dir, out) = run_spec(spec);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let summary =
        std::fs::read_to_string(dir.path().join("out/spring/summary.csv")).expect("summary");
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let value = |case: &str, method: &str, name: &str| -> f64 {
        let r = rows
            .iter()
            .find(|r| r[col("case")] == case && r[col("method")] == method)
            .unwrap_or_else(|| panic!("{case} {method}"));
        r[col(name)].parse().expect("number")
    };
    // (Tighter tolerances reach the reference's own error, about 0.05 N
    // here; this crate's BDF2 with its step-function force quadrature errs
    // more than 100 x tol x peak: 2.2 N at tol 1e-5.)
    for method in ["penalty-diffsol-bdf", "penalty-diffsol-sdirk"] {
        let mut errors = Vec::new();
        for (case, tol) in [("tol-0.0001", 1e-4), ("tol-0.00001", 1e-5)] {
            let e = value(case, method, "max_error_seat_force");
            let peak = value(case, method, "peak_seat_force");
            println!("{method} tol {tol:e}: error {e:.3e} N, peak {peak:.1} N");
            assert!(e.is_finite() && e > 0.0, "{method} {case}: {e}");
            assert!(
                e <= 100.0 * tol * peak,
                "{method} {case}: {e} N at tol {tol:e}"
            );
            errors.push(e);
        }
        assert!(errors[1] < errors[0], "{method}: {errors:?}");
    }
    // One converged reference for the one penalty model.
    let case = dir
        .path()
        .join("out/spring/tol-0.0001.reference-penalty-bdf.csv");
    assert!(case.exists(), "the shared penalty reference is written");
    assert!(
        !dir.path()
            .join("out/spring/tol-0.0001.reference-penalty-diffsol-bdf.csv")
            .exists(),
        "no second reference of the same model"
    );
    // diffsol's counters beside the times.
    let timings = std::fs::read_to_string(dir.path().join("out/timings.csv")).expect("timings");
    let mut t = timings.lines();
    let head: Vec<&str> = t.next().expect("header").split(',').collect();
    let at = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let row = t
        .map(|l| l.split(',').collect::<Vec<&str>>())
        .find(|r| r[at("method")] == "penalty-diffsol-bdf")
        .expect("a diffsol row");
    for name in [
        "steps",
        "rhs_evaluations",
        "jacobian_products",
        "factorizations",
    ] {
        let v: f64 = row[at(name)].parse().expect(name);
        assert!(v >= 1.0, "{name} = {v}");
    }
}
