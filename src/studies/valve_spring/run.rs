//! Running one method of a valve-spring case: integrate the spring under
//! the cam lift, record the seat force, the contact state and the energy
//! at every accepted step, resample at the output times. Also the case's
//! quasi-static force-deflection curve (an LCP per deflection, Lemke) and
//! the chain's natural frequency (eigenvalues of the assembled matrices).

use crate::error::SolverError;
use crate::harness::study::{MethodOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::{BdfContact, BdfStats, ContactModel, Stepping};
use crate::integrators::diffsol_penalty::{self, DiffsolMethod, DiffsolSettings, DiffsolStats};
use crate::models::valve_spring::Spring;
use crate::problem::ContactSystemState;
use crate::studies::shared::seat_force::chain_matrix;
use crate::studies::shared::seat_force::{interval_means, resample};
use crate::studies::shared::valve::ValveMethod;
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
fn energy(sp: &Spring, s: &ContactSystemState, ret: f64) -> f64 {
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
fn damping_power(sp: &Spring, s: &ContactSystemState, r: (f64, f64)) -> f64 {
    let nb = sp.end_segments;
    (nb..nb + sp.active_segments)
        .map(|j| {
            let dv = sp.velocity(j + 1, &s.v, r.1) - sp.velocity(j, &s.v, r.1);
            sp.segment_damping * dv * dv
        })
        .sum()
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
fn engine(method: ValveMethod) -> Option<DiffsolMethod> {
    match method {
        ValveMethod::PenaltyDiffsolBdf => Some(DiffsolMethod::Bdf),
        ValveMethod::PenaltyDiffsolSdirk => Some(DiffsolMethod::TrBdf2),
        ValveMethod::NcpBdf | ValveMethod::PenaltyBdf => None,
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
    let start = ContactSystemState {
        t: 0.0,
        q: sp.installed_state(),
        v: vec![0.0; sp.dofs()],
        lambda: vec![0.0; sp.pairs.len()],
    };
    let mut trace = Trace::default();
    let scale = sp.segment_stiffness * sp.params.wire_diameter.powi(2);
    let mut prev: Option<(f64, f64, f64)> = None; // (t, retainer power, damping power)
    let mut record = |s: &ContactSystemState, trace: &mut Trace| {
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
    let mut on_step = |s: &ContactSystemState| record(s, &mut trace);
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
    let (trace, stats) = integrate(cfg, m.contact, m.stepping, engine(m.method))
        .map_err(|message| SolverError::other(m.label.clone(), message))?;
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

/// The chain's first natural frequency without contact, both ends fixed,
/// from the eigenvalues of the assembled M^-1 K [Hz] (the bounded
/// eigen-solver of [`crate::guard`]).
pub fn first_frequency(sp: &Spring) -> Result<f64, SolverError> {
    let a = chain_matrix(sp.dofs(), sp.segment_stiffness / sp.node_mass);
    let eig = crate::guard::symmetric_eigenvalues("the spring chain's M^-1 K", a)
        .map_err(|e| SolverError::other("first frequency", e.to_string()))?;
    let w2 = eig.iter().fold(f64::INFINITY, |a, &x| a.min(x));
    Ok(w2.sqrt() / (2.0 * std::f64::consts::PI))
}
