//! Stick-slip cycles of a simulated run, found from every step (not only
//! the output samples): the mass sticks while |slip| <= a threshold. A slip
//! starts when |slip| rises through the threshold and counts once |slip|
//! reaches a confirmation speed before falling back (so the ringing of a
//! LuGre bristle after a stick onset is not a slip); it ends at the stick
//! onset, when |slip| falls through the threshold. Crossing times are
//! interpolated linearly between the step's end points. A full cycle runs
//! from one stick onset to the next (stick, then slip), as for the exact
//! motion ([`crate::models::belt::CoulombMotion::last_cycle`]).

use crate::models::belt::Cycle;

/// The tracker's state between steps.
#[derive(Debug, Clone)]
pub struct CycleTracker {
    threshold: f64,
    confirm: f64,
    sticking: bool,
    /// A slip onset not yet confirmed (its time).
    pending: Option<f64>,
    confirmed: bool,
    last: Option<(f64, f64)>,
    stick_onsets: Vec<f64>,
    slip_onset: Option<f64>,
    /// The current cycle: (stick onset, slip onset, x_min, x_max).
    current: Option<(f64, Option<f64>, f64, f64)>,
    completed: Option<Cycle>,
    /// Number of completed cycles.
    pub cycles: usize,
}

impl CycleTracker {
    /// A tracker with the stick threshold and the slip confirmation speed
    /// [m/s].
    pub fn new(threshold: f64, confirm: f64) -> Self {
        Self {
            threshold,
            confirm,
            sticking: false,
            pending: None,
            confirmed: false,
            last: None,
            stick_onsets: Vec::new(),
            slip_onset: None,
            current: None,
            completed: None,
            cycles: 0,
        }
    }

    /// The time between (t0, |u0|) and (t1, |u1|) where |u| crosses `level`.
    fn crossing(t0: f64, a0: f64, t1: f64, a1: f64, level: f64) -> f64 {
        if a1 == a0 {
            t1
        } else {
            t0 + (t1 - t0) * ((level - a0) / (a1 - a0)).clamp(0.0, 1.0)
        }
    }

    /// Observes the state (t, x, slip) at the end of a step (and at t = 0).
    pub fn observe(&mut self, t: f64, x: f64, slip: f64) {
        let a = slip.abs();
        let Some((t0, a0)) = self.last else {
            self.sticking = a <= self.threshold;
            self.last = Some((t, a));
            return;
        };
        if let Some(c) = &mut self.current {
            c.2 = c.2.min(x);
            c.3 = c.3.max(x);
        }
        if self.sticking {
            if a > self.threshold {
                self.sticking = false;
                self.pending = Some(Self::crossing(t0, a0, t, a, self.threshold));
                self.confirmed = false;
            }
        } else if a <= self.threshold {
            let onset = Self::crossing(t0, a0, t, a, self.threshold);
            let was_slip = self.confirmed || self.pending.is_none();
            self.sticking = true;
            self.pending = None;
            if was_slip && self.confirmed {
                self.stick_onset(onset, x);
            } else if was_slip && self.stick_onsets.is_empty() && self.current.is_none() {
                // The run started slipping: its first stick onset opens a cycle.
                self.stick_onset(onset, x);
            }
            self.confirmed = false;
        }
        if !self.sticking && !self.confirmed && a >= self.confirm {
            self.confirmed = true;
            if let Some(c) = &mut self.current {
                c.1 = self.pending.or(Some(t0));
            }
            self.slip_onset = self.pending;
        }
        self.last = Some((t, a));
    }

    fn stick_onset(&mut self, t: f64, x: f64) {
        if let Some((t0, Some(slip), x_min, x_max)) = self.current {
            self.completed = Some(Cycle {
                stick_onset: t0,
                stick_duration: slip - t0,
                slip_duration: t - slip,
                period: t - t0,
                x_max: x_max.max(x),
                x_min: x_min.min(x),
            });
            self.cycles += 1;
        }
        self.stick_onsets.push(t);
        self.current = Some((t, None, x, x));
    }

    /// The last completed cycle.
    pub fn last_cycle(&self) -> Option<Cycle> {
        self.completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square-wave slip: stick 1 s, slip 2 s, repeated; the tracker finds
    /// the durations to the interpolation's accuracy, ignores a short
    /// ringing excursion below the confirmation speed, and the extremes of x.
    #[test]
    fn finds_durations_and_ignores_ringing() {
        let mut tr = CycleTracker::new(0.01, 0.1);
        let dt = 1e-3;
        for k in 0..=9000 {
            let t = k as f64 * dt;
            let phase = t % 3.0;
            let slip = if phase < 1.0 {
                // Ringing: a small excursion above the threshold.
                if (0.2..0.25).contains(&phase) {
                    0.05
                } else {
                    0.0
                }
            } else {
                -1.0
            };
            tr.observe(t, t.sin(), slip);
        }
        let c = tr.last_cycle().expect("cycles");
        assert!((c.stick_duration - 1.0).abs() < 2e-3, "{c:?}");
        assert!((c.slip_duration - 2.0).abs() < 2e-3, "{c:?}");
        assert!((c.period - 3.0).abs() < 2e-3, "{c:?}");
        assert!(tr.cycles >= 2);
        // The last full cycle is [6, 9] s; x = sin t has its maximum 1 at
        // 5 pi / 2 = 7.85 s inside it and its minimum sin 6 at the start.
        assert!((c.stick_onset - 6.0).abs() < 2e-3, "{c:?}");
        assert!((c.x_max - 1.0).abs() < 1e-5, "{c:?}");
        assert!((c.x_min - 6f64.sin()).abs() < 1e-5, "{c:?}");
    }
}
