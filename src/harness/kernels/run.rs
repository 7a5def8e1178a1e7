//! The `kernel NAME` subcommand: one kernel prepared, run once unmeasured
//! and once inside the measured region, its counters printed as JSON; and
//! the native timing of a kernel (a developer's tool).

use std::collections::BTreeMap;
use std::path::Path;

use super::catalog::{Counters, Kernel, Work, find};
use super::{client, hook};

/// The measured region: callgrind counts only what runs inside this
/// function (`--toggle-collect`). Unmangled and never inlined, so its
/// symbol exists under exactly this name.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn contact_harness_measured_kernel(work: &mut Work) -> Result<Counters, String> {
    work()
}

/// The `kernel NAME` subcommand: prepares the kernel, runs it once
/// unmeasured and once measured, and returns the measured run's counters as
/// a JSON object `{"kernel": NAME, "counters": {...}}`. The two runs of a
/// kernel without state must give the same counters.
pub fn run_one(kernels: &[Kernel], name: &str, root: &Path) -> Result<String, String> {
    let kernel = find(kernels, name).ok_or_else(|| {
        format!(
            "unknown kernel `{name}`; kernels: {}",
            kernels
                .iter()
                .map(|k| k.info.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    // One core, like the timed method runs.
    faer::set_global_parallelism(faer::Par::Seq);
    let mut work = (kernel.prepare)(root)?;
    if let Some(change) = hook::from_env(name)? {
        work = hook::apply(work, change);
    }
    work()?;
    // Under Valgrind the setup and the warm-up ran uninstrumented
    // (`--instr-atstart=no`, about ten times faster than instrumented).
    client::start_instrumentation();
    let counters = contact_harness_measured_kernel(&mut work)?;
    let map: BTreeMap<String, f64> = counters.into_iter().collect();
    Ok(serde_json::json!({ "kernel": name, "counters": map }).to_string())
}

/// The counters of a `kernel NAME` output line.
pub fn parse_output(line: &str) -> Result<Counters, String> {
    let value: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|e| format!("kernel output `{}` is not JSON: {e}", line.trim()))?;
    let counters = value
        .get("counters")
        .and_then(|c| c.as_object())
        .ok_or_else(|| format!("kernel output `{}` has no counters", line.trim()))?;
    counters
        .iter()
        .map(|(k, v)| {
            v.as_f64()
                .map(|v| (k.clone(), v))
                .ok_or_else(|| format!("counter `{k}` = {v} is not a number"))
        })
        .collect()
}

/// Runs kernel `name` `runs` times natively after the warm-up and returns
/// the median thread CPU seconds per run (a developer's tool: `kernel NAME
/// --time RUNS`; successive runs of a stateful kernel advance its state).
pub fn time_native(
    kernels: &[Kernel],
    name: &str,
    root: &Path,
    runs: usize,
) -> Result<f64, String> {
    let kernel = find(kernels, name).ok_or_else(|| format!("unknown kernel `{name}`"))?;
    faer::set_global_parallelism(faer::Par::Seq);
    let mut work = (kernel.prepare)(root)?;
    work()?;
    let mut cpu = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let watch = crate::harness::clock::Stopwatch::start();
        contact_harness_measured_kernel(&mut work)?;
        cpu.push(watch.elapsed().1);
    }
    Ok(crate::harness::timing::median(&cpu))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::kernels::catalog::CALIBRATION;

    #[test]
    fn output_round_trips() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let kernels = [CALIBRATION];
        let out = run_one(&kernels, "calibration/fixed-kernel", root).expect("runs");
        let counters = parse_output(&out).expect("parses");
        assert!(counters.is_empty(), "{counters:?}");
        assert!(parse_output("{\"counters\": {\"a\": \"x\"}}").is_err());
        assert!(parse_output("not json").is_err());
        assert!(
            run_one(&kernels, "nope/nope", root)
                .unwrap_err()
                .contains("unknown kernel")
        );
    }
}
