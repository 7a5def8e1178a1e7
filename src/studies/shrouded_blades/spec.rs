//! The `shrouded-blades` spec: TOML structs (unknown keys rejected) and
//! their validation into a [`CaseConfig`]. Every model key is optional, its
//! default the documented value of [`BladePairParams::default`]; the
//! friction laws take the keys of the `stick-slip` kind's laws.

use serde::Deserialize;

use crate::contact::friction::FrictionLaw;
use crate::error::InputError;
use crate::models::blades::{BladePair, BladePairParams};
pub(crate) use crate::studies::keys::KeyCtx as Ctx;
use crate::studies::shared::friction::{FrictionSpec, LawToml, law};
use crate::studies::shared::friction_method::{FrictionMethod, IntegratorToml, steps};

/// The integration methods of this kind.
pub use crate::studies::shared::friction_method::Integrator;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaseToml {
    #[serde(default)]
    blade: BladeToml,
    #[serde(default)]
    contact: ContactToml,
    #[serde(default)]
    load: LoadToml,
    friction: LawToml,
    #[serde(default)]
    variants: toml::Table,
    integrator: IntegratorToml,
    #[serde(default)]
    imex: ImexToml,
    #[serde(default)]
    seed: SeedToml,
}

/// The fixed step of the `imex` methods (the seed's formulation).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ImexToml {
    dt: Option<f64>,
}

/// The seed's magnitudes read off its axes, drawn as bands.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SeedToml {
    peak_tip_z: Option<f64>,
    peak_slip_speed: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct BladeToml {
    length: Option<f64>,
    chord: Option<f64>,
    thickness: Option<f64>,
    stagger: Option<f64>,
    youngs_modulus: Option<f64>,
    density: Option<f64>,
    elements: Option<usize>,
    damping_ratio: Option<f64>,
    torsion: Option<bool>,
    poisson_ratio: Option<f64>,
    torsion_factor: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ContactToml {
    inclination: Option<f64>,
    patches: Option<[usize; 2]>,
    initial_gap: Option<f64>,
    stiffness_ratio: Option<f64>,
    damping_ratio: Option<f64>,
    watched_patch: Option<usize>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LoadToml {
    force: Option<f64>,
}

/// One method: a law run by an integrator.
pub type MethodConfig = FrictionMethod<FrictionLaw>;

/// A validated case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The assembled model.
    pub model: std::sync::Arc<BladePair>,
    /// Methods (first: `friction`, then the variants).
    pub methods: Vec<MethodConfig>,
    /// Step of moreau and rk4 [s].
    pub dt: f64,
    /// Step of imex (the seed's formulation) [s]: `imex.dt`, else `dt`.
    pub imex_dt: f64,
    /// Final time [s].
    pub t_end: f64,
    /// rtol of dopri5 (atol = 1e-3 rtol).
    pub tolerance: f64,
    /// Output every this many seconds.
    pub output_interval: f64,
    /// Step bound of dopri5.
    pub max_steps: usize,
    /// The patch whose slip speed is the series `slip_speed`.
    pub watched_patch: usize,
    /// The seed's peak tip z [m] (Fig. 4b), drawn as a +-30 % band.
    pub seed_peak_tip_z: Option<f64>,
    /// The seed's peak slip speed [m/s] (Fig. 4c), drawn as a factor-2 band.
    pub seed_peak_slip_speed: Option<f64>,
}

fn method(ctx: &Ctx, at: &str, raw: &LawToml) -> Result<MethodConfig, InputError> {
    let l = match law(ctx, at, raw)? {
        FrictionSpec::Memoryless(l) => l,
        FrictionSpec::LuGre(_) => {
            return Err(ctx.err(
                &format!("{at}.law"),
                "\"lugre\"",
                "a law without internal state on the blades (LuGre runs on the stick-slip belt)",
            ));
        }
    };
    let integrator = Integrator::parse(ctx, at, raw.method.as_deref().unwrap_or("moreau"))?;
    Ok(MethodConfig {
        label: String::new(),
        law_name: raw.law.clone(),
        law: l,
        integrator,
    })
}

/// Parses and validates one case table.
pub(crate) fn parse_case(ctx: &Ctx, table: toml::Table) -> Result<CaseConfig, InputError> {
    let raw: CaseToml = ctx.parse(table)?;
    let params = params(ctx, &raw)?;
    let model = BladePair::new(&params).map_err(|e| ctx.err("blade", "the model", e))?;
    let watched_patch = match raw.contact.watched_patch {
        None => 0,
        Some(p) if p < model.patch_count() => p,
        Some(p) => {
            return Err(ctx.err(
                "contact.watched_patch",
                p,
                format!("a patch index below {}", model.patch_count()),
            ));
        }
    };
    let mut first = method(ctx, "friction", &raw.friction)?;
    first.label = raw.friction.law.clone();
    let only = ("exact", "law's name");
    let methods = ctx.with_variants(first, &raw.variants, only, |at, label, v: LawToml| {
        let mut m = method(ctx, at, &v)?;
        m.label = label.to_string();
        Ok(m)
    })?;
    let i = &raw.integrator;
    let fixed_step = methods.iter().any(|m| m.integrator != Integrator::Dopri5);
    let (dt, t_end, tolerance, max_steps) = steps(ctx, i, 2_000_000, fixed_step)?;
    let output_interval = ctx.output_interval(i.output_interval, t_end, (t_end / 600.0).max(dt))?;
    let imex_dt = match raw.imex.dt {
        None => dt,
        Some(h) => {
            let h = ctx.positive("imex.dt", h)?;
            let imex = methods.iter().any(|m| m.integrator == Integrator::Imex);
            if imex && t_end / h > max_steps as f64 {
                return Err(ctx.err(
                    "imex.dt",
                    h,
                    format!(
                        "a step with t_end / dt <= max_steps = {max_steps} (t_end = {t_end} s)"
                    ),
                ));
            }
            h
        }
    };
    let seed_peak_tip_z = raw
        .seed
        .peak_tip_z
        .map(|v| ctx.positive("seed.peak_tip_z", v))
        .transpose()?;
    let seed_peak_slip_speed = raw
        .seed
        .peak_slip_speed
        .map(|v| ctx.positive("seed.peak_slip_speed", v))
        .transpose()?;
    Ok(CaseConfig {
        seed_peak_tip_z,
        seed_peak_slip_speed,
        model: std::sync::Arc::new(model),
        methods,
        dt,
        imex_dt,
        t_end,
        tolerance,
        output_interval,
        max_steps,
        watched_patch,
    })
}

/// The blades, their contact and the load (`[blade]`, `[contact]`,
/// `[load]`): every absent key the `Default` of [`BladePairParams`].
fn params(ctx: &Ctx, raw: &CaseToml) -> Result<BladePairParams, InputError> {
    let d = BladePairParams::default();
    let pos = |key: &str, v: Option<f64>, default: f64| -> Result<f64, InputError> {
        v.map_or(Ok(default), |v| ctx.positive(key, v))
    };
    let b = &raw.blade;
    let c = &raw.contact;
    let elements = match b.elements {
        None => d.elements,
        Some(n) if (1..=200).contains(&n) => n,
        Some(n) => return Err(ctx.err("blade.elements", n, "an integer in 1..=200")),
    };
    let zeta = match b.damping_ratio {
        None => d.damping_ratios[0],
        Some(z) if z.is_finite() && (0.0..1.0).contains(&z) => z,
        Some(z) => return Err(ctx.err("blade.damping_ratio", z, "a number in [0, 1)")),
    };
    let inclination = match c.inclination {
        None => d.inclination.to_degrees(),
        Some(a) if a.is_finite() && (0.0..90.0).contains(&a) => a,
        Some(a) => {
            return Err(ctx.err(
                "contact.inclination",
                a,
                "an angle in [0, 90) degrees between the contact normal and z",
            ));
        }
    };
    let patches = match c.patches {
        None => d.patches,
        Some(p) if p.iter().all(|&n| (1..=50).contains(&n)) => p,
        Some(p) => {
            return Err(ctx.err(
                "contact.patches",
                format!("[{}, {}]", p[0], p[1]),
                "two integers in 1..=50 (patches along xi and eta)",
            ));
        }
    };
    let stagger = match b.stagger {
        None => d.stagger.to_degrees(),
        Some(s) if s.is_finite() && s.abs() <= 90.0 => s,
        Some(s) => return Err(ctx.err("blade.stagger", s, "an angle in [-90, 90] degrees")),
    };
    let initial_gap = match c.initial_gap {
        None => d.initial_gap,
        Some(g) => ctx.finite("contact.initial_gap", g)?,
    };
    let contact_damping_ratio = match c.damping_ratio {
        None => d.contact_damping_ratio,
        Some(z) if z.is_finite() && z >= 0.0 => z,
        Some(z) => return Err(ctx.err("contact.damping_ratio", z, "a number >= 0")),
    };
    let poisson_ratio = match b.poisson_ratio {
        None => d.poisson_ratio,
        Some(v) if v.is_finite() && v > -1.0 && v < 0.5 => v,
        Some(v) => {
            return Err(ctx.err(
                "blade.poisson_ratio",
                v,
                "a number in (-1, 0.5) (G = E / (2 (1 + nu)) of the torsion)",
            ));
        }
    };
    let torsion = b.torsion.unwrap_or(d.torsion);
    let torsion_factor = match b.torsion_factor {
        None => d.torsion_factor,
        Some(f) if !torsion => {
            return Err(ctx.err(
                "blade.torsion_factor",
                f,
                "no value unless blade.torsion = true (the factor scales the torsion stiffness G J / L)",
            ));
        }
        Some(f) => ctx.positive("blade.torsion_factor", f)?,
    };
    Ok(BladePairParams {
        length: pos("blade.length", b.length, d.length)?,
        chord: pos("blade.chord", b.chord, d.chord)?,
        thickness: pos("blade.thickness", b.thickness, d.thickness)?,
        stagger: stagger.to_radians(),
        youngs_modulus: pos("blade.youngs_modulus", b.youngs_modulus, d.youngs_modulus)?,
        density: pos("blade.density", b.density, d.density)?,
        elements,
        damping_ratios: [zeta, zeta],
        inclination: inclination.to_radians(),
        patches,
        initial_gap,
        contact_stiffness_ratio: pos(
            "contact.stiffness_ratio",
            c.stiffness_ratio,
            d.contact_stiffness_ratio,
        )?,
        contact_damping_ratio,
        load: pos("load.force", raw.load.force, d.load)?,
        torsion,
        poisson_ratio,
        torsion_factor,
        ..d
    })
}
