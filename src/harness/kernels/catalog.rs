//! What a kernel is: its name and words ([`KernelInfo`]), the work of one
//! measured run ([`Work`]) and the counters that work reports, and the
//! [`Kernel`] a study kind registers (its info and how to prepare it).
//! The harness's own kernel, the calibration kernel, is here too; every
//! other kernel comes from the kinds through the registry.

use std::path::Path;

/// The exact counters a kernel reports of its measured run (pivots,
/// iterations, evaluations, ...), in a fixed order.
pub type Counters = Vec<(String, f64)>;

/// A prepared kernel: each call runs the measured work once and returns its
/// counters.
pub type Work = Box<dyn FnMut() -> Result<Counters, String>>;

/// Prepares a kernel's work (reference files are read below the given
/// root, the repository): the model, the state it starts from (reached
/// outside the measured region) and the closure of one measured run.
pub type Prepare = fn(&Path) -> Result<Work, String>;

/// The history's study name of kernel rows (`kernels / <case> / <method>`).
pub const STUDY: &str = "kernels";

/// One kernel: `case` names the model and state, `method` the step, `what`
/// says it in words (shown in the report); `kind` and `timed` say which
/// timed method of which study kind it measures a step of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelInfo {
    /// The study kind that registers it (`gap-system`, ...); empty for the
    /// harness's own calibration kernel.
    pub kind: &'static str,
    /// The method of the timings tables (`timings.csv`'s `method`, the
    /// label a study times) whose step (or solve) the kernel runs, e.g.
    /// `newmark-lcp`; empty when the kernel measures no timed method's step
    /// (the calibration kernel; Lemke over the LCP collection, a solver
    /// benchmark of its own).
    pub timed: &'static str,
    /// The model (and case) the kernel runs on, e.g. `chain-1000`.
    pub case: &'static str,
    /// The step it measures, e.g. `newmark-lcp-step`.
    pub method: &'static str,
    /// What one measured run does.
    pub what: &'static str,
}

impl KernelInfo {
    /// The command-line name `case/method`.
    pub fn name(&self) -> String {
        format!("{}/{}", self.case, self.method)
    }
}

/// A kernel as a kind registers it.
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// Its name and words.
    pub info: KernelInfo,
    /// How to prepare its work.
    pub prepare: Prepare,
}

/// The timed methods a kind deliberately gives no kernel: (method as the
/// timings tables name it, why), e.g. a sweep of whole runs whose step is
/// another kernel's.
pub type LeftOut = &'static [(&'static str, &'static str)];

/// The counters of `list` as [`Counters`].
pub fn counters(list: &[(&str, usize)]) -> Counters {
    list.iter()
        .map(|&(k, v)| (k.to_string(), v as f64))
        .collect()
}

/// The calibration kernel: the fixed code the CPU times are measured
/// against (`harness::kernels::calibration`), the harness's own.
pub const CALIBRATION: Kernel = Kernel {
    info: KernelInfo {
        kind: "",
        timed: "",
        case: "calibration",
        method: "fixed-kernel",
        what: "the calibration kernel the CPU times are measured against (harness::kernels::calibration; \
               fixed code)",
    },
    prepare: |_| {
        Ok(Box::new(|| {
            std::hint::black_box(super::calibration::work());
            Ok(Counters::new())
        }))
    },
};

/// The kernel called `name` (`case/method`) among `kernels`.
pub fn find<'a>(kernels: &'a [Kernel], name: &str) -> Option<&'a Kernel> {
    kernels.iter().find(|k| k.info.name() == name)
}
