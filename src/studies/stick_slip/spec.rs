//! The `stick-slip` spec: TOML structs (unknown keys rejected) and their
//! validation into a typed [`CaseConfig`]. The keys `system.*`,
//! `friction.law`, `friction.static`, `friction.kinetic`, `initial.*`,
//! `integrator.dt` and `integrator.t_end` are fixed (ARCHITECTURE.md); the
//! others are this kind's (every key in experiments/README.md).

use serde::Deserialize;

use crate::contact::friction::LawClass;
use crate::error::InputError;
use crate::models::belt::Belt;
use crate::studies::shared::friction::FrictionSpec;
use crate::studies::shared::friction::{LawToml, law};
use crate::studies::shared::friction_method::{FrictionMethod, IntegratorToml, steps};
use crate::studies::shared::span::Span;

pub(crate) use crate::studies::keys::KeyCtx as Ctx;

/// The integration methods of this kind.
pub use crate::studies::shared::friction_method::Integrator;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseToml {
    system: SystemToml,
    friction: LawToml,
    #[serde(default)]
    initial: InitialToml,
    integrator: IntegratorToml,
    #[serde(default)]
    analysis: AnalysisToml,
    #[serde(default)]
    reference: ReferenceToml,
    #[serde(default)]
    variants: toml::Table,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemToml {
    mass: f64,
    stiffness: f64,
    belt_speed: f64,
    normal_force: f64,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct InitialToml {
    #[serde(default)]
    x: Option<f64>,
    #[serde(default)]
    v: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnalysisToml {
    #[serde(default)]
    stick_threshold: Option<f64>,
    #[serde(default)]
    slip_confirm_speed: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReferenceToml {
    #[serde(default)]
    method: Option<String>,
    #[serde(default, rename = "static")]
    static_coefficient: Option<f64>,
    #[serde(default)]
    kinetic: Option<f64>,
}

/// The stick threshold of a method that sticks exactly, relative to the
/// belt speed: |u| <= 1e-12 v_b is zero slip to round-off (a stuck Moreau
/// step sets v = v_b, so u is exactly 0; a slipping one leaves |u| far
/// above it).
pub const STICK_ROUND_OFF: f64 = 1e-12;

/// One method of a case: a law run by an integrator.
pub type MethodConfig = FrictionMethod<FrictionSpec>;

impl MethodConfig {
    /// Whether the method sticks exactly (u = 0 while stuck): a set-valued
    /// law by Moreau time stepping. Regularised laws, LuGre and a
    /// set-valued law under `rk4`/`dopri5` (no sticking limit) never do.
    pub fn sticks_exactly(&self) -> bool {
        self.integrator == Integrator::Moreau
            && matches!(self.law, FrictionSpec::Memoryless(l) if matches!(l.class(), LawClass::SetValued { .. }))
    }
}

/// The exact reference of a case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    /// The piecewise-analytic Coulomb motion with these coefficients.
    CoulombExact {
        /// mu_s.
        static_coefficient: f64,
        /// mu_k.
        kinetic_coefficient: f64,
    },
    /// No reference.
    None,
}

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The system.
    pub belt: Belt,
    /// x(0) [m].
    pub x0: f64,
    /// v(0) [m/s].
    pub v0: f64,
    /// Methods (first: `friction`, then the variants in file order).
    pub methods: Vec<MethodConfig>,
    /// Step (of moreau and rk4, initial step of dopri5), span and
    /// sampling.
    pub span: Span,
    /// |slip| at or below this is sticking, for the methods that do not
    /// stick exactly [m/s].
    pub stick_threshold: f64,
    /// A slip counts once |slip| reaches this, for the methods that do not
    /// stick exactly [m/s].
    pub slip_confirm_speed: f64,
    /// The reference.
    pub reference: Reference,
}

impl CaseConfig {
    /// (stick threshold, slip confirmation speed) of a method's cycle
    /// analysis [m/s]: zero slip to round-off ([`STICK_ROUND_OFF`] v_b, a
    /// slip confirmed at ten times that) for a method that sticks exactly,
    /// so its durations are the physical ones; else the case's
    /// `analysis.stick_threshold` and `slip_confirm_speed`.
    pub fn cycle_thresholds(&self, m: &MethodConfig) -> (f64, f64) {
        if m.sticks_exactly() {
            let t = STICK_ROUND_OFF * self.belt.belt_speed;
            (t, 10.0 * t)
        } else {
            (self.stick_threshold, self.slip_confirm_speed)
        }
    }
}

/// The method of `[<at>]`: its `method` key, else moreau for a set-valued
/// law and dopri5 for a regularised one or LuGre.
fn integrator(
    ctx: &Ctx,
    at: &str,
    raw: &LawToml,
    law: &FrictionSpec,
) -> Result<Integrator, InputError> {
    let default = match law {
        FrictionSpec::Memoryless(l) if matches!(l.class(), LawClass::SetValued { .. }) => {
            Integrator::Moreau.name()
        }
        _ => Integrator::Dopri5.name(),
    };
    let name = raw.method.as_deref().unwrap_or(default);
    let integrator = Integrator::parse(ctx, at, name)?;
    if matches!(integrator, Integrator::Moreau | Integrator::Imex)
        && matches!(law, FrictionSpec::LuGre(_))
    {
        return Err(ctx.err(
            &format!("{at}.method"),
            format!("\"{}\"", integrator.name()),
            "\"rk4\" or \"dopri5\" for law = \"lugre\" (a smooth ODE with a state; the time stepping is for memoryless laws)",
        ));
    }
    Ok(integrator)
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let s = &raw.system;
    let belt = Belt {
        mass: ctx.positive("system.mass", s.mass)?,
        stiffness: ctx.positive("system.stiffness", s.stiffness)?,
        belt_speed: ctx.positive("system.belt_speed", s.belt_speed)?,
        normal_force: ctx.positive("system.normal_force", s.normal_force)?,
    };
    let x0 = ctx.finite("initial.x", raw.initial.x.unwrap_or(0.0))?;
    let v0 = ctx.finite("initial.v", raw.initial.v.unwrap_or(belt.belt_speed))?;
    let method = |at: &str, label: &str, v: &LawToml| -> Result<MethodConfig, InputError> {
        let l = law(ctx, at, v)?;
        Ok(MethodConfig {
            label: label.to_string(),
            law_name: v.law.clone(),
            integrator: integrator(ctx, at, v, &l)?,
            law: l,
        })
    };
    let first = method("friction", &raw.friction.law, &raw.friction)?;
    let only = ("exact", "law's name");
    let methods = ctx.with_variants(first, &raw.variants, only, |at, label, v: LawToml| {
        method(at, label, &v)
    })?;
    let integ = &raw.integrator;
    let fixed_step = methods.iter().any(|m| m.integrator != Integrator::Dopri5);
    let (dt, t_end, tolerance, max_steps) = steps(ctx, integ, 50_000_000, fixed_step)?;
    let output_interval = match integ.output_interval {
        // About max(t_end / 2000, dt), rounded so that it divides t_end.
        None => t_end / (t_end / (t_end / 2000.0).max(dt)).round().max(1.0),
        Some(h) => ctx.positive("integrator.output_interval", h)?,
    };
    let outputs = (t_end / output_interval).round();
    if !(1.0..=1e6).contains(&outputs) || (outputs * output_interval - t_end).abs() > 1e-9 * t_end {
        return Err(ctx.err(
            "integrator.output_interval",
            output_interval,
            format!("t_end / output_interval a whole number of at most 1e6 (t_end = {t_end} s)"),
        ));
    }
    let stick_threshold = match raw.analysis.stick_threshold {
        None => 0.01 * belt.belt_speed,
        Some(v) => ctx.positive("analysis.stick_threshold", v)?,
    };
    let slip_confirm_speed = match raw.analysis.slip_confirm_speed {
        None => 10.0 * stick_threshold,
        Some(v) if v.is_finite() && v >= stick_threshold => v,
        Some(v) => {
            return Err(ctx.err(
                "analysis.slip_confirm_speed",
                v,
                format!("a speed >= stick_threshold = {stick_threshold} m/s"),
            ));
        }
    };
    let reference = reference(ctx, &raw.reference, &methods)?;
    Ok(CaseConfig {
        belt,
        x0,
        v0,
        methods,
        span: Span::new(dt, t_end, tolerance, output_interval, max_steps),
        stick_threshold,
        slip_confirm_speed,
        reference,
    })
}

/// `[reference]`: `coulomb-exact` (default when the first law is Coulomb or
/// constant: its coefficients unless `static`/`kinetic` are given) or
/// `none`.
fn reference(
    ctx: &Ctx,
    raw: &ReferenceToml,
    methods: &[MethodConfig],
) -> Result<Reference, InputError> {
    let coulomb = match methods[0].law {
        FrictionSpec::Memoryless(law) => law.coulomb_coefficients(),
        FrictionSpec::LuGre(_) => None,
    };
    let given = raw.static_coefficient.is_some() || raw.kinetic.is_some();
    let method = raw
        .method
        .as_deref()
        .unwrap_or(if coulomb.is_some() || given {
            "coulomb-exact"
        } else {
            "none"
        });
    match method {
        "none" => {
            if given {
                return Err(ctx.err(
                    "reference.static",
                    raw.static_coefficient.or(raw.kinetic).unwrap_or_default(),
                    "no coefficients with reference.method = \"none\"",
                ));
            }
            Ok(Reference::None)
        }
        "coulomb-exact" => {
            let (s, k) = match (raw.static_coefficient, raw.kinetic, coulomb) {
                (Some(s), Some(k), _) => (s, k),
                (None, None, Some(c)) => c,
                (Some(_), None, _) | (None, None, None) => {
                    return Err(ctx.missing(
                        "reference.kinetic",
                        "mu_k of the exact Coulomb reference (the first law is not Coulomb)",
                    ));
                }
                (None, Some(_), _) => {
                    return Err(
                        ctx.missing("reference.static", "mu_s of the exact Coulomb reference")
                    );
                }
            };
            let s = ctx.positive("reference.static", s)?;
            let k = ctx.positive("reference.kinetic", k)?;
            if k > s {
                return Err(ctx.err(
                    "reference.kinetic",
                    k,
                    format!("a coefficient <= static = {s}"),
                ));
            }
            Ok(Reference::CoulombExact {
                static_coefficient: s,
                kinetic_coefficient: k,
            })
        }
        other => Err(ctx.err(
            "reference.method",
            format!("\"{other}\""),
            "\"coulomb-exact\" (the piecewise-analytic Coulomb motion) or \"none\"",
        )),
    }
}
