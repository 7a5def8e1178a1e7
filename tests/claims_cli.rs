//! Claims through the CLI: a claim's verdict is computed from the results,
//! written to `claims.csv`, and a verdict unlike `expect` fails the run
//! (exit 1) in both directions; bad claim keys are input errors (exit 2).

mod common;
use common::{SDOF_SPEC, assert_input_errors, run_spec, stderr};

/// The SDOF study with one claim: Newmark-LCP's displacement agrees with
/// the exact solution within `threshold` (max-abs, m); `expect` and its
/// `why` as given.
fn spec(threshold: &str, expect: &str, why: &str) -> String {
    let why = if why.is_empty() {
        "Newmark at dt = 0.01 s is second order: about 1e-4 m over 2 s"
    } else {
        why
    };
    format!(
        r#"{SDOF_SPEC}
[[study.claim]]
id = "agrees-with-exact"
seed = "Yu 2013"
words = "Good agreement is observed."
expect = "{expect}"
why = "{why}"
[[study.claim.criterion]]
quantity = "x*"
method = "newmark-lcp"
reference = "exact"
metric = "max-abs"
comparison = "at-most"
threshold = {threshold}
"#
    )
}

/// The claims.csv rows as fields.
fn claims(dir: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("out/claims.csv")).expect("claims.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "study,claim,seed,verdict,expect,value,criterion,words,reason,formulation,holds_in,holds_lo,holds_hi,robustness"
        ),
        "the fixed header (then `robustness`, the robustness run's sentence)"
    );
    lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn a_claim_flips_both_ways_and_an_unexpected_verdict_fails_the_run() {
    // Newmark-LCP at dt = 0.01 s over 2 s is within about 1e-4 m of the
    // exact solution: 0.05 m holds, 1e-9 m does not.
    let (dir, out) = run_spec(&spec("0.05", "reproduced", ""));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = claims(dir.path());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        &rows[0][..5],
        [
            "tiny",
            "agrees-with-exact",
            "Yu 2013",
            "reproduced",
            "reproduced"
        ]
    );
    let value: f64 = rows[0][5].parse().expect("value");
    assert!(value > 0.0 && value < 0.05, "{value}");

    let (dir, out) = run_spec(&spec("1e-9", "reproduced", ""));
    assert_eq!(
        out.status.code(),
        Some(1),
        "an unexpected verdict fails the run"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("CLAIM tiny/agrees-with-exact: not-reproduced (expected reproduced)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(claims(dir.path())[0][3], "not-reproduced");

    let (_, out) = run_spec(&spec(
        "1e-9",
        "not-reproduced",
        "the step is far too coarse for 1 nm",
    ));
    assert_eq!(
        out.status.code(),
        Some(0),
        "expected not-reproduced: passes"
    );

    let (_, out) = run_spec(&spec("0.05", "not-reproduced", "a wrong expectation"));
    assert_eq!(
        out.status.code(),
        Some(1),
        "reproduced against an expected not-reproduced fails"
    );
    let report =
        std::fs::read_to_string(out_dir_report(&spec("0.05", "reproduced", ""))).expect("report");
    assert!(
        report.contains("Claims of the paper"),
        "the report lists the claims"
    );
    assert!(
        report.contains("verdict on the paper"),
        "the summary has a verdict column"
    );
}

/// Runs `spec` and returns the path of its report's README (kept alive by
/// leaking the directory: the test process ends soon after).
fn out_dir_report(spec: &str) -> std::path::PathBuf {
    let (dir, out) = run_spec(spec);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path = dir.path().join("rep/README.md");
    std::mem::forget(dir);
    path
}

#[test]
fn bad_claim_keys_exit_2_naming_the_key() {
    let good = spec("0.05", "reproduced", "");
    assert_input_errors(
        &good,
        "tiny",
        &[
            (
                "expect = \"reproduced\"",
                "expect = \"maybe\"",
                &["study.claim", "expect", "reproduced", "not-reproduced"],
            ),
            (
                "why = \"Newmark at dt = 0.01 s is second order: about 1e-4 m over 2 s\"",
                "why = \"\"",
                &["study.claim[0].why", "prediction's reason"],
            ),
            (
                "expect = \"reproduced\"",
                "expect = \"reproduced\"\nformulation = \"rough\"",
                &["study.claim", "formulation", "seed", "exact", "model"],
            ),
            (
                "id = \"agrees-with-exact\"",
                "id = \"Agrees With\"",
                &["study.claim[0].id", "lowercase"],
            ),
            (
                "comparison = \"at-most\"",
                "comparison = \"below\"",
                &["study.claim", "comparison", "at-most", "at-least"],
            ),
            (
                "quantity = \"x*\"",
                "quantity = \"no_such_scalar\"",
                &["study.claim[0].criterion[0].quantity", "no_such_scalar"],
            ),
            (
                "threshold = 0.05",
                "threshold = nan",
                &["study.claim[0].criterion[0].threshold", "finite"],
            ),
            (
                "words = \"Good agreement is observed.\"",
                "words = \"\"",
                &["study.claim[0].words", "non-empty"],
            ),
        ],
    );
}

#[test]
fn checks_may_not_use_measured_quantities_or_ratio() {
    let with_check = |q: &str, metric: &str| {
        format!(
            "{SDOF_SPEC}\n[[study.check]]\nname = \"c\"\nquantity = \"{q}\"\nmetric = \"{metric}\"\nvalue = 1.0\ntolerance = 1.0\n"
        )
    };
    assert_input_errors(
        &with_check("steps", "ratio"),
        "tiny",
        &[(
            "metric = \"ratio\"",
            "metric = \"ratio\"",
            &["study.check[0].metric", "claims"],
        )],
    );
    let (_, out) = run_spec(&with_check("timing.cpu_s", "rel"));
    assert_eq!(
        out.status.code(),
        Some(2),
        "a check may not name a measured time"
    );
    assert!(stderr(&out).contains("timing.cpu_s"), "{}", stderr(&out));
}
