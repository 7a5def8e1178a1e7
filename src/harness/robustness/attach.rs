//! A robustness run's samples onto their study's result: the table
//! `robustness.csv`, each claim's `holds_in` and sentence, and one figure
//! per claim.

use crate::harness::claims::ClaimSpec;
use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::outcome::{COMPARISON_JOB, REFERENCE_JOB, StudyResult};
use crate::harness::rows::Verdict;
use crate::harness::spec::{Assumption, Scale};
use crate::harness::study::{Cells, StudyTable};

use super::analysis::{ClaimRobustness, NOT_JUDGED_WHY, analyse};
use super::samples::Sample;

/// The stem of the samples' table, `DIR/<study>/robustness.csv`.
pub const TABLE: &str = "robustness";

/// The table's column of failed jobs.
pub const FAILED: &str = "failed";

/// The suffix of a claim's column of measured criteria, `<claim> measured`.
pub const MEASURED: &str = " measured";

/// The failed jobs as written in the table, `case / method: message`
/// joined by `; ` (empty when every job finished).
fn failures(sample: &StudyResult) -> String {
    sample
        .failures()
        .iter()
        .map(|(case, method, message)| format!("{case} / {method}: {message}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether the failure of `job` (a method label, or `reference` /
/// `comparison`) leaves `claim` unjudged: unless every criterion names
/// its methods and `job` is none of them, nor a method a criterion
/// compares with, nor the study's `baseline` (speed-ups are measured
/// against it), nor a case's reference or comparison.
fn blocks(claim: &ClaimSpec, baseline: Option<&str>, job: &str) -> bool {
    let mut named = Vec::new();
    for c in &claim.criterion {
        match &c.method {
            Some(m) => named.extend(m.labels()),
            None => return true,
        }
        named.extend(c.reference.as_deref());
    }
    named.contains(&job) || baseline == Some(job) || job == REFERENCE_JOB || job == COMPARISON_JOB
}

/// The claim's verdict in one sample: `None` (not judged) when a failed
/// job it depends on ([`blocks`]) failed, or its deciding value could not
/// be computed (a quantity a criterion needs was not produced: the sample
/// says nothing either way).
fn sample_verdict(claim: &ClaimSpec, sample: &StudyResult) -> Option<bool> {
    let row = sample.claims.iter().find(|c| c.claim == claim.id)?;
    let blocked = sample
        .failures()
        .iter()
        .any(|(_, job, _)| blocks(claim, sample.baseline.as_deref(), job));
    if blocked || !row.value.is_finite() {
        return None;
    }
    Some(row.verdict == Verdict::Reproduced)
}

/// Attaches the samples (each with its result) of `study`'s assumption
/// box, in sample order: the table, each claim's `holds_in` and
/// `robustness` sentence, a figure per claim, and a note on the run.
pub fn attach(
    study: &mut StudyResult,
    assumptions: &[Assumption],
    claims: &[ClaimSpec],
    samples: &[(Sample, StudyResult)],
) {
    let values: Vec<Vec<f64>> = samples.iter().map(|(s, _)| s.values.clone()).collect();
    let ids: Vec<String> = study.claims.iter().map(|c| c.claim.clone()).collect();
    let verdicts: Vec<Vec<Option<bool>>> = ids
        .iter()
        .map(|id| {
            let Some(claim) = claims.iter().find(|c| &c.id == id) else {
                return vec![None; samples.len()];
            };
            samples
                .iter()
                .map(|(_, r)| sample_verdict(claim, r))
                .collect()
        })
        .collect();
    let mut columns: Vec<(String, String, Cells)> = vec![(
        "sample".into(),
        "the sample's index in the design (harness::robustness::design)".into(),
        Cells::Text(samples.iter().map(|(s, _)| s.index.to_string()).collect()),
    )];
    for (a, assumption) in assumptions.iter().enumerate() {
        columns.push((
            assumption.key.clone(),
            format!(
                "the sample's value of `{}` [{}] (plausible range {} to {}, {} scale; {})",
                assumption.key,
                assumption.unit,
                assumption.from,
                assumption.to,
                scale_name(assumption.scale),
                assumption.source
            ),
            if assumption.integer {
                Cells::Text(values.iter().map(|v| format!("{}", v[a])).collect())
            } else {
                Cells::Float(values.iter().map(|v| v[a]).collect())
            },
        ));
    }
    for (id, v) in ids.iter().zip(&verdicts) {
        columns.push((
            id.clone(),
            format!(
                "whether claim `{id}` holds in the sample (true/false; empty: not judged, {NOT_JUDGED_WHY})"
            ),
            Cells::Text(
                v.iter()
                    .map(|h| h.map_or(String::new(), |h| h.to_string()))
                    .collect(),
            ),
        ));
    }
    for id in &ids {
        columns.push((
            format!("{id}{MEASURED}"),
            format!("claim `{id}`'s criteria in the sample, each with its measured value (as claims.csv's `criterion`)"),
            Cells::Text(
                samples
                    .iter()
                    .map(|(_, r)| {
                        r.claims
                            .iter()
                            .find(|c| &c.claim == id)
                            .map_or_else(String::new, |c| c.criterion.clone())
                    })
                    .collect(),
            ),
        ));
    }
    columns.push((
        FAILED.into(),
        "the sample's failed jobs, `case / method: message` (empty: every job finished)".into(),
        Cells::Text(samples.iter().map(|(_, r)| failures(r)).collect()),
    ));
    study.summary.tables.push(StudyTable {
        stem: TABLE.into(),
        doc: format!(
            "The claims over {} samples of the study's assumption box (`--robustness`): one row per sample",
            samples.len()
        ),
        columns,
    });
    for (row, v) in study.claims.iter_mut().zip(&verdicts) {
        let r = analyse(&row.claim, assumptions, &values, v);
        row.holds_in = Some(r.fraction).filter(|f| f.0.is_finite());
        row.robustness = r.sentence(assumptions, row.verdict == Verdict::Reproduced);
    }
    let named: Vec<(String, Vec<Option<bool>>)> = ids.into_iter().zip(verdicts).collect();
    let figures = claim_figures(&study.name, assumptions, &values, &named);
    study.summary.figures.extend(figures);
    study.summary.notes.push(format!(
        "Robustness: {} samples of the assumption box ({}), a Latin hypercube with a fixed seed; each sample reruns the study and judges its claims.",
        samples.len(),
        assumptions
            .iter()
            .map(|a| format!("{} {} to {}", a.key, a.from, a.to))
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

fn scale_name(scale: Scale) -> &'static str {
    match scale {
        Scale::Linear => "linear",
        Scale::Log => "log",
    }
}

fn axis(a: &Assumption) -> Axis {
    let label = a.label();
    match a.scale {
        Scale::Linear => Axis::linear(label),
        Scale::Log => Axis::log(label),
    }
}

/// The figures of `claims` (id, verdict per sample) over the samples
/// `values` of the box of `assumptions`: one per group of claims with the
/// same verdicts (the same figure), none for a group that holds in every
/// judged sample or in none (nothing to draw apart: the sentence says
/// so).
pub fn claim_figures(
    study: &str,
    assumptions: &[Assumption],
    values: &[Vec<f64>],
    claims: &[(String, Vec<Option<bool>>)],
) -> Vec<Figure> {
    let mut groups: Vec<(Vec<&str>, &[Option<bool>])> = Vec::new();
    for (id, v) in claims {
        match groups.iter_mut().find(|(_, w)| *w == v.as_slice()) {
            Some((ids, _)) => ids.push(id),
            None => groups.push((vec![id.as_str()], v)),
        }
    }
    groups
        .into_iter()
        .filter(|(_, v)| v.contains(&Some(true)) && v.contains(&Some(false)))
        .filter_map(|(ids, v)| {
            let r = analyse(ids[0], assumptions, values, v);
            let mut f = figure(study, assumptions, values, v, &r)?;
            if ids.len() > 1 {
                f.title = format!(
                    "{study}: claim {} and {} more with the same verdicts over the assumption box",
                    ids[0],
                    ids.len() - 1
                );
                f.caption = format!(
                    "{} (and, with the same verdict in every sample, {}).",
                    f.caption.trim_end_matches('.'),
                    ids[1..]
                        .iter()
                        .map(|id| format!("`{id}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            Some(f)
        })
        .collect()
}

/// The claim's verdict over its two most influential parameters (the
/// split's, then the strongest other correlation), with the spec's
/// nominal point; with one assumption, over that parameter against the
/// sample index.
fn figure(
    study: &str,
    assumptions: &[Assumption],
    values: &[Vec<f64>],
    verdicts: &[Option<bool>],
    r: &ClaimRobustness,
) -> Option<Figure> {
    if values.is_empty() || assumptions.is_empty() {
        return None;
    }
    let strength = |a: usize| {
        let c = r.correlation[a].abs();
        if c.is_finite() { c } else { 0.0 }
    };
    let first = r.split.as_ref().map_or_else(
        || {
            (0..assumptions.len())
                .max_by(|&a, &b| strength(a).total_cmp(&strength(b)))
                .unwrap_or(0)
        },
        |s| s.assumption,
    );
    let second = (0..assumptions.len())
        .filter(|&a| a != first)
        .max_by(|&a, &b| strength(a).total_cmp(&strength(b)));
    let point = |k: usize| -> (f64, f64) {
        let y = second.map_or(k as f64, |b| values[k][b]);
        (values[k][first], y)
    };
    let mut series = Vec::new();
    let not_judged = format!("not judged ({NOT_JUDGED_WHY})");
    for (label, want) in [
        ("holds", Some(true)),
        ("does not hold", Some(false)),
        (not_judged.as_str(), None),
    ] {
        let (x, y): (Vec<f64>, Vec<f64>) = (0..values.len())
            .filter(|&k| verdicts[k] == want)
            .map(point)
            .unzip();
        if !x.is_empty() {
            series.push(Series::new(label, &x, &y, Style::Markers));
        }
    }
    if let Some(split) = &r.split {
        // The split's threshold across the drawn range of the other axis.
        let ys: Vec<f64> = (0..values.len()).map(|k| point(k).1).collect();
        let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if lo < hi {
            let t = split.threshold;
            series.push(Series::new(
                format!("threshold {} = {t:.3e}", assumptions[first].key),
                &[t, t],
                &[lo, hi],
                Style::Dashed,
            ));
        }
    }
    if let Some(b) = second {
        series.push(Series::new(
            "the spec's nominal values",
            &[assumptions[first].nominal],
            &[assumptions[b].nominal],
            Style::Markers,
        ));
    }
    let y = second.map_or_else(|| Axis::linear("sample [-]"), |b| axis(&assumptions[b]));
    Some(Figure {
        name: format!("robustness-{}", r.claim),
        title: format!("{study}: claim {} over the assumption box", r.claim),
        x: axis(&assumptions[first]),
        y,
        series,
        caption: format!(
            "Claim `{}` on each of {} samples of the study's assumption box, over its two most influential parameters: it {}.",
            r.claim,
            values.len(),
            r.sentence(assumptions, r.holds > 0)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(criteria: &str) -> ClaimSpec {
        toml::from_str(&format!(
            "id = \"c\"\nseed = \"s\"\nwords = \"w\"\nexpect = \"reproduced\"\n{criteria}"
        ))
        .unwrap()
    }

    /// A sample of one study whose claim `c` has verdict `holds` and
    /// deciding value `value`, and no failed job.
    fn sample(holds: bool, value: f64) -> StudyResult {
        use crate::harness::rows::ClaimRow;
        let verdict = if holds {
            Verdict::Reproduced
        } else {
            Verdict::NotReproduced
        };
        StudyResult {
            claims: vec![ClaimRow {
                value,
                ..ClaimRow::example("c", verdict)
            }],
            ..StudyResult::empty("s", "k")
        }
    }

    #[test]
    fn a_claim_whose_value_was_not_produced_is_not_judged() {
        let c = claim(
            "[[criterion]]\nquantity = \"speedup_median\"\nmethod = \"ncp\"\nmetric = \"value\"\ncomparison = \"at-least\"\nthreshold = 3.0",
        );
        assert_eq!(sample_verdict(&c, &sample(true, 4.0)), Some(true));
        assert_eq!(sample_verdict(&c, &sample(false, 2.0)), Some(false));
        // Not met only because the speed-up was not produced: unjudged.
        assert_eq!(sample_verdict(&c, &sample(false, f64::NAN)), None);
    }

    #[test]
    fn a_failed_job_unjudges_only_the_claims_that_use_it() {
        let named = claim(
            "[[criterion]]\nquantity = \"speedup_median\"\nmethod = \"ncp\"\nreference = \"ncp-fine\"\nmetric = \"value\"\ncomparison = \"at-least\"\nthreshold = 2.0",
        );
        // A method the claim does not use: still judged.
        assert!(!blocks(&named, Some("penalty"), "rk4"));
        // Its method, the method it compares with, the baseline, a
        // reference: not judged.
        for job in ["ncp", "ncp-fine", "penalty", REFERENCE_JOB, COMPARISON_JOB] {
            assert!(blocks(&named, Some("penalty"), job), "{job}");
        }
        // A criterion over every method: any failure unjudges it.
        let all = claim(
            "[[criterion]]\nquantity = \"x0\"\nmetric = \"value\"\ncomparison = \"at-most\"\nthreshold = 1.0",
        );
        assert!(blocks(&all, None, "rk4"));
    }
}
