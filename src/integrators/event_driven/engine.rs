//! The event-driven march: sample steps inside a regime, exact event location,
//! switch of the active set.
//!
//! Inside regime A the state advances by the cached w <- expm(𝒜_A h_A) w on a
//! grid t_base + i h_A that restarts at every event (times are formed as
//! t_base + i h_A, one rounding, so they never drift). In each sample
//! interval every spring's signed opening (y_j for an open spring, -y_j for
//! an engaged one, <= 0 while the regime holds) is checked for an up-crossing
//! ([`super::crossing`]); the earliest one ends the interval at the first
//! point past it, every spring whose signed opening is then positive switches,
//! and the march restarts in the new regime. The vector field is continuous
//! across a switch (k_j max(0, y) vanishes at y = 0): no state jump, and the
//! forcing phase (cos, sin) is rewritten exactly after every interval.
//! Observers see each interval with its transition matrix (outputs,
//! monodromy, extrema).

use std::collections::HashMap;

use nalgebra::{DMatrix, DVector};

use crate::error::SolverError;
use crate::problem::GapSystem;

use super::crossing::{Crossing, Span, first_upcrossing};
use super::options::{EventDrivenOptions, METHOD};
use super::regime::{PreparedSystem, Regime};

/// One interval travelled inside one regime.
pub(super) struct Segment<'a> {
    /// The regime in force.
    pub regime: &'a Regime,
    /// Start time.
    pub t0: f64,
    /// End time.
    pub t1: f64,
    /// Length (t1 - t0 up to rounding; the exact duration of `transition`).
    pub h: f64,
    /// Augmented state at t0.
    pub w0: &'a DVector<f64>,
    /// 𝒜 w0.
    pub dw0: &'a DVector<f64>,
    /// Augmented state at t1.
    pub w1: &'a DVector<f64>,
    /// 𝒜 w1.
    pub dw1: &'a DVector<f64>,
    /// expm(𝒜 h): w1 = transition w0 (up to the phase rewrite).
    pub transition: &'a DMatrix<f64>,
}

/// Something that watches the march interval by interval.
pub(super) trait SegmentObserver {
    /// Called once per interval, in time order.
    fn observe(
        &mut self,
        segment: &Segment<'_>,
        prepared: &PreparedSystem,
    ) -> Result<(), SolverError>;
}

/// An observer that ignores everything.
pub(super) struct NoObserver;

impl SegmentObserver for NoObserver {
    fn observe(&mut self, _: &Segment<'_>, _: &PreparedSystem) -> Result<(), SolverError> {
        Ok(())
    }
}

/// Where a march is: time, augmented state, active set.
#[derive(Debug, Clone)]
pub(super) struct Cursor {
    /// Current time.
    pub t: f64,
    /// Augmented state at t.
    pub w: DVector<f64>,
    /// Active set at t.
    pub active: Vec<bool>,
    /// Spring switches so far.
    pub events: usize,
    base_t: f64,
    steps: u64,
    regime: usize,
}

/// The solver: prepared system, options and the regimes met so far.
pub(super) struct Engine {
    /// The system in dense form.
    pub prepared: PreparedSystem,
    options: EventDrivenOptions,
    regimes: Vec<Regime>,
    index: HashMap<Vec<bool>, usize>,
}

fn other(message: String) -> SolverError {
    SolverError::other(METHOD, message)
}

/// Bound on the sample intervals of one march (at a few microseconds each,
/// minutes of work).
pub const MAX_INTERVALS: f64 = 5e7;

impl Engine {
    /// Validates the options and prepares the system.
    pub fn new(system: &GapSystem, options: &EventDrivenOptions) -> Result<Self, SolverError> {
        if options.samples_per_period < 4 {
            return Err(other(format!(
                "samples_per_period = {} must be at least 4",
                options.samples_per_period
            )));
        }
        if !(options.time_tol > 0.0 && options.time_tol < 1e-3) {
            return Err(other(format!(
                "time_tol = {} must be in (0, 1e-3)",
                options.time_tol
            )));
        }
        Ok(Engine {
            prepared: PreparedSystem::new(system)?,
            options: options.clone(),
            regimes: Vec::new(),
            index: HashMap::new(),
        })
    }

    /// Number of distinct active sets met so far.
    pub fn regimes_seen(&self) -> usize {
        self.regimes.len()
    }

    fn regime_index(&mut self, active: &[bool]) -> Result<usize, SolverError> {
        if let Some(&i) = self.index.get(active) {
            return Ok(i);
        }
        let regime = Regime::new(&self.prepared, active, self.options.samples_per_period)?;
        self.regimes.push(regime);
        self.index.insert(active.to_vec(), self.regimes.len() - 1);
        Ok(self.regimes.len() - 1)
    }

    /// A cursor at (x0, v0, t0); the springs with y_j > 0 are engaged.
    pub fn start(&mut self, x0: &[f64], v0: &[f64], t0: f64) -> Result<Cursor, SolverError> {
        let n = self.prepared.n;
        if x0.len() != n || v0.len() != n {
            return Err(other(format!(
                "initial state has lengths {} and {}, expected n = {n}",
                x0.len(),
                v0.len()
            )));
        }
        if !x0.iter().chain(v0).all(|v| v.is_finite()) || !t0.is_finite() {
            return Err(other("non-finite initial state or time".to_string()));
        }
        let w = self.prepared.augment(x0, v0, t0);
        let active: Vec<bool> = (0..self.prepared.springs())
            .map(|j| self.prepared.opening(j, &w) > 0.0)
            .collect();
        let regime = self.regime_index(&active)?;
        Ok(Cursor {
            t: t0,
            w,
            active,
            events: 0,
            base_t: t0,
            steps: 0,
            regime,
        })
    }

    /// Marches `cursor` to exactly `t_end`, showing every interval to `observer`.
    pub fn advance(
        &mut self,
        cursor: &mut Cursor,
        t_end: f64,
        observer: &mut dyn SegmentObserver,
    ) -> Result<(), SolverError> {
        if !t_end.is_finite() {
            return Err(other(format!("end time {t_end} is not finite")));
        }
        self.check_intervals(cursor, t_end)?;
        while cursor.t < t_end {
            crate::deadline::check();
            let switched = self.interval(cursor, t_end, observer)?;
            if let Some(active) = switched {
                cursor.regime = self.regime_index(&active)?;
                cursor.active = active;
                self.check_intervals(cursor, t_end)?;
                if cursor.events > self.options.max_events {
                    return Err(other(format!(
                        "more than max_events = {} switches by t = {} (accumulating events?)",
                        self.options.max_events, cursor.t
                    )));
                }
            }
        }
        Ok(())
    }

    /// Refuses to march when the current regime's sample step would need
    /// more than [`MAX_INTERVALS`] intervals to reach `t_end` (a step
    /// shrunk by extreme magnitudes: the run would not end in a useful
    /// time).
    fn check_intervals(&self, cursor: &Cursor, t_end: f64) -> Result<(), SolverError> {
        let step = self.regimes[cursor.regime].step;
        let needed = (t_end - cursor.t) / step;
        if needed.is_nan() || needed > MAX_INTERVALS {
            return Err(other(format!(
                "the sample step {step:e} s at t = {} s would need {needed:e} intervals to reach t = {t_end} s (more than {MAX_INTERVALS:e}): the fastest mode is that fast; check the magnitudes of the mass, damping, stiffness and gap stiffness",
                cursor.t
            )));
        }
        Ok(())
    }

    /// One sample interval (or the part of it up to the first event); returns the new
    /// active set when springs switched.
    fn interval(
        &self,
        cursor: &mut Cursor,
        t_end: f64,
        observer: &mut dyn SegmentObserver,
    ) -> Result<Option<Vec<bool>>, SolverError> {
        let prepared = &self.prepared;
        let regime = &self.regimes[cursor.regime];
        let next_grid = cursor.base_t + (cursor.steps + 1) as f64 * regime.step;
        let partial = next_grid >= t_end - 1e-3 * regime.step;
        let fresh;
        let (t1, h, transition) = if partial {
            let h = t_end - cursor.t;
            fresh = regime.transition(h)?;
            (t_end, h, &fresh)
        } else {
            (next_grid, regime.step, &regime.step_transition)
        };
        let w0 = &cursor.w;
        let w1 = transition * w0;
        if !w1.iter().all(|v| v.is_finite()) {
            return Err(other(format!("non-finite state at t = {t1}")));
        }
        let dw0 = &regime.generator * w0;
        let dw1 = &regime.generator * &w1;
        let span = Span {
            regime,
            w0,
            dw0: &dw0,
            w1: &w1,
            dw1: &dw1,
            h,
            end_transition: Some(transition),
            t0: cursor.t,
        };
        let tol = self.options.time_tol * regime.time_scale;
        let mut earliest: Option<Crossing> = None;
        for (ell, &on) in prepared.openings.iter().zip(&cursor.active) {
            let sign = if on { -1.0 } else { 1.0 };
            if let Some(c) = first_upcrossing(&span, ell, sign, tol)?
                && earliest.as_ref().is_none_or(|e| c.tau < e.tau)
            {
                earliest = Some(c);
            }
        }
        let Some(crossing) = earliest else {
            let mut w1 = w1;
            prepared.set_phase(&mut w1, t1);
            let dw1 = &regime.generator * &w1;
            let segment = Segment {
                regime,
                t0: cursor.t,
                t1,
                h,
                w0,
                dw0: &dw0,
                w1: &w1,
                dw1: &dw1,
                transition,
            };
            observer.observe(&segment, prepared)?;
            cursor.w = w1;
            cursor.t = t1;
            if partial {
                cursor.base_t = t1;
                cursor.steps = 0;
            } else {
                cursor.steps += 1;
            }
            return Ok(None);
        };
        let tau = crossing.tau;
        let t_event = if tau == h { t1 } else { cursor.t + tau };
        let event_transition = match crossing.transition {
            Some(e) => e,
            None => transition.clone(), // tau = h: the interval's own transition
        };
        let mut w_event = crossing.state;
        prepared.set_phase(&mut w_event, t_event);
        let dw_event = &regime.generator * &w_event;
        let segment = Segment {
            regime,
            t0: cursor.t,
            t1: t_event,
            h: tau,
            w0,
            dw0: &dw0,
            w1: &w_event,
            dw1: &dw_event,
            transition: &event_transition,
        };
        observer.observe(&segment, prepared)?;
        // every spring whose signed opening is now positive has crossed (within the tolerance)
        let mut active = cursor.active.clone();
        for (j, on) in active.iter_mut().enumerate() {
            let y = prepared.opening(j, &w_event);
            if (*on && y < 0.0) || (!*on && y > 0.0) {
                *on = !*on;
                cursor.events += 1;
            }
        }
        cursor.w = w_event;
        cursor.t = t_event;
        cursor.base_t = t_event;
        cursor.steps = 0;
        Ok(Some(active))
    }
}
