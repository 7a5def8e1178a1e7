//! The sweeps against the continuation. Each settled sweep point
//! (omega, A) is placed in the plane (ln omega, ln A), where the
//! time-stepper's errors are a horizontal shift (the trapezoidal rule is the
//! bilinear transform: its steady response at omega is the exact one at
//! omega (1 + (omega dt)^2 / 12) for each harmonic) and a vertical one (the
//! sampled extreme misses the true one by at most (omega_max dt)^2 / 8
//! relative): whatever the slope of the branch, even at a fold, the point
//! then lies within the length of that shift of the exact curve. Its
//! distance to the nearest stable piece of the branch is the measure; a
//! point nearer the unstable pieces than the stable ones counts as lying on
//! the unstable branch.

use crate::harness::study::Scalar;
use crate::harness::table::Table;
use crate::integrators::event_driven::continuation::distance_to_segment;

use super::branch::Piece;

/// Distance of p to the piece (a ray beyond an open end).
fn distance_to_piece(p: (f64, f64), q: &Piece) -> f64 {
    let (dx, dy) = (q.b.0 - q.a.0, q.b.1 - q.a.1);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return distance_to_segment(p, q.a, q.b);
    }
    let t = ((p.0 - q.a.0) * dx + (p.1 - q.a.1) * dy) / len2;
    let lo = if q.open_start { f64::NEG_INFINITY } else { 0.0 };
    let hi = if q.open_end { f64::INFINITY } else { 1.0 };
    let t = t.clamp(lo, hi);
    ((p.0 - q.a.0 - t * dx).powi(2) + (p.1 - q.a.1 - t * dy).powi(2)).sqrt()
}

/// Distance of (ln omega, ln A) to the nearest piece with `stable`.
fn nearest(p: (f64, f64), pieces: &[Piece], stable: bool) -> f64 {
    pieces
        .iter()
        .filter(|q| q.stable == stable)
        .map(|q| distance_to_piece(p, q))
        .fold(f64::INFINITY, f64::min)
}

/// Per sweep point: (distance to the stable branch, to the unstable one).
pub fn distances(series: &Table, pieces: &[Piece]) -> Vec<(f64, f64)> {
    let w = series.values("frequency").unwrap_or(&[]);
    let a = series.values("amplitude").unwrap_or(&[]);
    w.iter()
        .zip(a)
        .map(|(w, a)| {
            let p = (w.ln(), a.max(f64::MIN_POSITIVE).ln());
            (nearest(p, pieces, true), nearest(p, pieces, false))
        })
        .collect()
}

/// The method scalars of one sweep against the branch.
pub fn sweep_scalars(series: &Table, pieces: &[Piece]) -> Vec<Scalar> {
    let d = distances(series, pieces);
    let max = d.iter().map(|x| x.0).fold(0.0, f64::max);
    let worst = d
        .iter()
        .zip(series.values("frequency").unwrap_or(&[]))
        .max_by(|a, b| a.0.0.total_cmp(&b.0.0))
        .map_or(f64::NAN, |(_, w)| *w);
    let unstable = d.iter().filter(|(s, u)| u < s).count();
    vec![
        Scalar::new(
            "max_branch_distance",
            if d.is_empty() { f64::NAN } else { max },
            "largest distance, in (ln omega, ln A), of a settled sweep point from the nearest stable piece of the continued branch (about the relative frequency or amplitude offset) [-]",
        ),
        Scalar::new(
            "max_branch_distance_omega",
            worst,
            "the sweep frequency where that distance is largest [rad/s]",
        ),
        Scalar::new(
            "unstable_points",
            unstable as f64,
            "sweep points nearer an unstable piece of the branch than every stable piece [-]",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces() -> Vec<Piece> {
        // a stable piece at ln A = 0 and an unstable one at ln A = 1
        vec![
            Piece {
                a: (0.0, 0.0),
                b: (1.0, 0.0),
                stable: true,
                open_start: false,
                open_end: false,
            },
            Piece {
                a: (0.0, 1.0),
                b: (1.0, 1.0),
                stable: false,
                open_start: false,
                open_end: false,
            },
        ]
    }

    #[test]
    fn distances_in_the_log_plane_and_unstable_points() {
        let e = std::f64::consts::E;
        let series = Table::new()
            .with("frequency", "", vec![e.sqrt(), e.sqrt()])
            .with("amplitude", "", vec![1.01, e * 0.99]);
        let s = sweep_scalars(&series, &pieces());
        let max = s[0].value;
        assert!((max - (1.0 + 0.99f64.ln())).abs() < 1e-12, "{max}");
        assert_eq!(s[2].value, 1.0);
    }
}
