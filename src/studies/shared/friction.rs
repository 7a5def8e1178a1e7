//! The `[friction]` table of the kinds that take a friction law
//! (`stick-slip`, `friction-law`, `shrouded-blades`): its keys (`law`,
//! `method` and every law's parameters; experiments/README.md gives each
//! key's unit, default and source) and their validation into a law.

use serde::Deserialize;

use crate::contact::friction::{
    Adams, AnsysExponential, Coulomb, FrictionLaw, LawClass, LuGre, MicroSlip, Stribeck, Tanh,
};
use crate::error::InputError;
use crate::studies::keys::KeyCtx as Ctx;

/// The friction laws a `[friction]` table names (spec names).
pub const LAWS: [&str; 8] = [
    "coulomb",
    "constant",
    "tanh",
    "adams",
    "micro-slip",
    "ansys",
    "stribeck",
    "lugre",
];

/// A law's keys (and the method that runs it); which keys a law takes is
/// checked in [`law`].
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct LawToml {
    pub(crate) law: String,
    #[serde(default)]
    pub(crate) method: Option<String>,
    #[serde(default, rename = "static")]
    static_coefficient: Option<f64>,
    #[serde(default)]
    kinetic: Option<f64>,
    #[serde(default)]
    sharpness: Option<f64>,
    #[serde(default)]
    b: Option<f64>,
    #[serde(default)]
    c: Option<f64>,
    #[serde(default)]
    e: Option<f64>,
    #[serde(default)]
    decay: Option<f64>,
    #[serde(default)]
    critical_speed: Option<f64>,
    #[serde(default)]
    stribeck_speed: Option<f64>,
    #[serde(default)]
    exponent: Option<f64>,
    #[serde(default)]
    sigma0: Option<f64>,
    #[serde(default)]
    sigma1: Option<f64>,
    #[serde(default)]
    sigma2: Option<f64>,
}

/// A validated friction law: memoryless or LuGre (the kinds without a
/// friction state refuse LuGre).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FrictionSpec {
    /// A law f(|u|) without state.
    Memoryless(FrictionLaw),
    /// The LuGre law (bristle state z).
    LuGre(LuGre),
}

impl FrictionSpec {
    /// The static (break-away) coefficient: f_stick of a set-valued law,
    /// the peak over 0..1 m/s of a regularised one, mu_s of LuGre.
    pub fn static_coefficient(&self) -> f64 {
        match self {
            FrictionSpec::Memoryless(l) => match l.class() {
                LawClass::SetValued { stick } => stick,
                LawClass::Regularized => l.peak(1.0).1,
            },
            FrictionSpec::LuGre(l) => l.static_coefficient,
        }
    }
}

fn unused(
    ctx: &Ctx,
    at: &str,
    law: &str,
    raw: &LawToml,
    allowed: &[&str],
) -> Result<(), InputError> {
    let given = [
        ("static", raw.static_coefficient),
        ("kinetic", raw.kinetic),
        ("sharpness", raw.sharpness),
        ("b", raw.b),
        ("c", raw.c),
        ("e", raw.e),
        ("decay", raw.decay),
        ("critical_speed", raw.critical_speed),
        ("stribeck_speed", raw.stribeck_speed),
        ("exponent", raw.exponent),
        ("sigma0", raw.sigma0),
        ("sigma1", raw.sigma1),
        ("sigma2", raw.sigma2),
    ];
    for (key, value) in given {
        if let Some(v) = value
            && !allowed.contains(&key)
        {
            return Err(ctx.err(
                &format!("{at}.{key}"),
                v,
                format!(
                    "no `{key}` with law = \"{law}\": its keys are {}",
                    crate::studies::keys::quoted(allowed, '`')
                ),
            ));
        }
    }
    Ok(())
}

/// The law of `[<at>]`, every parameter validated (see experiments/README.md
/// for the keys of each law, their units, defaults and sources).
pub(crate) fn law(ctx: &Ctx, at: &str, raw: &LawToml) -> Result<FrictionSpec, InputError> {
    let k = LawKeys { ctx, at };
    let name = raw.law.as_str();
    match name {
        "coulomb" | "constant" => set_valued(&k, name, raw),
        "tanh" | "adams" | "micro-slip" => regularized(&k, name, raw),
        "ansys" | "stribeck" => exponential(&k, name, raw),
        "lugre" => lugre(&k, raw),
        other => Err(k.unknown_law(other)),
    }
}

/// One law's table at `at`: its keys named `<at>.<key>` in the errors.
struct LawKeys<'a> {
    ctx: &'a Ctx<'a>,
    at: &'a str,
}

impl LawKeys<'_> {
    fn key(&self, k: &str) -> String {
        format!("{}.{k}", self.at)
    }

    /// A required positive number.
    fn need(&self, k: &str, v: Option<f64>, what: &str) -> Result<f64, InputError> {
        let v = v.ok_or_else(|| self.ctx.missing(&self.key(k), what.to_string()))?;
        self.ctx.positive(&self.key(k), v)
    }

    /// An optional positive number, `default` when absent.
    fn opt(&self, k: &str, v: Option<f64>, default: f64) -> Result<f64, InputError> {
        match v {
            None => Ok(default),
            Some(v) => self.ctx.positive(&self.key(k), v),
        }
    }

    /// The kinetic coefficient may not exceed the static one.
    fn kinetic_below(&self, mu_s: f64, mu_k: f64) -> Result<(), InputError> {
        if mu_k > mu_s {
            Err(self.ctx.err(
                &self.key("kinetic"),
                mu_k,
                format!("a coefficient <= static = {mu_s}"),
            ))
        } else {
            Ok(())
        }
    }

    /// A law name that is not one of [`LAWS`].
    fn unknown_law(&self, name: &str) -> InputError {
        self.ctx.err(
            &self.key("law"),
            format!("\"{name}\""),
            crate::studies::keys::one_of(&LAWS),
        )
    }

    /// Keys the law `name` does not use are an error.
    fn unused(&self, name: &str, raw: &LawToml, used: &[&str]) -> Result<(), InputError> {
        unused(self.ctx, self.at, name, raw, used)
    }
}

/// The set-valued laws: Coulomb (static and kinetic) and the constant coefficient.
fn set_valued(k: &LawKeys, name: &str, raw: &LawToml) -> Result<FrictionSpec, InputError> {
    Ok(match name {
        "coulomb" => {
            k.unused(name, raw, &["static", "kinetic"])?;
            let mu_s = k.need("static", raw.static_coefficient, "mu_s > 0")?;
            let mu_k = k.need("kinetic", raw.kinetic, "mu_k > 0, <= static")?;
            k.kinetic_below(mu_s, mu_k)?;
            FrictionSpec::Memoryless(FrictionLaw::Coulomb(Coulomb {
                static_coefficient: mu_s,
                kinetic_coefficient: mu_k,
            }))
        }
        "constant" => {
            k.unused(name, raw, &["static"])?;
            FrictionSpec::Memoryless(FrictionLaw::Constant {
                mu: k.need("static", raw.static_coefficient, "the coefficient f > 0")?,
            })
        }
        other => return Err(k.unknown_law(other)),
    })
}

/// The regularised laws: tanh, the ADAMS-type step law and micro-slip.
fn regularized(k: &LawKeys, name: &str, raw: &LawToml) -> Result<FrictionSpec, InputError> {
    Ok(match name {
        "tanh" => {
            k.unused(name, raw, &["static", "sharpness"])?;
            FrictionSpec::Memoryless(FrictionLaw::Tanh(Tanh {
                static_coefficient: k.need("static", raw.static_coefficient, "f_s > 0")?,
                sharpness: k.need(
                    "sharpness",
                    raw.sharpness,
                    "k > 0 [s/m] in f = f_s tanh(k v)",
                )?,
            }))
        }
        "adams" => {
            k.unused(name, raw, &["static", "b", "c", "e"])?;
            let seed = Adams::seed(k.need("static", raw.static_coefficient, "f_s > 0")?);
            let c = k.opt("c", raw.c, seed.c)?;
            if c >= 2.0 {
                return Err(k.ctx.err(
                    &k.key("c"),
                    c,
                    "a number in (0, 2): f tends to f_s sin(C pi / 2) at high speed",
                ));
            }
            FrictionSpec::Memoryless(FrictionLaw::Adams(Adams {
                b: k.opt("b", raw.b, seed.b)?,
                c,
                e: match raw.e {
                    None => seed.e,
                    Some(e) if e.is_finite() && e <= 0.0 => e,
                    Some(e) => return Err(k.ctx.err(&k.key("e"), e, "a finite number <= 0")),
                },
                ..seed
            }))
        }
        "micro-slip" => {
            k.unused(name, raw, &["static", "kinetic", "decay", "critical_speed"])?;
            let mu_s = k.need("static", raw.static_coefficient, "f_s > 0")?;
            let mu_k = k.need("kinetic", raw.kinetic, "f_d > 0, <= static")?;
            k.kinetic_below(mu_s, mu_k)?;
            FrictionSpec::Memoryless(FrictionLaw::MicroSlip(MicroSlip {
                static_coefficient: mu_s,
                dynamic_coefficient: mu_k,
                decay: k.need("decay", raw.decay, "d > 0 [s/m]")?,
                critical_speed: k.opt("critical_speed", raw.critical_speed, 1e-3)?,
            }))
        }
        other => return Err(k.unknown_law(other)),
    })
}

/// The exponential decay laws: ANSYS's and Stribeck's.
fn exponential(k: &LawKeys, name: &str, raw: &LawToml) -> Result<FrictionSpec, InputError> {
    Ok(match name {
        "ansys" => {
            k.unused(name, raw, &["static", "kinetic", "decay"])?;
            let mu_s = k.need("static", raw.static_coefficient, "mu_s > 0")?;
            let mu_k = k.need("kinetic", raw.kinetic, "mu_k > 0, <= static")?;
            k.kinetic_below(mu_s, mu_k)?;
            FrictionSpec::Memoryless(FrictionLaw::AnsysExponential(AnsysExponential {
                kinetic_coefficient: mu_k,
                static_ratio: mu_s / mu_k,
                decay: k.need("decay", raw.decay, "DC > 0 [s/m]")?,
            }))
        }
        "stribeck" => {
            k.unused(
                name,
                raw,
                &["static", "kinetic", "stribeck_speed", "exponent"],
            )?;
            let mu_s = k.need("static", raw.static_coefficient, "mu_s > 0")?;
            let mu_k = k.need("kinetic", raw.kinetic, "mu_k > 0, <= static")?;
            k.kinetic_below(mu_s, mu_k)?;
            FrictionSpec::Memoryless(FrictionLaw::Stribeck(Stribeck {
                static_coefficient: mu_s,
                kinetic_coefficient: mu_k,
                stribeck_speed: k.need("stribeck_speed", raw.stribeck_speed, "v_s > 0 [m/s]")?,
                exponent: k.opt("exponent", raw.exponent, 2.0)?,
            }))
        }
        other => return Err(k.unknown_law(other)),
    })
}

/// The LuGre law (Canudas de Wit et al. 1995), its bristle constants defaulting to the paper's.
fn lugre(k: &LawKeys, raw: &LawToml) -> Result<FrictionSpec, InputError> {
    k.unused(
        "lugre",
        raw,
        &[
            "static",
            "kinetic",
            "stribeck_speed",
            "sigma0",
            "sigma1",
            "sigma2",
        ],
    )?;
    let mu_s = k.need("static", raw.static_coefficient, "mu_s = F_s / N > 0")?;
    let mu_k = k.need("kinetic", raw.kinetic, "mu_c = F_c / N > 0, <= static")?;
    k.kinetic_below(mu_s, mu_k)?;
    let paper = LuGre::canudas_de_wit(mu_k, mu_s);
    Ok(FrictionSpec::LuGre(LuGre {
        sigma0: k.opt("sigma0", raw.sigma0, paper.sigma0)?,
        sigma1: k.opt("sigma1", raw.sigma1, paper.sigma1)?,
        sigma2: match raw.sigma2 {
            None => paper.sigma2,
            Some(v) if v.is_finite() && v >= 0.0 => v,
            Some(v) => {
                return Err(k
                    .ctx
                    .err(&k.key("sigma2"), v, "a finite number >= 0 [N s/m]"));
            }
        },
        stribeck_speed: k.opt("stribeck_speed", raw.stribeck_speed, paper.stribeck_speed)?,
        ..paper
    }))
}
