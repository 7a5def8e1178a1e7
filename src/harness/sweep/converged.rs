//! When a method's runs count (issue 16, sections 1 and 4): a run that
//! did not resolve the solution ([`unresolved`]), the error range where a
//! method's convergence is asymptotic ([`converged_range`]), the one order
//! estimator ([`order_estimate`], issue 19) and speed-ups over the common
//! converged range only ([`converged_speedups`]). The rules are stated in
//! the parent module's doc.

use super::equal_accuracy::{equal_accuracy_speedups, orders};
use crate::harness::format::sig;

/// Relative error from which a run counts as unresolved (no correct digit).
pub const UNRESOLVED_RELATIVE: f64 = 0.1;

/// Relative error per unit tolerance beyond which a run over a tolerance
/// key counts as unresolved (a well-resolved error-controlled run stays
/// within a few tens: the ideal slider-crank measures 11 to 13).
pub const UNRESOLVED_PER_TOLERANCE: f64 = 100.0;

/// Why a run with `error` is unresolved, or None: `scale` is its
/// `<error>_scale`, `tolerance` the value of a tolerance parameter with the
/// study's factor ([`UNRESOLVED_PER_TOLERANCE`] unless its spec sets
/// `unresolved_per_tolerance`: a flow through impacts amplifies the local
/// errors the tolerance bounds by far more than a smooth one).
pub fn unresolved(error: f64, scale: Option<f64>, tolerance: Option<(f64, f64)>) -> Option<String> {
    let scale = scale.filter(|s| s.is_finite() && *s > 0.0)?;
    let relative = error / scale;
    if !relative.is_finite() || relative >= UNRESOLVED_RELATIVE {
        return Some(format!(
            "error {} is {} of the scale {} (at least {UNRESOLVED_RELATIVE}: no correct digit)",
            sig(error),
            sig(relative),
            sig(scale)
        ));
    }
    let (tol, factor) = tolerance.filter(|(t, _)| t.is_finite() && *t > 0.0)?;
    (relative > factor * tol).then(|| {
        format!(
            "error {} is {} of the scale {}, {}x its tolerance {} (more than {}x)",
            sig(error),
            sig(relative),
            sig(scale),
            sig(relative / tol),
            sig(tol),
            sig(factor)
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
    rows: &[crate::harness::rows::WorkPrecisionRow],
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unresolved_runs_by_scale_and_tolerance() {
        // No scale: never.
        assert!(unresolved(1e3, None, Some((1e-3, UNRESOLVED_PER_TOLERANCE))).is_none());
        // No correct digit.
        assert!(unresolved(4.7, Some(28.4), None).is_some());
        assert!(unresolved(2.0, Some(28.4), None).is_none());
        // Beyond 100 x tolerance (relative 1.9e-2 at 1e-4), within it
        // (1.1e-5 at 1e-6).
        assert!(unresolved(0.527, Some(28.4), Some((1e-4, UNRESOLVED_PER_TOLERANCE))).is_some());
        assert!(unresolved(3.15e-4, Some(28.4), Some((1e-6, UNRESOLVED_PER_TOLERANCE))).is_none());
        assert!(unresolved(f64::NAN, Some(28.4), None).is_some());
        // A study's own factor: 3.6e-5 of 28.4 at 1e-11 is 1.3e5 x.
        assert!(unresolved(3.6e-5, Some(28.4), Some((1e-11, 100.0))).is_some());
        assert!(unresolved(3.6e-5, Some(28.4), Some((1e-11, 1e6))).is_none());
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
