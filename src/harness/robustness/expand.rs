//! A robustness run's plan and results: each study's samples planned
//! after it, and their results attached to it.

use std::collections::BTreeMap;

use crate::error::InputError;
use crate::harness::outcome::StudyResult;
use crate::harness::plan::PlannedStudy;
use crate::harness::spec::StudySpec;

use super::attach::attach;
use super::samples::{Sample, sample_specs};

/// `planned` with the N samples of each study's assumption box after it,
/// each planned by `plan` (the kind builds the sample's spec and the
/// runner plans it like the study's), with the study's job time limit.
pub fn with_samples(
    planned: Vec<PlannedStudy>,
    n: usize,
    plan: impl Fn(StudySpec) -> Result<PlannedStudy, InputError>,
) -> Result<Vec<PlannedStudy>, InputError> {
    let mut out = Vec::with_capacity(planned.len());
    for p in planned {
        let samples = sample_specs(&p.spec, n)?;
        let time_limit = p.time_limit;
        out.push(p);
        for (spec, sample) in samples {
            let mut sp = plan(spec)?;
            sp.time_limit = time_limit;
            sp.sample = Some(sample);
            out.push(sp);
        }
    }
    Ok(out)
}

/// The studies of the spec (`studies` in the order of `planned`) with
/// their samples' robustness attached ([`attach`]); the samples
/// themselves are left out.
pub fn attach_samples(planned: &[PlannedStudy], studies: Vec<StudyResult>) -> Vec<StudyResult> {
    let mut main: Vec<(usize, StudyResult)> = Vec::new();
    let mut samples: BTreeMap<String, Vec<(Sample, StudyResult)>> = BTreeMap::new();
    for (i, (p, s)) in planned.iter().zip(studies).enumerate() {
        match &p.sample {
            Some(sample) => samples
                .entry(sample.of.clone())
                .or_default()
                .push((sample.clone(), s)),
            None => main.push((i, s)),
        }
    }
    main.into_iter()
        .map(|(i, mut s)| {
            if let Some(own) = samples.remove(&s.name) {
                let spec = &planned[i].spec;
                attach(&mut s, &spec.assumptions, &spec.claims, &own);
            }
            s
        })
        .collect()
}
