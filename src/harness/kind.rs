//! What every study kind's [`Study`](crate::harness::study::Study) shares,
//! written once: the validated cases with the swept keys ([`Cases`]), the
//! method plans built from each method's own description
//! ([`DescribedMethod`]), the default baseline chosen by a predicate, and
//! the one-unit progress of a run that reports no steps of its own.
//!
//! A kind implements `Study` for `Cases<its CaseConfig>` and keeps only
//! what is its own: its methods' descriptions, its reference, its runs and
//! its summary.

use crate::harness::study::MethodPlan;

/// A study's validated cases, in plan order, and the keys its sweeps vary.
#[derive(Debug, Clone)]
pub struct Cases<C> {
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
    /// The plans of case `case`'s methods, in order.
    pub fn plans(&self, case: usize) -> Vec<MethodPlan> {
        self.cases[case]
            .methods()
            .iter()
            .map(DescribedMethod::plan)
            .collect()
    }

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

/// Runs `run` as one unit of `progress` (a run that reports no steps).
pub fn as_one_unit<T>(progress: &indicatif::ProgressBar, run: impl FnOnce() -> T) -> T {
    progress.set_length(1);
    let out = run();
    progress.inc(1);
    out
}
