//! What the command-line tests of the study kinds share: running a spec
//! in a temporary directory and asserting the exit-2 input errors.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the harness in `dir` with `args`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_contact-harness"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

/// Runs the harness on `spec` written as `s.toml` in a fresh directory
/// (results to `out`, report to `rep`).
pub fn run_spec(spec: &str) -> (tempfile::TempDir, Output) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("s.toml"), spec).expect("write spec");
    let out = run_in(dir.path(), &["s.toml", "--out", "out", "--report", "rep"]);
    (dir, out)
}

/// The process's standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// (value, passed) of every `checks.csv` row of `check`.
pub fn check_values(dir: &Path, check: &str) -> Vec<(f64, bool)> {
    let checks = std::fs::read_to_string(dir.join("out/checks.csv")).expect("checks.csv");
    checks
        .lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.len() > 5 && f[2] == check)
        .map(|f| (f[3].parse().expect("value"), f[5] == "true"))
        .collect()
}

/// For each (replace, with, expected): `spec` with the first `replace`
/// replaced by `with` exits 2 with a message that names the file, the
/// study `study` and every `expected` fragment, does not panic and writes
/// no results.
pub fn assert_input_errors(spec: &str, study: &str, cases: &[(&str, &str, &[&str])]) {
    for (replace, with, expected) in cases {
        assert!(
            spec.contains(replace),
            "test bug: `{replace}` not in the spec"
        );
        let (dir, out) = run_spec(&spec.replacen(replace, with, 1));
        let msg = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "`{with}`: exit code; stderr: {msg}"
        );
        assert!(
            msg.contains("s.toml") && msg.contains(study),
            "`{with}`: {msg}"
        );
        for e in *expected {
            assert!(msg.contains(e), "`{with}`: message lacks `{e}`: {msg}");
        }
        assert!(!msg.contains("panicked"), "`{with}` panicked: {msg}");
        assert!(
            !dir.path().join("out").exists(),
            "`{with}`: results written"
        );
    }
}

/// A small valid slider-crank study (the tests edit it).
pub const SLIDER_CRANK_SPEC: &str = r#"
[[study]]
name = "crank"
kind = "slider-crank"
[study.mechanism]
crank_length = 0.05
rod_length = 0.12
crank_mass = 0.30
crank_inertia = 1.0e-5
rod_mass = 0.087
rod_inertia = 1.044e-4
slider_mass = 0.14
[study.drive]
omega = 523.6
[study.joint]
model = "clearance"
[study.integrator]
method = "rk4"
dt = 1.0e-5
t_end = 0.001
"#;

/// A small valid stick-slip study (the tests edit it).
pub const STICK_SLIP_SPEC: &str = r#"
[[study]]
name = "belt"
kind = "stick-slip"
[study.system]
mass = 1.0
stiffness = 20.0
belt_speed = 0.1
normal_force = 9.81
[study.friction]
law = "coulomb"
static = 0.15
kinetic = 0.10
[study.integrator]
dt = 1.0e-3
t_end = 3.0
[study.variants.smooth]
law = "tanh"
static = 0.1
sharpness = 1.0e3
"#;

/// A minimal valid SDOF gap-system study (`tiny`, Newmark-LCP with Lemke
/// to t = 2 s): the tests edit it.
pub const SDOF_SPEC: &str = r#"
[[study]]
name = "tiny"
kind = "gap-system"
[study.system]
mass = [[1.0]]
damping = [[0.05]]
stiffness = [[1.0]]
[[study.system.gaps]]
direction = [1.0]
gap = 0.5
stiffness = 4.0
[study.excitation]
amplitude = [1.0]
omega = 0.8
[study.initial]
x = [0.0]
v = [0.0]
[study.integrator]
method = "newmark-lcp"
dt = 0.01
t_end = 2.0
alpha_b = 0.0
lcp_solver = "lemke"
"#;

/// Whether Valgrind can be used (`valgrind --version` runs). Without it a
/// notice naming `test` is printed, unless `REQUIRE_VALGRIND=1` (set by
/// `.ci/run`), which makes its absence a failure.
pub fn valgrind_available(test: &str) -> bool {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return true;
    }
    assert!(
        std::env::var("REQUIRE_VALGRIND").as_deref() != Ok("1"),
        "REQUIRE_VALGRIND=1 but `valgrind --version` failed (install Debian's valgrind package)"
    );
    eprintln!(
        "\n*** {test}: Valgrind not found: the instruction counts were NOT tested ***\n\
         *** (install Debian's `valgrind`; REQUIRE_VALGRIND=1, as in CI, makes this fail) ***\n"
    );
    false
}
