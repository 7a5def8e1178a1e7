//! The seed's sentence over spring designs (issue 32): a valvetrain study
//! whose cases differ in the spring's surge frequency (e.g. a sweep of
//! `spring.density` at fixed rate and preload) as well as in camshaft
//! speed. Per case below the jump speed (neither spring model lifts off),
//! the surge ratio r = f_surge / n (the spring's first surge frequency over
//! the cam frequency) and the effect of the spring's dynamics: the
//! relative difference of the multi-mass spring's seat impact velocity
//! (and smallest cam force) from the single-mass spring's. The figure
//! draws the effects against r; a power law e = a r^b fitted to them
//! (log-log least squares) gives the ratio where the effect crosses 10 %;
//! `designs.csv` gives each design's verdict (its median effect over its
//! speeds at least 10 %: affected).

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, Cells, Scalar, StudyScalar, StudySummary, StudyTable};
use crate::harness::timing::median;
use crate::studies::shared::figures::count_word;

/// "Widely affected": the relative difference that counts (fixed before the
/// runs, as the claims' threshold).
pub const AFFECTED: f64 = 0.1;

/// One case below the jump speed.
struct Point {
    surge_hz: f64,
    ratio: f64,
    impact: f64,
    cam_force: f64,
}

/// The value of method scalar `name` of `label` in case `o`.
fn scalar(o: &CaseOutput, label: &str, name: &str) -> Option<f64> {
    o.method(label)?.output()?.scalar(name)
}

/// |a - b| / |b|.
fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// The cases of `cases` below the jump for both spring models.
fn points(multi: &str, single: &str, cases: &[CaseOutput]) -> Vec<Point> {
    cases
        .iter()
        .filter_map(|o| {
            let below = |l: &str| scalar(o, l, "liftoff").is_some_and(|x| x < 0.5);
            if !(below(multi) && below(single)) {
                return None;
            }
            let surge_hz = o.scalar("surge_hz")?;
            let n = o.scalar("cam_speed")?;
            Some(Point {
                surge_hz,
                ratio: surge_hz / n,
                impact: rel(
                    scalar(o, multi, "impact_velocity")?,
                    scalar(o, single, "impact_velocity")?,
                ),
                cam_force: rel(
                    scalar(o, multi, "min_cam_force")?,
                    scalar(o, single, "min_cam_force")?,
                ),
            })
        })
        .collect()
}

/// The surge ratio where the power law fitted to (r, e) reaches
/// [`AFFECTED`]: (10 % / a)^(1 / b); None with fewer than two positive
/// points or a flat fit.
fn crossing(points: &[(f64, f64)]) -> Option<f64> {
    let p: Vec<(f64, f64)> = points
        .iter()
        .filter(|(r, e)| *r > 0.0 && *e > 0.0)
        .map(|(r, e)| (r.ln(), e.ln()))
        .collect();
    if p.len() < 2 {
        return None;
    }
    let k = p.len() as f64;
    let (mx, my) = (
        p.iter().map(|q| q.0).sum::<f64>() / k,
        p.iter().map(|q| q.1).sum::<f64>() / k,
    );
    let sxx: f64 = p.iter().map(|q| (q.0 - mx).powi(2)).sum();
    let sxy: f64 = p.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum();
    if sxx <= 0.0 || sxy == 0.0 {
        return None;
    }
    let b = sxy / sxx;
    let ln_a = my - b * mx;
    Some(((AFFECTED.ln() - ln_a) / b).exp())
}

/// The figure, the crossing ratios, the designs' verdicts: for a study
/// whose cases have more than one surge frequency.
pub(super) fn summarize(
    summary: &mut StudySummary,
    multi: &str,
    single: &str,
    cases: &[CaseOutput],
) {
    let pts = points(multi, single, cases);
    let mut surges: Vec<f64> = pts.iter().map(|p| p.surge_hz).collect();
    surges.sort_by(f64::total_cmp);
    surges.dedup();
    if surges.len() < 2 {
        return;
    }
    let study = |name: &str, value: f64, doc: String| StudyScalar {
        scalar: Scalar::new(name, value, doc),
        method: None,
        group: String::new(),
    };
    let mut series = Vec::new();
    for (what, name, pick) in [
        (
            "seat impact velocity",
            "impact",
            (|p: &Point| p.impact) as fn(&Point) -> f64,
        ),
        ("smallest cam force", "cam_force", |p: &Point| p.cam_force),
    ] {
        let xy: Vec<(f64, f64)> = pts.iter().map(|p| (p.ratio, pick(p))).collect();
        let cross = crossing(&xy).unwrap_or(f64::NAN);
        summary.scalars.push(study(
            &format!("surge_ratio_at_10_percent_{name}"),
            cross,
            format!(
                "the surge ratio (first surge frequency over cam frequency) where a power law e = a r^b fitted (log-log) to the {what} effects of the cases below the jump reaches 10 % [-]"
            ),
        ));
        let (x, y): (Vec<f64>, Vec<f64>) = xy.iter().copied().unzip();
        series.push(Series::new(
            format!(
                "{what} (10 % at r = {})",
                crate::harness::format::sig(cross)
            ),
            &x,
            &y,
            Style::Markers,
        ));
    }
    let (lo, hi) = pts.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
        (lo.min(p.ratio), hi.max(p.ratio))
    });
    series.push(Series::new(
        "10 % (widely affected)",
        &[lo, hi],
        &[AFFECTED, AFFECTED],
        Style::Dashed,
    ));
    summary.figures.push(Figure {
        name: "effect-against-surge-ratio".into(),
        title: "How much the spring's dynamics move the valve, against the surge ratio".into(),
        x: Axis::log("surge ratio r = first surge frequency / cam frequency [-]"),
        y: Axis::log("|multi-mass - single-mass| / |single-mass| [-]"),
        series,
        caption: format!(
            "Below the jump speed, every case of {} spring designs (surge {} to {} Hz) at the swept camshaft speeds: the relative difference of the multi-mass spring's (with coil contact) seat impact velocity and smallest cam force from the single-mass spring's, against the surge ratio. The legend gives the ratio where a power law fitted to each reaches 10 %.",
            count_word(surges.len()),
            crate::harness::format::sig(surges[0]),
            crate::harness::format::sig(surges[surges.len() - 1])
        ),
    });
    designs_table(summary, &surges, &pts);
}

/// Each design (surge frequency): its ratios, median effects and verdict.
fn designs_table(summary: &mut StudySummary, surges: &[f64], pts: &[Point]) {
    let mut rows: Vec<(f64, f64, f64, f64, f64, bool)> = Vec::new();
    for &f in surges {
        let of: Vec<&Point> = pts.iter().filter(|p| p.surge_hz == f).collect();
        let ratios: Vec<f64> = of.iter().map(|p| p.ratio).collect();
        let impact = median(&of.iter().map(|p| p.impact).collect::<Vec<_>>());
        let force = median(&of.iter().map(|p| p.cam_force).collect::<Vec<_>>());
        let (rlo, rhi) = ratios
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), r| (a.min(*r), b.max(*r)));
        rows.push((
            f,
            rlo,
            rhi,
            impact,
            force,
            impact >= AFFECTED || force >= AFFECTED,
        ));
    }
    let affected = rows.iter().filter(|r| r.5).count();
    summary.scalars.push(StudyScalar {
        scalar: Scalar::new(
            "designs_affected",
            affected as f64,
            "spring designs whose median effect over their speeds below the jump, on the seat impact velocity or the smallest cam force, is at least 10 % [-]",
        ),
        method: None,
        group: String::new(),
    });
    summary.scalars.push(StudyScalar {
        scalar: Scalar::new(
            "designs",
            rows.len() as f64,
            "spring designs (distinct surge frequencies) with cases below the jump [-]",
        ),
        method: None,
        group: String::new(),
    });
    let col = |k: usize| Cells::Float(rows.iter().map(|r| [r.0, r.1, r.2, r.3, r.4][k]).collect());
    summary.tables.push(StudyTable {
        stem: "designs".into(),
        doc: "each spring design (surge frequency): the surge ratios of its cases below the jump, the median effects of the spring's dynamics on the seat impact velocity and the smallest cam force, and the verdict (at least 10 %: affected)".into(),
        columns: vec![
            ("surge_hz".into(), "the spring's first surge frequency sqrt(k / m_active) / 2 [Hz]".into(), col(0)),
            ("ratio_min".into(), "smallest surge ratio of its cases below the jump [-]".into(), col(1)),
            ("ratio_max".into(), "largest surge ratio of its cases below the jump [-]".into(), col(2)),
            ("impact_effect".into(), "median |multi - single| / |single| of the seat impact velocity [-]".into(), col(3)),
            ("cam_force_effect".into(), "median |multi - single| / |single| of the smallest cam force [-]".into(), col(4)),
            ("affected".into(), "a median effect of at least 10 %".into(), Cells::Bool(rows.iter().map(|r| r.5).collect())),
        ],
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crossing of an exact power law is its 10 % point.
    #[test]
    fn the_crossing_of_a_power_law() {
        // e = 2 r^-2: 0.1 at r = sqrt(20).
        let pts: Vec<(f64, f64)> = [4.0, 6.0, 10.0, 20.0]
            .iter()
            .map(|&r: &f64| (r, 2.0 * r.powi(-2)))
            .collect();
        let r = crossing(&pts).expect("a crossing");
        assert!((r - 20f64.sqrt()).abs() < 1e-12, "{r}");
        assert!(crossing(&[(4.0, 0.1)]).is_none());
        assert!(crossing(&[(4.0, 0.1), (8.0, 0.1)]).is_none(), "flat");
    }
}
