//! The samples of a study's assumption box: the study's spec with the
//! assumed keys set to the design's values in every case.

use crate::error::InputError;
pub use crate::harness::plan::Sample;
use crate::harness::spec::{Assumption, StudySpec, set_dotted};

use super::design::{latin_hypercube, study_seed};

/// The name of sample `k` of `study` (in job names and errors; samples
/// write no directory of their own).
pub fn sample_name(study: &str, k: usize) -> String {
    format!("{study}.sample-{k}")
}

/// The values of N samples of the box of `assumptions` for `study`.
pub fn sample_values(study: &str, assumptions: &[Assumption], n: usize) -> Vec<Vec<f64>> {
    latin_hypercube(n, assumptions.len(), study_seed(study))
        .into_iter()
        .map(|u| {
            assumptions
                .iter()
                .zip(u)
                .map(|(a, u)| a.value_at(u))
                .collect()
        })
        .collect()
}

/// The N sample studies of `spec` (empty without assumptions): its spec
/// with every assumption's keys set to the sample's value in every case,
/// named [`sample_name`], without assumptions of its own.
pub fn sample_specs(spec: &StudySpec, n: usize) -> Result<Vec<(StudySpec, Sample)>, InputError> {
    if spec.assumptions.is_empty() {
        return Ok(Vec::new());
    }
    sample_values(&spec.name, &spec.assumptions, n)
        .into_iter()
        .enumerate()
        .map(|(k, values)| {
            let mut s = spec.clone();
            s.name = sample_name(&spec.name, k);
            s.assumptions.clear();
            for case in &mut s.cases {
                for (a, &v) in spec.assumptions.iter().zip(&values) {
                    for key in a.keys() {
                        set_dotted(&mut case.table, key, a.toml_value(v)).map_err(|expected| {
                            InputError::value(
                                &spec.file,
                                &spec.name,
                                "study.assumption.key",
                                format!("\"{key}\""),
                                expected,
                            )
                        })?;
                    }
                }
            }
            Ok((
                s,
                Sample {
                    of: spec.name.clone(),
                    index: k,
                    values,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A study whose parameter `k` is written twice (`a.k`, `b.k`), with
    /// one assumption naming both.
    fn spec(also: &str) -> Result<Vec<StudySpec>, InputError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(
            &path,
            format!(
                "[[study]]\nname = \"s\"\nkind = \"k\"\ndescription = \"d\"\n[study.a]\nk = 2.0\n[study.b]\nk = {also}\n\
                 [[study.assumption]]\nkey = \"a.k\"\nalso = [\"b.k\"]\nunit = \"N/m\"\nfrom = 1.0\nto = 4.0\nsource = \"test\"\n"
            ),
        )
        .unwrap();
        crate::harness::spec::load(&path, &["k"])
    }

    #[test]
    fn also_sets_every_key_of_the_parameter_to_the_samples_value() {
        let specs = spec("2.0").unwrap();
        let samples = sample_specs(&specs[0], 4).unwrap();
        assert_eq!(samples.len(), 4);
        for (s, sample) in &samples {
            let at = |t: &str| s.cases[0].table[t]["k"].as_float().unwrap();
            assert_eq!(at("a"), sample.values[0]);
            assert_eq!(at("b"), sample.values[0]);
        }
        // The samples differ from the nominal value, so the check above
        // sees each key moved.
        assert!(samples.iter().any(|(_, s)| s.values[0] != 2.0));
    }

    #[test]
    fn also_with_another_nominal_value_is_refused_naming_it() {
        let e = spec("3.0").unwrap_err().to_string();
        assert!(
            e.contains("study.assumption[0].also[0]") && e.contains("same number"),
            "{e}"
        );
    }
}
