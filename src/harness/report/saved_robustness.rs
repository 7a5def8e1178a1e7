//! The report's section on a saved robustness run
//! (`harness::robustness::saved`): each claim's `holds_in` over its
//! study's assumption box, what decides it, and the saved run's figures.

use super::doc::{Block, Document, Inline, RowKind, Table, code, strong, text};
use crate::harness::format::short_commit;
use crate::harness::outcome::RunResult;
use crate::harness::robustness::saved::{SavedClaim, SavedRobustness};

/// The anchor of the section.
pub const ANCHOR: &str = "robustness";

/// `report/robustness/figures/<stem>.svg` of a saved claim's figure, as
/// the saved run's report names it (`<study>-robustness-<claim>`).
pub fn figure_stem(c: &SavedClaim) -> String {
    format!("{}-robustness-{}", c.study, c.claim)
}

/// The percentage and interval of `holds_in`, e.g. `83 % (74-90 %)`.
fn percent(h: Option<(f64, f64, f64)>) -> String {
    match h {
        Some((f, lo, hi)) if f.is_finite() => {
            format!("{:.0} % ({:.0}-{:.0} %)", 100.0 * f, 100.0 * lo, 100.0 * hi)
        }
        _ => "-".into(),
    }
}

/// The provenance line: commit, date, samples, parts and their wall
/// times, and whether the code has moved since.
fn provenance(run: &RunResult, saved: &SavedRobustness) -> Vec<Inline> {
    let samples: Vec<String> = saved
        .samples
        .iter()
        .map(|(study, n)| format!("{study} {n}"))
        .collect();
    let mut line = vec![
        text("From the saved robustness run at commit "),
        code(format!(
            "{}{}",
            short_commit(&saved.commit),
            if saved.dirty { " (dirty)" } else { "" }
        )),
        text(format!(" of {}: ", saved.date)),
        text(format!(
            "samples of each study's assumption box ({}), a Latin hypercube over the ranges of the spec's [[study.assumption]], each rerunning the study and judging its claims",
            samples.join(", ")
        )),
    ];
    if !saved.parts_wall_s.is_empty() {
        let walls: Vec<String> = saved
            .parts_wall_s
            .iter()
            .map(|w| format!("{w:.0} s"))
            .collect();
        line.push(text(format!(
            "; run as {} parts (wall times {})",
            walls.len(),
            walls.join(", ")
        )));
    }
    line.push(text(". Command: "));
    line.push(code(&saved.command));
    line.push(text(". "));
    line.push(Inline::Link {
        text: "Its full report".into(),
        href: "robustness/index.html".into(),
    });
    line.push(text("."));
    if saved.commit != run.manifest.commit {
        line.push(text(" "));
        line.push(strong(format!(
            "This report is of commit {}: what changed between the two commits is not in the saved run.",
            short_commit(&run.manifest.commit)
        )));
    }
    line
}

/// The section: provenance, one row per claim with samples (this run's
/// verdict at the nominal values beside the saved run's `holds_in` and
/// sentence), and the saved run's figures that `figures` holds (the
/// relative path of each claim's figure, None when it is absent).
pub fn section(
    doc: &mut Document,
    run: &RunResult,
    saved: &SavedRobustness,
    figures: &[Option<String>],
) {
    doc.heading(2, "Robustness over the unknowns", Some(ANCHOR));
    doc.paragraph(provenance(run, saved));
    let mut table = Table::new(&[
        ("study", false),
        ("claim", false),
        ("verdict here", false),
        ("holds in (95 %)", true),
        ("over the assumption box", false),
    ]);
    for c in &saved.claims {
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
                vec![text(&c.sentence)],
            ],
        );
    }
    doc.blocks.push(Block::Table(table));
    let drawn: Vec<Block> = saved
        .claims
        .iter()
        .zip(figures)
        .filter_map(|(c, src)| {
            src.as_ref().map(|src| Block::Figure {
                src: src.clone(),
                alt: format!("{}: claim {} over the assumption box", c.study, c.claim),
                caption: vec![
                    text(format!("{}: claim ", c.study)),
                    code(&c.claim),
                    text(format!(
                        " over its two most influential assumptions: it {}.",
                        c.sentence
                    )),
                ],
            })
        })
        .collect();
    if !drawn.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "The saved run's {}: each sample marked holds, does not hold or not judged, with the deciding split",
                match drawn.len() {
                    1 => "figure".to_string(),
                    n => format!("{n} figures"),
                }
            ))],
            blocks: drawn,
        });
    }
}
