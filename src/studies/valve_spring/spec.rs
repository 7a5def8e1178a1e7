//! The `valve-spring` spec: TOML structs (unknown keys rejected) and their
//! validation into a [`CaseConfig`]. The `[spring]` keys `wire_diameter`,
//! `mean_diameter`, `active_coils`, `end_coils`, `shear_modulus`,
//! `density`, `masses_per_coil` and the method names `ncp-bdf` and
//! `penalty-bdf` are fixed (ARCHITECTURE.md); the others are this kind's
//! (every key in experiments/README.md).

use serde::Deserialize;

use crate::error::InputError;
use crate::integrators::bdf_contact::{ContactModel, Stepping};
use crate::models::valve_spring::{CamLift, Spring, SpringParams};

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

/// The methods shared with the valvetrain kind.
pub const METHODS: [&str; 2] = ["ncp-bdf", "penalty-bdf"];

/// The methods of this kind: [`METHODS`] and the penalty model on
/// diffsol's integrators (`integrators::diffsol_penalty`): its
/// variable-order BDF and its SDIRK (TR-BDF2 tableau).
pub const VALVE_SPRING_METHODS: [&str; 4] = [
    "ncp-bdf",
    "penalty-bdf",
    "penalty-diffsol-bdf",
    "penalty-diffsol-sdirk",
];

/// Whether a method integrates with diffsol (its own error control,
/// always adaptive, its own order).
pub fn is_diffsol(name: &str) -> bool {
    name.starts_with("penalty-diffsol")
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseToml {
    spring: SpringToml,
    #[serde(default)]
    cam: CamToml,
    integrator: MethodToml,
    #[serde(default)]
    variants: toml::Table,
    #[serde(default)]
    reference: ReferenceToml,
    #[serde(default)]
    statics: StaticsToml,
    #[serde(default)]
    analysis: AnalysisToml,
    /// One peer (`[peer]`) or several (`[[peer]]`).
    #[serde(default)]
    peer: Option<toml::Value>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PeerToml {
    file: String,
    cost: String,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnalysisToml {
    error_window: Option<f64>,
}

/// The `[spring]` table (shared with the valvetrain kind).
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

/// The `[cam]` table (shared with the valvetrain kind).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct CamToml {
    lift: Option<f64>,
    rise_angle: Option<f64>,
    dwell_angle: Option<f64>,
    cam_speed: Option<f64>,
}

/// A method's keys (`[integrator]` and each `[variants.<label>]`).
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

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReferenceToml {
    method: Option<String>,
    dt: Option<f64>,
    penalty_tolerance: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct StaticsToml {
    max_deflection: Option<f64>,
    points: Option<usize>,
    reference: Option<String>,
}

/// One method of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodConfig {
    /// Label.
    pub label: String,
    /// One of [`VALVE_SPRING_METHODS`].
    pub name: &'static str,
    /// The contact model.
    pub contact: ContactModel,
    /// The stepping.
    pub stepping: Stepping,
}

/// One run of the peer: (method, k_p [N/m], rtol, CPU time [s], steps).
pub type PeerRun = (String, f64, f64, f64, f64);

/// A peer tool's runs of the penalty model.
#[derive(Debug, Clone)]
pub struct Peer {
    /// Its name in the notes.
    pub label: String,
    /// Seat-force curves: `t` and `seat_force_<method>_<k_p>` columns.
    pub curves: std::sync::Arc<crate::harness::table::Table>,
    /// Per run: (method, k_p [N/m], rtol, CPU time [s], steps).
    pub cost: std::sync::Arc<Vec<PeerRun>>,
}

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The spring.
    pub spring: Spring,
    /// The lift.
    pub cam: CamLift,
    /// The methods (first: `[integrator]`).
    pub methods: Vec<MethodConfig>,
    /// Final time [s].
    pub t_end: f64,
    /// Output interval [s].
    pub output_interval: f64,
    /// Step bound per run.
    pub max_steps: usize,
    /// The fine NCP reference's step (None: no reference).
    pub reference_dt: Option<f64>,
    /// The tolerance of each penalty method's own converged reference
    /// (adaptive BDF2 on the same penalty model).
    pub reference_penalty_tolerance: f64,
    /// The quasi-static curve: largest deflection from the free length [m]
    /// and number of points.
    pub statics: (f64, usize),
    /// An independent static curve (columns `delta`, `seat_force`).
    pub static_reference: Option<std::sync::Arc<crate::harness::table::Table>>,
    /// The seat-force error is measured on means over windows this long [s].
    pub error_window: f64,
    /// Peer tools' runs: (label, seat-force curves `t, seat_force_<run>`,
    /// cost table `method, k_p, cpu_s, steps`), in the spec's order.
    pub peers: Vec<Peer>,
}

/// One method's contact model and stepping from its keys (`raw`, falling
/// back to `base`); `ks` is the default NCP constant, `names` the method
/// names the kind accepts ([`METHODS`] or [`VALVE_SPRING_METHODS`]).
pub(crate) fn method(
    ctx: &Ctx,
    at: &str,
    (raw, base): (&MethodToml, &MethodToml),
    ks: f64,
    names: &[&'static str],
) -> Result<MethodConfig, InputError> {
    let key = |k: &str| format!("{at}.{k}");
    let allowed = || {
        format!(
            "one of {}",
            names
                .iter()
                .map(|m| format!("\"{m}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let name = raw
        .method
        .clone()
        .or(base.method.clone())
        .ok_or_else(|| ctx.missing(&key("method"), allowed()))?;
    let Some(&name) = names.iter().find(|m| **m == name) else {
        return Err(ctx.err(&key("method"), format!("\"{name}\""), allowed()));
    };
    let pick = |a: Option<f64>, b: Option<f64>| a.or(b);
    if is_diffsol(name) {
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
    let adaptive = is_diffsol(name)
        || raw
            .adaptive
            .or(base.adaptive)
            .unwrap_or(name == "penalty-bdf");
    let dt = match pick(raw.dt, base.dt) {
        Some(v) => ctx.positive(&key("dt"), v)?,
        None => return Err(ctx.missing(&key("dt"), "the step (first step when adaptive) [s]")),
    };
    let stepping = if adaptive {
        let tol = ctx.tolerance(&key("tolerance"), pick(raw.tolerance, base.tolerance), 1e-6)?;
        if let Some(o) = raw
            .order
            .or(base.order)
            .filter(|&o| o != 2 && !is_diffsol(name))
        {
            return Err(ctx.err(&key("order"), o, "2 (the adaptive BDF is of order 2)"));
        }
        Stepping::Adaptive {
            tolerance: tol,
            first_step: dt,
        }
    } else {
        let order = match raw.order.or(base.order).unwrap_or(2) {
            o @ (1 | 2) => o as usize,
            o => return Err(ctx.err(&key("order"), o, "1 or 2")),
        };
        Stepping::Fixed { dt, order }
    };
    let contact = if name == "ncp-bdf" {
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
        ContactModel::Ncp { c }
    } else {
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
        ContactModel::Penalty { stiffness, damping }
    };
    Ok(MethodConfig {
        label: String::new(),
        name,
        contact,
        stepping,
    })
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let spring = spring(ctx, &raw.spring)?;
    let cam = cam(ctx, &raw.cam, &spring)?;
    let free_length = spring.params.free_length;
    let ks = spring.segment_stiffness;
    let base = &raw.integrator;
    let mut first = method(
        ctx,
        "integrator",
        (base, &MethodToml::default()),
        ks,
        &VALVE_SPRING_METHODS,
    )?;
    first.label = first.name.to_string();
    let mut methods = vec![first];
    for (label, value) in &raw.variants {
        let taken: Vec<&str> = methods.iter().map(|m| m.label.as_str()).collect();
        let (at, v): (String, MethodToml) =
            ctx.variant(label, value, &taken, "reference", "name")?;
        ctx.case_only(
            &at,
            &[
                ("t_end", v.t_end.is_some()),
                ("output_interval", v.output_interval.is_some()),
                ("max_steps", v.max_steps.is_some()),
            ],
        )?;
        let mut m = method(ctx, &at, (&v, base), ks, &VALVE_SPRING_METHODS)?;
        m.label = label.clone();
        methods.push(m);
    }
    let t_end = match base.t_end {
        None => cam.event_duration() * 1.5,
        Some(t) => ctx.positive("integrator.t_end", t)?,
    };
    let output_interval = match base.output_interval {
        None => (t_end / 500.0).min(2.5e-5),
        Some(h) => ctx.positive("integrator.output_interval", h)?,
    };
    if t_end / output_interval > 1e6 {
        return Err(ctx.err(
            "integrator.output_interval",
            output_interval,
            "at most 1e6 outputs",
        ));
    }
    let max_steps = match base.max_steps {
        None => 5_000_000,
        Some(n) if n >= 1 => n,
        Some(n) => return Err(ctx.err("integrator.max_steps", n, "an integer >= 1")),
    };
    for m in &methods {
        if let Stepping::Fixed { dt, .. } = m.stepping
            && t_end / dt > max_steps as f64
        {
            return Err(ctx.err(
                "integrator.dt",
                dt,
                format!("a step with t_end / dt <= max_steps = {max_steps}"),
            ));
        }
    }
    let reference_dt = match raw.reference.method.as_deref().unwrap_or("ncp-fine") {
        "ncp-fine" => Some(match raw.reference.dt {
            None => 1e-7,
            Some(v) => ctx.positive("reference.dt", v)?,
        }),
        "none" => None,
        other => {
            return Err(ctx.err(
                "reference.method",
                format!("\"{other}\""),
                "\"ncp-fine\" (NCP-BDF2 at reference.dt) or \"none\"",
            ));
        }
    };
    let reference_penalty_tolerance = ctx.tolerance(
        "reference.penalty_tolerance",
        raw.reference.penalty_tolerance,
        1e-8,
    )?;
    let max_def = match raw.statics.max_deflection {
        None => free_length - spring.params.solid_length() - 0.5e-3,
        Some(v) => ctx.positive("statics.max_deflection", v)?,
    };
    if max_def >= free_length - spring.params.solid_length() {
        return Err(ctx.err(
            "statics.max_deflection",
            max_def,
            "a deflection below free_length - solid length",
        ));
    }
    let points = match raw.statics.points {
        None => 211,
        Some(n) if (2..=100_000).contains(&n) => n,
        Some(n) => return Err(ctx.err("statics.points", n, "an integer in 2..=100000")),
    };
    let static_reference = match &raw.statics.reference {
        None => None,
        Some(path) => {
            let file = ctx
                .file
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join(path);
            let table = crate::harness::reference::read_csv(&file).map_err(|e| {
                ctx.err(
                    "statics.reference",
                    format!("\"{path}\""),
                    format!("a readable CSV with columns delta, seat_force: {e}"),
                )
            })?;
            if table.values("delta").is_none() || table.values("seat_force").is_none() {
                return Err(ctx.err(
                    "statics.reference",
                    format!("\"{path}\""),
                    "a CSV with columns delta and seat_force",
                ));
            }
            Some(std::sync::Arc::new(table))
        }
    };
    let error_window = match raw.analysis.error_window {
        // The whole multiple of the output interval closest to 0.5 ms.
        None => output_interval * (5e-4 / output_interval).round().max(1.0),
        Some(w) => ctx.positive("analysis.error_window", w)?,
    };
    let per_window = (error_window / output_interval).round();
    if per_window < 1.0 || (per_window * output_interval - error_window).abs() > 1e-9 * error_window
    {
        return Err(ctx.err(
            "analysis.error_window",
            error_window,
            format!("a whole multiple of the output interval {output_interval} s"),
        ));
    }
    let peers = match &raw.peer {
        None => Vec::new(),
        Some(toml::Value::Table(t)) => vec![peer(ctx, "peer", t.clone())?],
        Some(toml::Value::Array(list)) => {
            let mut out = Vec::with_capacity(list.len());
            for (i, v) in list.iter().enumerate() {
                let at = format!("peer[{i}]");
                let toml::Value::Table(t) = v else {
                    return Err(ctx.err(&at, v, "a table with file, cost and label"));
                };
                out.push(peer(ctx, &at, t.clone())?);
            }
            out
        }
        Some(other) => {
            return Err(ctx.err(
                "peer",
                other,
                "a table [peer] or an array of tables [[peer]] with file, cost and label",
            ));
        }
    };
    Ok(CaseConfig {
        spring,
        cam,
        methods,
        t_end,
        output_interval,
        max_steps,
        reference_dt,
        reference_penalty_tolerance,
        statics: (max_def, points),
        static_reference,
        error_window,
        peers,
    })
}

/// One peer table at `at` (`peer` or `peer[i]`): its curves and costs,
/// read relative to the spec file.
fn peer(ctx: &Ctx, at: &str, table: toml::Table) -> Result<Peer, InputError> {
    let p: PeerToml = ctx.parse_at(at, table)?;
    let dir = ctx.file.parent().unwrap_or(std::path::Path::new("."));
    let curves = crate::harness::reference::read_csv(&dir.join(&p.file)).map_err(|e| {
        ctx.err(
            &format!("{at}.file"),
            format!("\"{}\"", p.file),
            format!("a readable CSV with t and seat_force_<run> columns: {e}"),
        )
    })?;
    let cost = read_cost(&dir.join(&p.cost)).map_err(|e| {
        ctx.err(
            &format!("{at}.cost"),
            format!("\"{}\"", p.cost),
            format!("a CSV with columns method, k_p, rtol, cpu_s, steps: {e}"),
        )
    })?;
    Ok(Peer {
        label: p.label.clone().unwrap_or_else(|| "SciPy".into()),
        curves: std::sync::Arc::new(curves),
        cost: std::sync::Arc::new(cost),
    })
}

/// The peer's cost table: (method, k_p, cpu_s, steps) per row, `#` lines
/// skipped.
fn read_cost(path: &std::path::Path) -> Result<Vec<PeerRun>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header: Vec<&str> = lines.next().ok_or("empty")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or(format!("no column {name}"))
    };
    let (m, k, r, c, s) = (
        col("method")?,
        col("k_p")?,
        col("rtol")?,
        col("cpu_s")?,
        col("steps")?,
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let num = |i: usize| -> Result<f64, String> {
                f.get(i)
                    .ok_or("short row")?
                    .trim()
                    .parse::<f64>()
                    .map_err(|e| e.to_string())
            };
            Ok((
                f.get(m).ok_or("short row")?.trim().to_string(),
                num(k)?,
                num(r)?,
                num(c)?,
                num(s)?,
            ))
        })
        .collect()
}

/// The validated spring of a `[spring]` table.
pub(crate) fn spring(ctx: &Ctx, raw: &SpringToml) -> Result<Spring, InputError> {
    let s = raw;
    let d = ctx.positive("spring.wire_diameter", s.wire_diameter)?;
    let dm = ctx.positive("spring.mean_diameter", s.mean_diameter)?;
    if dm <= d {
        return Err(ctx.err(
            "spring.mean_diameter",
            dm,
            format!("a diameter > wire_diameter = {d} m"),
        ));
    }
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
    let free_length = match s.free_length {
        None => 41e-3,
        Some(v) => ctx.positive("spring.free_length", v)?,
    };
    let installed = match s.installed_length {
        None => 39e-3,
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
        None => 0.5,
        Some(a) if a.is_finite() && (0.0..1.0).contains(&a) => a,
        Some(a) => return Err(ctx.err("spring.progressivity", a, "a number in [0, 1)")),
    };
    let damping_ratio = match s.damping_ratio {
        None => 0.02,
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
pub(crate) fn cam(ctx: &Ctx, raw: &CamToml, spring: &Spring) -> Result<CamLift, InputError> {
    let c = raw;
    let installed = spring.params.installed_length;
    let lift = match c.lift {
        None => 8e-3,
        Some(h) if h.is_finite() && h >= 0.0 => h,
        Some(h) => return Err(ctx.err("cam.lift", h, "a lift >= 0 [m]")),
    };
    let room = installed - spring.params.solid_length();
    if lift >= room {
        return Err(ctx.err(
            "cam.lift",
            lift,
            format!("a lift below installed_length - solid length = {room:e} m (the spring would go solid)"),
        ));
    }
    let rise = match c.rise_angle {
        None => 60.0,
        Some(a) if a.is_finite() && a > 0.0 && a <= 180.0 => a,
        Some(a) => return Err(ctx.err("cam.rise_angle", a, "an angle in (0, 180] degrees")),
    };
    let dwell = match c.dwell_angle {
        None => 0.0,
        Some(a) if a.is_finite() && a >= 0.0 && 2.0 * rise + a <= 360.0 => a,
        Some(a) => {
            return Err(ctx.err(
                "cam.dwell_angle",
                a,
                format!("an angle >= 0 degrees with 2 rise_angle + dwell_angle <= 360 (rise_angle = {rise})"),
            ));
        }
    };
    let cam = CamLift {
        lift,
        rise_angle: rise.to_radians(),
        dwell_angle: dwell.to_radians(),
        cam_speed: match c.cam_speed {
            None => 40.0,
            Some(v) => ctx.positive("cam.cam_speed", v)?,
        },
    };
    Ok(cam)
}
