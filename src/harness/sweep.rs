//! What the harness derives from a sweep over a cost parameter, for every
//! study kind: work-precision points, convergence orders, and speed-ups at
//! equal accuracy over the baseline method.
//!
//! The kind declares its accuracy measure (a method scalar, e.g. the rms
//! error against the case's reference), its cost keys (a time step, a
//! tolerance, a penalty stiffness) and which of them are step sizes
//! ([`Measures`]). When the spec sweeps a cost key, every successful method
//! run gives a point (cost value, error, median CPU time, its spread).
//! Points are grouped by method and by the values of the other swept keys
//! (a dt sweep crossed with a friction-law sweep gives one line per law).
//!
//! - Convergence order (step keys only), one estimator everywhere
//!   ([`order_estimate`], issue 19): the least-squares slope p of log e
//!   against log h over the [`FINEST`] finest levels (fewer when it holds
//!   fewer) of the method's converged range ([`converged_range`], measured
//!   reference order), per method and group (`order`; the legends and the
//!   findings print it with the levels used). A method without a converged
//!   range (e.g. a plateau then a drop) has no order: no `order` scalar,
//!   and "no order" with the reason in the legend and the findings. Also
//!   the smallest slope between consecutive h (`order_min`) and the
//!   least-squares slope over the [`FINEST`] smallest h regardless of the
//!   range (`order_finest`), study scalars for the checks.
//! - Speed-up at equal accuracy: for a method and the baseline in the same
//!   group, log(CPU) is interpolated linearly in log(error) along each
//!   curve's Pareto front (the runs no other run of the method beats in
//!   both error and CPU time: the cost of an accuracy is that of the
//!   cheapest run reaching it); at every error level of either front that
//!   both reach, the speed-up is CPU_baseline / CPU_method
//!   (`speedup.csv`); the report states the median and the range over those
//!   levels. Per-step ratios are never used: methods with different steps
//!   (adaptive ones) are compared at equal error only. Speed-ups are
//!   measured times, so they are not study scalars: study.csv and the
//!   checks stay identical from run to run.
//! - Equal accuracy only where both methods are converged
//!   ([`converged_range`]): from a method's own points (error against its
//!   cost parameter, finest level first) the reference order is the kind's
//!   nominal order when it declares one ([`crate::harness::study::Study::nominal_order`]),
//!   else the least-squares slope over the [`FINEST`] finest levels; the
//!   local order of two consecutive levels (their slope) is in the
//!   asymptotic range when within [`ASYMPTOTIC_TOLERANCE`] (30 %) of the
//!   reference order; the method's converged range is the error range of
//!   the longest run of consecutive levels joined by such slopes (the finer
//!   one on a tie). A method with one level, with fewer than [`FINEST`]
//!   levels and no nominal order, with a measured reference order below
//!   [`MIN_ORDER`] in magnitude (a floor), or with no such slope, has no
//!   converged range. Speed-ups are computed from the runs
//!   inside each method's range and reported only over the intersection of
//!   the two ranges (`converged_min`, `converged_max` in `speedup.csv`);
//!   when it is empty, no number is reported: the note, the findings and a
//!   `speedup.csv` row with empty `error` and `speedup` say "no common
//!   converged range" and name both ranges.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::format::sig;
use crate::harness::rows::{SpeedupRange, SpeedupRow, WorkPrecisionRow};
use crate::harness::spec::Sweep;
use crate::harness::study::{CaseOutput, Measures, Scalar, StudyScalar};
use crate::harness::timing::median;

mod converged;
mod equal_accuracy;
pub mod label;
pub use converged::*;
pub use equal_accuracy::{cpu_at, equal_accuracy_speedups, orders, pareto_front};

/// Study scalars the harness adds for a study whose spec sweeps `sweeps`.
pub fn provided_scalars(sweeps: &[Sweep], measures: &Measures) -> Vec<String> {
    let Some(cost) = cost_sweep(sweeps, measures) else {
        return Vec::new();
    };
    let steps = std::iter::once(&cost.key)
        .chain(measures.method_cost_keys.iter().map(|(_, k)| k))
        .any(|k| measures.step_keys.contains(k) && sweeps.iter().any(|s| &s.key == k));
    if steps {
        vec![
            "order".to_string(),
            "order_min".to_string(),
            "order_finest".to_string(),
        ]
    } else {
        Vec::new()
    }
}

/// The first sweep over a cost key, when the kind has an accuracy measure.
fn cost_sweep<'a>(sweeps: &'a [Sweep], measures: &Measures) -> Option<&'a Sweep> {
    measures.error.as_ref()?;
    sweeps.iter().find(|s| measures.cost_keys.contains(&s.key))
}

/// What the harness derived from the sweep.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SweepAnalysis {
    /// `order` and `order_min` per method and group.
    pub scalars: Vec<StudyScalar>,
    /// Convergence and work-precision figures.
    pub figures: Vec<Figure>,
    /// Sentences for the report (speed-ups at equal accuracy).
    pub notes: Vec<String>,
    /// The work-precision points.
    pub work_precision: Vec<WorkPrecisionRow>,
    /// The speed-ups at equal accuracy.
    pub speedups: Vec<SpeedupRow>,
    /// The converged ranges behind them, refused comparisons too.
    pub speedup_ranges: Vec<SpeedupRange>,
}

/// One line of the diagrams: a method in a group of cases.
struct Line {
    method: String,
    group: String,
    /// The group as the legend writes it (`alpha_b = -1/3`, [`label`]).
    group_text: String,
    /// The cost key of the method's points.
    parameter: String,
    /// (cost value, error, cpu, spread), sorted by cost value.
    points: Vec<(f64, f64, f64, f64)>,
}

impl Line {
    fn legend(&self) -> String {
        if self.group_text.is_empty() {
            self.method.clone()
        } else {
            format!("{}, {}", self.method, self.group_text)
        }
    }

    fn error_cpu(&self) -> Vec<(f64, f64)> {
        self.points.iter().map(|p| (p.1, p.2)).collect()
    }
}

/// The group of a case: its coordinates other than the cost sweep and the
/// sweeps paired with it, as `label=value` joined by `, ` (the CSVs'
/// `group`), and as the legends write it ([`label::coords_text`]).
fn group_of(case: &CaseOutput, cost: &Sweep, sweeps: &[Sweep]) -> (String, String) {
    let paired = |key: &str| {
        key == cost.key
            || sweeps
                .iter()
                .any(|s| s.key == key && s.zip.as_deref() == Some(cost.key.as_str()))
            || cost.zip.as_deref() == Some(key)
    };
    let others: Vec<&crate::harness::study::Coord> =
        case.coords.iter().filter(|c| !paired(&c.key)).collect();
    let raw = others
        .iter()
        .map(|c| format!("{}={}", c.label, c.value_text()))
        .collect::<Vec<_>>()
        .join(", ");
    (raw, label::coords_text(others))
}

/// Derives work-precision, orders and speed-ups from the cases;
/// `nominal(method label, cost key)` is the kind's nominal order of a
/// method over a cost key, if it declares one.
pub fn analyse(
    sweeps: &[Sweep],
    measures: &Measures,
    baseline: Option<&str>,
    cases: &[CaseOutput],
    nominal: &dyn Fn(&str, &str) -> Option<f64>,
    per_tolerance: f64,
) -> SweepAnalysis {
    let mut out = SweepAnalysis::default();
    let (Some(cost), Some((error_name, error_doc))) =
        (cost_sweep(sweeps, measures), measures.error.as_ref())
    else {
        return out;
    };
    let mut lines: Vec<Line> = Vec::new();
    for case in cases {
        if case.coord(&cost.key).is_none() {
            continue;
        }
        let (group, group_text) = group_of(case, cost, sweeps);
        for m in &case.methods {
            let Ok(run) = &m.outcome else { continue };
            let Some(error) = run.output.scalar(error_name) else {
                continue;
            };
            // The method's own cost key when it has one and it is swept.
            let parameter = measures
                .method_cost_keys
                .iter()
                .find(|(name, key)| {
                    (name == &m.plan.method || name == m.label()) && case.coord(key).is_some()
                })
                .map_or(cost.key.as_str(), |(_, key)| key.as_str());
            let Some(value) = case.coord(parameter).and_then(|c| c.number()) else {
                continue;
            };
            let scale = run.output.scalar(&format!("{error_name}_scale"));
            let tolerance = parameter
                .ends_with("tolerance")
                .then_some((value, per_tolerance));
            if let Some(why) = unresolved(error, scale, tolerance) {
                out.notes.push(format!(
                    "{} in case {} left out of the work-precision analysis (orders, figures, speed-ups; work-precision.csv): unresolved, {error_name} {why}.",
                    m.label(),
                    case.name
                ));
                continue;
            }
            out.work_precision.push(WorkPrecisionRow {
                case: case.name.clone(),
                method: m.label().to_string(),
                parameter: parameter.to_string(),
                value,
                error,
                cpu_s: run.timing.cpu_s,
                cpu_s_spread: run.timing.cpu_s_spread,
                group: group.clone(),
            });
            let point = (value, error, run.timing.cpu_s, run.timing.cpu_s_spread);
            match lines
                .iter_mut()
                .find(|l| l.method == m.label() && l.group == group)
            {
                Some(l) => l.points.push(point),
                None => lines.push(Line {
                    method: m.label().to_string(),
                    group: group.clone(),
                    group_text: group_text.clone(),
                    parameter: parameter.to_string(),
                    points: vec![point],
                }),
            }
        }
    }
    for l in &mut lines {
        l.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let stepped: Vec<&Line> = lines
        .iter()
        .filter(|l| measures.step_keys.contains(&l.parameter))
        .collect();
    if !stepped.is_empty() {
        convergence(&mut out, &stepped, error_name, error_doc);
    }
    work_precision_figure(&mut out, &lines, error_name, error_doc);
    if let Some(base) = baseline {
        speedups(&mut out, &lines, base, error_name, measures, nominal);
        per_step_when_refused(&mut out, cases, cost, sweeps, base);
    }
    out
}

fn convergence(out: &mut SweepAnalysis, lines: &[&Line], error_name: &str, error_doc: &str) {
    let mut series = Vec::new();
    let mut keys: Vec<&str> = Vec::new();
    for l in lines {
        if !keys.contains(&l.parameter.as_str()) {
            keys.push(&l.parameter);
        }
        let h: Vec<f64> = l.points.iter().map(|p| p.0).collect();
        let e: Vec<f64> = l.points.iter().map(|p| p.1).collect();
        let Some((_, order_min)) = orders(&h, &e) else {
            continue;
        };
        let of = if l.group.is_empty() {
            l.method.clone()
        } else {
            format!("{} ({})", l.method, l.group)
        };
        let points: Vec<(f64, f64)> = h.iter().copied().zip(e.iter().copied()).collect();
        let estimate = order_estimate(&points, Some(true));
        if let Ok(order) = estimate.order {
            out.scalars.push(StudyScalar {
                scalar: Scalar::new(
                    "order",
                    order,
                    format!(
                        "least-squares slope of log({error_name}) against log({}) over the {FINEST} finest levels of the converged range (harness::sweep::order_estimate), {of}",
                        l.parameter
                    ),
                ),
                method: Some(l.method.clone()),
                group: l.group.clone(),
            });
        }
        out.scalars.push(StudyScalar {
            scalar: Scalar::new(
                "order_min",
                order_min,
                format!(
                    "smallest slope between consecutive {} of the sweep, {of}",
                    l.parameter
                ),
            ),
            method: Some(l.method.clone()),
            group: l.group.clone(),
        });
        if h.len() >= FINEST {
            // Points are sorted by h: the finest are the first ones.
            if let Some((finest, _)) = orders(&h[..FINEST], &e[..FINEST]) {
                out.scalars.push(StudyScalar {
                    scalar: Scalar::new(
                        "order_finest",
                        finest,
                        format!(
                            "least-squares slope over the {FINEST} smallest {} of the sweep, {of}",
                            l.parameter
                        ),
                    ),
                    method: Some(l.method.clone()),
                    group: l.group.clone(),
                });
            }
        }
        series.push(Series::new(
            format!("{} ({})", l.legend(), estimate.legend()),
            &h,
            &e,
            Style::LineMarkers,
        ));
    }
    if series.is_empty() {
        return;
    }
    let axis = keys
        .iter()
        .map(|k| label::key_with_unit(k))
        .collect::<Vec<_>>()
        .join(", ");
    let keys = keys.join(", ");
    out.figures.push(Figure {
        name: "convergence".into(),
        title: format!("Convergence: {error_name} against {keys}"),
        x: Axis::log(format!("{axis} (swept step)")),
        y: Axis::log(format!("{error_name}: {error_doc}")),
        series,
        caption: format!(
            "The study's accuracy measure ({error_doc}) against the swept step {keys} (log-log), one line per method and group of cases: {}; the legend has the order: the least-squares slope over the {FINEST} finest levels of the method's converged range, or \"no order\" when it has none (e.g. a plateau then a drop).",
            drawn(lines, error_name)
        ),
    });
}

fn work_precision_figure(
    out: &mut SweepAnalysis,
    lines: &[Line],
    error_name: &str,
    error_doc: &str,
) {
    let series: Vec<Series> = lines
        .iter()
        .map(|l| {
            let cpu: Vec<f64> = l.points.iter().map(|p| p.2).collect();
            let err: Vec<f64> = l.points.iter().map(|p| p.1).collect();
            let spread: Vec<f64> = l.points.iter().map(|p| p.3).collect();
            Series::new(l.legend(), &cpu, &err, Style::LineMarkers).with_x_errors(&spread)
        })
        .collect();
    if series.is_empty() {
        return;
    }
    let owned: Vec<&Line> = lines.iter().collect();
    out.figures.push(Figure {
        name: "work-precision".into(),
        title: format!("Work-precision: {error_name} against CPU time"),
        x: Axis::log("CPU time of the run [s] (median of the timed runs)"),
        y: Axis::log(format!("{error_name}: {error_doc}")),
        series,
        caption: format!(
            "Each point is one value of the swept cost parameter ({}) for one method (same run, same machine): {}; horizontal bars span the spread of the repeated timings; lower left is better.",
            {
                let mut keys: Vec<&str> = lines.iter().map(|l| l.parameter.as_str()).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.join(", ")
            },
            drawn(&owned, error_name)
        ),
    });
}

/// What a sweep figure draws, for its caption (issue 20, class 1): the
/// methods, the groups of cases, and the range of the error.
fn drawn(lines: &[&Line], error_name: &str) -> String {
    let mut methods: Vec<&str> = Vec::new();
    let mut groups: Vec<&str> = Vec::new();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for l in lines {
        if !methods.contains(&l.method.as_str()) {
            methods.push(&l.method);
        }
        if !l.group_text.is_empty() && !groups.contains(&l.group_text.as_str()) {
            groups.push(&l.group_text);
        }
        for p in &l.points {
            lo = lo.min(p.1);
            hi = hi.max(p.1);
        }
    }
    let per = if groups.is_empty() {
        String::new()
    } else {
        format!(" at {}", groups.join("; "))
    };
    let range = if lo <= hi {
        format!(", {error_name} from {} to {}", sig(lo), sig(hi))
    } else {
        String::new()
    };
    format!("{}{per}{range}", methods.join(", "))
}

/// The converged range of a line (see [`converged_range`]).
fn line_range(
    l: &Line,
    measures: &Measures,
    nominal: &dyn Fn(&str, &str) -> Option<f64>,
) -> Result<Converged, String> {
    let finest_small = (measures.step_keys.contains(&l.parameter)
        || l.parameter.ends_with("tolerance"))
    .then_some(true);
    let pts: Vec<(f64, f64)> = l.points.iter().map(|p| (p.0, p.1)).collect();
    converged_range(&pts, finest_small, nominal(&l.method, &l.parameter))
}

fn speedups(
    out: &mut SweepAnalysis,
    lines: &[Line],
    baseline: &str,
    error_name: &str,
    measures: &Measures,
    nominal: &dyn Fn(&str, &str) -> Option<f64>,
) {
    for l in lines.iter().filter(|l| l.method != baseline) {
        let Some(b) = lines
            .iter()
            .find(|b| b.method == baseline && b.group == l.group)
        else {
            continue;
        };
        let in_group = if l.group.is_empty() {
            String::new()
        } else {
            format!(" ({})", l.group)
        };
        let (mr, br) = (
            line_range(l, measures, nominal),
            line_range(b, measures, nominal),
        );
        let name = |r: &Result<Converged, String>| match r {
            Ok(c) => format!("converged over {error_name} {}", c.describe()),
            Err(why) => format!("no converged range: {why}"),
        };
        let detail = format!(
            "{} over {}: {}; {baseline} over {}: {}",
            l.method,
            l.parameter,
            name(&mr),
            b.parameter,
            name(&br)
        );
        let mut range = SpeedupRange {
            method: l.method.clone(),
            baseline: baseline.to_string(),
            group: l.group.clone(),
            method_range: mr.as_ref().ok().map(|c| (c.lo, c.hi)),
            baseline_range: br.as_ref().ok().map(|c| (c.lo, c.hi)),
            common: None,
            detail: detail.clone(),
        };
        let compared = match (&mr, &br) {
            (Ok(m), Ok(bc)) => converged_speedups(&b.error_cpu(), bc, &l.error_cpu(), m),
            _ => Err("no common converged range".to_string()),
        };
        let ((c_lo, c_hi), at) = match compared {
            Ok(x) => x,
            Err(why) => {
                let old = if equal_accuracy_speedups(&b.error_cpu(), &l.error_cpu()).is_empty() {
                    format!(" (the two reach no common {error_name} at all)")
                } else {
                    String::new()
                };
                out.notes.push(format!(
                    "{}{in_group}: no speed-up at equal accuracy over {baseline}: {why}. {detail}{old}.",
                    l.method
                ));
                range.detail = format!("{why}: {detail}");
                out.speedup_ranges.push(range);
                continue;
            }
        };
        range.common = Some((c_lo, c_hi));
        out.speedup_ranges.push(range);
        let ratios: Vec<f64> = at.iter().map(|p| p.1).collect();
        let med = median(&ratios);
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (e_lo, e_hi) = (at[0].0, at[at.len() - 1].0);
        let verdict = if lo < 1.0 && hi > 1.0 {
            "about as fast as".to_string()
        } else if med >= 1.0 {
            format!("{} faster than", times(med))
        } else {
            format!("{} slower than", times(1.0 / med))
        };
        out.notes.push(format!(
            "{}{in_group} is {verdict} the baseline {baseline} at equal accuracy (median speed-up over {} error levels of {error_name} from {} to {}; range {} to {}), within the common converged range {} to {} of {error_name}: {detail}.",
            l.method,
            at.len(),
            sig(e_lo),
            sig(e_hi),
            times(lo),
            times(hi),
            sig(c_lo),
            sig(c_hi),
        ));
        for (error, speedup) in at {
            out.speedups.push(SpeedupRow {
                method: l.method.clone(),
                baseline: baseline.to_string(),
                error,
                speedup,
                group: l.group.clone(),
            });
        }
    }
}

/// For each comparison refused for want of a common converged range: the
/// speed-up per step where both methods took the same steps in the same
/// case (timings.csv `speedup`), stated as such in a note: that is a
/// speed-up at identical answers only where the two solve the same discrete
/// equations (which a check of the study must establish), never one at
/// equal accuracy.
fn per_step_when_refused(
    out: &mut SweepAnalysis,
    cases: &[CaseOutput],
    cost: &Sweep,
    sweeps: &[Sweep],
    baseline: &str,
) {
    let refused: Vec<(String, String)> = out
        .speedup_ranges
        .iter()
        .filter(|r| r.common.is_none())
        .map(|r| (r.method.clone(), r.group.clone()))
        .collect();
    for (method, group) in refused {
        let mut ratios: Vec<f64> = Vec::new();
        for case in cases
            .iter()
            .filter(|c| c.coord(&cost.key).is_some() && group_of(c, cost, sweeps).0 == group)
        {
            let s = crate::harness::timing::speedups(case.timings(), Some(baseline));
            ratios.extend(
                case.timings()
                    .zip(s)
                    .filter(|(t, _)| t.method == method)
                    .filter_map(|(_, r)| r),
            );
        }
        if ratios.is_empty() {
            continue;
        }
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let in_group = if group.is_empty() {
            String::new()
        } else {
            format!(" ({group})")
        };
        out.notes.push(format!(
            "{method}{in_group} per step against {baseline}, not at equal accuracy: where both took the same steps in the same case ({} cases; timings.csv `speedup`), {baseline}'s CPU time over {method}'s is {} (median; range {} to {}); a speed-up at identical answers only where the two solve the same discrete equations (see the study's checks).",
            ratios.len(),
            times(median(&ratios)),
            times(lo),
            times(hi)
        ));
    }
}

fn times(x: f64) -> String {
    format!("{}x", sig(x))
}
