//! A mass on a moving belt (the stick-slip benchmark): a mass m on a belt
//! moving at v_b > 0 along +x, held by a spring k to a wall at x = 0,
//! pressed on the belt by a normal force N; friction T acts on the mass and
//! opposes the slip u = v - v_b:
//!
//!   m x'' + k x = T.
//!
//! With Coulomb friction (static mu_s >= kinetic mu_k) the motion is
//! piecewise analytic ([`coulomb_exact`]): the mass sticks to the belt
//! (v = v_b, T = k x) while |k x| <= mu_s N; it slips with
//! T = -mu_k N sign(u), a harmonic motion of frequency w = sqrt(k/m) about
//! x_e = -sign(u) mu_k N / k, until v = v_b again, when it sticks if
//! |k x| <= mu_s N and otherwise slips on (the side whose acceleration
//! moves it away). The limit cycle from a stuck start: stick from
//! x_min' = 2 x_k - x_s up to x_s = mu_s N / k (x_k = mu_k N / k), then slip
//! with amplitude A = sqrt((x_s - x_k)^2 + (v_b / w)^2):
//!
//!   stick = 2 (x_s - x_k) / v_b,   slip = (pi + 2 beta) / w,
//!   beta = atan2(v_b / w, x_s - x_k),   x_max = x_k + A,   x_min = x_k - A.

use std::f64::consts::{PI, TAU};

use crate::contact::impulse::SlipCoefficient;
use crate::problem::moreau::{ContactLaw, IterationMatrix, MoreauProblem, NormalLaw};

/// The belt system's data (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Belt {
    /// m [kg].
    pub mass: f64,
    /// k [N/m].
    pub stiffness: f64,
    /// v_b > 0 [m/s].
    pub belt_speed: f64,
    /// N >= 0 [N].
    pub normal_force: f64,
}

impl Belt {
    /// w = sqrt(k / m) [rad/s].
    pub fn omega(&self) -> f64 {
        (self.stiffness / self.mass).sqrt()
    }

    /// Kinetic plus spring energy [J].
    pub fn energy(&self, x: f64, v: f64) -> f64 {
        0.5 * self.mass * v * v + 0.5 * self.stiffness * x * x
    }
}

/// The belt's iteration matrix W = m + th^2 h^2 k (a number).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeltIteration(pub f64);

impl IterationMatrix for BeltIteration {
    fn solve_in_place(&self, x: &mut [f64]) {
        x[0] /= self.0;
    }
}

/// H of the one contact: the slip u = v - v_b along the belt (row 0); no
/// second tangential direction, no normal row (the normal force is given).
const BELT_ROWS: [[f64; 1]; 3] = [[1.0], [0.0], [0.0]];

/// The belt as a [`MoreauProblem`]: one DOF x, M = m, B = 0, K = k, no
/// load; one contact on a line whose local velocity is the slip
/// u = v - v_b (the support's drift -v_b) and whose normal force N is
/// prescribed.
impl MoreauProblem for Belt {
    type Iteration = BeltIteration;

    fn dofs(&self) -> usize {
        1
    }

    fn iteration_matrix(&self, h: f64, th: f64) -> Result<BeltIteration, String> {
        let w = self.mass + th * th * h * h * self.stiffness;
        if w.is_finite() && w > 0.0 {
            Ok(BeltIteration(w))
        } else {
            Err(format!("Moreau: the belt's iteration matrix is {w}"))
        }
    }

    fn stiffness_mul(&self, x: &[f64], y: &mut [f64]) {
        y[0] = self.stiffness * x[0];
    }

    fn damping_mul(&self, _x: &[f64], y: &mut [f64]) {
        y[0] = 0.0;
    }

    fn load_vector(&self) -> &[f64] {
        &[0.0]
    }

    fn load_factor(&self, _t: f64) -> f64 {
        0.0
    }

    fn contact_count(&self) -> usize {
        1
    }

    fn contact_dofs(&self) -> &[usize] {
        &[0]
    }

    fn contact_row(&self, _j: usize, r: usize) -> &[f64] {
        &BELT_ROWS[r]
    }

    fn contact_kinematics(&self, _j: usize, _q: &[f64], v: &[f64]) -> (f64, [f64; 3]) {
        (0.0, [v[0] - self.belt_speed, 0.0, 0.0])
    }

    fn contact_drift(&self, _j: usize) -> Option<[f64; 3]> {
        Some([-self.belt_speed, 0.0, 0.0])
    }

    fn contact_law(&self, _j: usize) -> ContactLaw {
        ContactLaw {
            normal: NormalLaw::Prescribed(self.normal_force),
            planar: false,
            slip_coefficient: SlipCoefficient::StepEnd,
        }
    }
}

/// A phase of the exact motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// Moving with the belt.
    Stick,
    /// Slipping with sign(u) = `sign` (+1 faster than the belt, -1 slower).
    Slip {
        /// +1 or -1.
        sign: f64,
    },
}

/// One phase of the exact motion: its start time and state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// Start time [s].
    pub t0: f64,
    /// x(t0) [m].
    pub x0: f64,
    /// v(t0) [m/s].
    pub v0: f64,
    /// What the mass does until the next segment.
    pub phase: Phase,
}

/// The exact Coulomb motion: its segments over [0, t_end].
#[derive(Debug, Clone, PartialEq)]
pub struct CoulombMotion {
    /// The system.
    pub belt: Belt,
    /// mu_s.
    pub static_coefficient: f64,
    /// mu_k.
    pub kinetic_coefficient: f64,
    /// Segments in time order; the last one runs to t_end.
    pub segments: Vec<Segment>,
    /// t_end [s].
    pub t_end: f64,
}

/// The state of one instant of the exact motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State {
    /// x [m].
    pub x: f64,
    /// v [m/s].
    pub v: f64,
    /// The friction force on the mass [N].
    pub friction: f64,
}

/// Too many phase changes (a state that switches without end).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the exact Coulomb solution changed phase more than {0} times before t_end")]
pub struct TooManySegments(pub usize);

/// The exact motion from (x0, v0) at t = 0 (see the module doc).
pub fn coulomb_exact(
    belt: Belt,
    static_coefficient: f64,
    kinetic_coefficient: f64,
    x0: f64,
    v0: f64,
    t_end: f64,
    max_segments: usize,
) -> Result<CoulombMotion, TooManySegments> {
    let mut motion = CoulombMotion {
        belt,
        static_coefficient,
        kinetic_coefficient,
        segments: Vec::new(),
        t_end,
    };
    let (mut t, mut x, mut v) = (0.0, x0, v0);
    let mut phase = motion.phase_at(x, v, None);
    loop {
        if motion.segments.len() >= max_segments {
            crate::deadline::check();
            return Err(TooManySegments(max_segments));
        }
        motion.segments.push(Segment {
            t0: t,
            x0: x,
            v0: v,
            phase,
        });
        let Some((dt, x1)) = motion.phase_end(x, v, phase) else {
            break;
        };
        t += dt;
        if t >= t_end {
            break;
        }
        x = x1;
        v = belt.belt_speed;
        phase = motion.phase_at(x, v, Some(phase));
    }
    Ok(motion)
}

impl CoulombMotion {
    fn stick_limit(&self) -> f64 {
        self.static_coefficient * self.belt.normal_force
    }

    /// The phase that starts at (x, v) (after `previous`, if any).
    fn phase_at(&self, x: f64, v: f64, previous: Option<Phase>) -> Phase {
        let b = &self.belt;
        let spring = b.stiffness * x;
        if v == b.belt_speed {
            // A slip that ends exactly as the spring reaches the limit
            // sticks (|k x| <= mu_s N with equality).
            if spring.abs() <= self.stick_limit() * (1.0 + 1e-12) && previous != Some(Phase::Stick)
            {
                return Phase::Stick;
            }
            // No sticking: the side whose motion is consistent. Slower than
            // the belt (sign -1) the acceleration is (-k x + mu_k N) / m,
            // negative for k x > mu_k N and, at k x = mu_k N (equal
            // coefficients), zero with the jerk -k v_b / m < 0; so k x > 0
            // slips slower than the belt and k x < 0 faster.
            let sign = if spring > 0.0 { -1.0 } else { 1.0 };
            return Phase::Slip { sign };
        }
        Phase::Slip {
            sign: (v - b.belt_speed).signum(),
        }
    }

    /// Duration of the phase from (x, v) and x at its end (None: it lasts
    /// for ever).
    fn phase_end(&self, x: f64, v: f64, phase: Phase) -> Option<(f64, f64)> {
        let b = &self.belt;
        match phase {
            Phase::Stick => {
                let xs = self.stick_limit() / b.stiffness;
                (x < xs)
                    .then(|| ((xs - x) / b.belt_speed, xs))
                    .or(Some((0.0, x)))
            }
            Phase::Slip { sign } => {
                let w = b.omega();
                let xe = -sign * self.kinetic_coefficient * b.normal_force / b.stiffness;
                // v(tau) = v cos(w tau) - (x - xe) w sin(w tau) = R cos(w tau + phi).
                let (c, d) = (v, (x - xe) * w);
                let r = c.hypot(d);
                if r < b.belt_speed.abs() {
                    return None;
                }
                let phi = d.atan2(c);
                let alpha = (b.belt_speed / r).clamp(-1.0, 1.0).acos();
                let mut best = f64::INFINITY;
                for s in [alpha, -alpha] {
                    let mut a = (s - phi).rem_euclid(TAU);
                    if a < 1e-12 {
                        a += TAU;
                    }
                    best = best.min(a);
                }
                let tau = best / w;
                let x1 = xe + (x - xe) * (w * tau).cos() + v / w * (w * tau).sin();
                Some((tau, x1))
            }
        }
    }

    /// The state at time t in [0, t_end].
    pub fn state(&self, t: f64) -> State {
        let k = self
            .segments
            .partition_point(|s| s.t0 <= t)
            .saturating_sub(1);
        let s = self.segments[k];
        let tau = t - s.t0;
        let b = &self.belt;
        match s.phase {
            Phase::Stick => {
                let x = s.x0 + b.belt_speed * tau;
                State {
                    x,
                    v: b.belt_speed,
                    friction: b.stiffness * x,
                }
            }
            Phase::Slip { sign } => {
                let w = b.omega();
                let friction = -sign * self.kinetic_coefficient * b.normal_force;
                let xe = friction / b.stiffness;
                let (sn, cs) = (w * tau).sin_cos();
                State {
                    x: xe + (s.x0 - xe) * cs + s.v0 / w * sn,
                    v: s.v0 * cs - (s.x0 - xe) * w * sn,
                    friction,
                }
            }
        }
    }

    /// The end time of segment k.
    fn segment_end(&self, k: usize) -> f64 {
        self.segments.get(k + 1).map_or(self.t_end, |s| s.t0)
    }

    /// The last full stick-slip cycle (stick onset to the next stick onset)
    /// that ends by t_end.
    pub fn last_cycle(&self) -> Option<Cycle> {
        let sticks: Vec<usize> = (0..self.segments.len())
            .filter(|&k| self.segments[k].phase == Phase::Stick && k > 0)
            .filter(|&k| self.segments[k].t0 < self.t_end)
            .collect();
        let (&a, &b) = (sticks.get(sticks.len().checked_sub(2)?)?, sticks.last()?);
        let (t0, t1) = (self.segments[a].t0, self.segments[b].t0);
        let stick_end = self.segment_end(a);
        let (mut x_min, mut x_max) = (f64::INFINITY, f64::NEG_INFINITY);
        for k in a..b {
            let (s, e) = (self.segments[k].t0, self.segment_end(k));
            for t in [s, e] {
                let x = self.state(t).x;
                x_min = x_min.min(x);
                x_max = x_max.max(x);
            }
            if let Phase::Slip { sign } = self.segments[k].phase {
                // Interior extremes of x where v = 0.
                let w = self.belt.omega();
                let seg = self.segments[k];
                let xe =
                    -sign * self.kinetic_coefficient * self.belt.normal_force / self.belt.stiffness;
                let (c, d) = (seg.v0, (seg.x0 - xe) * w);
                let phi = d.atan2(c);
                // v = R cos(w tau + phi) = 0 at w tau + phi = pi/2 + n pi.
                let mut theta = (PI / 2.0 - phi).rem_euclid(PI);
                while theta / w < e - s {
                    let x = self.state(s + theta / w).x;
                    x_min = x_min.min(x);
                    x_max = x_max.max(x);
                    theta += PI;
                }
            }
        }
        Some(Cycle {
            stick_onset: t0,
            stick_duration: stick_end - t0,
            slip_duration: t1 - stick_end,
            period: t1 - t0,
            x_max,
            x_min,
        })
    }
}

impl CoulombMotion {
    /// The slip u = v - v_b at time `tau` into segment k.
    fn slip_in(&self, k: usize, tau: f64) -> f64 {
        self.state(self.segments[k].t0 + tau).v - self.belt.belt_speed
    }

    /// The first (`first`) or last time in segment k at which |u| crosses
    /// `threshold` (None: |u| stays below it): sampled on 4096 points,
    /// refined by bisection to round-off.
    fn threshold_crossing(&self, k: usize, threshold: f64, first: bool) -> Option<f64> {
        let t0 = self.segments[k].t0;
        let len = self.segment_end(k) - t0;
        let above = |tau: f64| self.slip_in(k, tau).abs() >= threshold;
        let n = 4096;
        let grid: Vec<f64> = (0..=n).map(|i| len * i as f64 / n as f64).collect();
        let (mut lo, mut hi) = if first {
            let i = (1..=n).find(|&i| above(grid[i]))?;
            (grid[i - 1], grid[i])
        } else {
            let i = (0..n).rev().find(|&i| above(grid[i]))?;
            (grid[i], grid[i + 1])
        };
        // Invariant: above(lo) != above(hi), the crossing in between.
        let lo_above = above(lo);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if above(mid) == lo_above {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(t0 + 0.5 * (lo + hi))
    }

    /// The last full cycle as a simulation sees it with a stick threshold:
    /// the mass counts as stuck while |u| <= `threshold`, so a stick starts
    /// when |u| falls through the threshold before the exact stick onset and
    /// the slip when |u| rises through it after the exact slip onset (the
    /// definition of [`crate::studies::stick_slip::cycles`]). The extremes
    /// of x are those of [`Self::last_cycle`].
    pub fn last_cycle_thresholded(&self, threshold: f64) -> Option<Cycle> {
        let exact = self.last_cycle()?;
        let stick_of = |t: f64| self.segments.iter().position(|s| s.t0 == t);
        let a = stick_of(exact.stick_onset)?;
        let b = stick_of(exact.stick_onset + exact.period)?;
        if a == 0 || b + 1 > self.segments.len() || a + 1 >= b {
            return None;
        }
        let onset_a = self.threshold_crossing(a - 1, threshold, false)?;
        let onset_b = self.threshold_crossing(b - 1, threshold, false)?;
        let slip = self.threshold_crossing(a + 1, threshold, true)?;
        Some(Cycle {
            stick_onset: onset_a,
            stick_duration: slip - onset_a,
            slip_duration: onset_b - slip,
            period: onset_b - onset_a,
            ..exact
        })
    }
}

/// The numbers of one stick-slip cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cycle {
    /// Its start [s].
    pub stick_onset: f64,
    /// Stick duration [s].
    pub stick_duration: f64,
    /// Slip duration [s].
    pub slip_duration: f64,
    /// Period [s].
    pub period: f64,
    /// Largest x over the cycle [m].
    pub x_max: f64,
    /// Smallest x over the cycle [m].
    pub x_min: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn belt() -> Belt {
        Belt {
            mass: 1.0,
            stiffness: 20.0,
            belt_speed: 0.1,
            normal_force: 9.81,
        }
    }

    fn coulomb() -> crate::contact::friction::FrictionLaw {
        crate::fixtures::belt::coulomb()
    }

    /// One step of the shared Moreau stepper on the belt from (x, v).
    fn moreau(b: &Belt, x: f64, v: f64, dt: f64) -> (f64, f64, f64, bool) {
        use crate::integrators::moreau::{MoreauState, MoreauStepper};
        let mut stepper = MoreauStepper::new(b, coulomb(), dt).expect("stepper");
        let mut state = MoreauState::new(vec![x], vec![v], 1);
        stepper.step(&mut state).expect("step");
        (
            state.q[0],
            state.v[0],
            state.impulses[0][0],
            stepper.stuck(0),
        )
    }

    /// Sticking holds the mass on the belt while the spring force is below
    /// the static limit, and the impulse is what keeps it there; beyond the
    /// limit it slips with the kinetic impulse.
    #[test]
    fn a_stuck_moreau_step_moves_with_the_belt() {
        let (_, v, p, stuck) = moreau(&belt(), 0.01, 0.1, 1e-3);
        assert!(stuck);
        // v+ = v_free + P / W with P = -W (v_free - v_b): v_b to round-off.
        assert!((v - 0.1).abs() <= 4.0 * f64::EPSILON * 0.1, "{v}");
        // The spring force at the midpoint x = 0.01005 m is balanced.
        assert!((p / 1e-3 - 20.0 * 0.01005).abs() < 1e-9, "{p}");
        // Beyond the limit (k x = 1.6 N > 0.15 * 9.81 = 1.47 N) it slips.
        let (_, v, p, stuck) = moreau(&belt(), 0.08, 0.1, 1e-3);
        assert!(!stuck && v < 0.1, "{v}");
        assert!((p / 1e-3 - 0.1 * 9.81).abs() < 1e-12, "{p}");
    }

    /// Over a run of the shared stepper the discrete energy balance with
    /// W = sum P v_b and D = -sum P (v_th - v_b) closes to round-off and
    /// the dissipation never decreases.
    #[test]
    fn the_moreau_energy_balance_is_exact() {
        use crate::integrators::moreau::{MoreauState, MoreauStepper};
        let b = belt();
        let mut stepper = MoreauStepper::new(&b, coulomb(), 5e-4).expect("stepper");
        let mut s = MoreauState::new(vec![0.0], vec![0.1], 1);
        let (mut d, mut w, mut stuck) = (0.0f64, 0.0, 0);
        let e0 = b.energy(s.q[0], s.v[0]);
        for _ in 0..20000 {
            let v = s.v[0];
            stepper.step(&mut s).expect("step");
            let p = s.impulses[0][0];
            let d_new = d - p * (0.5 * (v + s.v[0]) - 0.1);
            assert!(d_new >= d - 1e-15, "dissipation decreased");
            d = d_new;
            w += p * 0.1;
            stuck += usize::from(stepper.stuck(0));
        }
        assert!(stuck > 0 && stuck < 20000, "{stuck} stuck steps");
        let e = b.energy(s.q[0], s.v[0]);
        assert!((e - e0 - (w - d)).abs() < 1e-12, "{}", e - e0 - (w - d));
    }

    /// The cycle from a stuck start matches the closed-form limit cycle of
    /// the module doc.
    #[test]
    fn the_limit_cycle_has_its_closed_form() {
        let b = belt();
        let m = coulomb_exact(b, 0.15, 0.10, 0.0, 0.1, 10.0, 1000).expect("solves");
        let c = m.last_cycle().expect("a full cycle");
        let (xs, xk) = (0.15 * 9.81 / 20.0, 0.10 * 9.81 / 20.0);
        let w = b.omega();
        let beta = (0.1 / w).atan2(xs - xk);
        let a = (xs - xk).hypot(0.1 / w);
        assert!(
            (c.stick_duration - 2.0 * (xs - xk) / 0.1).abs() < 1e-12,
            "{c:?}"
        );
        assert!(
            (c.slip_duration - (PI + 2.0 * beta) / w).abs() < 1e-12,
            "{c:?}"
        );
        assert!((c.x_max - (xk + a)).abs() < 1e-12 && (c.x_min - (xk - a)).abs() < 1e-12);
    }

    /// With a stick threshold the stick grows by the time |u| takes to pass
    /// the threshold on either side: about 2 thr / a with a = k (x_s - x_k)
    /// / m the acceleration at both ends of the slip; the period stays.
    #[test]
    fn a_threshold_lengthens_the_stick_by_its_passage_times() {
        let b = belt();
        let m = coulomb_exact(b, 0.15, 0.10, 0.0, 0.1, 10.0, 1000).expect("solves");
        let c = m.last_cycle().expect("a full cycle");
        let thr = 1e-3;
        let t = m.last_cycle_thresholded(thr).expect("a thresholded cycle");
        let a = 20.0 * (0.15 - 0.10) * 9.81 / 20.0;
        let shift = 2.0 * thr / a;
        // Second-order terms (the jerk k v_b / m over the passage time)
        // change the shift by about 2e-5 s.
        assert!(
            (t.stick_duration - c.stick_duration - shift).abs() < 5e-5,
            "{t:?} {c:?}"
        );
        assert!((t.stick_duration - c.stick_duration - shift).abs() < 0.01 * shift);
        assert!((t.period - c.period).abs() < 1e-9, "{t:?} {c:?}");
        let tiny = m.last_cycle_thresholded(1e-10).expect("cycle");
        assert!(
            (tiny.stick_duration - c.stick_duration).abs() < 1e-8,
            "{tiny:?}"
        );
    }

    /// The motion satisfies its equation: continuous x and v, m x'' + k x
    /// = T by differences inside phases, |T| <= mu_s N, and T = k x while
    /// stuck.
    #[test]
    fn the_motion_satisfies_the_equations() {
        let b = belt();
        let m = coulomb_exact(b, 0.15, 0.10, 0.02, -0.3, 10.0, 1000).expect("solves");
        let h = 1e-5;
        for k in 1..1000 {
            let t = k as f64 * 0.00997;
            let (a, s, c) = (m.state(t - h), m.state(t), m.state(t + h));
            assert!((c.x - a.x).abs() < 3.0 * h, "x jumps at {t}");
            if a.friction == c.friction || (s.v - b.belt_speed).abs() < 1e-12 {
                let acc = (c.v - a.v) / (2.0 * h);
                if (a.v - c.v).abs() > 0.0 && a.friction == c.friction {
                    assert!(
                        (acc - (s.friction - b.stiffness * s.x)).abs() < 1e-6,
                        "t = {t}: m a = {acc}, T - k x = {}",
                        s.friction - b.stiffness * s.x
                    );
                }
            }
            assert!(s.friction.abs() <= 0.15 * 9.81 * (1.0 + 1e-12));
        }
    }

    /// Equal static and kinetic coefficients: a free harmonic motion of
    /// amplitude v_b / w about x_k touching the belt speed (no stick time).
    #[test]
    fn equal_coefficients_give_no_stick_time() {
        let b = belt();
        let m = coulomb_exact(b, 0.1, 0.1, 0.0, 0.1, 5.0, 1000).expect("solves");
        let c = m.last_cycle().expect("cycle");
        assert!(c.stick_duration.abs() < 1e-12, "{c:?}");
        assert!((c.period - TAU / b.omega()).abs() < 1e-9, "{c:?}");
        // After the instant of stick the mass falls behind the belt: u <= 0.
        for k in 1..500 {
            let s = m.state(k as f64 * 0.01);
            assert!(
                s.v - 0.1 <= 1e-12,
                "u = {} at t = {}",
                s.v - 0.1,
                k as f64 * 0.01
            );
        }
        // Thresholded, u = -(k v_b / 2m) tau^2 at both ends of the slip:
        // the stick lasts 2 sqrt(2 m thr / (k v_b)).
        let thr = 1e-3;
        let t = m.last_cycle_thresholded(thr).expect("cycle");
        let passage = 2.0 * (2.0 * thr / (20.0 * 0.1)).sqrt();
        assert!(
            (t.stick_duration - passage).abs() < 0.01 * passage,
            "{t:?} vs {passage}"
        );
    }
}
