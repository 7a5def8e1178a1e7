//! A study's assumptions: the parameters its seed does not fix, each with
//! a plausible range and the source of that range (`[[study.assumption]]`:
//! `key`, `from`, `to`, `unit`, `scale`, `source`, `step`, `also`).
//! `PATH --robustness N` samples the box they span (`harness::robustness`).
//!
//! The key is a dotted key of the study table, as a sweep's, that the
//! study sets to a number (its nominal value, the spec's guess), which
//! must lie in `[from, to]`; a swept key is refused (its values are the
//! study's cases). A key whose nominal value is an integer (a count, e.g.
//! masses per coil) takes the nearest integer of each sample. `also`
//! names further keys set to the same value (one physical parameter
//! written in several places, e.g. the contact stiffness of every solver
//! of one penalty model); each must have the key's nominal value.

use std::path::Path;

use serde::Deserialize;

use crate::error::InputError;

/// How a range is sampled: uniformly in the value or in its logarithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// Uniform in the value.
    Linear,
    /// Uniform in the logarithm (positive bounds).
    Log,
}

/// One assumption as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assumption {
    /// Dotted key of the study table, e.g. `spring.damping_ratio`.
    pub key: String,
    /// Lower end of the plausible range.
    pub from: f64,
    /// Upper end.
    pub to: f64,
    /// The value's unit, as the figures' axes write it (`N/m`, `m`, `-`
    /// for a ratio or a count).
    pub unit: String,
    /// How the range is sampled (default linear).
    #[serde(default = "linear")]
    pub scale: Scale,
    /// Why this range: a handbook value, a design rule, the scale of the
    /// seed's figures.
    pub source: String,
    /// Samples are rounded to `from` plus a multiple of this (e.g. 2 for
    /// masses per coil that must make whole masses of 4.5 coils); an
    /// integer key without it takes the nearest integer.
    #[serde(default)]
    pub step: Option<f64>,
    /// Further dotted keys set to the sample's value with `key` (the same
    /// parameter written in several places of the study table).
    #[serde(default)]
    pub also: Vec<String>,
    /// Whether the nominal value is an integer (set on loading).
    #[serde(skip)]
    pub integer: bool,
    /// The spec's nominal value (set on loading).
    #[serde(skip)]
    pub nominal: f64,
}

fn linear() -> Scale {
    Scale::Linear
}

impl Assumption {
    /// Every key the assumption sets: `key`, then `also`.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.key.as_str()).chain(self.also.iter().map(String::as_str))
    }

    /// The axis label of its values, e.g. `joint.clearance [m] (assumed)`.
    pub fn label(&self) -> String {
        format!("{} [{}] (assumed)", self.key, self.unit)
    }

    /// The value at `u` in [0, 1]: from + u (to - from), or its log-scale
    /// counterpart; rounded to the nearest integer for an integer key.
    pub fn value_at(&self, u: f64) -> f64 {
        let v = match self.scale {
            Scale::Linear => self.from + u * (self.to - self.from),
            Scale::Log => (self.from.ln() + u * (self.to.ln() - self.from.ln())).exp(),
        };
        match self.step {
            Some(step) => (self.from + ((v - self.from) / step).round() * step).min(self.to),
            None if self.integer => v.round(),
            None => v,
        }
    }

    /// The value as a TOML value of the key's type.
    pub fn toml_value(&self, v: f64) -> toml::Value {
        if self.integer {
            // Exact: v is a rounded value within the (finite) range.
            toml::Value::Integer(v as i64)
        } else {
            toml::Value::Float(v)
        }
    }
}

/// Reads the nominal number at a dotted key of `table`.
fn number_at(table: &toml::Table, key: &str) -> Option<(f64, bool)> {
    let mut segments = key.split('.').peekable();
    let mut current = table;
    while let Some(seg) = segments.next() {
        let value = current.get(seg)?;
        if segments.peek().is_none() {
            return match value {
                toml::Value::Integer(i) => Some((*i as f64, true)),
                toml::Value::Float(f) => Some((*f, false)),
                _ => None,
            };
        }
        current = value.as_table()?;
    }
    None
}

/// Each key of `a.also` must be a key no sweep sweeps, other than
/// `a.key`, that the study sets to the same number (`nominal`, an integer
/// when `integer`); `err(key, value, expected)` names the first that is not.
fn validate_also(
    a: &Assumption,
    nominal: f64,
    integer: bool,
    table: &toml::Table,
    swept: &[&str],
    err: impl Fn(&str, String, &str) -> InputError,
) -> Result<(), InputError> {
    for (j, other) in a.also.iter().enumerate() {
        let k = format!("also[{j}]");
        if swept.contains(&other.as_str()) || other == &a.key {
            return Err(err(
                &k,
                format!("\"{other}\""),
                "a key other than `key` that no sweep of the study sweeps",
            ));
        }
        match number_at(table, other) {
            Some((v, int)) if v == nominal && int == integer => {}
            found => {
                return Err(err(
                    &k,
                    format!(
                        "\"{other}\" = {}",
                        found.map_or_else(|| "not a number".to_string(), |(v, _)| v.to_string())
                    ),
                    &format!(
                        "a dotted key the study sets to the same number as \"{}\" ({nominal}): the same parameter written elsewhere",
                        a.key
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Validates `[[study.assumption]]` as read against the study table
/// (before sweeps) and the swept keys, and sets each one's nominal value.
pub fn validate_assumptions(
    file: &Path,
    study: &str,
    mut assumptions: Vec<Assumption>,
    table: &toml::Table,
    swept: &[&str],
) -> Result<Vec<Assumption>, InputError> {
    for (i, a) in assumptions.iter_mut().enumerate() {
        let at = |k: &str| format!("study.assumption[{i}].{k}");
        let err = |k: &str, value: String, expected: &str| {
            InputError::value(file, study, at(k), value, expected)
        };
        if swept.contains(&a.key.as_str()) {
            return Err(err(
                "key",
                format!("\"{}\"", a.key),
                "a key no sweep of the study sweeps (a swept key's values are the study's cases)",
            ));
        }
        let Some((nominal, integer)) = number_at(table, &a.key) else {
            return Err(err(
                "key",
                format!("\"{}\"", a.key),
                "a dotted key the study sets to a number (its nominal value), e.g. \"spring.damping_ratio\"",
            ));
        };
        validate_also(a, nominal, integer, table, swept, |k, value, expected| {
            InputError::value(file, study, at(k), value, expected)
        })?;
        if a.unit.trim().is_empty() {
            return Err(err(
                "unit",
                "\"\"".into(),
                "the value's unit as the figures write it, e.g. \"N/m\", \"m\", or \"-\" for a ratio or a count",
            ));
        }
        if !(a.from.is_finite() && a.to.is_finite() && a.from < a.to) {
            return Err(err(
                "to",
                format!("from = {}, to = {}", a.from, a.to),
                "finite bounds with from < to",
            ));
        }
        if a.scale == Scale::Log && a.from <= 0.0 {
            return Err(err(
                "from",
                a.from.to_string(),
                "a positive lower bound for scale = \"log\"",
            ));
        }
        if !(a.from..=a.to).contains(&nominal) {
            return Err(err(
                "key",
                format!("\"{}\" = {nominal}", a.key),
                &format!(
                    "a nominal value inside the plausible range [{}, {}] (the spec's guess is one of the plausible values)",
                    a.from, a.to
                ),
            ));
        }
        if let Some(step) = a.step
            && !(step.is_finite() && step > 0.0 && step <= a.to - a.from)
        {
            return Err(err(
                "step",
                step.to_string(),
                "a positive step no larger than to - from",
            ));
        }
        if integer && a.to.round() - a.from.round() < 1.0 {
            return Err(err(
                "to",
                format!("from = {}, to = {}", a.from, a.to),
                "a range holding at least two integers for an integer key",
            ));
        }
        if a.source.trim().is_empty() {
            return Err(err(
                "source",
                "\"\"".into(),
                "why this range: a handbook value, a design rule or the scale of the seed's figures",
            ));
        }
        a.nominal = nominal;
        a.integer = integer;
    }
    for (i, a) in assumptions.iter().enumerate() {
        if assumptions[..i].iter().any(|b| b.key == a.key) {
            return Err(InputError::value(
                file,
                study,
                format!("study.assumption[{i}].key"),
                format!("\"{}\"", a.key),
                "a key no earlier assumption of the study names",
            ));
        }
    }
    Ok(assumptions)
}
