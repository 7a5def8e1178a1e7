//! SVG rendering of declarative [`Figure`]s with plotters' SVG backend.
//!
//! - Text uses the embedded DejaVu Sans, registered once as `sans-serif`, so
//!   rendering needs no system fonts.
//! - Colours follow the Okabe-Ito palette (Okabe & Ito, "Color Universal
//!   Design", 2008), distinguishable with the common colour-vision
//!   deficiencies; markers cycle through four shapes as well. Series of the
//!   same colour group ([`Series::group`](crate::harness::figure::Series))
//!   share colour and shape (a method solid, its reference dashed); every
//!   other series takes the next colour in order.
//! - Non-finite points, and non-positive ones on a log axis, are dropped; a
//!   dropped point breaks the line.
//! - Log axes ([`LogAxis`]) label powers of ten as 10^k, with 1-2-5 ticks
//!   when the axis spans fewer than three decades. A log axis whose data
//!   span less than [`MIN_LOG_SPAN`] (a decade) is drawn linear
//!   ([`effective_scales`]): over a fraction of a decade a log axis turns
//!   round-off into shapes and its ticks read alike.
//! - A segment of more than [`DECIMATE_PER_COLUMN`] points per pixel column
//!   of the plot is reduced per pixel column to its first, minimum, maximum
//!   and last point (monotone x: a min/max envelope, so no peak is lost
//!   however many points share a column), or to points at least a pixel
//!   apart (any x): the drawn curve is the same at the SVG's resolution
//!   while the file stays small.
//! - Layout and text ([`layout`]): the SVG is [`FIGURE_WIDTH`] px wide,
//!   every text at least [`MIN_TEXT_PX`] px, the title and axis
//!   descriptions wrapped to fit; error bars are clipped to the plot.
//! - Lines are SVG polylines with coordinates to 0.01 px (plotters' SVG
//!   backend rounds to whole pixels, which draws a smooth curve as a
//!   staircase); dashes are the polyline's `stroke-dasharray`. They are
//!   written after everything else, over the grid and legend: the
//!   references' light bands first, then the curves, then the references'
//!   dashes, which no curve hides, then the markers of measured points
//!   (`Style::Markers`), which no curve or band hides.
//! - The legend goes into an empty corner of the plot when there is one; with
//!   few entries, headroom is added above the data for it; otherwise it is
//!   drawn below the plot, in as many columns as fit. It never hides data.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;

use crate::error::OutputError;
use crate::harness::atomic;
use crate::harness::figure::{Figure, Scale, Style};

mod axes;
mod layout;
mod legend;
mod lines;
mod style;
mod ticks;

use axes::{AxisRange, equal_aspect};
pub use axes::{LinearAxis, LogAxis};
use layout::{Layout, MARGIN, TICK_SIZE, WIDTH};
pub use layout::{MIN_TEXT_PX, WIDTH as FIGURE_WIDTH};
use legend::{INSET, LegendPlace, draw_legend, draw_marker, legend_size, place_legend};
use lines::{SubPixel, decimate, unique_pixels};
pub use style::PALETTE;
use style::{HALO_WIDTH, LINE_WIDTH, MARKER_PX, PixelRect, PreparedSeries, draw_error, lighter};
pub use ticks::{linear_tick, log_tick};

/// Segments with more points than this many per pixel column of the plot
/// are reduced to their envelope per column (see the module doc).
pub const DECIMATE_PER_COLUMN: usize = 2;

/// At most this many markers are drawn on a line-with-markers series.
const MAX_LINE_MARKERS: usize = 60;

/// Registers the embedded font once; the error (if any) is remembered.
fn ensure_font() -> Result<(), String> {
    static FONT: OnceLock<Result<(), String>> = OnceLock::new();
    FONT.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| "the embedded DejaVu Sans font could not be loaded".to_string())
    })
    .clone()
}

/// Renders `figure` to an SVG file at `path` (atomic write).
pub fn render_svg(figure: &Figure, path: &Path) -> Result<(), OutputError> {
    let svg = render_svg_string(figure).map_err(|message| OutputError::Format {
        path: path.to_path_buf(),
        message,
    })?;
    atomic::write_file(path, svg.as_bytes())
}

/// The smallest ratio of the largest to the smallest drawable value for
/// which a log axis is drawn as one: a decade.
pub const MIN_LOG_SPAN: f64 = 10.0;

/// `figure` with each log axis whose drawable data span less than
/// [`MIN_LOG_SPAN`] turned linear (its label unchanged).
pub fn effective_scales(figure: &Figure) -> Figure {
    let span = |values: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = values
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        (hi >= lo).then(|| hi / lo)
    };
    let mut out = figure.clone();
    let points = || figure.series.iter().flat_map(|s| s.points.iter());
    if figure.x.scale == Scale::Log
        && span(&mut points().map(|p| p.0)).is_some_and(|r| r < MIN_LOG_SPAN)
    {
        out.x.scale = Scale::Linear;
    }
    if figure.y.scale == Scale::Log
        && span(&mut points().map(|p| p.1)).is_some_and(|r| r < MIN_LOG_SPAN)
    {
        out.y.scale = Scale::Linear;
    }
    out
}

/// Values beyond this magnitude are not drawn (like non-finite ones): no
/// quantity of these studies comes near it, and on axis ranges near the
/// largest doubles the plotting library's tick search does not end.
const MAX_PLOTTED: f64 = 1e150;

fn drawable(scale: Scale, v: f64) -> bool {
    v.is_finite() && v.abs() <= MAX_PLOTTED && (scale == Scale::Linear || v > 0.0)
}

/// The colour slot of each series: every series without a group takes the
/// next slot, every group the next slot at its first series (its later
/// series reuse it). Without groups, slot = series index.
fn colour_slots(figure: &Figure) -> Vec<usize> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut next = 0;
    figure
        .series
        .iter()
        .map(|s| {
            if let Some(g) = s.group
                && let Some(&(_, slot)) = groups.iter().find(|(k, _)| *k == g)
            {
                return slot;
            }
            let slot = next;
            next += 1;
            if let Some(g) = s.group {
                groups.push((g, slot));
            }
            slot
        })
        .collect()
}

/// Series that coincide with an earlier one (same abscissae, ordinates
/// within 1e-6 of the earlier series' largest magnitude) say so in their
/// legend label, since the one drawn last hides the other:
/// `label (= <earlier> to 3.2e-15)`.
fn agreement_labels(figure: &Figure) -> Vec<Option<String>> {
    let series = &figure.series;
    (0..series.len())
        .map(|j| {
            let b = &series[j];
            (0..j).find_map(|i| {
                let a = &series[i];
                if a.points.len() != b.points.len() || a.points.len() < 2 || a.label == b.label {
                    return None;
                }
                let mut scale = 0.0f64;
                let mut diff = 0.0f64;
                for (p, q) in a.points.iter().zip(&b.points) {
                    if p.0 != q.0 {
                        return None;
                    }
                    if p.1.is_finite() && q.1.is_finite() {
                        scale = scale.max(p.1.abs());
                        diff = diff.max((p.1 - q.1).abs());
                    } else if p.1.is_finite() != q.1.is_finite() {
                        return None;
                    }
                }
                (scale > 0.0 && diff <= 1e-6 * scale)
                    .then(|| format!("{} (= {} to {:.1e})", b.label, a.label, diff))
            })
        })
        .collect()
}

fn prepare(figure: &Figure) -> Vec<PreparedSeries<'_>> {
    let slots = colour_slots(figure);
    let agreements = agreement_labels(figure);
    figure
        .series
        .iter()
        .zip(slots)
        .zip(agreements)
        .map(|((s, i), agreement)| {
            let mut segments = Vec::new();
            let mut current = Vec::new();
            for &(x, y) in &s.points {
                if drawable(figure.x.scale, x) && drawable(figure.y.scale, y) {
                    current.push((x, y));
                } else if !current.is_empty() {
                    segments.push(std::mem::take(&mut current));
                }
            }
            if !current.is_empty() {
                segments.push(current);
            }
            let error_bars = s
                .x_errors
                .as_ref()
                .map(|errs| {
                    s.points
                        .iter()
                        .zip(errs)
                        .filter(|((x, y), e)| {
                            e.is_finite()
                                && **e > 0.0
                                && drawable(figure.x.scale, *x)
                                && drawable(figure.y.scale, *y)
                        })
                        .filter_map(|(&(x, y), &e)| {
                            // On a log axis the bar's left end must stay positive.
                            let lo = x - e;
                            (drawable(figure.x.scale, lo)).then_some((lo, x + e, y))
                        })
                        .collect()
                })
                .unwrap_or_default();
            PreparedSeries {
                error_bars,
                label: match agreement {
                    Some(l) => std::borrow::Cow::Owned(l),
                    None => std::borrow::Cow::Borrowed(s.label.as_str()),
                },
                style: s.style,
                color: PALETTE[i % PALETTE.len()],
                // Shapes shift by one per colour cycle: colour and shape
                // repeat together only after 32 slots. A group shares its
                // colour and its marker shape.
                shape: (i + i / PALETTE.len()) % 4,
                segments,
            }
        })
        .collect()
}

fn bounds(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Whether there are values and every one is an integer (of moderate size).
fn all_integers(mut values: impl Iterator<Item = f64>) -> bool {
    let mut any = false;
    let all = values.all(|v| {
        any = true;
        v.fract() == 0.0 && v.abs() < 1e15
    });
    any && all
}

/// Renders `figure` to an SVG document.
pub fn render_svg_string(figure: &Figure) -> Result<String, String> {
    render_svg_labelled(figure, &[])
}

/// Renders `figure` with the ticks of the x axis at integer x = i labelled
/// `x_labels[i]` (e.g. commit hashes; ticks at other values are left
/// blank). Without labels the ticks show their values.
pub fn render_svg_labelled(figure: &Figure, x_labels: &[String]) -> Result<String, String> {
    ensure_font()?;
    let figure = &effective_scales(figure);
    let series = prepare(figure);
    let (x, y) = data_ranges(figure, &series);
    let layout_for = |y: &AxisRange| {
        Layout::new(
            &figure.title,
            &figure.x.label,
            &figure.y.label,
            y_tick_chars(y),
        )
    };
    let plot_px = layout_for(&y).plot_px;
    let equal =
        figure.y.equal_aspect && figure.x.scale == Scale::Linear && figure.y.scale == Scale::Linear;
    let (x, y) = if equal {
        equal_aspect(x, y, plot_px)
    } else {
        (x, y)
    };
    let (place, y) = if series.is_empty() || equal {
        (LegendPlace::Below, y)
    } else {
        place_legend(&series, &x, y, plot_px)
    };
    let layout = layout_for(&y);
    let below = place == LegendPlace::Below && !series.is_empty();
    let columns = if below {
        legend::columns_below(&series, WIDTH - 2 * MARGIN)
    } else {
        1
    };
    let (legend_w, legend_h) = legend_size(&series, columns);
    let width = layout.chart.0.max(legend_w as u32 + 2 * MARGIN);
    let height = layout.chart.1 + if below { legend_h as u32 + MARGIN } else { 0 };

    let draw = |x: &AxisRange, y: &AxisRange| -> Result<(String, PixelRect), String> {
        let mut svg = String::new();
        let lines: Vec<String>;
        let rect: PixelRect;
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(draw_error)?;
            let (chart_area, _) = root.split_vertically(layout.chart.1);
            let (chart_area, _) = chart_area.split_horizontally(layout.chart.0);
            let axes = Axes {
                x,
                y,
                x_labels,
                layout: &layout,
            };
            let (plot_rect, overlays) = match (figure.x.scale, figure.y.scale) {
                (Scale::Linear, Scale::Linear) => {
                    draw_chart(&chart_area, &series, &axes, x.linear(), y.linear())
                }
                (Scale::Log, Scale::Linear) => {
                    draw_chart(&chart_area, &series, &axes, x.log(), y.linear())
                }
                (Scale::Linear, Scale::Log) => {
                    draw_chart(&chart_area, &series, &axes, x.linear(), y.log())
                }
                (Scale::Log, Scale::Log) => {
                    draw_chart(&chart_area, &series, &axes, x.log(), y.log())
                }
            }?;
            layout.draw_text(&root, &plot_rect)?;
            if !series.is_empty() {
                let origin = match place {
                    LegendPlace::Below => ((width as i32 - legend_w) / 2, layout.chart.1 as i32),
                    LegendPlace::Inside { right, top } => {
                        let (xr, yr) = &plot_rect;
                        let lx = if right {
                            xr.end - legend_w - INSET
                        } else {
                            xr.start + INSET
                        };
                        let ly = if top {
                            yr.start + INSET
                        } else {
                            yr.end - legend_h - INSET
                        };
                        (lx, ly)
                    }
                };
                draw_legend(&root, &series, origin, (legend_w, legend_h), columns)?;
            }
            root.present().map_err(draw_error)?;
            lines = overlays;
            rect = plot_rect;
        }
        // The curves go last, over the grid, markers and the legend (which
        // sits where there are no data).
        let close = svg
            .rfind("</svg>")
            .ok_or("the SVG backend wrote no closing tag")?;
        svg.insert_str(close, &lines.concat());
        Ok((svg, rect))
    };
    let (svg, rect) = draw(&x, &y)?;
    if !equal {
        return Ok(svg);
    }
    // The plot's true size is known once drawn: equalise on it and redraw.
    let true_px = (
        f64::from(rect.0.end - rect.0.start),
        f64::from(rect.1.end - rect.1.start),
    );
    let (x, y) = equal_aspect(x, y, true_px);
    Ok(draw(&x, &y)?.0)
}

/// The axes' ranges from the drawable data (x padded when there are
/// markers, y by 5 %).
fn data_ranges(figure: &Figure, series: &[PreparedSeries]) -> (AxisRange, AxisRange) {
    let points = || series.iter().flat_map(|s| s.segments.iter().flatten());
    let xs = points().map(|p| AxisRange::transform(figure.x.scale, p.0));
    let ys = points().map(|p| AxisRange::transform(figure.y.scale, p.1));
    let has_markers = series
        .iter()
        .any(|s| matches!(s.style, Style::Markers | Style::LineMarkers));
    let mut x = AxisRange::new(
        figure.x.scale,
        bounds(xs),
        if has_markers { 0.02 } else { 0.0 },
    );
    x.integers = figure.x.scale == Scale::Linear && all_integers(points().map(|p| p.0));
    (x, AxisRange::new(figure.y.scale, bounds(ys), 0.05))
}

/// The most characters of a y tick label (the ticks plotters draws: up to
/// 10 labelled points).
fn y_tick_chars(y: &AxisRange) -> usize {
    let span = y.hi - y.lo;
    let labels: Vec<String> = match y.scale {
        Scale::Linear => y
            .linear()
            .key_points(10usize)
            .iter()
            .map(|v| linear_tick(*v, span))
            .collect(),
        Scale::Log => {
            let axis = y.log();
            axis.key_points(10usize)
                .iter()
                .map(|v| log_tick(*v, axis.powers_only()))
                .collect()
        }
    };
    labels.iter().map(|l| l.chars().count()).max().unwrap_or(1)
}

/// The axes' ranges, the x tick labels and the layout of a chart.
struct Axes<'a> {
    x: &'a AxisRange,
    y: &'a AxisRange,
    x_labels: &'a [String],
    layout: &'a Layout,
}

/// Draws title, mesh, markers and error bars; returns the plot's pixel
/// rectangle and the lines as SVG polylines (sub-pixel coordinates).
fn draw_chart<XC, YC>(
    area: &DrawingArea<SVGBackend, Shift>,
    series: &[PreparedSeries],
    axes: &Axes,
    x_coord: XC,
    y_coord: YC,
) -> Result<(PixelRect, Vec<String>), String>
where
    XC: Ranged<ValueType = f64> + ValueFormatter<f64>,
    YC: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut chart = axes
        .layout
        .builder(area)
        .build_cartesian_2d(x_coord, y_coord)
        .map_err(draw_error)?;
    let (x, y) = (axes.x, axes.y);
    let x_span = x.hi - x.lo;
    let y_span = y.hi - y.lo;
    let x_fmt = |v: &f64| {
        if !axes.x_labels.is_empty() {
            let i = v.round();
            return if (v - i).abs() < 1e-9 && i >= 0.0 {
                axes.x_labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            };
        }
        match x.scale {
            Scale::Linear => linear_tick(*v, x_span),
            Scale::Log => log_tick(*v, x.log().powers_only()),
        }
    };
    let y_fmt = |v: &f64| match y.scale {
        Scale::Linear => linear_tick(*v, y_span),
        Scale::Log => log_tick(*v, y.log().powers_only()),
    };
    chart
        .configure_mesh()
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(("sans-serif", TICK_SIZE))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .bold_line_style(RGBColor(0xCC, 0xCC, 0xCC))
        .draw()
        .map_err(draw_error)?;

    // Lines are written as SVG polylines with sub-pixel coordinates
    // (`overlays`), not by plotters, whose backend rounds every point to a
    // whole pixel. A reference (dashed) has its light band under every
    // curve and its dashes over them (issue 20, class 3): a method drawn on
    // its reference leaves it visible.
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let columns = (xr.end - xr.start).max(1) as usize;
    let px = SubPixel::new(x, y, (xr, yr));
    let mut overlays = Overlays::default();
    // Error bars end at the plot's edges (class 7 of issue 20).
    let (x_min, x_max) = match x.scale {
        Scale::Linear => (x.lo, x.hi),
        Scale::Log => (10f64.powf(x.lo), 10f64.powf(x.hi)),
    };
    for s in series {
        let color = s.color;
        for &(lo, hi, y) in &s.error_bars {
            let (lo, hi) = (lo.max(x_min), hi.min(x_max));
            if lo >= hi {
                continue;
            }
            chart
                .draw_series(LineSeries::new(
                    [(lo, y), (hi, y)],
                    ShapeStyle::from(&color).stroke_width(1),
                ))
                .map_err(draw_error)?;
        }
        for seg in &s.segments {
            let pixels: Vec<(i32, i32)> = seg.iter().map(|p| chart.backend_coord(p)).collect();
            let points = if seg.len() > DECIMATE_PER_COLUMN * columns {
                decimate(seg, &pixels)
            } else {
                seg.clone()
            };
            // A one-point segment of a line draws no polyline (its marker,
            // if any, is drawn below).
            if points.len() >= 2 {
                overlays.add(&px, s, &points);
            }
            if s.style == Style::Arrow && pixels.len() >= 2 {
                let (tail, head) = (pixels[pixels.len() - 2], pixels[pixels.len() - 1]);
                draw_arrowhead(chart.plotting_area(), color, tail, head)?;
            }
            match s.style {
                // Measured points go over every curve and reference band.
                Style::Markers => {
                    for p in unique_pixels(seg, &pixels) {
                        overlays
                            .markers
                            .push(px.marker(p, s.shape, color, f64::from(MARKER_PX)));
                    }
                }
                Style::LineMarkers => {
                    let step = seg.len().div_ceil(MAX_LINE_MARKERS).max(1);
                    for p in seg.iter().step_by(step) {
                        let c = chart.backend_coord(p);
                        draw_marker(chart.plotting_area(), s.shape, color, c, true)?;
                    }
                }
                Style::Line | Style::Dashed | Style::DashedOver | Style::Arrow => {}
            }
        }
    }
    Ok((chart.plotting_area().get_pixel_range(), overlays.in_order()))
}

/// The curves' polylines in three layers: the references' light bands,
/// the solid curves and `DashedOver` in series order, the references'
/// dashes; then the markers of `Markers` series (measured points), which
/// no curve or band hides.
#[derive(Default)]
struct Overlays {
    bands: Vec<String>,
    curves: Vec<String>,
    dashes: Vec<String>,
    markers: Vec<String>,
}

impl Overlays {
    /// The polylines of a run of at least two points of series `s`.
    fn add(&mut self, px: &SubPixel, s: &PreparedSeries, points: &[(f64, f64)]) {
        let color = s.color;
        match s.style {
            Style::Line | Style::LineMarkers | Style::Arrow => {
                self.curves
                    .push(px.polyline(points, color, LINE_WIDTH, None));
            }
            Style::Dashed => {
                self.bands
                    .push(px.polyline(points, lighter(color), HALO_WIDTH, None));
                self.dashes
                    .push(px.polyline(points, color, LINE_WIDTH, Some(DASH)));
            }
            Style::DashedOver => {
                self.curves
                    .push(px.polyline(points, color, LINE_WIDTH, Some(DASH)));
            }
            Style::Markers => {}
        }
    }

    fn in_order(self) -> Vec<String> {
        let mut out = self.bands;
        out.extend(self.curves);
        out.extend(self.dashes);
        out.extend(self.markers);
        out
    }
}

/// An arrowhead at pixel `head` pointing away from pixel `tail`: two
/// strokes of [`ARROWHEAD_PX`] at +-25 degrees.
fn draw_arrowhead<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    color: RGBColor,
    tail: (i32, i32),
    head: (i32, i32),
) -> Result<(), String> {
    let (dx, dy) = (f64::from(head.0 - tail.0), f64::from(head.1 - tail.1));
    let len = dx.hypot(dy);
    if len == 0.0 {
        return Ok(());
    }
    let base = area.strip_coord_spec();
    let (x0, y0) = base.get_base_pixel();
    let h = (head.0 - x0, head.1 - y0);
    let (ux, uy) = (dx / len, dy / len);
    let angle = 25f64.to_radians();
    let wing = |sign: f64| {
        let (c, s) = (angle.cos(), sign * angle.sin());
        let (rx, ry) = (ux * c - uy * s, ux * s + uy * c);
        (
            h.0 - (ARROWHEAD_PX * rx).round() as i32,
            h.1 - (ARROWHEAD_PX * ry).round() as i32,
        )
    };
    let style = ShapeStyle::from(&color).stroke_width(LINE_WIDTH);
    base.draw(&PathElement::new(vec![wing(1.0), h, wing(-1.0)], style))
        .map_err(draw_error)
}

/// Length of an arrowhead's strokes [px].
const ARROWHEAD_PX: f64 = 10.0;

/// Dash and gap lengths of a dashed line [px] (SVG `stroke-dasharray`).
const DASH: (u32, u32) = (8, 5);

#[cfg(test)]
mod tests;
