//! A sharded run on a Slurm cluster (`PATH --slurm N`): the shell lines
//! that submit it, printed for the user to read and run (`bash -c "$(...)"`
//! runs them as they are).
//!
//! Two submissions: a job array `sbatch --array=0-(N-1)` whose task I runs
//! part I (`scripts/slurm/shard.sbatch`: `PATH --shard I/N --out
//! WORK/part-I`, with `RAYON_NUM_THREADS = SLURM_CPUS_PER_TASK`, one log
//! per task `WORK/logs/part-I.log`), then the merge
//! (`scripts/slurm/merge.sbatch`), held by `--dependency=afterok:<array>`
//! until every task has succeeded. A failed task is rerun alone with
//! `sbatch --array=I ... shard.sbatch` (same arguments), then the merge.
//! Slurm itself schedules; the harness only splits and merges.

use std::path::{Path, PathBuf};

/// What the submission needs.
#[derive(Debug, Clone)]
pub struct SlurmRun {
    /// The harness binary every task runs.
    pub bin: PathBuf,
    /// Study file or suite.
    pub spec: PathBuf,
    /// Number of parts N (array tasks).
    pub shards: usize,
    /// CPUs per task (`--cpus-per-task`): the part's worker threads.
    pub cpus_per_task: usize,
    /// Directory of the parts and the logs.
    pub work: PathBuf,
    /// The merged results.
    pub out: PathBuf,
    /// The merged report.
    pub report: PathBuf,
    /// Further arguments of every part (`--only`, `--time-limit`).
    pub part_args: Vec<String>,
}

/// The directory of the job scripts (in this source tree).
pub fn script_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm")
}

/// The parts' directory of a sharded run whose merged results go to
/// `out`: `<out>.parts` beside it.
pub fn work_dir(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "results".into());
    name.push(".parts");
    out.with_file_name(name)
}

/// `s` quoted for a POSIX shell when it needs it.
pub fn quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn q(p: &Path) -> String {
    quote(&p.to_string_lossy())
}

/// The shell lines that submit `run` (see the module doc); the last
/// `sbatch` prints the merge job's id.
pub fn commands(run: &SlurmRun) -> String {
    let scripts = script_dir();
    let n = run.shards;
    let work = q(&run.work);
    let extra: String = run
        .part_args
        .iter()
        .map(|a| format!(" {}", quote(a)))
        .collect();
    format!(
        "# {n} parts of {spec} on Slurm: an array of {n} tasks (one part each,\n\
         # {cpus} CPU(s) = worker threads per task), then the merge once all succeeded.\n\
         # A failed task I reruns alone: the first sbatch with --array=I, then the merge.\n\
         mkdir -p {work}/logs\n\
         jid=$(sbatch --parsable --job-name=contact-harness-parts --array=0-{last} --cpus-per-task={cpus} \
         --output={work}/logs/part-%a.log {shard} {bin} {spec} {n} {work}{extra})\n\
         sbatch --parsable --job-name=contact-harness-merge --dependency=afterok:$jid \
         --output={work}/logs/merge.log {merge} {bin} {n} {work} {out} {report}\n",
        spec = q(&run.spec),
        cpus = run.cpus_per_task,
        last = n.saturating_sub(1),
        shard = q(&scripts.join("shard.sbatch")),
        merge = q(&scripts.join("merge.sbatch")),
        bin = q(&run.bin),
        out = q(&run.out),
        report = q(&run.report),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_leaves_plain_paths_and_protects_the_rest() {
        assert_eq!(quote("experiments/quick.toml"), "experiments/quick.toml");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn commands_submit_an_array_and_a_dependent_merge() {
        let text = commands(&SlurmRun {
            bin: "/x/contact-harness".into(),
            spec: "experiments/quick.toml".into(),
            shards: 3,
            cpus_per_task: 2,
            work: "out.parts".into(),
            out: "out".into(),
            report: "rep".into(),
            part_args: vec!["--only".into(), "sdof gap".into()],
        });
        assert!(text.contains("--array=0-2 --cpus-per-task=2"), "{text}");
        assert!(
            text.contains("--output=out.parts/logs/part-%a.log"),
            "{text}"
        );
        assert!(
            text.contains(
                "/x/contact-harness experiments/quick.toml 3 out.parts --only 'sdof gap')"
            ),
            "{text}"
        );
        assert!(text.contains("--dependency=afterok:$jid"), "{text}");
        assert!(text.contains("merge.sbatch /x/contact-harness 3 out.parts out rep"));
        assert_eq!(work_dir(Path::new("/a/res")), PathBuf::from("/a/res.parts"));
    }
}
