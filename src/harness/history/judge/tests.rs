//! Tests of the judgement of costs, calibrated CPU times and method changes.

use super::*;
use crate::harness::history::*;

fn row(commit: &str, case: &str, metric: &str, value: f64) -> HistoryRow {
    HistoryRow {
        commit: commit.into(),
        date: "2026-12-03T00:00:00Z".into(),
        host: "h".into(),
        suite: "all".into(),
        study: "s".into(),
        case: case.into(),
        method: "m".into(),
        metric: metric.into(),
        value,
        spread: f64::NAN,
        timing: TIMING_METHOD.into(),
        profile: "release".into(),
        rustc: "rustc 1.95.0".into(),
        cpu: "Test CPU (2 logical cores)".into(),
    }
}

fn calibration(commit: &str, cpu_s: f64) -> HistoryRow {
    let mut r = row(commit, CALIBRATION.1, CPU, cpu_s);
    r.study = CALIBRATION.0.into();
    r.method = CALIBRATION.2.into();
    r.spread = 0.0;
    r
}

fn verdict(h: &History, case: &str, metric: &str) -> Verdict {
    compare_latest(h)
        .into_iter()
        .find(|f| f.case == case && f.metric == metric)
        .map(|f| f.verdict)
        .expect("flag")
}

#[test]
fn a_cost_is_judged_against_the_previous_commit_with_a_one_percent_band() {
    for (latest, expected) in [
        (1_000_000.0, Verdict::WithinNoise),
        (1_009_000.0, Verdict::WithinNoise),
        (1_011_000.0, Verdict::Slower),
        (989_000.0, Verdict::Faster),
    ] {
        let h = History {
            rows: vec![
                row("a", "k", INSTRUCTIONS, 1e6),
                row("b", "k", INSTRUCTIONS, latest),
            ],
        };
        assert_eq!(verdict(&h, "k", INSTRUCTIONS), expected, "{latest}");
        let r = regressions(&h);
        assert_eq!(r.len(), (expected == Verdict::Slower) as usize);
    }
    // A slowdown of 5 % is a regression at its commit, listed while present.
    let mut h = History {
        rows: vec![
            row("a", "k", INSTRUCTIONS, 1e6),
            row("b", "k", INSTRUCTIONS, 1.05e6),
            row("c", "k", INSTRUCTIONS, 1.05e6),
        ],
    };
    let r = regressions(&h);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(
        (r[0].commit.as_str(), r[0].previous_commit.as_str()),
        ("b", "a")
    );
    assert!((r[0].change() - 0.05).abs() < 1e-12);
    assert!((r[0].band_relative() - 0.01).abs() < 1e-12);
    assert_eq!(verdict(&h, "k", INSTRUCTIONS), Verdict::WithinNoise);
    // Undone at c: no longer listed.
    h.rows[2].value = 1e6;
    assert!(regressions(&h).is_empty());
}

#[test]
fn a_change_with_its_counters_is_a_counter_change_not_a_slowdown() {
    let h = History {
        rows: vec![
            row("a", "k", INSTRUCTIONS, 1e6),
            row("a", "k", "lcp_pivots", 100.0),
            row("a", "k", CPU, 1.0),
            row("b", "k", INSTRUCTIONS, 2e6),
            row("b", "k", "lcp_pivots", 200.0),
            row("b", "k", CPU, 2.0),
        ],
    };
    assert_eq!(verdict(&h, "k", INSTRUCTIONS), Verdict::WithCounters);
    assert_eq!(verdict(&h, "k", CPU), Verdict::WithCounters);
    assert_eq!(verdict(&h, "k", "lcp_pivots"), Verdict::Changed);
    assert!(regressions(&h).is_empty());
    assert_eq!(counter_changes(&h).len(), 1);
    // The same slowdown without the counter change is a regression.
    let mut h = h;
    h.rows[4].value = 100.0;
    // (both the instructions and the uncalibrated CPU time doubled).
    let r = regressions(&h);
    let mut metrics: Vec<&str> = r.iter().map(|r| r.metric.as_str()).collect();
    metrics.sort_unstable();
    assert_eq!(metrics, [CPU, INSTRUCTIONS], "{r:?}");
}

/// After a method change (counters and time doubled at c2), the later
/// commits' times are judged against the commits since the change: the
/// unchanged code of c3 and c4 flags nothing (before, c3 was judged
/// against c0..c2 and flagged +100 %, confirmed by c4).
#[test]
fn the_window_restarts_at_a_method_change() {
    let mut rows = Vec::new();
    for c in 0..5 {
        let commit = format!("c{c}");
        rows.push(calibration(&commit, 0.01));
        let changed = c >= 2;
        rows.push(row(
            &commit,
            "k",
            "steps",
            if changed { 200.0 } else { 100.0 },
        ));
        rows.push(row(&commit, "k", CPU, if changed { 2.0 } else { 1.0 }));
    }
    let h = History { rows };
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    assert_eq!(counter_changes(&h).len(), 1);
    // Without the counter change the same step is a (confirmed) regression.
    let mut h = h;
    for r in h.rows.iter_mut().filter(|r| r.metric == "steps") {
        r.value = 100.0;
    }
    let r = regressions(&h);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].commit, "c2");
}

/// `n` commits; CPU time of benchmark `k<j>` at commit `c` is
/// `cal * (1 + noise(c, j))` with calibration time `cal(c)`.
fn calibrated_history(
    n: usize,
    benchmarks: usize,
    cal: impl Fn(usize) -> f64,
    time: impl Fn(usize, usize) -> f64,
) -> History {
    let mut rows = Vec::new();
    for c in 0..n {
        let commit = format!("c{c}");
        rows.push(calibration(&commit, cal(c)));
        for j in 0..benchmarks {
            rows.push(row(&commit, &format!("k{j}"), CPU, time(c, j)));
        }
    }
    History { rows }
}

#[test]
fn cpu_times_are_judged_in_units_of_the_calibration() {
    // The machine is 8 % slower at c2 (within MACHINE_CHANGE): every time
    // and the calibration are 8 % longer.
    let h = calibrated_history(
        3,
        3,
        |c| if c == 2 { 0.0108 } else { 0.01 },
        |c, _| if c == 2 { 1.08 } else { 1.0 },
    );
    let flags = compare_latest(&h);
    let k0 = flags.iter().find(|f| f.case == "k0").unwrap();
    assert_eq!(k0.verdict, Verdict::WithinNoise);
    assert_eq!(k0.latest, 1.08);
    assert!((k0.judged - 100.0).abs() < 1e-9, "{}", k0.judged);
    assert!(regressions(&h).is_empty());
    let cal = flags.iter().find(|f| f.case == CALIBRATION.1).unwrap();
    assert_eq!(cal.verdict, Verdict::Informational);
}

#[test]
fn the_cpu_band_is_the_measured_noise_of_unchanged_code() {
    // 200 benchmarks whose times wander by up to +-5 % (deterministically).
    let wobble = |c: usize, j: usize| 1.0 + 0.05 * (((c * 7 + j * 13) % 11) as f64 / 5.0 - 1.0);
    let h = calibrated_history(4, 200, |_| 0.01, wobble);
    let ctx = Context::new(&h);
    let config = h.rows[0].config();
    // Before c2 no pair is known: the unknown noise.
    assert_eq!(ctx.noise_before(&config, 1), (CPU_UNKNOWN_NOISE, 0));
    let (q, samples) = ctx.noise_before(&config, 3);
    assert_eq!(samples, 400);
    assert!(q > 0.02 && q < 0.12, "{q}");
    assert!(regressions(&h).is_empty());
    // A 50 % slowdown of one benchmark at c3 is unconfirmed at first...
    let mut slow = h.clone();
    for r in &mut slow.rows {
        if r.commit == "c3" && r.case == "k7" {
            r.value *= 1.5;
        }
    }
    assert_eq!(verdict(&slow, "k7", CPU), Verdict::Unconfirmed);
    assert!(regressions(&slow).is_empty());
    // ... and a regression at c3 once c4 confirms it.
    let mut next: Vec<HistoryRow> = slow
        .rows
        .iter()
        .filter(|r| r.commit == "c3")
        .cloned()
        .collect();
    for r in &mut next {
        r.commit = "c4".into();
    }
    slow.rows.extend(next);
    let r = regressions(&slow);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].case.as_str(), r[0].commit.as_str()), ("k7", "c3"));
    assert!(r[0].calibrated);
}

#[test]
fn quantiles_by_nearest_rank() {
    let v: Vec<f64> = (1..=100).map(f64::from).collect();
    assert_eq!(quantile(&v, 0.99), 99.0);
    assert_eq!(quantile(&v, 1.0), 100.0);
    assert_eq!(quantile(&[3.0], 0.5), 3.0);
    assert!(quantile(&[], 0.5).is_nan());
}

#[test]
fn a_step_in_a_superseded_baseline_is_not_listed() {
    let mut h = History {
        rows: vec![
            row("a", "k", INSTRUCTIONS, 1e6),
            row("b", "k", INSTRUCTIONS, 1.05e6),
        ],
    };
    assert_eq!(regressions(&h).len(), 1);
    // The next commit is measured with another Valgrind: a new baseline.
    let mut next = row("c", "k", INSTRUCTIONS, 1.05e6);
    next.timing = "callgrind-3.24.0".into();
    h.rows.push(next);
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    assert_eq!(verdict(&h, "k", INSTRUCTIONS), Verdict::NewBaseline);
}

#[test]
fn a_retired_benchmark_is_not_listed() {
    let mut h = History {
        rows: vec![
            row("a", "k", INSTRUCTIONS, 1e6),
            row("b", "k", INSTRUCTIONS, 1.05e6),
            row("b", "other", INSTRUCTIONS, 1e6),
        ],
    };
    assert_eq!(regressions(&h).len(), 1);
    // The next run no longer has "k" (its case was renamed): its step can
    // be neither confirmed nor undone.
    h.rows.push(row("c", "other", INSTRUCTIONS, 1e6));
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    // While it still runs, the step stays listed.
    h.rows.push(row("c", "k", INSTRUCTIONS, 1.05e6));
    assert_eq!(regressions(&h).len(), 1);
}

fn others_share(commit: &str, share: f64) -> HistoryRow {
    let mut r = calibration(commit, 0.0);
    r.metric = OTHERS_SHARE.into();
    r.value = share;
    r.spread = f64::NAN;
    r
}

/// Two shared runs in a row (others took 60 % of the CPU) slow one
/// memory-bound benchmark by 80 % in calibration units, as the dense Lemke
/// chain does under a concurrent build: not judged, not a baseline, not a
/// confirmation. At 5 % others' share the same step is a regression.
#[test]
fn the_cpu_times_of_a_shared_run_are_not_judged() {
    let slow = |c: usize, j: usize| {
        if j == 0 && (c == 4 || c == 5) {
            1.8
        } else {
            1.0
        }
    };
    let shared_history = |share: f64| {
        let mut h = calibrated_history(7, 3, |_| 0.01, slow);
        for c in [4, 5] {
            h.rows.push(others_share(&format!("c{c}"), share));
        }
        h
    };
    let h = shared_history(0.6);
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    let flags: Vec<HistoryFlag> = compare_latest(&h);
    assert!(
        flags.iter().all(|f| f.verdict != Verdict::Slower),
        "{flags:?}"
    );
    // At c5 (latest of a shortened history) the verdict says why.
    let mut at5 = h.clone();
    at5.rows.retain(|r| r.commit != "c6");
    assert_eq!(verdict(&at5, "k0", CPU), Verdict::Shared);
    assert_eq!(
        verdict(&at5, CALIBRATION.1, OTHERS_SHARE),
        Verdict::Informational
    );
    assert_eq!(latest_shared_run(&at5), Some(0.6));
    assert_eq!(latest_shared_run(&h), None);
    // The quiet c6 is judged against the quiet c0..c3, not the shared runs.
    let k0 = flags
        .iter()
        .find(|f| f.case == "k0" && f.metric == CPU)
        .unwrap();
    assert_eq!(
        (k0.verdict, k0.baseline),
        (Verdict::WithinNoise, Some(100.0))
    );
    // The same step in quiet runs is a confirmed regression at c4 (listed
    // while it lasts: up to c5).
    let mut h = shared_history(0.05);
    h.rows.retain(|r| r.commit != "c6");
    let r = regressions(&h);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].case.as_str(), r[0].commit.as_str()), ("k0", "c4"));
}

/// The CPU-time series of one case in a judged history.
fn cpu_series<'h>(ctx: &Context<'h>, case: &str) -> Vec<(usize, &'h HistoryRow)> {
    ctx.series
        .iter()
        .find(|s| s[0].1.case == case && s[0].1.metric == CPU)
        .unwrap()
        .clone()
}

/// The machine changes under the same name at c3 (the calibration kernel
/// 20 % faster, a memory-bound benchmark k0 2x slower in seconds, as on
/// 4 Dec 2026): the times start a new machine epoch, judged against c3 on,
/// not a regression. The same 2x step without a calibration shift is one,
/// and a calibration shift in a shared run starts no epoch.
#[test]
fn a_machine_change_told_by_the_calibration_starts_a_new_epoch() {
    let cal = |c: usize| if c >= 3 { 0.008 } else { 0.01 };
    let time = |c: usize, j: usize| match (j, c >= 3) {
        (0, true) => 2.0,
        (_, true) => 0.8,
        _ => 1.0,
    };
    let h = calibrated_history(6, 3, cal, time);
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    let ctx = Context::new(&h);
    let config = h.rows[0].config();
    assert_eq!(
        (0..6).map(|c| ctx.epoch(c, &config)).collect::<Vec<_>>(),
        [0, 0, 0, 1, 1, 1]
    );
    let note = "machine changed: calibration kernel 10.000 ms → 8.000 ms (-20 %)";
    assert_eq!(baseline_changes(&h), [(3, note.to_string())]);
    let k0 = cpu_series(&ctx, "k0");
    let at3 = ctx.judge(&k0, 3);
    assert_eq!(
        (at3.verdict, at3.note.as_str()),
        (Verdict::NewBaseline, note)
    );
    assert_eq!(ctx.judge(&k0, 5).verdict, Verdict::WithinNoise);
    assert_eq!(ctx.judge(&k0, 5).baseline, Some(250.0));
    // The noise of unchanged code takes no pair across the change.
    let (_, samples) = ctx.noise_before(&config, 6);
    assert_eq!(samples, 3 * 2 + 3 * 2, "pairs c0-c1, c1-c2, c3-c4, c4-c5");

    // The same step with the calibration unchanged is a regression at c3.
    let real = calibrated_history(6, 3, |_| 0.01, time);
    let r = regressions(&real);
    assert!(
        r.iter().any(|r| r.case == "k0" && r.commit == "c3"),
        "{r:?}"
    );
    assert!(baseline_changes(&real).is_empty());

    // A calibration shift in shared runs (c3, c4) starts no epoch.
    let mut shared = calibrated_history(
        6,
        3,
        |c| if c == 3 || c == 4 { 0.008 } else { 0.01 },
        |_, _| 1.0,
    );
    for c in [3, 4] {
        shared.rows.push(others_share(&format!("c{c}"), 0.6));
    }
    let ctx = Context::new(&shared);
    assert!((0..6).all(|c| ctx.epoch(c, &config) == 0));
}

/// One run's calibration kernel 70 % slower between steady runs (as on
/// 6 Dec 2026, with no other process on the machine): an unsteady run,
/// not a machine change. Its CPU times, a memory-bound k0 2x slower in
/// calibration units among them, are not judged and serve as no baseline,
/// noise sample or confirmation; no epoch starts, before or after it. The
/// same shift at the latest commit is unsteady until a next run confirms it.
#[test]
fn a_calibration_shift_the_next_run_does_not_confirm_is_an_unsteady_run() {
    let cal = |c: usize| if c == 3 { 0.017 } else { 0.01 };
    let time = |c: usize, j: usize| match (j, c == 3) {
        (0, true) => 3.4,
        (_, true) => 1.7,
        _ => 1.0,
    };
    let h = calibrated_history(6, 3, cal, time);
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    assert!(
        baseline_changes(&h).is_empty(),
        "{:?}",
        baseline_changes(&h)
    );
    let ctx = Context::new(&h);
    let config = h.rows[0].config();
    assert!((0..6).all(|c| ctx.epoch(c, &config) == 0));
    let k0 = cpu_series(&ctx, "k0");
    let at3 = ctx.judge(&k0, 3);
    assert_eq!(at3.verdict, Verdict::Unsteady);
    assert_eq!(
        at3.note,
        "machine speed unsteady: calibration kernel 10.000 ms → 17.000 ms (+70 %), not confirmed by the next run (10.000 ms)"
    );
    // c4 is judged against c0..c2 (not c3) and is within noise.
    let at4 = ctx.judge(&k0, 4);
    assert_eq!(at4.verdict, Verdict::WithinNoise);
    assert_eq!(at4.baseline, Some(100.0));
    // No noise pair touches c3: c0-c1, c1-c2, c2-c4 (the steady runs on
    // either side) and c4-c5 of three benchmarks.
    assert_eq!(ctx.noise_before(&config, 6).1, 3 * 4);

    // The same shift at the latest commit: unsteady, not yet confirmed.
    let last = calibrated_history(4, 3, cal, time);
    assert_eq!(verdict(&last, "k0", CPU), Verdict::Unsteady);
    let ctx = Context::new(&last);
    assert_eq!(
        ctx.unsteady_run(3),
        Some(
            "machine speed unsteady: calibration kernel 10.000 ms → 17.000 ms (+70 %), not yet confirmed by a next run"
        )
    );
    assert!(regressions(&last).is_empty());
    // Confirmed by the next run (c4 at the same level): a machine change at c3.
    let confirmed = calibrated_history(5, 3, |c| if c >= 3 { 0.017 } else { 0.01 }, |_, _| 1.0);
    let ctx = Context::new(&confirmed);
    assert_eq!(ctx.epoch(3, &config), 1);
    assert!(ctx.unsteady_run(3).is_none());
    // Not by a next run still off but at another level (1.7, then 1.2 as on
    // 6 Dec 2026): both unsteady while no steady level is known.
    let wandering = calibrated_history(
        5,
        3,
        |c| match c {
            3 => 0.017,
            4 => 0.012,
            _ => 0.01,
        },
        |_, _| 1.0,
    );
    let ctx = Context::new(&wandering);
    assert!((0..5).all(|c| ctx.epoch(c, &config) == 0));
    assert!(ctx.unsteady_run(3).is_some() && ctx.unsteady_run(4).is_some());
}

/// A shared run (others took 60 % of the CPU) stretches the wall times 3x:
/// with its CPU times not judged, its wall times are not judged either
/// (before, they fell back to being judged like old CPU times and 261
/// wall times of one shared run were listed as regressions).
#[test]
fn the_wall_times_of_a_shared_run_are_not_judged() {
    let mut h = calibrated_history(7, 2, |_| 0.01, |_, _| 1.0);
    for c in 0..7 {
        let wall = if c >= 5 { 3.0 } else { 1.0 };
        for j in 0..2 {
            h.rows
                .push(row(&format!("c{c}"), &format!("k{j}"), WALL, wall));
        }
    }
    for c in [5, 6] {
        h.rows.push(others_share(&format!("c{c}"), 0.6));
    }
    assert!(regressions(&h).is_empty(), "{:?}", regressions(&h));
    let flags = compare_latest(&h);
    let wall = flags
        .iter()
        .find(|f| f.case == "k0" && f.metric == WALL)
        .unwrap();
    assert_eq!(wall.verdict, Verdict::Shared);
    // In quiet runs the same CPU times make the wall times informational.
    let mut quiet = h.clone();
    quiet.rows.retain(|r| r.metric != OTHERS_SHARE);
    let flags = compare_latest(&quiet);
    let wall = flags
        .iter()
        .find(|f| f.case == "k0" && f.metric == WALL)
        .unwrap();
    assert_eq!(wall.verdict, Verdict::Informational);
    assert!(regressions(&quiet).is_empty());
}
