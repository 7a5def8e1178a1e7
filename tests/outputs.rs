//! Result files written from a hand-made run: two studies, one with a
//! failed case and a failed check (the run: tests/common/outputs_fixture.rs).

use std::fs;
use std::path::PathBuf;

use contact_harness::harness::history::{self};
use contact_harness::harness::outcome::{RunResult, StudyResult};
use contact_harness::harness::report::write_report;
use contact_harness::harness::results::write_run;
use contact_harness::harness::study::{
    CaseOutput, MethodOutput, MethodPlan, MethodResult, MethodRun, StudySummary, Timing,
};

#[path = "common/outputs_fixture.rs"]
mod fixture;
use fixture::*;

#[test]
fn every_contract_file_is_written_with_its_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    write_run(out, &standard_run()).unwrap();

    for f in [
        "alpha/dt-0.01.csv",
        "alpha/dt-0.01.parquet",
        "alpha/dt-0.01.exact.csv",
        "alpha/dt-0.01.exact.parquet",
        "alpha/dt-0.005.csv",
        "alpha/summary.csv",
        "alpha/summary.parquet",
        "alpha/study.csv",
        "alpha/study.parquet",
        "alpha/README.md",
        "beta/k-1.csv",
        "beta/summary.csv",
        "checks.csv",
        "checks.parquet",
        "timings.csv",
        "timings.parquet",
        "manifest.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    assert!(
        !out.join("beta/k-2.csv").exists(),
        "a failed case has no series file"
    );
    assert!(
        fs::read(out.join("alpha/dt-0.01.parquet"))
            .unwrap()
            .starts_with(b"PAR1")
    );

    assert_eq!(header(&out.join("alpha/dt-0.01.csv")), "t,x0,v0");
    let case_csv = read(&out.join("alpha/dt-0.01.csv"));
    assert_eq!(case_csv.lines().count(), 51);
    let second: Vec<f64> = case_csv
        .lines()
        .nth(2)
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(
        second,
        vec![0.01, 0.01f64.sin(), 0.01f64.cos()],
        "full precision"
    );

    let summary = read(&out.join("alpha/summary.csv"));
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[0], "case,method,status,dt,amplitude,max_error");
    assert!(lines[1].starts_with("dt-0.01,newmark-lcp,ok,0.01,"));
    let amplitude: f64 = lines[1].split(',').nth(4).unwrap().parse().unwrap();
    assert_eq!(amplitude, 0.1 + 0.2);
    let beta_summary = read(&out.join("beta/summary.csv"));
    assert_eq!(
        beta_summary.lines().nth(2),
        Some("k-2,newmark-lcp,failed,0.1,,"),
        "a failed method keeps its case scalars, its own cells are empty"
    );

    let checks = read(&out.join("checks.csv"));
    assert_eq!(
        checks.lines().next(),
        Some("study,case,check,value,tolerance,passed,metric,reference,detail,method,why")
    );
    assert_eq!(checks.lines().count(), 1 + 3 + 2);
    assert!(
        checks
            .lines()
            .any(|l| l.starts_with("alpha,*,order,1.2,1.0,false,")),
        "{checks}"
    );
    assert!(
        checks
            .lines()
            .any(|l| l.starts_with("beta,k-2,solver,NaN,0.0,false,")),
        "{checks}"
    );

    let timings = read(&out.join("timings.csv"));
    let lines: Vec<&str> = timings.lines().collect();
    assert_eq!(
        lines[0],
        "study,case,method,wall_s,cpu_s,cpu_s_spread,runs,steps,lcp_pivots,events,mean_active,cpu_per_step_s,speedup"
    );
    let cells: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        cells[..11],
        [
            "alpha",
            "dt-0.01",
            "newmark-lcp",
            "0.0123",
            "0.0121",
            "0.0002",
            "3",
            "10000",
            "120",
            "",
            "0.198"
        ]
    );
    assert_eq!(cells[11].parse::<f64>().unwrap(), 0.0121 / 10_000.0);
    assert_eq!(cells[12], "1.0", "the baseline has speedup 1");
    assert_eq!(
        lines[2],
        "alpha,dt-0.01,event-driven,0.5,0.49,0.0,1,,,42,,,"
    );
    assert_eq!(
        lines.len(),
        1 + 2 * 2 + 2 + 1,
        "a failed method has no timing row; its case's reference has"
    );

    let manifest: serde_json::Value =
        serde_json::from_str(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(manifest["commit"], "0123456789abcdef0123");
    assert_eq!(manifest["spec"]["studies"][1], "beta");
}

/// One case with four methods: a fast one listed first (1024 steps in
/// 0.125 s of CPU), the baseline (1024 steps in 1.25 s), an adaptive one
/// with other steps, and a reference solver without steps.
fn speed_run() -> RunResult {
    let timing = |method: &str, wall_s: f64, cpu_s: f64, steps: Option<f64>| Timing {
        method: method.into(),
        wall_s,
        cpu_s,
        cpu_s_spread: 0.0,
        runs: 1,
        counters: steps
            .map(|n| ("steps".to_string(), n))
            .into_iter()
            .collect(),
        stats: vec![("mean_active".into(), 2.5)],
    };
    let method = |t: Timing| MethodResult {
        plan: MethodPlan {
            label: t.method.clone(),
            method: t.method.clone(),
            doc: String::new(),
        },
        outcome: Ok(MethodRun {
            output: MethodOutput {
                series: series(0.1),
                counters: t.counters.clone(),
                ..MethodOutput::default()
            },
            timing: t,
        }),
    };
    let output = CaseOutput {
        name: "one".into(),
        coords: vec![],
        methods: vec![
            method(timing("sparse-newton", 0.75, 0.125, Some(1024.0))),
            method(timing("dense-lemke", 3.0, 1.25, Some(1024.0))),
            method(timing("adaptive", 0.3, 0.25, Some(2048.0))),
        ],
        tables: Vec::new(),
        scalars: Vec::new(),
        reference_timings: vec![Timing {
            stats: Vec::new(),
            ..timing("event-driven", 0.1, 0.09, None)
        }],
        failures: vec![],
    };
    let study = StudyResult {
        name: "speed".into(),
        reproduces: String::new(),
        parameters: Vec::new(),
        kind: "gap-system".into(),
        description: String::new(),
        file: PathBuf::from("experiments/speed.toml"),
        baseline: Some("dense-lemke".into()),
        cases: vec![output],
        summary: StudySummary::default(),
        work_precision: vec![],
        speedups: vec![],
        speedup_ranges: vec![],
        checks: Vec::new(),
        claims: Vec::new(),
        counter_docs: vec![],
    };
    RunResult {
        suite: "speed".into(),
        studies: vec![study],
        manifest: manifest("feedface"),
        record_history: true,
        costs: Default::default(),
    }
}

/// The speed-up column is against the study's baseline, never the first
/// row, and only between runs with the same steps.
#[test]
fn cpu_time_per_step_and_speedup_against_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path(), &speed_run()).unwrap();
    let timings = read(&dir.path().join("timings.csv"));
    let lines: Vec<&str> = timings.lines().collect();
    assert_eq!(
        lines[0],
        "study,case,method,wall_s,cpu_s,cpu_s_spread,runs,steps,mean_active,cpu_per_step_s,speedup"
    );
    let row = |i: usize| -> Vec<&str> { lines[i].split(',').collect() };
    assert_eq!(row(1)[2], "sparse-newton");
    assert_eq!(row(1)[9].parse::<f64>().unwrap(), 0.125 / 1024.0);
    assert_eq!(row(1)[10], "10.0", "10 times faster than the baseline");
    assert_eq!(row(2)[2], "dense-lemke");
    assert_eq!(row(2)[10], "1.0");
    assert_eq!(row(3)[2], "adaptive");
    assert_eq!(row(3)[10], "", "other steps: no per-step speed-up");
    assert_eq!(
        lines[4], "speed,one,event-driven,0.1,0.09,0.0,1,,,,",
        "no steps: no per-step time, no speedup"
    );
    let readme = read(&dir.path().join("speed/README.md"));
    for column in lines[0].split(',') {
        assert!(
            readme.contains(&format!("| `{column}` |")),
            "timings column {column} undocumented in the study README"
        );
    }

    let report = dir.path().join("report");
    let history = history::record(&history::dir(dir.path()), &speed_run()).unwrap();
    write_report(&report, &speed_run(), &history).unwrap();
    let html = read(&report.join("index.html"));
    for th in [
        "wall time",
        "CPU time",
        "CPU per step",
        "speedup",
        "steps",
        "mean_active",
    ] {
        assert!(html.contains(&format!("<th>{th}</th>")), "no column {th}");
    }
    assert!(html.contains(">10×</td>") && html.contains(">1×</td>"));
    assert!(html.contains("1.22 ms"), "CPU per step of the primary");
    assert!(html.contains("2.5"), "the stat is shown");
}

#[test]
fn every_column_of_every_csv_is_documented() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path(), &standard_run()).unwrap();
    for study in ["alpha", "beta"] {
        let study_dir = dir.path().join(study);
        let readme = read(&study_dir.join("README.md"));
        for csv in files_with_ext(&study_dir, "csv") {
            let name = csv.file_name().unwrap().to_string_lossy().to_string();
            assert!(
                readme.contains(&format!("`{name}`")),
                "{study}/README.md does not list {name}"
            );
            for column in header(&csv).split(',') {
                assert!(
                    readme.contains(&format!("| `{column}` |")),
                    "{study}: column {column} of {name} undocumented"
                );
            }
        }
        assert!(!readme.contains("not documented"), "{readme}");
    }
    let alpha = read(&dir.path().join("alpha/README.md"));
    assert!(alpha.contains("displacement of mass 0 [m]"));
    assert!(alpha.contains("exact event-driven solution"));
    assert!(alpha.contains("steady-state amplitude [m]"));
    let beta = read(&dir.path().join("beta/README.md"));
    assert!(
        beta.contains("case `k-2`, `newmark-lcp`: LCP solver `pgs` returned failed at step 17"),
        "{beta}"
    );
}

#[test]
fn reruns_give_byte_identical_csvs_and_parquet() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_run(a.path(), &standard_run()).unwrap();
    write_run(b.path(), &standard_run()).unwrap();
    let files_a = files_with_ext(a.path(), "csv");
    // alpha: 2 cases x (series, exact), summary, study; beta: k-1 series
    // and exact, k-2 exact (its method failed), summary; checks, claims
    // (its header only: the run has no claim), timings, kernels.
    assert_eq!(files_a.len(), 6 + 4 + 4);
    let parquet = files_with_ext(a.path(), "parquet");
    assert_eq!(
        parquet.len(),
        files_a.len(),
        "a Parquet copy beside every CSV"
    );
    for file in files_a.into_iter().chain(parquet) {
        let relative = file.strip_prefix(a.path()).unwrap();
        assert_eq!(
            fs::read(&file).unwrap(),
            fs::read(b.path().join(relative)).unwrap(),
            "{}",
            relative.display()
        );
    }
    assert_eq!(
        fs::read(a.path().join("manifest.json")).unwrap(),
        fs::read(b.path().join("manifest.json")).unwrap()
    );
}

/// Everything but the timings and the manifest is independent of how long
/// the methods took and of when the run happened.
#[test]
fn reruns_with_other_times_differ_only_in_timings_and_manifest() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_run(a.path(), &standard_run()).unwrap();
    let mut slow = standard_run();
    slow.manifest.date = "2026-12-02T23:59:59Z".into();
    for study in &mut slow.studies {
        for case in &mut study.cases {
            for m in &mut case.methods {
                if let Ok(run) = &mut m.outcome {
                    run.timing.wall_s *= 3.0;
                    run.timing.cpu_s *= 1.1;
                }
            }
            for t in &mut case.reference_timings {
                t.wall_s *= 3.0;
                t.cpu_s *= 1.1;
            }
        }
    }
    write_run(b.path(), &slow).unwrap();
    let mut files = files_with_ext(a.path(), "csv");
    files.extend(files_with_ext(a.path(), "parquet"));
    files.extend(files_with_ext(a.path(), "md"));
    let mut compared = 0;
    for file in files {
        let relative = file.strip_prefix(a.path()).unwrap();
        let name = relative.to_string_lossy();
        if name.starts_with("timings.") {
            continue;
        }
        assert_eq!(
            fs::read(&file).unwrap(),
            fs::read(b.path().join(relative)).unwrap(),
            "{name} depends on the measured times"
        );
        compared += 1;
    }
    // CSV and Parquet: 6 of alpha, 4 of beta, checks, claims, kernels (no
    // rows here: these runs measured no calibration or kernels); two READMEs.
    assert_eq!(compared, 2 * (6 + 4 + 3) + 2, "csv + parquet + READMEs");
    for f in ["timings.csv", "manifest.json"] {
        assert_ne!(
            fs::read(a.path().join(f)).unwrap(),
            fs::read(b.path().join(f)).unwrap(),
            "{f} should record the new times"
        );
    }
}

#[test]
fn a_rerun_replaces_study_directories_as_a_whole_and_leaves_others_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    write_run(
        out,
        &run(&[("old-case", 0.02), ("dt-0.01", 0.01)], 120.0, "a"),
    )
    .unwrap();
    assert!(out.join("alpha/old-case.csv").is_file());
    fs::create_dir_all(out.join("gamma")).unwrap();
    fs::write(out.join("gamma/keep.csv"), "t\n1\n").unwrap();
    fs::create_dir_all(out.join("history")).unwrap();
    fs::write(out.join("history/history.csv"), "untouched").unwrap();
    // What a run killed mid-write leaves behind (its pid is beyond pid_max).
    let killed = out.join(format!(".alpha.tmp-{}-0", u32::MAX - 7));
    fs::create_dir_all(&killed).unwrap();
    fs::write(killed.join("dt-0.01.csv"), "t,x0\n0,").unwrap();

    write_run(out, &standard_run()).unwrap();
    assert!(
        !out.join("alpha/old-case.csv").exists(),
        "stale case file survived"
    );
    assert!(!out.join("alpha/old-case.exact.parquet").exists());
    assert!(out.join("alpha/dt-0.005.csv").is_file());
    assert_eq!(read(&out.join("gamma/keep.csv")), "t\n1\n");
    assert_eq!(read(&out.join("history/history.csv")), "untouched");
    let leftovers: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn a_study_called_history_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = standard_run();
    r.studies[1].name = "history".into();
    let err = write_run(dir.path(), &r).unwrap_err().to_string();
    assert!(err.contains("may not be called `history`"), "{err}");
}

/// speedup.csv carries each speed-up's converged error ranges, a refused
/// comparison is a row with empty error and speed-up, every new column is
/// documented, and the report's findings name the ranges.
#[test]
fn speedups_come_with_their_converged_ranges() {
    use contact_harness::harness::rows::{SpeedupRange, SpeedupRow, WorkPrecisionRow};
    let mut run = speed_run();
    let study = &mut run.studies[0];
    study.work_precision = vec![WorkPrecisionRow {
        case: "one".into(),
        method: "sparse-newton".into(),
        parameter: "integrator.dt".into(),
        value: 0.01,
        error: 1e-3,
        cpu_s: 0.1,
        cpu_s_spread: 0.0,
        group: String::new(),
    }];
    study.speedups = vec![SpeedupRow {
        method: "sparse-newton".into(),
        baseline: "dense-lemke".into(),
        error: 1e-3,
        speedup: 10.0,
        group: String::new(),
    }];
    study.speedup_ranges = vec![
        SpeedupRange {
            method: "sparse-newton".into(),
            baseline: "dense-lemke".into(),
            group: String::new(),
            method_range: Some((1e-5, 1e-2)),
            baseline_range: Some((1e-4, 1e-3)),
            common: Some((1e-4, 1e-3)),
            detail: "both converged".into(),
        },
        SpeedupRange {
            method: "adaptive".into(),
            baseline: "dense-lemke".into(),
            group: String::new(),
            method_range: Some((1e-9, 1e-8)),
            baseline_range: Some((1e-4, 1e-3)),
            common: None,
            detail: "no common converged range".into(),
        },
    ];
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path(), &run).unwrap();
    let csv = read(&dir.path().join("speed/speedup.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "method,baseline,error,speedup,group,converged_min,converged_max,method_converged_min,method_converged_max,baseline_converged_min,baseline_converged_max,converged_rule"
    );
    assert_eq!(
        lines[1],
        "sparse-newton,dense-lemke,0.001,10.0,\"\",0.0001,0.001,0.00001,0.01,0.0001,0.001,both converged"
    );
    assert_eq!(
        lines[2],
        "adaptive,dense-lemke,,,\"\",,,1e-9,1e-8,0.0001,0.001,no common converged range"
    );
    let readme = read(&dir.path().join("speed/README.md"));
    for column in lines[0].split(',') {
        assert!(
            readme.contains(&format!("`{column}`")),
            "{column} undocumented"
        );
    }
    let report = dir.path().join("report");
    let history = history::History::default();
    write_report(&report, &run, &history).unwrap();
    let md = read(&report.join("README.md"));
    assert!(
        md.contains("over the common converged error range 1.00e-4 to 1.00e-3"),
        "{md}"
    );
    assert!(
        md.contains("adaptive against dense-lemke: no common converged range"),
        "{md}"
    );
}
