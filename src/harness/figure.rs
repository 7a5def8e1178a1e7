//! Declarative figures: a study describes what to plot; `harness::plot`
//! renders it (SVG). Study kinds never touch the plotting library.

/// Axis scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear axis.
    Linear,
    /// Base-10 logarithmic axis (non-positive values are dropped when drawn).
    Log,
}

/// One axis: label with unit, e.g. "time t [s]".
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Label including the unit in brackets.
    pub label: String,
    /// Linear or logarithmic.
    pub scale: Scale,
    /// On the vertical axis of a linear figure: the horizontal axis's
    /// pixels per unit, so that a circle is drawn round (an orbit in a
    /// bearing); the legend then goes beside the plot.
    pub equal_aspect: bool,
}

impl Axis {
    /// A linear axis.
    pub fn linear(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            scale: Scale::Linear,
            equal_aspect: false,
        }
    }
    /// A logarithmic axis.
    pub fn log(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            scale: Scale::Log,
            equal_aspect: false,
        }
    }
    /// This (vertical) axis with the horizontal one's pixels per unit.
    pub fn with_equal_aspect(self) -> Self {
        Self {
            equal_aspect: true,
            ..self
        }
    }
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Solid line.
    Line,
    /// Dashed line (used for references): a light band of its colour under
    /// the other series, its dashes over them (a curve that coincides with
    /// it leaves it visible).
    Dashed,
    /// Dashed line drawn in series order, over the earlier series and
    /// without a band: a curve that coincides with an earlier one (which
    /// shows through its gaps).
    DashedOver,
    /// Markers only.
    Markers,
    /// Solid line with markers.
    LineMarkers,
    /// Arrows: each run of drawable points (runs separated by a NaN point)
    /// is a solid path with an arrowhead at its last point (e.g. the jumps
    /// of a frequency sweep).
    Arrow,
}

/// One curve of a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub label: String,
    /// The points (x, y).
    pub points: Vec<(f64, f64)>,
    /// Drawing style.
    pub style: Style,
    /// Colour group. Series with the same group are drawn in the same colour
    /// (e.g. a method solid and its reference dashed); the groups take the
    /// palette's colours in order of first appearance, and series without a
    /// group take the next colour each, in series order.
    pub group: Option<usize>,
    /// Horizontal error half-widths, one per point (e.g. the spread of
    /// repeated timings): drawn as bars from x - e to x + e.
    pub x_errors: Option<Vec<f64>>,
}

impl Series {
    /// A series from x and y slices of equal length.
    pub fn new(label: impl Into<String>, x: &[f64], y: &[f64], style: Style) -> Self {
        Self {
            label: label.into(),
            points: x.iter().copied().zip(y.iter().copied()).collect(),
            style,
            group: None,
            x_errors: None,
        }
    }

    /// The same series with horizontal error half-widths (one per point).
    pub fn with_x_errors(self, half_widths: &[f64]) -> Self {
        Self {
            x_errors: Some(half_widths.to_vec()),
            ..self
        }
    }

    /// The same series in colour group `g` (see [`Series::group`]).
    pub fn grouped(self, g: usize) -> Self {
        Self {
            group: Some(g),
            ..self
        }
    }
}

/// A figure: written to `report/figures/<study>-<name>.svg`.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File stem, unique within the study.
    pub name: String,
    /// Title drawn above the plot.
    pub title: String,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Curves, drawn in order.
    pub series: Vec<Series>,
    /// One or two sentences under the figure in the report: what it shows and
    /// which paper figure it regenerates.
    pub caption: String,
}

impl Figure {
    /// What makes the figure unfit to draw: a line series (solid or dashed)
    /// with fewer than two drawable points draws nothing (a line with
    /// markers still draws its one marker); a
    /// figure without any drawable point is empty. The report shows these
    /// in place of the figure, and the tests fail on them.
    pub fn problems(&self) -> Vec<String> {
        let finite = |s: &Series| {
            s.points
                .iter()
                .filter(|(x, y)| {
                    x.is_finite()
                        && y.is_finite()
                        && (self.x.scale == Scale::Linear || *x > 0.0)
                        && (self.y.scale == Scale::Linear || *y > 0.0)
                })
                .count()
        };
        let mut out: Vec<String> = self
            .series
            .iter()
            .filter(|s| matches!(s.style, Style::Line | Style::Dashed | Style::DashedOver))
            .filter(|s| finite(s) < 2)
            .map(|s| {
                format!(
                    "line series `{}` has {} drawable point(s), fewer than two",
                    s.label,
                    finite(s)
                )
            })
            .collect();
        if self.series.iter().all(|s| finite(s) == 0) {
            out.push("no series has a drawable point".into());
        }
        out
    }
}

impl Figure {
    /// The sentence that replaces a figure that shows nothing (issue 20,
    /// class 6), or None: every series with a drawable point is constant in
    /// y ("torque = 0 N m", each series with its value), or three or more
    /// series draw the same points (six identical lift curves). Two
    /// coinciding series are kept: a method over its reference is the
    /// figure's point.
    pub fn shows_nothing(&self) -> Option<String> {
        let drawn: Vec<(&Series, Vec<(f64, f64)>)> = self
            .series
            .iter()
            .map(|s| {
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .copied()
                    .filter(|(x, y)| x.is_finite() && y.is_finite())
                    .collect();
                (s, pts)
            })
            .filter(|(_, pts)| pts.len() >= 2)
            .collect();
        if drawn.is_empty() {
            return None;
        }
        let unit = self
            .y
            .label
            .rsplit_once('[')
            .map(|(_, u)| u.trim_end_matches(']').trim().to_string())
            .filter(|u| !u.is_empty() && u != "-")
            .map(|u| format!(" {u}"))
            .unwrap_or_default();
        let constant = |pts: &[(f64, f64)]| {
            let (lo, hi) = pts
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.1), hi.max(p.1))
                });
            (hi - lo <= 1e-12 * hi.abs().max(lo.abs())).then_some(lo)
        };
        let values: Vec<Option<f64>> = drawn.iter().map(|(_, p)| constant(p)).collect();
        if values.iter().all(Option::is_some) {
            let list: Vec<String> = drawn
                .iter()
                .zip(&values)
                .map(|((s, _), v)| {
                    format!(
                        "{} = {}{unit}",
                        s.label,
                        crate::harness::format::sig(v.unwrap_or(0.0))
                    )
                })
                .collect();
            return Some(format!(
                "every series is constant over {}: {}",
                self.x.label,
                list.join(", ")
            ));
        }
        let first = &drawn[0].1;
        if drawn.len() >= 3 && drawn.iter().all(|(_, p)| p == first) {
            let labels: Vec<&str> = drawn.iter().map(|(s, _)| s.label.as_str()).collect();
            return Some(format!(
                "its {} series ({}) draw the same points",
                drawn.len(),
                labels.join(", ")
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20, class 6: constant series, and three identical ones, are
    /// replaced by a sentence; a method over its reference is not.
    #[test]
    fn a_figure_of_constants_or_of_identical_curves_shows_nothing() {
        let x = [0.0, 1.0, 2.0];
        let mut f = figure(vec![Series::new("torque", &x, &[0.0; 3], Style::Line)]);
        f.y = Axis::linear("torque [N m]");
        assert_eq!(
            f.shows_nothing().as_deref(),
            Some("every series is constant over x [s]: torque = 0 N m")
        );
        let lift = |l: &str| Series::new(l, &x, &[0.0, 1.0, 0.0], Style::Line);
        f.series = vec![lift("a"), lift("b")];
        assert_eq!(f.shows_nothing(), None, "a method over its reference");
        f.series.push(lift("c"));
        assert!(f.shows_nothing().unwrap().contains("3 series (a, b, c)"));
        f.series[2] = Series::new("c", &x, &[0.0, 1.0, 0.5], Style::Line);
        assert_eq!(f.shows_nothing(), None);
    }

    fn figure(series: Vec<Series>) -> Figure {
        Figure {
            name: "f".into(),
            title: "F".into(),
            x: Axis::linear("x [s]"),
            y: Axis::log("y [m]"),
            series,
            caption: String::new(),
        }
    }

    #[test]
    fn a_line_of_one_point_and_an_empty_figure_are_problems() {
        let ok = figure(vec![Series::new(
            "a",
            &[0.0, 1.0],
            &[1.0, 2.0],
            Style::Line,
        )]);
        assert!(ok.problems().is_empty());
        let one = figure(vec![
            Series::new("a", &[0.0, 1.0], &[1.0, 2.0], Style::Line),
            Series::new("b", &[0.0, 1.0], &[1.0, f64::NAN], Style::Dashed),
        ]);
        assert_eq!(one.problems().len(), 1, "{:?}", one.problems());
        // A single marker is fine; zero on a log axis is not drawable.
        let marker = figure(vec![Series::new("m", &[0.0], &[1.0], Style::Markers)]);
        assert!(marker.problems().is_empty());
        let empty = figure(vec![Series::new(
            "z",
            &[0.0, 1.0],
            &[0.0, -1.0],
            Style::Markers,
        )]);
        assert_eq!(
            empty.problems(),
            vec!["no series has a drawable point".to_string()]
        );
    }
}
