//! The figure's layout and its text (issue 20, class 7: legibility).
//!
//! - Every text is at least [`MIN_TEXT_PX`] px in the SVG, and the SVG is
//!   [`WIDTH`] px wide (a legend that does not fit in the plot goes below
//!   it, in columns, not beside it), so the report, whose figures are shown
//!   up to 1200 px wide, shows every text at 10 px or more.
//! - The title and the axis descriptions are wrapped onto as many lines as
//!   they need (words kept whole), and the label areas grow to hold them
//!   and the widest tick label: no text leaves the SVG. Widths are
//!   estimated as 0.6 em per character (DejaVu Sans averages about 0.55).
//!
//! Plotters writes a font of size s as `font-size` s / 1.24 in the SVG
//! ([`SVG_PX`]).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{PixelRect, draw_error};

/// Width of every figure [px] (a legend too wide for it widens it).
pub const WIDTH: u32 = 820;
/// The plot's height [px].
const PLOT_H: u32 = 392;
/// Margin around the figure [px].
pub(super) const MARGIN: u32 = 12;
/// Right margin: half of the last x tick label lies beyond the plot.
const RIGHT_MARGIN: u32 = 28;
/// Plotters' font sizes of the title, axis descriptions and tick labels.
pub(super) const TITLE_SIZE: f64 = 18.0;
pub(super) const DESC_SIZE: f64 = 15.0;
pub(super) const TICK_SIZE: f64 = 13.0;
/// Line pitch of the title and the axis descriptions [px].
const TITLE_LINE: u32 = 22;
const DESC_LINE: u32 = 17;
/// The smallest text of a figure in the SVG [px].
pub const MIN_TEXT_PX: f64 = 10.0;

/// SVG pixels of plotters' font size `size`.
pub(super) fn svg_px(size: f64) -> f64 {
    size / 1.24
}

/// Estimated width [px] of `chars` characters at plotters' size `size`.
pub(super) fn text_width(chars: usize, size: f64) -> f64 {
    0.6 * svg_px(size) * chars as f64
}

/// `text` in lines of at most `width` px (at plotters' size `size`), words
/// kept whole (a word longer than a line gets a line of its own).
pub(super) fn wrap(text: &str, width: f64, size: f64) -> Vec<String> {
    let max = ((width / text_width(1, size)).floor() as usize).max(8);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where everything goes.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Layout {
    /// The chart's width and height (title, plot, tick labels, axis
    /// descriptions) [px]; a legend below adds to the SVG's height.
    pub chart: (u32, u32),
    pub title: Vec<String>,
    pub x_desc: Vec<String>,
    pub y_desc: Vec<String>,
    /// Height of the title block, and the label areas [px].
    pub title_h: u32,
    pub x_area: u32,
    pub y_area: u32,
    /// The plot's width and height [px] (before plotters' rounding).
    pub plot_px: (f64, f64),
}

impl Layout {
    /// The layout for a title, axis descriptions and y tick labels of at
    /// most `y_tick_chars` characters.
    pub fn new(title: &str, x_desc: &str, y_desc: &str, y_tick_chars: usize) -> Self {
        let title = wrap(title, f64::from(WIDTH - 2 * MARGIN), TITLE_SIZE);
        let y_desc = wrap(y_desc, f64::from(PLOT_H), DESC_SIZE);
        let tick_w = text_width(y_tick_chars.max(1), TICK_SIZE).ceil() as u32;
        let y_area = 8 + tick_w + 10 + DESC_LINE * y_desc.len() as u32;
        let plot_w = WIDTH - MARGIN - RIGHT_MARGIN - y_area;
        let x_desc = wrap(x_desc, f64::from(plot_w), DESC_SIZE);
        let x_area = 8 + 16 + 8 + DESC_LINE * x_desc.len() as u32;
        let title_h = 8 + TITLE_LINE * title.len() as u32;
        let height = 2 * MARGIN + title_h + PLOT_H + x_area;
        Self {
            chart: (WIDTH, height),
            title,
            x_desc,
            y_desc,
            title_h,
            x_area,
            y_area,
            plot_px: (f64::from(plot_w), f64::from(PLOT_H)),
        }
    }

    /// Plotters' chart builder on `area` with this layout's margins and
    /// label areas.
    pub fn builder<'a, 'b>(
        &self,
        area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    ) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
        let mut b = ChartBuilder::on(area);
        b.margin_top(MARGIN + self.title_h)
            .margin_left(MARGIN)
            .margin_bottom(MARGIN)
            .margin_right(RIGHT_MARGIN)
            .x_label_area_size(self.x_area)
            .y_label_area_size(self.y_area);
        b
    }

    /// Draws the title above and the axis descriptions beside and below
    /// the plot `rect`.
    pub fn draw_text(
        &self,
        root: &DrawingArea<SVGBackend, Shift>,
        rect: &PixelRect,
    ) -> Result<(), String> {
        let (xr, yr) = rect;
        let style = |size: f64| {
            ("sans-serif", size)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top))
        };
        for (i, line) in self.title.iter().enumerate() {
            let at = (
                (self.chart.0 / 2) as i32,
                (MARGIN + TITLE_LINE * i as u32) as i32,
            );
            root.draw(&Text::new(line.clone(), at, style(TITLE_SIZE)))
                .map_err(draw_error)?;
        }
        let mid_x = (xr.start + xr.end) / 2;
        for (i, line) in self.x_desc.iter().enumerate() {
            let at = (mid_x, yr.end + 8 + 16 + 4 + (DESC_LINE * i as u32) as i32);
            root.draw(&Text::new(line.clone(), at, style(DESC_SIZE)))
                .map_err(draw_error)?;
        }
        let mid_y = (yr.start + yr.end) / 2;
        let rotated = ("sans-serif", DESC_SIZE)
            .into_font()
            .transform(FontTransform::Rotate270)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        for (i, line) in self.y_desc.iter().enumerate() {
            let at = ((MARGIN + DESC_LINE * i as u32) as i32, mid_y);
            root.draw(&Text::new(line.clone(), at, rotated.clone()))
                .map_err(draw_error)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_descriptions_wrap_within_their_side() {
        let long = "max_error_v: max |slider velocity - reference| over the samples (reference: the exact kinematics, or the fine solution with reference.method = \"fine\") [m/s]";
        let l = Layout::new("T", "x [s]", long, 6);
        assert!(l.y_desc.len() >= 3, "{:?}", l.y_desc);
        for line in &l.y_desc {
            assert!(text_width(line.chars().count(), DESC_SIZE) <= l.plot_px.1);
        }
        assert_eq!(l.y_desc.join(" "), long);
        assert_eq!(wrap("", 100.0, 15.0), vec![String::new()]);
        assert!(svg_px(TICK_SIZE) >= MIN_TEXT_PX);
    }
}
