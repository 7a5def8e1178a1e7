//! The `valve-spring` spec: TOML structs (unknown keys rejected) and their
//! validation into a [`CaseConfig`]. `[spring]`, `[cam]` and a method's
//! contact and stepping keys are shared with the valvetrain kind
//! ([`crate::studies::shared::valve`]); the others are this kind's (every
//! key in experiments/README.md).

use serde::Deserialize;

use crate::error::InputError;
use crate::integrators::bdf_contact::{ContactModel, Stepping};
use crate::models::valve_spring::{CamLift, Spring};
use crate::studies::shared::valve::ValveMethod;
use crate::studies::shared::valve::{self, CamToml, MethodToml, ReferenceToml, SpringToml};

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

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
    /// One of [`ValveMethod::ALL`].
    pub method: ValveMethod,
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

/// An independent static curve (columns `delta`, `seat_force`).
pub type StaticReference = std::sync::Arc<crate::harness::table::Table>;

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
    pub static_reference: Option<StaticReference>,
    /// The seat-force error is measured on means over windows this long [s].
    pub error_window: f64,
    /// Peer tools' runs: (label, seat-force curves `t, seat_force_<run>`,
    /// cost table `method, k_p, cpu_s, steps`), in the spec's order.
    pub peers: Vec<Peer>,
}

/// Method `raw` (over `base`) at `at`, labelled `label` (None: its name).
fn method(
    ctx: &Ctx,
    at: &str,
    label: Option<&str>,
    (raw, base): (&MethodToml, &MethodToml),
    ks: f64,
) -> Result<MethodConfig, InputError> {
    let m = valve::method(ctx, at, (raw, base), ks, &ValveMethod::ALL)?;
    Ok(MethodConfig {
        label: label.unwrap_or(m.method.name()).to_string(),
        method: m.method,
        contact: m.contact,
        stepping: m.stepping,
    })
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let spring = valve::spring(ctx, &raw.spring)?;
    let cam = valve::cam(ctx, &raw.cam, &spring)?;
    // A variant may not set the case's span keys.
    let case_keys = ["t_end", "output_interval", "max_steps"];
    let ks = spring.segment_stiffness;
    let methods = valve::methods(
        ctx,
        (&raw.integrator, &raw.variants),
        &case_keys,
        |at, label, v, base| method(ctx, at, label, (v, base), ks),
    )?;
    let (t_end, output_interval, max_steps) = span(ctx, &raw.integrator, &cam, &methods)?;
    let (reference_dt, reference_penalty_tolerance) = reference(ctx, &raw.reference)?;
    let (statics, static_reference) = statics(ctx, &raw.statics, &spring)?;
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
    Ok(CaseConfig {
        spring,
        cam,
        methods,
        t_end,
        output_interval,
        max_steps,
        reference_dt,
        reference_penalty_tolerance,
        statics,
        static_reference,
        error_window,
        peers: peers(ctx, &raw.peer)?,
    })
}

/// The run's span from `[integrator]`: (t_end, output interval, step
/// bound), every fixed step within the bound.
fn span(
    ctx: &Ctx,
    base: &MethodToml,
    cam: &CamLift,
    methods: &[MethodConfig],
) -> Result<(f64, f64, usize), InputError> {
    let t_end = match base.t_end {
        None => cam.event_duration() * 1.5,
        Some(t) => ctx.positive("integrator.t_end", t)?,
    };
    let default = (t_end / 500.0).min(2.5e-5);
    let output_interval = ctx.output_interval(base.output_interval, t_end, default)?;
    let max_steps = match base.max_steps {
        None => 5_000_000,
        Some(n) if n >= 1 => n,
        Some(n) => return Err(ctx.err("integrator.max_steps", n, "an integer >= 1")),
    };
    for m in methods {
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
    Ok((t_end, output_interval, max_steps))
}

/// `[reference]`: the fine NCP step (None: no reference) and the penalty
/// methods' reference tolerance.
fn reference(ctx: &Ctx, r: &ReferenceToml) -> Result<(Option<f64>, f64), InputError> {
    let reference_dt = match r.method.as_deref().unwrap_or("ncp-fine") {
        "ncp-fine" => Some(match r.dt {
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
    let reference_penalty_tolerance =
        ctx.tolerance("reference.penalty_tolerance", r.penalty_tolerance, 1e-8)?;
    Ok((reference_dt, reference_penalty_tolerance))
}

/// `[statics]`: (largest deflection, points) of the quasi-static curve and
/// the independent curve it is checked against.
fn statics(
    ctx: &Ctx,
    st: &StaticsToml,
    spring: &Spring,
) -> Result<((f64, usize), Option<StaticReference>), InputError> {
    let free_length = spring.params.free_length;
    let max_def = match st.max_deflection {
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
    let points = match st.points {
        None => 211,
        Some(n) if (2..=100_000).contains(&n) => n,
        Some(n) => return Err(ctx.err("statics.points", n, "an integer in 2..=100000")),
    };
    let static_reference = match &st.reference {
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
    Ok(((max_def, points), static_reference))
}

/// One peer (`[peer]`) or several (`[[peer]]`).
fn peers(ctx: &Ctx, raw: &Option<toml::Value>) -> Result<Vec<Peer>, InputError> {
    Ok(match raw {
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
