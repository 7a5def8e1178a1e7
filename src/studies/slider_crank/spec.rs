//! The `slider-crank` spec: TOML structs (unknown keys rejected) and their
//! validation into a typed [`CaseConfig`]. The keys `mechanism.*`,
//! `drive.omega`, `drive.phi0`, `joint.model`, `integrator.method`,
//! `integrator.formulation`, `integrator.dt` and `integrator.t_end` are
//! fixed (ARCHITECTURE.md); the others are this kind's (every key in
//! experiments/README.md).

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::table::Table;
use crate::models::slider_crank::{Drive, JournalBearingParams, SliderCrank};
use crate::multibody::contact::REFERENCE_SPEED;
use crate::multibody::{
    Baumgarte, Body, Formulation, StiffnessLaw, contact_modulus, hertz_stiffness,
};
use crate::studies::shared::span::Span;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseToml {
    mechanism: MechanismToml,
    drive: DriveToml,
    joint: JointToml,
    integrator: IntegratorToml,
    #[serde(default)]
    peer: Option<PeerToml>,
    #[serde(default)]
    reference: Option<ReferenceToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReferenceToml {
    method: String,
    #[serde(default)]
    tolerance: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MechanismToml {
    crank_length: f64,
    rod_length: f64,
    crank_mass: f64,
    crank_inertia: f64,
    rod_mass: f64,
    rod_inertia: f64,
    slider_mass: f64,
    #[serde(default)]
    slider_inertia: Option<f64>,
    #[serde(default)]
    gravity: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DriveToml {
    omega: f64,
    #[serde(default)]
    phi0: f64,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    torque: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JointToml {
    model: String,
    #[serde(default)]
    bearing_radius: Option<f64>,
    #[serde(default)]
    clearance: Option<f64>,
    #[serde(default)]
    stiffness: Option<f64>,
    #[serde(default)]
    stiffness_law: Option<String>,
    #[serde(default)]
    length: Option<f64>,
    #[serde(default)]
    youngs_modulus: Option<f64>,
    #[serde(default)]
    poisson: Option<f64>,
    #[serde(default)]
    restitution: Option<f64>,
    #[serde(default)]
    friction: Option<f64>,
    #[serde(default)]
    friction_speed: Option<f64>,
    #[serde(default)]
    reference_speed: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IntegratorToml {
    method: String,
    #[serde(default)]
    formulation: Option<String>,
    dt: f64,
    t_end: f64,
    #[serde(default)]
    tolerance: Option<f64>,
    #[serde(default)]
    output_interval: Option<f64>,
    #[serde(default)]
    baumgarte_alpha: Option<f64>,
    #[serde(default)]
    baumgarte_beta: Option<f64>,
    #[serde(default)]
    max_steps: Option<usize>,
    #[serde(default)]
    locate_switches: Option<bool>,
    #[serde(default)]
    variant: Vec<VariantToml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantToml {
    method: String,
    #[serde(default)]
    formulation: Option<String>,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    baumgarte_alpha: Option<f64>,
    #[serde(default)]
    baumgarte_beta: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PeerToml {
    file: String,
    #[serde(default)]
    label: Option<String>,
}

/// The integrator of a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integrator {
    /// Classical Runge-Kutta, fixed step dt.
    Rk4,
    /// Dormand-Prince 5(4) with error control (initial step dt).
    Dopri5,
    /// Dormand-Prince 5 with the fixed step dt (for its order).
    Dopri5Fixed,
}

impl Integrator {
    /// The nominal order over the step `integrator.dt` (smooth solutions):
    /// RK4 4, Dormand-Prince at a fixed step 5; adaptive `dopri5` (over its
    /// tolerance) none.
    pub fn nominal_order(self) -> Option<f64> {
        match self {
            Integrator::Rk4 => Some(4.0),
            Integrator::Dopri5Fixed => Some(5.0),
            Integrator::Dopri5 => None,
        }
    }

    /// Every integrator, in the order messages list them.
    pub const ALL: [Integrator; 3] = [Integrator::Rk4, Integrator::Dopri5, Integrator::Dopri5Fixed];

    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            Integrator::Rk4 => "rk4",
            Integrator::Dopri5 => "dopri5",
            Integrator::Dopri5Fixed => "dopri5-fixed",
        }
    }
}

/// One method of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodConfig {
    /// Label (file infix, timings row).
    pub label: String,
    /// The integrator.
    pub integrator: Integrator,
    /// Eq. (1) or eq. (4).
    pub formulation: Formulation,
    /// Drift stabilisation.
    pub baumgarte: Baumgarte,
}

impl MethodConfig {
    /// The method's name: `<integrator>` (the formulation is in the label).
    pub fn method_name(&self) -> &'static str {
        self.integrator.name()
    }
}

/// The crank-rod joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Joint {
    /// A kinematic revolute joint.
    Ideal,
    /// Contact forces between journal and bearing.
    Clearance(JournalBearingParams),
}

/// What a case's errors (`max_error_x`, `_v`, `_a`) are measured against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    /// The closed-form kinematics of the ideal mechanism driven at constant
    /// speed (table `exact`); none for a free crank.
    Exact,
    /// The same case (same mechanism, joint and drive) solved by
    /// Dormand-Prince 5(4) on eq. (4) at this tolerance (table `fine`).
    Fine(f64),
}

/// The default tolerance of `reference.method = "fine"`.
pub const FINE_TOLERANCE: f64 = 1e-12;

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The study's factor of the tolerance rule of unresolved runs
    /// (`study.unresolved_per_tolerance`, see
    /// [`crate::harness::sweep::unresolved`]).
    pub unresolved_per_tolerance: f64,
    /// The mechanism.
    pub mechanism: SliderCrank,
    /// The drive.
    pub drive: Drive,
    /// The crank-rod joint.
    pub joint: Joint,
    /// The methods (first: `integrator.*`, then the variants).
    pub methods: Vec<MethodConfig>,
    /// Step, span and sampling (the step bound counts accepted and
    /// rejected steps).
    pub span: Span,
    /// Whether RK4 and Dormand-Prince end their steps at the clearance
    /// joint's located switches (contact onset and end, the damping's
    /// clip; `integrator.locate_switches`, default true).
    pub locate_switches: bool,
    /// A peer tool's work-precision file (label, table).
    pub peer: Option<(String, Arc<Table>)>,
    /// What the errors are measured against.
    pub reference: Reference,
}

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

/// The output interval the docs promise when `integrator.output_interval`
/// is not given: the one closest (in ratio) to [`DEFAULT_OUTPUT_INTERVAL`]
/// that divides `t_end` and, when a fixed-step method runs, is a whole
/// number of steps: `k dt` with `k` a divisor of the step count
/// `N = t_end / dt`. Without a fixed-step method: `t_end / round(t_end /
/// 1e-4 s)` (at least one output). A fixed-step case whose `t_end` is not a
/// whole number of steps has no such interval: the error names `t_end`.
fn default_output_interval(ctx: &Ctx, dt: f64, t_end: f64, fixed: bool) -> Result<f64, InputError> {
    if !fixed {
        let outputs = (t_end / DEFAULT_OUTPUT_INTERVAL).round().clamp(1.0, 1e7);
        return Ok(t_end / outputs);
    }
    let steps = (t_end / dt).round();
    if (steps * dt - t_end).abs() > 1e-9 * t_end || steps > 1e9 {
        return Err(ctx.err(
            "integrator.t_end",
            t_end,
            format!("a whole number of steps dt = {dt} s (the fixed-step methods end on a step), at most 1e9 steps"),
        ));
    }
    let n = steps as u64;
    let target = DEFAULT_OUTPUT_INTERVAL / dt;
    // The divisors of n, from its divisor pairs up to sqrt(n).
    let mut best = n;
    let mut d = 1;
    while d * d <= n {
        if n.is_multiple_of(d) {
            for k in [d, n / d] {
                if n / k <= 10_000_000
                    && (k as f64 / target).ln().abs() < (best as f64 / target).ln().abs()
                {
                    best = k;
                }
            }
        }
        d += 1;
    }
    Ok(t_end * best as f64 / n as f64)
}

/// The output interval aimed at when none is given [s].
pub const DEFAULT_OUTPUT_INTERVAL: f64 = 1e-4;

fn formulation(ctx: &Ctx, key: &str, name: Option<&str>) -> Result<Formulation, InputError> {
    match name.unwrap_or("eliminated") {
        "eliminated" => Ok(Formulation::Eliminated),
        "augmented" => Ok(Formulation::Augmented),
        other => Err(ctx.err(
            key,
            format!("\"{other}\""),
            "\"eliminated\" (eq. (4): the multipliers eliminated) or \"augmented\" (eq. (1))",
        )),
    }
}

fn integrator(ctx: &Ctx, key: &str, name: &str) -> Result<Integrator, InputError> {
    Integrator::ALL
        .into_iter()
        .find(|i| i.name() == name)
        .ok_or_else(|| {
            ctx.err(
                key,
                format!("\"{name}\""),
                crate::studies::keys::one_of(&Integrator::ALL.map(Integrator::name)),
            )
        })
}

fn baumgarte(
    ctx: &Ctx,
    at: &str,
    alpha: Option<f64>,
    beta: Option<f64>,
    default: Baumgarte,
) -> Result<Baumgarte, InputError> {
    let check = |k: &str, v: Option<f64>, d: f64| -> Result<f64, InputError> {
        match v {
            None => Ok(d),
            Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
            Some(v) => Err(ctx.err(&format!("{at}.{k}"), v, "a finite number >= 0 [1/s]")),
        }
    };
    Ok(Baumgarte {
        alpha: check("baumgarte_alpha", alpha, default.alpha)?,
        beta: check("baumgarte_beta", beta, default.beta)?,
    })
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let mechanism = mechanism(ctx, &raw.mechanism)?;
    let drive = drive(ctx, &raw.drive)?;
    let joint = parse_joint(ctx, &raw.joint)?;
    let integ = &raw.integrator;
    let dt = ctx.positive("integrator.dt", integ.dt)?;
    let t_end = ctx.positive("integrator.t_end", integ.t_end)?;
    if t_end < dt {
        return Err(ctx.err("integrator.t_end", t_end, format!("a time >= dt = {dt} s")));
    }
    let tolerance = ctx.tolerance("integrator.tolerance", integ.tolerance, 1e-8)?;
    let methods = methods(ctx, integ)?;
    let fixed = methods.iter().any(|m| m.integrator != Integrator::Dopri5);
    let (output_interval, max_steps) = sampling(ctx, integ, (dt, t_end), fixed)?;
    let peer = peer(ctx, raw.peer.as_ref())?;
    let reference = reference(ctx, raw.reference.as_ref(), &methods, tolerance)?;
    Ok(CaseConfig {
        // Set from the study's spec by `build`.
        unresolved_per_tolerance: crate::harness::sweep::UNRESOLVED_PER_TOLERANCE,
        reference,
        mechanism,
        drive,
        joint,
        methods,
        span: Span::new(dt, t_end, tolerance, output_interval, max_steps),
        locate_switches: integ.locate_switches.unwrap_or(true),
        peer,
    })
}

/// `[mechanism]`: the lengths and the bodies (each body's radius of
/// gyration at most half its length).
fn mechanism(ctx: &Ctx, m: &MechanismToml) -> Result<SliderCrank, InputError> {
    let (l1, l2) = ctx.positive_ordered(
        ("mechanism.crank_length", m.crank_length),
        ("mechanism.rod_length", m.rod_length),
        |l1| format!("a length > crank_length = {l1} m (the slider must reach every crank angle)"),
    )?;
    // A body whose mass lies between its two joints, centre of mass at
    // mid-length, has a radius of gyration of at most half its length
    // (all the mass at the two ends): J <= m l^2 / 4. (The set once quoted
    // J = 4.8037e-4 kg m^2 for the 0.087 kg, 0.12 m rod: a radius of
    // gyration of 74 mm, beyond the rod's half-length; see
    // reference-data/slider-crank/SOURCE.md.)
    for (what, mass, inertia, length, name) in [
        ("crank", m.crank_mass, m.crank_inertia, l1, "crank_length"),
        ("rod", m.rod_mass, m.rod_inertia, l2, "rod_length"),
    ] {
        let bound = mass * length * length / 4.0;
        if mass > 0.0 && inertia > bound {
            return Err(ctx.err(
                &format!("mechanism.{what}_inertia"),
                inertia,
                format!(
                    "at most {what}_mass x {name}^2 / 4 = {bound:.4e} kg m^2 (radius of gyration at most half the length: all the mass at the two joints; a uniform {what} has m l^2 / 12 = {:.4e})",
                    bound / 3.0
                ),
            ));
        }
    }
    let slider_mass = ctx.positive("mechanism.slider_mass", m.slider_mass)?;
    Ok(SliderCrank {
        crank_length: l1,
        rod_length: l2,
        crank: Body {
            mass: ctx.positive("mechanism.crank_mass", m.crank_mass)?,
            inertia: ctx.positive("mechanism.crank_inertia", m.crank_inertia)?,
        },
        rod: Body {
            mass: ctx.positive("mechanism.rod_mass", m.rod_mass)?,
            inertia: ctx.positive("mechanism.rod_inertia", m.rod_inertia)?,
        },
        slider: Body {
            mass: slider_mass,
            inertia: match m.slider_inertia {
                None => slider_mass * 1e-4,
                Some(j) => ctx.positive("mechanism.slider_inertia", j)?,
            },
        },
        gravity: ctx.finite("mechanism.gravity", m.gravity)?,
    })
}

/// `[drive]`: driven at constant speed, or free with an applied torque.
fn drive(ctx: &Ctx, d: &DriveToml) -> Result<Drive, InputError> {
    let omega = ctx.finite("drive.omega", d.omega)?;
    let phi0 = ctx.finite("drive.phi0", d.phi0)?;
    Ok(match d.mode.as_deref().unwrap_or("constant-speed") {
        "constant-speed" => {
            if let Some(t) = d.torque {
                return Err(ctx.err(
                    "drive.torque",
                    t,
                    "no torque with mode = \"constant-speed\" (the driving constraint sets the motion); use mode = \"free\"",
                ));
            }
            Drive::ConstantSpeed { phi0, omega }
        }
        "free" => Drive::Free {
            phi0,
            omega0: omega,
            torque: ctx.finite("drive.torque", d.torque.unwrap_or(0.0))?,
        },
        other => {
            return Err(ctx.err(
                "drive.mode",
                format!("\"{other}\""),
                "\"constant-speed\" (phi = phi0 + omega t) or \"free\" (initial speed omega, applied torque)",
            ));
        }
    })
}

/// The case's methods: `[integrator]` and its `[[integrator.variant]]`s,
/// each labelled (by default `<method>-<formulation>`), labels unique.
fn methods(ctx: &Ctx, integ: &IntegratorToml) -> Result<Vec<MethodConfig>, InputError> {
    let default_baumgarte = baumgarte(
        ctx,
        "integrator",
        integ.baumgarte_alpha,
        integ.baumgarte_beta,
        Baumgarte::default(),
    )?;
    let mut methods = vec![MethodConfig {
        label: String::new(),
        integrator: integrator(ctx, "integrator.method", &integ.method)?,
        formulation: formulation(ctx, "integrator.formulation", integ.formulation.as_deref())?,
        baumgarte: default_baumgarte,
    }];
    for (i, v) in integ.variant.iter().enumerate() {
        let at = format!("integrator.variant[{i}]");
        methods.push(MethodConfig {
            label: v.label.clone().unwrap_or_default(),
            integrator: integrator(ctx, &format!("{at}.method"), &v.method)?,
            formulation: formulation(ctx, &format!("{at}.formulation"), v.formulation.as_deref())?,
            baumgarte: baumgarte(
                ctx,
                &at,
                v.baumgarte_alpha,
                v.baumgarte_beta,
                default_baumgarte,
            )?,
        });
    }
    for (i, method) in methods.iter_mut().enumerate() {
        if method.label.is_empty() {
            let formulation = match method.formulation {
                Formulation::Eliminated => "eliminated",
                Formulation::Augmented => "augmented",
            };
            method.label = format!("{}-{formulation}", method.integrator.name());
        }
        let key = if i == 0 {
            "integrator.method".to_string()
        } else {
            format!("integrator.variant[{}].label", i - 1)
        };
        if !crate::studies::keys::is_label(&method.label) || method.label == "exact" {
            return Err(ctx.err(
                &key,
                format!("\"{}\"", method.label),
                "letters, digits, '-' and '_' (it names <case>.<label>.csv); not \"exact\"",
            ));
        }
    }
    for i in 1..methods.len() {
        if methods[..i].iter().any(|m| m.label == methods[i].label) {
            return Err(ctx.err(
                &format!("integrator.variant[{}].label", i - 1),
                format!("\"{}\"", methods[i].label),
                "a label no other method of the case has",
            ));
        }
    }
    Ok(methods)
}

/// The output interval (a divisor of t_end; for fixed-step methods a
/// multiple of dt, at most 1e7 outputs) and the step bound.
fn sampling(
    ctx: &Ctx,
    integ: &IntegratorToml,
    (dt, t_end): (f64, f64),
    fixed: bool,
) -> Result<(f64, usize), InputError> {
    let output_interval = match integ.output_interval {
        None => default_output_interval(ctx, dt, t_end, fixed)?,
        Some(h) => ctx.positive("integrator.output_interval", h)?,
    };
    let outputs = (t_end / output_interval).round();
    if (outputs * output_interval - t_end).abs() > 1e-9 * t_end || !(1.0..=1e7).contains(&outputs) {
        return Err(ctx.err(
            "integrator.output_interval",
            output_interval,
            format!("a divisor of t_end = {t_end} s (at most 1e7 outputs)"),
        ));
    }
    let per_output = output_interval / dt;
    if fixed
        && (per_output.round() < 1.0 || (per_output - per_output.round()).abs() > 1e-9 * per_output)
    {
        return Err(ctx.err(
            "integrator.output_interval",
            output_interval,
            format!(
                "an integer multiple of dt = {dt} s (the fixed-step methods sample their steps)"
            ),
        ));
    }
    let max_steps = match integ.max_steps {
        None => 10_000_000,
        Some(0) => {
            return Err(ctx.err("integrator.max_steps", 0, "an integer >= 1"));
        }
        Some(k) => k,
    };
    if fixed && t_end / dt > max_steps as f64 {
        return Err(ctx.err(
            "integrator.dt",
            dt,
            format!("a step that reaches t_end = {t_end} s within max_steps = {max_steps} steps"),
        ));
    }
    Ok((output_interval, max_steps))
}

/// `[peer]`: a peer tool's work-precision curve.
fn peer(ctx: &Ctx, raw: Option<&PeerToml>) -> Result<Option<(String, Arc<Table>)>, InputError> {
    Ok(match raw {
        None => None,
        Some(p) => {
            let path = ctx.file.parent().unwrap_or(Path::new(".")).join(&p.file);
            let table = crate::harness::reference::read_csv(&path)
                .map_err(|m| ctx.err("peer.file", format!("\"{}\"", p.file), m))?;
            for column in ["cpu_s", "max_error_v"] {
                if table.column(column).is_none() {
                    return Err(ctx.err(
                        "peer.file",
                        format!("\"{}\"", p.file),
                        format!("a work-precision CSV with columns `cpu_s` and `max_error_v`; `{column}` is missing"),
                    ));
                }
            }
            Some((
                p.label.clone().unwrap_or_else(|| "peer".into()),
                Arc::new(table),
            ))
        }
    })
}

/// `[reference]`: the exact kinematics, or the case itself at a finer
/// tolerance than its adaptive runs.
fn reference(
    ctx: &Ctx,
    raw: Option<&ReferenceToml>,
    methods: &[MethodConfig],
    tolerance: f64,
) -> Result<Reference, InputError> {
    Ok(match raw {
        None => Reference::Exact,
        Some(r) => match r.method.as_str() {
            "exact" => {
                if let Some(t) = r.tolerance {
                    return Err(ctx.err(
                        "reference.tolerance",
                        t,
                        "no tolerance with method = \"exact\" (the closed form has none)",
                    ));
                }
                Reference::Exact
            }
            "fine" => {
                let t = ctx.tolerance("reference.tolerance", r.tolerance, FINE_TOLERANCE)?;
                if methods.iter().any(|m| m.integrator == Integrator::Dopri5) && t >= tolerance {
                    return Err(ctx.err(
                        "reference.tolerance",
                        t,
                        format!("a tolerance below integrator.tolerance = {tolerance} (the reference must be finer than the runs it judges)"),
                    ));
                }
                Reference::Fine(t)
            }
            other => {
                return Err(ctx.err(
                    "reference.method",
                    format!("\"{other}\""),
                    "\"exact\" (closed-form kinematics of the ideal driven mechanism) or \"fine\" (the same case by Dormand-Prince at reference.tolerance)",
                ));
            }
        },
    })
}

fn parse_joint(ctx: &Ctx, j: &JointToml) -> Result<Joint, InputError> {
    match j.model.as_str() {
        "ideal" => {
            // The contact keys may stand beside model = "ideal" (a sweep over
            // the model shares them); they are validated and not used.
            parse_contact(ctx, j)?;
            Ok(Joint::Ideal)
        }
        "clearance" => parse_contact(ctx, j).map(Joint::Clearance),
        other => Err(ctx.err(
            "joint.model",
            format!("\"{other}\""),
            "\"ideal\" (kinematic revolute joint) or \"clearance\" (journal-bearing contact forces)",
        )),
    }
}

/// The default bearing length L [m] of the cylindrical law: the source set
/// gives none; 10 mm is L / D = 0.5 for the 20 mm bore, a usual proportion
/// of a connecting rod's big end (experiments/README.md).
pub(crate) const BEARING_LENGTH: f64 = 0.010;

/// The journal-bearing data of `[study.joint]` (defaults: the
/// Lopez-Lombardero et al. 2024 set: R = 10 mm, c = 0.05 mm, steel).
fn parse_contact(ctx: &Ctx, j: &JointToml) -> Result<JournalBearingParams, InputError> {
    let bearing = ctx.positive("joint.bearing_radius", j.bearing_radius.unwrap_or(0.010))?;
    let c = j.clearance.unwrap_or(5e-5);
    if !(c.is_finite() && c >= 0.0 && c < bearing) {
        return Err(ctx.err(
            "joint.clearance",
            c,
            format!("a clearance R - r in [0, bearing_radius = {bearing}) m"),
        ));
    }
    let e = ctx.positive("joint.youngs_modulus", j.youngs_modulus.unwrap_or(2.07e11))?;
    let nu = j.poisson.unwrap_or(0.3);
    if !(nu.is_finite() && (0.0..0.5).contains(&nu)) {
        return Err(ctx.err("joint.poisson", nu, "a Poisson ratio in [0, 0.5)"));
    }
    // The bearing length: validated whatever the law (a sweep over the law
    // shares it); 10 mm by default (experiments/README.md).
    let length = ctx.positive("joint.length", j.length.unwrap_or(BEARING_LENGTH))?;
    let law = match (j.stiffness_law.as_deref(), j.stiffness) {
        // An explicit K is the point law's, as before the cylindrical law.
        (None | Some("point"), Some(k)) => StiffnessLaw::Point {
            stiffness: ctx.positive("joint.stiffness", k)?,
        },
        (Some("point"), None) if c > 0.0 => StiffnessLaw::Point {
            stiffness: hertz_stiffness(bearing, bearing - c, e, nu),
        },
        (None | Some("cylindrical"), None) if c > 0.0 => StiffnessLaw::Cylindrical {
            length,
            modulus: contact_modulus(e, nu),
            clearance: c,
        },
        (None | Some("point") | Some("cylindrical"), None) => {
            return Err(ctx.missing(
                "joint.stiffness",
                "a contact stiffness [N/m^1.5] (with stiffness_law = \"point\") when clearance = 0 (the Hertz formula divides by R - r, Johnson's line-contact law takes its logarithm)",
            ));
        }
        (Some("cylindrical"), Some(k)) => {
            return Err(ctx.err(
                "joint.stiffness",
                k,
                "no value with stiffness_law = \"cylindrical\" (its force follows from joint.length, joint.youngs_modulus, joint.poisson and the clearance); a given K needs stiffness_law = \"point\"",
            ));
        }
        (Some(other), _) => {
            return Err(ctx.err(
                "joint.stiffness_law",
                format!("\"{other}\""),
                "\"cylindrical\" (Johnson's line contact over the bearing length joint.length, the default) or \"point\" (sphere-in-sphere Hertz, F = K delta^1.5)",
            ));
        }
    };
    let restitution = j.restitution.unwrap_or(0.9);
    if !(restitution.is_finite() && restitution > 0.0 && restitution <= 1.0) {
        return Err(ctx.err(
            "joint.restitution",
            restitution,
            "a coefficient of restitution in (0, 1]",
        ));
    }
    let friction = j.friction.unwrap_or(0.02);
    if !(friction.is_finite() && friction >= 0.0) {
        return Err(ctx.err("joint.friction", friction, "a friction coefficient >= 0"));
    }
    Ok(JournalBearingParams {
        journal_radius: bearing - c,
        bearing_radius: bearing,
        law,
        restitution,
        friction,
        friction_speed: ctx.positive("joint.friction_speed", j.friction_speed.unwrap_or(1e-4))?,
        reference_speed: ctx.positive(
            "joint.reference_speed",
            j.reference_speed.unwrap_or(REFERENCE_SPEED),
        )?,
    })
}
