//! Running one valvetrain method: the BDF integration over whole cam
//! revolutions, the analysis of the last revolution (lift-off, seat impact
//! and bounce, closing, spring-seat force), its spectrum, and the jump
//! speed by bisection.

use std::f64::consts::PI;

use crate::error::SolverError;
use crate::harness::study::{CaseTable, MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::{BdfContact, BdfStats, ContactModel, Stepping};
use crate::models::valvetrain::{SpringModel, Valvetrain};
use crate::problem::ContactSystemState;
use crate::studies::shared::seat_force::{interval_means, resample};
use crate::studies::valvetrain::spec::{CaseConfig, MethodConfig};

/// Every accepted step of a run.
#[derive(Debug, Default, Clone)]
pub struct Trace {
    /// t [s].
    pub t: Vec<f64>,
    /// Valve lift x_v [m].
    pub valve: Vec<f64>,
    /// Valve velocity [m/s].
    pub valve_velocity: Vec<f64>,
    /// Follower x_f [m].
    pub follower: Vec<f64>,
    /// The cam surface h(theta) - lash [m].
    pub profile: Vec<f64>,
    /// Cam-follower contact force [N].
    pub cam_force: Vec<f64>,
    /// Valve-seat contact force [N].
    pub valve_seat_force: Vec<f64>,
    /// The spring's force on its seat in the head [N].
    pub spring_seat: Vec<f64>,
    /// Largest penetration [m], largest |lambda g| / (k_s d^2), most
    /// negative lambda [N], over every contact and step.
    pub worst: (f64, f64, f64),
}

/// Integrates `vt` from rest over `t_end`.
pub fn simulate(
    vt: &Valvetrain,
    contact: ContactModel,
    stepping: Stepping,
    t_end: f64,
    max_steps: usize,
) -> Result<(Trace, BdfStats), String> {
    let mut bdf = BdfContact::new(&vt.system, contact)?;
    let start = vt.initial_state();
    let sys = &vt.system;
    let scale = sys.stiffness_scale * sys.length_scale * sys.length_scale;
    let mut trace = Trace::default();
    let record = |s: &ContactSystemState, trace: &mut Trace| {
        let drives = sys.drives(s.t);
        trace.t.push(s.t);
        trace.valve.push(s.q[vt.valve]);
        trace.valve_velocity.push(s.v[vt.valve]);
        trace.follower.push(s.q[vt.follower]);
        trace.profile.push(drives[0].0 - vt.params.lash);
        trace.cam_force.push(s.lambda[vt.cam_row]);
        trace.valve_seat_force.push(s.lambda[vt.seat_row]);
        trace.spring_seat.push(vt.spring_seat_force(s));
        for p in 0..sys.gaps.len() {
            let g = sys.gap(p, &s.q, &drives);
            let l = s.lambda[p];
            trace.worst.0 = trace.worst.0.max(-g);
            trace.worst.1 = trace.worst.1.max((l * g).abs() / scale);
            trace.worst.2 = trace.worst.2.max(-l);
        }
    };
    record(&start, &mut trace);
    let mut on_step = |s: &ContactSystemState| record(s, &mut trace);
    bdf.integrate(start.clone(), t_end, stepping, max_steps, &mut on_step)
        .map_err(|e| e.to_string())?;
    Ok((trace, bdf.stats))
}

/// What the analysed revolution showed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Analysis {
    /// The follower left the cam during the lift.
    pub liftoff: bool,
    /// Smallest cam-follower force while the cam lifts [N].
    pub min_cam_force: f64,
    /// Largest cam-follower gap [m].
    pub max_separation: f64,
    /// Largest valve lift [m].
    pub max_lift: f64,
    /// Largest closing speed when the valve lands on its seat [m/s].
    pub impact_velocity: f64,
    /// Largest lift after the valve first lands [m].
    pub bounce_height: f64,
    /// Times the valve lifts more than [`BOUNCE_THRESHOLD`] off its seat
    /// again after first landing.
    pub reopenings: usize,
    /// The valve is on its seat at the end of the revolution.
    pub closes: bool,
    /// Cam angle of the last landing within the revolution [deg].
    pub closing_angle: f64,
    /// Largest |x_f - (h - lash)| while the cam pushes [m].
    pub tracking_error: f64,
    /// Largest |x_v - max(h - lash, 0)| [m].
    pub valve_deviation: f64,
}

/// The spring's quasi-static seat force against the valve lift: F0 + k x
/// for the single-mass model and the multi-mass model without coil
/// contact; with coil contact the closing coils stiffen the spring, and the
/// curve is the equilibrium with Signorini contact (the valve-spring kind's
/// static curve, Lemke on the contact LCP at 401 lifts), interpolated. The
/// curve depends on the case's spring and lift only: it is computed once per
/// case (`CaseConfig::static_curve`), not in every method run and timed
/// repetition.
pub fn static_force<'a>(
    vt: &'a Valvetrain,
    cfg: &'a CaseConfig,
) -> Result<Box<dyn Fn(f64) -> f64 + 'a>, String> {
    match vt.model {
        SpringModel::MultiMass { coil_contact: true } => {
            let p = &vt.spring.params;
            let offset = p.free_length - p.installed_length;
            let (delta, force) = cfg
                .static_curve
                .get_or_init(|| {
                    let curve = crate::studies::shared::seat_force::static_curve(
                        &vt.spring,
                        offset + vt.cam.lift,
                        401,
                    )?;
                    let delta = curve.values("delta").ok_or("no delta")?.to_vec();
                    let force = curve.values("seat_force").ok_or("no seat force")?.to_vec();
                    Ok((delta, force))
                })
                .as_ref()
                .map_err(Clone::clone)?;
            Ok(Box::new(move |x: f64| {
                resample(
                    delta,
                    force,
                    &[(offset + x).clamp(0.0, delta[delta.len() - 1])],
                )[0]
            }))
        }
        _ => Ok(Box::new(|x: f64| vt.static_spring_force(x))),
    }
}

/// The cam angle within the last revolution at each output time [deg].
fn angles(cfg: &CaseConfig, at: &[f64]) -> Vec<f64> {
    let start = cfg.cam.angle(at[0]);
    at.iter()
        .map(|&t| (cfg.cam.angle(t) - start).to_degrees())
        .collect()
}

/// A lift above this after landing counts as a bounce [m].
pub const BOUNCE_THRESHOLD: f64 = 1e-6;

/// Analyses the steps of `trace` with t in [t0, t1].
pub fn analyse(vt: &Valvetrain, trace: &Trace, t0: f64, t1: f64) -> Analysis {
    let force_floor = 1e-6 * vt.preload();
    let lifting = 1e-3 * vt.cam.lift;
    let range: Vec<usize> = (0..trace.t.len())
        .filter(|&k| trace.t[k] >= t0 * (1.0 - 1e-12) && trace.t[k] <= t1 * (1.0 + 1e-12))
        .collect();
    let mut a = Analysis {
        min_cam_force: f64::INFINITY,
        ..Analysis::default()
    };
    let seated = |k: usize| trace.valve_seat_force[k] > force_floor;
    let mut landed = false;
    let mut reopened = false;
    for (i, &k) in range.iter().enumerate() {
        let profile = trace.profile[k];
        if profile + vt.params.lash > lifting {
            a.min_cam_force = a.min_cam_force.min(trace.cam_force[k]);
            if trace.cam_force[k] <= force_floor {
                a.liftoff = true;
            }
        }
        a.max_separation = a.max_separation.max(trace.follower[k] - profile);
        a.max_lift = a.max_lift.max(trace.valve[k]);
        if trace.cam_force[k] > force_floor {
            a.tracking_error = a.tracking_error.max((trace.follower[k] - profile).abs());
        }
        a.valve_deviation = a
            .valve_deviation
            .max((trace.valve[k] - profile.max(0.0)).abs());
        if i == 0 {
            continue;
        }
        let prev = range[i - 1];
        if seated(k) && !seated(prev) {
            a.impact_velocity = a.impact_velocity.max(-trace.valve_velocity[prev]);
            a.closing_angle = (vt.cam.angle(trace.t[k]) - vt.cam.angle(t0)).to_degrees();
            landed = true;
        } else if landed {
            a.bounce_height = a.bounce_height.max(trace.valve[k]);
            // A reopening counts when the valve lifts a micrometre (below
            // that: the BDF's ripple after a landing, 0.1-0.3 um here).
            if trace.valve[k] > BOUNCE_THRESHOLD && !reopened {
                a.reopenings += 1;
                reopened = true;
            } else if seated(k) {
                reopened = false;
            }
        }
    }
    a.closes = range.last().is_some_and(|&k| seated(k));
    a
}

/// Amplitudes of the harmonics 1..=n_max of samples `y` taken uniformly
/// over one period (the last sample, at the period's end, left out):
/// A_n = 2 |sum_k y_k exp(-2 pi i n k / N)| / N.
pub fn harmonics(y: &[f64], n_max: usize) -> Vec<f64> {
    let n = y.len();
    (1..=n_max)
        .map(|h| {
            let (mut re, mut im) = (0.0, 0.0);
            for (k, v) in y.iter().enumerate() {
                let phase = 2.0 * PI * (h * k) as f64 / n as f64;
                re += v * phase.cos();
                im -= v * phase.sin();
            }
            2.0 * re.hypot(im) / n as f64
        })
        .collect()
}

/// The run of one method at the case's speed, its output samples over the
/// last revolution and its counters.
fn run_at_speed(
    cfg: &CaseConfig,
    m: &MethodConfig,
    speed: f64,
) -> Result<(Valvetrain, Trace, BdfStats), String> {
    let vt = cfg.train(m.model, speed)?;
    let t_end = cfg.revolutions as f64 / speed;
    let (trace, stats) = simulate(&vt, m.contact, m.stepping, t_end, cfg.max_steps)?;
    Ok((vt, trace, stats))
}

/// The output times of the last revolution.
pub fn output_times(cfg: &CaseConfig) -> Vec<f64> {
    let period = cfg.period();
    let t0 = (cfg.revolutions - 1) as f64 * period;
    let n = cfg.samples_per_revolution;
    (0..=n).map(|k| t0 + period * k as f64 / n as f64).collect()
}

/// The fine reference: NCP-BDF2 with the multi-mass spring and coil
/// contact at step `dt`; spring-seat force means on the output intervals.
pub fn reference(cfg: &CaseConfig, dt: f64) -> Result<Table, String> {
    let vt = cfg.train(
        SpringModel::MultiMass { coil_contact: true },
        cfg.cam.cam_speed,
    )?;
    let ncp = ContactModel::Ncp {
        c: vt.spring.segment_stiffness,
    };
    converged(
        cfg,
        &vt,
        ncp,
        Stepping::Fixed { dt, order: 2 },
        "the fine NCP-BDF2 run",
    )
}

/// A penalty method's own converged reference: the same model (its spring
/// model, its penalty contact) by adaptive BDF2 at `tolerance` (first step
/// 1e-7 s); spring-seat force means on the output intervals.
pub fn penalty_reference(
    cfg: &CaseConfig,
    m: &MethodConfig,
    tolerance: f64,
) -> Result<Table, String> {
    let vt = cfg.train(m.model, cfg.cam.cam_speed)?;
    let stepping = Stepping::Adaptive {
        tolerance,
        first_step: 1e-7,
    };
    converged(cfg, &vt, m.contact, stepping, "the converged penalty run")
}

/// The run of `vt` over the case's revolutions: spring-seat force means on
/// the output intervals, described as `what`'s.
fn converged(
    cfg: &CaseConfig,
    vt: &Valvetrain,
    contact: ContactModel,
    stepping: Stepping,
    what: &str,
) -> Result<Table, String> {
    let t_end = cfg.revolutions as f64 * cfg.period();
    let (trace, _) = simulate(vt, contact, stepping, t_end, cfg.max_steps)?;
    let at = output_times(cfg);
    let angle = angles(cfg, &at);
    Ok(Table::new()
        .with("t", "time [s]", at.clone())
        .with(
            "cam_angle",
            "cam angle within the last revolution [deg]",
            angle,
        )
        .with(
            "spring_seat_force",
            format!("spring-seat force of {what}, mean over the output interval ending here [N]"),
            interval_means(&trace.t, &trace.spring_seat, &at),
        ))
}

/// The jump speed of method `m` by bisection: (low, high, evaluations,
/// steps over all evaluations); `low` keeps the follower on the cam,
/// `high` lifts it off.
pub fn jump_speed(cfg: &CaseConfig, m: &MethodConfig) -> Result<(f64, f64, usize, usize), String> {
    let j = cfg.jump.ok_or("no [jump] table")?;
    let mut steps = 0;
    let mut evaluations = 0;
    let mut lifts = |speed: f64| -> Result<bool, String> {
        let (vt, trace, stats) = run_at_speed(cfg, m, speed)?;
        steps += stats.steps;
        evaluations += 1;
        let t_end = *trace.t.last().unwrap_or(&0.0);
        Ok(analyse(&vt, &trace, 0.0, t_end).liftoff)
    };
    if lifts(j.low)? {
        return Err(format!(
            "the follower already lifts off at jump.low = {} rev/s: lower it",
            j.low
        ));
    }
    if !lifts(j.high)? {
        return Err(format!(
            "the follower stays on the cam at jump.high = {} rev/s: raise it",
            j.high
        ));
    }
    let (mut lo, mut hi) = (j.low, j.high);
    while hi - lo > j.resolution {
        let mid = 0.5 * (lo + hi);
        if lifts(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok((lo, hi, evaluations, steps))
}

/// Runs method `m` of the case: the revolutions at the case's speed, then
/// (with `[jump]`) the bisection.
pub fn run_method(cfg: &CaseConfig, m: &MethodConfig) -> Result<MethodOutput, SolverError> {
    let fail = |message: String| SolverError::other(m.label.clone(), message);
    let (vt, trace, stats) = run_at_speed(cfg, m, cfg.cam.cam_speed).map_err(fail)?;
    let at = output_times(cfg);
    let (t0, t1) = (at[0], *at.last().expect("times"));
    let a = analyse(&vt, &trace, t0, t1);
    // The spring's dynamic force: seat force minus its quasi-static value
    // at the same lift, per step, then means over windows of
    // `force_window` (coil impacts are impulses whose point values grow as
    // the step shrinks; window means converge).
    let statics = static_force(&vt, cfg).map_err(fail)?;
    let dynamic: Vec<f64> = (0..trace.t.len())
        .map(|k| trace.spring_seat[k] - statics(trace.valve[k]))
        .collect();
    let windows = ((t1 - t0) / cfg.force_window).round().max(1.0) as usize;
    let window_times: Vec<f64> = (0..=windows)
        .map(|k| t0 + (t1 - t0) * k as f64 / windows as f64)
        .collect();
    let dynamic_windows = interval_means(&trace.t, &dynamic, &window_times);
    let seat_windows = interval_means(&trace.t, &trace.spring_seat, &window_times);
    let deviation = dynamic_windows[1..]
        .iter()
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let seat_peak = seat_windows[1..].iter().fold(0.0f64, |m, x| m.max(*x));
    let dynamic_means = interval_means(&trace.t, &dynamic, &at);
    let angle = angles(cfg, &at);
    let lift = resample(&trace.t, &trace.valve, &at);
    let velocity = resample(&trace.t, &trace.valve_velocity, &at);
    let h = at[1] - at[0];
    let acceleration: Vec<f64> = (0..at.len())
        .map(|k| {
            let (a0, a1) = (k.saturating_sub(1), (k + 1).min(at.len() - 1));
            (velocity[a1] - velocity[a0]) / ((a1 - a0) as f64 * h)
        })
        .collect();
    let profile = resample(&trace.t, &trace.profile, &at);
    let seat_sample = resample(&trace.t, &trace.spring_seat, &at);
    let dynamic_sample: Vec<f64> = dynamic_means[1..].to_vec();
    let series = Table::new()
        .with("t", "time [s]", at.clone())
        .with("cam_angle", "cam angle within the last revolution [deg]", angle)
        .with("profile", "cam surface h(theta) - lash [m]", profile)
        .with("valve_lift", "valve lift x_v [m]", lift)
        .with("follower", "follower position x_f [m]", resample(&trace.t, &trace.follower, &at))
        .with("valve_velocity", "valve velocity [m/s]", velocity)
        .with(
            "valve_acceleration",
            "valve acceleration, central differences of the sampled velocity [m/s^2]",
            acceleration,
        )
        .with(
            "cam_force",
            "cam-follower contact force, mean over the output interval ending here [N]",
            interval_means(&trace.t, &trace.cam_force, &at),
        )
        .with(
            "valve_seat_force",
            "valve-seat contact force, mean over the output interval ending here [N]",
            interval_means(&trace.t, &trace.valve_seat_force, &at),
        )
        .with(
            "spring_seat_force",
            "the spring's force on its seat in the head, mean over the output interval ending here [N]",
            interval_means(&trace.t, &trace.spring_seat, &at),
        )
        .with(
            "spring_seat_sample",
            "the spring's force on its seat, sampled [N]",
            seat_sample,
        )
        .with(
            "dynamic_seat_force",
            "spring-seat force minus its quasi-static value at the same lift, mean over the output interval ending here [N]",
            dynamic_means,
        );
    // Harmonics of the spring-seat force up to 2.5 x the surge frequency.
    let surge = vt.spring.params.surge_frequency();
    let n_max = ((2.5 * surge / cfg.cam.cam_speed).ceil() as usize)
        .clamp(1, cfg.samples_per_revolution / 2 - 1);
    let amplitudes = harmonics(&dynamic_sample, n_max);
    let orders: Vec<f64> = (1..=n_max).map(|n| n as f64).collect();
    let freqs: Vec<f64> = orders.iter().map(|n| n * cfg.cam.cam_speed).collect();
    let spectrum = Table::new()
        .with("harmonic", "cam order n [-]", orders)
        .with("frequency", "n x cam frequency [Hz]", freqs)
        .with(
            "amplitude",
            "amplitude of the n-th harmonic of the spring's dynamic seat force (seat force minus its quasi-static value) over the last revolution [N]",
            amplitudes,
        );
    let mut scalars = revolution_scalars(&a, &trace, &stats, seat_peak, deviation);
    if cfg.jump.is_some() {
        let (lo, hi, evaluations, steps) = jump_speed(cfg, m).map_err(fail)?;
        scalars.extend(jump_scalars(lo, hi, evaluations, steps));
    }
    Ok(MethodOutput {
        series,
        tables: vec![CaseTable {
            what: "spectrum".into(),
            doc: "harmonics of the spring-seat force over the last revolution".into(),
            table: spectrum,
        }],
        scalars,
        counters: vec![
            ("steps".into(), stats.steps as f64),
            ("rejected_steps".into(), stats.rejected as f64),
            ("newton_iterations".into(), stats.newton_iterations as f64),
            ("factorizations".into(), stats.factorizations as f64),
            ("max_newton".into(), stats.max_newton as f64),
            ("restarts".into(), stats.restarts as f64),
            ("regularized".into(), stats.regularized as f64),
        ],
        stats: Vec::new(),
    })
}

/// The scalars of the last revolution: its analysis `a`, the contact
/// residuals of `trace`, the steps, and the spring-seat force's peak and
/// dynamic deviation over windows.
fn revolution_scalars(
    a: &Analysis,
    trace: &Trace,
    stats: &BdfStats,
    seat_peak: f64,
    deviation: f64,
) -> Vec<Scalar> {
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    vec![
        Scalar::new(
            "steps",
            stats.steps as f64,
            "accepted steps over all revolutions [-]",
        ),
        Scalar::new(
            "liftoff",
            flag(a.liftoff),
            "1 if the follower left the cam while it lifted (last revolution) [-]",
        ),
        Scalar::new(
            "min_cam_force",
            a.min_cam_force,
            "smallest cam-follower force while the cam lifts, last revolution [N]",
        ),
        Scalar::new(
            "max_separation",
            a.max_separation,
            "largest cam-follower gap, last revolution [m]",
        ),
        Scalar::new(
            "max_lift",
            a.max_lift,
            "largest valve lift, last revolution [m]",
        ),
        Scalar::new(
            "impact_velocity",
            a.impact_velocity,
            "largest closing speed of the valve when it lands on its seat, last revolution [m/s]",
        ),
        Scalar::new(
            "bounce_height",
            a.bounce_height,
            "largest valve lift after the first landing, last revolution [m]",
        ),
        Scalar::new(
            "reopenings",
            a.reopenings as f64,
            "times the valve lifts more than 1 µm off its seat again after landing, last revolution [-]",
        ),
        Scalar::new(
            "closes",
            flag(a.closes),
            "1 if the valve is on its seat at the end of the revolution [-]",
        ),
        Scalar::new(
            "closing_angle",
            a.closing_angle,
            "cam angle of the valve's last landing within the revolution [deg]",
        ),
        Scalar::new(
            "tracking_error",
            a.tracking_error,
            "largest |x_f - (h - lash)| while the cam pushes [m]",
        ),
        Scalar::new(
            "valve_deviation",
            a.valve_deviation,
            "largest |x_v - max(h - lash, 0)|, last revolution [m]",
        ),
        Scalar::new(
            "seat_force_peak",
            seat_peak,
            "largest spring-seat force, means over force_window, last revolution [N]",
        ),
        Scalar::new(
            "seat_force_deviation",
            deviation,
            "the spring's dynamic force: largest |mean over force_window of (spring-seat force - its quasi-static value at the same lift)| (F0 + k x_v, or the static curve with coil contact), last revolution [N]",
        ),
        Scalar::new(
            "max_penetration",
            trace.worst.0,
            "largest penetration of any contact (cam, seat, coils) at any step [m]",
        ),
        Scalar::new(
            "max_complementarity",
            trace.worst.1,
            "largest |lambda g| / (k_s d^2) at any step [-]",
        ),
        Scalar::new(
            "min_lambda",
            -trace.worst.2,
            "most negative contact force at any step [N]",
        ),
    ]
}

/// The scalars of the jump-speed bisection: bracket [lo, hi], its
/// simulations and their steps.
fn jump_scalars(lo: f64, hi: f64, evaluations: usize, steps: usize) -> Vec<Scalar> {
    vec![
        Scalar::new(
            "jump_speed",
            0.5 * (lo + hi),
            "the camshaft speed at which the follower first lifts off the cam, middle of the bisection bracket [rev/s]",
        ),
        Scalar::new(
            "jump_low",
            lo,
            "highest speed found without lift-off [rev/s]",
        ),
        Scalar::new("jump_high", hi, "lowest speed found with lift-off [rev/s]"),
        Scalar::new(
            "jump_evaluations",
            evaluations as f64,
            "simulations of the bisection [-]",
        ),
        Scalar::new(
            "jump_steps",
            steps as f64,
            "BDF steps over the bisection's simulations [-]",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pure harmonic's amplitude comes back exactly; others are zero.
    #[test]
    fn harmonics_of_a_sampled_cosine() {
        let n = 64;
        let y: Vec<f64> = (0..n)
            .map(|k| 3.0 + 2.5 * (2.0 * PI * 5.0 * k as f64 / n as f64 + 0.3).cos())
            .collect();
        let a = harmonics(&y, 10);
        for (h, v) in a.iter().enumerate() {
            let expected = if h + 1 == 5 { 2.5 } else { 0.0 };
            assert!((v - expected).abs() < 1e-12, "{h}: {v}");
        }
    }
}
