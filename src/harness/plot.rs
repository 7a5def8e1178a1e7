//! SVG rendering of declarative [`Figure`]s with plotters' SVG backend.
//!
//! - Text uses the embedded DejaVu Sans, registered once as `sans-serif`, so
//!   rendering needs no system fonts.
//! - Colours follow the Okabe-Ito palette (Okabe & Ito, "Color Universal
//!   Design", 2008), distinguishable with the common colour-vision
//!   deficiencies; markers cycle through four shapes as well.
//! - Non-finite points, and non-positive ones on a log axis, are dropped; a
//!   dropped point breaks the line.
//! - Log axes span whole decades and label powers of ten as 10^k.
//! - A segment longer than [`DECIMATE_ABOVE`] points is reduced per pixel
//!   column to its first, minimum, maximum and last point (monotone x), or to
//!   points at least a pixel apart (any x): the drawn curve is the same at
//!   the SVG's resolution while the file stays small.
//! - The legend goes into an empty corner of the plot when there is one; with
//!   few entries, headroom is added above the data for it; otherwise it is
//!   drawn outside, to the right of the plot. It never hides data.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::OutputError;
use crate::harness::atomic;
use crate::harness::figure::{Figure, Scale, Style};

/// Segments with more points than this are decimated.
pub const DECIMATE_ABOVE: usize = 4000;

/// Okabe-Ito colours, ordered for contrast on white (yellow last).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

const WIDTH: u32 = 820;
const HEIGHT: u32 = 500;
const MARGIN: u32 = 12;
const CAPTION_PX: u32 = 36;
const X_LABEL_AREA: u32 = 48;
const Y_LABEL_AREA: u32 = 78;
const LEGEND_ROW: i32 = 18;
const LEGEND_PAD: i32 = 6;
const LEGEND_SAMPLE: i32 = 30;
/// Approximate advance of a 13 px DejaVu Sans character.
const LEGEND_CHAR_PX: f64 = 7.4;
const LINE_WIDTH: u32 = 2;
const MARKER_PX: i32 = 3;
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

/// One axis after the data are known: scale and range in axis units.
#[derive(Debug, Clone, Copy, PartialEq)]
struct AxisRange {
    scale: Scale,
    /// Range in transformed units (log10 of the value on a log axis).
    lo: f64,
    hi: f64,
}

impl AxisRange {
    fn transform(scale: Scale, v: f64) -> f64 {
        match scale {
            Scale::Linear => v,
            Scale::Log => v.log10(),
        }
    }

    /// From transformed data bounds (None: no data).
    fn new(scale: Scale, bounds: Option<(f64, f64)>, pad_fraction: f64) -> Self {
        let (mut lo, mut hi) = bounds.unwrap_or((0.0, 1.0));
        match scale {
            Scale::Linear => {
                if hi - lo <= f64::EPSILON * lo.abs().max(hi.abs()).max(f64::MIN_POSITIVE) {
                    let half = (0.1 * lo.abs()).max(0.5);
                    (lo, hi) = (lo - half, hi + half);
                } else {
                    let pad = pad_fraction * (hi - lo);
                    (lo, hi) = (lo - pad, hi + pad);
                }
            }
            Scale::Log => (lo, hi) = Self::snap_decades(lo, hi),
        }
        Self { scale, lo, hi }
    }

    /// Whole decades covering [lo, hi] (at least one).
    fn snap_decades(lo: f64, hi: f64) -> (f64, f64) {
        let lo = (lo + 1e-9).floor();
        let mut hi = (hi - 1e-9).ceil();
        if hi <= lo {
            hi = lo + 1.0;
        }
        (lo, hi)
    }

    /// Extends the top so that the top `fraction` of the axis is free.
    fn with_headroom(self, fraction: f64) -> Self {
        let span = self.hi - self.lo;
        let hi = self.hi + fraction * span / (1.0 - fraction);
        match self.scale {
            Scale::Linear => Self { hi, ..self },
            Scale::Log => {
                let (lo, hi) = Self::snap_decades(self.lo, hi);
                Self { lo, hi, ..self }
            }
        }
    }

    /// Position of a transformed value in [0, 1].
    fn unit(&self, t: f64) -> f64 {
        (t - self.lo) / (self.hi - self.lo)
    }

    /// The range in data units.
    fn data_range(&self) -> std::ops::Range<f64> {
        match self.scale {
            Scale::Linear => self.lo..self.hi,
            Scale::Log => 10f64.powf(self.lo)..10f64.powf(self.hi),
        }
    }
}

/// The drawable pieces of one series.
struct PreparedSeries<'a> {
    label: &'a str,
    style: Style,
    color: RGBColor,
    shape: usize,
    /// Runs of drawable points, in data units.
    segments: Vec<Vec<(f64, f64)>>,
}

fn drawable(scale: Scale, v: f64) -> bool {
    v.is_finite() && (scale == Scale::Linear || v > 0.0)
}

fn prepare(figure: &Figure) -> Vec<PreparedSeries<'_>> {
    figure
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
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
            PreparedSeries {
                label: &s.label,
                style: s.style,
                color: PALETTE[i % PALETTE.len()],
                shape: i % 4,
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

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LegendPlace {
    /// Inside the plot, at the corner (right?, top?).
    Inside { right: bool, top: bool },
    /// In a column right of the plot.
    Outside,
}

/// Legend box size in pixels for the given labels.
fn legend_size(series: &[PreparedSeries]) -> (i32, i32) {
    let chars = series
        .iter()
        .map(|s| legend_text(s).chars().count())
        .max()
        .unwrap_or(0);
    let w = LEGEND_PAD * 3 + LEGEND_SAMPLE + (chars as f64 * LEGEND_CHAR_PX).ceil() as i32;
    let h = LEGEND_PAD * 2 + LEGEND_ROW * series.len() as i32;
    (w, h)
}

fn legend_text<'a>(s: &PreparedSeries<'a>) -> std::borrow::Cow<'a, str> {
    if s.segments.is_empty() {
        format!("{} (no drawable data)", s.label).into()
    } else {
        s.label.into()
    }
}

/// Points (in unit coordinates of the plot, y up) that a legend must not
/// cover: every point, plus samples along long line pieces.
fn occupied_units(series: &[PreparedSeries], x: &AxisRange, y: &AxisRange) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for s in series {
        let lines = s.style != Style::Markers;
        for seg in &s.segments {
            let mut prev: Option<(f64, f64)> = None;
            for &(px, py) in seg {
                let u = (
                    x.unit(AxisRange::transform(x.scale, px)),
                    y.unit(AxisRange::transform(y.scale, py)),
                );
                if let (true, Some(p)) = (lines, prev) {
                    let steps = ((u.0 - p.0).abs().max((u.1 - p.1).abs()) * 50.0)
                        .ceil()
                        .min(200.0) as usize;
                    for k in 1..steps {
                        let t = k as f64 / steps as f64;
                        out.push((p.0 + t * (u.0 - p.0), p.1 + t * (u.1 - p.1)));
                    }
                }
                out.push(u);
                prev = Some(u);
            }
        }
    }
    out
}

/// Chooses the legend place and, for headroom, the new y range.
fn place_legend(
    series: &[PreparedSeries],
    x: &AxisRange,
    y: AxisRange,
    plot_px: (f64, f64),
) -> (LegendPlace, AxisRange) {
    let (w, h) = legend_size(series);
    let (fw, fh) = (
        (w + 2 * LEGEND_PAD) as f64 / plot_px.0,
        (h + 2 * LEGEND_PAD) as f64 / plot_px.1,
    );
    let points = occupied_units(series, x, &y);
    let free = |right: bool, top: bool| {
        !points.iter().any(|&(u, v)| {
            let in_x = if right { u >= 1.0 - fw } else { u <= fw };
            let in_y = if top { v >= 1.0 - fh } else { v <= fh };
            in_x && in_y
        })
    };
    if fw < 0.6 && fh < 0.9 {
        for (right, top) in [(true, true), (false, true), (true, false), (false, false)] {
            if free(right, top) {
                return (LegendPlace::Inside { right, top }, y);
            }
        }
    }
    if fw < 0.6 && fh <= 0.25 {
        return (
            LegendPlace::Inside {
                right: true,
                top: true,
            },
            y.with_headroom(fh),
        );
    }
    (LegendPlace::Outside, y)
}

/// Tick label for a log axis: 10^k with superscripts at powers of ten.
pub fn log_tick(v: f64) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return String::new();
    }
    let e = v.log10().round();
    if (v / 10f64.powf(e) - 1.0).abs() < 1e-9 {
        return format!("10{}", superscript(e as i64));
    }
    let e = v.log10().floor() as i64;
    if (-3..=4).contains(&e) {
        trim_number(&format!("{v:.*}", (2 - e).max(0) as usize))
    } else {
        let mantissa = v / 10f64.powi(e as i32);
        format!(
            "{}×10{}",
            trim_number(&format!("{mantissa:.2}")),
            superscript(e)
        )
    }
}

fn superscript(e: i64) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

/// Removes trailing zeros of a decimal fraction (`1.500` -> `1.5`, `2.0` -> `2`).
fn trim_number(s: &str) -> String {
    if let Some((mantissa, exp)) = s.split_once('e') {
        return format!("{}e{exp}", trim_number(mantissa));
    }
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Tick label for a linear axis whose range spans `span`: values that are
/// zero up to rounding print as 0; at most 6 significant digits.
pub fn linear_tick(v: f64, span: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v == 0.0 || v.abs() < 1e-9 * span.abs() {
        return "0".to_string();
    }
    let e = v.abs().log10().floor() as i64;
    if (-4..6).contains(&e) {
        let decimals = (5 - e).clamp(0, 12) as usize;
        trim_number(&format!("{v:.decimals$}"))
    } else {
        trim_number(&format!("{v:.5e}"))
    }
}

fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    format!("drawing failed: {e}")
}

/// Renders `figure` to an SVG document.
pub fn render_svg_string(figure: &Figure) -> Result<String, String> {
    ensure_font()?;
    let series = prepare(figure);
    let xs = series.iter().flat_map(|s| {
        s.segments
            .iter()
            .flatten()
            .map(|p| AxisRange::transform(figure.x.scale, p.0))
    });
    let ys = series.iter().flat_map(|s| {
        s.segments
            .iter()
            .flatten()
            .map(|p| AxisRange::transform(figure.y.scale, p.1))
    });
    let has_markers = series
        .iter()
        .any(|s| matches!(s.style, Style::Markers | Style::LineMarkers));
    let x = AxisRange::new(
        figure.x.scale,
        bounds(xs),
        if has_markers { 0.02 } else { 0.0 },
    );
    let y = AxisRange::new(figure.y.scale, bounds(ys), 0.05);
    let plot_px = (
        f64::from(WIDTH - 2 * MARGIN - Y_LABEL_AREA),
        f64::from(HEIGHT - 2 * MARGIN - CAPTION_PX - X_LABEL_AREA),
    );
    let (place, y) = if series.is_empty() {
        (LegendPlace::Outside, y)
    } else {
        place_legend(&series, &x, y, plot_px)
    };
    let (legend_w, legend_h) = legend_size(&series);
    let outside_w = if place == LegendPlace::Outside && !series.is_empty() {
        legend_w as u32 + 2 * MARGIN
    } else {
        0
    };
    let width = WIDTH + outside_w;
    let height = HEIGHT.max(legend_h as u32 + 2 * MARGIN + CAPTION_PX);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let (chart_area, legend_area) = root.split_horizontally(width - outside_w);
        let x_coord: RangedCoordf64 = x.data_range().into();
        let y_coord: RangedCoordf64 = y.data_range().into();
        let plot_rect = match (figure.x.scale, figure.y.scale) {
            (Scale::Linear, Scale::Linear) => {
                draw_chart(&chart_area, figure, &series, &x, &y, x_coord, y_coord)
            }
            (Scale::Log, Scale::Linear) => {
                draw_chart(&chart_area, figure, &series, &x, &y, log_coord(&x), y_coord)
            }
            (Scale::Linear, Scale::Log) => {
                draw_chart(&chart_area, figure, &series, &x, &y, x_coord, log_coord(&y))
            }
            (Scale::Log, Scale::Log) => draw_chart(
                &chart_area,
                figure,
                &series,
                &x,
                &y,
                log_coord(&x),
                log_coord(&y),
            ),
        }?;
        if !series.is_empty() {
            let origin = match place {
                LegendPlace::Outside => {
                    let (xr, _) = legend_area.get_pixel_range();
                    (xr.start + MARGIN as i32 / 2, plot_rect.1.start)
                }
                LegendPlace::Inside { right, top } => {
                    let (xr, yr) = &plot_rect;
                    let lx = if right {
                        xr.end - legend_w - LEGEND_PAD
                    } else {
                        xr.start + LEGEND_PAD
                    };
                    let ly = if top {
                        yr.start + LEGEND_PAD
                    } else {
                        yr.end - legend_h - LEGEND_PAD
                    };
                    (lx, ly)
                }
            };
            draw_legend(&root, &series, origin, (legend_w, legend_h))?;
        }
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn log_coord(axis: &AxisRange) -> plotters::coord::combinators::LogCoord<f64> {
    axis.data_range().log_scale().into()
}

type PixelRect = (std::ops::Range<i32>, std::ops::Range<i32>);

/// Draws title, mesh and series; returns the plot's pixel rectangle.
fn draw_chart<XC, YC>(
    area: &DrawingArea<SVGBackend, Shift>,
    figure: &Figure,
    series: &[PreparedSeries],
    x: &AxisRange,
    y: &AxisRange,
    x_coord: XC,
    y_coord: YC,
) -> Result<PixelRect, String>
where
    XC: Ranged<ValueType = f64> + ValueFormatter<f64>,
    YC: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(&figure.title, ("sans-serif", 18))
        .margin(MARGIN)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d(x_coord, y_coord)
        .map_err(draw_error)?;
    let x_span = x.hi - x.lo;
    let y_span = y.hi - y.lo;
    let x_fmt = |v: &f64| match x.scale {
        Scale::Linear => linear_tick(*v, x_span),
        Scale::Log => log_tick(*v),
    };
    let y_fmt = |v: &f64| match y.scale {
        Scale::Linear => linear_tick(*v, y_span),
        Scale::Log => log_tick(*v),
    };
    chart
        .configure_mesh()
        .x_desc(figure.x.label.as_str())
        .y_desc(figure.y.label.as_str())
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .axis_desc_style(("sans-serif", 15))
        .label_style(("sans-serif", 12))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .bold_line_style(RGBColor(0xCC, 0xCC, 0xCC))
        .draw()
        .map_err(draw_error)?;

    for s in series {
        let color = s.color;
        let line_style = ShapeStyle::from(&color).stroke_width(LINE_WIDTH);
        for seg in &s.segments {
            let pixels: Vec<(i32, i32)> = seg.iter().map(|p| chart.backend_coord(p)).collect();
            let points = if seg.len() > DECIMATE_ABOVE {
                decimate(seg, &pixels)
            } else {
                seg.clone()
            };
            match s.style {
                Style::Line | Style::LineMarkers => {
                    chart
                        .draw_series(LineSeries::new(points.iter().copied(), line_style))
                        .map_err(draw_error)?;
                }
                Style::Dashed => {
                    chart
                        .draw_series(DashedLineSeries::new(
                            points.iter().copied(),
                            8,
                            5,
                            line_style,
                        ))
                        .map_err(draw_error)?;
                }
                Style::Markers => {}
            }
            let marker_points: Vec<(f64, f64)> = match s.style {
                Style::Markers => unique_pixels(seg, &pixels),
                Style::LineMarkers => {
                    let step = seg.len().div_ceil(MAX_LINE_MARKERS).max(1);
                    seg.iter().copied().step_by(step).collect()
                }
                Style::Line | Style::Dashed => Vec::new(),
            };
            for p in marker_points {
                let c = chart.backend_coord(&p);
                draw_marker(chart.plotting_area(), s.shape, color, c, true)?;
            }
        }
    }
    Ok(chart.plotting_area().get_pixel_range())
}

/// Reduces a long segment while keeping its drawn shape (see module doc).
fn decimate(seg: &[(f64, f64)], pixels: &[(i32, i32)]) -> Vec<(f64, f64)> {
    let monotone = seg.windows(2).all(|w| w[1].0 >= w[0].0);
    let mut out = Vec::new();
    if monotone {
        let mut start = 0;
        while start < seg.len() {
            let column = pixels[start].0;
            let mut end = start;
            while end < seg.len() && pixels[end].0 == column {
                end += 1;
            }
            // Screen y grows downwards: the data minimum has the largest pixel y.
            let (mut lo, mut hi) = (start, start);
            for i in start..end {
                if seg[i].1 < seg[lo].1 {
                    lo = i;
                }
                if seg[i].1 > seg[hi].1 {
                    hi = i;
                }
            }
            let mut keep = vec![start, lo, hi, end - 1];
            keep.sort_unstable();
            keep.dedup();
            out.extend(keep.into_iter().map(|i| seg[i]));
            start = end;
        }
    } else {
        let mut last: Option<(i32, i32)> = None;
        for (i, (&p, &px)) in seg.iter().zip(pixels).enumerate() {
            let far = last.is_none_or(|l| (l.0 - px.0).abs().max((l.1 - px.1).abs()) >= 1);
            if far || i + 1 == seg.len() {
                out.push(p);
                last = Some(px);
            }
        }
    }
    out
}

/// One point per distinct pixel (markers drawn on top of each other add
/// nothing to the picture).
fn unique_pixels(seg: &[(f64, f64)], pixels: &[(i32, i32)]) -> Vec<(f64, f64)> {
    let mut seen = HashSet::new();
    seg.iter()
        .zip(pixels)
        .filter(|(_, px)| seen.insert(**px))
        .map(|(p, _)| *p)
        .collect()
}

/// Draws marker `shape` centred at pixel `c` of `area`'s backend.
fn draw_marker<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    shape: usize,
    color: RGBColor,
    c: (i32, i32),
    filled: bool,
) -> Result<(), String> {
    let base = area.strip_coord_spec();
    let (x0, y0) = base.get_base_pixel();
    let c = (c.0 - x0, c.1 - y0);
    let style = if filled {
        color.filled()
    } else {
        color.stroke_width(1)
    };
    let r = MARKER_PX;
    let result = match shape {
        0 => base.draw(&Circle::new(c, r, style)),
        1 => base.draw(&TriangleMarker::new(c, r + 1, style)),
        2 => base.draw(&Rectangle::new(
            [(c.0 - r, c.1 - r), (c.0 + r, c.1 + r)],
            style,
        )),
        _ => base.draw(&Cross::new(c, r + 1, color.stroke_width(2))),
    };
    result.map_err(draw_error)
}

/// Draws the legend box with its top-left corner at `origin` (root pixels).
fn draw_legend(
    root: &DrawingArea<SVGBackend, Shift>,
    series: &[PreparedSeries],
    origin: (i32, i32),
    size: (i32, i32),
) -> Result<(), String> {
    let (x0, y0) = origin;
    let frame = [(x0, y0), (x0 + size.0, y0 + size.1)];
    root.draw(&Rectangle::new(frame, WHITE.mix(0.9).filled()))
        .map_err(draw_error)?;
    root.draw(&Rectangle::new(
        frame,
        RGBColor(0x99, 0x99, 0x99).stroke_width(1),
    ))
    .map_err(draw_error)?;
    let text_style = ("sans-serif", 13)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, s) in series.iter().enumerate() {
        let yc = y0 + LEGEND_PAD + LEGEND_ROW * i as i32 + LEGEND_ROW / 2;
        let (sx0, sx1) = (x0 + LEGEND_PAD, x0 + LEGEND_PAD + LEGEND_SAMPLE);
        let line = ShapeStyle::from(&s.color).stroke_width(LINE_WIDTH);
        match s.style {
            Style::Line | Style::LineMarkers => {
                root.draw(&PathElement::new(vec![(sx0, yc), (sx1, yc)], line))
                    .map_err(draw_error)?;
            }
            Style::Dashed => {
                for (a, b) in [(sx0, sx0 + 8), (sx0 + 13, sx1 - 9), (sx1 - 4, sx1)] {
                    root.draw(&PathElement::new(vec![(a, yc), (b, yc)], line))
                        .map_err(draw_error)?;
                }
            }
            Style::Markers => {}
        }
        if matches!(s.style, Style::Markers | Style::LineMarkers) {
            draw_marker(root, s.shape, s.color, ((sx0 + sx1) / 2, yc), true)?;
        }
        root.draw(&Text::new(
            legend_text(s).into_owned(),
            (sx1 + LEGEND_PAD, yc),
            text_style.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::figure::{Axis, Series};

    #[test]
    fn log_ticks_print_powers_of_ten_with_superscripts() {
        assert_eq!(log_tick(1e-3), "10⁻³");
        assert_eq!(log_tick(1.0), "10⁰");
        assert_eq!(log_tick(1e12), "10¹²");
        assert_eq!(log_tick(0.02), "0.02");
        assert_eq!(log_tick(3e-6), "3×10⁻⁶");
    }

    #[test]
    fn linear_ticks_hide_rounding_noise() {
        assert_eq!(linear_tick(0.30000000000000004, 1.0), "0.3");
        assert_eq!(linear_tick(1e-17, 1.0), "0");
        assert_eq!(linear_tick(2.5e-7, 1e-6), "2.5e-7");
        assert_eq!(linear_tick(100.0, 500.0), "100");
    }

    #[test]
    fn log_ranges_cover_whole_decades() {
        let r = AxisRange::new(Scale::Log, Some((2f64.log10(), 5f64.log10())), 0.0);
        assert_eq!((r.lo, r.hi), (0.0, 1.0));
        let r = AxisRange::new(Scale::Log, Some((-3.0, -1.0)), 0.0);
        assert_eq!((r.lo, r.hi), (-3.0, -1.0));
    }

    #[test]
    fn decimation_keeps_extremes_of_a_long_monotone_series() {
        let n = 100_000;
        let seg: Vec<(f64, f64)> = (0..n)
            .map(|i| (i as f64, (i as f64 * 0.01).sin()))
            .collect();
        let pixels: Vec<(i32, i32)> = seg
            .iter()
            .map(|p| ((p.0 / n as f64 * 700.0) as i32, 0))
            .collect();
        let out = decimate(&seg, &pixels);
        assert!(out.len() <= 4 * 701, "{}", out.len());
        let max = out.iter().map(|p| p.1).fold(f64::MIN, f64::max);
        let min = out.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        assert!(max > 0.99999 && min < -0.99999);
        assert_eq!(out.first(), seg.first());
        assert_eq!(out.last(), seg.last());
    }

    #[test]
    fn a_legend_goes_to_a_free_corner_or_outside() {
        let fig = |points: Vec<(f64, f64)>, n: usize| Figure {
            name: "f".into(),
            title: "t".into(),
            x: Axis::linear("x [m]"),
            y: Axis::linear("y [m]"),
            series: (0..n)
                .map(|i| Series {
                    label: format!("s{i}"),
                    points: points.clone(),
                    style: Style::Line,
                })
                .collect(),
            caption: String::new(),
        };
        // A rising line leaves the upper-left corner free.
        let f = fig(vec![(0.0, 0.0), (1.0, 1.0)], 1);
        let series = prepare(&f);
        let x = AxisRange::new(Scale::Linear, Some((0.0, 1.0)), 0.0);
        let y = AxisRange::new(Scale::Linear, Some((0.0, 1.0)), 0.05);
        let (place, _) = place_legend(&series, &x, y, (700.0, 400.0));
        assert_eq!(
            place,
            LegendPlace::Inside {
                right: false,
                top: true
            }
        );
        // A zigzag filling the plot with 20 series goes outside.
        let zigzag: Vec<(f64, f64)> = (0..=40)
            .map(|i| (i as f64 / 40.0, (i % 2) as f64))
            .collect();
        let f = fig(zigzag, 20);
        let series = prepare(&f);
        let (place, _) = place_legend(&series, &x, y, (700.0, 400.0));
        assert_eq!(place, LegendPlace::Outside);
    }
}
