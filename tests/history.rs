//! Provenance and performance history end to end: the manifest a run
//! collects lands in manifest.json and the report footer with every
//! provenance field; the committed history still loads, and a run appended
//! to it (new columns, known machine) starts a new baseline instead of
//! calling anything faster or slower.

use std::fs;

use contact_harness::harness::history::{self, History, HistoryRow, TIMING_METHOD, Verdict};
use contact_harness::harness::manifest;
use contact_harness::harness::outcome::RunResult;
use contact_harness::harness::report::{document, render_html};
use contact_harness::harness::results::write_run;

fn run() -> RunResult {
    RunResult {
        suite: "provenance".into(),
        studies: Vec::new(),
        manifest: manifest::collect(
            "cargo run -- experiments/quick.toml",
            "experiments/quick.toml",
            serde_json::json!({}),
        ),
        record_history: false,
        costs: Default::default(),
    }
}

#[test]
fn manifest_json_and_footer_carry_the_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let run = run();
    write_run(dir.path(), &run).unwrap();
    let text = fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in [
        "commit",
        "dirty",
        "rustc",
        "profile",
        "build",
        "timing_method",
        "cpu",
        "cpu_model",
        "logical_cores",
        "memory",
        "os",
        "kernel",
        "host",
        "date",
        "command",
    ] {
        let v = &json[key];
        assert!(
            v.is_boolean() || v.as_str().is_some_and(|s| !s.is_empty()),
            "manifest.json lacks {key}: {v}"
        );
    }
    assert_eq!(json["timing_method"], TIMING_METHOD);
    // The README's commands build Cargo.toml's dev profile, which is
    // optimised without debug assertions: the provenance says so.
    assert!(
        json["build"]
            .as_str()
            .is_some_and(|b| b
                .starts_with("optimised, cargo profile dev: opt-level 2, debug assertions off")),
        "the build is not described as optimised: {}",
        json["build"]
    );
    assert_eq!(json["command"], "cargo run -- experiments/quick.toml");
    let tools = json["reference_tools"]
        .as_object()
        .expect("reference_tools");
    let named = |dir: &str| -> Vec<String> {
        tools[dir]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert!(named("gap-system").contains(&"SciPy 1.17.1".to_string()));
    assert!(named("slider-crank").contains(&"Exudyn 1.13.6".to_string()));

    let html = render_html(&document(&run, &History::default(), &[], None));
    let footer = &html[html.find("id=\"provenance\"").expect("footer")..];
    let m = &run.manifest;
    for shown in [
        m.cpu_model.as_str(),
        m.logical_cores.as_str(),
        m.memory.as_str(),
        m.os.as_str(),
        m.kernel.as_str(),
        m.build.as_str(),
        TIMING_METHOD,
        "reference-data/gap-system/",
        "SciPy 1.17.1",
        "Exudyn 1.13.6",
        "Uncommitted changes: ",
        "cargo run -- experiments/quick.toml",
    ] {
        assert!(footer.contains(shown), "footer lacks {shown}");
    }
}

/// A copy of the committed history, with `rows` appended as a new commit
/// measured on a known machine.
fn committed_plus(rows: impl Fn(&HistoryRow) -> Option<HistoryRow>) -> History {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/history");
    let mut h =
        history::load_recent(&dir, history::WINDOW_RUNS).expect("the committed history loads");
    let last = h.commits().last().unwrap().to_string();
    let added: Vec<HistoryRow> = h
        .rows
        .iter()
        .filter(|r| r.commit == last)
        .filter_map(rows)
        .collect();
    h.rows.extend(added);
    h
}

#[test]
fn the_committed_history_loads_and_a_new_machine_starts_a_new_baseline() {
    // The next commit on a machine whose CPU is now recorded, 2x slower and
    // with other counters: times start a new baseline, counters are compared.
    // Kernel rows (instruction counts under Valgrind, whose timing method
    // is the Valgrind version) are judged by tests/kernels.rs: left out.
    let h = committed_plus(|r| {
        if r.study == contact_harness::harness::kernels::STUDY {
            return None;
        }
        let mut r = r.clone();
        r.commit = "next".into();
        r.value *= 2.0;
        r.cpu = "AMD EPYC 7763 (2 logical cores)".into();
        r.profile = "release".into();
        r.timing = TIMING_METHOD.into();
        Some(r)
    });
    let flags = history::compare_latest(&h);
    let latest: Vec<_> = flags.iter().filter(|f| f.latest_commit == "next").collect();
    assert!(!latest.is_empty());
    for f in &latest {
        if history::is_time_metric(&f.metric) {
            assert_eq!(f.verdict, Verdict::NewBaseline, "{f:?}");
        } else if f.latest != 0.0 {
            assert_eq!(f.verdict, Verdict::Changed, "{f:?}");
        }
    }
    assert!(history::latest_regressions(&h).is_empty());
    let changes = history::baseline_changes(&h);
    let (_, what) = changes.last().unwrap();
    // The committed history's last machine is whatever ran the last full
    // run (unknown in the oldest rows): the change names the new CPU.
    assert!(what.contains("→ AMD EPYC 7763"), "{what}");

    // A tenfold slowdown on the same machine is a regression (10x: beyond
    // any noise band the committed history of a shared machine can give).
    // The calibration kernel keeps its time: CPU times are judged in its
    // units, so a machine ten times slower as a whole is no regression.
    // An unchanged rerun first, so that the newest baseline of the
    // committed history (its last run may be the first of a new timing
    // method) has points to judge against; then the slowdown twice: a CPU
    // time beyond its band is a regression once the next run confirms it
    // (one run alone is `Unconfirmed`).
    let mut h = committed_plus(|r| {
        let mut r = r.clone();
        r.commit = "again".into();
        Some(r)
    });
    for commit in ["slow", "next"] {
        let added: Vec<HistoryRow> = h
            .rows
            .iter()
            .filter(|r| r.commit == "again")
            .map(|r| {
                let mut r = r.clone();
                r.commit = commit.into();
                if r.is_time() && !r.is_calibration() {
                    r.value *= 10.0;
                }
                r
            })
            .collect();
        h.rows.extend(added);
    }
    // The newest run's slowdown waits for its confirmation; the one before
    // it, confirmed by the newest, is the regression.
    assert!(history::latest_regressions(&h).is_empty());
    let regressions: Vec<_> = history::regressions(&h)
        .into_iter()
        .filter(|r| r.commit == "slow")
        .collect();
    assert!(!regressions.is_empty());
    assert!(
        regressions
            .iter()
            .all(|r| r.change() > 0.2 && r.excess() > 1.0)
    );
    assert!(regressions.iter().any(|r| r.metric == "cpu_s"));
}
