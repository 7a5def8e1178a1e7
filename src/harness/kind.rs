//! What every study kind's [`Study`](crate::harness::study::Study) shares,
//! written once: the validated cases with the swept keys ([`Cases`]), the
//! method plans built from each method's own description
//! ([`DescribedMethod`]), the default baseline chosen by a predicate, and
//! the one-unit progress of a run that reports no steps of its own.
//!
//! A kind implements [`CaseKind`] for its case configuration and keeps
//! only what is its own: its methods' descriptions, its reference, its runs
//! and its summary; `Cases<its CaseConfig>` is then its
//! [`Study`], the plumbing (a case by index, its plans, the default
//! baseline, the counter docs) written once here.

use crate::error::SolverError;
use crate::harness::study::Provides;
use crate::harness::study::{
    CaseOutput, Measures, MethodOutput, MethodPlan, MethodResult, ReferenceOutput, Scalar, Study,
    StudySummary,
};

/// A study's validated cases, in plan order, and the keys its sweeps vary.
#[derive(Debug, Clone)]
pub struct Cases<C> {
    /// The study's name.
    pub name: String,
    /// One validated configuration per case.
    pub cases: Vec<C>,
    /// The swept keys (`integrator.dt`, ...), in the spec's order.
    pub sweep_keys: Vec<String>,
    /// The spec's `baseline` (None: the kind's default one).
    pub baseline: Option<String>,
    /// The reference files the spec's checks compare with, so that a
    /// figure of the checked quantity can draw them (issue 20, class 3:
    /// every reference a check names is drawn).
    pub check_references: Vec<CheckReference>,
}

/// A reference file (`*.csv`) of a check: the check, the quantity, the
/// file resolved against the spec's folder, its column.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReference {
    /// The check's name.
    pub check: String,
    /// The checked quantity (a column of the method's series).
    pub quantity: String,
    /// The file, resolved against the spec file's folder.
    pub file: std::path::PathBuf,
    /// The file's column (the quantity unless the check names another).
    pub column: String,
}

impl CheckReference {
    /// Every `*.csv` reference of the spec's checks.
    pub fn of(spec: &crate::harness::spec::StudySpec) -> Vec<CheckReference> {
        let dir = spec.file.parent().unwrap_or(std::path::Path::new("."));
        spec.checks
            .iter()
            .filter_map(|c| {
                Some(CheckReference {
                    check: c.name.clone(),
                    quantity: c.quantity.clone(),
                    file: dir.join(c.reference_file()?),
                    column: c.column.clone().unwrap_or_else(|| c.quantity.clone()),
                })
            })
            .collect()
    }
}

/// A method of a case, as the report and the plan describe it.
pub trait DescribedMethod {
    /// Its label: unique within the case.
    fn label(&self) -> &str;
    /// The method's name (several labels may run one method).
    fn method_name(&self) -> String;
    /// One line on what it is, for the report.
    fn description(&self) -> String;

    /// The plan entry of this method.
    fn plan(&self) -> MethodPlan {
        MethodPlan {
            label: self.label().to_string(),
            method: self.method_name(),
            doc: self.description(),
        }
    }
}

/// A case configuration that lists the methods it runs.
pub trait CaseMethods {
    /// The kind's method configuration.
    type Method: DescribedMethod;
    /// The methods, in run order (the first writes `<case>.csv`).
    fn methods(&self) -> &[Self::Method];
}

impl<C: CaseMethods> Cases<C> {
    /// The label of the first case's first method that `pick` accepts,
    /// else of its first method: the default baseline of speed-ups.
    pub fn baseline_or_first(&self, pick: impl Fn(&C::Method) -> bool) -> Option<String> {
        let methods = self.cases.first()?.methods();
        methods
            .iter()
            .find(|m| pick(m))
            .or(methods.first())
            .map(|m| m.label().to_string())
    }
}

/// Implements [`CaseMethods`] for a case type whose `methods` field lists
/// its method type, and [`DescribedMethod`] for that method type from its
/// `label` field, a closure giving its method name and a function giving
/// its description:
/// `described_methods!(CaseConfig, MethodConfig, |m| m.name.to_string(), describe)`.
macro_rules! described_methods {
    ($case:ty, $method:ty, $name:expr, $describe:path) => {
        impl $crate::harness::kind::CaseMethods for $case {
            type Method = $method;
            fn methods(&self) -> &[$method] {
                &self.methods
            }
        }
        impl $crate::harness::kind::DescribedMethod for $method {
            fn label(&self) -> &str {
                &self.label
            }
            fn method_name(&self) -> String {
                let name: fn(&$method) -> String = $name;
                name(self)
            }
            fn description(&self) -> String {
                $describe(self)
            }
        }
    };
}
pub(crate) use described_methods;

/// What a method run or a reference returns.
pub type Run<T> = Result<T, SolverError>;

/// What a case's runs leave for [`CaseKind::finish`]: the reference, if
/// the case has one, and the methods' results in plan order.
pub struct Finished<'a> {
    /// The case's reference.
    pub reference: Option<&'a ReferenceOutput>,
    /// The methods' results.
    pub methods: &'a mut [MethodResult],
}

/// The progress bar a run may advance.
pub type Progress = indicatif::ProgressBar;

/// A study kind, implemented by its validated case configuration: what a
/// case runs and compares, and what the whole study provides, measures and
/// summarizes. Every `Cases<C>` of a kind is a [`Study`] through it (see
/// the `Study` trait for the meaning of each item).
pub trait CaseKind: CaseMethods + Send + Sync + Sized {
    /// Meanings and units of the counters and stats of the kind's runs.
    const COUNTER_DOCS: &'static [(&'static str, &'static str)] = &[];

    /// The label of the method speed-ups are measured against, unless the
    /// spec names one (usually [`Cases::baseline_or_first`]).
    fn default_baseline(study: &Cases<Self>) -> Option<String>;

    /// The scalar, column and table names the study will produce.
    fn provides(study: &Cases<Self>) -> Provides;

    /// The study's accuracy measure and cost parameters.
    fn measures(_study: &Cases<Self>) -> Measures {
        Measures::default()
    }

    /// The nominal order of method `label` over cost key `key`.
    fn nominal_order(_study: &Cases<Self>, _label: &str, _key: &str) -> Option<f64> {
        None
    }

    /// The study values the kind derives from measured times.
    fn measured_scalars() -> Vec<String> {
        Vec::new()
    }

    /// Whether the case runs only some of its methods (e.g. those that
    /// scale to its size): `runs(m)` false drops `m` from its plan.
    fn runs(&self, _m: &Self::Method) -> bool {
        true
    }

    /// Whether the case computes a reference.
    fn has_reference(&self) -> bool {
        false
    }

    /// The method name under which the case's reference is timed (its
    /// `ReferenceOutput::timings`), if it is.
    fn timed_reference(&self) -> Option<&'static str> {
        None
    }

    /// What the case's reference depends on (equal keys: one reference).
    fn reference_key(&self) -> Option<String> {
        None
    }

    /// The cost estimate of a job of the case (None: `t_end / dt`).
    fn job_cost(&self, _method: Option<usize>) -> Option<f64> {
        None
    }

    /// Computes the case's reference.
    fn run_reference(&self, _progress: &Progress) -> Run<ReferenceOutput> {
        Err(SolverError::other("reference", "the case has no reference"))
    }

    /// Runs method `m` of the case (deterministic: it may be repeated).
    fn run(&self, m: &Self::Method, progress: &Progress) -> Run<MethodOutput>;

    /// Adds to each successful method its scalars against the reference;
    /// returns further case scalars.
    fn finish(&self, _done: Finished) -> Run<Vec<Scalar>> {
        Ok(Vec::new())
    }

    /// Study-level scalars, figures and notes from all cases.
    fn summarize(study: &Cases<Self>, cases: &[CaseOutput]) -> StudySummary;
}

impl<C: CaseKind> Cases<C> {
    /// The methods case `case` runs, in order.
    fn running(&self, case: usize) -> impl Iterator<Item = &C::Method> {
        let cfg = &self.cases[case];
        cfg.methods().iter().filter(|m| cfg.runs(m))
    }
}

impl<C: CaseKind> Study for Cases<C> {
    fn methods(&self, case: usize) -> Vec<MethodPlan> {
        self.running(case).map(DescribedMethod::plan).collect()
    }

    fn default_baseline(&self) -> Option<String> {
        C::default_baseline(self)
    }

    fn provides(&self) -> Provides {
        C::provides(self)
    }

    fn counter_docs(&self) -> Vec<(&'static str, &'static str)> {
        C::COUNTER_DOCS.to_vec()
    }

    fn nominal_order(&self, label: &str, key: &str) -> Option<f64> {
        C::nominal_order(self, label, key)
    }

    fn measures(&self) -> Measures {
        C::measures(self)
    }

    fn has_reference(&self, case: usize) -> bool {
        self.cases[case].has_reference()
    }

    fn timed_reference(&self, case: usize) -> Option<&'static str> {
        self.cases[case].timed_reference()
    }

    fn measured_scalars(&self) -> Vec<String> {
        C::measured_scalars()
    }

    fn reference_key(&self, case: usize) -> Option<String> {
        self.cases[case].reference_key()
    }

    fn job_cost(&self, case: usize, method: Option<usize>) -> Option<f64> {
        self.cases[case].job_cost(method)
    }

    fn run_reference(&self, case: usize, progress: &Progress) -> Run<ReferenceOutput> {
        self.cases[case].run_reference(progress)
    }

    fn run_method(&self, case: usize, method: usize, progress: &Progress) -> Run<MethodOutput> {
        match self.running(case).nth(method) {
            Some(m) => self.cases[case].run(m, progress),
            None => Err(SolverError::other(
                format!("method {method}"),
                format!("case {case} has no method {method}"),
            )),
        }
    }

    fn finish_case(
        &self,
        case: usize,
        reference: Option<&ReferenceOutput>,
        methods: &mut [MethodResult],
    ) -> Run<Vec<Scalar>> {
        self.cases[case].finish(Finished { reference, methods })
    }

    fn summarize(&self, cases: &[CaseOutput]) -> StudySummary {
        C::summarize(self, cases)
    }
}

/// Runs `run` as one unit of `progress` (a run that reports no steps).
pub fn as_one_unit<T>(progress: &indicatif::ProgressBar, run: impl FnOnce() -> T) -> T {
    progress.set_length(1);
    let out = run();
    progress.inc(1);
    out
}
