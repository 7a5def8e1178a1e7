//! A study's sweeps and its cases: `[[study.sweep]]` tables (`values` or a
//! `range` with linear or log spacing; `zip` pairs a sweep with an earlier
//! one), grouped into crossed and zipped sets, and the cases they expand
//! to: the cartesian product of the groups, each case the study table
//! with the swept dotted keys set and a name made from the coordinates.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::study::Coord;

/// One sweep: `key` (dotted path inside the study table, e.g.
/// `integrator.dt`) takes each of `values` in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// Dotted key path relative to the study table.
    pub key: String,
    /// Short label used in case names (default: the last key segment).
    pub label: String,
    /// The values, as TOML values.
    pub values: Vec<toml::Value>,
    /// The key of the earlier sweep this one is paired with (None: crossed).
    pub zip: Option<String>,
}

/// One case: a name and the study table with the sweep values written in.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseSpec {
    /// Case name: the study name without sweeps, else `label-value` pairs
    /// joined by `_`.
    pub name: String,
    /// The kind's part of the study table for this case.
    pub table: toml::Table,
    /// The sweep coordinates of this case, in sweep order.
    pub coords: Vec<Coord>,
}

/// The keys of the study table the harness takes; the kind gets the rest.
pub(super) const RESERVED: [&str; 11] = [
    "name",
    "kind",
    "description",
    "reproduces",
    "baseline",
    "time_limit",
    "unresolved_per_tolerance",
    "sweep",
    "check",
    "claim",
    "assumption",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SweepSchema {
    key: String,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    values: Option<Vec<toml::Value>>,
    #[serde(default)]
    range: Option<RangeSchema>,
    #[serde(default)]
    zip: Option<String>,
}

/// `range = { from, to, count, spacing = "linear" | "log" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeSchema {
    from: f64,
    to: f64,
    count: usize,
    #[serde(default = "linear")]
    spacing: String,
}

fn linear() -> String {
    "linear".into()
}

pub(super) fn sweep_from_schema(
    file: &Path,
    study: &str,
    index: usize,
    s: SweepSchema,
) -> Result<Sweep, InputError> {
    let at = |k: &str| format!("study.sweep[{index}].{k}");
    if s.key.is_empty()
        || s.key.split('.').any(|seg| seg.is_empty())
        || RESERVED.contains(&s.key.as_str())
    {
        return Err(InputError::value(
            file,
            study,
            at("key"),
            format!("\"{}\"", s.key),
            "a dotted key path inside the study table, e.g. \"integrator.dt\" (not name/kind/description/reproduces/baseline/time_limit/unresolved_per_tolerance/sweep/check/claim/assumption)",
        ));
    }
    let values = match (s.values, s.range) {
        (Some(v), None) => v,
        (None, Some(r)) => range_values(file, study, &at("range"), &r)?,
        _ => {
            return Err(InputError::Key {
                file: file.to_path_buf(),
                study: Some(study.into()),
                key: at("values"),
                value: None,
                expected:
                    "exactly one of `values = [...]` or `range = { from, to, count, spacing }`"
                        .into(),
            });
        }
    };
    if values.is_empty() {
        return Err(InputError::value(
            file,
            study,
            at("values"),
            "[]",
            "at least one value",
        ));
    }
    let label = s
        .label
        .unwrap_or_else(|| s.key.rsplit('.').next().unwrap_or(&s.key).to_string());
    Ok(Sweep {
        key: s.key,
        label,
        values,
        zip: s.zip,
    })
}

fn range_values(
    file: &Path,
    study: &str,
    key: &str,
    r: &RangeSchema,
) -> Result<Vec<toml::Value>, InputError> {
    if !(r.from.is_finite() && r.to.is_finite()) {
        return Err(InputError::value(
            file,
            study,
            key,
            format!("{{ from = {}, to = {} }}", r.from, r.to),
            "finite numbers",
        ));
    }
    if r.count < 2 {
        return Err(InputError::value(
            file,
            study,
            format!("{key}.count"),
            r.count,
            "an integer >= 2",
        ));
    }
    let n = r.count - 1;
    let values: Vec<f64> = match r.spacing.as_str() {
        "linear" => (0..=n)
            .map(|i| r.from + (r.to - r.from) * i as f64 / n as f64)
            .collect(),
        "log" => {
            if r.from <= 0.0 || r.to <= 0.0 {
                return Err(InputError::value(
                    file,
                    study,
                    key,
                    format!("{{ from = {}, to = {} }}", r.from, r.to),
                    "positive bounds for spacing = \"log\"",
                ));
            }
            let (a, b) = (r.from.ln(), r.to.ln());
            (0..=n)
                .map(|i| (a + (b - a) * i as f64 / n as f64).exp())
                .collect()
        }
        other => {
            return Err(InputError::value(
                file,
                study,
                format!("{key}.spacing"),
                format!("\"{other}\""),
                "\"linear\" or \"log\"",
            ));
        }
    };
    // Round to 12 significant digits so case names and values stay readable
    // and identical across platforms.
    Ok(values
        .into_iter()
        .map(|v| toml::Value::Float(format!("{v:.11e}").parse().unwrap_or(v)))
        .collect())
}

/// Groups of sweep indices: a sweep without `zip` starts a group, a sweep
/// with `zip = key` joins the group of the earlier sweep over `key` (same
/// number of values). Groups are crossed, sweeps within a group paired.
fn sweep_groups(file: &Path, study: &str, sweeps: &[Sweep]) -> Result<Vec<Vec<usize>>, InputError> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (index, sweep) in sweeps.iter().enumerate() {
        if sweeps[..index].iter().any(|s| s.key == sweep.key) {
            return Err(InputError::value(
                file,
                study,
                format!("study.sweep[{index}].key"),
                format!("\"{}\"", sweep.key),
                "a key that no earlier sweep of the study sweeps",
            ));
        }
        match &sweep.zip {
            None => groups.push(vec![index]),
            Some(partner) => {
                let group = groups
                    .iter_mut()
                    .find(|g| g.iter().any(|&i| &sweeps[i].key == partner));
                let Some(group) = group else {
                    return Err(InputError::value(
                        file,
                        study,
                        format!("study.sweep[{index}].zip"),
                        format!("\"{partner}\""),
                        format!(
                            "the key of an earlier sweep of this study ({})",
                            sweeps[..index]
                                .iter()
                                .map(|s| format!("\"{}\"", s.key))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                };
                let count = sweeps[group[0]].values.len();
                if sweep.values.len() != count {
                    return Err(InputError::value(
                        file,
                        study,
                        format!("study.sweep[{index}].values"),
                        format!("{} values", sweep.values.len()),
                        format!(
                            "as many values as the sweep over \"{partner}\" it is paired with ({count})"
                        ),
                    ));
                }
                group.push(index);
            }
        }
    }
    Ok(groups)
}

pub(super) fn expand_cases(
    file: &Path,
    study: &str,
    base: &toml::Table,
    sweeps: &[Sweep],
) -> Result<Vec<CaseSpec>, InputError> {
    let mut cases = vec![CaseSpec {
        name: String::new(),
        table: base.clone(),
        coords: Vec::new(),
    }];
    for group in sweep_groups(file, study, sweeps)? {
        let count = sweeps[group[0]].values.len();
        let mut next = Vec::with_capacity(cases.len() * count);
        for case in &cases {
            for k in 0..count {
                let mut table = case.table.clone();
                let mut name = case.name.clone();
                let mut coords = case.coords.clone();
                for &index in &group {
                    let sweep = &sweeps[index];
                    let value = &sweep.values[k];
                    set_dotted(&mut table, &sweep.key, value.clone()).map_err(|expected| {
                        InputError::value(
                            file,
                            study,
                            format!("study.sweep[{index}].key"),
                            format!("\"{}\"", sweep.key),
                            expected,
                        )
                    })?;
                    let coord = Coord {
                        key: sweep.key.clone(),
                        label: sweep.label.clone(),
                        value: value.clone(),
                    };
                    let part = format!("{}-{}", sweep.label, coord.value_text());
                    if !name.is_empty() {
                        name.push('_');
                    }
                    name.push_str(&part);
                    coords.push(coord);
                }
                next.push(CaseSpec {
                    name: sanitize(&name),
                    table,
                    coords,
                });
            }
        }
        cases = next;
    }
    if sweeps.is_empty() {
        cases[0].name = study.to_string();
    }
    let mut seen = BTreeSet::new();
    for c in &cases {
        if crate::harness::reserved::RESERVED_STEMS.contains(&c.name.as_str()) {
            return Err(InputError::value(
                file,
                study,
                if sweeps.is_empty() {
                    "study.name"
                } else {
                    "study.sweep"
                },
                format!("case \"{}\"", c.name),
                format!(
                    "a case name other than {}: those files hold the study's own results",
                    crate::harness::reserved::RESERVED_STEMS
                        .map(|s| format!("\"{s}\""))
                        .join(", ")
                ),
            ));
        }
        if !seen.insert(c.name.clone()) {
            return Err(InputError::value(
                file,
                study,
                "study.sweep",
                format!("case \"{}\"", c.name),
                "sweep values must give distinct case names (a value is repeated)",
            ));
        }
    }
    Ok(cases)
}

/// Sets the dotted `key` of `table` to `value`, making the tables on the
/// way; the error says why it cannot (a segment is not a table).
pub fn set_dotted(table: &mut toml::Table, key: &str, value: toml::Value) -> Result<(), String> {
    let mut segments: Vec<&str> = key.split('.').collect();
    let last = segments.pop().unwrap_or(key);
    let mut current = table;
    for seg in segments {
        let entry = current
            .entry(seg.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        current = match entry {
            toml::Value::Table(t) => t,
            _ => return Err(format!("`{seg}` is not a table, so `{key}` cannot be set")),
        };
    }
    current.insert(last.to_string(), value);
    Ok(())
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .collect()
}
