//! Two result directories compared as the harness promises a merged run
//! equals a single run: byte for byte, timings and the manifest's host
//! fields aside.
//!
//! Left aside: `timings.csv` and `timings.parquet` (times); in
//! `work-precision.csv` the columns `cpu_s`, `cpu_s_spread`; in
//! `speedup.csv` the columns `error`, `speedup` (ratios of measured
//! times) and the rows without a converged range (see [`speedups`]); in `claims.csv` the `value` and `criterion` of claims on
//! measured times (criterion naming a `timing.` quantity); in
//! `kernels.csv` the rows measured by the thread CPU clock (the
//! calibration kernel's time; instruction counts are compared); the
//! Parquet copies of these five tables; `history/` (times, dates and hosts; only
//! that both have it or neither); in `manifest.json` `date`, `host`, `cpu`,
//! `cpu_model`, `logical_cores`, `memory`, `os`, `kernel`, `command` and
//! `shards` (where and how each run ran). Everything else is compared
//! byte for byte.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Manifest fields that say where, when and how a run ran.
pub const HOST_FIELDS: [&str; 10] = [
    "date",
    "host",
    "cpu",
    "cpu_model",
    "logical_cores",
    "memory",
    "os",
    "kernel",
    "command",
    "shards",
];

fn files(root: &Path) -> BTreeSet<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(p.strip_prefix(root).expect("under root").to_path_buf());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, root, &mut out);
    out
}

/// CSV rows (naive split: the compared columns hold no quoted commas
/// before the dropped ones) with the columns named in `drop` removed.
fn csv_without(text: &str, drop: &[&str]) -> Vec<Vec<String>> {
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let names: Vec<&str> = header.split(',').collect();
    let keep: Vec<usize> = (0..names.len())
        .filter(|&i| !drop.contains(&names[i]))
        .collect();
    std::iter::once(header)
        .chain(lines)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            keep.iter()
                .map(|&i| cells.get(i).copied().unwrap_or("").to_string())
                .collect()
        })
        .collect()
}

/// speedup.csv's rows without `error` and `speedup`, each once; rows of
/// a comparison without a converged range (empty `converged_min`, against
/// a peer tool's measured curve) exist only where the measured CPU curves
/// overlap, so they are left out with the times.
fn speedups(text: &str) -> BTreeSet<Vec<String>> {
    let rows = csv_without(text, &["error", "speedup"]);
    let Some(header) = rows.first() else {
        return BTreeSet::new();
    };
    let range = header.iter().position(|h| h == "converged_min");
    rows[1..]
        .iter()
        .filter(|r| range.is_none_or(|i| !r[i].is_empty()))
        .cloned()
        .collect()
}

/// claims.csv with the value and criterion of claims on measured times
/// blanked.
fn claims(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            if l.contains("timing.") {
                let f: Vec<&str> = l.splitn(6, ',').collect();
                f[..5].join(",")
            } else {
                l.to_string()
            }
        })
        .collect()
}

/// kernels.csv without the rows measured by the thread CPU clock.
fn untimed_kernels(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.ends_with(",thread-cpu"))
        .collect()
}

fn manifest(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("manifest.json");
    if let Some(o) = v.as_object_mut() {
        for k in HOST_FIELDS {
            o.remove(k);
        }
    }
    v
}

/// The differences between result directories `a` and `b` (empty when
/// they are equal as described in the module doc), and the number of
/// files compared.
pub fn differences(a: &Path, b: &Path) -> (Vec<String>, usize) {
    let (fa, fb) = (files(a), files(b));
    let mut out = Vec::new();
    for f in fa.symmetric_difference(&fb) {
        if !f.starts_with("history") {
            out.push(format!("only in one: {}", f.display()));
        }
    }
    if a.join("history").exists() != b.join("history").exists() {
        out.push("history/ in one only".into());
    }
    let mut compared = 0;
    for f in fa.intersection(&fb) {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if f.starts_with("history")
            || matches!(
                name,
                "timings.csv"
                    | "timings.parquet"
                    | "work-precision.parquet"
                    | "speedup.parquet"
                    | "claims.parquet"
                    | "kernels.parquet"
            )
        {
            continue;
        }
        compared += 1;
        let (x, y) = (
            std::fs::read(a.join(f)).expect("read"),
            std::fs::read(b.join(f)).expect("read"),
        );
        let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        let same = match name {
            "work-precision.csv" => {
                let d = ["cpu_s", "cpu_s_spread"];
                csv_without(&text(&x), &d) == csv_without(&text(&y), &d)
            }
            "speedup.csv" => speedups(&text(&x)) == speedups(&text(&y)),
            "claims.csv" => claims(&text(&x)) == claims(&text(&y)),
            "kernels.csv" => untimed_kernels(&text(&x)) == untimed_kernels(&text(&y)),
            "manifest.json" => manifest(&text(&x)) == manifest(&text(&y)),
            _ => x == y,
        };
        if !same {
            out.push(format!("differs: {}", f.display()));
        }
    }
    (out, compared)
}
