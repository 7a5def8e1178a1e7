//! The legend: placed in an empty corner of the plot when there is one,
//! above the data (added headroom) when it is small, else below the plot in
//! as many columns as fit the figure's width (the figure keeps its width,
//! so its text keeps its size on the page), so that it never hides data;
//! drawn by hand so that dashed and marker styles show as they are drawn
//! in the plot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::AxisRange;
use super::style::{HALO_WIDTH, LINE_WIDTH, MARKER_PX, PreparedSeries, draw_error, lighter};
use crate::harness::figure::Style;

const LEGEND_ROW: i32 = 18;
const LEGEND_PAD: i32 = 6;
const LEGEND_SAMPLE: i32 = 30;
/// Approximate advance of a 13 px DejaVu Sans character.
const LEGEND_CHAR_PX: f64 = 7.4;

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LegendPlace {
    /// Inside the plot, at the corner (right?, top?).
    Inside { right: bool, top: bool },
    /// Below the plot, in columns.
    Below,
}

/// Width of one legend column in pixels: sample, gap and the longest label.
fn column_width(series: &[PreparedSeries]) -> i32 {
    let chars = series
        .iter()
        .map(|s| legend_text(s).chars().count())
        .max()
        .unwrap_or(0);
    LEGEND_PAD * 3 + LEGEND_SAMPLE + (chars as f64 * LEGEND_CHAR_PX).ceil() as i32
}

/// How many columns of entries fit in `width` pixels (at least one, at
/// most one per entry).
pub(super) fn columns_below(series: &[PreparedSeries], width: u32) -> usize {
    let fit = (width as i32 / column_width(series).max(1)).max(1) as usize;
    fit.min(series.len().max(1))
}

/// Legend box size in pixels for the given labels in `columns` columns.
pub(super) fn legend_size(series: &[PreparedSeries], columns: usize) -> (i32, i32) {
    let columns = columns.max(1);
    let rows = series.len().div_ceil(columns) as i32;
    let w = column_width(series) * columns as i32;
    let h = LEGEND_PAD * 2 + LEGEND_ROW * rows;
    (w, h)
}

pub(super) fn legend_text<'a>(s: &PreparedSeries<'a>) -> std::borrow::Cow<'a, str> {
    if s.segments.is_empty() {
        format!("{} (no drawable data)", s.label).into()
    } else {
        s.label.clone()
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
pub(super) fn place_legend(
    series: &[PreparedSeries],
    x: &AxisRange,
    y: AxisRange,
    plot_px: (f64, f64),
) -> (LegendPlace, AxisRange) {
    let (w, h) = legend_size(series, 1);
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
    (LegendPlace::Below, y)
}

/// Draws marker `shape` centred at pixel `c` of `area`'s backend.
pub(super) fn draw_marker<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
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
pub(super) fn draw_legend(
    root: &DrawingArea<SVGBackend, Shift>,
    series: &[PreparedSeries],
    origin: (i32, i32),
    size: (i32, i32),
    columns: usize,
) -> Result<(), String> {
    let (x0, y0) = origin;
    let rows = series.len().div_ceil(columns.max(1)).max(1);
    let column_w = column_width(series);
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
        let (row, col) = ((i % rows) as i32, (i / rows) as i32);
        let yc = y0 + LEGEND_PAD + LEGEND_ROW * row + LEGEND_ROW / 2;
        let left = x0 + column_w * col;
        let (sx0, sx1) = (left + LEGEND_PAD, left + LEGEND_PAD + LEGEND_SAMPLE);
        let line = ShapeStyle::from(&s.color).stroke_width(LINE_WIDTH);
        match s.style {
            Style::Line | Style::LineMarkers => {
                root.draw(&PathElement::new(vec![(sx0, yc), (sx1, yc)], line))
                    .map_err(draw_error)?;
            }
            Style::Arrow => {
                root.draw(&PathElement::new(vec![(sx0, yc), (sx1, yc)], line))
                    .map_err(draw_error)?;
                root.draw(&PathElement::new(
                    vec![(sx1 - 7, yc - 4), (sx1, yc), (sx1 - 7, yc + 4)],
                    line,
                ))
                .map_err(draw_error)?;
            }
            Style::Dashed => {
                let halo = ShapeStyle::from(&lighter(s.color)).stroke_width(HALO_WIDTH);
                root.draw(&PathElement::new(vec![(sx0, yc), (sx1, yc)], halo))
                    .map_err(draw_error)?;
                for (a, b) in [(sx0, sx0 + 8), (sx0 + 13, sx1 - 9), (sx1 - 4, sx1)] {
                    root.draw(&PathElement::new(vec![(a, yc), (b, yc)], line))
                        .map_err(draw_error)?;
                }
            }
            Style::DashedOver => {
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

/// Padding between the plot frame and an inside legend.
pub(super) const INSET: i32 = LEGEND_PAD;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::figure::{Axis, Figure, Scale, Series};
    use crate::harness::plot::prepare;

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
                    group: None,
                    x_errors: None,
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
        // A zigzag filling the plot with 20 series goes below, in columns
        // within the figure's width.
        let zigzag: Vec<(f64, f64)> = (0..=40)
            .map(|i| (i as f64 / 40.0, (i % 2) as f64))
            .collect();
        let f = fig(zigzag, 20);
        let series = prepare(&f);
        let (place, _) = place_legend(&series, &x, y, (700.0, 400.0));
        assert_eq!(place, LegendPlace::Below);
        let columns = columns_below(&series, 796);
        assert!(columns > 1);
        assert!(legend_size(&series, columns).0 <= 796);
    }
}
