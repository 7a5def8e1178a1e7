//! Loading study files and suites.
//!
//! A spec file is TOML with optional `include = ["other.toml", ...]` (paths
//! relative to the file; suites are files that only include) and any number
//! of `[[study]]` tables. Every study has `name` (lowercase letters, digits
//! and `-`), `kind` (a registered study kind), an optional `description`,
//! an optional `baseline` (the label of the method speed-ups are measured
//! against; default: the kind's, the paper's method), an optional
//! `time_limit` (seconds per job, see [`DEFAULT_TIME_LIMIT_S`]), an optional
//! `reproduces` (the paper and its figure or table, shown in the report),
//! an optional `unresolved_per_tolerance` (the factor of the sweep
//! analysis' tolerance rule, see
//! [`crate::harness::sweep::UNRESOLVED_PER_TOLERANCE`]),
//! optional
//! `[[study.sweep]]` tables, `[[study.check]]` tables and `[[study.claim]]`
//! tables (the seed's claims, `harness::claims`). Sweeps are crossed
//! (the cartesian product of their values gives the cases) unless a sweep
//! says `zip = "<key of an earlier sweep>"`: then it is paired with that
//! sweep, value by value (both have as many values). Everything else in the
//! study table belongs to the kind, which deserialises it with unknown keys
//! rejected. Errors name the file, the study, the dotted key, the value and
//! what is allowed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::InputError;
use crate::harness::checks::CheckSpec;
use crate::harness::claims::ClaimSpec;
use crate::harness::registry::Registry;
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

/// A study as written in its file, before its kind interprets it.
#[derive(Debug, Clone, PartialEq)]
pub struct StudySpec {
    /// The file it came from.
    pub file: PathBuf,
    /// Unique study name.
    pub name: String,
    /// Study kind.
    pub kind: String,
    /// Free text for the report.
    pub description: String,
    /// The method label speed-ups are measured against, when the spec names
    /// one (else the kind's default).
    pub baseline: Option<String>,
    /// What the study reproduces (paper, figure or table), if the spec
    /// says (`reproduces`).
    pub reproduces: Option<String>,
    /// The time limit of each job (a method of a case, or a case's
    /// reference) in seconds, when the spec sets one (`time_limit`).
    pub time_limit: Option<f64>,
    /// The factor beyond which an error-controlled run's relative error
    /// per unit tolerance makes it unresolved, when the spec sets one
    /// (`unresolved_per_tolerance`; default
    /// [`crate::harness::sweep::UNRESOLVED_PER_TOLERANCE`]).
    pub unresolved_per_tolerance: Option<f64>,
    /// The sweeps, in order.
    pub sweeps: Vec<Sweep>,
    /// The cases (one without sweeps).
    pub cases: Vec<CaseSpec>,
    /// The checks.
    pub checks: Vec<CheckSpec>,
    /// The seed's claims the study tests (`[[study.claim]]`).
    pub claims: Vec<ClaimSpec>,
}

/// Resolves `experiments/all` to `experiments/all.toml` when the former does
/// not exist.
pub fn resolve_path(path: &Path) -> PathBuf {
    if path.is_file() || path.extension().is_some() {
        return path.to_path_buf();
    }
    let with_ext = path.with_extension("toml");
    if with_ext.is_file() {
        with_ext
    } else {
        path.to_path_buf()
    }
}

/// Loads a study file or suite (following includes) into its studies, in
/// order; every study's `kind` must be one of `kinds`. Study names must be
/// unique across the whole suite.
pub fn load(path: &Path, kinds: &Registry) -> Result<Vec<StudySpec>, InputError> {
    let mut studies = Vec::new();
    let mut stack = Vec::new();
    let resolved = resolve_path(path);
    load_into(&resolved, kinds, &mut stack, &mut studies)?;
    if studies.is_empty() {
        return Err(InputError::Key {
            file: resolved,
            study: None,
            key: "study".into(),
            value: None,
            expected: "at least one [[study]] table, in the file or in a file it includes: this file defines no study, so there is nothing to run".into(),
        });
    }
    let mut seen = BTreeSet::new();
    for s in &studies {
        if !seen.insert(s.name.clone()) {
            return Err(InputError::value(
                &s.file,
                &s.name,
                "study.name",
                format!("\"{}\"", s.name),
                "study names must be unique across the suite (another study already uses this name)",
            ));
        }
    }
    Ok(studies)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSchema {
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    study: Vec<toml::Table>,
}

fn load_into(
    path: &Path,
    kinds: &Registry,
    stack: &mut Vec<PathBuf>,
    out: &mut Vec<StudySpec>,
) -> Result<(), InputError> {
    let text = std::fs::read_to_string(path).map_err(|source| InputError::Read {
        file: path.to_path_buf(),
        source,
    })?;
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if stack.contains(&canonical) {
        return Err(InputError::Key {
            file: path.to_path_buf(),
            study: None,
            key: "include".into(),
            value: None,
            expected: "includes form a cycle; a file may not include itself directly or indirectly"
                .into(),
        });
    }
    let value: toml::Table = toml::from_str(&text).map_err(|e| InputError::Syntax {
        file: path.to_path_buf(),
        message: format!("invalid TOML: {e}"),
    })?;
    let schema: FileSchema = deserialize_at(path, None, "", toml::Value::Table(value))?;
    stack.push(canonical);
    let dir = path.parent().unwrap_or(Path::new("."));
    for inc in &schema.include {
        let inc_path = dir.join(inc);
        if !inc_path.is_file() {
            return Err(InputError::Key {
                file: path.to_path_buf(),
                study: None,
                key: "include".into(),
                value: Some(format!("\"{inc}\"")),
                expected: format!("no such file ({})", inc_path.display()),
            });
        }
        load_into(&inc_path, kinds, stack, out)?;
    }
    stack.pop();
    for table in schema.study {
        out.push(parse_study(path, kinds, table)?);
    }
    Ok(())
}

/// Deserialises `value` into `T`, turning serde's message into an
/// [`InputError`] with the dotted key path (`prefix` + path inside `value`).
pub fn deserialize_at<T: serde::de::DeserializeOwned>(
    file: &Path,
    study: Option<&str>,
    prefix: &str,
    value: toml::Value,
) -> Result<T, InputError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = e.path().to_string();
        let key = match (prefix.is_empty(), inner == ".") {
            (true, _) => inner,
            (false, true) => prefix.to_string(),
            (false, false) => format!("{prefix}.{inner}"),
        };
        InputError::Key {
            file: file.to_path_buf(),
            study: study.map(str::to_string),
            key,
            value: None,
            expected: e.inner().to_string(),
        }
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepSchema {
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

/// The largest time limit a spec or the command line may set (seconds; one
/// week).
pub const MAX_TIME_LIMIT_S: f64 = 604_800.0;

/// The time limit of a job when neither the spec nor the command line sets
/// one (seconds). The longest job of the full suite takes under a minute.
pub const DEFAULT_TIME_LIMIT_S: f64 = 600.0;

const RESERVED: [&str; 10] = [
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
];

fn parse_study(
    file: &Path,
    kinds: &Registry,
    mut table: toml::Table,
) -> Result<StudySpec, InputError> {
    let key_err =
        |study: Option<&str>, key: &str, value: Option<String>, expected: &str| InputError::Key {
            file: file.to_path_buf(),
            study: study.map(str::to_string),
            key: key.into(),
            value,
            expected: expected.into(),
        };
    let name = match table.remove("name") {
        Some(toml::Value::String(s)) => s,
        Some(other) => {
            return Err(key_err(
                None,
                "study.name",
                Some(other.to_string()),
                "a string",
            ));
        }
        None => {
            return Err(key_err(
                None,
                "study.name",
                None,
                "missing: every study needs a name",
            ));
        }
    };
    let valid_name = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid_name {
        return Err(key_err(
            None,
            "study.name",
            Some(format!("\"{name}\"")),
            "lowercase letters, digits and '-' only (it names the output directory)",
        ));
    }
    if name == crate::harness::results::HISTORY_DIR {
        return Err(key_err(
            None,
            "study.name",
            Some(format!("\"{name}\"")),
            "any name but \"history\": DIR/history/ holds the performance history",
        ));
    }
    let study = Some(name.as_str());
    let kind = match table.remove("kind") {
        Some(toml::Value::String(s)) => s,
        Some(other) => {
            return Err(key_err(
                study,
                "study.kind",
                Some(other.to_string()),
                "a string",
            ));
        }
        None => {
            return Err(key_err(
                study,
                "study.kind",
                None,
                &format!("missing: one of {}", kinds.listing()),
            ));
        }
    };
    if !kinds.contains(&kind) {
        return Err(key_err(
            study,
            "study.kind",
            Some(format!("\"{kind}\"")),
            &format!("one of {}", kinds.listing()),
        ));
    }
    let description = match table.remove("description") {
        None => String::new(),
        Some(toml::Value::String(s)) => s,
        Some(other) => {
            return Err(key_err(
                study,
                "study.description",
                Some(other.to_string()),
                "a string",
            ));
        }
    };
    let baseline = match table.remove("baseline") {
        None => None,
        Some(toml::Value::String(s)) => Some(s),
        Some(other) => {
            return Err(key_err(
                study,
                "study.baseline",
                Some(other.to_string()),
                "a string: the label of one of the study's methods",
            ));
        }
    };
    let reproduces = match table.remove("reproduces") {
        None => None,
        Some(toml::Value::String(s)) => Some(s),
        Some(other) => {
            return Err(key_err(
                study,
                "study.reproduces",
                Some(other.to_string()),
                "a string: the paper and its figure or table the study reproduces",
            ));
        }
    };
    let time_limit = match table.remove("time_limit") {
        None => None,
        Some(v) => match v.as_float().or(v.as_integer().map(|i| i as f64)) {
            Some(s) if s > 0.0 && s <= MAX_TIME_LIMIT_S => Some(s),
            _ => {
                return Err(key_err(
                    study,
                    "study.time_limit",
                    Some(v.to_string()),
                    &format!("a number of seconds in (0, {MAX_TIME_LIMIT_S:e}]"),
                ));
            }
        },
    };
    let unresolved_per_tolerance = match table.remove("unresolved_per_tolerance") {
        None => None,
        Some(v) => match v.as_float().or(v.as_integer().map(|i| i as f64)) {
            Some(f) if f.is_finite() && f >= 1.0 => Some(f),
            _ => {
                return Err(key_err(
                    study,
                    "study.unresolved_per_tolerance",
                    Some(v.to_string()),
                    "a finite number >= 1: the relative error per unit tolerance beyond which an error-controlled run is unresolved",
                ));
            }
        },
    };
    let sweeps = match table.remove("sweep") {
        None => Vec::new(),
        Some(v) => {
            let raw: Vec<SweepSchema> = deserialize_at(file, study, "study.sweep", v)?;
            raw.into_iter()
                .enumerate()
                .map(|(i, s)| sweep_from_schema(file, &name, i, s))
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    let checks: Vec<CheckSpec> = match table.remove("check") {
        None => Vec::new(),
        Some(v) => deserialize_at(file, study, "study.check", v)?,
    };
    let mut check_names = BTreeSet::new();
    for (i, c) in checks.iter().enumerate() {
        if !check_names.insert(c.name.as_str()) {
            return Err(InputError::value(
                file,
                &name,
                format!("study.check[{i}].name"),
                format!("\"{}\"", c.name),
                "check names must be unique within a study",
            ));
        }
        c.validate(file, &name, i)?;
    }
    let claims: Vec<ClaimSpec> = match table.remove("claim") {
        None => Vec::new(),
        Some(v) => deserialize_at(file, study, "study.claim", v)?,
    };
    let mut claim_ids = BTreeSet::new();
    for (i, c) in claims.iter().enumerate() {
        if !claim_ids.insert(c.id.as_str()) {
            return Err(InputError::value(
                file,
                &name,
                format!("study.claim[{i}].id"),
                format!("\"{}\"", c.id),
                "claim ids must be unique within a study",
            ));
        }
        c.validate(file, &name, i)?;
    }
    debug_assert!(RESERVED.iter().all(|k| !table.contains_key(*k)));
    let cases = expand_cases(file, &name, &table, &sweeps)?;
    Ok(StudySpec {
        file: file.to_path_buf(),
        name,
        kind,
        description,
        baseline,
        reproduces,
        time_limit,
        unresolved_per_tolerance,
        sweeps,
        cases,
        checks,
        claims,
    })
}

fn sweep_from_schema(
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
            "a dotted key path inside the study table, e.g. \"integrator.dt\" (not name/kind/description/reproduces/baseline/time_limit/unresolved_per_tolerance/sweep/check/claim)",
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

fn expand_cases(
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
        if crate::harness::results::RESERVED_STEMS.contains(&c.name.as_str()) {
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
                    crate::harness::results::RESERVED_STEMS
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

fn set_dotted(table: &mut toml::Table, key: &str, value: toml::Value) -> Result<(), String> {
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

#[cfg(test)]
mod tests;
