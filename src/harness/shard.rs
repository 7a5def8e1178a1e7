//! Sharded runs: the I-th of N balanced parts of a plan's jobs
//! (`PATH --shard I/N --out DIR`), for a Slurm job array whose task
//! `SLURM_ARRAY_TASK_ID = I` runs part I (`harness::slurm`); the parts are
//! combined by `harness::merge`.
//!
//! **Jobs.** A plan's jobs are those of a single run
//! ([`runner::plan_jobs`]): every method of every case and every case's
//! reference (one per reference key). A job reads nothing another job
//! writes: the scoring of a case's methods against its reference
//! ([`runner::finish_case`]), the sweep analysis, checks and claims all run
//! after every job has ended, in the merge, on the jobs' stored results. A
//! jump bisection is a single method job (the valve-train kind bisects
//! inside `run_method`). So a job is the unit of sharding and dependent
//! jobs need no placement: the merge orders them.
//!
//! **Balance.** Each job has a cost estimate ([`job_cost`]): the kind's own
//! ([`crate::harness::study::Study::job_cost`]) or else the time steps it
//! will take, `t_end / dt` of its case's settings (1 when the case has
//! neither). The jobs are assigned by the longest-processing-time rule
//! (R. L. Graham, "Bounds on multiprocessing timing anomalies", SIAM J.
//! Appl. Math. 17, 1969): in order of decreasing cost (ties: plan order),
//! each to the part with the least estimated cost so far (ties: the lowest
//! index). The result is deterministic, and its largest part is within
//! 4/3 - 1/(3N) of the best possible makespan for the estimated costs.
//!
//! **Identity.** A part says which plan it belongs to: the hash of the
//! resolved plan ([`plan_identity`]: every study's resolved spec as the
//! manifest shows it, the job time limits), the git commit (and dirty
//! flag) of the binary, the index I and the count N, and the jobs it holds.
//!
//! **Files** of a part's directory: `shard.json` (the [`ShardFile`]:
//! identity, spec path, jobs with their costs and whether each succeeded,
//! host, date, wall time) and `jobs.msgpack` (each job's result,
//! MessagePack: every f64 bit-exact, NaN included). The directory is
//! written whole (staged, then swapped in): a killed part leaves no partial
//! directory, and a rerun replaces its directory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::error::OutputError;
use crate::harness::atomic::{self, StagedDir};
use crate::harness::registry::Registry;
use crate::harness::runner::{self, Job, JobId, JobResult, PlannedStudy, RunError, RunOptions};

/// Version of the part format (`shard.json`, `jobs.msgpack`).
pub const FORMAT: u32 = 1;
/// Name of the part's description file.
pub const SHARD_FILE: &str = "shard.json";
/// Name of the part's job results file.
pub const JOBS_FILE: &str = "jobs.msgpack";
/// Largest number of parts accepted.
pub const MAX_SHARDS: usize = 100_000;

/// Which part of how many: `I/N` with `0 <= I < N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardSpec {
    /// The part's index I (a Slurm array's `SLURM_ARRAY_TASK_ID`).
    pub index: usize,
    /// The number of parts N.
    pub count: usize,
}

impl std::str::FromStr for ShardSpec {
    type Err = String;

    /// Parses `I/N`; the message says what is allowed.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "`{s}`: expected I/N with integers 0 <= I < N <= {MAX_SHARDS} (e.g. 0/3; I is the Slurm array's SLURM_ARRAY_TASK_ID with --array=0-(N-1))"
            )
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }
}

/// A job as a part names it: study, case, and `None` for the case's
/// reference or the method's label.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JobName {
    /// Study name.
    pub study: String,
    /// Case name.
    pub case: String,
    /// The method's label, or `None` for the reference.
    pub method: Option<String>,
}

impl std::fmt::Display for JobName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = self.method.as_deref().unwrap_or("reference");
        write!(f, "{}/{} {what}", self.study, self.case)
    }
}

/// The name of job `id` of `plan`.
pub fn job_name(plan: &[PlannedStudy], id: JobId) -> JobName {
    let (s, c, job) = id;
    JobName {
        study: plan[s].spec.name.clone(),
        case: plan[s].spec.cases[c].name.clone(),
        method: match job {
            Job::Reference => None,
            Job::Method(_) => Some(runner::job_label(plan, id).to_string()),
        },
    }
}

/// One job of a part, as `shard.json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardJob {
    /// The job.
    #[serde(flatten)]
    pub name: JobName,
    /// Its cost estimate (see [`job_cost`]).
    pub cost: f64,
    /// Whether it succeeded (a failed job is a result too: the merge
    /// reports it as a failed `solver` check, as a single run does).
    pub ok: bool,
}

/// `shard.json`: which part of which plan a directory holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// [`FORMAT`].
    pub format: u32,
    /// The part's index I.
    pub shard: usize,
    /// The number of parts N.
    pub shards: usize,
    /// The plan's hash ([`plan_identity`]).
    pub plan_hash: String,
    /// Git commit of the binary's source tree.
    pub commit: String,
    /// Whether that tree had uncommitted changes.
    pub dirty: bool,
    /// The study file or suite as given on the command line.
    pub spec: String,
    /// The same, absolute (used by the merge when `spec` does not resolve
    /// from its working directory).
    pub spec_absolute: String,
    /// `--only` studies (all when empty).
    pub only: Vec<String>,
    /// `--time-limit` in seconds, if given.
    pub time_limit_s: Option<f64>,
    /// `--robustness N`, if given (a part of an older format has none).
    #[serde(default)]
    pub robustness: Option<usize>,
    /// Host that ran the part.
    pub host: String,
    /// UTC date of the part's start, RFC 3339.
    pub date: String,
    /// Worker threads the part ran its jobs on.
    pub threads: usize,
    /// Sum of its jobs' cost estimates.
    pub estimated_cost: f64,
    /// Wall seconds of its jobs.
    pub wall_s: f64,
    /// Thread CPU seconds of the calibration kernel timed before and after
    /// its jobs (harness::kernels::calibration): the merge pools the parts'
    /// samples into the merged run's unit of CPU time.
    pub calibration_samples: Vec<f64>,
    /// The share of its machine's CPU other processes took while its jobs
    /// ran (harness::kernels::load); the merge keeps the largest.
    #[serde(default)]
    pub others_cpu_share: Option<f64>,
    /// Its jobs, in plan order.
    pub jobs: Vec<ShardJob>,
}

/// `jobs.msgpack`: each job of a part with its result.
pub type JobRecords = Vec<(JobName, JobResult)>;

/// The identity of a plan: its resolved form (every study's spec as the
/// manifest shows it, with its job time limit) and the FNV-1a 64-bit hash
/// of that JSON text, in hex.
pub fn plan_identity(plan: &[PlannedStudy]) -> (serde_json::Value, String) {
    let studies: Vec<serde_json::Value> = plan
        .iter()
        .map(|p| {
            serde_json::json!({
                "spec": crate::harness::spec_view::spec_to_json(p),
                "time_limit_s": p.time_limit.as_secs_f64(),
            })
        })
        .collect();
    let value = serde_json::Value::Array(studies);
    let text = value.to_string();
    (value, format!("{:016x}", fnv1a64(text.as_bytes())))
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325,
/// prime 0x100000001b3): a stable hash of the plan text, to name it.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The cost estimate of job `(s, c, job)`: the kind's, else the time
/// steps of its case ([`estimated_steps`]), at least 1.
pub fn job_cost(plan: &[PlannedStudy], (s, c, job): JobId) -> f64 {
    let p = &plan[s];
    let method = match job {
        Job::Reference => None,
        Job::Method(m) => Some(m),
    };
    p.study
        .job_cost(c, method)
        .filter(|x| x.is_finite() && *x > 0.0)
        .unwrap_or_else(|| estimated_steps(&p.spec.cases[c].table))
        .max(1.0)
}

/// The time steps `t_end / dt` of the first table (depth first, in key
/// order) of `table` that has both as positive numbers; 1 if none has.
pub fn estimated_steps(table: &toml::Table) -> f64 {
    fn number(v: Option<&toml::Value>) -> Option<f64> {
        match v? {
            toml::Value::Float(f) => Some(*f),
            toml::Value::Integer(i) => Some(*i as f64),
            _ => None,
        }
    }
    fn find(t: &toml::Table) -> Option<f64> {
        if let (Some(t_end), Some(dt)) = (number(t.get("t_end")), number(t.get("dt")))
            && t_end > 0.0
            && dt > 0.0
        {
            return Some(t_end / dt);
        }
        t.values().find_map(|v| match v {
            toml::Value::Table(inner) => find(inner),
            _ => None,
        })
    }
    find(table).filter(|x| x.is_finite()).unwrap_or(1.0)
}

/// The part (0..n) of each job of cost `costs[j]`: longest processing time
/// first (see the module doc); deterministic.
pub fn partition(costs: &[f64], n: usize) -> Vec<usize> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    let mut load = vec![0.0_f64; n];
    let mut part = vec![0; costs.len()];
    for j in order {
        let k = (0..n)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .expect("n >= 1");
        load[k] += costs[j];
        part[j] = k;
    }
    part
}

/// The jobs of part `shard` of `plan`, in plan order, with their costs.
pub fn shard_jobs(plan: &[PlannedStudy], shard: ShardSpec) -> Vec<(JobId, f64)> {
    let (jobs, _) = runner::plan_jobs(plan);
    let costs: Vec<f64> = jobs.iter().map(|&j| job_cost(plan, j)).collect();
    let part = partition(&costs, shard.count);
    jobs.into_iter()
        .zip(costs)
        .zip(part)
        .filter(|&(_, k)| k == shard.index)
        .map(|(jc, _)| jc)
        .collect()
}

/// What a part did, for the command line.
#[derive(Debug, Clone)]
pub struct ShardSummary {
    /// Its `shard.json`.
    pub file: ShardFile,
    /// The jobs of the whole plan.
    pub plan_jobs: usize,
    /// The failed jobs' names and errors.
    pub failures: Vec<(JobName, String)>,
}

/// Why a part or a merge could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// The parts given (or the output directory of a part) cannot be used:
    /// bad input, exit code 2.
    #[error("{}: {message}", dir.display())]
    Parts {
        /// The directory at fault.
        dir: PathBuf,
        /// What is wrong and what is expected.
        message: String,
    },
    /// Planning or writing failed as in a single run.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl From<crate::error::InputError> for ShardError {
    fn from(e: crate::error::InputError) -> Self {
        ShardError::Run(RunError::Input(e))
    }
}

impl From<OutputError> for ShardError {
    fn from(e: OutputError) -> Self {
        ShardError::Run(RunError::Output(e))
    }
}

impl ShardError {
    /// The exit code: 2 for bad input, 1 when output could not be written.
    pub fn exit_code(&self) -> u8 {
        match self {
            ShardError::Parts { .. } | ShardError::Run(RunError::Input(_)) => 2,
            ShardError::Run(RunError::Output(_)) => 1,
        }
    }
}

/// Worker threads for the jobs: `RAYON_NUM_THREADS` if set, else Slurm's
/// `SLURM_CPUS_PER_TASK` (`sbatch --cpus-per-task`), else rayon's default
/// (the logical cores). Sets rayon's global pool once; returns its size.
pub fn configure_threads() -> usize {
    if std::env::var_os("RAYON_NUM_THREADS").is_none()
        && let Some(n) = std::env::var("SLURM_CPUS_PER_TASK")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
    {
        // Fails only if the pool exists already: then it stays as it is.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    rayon::current_num_threads()
}

/// Runs part `shard` of the plan of `options` into `options.out` (its own
/// directory: it must not exist, or hold a part already, which is
/// replaced). `--report` is not used: the merge writes the report.
pub fn run_shard(
    kinds: &Registry,
    options: &RunOptions,
    shard: ShardSpec,
) -> Result<ShardSummary, ShardError> {
    check_part_dir(&options.out)?;
    let threads = configure_threads();
    let planned = runner::plan_run(kinds, options)?;
    let (_, plan_hash) = plan_identity(&planned);
    let all = runner::plan_jobs(&planned).0.len();
    let mine = shard_jobs(&planned, shard);
    let ids: Vec<JobId> = mine.iter().map(|&(j, _)| j).collect();
    let (commit, dirty) = crate::harness::manifest::git_state();
    let date = crate::harness::manifest::rfc3339_utc(std::time::SystemTime::now());
    let start = Instant::now();
    let load = crate::harness::kernels::load::LoadProbe::start();
    let calibration = crate::harness::kernels::calibration::sample(threads);
    let results = runner::run_jobs(&planned, &ids);
    let others_cpu_share = load.and_then(|l| l.others_share());
    let calibration = calibration.merged(crate::harness::kernels::calibration::sample(threads));
    let wall_s = start.elapsed().as_secs_f64();
    let mut failures = Vec::new();
    let mut jobs = Vec::new();
    let mut records: JobRecords = Vec::new();
    for ((id, result), &(_, cost)) in results.into_iter().zip(&mine) {
        let name = job_name(&planned, id);
        let error = match &result {
            JobResult::Reference(r) => r.as_ref().as_ref().err().map(ToString::to_string),
            JobResult::Method(m) => m.outcome.as_ref().err().map(ToString::to_string),
        };
        jobs.push(ShardJob {
            name: name.clone(),
            cost,
            ok: error.is_none(),
        });
        if let Some(e) = error {
            failures.push((name.clone(), e));
        }
        records.push((name, result));
    }
    let absolute = std::path::absolute(&options.spec).unwrap_or_else(|_| options.spec.clone());
    let file = ShardFile {
        format: FORMAT,
        shard: shard.index,
        shards: shard.count,
        plan_hash,
        commit,
        dirty,
        spec: options.spec.to_string_lossy().into_owned(),
        spec_absolute: absolute.to_string_lossy().into_owned(),
        only: options.only.clone(),
        time_limit_s: options.time_limit.map(|d| d.as_secs_f64()),
        robustness: options.robustness,
        host: crate::harness::manifest::host_name(),
        date,
        threads,
        estimated_cost: mine.iter().map(|&(_, c)| c).sum(),
        wall_s,
        calibration_samples: calibration.samples,
        others_cpu_share,
        jobs,
    };
    write_part(&options.out, &file, &records)?;
    Ok(ShardSummary {
        file,
        plan_jobs: all,
        failures,
    })
}

/// A part writes a directory of its own: `dir` must not exist, be empty,
/// or hold a part (a rerun replaces it); anything else (a run's results,
/// with their history) is refused before anything runs.
fn check_part_dir(dir: &Path) -> Result<(), ShardError> {
    let Ok(mut entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    if entries.next().is_none() || dir.join(SHARD_FILE).is_file() {
        return Ok(());
    }
    Err(ShardError::Parts {
        dir: dir.to_path_buf(),
        message: format!(
            "--out: a part of a sharded run writes a directory of its own, and this one exists without a {SHARD_FILE} (results of a run?): give a new directory, e.g. --out shards/part-I"
        ),
    })
}

/// Writes `shard.json` and `jobs.msgpack` into `dir` as a whole.
fn write_part(dir: &Path, file: &ShardFile, records: &JobRecords) -> Result<(), OutputError> {
    let format_error = |path: &Path, e: String| OutputError::Format {
        path: path.to_path_buf(),
        message: e,
    };
    let staged = StagedDir::new(dir)?;
    let json = serde_json::to_string_pretty(file)
        .map_err(|e| format_error(&dir.join(SHARD_FILE), e.to_string()))?;
    atomic::write_plain(&staged.path().join(SHARD_FILE), json.as_bytes())?;
    let bytes = rmp_serde::to_vec(records)
        .map_err(|e| format_error(&dir.join(JOBS_FILE), e.to_string()))?;
    atomic::write_plain(&staged.path().join(JOBS_FILE), &bytes)?;
    staged.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_spec_parses_i_of_n_and_names_what_is_allowed() {
        assert_eq!(
            "2/3".parse::<ShardSpec>(),
            Ok(ShardSpec { index: 2, count: 3 })
        );
        for bad in ["3/3", "0/0", "-1/3", "1", "a/3", "1/b", ""] {
            let e = bad.parse::<ShardSpec>().unwrap_err();
            assert!(e.contains("0 <= I < N"), "{bad}: {e}");
        }
    }

    #[test]
    fn partition_balances_cost_not_count_and_is_deterministic() {
        // One job as costly as the seven others together: a count split
        // (4 + 4) would put it with three others; the cost split leaves it
        // alone.
        let costs = [70.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0];
        let part = partition(&costs, 2);
        assert_eq!(part, partition(&costs, 2));
        let load = |k| -> f64 { (0..8).filter(|&j| part[j] == k).map(|j| costs[j]).sum() };
        assert_eq!(load(0), 70.0);
        assert_eq!(load(1), 70.0);
        assert_eq!(part.iter().filter(|&&k| k == part[0]).count(), 1);
        // Every job in exactly one part, every part index below n.
        let part3 = partition(&costs, 3);
        assert!(part3.iter().all(|&k| k < 3));
        assert_eq!(part3.len(), costs.len());
        // More parts than jobs: some parts are empty, none is skipped twice.
        let part9 = partition(&[1.0, 2.0], 9);
        assert_eq!(part9, vec![1, 0]);
    }

    #[test]
    fn steps_come_from_t_end_over_dt_of_any_table() {
        let t: toml::Table = toml::from_str("[integrator]\ndt = 0.01\nt_end = 100.0\n").unwrap();
        assert!((estimated_steps(&t) - 1e4).abs() < 1e-6);
        let t: toml::Table = toml::from_str("[drive]\nomega = 3.0\n").unwrap();
        assert_eq!(estimated_steps(&t), 1.0);
        let t: toml::Table = toml::from_str("[integrator]\ndt = 0.0\nt_end = 1.0\n").unwrap();
        assert_eq!(estimated_steps(&t), 1.0);
    }

    #[test]
    fn fnv1a64_matches_its_published_test_vectors() {
        // From the FNV reference test suite (isthe.com/chongo/tech/comp/fnv).
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }
}
