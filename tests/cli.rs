//! The command line as a user meets it: exit codes, error messages that name
//! the file, key, value and what is allowed, `lcp solve` JSON, and a full
//! run of the quick suite with byte-identical reruns.

mod common;
// A minimal valid SDOF study; `patch` edits it into an invalid one.
use common::SDOF_SPEC as SDOF;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_contact-harness"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

/// The fields of one CSV line (double-quoted fields may hold commas).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                fields.last_mut().expect("field").push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().expect("field").push(c),
        }
    }
    fields
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn bad_spec(replace: &str, with: &str) -> (tempfile::TempDir, Output) {
    assert!(
        SDOF.contains(replace),
        "test bug: `{replace}` not in the spec"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, SDOF.replacen(replace, with, 1)).expect("write spec");
    let out = run_in(dir.path(), &["bad.toml", "--out", "out", "--report", "rep"]);
    (dir, out)
}

/// Each bad input: exit 2, the message names file, key, value and what is
/// allowed, and nothing is written.
#[test]
fn bad_specs_exit_2_with_a_message_naming_file_key_and_value() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "dt = 0.01",
            "dt = -0.01",
            &["bad.toml", "tiny", "study.integrator.dt", "-0.01", "> 0"],
        ),
        (
            "dt = 0.01",
            "dt = 0.01\nfoo = 1",
            &["bad.toml", "study.integrator", "unknown field `foo`"],
        ),
        (
            "t_end = 2.0",
            "t_end = 0.005",
            &["study.integrator.t_end", "0.005", "> dt"],
        ),
        (
            "alpha_b = 0.0",
            "alpha_b = 0.5",
            &["study.integrator.alpha_b", "0.5", "[-1/3, 0]"],
        ),
        (
            "lcp_solver = \"lemke\"",
            "lcp_solver = \"simplex\"",
            &["study.integrator.lcp_solver", "simplex", "lemke"],
        ),
        (
            "method = \"newmark-lcp\"",
            "method = \"rk4\"",
            &["study.integrator.method", "rk4", "newmark-lcp"],
        ),
        (
            "mass = [[1.0]]",
            "mass = [[-1.0]]",
            &["study.system.mass", "-1", "positive definite"],
        ),
        (
            "mass = [[1.0]]",
            "mass = [[1.0, 2.0]]",
            &["study.system.mass", "square"],
        ),
        (
            "direction = [1.0]",
            "direction = [1.0, 0.0]",
            &["study.system.gaps[0].direction", "1 numbers"],
        ),
        (
            "stiffness = 4.0",
            "stiffness = 0.0",
            &["study.system.gaps[0].stiffness", "> 0"],
        ),
        (
            "omega = 0.8",
            "omega = nan",
            &["study.excitation.omega", "NaN"],
        ),
        (
            "kind = \"gap-system\"",
            "kind = \"gap-sistem\"",
            &["study.kind", "gap-sistem", "gap-system"],
        ),
        (
            "x = [0.0]",
            "x = [0.0, 1.0]",
            &["study.initial.x", "1 numbers"],
        ),
        (
            "t_end = 2.0",
            "t_end = 2.005",
            &["study.integrator.t_end", "multiple of dt"],
        ),
        (
            "[study.system]",
            "[study.sistem]",
            &["unknown field `sistem`"],
        ),
        (
            "name = \"tiny\"",
            "name = \"Tiny Study\"",
            &["study.name", "Tiny Study", "lowercase"],
        ),
        (
            "name = \"tiny\"",
            "name = \"history\"",
            &[
                "bad.toml",
                "study.name",
                "\"history\"",
                "performance history",
            ],
        ),
    ];
    for (replace, with, expected) in cases {
        let (dir, out) = bad_spec(replace, with);
        let msg = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "`{with}`: exit code; stderr: {msg}"
        );
        for e in *expected {
            assert!(msg.contains(e), "`{with}`: message lacks `{e}`: {msg}");
        }
        assert!(!msg.contains("panicked"), "`{with}` panicked: {msg}");
        assert!(
            !dir.path().join("out").exists(),
            "`{with}`: results written despite bad input"
        );
    }
}

#[test]
fn bad_checks_and_sweeps_are_rejected_before_running() {
    let with_check = |check: &str| format!("{SDOF}\n[[study.check]]\n{check}\n");
    let cases: &[(&str, &[&str])] = &[
        (
            "name = \"c\"\nquantity = \"y*\"\nreference = \"exact\"\nmetric = \"max-abs\"\ntolerance = 1e-3",
            &["study.check[0].quantity", "y*", "x*"],
        ),
        (
            "name = \"c\"\nquantity = \"x*\"\nreference = \"exakt\"\nmetric = \"max-abs\"\ntolerance = 1e-3",
            &["study.check[0].reference", "exakt", "exact"],
        ),
        (
            "name = \"c\"\nquantity = \"x*\"\nreference = \"missing.csv\"\nmetric = \"max-abs\"\ntolerance = 1e-3",
            &["study.check[0].reference", "missing.csv", "no such file"],
        ),
        (
            "name = \"c\"\nquantity = \"x*\"\nreference = \"exact\"\nmetric = \"max-abs\"\ntolerance = -1.0",
            &["study.check[0].tolerance", "-1"],
        ),
        (
            "name = \"c\"\nquantity = \"x*\"\nreference = \"exact\"\nmetric = \"biggest\"\ntolerance = 1.0",
            &["study.check", "unknown variant `biggest`"],
        ),
        (
            "name = \"c\"\nquantity = \"x*\"\nreference = \"exact\"\nmetric = \"abs\"\ntolerance = 1.0",
            &["study.check[0].metric", "curve metric"],
        ),
    ];
    for (check, expected) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("c.toml"), with_check(check)).expect("write");
        let out = run_in(dir.path(), &["c.toml", "--out", "out"]);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{check}: {msg}");
        for e in *expected {
            assert!(msg.contains(e), "{check}: message lacks `{e}`: {msg}");
        }
    }
    // A sweep over a key that the kind rejects.
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = format!("{SDOF}\n[[study.sweep]]\nkey = \"integrator.dtt\"\nvalues = [0.1]\n");
    std::fs::write(dir.path().join("s.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["s.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown field `dtt`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn missing_files_duplicate_names_and_unknown_only_are_input_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in(dir.path(), &["nope.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope.toml"));

    std::fs::write(dir.path().join("a.toml"), SDOF).expect("write");
    std::fs::write(
        dir.path().join("suite.toml"),
        "include = [\"a.toml\", \"a.toml\"]\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["suite"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unique"), "{}", stderr(&out));

    std::fs::write(dir.path().join("one.toml"), "include = [\"a.toml\"]\n").expect("write");
    let out = run_in(dir.path(), &["one", "--only", "other"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--only") && stderr(&out).contains("tiny"),
        "{}",
        stderr(&out)
    );

    std::fs::write(
        dir.path().join("cycle.toml"),
        "include = [\"cycle.toml\"]\n",
    )
    .expect("write");
    let out = run_in(dir.path(), &["cycle.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cycle"), "{}", stderr(&out));

    std::fs::write(dir.path().join("syntax.toml"), "[[study]\nname = 1\n").expect("write");
    let out = run_in(dir.path(), &["syntax.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("syntax.toml") && stderr(&out).contains("TOML"),
        "{}",
        stderr(&out)
    );
}

/// A spec that runs nothing would look green: an empty file, or a suite
/// whose includes hold no study, is bad input; so is a case named like a
/// study-level result file, and a reference curve whose abscissa does not
/// increase strictly.
#[test]
fn specs_that_would_run_nothing_or_clash_are_input_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("empty.toml"), "# nothing here\n").expect("write");
    std::fs::write(
        dir.path().join("suite.toml"),
        "include = [\"empty.toml\"]\n",
    )
    .expect("write");
    for file in ["empty.toml", "suite.toml"] {
        let out = run_in(dir.path(), &[file, "--out", "out", "--report", "rep"]);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{file}: {msg}");
        assert!(
            msg.contains(file) && msg.contains("no study"),
            "{file}: {msg}"
        );
        assert!(!dir.path().join("out").exists() && !dir.path().join("rep").exists());
    }
    for reserved in ["summary", "work-precision", "speedup", "study"] {
        let spec = SDOF.replacen("name = \"tiny\"", &format!("name = \"{reserved}\""), 1);
        std::fs::write(dir.path().join("r.toml"), spec).expect("write");
        let out = run_in(dir.path(), &["r.toml", "--out", "out"]);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{reserved}: {msg}");
        assert!(msg.contains(reserved) && msg.contains("case name"), "{msg}");
    }
    std::fs::write(dir.path().join("ref.csv"), "t,x0\n0,0\n1,1\n1,2\n2,3\n").expect("write");
    let spec = format!(
        "{SDOF}\n[[study.check]]\nname = \"c\"\nquantity = \"x*\"\nreference = \"ref.csv\"\nmetric = \"max-abs\"\ntolerance = 1.0\n"
    );
    std::fs::write(dir.path().join("c.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["c.toml", "--out", "out"]);
    let msg = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    assert!(
        msg.contains("ref.csv")
            && msg.contains("study.check[0].reference")
            && msg.contains("increase strictly"),
        "{msg}"
    );
}

/// A method that fails (here PGS limited to one sweep per step LCP, which
/// fails once two gaps engage together) fails alone: the case's other
/// methods still run, are written and checked; the failure is a red row;
/// the exit code is 1.
#[test]
fn a_failing_method_fails_alone() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = std::fs::read_to_string(repo().join("experiments/three-dof-gaps.toml"))
        .expect("spec")
        .replace("\"../reference-data/", &format!("\"{}/reference-data/", repo().display()))
        .replace(
            "[[study.integrator.variant]]\nmethod = \"newmark-ssn\"",
            "[[study.integrator.variant]]\nmethod = \"newmark-ssn\"\n[[study.integrator.variant]]\nmethod = \"newmark-lcp\"\nlcp_solver = \"pgs\"\nlcp_max_iterations = 1\nlabel = \"pgs-one-sweep\"",
        );
    assert!(
        spec.contains("pgs-one-sweep"),
        "test bug: variant not inserted"
    );
    std::fs::write(dir.path().join("t.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["t.toml", "--out", "out", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let study = dir.path().join("out/three-dof-gaps");
    for f in [
        "three-dof-gaps.csv",
        "three-dof-gaps.newmark-ssn.csv",
        "three-dof-gaps.exact.csv",
    ] {
        assert!(study.join(f).is_file(), "{f} missing");
    }
    assert!(!study.join("three-dof-gaps.pgs-one-sweep.csv").exists());
    let checks = std::fs::read_to_string(dir.path().join("out/checks.csv")).expect("checks");
    let rows: Vec<Vec<String>> = checks.lines().skip(1).map(csv_fields).collect();
    let method = |r: &Vec<String>| r[9].clone();
    let failed: Vec<&Vec<String>> = rows.iter().filter(|r| r[5] == "false").collect();
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|r| method(r) == "pgs-one-sweep"),
        "{checks}"
    );
    assert!(
        failed.iter().any(|r| r[2] == "solver"),
        "the failure itself is a row: {checks}"
    );
    for m in ["newmark-lcp", "newmark-ssn"] {
        assert!(
            rows.iter()
                .any(|r| method(r) == m && r[2] == "x-vs-exact" && r[5] == "true"),
            "{m} was not checked: {checks}"
        );
    }
    let summary = std::fs::read_to_string(study.join("summary.csv")).expect("summary");
    assert!(
        summary.contains("three-dof-gaps,pgs-one-sweep,failed"),
        "{summary}"
    );
    let report = std::fs::read_to_string(dir.path().join("rep/index.html")).expect("report");
    assert!(report.contains("pgs-one-sweep") && report.contains("returned failed"));
}

/// A gap system with a non-symmetric stiffness matrix (measured before the
/// fix: newmark-ssn factored the lower triangle only and drifted 1.3e-5
/// away from newmark-lcp with no warning) gets the newmark-lcp answer.
#[test]
fn a_non_symmetric_system_gets_the_same_answer_from_both_methods() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = SDOF
        .replace("mass = [[1.0]]", "mass = [[1.0, 0.0], [0.0, 1.0]]")
        .replace("damping = [[0.05]]", "damping = [[0.05, 0.0], [0.0, 0.05]]")
        .replace(
            "stiffness = [[1.0]]",
            "stiffness = [[2.0, -1.5], [-0.5, 1.0]]",
        )
        .replace("direction = [1.0]", "direction = [1.0, 0.0]")
        .replace("amplitude = [1.0]", "amplitude = [1.0, 0.5]")
        .replace("x = [0.0]\nv = [0.0]", "x = [0.0, 0.0]\nv = [0.0, 0.0]")
        .replace("t_end = 2.0", "t_end = 20.0")
        + "[[study.integrator.variant]]\nmethod = \"newmark-ssn\"\n\
           [[study.check]]\nname = \"same\"\nquantity = \"x*\"\nmethod = \"newmark-lcp\"\n\
           reference = \"newmark-ssn\"\nmetric = \"max-rel\"\ntolerance = 1e-9\n";
    std::fs::write(dir.path().join("ns.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["ns.toml", "--out", "out", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let checks = std::fs::read_to_string(dir.path().join("out/checks.csv")).expect("checks");
    let row = checks.lines().find(|l| l.contains(",same,")).expect("row");
    let value: f64 = row
        .split(',')
        .nth(3)
        .expect("value")
        .parse()
        .expect("number");
    assert!(
        value < 1e-12,
        "newmark-ssn differs from newmark-lcp by {value}"
    );
}

/// A dense method on a system too large for the machine is refused before
/// it allocates (measured before: n = 100000 asked for one 80 GB block and
/// aborted with exit 134, writing nothing).
#[test]
fn a_dense_method_that_would_not_fit_is_refused_with_its_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = std::fs::read_to_string(repo().join("experiments/chain-scaling.toml"))
        .expect("spec")
        .replace("max_dofs = 1000\n", "")
        .replace(
            "values = [10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000]",
            "values = [100000]",
        );
    assert!(
        spec.contains("values = [100000]"),
        "test bug: sweep not replaced"
    );
    std::fs::write(dir.path().join("big.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["big.toml", "--out", "out", "--report", "rep"]);
    let msg = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    for part in [
        "big.toml",
        "study.integrator.variant[0].method",
        "newmark-lcp",
        "n = 100000",
        "GiB",
        "newmark-ssn",
    ] {
        assert!(msg.contains(part), "message lacks `{part}`: {msg}");
    }
    assert!(!dir.path().join("out").exists());
}

/// A chain of 1e6 DOFs with the default output keys finishes under
/// newmark-ssn (measured before: stopped after 10 minutes writing 3e6
/// columns): five DOFs and the extremes over all DOFs are written.
#[test]
fn a_million_dof_chain_with_default_output_finishes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec =
        std::fs::read_to_string(repo().join("experiments/chain-scaling.toml")).expect("spec");
    let start = spec.find("[[study]]").expect("study");
    let end = spec.find("[[study.integrator.variant]]").expect("variant");
    let spec = spec[start..end]
        .replace("n = 1000\n", "n = 1000000\n")
        .replace("t_end = 0.5", "t_end = 0.03")
        .replace("output_interval = 0.5\n", "")
        .replace("output_dofs = [0, 9]\n", "");
    std::fs::write(dir.path().join("m.toml"), spec).expect("write");
    let out = run_in(dir.path(), &["m.toml", "--out", "out", "--report", "rep"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let csv = std::fs::read_to_string(dir.path().join("out/chain-scaling/chain-scaling.csv"))
        .expect("series");
    assert_eq!(
        csv.lines().next(),
        Some(
            "t,x0,x250000,x500000,x750000,x999999,v0,v250000,v500000,v750000,v999999,f0,f250000,f500000,f750000,f999999,x_max_all,x_min_all,active"
        )
    );
    assert_eq!(csv.lines().count(), 1 + 4, "t = 0 and three steps");
}

#[test]
fn lcp_solve_prints_the_fixed_json() {
    let file = repo().join("reference-data/lcp/lcp_deudeu.dat");
    for solver in ["lemke", "pgs", "newton-min", "newton-fb", "auto"] {
        let out = bin()
            .args(["lcp", "solve"])
            .arg(&file)
            .args(["--solver", solver])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{solver}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(json["status"], "solved", "{solver}: {json}");
        assert_eq!(json["z"].as_array().map(Vec::len), Some(2));
        assert!(
            json["residual"].as_f64().is_some_and(|r| r <= 1e-10),
            "{json}"
        );
        assert!(json["iterations"].as_u64().is_some());
        assert!(json["solver"].as_str().is_some_and(|s| !s.is_empty()));
    }
    let infeasible = repo().join("reference-data/lcp/lcp_Pang_isolated_sol_perturbed.dat");
    let out = bin()
        .args(["lcp", "solve"])
        .arg(&infeasible)
        .output()
        .expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["status"], "infeasible", "{json}");

    let out = bin()
        .args(["lcp", "solve"])
        .arg(&file)
        .args(["--solver", "simplex"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("simplex") && stderr(&out).contains("lemke"));

    let dir = tempfile::tempdir().expect("tempdir");
    let garbage = dir.path().join("bad.dat");
    std::fs::write(&garbage, "3\n0\n3 3\n3 3\n1 2\n").expect("write");
    let out = bin()
        .args(["lcp", "solve"])
        .arg(&garbage)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.dat"), "{}", stderr(&out));
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The quick suite runs green, writes the fixed files, and a second run
/// gives byte-identical case CSVs, summaries, study scalars and checks (all
/// but the measured times: timings, work-precision, speed-ups).
#[test]
fn quick_suite_passes_and_reruns_identically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = repo().join("experiments/quick");
    let run = |name: &str| {
        let out = bin()
            .arg(&spec)
            .arg("--out")
            .arg(dir.path().join(name))
            .arg("--report")
            .arg(dir.path().join(format!("{name}-report")))
            .output()
            .expect("runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "quick suite failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
    };
    run("a");
    run("b");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for f in [
        "checks.csv",
        "timings.csv",
        "manifest.json",
        "sdof-gap/sdof-gap.csv",
        "sdof-gap/sdof-gap.exact.csv",
        "sdof-gap/summary.csv",
    ] {
        assert!(a.join(f).is_file(), "missing {f}");
    }
    let checks = String::from_utf8(read(&a.join("checks.csv"))).expect("utf8");
    assert!(
        checks.starts_with("study,case,check,value,tolerance,passed"),
        "{checks}"
    );
    let timings = String::from_utf8(read(&a.join("timings.csv"))).expect("utf8");
    assert!(timings.starts_with("study,case,method,wall_s"), "{timings}");
    assert!(
        timings.lines().next().is_some_and(|h| h.contains("steps")),
        "{timings}"
    );
    let mut compared = 0;
    for study in std::fs::read_dir(&a).expect("read out dir") {
        let study = study.expect("entry").path();
        if !study.is_dir() || study.ends_with("history") {
            continue;
        }
        for f in std::fs::read_dir(&study).expect("read study dir") {
            let f = f.expect("entry").path();
            // Work-precision and speed-ups are measured times.
            let timed = f
                .file_name()
                .is_some_and(|n| n == "work-precision.csv" || n == "speedup.csv");
            if f.extension().is_some_and(|e| e == "csv") && !timed {
                let other = b
                    .join(study.file_name().expect("name"))
                    .join(f.file_name().expect("name"));
                assert!(
                    read(&f) == read(&other),
                    "{} differs between runs",
                    f.display()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 10, "compared only {compared} files");
    assert_eq!(
        read(&a.join("checks.csv")),
        read(&b.join("checks.csv")),
        "checks.csv differs between runs"
    );
    assert!(dir.path().join("a-report/index.html").is_file());
    assert!(dir.path().join("a-report/README.md").is_file());
    // Every figure of the quick suite is drawable: no line series with
    // fewer than two finite points, no empty figure (Figure::problems).
    let page = std::fs::read_to_string(dir.path().join("a-report/README.md")).expect("report");
    assert!(
        !page.contains("could not be drawn"),
        "a figure of the quick suite could not be drawn: {}",
        page.lines()
            .filter(|l| l.contains("could not be drawn"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The two specs that used to hang (issue "bad input never hangs"): finite
/// but extreme values. Each run ends within a minute with exit 1 and a
/// message naming what went wrong, instead of marching for ever.
#[test]
fn extreme_magnitudes_end_with_a_message_instead_of_hanging() {
    let two_dof = SDOF
        .replace("mass = [[1.0]]", "mass = [[1.0, 0.0], [0.0, 1.0]]")
        .replace("damping = [[0.05]]", "damping = [[0.05, 0.0], [0.0, 0.05]]")
        .replace(
            "stiffness = [[1.0]]",
            "stiffness = [[2.0, -1.0], [-1.0, 1.0]]",
        )
        .replace("direction = [1.0]", "direction = [1.0, 0.0]")
        .replace("amplitude = [1.0]", "amplitude = [0.0, 1.0]")
        .replace("x = [0.0]\nv = [0.0]", "x = [0.0, 0.0]\nv = [0.0, 0.0]");
    let cases = [
        (
            two_dof.replace("amplitude = [0.0, 1.0]", "amplitude = [0.0, 1e308]"),
            "a coefficient or forcing amplitude is too large",
        ),
        (
            // Refused at load since (exit 2, below); accepted on purpose
            // here, the march is refused with a message.
            two_dof.replace(
                "stiffness = [[2.0, -1.0], [-1.0, 1.0]]",
                "stiffness = [[-1e308, -1.0], [-1.0, 1.0]]\nallow_indefinite = true",
            ),
            "magnitudes",
        ),
    ];
    for (spec, expected) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("x.toml"), &spec).expect("write");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_contact-harness"))
            .current_dir(dir.path())
            .args(["x.toml", "--out", "out", "--report", "rep"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s;
            }
            if start.elapsed().as_secs() > 60 {
                let _ = child.kill();
                panic!("still running after 60 s: {spec}");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let out = child.wait_with_output().expect("output");
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(status.code(), Some(1), "{text}");
        assert!(
            text.contains(expected),
            "message lacks `{expected}`: {text}"
        );
    }
}

/// A stiffness or damping whose symmetric part is not positive
/// semidefinite is an input error naming the key (exit 2), unless the spec
/// says `system.allow_indefinite = true`.
#[test]
fn an_indefinite_stiffness_is_refused_unless_allowed() {
    for (replace, with, key) in [
        (
            "stiffness = [[1.0]]",
            "stiffness = [[-1.0]]",
            "system.stiffness",
        ),
        (
            "stiffness = [[1.0]]",
            "stiffness = [[-1e308]]",
            "system.stiffness",
        ),
        (
            "damping = [[0.05]]",
            "damping = [[-0.05]]",
            "system.damping",
        ),
    ] {
        let (_dir, out) = bad_spec(replace, with);
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "`{with}`: {msg}");
        assert!(msg.contains(key) && msg.contains("semidefinite"), "{msg}");
    }
    let (_dir, out) = bad_spec(
        "stiffness = [[1.0]]",
        "stiffness = [[-0.01]]\nallow_indefinite = true",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A job past its time limit fails with a message naming the limit and how
/// to raise it; the run goes on and ends with exit 1. The limit comes from
/// `--time-limit` or the study's `time_limit`; bad values are exit 2.
#[test]
fn a_job_past_its_time_limit_fails_with_a_message() {
    let long = SDOF.replace("t_end = 2.0", "t_end = 1e5");
    let limited = long.replace(
        "kind = \"gap-system\"",
        "kind = \"gap-system\"\ntime_limit = 0.5",
    );
    for (spec, flag) in [(&long, Some("0.5")), (&limited, None)] {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("x.toml"), spec).expect("write");
        let mut args = vec!["x.toml", "--out", "out", "--report", "rep"];
        if let Some(s) = flag {
            args.extend(["--time-limit", s]);
        }
        let start = std::time::Instant::now();
        let out = run_in(dir.path(), &args);
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("newmark-lcp: stopped after the time limit of 0.5 s")
                && text.contains("--time-limit"),
            "{text}"
        );
        // Both jobs (method and reference) were stopped, not run to the end
        // (1e7 steps): generous against a loaded machine.
        assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
        assert!(dir.path().join("out/checks.csv").is_file());
    }
    for (with, key) in [
        ("time_limit = -1", "study.time_limit"),
        ("time_limit = \"fast\"", "study.time_limit"),
        ("time_limit = 1e9", "study.time_limit"),
    ] {
        let (_dir, out) = bad_spec(
            "kind = \"gap-system\"",
            &format!("kind = \"gap-system\"\n{with}"),
        );
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{msg}");
        assert!(msg.contains(key) && msg.contains("seconds"), "{msg}");
    }
    for bad in ["0.5", "-1", "\"loose\"", "nan"] {
        let (_dir, out) = bad_spec(
            "kind = \"gap-system\"",
            &format!("kind = \"gap-system\"\nunresolved_per_tolerance = {bad}"),
        );
        let msg = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{msg}");
        assert!(
            msg.contains("study.unresolved_per_tolerance") && msg.contains(">= 1"),
            "{msg}"
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("x.toml"), SDOF).expect("write");
    for bad in ["0", "-3", "nan", "soon"] {
        let out = run_in(dir.path(), &["x.toml", "--time-limit", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--time-limit"), "{}", stderr(&out));
        assert!(!dir.path().join("results").exists());
    }
}
