//! The runner: plan (load specs, build studies, resolve checks; every input
//! error surfaces here, before anything runs), execute (every method of every
//! case, and every case's reference, as its own job, in parallel with rayon;
//! a job that fails or panics fails alone), finish each case (errors against
//! the reference), analyse the sweeps, summarise, evaluate the checks, then
//! hand the results to the writers.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::error::{InputError, OutputError, SolverError};
use crate::harness::checks;
use crate::harness::claims;
use crate::harness::jobs;
use crate::harness::outcome::{COMPARISON_JOB, REFERENCE_JOB, RunResult, StudyResult};
pub use crate::harness::plan::PlannedStudy;
use crate::harness::registry::Registry;
use crate::harness::rows::CheckRow;
use crate::harness::spec::{self, StudySpec};
use crate::harness::study::{
    CaseOutput, MethodPlan, MethodResult, ReferenceOutput, Study, StudySummary,
};

/// Loads `path` (a study file or suite), keeps the studies named in `only`
/// (all when empty), builds them through their kinds in `kinds` and
/// resolves their checks.
pub fn plan(
    kinds: &Registry,
    path: &Path,
    only: &[String],
) -> Result<Vec<PlannedStudy>, InputError> {
    let specs = spec::load(path, &kinds.names())?;
    for name in only {
        if !specs.iter().any(|s| &s.name == name) {
            return Err(InputError::Key {
                file: spec::resolve_path(path),
                study: None,
                key: "--only".into(),
                value: Some(name.clone()),
                expected: format!(
                    "a study of this file: {}",
                    specs
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
    }
    specs
        .into_iter()
        .filter(|s| only.is_empty() || only.contains(&s.name))
        .map(|spec| {
            let study = kinds.build(&spec)?;
            plan_study(spec, study)
        })
        .collect()
}

/// Plans one built study: its methods, baseline and checks.
pub fn plan_study(spec: StudySpec, study: Box<dyn Study>) -> Result<PlannedStudy, InputError> {
    let methods: Vec<Vec<MethodPlan>> = (0..spec.cases.len()).map(|c| study.methods(c)).collect();
    let mut labels: Vec<String> = Vec::new();
    for plan in methods.iter().flatten() {
        if !labels.contains(&plan.label) {
            labels.push(plan.label.clone());
        }
    }
    let baseline = match &spec.baseline {
        Some(b) if !labels.contains(b) => {
            return Err(InputError::value(
                &spec.file,
                &spec.name,
                "study.baseline",
                format!("\"{b}\""),
                format!("the label of a method of the study: {}", labels.join(", ")),
            ));
        }
        Some(b) => Some(b.clone()),
        None => study
            .default_baseline()
            .filter(|b| labels.contains(b))
            .or_else(|| labels.first().cloned()),
    };
    let mut provides = study.provides();
    provides.methods = labels;
    provides
        .study_scalars
        .extend(crate::harness::sweep::provided_scalars(
            &spec.sweeps,
            &study.measures(),
        ));
    let case_names: Vec<String> = spec.cases.iter().map(|c| c.name.clone()).collect();
    let checks = spec
        .checks
        .iter()
        .enumerate()
        .map(|(i, c)| checks::resolve(c, i, &provides, &spec.file, &spec.name, &case_names))
        .collect::<Result<Vec<_>, _>>()?;
    let claims = spec
        .claims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            claims::resolve(
                c,
                i,
                &provides,
                &study.measured_scalars(),
                &spec.file,
                &spec.name,
                &case_names,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let time_limit = Duration::from_secs_f64(spec.time_limit.unwrap_or(spec::DEFAULT_TIME_LIMIT_S));
    Ok(PlannedStudy {
        spec,
        study: Arc::from(study),
        methods,
        baseline,
        checks,
        claims,
        time_limit,
        sample: None,
    })
}

/// One job: a method of a case, or a case's reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// The case's reference.
    Reference,
    /// The case's method with this index (plan order).
    Method(usize),
}

/// A job of a plan: (study index, case index, job).
pub type JobId = (usize, usize, Job);

/// What a job produced (serialisable: the form a shard stores it in).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum JobResult {
    /// A reference job's output or failure.
    Reference(Box<Result<ReferenceOutput, SolverError>>),
    /// A method job's result.
    Method(Box<MethodResult>),
}

/// Cases whose reference is another case's (same reference key):
/// ((study, case), the case whose reference job runs it).
pub type SharedReferences = Vec<((usize, usize), usize)>;

/// The jobs of one case after they ran: its reference (if it has one) and
/// each method's result, in plan order.
type CaseJobs = (
    Option<Result<ReferenceOutput, SolverError>>,
    Vec<Option<MethodResult>>,
);

/// Runs `f` within `limit`, turning a panic (a bug) or a job past its
/// time limit into a solver error of `what`.
fn guarded<T>(
    what: &str,
    limit: Duration,
    f: impl FnOnce() -> Result<T, SolverError>,
) -> Result<T, SolverError> {
    let limited = || crate::deadline::run_with_limit(limit, f);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(limited)) {
        Ok(Ok(result)) => result,
        Ok(Err(exceeded)) => Err(SolverError::TimeLimit {
            method: what.to_string(),
            limit_s: exceeded.limit.as_secs_f64(),
        }),
        Err(payload) => Err(SolverError::other(
            what.to_string(),
            format!("internal error (panic): {}", panic_message(&*payload)),
        )),
    }
}

/// Runs every job of every planned study (in parallel), finishes each case,
/// summarises each study and evaluates its checks. Never stops at a failing
/// method, and never waits for a job past its time limit (plus
/// [`jobs::GRACE`]): a job stuck where it cannot check its deadline is
/// reported as stopped and left behind (`harness::jobs`).
pub fn execute(plan: &[PlannedStudy]) -> Vec<StudyResult> {
    let (planned, shared_reference) = plan_jobs(plan);
    let results = run_jobs(plan, &planned);
    assemble(plan, results, &shared_reference)
}

/// Every job of the plan, in plan order (per study, per case: its
/// reference, then its methods), and the cases that take another case's
/// reference instead of running their own.
pub fn plan_jobs(plan: &[PlannedStudy]) -> (Vec<JobId>, SharedReferences) {
    let mut planned: Vec<JobId> = Vec::new();
    // Cases whose reference equals an earlier case's (same reference key)
    // take that case's reference: (study, case) -> the case that runs it.
    let mut shared_reference: SharedReferences = Vec::new();
    for (s, p) in plan.iter().enumerate() {
        let mut keys: Vec<(String, usize)> = Vec::new();
        for c in 0..p.spec.cases.len() {
            if p.study.has_reference(c) {
                let key = p.study.reference_key(c);
                match key.as_ref().and_then(|k| keys.iter().find(|(q, _)| q == k)) {
                    Some(&(_, first)) => shared_reference.push(((s, c), first)),
                    None => {
                        keys.extend(key.map(|k| (k, c)));
                        planned.push((s, c, Job::Reference));
                    }
                }
            }
            planned.extend((0..p.methods[c].len()).map(|m| (s, c, Job::Method(m))));
        }
    }
    (planned, shared_reference)
}

/// What job `job` of `plan` is called: `reference` or its method's label.
pub fn job_label(plan: &[PlannedStudy], (s, c, job): JobId) -> &str {
    match job {
        Job::Reference => REFERENCE_JOB,
        Job::Method(m) => plan[s].methods[c][m].label.as_str(),
    }
}

/// Runs the jobs `planned` of `plan` (in parallel, see [`execute`]) and
/// returns each with its result, in the order given.
pub fn run_jobs(plan: &[PlannedStudy], planned: &[JobId]) -> Vec<(JobId, JobResult)> {
    // Timings are per method: keep faer from spawning its own threads inside
    // the job threads, so each method runs on one core.
    faer::set_global_parallelism(faer::Par::Seq);
    let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{prefix:>40} [{bar:30}] {percent:>3}% {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
    let bars: Vec<ProgressBar> = planned
        .iter()
        .map(|&(s, c, job)| {
            let p = &plan[s];
            let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::hidden());
            bar.set_style(style.clone());
            let what = match job {
                Job::Reference => REFERENCE_JOB,
                Job::Method(m) => p.methods[c][m].label.as_str(),
            };
            bar.set_prefix(format!("{}/{} {what}", p.spec.name, p.spec.cases[c].name));
            bar
        })
        .collect();
    let work: Vec<jobs::Job<JobResult>> = planned
        .iter()
        .zip(&bars)
        .map(|(&(s, c, job), bar)| {
            let p = &plan[s];
            let study = Arc::clone(&p.study);
            let limit = p.time_limit;
            let bar = bar.clone();
            let work: Box<dyn FnOnce() -> JobResult + Send> = match job {
                Job::Reference => Box::new(move || {
                    JobResult::Reference(Box::new(guarded("reference", limit, || {
                        study.run_reference(c, &bar)
                    })))
                }),
                Job::Method(m) => {
                    let method = p.methods[c][m].clone();
                    Box::new(move || {
                        let outcome = guarded(&method.label, limit, || {
                            crate::harness::timing::time_method(&method.label, |run| {
                                let hidden = ProgressBar::hidden();
                                study.run_method(c, m, if run == 0 { &bar } else { &hidden })
                            })
                        });
                        JobResult::Method(Box::new(MethodResult {
                            plan: method,
                            outcome,
                        }))
                    })
                }
            };
            jobs::Job { limit, work }
        })
        .collect();
    let ends = jobs::run_all(
        work,
        rayon::current_num_threads(),
        jobs::GRACE,
        |i| {
            multi.add(bars[i].clone());
        },
        |i| {
            bars[i].finish_and_clear();
            multi.remove(&bars[i]);
        },
    );
    planned
        .iter()
        .zip(ends)
        .map(|(&(s, c, job), end)| {
            let p = &plan[s];
            let what = match job {
                Job::Reference => REFERENCE_JOB.to_string(),
                Job::Method(m) => p.methods[c][m].label.clone(),
            };
            let failed = |e: SolverError| match job {
                Job::Reference => JobResult::Reference(Box::new(Err(e))),
                Job::Method(m) => JobResult::Method(Box::new(MethodResult {
                    plan: p.methods[c][m].clone(),
                    outcome: Err(e),
                })),
            };
            let result = match end {
                jobs::JobEnd::Done(r) => r,
                jobs::JobEnd::Abandoned { limit } => failed(SolverError::TimeLimit {
                    method: what,
                    limit_s: limit.as_secs_f64(),
                }),
                jobs::JobEnd::NotStarted(message) => failed(SolverError::other(
                    what,
                    format!("its thread could not be started: {message}"),
                )),
            };
            ((s, c, job), result)
        })
        .collect()
}

/// Finishes every case and study of `plan` from the results of all its
/// jobs (each job exactly once, any order): the second half of
/// [`execute`], and what `harness::merge` runs on the shards' jobs.
pub fn assemble(
    plan: &[PlannedStudy],
    results: Vec<(JobId, JobResult)>,
    shared_reference: &SharedReferences,
) -> Vec<StudyResult> {
    // Regroup per case, in plan order.
    let mut per_case: Vec<Vec<CaseJobs>> = plan
        .iter()
        .map(|p| {
            (0..p.spec.cases.len())
                .map(|c| (None, vec![None; p.methods[c].len()]))
                .collect()
        })
        .collect();
    for ((s, c, job), result) in results {
        match (job, result) {
            (Job::Reference, JobResult::Reference(r)) => per_case[s][c].0 = Some(*r),
            (Job::Method(m), JobResult::Method(r)) => per_case[s][c].1[m] = Some(*r),
            _ => unreachable!("a job's result matches its kind"),
        }
    }
    for &((s, c), first) in shared_reference {
        per_case[s][c].0 = per_case[s][first].0.clone();
    }
    plan.iter()
        .zip(per_case)
        .map(|(p, cases)| {
            let outputs: Vec<CaseOutput> = cases
                .into_par_iter()
                .enumerate()
                .map(|(c, (reference, methods))| {
                    let methods = methods
                        .into_iter()
                        .map(|m| m.expect("every method job ran exactly once"))
                        .collect();
                    finish_case(p, c, reference, methods)
                })
                .collect();
            finish_study(p, outputs)
        })
        .collect()
}

/// The message of a panic payload (`&str` or `String`), if it has one.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// Puts a case together: its methods, its reference, and the kind's
/// comparison of both.
pub fn finish_case(
    p: &PlannedStudy,
    c: usize,
    reference: Option<Result<ReferenceOutput, SolverError>>,
    mut methods: Vec<MethodResult>,
) -> CaseOutput {
    let spec = &p.spec.cases[c];
    let mut failures = Vec::new();
    let reference = match reference {
        Some(Ok(r)) => Some(r),
        Some(Err(e)) => {
            failures.push((REFERENCE_JOB.to_string(), e));
            None
        }
        None => None,
    };
    let finished = guarded(COMPARISON_JOB, p.time_limit, || {
        p.study.finish_case(c, reference.as_ref(), &mut methods)
    });
    let (tables, mut scalars, reference_timings) = match reference {
        Some(r) => (r.tables, r.scalars, r.timings),
        None => Default::default(),
    };
    match finished {
        Ok(more) => scalars.extend(more),
        Err(e) => failures.push((COMPARISON_JOB.to_string(), e)),
    }
    CaseOutput {
        name: spec.name.clone(),
        coords: spec.coords.clone(),
        methods,
        tables,
        scalars,
        reference_timings,
        failures,
    }
}

/// Summarises one study (the kind's summary and the harness's sweep
/// analysis) and evaluates its checks.
pub fn finish_study(p: &PlannedStudy, cases: Vec<CaseOutput>) -> StudyResult {
    let mut summary = guarded("summary", p.time_limit, || Ok(p.study.summarize(&cases)))
        .unwrap_or_else(|e| StudySummary {
            notes: vec![format!("The study's summary failed: {e}")],
            ..StudySummary::default()
        });
    let analysis = crate::harness::sweep::analyse(
        &p.spec.sweeps,
        &p.study.measures(),
        p.baseline.as_deref(),
        &cases,
        &|label, key| p.study.nominal_order(label, key),
        p.spec
            .unresolved_per_tolerance
            .unwrap_or(crate::harness::sweep::UNRESOLVED_PER_TOLERANCE),
    );
    summary.scalars.extend(analysis.scalars);
    summary.figures.extend(analysis.figures);
    summary.notes.extend(analysis.notes);
    let mut rows: Vec<CheckRow> = Vec::new();
    for case in &cases {
        let failed = case
            .methods
            .iter()
            .filter_map(|m| m.outcome.as_ref().err().map(|e| (m.label(), e)))
            .chain(case.failures.iter().map(|(w, e)| (w.as_str(), e)));
        for (what, e) in failed {
            rows.push(CheckRow {
                study: p.spec.name.clone(),
                case: case.name.clone(),
                method: what.to_string(),
                check: "solver".into(),
                metric: "-".into(),
                reference: "-".into(),
                value: f64::NAN,
                tolerance: f64::NAN,
                passed: false,
                detail: e.to_string(),
                why: "every method run and every reference must finish".into(),
            });
        }
    }
    for check in &p.checks {
        rows.extend(checks::evaluate(check, &p.spec.name, &cases, &summary));
    }
    let speedups: Vec<_> = analysis
        .speedups
        .into_iter()
        .chain(std::mem::take(&mut summary.speedups))
        .collect();
    let speedup_ranges = analysis
        .speedup_ranges
        .into_iter()
        .chain(std::mem::take(&mut summary.speedup_ranges))
        .collect();
    let claim_rows = claims::evaluate(
        &p.claims,
        &p.spec.name,
        &cases,
        &summary,
        &speedups,
        p.baseline.as_deref(),
    );
    StudyResult {
        name: p.spec.name.clone(),
        kind: p.spec.kind.clone(),
        description: p.spec.description.clone(),
        reproduces: p.spec.reproduces.clone().unwrap_or_default(),
        parameters: crate::harness::spec_view::parameters(&p.spec),
        file: p.spec.file.clone(),
        baseline: p.baseline.clone(),
        cases,
        summary,
        work_precision: analysis.work_precision,
        speedups,
        speedup_ranges,
        checks: rows,
        claims: claim_rows,
        counter_docs: p
            .study
            .counter_docs()
            .into_iter()
            .map(|(n, d)| (n.to_string(), d.to_string()))
            .collect(),
    }
}

/// What the CLI asks for.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Study file or suite.
    pub spec: PathBuf,
    /// Results directory.
    pub out: PathBuf,
    /// Report directory.
    pub report: PathBuf,
    /// Only these studies (all when empty).
    pub only: Vec<String>,
    /// The command line, for the manifest and report footer.
    pub command: String,
    /// Replaces every study's job time limit when set (`--time-limit`).
    pub time_limit: Option<Duration>,
    /// Measure the kernels' instruction counts (off: `--no-kernels`).
    pub kernels: bool,
    /// Run this many samples of every study's assumption box
    /// (`--robustness N`, `harness::robustness`).
    pub robustness: Option<usize>,
}

/// Why a run did not produce its results.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad input (exit code 2).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Results, report or history could not be written (exit code 1).
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Plans (with the study kinds of `kinds`), executes, writes results,
/// history and report.
pub fn run(kinds: &Registry, options: &RunOptions) -> Result<RunResult, RunError> {
    let planned = plan_run(kinds, options)?;
    // The calibration kernel is timed before and after the jobs: the unit
    // of the run's CPU times (harness::kernels::calibration).
    let workers = rayon::current_num_threads();
    let load = crate::harness::kernels::load::LoadProbe::start();
    let calibration = crate::harness::kernels::calibration::sample(workers);
    let studies = execute(&planned);
    let mut calibration = calibration.merged(crate::harness::kernels::calibration::sample(workers));
    calibration.others_share = load.and_then(|l| l.others_share());
    publish(
        options,
        &planned,
        studies,
        calibration,
        Vec::new(),
        &kinds.kernels(),
    )
}

/// The plan of `options`: [`plan`], with the samples of every study's
/// assumption box after the study (`--robustness N`), and `--time-limit`
/// applied.
pub fn plan_run(kinds: &Registry, options: &RunOptions) -> Result<Vec<PlannedStudy>, InputError> {
    let mut planned = plan(kinds, &options.spec, &options.only)?;
    if let Some(n) = options.robustness {
        planned = crate::harness::robustness::with_samples(planned, n, |spec| {
            let study = kinds.build(&spec)?;
            plan_study(spec, study)
        })?;
    }
    if let Some(limit) = options.time_limit {
        for p in &mut planned {
            p.time_limit = limit;
        }
    }
    Ok(planned)
}

/// Writes results, history and report of the executed `studies` of
/// `planned` as a run of `options` does; `calibration` is the run's unit
/// of CPU time, `shards` (empty for a single run) goes to the manifest:
/// the provenance of a merged run's parts.
pub fn publish(
    options: &RunOptions,
    planned: &[PlannedStudy],
    studies: Vec<StudyResult>,
    calibration: crate::harness::kernels::calibration::Calibration,
    shards: Vec<serde_json::Value>,
    kernels: &[crate::harness::kernels::Kernel],
) -> Result<RunResult, RunError> {
    let resolved = spec::resolve_path(&options.spec);
    let suite = resolved
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let studies = crate::harness::robustness::attach_samples(planned, studies);
    let spec_json = serde_json::Value::Array(
        planned
            .iter()
            .filter(|p| p.sample.is_none())
            .map(crate::harness::spec_view::spec_to_json)
            .collect(),
    );
    let mut manifest =
        crate::harness::manifest::collect(&options.command, &resolved.to_string_lossy(), spec_json);
    manifest.shards = shards;
    let workers = rayon::current_num_threads();
    // A robustness run's times are taken beside its samples' jobs: not the
    // suite's, so not recorded.
    let record_history = options.only.is_empty() && options.robustness.is_none() && !debug_build();
    let kernels = crate::harness::kernels::measure_for_run(
        kernels,
        record_history,
        &suite,
        options.kernels,
        workers,
    );
    let run = RunResult {
        suite,
        studies,
        manifest,
        record_history,
        costs: crate::harness::kernels::RunCosts {
            calibration,
            kernels,
        },
    };
    crate::harness::results::write_run(&options.out, &run)?;
    let history =
        crate::harness::history::record(&crate::harness::history::dir(&options.out), &run)?;
    // A plain run shows the saved robustness runs kept beside its results.
    let mut saved = Vec::new();
    if options.robustness.is_none() {
        let (runs, errors) = crate::harness::robustness::saved::load(&options.out);
        for e in errors {
            eprintln!("note: a saved robustness run is left out of the report: {e}");
        }
        saved = runs;
        crate::harness::robustness::saved::with_assumptions(
            &mut saved,
            planned
                .iter()
                .map(|p| (p.spec.name.as_str(), p.spec.assumptions.as_slice())),
        );
    }
    crate::harness::report::write_report_with(&options.report, &run, &history, &saved)?;
    Ok(run)
}

/// Whether this build has debug assertions: its timings are not an
/// optimised build's, so a full run of it does not append to the history
/// (it says so on stderr and in the report).
fn debug_build() -> bool {
    let debug = cfg!(debug_assertions);
    if debug {
        eprintln!(
            "note: not appended to the history: this build has debug assertions (the dev profile of Cargo.toml and --release have none)"
        );
    }
    debug
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::study::Provides;
    use crate::harness::study::{MethodOutput, StudySummary};
    use crate::harness::table::Table;

    /// Method `a` panics (a bug in a solver), `b` fails normally, `c`
    /// succeeds, `d` never ends (it only checks its deadline), `e` never
    /// ends and never checks (a library loop): each fails or succeeds
    /// alone, and `execute` returns by `e`'s limit plus the grace.
    struct Mixed;

    impl Study for Mixed {
        fn methods(&self, _case: usize) -> Vec<MethodPlan> {
            ["a", "b", "c", "d", "e"]
                .map(|l| MethodPlan {
                    label: l.into(),
                    method: l.into(),
                    doc: String::new(),
                })
                .to_vec()
        }
        fn default_baseline(&self) -> Option<String> {
            Some("c".into())
        }
        fn provides(&self) -> Provides {
            Provides::default()
        }
        fn run_method(
            &self,
            _case: usize,
            method: usize,
            _: &ProgressBar,
        ) -> Result<MethodOutput, SolverError> {
            match method {
                0 => panic!("index out of range in a solver"),
                1 => Err(SolverError::other("b", "did not converge")),
                3 => loop {
                    crate::deadline::check();
                    std::thread::sleep(Duration::from_millis(1));
                },
                4 => loop {
                    std::thread::sleep(Duration::from_millis(1));
                },
                _ => Ok(MethodOutput {
                    series: Table::new().with("t", "", vec![0.0, 1.0]),
                    ..MethodOutput::default()
                }),
            }
        }
        fn summarize(&self, _: &[CaseOutput]) -> StudySummary {
            StudySummary::default()
        }
    }

    #[test]
    fn a_failing_or_panicking_method_fails_alone() {
        let spec = StudySpec {
            file: PathBuf::from("x.toml"),
            name: "mixed".into(),
            kind: "test".into(),
            description: String::new(),
            baseline: None,
            reproduces: None,
            time_limit: Some(0.05),
            unresolved_per_tolerance: None,
            sweeps: Vec::new(),
            cases: vec![crate::harness::spec::CaseSpec {
                name: "only".into(),
                table: toml::Table::new(),
                coords: Vec::new(),
            }],
            checks: Vec::new(),
            claims: Vec::new(),
            assumptions: Vec::new(),
        };
        let plan = vec![plan_study(spec, Box::new(Mixed)).expect("plan")];
        assert_eq!(plan[0].baseline.as_deref(), Some("c"));
        let start = std::time::Instant::now();
        let results = execute(&plan);
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
        let case = &results[0].cases[0];
        match &case.methods[0].outcome {
            Err(SolverError::Other { message, .. }) => {
                assert!(message.contains("panic"), "{message}");
                assert!(message.contains("index out of range"), "{message}");
            }
            other => panic!("method a: {other:?}"),
        }
        assert!(
            matches!(&case.methods[1].outcome, Err(SolverError::Other { message, .. }) if message == "did not converge")
        );
        let c = case.methods[2].timing().expect("c succeeded");
        assert!(c.runs >= 1 && c.cpu_s.is_finite());
        let solver_rows: Vec<_> = results[0]
            .checks
            .iter()
            .filter(|r| r.check == "solver")
            .map(|r| (r.method.as_str(), r.passed))
            .collect();
        assert!(matches!(
            &case.methods[3].outcome,
            Err(SolverError::TimeLimit { limit_s, .. }) if *limit_s == 0.05
        ));
        assert!(matches!(
            &case.methods[4].outcome,
            Err(SolverError::TimeLimit { limit_s, .. }) if *limit_s == 0.05
        ));
        assert_eq!(
            solver_rows,
            vec![("a", false), ("b", false), ("d", false), ("e", false)]
        );
    }
}
