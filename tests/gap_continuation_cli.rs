//! The gap-system continuation through the command line: hidden parameters
//! (other masses, stiffnesses, gaps, damping, one- and two-sided stops)
//! give folds where an independent harmonic-balance continuation puts them
//! (reference-data/gap-system/continuation-folds.csv, made by
//! reference-data/generate/gap_system_hb_folds.py), and the sweeps jump
//! there; perturbed runs fail the checks; bad keys exit 2.

mod common;

use std::path::Path;

use common::{assert_input_errors, check_values, run_spec, stderr};

/// The folds of `system` in the harmonic-balance file, in the order met.
fn reference_folds(system: &str) -> Vec<f64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference-data/gap-system/continuation-folds.csv");
    let text = std::fs::read_to_string(path).expect("continuation-folds.csv");
    text.lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[0] == system)
        .map(|f| f[2].parse().expect("omega"))
        .collect()
}

/// The value of column `name` in the first row of `study`'s summary.csv.
fn summary_value(dir: &Path, study: &str, name: &str) -> f64 {
    let text =
        std::fs::read_to_string(dir.join(format!("out/{study}/summary.csv"))).expect("summary.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let row: Vec<&str> = lines.next().expect("row").split(',').collect();
    let i = header.iter().position(|h| *h == name).expect("column");
    row[i].parse().unwrap_or(f64::NAN)
}

/// A continuation study of an SDOF with `gaps` (TOML of the gap tables);
/// sweeps of 21 frequencies, the step halved up to 5 times near a jump.
fn sdof_spec(name: &str, m: f64, c: f64, k: f64, gaps: &str, f: f64, range: (f64, f64)) -> String {
    format!(
        r#"
[[study]]
name = "{name}"
kind = "gap-system"
[study.system]
mass = [[{m}]]
damping = [[{c}]]
stiffness = [[{k}]]
{gaps}
[study.excitation]
amplitude = [{f}]
[study.integrator]
method = "newmark-lcp"
[study.steady_state]
settle_periods = 60
measure_periods = 1
steps_per_period = 400
[study.continuation]
omega_from = {}
omega_to = {}
sweep_points = 21
refine_jumps = 5
"#,
        range.0, range.1
    )
}

const HIDDEN_A_GAPS: &str = "[[study.system.gaps]]\ndirection = [1.0]\ngap = 0.2\nstiffness = 5.0";
const HIDDEN_B_GAPS: &str = "[[study.system.gaps]]\ndirection = [1.0]\ngap = 0.4\nstiffness = 3.0\n[[study.system.gaps]]\ndirection = [-1.0]\ngap = 0.6\nstiffness = 2.0";

/// Runs the spec with jump checks (bracket half-width (to - from) / 20 /
/// 2^6 plus the bilinear shift of the fold) and the branch check (the
/// bilinear shift of harmonics up to the third, (3 2 pi / 400)^2 / 12 =
/// 1.9e-4: near the top of hidden-b's upper branch, where the curve is
/// flat, the sweep's amplitude is 1.4e-4 above the exact one) and asserts the folds against
/// harmonic balance and the checks.
fn folds_where_harmonic_balance_puts_them(name: &str, spec: &str, range: (f64, f64)) {
    let half = (range.1 - range.0) / 20.0 / 64.0;
    let shift = (2.0 * std::f64::consts::PI / 400.0f64).powi(2) / 12.0 * range.1;
    let checks = format!(
        r#"
[[study.check]]
name = "up"
quantity = "jump_omega"
method = "sweep-up"
reference = "fold_up_omega"
metric = "abs"
tolerance = {tol}
[[study.check]]
name = "down"
quantity = "jump_omega"
method = "sweep-down"
reference = "fold_down_omega"
metric = "abs"
tolerance = {tol}
[[study.check]]
name = "on-branch"
quantity = "max_branch_distance"
metric = "at-most"
tolerance = 2.0e-4
"#,
        tol = half + shift
    );
    let (dir, out) = run_spec(&format!("{spec}{checks}"));
    assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    let expected = reference_folds(name);
    assert_eq!(expected.len(), 2, "{name}: two folds in the reference");
    assert_eq!(summary_value(dir.path(), name, "fold_count"), 2.0);
    for (column, want) in ["fold_up_omega", "fold_down_omega"].iter().zip(&expected) {
        let got = summary_value(dir.path(), name, column);
        let rel = (got - want).abs() / want;
        // the reference's own accuracy: its change from 32 to 64 harmonics is below 1e-8
        assert!(
            rel < 2e-8,
            "{name} {column}: {got} vs harmonic balance {want} ({rel:e})"
        );
    }
    for check in ["up", "down", "on-branch"] {
        let rows = check_values(dir.path(), check);
        assert!(
            !rows.is_empty() && rows.iter().all(|r| r.1),
            "{name} {check}: {rows:?}"
        );
    }
    let branch = std::fs::read_to_string(dir.path().join(format!("out/{name}/branch.csv")))
        .expect("branch.csv");
    assert!(
        branch.starts_with("frequency,amplitude,stable,"),
        "{}",
        &branch[..60]
    );
    assert!(branch.contains(",true,") && branch.contains(",false,"));
}

#[test]
fn hidden_sdof_with_a_one_sided_stop() {
    let range = (1.0, 1.8);
    let spec = sdof_spec("hidden-a", 2.0, 0.12, 3.0, HIDDEN_A_GAPS, 0.2, range);
    folds_where_harmonic_balance_puts_them("hidden-a", &spec, range);
}

#[test]
fn hidden_sdof_with_stops_on_both_sides() {
    let range = (1.2, 2.6);
    let spec = sdof_spec("hidden-b", 0.5, 0.04, 1.0, HIDDEN_B_GAPS, 0.12, range);
    folds_where_harmonic_balance_puts_them("hidden-b", &spec, range);
}

/// The quick study with the changes `edits`; the listed checks must fail.
fn fails_with(edits: &[(&str, &str)], checks: &[&str]) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/quick/continuation-quick.toml");
    let mut spec = std::fs::read_to_string(path).expect("quick spec");
    for (replace, with) in edits {
        assert!(spec.contains(replace), "test bug: `{replace}`");
        spec = spec.replacen(replace, with, 1);
    }
    let with = format!("{edits:?}");
    let (dir, out) = run_spec(&spec);
    assert_eq!(out.status.code(), Some(1), "`{with}`: {}", stderr(&out));
    for check in checks {
        let rows = check_values(dir.path(), check);
        assert!(
            !rows.is_empty() && rows.iter().any(|r| !r.1),
            "`{with}`: check {check} did not fail: {rows:?}"
        );
    }
}

#[test]
fn coarse_sweeps_leave_the_branch() {
    // 100 steps per period: a 16 times larger bilinear shift, 3.3e-4 in ln omega
    fails_with(
        &[("steps_per_period = 400", "steps_per_period = 100")],
        &["sweep-points-on-stable-branch"],
    );
}

#[test]
fn coarse_differences_fail_the_monodromy_check() {
    // central differences at step 5e-3: truncation error far above 1.5e-9
    fails_with(
        &[("\nchord_tol = 1e-4", "\nchord_tol = 1e-4\nfd_step = 5e-3")],
        &["multipliers-vs-finite-differences"],
    );
}

#[test]
fn another_gap_stiffness_moves_the_fold_off_the_reference() {
    // k_g 1 % stiffer: the upper fold moves by about 1e-3 relative
    fails_with(
        &[("stiffness = 4.0", "stiffness = 4.04")],
        &["upper-fold-vs-harmonic-balance"],
    );
}

#[test]
fn unsettled_sweeps_fail_the_branch_check() {
    // 3 settling periods and a settling test that passes anything: transients remain
    fails_with(
        &[
            ("settle_periods = 60", "settle_periods = 3"),
            ("refine_settle_periods = 200", "refine_settle_periods = 3"),
            ("settle_tol = 1e-8", "settle_tol = 0.9"),
        ],
        &["sweep-points-on-stable-branch"],
    );
}

const SPEC: &str = r#"
[[study]]
name = "c"
kind = "gap-system"
[study.system]
mass = [[1.0]]
damping = [[0.1]]
stiffness = [[1.0]]
[[study.system.gaps]]
direction = [1.0]
gap = 0.5
stiffness = 4.0
[study.excitation]
amplitude = [0.15]
[study.integrator]
method = "newmark-lcp"
[study.continuation]
omega_from = 0.8
omega_to = 1.6
sweep_points = 5
"#;

#[test]
fn bad_continuation_keys_exit_2() {
    assert_input_errors(
        SPEC,
        "c",
        &[
            (
                "omega_to = 1.6",
                "omega_to = 0.7",
                &["study.continuation.omega_to", "above omega_from"],
            ),
            (
                "omega_from = 0.8",
                "omega_from = -1.0",
                &["study.continuation.omega_from"],
            ),
            (
                "sweep_points = 5",
                "sweep_points = 1",
                &["study.continuation.sweep_points"],
            ),
            (
                "sweep_points = 5",
                "sweep_points = 5\nspeed = 2",
                &["speed"],
            ),
            (
                "sweep_points = 5",
                "sweep_points = 5\njump_ratio = 0.5",
                &["study.continuation.jump_ratio"],
            ),
            (
                "sweep_points = 5",
                "sweep_points = 5\nmax_settle_periods = 10",
                &["study.continuation.max_settle_periods"],
            ),
            (
                "method = \"newmark-lcp\"",
                "method = \"newmark-lcp\"\ndt = 0.01",
                &["integrator.dt"],
            ),
            (
                "amplitude = [0.15]",
                "amplitude = [0.0]",
                &["study.excitation.amplitude"],
            ),
            (
                "sweep_points = 5",
                "sweep_points = 5\n[[study.sweep]]\nkey = \"system.damping\"\nvalues = [[[0.1]], [[0.2]]]",
                &["study.sweep"],
            ),
            (
                "method = \"newmark-lcp\"",
                "method = \"newmark-lcp\"\n[[study.integrator.variant]]\nmethod = \"newmark-ssn\"",
                &["study.integrator.variant"],
            ),
        ],
    );
}
