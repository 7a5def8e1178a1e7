//! The runner: plan (load specs, build studies, resolve checks; every input
//! error surfaces here, before anything runs), execute (all cases of all
//! studies in parallel with rayon, one progress bar per case), evaluate the
//! checks, then hand the results to the writers.

use std::path::{Path, PathBuf};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::error::{InputError, OutputError, SolverError};
use crate::harness::checks::{self, ResolvedCheck};
use crate::harness::outcome::{CheckRow, RunResult, StudyResult};
use crate::harness::spec::{self, StudySpec};
use crate::harness::study::{CaseResult, Study};

/// A study ready to run.
pub struct PlannedStudy {
    /// Its spec as written.
    pub spec: StudySpec,
    /// The kind's study object.
    pub study: Box<dyn Study>,
    /// Its checks, resolved against what the study provides.
    pub checks: Vec<ResolvedCheck>,
}

/// Loads `path` (a study file or suite), keeps the studies named in `only`
/// (all when empty), builds them and resolves their checks.
pub fn plan(path: &Path, only: &[String]) -> Result<Vec<PlannedStudy>, InputError> {
    let specs = spec::load(path)?;
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
            let study = crate::studies::build(&spec)?;
            let provides = study.provides();
            let checks = spec
                .checks
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    checks::resolve(c, i, &provides, &spec.file, &spec.name, study.cases())
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(PlannedStudy {
                spec,
                study,
                checks,
            })
        })
        .collect()
}

/// Runs every case of every planned study (in parallel), summarises each
/// study and evaluates its checks. Never stops at a failing case.
pub fn execute(plan: &[PlannedStudy]) -> Vec<StudyResult> {
    // Timings are per case: keep faer from spawning its own threads inside
    // the rayon workers, so each case runs on one core.
    faer::set_global_parallelism(faer::Par::Seq);
    let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{prefix:>32} [{bar:30}] {percent:>3}% {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
    let jobs: Vec<(usize, usize)> = plan
        .iter()
        .enumerate()
        .flat_map(|(s, p)| (0..p.study.cases().len()).map(move |c| (s, c)))
        .collect();
    let results: Vec<((usize, usize), CaseResult)> = jobs
        .par_iter()
        .map(|&(s, c)| {
            let study = &plan[s];
            let bar = multi.add(ProgressBar::new(1));
            bar.set_style(style.clone());
            bar.set_prefix(format!("{}/{}", study.spec.name, study.study.cases()[c]));
            // A panic (a bug) in one case fails that case, not the run.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                study.study.run_case(c, &bar)
            }))
            .unwrap_or_else(|payload| {
                Err(SolverError::Other {
                    method: study.spec.name.clone(),
                    message: format!("internal error (panic): {}", panic_message(&*payload)),
                })
            });
            bar.finish_and_clear();
            ((s, c), result)
        })
        .collect();
    let mut per_study: Vec<Vec<Option<CaseResult>>> = plan
        .iter()
        .map(|p| vec![None; p.study.cases().len()])
        .collect();
    for ((s, c), r) in results {
        per_study[s][c] = Some(r);
    }
    plan.iter()
        .zip(per_study)
        .map(|(p, results)| {
            let cases: Vec<CaseResult> = results
                .into_iter()
                .map(|r| r.expect("every job ran exactly once"))
                .collect();
            finish_study(p, cases)
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

/// Summarises one study and evaluates its checks.
pub fn finish_study(p: &PlannedStudy, cases: Vec<CaseResult>) -> StudyResult {
    let summary = p.study.summarize(&cases);
    let named: Vec<(String, CaseResult)> = p.study.cases().iter().cloned().zip(cases).collect();
    let mut rows: Vec<CheckRow> = named
        .iter()
        .filter_map(|(name, r)| r.as_ref().err().map(|e| (name, e)))
        .map(|(name, e)| CheckRow {
            study: p.spec.name.clone(),
            case: name.clone(),
            check: "solver".into(),
            metric: "-".into(),
            reference: "-".into(),
            value: f64::NAN,
            tolerance: f64::NAN,
            passed: false,
            detail: e.to_string(),
        })
        .collect();
    for check in &p.checks {
        rows.extend(checks::evaluate(check, &p.spec.name, &named, &summary));
    }
    StudyResult {
        name: p.spec.name.clone(),
        kind: p.spec.kind.clone(),
        description: p.spec.description.clone(),
        file: p.spec.file.clone(),
        cases: named,
        summary,
        checks: rows,
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

/// Plans, executes, writes results, history and report.
pub fn run(options: &RunOptions) -> Result<RunResult, RunError> {
    let planned = plan(&options.spec, &options.only)?;
    let resolved = spec::resolve_path(&options.spec);
    let suite = resolved
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let studies = execute(&planned);
    let spec_json = serde_json::Value::Array(planned.iter().map(spec_to_json).collect());
    let manifest =
        crate::harness::manifest::collect(&options.command, &resolved.to_string_lossy(), spec_json);
    let run = RunResult {
        suite,
        studies,
        manifest,
        record_history: options.only.is_empty(),
    };
    crate::harness::results::write_run(&options.out, &run)?;
    let history_path = options.out.join("history").join("history.csv");
    let history = if run.record_history {
        crate::harness::history::append(&history_path, &run)?
    } else {
        crate::harness::history::load(&history_path)?
    };
    crate::harness::report::write_report(&options.report, &run, &history)?;
    Ok(run)
}

fn spec_to_json(p: &PlannedStudy) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = p
        .spec
        .cases
        .iter()
        .map(|c| serde_json::json!({ "name": c.name, "settings": toml_to_json(&toml::Value::Table(c.table.clone())) }))
        .collect();
    serde_json::json!({
        "name": p.spec.name,
        "kind": p.spec.kind,
        "file": p.spec.file.to_string_lossy(),
        "sweeps": p.spec.sweeps.iter().map(|s| serde_json::json!({"key": s.key, "values": s.values.iter().map(toml_to_json).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "cases": cases,
        "checks": p.spec.checks.iter().map(|c| serde_json::json!({
            "name": c.name, "quantity": c.quantity, "reference": c.reference, "value": c.value,
            "metric": c.metric.name(), "tolerance": c.tolerance, "cases": c.cases, "why": c.why,
        })).collect::<Vec<_>>(),
    })
}

fn toml_to_json(v: &toml::Value) -> serde_json::Value {
    match v {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(a) => serde_json::Value::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => serde_json::Value::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::checks::Provides;
    use crate::harness::study::StudySummary;

    /// Case 0 panics (a bug in a solver), case 1 fails normally.
    struct Panicky {
        cases: Vec<String>,
    }

    impl Study for Panicky {
        fn cases(&self) -> &[String] {
            &self.cases
        }
        fn provides(&self) -> Provides {
            Provides::default()
        }
        fn run_case(&self, index: usize, _: &ProgressBar) -> CaseResult {
            if index == 0 {
                panic!("index out of range in a solver");
            }
            Err(SolverError::Other {
                method: "m".into(),
                message: "did not converge".into(),
            })
        }
        fn summarize(&self, _: &[CaseResult]) -> StudySummary {
            StudySummary::default()
        }
    }

    #[test]
    fn a_panicking_case_fails_that_case_and_the_run_goes_on() {
        let spec = StudySpec {
            file: PathBuf::from("x.toml"),
            name: "panicky".into(),
            kind: "test".into(),
            description: String::new(),
            sweeps: Vec::new(),
            cases: Vec::new(),
            checks: Vec::new(),
        };
        let plan = vec![PlannedStudy {
            spec,
            study: Box::new(Panicky {
                cases: vec!["a".into(), "b".into()],
            }),
            checks: Vec::new(),
        }];
        let results = execute(&plan);
        assert_eq!(results.len(), 1);
        let cases = &results[0].cases;
        match &cases[0].1 {
            Err(SolverError::Other { message, .. }) => {
                assert!(message.contains("panic"), "{message}");
                assert!(message.contains("index out of range"), "{message}");
            }
            other => panic!("case a: {other:?}"),
        }
        assert!(
            matches!(&cases[1].1, Err(SolverError::Other { message, .. }) if message == "did not converge")
        );
    }
}
