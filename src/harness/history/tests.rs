//! Tests of the history: loading, appending, and judging times and counters.

use super::*;
use crate::error::OutputError;
use crate::harness::atomic;
use std::path::Path;

fn row(commit: &str, host: &str, metric: &str, value: f64) -> HistoryRow {
    HistoryRow {
        commit: commit.into(),
        date: "2026-12-01T00:00:00Z".into(),
        host: host.into(),
        suite: "all".into(),
        study: "sdof".into(),
        case: "dt-0.01".into(),
        method: "newmark-lcp".into(),
        metric: metric.into(),
        value,
        spread: f64::NAN,
        timing: TIMING_METHOD.into(),
        profile: "release".into(),
        rustc: "rustc 1.95.0".into(),
        cpu: "Test CPU (2 logical cores)".into(),
    }
}

fn wall_history(values: &[f64]) -> History {
    History {
        rows: values
            .iter()
            .enumerate()
            .map(|(i, &v)| row(&format!("c{i}"), "h", "wall_s", v))
            .collect(),
    }
}

#[test]
fn a_fifty_percent_slowdown_is_flagged() {
    let flags = compare_latest(&wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]));
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].verdict, Verdict::Slower);
    assert_eq!(flags[0].baseline, Some(1.0));
    assert_eq!(flags[0].previous_commit.as_deref(), Some("c4"));
}

#[test]
fn five_percent_noise_is_not_flagged() {
    let flags = compare_latest(&wall_history(&[1.0, 1.05, 0.95, 1.03, 0.97, 1.05]));
    assert_eq!(flags[0].verdict, Verdict::WithinNoise);
    assert!(!flags[0].verdict.is_flag());
}

#[test]
fn a_noisy_baseline_widens_the_threshold_beyond_twenty_percent() {
    // MAD = 0.3 -> 3 sigma = 1.33 > 20 % of 1.0: a 30 % slowdown is noise.
    let (m, threshold, verdict) = wall_time_verdict(1.3, &[0.5, 1.0, 1.5, 0.7, 1.3]);
    assert_eq!(m, 1.0);
    assert!((threshold - 3.0 * 1.4826 * 0.3).abs() < 1e-12);
    assert_eq!(verdict, Verdict::WithinNoise);
}

#[test]
fn only_the_last_five_commits_form_the_baseline() {
    let (m, _, verdict) = wall_time_verdict(1.5, &[10.0, 10.0, 10.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    assert_eq!(m, 1.0);
    assert_eq!(verdict, Verdict::Slower);
}

#[test]
fn a_changed_pivot_count_is_flagged_and_an_equal_one_is_not() {
    let history = History {
        rows: vec![
            row("a", "h", "lcp_pivots", 120.0),
            row("a", "h", "steps", 100.0),
            row("b", "h", "lcp_pivots", 121.0),
            row("b", "h", "steps", 100.0),
        ],
    };
    let flags = compare_latest(&history);
    let pivots = flags.iter().find(|f| f.metric == "lcp_pivots").unwrap();
    let steps = flags.iter().find(|f| f.metric == "steps").unwrap();
    assert_eq!(pivots.verdict, Verdict::Changed);
    assert_eq!((pivots.previous, pivots.latest), (Some(120.0), 121.0));
    assert_eq!(steps.verdict, Verdict::Unchanged);
}

#[test]
fn first_commit_is_new_and_other_hosts_are_ignored_for_wall_times() {
    let flags = compare_latest(&wall_history(&[1.0]));
    assert_eq!(flags[0].verdict, Verdict::New);
    let history = History {
        rows: vec![
            row("a", "fast-host", "wall_s", 0.1),
            row("b", "slow-host", "wall_s", 1.0),
        ],
    };
    let flags = compare_latest(&history);
    assert_eq!(
        flags[0].verdict,
        Verdict::NewBaseline,
        "a different machine is not a baseline"
    );
    assert_eq!(flags[0].note, "host fast-host → slow-host");
}

#[test]
fn a_commit_value_is_its_most_recent_row() {
    let history = History {
        rows: vec![
            row("a", "h", "wall_s", 1.0),
            row("b", "h", "wall_s", 9.0),
            row("b", "h", "wall_s", 1.05),
        ],
    };
    let flags = compare_latest(&history);
    assert_eq!(flags[0].latest, 1.05);
    assert_eq!(flags[0].verdict, Verdict::WithinNoise);
}

#[test]
fn a_long_history_is_compared_per_benchmark() {
    // 300 commits x 100 benchmarks: grouping and commit lookup are hashed,
    // so this takes milliseconds, not minutes.
    let mut rows = Vec::new();
    for c in 0..300 {
        for k in 0..100 {
            let mut r = row(&format!("c{c}"), "h", "wall_s", 1.0);
            r.case = format!("k{k}");
            if k == 7 && c == 299 {
                r.value = 2.0;
            }
            rows.push(r);
        }
    }
    let flags = compare_latest(&History { rows });
    assert_eq!(flags.len(), 100);
    let slower: Vec<&str> = flags
        .iter()
        .filter(|f| f.verdict == Verdict::Slower)
        .map(|f| f.case.as_str())
        .collect();
    assert_eq!(slower, vec!["k7"]);
    assert_eq!(flags[0].previous_commit.as_deref(), Some("c298"));
}

/// Five commits on a quiet machine, then a loaded one.
fn timed_history(latest_wall: f64, latest_cpu: f64) -> History {
    let mut rows = Vec::new();
    for i in 0..5 {
        rows.push(row(&format!("c{i}"), "h", WALL, 1.0 + 0.01 * i as f64));
        rows.push(row(&format!("c{i}"), "h", CPU, 0.9 + 0.01 * i as f64));
    }
    rows.push(row("c5", "h", WALL, latest_wall));
    rows.push(row("c5", "h", CPU, latest_cpu));
    History { rows }
}

fn verdict_of(flags: &[HistoryFlag], metric: &str) -> Verdict {
    flags
        .iter()
        .find(|f| f.metric == metric)
        .map(|f| f.verdict)
        .unwrap()
}

#[test]
fn a_loaded_machine_stretching_wall_time_is_not_a_slowdown() {
    let flags = compare_latest(&timed_history(3.0, 0.93));
    assert_eq!(verdict_of(&flags, CPU), Verdict::WithinNoise);
    assert_eq!(verdict_of(&flags, WALL), Verdict::Informational);
    assert!(flags.iter().all(|f| !f.verdict.is_flag()));
    let wall = flags.iter().find(|f| f.metric == WALL).unwrap();
    assert!(
        wall.baseline.is_some(),
        "the wall-time change is still shown"
    );
}

#[test]
fn a_cpu_time_slowdown_is_flagged() {
    let flags = compare_latest(&timed_history(1.02, 1.5));
    assert_eq!(verdict_of(&flags, CPU), Verdict::Slower);
    assert_eq!(verdict_of(&flags, WALL), Verdict::Informational);
}

#[test]
fn old_rows_without_cpu_time_fall_back_to_wall_time() {
    let mut history = wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]);
    history.rows.push(row("c5", "h", CPU, 1.4));
    let flags = compare_latest(&history);
    assert_eq!(verdict_of(&flags, CPU), Verdict::New);
    assert_eq!(verdict_of(&flags, WALL), Verdict::Slower);
}

#[test]
fn a_read_error_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be cannot be read as one.
    let err = load(dir.path()).unwrap_err();
    assert!(matches!(err, OutputError::Read { .. }), "{err:?}");
    assert!(err.to_string().contains("cannot read"), "{err}");
}

#[test]
fn history_round_trips_through_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = path(dir.path());
    assert!(
        load(&path).unwrap().rows.is_empty(),
        "missing file = empty history"
    );
    let history = History {
        rows: vec![
            row("0123456789abcdef", "h,1", "wall_s", 0.1 + 0.2),
            row("1e5", "h", "lcp_pivots", 7.0),
        ],
    };
    atomic::write_file(&path, &to_csv(&path, &history).unwrap()).unwrap();
    assert_eq!(load(&path).unwrap(), history);
}

#[test]
fn a_file_with_a_wrong_header_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.csv");
    std::fs::write(&path, "commit,value\nabc,1\n").unwrap();
    let err = load(&path).unwrap_err().to_string();
    assert!(err.contains("expected `commit,date,host"), "{err}");
}

/// Rows of an old file: no spread, timing, profile, rustc or cpu.
const V1_FILE: &str = "commit,date,host,suite,study,case,method,metric,value
a,2026-12-02T00:04:16Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.02
b,2026-12-02T00:38:52Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.012
c,2026-12-02T05:03:10Z,vm,all,sdof,dt-0.01,newmark-lcp,cpu_s,0.008
c,2026-12-02T05:03:10Z,vm,all,sdof,dt-0.01,newmark-lcp,steps,100.0
";

#[test]
fn old_rows_load_with_their_timing_method_told_by_date() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.csv");
    std::fs::write(&path, V1_FILE).unwrap();
    let h = load(&path).unwrap();
    let timings: Vec<&str> = h.rows.iter().map(|r| r.timing.as_str()).collect();
    assert_eq!(
        timings,
        [
            TIMING_SINGLE_V0,
            TIMING_FASTEST_V1,
            TIMING_MEDIAN_V2,
            TIMING_MEDIAN_V2
        ]
    );
    assert!(h.rows.iter().all(|r| r.profile == UNKNOWN
        && r.rustc == UNKNOWN
        && r.cpu == UNKNOWN
        && r.spread.is_nan()));
    assert_eq!(h.rows[0].value, 0.02);
    // Three timing methods: three baselines, nothing judged.
    let flags = compare_latest(&h);
    assert_eq!(verdict_of(&flags, CPU), Verdict::NewBaseline);
    assert!(regressions(&h).is_empty());
    assert_eq!(baseline_changes(&h).len(), 2);
}

#[test]
fn the_committed_history_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/history");
    let h = load_recent(&dir, usize::MAX).unwrap();
    assert!(h.rows.len() > 1000, "{} rows", h.rows.len());
    assert!(
        h.rows
            .iter()
            .all(|r| !r.timing.is_empty() && !r.cpu.is_empty() && !r.profile.is_empty())
    );
    // Its oldest rows were single runs.
    assert_eq!(h.rows[0].timing, TIMING_SINGLE_V0);
    let _ = (compare_latest(&h), regressions(&h), counter_changes(&h));
}

#[test]
fn an_old_file_is_rewritten_with_all_columns_and_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.csv");
    std::fs::write(&path, V1_FILE).unwrap();
    let mut h = load(&path).unwrap();
    let mut new = row("d", "h", CPU, 0.5);
    new.spread = 0.01;
    h.rows.push(new);
    atomic::write_file(&path, &to_csv(&path, &h).unwrap()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().next(), Some(COLUMNS.join(",").as_str()));
    let back = load(&path).unwrap();
    assert_eq!(back.rows.len(), h.rows.len());
    assert_eq!(back, h);
    assert_eq!(back.rows[4].spread, 0.01);
}

/// Five quiet commits in one configuration, then `latest` in the
/// configuration `change` makes.
fn changed_config(latest: f64, change: impl Fn(&mut HistoryRow)) -> History {
    let mut rows: Vec<HistoryRow> = (0..5)
        .map(|i| row(&format!("c{i}"), "h", CPU, 1.0 + 0.01 * i as f64))
        .collect();
    let mut last = row("c5", "h", CPU, latest);
    change(&mut last);
    rows.push(last);
    History { rows }
}

#[test]
fn a_timing_method_machine_or_profile_change_starts_a_new_baseline() {
    type Change = fn(&mut HistoryRow);
    let changes: [(&str, Change); 4] = [
        ("timing method", |r| {
            r.timing = "thread-cpu-median-v3".into()
        }),
        ("CPU", |r| r.cpu = "Other CPU (8 logical cores)".into()),
        ("host", |r| r.host = "other".into()),
        ("build profile", |r| r.profile = "debug".into()),
    ];
    for (what, change) in changes {
        // 58 % faster and 100 % slower: neither is flagged across the change.
        for latest in [0.42, 2.0] {
            let h = changed_config(latest, change);
            let flags = compare_latest(&h);
            assert_eq!(flags[0].verdict, Verdict::NewBaseline, "{what}");
            assert!(flags[0].note.starts_with(what), "{}", flags[0].note);
            assert!(flags[0].baseline.is_none());
            assert!(regressions(&h).is_empty(), "{what}");
            assert_eq!(baseline_changes(&h)[0].0, 5);
        }
    }
    // Unchanged configuration: the same 100 % is a regression.
    let h = changed_config(2.0, |_| {});
    assert_eq!(compare_latest(&h)[0].verdict, Verdict::Slower);
    assert!(baseline_changes(&h).is_empty());
    // A new compiler is no new baseline: its slowdown is real.
    let h = changed_config(2.0, |r| r.rustc = "rustc 1.96.0".into());
    assert_eq!(regressions(&h).len(), 1);
}

#[test]
fn a_slowdown_beyond_the_noise_is_a_regression_with_its_size() {
    let mut h = changed_config(1.5, |_| {});
    assert_eq!(latest_regressions(&h).len(), 1);
    // A slowdown that stays is one regression, at its first commit.
    h.rows.push(row("c6", "h", CPU, 1.45));
    let r = regressions(&h);
    assert_eq!(r.len(), 1, "{r:?}");
    let r = &r[0];
    assert_eq!((r.commit.as_str(), r.commit_index), ("c5", 5));
    assert_eq!(r.previous_commit, "c4");
    assert_eq!(r.baseline, 1.02);
    assert!((r.change() - (1.5 / 1.02 - 1.0)).abs() < 1e-12);
    // Band = 20 % of 1.02 (MAD sigma and spreads are smaller).
    assert!((r.threshold - 0.204).abs() < 1e-12, "{}", r.threshold);
    assert!((r.excess() - 0.48 / 0.204).abs() < 1e-9, "{}", r.excess());
    assert!(latest_regressions(&h).is_empty(), "c6 is the latest");
    // One that went away (c6 back within the noise of c5's baseline) is
    // no longer listed.
    h.rows.last_mut().unwrap().value = 1.03;
    assert!(regressions(&h).is_empty());
}

#[test]
fn a_slowdown_within_the_recorded_spread_is_noise() {
    // 30 % slower, but the repeated runs spread by +-0.2 s each.
    let mut h = changed_config(1.32, |r| r.spread = 0.2);
    for r in &mut h.rows {
        r.spread = 0.2;
    }
    let flags = compare_latest(&h);
    assert_eq!(flags[0].verdict, Verdict::WithinNoise);
    assert_eq!(flags[0].threshold, Some(0.4));
    assert!(regressions(&h).is_empty());
    // Without spreads the same 30 % is outside max(20 %, 3 sigma).
    for r in &mut h.rows {
        r.spread = f64::NAN;
    }
    assert_eq!(regressions(&h).len(), 1);
}

#[test]
fn counter_changes_are_listed_and_explain_a_regression() {
    let mut h = changed_config(1.6, |_| {});
    for i in 0..6 {
        let steps = if i == 5 { 160.0 } else { 100.0 };
        h.rows
            .push(row(&format!("c{i}"), "other-host", "steps", steps));
    }
    h.rows.push(row("c6", "h", "steps", 150.0));
    let changes = counter_changes(&h);
    let seen: Vec<(&str, &str, f64, f64)> = changes
        .iter()
        .map(|c| {
            (
                c.previous_commit.as_str(),
                c.commit.as_str(),
                c.previous,
                c.value,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [("c5", "c6", 160.0, 150.0), ("c4", "c5", 100.0, 160.0)]
    );
    // The CPU time's step at c5 comes with a counter change at c5: it is
    // shown as the counter change, not as a regression.
    assert!(regressions(&h).is_empty());
    let cpu = compare_latest(&h)
        .into_iter()
        .find(|f| f.metric == CPU)
        .expect("cpu flag");
    assert_eq!(cpu.verdict, Verdict::WithCounters);
    // Without the counter change the same step is a regression.
    for r in &mut h.rows {
        if r.metric == "steps" && r.commit == "c5" {
            r.value = 100.0;
        }
    }
    assert_eq!(regressions(&h).len(), 1);
}

#[test]
fn wall_time_is_judged_only_where_no_cpu_time_is() {
    // Old rows: wall only, a slowdown at c5 -> a wall regression.
    let mut h = wall_history(&[1.0, 1.02, 0.98, 1.01, 0.99, 1.5]);
    assert_eq!(regressions(&h)[0].metric, WALL);
    // With a judged CPU time at c5 the wall time is not listed.
    for i in 0..6 {
        h.rows.push(row(&format!("c{i}"), "h", CPU, 1.0));
    }
    assert!(regressions(&h).is_empty());
}
