//! The columns of the result tables: summary.csv, study.csv,
//! work-precision.csv, speedup.csv, checks.csv and timings.csv (see the
//! module doc of `harness::results`).

use std::path::Path;

use crate::error::OutputError;
use crate::harness::frame::{CellColumn, format_error};
use crate::harness::outcome::{RunResult, StudyResult};
use crate::harness::study::{Scalar, Timing};
use crate::harness::timing::{cpu_per_step, speedups};

/// `study.csv`: the study-level scalars.
pub(super) fn study_scalar_columns(study: &StudyResult) -> Vec<(String, CellColumn)> {
    let scalars = &study.summary.scalars;
    let text = |f: &dyn Fn(&crate::harness::study::StudyScalar) -> String| {
        CellColumn::Text(scalars.iter().map(f).collect())
    };
    vec![
        ("name".into(), text(&|s| s.scalar.name.clone())),
        (
            "value".into(),
            CellColumn::Float(scalars.iter().map(|s| s.scalar.value).collect()),
        ),
        ("meaning".into(), text(&|s| s.scalar.doc.clone())),
        (
            "method".into(),
            text(&|s| s.method.clone().unwrap_or_default()),
        ),
        ("group".into(), text(&|s| s.group.clone())),
    ]
}

/// `work-precision.csv`.
pub(super) fn work_precision_columns(study: &StudyResult) -> Vec<(String, CellColumn)> {
    let rows = &study.work_precision;
    let text = |f: &dyn Fn(&crate::harness::rows::WorkPrecisionRow) -> String| {
        CellColumn::Text(rows.iter().map(f).collect())
    };
    let float = |f: &dyn Fn(&crate::harness::rows::WorkPrecisionRow) -> f64| {
        CellColumn::Float(rows.iter().map(f).collect())
    };
    vec![
        ("case".into(), text(&|r| r.case.clone())),
        ("method".into(), text(&|r| r.method.clone())),
        ("parameter".into(), text(&|r| r.parameter.clone())),
        ("value".into(), float(&|r| r.value)),
        ("error".into(), float(&|r| r.error)),
        ("cpu_s".into(), float(&|r| r.cpu_s)),
        ("cpu_s_spread".into(), float(&|r| r.cpu_s_spread)),
        ("group".into(), text(&|r| r.group.clone())),
    ]
}

/// `speedup.csv`: the speed-up rows, each with the converged error ranges
/// behind it (empty for a kind's own rows against a peer tool), then one
/// row with empty `error` and `speedup` per comparison the harness refused
/// (no common converged range).
pub(super) fn speedup_columns(study: &StudyResult) -> Vec<(String, CellColumn)> {
    use crate::harness::rows::SpeedupRange;
    let range_of = |m: &str, b: &str, g: &str| -> Option<&SpeedupRange> {
        study
            .speedup_ranges
            .iter()
            .find(|r| r.method == m && r.baseline == b && r.group == g)
    };
    // (method, baseline, group, error, speedup, range)
    type Row<'a> = (
        &'a str,
        &'a str,
        &'a str,
        Option<f64>,
        Option<f64>,
        Option<&'a SpeedupRange>,
    );
    let mut rows: Vec<Row> = study
        .speedups
        .iter()
        .map(|r| {
            (
                r.method.as_str(),
                r.baseline.as_str(),
                r.group.as_str(),
                Some(r.error),
                Some(r.speedup),
                range_of(&r.method, &r.baseline, &r.group),
            )
        })
        .collect();
    rows.extend(
        study
            .speedup_ranges
            .iter()
            .filter(|r| r.common.is_none())
            .map(|r| {
                (
                    r.method.as_str(),
                    r.baseline.as_str(),
                    r.group.as_str(),
                    None,
                    None,
                    Some(r),
                )
            }),
    );
    let text = |f: &dyn Fn(&Row) -> String| CellColumn::Text(rows.iter().map(f).collect());
    let opt = |f: &dyn Fn(&Row) -> Option<f64>| CellColumn::OptFloat(rows.iter().map(f).collect());
    let bound = |which: fn(&SpeedupRange) -> Option<(f64, f64)>, hi: bool| {
        opt(&move |r: &Row| r.5.and_then(which).map(|(lo, h)| if hi { h } else { lo }))
    };
    vec![
        ("method".into(), text(&|r| r.0.to_string())),
        ("baseline".into(), text(&|r| r.1.to_string())),
        ("error".into(), opt(&|r| r.3)),
        ("speedup".into(), opt(&|r| r.4)),
        ("group".into(), text(&|r| r.2.to_string())),
        ("converged_min".into(), bound(|r| r.common, false)),
        ("converged_max".into(), bound(|r| r.common, true)),
        (
            "method_converged_min".into(),
            bound(|r| r.method_range, false),
        ),
        (
            "method_converged_max".into(),
            bound(|r| r.method_range, true),
        ),
        (
            "baseline_converged_min".into(),
            bound(|r| r.baseline_range, false),
        ),
        (
            "baseline_converged_max".into(),
            bound(|r| r.baseline_range, true),
        ),
        (
            "converged_rule".into(),
            text(&|r| {
                r.5.map_or_else(
                    || "not assessed: a kind's comparison with a peer tool's runs (see the study's notes)".to_string(),
                    |x| x.detail.clone(),
                )
            }),
        ),
    ]
}

/// Names (with the first doc seen) of the scalars picked by `pick` from
/// every case, in first-appearance order.
pub(super) fn scalar_union<'a>(
    study: &'a StudyResult,
    pick: impl Fn(&'a crate::harness::study::CaseOutput) -> Vec<&'a [Scalar]>,
) -> Vec<(&'a str, &'a str)> {
    let mut names: Vec<(&str, &str)> = Vec::new();
    for case in &study.cases {
        for scalars in pick(case) {
            for Scalar { name, doc, .. } in scalars {
                if !names.iter().any(|(n, _)| n == name) {
                    names.push((name, doc));
                }
            }
        }
    }
    names
}

/// The case scalars of a study.
pub(super) fn case_scalar_names(study: &StudyResult) -> Vec<(&str, &str)> {
    scalar_union(study, |c| vec![c.scalars.as_slice()])
}

/// The method scalars of a study.
pub(super) fn method_scalar_names(study: &StudyResult) -> Vec<(&str, &str)> {
    scalar_union(study, |c| {
        c.methods
            .iter()
            .filter_map(|m| m.output().map(|o| o.scalars.as_slice()))
            .collect()
    })
}

/// The fixed columns of summary.csv.
pub const SUMMARY_FIXED: [&str; 3] = ["case", "method", "status"];

pub(super) fn summary_columns(
    dir: &Path,
    study: &StudyResult,
) -> Result<Vec<(String, CellColumn)>, OutputError> {
    let case_names = case_scalar_names(study);
    let method_names = method_scalar_names(study);
    if let Some((clash, _)) = case_names
        .iter()
        .chain(&method_names)
        .find(|(n, _)| SUMMARY_FIXED.contains(n))
    {
        return Err(format_error(
            &dir.join("summary.csv"),
            format!("a scalar is called `{clash}`, which is a fixed column of summary.csv"),
        ));
    }
    if let Some((both, _)) = case_names
        .iter()
        .find(|(n, _)| method_names.iter().any(|(m, _)| m == n))
    {
        return Err(format_error(
            &dir.join("summary.csv"),
            format!("`{both}` is both a case scalar and a method scalar"),
        ));
    }
    // One row per (case, method); a case without methods still gets a row.
    let mut rows: Vec<(usize, Option<usize>)> = Vec::new();
    for (c, case) in study.cases.iter().enumerate() {
        if case.methods.is_empty() {
            rows.push((c, None));
        }
        rows.extend((0..case.methods.len()).map(|m| (c, Some(m))));
    }
    let text = |f: &dyn Fn(usize, Option<usize>) -> String| {
        CellColumn::Text(rows.iter().map(|&(c, m)| f(c, m)).collect())
    };
    let mut columns = vec![
        (
            "case".to_string(),
            text(&|c, _| study.cases[c].name.clone()),
        ),
        (
            "method".to_string(),
            text(&|c, m| {
                m.map_or(String::new(), |m| {
                    study.cases[c].methods[m].label().to_string()
                })
            }),
        ),
        (
            "status".to_string(),
            text(&|c, m| {
                let ok = m.is_none_or(|m| study.cases[c].methods[m].outcome.is_ok());
                if ok { "ok" } else { "failed" }.to_string()
            }),
        ),
    ];
    for (name, _) in case_names {
        let values = rows
            .iter()
            .map(|&(c, _)| study.cases[c].scalar(name))
            .collect();
        columns.push((name.to_string(), CellColumn::OptFloat(values)));
    }
    for (name, _) in method_names {
        let values = rows
            .iter()
            .map(|&(c, m)| {
                m.and_then(|m| study.cases[c].methods[m].output())
                    .and_then(|o| o.scalar(name))
            })
            .collect();
        columns.push((name.to_string(), CellColumn::OptFloat(values)));
    }
    Ok(columns)
}

pub(super) fn checks_columns(run: &RunResult) -> Vec<(String, CellColumn)> {
    let rows: Vec<_> = run.studies.iter().flat_map(|s| &s.checks).collect();
    let text = |f: &dyn Fn(&crate::harness::rows::CheckRow) -> String| {
        CellColumn::Text(rows.iter().map(|r| f(r)).collect())
    };
    vec![
        ("study".into(), text(&|r| r.study.clone())),
        ("case".into(), text(&|r| r.case.clone())),
        ("check".into(), text(&|r| r.check.clone())),
        (
            "value".into(),
            CellColumn::Float(rows.iter().map(|r| r.value).collect()),
        ),
        (
            "tolerance".into(),
            CellColumn::Float(rows.iter().map(|r| r.tolerance).collect()),
        ),
        (
            "passed".into(),
            CellColumn::Bool(rows.iter().map(|r| r.passed).collect()),
        ),
        ("metric".into(), text(&|r| r.metric.clone())),
        ("reference".into(), text(&|r| r.reference.clone())),
        ("detail".into(), text(&|r| r.detail.clone())),
        ("method".into(), text(&|r| r.method.clone())),
        ("why".into(), text(&|r| r.why.clone())),
    ]
}

pub(super) fn claims_columns(run: &RunResult) -> Vec<(String, CellColumn)> {
    let rows: Vec<_> = run.studies.iter().flat_map(|s| &s.claims).collect();
    let text = |f: &dyn Fn(&crate::harness::rows::ClaimRow) -> String| {
        CellColumn::Text(rows.iter().map(|r| f(r)).collect())
    };
    vec![
        ("study".into(), text(&|r| r.study.clone())),
        ("claim".into(), text(&|r| r.claim.clone())),
        ("seed".into(), text(&|r| r.seed.clone())),
        ("verdict".into(), text(&|r| r.verdict.name().into())),
        ("expect".into(), text(&|r| r.expect.name().into())),
        (
            "value".into(),
            CellColumn::Float(rows.iter().map(|r| r.value).collect()),
        ),
        ("criterion".into(), text(&|r| r.criterion.clone())),
        ("words".into(), text(&|r| r.words.clone())),
        ("reason".into(), text(&|r| r.reason.clone())),
        ("formulation".into(), text(&|r| r.formulation.name().into())),
        (
            "holds_in".into(),
            CellColumn::OptFloat(rows.iter().map(|r| r.holds_in.map(|h| h.0)).collect()),
        ),
        (
            "holds_lo".into(),
            CellColumn::OptFloat(rows.iter().map(|r| r.holds_in.map(|h| h.1)).collect()),
        ),
        (
            "holds_hi".into(),
            CellColumn::OptFloat(rows.iter().map(|r| r.holds_in.map(|h| h.2)).collect()),
        ),
        ("robustness".into(), text(&|r| r.robustness.clone())),
    ]
}

/// The fixed columns of timings.csv before the counters.
pub const TIMING_FIXED: [&str; 7] = [
    "study",
    "case",
    "method",
    "wall_s",
    "cpu_s",
    "cpu_s_spread",
    "runs",
];
/// The derived columns of timings.csv after the counters and stats.
pub const TIMING_DERIVED: [&str; 2] = ["cpu_per_step_s", "speedup"];

/// One row of timings.csv: study, case, the method's timing, its speedup.
type TimingRow<'a> = (&'a str, &'a str, &'a Timing, Option<f64>);

fn timing_rows(run: &RunResult) -> Vec<TimingRow<'_>> {
    let mut rows = Vec::new();
    for study in &run.studies {
        for case in &study.cases {
            let s = speedups(case.timings(), study.baseline.as_deref());
            for (timing, speedup) in case.timings().zip(s) {
                rows.push((study.name.as_str(), case.name.as_str(), timing, speedup));
            }
        }
    }
    rows
}

/// Counter names, then stat names, of `timings` in first-appearance order.
/// A name that is a fixed or derived column of timings.csv, or both a
/// counter and a stat, is an error (it would hide a column).
pub fn timing_names<'a>(
    path: &Path,
    timings: impl Iterator<Item = &'a Timing> + Clone,
) -> Result<(Vec<&'a str>, Vec<&'a str>), OutputError> {
    let union = |pick: fn(&'a Timing) -> &'a [(String, f64)]| {
        let mut names: Vec<&'a str> = Vec::new();
        for t in timings.clone() {
            for (name, _) in pick(t) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    };
    let counters = union(|t| &t.counters);
    let stats = union(|t| &t.stats);
    let reserved = TIMING_FIXED.iter().chain(&TIMING_DERIVED);
    for name in counters.iter().chain(&stats) {
        if reserved.clone().any(|r| r == name) {
            return Err(format_error(
                path,
                format!(
                    "a counter or stat is called `{name}`, which is a fixed column of timings.csv"
                ),
            ));
        }
    }
    if let Some(both) = stats.iter().find(|s| counters.contains(s)) {
        return Err(format_error(
            path,
            format!("`{both}` is both a counter and a stat of a timing"),
        ));
    }
    Ok((counters, stats))
}

pub(super) fn timings_columns(
    path: &Path,
    run: &RunResult,
) -> Result<Vec<(String, CellColumn)>, OutputError> {
    let rows = timing_rows(run);
    let (counters, stats) = timing_names(path, rows.iter().map(|r| r.2))?;
    let text = |f: &dyn Fn(&TimingRow) -> String| CellColumn::Text(rows.iter().map(f).collect());
    let float = |f: &dyn Fn(&TimingRow) -> f64| CellColumn::Float(rows.iter().map(f).collect());
    let mut columns = vec![
        ("study".to_string(), text(&|r| r.0.to_string())),
        ("case".to_string(), text(&|r| r.1.to_string())),
        ("method".to_string(), text(&|r| r.2.method.clone())),
        ("wall_s".to_string(), float(&|r| r.2.wall_s)),
        ("cpu_s".to_string(), float(&|r| r.2.cpu_s)),
        ("cpu_s_spread".to_string(), float(&|r| r.2.cpu_s_spread)),
        (
            "runs".to_string(),
            CellColumn::counters(rows.iter().map(|r| Some(r.2.runs as f64)).collect()),
        ),
    ];
    for name in counters {
        let values = rows.iter().map(|r| r.2.counter(name)).collect();
        columns.push((name.to_string(), CellColumn::counters(values)));
    }
    for name in stats {
        let values = rows.iter().map(|r| r.2.stat(name)).collect();
        columns.push((name.to_string(), CellColumn::OptFloat(values)));
    }
    columns.push((
        "cpu_per_step_s".to_string(),
        CellColumn::OptFloat(rows.iter().map(|r| cpu_per_step(r.2)).collect()),
    ));
    columns.push((
        "speedup".to_string(),
        CellColumn::OptFloat(rows.iter().map(|r| r.3).collect()),
    ));
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(method: &str, cpu_s: f64, steps: Option<f64>) -> Timing {
        Timing {
            method: method.into(),
            wall_s: 2.0 * cpu_s,
            cpu_s,
            cpu_s_spread: 0.0,
            runs: 1,
            counters: steps
                .map(|s| ("steps".to_string(), s))
                .into_iter()
                .collect(),
            stats: Vec::new(),
        }
    }

    #[test]
    fn speedup_is_against_the_baseline_and_only_at_equal_steps() {
        let timings = [
            timing("exact", 5.0, None),
            timing("sparse", 0.002, Some(1000.0)),
            timing("lemke", 2.0, Some(1000.0)),
            timing("half-steps", 0.5, Some(500.0)),
            timing("no-clock", f64::NAN, Some(1000.0)),
        ];
        assert_eq!(cpu_per_step(&timings[0]), None);
        assert_eq!(cpu_per_step(&timings[2]), Some(0.002));
        let s = speedups(timings.iter(), Some("lemke"));
        assert_eq!(s[0], None, "no steps");
        assert!((s[1].unwrap() - 1000.0).abs() < 1e-9, "{:?}", s[1]);
        assert_eq!(s[2], Some(1.0), "the baseline itself");
        assert_eq!(s[3], None, "other steps: not a speed-up");
        assert_eq!(s[4], None, "no time");
        // The first row is never the reference: without a baseline run, none.
        assert_eq!(speedups(timings.iter(), Some("absent")), vec![None; 5]);
        assert_eq!(speedups(timings.iter(), None), vec![None; 5]);
    }

    #[test]
    fn a_counter_named_like_a_fixed_column_is_an_error() {
        let mut t = timing("m", 1.0, Some(1.0));
        t.counters.push(("speedup".into(), 3.0));
        let err = timing_names(Path::new("timings.csv"), [&t].into_iter()).unwrap_err();
        assert!(err.to_string().contains("`speedup`"), "{err}");
        let mut t = timing("m", 1.0, Some(1.0));
        t.stats.push(("steps".into(), 3.0));
        let err = timing_names(Path::new("timings.csv"), [&t].into_iter()).unwrap_err();
        assert!(
            err.to_string().contains("both a counter and a stat"),
            "{err}"
        );
    }
}
