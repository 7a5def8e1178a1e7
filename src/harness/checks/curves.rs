//! Comparing curves: a case's columns against a reference's at aligned
//! abscissae (common points when every reference point is a case point, to
//! 1e-9 relative; otherwise the reference interpolated linearly at the case
//! points inside its range).

use crate::harness::checks::resolve::Metric;
use crate::harness::table::Table;

/// |y - r| / |r| with the conventions 0/0 = 0 and e/0 = inf.
pub fn relative(err: f64, scale: f64) -> f64 {
    if scale > 0.0 {
        err / scale
    } else if err == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// Differences of a case's curves from a reference's at aligned abscissae.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveDifference {
    /// max |y - r|.
    pub max_abs: f64,
    /// max |r|.
    pub max_ref: f64,
    /// sum (y - r)^2.
    pub sum_sq: f64,
    /// sum r^2.
    pub sum_ref_sq: f64,
    /// Points compared (over all columns).
    pub points: usize,
    /// Columns compared.
    pub columns: usize,
    /// Whether the reference was interpolated (else compared at common points).
    pub interpolated: bool,
}

impl CurveDifference {
    /// Root mean square of y - r over the compared points.
    pub fn rms(&self) -> f64 {
        if self.points == 0 {
            f64::NAN
        } else {
            (self.sum_sq / self.points as f64).sqrt()
        }
    }
}

/// Compares the case columns matching `pattern` with the reference columns
/// of the same names (every reference column matching the pattern must
/// exist in the case), or the single case column `pattern` with the
/// reference column `ref_column`.
pub fn curve_difference(
    case: &Table,
    reference: &Table,
    pattern: &str,
    ref_column: Option<&str>,
) -> Result<CurveDifference, String> {
    let names: Vec<(String, String)> = match ref_column {
        Some(rc) => vec![(pattern.to_string(), rc.to_string())],
        None => reference
            .matching(pattern)
            .iter()
            .map(|n| (n.to_string(), n.to_string()))
            .collect(),
    };
    if names.is_empty() {
        return Err(format!("no reference column matches `{pattern}`"));
    }
    let (Some(xs), Some(xr)) = (case.abscissa(), reference.abscissa()) else {
        return Err("empty table".into());
    };
    let pairs = align(&xs.values, &xr.values)?;
    let mut d = CurveDifference {
        max_abs: 0.0,
        max_ref: 0.0,
        sum_sq: 0.0,
        sum_ref_sq: 0.0,
        points: 0,
        columns: names.len(),
        interpolated: pairs.iter().any(|p| p.interpolated),
    };
    for (name, ref_name) in &names {
        let r = reference
            .values(ref_name)
            .ok_or_else(|| format!("reference has no column `{ref_name}`"))?;
        let y = case
            .values(name)
            .ok_or_else(|| format!("case has no column `{name}`"))?;
        for p in &pairs {
            let rv = p.interpolate(r);
            let e = y[p.case_row] - rv;
            if e.is_nan() {
                return Err(format!("NaN in `{name}`"));
            }
            d.max_abs = d.max_abs.max(e.abs());
            d.max_ref = d.max_ref.max(rv.abs());
            d.sum_sq += e * e;
            d.sum_ref_sq += rv * rv;
            d.points += 1;
        }
    }
    Ok(d)
}

/// Curve metric of [`curve_difference`], with a detail line.
pub fn curve_metric(
    metric: Metric,
    case: &Table,
    reference: &Table,
    pattern: &str,
    ref_column: Option<&str>,
) -> (f64, String) {
    let d = match curve_difference(case, reference, pattern, ref_column) {
        Ok(d) => d,
        Err(msg) => return (f64::NAN, msg),
    };
    let value = match metric {
        Metric::MaxAbs => d.max_abs,
        Metric::MaxRel => relative(d.max_abs, d.max_ref),
        Metric::RmsRel => relative(d.sum_sq.sqrt(), d.sum_ref_sq.sqrt()),
        _ => f64::NAN,
    };
    let how = if d.interpolated {
        "interpolated"
    } else {
        "common"
    };
    let per_column = d.points / d.columns.max(1);
    (
        value,
        format!(
            "{} column(s) at {per_column} {how} points; max |ref| = {:.3e}",
            d.columns, d.max_ref
        ),
    )
}

/// A comparison point: case row, and the reference value found between
/// reference rows `lo` and `lo + 1` with linear weight `weight`.
#[derive(Debug, Clone, Copy)]
struct Pair {
    case_row: usize,
    lo: usize,
    weight: f64,
    interpolated: bool,
}

impl Pair {
    fn interpolate(&self, r: &[f64]) -> f64 {
        if self.interpolated {
            r[self.lo] * (1.0 - self.weight) + r[self.lo + 1] * self.weight
        } else {
            r[self.lo]
        }
    }
}

/// Matches case abscissae with reference abscissae (both increasing).
fn align(xs: &[f64], xr: &[f64]) -> Result<Vec<Pair>, String> {
    if xr.is_empty() || xs.is_empty() {
        return Err("empty abscissa".into());
    }
    let scale = xs
        .iter()
        .chain(xr)
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1.0);
    let tol = 1e-9 * scale;
    // Common points: every reference point is a case point.
    let mut common = Vec::with_capacity(xr.len());
    let mut i = 0;
    for (k, &x) in xr.iter().enumerate() {
        while i < xs.len() && xs[i] < x - tol {
            i += 1;
        }
        if i < xs.len() && (xs[i] - x).abs() <= tol {
            common.push(Pair {
                case_row: i,
                lo: k,
                weight: 0.0,
                interpolated: false,
            });
        } else {
            common.clear();
            break;
        }
    }
    if !common.is_empty() {
        return Ok(common);
    }
    // Otherwise interpolate the reference at the case points in its range.
    let mut pairs = Vec::new();
    let mut k = 0;
    for (row, &x) in xs.iter().enumerate() {
        if x < xr[0] - tol || x > xr[xr.len() - 1] + tol {
            continue;
        }
        while k + 1 < xr.len() - 1 && xr[k + 1] < x {
            k += 1;
        }
        if xr.len() == 1 {
            pairs.push(Pair {
                case_row: row,
                lo: 0,
                weight: 0.0,
                interpolated: false,
            });
            continue;
        }
        let w = ((x - xr[k]) / (xr[k + 1] - xr[k])).clamp(0.0, 1.0);
        pairs.push(Pair {
            case_row: row,
            lo: k,
            weight: w,
            interpolated: true,
        });
    }
    if pairs.is_empty() {
        return Err("case abscissa lies outside the reference range".into());
    }
    Ok(pairs)
}
