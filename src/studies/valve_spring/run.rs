//! Running one method of a valve-spring case: integrate the spring under
//! the cam lift, record the seat force, the contact state and the energy
//! at every accepted step, resample at the output times. Also the case's
//! quasi-static force-deflection curve (an LCP per deflection, Lemke) and
//! the chain's natural frequency (eigenvalues of the assembled matrices).

use nalgebra::{DMatrix, DVector};

use crate::error::SolverError;
use crate::harness::study::{MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::{BdfContact, BdfState, BdfStats, ContactModel, Stepping};
use crate::integrators::diffsol_penalty::{self, DiffsolMethod, DiffsolSettings, DiffsolStats};
use crate::lcp::Lcp;
use crate::lcp::lemke::{LemkeParams, lemke};
use crate::models::valve_spring::Spring;
use crate::studies::valve_spring::spec::{CaseConfig, MethodConfig};

/// What every accepted step records.
#[derive(Default)]
struct Trace {
    t: Vec<f64>,
    seat: Vec<f64>,
    closed: Vec<f64>,
    min_gap: Vec<f64>,
    energy: Vec<f64>,
    work: Vec<f64>,
    damping: Vec<f64>,
    /// Per accepted step, the pairs carrying force (lambda > 0 or gap <= 0).
    closed_sets: Vec<Vec<u16>>,
    /// Largest penetration, largest |lambda g| / (k_s d^2), negative lambda.
    worst: (f64, f64, f64),
}

/// Stored energy: kinetic plus the active segments' strain energy [J].
fn energy(sp: &Spring, s: &BdfState, ret: f64) -> f64 {
    let nb = sp.end_segments;
    let kinetic: f64 = s.v.iter().map(|v| 0.5 * sp.node_mass * v * v).sum();
    let strain: f64 = (nb..nb + sp.active_segments)
        .map(|j| {
            let e = sp.position(j + 1, &s.q, ret)
                - sp.position(j, &s.q, ret)
                - (sp.free_positions[j + 1] - sp.free_positions[j]);
            0.5 * sp.segment_stiffness * e * e
        })
        .sum();
    kinetic + strain
}

/// Viscous power of the segment dampers [W].
fn damping_power(sp: &Spring, s: &BdfState, r: (f64, f64)) -> f64 {
    let nb = sp.end_segments;
    (nb..nb + sp.active_segments)
        .map(|j| {
            let dv = sp.velocity(j + 1, &s.v, r.1) - sp.velocity(j, &s.v, r.1);
            sp.segment_damping * dv * dv
        })
        .sum()
}

/// The mean of a step function over each output interval: `y[k]` acts over
/// the step (t[k-1], t[k]] (the BDF's contact force is the step's, an
/// impulse lambda h at an impact), and its integral over [at[i-1], at[i]]
/// divided by the interval's length is the value at at[i] (at[0]: y[0]).
/// Impulsive contact forces make point values of the seat force grow as
/// the step shrinks; their interval means converge.
pub fn interval_means(t: &[f64], y: &[f64], at: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(at.len());
    out.push(y.first().copied().unwrap_or(f64::NAN));
    let mut k = 1;
    for w in at.windows(2) {
        let (a, b) = (w[0], w[1]);
        let mut integral = 0.0;
        while k < t.len() && t[k - 1] < b {
            let lo = t[k - 1].max(a);
            let hi = t[k].min(b);
            if hi > lo {
                integral += y[k] * (hi - lo);
            }
            if t[k] <= b {
                k += 1;
            } else {
                break;
            }
        }
        out.push(if b > a {
            integral / (b - a)
        } else {
            y[k.min(y.len() - 1)]
        });
    }
    out
}

/// What a window-mean error measures: the series column, its name in the
/// docs, and the windows (`intervals` output intervals of `window` s).
pub struct WindowMeasure<'a> {
    /// The series column (`seat_force`, `spring_seat_force`).
    pub column: &'a str,
    /// The quantity in words (`seat force`).
    pub quantity: &'a str,
    /// Output intervals per window.
    pub intervals: usize,
    /// The window [s].
    pub window: f64,
}

/// The converged reference a method is measured against (like for like):
/// the fine NCP run `ncp` for an NCP method, its own `reference-<label>`
/// table (the same penalty model converged) for a penalty method, with the
/// words that describe it; None for a penalty method without its table.
pub fn own_reference<'a>(
    label: &str,
    contact: ContactModel,
    ncp: &'a Table,
    table: impl Fn(&str) -> Option<&'a Table>,
) -> Option<(&'a Table, &'static str)> {
    match contact {
        ContactModel::Ncp { .. } => Some((ncp, "the fine NCP reference")),
        ContactModel::Penalty { .. } => {
            table(&crate::studies::valve_spring::penalty_reference_name(label))
                .map(|t| (t, "its own converged penalty reference"))
        }
    }
}

/// A run's window-mean errors of `m.column`: `max_error_<column>` against
/// `own` (its discretisation error: the same model converged),
/// `error_vs_ncp_<column>` against the fine NCP run (discretisation error
/// and model gap) and, for a penalty method, `model_gap_<column>` (its
/// converged reference against the NCP one). Empty when a column is
/// missing.
pub fn like_for_like_errors(
    series: &Table,
    (own, own_doc): (&Table, &str),
    ncp: &Table,
    contact: ContactModel,
    m: &WindowMeasure,
) -> Vec<Scalar> {
    let (Some(a), Some(b), Some(n)) = (
        series.values(m.column),
        own.values(m.column),
        ncp.values(m.column),
    ) else {
        return Vec::new();
    };
    let (column, quantity, window, w) = (m.column, m.quantity, m.window, m.intervals);
    let mut scalars = vec![
        Scalar::new(
            format!("max_error_{column}"),
            window_error(a, b, w),
            format!(
                "discretisation error: max over windows of {window} s of |mean {quantity} - mean of {own_doc}| (the same model) [N]"
            ),
        ),
        Scalar::new(
            format!("error_vs_ncp_{column}"),
            window_error(a, n, w),
            format!(
                "max over windows of {window} s of |mean {quantity} - mean of the fine NCP reference| (discretisation error and model gap) [N]"
            ),
        ),
    ];
    if matches!(contact, ContactModel::Penalty { .. }) {
        scalars.push(Scalar::new(
            format!("model_gap_{column}"),
            window_error(b, n, w),
            format!("model gap: max over windows of {window} s of |mean of the converged penalty reference - mean of the fine NCP reference| [N]"),
        ));
    }
    scalars
}

/// max over consecutive windows of `w` samples of |mean(a) - mean(b)|
/// (the first sample, t = 0, left out).
pub fn window_error(a: &[f64], b: &[f64], w: usize) -> f64 {
    let n = a.len().min(b.len());
    let mut worst = 0.0f64;
    let mut k = 1;
    while k + w <= n {
        let ma: f64 = a[k..k + w].iter().sum::<f64>() / w as f64;
        let mb: f64 = b[k..k + w].iter().sum::<f64>() / w as f64;
        worst = worst.max((ma - mb).abs());
        k += w;
    }
    worst
}

/// (max |F - F_ref|, that over max |F_ref|) of a static curve against an
/// independent one, interpolated linearly at the reference's deflections
/// inside the curve's range.
pub fn static_error(curve: &Table, reference: &Table) -> (f64, f64) {
    let (Some(d), Some(f)) = (curve.values("delta"), curve.values("seat_force")) else {
        return (f64::NAN, f64::NAN);
    };
    let (Some(rd), Some(rf)) = (reference.values("delta"), reference.values("seat_force")) else {
        return (f64::NAN, f64::NAN);
    };
    let last = d.last().copied().unwrap_or(0.0);
    let (mut worst, mut scale) = (0.0f64, 0.0f64);
    for (&x, &y) in rd.iter().zip(rf) {
        if x > last * (1.0 + 1e-12) {
            continue;
        }
        let v = resample(d, f, &[x])[0];
        worst = worst.max((v - y).abs());
        scale = scale.max(y.abs());
    }
    (worst, worst / scale.max(1e-300))
}

/// Linear interpolation of (t, y) at `at`.
pub fn resample(t: &[f64], y: &[f64], at: &[f64]) -> Vec<f64> {
    let mut k = 0;
    at.iter()
        .map(|&x| {
            while k + 2 < t.len() && t[k + 1] < x {
                k += 1;
            }
            if t.len() < 2 {
                return y.first().copied().unwrap_or(f64::NAN);
            }
            let (t0, t1) = (t[k], t[k + 1]);
            let w = if t1 > t0 {
                ((x - t0) / (t1 - t0)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            y[k] + w * (y[k + 1] - y[k])
        })
        .collect()
}

/// A run's counters: accepted steps, Newton iterations and every counter
/// by name (the study's `COUNTER_DOCS`).
struct Counters {
    steps: usize,
    newton: usize,
    list: Vec<(String, f64)>,
}

impl Counters {
    fn bdf(s: &BdfStats) -> Self {
        Self {
            steps: s.steps,
            newton: s.newton_iterations,
            list: [
                ("steps", s.steps),
                ("rejected_steps", s.rejected),
                ("newton_iterations", s.newton_iterations),
                ("factorizations", s.factorizations),
                ("max_newton", s.max_newton),
                ("restarts", s.restarts),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), *v as f64))
            .collect(),
        }
    }

    fn diffsol(s: &DiffsolStats) -> Self {
        Self {
            steps: s.steps,
            newton: s.newton_iterations,
            list: [
                ("steps", s.steps),
                ("rejected_steps", s.error_test_failures + s.newton_failures),
                ("newton_iterations", s.newton_iterations),
                ("factorizations", s.factorizations),
                ("rhs_evaluations", s.rhs_evaluations),
                ("jacobian_products", s.jacobian_products),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), *v as f64))
            .collect(),
        }
    }
}

/// diffsol's runs report states from their dense output at least this
/// many times per output interval (the seat force's interval means are
/// step-function quadratures of the reported states: a method of higher
/// order with long steps needs the samples within its steps for its means
/// to have its accuracy).
const DENSE_SAMPLES: f64 = 32.0;

/// The integrator of a method: this crate's BDF (`bdf_contact`) or one of
/// diffsol's (the penalty model only).
fn engine(name: &str) -> Option<DiffsolMethod> {
    match name {
        "penalty-diffsol-bdf" => Some(DiffsolMethod::Bdf),
        "penalty-diffsol-sdirk" => Some(DiffsolMethod::TrBdf2),
        _ => None,
    }
}

/// Integrates one method (`engine`: None for this crate's BDF); returns
/// the trace and the integrator's counters.
fn integrate(
    cfg: &CaseConfig,
    contact: ContactModel,
    stepping: Stepping,
    engine: Option<DiffsolMethod>,
) -> Result<(Trace, Counters), String> {
    let sp = &cfg.spring;
    let system = sp.prescribed_system(cfg.cam);
    let start = BdfState {
        t: 0.0,
        q: sp.installed_state(),
        v: vec![0.0; sp.dofs()],
        lambda: vec![0.0; sp.pairs.len()],
    };
    let mut trace = Trace::default();
    let scale = sp.segment_stiffness * sp.params.wire_diameter.powi(2);
    let mut prev: Option<(f64, f64, f64)> = None; // (t, retainer power, damping power)
    let mut record = |s: &BdfState, trace: &mut Trace| {
        let (h, hd, _) = cfg.cam.at(s.t);
        let r = (h, hd);
        trace.t.push(s.t);
        trace.seat.push(sp.seat_force(&s.q, &s.v, r, &s.lambda));
        let mut closed = 0.0;
        let mut set = Vec::new();
        let mut min_gap = f64::INFINITY;
        for p in 0..sp.pairs.len() {
            let g = sp.gap(p, &s.q, h);
            min_gap = min_gap.min(g);
            let l = s.lambda[p];
            // Closed: carrying a force above 1e-9 k_s d (an inactive NCP
            // contact's lambda is zero to round-off, about 1e-14 N), or
            // penetrated.
            if sp.carries_force(l) || g < 0.0 {
                closed += 1.0;
                set.push(p as u16);
            }
            trace.worst.0 = trace.worst.0.max(-g);
            trace.worst.1 = trace.worst.1.max((l * g).abs() / scale);
            trace.worst.2 = trace.worst.2.max(-l);
        }
        trace.closed.push(closed);
        trace.closed_sets.push(set);
        trace.min_gap.push(min_gap);
        trace.energy.push(energy(sp, s, h));
        let pw = sp.retainer_force(&s.q, &s.v, r, &s.lambda) * hd;
        let pd = damping_power(sp, s, r);
        let (w, d) = match prev {
            None => (0.0, 0.0),
            Some((t0, pw0, pd0)) => (
                trace.work.last().copied().unwrap_or(0.0) + 0.5 * (pw + pw0) * (s.t - t0),
                trace.damping.last().copied().unwrap_or(0.0) + 0.5 * (pd + pd0) * (s.t - t0),
            ),
        };
        trace.work.push(w);
        trace.damping.push(d);
        prev = Some((s.t, pw, pd));
    };
    record(&start, &mut trace);
    let mut on_step = |s: &BdfState| record(s, &mut trace);
    let counters = match (engine, contact, stepping) {
        (None, ..) => {
            let mut bdf = BdfContact::new(&system, contact)?;
            let result = bdf.integrate(
                start.clone(),
                cfg.t_end,
                stepping,
                cfg.max_steps,
                &mut on_step,
            );
            result.map_err(|e| e.to_string())?;
            Counters::bdf(&bdf.stats)
        }
        (
            Some(method),
            ContactModel::Penalty { stiffness, damping },
            Stepping::Adaptive {
                tolerance,
                first_step,
            },
        ) => {
            let settings = DiffsolSettings {
                method,
                tolerance,
                first_step,
                max_steps: cfg.max_steps,
                sample_spacing: cfg.output_interval / DENSE_SAMPLES,
            };
            let stats = diffsol_penalty::integrate(
                &system,
                (stiffness, damping),
                &start,
                cfg.t_end,
                settings,
                &mut on_step,
            )?;
            Counters::diffsol(&stats)
        }
        (Some(_), ..) => {
            return Err("diffsol integrates the penalty model with error control only".into());
        }
    };
    Ok((trace, counters))
}

/// The output times.
pub fn output_times(cfg: &CaseConfig) -> Vec<f64> {
    let n = (cfg.t_end / cfg.output_interval).round() as usize;
    (0..=n)
        .map(|k| (k as f64 * cfg.output_interval).min(cfg.t_end))
        .collect()
}

/// The reference: NCP-BDF2 at the fine step, seat force at the output
/// times.
pub fn reference(cfg: &CaseConfig, dt: f64) -> Result<Table, String> {
    converged(
        cfg,
        ContactModel::Ncp {
            c: cfg.spring.segment_stiffness,
        },
        Stepping::Fixed { dt, order: 2 },
        "the fine NCP-BDF2 run",
    )
}

/// A penalty method's own converged reference: the same penalty model by
/// adaptive BDF2 at `tolerance` (first step 1e-7 s), seat force at the
/// output times.
pub fn penalty_reference(
    cfg: &CaseConfig,
    contact: ContactModel,
    tolerance: f64,
) -> Result<Table, String> {
    converged(
        cfg,
        contact,
        Stepping::Adaptive {
            tolerance,
            first_step: 1e-7,
        },
        "the converged penalty run",
    )
}

fn converged(
    cfg: &CaseConfig,
    contact: ContactModel,
    stepping: Stepping,
    what: &str,
) -> Result<Table, String> {
    let (trace, _) = integrate(cfg, contact, stepping, None)?;
    let at = output_times(cfg);
    let seat = interval_means(&trace.t, &trace.seat, &at);
    let angle: Vec<f64> = at.iter().map(|&t| cfg.cam.angle(t).to_degrees()).collect();
    Ok(Table::new()
        .with("t", "time [s]", at)
        .with("cam_angle", "cam angle [deg]", angle)
        .with(
            "seat_force",
            format!("seat force of {what}, mean over the output interval ending here [N]"),
            seat,
        ))
}

/// Runs method `m` of the case.
pub fn run_method(cfg: &CaseConfig, m: &MethodConfig) -> Result<MethodOutput, SolverError> {
    let (trace, stats) =
        integrate(cfg, m.contact, m.stepping, engine(m.name)).map_err(|message| {
            SolverError::Other {
                method: m.label.clone(),
                message,
            }
        })?;
    let at = output_times(cfg);
    let seat = interval_means(&trace.t, &trace.seat, &at);
    let closed = resample(&trace.t, &trace.closed, &at);
    let gap = resample(&trace.t, &trace.min_gap, &at);
    let e0 = trace.energy[0];
    let loss: Vec<f64> = (0..trace.t.len())
        .map(|k| trace.work[k] - (trace.energy[k] - e0) - trace.damping[k])
        .collect();
    let work_scale = trace
        .work
        .iter()
        .fold(0.0f64, |a, w| a.max(w.abs()))
        .max(1e-300);
    let min_loss = loss.iter().fold(0.0f64, |a, x| a.min(*x));
    let final_loss = *loss.last().unwrap_or(&0.0);
    let lift: Vec<f64> = at.iter().map(|&t| cfg.cam.at(t).0).collect();
    let angle: Vec<f64> = at.iter().map(|&t| cfg.cam.angle(t).to_degrees()).collect();
    let peak = trace.seat.iter().fold(0.0f64, |a, x| a.max(*x));
    let max_closed = trace.closed.iter().fold(0.0f64, |a, x| a.max(*x));
    let series = Table::new()
        .with("t", "time [s]", at.clone())
        .with("cam_angle", "cam angle [deg]", angle)
        .with("lift", "valve lift h [m]", lift)
        .with(
            "seat_force",
            "force of the spring on the seat (compression positive), mean over the output interval ending here [N]",
            seat,
        )
        .with(
            "seat_force_sample",
            "seat force at the output time (linear between accepted steps; impulsive at NCP impacts) [N]",
            resample(&trace.t, &trace.seat, &at),
        )
        .with(
            "closed_pairs",
            "contact pairs closed (lambda above 1e-9 k_s d, or gap < 0) [-]",
            closed,
        )
        .with("min_gap", "smallest coil gap (negative: penetration) [m]", gap)
        .with(
            "energy_loss",
            "work of the retainer - stored energy change - damper dissipation: energy lost in coil impacts and by the BDF's numerical damping [J]",
            resample(&trace.t, &loss, &at),
        );
    let scalars = vec![
        Scalar::new("steps", stats.steps as f64, "accepted steps [-]"),
        Scalar::new("peak_seat_force", peak, "largest seat force [N]"),
        Scalar::new(
            "max_closed_pairs",
            max_closed,
            "most contact pairs closed at once [-]",
        ),
        Scalar::new(
            "max_penetration",
            trace.worst.0,
            "largest penetration -min(gap, 0) over every step [m]",
        ),
        Scalar::new(
            "max_complementarity",
            trace.worst.1,
            "largest |lambda g| / (k_s d^2) over every step and pair [-]: 0 for Signorini",
        ),
        Scalar::new(
            "min_lambda",
            -trace.worst.2,
            "smallest contact force over every step and pair [N]: >= 0",
        ),
        Scalar::new(
            "min_energy_loss",
            min_loss / work_scale,
            "smallest energy loss (retainer work - stored energy change - damper dissipation) over the peak retainer work [-]: never below 0 (no energy created)",
        ),
        Scalar::new(
            "energy_loss",
            final_loss / work_scale,
            "the energy lost in impacts and by numerical damping at t_end over the peak retainer work [-]",
        ),
        Scalar::new(
            "mean_newton",
            stats.newton as f64 / stats.steps.max(1) as f64,
            "Newton iterations per accepted step [-]",
        ),
    ];
    // The coil-clash map: at every output time, the pairs closed at the
    // last accepted step up to it (one row per closed pair).
    let (mut ca, mut cp) = (Vec::new(), Vec::new());
    let mut k = 0;
    for &t in &at {
        while k + 1 < trace.t.len() && trace.t[k + 1] <= t * (1.0 + 1e-12) {
            k += 1;
        }
        for &p in &trace.closed_sets[k] {
            ca.push(cfg.cam.angle(t).to_degrees());
            cp.push(p as f64);
        }
    }
    let clash = Table::new().with("cam_angle", "cam angle [deg]", ca).with(
        "pair",
        "contact pair index (0 = lowest along the wire) [-]",
        cp,
    );
    Ok(MethodOutput {
        series,
        tables: vec![crate::harness::study::CaseTable {
            what: "clash".into(),
            doc: "coil-clash map: the closed contact pairs at each output time".into(),
            table: clash,
        }],
        scalars,
        counters: stats.list,
        stats: Vec::new(),
    })
}

/// The quasi-static problem of a spring: the retainer moved by delta
/// from the free length (no dynamics, no damping), equilibrium with
/// Signorini contacts as an LCP in the contact forces:
/// K z = f(delta) + B^T lambda, g = B z - b(delta) >= 0, so with
/// z = K^-1 (f + B^T lambda): g = (B K^-1 B^T) lambda + (B K^-1 f - b).
struct StaticProblem {
    chol: nalgebra::Cholesky<f64, nalgebra::Dyn>,
    bm: DMatrix<f64>,
    kinv_bt: DMatrix<f64>,
    delassus: DMatrix<f64>,
}

impl StaticProblem {
    fn new(sp: &Spring) -> Result<Self, String> {
        let n = sp.dofs();
        let m = sp.pairs.len();
        let k = chain_matrix(n, sp.segment_stiffness);
        let chol = k
            .cholesky()
            .ok_or("the chain's stiffness is not positive definite")?;
        let mut bm = DMatrix::zeros(m, n);
        for (p, &(i, j)) in sp.pairs.iter().enumerate() {
            if let Some(a) = sp.free_index(i) {
                bm[(p, a)] = -1.0;
            }
            if let Some(b) = sp.free_index(j) {
                bm[(p, b)] = 1.0;
            }
        }
        let kinv_bt = chol.solve(&bm.transpose());
        let delassus = &bm * &kinv_bt;
        Ok(Self {
            chol,
            bm,
            kinv_bt,
            delassus,
        })
    }

    /// The retainer's displacement s below its installed position, the
    /// contact-free positions K^-1 f and the contact LCP at deflection
    /// delta from the free length.
    fn at(&self, sp: &Spring, delta: f64) -> Result<(f64, DVector<f64>, Lcp), String> {
        let n = sp.dofs();
        let zero = vec![0.0; n];
        // Retainer at delta below the free length: s = delta - (L0 - L_inst).
        let s = delta - (sp.params.free_length - sp.params.installed_length);
        // f: the segment forces from the prescribed nodes at z = 0 (the
        // internal forces are -K z + f), g at z = 0 is -b.
        let mut f = vec![0.0; n];
        sp.internal_forces(&zero, &zero, (s, 0.0), &mut f);
        let g0: Vec<f64> = (0..sp.pairs.len()).map(|q| sp.gap(q, &zero, s)).collect();
        let z_free = self.chol.solve(&DVector::from_vec(f));
        let q = &self.bm * &z_free + DVector::from_vec(g0);
        let lcp = Lcp::new(self.delassus.clone(), q).ok_or("LCP dimensions")?;
        Ok((s, z_free, lcp))
    }
}

/// The quasi-static force-deflection curve at `points` deflections
/// evenly from 0 to `max_deflection`: the LCP of [`StaticProblem`] solved
/// by Lemke at each; `closed_pairs` counts the pairs whose force exceeds
/// [`Spring::closed_force_threshold`] (1e-9 k_s d), as the dynamic series
/// do.
pub fn static_curve(sp: &Spring, max_deflection: f64, points: usize) -> Result<Table, String> {
    let problem = StaticProblem::new(sp)?;
    let zero = vec![0.0; sp.dofs()];
    let mut deltas = Vec::with_capacity(points);
    let mut forces = Vec::with_capacity(points);
    let mut closed = Vec::with_capacity(points);
    for p in 0..points {
        let delta = max_deflection * p as f64 / (points - 1) as f64;
        let (s, z_free, lcp) = problem.at(sp, delta)?;
        let sol = lemke(&lcp, &LemkeParams::default())
            .map_err(|e| format!("Lemke at delta = {delta}: {e}"))?;
        let lambda = DVector::from_vec(sol.z.clone());
        let z = &z_free + &problem.kinv_bt * &lambda;
        let zs: Vec<f64> = z.iter().copied().collect();
        deltas.push(delta);
        forces.push(sp.seat_force(&zs, &zero, (s, 0.0), &sol.z));
        // Closed: carrying a force above 1e-9 k_s d, the dynamic series'
        // threshold (Lemke leaves round-off in the forces of pairs at zero
        // gap that carry none). Not the gap: Lemke's gaps at such pairs are
        // zero to round-off, of either sign.
        closed.push(sol.z.iter().filter(|&&l| sp.carries_force(l)).count() as f64);
    }
    Ok(Table::new()
        .with("delta", "deflection from the free length [m]", deltas)
        .with(
            "seat_force",
            "static seat force (Lemke on the contact LCP) [N]",
            forces,
        )
        .with(
            "closed_pairs",
            "contact pairs carrying a force above 1e-9 k_s d [-]",
            closed,
        ))
}

/// The n x n chain matrix tridiag(-k, 2 k, -k): the stiffness of n lumps
/// between fixed ends joined by springs k.
fn chain_matrix(n: usize, k: f64) -> DMatrix<f64> {
    DMatrix::from_fn(n, n, |i, j| {
        if i == j {
            2.0 * k
        } else if i.abs_diff(j) == 1 {
            -k
        } else {
            0.0
        }
    })
}

/// The chain's first natural frequency without contact, both ends fixed,
/// from the eigenvalues of the assembled M^-1 K [Hz] (the bounded
/// eigen-solver of [`crate::guard`]).
pub fn first_frequency(sp: &Spring) -> Result<f64, SolverError> {
    let a = chain_matrix(sp.dofs(), sp.segment_stiffness / sp.node_mass);
    let eig = crate::guard::symmetric_eigenvalues("the spring chain's M^-1 K", a).map_err(|e| {
        SolverError::Other {
            method: "first frequency".into(),
            message: e.to_string(),
        }
    })?;
    let w2 = eig.iter().fold(f64::INFINITY, |a, &x| a.min(x));
    Ok(w2.sqrt() / (2.0 * std::f64::consts::PI))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::pgs::{PgsParams, pgs};
    use crate::models::valve_spring::SpringParams;

    /// A spring unlike the repository's (issue 17, item 3): at 41 static
    /// points, Lemke leaves round-off forces in pairs at zero gap that carry
    /// none (pair (3, 7) from delta = 7.3625 to 8.3125 mm). The static
    /// table's `closed_pairs` must count the pairs whose force exceeds
    /// 1e-9 k_s d, as an independent solver (projected Gauss-Seidel to
    /// round-off) finds them, and never drop under monotone loading.
    #[test]
    fn static_closed_pairs_count_the_pairs_carrying_force() {
        let sp = Spring::new(SpringParams {
            wire_diameter: 4.0e-3,
            mean_diameter: 24.0e-3,
            active_coils: 5.0,
            end_coils: 1.0,
            shear_modulus: 81.5e9,
            density: 7850.0,
            masses_per_coil: 4,
            free_length: 0.038,
            installed_length: 0.036,
            progressivity: 0.5,
            damping_ratio: 0.02,
        })
        .expect("spring");
        let max_deflection = sp.params.free_length - sp.params.solid_length() - 0.5e-3;
        let points = 41;
        let table = static_curve(&sp, max_deflection, points).expect("curve");
        let deltas = table.values("delta").expect("delta");
        let closed = table.values("closed_pairs").expect("closed_pairs");
        for w in closed.windows(2) {
            assert!(w[1] >= w[0], "closed pairs drop under loading: {closed:?}");
        }
        let problem = StaticProblem::new(&sp).expect("problem");
        let threshold = 1e-9 * sp.segment_stiffness * sp.params.wire_diameter;
        let params = PgsParams {
            max_sweeps: 1_000_000,
            tol: 1e-13,
            ..PgsParams::default()
        };
        let mut repro_rows = 0;
        for (&delta, &count) in deltas.iter().zip(closed) {
            let (_, _, lcp) = problem.at(&sp, delta).expect("lcp");
            let z = pgs(&lcp, &params, None).expect("pgs converges").z;
            let carrying = z.iter().filter(|&&l| l > threshold).count();
            // PGS leaves no force in the open pairs near the threshold: the
            // count does not depend on where between 1e-3 and 1e3 times the
            // threshold the line is drawn.
            assert!(
                z.iter()
                    .all(|&l| l <= 1e-3 * threshold || l >= 1e3 * threshold),
                "delta = {delta}: a force near the threshold {z:?}"
            );
            assert_eq!(count as usize, carrying, "delta = {delta}: {z:?}");
            if (7.36e-3..8.32e-3).contains(&delta) {
                repro_rows += 1;
            }
        }
        assert_eq!(repro_rows, 5, "the repro's deflections are on the grid");
    }
}
