//! The curves as SVG polylines with sub-pixel coordinates, and the
//! reduction of long segments to what a pixel grid can show: per pixel
//! column the first, lowest, highest and last point (monotone x: a min/max
//! envelope, so no peak is lost), or points at least a pixel apart (any x).

use std::collections::HashSet;

use plotters::prelude::RGBColor;

use super::axes::AxisRange;
use super::style::PixelRect;

/// The map from data to SVG pixel coordinates without rounding: the same
/// affine map as plotters' (the plot area from its first to its last
/// pixel, y downwards), kept in floating point.
pub(super) struct SubPixel {
    x: AxisRange,
    y: AxisRange,
    /// (left, right) and (bottom, top) pixel of the plot area.
    px_x: (f64, f64),
    px_y: (f64, f64),
}

impl SubPixel {
    pub(super) fn new(x: &AxisRange, y: &AxisRange, rect: PixelRect) -> Self {
        let (xr, yr) = rect;
        Self {
            x: *x,
            y: *y,
            px_x: (f64::from(xr.start), f64::from(xr.end - 1)),
            px_y: (f64::from(yr.end - 1), f64::from(yr.start)),
        }
    }

    /// (x, y) in pixels.
    pub(super) fn map(&self, p: (f64, f64)) -> (f64, f64) {
        let ux = self.x.unit(AxisRange::transform(self.x.scale, p.0));
        let uy = self.y.unit(AxisRange::transform(self.y.scale, p.1));
        (
            self.px_x.0 + ux * (self.px_x.1 - self.px_x.0),
            self.px_y.0 + uy * (self.px_y.1 - self.px_y.0),
        )
    }

    /// An SVG polyline through `points` with coordinates to 0.01 px.
    pub(super) fn polyline(
        &self,
        points: &[(f64, f64)],
        color: RGBColor,
        width: u32,
        dash: Option<(u32, u32)>,
    ) -> String {
        use std::fmt::Write;
        let mut pts = String::with_capacity(14 * points.len());
        for &p in points {
            let (a, b) = self.map(p);
            let _ = write!(pts, "{a:.2},{b:.2} ");
        }
        let dash = dash.map_or(String::new(), |(d, g)| {
            format!(" stroke-dasharray=\"{d} {g}\"")
        });
        format!(
            "<polyline fill=\"none\" opacity=\"1\" stroke=\"#{:02X}{:02X}{:02X}\" stroke-width=\"{width}\"{dash} stroke-linejoin=\"round\" points=\"{}\"/>\n",
            color.0,
            color.1,
            color.2,
            pts.trim_end()
        )
    }
}

impl SubPixel {
    /// A filled marker of `shape` (0 circle, 1 triangle, 2 square, else a
    /// cross) of radius `r` px at data point `p`, as SVG: the shapes the
    /// legend draws (`legend::draw_marker`), at sub-pixel positions.
    pub(super) fn marker(&self, p: (f64, f64), shape: usize, color: RGBColor, r: f64) -> String {
        let (x, y) = self.map(p);
        let fill = format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2);
        match shape {
            0 => format!("<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{r}\" fill=\"{fill}\"/>\n"),
            1 => {
                let s = r + 1.0;
                let (dx, dy) = (s * 0.866, s * 0.5);
                format!(
                    "<polygon fill=\"{fill}\" points=\"{x:.2},{:.2} {:.2},{:.2} {:.2},{:.2}\"/>\n",
                    y - s,
                    x - dx,
                    y + dy,
                    x + dx,
                    y + dy
                )
            }
            2 => format!(
                "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>\n",
                x - r,
                y - r,
                2.0 * r,
                2.0 * r
            ),
            _ => {
                let s = r + 1.0;
                format!(
                    "<path fill=\"none\" stroke=\"{fill}\" stroke-width=\"2\" d=\"M{:.2},{:.2}L{:.2},{:.2}M{:.2},{:.2}L{:.2},{:.2}\"/>\n",
                    x - s,
                    y - s,
                    x + s,
                    y + s,
                    x - s,
                    y + s,
                    x + s,
                    y - s
                )
            }
        }
    }
}

/// Reduces a long segment while keeping its drawn shape (see module doc).
pub(super) fn decimate(seg: &[(f64, f64)], pixels: &[(i32, i32)]) -> Vec<(f64, f64)> {
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
pub(super) fn unique_pixels(seg: &[(f64, f64)], pixels: &[(i32, i32)]) -> Vec<(f64, f64)> {
    let mut seen = HashSet::new();
    seg.iter()
        .zip(pixels)
        .filter(|(_, px)| seen.insert(**px))
        .map(|(p, _)| *p)
        .collect()
}
