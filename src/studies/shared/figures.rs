//! Figures more than one kind draws: the cost of a regularised law against
//! its swept regularisation key (`stick-slip`, `shrouded-blades`), a
//! column against the cam angle with the fine reference (the valve
//! kinds); and what captions name: methods, cases, counts.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::format::sig;
use crate::harness::study::{CaseOutput, StudySummary};
use crate::harness::sweep::label::{coords_text, short, unit_of};

/// The method labels of `cases`, in order of first appearance.
pub(crate) fn method_labels<'a>(cases: impl IntoIterator<Item = &'a CaseOutput>) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for o in cases {
        for m in &o.methods {
            if !labels.iter().any(|l| l == m.label()) {
                labels.push(m.label().to_string());
            }
        }
    }
    labels
}

/// The labels of the methods of case `o` that succeeded, in order.
pub(crate) fn succeeded(o: &CaseOutput) -> Vec<&str> {
    o.methods
        .iter()
        .filter(|m| m.output().is_some())
        .map(|m| m.label())
        .collect()
}

/// The case a per-case figure draws: its swept values with units, or its
/// name without sweeps.
pub(crate) fn case_text(o: &CaseOutput) -> String {
    if o.coords.is_empty() {
        o.name.clone()
    } else {
        coords_text(&o.coords)
    }
}

/// Curves of one column of a case against the cam angle.
pub(crate) struct CamCurves<'a> {
    /// The fine NCP reference (dashed, first) and each method's curve.
    pub series: Vec<Series>,
    /// The labels of the methods drawn.
    pub methods: Vec<&'a str>,
    /// The caption's words on the reference ("" when not drawn).
    pub reference: &'static str,
}

/// `column` against `cam_angle` in case `o`: its `reference` table dashed
/// (when `with_reference` and the table has the column), then every
/// method that wrote the column.
pub(crate) fn against_cam_angle<'a>(
    o: &'a CaseOutput,
    column: &str,
    with_reference: bool,
) -> CamCurves<'a> {
    let mut series = Vec::new();
    let mut reference = "";
    if with_reference
        && let Some(r) = o.table("reference")
        && let (Some(a), Some(y)) = (r.table.values("cam_angle"), r.table.values(column))
    {
        series.push(Series::new("fine NCP reference", a, y, Style::Dashed));
        reference = ", and dashed the fine NCP reference";
    }
    let mut methods: Vec<&str> = Vec::new();
    for m in &o.methods {
        let Some(out) = m.output() else { continue };
        if let (Some(a), Some(y)) = (out.series.values("cam_angle"), out.series.values(column)) {
            series.push(Series::new(m.label(), a, y, Style::Line));
            methods.push(m.label());
        }
    }
    CamCurves {
        series,
        methods,
        reference,
    }
}

/// `n` as a word for a caption ("three laws"), digits above ten.
pub(crate) fn count_word(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS.get(n).map_or(n.to_string(), |w| w.to_string())
}

/// The regularisation keys whose sweep shows the stiffness of a law.
pub(crate) const SHARPNESS: [&str; 5] = [
    "sharpness",
    "b",
    "critical_speed",
    "stribeck_speed",
    "sigma0",
];

/// Right-hand-side evaluations per method against a swept regularisation
/// key (log-log), with a caption from the data ([`cost_caption`]).
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
        let caption = cost_caption(&name, param, &pts);
        let (x, y): (Vec<f64>, Vec<f64>) = pts.into_iter().unzip();
        summary.figures.push(Figure {
            name: format!("stiffness-{}", key.replace('.', "-")),
            title: format!("Cost of the regularised law {name} against {param}"),
            x: Axis::log(format!(
                "{param} [{}] (swept: {key})",
                unit_of(key).unwrap_or("-")
            )),
            y: Axis::log("right-hand side evaluations [-]"),
            series: vec![Series::new(name, &x, &y, Style::LineMarkers)],
            caption,
        });
    }
}

/// What the cost figure shows, from its points (issue 20, class 2): the
/// ratio of the cost of the steepest law to that of the smoothest (the
/// steepest: the largest sharpness, b or sigma0; the smallest
/// critical or Stribeck speed), and what that ratio means.
pub(crate) fn cost_caption(name: &str, param: &str, pts: &[(f64, f64)]) -> String {
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return String::new();
    };
    let (smooth, steep) = if param.ends_with("speed") {
        (last, first)
    } else {
        (first, last)
    };
    let ratio = steep.1 / smooth.1;
    let decades = (last.0 / first.0).log10();
    let reading = if ratio >= 2.0 {
        "a steeper law near zero slip makes the ODE stiff and the explicit integrator's steps small"
    } else if ratio <= 0.5 {
        "the steeper law costs less here"
    } else {
        "the cost is flat: the law's slope near zero slip does not set the step here (the slip stays away from zero, where the law is steep, and the rest of the system sets the step)"
    };
    format!(
        "Evaluations of the equations of motion the adaptive integrator needed for {name} at {} values of {param} over {} decades ({} to {}): the steepest law ({param} = {}) cost {}x the smoothest ({param} = {}); {reading}.",
        pts.len(),
        sig(decades),
        short(first.0),
        short(last.0),
        short(steep.0),
        sig(ratio),
        short(smooth.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The caption says what the points show: flat over five decades is
    /// not called stiff, a tenfold growth is.
    #[test]
    fn the_cost_caption_follows_the_data() {
        let flat = [(2e3, 1.53e5), (2e5, 1.535e5), (2e8, 1.531e5)];
        let c = cost_caption("tanh-ode", "sharpness", &flat);
        assert!(c.contains("cost 1x the smoothest"), "{c}");
        assert!(c.contains("the cost is flat"), "{c}");
        assert!(!c.contains("makes the ODE stiff"), "{c}");
        let steep = [(1e-6, 1e6), (1e-3, 1e4)];
        let c = cost_caption("micro-slip", "critical_speed", &steep);
        assert!(c.contains("(critical_speed = 1e-6) cost 100x"), "{c}");
        assert!(c.contains("makes the ODE stiff"), "{c}");
    }
}
