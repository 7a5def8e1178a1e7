//! Sharded runs through the CLI: the parts of a plan merged equal a single
//! run of it (timings and host fields aside, `common/results_diff.rs`), a
//! part rerun alone replaces its directory, and bad parts (missing,
//! duplicated, of another plan, of a changed spec, not parts) are refused
//! with exit 2 and nothing written.

#[path = "common/results_diff.rs"]
mod results_diff;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn harness(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_contact-harness"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binary runs")
}

fn ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Studies of the quick suite with references (shared across a dt sweep),
/// work-precision, speed-ups, claims and a sweep of cases: a few seconds.
const ONLY: [&str; 5] = [
    "sdof-gap",
    "convergence-quick",
    "slider-crank-ideal-quick",
    "valvetrain-speeds-quick",
    "friction-laws",
];

fn only_args() -> Vec<&'static str> {
    ONLY.iter().flat_map(|s| ["--only", *s]).collect()
}

#[test]
fn three_parts_merged_equal_a_single_run() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    let spec = repo().join("experiments/quick.toml");
    let spec = spec.to_str().expect("utf-8 path");
    let single = t.join("single");
    let mut args = vec![spec, "--out", single.to_str().unwrap(), "--report"];
    let single_rep = t.join("single-rep");
    args.push(single_rep.to_str().unwrap());
    args.extend(only_args());
    ok(&harness(t, &args), "single run");
    let mut parts = Vec::new();
    for i in 0..3 {
        let dir = format!("part-{i}");
        let shard = format!("{i}/3");
        let mut args = vec![spec, "--shard", &shard, "--out", &dir];
        args.extend(only_args());
        let o = harness(t, &args);
        ok(&o, &dir);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(stdout.contains(&format!("part {i}/3 of plan ")), "{stdout}");
        parts.push(dir);
    }
    // A part rerun alone (a failed array task) replaces its directory.
    let mut rerun = vec![spec, "--shard", "1/3", "--out", "part-1"];
    rerun.extend(only_args());
    ok(&harness(t, &rerun), "part 1 again");
    let listed: Vec<String> = std::fs::read_dir(t)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("part-1"))
        .collect();
    assert_eq!(listed, vec!["part-1".to_string()], "no leftovers");
    // Every job in exactly one part, each part with some of them.
    let mut jobs = Vec::new();
    for p in &parts {
        let f: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(t.join(p).join("shard.json")).unwrap())
                .unwrap();
        let list = f["jobs"].as_array().unwrap();
        assert!(!list.is_empty(), "{p} has jobs");
        jobs.extend(list.iter().map(|j| j.to_string()));
    }
    let n = jobs.len();
    jobs.sort();
    jobs.dedup();
    assert_eq!(jobs.len(), n, "a job in two parts");
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().rev().map(String::as_str));
    merge.extend(["--out", "merged", "--report", "merged-rep"]);
    ok(&harness(t, &merge), "merge");
    let (diffs, compared) = results_diff::differences(&single, &t.join("merged"));
    assert!(diffs.is_empty(), "{diffs:#?}");
    assert!(compared > 30, "only {compared} files compared");
    let manifest = std::fs::read_to_string(t.join("merged/manifest.json")).unwrap();
    assert!(manifest.contains("\"shards\""), "{manifest}");
    assert!(t.join("merged-rep/index.html").is_file());
    // The comparison can fail: one digit of one case CSV changed.
    let csv = t.join("merged/sdof-gap/sdof-gap.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let pos = text.find(|c: char| c.is_ascii_digit() && c != '0').unwrap();
    let mut bytes = text.into_bytes();
    bytes[pos] = if bytes[pos] == b'9' {
        b'8'
    } else {
        bytes[pos] + 1
    };
    std::fs::write(&csv, bytes).unwrap();
    let (diffs, _) = results_diff::differences(&single, &t.join("merged"));
    assert_eq!(diffs, vec!["differs: sdof-gap/sdof-gap.csv".to_string()]);
}

/// A spec of one cheap study in `dir` (a copy of `sdof-gap`, beside a
/// link to the reference data it reads).
fn small_spec(dir: &Path) -> &'static str {
    let text = std::fs::read_to_string(repo().join("experiments/sdof-gap.toml")).unwrap();
    std::fs::create_dir(dir.join("experiments")).unwrap();
    std::fs::write(dir.join("experiments/s.toml"), text).unwrap();
    std::os::unix::fs::symlink(repo().join("reference-data"), dir.join("reference-data")).unwrap();
    "experiments/s.toml"
}

fn assert_refused(dir: &Path, args: &[&str], expected: &[&str]) {
    let o = harness(dir, args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: `{e}` not in: {err}");
    }
    assert!(!dir.join("out").exists(), "{args:?}: results written");
    assert!(!dir.join("rep").exists(), "{args:?}: report written");
}

#[test]
fn missing_duplicate_foreign_and_stale_parts_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    let spec = small_spec(t);
    for (i, n) in [(0, 3), (1, 3), (2, 3), (0, 2)] {
        let out = format!("p{i}of{n}");
        ok(
            &harness(t, &[spec, "--shard", &format!("{i}/{n}"), "--out", &out]),
            &out,
        );
    }
    let tail = ["--out", "out", "--report", "rep"];
    let with = |dirs: &[&'static str]| -> Vec<&'static str> {
        std::iter::once("merge")
            .chain(dirs.iter().copied())
            .chain(tail)
            .collect()
    };
    assert_refused(
        t,
        &with(&["p0of3", "p2of3"]),
        &["p0of3", "part(s) 1/3 missing", "given: 0/3, 2/3"],
    );
    assert_refused(
        t,
        &with(&["p0of3", "p1of3", "p1of3", "p2of3"]),
        &["part 1/3 given twice", "p1of3"],
    );
    assert_refused(
        t,
        &with(&["p0of3", "p1of3", "p2of3", "p0of2"]),
        &["p0of2", "a part of another plan", "number of parts is 2"],
    );
    std::fs::create_dir(t.join("empty")).unwrap();
    assert_refused(
        t,
        &with(&["p0of3", "empty"]),
        &["empty", "not a part of a sharded run", "--shard I/N"],
    );
    // Each of the three merges alone (positive control of the above).
    ok(&harness(t, &with(&["p0of3", "p1of3", "p2of3"])), "merge");
    std::fs::remove_dir_all(t.join("out")).unwrap();
    std::fs::remove_dir_all(t.join("rep")).unwrap();
    // The spec changed after the parts ran.
    let text = std::fs::read_to_string(t.join(spec)).unwrap();
    let changed = text.replace("omega = 0.8", "omega = 0.81");
    assert_ne!(changed, text, "test bug: the spec has no omega = 0.8");
    std::fs::write(t.join(spec), changed).unwrap();
    assert_refused(
        t,
        &with(&["p0of3", "p1of3", "p2of3"]),
        &["changed since", "rerun the parts"],
    );
    // A job file that is not one.
    std::fs::write(t.join(spec), text).unwrap();
    std::fs::write(t.join("p1of3/jobs.msgpack"), b"not msgpack").unwrap();
    assert_refused(
        t,
        &with(&["p0of3", "p1of3", "p2of3"]),
        &["p1of3", "jobs.msgpack"],
    );
}

#[test]
fn bad_shard_arguments_and_a_results_directory_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    let spec = small_spec(t);
    for bad in ["3/3", "0/0", "x/2", "1"] {
        let o = harness(t, &[spec, "--shard", bad, "--out", "out"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("0 <= I < N"), "{bad}: {err}");
        assert!(!t.join("out").exists());
    }
    // A part never replaces a run's results (and their history).
    std::fs::create_dir_all(t.join("results/history")).unwrap();
    std::fs::write(t.join("results/checks.csv"), "x").unwrap();
    let o = harness(t, &[spec, "--shard", "0/2", "--out", "results"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("without a shard.json"), "{err}");
    assert!(t.join("results/checks.csv").is_file());
    // --slurm prints the array and the dependent merge.
    let o = harness(t, &[spec, "--slurm", "4", "--cpus-per-task", "2"]);
    ok(&o, "--slurm");
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("--array=0-3 --cpus-per-task=2"), "{s}");
    assert!(s.contains("--dependency=afterok:$jid"), "{s}");
    assert!(
        s.contains("shard.sbatch") && s.contains("merge.sbatch"),
        "{s}"
    );
}
