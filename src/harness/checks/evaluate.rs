//! Evaluating a resolved check on a study's outputs (see the module doc of
//! `harness::checks` for the rows it gives).

use crate::harness::checks::curves::{curve_metric, relative};
use crate::harness::checks::resolve::{CheckSpec, Metric, ResolvedCheck, Scope, TIMING_PREFIX};
use crate::harness::rows::CheckRow;
use crate::harness::study::{CaseOutput, MethodOutput, MethodResult, MethodRun, StudySummary};
use crate::harness::table::Table;

/// Evaluates one check on a study's results.
pub fn evaluate(
    check: &ResolvedCheck,
    study: &str,
    cases: &[CaseOutput],
    summary: &StudySummary,
) -> Vec<CheckRow> {
    let spec = &check.spec;
    let reference_label = match (&spec.reference, spec.value) {
        (Some(r), _) => r.clone(),
        (None, Some(v)) => format!("value {v}"),
        (None, None) => "bound".to_string(),
    };
    let row = |case: &str, method: &str, value: f64, detail: String| CheckRow {
        study: study.to_string(),
        case: case.to_string(),
        method: method.to_string(),
        check: spec.name.clone(),
        metric: spec.metric.name().to_string(),
        reference: reference_label.clone(),
        value,
        tolerance: spec.tolerance,
        passed: spec.metric.passes(value, spec.tolerance),
        detail,
        why: spec.why.clone(),
    };
    let selected = || cases.iter().filter(|c| spec.applies_to_case(&c.name));
    match check.scope {
        Scope::Study => study_rows(spec, summary, &row),
        Scope::SummaryCurve { per_method } => {
            let Some((_, reference)) = &check.file else {
                return vec![row("*", "", f64::NAN, "reference file not loaded".into())];
            };
            if !per_method {
                let (value, detail) = summary_curve(spec, selected(), reference, |c| {
                    Some(|name: &str| c.scalar(name))
                });
                return vec![row("*", "", value, detail)];
            }
            method_labels(spec, cases)
                .into_iter()
                .map(|label| {
                    let (value, detail) = summary_curve(spec, selected(), reference, |c| {
                        let output = c.method(&label)?.output()?;
                        Some(move |name: &str| output.scalar(name).or_else(|| c.scalar(name)))
                    });
                    row("*", &label, value, detail)
                })
                .collect()
        }
        Scope::CaseScalar => selected()
            .map(|c| {
                let y = c.scalar(&spec.quantity);
                let r = reference_scalar(spec, |n| c.scalar(n).or_else(|| summary.scalar(n)));
                let (value, detail) = scalar_metric(spec.metric, y, r, &spec.quantity);
                row(&c.name, "", value, detail)
            })
            .collect(),
        Scope::MethodScalar | Scope::Columns => {
            let mut rows = Vec::new();
            for c in selected() {
                for m in c.methods.iter().filter(|m| spec.applies_to(m.label())) {
                    // Compared with another method: not with itself.
                    if spec.reference.as_deref() == Some(m.label()) {
                        continue;
                    }
                    let (value, detail) = match &m.outcome {
                        Err(e) => (f64::NAN, format!("method failed: {e}")),
                        Ok(run) if check.scope == Scope::MethodScalar => {
                            method_scalar(spec, c, run, summary, m.label())
                        }
                        Ok(run) => columns(check, c, &run.output),
                    };
                    rows.push(row(&c.name, m.label(), value, detail));
                }
            }
            rows
        }
    }
}

/// Labels of the methods the check applies to, in order of first appearance.
fn method_labels(spec: &CheckSpec, cases: &[CaseOutput]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for c in cases {
        for m in &c.methods {
            if spec.applies_to(m.label()) && !labels.iter().any(|l| l == m.label()) {
                labels.push(m.label().to_string());
            }
        }
    }
    labels
}

fn study_rows(
    spec: &CheckSpec,
    summary: &StudySummary,
    row: &dyn Fn(&str, &str, f64, String) -> CheckRow,
) -> Vec<CheckRow> {
    let matching: Vec<_> = summary
        .scalars
        .iter()
        .filter(|s| s.scalar.name == spec.quantity)
        .filter(|s| s.method.as_deref().is_none_or(|m| spec.applies_to(m)))
        .collect();
    if matching.is_empty() {
        return vec![row(
            "*",
            "",
            f64::NAN,
            format!("`{}` was not produced", spec.quantity),
        )];
    }
    matching
        .into_iter()
        .map(|s| {
            // A reference scalar of the same method and group first.
            let r = reference_scalar(spec, |name| {
                summary
                    .scalars
                    .iter()
                    .find(|o| o.scalar.name == name && o.method == s.method && o.group == s.group)
                    .map(|o| o.scalar.value)
                    .or_else(|| summary.scalar(name))
            });
            let (value, detail) =
                scalar_metric(spec.metric, Some(s.scalar.value), r, &spec.quantity);
            let case = if s.group.is_empty() { "*" } else { &s.group };
            row(case, s.method.as_deref().unwrap_or(""), value, detail)
        })
        .collect()
}

/// A method run's scalar `name`: its output's, or for a
/// [`TIMING_PREFIX`] name its timing's (`cpu_s`, a counter or a stat).
fn run_scalar(run: &MethodRun, name: &str) -> Option<f64> {
    match name.strip_prefix(TIMING_PREFIX) {
        Some("cpu_s") => Some(run.timing.cpu_s),
        Some("wall_s") => Some(run.timing.wall_s),
        Some(what) => run.timing.counter(what).or_else(|| run.timing.stat(what)),
        None => run.output.scalar(name),
    }
}

fn method_scalar(
    spec: &CheckSpec,
    case: &CaseOutput,
    run: &MethodRun,
    summary: &StudySummary,
    label: &str,
) -> (f64, String) {
    let y = run_scalar(run, &spec.quantity);
    // Another method of the case as the reference: its same scalar.
    let other = spec
        .reference
        .as_deref()
        .and_then(|r| case.method(r))
        .filter(|_| spec.value.is_none());
    if let Some(other) = other {
        let r = other
            .outcome
            .as_ref()
            .ok()
            .and_then(|o| run_scalar(o, &spec.quantity));
        let (value, detail) = scalar_metric(spec.metric, y, r, &spec.quantity);
        return (value, format!("{detail} (method `{}`)", other.label()));
    }
    let r = reference_scalar(spec, |n| {
        run_scalar(run, n)
            .or_else(|| case.scalar(n))
            .or_else(|| summary.scalar(n))
    });
    let (value, detail) = scalar_metric(spec.metric, y, r, &spec.quantity);
    if y.is_none() {
        return (value, format!("{detail} by method `{label}`"));
    }
    (value, detail)
}

fn columns(check: &ResolvedCheck, case: &CaseOutput, output: &MethodOutput) -> (f64, String) {
    let spec = &check.spec;
    let reference: Option<&Table> = match (&check.file, &spec.reference) {
        (Some((_, table)), _) => Some(table),
        (None, Some(what)) => case.table(what).map(|t| &t.table).or_else(|| {
            case.method(what)
                .and_then(MethodResult::output)
                .map(|o| &o.series)
        }),
        _ => None,
    };
    match reference {
        Some(r) => curve_metric(
            spec.metric,
            &output.series,
            r,
            &spec.quantity,
            spec.column.as_deref(),
        ),
        None => (
            f64::NAN,
            format!(
                "case has no table `{}` (or that method failed)",
                spec.reference.as_deref().unwrap_or("")
            ),
        ),
    }
}

fn reference_scalar(spec: &CheckSpec, lookup: impl Fn(&str) -> Option<f64>) -> Option<f64> {
    match (&spec.reference, spec.value) {
        (Some(name), _) => lookup(name),
        (None, Some(v)) => Some(v),
        (None, None) => None,
    }
}

/// Scalar metric value and a detail line.
fn scalar_metric(metric: Metric, y: Option<f64>, r: Option<f64>, quantity: &str) -> (f64, String) {
    let Some(y) = y else {
        return (f64::NAN, format!("`{quantity}` was not produced"));
    };
    match metric {
        Metric::AtLeast | Metric::AtMost => (y, String::new()),
        Metric::Ratio => {
            let Some(r) = r else {
                return (f64::NAN, "reference scalar was not produced".into());
            };
            (
                y / r,
                format!(
                    "{quantity} = {}, reference {}",
                    crate::harness::format::sig(y),
                    crate::harness::format::sig(r)
                ),
            )
        }
        Metric::Abs | Metric::Rel => {
            let Some(r) = r else {
                return (f64::NAN, "reference scalar was not produced".into());
            };
            let err = (y - r).abs();
            let value = if metric == Metric::Abs {
                err
            } else {
                relative(err, r.abs())
            };
            (
                value,
                format!(
                    "{quantity} = {}, reference {}",
                    crate::harness::format::sig(y),
                    crate::harness::format::sig(r)
                ),
            )
        }
        _ => (f64::NAN, "curve metric on a scalar".into()),
    }
}

/// A scalar over the cases (sorted by the abscissa scalar named by the
/// file's first column) against the file's column. `lookup(case)` gives the
/// scalar lookup of a case (None: the case has no result for it).
fn summary_curve<'a, F: Fn(&str) -> Option<f64>>(
    spec: &CheckSpec,
    cases: impl Iterator<Item = &'a CaseOutput>,
    reference: &Table,
    lookup: impl Fn(&'a CaseOutput) -> Option<F>,
) -> (f64, String) {
    let Some(abscissa) = reference.abscissa().map(|c| c.name.clone()) else {
        return (f64::NAN, "empty reference".into());
    };
    let mut pts = Vec::new();
    for case in cases {
        let Some(scalar) = lookup(case) else {
            return (
                f64::NAN,
                format!("case {} has no result (a method failed)", case.name),
            );
        };
        match (scalar(&abscissa), scalar(&spec.quantity)) {
            (Some(x), Some(y)) => pts.push((x, y)),
            _ => {
                return (
                    f64::NAN,
                    format!(
                        "case {} lacks `{abscissa}` or `{}`",
                        case.name, spec.quantity
                    ),
                );
            }
        }
    }
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (x, y): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
    let table = Table::new()
        .with(abscissa, "", x)
        .with(spec.quantity.clone(), "", y);
    let ref_column = spec.column.as_deref().unwrap_or(&spec.quantity);
    curve_metric(
        spec.metric,
        &table,
        reference,
        &spec.quantity,
        Some(ref_column),
    )
}
