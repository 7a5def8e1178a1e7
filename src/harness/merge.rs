//! Merging the parts of a sharded run (`merge DIR... --out DIR --report
//! DIR`): checks that the parts belong to one plan and cover it exactly,
//! then finishes every case and study from the stored job results and
//! writes results, history and report as a single run of the plan does
//! ([`runner::assemble`], [`runner::publish`]): the merged results equal
//! the single run's, timings and the manifest's host fields aside.
//!
//! Checked before anything is written (each failure is a
//! [`ShardError::Parts`], exit code 2, naming the directory at fault):
//! every DIR holds a part (`shard.json` of this format, readable
//! `jobs.msgpack`); all parts name the same plan hash, commit, part count N,
//! spec, `--only` and time limit; every index 0..N-1 comes exactly once (a
//! duplicate names both directories, a missing index is listed); the
//! plan the spec resolves to now has the parts' hash (the spec did not
//! change since), and this binary's commit is theirs; the parts' jobs are
//! the plan's jobs, each exactly once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::harness::kernels::calibration::Calibration;
use crate::harness::outcome::RunResult;
use crate::harness::registry::Registry;
use crate::harness::runner::{self, JobId, JobResult, PlannedStudy, RunOptions};
use crate::harness::shard::{
    self, FORMAT, JOBS_FILE, JobName, JobRecords, SHARD_FILE, ShardError, ShardFile,
};

/// A part read from its directory.
struct Part {
    dir: PathBuf,
    file: ShardFile,
}

fn parts_error(dir: &Path, message: impl Into<String>) -> ShardError {
    ShardError::Parts {
        dir: dir.to_path_buf(),
        message: message.into(),
    }
}

/// Reads `dir/shard.json`.
fn read_part(dir: &Path) -> Result<Part, ShardError> {
    let path = dir.join(SHARD_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        parts_error(
            dir,
            format!(
                "not a part of a sharded run: cannot read {SHARD_FILE} ({e}); a part is written by `PATH --shard I/N --out DIR`"
            ),
        )
    })?;
    let file: ShardFile = serde_json::from_str(&text).map_err(|e| {
        parts_error(
            dir,
            format!("{SHARD_FILE}: not a part description of format {FORMAT}: {e}"),
        )
    })?;
    if file.format != FORMAT {
        return Err(parts_error(
            dir,
            format!(
                "{SHARD_FILE}: format {} (this binary reads format {FORMAT}): rerun the part with this binary",
                file.format
            ),
        ));
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        file,
    })
}

/// What makes two parts parts of one plan: (what, value).
fn identity(f: &ShardFile) -> Vec<(&'static str, String)> {
    vec![
        ("plan hash", f.plan_hash.clone()),
        (
            "commit",
            format!("{}{}", f.commit, if f.dirty { " (dirty)" } else { "" }),
        ),
        ("number of parts", f.shards.to_string()),
        ("spec", f.spec.clone()),
        ("--only", format!("{:?}", f.only)),
        ("--time-limit", format!("{:?}", f.time_limit_s)),
    ]
}

/// Checks that `parts` are the N parts of one plan, each once.
fn check_parts(parts: &[Part]) -> Result<(), ShardError> {
    let first = &parts[0];
    let want = identity(&first.file);
    for p in &parts[1..] {
        for ((what, a), (_, b)) in want.iter().zip(identity(&p.file)) {
            if *a != b {
                return Err(parts_error(
                    &p.dir,
                    format!(
                        "a part of another plan: its {what} is {b}, that of {} is {a}; merge only the parts of one sharded run",
                        first.dir.display()
                    ),
                ));
            }
        }
    }
    let n = first.file.shards;
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for p in parts {
        if p.file.shard >= n {
            return Err(parts_error(
                &p.dir,
                format!("part index {} of {n}: expected 0..{}", p.file.shard, n - 1),
            ));
        }
        if let Some(other) = seen.insert(p.file.shard, &p.dir) {
            return Err(parts_error(
                &p.dir,
                format!(
                    "part {}/{n} given twice: here and in {}",
                    p.file.shard,
                    other.display()
                ),
            ));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(parts_error(
            &first.dir,
            format!(
                "the parts do not cover the plan: part(s) {} missing (given: {}); run them with `PATH --shard I/{n} --out DIR` (or rerun those array tasks) and merge all {n}",
                missing.join(", "),
                seen.keys()
                    .map(|i| format!("{i}/{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(())
}

/// The spec of the parts: as given if it resolves from here, else its
/// absolute path.
fn spec_path(f: &ShardFile) -> PathBuf {
    let given = PathBuf::from(&f.spec);
    if crate::harness::spec::resolve_path(&given).exists() {
        given
    } else {
        PathBuf::from(&f.spec_absolute)
    }
}

/// Reads `dir/jobs.msgpack`.
fn read_jobs(dir: &Path) -> Result<JobRecords, ShardError> {
    let path = dir.join(JOBS_FILE);
    let bytes = std::fs::read(&path)
        .map_err(|e| parts_error(dir, format!("cannot read {JOBS_FILE}: {e}")))?;
    rmp_serde::from_slice(&bytes).map_err(|e| {
        parts_error(
            dir,
            format!("{JOBS_FILE}: not the job results of a part ({e}); rerun the part"),
        )
    })
}

/// Merges the parts in `dirs` into `out` and `report` (see the module
/// doc). `command` is the merge's command line, for the manifest.
pub fn merge(
    kinds: &Registry,
    dirs: &[PathBuf],
    out: &Path,
    report: &Path,
    command: &str,
) -> Result<RunResult, ShardError> {
    let Some(first_dir) = dirs.first() else {
        return Err(parts_error(
            Path::new("."),
            "merge: no part directories given",
        ));
    };
    let parts = dirs
        .iter()
        .map(|d| read_part(d))
        .collect::<Result<Vec<_>, _>>()?;
    check_parts(&parts)?;
    let mut parts = parts;
    parts.sort_by_key(|p| p.file.shard);
    let f = &parts[0].file;
    let options = RunOptions {
        spec: spec_path(f),
        out: out.to_path_buf(),
        report: report.to_path_buf(),
        only: f.only.clone(),
        command: command.to_string(),
        time_limit: f.time_limit_s.map(std::time::Duration::from_secs_f64),
        kernels: true,
        robustness: f.robustness,
    };
    let planned = runner::plan_run(kinds, &options)?;
    let (_, hash) = shard::plan_identity(&planned);
    if hash != f.plan_hash {
        return Err(parts_error(
            first_dir,
            format!(
                "the plan of {} is now {hash}, the parts ran plan {}: the spec (or a file it includes) changed since; rerun the parts",
                options.spec.display(),
                f.plan_hash
            ),
        ));
    }
    let (commit, dirty) = crate::harness::manifest::git_state();
    if commit != f.commit || dirty != f.dirty {
        return Err(parts_error(
            first_dir,
            format!(
                "the parts ran at commit {}{}, this merge is at {commit}{}: merge with the binary that ran them",
                f.commit,
                if f.dirty { " (dirty)" } else { "" },
                if dirty { " (dirty)" } else { "" }
            ),
        ));
    }
    let (jobs, shared) = runner::plan_jobs(&planned);
    let results = gather_jobs(&planned, &jobs, &parts, first_dir)?;
    let studies = runner::assemble(&planned, results, &shared);
    let (provenance, calibration) = part_records(&parts);
    Ok(runner::publish(
        &options,
        &planned,
        studies,
        calibration,
        provenance,
        &kinds.kernels(),
    )?)
}

/// Every job of the plan with its result, read from the parts: each job
/// exactly once (a job the plan lacks, one in two parts or one in none is
/// an error naming the part).
fn gather_jobs(
    planned: &[PlannedStudy],
    jobs: &[JobId],
    parts: &[Part],
    first_dir: &Path,
) -> Result<Vec<(JobId, JobResult)>, ShardError> {
    let mut wanted: BTreeMap<JobName, (JobId, Option<&Path>)> = jobs
        .iter()
        .map(|&id| (shard::job_name(planned, id), (id, None)))
        .collect();
    let mut results: Vec<(JobId, JobResult)> = Vec::with_capacity(jobs.len());
    for p in parts {
        for (name, result) in read_jobs(&p.dir)? {
            let Some(slot) = wanted.get_mut(&name) else {
                return Err(parts_error(
                    &p.dir,
                    format!("{JOBS_FILE} holds job {name}, which the plan does not have"),
                ));
            };
            if let Some(other) = slot.1 {
                return Err(parts_error(
                    &p.dir,
                    format!("job {name} is here and in {} too", other.display()),
                ));
            }
            slot.1 = Some(&p.dir);
            results.push((slot.0, result));
        }
    }
    let missing: Vec<String> = wanted
        .iter()
        .filter(|(_, (_, dir))| dir.is_none())
        .map(|(name, _)| name.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(parts_error(
            first_dir,
            format!(
                "the parts lack {} job(s) of the plan: {}",
                missing.len(),
                missing.join(", ")
            ),
        ));
    }
    Ok(results)
}

/// The parts' provenance (shard, host, date, threads, jobs, cost, wall
/// time) for the manifest, and their calibration samples pooled, with the
/// largest CPU share other processes took in any part.
fn part_records(parts: &[Part]) -> (Vec<serde_json::Value>, Calibration) {
    let provenance = parts
        .iter()
        .map(|p| {
            serde_json::json!({
                "shard": p.file.shard,
                "shards": p.file.shards,
                "dir": p.dir.to_string_lossy(),
                "host": p.file.host,
                "date": p.file.date,
                "threads": p.file.threads,
                "jobs": p.file.jobs.len(),
                "estimated_cost": p.file.estimated_cost,
                "wall_s": p.file.wall_s,
            })
        })
        .collect();
    let calibration = Calibration {
        samples: parts
            .iter()
            .flat_map(|p| p.file.calibration_samples.iter().copied())
            .collect(),
        others_share: parts
            .iter()
            .filter_map(|p| p.file.others_cpu_share)
            .reduce(f64::max),
    };
    (provenance, calibration)
}
