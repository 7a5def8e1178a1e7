//! Every default is valid for the spec it completes: each key of each
//! example spec (every study file under `experiments/`, every kind) is
//! removed in turn, and the spec must still load, or be refused with an
//! error that names the removed key (a required key). An error naming
//! another key means a default the spec's own validation rejects, on a key
//! the user never wrote.
//!
//! The checks and the baseline are taken out first (they refer to cases
//! and methods by name, and a removed sweep or variant takes those names
//! with it). Other refusals are right and allowed: an error on a key the
//! user wrote (a removed sweep leaves `dt` at a value that no longer fits
//! a written `output_interval`), a removal that switches a mode makes that
//! mode's keys required (without `[steady_state]`, `integrator.dt` is
//! missing), and a removal that makes a variant identical to another
//! method is refused as a duplicate label.

use std::path::{Path, PathBuf};

use contact_harness::harness::runner;

mod common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The study files (suites only include others).
fn study_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["experiments", "experiments/quick"] {
        for entry in std::fs::read_dir(repo().join(dir)).expect("dir") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if path.extension().is_some_and(|e| e == "toml") && text.contains("[[study]]") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The dotted paths of every key under `table` (into sub-tables and arrays
/// of tables, `name[i]` for an array element).
fn key_paths(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
    for (k, v) in table {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => key_paths(&path, t, out),
            toml::Value::Array(a) if a.iter().all(|x| x.is_table()) && !a.is_empty() => {
                for (i, x) in a.iter().enumerate() {
                    key_paths(&format!("{path}[{i}]"), x.as_table().expect("table"), out);
                }
            }
            _ => {}
        }
        out.push(path);
    }
}

/// Removes the key at `path` (as [`key_paths`] writes it) from `table`.
fn remove(table: &mut toml::Table, path: &str) {
    let (head, last) = match path.rsplit_once('.') {
        Some((h, l)) => (Some(h), l),
        None => (None, path),
    };
    let mut t = table;
    if let Some(head) = head {
        for part in head.split('.') {
            let (name, index) = match part.split_once('[') {
                Some((n, i)) => (
                    n,
                    Some(i.trim_end_matches(']').parse::<usize>().expect("index")),
                ),
                None => (part, None),
            };
            let v = t.get_mut(name).expect("key");
            t = match index {
                Some(i) => v.as_array_mut().expect("array")[i]
                    .as_table_mut()
                    .expect("table"),
                None => v.as_table_mut().expect("table"),
            };
        }
    }
    t.remove(last).expect("removed");
}

/// Study `s` of a spec document.
fn t_of(doc: &toml::Table, s: usize) -> &toml::Table {
    doc["study"][s].as_table().expect("table")
}

/// Whether the key at `path` (as [`key_paths`] writes it) is in `table`.
fn lookup(table: &toml::Table, path: &str) -> bool {
    let mut t = table;
    let parts: Vec<&str> = path.split('.').collect();
    for (k, part) in parts.iter().enumerate() {
        let (name, index) = match part.split_once('[') {
            Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (*part, None),
        };
        let Some(mut v) = t.get(name) else {
            return false;
        };
        if let Some(i) = index {
            match v.as_array().and_then(|a| a.get(i)) {
                Some(x) => v = x,
                None => return false,
            }
        }
        if k + 1 == parts.len() {
            return true;
        }
        match v.as_table() {
            Some(next) => t = next,
            None => return false,
        }
    }
    false
}

/// The last name of a key path, without an array index.
fn last_name(path: &str) -> &str {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.split('[').next().unwrap_or(last)
}

fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("experiments/quick")).expect("dir");
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        repo().join("reference-data"),
        dir.path().join("reference-data"),
    )
    .expect("link");
    dir
}

/// Loads `doc` from a file in `dir` (in the folder of `at`, relative to
/// the repository, so that its reference paths resolve): None when it
/// loads, else the error.
fn load(dir: &Path, at: &Path, doc: &toml::Table) -> Option<String> {
    let folder = at
        .parent()
        .and_then(|p| p.strip_prefix(repo()).ok())
        .expect("under the repository");
    let path = dir.join(folder).join("spec.toml");
    std::fs::write(&path, toml::to_string(doc).expect("serialise")).expect("write");
    runner::plan(&contact_harness::studies::registry(), &path, &[])
        .err()
        .map(|e| e.to_string())
}

#[test]
fn every_key_removed_from_every_example_spec_loads_or_names_itself() {
    let dir = scratch();
    let mut failures = Vec::new();
    let mut removed = 0;
    let mut refused = 0;
    for file in study_files() {
        let text = std::fs::read_to_string(&file).expect("read");
        let mut doc: toml::Table = toml::from_str(&text).expect("parse");
        for study in doc["study"].as_array_mut().expect("[[study]]") {
            let t = study.as_table_mut().expect("table");
            t.remove("check");
            t.remove("baseline");
        }
        let studies = doc["study"].as_array().expect("[[study]]").len();
        assert!(
            load(dir.path(), &file, &doc).is_none(),
            "{} does not load as written: {:?}",
            file.display(),
            load(dir.path(), &file, &doc)
        );
        for s in 0..studies {
            let study = doc["study"][s].as_table().expect("table");
            let mut paths = Vec::new();
            key_paths("", study, &mut paths);
            for path in paths {
                let mut mutated = doc.clone();
                let t = mutated["study"].as_array_mut().expect("array")[s]
                    .as_table_mut()
                    .expect("table");
                remove(t, &path);
                removed += 1;
                if let Some(error) = load(dir.path(), &file, &mutated) {
                    refused += 1;
                    // The key the error names, if the user wrote it.
                    let named = error
                        .split("key `study.")
                        .nth(1)
                        .and_then(|r| r.split('`').next())
                        .unwrap_or("");
                    let written = !named.is_empty() && lookup(t_of(&mutated, s), named);
                    let allowed = error.contains(last_name(&path))
                        || written
                        || error.contains(": missing")
                        || error.contains("a label no other method of the case has");
                    if !allowed {
                        failures.push(format!(
                            "{} study #{s}: without `{path}`: {error}",
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{removed} keys removed one at a time, {refused} refused (required)");
    assert!(removed > 200, "{removed}");
    assert!(
        failures.is_empty(),
        "{} removals refused on another key:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Defaults that once failed their own validation on specs the examples
/// do not cover: each spec below, with the optional key left out, loads.
#[test]
fn defaults_fit_steps_and_speeds_the_examples_do_not_use() {
    let dir = scratch();
    let at = repo().join("experiments/x.toml");
    let stick_slip = common::STICK_SLIP_SPEC.replace("dt = 1.0e-3", "dt = 1.7e-3");
    let spring = r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 2
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-5
t_end = 8.5e-3
[study.reference]
method = "none"
"#;
    let train = r#"
[[study]]
name = "train"
kind = "valvetrain"
[study.valvetrain]
valve_mass = 0.05
follower_mass = 0.03
stem_stiffness = 5.94e7
lash = 0.0
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 2
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
cam_speed = 10.0
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-4
revolutions = 1
samples_per_revolution = 100
"#;
    // stick-slip: max(t_end / 2000, dt) = dt = 1.7 ms does not divide 3 s;
    // valve-spring: t_end / 500 = 17 us does not divide the 0.5 ms error
    // window; valvetrain: one output interval (1 ms at 10 rev/s and 100
    // samples) is longer than the 0.5 ms window.
    for (what, text) in [
        ("stick-slip", stick_slip.as_str()),
        ("valve-spring", spring),
        ("valvetrain", train),
    ] {
        let doc: toml::Table = toml::from_str(text).expect("parse");
        assert_eq!(load(dir.path(), &at, &doc), None, "{what}");
    }
}
