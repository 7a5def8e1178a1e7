//! The spec tables and method keys the `valve-spring` and `valvetrain`
//! kinds share (each imports them from here, neither from the other):
//! `[spring]` ([`SpringToml`], its optional keys' defaults in
//! [`SpringShape`]), `[cam]` ([`CamToml`], defaults in its `Default`),
//! `[reference]` ([`ReferenceToml`]), a method's contact model and stepping
//! ([`MethodToml`], [`method`]) and the case's methods ([`methods`]). The
//! keys `wire_diameter`, `mean_diameter`, `active_coils`, `end_coils`,
//! `shear_modulus`, `density`, `masses_per_coil` and the method names
//! `ncp-bdf` and `penalty-bdf` are fixed (ARCHITECTURE.md).

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::kind::DescribedMethod;
use crate::integrators::bdf_contact::{ContactModel, Stepping};
use crate::models::valve_spring::{CamLift, Spring, SpringParams};
use crate::studies::keys::KeyCtx as Ctx;

/// The methods of the valve-spring and valvetrain kinds, parsed once
/// from their spec names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValveMethod {
    /// Signorini contact as an NCP, this crate's BDF, semi-smooth Newton.
    NcpBdf,
    /// Spring-damper contact elements, this crate's BDF, Newton.
    PenaltyBdf,
    /// The penalty model on diffsol's variable-order BDF.
    PenaltyDiffsolBdf,
    /// The penalty model on diffsol's SDIRK (TR-BDF2 tableau).
    PenaltyDiffsolSdirk,
}

impl ValveMethod {
    /// The methods both kinds have.
    pub const SHARED: [ValveMethod; 2] = [ValveMethod::NcpBdf, ValveMethod::PenaltyBdf];

    /// The valve-spring kind's: [`Self::SHARED`] and the penalty model on
    /// diffsol's integrators (`integrators::diffsol_penalty`).
    pub const ALL: [ValveMethod; 4] = [
        ValveMethod::NcpBdf,
        ValveMethod::PenaltyBdf,
        ValveMethod::PenaltyDiffsolBdf,
        ValveMethod::PenaltyDiffsolSdirk,
    ];

    /// The spec name.
    pub fn name(self) -> &'static str {
        match self {
            ValveMethod::NcpBdf => "ncp-bdf",
            ValveMethod::PenaltyBdf => "penalty-bdf",
            ValveMethod::PenaltyDiffsolBdf => "penalty-diffsol-bdf",
            ValveMethod::PenaltyDiffsolSdirk => "penalty-diffsol-sdirk",
        }
    }

    /// Whether the method integrates with diffsol (its own error control,
    /// always adaptive, its own order).
    pub fn is_diffsol(self) -> bool {
        matches!(
            self,
            ValveMethod::PenaltyDiffsolBdf | ValveMethod::PenaltyDiffsolSdirk
        )
    }
}

/// The `[spring]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpringToml {
    wire_diameter: f64,
    mean_diameter: f64,
    active_coils: f64,
    end_coils: f64,
    shear_modulus: f64,
    density: f64,
    masses_per_coil: i64,
    #[serde(default)]
    free_length: Option<f64>,
    #[serde(default)]
    installed_length: Option<f64>,
    #[serde(default)]
    progressivity: Option<f64>,
    #[serde(default)]
    damping_ratio: Option<f64>,
}

/// The spring's installation, pitch and damping: the optional `[spring]`
/// keys, whose `Default` is the kinds' default spring (experiments/README.md):
/// free length 41 mm, installed at 39 mm (2 mm preload deflection),
/// progressivity a = 0.5 (the gaps grow from gbar / 2 at the bottom to
/// 3 gbar / 2 at the top), 2 % damping at the first mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SpringShape {
    /// L0 [m].
    pub free_length: f64,
    /// L_inst [m].
    pub installed_length: f64,
    /// a in [0, 1).
    pub progressivity: f64,
    /// zeta at the first mode [-].
    pub damping_ratio: f64,
}

impl Default for SpringShape {
    fn default() -> Self {
        Self {
            free_length: 41e-3,
            installed_length: 39e-3,
            progressivity: 0.5,
            damping_ratio: 0.02,
        }
    }
}

/// The `[cam]` table: every key optional, an absent one its `Default`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct CamToml {
    lift: f64,
    rise_angle: f64,
    dwell_angle: f64,
    cam_speed: f64,
}

impl Default for CamToml {
    /// The kinds' default cam (experiments/README.md): 8 mm lift, a
    /// cycloidal rise and return of 60 deg each, no dwell at full lift,
    /// 40 rev/s (2400 rpm of the camshaft).
    fn default() -> Self {
        Self {
            lift: 8e-3,
            rise_angle: 60.0,
            dwell_angle: 0.0,
            cam_speed: 40.0,
        }
    }
}

/// A method's keys (`[integrator]` and each `[variants.<label>]`) of the
/// valve-spring kind; the valvetrain kind fills its contact and stepping
/// keys from its own. `t_end`, `output_interval` and `max_steps` are the
/// valve-spring case's (a variant refuses them).
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct MethodToml {
    pub(crate) method: Option<String>,
    pub(crate) dt: Option<f64>,
    pub(crate) t_end: Option<f64>,
    pub(crate) order: Option<i64>,
    pub(crate) tolerance: Option<f64>,
    pub(crate) adaptive: Option<bool>,
    pub(crate) penalty_stiffness: Option<f64>,
    pub(crate) penalty_damping: Option<f64>,
    pub(crate) ncp_constant: Option<f64>,
    pub(crate) output_interval: Option<f64>,
    pub(crate) max_steps: Option<usize>,
}

/// A method's name, contact model and stepping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ContactMethod {
    /// One of the kind's methods.
    pub method: ValveMethod,
    /// The contact model.
    pub contact: ContactModel,
    /// The stepping.
    pub stepping: Stepping,
}

/// The `[reference]` table: the fine NCP reference's method and step, the
/// penalty methods' reference tolerance.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReferenceToml {
    pub(crate) method: Option<String>,
    pub(crate) dt: Option<f64>,
    pub(crate) penalty_tolerance: Option<f64>,
}

/// The case's methods: `[integrator]` (`base`, labelled by its method's
/// name) and each `[variants.<label>]` over it, built by
/// `method(at, label, raw, base)` (label None: the method's name); a
/// variant may not set the case's own keys `case_keys`.
pub(crate) fn methods<V, M>(
    ctx: &Ctx,
    (base, variants): (&V, &toml::Table),
    case_keys: &[&str],
    method: impl Fn(&str, Option<&str>, &V, &V) -> Result<M, InputError>,
) -> Result<Vec<M>, InputError>
where
    V: serde::de::DeserializeOwned + Default,
    M: DescribedMethod,
{
    let first = method("integrator", None, base, &V::default())?;
    ctx.with_variants(first, variants, ("reference", "name"), |at, label, v: V| {
        let set = variants.get(label).and_then(toml::Value::as_table);
        let given: Vec<(&str, bool)> = case_keys
            .iter()
            .map(|k| (*k, set.is_some_and(|t| t.contains_key(*k))))
            .collect();
        ctx.case_only(at, &given)?;
        method(at, Some(label), &v, base)
    })
}

/// One method's contact model and stepping from its keys (`raw`, falling
/// back to `base`) at `at`; `ks` is the default NCP constant, `methods`
/// those the kind accepts ([`ValveMethod::SHARED`], or the valve-spring
/// kind's [`ValveMethod::ALL`]).
pub(crate) fn method(
    ctx: &Ctx,
    at: &str,
    (raw, base): (&MethodToml, &MethodToml),
    ks: f64,
    methods: &[ValveMethod],
) -> Result<ContactMethod, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    let names: Vec<&str> = methods.iter().map(|m| m.name()).collect();
    let allowed = || crate::studies::keys::one_of(&names);
    let name = raw
        .method
        .clone()
        .or(base.method.clone())
        .ok_or_else(|| ctx.missing(&key("method"), allowed()))?;
    let Some(&method) = methods.iter().find(|m| m.name() == name) else {
        return Err(ctx.err(&key("method"), format!("\"{name}\""), allowed()));
    };
    let stepping = stepping(ctx, at, method, (raw, base))?;
    let contact = if method == ValveMethod::NcpBdf {
        ncp(ctx, at, (raw, base), ks)?
    } else {
        penalty(ctx, at, method.name(), (raw, base))?
    };
    Ok(ContactMethod {
        method,
        contact,
        stepping,
    })
}

/// Method `name`'s stepping: fixed-step BDF1/2, or adaptive BDF2 (always
/// for diffsol's methods, which choose their order and step).
fn stepping(
    ctx: &Ctx,
    at: &str,
    method: ValveMethod,
    (raw, base): (&MethodToml, &MethodToml),
) -> Result<Stepping, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    let pick = |a: Option<f64>, b: Option<f64>| a.or(b);
    let name = method.name();
    if method.is_diffsol() {
        // diffsol's methods choose their order and step themselves.
        if raw.adaptive == Some(false) {
            return Err(ctx.err(
                &key("adaptive"),
                false,
                format!("true or no `adaptive` with method = \"{name}\" (diffsol controls its error and step)"),
            ));
        }
        if let Some(o) = raw.order {
            return Err(ctx.err(
                &key("order"),
                o,
                format!("no `order` with method = \"{name}\" (diffsol's BDF varies its order 1-5, TR-BDF2 is of order 2)"),
            ));
        }
    }
    let adaptive = method.is_diffsol()
        || raw
            .adaptive
            .or(base.adaptive)
            .unwrap_or(method == ValveMethod::PenaltyBdf);
    let dt = match pick(raw.dt, base.dt) {
        Some(v) => ctx.positive(&key("dt"), v)?,
        None => return Err(ctx.missing(&key("dt"), "the step (first step when adaptive) [s]")),
    };
    if adaptive {
        let tol = ctx.tolerance(&key("tolerance"), pick(raw.tolerance, base.tolerance), 1e-6)?;
        if let Some(o) = raw
            .order
            .or(base.order)
            .filter(|&o| o != 2 && !method.is_diffsol())
        {
            return Err(ctx.err(&key("order"), o, "2 (the adaptive BDF is of order 2)"));
        }
        Ok(Stepping::Adaptive {
            tolerance: tol,
            first_step: dt,
        })
    } else {
        let order = match raw.order.or(base.order).unwrap_or(2) {
            o @ (1 | 2) => o as usize,
            o => return Err(ctx.err(&key("order"), o, "1 or 2")),
        };
        Ok(Stepping::Fixed { dt, order })
    }
}

/// Signorini contact as an NCP with the constant `ncp_constant` (default
/// `ks`); penalty keys refused.
fn ncp(
    ctx: &Ctx,
    at: &str,
    (raw, base): (&MethodToml, &MethodToml),
    ks: f64,
) -> Result<ContactModel, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    for (k, v) in [
        ("penalty_stiffness", raw.penalty_stiffness),
        ("penalty_damping", raw.penalty_damping),
    ] {
        if let Some(v) = v {
            return Err(ctx.err(
                &key(k),
                v,
                "no penalty keys with method = \"ncp-bdf\" (it needs no calibration)",
            ));
        }
    }
    let c = match raw.ncp_constant.or(base.ncp_constant) {
        None => ks,
        Some(v) => ctx.positive(&key("ncp_constant"), v)?,
    };
    Ok(ContactModel::Ncp { c })
}

/// Spring-damper contact elements of method `name`: `penalty_stiffness`
/// required, `penalty_damping` 0 unless given; `ncp_constant` refused.
fn penalty(
    ctx: &Ctx,
    at: &str,
    name: &str,
    (raw, base): (&MethodToml, &MethodToml),
) -> Result<ContactModel, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    let stiffness = match raw.penalty_stiffness.or(base.penalty_stiffness) {
        Some(v) => ctx.positive(&key("penalty_stiffness"), v)?,
        None => {
            return Err(ctx.missing(
                &key("penalty_stiffness"),
                "k_p [N/m] of the spring-damper elements",
            ));
        }
    };
    let damping = match raw.penalty_damping.or(base.penalty_damping) {
        // Undamped (elastic impacts) unless given. A damping matched to
        // the NCP's plastic impact was tried and is not the default:
        // gated to closed pairs (lambda = max(0, -k_p g - c_p g') for
        // g < 0 only) the force jumps at g = 0 and the semi-smooth
        // Newton of the implicit step cycles (step-size underflow at
        // the first coil impact for every k_p from 1e6 to 1e9);
        // ungated, the damper pushes before contact (c_p |g'| / k_p
        // ahead, up to 20 um at k_p = 1e6) and the answer differs from
        // the gated model by 14.5 N. ARCHITECTURE.md and the study's
        // notes say so.
        None => 0.0,
        Some(v) if v.is_finite() && v >= 0.0 => v,
        Some(v) => return Err(ctx.err(&key("penalty_damping"), v, "a number >= 0 [N s/m]")),
    };
    if let Some(v) = raw.ncp_constant {
        return Err(ctx.err(
            &key("ncp_constant"),
            v,
            format!("no `ncp_constant` with method = \"{name}\""),
        ));
    }
    Ok(ContactModel::Penalty { stiffness, damping })
}

/// The validated spring of a `[spring]` table.
pub(crate) fn spring(ctx: &Ctx, raw: &SpringToml) -> Result<Spring, InputError> {
    let s = raw;
    let (d, dm) = ctx.positive_ordered(
        ("spring.wire_diameter", s.wire_diameter),
        ("spring.mean_diameter", s.mean_diameter),
        |d| format!("a diameter > wire_diameter = {d} m"),
    )?;
    let na = ctx.positive("spring.active_coils", s.active_coils)?;
    let ne = s.end_coils;
    if !(ne.is_finite() && ne >= 0.0) {
        return Err(ctx.err(
            "spring.end_coils",
            ne,
            "a number >= 0 (closed coils, half at each end)",
        ));
    }
    let mpc = match s.masses_per_coil {
        n @ 1..=1000 => n as usize,
        n => return Err(ctx.err("spring.masses_per_coil", n, "an integer in 1..=1000")),
    };
    let default = SpringShape::default();
    let free_length = match s.free_length {
        None => default.free_length,
        Some(v) => ctx.positive("spring.free_length", v)?,
    };
    let installed = match s.installed_length {
        None => default.installed_length,
        Some(v) => ctx.positive("spring.installed_length", v)?,
    };
    if installed > free_length {
        return Err(ctx.err(
            "spring.installed_length",
            installed,
            format!("a length <= free_length = {free_length} m"),
        ));
    }
    let progressivity = match s.progressivity {
        None => default.progressivity,
        Some(a) if a.is_finite() && (0.0..1.0).contains(&a) => a,
        Some(a) => return Err(ctx.err("spring.progressivity", a, "a number in [0, 1)")),
    };
    let damping_ratio = match s.damping_ratio {
        None => default.damping_ratio,
        Some(z) if z.is_finite() && (0.0..1.0).contains(&z) => z,
        Some(z) => return Err(ctx.err("spring.damping_ratio", z, "a number in [0, 1)")),
    };
    let params = SpringParams {
        wire_diameter: d,
        mean_diameter: dm,
        active_coils: na,
        end_coils: ne,
        shear_modulus: ctx.positive("spring.shear_modulus", s.shear_modulus)?,
        density: ctx.positive("spring.density", s.density)?,
        masses_per_coil: mpc,
        free_length,
        installed_length: installed,
        progressivity,
        damping_ratio,
    };
    let spring = Spring::new(params).map_err(|e| ctx.err("spring", "the geometry", e))?;
    Ok(spring)
}

/// The validated cam of a `[cam]` table for `spring` (the lift must leave
/// the spring short of solid).
pub(crate) fn cam(ctx: &Ctx, c: &CamToml, spring: &Spring) -> Result<CamLift, InputError> {
    let installed = spring.params.installed_length;
    let lift = c.lift;
    if !(lift.is_finite() && lift >= 0.0) {
        return Err(ctx.err("cam.lift", lift, "a lift >= 0 [m]"));
    }
    let room = installed - spring.params.solid_length();
    if lift >= room {
        return Err(ctx.err(
            "cam.lift",
            lift,
            format!("a lift below installed_length - solid length = {room:e} m (the spring would go solid)"),
        ));
    }
    let rise = c.rise_angle;
    if !(rise.is_finite() && rise > 0.0 && rise <= 180.0) {
        return Err(ctx.err("cam.rise_angle", rise, "an angle in (0, 180] degrees"));
    }
    let dwell = c.dwell_angle;
    if !(dwell.is_finite() && dwell >= 0.0 && 2.0 * rise + dwell <= 360.0) {
        return Err(ctx.err(
            "cam.dwell_angle",
            dwell,
            format!(
                "an angle >= 0 degrees with 2 rise_angle + dwell_angle <= 360 (rise_angle = {rise})"
            ),
        ));
    }
    Ok(CamLift {
        lift,
        rise_angle: rise.to_radians(),
        dwell_angle: dwell.to_radians(),
        cam_speed: ctx.positive("cam.cam_speed", c.cam_speed)?,
    })
}
