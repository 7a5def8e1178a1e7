//! Deterministic cost of the per-step kernels of every method: instruction
//! counts (and estimated cycles from Valgrind's cache simulation) of one
//! step of each method from a representative state, measured by Valgrind's
//! callgrind tool on this very binary.
//!
//! How: the binary has a hidden subcommand `kernel NAME` ([`run_one`]) that
//! prepares the kernel's state (unmeasured), runs the kernel once as a
//! warm-up (unmeasured: first-call effects such as lazily allocated scratch
//! space stay out), then once inside [`contact_harness_measured_kernel`],
//! and prints the kernel's own solver counters as JSON. [`callgrind`]
//! launches it as
//!
//! ```text
//! valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no
//!          --toggle-collect=contact_harness_measured_kernel --cache-sim=yes ...
//! ```
//!
//! so that only the instructions executed inside that function (and what it
//! calls) are counted; the setup and the warm-up run without
//! instrumentation until a client request ([`client`]) starts it just
//! before the measured run (instrumented, the dense LCP step of the chain
//! alone took 76 s of CPU with its warm-up, 646 million instructions per
//! step). The cache simulation therefore starts cold: `estimated_cycles`
//! include the compulsory misses of one run. The symbol is unmangled
//! (`no_mangle`), so the pattern does not depend on the compiler's symbol
//! mangling. A kernel that
//! advances a state (a time step) measures the step after the warm-up
//! step; a kernel without state (Lemke on the fixed collection, one
//! Runge-Kutta step from a fixed state) measures the same work twice.
//!
//! Why Valgrind directly and not the `gungraun` (formerly `iai-callgrind`)
//! crate: gungraun needs a `gungraun-runner` binary of exactly the
//! library's version (`cargo install`, a build of its own in CI) and a bench
//! harness of its own; calling `valgrind` on the harness's own binary needs
//! nothing but Debian's `valgrind` package, no dependency, and puts the
//! counts into the same run, history and report as the CPU times.
//!
//! Kernels are named by what they are (the model and the step), see
//! [`KERNELS`]; each one's setup is in [`setups`].

use std::collections::BTreeMap;
use std::path::Path;

pub mod calibration;
pub mod callgrind;
pub mod client;
pub mod hook;
pub mod load;
mod setups;

/// The exact counters a kernel reports of its measured run (pivots,
/// iterations, evaluations, ...), in a fixed order.
pub type Counters = Vec<(String, f64)>;

/// A prepared kernel: each call runs the measured work once and returns its
/// counters.
pub type Work = Box<dyn FnMut() -> Result<Counters, String>>;

/// The deterministic and calibration measures of one run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunCosts {
    /// The calibration kernel's CPU times, sampled at the start and the end
    /// of the run's jobs.
    pub calibration: calibration::Calibration,
    /// The kernels' counts under Valgrind.
    pub kernels: callgrind::KernelReport,
}

/// The suite whose history runs measure the kernels: the full suite
/// (`experiments/all`), the one the committed history records. Other suites
/// (the reduced `quick` of the tests) append to their own history without
/// kernel rows, so that a test run does not spend minutes under Valgrind.
pub const KERNEL_SUITE: &str = "all";

/// The kernels' counts of a run of suite `suite`: measured under Valgrind
/// when the run appends to the history, the suite is [`KERNEL_SUITE`] and
/// `enabled` (not `--no-kernels`), else none with the reason.
pub fn measure_for_run(
    records_history: bool,
    suite: &str,
    enabled: bool,
    workers: usize,
) -> callgrind::KernelReport {
    let skipped = |why: String| callgrind::KernelReport {
        notes: vec![why],
        ..callgrind::KernelReport::default()
    };
    if !enabled {
        return skipped("the kernels were not measured (--no-kernels)".into());
    }
    if !records_history {
        return skipped(
            "the kernels are measured only by a run that appends to the history".into(),
        );
    }
    if suite != KERNEL_SUITE {
        return skipped(format!(
            "the kernels are measured only by a run of the full suite (experiments/{KERNEL_SUITE}), \
             not of `{suite}`"
        ));
    }
    eprintln!(
        "measuring the instruction counts of {} kernels under Valgrind...",
        KERNELS.len()
    );
    let report = callgrind::measure_all(Path::new("."), workers);
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    report
}

/// The history's study name of kernel rows (`kernels / <case> / <method>`).
pub const STUDY: &str = "kernels";

/// One kernel: `case` names the model and state, `method` the step, `what`
/// says it in words (shown in the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelInfo {
    /// The model (and case) the kernel runs on, e.g. `chain-1000`.
    pub case: &'static str,
    /// The step it measures, e.g. `newmark-lcp-step`.
    pub method: &'static str,
    /// What one measured run does.
    pub what: &'static str,
}

impl KernelInfo {
    /// The command-line name `case/method`.
    pub fn name(&self) -> String {
        format!("{}/{}", self.case, self.method)
    }
}

/// Every kernel, in report order.
pub const KERNELS: [KernelInfo; 10] = [
    KernelInfo {
        case: "chain-1000",
        method: "newmark-lcp-step",
        what: "one Newmark step of the 1000-DOF chain with 1000 gaps with the paper's dense LCP \
               (Lemke), from the state after 150 steps of dt = 0.01 s (about 250 gaps closed)",
    },
    KernelInfo {
        case: "chain-1000",
        method: "newmark-ssn-step",
        what: "one Newmark step of the same chain with the sparse semi-smooth Newton step, from \
               the same state",
    },
    KernelInfo {
        case: "valve-spring",
        method: "ncp-bdf1-step",
        what: "one BDF1 step of 1e-5 s of the valve spring (35 lumps, 44 coil pairs) with \
               Signorini contact as an NCP (semi-smooth Newton), from the top of the lift (t = 4.2 ms)",
    },
    KernelInfo {
        case: "valve-spring",
        method: "penalty-bdf1-step",
        what: "one BDF1 step of 1e-5 s of the same spring with spring-damper contact elements \
               (k_p = 1e8 N/m, Newton), from the top of the lift",
    },
    KernelInfo {
        case: "slider-crank-clearance",
        method: "rk4-step",
        what: "one RK4 step of 1e-6 s of the slider-crank (eq. 4, multipliers eliminated) with \
               the clearance joint in contact (journal 1 micrometre deep), 5000 rpm",
    },
    KernelInfo {
        case: "slider-crank-clearance",
        method: "dopri5-step",
        what: "one Dormand-Prince 5(4) step of 1e-6 s of the same mechanism and state",
    },
    KernelInfo {
        case: "shrouded-blades",
        method: "moreau-step",
        what: "one Moreau step of 1e-6 s of the two blades (20 friction patches, Coulomb mu = 0.2, \
               impulses by projected Gauss-Seidel) from t = 2 ms of the 10 N step transient",
    },
    KernelInfo {
        case: "belt",
        method: "moreau-1000-steps",
        what: "1000 Moreau steps of 1e-3 s of the mass on the belt (Coulomb mu_s = 0.15, \
               mu_k = 0.10): about one stick-slip cycle, both branches",
    },
    KernelInfo {
        case: "lcp-collection",
        method: "lemke",
        what: "Lemke on every LCP of reference-data/lcp/ (the Siconos collection), read beforehand",
    },
    KernelInfo {
        case: "calibration",
        method: "fixed-kernel",
        what: "the calibration kernel the CPU times are measured against (harness::kernels::calibration; \
               fixed code)",
    },
];

/// The kernel called `name` (`case/method`).
pub fn find(name: &str) -> Option<&'static KernelInfo> {
    KERNELS.iter().find(|k| k.name() == name)
}

/// The measured region: callgrind counts only what runs inside this
/// function (`--toggle-collect`). Unmangled and never inlined, so its
/// symbol exists under exactly this name.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn contact_harness_measured_kernel(work: &mut Work) -> Result<Counters, String> {
    work()
}

/// Prepares kernel `info` (reference files are read below `root`, the
/// repository).
pub fn prepare(info: &KernelInfo, root: &Path) -> Result<Work, String> {
    setups::prepare(info, root)
}

/// The `kernel NAME` subcommand: prepares the kernel, runs it once
/// unmeasured and once measured, and returns the measured run's counters as
/// a JSON object `{"kernel": NAME, "counters": {...}}`. The two runs of a
/// kernel without state must give the same counters.
pub fn run_one(name: &str, root: &Path) -> Result<String, String> {
    let info = find(name).ok_or_else(|| {
        format!(
            "unknown kernel `{name}`; kernels: {}",
            KERNELS.map(|k| k.name()).join(", ")
        )
    })?;
    // One core, like the timed method runs.
    faer::set_global_parallelism(faer::Par::Seq);
    let mut work = prepare(info, root)?;
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
pub fn time_native(name: &str, root: &Path, runs: usize) -> Result<f64, String> {
    let info = find(name).ok_or_else(|| format!("unknown kernel `{name}`"))?;
    faer::set_global_parallelism(faer::Par::Seq);
    let mut work = prepare(info, root)?;
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

    #[test]
    fn names_are_unique_and_found() {
        for k in &KERNELS {
            assert_eq!(find(&k.name()), Some(k));
            assert_eq!(KERNELS.iter().filter(|o| o.name() == k.name()).count(), 1);
        }
        assert!(find("chain-1000/no-such-step").is_none());
    }

    #[test]
    fn output_round_trips() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = run_one("belt/moreau-1000-steps", root).expect("runs");
        let counters = parse_output(&out).expect("parses");
        let steps = counters.iter().find(|(k, _)| k == "steps").map(|c| c.1);
        assert_eq!(steps, Some(1000.0));
        assert!(parse_output("{\"counters\": {\"a\": \"x\"}}").is_err());
        assert!(parse_output("not json").is_err());
        assert!(
            run_one("nope/nope", root)
                .unwrap_err()
                .contains("unknown kernel")
        );
    }
}
