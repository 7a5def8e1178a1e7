//! A robustness run's samples onto their study's result: the table
//! `robustness.csv`, each claim's `holds_in` and sentence, and one figure
//! per claim.

use crate::harness::figure::{Axis, Figure, Series, Style};
use crate::harness::outcome::StudyResult;
use crate::harness::rows::Verdict;
use crate::harness::spec::{Assumption, Scale};
use crate::harness::study::{Cells, StudyTable};

use super::analysis::{ClaimRobustness, analyse};
use super::samples::Sample;

/// The stem of the samples' table, `DIR/<study>/robustness.csv`.
pub const TABLE: &str = "robustness";

/// Whether a sample's study had a job fail (a `solver` check row): its
/// claims are not judged.
fn failed(sample: &StudyResult) -> bool {
    sample
        .checks
        .iter()
        .any(|c| c.check == "solver" && !c.passed)
}

/// Attaches the samples (each with its result) of `study`'s assumption
/// box, in sample order: the table, each claim's `holds_in` and
/// `robustness` sentence, a figure per claim, and a note on the run.
pub fn attach(
    study: &mut StudyResult,
    assumptions: &[Assumption],
    samples: &[(Sample, StudyResult)],
) {
    let values: Vec<Vec<f64>> = samples.iter().map(|(s, _)| s.values.clone()).collect();
    let ids: Vec<String> = study.claims.iter().map(|c| c.claim.clone()).collect();
    let verdicts: Vec<Vec<Option<bool>>> = ids
        .iter()
        .map(|id| {
            samples
                .iter()
                .map(|(_, r)| {
                    if failed(r) {
                        return None;
                    }
                    r.claims
                        .iter()
                        .find(|c| &c.claim == id)
                        .map(|c| c.verdict == Verdict::Reproduced)
                })
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
                "the sample's value of `{}` (plausible range {} to {}, {} scale; {})",
                assumption.key,
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
            format!("whether claim `{id}` holds in the sample (true/false; empty: a job of the sample failed)"),
            Cells::Text(
                v.iter()
                    .map(|h| h.map_or(String::new(), |h| h.to_string()))
                    .collect(),
            ),
        ));
    }
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
        if let Some(figure) = figure(&study.name, assumptions, &values, v, &r) {
            study.summary.figures.push(figure);
        }
    }
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
    let label = format!("{} (assumed)", a.key);
    match a.scale {
        Scale::Linear => Axis::linear(label),
        Scale::Log => Axis::log(label),
    }
}

/// The claim's verdict over its two most influential parameters (the
/// split's, then the strongest other correlation); with one assumption,
/// over that parameter against the sample index.
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
    for (label, want) in [
        ("holds", Some(true)),
        ("does not hold", Some(false)),
        ("not judged (a job failed)", None),
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
    let y = second.map_or_else(|| Axis::linear("sample"), |b| axis(&assumptions[b]));
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
