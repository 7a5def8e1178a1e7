//! The quick suite on a real Slurm cluster: a one-node cluster on
//! localhost (`scripts/slurm/local-cluster.sh`: munged, slurmctld and
//! slurmd under a temporary directory, stopped at the end), the commands
//! `contact-harness experiments/quick.toml --slurm 3` prints (a 3-task job
//! array, then the merge with `--dependency=afterok`), and the merged
//! results compared with a single run (`common/results_diff.rs`: byte for
//! byte, timings and host fields aside).
//!
//! A cluster already running (`SLURM_CONF` set and `sinfo` answering, as
//! `.ci/run` arranges) is used as it is.
//!
//! Skipped with a notice where Slurm cannot start (not installed, not
//! root, the daemons do not come up); with `SLURM_REQUIRED=1` (set by
//! `.ci/run`) that is a failure.

#[path = "common/results_diff.rs"]
mod results_diff;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn script() -> PathBuf {
    repo().join("scripts/slurm/local-cluster.sh")
}

/// Skips (returns) or, with SLURM_REQUIRED=1, fails.
fn unavailable(why: &str) {
    if std::env::var("SLURM_REQUIRED").is_ok_and(|v| v == "1") {
        panic!("SLURM_REQUIRED=1 but Slurm cannot run here: {why}");
    }
    eprintln!("NOTICE: tests/slurm.rs skipped: {why} (set SLURM_REQUIRED=1 to fail instead)");
}

/// The cluster: one this test started (stopped when dropped, also when
/// the test fails), or the one `SLURM_CONF` names if it answers (`.ci/run`
/// starts one).
struct Cluster {
    /// The directory of a cluster of this test's own.
    own: Option<tempfile::TempDir>,
    conf: PathBuf,
}

impl Cluster {
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    fn log(&self) -> PathBuf {
        self.conf.with_file_name("log").join("slurmctld.log")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(dir) = &self.own {
            let _ = Command::new(script()).arg("stop").arg(dir.path()).status();
        }
    }
}

fn on_path(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn start() -> Result<Cluster, String> {
    for p in ["munged", "slurmctld", "slurmd", "sbatch", "squeue"] {
        if !on_path(p) {
            return Err(format!("`{p}` not found (apt-get install slurm-wlm munge)"));
        }
    }
    if let Some(conf) = std::env::var_os("SLURM_CONF").map(PathBuf::from) {
        let up = Command::new("sinfo")
            .args(["-h", "-o", "%T"])
            .env("SLURM_CONF", &conf)
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
        if up {
            return Ok(Cluster { own: None, conf });
        }
    }
    // The daemons run as root (SlurmUser=root).
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Err("the local cluster runs its daemons as root, and this is not root".into());
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    // Ports of this process's own, away from Slurm's defaults.
    let base = 20_000 + (std::process::id() % 10_000) * 2;
    let out = Command::new(script())
        .arg("start")
        .arg(dir.path())
        .env("SLURMCTLD_PORT", base.to_string())
        .env("SLURMD_PORT", (base + 1).to_string())
        .output()
        .map_err(|e| e.to_string())?;
    let cluster = Cluster {
        conf: dir.path().join("slurm.conf"),
        own: Some(dir),
    };
    if !out.status.success() {
        return Err(format!(
            "the cluster did not start: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(cluster)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Waits until Slurm has none of `jobs` queued or running.
fn wait(cluster: &Cluster, jobs: &[String], limit: Duration) -> Result<(), String> {
    let start = Instant::now();
    loop {
        let o = cluster
            .command("squeue")
            .args(["-h", "-o", "%i %T", "-j", &jobs.join(",")])
            .output()
            .map_err(|e| e.to_string())?;
        let queued = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if o.status.success() && queued.is_empty() {
            return Ok(());
        }
        if start.elapsed() > limit {
            let _ = cluster.command("scancel").args(jobs).status();
            return Err(format!("jobs still queued after {limit:?}: {queued}"));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

/// Submits the printed sbatch `commands` in `t` and waits for the array
/// and the merge (15 minutes at most); panics with the logs otherwise.
fn submit_and_wait(cluster: &Cluster, t: &Path, commands: &str, logs: &Path) {
    let submitted = cluster
        .command("bash")
        .current_dir(t)
        .args(["-c", &format!("set -e\n{commands}echo array=$jid")])
        .output()
        .expect("bash");
    assert!(
        submitted.status.success(),
        "{commands}\n{}",
        text(&submitted)
    );
    let out = String::from_utf8_lossy(&submitted.stdout).into_owned();
    let merge_id = out.lines().next().unwrap_or("").trim().to_string();
    let array_id = out
        .lines()
        .find_map(|l| l.strip_prefix("array="))
        .unwrap_or("")
        .to_string();
    assert!(
        !merge_id.is_empty() && !array_id.is_empty(),
        "job ids: {out}"
    );
    if let Err(e) = wait(cluster, &[array_id, merge_id], Duration::from_secs(900)) {
        panic!(
            "{e}\nslurmctld log:\n{}\nmerge log:\n{}",
            log(&cluster.log()),
            log(&logs.join("merge.log"))
        );
    }
}

/// The quick robustness run: a few samples of a quick study's assumption
/// box as a 2-task array and a merge, equal to the same run made at once.
fn robustness_on_the_cluster(cluster: &Cluster, t: &Path, bin: &str, spec: &Path) {
    let study = "valvetrain-spring-designs-quick";
    let args = ["--only", study, "--robustness", "3"];
    let single = Command::new(bin)
        .current_dir(t)
        .arg(spec)
        .args(args)
        .args(["--out", "rb-single", "--report", "rb-single-rep"])
        .output()
        .expect("single robustness run");
    assert!(single.status.success(), "{}", text(&single));
    let printed = Command::new(bin)
        .current_dir(t)
        .arg(spec)
        .args(args)
        .args([
            "--slurm",
            "2",
            "--out",
            "rb-merged",
            "--report",
            "rb-merged-rep",
        ])
        .output()
        .expect("--slurm");
    assert!(printed.status.success(), "{}", text(&printed));
    let commands = String::from_utf8_lossy(&printed.stdout).into_owned();
    assert!(commands.contains("--robustness 3"), "{commands}");
    submit_and_wait(cluster, t, &commands, &t.join("rb-merged.parts/logs"));
    let read = |dir: &str, file: &str| {
        std::fs::read_to_string(t.join(dir).join(file))
            .unwrap_or_else(|e| panic!("{dir}/{file}: {e}"))
    };
    let table = format!("{study}/robustness.csv");
    assert_eq!(read("rb-single", &table), read("rb-merged", &table));
    assert_eq!(read("rb-single", &table).lines().count(), 4);
    // claims.csv: the same holds_in and sentence (its measured values, the
    // last columns but four, are equal for this claim too: a count).
    assert_eq!(
        read("rb-single", "claims.csv"),
        read("rb-merged", "claims.csv")
    );
    assert!(read("rb-merged", "claims.csv").contains("of 3 samples of the plausible range"));
    eprintln!("slurm: the robustness run as 2 array tasks and the merge equals the single run");
}

#[test]
fn the_quick_suite_as_a_slurm_array_and_merge_equals_a_single_run() {
    let cluster = match start() {
        Ok(c) => c,
        Err(why) => return unavailable(&why),
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path();
    let bin = env!("CARGO_BIN_EXE_contact-harness");
    let spec = repo().join("experiments/quick.toml");
    // The single run, beside the cluster's jobs.
    let single = Command::new(bin)
        .current_dir(t)
        .arg(&spec)
        .args(["--out", "single", "--report", "single-rep"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("single run starts");
    let printed = Command::new(bin)
        .current_dir(t)
        .arg(&spec)
        .args(["--slurm", "3", "--out", "merged", "--report", "merged-rep"])
        .output()
        .expect("--slurm");
    assert!(printed.status.success(), "{}", text(&printed));
    let commands = String::from_utf8_lossy(&printed.stdout).into_owned();
    let logs = t.join("merged.parts/logs");
    submit_and_wait(&cluster, t, &commands, &logs);
    let single = single.wait_with_output().expect("single run");
    assert!(single.status.success(), "single run: {}", text(&single));
    for i in 0..3 {
        let l = log(&logs.join(format!("part-{i}.log")));
        assert!(
            l.contains(&format!("part {i}/3 of plan ")),
            "task {i}:\n{l}"
        );
    }
    let merge_log = log(&logs.join("merge.log"));
    assert!(
        t.join("merged/manifest.json").is_file(),
        "no merged results; merge log:\n{merge_log}"
    );
    let (diffs, compared) = results_diff::differences(&t.join("single"), &t.join("merged"));
    assert!(diffs.is_empty(), "{diffs:#?}\nmerge log:\n{merge_log}");
    assert!(compared > 100, "only {compared} files compared");
    assert!(t.join("merged-rep/index.html").is_file());
    assert!(t.join("merged/history/history.csv").is_file());
    eprintln!("slurm: 3 array tasks and the merge equal the single run ({compared} files)");
    robustness_on_the_cluster(&cluster, t, bin, &spec);
}
