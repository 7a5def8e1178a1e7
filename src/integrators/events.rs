//! Location of switching points: the times at which a problem's
//! right-hand side stops being smooth (a contact closing or opening, a
//! force law changing branch), so that no step of a Runge-Kutta method
//! straddles one (Hairer, Norsett & Wanner, *Solving ODEs I*, II.6,
//! "discontinuous equations"; Shampine & Thompson, Appl. Numer. Math. 32
//! (2000) 181-193).
//!
//! A problem names its switching functions g_i(t, y)
//! ([`FirstOrderOde::switching`]): the right-hand side is smooth while no
//! g_i changes sign. After a step from (t, y) of length h whose end has a
//! g_i of another sign than its start ("sign" meaning g > 0 or g <= 0),
//! [`locate`] finds the step length s* in (0, h] at which the first sign
//! change happens: the root of s -> g_i(y(t + s)), each evaluation a
//! restarted step of length s from (t, y) (so the root is that of the
//! discrete solution, not of an interpolant whose later stages saw the
//! other side), by regula falsi with the Illinois modification and a
//! bisection safeguard (Dowell & Jarratt, BIT 11 (1971) 168-174). It
//! returns the right end of the final bracket, within `RELATIVE_WIDTH` h of
//! the root: the state just past the switch, so that the next step starts
//! on the new side and does not find the same root again. The integrator
//! then ends its step there, lets the problem update its memory (a contact's
//! impact speed) and restarts.

use crate::problem::FirstOrderOde;

/// The width of the final bracket relative to the step [-].
pub const RELATIVE_WIDTH: f64 = 1e-10;

/// Iterations of [`locate`] at most (bisection alone would need 34 for
/// `RELATIVE_WIDTH`).
pub const MAX_ITERATIONS: usize = 100;

/// The side of a switching value: g > 0.
fn side(g: f64) -> bool {
    g > 0.0
}

/// The indices whose side differs between `g0` and `g`.
fn changed(g0: &[f64], g: &[f64]) -> impl Iterator<Item = usize> {
    g0.iter()
        .zip(g)
        .enumerate()
        .filter(|(_, (a, b))| side(**a) != side(**b))
        .map(|(i, _)| i)
}

/// Whether any switching value has changed side between `g0` and `g1`.
pub fn any_changed(g0: &[f64], g1: &[f64]) -> bool {
    changed(g0, g1).next().is_some()
}

/// The changed index whose linear-interpolation root on [a, b] comes
/// first (ties: the lowest index).
fn earliest(g0: &[f64], ga: &[f64], gb: &[f64]) -> usize {
    changed(g0, gb)
        .map(|i| {
            let f = ga[i] / (ga[i] - gb[i]);
            (i, if f.is_finite() { f } else { 0.5 })
        })
        .fold((usize::MAX, f64::INFINITY), |m, (i, f)| {
            if f < m.1 { (i, f) } else { m }
        })
        .0
}

/// The result of [`locate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Located {
    /// The step length s* in (0, h] just past the first switch.
    pub length: f64,
    /// Restarted steps taken to find it.
    pub trials: usize,
}

/// Finds the step length just past the first switch within a step of
/// length h whose start has switching values `g0` and whose end `g1`
/// (some of another side; module doc). `trial(s, g)` takes a step of
/// length s from the step's start and writes the switching values at its
/// end into g.
pub fn locate(h: f64, g0: &[f64], g1: &[f64], trial: &mut dyn FnMut(f64, &mut [f64])) -> Located {
    let n = g0.len();
    let (mut a, mut b) = (0.0f64, h);
    let (mut ga, mut gb) = (g0.to_vec(), g1.to_vec());
    let mut g = vec![0.0; n];
    let mut i = earliest(g0, &ga, &gb);
    // Illinois: the weight of the end that stayed, halved each time the
    // same end stays again.
    let (mut wa, mut wb) = (1.0f64, 1.0f64);
    let mut last_side: Option<bool> = None;
    let mut trials = 0;
    let mut width = b - a;
    while b - a > RELATIVE_WIDTH * h && trials < MAX_ITERATIONS {
        let (fa, fb) = (ga[i] * wa, gb[i] * wb);
        let mut s = a + (b - a) * fa / (fa - fb);
        // Safeguard: bisect when the secant point is not inside, or when
        // the last four iterations did not halve the bracket.
        let checkpoint = trials % 4 == 3;
        if !(s > a && s < b) || (checkpoint && b - a > 0.5 * width) {
            s = 0.5 * (a + b);
        }
        if checkpoint {
            width = b - a;
        }
        trial(s, &mut g);
        trials += 1;
        let passed = any_changed(g0, &g);
        if passed {
            b = s;
            gb.copy_from_slice(&g);
            i = earliest(g0, &ga, &gb);
            wb = 1.0;
            if last_side == Some(true) {
                wa *= 0.5;
            }
        } else {
            a = s;
            ga.copy_from_slice(&g);
            wa = 1.0;
            if last_side == Some(false) {
                wb *= 0.5;
            }
        }
        last_side = Some(passed);
    }
    Located { length: b, trials }
}

/// The switching values of `ode` at (t, y) into `g` (resized).
pub fn values(ode: &dyn FirstOrderOde, t: f64, y: &[f64], g: &mut Vec<f64>) {
    g.resize(ode.switches(), 0.0);
    ode.switching(t, y, g);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root of a smooth function is found to the bracket width, from
    /// the right, and in few trials (superlinear convergence).
    #[test]
    fn finds_a_smooth_root_from_the_right() {
        let root = 0.3137;
        let mut trial = |s: f64, g: &mut [f64]| {
            g[0] = (s - root) * (1.0 + 5.0 * s * s);
            g[1] = 1.0;
        };
        let l = locate(1.0, &[-root, 1.0], &[0.69, 1.0], &mut trial);
        assert!(
            l.length >= root && l.length - root <= 2.0 * RELATIVE_WIDTH,
            "{l:?}"
        );
        assert!(l.trials <= 20, "{l:?}");
    }

    /// Of two functions changing sign within the step, the earlier root is
    /// the one found, even when the later one's change was the one seen
    /// first at a trial point; a step function (no continuity) still gives
    /// its jump by the bisection safeguard.
    #[test]
    fn finds_the_earliest_of_two_switches() {
        let mut trial = |s: f64, g: &mut [f64]| {
            g[0] = 0.9 - s;
            g[1] = if s > 0.2 { 1.0 } else { -1.0 };
        };
        let l = locate(1.0, &[0.9, -1.0], &[-0.1, 1.0], &mut trial);
        assert!((l.length - 0.2).abs() <= 2.0 * RELATIVE_WIDTH, "{l:?}");
        assert!(l.trials < MAX_ITERATIONS, "{l:?}");
    }
}
