//! Every method the timings tables can hold has a per-step kernel
//! (`harness::kernels`) or is in its kind's list of methods left out, with
//! the reason (issue 35, item 1); and every registered kernel runs.
//!
//! The timed methods are what the full suite (`experiments/all`) plans:
//! each study's kind and, per case, the label of every method it runs
//! (`Study::methods`, parsed from the specs) and of its timed reference
//! (`Study::timed_reference`: the gap-system kind's `event-driven`
//! solution and `continuation`). A kernel covers the pair (its
//! `KernelInfo::kind`, its `KernelInfo::timed`).
//!
//! The second test runs each registered kernel natively (prepare, the
//! warm-up run, one more run) and checks that it succeeds and that its
//! main counter (the first it reports) is positive.

use std::collections::BTreeSet;
use std::path::Path;

use contact_harness::harness::kernels::KernelInfo;
use contact_harness::harness::registry::Registry;
use contact_harness::harness::runner;
use contact_harness::studies;

/// A (study kind, timed method) pair.
type Pair = (String, String);

/// The (kind, method) pairs the full suite times.
fn timed_pairs(kinds: &Registry) -> BTreeSet<Pair> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let planned = runner::plan(kinds, &root.join("experiments/all.toml"), &[])
        .unwrap_or_else(|e| panic!("experiments/all does not plan: {e}"));
    let mut pairs = BTreeSet::new();
    for p in &planned {
        for (case, methods) in p.methods.iter().enumerate() {
            for m in methods {
                pairs.insert((p.spec.kind.clone(), m.label.clone()));
            }
            if let Some(reference) = p.study.timed_reference(case) {
                pairs.insert((p.spec.kind.clone(), reference.to_string()));
            }
        }
    }
    pairs
}

/// The pairs of `pairs` that no kernel of `kernels` covers and that are
/// not left out with a (non-empty) reason in `left_out`.
fn uncovered(
    pairs: &BTreeSet<Pair>,
    kernels: &[KernelInfo],
    left_out: &[(&str, &str, &str)],
) -> Vec<Pair> {
    pairs
        .iter()
        .filter(|(kind, method)| {
            let kernel = kernels.iter().any(|k| k.kind == kind && k.timed == method);
            let excused = left_out
                .iter()
                .any(|&(k, m, why)| k == kind && m == method && !why.trim().is_empty());
            !kernel && !excused
        })
        .cloned()
        .collect()
}

#[test]
fn every_timed_method_has_a_kernel_or_a_reason() {
    let kinds = studies::registry();
    let pairs = timed_pairs(&kinds);
    let kernels: Vec<KernelInfo> = kinds.kernels().iter().map(|k| k.info).collect();
    let left_out = kinds.left_out();
    eprintln!("{} timed (kind, method) pairs:", pairs.len());
    for (kind, method) in &pairs {
        let by: Vec<String> = kernels
            .iter()
            .filter(|k| k.kind == kind && k.timed == method)
            .map(|k| k.name())
            .collect();
        eprintln!("  {kind} / {method}: {}", by.join(", "));
    }
    // The timings tables of the committed history hold 53 pairs.
    assert!(
        pairs.len() >= 53,
        "only {} timed pairs planned",
        pairs.len()
    );
    let missing = uncovered(&pairs, &kernels, &left_out);
    assert!(
        missing.is_empty(),
        "timed methods without a kernel or a reason: {missing:?}"
    );
    let covered = pairs.len() - left_out.len();
    assert!(covered >= 35, "only {covered} timed methods have a kernel");

    // Every reason names a pair the kinds time, and says why.
    for &(kind, method, why) in &left_out {
        assert!(
            pairs.contains(&(kind.to_string(), method.to_string())),
            "left out {kind} / {method} is not a timed method"
        );
        assert!(!why.trim().is_empty(), "{kind} / {method}: no reason");
    }
    // Every kernel names its kind, and its timed method (when it has one)
    // is a timed pair of that kind.
    for k in &kernels {
        if k.case == "calibration" {
            assert_eq!((k.kind, k.timed), ("", ""), "{}", k.name());
            continue;
        }
        assert!(kinds.contains(k.kind), "{}: kind `{}`", k.name(), k.kind);
        assert!(
            k.timed.is_empty() || pairs.contains(&(k.kind.to_string(), k.timed.to_string())),
            "{}: `{}` is not a method the kind times",
            k.name(),
            k.timed
        );
    }

    // The check can fail: without the only kernel of a pair, that pair is
    // reported; so is a pair left out without a reason.
    let only = kernels
        .iter()
        .find(|k| k.kind == "gap-system" && k.timed == "newmark-ssn")
        .expect("the sparse Newton step's kernel");
    let fewer: Vec<KernelInfo> = kernels.iter().copied().filter(|k| k != only).collect();
    assert_eq!(
        uncovered(&pairs, &fewer, &left_out),
        [("gap-system".to_string(), "newmark-ssn".to_string())]
    );
    let mut silent = left_out.clone();
    silent.push(("gap-system", "newmark-ssn", " "));
    assert_eq!(uncovered(&pairs, &fewer, &silent).len(), 1);
    let excused: Vec<(&str, &str, &str)> = left_out
        .iter()
        .copied()
        .chain([("gap-system", "newmark-ssn", "a reason")])
        .collect();
    assert!(uncovered(&pairs, &fewer, &excused).is_empty());
}

#[test]
fn every_kernel_runs_and_counts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for kernel in studies::registry().kernels() {
        let name = kernel.info.name();
        let watch = std::time::Instant::now();
        let mut work = (kernel.prepare)(root).unwrap_or_else(|e| panic!("{name}: {e}"));
        work().unwrap_or_else(|e| panic!("{name}: warm-up: {e}"));
        let counters = work().unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name}: {counters:?} ({:.2} s)",
            watch.elapsed().as_secs_f64()
        );
        if kernel.info.case == "calibration" {
            continue;
        }
        let (main, value) = counters
            .first()
            .unwrap_or_else(|| panic!("{name}: no counter"));
        assert!(*value > 0.0, "{name}: main counter {main} = {value}");
    }
}
