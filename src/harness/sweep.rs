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
use crate::harness::outcome::{SpeedupRange, SpeedupRow, WorkPrecisionRow};
use crate::harness::spec::Sweep;
use crate::harness::study::{CaseOutput, Measures, Scalar, StudyScalar};
use crate::harness::timing::median;

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

/// Relative error from which a run counts as unresolved (no correct digit).
pub const UNRESOLVED_RELATIVE: f64 = 0.1;

/// Relative error per unit tolerance beyond which a run over a tolerance
/// key counts as unresolved (a well-resolved error-controlled run stays
/// within a few tens: the ideal slider-crank measures 11 to 13).
pub const UNRESOLVED_PER_TOLERANCE: f64 = 100.0;

/// Why a run with `error` is unresolved, or None: `scale` is its
/// `<error>_scale`, `tolerance` the value of a tolerance parameter.
pub fn unresolved(error: f64, scale: Option<f64>, tolerance: Option<f64>) -> Option<String> {
    let scale = scale.filter(|s| s.is_finite() && *s > 0.0)?;
    let relative = error / scale;
    if !relative.is_finite() || relative >= UNRESOLVED_RELATIVE {
        return Some(format!(
            "error {} is {} of the scale {} (at least {UNRESOLVED_RELATIVE}: no correct digit)",
            crate::harness::report::sig(error),
            crate::harness::report::sig(relative),
            crate::harness::report::sig(scale)
        ));
    }
    let tol = tolerance.filter(|t| t.is_finite() && *t > 0.0)?;
    (relative > UNRESOLVED_PER_TOLERANCE * tol).then(|| {
        format!(
            "error {} is {} of the scale {}, {}x its tolerance {} (more than {UNRESOLVED_PER_TOLERANCE}x)",
            crate::harness::report::sig(error),
            crate::harness::report::sig(relative),
            crate::harness::report::sig(scale),
            crate::harness::report::sig(relative / tol),
            crate::harness::report::sig(tol)
        )
    })
}

/// Points of the finest end of a sweep behind `order_finest`, and behind
/// the measured reference order of [`converged_range`].
pub const FINEST: usize = 3;

/// Relative distance from the reference order within which the local order
/// of two consecutive levels counts as asymptotic (issue 16, section 4).
pub const ASYMPTOTIC_TOLERANCE: f64 = 0.3;

/// A measured reference order smaller than this in magnitude is a floor
/// (the error no longer falls at the finest levels), not convergence: the
/// method then has no converged range.
pub const MIN_ORDER: f64 = 0.5;

/// A method's converged error range (see [`converged_range`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Converged {
    /// The reference order the local orders were judged against.
    pub order: f64,
    /// Whether that is the kind's nominal order (else measured over the
    /// [`FINEST`] finest levels).
    pub nominal: bool,
    /// Smallest and largest error of the kept levels.
    pub lo: f64,
    /// See `lo`.
    pub hi: f64,
    /// Levels kept, of `levels`.
    pub kept: usize,
    /// Levels of the sweep (positive, finite errors).
    pub levels: usize,
}

impl Converged {
    /// "from 1e-4 to 1e-2 (4 of 6 levels, local orders within 30 % of the
    /// nominal order 2)".
    pub fn describe(&self) -> String {
        format!(
            "{} to {} ({} of {} levels; local orders within {} % of the {} order {})",
            sig(self.lo),
            sig(self.hi),
            self.kept,
            self.levels,
            ASYMPTOTIC_TOLERANCE * 100.0,
            if self.nominal {
                "nominal".to_string()
            } else {
                format!("measured finest-{FINEST}-level")
            },
            sig(self.order)
        )
    }
}

fn sig(x: f64) -> String {
    crate::harness::report::sig(x)
}

/// The converged error range of a method from its sweep points
/// `(cost value, error)`: `finest_small` says whether the finest levels
/// have the smallest cost values (a step, a tolerance), `false` the
/// largest (a penalty stiffness), None: the end with the smaller error.
/// The reference order is `nominal`, else the least-squares slope of log e
/// against log value over the [`FINEST`] finest levels (all when fewer);
/// the longest run of consecutive levels whose pairwise slopes lie within
/// [`ASYMPTOTIC_TOLERANCE`] x |reference| of the reference is kept (the
/// finer run on a tie). Err says why there is none: fewer than two
/// levels, fewer than [`FINEST`] without a nominal order (two levels give
/// one slope, which always agrees with itself), a measured order below
/// [`MIN_ORDER`], or no asymptotic slope.
pub fn converged_range(
    points: &[(f64, f64)],
    finest_small: Option<bool>,
    nominal: Option<f64>,
) -> Result<Converged, String> {
    converged_run(points, finest_small, nominal).map(|(c, _)| c)
}

/// The single estimator of a convergence order (issue 19, section 4):
/// what every number called "order" in the findings and the legends is.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderEstimate {
    /// The least-squares slope of log e against log of the cost value over
    /// the `k` finest levels of the method's converged range; Err: why
    /// there is no order (no converged range, e.g. a plateau then a drop).
    pub order: Result<f64, String>,
    /// Levels the slope was fitted over (at most [`FINEST`]).
    pub k: usize,
    /// Cost values of the finest and the coarsest level used.
    pub levels_used: (f64, f64),
}

impl OrderEstimate {
    /// The findings' text: "order 1.02 (least-squares slope over the 3
    /// finest levels, dt 1e-5 to 2.5e-6)", or "no order (why)".
    pub fn describe(&self, parameter: &str) -> String {
        match &self.order {
            Ok(p) => format!(
                "order {} (least-squares slope over the {} finest levels of the converged range, {parameter} {} to {})",
                fixed2(*p),
                self.k,
                sig(self.levels_used.1),
                sig(self.levels_used.0)
            ),
            Err(why) => format!("no order ({why})"),
        }
    }

    /// The legends' text: "order 1.02 over the 3 finest", or "no order".
    pub fn legend(&self) -> String {
        match &self.order {
            Ok(p) => format!("order {} over the {} finest", fixed2(*p), self.k),
            Err(_) => "no order: no converged range".to_string(),
        }
    }
}

fn fixed2(x: f64) -> String {
    format!("{x:.2}")
}

/// The order of a method from its sweep points `(cost value, error)`:
/// the least-squares slope of log e against log value over the finest
/// k = [`FINEST`] levels (fewer when the range holds fewer) of its
/// converged range ([`converged_range`], measured reference order). When
/// there is no converged range (fewer than [`FINEST`] levels, a floor, or
/// local orders that never agree: a plateau then a drop), there is no
/// order, and the estimate says why.
pub fn order_estimate(points: &[(f64, f64)], finest_small: Option<bool>) -> OrderEstimate {
    match converged_run(points, finest_small, None) {
        Ok((_, kept)) => {
            let k = FINEST.min(kept.len());
            let f = &kept[..k];
            let (h, e): (Vec<f64>, Vec<f64>) = f.iter().copied().unzip();
            let order = orders(&h, &e)
                .map(|(p, _)| p)
                .ok_or_else(|| "the levels have one cost value".to_string());
            OrderEstimate {
                order,
                k,
                levels_used: (f[0].0, f[k - 1].0),
            }
        }
        Err(_) => OrderEstimate {
            order: Err(no_order_reason(points, finest_small)),
            k: 0,
            levels_used: (f64::NAN, f64::NAN),
        },
    }
}

/// The order of the convergence line of `method` in `group`, from the
/// study's work-precision rows (the points of its convergence figure):
/// its cost key and the [`order_estimate`] the figure's legend shows.
pub fn line_order(
    rows: &[crate::harness::outcome::WorkPrecisionRow],
    method: &str,
    group: &str,
) -> Option<(String, OrderEstimate)> {
    let mine: Vec<_> = rows
        .iter()
        .filter(|r| r.method == method && r.group == group)
        .collect();
    let parameter = mine.first()?.parameter.clone();
    let points: Vec<(f64, f64)> = mine.iter().map(|r| (r.value, r.error)).collect();
    Some((parameter, order_estimate(&points, Some(true))))
}

/// Why a sweep has no order, naming no number an order: its levels and
/// the local slopes between consecutive ones, finest first.
fn no_order_reason(points: &[(f64, f64)], finest_small: Option<bool>) -> String {
    let mut pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(v, e)| *v > 0.0 && *e > 0.0 && v.is_finite() && e.is_finite())
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = pts.len();
    if n < FINEST {
        return format!(
            "no converged range: {n} level(s), and a slope over fewer than {FINEST} levels cannot be told from a pre-asymptotic one"
        );
    }
    if !finest_small.unwrap_or(pts[0].1 <= pts[n - 1].1) {
        pts.reverse();
    }
    let local: Vec<String> = pts
        .windows(2)
        .map(|w| sig((w[1].1.ln() - w[0].1.ln()) / (w[1].0.ln() - w[0].0.ln())))
        .collect();
    format!(
        "no converged range: the local slopes between consecutive levels, finest first, are {}, and no two consecutive ones lie within {} % of the fit over the {FINEST} finest levels, or that fit is below {MIN_ORDER} (a plateau then a drop, or a floor)",
        local.join(", "),
        ASYMPTOTIC_TOLERANCE * 100.0
    )
}

/// [`converged_range`] and the kept levels, finest first.
fn converged_run(
    points: &[(f64, f64)],
    finest_small: Option<bool>,
    nominal: Option<f64>,
) -> Result<(Converged, Vec<(f64, f64)>), String> {
    let mut pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(v, e)| *v > 0.0 && *e > 0.0 && v.is_finite() && e.is_finite())
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = pts.len();
    if n < 2 {
        return Err(format!(
            "{n} level(s): no order of convergence can be measured"
        ));
    }
    if nominal.is_none() && n < FINEST {
        return Err(format!(
            "{n} levels and no nominal order: a slope measured over fewer than {FINEST} levels cannot be told from a pre-asymptotic one"
        ));
    }
    let small = finest_small.unwrap_or(pts[0].1 <= pts[n - 1].1);
    if !small {
        pts.reverse();
    }
    let logs: Vec<(f64, f64)> = pts.iter().map(|(v, e)| (v.ln(), e.ln())).collect();
    let slope = |a: (f64, f64), b: (f64, f64)| (b.1 - a.1) / (b.0 - a.0);
    let k = FINEST.min(n);
    let measured = {
        let f = &logs[..k];
        let mx = f.iter().map(|p| p.0).sum::<f64>() / k as f64;
        let my = f.iter().map(|p| p.1).sum::<f64>() / k as f64;
        let sxy: f64 = f.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let sxx: f64 = f.iter().map(|p| (p.0 - mx).powi(2)).sum();
        sxy / sxx
    };
    let (order, is_nominal) = match nominal {
        Some(p) => (p, true),
        None => (measured, false),
    };
    if !order.is_finite() || order.abs() < MIN_ORDER {
        return Err(format!(
            "its order over the {k} finest levels is {} (below {MIN_ORDER} in magnitude: the error no longer falls there)",
            sig(measured)
        ));
    }
    let local: Vec<f64> = logs.windows(2).map(|w| slope(w[0], w[1])).collect();
    let ok = |s: f64| (s - order).abs() <= ASYMPTOTIC_TOLERANCE * order.abs();
    // Longest run of asymptotic intervals, the finest on a tie.
    let (mut best, mut start): (Option<(usize, usize)>, Option<usize>) = (None, None);
    for (i, s) in local.iter().enumerate() {
        if ok(*s) {
            let st = *start.get_or_insert(i);
            if best.is_none_or(|(a, b)| i - st > b - a) {
                best = Some((st, i));
            }
        } else {
            start = None;
        }
    }
    let Some((a, b)) = best else {
        return Err(format!(
            "no two consecutive levels have a local order within {} % of the {} order {} (local orders {}, finest first)",
            ASYMPTOTIC_TOLERANCE * 100.0,
            if is_nominal { "nominal" } else { "measured" },
            sig(order),
            local.iter().map(|s| sig(*s)).collect::<Vec<_>>().join(", ")
        ));
    };
    let kept = &pts[a..=b + 1];
    Ok((
        Converged {
            order,
            nominal: is_nominal,
            lo: kept.iter().map(|p| p.1).fold(f64::INFINITY, f64::min),
            hi: kept.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
            kept: kept.len(),
            levels: n,
        },
        kept.to_vec(),
    ))
}

/// The common converged range `(lo, hi)` and the speed-ups
/// `(error, ratio)` inside it.
pub type Compared = ((f64, f64), Vec<(f64, f64)>);

/// Speed-ups of `method` over `baseline` (points `(error, cpu)`) at equal
/// accuracy over the intersection of their converged ranges only: each
/// curve keeps its runs inside its own range. Ok: the intersection and
/// the speed-ups (as [`equal_accuracy_speedups`]); Err: the intersection
/// is empty (or holds no level both curves reach).
pub fn converged_speedups(
    baseline: &[(f64, f64)],
    base_range: &Converged,
    method: &[(f64, f64)],
    method_range: &Converged,
) -> Result<Compared, String> {
    let within = |pts: &[(f64, f64)], r: &Converged| -> Vec<(f64, f64)> {
        pts.iter()
            .copied()
            .filter(|(e, _)| *e >= r.lo && *e <= r.hi)
            .collect()
    };
    let (lo, hi) = (
        base_range.lo.max(method_range.lo),
        base_range.hi.min(method_range.hi),
    );
    if lo > hi {
        return Err("no common converged range".to_string());
    }
    let at = equal_accuracy_speedups(&within(baseline, base_range), &within(method, method_range));
    if at.is_empty() {
        return Err("no common converged range (no error level both reach inside it)".to_string());
    }
    Ok(((lo, hi), at))
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

/// Least-squares slope of log e against log h, and the smallest pairwise
/// slope between consecutive points (sorted by h). None with fewer than two
/// positive points.
pub fn orders(h: &[f64], err: &[f64]) -> Option<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = h
        .iter()
        .zip(err)
        .filter(|(h, e)| **h > 0.0 && **e > 0.0 && h.is_finite() && e.is_finite())
        .map(|(h, e)| (h.ln(), e.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / k;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / k;
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let min_pair = pts
        .windows(2)
        .map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0))
        .fold(f64::INFINITY, f64::min);
    (sxx > 0.0).then_some((sxy / sxx, min_pair))
}

/// A work-precision curve: its Pareto front, the points no other point
/// beats in both error and CPU time, sorted by error (CPU time then falls
/// strictly along it). The cost of an accuracy is that of the cheapest run
/// that reaches it: a run that costs more and errs more than another (a
/// pre-asymptotic step whose error rose) is not on the curve.
fn curve(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut c: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(e, t)| *e > 0.0 && *t > 0.0 && e.is_finite() && t.is_finite())
        .collect();
    c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut front: Vec<(f64, f64)> = Vec::with_capacity(c.len());
    for p in c {
        if front.last().is_none_or(|last| p.1 < last.1 && p.0 > last.0) {
            front.push(p);
        }
    }
    front
}

/// CPU time of a curve at error `e`, log-log linear between the points that
/// bracket it; None outside the curve's error range.
pub fn cpu_at(curve: &[(f64, f64)], e: f64) -> Option<f64> {
    let (first, last) = (curve.first()?, curve.last()?);
    if e < first.0 || e > last.0 {
        return None;
    }
    let i = curve.partition_point(|p| p.0 < e);
    if curve[i.min(curve.len() - 1)].0 == e {
        return Some(curve[i].1);
    }
    let (a, b) = (curve[i - 1], curve[i]);
    let w = (e.ln() - a.0.ln()) / (b.0.ln() - a.0.ln());
    Some((a.1.ln() + w * (b.1.ln() - a.1.ln())).exp())
}

/// Speed-ups of `method` over `baseline` at the error levels both reach:
/// `(error, cpu_baseline / cpu_method)`.
pub fn equal_accuracy_speedups(baseline: &[(f64, f64)], method: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let (b, m) = (curve(baseline), curve(method));
    let (Some(b0), Some(m0), Some(b1), Some(m1)) = (b.first(), m.first(), b.last(), m.last())
    else {
        return Vec::new();
    };
    let (lo, hi) = (b0.0.max(m0.0), b1.0.min(m1.0));
    if lo > hi {
        return Vec::new();
    }
    let mut levels: Vec<f64> = b
        .iter()
        .chain(&m)
        .map(|p| p.0)
        .filter(|e| *e >= lo && *e <= hi)
        .collect();
    levels.sort_by(f64::total_cmp);
    // Levels that agree to 1e-9 are one (two methods with the same
    // discrete solution have the same error up to rounding).
    levels.dedup_by(|later, earlier| (*later - *earlier).abs() <= 1e-9 * earlier.abs());
    levels
        .into_iter()
        .filter_map(|e| Some((e, cpu_at(&b, e)? / cpu_at(&m, e)?)))
        .collect()
}

/// One line of the diagrams: a method in a group of cases.
struct Line {
    method: String,
    group: String,
    /// The cost key of the method's points.
    parameter: String,
    /// (cost value, error, cpu, spread), sorted by cost value.
    points: Vec<(f64, f64, f64, f64)>,
}

impl Line {
    fn legend(&self) -> String {
        if self.group.is_empty() {
            self.method.clone()
        } else {
            format!("{}, {}", self.method, self.group)
        }
    }

    fn error_cpu(&self) -> Vec<(f64, f64)> {
        self.points.iter().map(|p| (p.1, p.2)).collect()
    }
}

/// The group of a case: its coordinates other than the cost sweep and the
/// sweeps paired with it, as `label=value` joined by `, `.
fn group_of(case: &CaseOutput, cost: &Sweep, sweeps: &[Sweep]) -> String {
    let paired = |key: &str| {
        key == cost.key
            || sweeps
                .iter()
                .any(|s| s.key == key && s.zip.as_deref() == Some(cost.key.as_str()))
            || cost.zip.as_deref() == Some(key)
    };
    case.coords
        .iter()
        .filter(|c| !paired(&c.key))
        .map(|c| format!("{}={}", c.label, c.value_text()))
        .collect::<Vec<_>>()
        .join(", ")
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
        let group = group_of(case, cost, sweeps);
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
            let tolerance = parameter.ends_with("tolerance").then_some(value);
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
    let keys = keys.join(", ");
    out.figures.push(Figure {
        name: "convergence".into(),
        title: format!("Convergence: {error_name} against {keys}"),
        x: Axis::log(format!("{keys} (swept step)")),
        y: Axis::log(format!("{error_name}: {error_doc}")),
        series,
        caption: format!(
            "The study's accuracy measure ({error_doc}) against the swept step {keys} (log-log), one line per method and group of cases; the legend has the order: the least-squares slope over the {FINEST} finest levels of the method's converged range, or \"no order\" when it has none (e.g. a plateau then a drop)."
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
    out.figures.push(Figure {
        name: "work-precision".into(),
        title: format!("Work-precision: {error_name} against CPU time"),
        x: Axis::log("CPU time of the run [s] (median of the timed runs)"),
        y: Axis::log(format!("{error_name}: {error_doc}")),
        series,
        caption: format!(
            "Each point is one value of the swept cost parameter ({}) for one method (same run, same machine); horizontal bars span the spread of the repeated timings; lower left is better.",
            {
                let mut keys: Vec<&str> = lines.iter().map(|l| l.parameter.as_str()).collect();
                keys.sort_unstable();
                keys.dedup();
                keys.join(", ")
            }
        ),
    });
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
        let verdict = if med >= 1.0 {
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
            .filter(|c| c.coord(&cost.key).is_some() && group_of(c, cost, sweeps) == group)
        {
            let s = crate::harness::results::speedups(case.timings(), Some(baseline));
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
    format!("{}x", crate::harness::report::sig(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unresolved_runs_by_scale_and_tolerance() {
        // No scale: never.
        assert!(unresolved(1e3, None, Some(1e-3)).is_none());
        // No correct digit.
        assert!(unresolved(4.7, Some(28.4), None).is_some());
        assert!(unresolved(2.0, Some(28.4), None).is_none());
        // Beyond 100 x tolerance (relative 1.9e-2 at 1e-4), within it
        // (1.1e-5 at 1e-6).
        assert!(unresolved(0.527, Some(28.4), Some(1e-4)).is_some());
        assert!(unresolved(3.15e-4, Some(28.4), Some(1e-6)).is_none());
        assert!(unresolved(f64::NAN, Some(28.4), None).is_some());
    }

    #[test]
    fn orders_of_exact_powers() {
        let h = [0.1, 0.05, 0.025];
        let e: Vec<f64> = h.iter().map(|h| 3.0 * h * h).collect();
        let (p, pmin) = orders(&h, &e).unwrap();
        assert!((p - 2.0).abs() < 1e-12 && (pmin - 2.0).abs() < 1e-12);
        assert!(orders(&[0.1], &[1.0]).is_none());
    }

    #[test]
    fn cpu_is_interpolated_log_log_and_not_extrapolated() {
        let c = curve(&[(1e-2, 1.0), (1e-4, 100.0)]);
        assert!((cpu_at(&c, 1e-3).unwrap() - 10.0).abs() < 1e-9);
        assert_eq!(cpu_at(&c, 1e-2), Some(1.0));
        assert_eq!(cpu_at(&c, 1e-5), None);
        assert_eq!(cpu_at(&c, 1e-1), None);
    }

    #[test]
    fn a_dominated_run_is_not_on_the_curve() {
        // 8e-3 at 0.13 s is beaten by 7.5e-3 at 0.06 s.
        let c = curve(&[(1e-2, 0.03), (8e-3, 0.13), (7.5e-3, 0.06), (1e-4, 1.0)]);
        assert_eq!(c, vec![(1e-4, 1.0), (7.5e-3, 0.06), (1e-2, 0.03)]);
    }

    #[test]
    fn speedups_at_equal_error_over_the_common_range_only() {
        // Baseline: error 1e-2 at 1 s, 1e-4 at 100 s (cost ~ 1/e).
        let base = [(1e-2, 1.0), (1e-3, 10.0), (1e-4, 100.0)];
        // Method: ten times cheaper at every error, over a shorter range.
        let fast = [(1e-3, 1.0), (1e-5, 100.0)];
        let s = equal_accuracy_speedups(&base, &fast);
        assert_eq!(s.len(), 2, "{s:?}");
        for (e, r) in &s {
            assert!((1e-4..=1e-3).contains(e));
            assert!((r - 10.0).abs() < 1e-9, "{r}");
        }
        // Disjoint ranges: nothing to compare.
        assert!(equal_accuracy_speedups(&[(1.0, 1.0), (0.5, 2.0)], &[(1e-3, 1.0)]).is_empty());
    }

    /// A synthetic method: first order at fine steps, a pre-asymptotic
    /// plateau (error about 0.5 whatever the step) at the coarse ones.
    fn plateau_method() -> Vec<(f64, f64)> {
        vec![
            (1e-4, 1e-4),
            (2e-4, 2e-4),
            (4e-4, 4e-4),
            (8e-4, 8e-4),
            (1.6e-3, 0.45),
            (3.2e-3, 0.5),
            (6.4e-3, 0.52),
        ]
    }

    #[test]
    fn one_order_estimator_slope_and_no_order() {
        // Exact second order over five levels: slope 2 over the 3 finest.
        let pts: Vec<(f64, f64)> = (0..5)
            .map(|i| {
                let h = 1e-4 * 2f64.powi(i);
                (h, 3.0 * h * h)
            })
            .collect();
        let est = order_estimate(&pts, Some(true));
        assert!((est.order.clone().unwrap() - 2.0).abs() < 1e-12, "{est:?}");
        assert_eq!(est.k, FINEST);
        assert_eq!(est.levels_used, (1e-4, 4e-4));
        assert_eq!(est.legend(), "order 2.00 over the 3 finest");
        assert_eq!(
            est.describe("dt"),
            "order 2.00 (least-squares slope over the 3 finest levels of the converged range, dt 4.00e-4 to 1.00e-4)"
        );
        // First order at fine steps after a pre-asymptotic plateau: the
        // plateau is outside the converged range, so not in the slope.
        let est = order_estimate(&plateau_method(), Some(true));
        assert!((est.order.clone().unwrap() - 1.0).abs() < 1e-12, "{est:?}");
        assert_eq!(est.levels_used, (1e-4, 4e-4));
        // A plateau then a drop (local orders 8 and 2 at the finest end,
        // 0 before): no asymptotic range, so no order, with the reason.
        let drop: Vec<(f64, f64)> = [0, 8, 10, 10, 10]
            .iter()
            .enumerate()
            .map(|(i, p)| (1e-4 * 2f64.powi(i as i32), 1e-6 * 2f64.powi(*p)))
            .collect();
        let est = order_estimate(&drop, Some(true));
        let why = est.order.clone().unwrap_err();
        assert!(why.contains("no converged range"), "{why}");
        assert!(est.describe("dt").starts_with("no order ("), "{est:?}");
        assert!(!est.legend().contains(char::is_numeric), "{}", est.legend());
        // The full-sweep least-squares slope would have printed a number.
        let (h, e): (Vec<f64>, Vec<f64>) = drop.into_iter().unzip();
        assert!(orders(&h, &e).unwrap().0 > 1.0);
    }

    #[test]
    fn plateau_levels_are_outside_the_converged_range() {
        let c = converged_range(&plateau_method(), Some(true), None).unwrap();
        assert!((c.order - 1.0).abs() < 1e-12 && !c.nominal);
        assert_eq!((c.lo, c.hi, c.kept, c.levels), (1e-4, 8e-4, 4, 7));
        // Against a nominal order 2 the first-order slopes are not asymptotic.
        assert!(converged_range(&plateau_method(), Some(true), Some(2.0)).is_err());
        // Against nominal 1: the same range.
        let n = converged_range(&plateau_method(), Some(true), Some(1.0)).unwrap();
        assert_eq!((n.lo, n.hi), (1e-4, 8e-4));
        // Perturbed: a level with a slope 31 % off the order leaves the
        // range (the rule can fail): 4e-4 now errs 4e-4 x 2^0.31.
        let mut p = plateau_method();
        p[2].1 = 4e-4 * 2f64.powf(0.31);
        let c = converged_range(&p, Some(true), Some(1.0)).unwrap();
        assert!(c.kept < 4, "{c:?}");
        // The finest end is a floor: no range.
        let floor = [(1e-3, 1e-6), (2e-3, 1.01e-6), (4e-3, 1.02e-6), (8e-3, 4e-3)];
        assert!(converged_range(&floor, Some(true), None).is_err());
        // One level: no order, no range; two: only against a nominal order.
        assert!(converged_range(&[(1e-3, 1e-3)], Some(true), None).is_err());
        let two = [(1e-3, 1e-6), (2e-3, 4e-6)];
        assert!(converged_range(&two, Some(true), None).is_err());
        assert!(converged_range(&two, Some(true), Some(2.0)).is_ok());
        assert!(converged_range(&two, Some(true), Some(4.0)).is_err());
        // A penalty-like key (the finest at the largest value).
        let kp = [(1e6, 1e-2), (1e7, 1e-3), (1e8, 1e-4)];
        let c = converged_range(&kp, None, None).unwrap();
        assert!((c.order + 1.0).abs() < 1e-12 && c.kept == 3, "{c:?}");
    }

    #[test]
    fn a_speedup_over_a_disjoint_converged_range_is_refused() {
        // The baseline's cost ~ 1/h; its converged range is 1e-4..8e-4.
        let base: Vec<(f64, f64)> = plateau_method()
            .iter()
            .map(|(h, e)| (*e, 1e-3 / h))
            .collect();
        let br = converged_range(&plateau_method(), Some(true), None).unwrap();
        // A method converged (order 2) only at errors 1e-2..4e-2, in the
        // baseline's plateau: the whole curves overlap, the ranges do not.
        let pts = [(1e-3, 1e-2), (1.5e-3, 2.25e-2), (2e-3, 4e-2), (4e-3, 0.5)];
        let mr = converged_range(&pts, Some(true), None).unwrap();
        assert_eq!((mr.lo, mr.hi), (1e-2, 4e-2));
        let method: Vec<(f64, f64)> = pts.iter().map(|(h, e)| (*e, 1e-4 / h)).collect();
        assert!(!equal_accuracy_speedups(&base, &method).is_empty());
        let refused = converged_speedups(&base, &br, &method, &mr).unwrap_err();
        assert!(refused.contains("no common converged range"), "{refused}");
        // Overlapping ranges: speed-ups only inside the intersection.
        let pts = [(1e-5, 2e-4), (2e-5, 8e-4), (4e-5, 3.2e-3)];
        let mr = converged_range(&pts, Some(true), Some(2.0)).unwrap();
        let method: Vec<(f64, f64)> = pts.iter().map(|(h, e)| (*e, 1e-4 / h)).collect();
        let ((lo, hi), at) = converged_speedups(&base, &br, &method, &mr).unwrap();
        assert_eq!((lo, hi), (2e-4, 8e-4));
        assert!(at.iter().all(|(e, _)| (lo..=hi).contains(e)), "{at:?}");
        assert!(!at.is_empty());
    }
}
