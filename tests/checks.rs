//! The check machinery: each metric passes on a matching result and fails on
//! a perturbed one; NaN never passes; file references and interpolation.

use contact_harness::error::SolverError;
use contact_harness::harness::checks::{
    self, CheckSpec, MethodFilter, Metric, ResolvedCheck, Scope,
};
use contact_harness::harness::study::{
    CaseOutput, CaseTable, MethodOutput, MethodPlan, MethodResult, MethodRun, Provides, Scalar,
    StudyScalar, StudySummary, Timing,
};
use contact_harness::harness::table::Table;

fn spec(
    quantity: &str,
    reference: Option<&str>,
    value: Option<f64>,
    metric: Metric,
    tolerance: f64,
) -> CheckSpec {
    CheckSpec {
        name: "c".into(),
        quantity: quantity.into(),
        method: None,
        reference: reference.map(str::to_string),
        column: None,
        value,
        metric,
        tolerance,
        cases: None,
        why: String::new(),
    }
}

fn curve(t: &[f64], x: &[f64]) -> Table {
    Table::new()
        .with("t", "", t.to_vec())
        .with("x0", "", x.to_vec())
        .with("x1", "", x.iter().map(|v| 2.0 * v).collect())
}

/// A successful run of method `label` with its series and scalars.
fn method(label: &str, series: Table, scalars: Vec<Scalar>) -> MethodResult {
    MethodResult {
        plan: MethodPlan {
            label: label.into(),
            method: label.into(),
            doc: String::new(),
        },
        outcome: Ok(MethodRun {
            output: MethodOutput {
                series,
                scalars,
                ..MethodOutput::default()
            },
            timing: Timing {
                method: label.into(),
                wall_s: 1.0,
                cpu_s: 1.0,
                cpu_s_spread: 0.0,
                runs: 1,
                counters: vec![],
                stats: vec![],
            },
        }),
    }
}

/// Case `k`: one method `m` with `series`, the `exact` table, and the
/// case scalars.
fn case(series: Table, exact: Table, scalars: Vec<Scalar>) -> CaseOutput {
    CaseOutput {
        name: "k".into(),
        coords: vec![],
        methods: vec![method("m", series, vec![])],
        tables: vec![CaseTable {
            what: "exact".into(),
            doc: String::new(),
            table: exact,
        }],
        scalars,
        reference_timings: vec![],
        failures: vec![],
    }
}

fn eval(
    check: CheckSpec,
    scope: Scope,
    cases: &[CaseOutput],
    summary: &StudySummary,
) -> (bool, f64) {
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: check,
            file: None,
            scope,
        },
        "s",
        cases,
        summary,
    );
    assert_eq!(rows.len(), 1);
    (rows[0].passed, rows[0].value)
}

const T: [f64; 5] = [0.0, 0.1, 0.2, 0.3, 0.4];
const X: [f64; 5] = [0.0, 1.0, -2.0, 0.5, 3.0];

#[test]
fn curve_metrics_pass_on_agreement_and_fail_when_perturbed() {
    for metric in [Metric::MaxAbs, Metric::MaxRel, Metric::RmsRel] {
        let tol = 1e-3;
        let same = [case(curve(&T, &X), curve(&T, &X), vec![])];
        assert_eq!(
            eval(
                spec("x*", Some("exact"), None, metric, tol),
                Scope::Columns,
                &same,
                &StudySummary::default()
            ),
            (true, 0.0),
            "{metric:?}"
        );
        // Perturb one sample of x1 by 3 tol (relative to the largest reference value for the relative metrics).
        let mut bumped = curve(&T, &X);
        bumped.values_mut("x1").unwrap()[3] += 3.0 * tol * 6.0 * 5f64.sqrt();
        let cases = [case(bumped, curve(&T, &X), vec![])];
        let (passed, value) = eval(
            spec("x*", Some("exact"), None, metric, tol),
            Scope::Columns,
            &cases,
            &StudySummary::default(),
        );
        assert!(!passed && value > tol, "{metric:?}: value {value}");
    }
}

#[test]
fn nan_never_passes() {
    let mut broken = curve(&T, &X);
    broken.values_mut("x0").unwrap()[2] = f64::NAN;
    let cases = [case(
        broken,
        curve(&T, &X),
        vec![Scalar::new("a", f64::NAN, "")],
    )];
    let (passed, value) = eval(
        spec("x*", Some("exact"), None, Metric::MaxAbs, 1e9),
        Scope::Columns,
        &cases,
        &StudySummary::default(),
    );
    assert!(!passed && value.is_nan());
    for metric in [Metric::Abs, Metric::Rel, Metric::AtLeast, Metric::AtMost] {
        let value = if metric == Metric::Abs || metric == Metric::Rel {
            Some(1.0)
        } else {
            None
        };
        let (passed, _) = eval(
            spec("a", None, value, metric, 1e9),
            Scope::CaseScalar,
            &cases,
            &StudySummary::default(),
        );
        assert!(!passed, "{metric:?} passed a NaN");
    }
}

#[test]
fn scalar_metrics_and_bounds() {
    let cases = [case(
        curve(&T, &X),
        curve(&T, &X),
        vec![Scalar::new("a", 2.0, ""), Scalar::new("b", 2.1, "")],
    )];
    let s = StudySummary::default();
    assert!(
        eval(
            spec("a", None, Some(2.05), Metric::Abs, 0.06),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        !eval(
            spec("a", None, Some(2.1), Metric::Abs, 0.06),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        eval(
            spec("a", Some("b"), None, Metric::Rel, 0.05),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        !eval(
            spec("a", Some("b"), None, Metric::Rel, 0.04),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        eval(
            spec("a", None, None, Metric::AtLeast, 2.0),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        !eval(
            spec("a", None, None, Metric::AtLeast, 2.01),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        eval(
            spec("a", None, None, Metric::AtMost, 2.0),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    assert!(
        !eval(
            spec("a", None, None, Metric::AtMost, 1.99),
            Scope::CaseScalar,
            &cases,
            &s
        )
        .0
    );
    let summary = StudySummary {
        scalars: vec![StudyScalar::study(Scalar::new("order", 1.97, ""))],
        ..StudySummary::default()
    };
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: spec("order", None, Some(2.0), Metric::Abs, 0.1),
            file: None,
            scope: Scope::Study,
        },
        "s",
        &cases,
        &summary,
    );
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].case, "*");
    assert!(rows[0].passed);
    let summary = StudySummary {
        scalars: vec![StudyScalar::study(Scalar::new("order", 1.0, ""))],
        ..StudySummary::default()
    };
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: spec("order", None, Some(2.0), Metric::Abs, 0.1),
            file: None,
            scope: Scope::Study,
        },
        "s",
        &cases,
        &summary,
    );
    assert!(!rows[0].passed);
}

#[test]
fn failed_methods_and_missing_quantities_fail() {
    let mut failed = case(curve(&T, &X), curve(&T, &X), vec![]);
    failed.methods[0].outcome = Err(SolverError::other("m", "boom"));
    let failed = [failed];
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: spec("x*", Some("exact"), None, Metric::MaxAbs, 1.0),
            file: None,
            scope: Scope::Columns,
        },
        "s",
        &failed,
        &StudySummary::default(),
    );
    assert!(!rows[0].passed && rows[0].detail.contains("boom"));
    let cases = [case(curve(&T, &X), curve(&T, &X), vec![])];
    let (passed, _) = eval(
        spec("missing", None, Some(1.0), Metric::Abs, 1.0),
        Scope::CaseScalar,
        &cases,
        &StudySummary::default(),
    );
    assert!(!passed);
}

/// A coarse reference at a subset of the case's abscissae is compared at the
/// common points; a reference on another grid is interpolated.
#[test]
fn references_on_other_grids() {
    let t: Vec<f64> = (0..=40).map(|i| i as f64 * 0.025).collect();
    let x: Vec<f64> = t.iter().map(|t| (3.0 * t).sin()).collect();
    let coarse_t: Vec<f64> = (0..=10).map(|i| i as f64 * 0.1).collect();
    let coarse_x: Vec<f64> = coarse_t.iter().map(|t| (3.0 * t).sin()).collect();
    let case_t = Table::new()
        .with("t", "", t.clone())
        .with("x0", "", x.clone());
    let reference = Table::new()
        .with("t", "", coarse_t.clone())
        .with("x0", "", coarse_x.clone());
    let (value, detail) = checks::curve_metric(Metric::MaxAbs, &case_t, &reference, "x*", None);
    assert!(value < 1e-15, "{value} {detail}");
    assert!(detail.contains("11 common"), "{detail}");
    // Shifted reference grid: interpolation error of a sine sampled at 0.1, about (0.1)^2/8 * 9.
    let shifted_t: Vec<f64> = coarse_t.iter().map(|t| t + 0.05).collect();
    let shifted = Table::new().with("t", "", shifted_t.clone()).with(
        "x0",
        "",
        shifted_t.iter().map(|t| (3.0 * t).sin()).collect(),
    );
    let (value, detail) = checks::curve_metric(Metric::MaxAbs, &case_t, &shifted, "x*", None);
    assert!(detail.contains("interpolated"), "{detail}");
    assert!(value > 1e-4 && value < 0.02, "{value}");
}

#[test]
fn resolve_rejects_unknown_names_with_the_allowed_list() {
    let provides = Provides {
        study_scalars: vec!["order".into()],
        case_scalars: vec!["amp".into()],
        columns: vec!["t".into(), "x*".into()],
        tables: vec!["exact".into()],
        method_scalars: vec!["x*_max".into()],
        methods: vec!["m".into()],
    };
    let file = std::path::Path::new("spec.toml");
    let ok = checks::resolve(
        &spec("x*", Some("exact"), None, Metric::MaxAbs, 1.0),
        0,
        &provides,
        file,
        "s",
        &["k".into()],
    );
    assert_eq!(ok.map(|r| r.scope).ok(), Some(Scope::Columns));
    let ok = checks::resolve(
        &spec("x3", Some("exact"), None, Metric::MaxAbs, 1.0),
        0,
        &provides,
        file,
        "s",
        &["k".into()],
    );
    assert_eq!(ok.map(|r| r.scope).ok(), Some(Scope::Columns));
    let err = checks::resolve(
        &spec("y*", Some("exact"), None, Metric::MaxAbs, 1.0),
        2,
        &provides,
        file,
        "s",
        &[],
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("study.check[2].quantity") && err.contains("order") && err.contains("x*"),
        "{err}"
    );
    let err = checks::resolve(
        &spec("amp", Some("nope"), None, Metric::Rel, 1.0),
        0,
        &provides,
        file,
        "s",
        &[],
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(err.contains("nope") && err.contains("amp"), "{err}");
    let mut only = spec("x*", Some("exact"), None, Metric::MaxAbs, 1.0);
    only.cases = Some(vec!["other".into()]);
    let err = checks::resolve(&only, 0, &provides, file, "s", &["k".into()])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("other") && err.contains("k"), "{err}");
    // Method scalars are found through patterns; a method filter names a
    // method of the study; a case scalar belongs to no method.
    let ok = checks::resolve(
        &spec("x12_max", None, Some(1.0), Metric::Abs, 1.0),
        0,
        &provides,
        file,
        "s",
        &[],
    );
    assert_eq!(ok.map(|r| r.scope).ok(), Some(Scope::MethodScalar));
    let mut bad = spec("x*", Some("exact"), None, Metric::MaxAbs, 1.0);
    bad.method = Some(MethodFilter::One("nope".into()));
    let err = checks::resolve(&bad, 1, &provides, file, "s", &[])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("study.check[1].method") && err.contains("nope") && err.contains("m"),
        "{err}"
    );
    let mut bad = spec("amp", None, Some(1.0), Metric::Abs, 1.0);
    bad.method = Some(MethodFilter::One("m".into()));
    let err = checks::resolve(&bad, 0, &provides, file, "s", &[])
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not of a method"), "{err}");
}

/// One row per (case, method); the method filter keeps only the named
/// methods; a method compared with another method's series skips itself;
/// a failed method gives a failed row while the others are evaluated.
#[test]
fn method_rows_filters_and_method_references() {
    let mut c = case(curve(&T, &X), curve(&T, &X), vec![]);
    let mut off = curve(&T, &X);
    off.values_mut("x0").unwrap()[1] += 0.5;
    c.methods
        .push(method("fast", off, vec![Scalar::new("err", 0.5, "")]));
    c.methods.push(MethodResult {
        plan: MethodPlan {
            label: "broken".into(),
            method: "broken".into(),
            doc: String::new(),
        },
        outcome: Err(SolverError::other("broken", "diverged")),
    });
    let cases = [c];
    let run = |check: CheckSpec, scope: Scope| {
        checks::evaluate(
            &ResolvedCheck {
                spec: check,
                file: None,
                scope,
            },
            "s",
            &cases,
            &StudySummary::default(),
        )
    };
    let rows = run(
        spec("x*", Some("exact"), None, Metric::MaxAbs, 0.1),
        Scope::Columns,
    );
    let seen: Vec<(&str, bool)> = rows.iter().map(|r| (r.method.as_str(), r.passed)).collect();
    assert_eq!(seen, vec![("m", true), ("fast", false), ("broken", false)]);
    assert!(rows[2].detail.contains("diverged"));
    let mut only = spec("x*", Some("exact"), None, Metric::MaxAbs, 0.1);
    only.method = Some(MethodFilter::One("m".into()));
    assert_eq!(run(only, Scope::Columns).len(), 1);
    // Against another method: its own row is skipped.
    let rows = run(
        spec("x*", Some("fast"), None, Metric::MaxAbs, 0.6),
        Scope::Columns,
    );
    let seen: Vec<&str> = rows.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(seen, vec!["m", "broken"]);
    assert!(rows[0].passed && (rows[0].value - 0.5).abs() < 1e-12);
    // A method scalar: only `fast` has it; the others fail as not produced.
    let rows = run(
        spec("err", None, None, Metric::AtMost, 1.0),
        Scope::MethodScalar,
    );
    let seen: Vec<(&str, bool)> = rows.iter().map(|r| (r.method.as_str(), r.passed)).collect();
    assert_eq!(seen, vec![("m", false), ("fast", true), ("broken", false)]);
}

/// Study scalars per method and group: one row each, filtered by method.
#[test]
fn study_scalars_per_method_and_group() {
    let summary = StudySummary {
        scalars: vec![
            StudyScalar {
                scalar: Scalar::new("order", 2.0, ""),
                method: Some("a".into()),
                group: "law=tanh".into(),
            },
            StudyScalar {
                scalar: Scalar::new("order", 1.2, ""),
                method: Some("b".into()),
                group: "law=tanh".into(),
            },
        ],
        ..StudySummary::default()
    };
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: spec("order", None, Some(2.0), Metric::Abs, 0.1),
            file: None,
            scope: Scope::Study,
        },
        "s",
        &[],
        &summary,
    );
    let seen: Vec<(&str, &str, bool)> = rows
        .iter()
        .map(|r| (r.case.as_str(), r.method.as_str(), r.passed))
        .collect();
    assert_eq!(
        seen,
        vec![("law=tanh", "a", true), ("law=tanh", "b", false)]
    );
    let mut only_a = spec("order", None, Some(2.0), Metric::Abs, 0.1);
    only_a.method = Some(MethodFilter::Many(vec!["a".into()]));
    let rows = checks::evaluate(
        &ResolvedCheck {
            spec: only_a,
            file: None,
            scope: Scope::Study,
        },
        "s",
        &[],
        &summary,
    );
    assert_eq!(rows.len(), 1);
    assert!(rows[0].passed);
}
