//! Axis coordinates for plotters with readable ticks.
//!
//! [`LogAxis`], base-10 logarithmic:
//! plotters' own log coordinate places its first tick at
//! 10^ceil(ln(lo)/ln(10)), which rounding can push one decade too far
//! (1e-3 gives -2.9999999999999996), and it offers no 1-2-5 ticks. Here the
//! axis spans any range [10^lo, 10^hi] and its labelled ticks are, by span:
//! 3 or more decades: powers of ten (every k-th one when crowded); fewer:
//! mantissas 1, 2, 5 of each decade, or 1 to 9 when that gives too few.
//! Light grid lines mark mantissas 1 to 9 up to 8 decades, powers above.
//!
//! [`LinearAxis`], plotters' linear ticks, optionally restricted to integers:
//! for an abscissa that counts something (commit index, number of DOFs),
//! where 1.5 is no tick.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, KeyPointWeight, Ranged};
use plotters::coord::types::RangedCoordf64;

use crate::harness::figure::Scale;

/// One axis after the data are known: scale and range in axis units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct AxisRange {
    pub(super) scale: Scale,
    /// Range in transformed units (log10 of the value on a log axis).
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// Every data value is an integer: tick integers only (linear axes).
    pub(super) integers: bool,
}

impl AxisRange {
    pub(super) fn transform(scale: Scale, v: f64) -> f64 {
        match scale {
            Scale::Linear => v,
            Scale::Log => v.log10(),
        }
    }

    /// From transformed data bounds (None: no data), padded by
    /// `pad_fraction` of the span on both ends; a degenerate range is widened
    /// (by 10 % of the value or 0.5 on a linear axis, half a decade on a log
    /// axis).
    pub(super) fn new(scale: Scale, bounds: Option<(f64, f64)>, pad_fraction: f64) -> Self {
        let (mut lo, mut hi) = bounds.unwrap_or((0.0, 1.0));
        let scale_of = lo.abs().max(hi.abs()).max(f64::MIN_POSITIVE);
        if hi - lo <= 1e-12 * scale_of {
            let half = match scale {
                Scale::Linear => (0.1 * lo.abs()).max(0.5),
                Scale::Log => 0.5,
            };
            (lo, hi) = (lo - half, hi + half);
        } else {
            let pad = pad_fraction * (hi - lo);
            (lo, hi) = (lo - pad, hi + pad);
        }
        Self {
            scale,
            lo,
            hi,
            integers: false,
        }
    }

    /// Extends the top so that the top `fraction` of the axis is free.
    pub(super) fn with_headroom(self, fraction: f64) -> Self {
        let span = self.hi - self.lo;
        Self {
            hi: self.hi + fraction * span / (1.0 - fraction),
            ..self
        }
    }

    /// Position of a transformed value in [0, 1].
    pub(super) fn unit(&self, t: f64) -> f64 {
        (t - self.lo) / (self.hi - self.lo)
    }

    /// A linear coordinate over the range.
    pub(super) fn linear(&self) -> LinearAxis {
        LinearAxis::new(self.lo, self.hi, self.integers)
    }

    /// A log coordinate over the range.
    pub(super) fn log(&self) -> LogAxis {
        LogAxis {
            lo: self.lo,
            hi: self.hi,
        }
    }
}

/// Log axis from 10^lo to 10^hi (`lo < hi` in log10 units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogAxis {
    /// log10 of the lower end.
    pub lo: f64,
    /// log10 of the upper end.
    pub hi: f64,
}

/// Relative slack so that a tick on an end of the axis is kept.
const SLACK: f64 = 1e-9;

impl LogAxis {
    /// The values m * 10^e inside the axis for the given mantissas.
    fn with_mantissas(&self, mantissas: &[f64]) -> Vec<f64> {
        let (first, last) = (self.lo.floor() as i32, self.hi.ceil() as i32);
        let mut out = Vec::new();
        for e in first..=last {
            for &m in mantissas {
                let t = m.log10() + f64::from(e);
                if t >= self.lo - SLACK && t <= self.hi + SLACK {
                    out.push(m * 10f64.powi(e));
                }
            }
        }
        out
    }

    /// Every k-th power of ten inside the axis, k chosen to give at most
    /// `max` values (k divides the exponents, so 10^0 stays a tick).
    fn powers(&self, max: usize) -> Vec<f64> {
        let all = self.with_mantissas(&[1.0]);
        let step = all.len().div_ceil(max.max(1)).max(1) as i32;
        all.into_iter()
            .filter(|v| (v.log10().round() as i32).rem_euclid(step) == 0)
            .collect()
    }

    /// Whether the labelled ticks are powers of ten only (3 or more decades).
    pub fn powers_only(&self) -> bool {
        self.with_mantissas(&[1.0]).len() >= 3
    }

    /// Labelled ticks (see the module doc), at most `max`.
    pub fn bold_ticks(&self, max: usize) -> Vec<f64> {
        if self.powers_only() {
            return self.powers(max);
        }
        for mantissas in [
            &[1.0, 2.0, 5.0][..],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0][..],
        ] {
            let ticks = self.with_mantissas(mantissas);
            if ticks.len() >= 3 && ticks.len() <= max {
                return ticks;
            }
        }
        let ticks = self.with_mantissas(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        if ticks.len() >= 2 && ticks.len() <= max {
            return ticks;
        }
        // A range narrower than the gap between mantissas: label its ends.
        vec![10f64.powf(self.lo), 10f64.powf(self.hi)]
    }

    /// Grid-line ticks, at most `max`.
    pub fn light_ticks(&self, max: usize) -> Vec<f64> {
        let ticks = self.with_mantissas(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        if self.hi - self.lo <= 8.0 && ticks.len() <= max {
            ticks
        } else {
            self.powers(max)
        }
    }
}

impl Ranged for LogAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let t = (value.log10() - self.lo) / (self.hi - self.lo);
        let px = f64::from(limit.0) + t * f64::from(limit.1 - limit.0);
        // Non-positive values (never drawn) map far outside instead of to NaN.
        if px.is_nan() {
            limit.0
        } else {
            px.round().clamp(-1e6, 1e6) as i32
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        let max = hint.max_num_points();
        match hint.weight() {
            KeyPointWeight::Bold => self.bold_ticks(max),
            KeyPointWeight::Any => self.light_ticks(max),
        }
    }

    fn range(&self) -> Range<f64> {
        10f64.powf(self.lo)..10f64.powf(self.hi)
    }
}

/// A linear axis; with `integer_ticks`, its ticks are the integers among
/// plotters' linear ticks (all integers in range when those contain none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearAxis {
    lo: f64,
    hi: f64,
    integer_ticks: bool,
}

impl LinearAxis {
    /// The axis from `lo` to `hi`.
    pub fn new(lo: f64, hi: f64, integer_ticks: bool) -> Self {
        Self {
            lo,
            hi,
            integer_ticks,
        }
    }

    fn linear(&self) -> RangedCoordf64 {
        (self.lo..self.hi).into()
    }
}

impl Ranged for LinearAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear().map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        let max = hint.max_num_points();
        if !self.integer_ticks {
            return self.linear().key_points(hint);
        }
        let ticks: Vec<f64> = self
            .linear()
            .key_points(hint)
            .into_iter()
            // Plotters' ticks are multiples of a float step: 10 * 0.2 may
            // come out as 1.9999999999999998. Round what is an integer up
            // to rounding.
            .filter(|v| (v - v.round()).abs() < 1e-9 * v.abs().max(1.0))
            .map(f64::round)
            .collect();
        if !ticks.is_empty() {
            return ticks;
        }
        let (first, last) = (self.lo.ceil(), self.hi.floor());
        if first > last || last - first >= max as f64 {
            return ticks;
        }
        let count = (last - first) as usize + 1; // small: checked against `max` above
        (0..count).map(|i| first + i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// Widens the axis with more pixels per unit about its centre until both
/// have the same (`plot_px`: the plot's width and height in pixels).
pub(super) fn equal_aspect(
    x: AxisRange,
    y: AxisRange,
    plot_px: (f64, f64),
) -> (AxisRange, AxisRange) {
    let (sx, sy) = (x.hi - x.lo, y.hi - y.lo);
    let per_unit = (plot_px.0 / sx).min(plot_px.1 / sy);
    let widen = |a: AxisRange, px: f64| {
        let (mid, half) = (0.5 * (a.lo + a.hi), 0.5 * px / per_unit);
        AxisRange {
            lo: mid - half,
            hi: mid + half,
            ..a
        }
    };
    (widen(x, plot_px.0), widen(y, plot_px.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_decade_gets_one_two_five_ticks_including_both_ends() {
        let axis = LogAxis { lo: -3.0, hi: -2.0 };
        let ticks = axis.bold_ticks(10);
        assert_eq!(ticks.len(), 4, "{ticks:?}");
        assert!((ticks[0] - 1e-3).abs() < 1e-15 && (ticks[3] - 1e-2).abs() < 1e-15);
    }

    #[test]
    fn many_decades_get_powers_thinned_to_the_limit() {
        let axis = LogAxis { lo: -16.0, hi: 2.0 };
        let ticks = axis.bold_ticks(10);
        assert!(ticks.len() <= 10 && ticks.len() >= 5, "{ticks:?}");
        assert!(ticks.contains(&1.0), "10^0 stays a tick");
    }

    #[test]
    fn a_narrow_range_still_has_labels() {
        let axis = LogAxis {
            lo: 2f64.log10(),
            hi: 2.2f64.log10(),
        };
        assert_eq!(axis.bold_ticks(10).len(), 2);
        let axis = LogAxis {
            lo: 2f64.log10(),
            hi: 6f64.log10(),
        };
        assert_eq!(axis.bold_ticks(10), vec![2.0, 3.0, 4.0, 5.0, 6.0]);
    }

    #[test]
    fn integer_axis_ticks_only_integers() {
        let axis = LinearAxis::new(0.98, 2.02, true);
        assert_eq!(axis.key_points(10usize), vec![1.0, 2.0]);
        let axis = LinearAxis::new(0.0, 100.0, true);
        assert!(axis.key_points(10usize).iter().all(|v| v.fract() == 0.0));
        let axis = LinearAxis::new(0.98, 2.02, false);
        assert!(axis.key_points(10usize).iter().any(|v| v.fract() != 0.0));
    }

    #[test]
    fn mapping_is_logarithmic() {
        let axis = LogAxis { lo: 0.0, hi: 2.0 };
        assert_eq!(axis.map(&1.0, (0, 100)), 0);
        assert_eq!(axis.map(&10.0, (0, 100)), 50);
        assert_eq!(axis.map(&100.0, (0, 100)), 100);
        assert_eq!(axis.map(&0.0, (0, 100)), -1_000_000);
    }
}
