//! Report, history and figures written from the hand-made run of
//! tests/common/outputs_fixture.rs.

use std::fs;

use contact_harness::harness::figure::{Axis, Figure, Series, Style};
use contact_harness::harness::history::{self, Verdict};
use contact_harness::harness::plot::render_svg;
use contact_harness::harness::report::write_report;

#[path = "common/outputs_fixture.rs"]
mod fixture;
use fixture::*;

#[test]
fn the_report_shows_failures_figures_timings_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let report = dir.path().join("report");
    let history_dir = history::dir(&out);
    history::record(
        &history_dir,
        &run(
            &[("dt-0.01", 0.01), ("dt-0.005", 0.005)],
            118.0,
            "aaaaaaaaaaaa1",
        ),
    )
    .unwrap();
    let history = history::record(&history_dir, &standard_run()).unwrap();
    // A stale figure of an earlier report must disappear.
    fs::create_dir_all(report.join("figures")).unwrap();
    fs::write(report.join("figures/removed-study-x.svg"), "<svg/>").unwrap();

    write_report(&report, &standard_run(), &history).unwrap();
    let html = read(&report.join("index.html"));
    let md = read(&report.join("README.md"));
    assert!(!report.join("figures/removed-study-x.svg").exists());

    // Header and overall status.
    assert!(
        html.contains("2 of 4 checks FAILED (2 of 5 rows)"),
        "status missing"
    );
    assert!(md.contains("**2 of 4 checks FAILED (2 of 5 rows)**"));
    assert!(md.contains("`cargo run -- experiments/all`"));

    // Failed checks: red rows in HTML, FAIL in markdown, never hidden.
    let fail_rows: Vec<&str> = html
        .lines()
        .filter(|l| l.starts_with("<tr class=\"fail\">"))
        .collect();
    assert!(
        fail_rows.iter().any(|l| l.contains("<code>order</code>")),
        "order check not red"
    );
    assert!(
        fail_rows
            .iter()
            .any(|l| l.contains("<code>solver</code>") && l.contains("k-2"))
    );
    assert!(
        !fail_rows
            .iter()
            .any(|l| l.contains("<code>x-vs-exact</code>")),
        "a passing check is red"
    );
    // Each failing row twice: open above the fold, and in the folded table
    // of every check.
    let md_fail: Vec<&str> = md.lines().filter(|l| l.contains("| **FAIL** |")).collect();
    assert_eq!(md_fail.len(), 4, "{md_fail:?}");
    let open_fail = md.find("| **FAIL** |").unwrap();
    let fold = md.find("Every check: case, method").unwrap();
    assert!(
        open_fail < fold,
        "the failing rows are not shown above the fold"
    );

    // The solver error of the failed case.
    assert!(html.contains("1 method run(s) or reference(s) failed"));
    assert!(html.contains("LCP solver `pgs` returned failed at step 17"));

    // Figures: every image exists and is SVG; captions are shown.
    let srcs: Vec<&str> = html
        .split("<img src=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert!(
        srcs.contains(&"figures/alpha-response.svg")
            && srcs.contains(&"figures/alpha-convergence.svg")
    );
    assert!(srcs.contains(&"figures/history/summary.svg"));
    for src in &srcs {
        assert!(read(&report.join(src)).contains("<svg"), "{src}");
        assert!(md.contains(&format!("]({src})")), "markdown misses {src}");
    }
    assert!(html.contains("Regenerates Fig. 3 of the paper."));

    // Timings with wall and CPU time, CPU per step, speedup, counters, stats.
    for th in [
        "wall time",
        "CPU time",
        "CPU per step",
        "speedup",
        "lcp_pivots",
        "mean_active",
    ] {
        assert!(html.contains(&format!("<th>{th}</th>")), "no column {th}");
    }
    assert!(html.contains("1.21 µs"), "12.1 ms of CPU / 10000 steps");
    assert!(html.contains(">0.198</td>"), "the stat is shown");
    // The performance history's summary figure (CPU time per family).
    let history_svg = read(&report.join("figures/history/summary.svg"));
    assert!(history_svg.contains("Performance over commits"));

    // Performance history: the changed pivot count is flagged (counter
    // changes and the folded per-benchmark detail of alpha).
    assert!(html.contains("alpha: "));
    let flagged: Vec<&str> = html
        .lines()
        .filter(|l| l.starts_with("<tr class=\"flag\">"))
        .collect();
    assert!(
        flagged
            .iter()
            .any(|l| l.contains("lcp_pivots") && l.contains("→")),
        "{flagged:?}"
    );
    assert!(
        html.contains("aaaaaaaaaa") && !html.contains("aaaaaaaaaaaa1"),
        "commits shown with 10 chars"
    );

    // Footer.
    for s in [
        "0123456789",
        "rustc 1.95.0 (test)",
        "Test CPU (2 logical cores)",
        "test-host",
        "2026-12-01T10:00:00Z",
    ] {
        assert!(html.contains(s) && md.contains(s), "footer misses {s}");
    }
}

#[test]
fn history_appends_only_recorded_runs_and_flags_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = history::path(dir.path());
    let store = history::dir(dir.path());
    let mut quick = standard_run();
    quick.record_history = false;
    assert!(history::record(&store, &quick).unwrap().rows.is_empty());
    assert!(!store.exists(), "an unrecorded run writes nothing");

    history::record(&store, &run(&[("dt-0.01", 0.01)], 120.0, "c1")).unwrap();
    let h = history::record(&store, &run(&[("dt-0.01", 0.01)], 125.0, "c2")).unwrap();
    assert_eq!(h, history::load(&path).unwrap());
    assert_eq!(h, history::load_recent(&store, 2).unwrap());
    assert_eq!(history::load_index(&store).unwrap().unwrap().len(), 2);
    assert_eq!(h.commits(), vec!["c1", "c2"]);
    // Per run and case: newmark-lcp wall_s, cpu_s, steps, lcp_pivots;
    // event-driven wall_s, cpu_s, events; never the stats. Cases: alpha
    // dt-0.01 and beta k-1; in beta k-2 the method failed, its reference ran.
    assert_eq!(h.rows.len(), 2 * (7 + 7 + 3));
    assert!(
        h.rows.iter().all(|r| r.metric != "mean_active"),
        "a stat was recorded"
    );
    assert_eq!(h.rows.iter().filter(|r| r.metric == "cpu_s").count(), 2 * 5);
    assert_eq!(
        read(&path).lines().next(),
        Some(history::COLUMNS.join(",").as_str())
    );
    let flags = history::compare_latest(&h);
    let pivots = flags
        .iter()
        .find(|f| f.study == "alpha" && f.metric == "lcp_pivots")
        .unwrap();
    assert_eq!(pivots.verdict, Verdict::Changed);
    let steps = flags
        .iter()
        .find(|f| f.study == "alpha" && f.metric == "steps")
        .unwrap();
    assert_eq!(steps.verdict, Verdict::Unchanged);
    let cpu = flags
        .iter()
        .find(|f| f.study == "alpha" && f.metric == "cpu_s")
        .unwrap();
    assert_eq!(cpu.verdict, Verdict::WithinNoise);
    let wall = flags
        .iter()
        .find(|f| f.study == "alpha" && f.metric == "wall_s")
        .unwrap();
    assert_eq!(wall.verdict, Verdict::Informational, "cpu_s is judged");
}

#[test]
fn figures_render_with_log_axes_dashes_markers_and_bad_values() {
    let dir = tempfile::tempdir().unwrap();
    for figure in figures() {
        let path = dir.path().join(format!("{}.svg", figure.name));
        render_svg(&figure, &path).unwrap();
        let svg = read(&path);
        assert!(svg.starts_with("<svg"));
        for text in [&figure.title, &figure.x.label, &figure.y.label] {
            assert!(svg.contains(text.as_str()), "{} misses {text}", figure.name);
        }
        for s in &figure.series {
            assert!(svg.contains(s.label.as_str()), "legend misses {}", s.label);
        }
    }
    let log = read(&dir.path().join("convergence.svg"));
    assert!(log.contains("10⁻⁵"), "log ticks are powers of ten");
    assert!(log.contains("<circle"), "markers drawn");
    let lin = read(&dir.path().join("response.svg"));
    // A method and its reference share one colour group.
    assert!(
        lin.contains("#0072B2") && !lin.contains("#D55E00"),
        "grouped series differ in colour"
    );
    assert!(
        lin.contains("stroke-dasharray=\"8 5\""),
        "a dashed series is drawn dashed"
    );
    // Curves at sub-pixel resolution: polyline points with fractions.
    let points = lin
        .split("points=\"")
        .skip(1)
        .flat_map(|p| p.split('"').next().unwrap_or("").split([' ', ',']))
        .filter(|v| !v.is_empty())
        .collect::<Vec<_>>();
    assert!(
        points
            .iter()
            .any(|v| v.contains('.') && !v.ends_with(".00")),
        "polyline coordinates are not rounded to whole pixels: {:?}",
        &points[..points.len().min(8)]
    );
}

#[test]
fn a_long_series_gives_a_small_svg() {
    let n = 200_000;
    let t: Vec<f64> = (0..n).map(|i| i as f64 * 1e-3).collect();
    let x: Vec<f64> = t
        .iter()
        .map(|t| (7.0 * t).sin() + 0.1 * (300.0 * t).sin())
        .collect();
    let figure = Figure {
        name: "long".into(),
        title: "Long series".into(),
        x: Axis::linear("time t [s]"),
        y: Axis::linear("x [m]"),
        series: vec![
            Series::new("x", &t, &x, Style::Line),
            Series::new("x (ref)", &t, &x, Style::Dashed),
        ],
        caption: String::new(),
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.svg");
    render_svg(&figure, &path).unwrap();
    let size = fs::metadata(&path).unwrap().len();
    assert!(size < 1_000_000, "SVG is {size} bytes");
}
