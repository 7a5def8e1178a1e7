//! Checks: a study's `[[study.check]]` entries, evaluated on its outputs.
//!
//! A check compares a **quantity** with a **reference** through a
//! **metric** and passes when the metric is within the **tolerance**:
//!
//! - quantity: a study scalar (e.g. `order`), a case scalar (a summary.csv
//!   column, e.g. `amplitude`), or a column pattern of the case CSV (`x0`,
//!   `x*` = every `x<digits>` column);
//! - reference: `reference = "<table>"` (a table of the case computed by an
//!   independent method, e.g. `exact` = `<case>.exact.csv`, compared column by
//!   column with the same names), `reference = "<file>.csv"` (a reference
//!   file, path relative to the spec file), `reference = "<scalar>"`
//!   (another scalar of the case or study, e.g. an analytic value the kind
//!   computes from its formula), or `value = <number>` (a number from a paper
//!   or formula written in the spec);
//! - metric: curves `max-abs` (max |y - r|), `max-rel` (max |y - r| / max |r|),
//!   `rms-rel` (||y - r||_2 / ||r||_2); scalars `abs` (|y - r|), `rel`
//!   (|y - r| / |r|); bounds `at-least` / `at-most` (the quantity itself
//!   against `tolerance`, no reference).
//!
//! A NaN value never passes. Curves are compared at the reference's abscissa
//! points when every one of them is also a case abscissa point (to 1e-9
//! relative); otherwise the reference is interpolated linearly at the case
//! points inside its range.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::outcome::CheckRow;
use crate::harness::study::{CaseResult, StudySummary};
use crate::harness::table::Table;

/// How a quantity is compared with its reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Curves: max |y - r|.
    MaxAbs,
    /// Curves: max |y - r| / max |r|.
    MaxRel,
    /// Curves: ||y - r||_2 / ||r||_2.
    RmsRel,
    /// Scalars: |y - r|.
    Abs,
    /// Scalars: |y - r| / |r|.
    Rel,
    /// Scalars: passes when y >= tolerance.
    AtLeast,
    /// Scalars: passes when y <= tolerance.
    AtMost,
}

impl Metric {
    /// Spec spelling.
    pub fn name(self) -> &'static str {
        match self {
            Metric::MaxAbs => "max-abs",
            Metric::MaxRel => "max-rel",
            Metric::RmsRel => "rms-rel",
            Metric::Abs => "abs",
            Metric::Rel => "rel",
            Metric::AtLeast => "at-least",
            Metric::AtMost => "at-most",
        }
    }

    /// True for the metrics that compare curves.
    pub fn is_curve(self) -> bool {
        matches!(self, Metric::MaxAbs | Metric::MaxRel | Metric::RmsRel)
    }

    /// True for the bound metrics (no reference).
    pub fn is_bound(self) -> bool {
        matches!(self, Metric::AtLeast | Metric::AtMost)
    }

    /// Whether `value` passes against `tolerance`. NaN never passes.
    pub fn passes(self, value: f64, tolerance: f64) -> bool {
        match self {
            Metric::AtLeast => value >= tolerance,
            _ => value <= tolerance,
        }
    }
}

/// A `[[study.check]]` entry as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    /// Unique within the study.
    pub name: String,
    /// What is checked (scalar name or column pattern).
    pub quantity: String,
    /// A case table, a reference file (`*.csv`) or a scalar name.
    #[serde(default)]
    pub reference: Option<String>,
    /// The column of a reference file, when it differs from the quantity.
    #[serde(default)]
    pub column: Option<String>,
    /// A number to compare with (instead of `reference`).
    #[serde(default)]
    pub value: Option<f64>,
    /// The metric.
    pub metric: Metric,
    /// Tolerance (or bound).
    pub tolerance: f64,
    /// Only these cases (default: every case).
    #[serde(default)]
    pub cases: Option<Vec<String>>,
    /// Why this tolerance: shown in the report.
    #[serde(default)]
    pub why: String,
}

impl CheckSpec {
    /// Validates what can be validated without the study's outputs.
    pub fn validate(&self, file: &Path, study: &str, index: usize) -> Result<(), InputError> {
        let key = |k: &str| format!("study.check[{index}].{k}");
        if !(self.tolerance.is_finite()) || (!self.metric.is_bound() && self.tolerance < 0.0) {
            return Err(InputError::value(
                file,
                study,
                key("tolerance"),
                self.tolerance,
                "a finite number (>= 0 for error metrics)",
            ));
        }
        match (self.metric.is_bound(), &self.reference, self.value) {
            (true, None, None) => {}
            (true, _, _) => {
                return Err(InputError::value(
                    file,
                    study,
                    key("metric"),
                    format!("\"{}\"", self.metric.name()),
                    "at-least/at-most compare the quantity with `tolerance`: give neither `reference` nor `value`",
                ));
            }
            (false, Some(_), None) => {}
            (false, None, Some(v)) if v.is_finite() && !self.metric.is_curve() => {}
            (false, None, Some(v)) if !v.is_finite() => {
                return Err(InputError::value(
                    file,
                    study,
                    key("value"),
                    v,
                    "a finite number",
                ));
            }
            (false, None, Some(_)) => {
                return Err(InputError::value(
                    file,
                    study,
                    key("metric"),
                    format!("\"{}\"", self.metric.name()),
                    "a curve metric needs `reference` (a table or file); use abs or rel with `value`",
                ));
            }
            (false, _, _) => {
                return Err(InputError::Key {
                    file: file.to_path_buf(),
                    study: Some(study.into()),
                    key: key("reference"),
                    value: None,
                    expected: "exactly one of `reference` or `value`".into(),
                });
            }
        }
        Ok(())
    }

    /// True when the reference is a file.
    pub fn reference_file(&self) -> Option<&str> {
        self.reference.as_deref().filter(|r| r.ends_with(".csv"))
    }
}

/// What a study kind says it will produce, so that checks can be validated
/// before the run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Provides {
    /// Study-level scalar names.
    pub study_scalars: Vec<String>,
    /// Case scalar names (summary.csv columns).
    pub case_scalars: Vec<String>,
    /// Column patterns of the case CSV (e.g. `t`, `x*`).
    pub columns: Vec<String>,
    /// Names of further case tables (e.g. `exact`).
    pub tables: Vec<String>,
}

/// A check ready to evaluate: its spec and, for a file reference, the table.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedCheck {
    /// The spec.
    pub spec: CheckSpec,
    /// The loaded reference file, with its path.
    pub file: Option<(PathBuf, Table)>,
    /// Where the quantity lives.
    pub scope: Scope,
}

/// Where a check's quantity lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A study scalar: one row, case `*`.
    Study,
    /// A case scalar: one row per case.
    CaseScalar,
    /// Columns of the case CSV: one row per case.
    Columns,
    /// A case scalar across the cases against a reference file whose first
    /// column names another case scalar (the abscissa, e.g. `omega`): one
    /// row, case `*`.
    SummaryCurve,
}

/// Resolves a check against what the study provides; loads file references
/// (relative to the spec file's directory).
pub fn resolve(
    spec: &CheckSpec,
    index: usize,
    provides: &Provides,
    file: &Path,
    study: &str,
    cases: &[String],
) -> Result<ResolvedCheck, InputError> {
    let key = |k: &str| format!("study.check[{index}].{k}");
    let q = spec.quantity.as_str();
    let column_pattern_known = provides
        .columns
        .iter()
        .any(|p| p == q || crate::harness::table::name_matches(p, q));
    let mut scope = if provides.study_scalars.iter().any(|s| s == q) {
        Scope::Study
    } else if provides.case_scalars.iter().any(|s| s == q) {
        Scope::CaseScalar
    } else if column_pattern_known {
        Scope::Columns
    } else {
        let mut allowed: Vec<&str> = provides.study_scalars.iter().map(String::as_str).collect();
        allowed.extend(provides.case_scalars.iter().map(String::as_str));
        allowed.extend(provides.columns.iter().map(String::as_str));
        return Err(InputError::value(
            file,
            study,
            key("quantity"),
            format!("\"{q}\""),
            format!("one of {}", allowed.join(", ")),
        ));
    };
    let file_scalar = scope == Scope::CaseScalar && spec.reference_file().is_some();
    if (scope == Scope::Columns || file_scalar) != spec.metric.is_curve() {
        return Err(InputError::value(
            file,
            study,
            key("metric"),
            format!("\"{}\"", spec.metric.name()),
            if scope == Scope::Columns || file_scalar {
                "a curve metric (max-abs, max-rel, rms-rel) for a column quantity or a reference file"
            } else {
                "a scalar metric (abs, rel, at-least, at-most) for a scalar quantity"
            },
        ));
    }
    if let Some(only) = &spec.cases {
        for c in only {
            if !cases.contains(c) {
                return Err(InputError::value(
                    file,
                    study,
                    key("cases"),
                    format!("\"{c}\""),
                    format!("a case of this study: {}", cases.join(", ")),
                ));
            }
        }
    }
    let mut loaded = None;
    if let Some(reference) = &spec.reference {
        if let Some(rel) = spec.reference_file() {
            let dir = file.parent().unwrap_or(Path::new("."));
            let path = dir.join(rel);
            let bad = |message: String| {
                InputError::value(
                    file,
                    study,
                    key("reference"),
                    format!("\"{reference}\""),
                    message,
                )
            };
            let table = crate::harness::reference::read_csv(&path).map_err(bad)?;
            let wanted = spec.column.as_deref().unwrap_or(q);
            let found = if wanted.ends_with('*') {
                !table.matching(wanted).is_empty()
            } else {
                table.column(wanted).is_some()
            };
            if !found {
                return Err(bad(format!("the file has no column `{wanted}`")));
            }
            if scope == Scope::CaseScalar {
                let abscissa = table.abscissa().map(|c| c.name.clone()).unwrap_or_default();
                if !provides.case_scalars.contains(&abscissa) {
                    return Err(bad(format!(
                        "for a scalar quantity the file's first column must name a case scalar (the abscissa), found `{abscissa}`"
                    )));
                }
                scope = Scope::SummaryCurve;
            } else if scope == Scope::Study {
                return Err(bad(
                    "a reference file needs a column or case-scalar quantity".into(),
                ));
            }
            loaded = Some((path, table));
        } else {
            let known = match scope {
                Scope::Columns => provides.tables.iter().any(|t| t == reference),
                _ => provides
                    .study_scalars
                    .iter()
                    .chain(&provides.case_scalars)
                    .any(|s| s == reference),
            };
            if !known {
                let allowed = match scope {
                    Scope::Columns => format!(
                        "a table of the case ({}) or a .csv file",
                        provides.tables.join(", ")
                    ),
                    _ => format!(
                        "a scalar ({})",
                        provides
                            .study_scalars
                            .iter()
                            .chain(&provides.case_scalars)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                return Err(InputError::value(
                    file,
                    study,
                    key("reference"),
                    format!("\"{reference}\""),
                    allowed,
                ));
            }
        }
    }
    Ok(ResolvedCheck {
        spec: spec.clone(),
        file: loaded,
        scope,
    })
}

/// Evaluates one check on a study's results: one row per case (or one row
/// for a study scalar).
pub fn evaluate(
    check: &ResolvedCheck,
    study: &str,
    cases: &[(String, CaseResult)],
    summary: &StudySummary,
) -> Vec<CheckRow> {
    let spec = &check.spec;
    let reference_label = match (&spec.reference, spec.value) {
        (Some(r), _) => r.clone(),
        (None, Some(v)) => format!("value {v}"),
        (None, None) => "bound".to_string(),
    };
    let row = |case: &str, value: f64, detail: String| CheckRow {
        study: study.to_string(),
        case: case.to_string(),
        check: spec.name.clone(),
        metric: spec.metric.name().to_string(),
        reference: reference_label.clone(),
        value,
        tolerance: spec.tolerance,
        passed: spec.metric.passes(value, spec.tolerance),
        detail,
    };
    if check.scope == Scope::SummaryCurve {
        let (value, detail) = match &check.file {
            Some((_, reference)) => summary_curve(spec, cases, reference),
            None => (f64::NAN, "reference file not loaded".into()),
        };
        return vec![row("*", value, detail)];
    }
    if check.scope == Scope::Study {
        let y = summary.scalar(&spec.quantity);
        let r = reference_scalar(spec, |name| summary.scalar(name));
        let (value, detail) = scalar_metric(spec.metric, y, r, &spec.quantity);
        return vec![row("*", value, detail)];
    }
    let mut rows = Vec::new();
    for (name, result) in cases {
        if spec.cases.as_ref().is_some_and(|only| !only.contains(name)) {
            continue;
        }
        let output = match result {
            Ok(o) => o,
            Err(e) => {
                rows.push(row(name, f64::NAN, format!("case failed: {e}")));
                continue;
            }
        };
        let (value, detail) = match check.scope {
            Scope::CaseScalar => {
                let y = output.scalar(&spec.quantity);
                let r = reference_scalar(spec, |n| output.scalar(n).or_else(|| summary.scalar(n)));
                scalar_metric(spec.metric, y, r, &spec.quantity)
            }
            Scope::Columns => {
                let reference = match (&check.file, &spec.reference) {
                    (Some((_, table)), _) => Some(table),
                    (None, Some(what)) => output.table(what).map(|t| &t.table),
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
                    None => (f64::NAN, format!("case has no table `{}`", reference_label)),
                }
            }
            Scope::Study | Scope::SummaryCurve => unreachable!("handled above"),
        };
        rows.push(row(name, value, detail));
    }
    rows
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
            (value, format!("{quantity} = {y:.6e}, reference {r:.6e}"))
        }
        _ => (f64::NAN, "curve metric on a scalar".into()),
    }
}

fn relative(err: f64, scale: f64) -> f64 {
    if scale > 0.0 {
        err / scale
    } else if err == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// Differences of a case's curves from a reference's at aligned abscissae.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveDifference {
    /// max |y - r|.
    pub max_abs: f64,
    /// max |r|.
    pub max_ref: f64,
    /// sum (y - r)^2.
    pub sum_sq: f64,
    /// sum r^2.
    pub sum_ref_sq: f64,
    /// Points compared (over all columns).
    pub points: usize,
    /// Columns compared.
    pub columns: usize,
    /// Whether the reference was interpolated (else compared at common points).
    pub interpolated: bool,
}

impl CurveDifference {
    /// Root mean square of y - r over the compared points.
    pub fn rms(&self) -> f64 {
        if self.points == 0 {
            f64::NAN
        } else {
            (self.sum_sq / self.points as f64).sqrt()
        }
    }
}

/// Compares the case columns matching `pattern` with the reference columns
/// of the same names (every reference column matching the pattern must
/// exist in the case), or the single case column `pattern` with the
/// reference column `ref_column`.
pub fn curve_difference(
    case: &Table,
    reference: &Table,
    pattern: &str,
    ref_column: Option<&str>,
) -> Result<CurveDifference, String> {
    let names: Vec<(String, String)> = match ref_column {
        Some(rc) => vec![(pattern.to_string(), rc.to_string())],
        None => reference
            .matching(pattern)
            .iter()
            .map(|n| (n.to_string(), n.to_string()))
            .collect(),
    };
    if names.is_empty() {
        return Err(format!("no reference column matches `{pattern}`"));
    }
    let (Some(xs), Some(xr)) = (case.abscissa(), reference.abscissa()) else {
        return Err("empty table".into());
    };
    let pairs = align(&xs.values, &xr.values)?;
    let mut d = CurveDifference {
        max_abs: 0.0,
        max_ref: 0.0,
        sum_sq: 0.0,
        sum_ref_sq: 0.0,
        points: 0,
        columns: names.len(),
        interpolated: pairs.iter().any(|p| p.interpolated),
    };
    for (name, ref_name) in &names {
        let r = reference
            .values(ref_name)
            .ok_or_else(|| format!("reference has no column `{ref_name}`"))?;
        let y = case
            .values(name)
            .ok_or_else(|| format!("case has no column `{name}`"))?;
        for p in &pairs {
            let rv = p.interpolate(r);
            let e = y[p.case_row] - rv;
            if e.is_nan() {
                return Err(format!("NaN in `{name}`"));
            }
            d.max_abs = d.max_abs.max(e.abs());
            d.max_ref = d.max_ref.max(rv.abs());
            d.sum_sq += e * e;
            d.sum_ref_sq += rv * rv;
            d.points += 1;
        }
    }
    Ok(d)
}

/// Curve metric of [`curve_difference`], with a detail line.
pub fn curve_metric(
    metric: Metric,
    case: &Table,
    reference: &Table,
    pattern: &str,
    ref_column: Option<&str>,
) -> (f64, String) {
    let d = match curve_difference(case, reference, pattern, ref_column) {
        Ok(d) => d,
        Err(msg) => return (f64::NAN, msg),
    };
    let value = match metric {
        Metric::MaxAbs => d.max_abs,
        Metric::MaxRel => relative(d.max_abs, d.max_ref),
        Metric::RmsRel => relative(d.sum_sq.sqrt(), d.sum_ref_sq.sqrt()),
        _ => f64::NAN,
    };
    let how = if d.interpolated {
        "interpolated"
    } else {
        "common"
    };
    let per_column = d.points / d.columns.max(1);
    (
        value,
        format!(
            "{} column(s) at {per_column} {how} points; max |ref| = {:.3e}",
            d.columns, d.max_ref
        ),
    )
}

/// A case scalar over the cases (sorted by the abscissa scalar named by the
/// file's first column) against the file's column.
fn summary_curve(
    spec: &CheckSpec,
    cases: &[(String, CaseResult)],
    reference: &Table,
) -> (f64, String) {
    let Some(abscissa) = reference.abscissa().map(|c| c.name.clone()) else {
        return (f64::NAN, "empty reference".into());
    };
    let mut pts = Vec::new();
    for (name, result) in cases {
        if spec.cases.as_ref().is_some_and(|only| !only.contains(name)) {
            continue;
        }
        match result {
            Ok(o) => match (o.scalar(&abscissa), o.scalar(&spec.quantity)) {
                (Some(x), Some(y)) => pts.push((x, y)),
                _ => {
                    return (
                        f64::NAN,
                        format!("case {name} lacks `{abscissa}` or `{}`", spec.quantity),
                    );
                }
            },
            Err(e) => return (f64::NAN, format!("case {name} failed: {e}")),
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

/// A comparison point: case row, and the reference value found between
/// reference rows `lo` and `lo + 1` with linear weight `weight`.
#[derive(Debug, Clone, Copy)]
struct Pair {
    case_row: usize,
    lo: usize,
    weight: f64,
    interpolated: bool,
}

impl Pair {
    fn interpolate(&self, r: &[f64]) -> f64 {
        if self.interpolated {
            r[self.lo] * (1.0 - self.weight) + r[self.lo + 1] * self.weight
        } else {
            r[self.lo]
        }
    }
}

/// Matches case abscissae with reference abscissae (both increasing).
fn align(xs: &[f64], xr: &[f64]) -> Result<Vec<Pair>, String> {
    if xr.is_empty() || xs.is_empty() {
        return Err("empty abscissa".into());
    }
    let scale = xs
        .iter()
        .chain(xr)
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1.0);
    let tol = 1e-9 * scale;
    // Common points: every reference point is a case point.
    let mut common = Vec::with_capacity(xr.len());
    let mut i = 0;
    for (k, &x) in xr.iter().enumerate() {
        while i < xs.len() && xs[i] < x - tol {
            i += 1;
        }
        if i < xs.len() && (xs[i] - x).abs() <= tol {
            common.push(Pair {
                case_row: i,
                lo: k,
                weight: 0.0,
                interpolated: false,
            });
        } else {
            common.clear();
            break;
        }
    }
    if !common.is_empty() {
        return Ok(common);
    }
    // Otherwise interpolate the reference at the case points in its range.
    let mut pairs = Vec::new();
    let mut k = 0;
    for (row, &x) in xs.iter().enumerate() {
        if x < xr[0] - tol || x > xr[xr.len() - 1] + tol {
            continue;
        }
        while k + 1 < xr.len() - 1 && xr[k + 1] < x {
            k += 1;
        }
        if xr.len() == 1 {
            pairs.push(Pair {
                case_row: row,
                lo: 0,
                weight: 0.0,
                interpolated: false,
            });
            continue;
        }
        let w = ((x - xr[k]) / (xr[k + 1] - xr[k])).clamp(0.0, 1.0);
        pairs.push(Pair {
            case_row: row,
            lo: k,
            weight: w,
            interpolated: true,
        });
    }
    if pairs.is_empty() {
        return Err("case abscissa lies outside the reference range".into());
    }
    Ok(pairs)
}
