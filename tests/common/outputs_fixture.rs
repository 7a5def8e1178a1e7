//! The hand-made run of tests/outputs.rs and tests/outputs_report.rs: two
//! studies, one with a failed case and a failed check.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use contact_harness::error::SolverError;
use contact_harness::harness::figure::{Axis, Figure, Series, Style};
use contact_harness::harness::history::{self};
use contact_harness::harness::outcome::{Manifest, RunResult, StudyResult};
use contact_harness::harness::rows::CheckRow;
use contact_harness::harness::study::{
    CaseOutput, CaseTable, MethodOutput, MethodPlan, MethodResult, MethodRun, Scalar, StudyScalar,
    StudySummary, Timing,
};
use contact_harness::harness::table::Table;

pub fn series(dt: f64) -> Table {
    let t: Vec<f64> = (0..50).map(|i| i as f64 * dt).collect();
    let x: Vec<f64> = t.iter().map(|t| t.sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| t.cos()).collect();
    Table::new()
        .with("t", "time [s]", t)
        .with("x0", "displacement of mass 0 [m]", x)
        .with("v0", "velocity of mass 0 [m/s]", v)
}

pub fn check(study: &str, case: &str, name: &str, value: f64, tolerance: f64) -> CheckRow {
    CheckRow {
        study: study.into(),
        case: case.into(),
        method: "newmark-lcp".into(),
        why: "a priori bound".into(),
        check: name.into(),
        metric: "max-abs".into(),
        reference: "exact".into(),
        value,
        tolerance,
        passed: value <= tolerance,
        detail: if value <= tolerance {
            String::new()
        } else {
            format!("error {value} above {tolerance}")
        },
    }
}

pub fn alpha_case(name: &str, dt: f64, pivots: f64) -> CaseOutput {
    let exact = CaseTable {
        what: "exact".into(),
        doc: "exact event-driven solution (matrix exponential between switches)".into(),
        table: series(dt),
    };
    let lcp = MethodResult {
        plan: MethodPlan {
            label: "newmark-lcp".into(),
            method: "newmark-lcp".into(),
            doc: "Bossak-Newmark with Lemke".into(),
        },
        outcome: Ok(MethodRun {
            output: MethodOutput {
                series: series(dt),
                scalars: vec![
                    Scalar::new("amplitude", 0.1 + 0.2, "steady-state amplitude [m]"),
                    Scalar::new("max_error", 1.0 / 3.0, "max |x - x_exact| [m]"),
                ],
                counters: vec![("steps".into(), 10_000.0), ("lcp_pivots".into(), pivots)],
                stats: vec![("mean_active".into(), 0.198)],
                ..MethodOutput::default()
            },
            timing: Timing {
                method: "newmark-lcp".into(),
                wall_s: 0.0123,
                cpu_s: 0.0121,
                cpu_s_spread: 0.0002,
                runs: 3,
                counters: vec![("steps".into(), 10_000.0), ("lcp_pivots".into(), pivots)],
                stats: vec![("mean_active".into(), 0.198)],
            },
        }),
    };
    CaseOutput {
        name: name.into(),
        coords: vec![],
        methods: vec![lcp],
        tables: vec![exact],
        scalars: vec![Scalar::new("dt", dt, "time step [s]")],
        reference_timings: vec![Timing {
            method: "event-driven".into(),
            wall_s: 0.5,
            cpu_s: 0.49,
            cpu_s_spread: 0.0,
            runs: 1,
            counters: vec![("events".into(), 42.0)],
            stats: vec![],
        }],
        failures: vec![],
    }
}

pub fn figures() -> Vec<Figure> {
    let t: Vec<f64> = (0..200).map(|i| i as f64 * 0.05).collect();
    let mut x: Vec<f64> = t.iter().map(|t| t.sin()).collect();
    x[10] = f64::NAN;
    vec![
        Figure {
            name: "response".into(),
            title: "Displacement response".into(),
            x: Axis::linear("time t [s]"),
            y: Axis::linear("displacement x0 [m]"),
            series: vec![
                Series::new("Newmark-LCP", &t, &x, Style::Line).grouped(0),
                Series::new("exact (event-driven)", &t, &x, Style::Dashed).grouped(0),
            ],
            caption: "Regenerates Fig. 3 of the paper.".into(),
        },
        Figure {
            name: "convergence".into(),
            title: "Error vs time step".into(),
            x: Axis::log("time step dt [s]"),
            y: Axis::log("max error [m]"),
            series: vec![Series::new(
                "max error",
                &[1e-3, 2e-3, 4e-3, 0.0, f64::INFINITY],
                &[1e-6, 4e-6, 1.6e-5, 1.0, 2.0],
                Style::LineMarkers,
            )],
            caption: "Second-order convergence.".into(),
        },
    ]
}

pub fn manifest(commit: &str) -> Manifest {
    Manifest {
        commit: commit.into(),
        dirty: false,
        rustc: "rustc 1.95.0 (test)".into(),
        profile: "debug".into(),
        date: "2026-12-01T10:00:00Z".into(),
        host: "test-host".into(),
        cpu: "Test CPU (2 logical cores)".into(),
        cpu_model: "Test CPU".into(),
        logical_cores: "2".into(),
        memory: "7.75 GiB".into(),
        os: "Test OS 1".into(),
        kernel: "Linux 6.1.0-test".into(),
        build: "not optimised, cargo profile dev: opt-level 2, debug assertions on".into(),
        timing_method: history::TIMING_METHOD.into(),
        reference_tools: [("gap-system".to_string(), vec!["SciPy 1.17.1".to_string()])].into(),
        command: "cargo run -- experiments/all".into(),
        spec_file: "experiments/all.toml".into(),
        spec: serde_json::json!({"studies": ["alpha", "beta"]}),
        seeds: serde_json::json!({}),
        shards: Vec::new(),
    }
}

pub fn run(alpha_cases: &[(&str, f64)], pivots: f64, commit: &str) -> RunResult {
    let mut alpha_checks = Vec::new();
    for (name, _) in alpha_cases {
        alpha_checks.push(check("alpha", name, "x-vs-exact", 1e-4, 1e-3));
    }
    alpha_checks.push(check("alpha", "*", "order", 1.2, 1.0));
    let alpha = StudyResult {
        name: "alpha".into(),
        reproduces: String::new(),
        parameters: Vec::new(),
        kind: "gap-system".into(),
        description: "SDOF oscillator with a gap-activated spring.".into(),
        file: PathBuf::from("experiments/alpha.toml"),
        baseline: Some("newmark-lcp".into()),
        cases: alpha_cases
            .iter()
            .map(|(n, dt)| alpha_case(n, *dt, pivots))
            .collect(),
        summary: StudySummary {
            scalars: vec![StudyScalar::study(Scalar::new(
                "order",
                1.2,
                "observed convergence order [-]",
            ))],
            figures: figures(),
            notes: vec!["Bossak parameter alpha_b = 0 (classic Newmark).".into()],
            measured: vec![],
            speedups: vec![],
            speedup_ranges: vec![],
            tables: vec![],
        },
        work_precision: vec![],
        speedups: vec![],
        speedup_ranges: vec![],
        checks: alpha_checks,
        claims: Vec::new(),
        counter_docs: vec![("lcp_pivots".into(), "Lemke pivots [-]".into())],
    };
    let failure = SolverError::Lcp {
        solver: "pgs".into(),
        status: "failed".into(),
        step: 17,
        t: 0.17,
        residual: 3.5e-2,
    };
    let ok = alpha_case("k-1", 0.1, 5.0);
    let mut failed = alpha_case("k-2", 0.1, 5.0);
    failed.methods[0].outcome = Err(failure.clone());
    let beta = StudyResult {
        name: "beta".into(),
        reproduces: String::new(),
        parameters: Vec::new(),
        kind: "gap-system".into(),
        description: String::new(),
        file: PathBuf::from("experiments/beta.toml"),
        baseline: Some("newmark-lcp".into()),
        cases: vec![ok, failed],
        summary: StudySummary::default(),
        work_precision: vec![],
        speedups: vec![],
        speedup_ranges: vec![],
        counter_docs: vec![],
        claims: vec![],
        checks: vec![
            check("beta", "k-1", "x-vs-exact", 1e-5, 1e-3),
            CheckRow {
                study: "beta".into(),
                case: "k-2".into(),
                method: "newmark-lcp".into(),
                why: "every method run must finish".into(),
                check: "solver".into(),
                metric: "solver".into(),
                reference: "-".into(),
                value: f64::NAN,
                tolerance: 0.0,
                passed: false,
                detail: failure.to_string(),
            },
        ],
    };
    RunResult {
        suite: "all".into(),
        studies: vec![alpha, beta],
        manifest: manifest(commit),
        record_history: true,
        costs: Default::default(),
    }
}

pub fn standard_run() -> RunResult {
    run(
        &[("dt-0.01", 0.01), ("dt-0.005", 0.005)],
        120.0,
        "0123456789abcdef0123",
    )
}

pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn header(path: &Path) -> String {
    read(path).lines().next().unwrap_or_default().to_string()
}

pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_with_ext(&path, ext));
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    out.sort();
    out
}
