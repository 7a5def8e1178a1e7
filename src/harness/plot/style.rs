//! What the plot's parts share: the palette and line sizes, the light
//! band of a reference, the pixel rectangle of a plot area, a series
//! prepared for drawing, and the drawing error in words.

use plotters::prelude::*;

use crate::harness::figure::Style;

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

pub(super) const LINE_WIDTH: u32 = 2;
pub(super) const MARKER_PX: i32 = 3;
/// Width of the light band under a reference (dashed) series.
pub(super) const HALO_WIDTH: u32 = 7;

/// `c` blended two thirds of the way to white: the reference band.
pub(crate) fn lighter(c: RGBColor) -> RGBColor {
    let mix = |v: u8| (f64::from(v) + (255.0 - f64::from(v)) * 0.67).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

pub(super) type PixelRect = (std::ops::Range<i32>, std::ops::Range<i32>);

/// The drawable pieces of one series.
pub(super) struct PreparedSeries<'a> {
    pub(super) label: std::borrow::Cow<'a, str>,
    /// Horizontal error bars (x_lo, x_hi, y), in data units.
    pub(super) error_bars: Vec<(f64, f64, f64)>,
    pub(super) style: Style,
    pub(super) color: RGBColor,
    pub(super) shape: usize,
    /// Runs of drawable points, in data units.
    pub(super) segments: Vec<Vec<(f64, f64)>>,
}

/// A drawing error in words.
pub(super) fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    format!("drawing failed: {e}")
}
