//! A method's log-log slope over the cases as a study scalar (the
//! slider-crank's tolerance and clearance slopes, the valve spring's
//! penalty slope).

use crate::harness::study::{Scalar, StudyScalar};
use crate::harness::sweep::orders;

/// The least-squares slope of log(`y`) against log(`x`) ([`orders`]) as
/// the study scalar `name` of method `label` in `group`, meaning `doc`;
/// None with fewer than two positive points.
pub(crate) fn method_slope(
    name: &str,
    (x, y): (&[f64], &[f64]),
    doc: String,
    (label, group): (&str, String),
) -> Option<StudyScalar> {
    let (slope, _) = orders(x, y)?;
    Some(StudyScalar {
        scalar: Scalar::new(name, slope, doc),
        method: Some(label.to_string()),
        group,
    })
}
