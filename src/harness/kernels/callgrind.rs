//! Measuring the kernels under Valgrind's callgrind: one `valgrind` process
//! per kernel on this binary's hidden `kernel NAME` subcommand (see the
//! parent module), at most `workers` at once; the counts come from the
//! `totals:` line of callgrind's output file.
//!
//! Measures, per kernel:
//! - `instructions`: Ir, the instructions executed in the measured region;
//! - `estimated_cycles`: from the cache simulation (`--cache-sim=yes`, the
//!   host's cache sizes), Ir + Dr + Dw accesses weighted as in
//!   iai-callgrind/gungraun: L1 hits 1, last-level hits 5, memory accesses
//!   35 cycles, i.e. `L1 + 5 LL + 35 RAM` with RAM = ILmr + DLmr + DLmw,
//!   LL = I1mr + D1mr + D1mw - RAM, L1 = Ir + Dr + Dw - LL - RAM.
//!
//! Both are deterministic for a given binary, Valgrind version and CPU
//! (Valgrind's CPU model decides which code paths of the library's runtime
//! CPU-feature dispatch run): two runs give the same numbers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::catalog::{Counters, Kernel, KernelInfo};

/// The unmangled symbol whose calls are counted.
pub const SYMBOL: &str = "contact_harness_measured_kernel";

/// The metric name of the instruction count.
pub const INSTRUCTIONS: &str = "instructions";
/// The metric name of the estimated cycles.
pub const ESTIMATED_CYCLES: &str = "estimated_cycles";

/// One kernel's measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelMeasure {
    /// The kernel.
    pub kernel: KernelInfo,
    /// Instructions executed (Ir).
    pub instructions: f64,
    /// Estimated cycles (see the module doc).
    pub estimated_cycles: f64,
    /// The kernel's own counters of the measured run.
    pub counters: Counters,
}

/// The kernels' measurements of one run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KernelReport {
    /// `valgrind --version` (e.g. `valgrind-3.19.0`), None when no Valgrind
    /// ran.
    pub tool: Option<String>,
    /// The kernels measured.
    pub measured: Vec<KernelMeasure>,
    /// Why kernels are missing (no Valgrind, a failed kernel, skipped).
    pub notes: Vec<String>,
    /// Every kernel the run's kinds register, measured or not (the
    /// report lists what each one runs).
    pub registered: Vec<KernelInfo>,
}

/// The history's timing method of the counts of `tool` (`callgrind` and
/// the Valgrind version): a new Valgrind starts a new baseline.
pub fn timing_method(tool: &str) -> String {
    format!("callgrind-{}", tool.trim_start_matches("valgrind-"))
}

/// `valgrind --version`, None when it cannot be run.
pub fn valgrind_version() -> Option<String> {
    let out = Command::new("valgrind").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// The events of callgrind's output: the `events:` names with the
/// `totals:` (or, without, `summary:`) values.
pub fn parse_totals(text: &str) -> Result<BTreeMap<String, f64>, String> {
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
    };
    let events = field("events:").ok_or("callgrind output has no `events:` line")?;
    let totals = field("totals:")
        .or_else(|| field("summary:"))
        .ok_or("callgrind output has no `totals:` line")?;
    let values: Vec<f64> = totals
        .split_whitespace()
        .map(|v| {
            v.parse::<f64>()
                .map_err(|e| format!("totals value `{v}`: {e}"))
        })
        .collect::<Result<_, _>>()?;
    // Trailing zero events may be left out.
    Ok(events
        .split_whitespace()
        .enumerate()
        .map(|(i, e)| (e.to_string(), values.get(i).copied().unwrap_or(0.0)))
        .collect())
}

/// Estimated cycles from the cache-simulation events (module doc); None
/// without them.
pub fn estimated_cycles(events: &BTreeMap<String, f64>) -> Option<f64> {
    let e = |k: &str| events.get(k).copied();
    let accesses = e("Ir")? + e("Dr")? + e("Dw")?;
    let ram = e("ILmr")? + e("DLmr")? + e("DLmw")?;
    let ll = e("I1mr")? + e("D1mr")? + e("D1mw")? - ram;
    let l1 = accesses - ll - ram;
    Some(l1 + 5.0 * ll + 35.0 * ram)
}

/// Measures kernel `kernel` of binary `exe` (run in `root` with the extra
/// environment `env`), callgrind's file written into `scratch`.
pub fn measure(
    exe: &Path,
    root: &Path,
    scratch: &Path,
    kernel: &KernelInfo,
    env: &[(String, String)],
) -> Result<KernelMeasure, String> {
    let m = measure_named(exe, root, scratch, &kernel.name(), env)?;
    Ok(KernelMeasure {
        kernel: *kernel,
        instructions: m.instructions,
        estimated_cycles: m.estimated_cycles,
        counters: m.counters,
    })
}

/// One kernel's counts, by name (what [`measure_named`] returns).
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    /// Instructions executed (Ir).
    pub instructions: f64,
    /// Estimated cycles (module doc), NaN without the cache simulation.
    pub estimated_cycles: f64,
    /// The kernel's own counters.
    pub counters: Counters,
}

/// Measures the kernel called `name` (`case/method`) of binary `exe`, which
/// may be another revision's build (`compare`), run in `root`.
pub fn measure_named(
    exe: &Path,
    root: &Path,
    scratch: &Path,
    name: &str,
    env: &[(String, String)],
) -> Result<Counts, String> {
    let file = scratch.join(format!("{}.out", name.replace('/', ".")));
    let out = Command::new("valgrind")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .arg("-q")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", file.display()))
        .arg(format!(
            "--instr-atstart={}",
            if super::client::INSTRUMENT_AT_START {
                "yes"
            } else {
                "no"
            }
        ))
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect={SYMBOL}"))
        .arg("--cache-sim=yes")
        .arg(exe)
        .arg("kernel")
        .arg(name)
        .current_dir(root)
        .output()
        .map_err(|e| format!("valgrind could not be started: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!(
            "valgrind exited with {}: {}",
            out.status,
            stderr.trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or_else(|| format!("no counters printed; stderr: {}", stderr.trim()))?;
    let counters = super::parse_output(line)?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let events = parse_totals(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let instructions = events.get("Ir").copied().unwrap_or(0.0);
    if instructions <= 0.0 {
        return Err(format!(
            "no instruction was counted in {SYMBOL} (was the symbol found?)"
        ));
    }
    Ok(Counts {
        instructions,
        estimated_cycles: estimated_cycles(&events).unwrap_or(f64::NAN),
        counters,
    })
}

/// Distinguishes the scratch directories of one process.
static SCRATCH_SERIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A scratch directory for callgrind's files, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Measures every kernel of `kernels` with this process's binary, at
/// most `workers` Valgrind processes at once. Without Valgrind the report
/// says so and measures nothing; a kernel that fails is a note.
pub fn measure_all(root: &Path, workers: usize, kernels: &[Kernel]) -> KernelReport {
    let infos: Vec<KernelInfo> = kernels.iter().map(|k| k.info).collect();
    match std::env::current_exe() {
        Ok(exe) => measure_all_of(&exe, root, workers, &infos, &[]),
        Err(e) => KernelReport {
            tool: valgrind_version(),
            notes: vec![format!(
                "the binary's path is unknown ({e}): no kernels measured"
            )],
            ..KernelReport::default()
        },
    }
}

/// [`measure_all`] of `kernels` with binary `exe` (the harness's) and
/// extra environment `env` for every kernel process (the test hook of
/// [`super::hook`]).
pub fn measure_all_of(
    exe: &Path,
    root: &Path,
    workers: usize,
    kernels: &[KernelInfo],
    env: &[(String, String)],
) -> KernelReport {
    let Some(tool) = valgrind_version() else {
        return KernelReport {
            notes: vec![
                "Valgrind was not found (`valgrind --version` failed): no instruction counts were \
                 measured (install Debian's `valgrind` package)"
                    .to_string(),
            ],
            ..KernelReport::default()
        };
    };
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "contact-harness-callgrind-{}-{}",
        std::process::id(),
        SCRATCH_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )));
    if let Err(e) = std::fs::create_dir_all(&scratch.0) {
        return KernelReport {
            tool: Some(tool),
            notes: vec![format!("{}: {e}: no kernels measured", scratch.0.display())],
            ..KernelReport::default()
        };
    }
    let results = in_parallel(workers, kernels, |k| measure(exe, root, &scratch.0, k, env));
    let mut report = KernelReport {
        tool: Some(tool),
        ..KernelReport::default()
    };
    for (k, r) in kernels.iter().zip(results) {
        match r {
            Ok(m) => report.measured.push(m),
            Err(e) => report
                .notes
                .push(format!("kernel {} was not measured: {e}", k.name())),
        }
    }
    report
}

/// `f` of every item of `items`, at most `workers` at once (each Valgrind
/// process is single-threaded), in the order of `items`.
pub fn in_parallel<T: Sync, R: Send>(
    workers: usize,
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers.clamp(1, items.len().max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        done.push((i, f(item)));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "# callgrind format
version: 1
creator: callgrind-3.19.0
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
fn=(1) contact_harness_measured_kernel
0 10 2
summary: 1000 300 100 10 20 5 2 3 1
totals: 1000 300 100 10 20 5 2 3 1
";

    #[test]
    fn totals_and_estimated_cycles_are_read() {
        let e = parse_totals(OUT).unwrap();
        assert_eq!(e["Ir"], 1000.0);
        assert_eq!(e["DLmw"], 1.0);
        // RAM = 2 + 3 + 1 = 6, LL = 10 + 20 + 5 - 6 = 29,
        // L1 = 1400 - 29 - 6 = 1365: 1365 + 5 * 29 + 35 * 6 = 1720.
        assert_eq!(estimated_cycles(&e), Some(1720.0));
        let only_ir = parse_totals("events: Ir\ntotals: 77\n").unwrap();
        assert_eq!(only_ir["Ir"], 77.0);
        assert_eq!(estimated_cycles(&only_ir), None);
        assert!(parse_totals("events: Ir\n").is_err());
        assert!(parse_totals("totals: 1\n").is_err());
        assert!(parse_totals("events: Ir\ntotals: x\n").is_err());
        assert_eq!(timing_method("valgrind-3.19.0"), "callgrind-3.19.0");
    }
}
