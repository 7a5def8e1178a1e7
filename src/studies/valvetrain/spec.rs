//! The `valvetrain` spec: TOML structs (unknown keys rejected) and their
//! validation into a [`CaseConfig`]. `[spring]` and `[cam]` are the
//! tables the valve-spring kind has too ([`crate::studies::shared::valve`];
//! `cam.dwell_angle` adds a dwell at full lift); `[valvetrain]` holds the masses, the stem and the lash; every
//! method (`[integrator]`, `[variants.<label>]`) names its spring model.
//! Every key is listed in experiments/README.md.

use serde::Deserialize;

use crate::error::InputError;
use crate::integrators::bdf_contact::{ContactModel, Stepping};
use crate::models::valve_spring::{CamLift, Spring};
use crate::models::valvetrain::{SpringModel, Valvetrain, ValvetrainParams};
use crate::studies::shared::valve as vs;

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseToml {
    valvetrain: TrainToml,
    spring: vs::SpringToml,
    #[serde(default)]
    cam: vs::CamToml,
    integrator: MethodToml,
    #[serde(default)]
    variants: toml::Table,
    #[serde(default)]
    jump: Option<JumpToml>,
    #[serde(default)]
    reference: vs::ReferenceToml,
    #[serde(default)]
    analysis: AnalysisToml,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrainToml {
    valve_mass: f64,
    follower_mass: f64,
    stem_stiffness: f64,
    #[serde(default)]
    stem_damping_ratio: Option<f64>,
    #[serde(default)]
    lash: Option<f64>,
}

#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct MethodToml {
    method: Option<String>,
    spring_model: Option<String>,
    coil_contact: Option<bool>,
    dt: Option<f64>,
    order: Option<i64>,
    tolerance: Option<f64>,
    adaptive: Option<bool>,
    penalty_stiffness: Option<f64>,
    penalty_damping: Option<f64>,
    ncp_constant: Option<f64>,
    revolutions: Option<i64>,
    samples_per_revolution: Option<i64>,
    max_steps: Option<usize>,
}

impl MethodToml {
    /// The valve-spring kind's method keys (contact model and stepping).
    fn contact_keys(&self) -> vs::MethodToml {
        vs::MethodToml {
            method: self.method.clone(),
            dt: self.dt,
            order: self.order,
            tolerance: self.tolerance,
            adaptive: self.adaptive,
            penalty_stiffness: self.penalty_stiffness,
            penalty_damping: self.penalty_damping,
            ncp_constant: self.ncp_constant,
            ..vs::MethodToml::default()
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JumpToml {
    low: f64,
    high: f64,
    resolution: f64,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnalysisToml {
    error_window: Option<f64>,
    force_window: Option<f64>,
}

/// One method of a case.
#[derive(Debug, Clone)]
pub struct MethodConfig {
    /// Label.
    pub label: String,
    /// `ncp-bdf` or `penalty-bdf`.
    pub method: crate::studies::shared::valve::ValveMethod,
    /// The spring model.
    pub model: SpringModel,
    /// The contact model (every contact: cam, seat and coils).
    pub contact: ContactModel,
    /// The stepping.
    pub stepping: Stepping,
}

impl MethodConfig {
    /// `multi-mass`, `multi-mass, no coil contact` or `single-mass`.
    pub fn model_name(&self) -> &'static str {
        match self.model {
            SpringModel::MultiMass { coil_contact: true } => "multi-mass spring with coil contact",
            SpringModel::MultiMass {
                coil_contact: false,
            } => "multi-mass spring without coil contact",
            SpringModel::SingleMass => "single-mass spring (m_active / 3)",
        }
    }
}

/// The jump-speed bisection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JumpConfig {
    /// Lower end of the bracket [rev/s] (must not jump).
    pub low: f64,
    /// Upper end [rev/s] (must jump).
    pub high: f64,
    /// Stop when the bracket is this narrow [rev/s].
    pub resolution: f64,
}

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// Masses, stem and lash.
    pub train: ValvetrainParams,
    /// The spring.
    pub spring: Spring,
    /// The cam (profile and speed).
    pub cam: CamLift,
    /// The methods (first: `[integrator]`).
    pub methods: Vec<MethodConfig>,
    /// Cam revolutions simulated (the last one is analysed).
    pub revolutions: usize,
    /// Output samples per revolution.
    pub samples_per_revolution: usize,
    /// Step bound per run.
    pub max_steps: usize,
    /// Jump-speed bisection, when asked for.
    pub jump: Option<JumpConfig>,
    /// Step of the fine NCP reference (multi-mass with coil contact), if
    /// any.
    pub reference_dt: Option<f64>,
    /// The tolerance of each penalty method's own converged reference
    /// (adaptive BDF2 on the same penalty model, the method's spring model).
    pub reference_penalty_tolerance: f64,
    /// The spring-seat force error is measured on means over windows this
    /// long [s].
    pub error_window: f64,
    /// The dynamic seat force and its peak are means over windows this long
    /// [s].
    pub force_window: f64,
    /// The spring's static curve (deflection from the free length, seat
    /// force) up to the full lift, computed once on first use
    /// (`run::static_force`).
    pub static_curve: std::sync::OnceLock<StaticCurve>,
}

/// A static curve (deflections, seat forces), or why it could not be made.
pub type StaticCurve = Result<(Vec<f64>, Vec<f64>), String>;

impl CaseConfig {
    /// The valvetrain of method `m` at cam speed `speed` [rev/s].
    pub fn train(&self, model: SpringModel, speed: f64) -> Result<Valvetrain, String> {
        let cam = CamLift {
            cam_speed: speed,
            ..self.cam
        };
        Valvetrain::new(self.train.clone(), self.spring.clone(), cam, model)
    }

    /// Seconds per cam revolution.
    pub fn period(&self) -> f64 {
        1.0 / self.cam.cam_speed
    }

    /// The output interval [s].
    pub fn output_interval(&self) -> f64 {
        self.period() / self.samples_per_revolution as f64
    }
}

fn spring_model(
    ctx: &Ctx,
    at: &str,
    raw: &MethodToml,
    base: &MethodToml,
) -> Result<SpringModel, InputError> {
    let name = raw
        .spring_model
        .clone()
        .or(base.spring_model.clone())
        .unwrap_or_else(|| "multi-mass".into());
    let coil_contact = raw.coil_contact.or(base.coil_contact).unwrap_or(true);
    match name.as_str() {
        "multi-mass" => Ok(SpringModel::MultiMass { coil_contact }),
        "single-mass" => {
            if raw.coil_contact == Some(true) {
                return Err(ctx.err(
                    &format!("{at}.coil_contact"),
                    true,
                    "no coil contact with spring_model = \"single-mass\" (it has no coils)",
                ));
            }
            Ok(SpringModel::SingleMass)
        }
        other => Err(ctx.err(
            &format!("{at}.spring_model"),
            format!("\"{other}\""),
            "\"multi-mass\" or \"single-mass\"",
        )),
    }
}

/// Method `raw` (over `base`) at `at`, labelled `label` (None: its name).
fn method(
    ctx: &Ctx,
    (at, label): (&str, Option<&str>),
    raw: &MethodToml,
    base: &MethodToml,
    ks: f64,
) -> Result<MethodConfig, InputError> {
    let m = vs::method(
        ctx,
        at,
        (&raw.contact_keys(), &base.contact_keys()),
        ks,
        &vs::ValveMethod::SHARED,
    )?;
    Ok(MethodConfig {
        label: label.unwrap_or(m.method.name()).to_string(),
        method: m.method,
        model: spring_model(ctx, at, raw, base)?,
        contact: m.contact,
        stepping: m.stepping,
    })
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let spring = vs::spring(ctx, &raw.spring)?;
    let cam = vs::cam(ctx, &raw.cam, &spring)?;
    let train = train(ctx, &raw.valvetrain, &cam)?;
    // A variant may not set the case's sampling keys.
    let case_keys = ["revolutions", "samples_per_revolution", "max_steps"];
    let ks = spring.segment_stiffness;
    let methods = vs::methods(
        ctx,
        (&raw.integrator, &raw.variants),
        &case_keys,
        |at, label, v, base| method(ctx, (at, label), v, base, ks),
    )?;
    let (revolutions, samples_per_revolution, max_steps) = sampling(ctx, &raw.integrator)?;
    let jump = jump(ctx, raw.jump.as_ref())?;
    let period_steps = |speed: f64, dt: f64| revolutions as f64 / speed / dt;
    for m in &methods {
        if let Stepping::Fixed { dt, .. } = m.stepping {
            let slowest = jump.map_or(cam.cam_speed, |j| j.low.min(cam.cam_speed));
            if period_steps(slowest, dt) > max_steps as f64 {
                return Err(ctx.err(
                    "integrator.dt",
                    dt,
                    format!(
                        "a step with revolutions / (cam speed x dt) <= max_steps = {max_steps}"
                    ),
                ));
            }
        }
    }
    let reference_penalty_tolerance = ctx.tolerance(
        "reference.penalty_tolerance",
        raw.reference.penalty_tolerance,
        1e-8,
    )?;
    let reference_dt = match raw.reference.method.as_deref().unwrap_or("none") {
        "ncp-fine" => {
            let dt = match raw.reference.dt {
                None => 1e-7,
                Some(v) => ctx.positive("reference.dt", v)?,
            };
            if period_steps(cam.cam_speed, dt) > max_steps as f64 {
                return Err(ctx.err(
                    "reference.dt",
                    dt,
                    format!(
                        "a step with revolutions / (cam speed x dt) <= max_steps = {max_steps}"
                    ),
                ));
            }
            Some(dt)
        }
        "none" => None,
        other => {
            return Err(ctx.err(
                "reference.method",
                format!("\"{other}\""),
                "\"ncp-fine\" (NCP-BDF2, multi-mass spring with coil contact, at reference.dt) or \"none\"",
            ));
        }
    };
    let output_interval = 1.0 / cam.cam_speed / samples_per_revolution as f64;
    let error_window = match raw.analysis.error_window {
        // 0.5 ms, or one output interval when that is longer.
        None => output_interval.max(5e-4),
        Some(w) => ctx.positive("analysis.error_window", w)?,
    };
    if error_window < output_interval {
        return Err(ctx.err(
            "analysis.error_window",
            error_window,
            format!("a window at least one output interval long ({output_interval:e} s)"),
        ));
    }
    let force_window = match raw.analysis.force_window {
        None => 2e-4,
        Some(w) => ctx.positive("analysis.force_window", w)?,
    };
    if force_window > 1.0 / cam.cam_speed {
        return Err(ctx.err(
            "analysis.force_window",
            force_window,
            format!(
                "a window no longer than a revolution ({:e} s)",
                1.0 / cam.cam_speed
            ),
        ));
    }
    Ok(CaseConfig {
        static_curve: std::sync::OnceLock::new(),
        force_window,
        train,
        spring,
        cam,
        methods,
        revolutions,
        samples_per_revolution,
        max_steps,
        jump,
        reference_dt,
        reference_penalty_tolerance,
        error_window,
    })
}

/// `[valvetrain]`: masses, stem and lash (below the cam's lift).
fn train(ctx: &Ctx, t: &TrainToml, cam: &CamLift) -> Result<ValvetrainParams, InputError> {
    Ok(ValvetrainParams {
        valve_mass: ctx.positive("valvetrain.valve_mass", t.valve_mass)?,
        follower_mass: ctx.positive("valvetrain.follower_mass", t.follower_mass)?,
        stem_stiffness: ctx.positive("valvetrain.stem_stiffness", t.stem_stiffness)?,
        stem_damping_ratio: match t.stem_damping_ratio {
            None => 0.05,
            Some(z) if z.is_finite() && (0.0..1.0).contains(&z) => z,
            Some(z) => {
                return Err(ctx.err("valvetrain.stem_damping_ratio", z, "a number in [0, 1)"));
            }
        },
        lash: match t.lash {
            None => 0.0,
            Some(l) if l.is_finite() && l >= 0.0 && l < cam.lift => l,
            Some(l) => {
                return Err(ctx.err(
                    "valvetrain.lash",
                    l,
                    format!("a clearance >= 0 below the cam lift {} m", cam.lift),
                ));
            }
        },
    })
}

/// `[integrator]`'s sampling: (revolutions, samples per revolution, step
/// bound).
fn sampling(ctx: &Ctx, base: &MethodToml) -> Result<(usize, usize, usize), InputError> {
    let revolutions = match base.revolutions {
        None => 2,
        Some(n @ 1..=100) => n as usize,
        Some(n) => return Err(ctx.err("integrator.revolutions", n, "an integer in 1..=100")),
    };
    let samples_per_revolution = match base.samples_per_revolution {
        None => 1440,
        Some(n @ 16..=1_000_000) => n as usize,
        Some(n) => {
            return Err(ctx.err(
                "integrator.samples_per_revolution",
                n,
                "an integer in 16..=1000000",
            ));
        }
    };
    let max_steps = match base.max_steps {
        None => 5_000_000,
        Some(n) if n >= 1 => n,
        Some(n) => return Err(ctx.err("integrator.max_steps", n, "an integer >= 1")),
    };
    Ok((revolutions, samples_per_revolution, max_steps))
}

/// `[jump]`: the bracket and resolution of the jump-speed bisection.
fn jump(ctx: &Ctx, raw: Option<&JumpToml>) -> Result<Option<JumpConfig>, InputError> {
    Ok(match raw {
        None => None,
        Some(j) => {
            let (low, high) =
                ctx.positive_ordered(("jump.low", j.low), ("jump.high", j.high), |low| {
                    format!("a speed above jump.low = {low} rev/s")
                })?;
            let resolution = ctx.positive("jump.resolution", j.resolution)?;
            if resolution < 1e-6 * high || resolution >= high - low {
                return Err(ctx.err(
                    "jump.resolution",
                    resolution,
                    format!(
                        "a width in [1e-6 high, high - low) = [{:e}, {}) rev/s",
                        1e-6 * high,
                        high - low
                    ),
                ));
            }
            Some(JumpConfig {
                low,
                high,
                resolution,
            })
        }
    })
}
