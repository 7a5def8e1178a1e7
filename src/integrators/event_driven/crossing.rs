//! Up-crossings of a linear functional of the state inside one sample interval.
//!
//! In a linear regime every opening y_j = d_j . x - g_j and every velocity
//! component is a linear functional phi(tau) = ℓ . w(tau) of the augmented
//! state, w(tau) = expm(𝒜 tau) w0, with phi' = ℓ . 𝒜 w and phi'' = ℓ . 𝒜² w.
//! Given phi(0) <= 0 on [0, h]:
//! - phi(h) > 0: a sign change; the root is refined in [0, h];
//! - phi(h) <= 0 but phi'(0) > 0 > phi'(h): an interior maximum, i.e. a
//!   possible double crossing inside the interval; the maximum (root of phi')
//!   is located first and, if phi is positive there, the crossing is refined
//!   in [0, tau_max]; a maximum at or below zero is a grazing touch and is
//!   ignored.
//!
//! The sample interval is a small fraction of the shortest period of the
//! regime, so phi' changes sign at most once inside it; each evaluation is an
//! exact exponential, so the refined time is exact to the tolerance.

use nalgebra::{DMatrix, DVector};

use crate::error::SolverError;

use super::regime::Regime;
use super::roots::{Sample, refine};

/// One sample interval of a regime: start and end states and their derivatives.
pub(super) struct Span<'a> {
    /// The regime in force.
    pub regime: &'a Regime,
    /// w(0).
    pub w0: &'a DVector<f64>,
    /// 𝒜 w(0).
    pub dw0: &'a DVector<f64>,
    /// w(h).
    pub w1: &'a DVector<f64>,
    /// 𝒜 w(h).
    pub dw1: &'a DVector<f64>,
    /// Interval length h.
    pub h: f64,
    /// expm(𝒜 h) when the caller has it (it comes back with a crossing at h).
    pub end_transition: Option<&'a DMatrix<f64>>,
    /// Absolute time of w0 (for error messages).
    pub t0: f64,
}

/// A located crossing: the first point past the root and its state.
pub(super) struct Crossing {
    /// Local time tau of the point just past the root (phi(tau) > 0).
    pub tau: f64,
    /// w(tau).
    pub state: DVector<f64>,
    /// expm(𝒜 tau), when it was computed (always, unless tau = h).
    pub transition: Option<DMatrix<f64>>,
}

type Payload = (DVector<f64>, Option<DMatrix<f64>>);

/// First up-crossing of sign * ℓ . w(tau) in (0, h], or None.
///
/// Requires sign * ℓ . w0 <= 0 (returns None otherwise).
pub(super) fn first_upcrossing(
    span: &Span<'_>,
    ell: &DVector<f64>,
    sign: f64,
    tol: f64,
) -> Result<Option<Crossing>, SolverError> {
    let f0 = sign * ell.dot(span.w0);
    if f0 > 0.0 {
        return Ok(None);
    }
    let f1 = sign * ell.dot(span.w1);
    let df0 = sign * ell.dot(span.dw0);
    let df1 = sign * ell.dot(span.dw1);
    if f1 <= 0.0 && !(df0 > 0.0 && df1 < 0.0) {
        return Ok(None);
    }
    let regime = span.regime;
    // ℓ𝒜 and ℓ𝒜² as columns: phi' = r1 . w, phi'' = r2 . w
    let r1 = regime.generator.tr_mul(ell) * sign;
    let r2 = regime.generator_sq.tr_mul(ell) * sign;
    let state_at = |tau: f64| -> Result<Payload, SolverError> {
        let e = regime.transition(tau)?;
        let w = &e * span.w0;
        Ok((w, Some(e)))
    };
    let end_payload: Payload = (span.w1.clone(), span.end_transition.cloned());

    let (right, right_value, right_payload) = if f1 > 0.0 {
        (span.h, f1, end_payload)
    } else {
        // interior maximum: root of -phi' in [0, h]
        let peak = refine(
            |tau| {
                let (w, e) = state_at(tau)?;
                Ok(Sample {
                    value: -r1.dot(&w),
                    slope: -r2.dot(&w),
                    payload: (w, e),
                })
            },
            0.0,
            span.h,
            -df0,
            -df1,
            end_payload,
            tol,
            span.t0,
        )?;
        let peak_value = sign * ell.dot(&peak.hi_payload.0);
        if peak_value <= 0.0 {
            return Ok(None); // grazing touch or a near miss
        }
        (peak.hi, peak_value, peak.hi_payload)
    };
    let root = refine(
        |tau| {
            let (w, e) = state_at(tau)?;
            Ok(Sample {
                value: sign * ell.dot(&w),
                slope: r1.dot(&w),
                payload: (w, e),
            })
        },
        0.0,
        right,
        f0,
        right_value,
        right_payload,
        tol,
        span.t0,
    )?;
    let (state, transition) = root.hi_payload;
    Ok(Some(Crossing {
        tau: root.hi,
        state,
        transition,
    }))
}
