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
/// with every assumption's key set to the sample's value in every case,
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
                    set_dotted(&mut case.table, &a.key, a.toml_value(v)).map_err(|expected| {
                        InputError::value(
                            &spec.file,
                            &spec.name,
                            "study.assumption.key",
                            format!("\"{}\"", a.key),
                            expected,
                        )
                    })?;
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
