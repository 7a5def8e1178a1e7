//! The numbers behind work-precision comparisons: the least-squares order
//! of an error against a step, the Pareto front of (error, CPU time)
//! points, the CPU time interpolated log-log at an error, and the
//! speed-ups at equal accuracy over the error levels two fronts share.

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

/// The Pareto front of `(error, cpu)` points (as the speed-ups use it, see
/// the module doc), for kinds that compare against several curves.
pub fn pareto_front(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    curve(points)
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
    let (Some(b0), Some(m0), Some(br), Some(mr)) =
        (b.first(), m.first(), reach(baseline), reach(method))
    else {
        return Vec::new();
    };
    let (lo, hi) = (b0.0.max(m0.0), br.min(mr));
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
        .filter_map(|e| Some((e, cost_at(&b, br, e)? / cost_at(&m, mr, e)?)))
        .collect()
}

/// The largest error of the valid runs of a curve: up to it, the curve's
/// cheapest run reaches the accuracy (its error is smaller still).
fn reach(points: &[(f64, f64)]) -> Option<f64> {
    points
        .iter()
        .filter(|(e, t)| *e > 0.0 && *t > 0.0 && e.is_finite() && t.is_finite())
        .map(|p| p.0)
        .max_by(f64::total_cmp)
}

/// The CPU time of `front` at error `e`: interpolated on the front, and,
/// between the front's largest error and the curve's `reach`, that of the
/// front's cheapest run (a dominated run of larger error costs more; the
/// cost of an accuracy is that of the cheapest run reaching it).
fn cost_at(front: &[(f64, f64)], reach: f64, e: f64) -> Option<f64> {
    match front.last() {
        Some(last) if e > last.0 && e <= reach => Some(last.1),
        _ => cpu_at(front, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A run that costs more than a finer one (timing noise at the cheap
    /// end) leaves the front but not the curve's reach: the accuracy it
    /// reached costs what the finer, cheaper run costs.
    #[test]
    fn a_dominated_coarse_run_keeps_the_curve_reaching_its_error() {
        // Baseline: its coarsest run (4e-4) is dominated by the 1e-4 run.
        let base = [(1e-6, 100.0), (1e-5, 10.0), (1e-4, 1.0), (4e-4, 1.2)];
        // Method: from 3e-4 up.
        let method = [(3e-4, 0.1), (1e-2, 0.01)];
        let s = equal_accuracy_speedups(&base, &method);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].0, 3e-4);
        assert!((s[0].1 - 10.0).abs() < 1e-12, "{s:?}");
        // Without the reach (the front alone ends at 1e-4): nothing.
        assert!(cpu_at(&curve(&base), 3e-4).is_none());
        // Beyond every run's error nothing is compared.
        assert!(equal_accuracy_speedups(&base, &[(1e-3, 0.1), (1e-2, 0.01)]).is_empty());
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
}
