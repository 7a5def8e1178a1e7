//! Checks as written and as resolved: the `[[study.check]]` table, its
//! metric and method filter, and its resolution against what a study
//! provides (scope, reference file or named reference, tolerance).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::study::Provides;
use crate::harness::table::{Table, name_matches};

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
    /// Scalars: y / r (a claim's criterion only: its comparison says which
    /// side passes).
    Ratio,
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
            Metric::Ratio => "ratio",
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

/// `method = "label"` or `method = ["a", "b"]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum MethodFilter {
    /// One method label.
    One(String),
    /// Several labels.
    Many(Vec<String>),
}

impl MethodFilter {
    /// The labels.
    pub fn labels(&self) -> Vec<&str> {
        match self {
            MethodFilter::One(s) => vec![s.as_str()],
            MethodFilter::Many(v) => v.iter().map(String::as_str).collect(),
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
    /// Only these methods (default: every method).
    #[serde(default)]
    pub method: Option<MethodFilter>,
    /// A case table, a method label, a reference file (`*.csv`) or a scalar
    /// name.
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
        self.validate_at(file, study, &format!("study.check[{index}]"), false)
    }

    /// [`CheckSpec::validate`] for the entry at key `at` (e.g.
    /// `study.claim[0].criterion[1]`); `criterion`: a claim's criterion,
    /// which may use the `ratio` metric.
    pub fn validate_at(
        &self,
        file: &Path,
        study: &str,
        at: &str,
        criterion: bool,
    ) -> Result<(), InputError> {
        let key = |k: &str| format!("{at}.{k}");
        if self.metric == Metric::Ratio && !criterion {
            return Err(InputError::value(
                file,
                study,
                key("metric"),
                "\"ratio\"",
                "max-abs, max-rel, rms-rel, abs, rel, at-least or at-most (`ratio` is a metric of claims' criteria)",
            ));
        }
        if !(self.tolerance.is_finite()) || (!self.metric.is_bound() && self.tolerance < 0.0) {
            return Err(InputError::value(
                file,
                study,
                key("tolerance"),
                self.tolerance,
                "a finite number (>= 0 for error metrics)",
            ));
        }
        if let Some(MethodFilter::Many(v)) = &self.method
            && v.is_empty()
        {
            return Err(InputError::value(
                file,
                study,
                key("method"),
                "[]",
                "a method label or a non-empty list of them",
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

    /// Whether the check applies to method `label`.
    pub fn applies_to(&self, label: &str) -> bool {
        self.method
            .as_ref()
            .is_none_or(|f| f.labels().contains(&label))
    }

    /// Whether the check applies to case `name`.
    pub fn applies_to_case(&self, name: &str) -> bool {
        self.cases
            .as_ref()
            .is_none_or(|only| only.iter().any(|c| c == name))
    }
}

fn known(names: &[String], name: &str) -> bool {
    names.iter().any(|p| p == name || name_matches(p, name))
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
    /// A study scalar: one row per (method, group) value.
    Study,
    /// A case scalar: one row per case.
    CaseScalar,
    /// A method scalar: one row per (case, method).
    MethodScalar,
    /// Columns of the method series: one row per (case, method).
    Columns,
    /// A case or method scalar across the cases against a reference file
    /// whose first column names another scalar (the abscissa, e.g.
    /// `omega`): one row per method (one row for a case scalar).
    SummaryCurve {
        /// Whether the quantity is a method scalar (else a case scalar).
        per_method: bool,
    },
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
    let at = format!("study.check[{index}]");
    resolve_at(spec, &at, provides, file, study, cases, false)
}

/// The prefix of the measured quantities a claim's criterion may name: a
/// method run's timing (`timing.cpu_s`, `timing.<counter>`,
/// `timing.<stat>`, e.g. `timing.constraint_share`). Checks may not: their
/// results are identical between runs, measured times are not.
pub const TIMING_PREFIX: &str = "timing.";

/// [`resolve`] for the entry at key `at`; `measured`: the entry may name
/// measured quantities (a claim's criterion: [`TIMING_PREFIX`] quantities
/// and the speed-up scalars the harness adds).
pub fn resolve_at(
    spec: &CheckSpec,
    at: &str,
    provides: &Provides,
    file: &Path,
    study: &str,
    cases: &[String],
    measured: bool,
) -> Result<ResolvedCheck, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    let bad = |k: &str, value: String, expected: String| {
        InputError::value(file, study, key(k), value, expected)
    };
    let q = spec.quantity.as_str();
    let timing = measured && q.starts_with(TIMING_PREFIX) && q.len() > TIMING_PREFIX.len();
    let mut scope = quantity_scope(q, timing, provides).map_err(|allowed| {
        bad(
            "quantity",
            format!("\"{q}\""),
            format!("one of {allowed} (`*` stands for an index)"),
        )
    })?;
    if let Some(filter) = &spec.method {
        for label in filter.labels() {
            if !provides.methods.iter().any(|m| m == label) {
                return Err(bad(
                    "method",
                    format!("\"{label}\""),
                    format!("a method of this study: {}", provides.methods.join(", ")),
                ));
            }
        }
        if scope == Scope::CaseScalar {
            return Err(bad(
                "method",
                format!("{filter:?}"),
                format!("no `method`: `{q}` is a scalar of the case, not of a method"),
            ));
        }
    }
    let file_scalar =
        matches!(scope, Scope::CaseScalar | Scope::MethodScalar) && spec.reference_file().is_some();
    if (scope == Scope::Columns || file_scalar) != spec.metric.is_curve() {
        return Err(bad(
            "metric",
            format!("\"{}\"", spec.metric.name()),
            if scope == Scope::Columns || file_scalar {
                "a curve metric (max-abs, max-rel, rms-rel) for a column quantity or a reference file".into()
            } else {
                "a scalar metric (abs, rel, at-least, at-most) for a scalar quantity".into()
            },
        ));
    }
    if let Some(only) = &spec.cases {
        for c in only {
            if !cases.contains(c) {
                return Err(bad(
                    "cases",
                    format!("\"{c}\""),
                    format!("a case of this study: {}", cases.join(", ")),
                ));
            }
        }
    }
    let mut loaded = None;
    if let Some(reference) = &spec.reference {
        let bad_ref = |message: String| bad("reference", format!("\"{reference}\""), message);
        if let Some(rel) = spec.reference_file() {
            let wanted = spec.column.as_deref().unwrap_or(q);
            let (path, table, file_scope) =
                file_reference(file, rel, wanted, scope, provides).map_err(bad_ref)?;
            scope = file_scope;
            loaded = Some((path, table));
        } else {
            named_reference(scope, reference, provides).map_err(bad_ref)?;
        }
    }
    Ok(ResolvedCheck {
        spec: spec.clone(),
        file: loaded,
        scope,
    })
}

/// Where quantity `q` lives: a timing, a study, method or case scalar, or
/// columns (the first that names it); else `Err` with the names allowed.
fn quantity_scope(q: &str, timing: bool, provides: &Provides) -> Result<Scope, String> {
    let scalar_name = !q.contains('*');
    Ok(if timing {
        Scope::MethodScalar
    } else if scalar_name && known(&provides.study_scalars, q) {
        Scope::Study
    } else if scalar_name && known(&provides.method_scalars, q) {
        Scope::MethodScalar
    } else if scalar_name && known(&provides.case_scalars, q) {
        Scope::CaseScalar
    } else if provides
        .columns
        .iter()
        .any(|p| p == q || name_matches(p, q))
    {
        Scope::Columns
    } else {
        let allowed: Vec<&str> = provides
            .scalars()
            .chain(&provides.columns)
            .map(String::as_str)
            .collect();
        return Err(allowed.join(", "));
    })
}

/// A reference `.csv` file `rel` (beside the spec `file`): read, with
/// column `wanted`; a scalar quantity becomes a summary curve over the
/// file's abscissa, which must name a case or method scalar. Returns the
/// path, the table and the check's scope; `Err` says what is wrong.
fn file_reference(
    file: &Path,
    rel: &str,
    wanted: &str,
    scope: Scope,
    provides: &Provides,
) -> Result<(PathBuf, Table, Scope), String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let path = dir.join(rel);
    let table = crate::harness::reference::read_csv(&path)?;
    let found = if wanted.contains('*') {
        !table.matching(wanted).is_empty()
    } else {
        table.column(wanted).is_some()
    };
    if !found {
        return Err(format!("the file has no column `{wanted}`"));
    }
    let scope = match scope {
        Scope::CaseScalar | Scope::MethodScalar => {
            let abscissa = table.abscissa().map(|c| c.name.clone()).unwrap_or_default();
            if !known(&provides.case_scalars, &abscissa)
                && !known(&provides.method_scalars, &abscissa)
            {
                return Err(format!(
                    "for a scalar quantity the file's first column must name a case or method scalar (the abscissa), found `{abscissa}`"
                ));
            }
            Scope::SummaryCurve {
                per_method: scope == Scope::MethodScalar,
            }
        }
        Scope::Study => {
            return Err("a reference file needs a column or case-scalar quantity".into());
        }
        other => other,
    };
    Ok((path, table, scope))
}

/// A reference named in the spec (not a file): for columns a table of the
/// case or a method; for a method scalar another method or a scalar; else
/// a scalar. `Err` says what is allowed.
fn named_reference(scope: Scope, reference: &str, provides: &Provides) -> Result<(), String> {
    let ok = match scope {
        Scope::Columns => {
            provides.tables.iter().any(|t| t == reference)
                || provides.methods.iter().any(|m| m == reference)
        }
        // A method scalar may be compared with the same scalar of
        // another method of the case (`reference = "<label>"`).
        Scope::MethodScalar if provides.methods.iter().any(|m| m == reference) => true,
        _ => {
            known(&provides.study_scalars, reference)
                || known(&provides.method_scalars, reference)
                || known(&provides.case_scalars, reference)
        }
    };
    if !ok {
        let allowed = match scope {
            Scope::Columns if provides.tables.is_empty() => format!(
                "a method of the study ({}) or a .csv file (no case of this study has an exact reference)",
                provides.methods.join(", ")
            ),
            Scope::Columns => format!(
                "a table of the case ({}), a method of the study ({}) or a .csv file",
                provides.tables.join(", "),
                provides.methods.join(", ")
            ),
            Scope::MethodScalar => format!(
                "a method of the study ({}) or a scalar ({})",
                provides.methods.join(", "),
                provides.scalars().cloned().collect::<Vec<_>>().join(", ")
            ),
            _ => format!(
                "a scalar ({})",
                provides.scalars().cloned().collect::<Vec<_>>().join(", ")
            ),
        };
        return Err(allowed);
    }
    Ok(())
}
