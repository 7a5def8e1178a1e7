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
    let law = match raw.law.as_str() {
        "coulomb" => coulomb(&k, raw)?,
        "constant" => constant(&k, raw)?,
        "tanh" => tanh(&k, raw)?,
        "adams" => adams(&k, raw)?,
        "micro-slip" => micro_slip(&k, raw)?,
        "ansys" => ansys(&k, raw)?,
        "stribeck" => stribeck(&k, raw)?,
        "lugre" => return lugre(&k, raw).map(FrictionSpec::LuGre),
        other => {
            return Err(ctx.err(
                &k.key("law"),
                format!("\"{other}\""),
                crate::studies::keys::one_of(&LAWS),
            ));
        }
    };
    Ok(FrictionSpec::Memoryless(law))
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

    /// The required static and kinetic coefficients (`static_what` and
    /// `kinetic_what` say what each is), the kinetic one not above the
    /// static one.
    fn static_and_kinetic(
        &self,
        raw: &LawToml,
        static_what: &str,
        kinetic_what: &str,
    ) -> Result<(f64, f64), InputError> {
        let mu_s = self.need("static", raw.static_coefficient, static_what)?;
        let mu_k = self.need("kinetic", raw.kinetic, kinetic_what)?;
        if mu_k > mu_s {
            return Err(self.ctx.err(
                &self.key("kinetic"),
                mu_k,
                format!("a coefficient <= static = {mu_s}"),
            ));
        }
        Ok((mu_s, mu_k))
    }

    /// Keys the law `name` does not use are an error.
    fn unused(&self, name: &str, raw: &LawToml, used: &[&str]) -> Result<(), InputError> {
        unused(self.ctx, self.at, name, raw, used)
    }
}

/// Coulomb's set-valued law: static and kinetic coefficients.
fn coulomb(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused("coulomb", raw, &["static", "kinetic"])?;
    let (mu_s, mu_k) = k.static_and_kinetic(raw, "mu_s > 0", "mu_k > 0, <= static")?;
    Ok(FrictionLaw::SetValued(
        Coulomb {
            static_coefficient: mu_s,
            kinetic_coefficient: mu_k,
        }
        .into(),
    ))
}

/// A constant coefficient, set-valued at zero slip.
fn constant(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused("constant", raw, &["static"])?;
    Ok(FrictionLaw::constant(k.need(
        "static",
        raw.static_coefficient,
        "the coefficient f > 0",
    )?))
}

/// The regularised law f = f_s tanh(k v).
fn tanh(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused("tanh", raw, &["static", "sharpness"])?;
    Ok(FrictionLaw::Regularized(
        Tanh {
            static_coefficient: k.need("static", raw.static_coefficient, "f_s > 0")?,
            sharpness: k.need(
                "sharpness",
                raw.sharpness,
                "k > 0 [s/m] in f = f_s tanh(k v)",
            )?,
        }
        .into(),
    ))
}

/// The ADAMS-type step law, B, C and E defaulting to the seed's.
fn adams(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused("adams", raw, &["static", "b", "c", "e"])?;
    let seed = Adams::seed(k.need("static", raw.static_coefficient, "f_s > 0")?);
    let c = k.opt("c", raw.c, seed.c)?;
    if c >= 2.0 {
        return Err(k.ctx.err(
            &k.key("c"),
            c,
            "a number in (0, 2): f tends to f_s sin(C pi / 2) at high speed",
        ));
    }
    Ok(FrictionLaw::Regularized(
        Adams {
            b: k.opt("b", raw.b, seed.b)?,
            c,
            e: match raw.e {
                None => seed.e,
                Some(e) if e.is_finite() && e <= 0.0 => e,
                Some(e) => return Err(k.ctx.err(&k.key("e"), e, "a finite number <= 0")),
            },
            ..seed
        }
        .into(),
    ))
}

/// The micro-slip law: static and dynamic coefficients, decay and the
/// critical speed (1 mm/s when absent).
fn micro_slip(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused(
        "micro-slip",
        raw,
        &["static", "kinetic", "decay", "critical_speed"],
    )?;
    let (mu_s, mu_k) = k.static_and_kinetic(raw, "f_s > 0", "f_d > 0, <= static")?;
    Ok(FrictionLaw::Regularized(
        MicroSlip {
            static_coefficient: mu_s,
            dynamic_coefficient: mu_k,
            decay: k.need("decay", raw.decay, "d > 0 [s/m]")?,
            critical_speed: k.opt("critical_speed", raw.critical_speed, 1e-3)?,
        }
        .into(),
    ))
}

/// ANSYS's exponential decay law.
fn ansys(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused("ansys", raw, &["static", "kinetic", "decay"])?;
    let (mu_s, mu_k) = k.static_and_kinetic(raw, "mu_s > 0", "mu_k > 0, <= static")?;
    Ok(FrictionLaw::Exponential(
        AnsysExponential {
            kinetic_coefficient: mu_k,
            static_ratio: mu_s / mu_k,
            decay: k.need("decay", raw.decay, "DC > 0 [s/m]")?,
        }
        .into(),
    ))
}

/// Stribeck's law, its exponent 2 when absent.
fn stribeck(k: &LawKeys, raw: &LawToml) -> Result<FrictionLaw, InputError> {
    k.unused(
        "stribeck",
        raw,
        &["static", "kinetic", "stribeck_speed", "exponent"],
    )?;
    let (mu_s, mu_k) = k.static_and_kinetic(raw, "mu_s > 0", "mu_k > 0, <= static")?;
    Ok(FrictionLaw::Exponential(
        Stribeck {
            static_coefficient: mu_s,
            kinetic_coefficient: mu_k,
            stribeck_speed: k.need("stribeck_speed", raw.stribeck_speed, "v_s > 0 [m/s]")?,
            exponent: k.opt("exponent", raw.exponent, 2.0)?,
        }
        .into(),
    ))
}

/// The LuGre law (Canudas de Wit et al. 1995), its bristle constants defaulting to the paper's.
fn lugre(k: &LawKeys, raw: &LawToml) -> Result<LuGre, InputError> {
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
    let (mu_s, mu_k) =
        k.static_and_kinetic(raw, "mu_s = F_s / N > 0", "mu_c = F_c / N > 0, <= static")?;
    let paper = LuGre::canudas_de_wit(mu_k, mu_s);
    Ok(LuGre {
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
    })
}
