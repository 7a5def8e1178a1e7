//! How a resolved spec is shown: the JSON of a planned study (the
//! manifest's `spec`, and the plan identity of a sharded run,
//! `harness::shard`) and the parameter list of the report.

use crate::harness::plan::PlannedStudy;
use crate::harness::spec::StudySpec;

/// The spec's parameters for the report: the first case's table
/// flattened to `(dotted key, value)`, every swept key with all its values
/// (`a, b, c` or `a ... z (n values)`), long arrays shortened.
pub fn parameters(spec: &StudySpec) -> Vec<(String, String)> {
    fn short(v: &toml::Value) -> String {
        match v {
            toml::Value::Array(a) if a.len() > 8 => {
                format!(
                    "[{} values: {}, ..., {}]",
                    a.len(),
                    short(&a[0]),
                    short(&a[a.len() - 1])
                )
            }
            toml::Value::Array(a) => {
                format!("[{}]", a.iter().map(short).collect::<Vec<_>>().join(", "))
            }
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
    fn flatten(prefix: &str, t: &toml::Table, out: &mut Vec<(String, String)>) {
        for (k, v) in t {
            let key = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(inner) => flatten(&key, inner, out),
                other => out.push((key, short(other))),
            }
        }
    }
    let mut out = Vec::new();
    if let Some(first) = spec.cases.first() {
        flatten("", &first.table, &mut out);
    }
    for s in &spec.sweeps {
        let values: Vec<String> = s.values.iter().map(short).collect();
        let shown = if values.len() > 6 {
            format!(
                "swept: {}, {}, ..., {} ({} values)",
                values[0],
                values[1],
                values[values.len() - 1],
                values.len()
            )
        } else {
            format!("swept: {}", values.join(", "))
        };
        match out.iter_mut().find(|(k, _)| *k == s.key) {
            Some(entry) => entry.1 = shown,
            None => out.push((s.key.clone(), shown)),
        }
    }
    out
}

/// The resolved spec of a planned study, as the manifest shows it.
pub fn spec_to_json(p: &PlannedStudy) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = p
        .spec
        .cases
        .iter()
        .zip(&p.methods)
        .map(|(c, methods)| serde_json::json!({
            "name": c.name,
            "methods": methods.iter().map(|m| serde_json::json!({"label": m.label, "method": m.method})).collect::<Vec<_>>(),
            "settings": toml_to_json(&toml::Value::Table(c.table.clone())),
        }))
        .collect();
    serde_json::json!({
        "name": p.spec.name,
        "kind": p.spec.kind,
        "file": p.spec.file.to_string_lossy(),
        "baseline": p.baseline,
        "sweeps": p.spec.sweeps.iter().map(|s| serde_json::json!({"key": s.key, "zip": s.zip, "values": s.values.iter().map(toml_to_json).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "cases": cases,
        "checks": p.spec.checks.iter().map(|c| serde_json::json!({
            "name": c.name, "quantity": c.quantity, "method": c.method.as_ref().map(|m| m.labels()), "reference": c.reference, "value": c.value,
            "metric": c.metric.name(), "tolerance": c.tolerance, "cases": c.cases, "why": c.why,
        })).collect::<Vec<_>>(),
    })
}

fn toml_to_json(v: &toml::Value) -> serde_json::Value {
    match v {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(a) => serde_json::Value::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => serde_json::Value::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}
