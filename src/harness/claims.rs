//! Claims: what a seed paper says, as data with a verdict.
//!
//! A study lists the claims of its seed it tests (`[[study.claim]]`): an
//! `id`, the `seed` (paper), the seed's own `words`, what the harness
//! expects (`expect = "reproduced"` or `"not-reproduced"`, with the
//! `reason`) and one or more criteria (`[[study.claim.criterion]]`). A
//! criterion is a check's comparison (quantity, method, reference or value,
//! metric, cases; see `harness::checks`) judged by a `comparison`
//! (`at-most` / `at-least`) against a `threshold`; over its rows (one per
//! case and method, as a check's) it holds when `aggregate = "all"` (the
//! default) of them satisfy it, or when their median does
//! (`aggregate = "median"`). A claim is reproduced when every criterion
//! holds. A verdict unlike `expect` fails the run as a failed check does.
//!
//! Criteria may name what checks may not, because a claim about speed is
//! about measured times: a method run's timing (`timing.cpu_s`,
//! `timing.<counter>`, `timing.<stat>`) and the study scalars
//! `speedup_median`, `speedup_min`, `speedup_max` (per method and group:
//! the speed-ups at equal accuracy over the study's baseline, over the
//! common converged range, `harness::sweep`), the kind's measured study
//! values (`StudySummary::measured`, e.g. a cost ratio), and the metric `ratio`
//! (y / r). Such values differ between runs: `claims.csv` is a result of
//! the run like `timings.csv`, and a claim's threshold is set so that the
//! machine's noise cannot flip it (say so in its `reason`).

use std::path::Path;

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::checks::{self, CheckSpec, MethodFilter, Metric, ResolvedCheck};
use crate::harness::rows::{CheckRow, ClaimRow, Formulation, SpeedupRow, Verdict};
use crate::harness::study::{CaseOutput, Provides, StudyScalar, StudySummary};

/// Which side of the threshold satisfies a criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// value <= threshold.
    AtMost,
    /// value >= threshold.
    AtLeast,
}

impl Comparison {
    fn holds(self, value: f64, threshold: f64) -> bool {
        match self {
            Comparison::AtMost => value <= threshold,
            Comparison::AtLeast => value >= threshold,
        }
    }

    /// "at most", "at least": what the criterion needs, in words.
    fn words(self) -> &'static str {
        match self {
            Comparison::AtMost => "at most",
            Comparison::AtLeast => "at least",
        }
    }
}

/// How a criterion's rows are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregate {
    /// Every row satisfies the comparison (the worst row is the value).
    #[default]
    All,
    /// The median of the rows' values satisfies it.
    Median,
}

/// The metric of a criterion: a check's, or `value` (the quantity itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CriterionMetric {
    /// The quantity itself (no reference).
    Value,
    /// |y - r|.
    Abs,
    /// |y - r| / |r|.
    Rel,
    /// y / r.
    Ratio,
    /// Curves: max |y - r|.
    MaxAbs,
    /// Curves: max |y - r| / max |r|.
    MaxRel,
    /// Curves: ||y - r|| / ||r||.
    RmsRel,
}

impl CriterionMetric {
    fn check_metric(self) -> Metric {
        match self {
            // A bound metric evaluates to the quantity itself.
            CriterionMetric::Value => Metric::AtMost,
            CriterionMetric::Abs => Metric::Abs,
            CriterionMetric::Rel => Metric::Rel,
            CriterionMetric::Ratio => Metric::Ratio,
            CriterionMetric::MaxAbs => Metric::MaxAbs,
            CriterionMetric::MaxRel => Metric::MaxRel,
            CriterionMetric::RmsRel => Metric::RmsRel,
        }
    }

    fn name(self) -> &'static str {
        match self {
            CriterionMetric::Value => "value",
            other => other.check_metric().name(),
        }
    }
}

/// A `[[study.claim.criterion]]` as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriterionSpec {
    /// What is compared (as a check's `quantity`).
    pub quantity: String,
    /// Only these methods.
    #[serde(default)]
    pub method: Option<MethodFilter>,
    /// A table, method, file or scalar (as a check's `reference`).
    #[serde(default)]
    pub reference: Option<String>,
    /// The column of a reference file.
    #[serde(default)]
    pub column: Option<String>,
    /// A number to compare with.
    #[serde(default)]
    pub value: Option<f64>,
    /// The metric.
    pub metric: CriterionMetric,
    /// Which side of the threshold holds.
    pub comparison: Comparison,
    /// The threshold.
    pub threshold: f64,
    /// How the rows combine (default: all).
    #[serde(default)]
    pub aggregate: Aggregate,
    /// Only these cases.
    #[serde(default)]
    pub cases: Option<Vec<String>>,
}

/// A `[[study.claim]]` as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    /// Unique within the study (lowercase letters, digits, '-').
    pub id: String,
    /// The seed paper (short citation).
    pub seed: String,
    /// The seed's own words (or their translation).
    pub words: String,
    /// The verdict the harness expects.
    pub expect: Verdict,
    /// Why that verdict is expected: a prediction with its reason, from
    /// the physics or the seed's text, written before the run (required:
    /// an expectation copied from a run would make the guard circular).
    #[serde(default)]
    pub why: String,
    /// What the runs showed (measured numbers), if anything beyond the
    /// criterion's values.
    #[serde(default)]
    pub reason: String,
    /// One line: the measured cause of a `not-reproduced` verdict, shown on
    /// the report's first screen.
    #[serde(default)]
    pub cause: String,
    /// What the verdict is judged on: `seed`, `exact` or `model` (default).
    #[serde(default)]
    pub formulation: Formulation,
    /// The criteria; all must hold.
    pub criterion: Vec<CriterionSpec>,
}

impl ClaimSpec {
    /// The criterion as a check spec (its comparison aside).
    fn check_spec(&self, k: usize) -> CheckSpec {
        let c = &self.criterion[k];
        CheckSpec {
            name: format!("{}#{}", self.id, k + 1),
            quantity: c.quantity.clone(),
            method: c.method.clone(),
            reference: c.reference.clone(),
            column: c.column.clone(),
            value: c.value,
            metric: c.metric.check_metric(),
            // The bound of a `value` criterion; unused otherwise.
            tolerance: c.threshold,
            cases: c.cases.clone(),
            why: String::new(),
        }
    }

    /// Validates what can be validated before the run.
    pub fn validate(&self, file: &Path, study: &str, index: usize) -> Result<(), InputError> {
        let at = format!("study.claim[{index}]");
        let bad = |k: &str, value: &str, expected: &str| {
            InputError::value(file, study, format!("{at}.{k}"), value, expected)
        };
        let valid_id = !self.id.is_empty()
            && self
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid_id {
            return Err(bad(
                "id",
                &format!("\"{}\"", self.id),
                "lowercase letters, digits and '-' only",
            ));
        }
        for (k, v) in [("seed", &self.seed), ("words", &self.words)] {
            if v.trim().is_empty() {
                return Err(bad(k, "\"\"", "a non-empty string"));
            }
        }
        if self.why.trim().is_empty() {
            return Err(bad(
                "why",
                "\"\"",
                "the prediction's reason: why this verdict is expected, from the physics or the seed's text, written before the run",
            ));
        }
        if self.criterion.is_empty() {
            return Err(bad(
                "criterion",
                "[]",
                "at least one [[study.claim.criterion]]",
            ));
        }
        for (k, c) in self.criterion.iter().enumerate() {
            if !c.threshold.is_finite() {
                return Err(bad(
                    &format!("criterion[{k}].threshold"),
                    &c.threshold.to_string(),
                    "a finite number",
                ));
            }
            if c.metric == CriterionMetric::Value && (c.reference.is_some() || c.value.is_some()) {
                return Err(bad(
                    &format!("criterion[{k}].metric"),
                    "\"value\"",
                    "`value` compares the quantity itself with the threshold: give neither `reference` nor `value`",
                ));
            }
            self.check_spec(k)
                .validate_at(file, study, &format!("{at}.criterion[{k}]"), true)?;
        }
        Ok(())
    }
}

/// The study scalars the harness adds for claims: the speed-ups at equal
/// accuracy over the baseline, per method and group.
pub const SPEEDUP_SCALARS: [&str; 3] = ["speedup_median", "speedup_min", "speedup_max"];

/// A claim ready to evaluate: its spec and its criteria resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedClaim {
    /// The spec.
    pub spec: ClaimSpec,
    /// One resolved check per criterion.
    pub criteria: Vec<ResolvedCheck>,
}

/// Resolves a claim's criteria against what the study provides plus the
/// measured quantities claims may name (`measured`: the kind's measured
/// study values, `Study::measured_scalars`).
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    spec: &ClaimSpec,
    index: usize,
    provides: &Provides,
    measured: &[String],
    file: &Path,
    study: &str,
    cases: &[String],
) -> Result<ResolvedClaim, InputError> {
    let mut provides = provides.clone();
    provides
        .study_scalars
        .extend(SPEEDUP_SCALARS.iter().map(|s| s.to_string()));
    provides.study_scalars.extend(measured.iter().cloned());
    let criteria = (0..spec.criterion.len())
        .map(|k| {
            let at = format!("study.claim[{index}].criterion[{k}]");
            checks::resolve_at(
                &spec.check_spec(k),
                &at,
                &provides,
                file,
                study,
                cases,
                true,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ResolvedClaim {
        spec: spec.clone(),
        criteria,
    })
}

/// The speed-up scalars of [`SPEEDUP_SCALARS`] from a study's speed-up
/// rows over `baseline`.
pub fn speedup_scalars(speedups: &[SpeedupRow], baseline: Option<&str>) -> Vec<StudyScalar> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for r in speedups
        .iter()
        .filter(|r| Some(r.baseline.as_str()) == baseline)
    {
        if !keys.contains(&(r.method.as_str(), r.group.as_str())) {
            keys.push((&r.method, &r.group));
        }
    }
    let mut out = Vec::new();
    for (method, group) in keys {
        let values: Vec<f64> = speedups
            .iter()
            .filter(|r| {
                r.method == method && r.group == group && Some(r.baseline.as_str()) == baseline
            })
            .map(|r| r.speedup)
            .filter(|v| v.is_finite())
            .collect();
        if values.is_empty() {
            continue;
        }
        let stats = [
            crate::harness::timing::median(&values),
            values.iter().copied().fold(f64::INFINITY, f64::min),
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ];
        for (name, value) in SPEEDUP_SCALARS.iter().zip(stats) {
            out.push(StudyScalar {
                scalar: crate::harness::study::Scalar::new(
                    *name,
                    value,
                    "speed-up at equal accuracy over the baseline (measured)",
                ),
                method: Some(method.to_string()),
                group: group.to_string(),
            });
        }
    }
    out
}

/// Evaluates a study's claims. `summary`'s scalars are those of the study;
/// the speed-up scalars are added from `speedups` over `baseline`.
pub fn evaluate(
    claims: &[ResolvedClaim],
    study: &str,
    cases: &[CaseOutput],
    summary: &StudySummary,
    speedups: &[SpeedupRow],
    baseline: Option<&str>,
) -> Vec<ClaimRow> {
    if claims.is_empty() {
        return Vec::new();
    }
    let mut scalars = summary.scalars.clone();
    scalars.extend(summary.measured.iter().cloned());
    scalars.extend(speedup_scalars(speedups, baseline));
    let augmented = StudySummary {
        scalars,
        ..StudySummary::default()
    };
    claims
        .iter()
        .map(|claim| evaluate_claim(claim, study, cases, &augmented))
        .collect()
}

/// One criterion's outcome: whether it holds, its value and its words.
struct CriterionOutcome {
    holds: bool,
    value: f64,
    words: String,
}

fn evaluate_claim(
    claim: &ResolvedClaim,
    study: &str,
    cases: &[CaseOutput],
    summary: &StudySummary,
) -> ClaimRow {
    let outcomes: Vec<CriterionOutcome> = claim
        .criteria
        .iter()
        .zip(&claim.spec.criterion)
        .map(|(resolved, c)| {
            let rows = checks::evaluate(resolved, study, cases, summary);
            judge(c, &rows)
        })
        .collect();
    let holds = outcomes.iter().all(|o| o.holds);
    let failing = outcomes.iter().find(|o| !o.holds);
    let deciding = failing.or(outcomes.first()).map_or(f64::NAN, |o| o.value);
    let cause = match failing {
        None => String::new(),
        Some(_) if !claim.spec.cause.trim().is_empty() => claim.spec.cause.trim().to_string(),
        Some(o) => o.words.clone(),
    };
    let reason = if claim.spec.reason.trim().is_empty() {
        claim.spec.why.trim().to_string()
    } else {
        format!(
            "{} Measured: {}",
            claim.spec.why.trim(),
            claim.spec.reason.trim()
        )
    };
    ClaimRow {
        study: study.to_string(),
        claim: claim.spec.id.clone(),
        seed: claim.spec.seed.clone(),
        verdict: if holds {
            Verdict::Reproduced
        } else {
            Verdict::NotReproduced
        },
        expect: claim.spec.expect,
        value: deciding,
        criterion: outcomes
            .iter()
            .map(|o| o.words.as_str())
            .collect::<Vec<_>>()
            .join("; and "),
        words: claim.spec.words.clone(),
        reason,
        formulation: claim.spec.formulation,
        cause,
        holds_in: None,
        robustness: String::new(),
    }
}

/// Judges one criterion over its rows.
fn judge(c: &CriterionSpec, rows: &[CheckRow]) -> CriterionOutcome {
    let values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    let finite = !values.is_empty() && values.iter().all(|v| v.is_finite());
    let value = if !finite {
        f64::NAN
    } else {
        match c.aggregate {
            Aggregate::Median => crate::harness::timing::median(&values),
            // The worst row: the one furthest on the failing side.
            Aggregate::All => match c.comparison {
                Comparison::AtMost => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Comparison::AtLeast => values.iter().copied().fold(f64::INFINITY, f64::min),
            },
        }
    };
    let holds = finite && c.comparison.holds(value, c.threshold);
    let against = match (&c.reference, c.value) {
        (Some(r), _) => format!(" against {r}"),
        (None, Some(v)) => format!(" against {}", crate::harness::format::sig(v)),
        (None, None) => String::new(),
    };
    let methods = c
        .method
        .as_ref()
        .map(|m| format!(" of {}", m.labels().join(", ")))
        .unwrap_or_default();
    let over = match c.aggregate {
        Aggregate::All if rows.len() > 1 => format!(" (worst of {} rows)", rows.len()),
        Aggregate::Median => format!(" (median of {} rows)", rows.len()),
        _ => String::new(),
    };
    let why = if finite {
        String::new()
    } else {
        rows.iter()
            .find(|r| !r.value.is_finite())
            .map(|r| format!(" [not computed: {}]", r.detail))
            .unwrap_or_else(|| " [no rows]".into())
    };
    let metric = match c.metric {
        CriterionMetric::Value => String::new(),
        m => format!("{} ", m.name()),
    };
    CriterionOutcome {
        holds,
        value,
        words: format!(
            "{metric}{}{methods}{against}: needs {} {}; measured {}{over}: {}{why}",
            c.quantity,
            c.comparison.words(),
            crate::harness::format::sig(c.threshold),
            crate::harness::format::sig(value),
            if holds { "met" } else { "not met" },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(value: f64) -> CheckRow {
        CheckRow {
            study: "s".into(),
            case: "c".into(),
            method: "m".into(),
            check: "x".into(),
            metric: "abs".into(),
            reference: "-".into(),
            value,
            tolerance: 0.0,
            passed: true,
            detail: "d".into(),
            why: String::new(),
        }
    }

    fn criterion(comparison: Comparison, threshold: f64, aggregate: Aggregate) -> CriterionSpec {
        CriterionSpec {
            quantity: "q".into(),
            method: None,
            reference: None,
            column: None,
            value: None,
            metric: CriterionMetric::Value,
            comparison,
            threshold,
            aggregate,
            cases: None,
        }
    }

    #[test]
    fn a_criterion_holds_on_its_worst_row_or_its_median() {
        let rows = [row(1.0), row(5.0), row(9.0)];
        let c = criterion(Comparison::AtMost, 6.0, Aggregate::All);
        let o = judge(&c, &rows);
        assert!(!o.holds);
        assert_eq!(o.value, 9.0);
        let c = criterion(Comparison::AtMost, 6.0, Aggregate::Median);
        let o = judge(&c, &rows);
        assert!(o.holds, "{}", o.words);
        assert_eq!(o.value, 5.0);
        let c = criterion(Comparison::AtLeast, 1.0, Aggregate::All);
        assert!(judge(&c, &rows).holds);
        let c = criterion(Comparison::AtLeast, 1.5, Aggregate::All);
        assert!(!judge(&c, &rows).holds);
    }

    #[test]
    fn a_criterion_without_a_value_never_holds() {
        let c = criterion(Comparison::AtMost, 1e300, Aggregate::All);
        let o = judge(&c, &[row(f64::NAN)]);
        assert!(!o.holds);
        assert!(o.words.contains("not computed"), "{}", o.words);
        assert!(!judge(&c, &[]).holds);
    }

    #[test]
    fn speed_up_scalars_are_over_the_baseline_only() {
        let r = |method: &str, baseline: &str, s: f64| SpeedupRow {
            method: method.into(),
            baseline: baseline.into(),
            error: 1.0,
            speedup: s,
            group: String::new(),
        };
        let rows = [
            r("a", "b", 2.0),
            r("a", "b", 4.0),
            r("a", "b", 10.0),
            r("a", "peer", 100.0),
        ];
        let s = speedup_scalars(&rows, Some("b"));
        let get = |n: &str| s.iter().find(|x| x.scalar.name == n).unwrap().scalar.value;
        assert_eq!(get("speedup_median"), 4.0);
        assert_eq!(get("speedup_min"), 2.0);
        assert_eq!(get("speedup_max"), 10.0);
        assert_eq!(s.len(), 3);
    }
}
