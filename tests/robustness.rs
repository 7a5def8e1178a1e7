//! `PATH --robustness N` end to end on a small study written here: an SDOF
//! gap oscillator (the frequency response of sdof-frc) whose claim ("the
//! steady state's x0 stays below 1 m") is decided by the forcing frequency,
//! an assumption of the study: below about 0.6 rad/s it holds, from 0.6 to
//! 1.2 rad/s (the primary resonance's shoulder) it does not. The robustness table,
//! `holds_in` and the deciding parameter are checked; moving the
//! frequency's range moves `holds_in`; a sharded run takes the same
//! samples; bad assumptions are input errors that name the key.

mod common;

use std::path::Path;
use std::process::Output;

use common::run_in as harness;

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The study with the forcing frequency's range `from`..`to` (nominal
/// `nominal`), the damping ratio's fixed, and `extra` appended.
fn spec(from: f64, to: f64, nominal: f64, extra: &str) -> String {
    format!(
        r#"
[[study]]
name = "sdof-box"
kind = "gap-system"
description = "SDOF gap oscillator for the robustness test."
[study.system]
mass = [[1.0]]
damping = [[0.1]]
stiffness = [[1.0]]
[[study.system.gaps]]
direction = [1.0]
gap = 0.5
stiffness = 4.0
[study.excitation]
amplitude = [1.0]
omega = {nominal}
[study.integrator]
method = "newmark-lcp"
lcp_solver = "lemke"
[study.steady_state]
settle_periods = 60
measure_periods = 2
steps_per_period = 200

[[study.assumption]]
key = "excitation.omega"
unit = "rad/s"
from = {from}
to = {to}
scale = "linear"
source = "the test: below and above the frequency where x0 reaches 0.8 m"

[[study.assumption]]
key = "steady_state.steps_per_period"
unit = "-"
from = 150
to = 300
scale = "log"
source = "the test: a parameter that decides nothing (an integer: each sample rounded)"

[[study.claim]]
id = "x0-below-bound"
seed = "test"
words = "the displacement stays small"
expect = "reproduced"
why = "the test's nominal point is far below resonance"
[[study.claim.criterion]]
quantity = "x0_max"
method = "newmark-lcp"
metric = "value"
comparison = "at-most"
threshold = 1.0
{extra}
"#
    )
}

/// The rows of a CSV as (header, rows of cells).
fn csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let body = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = body.lines();
    let split = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let header = split(lines.next().unwrap());
    (header, lines.map(split).collect())
}

/// holds_in, holds_lo, holds_hi and the sentence of the claim.
fn holds_in(out: &Path) -> (f64, f64, f64, String) {
    let body = std::fs::read_to_string(out.join("claims.csv")).unwrap();
    let mut reader = body.lines();
    let header: Vec<&str> = reader.next().unwrap().split(',').collect();
    let row = reader.next().expect("a claim row");
    // The sentence is the last column and has no comma-free guarantee:
    // read the numbers from the fixed positions before it.
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let cells: Vec<&str> = row.split(',').collect();
    let num = |name: &str| cells[col(name)].parse::<f64>().unwrap();
    (
        num("holds_in"),
        num("holds_lo"),
        num("holds_hi"),
        row.to_string(),
    )
}

fn run(dir: &Path, spec_text: &str, samples: &str, out: &str) -> Output {
    std::fs::write(dir.join("box.toml"), spec_text).unwrap();
    harness(
        dir,
        &[
            "box.toml",
            "--robustness",
            samples,
            "--out",
            out,
            "--report",
            &format!("{out}-report"),
            "--no-kernels",
        ],
    )
}

#[test]
fn holds_in_follows_the_deciding_parameter_and_shards_take_the_same_samples() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    // Across the frequency where x0 crosses 0.8 m: the claim holds on
    // part of the box, decided by omega.
    let o = run(dir, &spec(0.3, 1.0, 0.5, ""), "12", "across");
    assert!(o.status.success(), "{}", text(&o));
    let (header, rows) = csv(&dir.join("across/sdof-box/robustness.csv"));
    assert_eq!(
        header,
        [
            "sample",
            "excitation.omega",
            "steady_state.steps_per_period",
            "x0-below-bound",
            "x0-below-bound measured",
            "failed"
        ]
    );
    assert_eq!(rows.len(), 12);
    // Every job of every sample finished: no failure to report; each
    // sample's claim says what it measured.
    assert!(
        rows.iter().all(|r| r[5].trim_matches('"').is_empty()),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .all(|r| r[4].contains("x0_max") && r[4].contains("measured")),
        "{rows:?}"
    );
    let omegas: Vec<f64> = rows.iter().map(|r| r[1].parse().unwrap()).collect();
    assert!(omegas.iter().all(|w| (0.3..=1.0).contains(w)));
    // One sample in each twelfth of the range (a Latin hypercube); the
    // integer key takes integers.
    let mut slices: Vec<usize> = omegas
        .iter()
        .map(|w| ((w - 0.3) / 0.7 * 12.0) as usize)
        .collect();
    slices.sort_unstable();
    assert_eq!(slices, (0..12).collect::<Vec<_>>());
    for r in &rows {
        let steps: f64 = r[2].parse().unwrap();
        assert!(
            steps.fract() == 0.0 && (150.0..=300.0).contains(&steps),
            "{r:?}"
        );
    }
    let holds: Vec<bool> = rows.iter().map(|r| r[3] == "true").collect();
    assert!(
        holds.iter().any(|&h| h) && holds.iter().any(|&h| !h),
        "{rows:?}"
    );
    let (p, lo, hi, row) = holds_in(&dir.join("across"));
    let k = holds.iter().filter(|&&h| h).count() as f64;
    assert!((p - k / 12.0).abs() < 1e-12);
    assert!(lo < p && p < hi, "{lo} {p} {hi}");
    assert!(
        row.contains("decided by excitation.omega") && row.contains("holds below"),
        "{row}"
    );
    // The report shows it, with the figure.
    let html = std::fs::read_to_string(dir.join("across-report/index.html")).unwrap();
    assert!(html.contains("Over the assumption box: holds in"));
    assert!(html.contains("robustness-x0-below-bound"));

    // The frequency's range moved below the crossing: the claim holds in
    // every sample; moved above it: in none.
    let o = run(dir, &spec(0.3, 0.55, 0.4, ""), "6", "below");
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(holds_in(&dir.join("below")).0, 1.0);
    let o = run(dir, &spec(0.7, 1.2, 0.9, ""), "6", "above");
    // At the nominal frequency the claim fails now: the run says so.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let (p, _, _, row) = holds_in(&dir.join("above"));
    assert_eq!(p, 0.0);
    assert!(row.contains("holds nowhere in the box"), "{row}");

    // The same samples in a sharded run, merged.
    std::fs::write(dir.join("box.toml"), spec(0.3, 1.0, 0.5, "")).unwrap();
    for i in 0..2 {
        let part = format!("part-{i}");
        let o = harness(
            dir,
            &[
                "box.toml",
                "--robustness",
                "12",
                "--shard",
                &format!("{i}/2"),
                "--out",
                &part,
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = harness(
        dir,
        &[
            "merge",
            "part-0",
            "part-1",
            "--out",
            "merged",
            "--report",
            "merged-report",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        csv(&dir.join("merged/sdof-box/robustness.csv")),
        csv(&dir.join("across/sdof-box/robustness.csv"))
    );
}

#[test]
fn a_run_without_robustness_has_no_table_and_no_holds_in() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("box.toml"), spec(0.3, 1.0, 0.5, "")).unwrap();
    let o = harness(
        t.path(),
        &["box.toml", "--out", "o", "--report", "r", "--no-kernels"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(!t.path().join("o/sdof-box/robustness.csv").exists());
    let body = std::fs::read_to_string(t.path().join("o/claims.csv")).unwrap();
    let row = body.lines().nth(1).unwrap();
    // holds_in, holds_lo, holds_hi and robustness are empty.
    assert!(row.ends_with(",,,,\"\""), "{row}");
}

#[test]
fn bad_assumptions_are_input_errors_naming_the_key() {
    let t = tempfile::tempdir().unwrap();
    let cases = [
        (spec(0.6, 1.0, 0.5, ""), "study.assumption[0].key", "inside the plausible range"),
        (spec(1.0, 0.3, 0.5, ""), "study.assumption[0].to", "from < to"),
        (
            spec(0.3, 1.0, 0.5, "").replace("source = \"the test: a parameter that decides nothing (an integer: each sample rounded)\"", "source = \" \""),
            "study.assumption[1].source",
            "why this range",
        ),
        (
            spec(0.3, 1.0, 0.5, "").replace("key = \"steady_state.steps_per_period\"", "key = \"integrator.nothing\""),
            "study.assumption[1].key",
            "sets to a number",
        ),
        (
            spec(0.3, 1.0, 0.5, "").replace("unit = \"rad/s\"", "unit = \"\""),
            "study.assumption[0].unit",
            "the value's unit",
        ),
        (
            spec(0.3, 1.0, 0.5, "").replace("unit = \"rad/s\"", "unit = \"rad/s\"\nalso = [\"steady_state.settle_periods\"]"),
            "study.assumption[0].also[0]",
            "same number",
        ),
        (
            spec(0.3, 1.0, 0.5, "[[study.sweep]]\nkey = \"excitation.omega\"\nvalues = [0.4, 0.5]\n"),
            "study.assumption[0].key",
            "no sweep of the study sweeps",
        ),
    ];
    for (text_of_spec, key, expected) in cases {
        std::fs::write(t.path().join("box.toml"), &text_of_spec).unwrap();
        let o = harness(t.path(), &["box.toml", "--out", "o", "--no-kernels"]);
        let said = text(&o);
        assert_eq!(o.status.code(), Some(2), "{key}: {said}");
        assert!(
            said.contains("box.toml") && said.contains(key) && said.contains(expected),
            "{said}"
        );
    }
    let o = harness(t.path(), &["box.toml", "--robustness", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// A robustness run saved at `OUT/robustness` is shown by a plain run
/// into `OUT`: each claim's holds_in and sentence from the saved
/// claims.csv, its figure drawn from the saved samples (with the spec's
/// unit and nominal point), the saved run's commit; an edited saved value
/// shows edited (it is read, not recomputed); a newer saved run of the
/// study (`OUT/robustness-<name>`) supersedes it; without a saved run
/// there is no section; a damaged one is named on stderr and left out.
#[test]
fn a_saved_robustness_run_is_shown_by_the_plain_runs_report() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    std::fs::write(dir.join("box.toml"), spec(0.3, 1.0, 0.5, "")).unwrap();
    let plain = |out: &str, report: &str| {
        let o = harness(
            dir,
            &["box.toml", "--out", out, "--report", report, "--no-kernels"],
        );
        assert!(o.status.success(), "{}", text(&o));
        let md = std::fs::read_to_string(dir.join(report).join("README.md")).unwrap();
        (md, text(&o))
    };
    // Without a saved run: no section.
    let (md, _) = plain("o", "r");
    assert!(!md.contains("Robustness over the unknowns"), "{md}");

    let o = harness(
        dir,
        &[
            "box.toml",
            "--robustness",
            "6",
            "--out",
            "o/robustness",
            "--report",
            "r/robustness",
            "--no-kernels",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let (_, _, _, row) = holds_in(&dir.join("o/robustness"));
    let (md, _) = plain("o", "r");
    assert!(md.contains("## Robustness over the unknowns"), "{md}");
    assert!(md.contains("sdof-box 6"), "{md}");
    let sentence = row[row.find("holds in ").expect(&row)..].trim_matches('"');
    // The table gives the fraction in its own column, then the rest of
    // the sentence.
    let tail = &sentence[sentence.find(" %) of ").expect(sentence) + 7..];
    assert!(md.contains(tail), "{tail}\n{md}");
    // The figure is drawn again from the saved samples, with the spec's
    // units and nominal point.
    let figure = dir.join("r/figures/saved-sdof-box-robustness-x0-below-bound.svg");
    assert!(
        md.contains("figures/saved-sdof-box-robustness-x0-below-bound.svg"),
        "{md}"
    );
    let svg = std::fs::read_to_string(&figure).unwrap();
    assert!(svg.contains("excitation.omega [rad/s]"), "{svg}");
    assert!(svg.contains("nominal"), "{svg}");
    // The saved table is what the report shows.
    let claims = dir.join("o/robustness/claims.csv");
    let body = std::fs::read_to_string(&claims).unwrap();
    std::fs::write(&claims, body.replace(sentence, "holds in 12 % (edited)")).unwrap();
    let (md, _) = plain("o", "r");
    assert!(md.contains("holds in 12 % (edited)"), "{md}");
    // A newer saved run of the study supersedes the older one.
    let o = harness(
        dir,
        &[
            "box.toml",
            "--robustness",
            "4",
            "--out",
            "o/robustness-again",
            "--report",
            "r2",
            "--no-kernels",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let (md, _) = plain("o", "r");
    assert!(
        md.contains("sdof-box 4") && !md.contains("sdof-box 6"),
        "{md}"
    );
    assert!(!md.contains("holds in 12 % (edited)"), "{md}");
    std::fs::remove_dir_all(dir.join("o/robustness-again")).unwrap();
    // A damaged saved run: named, and the section left out.
    std::fs::write(dir.join("o/robustness/manifest.json"), "{ not json").unwrap();
    let (md, stderr) = plain("o", "r");
    assert!(!md.contains("## Robustness over the unknowns"), "{md}");
    assert!(stderr.contains("manifest.json"), "{stderr}");
}
