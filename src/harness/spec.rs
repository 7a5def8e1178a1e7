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

mod assumptions;
mod cases;

pub use assumptions::{Assumption, Scale, validate_assumptions};
pub use cases::{CaseSpec, Sweep, set_dotted};
use cases::{RESERVED, SweepSchema, expand_cases, sweep_from_schema};

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
    /// The parameters the seed does not fix, with their plausible ranges
    /// (`[[study.assumption]]`, `assumptions`).
    pub assumptions: Vec<Assumption>,
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
pub fn load(path: &Path, kinds: &[&str]) -> Result<Vec<StudySpec>, InputError> {
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
    kinds: &[&str],
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

/// The largest time limit a spec or the command line may set (seconds; one
/// week).
pub const MAX_TIME_LIMIT_S: f64 = 604_800.0;

/// The time limit of a job when neither the spec nor the command line sets
/// one (seconds). The longest job of the full suite takes under a minute.
pub const DEFAULT_TIME_LIMIT_S: f64 = 600.0;

fn parse_study(
    file: &Path,
    kinds: &[&str],
    mut table: toml::Table,
) -> Result<StudySpec, InputError> {
    let name = take_name(file, &mut table)?;
    let study = Some(name.as_str());
    let kind = take_kind(file, study, kinds, &mut table)?;
    let string = |table: &mut toml::Table, key: &str, expected: &str| {
        take_string(file, study, table, key, expected)
    };
    let description = string(&mut table, "description", "a string")?.unwrap_or_default();
    let baseline = string(
        &mut table,
        "baseline",
        "a string: the label of one of the study's methods",
    )?;
    let reproduces = string(
        &mut table,
        "reproduces",
        "a string: the paper and its figure or table the study reproduces",
    )?;
    let time_limit = take_number(
        file,
        study,
        &mut table,
        "time_limit",
        |s| s > 0.0 && s <= MAX_TIME_LIMIT_S,
        &format!("a number of seconds in (0, {MAX_TIME_LIMIT_S:e}]"),
    )?;
    let unresolved_per_tolerance = take_number(
        file,
        study,
        &mut table,
        "unresolved_per_tolerance",
        |f| f.is_finite() && f >= 1.0,
        "a finite number >= 1: the relative error per unit tolerance beyond which an error-controlled run is unresolved",
    )?;
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
    let checks = take_checks(file, &name, &mut table)?;
    let claims = take_claims(file, &name, &mut table)?;
    let swept: Vec<&str> = sweeps.iter().map(|s| s.key.as_str()).collect();
    let assumptions = match table.remove("assumption") {
        None => Vec::new(),
        Some(v) => validate_assumptions(
            file,
            &name,
            deserialize_at(file, study, "study.assumption", v)?,
            &table,
            &swept,
        )?,
    };
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
        assumptions,
    })
}

/// A study-table key error: `value` None when the key is missing.
fn key_err(
    file: &Path,
    study: Option<&str>,
    key: &str,
    value: Option<String>,
    expected: &str,
) -> InputError {
    InputError::Key {
        file: file.to_path_buf(),
        study: study.map(str::to_string),
        key: key.into(),
        value,
        expected: expected.into(),
    }
}

/// `study.name`: lowercase letters, digits and '-' (it names the output
/// directory), not the history directory's name.
fn take_name(file: &Path, table: &mut toml::Table) -> Result<String, InputError> {
    let name = take_string(file, None, table, "name", "a string")?.ok_or_else(|| {
        key_err(
            file,
            None,
            "study.name",
            None,
            "missing: every study needs a name",
        )
    })?;
    let valid_name = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid_name {
        return Err(key_err(
            file,
            None,
            "study.name",
            Some(format!("\"{name}\"")),
            "lowercase letters, digits and '-' only (it names the output directory)",
        ));
    }
    if name == crate::harness::reserved::HISTORY_DIR {
        return Err(key_err(
            file,
            None,
            "study.name",
            Some(format!("\"{name}\"")),
            "any name but \"history\": DIR/history/ holds the performance history",
        ));
    }
    Ok(name)
}

/// The kind names quoted and comma-separated, for error messages
/// (`"gap-system", "slider-crank", ...`).
pub fn listing(kinds: &[&str]) -> String {
    kinds
        .iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `study.kind`: one of the registry's kinds.
fn take_kind(
    file: &Path,
    study: Option<&str>,
    kinds: &[&str],
    table: &mut toml::Table,
) -> Result<String, InputError> {
    let kind = take_string(file, study, table, "kind", "a string")?.ok_or_else(|| {
        key_err(
            file,
            study,
            "study.kind",
            None,
            &format!("missing: one of {}", listing(kinds)),
        )
    })?;
    if !kinds.contains(&kind.as_str()) {
        return Err(key_err(
            file,
            study,
            "study.kind",
            Some(format!("\"{kind}\"")),
            &format!("one of {}", listing(kinds)),
        ));
    }
    Ok(kind)
}

/// An optional string `study.<key>`.
fn take_string(
    file: &Path,
    study: Option<&str>,
    table: &mut toml::Table,
    key: &str,
    expected: &str,
) -> Result<Option<String>, InputError> {
    match table.remove(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(key_err(
            file,
            study,
            &format!("study.{key}"),
            Some(other.to_string()),
            expected,
        )),
    }
}

/// An optional number `study.<key>` (an integer is read as a float) that
/// `accept` accepts.
fn take_number(
    file: &Path,
    study: Option<&str>,
    table: &mut toml::Table,
    key: &str,
    accept: impl Fn(f64) -> bool,
    expected: &str,
) -> Result<Option<f64>, InputError> {
    let Some(v) = table.remove(key) else {
        return Ok(None);
    };
    match v.as_float().or(v.as_integer().map(|i| i as f64)) {
        Some(x) if accept(x) => Ok(Some(x)),
        _ => Err(key_err(
            file,
            study,
            &format!("study.{key}"),
            Some(v.to_string()),
            expected,
        )),
    }
}

/// `[[study.check]]`: each valid, names unique within the study.
fn take_checks(
    file: &Path,
    name: &str,
    table: &mut toml::Table,
) -> Result<Vec<CheckSpec>, InputError> {
    let study = Some(name);
    let checks: Vec<CheckSpec> = match table.remove("check") {
        None => Vec::new(),
        Some(v) => deserialize_at(file, study, "study.check", v)?,
    };
    let mut check_names = BTreeSet::new();
    for (i, c) in checks.iter().enumerate() {
        if !check_names.insert(c.name.as_str()) {
            return Err(InputError::value(
                file,
                name,
                format!("study.check[{i}].name"),
                format!("\"{}\"", c.name),
                "check names must be unique within a study",
            ));
        }
        c.validate(file, name, i)?;
    }
    Ok(checks)
}

/// `[[study.claim]]`: each valid, ids unique within the study.
fn take_claims(
    file: &Path,
    name: &str,
    table: &mut toml::Table,
) -> Result<Vec<ClaimSpec>, InputError> {
    let study = Some(name);
    let claims: Vec<ClaimSpec> = match table.remove("claim") {
        None => Vec::new(),
        Some(v) => deserialize_at(file, study, "study.claim", v)?,
    };
    let mut claim_ids = BTreeSet::new();
    for (i, c) in claims.iter().enumerate() {
        if !claim_ids.insert(c.id.as_str()) {
            return Err(InputError::value(
                file,
                name,
                format!("study.claim[{i}].id"),
                format!("\"{}\"", c.id),
                "claim ids must be unique within a study",
            ));
        }
        c.validate(file, name, i)?;
    }
    Ok(claims)
}

#[cfg(test)]
mod tests;
