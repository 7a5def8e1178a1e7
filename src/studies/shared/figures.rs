//! Figures more than one kind draws: the cost of a regularised law against
//! its swept regularisation key (`stick-slip`, `shrouded-blades`).

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::study::{CaseOutput, StudySummary};

/// The regularisation keys whose sweep shows the stiffness of a law.
pub(crate) const SHARPNESS: [&str; 5] = [
    "sharpness",
    "b",
    "critical_speed",
    "stribeck_speed",
    "sigma0",
];

/// Steps per method against a swept regularisation key (log-log).
pub(crate) fn stiffness(summary: &mut StudySummary, keys: &[String], cases: &[CaseOutput]) {
    for key in keys {
        let Some(param) = key.rsplit('.').next() else {
            continue;
        };
        if !SHARPNESS.contains(&param)
            || !key.starts_with("variants.") && !key.starts_with("friction.")
        {
            continue;
        }
        let label = key.split('.').nth(1).unwrap_or_default();
        let mut name = String::new();
        let mut pts: Vec<(f64, f64)> = Vec::new();
        for o in cases {
            let Some(value) = o.coord(key).and_then(|c| c.number()) else {
                continue;
            };
            let method = if key.starts_with("friction.") {
                o.methods.first()
            } else {
                o.method(label)
            };
            if let Some(m) = method {
                name = m.label().to_string();
            }
            if let Some(steps) = method.and_then(|m| m.output()).and_then(|out| {
                out.counters
                    .iter()
                    .find(|c| c.0 == "rhs_evaluations")
                    .map(|c| c.1)
            }) && steps > 0.0
            {
                pts.push((value, steps));
            }
        }
        if pts.len() < 2 {
            continue;
        }
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (x, y): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
        summary.figures.push(Figure {
            name: format!("stiffness-{}", key.replace('.', "-")),
            title: format!("Cost of the regularised law {name} against {param}"),
            x: Axis::log(format!("{param} (swept: {key})")),
            y: Axis::log("right-hand side evaluations [-]"),
            series: vec![Series::new(name, &x, &y, Style::LineMarkers)],
            caption: format!(
                "Evaluations of the equations of motion the adaptive integrator needed as the law's {param} changes: a steeper law near zero slip makes the ODE stiff and the explicit integrator's steps small."
            ),
        });
    }
}
