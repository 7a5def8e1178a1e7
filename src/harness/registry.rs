//! The study kinds a run knows: (name, builder) pairs that the caller
//! builds once and passes in (the CLI passes `studies::registry()`), so that
//! the harness names no kind. `harness::spec` checks each study's `kind`
//! against it; `harness::runner::plan` builds each study through it.

use crate::error::InputError;
use crate::harness::kernels::{CALIBRATION, Kernel, LeftOut};
use crate::harness::spec::StudySpec;
use crate::harness::study::Study;

/// Builds a study of one kind from its spec (the kind parses and validates
/// its keys; every error names the file, the study and the key).
pub type Builder = fn(&StudySpec) -> Result<Box<dyn Study>, InputError>;

/// One study kind: the `kind = "..."` of its specs, its builder and the
/// per-step kernels it registers (measured under Valgrind by a full run,
/// `harness::kernels`).
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// The name specs give as `kind`.
    pub name: &'static str,
    /// Its builder.
    pub build: Builder,
    /// Its kernels.
    pub kernels: &'static [Kernel],
    /// The methods it times that have no kernel, each with the reason.
    pub left_out: LeftOut,
}

/// The study kinds of a run, in the order error messages list them (the
/// first of a name is the one used).
#[derive(Debug, Clone)]
pub struct Registry {
    kinds: Vec<Kind>,
}

impl Registry {
    /// The registry of these kinds.
    pub fn new(kinds: impl IntoIterator<Item = Kind>) -> Self {
        Self {
            kinds: kinds.into_iter().collect(),
        }
    }

    /// The kinds' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }

    /// Every kernel: the kinds' in registry order, then the harness's
    /// calibration kernel.
    pub fn kernels(&self) -> Vec<Kernel> {
        self.kinds
            .iter()
            .flat_map(|k| k.kernels.iter().copied())
            .chain([CALIBRATION])
            .collect()
    }

    /// Every (kind, timed method, reason) a kind leaves without a kernel.
    pub fn left_out(&self) -> Vec<(&'static str, &'static str, &'static str)> {
        self.kinds
            .iter()
            .flat_map(|k| k.left_out.iter().map(|&(m, why)| (k.name, m, why)))
            .collect()
    }

    /// Whether a kind of this name is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.kinds.iter().any(|k| k.name == name)
    }

    /// The names quoted and comma-separated, for error messages
    /// (`"gap-system", "slider-crank", ...`).
    pub fn listing(&self) -> String {
        crate::harness::spec::listing(&self.names())
    }

    /// Builds the study of `spec` through its kind's builder; an unknown
    /// kind is an input error at `study.kind`.
    pub fn build(&self, spec: &StudySpec) -> Result<Box<dyn Study>, InputError> {
        match self.kinds.iter().find(|k| k.name == spec.kind) {
            Some(kind) => (kind.build)(spec),
            None => Err(InputError::value(
                &spec.file,
                &spec.name,
                "study.kind",
                format!("\"{}\"", spec.kind),
                format!("one of {}", self.listing()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuse(spec: &StudySpec) -> Result<Box<dyn Study>, InputError> {
        Err(InputError::value(
            &spec.file,
            &spec.name,
            "study.x",
            "1",
            "built by the kind",
        ))
    }

    fn spec(kind: &str) -> StudySpec {
        StudySpec {
            file: "s.toml".into(),
            name: "s".into(),
            kind: kind.into(),
            description: String::new(),
            baseline: None,
            reproduces: None,
            time_limit: None,
            unresolved_per_tolerance: None,
            sweeps: Vec::new(),
            cases: Vec::new(),
            checks: Vec::new(),
            claims: Vec::new(),
            assumptions: Vec::new(),
        }
    }

    /// A registered kind reaches its builder; an unknown one is refused at
    /// `study.kind` with the registered names listed in order.
    #[test]
    fn builds_through_the_named_kind_only() {
        let kinds = Registry::new([
            Kind {
                name: "b",
                build: refuse,
                kernels: &[],
                left_out: &[],
            },
            Kind {
                name: "a",
                build: refuse,
                kernels: &[],
                left_out: &[],
            },
        ]);
        assert_eq!(kinds.names(), ["b", "a"]);
        assert!(kinds.contains("a") && !kinds.contains("c"));
        assert_eq!(kinds.listing(), "\"b\", \"a\"");
        let built = kinds.build(&spec("a")).err().expect("refused").to_string();
        assert!(built.contains("study.x"), "{built}");
        let unknown = kinds.build(&spec("c")).err().expect("unknown").to_string();
        assert!(unknown.contains("study.kind"), "{unknown}");
        assert!(unknown.contains("one of \"b\", \"a\""), "{unknown}");
    }
}
