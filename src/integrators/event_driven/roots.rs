//! Root refinement inside a sign bracket: safeguarded Newton with bisection
//! fallback (Press et al., *Numerical Recipes*, 3rd ed., Sec. 9.4, `rtsafe`),
//! changed to keep the bracket [lo, hi] with f(lo) <= 0 < f(hi) and to stop
//! only when hi - lo <= tol. Once Newton has converged from one side, the
//! next point is placed tol/2 beyond the Newton root so that the far end of
//! the bracket closes in too. The caller gets hi, a point strictly past the
//! root, with whatever it computed there (the state, its transition matrix).

use crate::error::SolverError;

use super::options::METHOD;

/// One evaluation of the function: value, slope, and what was computed on the way.
pub(super) struct Sample<P> {
    /// f(x).
    pub value: f64,
    /// f'(x).
    pub slope: f64,
    /// Anything the caller wants back for the final hi.
    pub payload: P,
}

/// The refined bracket: f(lo) <= 0 < f(hi), hi - lo <= tol.
pub(super) struct Bracket<P> {
    /// Right end, f(hi) > 0.
    pub hi: f64,
    /// The payload of the evaluation at hi.
    pub hi_payload: P,
}

/// Iteration cap: bisection alone needs log2(width / tol) < 64 steps for
/// tol >= 1e-19 width; this leaves room for Newton steps in between.
const MAX_ITERATIONS: usize = 200;

/// Shrinks [lo, hi] (f(lo) = f_lo <= 0 < f(hi) = f_hi, payload at hi given) to width <= tol.
#[allow(clippy::too_many_arguments)]
pub(super) fn refine<P>(
    mut eval: impl FnMut(f64) -> Result<Sample<P>, SolverError>,
    mut lo: f64,
    mut hi: f64,
    f_lo: f64,
    f_hi: f64,
    hi_payload: P,
    tol: f64,
    t_origin: f64,
) -> Result<Bracket<P>, SolverError> {
    let mut hi_payload = hi_payload;
    if hi - lo <= tol {
        return Ok(Bracket { hi, hi_payload });
    }
    // regula falsi start, kept off the ends
    let fraction = (f_lo / (f_lo - f_hi)).clamp(1e-3, 1.0 - 1e-3);
    let mut x = lo + fraction * (hi - lo);
    let mut width_two_back = hi - lo;
    for iteration in 1..=MAX_ITERATIONS {
        let sample = eval(x)?;
        if !sample.value.is_finite() {
            return Err(SolverError::other(
                METHOD,
                format!(
                    "non-finite function value during event location near t = {}",
                    t_origin + x
                ),
            ));
        }
        let upper = sample.value > 0.0;
        if upper {
            hi = x;
            hi_payload = sample.payload;
        } else {
            lo = x;
        }
        let width = hi - lo;
        if width <= tol {
            return Ok(Bracket { hi, hi_payload });
        }
        let mid = 0.5 * (lo + hi);
        let newton = x - sample.value / sample.slope;
        let mut next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            mid
        };
        if next == newton && (newton - x).abs() < 0.5 * tol {
            next = if upper {
                newton - 0.5 * tol
            } else {
                newton + 0.5 * tol
            };
            if !(next > lo && next < hi) {
                next = mid;
            }
        }
        if iteration % 2 == 0 {
            // Newton creeping from one side: bisect unless the bracket halved over two steps
            if width > 0.5 * width_two_back {
                next = mid;
            }
            width_two_back = width;
        }
        x = next;
    }
    Err(SolverError::NoConvergence {
        method: format!("{METHOD} event location"),
        step: 0,
        t: t_origin + lo,
        iterations: MAX_ITERATIONS,
        residual: hi - lo,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cubic(x: f64) -> Result<Sample<f64>, SolverError> {
        // root at x = 0.3 of (x - 0.3)(x^2 + 1)
        Ok(Sample {
            value: (x - 0.3) * (x * x + 1.0),
            slope: (x * x + 1.0) + 2.0 * x * (x - 0.3),
            payload: x,
        })
    }

    #[test]
    fn brackets_a_simple_root_to_tolerance() {
        let tol = 1e-14;
        let b = refine(
            cubic,
            0.0,
            1.0,
            cubic(0.0).unwrap().value,
            cubic(1.0).unwrap().value,
            1.0,
            tol,
            0.0,
        )
        .unwrap();
        assert!(b.hi > 0.3 && b.hi - 0.3 <= tol, "hi = {}", b.hi);
        assert_eq!(b.hi_payload, b.hi);
    }

    #[test]
    fn double_root_at_the_left_end_still_converges() {
        // f = x^2 on [0, 1]: f(0) = 0 <= 0, root at the bracket end
        let f = |x: f64| {
            Ok(Sample {
                value: x * x,
                slope: 2.0 * x,
                payload: (),
            })
        };
        let b = refine(f, 0.0, 1.0, 0.0, 1.0, (), 1e-13, 0.0).unwrap();
        assert!(b.hi > 0.0 && b.hi <= 1e-13);
    }

    #[test]
    fn zero_slope_falls_back_to_bisection() {
        let f = |x: f64| {
            Ok(Sample {
                value: if x > 0.7 { 1.0 } else { -1.0 },
                slope: 0.0,
                payload: (),
            })
        };
        let b = refine(f, 0.0, 1.0, -1.0, 1.0, (), 1e-12, 0.0).unwrap();
        assert!(b.hi > 0.7 && b.hi - 0.7 <= 1e-12);
    }
}
