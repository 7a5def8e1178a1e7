//! `compare` and `bisect` find injected changes (issue: performance over
//! commits). In a scratch repository at HEAD:
//! - the base B is HEAD with extra work in the chain's sparse Newmark step
//!   (newmark-ssn): head is about 2x faster there;
//! - eight commits follow; the fifth removes that work and slows the valve
//!   spring's penalty BDF step by about 5 %; the others change a document.
//!
//! `compare B HEAD` in 3 interleaved rounds must name exactly those two
//! methods (the penalty step slower, the sparse step faster; no other
//! benchmark's instruction count or estimated cycles) and exit 1 at a 2 %
//! threshold; `compare HEAD HEAD --no-suite` must flag nothing and exit 0;
//! `bisect B HEAD --benchmark valve-spring/penalty-bdf1-step` must find the
//! fifth commit. The builds of the scratch revisions (two source trees)
//! reuse the dependencies of this test's own build.
//!
//! Needs git and Valgrind; without Valgrind (and without
//! `REQUIRE_VALGRIND=1`, set by `.ci/run`) it prints a notice and passes.

use std::path::Path;
use std::process::Command;

mod common;

/// The slowed method's kernel and the injection into its step: passes over
/// the state (about 2.7 instructions an entry, 35 entries) adding about 5 %
/// to the step's 0.32 million instructions.
const SLOWED_KERNEL: &str = "valve-spring/penalty-bdf1-step";
const SLOWED_FILE: &str = "src/integrators/bdf_contact/mod.rs";
const SLOWED_ANCHOR: &str = "        let (a1, a2, b) = Self::coefficients(order, omega);\n";
const SLOWED_CODE: &str = "        if matches!(self.contact, ContactModel::Penalty { .. }) {
            let mut injected = 0.0f64;
            for _ in 0..170 {
                for &x in std::hint::black_box(&history[0].q) {
                    injected += x * x;
                }
            }
            std::hint::black_box(injected);
        }
";
/// The sped-up method's kernel and the work the base has on top: passes
/// over the step's right-hand side (1000 entries) about as costly as the
/// step's own 0.85 million instructions.
const FASTER_KERNEL: &str = "chain-1000/newmark-ssn-step";
const FASTER_FILE: &str = "src/integrators/newmark.rs";
const FASTER_ANCHOR: &str =
    "        // Warm start: the previous increment (its active set starts the iteration).\n";
const FASTER_CODE: &str = "        {
            let mut injected = 0.0f64;
            for _ in 0..320 {
                for &x in std::hint::black_box(r) {
                    injected += x * x;
                }
            }
            std::hint::black_box(injected);
        }
";
/// The suite the comparison times: both methods' studies, small.
const SUITE: &str = "include = [\"../sdof-gap.toml\", \"../quick/valve-spring-quick.toml\"]\n";
/// Benchmarks compared: the suite's jobs and the kernels but the chain's
/// dense LCP step (a minute under Valgrind, untouched here).
const FILTERS: [&str; 7] = [
    "valve-spring",
    "newmark-ssn",
    "sdof-gap",
    "slider-crank",
    "belt",
    "shrouded-blades",
    "lcp-collection",
];

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn inject(dir: &Path, file: &str, anchor: &str, code: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("source");
    assert_eq!(
        text.matches(anchor).count(),
        1,
        "{file}: the injection's anchor is not there once (update this test): {anchor:?}"
    );
    std::fs::write(&path, text.replacen(anchor, &format!("{code}{anchor}"), 1)).expect("write");
}

fn remove(dir: &Path, file: &str, code: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("source");
    assert!(text.contains(code));
    std::fs::write(&path, text.replacen(code, "", 1)).expect("write");
}

fn commit(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

/// The scratch repository: HEAD's tree but the results and the report,
/// then B and the eight commits (module doc). Returns (B, the fifth).
fn scratch_repository(dir: &Path) -> (String, String) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let archive = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "git -C '{}' archive HEAD -- . ':!results' ':!report' | tar -x -C '{}'",
            repo.display(),
            dir.display()
        ))
        .status()
        .expect("git archive runs");
    assert!(archive.success());
    git(dir, &["init", "-q"]);
    git(dir, &["config", "user.email", "test@example.invalid"]);
    git(dir, &["config", "user.name", "compare test"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
    commit(dir, "HEAD's tree");
    inject(dir, FASTER_FILE, FASTER_ANCHOR, FASTER_CODE);
    std::fs::write(dir.join("experiments/quick/compare-proof.toml"), SUITE).expect("suite");
    let base = commit(dir, "B: extra work in the sparse step");
    let mut fifth = String::new();
    for i in 1..=8 {
        if i == 5 {
            remove(dir, FASTER_FILE, FASTER_CODE);
            inject(dir, SLOWED_FILE, SLOWED_ANCHOR, SLOWED_CODE);
            fifth = commit(
                dir,
                "the sparse step 2x faster, the penalty step 5 % slower",
            );
        } else {
            std::fs::write(dir.join("NOTES.md"), format!("note {i}\n")).expect("note");
            commit(dir, &format!("note {i}"));
        }
    }
    (base, fifth)
}

/// compare.csv's rows other than `unchanged`: (benchmark, measure,
/// ratio, verdict).
fn changes(csv: &Path) -> Vec<(String, String, f64, String)> {
    let text = std::fs::read_to_string(csv).expect("compare.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("benchmark,measure,base,head,ratio,lo,hi,verdict")
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert!(!rows.is_empty(), "compare.csv has no rows");
    rows.into_iter()
        .filter(|f| f[7] != "unchanged")
        .map(|f| {
            (
                f[0].clone(),
                f[1].clone(),
                f[4].parse().expect("ratio"),
                f[7].clone(),
            )
        })
        .collect()
}

/// Runs the harness in `dir` with `args`, asserts its exit code and
/// returns its standard output (printed, for `--nocapture`).
fn run_expecting(dir: &Path, args: &[&str], code: i32) -> String {
    let out = common::run_in(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("$ contact-harness {}\n{stdout}", args.join(" "));
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}:\n{stdout}\n{}",
        common::stderr(&out)
    );
    stdout
}

/// `compare BASE HEAD` of the proof suite in 3 rounds at a 2 % threshold
/// into `out`.
fn compare_args<'a>(base: &'a str, out: &'a str) -> Vec<&'a str> {
    let mut args = vec![
        "compare",
        base,
        "HEAD",
        "--suite",
        "experiments/quick/compare-proof.toml",
        "--rounds",
        "3",
        "--threshold",
        "2",
        "--out",
        out,
    ];
    for f in FILTERS {
        args.extend(["--benchmark", f]);
    }
    args
}

#[test]
fn compare_names_the_injected_changes_and_bisect_finds_their_commit() {
    if !common::valgrind_available("tests/compare_cli.rs") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (base, fifth) = scratch_repository(dir.path());
    // A 5 % slowdown at a 2 % threshold: exit 1.
    let stdout = run_expecting(dir.path(), &compare_args(&base, "cmp"), 1);
    let changed = changes(&dir.path().join("cmp/compare.csv"));
    let kernel = |k: &str| format!("kernels/{k}");
    let slowed = changed
        .iter()
        .find(|c| c.0 == kernel(SLOWED_KERNEL) && c.1 == "instructions")
        .unwrap_or_else(|| panic!("{SLOWED_KERNEL} not flagged:\n{stdout}"));
    assert!(
        slowed.3 == "slower" && (1.02..1.15).contains(&slowed.2),
        "{slowed:?}\n{stdout}"
    );
    let faster = changed
        .iter()
        .find(|c| c.0 == kernel(FASTER_KERNEL) && c.1 == "instructions")
        .unwrap_or_else(|| panic!("{FASTER_KERNEL} not flagged:\n{stdout}"));
    assert!(
        faster.3 == "faster" && (0.35..0.65).contains(&faster.2),
        "{faster:?}\n{stdout}"
    );
    // Nothing else: every flagged row of the two methods (the penalty
    // step's kernel and jobs, the sparse step's) is in its direction, and
    // no other benchmark's deterministic count is flagged. Other jobs' CPU
    // times are not asserted: between two builds they move by code layout
    // (sdof-gap's event-driven job read 0.91x once), and at 3 rounds a
    // job whose CPU time is bimodal across processes is flagged by chance
    // (0.55x and 1.47x on unchanged code): the rule's false positives,
    // stated in docs/compare.md, not a defect the test could pin.
    for c in &changed {
        let penalty = c.0.contains("penalty");
        let sparse = c.0.contains("newmark-ssn");
        if penalty || sparse {
            assert!(
                (penalty && c.3 == "slower") || (sparse && c.3 == "faster"),
                "flagged in the wrong direction: {c:?}\n{stdout}"
            );
        } else {
            assert_eq!(c.1, "cpu_s", "flagged, but not injected: {c:?}\n{stdout}");
        }
    }

    // The same revision against itself: no count moves (deterministic
    // measures only, for the reason above).
    let mut same = compare_args("HEAD", "same");
    same.push("--no-suite");
    let stdout = run_expecting(dir.path(), &same, 0);
    let changed = changes(&dir.path().join("same/compare.csv"));
    assert!(
        changed.is_empty(),
        "HEAD against HEAD flagged {changed:?}\n{stdout}"
    );

    // Bisect among the eight commits after B.
    let bisect = [
        "bisect",
        &base,
        "HEAD",
        "--benchmark",
        SLOWED_KERNEL,
        "--threshold",
        "2",
        "--out",
        "bis",
    ];
    let stdout = run_expecting(dir.path(), &bisect, 0);
    assert!(
        stdout.contains(&format!("first commit slower beyond 2 %: {fifth}")),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(dir.path().join("bis/bisect.csv")).expect("bisect.csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    // GOOD, BAD and at most ⌈log2 8⌉ = 3 commits between.
    assert!(rows.len() <= 5, "{csv}");
    assert!(
        rows.iter()
            .any(|r| r.starts_with(&fifth) && r.ends_with(",first-bad")),
        "{csv}"
    );

    // Bad input: exit 2 naming the revision.
    let out = common::run_in(dir.path(), &["compare", "no-such-revision", "--no-suite"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("no-such-revision"));
}
