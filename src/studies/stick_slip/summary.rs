//! Study-level results of a stick-slip study: the response of every law
//! against the exact Coulomb motion, friction against slip, the cost of the
//! regularised laws against their sharpness (the stiffness they cause),
//! and a sentence per method on its cycle against the exact one.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, StudySummary};
use crate::studies::shared::figures::stiffness;
use crate::studies::stick_slip::AT_THRESHOLD;
use crate::studies::stick_slip::spec::CaseConfig;

pub(super) fn summarize(
    configs: &[CaseConfig],
    sweep_keys: &[String],
    cases: &[CaseOutput],
) -> StudySummary {
    let mut summary = StudySummary::default();
    let Some((cfg, shown)) = finest(configs, cases) else {
        return summary;
    };
    responses(&mut summary, shown);
    stiffness(&mut summary, sweep_keys, cases);
    notes(&mut summary, shown, cfg.stick_threshold);
    summary
}

/// The case with the smallest dt and tolerance (the most accurate run of
/// each method).
fn finest<'a>(
    configs: &'a [CaseConfig],
    cases: &'a [CaseOutput],
) -> Option<(&'a CaseConfig, &'a CaseOutput)> {
    configs.iter().zip(cases).min_by(|a, b| {
        (a.0.dt, a.0.tolerance)
            .partial_cmp(&(b.0.dt, b.0.tolerance))
            .unwrap_or(std::cmp::Ordering::Equal)
    })
}

fn responses(summary: &mut StudySummary, o: &CaseOutput) {
    let at = if o.coords.is_empty() {
        String::new()
    } else {
        format!(" (case {})", o.name)
    };
    for (column, title, unit) in [
        ("x", "Position of the mass", "x [m]"),
        ("slip", "Slip velocity", "slip u = v - v_b [m/s]"),
        ("friction", "Friction force on the mass", "friction T [N]"),
    ] {
        let mut series = Vec::new();
        if let Some(ex) = o.table("exact")
            && let (Some(t), Some(y)) = (ex.table.values("t"), ex.table.values(column))
        {
            series.push(Series::new("exact (Coulomb)", t, y, Style::Dashed));
        }
        for (k, m) in o.methods.iter().enumerate() {
            let Some(out) = m.output() else { continue };
            if let (Some(t), Some(y)) = (out.series.values("t"), out.series.values(column)) {
                series.push(Series::new(m.label(), t, y, Style::Line).grouped(k + 1));
            }
        }
        if series.is_empty() {
            continue;
        }
        summary.figures.push(Figure {
            name: format!("response-{column}"),
            title: format!("{title}{at}"),
            x: Axis::linear("time t [s]"),
            y: Axis::linear(unit),
            series,
            caption: format!(
                "{title} of every law of the case against time; dashed: the exact piecewise-analytic motion with Coulomb friction (where the case has it)."
            ),
        });
    }
    let mut series = Vec::new();
    for (k, m) in o.methods.iter().enumerate() {
        let Some(out) = m.output() else { continue };
        if let (Some(u), Some(f)) = (out.series.values("slip"), out.series.values("friction")) {
            series.push(Series::new(m.label(), u, f, Style::Markers).grouped(k + 1));
        }
    }
    if !series.is_empty() {
        summary.figures.push(Figure {
            name: "friction-vs-slip".into(),
            title: format!("Friction force against slip{at}"),
            x: Axis::linear("slip u = v - v_b [m/s]"),
            y: Axis::linear("friction T [N]"),
            series,
            caption: "The friction force each law produced against the slip at the output times: a set-valued law sticks on the vertical segment at u = 0; a regularised law passes through the origin with a finite slope (its stiffness).".into(),
        });
    }
}

fn notes(summary: &mut StudySummary, o: &CaseOutput, stick_threshold: f64) {
    let (Some(stick), Some(slip)) = (
        o.scalar("exact_stick_duration"),
        o.scalar("exact_slip_duration"),
    ) else {
        return;
    };
    let thresholded = match (
        o.scalar(&format!("exact_stick_duration{AT_THRESHOLD}")),
        o.scalar(&format!("exact_slip_duration{AT_THRESHOLD}")),
    ) {
        (Some(a), Some(b)) => format!(
            "; measured with the stick threshold {stick_threshold:e} m/s, as the methods that do not stick exactly are: stick {a:.6} s, slip {b:.6} s"
        ),
        _ => String::new(),
    };
    summary.notes.push(format!(
        "Exact Coulomb cycle of case {} (stuck while the slip is zero): stick {stick:.6} s, slip {slip:.6} s{thresholded}.",
        o.name
    ));
    for m in &o.methods {
        let Some(out) = m.output() else { continue };
        let threshold = out.scalar("stick_threshold").unwrap_or(stick_threshold);
        if let (Some(s), Some(p), Some(e)) = (
            out.scalar("stick_duration"),
            out.scalar("slip_duration"),
            out.scalar("cycle_error"),
        ) {
            summary.notes.push(format!(
                "{}: stick {s:.6} s, slip {p:.6} s (stick threshold {threshold:.1e} m/s); cycle error {e:.2e} s ({:.3} % of the period).",
                m.label(),
                100.0 * e / (stick + slip)
            ));
        } else {
            summary.notes.push(format!(
                "{}: no full stick-slip cycle found (stick threshold {threshold:e} m/s).",
                m.label(),
            ));
        }
    }
}
