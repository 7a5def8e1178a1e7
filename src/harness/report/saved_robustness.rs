//! The report's section on the saved robustness runs
//! (`harness::robustness::saved`): each claim's `holds_in` over its
//! study's assumption box, what decides it, and figures drawn from the
//! saved samples.

use super::doc::{Block, Document, Inline, RenderedFigure, RowKind, Table, code, strong, text};
use crate::harness::figure::Figure;
use crate::harness::format::short_commit;
use crate::harness::outcome::RunResult;
use crate::harness::robustness::saved::{SavedRobustness, SavedTable};
use crate::harness::robustness::{claim_figures, holds_percent};

/// The anchor of the section.
pub const ANCHOR: &str = "robustness";

/// The figures of a saved study's samples ([`claim_figures`]: one per
/// group of claims with the same verdicts, none for a claim that holds
/// everywhere or nowhere); none without the spec's assumptions.
pub fn figures(study: &str, table: &SavedTable) -> Vec<Figure> {
    table
        .assumptions
        .as_ref()
        .map_or_else(Vec::new, |assumptions| {
            claim_figures(study, assumptions, &table.values, &table.verdicts)
        })
}
/// The percentage and interval of `holds_in`, e.g. `83 % (74-90 %)`.
fn percent(h: Option<(f64, f64, f64)>) -> String {
    match h {
        Some(h) if h.0.is_finite() => holds_percent(h),
        _ => "-".into(),
    }
}

/// One saved run in the provenance list: commit, date, samples per
/// study, parts and their wall times, command.
fn provenance(saved: &SavedRobustness) -> Vec<Inline> {
    let samples: Vec<String> = saved
        .tables
        .iter()
        .map(|(study, t)| format!("{study} {}", t.values.len()))
        .collect();
    let mut line = vec![
        code(format!(
            "{}{}",
            short_commit(&saved.commit),
            if saved.dirty { " (dirty)" } else { "" }
        )),
        text(format!(" of {}: {}", saved.date, samples.join(", "))),
    ];
    if !saved.parts_wall_s.is_empty() {
        let walls: Vec<String> = saved
            .parts_wall_s
            .iter()
            .map(|w| format!("{w:.0} s"))
            .collect();
        line.push(text(format!(
            " samples; {} parts, wall times {}",
            walls.len(),
            walls.join(", ")
        )));
    } else {
        line.push(text(" samples"));
    }
    line.push(text("; "));
    line.push(code(&saved.command));
    line
}

/// The saved sentence without its opening `holds in P % (LO-HI %) of `
/// (the analysis's, [`holds_percent`]; the table's column before gives
/// it): `N samples of the plausible range...; decided by ...`.
fn beyond_fraction(sentence: &str, holds: Option<(f64, f64, f64)>) -> &str {
    holds
        .and_then(|h| sentence.strip_prefix(&format!("holds in {} of ", holds_percent(h))))
        .unwrap_or(sentence)
}

/// The section: each saved run's provenance, one row per claim with
/// samples (this run's verdict at the nominal values beside the saved
/// `holds_in` and sentence), and the `figures` drawn from the samples,
/// folded.
pub fn section(
    doc: &mut Document,
    run: &RunResult,
    saved: &[SavedRobustness],
    figures: &[RenderedFigure],
) {
    doc.heading(2, "Robustness over the unknowns", Some(ANCHOR));
    let moved: Vec<String> = saved
        .iter()
        .filter(|s| s.commit != run.manifest.commit)
        .map(|s| short_commit(&s.commit))
        .collect();
    let mut intro = vec![text(
        "Each claim over its study's assumption box: the saved robustness runs below sample the box (a Latin hypercube over the ranges of the spec's [[study.assumption]]), rerun the study on each sample and judge its claims; a study's rows come from the newest run that has it.",
    )];
    if !moved.is_empty() {
        intro.push(text(" "));
        intro.push(strong(format!(
            "This report is of commit {}: what changed since {} is not in the saved runs.",
            short_commit(&run.manifest.commit),
            moved.join(", ")
        )));
    }
    doc.paragraph(intro);
    doc.blocks
        .push(Block::List(saved.iter().map(provenance).collect()));
    let mut table = Table::new(&[
        ("study", false),
        ("claim", false),
        ("verdict here", false),
        ("holds in (95 %)", true),
        ("of the samples; what decides it", false),
    ]);
    for c in saved.iter().flat_map(|s| &s.claims) {
        let here = run
            .studies
            .iter()
            .find(|s| s.name == c.study)
            .and_then(|s| s.claims.iter().find(|r| r.claim == c.claim));
        let verdict = here.map_or_else(
            || "not in this run".to_string(),
            |r| r.verdict.name().to_string(),
        );
        let kind = if here.is_some_and(|r| r.verdict.name() != c.verdict) {
            RowKind::Flag
        } else {
            RowKind::Normal
        };
        table.push(
            kind,
            vec![
                vec![Inline::Link {
                    text: c.study.clone(),
                    href: format!("#{}", c.study),
                }],
                vec![code(&c.claim)],
                vec![text(verdict)],
                vec![text(percent(c.holds))],
                vec![text(beyond_fraction(&c.sentence, c.holds))],
            ],
        );
    }
    doc.blocks.push(Block::Table(table));
    let drawn: Vec<Block> = figures
        .iter()
        .map(|f| match &f.error {
            None => Block::Figure {
                src: f.src.clone(),
                alt: f.title.clone(),
                caption: vec![
                    strong(format!("{}.", f.title)),
                    text(format!(" {}", f.caption)),
                ],
            },
            Some(e) => Block::Paragraph(vec![strong(format!(
                "Figure `{}` could not be drawn: {e}",
                f.title
            ))]),
        })
        .collect();
    if !drawn.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "{}: each sample marked holds, does not hold or not judged, with the deciding split and the spec's nominal values (claims with the same verdicts in every sample share one; claims that hold everywhere or nowhere have none)",
                match drawn.len() {
                    1 => "The figure of the samples".to_string(),
                    n => format!("The {n} figures of the samples"),
                }
            ))],
            blocks: drawn,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fraction_is_cut_from_the_sentence_once() {
        let sentence = "holds in 38 % (26-51 %) of 56 samples of the plausible range; decided by x";
        assert_eq!(
            beyond_fraction(sentence, Some((0.38, 0.26, 0.51))),
            "56 samples of the plausible range; decided by x"
        );
        // Another fraction than the sentence's, or none: left whole.
        assert_eq!(beyond_fraction(sentence, Some((0.5, 0.4, 0.6))), sentence);
        assert_eq!(beyond_fraction(sentence, None), sentence);
    }
}
