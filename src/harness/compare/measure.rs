//! Measuring one built revision: its kernels' counts under callgrind and
//! its suite's timed jobs, each run of the suite a round.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use polars::prelude::{self as pl, SerReader};

use super::error::CompareError;
use super::revision::Built;
use crate::harness::kernels::callgrind;

/// A benchmark's name: kernels as `kernels/<case>/<method>` (the history's
/// names), timed jobs as `<study>/<case>/<method>`.
pub type Benchmark = String;

/// The prefix of kernel benchmarks.
pub const KERNEL_PREFIX: &str = "kernels/";

/// The kernels `built` registers (`kernel --list`; a binary older than
/// that flag names them in the error of an unknown kernel).
pub fn kernel_names(built: &Built) -> Result<Vec<String>, CompareError> {
    let run = |args: &[&str]| {
        Command::new(&built.binary)
            .args(args)
            .current_dir(&built.root)
            .output()
    };
    let out = run(&["kernel", "--list"])
        .map_err(|e| CompareError::Input(format!("{}: {e}", built.binary.display())))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect());
    }
    let out = run(&["kernel", "?"])
        .map_err(|e| CompareError::Input(format!("{}: {e}", built.binary.display())))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .split_once("kernels: ")
        .map(|(_, list)| list.trim().split(", ").map(String::from).collect())
        .ok_or_else(|| {
            CompareError::Input(format!(
                "{} ({}) lists no kernels",
                built.revision.name,
                built.revision.short()
            ))
        })
}

/// The counts of `names` (kernel names, `case/method`) of `built`, at most
/// `workers` Valgrind processes at once: `(kernels/<name>, measure) ->
/// value`. A kernel that fails is an error naming it.
pub fn kernels(
    built: &Built,
    names: &[String],
    workers: usize,
) -> Result<BTreeMap<(Benchmark, String), f64>, CompareError> {
    if names.is_empty() {
        return Ok(BTreeMap::new());
    }
    if callgrind::valgrind_version().is_none() {
        return Err(CompareError::Input(
            "Valgrind was not found (`valgrind --version` failed): instruction counts need \
             Debian's `valgrind` package (or pass --no-kernels)"
                .to_string(),
        ));
    }
    let tool = callgrind::valgrind_version().unwrap_or_default();
    let cached = |name: &str| {
        built.counts.as_ref().map(|dir| {
            dir.join(&tool)
                .join(format!("{}.json", name.replace('/', ".")))
        })
    };
    let scratch = Scratch::new()?;
    let results = callgrind::in_parallel(workers, names, |name| {
        let file = cached(name);
        if let Some(counts) = file.as_deref().and_then(read_counts) {
            return Ok(counts);
        }
        let counts = callgrind::measure_named(&built.binary, &built.root, &scratch.0, name, &[]);
        if let (Ok(c), Some(f)) = (&counts, &file) {
            write_counts(f, c);
        }
        counts
    });
    let mut values = BTreeMap::new();
    for (kernel, r) in names.iter().zip(results) {
        let counts = r.map_err(|e| {
            CompareError::Input(format!(
                "{} ({}): kernel {kernel}: {e}",
                built.revision.name,
                built.revision.short(),
            ))
        })?;
        let name = format!("{KERNEL_PREFIX}{kernel}");
        values.insert(
            (name.clone(), callgrind::INSTRUCTIONS.to_string()),
            counts.instructions,
        );
        if counts.estimated_cycles.is_finite() {
            values.insert(
                (name, callgrind::ESTIMATED_CYCLES.to_string()),
                counts.estimated_cycles,
            );
        }
    }
    Ok(values)
}

/// A kept count (see [`Built::counts`]); None when absent or unreadable.
fn read_counts(file: &Path) -> Option<callgrind::Counts> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(file).ok()?).ok()?;
    Some(callgrind::Counts {
        instructions: v.get("instructions")?.as_f64()?,
        estimated_cycles: v
            .get("estimated_cycles")
            .and_then(|c| c.as_f64())
            .unwrap_or(f64::NAN),
        counters: Vec::new(),
    })
}

/// Keeps a count (best effort: a count not kept is measured again).
fn write_counts(file: &Path, c: &callgrind::Counts) {
    let json = serde_json::json!({
        "instructions": c.instructions,
        "estimated_cycles": c.estimated_cycles.is_finite().then_some(c.estimated_cycles),
    });
    let _ = crate::harness::atomic::write_file(file, json.to_string().as_bytes());
}

/// One run of `suite` (a path in the revision's own tree) by `built`
/// without kernels, into `scratch`: each timed job's CPU seconds
/// (timings.csv's `cpu_s`, itself a median of repeated runs for short
/// jobs). A run whose checks fail still times its jobs; a run that
/// rejects its input or dies is an error.
pub fn suite(
    built: &Built,
    suite: &Path,
    scratch: &Path,
) -> Result<BTreeMap<Benchmark, f64>, CompareError> {
    let out_dir = scratch.join("out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let output = Command::new(&built.binary)
        .arg(suite)
        .arg("--out")
        .arg(&out_dir)
        .arg("--report")
        .arg(scratch.join("report"))
        .arg("--no-kernels")
        .current_dir(&built.root)
        .output()
        .map_err(|e| CompareError::Input(format!("{}: {e}", built.binary.display())))?;
    if !matches!(output.status.code(), Some(0 | 1)) {
        return Err(CompareError::Input(format!(
            "{} ({}): `{} --no-kernels` ended with {}: {}",
            built.revision.name,
            built.revision.short(),
            suite.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    read_timings(&out_dir.join("timings.csv"))
}

/// `study/case/method -> cpu_s` of a run's timings.csv.
pub fn read_timings(path: &Path) -> Result<BTreeMap<Benchmark, f64>, CompareError> {
    let bad = |e: String| CompareError::Input(format!("{}: {e}", path.display()));
    let df = pl::CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(path.to_path_buf()))
        .and_then(|r| r.finish())
        .map_err(|e| bad(e.to_string()))?;
    let text = |name: &str| -> Result<Vec<String>, CompareError> {
        let c = df.column(name).map_err(|e| bad(e.to_string()))?;
        let c = c
            .cast(&pl::DataType::String)
            .map_err(|e| bad(e.to_string()))?;
        Ok(c.str()
            .map_err(|e| bad(e.to_string()))?
            .iter()
            .map(|v| v.unwrap_or_default().to_string())
            .collect())
    };
    let (study, case, method) = (text("study")?, text("case")?, text("method")?);
    let cpu = df
        .column("cpu_s")
        .and_then(|c| c.cast(&pl::DataType::Float64))
        .map_err(|e| bad(e.to_string()))?;
    let cpu: Vec<Option<f64>> = cpu.f64().map_err(|e| bad(e.to_string()))?.iter().collect();
    Ok(study
        .iter()
        .zip(&case)
        .zip(&method)
        .zip(cpu)
        .filter_map(|(((s, c), m), t)| Some((format!("{s}/{c}/{m}"), t?)))
        .collect())
}

/// A scratch directory, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A new, empty scratch directory under the system's temporary one.
    pub fn new() -> Result<Self, CompareError> {
        static SERIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "contact-harness-compare-{}-{}",
            std::process::id(),
            SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| CompareError::Input(format!("{}: {e}", dir.display())))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
