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
}

impl Axis {
    /// A linear axis.
    pub fn linear(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            scale: Scale::Linear,
        }
    }
    /// A logarithmic axis.
    pub fn log(label: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            scale: Scale::Log,
        }
    }
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Solid line.
    Line,
    /// Dashed line (used for references).
    Dashed,
    /// Markers only.
    Markers,
    /// Solid line with markers.
    LineMarkers,
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
