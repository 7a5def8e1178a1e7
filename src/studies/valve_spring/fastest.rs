//! Speed-ups of the NCP methods against the fastest penalty solver at each
//! accuracy (issue 16, section 2): so that "the NCP is faster" cannot mean
//! "this crate's penalty integrator is slow".
//!
//! The penalty solvers are the case's penalty methods of the baseline's
//! contact model (same k_p and c_p: this crate's adaptive BDF2 and
//! diffsol's BDF and TR-BDF2), each measured against the one converged
//! reference of that model. Each method keeps its runs inside its own
//! converged range (`harness::sweep::converged_range`, over the swept step
//! `integrator.dt` as the harness's speed-ups) and its Pareto front; the
//! fastest penalty CPU time at an error level e is the smallest of the
//! penalty fronts that reach e (log-log interpolation), and the speed-up of
//! an NCP method at e is that over the NCP front's CPU time, at every level
//! of any of the fronts inside the NCP method's converged range and the
//! union of the penalty solvers' ones. `speedup.csv` rows have the baseline
//! [`FASTEST`]; the study value `speedup_fastest_penalty_median` (and
//! `_min`, `_max`) per NCP method is a measured one (claims may name it).
//!
//! A penalty solver whose errors reach the floor of the shared converged
//! reference (its own error, and the penalty model's sensitivity through
//! the elastic coil impacts) has no converged range and drops out of that
//! envelope, however cheap it is. So the same comparison is also made
//! against the envelope of every run of the penalty solvers (their Pareto
//! fronts without the range rule; baseline [`FASTEST_ANY`], values
//! `speedup_fastest_penalty_any_*`): the NCP side keeps its converged
//! range. Both are reported; neither is tuned.

use crate::harness::format::sig;
use crate::harness::rows::{SpeedupRange, SpeedupRow};
use crate::harness::study::{CaseOutput, Scalar, StudyScalar, StudySummary};
use crate::harness::sweep::{Converged, converged_range, cpu_at, pareto_front};
use crate::harness::timing::median;
use crate::integrators::bdf_contact::ContactModel;
use crate::studies::valve_spring::spec::CaseConfig;

/// The baseline name of the rows (penalty solvers within their
/// converged ranges).
pub const FASTEST: &str = "fastest penalty";

/// The baseline name of the rows against every penalty run.
pub const FASTEST_ANY: &str = "fastest penalty (any run)";

/// The measured study values.
pub const MEASURED: [&str; 6] = [
    "speedup_fastest_penalty_median",
    "speedup_fastest_penalty_min",
    "speedup_fastest_penalty_max",
    "speedup_fastest_penalty_any_median",
    "speedup_fastest_penalty_any_min",
    "speedup_fastest_penalty_any_max",
];

/// One method's front inside its converged range.
struct Front {
    label: String,
    range: Result<Converged, String>,
    front: Vec<(f64, f64)>,
}

/// The (dt, error, cpu) points of method `label` over the swept cases.
fn points(cases: &[CaseOutput], label: &str) -> Vec<(f64, f64, f64)> {
    let mut p: Vec<(f64, f64, f64)> = cases
        .iter()
        .filter_map(|c| {
            let dt = c.coord("integrator.dt")?.number()?;
            let m = c.method(label)?;
            Some((
                dt,
                m.output()?.scalar("max_error_seat_force")?,
                m.timing()?.cpu_s,
            ))
        })
        .collect();
    p.sort_by(|a, b| a.0.total_cmp(&b.0));
    p
}

/// A method's front: inside its converged range (`strict`), else of all
/// its runs.
fn front(cases: &[CaseOutput], label: &str, strict: bool) -> Front {
    let p = points(cases, label);
    let de: Vec<(f64, f64)> = p.iter().map(|x| (x.0, x.1)).collect();
    let range = converged_range(&de, Some(true), None);
    let kept: Vec<(f64, f64)> = match (&range, strict) {
        (_, false) => p.iter().map(|x| (x.1, x.2)).collect(),
        (Ok(r), true) => p
            .iter()
            .filter(|x| x.1 >= r.lo && x.1 <= r.hi)
            .map(|x| (x.1, x.2))
            .collect(),
        (Err(_), true) => Vec::new(),
    };
    Front {
        label: label.to_string(),
        range,
        front: pareto_front(&kept),
    }
}

/// Adds the rows, notes and measured values (module doc) for the baseline
/// `baseline` of the first case.
pub(super) fn fastest_penalty(
    summary: &mut StudySummary,
    configs: &[CaseConfig],
    cases: &[CaseOutput],
    baseline: Option<&str>,
) {
    let (Some(cfg), Some(first)) = (configs.first(), cases.first()) else {
        return;
    };
    if first.coord("integrator.dt").is_none() || cases.len() < 2 {
        return;
    }
    let Some(base) = baseline.and_then(|b| cfg.methods.iter().find(|m| m.label == b)) else {
        return;
    };
    if !matches!(base.contact, ContactModel::Penalty { .. }) {
        return;
    }
    for strict in [true, false] {
        let penalty: Vec<Front> = cfg
            .methods
            .iter()
            .filter(|m| m.contact == base.contact)
            .map(|m| front(cases, &m.label, strict))
            .collect();
        if penalty.len() < 2 {
            return;
        }
        if strict {
            for f in &penalty {
                if let Err(why) = &f.range {
                    summary.notes.push(format!(
                        "Fastest penalty solver: {} has no converged range ({why}); left out of the envelope within the converged ranges (kept in the one over every run).",
                        f.label
                    ));
                }
            }
        }
        against(summary, cfg, cases, &penalty, strict);
    }
}

/// The NCP methods' speed-ups against the envelope of `penalty` (module
/// doc); `strict`: the penalty fronts are within their converged ranges.
fn against(
    summary: &mut StudySummary,
    cfg: &CaseConfig,
    cases: &[CaseOutput],
    penalty: &[Front],
    strict: bool,
) {
    let names: Vec<&str> = penalty.iter().map(|f| f.label.as_str()).collect();
    let (baseline, measured, what) = if strict {
        (FASTEST, &MEASURED[..3], "each within its converged range")
    } else {
        (
            FASTEST_ANY,
            &MEASURED[3..],
            "every run, no converged-range rule on the penalty side",
        )
    };
    // The fastest penalty CPU time at e, and which solver it is.
    let fastest = |e: f64| -> Option<(f64, &str)> {
        penalty
            .iter()
            .filter_map(|f| Some((cpu_at(&f.front, e)?, f.label.as_str())))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    for m in cfg
        .methods
        .iter()
        .filter(|m| matches!(m.contact, ContactModel::Ncp { .. }))
    {
        let ncp = front(cases, &m.label, true);
        let Ok(range) = &ncp.range else {
            continue;
        };
        let union = penalty
            .iter()
            .filter_map(|f| Some((f.front.first()?.0, f.front.last()?.0)))
            .fold(None, |acc: Option<(f64, f64)>, (lo, hi)| {
                Some(acc.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))))
            });
        let mut row = SpeedupRange {
            method: m.label.clone(),
            baseline: baseline.into(),
            group: String::new(),
            method_range: Some((range.lo, range.hi)),
            baseline_range: union,
            common: None,
            detail: format!(
                "{} converged over max_error_seat_force {}; the penalty envelope of {} ({what}) spans {}",
                m.label,
                range.describe(),
                names.join(", "),
                union.map_or("nothing".into(), |(a, b)| format!(
                    "{} to {}",
                    sig(a),
                    sig(b)
                ))
            ),
        };
        let mut levels: Vec<f64> = ncp
            .front
            .iter()
            .chain(penalty.iter().flat_map(|f| f.front.iter()))
            .map(|p| p.0)
            .filter(|e| *e >= range.lo && *e <= range.hi)
            .collect();
        levels.sort_by(f64::total_cmp);
        levels.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
        let at: Vec<(f64, f64, &str)> = levels
            .into_iter()
            .filter_map(|e| {
                let (cpu, who) = fastest(e)?;
                Some((e, cpu / cpu_at(&ncp.front, e)?, who))
            })
            .collect();
        if at.is_empty() {
            summary.notes.push(format!(
                "{}: no speed-up against the fastest penalty solver ({}, {what}): no error level inside its converged range {} to {} that a penalty solver reaches.",
                m.label,
                names.join(", "),
                sig(range.lo),
                sig(range.hi)
            ));
            summary.speedup_ranges.push(row);
            continue;
        }
        row.common = Some((at[0].0, at[at.len() - 1].0));
        summary.speedup_ranges.push(row);
        publish(summary, &m.label, (&names, what), (baseline, measured), &at);
    }
}

/// The note, the `speedup.csv` rows and the measured values of one NCP
/// method's speed-ups `at` (error, speed-up, fastest solver) against the
/// envelope of `names` (`what`: which runs).
fn publish(
    summary: &mut StudySummary,
    label: &str,
    (names, what): (&[&str], &str),
    (baseline, measured): (&str, &[&str]),
    at: &[(f64, f64, &str)],
) {
    let ratios: Vec<f64> = at.iter().map(|x| x.1).collect();
    let stats = [
        median(&ratios),
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    ];
    let per_level: Vec<String> = at
        .iter()
        .map(|(e, s, who)| format!("{} N: {}x over {who}", sig(*e), sig(*s)))
        .collect();
    summary.notes.push(format!(
        "{} against the fastest penalty solver at each accuracy (the lower envelope of {} on the baseline's model, {what}): median speed-up {}x (range {}x to {}x) over {} error levels of max_error_seat_force from {} to {} N ({}).",
        label,
        names.join(", "),
        sig(stats[0]),
        sig(stats[1]),
        sig(stats[2]),
        at.len(),
        sig(at[0].0),
        sig(at[at.len() - 1].0),
        per_level.join("; ")
    ));
    for (e, s, _) in at {
        summary.speedups.push(SpeedupRow {
            method: label.to_string(),
            baseline: baseline.into(),
            error: *e,
            speedup: *s,
            group: String::new(),
        });
    }
    for (name, value) in measured.iter().zip(stats) {
        summary.measured.push(StudyScalar {
            scalar: Scalar::new(
                *name,
                value,
                format!(
                    "speed-up at equal seat-force discretisation error against the fastest of {} at each error level ({what}; measured)",
                    names.join(", ")
                ),
            ),
            method: Some(label.to_string()),
            group: String::new(),
        });
    }
}
