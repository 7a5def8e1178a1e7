//! The history store (`harness::history::store`): the committed history
//! round-trips through it without loss, a pre-store history.csv migrates,
//! readers get exactly the latest runs, a damaged store is refused by
//! name, and (ignored by default, run by hand) the measurement on 10,000
//! synthetic runs that docs/history.md states.

use std::path::{Path, PathBuf};
use std::time::Instant;

use contact_harness::harness::history::{
    self, CSV_RUNS, History, HistoryRow, RunEntry, WINDOW_RUNS, load_index, load_recent, migrate,
    split_runs, write_runs,
};
use contact_harness::harness::manifest;
use contact_harness::harness::outcome::RunResult;

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results/history")
}

/// Every row of the committed history, oldest first.
fn committed_rows() -> History {
    load_recent(&committed(), usize::MAX).expect("the committed history loads")
}

fn write_csv(path: &Path, h: &History) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, history::to_csv(path, h).unwrap()).unwrap();
}

/// The committed history written as one pre-store history.csv, migrated,
/// reads back row for row; so does a store written from the store's runs.
#[test]
fn the_committed_history_round_trips_through_a_migration() {
    let all = committed_rows();
    let runs = split_runs(all.rows.clone());
    assert!(runs.len() >= 60, "{} runs", runs.len());
    let index = load_index(&committed())
        .unwrap()
        .expect("the committed index");
    assert_eq!(index.len(), runs.len(), "one run per index entry");

    let dir = tempfile::tempdir().unwrap();
    write_csv(&dir.path().join("history.csv"), &all);
    let entries = migrate(dir.path()).unwrap();
    assert_eq!(entries.len(), runs.len());
    let back = load_recent(dir.path(), usize::MAX).unwrap();
    assert_eq!(back.rows.len(), all.rows.len());
    assert!(back == all, "the migrated rows differ from the file's");
    // Migrating again changes nothing: the index is there.
    assert_eq!(migrate(dir.path()).unwrap(), entries);

    // A row whose value is changed in the file no longer reads back equal:
    // the comparison above can fail.
    let mut changed = all.clone();
    changed.rows[all.rows.len() / 2].value += 1.0;
    assert!(back != changed);
}

/// Readers get exactly the latest k runs, oldest first; the recorded
/// history.csv holds the latest CSV_RUNS.
#[test]
fn readers_get_the_latest_runs_and_history_csv_the_latest_few() {
    let all = committed_rows();
    let runs: Vec<Vec<HistoryRow>> = split_runs(all.rows).into_iter().map(|(_, r)| r).collect();
    let dir = tempfile::tempdir().unwrap();
    write_runs(dir.path(), Vec::new(), runs.clone()).unwrap();
    for k in [1, 7, runs.len()] {
        let h = load_recent(dir.path(), k).unwrap();
        let expected: Vec<HistoryRow> = runs[runs.len() - k..].concat();
        assert!(h.rows == expected, "the latest {k} runs");
    }

    // A recorded run adds one file and one index entry, and rewrites
    // history.csv with the latest CSV_RUNS runs.
    let mut run = empty_run();
    run.record_history = true;
    run.costs.calibration.samples = vec![0.5, 0.6];
    let before = load_index(dir.path()).unwrap().unwrap().len();
    let h = history::record(dir.path(), &run).unwrap();
    let index = load_index(dir.path()).unwrap().unwrap();
    assert_eq!(index.len(), before + 1);
    assert_eq!(split_runs(h.rows).len(), WINDOW_RUNS.min(before + 1));
    let csv = history::load(&dir.path().join("history.csv")).unwrap();
    let csv_runs = split_runs(csv.rows);
    assert_eq!(csv_runs.len(), CSV_RUNS);
    let last: &RunEntry = index.last().unwrap();
    assert_eq!(csv_runs.last().unwrap().0.commit, last.commit);
    assert_eq!(csv_runs.last().unwrap().0.date, last.date);
}

/// A run file that lost rows, and an index with a bad count, are refused
/// with the file's name.
#[test]
fn a_damaged_store_is_refused_by_name() {
    let all = committed_rows();
    let runs: Vec<Vec<HistoryRow>> = split_runs(all.rows)
        .into_iter()
        .rev()
        .take(3)
        .map(|(_, r)| r)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let entries = write_runs(dir.path(), Vec::new(), runs.clone()).unwrap();
    // The second run's file replaced by the third's (fewer or more rows).
    let file = |e: &RunEntry| history::run_path(dir.path(), &e.run);
    std::fs::copy(file(&entries[2]), file(&entries[1])).unwrap();
    if runs[1].len() != runs[2].len() {
        let err = load_recent(dir.path(), 3).unwrap_err().to_string();
        assert!(
            err.contains(&entries[1].run) && err.contains("rows"),
            "{err}"
        );
    }
    let index = history::index_path(dir.path());
    let text = std::fs::read_to_string(&index).unwrap();
    let bad = text.replacen(&format!(",{}\n", runs[0].len()), ",many\n", 1);
    assert_ne!(bad, text);
    std::fs::write(&index, bad).unwrap();
    let err = load_index(dir.path()).unwrap_err().to_string();
    assert!(err.contains("runs.csv") && err.contains("`many`"), "{err}");
}

fn empty_run() -> RunResult {
    RunResult {
        suite: "store".into(),
        studies: Vec::new(),
        manifest: manifest::collect("test", "experiments/quick.toml", serde_json::json!({})),
        record_history: false,
        costs: Default::default(),
    }
}

/// The measurement docs/history.md states: 10,000 synthetic runs of the
/// latest committed run's benchmarks (times scattered by a few per cent,
/// counters as they are), written to a store; its size on disk, and the
/// time to read the window, judge it and write the report; then the time
/// to record one more run. Run by hand:
/// `cargo test --test history_store -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement (about 10 minutes), not a check"]
fn ten_thousand_runs() {
    const RUNS: usize = 10_000;
    const CHUNK: usize = 250;
    let all = committed_rows();
    let template = split_runs(all.rows).pop().unwrap().1;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("history");
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut uniform = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let started = Instant::now();
    let mut entries = Vec::new();
    for chunk in 0..RUNS / CHUNK {
        let runs: Vec<Vec<HistoryRow>> = (0..CHUNK)
            .map(|i| {
                let k = chunk * CHUNK + i;
                let date = format!(
                    "2027-{:02}-{:02}T{:02}:{:02}:00Z",
                    1 + k / 1000 % 12,
                    1 + k / 40 % 25,
                    k / 60 % 24,
                    k % 60
                );
                template
                    .iter()
                    .map(|r| {
                        let mut r = r.clone();
                        r.commit = format!("{k:040x}");
                        r.date = date.clone();
                        if r.is_time() {
                            r.value *= 1.0 + 0.05 * (uniform() - 0.5);
                        }
                        r
                    })
                    .collect()
            })
            .collect();
        entries = write_runs(&store, entries, runs).unwrap();
    }
    let written = started.elapsed();
    let bytes: u64 = std::fs::read_dir(store.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum::<u64>()
        + std::fs::metadata(history::index_path(&store))
            .unwrap()
            .len();

    let started = Instant::now();
    let window = load_recent(&store, WINDOW_RUNS).unwrap();
    let read = started.elapsed();
    let mut run = empty_run();
    run.manifest.commit = window.rows.last().unwrap().commit.clone();
    let started = Instant::now();
    contact_harness::harness::report::write_report(&dir.path().join("report"), &run, &window)
        .unwrap();
    let reported = started.elapsed();
    let mut run = empty_run();
    run.record_history = true;
    run.costs.calibration.samples = vec![0.5, 0.6];
    let started = Instant::now();
    history::record(&store, &run).unwrap();
    let recorded = started.elapsed();
    println!(
        "{RUNS} runs of {} rows: {:.1} MB on disk ({:.1} KB a run), written in {:.0} s; \
         the window of {WINDOW_RUNS} runs read in {:.2} s, judged and reported in {:.1} s; \
         one more run recorded in {:.2} s",
        template.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / RUNS as f64,
        written.as_secs_f64(),
        read.as_secs_f64(),
        reported.as_secs_f64(),
        recorded.as_secs_f64(),
    );
    assert_eq!(load_index(&store).unwrap().unwrap().len(), RUNS + 1);
}
