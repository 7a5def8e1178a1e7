//! Validation of a kind's keys: one context (spec file and study) so that
//! every input error names the file, the study, the key (`study.<key>`),
//! the value and what is allowed.

use std::path::Path;

use crate::error::InputError;
use crate::harness::kind::{CaseKind, Cases, DescribedMethod};
use crate::harness::spec::StudySpec;
use crate::harness::study::Study;

/// The smallest error-control tolerance the kinds accept: about 100
/// machine epsilons (as SciPy's solve_ivp); below it an adaptive step
/// shrinks towards the rounding of the state and a run does not end in a
/// useful time.
pub(crate) const MIN_TOLERANCE: f64 = 1e-14;

/// Whether `label` can name a method or a law: letters, digits, '-' and
/// '_', not empty (it names files: `<case>.<label>.csv`).
pub(crate) fn is_label(label: &str) -> bool {
    !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `items`, each between `quote`s, joined by ", ".
pub(crate) fn quoted(items: &[&str], quote: char) -> String {
    items
        .iter()
        .map(|k| format!("{quote}{k}{quote}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an input error allows of a name: `one of "a", "b"`.
pub(crate) fn one_of(names: &[&str]) -> String {
    format!("one of {}", quoted(names, '"'))
}

/// Every case of `spec` validated by `parse`, with the swept keys.
pub(crate) fn parse_cases<T>(
    spec: &StudySpec,
    parse: impl Fn(&KeyCtx, toml::Table) -> Result<T, InputError>,
) -> Result<Cases<T>, InputError> {
    let ctx = KeyCtx {
        file: &spec.file,
        study: &spec.name,
    };
    let cases = spec
        .cases
        .iter()
        .map(|c| parse(&ctx, c.table.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Cases {
        name: spec.name.clone(),
        cases,
        sweep_keys: spec.sweeps.iter().map(|s| s.key.clone()).collect(),
        baseline: spec.baseline.clone(),
        check_references: crate::harness::kind::CheckReference::of(spec),
    })
}

/// The study of a [`CaseKind`] from `spec`, every case validated by
/// `parse`: a kind's builder.
pub(crate) fn build<C: CaseKind + 'static>(
    spec: &StudySpec,
    parse: fn(&KeyCtx, toml::Table) -> Result<C, InputError>,
) -> Result<Box<dyn Study>, InputError> {
    Ok(Box::new(parse_cases(spec, parse)?))
}

/// The file and study whose keys are being validated.
pub(crate) struct KeyCtx<'a> {
    /// The spec file.
    pub file: &'a Path,
    /// The study's name.
    pub study: &'a str,
}

impl KeyCtx<'_> {
    /// A bad value of `study.<key>`.
    pub fn err(
        &self,
        key: &str,
        value: impl std::fmt::Display,
        expected: impl Into<String>,
    ) -> InputError {
        InputError::value(
            self.file,
            self.study,
            format!("study.{key}"),
            value,
            expected,
        )
    }

    /// Refuses, in the variant at `at`, every key of `given` that is set:
    /// those belong to the case (`integrator.<key>`), not to one method.
    pub fn case_only(&self, at: &str, given: &[(&str, bool)]) -> Result<(), InputError> {
        match given.iter().find(|(_, set)| *set) {
            None => Ok(()),
            Some((k, _)) => Err(self.err(
                &format!("{at}.{k}"),
                "a value",
                format!("no `{k}` in a variant: it is the case's (`integrator.{k}`)"),
            )),
        }
    }

    /// An error-control tolerance: `default` when absent, else a finite
    /// number in [MIN_TOLERANCE, 1).
    pub fn tolerance(&self, key: &str, v: Option<f64>, default: f64) -> Result<f64, InputError> {
        match v {
            None => Ok(default),
            Some(t) if t.is_finite() && (MIN_TOLERANCE..1.0).contains(&t) => Ok(t),
            Some(t) => Err(self.err(
                key,
                t,
                "a number in [1e-14, 1): the error control's relative tolerance (below 1e-14 it asks for less than the rounding of the state)",
            )),
        }
    }

    /// A missing `study.<key>`.
    pub fn missing(&self, key: &str, expected: impl Into<String>) -> InputError {
        InputError::Key {
            file: self.file.to_path_buf(),
            study: Some(self.study.to_string()),
            key: format!("study.{key}"),
            value: None,
            expected: expected.into(),
        }
    }

    /// `v` if finite.
    pub fn finite(&self, key: &str, v: f64) -> Result<f64, InputError> {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(self.err(key, v, "a finite number"))
        }
    }

    /// `v` if finite and > 0.
    pub fn positive(&self, key: &str, v: f64) -> Result<f64, InputError> {
        if v.is_finite() && v > 0.0 {
            Ok(v)
        } else {
            Err(self.err(key, v, "a finite number > 0"))
        }
    }

    /// `v` if above `bound` (a bound of the same key's range that another
    /// key sets), else the error `expected`.
    pub fn above(
        &self,
        key: &str,
        v: f64,
        bound: f64,
        expected: impl Into<String>,
    ) -> Result<f64, InputError> {
        if v > bound {
            Ok(v)
        } else {
            Err(self.err(key, v, expected))
        }
    }

    /// Two positive keys `(key, value)`, the second above the first (a
    /// coil's diameter and its wire's, a bracket's ends): else the
    /// error `expected(first)` on the second.
    pub fn positive_ordered(
        &self,
        (low_key, low): (&str, f64),
        (high_key, high): (&str, f64),
        expected: impl Fn(f64) -> String,
    ) -> Result<(f64, f64), InputError> {
        let low = self.positive(low_key, low)?;
        let high = self.positive(high_key, high)?;
        Ok((low, self.above(high_key, high, low, expected(low))?))
    }

    /// `integrator.output_interval`: `default` when absent, else a
    /// positive number; at most 1e6 outputs over `t_end`.
    pub fn output_interval(
        &self,
        v: Option<f64>,
        t_end: f64,
        default: f64,
    ) -> Result<f64, InputError> {
        let key = "integrator.output_interval";
        let h = v.map_or(Ok(default), |h| self.positive(key, h))?;
        if t_end / h > 1e6 {
            return Err(self.err(key, h, "at most 1e6 outputs"));
        }
        Ok(h)
    }

    /// The case table deserialized into the kind's TOML structs (unknown
    /// keys are errors naming their path under `study`).
    pub fn parse<T: serde::de::DeserializeOwned>(
        &self,
        table: toml::Table,
    ) -> Result<T, InputError> {
        crate::harness::spec::deserialize_at(
            self.file,
            Some(self.study),
            "study",
            toml::Value::Table(table),
        )
    }

    /// A sub-table `study.<at>` deserialized (unknown keys are errors naming
    /// their path under it).
    pub fn parse_at<T: serde::de::DeserializeOwned>(
        &self,
        at: &str,
        table: toml::Table,
    ) -> Result<T, InputError> {
        crate::harness::spec::deserialize_at(
            self.file,
            Some(self.study),
            &format!("study.{at}"),
            toml::Value::Table(table),
        )
    }

    /// The table `study.variants.<label>` parsed as `T`, after checking the
    /// label: letters, digits, '-' and '_', not one of `taken` (the
    /// methods so far) nor `reserved`. Returns `(at, T)` with `at` =
    /// `variants.<label>` for further key errors.
    pub fn variant<T: serde::de::DeserializeOwned>(
        &self,
        label: &str,
        value: &toml::Value,
        taken: &[&str],
        reserved: &str,
        what: &str,
    ) -> Result<(String, T), InputError> {
        let at = format!("variants.{label}");
        let valid = is_label(label) && label != reserved;
        if !valid || taken.contains(&label) {
            return Err(self.err(
                &at,
                format!("\"{label}\""),
                format!(
                    "a label of letters, digits, '-' and '_' that no other method of the case has (the first method's label is its {what}); not \"{reserved}\""
                ),
            ));
        }
        let Some(t) = value.as_table() else {
            return Err(self.err(
                &at,
                value,
                "a table of a method's keys: [study.variants.<label>] ...",
            ));
        };
        let parsed = self.parse_at(&at, t.clone())?;
        Ok((at, parsed))
    }

    /// The case's methods: `first` (from `[integrator]` or `[friction]`),
    /// then one per `[variants.<label>]` table in the spec's order, each
    /// checked by [`KeyCtx::variant`] (`reserved` and `what` as there),
    /// parsed as `V` and built by `build(at, label, v)`, `at` =
    /// `variants.<label>`: the one variant loop of the kinds.
    pub fn with_variants<V: serde::de::DeserializeOwned, M: DescribedMethod>(
        &self,
        first: M,
        variants: &toml::Table,
        (reserved, what): (&str, &str),
        mut build: impl FnMut(&str, &str, V) -> Result<M, InputError>,
    ) -> Result<Vec<M>, InputError> {
        let mut methods = vec![first];
        for (label, value) in variants {
            let taken: Vec<&str> = methods.iter().map(DescribedMethod::label).collect();
            let (at, v) = self.variant(label, value, &taken, reserved, what)?;
            let m = build(&at, label, v)?;
            methods.push(m);
        }
        Ok(methods)
    }
}

#[cfg(test)]
mod tests {
    use super::is_label;

    #[test]
    fn a_label_is_letters_digits_dashes_and_underscores() {
        for good in ["a", "newmark-lcp", "bdf_2", "A1"] {
            assert!(is_label(good), "{good}");
        }
        for bad in ["", "a b", "a.b", "a/b", "é", "x,y"] {
            assert!(!is_label(bad), "{bad:?}");
        }
    }
}
