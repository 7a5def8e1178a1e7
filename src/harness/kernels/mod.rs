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
//! Kernels are named by what they are (the model and the step). The study
//! kinds register theirs through the registry (each kind's `kernels`
//! module, over the benchmark models of `crate::fixtures`); the harness
//! owns only the calibration kernel ([`catalog::CALIBRATION`]) and
//! imports no model. Each kernel names its kind and the method of the
//! timings tables it measures a step (or a solve) of
//! ([`KernelInfo::timed`]); a kind states in its `LEFT_OUT` ([`LeftOut`])
//! why a method it times has none, and tests/kernel_coverage.rs checks
//! that every method the full suite times has one or the other. Every
//! kernel but the chain's dense LCP step takes at most about 3 s under
//! Valgrind, mostly its uninstrumented setup (the 48 kernels added for
//! issue 35 together about 61 s of CPU).

use std::path::Path;

pub mod calibration;
pub mod callgrind;
pub mod catalog;
pub mod client;
pub mod hook;
pub mod load;
pub mod run;

pub use catalog::{
    CALIBRATION, Counters, Kernel, KernelInfo, LeftOut, STUDY, Work, counters, find,
};
pub use run::{contact_harness_measured_kernel, parse_output, run_one, time_native};

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
    kernels: &[Kernel],
    records_history: bool,
    suite: &str,
    enabled: bool,
    workers: usize,
) -> callgrind::KernelReport {
    let registered: Vec<KernelInfo> = kernels.iter().map(|k| k.info).collect();
    let skipped = |why: String| callgrind::KernelReport {
        notes: vec![why],
        registered: registered.clone(),
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
        kernels.len()
    );
    let mut report = callgrind::measure_all(Path::new("."), workers, kernels);
    report.registered = registered;
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    report
}
